"""Ascension Isle battles: the rule functions (RULES.md AI-2 … AI-6, AI-8 … AI-12, AI-16).

Pure functions on values, each citing the clauses it applies:

* dice pools and margins — :func:`reinforcement_threshold`, :func:`reinforcement_dice`,
  :func:`next_die_needs` (AI-3, AI-5), :func:`victory_tier` (AI-8, AI-9);
* the rules settings — :data:`VARIANTS` (AI-6 dice and success, the AI-10 variant, HR-AI-7
  whose dice, the AI-11 house tables checked by :func:`normalize_house_tables`),
  :func:`settings_summary`, :func:`success_setting`, :func:`success_chance`,
  :func:`count_successes` (AI-6);
* the result tables — :func:`cell_effect` (AI-10, AI-12: what a cell's words do),
  :class:`Cell`, :func:`result_cell` (AI-10, AI-11 with its fallback, HR-AI-10);
* the exact odds of a roll — :func:`success_distribution`, :func:`tier_odds` (AI-6, AI-8);
* pools and stratagems — :func:`dice_pool` (AI-2, AI-3, AI-16; HR-AI-4 … 6),
  :func:`week_pools`, :func:`offered_stratagems`, the AI-16 prerequisites
  (``stratagem_problem``) and Counter Attack's conditions (``counter_problem``).

``stratagem_problem``, ``counter_problem``, ``pool_of``, ``bid_pools``, ``alive_unit`` and
``stratagem_keys`` are shared inside the package and take checked arguments; the public
questions are the referee's (:func:`~engine.ascension.check_stratagem`,
:func:`~engine.ascension.check_counter_attack` …).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from types import MappingProxyType
from typing import Any

from ..game import ArgumentError, RuleError
from ..rules import SettingsError, Variant, resolve_rules
from ..text import brief_repr, text_problem
from .tables import FALLBACK, FALLBACK_NOTE, MANEUVER_NAMES, MANEUVERS, SOURCE_TABLES, TIER_NAMES, TIERS
from .values import (
    DICE_APP,
    DICE_TABLE,
    READS_BOTH,
    READS_WINNER,
    SKILLED,
    STRATAGEM_BY_KEY,
    STRATAGEMS,
    BattleState,
    Bid,
    CellEffect,
    Pool,
    Stratagem,
    Unit,
    bool_arg,
    int_arg,
    maneuver_arg,
    per_side,
    rules_arg,
    side_arg,
    state_arg,
)

# ---------------------------------------------------------------------------
# Dice pools and margins (AI-3, AI-5, AI-8, AI-9)


#: The most dice a pool can hold in this app (99 + reinforcement + scouting is far less).
MAX_POOL = 300
#: The largest k a reinforcement threshold is worked out for (2^(k+1) grows fast).
MAX_K = 1024


def _stat(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ArgumentError(f"AI-3: the {what} must be a whole number (got {brief_repr(value)})")
    if value < 0:
        raise ArgumentError(f"AI-3: the {what} cannot be negative (got {brief_repr(value)})")
    return int(value)


def reinforcement_threshold(base: int, k: int) -> int:
    """AI-3/AI-5: the rest of the army's total needed for ``k`` reinforcement dice: (2^(k+1) − 2)·b.

    A base of 0 counts as 1 (AI-5 ruling). For b = 5: 10, 30, 70, 150, 310 for k = 1 … 5.
    """
    base = _stat(base, "base stat")
    k = int_arg(k, "AI-3: the number of reinforcement dice", 0, MAX_K)
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
    return (2 ** (k + 2) - 2) * max(base, 1) - rest_total


def victory_tier(margin: int, skilled_general: bool = False) -> str:
    """AI-8/AI-9: the tier of a result with this margin (difference in successes).

    0 → ``"drawn"``; 1–2 ``"minor"``; 3–5 ``"major"``; 6+ ``"crushing"``; 10+
    ``"legendary"`` only for a skilled general (AI-9: level 3), else crushing. A
    negative margin is read from the other side (its size is what counts).
    """
    if not isinstance(margin, int) or isinstance(margin, bool):
        raise ArgumentError(f"AI-8: the margin must be a whole number (got {brief_repr(margin)})")
    skilled_general = bool_arg(skilled_general, "skilled_general")
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
# Success setting (AI-6), house tables (AI-11), the other settings


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
            raise SettingsError(f"AI-11: there is no {brief_repr(tier)} table (tables: {', '.join(TIERS)})")
        if not isinstance(rows, Mapping):
            raise SettingsError(f"AI-11: the house {TIER_NAMES[tier]} table must be an object of rows")
        for own, cols in rows.items():
            if own not in MANEUVERS or not isinstance(cols, Mapping):
                raise SettingsError(f"AI-11: the house {TIER_NAMES[tier]} table has an unknown row {brief_repr(own)}")
            for other, text in cols.items():
                if other not in MANEUVERS:
                    raise SettingsError(f"AI-11: the house {TIER_NAMES[tier]} table has an unknown column "
                                        f"{brief_repr(other)}")
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
        key="reads",
        rule_id="AI-10",
        label="Who reads the result tables",
        choices=((READS_BOTH, "each side reads its own row (the source)"),
                 (READS_WINNER, "winner reads: in a minor victory or better only the winner's row is applied")),
        default=READS_BOTH,
        explanation="The source has each side read its own row, whoever won. Variant (winner reads): in a "
                    "minor victory or better only the winner's row is applied — the loser inflicts nothing "
                    "and its withdraw gets away only if the winner's cell says so; a drawn combat is read "
                    "by both.",
    ),
    Variant(
        key="dice",
        rule_id="HR-AI-7",
        label="Whose dice",
        choices=((DICE_APP, "the app's dice: the app rolls"),
                 (DICE_TABLE, "our own dice: the table rolls real dice and enters them")),
        default=DICE_APP,
        explanation="With your own dice the app still shows the exact odds first; then each side's dice are "
                    "entered (the faces, or just the number of successes) and checked against the pool and "
                    "the success rule (AI-6), and so are the casualty range rolls (AI-12). Every entered die "
                    "is recorded in the game, like the app's own rolls.",
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

VARIANT_BY_KEY: Mapping[str, Variant] = MappingProxyType({v.key: v for v in VARIANTS})


def settings_summary(rules: Mapping[str, Any] | None = None) -> str:
    """The game's rules settings in one line, for the share drawer and the saves ("d6, a
    success on 4 or more · each side reads its own row · our own dice · 2 house table cells").
    Refuses settings that are not this system's (:class:`~engine.rules.SettingsError`)."""
    resolved = resolve_rules(VARIANTS, rules_arg(rules))
    house = resolved["house_tables"]
    edited = sum(len(cols) for rows in house.values() for cols in rows.values())
    parts = [VARIANT_BY_KEY[key].describe(resolved[key]).replace(" (the app's ruling)", "")
             for key in ("success", "reads", "dice")]
    parts.append(f"{edited} house table cell{'s' if edited != 1 else ''}" if edited else "no house tables")
    return " · ".join(parts)


