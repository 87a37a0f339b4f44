"""CONSIM: card initiative, suppression, shooting and wounds (RULES.md section 3, CS-1 … CS-13).

The Observer (game master) keeps a roster of combatants — individuals, squads or
vehicles (CS-1) — on two or more sides. Every round each combatant is dealt cards
from one shuffled deck (CS-2, CS-6); suppression and an injury strike the highest
cards at the deal (CS-3), a surprised side gets none (CS-4). Everyone then acts in
card order, aces high, spades > hearts > diamonds > clubs (CS-5): only the current
actor acts, once per card, and a shot ends its turn. Shooting is an aimed shot or
suppressive fire (CS-8, CS-9): the target takes suppression (CS-7), a hit rolls a
wound (CS-10) whose countdowns the app keeps (CS-13); a combatant that was not
fired on for a round sheds its suppression (CS-12).

The module has four layers:

* pure rule functions on values — :func:`initiative_order`, :func:`wound_status`,
  :func:`cards_due`, :func:`to_hit_target`, :func:`hit_modifier`,
  :func:`damage_modifier`, :func:`suppression_caused`, :func:`hit_chance`,
  :func:`wound_distribution`, :func:`shot_odds`, :func:`apply_wound` — each
  docstring starts with its RULES.md id; odds are exact :class:`~fractions.Fraction` s;
  every one refuses a bad argument with a ``ValueError`` subclass (:class:`ArgumentError`);
* the session protocol of :mod:`engine.game` (``KIND``, ``VARIANTS``,
  :func:`normalize_setup`, :func:`start`, :func:`normalize_action` — the referee —,
  :func:`step`, :func:`describe`, :func:`public_game`, :func:`upgrade`,
  :func:`standing`) over an immutable :class:`ConsimState`;
* helpers for the tracker (:func:`status`, :func:`current_turn`, :func:`is_hidden`,
  :func:`check_shot`, :func:`forecast` …);
* the spectator's copy (:func:`public_game`): what the table can see, nothing else.

Setup (plain JSON)::

    {"sides": ["Blue", "Red"],
     "combatants": [{"name": "Rifleman 1", "side": 0, "grain": "individual",
                     "training": "trained", "weapon": ["semi-automatic"], "player": false}],
     "privacy": true}     # the Observer hides non-player combatants from the players

A spectator's copy adds ``"spectator": true`` and ``"hidden"`` (the combatants the
Observer hid: in the copy they are placeholders, "The Observer's combatant 3"). A
game saved before the CS-3 and CS-5 rulings carries ``"legacy": true`` (see
:func:`upgrade`): it replays, and goes on, under the earlier reading.

Actions (plain JSON objects; :func:`normalize_action` gives the canonical form):

* ``{"type": "deal", "advantages": {"0": ["firepower", "position"]}, "surprised": [1]}``
  — a new round (CS-2, CS-3, CS-4, CS-6); optional ``"cards": {"0": ["AS", "9H"]}``
  gives the dealt cards as recorded facts (real cards dealt at the table, HR-CS-6): every
  combatant exactly what it is owed while the deck lasts, each card once;
* ``{"type": "next"}`` — the current actor has acted (CS-5);
* ``{"type": "long", "combatant": 3, "cards": ["KS", "5H"]}`` — the current actor
  declares a long action on its turn: it spends that turn's card and more of its own
  and acts at the lowest (CS-5);
* ``{"type": "shoot", "shooter": 0, "targets": [4, 5], "mode": "aimed" | "suppressive",
  "cover": "none" | "cover" | "good", "unseen": false, "semi": "hit" | "damage"}``
  — the current actor's action on this card (CS-5, CS-7 … CS-11); optional
  ``"dice": [{"d10": 7, "d6": 3, "countdown": 8}, …]`` gives the rolls (one object per
  target, exactly the rolls the shot needs) when the table rolls its own dice (HR-CS-7);
* ``{"type": "end_round"}`` — suppression reset (CS-12), countdowns (CS-13), stun
  ends; optional ``"dice": {"4": 3}`` gives the DYING countdown of each untreated
  INJURED whose time runs out (exactly those), with the table's own dice.
  With the app's deck or dice a deal, shot or end of round that says what was dealt or
  rolled is refused (issue 35): the seed deals and rolls; only a spectator's copy records
  the app's cards and dice;
* ``{"type": "treat", "combatant": 4}`` — an INJURED combatant is treated (CS-10, CS-13);
* ``{"type": "first_aid", "combatant": 4}`` — a DYING combatant gets first aid;
* ``{"type": "privacy", "hide": true}`` — hide / show non-player combatants.

In a spectator's copy the facts replace the generator: deals carry ``"cards"`` for
the combatants it shows and ``"hidden_cards"`` (how many cards the hidden ones hold
in the order); ``"hidden_next": true`` on a deal, next, shot or long action says that
one of the Observer's hidden combatants acts next; a shot by a hidden combatant has
no ``"shooter"`` (an unseen shooter) and gives ``"results"`` instead of dice; a
hidden target's dice are ``null``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from types import MappingProxyType
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import referee
from .cards import Card, CardError, Suit, clean_cards, parse_card, shuffled_deck
from .game import ActionError, Game, RuleError
from .rules import Variant, resolve_rules
from .text import key_text, setup_text, shown

__all__ = [
    "KIND", "VARIANTS", "HOUSE_RULES", "RULINGS", "ADVANTAGES", "SetupError", "ArgumentError",
    "Training", "Trait", "Grain", "Cover", "Condition", "WoundStatus",
    "Combatant", "Status", "Turn", "DealtHand", "ShotTarget", "Shot", "LogEntry", "ShotOdds", "Forecast",
    "ConsimState", "initiative_order", "initiative_key", "wound_status", "cards_due",
    "to_hit_target", "hit_modifier", "damage_modifier", "suppression_multiplier",
    "suppression_caused", "hit_chance", "wound_distribution", "shot_odds", "apply_wound",
    "normalize_setup", "start", "normalize_action", "step", "describe", "public_game", "public_state", "upgrade",
    "standing", "status", "current_turn", "acting", "is_hidden", "check_shot", "can_act", "forecast",
    "turn_counts", "placeholder", "DECK_APP", "DECK_TABLE", "DICE_APP", "DICE_TABLE", "DieCall",
    "cards_owed", "next_roll", "countdowns_due", "equipment",
]

KIND = "initiative"

#: What a spectator link (:func:`public_game`) shows, in the Share drawer's words.
SPECTATOR_VIEW = ("the roster, statuses, the acting order, the dice and the log. No seed; of the "
                  "combatants the Observer hides, only that they are there and when they act.")


class SetupError(ValueError):
    """A roster that cannot be used (the message names the field)."""


class ArgumentError(ValueError):
    """A helper of this module was given something it cannot use (the message says what)."""


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
})

#: RULES.md clauses that are rulings (the app's reading where the source is silent).
RULINGS: tuple[str, ...] = ("CS-3", "CS-5", "CS-6", "CS-13")

#: What a game saved before the CS-3 and CS-5 rulings keeps (``"legacy": true``, see :func:`upgrade`).
LEGACY_RULES = ("This game was saved before the rulings of CS-3 and CS-5, so it replays and goes on as it was "
                "played: an INJURED combatant is dealt one card fewer (not dealt and struck), and the "
                "current actor may shoot more than once on a card, the turn moving on only with Next.")

_SUIT_RANK = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.DIAMONDS: 2, Suit.CLUBS: 3}
_MAX_COMBATANTS = 120
_MAX_SIDES = 8
_NAME_MAX = 40
_DECK = 52


#: ``value`` for a message: short, and no hundred-digit numbers (engine.text.shown).
_quote = _shown = shown


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def placeholder(number: int) -> str:
    """What a spectator's copy and the players' view call the ``number``-th hidden combatant."""
    number = _whole_arg(number, "A hidden combatant's number", 1, 10_000)  # issue 30: no 5,000-digit name
    return f"The Observer's combatant {number}"


# ---------------------------------------------------------------------------
# Arguments of the public helpers (issue 20: a ValueError that says why, never a TypeError)


def _whole_arg(value: Any, what: str, low: int | None = 0, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ArgumentError(f"{what} must be a whole number (got {_shown(value)})")
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise ArgumentError(f"{what} must be a whole number {span} (got {_shown(value)})")
    return value


def _flag_arg(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise ArgumentError(f"{what} must be true or false (got {_shown(value)})")
    return value


def _enum_arg(enum: type[Enum], value: Any, what: str) -> Any:
    if isinstance(value, enum):
        return value
    if isinstance(value, str):
        for member in enum:
            if member.value == value:
                return member
    allowed = ", ".join(m.value for m in enum)
    raise ArgumentError(f"{what} must be one of {allowed} (got {_shown(value)})")


def _shooter_arg(value: Any) -> Combatant:
    if not isinstance(value, Combatant):
        raise ArgumentError(f"The shooter must be a Combatant (got {_shown(value)})")
    return value


def _mode_arg(mode: Any) -> str:
    if mode not in ("aimed", "suppressive") or not isinstance(mode, str):
        raise ArgumentError(f"CS-8: fire is aimed or suppressive (got {_shown(mode)})")
    return mode


def _semi_arg(semi: Any) -> str | None:
    if semi is not None and (not isinstance(semi, str) or semi not in ("hit", "damage")):
        raise ArgumentError(f"CS-11: the semi-automatic choice is hit or damage (got {_shown(semi)})")
    return semi


def _state_arg(state: Any) -> ConsimState:
    if not isinstance(state, ConsimState):
        raise ArgumentError(f"Not a CONSIM state: {_shown(state)} (replay a game of kind {KIND!r})")
    return state


def _index_arg(state: ConsimState, index: Any, what: str = "the combatant") -> int:
    return _whole_arg(index, f"{what[:1].upper()}{what[1:]}", 0, len(state.combatants) - 1)


def _one_card(card: Any) -> Card:
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

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ArgumentError(f"A combatant needs a name (got {_shown(self.name)})")
        _whole_arg(self.side, "A combatant's side", 0, _MAX_SIDES - 1)
        object.__setattr__(self, "grain", _enum_arg(Grain, self.grain, "A combatant's kind"))
        object.__setattr__(self, "training", _enum_arg(Training, self.training, "A combatant's training"))
        weapon = self.weapon
        if isinstance(weapon, (str, Enum)) or not isinstance(weapon, Iterable):
            raise ArgumentError(f"A combatant's weapon traits must be a list of traits (got {_shown(weapon)})")
        object.__setattr__(self, "weapon", frozenset(_enum_arg(Trait, t, "A weapon trait") for t in weapon))
        _flag_arg(self.player, "Player character")

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
        _whole_arg(self.suppression, "Suppression")
        object.__setattr__(self, "condition", _enum_arg(Condition, self.condition, "The condition"))
        for name in ("stunned_until", "countdown"):
            if getattr(self, name) is not None:
                _whole_arg(getattr(self, name), name.replace("_", " ").capitalize())
        for name in ("no_cards_next", "treated", "first_aid", "fired_on"):
            _flag_arg(getattr(self, name), name.replace("_", " ").capitalize())


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
    advantages: tuple[tuple[str, ...], ...] = field(default=())

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self.rules)

    @property
    def spectator(self) -> bool:
        """A spectator's copy: what the table could see, read-only (:func:`public_game`)."""
        return self.facts


# ---------------------------------------------------------------------------
# Pure rule functions


def initiative_key(card: Card | str) -> tuple[int, int]:
    """CS-5: sort key, first to act first: aces high, then spades > hearts > diamonds > clubs.

    Takes a :class:`~engine.cards.Card` or a token (``"AS"``)."""
    card = _one_card(card)
    return (-int(card.rank), _SUIT_RANK[card.suit])


