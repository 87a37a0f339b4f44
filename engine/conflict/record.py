"""Organizations In Conflict: its part of a game's printable record (issue 22;
:mod:`engine.record` asks it through the ``record_part`` hook, :mod:`engine.system`).

Made from the spectator copy, as every record is: hands and discards are never shown
at the table, not even when the conflict is over, and the app's own "why" may speak of
its hand, so the cards played, the ratings and the rounds are the whole record.
"""

from __future__ import annotations

from typing import Any

from ..record import Entry, Section, entry
from .values import ConflictState, checked_state


def record_part(state: ConflictState, game: Any) -> tuple[tuple[str, ...], list[Section]]:
    """The sides (who fights; their organizations' powers as set up → now, OIC-16) and the
    conflict log (each round's result and cards, OIC-15 … OIC-17) of the spectator copy's
    ``state``; ``game`` is that copy."""
    state = checked_state(state)
    people = tuple(side.name for side in state.sides)
    sides = []
    for s, side in enumerate(state.sides):
        start = state.initial_sides[s]
        details = []
        for p, player in enumerate(side.players):
            for o, org in enumerate(player.organizations):
                before = start.players[p].organizations[o].power
                power = f"power {before}" if before == org.power else f"power {before} → {org.power}"
                where = f", {org.location}" if org.location else ""
                details.append(f"{player.name}: {org.name} ({org.suit.symbol} {org.suit.noun}), {power}{where}")
        role = " — aggressor this round" if state.aggressor == s and not state.is_over else ""
        sides.append(Entry(f"{side.name} ({side.scope.label}){role}", details=tuple(details)))
    if state.chain and not state.is_over:
        sides.append(Entry("On the table this round: " + " → ".join(
            f"{state.sides[play.side].name} {play.card.label}" for play in state.chain)))
    table = Section("table", "Sides", tuple(sides),
                    intro=f"Conflict scope: {state.scope.label}. Powers as set up → now (OIC-16).")
    rounds = []
    for result in state.results:
        played = " → ".join(f"{state.sides[play.side].name} {play.card.label}" for play in result.plays)
        details = [result.explanation]
        if played:
            details.append(f"Cards: {played}")
        rounds.append(entry(result.headline, f"Round {result.number}", details))
    log = Section("log", "Conflict log", tuple(rounds),
                  intro=f"In-world time: {state.elapsed} (OIC-3, OIC-17)." if rounds else "No round finished yet.")
    return people, [table, log]
