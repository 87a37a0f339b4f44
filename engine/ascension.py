"""Ascension Isle army battles (RULES.md section 4, clauses AI-1 … AI-19).

Two armies meet in a hex. Every week each side declares a maneuver in secret — a
blind bid the app keeps as the impartial invigilator (AI-7) — optionally with
stratagems its army qualifies for (AI-16). The bids are revealed together, each
army rolls its dice pool (the vanguard's stat plus reinforcement dice, AI-2, AI-3),
successes are counted (AI-6), and the margin gives the tier of the result (AI-8,
AI-9). Each side reads its own row of that tier's table (AI-10, AI-11; or only the
winner, in the AI-10 variant), rolls the casualty ranges (AI-12), lands the
casualties on the enemy's units (AI-14) less any mitigation (AI-15), a beaten
Defend or Block may fall back (AI-19), and the battle goes into another week until
an army is destroyed or leaves.

The module has four layers:

* pure rule functions on values — :func:`reinforcement_dice`, :func:`next_die_needs`,
  :func:`victory_tier`, :func:`count_successes`, :func:`cell_effect`,
  :func:`tier_odds`, :func:`success_setting` …;
* **the week's resolution as a pure function**, :func:`resolve` (``resolve(state,
  bids, rolls) -> WeekResult``): given the state before the roll, both bids and
  what the dice gave (:class:`Rolls`: each side's successes, its casualty range
  roll, optionally the faces), the whole outcome of the week — tier, cells read,
  casualties, mitigation, destroyed units, withdraw, fallback, how the battle ends
  and the units' state after it. :func:`step` uses it for every roll, so a caller
  that enumerates every die outcome (outcome odds, an advisor) gets exactly what a
  played week would give. :func:`casualty_ranges` says which range rolls a
  given pair of success counts calls for;
* the session protocol of :mod:`engine.game` (``KIND``, ``VARIANTS``,
  :func:`normalize_setup`, :func:`normalize_action`, :func:`start`, :func:`step`,
  :func:`describe`, :func:`public_game`, :func:`upgrade`, :func:`standing`,
  :func:`undo_warning`) over an immutable :class:`BattleState`;
* helpers for the board — :func:`dice_pool`, :func:`offered_stratagems`,
  :func:`result_cell`, :func:`week_odds`, :func:`status` ….

Every public function refuses bad arguments with a ``ValueError`` subclass whose
message says what is wrong (:class:`BadArgument`, :class:`SetupError`, or the
:class:`~engine.game.ActionError` / :class:`~engine.game.RuleError` of a move).

Setup (plain JSON)::

    {"armies": [army, army]}                # + "spectator": true in a spectator's copy,
                                            # + "old_rulings": true for a game played
                                            #   before the AI-16/AI-19 rulings (see upgrade)
    army = {"name": "First Corps", "units": [unit, ...], "vanguard": 0, "rearguard": 0,
            "general": null | {"name": "Marshal Vey", "level": 0..3, "traits": ["observer"]}}
    unit = {"name": "...", "attack": 5, "defense": 6, "mobility": 2,
            "traits": ["infantry", "line", "scout", "observer", "long range"],
            "armour": 0, "size": 0}          # 0: none; a unit has armour or size, not both (AI-14)

Actions (plain JSON dicts, canonical form as :func:`normalize_action` returns it):

* ``{"type": "bid", "side": s, "maneuver": "attack", "stratagems": ["flanking"]}`` —
  a side's secret declaration for this week (AI-7, AI-16); a Withdraw also names its
  ``"rearguard"`` (a unit index, AI-2);
* ``{"type": "reveal"}`` — both bids are shown together;
* ``{"type": "counter_attack", "side": s}`` — after the reveal, a defender with
  Counter Attack switches to Attack (AI-16);
* ``{"type": "roll"}`` — the app rolls both armies' dice; or the table's own dice
  entered as facts: ``"dice": [[…], […]]`` (the faces) or ``"successes": [n, n]``,
  and optionally ``"ranges": [n | null, n | null]`` (the casualty range rolls,
  AI-12; ``null``: the app rolls it, or the cell has no range). Facts are taken only
  with the table's own dice (HR-AI-7) and in a spectator's copy: with the app's dice a
  roll that carries them is refused (issue 35);
* ``{"type": "leave", "side": s}`` — an army leaves the battle the week after its
  opponent skirmished (AI-15);
* ``{"type": "join", "side": s, "unit": unit}`` — a unit joins its army between
  weeks (reinforcements entering the hex);
* ``{"type": "correct", "side": s, "index": i, "unit": unit}`` — a unit's entry is
  corrected between weeks (a mistyped stat);
* ``{"type": "phase", "index": i}`` — ticks (or unticks) a step of the campaign turn
  (AI-18);
* ``{"type": "bid", "side": s, "sealed": true}`` — only in a spectator's copy: the
  side has declared, what is not shown (AI-7).

An army of the setup may be played by the app (issue 17): ``"controller": "app"`` with a
``"level"`` (``"easy"``, ``"normal"``, ``"hard"``; people are the default and left out).
Its bids are ordinary bids that carry ``"why"``: one line, the app's reason
(:mod:`engine.ascension_advice`), hidden with the bid until the reveal and kept in the
week's result (``WeekResult.whys``).
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType
from collections.abc import Iterable, Mapping
from functools import cached_property, lru_cache
from typing import Any

from . import referee
from .ascension_tables import (
    FALLBACK, FALLBACK_NOTE, JIBRIL_DIVISION, MANEUVER_NAMES, MANEUVERS, MATCHUPS, SOURCE_TABLES,
    TIER_NAMES, TIERS, TURN_PHASES, matchup,
)
from .game import ActionError, Game, RuleError, freeze
from .rules import SettingsError, Variant, resolve_rules
from .text import brief_repr, key_text, setup_text, shown, text_problem

__all__ = [
    "equipment",
    "KIND", "VARIANTS", "HOUSE_RULES", "RULINGS", "STRATAGEMS", "SetupError", "BadArgument",
    "Unit", "General", "Army", "Bid", "Pool", "CellEffect", "Cell", "Rolls", "WeekResult", "BattleState",
    "reinforcement_dice", "reinforcement_threshold", "next_die_needs", "victory_tier",
    "success_setting", "settings_summary", "success_chance", "count_successes", "cell_effect", "result_cell",
    "tier_odds", "success_distribution", "normalize_setup", "normalize_house_tables", "normalize_action",
    "start", "step", "describe", "public_game", "upgrade", "standing", "undo_warning", "status",
    "resolve", "casualty_ranges", "dice_pool", "offered_stratagems", "stratagem_problem", "week_odds",
    "can_counter_attack", "can_leave", "can_change_armies", "jibril_division", "example_setup",
    "MANEUVERS", "MANEUVER_NAMES", "TIERS", "TIER_NAMES", "matchup", "MATCHUPS",
    "outcome_odds", "OutcomeOdds", "SideOdds", "MOVEMENTS", "MOVEMENT_NAMES", "withdraw_route",
]

KIND = "battle"

#: What a spectator link (:func:`public_game`) shows, in the Share drawer's words.
SPECTATOR_VIEW = ("the armies, who has declared, revealed bids, the dice and the log. A bid not yet revealed "
                  "never travels, and there is no seed.")


class SetupError(ValueError):
    """A battle setup that cannot be fought (the message names the field)."""


class BadArgument(ValueError):
    """A helper of this module called with an argument that makes no sense (a side that is
    not 0 or 1, a pool that is not a number of dice …); the message says which."""


# ---------------------------------------------------------------------------
# Argument checks shared by the public helpers


def _int(value: Any, what: str, low: int | None = 0, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadArgument(f"{what} must be a whole number (got {_shown(value)})")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = (f"from {low} to {high}" if high is not None else f"{low} or more") if low is not None \
            else f"at most {high}"
        raise BadArgument(f"{what} must be {bounds} (got {_shown(value)})")
    return int(value)


#: ``value`` for a message: short, whatever it is, huge numbers not spelled out (engine.text).
_shown = brief_repr


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise BadArgument(f"{what} must be true or false (got {_shown(value)})")
    return value


def _state(state: Any) -> "BattleState":
    if not isinstance(state, BattleState):
        raise BadArgument(f"Not a battle state: {type(state).__name__} (replay a battle game to get one)")
    return state


def _side(side: Any) -> int:
    if side not in (0, 1) or not isinstance(side, int) or isinstance(side, bool):
        raise BadArgument(f"There is no side {_shown(side)} (sides are 0 and 1)")
    return int(side)


def _maneuver(maneuver: Any) -> str:
    if not isinstance(maneuver, str) or maneuver not in MANEUVERS:
        raise BadArgument(f"Unknown maneuver {_shown(maneuver)} (maneuvers: {', '.join(MANEUVERS)})")
    return maneuver


def _rules_arg(rules: Any) -> Mapping[str, Any]:
    if rules is None:
        return {}
    if not isinstance(rules, Mapping):
        raise SettingsError("The rules settings must be an object of {setting: choice}")
    return rules


# ---------------------------------------------------------------------------
# Dice pools and margins (AI-3, AI-5, AI-8, AI-9)

#: The most dice a pool can hold in this app (99 + reinforcement + scouting is far less).
MAX_POOL = 300
#: The largest k a reinforcement threshold is worked out for (2^(k+1) grows fast).
MAX_K = 1024


def _stat(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadArgument(f"AI-3: the {what} must be a whole number (got {_shown(value)})")
    if value < 0:
        raise BadArgument(f"AI-3: the {what} cannot be negative (got {_shown(value)})")
    return int(value)


def reinforcement_threshold(base: int, k: int) -> int:
    """AI-3/AI-5: the rest of the army's total needed for ``k`` reinforcement dice: (2^(k+1) − 2)·b.

    A base of 0 counts as 1 (AI-5 ruling). For b = 5: 10, 30, 70, 150, 310 for k = 1 … 5.
    """
    base = _stat(base, "base stat")
    k = _int(k, "AI-3: the number of reinforcement dice", 0, MAX_K)
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
        raise BadArgument(f"AI-8: the margin must be a whole number (got {_shown(margin)})")
    skilled_general = _bool(skilled_general, "skilled_general")
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
            raise SettingsError(f"AI-11: there is no {_shown(tier)} table (tables: {', '.join(TIERS)})")
        if not isinstance(rows, Mapping):
            raise SettingsError(f"AI-11: the house {TIER_NAMES[tier]} table must be an object of rows")
        for own, cols in rows.items():
            if own not in MANEUVERS or not isinstance(cols, Mapping):
                raise SettingsError(f"AI-11: the house {TIER_NAMES[tier]} table has an unknown row {_shown(own)}")
            for other, text in cols.items():
                if other not in MANEUVERS:
                    raise SettingsError(f"AI-11: the house {TIER_NAMES[tier]} table has an unknown column "
                                        f"{_shown(other)}")
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


#: AI-10 variant: who reads the result tables.
READS_BOTH, READS_WINNER = "both", "winner"
#: HR-AI-7: whose dice.
DICE_APP, DICE_TABLE = "app", "table"

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

#: House rules of this app, where RULES.md is silent (id → text). Shown with a marker.
HOUSE_RULES: Mapping[str, str] = MappingProxyType({
    "HR-AI-1": "A unit with neither armour nor size is destroyed by one casualty.",
    "HR-AI-2": "Casualties land one at a time on the army's line unit (its vanguard; its rearguard in a "
               "Withdraw) until it is destroyed, then on the other units in the order they are listed.",
    "HR-AI-3": "When the vanguard is destroyed, the next surviving line unit in list order becomes the "
               "vanguard. When no line unit is left, the army fights on: its first surviving unit in list "
               "order stands in the line as its vanguard (the source allows other units in the line, with "
               "their weaknesses), and the board says so; a line unit that joins later takes the vanguard "
               "back. A destroyed rearguard is replaced by the vanguard.",
    "HR-AI-4": "Deception's scouting roll: the army's scouts roll their mobility as a pool (the best "
               "scout is the base, the other scouts reinforce it); an army without scouts adds nothing.",
    "HR-AI-5": "Harassing Fire: the army's long-range units are its line and reinforcement, with their "
               "defense; it needs at least one long-range unit.",
    "HR-AI-6": "Last Stand: the rearguard's reinforcement (its scouts) adds defense too, since the line "
               "stat is defense.",
    "HR-AI-7": "Whose dice is a game setting: with the app's dice the app rolls; with your own dice the "
               "table rolls and enters each side's dice and the casualty range rolls, which the app checks "
               "and records.",
    "HR-AI-8": "Continuous Front: the enemy may not withdraw through the defended hex, but a Withdraw its "
               "cell lets get away still leaves the battle (by the arc or back up its route, not through the "
               "hex); the board says so.",
    "HR-AI-9": "Last Stand: the units destroyed when the Withdraw gets away are the rearguard and every unit "
               "that reinforced its pool — Covering Fire's long-range units too.",
    "HR-AI-10": "AI-11 fallback: a Major, Crushing or Legendary cell your group has not edited reads the "
                "source's Minor victory cell (an edited Minor cell changes only the Minor table).",
    "HR-AI-11": "Defend mitigates casualties by the enemy's maneuver: those of an enemy Skirmish or Attack "
                "(a Counter Attack is an Attack), not those of a Defend or Block that reads Skirmish under "
                "Harassing Fire.",
    "HR-AI-12": "How a Withdraw gets away is read from its cell's words: \"three hex arc\" — it may disengage "
                "into the three-hex arc from its route; \"back up route\" or \"head back\" — it must head back "
                "up its route; a cell that says only \"Withdraw Succeeds\" names no direction.",
    "HR-AI-13": "The staff officer (advice behind the curtain, and the app's general) reads only what both "
                "sides can see: the two armies, never a sealed bid. Each maneuver is weighed with the "
                "stratagems whose effect is stated, when they raise its payoff; a Defend with Counter Attack "
                "switches whenever it may. Aims: net casualties (expected casualties landed on the enemy "
                "minus those landed on you), getting away (the chance your army leaves the battle by a "
                "Withdraw) and holding the hex (the chance your army is still in the hex after the week: "
                "not withdrawn, fallen back or destroyed). The recommendation is the equilibrium of that "
                "zero-sum game (exact, engine/zerosum.py).",
})

#: RULES.md clauses that are rulings (the app's reading where the source is silent).
RULINGS: tuple[str, ...] = ("AI-1", "AI-2", "AI-5", "AI-6", "AI-7", "AI-9", "AI-10", "AI-11", "AI-12", "AI-14",
                            "AI-15", "AI-16", "AI-17", "AI-19")

#: What a game played before the AI-16 prerequisites and the AI-19 fallback keeps (see :func:`upgrade`).
OLD_RULINGS_NOTE = ("This battle was played with an earlier version of the app and keeps the rules it was "
                    "played with: no fallback (AI-19), the earlier stratagem prerequisites and Covering Fire "
                    "(AI-16), and units may have both armour and size (AI-14).")


def settings_summary(rules: Mapping[str, Any] | None = None) -> str:
    """The game's rules settings in one line, for the share drawer and the saves ("d6, a
    success on 4 or more · each side reads its own row · our own dice · 2 house table cells").
    Refuses settings that are not this system's (:class:`~engine.rules.SettingsError`)."""
    resolved = resolve_rules(VARIANTS, _rules_arg(rules))
    house = resolved["house_tables"]
    edited = sum(len(cols) for rows in house.values() for cols in rows.values())
    parts = [VARIANT_BY_KEY[key].describe(resolved[key]).replace(" (the app's ruling)", "")
             for key in ("success", "reads", "dice")]
    parts.append(f"{edited} house table cell{'s' if edited != 1 else ''}" if edited else "no house tables")
    return " · ".join(parts)


