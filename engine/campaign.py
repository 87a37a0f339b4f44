"""Campaign with a poker-hand peace treaty (RULES.md section 2, clauses CMP-1 … CMP-12).

Two players — or one player against the dummy (CMP-9) — fight a run of battles
on the tabletop. The app keeps the cards: six hidden cards each and a face-up
pool of four (CMP-1); before each battle a random stake from each hand (CMP-2);
after it, the winner and the winner's troop points left (CMP-3, decisive at 8+,
recorded as CMP-12 says), the spoils (CMP-4), stakes back to their owners
(CMP-5); from the third battle on, the exhaustion roll (CMP-6; a drawn battle
counts, CMP-11); and at the end the negotiating table, where the best five-card
poker hands decide the war (CMP-7, CMP-8). Losing your last card loses the
campaign (CMP-2).

The module has three layers:

* pure rule functions: :func:`is_decisive`, :func:`exhaustion_chance`,
  :func:`exhaustion_odds_text`, :func:`dummy_pick`, :func:`die_choice`,
  :func:`treaty_odds`, :func:`compare_hands` — each docstring starts with its id;
* the session protocol of :mod:`engine.game` (``KIND``, ``VARIANTS``,
  :func:`normalize_setup`, :func:`start`, :func:`normalize_action`,
  :func:`step`, :func:`describe`, :func:`public_game`, :func:`upgrade`) over an
  immutable :class:`CampaignState`;
* helpers for the table UI (:func:`status`, :func:`spoils_choices`,
  :func:`treaty_chances`, :func:`visible_cards`, :func:`player_cards`).

Every public function refuses bad arguments with a ``ValueError`` subclass
(:class:`CampaignError`, :class:`SetupError`, or the game's ``ActionError`` /
``RuleError``) and a message a player or a Python user understands; cards are
taken as :class:`~engine.cards.Card` values or tokens (``"AS"``) alike.

Setup (JSON): ``{"players": ["Anna", "Ben"], "dummy": false}``; with
``"dummy": true`` the second player is the dummy (its name defaults to
"Dummy"). A spectator's copy (:func:`public_game`) adds ``"reveal"``: the cards
and dice that were shown face up, so it replays without the seed or any hand;
``"spectator": true`` marks it. ``"legacy"`` (set by :func:`upgrade` only) keeps
an earlier version's reading of a ruling for a game played before it.

Actions (plain JSON dicts; :func:`normalize_action` gives the canonical form):

* ``{"type": "battle", "winner": 0, "troops": 9}`` — a battle fought on the
  tabletop (CMP-3, CMP-12): the winner (0 or 1) and the winner's troop points
  left in play, a whole number from 0 to 999; ``{"type": "battle", "winner":
  null}`` — a drawn battle (CMP-5), which carries no troop points;
* ``{"type": "take", "stake": true, "pool": "KH"}`` — the winner's spoils
  (CMP-4): the loser's stake and/or one pool card (``"pool": null`` for none).
  The dummy never sends it: it takes by CMP-9/CMP-10 as its battle is recorded;
* ``{"type": "roll"}`` — the exhaustion roll (CMP-6);
* ``{"type": "negotiate"}`` — the negotiating table (CMP-7, CMP-8, CMP-9).

With the players' own deck and dice (setup ``"deck": "table"``, issue 18) the hands
stay in the players' hands: the app never knows them. It records what is revealed,
each as a fact in its action, checked like a move (each card once, consistent with
what was seen), and keeps the counts:

* ``{"type": "deal", "pool": ["AS", "KH", "7D", "2C"]}`` — the pool as dealt (CMP-1);
* ``{"type": "stakes", "stakes": ["QS", "3H"]}`` — each stake as it is turned up
  (its owner drew it at random; the dummy's is dealt at random, CMP-2, CMP-9);
* ``{"type": "refill", "card": "9C"}`` — the card drawn to replace a pool card
  taken (CMP-4);
* ``{"type": "roll", "dice": [3, 5]}`` — the exhaustion dice as rolled at the table
  (or ``{"type": "roll"}``: the app rolls them, CMP-6);
* ``{"type": "lay", "player": 0, "hand": [...], "drawn": [...]}`` — at the
  negotiating table, in player order, each player's cards laid down and the cards
  drawn there (up to five, and the dummy's extra card; CMP-7, CMP-9). The app judges
  the hands once both are down (CMP-8).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType
from collections.abc import Iterable, Mapping
from typing import Any, Callable

from . import referee
from .cards import Card, CardError, Rank, Suit, clean_cards, full_deck, parse_card, shuffled_deck
from .game import ActionError, FrozenDict, Game, RuleError
from .poker import CATEGORIES, Hand, best_hand
from .text import brief_repr, key_text, setup_text

__all__ = [
    "equipment",
    "KIND", "VARIANTS", "DECKS", "HOUSE_RULES", "RETIRED_IDS", "RULINGS", "LEGACY", "SetupError", "CampaignError",
    "PHASES", "HAND_SIZE", "POOL_SIZE", "DECISIVE_TROOPS", "EXHAUSTION_FROM", "EXHAUSTION_TARGET",
    "MAX_TROOPS", "TREATY_CARDS", "MAX_RANDOM_CARDS",
    "LogEntry", "Roll", "Treaty", "CampaignState",
    "is_decisive", "exhaustion_chance", "exhaustion_odds_text", "die_choice", "dummy_pick",
    "treaty_odds", "compare_hands",
    "normalize_setup", "start", "normalize_action", "step", "describe", "public_game", "upgrade",
    "undo_warning", "standing", "entry_problem", "table_draws", "deck_left",
    "status", "spoils_choices", "treaty_chances", "visible_cards", "player_cards",
]

KIND = "campaign"

#: What a spectator link (:func:`public_game`) shows, in the Share drawer's words.
SPECTATOR_VIEW = ("the pool, the stakes, card counts, battles and the log. No hidden hand, no deck order, no seed "
                  "(with your own deck the app never knew the hands).")

#: The deck setting (issue 18): the app's deck and dice, or the players' own.
DECKS: Mapping[str, str] = MappingProxyType({
    "app": "The app's deck and dice: the app deals, keeps the hands behind the curtain and rolls.",
    "table": "Our own deck and dice: the hands stay in the players' hands; the app records the pool, each "
             "stake, the spoils, the new pool cards and the dice as they are revealed, keeps the counts and "
             "judges the hands laid down at the negotiating table.",
})

#: RULES.md has no campaign variants.
VARIANTS: tuple = ()

#: CMP-1: hidden cards dealt to each player, and face-up cards in the pool.
HAND_SIZE = 6
POOL_SIZE = 4
#: CMP-3: troop points left in play from which a victory is decisive.
DECISIVE_TROOPS = 8
#: CMP-12: the largest troop count a recorded battle carries.
MAX_TROOPS = 999
#: CMP-6: the first battle after which the exhaustion roll is made, and its target.
EXHAUSTION_FROM = 3
EXHAUSTION_TARGET = 9
#: CMP-7: cards in a poker hand.
TREATY_CARDS = 5
#: :func:`treaty_odds` enumerates at most this many cards drawn at random (the dummy
#: needs six at most: five hidden cards and its extra one).
MAX_RANDOM_CARDS = 7

#: House rules of this app that are not in RULES.md (id → text). Shown with a marker.
HOUSE_RULES: Mapping[str, str] = MappingProxyType({
    "HR-CMP-1": "When the dummy must choose between equally high cards, it rolls one die: the choices are "
                "numbered in the order the table shows them (your stake first, then the pool from left to "
                "right). With 2 choices 1–3 takes the first and 4–6 the second; with 3, 1–2, 3–4 and 5–6; "
                "with 4 or 5, the die shows the choice and a higher roll is rolled again.",
})

#: Ids that were house rules of earlier versions and are now RULES.md clauses (old id → new
#: id). The Rules panel keeps the old id as an anchor, so a link to it still lands there.
RETIRED_IDS: Mapping[str, str] = MappingProxyType({"HR-CMP-2": "CMP-11"})

#: RULES.md clauses that are rulings (the app's reading where the source is silent).
RULINGS: tuple[str, ...] = ("CMP-4", "CMP-5", "CMP-7", "CMP-9", "CMP-10", "CMP-11", "CMP-12")

#: Earlier readings a game played before a ruling keeps (setup ``"legacy"``, set by
#: :func:`upgrade`), so that it replays as it was played.
LEGACY: Mapping[str, str] = MappingProxyType({
    "refill-end": "a new pool card goes to the right end of the pool (today a new pool card takes the place of "
                  "the card taken)",
    "certain-roll": "the exhaustion roll after battle 8 is rolled although it cannot fail (today the table "
                    "goes straight to the negotiating table)",
})

PHASES = ("deal", "stakes", "battle", "spoils", "refill", "exhaustion", "exhausted", "over")

_NAME_MAX = 40
_ALL = full_deck()
_SUITS = tuple(Suit)


class SetupError(ValueError):
    """A campaign setup that cannot be played (message names the field)."""


class CampaignError(ValueError):
    """Arguments a campaign function cannot take (not a campaign state, no such player …)."""


# ---------------------------------------------------------------------------
# Values


@dataclass(frozen=True)
class LogEntry:
    """One line of the campaign log: what happened, which cards moved, and the rule.

    ``battle`` is the battle it belongs to (0 for the deal); ``cards`` the cards
    that moved (face up: the log never names a hidden card). ``text`` never starts
    with its own rule id (the table shows the id beside it).
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
    * ``known`` — the cards of each hand that everyone has seen face up (a stake
      that came back, spoils taken): public, in every copy;
    * ``stakes`` — this battle's face-up stakes (``None`` when not out);
    * ``pool`` — the face-up pool (CMP-1, CMP-4); ``deck`` — the draw pile, top first;
    * ``phase`` — one of :data:`PHASES`; ``battle`` — the battle being fought (or
      just fought, in "spoils"); ``fought`` — battles finished;
    * ``pending`` — in "spoils": ``(winner, troops, decisive)``;
    * ``rolls`` — every exhaustion roll; ``log`` — every card that moved and why;
    * ``treaty`` / ``winner`` / ``result`` — at the end (``winner`` None: a draw);
    * ``seen`` — every card that has been face up (pool, stakes, spoils, the table);
    * ``public`` — a spectator's copy; ``script`` — its remaining revealed facts;
    * ``history`` — the revealed facts so far (what :func:`public_game` keeps);
    * ``legacy`` — the earlier readings this game keeps (:data:`LEGACY`);
    * ``deck_mode`` — "app" or "table" (:data:`DECKS`); with "table": ``laid`` — the
      hands laid down at the negotiating table so far, ``(hand, drawn)`` in player
      order; ``refill_at`` — in "refill", where the new pool card goes.
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
    known: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    legacy: frozenset = frozenset()
    deck_mode: str = "app"
    laid: tuple = ()
    refill_at: int | None = None

    @property
    def table_deck(self) -> bool:
        """Played with the players' own deck and dice (issue 18): the app never knows the hands."""
        return self.deck_mode == "table"

    @property
    def hands_known(self) -> bool:
        """Whether ``hands`` holds the real hands (the app's deck, not a spectator's copy)."""
        return not self.public and self.deck_mode == "app"

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def cards_of(self, player: int) -> tuple[Card, ...]:
        """All of a player's own cards: the hand and, while it is out, the stake."""
        player = _player(player)
        stake = self.stakes[player]
        return self.hands[player] + ((stake,) if stake is not None else ())

    def card_count(self, player: int) -> int:
        """How many cards a player owns (hand and stake)."""
        player = _player(player)
        return self.counts[player] + (self.stakes[player] is not None)

    def name(self, player: int) -> str:
        return self.players[_player(player)]


