"""Campaign with a poker-hand peace treaty (RULES.md section 2, clauses CMP-1 … CMP-10).

Two players — or one player against the dummy (CMP-9) — fight a run of battles
on the tabletop. The app keeps the cards: six hidden cards each and a face-up
pool of four (CMP-1); before each battle a random stake from each hand (CMP-2);
after it, the winner and the winner's troop points left (CMP-3, decisive at 8+),
the spoils (CMP-4), stakes back to their owners (CMP-5); from the third battle
on, the exhaustion roll (CMP-6); and at the end the negotiating table, where the
best five-card poker hands decide the war (CMP-7, CMP-8). Losing your last card
loses the campaign (CMP-2).

The module has three layers:

* pure rule functions: :func:`is_decisive`, :func:`exhaustion_chance`,
  :func:`exhaustion_odds_text`, :func:`dummy_pick`, :func:`die_choice`,
  :func:`treaty_odds`, :func:`compare_hands` — each docstring starts with its id;
* the session protocol of :mod:`engine.game` (``KIND``, ``VARIANTS``,
  :func:`normalize_setup`, :func:`start`, :func:`step`, :func:`describe`,
  :func:`public_game`) over an immutable :class:`CampaignState`;
* helpers for the table UI (:func:`status`, :func:`spoils_choices`,
  :func:`treaty_chances`, :func:`visible_cards`).

Setup (JSON): ``{"players": ["Anna", "Ben"], "dummy": false}``; with
``"dummy": true`` the second player is the dummy (its name defaults to
"Dummy"). A spectator's copy (:func:`public_game`) adds ``"reveal"``: the cards
and dice that were shown face up, so it replays without the seed or any hand.

Actions (plain JSON dicts):

* ``{"type": "battle", "winner": 0, "troops": 9}`` — a battle fought on the
  tabletop (CMP-3): the winner (0 or 1, ``null`` for a drawn battle, CMP-5) and
  the winner's troop points left in play;
* ``{"type": "take", "stake": true, "pool": "KH"}`` — the winner's spoils
  (CMP-4): the loser's stake and/or one pool card (``"pool": null`` for none).
  The dummy never sends it: it takes by CMP-9/CMP-10 as its battle is recorded;
* ``{"type": "roll"}`` — the exhaustion roll (CMP-6);
* ``{"type": "negotiate"}`` — the negotiating table (CMP-7, CMP-8, CMP-9).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from .cards import Card, CardError, Rank, full_deck, parse_card, shuffled_deck
from .game import ActionError, Game, RuleError
from .poker import CATEGORIES, Hand, best_hand
from .text import setup_text

__all__ = [
    "KIND", "VARIANTS", "HOUSE_RULES", "RULINGS", "SetupError", "PHASES", "HAND_SIZE", "POOL_SIZE",
    "DECISIVE_TROOPS", "EXHAUSTION_FROM", "EXHAUSTION_TARGET", "MAX_TROOPS",
    "LogEntry", "Roll", "Treaty", "CampaignState",
    "is_decisive", "exhaustion_chance", "exhaustion_odds_text", "die_choice", "dummy_pick",
    "treaty_odds", "compare_hands",
    "normalize_setup", "start", "step", "describe", "public_game",
    "status", "spoils_choices", "treaty_chances", "visible_cards", "player_cards",
]

KIND = "campaign"

#: What a spectator link (:func:`public_game`) shows, in the Share drawer's words.
SPECTATOR_VIEW = "the pool, the stakes, card counts, battles and the log. No hidden hand, no deck order, no seed."

#: RULES.md has no campaign variants.
VARIANTS: tuple = ()

#: CMP-1: hidden cards dealt to each player, and face-up cards in the pool.
HAND_SIZE = 6
POOL_SIZE = 4
#: CMP-3: troop points left in play from which a victory is decisive.
DECISIVE_TROOPS = 8
#: Largest troop count the app accepts (a typo guard, not a rule).
MAX_TROOPS = 999
#: CMP-6: the first battle after which the exhaustion roll is made, and its target.
EXHAUSTION_FROM = 3
EXHAUSTION_TARGET = 9
#: CMP-7: cards in a poker hand.
TREATY_CARDS = 5

#: House rules of this app that are not in RULES.md (id → text). Shown with a marker.
HOUSE_RULES: Mapping[str, str] = MappingProxyType({
    "HR-CMP-1": "When the dummy must choose between equally high cards, it rolls one die: the choices are "
                "numbered in the order the table shows them (your stake first, then the pool from left to "
                "right). With 2 choices 1–3 takes the first and 4–6 the second; with 3, 1–2, 3–4 and 5–6; "
                "with 4 or 5, the die shows the choice and a higher roll is rolled again.",
    "HR-CMP-2": "A drawn battle counts as a battle fought: it adds to the number of battles in the "
                "exhaustion roll, and from the third battle on the roll follows it.",
})

#: RULES.md clauses that are rulings (the app's reading where the source is silent).
RULINGS: tuple[str, ...] = ("CMP-5", "CMP-10")

PHASES = ("battle", "spoils", "exhaustion", "exhausted", "over")

_NAME_MAX = 40
_ALL = full_deck()


class SetupError(ValueError):
    """A campaign setup that cannot be played (message names the field)."""


# ---------------------------------------------------------------------------
# Values


@dataclass(frozen=True)
class LogEntry:
    """One line of the campaign log: what happened, which cards moved, and the rule.

    ``battle`` is the battle it belongs to (0 for the deal); ``cards`` the cards
    that moved (face up: the log never names a hidden card).
    """

    battle: int
    text: str
    rule: str
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True)
class Roll:
    """CMP-6: an exhaustion roll after ``battles`` battles."""

    battles: int
    dice: tuple[int, int]

    @property
    def lower(self) -> int:
        return min(self.dice)

    @property
    def total(self) -> int:
        return self.lower + self.battles

    @property
    def exhausted(self) -> bool:
        return self.total >= EXHAUSTION_TARGET


@dataclass(frozen=True)
class Treaty:
    """CMP-7/CMP-8: the negotiating table.

    ``cards[p]`` are all of player p's cards at the table, ``drawn[p]`` those drawn
    from the deck there (up to five, CMP-7, and the dummy's extra card, CMP-9),
    ``hands[p]`` the best hands; ``winner`` is ``None`` for equal hands (a draw).
    """

    cards: tuple[tuple[Card, ...], tuple[Card, ...]]
    drawn: tuple[tuple[Card, ...], tuple[Card, ...]]
    hands: tuple[Hand, Hand]
    winner: int | None
    explanation: str


@dataclass(frozen=True)
class CampaignState:
    """The whole campaign at one moment. Immutable: :func:`step` returns a new one.

    * ``players`` — the two names; ``dummy`` — whether player 1 is the dummy (CMP-9);
    * ``hands`` — each player's hidden cards, the stake not included (empty tuples
      in a spectator's copy, where only ``counts`` are known); ``counts`` — how
      many cards each hand holds;
    * ``stakes`` — this battle's face-up stakes (``None`` when not out);
    * ``pool`` — the face-up pool (CMP-1, CMP-4); ``deck`` — the draw pile, top first;
    * ``phase`` — one of :data:`PHASES`; ``battle`` — the battle being fought (or
      just fought, in "spoils"); ``fought`` — battles finished;
    * ``pending`` — in "spoils": ``(winner, troops, decisive)``;
    * ``rolls`` — every exhaustion roll; ``log`` — every card that moved and why;
    * ``treaty`` / ``winner`` / ``result`` — at the end (``winner`` None: a draw);
    * ``seen`` — every card that has been face up (pool, stakes), for the odds;
    * ``public`` — a spectator's copy; ``script`` — its remaining revealed facts;
    * ``history`` — the revealed facts so far (what :func:`public_game` keeps).
    """

    players: tuple[str, str]
    dummy: bool
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    counts: tuple[int, int]
    stakes: tuple[Card | None, Card | None]
    pool: tuple[Card, ...]
    deck: tuple[Card, ...]
    phase: str
    battle: int
    fought: int = 0
    pending: tuple[int, int, bool] | None = None
    rolls: tuple[Roll, ...] = ()
    log: tuple[LogEntry, ...] = ()
    treaty: Treaty | None = None
    winner: int | None = None
    result: str = ""
    seen: frozenset = frozenset()
    public: bool = False
    script: Mapping[str, Any] | None = None
    history: Mapping[str, Any] | None = None

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def cards_of(self, player: int) -> tuple[Card, ...]:
        """All of a player's own cards: the hand and, while it is out, the stake."""
        stake = self.stakes[player]
        return self.hands[player] + ((stake,) if stake is not None else ())

    def card_count(self, player: int) -> int:
        """How many cards a player owns (hand and stake)."""
        return self.counts[player] + (self.stakes[player] is not None)

    def name(self, player: int) -> str:
        return self.players[player]


# ---------------------------------------------------------------------------
# Pure rule functions


def is_decisive(troops: int) -> bool:
    """CMP-3: a victory with 8 or more points of troops left in play is decisive."""
    return troops >= DECISIVE_TROOPS


def _chance_over_36(battles: int) -> int:
    need = EXHAUSTION_TARGET - battles  # the lower die must be at least this
    if need <= 1:
        return 36
    if need > 6:
        return 0
    return (7 - need) ** 2


def exhaustion_chance(battles: int) -> Fraction:
    """CMP-6: the exact chance that the roll after ``battles`` battles exhausts both sides.

    P(lower of 2d6 + battles ≥ 9) = P(both dice ≥ 9 − battles) = ((7 − k) / 6)² with
    k = 9 − battles: 1/36 after battle 3, 4/36 after 4, 9/36 after 5 … certain from 8.
    """
    if not isinstance(battles, int) or isinstance(battles, bool) or battles < 0:
        raise ValueError("The number of battles must be a whole number, 0 or more")
    return Fraction(_chance_over_36(battles), 36)


def exhaustion_odds_text(battles: int) -> str:
    """CMP-6 for players: ``"after battle 5: P(lower of 2d6 + 5 ≥ 9) = 9/36 = 25%"``."""
    chance = exhaustion_chance(battles)
    over36 = _chance_over_36(battles)
    percent = chance * 100
    shown = f"{percent.numerator // percent.denominator}" if percent.denominator == 1 else f"{float(percent):.1f}"
    return (f"after battle {battles}: P(lower of 2d6 + {battles} ≥ {EXHAUSTION_TARGET}) = "
            f"{over36}/36 = {shown}%")


def die_choice(choices: int, roll: int) -> int | None:
    """HR-CMP-1: which of ``choices`` equal choices a die ``roll`` picks (0-based); None: roll again."""
    if not 1 <= choices <= 6 or not 1 <= roll <= 6:
        raise ValueError("A die picks among 1 to 6 choices and shows 1 to 6")
    width = 6 // choices
    if roll > width * choices:
        return None
    return (roll - 1) // width


def dummy_pick(candidates: list[tuple[str, Card]], roll_die) -> tuple[int, list[int], list[int]]:
    """CMP-9/CMP-10: the dummy takes the highest-ranked candidate (aces high).

    ``candidates`` are ``(where, card)`` in table order; ``roll_die()`` gives one d6
    (called only between equal choices). Returns ``(index, tied indexes, rolls)``.
    """
    top = max(int(card.rank) for _, card in candidates)
    tied = [i for i, (_, card) in enumerate(candidates) if int(card.rank) == top]
    rolls: list[int] = []
    if len(tied) == 1:
        return tied[0], tied, rolls
    while True:
        roll = roll_die()
        rolls.append(roll)
        pick = die_choice(len(tied), roll)
        if pick is not None:
            return tied[pick], tied, rolls


def _shape_category(counts: list[int], straight: bool) -> str:
    shape = sorted(counts, reverse=True)
    if shape[0] == 4:
        return "four of a kind"
    if shape[:2] == [3, 2]:
        return "full house"
    if straight:
        return "straight"
    if shape[0] == 3:
        return "three of a kind"
    if shape[:2] == [2, 2]:
        return "two pairs"
    if shape[0] == 2:
        return "pair"
    return "high card"


def treaty_odds(own: Iterable[Card], unseen: Iterable[Card]) -> dict[str, Fraction]:
    """CMP-7/CMP-8: exact chances of each hand category if the table came now.

    ``own`` are the player's cards; a player with fewer than five draws up to five
    from the deck, which (as far as the player can tell) is any of the ``unseen``
    cards, each set of draws equally likely. With five or more cards the category
    is certain. Exact and fast: instead of listing every draw (91,390 for one card
    in hand), it enumerates the *ranks* drawn — at most 1,820 multisets for four
    draws — counts the card combinations of each with binomials, and separates
    the flushes (only when all own cards share a suit). Worst case (one card held,
    44 unseen) ≈ 70 ms on CPython and ≈ 160 ms on Pyodide on a busy 2-core machine
    (``python -m tests.bench_poker``); the table computes it once per change of
    what the player can see. Returns the categories that can happen, in
    :data:`engine.poker.CATEGORIES` order.
    """
    own = tuple(own)
    unseen = tuple(unseen)
    if set(own) & set(unseen):
        raise ValueError("A card cannot be both in the hand and unseen")
    draws = TREATY_CARDS - len(own)
    if draws <= 0:
        return {best_hand(own).category: Fraction(1)}
    if len(unseen) < draws:
        raise ValueError("Not enough unseen cards to draw up to five")
    available = Counter(int(card.rank) for card in unseen)
    own_ranks = Counter(int(card.rank) for card in own)
    suits = {card.suit for card in own}
    flush_suit = next(iter(suits)) if len(suits) == 1 else None
    flush_ranks = {int(card.rank) for card in unseen if card.suit == flush_suit} if flush_suit else set()
    total = math.comb(len(unseen), draws)
    found: Counter = Counter()
    for drawn in itertools.combinations_with_replacement(sorted(available), draws):
        taken = Counter(drawn)
        ways = 1
        for rank, count in taken.items():
            ways *= math.comb(available[rank], count)
        ranks = own_ranks + taken
        distinct = len(ranks) == TREATY_CARDS
        straight = distinct and max(ranks) - min(ranks) == 4  # aces high only (CMP-8)
        category = _shape_category(list(ranks.values()), straight)
        flushes = 1 if distinct and flush_suit is not None and all(r in flush_ranks for r in taken) else 0
        if flushes:
            found["straight flush" if straight else "flush"] += flushes
        found[category] += ways - flushes
    return {name: Fraction(found[name], total) for name in CATEGORIES if found[name]}


def compare_hands(first: Hand, second: Hand, names: tuple[str, str]) -> tuple[int | None, str]:
    """CMP-8: who wins the treaty, and why, in words (``None``: equal hands, a draw)."""
    a, b = names
    if first == second:
        return None, (f"CMP-8: equal hands — {a} and {b} both hold {first}. Suits never break ties: "
                      "the campaign is a draw.")
    winner = 0 if first > second else 1
    best, worst = (first, second) if winner == 0 else (second, first)
    win_name, lose_name = names[winner], names[1 - winner]
    if best.category != worst.category:
        return winner, (f"CMP-8: {win_name}'s {best} beats {lose_name}'s {worst} — "
                        f"a {best.category} ranks above {_article(worst.category)}.")
    for mine, theirs in zip(best.ranks, worst.ranks):
        if mine != theirs:
            break
    return winner, (f"CMP-8: both hold {_article(best.category)}; {win_name}'s {best} beats "
                    f"{lose_name}'s {worst} — the highest cards break the tie "
                    f"({Rank(mine).noun} against {Rank(theirs).noun}).")


def _article(category: str) -> str:
    if category in ("two pairs",):
        return category
    return ("an " if category[0] in "aeiou" else "a ") + category


# ---------------------------------------------------------------------------
# Setup


def _name(value: Any, where: str, default: str) -> str:
    if value is None:
        return default
    if isinstance(value, str) and not value.strip():
        return default
    return setup_text(value, where, "name", error=SetupError, max_len=_NAME_MAX)


def _tokens(value: Any, where: str, count: int | None = None) -> list[str]:
    if not isinstance(value, (list, tuple)):
        raise SetupError(f"{where} must be a list of cards")
    try:
        cards = [parse_card(token) for token in value]
    except CardError as err:
        raise SetupError(f"{where}: {err}") from None
    if count is not None and len(cards) != count:
        raise SetupError(f"{where} must hold {count} cards (got {len(cards)})")
    if len(set(cards)) != len(cards):
        raise SetupError(f"{where} lists a card twice")
    return [str(card) for card in cards]


def _reveal(raw: Any) -> dict[str, Any]:
    """The face-up facts of a spectator's copy (see :func:`public_game`)."""
    if not isinstance(raw, Mapping):
        raise SetupError("Setup: 'reveal' must be an object")
    unknown = sorted(str(k) for k in raw if k not in ("pool", "stakes", "refills", "dice", "table", "drawn"))
    if unknown:
        raise SetupError(f"Setup: 'reveal' has an unknown field {unknown[0]!r}")
    out: dict[str, Any] = {"pool": _tokens(raw.get("pool"), "Setup: the revealed pool", POOL_SIZE)}
    stakes = raw.get("stakes", [])
    if not isinstance(stakes, (list, tuple)) or len(stakes) > 100:
        raise SetupError("Setup: the revealed stakes must be a list (at most 100 battles)")
    out["stakes"] = [_tokens(pair, f"Setup: the stakes of battle {i + 1}", 2) for i, pair in enumerate(stakes)]
    out["refills"] = _tokens(raw.get("refills", []), "Setup: the revealed pool refills")
    dice = raw.get("dice", [])
    if (not isinstance(dice, (list, tuple)) or len(dice) > 1000
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)):
        raise SetupError("Setup: the revealed dice must be a list of numbers from 1 to 6")
    out["dice"] = list(dice)
    for key in ("table", "drawn"):
        if raw.get(key) is not None:
            pair = raw[key]
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise SetupError(f"Setup: the revealed {key} must hold two lists of cards")
            out[key] = [_tokens(cards, f"Setup: the revealed {key}") for cards in pair]
    if ("table" in out) != ("drawn" in out):
        raise SetupError("Setup: the revealed table needs both its cards and its draws")
    if "table" in out and any(len(cards) < TREATY_CARDS for cards in out["table"]):
        raise SetupError("Setup: at the revealed table each player holds five cards or more")
    return out