def initiative_order(cards: Iterable[Card | str] | str) -> list[Card]:
    """CS-5: the acting order of ``cards``: descending rank (aces high), ties by suit ♠ > ♥ > ♦ > ♣.

    ``cards`` are Cards or tokens alike (``["AS", "9H"]``, ``"AS 9H"``), each once (one deck)."""
    try:
        found = clean_cards(cards)
    except CardError as err:
        raise ArgumentError(str(err)) from None
    return sorted(found, key=initiative_key)


def _order(cards: Iterable[Card]) -> list[Card]:
    """CS-5 order of cards known to be Cards, each once (inside the engine)."""
    return sorted(cards, key=lambda c: (-int(c.rank), _SUIT_RANK[c.suit]))


_WOUNDS = ((2, WoundStatus.STUN), (4, WoundStatus.INJURE), (5, WoundStatus.DYING))


def wound_status(total: int) -> WoundStatus:
    """CS-10: the wound table for 1d6 + damage: ≤2 STUN, 3–4 INJURE, 5 DYING, 6+ DEAD."""
    total = _whole_arg(total, "CS-10: the wound roll", None)
    for top, result in _WOUNDS:
        if total <= top:
            return result
    return WoundStatus.DEAD


def cards_due(advantages: int = 0, suppression: int = 0, condition: Condition | str = Condition.OK, *,
              no_cards: bool = False, surprised: bool = False, player: bool = False,
              pulp: bool = False, legacy: bool = False) -> tuple[int, int, tuple[str, ...]]:
    """CS-2/CS-3/CS-4/CS-10/CS-13: ``(cards to deal, highest cards struck at the deal, reasons)``.

    1 card plus 1 per advantage (CS-2); none when surprised (CS-4), stunned (CS-10, a
    STUN last round), DYING or DEAD (CS-13). CS-3 ruling: the cards are dealt, then the
    suppression and wounds held at the deal strike the highest ones (every 2
    suppression one, INJURED one, CS-10); struck cards still come off the deck. Under
    the pulp variant a player character keeps at least 1 card against suppression and
    the injury (never against surprise, STUN, DYING or DEAD).

    ``legacy``: the reading before the CS-3 ruling (an INJURED combatant is dealt one
    card fewer; see :data:`LEGACY_RULES`).
    """
    advantages = _whole_arg(advantages, "CS-2: the number of advantages", 0, len(ADVANTAGES))
    suppression = _whole_arg(suppression, "CS-3: suppression", 0)
    condition = _enum_arg(Condition, condition, "The condition")
    for flag_value, name in ((no_cards, "no_cards"), (surprised, "surprised"), (player, "player"),
                             (pulp, "pulp"), (legacy, "legacy")):
        _flag_arg(flag_value, name)
    if surprised:
        return 0, 0, ("surprised: no cards (CS-4)",)
    if condition in (Condition.DYING, Condition.DEAD):
        return 0, 0, (f"{condition.label}: no cards (CS-13)",)
    if no_cards:
        return 0, 0, ("STUNNED: no cards this round (CS-10)",)
    reasons = [f"1 + {_plural(advantages, 'advantage')} (CS-2)" if advantages else "1 card (CS-2)"]
    count = 1 + advantages
    floor = 1 if (pulp and player) else 0
    if legacy:
        return _cards_due_before_rulings(count, suppression, condition, floor, reasons)
    injury = 1 if condition is Condition.INJURED else 0
    by_suppression = suppression // 2
    struck = min(injury + by_suppression, count - floor)
    if injury:
        reasons.append("INJURED: one card struck (CS-10, CS-3)")
    if by_suppression:
        reasons.append(f"suppression {suppression}: the highest {_plural(by_suppression, 'card')} struck (CS-3)")
    if floor and struck < injury + by_suppression:
        reasons.append("pulp: a player character keeps 1 card (CS-3)")
    return count, struck, tuple(reasons)


