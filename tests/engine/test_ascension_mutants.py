"""Ascension Isle: what a sample of mutation testing found untested (issue 20, item 8).

Each test pins a rule or a refusal that a seeded bug (mutmut, `make mutate
MUTANTS='engine.ascension.*__mutmut_*17'`, then the seeded sample `make mutate
MUTANTS='engine.ascension.*' SAMPLE=250`) changed without any other test noticing.
"""

from __future__ import annotations

import pytest

from engine import ascension as ai
from engine.game import ActionError, RuleError, apply, new_game, replay
from engine.rules import SettingsError

from .test_ascension import gen, setup, unit, week
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
    assert ai.line_up(army, (False, True, False), 0, 2) == (0, 2)
    # The vanguard N1 is destroyed: the first line unit left (N2) takes it, N3 stays rearguard.
    assert ai.line_up(army, (True, False, False), 0, 2) == (1, 2)
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
    pools = [p.dice for p in ai.week_pools(st)]
    dice = [[1] * pools[0], [6] * 3 + [1] * (pools[1] - 3)]
    spans = ai.casualty_ranges(st, st.bids, (0, 3))
    st = replay(apply(game, {"type": "roll", "dice": dice, "ranges": [s[0] if s else None for s in spans]}))
    assert st.weeks[-1].fell_back == (True, False) and st.phase == "over"
    assert st.outcome.startswith("AI-19: North (Defend) lost by a major victory to Attack and falls back — "
                                 "South holds the field")


def test_a_negative_rearguard_asked_of_the_odds_is_refused_with_its_bound():
    st = replay(game_of(setup()))
    with pytest.raises(ai.BadArgument) as refused:
        ai.outcome_odds(st, ({"maneuver": "withdraw", "rearguard": -1}, {"maneuver": "attack"}))
    assert str(refused.value) == "The rearguard (a unit number) must be 0 or more (got -1)"


def test_a_game_with_a_redo_stack_is_never_taken_for_an_earlier_spectators_copy():
    # The earlier public_game made copies with seed 0 and no redo stack: a game whose position
    # is behind its actions (undone moves kept for redo) was not made by it.
    actions = [{"type": "bid", "side": 0, "maneuver": "attack", "stratagems": []},
               {"type": "bid", "side": 1, "maneuver": "defend", "stratagems": []},
               {"type": "reveal"}]
    whole = {"kind": "battle", "seed": 0, "rules": {}, "setup": setup(), "actions": actions, "position": 3}
    assert ai.upgrade(whole)["setup"].get("spectator") is True
    assert "spectator" not in ai.upgrade({**whole, "position": 2})["setup"]


def test_ai15_a_destroyed_army_has_no_dice_and_no_line_unit():
    game = week(game_of(setup([unit("A", 1, 1, 1)], [unit("Z", 1, 1, 1, size=9)])), "attack", "attack",
                dice=[[1], [1]])
    st = replay(game)
    assert st.outcome == "AI-15: North is destroyed — South holds the field"
    pool = ai.dice_pool(st, 0, "defend")
    assert (pool.maneuver, pool.stat, pool.line_unit, pool.dice, pool.reinforcing) == ("defend", "defense", None, 0, ())


# ------------------------------------------------ from the seeded sample (SAMPLE=250, seed 1)

def test_ai15_defend_against_a_skirmish_may_cancel_casualties_too():
    s = setup([unit("N", defense=4, size=99)], [unit("S", mobility=1, size=99)])
    game = new_game("battle", s, {"dice": ai.DICE_TABLE}, seed=4)
    game = week(game, "defend", "skirmish", dice=[[6, 6, 6, 1], [1]], ranges=[1, None])
    w = replay(game).weeks[-1]
    assert w.maneuvers == ("defend", "skirmish") and w.mitigation == (3, 0)