def normalize_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """Validated, canonical setup: ``{"players": [a, b], "dummy": bool}`` (+ ``"reveal"``).

    Empty names become "Player 1" / "Player 2" (or "Dummy" for a solo
    campaign's second player). Raises :class:`SetupError` naming the field.
    """
    if not isinstance(setup, Mapping):
        raise SetupError("The setup must be an object with named fields")
    unknown = sorted(str(k) for k in setup if k not in ("players", "dummy", "reveal", "spectator"))
    if unknown:
        raise SetupError(f"Setup: unknown field {unknown[0]!r}")
    dummy = setup.get("dummy", False)
    if not isinstance(dummy, bool):
        raise SetupError("Setup: 'dummy' must be true (solo against the dummy, CMP-9) or false")
    players = setup.get("players", [None, None])
    if not isinstance(players, (list, tuple)) or len(players) != 2:
        raise SetupError("CMP-1: a campaign has two players (or one player and the dummy)")
    names = [_name(players[0], "Player 1", "Player 1"),
             _name(players[1], "Dummy" if dummy else "Player 2", "Dummy" if dummy else "Player 2")]
    out: dict[str, Any] = {"players": names, "dummy": dummy}
    if "reveal" in setup and setup["reveal"] is not None:
        out["reveal"] = _reveal(setup["reveal"])
    spectator = setup.get("spectator", "reveal" in out)
    if not isinstance(spectator, bool) or spectator != ("reveal" in out):
        raise SetupError("Setup: 'spectator' is true exactly for a spectator's copy (the one with 'reveal')")
    if spectator:
        out["spectator"] = True
    return out


