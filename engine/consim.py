"""CONSIM: card initiative, suppression, shooting and wounds (RULES.md section 3, CS-1 … CS-13).

The Observer (game master) keeps a roster of combatants — individuals, squads or
vehicles (CS-1) — on two or more sides. Every round each combatant is dealt cards
from one shuffled deck (CS-2, CS-6); suppression costs the highest cards (CS-3),
a surprised side gets none (CS-4), wounds take more (CS-10). Everyone then acts in
card order, aces high, spades > hearts > diamonds > clubs (CS-5). Shooting is an
aimed shot or suppressive fire (CS-8, CS-9): the target takes suppression (CS-7),
a hit rolls a wound (CS-10) whose countdowns the app keeps (CS-13); a combatant
that was not fired on for a round sheds its suppression (CS-12).

The module has three layers:

* pure rule functions on values — :func:`initiative_order`, :func:`wound_status`,
  :func:`cards_due`, :func:`to_hit_target`, :func:`hit_modifier`,
  :func:`damage_modifier`, :func:`suppression_caused`, :func:`hit_chance`,
  :func:`wound_distribution`, :func:`shot_odds`, :func:`apply_wound` — each
  docstring starts with its RULES.md id; odds are exact :class:`~fractions.Fraction` s;
* the session protocol of :mod:`engine.game` (``KIND``, ``VARIANTS``,
  :func:`normalize_setup`, :func:`start`, :func:`step`, :func:`describe`,
  :func:`public_game`) over an immutable :class:`ConsimState`;
* helpers for the tracker (:func:`status`, :func:`current_turn`, :func:`is_hidden`,
  :func:`check_shot` …).

Setup (plain JSON)::

    {"sides": ["Blue", "Red"],
     "combatants": [{"name": "Rifleman 1", "side": 0, "grain": "individual",
                     "training": "trained", "weapon": ["semi-automatic"], "player": false}],
     "privacy": true,     # the Observer hides non-player combatants' cards and statuses
     "facts": false,      # a spectator copy: cards and dice come from the actions
     "hidden": []}        # (spectator copy) combatants whose cards and status are not shown

Actions (plain JSON dicts):

* ``{"type": "deal", "advantages": {"0": ["firepower", "position"]}, "surprised": [1]}``
  — a new round (CS-2, CS-3, CS-4, CS-6); optional ``"cards": {"0": ["AS", "9H"]}``
  gives the dealt cards as recorded facts instead of shuffling;
* ``{"type": "next"}`` — the current actor has acted (CS-5);
* ``{"type": "long", "combatant": 3, "cards": ["KS", "5H"]}`` — a long action spends
  several of one combatant's cards and acts at the lowest (CS-5);
* ``{"type": "shoot", "shooter": 0, "targets": [4, 5], "mode": "aimed" | "suppressive",
  "cover": "none" | "cover" | "good", "unseen": false, "semi": "hit" | "damage"}``
  (CS-7 … CS-11); optional ``"dice": [{"d10": 7, "d6": 3, "countdown": 8}, …]`` per
  target gives the rolls instead of the app's generator;
* ``{"type": "end_round"}`` — suppression reset (CS-12), countdowns (CS-13), stun
  ends; optional ``"dice": {"4": 3}`` gives countdown rolls;
* ``{"type": "treat", "combatant": 4}`` — an INJURED combatant is treated (CS-10, CS-13);
* ``{"type": "first_aid", "combatant": 4}`` — a DYING combatant gets first aid;
* ``{"type": "privacy", "hide": true}`` — hide / show non-player combatants.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Sequence

from .cards import Card, CardError, Suit, parse_card, shuffled_deck
from .game import ActionError, Game, RuleError
from .rules import Variant, resolve_rules
from .text import setup_text

__all__ = [
    "KIND", "VARIANTS", "HOUSE_RULES", "RULINGS", "ADVANTAGES", "SetupError",
    "Training", "Trait", "Grain", "Cover", "Condition", "WoundStatus",
    "Combatant", "Status", "Turn", "DealtHand", "ShotTarget", "Shot", "LogEntry", "ShotOdds",
    "ConsimState", "initiative_order", "initiative_key", "wound_status", "cards_due",
    "to_hit_target", "hit_modifier", "damage_modifier", "suppression_multiplier",
    "suppression_caused", "hit_chance", "wound_distribution", "shot_odds", "apply_wound",
    "normalize_setup", "start", "step", "describe", "public_game", "status",
    "current_turn", "is_hidden", "check_shot", "can_act",
]

KIND = "initiative"

#: What a spectator link (:func:`public_game`) shows, in the Share drawer's words.
SPECTATOR_VIEW = "the roster, statuses, the acting order, the dice and the log. No seed, and nothing the Observer's privacy hides."


class SetupError(ValueError):
    """A roster that cannot be used (the message names the field)."""


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

VARIANTS: tuple[Variant, ...] = (
    Variant(
        key="pulp",
        rule_id="CS-3",
        label="Pulp",
        choices=((False, "Suppression and injury can take a player character's last card"),
                 (True, "Player characters never drop below 1 card through suppression or injury")),
        default=False,
        explanation="The source's option “for a pulpier game”. Stunned, dying or surprised "
                    "combatants still get no cards (HR-CS-4).",
    ),
)

#: House rules of this app where RULES.md is silent (id → text). Shown with a marker.
HOUSE_RULES: Mapping[str, str] = MappingProxyType({
    "HR-CS-1": "STUNNED lasts until the end of the next round (the round it gets no cards). "
               "A STUN while still stunned is the “second STUN”: the target becomes INJURED.",
    "HR-CS-2": "A wound milder than the current condition adds its suppression (and a STUN's lost "
               "round) but does not change the condition; only the “second” rules make it worse.",
    "HR-CS-3": "DYING and DEAD combatants get no cards and do not act; their turns are skipped.",
    "HR-CS-4": "The pulp floor of 1 card protects player characters against suppression and the "
               "INJURED card loss, not against STUN, DYING or surprise (those give no cards at all).",
    "HR-CS-5": "Vehicle multipliers apply to the suppression the fire causes (the shot, unseen, a "
               "suppressive miss), not to the +3/+5 suppression of a wound.",
})

#: RULES.md clauses that are rulings (the app's reading where the source is silent).
RULINGS: tuple[str, ...] = ("CS-6", "CS-13")

_SUIT_RANK = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.DIAMONDS: 2, Suit.CLUBS: 3}
_MAX_COMBATANTS = 120
_MAX_SIDES = 8
_NAME_MAX = 40


def _quote(value: object) -> str:
    return '"' + value + '"' if isinstance(value, str) else repr(value)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _pct(value: Fraction) -> str:
    return f"{float(value) * 100:.0f}%"


@dataclass(frozen=True)
class Combatant:
    """CS-1: one roster line: an individual, squad or vehicle of a side."""

    name: str
    side: int
    grain: Grain = Grain.INDIVIDUAL
    training: Training = Training.UNTRAINED
    weapon: frozenset[Trait] = frozenset()
    player: bool = False

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
    CS-6); ``lost`` are the highest ones suppression took (CS-3); ``kept`` act.
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
    """The outcome of fire at one target (CS-7 … CS-10)."""

    target: int
    d10: int
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


@dataclass(frozen=True)
class Shot:
    shooter: int
    mode: str
    cover: Cover
    unseen: bool
    semi: str | None
    targets: tuple[ShotTarget, ...]


@dataclass(frozen=True)
class LogEntry:
    """One line of the round log. ``text`` cites rule ids; ``who`` the combatants whose cards or
    status it tells (a shot's targets, not its shooter), so privacy can leave it out."""

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

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self.rules)