def test_ai15_either_army_may_leave_after_the_other_skirmished():
    game = week(game_of(setup([unit("N", size=99)], [unit("S", size=99)])), "skirmish", "defend",
                dice=[[1, 1], [1, 1, 1, 1, 1, 1]])
    st = replay(game)
    assert st.outcome == ""  # the battle goes on
    assert ai.can_leave(st, 1) and not ai.can_leave(st, 0)


def test_hr_ai_7_whose_dice_is_said_from_the_groups_rules():
    assert ai.equipment(setup()) == "The app's dice: the app rolls."
    assert ai.equipment(setup(), {"dice": ai.DICE_TABLE}) == "Our own dice: the table rolls real dice and enters them."


def test_an_app_army_with_an_unknown_level_plays_at_normal():
    assert ai.app_levels({"armies": [{"controller": "app", "level": "godlike"}, {}]}) == ("normal", None)


def test_a_pool_says_which_maneuver_it_rolls_for_and_a_counter_attack_rolls_as_an_attack():
    st = replay(game_of(setup([unit("A"), unit("B")])))
    assert ai.dice_pool(st, 0, "defend").maneuver == "defend"
    assert ai.dice_pool(st, 0, "defend", switched=True).maneuver == "attack"


def test_a_dice_pool_past_the_largest_is_refused_and_a_huge_number_is_not_printed_whole():
    with pytest.raises(ai.BadArgument) as refused:
        ai.success_distribution(ai.MAX_POOL + 1)
    assert str(refused.value) == f"A dice pool must be from 0 to {ai.MAX_POOL} (got {ai.MAX_POOL + 1})"
    with pytest.raises(ai.BadArgument) as refused:
        ai.success_distribution(10**20)
    assert str(refused.value) == f"A dice pool must be from 0 to {ai.MAX_POOL} (got a huge number)"


@pytest.mark.parametrize("call, message", [
    (lambda: ai.reinforcement_dice("x", 3), "AI-3: the base stat must be a whole number (got 'x')"),
    (lambda: ai.success_chance(7, 4), "AI-6: the die is a d6, d8 or d10 (got 7)"),
    (lambda: ai.tier_odds(3, 3, skilled=(True, "no")), "skilled[1] must be true or false (got 'no')"),
])
def test_helper_refusals_name_the_argument_and_show_the_value(call, message):
    with pytest.raises(ai.BadArgument) as refused:
        call()
    assert str(refused.value) == message


def _with(**fields):
    """The default setup with these fields set on the first army."""
    s = setup()
    s["armies"][0].update(fields)
    return s


@pytest.mark.parametrize("s, message", [
    (_with(controller="app", level="godlike"),
     'Army 1 (North): the app\'s level is easy, normal or hard (got "godlike")'),
    (setup([dict(unit(), name=5)]), "Army 1 (North), unit 1: the name must be text"),
    (_with(rearguard="x"),
     'Army 1 (North): the rearguard (a unit number) must be a whole number from 0 to 0 (got "x")'),
    (setup(a_general={"name": "G", "level": "x", "traits": []}),
     'Army 1 (North), general: the level must be a whole number from 0 to 3 (got "x")'),
])
def test_setup_refusals_say_where(s, message):
    with pytest.raises(ValueError) as refused:
        ai.normalize_setup(s)
    assert str(refused.value) == message


def test_resolve_refusals_name_the_rearguard_and_the_switch():
    st = replay(declare(game_of(setup([unit("A"), unit("B")])), "withdraw", "defend"))
    with pytest.raises(ai.BadArgument) as refused:
        ai.resolve(st, (ai.Bid("withdraw", (), 9), ai.Bid("defend")), ai.Rolls((0, 0)))
    assert str(refused.value) == "The rearguard must be a unit number from 0 to 1 (got 9)"
    with pytest.raises(ai.BadArgument) as refused:
        ai.resolve(st, st.bids, ai.Rolls((0, 0)), switched=(False, "no"))
    assert str(refused.value) == "switched[1] must be true or false (got 'no')"
    with pytest.raises(ai.BadArgument) as refused:
        ai.dice_pool(st, 0, "withdraw", rearguard=7)
    assert str(refused.value) == "The rearguard must be a unit number from 0 to 1 (got 7)"