# ---------------------------------------------------------------------------
# Session protocol: moving cards


def _order(cards: Iterable[Card]) -> tuple[Card, ...]:
    """A hand's order on the table: highest rank first (aces high), then ♠ ♥ ♦ ♣."""
    return tuple(sorted(cards, key=lambda c: (-int(c.rank), c.sort_key[0])))


def _set(items: tuple, index: int, value: Any) -> tuple:
    return items[:index] + (value,) + items[index + 1:]


def _take_script(state: CampaignState, key: str, count: int = 1) -> tuple[list[Any], CampaignState]:
    """Spectator copy: the next revealed facts of one kind."""
    script = state.script or {}
    items = list(script.get(key, []))
    if len(items) < count:
        raise RuleError(_SCRIPT_RULE[key], "this spectator view ends here: the link shows only what had "
                                           "happened when it was shared")
    rest = dict(script)
    rest[key] = items[count:]
    return items[:count], replace(state, script=MappingProxyType(rest))


_SCRIPT_RULE = {"stakes": "CMP-2", "refills": "CMP-4", "dice": "CMP-6", "table": "CMP-7"}


def _remember(state: CampaignState, key: str, values: list[Any]) -> CampaignState:
    history = dict(state.history or {})
    history[key] = list(history.get(key, [])) + values
    return replace(state, history=MappingProxyType(history))