def _cards_due_before_rulings(count: int, suppression: int, condition: Condition, floor: int,
                              reasons: list[str]) -> tuple[int, int, tuple[str, ...]]:
    """The count of the app before the CS-3 ruling (kept for games saved then)."""
    if condition is Condition.INJURED:
        after = max(count - 1, floor)
        reasons.append("INJURED: one fewer (CS-10)" if after < count else "INJURED, kept 1 (pulp, CS-3)")
        count = after
    drop = min(suppression // 2, max(count - floor, 0))
    if suppression // 2:
        text = f"suppression {suppression}: loses the highest {_plural(suppression // 2, 'card')} (CS-3)"
        if drop < suppression // 2 and count and floor:
            text += f", keeps {count - drop} (pulp)"
        reasons.append(text)
    return count, drop, tuple(reasons)


def to_hit_target(cover: Cover | str) -> int:
    """CS-8: the d10 an aimed shot needs before modifiers: 6+, 7+ in cover, 8+ in good cover."""
    return _enum_arg(Cover, cover, "CS-8: the cover").needed


def _semi(shooter: Combatant, semi: str | None) -> str | None:
    if shooter.has(Trait.SEMI_AUTOMATIC):
        return semi if semi in ("hit", "damage") else "hit"
    return None


def hit_modifier(shooter: Combatant, semi: str | None = None) -> int:
    """CS-8/CS-11: training (+1 trained, +2 elite), automatic +1, semi-automatic +1 if
    the shooter picks “hit”, explosive +2."""
    shooter, semi = _shooter_arg(shooter), _semi_arg(semi)
    mod = shooter.training.bonus
    if shooter.has(Trait.AUTOMATIC):
        mod += 1
    if _semi(shooter, semi) == "hit":
        mod += 1
    if shooter.has(Trait.EXPLOSIVE):
        mod += 2
    return mod


def damage_modifier(shooter: Combatant, semi: str | None = None) -> int:
    """CS-11: automatic +1, semi-automatic +1 if the shooter picks “damage”, explosive +2,
    ground- or air-vehicle weapon +3."""
    shooter, semi = _shooter_arg(shooter), _semi_arg(semi)
    mod = 0
    if shooter.has(Trait.AUTOMATIC):
        mod += 1
    if _semi(shooter, semi) == "damage":
        mod += 1
    if shooter.has(Trait.EXPLOSIVE):
        mod += 2
    if shooter.has(Trait.GROUND_VEHICLE):
        mod += 3
    if shooter.has(Trait.AIR_VEHICLE):
        mod += 3
    return mod


def suppression_multiplier(shooter: Combatant) -> int:
    """CS-7/CS-11: ground-vehicle weapons double suppression, air-vehicle weapons triple it."""
    shooter = _shooter_arg(shooter)
    if shooter.has(Trait.AIR_VEHICLE):
        return 3
    if shooter.has(Trait.GROUND_VEHICLE):
        return 2
    return 1


def suppression_caused(shooter: Combatant, *, unseen: bool = False, suppressive_miss: bool = False) -> int:
    """CS-7/CS-9: suppression fire puts on a target: 1, +2 unseen, +1 for a suppressive
    miss, times the vehicle multiplier (HR-CS-5: wound suppression is added apart)."""
    _flag_arg(unseen, "unseen")
    _flag_arg(suppressive_miss, "suppressive_miss")
    return _base_ticks(unseen, suppressive_miss) * suppression_multiplier(shooter)


def _base_ticks(unseen: bool, suppressive_miss: bool) -> int:
    return 1 + (2 if unseen else 0) + (1 if suppressive_miss else 0)


def _aimed_hits(d10: int, modifier: int, cover: Cover) -> bool:
    return d10 + modifier >= cover.needed


def hit_chance(shooter: Combatant, mode: str = "aimed", cover: Cover | str = Cover.NONE,
               semi: str | None = None) -> Fraction:
    """CS-8/CS-9: the exact chance that one shot hits.

    Aimed: P(d10 + modifiers ≥ 6/7/8). Suppressive: a natural 10 only, 1/10.
    """
    shooter, mode = _shooter_arg(shooter), _mode_arg(mode)
    cover, semi = _enum_arg(Cover, cover, "CS-8: the cover"), _semi_arg(semi)
    if mode == "suppressive":
        return Fraction(1, 10)
    mod = hit_modifier(shooter, semi)
    return Fraction(sum(1 for d in range(1, 11) if _aimed_hits(d, mod, cover)), 10)


def wound_distribution(damage: int) -> dict[WoundStatus, Fraction]:
    """CS-10: the exact chance of each wound result for 1d6 + ``damage`` (given a hit)."""
    damage = _whole_arg(damage, "CS-10: the damage modifier", None)
    out = {w: Fraction(0) for w in WoundStatus}
    for d6 in range(1, 7):
        out[wound_status(d6 + damage)] += Fraction(1, 6)
    return out


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


def shot_odds(shooter: Combatant, mode: str = "aimed", cover: Cover | str = Cover.NONE,
              semi: str | None = None) -> ShotOdds:
    """CS-8 … CS-11: hit chance and wound distribution, exact, no sampling."""
    hit = hit_chance(shooter, mode, cover, semi)
    damage = damage_modifier(shooter, semi)
    wounds = wound_distribution(damage)
    outcomes: dict[WoundStatus | None, Fraction] = {None: 1 - hit}
    for wound, chance in wounds.items():
        outcomes[wound] = hit * chance
    return ShotOdds(hit, MappingProxyType(wounds), MappingProxyType(outcomes), hit_modifier(shooter, semi),
                    damage, to_hit_target(cover) if mode == "aimed" else None)


def apply_wound(status: Status, wound: WoundStatus | str, round_: int, countdown: int | None = None
                ) -> tuple[Status, str]:
    """CS-10/CS-13: ``status`` after ``wound`` in round ``round_``, and what happened.

    STUN: +3 suppression, no cards next round; a STUN while stunned → INJURED (HR-CS-1).
    INJURE: +3, a card struck at each deal, DYING after the 2d6 ``countdown`` unless
    treated; a second INJURE kills. DYING: +5, DEAD after the 1d6 ``countdown`` without
    first aid; a second DYING kills. DEAD. A worse condition replaces a milder one; a
    milder wound does not change the condition (HR-CS-2). ``countdown`` is the roll for
    a condition that starts now (needed only then); the round it starts counts as its
    first (CS-13).
    """
    if not isinstance(status, Status):
        raise ArgumentError(f"The status must be a Status (got {_shown(status)})")
    wound = _enum_arg(WoundStatus, wound, "CS-10: the wound")
    _whole_arg(round_, "The round")
    if countdown is not None:
        _whole_arg(countdown, "CS-13: the countdown roll", 1, 12)
    cond = status.condition
    if cond is Condition.DEAD:
        return status, "already DEAD"

    def need() -> int:
        if countdown is None:
            raise ArgumentError("CS-13: a countdown roll is needed when INJURED or DYING starts")
        return countdown

    def injured() -> Status:
        return replace(status, condition=Condition.INJURED, countdown=need(), treated=False,
                       stunned_until=None)

    def dying_in(rounds: int) -> str:
        return f"DYING in {_plural(rounds, 'round')} unless treated"

    if wound is WoundStatus.STUN:
        status = replace(status, suppression=status.suppression + 3, no_cards_next=True)
        if cond is Condition.STUNNED:
            new = injured()
            return new, f"second STUN: INJURED, {dying_in(new.countdown)} (CS-10, HR-CS-1, CS-13)"
        if cond is Condition.OK:
            return replace(status, condition=Condition.STUNNED, stunned_until=round_ + 1), \
                "STUN: STUNNED, +3 suppression, no cards next round (CS-10)"
        return status, f"STUN: +3 suppression, no cards next round; stays {cond.label} (HR-CS-2)"
    if wound is WoundStatus.INJURE:
        status = replace(status, suppression=status.suppression + 3)
        if cond is Condition.INJURED:
            return replace(status, condition=Condition.DEAD, countdown=None), "second INJURE: DEAD (CS-10)"
        if cond in (Condition.OK, Condition.STUNNED):
            new = injured()
            return new, (f"INJURE: INJURED, +3 suppression, a card struck at each deal, "
                         f"{dying_in(new.countdown)} (CS-10, CS-13)")
        return status, f"INJURE: +3 suppression; stays {cond.label} (HR-CS-2)"
    if wound is WoundStatus.DYING:
        status = replace(status, suppression=status.suppression + 5)
        if cond is Condition.DYING:
            return replace(status, condition=Condition.DEAD, countdown=None), "second DYING: DEAD (CS-10)"
        new = replace(status, condition=Condition.DYING, countdown=need(), first_aid=False, treated=False,
                      stunned_until=None)
        return new, (f"DYING: +5 suppression, DEAD in {_plural(new.countdown, 'round')} without first aid "
                     "(CS-10, CS-13)")
    return replace(status, condition=Condition.DEAD, countdown=None), "DEAD (CS-10)"


def _needs_countdown(condition: Condition, wound: WoundStatus) -> int:
    """Dice of the countdown roll a wound starts (0: none): 2d6 for INJURED, 1d6 for DYING."""
    if condition is Condition.DEAD:
        return 0
    if wound is WoundStatus.STUN and condition is Condition.STUNNED:
        return 2
    if wound is WoundStatus.INJURE and condition in (Condition.OK, Condition.STUNNED):
        return 2
    if wound is WoundStatus.DYING and condition is not Condition.DYING:
        return 1
    return 0


# ---------------------------------------------------------------------------
# Setup


def _text(value: Any, where: str, what: str) -> str:
    return setup_text(value, where, what, error=SetupError, max_len=_NAME_MAX)


def _choice(enum: type[Enum], value: Any, where: str, what: str) -> str:
    for member in enum:
        if member.value == value and isinstance(value, str):
            return member.value
    allowed = ", ".join(e.value for e in enum)
    raise SetupError(f"{where}: the {what} must be one of {allowed} (got {_shown(value)})")


def _bool(value: Any, where: str, what: str) -> bool:
    if not isinstance(value, bool):
        raise SetupError(f"{where}: {what} must be true or false")
    return value


_SETUP_KEYS = ("sides", "combatants", "privacy", "spectator", "hidden", "legacy", "facts")
_COMBATANT_KEYS = ("name", "side", "grain", "training", "weapon", "player")


def _hidden_entry(number: int, side: int) -> dict[str, Any]:
    return {"name": placeholder(number), "side": side, "grain": "individual", "training": "untrained",
            "weapon": [], "player": False}


def normalize_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """CS-1: validated, canonical roster JSON (see the module docstring); raises :class:`SetupError`.

    ``"spectator": true`` marks a spectator's copy (:func:`public_game`); only it may list
    ``"hidden"`` combatants, each a placeholder, and a roster that lists ``"hidden"`` (even
    none) is one, flag or not. ``"legacy": true``: a game saved
    before the CS-3 and CS-5 rulings (:func:`upgrade`). ``"facts"`` is the earlier name
    of ``"spectator"`` (false is dropped).
    """
    if not isinstance(setup, Mapping):
        raise SetupError("The roster must be an object with named fields")
    unknown = sorted(key_text(k) for k in setup if k not in _SETUP_KEYS)
    if unknown:
        raise SetupError(f"Roster: unknown field {', '.join(map(_quote, unknown[:4]))}")
    sides = setup.get("sides")
    if not isinstance(sides, (list, tuple)) or not 2 <= len(sides) <= _MAX_SIDES:
        raise SetupError(f"Roster: give 2 to {_MAX_SIDES} sides")
    side_names = [_text(name, f"Side {i + 1}", "name") for i, name in enumerate(sides)]
    if len(set(n.casefold() for n in side_names)) != len(side_names):
        raise SetupError("Roster: two sides have the same name")
    raw = setup.get("combatants")
    if not isinstance(raw, (list, tuple)) or not raw:
        raise SetupError("Roster: add at least one combatant")
    if len(raw) > _MAX_COMBATANTS:
        raise SetupError(f"Roster: at most {_MAX_COMBATANTS} combatants")
    out = []
    for i, c in enumerate(raw):
        where = f"Combatant {i + 1}"
        if not isinstance(c, Mapping):
            raise SetupError(f"{where} must be an object with named fields")
        bad = sorted(key_text(k) for k in c if k not in _COMBATANT_KEYS)
        if bad:
            raise SetupError(f"{where}: unknown field {', '.join(map(_quote, bad[:4]))}")
        name = _text(c.get("name"), where, "name")
        where = f"Combatant {i + 1} ({name})"
        side = c.get("side", 0)
        if not isinstance(side, int) or isinstance(side, bool) or not 0 <= side < len(side_names):
            raise SetupError(f"{where}: the side must be 0 to {len(side_names) - 1} (got {_shown(side)})")
        weapon = c.get("weapon", [])
        if not isinstance(weapon, (list, tuple)):
            raise SetupError(f"{where}: the weapon traits must be a list")
        traits = {_choice(Trait, t, where, "weapon trait") for t in weapon}
        if {"automatic", "semi-automatic"} <= traits:
            raise SetupError(f"{where}: a weapon is automatic or semi-automatic, not both (CS-11)")
        if {"ground-vehicle", "air-vehicle"} <= traits:
            raise SetupError(f"{where}: a weapon is a ground- or an air-vehicle weapon, not both (CS-11)")
        out.append({
            "name": name, "side": side,
            "grain": _choice(Grain, c.get("grain", "individual"), where, "kind"),
            "training": _choice(Training, c.get("training", "untrained"), where, "training"),
            "weapon": [t.value for t in Trait if t.value in traits],
            "player": _bool(c.get("player", False), where, "player character"),
        })
    privacy = _bool(setup.get("privacy", True), "Roster", "privacy")
    facts = _bool(setup.get("facts", False), "Roster", "facts")
    # Today only a spectator's copy lists "hidden" (even empty): a copy edited to drop its
    # flag is still a spectator's copy (issue 30). Rosters saved while "facts" and "hidden"
    # were written for every game say "facts" (false for a game played at a table).
    spectator = setup.get("spectator", facts if "facts" in setup else "hidden" in setup)
    if spectator is not True and spectator is not False:
        raise SetupError("Roster: 'spectator' must be true (a spectator's copy) or absent")
    if facts and not spectator:
        raise SetupError("Roster: a copy of recorded facts is a spectator's copy ('spectator': true)")
    legacy = setup.get("legacy", False)
    if legacy is not True and legacy is not False:
        raise SetupError("Roster: 'legacy' must be true (a game saved before the CS-3 and CS-5 rulings) or absent")
    hidden = setup.get("hidden", [])
    if not isinstance(hidden, (list, tuple)) or not all(
            isinstance(h, int) and not isinstance(h, bool) and 0 <= h < len(out) for h in hidden) \
            or len(set(hidden)) != len(hidden):
        raise SetupError("Roster: hidden must list combatants by number, each once")
    if hidden and not spectator:
        raise SetupError("Roster: only a spectator copy hides combatants outright")
    for number, h in enumerate(sorted(hidden), start=1):
        if out[h] != _hidden_entry(number, out[h]["side"]):
            raise SetupError(f"Roster: hidden combatant {h + 1} must be the placeholder "
                             f"“{placeholder(number)}” (a spectator's copy holds nothing of it)")
    normal: dict[str, Any] = {"sides": side_names, "combatants": out, "privacy": privacy}
    if spectator:
        normal["spectator"] = True
        normal["hidden"] = sorted(hidden)
    if legacy:
        normal["legacy"] = True
    return normal


def _combatant(raw: Mapping[str, Any]) -> Combatant:
    return Combatant(raw["name"], raw["side"], Grain(raw["grain"]), Training(raw["training"]),
                     frozenset(Trait(t) for t in raw["weapon"]), raw["player"])


def start(setup: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
          rng: random.Random | None = None) -> ConsimState:
    """The tracker before the first deal: everyone fit, no suppression."""
    normal = normalize_setup(setup)
    settings = resolve_rules(VARIANTS, rules)
    combatants = tuple(_combatant(c) for c in normal["combatants"])
    legacy = normal.get("legacy", False)
    log = (LogEntry(0, LEGACY_RULES),) if legacy else ()
    return ConsimState(
        sides=tuple(normal["sides"]), combatants=combatants,
        statuses=tuple(Status() for _ in combatants), rules=tuple(sorted(settings.items())),
        hands=tuple(None for _ in combatants), privacy=normal["privacy"], facts=normal.get("spectator", False),
        hidden=frozenset(normal.get("hidden", ())), legacy=legacy, log=log)


# ---------------------------------------------------------------------------
# Helpers for the table


def can_act(state: ConsimState, index: int) -> bool:
    """CS-5/CS-13: DYING and DEAD combatants never act."""
    state = _state_arg(state)
    index = _index_arg(state, index)
    return _can_act(state, index)


def _can_act(state: ConsimState, index: int) -> bool:
    return state.statuses[index].condition not in (Condition.DYING, Condition.DEAD)


def current_turn(state: ConsimState) -> int | None:
    """CS-5: the index in ``state.turns`` of who acts now.

    ``None``: no round is on, the order is done, or (in a spectator's copy) one of the
    Observer's hidden combatants acts now (``state.unseen_acting``)."""
    return _current(_state_arg(state))


def _current(state: ConsimState) -> int | None:
    if state.phase != "round" or state.unseen_acting:
        return None
    for i, turn in enumerate(state.turns):
        if not turn.done and _can_act(state, turn.combatant):
            return i
    return None


def acting(state: ConsimState) -> int | None:
    """CS-5: the combatant who acts now (``None`` when no one, or an unseen one, does)."""
    cur = current_turn(state)
    return None if cur is None else state.turns[cur].combatant


def round_over(state: ConsimState) -> bool:
    """CS-5: a round is on and every card that can act has acted."""
    state = _state_arg(state)
    return state.phase == "round" and not state.unseen_acting and _current(state) is None


def is_hidden(state: ConsimState, index: int) -> bool:
    """Privacy: are this combatant's cards and status hidden from the players?

    Non-player combatants are hidden while the Observer's privacy is on; in a
    spectator's copy the hidden ones are placeholders.
    """
    state = _state_arg(state)
    index = _index_arg(state, index)
    return _hidden(state, index)


def _hidden(state: ConsimState, index: int) -> bool:
    if index in state.hidden:
        return True
    return state.privacy and not state.combatants[index].player


def turn_counts(state: ConsimState) -> tuple[int, int]:
    """CS-5: ``(cards that have acted, cards still to act)`` this round (skipped cards of
    the DYING and DEAD count as neither). A spectator's copy counts the cards it shows."""
    state = _state_arg(state)
    if state.phase != "round":
        return 0, 0
    done = sum(1 for t in state.turns if t.done)
    left = sum(1 for t in state.turns if not t.done and _can_act(state, t.combatant))
    return done, left


def _turn_text(state: ConsimState, turn: Turn) -> str:
    who = state.combatants[turn.combatant].name
    long = f" (long action, {len(turn.spent) + 1} cards)" if turn.spent else ""
    return f"{who} acts on the {turn.card.label}{long}"


def status(state: ConsimState) -> str:
    """What the table is waiting for, in one sentence (true in a spectator's copy too)."""
    state = _state_arg(state)
    copy = state.facts
    if state.phase == "ready":
        if state.round == 0:
            if copy:
                return "No round has been dealt yet (CS-2)."
            return "Tick this round's advantages and surprise, then deal (CS-2, CS-4)."
        if copy:
            return f"Round {state.round} is over; the Observer deals round {state.round + 1} next."
        return f"Round {state.round} is over. Tick the advantages for round {state.round + 1}, then deal."
    if state.unseen_acting:
        return f"Round {state.round}: the Observer's combatants are acting (CS-5)."
    cur = _current(state)
    if cur is None:
        if copy and state.legacy:
            return f"Round {state.round}: every card shown here has acted (CS-5)."
        if copy:
            return f"Round {state.round}: everyone has acted; the Observer ends the round next (CS-12, CS-13)."
        return f"Round {state.round}: everyone has acted. End the round (CS-12, CS-13)."
    turn = state.turns[cur]
    if copy and state.legacy:
        return (f"Round {state.round}: the next card shown here is {state.combatants[turn.combatant].name}'s "
                f"{turn.card.label} (CS-5).")
    return f"Round {state.round}: {_turn_text(state, turn)} (CS-5)."


def standing(state: ConsimState) -> str:
    """Where the game stands, in a few words, for the list of saves: "Round 4 · 6 of 11 acted"."""
    state = _state_arg(state)
    fit = sum(1 for s in state.statuses if s.condition is not Condition.DEAD)
    if state.round == 0:
        return f"Not dealt yet · {_plural(len(state.combatants), 'combatant')}"
    if state.phase == "ready":
        return f"Round {state.round} over · {fit} of {len(state.combatants)} alive"
    done, left = turn_counts(state)
    cards = " visible cards" if state.facts and state.hidden else ""
    if left == 0 and not state.unseen_acting:
        return f"Round {state.round} · all{cards} acted"
    return f"Round {state.round} · {done} of {done + left}{cards} acted"


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


def forecast(state: ConsimState, index: int, advantages: int = 0, surprised: bool = False) -> Forecast:
    """CS-3/CS-10/CS-12/CS-13: the next deal for combatant ``index`` with ``advantages``
    ticked, as things stand: during a round, as if it ended now (suppression of a
    combatant not fired on is shed, CS-12; a stun wears off, HR-CS-1; a countdown that
    runs out turns INJURED to DYING and DYING to DEAD, CS-13)."""
    state = _state_arg(state)
    index = _index_arg(state, index)
    _whole_arg(advantages, "CS-2: the number of advantages", 0, len(ADVANTAGES))
    _flag_arg(surprised, "surprised")
    st = state.statuses[index]
    c = state.combatants[index]
    if state.phase == "round":
        st = _round_end_status(st, state.round)
    pulp = bool(state.settings.get("pulp"))
    due, struck, reasons = cards_due(advantages, st.suppression, st.condition, no_cards=st.no_cards_next,
                                     surprised=surprised, player=c.player, pulp=pulp, legacy=state.legacy)
    if due == 0:
        return Forecast(0, 0, 0, 0, reasons[0].split(":")[0], st.suppression)
    injury = 1 if st.condition is Condition.INJURED and not state.legacy else 0
    by_injury = min(injury, struck)
    by_suppression = struck - by_injury
    return Forecast(due, by_suppression, by_injury, due - struck, None, st.suppression)


def equipment(setup: Mapping[str, Any], rules: Mapping[str, Any] | None = None) -> str:
    """HR-CS-6/HR-CS-7: whose cards and whose dice, in players' words."""
    settings = resolve_rules(VARIANTS, rules)
    return " ".join(VARIANT_BY_KEY[key].sentence(settings[key]) for key in ("deck", "dice"))


def cards_owed(state: ConsimState, advantages: Mapping[int, int] | None = None,
               surprised: Iterable[int] = ()) -> tuple[int, ...]:
    """CS-2/CS-3/CS-4/CS-6: how many cards each combatant (roster order) is dealt at the
    next deal, with ``advantages`` ticked (combatant → count) and the ``surprised`` sides:
    what it is owed while the one deck of 52 lasts. With your own deck (HR-CS-6) these
    are the cards the GM enters; suppression's and an injury's losses are struck after."""
    state = _state_arg(state)
    if state.phase == "round":
        raise RuleError("CS-5", f"round {state.round} is still on: end it first")
    if advantages is not None and not isinstance(advantages, Mapping):
        raise ArgumentError(f"The advantages map combatant numbers to counts (got {_shown(advantages)})")
    advantages = dict(advantages or {})
    for key, count in advantages.items():
        _index_arg(state, key, "a combatant with advantages")
        _whole_arg(count, "CS-2: the number of advantages", 0, len(ADVANTAGES))
    if isinstance(surprised, (str, bytes)) or not isinstance(surprised, (list, tuple, set, frozenset)) \
            or len(surprised) > len(state.sides):
        raise ArgumentError(f"The surprised sides are a list of at most {len(state.sides)} side numbers "
                            f"(got {_shown(surprised)})")
    surprised = tuple(surprised)
    for side in surprised:
        _whole_arg(side, "CS-4: a surprised side", 0, len(state.sides) - 1)
    remaining, owed = _DECK, []
    for due, _, _ in _dues(state, [advantages.get(i, 0) for i in range(len(state.combatants))], surprised):
        owed.append(min(due, remaining))
        remaining -= owed[-1]
    return tuple(owed)


def _dues(state: ConsimState, ticks: Sequence[int], surprised: Sequence[int]
          ) -> list[tuple[int, int, tuple[str, ...]]]:
    """CS-2/CS-3/CS-4: each combatant's ``(due, struck, reasons)`` at a deal with ``ticks``
    advantages each and the ``surprised`` sides (:func:`cards_due`, roster order)."""
    pulp = bool(state.settings.get("pulp"))
    return [cards_due(ticks[i], st.suppression, st.condition, no_cards=st.no_cards_next,
                      surprised=c.side in surprised, player=c.player, pulp=pulp, legacy=state.legacy)
            for i, (c, st) in enumerate(zip(state.combatants, state.statuses))]


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


class _MissingRoll(ActionError):
    """Recorded dice that lack a roll the fire needs: which one (``call``, a :class:`DieCall`).

    Internal to :func:`next_roll`: the public functions raise it as a plain
    :class:`~engine.game.ActionError` with the same sentence (issue 35). It can be made
    from its message alone, like every ActionError."""

    def __init__(self, message: str, call: DieCall | None = None) -> None:
        super().__init__(message)
        self.call = call


#: How a roll a shot needs is named in a refusal (:class:`_MissingRoll`).
_ROLL_WORDS = {"d10": "the d10 roll to hit (CS-8)", "d6": "the d6 roll for the wound (CS-10)",
               "countdown": "the countdown roll ({dice} for the rounds left, CS-13)"}


def next_roll(state: ConsimState, action: Mapping[str, Any]) -> DieCall | None:
    """HR-CS-7: the first roll the shot ``action`` still needs, ``None`` once its ``"dice"``
    (one object per target, as entered so far: the last may be partial, later ones
    missing) hold exactly what the fire needs: the d10, then the d6 if it hit, then the
    countdown dice if the wound starts one (2d6 INJURED, 1d6 DYING, CS-13).

    The referee itself answers (:func:`normalize_action`, one reading of CS-5 … CS-13): a
    shot it refuses for another reason raises that refusal, a roll out of range included."""
    state = _state_arg(state)
    if not isinstance(action, Mapping):
        raise ArgumentError("next_roll needs a shot (an action object)")
    targets, entered = action.get("targets"), action.get("dice", [])
    if isinstance(entered, (str, bytes)) or not isinstance(entered, (list, tuple)) or \
            not isinstance(targets, (list, tuple)) or len(entered) > len(targets):
        raise ArgumentError("next_roll needs a shot with its targets and at most one set of rolls per target")
    padded = list(entered) + [{} for _ in range(len(targets) - len(entered))]
    try:
        _normalize(state, {**action, "type": "shoot", "dice": padded})
    except _MissingRoll as missing:
        return missing.call
    return None


def countdowns_due(state: ConsimState) -> tuple[int, ...]:
    """CS-13: the combatants whose INJURED time runs out at the end of this round: each
    turns DYING and its 1d6 countdown is rolled (entered, with your own dice, HR-CS-7)."""
    state = _state_arg(state)
    if state.phase != "round":
        return ()
    return tuple(i for i, st in enumerate(state.statuses)
                 if _turns_dying(st) and not (state.facts and i in state.hidden))


def _round_end_status(st: Status, round_: int) -> Status:
    """CS-12/CS-13/HR-CS-1: a status after the end of round ``round_`` (the countdown
    that runs out turns INJURED to DYING with an unknown roll: any roll gives no cards)."""
    if not st.fired_on and st.suppression:
        st = replace(st, suppression=0)
    st = replace(st, fired_on=False)
    if st.condition is Condition.STUNNED and st.stunned_until is not None and st.stunned_until <= round_:
        st = replace(st, condition=Condition.OK, stunned_until=None)
    running = (st.condition is Condition.INJURED and not st.treated) or (
        st.condition is Condition.DYING and not st.first_aid)
    if running and st.countdown is not None and st.countdown <= 1:
        st = replace(st, condition=Condition.DYING if st.condition is Condition.INJURED else Condition.DEAD,
                     countdown=None)
    return st


# ---------------------------------------------------------------------------
# The referee: one check per action (normalize_action), used by step, the views and links

_TYPES = ("deal", "next", "long", "shoot", "end_round", "treat", "first_aid", "privacy")


def _key_index(state: ConsimState, key: Any, what: str) -> int:
    """A combatant number written as an object key: "0", "1" … exactly (not "00", "01")."""
    if not isinstance(key, str) or not key.isascii() or not key.isdigit() or str(int(key)) != key:
        raise ActionError(f"{what}: combatants are numbered \"0\", \"1\", \"2\" … (got {_shown(key)})")
    index = int(key)
    if index >= len(state.combatants):
        raise ActionError(f"{what}: there is no combatant {index} (they are 0 to {len(state.combatants) - 1})")
    return index


def _whole(value: Any, what: str, low: int, high: int) -> int:
    return referee.whole(value, what, low, high)


def _who(state: ConsimState, value: Any, what: str) -> int:
    return _whole(value, what, 0, len(state.combatants) - 1)


def _hidden_next(state: ConsimState, action: Mapping[str, Any], out: dict[str, Any], unseen_cards: int) -> None:
    """A spectator's copy: ``"hidden_next": true`` — one of the Observer's hidden combatants acts next."""
    if "hidden_next" not in action:
        return
    if not state.facts:
        raise ActionError("Only a spectator's copy says that a hidden combatant acts next ('hidden_next')")
    if action["hidden_next"] is not True:
        raise ActionError("'hidden_next' is true or absent")
    if unseen_cards <= 0:
        raise RuleError("CS-5", "no card of the Observer's hidden combatants is in this round's order")
    out["hidden_next"] = True


def _need_round(state: ConsimState, doing: str) -> None:
    if state.phase != "round":
        raise RuleError("CS-5", f"no round is on: deal first ({doing} happens on a card)")


def _current_actor(state: ConsimState, who: int, doing: str) -> None:
    """CS-5 ruling: only the current actor acts, once per card; the DYING and DEAD never."""
    name = state.combatants[who].name
    if state.statuses[who].condition in (Condition.DYING, Condition.DEAD):
        raise RuleError("CS-5", f"{name} is {state.statuses[who].condition.label} and never acts")
    if state.unseen_acting:
        raise RuleError("CS-5", f"one of the Observer's combatants is acting now, not {name}")
    cur = _current(state)
    if cur is None:
        raise RuleError("CS-5", f"everyone has acted in round {state.round}: {name} has no card left to act on")
    turn = state.turns[cur]
    if turn.combatant != who:
        holds = any(t.combatant == who and not t.done for t in state.turns)
        why = "" if holds else f" ({name} has no card left this round)"
        actor = state.combatants[turn.combatant].name
        raise RuleError("CS-5", f"only the current actor acts: it is {actor}'s turn (the {turn.card.label}), "
                                f"so {name} cannot {doing} now{why}")


def normalize_action(state: ConsimState, action: Mapping[str, Any], rules: Mapping[str, Any] | None = None
                     ) -> dict[str, Any]:
    """The referee (issue 20): the canonical form of ``action`` in ``state`` — exact
    shape, canonical card tokens, no unknown field, numbers in range — or the
    :class:`~engine.game.ActionError` (malformed) / :class:`~engine.game.RuleError`
    (forbidden, citing its clause) that :func:`step` raises for it. Changes nothing."""
    state = _state_arg(state)
    try:
        return _normalize(state, action)
    except _MissingRoll as missing:  # a plain ActionError: the private class never leaves (issue 35)
        raise ActionError(str(missing)) from None


def _normalize(state: ConsimState, action: Mapping[str, Any]) -> dict[str, Any]:
    kind = referee.action_type(action, _TYPES)
    return _NORMALIZE[kind](state, action)


def _norm_deal(state: ConsimState, action: Mapping[str, Any]) -> dict[str, Any]:
    """CS-2/CS-3/CS-4/CS-6: a new round."""
    referee.only(action, optional=("advantages", "surprised", "cards", "hidden_cards", "hidden_next"))
    if state.phase == "round":
        raise RuleError("CS-5", f"round {state.round} is still on: end it first")
    out: dict[str, Any] = {"type": "deal"}
    advantages = action.get("advantages", {})
    if not isinstance(advantages, Mapping):
        raise ActionError("The advantages must map combatant numbers to lists of advantages")
    canon_adv: dict[str, list[str]] = {}
    for key, items in advantages.items():
        index = _key_index(state, key, "Advantages")
        if state.facts and index in state.hidden:
            raise ActionError("A spectator's copy knows nothing of a hidden combatant's advantages")
        if not isinstance(items, (list, tuple)) or not all(isinstance(i, str) for i in items) \
                or any(i not in ADVANTAGES for i in items) or len(set(items)) != len(items):
            raise ActionError(f"Advantages are {', '.join(ADVANTAGES)}, each at most once (CS-2)")
        if items:
            canon_adv[str(index)] = [k for k in ADVANTAGES if k in items]
    if canon_adv:
        out["advantages"] = {k: canon_adv[k] for k in sorted(canon_adv, key=int)}
    surprised = action.get("surprised", [])
    if not isinstance(surprised, (list, tuple)) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < len(state.sides) for s in surprised) \
            or len(set(surprised)) != len(surprised):
        raise ActionError(f"Surprised must list sides by number (0 to {len(state.sides) - 1}), each once (CS-4)")
    if surprised:
        out["surprised"] = sorted(surprised)
    recorded = _recorded_cards(state, action)
    hidden_cards = 0
    if state.facts:
        if recorded is None:
            raise RuleError("CS-6", "this is a spectator's copy: it shows the game, it cannot deal")
        if "hidden_cards" in action:
            hidden_cards = _whole(action["hidden_cards"], "The hidden combatants' cards", 1, _DECK)
            out["hidden_cards"] = hidden_cards
    elif "hidden_cards" in action:
        raise ActionError("Only a spectator's copy counts the hidden combatants' cards ('hidden_cards')")
    elif recorded is None and state.settings.get("deck") == DECK_TABLE:
        raise RuleError("HR-CS-6", "this game is played with your own deck: enter each combatant's cards")
    elif recorded is not None and state.settings.get("deck") != DECK_TABLE:  # issue 35: the seed deals
        raise RuleError("HR-CS-6", "this game is played with the app's deck: the app deals, so no move or link "
                                   "can say which cards were dealt (only a spectator's copy records them)")
    if recorded is not None:
        total = sum(len(v) for v in recorded.values())
        if total + hidden_cards > _DECK:
            raise RuleError("CS-6", f"one deck has {_DECK} cards, the record holds {total + hidden_cards}")
        _deal_hands(state, _ticks(state, out), tuple(out.get("surprised", ())), recorded, None)
        out["cards"] = {str(i): [c.token for c in cards] for i, cards in recorded.items() if cards}
    _hidden_next(state, action, out, hidden_cards)
    return out