# ---------------------------------------------------------------------------
# Pure rule functions


def initiative_key(card: Card) -> tuple[int, int]:
    """CS-5: sort key, first to act first: aces high, then spades > hearts > diamonds > clubs."""
    return (-int(card.rank), _SUIT_RANK[card.suit])


def initiative_order(cards: Iterable[Card]) -> list[Card]:
    """CS-5: the acting order of ``cards``: descending rank (aces high), ties by suit ♠ > ♥ > ♦ > ♣."""
    return sorted(cards, key=initiative_key)


_WOUNDS = ((2, WoundStatus.STUN), (4, WoundStatus.INJURE), (5, WoundStatus.DYING))


def wound_status(total: int) -> WoundStatus:
    """CS-10: the wound table for 1d6 + damage: ≤2 STUN, 3–4 INJURE, 5 DYING, 6+ DEAD."""
    if not isinstance(total, int) or isinstance(total, bool):
        raise TypeError("the wound roll must be a whole number")
    for top, result in _WOUNDS:
        if total <= top:
            return result
    return WoundStatus.DEAD


def cards_due(advantages: int = 0, suppression: int = 0, condition: Condition = Condition.OK, *,
              no_cards: bool = False, surprised: bool = False, player: bool = False,
              pulp: bool = False) -> tuple[int, int, tuple[str, ...]]:
    """CS-2/CS-3/CS-4/CS-10: ``(cards to deal, highest cards suppression takes, reasons)``.

    1 card plus 1 per advantage (CS-2); none when surprised (CS-4), stunned (CS-10,
    a STUN last round), DYING or DEAD (HR-CS-3); one fewer when INJURED (CS-10);
    then every 2 suppression takes the highest card (CS-3). Under the pulp variant
    a player character keeps at least 1 card against injury and suppression (HR-CS-4).
    """
    if not 0 <= advantages <= len(ADVANTAGES):
        raise ValueError(f"CS-2: 0 to {len(ADVANTAGES)} advantages")
    if suppression < 0:
        raise ValueError("suppression is never negative")
    if surprised:
        return 0, 0, ("surprised: no cards (CS-4)",)
    if condition in (Condition.DYING, Condition.DEAD):
        return 0, 0, (f"{condition.label}: no cards (HR-CS-3)",)
    if no_cards:
        return 0, 0, ("stunned: no cards this round (CS-10)",)
    reasons = [f"1 + {advantages} advantage{'s' if advantages != 1 else ''} (CS-2)"] if advantages else [
        "1 card (CS-2)"]
    count = 1 + advantages
    floor = 1 if (pulp and player) else 0
    if condition is Condition.INJURED:
        after = max(count - 1, floor)
        reasons.append("INJURED: one fewer (CS-10)" if after < count else "INJURED, kept 1 (pulp, CS-3)")
        count = after
    drop = min(suppression // 2, max(count - floor, 0))
    if suppression // 2:
        text = f"suppression {suppression}: loses the highest {_plural(suppression // 2, 'card')} (CS-3)"
        if drop < suppression // 2 and count:
            text += f", keeps {count - drop} (pulp)" if floor else ""
        reasons.append(text)
    return count, drop, tuple(reasons)


def to_hit_target(cover: Cover | str) -> int:
    """CS-8: the d10 an aimed shot needs before modifiers: 6+, 7+ in cover, 8+ in good cover."""
    return Cover(cover).needed


def _semi(shooter: Combatant, semi: str | None) -> str | None:
    if shooter.has(Trait.SEMI_AUTOMATIC):
        return semi if semi in ("hit", "damage") else "hit"
    return None


def hit_modifier(shooter: Combatant, semi: str | None = None) -> int:
    """CS-8/CS-11: training (+1 trained, +2 elite), automatic +1, semi-automatic +1 if
    the shooter picks “hit”, explosive +2."""
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
    if shooter.has(Trait.AIR_VEHICLE):
        return 3
    if shooter.has(Trait.GROUND_VEHICLE):
        return 2
    return 1


def suppression_caused(shooter: Combatant, *, unseen: bool = False, suppressive_miss: bool = False) -> int:
    """CS-7/CS-9: suppression fire puts on a target: 1, +2 unseen, +1 for a suppressive
    miss, times the vehicle multiplier (HR-CS-5: wound suppression is added apart)."""
    ticks = 1 + (2 if unseen else 0) + (1 if suppressive_miss else 0)
    return ticks * suppression_multiplier(shooter)


def _aimed_hits(d10: int, modifier: int, cover: Cover) -> bool:
    return d10 + modifier >= cover.needed


def hit_chance(shooter: Combatant, mode: str = "aimed", cover: Cover | str = Cover.NONE,
               semi: str | None = None) -> Fraction:
    """CS-8/CS-9: the exact chance that one shot hits.

    Aimed: P(d10 + modifiers ≥ 6/7/8). Suppressive: a natural 10 only, 1/10.
    """
    if mode == "suppressive":
        return Fraction(1, 10)
    if mode != "aimed":
        raise ValueError(f"CS-8: unknown kind of fire {mode!r} (aimed or suppressive)")
    cover = Cover(cover)
    mod = hit_modifier(shooter, semi)
    return Fraction(sum(1 for d in range(1, 11) if _aimed_hits(d, mod, cover)), 10)


def wound_distribution(damage: int) -> dict[WoundStatus, Fraction]:
    """CS-10: the exact chance of each wound result for 1d6 + ``damage`` (given a hit)."""
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
                    damage, Cover(cover).needed if mode == "aimed" else None)