def _d6(state: CampaignState, rng: random.Random | None) -> tuple[int, CampaignState]:
    if state.public:
        (roll,), state = _take_script(state, "dice")
    else:
        if rng is None:
            raise ValueError("step needs the game's random generator for this action")
        roll = rng.randint(1, 6)
    return roll, _remember(state, "dice", [roll])


def _log(state: CampaignState, text: str, rule: str, cards: Iterable[Card] = ()) -> CampaignState:
    return replace(state, log=state.log + (LogEntry(state.battle, text, rule, tuple(cards)),))


def _add_to_hand(state: CampaignState, player: int, cards: Iterable[Card]) -> CampaignState:
    cards = tuple(cards)
    counts = _set(state.counts, player, state.counts[player] + len(cards))
    if state.public:
        return replace(state, counts=counts)
    hands = _set(state.hands, player, _order(state.hands[player] + cards))
    return replace(state, hands=hands, counts=counts)


def _draw_stakes(state: CampaignState, rng: random.Random | None) -> CampaignState:
    """CMP-2 (CMP-9 for the dummy): each player stakes one card of the hand at random, face up."""
    if state.public:
        (pair,), state = _take_script(state, "stakes")
        stakes = tuple(parse_card(token) for token in pair)
        for p in (0, 1):
            if state.counts[p] < 1:
                raise RuleError("CMP-2", f"{state.name(p)} has no card to stake")
        counts = (state.counts[0] - 1, state.counts[1] - 1)
        state = replace(state, stakes=stakes, counts=counts)
    else:
        if rng is None:
            raise ValueError("step needs the game's random generator for this action")
        stakes_list = []
        hands = list(state.hands)
        for p in (0, 1):
            hand = hands[p]
            stake = hand[0] if len(hand) == 1 else hand[rng.randrange(len(hand))]
            stakes_list.append(stake)
            hands[p] = tuple(card for card in hand if card != stake)
        stakes = (stakes_list[0], stakes_list[1])
        state = replace(state, stakes=stakes, hands=(hands[0], hands[1]),
                        counts=(len(hands[0]), len(hands[1])))
    state = _remember(state, "stakes", [[str(stakes[0]), str(stakes[1])]])
    state = replace(state, phase="battle", pending=None, seen=state.seen | set(stakes))
    last = [state.name(p) for p in (0, 1) if state.counts[p] == 0]
    how = "dealt at random for the dummy (CMP-9)" if state.dummy else "picked at random"
    text = (f"Battle {state.battle}: {state.name(0)} stakes the {stakes[0].label}, "
            f"{state.name(1)} stakes the {stakes[1].label} ({how})")
    if last:
        text += f"; last card for {' and '.join(last)}: losing it loses the campaign"
    return _log(state, text, "CMP-2", stakes)