def _recorded_cards(state: ConsimState, action: Mapping[str, Any]) -> dict[int, tuple[Card, ...]] | None:
    """CS-6: the recorded cards of a deal, by combatant, in acting order (each card once)."""
    if "cards" not in action:
        return None
    recorded = action["cards"]
    if not isinstance(recorded, Mapping):
        raise ActionError("The recorded cards must map combatant numbers to lists of cards")
    out: dict[int, tuple[Card, ...]] = {}
    seen: dict[Card, int] = {}
    for key, given in recorded.items():
        index = _key_index(state, key, "Recorded cards")
        if state.facts and index in state.hidden:
            raise ActionError("A spectator's copy holds no card of a hidden combatant")
        cards = referee.cards(given, f"the recorded cards of {state.combatants[index].name}")
        for card in cards:
            if card in seen:
                raise RuleError("CS-6", f"the {card.label} is recorded twice (one deck of {_DECK}): for "
                                        f"{state.combatants[seen[card]].name} and {state.combatants[index].name}")
            seen[card] = index
        out[index] = tuple(initiative_order(cards))
    return dict(sorted(out.items()))


def _ticks(state: ConsimState, action: Mapping[str, Any]) -> list[int]:
    ticks = [0] * len(state.combatants)
    for key, items in action.get("advantages", {}).items():
        ticks[int(key)] = len(items)
    return ticks


