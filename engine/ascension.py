"""Ascension Isle army battles (RULES.md section 4, clauses AI-1 … AI-18).

Two armies meet in a hex. Every week each side declares a maneuver in secret — a
blind bid the app keeps as the impartial invigilator (AI-7) — optionally with
stratagems its army qualifies for (AI-16). The bids are revealed together, each
army rolls its dice pool (the vanguard's stat plus reinforcement dice, AI-2, AI-3),
successes are counted (AI-6), and the margin gives the tier of the result (AI-8,
AI-9). Each side reads its own row of that tier's table (AI-10, AI-11), rolls the
casualty ranges (AI-12), lands the casualties on the enemy's units (AI-14) less any
mitigation (AI-15), and the battle goes into another week until an army is
destroyed or leaves.

The module has three layers:

* pure rule functions on values — :func:`reinforcement_dice`, :func:`next_die_needs`,
  :func:`victory_tier`, :func:`count_successes`, :func:`cell_effect`,
  :func:`tier_odds`, :func:`success_setting` …;
* the session protocol of :mod:`engine.game` (``KIND``, ``VARIANTS``,
  :func:`normalize_setup`, :func:`start`, :func:`step`, :func:`describe`,
  :func:`public_game`) over an immutable :class:`BattleState`;
* helpers for the board — :func:`dice_pool`, :func:`offered_stratagems`,
  :func:`result_cell`, :func:`week_odds`, :func:`status` ….

Setup (plain JSON)::

    {"armies": [army, army]}
    army = {"name": "First Corps", "units": [unit, ...], "vanguard": 0, "rearguard": 0,
            "general": null | {"name": "Marshal Vey", "level": 0..3, "traits": ["observer"]}}
    unit = {"name": "...", "attack": 5, "defense": 6, "mobility": 2,
            "traits": ["infantry", "line", "scout", "observer", "long range"],
            "armour": 0, "size": 0}          # 0: the unit has no armour / no size

Actions (plain JSON dicts):

* ``{"type": "bid", "side": s, "maneuver": "attack", "stratagems": ["flanking"]}`` —
  a side's secret declaration for this week (AI-7, AI-16);
* ``{"type": "reveal"}`` — both bids are shown together;
* ``{"type": "counter_attack", "side": s}`` — after the reveal, a defender with
  Counter Attack switches to Attack (AI-16);
* ``{"type": "roll"}`` — both armies roll; optional ``"dice": [[…], […]]`` and
  ``"ranges": [n, n]`` enter rolls made with real dice (and let spectator copies
  show the dice without the seed);
* ``{"type": "leave", "side": s}`` — an army leaves the battle the week after its
  opponent skirmished (AI-15);
* ``{"type": "phase", "index": i}`` — ticks (or unticks) a step of the campaign turn
  (AI-18).
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from .ascension_tables import (
    FALLBACK, FALLBACK_NOTE, JIBRIL_DIVISION, MANEUVER_NAMES, MANEUVERS, MATCHUPS, SOURCE_TABLES,
    TIER_NAMES, TIERS, TURN_PHASES, matchup,
)
from .game import ActionError, Game, RuleError
from .text import setup_text, text_problem
from .rules import SettingsError, Variant

__all__ = [
    "KIND", "VARIANTS", "HOUSE_RULES", "RULINGS", "STRATAGEMS", "SetupError",
    "Unit", "General", "Army", "Bid", "Pool", "CellEffect", "Cell", "WeekResult", "BattleState",
    "reinforcement_dice", "reinforcement_threshold", "next_die_needs", "victory_tier",
    "success_setting", "success_chance", "count_successes", "cell_effect", "result_cell",
    "tier_odds", "success_distribution", "normalize_setup", "normalize_house_tables",
    "start", "step", "describe", "public_game", "status", "dice_pool", "offered_stratagems",
    "stratagem_problem", "week_odds", "can_counter_attack", "can_leave", "jibril_division",
    "example_setup", "MANEUVERS", "MANEUVER_NAMES", "TIERS", "TIER_NAMES", "matchup", "MATCHUPS",
]

KIND = "battle"

#: What a spectator link (:func:`public_game`) shows, in the Share drawer's words.
SPECTATOR_VIEW = "the armies, revealed bids, the dice and the log. A bid not yet revealed never travels, and there is no seed."


class SetupError(ValueError):
    """A battle setup that cannot be fought (the message names the field)."""


# ---------------------------------------------------------------------------
# Dice pools and margins (AI-3, AI-5, AI-8, AI-9)


def _stat(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"AI-3: the {what} must be a whole number (got {value!r})")
    if value < 0:
        raise ValueError(f"AI-3: the {what} cannot be negative (got {value})")
    return value


def reinforcement_threshold(base: int, k: int) -> int:
    """AI-3/AI-5: the rest of the army's total needed for ``k`` reinforcement dice: (2^(k+1) − 2)·b.

    A base of 0 counts as 1 (AI-5 ruling). For b = 5: 10, 30, 70, 150, 310 for k = 1 … 5.
    """
    base = _stat(base, "base stat")
    return (2 ** (k + 1) - 2) * max(base, 1)


def reinforcement_dice(base: int, rest_total: int) -> int:
    """AI-3/AI-5: the reinforcement dice of an army whose vanguard stat is ``base``.

    ``rest_total`` (T) is that stat summed over the rest of the army; the army gets
    +k dice for the largest k with T ≥ (2^(k+1) − 2)·b. A base of 0 counts as 1 for
    the progression (AI-5) and adds no die itself. Three divisions of attack 5:
    ``reinforcement_dice(5, 10) == 1`` — six dice. Raises ``ValueError`` for a
    negative stat.
    """
    base = _stat(base, "base stat")
    rest_total = _stat(rest_total, "total of the rest of the army")
    step = max(base, 1)
    # T ≥ (2^(k+1) − 2)·b  ⇔  2^(k+1) ≤ T/b + 2  ⇔  k = floor(log2(T // b + 2)) − 1
    return (rest_total // step + 2).bit_length() - 2


def next_die_needs(base: int, rest_total: int) -> int:
    """AI-3: how much more the rest of the army must total for one more reinforcement die."""
    k = reinforcement_dice(base, rest_total)
    return reinforcement_threshold(base, k + 1) - rest_total


def victory_tier(margin: int, skilled_general: bool = False) -> str:
    """AI-8/AI-9: the tier of a result with this margin (difference in successes).

    0 → ``"drawn"``; 1–2 ``"minor"``; 3–5 ``"major"``; 6+ ``"crushing"``; 10+
    ``"legendary"`` only for a skilled general (AI-9: level 3), else crushing. A
    negative margin is read from the other side (its size is what counts).
    """
    if not isinstance(margin, int) or isinstance(margin, bool):
        raise ValueError(f"AI-8: the margin must be a whole number (got {margin!r})")
    margin = abs(margin)
    if margin == 0:
        return "drawn"
    if margin <= 2:
        return "minor"
    if margin <= 5:
        return "major"
    if margin >= 10 and skilled_general:
        return "legendary"
    return "crushing"


# ---------------------------------------------------------------------------
# Success setting (AI-6) and house tables (AI-11): the group's rules settings

DIE_SIZES = (6, 8, 10)

_SUCCESS_CHOICES = tuple(
    (f"d{die}/{target}+", f"d{die}, a success on {target} or more" + (" (the app's ruling)" if (die, target) == (6, 4) else ""))
    for die in DIE_SIZES for target in range(2, die + 1)
)

CELL_MAX = 120
MAX_RANGE = 20


def normalize_house_tables(value: Any) -> dict[str, dict[str, dict[str, str]]]:
    """AI-11: a group's edited result cells, validated: ``{tier: {own: {other: text}}}``.

    Only edited cells are kept; each is text of 1–120 characters whose casualty range
    (if any) is at most 0–20. Raises :class:`~engine.rules.SettingsError`.
    """
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise SettingsError("AI-11: the house tables must be an object of tiers")
    out: dict[str, dict[str, dict[str, str]]] = {}
    for tier, rows in value.items():
        if tier not in TIERS:
            raise SettingsError(f"AI-11: there is no {tier!r} table (tables: {', '.join(TIERS)})")
        if not isinstance(rows, Mapping):
            raise SettingsError(f"AI-11: the house {TIER_NAMES[tier]} table must be an object of rows")
        for own, cols in rows.items():
            if own not in MANEUVERS or not isinstance(cols, Mapping):
                raise SettingsError(f"AI-11: the house {TIER_NAMES[tier]} table has an unknown row {own!r}")
            for other, text in cols.items():
                if other not in MANEUVERS:
                    raise SettingsError(f"AI-11: the house {TIER_NAMES[tier]} table has an unknown column "
                                        f"{other!r}")
                where = f"AI-11: house {TIER_NAMES[tier]} table, {MANEUVER_NAMES[own]} vs {MANEUVER_NAMES[other]}"
                if not isinstance(text, str) or not text.strip():
                    raise SettingsError(f"{where}: the cell is empty")
                text = " ".join(text.split())
                if len(text) > CELL_MAX:
                    raise SettingsError(f"{where}: the cell is longer than {CELL_MAX} characters")
                problem = text_problem(text)
                if problem:
                    raise SettingsError(f"{where}: the cell {problem}")
                effect = cell_effect(text)
                if effect.casualties is not None and effect.casualties[1] > MAX_RANGE:
                    raise SettingsError(f"{where}: at most {MAX_RANGE} casualties in one cell")
                out.setdefault(tier, {}).setdefault(own, {})[other] = text
    return out


VARIANTS: tuple[Variant, ...] = (
    Variant(
        key="success",
        rule_id="AI-6",
        label="Dice and success",
        choices=_SUCCESS_CHOICES,
        default="d6/4+",
        explanation="The source never says what a success is. The app's ruling: each die is a d6 and "
                    "4 or more is a success. A group may choose the die size and the target.",
    ),
    Variant(
        key="house_tables",
        rule_id="AI-11",
        label="House result tables",
        choices=(),
        default=MappingProxyType({}),
        explanation="Cells your group has edited; every other cell is the source's (or the AI-11 "
                    "fallback to Minor victory).",
        normalize=normalize_house_tables,
    ),
)

#: House rules of this app, where RULES.md is silent (id → text). Shown with a marker.
HOUSE_RULES: Mapping[str, str] = MappingProxyType({
    "HR-AI-1": "A unit with neither armour nor size is destroyed by one casualty.",
    "HR-AI-2": "Casualties land one at a time on the army's line unit (its vanguard; its rearguard in a "
               "Withdraw) until it is destroyed, then on the other units in the order they are listed.",
    "HR-AI-3": "When the vanguard is destroyed, the next surviving line unit in list order becomes the "
               "vanguard (any surviving unit if no line unit is left); a destroyed rearguard is replaced "
               "by the vanguard.",
    "HR-AI-4": "Deception's scouting roll: the army's scouts roll their mobility as a pool (the best "
               "scout is the base, the other scouts reinforce it); an army without scouts adds nothing.",
    "HR-AI-5": "Harassing Fire: the army's long-range units are its line and reinforcement, with their "
               "defense; it needs at least one long-range unit.",
    "HR-AI-6": "Last Stand: the rearguard's reinforcement (its scouts) adds defense too, since the line "
               "stat is defense.",
})

#: RULES.md clauses that are rulings (the app's reading where the source is silent).
RULINGS: tuple[str, ...] = ("AI-5", "AI-6", "AI-9", "AI-11", "AI-12", "AI-17")


def success_setting(rules: Mapping[str, Any] | None = None) -> tuple[int, int]:
    """AI-6: (die size, target number) of the group's setting (default d6, 4+)."""
    value = (rules or {}).get("success", "d6/4+")
    match = re.fullmatch(r"d(\d+)/(\d+)\+", str(value))
    if not match or value not in {c for c, _ in _SUCCESS_CHOICES}:
        raise SettingsError(f"AI-6: {value!r} is not a dice setting")
    return int(match.group(1)), int(match.group(2))


