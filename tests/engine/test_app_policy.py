"""Issue 33 "compute once": the app's decisions are remembered by what they read (the battle's
content, the conflict's observation), and remembering changes nothing it decides. Compared
with what the policy decided before the memo was shared (tests/engine/app_policy.json, written
by tests/engine/app_policy_cases.py on the version before), over seeded random positions: cold
(every memo emptied before each decision), warm in order, warm in reverse order, and for
another state object of the same position (as undo, redo and a reload make)."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from engine import ascension as ai
from engine.ascension import odds
from engine.conflict import opponent

from .app_policy_cases import GOLDEN, battle_cases, conflict_cases, move_text

EXPECTED = json.loads(GOLDEN.read_text())


def forget_everything() -> None:
    odds._cache.clear()
    odds._by_content.clear()
    odds._decided_memo.clear()
    opponent._REMEMBERED.clear()


def again(state):
    """Another object of the same state (what a replay gives after undo, redo or a reload)."""
    return replace(state)


def test_the_app_generals_bids_are_the_same_cold_warm_and_in_any_order():
    cases = list(battle_cases())
    assert len(cases) == len(EXPECTED["battle"]) == 360
    forget_everything()
    for label, state, side, level, seed in cases:  # warm, in order
        assert move_text(ai.app_bid(state, side, level, seed)) == EXPECTED["battle"][label], label
    for label, state, side, level, seed in reversed(cases):  # warm, other objects, reversed
        assert move_text(ai.app_bid(again(state), side, level, seed)) == EXPECTED["battle"][label], label
    for label, state, side, level, seed in random.Random(3).sample(cases, 60):  # cold
        forget_everything()
        assert move_text(ai.app_bid(again(state), side, level, seed)) == EXPECTED["battle"][label], label


def test_the_content_memo_is_shared_by_states_of_the_same_battle_and_only_by_them():
    forget_everything()
    label, state, side, level, seed = next(iter(battle_cases()))
    first = ai.advice(state, side)
    assert ai.advice(again(state), side) is first  # another object, the same battle: not computed again
    later = replace(state, week=state.week + 3)  # a later week that changed nothing on the field
    assert ai.advice(later, side) is first
    hurt = replace(state, damage=(tuple(d + 1 for d in state.damage[0]), state.damage[1]))
    assert ai.advice(hurt, side) is not first
    # The app general's draws still follow the week (its generator is seeded from it).
    assert ai.public_state(later).week == state.week + 3


def test_the_conflict_apps_moves_are_the_same_cold_warm_and_in_any_order():
    cases = list(conflict_cases())
    assert len(cases) == len(EXPECTED["conflict"]) == 450
    forget_everything()
    for label, state, side, level in cases:
        assert move_text(opponent.decide(state, side, level).action) == EXPECTED["conflict"][label], label
    for label, state, side, level in reversed(cases):
        assert move_text(opponent.decide(again(state), side, level).action) == EXPECTED["conflict"][label], label
    for label, state, side, level in random.Random(5).sample(cases, 80):
        forget_everything()
        assert move_text(opponent.decide(again(state), side, level).action) == EXPECTED["conflict"][label], label


def test_a_remembered_conflict_decision_is_a_copy_the_caller_may_change():
    forget_everything()
    label, state, side, level = next(iter(conflict_cases()))
    first = opponent.decide(state, side, level)
    first.action["type"] = "changed"
    assert opponent.decide(again(state), side, level).action["type"] != "changed"
