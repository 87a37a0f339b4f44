"""CONSIM: its part of a game's printable record (issue 22; :mod:`engine.record` asks it
through the ``record_part`` hook, :mod:`engine.system`).

Made from the spectator copy, as every record is: the Observer's combatants stay
hidden as long as their privacy is on (a game master reuses them; a skirmish has no
end that reveals them), so the record shows what the players' view shows — their
number, not their names, cards or statuses, and no log line about them.
"""

from __future__ import annotations

from typing import Any

from ..record import Entry, Section, cards_text, entry
from ..text import plural
from .rules import is_hidden
from .values import ConsimState, state_arg


def record_part(state: ConsimState, game: Any) -> tuple[tuple[str, ...], list[Section]]:
    """The roster (each side's combatants with their condition, CS-10 and CS-13,
    suppression, CS-7 and CS-12, and cards this round; the acting order, CS-5) and the
    round log of the spectator copy's ``state``; ``game`` is that copy."""
    state = state_arg(state)
    hidden = {i for i in range(len(state.combatants)) if is_hidden(state, i)}
    people = tuple(state.sides)
    groups = []
    for s, side in enumerate(state.sides):
        details = []
        for i, fighter in enumerate(state.combatants):
            if fighter.side != s or i in hidden:
                continue
            st = state.statuses[i]
            parts = [st.condition.label]
            if st.suppression:
                parts.append(f"suppression {st.suppression}")
            if st.countdown is not None:
                parts.append(f"countdown {st.countdown}")
            if st.treated:
                parts.append("treated")
            if st.first_aid:
                parts.append("first aid given")
            hand = state.hands[i] if i < len(state.hands) else None
            if state.phase == "round" and hand is not None and hand.kept:
                parts.append(f"cards {cards_text(hand.kept)}")
            details.append(f"{fighter.name}{' (PC)' if fighter.player else ''}: {', '.join(parts)}")
        count = sum(1 for i in hidden if state.combatants[i].side == s)
        if count and not state.count_hidden:  # HR-CS-8: one line, no number
            details.append("The Observer's hidden combatants (not counted)")
        elif count:
            details.append(f"{plural(count, 'combatant')} of the Observer: hidden")
        groups.append(Entry(side, details=tuple(details)))
    order = []
    if state.phase == "round" and state.turns:
        for turn in state.turns:
            if turn.combatant in hidden:
                continue
            order.append(f"{turn.card.label} {state.combatants[turn.combatant].name}"
                         f"{' (acted)' if turn.done else ''}")
    intro = f"Round {state.round}." if state.round else "Before the first deal."
    if order:
        intro += " Acting order (CS-5): " + ", ".join(order) + "."
    table = Section("table", "Roster", tuple(groups), intro=intro)
    entries = tuple(entry(item.text, f"Round {item.round}") for item in state.log
                    if not any(i in hidden for i in item.who))
    log = Section("log", "Round log", entries, intro="" if entries else "Nothing happened yet.")
    return people, [table, log]