def success_chance(die: int, target: int) -> Fraction:
    """AI-6: the chance that one die shows a success."""
    return Fraction(die - target + 1, die)


def count_successes(dice: Iterable[int], die: int = 6, target: int = 4) -> int:
    """AI-6: how many dice show the target number or more."""
    return sum(1 for value in dice if value >= target)


# ---------------------------------------------------------------------------
# Result tables (AI-10, AI-11, AI-12)


@dataclass(frozen=True)
class CellEffect:
    """What a result cell does: ``withdraw`` True (succeeds) / False (fails) / None, and the
    casualty range it inflicts on the opponent (``None``: none)."""

    withdraw: bool | None
    casualties: tuple[int, int] | None


_INFLICT = re.compile(r"inflict\s+(\d+)(?:\s*[-–]\s*(\d+))?\s+casualt", re.IGNORECASE)


def cell_effect(text: str) -> CellEffect:
    """AI-10/AI-12: the effect of a result cell, read from its words.

    "Withdraw Succeeds …" / "Withdraw fails …" set ``withdraw``; "inflict 1-5
    casualties" (or "inflict 1 casualty") gives the casualty range.
    """
    lower = text.lower()
    withdraw = True if "withdraw succeeds" in lower else False if "withdraw fails" in lower else None
    match = _INFLICT.search(text)
    casualties = None
    if match:
        lo = int(match.group(1))
        hi = int(match.group(2)) if match.group(2) else lo
        casualties = (min(lo, hi), max(lo, hi))
    return CellEffect(withdraw, casualties)


@dataclass(frozen=True)
class Cell:
    """One cell read from a tier's table: ``origin`` is "source", "fallback" (AI-11) or "house"."""

    tier: str
    own: str
    other: str
    text: str
    origin: str

    @property
    def effect(self) -> CellEffect:
        return cell_effect(self.text)

    @property
    def note(self) -> str:
        if self.origin == "fallback":
            return f"AI-11: {FALLBACK_NOTE}"
        if self.origin == "house":
            return "AI-11: house table (edited by your group)"
        return ""


def result_cell(rules: Mapping[str, Any] | None, tier: str, own: str, other: str) -> Cell:
    """AI-10/AI-11: the cell of ``tier``'s table in row ``own``, column ``other``.

    A group's house cell wins; else the source's table; else (Major, Crushing,
    Legendary) the Minor victory table, marked as a fallback.
    """
    if tier not in TIERS or own not in MANEUVERS or other not in MANEUVERS:
        raise ValueError(f"No such table cell: {tier} / {own} / {other}")
    house = (rules or {}).get("house_tables") or {}
    text = house.get(tier, {}).get(own, {}).get(other)
    if text is not None:
        return Cell(tier, own, other, text, "house")
    if tier in SOURCE_TABLES:
        return Cell(tier, own, other, SOURCE_TABLES[tier][own][other], "source")
    return Cell(tier, own, other, SOURCE_TABLES[FALLBACK[tier]][own][other], "fallback")


