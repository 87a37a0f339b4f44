"""Campaign's part of the printable record (:mod:`engine.record`, the ``record_part`` hook
of :mod:`engine.system`): the players, the table — card counts, stakes, the pool, the
battles fought, every exhaustion roll (CMP-6) and the negotiating table's hands (CMP-7,
CMP-8) — and the campaign log. Made from the spectator copy: hands stay hidden until
the negotiating table, where every card is laid down.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..text import plural
from .values import state_arg

if TYPE_CHECKING:
    from ..record import Section


def record_part(state: object, game: Any) -> tuple[tuple[str, ...], list[Section]]:
    """The players and the record's sections of a campaign ``state`` (the replay of the
    spectator copy ``game``): "The table" and the "Campaign log"."""
    # engine.record is imported here, when a record is made, not with the system: it imports
    # the systems' tables itself, and importing the campaign never needs it.
    from ..record import Entry, Section, cards_text, dice_text

    state = state_arg(state)
    people = tuple(state.players)
    rows = []
    for p, player in enumerate(state.players):
        stake = state.stakes[p]
        text = f"{player}{' (the dummy, CMP-9)' if p == 1 and state.dummy else ''}: " \
               f"{plural(state.card_count(p), 'card')}"
        if stake is not None:
            text += f", stake {stake.label} face up"
        rows.append(Entry(text))
    if state.pool:
        rows.append(Entry(f"Pool (face up): {cards_text(state.pool)}"))
    rows.append(Entry(f"Battles fought: {state.fought}"))
    for roll in state.rolls:
        rows.append(Entry(f"Exhaustion roll after battle {roll.battles}: dice {dice_text(roll.dice)}, lower "
                          f"{roll.lower} + {roll.battles} = {roll.total}"
                          f"{' (exhausted)' if roll.exhausted else ''}", ref="CMP-6"))
    treaty = state.treaty
    if treaty is not None:
        for p, player in enumerate(state.players):
            hand = treaty.hands[p]
            details = [f"Cards at the table: {cards_text(treaty.cards[p])}"]
            if treaty.drawn[p]:
                details.append(f"Drawn there: {cards_text(treaty.drawn[p])}")
            rows.append(Entry(f"{player}: {hand} ({cards_text(hand.cards)})", ref="CMP-8", details=tuple(details)))
        rows.append(Entry(treaty.explanation))
    table = Section("table", "The table", tuple(rows))
    entries = []
    for item in state.log:
        text = item.text
        missing = [c for c in item.cards if c.label not in text]
        if missing:
            text += f" ({cards_text(item.cards)})"
        entries.append(Entry(text, ref=item.rule))
    log = Section("log", "Campaign log", tuple(entries), intro="Every card that moved, and why.")
    return people, [table, log]