# ---------------------------------------------------------------------------
# Argument checks (every public function refuses bad input with a ValueError)


def _player(player: Any) -> int:
    if isinstance(player, int) and not isinstance(player, bool) and player in (0, 1):
        return int(player)
    raise CampaignError(f"Players are 0 and 1 (got {brief_repr(player)})")


def _state(state: Any) -> CampaignState:
    if not isinstance(state, CampaignState):
        raise CampaignError(f"Not a campaign state: {type(state).__name__} (replay a campaign game to get one)")
    return state


def _whole(value: Any, what: str, low: int = 0, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
        limit = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise CampaignError(f"{what} must be a whole number {limit} (got {brief_repr(value)})")
    return int(value)


def _card_list(cards: Any, what: str) -> tuple[Card, ...]:
    """Cards from a caller (Card values or tokens; each card once: one deck)."""
    if cards is None:
        raise CampaignError(f"{what[:1].upper() + what[1:]}: give a list of cards (got None)")
    try:
        return clean_cards(cards, what=what)
    except CardError as err:
        raise CampaignError(f"{what[:1].upper() + what[1:]}: {err}") from None


# ---------------------------------------------------------------------------
# Pure rule functions


def is_decisive(troops: int) -> bool:
    """CMP-3: a victory with 8 or more points of troops left in play is decisive.

    ``troops`` is a whole number from 0 to 999 (CMP-12).
    """
    return referee.whole(troops, "Troop points", 0, MAX_TROOPS, rule="CMP-12") >= DECISIVE_TROOPS


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
    battles = _whole(battles, "The number of battles")
    return Fraction(_chance_over_36(battles), 36)


def exhaustion_odds_text(battles: int) -> str:
    """CMP-6 for players: ``"after battle 5: P(lower of 2d6 + 5 ≥ 9) = 9/36 = 25%"``."""
    chance = exhaustion_chance(battles)
    battles = _whole(battles, "The number of battles", 0, 999_999)  # no thousand-digit text (issue 30)
    over36 = _chance_over_36(battles)
    percent = chance * 100
    shown = f"{percent.numerator // percent.denominator}" if percent.denominator == 1 else f"{float(percent):.1f}"
    return (f"after battle {battles}: P(lower of 2d6 + {battles} ≥ {EXHAUSTION_TARGET}) = "
            f"{over36}/36 = {shown}%")


def die_choice(choices: int, roll: int) -> int | None:
    """HR-CMP-1: which of ``choices`` equal choices a die ``roll`` picks (0-based); None: roll again."""
    choices = _whole(choices, "The number of choices", 1, 6)
    roll = _whole(roll, "A die", 1, 6)
    width = 6 // choices
    if roll > width * choices:
        return None
    return (roll - 1) // width


#: How many times the dummy's die is rolled at most before the caller's die is called broken.
_MAX_ROLLS = 200


def dummy_pick(candidates: Iterable[tuple[str, Card | str]],
               roll_die: Callable[[], int]) -> tuple[int, list[int], list[int]]:
    """CMP-9/CMP-10 (HR-CMP-1): the dummy takes the highest-ranked candidate (aces high).

    ``candidates`` are ``(where, card)`` in table order (cards as Card values or
    tokens, each card once); ``roll_die()`` gives one d6 (called only between equal
    choices). Returns ``(index, tied indexes, rolls)``.
    """
    if isinstance(candidates, (str, Mapping)) or candidates is None:
        raise CampaignError("The dummy's candidates must be a list of (where, card) pairs")
    try:
        items = list(candidates)
    except TypeError:
        raise CampaignError("The dummy's candidates must be a list of (where, card) pairs") from None
    if not items or len(items) > 6:
        raise CampaignError(f"The dummy chooses among 1 to 6 cards (got {len(items)})")
    pairs = []
    for item in items:
        if not isinstance(item, (tuple, list)) or len(item) != 2 or not isinstance(item[0], str):
            raise CampaignError(f"A candidate is a (where, card) pair (got {brief_repr(item)})")
        pairs.append(item[1])
    cards = _card_list(pairs, "the dummy's candidates")
    if not callable(roll_die):
        raise CampaignError("roll_die must be a function that rolls one d6")
    top = max(int(card.rank) for card in cards)
    tied = [i for i, card in enumerate(cards) if int(card.rank) == top]
    rolls: list[int] = []
    if len(tied) == 1:
        return tied[0], tied, rolls
    for _ in range(_MAX_ROLLS):
        roll = roll_die()
        pick = die_choice(len(tied), roll)
        rolls.append(int(roll))
        if pick is not None:
            return tied[pick], tied, rolls
    raise CampaignError(f"roll_die gave no usable roll in {_MAX_ROLLS} tries")


# ---- treaty odds ----------------------------------------------------------

# Category strengths (bigger is better) for the odds: 8 straight flush … 0 high card.
_SF, _QUADS, _FULL, _FLUSH, _STRAIGHT, _TRIPS, _TWO_PAIRS, _PAIR, _HIGH = range(8, -1, -1)


def _run(mask: int) -> bool:
    """Five ranks in a row among the set bits of ``mask`` (bit r = rank r; aces high only)."""
    return bool(mask & mask >> 1 & mask >> 2 & mask >> 3 & mask >> 4)


def _rank_strength(counts: Mapping[int, int]) -> int:
    """CMP-8 without suits: the category the ranks alone make (quads … high card)."""
    pairs = 0
    trips = False
    mask = 0
    for rank, count in counts.items():
        if count:
            mask |= 1 << rank
            if count >= 4:
                return _QUADS
            if count >= 2:
                pairs += 1
                if count == 3:
                    trips = True
    if trips and pairs >= 2:
        return _FULL
    if _run(mask):
        return _STRAIGHT
    if trips:
        return _TRIPS
    if pairs >= 2:
        return _TWO_PAIRS
    return _PAIR if pairs else _HIGH


@functools.lru_cache(maxsize=4096)
def _subsets_ways(pairs: tuple[tuple[int, int], ...], need: int) -> int:
    """Σ over subsets D of ``pairs`` with |D| ≥ need of Π_{D} x · Π_{not D} y (pairs (x, y))."""
    poly = [1]
    for x, y in pairs:
        nxt = [0] * (len(poly) + 1)
        for size, ways in enumerate(poly):
            if ways:
                nxt[size] += ways * y
                nxt[size + 1] += ways * x
        poly = nxt
    return sum(poly[max(0, need):])


def _joint(group: tuple[int, ...], taken: list[tuple[int, int]], avail: Mapping[int, int], own_suit: list[int],
           straight: bool) -> int:
    """Assignments of the drawn ranks ``taken`` (rank, count) to suits in which every suit of
    ``group`` ends with a flush (``straight``: a straight flush). ``avail[rank]`` is the
    bit set of suits still unseen at that rank."""
    in_group = 0
    for s in group:
        in_group |= 1 << s
    total = 0

    def walk(i: int, masks: tuple[int, ...], ways: int) -> None:
        nonlocal total
        if i == len(taken):
            for s, mask in zip(group, masks):
                if (mask | own_suit[s]).bit_count() < TREATY_CARDS:
                    return
                if straight and not _run(mask | own_suit[s]):
                    return
            total += ways
            return
        rank, count = taken[i]
        suits = avail[rank]
        outside = (suits & ~in_group).bit_count()
        chosen_from = suits & in_group
        sub = chosen_from
        while True:  # every subset of the group's suits available at this rank
            c = sub.bit_count()
            if c <= count:
                rest = math.comb(outside, count - c)
                if rest:
                    new = tuple(mask | (1 << rank) if sub >> s & 1 else mask for s, mask in zip(group, masks))
                    walk(i + 1, new, ways * rest)
            if sub == 0:
                return  # every subset tried
            sub = (sub - 1) & chosen_from

    walk(0, tuple(0 for _ in group), 1)
    return total


#: Binomials of up to four suits at a rank: _COMB[n][k] = C(n, k) (0 for k > n).
_COMB = tuple(tuple(math.comb(n, k) for k in range(6)) for n in range(5))


def _flush_ways(taken: list[tuple[int, int]], avail: Mapping[int, int], own_suit: list[int],
                random_cards: int) -> tuple[int, int]:
    """For the drawn ranks ``taken``: in how many of its card choices some suit makes a
    flush, and in how many a straight flush (inclusion–exclusion over the suits)."""
    singles: list[tuple[int, int, int]] = []  # (suit, flush ways, straight flush ways)
    ranks = [(rank, count, avail[rank], avail[rank].bit_count()) for rank, count in taken]
    for s in range(4):
        need = TREATY_CARDS - own_suit[s].bit_count()
        bit = 1 << s
        if sum(1 for _, _, suits, _ in ranks if suits & bit) < need:
            continue
        items = []
        other = 1
        reach = own_suit[s]
        for rank, count, suits, n in ranks:
            if suits & bit:
                fewer = _COMB[n - 1]  # C(n - 1, ·)
                items.append((rank, fewer[count - 1], fewer[count]))
                reach |= 1 << rank
            else:
                other *= _COMB[n][count]
        flush = _subsets_ways(tuple(sorted((x, y) for _, x, y in items)), need) * other
        if not flush:
            continue
        straight = 0
        if _run(reach):
            for size in range(max(0, need), len(items) + 1):
                for chosen in itertools.combinations(range(len(items)), size):
                    mask = own_suit[s]
                    ways = other
                    picked = set(chosen)
                    for j, (rank, x, y) in enumerate(items):
                        if j in picked:
                            mask |= 1 << rank
                            ways *= x
                        else:
                            ways *= y
                    if ways and _run(mask):
                        straight += ways
        singles.append((s, flush, straight))
    flush_total = sum(f for _, f, _ in singles)
    straight_total = sum(sf for _, _, sf in singles)
    suits = [s for s, _, _ in singles]
    # Two suits (or more) can flush together only with enough cards for both.
    for size in range(2, len(suits) + 1):
        for group in itertools.combinations(suits, size):
            need = sum(max(0, TREATY_CARDS - own_suit[s].bit_count()) for s in group)
            if need > random_cards:
                continue
            sign = -1 if size % 2 == 0 else 1
            flush_total += sign * _joint(group, taken, avail, own_suit, False)
            straight_total += sign * _joint(group, taken, avail, own_suit, True)
    return flush_total, straight_total


def _odds(own: tuple[Card, ...], unseen: tuple[Card, ...], random_cards: int) -> Counter:
    """Ways (out of C(len(unseen), random_cards)) of each category strength."""
    avail: dict[int, int] = {}
    for card in unseen:
        avail[int(card.rank)] = avail.get(int(card.rank), 0) | 1 << _SUITS.index(card.suit)
    own_ranks = Counter(int(card.rank) for card in own)
    own_suit = [0, 0, 0, 0]
    for card in own:
        own_suit[_SUITS.index(card.suit)] |= 1 << int(card.rank)
    found: Counter = Counter()
    five = len(own) + random_cards == TREATY_CARDS
    ranks = sorted(avail)
    for drawn in itertools.combinations_with_replacement(ranks, random_cards):
        taken = sorted(Counter(drawn).items())
        ways = 1
        for rank, count in taken:
            ways *= math.comb(avail[rank].bit_count(), count)
        if not ways:
            continue
        counts = own_ranks.copy()
        counts.update(drawn)
        strength = _rank_strength(counts)
        if five:
            # Exactly five cards: a flush needs all five of one suit (so five distinct ranks).
            flush = straight = 0
            if len(counts) == TREATY_CARDS:
                for s in range(4):
                    if own_suit[s].bit_count() == len(own) and all(avail[r] >> s & 1 for r, _ in taken):
                        if strength == _STRAIGHT:
                            straight += 1
                        else:
                            flush += 1
            found[_SF] += straight
            found[_FLUSH] += flush
            found[strength] += ways - flush - straight
            continue
        flush, straight = _flush_ways(taken, avail, own_suit, random_cards)
        found[_SF] += straight
        if strength >= _FULL:
            found[strength] += ways - straight
        else:
            found[_FLUSH] += flush - straight
            found[strength] += ways - flush
    return found


def treaty_odds(own: Iterable[Card | str], unseen: Iterable[Card | str], *, hidden: int = 0,
                extra: int = 0) -> dict[str, Fraction]:
    """CMP-7/CMP-8: exact chances of each hand category if the table came now.

    ``own`` are the player's cards; a player with fewer than five draws up to five
    from the deck, which (as far as the player can tell) is any of the ``unseen``
    cards, each set of draws equally likely. With five or more cards the category
    is certain. ``hidden`` counts cards the player holds that nobody has seen (the
    dummy's, CMP-9: they are any of the unseen cards too) and ``extra`` the cards
    drawn after the draw up to five (the dummy's one extra card, CMP-9): the player
    ends with max(own + hidden, 5) + extra cards, and the best five count.

    Exact and fast: instead of listing every draw (91,390 for one card in hand), it
    enumerates the *ranks* drawn — at most 1,820 multisets for four draws — counts
    the card combinations of each with binomials, and counts the flushes suit by
    suit (straight flushes by the ranks drawn in that suit). Worst case of a
    player's view (one card held, 44 unseen) ≈ 80 ms on CPython; the dummy's
    (six cards at random) about ten times that (``python -m tests.bench_poker``).
    Cards are Card values or tokens; each card once (one deck). Returns the
    categories that can happen, in :data:`engine.poker.CATEGORIES` order.
    """
    own = _card_list(own, "the player's cards")
    unseen = _card_list(unseen, "the unseen cards")
    both = set(own) & set(unseen)
    if both:
        card = sorted(both, key=lambda c: c.sort_key)[0]
        raise CampaignError(f"The {card.label} cannot be both the player's and unseen")
    hidden = _whole(hidden, "The number of hidden cards", 0, MAX_RANDOM_CARDS)
    extra = _whole(extra, "The number of extra cards", 0, MAX_RANDOM_CARDS)
    held = len(own) + hidden
    random_cards = hidden + max(0, TREATY_CARDS - held) + extra
    if random_cards > MAX_RANDOM_CARDS:
        raise CampaignError(f"The odds are worked out for at most {MAX_RANDOM_CARDS} cards drawn at random "
                            f"(these would draw {random_cards})")
    if len(unseen) < random_cards:
        raise CampaignError(f"Not enough unseen cards to draw {random_cards} (there are {len(unseen)})")
    if random_cards == 0:
        return {best_hand(own).category: Fraction(1)}
    found = _odds(own, unseen, random_cards)
    total = math.comb(len(unseen), random_cards)
    return {name: Fraction(found[8 - index], total) for index, name in enumerate(CATEGORIES) if found[8 - index]}


def _article(category: str) -> str:
    if category == "two pairs":
        return category
    return "a " + category  # no CMP-8 category starts with a vowel


def compare_hands(first: Hand, second: Hand, names: tuple[str, str]) -> tuple[int | None, str]:
    """CMP-8: who wins the treaty, and why, in words (``None``: equal hands, a draw)."""
    if not isinstance(first, Hand) or not isinstance(second, Hand):
        raise CampaignError("compare_hands takes two poker hands (engine.poker.best_hand)")
    if (not isinstance(names, (tuple, list)) or len(names) != 2
            or not all(isinstance(n, str) and n for n in names)):
        raise CampaignError("compare_hands needs the two players' names")
    a, b = names
    if first == second:
        return None, (f"CMP-8: equal hands — {a} and {b} both hold {first}. Suits never break ties: "
                      "the campaign is a draw.")
    winner = 0 if first > second else 1
    best, worst = (first, second) if winner == 0 else (second, first)
    win_name, lose_name = names[winner], names[1 - winner]
    if best.category != worst.category:
        verb = "rank" if best.category == "two pairs" else "ranks"
        return winner, (f"CMP-8: {win_name}'s {best} beats {lose_name}'s {worst} — "
                        f"{_article(best.category)} {verb} above {_article(worst.category)}.")
    mine = theirs = 0
    for mine, theirs in zip(best.ranks, worst.ranks):
        if mine != theirs:
            break
    return winner, (f"CMP-8: both hold {_article(best.category)}; {win_name}'s {best} beats "
                    f"{lose_name}'s {worst} — the highest cards break the tie "
                    f"({Rank(mine).noun} against {Rank(theirs).noun}).")


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


def _dice_list(dice: Any) -> list[int]:
    if (not isinstance(dice, (list, tuple)) or len(dice) > 1000
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)):
        raise SetupError("Setup: the revealed dice must be a list of numbers from 1 to 6")
    return [int(d) for d in dice]