def _refill_pool(state: CampaignState) -> CampaignState:
    """CMP-4: a pool card taken is replaced from the deck."""
    if state.public:
        (token,), state = _take_script(state, "refills")
        card = parse_card(token)
    else:
        if not state.deck:  # cannot happen: CMP-6 ends the campaign by battle 8 at the latest
            return state
        card, deck = state.deck[0], state.deck[1:]
        state = replace(state, deck=deck)
    state = _remember(state, "refills", [str(card)])
    state = replace(state, pool=state.pool + (card,), seen=state.seen | {card})
    return _log(state, f"The {card.label} is drawn from the deck into the pool", "CMP-4", (card,))


def _settle(state: CampaignState, winner: int, troops: int, decisive: bool, take_stake: bool,
            pool_card: Card | None, rng: random.Random | None, why: str = "") -> CampaignState:
    """CMP-4/CMP-5/CMP-2: move the spoils, return the stakes, refill the pool, check the last card."""
    loser = 1 - winner
    win, lose = state.name(winner), state.name(loser)
    stakes = state.stakes
    taken: list[Card] = []
    if take_stake:
        card = stakes[loser]
        taken.append(card)
        state = _log(state, f"{win} takes {lose}'s stake, the {card.label}{why}", "CMP-4", (card,))
    if pool_card is not None:
        taken.append(pool_card)
        pool = tuple(c for c in state.pool if c != pool_card)
        state = replace(state, pool=pool)
        state = _log(state, f"{win} takes the {pool_card.label} from the pool{why if not take_stake else ''}",
                     "CMP-4", (pool_card,))
    state = _add_to_hand(state, winner, taken)
    returned = [(winner, stakes[winner])] + ([] if take_stake else [(loser, stakes[loser])])
    for p, card in returned:
        state = _add_to_hand(state, p, (card,))
    state = replace(state, stakes=(None, None))
    state = _log(state, "Stakes back to their owners: " + ", ".join(
        f"the {card.label} to {state.name(p)}" for p, card in returned), "CMP-5", [c for _, c in returned])
    if pool_card is not None:
        state = _refill_pool(state)
    if state.counts[loser] == 0:
        result = (f"CMP-2: {lose} lost the last card — {win} wins the campaign after "
                  f"{_plural(state.battle, 'battle')}.")
        state = replace(state, phase="over", winner=winner, result=result, fought=state.battle, pending=None)
        return _log(state, result, "CMP-2")
    return _after_battle(state, rng)


def _after_battle(state: CampaignState, rng: random.Random | None) -> CampaignState:
    """CMP-6 (HR-CMP-2): the exhaustion roll after the third battle and every later one."""
    fought = state.battle
    state = replace(state, fought=fought, pending=None)
    if fought >= EXHAUSTION_FROM:
        return replace(state, phase="exhaustion")
    return _next_battle(state, rng)


def _next_battle(state: CampaignState, rng: random.Random | None) -> CampaignState:
    return _draw_stakes(replace(state, battle=state.battle + 1), rng)


def spoils_choices(state: CampaignState) -> dict[str, Any]:
    """CMP-4: what the winner may take now.

    ``{"winner": p, "decisive": bool, "stake": Card, "pool": (cards…), "both": bool}``
    — after a decisive victory the stake **and** one pool card (``both``), else the
    stake **or** one pool card. Empty outside the "spoils" phase.
    """
    if state.phase != "spoils" or state.pending is None:
        return {}
    winner, troops, decisive = state.pending
    return {"winner": winner, "troops": troops, "decisive": decisive, "stake": state.stakes[1 - winner],
            "pool": state.pool, "both": decisive}


