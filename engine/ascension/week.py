"""Ascension Isle battles: the week's resolution as a pure function (RULES.md AI-8 … AI-19).

:func:`resolve` (``resolve(state, bids, rolls) -> WeekResult``): given the state before the
roll, both bids and what the dice gave (:class:`~engine.ascension.Rolls`: each side's
successes, its casualty range roll, optionally the faces), the whole outcome of the week —
tier, cells read, casualties, mitigation, destroyed units, withdraw, fallback, how the
battle ends and the units' state after it. :func:`~engine.ascension.step` uses it for every
roll, so a caller that enumerates every die outcome (the outcome odds, the staff officer)
gets exactly what a played week would give. :func:`casualty_ranges` says which range rolls
a pair of success counts calls for; :func:`counter_switches` which Counter Attacks may
switch against a pair of bids; :func:`line_up` is HR-AI-3's succession.

The readings ``read_tables``, ``mitigation_of``, ``withdrew_of``, ``beaten_line``,
``last_stand_units`` and ``land`` are shared with the outcome odds (:mod:`.odds`), which
count them over every roll instead of rolling.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from ..game import ArgumentError, RuleError
from ..text import brief_repr
from .rules import (
    Cell,
    alive_unit,
    bid_pools,
    count_successes,
    counter_problem,
    result_cell,
    stratagem_keys,
    stratagem_problem,
    success_setting,
    victory_tier,
)
from .tables import MANEUVER_NAMES, TIER_NAMES
from .values import (
    NO_EFFECT,
    READS_WINNER,
    STRATAGEM_BY_KEY,
    STRATAGEM_ORDER,
    Army,
    BattleState,
    Bid,
    Pool,
    Rolls,
    WeekResult,
    bool_arg,
    int_arg,
    maneuver_arg,
    per_side,
    state_arg,
)


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
        return per_side(lambda s: self.cells[s].effect.casualties if self.applied[s] else None)


def bids_arg(state: BattleState, bids: Any) -> tuple[Bid, Bid]:
    if not isinstance(bids, (tuple, list)) or len(bids) != 2 or not all(isinstance(b, Bid) for b in bids):
        raise ArgumentError("The bids must be a pair of Bid values, one per side")
    out = []
    for s, bid in enumerate(bids):
        if bid.sealed:
            raise ArgumentError("A sealed bid (a spectator's copy) cannot be resolved")
        maneuver_arg(bid.maneuver)
        keys = stratagem_keys(bid.stratagems)
        for key in keys:
            problem = stratagem_problem(state, s, key, bid.maneuver)
            if problem:
                raise RuleError(problem.split(":", 1)[0], problem.split(": ", 1)[1])
        rear = bid.rearguard
        if bid.maneuver == "withdraw":
            rear = state.rearguards[s] if rear is None else alive_unit(state, s, rear, "The rearguard")
        elif rear is not None:
            raise ArgumentError("AI-2: only a Withdraw names a rearguard")
        out.append(replace(bid, stratagems=tuple(sorted(keys, key=STRATAGEM_ORDER.__getitem__)), rearguard=rear))
    return out[0], out[1]


def switched_arg(state: BattleState, bids: tuple[Bid, Bid], switched: Any) -> tuple[bool, bool]:
    if switched is None:
        return state.switched if state.phase == "revealed" and tuple(state.bids) == tuple(bids) else (False, False)
    if not isinstance(switched, (tuple, list)) or len(switched) != 2:
        raise ArgumentError("switched must be a pair of true/false, one per side")
    out = (bool_arg(switched[0], "switched[0]"), bool_arg(switched[1], "switched[1]"))
    for s in (0, 1):
        if out[s]:
            problem = counter_problem(state, s, bids)
            if problem:
                raise RuleError("AI-16", problem.split(": ", 1)[1])
    return out


def counter_switches(state: BattleState, bids: tuple[Bid, Bid]) -> tuple[bool, bool]:
    """AI-16: for each side, whether its Counter Attack may switch to Attack against ``bids``
    (a Defend declared with Counter Attack, the enemy in Attack or Shock Attack, no Feint),
    whatever the phase: the switches :func:`resolve` and the outcome odds take for bids the
    armies could declare (the stratagems must qualify, AI-16)."""
    state = state_arg(state)
    bids = bids_arg(state, bids)
    return counter_problem(state, 0, bids) is None, counter_problem(state, 1, bids) is None


def _successes_arg(successes: Any, pools: tuple[Pool, Pool]) -> tuple[int, int]:
    if not isinstance(successes, (tuple, list)) or len(successes) != 2:
        raise ArgumentError("The successes must be a pair of numbers, one per side")
    return per_side(lambda s: int_arg(successes[s], f"AI-6: side {s}'s successes", 0, pools[s].dice))


def read_tables(state: BattleState, bids: tuple[Bid, Bid], switched: tuple[bool, bool],
                successes: tuple[int, int], pools: tuple[Pool, Pool] | None = None) -> _Reading:
    """AI-8 … AI-11, AI-16: the tier and the cells each side reads for these successes
    (``pools``: the week's pools when the caller has them already)."""
    settings = state.settings
    pools = bid_pools(state, bids, switched) if pools is None else pools
    margin = abs(successes[0] - successes[1])
    winner = None if margin == 0 else (0 if successes[0] > successes[1] else 1)
    general = state.armies[winner].general if winner is not None else None
    tier = victory_tier(margin, bool(general and general.skilled))
    maneuvers = per_side(lambda s: "attack" if switched[s] else bids[s].maneuver)
    notes: list[str] = []
    read_as = list(maneuvers)
    for s in (0, 1):
        if (bids[s].maneuver in ("defend", "block") and "harassing_fire" in bids[s].stratagems and not switched[s]
                and maneuvers[1 - s] in ("withdraw", "defend", "block")):
            read_as[s] = "skirmish"
            notes.append(f"AI-16 Harassing Fire: {state.armies[s].name} reads its result as Skirmish")
    cells = per_side(lambda s: result_cell(settings, tier, read_as[s], maneuvers[1 - s]))
    applied = [True, True]
    if settings.get("reads") == READS_WINNER and winner is not None:
        applied[1 - winner] = False
        notes.append(f"AI-10 variant (winner reads): only {state.armies[winner].name}'s row is applied; "
                     f"{state.armies[1 - winner].name} inflicts nothing")
    for s in (0, 1):
        if cells[s].origin == "fallback" and applied[s] and cells[s].note not in notes:
            notes.append(cells[s].note)
    return _Reading(pools, margin, winner, tier, maneuvers, (read_as[0], read_as[1]), cells, (applied[0], applied[1]),
                    tuple(notes))


def casualty_ranges(state: BattleState, bids: tuple[Bid, Bid], successes: tuple[int, int],
                    switched: tuple[bool, bool] | None = None) -> tuple[tuple[int, int] | None,
                                                                        tuple[int, int] | None]:
    """AI-12: the casualty range each side's cell gives for these successes (``None``: the
    cell inflicts nothing, or is not applied under the AI-10 "winner reads" variant).

    A range ``(lo, hi)`` with ``lo < hi`` is rolled (or entered) for :class:`~engine.ascension.Rolls`;
    ``(n, n)`` is that number. ``switched``: Counter Attack switches (default: the
    state's, when ``bids`` are its revealed bids).
    """
    state = state_arg(state)
    bids = bids_arg(state, bids)
    switched = switched_arg(state, bids, switched)
    successes = _successes_arg(successes, bid_pools(state, bids, switched))
    return read_tables(state, bids, switched, successes).ranges



def mitigation_of(bids: tuple[Bid, Bid], maneuvers: tuple[str, str],
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


def mitigation_by_margin(bids: tuple[Bid, Bid]) -> bool:
    """Whether :func:`mitigation_of` depends only on the difference of the successes (so the odds
    may count each margin once): always, but for a Block with Delay (half its own successes)."""
    return not any(b.maneuver == "block" and "delay" in b.stratagems for b in bids)


def withdrew_of(reading: _Reading) -> tuple[bool, bool]:
    """AI-10/AI-15: which side's Withdraw gets away (before the week's casualties, AI-20): its
    cell is applied and says "Withdraw Succeeds" (a Continuous Front only closes the defended
    hex to it, HR-AI-8). Under the AI-10 "winner reads" variant a Withdraw against a Defend
    gets away even when it lost (AI-20: the defender "has sacrificed the initiative")."""
    return per_side(lambda s: (reading.applied[s] or reading.maneuvers[1 - s] == "defend")
                    and reading.cells[s].effect.withdraw is True
                    and reading.maneuvers[s] == "withdraw")


def last_stand_units(pool: Pool, rearguard: int | None) -> tuple[int, ...]:
    """AI-16 Last Stand: the units destroyed when the Withdraw gets away: the rearguard and
    every unit that reinforced its ``pool`` (HR-AI-9: Covering Fire's long-range units too)."""
    return pool.reinforcing if rearguard is None else (rearguard, *pool.reinforcing)


def beaten_line(reading: _Reading, bids: tuple[Bid, Bid]) -> int | None:
    """AI-19: the side that falls back this week (a Defend or Block beaten by 3+ by an Attack or
    Shock Attack, not holding the line), or None. Old games keep no fallback (see resolve)."""
    loser = None if reading.winner is None else 1 - reading.winner
    maneuvers = reading.maneuvers
    if (loser is not None and reading.margin >= 3 and maneuvers[loser] in ("defend", "block")
            and maneuvers[1 - loser] in ("attack", "shock") and "hold_the_line" not in bids[loser].stratagems):
        return loser
    return None


def land(state: BattleState, side: int, count: int, first: int, damage: tuple[int, ...],
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


def line_up(army: Army, destroyed: tuple[bool, ...], vanguard: int, rearguard: int) -> tuple[int, int]:
    """HR-AI-3: the vanguard (a surviving line unit, the first in list order when it must be
    replaced; any surviving unit when no line unit is left) and the rearguard (the vanguard
    when it is destroyed) of ``army`` whose units are ``destroyed`` (one flag per unit)."""
    if not isinstance(army, Army):
        raise ArgumentError(f"Not an army: {type(army).__name__}")
    count = len(army.units)
    if not isinstance(destroyed, (tuple, list)) or len(destroyed) != count \
            or not all(isinstance(dead, bool) for dead in destroyed):
        raise ArgumentError(f"The destroyed units are one true/false per unit of the army ({count})")
    vanguard = int_arg(vanguard, "The vanguard (a unit number)", 0, count - 1)
    rearguard = int_arg(rearguard, "The rearguard (a unit number)", 0, count - 1)
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


def line_notes(state: BattleState, side: int, old: tuple[int, int], new: tuple[int, int],
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
        raise ArgumentError("The rolls must be a Rolls value (successes, ranges, dice)")
    successes = _successes_arg(rolls.successes, pools)
    if not isinstance(rolls.ranges, (tuple, list)) or len(rolls.ranges) != 2:
        raise ArgumentError("The range rolls must be a pair, one per side (None where nothing is rolled)")
    dice = rolls.dice
    if dice is not None:
        if not isinstance(dice, (tuple, list)) or len(dice) != 2:
            raise ArgumentError("The dice must be two lists of faces, one per side")
        faces = []
        for s in (0, 1):
            if not isinstance(dice[s], (tuple, list)) or len(dice[s]) != pools[s].dice:
                raise ArgumentError(f"AI-3: side {s} rolls {pools[s].dice} dice")
            if count_successes(dice[s], die, target) != successes[s]:
                raise ArgumentError(f"AI-6: side {s}'s dice show {count_successes(dice[s], die, target)} successes, "
                                    f"not {successes[s]}")
            faces.append(tuple(int(v) for v in dice[s]))
        dice = (faces[0], faces[1])
    return Rolls(successes, (rolls.ranges[0], rolls.ranges[1]), dice)


def resolve(state: BattleState, bids: tuple[Bid, Bid], rolls: Rolls,
            switched: tuple[bool, bool] | None = None) -> WeekResult:
    """The whole outcome of one week, from the state before the roll, both bids and what the
    dice gave — a pure function (AI-8 … AI-19), the one :func:`~engine.ascension.step` uses for every roll.

    ``bids``: a :class:`~engine.ascension.Bid` per side (``stratagems`` must qualify, AI-16; a Withdraw's
    ``rearguard`` defaults to the army's current one). ``rolls``: a :class:`~engine.ascension.Rolls` —
    each side's successes (0 … its pool), each side's casualty range roll for the cell
    it reads (see :func:`casualty_ranges`: a number in the range where the range has
    more than one value, else ``None``), and optionally the faces. ``switched``:
    Counter Attack switches (default: the state's when ``bids`` are its revealed bids,
    else none). The state itself needs no particular phase, so a caller can resolve
    any pair of bids the armies could declare.

    Returns the :class:`~engine.ascension.WeekResult`: tier and margin (AI-8, AI-9), the cells read
    (AI-10, AI-11; the AI-10 "winner reads" variant when set), casualty rolls (AI-12),
    mitigation (AI-15 Defend, Delay; none under Hold the Line), casualties landed and
    units destroyed (AI-14, HR-AI-1, HR-AI-2), the vanguard's succession (HR-AI-3),
    withdraws (AI-15, Last Stand), the fallback (AI-19) and how the battle ends, with
    the armies' damage, destroyed units, vanguards and rearguards after the week.
    Raises a ``ValueError`` subclass for arguments that do not fit.
    """
    state = state_arg(state)
    bids = bids_arg(state, bids)
    switched = switched_arg(state, bids, switched)
    die, target = success_setting(state.settings)
    pools = bid_pools(state, bids, switched)
    rolls = _rolls_arg(rolls, pools, die, target)
    successes = rolls.successes
    reading = read_tables(state, bids, switched, successes)
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
                raise ArgumentError(f"AI-12: {names[s]}'s casualty range {span[0]}–{span[1]} needs its roll")
            rolled.append(span[0])
        else:
            if not isinstance(given, int) or isinstance(given, bool) or not span[0] <= given <= span[1]:
                raise RuleError("AI-14", f"{names[s]}'s casualty roll must be from {span[0]} to {span[1]} "
                                         f"(got {brief_repr(given)})")
            rolled.append(int(given))
    maneuvers = reading.maneuvers
    mitigation = list(mitigation_of(bids, maneuvers, successes))
    incoming = (rolled[1], rolled[0])
    mitigated = per_side(lambda s: min(mitigation[s], incoming[s]))
    taken = per_side(lambda s: incoming[s] - mitigated[s])
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
    named = [bids[s].rearguard if maneuvers[s] == "withdraw" else None for s in (0, 1)]
    rears = (named[0], named[1])
    for s in (0, 1):
        rear = rears[s]
        first = rear if rear is not None else state.vanguards[s]
        damage[s], destroyed[s], hits[s] = land(state, s, taken[s], first, damage[s], destroyed[s])
    # AI-20: an army destroyed by the week's casualties neither gets away nor falls back.
    killed = [all(destroyed[s]) for s in (0, 1)]
    withdrew = [w and not killed[s] for s, w in enumerate(withdrew_of(reading))]
    for s in (0, 1):
        if withdrew[s] and "last_stand" in bids[s].stratagems:
            gone = last_stand_units(reading.pools[s], rears[s])
            destroyed[s] = tuple(True if i in gone else d for i, d in enumerate(destroyed[s]))
            notes.append(f"AI-16 Last Stand: {names[s]}'s rearguard and its reinforcing units are destroyed")
        if withdrew[s] and "continuous_front" in bids[1 - s].stratagems:
            notes.append(f"AI-16 Continuous Front: {names[s]} may not withdraw through the defended hex")
    # AI-19: a Defend or Block beaten by 3+ by an Attack or Shock Attack falls back (not under Hold the Line).
    fell_back = [False, False]
    loser = beaten_line(reading, bids)
    if loser is not None:
        if state.old_rulings:
            notes.append(f"AI-19 not applied: this battle was played before the fallback ruling, so "
                         f"{names[loser]} does not fall back (kept as played)")
        elif not killed[loser]:  # AI-20: a destroyed army does not fall back
            fell_back[loser] = True
    lost = per_side(lambda s: tuple(state.armies[s].units[i].name for i in range(len(destroyed[s]))
                                    if destroyed[s][i] and not state.destroyed[s][i]))
    lines = [line_up(state.armies[s], destroyed[s], state.vanguards[s], state.rearguards[s]) for s in (0, 1)]
    for s in (0, 1):
        notes.extend(line_notes(state, s, (state.vanguards[s], state.rearguards[s]), lines[s], destroyed[s]))
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
        rolled=(rolled[0], rolled[1]), mitigation=(mitigation[0], mitigation[1]), mitigated=mitigated,
        taken=taken, hits=(hits[0], hits[1]), lost=lost, withdrew=(withdrew[0], withdrew[1]),
        fell_back=(fell_back[0], fell_back[1]), notes=tuple(notes), headline=headline, ended=ended, how=how,
        damage=(damage[0], damage[1]), destroyed=(destroyed[0], destroyed[1]),
        vanguards=(lines[0][0], lines[1][0]), rearguards=(lines[0][1], lines[1][1]), rearguards_used=rears)