def apply_wound(status: Status, wound: WoundStatus, round_: int, countdown: int | None = None
                ) -> tuple[Status, str]:
    """CS-10/CS-13: ``status`` after ``wound`` in round ``round_``, and what happened.

    STUN: +3 suppression, no cards next round; a STUN while stunned → INJURED (HR-CS-1).
    INJURE: +3, one card fewer, DYING after the 2d6 ``countdown`` unless treated;
    a second INJURE kills. DYING: +5, DEAD after the 1d6 ``countdown`` without first
    aid; a second DYING kills. DEAD. A worse condition replaces a milder one; a milder
    wound does not change the condition (HR-CS-2). ``countdown`` is the roll for a
    condition that starts now (needed only then).
    """
    cond = status.condition
    if cond is Condition.DEAD:
        return status, "already DEAD"

    def need() -> int:
        if countdown is None or countdown < 1:
            raise ValueError("CS-13: a countdown roll is needed when INJURED or DYING starts")
        return countdown

    def injured() -> Status:
        return replace(status, condition=Condition.INJURED, countdown=need(), treated=False,
                       stunned_until=None)

    if wound is WoundStatus.STUN:
        status = replace(status, suppression=status.suppression + 3, no_cards_next=True)
        if cond is Condition.STUNNED:
            return injured(), "second STUN: INJURED (CS-10, HR-CS-1)"
        if cond is Condition.OK:
            return replace(status, condition=Condition.STUNNED, stunned_until=round_ + 1), \
                "STUNNED: +3 suppression, no cards next round (CS-10)"
        return status, f"+3 suppression, no cards next round; stays {cond.label} (HR-CS-2)"
    if wound is WoundStatus.INJURE:
        status = replace(status, suppression=status.suppression + 3)
        if cond is Condition.INJURED:
            return replace(status, condition=Condition.DEAD, countdown=None), "second INJURE: DEAD (CS-10)"
        if cond in (Condition.OK, Condition.STUNNED):
            new = injured()
            return new, (f"INJURED: +3 suppression, one card fewer, DYING in {new.countdown} rounds "
                         "unless treated (CS-10, CS-13)")
        return status, f"+3 suppression; stays {cond.label} (HR-CS-2)"
    if wound is WoundStatus.DYING:
        status = replace(status, suppression=status.suppression + 5)
        if cond is Condition.DYING:
            return replace(status, condition=Condition.DEAD, countdown=None), "second DYING: DEAD (CS-10)"
        new = replace(status, condition=Condition.DYING, countdown=need(), first_aid=False, treated=False,
                      stunned_until=None)
        return new, f"DYING: +5 suppression, DEAD in {new.countdown} rounds without first aid (CS-10, CS-13)"
    return replace(status, condition=Condition.DEAD, countdown=None), "DEAD (CS-10)"