def success_setting(rules: Mapping[str, Any] | None = None) -> tuple[int, int]:
    """AI-6: (die size, target number) of the group's setting (default d6, 4+)."""
    value = rules_arg(rules).get("success", "d6/4+")
    if not isinstance(value, str) or value not in {c for c, _ in _SUCCESS_CHOICES}:
        raise SettingsError(f"AI-6: {brief_repr(value)} is not a dice setting")
    match = re.fullmatch(r"d(\d+)/(\d+)\+", value)
    return int(match.group(1)), int(match.group(2))  # type: ignore[union-attr]  # every choice matches


def _die_target(die: Any, target: Any) -> tuple[int, int]:
    if die not in DIE_SIZES or not isinstance(die, int) or isinstance(die, bool):
        raise ArgumentError(f"AI-6: the die is a d6, d8 or d10 (got {brief_repr(die)})")
    if not isinstance(target, int) or isinstance(target, bool) or not 2 <= target <= die:
        raise ArgumentError(f"AI-6: the target number is a whole number from 2 to {die} (got {brief_repr(target)})")
    return die, target


def success_chance(die: int, target: int) -> Fraction:
    """AI-6: the chance that one die shows a success."""
    die, target = _die_target(die, target)
    return Fraction(die - target + 1, die)


def count_successes(dice: Iterable[int], die: int = 6, target: int = 4) -> int:
    """AI-6: how many dice show the target number or more (each die from 1 to its size)."""
    die, target = _die_target(die, target)
    if isinstance(dice, (str, bytes, Mapping)) or not isinstance(dice, Iterable):
        raise ArgumentError(f"AI-6: the dice must be a list of faces (got {brief_repr(dice)})")
    values = list(dice)
    for value in values:
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= die:
            raise ArgumentError(f"AI-6: a d{die} shows 1 to {die} (got {brief_repr(value)})")
    return sum(1 for value in values if value >= target)


