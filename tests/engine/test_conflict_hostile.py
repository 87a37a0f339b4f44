"""A hostile caller of Organizations In Conflict (issue 20), with tests/engine/hostile.py.

Random JSON-like actions, the conflict's own action types with random fields, and
mutations of the legal moves of the moment, taken one after another on random
conflicts (app deck and real cards, teams, solo sides, every rules variant): only
``ValueError`` subclasses ever come out, a refused action changes nothing, an
accepted one is stored in canonical form, replays identically from its JSON,
validates and round-trips a link (``hostile.take``). The public helpers of
engine/conflict/ and engine/conflict/opponent.py get random arguments (``hostile.call``).

``pytest --hypothesis-show-statistics`` prints the example counts and how many
actions were accepted and refused (``hypothesis.event``).
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import event, given
from hypothesis import strategies as st

from engine import conflict as oic
from engine import game as games
from engine.cards import full_deck
from engine.conflict import opponent as solo
from tests.engine import hostile

FIELDS = ("side", "player", "card", "cards", "why")


def org(name: str, power: int, suit: str) -> dict[str, Any]:
    return {"name": name, "power": power, "suit": suit, "location": ""}


@st.composite
def conflicts(draw) -> games.Game:
    """A random conflict a table could set up, a few legal moves in."""
    deck = draw(st.sampled_from(["app", "app", "table"]))
    scope = draw(st.sampled_from(["home", "home", "regional"]))
    threshold = oic.Scope(scope).engage_threshold
    sides = []
    for s in range(2):
        count = draw(st.integers(1, 3))
        players = [{"name": f"P{s}{p}", "organizations": []} for p in range(count)]
        for i, suit in enumerate(draw(st.lists(st.sampled_from("SHDC"), min_size=1, max_size=5))):
            players[i % count]["organizations"].append(org(f"O{s}{i}", draw(st.integers(threshold + 1, threshold + 9)), suit))
        side = {"name": f"Side {s}", "scope": scope, "players": players}
        if deck == "app" and draw(st.booleans()):
            side.update(controller="app", level=draw(st.sampled_from(solo.LEVELS[:2])))
        sides.append(side)
    rules = {"trump_circle": draw(st.sampled_from(["cards", "introduction"])),
             "face_on_face": draw(st.sampled_from(["any", "higher"])),
             "deck": draw(st.sampled_from(["per-side", "shared"]))}
    game = games.new_game("conflict", {"sides": sides, "scope": scope, "aggressor": draw(st.integers(0, 1)),
                                       "deck": deck}, rules, draw(st.integers(0, 2**32 - 1)))
    rng = random.Random(draw(st.integers(0, 2**16)))
    for _ in range(draw(st.integers(0, 30))):
        moves = legal_moves(game, rng)
        if not moves:
            break
        game = games.apply(game, rng.choice(moves))
    return game


def legal_moves(game: games.Game, rng: random.Random) -> list[dict[str, Any]]:
    """Some of the moves the rules allow now (discards of random cards, plays, passes,
    the next round, calling the conflict, the app's own decision: a side the app plays
    makes no other move, issue 35)."""
    state = games.replay(game)
    levels = solo.controllers(game.setup) if not games.is_spectator(game) else (None, None)
    moves: list[dict[str, Any]] = []
    if state.phase == "discard":
        for s in (0, 1):
            if levels[s] is not None:
                continue
            for p, done in enumerate(state.discarded[s]):
                if not done:
                    hand = state.hands[s][p]
                    moves.append({"type": "discard", "side": s, "player": p,
                                  "cards": [str(c) for c in hand if rng.random() < 0.3]})
    elif state.phase == "play" and levels[state.turn] is None:
        moves += [{"type": "play", "player": p, "card": str(c)} for p, c in oic.legal_plays(state)[:6]]
        moves.append({"type": "pass"})
    elif state.phase == "round-over":
        moves += [{"type": "next_round"}] * 3 + [{"type": "call"}]
    turn = solo.app_turn(game, state)
    if turn is not None:
        moves.append(solo.decide(state, *turn, samples=2).action)
    return moves


@given(conflicts(), st.data())
def test_hostile_actions_never_fool_the_referee(game, data):
    rng = random.Random(0)
    taken = 0
    for _ in range(8):
        valid = legal_moves(game, rng)
        action = data.draw(hostile.actions(oic.ACTION_TYPES, FIELDS, valid))
        game, accepted = hostile.take(game, action)
        taken += accepted
        if accepted:
            state = games.replay(game)
            assert game.actions[-1] == oic.normalize_action(games.replay(game, game.position - 1),
                                                            game.actions[-1])
            assert state.phase in oic.PHASES
        moves = legal_moves(game, rng)
        if moves and data.draw(st.booleans()):  # the table moves on: hostile actions at every point
            game, accepted = hostile.take(game, rng.choice(moves))
            assert accepted
    event(f"{taken} of 8 actions accepted")


@given(conflicts(), st.data())
def test_a_spectator_copy_takes_no_move_whatever_is_sent(game, data):
    copy = oic.public_game(game)
    games.validate(copy)
    for _ in range(4):
        action = data.draw(hostile.actions(oic.ACTION_TYPES, FIELDS, legal_moves(copy, random.Random(1))))
        after, accepted = hostile.take(copy, action)
        assert not accepted and after == copy


ARGS = hostile.VALUES
CARDS = st.one_of(st.sampled_from(full_deck()), st.sampled_from([str(c) for c in full_deck()]), ARGS)


@given(conflicts(), st.data())
def test_public_helpers_answer_or_refuse_with_a_value_error(game, data):
    state = games.replay(game)
    draw = data.draw
    anything = st.one_of(ARGS, st.just(state), st.just(game))
    side = st.one_of(st.sampled_from([0, 1]), ARGS)
    calls = [
        (oic.max_card_size, ARGS, st.one_of(st.sampled_from(["home", "war", "World war"]), ARGS)),
        (oic.is_usable, CARDS, ARGS),
        (oic.card_value, CARDS),
        (oic.trumps, st.one_of(st.sampled_from("SHDC♠x"), ARGS), ARGS),
        (oic.trumped_by, st.one_of(st.sampled_from("SHDC"), ARGS), ARGS),
        (oic.can_follow, CARDS, CARDS, ARGS),
        (oic.why_not_follow, CARDS, CARDS, st.one_of(st.just({"face_on_face": "higher"}), ARGS)),
        (oic.can_engage, ARGS, ARGS),
        (oic.in_world_time, ARGS, ARGS),
        (oic.hand_size, ARGS),
        (oic.explain_max_size, ARGS, ARGS, ARGS, ARGS),
        (oic.Scope.parse, ARGS),
        (oic.normalize_setup, ARGS),
        (oic.setup_warnings, ARGS),
        (oic.setup_sides, ARGS),
        (oic.start, ARGS, ARGS, st.one_of(st.just(random.Random(1)), ARGS)),
        (oic.legal_plays, anything),
        (oic.check_play, anything, ARGS, CARDS, side),
        (oic.can_play, anything, ARGS, CARDS, side),
        (oic.check_discard, anything, side, ARGS, st.one_of(st.lists(CARDS, max_size=4), ARGS)),
        (oic.can_discard, anything, side, ARGS, st.one_of(st.lists(CARDS, max_size=4), ARGS)),
        (oic.check_pass, anything, side),
        (oic.can_pass, anything, side),
        (oic.check_next_round, anything),
        (oic.can_next_round, anything),
        (oic.check_call, anything),
        (oic.can_call, anything),
        (oic.side_ratings, anything, side),
        (oic.player_ratings, anything, side, ARGS),
        (oic.player_max_sizes, anything, side, ARGS),
        (oic.max_size_reason, anything, side, ARGS, ARGS),
        (oic.best_organization, anything, side, ARGS, ARGS),
        (oic.engageable_suits, anything, side),
        (oic.status, anything),
        (oic.standing, anything),
        (oic.call_totals, anything),
        (oic.side_ahead, anything),
        (oic.call_sum, anything, side),
        (oic.call_preview, anything),
        (oic.describe, anything, ARGS),
        (oic.normalize_action, anything, ARGS, ARGS),
        (oic.step, anything, ARGS, ARGS, st.one_of(st.just(random.Random(2)), ARGS)),
        (oic.public_game, anything),
        (oic.upgrade, ARGS),
        (oic.undo_warning, anything, ARGS),
        (solo.controllers, st.one_of(ARGS, st.just(dict(game.setup)))),
        (solo.app_level, st.one_of(ARGS, st.just(dict(game.setup))), side),
        (solo.to_act, anything),
        (solo.app_turn, anything, st.one_of(st.none(), st.just(state), ARGS)),
        (solo.undo_target, anything),
        (solo.observe, anything, side),
        (solo.decide, anything, side, st.one_of(st.sampled_from(solo.LEVELS), ARGS),
         st.one_of(st.none(), st.integers(-2, 3), ARGS)),
        (solo.decide_observed, st.one_of(st.just(solo.observe(state, 0)), ARGS),
         st.one_of(st.sampled_from(solo.LEVELS), ARGS), st.one_of(st.none(), st.integers(1, 2), ARGS)),
        (solo.normal_discard, st.one_of(st.just(solo.observe(state, 1)), ARGS), ARGS),
        (solo.normal_play, st.one_of(st.just(solo.observe(state, 0)), ARGS), ARGS),
    ]
    refused = 0
    for _ in range(6):
        fn, *strategies = draw(st.sampled_from(calls))
        args = [draw(strategy) for strategy in strategies]
        refused += isinstance(hostile.call(fn, *args), ValueError)
    event(f"{refused} of 6 calls refused")
