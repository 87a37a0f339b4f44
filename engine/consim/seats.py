"""CONSIM at a table of phones (issue 32): each player character is a seat,
``"combatant-I"`` (CS-1; the Observer — game master — keeps the tablet, with the
non-player combatants and their privacy). A seat sees the players' view (the spectator
copy: the Observer's hidden combatants as placeholders) and whether its own combatant
acts now (CS-5) with its cards; it takes its own combatant's turn — a shot, a long action,
done (CS-5, CS-7 … CS-11) — and asks for its own treatment or first aid (CS-13). The deal,
the end of a round and the privacy switch are the Observer's, on the tablet (HR-SEAT-1).

A refusal never tells a phone what the Observer hides: another combatant's turn is
refused without naming who acts, and a shot at a hidden combatant the rules refuse is
refused without saying why (the Observer says it at the table).

A phone knows the table only by its spectator copy, whose roster may differ from the
Observer's (HR-CS-8: each side's hidden combatants are one line): a seat is told its own
line in the copy (``"at"``) and, on its turn, the combatants it may fire at by their lines
in the copy (``"targets"``: only those in the players' sight, never a hidden one); a shot
it sends names them by those lines (``"lines": [2]`` in place of ``"targets"``), and
:func:`seat_action` reads them back as the Observer's combatants.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..game import ActionError, Game, RuleError, replay
from ..seats import Seat, SeatRefused, move_of, own_field, seat_number, tablet_only
from .public import _copy_roster
from .referee import can_first_aid, can_treat, normalize_action
from .rules import current_index, kept_hidden
from .values import DICE_TABLE, Condition, ConsimState, index_arg, state_arg

_TABLE = {"deal": "the Observer deals on the tablet (CS-2)",
          "end_round": "the Observer ends the round on the tablet (CS-12)",
          "privacy": "the Observer's privacy is set on the tablet (CS-1)"}
_ASK_OBSERVER = "the Observer decides about their hidden combatants: this move is not taken (ask the Observer)"
_OWN = {"shoot": "shooter", "long": "combatant", "treat": "combatant", "first_aid": "combatant"}


def seats(game: Game) -> tuple[Seat, ...]:
    """CS-1: a seat for each player character, in roster order (the Observer's seat is the tablet)."""
    state = replay(game, 0)
    return tuple(Seat(f"combatant-{i}", f"{c.name} ({state.sides[c.side]})")
                 for i, c in enumerate(state.combatants) if c.player)


def _acting(state: ConsimState) -> int | None:
    cur = current_index(state)
    return None if cur is None else state.turns[cur].combatant


def _lines(state: ConsimState) -> tuple[dict[int, int], set[int]]:
    """Each combatant's line in the spectator copy (:func:`~engine.consim.public.public_game`'s
    roster, HR-CS-8), and the combatants the Observer keeps hidden now."""
    hidden = {i for i in range(len(state.combatants)) if kept_hidden(state, i)}
    pos, _, _ = _copy_roster([{"side": c.side} for c in state.combatants], frozenset(hidden), state.count_hidden)
    return pos, hidden


def seat_private(state: ConsimState, seat: Seat, advice: Any = False) -> dict[str, Any]:
    """What the player of ``seat`` is told beyond the players' view: which combatant is
    theirs (its line in the copy, ``"at"``), whether it acts now (CS-5), its cards still to
    act on this round, what it may ask for now, and on its turn the combatants in the
    players' sight it may fire at (CS-8, CS-9: alive, by their lines in the copy; ``"foe"``:
    of another side) and whether the shot's dice are the table's own (HR-CS-7)."""
    state = state_arg(state)
    i = index_arg(state, seat_number(seat, "combatant"))
    pos, hidden = _lines(state)
    acting = state.phase == "round" and _acting(state) == i
    cards = [t.card.token for t in state.turns if t.combatant == i and not t.done] if state.phase == "round" else []
    may = (["shoot", "long", "next"] if acting else []) + (["treat"] if can_treat(state, i) else []) + (
        ["first_aid"] if can_first_aid(state, i) else [])
    side = state.combatants[i].side
    targets = [{"at": pos[j], "name": c.name, "foe": c.side != side} for j, c in enumerate(state.combatants)
               if acting and j != i and j not in hidden and state.statuses[j].condition is not Condition.DEAD]
    return {"combatant": i, "at": pos[i], "phase": state.phase, "round": state.round, "acting": acting,
            "cards": cards, "may": may, "targets": targets, "own_dice": state.settings.get("dice") == DICE_TABLE}


def _real_targets(state: ConsimState, targets: Any) -> Any:
    """A phone's shot names its targets by their lines in the spectator copy: the Observer's
    combatants they are (a line of hidden combatants that are not counted names none of them:
    the Observer decides, HR-CS-8). Anything but a list of whole numbers goes on to the referee."""
    if not isinstance(targets, list) or not all(isinstance(t, int) and not isinstance(t, bool) for t in targets):
        return targets
    pos, hidden = _lines(state)
    by_line: dict[int, list[int]] = {}
    for j, line in pos.items():
        by_line.setdefault(line, []).append(j)
    out = []
    for t in targets:
        found = by_line.get(t, [])
        if len(found) != 1:
            raise SeatRefused("HR-SEAT-3" if not found else "HR-CS-8",
                              "no such combatant is at this table" if not found else _ASK_OBSERVER)
        out.append(found[0])
    return out


def _hidden_names(state: ConsimState) -> set[str]:
    return {state.combatants[i].name for i in range(len(state.combatants)) if kept_hidden(state, i)}


def seat_action(state: ConsimState, seat: Seat, action: Mapping[str, Any]) -> dict[str, Any]:
    """HR-SEAT-1: ``action`` with the seat's combatant filled in when it is its own move —
    on its own turn a shot, a long action or "done" (CS-5); its own treatment or first aid
    (CS-13); a shot's ``"lines"`` (its targets by their lines in the spectator copy) read back — else
    :class:`SeatRefused` (CS-5: not its turn; HR-SEAT-1: the Observer's)."""
    state = state_arg(state)
    i = index_arg(state, seat_number(seat, "combatant"))
    name = state.combatants[i].name
    out = move_of(action)
    kind = out.get("type")
    tablet_only(kind, _TABLE)
    key = _OWN.get(kind) if isinstance(kind, str) else None
    if key is not None:
        own_field(out, key, i, "CS-5", f"this phone acts only for {name}")
    if kind in ("shoot", "long", "next") and (state.phase != "round" or _acting(state) != i):
        raise SeatRefused("CS-5", f"only the current actor acts, and it is not {name}'s turn now")
    if kind == "shoot" and "lines" in out:  # the phone's targets, by their lines in its copy
        if "targets" in out:
            raise SeatRefused("HR-SEAT-3", "a shot names its targets once")
        out["targets"] = _real_targets(state, out.pop("lines"))
    try:
        normalize_action(state, out)
    except (RuleError, ActionError) as err:
        hidden = _hidden_names(state)
        text = err.message if isinstance(err, RuleError) else str(err)
        rule = err.rule_id if isinstance(err, RuleError) else "HR-SEAT-3"
        if any(n in text for n in hidden):
            raise SeatRefused(rule, _ASK_OBSERVER) from None
        raise
    return out