# ---------------------------------------------------------------------------
# Result tables (AI-10, AI-11, AI-12)


_INFLICT = re.compile(r"inflict\s+(\d+)(?:\s*[-–]\s*(\d+))?\s+casualt", re.IGNORECASE)


def cell_effect(text: str) -> CellEffect:
    """AI-10/AI-12: the effect of a result cell, read from its words.

    "Withdraw Succeeds …" / "Withdraw fails …" set ``withdraw``; "inflict 1-5
    casualties" (or "inflict 1 casualty") gives the casualty range.
    """
    if not isinstance(text, str):
        raise ArgumentError(f"AI-10: a result cell is text (got {brief_repr(text)})")
    if len(text) > 10 * CELL_MAX:
        raise ArgumentError(f"AI-10: a result cell has at most {CELL_MAX} characters")
    return _cell_effect(text)


@lru_cache(maxsize=512)
def _cell_effect(text: str) -> CellEffect:
    """:func:`cell_effect` of a checked text, remembered (the odds read the same cells often)."""
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

    @cached_property
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
        raise ArgumentError(f"No such table cell: {brief_repr(tier)} / {brief_repr(own)} / {brief_repr(other)}")
    house = rules_arg(rules).get("house_tables") or {}
    if not isinstance(house, Mapping):
        raise SettingsError("AI-11: the house tables must be an object of tiers")
    rows = house.get(tier)
    cols = rows.get(own) if isinstance(rows, Mapping) else None
    text = cols.get(other) if isinstance(cols, Mapping) else None
    if isinstance(text, str):
        return Cell(tier, own, other, text, "house")
    return _source_cell(tier, own, other)


@lru_cache(maxsize=None)
def _source_cell(tier: str, own: str, other: str) -> Cell:
    """The source's cell (or its AI-11 fallback to Minor victory), made once: a Cell is immutable."""
    if tier in SOURCE_TABLES:
        return Cell(tier, own, other, SOURCE_TABLES[tier][own][other], "source")
    return Cell(tier, own, other, SOURCE_TABLES[FALLBACK[tier]][own][other], "fallback")


# ---------------------------------------------------------------------------
# Exact odds (AI-6, AI-8)


def success_distribution(dice: int, die: int = 6, target: int = 4) -> list[int]:
    """Ways (out of die**dice) to roll k successes with ``dice`` dice, k = 0 … dice."""
    dice = int_arg(dice, "A dice pool", 0, MAX_POOL)
    die, target = _die_target(die, target)
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
        int_arg(pool, "A dice pool", 0, MAX_POOL)
    die, target = _die_target(die, target)
    if not isinstance(skilled, (tuple, list)) or len(skilled) != 2:
        raise ArgumentError("skilled must be a pair of true/false, one per side")
    skilled = (bool_arg(skilled[0], "skilled[0]"), bool_arg(skilled[1], "skilled[1]"))
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
# Pools and stratagems (AI-2, AI-3, AI-16)