def _deal_hands(state: ConsimState, ticks: Sequence[int], surprised: Sequence[int],
                recorded: Mapping[int, tuple[Card, ...]] | None, rng: random.Random | None
                ) -> tuple[list[DealtHand | None], list[int]]:
    """CS-2/CS-3/CS-4/CS-6: every combatant's hand: one deck, dealt in roster order
    (shuffled by ``rng``, or the ``recorded`` cards, checked: exactly what each is owed
    while the deck lasts); then suppression and an injury strike the highest."""
    if recorded is None:
        if not isinstance(rng, random.Random):
            raise ArgumentError("step needs the game's random generator to deal (or recorded cards)")
        deck = shuffled_deck(rng)
    pulp = bool(state.settings.get("pulp"))
    remaining = _DECK
    hands, nothing = [], []
    short_before: str | None = None
    for i, (c, (due, struck, reasons)) in enumerate(zip(state.combatants, _dues(state, ticks, surprised))):
        if state.facts and i in state.hidden:
            hands.append(None)  # a spectator's copy knows nothing of a hidden hand
            continue
        if recorded is None:
            dealt, deck = tuple(_order(deck[:due])), deck[due:]
        else:
            dealt = recorded.get(i, ())
            if state.facts:  # the copy does not see the hidden hands: the deck's end is in roster order
                if len(dealt) > due:
                    raise RuleError("CS-6", f"{c.name} is owed {_plural(due, 'card')}, the record gives {len(dealt)}")
                if dealt and short_before is not None:
                    raise RuleError("CS-6", f"the deck reached {c.name} after {short_before} ran short: "
                                            "it is dealt in roster order")
                if len(dealt) < due:
                    short_before = short_before or c.name
            else:
                owed = min(due, remaining)
                if len(dealt) != owed:
                    deck_note = "" if owed == due else f" (the deck had only {remaining} left)"
                    raise RuleError("CS-6", f"{c.name} is owed {_plural(owed, 'card')}{deck_note}, "
                                            f"the record gives {len(dealt)}")
        remaining -= len(dealt)
        if len(dealt) < due:
            nothing.append(i)
        floor = 1 if (pulp and c.player) else 0
        drop = max(0, min(struck, len(dealt) - floor)) if dealt else 0
        ordered = _order(dealt)
        hands.append(DealtHand(due, tuple(dealt), tuple(ordered[:drop]), tuple(ordered[drop:]), reasons))
    return hands, nothing


def _norm_next(state: ConsimState, action: Mapping[str, Any]) -> dict[str, Any]:
    """CS-5: the current actor has acted."""
    referee.only(action, optional=("hidden_next",))
    if state.phase != "round":
        raise RuleError("CS-5", "no round is on: deal first")
    if not state.unseen_acting and _current(state) is None:
        raise RuleError("CS-5", f"everyone has acted in round {state.round}: end the round")
    out: dict[str, Any] = {"type": "next"}
    _hidden_next(state, action, out, state.unseen_cards)
    return out


def _norm_long(state: ConsimState, action: Mapping[str, Any]) -> dict[str, Any]:
    """CS-5: the current actor spends several of its cards and acts at the lowest."""
    referee.only(action, ("combatant", "cards"), ("hidden_next",))
    _need_round(state, "a long action")
    who = _who(state, action["combatant"], "the combatant of a long action")
    cards = referee.cards(action["cards"], "the cards of a long action")
    name = state.combatants[who].name
    _current_actor(state, who, "declare a long action")
    if len(cards) < 2:
        raise RuleError("CS-5", "a long action spends at least 2 different cards")
    for card in cards:
        if not any(t.card == card and t.combatant == who and not t.done for t in state.turns):
            raise RuleError("CS-5", f"{name} has no unplayed {card.label} this round")
    own = state.turns[_current(state)].card
    if not state.legacy and own not in cards:
        raise RuleError("CS-5", f"a long action is declared on {name}'s turn and spends its card, the {own.label}")
    out = {"type": "long", "combatant": who, "cards": [c.token for c in initiative_order(cards)]}
    _hidden_next(state, action, out, state.unseen_cards)
    return out


def check_shot(state: ConsimState, shooter: int, targets: Sequence[int], mode: str) -> str | None:
    """CS-5/CS-7/CS-9/CS-10: why this fire is not allowed (starting with its rule id), or ``None``.

    CS-5 ruling: only the current actor shoots, once per card (the shot is that card's
    action). Bad arguments (not numbers, no such combatant) are an :class:`ArgumentError`.
    """
    state = _state_arg(state)
    shooter = _index_arg(state, shooter, "the shooter")
    if isinstance(targets, (str, bytes)) or not isinstance(targets, Sequence):
        raise ArgumentError(f"The targets must be a list of combatant numbers (got {_shown(targets)})")
    targets = [_index_arg(state, t, "a target") for t in targets]
    try:
        _check_fire(state, shooter, targets, mode)
    except RuleError as err:
        return str(err)
    except ActionError as err:
        return f"CS-8: {err}"
    return None