def _dummy_takes(state: CampaignState, troops: int, decisive: bool,
                 rng: random.Random | None) -> CampaignState:
    """CMP-9/CMP-10 (HR-CMP-1): the dummy takes the highest card or cards it may."""
    human = 0
    stake = state.stakes[human]
    rolls_made: list[int] = []

    def roll_die() -> int:
        nonlocal state
        roll, state = _d6(state, rng)
        rolls_made.append(roll)
        return roll

    def tie_words(candidates, tied, rolls, index) -> str:
        if len(tied) == 1:
            return ""
        names = " and ".join(f"the {candidates[i][1].label} ({candidates[i][0]})" for i in tied)
        shown = ", then ".join(str(r) for r in rolls)
        return (f"; equal choices between {names}: it rolls {shown} → the {candidates[index][1].label} "
                "(HR-CMP-1)")

    if decisive:
        pool = [("pool", card) for card in state.pool]
        index, tied, rolls = dummy_pick(pool, roll_die)
        pool_card = pool[index][1]
        why = (f" — decisive, so the stake and the highest pool card (CMP-9, CMP-10)"
               f"{tie_words(pool, tied, rolls, index)}")
        return _settle(state, 1, troops, decisive, True, pool_card, rng, why)
    candidates = [(f"{state.name(human)}'s stake", stake)] + [("pool", card) for card in state.pool]
    index, tied, rolls = dummy_pick(candidates, roll_die)
    why = f" — the highest card it may take (CMP-9, CMP-10){tie_words(candidates, tied, rolls, index)}"
    if index == 0:
        return _settle(state, 1, troops, decisive, True, None, rng, why)
    return _settle(state, 1, troops, decisive, False, candidates[index][1], rng, why)


# ---------------------------------------------------------------------------
# Session protocol


def start(setup: Mapping[str, Any], rules: Mapping[str, Any] | None, rng: random.Random) -> CampaignState:
    """CMP-1 then CMP-2: deal six hidden cards each and a pool of four; stakes for battle 1."""
    normal = normalize_setup(setup)
    players = (normal["players"][0], normal["players"][1])
    reveal = normal.get("reveal")
    if reveal is not None:
        pool = tuple(parse_card(token) for token in reveal["pool"])
        state = CampaignState(players=players, dummy=normal["dummy"], hands=((), ()),
                              counts=(HAND_SIZE, HAND_SIZE), stakes=(None, None), pool=pool, deck=(),
                              phase="battle", battle=0, seen=frozenset(pool), public=True,
                              script=MappingProxyType({k: v for k, v in reveal.items() if k != "pool"}))
    else:
        deck = shuffled_deck(rng)
        hands = (_order(deck[:HAND_SIZE]), _order(deck[HAND_SIZE:2 * HAND_SIZE]))
        pool = tuple(deck[2 * HAND_SIZE:2 * HAND_SIZE + POOL_SIZE])
        state = CampaignState(players=players, dummy=normal["dummy"], hands=hands,
                              counts=(HAND_SIZE, HAND_SIZE), stakes=(None, None), pool=pool,
                              deck=tuple(deck[2 * HAND_SIZE + POOL_SIZE:]), phase="battle", battle=0,
                              seen=frozenset(pool))
    state = replace(state, history=MappingProxyType({"pool": [str(c) for c in pool]}))
    dummy = " (the dummy's cards stay hidden, CMP-9)" if state.dummy else ""
    state = _log(state, f"Six hidden cards dealt to each player{dummy}; the pool: "
                        + " ".join(c.label for c in pool), "CMP-1", pool)
    return _next_battle(state, rng)


_TYPES = ("battle", "take", "roll", "negotiate")


def _action_type(action: Any) -> str:
    if not isinstance(action, Mapping):
        raise ActionError("An action must be an object with a type")
    kind = action.get("type")
    if kind not in _TYPES:
        raise ActionError(f"Unknown action type: {kind!r} (battle, take, roll, negotiate)")
    return kind


_PHASE_OF = {"battle": "battle", "take": "spoils", "roll": "exhaustion", "negotiate": "exhausted"}


def _phase_problem(state: CampaignState, acting: str) -> RuleError | None:
    if state.phase == _PHASE_OF[acting]:
        return None
    if state.phase == "over":
        return RuleError("CMP-2" if state.treaty is None else "CMP-7", f"the campaign is over. {state.result}")
    if state.phase == "spoils":
        winner = state.pending[0] if state.pending else 0
        return RuleError("CMP-4", f"{state.name(winner)} first takes the spoils of battle {state.battle}")
    if state.phase == "exhaustion":
        return RuleError("CMP-6", f"roll for exhaustion first ({exhaustion_odds_text(state.fought)})")
    if state.phase == "exhausted":
        return RuleError("CMP-7", "both sides are exhausted: they go to the negotiating table")
    if acting == "take":
        return RuleError("CMP-4", f"battle {state.battle} has not been recorded yet: nobody has won spoils")
    if acting == "roll":
        if state.fought < EXHAUSTION_FROM:
            return RuleError("CMP-6", f"the exhaustion roll comes after the third battle and every later one "
                                      f"({_plural(state.fought, 'battle')} fought so far)")
        return RuleError("CMP-6", "the exhaustion roll for this battle has been made")
    return RuleError("CMP-7", "the negotiating table comes only when both sides are exhausted (CMP-6)")


