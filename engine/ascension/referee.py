"""Ascension Isle battles: the referee (RULES.md AI-2, AI-3, AI-6, AI-7, AI-14 … AI-16, HR-AI-7).

:func:`normalize_action` is the one check of an action (:data:`ACTION_TYPES`), shared by
:func:`~engine.ascension.step`, the board and the link decoder: the canonical form, or the
:class:`~engine.game.ActionError` / :class:`~engine.game.RuleError` that refuses it. The
questions "may this be done?" have one shape: ``check_*`` refuses with the clause,
``can_*`` answers (:func:`check_stratagem` / :func:`can_use_stratagem`,
:func:`check_counter_attack` / :func:`can_counter_attack`, :func:`check_leave` /
:func:`can_leave`, :func:`check_change_armies` / :func:`can_change_armies`), and the step
does it.

Actions (plain JSON dicts, canonical form as :func:`normalize_action` returns it):

* ``{"type": "bid", "side": s, "maneuver": "attack", "stratagems": ["flanking"]}`` —
  a side's secret declaration for this week (AI-7, AI-16); a Withdraw also names its
  ``"rearguard"`` (a unit index, AI-2); an army the app plays adds its ``"why"``;
* ``{"type": "reveal"}`` — both bids are shown together;
* ``{"type": "counter_attack", "side": s}`` — after the reveal, a defender with
  Counter Attack switches to Attack (AI-16);
* ``{"type": "roll"}`` — the app rolls both armies' dice; or the table's own dice
  entered as facts: ``"dice": [[…], […]]`` (the faces) or ``"successes": [n, n]``,
  and optionally ``"ranges": [n | null, n | null]`` (the casualty range rolls,
  AI-12; ``null``: the app rolls it, or the cell has no range). Facts are taken only
  with the table's own dice (HR-AI-7) and in a spectator's copy: with the app's dice a
  roll that carries them is refused (issue 35);
* ``{"type": "leave", "side": s}`` — an army leaves the battle the week after its
  opponent skirmished (AI-15);
* ``{"type": "join", "side": s, "unit": unit}`` — a unit joins its army between
  weeks (reinforcements entering the hex);
* ``{"type": "correct", "side": s, "index": i, "unit": unit}`` — a unit's entry is
  corrected between weeks (a mistyped stat);
* ``{"type": "phase", "index": i}`` — ticks (or unticks) a step of the campaign turn
  (AI-18);
* ``{"type": "bid", "side": s, "sealed": true}`` — only in a spectator's copy: the
  side has declared, what is not shown (AI-7).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .. import referee
from ..game import ActionError, ArgumentError, RuleError, SetupError
from ..text import brief_repr, text_problem
from .rules import bid_pools, count_successes, counter_problem, stratagem_problem, success_setting
from .setup import MAX_UNITS, unit_json
from .tables import MANEUVERS, TURN_PHASES
from .values import DICE_TABLE, STRATAGEM_ORDER, BattleState, maneuver_arg, per_side, rules_arg, side_arg, state_arg
from .week import read_tables

ACTION_TYPES = ("bid", "reveal", "counter_attack", "roll", "leave", "join", "correct", "phase")
#: Every field an action may carry (for the hostile-caller tests).
ACTION_FIELDS = ("side", "maneuver", "stratagems", "rearguard", "sealed", "dice", "successes", "ranges", "unit",
                 "index", "why")

WHY_MAX = 240


def _side_field(action: Mapping[str, Any]) -> int:
    return referee.one_of(action.get("side"), "the side", (0, 1))


def _over(state: BattleState) -> None:
    if state.phase == "over":
        raise RuleError("AI-15", f"the battle is over: {state.outcome}")


def _norm_bid(state: BattleState, action: Mapping[str, Any]) -> dict[str, Any]:
    if "sealed" in action:
        referee.only(action, ("side", "sealed"))
        side = _side_field(action)
        if action["sealed"] is not True:
            raise ActionError("'sealed' is true (a spectator's copy) or left out")
        if not state.spectator:
            raise RuleError("AI-7", "a sealed bid belongs only in a spectator's copy; a bid names its maneuver")
    else:
        referee.only(action, ("side", "maneuver"), ("stratagems", "rearguard", "why"))
        side = _side_field(action)
    _over(state)
    if state.phase != "bid":
        raise RuleError("AI-7", "the bids are already revealed; roll first")
    if state.bids[side] is not None:
        raise RuleError("AI-7", f"{state.armies[side].name} has already declared this week")
    if "sealed" in action:
        return {"type": "bid", "side": side, "sealed": True}
    maneuver = referee.one_of(action.get("maneuver"), "the maneuver", MANEUVERS)
    raw = action.get("stratagems", [])
    if not isinstance(raw, (list, tuple)) or not all(isinstance(k, str) for k in raw):
        raise ActionError("The stratagems must be a list of names")
    if len(set(raw)) != len(raw):
        raise ActionError("A stratagem is declared at most once")
    for key in raw:
        problem = stratagem_problem(state, side, key, maneuver)
        if problem:
            raise RuleError(problem.split(":", 1)[0], problem.split(": ", 1)[1])
    keys = sorted(raw, key=STRATAGEM_ORDER.__getitem__)
    out: dict[str, Any] = {"type": "bid", "side": side, "maneuver": maneuver, "stratagems": keys}
    if maneuver == "withdraw":
        rear = action.get("rearguard", state.rearguards[side])
        units = state.armies[side].units
        rear = referee.whole(rear, "the rearguard (a unit number)", 0, len(units) - 1)
        if state.destroyed[side][rear]:
            raise RuleError("AI-2", f"the rearguard must be a unit still in the field ({units[rear].name} is "
                                    "destroyed)")
        out["rearguard"] = rear
    elif "rearguard" in action:
        raise RuleError("AI-2", "only a Withdraw names a rearguard")
    if "why" in action:
        if state.armies[side].level is None:
            raise ActionError("Only a bid of an army the app plays carries a 'why'")
        why = action["why"]
        if not isinstance(why, str) or not why.strip() or len(why) > WHY_MAX or text_problem(why):
            raise ActionError(f"The app's 'why' is one line of text of at most {WHY_MAX} characters")
        out["why"] = " ".join(why.split())
    return out


def _norm_roll(state: BattleState, action: Mapping[str, Any], rules: Mapping[str, Any]) -> dict[str, Any]:
    referee.only(action, (), ("dice", "successes", "ranges"))
    _over(state)
    if state.phase != "revealed":
        raise RuleError("AI-7", "both sides declare and reveal before the roll")
    settings = state.settings
    if settings.get("dice") != DICE_TABLE and not state.spectator and (
            "dice" in action or "successes" in action or "ranges" in action):
        # Issue 35: what the app's dice roll comes from the game's seed, never from a move or a link
        raise RuleError("HR-AI-7", "this battle is played with the app's dice: the app rolls them, so no move "
                                   "or link can say what they rolled (only a spectator's copy records them)")
    die, target = success_setting(settings)
    pools = bid_pools(state)
    names = [a.name for a in state.armies]
    out: dict[str, Any] = {"type": "roll"}
    if "dice" in action and "successes" in action:
        raise ActionError("Enter the dice or the successes, not both")
    successes: tuple[int, int] | None = None
    if "dice" in action:
        given = action["dice"]
        if not isinstance(given, (list, tuple)) or len(given) != 2:
            raise ActionError("The dice must be two lists, one per army")
        faces = []
        for s in (0, 1):
            values = given[s]
            if not isinstance(values, (list, tuple)) or len(values) != pools[s].dice:
                raise RuleError("AI-3", f"{names[s]} rolls {pools[s].dice} "
                                        f"di{'e' if pools[s].dice == 1 else 'ce'} this week")
            for value in values:
                referee.whole(value, f"each of {names[s]}'s dice", 1, die, rule="AI-6")
            faces.append([int(v) for v in values])
        out["dice"] = faces
        successes = (count_successes(faces[0], die, target), count_successes(faces[1], die, target))
    elif "successes" in action:
        given = action["successes"]
        if not isinstance(given, (list, tuple)) or len(given) != 2:
            raise ActionError("The successes must be two numbers, one per army")
        successes = per_side(lambda s: referee.whole(given[s], f"{names[s]}'s successes", 0, pools[s].dice,
                                                     rule="AI-6"))
        out["successes"] = list(successes)
    elif settings.get("dice") == DICE_TABLE:
        raise RuleError("HR-AI-7", "this battle is played with the table's own dice: enter each side's dice "
                                   "(or successes)")
    if "ranges" in action:
        if successes is None:
            raise ActionError("The casualty range rolls are entered with the dice (or successes) they follow")
        given = action["ranges"]
        if not isinstance(given, (list, tuple)) or len(given) != 2:
            raise ActionError("The range rolls must be two entries, one per army (null: none or the app's roll)")
        spans = read_tables(state, state.bids, state.switched, successes).ranges  # type: ignore[arg-type]  # revealed
        ranges: list[int | None] = []
        for s in (0, 1):
            value, span = given[s], spans[s]
            if value is None:
                ranges.append(None)
            elif span is None:
                if value == 0 and isinstance(value, int) and not isinstance(value, bool):
                    ranges.append(None)  # "0 casualties" where the cell inflicts none: nothing rolled
                else:
                    raise RuleError("AI-14", f"{names[s]}'s cell inflicts no casualties: it rolls nothing "
                                             f"(got {brief_repr(value)})")
            else:
                ranges.append(referee.whole(value, f"{names[s]}'s casualty roll", span[0], span[1], rule="AI-14"))
        if ranges != [None, None]:
            out["ranges"] = ranges
    return out


def _norm_unit(value: Any, state: BattleState, where: str) -> dict[str, Any]:
    try:
        return unit_json(value, where, state.old_rulings)
    except SetupError as err:
        text = str(err)
        if "AI-14:" in text:
            raise RuleError("AI-14", text.split("AI-14: ", 1)[1]) from None
        raise ActionError(text) from None


def _between_weeks(state: BattleState, what: str) -> None:
    _over(state)
    if state.phase != "bid" or state.bids != (None, None):
        raise RuleError("AI-7", f"{what} between weeks, before either side declares")


def _norm_join(state: BattleState, action: Mapping[str, Any]) -> dict[str, Any]:
    referee.only(action, ("side", "unit"))
    side = _side_field(action)
    _between_weeks(state, "units join")
    army = state.armies[side]
    if len(army.units) >= MAX_UNITS:
        raise ActionError(f"{army.name} has {MAX_UNITS} units, as many as an army can have here")
    unit = _norm_unit(action["unit"], state, f"{army.name}, the unit that joins")
    return {"type": "join", "side": side, "unit": unit}


def _norm_correct(state: BattleState, action: Mapping[str, Any]) -> dict[str, Any]:
    referee.only(action, ("side", "index", "unit"))
    side = _side_field(action)
    army = state.armies[side]
    index = referee.whole(action["index"], "the unit (a unit number)", 0, len(army.units) - 1)
    _between_weeks(state, "units are corrected")
    old = army.units[index]
    if state.destroyed[side][index]:
        raise RuleError("AI-14", f"{old.name} is destroyed: a destroyed unit is not corrected")
    unit = _norm_unit(action["unit"], state, f"{army.name}, unit {index + 1}")
    if unit == old.as_json():
        raise ActionError(f"{old.name}: nothing to correct (the entry is the same)")
    damage = state.damage[side][index]
    if damage and unit["size"] <= damage:
        raise RuleError("AI-14", f"{old.name} has taken {damage} casualties: its size must be more than {damage}")
    return {"type": "correct", "side": side, "index": index, "unit": unit}


def normalize_action(state: BattleState, action: Mapping[str, Any],
                     rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The canonical form of ``action`` in ``state`` (the module docstring lists
    the actions), or the :class:`~engine.game.ActionError` (not well formed: unknown type
    or field, wrong type, number out of range) or :class:`~engine.game.RuleError`
    (the rules forbid it, citing the clause) that refuses it. :func:`~engine.ascension.step` refuses
    exactly the same actions (it starts here).

    Canonical: a bid always lists its ``stratagems`` (in the table's order, each
    once) and a Withdraw its ``rearguard`` (AI-2; the army's current one when not
    named); a roll keeps entered ``dice`` or ``successes`` and only the ``ranges``
    that were entered (each in its cell's range, AI-14; a cell without a range
    rolls nothing); a unit that joins or is corrected is a canonical unit (AI-1,
    AI-14).
    """
    state = state_arg(state)
    kind = referee.action_type(action, ACTION_TYPES)
    if kind == "bid":
        return _norm_bid(state, action)
    if kind == "reveal":
        referee.only(action)
        _over(state)
        if state.phase != "bid":
            raise RuleError("AI-7", "the bids are already revealed")
        waiting = [state.armies[s].name for s in (0, 1) if state.bids[s] is None]
        if waiting:
            raise RuleError("AI-7", f"both sides declare before the reveal (waiting for {' and '.join(waiting)})")
        if any(b is not None and b.sealed for b in state.bids):
            raise RuleError("AI-7", "a spectator's copy does not reveal a sealed bid")
        return {"type": "reveal"}
    if kind in ("counter_attack", "leave"):  # a side's move: AI-16's switch, or leaving the battle
        referee.only(action, ("side",))
        side = _side_field(action)
        (check_counter_attack if kind == "counter_attack" else check_leave)(state, side)
        return {"type": kind, "side": side}
    if kind == "roll":
        return _norm_roll(state, action, rules_arg(rules))
    if kind == "join":
        return _norm_join(state, action)
    if kind == "correct":
        return _norm_correct(state, action)
    referee.only(action, ("index",))
    index = referee.whole(action["index"], "the turn phase", 0, len(TURN_PHASES) - 1)
    return {"type": "phase", "index": index}


