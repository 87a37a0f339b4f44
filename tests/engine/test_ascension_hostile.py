"""A hostile caller of the battle engine (issue 20): random JSON-like actions in every phase of a
battle and random arguments to every public helper. Only ``ValueError`` subclasses ever come
out; a refused action changes nothing; an accepted one is stored canonically and replays
identically from its JSON (tests/engine/hostile.py asserts that contract).

The example counts are kept in :data:`COUNTS` and checked (and printed) by the last test.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ascension as ai
from engine import game as games
from engine.game import apply, new_game, replay

from . import hostile
from .test_ascension import gen, setup, unit

COUNTS: Counter = Counter()

#: Two armies with every trait, generals of level 2 and 3, size and armour: most stratagems qualify.
ARMIES = setup(
    [unit("Line", 4, 5, 2, size=3), unit("Scout", 1, 2, 4, traits=["scout", "observer", "long range"]),
     unit("Guns", 3, 3, 1, traits=["long range"], armour=2)],
    [unit("Foot", 3, 3, 3, traits=["infantry"], size=2), unit("Riders", 2, 1, 6, traits=["scout"])],
    a_general=gen(3, ["observer"]), b_general=gen(2))


def valid_actions(game: games.Game) -> list[dict]:
    """A few actions the rules allow now (the hostile strategy mutates them)."""
    state = replay(game)
    out: list[dict] = [{"type": "phase", "index": 3}]
    if state.phase == "bid":
        for side in (0, 1):
            if state.bids[side] is None:
                out += [{"type": "bid", "side": side, "maneuver": "attack"},
                        {"type": "bid", "side": side, "maneuver": "withdraw", "rearguard": state.alive(side)[0]},
                        {"type": "bid", "side": side, "maneuver": "defend", "stratagems": ["counter_attack"]},
                        {"type": "bid", "side": side, "maneuver": "block", "stratagems": ["ambush"]},
                        {"type": "bid", "side": side, "maneuver": "shock"}]
        if state.bids == (None, None):
            out += [{"type": "join", "side": 1, "unit": unit("Fresh", 2, 2, 2)},
                    {"type": "correct", "side": 0, "index": state.alive(0)[0],
                     "unit": dict(state.armies[0].units[state.alive(0)[0]].as_json(), attack=7)},
                    {"type": "leave", "side": 0}]
        if None not in state.bids:
            out.append({"type": "reveal"})
    elif state.phase == "revealed":
        pools = ai.week_pools(state)
        out += [{"type": "roll"}, {"type": "counter_attack", "side": 0}, {"type": "counter_attack", "side": 1},
                {"type": "roll", "dice": [[4] * pools[0].dice, [2] * pools[1].dice]},
                {"type": "roll", "successes": [pools[0].dice, 0], "ranges": [1, None]},
                {"type": "roll", "dice": [[6] * pools[0].dice, [1] * pools[1].dice], "ranges": [0, 0]}]
    return out


@settings(deadline=None)  # examples: the profile's (100; 25 under make mutate)
@given(st.data(), st.integers(0, 2**32 - 1))
def test_hostile_actions_in_every_phase(data, seed):
    game = new_game("battle", ARMIES, {"reads": random.Random(seed).choice(["both", "winner"])}, seed)
    for _ in range(12):
        # A hostile action, then one the rules allow (so that the battle moves on through its weeks).
        for action in (data.draw(hostile.actions(ai.ACTION_TYPES, ai.ACTION_FIELDS, valid_actions(game))),
                       data.draw(st.sampled_from(valid_actions(game)))):
            game, accepted = hostile.take(game, action)
            COUNTS["accepted" if accepted else "refused"] += 1
        if replay(game).phase == "over":
            COUNTS["battles ended"] += 1
            break
    COUNTS["games"] += 1


SIDES = st.one_of(st.sampled_from([0, 1]), hostile.SCALARS)
MANEUVER_ARGS = st.one_of(st.sampled_from(list(ai.MANEUVERS)), hostile.SCALARS)


@settings(deadline=None)
@given(st.lists(hostile.VALUES, min_size=1, max_size=5), SIDES, MANEUVER_ARGS, st.data())
def test_hostile_arguments_to_every_public_helper(args, side, maneuver, data):
    state = replay(new_game("battle", ARMIES, None, 1))
    revealed = replay(apply(apply(apply(new_game("battle", ARMIES, None, 1),
                                        {"type": "bid", "side": 0, "maneuver": "attack"}),
                                  {"type": "bid", "side": 1, "maneuver": "defend"}), {"type": "reveal"}))
    a = args + [None] * 5
    any_state = data.draw(st.sampled_from([state, revealed, None, a[0]]))
    calls = [
        (ai.reinforcement_dice, a[0], a[1]), (ai.reinforcement_threshold, a[0], a[1]),
        (ai.next_die_needs, a[0], a[1]), (ai.victory_tier, a[0]), (ai.victory_tier, 3, a[1]),
        (ai.success_setting, a[0]), (ai.success_chance, a[0], a[1]), (ai.count_successes, a[0]),
        (ai.count_successes, [1, 2], a[0], a[1]), (ai.cell_effect, a[0]), (ai.result_cell, a[0], a[1], a[2], a[3]),
        (ai.result_cell, {"house_tables": a[0]}, "drawn", "attack", "defend"),
        (ai.success_distribution, a[0], a[1], a[2]), (ai.tier_odds, a[0], a[1]), (ai.tier_odds, 2, 2, a[0], a[1]),
        (ai.tier_odds, 1, 1, 6, 4, a[0]), (ai.normalize_setup, a[0]), (ai.normalize_house_tables, a[0]),
        (ai.matchup, a[0], a[1]), (ai.matchup, maneuver, "attack"),
        (ai.dice_pool, any_state, side, maneuver), (ai.dice_pool, state, 0, "withdraw", a[0]),
        (ai.dice_pool, state, 0, "withdraw", (), a[0]), (ai.dice_pool, state, 0, "withdraw", (), False, a[0]),
        (ai.offered_stratagems, any_state, side, maneuver), (ai.check_stratagem, any_state, side, a[0], maneuver),
        (ai.can_use_stratagem, any_state, side, a[0], maneuver), (ai.check_counter_attack, any_state, side),
        (ai.can_counter_attack, any_state, side), (ai.check_leave, any_state, side), (ai.can_leave, any_state, side),
        (ai.check_change_armies, any_state), (ai.can_change_armies, any_state), (ai.week_pools, any_state),
        (ai.counter_switches, any_state, a[0]), (ai.line_up, a[0], a[1], a[2], a[3]),
        (ai.line_up, state.armies[0], a[0], 0, 0), (ai.line_up, state.armies[0], (False,) * 3, a[0], a[1]), (ai.week_odds, any_state), (ai.week_odds, revealed, a[0]),
        (ai.status, any_state), (ai.standing, any_state), (ai.describe, any_state, a[0]),
        (ai.normalize_action, any_state, a[0]), (ai.step, any_state, a[0]), (ai.step, state, a[0], None, a[1]),
        (ai.start, a[0]), (ai.start, ARMIES, a[0]), (ai.jibril_division, a[0]), (ai.upgrade, a[0]),
        (ai.public_game, a[0]), (ai.undo_warning, a[0], a[1]),
        (ai.casualty_ranges, any_state, a[0], a[1]), (ai.casualty_ranges, revealed, revealed.bids, a[0], a[1]),
        (ai.resolve, any_state, a[0], a[1]), (ai.resolve, revealed, revealed.bids, a[0]),
        (ai.resolve, revealed, revealed.bids, ai.Rolls(a[0], a[1], a[2])),
    ]
    for fn, *fn_args in calls:
        hostile.call(fn, *fn_args)
        COUNTS["helper calls"] += 1


@pytest.mark.parametrize("call, message", [
    (lambda: ai.tier_odds(3, 3, target="4"), "target number"),
    (lambda: ai.matchup("charge", "attack"), "unknown maneuver 'charge'"),
    (lambda: ai.dice_pool(replay(new_game("battle", ARMIES, None, 1)), 2, "attack"), "There is no side 2"),
    (lambda: ai.cell_effect(5), "a result cell is text"),
    (lambda: ai.reinforcement_threshold(5, 2**53), "reinforcement dice"),
    (lambda: ai.tier_odds(10**100, 1), "A dice pool"),
    (lambda: ai.victory_tier(3, "yes"), "skilled_general"),
    (lambda: ai.count_successes([1, 9]), "a d6 shows 1 to 6"),
    (lambda: ai.result_cell({}, "epic", "attack", "defend"), "No such table cell"),
    (lambda: ai.start(ARMIES, [1, 2]), "rules settings"),
    (lambda: ai.step("state", {"type": "reveal"}), "Not a battle state"),
    (lambda: ai.public_game(None), "Not a battle game"),
    (lambda: ai.jibril_division(5), "name must be text"),
    (lambda: ai.Unit("u", 1, 1, 1).stat("luck"), "attack, defense and mobility"),
    (lambda: ai.offered_stratagems(replay(new_game("battle", ARMIES, None, 1)), 0, "charge"), "Unknown maneuver"),
])
def test_the_issues_examples_are_refused_with_a_clear_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_the_documented_signatures_are_kept():
    assert ai.reinforcement_dice(5, 10) == 1 and ai.reinforcement_dice(base=5, rest_total=30) == 2
    assert ai.victory_tier(10, skilled_general=True) == "legendary"
    assert ai.tier_odds(1, 0)["sides"][0]["minor"] == Fraction(1, 2)
    assert ai.next_die_needs(5, 10) == 20 and ai.reinforcement_threshold(5, 2) == 30


def test_zz_example_counts():
    """Runs last in this file: the hostile tests above really exercised the engine."""
    print(f"\nbattle hostile caller: {COUNTS['games']} games, {COUNTS['accepted']} actions accepted, "
          f"{COUNTS['refused']} refused, {COUNTS['battles ended']} battles ended; "
          f"{COUNTS['helper calls']} helper calls")
    if COUNTS["games"]:  # the file ran whole (not one test picked out)
        assert COUNTS["accepted"] >= COUNTS["games"] and COUNTS["refused"] >= COUNTS["games"]
    if COUNTS["helper calls"]:
        assert COUNTS["helper calls"] >= 40 * 25
