"""Ascension Isle battles: the steps of a game (RULES.md AI-7, AI-12, AI-14, AI-15, AI-18).

The session protocol of :mod:`engine.game` over an immutable
:class:`~engine.ascension.BattleState`: :func:`start` (week 1, both sides to declare),
:func:`step` (every action, checked by the referee first; a roll is resolved by
:func:`~engine.ascension.resolve`), :func:`describe` (the history's labels, never a
hidden bid), :func:`status` and :func:`standing` (where the battle stands),
:func:`undo_warning` (the AI-7 ruling: undoing past a reveal is asked first),
:func:`equipment` (HR-AI-7: whose dice) and :func:`replay_work` (issue 30).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from ..game import ActionError, ArgumentError, Game, freeze, replaced
from ..referee import index_in, listed_count
from ..rules import resolve_rules
from ..text import brief_repr
from .referee import normalize_action
from .rules import VARIANT_BY_KEY, VARIANTS, bid_pools, count_successes, success_setting
from .setup import MAX_UNITS, make_army, make_unit, normalize_setup
from .tables import TURN_PHASES
from .values import KIND, BattleState, Bid, Rolls, Unit, int_arg, per_side, rules_arg, state_arg
from .week import line_notes, line_up, read_tables, resolve


def equipment(setup: Mapping[str, Any], rules: Mapping[str, Any] | None = None) -> str:
    """HR-AI-7: whose dice, in players' words."""
    return VARIANT_BY_KEY["dice"].sentence(resolve_rules(VARIANTS, rules_arg(rules))["dice"])


def start(setup: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
          rng: random.Random | None = None) -> BattleState:
    """Week 1, both sides to declare."""
    setup = normalize_setup(setup)
    armies = per_side(lambda s: make_army(setup["armies"][s]))
    rules = dict(resolve_rules(VARIANTS, rules_arg(rules)))
    return BattleState(
        armies=armies,
        damage=per_side(lambda s: tuple(0 for _ in armies[s].units)),
        destroyed=per_side(lambda s: tuple(False for _ in armies[s].units)),
        vanguards=(armies[0].vanguard, armies[1].vanguard),
        rearguards=(armies[0].rearguard, armies[1].rearguard),
        week=1, phase="bid", bids=(None, None), switched=(False, False), weeks=(), phases_done=(),
        rules=tuple(sorted((key, freeze(value)) for key, value in rules.items())),  # house tables frozen
        spectator=bool(setup.get("spectator")),
        old_rulings=bool(setup.get("old_rulings")), policy=setup.get("policy", 1))


def step(state: BattleState, action: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
         rng: random.Random | None = None) -> BattleState:
    """The state after ``action`` (:mod:`.referee` lists them). Never mutates ``state``.

    Refuses exactly what :func:`normalize_action` refuses; a roll is resolved by
    :func:`~engine.ascension.resolve`.
    """
    if rng is not None and not isinstance(rng, random.Random):
        raise ArgumentError("rng must be the game's random.Random")
    action = normalize_action(state, action, rules)
    kind = action["type"]
    if kind in ("bid", "reveal", "counter_attack", "phase"):
        return _same_armies(state, _step_bids(state, action, kind))
    return _step_armies(state, action, kind, rng)


def _same_armies(old: BattleState, new: BattleState) -> BattleState:
    """``new`` (the same armies, units and losses as ``old``) keeps ``old``'s remembered pools."""
    memo = old.__dict__.get("_pools")
    if memo is not None:
        new.__dict__["_pools"] = memo
    return new


def _step_bids(state: BattleState, action: Mapping[str, Any], kind: str) -> BattleState:
    """A step that changes the bids, the reveal or the ticked phases, never the armies."""
    if kind == "bid":
        side = action["side"]
        bid = Bid("", (), None, True) if action.get("sealed") else \
            Bid(action["maneuver"], tuple(action["stratagems"]), action.get("rearguard"))
        return replace(state, bids=replaced(state.bids, side, bid), whys=replaced(state.whys, side, action.get("why", "")))
    if kind == "reveal":
        return replace(state, phase="revealed")
    if kind == "counter_attack":
        return replace(state, switched=replaced(state.switched, action["side"], True))
    done = set(state.phases_done) ^ {action["index"]}
    return replace(state, phases_done=tuple(sorted(done)))