def _reveal(raw: Any, table: bool = False) -> dict[str, Any]:
    """The face-up facts of a spectator's copy (see :func:`public_game`). Each list is
    checked here; whether the facts fit the table (each card once) is checked as the
    copy replays, like moves. With the players' own deck the cards are in the actions
    already: only the dice the app rolled are revealed."""
    if not isinstance(raw, Mapping):
        raise SetupError("Setup: 'reveal' must be an object")
    if table:
        unknown = sorted(key_text(k) for k in raw if k != "dice")
        if unknown:
            raise SetupError(f"Setup: 'reveal' of a game with your own deck holds only the dice the app rolled "
                             f"(not {brief_repr(unknown[0])})")
        return {"dice": _dice_list(raw.get("dice", []))}
    unknown = sorted(key_text(k) for k in raw if k not in ("pool", "stakes", "refills", "dice", "table", "drawn"))
    if unknown:
        raise SetupError(f"Setup: 'reveal' has an unknown field {brief_repr(unknown[0])}")
    out: dict[str, Any] = {"pool": _tokens(raw.get("pool"), "Setup: the revealed pool", POOL_SIZE)}
    stakes = raw.get("stakes", [])
    if not isinstance(stakes, (list, tuple)) or len(stakes) > 100:
        raise SetupError("Setup: the revealed stakes must be a list (at most 100 battles)")
    out["stakes"] = [_tokens(pair, f"Setup: the stakes of battle {i + 1}", 2) for i, pair in enumerate(stakes)]
    refills = raw.get("refills", [])
    if isinstance(refills, (list, tuple)) and len(refills) > 48:
        raise SetupError("Setup: the revealed pool refills hold at most 48 cards")
    out["refills"] = _tokens(refills, "Setup: the revealed pool refills")
    out["dice"] = _dice_list(raw.get("dice", []))
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


def _legacy(raw: Any) -> list[str]:
    if not isinstance(raw, (list, tuple)) or not all(isinstance(x, str) and x in LEGACY for x in raw) \
            or len(set(raw)) != len(raw):
        raise SetupError(f"Setup: 'legacy' lists earlier readings kept for an old game ({', '.join(LEGACY)})")
    return sorted(raw)


def equipment(setup: Mapping[str, Any], rules: Mapping[str, Any] | None = None) -> str:
    """Whose deck and dice (issue 18, setup ``"deck"``), in players' words."""
    if not isinstance(setup, Mapping):
        raise SetupError("The setup must be an object")
    deck = setup.get("deck", "app")
    return DECKS.get(deck, DECKS["app"]) if isinstance(deck, str) else DECKS["app"]