def _needs_countdown(condition: Condition, wound: WoundStatus) -> int:
    """Sides of the countdown roll a wound starts (0: none): 2d6 for INJURED, 1d6 for DYING."""
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
    try:
        return enum(value).value
    except ValueError:
        allowed = ", ".join(e.value for e in enum)
        raise SetupError(f"{where}: the {what} must be one of {allowed} (got {_quote(value)})") from None


def _bool(value: Any, where: str, what: str) -> bool:
    if not isinstance(value, bool):
        raise SetupError(f"{where}: {what} must be true or false")
    return value


def normalize_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """CS-1: validated, canonical roster JSON (see the module docstring); raises :class:`SetupError`."""
    if not isinstance(setup, Mapping):
        raise SetupError("The roster must be an object with named fields")
    unknown = sorted(str(k) for k in setup if k not in ("sides", "combatants", "privacy", "facts", "hidden"))
    if unknown:
        raise SetupError(f"Roster: unknown field {', '.join(map(_quote, unknown))}")
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
        bad = sorted(str(k) for k in c if k not in ("name", "side", "grain", "training", "weapon", "player"))
        if bad:
            raise SetupError(f"{where}: unknown field {', '.join(map(_quote, bad))}")
        name = _text(c.get("name"), where, "name")
        where = f"Combatant {i + 1} ({name})"
        side = c.get("side", 0)
        if not isinstance(side, int) or isinstance(side, bool) or not 0 <= side < len(side_names):
            raise SetupError(f"{where}: the side must be 0 to {len(side_names) - 1} (got {_quote(side)})")
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
    hidden = setup.get("hidden", [])
    if not isinstance(hidden, (list, tuple)) or not all(
            isinstance(h, int) and not isinstance(h, bool) and 0 <= h < len(out) for h in hidden):
        raise SetupError("Roster: hidden must list combatants by number")
    if hidden and not facts:
        raise SetupError("Roster: only a spectator copy hides combatants outright")
    return {"sides": side_names, "combatants": out, "privacy": privacy, "facts": facts,
            "hidden": sorted(set(hidden))}


def _combatant(raw: Mapping[str, Any]) -> Combatant:
    return Combatant(raw["name"], raw["side"], Grain(raw["grain"]), Training(raw["training"]),
                     frozenset(Trait(t) for t in raw["weapon"]), raw["player"])


def start(setup: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
          rng: random.Random | None = None) -> ConsimState:
    """The tracker before the first deal: everyone fit, no suppression."""
    normal = normalize_setup(setup)
    settings = resolve_rules(VARIANTS, rules)
    combatants = tuple(_combatant(c) for c in normal["combatants"])
    return ConsimState(
        sides=tuple(normal["sides"]), combatants=combatants,
        statuses=tuple(Status() for _ in combatants), rules=tuple(sorted(settings.items())),
        hands=tuple(None for _ in combatants), privacy=normal["privacy"], facts=normal["facts"],
        hidden=frozenset(normal["hidden"]))


# ---------------------------------------------------------------------------
# Helpers for the table


def can_act(state: ConsimState, index: int) -> bool:
    """HR-CS-3: DYING and DEAD combatants do not act."""
    return state.statuses[index].condition not in (Condition.DYING, Condition.DEAD)


def current_turn(state: ConsimState) -> int | None:
    """CS-5: the index in ``state.turns`` of who acts now (``None``: the order is done)."""
    if state.phase != "round":
        return None
    for i, turn in enumerate(state.turns):
        if not turn.done and can_act(state, turn.combatant):
            return i
    return None


def is_hidden(state: ConsimState, index: int) -> bool:
    """Privacy: are this combatant's cards and status hidden from the players' view?

    Non-player combatants are hidden while the Observer's privacy is on; a spectator
    copy hides those its sender hid.
    """
    if index in state.hidden:
        return True
    return state.privacy and not state.combatants[index].player


def status(state: ConsimState) -> str:
    """What the table is waiting for, in one sentence."""
    if state.phase == "ready":
        if state.round == 0:
            return "Tick this round's advantages and surprise, then deal (CS-2, CS-4)."
        return f"Round {state.round} is over. Tick the advantages for round {state.round + 1}, then deal."
    cur = current_turn(state)
    if cur is None:
        return f"Round {state.round}: everyone has acted. End the round (CS-12, CS-13)."
    turn = state.turns[cur]
    who = state.combatants[turn.combatant].name
    long = f" (long action, {len(turn.spent) + 1} cards)" if turn.spent else ""
    return f"Round {state.round}: {who} acts on the {turn.card.label}{long} (CS-5)."


# ---------------------------------------------------------------------------
# Actions

_TYPES = ("deal", "next", "long", "shoot", "end_round", "treat", "first_aid", "privacy")


