"""Ascension Isle battles: the battle's part of the printable record (issue 22; RULES.md AI-7, AI-8).

:func:`record_part` is the :mod:`engine.record` hook (:mod:`engine.system`): from the
spectator copy's state it gives the sides' names and two sections — the armies (each
unit's stats, traits, toughness, role, casualties carried, destroyed) and the battle log
(every week's bids, dice, successes, the cells read, casualties, the tier and the notes).
A bid is public once both bids are revealed (AI-7), and a finished battle has no
unrevealed bid, so its record holds everything but the seed. :data:`SETTING_WORDS` are the
words the record's rules settings use for the keys of the AI-11 house tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ..record import Entry, Section, dice_text, entry
from ..text import plural
from .tables import MANEUVER_NAMES, TIER_NAMES
from .values import STRATAGEM_BY_KEY, state_arg

#: The record's words for the keys of a free-form setting: the AI-11 house tables are keyed by
#: tier and maneuver (``{"major": {"attack": {"defend": …}}}`` reads "Major victory · Attack · Defend").
SETTING_WORDS: Mapping[str, str] = MappingProxyType({**TIER_NAMES, **MANEUVER_NAMES})


def record_part(state: object, game: Any) -> tuple[tuple[str, ...], list[Section]]:
    """The sides' names and the record's "Armies" and "Battle log" sections of ``state`` (the
    state of ``game``, a spectator's copy)."""
    state = state_arg(state)
    names = tuple(army.name for army in state.armies)
    armies = []
    for s, army in enumerate(state.armies):
        details = []
        if army.general is not None:
            details.append(f"General: {army.general.name}, level {army.general.level}")
        for u, unit in enumerate(army.units):
            roles = [r for r, at in (("vanguard", state.vanguards[s]), ("rearguard", state.rearguards[s])) if at == u]
            traits = f"; {', '.join(unit.traits)}" if unit.traits else ""
            role = "destroyed" if state.destroyed[s][u] else " and ".join(roles)
            text = (f"{unit.name}{f' ({role})' if role else ''}: attack {unit.attack}, defense {unit.defense}, "
                    f"mobility {unit.mobility}{traits}; {unit.toughness()}")
            if state.damage[s][u] and not state.destroyed[s][u]:
                text += f"; {plural(state.damage[s][u], 'casualty', 'casualties')} carried"
            details.append(text)
        armies.append(Entry(army.name, details=tuple(details)))
    table = Section("table", "Armies", tuple(armies), intro=f"Week {state.week}.")
    weeks = []
    for week in state.weeks:
        details = []
        for s in (0, 1):
            bid = MANEUVER_NAMES.get(week.maneuvers[s], week.maneuvers[s])
            if week.stratagems[s]:
                bid += " (" + ", ".join(getattr(STRATAGEM_BY_KEY.get(k), "name", k) for k in week.stratagems[s]) + ")"
            if week.read_as[s] != week.maneuvers[s]:
                bid += f", read as {MANEUVER_NAMES.get(week.read_as[s], week.read_as[s])}"
            rolled = plural(week.pools[s].dice, 'die', 'dice')
            if week.dice is None:  # HR-AI-7: the table's own dice, entered as their successes only
                rolled += " rolled at the table, successes entered"
            else:
                rolled += f" rolled: {dice_text(week.dice[s]) or 'no dice'}"
            line = (f"{names[s]}: {bid}; {rolled} → "
                    f"{plural(week.successes[s], 'success', 'successes')}; reads “{week.cells[s].text}”; "
                    f"takes {plural(week.taken[s], 'casualty', 'casualties')}")
            if week.mitigated[s]:
                line += f" ({week.mitigated[s]} mitigated)"
            if week.lost[s]:
                line += f"; destroyed: {', '.join(week.lost[s])}"
            details.append(line)
        details.append(f"{TIER_NAMES.get(week.tier, week.tier)}, margin {week.margin} (AI-8)")
        details.extend(week.notes)
        if week.ended:
            details.append(week.ended)
        weeks.append(entry(week.headline, f"Week {week.week}", details))
    log = Section("log", "Battle log", tuple(weeks), intro="" if weeks else "No week rolled yet.")
    return names, [table, log]