#: AI-16: the general's level each stratagem needs (absent: no level).
_LEVEL_NEEDED: Mapping[str, int] = MappingProxyType({
    "deception": 2, "last_stand": 1, "hold_the_line": 1, "counter_attack": 2, "delay": 2, "hammer_and_anvil": 3,
    "encirclement": 3, "raid": 3, "guerrilla": 3, "flanking": 3, "feint": 3, "surprise": 3,
})
#: What a game played before the AI-16 table (``old_rulings``) required.
_OLD_LEVEL_NEEDED: Mapping[str, int] = MappingProxyType({
    "deception": 2, "last_stand": 1, "hold_the_line": 1, "counter_attack": 2, "delay": 2, "hammer_and_anvil": 3,
})

_STAT_OF = {"withdraw": "mobility", "skirmish": "mobility", "defend": "defense", "block": "defense",
            "attack": "attack", "shock": "attack"}


def alive_unit(state: BattleState, side: int, index: Any, what: str = "The unit") -> int:
    """``index`` as a unit of ``side`` still in the field (an ArgumentError says ``what`` it is)."""
    units = state.armies[side].units
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(units):
        raise ArgumentError(f"{what} must be a unit number from 0 to {len(units) - 1} (got {brief_repr(index)})")
    if state.destroyed[side][index]:
        raise ArgumentError(f"{what} ({units[index].name}) is destroyed")
    return int(index)


def stratagem_problem(state: BattleState, side: int, key: str, maneuver: str) -> str | None:
    """AI-16: why ``side`` may not declare stratagem ``key`` with ``maneuver``, the clause first
    ("AI-16: …", "HR-AI-5: …"), or None (checked arguments; the public question is the
    referee's :func:`~engine.ascension.check_stratagem`)."""
    strat = STRATAGEM_BY_KEY.get(key)
    if strat is None:
        return f"AI-16: there is no stratagem {brief_repr(key)}"
    if maneuver not in strat.maneuvers:
        with_ = " or ".join(MANEUVER_NAMES[m] for m in strat.maneuvers)
        return f"AI-16: {strat.name} modifies {with_}, not {MANEUVER_NAMES[maneuver]}"
    army = state.armies[side]
    alive = [army.units[i] for i in state.alive(side)]
    general = army.general
    need_level = (_OLD_LEVEL_NEEDED if state.old_rulings else _LEVEL_NEEDED).get(key)
    if need_level is not None and (general is None or general.level < need_level):
        who = f"{army.name} has no general" if general is None else \
            f"{army.name}'s general is level {general.level}"
        needs = SKILLED if need_level == 3 and key != "hammer_and_anvil" else \
            f"a general of level {need_level}" + (" or more" if need_level < 3 else "")
        return f"AI-16: {strat.name} needs {needs}; {who}"
    observer = any(u.has("observer") for u in alive) or bool(general and "observer" in general.traits)
    if key in ("covering_fire", "harassing_fire") and not observer:
        return f"AI-16: {strat.name} needs an observer unit or general"
    if key == "harassing_fire" and not any(u.has("long range") for u in alive):
        return "HR-AI-5: Harassing Fire needs at least one long-range unit"
    if key == "continuous_front":
        count = sum(1 for u in alive if u.has("infantry"))
        if count < 20:
            return f"AI-16: Continuous Front needs at least 20 infantry divisions ({army.name} has {count})"
    if key == "speed" and not state.old_rulings:
        own = pool_of(state, side, "skirmish").dice
        enemy = pool_of(state, 1 - side, "skirmish").dice
        if own <= enemy:
            return (f"AI-16: Speed needs faster units: {army.name}'s Skirmish pool ({own} dice) must be larger "
                    f"than {state.armies[1 - side].name}'s ({enemy} dice)")
    return None