def _action_type(action: Any) -> str:
    if not isinstance(action, Mapping):
        raise ActionError("An action must be an object with a type")
    kind = action.get("type")
    if kind not in _TYPES:
        raise ActionError(f"Unknown action type: {_quote(kind)} ({', '.join(_TYPES)})")
    return kind


def _index(state: ConsimState, value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < len(state.combatants):
        raise ActionError(f"The {what} must be a combatant number from 0 to {len(state.combatants) - 1}")
    return value


def _cards(value: Any, what: str) -> list[Card]:
    if not isinstance(value, (list, tuple)):
        raise ActionError(f"The {what} must be a list of cards like [\"AS\", \"9H\"]")
    try:
        return [parse_card(t) for t in value]
    except CardError as err:
        raise ActionError(str(err)) from None


def _set(items: tuple, index: int, value: Any) -> tuple:
    return items[:index] + (value,) + items[index + 1:]


def _log(state: ConsimState, text: str, *who: int) -> tuple[LogEntry, ...]:
    return state.log + (LogEntry(state.round, text, tuple(who)),)


def _deal(state: ConsimState, action: Mapping[str, Any], rng: random.Random | None) -> ConsimState:
    """CS-2/CS-3/CS-4/CS-6: a new round: one shuffled deck dealt in roster order."""
    if state.phase == "round":
        raise RuleError("CS-5", f"round {state.round} is still on: end it first")
    advantages = action.get("advantages", {})
    if not isinstance(advantages, Mapping):
        raise ActionError("The advantages must map combatant numbers to lists of advantages")
    ticks = [0] * len(state.combatants)
    for key, items in advantages.items():
        if not isinstance(key, str) or not key.isdigit():
            raise ActionError("The advantages must map combatant numbers to lists of advantages")
        index = _index(state, int(key), "advantage's combatant")
        if not isinstance(items, (list, tuple)) or any(i not in ADVANTAGES for i in items) \
                or len(set(items)) != len(items):
            raise ActionError(f"Advantages are {', '.join(ADVANTAGES)}, each at most once")
        ticks[index] = len(items)
    surprised = action.get("surprised", [])
    if not isinstance(surprised, (list, tuple)) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < len(state.sides) for s in surprised):
        raise ActionError("Surprised must list sides by number")
    surprised = tuple(sorted(set(surprised)))
    recorded = action.get("cards")
    if state.facts and recorded is None:
        raise RuleError("CS-6", "this is a spectator copy: it shows the game, it cannot deal")
    if recorded is not None and not isinstance(recorded, Mapping):
        raise ActionError("The recorded cards must map combatant numbers to lists of cards")
    deck: list[Card] = shuffled_deck(rng) if recorded is None and rng is not None else []
    if recorded is None and rng is None:
        raise ValueError("step needs the game's random generator to deal")
    seen: set[Card] = set()
    pulp = bool(state.settings.get("pulp"))
    round_ = state.round + 1
    hands, statuses, nothing = [], list(state.statuses), []
    for i, (c, st) in enumerate(zip(state.combatants, state.statuses)):
        due, drop, reasons = cards_due(ticks[i], st.suppression, st.condition, no_cards=st.no_cards_next,
                                       surprised=c.side in surprised, player=c.player, pulp=pulp)
        if recorded is not None:
            given = _cards(recorded.get(str(i), []), "recorded cards")
            if len(given) > due or seen & set(given) or len(set(given)) != len(given):
                raise ActionError(f"The recorded cards of combatant {i + 1} do not fit the deal (CS-6)")
            seen |= set(given)
            dealt = tuple(given)
        else:
            dealt, deck = tuple(deck[:due]), deck[due:]
        if len(dealt) < due and i not in state.hidden:
            nothing.append(i)
        if pulp and c.player and dealt:
            drop = min(drop, len(dealt) - 1)
        drop = min(drop, len(dealt))
        ordered = initiative_order(dealt)
        lost, kept = tuple(ordered[:drop]), tuple(ordered[drop:])
        hands.append(DealtHand(due, dealt, lost, kept, reasons))
        if st.no_cards_next:
            statuses[i] = replace(st, no_cards_next=False)
    turns = tuple(Turn(card, i) for card, i in sorted(
        ((card, i) for i, hand in enumerate(hands) for card in hand.kept), key=lambda x: initiative_key(x[0])))
    new = replace(state, round=round_, phase="round", hands=tuple(hands), turns=turns,
                  statuses=tuple(statuses), nothing=tuple(nothing), surprised=surprised, last_shot=None)
    text = f"Round {round_}: {_plural(len(turns), 'card')} dealt"
    if surprised:
        text += f"; {', '.join(state.sides[s] for s in surprised)} surprised (CS-4)"
    if nothing:
        names = ", ".join(state.combatants[i].name for i in nothing)
        text += f". The deck ran out (CS-6): {names} got {'nothing' if len(nothing) == 1 else 'nothing or too few'}"
    return replace(new, log=_log(new, text + "."))


