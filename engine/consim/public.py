"""CONSIM's spectator copy (issue 21: hidden means absent): :func:`public_game`, and
:func:`public_state`, the players' view drawn from it. Dealt cards and dice become
recorded facts; while the Observer's privacy is on, the non-player combatants are
placeholders whose fire is an unseen shooter's results.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from ..game import ArgumentError, Game, is_spectator, replay, system
from .rules import current_index, kept_hidden, turns_dying
from .setup import hidden_entry, hidden_group_entry, normalize_setup
from .steps import start, step
from .values import KIND, ConsimState


def _acting_hidden(state: ConsimState, hidden: frozenset[int] | set[int]) -> bool:
    cur = current_index(state)
    return cur is not None and state.turns[cur].combatant in hidden


def _copy_roster(combatants: list[dict[str, Any]], hidden: frozenset[int], count: bool
                 ) -> tuple[dict[int, int], list[dict[str, Any]], set[int]]:
    """The copy's roster: ``(where each combatant is in it, its lines, its hidden lines)``.

    Counted (every game before HR-CS-8): one numbered placeholder per hidden combatant, in
    place. Not counted (HR-CS-8): each side's hidden combatants are one line, where the
    first of them stood, so the copy holds nothing that says how many there are."""
    if count:
        numbers = {i: n for n, i in enumerate(sorted(hidden), start=1)}
        return ({i: i for i in range(len(combatants))},
                [hidden_entry(numbers[i], c["side"]) if i in hidden else c for i, c in enumerate(combatants)],
                set(hidden))
    pos: dict[int, int] = {}
    roster: list[dict[str, Any]] = []
    group: dict[int, int] = {}
    for i, c in enumerate(combatants):
        if i not in hidden:
            pos[i] = len(roster)
            roster.append(c)
        else:
            if c["side"] not in group:
                group[c["side"]] = len(roster)
                roster.append(hidden_group_entry(c["side"]))
            pos[i] = group[c["side"]]
    return pos, roster, set(group.values())


def public_game(game: Game) -> Game:
    """A spectator's copy (``"spectator": true``): only what the table may see.

    No seed and no redo stack: every dealt card and every die becomes a recorded
    fact in its action, so nothing can be re-dealt from the seed. While the
    Observer's privacy is on, the non-player combatants are placeholders ("The
    Observer's combatant 3"): no name, kind, training, weapon, card, status or
    countdown of theirs is in the copy; it says only how many cards they hold in a
    round's order and when one of them acts (``hidden_next``). Their fire is an
    unseen shooter's, given by its results (hit, wound, suppression) without the
    dice that would tell the shooter's training or weapon; fire at them is listed
    without a result. The players' view of the tracker is drawn from this copy.
    HR-CS-8: unless the Observer says how many are hidden (``count_hidden``), each side's
    hidden combatants are one line, and the copy counts neither them nor their cards.
    """
    return _public(game)[0]


def public_state(game: Game) -> ConsimState:
    """The state of ``game``'s spectator copy (:func:`public_game`) at its end: everything
    the players may see now, made in one pass (the players' view draws it)."""
    return _public(game)[1]


def _public(game: Game) -> tuple[Game, ConsimState]:
    if not isinstance(game, Game) or game.kind != KIND:
        raise ArgumentError(f"public_game takes a game of kind {KIND!r}")
    if is_spectator(game):
        copy = replace(game, actions=game.actions[: game.position], position=game.position, _tip=None)
        return copy, replay(copy)
    mod = system(game.kind)
    rng = random.Random(game.seed)
    state = mod.start(game.setup, game.rules, rng)
    actions = game.actions[: game.position]
    states = [state]
    for action in actions:
        state = mod.step(state, action, game.rules, rng)
        states.append(state)
    final = states[-1]
    real_hidden = frozenset(i for i in range(len(final.combatants)) if kept_hidden(final, i))
    setup = normalize_setup(game.setup)
    pos, roster, hidden = _copy_roster(setup["combatants"], real_hidden, final.count_hidden)
    setup["combatants"] = roster
    setup.update(spectator=True, hidden=sorted(hidden), privacy=final.privacy)
    copy_state = start(setup, game.rules)
    kept: list[dict[str, Any]] = []
    quiet = not final.count_hidden  # HR-CS-8: nothing in the copy counts the hidden

    def emit(action: dict[str, Any], after: ConsimState, moves: bool = True) -> None:
        nonlocal copy_state
        if moves and _acting_hidden(after, real_hidden):
            action["hidden_next"] = True
        copy_state = step(copy_state, action, game.rules)
        kept.append(action)

    def still_unseen(after: ConsimState) -> bool:
        """An uncounted copy says only when the hidden start and stop acting, not each card."""
        return quiet and copy_state.unseen_acting and _acting_hidden(after, real_hidden)

    for action, before, after in zip(actions, states, states[1:]):
        kind = action.get("type")
        if kind == "deal":
            out: dict[str, Any] = {"type": "deal"}
            adv = {str(pos[int(k)]): list(v) for k, v in action.get("advantages", {}).items()
                   if int(k) not in real_hidden}
            if adv:
                out["advantages"] = adv
            if action.get("surprised"):
                out["surprised"] = list(action["surprised"])
            out["cards"] = {str(pos[i]): [c.token for c in h.dealt] for i, h in enumerate(after.hands)
                            if i not in real_hidden and h is not None and h.dealt}
            unseen = sum(len(after.hands[i].kept) for i in real_hidden)
            if unseen and not quiet:
                out["hidden_cards"] = unseen
            emit(out, after)
        elif kind == "next":
            if not still_unseen(after):
                emit({"type": "next"}, after)
        elif kind == "long":
            if action["combatant"] not in real_hidden:
                emit({"type": "long", "combatant": pos[action["combatant"]], "cards": list(action["cards"])}, after)
            elif copy_state.unseen_acting != _acting_hidden(after, real_hidden) or not (final.legacy or quiet):
                emit({"type": "next"}, after)
        elif kind == "shoot":
            shot = after.last_shot
            by = {r.target: r for r in shot.targets}
            targets = list(dict.fromkeys(pos[t] for t in action["targets"]))
            first = {pos[t]: t for t in reversed(action["targets"])}
            public = [t for t in action["targets"] if t not in real_hidden]
            moves = not final.legacy
            if shot.shooter not in real_hidden:
                out = {"type": "shoot", "shooter": pos[shot.shooter], "targets": targets,
                       "mode": shot.mode, "cover": shot.cover.value, "unseen": shot.unseen,
                       "dice": [None if first[t] in real_hidden else
                                {k: v for k, v in (("d10", by[first[t]].d10), ("d6", by[first[t]].d6),
                                                   ("countdown", by[first[t]].countdown)) if v is not None}
                                for t in targets]}
                if shot.semi:
                    out["semi"] = shot.semi
                emit(out, after, moves)
            elif public:
                results: list[dict[str, Any] | None] = []
                for t in targets:
                    if first[t] in real_hidden:
                        results.append(None)
                        continue
                    r = by[first[t]]
                    entry: dict[str, Any] = {"hit": r.hit}
                    if r.hit:
                        entry["wound"] = r.wound.value
                    entry["suppression"] = r.fire
                    if r.countdown is not None:
                        entry["countdown"] = r.countdown
                    results.append(entry)
                emit({"type": "shoot", "targets": targets, "mode": shot.mode,
                      "cover": shot.cover.value, "unseen": shot.unseen, "results": results}, after, moves)
            elif moves and not still_unseen(after):
                emit({"type": "next"}, after)
        elif kind == "end_round":
            out = {"type": "end_round"}
            dice = {str(pos[i]): after.statuses[i].countdown for i in range(len(after.combatants))
                    if i not in real_hidden and turns_dying(before.statuses[i])}
            if dice:
                out["dice"] = dice
            emit(out, after, moves=False)
        elif kind in ("treat", "first_aid"):
            if action["combatant"] not in real_hidden:
                emit({"type": kind, "combatant": pos[action["combatant"]]}, after, moves=False)
    return replace(game, seed=0, setup=setup, actions=tuple(kept), position=len(kept), _tip=None), copy_state