def _battle(state: CampaignState, action: Mapping[str, Any], rng: random.Random | None) -> CampaignState:
    """CMP-3/CMP-5: record a battle fought on the tabletop."""
    if "winner" not in action:
        raise ActionError("The battle action needs a 'winner' (0, 1, or null for a drawn battle)")
    winner = action["winner"]
    if winner is not None and (not isinstance(winner, int) or isinstance(winner, bool) or winner not in (0, 1)):
        raise ActionError(f"The winner must be player 0, player 1 or null for a draw (got {winner!r})")
    problem = _phase_problem(state, "battle")
    if problem is not None:
        raise problem
    if winner is None:
        state = _log(state, f"Battle {state.battle} is drawn: no card moves (CMP-5); it counts as a battle "
                           "fought (HR-CMP-2)", "CMP-5")
        returned = [(p, state.stakes[p]) for p in (0, 1)]
        for p, card in returned:
            state = _add_to_hand(state, p, (card,))
        state = replace(state, stakes=(None, None))
        state = _log(state, "Stakes back to their owners: " + ", ".join(
            f"the {card.label} to {state.name(p)}" for p, card in returned), "CMP-5", [c for _, c in returned])
        return _after_battle(state, rng)
    troops = action.get("troops")
    if not isinstance(troops, int) or isinstance(troops, bool) or not 0 <= troops <= MAX_TROOPS:
        raise RuleError("CMP-3", f"enter the winner's troop points left in play as a whole number from 0 to "
                                 f"{MAX_TROOPS} (got {troops!r})")
    decisive = is_decisive(troops)
    kind = (f"a decisive victory ({troops} troop points left, 8 or more)" if decisive
            else f"a victory, not decisive ({troops} troop points left, under 8)")
    state = _log(state, f"Battle {state.battle}: {state.name(winner)} wins — {kind}", "CMP-3")
    if state.dummy and winner == 1:
        return _dummy_takes(state, troops, decisive, rng)
    return replace(state, phase="spoils", pending=(winner, troops, decisive))


def _take(state: CampaignState, action: Mapping[str, Any], rng: random.Random | None) -> CampaignState:
    """CMP-4: the winner's choice."""
    problem = _phase_problem(state, "take")
    if problem is not None:
        raise problem
    assert state.pending is not None
    winner, troops, decisive = state.pending
    stake = action.get("stake", False)
    if not isinstance(stake, bool):
        raise ActionError("'stake' must be true (take the loser's stake) or false")
    token = action.get("pool")
    pool_card = None
    if token is not None:
        try:
            pool_card = parse_card(token)
        except CardError as err:
            raise ActionError(str(err)) from None
        if pool_card not in state.pool:
            raise RuleError("CMP-4", f"the {pool_card.label} is not in the pool "
                                     f"({' '.join(c.label for c in state.pool)})")
    lose = state.name(1 - winner)
    if decisive and not (stake and pool_card is not None):
        raise RuleError("CMP-4", f"after a decisive victory {state.name(winner)} takes {lose}'s stake and "
                                 "one pool card: choose both")
    if not decisive and stake and pool_card is not None:
        raise RuleError("CMP-4", f"a victory that is not decisive ({troops} troop points, under 8) takes "
                                 f"{lose}'s stake or one pool card, not both")
    if not decisive and not stake and pool_card is None:
        raise RuleError("CMP-4", f"take {lose}'s stake or one pool card")
    return _settle(state, winner, troops, decisive, stake, pool_card, rng)


def _roll(state: CampaignState, rng: random.Random | None) -> CampaignState:
    """CMP-6: 2d6, keep the lower, add the battles fought; 9 or more exhausts both sides."""
    problem = _phase_problem(state, "roll")
    if problem is not None:
        raise problem
    first, state = _d6(state, rng)
    second, state = _d6(state, rng)
    roll = Roll(state.fought, (first, second))
    state = replace(state, rolls=state.rolls + (roll,))
    verdict = ("both sides are exhausted and go to the negotiating table" if roll.exhausted
               else "the war goes on")
    state = _log(state, f"Exhaustion roll after battle {roll.battles}: {first} and {second}, lower {roll.lower} "
                        f"+ {roll.battles} battles = {roll.total} ({'≥' if roll.exhausted else '<'} 9): {verdict}",
                 "CMP-6")
    if roll.exhausted:
        return replace(state, phase="exhausted")
    return _next_battle(state, rng)


def _negotiate(state: CampaignState) -> CampaignState:
    """CMP-7/CMP-8/CMP-9: draw up to five (the dummy one card more), best hands decide the war."""
    problem = _phase_problem(state, "negotiate")
    if problem is not None:
        raise problem
    if state.public:
        script = dict(state.script or {})
        cards, drawn = script.pop("table", None), script.pop("drawn", None)
        if cards is None or drawn is None:
            raise RuleError("CMP-7", "this spectator view ends here: the link shows only what had "
                                     "happened when it was shared")
        state = replace(state, script=MappingProxyType(script))
        table = tuple(tuple(parse_card(t) for t in cards[p]) for p in (0, 1))
        draws = tuple(tuple(parse_card(t) for t in drawn[p]) for p in (0, 1))
    else:
        deck = state.deck
        table_list, draw_list = [], []
        for p in (0, 1):
            own = state.hands[p]
            need = max(0, TREATY_CARDS - len(own))
            if state.dummy and p == 1:
                need += 1
            draw_list.append(tuple(deck[:need]))
            deck = deck[need:]
            table_list.append(_order(own + draw_list[-1]))
        table = (table_list[0], table_list[1])
        draws = (draw_list[0], draw_list[1])
        state = replace(state, deck=deck, hands=table, counts=(len(table[0]), len(table[1])))
    history = dict(state.history or {})
    history["table"] = [[str(c) for c in cards] for cards in table]
    history["drawn"] = [[str(c) for c in cards] for cards in draws]
    state = replace(state, history=MappingProxyType(history))
    for p in (0, 1):
        if draws[p]:
            if state.dummy and p == 1:
                why = "up to five (CMP-7) and one extra card (CMP-9)" if len(draws[p]) > 1 else \
                    "one extra card (CMP-9)"
            else:
                why = "up to five (CMP-7)"
            state = _log(state, f"At the table {state.name(p)} draws {' '.join(c.label for c in draws[p])} — {why}",
                         "CMP-9" if state.dummy and p == 1 else "CMP-7", draws[p])
    hands = (best_hand(table[0]), best_hand(table[1]))
    winner, explanation = compare_hands(hands[0], hands[1], state.players)
    treaty = Treaty(cards=table, drawn=draws, hands=hands, winner=winner, explanation=explanation)
    result = (f"{state.name(winner)} wins the war at the negotiating table." if winner is not None
              else "The treaty is a draw: equal hands.")
    state = replace(state, treaty=treaty, phase="over", winner=winner, result=result,
                    counts=(len(table[0]), len(table[1])), seen=state.seen | set(table[0]) | set(table[1]))
    for p in (0, 1):
        state = _log(state, f"{state.name(p)}: {hands[p]}", "CMP-8", hands[p].cards)
    return _log(state, explanation, "CMP-8")