def success_setting(rules: Mapping[str, Any] | None = None) -> tuple[int, int]:
    """AI-6: (die size, target number) of the group's setting (default d6, 4+)."""
    value = _rules_arg(rules).get("success", "d6/4+")
    if not isinstance(value, str) or value not in {c for c, _ in _SUCCESS_CHOICES}:
        raise SettingsError(f"AI-6: {_shown(value)} is not a dice setting")
    match = re.fullmatch(r"d(\d+)/(\d+)\+", value)
    return int(match.group(1)), int(match.group(2))  # type: ignore[union-attr]


def _die_target(die: Any, target: Any) -> tuple[int, int]:
    if die not in DIE_SIZES or not isinstance(die, int) or isinstance(die, bool):
        raise BadArgument(f"AI-6: the die is a d6, d8 or d10 (got {_shown(die)})")
    if not isinstance(target, int) or isinstance(target, bool) or not 2 <= target <= die:
        raise BadArgument(f"AI-6: the target number is a whole number from 2 to {die} (got {_shown(target)})")
    return die, target


def success_chance(die: int, target: int) -> Fraction:
    """AI-6: the chance that one die shows a success."""
    die, target = _die_target(die, target)
    return Fraction(die - target + 1, die)


def count_successes(dice: Iterable[int], die: int = 6, target: int = 4) -> int:
    """AI-6: how many dice show the target number or more (each die from 1 to its size)."""
    die, target = _die_target(die, target)
    if isinstance(dice, (str, bytes, Mapping)) or not isinstance(dice, Iterable):
        raise BadArgument(f"AI-6: the dice must be a list of faces (got {_shown(dice)})")
    values = list(dice)
    for value in values:
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= die:
            raise BadArgument(f"AI-6: a d{die} shows 1 to {die} (got {_shown(value)})")
    return sum(1 for value in values if value >= target)


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
    if not isinstance(text, str):
        raise BadArgument(f"AI-10: a result cell is text (got {_shown(text)})")
    if len(text) > 10 * CELL_MAX:
        raise BadArgument(f"AI-10: a result cell has at most {CELL_MAX} characters")
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
        raise BadArgument(f"No such table cell: {_shown(tier)} / {_shown(own)} / {_shown(other)}")
    house = _rules_arg(rules).get("house_tables") or {}
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
    dice = _int(dice, "A dice pool", 0, MAX_POOL)
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
        _int(pool, "A dice pool", 0, MAX_POOL)
    die, target = _die_target(die, target)
    if not isinstance(skilled, (tuple, list)) or len(skilled) != 2:
        raise BadArgument("skilled must be a pair of true/false, one per side")
    skilled = (_bool(skilled[0], "skilled[0]"), _bool(skilled[1], "skilled[1]"))
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
_STATS = ("attack", "defense", "mobility")


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
        """AI-1: line units (an infantry division is a line unit)."""
        return self.has("line") or self.has("infantry")

    def stat(self, name: str) -> int:
        if name not in _STATS:
            raise BadArgument(f"A unit has attack, defense and mobility (got {_shown(name)})")
        return {"attack": self.attack, "defense": self.defense, "mobility": self.mobility}[name]

    def toughness(self) -> str:
        parts = []
        if self.armour:
            parts.append(f"armour {self.armour}")
        if self.size:
            parts.append(f"size {self.size}")
        return ", ".join(parts) or "falls to 1 casualty (HR-AI-1)"

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "attack": self.attack, "defense": self.defense, "mobility": self.mobility,
                "traits": list(self.traits), "armour": self.armour, "size": self.size}


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
    """AI-1: an army: its units (those that joined later included), its vanguard and rearguard
    as set up (unit indexes), its general."""

    name: str
    units: tuple[Unit, ...]
    vanguard: int
    rearguard: int
    general: General | None
    level: str | None = None  # the app's level when the app plays this army (issue 17)


@dataclass(frozen=True)
class Bid:
    """AI-7: a side's declaration for the week: a maneuver, its stratagems (keys) and, for a
    Withdraw, the rearguard it names (AI-2; ``None``: the army's current rearguard).

    ``sealed`` marks the placeholder of a spectator's copy: the side declared, the copy
    does not say what (its ``maneuver`` is ``""``).
    """

    maneuver: str
    stratagems: tuple[str, ...] = ()
    rearguard: int | None = None
    sealed: bool = False