def normalize_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """Validated, canonical setup: ``{"players": [a, b], "dummy": bool}`` (+ ``"deck":
    "table"`` for the players' own deck and dice, ``"reveal"``, ``"spectator"`` and
    ``"legacy"`` where they apply).

    Empty names become "Player 1" / "Player 2" (or "Dummy" for a solo
    campaign's second player). Raises :class:`SetupError` naming the field.
    """
    if not isinstance(setup, Mapping):
        raise SetupError("The setup must be an object with named fields")
    unknown = sorted(key_text(k) for k in setup if k not in ("players", "dummy", "deck", "reveal", "spectator",
                                                        "legacy"))
    if unknown:
        raise SetupError(f"Setup: unknown field {brief_repr(unknown[0])}")
    dummy = setup.get("dummy", False)
    if not isinstance(dummy, bool):
        raise SetupError("Setup: 'dummy' must be true (solo against the dummy, CMP-9) or false")
    players = setup.get("players", [None, None])
    if not isinstance(players, (list, tuple)) or len(players) != 2:
        raise SetupError("CMP-1: a campaign has two players (or one player and the dummy)")
    names = [_name(players[0], "Player 1", "Player 1"),
             _name(players[1], "Dummy" if dummy else "Player 2", "Dummy" if dummy else "Player 2")]
    out: dict[str, Any] = {"players": names, "dummy": dummy}
    deck = setup.get("deck", "app")
    if not isinstance(deck, str) or deck not in DECKS:
        raise SetupError("Setup: 'deck' is \"app\" (the app's deck and dice) or \"table\" (your own)")
    if deck != "app":  # the app's deck is the default, left out (older games are unchanged)
        out["deck"] = deck
    if setup.get("legacy"):
        out["legacy"] = _legacy(setup["legacy"])
    if "reveal" in setup and setup["reveal"] is not None:
        out["reveal"] = _reveal(setup["reveal"], table=deck == "table")
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


_SPECTATOR_END = "this spectator view ends here: the link shows only what had happened when it was shared"


def _take_script(state: CampaignState, key: str, count: int = 1) -> tuple[list[Any], CampaignState]:
    """Spectator copy: the next revealed facts of one kind."""
    script = state.script or {}
    items = list(script.get(key, []))
    if len(items) < count:
        raise RuleError(_SCRIPT_RULE[key], _SPECTATOR_END)
    rest = dict(script)
    rest[key] = items[count:]
    return items[:count], replace(state, script=FrozenDict(rest))


_SCRIPT_RULE = {"stakes": "CMP-2", "refills": "CMP-4", "dice": "CMP-6", "table": "CMP-7"}


def _remember(state: CampaignState, key: str, values: list[Any]) -> CampaignState:
    history = dict(state.history or {})
    history[key] = list(history.get(key, [])) + values
    return replace(state, history=FrozenDict(history))


def _d6(state: CampaignState, rng: random.Random | None) -> tuple[int, CampaignState]:
    if state.public:
        (roll,), state = _take_script(state, "dice")
    else:
        roll = _rng(rng).randint(1, 6)
    return roll, _remember(state, "dice", [roll])


def _rng(rng: Any) -> random.Random:
    if not isinstance(rng, random.Random):
        raise CampaignError("This step deals or rolls: it needs the game's random generator (random.Random)")
    return rng


def _log(state: CampaignState, text: str, rule: str, cards: Iterable[Card] = ()) -> CampaignState:
    if text.startswith(rule + ": "):  # the table shows the id beside the text: never twice
        text = text[len(rule) + 2:]
        text = text[:1].upper() + text[1:]
    return replace(state, log=state.log + (LogEntry(state.battle, text, rule, tuple(cards)),))


def _add_to_hand(state: CampaignState, player: int, cards: Iterable[Card]) -> CampaignState:
    """Face-up cards into a hand: they are counted, and known to be there."""
    cards = tuple(cards)
    counts = _set(state.counts, player, state.counts[player] + len(cards))
    known = _set(state.known, player, _order(state.known[player] + cards))
    if not state.hands_known:
        return replace(state, counts=counts, known=known)
    hands = _set(state.hands, player, _order(state.hands[player] + cards))
    return replace(state, hands=hands, counts=counts, known=known)


def _where(state: CampaignState, card: Card) -> str | None:
    """Where a card that has been face up is now, in words (``None``: never seen)."""
    if card in state.pool:
        return "in the pool"
    for p in (0, 1):
        if state.stakes[p] == card:
            return f"{state.name(p)}'s stake"
        if card in state.known[p]:
            return f"in {state.name(p)}'s hand (it was seen face up)"
    for p, (hand, drawn) in enumerate(state.laid):
        if card in hand or card in drawn:
            return f"laid down by {state.name(p)} at the negotiating table"
    if card in state.seen:
        return "already on the table"
    return None


def _check_new(state: CampaignState, card: Card, rule: str, what: str) -> None:
    """A card that comes face up from the deck must be one nobody has seen (each card once)."""
    where = _where(state, card)
    if where is not None:
        raise RuleError(rule, f"the {card.label} cannot be {what}: it is {where}; a deck has one of each card")


def _check_stake(state: CampaignState, player: int, card: Card, other: Card | None = None) -> None:
    """CMP-2: a stake comes from its owner's hand: a card known to be there, or one nobody has seen."""
    name = state.name(player)
    if card == other:
        raise RuleError("CMP-2", f"both stakes are the {card.label}: a deck has one of each card")
    if card in state.known[player]:
        return
    where = _where(state, card)
    if where is not None:
        raise RuleError("CMP-2", f"the {card.label} cannot be {name}'s stake: it is {where}")
    unknown = state.counts[player] - len(state.known[player])
    if unknown <= 0:
        cards = " ".join(c.label for c in state.known[player])
        raise RuleError("CMP-2", f"{name}'s stake is one of {name}'s cards ({cards}), not the {card.label}")


def _draw_stakes(state: CampaignState, rng: random.Random | None,
                 entered: tuple[Card, Card] | None = None) -> CampaignState:
    """CMP-2 (CMP-9 for the dummy): each player stakes one card of the hand at random, face up.

    With the players' own deck the table turns the stakes up: the state waits in
    "stakes" until they are entered (``entered``, checked by :func:`normalize_action`).
    """
    for p in (0, 1):
        if state.counts[p] < 1:  # cannot happen: losing the last card ends the campaign
            raise RuleError("CMP-2", f"{state.name(p)} has no card to stake")
    if state.table_deck and entered is None:
        return replace(state, phase="stakes", pending=None)
    if entered is not None:
        stakes = entered
        state = replace(state, counts=(state.counts[0] - 1, state.counts[1] - 1))
    elif state.public:
        (pair,), state = _take_script(state, "stakes")
        stakes = (parse_card(pair[0]), parse_card(pair[1]))
        _check_stake(state, 0, stakes[0])
        _check_stake(state, 1, stakes[1], stakes[0])
        state = replace(state, counts=(state.counts[0] - 1, state.counts[1] - 1))
    else:
        rng = _rng(rng)
        stakes_list = []
        hands = list(state.hands)
        for p in (0, 1):
            hand = hands[p]
            stake = hand[0] if len(hand) == 1 else hand[rng.randrange(len(hand))]
            stakes_list.append(stake)
            hands[p] = tuple(card for card in hand if card != stake)
        stakes = (stakes_list[0], stakes_list[1])
        state = replace(state, hands=(hands[0], hands[1]), counts=(len(hands[0]), len(hands[1])))
    known = tuple(tuple(c for c in state.known[p] if c != stakes[p]) for p in (0, 1))
    state = replace(state, stakes=stakes, known=(known[0], known[1]))
    state = _remember(state, "stakes", [[str(stakes[0]), str(stakes[1])]])
    state = replace(state, phase="battle", pending=None, seen=state.seen | set(stakes))
    last = [state.name(p) for p in (0, 1) if state.counts[p] == 0]
    how = "dealt at random for the dummy (CMP-9)" if state.dummy else "picked at random"
    if state.table_deck:
        how = ("turned up at random from each hand; the dummy's dealt at random (CMP-9)" if state.dummy
               else "turned up at random from each hand")
    text = (f"Battle {state.battle}: {state.name(0)} stakes the {stakes[0].label}, "
            f"{state.name(1)} stakes the {stakes[1].label} ({how})")
    if last:
        text += f"; last card for {' and '.join(last)}: losing it loses the campaign"
    return _log(state, text, "CMP-2", stakes)


def _refill_pool(state: CampaignState, at: int, entered: Card | None = None) -> CampaignState:
    """CMP-4: a pool card taken is replaced from the deck; the new card takes the place of
    the one taken (ruling; games from before it keep the right end, ``legacy``)."""
    if entered is not None:
        card = entered
    elif state.public:
        (token,), state = _take_script(state, "refills")
        card = parse_card(token)
        _check_new(state, card, "CMP-4", "the new pool card")
    else:
        if not state.deck:  # cannot happen: CMP-6 ends the campaign by battle 8 at the latest
            return state
        card, deck = state.deck[0], state.deck[1:]
        state = replace(state, deck=deck)
    state = _remember(state, "refills", [str(card)])
    if "refill-end" in state.legacy:
        pool = state.pool + (card,)
    else:
        pool = state.pool[:at] + (card,) + state.pool[at:]
    state = replace(state, pool=pool, seen=state.seen | {card}, refill_at=None)
    return _log(state, f"The {card.label} is drawn from the deck into the pool", "CMP-4", (card,))


def _settle(state: CampaignState, winner: int, take_stake: bool, pool_card: Card | None,
            rng: random.Random | None, why: str = "") -> CampaignState:
    """CMP-4/CMP-5/CMP-2: move the spoils, return the stakes, refill the pool, check the last card."""
    loser = 1 - winner
    win, lose = state.name(winner), state.name(loser)
    stakes = state.stakes
    taken: list[Card] = []
    at = 0
    if take_stake:
        card = stakes[loser]
        taken.append(card)
        state = _log(state, f"{win} takes {lose}'s stake, the {card.label}{why}", "CMP-4", (card,))
    if pool_card is not None:
        taken.append(pool_card)
        at = state.pool.index(pool_card)
        state = replace(state, pool=state.pool[:at] + state.pool[at + 1:])
        state = _log(state, f"{win} takes the {pool_card.label} from the pool{why if not take_stake else ''}",
                     "CMP-4", (pool_card,))
    state = _add_to_hand(state, winner, taken)
    returned = [(winner, stakes[winner])] + ([] if take_stake else [(loser, stakes[loser])])
    for p, card in returned:
        state = _add_to_hand(state, p, (card,))
    state = replace(state, stakes=(None, None))
    state = _log(state, "Stakes back to their owners: " + ", ".join(
        f"the {card.label} to {state.name(p)}" for p, card in returned), "CMP-5", [c for _, c in returned])
    if pool_card is not None and not state.table_deck:
        state = _refill_pool(state, at)
    if state.counts[loser] == 0:
        result = (f"CMP-2: {lose} lost the last card — {win} wins the campaign after "
                  f"{_plural(state.battle, 'battle')}.")
        state = replace(state, phase="over", winner=winner, result=result, fought=state.battle, pending=None)
        return _log(state, result, "CMP-2")
    if pool_card is not None and state.table_deck:  # the table draws the new pool card and enters it
        return replace(state, phase="refill", refill_at=at, pending=None)
    return _after_battle(state, rng)


