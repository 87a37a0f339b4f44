"""Organizations In Conflict, the app's player (solo): the app plays a side (issue 12).

Also importable as :mod:`engine.solo`, its place before issue 31 (kept for callers).

A side of the setup may be played by the app (``"controller": "app"`` with a
``"level"``, validated by :func:`engine.conflict.normalize_setup`). This module
decides its moves. A decision is an ordinary engine action — a discard, a play or
a pass — carrying a one-line ``"why"`` for the log; it is recorded in the game like
any other action, so replays, undo, saves and links never depend on this code.

Levels (:data:`LEVELS`):

* ``"easy"`` — a random legal move: a random subset of the hand to discard, a
  random playable card (it passes only when it cannot play);
* ``"normal"`` — a readable heuristic (:func:`normal_play`, :func:`normal_discard`):
  it throws away the cards it cannot use; it opens with a low card of the suit where
  it holds the most cards (counting the suit that trumps it, OIC-12); on a card it
  plays the cheapest card that beats it (a low card of the same suit, then a trump,
  face cards last, OIC-11), weighing what the round would change if it ended on that
  card (OIC-15: a gain in the suit the round is about, or a loss for the other side
  in the last card's suit); it passes only when it cannot play;
* ``"hard"`` — plays from what it could know: it samples the other side's hidden
  hands consistent with everything public (cards played this round, the deck
  mode, hand sizes; its own hand for a shared deck), plays the round out with the
  Normal policy for every move it could make, and picks the move with the best
  expected rating result (:data:`HARD_SAMPLES` deals per decision).

The app never peeks: every decision is a function of :func:`observe` — the public
information plus the app's own hands — and of a random generator seeded from a hash
of that observation, so the same position always gives the same decision and two
positions that differ only in hidden cards (the other side's hands, the deck order)
give the same one.

The app does not decline to open a round (HR-OIC-1 would let it redeal for free).
"""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..cards import Card, Suit, full_deck
from ..game import Game, RuleError, replay
from ..text import brief_repr, plural
from .referee import normalize_action
from .rules import best_place, card_value, is_usable, max_card_size, rating_of, side_engageable, trumped_by, trumps
from .values import KIND, ArgumentError, ConflictState, InPlay, Play, Scope, Side, checked_state

__all__ = [
    "LEVELS", "LEVEL_LABELS", "HARD_SAMPLES", "Decision", "Observation",
    "controllers", "app_level", "to_act", "app_turn", "undo_target", "observe", "decide",
    "decide_observed", "normal_play", "normal_discard", "MAX_SAMPLES", "SUITS", "SIZE_WEIGHT", "OPPONENT_WEIGHT",
    "KNOCKOUT", "check_app_move", "app_move_work", "HARD_WORK", "MOVE_WORK",
]

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
LEVEL_LABELS: Mapping[str, str] = {"easy": "Easy", "normal": "Normal", "hard": "Hard"}

#: Hard: how many hidden deals it imagines per decision (tuned so that a decision
#: takes at most ~300 ms at the 95th percentile on Pyodide; see tests/bench_solo.py).
HARD_SAMPLES = 32

#: A rating point in a suit where a side can still be engaged is worth 1; each point of
#: max card size (up to 10, when every number card is usable) is worth this much more.
SIZE_WEIGHT = 0.1

#: A point of the other side's life (above the engagement threshold) is worth this many
#: of one's own; knocking a side out of the conflict (OIC-17) is worth KNOCKOUT more.
#: (Measured with tests/bench_solo.py: 1 beat 1.5 and 2 against Normal.)
OPPONENT_WEIGHT = 1.0
KNOCKOUT = 10.0

SUITS: tuple[Suit, ...] = tuple(Suit)
_DECK: tuple[Card, ...] = full_deck()
_INDEX: dict[Card, int] = {card: i for i, card in enumerate(_DECK)}
_SUIT = tuple(SUITS.index(card.suit) for card in _DECK)
_VALUE = tuple(card_value(card) for card in _DECK)
_FACE = tuple(card.is_face for card in _DECK)
_RANK = tuple(int(card.rank) for card in _DECK)


# ---------------------------------------------------------------------------
# Who plays which side


def _side_number(side: Any) -> int:
    if isinstance(side, bool) or not isinstance(side, int) or side not in (0, 1):
        raise ArgumentError(f"There is no side {brief_repr(side)} (sides are 0 and 1)")
    return side


def _game(game: Any) -> Game:
    if not isinstance(game, Game) or game.kind != KIND:
        raise ArgumentError(f"Not a conflict game: {type(game).__name__} (make one with new_game)")
    return game