def step(state: CampaignState, action: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
         rng: random.Random | None = None) -> CampaignState:
    """The state after ``action`` (see the module docstring). Never mutates ``state``."""
    kind = _action_type(action)
    if kind == "battle":
        return _battle(state, action, rng)
    if kind == "take":
        return _take(state, action, rng)
    if kind == "roll":
        return _roll(state, rng)
    return _negotiate(state)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def describe(state: CampaignState, action: Mapping[str, Any]) -> str:
    """A short history label of ``action`` taken in ``state``."""
    if not isinstance(action, Mapping):
        return "Unknown action"
    kind = action.get("type")
    if kind == "battle":
        winner = action.get("winner")
        if winner is None:
            return f"Battle {state.battle} · drawn"
        name = state.name(winner) if winner in (0, 1) and not isinstance(winner, bool) else "?"
        troops = action.get("troops")
        decisive = isinstance(troops, int) and not isinstance(troops, bool) and is_decisive(troops)
        return f"Battle {state.battle} · {name} wins ({troops} troop points{', decisive' if decisive else ''})"
    if kind == "take":
        winner = state.pending[0] if state.pending else 0
        parts = []
        if action.get("stake") is True:
            parts.append(f"{state.name(1 - winner)}'s stake")
        try:
            if action.get("pool") is not None:
                parts.append(f"the {parse_card(action['pool']).label} from the pool")
        except CardError:
            parts.append("a pool card")
        return f"Battle {state.battle} · {state.name(winner)} takes {' and '.join(parts) or 'nothing'}"
    if kind == "roll":
        return f"Exhaustion roll after battle {state.fought}"
    if kind == "negotiate":
        return "The negotiating table"
    return "Unknown action"


def status(state: CampaignState) -> str:
    """What the table is waiting for, in one sentence."""
    if state.phase == "over":
        return state.result
    if state.phase == "spoils" and state.pending is not None:
        winner, troops, decisive = state.pending
        lose = state.name(1 - winner)
        if decisive:
            return f"Battle {state.battle}: {state.name(winner)} takes {lose}'s stake and one pool card (CMP-4)"
        return f"Battle {state.battle}: {state.name(winner)} takes {lose}'s stake or one pool card (CMP-4)"
    if state.phase == "exhaustion":
        return f"Battle {state.fought} fought: roll for exhaustion (CMP-6)"
    if state.phase == "exhausted":
        return "Both sides are exhausted: to the negotiating table (CMP-7)"
    return f"Battle {state.battle}: fight it on the tabletop, then record the result (CMP-3)"


# ---------------------------------------------------------------------------
# What a player can see


def player_cards(state: CampaignState, player: int) -> tuple[Card, ...]:
    """A player's own cards, hand and stake (empty in a spectator's copy)."""
    if player not in (0, 1):
        raise ValueError("Players are 0 and 1")
    return state.cards_of(player)


def visible_cards(state: CampaignState, player: int) -> frozenset:
    """Every card ``player`` has seen: own cards, the pool, and every card ever face up."""
    return frozenset(player_cards(state, player)) | frozenset(state.pool) | state.seen


def treaty_chances(state: CampaignState, player: int) -> dict[str, Fraction]:
    """CMP-7/CMP-8 for a player's private view: the exact chance of each hand category
    if the table came now — drawing up to five over the cards this player cannot see.

    Uses only what the player knows (own cards; pool, stakes and every card that was
    ever face up are not in the deck as far as they can tell). Empty for a
    spectator's copy or a finished campaign.
    """
    if state.public or state.phase == "over":
        return {}
    own = player_cards(state, player)
    if not own:
        return {}
    seen = visible_cards(state, player)
    unseen = [card for card in _ALL if card not in seen]
    return treaty_odds(own, unseen)


# ---------------------------------------------------------------------------
# Spectator links


_PUBLIC_FIELDS = {"battle": ("type", "winner", "troops"), "take": ("type", "stake", "pool"),
                  "roll": ("type",), "negotiate": ("type",)}


def public_game(game: Game) -> Game:
    """A spectator's copy: no hidden hand, no deck order, no seed, no redo stack.

    The actions in force are kept (with their known fields); the cards and dice
    that were shown face up — the pool, every stake, the pool refills, the dice,
    and the table once the campaign reached it — go into the setup as
    ``"reveal"``, so the copy replays the same public table without the seed.
    """
    from .game import replay

    state = replay(game)
    history = dict(state.history or {})
    reveal: dict[str, Any] = {"pool": history.get("pool", []), "stakes": history.get("stakes", []),
                              "refills": history.get("refills", []), "dice": history.get("dice", [])}
    if "table" in history:
        reveal["table"] = history["table"]
        reveal["drawn"] = history["drawn"]
    kept = []
    for action in game.actions[: game.position]:
        kind = action.get("type") if isinstance(action, Mapping) else None
        if kind in _PUBLIC_FIELDS:
            kept.append({key: action[key] for key in _PUBLIC_FIELDS[kind] if key in action})
    setup = normalize_setup({k: v for k, v in game.setup.items() if k not in ("reveal", "spectator")})
    setup["reveal"] = reveal
    setup["spectator"] = True
    return replace(game, seed=0, setup=setup, actions=tuple(kept), position=len(kept), _tip=None)
