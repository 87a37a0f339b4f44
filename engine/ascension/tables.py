"""Ascension Isle battles: the tables as data (RULES.md AI-10, AI-11, AI-13, AI-18).

The one source of the result tables for the engine (:mod:`engine.ascension`), the
live board (``web/views/battle.py``) and the matrices the site builder prerenders
(``builder/templates/rules/battle_matrices.html.j2``). Plain Python literals: the
module ships in ``app.zip`` with the rest of the engine and imports with nothing
to parse.

Cells are exactly the source's text (seed ``004_e3218ecbf04204cd.txt``, "Battle
Results"), typography included (the source writes "Block Succeeds -Inflict").
The engine reads a cell's effect from its words (:func:`engine.ascension.cell_effect`),
so a house table typed by a group works the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..text import brief_repr

__all__ = ["MANEUVERS", "MANEUVER_NAMES", "TIERS", "TIER_NAMES", "TIER_MARGINS", "DRAWN", "MINOR", "SOURCE_TABLES",
           "FALLBACK", "FALLBACK_NOTE", "MATCHUPS", "matchup", "TURN_PHASES", "JIBRIL_DIVISION", "JIBRIL_NOTE"]

#: The six maneuvers in the source's table order (rows and columns), as keys.
MANEUVERS: tuple[str, ...] = ("withdraw", "defend", "block", "skirmish", "attack", "shock")

#: How the source names them.
MANEUVER_NAMES: Mapping[str, str] = MappingProxyType({
    "withdraw": "Withdraw", "defend": "Defend", "block": "Block",
    "skirmish": "Skirmish", "attack": "Attack", "shock": "Shock Attack",
})

#: AI-8: the tiers, weakest first.
TIERS: tuple[str, ...] = ("drawn", "minor", "major", "crushing", "legendary")

TIER_NAMES: Mapping[str, str] = MappingProxyType({
    "drawn": "Drawn combat", "minor": "Minor victory", "major": "Major victory",
    "crushing": "Crushing victory", "legendary": "Legendary victory",
})

#: AI-8: the margins of each tier, as the source states them.
TIER_MARGINS: Mapping[str, str] = MappingProxyType({
    "drawn": "equal rolls", "minor": "win by 1–2 successes", "major": "win by 3–5 successes",
    "crushing": "win by 6 or more successes",
    "legendary": "win by 10 or more successes, skilled general only",
})


def _table(rows: list[list[str]]) -> Mapping[str, Mapping[str, str]]:
    assert len(rows) == 6 and all(len(row) == 6 for row in rows)
    return MappingProxyType({
        own: MappingProxyType(dict(zip(MANEUVERS, row))) for own, row in zip(MANEUVERS, rows)
    })


_W3 = "Withdraw Succeeds - may disengage in three hex arc from route"

#: The rows of both tables the source gives, "Drawn Combat (equal rolls)" and "Minor victory
#: (win by 1-2 successes)": identical in the source (AI-10), so transcribed once; row by row (own
#: maneuver), column by column (opponent's).
_SOURCE_ROWS = [
    [_W3, "Withdraw Succeeds - must head back up route", "Withdraw fails - remain in hex next turn",
     _W3, "Withdraw Succeeds", "Withdraw Succeeds - inflict 0-1 casualties"],
    ["No result", "No result", "No result", "Defend Succeeds - inflict 0-1 casualties",
     "Defend Succeeds - inflict 0-1 casualties", "Defend Succeeds - inflict 1 casualty"],
    ["Block Succeeds -Inflict 1-2 casualties", "No result", "No result", "No result",
     "Block Succeeds - inflict 0-1 casualties", "Block Succeeds - Inflict 1 casualty"],
    ["No result", "No result", "No result", "No result", "Inflict 0-1 casualties", "Inflict 1 casualty"],
    ["Inflict 0-1 casualties", "Inflict 0-1 casualties", "Inflict 0-1 casualties", "No result",
     "Inflict 1 casualty", "Inflict 1-2 casualties"],
    ["Inflict 1 casualty", "Inflict 0-1 casualties", "Inflict 0-1 casualties", "Inflict 0-1 casualties",
     "Inflict 1 casualty", "Inflict 1-5 casualties"],
]

#: "Drawn Combat (equal rolls)" (AI-10).
DRAWN = _table(_SOURCE_ROWS)

#: "Minor victory (win by 1-2 successes)" (AI-10): its own table, shown as given, with the same rows.
MINOR = _table(_SOURCE_ROWS)

#: The tables the source gives (AI-10).
SOURCE_TABLES: Mapping[str, Mapping[str, Mapping[str, str]]] = MappingProxyType({
    "drawn": DRAWN, "minor": MINOR,
})

#: AI-11 (ruling): tiers the source has no table for read the Minor victory table.
FALLBACK: Mapping[str, str] = MappingProxyType({"major": "minor", "crushing": "minor", "legendary": "minor"})

#: The AI-11 mark on a result read from a fallback table.
FALLBACK_NOTE = "table not in the rules — falling back to Minor victory"

#: AI-13: maneuver → (strong against, weak against), as the source states them.
MATCHUPS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = MappingProxyType({
    "withdraw": (("defend",), ("skirmish", "block")),
    "defend": (("skirmish", "attack"), ("withdraw",)),
    "block": (("withdraw", "skirmish"), ("shock",)),
    "skirmish": (("attack", "shock"), ("defend", "block")),
    "attack": (("shock",), ("skirmish",)),
    "shock": (("block",), ("skirmish",)),
})


def matchup(own: str, other: str) -> str:
    """AI-13: ``"strong"``, ``"weak"`` or ``""`` — how ``own`` fares against ``other``.

    Raises ``ValueError`` for a name that is not one of :data:`MANEUVERS`.
    """
    for name in (own, other):
        if not isinstance(name, str) or name not in MATCHUPS:
            raise ValueError(f"AI-13: unknown maneuver {brief_repr(name)} (maneuvers: {', '.join(MANEUVERS)})")
    strong, weak = MATCHUPS[own]
    if other in strong:
        return "strong"
    if other in weak:
        return "weak"
    return ""


#: AI-18: the campaign turn sequence, in order.
TURN_PHASES: tuple[str, ...] = (
    "Declare production expenditures",
    "Unit movement (in player order)",
    "Declare combat",
    "Character pickup movement",
    "Event phase (once a month)",
    "Narrative phase (posts)",
    "Combat resolution (in player order)",
    "Event resolution (in player order)",
    "Finish production expenditures",
    "Tally upkeep and adjust production",
)

#: The source's example line unit (AI-3): Jibril Armoured Infantry Division.
JIBRIL_DIVISION: Mapping[str, object] = MappingProxyType({
    "name": "Jibril Armoured Infantry Division", "attack": 5, "defense": 6, "mobility": 2,
    "traits": ("infantry", "line"), "armour": 0, "size": 0,
})

#: What the board says where the preset is added (issue 22): the source's words, and its gap.
JIBRIL_NOTE = ("The source calls Jibril soldiers armoured and able to take more punishment, but gives no "
               "armour or size number: as given, one casualty destroys a division (HR-AI-1).")