def _check_fire(state: ConsimState, shooter: int | None, targets: Sequence[int], mode: str) -> None:
    """Raise the RuleError that forbids this fire (the shooter ``None``: an unseen one)."""
    if state.phase != "round":
        raise RuleError("CS-5", "shots are actions in card order: deal the round first")
    if mode not in ("aimed", "suppressive"):
        raise RuleError("CS-8", "fire is aimed or suppressive")
    c = state.combatants[shooter] if shooter is not None else None
    if c is not None:
        _current_actor(state, shooter, "shoot")
    elif not state.facts:
        raise ActionError("A shot needs its shooter")
    elif not state.legacy and not state.unseen_acting:
        raise RuleError("CS-5", "only the current actor shoots, and no hidden combatant is acting now")
    if not targets:
        raise RuleError("CS-7", "pick a target")
    if len(set(targets)) != len(targets):
        raise RuleError("CS-9", "each target once")
    for t in targets:
        if t == shooter:
            raise RuleError("CS-7", f"{c.name} cannot shoot at itself")
        if state.statuses[t].condition is Condition.DEAD and not (state.facts and t in state.hidden):
            raise RuleError("CS-10", f"{state.combatants[t].name} is already DEAD")
    if len(targets) > 1:
        if mode == "aimed":
            raise RuleError("CS-9", "an aimed shot has one target; suppressive fire from an automatic "
                                    "weapon covers an area")
        if c is not None and not (c.has(Trait.AUTOMATIC) or c.has(Trait.SEMI_AUTOMATIC)):
            raise RuleError("CS-9", f"only automatic and semi-automatic weapons suppress an area "
                                    f"({c.name} has neither)")


_ROLL_KEYS = ("d10", "d6", "countdown")
#: Issue 35: with the app's dice (HR-CS-7) the seed rolls; a move or a link never says what.
_APP_DICE = ("this game is played with the app's dice: the app rolls them, so no move or link can say what "
             "they rolled (only a spectator's copy records them)")
_RESULT_KEYS = ("hit", "wound", "suppression", "countdown")


def _norm_shoot(state: ConsimState, action: Mapping[str, Any]) -> dict[str, Any]:
    """CS-5, CS-7 … CS-11: the current actor fires (its card's action)."""
    unseen_shooter = "shooter" not in action and state.facts
    required = ("targets",) if unseen_shooter else ("shooter", "targets")
    referee.only(action, required, ("mode", "cover", "unseen", "semi", "dice", "results", "hidden_next"))
    _need_round(state, "a shot")
    shooter = None if unseen_shooter else _who(state, action["shooter"], "the shooter")
    targets = action["targets"]
    if isinstance(targets, (str, bytes)) or not isinstance(targets, (list, tuple)):
        raise ActionError("The targets must be a list of combatant numbers")
    targets = [_who(state, t, "a target") for t in targets]
    mode = referee.one_of(action.get("mode", "aimed"), "the kind of fire", ("aimed", "suppressive"))
    cover = Cover(referee.one_of(action.get("cover", "none"), "the cover", tuple(c.value for c in Cover)))
    unseen = referee.flag(action.get("unseen", False), "unseen")
    _check_fire(state, shooter, targets, mode)
    out: dict[str, Any] = {"type": "shoot"}
    if shooter is not None:
        out["shooter"] = shooter
    out.update(targets=targets, mode=mode, cover=cover.value, unseen=unseen)
    c = state.combatants[shooter] if shooter is not None else None
    if c is not None and c.has(Trait.SEMI_AUTOMATIC):
        out["semi"] = referee.one_of(action.get("semi", "hit"), "the semi-automatic choice", ("hit", "damage"))
    elif "semi" in action:
        raise ActionError("Only a semi-automatic weapon picks +1 to hit or damage (CS-11)")
    if unseen_shooter:
        if "dice" in action:
            raise ActionError("An unseen shooter's fire gives its results, not dice")
        if "results" not in action:
            raise ActionError("A spectator's copy gives an unseen shooter's results")
    elif "results" in action:
        raise ActionError("Only an unseen shooter's fire gives results instead of dice")
    if state.facts and shooter is not None and "dice" not in action:
        raise RuleError("CS-8", "this is a spectator's copy: it shows the game, it cannot roll")
    if shooter is not None and "dice" not in action and state.settings.get("dice") == DICE_TABLE:
        raise RuleError("HR-CS-7", "this game is played with your own dice: enter the dice of the shot")
    if not state.facts and "dice" in action and state.settings.get("dice") != DICE_TABLE:  # issue 35
        raise RuleError("HR-CS-7", _APP_DICE)
    rolls = action.get("dice", action.get("results"))
    if rolls is not None:
        if isinstance(rolls, (str, bytes)) or not isinstance(rolls, (list, tuple)) or len(rolls) != len(targets):
            raise ActionError("The dice must give one set of rolls per target")
        _, canon, _ = _fire(state, shooter, targets, mode, cover, unseen, out.get("semi"), rolls, None)
        out["results" if unseen_shooter else "dice"] = canon
    moves = not state.legacy
    if "hidden_next" in action and not moves:
        raise ActionError("Under the earlier rules a shot does not end a turn ('hidden_next' is for a move on)")
    _hidden_next(state, action, out, state.unseen_cards)
    return out


def _fire(state: ConsimState, shooter: int | None, targets: Sequence[int], mode: str, cover: Cover, unseen: bool,
          semi: str | None, rolls: Sequence[Any] | None, rng: random.Random | None
          ) -> tuple[list[Status], list[Any], list[ShotTarget]]:
    """CS-7 … CS-11: resolve fire at each target: ``(statuses, canonical rolls, results)``.

    ``rolls`` (recorded dice, or an unseen shooter's results) must give exactly what the
    fire needs, no more; without them ``rng`` rolls."""
    statuses = list(state.statuses)
    canon: list[Any] = []
    results: list[ShotTarget] = []
    c = state.combatants[shooter] if shooter is not None else None
    hmod = hit_modifier(c, semi) if c is not None else 0
    dmod = damage_modifier(c, semi) if c is not None else 0
    lenient = state.legacy  # the earlier referee ignored rolls a shot did not need
    for n, t in enumerate(targets):
        name = state.combatants[t].name
        given = rolls[n] if rolls is not None else None
        if state.facts and t in state.hidden:
            if given is not None:
                raise ActionError(f"A spectator's copy shows nothing of fire at {name}: its dice are null")
            canon.append(None)
            continue
        if rolls is not None and not isinstance(given, Mapping):
            raise ActionError(f"The rolls for {name} must be an object")
        used: dict[str, Any] = {}

        def roll(key: str, sides: int, count: int = 1) -> int:
            if given is None:
                if not isinstance(rng, random.Random):
                    raise ArgumentError("step needs the game's random generator to roll (or recorded dice)")
                value = sum(rng.randint(1, sides) for _ in range(count))
            else:
                if key not in given:
                    call = DieCall(n, t, key, count, sides)
                    raise _MissingRoll(f"The dice entered for {name} lack "
                                       f"{_ROLL_WORDS[key].format(dice=call.dice)}: roll it and enter it", call)
                value = _whole(given[key], f"the {key} roll for {name}", count, count * sides)
            used[key] = value
            return value

        before = statuses[t].condition
        st = replace(statuses[t], fired_on=True)
        if c is None:  # an unseen shooter (a spectator's copy): the results the table saw
            hit = referee.flag(given.get("hit"), f"the hit on {name}")
            used["hit"] = hit
            miss_ticks = _base_ticks(unseen, mode == "suppressive" and not hit)
            ticks = _whole(given.get("suppression"), f"the suppression {name} took", 1, 3 * miss_ticks)
            if ticks % miss_ticks:
                raise RuleError("CS-7", f"{name} cannot take {ticks} suppression from this fire "
                                        f"({miss_ticks}, ×2 or ×3 from a vehicle weapon)")
            used["suppression"] = ticks
            d10 = d6 = None
            wound = None
            if hit:
                wound = WoundStatus(referee.one_of(given.get("wound"), f"the wound of {name}",
                                                   tuple(w.value for w in WoundStatus)))
                used["wound"] = wound.value
            text = f"{name}: " + ("hit (CS-8). " if hit else "")
        else:
            d10 = roll("d10", 10)
            hit = _aimed_hits(d10, hmod, cover) if mode == "aimed" else d10 == 10
            ticks = suppression_caused(c, unseen=unseen, suppressive_miss=(mode == "suppressive" and not hit))
            if mode == "aimed":
                text = f"{name}: d10 {d10} + {hmod} = {d10 + hmod} vs {cover.needed}+ {cover.label}: "
            else:
                text = f"{name}: d10 {d10} (suppressive fire hits on a 10): "
            d6 = wound = None
            if hit:
                d6 = roll("d6", 6)
                wound = wound_status(d6 + dmod)
                text += f"hit (CS-8). d6 {d6} + {dmod} = {d6 + dmod}: "
        st = replace(st, suppression=st.suppression + ticks)
        countdown = None
        if hit:
            dice = _needs_countdown(st.condition, wound)
            if dice:
                if c is None and "countdown" not in given:
                    raise ActionError(f"The results for {name} lack the countdown roll ({dice}d6, CS-13)")
                countdown = roll("countdown", 6, dice)
                used["countdown"] = countdown
            st, what = apply_wound(st, wound, state.round, countdown)
            text += f"{what}. +{ticks} suppression from the fire (CS-7)."
        else:
            extra = ", +1 for suppressive fire: CS-9" if mode == "suppressive" else ""
            text += f"miss. +{ticks} suppression (CS-7{extra})."
        if given is not None and not lenient:
            extra_keys = sorted(key_text(k) for k in given if k not in used)
            if extra_keys:
                raise ActionError(f"The record for {name} gives a {extra_keys[0][:40]} the fire did not need")
        statuses[t] = st
        canon.append({k: used[k] for k in (_RESULT_KEYS if c is None else _ROLL_KEYS) if k in used})
        results.append(ShotTarget(t, d10, hmod if mode == "aimed" and c is not None else 0,
                                  cover.needed if mode == "aimed" else None, hit, d6, dmod, wound,
                                  st.suppression - state.statuses[t].suppression, before, st.condition,
                                  countdown, text, ticks))
    return statuses, canon, results


def _norm_end_round(state: ConsimState, action: Mapping[str, Any]) -> dict[str, Any]:
    """CS-12/CS-13: the end of the round; the recorded countdown dice, exactly those needed."""
    referee.only(action, optional=("dice",))
    if state.phase != "round":
        raise RuleError("CS-12", "no round is on")
    dice = action.get("dice", {})
    if not isinstance(dice, Mapping):
        raise ActionError("The countdown dice must map combatant numbers to rolls")
    if dice and not state.facts and state.settings.get("dice") != DICE_TABLE:  # issue 35: the seed rolls
        raise RuleError("HR-CS-7", _APP_DICE)
    need = list(countdowns_due(state))
    out: dict[str, Any] = {"type": "end_round"}
    canon: dict[str, int] = {}
    for key, value in dice.items():
        index = _key_index(state, key, "Countdown dice")
        name = state.combatants[index].name
        if index not in need:
            raise RuleError("CS-13", f"{name} starts no DYING countdown at the end of round {state.round}: "
                                     "no die to roll for it")
        canon[key] = _whole(value, f"the DYING countdown of {name}", 1, 6)
    if state.facts and set(need) - {int(k) for k in canon}:
        missing = state.combatants[min(set(need) - {int(k) for k in canon})].name
        raise RuleError("CS-13", f"this is a spectator's copy: the countdown of {missing} must be recorded")
    if canon and set(need) - {int(k) for k in canon}:
        missing = state.combatants[min(set(need) - {int(k) for k in canon})].name
        raise ActionError(f"The recorded countdown dice lack {missing}'s (all or none are recorded)")
    if need and not canon and state.settings.get("dice") == DICE_TABLE:
        raise RuleError("HR-CS-7", f"this game is played with your own dice: enter the DYING countdown "
                                   f"(1d6) of {state.combatants[need[0]].name}")
    if canon:
        out["dice"] = {k: canon[k] for k in sorted(canon, key=int)}
    return out


