"""CONSIM's values (RULES.md section 3): the kind, the enums of CS-1, CS-8, CS-10 and
CS-11, the advantages (CS-2), the variants and house rules (CS-3 pulp, HR-CS-6 whose
cards, HR-CS-7 whose dice; HR-CS-1 … HR-CS-7), the rulings, and the immutable tracker
(:class:`ConsimState` and its parts, :class:`ShotOdds`, :class:`Forecast`,
:class:`DieCall`), with the argument checks every public helper of the package shares
(issue 20: a ``ValueError`` that says why, never a ``TypeError``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from types import MappingProxyType
from typing import Any, TypeVar

from ..cards import Card, CardError, Suit, parse_card
from ..game import ArgumentError
from ..rules import Variant
from ..text import shown

KIND = "initiative"

#: What a spectator link (:func:`public_game`) shows, in the Share drawer's words.
SPECTATOR_VIEW = ("the roster, statuses, the acting order, the dice and the log. No seed; of the "
                  "combatants the Observer hides, only that they are there and when they act.")


# ---------------------------------------------------------------------------
# Values


class Training(Enum):
    """CS-1/CS-8: training level and its bonus to hit."""

    UNTRAINED = "untrained"
    TRAINED = "trained"
    ELITE = "elite"

    @property
    def bonus(self) -> int:
        """CS-8: untrained +0, trained +1, elite +2 to hit."""
        return {"untrained": 0, "trained": 1, "elite": 2}[self.value]

    @property
    def label(self) -> str:
        return self.value.capitalize()


class Trait(Enum):
    """CS-11: weapon traits (they stack)."""

    AUTOMATIC = "automatic"
    SEMI_AUTOMATIC = "semi-automatic"
    EXPLOSIVE = "explosive"
    GROUND_VEHICLE = "ground-vehicle"
    AIR_VEHICLE = "air-vehicle"

    @property
    def label(self) -> str:
        return {"automatic": "Automatic", "semi-automatic": "Semi-automatic", "explosive": "Explosive",
                "ground-vehicle": "Ground-vehicle weapon", "air-vehicle": "Air-vehicle weapon"}[self.value]


class Grain(Enum):
    """CS-1: what one roster line stands for (the table chooses the grain)."""

    INDIVIDUAL = "individual"
    SQUAD = "squad"
    VEHICLE = "vehicle"


class Cover(Enum):
    """CS-8: the target's cover and the d10 an aimed shot needs before modifiers."""

    NONE = "none"
    COVER = "cover"
    GOOD = "good"

    @property
    def needed(self) -> int:
        """CS-8: 6+ out of cover, 7+ in cover, 8+ in good cover."""
        return {"none": 6, "cover": 7, "good": 8}[self.value]

    @property
    def label(self) -> str:
        return {"none": "out of cover", "cover": "in cover", "good": "in good cover"}[self.value]


class WoundStatus(Enum):
    """CS-10: the wound table's four results (member names are the table's words)."""

    STUN = "stun"
    INJURE = "injure"
    DYING = "dying"
    DEAD = "dead"


class Condition(Enum):
    """CS-10/CS-13: a combatant's condition, mildest first (``severity`` orders them)."""

    OK = "ok"
    STUNNED = "stunned"
    INJURED = "injured"
    DYING = "dying"
    DEAD = "dead"

    @property
    def severity(self) -> int:
        return list(Condition).index(self)

    @property
    def label(self) -> str:
        return "fit" if self is Condition.OK else self.value.upper()


#: CS-2: the advantages that each give one more card (key → label).
ADVANTAGES: Mapping[str, str] = MappingProxyType({
    "firepower": "Superior firepower",
    "position": "Prepared position",
    "visibility": "Superior visibility",
    "training": "Superior training",
    "morale": "Superior morale",
})

#: HR-CS-6 / HR-CS-7: whose cards and whose dice (issue 18).
DECK_APP, DECK_TABLE = "app", "table"
DICE_APP, DICE_TABLE = "app", "table"