def _step_armies(state: BattleState, action: Mapping[str, Any], kind: str,
                 rng: random.Random | None) -> BattleState:
    """A step that may change the armies: the roll, a unit joining or corrected, leaving."""
    if kind == "roll":
        return _after_roll(state, action, rng)
    if kind == "leave":
        name = state.armies[action["side"]].name
        return replace(state, phase="over", outcome=f"AI-15: {name} leaves the battle (its opponent skirmished)",
                       how=f"{name} left the battle")
    if kind == "join":
        side = action["side"]
        unit = make_unit(action["unit"])
        army = state.armies[side]
        return _change_armies(state, side, army.units + (unit,), state.damage[side] + (0,),
                              state.destroyed[side] + (False,), f"{unit.name} joins {army.name}")
    if kind == "correct":
        side, index = action["side"], action["index"]
        army = state.armies[side]
        unit = make_unit(action["unit"])
        damage = state.damage[side]
        if not unit.size:
            damage = replaced(damage, index, 0)  # only size carries damage (AI-14)
        text = f"{army.name}: {army.units[index].name} corrected ({_describe_change(army.units[index], unit)})"
        return _change_armies(state, side, replaced(army.units, index, unit), damage, state.destroyed[side], text)
    raise ActionError(f"Unknown battle action: {brief_repr(kind)}")  # normalize_action let through a type step forgot


def _after_roll(state: BattleState, action: Mapping[str, Any], rng: random.Random | None) -> BattleState:
    settings = state.settings
    die, target = success_setting(settings)
    bids: tuple[Bid, Bid] = state.bids  # type: ignore[assignment]  # the roll follows the reveal of both
    pools = bid_pools(state)
    dice: tuple[tuple[int, ...], tuple[int, ...]] | None
    if "dice" in action:
        dice = (tuple(action["dice"][0]), tuple(action["dice"][1]))
    elif "successes" in action:
        dice = None
    else:
        if rng is None:
            raise ArgumentError("step needs the game's random generator to roll")
        dice = per_side(lambda s: tuple(rng.randint(1, die) for _ in range(pools[s].dice)))
    if dice is not None:
        successes = (count_successes(dice[0], die, target), count_successes(dice[1], die, target))
    else:
        successes = (action["successes"][0], action["successes"][1])
    spans = read_tables(state, bids, state.switched, successes).ranges
    given = action.get("ranges") or (None, None)
    ranges: list[int | None] = []
    for s in (0, 1):
        span = spans[s]
        if span is None or span[0] == span[1]:
            ranges.append(given[s] if span is not None else None)
        elif given[s] is not None:
            ranges.append(given[s])
        else:  # AI-12: a range is rolled uniformly
            if rng is None:
                raise ArgumentError("step needs the game's random generator to roll")
            ranges.append(rng.randint(span[0], span[1]))
    result = resolve(state, bids, Rolls(successes, (ranges[0], ranges[1]), dice), state.switched)
    result = replace(result, whys=state.whys)
    new = replace(state, damage=result.damage, destroyed=result.destroyed, vanguards=result.vanguards,
                  rearguards=result.rearguards, weeks=state.weeks + (result,), bids=(None, None),
                  switched=(False, False), whys=("", ""))
    if result.ended:
        return replace(new, phase="over", outcome=result.ended, how=result.how)
    return replace(new, phase="bid", week=state.week + 1, phases_done=())