def _turns_dying(st: Status) -> bool:
    """CS-13: an untreated INJURED whose countdown runs out now turns DYING (a 1d6 roll)."""
    return st.condition is Condition.INJURED and not st.treated and st.countdown is not None and st.countdown <= 1


def _norm_treat(state: ConsimState, action: Mapping[str, Any]) -> dict[str, Any]:
    """CS-10/CS-13: treatment of an INJURED, first aid for a DYING combatant."""
    referee.only(action, ("combatant",))
    kind = action["type"]
    who = _who(state, action["combatant"], "the combatant")
    if state.facts and who in state.hidden:
        raise ActionError("A spectator's copy shows nothing of a hidden combatant")
    st = state.statuses[who]
    name = state.combatants[who].name
    if kind == "treat":
        if st.condition is not Condition.INJURED:
            raise RuleError("CS-13", f"only an INJURED combatant is treated ({name} is {st.condition.label})")
        if st.treated:
            raise RuleError("CS-13", f"{name} is already treated")
    else:
        if st.condition is not Condition.DYING:
            raise RuleError("CS-13", f"first aid is for a DYING combatant ({name} is {st.condition.label})")
        if st.first_aid:
            raise RuleError("CS-13", f"{name} already has first aid")
    return {"type": kind, "combatant": who}


def _norm_privacy(state: ConsimState, action: Mapping[str, Any]) -> dict[str, Any]:
    referee.only(action, ("hide",))
    hide = referee.flag(action["hide"], "hide")
    if state.facts:
        raise ActionError("A spectator's copy keeps what its sender hid")
    return {"type": "privacy", "hide": hide}


_NORMALIZE = {"deal": _norm_deal, "next": _norm_next, "long": _norm_long, "shoot": _norm_shoot,
              "end_round": _norm_end_round, "treat": _norm_treat, "first_aid": _norm_treat,
              "privacy": _norm_privacy}


# ---------------------------------------------------------------------------
# Taking an action


def _set(items: tuple, index: int, value: Any) -> tuple:
    return items[:index] + (value,) + items[index + 1:]


def _log(state: ConsimState, text: str, *who: int) -> tuple[LogEntry, ...]:
    return state.log + (LogEntry(state.round, text, tuple(who)),)


def _move_on(state: ConsimState, action: Mapping[str, Any]) -> ConsimState:
    """CS-5: the current turn is over (an unseen one in a spectator's copy); who acts next."""
    if state.unseen_acting:
        return replace(state, unseen_acting=bool(action.get("hidden_next")))
    cur = _current(state)
    turns = state.turns if cur is None else _set(state.turns, cur, replace(state.turns[cur], done=True))
    return replace(state, turns=turns, unseen_acting=bool(action.get("hidden_next")))


def _do_deal(state: ConsimState, action: Mapping[str, Any], rng: random.Random | None) -> ConsimState:
    surprised = tuple(action.get("surprised", ()))
    recorded = None
    if "cards" in action:
        recorded = {int(k): tuple(parse_card(t) for t in v) for k, v in action["cards"].items()}
    ticks = _ticks(state, action)
    hands, nothing = _deal_hands(state, ticks, surprised, recorded, rng)
    statuses = tuple(replace(st, no_cards_next=False) if st.no_cards_next else st for st in state.statuses)
    turns = tuple(Turn(card, i) for card, i in sorted(
        ((card, i) for i, hand in enumerate(hands) if hand is not None for card in hand.kept),
        key=lambda x: (-int(x[0].rank), _SUIT_RANK[x[0].suit])))
    round_ = state.round + 1
    unseen = action.get("hidden_cards", 0)
    advantages = tuple(tuple(action.get("advantages", {}).get(str(i), ())) for i in range(len(state.combatants)))
    new = replace(state, round=round_, phase="round", hands=tuple(hands), turns=turns, statuses=statuses,
                  nothing=tuple(nothing), surprised=surprised, last_shot=None, unseen_cards=unseen,
                  unseen_acting=bool(action.get("hidden_next")), advantages=advantages)
    dealt = sum(len(h.dealt) for h in hands if h is not None)
    lost = sum(len(h.lost) for h in hands if h is not None)
    if state.facts and state.hidden:
        text = f"Round {round_}: {_plural(len(turns) + unseen, 'card')} to act"
        if unseen:
            text += f" ({unseen} of them the Observer's hidden combatants')"
        if lost:
            text += f"; {lost} of the cards shown struck for suppression and wounds (CS-3)"
    else:
        text = f"Round {round_}: {_plural(dealt, 'card')} dealt"
        if lost:
            text += f", {lost} struck for suppression and wounds (CS-3): {len(turns)} to act"
    if surprised:
        text += f"; {', '.join(state.sides[s] for s in surprised)} surprised (CS-4)"
    if nothing:
        names = ", ".join(state.combatants[i].name for i in nothing)
        text += f". The deck ran out (CS-6): {names} got {'nothing' if len(nothing) == 1 else 'nothing or too few'}"
    return replace(new, log=_log(new, text + "."))


def _do_long(state: ConsimState, action: Mapping[str, Any]) -> ConsimState:
    """CS-5: a long action spends several cards and acts at the rank of the lowest."""
    who = action["combatant"]
    cards = [parse_card(t) for t in action["cards"]]
    picked = [next(i for i, t in enumerate(state.turns) if t.card == card and t.combatant == who and not t.done)
              for card in cards]
    lowest = max(picked, key=lambda i: initiative_key(state.turns[i].card))
    spent = tuple(c for i in picked if i != lowest for c in (state.turns[i].card, *state.turns[i].spent))
    turns = list(state.turns)
    turns[lowest] = replace(turns[lowest], spent=turns[lowest].spent + tuple(initiative_order(spent)))
    turns = [t for i, t in enumerate(turns) if i == lowest or i not in picked]
    name = state.combatants[who].name
    new = replace(state, turns=tuple(turns), unseen_acting=bool(action.get("hidden_next")), last_shot=None)
    text = (f"{name}: long action on {', '.join(c.label for c in cards)}, "
            f"acts at the {state.turns[lowest].card.label} (CS-5).")
    return replace(new, log=_log(new, text, who))


def _do_shoot(state: ConsimState, action: Mapping[str, Any], rng: random.Random | None) -> ConsimState:
    """CS-7 … CS-11: one shooter fires aimed or suppressive at one or more targets; the
    shot is its card's action (CS-5): the turn moves on."""
    shooter = action.get("shooter")
    targets = list(action["targets"])
    mode, cover, unseen = action["mode"], Cover(action["cover"]), action["unseen"]
    semi = action.get("semi")
    rolls = action.get("dice", action.get("results"))  # a copy's shot always has them (normalize_action)
    statuses, _, results = _fire(state, shooter, targets, mode, cover, unseen, semi, rolls, rng)
    hidden = tuple(t for t in targets if state.facts and t in state.hidden)
    shot = Shot(shooter, mode, cover, unseen, semi, tuple(results), hidden)
    how = "aimed shot" if mode == "aimed" else ("suppressive fire on an area" if len(targets) > 1 else
                                                "suppressive fire")
    extras = [x for x in ("not seen by the target (CS-7)" if unseen else "",
                          f"semi-automatic for +1 {semi} (CS-11)" if semi else "") if x]
    who = "An unseen shooter" if shooter is None else state.combatants[shooter].name
    head = f"{who}: {how}" + (f", {', '.join(extras)}" if extras else "") + "."
    parts = [r.text for r in results]
    if hidden:
        names = ", ".join(state.combatants[t].name for t in hidden)
        parts.append(f"At {names}: the result is hidden.")
    new = replace(state, statuses=tuple(statuses), last_shot=shot)
    new = replace(new, log=_log(new, head + " " + " ".join(parts), *[r.target for r in results]))
    if state.legacy:
        return new
    return _move_on(new, action)


def _do_end_round(state: ConsimState, action: Mapping[str, Any], rng: random.Random | None) -> ConsimState:
    """CS-12/CS-13/HR-CS-1: suppression reset, countdowns tick and fire, stuns wear off.

    CS-13: the round a condition starts counts as its first (a countdown of 1 runs out
    at the end of that round); a DYING that starts now counts from the next round."""
    dice = action.get("dice", {})
    statuses = list(state.statuses)
    notes = []
    for i, st in enumerate(statuses):
        name = state.combatants[i].name
        if not st.fired_on and st.suppression:
            notes.append((f"{name} was not fired on: suppression {st.suppression} → 0 (CS-12)", i))
            st = replace(st, suppression=0)
        if st.fired_on:
            st = replace(st, fired_on=False)
        if st.condition is Condition.STUNNED and st.stunned_until is not None and st.stunned_until <= state.round:
            st = replace(st, condition=Condition.OK, stunned_until=None)
            notes.append((f"{name} is no longer stunned (HR-CS-1)", i))
        running = (st.condition is Condition.INJURED and not st.treated) or (
            st.condition is Condition.DYING and not st.first_aid)
        if running and st.countdown is not None:
            left = st.countdown - 1
            if left > 0:
                st = replace(st, countdown=left)
            elif st.condition is Condition.INJURED:
                if str(i) in dice:  # a copy records every one (normalize_action); its hidden are never hurt
                    roll = dice[str(i)]
                elif not isinstance(rng, random.Random):
                    raise ArgumentError("step needs the game's random generator to roll (or recorded dice)")
                else:
                    roll = rng.randint(1, 6)
                st = replace(st, condition=Condition.DYING, countdown=roll, first_aid=False)
                notes.append((f"{name} was not treated in time: DYING, DEAD in {_plural(roll, 'round')} "
                              "without first aid (CS-10, CS-13)", i))
            else:
                st = replace(st, condition=Condition.DEAD, countdown=None)
                notes.append((f"{name} got no first aid in time: DEAD (CS-10, CS-13)", i))
        statuses[i] = st
    new = replace(state, statuses=tuple(statuses), phase="ready",
                  turns=tuple(replace(t, done=True) for t in state.turns), last_shot=None,
                  unseen_acting=False, unseen_cards=0)
    log = new.log + (LogEntry(state.round, f"Round {state.round} ends.", ()),)
    log += tuple(LogEntry(state.round, text + ".", (i,)) for text, i in notes)
    return replace(new, log=log)


def _do_treat(state: ConsimState, action: Mapping[str, Any]) -> ConsimState:
    who = action["combatant"]
    st = state.statuses[who]
    name = state.combatants[who].name
    if action["type"] == "treat":
        new_st, text = replace(st, treated=True), f"{name} is treated: will not start DYING (CS-10, CS-13)."
    else:
        new_st, text = replace(st, first_aid=True), (f"{name} gets first aid: the countdown stops; serious "
                                                     "medical care must follow (CS-10, CS-13).")
    new = replace(state, statuses=_set(state.statuses, who, new_st))
    return replace(new, log=_log(new, text, who))


def step(state: ConsimState, action: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
         rng: random.Random | None = None) -> ConsimState:
    """The state after ``action`` (see the module docstring). Never mutates ``state``.

    Everything :func:`normalize_action` refuses is refused here too (it is the same check)."""
    state = _state_arg(state)
    action = normalize_action(state, action, rules)
    kind = action["type"]
    if kind == "deal":
        return _do_deal(state, action, rng)
    if kind == "next":
        return replace(_move_on(state, action), last_shot=None)
    if kind == "long":
        return _do_long(state, action)
    if kind == "shoot":
        return _do_shoot(state, action, rng)
    if kind == "end_round":
        return _do_end_round(state, action, rng)
    if kind in ("treat", "first_aid"):
        return _do_treat(state, action)
    return replace(state, privacy=action["hide"])