def test_ai7_the_week_odds_wait_for_both_bids():
    with pytest.raises(RuleError) as refused:
        ai.week_odds(replay(game_of(setup())))
    assert str(refused.value) == "AI-7: both sides must declare (and reveal) before the roll"


def test_action_refusals_cite_their_clause_and_count_dice_in_words():
    game = declare(game_of(setup([unit("N", attack=1)])), "attack", "defend")
    with pytest.raises(RuleError) as refused:
        apply(game, {"type": "roll", "dice": [[1, 1], [1]]})
    assert str(refused.value) == "AI-3: North rolls 1 die this week"
    with pytest.raises(RuleError) as refused:
        apply(game_of(setup()), {"type": "bid", "side": 0, "sealed": True})
    assert str(refused.value) == ("AI-7: a sealed bid belongs only in a spectator's copy; "
                                  "a bid names its maneuver")


def test_ai16_a_refused_counter_attack_keeps_an_army_name_with_a_colon_whole():
    s = setup(a_general=gen(2))
    s["armies"][1]["name"] = "Red: Guard"
    game = declare(game_of(s), "defend", "skirmish", ["counter_attack"])
    with pytest.raises(RuleError) as refused:
        apply(game, {"type": "counter_attack", "side": 0})
    assert str(refused.value) == ("AI-16: Counter Attack switches to Attack only after the enemy declares "
                                  "Attack or Shock Attack (Red: Guard declared Skirmish)")


def test_a_correction_names_the_unit_and_the_history_says_what_changed():
    game = game_of(setup([unit("N1"), unit("N2")]))
    with pytest.raises(ActionError) as refused:
        apply(game, {"type": "correct", "side": 0, "index": 1, "unit": dict(unit("N2"), attack="x")})
    assert str(refused.value) == 'North, unit 2 (N2): the attack must be a whole number from 0 to 99 (got "x")'
    game = apply(game, {"type": "correct", "side": 0, "index": 0, "unit": unit("N1", traits=())})
    # N1 is no line unit any more: the line passes to N2 (HR-AI-3), said in the same entry
    assert replay(game).changes[-1][1] == ("North: N1 corrected (traits infantry, line → none); "
                                           "HR-AI-3: N2 is now the vanguard of North")


def test_an_old_game_with_an_action_that_is_not_an_object_is_not_an_earlier_spectators_copy():
    assert "spectator" not in ai.upgrade({"seed": 0, "actions": [5], "setup": setup()})["setup"]


# ------------------------------------------------ from the second seeded sample (seed 2)

def test_hr_ai_3_when_the_rearguard_falls_the_next_line_unit_takes_it_in_the_battles_state():
    s = setup([unit("N1", attack=1, size=1), unit("N2", attack=1, size=99)], [unit("S", attack=1, size=99)])
    st = replay(week(new_game("battle", s, {"dice": ai.DICE_TABLE}, seed=4), "shock", "shock", dice=[[1], [6]],
                     ranges=[1, 2]))
    assert st.destroyed[0] == (True, False)
    assert (st.vanguards, st.rearguards) == ((1, 0), (1, 0)) == (st.weeks[-1].vanguards, st.weeks[-1].rearguards)


@pytest.mark.parametrize("index", [2, 3])
def test_a_correction_of_a_unit_past_the_army_is_refused_with_the_army_size(index):
    game = game_of(setup([unit("N1"), unit("N2")]))
    with pytest.raises(ActionError) as refused:
        apply(game, {"type": "correct", "side": 0, "index": index, "unit": unit("N2")})
    assert str(refused.value) == f"The unit (a unit number) must be a whole number from 0 to 1 (got {index})"
