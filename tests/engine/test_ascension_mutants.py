"""Ascension Isle: what a sample of mutation testing found untested (issue 20, item 8).

Each test pins a rule or a refusal that a seeded bug (mutmut, `make mutate
MUTANTS='engine.ascension.*__mutmut_*17'`) changed without any other test noticing.
"""

from __future__ import annotations

import pytest

from engine import ascension as ai
from engine.game import apply, replay
from engine.rules import SettingsError

from .test_ascension import gen, setup, unit
from .test_ascension_referee import declare, game_of


def test_ai3_the_number_of_reinforcement_dice_is_refused_with_its_clause_and_bounds():
    with pytest.raises(ai.BadArgument) as refused:
        ai.reinforcement_threshold(5, ai.MAX_K + 1)
    assert str(refused.value) == (f"AI-3: the number of reinforcement dice must be from 0 to {ai.MAX_K} "
                                  f"(got {ai.MAX_K + 1})")


def test_ai11_house_tables_that_are_not_an_object_are_refused_with_the_clause():
    with pytest.raises(SettingsError) as refused:
        ai.result_cell({"house_tables": ["minor"]}, "minor", "attack", "defend")
    assert str(refused.value) == "AI-11: the house tables must be an object of tiers"


def test_a_generals_bad_name_is_refused_naming_the_name_field():
    s = setup(a_general={"name": 5, "level": 1, "traits": []})
    with pytest.raises(ValueError) as refused:
        ai.normalize_setup(s)
    assert str(refused.value) == "Army 1 (North), general: the name must be text"


def test_switched_must_be_a_pair_says_so():
    game = declare(game_of(setup()), "attack", "defend")
    st = replay(game)
    with pytest.raises(ai.BadArgument) as refused:
        ai.resolve(st, st.bids, ai.Rolls((0, 0), (None, None)), switched="yes")
    assert str(refused.value) == "switched must be a pair of true/false, one per side"


def test_the_range_rolls_must_be_a_pair_says_so_word_for_word():
    game = declare(game_of(setup()), "attack", "defend")
    st = replay(game)
    with pytest.raises(ai.BadArgument) as refused:
        ai.resolve(st, st.bids, ai.Rolls((0, 0), (None,)))
    assert str(refused.value) == "The range rolls must be a pair, one per side (None where nothing is rolled)"


def test_undo_warning_refuses_a_position_past_the_history_naming_it():
    game = declare(game_of(setup()), "attack", "defend")
    with pytest.raises(ai.BadArgument) as refused:
        ai.undo_warning(game, len(game.actions) + 1)
    assert str(refused.value) == f"The history position must be from 0 to {len(game.actions)} (got {len(game.actions) + 1})"


def test_ai6_week_odds_use_the_groups_target_number():
    rules = {"success": "d6/5+"}
    st = replay(declare(game_of(setup(), rules), "attack", "defend"))
    pools = [ai.dice_pool(st, s, st.bids[s].maneuver) for s in (0, 1)]
    assert ai.week_odds(st) == ai.tier_odds(pools[0].dice, pools[1].dice, 6, 5)
    assert ai.week_odds(st) != ai.tier_odds(pools[0].dice, pools[1].dice, 6, 4)


def test_ai16_counter_attack_after_a_shock_attack_may_switch():
    game = declare(game_of(setup(a_general=gen(2))), "defend", "shock", ["counter_attack"])
    st = replay(game)
    assert ai.can_counter_attack(st, 0)
    game = declare(game_of(setup(a_general=gen(2))), "defend", "skirmish", ["counter_attack"])
    assert not ai.can_counter_attack(replay(game), 0)