# ---------------------------------------------------------------------------
# May this be done? (check_* refuses with the clause, can_* answers)


def _answers(check: Callable[..., None], *args: Any) -> bool:
    """``check``'s question answered: ``False`` where it refuses with a RuleError (an argument
    it cannot use is still refused, with :class:`~engine.game.ArgumentError`)."""
    try:
        check(*args)
    except RuleError:
        return False
    return True


def check_stratagem(state: BattleState, side: int, key: str, maneuver: str) -> None:
    """AI-16: refuses (:class:`~engine.game.RuleError`, citing the clause: "AI-16: Flanking
    needs a skilled general …", "HR-AI-5: …") a stratagem ``key`` that ``side`` may not
    declare with ``maneuver`` — the refusal a bid that names it gets."""
    state, side, maneuver = state_arg(state), side_arg(side), maneuver_arg(maneuver)
    if not isinstance(key, str):
        raise ArgumentError(f"A stratagem is named by its key, such as 'flanking' (got {brief_repr(key)})")
    problem = stratagem_problem(state, side, key, maneuver)
    if problem:
        raise RuleError(problem.split(":", 1)[0], problem.split(": ", 1)[1])


def can_use_stratagem(state: BattleState, side: int, key: str, maneuver: str) -> bool:
    """AI-16: may ``side`` declare stratagem ``key`` with ``maneuver`` (see :func:`check_stratagem`)?"""
    return _answers(check_stratagem, state, side, key, maneuver)


