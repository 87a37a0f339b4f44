"""The campaign at a table of phones (issue 32): each player but the dummy is a seat,
``"player-P"`` (CMP-1; the dummy's cards stay hidden from everyone, CMP-9). A seat sees
its own cards — hand and stake — its best hand and its private treaty odds (CMP-7,
CMP-8), as the tablet's private screen shows them; it takes its own spoils when it won
the battle (CMP-4) and, with the players' own deck, lays down its own hand at the
negotiating table (CMP-7). Recording a battle, the roll and the table are the tablet's
(HR-SEAT-1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..game import Game, replay
from ..seats import Seat, SeatRefused, move_of, own_field, seat_number, tablet_only
from .poker import best_hand
from .public import treaty_chances
from .referee import spoils_choices
from .values import CampaignState, hand_order, player_arg, state_arg

_TABLE = {"battle": "the battle is recorded on the tablet (CMP-3)",
          "roll": "the exhaustion roll is made on the tablet (CMP-6)",
          "negotiate": "the negotiating table is called on the tablet (CMP-7)",
          "deal": "the pool is entered on the tablet (CMP-1)",
          "stakes": "the stakes are entered on the tablet (CMP-2)",
          "refill": "the new pool card is entered on the tablet (CMP-4)"}


def seats(game: Game) -> tuple[Seat, ...]:
    """CMP-1/CMP-9: a seat for each player (the dummy is the app's: no seat)."""
    state = replay(game, 0)
    return tuple(Seat(f"player-{p}", state.players[p]) for p in (0, 1) if not (state.dummy and p == 1))


def seat_private(state: CampaignState, seat: Seat, advice: Any = False) -> dict[str, Any]:
    """What the player in ``seat`` alone sees: own cards (hand and stake, in hand order;
    ``None`` with the players' own deck: the app never knows them), the stake, the best
    hand when it has five cards (CMP-7, CMP-8), the exact chance of each hand if the
    table came now (CMP-7, CMP-8: over the cards this player has not seen), and the spoils
    it may take when it won (CMP-4)."""
    state, p = state_arg(state), player_arg(seat_number(seat, "player"))
    known = state.hands_known
    own = hand_order(state.cards_of(p)) if known else ()
    best = best_hand(own) if len(own) >= 5 else None
    stake = state.stakes[p]
    choices = spoils_choices(state)
    spoils = None
    if choices and choices["winner"] == p:
        spoils = {"stake": str(choices["stake"]) if choices["stake"] is not None else None,
                  "pool": [str(c) for c in choices["pool"]], "both": choices["both"],
                  "decisive": choices["decisive"]}
    may = (["take"] if spoils is not None else []) + (
        ["lay"] if state.table_deck and state.phase == "exhausted" and len(state.laid) == p else [])
    return {
        "player": p, "phase": state.phase,
        "cards": [str(c) for c in own] if known else None,
        "stake": str(stake) if known and stake is not None else None,
        "best": None if best is None else {"name": str(best), "cards": [str(c) for c in best.cards]},
        "odds": [{"hand": name, "chance": float(chance)} for name, chance in treaty_chances(state, p).items()]
        if known and best is None else [],
        "spoils": spoils,
        "may": may,
    }


def seat_action(state: CampaignState, seat: Seat, action: Mapping[str, Any]) -> dict[str, Any]:
    """HR-SEAT-1: ``action`` when it is the seat's own move — the spoils of a battle it won
    (CMP-4), its own hand laid down (CMP-7, the players' own deck) — else
    :class:`SeatRefused` (CMP-4 / CMP-7: another player's; HR-SEAT-1: the table's move)."""
    state, p = state_arg(state), player_arg(seat_number(seat, "player"))
    out = move_of(action)
    kind = out.get("type")
    tablet_only(kind, _TABLE)
    if kind == "take" and state.phase == "spoils" and state.pending is not None and state.pending[0] != p:
        raise SeatRefused("CMP-4", f"the winner takes the spoils: {state.name(state.pending[0])}, "
                                   f"not {state.name(p)}")
    if kind == "lay":
        own_field(out, "player", p, "CMP-7", f"this phone lays down only {state.name(p)}'s own hand")
    return out