def test_hr_ai_3_a_surviving_rearguard_stays_rearguard_and_the_result_names_each_sides_vanguard():
    north = [unit("N1"), unit("N2"), unit("N3")]
    s = setup(a_units=north, b_units=[unit("S1"), unit("S2")])
    s["armies"][0]["rearguard"] = 2
    st = replay(game_of(s))
    army = st.armies[0]
    # N2 (neither vanguard nor rearguard) is destroyed: both keep their places.
    assert ai._line_up(army, (False, True, False), 0, 2) == (0, 2)
    # The vanguard N1 is destroyed: the first line unit left (N2) takes it, N3 stays rearguard.
    assert ai._line_up(army, (True, False, False), 0, 2) == (1, 2)
    game = declare(game_of(s), "defend", "defend")  # AI-10: drawn, no result, nothing rolled
    st = replay(game)
    result = ai.resolve(st, st.bids, ai.Rolls((0, 0), (None, None)))
    assert result.vanguards == (st.vanguards[0], st.vanguards[1])
    assert result.rearguards == (2, st.rearguards[1])


def test_hr_ai_4_deceptions_scouting_dice_are_the_best_scout_reinforced_by_the_others_only():
    # Two scouts of mobility 5: the best one's 5 dice, reinforced by the other's 5 (AI-3: 10
    # are needed for a die), so +5 — the best scout never reinforces itself (that would be +6).
    scouts = [unit(f"Scout{i}", mobility=5, traits=("scout",)) for i in range(2)]
    st = replay(game_of(setup(a_units=[unit("N1"), *scouts], a_general=gen(2))))
    plain = ai.dice_pool(st, 0, "withdraw")
    deceived = ai.dice_pool(st, 0, "withdraw", ["deception"])
    assert deceived.dice - plain.dice == 5
    assert "AI-16 Deception: +5 scouting dice (HR-AI-4)" in deceived.notes


def test_ai19_the_first_army_falls_back_as_the_second_does():
    # The mirror of test_ascension_referee's fallback: North defends, South attacks and wins by 3.
    big = unit("Big", 9, 9, 9, traits=("infantry", "line"), size=99)
    game = declare(game_of(setup([dict(big)], [dict(big)], b_general=gen(3))), "defend", "attack")
    st = replay(game)
    pools = [p.dice for p in ai._week_pools(st)]
    dice = [[1] * pools[0], [6] * 3 + [1] * (pools[1] - 3)]
    spans = ai.casualty_ranges(st, st.bids, (0, 3))
    st = replay(apply(game, {"type": "roll", "dice": dice, "ranges": [s[0] if s else None for s in spans]}))
    assert st.weeks[-1].fell_back == (True, False) and st.phase == "over"
    assert st.outcome.startswith("AI-19: North (Defend) lost by a major victory to Attack and falls back — "
                                 "South holds the field")


def test_a_negative_rearguard_asked_of_the_odds_is_refused_with_its_bound():
    from engine.ascension_odds import outcome_odds

    st = replay(game_of(setup()))
    with pytest.raises(ai.BadArgument) as refused:
        outcome_odds(st, ({"maneuver": "withdraw", "rearguard": -1}, {"maneuver": "attack"}))
    assert str(refused.value) == "The rearguard (a unit number) must be 0 or more (got -1)"


def test_a_game_with_a_redo_stack_is_never_taken_for_an_earlier_spectators_copy():
    # The earlier public_game made copies with seed 0 and no redo stack: a game whose position
    # is behind its actions (undone moves kept for redo) was not made by it.
    actions = [{"type": "bid", "side": 0, "maneuver": "attack", "stratagems": []},
               {"type": "bid", "side": 1, "maneuver": "defend", "stratagems": []},
               {"type": "reveal"}]
    whole = {"seed": 0, "actions": actions, "position": 3}
    assert ai._looks_like_old_copy(whole)
    assert not ai._looks_like_old_copy({**whole, "position": 2})


def test_ai15_a_destroyed_army_has_no_dice_and_no_line_unit():
    from .test_ascension import week

    game = week(game_of(setup([unit("A", 1, 1, 1)], [unit("Z", 1, 1, 1, size=9)])), "attack", "attack",
                dice=[[1], [1]])
    st = replay(game)
    assert st.outcome == "AI-15: North is destroyed — South holds the field"
    pool = ai.dice_pool(st, 0, "defend")
    assert (pool.maneuver, pool.stat, pool.line_unit, pool.dice, pool.reinforcing) == ("defend", "defense", None, 0, ())
