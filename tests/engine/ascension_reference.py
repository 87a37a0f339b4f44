"""An independent reference of one week of an Ascension Isle battle (issue 17).

Written from ``../shared/RULES.md`` section 4 and the source text
``seeds/004_e3218ecbf04204cd.txt`` alone — without reading the resolution code of
:mod:`engine.ascension` — so that the engine's ``outcome_odds(state, bids)`` (issue 17)
and its ``step`` replayed over every die outcome can be compared with it. Only the
table data comes from the engine (:mod:`engine.ascension.tables`, the source's cells
verbatim). Everything is exact (:class:`~fractions.Fraction`) and computed by
**exhaustive enumeration**: every success count of each pool (each die's faces
enumerated one die at a time), every casualty roll of each cell, every way the
casualties land.

Entry point: :func:`reference_odds(armies, bids, rules) <reference_odds>`. Inputs are
plain dicts, shaped like the engine's setup so that an adapter from a ``BattleState``
is a few lines::

    armies = [army, army]
    army = {"units": [unit, ...],
            "vanguard": 0,                 # a line unit in the field (AI-1)
            "rearguard": 0,                # optional: the default rearguard of a Withdraw (AI-2)
            "general": None | {"level": 0..3, "traits": ["observer"]}}
    unit = {"name": "…", "attack": 5, "defense": 6, "mobility": 2,
            "traits": ["infantry", "line", "scout", "observer", "long range"],
            "armour": 0, "size": 0,        # at most one of them non-zero (AI-14)
            "damage": 0,                   # casualties carried by a size unit (AI-14)
            "destroyed": False}            # destroyed earlier: out of the field
    bids = [bid, bid]
    bid = {"maneuver": "withdraw" | "defend" | "block" | "skirmish" | "attack" | "shock",
           "stratagems": ["last_stand", …],   # keys as in engine.ascension.STRATAGEMS
           "rearguard": 3,                   # Withdraw only (AI-2); default the army's
           "switch": True}                   # Counter Attack: take the switch (default True)
    rules = {"success": "d6/4+",             # AI-6
             "house_tables": {tier: {own: {other: text}}},   # AI-11
             "winner_reads": False}          # the AI-10 variant

Unit indexes stay those of the list (destroyed units keep their place), as in the
engine's state. Bad input raises :class:`ReferenceInputError` (a ``ValueError``).

Rules implemented, by id
------------------------
* **AI-1** units, traits; infantry implies line; the vanguard must be a line unit;
  "20 infantry divisions" counts units with the ``infantry`` trait.
* **AI-2** Attack/Shock use attack, Defend/Block defense, Withdraw/Skirmish mobility; a
  Withdraw's line stat is its rearguard's mobility (named with the bid, default the
  army's rearguard); only scouts reinforce it.
* **AI-3** dice = base + k, k the largest with ``T ≥ (2^(k+1) − 2)·b``, ``T`` the stat
  summed over the rest (for a Withdraw: the scouts other than the rearguard).
* **AI-5** a base of 0 counts as 1 for the thresholds and adds no die.
* **AI-6** each die a dN, a success on the target or more (``rules["success"]``).
* **AI-8** margin = difference of successes: 0 drawn, 1–2 minor, 3–5 major, 6+
  crushing; **AI-9** 10+ is legendary only when the winner's general has level 3.
* **AI-10** each side reads its own row (its maneuver) in the column of the other's,
  in the table of the week's tier. Variant ``winner_reads``: in a minor victory or
  better only the winner's cell applies; a drawn combat is read by both.
* **AI-11** house cells replace the source's, cell by cell; a tier without a source
  table (major, crushing, legendary) reads the Minor table (marked as a fallback).
* **AI-12** a range "inflict a-b casualties" is rolled uniformly in a…b; "inflict 1
  casualty" is 1; a cell without one rolls nothing (AI-14 ruling).
* **AI-14** armour N: destroyed when N casualties land this week (damage does not
  carry over); size N: destroyed once N have landed in all (damage carries over); a
  unit has one or the other. **HR-AI-1** a unit with neither is destroyed by one
  casualty. **HR-AI-2** casualties land one at a time on the line unit (the vanguard;
  the rearguard in a Withdraw) until it is destroyed, then on the other units in
  list order.
* **AI-15** Defend: each success over the opponent's roll mitigates one casualty from
  a Skirmish or an Attack. Leaving: only by a Withdraw that gets away (or when the
  opponent skirmishes, which takes effect next week, not in this one).
* **AI-16** stratagems, their prerequisites (refused when the army does not qualify)
  and effects: Deception (with **HR-AI-4**), Covering Fire, Last Stand (with
  **HR-AI-6**), Continuous Front, Hold the Line, Counter Attack (and Feint cancelling
  it), Harassing Fire (with **HR-AI-5**), Delay; **AI-17** the others are recorded and
  change nothing.
* **AI-19** an army that declared Defend or Block and loses by 3 or more to an Attack
  or a Shock Attack falls back, unless it holds the line; a Defend switched to Attack
  by Counter Attack is an Attack.

Readings of points the rules leave open (the engine must decide them too)
------------------------------------------------------------------------
1. **Winner reads, a losing Withdraw.** The loser's row is not read, and no cell of the
   winner's row says that the *loser's* withdraw succeeds (its withdraw words are the
   winner's own), so under the variant a losing Withdraw does not get away — except
   against a Defend (AI-20: the defender "has sacrificed the initiative"), where the
   Withdraw's own cell still says how it gets away (its casualties are still not read). The loser's
   Delay still mitigates (it is a stratagem, not a cell); a losing Defend has no
   successes over the winner's roll, so nothing to mitigate.
2. **Withdraw words.** A Withdraw gets away exactly when the cell it reads says
   "Withdraw Succeeds"; how: "three hex arc" → ``away_arc``, "back up route" / "head
   back" → ``away_route``, otherwise ``away`` (the source's Withdraw v Attack says only
   "Withdraw Succeeds"). Withdraw words in a row other than Withdraw (a house cell) are
   ignored.
3. **Continuous Front** makes the enemy's Withdraw fail (it "cannot withdraw through
   the defended hex"), whatever the cell says, while the army still defends (not after
   a Counter Attack switch).
4. **Defend mitigation** counts the defender's successes minus the opponent's (nothing
   unless the defender won), against casualties from an enemy that reads the Skirmish
   or the Attack row (Shock Attack is not mitigated; an enemy under Harassing Fire reads
   Skirmish, so it is). Hold the Line: none. A harassing Defend is still a Defend.
5. **Delay** mitigates half the Block's own successes (rounded down), whether or not it
   won, against casualties from any maneuver.
6. **Mitigation** removes casualties before they land: landed = max(0, rolled −
   mitigated) — then capped by what the army can still take (casualties beyond its last
   unit have nowhere to land; ``taken`` keeps the uncapped number).
7. **Harassing Fire**: the long-range units of the army, with their defense, are its
   pool; the base is the one with the highest defense (the first in list order on a
   tie), the others reinforce — like HR-AI-4's "best scout". It reads Skirmish only
   against an enemy Withdraw, Defend or Block; against anything else it reads its own
   row (Defend or Block) but keeps the long-range pool ("whatever the enemy declared").
   The enemy reads the harasser's declared maneuver as its column. Casualties on the
   harasser land on its vanguard first (HR-AI-2 names the vanguard).
8. **Counter Attack** switches when the enemy declared Attack or Shock Attack without a
   Feint, unless the bid says ``"switch": False``. The switched army rolls its
   vanguard's attack with no reinforcement, reads the Attack row, is read as an Attack
   by the enemy, and none of its Defend stratagems apply any more (no Hold the Line,
   Harassing Fire, Continuous Front, mitigation, fallback).
9. **Deception's scouting roll** (HR-AI-4) uses every scout in the field, the rearguard
   included if it is one, with mobility even under Last Stand; its dice are rolled
   with the same die and target and its successes add to the Withdraw's.
10. **Covering Fire** adds the defense of every long-range unit other than the
    rearguard to the reinforcement total; a long-range scout adds mobility and defense
    (defense once under Last Stand, where scouts add defense).
11. **Last Stand**: when the Withdraw gets away, after the week's casualties have
    landed, the rearguard and every scout other than it (its reinforcing units — "the
    main line"; long-range units adding only through Covering Fire are the supporting
    column and survive) are destroyed, whatever their stat.
12. **Both cells apply whatever the movement**: a Withdraw that gets away and an army
    that falls back take the week's casualties first (the source's "Withdraw Succeeds -
    inflict 0-1 casualties" has both in one cell). An army both destroyed and falling
    back is reported as both. ``movement`` and destruction are separate facts:
    an army destroyed by a Last Stand still got away. But **AI-20**: an army the week's
    casualties destroy neither gets away, nor falls back, nor stays: it has no movement
    (``None`` in an Outcome, counted in no ``movement`` figure).
13. **AI-11 fallback with house cells**: a major, crushing or legendary cell the group
    has not edited reads the group's Minor cell (its edit if it edited that one, else
    the source's) and is marked as a fallback; an edited cell of those tiers is not.
14. **Speed**'s prerequisite compares the two armies' Skirmish pools (mobility dice as
    AI-3 gives them); a Withdraw's rearguard must be a unit in the field; a bid other
    than Withdraw names no rearguard (``None`` is accepted).

Output of :func:`reference_odds` (all probabilities are Fractions summing to 1):
``maneuvers`` (final, after a Counter Attack switch), ``read_as`` (the row read) and
``switched`` (per side), ``pools`` (per side: ``stat``, ``line``,
``base``, ``rest``, ``reinforcement``, ``scouting`` dice, ``dice``), ``successes``
(per side ``{n: p}``), ``tiers`` (``{"drawn": p, "sides": ({tier: p}, …)}``),
``joint`` (``{Outcome: p}``: the whole week), ``sides`` (per side: ``movement``
``{away_arc, away_route, away, withdraw_fails, falls_back, stays: p}``, ``rolled``,
``mitigated``, ``taken``, ``landed`` (``{n: p}``), ``mean_landed``, ``units_lost``,
``unit_destroyed`` (per unit), ``loses_unit``, ``destroyed``, ``fallback_table``,
``cells`` (``{text: p}``, ``None`` when not read)), and ``battle_ends``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any, Mapping

from engine.ascension.tables import MANEUVERS, SOURCE_TABLES, TIERS

__all__ = ["ReferenceInputError", "Outcome", "reference_odds", "success_distribution",
           "literal_success_distribution", "reinforcement", "tier_of", "STRATAGEM_MANEUVERS"]

STAT = {"attack": "attack", "shock": "attack", "defend": "defense", "block": "defense",
        "withdraw": "mobility", "skirmish": "mobility"}

#: AI-16: the maneuver(s) each stratagem modifies.
STRATAGEM_MANEUVERS: Mapping[str, tuple[str, ...]] = {
    "deception": ("withdraw",), "covering_fire": ("withdraw",), "last_stand": ("withdraw",),
    "continuous_front": ("defend",), "hold_the_line": ("defend",), "counter_attack": ("defend",),
    "harassing_fire": ("defend", "block"), "delay": ("block",), "hammer_and_anvil": ("block",),
    "encirclement": ("block",), "ambush": ("block",), "raid": ("skirmish",), "guerrilla": ("skirmish",),
    "flanking": ("attack",), "feint": ("attack",), "surprise": ("shock",), "speed": ("shock",),
}

#: AI-16: the general level a stratagem needs (the others need something else or nothing).
LEVEL_NEEDED = {"deception": 2, "last_stand": 1, "hold_the_line": 1, "counter_attack": 2, "delay": 2,
                "hammer_and_anvil": 3, "encirclement": 3, "raid": 3, "guerrilla": 3, "flanking": 3,
                "feint": 3, "surprise": 3}

TRAITS = ("infantry", "line", "scout", "observer", "long range")
_INFLICT = re.compile(r"inflict\s+(\d+)(?:\s*[-–]\s*(\d+))?\s+casualt", re.IGNORECASE)
_SUCCESS = re.compile(r"d(6|8|10)/(\d+)\+")
MOVEMENTS = ("away_arc", "away_route", "away", "withdraw_fails", "falls_back", "stays")


class ReferenceInputError(ValueError):
    """An army, a bid or a setting the reference cannot take."""


@dataclass(frozen=True)
class Outcome:
    """One way the week can end. Pairs are indexed by side.

    ``rolled[i]``: casualties the enemy's cell rolled against side ``i`` (AI-12);
    ``mitigated[i]`` / ``taken[i]``: cancelled (AI-15, Delay) / left after it;
    ``landed[i]``: landed on units (HR-AI-2, capped by what the army can take);
    ``lost[i]``: indexes of the units destroyed this week (AI-14, Last Stand).
    """

    tier: str
    winner: int | None
    movement: tuple[str, str]
    rolled: tuple[int, int]
    mitigated: tuple[int, int]
    taken: tuple[int, int]
    landed: tuple[int, int]
    lost: tuple[tuple[int, ...], tuple[int, ...]]


# ------------------------------------------------------------------ dice (AI-3, AI-5, AI-6)

def reinforcement(base: int, total: int) -> int:
    """AI-3/AI-5: the largest k with ``total ≥ (2^(k+1) − 2)·max(base, 1)``."""
    unit = max(base, 1)
    k = 0
    while total >= (2 ** (k + 2) - 2) * unit:
        k += 1
    return k


def success_distribution(dice: int, die: int, target: int) -> dict[int, Fraction]:
    """AI-6: ``{successes: probability}`` of ``dice`` dN, enumerating each die's faces in turn."""
    dist = {0: Fraction(1)}
    face = Fraction(1, die)
    for _ in range(dice):
        nxt: dict[int, Fraction] = {}
        for have, p in dist.items():
            for value in range(1, die + 1):
                n = have + (value >= target)
                nxt[n] = nxt.get(n, Fraction(0)) + p * face
        dist = nxt
    return dist