@dataclass(frozen=True)
class Pool:
    """AI-2/AI-3: an army's dice for one maneuver and how they were worked out.

    ``base`` is the line unit's stat (``line_unit`` its index), ``rest_total`` the
    reinforcement total, ``reinforcement`` the dice it gives (0 when the rules allow
    none), ``extra`` dice added by a stratagem (Deception's scouting roll), ``dice``
    the total rolled, ``next_needs`` how much more strength the next reinforcement die
    needs (``None`` when there is no reinforcement), ``reinforcing`` the units whose
    stats reinforce it (each once).
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
    """AI-16: a stratagem: the maneuvers it modifies, what it needs, what the app applies
    (``effect``; ``None`` when the source gives none, AI-17) and whether part of its effect
    is not given (``partly``: Feint's only stated effect is cancelling Counter Attack)."""

    key: str
    name: str
    maneuvers: tuple[str, ...]
    needs: str
    effect: str | None
    partly: bool = False

    @property
    def maneuver(self) -> str:
        """The maneuver it is listed with first (Harassing Fire: Defend; it also goes with Block)."""
        return self.maneuvers[0]

    @property
    def says(self) -> str:
        """What the board says the stratagem does (AI-16, AI-17)."""
        if self.effect is None:
            return NO_EFFECT
        if self.partly:
            return f"{self.effect}; any other effect is not given in the rules — the invigilator decides"
        return self.effect


_SKILLED = "a skilled general (level 3, AI-9)"

STRATAGEMS: tuple[Stratagem, ...] = (
    Stratagem("deception", "Deception", ("withdraw",), "a general of level 2 or more",
              "adds the scouting roll's successes to the withdraw roll (HR-AI-4)"),
    Stratagem("covering_fire", "Covering Fire", ("withdraw",), "an observer unit or general",
              "long-range units (not the rearguard) add their defense to the reinforcement total; a "
              "long-range scout adds its mobility and its defense"),
    Stratagem("last_stand", "Last Stand", ("withdraw",), "a general of level 1 or more",
              "the rearguard uses defense instead of mobility; on a successful withdraw the rearguard "
              "and its reinforcing units are destroyed"),
    Stratagem("continuous_front", "Continuous Front", ("defend",), "at least 20 infantry divisions",
              "the enemy cannot withdraw through the defended hex"),
    Stratagem("hold_the_line", "Hold the Line", ("defend",), "a general of level 1 or more",
              "no fallback from a successful Attack or Shock Attack (AI-19); no casualty mitigation"),
    Stratagem("counter_attack", "Counter Attack", ("defend",), "a general of level 2 or more",
              "after the enemy declares Attack or Shock Attack, switch to Attack without reinforcement "
              "dice; cancelled by the enemy's Feint (and cancels it)"),
    Stratagem("harassing_fire", "Harassing Fire", ("defend", "block"), "an observer unit or general, and a "
              "long-range unit (HR-AI-5)",
              "against an enemy Withdraw, Defend or Block, read your result as if you had declared "
              "Skirmish; only long-range units count as line and reinforcement"),
    Stratagem("delay", "Delay", ("block",), "a general of level 2 or more",
              "half the successes (rounded down) mitigate casualties"),
    Stratagem("hammer_and_anvil", "Hammer and Anvil", ("block",), "a general of level 3", None),
    Stratagem("encirclement", "Encirclement", ("block",), _SKILLED, None),
    Stratagem("ambush", "Ambush", ("block",), "nothing stated", None),
    Stratagem("raid", "Raid", ("skirmish",), _SKILLED, None),
    Stratagem("guerrilla", "Guerrilla", ("skirmish",), _SKILLED, None),
    Stratagem("flanking", "Flanking", ("attack",), _SKILLED, None),
    Stratagem("feint", "Feint", ("attack",), _SKILLED, "cancels the enemy's Counter Attack (and is cancelled "
              "by it)", partly=True),
    Stratagem("surprise", "Surprise", ("shock",), _SKILLED, None),
    Stratagem("speed", "Speed", ("shock",), "faster units: the army's Skirmish pool is larger than the "
              "enemy's (ruling)", None),
)

STRATAGEM_BY_KEY: Mapping[str, Stratagem] = MappingProxyType({s.key: s for s in STRATAGEMS})
_STRATAGEM_ORDER = {s.key: i for i, s in enumerate(STRATAGEMS)}

#: AI-16: the general's level each stratagem needs (absent: no level).
_LEVEL_NEEDED: Mapping[str, int] = MappingProxyType({
    "deception": 2, "last_stand": 1, "hold_the_line": 1, "counter_attack": 2, "delay": 2, "hammer_and_anvil": 3,
    "encirclement": 3, "raid": 3, "guerrilla": 3, "flanking": 3, "feint": 3, "surprise": 3,
})
#: What a game played before the AI-16 table (``old_rulings``) required.
_OLD_LEVEL_NEEDED: Mapping[str, int] = MappingProxyType({
    "deception": 2, "last_stand": 1, "hold_the_line": 1, "counter_attack": 2, "delay": 2, "hammer_and_anvil": 3,
})

#: AI-17: what a stratagem without a stated effect says when declared.
NO_EFFECT = "effect not given in the rules — the invigilator decides"

_STAT_OF = {"withdraw": "mobility", "skirmish": "mobility", "defend": "defense", "block": "defense",
            "attack": "attack", "shock": "attack"}


@dataclass(frozen=True)
class Rolls:
    """What the dice gave in one week (the input of :func:`resolve`).

    ``successes`` per side (AI-6); ``ranges`` per side the roll of its cell's casualty
    range (AI-12): a number in the range, or ``None`` where the cell has no range or a
    single number (then it is that number); ``dice`` the faces when they are known
    (``None``: only the successes were entered).
    """

    successes: tuple[int, int]
    ranges: tuple[int | None, int | None] = (None, None)
    dice: tuple[tuple[int, ...], tuple[int, ...]] | None = None


@dataclass(frozen=True)
class WeekResult:
    """One week's roll and its consequences (AI-8 … AI-19), as :func:`resolve` gives it.

    Per side (tuples of two): the final ``maneuvers`` (after a Counter Attack switch),
    ``read_as`` (the row read — Skirmish under Harassing Fire), ``stratagems``,
    ``pools``, ``dice`` (``None`` when only successes were entered), ``successes``,
    ``cells`` and whether each was ``applied`` (AI-10 variant: the loser's is not),
    casualty ``ranges`` and ``rolled`` (AI-12), ``mitigation`` (how many casualties the
    side could cancel, AI-15/Delay) and ``mitigated`` (how many it did cancel),
    ``taken`` (casualties that landed on it), ``hits`` ((unit, casualties) pairs),
    ``lost`` (names of its destroyed units), ``withdrew`` (got away, AI-15),
    ``fell_back`` (AI-19). ``winner`` is None for a drawn combat. ``ended`` is how the
    battle ended this week (empty: it goes on), ``how`` the same in a few words.
    ``damage``, ``destroyed``, ``vanguards``, ``rearguards`` are the armies after the
    week.
    """

    week: int
    maneuvers: tuple[str, str]
    read_as: tuple[str, str]
    stratagems: tuple[tuple[str, ...], tuple[str, ...]]
    pools: tuple[Pool, Pool]
    dice: tuple[tuple[int, ...], tuple[int, ...]] | None
    successes: tuple[int, int]
    margin: int
    winner: int | None
    tier: str
    cells: tuple[Cell, Cell]
    applied: tuple[bool, bool]
    ranges: tuple[tuple[int, int] | None, tuple[int, int] | None]
    rolled: tuple[int, int]
    mitigation: tuple[int, int]
    mitigated: tuple[int, int]
    taken: tuple[int, int]
    hits: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
    lost: tuple[tuple[str, ...], tuple[str, ...]]
    withdrew: tuple[bool, bool]
    fell_back: tuple[bool, bool]
    notes: tuple[str, ...]
    headline: str
    ended: str
    how: str
    damage: tuple[tuple[int, ...], tuple[int, ...]]
    destroyed: tuple[tuple[bool, ...], tuple[bool, ...]]
    vanguards: tuple[int, int]
    rearguards: tuple[int, int]
    rearguards_used: tuple[int | None, int | None] = (None, None)
    whys: tuple[str, str] = ("", "")  # the app general's reasons for its bid (issue 17)


PHASES = ("bid", "revealed", "over")


@dataclass(frozen=True)
class BattleState:
    """The battle at one moment. Immutable: :func:`step` returns a new one.

    * ``armies`` as set up, with units that joined later; ``damage[side][unit]``
      casualties carried (size, AI-14); ``destroyed[side][unit]``;
    * ``vanguards`` / ``rearguards``: current unit indexes (HR-AI-3);
    * ``week`` (from 1), ``phase`` (:data:`PHASES`), ``bids`` (None until declared),
      ``switched`` (Counter Attack taken after the reveal);
    * ``weeks``: finished weeks; ``outcome``: how it ended; ``how``: the same, short;
    * ``changes``: (week, text) of the units that joined or were corrected;
    * ``phases_done``: ticked AI-18 steps of this turn; ``rules`` the settings as pairs;
    * ``spectator``: a spectator's copy; ``old_rulings``: played before the AI-16/AI-19
      rulings (see :func:`upgrade`).
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
    how: str = ""
    changes: tuple[tuple[int, str], ...] = ()
    spectator: bool = False
    old_rulings: bool = False
    whys: tuple[str, str] = ("", "")  # the app general's one-line reasons for this week's bids

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self.rules)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def alive(self, side: int) -> list[int]:
        return [i for i, dead in enumerate(self.destroyed[_side(side)]) if not dead]


# ---------------------------------------------------------------------------
# Setup

_TEXT_MAX = 60
_STAT_MAX = 99
_MAX_UNITS = 200
_NUM_MAX = 99
_UNIT_KEYS = {"name", "attack", "defense", "mobility", "traits", "armour", "size"}


_quote = shown  # text in double quotes, anything else as _shown


def _text(value: Any, where: str, what: str, required: bool = True) -> str:
    return setup_text(value, where, what, error=SetupError, max_len=_TEXT_MAX, required=required)


def _whole(value: Any, where: str, what: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise SetupError(f"{where}: the {what} must be a whole number from {lo} to {hi} (got {_quote(value)})")
    return int(value)


def _keys(value: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(key_text(k) for k in value if k not in allowed)
    if unknown:
        raise SetupError(f"{where}: unknown field {', '.join(_quote(k) for k in unknown[:4])}")


def _traits(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        raise SetupError(f"{where}: the traits must be a list")
    out = []
    for trait in value:
        if not isinstance(trait, str) or trait not in TRAITS:
            raise SetupError(f"{where}: unknown trait {_quote(trait)} (traits: {', '.join(TRAITS)})")
        if trait not in out:
            out.append(trait)
    return [t for t in TRAITS if t in out]


def _unit_json(unit: Any, where: str, old_rulings: bool = False) -> dict[str, Any]:
    """AI-1/AI-14: one unit, validated and canonical (infantry implies line; armour or size)."""
    if not isinstance(unit, Mapping):
        raise SetupError(f"{where} must be an object with named fields")
    _keys(unit, _UNIT_KEYS, where)
    name = _text(unit.get("name"), where, "name")
    where = f"{where} ({name})"
    stats = {key: _whole(unit.get(key), where, key, 0, _STAT_MAX) for key in _STATS}
    traits = _traits(unit.get("traits"), where)
    if "infantry" in traits and "line" not in traits:  # AI-1 ruling: infantry implies line
        traits = [t for t in TRAITS if t in traits or t == "line"]
    armour = _whole(unit.get("armour", 0), where, "armour", 0, _NUM_MAX)
    size = _whole(unit.get("size", 0), where, "size", 0, _NUM_MAX)
    if armour and size and not old_rulings:
        raise SetupError(f"{where}: AI-14: a unit has armour or size, not both (armour {armour}, size {size})")
    return {"name": name, **stats, "traits": traits, "armour": armour, "size": size}


def _flag(setup: Mapping[str, Any], key: str, what: str) -> bool:
    value = setup.get(key, False)
    if not isinstance(value, bool):
        raise SetupError(f"Setup: '{key}' must be true ({what}) or left out")
    return value


def equipment(setup: Mapping[str, Any], rules: Mapping[str, Any] | None = None) -> str:
    """HR-AI-7: whose dice, in players' words."""
    return VARIANT_BY_KEY["dice"].sentence(resolve_rules(VARIANTS, _rules_arg(rules))["dice"])


def normalize_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """AI-1: validated, canonical setup JSON (see the module docstring for its shape).

    Raises :class:`SetupError` naming the field. The vanguard must be a line unit
    (AI-1: infantry implies line); the rearguard may be any unit (AI-2); a unit has
    armour or size, not both (AI-14) unless the game keeps its ``old_rulings``.
    ``"spectator": true`` marks a spectator's copy (:func:`public_game`).
    """
    if not isinstance(setup, Mapping):
        raise SetupError("The setup must be an object with named fields")
    _keys(setup, {"armies", "spectator", "old_rulings"}, "Setup")
    spectator = _flag(setup, "spectator", "a spectator's copy")
    old_rulings = _flag(setup, "old_rulings", "a game played before the AI-16 and AI-19 rulings")
    armies = setup.get("armies")
    if not isinstance(armies, (list, tuple)) or len(armies) != 2:
        raise SetupError("Setup: a battle has exactly 2 armies")
    out = []
    for a, raw in enumerate(armies):
        where = f"Army {a + 1}"
        if not isinstance(raw, Mapping):
            raise SetupError(f"{where} must be an object with named fields")
        _keys(raw, {"name", "units", "vanguard", "rearguard", "general", "controller", "level"}, where)
        name = _text(raw.get("name"), where, "name")
        where = f"Army {a + 1} ({name})"
        units = raw.get("units")
        if not isinstance(units, (list, tuple)) or not units:
            raise SetupError(f"{where}: the army has no units; give it at least one line unit")
        if len(units) > _MAX_UNITS:
            raise SetupError(f"{where}: an army has at most {_MAX_UNITS} units")
        out_units = [_unit_json(unit, f"{where}, unit {u + 1}", old_rulings) for u, unit in enumerate(units)]
        vanguard = _whole(raw.get("vanguard", 0), where, "vanguard (a unit number)", 0, len(out_units) - 1)
        if "line" not in out_units[vanguard]["traits"]:
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
                    "general": out_general, **_controller(raw, where)})
    result: dict[str, Any] = {"armies": out}
    if spectator:
        result["spectator"] = True
    if old_rulings:
        result["old_rulings"] = True
    return result


#: Who plays an army (setup ``"controller"``): people at the table, or the app (issue 17).
CONTROLLERS: tuple[str, ...] = ("people", "app")
APP_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")