def _change_armies(state: BattleState, side: int, units: tuple[Unit, ...], damage: tuple[int, ...],
                   destroyed: tuple[bool, ...], text: str) -> BattleState:
    army = replace(state.armies[side], units=units)
    armies = replaced(state.armies, side, army)
    new = replace(state, armies=armies, damage=replaced(state.damage, side, damage),
                  destroyed=replaced(state.destroyed, side, destroyed))
    vanguard, rearguard = line_up(army, destroyed, state.vanguards[side], state.rearguards[side])
    notes = line_notes(new, side, (state.vanguards[side], state.rearguards[side]), (vanguard, rearguard), destroyed)
    return replace(new, vanguards=replaced(state.vanguards, side, vanguard),
                   rearguards=replaced(state.rearguards, side, rearguard),
                   changes=state.changes + ((state.week, "; ".join([text] + notes)),))


def _describe_change(old: Unit, new: Unit) -> str:
    parts = []
    if old.name != new.name:
        parts.append(f"name {old.name} → {new.name}")
    for key in ("attack", "defense", "mobility", "armour", "size"):
        if getattr(old, key) != getattr(new, key):
            parts.append(f"{key} {getattr(old, key)} → {getattr(new, key)}")
    if old.traits != new.traits:
        parts.append(f"traits {', '.join(old.traits) or 'none'} → {', '.join(new.traits) or 'none'}")
    return "; ".join(parts)


#: The history labels that say only who did it (a bid's never names its maneuver, AI-7).
_LABELS = {"bid": "{name} declares in secret", "reveal": "both bids revealed",
           "counter_attack": "{name} counter-attacks (AI-16)", "leave": "{name} leaves the battle"}


def describe(state: BattleState, action: Mapping[str, Any]) -> str:
    """A short history label. A bid's label never names its maneuver (AI-7): the history is
    on screen while the other side declares."""
    state = state_arg(state)
    if not isinstance(action, Mapping):
        return "Unknown action"
    kind = action.get("type")
    prefix = f"Week {state.week} · "
    side = index_in(action.get("side"), state.armies)
    army = state.armies[side] if side is not None else None
    name = army.name if army is not None else "?"
    if isinstance(kind, str) and kind in _LABELS:
        return prefix + _LABELS[kind].format(name=name)
    if kind == "roll":
        entered = "dice" in action or "successes" in action
        label = f"{prefix}{'dice entered' if entered else 'roll'}"
        return label + (" (kept as played before the AI-19 ruling)" if state.old_rulings else "")
    if kind == "join":
        unit = action.get("unit")
        uname = unit.get("name") if isinstance(unit, Mapping) and isinstance(unit.get("name"), str) else "a unit"
        return f"{prefix}{uname} joins {name}"
    if kind == "correct":
        units = army.units if army is not None else ()
        index = index_in(action.get("index"), units)
        uname = units[index].name if index is not None else "a unit"
        return f"{prefix}{name}: {uname} corrected"
    if kind == "phase":
        index = index_in(action.get("index"), TURN_PHASES)
        return f"{prefix}turn phase: {TURN_PHASES[index] if index is not None else '?'}"
    return "Unknown action"


def status(state: BattleState) -> str:
    """What the table waits for, in one sentence (true for a spectator's copy too)."""
    state = state_arg(state)
    names = [a.name for a in state.armies]
    if state.phase == "over":
        return state.outcome
    if state.phase == "revealed":
        if state.spectator:
            return f"Week {state.week}: both bids are revealed; waiting for the roll"
        return f"Week {state.week}: bids revealed — roll the dice (AI-8)"
    declared = [names[s] for s in (0, 1) if state.bids[s] is not None]
    waiting = [names[s] for s in (0, 1) if state.bids[s] is None]
    if not waiting:
        return f"Week {state.week}: both armies have declared; waiting for the reveal (AI-7)"
    if state.spectator:
        if declared:
            return f"Week {state.week}: {declared[0]} has declared; waiting for {waiting[0]} (AI-7)"
        return f"Week {state.week}: waiting for the bids (AI-7)"
    return f"Week {state.week}: waiting for {' and '.join(waiting)} to declare (AI-7)"


