"""Campaign's values (RULES.md section 2): the constants of CMP-1 … CMP-12, the settings
and house rules, the errors, and the immutable state (:class:`CampaignState` with its
:class:`LogEntry`, :class:`Roll` and :class:`Treaty`), with the argument checks every
public function of the package shares.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..cards import Card, CardError, clean_cards
from ..game import ActionError, ArgumentError
from ..rules import Variant
from ..text import brief_repr
from .poker import Hand

KIND = "campaign"

#: What a spectator link (:func:`public_game`) shows, in the Share drawer's words.
SPECTATOR_VIEW = "the pool, the stakes, card counts, battles and the log. No hidden hand, no deck order, no seed."

#: The deck setting (issue 18): the app's deck and dice, or the players' own.
DECKS: Mapping[str, str] = MappingProxyType({
    "app": "The app's deck and dice: the app deals, keeps the hands behind the curtain and rolls.",
    "table": "Our own deck and dice: the hands stay in the players' hands; the app records the pool, each "
             "stake, the spoils, the new pool cards and the dice as they are revealed, keeps the counts and "
             "judges the hands laid down at the negotiating table.",
})

#: RULES.md has no campaign variants.
VARIANTS: tuple[Variant, ...] = ()

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

#: The errors are the kernel's (issue 31): :class:`engine.game.SetupError` for a setup that
#: cannot be played, and :class:`engine.game.ArgumentError` for an argument a campaign
#: function cannot take (not a campaign state, no such player …), by its old name here.
CampaignError = ArgumentError


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
    seen: frozenset[Card] = frozenset()
    public: bool = False
    script: Mapping[str, Any] | None = None
    history: Mapping[str, Any] | None = None
    known: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    legacy: frozenset[str] = frozenset()
    deck_mode: str = "app"
    laid: tuple[tuple[tuple[Card, ...], tuple[Card, ...]], ...] = ()  # (hand, drawn) per player, in order
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
        player = player_arg(player)
        stake = self.stakes[player]
        return self.hands[player] + ((stake,) if stake is not None else ())

    def card_count(self, player: int) -> int:
        """How many cards a player owns (hand and stake)."""
        player = player_arg(player)
        return self.counts[player] + (self.stakes[player] is not None)

    def name(self, player: int) -> str:
        return self.players[player_arg(player)]

    def staked(self) -> tuple[Card, Card]:
        """CMP-3: both players' stakes, out on the table from the stakes until the spoils."""
        first, second = self.stakes
        if first is None or second is None:
            raise ActionError("The stakes are not both out yet (CMP-3)")
        return first, second


# ---------------------------------------------------------------------------
# Argument checks (every public function refuses bad input with a ValueError)


def player_arg(player: Any) -> int:
    """``player`` as 0 or 1, or the :class:`CampaignError` that refuses it."""
    if isinstance(player, int) and not isinstance(player, bool) and player in (0, 1):
        return int(player)
    raise CampaignError(f"Players are 0 and 1 (got {brief_repr(player)})")


def state_arg(state: Any) -> CampaignState:
    """``state`` if it is a :class:`CampaignState`, or the :class:`CampaignError` that refuses it."""
    if not isinstance(state, CampaignState):
        raise CampaignError(f"Not a campaign state: {type(state).__name__} (replay a campaign game to get one)")
    return state


def whole_arg(value: Any, what: str, low: int = 0, high: int | None = None) -> int:
    """``value`` as a whole number from ``low`` to ``high``, or the :class:`CampaignError` that says so."""
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
        limit = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise CampaignError(f"{what} must be a whole number {limit} (got {brief_repr(value)})")
    return int(value)


def cards_arg(cards: Any, what: str) -> tuple[Card, ...]:
    """Cards from a caller (Card values or tokens; each card once: one deck)."""
    if cards is None:
        raise CampaignError(f"{what[:1].upper() + what[1:]}: give a list of cards (got None)")
    try:
        return clean_cards(cards, what=what)
    except CardError as err:
        raise CampaignError(f"{what[:1].upper() + what[1:]}: {err}") from None


def hand_order(cards: Iterable[Card]) -> tuple[Card, ...]:
    """A hand's order on the table: highest rank first (aces high), then ♠ ♥ ♦ ♣."""
    return tuple(sorted(cards, key=lambda c: (-int(c.rank), c.sort_key[0])))