def _next(state: ConsimState) -> ConsimState:
    """CS-5: the current actor has acted; the next card acts."""
    cur = current_turn(state)
    if state.phase != "round":
        raise RuleError("CS-5", "no round is on: deal first")
    if cur is None:
        raise RuleError("CS-5", f"everyone has acted in round {state.round}: end the round")
    return replace(state, turns=_set(state.turns, cur, replace(state.turns[cur], done=True)), last_shot=None)


def _long(state: ConsimState, action: Mapping[str, Any]) -> ConsimState:
    """CS-5: a long action spends several cards and acts at the rank of the lowest."""
    if state.phase != "round":
        raise RuleError("CS-5", "no round is on: deal first")
    who = _index(state, action.get("combatant"), "combatant")
    cards = _cards(action.get("cards"), "cards of a long action")
    if len(cards) < 2 or len(set(cards)) != len(cards):
        raise RuleError("CS-5", "a long action spends at least 2 different cards")
    name = state.combatants[who].name
    picked = []
    for card in cards:
        found = [i for i, t in enumerate(state.turns) if t.card == card and t.combatant == who and not t.done]
        if not found:
            raise RuleError("CS-5", f"{name} has no unplayed {card.label} this round")
        picked.append(found[0])
    lowest = max(picked, key=lambda i: initiative_key(state.turns[i].card))
    spent = tuple(c for i in picked if i != lowest for c in (state.turns[i].card, *state.turns[i].spent))
    turns = list(state.turns)
    turns[lowest] = replace(turns[lowest], spent=turns[lowest].spent + tuple(initiative_order(spent)))
    turns = [t for i, t in enumerate(turns) if i == lowest or i not in picked]
    new = replace(state, turns=tuple(turns))
    text = (f"{name}: long action on {', '.join(c.label for c in initiative_order(cards))}, "
            f"acts at the {state.turns[lowest].card.label} (CS-5).")
    return replace(new, log=_log(new, text, who))


def check_shot(state: ConsimState, shooter: int, targets: Sequence[int], mode: str) -> str | None:
    """CS-5/CS-9/CS-10: why this fire is not allowed (with the rule id), or ``None``."""
    if state.phase != "round":
        return "CS-5: shots are actions in card order: deal the round first"
    c = state.combatants[shooter]
    if not can_act(state, shooter):
        return f"HR-CS-3: {c.name} is {state.statuses[shooter].condition.label} and cannot shoot"
    if mode not in ("aimed", "suppressive"):
        return "CS-8: fire is aimed or suppressive"
    if not targets:
        return "CS-7: pick a target"
    if len(set(targets)) != len(targets):
        return "CS-9: each target once"
    for t in targets:
        if t == shooter:
            return f"CS-7: {c.name} cannot shoot at itself"
        if state.statuses[t].condition is Condition.DEAD:
            return f"CS-10: {state.combatants[t].name} is already DEAD"
    if len(targets) > 1:
        if mode == "aimed":
            return "CS-9: an aimed shot has one target; suppressive fire from an automatic weapon covers an area"
        if not (c.has(Trait.AUTOMATIC) or c.has(Trait.SEMI_AUTOMATIC)):
            return f"CS-9: only automatic and semi-automatic weapons suppress an area ({c.name} has neither)"
    return None


