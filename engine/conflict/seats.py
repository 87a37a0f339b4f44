"""Organizations In Conflict at a table of phones (issue 32): every player of a side people
play is a seat, ``"side-S/player-P"`` (OIC-2, OIC-14: each player has own ratings and
hand). A seat sees its own hand and the cards it may play now; it plays its own cards,
discards from its own hand and passes for its side when the side is to play (the team
takes one turn together, OIC-14). Starting the next round and ending the conflict are
the table's, on the tablet (HR-SEAT-1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import Card
from ..game import Game, replay
from ..seats import Seat, move_of, own_field, seat_number, tablet_only
from .referee import can_pass, legal_plays
from .rules import player_max_sizes
from .values import ConflictState, checked_player, checked_state

_TABLE = {"next_round": "the next round is started on the tablet (OIC-17)",
          "call": "the table ends the conflict on the tablet (OIC-19)"}


def _order(card: Card) -> tuple[int, int]:
    return card.sort_key


def seats(game: Game) -> tuple[Seat, ...]:
    """OIC-2/OIC-14: a seat for each player of each side people play (a side the app plays
    has no seat: its hands stay with the app), side by side."""
    state = replay(game, 0)
    out = []
    for s, side in enumerate(state.sides):
        if state.levels[s] is not None:
            continue
        for p, player in enumerate(side.players):
            label = side.name if len(side.players) == 1 else f"{player.name} ({side.name})"
            out.append(Seat(f"side-{s}/player-{p}", label))
    return tuple(out)


def _place(state: ConflictState, seat: Seat) -> tuple[int, int]:
    """The side and player of ``seat`` in ``state`` (:class:`ArgumentError` / ActionError
    for anything else)."""
    checked_state(state)
    s, p = seat_number(seat, "side"), seat_number(seat, "player")
    checked_player(state, s, p)
    return s, p


def seat_private(state: ConflictState, seat: Seat, advice: Any = False) -> dict[str, Any]:
    """What the player in ``seat`` alone sees: the phase, the player's own hand (app deck;
    ``None`` with real cards), whether it has discarded this round (OIC-8), its max card
    size per suit (OIC-5, OIC-14), whether its side is to play (OIC-11), the cards of its
    own it may play now (OIC-5, OIC-10, OIC-11, OIC-13) and whether the side may pass."""
    s, p = _place(state, seat)
    app = state.deck_mode == "app"
    turn = state.phase == "play" and state.turn == s
    playable = sorted({card for pl, card in legal_plays(state) if pl == p}, key=_order) if turn else []
    return {
        "side": s, "player": p, "phase": state.phase, "round": state.round,
        "hand": [str(c) for c in sorted(state.hands[s][p], key=_order)] if app else None,
        "discarded": bool(state.discarded[s][p]) if app else None,
        "may_discard": app and state.phase == "discard" and not state.discarded[s][p],
        "max_sizes": {suit.value: size for suit, size in player_max_sizes(state, s, p).items()},
        "to_play": turn,
        "playable": [str(c) for c in playable],
        "may_pass": turn and can_pass(state, s),
    }


def _same(action: dict[str, Any], key: str, own: int, what: str) -> None:
    own_field(action, key, own, "OIC-14", f"this phone {what} (each player has own hand)")


def seat_action(state: ConflictState, seat: Seat, action: Mapping[str, Any]) -> dict[str, Any]:
    """HR-SEAT-1: ``action`` with the seat's side and player filled in when it is the seat's
    own move — a discard from its own hand, a card of its own, its side's pass — else
    :class:`SeatRefused` (OIC-14: another player's hand; HR-SEAT-1: the table's move)."""
    s, p = _place(state, seat)
    out = move_of(action)
    kind = out.get("type")
    tablet_only(kind, _TABLE)
    if kind in ("discard", "play"):
        _same(out, "side", s, f"plays for {state.sides[s].name} only")
        _same(out, "player", p, f"plays and discards only {seat.label}'s own cards")
    elif kind == "pass":
        _same(out, "side", s, f"passes for {state.sides[s].name} only")
    return out