def standing(state: BattleState) -> str:
    """Where the battle stands in a few words, for the list of saves: "Week 3 · Jibril 3rd
    Corps 4 units, Zone Army 2"; when it is over, how it ended ("Over in week 4 · Zone Army
    fell back")."""
    state = state_arg(state)
    if state.phase == "over":
        week = state.weeks[-1].week if state.weeks else state.week
        return f"Over in week {week} · {state.how or state.outcome}"
    counts = [len(state.alive(s)) for s in (0, 1)]
    first = f"{state.armies[0].name} {counts[0]} unit{'s' if counts[0] != 1 else ''}"
    return f"Week {state.week} · {first}, {state.armies[1].name} {counts[1]}"


def undo_warning(game: Game, position: int) -> str | None:
    """AI-7 ruling: what the table must hear before going back to ``position``: undoing past
    a reveal lets a side bid again knowing the other's choice, so both generals are asked
    first; undoing a sealed bid not yet revealed takes back an army's secret choice, which
    only that army's general should do, so the table is asked first and told whose (issue 34).
    ``None`` when nothing revealed or sealed would be undone."""
    if not isinstance(game, Game) or game.kind != KIND:
        raise ArgumentError(f"Not a battle game: {type(game).__name__}")
    position = int_arg(position, "The history position", 0, len(game.actions))
    if position >= game.position:
        return None
    weeks = []
    week = 1
    sealed: list[tuple[int, int]] = []  # (index, side) of this week's bids not yet revealed
    for index, action in enumerate(game.actions[: game.position]):
        kind = action.get("type") if isinstance(action, Mapping) else None
        side = action.get("side") if isinstance(action, Mapping) else None
        if kind == "bid" and side in (0, 1) and not isinstance(side, bool):
            sealed.append((index, side))
        if kind == "reveal":
            sealed = []
            if index >= position:
                weeks.append(week)
        if kind == "roll":
            week += 1
    undone = sorted({side for index, side in sealed if index >= position})
    parts = []
    if weeks:
        which = f"week {weeks[0]}" if len(weeks) == 1 else "weeks " + ", ".join(map(str, weeks))
        parts.append(f"Both bids of {which} were seen (AI-7). Undoing lets a side bid again knowing the "
                     "other's choice.")
    if undone:
        names = [_army_name(game, side) for side in undone]
        if len(names) == 1:
            parts.append(f"Undoing takes back {names[0]}'s sealed bid, not yet revealed (AI-7): only "
                         f"{names[0]}'s general should.")
        else:
            parts.append(f"Undoing takes back the sealed bids of {names[0]} and {names[1]}, not yet revealed "
                         "(AI-7): only their own generals should.")
    return " ".join(parts) + " Undo anyway?" if parts else None


def _army_name(game: Game, side: int) -> str:
    """The name of army ``side`` as the setup gives it (the setup is normalized: a name each)."""
    armies: Any = game.setup.get("armies") if isinstance(game.setup, Mapping) else None
    try:
        name = armies[side]["name"]
    except (TypeError, IndexError, KeyError):
        name = None
    return name if isinstance(name, str) and name else f"Army {side + 1}"


def replay_work(setup: Mapping[str, Any], actions: Iterable[Any]) -> int:
    """Issue 30: the work of replaying ``actions`` (see :func:`engine.game.replay_work`): a
    week's pools, dice and losses cost in proportion to the units on the field, so each
    action counts 160 plus 0.8 a unit (units that join count from then on). Measured with
    the largest legal battles (tests/maxgames.py, ``make bench``); it never looks at more
    than the setup's armies and the actions' types."""
    if isinstance(actions, (str, bytes, Mapping)) or not isinstance(actions, Iterable):
        raise ArgumentError(f"The actions must be a list of actions (got {brief_repr(actions)})")
    units = min(listed_count(setup, "armies", "units"), 2 * MAX_UNITS)
    work = 0
    for action in actions:
        if isinstance(action, Mapping) and action.get("type") == "join":
            units = min(units + 1, 2 * MAX_UNITS)
        work += 160 + (4 * units) // 5
    return work