def _die(value: Any, sides: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= sides:
        raise ActionError(f"The {what} must be a whole number from 1 to {sides}")
    return value


def _shoot(state: ConsimState, action: Mapping[str, Any], rng: random.Random | None) -> ConsimState:
    """CS-7 … CS-11: one shooter fires aimed or suppressive at one or more targets."""
    shooter = _index(state, action.get("shooter"), "shooter")
    targets = action.get("targets")
    if not isinstance(targets, (list, tuple)):
        raise ActionError("The targets must be a list of combatant numbers")
    targets = [_index(state, t, "target") for t in targets]
    mode = action.get("mode", "aimed")
    try:
        cover = Cover(action.get("cover", "none"))
    except ValueError:
        raise ActionError("The cover must be none, cover or good") from None
    unseen = action.get("unseen", False)
    if not isinstance(unseen, bool):
        raise ActionError("Unseen must be true or false")
    semi = action.get("semi")
    if semi not in (None, "hit", "damage"):
        raise ActionError("The semi-automatic choice is hit or damage")
    problem = check_shot(state, shooter, targets, mode)
    if problem is not None:
        rule, _, text = problem.partition(": ")
        raise RuleError(rule, text)
    dice = action.get("dice")
    if dice is not None and (not isinstance(dice, (list, tuple)) or len(dice) != len(targets)
                             or not all(isinstance(d, Mapping) for d in dice)):
        raise ActionError("The dice must give one set of rolls per target")
    if dice is None and (state.facts or rng is None):
        raise RuleError("CS-8", "this is a spectator copy: it shows the game, it cannot roll")
    c = state.combatants[shooter]
    semi = _semi(c, semi)
    hmod, dmod = hit_modifier(c, semi), damage_modifier(c, semi)
    statuses = list(state.statuses)
    results = []
    for n, t in enumerate(targets):
        rolls = dice[n] if dice is not None else None

        def roll(key: str, sides: int, count: int = 1) -> int:
            if rolls is not None and key in rolls:
                return _die(rolls[key], sides, f"{key} roll") if count == 1 else \
                    _countdown_die(rolls[key], count, sides)
            if state.facts or rng is None:
                raise ActionError(f"The recorded dice lack the {key} roll")
            return sum(rng.randint(1, sides) for _ in range(count))

        d10 = roll("d10", 10)
        if mode == "aimed":
            hit = _aimed_hits(d10, hmod, cover)
        else:
            hit = d10 == 10
        st = replace(statuses[t], fired_on=True)
        ticks = suppression_caused(c, unseen=unseen, suppressive_miss=(mode == "suppressive" and not hit))
        st = replace(st, suppression=st.suppression + ticks)
        before = statuses[t].condition
        d6 = wound = countdown = None
        name = state.combatants[t].name
        if mode == "aimed":
            text = f"{name}: d10 {d10} + {hmod} = {d10 + hmod} vs {cover.needed}+ {cover.label}: "
        else:
            text = f"{name}: d10 {d10} (suppressive, a 10 hits): "
        if hit:
            d6 = roll("d6", 6)
            wound = wound_status(d6 + dmod)
            sides = _needs_countdown(st.condition, wound)
            if sides:
                countdown = roll("countdown", 6, 2) if sides == 2 else roll("countdown", 6)
            st, what = apply_wound(st, wound, state.round, countdown)
            text += (f"hit (CS-8). d6 {d6} + {dmod} = {d6 + dmod}: {wound.name} (CS-10) — {what}. "
                     f"+{ticks} suppression from the fire (CS-7).")
        else:
            extra = " +1 for suppressive fire (CS-9)" if mode == "suppressive" else ""
            text += f"miss. +{ticks} suppression (CS-7{extra and ', CS-9'})."
        statuses[t] = st
        results.append(ShotTarget(t, d10, hmod if mode == "aimed" else 0, cover.needed if mode == "aimed" else None,
                                  hit, d6, dmod, wound, st.suppression - state.statuses[t].suppression,
                                  before, st.condition, countdown, text))
    shot = Shot(shooter, mode, cover, unseen, semi, tuple(results))
    new = replace(state, statuses=tuple(statuses), last_shot=shot)
    how = "aimed shot" if mode == "aimed" else ("suppressive fire on an area" if len(targets) > 1 else
                                                "suppressive fire")
    extras = [x for x in ("unseen (CS-7)" if unseen else "", f"semi-automatic for {semi} (CS-11)" if semi else "")
              if x]
    head = f"{c.name}: {how}" + (f", {', '.join(extras)}" if extras else "") + ". "
    return replace(new, log=_log(new, head + " ".join(r.text for r in results), *targets))


def _countdown_die(value: Any, count: int, sides: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not count <= value <= count * sides:
        raise ActionError(f"The countdown roll must be a whole number from {count} to {count * sides}")
    return value


def _end_round(state: ConsimState, action: Mapping[str, Any], rng: random.Random | None) -> ConsimState:
    """CS-12/CS-13/HR-CS-1: suppression reset, countdowns tick and fire, stuns wear off."""
    if state.phase != "round":
        raise RuleError("CS-12", "no round is on")
    dice = action.get("dice", {})
    if not isinstance(dice, Mapping):
        raise ActionError("The countdown dice must map combatant numbers to rolls")
    statuses = list(state.statuses)
    notes = []
    for i, st in enumerate(statuses):
        name = state.combatants[i].name
        if not st.fired_on and st.suppression:
            notes.append((f"{name} was not fired on: suppression {st.suppression} → 0 (CS-12)", i))
            st = replace(st, suppression=0)
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
                if str(i) in dice:
                    roll = _die(dice[str(i)], 6, "countdown roll")
                elif state.facts or rng is None:
                    raise RuleError("CS-13", "this is a spectator copy: it cannot roll")
                else:
                    roll = rng.randint(1, 6)
                st = replace(st, condition=Condition.DYING, countdown=roll, first_aid=False)
                notes.append((f"{name} was not treated in time: DYING, DEAD in {roll} rounds without first aid "
                              "(CS-10, CS-13)", i))
            else:
                st = replace(st, condition=Condition.DEAD, countdown=None)
                notes.append((f"{name} got no first aid in time: DEAD (CS-10, CS-13)", i))
        statuses[i] = st
    new = replace(state, statuses=tuple(statuses), phase="ready", turns=tuple(replace(t, done=True)
                                                                               for t in state.turns),
                  last_shot=None)
    log = new.log + (LogEntry(state.round, f"Round {state.round} ends.", ()),)
    log += tuple(LogEntry(state.round, text + ".", (i,)) for text, i in notes)
    return replace(new, log=log)


def _treat(state: ConsimState, action: Mapping[str, Any], kind: str) -> ConsimState:
    """CS-10/CS-13: treatment stops the INJURED countdown; first aid stops the DYING one."""
    who = _index(state, action.get("combatant"), "combatant")
    st = state.statuses[who]
    name = state.combatants[who].name
    if kind == "treat":
        if st.condition is not Condition.INJURED:
            raise RuleError("CS-13", f"only an INJURED combatant is treated ({name} is {st.condition.label})")
        if st.treated:
            raise RuleError("CS-13", f"{name} is already treated")
        new_st, text = replace(st, treated=True), f"{name} is treated: will not start DYING (CS-10, CS-13)."
    else:
        if st.condition is not Condition.DYING:
            raise RuleError("CS-13", f"first aid is for a DYING combatant ({name} is {st.condition.label})")
        if st.first_aid:
            raise RuleError("CS-13", f"{name} already has first aid")
        new_st, text = replace(st, first_aid=True), (f"{name} gets first aid: the countdown stops; serious "
                                                     "medical care must follow (CS-10, CS-13).")
    new = replace(state, statuses=_set(state.statuses, who, new_st))
    return replace(new, log=_log(new, text, who))


def step(state: ConsimState, action: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
         rng: random.Random | None = None) -> ConsimState:
    """The state after ``action`` (see the module docstring). Never mutates ``state``."""
    kind = _action_type(action)
    if kind == "deal":
        return _deal(state, action, rng)
    if kind == "next":
        return _next(state)
    if kind == "long":
        return _long(state, action)
    if kind == "shoot":
        return _shoot(state, action, rng)
    if kind == "end_round":
        return _end_round(state, action, rng)
    if kind in ("treat", "first_aid"):
        return _treat(state, action, kind)
    hide = action.get("hide")
    if not isinstance(hide, bool):
        raise ActionError("The privacy action needs hide: true or false")
    return replace(state, privacy=hide)


def _name(state: ConsimState, value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(state.combatants):
        return state.combatants[value].name
    return "?"


def describe(state: ConsimState, action: Mapping[str, Any]) -> str:
    """A short history label of ``action`` taken in ``state``."""
    if not isinstance(action, Mapping):
        return "Unknown action"
    kind = action.get("type")
    prefix = f"Round {state.round} · "
    if kind == "deal":
        return f"Round {state.round + 1} · deal"
    if kind == "next":
        cur = current_turn(state)
        if cur is None:
            return prefix + "next"
        turn = state.turns[cur]
        return f"{prefix}{_name(state, turn.combatant)} done ({turn.card.label})"
    if kind == "long":
        return f"{prefix}{_name(state, action.get('combatant'))}: long action"
    if kind == "shoot":
        targets = action.get("targets") if isinstance(action.get("targets"), list) else []
        how = "aims at" if action.get("mode", "aimed") == "aimed" else "suppresses"
        return f"{prefix}{_name(state, action.get('shooter'))} {how} {', '.join(_name(state, t) for t in targets)}"
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
# Spectator copies


def public_game(game: Game) -> Game:
    """A spectator's copy that shows only what the table may see.

    No seed and no redo stack: every dealt card and every die becomes a recorded
    fact in its action (``facts`` mode), so nothing can be re-dealt from the seed.
    While the Observer's privacy is on, non-player combatants are ``hidden``: their
    cards are not recorded, actions that concern only them are dropped, fire at
    them is left out, and their status never changes in the copy.
    """
    from .game import system

    mod = system(game.kind)
    rng = random.Random(game.seed)
    state = mod.start(game.setup, game.rules, rng)
    actions = game.actions[: game.position]
    states = [state]
    for action in actions:
        state = mod.step(state, action, game.rules, rng)
        states.append(state)
    final = states[-1]
    hidden = {i for i in range(len(final.combatants)) if is_hidden(final, i)}
    kept: list[dict[str, Any]] = []
    for action, before, after in zip(actions, states, states[1:]):
        kind = action.get("type")
        if kind == "deal":
            kept.append({"type": "deal", "advantages": {k: list(v) for k, v in action.get("advantages", {}).items()
                                                        if int(k) not in hidden},
                         "surprised": list(action.get("surprised", [])),
                         "cards": {str(i): [str(c) for c in h.dealt] for i, h in enumerate(after.hands)
                                   if i not in hidden and h is not None and h.dealt}})
        elif kind == "next":
            cur = current_turn(before)
            if cur is not None and before.turns[cur].combatant not in hidden:
                kept.append({"type": "next"})
        elif kind == "long":
            if action.get("combatant") not in hidden:
                kept.append(dict(action))
        elif kind == "shoot":
            shot = after.last_shot
            assert shot is not None
            public = [r for r in shot.targets if r.target not in hidden]
            if not public:
                continue
            out = {"type": "shoot", "shooter": shot.shooter, "targets": [r.target for r in public],
                   "mode": shot.mode, "cover": shot.cover.value, "unseen": shot.unseen,
                   "dice": [{k: v for k, v in (("d10", r.d10), ("d6", r.d6), ("countdown", r.countdown))
                             if v is not None} for r in public]}
            if shot.semi:
                out["semi"] = shot.semi
            kept.append(out)
        elif kind == "end_round":
            dice = {str(i): after.statuses[i].countdown for i in range(len(after.combatants))
                    if i not in hidden and before.statuses[i].condition is Condition.INJURED
                    and after.statuses[i].condition is Condition.DYING}
            kept.append({"type": "end_round", "dice": dice})
        elif kind in ("treat", "first_aid"):
            if action.get("combatant") not in hidden:
                kept.append(dict(action))
    setup = normalize_setup(game.setup)
    setup.update(facts=True, hidden=sorted(hidden), privacy=final.privacy)
    return replace(game, seed=0, setup=setup, actions=tuple(kept), position=len(kept), _tip=None)