def check_counter_attack(state: BattleState, side: int) -> None:
    """AI-16: refuses (:class:`~engine.game.RuleError`) a switch of ``side`` to Attack now,
    unless the bids are revealed, it declared Counter Attack with Defend and has not
    switched yet, the enemy declared Attack or Shock Attack and no Feint cancels it."""
    state, side = state_arg(state), side_arg(side)
    _over(state)
    if state.phase != "revealed":
        raise RuleError("AI-16", "Counter Attack switches to Attack after the reveal")
    if state.switched[side]:
        raise RuleError("AI-16", f"{state.armies[side].name} has already switched to Attack")
    problem = counter_problem(state, side, state.bids)  # type: ignore[arg-type]  # revealed: both bids are in
    if problem:
        raise RuleError("AI-16", problem.split(": ", 1)[1])


def can_counter_attack(state: BattleState, side: int) -> bool:
    """AI-16: may ``side`` switch to Attack now (see :func:`check_counter_attack`)?"""
    return _answers(check_counter_attack, state, side)


def check_leave(state: BattleState, side: int) -> None:
    """AI-15: refuses (:class:`~engine.game.RuleError`) ``side`` leaving the battle, unless it is
    the week after its opponent skirmished and neither side has declared yet."""
    state, side = state_arg(state), side_arg(side)
    _over(state)
    if not (state.phase == "bid" and state.weeks and state.bids == (None, None)
            and state.weeks[-1].maneuvers[1 - side] == "skirmish"):
        raise RuleError("AI-15", "an army may leave only by a successful Withdraw, or the week after its "
                                 "opponent skirmished (before either side declares)")


def can_leave(state: BattleState, side: int) -> bool:
    """AI-15: may ``side`` leave the battle now (see :func:`check_leave`)?"""
    return _answers(check_leave, state, side)


def check_change_armies(state: BattleState) -> None:
    """AI-7: refuses (:class:`~engine.game.RuleError`) a unit joining or being corrected now:
    that is done between weeks, before either side declares."""
    _between_weeks(state_arg(state), "units join or are corrected")


def can_change_armies(state: BattleState) -> bool:
    """May units join or be corrected now (see :func:`check_change_armies`)?"""
    return _answers(check_change_armies, state)