def _after_battle(state: CampaignState, rng: random.Random | None) -> CampaignState:
    """CMP-6 (CMP-11: a drawn battle counts): the exhaustion roll after the third battle and
    every later one."""
    fought = state.battle
    state = replace(state, fought=fought, pending=None)
    if fought >= EXHAUSTION_FROM:
        if exhaustion_chance(fought) == 1 and "certain-roll" not in state.legacy:
            state = _log(state, f"No exhaustion roll after battle {fought}: it cannot fail — even a 1 on the lower "
                                f"die makes 1 + {fought} battles = {1 + fought}, 9 or more. Both sides are "
                                "exhausted and go to the negotiating table", "CMP-6")
            return replace(state, phase="exhausted")
        return replace(state, phase="exhaustion")
    return _next_battle(state, rng)


def _next_battle(state: CampaignState, rng: random.Random | None) -> CampaignState:
    return _draw_stakes(replace(state, battle=state.battle + 1), rng)


def spoils_choices(state: CampaignState) -> dict[str, Any]:
    """CMP-4: what the winner may take now.

    ``{"winner": p, "decisive": bool, "stake": Card, "pool": (cards…), "both": bool}``
    — after a decisive victory the stake **and** one pool card (``both``), else the
    stake **or** one pool card (the winner must take one: a card never makes a best
    hand worse). Empty outside the "spoils" phase.
    """
    state = _state(state)
    if state.phase != "spoils" or state.pending is None:
        return {}
    winner, troops, decisive = state.pending
    return {"winner": winner, "troops": troops, "decisive": decisive, "stake": state.stakes[1 - winner],
            "pool": state.pool, "both": decisive}


def _dummy_takes(state: CampaignState, decisive: bool, rng: random.Random | None) -> CampaignState:
    """CMP-9/CMP-10 (HR-CMP-1): the dummy takes the highest card or cards it may."""
    human = 0
    stake = state.stakes[human]

    def roll_die() -> int:
        nonlocal state
        roll, state = _d6(state, rng)
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
        return _settle(state, 1, True, pool_card, rng, why)
    candidates = [(f"{state.name(human)}'s stake", stake)] + [("pool", card) for card in state.pool]
    index, tied, rolls = dummy_pick(candidates, roll_die)
    why = f" — the highest card it may take (CMP-9, CMP-10){tie_words(candidates, tied, rolls, index)}"
    if index == 0:
        return _settle(state, 1, True, None, rng, why)
    return _settle(state, 1, False, candidates[index][1], rng, why)


# ---------------------------------------------------------------------------
# Session protocol


def start(setup: Mapping[str, Any], rules: Mapping[str, Any] | None, rng: random.Random) -> CampaignState:
    """CMP-1 then CMP-2: deal six hidden cards each and a pool of four; stakes for battle 1."""
    normal = normalize_setup(setup)
    _rules(rules)
    players = (normal["players"][0], normal["players"][1])
    reveal = normal.get("reveal")
    legacy = frozenset(normal.get("legacy", ()))
    if normal.get("deck") == "table":
        script = FrozenDict({"dice": list(reveal["dice"])}) if reveal is not None else None
        state = CampaignState(players=players, dummy=normal["dummy"], hands=((), ()),
                              counts=(HAND_SIZE, HAND_SIZE), stakes=(None, None), pool=(), deck=(),
                              phase="deal", battle=0, public=reveal is not None, script=script, legacy=legacy,
                              deck_mode="table", history=FrozenDict())
        dummy = " (the dummy's face down: nobody looks at them, CMP-9)" if state.dummy else ""
        return _log(state, f"With your own deck: six cards dealt to each player{dummy} and four face up to the "
                           "pool; the hands stay in the players' hands", "CMP-1")
    if reveal is not None:
        pool = tuple(parse_card(token) for token in reveal["pool"])
        state = CampaignState(players=players, dummy=normal["dummy"], hands=((), ()),
                              counts=(HAND_SIZE, HAND_SIZE), stakes=(None, None), pool=pool, deck=(),
                              phase="battle", battle=0, seen=frozenset(pool), public=True, legacy=legacy,
                              script=FrozenDict({k: v for k, v in reveal.items() if k != "pool"}))
    else:
        deck = shuffled_deck(_rng(rng))
        hands = (_order(deck[:HAND_SIZE]), _order(deck[HAND_SIZE:2 * HAND_SIZE]))
        pool = tuple(deck[2 * HAND_SIZE:2 * HAND_SIZE + POOL_SIZE])
        state = CampaignState(players=players, dummy=normal["dummy"], hands=hands,
                              counts=(HAND_SIZE, HAND_SIZE), stakes=(None, None), pool=pool,
                              deck=tuple(deck[2 * HAND_SIZE + POOL_SIZE:]), phase="battle", battle=0,
                              seen=frozenset(pool), legacy=legacy)
    state = replace(state, history=FrozenDict({"pool": [str(c) for c in pool]}))
    for key in sorted(legacy):
        state = _log(state, f"This campaign was played with an earlier version of the app; it keeps that "
                            f"version's reading, so that it replays as it was played: {LEGACY[key]}",
                     "CMP-4" if key == "refill-end" else "CMP-6")
    dummy = " (the dummy's cards stay hidden, CMP-9)" if state.dummy else ""
    state = _log(state, f"Six hidden cards dealt to each player{dummy}; the pool: "
                        + " ".join(c.label for c in pool), "CMP-1", pool)
    return _next_battle(state, rng)


def _rules(rules: Any) -> Mapping[str, Any]:
    if rules is None:
        return {}
    if not isinstance(rules, Mapping):
        raise CampaignError("The rules settings must be an object (the campaign has no variants)")
    return rules


_TYPES = ("battle", "take", "roll", "negotiate", "deal", "stakes", "refill", "lay")
#: Actions that enter what the players' own deck revealed (setup "deck": "table").
_TABLE_TYPES = ("deal", "stakes", "refill", "lay")

_PHASE_OF = {"battle": "battle", "take": "spoils", "roll": "exhaustion", "negotiate": "exhausted",
             "deal": "deal", "stakes": "stakes", "refill": "refill", "lay": "exhausted"}


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
    if state.phase == "deal":
        return RuleError("CMP-1", "enter the four pool cards as they were dealt first")
    if state.phase == "stakes":
        return RuleError("CMP-2", f"turn up the stakes of battle {state.battle} and enter them first")
    if state.phase == "refill":
        return RuleError("CMP-4", "draw the new pool card from the deck and enter it first")
    if acting == "deal":
        return RuleError("CMP-1", "the pool was dealt at the start")
    if acting == "stakes":
        return RuleError("CMP-2", f"the stakes of battle {state.battle} are out already")
    if acting == "refill":
        return RuleError("CMP-4", "no pool card is waiting to be replaced")
    if acting == "take":
        return RuleError("CMP-4", f"battle {state.battle} has not been recorded yet: nobody has won spoils")
    if acting == "roll":
        if state.fought < EXHAUSTION_FROM:
            return RuleError("CMP-6", f"the exhaustion roll comes after the third battle and every later one "
                                      f"({_plural(state.fought, 'battle')} fought so far)")
        return RuleError("CMP-6", "the exhaustion roll for this battle has been made")
    return RuleError("CMP-7", "the negotiating table comes only when both sides are exhausted (CMP-6)")


def _number_words(value: float) -> str:
    return f"{value:g}" if math.isfinite(value) and abs(value) < 10**6 else "that"


def _troops(state: CampaignState, winner: int, value: Any) -> int:
    """CMP-12: the winner's troop points, a whole number from 0 to 999, said for players."""
    name = state.name(winner)
    if value is None:
        raise RuleError("CMP-12", f"enter the troop points {name} has left in play: a whole number from 0 to "
                                  f"{MAX_TROOPS} (0 if none are left)")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (
            isinstance(value, float) and not value.is_integer()):
        shown = (f'"{value}"' if isinstance(value, str) and 0 < len(value) <= 20 and value.isprintable()
                 else _number_words(value) if isinstance(value, float) else "that")
        raise RuleError("CMP-12", f"troop points are a whole number from 0 to {MAX_TROOPS}; {shown} is not")
    if isinstance(value, float):
        raise RuleError("CMP-12", f"troop points are a whole number from 0 to {MAX_TROOPS} (write {int(value)}, "
                                  f"not {value})")
    if value < 0:
        shown = f"−{-value}" if value > -10**6 else "a negative number"
        raise RuleError("CMP-12", f"troop points cannot be negative ({shown}): count the points of {name}'s "
                                  "troops still in play, 0 or more")
    if value > MAX_TROOPS:
        shown = str(value) if value < 10**6 else "a huge number"
        raise RuleError("CMP-12", f"{shown} troop points is more than the {MAX_TROOPS} a battle can record: "
                                  "check the count")
    return int(value)