# ---------------------------------------------------------------------------
# Exact odds (AI-6, AI-8)


def success_distribution(dice: int, die: int = 6, target: int = 4) -> list[int]:
    """Ways (out of die**dice) to roll k successes with ``dice`` dice, k = 0 … dice."""
    hit, miss = die - target + 1, target - 1
    return [math.comb(dice, k) * hit ** k * miss ** (dice - k) for k in range(dice + 1)]


def tier_odds(pool_a: int, pool_b: int, die: int = 6, target: int = 4,
              skilled: tuple[bool, bool] = (False, False)) -> dict[str, Any]:
    """AI-6/AI-8/AI-9: exact chance of every result of a roll of two pools.

    Returns ``{"drawn": p, "sides": ({tier: p, …}, {tier: p, …})}`` with
    :class:`~fractions.Fraction` s: the chance of a drawn combat and, for each side,
    the chance that it wins with each tier (``legendary`` only for a skilled
    general). All chances sum to 1. Exact: a convolution of the two success
    distributions in whole numbers, no sampling.
    """
    for pool in (pool_a, pool_b):
        if not isinstance(pool, int) or isinstance(pool, bool) or pool < 0:
            raise ValueError("A dice pool is a whole number of dice, 0 or more")
    if die not in DIE_SIZES or not 2 <= target <= die:
        raise ValueError("AI-6: the die is a d6, d8 or d10 and the target from 2 to its size")
    dist_a = success_distribution(pool_a, die, target)
    dist_b = success_distribution(pool_b, die, target)
    # margin distribution: ways[m + pool_b] for m = a − b
    ways = [0] * (pool_a + pool_b + 1)
    for a, wa in enumerate(dist_a):
        if wa:
            for b, wb in enumerate(dist_b):
                ways[a - b + pool_b] += wa * wb
    total = die ** (pool_a + pool_b)
    sides: tuple[dict[str, Fraction], dict[str, Fraction]] = (
        {t: Fraction(0) for t in TIERS[1:] if t != "legendary" or skilled[0]},
        {t: Fraction(0) for t in TIERS[1:] if t != "legendary" or skilled[1]},
    )
    drawn = Fraction(0)
    for index, count in enumerate(ways):
        if not count:
            continue
        margin = index - pool_b
        p = Fraction(count, total)
        if margin == 0:
            drawn += p
        elif margin > 0:
            sides[0][victory_tier(margin, skilled[0])] += p
        else:
            sides[1][victory_tier(-margin, skilled[1])] += p
    return {"drawn": drawn, "sides": sides}


# ---------------------------------------------------------------------------
# Values


TRAITS = ("infantry", "line", "scout", "observer", "long range")


@dataclass(frozen=True)
class Unit:
    """AI-1: a unit with its stats and traits; ``armour`` / ``size`` 0 when it has none (AI-14)."""

    name: str
    attack: int
    defense: int
    mobility: int
    traits: tuple[str, ...] = ()
    armour: int = 0
    size: int = 0

    def has(self, trait: str) -> bool:
        return trait in self.traits

    @property
    def is_line(self) -> bool:
        """AI-1: line units (infantry divisions are line units)."""
        return self.has("line") or self.has("infantry")

    def stat(self, name: str) -> int:
        return {"attack": self.attack, "defense": self.defense, "mobility": self.mobility}[name]

    def toughness(self) -> str:
        parts = []
        if self.armour:
            parts.append(f"armour {self.armour}")
        if self.size:
            parts.append(f"size {self.size}")
        return ", ".join(parts) or "destroyed by 1 casualty (HR-AI-1)"


@dataclass(frozen=True)
class General:
    """AI-1: an army's general, level 0–3 (level 3 is skilled, AI-9), with traits."""

    name: str
    level: int
    traits: tuple[str, ...] = ()

    @property
    def skilled(self) -> bool:
        return self.level >= 3


@dataclass(frozen=True)
class Army:
    """AI-1: an army as set up: its units, its vanguard and rearguard (unit indexes), its general."""

    name: str
    units: tuple[Unit, ...]
    vanguard: int
    rearguard: int
    general: General | None


@dataclass(frozen=True)
class Bid:
    """AI-7: a side's declaration for the week: a maneuver and its stratagems (keys)."""

    maneuver: str
    stratagems: tuple[str, ...] = ()


@dataclass(frozen=True)
class Pool:
    """AI-2/AI-3: an army's dice for one maneuver and how they were worked out.

    ``base`` is the line unit's stat (``line_unit`` its index), ``rest_total`` the
    reinforcement total, ``reinforcement`` the dice it gives (``None`` when the rules
    allow none), ``extra`` dice added by a stratagem (Deception's scouting roll),
    ``dice`` the total rolled, ``next_needs`` how much more strength the next
    reinforcement die needs (``None`` when there is no reinforcement).
    """

    maneuver: str
    stat: str
    line_unit: int | None
    base: int
    rest_total: int
    reinforcement: int
    extra: int
    dice: int
    next_needs: int | None
    reinforcing: tuple[int, ...]
    notes: tuple[str, ...] = ()

    def explain(self) -> str:
        text = f"{self.base} ({self.stat})"
        if self.next_needs is not None:
            text += f" + {self.reinforcement} reinforcement (rest {self.rest_total})"
        if self.extra:
            text += f" + {self.extra} scouting"
        return f"{text} = {self.dice} dice"


@dataclass(frozen=True)
class Stratagem:
    """AI-16: a stratagem: the maneuver it modifies, what it needs, what it does (``effect`` is
    ``None`` when the source gives none, AI-17)."""

    key: str
    name: str
    maneuver: str
    needs: str
    effect: str | None


STRATAGEMS: tuple[Stratagem, ...] = (
    Stratagem("deception", "Deception", "withdraw", "a general of level 2 or more",
              "adds the scouting roll's successes to the withdraw roll (HR-AI-4)"),
    Stratagem("covering_fire", "Covering Fire", "withdraw", "an observer unit or general",
              "long-range units add their defense to the reinforcement total"),
    Stratagem("last_stand", "Last Stand", "withdraw", "a general of level 1 or more",
              "the rearguard uses defense instead of mobility; on a successful withdraw the rearguard "
              "and its reinforcing units are destroyed"),
    Stratagem("continuous_front", "Continuous Front", "defend", "at least 20 infantry divisions",
              "the enemy cannot withdraw through the defended hex"),
    Stratagem("hold_the_line", "Hold the Line", "defend", "a general of level 1 or more",
              "no fallback from a successful Attack or Shock Attack; no casualty mitigation"),
    Stratagem("counter_attack", "Counter Attack", "defend", "a general of level 2 or more",
              "after the enemy declares Attack or Shock Attack, switch to Attack without reinforcement "
              "dice; cancels Feint and is cancelled by it"),
    Stratagem("harassing_fire", "Harassing Fire", "defend", "an observer unit or general, and a long-range "
              "unit (HR-AI-5)",
              "against an enemy Withdraw, Defend or Block, read your result as if you had declared "
              "Skirmish; only long-range units count as line and reinforcement"),
    Stratagem("delay", "Delay", "block", "a general of level 2 or more",
              "half the successes (rounded down) mitigate casualties"),
    Stratagem("hammer_and_anvil", "Hammer and Anvil", "block", "a general of level 3", None),
    Stratagem("encirclement", "Encirclement", "block", "nothing stated", None),
    Stratagem("ambush", "Ambush", "block", "nothing stated", None),
    Stratagem("raid", "Raid", "skirmish", "nothing stated", None),
    Stratagem("guerrilla", "Guerrilla", "skirmish", "nothing stated", None),
    Stratagem("flanking", "Flanking", "attack", "nothing stated", None),
    Stratagem("feint", "Feint", "attack", "nothing stated", None),
    Stratagem("surprise", "Surprise", "shock", "nothing stated", None),
    Stratagem("speed", "Speed", "shock", "nothing stated", None),
)