VARIANTS: tuple[Variant, ...] = (
    Variant(
        key="pulp",
        rule_id="CS-3",
        label="Pulp",
        choices=((False, "Suppression and injury can take a player character's last card"),
                 (True, "Player characters never drop below 1 card through suppression or injury")),
        default=False,
        explanation="The source's option “for a pulpier game”. It holds against suppression and an "
                    "injury only: a surprised, STUNNED, DYING or DEAD combatant still gets no cards (CS-3).",
    ),
    Variant(
        key="deck",
        rule_id="HR-CS-6",
        label="Whose cards",
        choices=((DECK_APP, "the app's deck: the app shuffles and deals"),
                 (DECK_TABLE, "our own deck: the GM deals real cards and enters them")),
        default=DECK_APP,
        explanation="With your own deck the GM deals a real deck at the table and enters each combatant's "
                    "cards; the app checks them (CS-6: each card once, each combatant exactly what it is "
                    "owed while the deck lasts), strikes suppression's losses as usual (CS-3) and records "
                    "every card in the game.",
    ),
    Variant(
        key="dice",
        rule_id="HR-CS-7",
        label="Whose dice",
        choices=((DICE_APP, "the app's dice: the app rolls"),
                 (DICE_TABLE, "our own dice: the players roll real dice and enter them")),
        default=DICE_APP,
        explanation="With your own dice the app still shows a shot's exact odds first; then the d10, the "
                    "d6 and any countdown dice (2d6 for INJURED, 1d6 for DYING, CS-13) are entered as "
                    "they are rolled, checked and recorded in the game like the app's own rolls.",
    ),
)

VARIANT_BY_KEY: Mapping[str, Variant] = MappingProxyType({v.key: v for v in VARIANTS})

#: House rules of this app where RULES.md is silent (id → text). Shown with a marker.
#: HR-CS-3 is now part of CS-13 and CS-5, the pulp floor of HR-CS-4 part of CS-3
#: (RULES.md section 5); their ids stay so that older games still read.
HOUSE_RULES: Mapping[str, str] = MappingProxyType({
    "HR-CS-1": "STUNNED lasts until the end of the next round (the round it gets no cards). "
               "A STUN while still stunned is the “second STUN”: the target becomes INJURED.",
    "HR-CS-2": "A wound milder than the current condition adds its suppression (and a STUN's lost "
               "round) but does not change the condition; only the “second” rules make it worse.",
    "HR-CS-3": "DYING and DEAD combatants get no cards and do not act; their turns are skipped "
               "(now part of the rulings CS-5 and CS-13).",
    "HR-CS-4": "The pulp floor of 1 card protects player characters against suppression and an "
               "injury, not against STUN, DYING or surprise (now part of the ruling CS-3).",
    "HR-CS-5": "Vehicle multipliers apply to the suppression the fire causes (the shot, unseen, a "
               "suppressive miss), not to the +3/+5 suppression of a wound.",
    "HR-CS-6": "Whose cards is a game setting: with the app's deck the app deals; with your own deck the GM "
               "deals real cards and enters each combatant's, which the app checks (CS-6) and records.",
    "HR-CS-7": "Whose dice is a game setting: with the app's dice the app rolls; with your own dice the "
               "shot's d10 and d6 and the countdown dice are rolled at the table and entered, checked and "
               "recorded.",
    "HR-CS-8": "What the players' view hides is the Observer's choice, combatant by combatant: by default "
               "the non-player combatants of the sides without a player character (the players' own allies "
               "stay in sight). The hidden ones of a side show as one line, “The Observer's hidden "
               "combatants”, that says neither how many there are nor how many cards they hold, unless "
               "the Observer chooses “Say how many are hidden”.",
})

#: RULES.md clauses that are rulings (the app's reading where the source is silent).
RULINGS: tuple[str, ...] = ("CS-3", "CS-5", "CS-6", "CS-13")

#: What a game saved before the CS-3 and CS-5 rulings keeps (``"legacy": true``, see :func:`upgrade`).
LEGACY_RULES = ("This game was saved before the rulings of CS-3 and CS-5, so it replays and goes on as it was "
                "played: an INJURED combatant is dealt one card fewer (not dealt and struck), and the "
                "current actor may shoot more than once on a card, the turn moving on only with Next.")