def _name(state: ConsimState, value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(state.combatants):
        return state.combatants[value].name
    return "?"


def describe(state: ConsimState, action: Mapping[str, Any]) -> str:
    """A short history label of ``action`` taken in ``state`` (never raises for an action)."""
    state = _state_arg(state)
    if not isinstance(action, Mapping):
        return "Unknown action"
    kind = action.get("type")
    prefix = f"Round {state.round} · "
    if kind == "deal":
        label = f"Round {state.round + 1} · deal"
        if state.legacy and state.round == 0:
            label += " (earlier rules: see the log)"
        return label
    if kind == "next":
        if state.unseen_acting:
            return prefix + "the Observer's combatant's turn passes"
        cur = _current(state)
        if cur is None:
            return prefix + "next"
        turn = state.turns[cur]
        return f"{prefix}{_name(state, turn.combatant)} passes ({turn.card.label})"
    if kind == "long":
        return f"{prefix}{_name(state, action.get('combatant'))}: long action"
    if kind == "shoot":
        targets = action.get("targets") if isinstance(action.get("targets"), (list, tuple)) else []
        how = "aims at" if action.get("mode", "aimed") == "aimed" else "suppresses"
        who = _name(state, action.get("shooter")) if "shooter" in action else "an unseen shooter"
        return f"{prefix}{who} {how} {', '.join(_name(state, t) for t in targets)}"
    if kind == "end_round":
        return f"{prefix}end of round"
    if kind == "treat":
        return f"{prefix}{_name(state, action.get('combatant'))} treated"
    if kind == "first_aid":
        return f"{prefix}{_name(state, action.get('combatant'))} first aid"
    if kind == "privacy":
        return f"{prefix}{'hide' if action.get('hide') else 'show'} the Observer's combatants"
    return "Unknown action"


# ---------------------------------------------------------------------------
# Spectator copies (issue 21: hidden means absent)


def _acting_hidden(state: ConsimState, hidden: frozenset[int] | set[int]) -> bool:
    cur = _current(state)
    return cur is not None and state.turns[cur].combatant in hidden


def public_game(game: Game) -> Game:
    """A spectator's copy (``"spectator": true``): only what the table may see.

    No seed and no redo stack: every dealt card and every die becomes a recorded
    fact in its action, so nothing can be re-dealt from the seed. While the
    Observer's privacy is on, the non-player combatants are placeholders ("The
    Observer's combatant 3"): no name, kind, training, weapon, card, status or
    countdown of theirs is in the copy; it says only how many cards they hold in a
    round's order and when one of them acts (``hidden_next``). Their fire is an
    unseen shooter's, given by its results (hit, wound, suppression) without the
    dice that would tell the shooter's training or weapon; fire at them is listed
    without a result. The players' view of the tracker is drawn from this copy.
    """
    return _public(game)[0]


def public_state(game: Game) -> ConsimState:
    """The state of ``game``'s spectator copy (:func:`public_game`) at its end: everything
    the players may see now, made in one pass (the players' view draws it)."""
    return _public(game)[1]


def _public(game: Game) -> tuple[Game, ConsimState]:
    from .game import is_spectator, replay, system

    if not isinstance(game, Game) or game.kind != KIND:
        raise ArgumentError(f"public_game takes a game of kind {KIND!r}")
    if is_spectator(game):
        copy = replace(game, actions=game.actions[: game.position], position=game.position, _tip=None)
        return copy, replay(copy)
    mod = system(game.kind)
    rng = random.Random(game.seed)
    state = mod.start(game.setup, game.rules, rng)
    actions = game.actions[: game.position]
    states = [state]
    for action in actions:
        state = mod.step(state, action, game.rules, rng)
        states.append(state)
    final = states[-1]
    hidden = frozenset(i for i in range(len(final.combatants)) if _hidden(final, i))
    setup = normalize_setup(game.setup)
    numbers = {i: n for n, i in enumerate(sorted(hidden), start=1)}
    setup["combatants"] = [_hidden_entry(numbers[i], c["side"]) if i in hidden else c
                           for i, c in enumerate(setup["combatants"])]
    setup.update(spectator=True, hidden=sorted(hidden), privacy=final.privacy)
    copy_state = start(setup, game.rules)
    kept: list[dict[str, Any]] = []

    def emit(action: dict[str, Any], after: ConsimState, moves: bool = True) -> None:
        nonlocal copy_state
        if moves and _acting_hidden(after, hidden):
            action["hidden_next"] = True
        copy_state = step(copy_state, action, game.rules)
        kept.append(action)

    for action, before, after in zip(actions, states, states[1:]):
        kind = action.get("type")
        if kind == "deal":
            out: dict[str, Any] = {"type": "deal"}
            adv = {k: list(v) for k, v in action.get("advantages", {}).items() if int(k) not in hidden}
            if adv:
                out["advantages"] = adv
            if action.get("surprised"):
                out["surprised"] = list(action["surprised"])
            out["cards"] = {str(i): [c.token for c in h.dealt] for i, h in enumerate(after.hands)
                            if i not in hidden and h is not None and h.dealt}
            unseen = sum(len(after.hands[i].kept) for i in hidden)
            if unseen:
                out["hidden_cards"] = unseen
            emit(out, after)
        elif kind == "next":
            emit({"type": "next"}, after)
        elif kind == "long":
            if action["combatant"] not in hidden:
                emit({"type": "long", "combatant": action["combatant"], "cards": list(action["cards"])}, after)
            elif copy_state.unseen_acting != _acting_hidden(after, hidden) or not final.legacy:
                emit({"type": "next"}, after)
        elif kind == "shoot":
            shot = after.last_shot
            by = {r.target: r for r in shot.targets}
            public = [t for t in action["targets"] if t not in hidden]
            moves = not final.legacy
            if shot.shooter not in hidden:
                out = {"type": "shoot", "shooter": shot.shooter, "targets": list(action["targets"]),
                       "mode": shot.mode, "cover": shot.cover.value, "unseen": shot.unseen,
                       "dice": [None if t in hidden else {k: v for k, v in (("d10", by[t].d10), ("d6", by[t].d6),
                                                                          ("countdown", by[t].countdown))
                                                          if v is not None} for t in action["targets"]]}
                if shot.semi:
                    out["semi"] = shot.semi
                emit(out, after, moves)
            elif public:
                results = []
                for t in action["targets"]:
                    if t in hidden:
                        results.append(None)
                        continue
                    r = by[t]
                    entry: dict[str, Any] = {"hit": r.hit}
                    if r.hit:
                        entry["wound"] = r.wound.value
                    entry["suppression"] = r.fire
                    if r.countdown is not None:
                        entry["countdown"] = r.countdown
                    results.append(entry)
                emit({"type": "shoot", "targets": list(action["targets"]), "mode": shot.mode,
                      "cover": shot.cover.value, "unseen": shot.unseen, "results": results}, after, moves)
            elif moves:
                emit({"type": "next"}, after)
        elif kind == "end_round":
            out = {"type": "end_round"}
            dice = {str(i): after.statuses[i].countdown for i in range(len(after.combatants))
                    if i not in hidden and _turns_dying(before.statuses[i])}
            if dice:
                out["dice"] = dice
            emit(out, after, moves=False)
        elif kind in ("treat", "first_aid"):
            if action["combatant"] not in hidden:
                emit({"type": kind, "combatant": action["combatant"]}, after, moves=False)
    return replace(game, seed=0, setup=setup, actions=tuple(kept), position=len(kept), _tip=None), copy_state


# ---------------------------------------------------------------------------
# Games saved by earlier versions


def upgrade(data: Mapping[str, Any]) -> dict[str, Any]:
    """A game saved before save schema 3 (or a "2" link), made to replay as it was played.

    * A game with a shot or a long action was played before the CS-3 and CS-5 rulings:
      it gets ``"legacy": true`` and keeps the earlier reading (:data:`LEGACY_RULES`;
      its log and history say so).
    * A spectator's copy of that time (``"facts": true``) is marked ``"spectator": true``;
      its hidden combatants become placeholders, and their shots become an unseen
      shooter's results (the earlier copies named them and gave their dice).

    ``data`` is unchecked JSON: what cannot be read is left as it is, for the checks
    that follow to refuse with their reasons.
    """
    if not isinstance(data, Mapping):
        raise ArgumentError(f"upgrade takes a saved game as an object (got {_shown(data)})")
    out = dict(data)
    setup, actions = out.get("setup"), out.get("actions")
    if not isinstance(setup, Mapping) or not isinstance(actions, (list, tuple)):
        return out
    setup = dict(setup)
    actions = [dict(a) if isinstance(a, Mapping) else a for a in actions]
    if any(isinstance(a, dict) and a.get("type") in ("shoot", "long") for a in actions):
        setup["legacy"] = True
    facts = setup.pop("facts", False)
    if facts is True:
        setup["spectator"] = True
        try:
            _scrub_copy(setup, actions)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            return out  # an earlier copy that does not read: the checks that follow say why
    elif setup.get("hidden") == []:
        setup.pop("hidden")
    out["setup"] = setup
    out["actions"] = actions
    return out


def _scrub_copy(setup: dict[str, Any], actions: list[Any]) -> None:
    """An earlier spectator's copy, without what it should never have held."""
    hidden = setup.get("hidden", [])
    if not isinstance(hidden, list) or not all(isinstance(h, int) and not isinstance(h, bool) for h in hidden):
        raise ValueError("hidden")
    hidden = sorted(set(hidden))
    roster = normalize_setup({"sides": setup["sides"], "combatants": setup["combatants"]})["combatants"]
    people = [_combatant(c) for c in roster]
    for action in actions:
        if isinstance(action, dict) and action.get("type") == "shoot" and action.get("shooter") in hidden:
            _as_unseen_shot(action, people[action["shooter"]])
    numbers = {i: n for n, i in enumerate(hidden, start=1)}
    setup["combatants"] = [_hidden_entry(numbers[i], c["side"]) if i in numbers else c for i, c in enumerate(roster)]
    setup["hidden"] = hidden


def _as_unseen_shot(action: dict[str, Any], shooter: Combatant) -> None:
    """An earlier copy's shot by a hidden shooter, as an unseen shooter's results."""
    mode = action.get("mode", "aimed")
    cover = Cover(action.get("cover", "none"))
    unseen = action.get("unseen", False) is True
    semi = _semi(shooter, action.get("semi"))
    hmod, dmod = hit_modifier(shooter, semi), damage_modifier(shooter, semi)
    results = []
    for rolls in action.get("dice") or []:
        d10 = rolls.get("d10")
        hit = _aimed_hits(d10, hmod, cover) if mode == "aimed" else d10 == 10
        entry: dict[str, Any] = {"hit": hit}
        if hit:
            entry["wound"] = wound_status(rolls["d6"] + dmod).value
        entry["suppression"] = suppression_caused(shooter, unseen=unseen,
                                                  suppressive_miss=mode == "suppressive" and not hit)
        if hit and "countdown" in rolls:
            entry["countdown"] = rolls["countdown"]
        results.append(entry)
    for key in ("shooter", "dice", "semi"):
        action.pop(key, None)
    action["results"] = results


def replay_work(setup: Mapping[str, Any], actions: Iterable[Any]) -> int:
    """Issue 30: the work of replaying ``actions`` (see :func:`engine.game.replay_work`):
    a deal, a turn or a shot costs about 80 plus half a unit a combatant (measured with
    the largest legal rosters, tests/maxgames.py, ``make bench``)."""
    listed = setup.get("combatants") if isinstance(setup, Mapping) else None
    combatants = min(len(listed), _MAX_COMBATANTS) if isinstance(listed, (list, tuple)) else 0
    return sum(1 for _ in actions) * (80 + combatants // 2)