def literal_success_distribution(dice: int, die: int, target: int) -> dict[int, Fraction]:
    """The same by listing every face combination (``die ** dice`` of them): small pools only."""
    dist: dict[int, Fraction] = {}
    total = die ** dice
    for faces in product(range(1, die + 1), repeat=dice):
        n = sum(v >= target for v in faces)
        dist[n] = dist.get(n, Fraction(0)) + Fraction(1, total)
    return dist


def tier_of(margin: int, skilled: bool) -> str:
    """AI-8/AI-9."""
    if margin == 0:
        return "drawn"
    if margin <= 2:
        return "minor"
    if margin <= 5:
        return "major"
    if margin >= 10 and skilled:
        return "legendary"
    return "crushing"


# ------------------------------------------------------------------ input

def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ReferenceInputError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _units(raw: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(raw, (list, tuple)) or not raw:
        raise ReferenceInputError(f"{where}: units must be a non-empty list")
    units = []
    for i, u in enumerate(raw):
        w = f"{where} unit {i}"
        if not isinstance(u, Mapping):
            raise ReferenceInputError(f"{w} must be a dict")
        traits = tuple(u.get("traits", ()))
        for t in traits:
            if t not in TRAITS:
                raise ReferenceInputError(f"{w}: unknown trait {t!r}")
        armour = _int(u.get("armour", 0), f"{w} armour", 0, 99)
        size = _int(u.get("size", 0), f"{w} size", 0, 99)
        if armour and size:
            raise ReferenceInputError(f"{w} has armour and size: a unit has one or the other (AI-14)")
        damage = _int(u.get("damage", 0), f"{w} damage", 0, 99)
        destroyed = u.get("destroyed", False)
        if not isinstance(destroyed, bool):
            raise ReferenceInputError(f"{w} destroyed must be true or false")
        if damage and not destroyed and (not size or damage >= size):
            raise ReferenceInputError(f"{w}: only a size unit carries damage, and less than its size (AI-14)")
        units.append({
            "attack": _int(u.get("attack"), f"{w} attack", 0, 99),
            "defense": _int(u.get("defense"), f"{w} defense", 0, 99),
            "mobility": _int(u.get("mobility"), f"{w} mobility", 0, 99),
            "traits": traits, "armour": armour, "size": size, "damage": damage, "destroyed": destroyed,
            "line": "line" in traits or "infantry" in traits,
        })
    return units


def _army(raw: Any, side: int) -> dict[str, Any]:
    where = f"army {side}"
    if not isinstance(raw, Mapping):
        raise ReferenceInputError(f"{where} must be a dict")
    units = _units(raw.get("units"), where)
    vanguard = _int(raw.get("vanguard", 0), f"{where} vanguard", 0, len(units) - 1)
    if units[vanguard]["destroyed"] or not units[vanguard]["line"]:
        raise ReferenceInputError(f"{where}: the vanguard must be a line unit in the field (AI-1)")
    rearguard = _int(raw.get("rearguard", vanguard), f"{where} rearguard", 0, len(units) - 1)
    general = raw.get("general")
    if general is None:
        level, gtraits = None, ()
    elif isinstance(general, Mapping):
        level = _int(general.get("level", 0), f"{where} general level", 0, 3)
        gtraits = tuple(general.get("traits", ()))
    else:
        raise ReferenceInputError(f"{where} general must be a dict or None")
    return {"units": units, "vanguard": vanguard, "rearguard": rearguard, "level": level, "gtraits": gtraits}


def _alive(army: Mapping[str, Any]) -> list[int]:
    return [i for i, u in enumerate(army["units"]) if not u["destroyed"]]


def _bid(raw: Any, army: Mapping[str, Any], side: int) -> dict[str, Any]:
    where = f"bid {side}"
    if not isinstance(raw, Mapping):
        raise ReferenceInputError(f"{where} must be a dict")
    maneuver = raw.get("maneuver")
    if maneuver not in MANEUVERS:
        raise ReferenceInputError(f"{where}: unknown maneuver {maneuver!r}")
    stratagems = tuple(raw.get("stratagems", ()))
    if len(set(stratagems)) != len(stratagems):
        raise ReferenceInputError(f"{where}: a stratagem is named twice")
    for key in stratagems:
        if key not in STRATAGEM_MANEUVERS:
            raise ReferenceInputError(f"{where}: unknown stratagem {key!r}")
        if maneuver not in STRATAGEM_MANEUVERS[key]:
            raise ReferenceInputError(f"{where}: {key} does not go with {maneuver} (AI-16)")
    rearguard = raw.get("rearguard")
    if maneuver == "withdraw":
        rearguard = army["rearguard"] if rearguard is None else rearguard
        rearguard = _int(rearguard, f"{where} rearguard", 0, len(army["units"]) - 1)
        if army["units"][rearguard]["destroyed"]:
            raise ReferenceInputError(f"{where}: the rearguard must be a unit in the field (AI-2)")
    elif rearguard is not None:
        raise ReferenceInputError(f"{where}: only a Withdraw names a rearguard (AI-2)")
    switch = raw.get("switch", True)
    if not isinstance(switch, bool):
        raise ReferenceInputError(f"{where}: switch must be true or false")
    return {"maneuver": maneuver, "stratagems": frozenset(stratagems), "rearguard": rearguard, "switch": switch}


def _rules(raw: Any) -> dict[str, Any]:
    raw = {} if raw is None else raw
    if not isinstance(raw, Mapping):
        raise ReferenceInputError("rules must be a dict")
    found = _SUCCESS.fullmatch(str(raw.get("success", "d6/4+")))
    if not found:
        raise ReferenceInputError(f"AI-6: unknown success setting {raw.get('success')!r}")
    die, target = int(found.group(1)), int(found.group(2))
    if not 2 <= target <= die:
        raise ReferenceInputError(f"AI-6: a d{die} needs a target from 2 to {die}")
    house = raw.get("house_tables") or {}
    if not isinstance(house, Mapping):
        raise ReferenceInputError("AI-11: house tables must be a dict")
    for tier, rows in house.items():
        if tier not in TIERS or not isinstance(rows, Mapping):
            raise ReferenceInputError(f"AI-11: unknown table {tier!r}")
        for own, cols in rows.items():
            if own not in MANEUVERS or not isinstance(cols, Mapping):
                raise ReferenceInputError(f"AI-11: unknown row {own!r}")
            for other, text in cols.items():
                if other not in MANEUVERS or not isinstance(text, str):
                    raise ReferenceInputError(f"AI-11: bad cell {tier}/{own}/{other}")
                _effect(text)
    winner_reads = raw.get("winner_reads", False)
    if not isinstance(winner_reads, bool):
        raise ReferenceInputError("AI-10: winner_reads must be true or false")
    return {"die": die, "target": target, "house": house, "winner_reads": winner_reads}


# ------------------------------------------------------------------ stratagems (AI-16)

def _observer(army: Mapping[str, Any]) -> bool:
    return "observer" in army["gtraits"] or any(
        "observer" in army["units"][i]["traits"] for i in _alive(army))


def _has(army: Mapping[str, Any], trait: str) -> list[int]:
    return [i for i in _alive(army) if trait in army["units"][i]["traits"]]


def _plain_pool(army: Mapping[str, Any], stat: str) -> tuple[int, int, int]:
    """(base, rest, reinforcement) of the vanguard's ``stat`` reinforced by the rest (AI-3)."""
    base = army["units"][army["vanguard"]][stat]
    rest = sum(army["units"][i][stat] for i in _alive(army) if i != army["vanguard"])
    return base, rest, reinforcement(base, rest)


def _check_prerequisites(armies, bids) -> None:
    for side in (0, 1):
        army, bid = armies[side], bids[side]
        level = -1 if army["level"] is None else army["level"]
        for key in sorted(bid["stratagems"]):
            problem = None
            if key in LEVEL_NEEDED and level < LEVEL_NEEDED[key]:
                problem = f"needs a general of level {LEVEL_NEEDED[key]} or more"
            elif key in ("covering_fire", "harassing_fire") and not _observer(army):
                problem = "needs an observer unit or general"
            elif key == "harassing_fire" and not _has(army, "long range"):
                problem = "needs a long-range unit (HR-AI-5)"
            elif key == "continuous_front" and len(_has(army, "infantry")) < 20:
                problem = "needs at least 20 infantry divisions"
            elif key == "speed":
                own = sum(_plain_pool(army, "mobility")[::2])
                other = sum(_plain_pool(armies[1 - side], "mobility")[::2])
                if own <= other:
                    problem = "needs a larger Skirmish pool than the enemy's"
            if problem:
                raise ReferenceInputError(f"bid {side}: {key} {problem} (AI-16)")


# ------------------------------------------------------------------ tables (AI-10, AI-11, AI-12)

def _effect(text: str) -> dict[str, Any]:
    """A cell's words: withdraw True/False/None and how; the casualty range or None."""
    low = text.lower()
    withdraw = True if re.search(r"withdraw\s+succeeds", low) else False if re.search(r"withdraw\s+fails", low) else None
    how = "away_arc" if "three hex arc" in low else "away_route" if ("back up route" in low or "head back" in low) \
        else "away"
    found = _INFLICT.search(text)
    span = None
    if found:
        a = int(found.group(1))
        b = int(found.group(2)) if found.group(2) else a
        if a > b or b > 20:
            raise ReferenceInputError(f"AI-12: the range in {text!r} is not from low to high within 0–20")
        span = (a, b)
    return {"withdraw": withdraw, "how": how, "range": span}


def _cell(house: Mapping[str, Any], tier: str, own: str, other: str) -> tuple[str, bool]:
    """AI-10/AI-11: the text a side reads, and whether it comes from the Minor fallback."""
    edited = house.get(tier, {}).get(own, {}).get(other)
    if edited is not None:
        return edited, False
    if tier in SOURCE_TABLES:
        return SOURCE_TABLES[tier][own][other], False
    minor = house.get("minor", {}).get(own, {}).get(other)
    return (minor if minor is not None else SOURCE_TABLES["minor"][own][other]), True


# ------------------------------------------------------------------ casualties (AI-14, HR-AI-1/2)

def _land(army: Mapping[str, Any], line: int, casualties: int) -> tuple[int, tuple[int, ...]]:
    """HR-AI-2: land ``casualties`` one at a time, line unit first, then list order.
    Returns (landed, indexes destroyed)."""
    order = [line] + [i for i in _alive(army) if i != line]
    landed, lost = 0, []
    for i in order:
        if casualties == 0:
            break
        u = army["units"][i]
        if u["armour"]:
            room = u["armour"]                  # AI-14: damage does not carry over
        elif u["size"]:
            room = u["size"] - u["damage"]      # AI-14: damage carries over
        else:
            room = 1                            # HR-AI-1
        hit = min(room, casualties)
        casualties -= hit
        landed += hit
        if hit == room:
            lost.append(i)
    return landed, tuple(sorted(lost))


# ------------------------------------------------------------------ the week

def _switches(bids, side: int) -> bool:
    """AI-16 Counter Attack: a Defend switches to Attack after the enemy declared Attack or
    Shock Attack, unless the enemy's Feint cancels it (or the bid declines the switch)."""
    bid, enemy = bids[side], bids[1 - side]
    return (bid["maneuver"] == "defend" and "counter_attack" in bid["stratagems"] and bid["switch"]
            and enemy["maneuver"] in ("attack", "shock") and "feint" not in enemy["stratagems"])


def _side_setup(armies, bids, side: int) -> dict[str, Any]:
    """Final maneuver, row read, pool and the effects in force for ``side`` (AI-2, AI-3, AI-16)."""
    army, bid = armies[side], bids[side]
    st = bid["stratagems"]
    switched = _switches(bids, side)
    maneuver = "attack" if switched else bid["maneuver"]
    enemy_final = "attack" if _switches(bids, 1 - side) else bids[1 - side]["maneuver"]
    harassing = maneuver in ("defend", "block") and "harassing_fire" in st
    read_as = "skirmish" if harassing and enemy_final in ("withdraw", "defend", "block") else maneuver
    scouting = 0
    units = army["units"]
    if switched:
        stat, line = "attack", army["vanguard"]
        base, rest, k = units[line]["attack"], 0, 0
    elif harassing:
        stat = "defense"
        ranged = _has(army, "long range")
        line = max(ranged, key=lambda i: (units[i]["defense"], -i))
        base = units[line]["defense"]
        rest = sum(units[i]["defense"] for i in ranged if i != line)
        k = reinforcement(base, rest)
    elif maneuver == "withdraw":
        last_stand = "last_stand" in st
        stat = "defense" if last_stand else "mobility"
        line = bid["rearguard"]
        base = units[line][stat]
        scouts = [i for i in _has(army, "scout") if i != line]
        rest = sum(units[i][stat] for i in scouts)
        if "covering_fire" in st:
            for i in _has(army, "long range"):
                if i != line and not (last_stand and "scout" in units[i]["traits"]):
                    rest += units[i]["defense"]
        k = reinforcement(base, rest)
        if "deception" in st:
            all_scouts = _has(army, "scout")
            if all_scouts:
                best = max(all_scouts, key=lambda i: (units[i]["mobility"], -i))
                b = units[best]["mobility"]
                r = sum(units[i]["mobility"] for i in all_scouts if i != best)
                scouting = b + reinforcement(b, r)
    else:
        stat, line = STAT[maneuver], army["vanguard"]
        base, rest, k = _plain_pool(army, stat)
    last_stand_units = ()
    if maneuver == "withdraw" and "last_stand" in st:
        last_stand_units = tuple(sorted({bid["rearguard"]} | {i for i in _has(army, "scout")}))
    return {
        "maneuver": maneuver, "read_as": read_as, "switched": switched,
        "pool": {"stat": stat, "line": line, "base": base, "rest": rest, "reinforcement": k,
                 "scouting": scouting, "dice": base + k + scouting},
        # HR-AI-2: casualties land on the rearguard in a Withdraw, else on the vanguard.
        "landing_line": bid["rearguard"] if maneuver == "withdraw" else army["vanguard"],
        "defend_mitigates": maneuver == "defend" and "hold_the_line" not in st,
        "delay": maneuver == "block" and "delay" in st,
        "hold_the_line": maneuver == "defend" and "hold_the_line" in st,
        "continuous_front": maneuver == "defend" and "continuous_front" in st,
        "last_stand": last_stand_units,
        "skilled": army["level"] == 3,
    }


def _uniform(span: tuple[int, int] | None) -> list[tuple[int, Fraction]]:
    if span is None:
        return [(0, Fraction(1))]
    a, b = span
    return [(n, Fraction(1, b - a + 1)) for n in range(a, b + 1)]


def reference_odds(armies: Any, bids: Any, rules: Any = None) -> dict[str, Any]:
    """The exact odds of every outcome of one week (see the module docstring)."""
    if not isinstance(armies, (list, tuple)) or len(armies) != 2:
        raise ReferenceInputError("armies must be a pair")
    if not isinstance(bids, (list, tuple)) or len(bids) != 2:
        raise ReferenceInputError("bids must be a pair")
    a = [_army(armies[0], 0), _army(armies[1], 1)]
    b = [_bid(bids[0], a[0], 0), _bid(bids[1], a[1], 1)]
    r = _rules(rules)
    _check_prerequisites(a, b)
    sides = [_side_setup(a, b, 0), _side_setup(a, b, 1)]
    dists = [success_distribution(s["pool"]["dice"], r["die"], r["target"]) for s in sides]

    joint: dict[Outcome, Fraction] = {}
    tiers = {"drawn": Fraction(0), "sides": ({}, {})}
    cells: list[dict[Any, Fraction]] = [{}, {}]
    fallback = [Fraction(0), Fraction(0)]
    for (s0, p0), (s1, p1) in product(sorted(dists[0].items()), sorted(dists[1].items())):
        p = p0 * p1
        succ = (s0, s1)
        margin = abs(s0 - s1)
        winner = None if margin == 0 else (0 if s0 > s1 else 1)
        tier = tier_of(margin, winner is not None and sides[winner]["skilled"])
        if winner is None:
            tiers["drawn"] += p
        else:
            tiers["sides"][winner][tier] = tiers["sides"][winner].get(tier, Fraction(0)) + p
        effects = []
        for side in (0, 1):
            own, other = sides[side], sides[1 - side]
            # AI-10: own row (as read), the column is the other's maneuver (as declared/switched).
            text, fell = _cell(r["house"], tier, own["read_as"], other["maneuver"])
            read = not (r["winner_reads"] and winner is not None and winner != side)
            effects.append(_effect(text) if read else {"withdraw": None, "how": "away", "range": None})
            key = text if read else None
            cells[side][key] = cells[side].get(key, Fraction(0)) + p
            if read and fell:
                fallback[side] += p
        # Movement that does not depend on the casualty rolls.
        movement = []
        for side in (0, 1):
            own, other = sides[side], sides[1 - side]
            if own["maneuver"] == "withdraw":
                effect = effects[side]
                if effect["withdraw"] is None and other["maneuver"] == "defend":  # AI-20, winner reads
                    effect = _effect(_cell(r["house"], tier, own["read_as"], other["maneuver"])[0])
                gets_away = (own["read_as"] == "withdraw" and effect["withdraw"] is True
                             and not other["continuous_front"])
                movement.append(effect["how"] if gets_away else "withdraw_fails")
            elif (winner == 1 - side and margin >= 3 and own["maneuver"] in ("defend", "block")
                  and other["maneuver"] in ("attack", "shock") and not own["hold_the_line"]):
                movement.append("falls_back")                                    # AI-19
            else:
                movement.append("stays")
        mitigation = []
        for side in (0, 1):
            own, other = sides[side], sides[1 - side]
            m = 0
            if own["defend_mitigates"] and other["read_as"] in ("skirmish", "attack"):
                m = max(0, succ[side] - succ[1 - side])                           # AI-15
            if own["delay"]:
                m = succ[side] // 2                                               # AI-16 Delay
            mitigation.append(m)
        # Casualties rolled against side 0 come from side 1's cell, and the other way round.
        for (on0, q0), (on1, q1) in product(_uniform(effects[1]["range"]), _uniform(effects[0]["range"])):
            rolled = (on0, on1)
            q = p * q0 * q1
            mitigated = tuple(min(rolled[s], mitigation[s]) for s in (0, 1))
            taken = tuple(rolled[s] - mitigated[s] for s in (0, 1))
            landed, lost = [], []
            moved = list(movement)
            for side in (0, 1):
                n, gone = _land(a[side], sides[side]["landing_line"], taken[side])
                if set(gone) >= set(_alive(a[side])):
                    moved[side] = None  # AI-20: destroyed by the casualties, it has no movement
                elif movement[side].startswith("away") and sides[side]["last_stand"]:
                    gone = tuple(sorted(set(gone) | set(sides[side]["last_stand"])))   # AI-16 Last Stand
                landed.append(n)
                lost.append(gone)
            out = Outcome(tier, winner, tuple(moved), rolled, mitigated, taken, tuple(landed), tuple(lost))
            joint[out] = joint.get(out, Fraction(0)) + q

    summaries = tuple(_summary(a[side], joint, side, cells[side], fallback[side]) for side in (0, 1))
    ends = sum((q for o, q in joint.items() if any(
        m not in ("stays", "withdraw_fails") for m in o.movement) or any(
        set(o.lost[s]) >= set(_alive(a[s])) for s in (0, 1))), Fraction(0))
    return {
        "maneuvers": (sides[0]["maneuver"], sides[1]["maneuver"]),
        "read_as": (sides[0]["read_as"], sides[1]["read_as"]),
        "switched": (sides[0]["switched"], sides[1]["switched"]),
        "pools": (sides[0]["pool"], sides[1]["pool"]),
        "successes": tuple(dists),
        "tiers": tiers,
        "joint": joint,
        "sides": summaries,
        "battle_ends": ends,
    }


def _add(d: dict[Any, Fraction], key: Any, p: Fraction) -> None:
    d[key] = d.get(key, Fraction(0)) + p


def _summary(army, joint, side: int, cells, fallback) -> dict[str, Any]:
    alive = set(_alive(army))
    movement = {m: Fraction(0) for m in MOVEMENTS}
    rolled: dict[int, Fraction] = {}
    mitigated: dict[int, Fraction] = {}
    taken: dict[int, Fraction] = {}
    landed: dict[int, Fraction] = {}
    units_lost: dict[int, Fraction] = {}
    per_unit = [Fraction(0)] * len(army["units"])
    loses = destroyed = Fraction(0)
    for o, p in joint.items():
        if o.movement[side] is not None:  # AI-20: a destroyed army has no movement
            movement[o.movement[side]] += p
        _add(rolled, o.rolled[side], p)
        _add(mitigated, o.mitigated[side], p)
        _add(taken, o.taken[side], p)
        _add(landed, o.landed[side], p)
        _add(units_lost, len(o.lost[side]), p)
        for i in o.lost[side]:
            per_unit[i] += p
        if o.lost[side]:
            loses += p
        if set(o.lost[side]) >= alive:
            destroyed += p
    return {
        "movement": movement, "rolled": rolled, "mitigated": mitigated, "taken": taken, "landed": landed,
        "mean_landed": sum((n * p for n, p in landed.items()), Fraction(0)),
        "units_lost": units_lost, "unit_destroyed": tuple(per_unit), "loses_unit": loses,
        "destroyed": destroyed, "fallback_table": fallback, "cells": cells,
    }