STRATAGEM_BY_KEY: Mapping[str, Stratagem] = MappingProxyType({s.key: s for s in STRATAGEMS})

#: AI-17: what a stratagem without a stated effect says when declared.
NO_EFFECT = "effect not given in the rules — the invigilator decides"

_STAT_OF = {"withdraw": "mobility", "skirmish": "mobility", "defend": "defense", "block": "defense",
            "attack": "attack", "shock": "attack"}


@dataclass(frozen=True)
class WeekResult:
    """One week's roll and its consequences (AI-8 … AI-15).

    Per side (tuples of two): the final ``maneuvers`` (after a Counter Attack switch),
    ``read_as`` (the row read — Skirmish under Harassing Fire), ``stratagems``,
    ``pools``, ``dice``, ``successes``, ``cells``, casualty ``ranges`` and ``rolled``
    (AI-12), ``mitigated`` (AI-15), ``taken`` (casualties the side took), ``lost``
    (names of its destroyed units). ``winner`` is None for a drawn combat.
    """

    week: int
    maneuvers: tuple[str, str]
    read_as: tuple[str, str]
    stratagems: tuple[tuple[str, ...], tuple[str, ...]]
    pools: tuple[Pool, Pool]
    dice: tuple[tuple[int, ...], tuple[int, ...]]
    successes: tuple[int, int]
    margin: int
    winner: int | None
    tier: str
    cells: tuple[Cell, Cell]
    ranges: tuple[tuple[int, int] | None, tuple[int, int] | None]
    rolled: tuple[int, int]
    mitigated: tuple[int, int]
    taken: tuple[int, int]
    hits: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
    lost: tuple[tuple[str, ...], tuple[str, ...]]
    notes: tuple[str, ...]
    headline: str
    ended: str = ""


PHASES = ("bid", "revealed", "over")


@dataclass(frozen=True)
class BattleState:
    """The battle at one moment. Immutable: :func:`step` returns a new one.

    * ``armies`` as set up; ``damage[side][unit]`` casualties carried (size, AI-14);
      ``destroyed[side][unit]``;
    * ``vanguards`` / ``rearguards``: current unit indexes (HR-AI-3);
    * ``week`` (from 1), ``phase`` (:data:`PHASES`), ``bids`` (None until declared),
      ``switched`` (Counter Attack taken after the reveal);
    * ``weeks``: finished weeks; ``left``: the side(s) that left; ``outcome``: how it ended;
    * ``phases_done``: ticked AI-18 steps of this turn; ``rules`` the settings as pairs.
    """

    armies: tuple[Army, Army]
    damage: tuple[tuple[int, ...], tuple[int, ...]]
    destroyed: tuple[tuple[bool, ...], tuple[bool, ...]]
    vanguards: tuple[int, int]
    rearguards: tuple[int, int]
    week: int
    phase: str
    bids: tuple[Bid | None, Bid | None]
    switched: tuple[bool, bool]
    weeks: tuple[WeekResult, ...]
    phases_done: tuple[int, ...]
    rules: tuple[tuple[str, Any], ...]
    outcome: str = ""

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self.rules)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def alive(self, side: int) -> list[int]:
        return [i for i, dead in enumerate(self.destroyed[side]) if not dead]


# ---------------------------------------------------------------------------
# Setup

_TEXT_MAX = 60
_STAT_MAX = 99
_MAX_UNITS = 200
_NUM_MAX = 99


def _quote(value: object) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)


def _text(value: Any, where: str, what: str, required: bool = True) -> str:
    return setup_text(value, where, what, error=SetupError, max_len=_TEXT_MAX, required=required)