def _controller(raw: Mapping[str, Any], where: str) -> dict[str, str]:
    """Issue 17: ``"controller": "app"`` and its ``"level"`` (easy, normal, hard); people are
    the default and are left out of the canonical setup (older setups normalize as before)."""
    controller = raw.get("controller", "people")
    if controller not in CONTROLLERS:
        raise SetupError(f'{where}: the army is played by "people" or "app" (got {_quote(controller)})')
    level = raw.get("level")
    if controller == "people":
        if level is not None:
            raise SetupError(f"{where}: a level is only for an army the app plays")
        return {}
    level = "normal" if level is None else level
    if level not in APP_LEVELS:
        raise SetupError(f"{where}: the app's level is easy, normal or hard (got {_quote(level)})")
    return {"controller": "app", "level": level}


def app_levels(setup: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """The app's level for each army of a (normalized) setup; ``None`` where people play it."""
    if not isinstance(setup, Mapping) or not isinstance(setup.get("armies"), (list, tuple)):
        raise BadArgument("Not a battle setup")
    out = []
    for raw in list(setup["armies"])[:2]:
        app = isinstance(raw, Mapping) and raw.get("controller") == "app"
        out.append((raw.get("level") if raw.get("level") in APP_LEVELS else "normal") if app else None)
    while len(out) < 2:
        out.append(None)
    return out[0], out[1]


def _unit(raw: Mapping[str, Any]) -> Unit:
    return Unit(raw["name"], raw["attack"], raw["defense"], raw["mobility"], tuple(raw["traits"]),
                raw["armour"], raw["size"])


def _army(raw: Mapping[str, Any]) -> Army:
    units = tuple(_unit(u) for u in raw["units"])
    g = raw["general"]
    general = General(g["name"], g["level"], tuple(g["traits"])) if g else None
    return Army(raw["name"], units, raw["vanguard"], raw["rearguard"], general,
                raw.get("level") if raw.get("controller") == "app" else None)


def jibril_division(name: str | None = None) -> dict[str, Any]:
    """AI-3: the source's example line unit, Jibril Armoured Infantry Division (5 / 6 / 2).

    The source calls Jibril soldiers armoured and able to take more punishment, but
    gives no armour or size number: as given, one casualty destroys a division
    (HR-AI-1); the board offers one tap to give them armour or size.
    """
    if name is not None:
        name = setup_text(name, "Jibril division", "name", error=BadArgument, max_len=_TEXT_MAX)
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


def _alive_unit(state: BattleState, side: int, index: Any, what: str = "The unit") -> int:
    units = state.armies[side].units
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(units):
        raise BadArgument(f"{what} must be a unit number from 0 to {len(units) - 1} (got {_shown(index)})")
    if state.destroyed[side][index]:
        raise BadArgument(f"{what} ({units[index].name}) is destroyed")
    return int(index)


def _stratagem_problem(state: BattleState, side: int, key: str, maneuver: str) -> str | None:
    strat = STRATAGEM_BY_KEY.get(key)
    if strat is None:
        return f"AI-16: there is no stratagem {_shown(key)}"
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
        needs = _SKILLED if need_level == 3 and key != "hammer_and_anvil" else \
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
        own = _pool(state, side, "skirmish").dice
        enemy = _pool(state, 1 - side, "skirmish").dice
        if own <= enemy:
            return (f"AI-16: Speed needs faster units: {army.name}'s Skirmish pool ({own} dice) must be larger "
                    f"than {state.armies[1 - side].name}'s ({enemy} dice)")
    return None


def stratagem_problem(state: BattleState, side: int, key: str, maneuver: str) -> str | None:
    """AI-16: why ``side`` may not declare stratagem ``key`` with ``maneuver`` (None if it may).

    The message starts with the clause it cites ("AI-16: …", "HR-AI-5: …").
    """
    state, side, maneuver = _state(state), _side(side), _maneuver(maneuver)
    if not isinstance(key, str):
        raise BadArgument(f"A stratagem is named by its key, such as 'flanking' (got {_shown(key)})")
    return _stratagem_problem(state, side, key, maneuver)


def offered_stratagems(state: BattleState, side: int, maneuver: str) -> list[Stratagem]:
    """AI-16: the stratagems of ``maneuver`` that ``side``'s army qualifies for."""
    state, side, maneuver = _state(state), _side(side), _maneuver(maneuver)
    return [s for s in STRATAGEMS if maneuver in s.maneuvers
            and _stratagem_problem(state, side, s.key, maneuver) is None]


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


def _stratagem_keys(stratagems: Any) -> frozenset[str]:
    if isinstance(stratagems, (str, bytes, Mapping)) or not isinstance(stratagems, Iterable):
        raise BadArgument(f"The stratagems must be a list of keys such as 'flanking' (got {_shown(stratagems)})")
    keys = list(stratagems)
    for key in keys:
        if not isinstance(key, str) or key not in STRATAGEM_BY_KEY:
            raise BadArgument(f"AI-16: there is no stratagem {_shown(key)}")
    return frozenset(keys)


def _pool(state: BattleState, side: int, maneuver: str, stratagems: Iterable[str] = (),
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
    state, side, maneuver = _state(state), _side(side), _maneuver(maneuver)
    keys = _stratagem_keys(stratagems)
    switched = _bool(switched, "switched")
    if rearguard is not None:
        rearguard = _alive_unit(state, side, rearguard, "The rearguard")
    return _pool(state, side, maneuver, keys, switched, rearguard)


def _counter_problem(state: BattleState, side: int, bids: tuple[Bid, Bid]) -> str | None:
    own, enemy = bids[side], bids[1 - side]
    if own.maneuver != "defend" or "counter_attack" not in own.stratagems:
        return "AI-16: only a Defend declared with Counter Attack may switch to Attack"
    if enemy.maneuver not in ("attack", "shock"):
        return (f"AI-16: Counter Attack switches to Attack only after the enemy declares Attack or Shock Attack "
                f"({state.armies[1 - side].name} declared {MANEUVER_NAMES[enemy.maneuver]})")
    if "feint" in enemy.stratagems:
        return f"AI-16: {state.armies[1 - side].name}'s Feint cancels Counter Attack (and Counter Attack cancels it)"
    return None


def can_counter_attack(state: BattleState, side: int) -> bool:
    """AI-16: may ``side`` switch to Attack now (revealed, declared Counter Attack with Defend,
    the enemy declared Attack or Shock Attack, and no Feint cancels it)?"""
    state, side = _state(state), _side(side)
    if state.phase != "revealed" or state.switched[side]:
        return False
    return _counter_problem(state, side, state.bids) is None  # type: ignore[arg-type]


def can_leave(state: BattleState, side: int) -> bool:
    """AI-15: an army may leave the week after its opponent skirmished (before bidding)."""
    state, side = _state(state), _side(side)
    return (state.phase == "bid" and bool(state.weeks) and state.bids == (None, None)
            and state.weeks[-1].maneuvers[1 - side] == "skirmish")


def can_change_armies(state: BattleState) -> bool:
    """Units may join or be corrected between weeks: before either side declares."""
    state = _state(state)
    return state.phase == "bid" and state.bids == (None, None)


def week_odds(state: BattleState, rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """AI-6/AI-8: exact odds of this week's roll with the revealed bids (see :func:`tier_odds`)."""
    state = _state(state)
    pools = _week_pools(state)
    die, target = success_setting(rules if rules is not None else state.settings)
    skilled = tuple(bool(a.general and a.general.skilled) for a in state.armies)
    return tier_odds(pools[0].dice, pools[1].dice, die, target, skilled)  # type: ignore[arg-type]


def _week_pools(state: BattleState, bids: tuple[Bid | None, Bid | None] | None = None,
                switched: tuple[bool, bool] | None = None) -> tuple[Pool, Pool]:
    bids = state.bids if bids is None else bids
    switched = state.switched if switched is None else switched
    if bids[0] is None or bids[1] is None or bids[0].sealed or bids[1].sealed:
        raise RuleError("AI-7", "both sides must declare (and reveal) before the roll")
    return tuple(_pool(state, s, bids[s].maneuver, bids[s].stratagems, switched[s], bids[s].rearguard)  # type: ignore
                 for s in (0, 1))


# ---------------------------------------------------------------------------
# The week's resolution: a pure function (AI-8 … AI-19)


@dataclass(frozen=True)
class _Reading:
    pools: tuple[Pool, Pool]
    margin: int
    winner: int | None
    tier: str
    maneuvers: tuple[str, str]
    read_as: tuple[str, str]
    cells: tuple[Cell, Cell]
    applied: tuple[bool, bool]
    notes: tuple[str, ...]

    @cached_property
    def ranges(self) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
        return tuple(self.cells[s].effect.casualties if self.applied[s] else None for s in (0, 1))  # type: ignore


def _bids_arg(state: BattleState, bids: Any) -> tuple[Bid, Bid]:
    if not isinstance(bids, (tuple, list)) or len(bids) != 2 or not all(isinstance(b, Bid) for b in bids):
        raise BadArgument("The bids must be a pair of Bid values, one per side")
    out = []
    for s, bid in enumerate(bids):
        if bid.sealed:
            raise BadArgument("A sealed bid (a spectator's copy) cannot be resolved")
        _maneuver(bid.maneuver)
        keys = _stratagem_keys(bid.stratagems)
        for key in keys:
            problem = _stratagem_problem(state, s, key, bid.maneuver)
            if problem:
                raise RuleError(problem.split(":", 1)[0], problem.split(": ", 1)[1])
        rear = bid.rearguard
        if bid.maneuver == "withdraw":
            rear = state.rearguards[s] if rear is None else _alive_unit(state, s, rear, "The rearguard")
        elif rear is not None:
            raise BadArgument("AI-2: only a Withdraw names a rearguard")
        out.append(replace(bid, stratagems=tuple(sorted(keys, key=_STRATAGEM_ORDER.__getitem__)), rearguard=rear))
    return out[0], out[1]


def _switched_arg(state: BattleState, bids: tuple[Bid, Bid], switched: Any) -> tuple[bool, bool]:
    if switched is None:
        return state.switched if state.phase == "revealed" and tuple(state.bids) == tuple(bids) else (False, False)
    if not isinstance(switched, (tuple, list)) or len(switched) != 2:
        raise BadArgument("switched must be a pair of true/false, one per side")
    out = (_bool(switched[0], "switched[0]"), _bool(switched[1], "switched[1]"))
    for s in (0, 1):
        if out[s]:
            problem = _counter_problem(state, s, bids)
            if problem:
                raise RuleError("AI-16", problem.split(": ", 1)[1])
    return out


def _successes_arg(successes: Any, pools: tuple[Pool, Pool]) -> tuple[int, int]:
    if not isinstance(successes, (tuple, list)) or len(successes) != 2:
        raise BadArgument("The successes must be a pair of numbers, one per side")
    return tuple(_int(successes[s], f"AI-6: side {s}'s successes", 0, pools[s].dice) for s in (0, 1))  # type: ignore


def _read(state: BattleState, bids: tuple[Bid, Bid], switched: tuple[bool, bool],
          successes: tuple[int, int], pools: tuple[Pool, Pool] | None = None) -> _Reading:
    """AI-8 … AI-11, AI-16: the tier and the cells each side reads for these successes
    (``pools``: the week's pools when the caller has them already)."""
    settings = state.settings
    pools = _week_pools(state, bids, switched) if pools is None else pools
    margin = abs(successes[0] - successes[1])
    winner = None if margin == 0 else (0 if successes[0] > successes[1] else 1)
    general = state.armies[winner].general if winner is not None else None
    tier = victory_tier(margin, bool(general and general.skilled))
    maneuvers = tuple("attack" if switched[s] else bids[s].maneuver for s in (0, 1))
    notes: list[str] = []
    read_as = list(maneuvers)
    for s in (0, 1):
        if (bids[s].maneuver in ("defend", "block") and "harassing_fire" in bids[s].stratagems and not switched[s]
                and maneuvers[1 - s] in ("withdraw", "defend", "block")):
            read_as[s] = "skirmish"
            notes.append(f"AI-16 Harassing Fire: {state.armies[s].name} reads its result as Skirmish")
    cells = tuple(result_cell(settings, tier, read_as[s], maneuvers[1 - s]) for s in (0, 1))
    applied = [True, True]
    if settings.get("reads") == READS_WINNER and winner is not None:
        applied[1 - winner] = False
        notes.append(f"AI-10 variant (winner reads): only {state.armies[winner].name}'s row is applied; "
                     f"{state.armies[1 - winner].name} inflicts nothing")
    for s in (0, 1):
        if cells[s].origin == "fallback" and applied[s] and cells[s].note not in notes:
            notes.append(cells[s].note)
    return _Reading(pools, margin, winner, tier, maneuvers, tuple(read_as), cells, tuple(applied),  # type: ignore
                    tuple(notes))


def casualty_ranges(state: BattleState, bids: tuple[Bid, Bid], successes: tuple[int, int],
                    switched: tuple[bool, bool] | None = None) -> tuple[tuple[int, int] | None,
                                                                        tuple[int, int] | None]:
    """AI-12: the casualty range each side's cell gives for these successes (``None``: the
    cell inflicts nothing, or is not applied under the AI-10 "winner reads" variant).

    A range ``(lo, hi)`` with ``lo < hi`` is rolled (or entered) for :class:`Rolls`;
    ``(n, n)`` is that number. ``switched``: Counter Attack switches (default: the
    state's, when ``bids`` are its revealed bids).
    """
    state = _state(state)
    bids = _bids_arg(state, bids)
    switched = _switched_arg(state, bids, switched)
    successes = _successes_arg(successes, _week_pools(state, bids, switched))
    return _read(state, bids, switched, successes).ranges



def _mitigation(bids: tuple[Bid, Bid], maneuvers: tuple[str, str],
                successes: tuple[int, int]) -> tuple[int, int]:
    """AI-15/AI-16: how many casualties each side may cancel this week: a Defend (not under
    Hold the Line) its successes over the opponent's against a Skirmish or an Attack; a Block
    with Delay half its successes (rounded down). Shared by :func:`resolve` and the odds."""
    mitigation = [0, 0]
    for s in (0, 1):
        strats = bids[s].stratagems
        if (maneuvers[s] == "defend" and "hold_the_line" not in strats and successes[s] > successes[1 - s]
                and maneuvers[1 - s] in ("skirmish", "attack")):
            mitigation[s] += successes[s] - successes[1 - s]
        if maneuvers[s] == "block" and "delay" in strats:
            mitigation[s] += successes[s] // 2
    return mitigation[0], mitigation[1]


def _mitigation_by_margin(bids: tuple[Bid, Bid]) -> bool:
    """Whether :func:`_mitigation` depends only on the difference of the successes (so the odds
    may count each margin once): always, but for a Block with Delay (half its own successes)."""
    return not any(b.maneuver == "block" and "delay" in b.stratagems for b in bids)


def _withdrew(reading: _Reading) -> tuple[bool, bool]:
    """AI-10/AI-15: which side's Withdraw gets away: its cell is applied and says "Withdraw
    Succeeds" (a Continuous Front only closes the defended hex to it, HR-AI-8)."""
    return tuple(reading.applied[s] and reading.cells[s].effect.withdraw is True  # type: ignore[return-value]
                 and reading.maneuvers[s] == "withdraw" for s in (0, 1))


def _last_stand_units(pool: Pool, rearguard: int | None) -> tuple[int, ...]:
    """AI-16 Last Stand: the units destroyed when the Withdraw gets away: the rearguard and
    every unit that reinforced its ``pool`` (HR-AI-9: Covering Fire's long-range units too)."""
    return (rearguard,) + pool.reinforcing  # type: ignore[operator]


def _beaten_line(reading: _Reading, bids: tuple[Bid, Bid]) -> int | None:
    """AI-19: the side that falls back this week (a Defend or Block beaten by 3+ by an Attack or
    Shock Attack, not holding the line), or None. Old games keep no fallback (see resolve)."""
    loser = None if reading.winner is None else 1 - reading.winner
    maneuvers = reading.maneuvers
    if (loser is not None and reading.margin >= 3 and maneuvers[loser] in ("defend", "block")
            and maneuvers[1 - loser] in ("attack", "shock") and "hold_the_line" not in bids[loser].stratagems):
        return loser
    return None


def _land(state: BattleState, side: int, count: int, first: int, damage: tuple[int, ...],
          destroyed: tuple[bool, ...]) -> tuple[tuple[int, ...], tuple[bool, ...], tuple[tuple[int, int], ...]]:
    """AI-14/HR-AI-1/HR-AI-2: ``count`` casualties land on ``side``'s units, line unit first.

    Returns the new carried damage, destroyed flags, and (unit, casualties) hits.
    Armour N: destroyed by N casualties this week (not carried). Size N: destroyed
    when its carried total reaches N. Neither: destroyed by one casualty.
    """
    army = state.armies[side]
    damage_l, destroyed_l = list(damage), list(destroyed)
    order = [first] + [i for i in range(len(army.units)) if i != first]
    week_hits: dict[int, int] = {}
    remaining = count
    for index in order:
        if remaining <= 0:
            break
        if destroyed_l[index]:
            continue
        unit = army.units[index]
        while remaining > 0 and not destroyed_l[index]:
            remaining -= 1
            week_hits[index] = week_hits.get(index, 0) + 1
            if unit.size:
                damage_l[index] += 1
            armour_gone = bool(unit.armour) and week_hits[index] >= unit.armour
            size_gone = bool(unit.size) and damage_l[index] >= unit.size
            if armour_gone or size_gone or (not unit.armour and not unit.size):
                destroyed_l[index] = True
    return tuple(damage_l), tuple(destroyed_l), tuple(sorted(week_hits.items()))


def _line_up(army: Army, destroyed: tuple[bool, ...], vanguard: int, rearguard: int) -> tuple[int, int]:
    """HR-AI-3: the vanguard (a surviving line unit, the first in list order when it must be
    replaced; any surviving unit when no line unit is left) and the rearguard (the vanguard
    when it is destroyed)."""
    alive = [i for i, dead in enumerate(destroyed) if not dead]
    lines = [i for i in alive if army.units[i].is_line]
    if vanguard in lines or (not lines and vanguard in alive):
        new_vanguard = vanguard
    elif lines:
        new_vanguard = lines[0]
    elif alive:
        new_vanguard = alive[0]
    else:
        new_vanguard = vanguard
    new_rearguard = rearguard if rearguard in alive else new_vanguard
    return new_vanguard, new_rearguard


def _line_notes(state: BattleState, side: int, old: tuple[int, int], new: tuple[int, int],
                destroyed: tuple[bool, ...]) -> list[str]:
    army = state.armies[side]
    if all(destroyed):
        return []
    notes = []
    if new[0] != old[0]:
        unit = army.units[new[0]]
        if unit.is_line:
            notes.append(f"HR-AI-3: {unit.name} is now the vanguard of {army.name}")
        else:
            notes.append(f"HR-AI-3: {army.name} has no line unit left: {unit.name} (not a line unit) stands in "
                         f"the line as its vanguard, and the army fights on")
    if new[1] != old[1]:
        notes.append(f"HR-AI-3: {army.units[new[1]].name} is now the rearguard of {army.name}")
    return notes


def _rolls_arg(rolls: Any, pools: tuple[Pool, Pool], die: int, target: int) -> Rolls:
    if not isinstance(rolls, Rolls):
        raise BadArgument("The rolls must be a Rolls value (successes, ranges, dice)")
    successes = _successes_arg(rolls.successes, pools)
    if not isinstance(rolls.ranges, (tuple, list)) or len(rolls.ranges) != 2:
        raise BadArgument("The range rolls must be a pair, one per side (None where nothing is rolled)")
    dice = rolls.dice
    if dice is not None:
        if not isinstance(dice, (tuple, list)) or len(dice) != 2:
            raise BadArgument("The dice must be two lists of faces, one per side")
        faces = []
        for s in (0, 1):
            if not isinstance(dice[s], (tuple, list)) or len(dice[s]) != pools[s].dice:
                raise BadArgument(f"AI-3: side {s} rolls {pools[s].dice} dice")
            if count_successes(dice[s], die, target) != successes[s]:
                raise BadArgument(f"AI-6: side {s}'s dice show {count_successes(dice[s], die, target)} successes, "
                                  f"not {successes[s]}")
            faces.append(tuple(int(v) for v in dice[s]))
        dice = (faces[0], faces[1])
    return Rolls(successes, (rolls.ranges[0], rolls.ranges[1]), dice)


def resolve(state: BattleState, bids: tuple[Bid, Bid], rolls: Rolls,
            switched: tuple[bool, bool] | None = None) -> WeekResult:
    """The whole outcome of one week, from the state before the roll, both bids and what the
    dice gave — a pure function (AI-8 … AI-19), the one :func:`step` uses for every roll.

    ``bids``: a :class:`Bid` per side (``stratagems`` must qualify, AI-16; a Withdraw's
    ``rearguard`` defaults to the army's current one). ``rolls``: a :class:`Rolls` —
    each side's successes (0 … its pool), each side's casualty range roll for the cell
    it reads (see :func:`casualty_ranges`: a number in the range where the range has
    more than one value, else ``None``), and optionally the faces. ``switched``:
    Counter Attack switches (default: the state's when ``bids`` are its revealed bids,
    else none). The state itself needs no particular phase, so a caller can resolve
    any pair of bids the armies could declare.

    Returns the :class:`WeekResult`: tier and margin (AI-8, AI-9), the cells read
    (AI-10, AI-11; the AI-10 "winner reads" variant when set), casualty rolls (AI-12),
    mitigation (AI-15 Defend, Delay; none under Hold the Line), casualties landed and
    units destroyed (AI-14, HR-AI-1, HR-AI-2), the vanguard's succession (HR-AI-3),
    withdraws (AI-15, Last Stand), the fallback (AI-19) and how the battle ends, with
    the armies' damage, destroyed units, vanguards and rearguards after the week.
    Raises a ``ValueError`` subclass for arguments that do not fit.
    """
    state = _state(state)
    bids = _bids_arg(state, bids)
    switched = _switched_arg(state, bids, switched)
    die, target = success_setting(state.settings)
    pools = _week_pools(state, bids, switched)
    rolls = _rolls_arg(rolls, pools, die, target)
    successes = rolls.successes
    reading = _read(state, bids, switched, successes)
    names = [a.name for a in state.armies]
    notes = list(reading.notes)
    ranges = reading.ranges
    rolled = []
    for s in (0, 1):
        span, given = ranges[s], rolls.ranges[s]
        if span is None:
            if given is not None:
                raise RuleError("AI-14", f"{names[s]}'s cell inflicts no casualties: it rolls nothing")
            rolled.append(0)
        elif given is None:
            if span[0] != span[1]:
                raise BadArgument(f"AI-12: {names[s]}'s casualty range {span[0]}–{span[1]} needs its roll")
            rolled.append(span[0])
        else:
            if not isinstance(given, int) or isinstance(given, bool) or not span[0] <= given <= span[1]:
                raise RuleError("AI-14", f"{names[s]}'s casualty roll must be from {span[0]} to {span[1]} "
                                         f"(got {_shown(given)})")
            rolled.append(int(given))
    maneuvers = reading.maneuvers
    mitigation = list(_mitigation(bids, maneuvers, successes))
    incoming = (rolled[1], rolled[0])
    mitigated = tuple(min(mitigation[s], incoming[s]) for s in (0, 1))
    taken = tuple(incoming[s] - mitigated[s] for s in (0, 1))
    for s in (0, 1):
        if mitigated[s]:
            how = "Delay" if maneuvers[s] == "block" else "Defend"
            notes.append(f"AI-15: {names[s]}'s {how} cancels {mitigated[s]} of the {incoming[s]} "
                         f"casualt{'y' if incoming[s] == 1 else 'ies'} it would take")
        if "hold_the_line" in bids[s].stratagems:
            notes.append(f"AI-16 Hold the Line: {names[s]} cannot fall back and mitigates nothing")
    countered = [("counter_attack" in bids[s].stratagems and "feint" in bids[1 - s].stratagems) for s in (0, 1)]
    for s in (0, 1):
        for key in bids[s].stratagems:
            strat = STRATAGEM_BY_KEY[key]
            if key == "feint" and countered[1 - s]:
                continue  # cancelled: said below
            if strat.effect is None or strat.partly:
                notes.append(f"AI-17: {names[s]}'s {strat.name}: {NO_EFFECT}")
        if countered[s]:
            notes.append(f"AI-16: {names[s]}'s Counter Attack and {names[1 - s]}'s Feint cancel each other: "
                         f"{names[s]} stays in Defend and the Feint has no effect")
    damage, destroyed = list(state.damage), list(state.destroyed)
    hits: list[tuple[tuple[int, int], ...]] = [(), ()]
    rears = tuple(bids[s].rearguard if maneuvers[s] == "withdraw" else None for s in (0, 1))
    for s in (0, 1):
        first = rears[s] if rears[s] is not None else state.vanguards[s]
        damage[s], destroyed[s], hits[s] = _land(state, s, taken[s], first, damage[s], destroyed[s])
    withdrew = list(_withdrew(reading))
    for s in (0, 1):
        if withdrew[s] and "last_stand" in bids[s].stratagems:
            gone = _last_stand_units(reading.pools[s], rears[s])
            destroyed[s] = tuple(True if i in gone else d for i, d in enumerate(destroyed[s]))
            notes.append(f"AI-16 Last Stand: {names[s]}'s rearguard and its reinforcing units are destroyed")
        if withdrew[s] and "continuous_front" in bids[1 - s].stratagems:
            notes.append(f"AI-16 Continuous Front: {names[s]} may not withdraw through the defended hex")
    # AI-19: a Defend or Block beaten by 3+ by an Attack or Shock Attack falls back (not under Hold the Line).
    fell_back = [False, False]
    loser = _beaten_line(reading, bids)
    if loser is not None:
        if state.old_rulings:
            notes.append(f"AI-19 not applied: this battle was played before the fallback ruling, so "
                         f"{names[loser]} does not fall back (kept as played)")
        else:
            fell_back[loser] = True
    lost = tuple(tuple(state.armies[s].units[i].name for i in range(len(destroyed[s]))
                       if destroyed[s][i] and not state.destroyed[s][i]) for s in (0, 1))
    lines = [_line_up(state.armies[s], destroyed[s], state.vanguards[s], state.rearguards[s]) for s in (0, 1)]
    for s in (0, 1):
        notes.extend(_line_notes(state, s, (state.vanguards[s], state.rearguards[s]), lines[s], destroyed[s]))
    ended, how = "", ""
    wiped = [all(destroyed[s]) for s in (0, 1)]
    if wiped[0] and wiped[1]:
        ended, how = "AI-15: both armies are destroyed", "both armies destroyed"
    elif wiped[0] or wiped[1]:
        gone_side = 0 if wiped[0] else 1
        ended = f"AI-15: {names[gone_side]} is destroyed — {names[1 - gone_side]} holds the field"
        how = f"{names[gone_side]} destroyed"
    elif withdrew[0] or withdrew[1]:
        who = " and ".join(names[s] for s in (0, 1) if withdrew[s])
        ended, how = f"AI-15: {who} withdraws from the battle", f"{who} withdrew"
    elif fell_back[0] or fell_back[1]:
        back = 0 if fell_back[0] else 1
        ended = (f"AI-19: {names[back]} ({MANEUVER_NAMES[maneuvers[back]]}) lost by a "
                 f"{TIER_NAMES[reading.tier].lower()} to {MANEUVER_NAMES[maneuvers[1 - back]]} and falls back — "
                 f"{names[1 - back]} holds the field")
        how = f"{names[back]} fell back"
    week = state.week
    headline = (f"Week {week}: drawn combat ({successes[0]}–{successes[1]})" if reading.winner is None else
                f"Week {week}: {TIER_NAMES[reading.tier].lower()} for {names[reading.winner]} "
                f"({successes[0]}–{successes[1]}, margin {reading.margin})")
    return WeekResult(
        week=week, maneuvers=maneuvers, read_as=reading.read_as, stratagems=(bids[0].stratagems, bids[1].stratagems),
        pools=reading.pools, dice=rolls.dice, successes=successes, margin=reading.margin, winner=reading.winner,
        tier=reading.tier, cells=reading.cells, applied=reading.applied, ranges=ranges,
        rolled=(rolled[0], rolled[1]), mitigation=(mitigation[0], mitigation[1]), mitigated=mitigated,  # type: ignore
        taken=taken, hits=(hits[0], hits[1]), lost=lost, withdrew=(withdrew[0], withdrew[1]),  # type: ignore
        fell_back=(fell_back[0], fell_back[1]), notes=tuple(notes), headline=headline, ended=ended, how=how,
        damage=(damage[0], damage[1]), destroyed=(destroyed[0], destroyed[1]),  # type: ignore[arg-type]
        vanguards=(lines[0][0], lines[1][0]), rearguards=(lines[0][1], lines[1][1]), rearguards_used=rears)


# ---------------------------------------------------------------------------
# Session protocol


def start(setup: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
          rng: random.Random | None = None) -> BattleState:
    """Week 1, both sides to declare."""
    setup = normalize_setup(setup)
    armies = tuple(_army(raw) for raw in setup["armies"])
    rules = dict(resolve_rules(VARIANTS, _rules_arg(rules)))
    return BattleState(
        armies=armies,  # type: ignore[arg-type]
        damage=tuple(tuple(0 for _ in a.units) for a in armies),  # type: ignore[arg-type]
        destroyed=tuple(tuple(False for _ in a.units) for a in armies),  # type: ignore[arg-type]
        vanguards=(armies[0].vanguard, armies[1].vanguard),
        rearguards=(armies[0].rearguard, armies[1].rearguard),
        week=1, phase="bid", bids=(None, None), switched=(False, False), weeks=(), phases_done=(),
        rules=tuple(sorted((key, freeze(value)) for key, value in rules.items())),  # house tables frozen
        spectator=bool(setup.get("spectator")),
        old_rulings=bool(setup.get("old_rulings")))


_TYPES = ("bid", "reveal", "counter_attack", "roll", "leave", "join", "correct", "phase")
#: Every field an action may carry (for the hostile-caller tests).
ACTION_FIELDS = ("side", "maneuver", "stratagems", "rearguard", "sealed", "dice", "successes", "ranges", "unit",
                 "index", "why")


def _side_field(action: Mapping[str, Any]) -> int:
    return referee.one_of(action.get("side"), "the side", (0, 1))


def _set(items: tuple, index: int, value: Any) -> tuple:
    return items[:index] + (value,) + items[index + 1:]


def _over(state: BattleState) -> None:
    if state.phase == "over":
        raise RuleError("AI-15", f"the battle is over: {state.outcome}")


def _norm_bid(state: BattleState, action: Mapping[str, Any]) -> dict[str, Any]:
    if "sealed" in action:
        referee.only(action, ("side", "sealed"))
        side = _side_field(action)
        if action["sealed"] is not True:
            raise ActionError("'sealed' is true (a spectator's copy) or left out")
        if not state.spectator:
            raise RuleError("AI-7", "a sealed bid belongs only in a spectator's copy; a bid names its maneuver")
    else:
        referee.only(action, ("side", "maneuver"), ("stratagems", "rearguard", "why"))
        side = _side_field(action)
    _over(state)
    if state.phase != "bid":
        raise RuleError("AI-7", "the bids are already revealed; roll first")
    if state.bids[side] is not None:
        raise RuleError("AI-7", f"{state.armies[side].name} has already declared this week")
    if "sealed" in action:
        return {"type": "bid", "side": side, "sealed": True}
    maneuver = referee.one_of(action.get("maneuver"), "the maneuver", MANEUVERS)
    raw = action.get("stratagems", [])
    if not isinstance(raw, (list, tuple)) or not all(isinstance(k, str) for k in raw):
        raise ActionError("The stratagems must be a list of names")
    if len(set(raw)) != len(raw):
        raise ActionError("A stratagem is declared at most once")
    for key in raw:
        problem = _stratagem_problem(state, side, key, maneuver)
        if problem:
            raise RuleError(problem.split(":", 1)[0], problem.split(": ", 1)[1])
    keys = sorted(raw, key=_STRATAGEM_ORDER.__getitem__)
    out: dict[str, Any] = {"type": "bid", "side": side, "maneuver": maneuver, "stratagems": keys}
    if maneuver == "withdraw":
        rear = action.get("rearguard", state.rearguards[side])
        units = state.armies[side].units
        rear = referee.whole(rear, "the rearguard (a unit number)", 0, len(units) - 1)
        if state.destroyed[side][rear]:
            raise RuleError("AI-2", f"the rearguard must be a unit still in the field ({units[rear].name} is "
                                    "destroyed)")
        out["rearguard"] = rear
    elif "rearguard" in action:
        raise RuleError("AI-2", "only a Withdraw names a rearguard")
    if "why" in action:
        if state.armies[side].level is None:
            raise ActionError("Only a bid of an army the app plays carries a 'why'")
        why = action["why"]
        if not isinstance(why, str) or not why.strip() or len(why) > WHY_MAX or text_problem(why):
            raise ActionError(f"The app's 'why' is one line of text of at most {WHY_MAX} characters")
        out["why"] = " ".join(why.split())
    return out


WHY_MAX = 240


def _norm_roll(state: BattleState, action: Mapping[str, Any], rules: Mapping[str, Any]) -> dict[str, Any]:
    referee.only(action, (), ("dice", "successes", "ranges"))
    _over(state)
    if state.phase != "revealed":
        raise RuleError("AI-7", "both sides declare and reveal before the roll")
    settings = state.settings
    if settings.get("dice") != DICE_TABLE and not state.spectator and (
            "dice" in action or "successes" in action or "ranges" in action):
        # Issue 35: what the app's dice roll comes from the game's seed, never from a move or a link
        raise RuleError("HR-AI-7", "this battle is played with the app's dice: the app rolls them, so no move "
                                   "or link can say what they rolled (only a spectator's copy records them)")
    die, target = success_setting(settings)
    pools = _week_pools(state)
    names = [a.name for a in state.armies]
    out: dict[str, Any] = {"type": "roll"}
    if "dice" in action and "successes" in action:
        raise ActionError("Enter the dice or the successes, not both")
    successes: tuple[int, int] | None = None
    if "dice" in action:
        given = action["dice"]
        if not isinstance(given, (list, tuple)) or len(given) != 2:
            raise ActionError("The dice must be two lists, one per army")
        faces = []
        for s in (0, 1):
            values = given[s]
            if not isinstance(values, (list, tuple)) or len(values) != pools[s].dice:
                raise RuleError("AI-3", f"{names[s]} rolls {pools[s].dice} "
                                        f"di{'e' if pools[s].dice == 1 else 'ce'} this week")
            for value in values:
                referee.whole(value, f"each of {names[s]}'s dice", 1, die, rule="AI-6")
            faces.append([int(v) for v in values])
        out["dice"] = faces
        successes = (count_successes(faces[0], die, target), count_successes(faces[1], die, target))
    elif "successes" in action:
        given = action["successes"]
        if not isinstance(given, (list, tuple)) or len(given) != 2:
            raise ActionError("The successes must be two numbers, one per army")
        successes = tuple(referee.whole(given[s], f"{names[s]}'s successes", 0, pools[s].dice, rule="AI-6")
                          for s in (0, 1))  # type: ignore[assignment]
        out["successes"] = list(successes)  # type: ignore[arg-type]
    elif settings.get("dice") == DICE_TABLE:
        raise RuleError("HR-AI-7", "this battle is played with the table's own dice: enter each side's dice "
                                   "(or successes)")
    if "ranges" in action:
        if successes is None:
            raise ActionError("The casualty range rolls are entered with the dice (or successes) they follow")
        given = action["ranges"]
        if not isinstance(given, (list, tuple)) or len(given) != 2:
            raise ActionError("The range rolls must be two entries, one per army (null: none or the app's roll)")
        spans = _read(state, state.bids, state.switched, successes).ranges  # type: ignore[arg-type]
        ranges: list[int | None] = []
        for s in (0, 1):
            value, span = given[s], spans[s]
            if value is None:
                ranges.append(None)
            elif span is None:
                if value == 0 and isinstance(value, int) and not isinstance(value, bool):
                    ranges.append(None)  # "0 casualties" where the cell inflicts none: nothing rolled
                else:
                    raise RuleError("AI-14", f"{names[s]}'s cell inflicts no casualties: it rolls nothing "
                                             f"(got {_shown(value)})")
            else:
                ranges.append(referee.whole(value, f"{names[s]}'s casualty roll", span[0], span[1], rule="AI-14"))
        if ranges != [None, None]:
            out["ranges"] = ranges
    return out


def _norm_unit(value: Any, state: BattleState, where: str) -> dict[str, Any]:
    try:
        return _unit_json(value, where, state.old_rulings)
    except SetupError as err:
        text = str(err)
        if "AI-14:" in text:
            raise RuleError("AI-14", text.split("AI-14: ", 1)[1]) from None
        raise ActionError(text) from None


def _between_weeks(state: BattleState, what: str) -> None:
    _over(state)
    if not can_change_armies(state):
        raise RuleError("AI-7", f"{what} between weeks, before either side declares")


def _norm_join(state: BattleState, action: Mapping[str, Any]) -> dict[str, Any]:
    referee.only(action, ("side", "unit"))
    side = _side_field(action)
    _between_weeks(state, "units join")
    army = state.armies[side]
    if len(army.units) >= _MAX_UNITS:
        raise ActionError(f"{army.name} has {_MAX_UNITS} units, as many as an army can have here")
    unit = _norm_unit(action["unit"], state, f"{army.name}, the unit that joins")
    return {"type": "join", "side": side, "unit": unit}


def _norm_correct(state: BattleState, action: Mapping[str, Any]) -> dict[str, Any]:
    referee.only(action, ("side", "index", "unit"))
    side = _side_field(action)
    army = state.armies[side]
    index = referee.whole(action["index"], "the unit (a unit number)", 0, len(army.units) - 1)
    _between_weeks(state, "units are corrected")
    old = army.units[index]
    if state.destroyed[side][index]:
        raise RuleError("AI-14", f"{old.name} is destroyed: a destroyed unit is not corrected")
    unit = _norm_unit(action["unit"], state, f"{army.name}, unit {index + 1}")
    if unit == old.as_json():
        raise ActionError(f"{old.name}: nothing to correct (the entry is the same)")
    damage = state.damage[side][index]
    if damage and unit["size"] <= damage:
        raise RuleError("AI-14", f"{old.name} has taken {damage} casualties: its size must be more than {damage}")
    return {"type": "correct", "side": side, "index": index, "unit": unit}


def normalize_action(state: BattleState, action: Mapping[str, Any],
                     rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The canonical form of ``action`` in ``state`` (the module docstring lists the
    actions), or the :class:`~engine.game.ActionError` (not well formed: unknown type
    or field, wrong type, number out of range) or :class:`~engine.game.RuleError`
    (the rules forbid it, citing the clause) that refuses it. :func:`step` refuses
    exactly the same actions (it starts here).

    Canonical: a bid always lists its ``stratagems`` (in the table's order, each
    once) and a Withdraw its ``rearguard`` (AI-2; the army's current one when not
    named); a roll keeps entered ``dice`` or ``successes`` and only the ``ranges``
    that were entered (each in its cell's range, AI-14; a cell without a range
    rolls nothing); a unit that joins or is corrected is a canonical unit (AI-1,
    AI-14).
    """
    state = _state(state)
    kind = referee.action_type(action, _TYPES)
    if kind == "bid":
        return _norm_bid(state, action)
    if kind == "reveal":
        referee.only(action)
        _over(state)
        if state.phase != "bid":
            raise RuleError("AI-7", "the bids are already revealed")
        waiting = [state.armies[s].name for s in (0, 1) if state.bids[s] is None]
        if waiting:
            raise RuleError("AI-7", f"both sides declare before the reveal (waiting for {' and '.join(waiting)})")
        if any(b is not None and b.sealed for b in state.bids):
            raise RuleError("AI-7", "a spectator's copy does not reveal a sealed bid")
        return {"type": "reveal"}
    if kind == "counter_attack":
        referee.only(action, ("side",))
        side = _side_field(action)
        _over(state)
        if state.phase != "revealed":
            raise RuleError("AI-16", "Counter Attack switches to Attack after the reveal")
        if state.switched[side]:
            raise RuleError("AI-16", f"{state.armies[side].name} has already switched to Attack")
        problem = _counter_problem(state, side, state.bids)  # type: ignore[arg-type]
        if problem:
            raise RuleError("AI-16", problem.split(": ", 1)[1])
        return {"type": "counter_attack", "side": side}
    if kind == "roll":
        return _norm_roll(state, action, _rules_arg(rules))
    if kind == "leave":
        referee.only(action, ("side",))
        side = _side_field(action)
        _over(state)
        if not can_leave(state, side):
            raise RuleError("AI-15", "an army may leave only by a successful Withdraw, or the week after its "
                                     "opponent skirmished (before either side declares)")
        return {"type": "leave", "side": side}
    if kind == "join":
        return _norm_join(state, action)
    if kind == "correct":
        return _norm_correct(state, action)
    referee.only(action, ("index",))
    index = referee.whole(action["index"], "the turn phase", 0, len(TURN_PHASES) - 1)
    return {"type": "phase", "index": index}


def _after_roll(state: BattleState, action: Mapping[str, Any], rng: random.Random | None) -> BattleState:
    settings = state.settings
    die, target = success_setting(settings)
    bids: tuple[Bid, Bid] = state.bids  # type: ignore[assignment]
    pools = _week_pools(state)
    dice: tuple[tuple[int, ...], tuple[int, ...]] | None
    if "dice" in action:
        dice = (tuple(action["dice"][0]), tuple(action["dice"][1]))
    elif "successes" in action:
        dice = None
    else:
        if rng is None:
            raise BadArgument("step needs the game's random generator to roll")
        dice = tuple(tuple(rng.randint(1, die) for _ in range(p.dice)) for p in pools)  # type: ignore[assignment]
    if dice is not None:
        successes = (count_successes(dice[0], die, target), count_successes(dice[1], die, target))
    else:
        successes = (action["successes"][0], action["successes"][1])
    spans = _read(state, bids, state.switched, successes).ranges
    given = action.get("ranges") or (None, None)
    ranges: list[int | None] = []
    for s in (0, 1):
        span = spans[s]
        if span is None or span[0] == span[1]:
            ranges.append(given[s] if span is not None else None)
        elif given[s] is not None:
            ranges.append(given[s])
        else:  # AI-12: a range is rolled uniformly
            if rng is None:
                raise BadArgument("step needs the game's random generator to roll")
            ranges.append(rng.randint(span[0], span[1]))
    result = resolve(state, bids, Rolls(successes, (ranges[0], ranges[1]), dice), state.switched)
    result = replace(result, whys=state.whys)
    new = replace(state, damage=result.damage, destroyed=result.destroyed, vanguards=result.vanguards,
                  rearguards=result.rearguards, weeks=state.weeks + (result,), bids=(None, None),
                  switched=(False, False), whys=("", ""))
    if result.ended:
        return replace(new, phase="over", outcome=result.ended, how=result.how)
    return replace(new, phase="bid", week=state.week + 1, phases_done=())


def _change_armies(state: BattleState, side: int, units: tuple[Unit, ...], damage: tuple[int, ...],
                   destroyed: tuple[bool, ...], text: str) -> BattleState:
    army = replace(state.armies[side], units=units)
    armies = _set(state.armies, side, army)
    new = replace(state, armies=armies, damage=_set(state.damage, side, damage),
                  destroyed=_set(state.destroyed, side, destroyed))
    vanguard, rearguard = _line_up(army, destroyed, state.vanguards[side], state.rearguards[side])
    notes = _line_notes(new, side, (state.vanguards[side], state.rearguards[side]), (vanguard, rearguard), destroyed)
    return replace(new, vanguards=_set(state.vanguards, side, vanguard),
                   rearguards=_set(state.rearguards, side, rearguard),
                   changes=state.changes + ((state.week, "; ".join([text] + notes)),))


def _describe_change(old: Unit, new: Unit) -> str:
    parts = []
    if old.name != new.name:
        parts.append(f"name {old.name} → {new.name}")
    for key in ("attack", "defense", "mobility", "armour", "size"):
        if getattr(old, key) != getattr(new, key):
            parts.append(f"{key} {getattr(old, key)} → {getattr(new, key)}")
    if old.traits != new.traits:
        parts.append(f"traits {', '.join(old.traits) or 'none'} → {', '.join(new.traits) or 'none'}")
    return "; ".join(parts)


def step(state: BattleState, action: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
         rng: random.Random | None = None) -> BattleState:
    """The state after ``action`` (see the module docstring). Never mutates ``state``.

    Refuses exactly what :func:`normalize_action` refuses; a roll is resolved by
    :func:`resolve`.
    """
    if rng is not None and not isinstance(rng, random.Random):
        raise BadArgument("rng must be the game's random.Random")
    action = normalize_action(state, action, rules)
    kind = action["type"]
    if kind in ("bid", "reveal", "counter_attack", "phase"):
        return _same_armies(state, _step_bids(state, action, kind))
    return _step_armies(state, action, kind, rng)


def _same_armies(old: BattleState, new: BattleState) -> BattleState:
    """``new`` (the same armies, units and losses as ``old``) keeps ``old``'s remembered pools."""
    memo = old.__dict__.get("_pools")
    if memo is not None:
        new.__dict__["_pools"] = memo
    return new


def _step_bids(state: BattleState, action: Mapping[str, Any], kind: str) -> BattleState:
    """A step that changes the bids, the reveal or the ticked phases, never the armies."""
    if kind == "bid":
        side = action["side"]
        bid = Bid("", (), None, True) if action.get("sealed") else \
            Bid(action["maneuver"], tuple(action["stratagems"]), action.get("rearguard"))
        return replace(state, bids=_set(state.bids, side, bid), whys=_set(state.whys, side, action.get("why", "")))
    if kind == "reveal":
        return replace(state, phase="revealed")
    if kind == "counter_attack":
        return replace(state, switched=_set(state.switched, action["side"], True))
    done = set(state.phases_done) ^ {action["index"]}
    return replace(state, phases_done=tuple(sorted(done)))


def _step_armies(state: BattleState, action: Mapping[str, Any], kind: str,
                 rng: random.Random | None) -> BattleState:
    """A step that may change the armies: the roll, a unit joining or corrected, leaving."""
    if kind == "roll":
        return _after_roll(state, action, rng)
    if kind == "leave":
        name = state.armies[action["side"]].name
        return replace(state, phase="over", outcome=f"AI-15: {name} leaves the battle (its opponent skirmished)",
                       how=f"{name} left the battle")
    if kind == "join":
        side = action["side"]
        unit = _unit(action["unit"])
        army = state.armies[side]
        return _change_armies(state, side, army.units + (unit,), state.damage[side] + (0,),
                              state.destroyed[side] + (False,), f"{unit.name} joins {army.name}")
    if kind == "correct":
        side, index = action["side"], action["index"]
        army = state.armies[side]
        unit = _unit(action["unit"])
        damage = state.damage[side]
        if not unit.size:
            damage = _set(damage, index, 0)  # only size carries damage (AI-14)
        text = f"{army.name}: {army.units[index].name} corrected ({_describe_change(army.units[index], unit)})"
        return _change_armies(state, side, _set(army.units, index, unit), damage, state.destroyed[side], text)
    raise ActionError(f"Unknown battle action: {_shown(kind)}")  # normalize_action let through a type step forgot


def describe(state: BattleState, action: Mapping[str, Any]) -> str:
    """A short history label. A bid's label never names its maneuver (AI-7): the history is
    on screen while the other side declares."""
    state = _state(state)
    if not isinstance(action, Mapping):
        return "Unknown action"
    kind = action.get("type")
    prefix = f"Week {state.week} · "
    side = action.get("side")
    name = state.armies[side].name if side in (0, 1) and isinstance(side, int) and not isinstance(side, bool) else "?"
    if kind == "bid":
        return f"{prefix}{name} declares in secret"
    if kind == "reveal":
        return f"{prefix}both bids revealed"
    if kind == "counter_attack":
        return f"{prefix}{name} counter-attacks (AI-16)"
    if kind == "roll":
        entered = "dice" in action or "successes" in action
        label = f"{prefix}{'dice entered' if entered else 'roll'}"
        return label + (" (kept as played before the AI-19 ruling)" if state.old_rulings else "")
    if kind == "leave":
        return f"{prefix}{name} leaves the battle"
    if kind == "join":
        unit = action.get("unit")
        uname = unit.get("name") if isinstance(unit, Mapping) and isinstance(unit.get("name"), str) else "a unit"
        return f"{prefix}{uname} joins {name}"
    if kind == "correct":
        index = action.get("index")
        units = state.armies[side].units if name != "?" else ()
        uname = units[index].name if isinstance(index, int) and not isinstance(index, bool) \
            and 0 <= index < len(units) else "a unit"
        return f"{prefix}{name}: {uname} corrected"
    if kind == "phase":
        index = action.get("index")
        label = TURN_PHASES[index] if isinstance(index, int) and not isinstance(index, bool) \
            and 0 <= index < len(TURN_PHASES) else "?"
        return f"{prefix}turn phase: {label}"
    return "Unknown action"


def status(state: BattleState) -> str:
    """What the table waits for, in one sentence (true for a spectator's copy too)."""
    state = _state(state)
    names = [a.name for a in state.armies]
    if state.phase == "over":
        return state.outcome
    if state.phase == "revealed":
        if state.spectator:
            return f"Week {state.week}: both bids are revealed; waiting for the roll"
        return f"Week {state.week}: bids revealed — roll the dice (AI-8)"
    declared = [names[s] for s in (0, 1) if state.bids[s] is not None]
    waiting = [names[s] for s in (0, 1) if state.bids[s] is None]
    if not waiting:
        return f"Week {state.week}: both armies have declared; waiting for the reveal (AI-7)"
    if state.spectator:
        if declared:
            return f"Week {state.week}: {declared[0]} has declared; waiting for {waiting[0]} (AI-7)"
        return f"Week {state.week}: waiting for the bids (AI-7)"
    return f"Week {state.week}: waiting for {' and '.join(waiting)} to declare (AI-7)"


def standing(state: BattleState) -> str:
    """Where the battle stands in a few words, for the list of saves: "Week 3 · Jibril 3rd
    Corps 4 units, Zone Army 2"; when it is over, how it ended ("Over in week 4 · Zone Army
    fell back")."""
    state = _state(state)
    if state.phase == "over":
        week = state.weeks[-1].week if state.weeks else state.week
        return f"Over in week {week} · {state.how or state.outcome}"
    counts = [len(state.alive(s)) for s in (0, 1)]
    first = f"{state.armies[0].name} {counts[0]} unit{'s' if counts[0] != 1 else ''}"
    return f"Week {state.week} · {first}, {state.armies[1].name} {counts[1]}"


def undo_warning(game: Game, position: int) -> str | None:
    """AI-7 ruling: what the table must hear before going back to ``position``: undoing past
    a reveal lets a side bid again knowing the other's choice, so both generals are asked
    first. ``None`` when nothing revealed would be undone."""
    if not isinstance(game, Game) or game.kind != KIND:
        raise BadArgument(f"Not a battle game: {type(game).__name__}")
    position = _int(position, "The history position", 0, len(game.actions))
    if position >= game.position:
        return None
    weeks = []
    week = 1
    for index, action in enumerate(game.actions[: game.position]):
        kind = action.get("type") if isinstance(action, Mapping) else None
        if kind == "reveal" and index >= position:
            weeks.append(week)
        if kind == "roll":
            week += 1
    if not weeks:
        return None
    which = f"week {weeks[0]}" if len(weeks) == 1 else "weeks " + ", ".join(map(str, weeks))
    return (f"Both bids of {which} were seen (AI-7). Undoing lets a side bid again knowing the other's choice. "
            "Undo anyway?")


def public_game(game: Game) -> Game:
    """A spectator's copy: ``"spectator": true`` in its setup, no bid that has not been
    revealed (a declared one is a sealed placeholder: who declared is public, what is
    not), no seed, no redo stack, dice as rolled.

    Each roll carries the dice (or entered successes) and the casualty range rolls it
    made, so the copy replays the same battle with seed 0 and cannot foretell later
    dice; joins, corrections, Counter Attacks, leaves and ticks are public and kept.
    """
    from .game import replay, thaw

    if not isinstance(game, Game) or game.kind != KIND:
        raise BadArgument(f"Not a battle game: {type(game).__name__}")
    acts = list(game.actions[: game.position])
    state = replay(game)
    rolls = iter(state.weeks)
    kept: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    for action in acts:
        kind = action.get("type")
        if kind == "bid":
            pending.append(thaw(action))
            continue
        if kind == "reveal":
            kept.extend(pending)
            pending = []
            kept.append({"type": "reveal"})
        elif kind == "roll":
            week = next(rolls)
            out: dict[str, Any] = {"type": "roll"}
            if week.dice is not None:
                out["dice"] = [list(d) for d in week.dice]
            else:
                out["successes"] = list(week.successes)
            ranges = [week.rolled[s] if week.ranges[s] else None for s in (0, 1)]
            if ranges != [None, None]:
                out["ranges"] = ranges
            kept.append(out)
        else:
            kept.append(thaw(action))
    kept.extend({"type": "bid", "side": b["side"], "sealed": True} for b in pending)
    setup = thaw(game.setup)
    setup["spectator"] = True
    return replace(game, seed=0, setup=setup, actions=tuple(kept), position=len(kept), _tip=None)


# ---------------------------------------------------------------------------
# Games saved before the AI-16/AI-19 rulings (save schema 2, "2" links)

_OLD_COPY_SHAPES = {"reveal": {"type"}, "counter_attack": {"type", "side"}, "leave": {"type", "side"},
                    "phase": {"type", "index"}}


def _looks_like_old_copy(data: Mapping[str, Any]) -> bool:
    """Whether an old game is a spectator's copy as the earlier ``public_game`` made them:
    seed 0, no redo stack, only revealed bids, every roll with its dice and range rolls."""
    actions = data.get("actions")
    if data.get("seed") != 0 or not isinstance(actions, list) or data.get("position", len(actions)) != len(actions):
        return False
    pending = 0
    for action in actions:
        if not isinstance(action, Mapping):
            return False
        kind = action.get("type")
        if kind == "bid":
            pending += 1
            continue
        if kind == "reveal":
            pending = 0
        if kind == "roll":
            if set(action) != {"type", "dice", "ranges"}:
                return False
        elif kind in _OLD_COPY_SHAPES and set(action) != _OLD_COPY_SHAPES[kind]:
            return False
        elif kind not in _OLD_COPY_SHAPES and kind != "roll":
            return False
    return pending == 0


def _replayed(data: Mapping[str, Any], setup: Mapping[str, Any]) -> Any:
    """The weeks and ending of the whole game ``data`` with ``setup``, or None if it does not replay."""
    from .game import Game as _Game, replay, validate

    try:
        actions = tuple(data["actions"])
        game = validate(_Game(KIND, data["seed"], data.get("rules") or {}, setup, actions, len(actions)))
        final = replay(game)
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    weeks = tuple((w.dice, w.successes, w.rolled, w.taken, w.lost, w.ended) for w in final.weeks)
    return weeks, final.phase, final.outcome, final.destroyed


def upgrade(data: Mapping[str, Any]) -> dict[str, Any]:
    """A battle saved or shared before save schema 3, made to replay as it was played.

    * An old spectator's copy (seed 0, every roll carrying its dice, only revealed
      bids — the shape the earlier :func:`public_game` made) gets ``"spectator": true``.
    * Where the AI-16 prerequisites, AI-16's Covering Fire, the AI-14 "armour or size"
      ruling or the AI-19 fallback would change (or refuse) the game's replay, its
      setup gets ``"old_rulings": true``: the game keeps the rules it was played with,
      and its history and log say so (:data:`OLD_RULINGS_NOTE`). A game those rulings
      do not touch is left as it is.
    """
    if not isinstance(data, Mapping):
        raise BadArgument(f"An old game is an object with its kind, seed, rules, setup and actions "
                          f"(got {type(data).__name__})")
    out = dict(data)
    setup = out.get("setup")
    if not isinstance(setup, Mapping):
        return out
    setup = dict(setup)
    if _looks_like_old_copy(out):
        setup["spectator"] = True
    if "old_rulings" not in setup:
        now = _replayed(out, setup)
        if now is None or now != _replayed(out, {**setup, "old_rulings": True}):
            if _replayed(out, {**setup, "old_rulings": True}) is not None:
                setup["old_rulings"] = True
    out["setup"] = setup
    return out


# ---------------------------------------------------------------------------
# Outcome odds (issue 17): in engine/ascension_odds.py, re-exported here.

from .ascension_odds import MOVEMENTS, MOVEMENT_NAMES, OutcomeOdds, SideOdds, outcome_odds, withdraw_route  # noqa: E402
from .ascension_advice import AIMS, AIM_NAMES, Advice, GridCell, advice, app_bid, app_turn, bid_name, candidate_bids  # noqa: E402,E501


def replay_work(setup: Mapping[str, Any], actions: Iterable[Any]) -> int:
    """Issue 30: the work of replaying ``actions`` (see :func:`engine.game.replay_work`): a
    week's pools, dice and losses cost in proportion to the units on the field, so each
    action counts 160 plus 0.8 a unit (units that join count from then on). Measured with
    the largest legal battles (tests/maxgames.py, ``make bench``); it never looks at more
    than the setup's armies and the actions' types."""
    units = 0
    armies = setup.get("armies") if isinstance(setup, Mapping) else None
    for army in armies if isinstance(armies, (list, tuple)) else ():
        listed = army.get("units") if isinstance(army, Mapping) else None
        units += len(listed) if isinstance(listed, (list, tuple)) else 0
    units = min(units, 2 * _MAX_UNITS)
    work = 0
    for action in actions:
        if isinstance(action, Mapping) and action.get("type") == "join":
            units = min(units + 1, 2 * _MAX_UNITS)
        work += 160 + (4 * units) // 5
    return work