#: CS-5: the suits' order among cards of one rank (spades first).
SUIT_RANK = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.DIAMONDS: 2, Suit.CLUBS: 3}
#: A roster's limits (CS-1): combatants, sides, and the length of a name.
MAX_COMBATANTS = 120
MAX_SIDES = 8
NAME_MAX = 40
#: CS-6: one deck.
DECK = 52


def placeholder(number: int) -> str:
    """What a spectator's copy and the players' view call the ``number``-th hidden combatant."""
    number = whole_arg(number, "A hidden combatant's number", 1, 10_000)  # issue 30: no 5,000-digit name
    return f"The Observer's combatant {number}"


#: HR-CS-8: the one line of a side's hidden combatants when the copy does not count them.
HIDDEN_GROUP = "The Observer's hidden combatants"


# ---------------------------------------------------------------------------
# Arguments of the public helpers (issue 20: a ValueError that says why, never a TypeError)


def whole_arg(value: Any, what: str, low: int | None = 0, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ArgumentError(f"{what} must be a whole number (got {shown(value)})")
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise ArgumentError(f"{what} must be a whole number {span} (got {shown(value)})")
    return value


def flag_arg(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise ArgumentError(f"{what} must be true or false (got {shown(value)})")
    return value


_E = TypeVar("_E", bound=Enum)


def enum_arg(enum: type[_E], value: Any, what: str) -> _E:
    if isinstance(value, enum):
        return value
    if isinstance(value, str):
        for member in enum:
            if member.value == value:
                return member
    allowed = ", ".join(m.value for m in enum)
    raise ArgumentError(f"{what} must be one of {allowed} (got {shown(value)})")


def shooter_arg(value: Any) -> Combatant:
    if not isinstance(value, Combatant):
        raise ArgumentError(f"The shooter must be a Combatant (got {shown(value)})")
    return value


def mode_arg(mode: Any) -> str:
    if mode not in ("aimed", "suppressive") or not isinstance(mode, str):
        raise ArgumentError(f"CS-8: fire is aimed or suppressive (got {shown(mode)})")
    return mode


def semi_arg(semi: Any) -> str | None:
    if semi is not None and (not isinstance(semi, str) or semi not in ("hit", "damage")):
        raise ArgumentError(f"CS-11: the semi-automatic choice is hit or damage (got {shown(semi)})")
    return semi


def state_arg(state: Any) -> ConsimState:
    if not isinstance(state, ConsimState):
        raise ArgumentError(f"Not a CONSIM state: {shown(state)} (replay a game of kind {KIND!r})")
    return state


def index_arg(state: ConsimState, index: Any, what: str = "the combatant") -> int:
    return whole_arg(index, f"{what[:1].upper()}{what[1:]}", 0, len(state.combatants) - 1)


def one_card(card: Any) -> Card:
    try:
        return parse_card(card)
    except CardError as err:
        raise ArgumentError(str(err)) from None


@dataclass(frozen=True)
class Combatant:
    """CS-1: one roster line: an individual, squad or vehicle of a side.

    ``grain``, ``training`` and ``weapon`` take the enums or their values
    (``"elite"``, ``["automatic"]``); anything else is refused (:class:`ArgumentError`).
    """

    name: str
    side: int
    grain: Grain = Grain.INDIVIDUAL
    training: Training = Training.UNTRAINED
    weapon: frozenset[Trait] = frozenset()
    player: bool = False
    #: HR-CS-8: hidden from the players while the Observer's privacy is on (a non-player only).
    hidden: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ArgumentError(f"A combatant needs a name (got {shown(self.name)})")
        whole_arg(self.side, "A combatant's side", 0, MAX_SIDES - 1)
        object.__setattr__(self, "grain", enum_arg(Grain, self.grain, "A combatant's kind"))
        object.__setattr__(self, "training", enum_arg(Training, self.training, "A combatant's training"))
        weapon = self.weapon
        if isinstance(weapon, (str, Enum)) or not isinstance(weapon, Iterable):
            raise ArgumentError(f"A combatant's weapon traits must be a list of traits (got {shown(weapon)})")
        object.__setattr__(self, "weapon", frozenset(enum_arg(Trait, t, "A weapon trait") for t in weapon))
        flag_arg(self.player, "Player character")
        flag_arg(self.hidden, "Hidden from the players")

    def has(self, trait: Trait) -> bool:
        return trait in self.weapon


@dataclass(frozen=True)
class Status:
    """A combatant's condition now.

    * ``suppression`` ticks (CS-3, CS-7, CS-12); ``fired_on`` this round (CS-12);
    * ``condition`` (CS-10); ``stunned_until`` the round a STUN wears off (HR-CS-1);
      ``no_cards_next`` — a STUN this round takes the next round's cards (CS-10);
    * ``countdown`` — rounds left before INJURED turns DYING or DYING turns DEAD
      (CS-13), ``None`` when none runs; ``treated`` (INJURED) / ``first_aid`` (DYING).
    """

    suppression: int = 0
    condition: Condition = Condition.OK
    stunned_until: int | None = None
    no_cards_next: bool = False
    countdown: int | None = None
    treated: bool = False
    first_aid: bool = False
    fired_on: bool = False

    def __post_init__(self) -> None:
        if (type(self.suppression) is int and self.suppression >= 0 and type(self.condition) is Condition
                and (self.stunned_until is None or type(self.stunned_until) is int)
                and (self.countdown is None or type(self.countdown) is int)
                and type(self.no_cards_next) is bool and type(self.treated) is bool
                and type(self.first_aid) is bool and type(self.fired_on) is bool):
            return  # the common case, checked fast: statuses are replaced on every shot
        whole_arg(self.suppression, "Suppression")
        object.__setattr__(self, "condition", enum_arg(Condition, self.condition, "The condition"))
        for name in ("stunned_until", "countdown"):
            if getattr(self, name) is not None:
                whole_arg(getattr(self, name), name.replace("_", " ").capitalize())
        for name in ("no_cards_next", "treated", "first_aid", "fired_on"):
            flag_arg(getattr(self, name), name.replace("_", " ").capitalize())


@dataclass(frozen=True)
class Turn:
    """CS-5: one place in the acting order: a card of a combatant.

    ``spent`` are the other cards of a long action that acts at this (the lowest) card.
    """

    card: Card
    combatant: int
    spent: tuple[Card, ...] = ()
    done: bool = False


@dataclass(frozen=True)
class DealtHand:
    """CS-2/3/4/6: what one combatant got this round and why.

    ``due`` cards were owed; ``dealt`` came off the deck (fewer when it ran out,
    CS-6); ``lost`` are the highest ones suppression and an injury struck (CS-3);
    ``kept`` act.
    """

    due: int
    dealt: tuple[Card, ...]
    lost: tuple[Card, ...]
    kept: tuple[Card, ...]
    reasons: tuple[str, ...]

    @property
    def short(self) -> int:
        return self.due - len(self.dealt)


@dataclass(frozen=True)
class ShotTarget:
    """The outcome of fire at one target (CS-7 … CS-10).

    In a spectator's copy, fire from an unseen shooter carries no dice (``d10`` is
    ``None``): only what the table saw (hit or miss, the wound, the suppression).
    """

    target: int
    d10: int | None
    modifier: int
    needed: int | None  # the aimed shot's number; None for suppressive fire (needs a natural 10)
    hit: bool
    d6: int | None
    damage_modifier: int
    wound: WoundStatus | None
    suppression: int
    before: Condition
    after: Condition
    countdown: int | None
    text: str
    fire: int = 0  # the suppression of the fire itself (CS-7, CS-9), without the wound's


@dataclass(frozen=True)
class Shot:
    """One shot (CS-5: the shooter's action on its card). ``shooter`` is ``None`` for an
    unseen shooter (one of the Observer's hidden combatants, in a spectator's copy);
    ``hidden`` are targets whose result the copy does not show."""

    shooter: int | None
    mode: str
    cover: Cover
    unseen: bool
    semi: str | None
    targets: tuple[ShotTarget, ...]
    hidden: tuple[int, ...] = ()


@dataclass(frozen=True)
class LogEntry:
    """One line of the round log. ``text`` cites rule ids; ``who`` the combatants whose cards or
    status it tells (a shot's targets, not its shooter)."""

    round: int
    text: str
    who: tuple[int, ...] = ()


@dataclass(frozen=True)
class ConsimState:
    """The whole tracker at one moment. Immutable: :func:`step` returns a new one.

    ``phase`` is ``"ready"`` (before the first deal and between rounds) or
    ``"round"``; ``round`` counts the deals; ``hands`` is this round's
    :class:`DealtHand` per combatant; ``turns`` the acting order (CS-5);
    ``nothing`` the combatants the deck could not reach (CS-6).

    A spectator's copy (``facts``) knows of the ``hidden`` combatants only that they
    are there: ``unseen_cards`` is how many cards they hold in this round's order,
    ``unseen_acting`` whether one of them acts now. ``legacy``: the game keeps the
    rules from before the CS-3 and CS-5 rulings (:data:`LEGACY_RULES`).
    """

    sides: tuple[str, ...]
    combatants: tuple[Combatant, ...]
    statuses: tuple[Status, ...]
    rules: tuple[tuple[str, Any], ...]
    round: int = 0
    phase: str = "ready"
    hands: tuple[DealtHand | None, ...] = ()
    turns: tuple[Turn, ...] = ()
    nothing: tuple[int, ...] = ()
    surprised: tuple[int, ...] = ()
    log: tuple[LogEntry, ...] = ()
    last_shot: Shot | None = None
    privacy: bool = True
    facts: bool = False
    hidden: frozenset[int] = frozenset()
    legacy: bool = False
    unseen_acting: bool = False
    unseen_cards: int = 0
    #: HR-CS-8: the players' view says how many are hidden (every game saved before it did).
    count_hidden: bool = True
    advantages: tuple[tuple[str, ...], ...] = field(default=())

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self.rules)

    @property
    def spectator(self) -> bool:
        """A spectator's copy: what the table could see, read-only (:func:`public_game`)."""
        return self.facts


@dataclass(frozen=True)
class ShotOdds:
    """Exact odds of one shot at one target: ``hit``; ``wounds`` given a hit; ``outcomes``
    overall (``None`` is a miss)."""

    hit: Fraction
    wounds: Mapping[WoundStatus, Fraction]
    outcomes: Mapping[WoundStatus | None, Fraction]
    hit_modifier: int
    damage_modifier: int
    needed: int | None


@dataclass(frozen=True)
class Forecast:
    """CS-3/CS-4/CS-10/CS-13: what the next deal will give one combatant, as things stand.

    ``deal`` cards are owed (0: none, and ``why`` says why); the deal then strikes
    ``by_injury`` (INJURED) and ``by_suppression`` (every 2 suppression) of the highest,
    ``keeps`` act. The deck is assumed to last (CS-6).
    """

    deal: int
    by_suppression: int
    by_injury: int
    keeps: int
    why: str | None
    suppression: int

    def strikes_text(self) -> str | None:
        """What the next deal strikes, in the chip's words (issue 22): "next deal strikes 3 for
        suppression and 1 for INJURED: keeps 1 of 5"; both causes named even when the cards
        run out before the suppression's strike (issue 34: "1 for INJURED; suppression 2
        would strike 1 more: no cards"). ``None`` when it strikes nothing."""
        parts = [f"{self.by_suppression} for suppression" if self.by_suppression else "",
                 "1 for INJURED" if self.by_injury else ""]
        parts = [p for p in parts if p]
        if not parts:
            return None
        extra = self.suppression // 2  # suppression that found no card left to strike
        more = f"; suppression {self.suppression} would strike {extra} more" if extra and not self.by_suppression else ""
        tail = "no cards" if self.keeps == 0 else f"keeps {self.keeps} of {self.deal}"
        return f"next deal strikes {' and '.join(parts)}{more}: {tail}"


@dataclass(frozen=True)
class DieCall:
    """A roll a shot still needs when the table rolls its own dice (HR-CS-7): ``count``
    dice of ``sides``, summed, for the ``key`` roll (``"d10"`` to hit, CS-8; ``"d6"`` for
    damage, CS-10; ``"countdown"``, CS-13) at the ``position``-th target (combatant
    ``target``)."""

    position: int
    target: int
    key: str
    count: int
    sides: int

    @property
    def dice(self) -> str:
        """How the roll reads at the table: ``d10``, ``d6``, ``2d6``."""
        return f"{self.count if self.count > 1 else ''}d{self.sides}"

    @property
    def low(self) -> int:
        return self.count

    @property
    def high(self) -> int:
        return self.count * self.sides