def offered_stratagems(state: BattleState, side: int, maneuver: str) -> list[Stratagem]:
    """AI-16: the stratagems of ``maneuver`` that ``side``'s army qualifies for."""
    state, side, maneuver = state_arg(state), side_arg(side), maneuver_arg(maneuver)
    return [s for s in STRATAGEMS if maneuver in s.maneuvers
            and stratagem_problem(state, side, s.key, maneuver) is None]


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
    reinforcing = list(dict.fromkeys(i for i, _ in reinforce))  # each unit once, in order
    return Pool(maneuver, stat, line, base, rest, k, extra, base + k + extra, needs,
                tuple(reinforcing) if reinforcement_allowed else (), notes)


def _scouting_dice(alive: list[tuple[int, Unit]]) -> int:
    """HR-AI-4: the scouting roll's pool: the best scout's mobility reinforced by the other scouts."""
    scouts = [(i, u) for i, u in alive if u.has("scout")]
    if not scouts:
        return 0
    best = max(scouts, key=lambda iu: iu[1].mobility)
    rest = sum(u.mobility for i, u in scouts if i != best[0])
    return best[1].mobility + reinforcement_dice(best[1].mobility, rest)


def stratagem_keys(stratagems: Any) -> frozenset[str]:
    """The keys of ``stratagems`` (a list of known stratagem keys), or an ArgumentError."""
    if isinstance(stratagems, (str, bytes, Mapping)) or not isinstance(stratagems, Iterable):
        raise ArgumentError(f"The stratagems must be a list of keys such as 'flanking' (got {brief_repr(stratagems)})")
    keys = list(stratagems)
    for key in keys:
        if not isinstance(key, str) or key not in STRATAGEM_BY_KEY:
            raise ArgumentError(f"AI-16: there is no stratagem {brief_repr(key)}")
    return frozenset(keys)


def pool_of(state: BattleState, side: int, maneuver: str, stratagems: Iterable[str] = (),
            switched: bool = False, rearguard: int | None = None) -> Pool:
    """The pool of :func:`dice_pool`, remembered with the state (a state never changes, so
    neither do its pools: a week asks for the same pools a dozen times, issue 30)."""
    stratagems = frozenset(stratagems)
    memo = state.__dict__.setdefault("_pools", {})  # not a field: replace() starts a new one
    key = (side, maneuver, stratagems, switched, rearguard)
    pool = memo.get(key)
    if pool is None:
        pool = memo[key] = _new_pool(state, side, maneuver, stratagems, switched, rearguard)
    return pool


def _new_pool(state: BattleState, side: int, maneuver: str, stratagems: frozenset[str],
              switched: bool, rearguard: int | None) -> Pool:
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
        rear = state.rearguards[side] if rearguard is None else rearguard
        last_stand = "last_stand" in stratagems
        stat = "defense" if last_stand else "mobility"
        reinforce = [(i, u.stat(stat)) for i, u in alive if i != rear and u.has("scout")]
        notes = ["AI-2: the rearguard's " + stat + " is the line stat; only scouts reinforce it"]
        if "covering_fire" in stratagems:
            if state.old_rulings:  # as played before the AI-16 table: a scout added only its mobility
                seen = {i for i, _ in reinforce}
            else:  # a unit never adds the same stat twice: a long-range scout adds its defense once
                seen = {i for i, _ in reinforce} if stat == "defense" else set()
            reinforce += [(i, u.defense) for i, u in alive if u.has("long range") and i != rear and i not in seen]
            notes.append("AI-16 Covering Fire: long-range units add their defense"
                         + ("" if state.old_rulings else " (a long-range scout its mobility and its defense)"))
        extra = _scouting_dice(alive) if "deception" in stratagems else 0
        if "deception" in stratagems:
            notes.append(f"AI-16 Deception: +{extra} scouting dice (HR-AI-4)")
        return _pool_from(alive, rear, stat, maneuver, reinforce, extra=extra, notes=tuple(notes))
    if maneuver in ("defend", "block") and "harassing_fire" in stratagems:
        ranged = [(i, u) for i, u in alive if u.has("long range")]
        if ranged:
            line = max(ranged, key=lambda iu: iu[1].defense)[0]
            reinforce = [(i, u.defense) for i, u in ranged if i != line]
            return _pool_from(alive, line, "defense", maneuver, reinforce,
                              notes=("AI-16 Harassing Fire: only long-range units are line and "
                                     "reinforcement (HR-AI-5)",))
    reinforce = [(i, u.stat(stat)) for i, u in alive if i != vanguard]
    return _pool_from(alive, vanguard, stat, maneuver, reinforce)