def _whole(value: Any, where: str, what: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise SetupError(f"{where}: the {what} must be a whole number from {lo} to {hi} (got {_quote(value)})")
    return value


def _keys(value: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(str(k) for k in value if k not in allowed)
    if unknown:
        raise SetupError(f"{where}: unknown field {', '.join(_quote(k) for k in unknown)}")


def _traits(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        raise SetupError(f"{where}: the traits must be a list")
    out = []
    for trait in value:
        if trait not in TRAITS:
            raise SetupError(f"{where}: unknown trait {_quote(trait)} (traits: {', '.join(TRAITS)})")
        if trait not in out:
            out.append(trait)
    return [t for t in TRAITS if t in out]


def normalize_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """AI-1: validated, canonical setup JSON (see the module docstring for its shape).

    Raises :class:`SetupError` naming the field. The vanguard must be a line unit
    (AI-1); the rearguard may be any unit (AI-2).
    """
    if not isinstance(setup, Mapping):
        raise SetupError("The setup must be an object with named fields")
    _keys(setup, {"armies"}, "Setup")
    armies = setup.get("armies")
    if not isinstance(armies, (list, tuple)) or len(armies) != 2:
        raise SetupError("Setup: a battle has exactly 2 armies")
    out = []
    for a, raw in enumerate(armies):
        where = f"Army {a + 1}"
        if not isinstance(raw, Mapping):
            raise SetupError(f"{where} must be an object with named fields")
        _keys(raw, {"name", "units", "vanguard", "rearguard", "general"}, where)
        name = _text(raw.get("name"), where, "name")
        where = f"Army {a + 1} ({name})"
        units = raw.get("units")
        if not isinstance(units, (list, tuple)) or not units:
            raise SetupError(f"{where}: the army has no units; give it at least one line unit")
        if len(units) > _MAX_UNITS:
            raise SetupError(f"{where}: an army has at most {_MAX_UNITS} units")
        out_units = []
        for u, unit in enumerate(units):
            uwhere = f"{where}, unit {u + 1}"
            if not isinstance(unit, Mapping):
                raise SetupError(f"{uwhere} must be an object with named fields")
            _keys(unit, {"name", "attack", "defense", "mobility", "traits", "armour", "size"}, uwhere)
            uname = _text(unit.get("name"), uwhere, "name")
            uwhere = f"{where}, unit {u + 1} ({uname})"
            stats = {key: _whole(unit.get(key), uwhere, key, 0, _STAT_MAX)
                     for key in ("attack", "defense", "mobility")}
            out_units.append({"name": uname, **stats, "traits": _traits(unit.get("traits"), uwhere),
                              "armour": _whole(unit.get("armour", 0), uwhere, "armour", 0, _NUM_MAX),
                              "size": _whole(unit.get("size", 0), uwhere, "size", 0, _NUM_MAX)})
        vanguard = _whole(raw.get("vanguard", 0), where, "vanguard (a unit number)", 0, len(out_units) - 1)
        if not ({"line", "infantry"} & set(out_units[vanguard]["traits"])):
            raise SetupError(f"{where}: AI-1: the vanguard ({out_units[vanguard]['name']}) must be a line unit")
        rearguard = _whole(raw.get("rearguard", vanguard), where, "rearguard (a unit number)", 0,
                           len(out_units) - 1)
        general = raw.get("general")
        out_general = None
        if general is not None:
            gwhere = f"{where}, general"
            if not isinstance(general, Mapping):
                raise SetupError(f"{gwhere} must be an object with named fields")
            _keys(general, {"name", "level", "traits"}, gwhere)
            gtraits = _traits(general.get("traits"), gwhere)
            if set(gtraits) - {"observer"}:
                raise SetupError(f"{gwhere}: a general's trait can only be observer")
            out_general = {"name": _text(general.get("name"), gwhere, "name"),
                           "level": _whole(general.get("level"), gwhere, "level", 0, 3),
                           "traits": gtraits}
        out.append({"name": name, "units": out_units, "vanguard": vanguard, "rearguard": rearguard,
                    "general": out_general})
    return {"armies": out}


def _army(raw: Mapping[str, Any]) -> Army:
    units = tuple(Unit(u["name"], u["attack"], u["defense"], u["mobility"], tuple(u["traits"]),
                       u["armour"], u["size"]) for u in raw["units"])
    g = raw["general"]
    general = General(g["name"], g["level"], tuple(g["traits"])) if g else None
    return Army(raw["name"], units, raw["vanguard"], raw["rearguard"], general)


def jibril_division(name: str | None = None) -> dict[str, Any]:
    """AI-3: the source's example line unit, Jibril Armoured Infantry Division (5 / 6 / 2)."""
    unit = dict(JIBRIL_DIVISION)
    unit["traits"] = list(unit["traits"])
    if name:
        unit["name"] = name
    return unit


def example_setup() -> dict[str, Any]:
    """A Jibril corps of three divisions (the AI-3 example: 6 attack dice) against a Zone army."""
    zone = [{"name": f"Zone Infantry Division {i}", "attack": 2, "defense": 3, "mobility": 2,
             "traits": ["infantry", "line"], "armour": 0, "size": 2} for i in (1, 2, 3, 4)]
    zone.append({"name": "Zone Heavy Artillery", "attack": 3, "defense": 2, "mobility": 1,
                 "traits": ["long range"], "armour": 0, "size": 1})
    zone.append({"name": "Zone Cavalry Scouts", "attack": 1, "defense": 1, "mobility": 4,
                 "traits": ["scout", "observer"], "armour": 0, "size": 1})
    return {"armies": [
        {"name": "Jibril Corps", "units": [jibril_division(f"Jibril Armoured Infantry Division {i}")
                                           for i in (1, 2, 3)],
         "vanguard": 0, "rearguard": 0, "general": {"name": "Marshal Jibril", "level": 2, "traits": []}},
        {"name": "Zone Army", "units": zone, "vanguard": 0, "rearguard": 5,
         "general": {"name": "General Arden", "level": 1, "traits": []}},
    ]}


# ---------------------------------------------------------------------------
# Pools and stratagems (AI-2, AI-3, AI-16)


def stratagem_problem(state: BattleState, side: int, key: str, maneuver: str) -> str | None:
    """AI-16: why ``side`` may not declare stratagem ``key`` with ``maneuver`` (None if it may)."""
    strat = STRATAGEM_BY_KEY.get(key)
    if strat is None:
        return f"AI-16: there is no stratagem {key!r}"
    if strat.maneuver != maneuver:
        return f"AI-16: {strat.name} modifies {MANEUVER_NAMES[strat.maneuver]}, not {MANEUVER_NAMES[maneuver]}"
    army = state.armies[side]
    alive = [army.units[i] for i in state.alive(side)]
    level = army.general.level if army.general else -1
    observer = any(u.has("observer") for u in alive) or bool(army.general and "observer" in army.general.traits)
    need_level = {"deception": 2, "last_stand": 1, "hold_the_line": 1, "counter_attack": 2, "delay": 2,
                  "hammer_and_anvil": 3}.get(key)
    if need_level is not None and level < need_level:
        return f"AI-16: {strat.name} needs a general of level {need_level} or more"
    if key in ("covering_fire", "harassing_fire") and not observer:
        return f"AI-16: {strat.name} needs an observer unit or general"
    if key == "harassing_fire" and not any(u.has("long range") for u in alive):
        return "HR-AI-5: Harassing Fire needs at least one long-range unit"
    if key == "continuous_front":
        count = sum(1 for u in alive if u.has("infantry"))
        if count < 20:
            return f"AI-16: Continuous Front needs at least 20 infantry divisions (the army has {count})"
    return None


def offered_stratagems(state: BattleState, side: int, maneuver: str) -> list[Stratagem]:
    """AI-16: the stratagems of ``maneuver`` that ``side``'s army qualifies for."""
    return [s for s in STRATAGEMS if s.maneuver == maneuver and stratagem_problem(state, side, s.key, maneuver) is None]


def _pool_from(units: list[tuple[int, Unit]], line: int | None, stat: str, maneuver: str,
               reinforce: list[tuple[int, int]], reinforcement_allowed: bool = True,
               extra: int = 0, notes: tuple[str, ...] = ()) -> Pool:
    by_index = dict(units)
    base = by_index[line].stat(stat) if line is not None else 0
    rest = sum(value for _, value in reinforce)
    if reinforcement_allowed:
        k = reinforcement_dice(base, rest)
        needs = next_die_needs(base, rest)
    else:
        k, needs = 0, None
    return Pool(maneuver, stat, line, base, rest, k, extra, base + k + extra, needs,
                tuple(i for i, _ in reinforce) if reinforcement_allowed else (), notes)


def _scouting_dice(alive: list[tuple[int, Unit]]) -> int:
    """HR-AI-4: the scouting roll's pool: the best scout's mobility reinforced by the other scouts."""
    scouts = [(i, u) for i, u in alive if u.has("scout")]
    if not scouts:
        return 0
    best = max(scouts, key=lambda iu: iu[1].mobility)
    rest = sum(u.mobility for i, u in scouts if i != best[0])
    return best[1].mobility + reinforcement_dice(best[1].mobility, rest)


def dice_pool(state: BattleState, side: int, maneuver: str, stratagems: Iterable[str] = (),
              switched: bool = False) -> Pool:
    """AI-2/AI-3/AI-16: the dice ``side`` rolls for ``maneuver`` with ``stratagems``.

    Attack/Shock Attack use attack, Defend/Block defense, Withdraw/Skirmish mobility
    (AI-2). The base is the vanguard's stat; the rest of the army reinforces (AI-3).
    A Withdraw's line stat is the rearguard's mobility, and only scouts reinforce it;
    Covering Fire adds long-range units' defense, Last Stand uses defense (HR-AI-6),
    Deception adds the scouting roll (HR-AI-4). Harassing Fire rolls the long-range
    units' defense (HR-AI-5). A switched Counter Attack rolls the vanguard's attack
    without reinforcement.
    """
    if maneuver not in MANEUVERS:
        raise ActionError(f"Unknown maneuver {maneuver!r} (maneuvers: {', '.join(MANEUVERS)})")
    stratagems = set(stratagems)
    army = state.armies[side]
    alive = [(i, army.units[i]) for i in state.alive(side)]
    if not alive:
        return Pool(maneuver, _STAT_OF[maneuver], None, 0, 0, 0, 0, 0, None, ())
    vanguard = state.vanguards[side]
    if switched:
        return _pool_from(alive, vanguard, "attack", "attack", [], reinforcement_allowed=False,
                          notes=("AI-16: Counter Attack rolls as an Attack, without reinforcement dice",))
    stat = _STAT_OF[maneuver]
    if maneuver == "withdraw":
        rear = state.rearguards[side]
        last_stand = "last_stand" in stratagems
        stat = "defense" if last_stand else "mobility"
        reinforce = [(i, u.stat(stat)) for i, u in alive if i != rear and u.has("scout")]
        notes = ["AI-2: the rearguard's " + stat + " is the line stat; only scouts reinforce it"]
        if "covering_fire" in stratagems:
            seen = {i for i, _ in reinforce}
            reinforce += [(i, u.defense) for i, u in alive if u.has("long range") and i != rear and i not in seen]
            notes.append("AI-16 Covering Fire: long-range units add their defense")
        extra = _scouting_dice(alive) if "deception" in stratagems else 0
        if "deception" in stratagems:
            notes.append(f"AI-16 Deception: +{extra} scouting dice (HR-AI-4)")
        return _pool_from(alive, rear, stat, maneuver, reinforce, extra=extra, notes=tuple(notes))
    if maneuver == "defend" and "harassing_fire" in stratagems:
        ranged = [(i, u) for i, u in alive if u.has("long range")]
        if ranged:
            line = max(ranged, key=lambda iu: iu[1].defense)[0]
            reinforce = [(i, u.defense) for i, u in ranged if i != line]
            return _pool_from(alive, line, "defense", maneuver, reinforce,
                              notes=("AI-16 Harassing Fire: only long-range units are line and "
                                     "reinforcement (HR-AI-5)",))
    reinforce = [(i, u.stat(stat)) for i, u in alive if i != vanguard]
    return _pool_from(alive, vanguard, stat, maneuver, reinforce)


def can_counter_attack(state: BattleState, side: int) -> bool:
    """AI-16: may ``side`` switch to Attack now (revealed, declared Counter Attack with Defend,
    the enemy declared Attack or Shock Attack, and no Feint cancels it)?"""
    if state.phase != "revealed" or state.switched[side]:
        return False
    own, enemy = state.bids[side], state.bids[1 - side]
    return (own is not None and enemy is not None and own.maneuver == "defend"
            and "counter_attack" in own.stratagems and enemy.maneuver in ("attack", "shock")
            and "feint" not in enemy.stratagems)


def can_leave(state: BattleState, side: int) -> bool:
    """AI-15: an army may leave the week after its opponent skirmished (before bidding)."""
    return (state.phase == "bid" and bool(state.weeks) and state.bids == (None, None)
            and state.weeks[-1].maneuvers[1 - side] == "skirmish")


def week_odds(state: BattleState, rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """AI-6/AI-8: exact odds of this week's roll with the revealed bids (see :func:`tier_odds`)."""
    pools = _week_pools(state)
    die, target = success_setting(rules if rules is not None else state.settings)
    skilled = tuple(bool(a.general and a.general.skilled) for a in state.armies)
    return tier_odds(pools[0].dice, pools[1].dice, die, target, skilled)  # type: ignore[arg-type]


def _week_pools(state: BattleState) -> tuple[Pool, Pool]:
    bids = state.bids
    if bids[0] is None or bids[1] is None:
        raise RuleError("AI-7", "both sides must declare before the roll")
    return tuple(dice_pool(state, s, bids[s].maneuver, bids[s].stratagems, state.switched[s])  # type: ignore
                 for s in (0, 1))


# ---------------------------------------------------------------------------
# Session protocol


def start(setup: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
          rng: random.Random | None = None) -> BattleState:
    """Week 1, both sides to declare."""
    setup = normalize_setup(setup)
    armies = tuple(_army(raw) for raw in setup["armies"])
    rules = dict(rules or {})
    success_setting(rules)
    rules.setdefault("success", "d6/4+")
    rules["house_tables"] = normalize_house_tables(rules.get("house_tables"))
    return BattleState(
        armies=armies,  # type: ignore[arg-type]
        damage=tuple(tuple(0 for _ in a.units) for a in armies),  # type: ignore[arg-type]
        destroyed=tuple(tuple(False for _ in a.units) for a in armies),  # type: ignore[arg-type]
        vanguards=(armies[0].vanguard, armies[1].vanguard),
        rearguards=(armies[0].rearguard, armies[1].rearguard),
        week=1, phase="bid", bids=(None, None), switched=(False, False), weeks=(), phases_done=(),
        rules=tuple(sorted(rules.items())))


def _side_field(action: Mapping[str, Any]) -> int:
    side = action.get("side")
    if side not in (0, 1) or isinstance(side, bool) or not isinstance(side, int):
        raise ActionError(f"There is no side {side!r} (sides are 0 and 1)")
    return side


def _set(items: tuple, index: int, value: Any) -> tuple:
    return items[:index] + (value,) + items[index + 1:]


def _bid(state: BattleState, action: Mapping[str, Any]) -> BattleState:
    side = _side_field(action)
    if state.phase == "over":
        raise RuleError("AI-15", f"the battle is over: {state.outcome}")
    if state.phase != "bid":
        raise RuleError("AI-7", "the bids are already revealed; roll first")
    if state.bids[side] is not None:
        raise RuleError("AI-7", f"{state.armies[side].name} has already declared this week")
    maneuver = action.get("maneuver")
    if maneuver not in MANEUVERS:
        raise ActionError(f"Unknown maneuver {maneuver!r} (maneuvers: {', '.join(MANEUVERS)})")
    raw = action.get("stratagems", [])
    if not isinstance(raw, (list, tuple)) or not all(isinstance(k, str) for k in raw):
        raise ActionError("The stratagems must be a list of names")
    keys = []
    for key in raw:
        problem = stratagem_problem(state, side, key, maneuver)
        if problem:
            raise RuleError(problem.split(":", 1)[0], problem.split(": ", 1)[1])
        if key not in keys:
            keys.append(key)
    order = [s.key for s in STRATAGEMS]
    keys.sort(key=order.index)
    return replace(state, bids=_set(state.bids, side, Bid(maneuver, tuple(keys))))


def _reveal(state: BattleState) -> BattleState:
    if state.phase != "bid":
        raise RuleError("AI-7", "there is nothing to reveal" if state.phase == "revealed" else
                        f"the battle is over: {state.outcome}")
    waiting = [state.armies[s].name for s in (0, 1) if state.bids[s] is None]
    if waiting:
        raise RuleError("AI-7", f"both sides declare before the reveal (waiting for {' and '.join(waiting)})")
    return replace(state, phase="revealed")


def _counter(state: BattleState, action: Mapping[str, Any]) -> BattleState:
    side = _side_field(action)
    if not can_counter_attack(state, side):
        enemy = state.bids[1 - side]
        if enemy is not None and "feint" in enemy.stratagems:
            raise RuleError("AI-16", "the enemy's Feint cancels Counter Attack")
        raise RuleError("AI-16", "Counter Attack switches to Attack only after the enemy reveals Attack or "
                                 "Shock Attack, for a Defend declared with Counter Attack")
    return replace(state, switched=_set(state.switched, side, True))


def _dice_field(action: Mapping[str, Any], pools: tuple[Pool, Pool], die: int,
                rng: random.Random | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    given = action.get("dice")
    if given is None:
        if rng is None:
            raise ValueError("step needs the game's random generator to roll")
        return tuple(tuple(rng.randint(1, die) for _ in range(p.dice)) for p in pools)  # type: ignore
    if not isinstance(given, (list, tuple)) or len(given) != 2:
        raise ActionError("The dice must be two lists, one per army")
    out = []
    for s, values in enumerate(given):
        if (not isinstance(values, (list, tuple)) or len(values) != pools[s].dice
                or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= die for v in values)):
            raise ActionError(f"Army {s + 1} rolls {pools[s].dice} dice, each from 1 to {die}")
        out.append(tuple(values))
    return tuple(out)  # type: ignore[return-value]


def _range_roll(action: Mapping[str, Any], side: int, span: tuple[int, int] | None,
                rng: random.Random | None) -> int:
    """AI-12: a range is rolled uniformly; a given roll must lie in it."""
    if span is None:
        return 0
    lo, hi = span
    given = action.get("ranges")
    if given is not None:
        if not isinstance(given, (list, tuple)) or len(given) != 2:
            raise ActionError("The range rolls must be two numbers, one per army")
        value = given[side]
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise ActionError(f"Army {side + 1}'s casualty roll must be from {lo} to {hi}")
        return value
    if lo == hi:
        return lo
    if rng is None:
        raise ValueError("step needs the game's random generator to roll")
    return rng.randint(lo, hi)


def _land(state: BattleState, side: int, count: int, first: int) -> tuple[tuple[int, ...], tuple[bool, ...],
                                                                         tuple[tuple[int, int], ...]]:
    """AI-14/HR-AI-1/HR-AI-2: ``count`` casualties land on ``side``'s units, line unit first.

    Returns the new carried damage, destroyed flags, and (unit, casualties) hits.
    Armour N: destroyed by N casualties this week (not carried). Size N: destroyed
    when its carried total reaches N. Neither: destroyed by one casualty.
    """
    army = state.armies[side]
    damage = list(state.damage[side])
    destroyed = list(state.destroyed[side])
    order = [first] + [i for i in range(len(army.units)) if i != first]
    week_hits: dict[int, int] = {}
    remaining = count
    for index in order:
        if remaining <= 0:
            break
        if destroyed[index]:
            continue
        unit = army.units[index]
        while remaining > 0 and not destroyed[index]:
            remaining -= 1
            week_hits[index] = week_hits.get(index, 0) + 1
            if unit.size:
                damage[index] += 1
            armour_gone = bool(unit.armour) and week_hits[index] >= unit.armour
            size_gone = bool(unit.size) and damage[index] >= unit.size
            if armour_gone or size_gone or (not unit.armour and not unit.size):
                destroyed[index] = True
        if remaining > 0 and not destroyed[index]:
            break  # cannot happen: the loop stops only when destroyed or out of casualties
    return tuple(damage), tuple(destroyed), tuple(sorted(week_hits.items()))


def _next_line(army: Army, destroyed: tuple[bool, ...], current: int) -> int:
    """HR-AI-3: the vanguard, or the next surviving line unit, or any surviving unit."""
    if not destroyed[current]:
        return current
    for i, unit in enumerate(army.units):
        if not destroyed[i] and unit.is_line:
            return i
    for i in range(len(army.units)):
        if not destroyed[i]:
            return i
    return current


def _roll(state: BattleState, action: Mapping[str, Any], rng: random.Random | None) -> BattleState:
    """AI-6 … AI-15: both armies roll; each reads its own row; casualties land; the week ends."""
    if state.phase == "bid":
        raise RuleError("AI-7", "both sides declare and reveal before the roll")
    if state.phase == "over":
        raise RuleError("AI-15", f"the battle is over: {state.outcome}")
    settings = state.settings
    die, target = success_setting(settings)
    bids: tuple[Bid, Bid] = state.bids  # type: ignore[assignment]
    pools = _week_pools(state)
    dice = _dice_field(action, pools, die, rng)
    successes = (count_successes(dice[0], die, target), count_successes(dice[1], die, target))
    margin = abs(successes[0] - successes[1])
    winner = None if margin == 0 else (0 if successes[0] > successes[1] else 1)
    skilled = bool(winner is not None and state.armies[winner].general and state.armies[winner].general.skilled)
    tier = victory_tier(margin, skilled)
    maneuvers = tuple("attack" if state.switched[s] else bids[s].maneuver for s in (0, 1))
    notes: list[str] = []
    read_as = list(maneuvers)
    for s in (0, 1):
        if (bids[s].maneuver == "defend" and "harassing_fire" in bids[s].stratagems and not state.switched[s]
                and maneuvers[1 - s] in ("withdraw", "defend", "block")):
            read_as[s] = "skirmish"
            notes.append(f"AI-16 Harassing Fire: {state.armies[s].name} reads its result as Skirmish")
    cells = tuple(result_cell(settings, tier, read_as[s], maneuvers[1 - s]) for s in (0, 1))
    for s in (0, 1):
        if cells[s].origin == "fallback" and cells[s].note not in notes:
            notes.append(cells[s].note)
    ranges = tuple(c.effect.casualties for c in cells)
    rolled = tuple(_range_roll(action, s, ranges[s], rng) for s in (0, 1))
    # AI-15 mitigation of the casualties each side takes.
    mitigated = [0, 0]
    for s in (0, 1):
        strats = bids[s].stratagems
        if (maneuvers[s] == "defend" and "hold_the_line" not in strats and successes[s] > successes[1 - s]
                and maneuvers[1 - s] in ("skirmish", "attack")):
            mitigated[s] += successes[s] - successes[1 - s]
        if maneuvers[s] == "block" and "delay" in strats:
            mitigated[s] += successes[s] // 2
    taken = tuple(max(0, rolled[1 - s] - mitigated[s]) for s in (0, 1))
    for s in (0, 1):
        if mitigated[s] and rolled[1 - s]:
            notes.append(f"AI-15: {state.armies[s].name} mitigates {min(mitigated[s], rolled[1 - s])} "
                         f"of {rolled[1 - s]} casualties")
        if "hold_the_line" in bids[s].stratagems:
            notes.append(f"AI-16 Hold the Line: {state.armies[s].name} does not fall back and mitigates nothing")
        for key in bids[s].stratagems:
            strat = STRATAGEM_BY_KEY[key]
            if strat.effect is None:
                notes.append(f"AI-17: {state.armies[s].name}'s {strat.name}: {NO_EFFECT}")
        if ("counter_attack" in bids[s].stratagems and "feint" in bids[1 - s].stratagems):
            notes.append("AI-16: Counter Attack and Feint cancel each other")
    damage, destroyed = list(state.damage), list(state.destroyed)
    hits: list[tuple[tuple[int, int], ...]] = [(), ()]
    for s in (0, 1):
        first = state.rearguards[s] if maneuvers[s] == "withdraw" else state.vanguards[s]
        damage[s], destroyed[s], hits[s] = _land(replace(state, damage=tuple(damage), destroyed=tuple(destroyed)),
                                                 s, taken[s], first)
    withdrew = [cells[s].effect.withdraw is True and maneuvers[s] == "withdraw" for s in (0, 1)]
    for s in (0, 1):
        if withdrew[s] and "last_stand" in bids[s].stratagems:
            gone = (state.rearguards[s],) + pools[s].reinforcing
            destroyed[s] = tuple(True if i in gone else d for i, d in enumerate(destroyed[s]))
            notes.append(f"AI-16 Last Stand: {state.armies[s].name}'s rearguard and its reinforcing units "
                         "are destroyed")
        if withdrew[s] and "continuous_front" in bids[1 - s].stratagems:
            notes.append(f"AI-16 Continuous Front: {state.armies[s].name} may not withdraw through the "
                         "defended hex")
    lost = tuple(tuple(state.armies[s].units[i].name for i in range(len(destroyed[s]))
                       if destroyed[s][i] and not state.destroyed[s][i]) for s in (0, 1))
    names = [a.name for a in state.armies]
    vanguards = tuple(_next_line(state.armies[s], destroyed[s], state.vanguards[s]) for s in (0, 1))
    rearguards = tuple(state.rearguards[s] if not destroyed[s][state.rearguards[s]] else vanguards[s]
                       for s in (0, 1))
    ended = ""
    wiped = [all(destroyed[s]) for s in (0, 1)]
    if wiped[0] and wiped[1]:
        ended = "AI-15: both armies are destroyed"
    elif wiped[0] or wiped[1]:
        loser = 0 if wiped[0] else 1
        ended = f"AI-15: {names[loser]} is destroyed — {names[1 - loser]} holds the field"
    elif withdrew[0] or withdrew[1]:
        who = " and ".join(names[s] for s in (0, 1) if withdrew[s])
        ended = f"AI-15: {who} withdraws from the battle"
    headline = (f"Week {state.week}: drawn combat ({successes[0]}–{successes[1]})" if winner is None else
                f"Week {state.week}: {TIER_NAMES[tier].lower()} for {names[winner]} "
                f"({successes[0]}–{successes[1]}, margin {margin})")
    result = WeekResult(
        week=state.week, maneuvers=maneuvers, read_as=tuple(read_as),  # type: ignore[arg-type]
        stratagems=(bids[0].stratagems, bids[1].stratagems), pools=pools, dice=dice,
        successes=successes, margin=margin, winner=winner, tier=tier, cells=cells,  # type: ignore[arg-type]
        ranges=ranges, rolled=rolled, mitigated=tuple(mitigated), taken=taken,  # type: ignore[arg-type]
        hits=tuple(hits), lost=lost, notes=tuple(notes), headline=headline, ended=ended)  # type: ignore[arg-type]
    new = replace(state, damage=tuple(damage), destroyed=tuple(destroyed), vanguards=vanguards,
                  rearguards=rearguards, weeks=state.weeks + (result,), bids=(None, None),
                  switched=(False, False))  # type: ignore[arg-type]
    if ended:
        return replace(new, phase="over", outcome=ended)
    return replace(new, phase="bid", week=state.week + 1, phases_done=())


def _leave(state: BattleState, action: Mapping[str, Any]) -> BattleState:
    side = _side_field(action)
    if not can_leave(state, side):
        raise RuleError("AI-15", "an army may leave only by a successful Withdraw, a breakthrough "
                                 "stratagem, or the week after its opponent skirmishes")
    outcome = f"AI-15: {state.armies[side].name} leaves the battle (its opponent skirmished)"
    return replace(state, phase="over", outcome=outcome)


def _phase(state: BattleState, action: Mapping[str, Any]) -> BattleState:
    index = action.get("index")
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(TURN_PHASES):
        raise ActionError(f"There is no turn phase {index!r} (0 to {len(TURN_PHASES) - 1})")
    done = set(state.phases_done) ^ {index}
    return replace(state, phases_done=tuple(sorted(done)))


def step(state: BattleState, action: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
         rng: random.Random | None = None) -> BattleState:
    """The state after ``action`` (see the module docstring). Never mutates ``state``."""
    if not isinstance(action, Mapping):
        raise ActionError("An action must be an object with a type")
    kind = action.get("type")
    if kind == "bid":
        return _bid(state, action)
    if kind == "reveal":
        return _reveal(state)
    if kind == "counter_attack":
        return _counter(state, action)
    if kind == "roll":
        return _roll(state, action, rng)
    if kind == "leave":
        return _leave(state, action)
    if kind == "phase":
        return _phase(state, action)
    raise ActionError(f"Unknown action type {kind!r}")


def describe(state: BattleState, action: Mapping[str, Any]) -> str:
    """A short history label. A bid's label never names its maneuver (AI-7): the history is
    on screen while the other side declares."""
    if not isinstance(action, Mapping):
        return "Unknown action"
    kind = action.get("type")
    prefix = f"Week {state.week} · "
    name = (lambda s: state.armies[s].name if s in (0, 1) and not isinstance(s, bool) else "?")
    if kind == "bid":
        return f"{prefix}{name(action.get('side'))} declares in secret"
    if kind == "reveal":
        return f"{prefix}both bids revealed"
    if kind == "counter_attack":
        return f"{prefix}{name(action.get('side'))} counter-attacks"
    if kind == "roll":
        return f"{prefix}roll"
    if kind == "leave":
        return f"{prefix}{name(action.get('side'))} leaves the battle"
    if kind == "phase":
        index = action.get("index")
        label = TURN_PHASES[index] if isinstance(index, int) and 0 <= index < len(TURN_PHASES) else "?"
        return f"{prefix}turn phase: {label}"
    return "Unknown action"


def status(state: BattleState) -> str:
    """What the table waits for, in one sentence."""
    names = [a.name for a in state.armies]
    if state.phase == "over":
        return state.outcome
    if state.phase == "revealed":
        return f"Week {state.week}: bids revealed — roll the dice (AI-8)"
    waiting = [names[s] for s in (0, 1) if state.bids[s] is None]
    return f"Week {state.week}: waiting for {' and '.join(waiting)} to declare (AI-7)" if waiting else \
        f"Week {state.week}: both sides have declared — reveal together (AI-7)"


def public_game(game: Game) -> Game:
    """A spectator's copy: no bid that has not been revealed, no seed, dice as rolled.

    Bids are kept only when the week's reveal is among the actions in force; the
    redo stack is dropped; each roll carries the dice and casualty rolls it made,
    so the copy replays the same battle with seed 0 and cannot foretell later dice.
    """
    from .game import replay

    acts = list(game.actions[: game.position])
    state = replay(game)
    rolls = iter(state.weeks)
    kept: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    for action in acts:
        kind = action.get("type") if isinstance(action, Mapping) else None
        if kind == "bid":
            pending.append({k: action[k] for k in ("type", "side", "maneuver", "stratagems") if k in action})
            continue
        if kind == "reveal":
            kept.extend(pending)
            pending = []
            kept.append({"type": "reveal"})
        elif kind == "roll":
            week = next(rolls)
            kept.append({"type": "roll", "dice": [list(d) for d in week.dice],
                         "ranges": [week.rolled[s] if week.ranges[s] else 0 for s in (0, 1)]})
        elif kind in ("counter_attack", "leave"):
            kept.append({"type": kind, "side": action.get("side")})
        elif kind == "phase":
            kept.append({"type": "phase", "index": action.get("index")})
    return replace(game, seed=0, actions=tuple(kept), position=len(kept), _tip=None)
