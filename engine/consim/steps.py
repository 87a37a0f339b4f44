"""CONSIM's steps (CS-2 … CS-13): :func:`start`, :func:`step` (each action taken, after
the referee's check), and what the table and the saves say of a state:
:func:`describe`, :func:`status`, :func:`standing`; the optional hooks
:func:`equipment` (HR-CS-6, HR-CS-7) and :func:`replay_work` (:mod:`engine.system`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from ..cards import parse_card
from ..game import ArgumentError, replaced
from ..referee import index_in, listed_count
from ..rules import resolve_rules
from ..text import plural, shown
from .referee import advantage_ticks, normalize_action
from .rules import current_index, deal_hands, initiative_key, initiative_order, resolve_fire, turn_counts
from .setup import combatant_of, normalize_setup
from .values import (
    LEGACY_RULES,
    MAX_COMBATANTS,
    SUIT_RANK,
    VARIANT_BY_KEY,
    VARIANTS,
    Condition,
    ConsimState,
    Cover,
    LogEntry,
    Shot,
    Status,
    Turn,
    state_arg,
)


def start(setup: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
          rng: random.Random | None = None) -> ConsimState:
    """The tracker before the first deal: everyone fit, no suppression."""
    normal = normalize_setup(setup)
    settings = resolve_rules(VARIANTS, rules)
    combatants = tuple(combatant_of(c) for c in normal["combatants"])
    legacy = normal.get("legacy", False)
    log = (LogEntry(0, LEGACY_RULES),) if legacy else ()
    return ConsimState(
        sides=tuple(normal["sides"]), combatants=combatants,
        statuses=tuple(Status() for _ in combatants), rules=tuple(sorted(settings.items())),
        hands=tuple(None for _ in combatants), privacy=normal["privacy"], facts=normal.get("spectator", False),
        hidden=frozenset(normal.get("hidden", ())), legacy=legacy, log=log,
        count_hidden=normal.get("count_hidden", True))


# ---------------------------------------------------------------------------
# Taking an action


def _log(state: ConsimState, text: str, *who: int) -> tuple[LogEntry, ...]:
    return state.log + (LogEntry(state.round, text, tuple(who)),)


def _move_on(state: ConsimState, action: Mapping[str, Any]) -> ConsimState:
    """CS-5: the current turn is over (an unseen one in a spectator's copy); who acts next."""
    if state.unseen_acting:
        return replace(state, unseen_acting=bool(action.get("hidden_next")))
    cur = current_index(state)
    turns = state.turns if cur is None else replaced(state.turns, cur, replace(state.turns[cur], done=True))
    return replace(state, turns=turns, unseen_acting=bool(action.get("hidden_next")))


def _do_deal(state: ConsimState, action: Mapping[str, Any], rng: random.Random | None) -> ConsimState:
    surprised = tuple(action.get("surprised", ()))
    recorded = None
    if "cards" in action:
        recorded = {int(k): tuple(parse_card(t) for t in v) for k, v in action["cards"].items()}
    ticks = advantage_ticks(state, action)
    hands, nothing = deal_hands(state, ticks, surprised, recorded, rng)
    statuses = tuple(replace(st, no_cards_next=False) if st.no_cards_next else st for st in state.statuses)
    turns = tuple(Turn(card, i) for card, i in sorted(
        ((card, i) for i, hand in enumerate(hands) if hand is not None for card in hand.kept),
        key=lambda x: (-int(x[0].rank), SUIT_RANK[x[0].suit])))
    round_ = state.round + 1
    unseen = action.get("hidden_cards", 0)
    advantages = tuple(tuple(action.get("advantages", {}).get(str(i), ())) for i in range(len(state.combatants)))
    new = replace(state, round=round_, phase="round", hands=tuple(hands), turns=turns, statuses=statuses,
                  nothing=tuple(nothing), surprised=surprised, last_shot=None, unseen_cards=unseen,
                  unseen_acting=bool(action.get("hidden_next")), advantages=advantages)
    dealt = sum(len(h.dealt) for h in hands if h is not None)
    lost = sum(len(h.lost) for h in hands if h is not None)
    if state.facts and state.hidden:
        if state.count_hidden:
            text = f"Round {round_}: {plural(len(turns) + unseen, 'card')} to act"
        else:  # HR-CS-8: the hidden are not counted
            text = f"Round {round_}: {plural(len(turns), 'card')} shown to act, besides the Observer's hidden ones"
        if unseen:
            text += f" ({unseen} of them the Observer's hidden combatants')"
        if lost:
            text += f"; {lost} of the cards shown struck for suppression and wounds (CS-3)"
    else:
        text = f"Round {round_}: {plural(dealt, 'card')} dealt"
        if lost:
            text += f", {lost} struck for suppression and wounds (CS-3): {len(turns)} to act"
    if surprised:
        text += f"; {', '.join(state.sides[s] for s in surprised)} surprised (CS-4)"
    if nothing:
        names = ", ".join(state.combatants[i].name for i in nothing)
        text += f". The deck ran out (CS-6): {names} got {'nothing' if len(nothing) == 1 else 'nothing or too few'}"
    return replace(new, log=_log(new, text + "."))


def _do_long(state: ConsimState, action: Mapping[str, Any]) -> ConsimState:
    """CS-5: a long action spends several cards and acts at the rank of the lowest."""
    who = action["combatant"]
    cards = [parse_card(t) for t in action["cards"]]
    picked = [next(i for i, t in enumerate(state.turns) if t.card == card and t.combatant == who and not t.done)
              for card in cards]
    lowest = max(picked, key=lambda i: initiative_key(state.turns[i].card))
    spent = tuple(c for i in picked if i != lowest for c in (state.turns[i].card, *state.turns[i].spent))
    turns = list(state.turns)
    turns[lowest] = replace(turns[lowest], spent=turns[lowest].spent + tuple(initiative_order(spent)))
    turns = [t for i, t in enumerate(turns) if i == lowest or i not in picked]
    name = state.combatants[who].name
    new = replace(state, turns=tuple(turns), unseen_acting=bool(action.get("hidden_next")), last_shot=None)
    text = (f"{name}: long action on {', '.join(c.label for c in cards)}, "
            f"acts at the {state.turns[lowest].card.label} (CS-5).")
    return replace(new, log=_log(new, text, who))


def _do_shoot(state: ConsimState, action: Mapping[str, Any], rng: random.Random | None) -> ConsimState:
    """CS-7 … CS-11: one shooter fires aimed or suppressive at one or more targets; the
    shot is its card's action (CS-5): the turn moves on."""
    shooter = action.get("shooter")
    targets = list(action["targets"])
    mode, cover, unseen = action["mode"], Cover(action["cover"]), action["unseen"]
    semi = action.get("semi")
    rolls = action.get("dice", action.get("results"))  # a copy's shot always has them (normalize_action)
    statuses, _, results = resolve_fire(state, shooter, targets, mode, cover, unseen, semi, rolls, rng)
    hidden = tuple(t for t in targets if state.facts and t in state.hidden)
    shot = Shot(shooter, mode, cover, unseen, semi, tuple(results), hidden)
    how = "aimed shot" if mode == "aimed" else ("suppressive fire on an area" if len(targets) > 1 else
                                                "suppressive fire")
    extras = [x for x in ("not seen by the target (CS-7)" if unseen else "",
                          f"semi-automatic for +1 {semi} (CS-11)" if semi else "") if x]
    who = "An unseen shooter" if shooter is None else state.combatants[shooter].name
    head = f"{who}: {how}" + (f", {', '.join(extras)}" if extras else "") + "."
    parts = [r.text for r in results]
    if hidden:
        names = ", ".join(state.combatants[t].name for t in hidden)
        parts.append(f"At {names}: the result is hidden.")
    new = replace(state, statuses=tuple(statuses), last_shot=shot)
    new = replace(new, log=_log(new, head + " " + " ".join(parts), *[r.target for r in results]))
    if state.legacy:
        return new
    return _move_on(new, action)


def _do_end_round(state: ConsimState, action: Mapping[str, Any], rng: random.Random | None) -> ConsimState:
    """CS-12/CS-13/HR-CS-1: suppression reset, countdowns tick and fire, stuns wear off.

    CS-13: the round a condition starts counts as its first (a countdown of 1 runs out
    at the end of that round); a DYING that starts now counts from the next round."""
    dice = action.get("dice", {})
    statuses = list(state.statuses)
    notes = []
    for i, st in enumerate(statuses):
        name = state.combatants[i].name
        if not st.fired_on and st.suppression:
            notes.append((f"{name} was not fired on: suppression {st.suppression} → 0 (CS-12)", i))
            st = replace(st, suppression=0)
        if st.fired_on:
            st = replace(st, fired_on=False)
        if st.condition is Condition.STUNNED and st.stunned_until is not None and st.stunned_until <= state.round:
            st = replace(st, condition=Condition.OK, stunned_until=None)
            notes.append((f"{name} is no longer stunned (HR-CS-1)", i))
        running = (st.condition is Condition.INJURED and not st.treated) or (
            st.condition is Condition.DYING and not st.first_aid)
        if running and st.countdown is not None:
            left = st.countdown - 1
            if left > 0:
                st = replace(st, countdown=left)
            elif st.condition is Condition.INJURED:
                if str(i) in dice:  # a copy records every one (normalize_action); its hidden are never hurt
                    roll = dice[str(i)]
                elif not isinstance(rng, random.Random):
                    raise ArgumentError("step needs the game's random generator to roll (or recorded dice)")
                else:
                    roll = rng.randint(1, 6)
                st = replace(st, condition=Condition.DYING, countdown=roll, first_aid=False)
                notes.append((f"{name} was not treated in time: DYING, DEAD in {plural(roll, 'round')} "
                              "without first aid (CS-10, CS-13)", i))
            else:
                st = replace(st, condition=Condition.DEAD, countdown=None)
                notes.append((f"{name} got no first aid in time: DEAD (CS-10, CS-13)", i))
        statuses[i] = st
    new = replace(state, statuses=tuple(statuses), phase="ready",
                  turns=tuple(replace(t, done=True) for t in state.turns), last_shot=None,
                  unseen_acting=False, unseen_cards=0)
    log = new.log + (LogEntry(state.round, f"Round {state.round} ends.", ()),)
    log += tuple(LogEntry(state.round, text + ".", (i,)) for text, i in notes)
    return replace(new, log=log)


def _do_treat(state: ConsimState, action: Mapping[str, Any]) -> ConsimState:
    who = action["combatant"]
    st = state.statuses[who]
    name = state.combatants[who].name
    if action["type"] == "treat":
        new_st, text = replace(st, treated=True), f"{name} is treated: will not start DYING (CS-10, CS-13)."
    else:
        new_st, text = replace(st, first_aid=True), (f"{name} gets first aid: the countdown stops; serious "
                                                     "medical care must follow (CS-10, CS-13).")
    new = replace(state, statuses=replaced(state.statuses, who, new_st))
    return replace(new, log=_log(new, text, who))


def step(state: ConsimState, action: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
         rng: random.Random | None = None) -> ConsimState:
    """The state after ``action`` (see :mod:`engine.consim`). Never mutates ``state``.

    Everything :func:`normalize_action` refuses is refused here too (it is the same check)."""
    state = state_arg(state)
    action = normalize_action(state, action, rules)
    kind = action["type"]
    if kind == "deal":
        return _do_deal(state, action, rng)
    if kind == "next":
        return replace(_move_on(state, action), last_shot=None)
    if kind == "long":
        return _do_long(state, action)
    if kind == "shoot":
        return _do_shoot(state, action, rng)
    if kind == "end_round":
        return _do_end_round(state, action, rng)
    if kind in ("treat", "first_aid"):
        return _do_treat(state, action)
    return replace(state, privacy=action["hide"])


def _name(state: ConsimState, value: Any) -> str:
    index = index_in(value, state.combatants)
    return state.combatants[index].name if index is not None else "?"


#: The history labels that say only which combatant (``who``) it was.
_LABELS = {"long": "{who}: long action", "end_round": "end of round", "treat": "{who} treated",
           "first_aid": "{who} first aid"}


def describe(state: ConsimState, action: Mapping[str, Any]) -> str:
    """A short history label of ``action`` taken in ``state`` (never raises for an action)."""
    state = state_arg(state)
    if not isinstance(action, Mapping):
        return "Unknown action"
    kind = action.get("type")
    prefix = f"Round {state.round} · "
    if kind == "deal":
        label = f"Round {state.round + 1} · deal"
        if state.legacy and state.round == 0:
            label += " (earlier rules: see the log)"
        return label
    if kind == "next":
        if state.unseen_acting:
            return prefix + "the Observer's combatant's turn passes"
        cur = current_index(state)
        if cur is None:
            return prefix + "next"
        turn = state.turns[cur]
        return f"{prefix}{_name(state, turn.combatant)} passes ({turn.card.label})"
    if isinstance(kind, str) and kind in _LABELS:
        return prefix + _LABELS[kind].format(who=_name(state, action.get("combatant")))
    if kind == "shoot":
        given = action.get("targets")
        targets = given if isinstance(given, (list, tuple)) else []
        how = "aims at" if action.get("mode", "aimed") == "aimed" else "suppresses"
        who = _name(state, action.get("shooter")) if "shooter" in action else "an unseen shooter"
        return f"{prefix}{who} {how} {', '.join(_name(state, t) for t in targets)}"
    if kind == "privacy":
        return f"{prefix}{'hide' if action.get('hide') else 'show'} the Observer's combatants"
    return "Unknown action"


# ---------------------------------------------------------------------------
# What the table and the saves say of a state


def _turn_text(state: ConsimState, turn: Turn) -> str:
    who = state.combatants[turn.combatant].name
    long = f" (long action, {len(turn.spent) + 1} cards)" if turn.spent else ""
    return f"{who} acts on the {turn.card.label}{long}"


def status(state: ConsimState) -> str:
    """What the table is waiting for, in one sentence (true in a spectator's copy too)."""
    state = state_arg(state)
    copy = state.facts
    if state.phase == "ready":
        if state.round == 0:
            if copy:
                return "No round has been dealt yet (CS-2)."
            return "Tick this round's advantages and surprise, then deal (CS-2, CS-4)."
        if copy:
            return f"Round {state.round} is over; the Observer deals round {state.round + 1} next."
        return f"Round {state.round} is over. Tick the advantages for round {state.round + 1}, then deal."
    if state.unseen_acting:
        return f"Round {state.round}: the Observer's combatants are acting (CS-5)."
    cur = current_index(state)
    if cur is None:
        if copy and state.legacy:
            return f"Round {state.round}: every card shown here has acted (CS-5)."
        if copy:
            return f"Round {state.round}: everyone has acted; the Observer ends the round next (CS-12, CS-13)."
        return f"Round {state.round}: everyone has acted. End the round (CS-12, CS-13)."
    turn = state.turns[cur]
    if copy and state.legacy:
        return (f"Round {state.round}: the next card shown here is {state.combatants[turn.combatant].name}'s "
                f"{turn.card.label} (CS-5).")
    return f"Round {state.round}: {_turn_text(state, turn)} (CS-5)."


def standing(state: ConsimState) -> str:
    """Where the game stands, in a few words, for the list of saves: "Round 4 · 6 of 11 acted"."""
    state = state_arg(state)
    fit = sum(1 for s in state.statuses if s.condition is not Condition.DEAD)
    if state.round == 0:
        return f"Not dealt yet · {plural(len(state.combatants), 'combatant')}"
    if state.phase == "ready":
        return f"Round {state.round} over · {fit} of {len(state.combatants)} alive"
    done, left = turn_counts(state)
    cards = " visible cards" if state.facts and state.hidden else ""
    if left == 0 and not state.unseen_acting:
        return f"Round {state.round} · all{cards} acted"
    return f"Round {state.round} · {done} of {done + left}{cards} acted"


def equipment(setup: Mapping[str, Any], rules: Mapping[str, Any] | None = None) -> str:
    """HR-CS-6/HR-CS-7: whose cards and whose dice, in players' words."""
    settings = resolve_rules(VARIANTS, rules)
    return " ".join(VARIANT_BY_KEY[key].sentence(settings[key]) for key in ("deck", "dice"))


def replay_work(setup: Mapping[str, Any], actions: Iterable[Any]) -> int:
    """Issue 30: the work of replaying ``actions`` (see :func:`engine.game.replay_work`):
    a deal, a turn or a shot costs about 80 plus half a unit a combatant (measured with
    the largest legal rosters, tests/maxgames.py, ``make bench``)."""
    if not isinstance(actions, Iterable):
        raise ArgumentError(f"replay_work takes the game's actions, a list (got {shown(actions)})")
    combatants = min(listed_count(setup, "combatants"), MAX_COMBATANTS)
    return sum(1 for _ in actions) * (80 + combatants // 2)
