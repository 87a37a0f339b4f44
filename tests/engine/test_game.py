"""The session model (engine.game): replay, undo/redo, history, refusals, validation.

Uses the stand-in dice system (tests/engine/fakesys.py), whose ``roll`` draws from
the game's generator, and the real conflict system for a cross-check.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import conflict
from engine import game as g

OPS = st.lists(st.sampled_from(["roll", "pass", "bonus", "undo", "redo"]), max_size=40)


@pytest.fixture(autouse=True)
def _dice(monkeypatch):
    monkeypatch.setitem(g.SYSTEM_MODULES, "testdice", "tests.engine.fakesys")


def dice(seed=11, rules=None):
    return g.new_game("testdice", {"players": ["Ann", "Bo"]}, rules, seed)


def run(game, ops):
    for op in ops:
        if op == "undo" and game.can_undo:
            game = g.undo(game)
        elif op == "redo" and game.can_redo:
            game = g.redo(game)
        elif op in ("roll", "pass", "bonus"):
            action = {"type": op, "amount": 2} if op == "bonus" else {"type": op}
            try:
                game = g.apply(game, action)
            except g.RuleError:
                pass
    return game


def test_same_seed_and_actions_give_the_same_state():
    a = run(dice(), ["roll"] * 6)
    b = run(dice(), ["roll"] * 6)
    assert g.replay(a) == g.replay(b)
    c = run(dice(seed=12), ["roll"] * 6)
    assert g.replay(a)["scores"] != g.replay(c)["scores"] or g.replay(a)["turn"] != g.replay(c)["turn"]


def test_undo_then_redo_gives_the_same_roll():
    game = run(dice(), ["roll", "roll", "roll"])
    rolled = g.replay(game)["last"]
    again = g.redo(g.undo(game))
    assert g.replay(again)["last"] == rolled
    assert again == game


def test_undo_then_another_action_rolls_on_from_the_same_generator_state():
    game = run(dice(), ["roll", "roll"])
    undone = g.undo(game)
    rolled_again = g.apply(undone, {"type": "roll"})
    # The same generator state after action 1: the re-roll is the roll that was undone.
    assert g.replay(rolled_again)["last"] == g.replay(game)["last"]
    passed = g.apply(undone, {"type": "pass"})
    assert not passed.can_redo and len(passed.actions) == 2  # the redo stack is dropped


def test_refused_action_names_its_rule_and_changes_nothing():
    game = run(dice(), ["bonus"])
    game = g.apply(game, {"type": "pass"})
    game = g.apply(game, {"type": "bonus", "amount": 1})
    game = g.apply(game, {"type": "pass"})
    with pytest.raises(g.RuleError) as info:
        g.apply(game, {"type": "bonus", "amount": 1})
    assert info.value.rule_id == "D3" and str(info.value).startswith("D3: ")
    assert len(game.actions) == 4
    with pytest.raises(g.ActionError):
        g.apply(game, {"type": "fly"})
    with pytest.raises(g.ActionError):
        g.apply(game, "roll")  # not an action at all


def test_goto_and_history_browse_without_losing_later_steps():
    game = run(dice(), ["roll", "pass", "roll", "roll"])
    labels = g.history(game)
    assert len(labels) == 4 and labels[1].endswith("passes")
    early = g.goto(game, 1)
    assert early.position == 1 and len(early.actions) == 4 and early.can_redo
    assert g.replay(early) == g.replay(game, 1)
    assert g.goto(early, 4) == game
    with pytest.raises(ValueError):
        g.goto(game, 5)


def test_validate_replays_everything_and_names_the_bad_action():
    game = run(dice(), ["roll", "roll"])
    bad = g.Game(game.kind, game.seed, game.rules, game.setup, game.actions + ({"type": "bonus", "amount": 9},), 3)
    with pytest.raises(g.ActionError, match=r"\(step 3\)"):
        g.validate(bad)
    assert g.validate(game) == game
    with pytest.raises(ValueError):
        g.validate(g.Game(game.kind, game.seed, game.rules, game.setup, game.actions, 7))


def test_validate_checks_the_redo_stack_too():
    """An illegal move after ``position`` is refused now, not when someone taps Redo."""
    game = run(dice(), ["bonus", "pass", "pass"])  # the first player has had their bonus
    assert game.position == 3
    second_bonus = {"type": "bonus", "amount": 1}  # D3: the same player's second bonus
    for position in (0, 1, 3):
        bad = g.Game(game.kind, game.seed, game.rules, game.setup, game.actions + (second_bonus,), position)
        with pytest.raises(g.RuleError, match=r"^D3: .*\(step 4\)$"):
            g.validate(bad)
    malformed = g.Game(game.kind, game.seed, game.rules, game.setup, game.actions + ({"type": "fly"},), 2)
    with pytest.raises(g.ActionError, match=r"Unknown action: 'fly' \(step 4\)"):
        g.validate(malformed)
    # the same redo stack with a legal move is accepted and kept, position unchanged
    fine = g.Game(game.kind, game.seed, game.rules, game.setup, game.actions + ({"type": "roll"},), 1)
    assert g.validate(fine) == fine and g.validate(fine).position == 1


def test_new_game_checks_kind_seed_and_rules():
    with pytest.raises(g.UnknownKind):
        g.new_game("chess", {})
    with pytest.raises(ValueError, match="seed"):
        g.new_game("testdice", {"players": ["A", "B"]}, seed=-1)
    with pytest.raises(ValueError, match="D1"):
        g.new_game("testdice", {"players": ["A", "B"]}, {"target": 25})
    assert 0 <= dice(seed=None).seed <= g.MAX_SEED


@given(OPS, st.integers(0, g.MAX_SEED))
def test_any_session_replays_exactly_and_round_trips_undo_redo(ops, seed):
    game = run(dice(seed), ops)
    fresh = g.Game(game.kind, game.seed, game.rules, game.setup, game.actions, game.position)
    assert g.replay(fresh) == g.replay(game)  # the cache never changes the answer
    back = game
    while back.can_undo:
        back = g.undo(back)
    while back.can_redo:
        back = g.redo(back)
    assert g.replay(back) == g.replay(g.goto(game, len(game.actions)))


def uncached_states(game):
    """The state after every prefix of ``game.actions``, straight from the system (no cache)."""
    mod = g.system(game.kind)
    rng = random.Random(game.seed)
    state = mod.start(game.setup, game.rules, rng)
    states = [state]
    for action in game.actions:
        state = mod.step(state, action, game.rules, rng)
        states.append(state)
    return states


STEPS = st.lists(st.one_of(st.sampled_from(["roll", "pass", "bonus", "undo", "redo"]),
                           st.integers(0, 30).map(lambda k: ("goto", k))), max_size=30)


@given(STEPS, st.integers(0, g.MAX_SEED))
def test_after_any_apply_every_point_replays_as_without_the_cache(steps, seed):
    """``apply`` keeps a replay cache; whatever it holds, ``replay(game, upto=k)`` is the
    state after the first ``k`` actions for every ``k``, and the next roll is the same."""
    game = dice(seed)
    for op in steps:
        if isinstance(op, tuple):
            game = g.goto(game, min(op[1], len(game.actions)))
            continue
        before = len(game.actions), game.position
        game = run(game, [op])
        if op in ("undo", "redo") or (len(game.actions), game.position) == before:
            continue  # not an apply (or a refused one)
        expected = uncached_states(game)
        assert [g.replay(game, upto=k) for k in range(len(game.actions) + 1)] == expected
        assert g.replay(game) == expected[game.position]
        fresh = g.Game(game.kind, game.seed, game.rules, game.setup, game.actions, game.position)
        try:
            rolled = g.apply(game, {"type": "roll"})
        except g.RuleError:
            continue
        assert g.replay(rolled) == g.replay(g.apply(fresh, {"type": "roll"}))  # same generator state


def test_conflict_games_replay_through_the_same_model():
    game = g.new_game("conflict", conflict.purple_dragon_setup(), seed=5)
    game = g.apply(game, {"type": "discard", "side": 1, "player": 0, "cards": []})
    game = g.apply(game, {"type": "discard", "side": 0, "player": 0, "cards": []})
    state = g.replay(game)
    player, card = conflict.legal_plays(state)[0]
    played = g.apply(game, {"type": "play", "player": player, "card": str(card)})
    assert g.replay(g.redo(g.undo(played))).chain == g.replay(played).chain


@pytest.mark.parametrize("kind", sorted(g.SYSTEM_MODULES))
def test_every_system_has_the_session_protocol(kind):
    mod = g.system(kind)
    assert mod.KIND == kind
    for name in ("VARIANTS", "normalize_setup", "start", "step", "describe", "public_game"):
        assert hasattr(mod, name), f"{kind} lacks {name}"
    assert isinstance(mod.SPECTATOR_VIEW, str) and mod.SPECTATOR_VIEW.endswith(".")


# --------------------------------------------------------------------------- games as values (issue 20)

def test_a_game_owns_deep_copies_the_caller_cannot_change():
    players = ["Ann", "Bo"]
    game = g.new_game("testdice", {"players": players}, None, 3)
    players.append("Cy")
    action = {"type": "bonus", "amount": 2}
    game = g.apply(game, action)
    action["amount"] = 3
    assert game.setup["players"] == ["Ann", "Bo"] and game.actions[0]["amount"] == 2
    with pytest.raises(TypeError):
        game.setup["players"].append("Dee")
    with pytest.raises(TypeError):
        game.actions[0]["amount"] = 3
    with pytest.raises(TypeError):
        game.rules["target"] = 10
    import copy
    import json
    thawed = copy.deepcopy(game.setup)
    thawed["players"].append("Dee")  # a deep copy is the caller's own, changeable
    assert game.setup["players"] == ["Ann", "Bo"]
    assert json.dumps(game.setup) == '{"players": ["Ann", "Bo"]}'
    fresh = g.Game(game.kind, game.seed, game.rules, game.setup, game.actions, game.position)
    assert g.replay(fresh) == g.replay(game)


def test_apply_stores_the_canonical_action():
    game = g.apply(dice(), {"type": " Roll "})
    assert game.actions[-1] == {"type": "roll"}
    assert g.normalize_action(game, {"type": "PASS"}) == {"type": "pass"}
    bad = g.Game(game.kind, game.seed, game.rules, game.setup, game.actions + ({"type": "PASS"},), 2)
    assert g.validate(bad).actions[-1] == {"type": "pass"}


def test_check_and_can_apply_answer_without_changing_anything():
    game = run(dice(), ["bonus"])
    game = g.apply(g.apply(game, {"type": "pass"}), {"type": "pass"})
    assert g.can_apply(game, {"type": "roll"})
    assert g.check(game, {"type": "roll"}) is None
    assert not g.can_apply(game, {"type": "bonus", "amount": 1})
    with pytest.raises(g.RuleError, match="^D3: "):
        g.check(game, {"type": "bonus", "amount": 1})
    assert not g.can_apply(game, {"type": "fly"}) and len(game.actions) == 3


@pytest.mark.parametrize("call", [
    lambda: g.new_game("testdice", {"players": ["A", "B"]}, 5, 1),
    lambda: g.new_game("testdice", {"players": ["A", "B"]}, [1, 2]),
    lambda: g.new_game("testdice", {"players": ["A", "B"]}, None, "7"),
    lambda: g.new_game("testdice", {"players": ["A", "B"]}, None, True),
    lambda: g.new_game("testdice", {"players": ["A", "B"]}, None, 2**128),
    lambda: g.new_game("testdice", None),
    lambda: g.new_game("testdice", ["A", "B"]),
    lambda: g.new_game(None, {}),
    lambda: g.apply(None, {"type": "roll"}),
    lambda: g.apply(dice(), None),
    lambda: g.apply(dice(), {"type": "roll", "at": object()}),
    lambda: g.apply(dice(), {"type": "roll", 3: "x"}),
    lambda: g.apply(dice(), {"type": "roll", "x": float("nan")}),
    lambda: g.undo("game"),
    lambda: g.goto(dice(), "2"),
    lambda: g.goto(dice(), True),
    lambda: g.replay(dice(), "1"),
    lambda: g.history(None),
    lambda: g.validate(None),
    lambda: g.validate(g.Game("testdice", 1, {}, {"players": ["A", "B"]}, None)),
    lambda: g.validate(g.Game("testdice", 1, {}, {"players": ["A", "B"]}, 5)),
    lambda: g.validate(g.Game("testdice", 1, None, {"players": ["A", "B"]})),
    lambda: g.validate(g.Game("testdice", 1, {}, {"players": ["A", "B"]}, [{"type": "roll"}], "1")),
    lambda: g.validate(g.Game("testdice", 1, {}, {"players": ["A", "B"]}, ["roll"], 1)),
    lambda: g.validate(g.Game(7, 1, {}, {})),
])
def test_bad_arguments_are_refused_with_a_value_error(call):
    """One bad-input contract (issue 20): a ValueError subclass, never TypeError & co."""
    with pytest.raises(ValueError) as info:
        call()
    assert type(info.value) is not ValueError or str(info.value)
    assert str(info.value)


def test_the_apps_seeds_are_128_bits_and_old_or_typed_seeds_still_open():
    seeds = {g.new_seed() for _ in range(50)}
    assert len(seeds) == 50 and all(s.bit_length() == 128 and g.seed_is_secret(s) for s in seeds)
    assert dice(seed=None).seed.bit_length() == 128
    for old in (0, 7, 2**32 - 1):
        game = dice(seed=old)
        assert not g.seed_is_secret(game.seed) and g.validate(game) == game
    assert not g.seed_is_secret(2**127 - 1) and g.seed_is_secret(2**128 - 1)
    big = run(dice(seed=2**128 - 1), ["roll"] * 4)
    assert g.validate(big) == big


def test_is_spectator_reads_the_setup_marker():
    game = dice()
    assert not g.is_spectator(game) and not g.is_spectator(None)
    marked = g.Game(game.kind, game.seed, game.rules, {**game.setup, "spectator": True})
    assert g.is_spectator(marked)


@pytest.mark.parametrize("kind", ["conflict", "campaign"])
def test_a_spectators_copy_takes_no_move(kind):
    """Issue 21: a spectator copy is read-only in the engine too (the views offer no move)."""
    from engine import campaign

    setup = conflict.purple_dragon_setup() if kind == "conflict" else {"players": ["Ann", "Ben"]}
    game = g.new_game(kind, setup, None, 4)
    copy = g.system(kind).public_game(game)
    assert g.is_spectator(copy) and not g.is_spectator(game)
    move = ({"type": "discard", "side": 1, "player": 0, "cards": []} if kind == "conflict"
            else {"type": "battle", "winner": 0, "troops": 3})
    assert g.can_apply(game, move) and not g.can_apply(copy, move)
    with pytest.raises(g.ActionError, match="spectator's copy"):
        g.apply(copy, move)
    assert campaign  # imported for its system registration


@given(st.lists(__import__("tests.engine.hostile", fromlist=["actions"]).actions(
    ["roll", "pass", "bonus"], ["amount"], [{"type": "roll"}, {"type": "bonus", "amount": 2}]), max_size=12))
def test_hostile_actions_are_refused_cleanly_or_stored_canonically(actions):
    from tests.engine import hostile

    game = dice()
    for action in actions:
        game, _ = hostile.take(game, action)