def normalize_action(state: CampaignState, action: Mapping[str, Any],
                     rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The canonical form of ``action`` in ``state`` — exact shape, canonical card tokens
    ("as" → "AS"), no unknown field, numbers in range (CMP-12) — or the
    :class:`ActionError` / :class:`RuleError` that refuses it, citing its clause.

    :func:`step` refuses everything this refuses (it calls it first).
    """
    state = _state(state)
    _rules(rules)
    kind = referee.action_type(action, _TYPES)
    if kind in _TABLE_TYPES and not state.table_deck:
        raise ActionError(f"A {kind} action enters what the players' own deck revealed; this campaign is played "
                          "with the app's deck, which deals and draws itself")
    if kind == "negotiate" and state.table_deck:
        raise ActionError("With your own deck each player lays the cards down at the negotiating table (a lay "
                          "action) and the app judges them")
    if kind in _TABLE_TYPES:
        return _normalize_table(state, action, kind)
    if kind == "battle":
        referee.only(action, ("winner",), ("troops",))
        winner = action["winner"]
        if winner is not None:
            winner = referee.one_of(winner, "the winner (0, 1, or null for a drawn battle)", (0, 1))
        problem = _phase_problem(state, "battle")
        if problem is not None:
            raise problem
        if winner is None:
            if "troops" in action:
                raise RuleError("CMP-12", "a drawn battle carries no troop points: nobody won it")
            return {"type": "battle", "winner": None}
        return {"type": "battle", "winner": winner, "troops": _troops(state, winner, action.get("troops"))}
    if kind == "take":
        referee.only(action, (), ("stake", "pool"))
        stake = referee.flag(action.get("stake", False), "'stake' (take the loser's stake)")
        token = action.get("pool")
        pool_card = None if token is None else referee.card(token, "the pool card")
        problem = _phase_problem(state, "take")
        if problem is not None:
            raise problem
        assert state.pending is not None
        winner, troops, decisive = state.pending
        if pool_card is not None and pool_card not in state.pool:
            raise RuleError("CMP-4", f"the {pool_card.label} is not in the pool "
                                     f"({' '.join(c.label for c in state.pool)})")
        lose = state.name(1 - winner)
        if decisive and not (stake and pool_card is not None):
            raise RuleError("CMP-4", f"after a decisive victory {state.name(winner)} takes {lose}'s stake and "
                                     "one pool card: choose both")
        if not decisive and stake and pool_card is not None:
            raise RuleError("CMP-4", f"a victory that is not decisive ({_plural(troops, 'troop point')}, under 8) takes "
                                     f"{lose}'s stake or one pool card, not both")
        if not decisive and not stake and pool_card is None:
            raise RuleError("CMP-4", f"{state.name(winner)} must take {lose}'s stake or one pool card "
                                     "(a card never makes a hand worse)")
        return {"type": "take", "stake": stake, "pool": None if pool_card is None else str(pool_card)}
    if kind == "roll":
        if "dice" in action and not state.table_deck:
            raise RuleError("CMP-12", "the app rolls the exhaustion dice itself: a roll carries no dice")
        referee.only(action, (), ("dice",))
        dice = None
        if "dice" in action:  # the players' own dice, as rolled at the table
            raw = action["dice"]
            if not isinstance(raw, (list, tuple)) or len(raw) != 2:
                raise ActionError("The exhaustion dice are two dice, e.g. [3, 5] (CMP-6: 2d6)")
            dice = [referee.whole(d, "A die", 1, 6, rule="CMP-6") for d in raw]
        problem = _phase_problem(state, "roll")
        if problem is not None:
            raise problem
        return {"type": "roll"} if dice is None else {"type": "roll", "dice": dice}
    referee.only(action)
    problem = _phase_problem(state, "negotiate")
    if problem is not None:
        raise problem
    return {"type": "negotiate"}


def _normalize_table(state: CampaignState, action: Mapping[str, Any], kind: str) -> dict[str, Any]:
    """The actions of a campaign played with the players' own deck (issue 18): every card
    entered is checked like a move — each card once, and consistent with what was seen."""
    if kind == "deal":
        referee.only(action, ("pool",))
        pool = referee.cards(action["pool"], "the pool")
        if len(pool) != POOL_SIZE:
            raise RuleError("CMP-1", f"the pool is four cards (got {len(pool)})")
        problem = _phase_problem(state, "deal")
        if problem is not None:
            raise problem
        return {"type": "deal", "pool": [str(c) for c in pool]}
    if kind == "stakes":
        referee.only(action, ("stakes",))
        stakes = referee.cards(action["stakes"], "the stakes", unique=False)
        if len(stakes) != 2:
            raise RuleError("CMP-2", f"each player stakes one card: two stakes (got {len(stakes)})")
        problem = _phase_problem(state, "stakes")
        if problem is not None:
            raise problem
        _check_stake(state, 0, stakes[0])
        _check_stake(state, 1, stakes[1], stakes[0])
        return {"type": "stakes", "stakes": [str(c) for c in stakes]}
    if kind == "refill":
        referee.only(action, ("card",))
        card = referee.card(action["card"], "the new pool card")
        problem = _phase_problem(state, "refill")
        if problem is not None:
            raise problem
        _check_new(state, card, "CMP-4", "the new pool card")
        return {"type": "refill", "card": str(card)}
    referee.only(action, ("player", "hand"), ("drawn",))
    player = referee.one_of(action["player"], "the player (0 or 1)", (0, 1))
    hand = referee.cards(action["hand"], "the hand")
    drawn = referee.cards(action.get("drawn", []), "the cards drawn")
    problem = _phase_problem(state, "lay")
    if problem is not None:
        raise problem
    turn = len(state.laid)
    if player != turn:
        raise RuleError("CMP-7", f"{state.name(turn)} lays down first: the negotiating table goes in player order"
                        if player > turn else f"{state.name(player)}'s cards are down already")
    _check_lay(state, player, hand, drawn)
    return {"type": "lay", "player": player, "hand": [str(c) for c in _order(hand)],
            "drawn": [str(c) for c in _order(drawn)]}


def _check_lay(state: CampaignState, player: int, hand: tuple[Card, ...], drawn: tuple[Card, ...]) -> None:
    """CMP-7/CMP-9: a hand laid down at the table is the player's cards — as many as the table
    counted, the ones seen in it among them, none seen anywhere else — and the cards drawn
    there are as many as CMP-7 (and CMP-9 for the dummy) draw, from the deck."""
    name = state.name(player)
    count = state.counts[player]
    if len(hand) != count:
        raise RuleError("CMP-7", f"{name} holds {_plural(count, 'card')}: lay down all of them "
                                 f"({len(hand)} entered)")
    missing = [c for c in state.known[player] if c not in hand]
    if missing:
        raise RuleError("CMP-7", f"the {missing[0].label} is in {name}'s hand (it was seen face up): lay it down "
                                 "too")
    for card in hand:
        if card not in state.known[player]:
            where = _where(state, card)
            if where is not None:
                raise RuleError("CMP-7", f"the {card.label} cannot be in {name}'s hand: it is {where}")
    need = _table_draws(state, player, count)
    rule = "CMP-9" if state.dummy and player == 1 else "CMP-7"
    if len(drawn) != need and need == 0:
        raise RuleError(rule, f"{name} holds {_plural(count, 'card')}: with five or more nobody draws at the table")
    if len(drawn) != need:
        why = ("up to five, then one extra card" if rule == "CMP-9" and count < TREATY_CARDS
               else "one extra card" if rule == "CMP-9" else "up to five")
        raise RuleError(rule, f"{name} draws {_plural(need, 'card')} at the table ({why}), not {len(drawn)}")
    for card in drawn:
        if card in hand:
            raise RuleError(rule, f"the {card.label} is in {name}'s hand: it cannot be drawn from the deck too")
        where = _where(state, card)
        if where is not None:
            raise RuleError(rule, f"the {card.label} cannot be drawn from the deck: it is {where}")


def _battle(state: CampaignState, action: Mapping[str, Any], rng: random.Random | None) -> CampaignState:
    """CMP-3/CMP-5/CMP-11: record a battle fought on the tabletop."""
    winner = action["winner"]
    if winner is None:
        state = _log(state, f"Battle {state.battle} is drawn: no card moves; it counts as a battle fought "
                            "(CMP-11)", "CMP-5")
        returned = [(p, state.stakes[p]) for p in (0, 1)]
        for p, card in returned:
            state = _add_to_hand(state, p, (card,))
        state = replace(state, stakes=(None, None))
        state = _log(state, "Stakes back to their owners: " + ", ".join(
            f"the {card.label} to {state.name(p)}" for p, card in returned), "CMP-5", [c for _, c in returned])
        return _after_battle(state, rng)
    troops = action["troops"]
    decisive = is_decisive(troops)
    kind = (f"a decisive victory ({troops} troop points left, 8 or more)" if decisive
            else f"a victory, not decisive ({_plural(troops, 'troop point')} left, under 8)")
    state = _log(state, f"Battle {state.battle}: {state.name(winner)} wins — {kind}", "CMP-3")
    if state.dummy and winner == 1:
        return _dummy_takes(state, decisive, rng)
    return replace(state, phase="spoils", pending=(winner, troops, decisive))


def _take(state: CampaignState, action: Mapping[str, Any], rng: random.Random | None) -> CampaignState:
    """CMP-4: the winner's choice (checked by :func:`normalize_action`)."""
    assert state.pending is not None
    winner = state.pending[0]
    pool_card = None if action["pool"] is None else parse_card(action["pool"])
    return _settle(state, winner, action["stake"], pool_card, rng)


def _roll(state: CampaignState, rng: random.Random | None, dice: list[int] | None = None) -> CampaignState:
    """CMP-6: 2d6, keep the lower, add the battles fought; 9 or more exhausts both sides.

    ``dice``: the players' own dice as rolled at the table (a fact of the action)."""
    if dice is not None:
        first, second = dice
    else:
        first, state = _d6(state, rng)
        second, state = _d6(state, rng)
    roll = Roll(state.fought, (first, second))
    state = replace(state, rolls=state.rolls + (roll,))
    verdict = ("both sides are exhausted and go to the negotiating table" if roll.exhausted
               else "the war goes on")
    state = _log(state, f"Exhaustion roll after battle {roll.battles}{' (your dice)' if dice else ''}: "
                        f"{first} and {second}, lower {roll.lower} "
                        f"+ {roll.battles} battles = {roll.total} ({'≥' if roll.exhausted else '<'} 9): {verdict}",
                 "CMP-6")
    if roll.exhausted:
        return replace(state, phase="exhausted")
    return _next_battle(state, rng)


def _table_draws(state: CampaignState, player: int, held: int) -> int:
    """CMP-7/CMP-9: how many cards a player draws at the table: up to five, and the dummy one more."""
    return max(0, TREATY_CARDS - held) + (1 if state.dummy and player == 1 else 0)


def _check_table(state: CampaignState, table: tuple[tuple[Card, ...], ...],
                 draws: tuple[tuple[Card, ...], ...]) -> None:
    """The cards shown at the table fit what the table knew: each player's own cards (the
    ones seen in that hand among them) and the draws, every card once."""
    placed: dict[Card, str] = {}
    for p in (0, 1):
        name = state.name(p)
        own = [c for c in table[p] if c not in draws[p]]
        if len(draws[p]) != len(set(draws[p])) or not set(draws[p]) <= set(table[p]):
            raise RuleError("CMP-7", f"{name}'s cards drawn at the table are not among {name}'s cards there")
        if len(own) != state.counts[p]:
            raise RuleError("CMP-7", f"{name} held {_plural(state.counts[p], 'card')}, not {len(own)}")
        need = _table_draws(state, p, len(own))
        if len(draws[p]) != need:
            raise RuleError("CMP-9" if state.dummy and p == 1 else "CMP-7",
                            f"{name} draws {_plural(need, 'card')} at the table, not {len(draws[p])}")
        missing = [c for c in state.known[p] if c not in own]
        if missing:
            raise RuleError("CMP-7", f"the {missing[0].label} is in {name}'s hand (it was seen face up)")
        for card in table[p]:
            if card in placed:
                raise RuleError("CMP-7", f"the {card.label} is shown twice at the table ({placed[card]} and "
                                         f"{name}): a deck has one of each card")
            placed[card] = name
            if card in state.known[p] and card not in draws[p]:
                continue
            where = _where(state, card)
            if where is not None:
                raise RuleError("CMP-7", f"the {card.label} cannot be {name}'s at the table: it is {where}")


def _negotiate(state: CampaignState) -> CampaignState:
    """CMP-7/CMP-8/CMP-9: draw up to five (the dummy one card more), best hands decide the war.

    Draws are made in player order (CMP-7 ruling: the first player, then the second
    or the dummy); a dummy short of five draws up to five, then its extra card (CMP-9
    ruling: it ends with max(n, 5) + 1 cards).
    """
    if state.public:
        script = dict(state.script or {})
        cards, drawn = script.pop("table", None), script.pop("drawn", None)
        if cards is None or drawn is None:
            raise RuleError("CMP-7", _SPECTATOR_END)
        state = replace(state, script=FrozenDict(script))
        table = tuple(_order(parse_card(t) for t in cards[p]) for p in (0, 1))
        draws = tuple(tuple(parse_card(t) for t in drawn[p]) for p in (0, 1))
        _check_table(state, table, draws)
    else:
        deck = state.deck
        table_list, draw_list = [], []
        for p in (0, 1):
            own = state.hands[p]
            need = _table_draws(state, p, len(own))
            draw_list.append(tuple(deck[:need]))
            deck = deck[need:]
            table_list.append(_order(own + draw_list[-1]))
        table = (table_list[0], table_list[1])
        draws = (draw_list[0], draw_list[1])
        state = replace(state, deck=deck, hands=table)
    return _judge(state, table, draws)


def _log_draws(state: CampaignState, p: int, drawn: tuple[Card, ...]) -> CampaignState:
    if state.dummy and p == 1:
        why = "up to five (CMP-7) and one extra card" if len(drawn) > 1 else "one extra card"
    else:
        why = "up to five"
    return _log(state, f"At the table {state.name(p)} draws {' '.join(c.label for c in drawn)} — {why}",
                "CMP-9" if state.dummy and p == 1 else "CMP-7", drawn)


def _judge(state: CampaignState, table: tuple[tuple[Card, ...], ...],
           draws: tuple[tuple[Card, ...], ...], draws_logged: bool = False) -> CampaignState:
    """CMP-8: the best hands of the cards at the table decide the war."""
    history = dict(state.history or {})
    history["table"] = [[str(c) for c in cards] for cards in table]
    history["drawn"] = [[str(c) for c in cards] for cards in draws]
    state = replace(state, history=FrozenDict(history))
    for p in (0, 1):
        if draws[p] and not draws_logged:
            state = _log_draws(state, p, draws[p])
    hands = (best_hand(table[0]), best_hand(table[1]))
    winner, explanation = compare_hands(hands[0], hands[1], state.players)
    treaty = Treaty(cards=(table[0], table[1]), drawn=(draws[0], draws[1]), hands=hands, winner=winner,
                    explanation=explanation)
    result = (f"{state.name(winner)} wins the war at the negotiating table." if winner is not None
              else "The treaty is a draw: equal hands.")
    state = replace(state, treaty=treaty, phase="over", winner=winner, result=result,
                    counts=(len(table[0]), len(table[1])), known=(table[0], table[1]),
                    seen=state.seen | set(table[0]) | set(table[1]))
    for p in (0, 1):
        state = _log(state, f"{state.name(p)}: {hands[p]}", "CMP-8", hands[p].cards)
    return _log(state, explanation, "CMP-8")


def step(state: CampaignState, action: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
         rng: random.Random | None = None) -> CampaignState:
    """The state after ``action`` (see the module docstring). Never mutates ``state``.

    Refuses (with the same error) everything :func:`normalize_action` refuses.
    """
    action = normalize_action(state, action, rules)
    kind = action["type"]
    if kind == "battle":
        return _battle(state, action, rng)
    if kind == "take":
        return _take(state, action, rng)
    if kind == "roll":
        return _roll(state, rng, action.get("dice"))
    if kind == "negotiate":
        return _negotiate(state)
    if kind == "deal":
        pool = tuple(parse_card(t) for t in action["pool"])
        state = replace(state, pool=pool, seen=state.seen | set(pool))
        state = _remember(state, "pool", [str(c) for c in pool])
        state = _log(state, "The pool as dealt: " + " ".join(c.label for c in pool), "CMP-1", pool)
        return _next_battle(state, rng)
    if kind == "stakes":
        s0, s1 = (parse_card(t) for t in action["stakes"])
        return _draw_stakes(state, rng, (s0, s1))
    if kind == "refill":
        state = _refill_pool(state, state.refill_at or 0, parse_card(action["card"]))
        return _after_battle(state, rng)
    return _lay(state, action)


def _lay(state: CampaignState, action: Mapping[str, Any]) -> CampaignState:
    """CMP-7 (CMP-9): one player's cards laid down at the negotiating table, with the cards
    drawn there; once both are down, CMP-8 judges them."""
    player = action["player"]
    hand = _order(parse_card(t) for t in action["hand"])
    drawn = tuple(parse_card(t) for t in action["drawn"])
    name = state.name(player)
    state = replace(state, laid=state.laid + ((hand, drawn),), seen=state.seen | set(hand) | set(drawn),
                    counts=_set(state.counts, player, len(hand) + len(drawn)))
    state = _log(state, f"At the table {name} lays down {_plural(len(hand), 'card')}: "
                        + " ".join(c.label for c in hand), "CMP-7", hand)
    if drawn:
        state = _log_draws(state, player, drawn)
    if player == 0:
        return state
    table = tuple(_order(h + d) for h, d in state.laid)
    draws = tuple(d for _, d in state.laid)
    return _judge(state, table, draws, draws_logged=True)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def describe(state: CampaignState, action: Mapping[str, Any]) -> str:
    """A short history label of ``action`` taken in ``state``."""
    state = _state(state)
    if not isinstance(action, Mapping):
        return "Unknown action"
    kind = action.get("type")
    if kind == "battle":
        winner = action.get("winner")
        if winner is None:
            return f"Battle {state.battle} · drawn"
        name = state.name(winner) if winner in (0, 1) and not isinstance(winner, bool) else "?"
        troops = action.get("troops")
        if not isinstance(troops, int) or isinstance(troops, bool) or not 0 <= troops <= MAX_TROOPS:
            return f"Battle {state.battle} · {name} wins"
        decisive = ", decisive" if is_decisive(troops) else ""
        return f"Battle {state.battle} · {name} wins ({_plural(troops, 'troop point')}{decisive})"
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
        dice = action.get("dice")
        if isinstance(dice, (list, tuple)) and len(dice) == 2:
            return f"Exhaustion roll after battle {state.fought} · your dice {dice[0]} and {dice[1]}"
        return f"Exhaustion roll after battle {state.fought}"
    if kind == "negotiate":
        return "The negotiating table"
    try:
        if kind == "deal":
            return "The pool as dealt · " + " ".join(parse_card(t).label for t in action.get("pool", ()))
        if kind == "stakes":
            a, b = (parse_card(t).label for t in action.get("stakes", ()))
            return f"Battle {state.battle} · stakes {a} and {b}"
        if kind == "refill":
            return f"Battle {state.battle} · the {parse_card(action.get('card')).label} into the pool"
        if kind == "lay":
            player = action.get("player")
            name = state.name(player) if player in (0, 1) and not isinstance(player, bool) else "?"
            hand, drawn = action.get("hand") or (), action.get("drawn") or ()
            more = f", draws {len(drawn)}" if drawn else ""
            return f"The negotiating table · {name} lays down {_plural(len(hand), 'card')}{more}"
    except (CardError, ValueError, TypeError):
        pass
    return "Unknown action"


def status(state: CampaignState) -> str:
    """What the table is waiting for, in one sentence."""
    state = _state(state)
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
        if state.table_deck:
            return (f"Both sides are exhausted: {state.name(len(state.laid))} lays the cards down at the "
                    "negotiating table (CMP-7)")
        return "Both sides are exhausted: to the negotiating table (CMP-7)"
    if state.phase == "deal":
        return "Deal six cards to each player and four face up to the pool, then enter the pool (CMP-1)"
    if state.phase == "stakes":
        who = "each player turns up a card of the hand at random" + (
            " (the dummy's is dealt at random from its face-down cards, CMP-9)" if state.dummy else "")
        return f"Battle {state.battle}: {who}; enter both stakes (CMP-2)"
    if state.phase == "refill":
        return f"Battle {state.battle}: draw a card from the deck for the pool and enter it (CMP-4)"
    return f"Battle {state.battle}: fight it on the tabletop, then record the result (CMP-3)"


# ---------------------------------------------------------------------------
# What a player can see


def player_cards(state: CampaignState, player: int) -> tuple[Card, ...]:
    """A player's own cards, hand and stake (empty in a spectator's copy)."""
    return _state(state).cards_of(_player(player))


def visible_cards(state: CampaignState, player: int) -> frozenset:
    """Every card ``player`` has seen: own cards, the pool, and every card ever face up."""
    state = _state(state)
    return frozenset(player_cards(state, player)) | frozenset(state.pool) | state.seen


def treaty_chances(state: CampaignState, player: int) -> dict[str, Fraction]:
    """CMP-7/CMP-8 for a player's private view: the exact chance of each hand category
    if the table came now — drawing up to five over the cards this player cannot see.

    Uses only what the player knows (own cards; pool, stakes and every card that was
    ever face up are not in the deck as far as they can tell). For the dummy (CMP-9)
    nobody knows its hidden cards: its chances use only what everyone has seen (its
    stake and the cards it was seen to take; its hidden cards are any of the unseen
    ones) and count its extra card at the table. Empty for a spectator's copy or a
    finished campaign.
    """
    state = _state(state)
    player = _player(player)
    if state.public or state.table_deck or state.phase == "over":
        return {}  # with the players' own deck the app never knows a hand (issue 18)
    if state.dummy and player == 1:
        stake = state.stakes[1]
        own = state.known[1] + ((stake,) if stake is not None else ())
        hidden = state.counts[1] - len(state.known[1])
        unseen = [card for card in _ALL if card not in state.seen and card not in state.pool]
        return treaty_odds(own, unseen, hidden=hidden, extra=1)
    own = player_cards(state, player)
    if not own:
        return {}
    seen = visible_cards(state, player)
    unseen = [card for card in _ALL if card not in seen]
    return treaty_odds(own, unseen)


# ---------------------------------------------------------------------------
# Spectator links and old games


#: The fields of each action (what a spectator's copy keeps: in a campaign no action
#: carries a hidden card; with the players' own deck the entered cards are all public).
_PUBLIC_FIELDS = {"battle": ("type", "winner", "troops"), "take": ("type", "stake", "pool"),
                  "roll": ("type", "dice"), "negotiate": ("type",), "deal": ("type", "pool"),
                  "stakes": ("type", "stakes"), "refill": ("type", "card"),
                  "lay": ("type", "player", "hand", "drawn")}
#: The fields of schema-2 actions (before the players' own deck): what :func:`upgrade` keeps.
_OLD_FIELDS = {"battle": ("type", "winner", "troops"), "take": ("type", "stake", "pool"),
               "roll": ("type",), "negotiate": ("type",)}


def public_game(game: Game) -> Game:
    """A spectator's copy: no hidden hand, no deck order, no seed, no redo stack.

    The actions in force are kept (with their known fields); the cards and dice
    that were shown face up — the pool, every stake, the pool refills, the dice,
    and the table once the campaign reached it — go into the setup as
    ``"reveal"``, so the copy replays the same public table without the seed.
    """
    from .game import replay

    if not isinstance(game, Game) or game.kind != KIND:
        raise CampaignError("public_game takes a campaign game")
    state = replay(game)
    history = dict(state.history or {})
    reveal: dict[str, Any] = {"pool": history.get("pool", []), "stakes": history.get("stakes", []),
                              "refills": history.get("refills", []), "dice": history.get("dice", [])}
    if state.table_deck:  # the cards entered are in the actions; the dice the app rolled are not
        reveal = {"dice": history.get("dice", [])}
    elif "table" in history:
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


def _old_action(action: Any) -> Any:
    """An action of an earlier version with the fields that version ignored left out (a
    drawn battle's troop points, a roll's dice …): they never changed the game."""
    if not isinstance(action, Mapping):
        return action
    kind = action.get("type")
    fields = _OLD_FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        return dict(action)
    out = {key: action[key] for key in fields if key in action}
    if kind == "battle" and out.get("winner") is None:
        out.pop("troops", None)
    return out


def upgrade(data: Mapping[str, Any]) -> dict[str, Any]:
    """A campaign saved or shared before save schema 3, made to replay as it was played.

    Rulings since then that change a replay: CMP-4's "the new pool card takes the
    place of the one taken" (earlier versions put it at the right end of the pool,
    which changes what the table shows and, in solo, the order the dummy's die
    counts in, HR-CMP-1), and the exhaustion roll after battle 8, which cannot fail
    and is no longer rolled (CMP-6; earlier versions rolled it, so their games hold a
    roll there). A game in which a pool card was replaced, or the certain roll was
    rolled, keeps the earlier reading (setup ``"legacy": ["refill-end",
    "certain-roll"]``), and its log says so. Fields the earlier version ignored are
    left out of its actions.
    """
    if not isinstance(data, Mapping):
        raise CampaignError("upgrade takes a saved game as a dict")
    out = dict(data)
    setup, actions = out.get("setup"), out.get("actions")
    if not isinstance(setup, Mapping) or not isinstance(actions, (list, tuple)):
        return out
    cleaned = [_old_action(a) for a in actions]
    out["actions"] = cleaned
    legacy = set(setup.get("legacy") or ()) if isinstance(setup.get("legacy"), (list, tuple)) else set()
    needed = set(LEGACY)
    try:
        from .game import replay

        trial = Game(KIND, out.get("seed", 0), out.get("rules") or {}, {**setup, "legacy": sorted(LEGACY)},
                     tuple(cleaned), len(cleaned))
        final = replay(trial, len(cleaned))
        needed = set()
        if (final.history or {}).get("refills"):
            needed.add("refill-end")
        if any(roll.battles >= 8 for roll in final.rolls):
            needed.add("certain-roll")
    except Exception:  # a game that does not replay either way: keep every earlier reading
        pass
    legacy |= needed
    new_setup = dict(setup)
    if legacy:
        new_setup["legacy"] = sorted(legacy)
    out["setup"] = new_setup
    return out


def undo_warning(game: Game, position: int) -> str | None:
    """What the table must hear before going back from ``game.position`` to ``position``
    (the session asks before Undo or a jump in the History), or ``None``.

    Going back past the negotiating table (CMP-7) needs a question: there every hand
    was laid down — the dummy's hidden cards too (CMP-9) — and the top of the deck
    drawn, so a table that goes back could record battles and choose spoils (CMP-4)
    again knowing them. Going back past a battle, a spoils choice or a roll needs
    none: a player's own hand behind the curtain is not news to anyone, and a redone
    roll or stake is the same roll or stake (one seeded generator).
    """
    if not isinstance(game, Game) or game.kind != KIND:
        raise CampaignError("undo_warning takes a campaign game")
    if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position <= game.position:
        raise CampaignError(f"Going back means a point from 0 to {game.position} (got {brief_repr(position)})")
    crossed = [a for a in game.actions[position:game.position] if isinstance(a, Mapping)]
    if not any(a.get("type") == "negotiate" for a in crossed):
        return None
    players = game.setup.get("players") or ["Player 1", "Player 2"]
    seen = ("every hand was laid down, the dummy's too, and the top of the deck was drawn"
            if game.setup.get("dummy") else "both hands were laid down and the top of the deck was drawn")
    who = players[0] if game.setup.get("dummy") else f"{players[0]} and {players[1]}"
    return (f"At the negotiating table {seen}: everyone has seen them. Going back lets {who} record battles "
            "and choose spoils again knowing those cards (CMP-7). Go back anyway?")


def standing(state: CampaignState) -> str:
    """Where the campaign stands, in a few words, for the list of saves:
    ``"Battle 5 · Anna 7 cards, Ben 5"``; at the end, who won."""
    state = _state(state)
    counts = f"{state.name(0)} {_plural(state.card_count(0), 'card')}, {state.name(1)} {state.card_count(1)}"
    if state.phase == "over":
        if state.treaty is None:
            return (f"Over · {state.name(state.winner)} won: {state.name(1 - state.winner)} lost the last card "
                    f"in battle {state.battle}")
        if state.winner is None:
            return f"Over · the treaty is a draw after {_plural(state.fought, 'battle')}"
        return f"Over · {state.name(state.winner)} won at the negotiating table after {_plural(state.fought, 'battle')}"
    if state.phase == "exhaustion":
        return f"Battle {state.fought} fought · exhaustion roll · {counts}"
    if state.phase == "exhausted":
        return f"Exhausted after battle {state.fought} · {counts}"
    if state.phase == "deal":
        return "Dealing · the pool to enter"
    return f"Battle {state.battle} · {counts}"


#: What a card may be entered as with the players' own deck (:func:`entry_problem`).
ENTRIES = ("pool", "stake", "refill", "hand", "drawn")


def entry_problem(state: CampaignState, what: str, card: Card | str, player: int = 0,
                  chosen: Iterable[Card | str] = ()) -> str | None:
    """With the players' own deck (issue 18): why ``card`` cannot be entered now as
    ``what`` — "pool" (dealt), "stake" (``player``'s), "refill" (the new pool card),
    "hand" or "drawn" (``player``'s at the negotiating table) — or ``None`` when it
    can. ``chosen`` are the cards already picked in the same entry (each card once).

    The same checks :func:`normalize_action` makes (one check, used by the table to
    grey out and explain before anything is recorded); the message cites the clause.
    """
    state = _state(state)
    if not isinstance(what, str) or what not in ENTRIES:
        raise CampaignError(f"An entry is one of {', '.join(ENTRIES)} (got {brief_repr(what)})")
    card = _card_list([card], "the card")[0]
    player = _player(player)
    picked = _card_list(chosen, "the cards chosen")
    if card in picked:
        return f"the {card.label} is entered already: tap it again to take it back"
    try:
        if what == "pool":
            return None
        if what == "stake":
            _check_stake(state, player, card, picked[0] if picked else None)
        elif what == "refill":
            _check_new(state, card, "CMP-4", "the new pool card")
        elif what == "hand":
            if card not in state.known[player]:
                where = _where(state, card)
                if where is not None:
                    raise RuleError("CMP-7", f"the {card.label} cannot be in {state.name(player)}'s hand: it is "
                                             f"{where}")
        else:
            where = _where(state, card)
            if where is not None:
                raise RuleError("CMP-7", f"the {card.label} cannot be drawn from the deck: it is {where}")
    except RuleError as err:
        return str(err)
    return None


def table_draws(state: CampaignState, player: int) -> int:
    """CMP-7/CMP-9: how many cards ``player`` draws at the negotiating table now: up to
    five, and the dummy one more."""
    state = _state(state)
    player = _player(player)
    return _table_draws(state, player, state.counts[player])


def deck_left(state: CampaignState) -> int:
    """How many cards are in the draw pile: 52 less every card held, staked, in the pool
    or laid down (the same with the app's deck or the players' own)."""
    state = _state(state)
    if state.hands_known:
        return len(state.deck)
    held = sum(state.card_count(p) for p in (0, 1)) if state.treaty is None else sum(
        len(c) for c in state.treaty.cards)
    return 52 - held - len(state.pool)