def dice_pool(state: BattleState, side: int, maneuver: str, stratagems: Iterable[str] = (),
              switched: bool = False, rearguard: int | None = None) -> Pool:
    """AI-2/AI-3/AI-16: the dice ``side`` rolls for ``maneuver`` with ``stratagems``.

    Attack/Shock Attack use attack, Defend/Block defense, Withdraw/Skirmish mobility
    (AI-2). The base is the vanguard's stat; the rest of the army reinforces (AI-3).
    A Withdraw's line stat is the rearguard's mobility (``rearguard``: the unit the bid
    names, else the army's current rearguard), and only scouts reinforce it; Covering
    Fire adds long-range units' defense (a long-range scout adds its mobility and its
    defense, never the same stat twice), Last Stand uses defense (HR-AI-6), Deception
    adds the scouting roll (HR-AI-4). Harassing Fire rolls the long-range units'
    defense (HR-AI-5). A switched Counter Attack rolls the vanguard's attack without
    reinforcement.
    """
    state, side, maneuver = state_arg(state), side_arg(side), maneuver_arg(maneuver)
    keys = stratagem_keys(stratagems)
    switched = bool_arg(switched, "switched")
    if rearguard is not None:
        rearguard = alive_unit(state, side, rearguard, "The rearguard")
    return pool_of(state, side, maneuver, keys, switched, rearguard)


def bid_pools(state: BattleState, bids: tuple[Bid | None, Bid | None] | None = None,
              switched: tuple[bool, bool] | None = None) -> tuple[Pool, Pool]:
    """AI-2/AI-3/AI-16: the pools of ``bids`` (default: the state's) with the Counter Attack
    ``switched`` (default: the state's), checked arguments; RuleError (AI-7) while a bid is
    missing or sealed."""
    bids = state.bids if bids is None else bids
    switched = state.switched if switched is None else switched
    first, second = bids
    if first is None or second is None or first.sealed or second.sealed:
        raise RuleError("AI-7", "both sides must declare (and reveal) before the roll")
    declared = (first, second)
    return per_side(lambda s: pool_of(state, s, declared[s].maneuver, declared[s].stratagems, switched[s],
                                      declared[s].rearguard))


def week_pools(state: BattleState) -> tuple[Pool, Pool]:
    """AI-2/AI-3/AI-16: the two pools this week's declared bids roll (Counter Attack switches
    included). Refused (:class:`~engine.game.RuleError`, AI-7) until both sides have declared
    and, in a spectator's copy, revealed."""
    return bid_pools(state_arg(state))


def counter_problem(state: BattleState, side: int, bids: tuple[Bid, Bid]) -> str | None:
    """AI-16: why ``side``'s Counter Attack may not switch to Attack against ``bids`` ("AI-16:
    …"), or None, whatever the phase (:func:`~engine.ascension.check_counter_attack` asks it
    of the state's revealed bids)."""
    own, enemy = bids[side], bids[1 - side]
    if own.maneuver != "defend" or "counter_attack" not in own.stratagems:
        return "AI-16: only a Defend declared with Counter Attack may switch to Attack"
    if enemy.maneuver not in ("attack", "shock"):
        return (f"AI-16: Counter Attack switches to Attack only after the enemy declares Attack or Shock Attack "
                f"({state.armies[1 - side].name} declared {MANEUVER_NAMES[enemy.maneuver]})")
    if "feint" in enemy.stratagems:
        return f"AI-16: {state.armies[1 - side].name}'s Feint cancels Counter Attack (and Counter Attack cancels it)"
    return None
