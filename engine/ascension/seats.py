"""Ascension Isle battles at a table of phones (issue 32): the general of each army people
play is a seat, ``"general-S"``. A general sees its own sealed bid until the reveal (AI-7:
the app is the impartial invigilator; the other army's bid never reaches this phone) and,
when the phone asks, its staff officer's advice (HR-AI-13: the 6×6 grid and the
recommended mix, computed from public information only). It declares its own bid
(AI-7), takes its own Counter Attack (AI-16) and leaves the battle (AI-15); the reveal,
the roll, joins, corrections and the turn's phases are the tablet's (HR-SEAT-1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..game import ArgumentError, Game, replay
from ..seats import Seat, move_of, own_field, seat_number, tablet_only
from ..text import brief_repr
from .advice import AIMS, Advice, advice, bid_name
from .referee import can_counter_attack, can_leave
from .values import BattleState, side_arg, state_arg

_TABLE = {"reveal": "the bids are revealed on the tablet, together (AI-7)",
          "roll": "the dice are rolled on the tablet (AI-3)",
          "join": "a unit joins on the tablet",
          "correct": "a unit's entry is corrected on the tablet",
          "phase": "the turn's steps are ticked on the tablet (AI-18)"}


def seats(game: Game) -> tuple[Seat, ...]:
    """AI-7: a seat for the general of each army people play (the app's general has none)."""
    state = replay(game, 0)
    return tuple(Seat(f"general-{s}", f"General of {army.name}") for s, army in enumerate(state.armies)
                 if army.level is None)


def _key(bid: Any) -> str:
    """A bid as one word for a phone: ``"block+ambush"`` (the maneuver, then its stratagems)."""
    return "+".join((bid.maneuver,) + tuple(bid.stratagems))


def _advice_json(told: Advice) -> dict[str, Any]:
    return {
        "aim": told.aim,
        "own": [{"key": _key(b), "name": bid_name(b)} for b in told.own],
        "enemy": [{"key": _key(b), "name": bid_name(b)} for b in told.enemy],
        "grid": [[{"gets_away": float(c.gets_away), "inflicted": float(c.inflicted), "taken": float(c.taken),
                   "falls_back": float(c.falls_back), "payoff": float(c.payoff)} for c in row] for row in told.grid],
        "value": float(told.value),
        "mix": [float(p) for p in told.mix],
        "recommendation": told.recommendation(),
        "outlook": told.outlook(),
    }


def seat_private(state: BattleState, seat: Seat, advice_wanted: Any = False) -> dict[str, Any]:
    """What the general in ``seat`` alone sees: its own bid while it is sealed (AI-7; after
    the reveal both bids are in the spectator copy), what it may do now (bid, Counter
    Attack, leave), and with ``advice_wanted`` (``True`` for the aim "net", or an aim of
    :data:`~engine.ascension.AIMS`) its staff officer's advice for this week (HR-AI-13)."""
    state, s = state_arg(state), side_arg(seat_number(seat, "general"))
    over = state.phase == "over"
    own = state.bids[s]
    sealed: dict[str, Any] | None = None
    if state.phase == "bid" and own is not None:
        sealed = {"maneuver": own.maneuver, "stratagems": list(own.stratagems), "name": bid_name(own)}
        if own.rearguard is not None:
            sealed["rearguard"] = own.rearguard
    may = []
    if not over and state.phase == "bid" and own is None:
        may.append("bid")
    if can_counter_attack(state, s):
        may.append("counter_attack")
    if can_leave(state, s):
        may.append("leave")
    out: dict[str, Any] = {"side": s, "phase": state.phase, "week": state.week, "bid": sealed, "may": may}
    if advice_wanted:
        aim = "net" if advice_wanted is True else advice_wanted
        if not isinstance(aim, str) or aim not in AIMS:
            raise ArgumentError(f"There is no aim {brief_repr(aim)} (aims: {', '.join(AIMS)})")
        out["advice"] = None if over else _advice_json(advice(state, s, aim))
    return out


def seat_action(state: BattleState, seat: Seat, action: Mapping[str, Any]) -> dict[str, Any]:
    """HR-SEAT-1: ``action`` with the seat's side filled in when it is its general's own move
    — a bid (AI-7), a Counter Attack (AI-16), leaving (AI-15) — else :class:`SeatRefused`
    (AI-7: the other army's; HR-SEAT-1: the table's move)."""
    state, s = state_arg(state), side_arg(seat_number(seat, "general"))
    out = move_of(action)
    kind = out.get("type")
    tablet_only(kind, _TABLE)
    if kind in ("bid", "counter_attack", "leave"):
        own_field(out, "side", s, "AI-7", f"this phone moves only for {state.armies[s].name}: each general "
                                          "declares for their own army")
    return out