def controllers(setup: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """The level of the app on each side of a (normalized) setup, ``None`` for people."""
    if not isinstance(setup, Mapping):
        raise ArgumentError(f"Not a conflict setup: {type(setup).__name__}")
    sides = setup.get("sides", ())
    out: list[str | None] = []
    for side in list(sides)[:2] if isinstance(sides, (list, tuple)) else ():
        app = isinstance(side, Mapping) and side.get("controller") == "app"
        level = side.get("level", "normal") if app else None
        out.append(level if level in LEVELS or level is None else "normal")
    while len(out) < 2:
        out.append(None)
    return out[0], out[1]


def app_level(setup: Mapping[str, Any], side: int) -> str | None:
    """The app's level on *side*, or ``None`` when people play it."""
    return controllers(setup)[_side_number(side)]


def to_act(state: ConflictState) -> tuple[int, int] | None:
    """(side, player) who must act now: the next player to discard, or the side to play.

    Discards go the aggressor's players first, then the defender's (the table's order);
    ``None`` when no one is to act (between rounds, or the conflict is over).
    """
    if checked_state(state).phase == "discard":
        for s in (state.aggressor, 1 - state.aggressor):
            for p, done in enumerate(state.discarded[s]):
                if not done:
                    return s, p
        return None
    if state.phase == "play" and state.turn is not None:
        return state.turn, 0
    return None


def app_turn(game: Any, state: ConflictState | None = None) -> tuple[int, str] | None:
    """(side, level) when the app must move now in *game* (an :class:`engine.game.Game`).

    ``None`` when people are to act, between rounds (starting a round is a person's
    tap), when the conflict is over, in table-deck mode, or while the game shows an
    earlier point of its history (the app never overwrites the redo stack by itself).
    """
    if _game(game).position != len(game.actions):
        return None
    if state is None:
        state = replay(game)
    checked_state(state)
    if state.deck_mode != "app":
        return None
    who = to_act(state)
    if who is None:
        return None
    level = controllers(game.setup)[who[0]]
    return None if level is None else (who[0], level)


def undo_target(game: Any) -> int | None:
    """Where one tap of Undo goes in a solo game: just before the person's last action.

    The app's own moves (actions with a ``"why"``) after it are undone too, or the app
    would only make them again. ``None`` when no action of a person is in force.
    """
    for index in range(_game(game).position - 1, -1, -1):
        if "why" not in game.actions[index]:
            return index
    return None


# ---------------------------------------------------------------------------
# What the app may know


@dataclass(frozen=True)
class Observation(InPlay):
    """Everything the app may use for *side*: public information and its own hands.

    Public: the rules, scope and sides with their current powers, the round, phase,
    aggressor and turn, this round's chain of cards, the finished rounds, who has
    discarded, every hand's size and every pile's size. Private to the app: its own
    ``hands``. The other side's cards and the order of every deck are not here.
    """

    side: int
    rules: tuple[tuple[str, Any], ...]
    scope: Scope
    sides: tuple[Side, ...]
    deck_mode: str
    round: int
    phase: str
    aggressor: int
    turn: int | None
    chain: tuple[Play, ...]
    results: tuple[tuple[int, str, int], ...]  # (winner, suit letter or "", delta) per round
    discarded: tuple[tuple[bool, ...], ...]
    hand_sizes: tuple[tuple[int, ...], ...]
    pile_sizes: tuple[tuple[int, int], ...]  # (draw pile, discard pile) per deck
    hands: tuple[tuple[Card, ...], ...]  # the app's own side, per player
    #: How its "why" names the other side's cards: "your " when people play it (the app
    #: talks to them), "<side>'s " when the app plays both sides. Not part of :meth:`key`.
    rival: str = "your "

    @property
    def opponent(self) -> int:
        return 1 - self.side

    def key(self, level: str, purpose: str) -> str:
        """A canonical text of the observation: the seed of the app's generator."""
        sides = _table(self).sides_key
        parts = [
            level, purpose, str(self.side), repr(self.rules), self.scope.value, sides, self.deck_mode,
            str(self.round), self.phase, str(self.aggressor), str(self.turn),
            " ".join(f"{p.side}{p.player}{p.card}" for p in self.chain),
            repr(self.results), repr(self.discarded), repr(self.hand_sizes), repr(self.pile_sizes),
            "/".join(" ".join(str(c) for c in hand) for hand in self.hands),
        ]
        return "\n".join(parts)


def observe(state: ConflictState, side: int) -> Observation:
    """What the app playing *side* may know in *state* (see :class:`Observation`)."""
    checked_state(state)
    _side_number(side)
    results = tuple((r.winner, r.suit.letter if r.suit else "", r.delta) for r in state.results)
    return Observation(
        side=side, rules=state.rules, scope=state.scope, sides=state.sides, deck_mode=state.deck_mode,
        round=state.round, phase=state.phase, aggressor=state.aggressor, turn=state.turn,
        chain=state.chain, results=results, discarded=state.discarded,
        hand_sizes=tuple(tuple(len(h) for h in hands) for hands in state.hands),
        pile_sizes=tuple((len(d), len(x)) for d, x in zip(state.draw_piles, state.discard_piles)),
        hands=tuple(state.hands[side]),
        rival="your " if state.levels[1 - side] is None else f"{state.sides[1 - side].name}'s ",
    )


def _rng(obs: Observation, level: str, purpose: str) -> random.Random:
    digest = hashlib.sha256(obs.key(level, purpose).encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


# ---------------------------------------------------------------------------
# Decisions


@dataclass(frozen=True)
class Decision:
    """An ordinary engine action for the app's side, and its one-line explanation."""

    action: dict[str, Any]
    why: str
    level: str


def decide(state: ConflictState, side: int, level: str = "normal",
           samples: int | None = None) -> Decision:
    """The app's move for *side* at *level* in *state* (the action carries ``"why"``).

    Discard phase: the discard of the first player of *side* who has not discarded;
    play phase, *side* to play: a play or a pass. Raises ``ValueError`` when *side*
    has nothing to decide. Uses only :func:`observe` (the app never peeks).

    Remembered with the state (a state never changes) and by the observation (another state
    object of the same position: undo, redo, a reload): asking again costs nothing.
    """
    checked_state(state)
    _side_number(side)
    _level(level)
    samples = _samples(samples)
    if state.deck_mode != "app":
        raise ArgumentError("The app cannot hold real cards: it plays only with the app deck")
    memo = state.__dict__.setdefault("_decisions", {})  # not a field: replace() starts a new one
    found = memo.get((side, level, samples))
    if found is None:
        obs = observe(state, side)
        content = (obs.key(level, "decide"), obs.rival, samples)
        found = _REMEMBERED.pop(content, None)
        if found is None:
            found = decide_observed(obs, level, samples)
            if len(_REMEMBERED) >= _REMEMBERED_SIZE:
                del _REMEMBERED[next(iter(_REMEMBERED))]  # the least recently used
        _REMEMBERED[content] = memo[(side, level, samples)] = found
    return Decision(copy.deepcopy(found.action), found.why, found.level)


#: Decisions by the observation they were made from (issue 33: compute once): a position seen
#: again — undo, redo, a reload, a link whose app moves are checked (HR-OIC-4) — is not thought
#: over again. The observation is everything a decision reads, so the same one decides the same.
_REMEMBERED_SIZE = 256
_REMEMBERED: dict[tuple[Any, ...], Decision] = {}


#: Hard may imagine at most this many deals per decision (a caller's ``samples``).
MAX_SAMPLES = 10_000


def _level(level: Any) -> str:
    if not isinstance(level, str) or level not in LEVELS:
        raise ArgumentError(f"Unknown level {brief_repr(level)} (levels are {', '.join(LEVELS)})")
    return level


def _samples(samples: Any) -> int | None:
    if samples is None:
        return None
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= MAX_SAMPLES:
        raise ArgumentError(f"The number of samples must be a whole number from 1 to {MAX_SAMPLES:,} "
                            f"(got {brief_repr(samples)})")
    return samples


def _observation(obs: Any) -> Observation:
    if not isinstance(obs, Observation):
        raise ArgumentError(f"Not an observation: {type(obs).__name__} (make one with observe)")
    return obs


def decide_observed(obs: Observation, level: str = "normal", samples: int | None = None) -> Decision:
    """:func:`decide` on an observation."""
    side = _observation(obs).side
    _level(level)
    samples = _samples(samples)
    if obs.phase == "discard":
        player = next((p for p, done in enumerate(obs.discarded[side]) if not done), None)
        if player is None:
            raise ArgumentError(f"{obs.sides[side].name} has already discarded this round")
        if level == "easy":
            cards, why = _easy_discard(obs, player, _rng(obs, level, f"discard{player}"))
        else:
            cards, why = normal_discard(obs, player)
        action = {"type": "discard", "side": side, "player": player, "cards": [str(c) for c in cards]}
        return _decision(action, why, level)
    if obs.phase != "play" or obs.turn != side:
        raise ArgumentError(f"It is not {obs.sides[side].name}'s turn to play")
    ctx = _Round(obs)
    legal = [(c, pl) for c, pl in ctx.mine if ctx.allowed(c)]
    if not legal:
        cur = obs.current_card
        if cur is None:
            why = "cannot open: no card it holds may open this round"
        else:
            why = f"cannot play on {_your(obs)}{cur.label}: the round ends"
        return _decision({"type": "pass", "side": side}, why, level)
    if level == "easy":
        rng = _rng(obs, level, "play")
        card, player = rng.choice(legal)
        why = (f"picked at random among {len(legal)} playable cards" if len(legal) > 1
               else "its only playable card")
        return _play_decision(obs, player, card, why, level)
    if level == "hard":
        return _hard_play(obs, ctx, legal, samples if samples is not None else HARD_SAMPLES)
    player, card, why = normal_play(obs, ctx)
    return _play_decision(obs, player, card, why, level)


def _decision(action: dict[str, Any], why: str, level: str) -> Decision:
    action["why"] = why
    return Decision(action, why, level)


def _your(obs: Observation) -> str:
    return obs.rival


def _play_decision(obs: Observation, player: int, card: int, why: str, level: str) -> Decision:
    token = _DECK[card]
    side = obs.sides[obs.side]
    who = f" ({side.players[player].name})" if len(side.players) > 1 else ""
    text = f"plays {token.label}{who}: {why}"
    return _decision({"type": "play", "side": obs.side, "player": player, "card": str(token)}, text, level)


# ---------------------------------------------------------------------------
# Discards


def _sizes(obs: Observation, side: int, player: int) -> dict[Suit, int]:
    s = obs.sides[side]
    out = {}
    for suit in SUITS:
        best = None
        for org in s.players[player].organizations:
            if org.suit == suit and (best is None or org.power > best):
                best = org.power
        out[suit] = max_card_size(best or 0, s.scope)
    return out


def normal_discard(obs: Observation, player: int) -> tuple[list[Card], str]:
    """Normal (and Hard): throw away every card it cannot use (OIC-5), keep the rest."""
    _observation(obs)
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < len(obs.hands):
        raise ArgumentError(f"There is no player {brief_repr(player)} on {obs.sides[obs.side].name}")
    sizes = _sizes(obs, obs.side, player)
    hand = obs.hands[player]
    dead = [c for c in hand if not is_usable(c, sizes[c.suit])]
    if not dead:
        return [], "keeps all its cards: it can use every one"
    return dead, f"discards {plural(len(dead), 'card')} it cannot use and draws as many"


def _easy_discard(obs: Observation, player: int, rng: random.Random) -> tuple[list[Card], str]:
    hand = obs.hands[player]
    cards = [c for c in hand if rng.random() < 0.5]
    if not cards:
        return [], "keeps all its cards (at random)"
    return cards, f"discards {plural(len(cards), 'card')} at random and draws as many"


# ---------------------------------------------------------------------------
# One round as small integers: the Normal policy and the round played out


class _Table:
    """What stays fixed while the rules and the ratings do: follow rules, card sizes, stakes.

    Cached per (rules, sides, scope): a conflict reuses it for every decision until a
    rating changes.
    """

    def __init__(self, rules: tuple[tuple[str, Any], ...], sides: tuple[Side, ...], scope: Scope):
        settings = dict(rules)
        self.trump_of = tuple(SUITS.index(trumps(suit, settings)) for suit in SUITS)
        self.trumped_by = tuple(SUITS.index(trumped_by(suit, settings)) for suit in SUITS)
        self.higher = settings.get("face_on_face") == "higher"
        self.shared = settings.get("deck") == "shared"
        threshold = scope.engage_threshold
        # usable[side][player][card] (OIC-5: face cards always, number cards up to max size).
        self.usable = []
        for s in sides:
            rows = []
            for p in range(len(s.players)):
                sizes = [max_card_size(rating_of(s, suit, p) or 0, s.scope) for suit in SUITS]
                rows.append(tuple(_FACE[c] or _VALUE[c] <= sizes[_SUIT[c]] for c in range(52)))
            self.usable.append(rows)
        # Per side: suits (indexes) in which it can be engaged (opening, OIC-10).
        self.engageable = [frozenset(SUITS.index(x) for x in side_engageable(s, scope)) for s in sides]
        # OIC-15/16: what a +1 / −1 in each suit does to a side's standing. A side's
        # *life* is its points above the engagement threshold over all suits (OIC-17: at
        # 0 it has lost); its *sizes* its max card sizes (up to 10) over all suits.
        life = [0, 0]
        change = [[[(0, 0.0), (0, 0.0)] for _ in range(4)] for _ in sides]  # [side][suit][gain/loss]
        for si, s in enumerate(sides):
            for i, suit in enumerate(SUITS):
                best = best_place(s, suit)
                if best is None:
                    continue
                power = s.players[best[0]].organizations[best[1]].power
                life[si] += max(0, power - threshold)
                up, down = power + 1, max(0, power - 1)
                change[si][i] = [
                    (max(0, up - threshold) - max(0, power - threshold), _size(up, s.scope) - _size(power, s.scope)),
                    (max(0, down - threshold) - max(0, power - threshold), _size(down, s.scope) - _size(power, s.scope)),
                ]
        # stake[me][changed side][suit][0 gain, 1 loss]: what that change is worth to *me*:
        # a point of my life counts 1, a point of the other side's life OPPONENT_WEIGHT,
        # a side knocked out (OIC-17) KNOCKOUT more — so a last point is worth going for
        # rather than piling up points of one's own — and card sizes a little.
        self.life = tuple(life)
        self.stake = [[[[0.0, 0.0] for _ in range(4)] for _ in range(2)] for _ in range(2)]
        for me in range(2):
            for changed in range(2):
                for i in range(4):
                    for k in range(2):
                        dl, ds = change[changed][i][k]
                        if changed == me:
                            worth = dl + SIZE_WEIGHT * ds
                            if life[me] + dl <= 0 < life[me]:
                                worth -= KNOCKOUT
                        else:
                            worth = -OPPONENT_WEIGHT * dl - SIZE_WEIGHT * ds
                            if life[changed] + dl <= 0 < life[changed]:
                                worth += KNOCKOUT
                        self.stake[me][changed][i][k] = worth
        # Normal's cost of spending a card, per side and per suit the round is about
        # (index 4: not opened yet): same suit as the current card / a trump. Built on use.
        self._costs: dict[tuple[int, int], tuple[tuple[float, ...], tuple[float, ...]]] = {}
        self._orders: list[list[list[list[int] | None]]] = [[[None] * 52 for _ in range(5)] for _ in sides]
        self.sides_key = ";".join(
            f"{s.name}|{s.scope.value}|" + ",".join(
                f"{pl.name}:" + ".".join(f"{o.suit.letter}{o.power}" for o in pl.organizations)
                for pl in s.players)
            for s in sides)

    def end_worth(self, side: int, suit: int, first: int | None) -> float:
        """What *side* wins if the round ends on its card of *suit* (the other side cannot play).

        OIC-15: in the suit the round is about, the winner gains 1; in another suit, the
        loser loses 1 in the suit of the last card.
        """
        if first is None or first == suit:
            return self.stake[side][side][suit][0]
        return self.stake[side][1 - side][suit][1]

    def value(self, side: int, winner: int, first: int | None, last: int | None) -> float:
        """OIC-15/16: what a round that ends this way is worth to *side*."""
        if first is None:
            return 0.0  # HR-OIC-1: nothing at stake
        if first == last:
            return self.stake[side][winner][first][0]
        return self.stake[side][1 - winner][last][1]  # type: ignore[index]  # a round with a first suit has a last card

    def costs(self, side: int, key: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """Normal's cost of each card for *side* (same suit as the current card, or a trump).

        A number card costs its value (a trump 10 more), a face card 30 and up (jack <
        queen < king), less four times what the round would give if it ended on that card.
        """
        found = self._costs.get((side, key))
        if found is None:
            first = None if key == 4 else key
            worth = [4 * self.end_worth(side, suit, first) for suit in range(4)]
            same = tuple((30 + _RANK[c] if _FACE[c] else _VALUE[c]) - worth[_SUIT[c]] for c in range(52))
            trump = tuple((30 + _RANK[c] if _FACE[c] else 10 + _VALUE[c]) - worth[_SUIT[c]] for c in range(52))
            found = self._costs[(side, key)] = (same, trump)
        return found

    def order(self, side: int, first: int | None, current: int) -> list[int]:
        """Normal's preference among every card that may follow *current*, cheapest first."""
        key = 4 if first is None else first
        row = self._orders[side][key]
        found = row[current]
        if found is None:
            same, trump = self.costs(side, key)
            cur_suit = _SUIT[current]
            found = sorted((c for c in range(52) if self.follows(c, current)),
                           key=lambda c: ((same if _SUIT[c] == cur_suit else trump)[c], c))
            row[current] = found
        return found

    def follows(self, card: int, current: int) -> bool:
        """OIC-11/12/13 on card indexes."""
        suit, cur_suit = _SUIT[card], _SUIT[current]
        if suit == cur_suit:
            if _FACE[card]:
                return not (self.higher and _FACE[current] and _RANK[card] <= _RANK[current])
            return _VALUE[card] > _VALUE[current]
        return self.trump_of[suit] == cur_suit


_TABLES: dict[tuple[Any, ...], _Table] = {}


def _table(obs: Observation) -> _Table:
    key = (obs.rules, obs.sides, obs.scope)
    table = _TABLES.get(key)
    if table is None:
        if len(_TABLES) > 64:
            _TABLES.clear()
        table = _TABLES[key] = _Table(obs.rules, obs.sides, obs.scope)
    return table


class _Round:
    """This round for the app: the table, the app's usable cards, the chain so far."""

    def __init__(self, obs: Observation):
        self.obs = obs
        self.t = t = _table(obs)
        chain = obs.chain
        self.first = _SUIT[_INDEX[chain[0].card]] if chain else None
        self.current = _INDEX[chain[-1].card] if chain else None
        self.turn: int = obs.turn  # type: ignore[assignment]  # the app decides only on a side's turn
        me = obs.side
        own: list[tuple[int, int]] = []
        for p, hand in enumerate(obs.hands):
            usable = t.usable[me][p]
            own.extend((_INDEX[c], p) for c in hand if usable[_INDEX[c]])
        own.sort()
        #: The app's usable cards as (card index, player), sorted by card.
        self.mine = own

    def allowed(self, card: int) -> bool:
        """May the side to play put *card* (one of its usable cards) on the current card?"""
        if self.current is None:
            return _SUIT[card] in self.t.engageable[1 - self.turn]
        return self.t.follows(card, self.current)


def _size(power: int, scope: Scope) -> int:
    """OIC-5/OIC-18: max card size, counted 0 … 10 (from 10 every number card is usable)."""
    return max(0, min(10, max_card_size(power, scope)))


def _open_pick(t: _Table, side: int, cards: list[int]) -> tuple[int, int, int] | None:
    """Normal opening: (index in *cards*, cards of its suit, cards of the suit behind) or None.

    The suit where it holds the most cards, counting those of the suit that trumps it
    (they answer a trump) and what a gain there is worth; its lowest number card there.
    """
    counts = [0, 0, 0, 0]
    for card in cards:
        counts[_SUIT[card]] += 1
    engageable = t.engageable[1 - side]
    best = None
    best_key = None
    for i, card in enumerate(cards):
        suit = _SUIT[card]
        if suit not in engageable:
            continue
        backing = counts[t.trumped_by[suit]]
        strength = counts[suit] + backing + 2 * t.end_worth(side, suit, None)
        key = (-strength, _FACE[card], _RANK[card] if _FACE[card] else _VALUE[card], card)
        if best_key is None or key < best_key:
            best, best_key = (i, counts[suit], backing), key
    return best


def _pick(t: _Table, side: int, cards: list[int], current: int | None, first: int | None) -> int | None:
    """Normal: the index in *cards* (sorted) of the card to play, or None (cannot play).

    On a card: the cheapest that beats it — a low card of the same suit, then a trump,
    face cards last — less four times what the round would give if it ended there.
    """
    if current is None:
        choice = _open_pick(t, side, cards)
        return None if choice is None else choice[0]
    held = set(cards)
    for card in t.order(side, first, current):
        if card in held:
            return cards.index(card)
    return None


def normal_play(obs: Observation, ctx: _Round | None = None) -> tuple[int, int, str]:
    """Normal: (player, card index, why) — see the module docstring. Requires a playable card."""
    _observation(obs)
    if ctx is not None and (not isinstance(ctx, _Round) or ctx.obs is not obs):
        raise ArgumentError("normal_play's round context must be the one made for this observation")
    if obs.phase != "play" or obs.turn != obs.side:
        raise ArgumentError(f"It is not {obs.sides[obs.side].name}'s turn to play")
    ctx = ctx or _Round(obs)
    cards = [c for c, _ in ctx.mine]
    index = _pick(ctx.t, obs.side, cards, ctx.current, ctx.first)
    if index is None:
        raise ArgumentError("no card can be played")
    card, player = ctx.mine[index]
    return player, card, _normal_why(obs, ctx, cards, card)


def _normal_why(obs: Observation, ctx: _Round, cards: list[int], card: int) -> str:
    t = ctx.t
    side = obs.side
    suit = SUITS[_SUIT[card]]
    current = ctx.current
    if current is None:
        # Says why, never what else it holds (its hand is hidden).
        low = "with a face card" if _FACE[card] else "lowest card first"
        return f"opens in {suit.noun}, the suit it is strongest in, {low}"
    cur = _DECK[current]
    keeps_faces = any(_FACE[c] for c in cards if c != card)
    if _SUIT[card] == _SUIT[current]:
        if _FACE[card]:
            what = f"a face card beats any {cur.suit.noun[:-1]}: its cheapest answer to {_your(obs)}{cur.label}"
        else:
            what = f"the cheapest card that beats {_your(obs)}{cur.label}"
    else:
        what = f"trumps {_your(obs)}{cur.label}"
    if not _FACE[card] and keeps_faces:
        what += " and keeps its face cards"
    worth = t.end_worth(side, _SUIT[card], ctx.first)
    if worth > 0.5 and _SUIT[card] != ctx.first:
        loser = "you lose" if obs.rival == "your " else f"{obs.sides[obs.opponent].name} loses"
        what += f"; if it stands, {loser} a point in {suit.noun}"
    elif worth > 0.5:
        what += f"; if it stands, it gains a point in {suit.noun}"
    return what


def _rollout(t: _Table, held: list[bytearray], turn: int, current: int, first: int, me: int) -> float:
    """Play the rest of the round with the Normal policy for both sides (*held* is consumed)."""
    orders = t._orders
    while True:
        hand = held[turn]
        order = orders[turn][first][current] or t.order(turn, first, current)
        for card in order:
            if hand[card]:
                break
        else:
            return t.value(me, 1 - turn, first, _SUIT[current])
        hand[card] = 0
        current = card
        turn = 1 - turn


def _sample_hidden(obs: Observation, t: _Table, rng: random.Random) -> list[int]:
    """One deal of the other side's usable cards, consistent with what the app can see.

    The other side's hand sizes are public; its cards are not: they are drawn from the
    cards it could hold (its own deck minus what it played this round; with one shared
    deck, also minus the app's hand and every card played). Like a player who threw
    away what they could not use, a card it could not use is redrawn once.
    """
    opp = obs.opponent
    out = set()
    for play in obs.chain:
        if play.side == opp or t.shared:
            out.add(_INDEX[play.card])
    if t.shared:
        for hand in obs.hands:
            out.update(_INDEX[c] for c in hand)
    pool = [i for i in range(52) if i not in out]
    wanted = sum(obs.hand_sizes[opp])
    pool = rng.sample(pool, min(len(pool), wanted + wanted // 2 + 2))
    at = 0
    end = len(pool)
    usable: list[int] = []
    for p, size in enumerate(obs.hand_sizes[opp]):
        ok = t.usable[opp][p]
        for _ in range(size):
            if at >= end:
                break
            card = pool[at]
            at += 1
            if not ok[card] and at < end:
                card = pool[at]  # the discard: redrawn once
                at += 1
            if ok[card]:
                usable.append(card)
    return usable


def _hard_play(obs: Observation, ctx: _Round, legal: list[tuple[int, int]], samples: int) -> Decision:
    """Hard: every move (and passing) played out over *samples* imagined deals; the best mean."""
    side = obs.side
    t = ctx.t
    normal_player, normal_card, normal_why = normal_play(obs, ctx)
    candidates: list[tuple[int, int] | None] = list(_distinct(legal))
    if (normal_card, normal_player) not in candidates:
        candidates.append((normal_card, normal_player))
    if ctx.current is not None:
        candidates.append(None)  # pass: the round ends on the current card
    if len(candidates) == 1:
        card, player = legal[0]
        return _play_decision(obs, player, card, f"its only playable card ({normal_why})", "hard")
    rng = _rng(obs, "hard", "play")
    n = max(1, samples)
    totals = [0.0] * len(candidates)
    mine = bytearray(52)
    for c, _ in ctx.mine:
        mine[c] = 1
    last = None if ctx.current is None else _SUIT[ctx.current]
    pass_value = t.value(side, 1 - side, ctx.first, last)
    for _ in range(n):
        theirs = bytearray(52)
        for c in _sample_hidden(obs, t, rng):
            theirs[c] = 1
        for k, move in enumerate(candidates):
            if move is None:
                totals[k] += pass_value
                continue
            card = move[0]
            held: list[bytearray] = [theirs, theirs]  # each side's cards are set just below
            held[side] = bytearray(mine)
            held[side][card] = 0
            held[1 - side] = bytearray(theirs)
            first = ctx.first if ctx.first is not None else _SUIT[card]
            totals[k] += _rollout(t, held, 1 - side, card, first, side)
    # The best expected result; on a tie, the Normal choice, then playing over passing.
    def rank(k: int) -> tuple[float, bool, bool]:
        move = candidates[k]
        return (round(totals[k] / n, 9), move is not None and move[0] == normal_card, move is not None)

    best = max(range(len(candidates)), key=rank)
    move = candidates[best]
    mean = totals[best] / n
    if move is None:
        cur = _DECK[ctx.current]  # type: ignore[index]  # a pass answers a card: current is set
        alt = max(totals[k] / n for k in range(len(candidates)) if candidates[k] is not None)
        why = (f"passes on {_your(obs)}{cur.label}: over {n} deals it could not see, playing on would "
               f"cost more ({_signed(alt)} against {_signed(mean)} rating points)")
        return _decision({"type": "pass", "side": side}, why, "hard")
    card, player = move
    why = (f"the best of {len(candidates)} moves over {n} deals it could not see "
           f"({_signed(mean)} rating points on average)")
    return _play_decision(obs, player, card, why, "hard")


def _distinct(legal: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Hard's candidate moves: per suit, its lowest and highest number card and face card.

    Cards between them differ only in how hard they are to beat; the extremes bracket
    that choice and keep the decision fast (sorted by card, so the order is fixed).
    """
    keep: dict[tuple[int, bool], list[tuple[int, int]]] = {}
    for move in legal:
        card = move[0]
        group = keep.setdefault((_SUIT[card], _FACE[card]), [])
        group.append(move)
    out = set()
    for group in keep.values():
        out.add(min(group, key=_strength))
        out.add(max(group, key=_strength))
    return sorted(out)


def _strength(move: tuple[int, int]) -> tuple[int, int]:
    card = move[0]
    return (_RANK[card] if _FACE[card] else _VALUE[card], card)


def _signed(value: float) -> str:
    return f"{value:+.1f}".replace("-", "−")


# ---------------------------------------------------------------------------
# HR-OIC-4: the app's moves of a conflict from outside, derived again (issue 35)

#: What checking one of the app's moves costs (the units of engine.game.MAX_REPLAY_WORK): a Hard
#: play or pass imagines HARD_SAMPLES deals (its slowest decisions, measured on CPython:
#: tests/bench_appmove.py); every other move, a discard or an Easy or Normal play, MOVE_WORK.
HARD_WORK = 12_000
MOVE_WORK = 500

_MOVES = ("discard", "play", "pass")


def _move(action: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in action.items() if key != "why"}


def check_app_move(game: Any, state: ConflictState, action: Mapping[str, Any]) -> None:
    """HR-OIC-4: raise the :class:`~engine.game.RuleError` when ``action`` (about to be taken in
    ``state`` of ``game``) is a move of a side the app plays — a discard, a play or a pass — and
    not the move the app makes there (:func:`decide`, from its observation: the public conflict
    and its own hand). People's moves pass. The message names no card (the app's hand is hidden)."""
    if not isinstance(action, Mapping) or action.get("type") not in _MOVES or state.deck_mode != "app":
        return
    side = action.get("side")
    if side not in (0, 1) or isinstance(side, bool):
        return
    level = state.levels[side]
    if level is None:
        return
    what = {"discard": "discard", "play": "card", "pass": "pass"}[action["type"]]
    who = f"{state.sides[side].name} is played by the app ({LEVEL_LABELS.get(level, level)})"
    if "why" not in action:
        raise RuleError("HR-OIC-4", f"{who}: only the app moves that side, and this {what} of round "
                                    f"{state.round} is not the app's")
    try:
        made = normalize_action(state, decide(state, side, level).action)
    except ValueError:  # the app has nothing to decide here (not its turn): not its move
        raise RuleError("HR-OIC-4", f"{who}, and a {what} of round {state.round} is recorded where the app "
                                    "does not move") from None
    if _move(made) != _move(action):
        raise RuleError("HR-OIC-4", f"{who}, and its {what} of round {state.round} is not the move the app makes "
                                    "there (it decides from the game's seed, what the table can see and its own "
                                    "hand)")


def app_move_work(setup: Mapping[str, Any], actions: Any) -> int:
    """HR-OIC-4: the work of checking the app's moves of a conflict (see
    :func:`engine.game.app_move_work`), from the (normalized) setup and the actions: a Hard play
    or pass :data:`HARD_WORK`, any other move of a side the app plays :data:`MOVE_WORK`. 0 when
    people play both sides or the table's own cards are used."""
    if not isinstance(setup, Mapping) or setup.get("deck", "app") != "app":
        return 0
    levels = controllers(setup)
    if levels == (None, None):
        return 0
    work = 0
    for action in actions:
        if not isinstance(action, Mapping) or action.get("type") not in _MOVES:
            continue
        side = action.get("side")
        level = levels[side] if side in (0, 1) and not isinstance(side, bool) else None
        if level == "hard" and action["type"] != "discard":
            work += HARD_WORK
        elif level is not None:
            work += MOVE_WORK
    return work
