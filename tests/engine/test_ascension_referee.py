"""Ascension Isle as a referee that cannot be fooled (issue 20), and the rulings it implements:
AI-1, AI-2, AI-7, AI-10 (variant), AI-14, AI-15, AI-16's table, AI-17, AI-19, and old games
upgraded so that they replay as they were played.
"""

from __future__ import annotations

import base64
import json
import zlib

import pytest

from engine import ascension as ai
from engine import codec
from engine import game as games
from engine.game import ActionError, RuleError, apply, history, new_game, replay

from .test_ascension import gen, setup, unit, week


def game_of(s, rules=None, seed=1):
    """A battle whose dice the tests enter: the table's own (HR-AI-7, issue 35) unless ``rules`` says."""
    return new_game("battle", s, {"dice": ai.DICE_TABLE, **(rules or {})}, seed)


def state_of(s, rules=None):
    return replay(game_of(s, rules))


def declare(game, m0, m1, s0=(), s1=(), **extra):
    game = apply(game, {"type": "bid", "side": 0, "maneuver": m0, "stratagems": list(s0), **extra})
    game = apply(game, {"type": "bid", "side": 1, "maneuver": m1, "stratagems": list(s1)})
    return apply(game, {"type": "reveal"})


def offered(st, side, maneuver):
    return [s.key for s in ai.offered_stratagems(st, side, maneuver)]


# ---------------------------------------------------------------------------
# Games as values: the caller cannot rewrite a stored game afterwards


def test_a_roll_dice_list_changed_afterwards_does_not_change_the_stored_game():
    north = [ai.jibril_division(f"J{i}") for i in range(3)]
    south = [unit("Levy", attack=1, defense=4, mobility=1, size=3), unit("Reserve", 1, 2, 1)]
    game = declare(game_of(setup(north, south)), "attack", "defend")
    d = [[1] * 6, [6] * 4]
    game = apply(game, {"type": "roll", "dice": d})
    before = codec.dumps(game)
    d[1][:] = [1] * 4
    assert codec.dumps(game) == before
    fresh = games.Game(game.kind, game.seed, json.loads(json.dumps(game.rules)),
                       json.loads(json.dumps(game.setup)), tuple(json.loads(json.dumps(a)) for a in game.actions),
                       game.position)
    assert replay(fresh).weeks[-1].successes == (0, 4) == replay(game).weeks[-1].successes
    with pytest.raises(TypeError):
        game.actions[-1]["dice"][1][0] = 1  # a game's record cannot be changed
    with pytest.raises(TypeError):
        game.setup["armies"][0]["name"] = "x"


# ---------------------------------------------------------------------------
# normalize_action: exact shape, canonical, numbers in range


def test_bids_are_canonical_stratagems_in_table_order_and_a_withdraw_names_its_rearguard():
    s = setup([unit("N1"), unit("Scout", traits=["scout", "observer"])], a_general=gen(3))
    game = game_of(s)
    st = replay(game)
    assert ai.normalize_action(st, {"type": "bid", "side": 0, "maneuver": "attack"}) == \
        {"type": "bid", "side": 0, "maneuver": "attack", "stratagems": []}
    assert ai.normalize_action(st, {"type": "bid", "side": 0, "maneuver": "attack",
                                    "stratagems": ["feint", "flanking"]})["stratagems"] == ["flanking", "feint"]
    # AI-2: the rearguard is named with each Withdraw (the setup's choice by default), never otherwise.
    assert ai.normalize_action(st, {"type": "bid", "side": 0, "maneuver": "withdraw"})["rearguard"] == 0
    assert ai.normalize_action(st, {"type": "bid", "side": 0, "maneuver": "withdraw", "rearguard": 1}) == \
        {"type": "bid", "side": 0, "maneuver": "withdraw", "stratagems": [], "rearguard": 1}
    with pytest.raises(RuleError, match="AI-2: only a Withdraw names a rearguard"):
        ai.normalize_action(st, {"type": "bid", "side": 0, "maneuver": "attack", "rearguard": 0})
    with pytest.raises(ActionError, match="rearguard"):
        ai.normalize_action(st, {"type": "bid", "side": 0, "maneuver": "withdraw", "rearguard": 2})
    stored = apply(game, {"type": "bid", "side": 0, "maneuver": "withdraw", "stratagems": ["covering_fire",
                                                                                          "deception"]})
    assert stored.actions[-1] == {"type": "bid", "side": 0, "maneuver": "withdraw",
                                  "stratagems": ["deception", "covering_fire"], "rearguard": 0}


@pytest.mark.parametrize("action, error, message", [
    ({"type": "bid", "side": 0, "maneuver": "attack", "colour": "red"}, ActionError, "no field 'colour'"),
    ({"type": "bid", "side": True, "maneuver": "attack"}, ActionError, "side"),
    ({"type": "bid", "side": 2, "maneuver": "attack"}, ActionError, "side"),
    ({"type": "bid", "side": 0, "maneuver": "ATTACK"}, ActionError, "maneuver"),
    ({"type": "bid", "side": 0}, ActionError, "needs its 'maneuver'"),
    ({"type": "bid", "side": 0, "maneuver": "attack", "stratagems": ["flanking", "flanking"]}, ActionError,
     "at most once"),
    ({"type": "bid", "side": 0, "maneuver": "attack", "stratagems": "flanking"}, ActionError, "list"),
    ({"type": "bid", "side": 0, "maneuver": "block", "stratagems": ["breakthrough"]}, RuleError,
     "no stratagem"),
    ({"type": "bid", "side": 0, "sealed": True}, RuleError, "only in a spectator's copy"),
    ({"type": "reveal", "now": True}, ActionError, "no field 'now'"),
    ({"type": "roll"}, RuleError, "AI-7"),
    ({"type": "counter_attack", "side": 0}, RuleError, "AI-16"),
    ({"type": "leave", "side": 1}, RuleError, "AI-15"),
    ({"type": "phase", "index": 10}, ActionError, "0 to 9"),
    ({"type": "phase", "index": True}, ActionError, "turn phase"),
    ({"type": "phase", "index": 1, "on": True}, ActionError, "no field"),
    ({"type": "fly"}, ActionError, "Unknown action type"),
    ({"side": 0}, ActionError, "Unknown action type"),
])
def test_malformed_or_forbidden_actions_are_refused_and_change_nothing(action, error, message):
    game = game_of(setup(a_general=gen(1)))
    before = codec.dumps(game)
    with pytest.raises(error, match=message):
        apply(game, action)
    with pytest.raises(error, match=message):
        ai.step(replay(game), action, game.rules, None)  # step refuses the same (a replay calls only step)
    assert codec.dumps(game) == before


def revealed_defend_v_defend():
    return declare(game_of(setup([unit("N", defense=2, size=9)], [unit("S", defense=2, size=9)])), "defend",
                   "defend")


def test_ai14_casualty_rolls_are_checked_a_cell_without_a_range_rolls_nothing():
    game = revealed_defend_v_defend()  # Defend v Defend: "No result" both ways
    with pytest.raises(RuleError, match="AI-14: North's cell inflicts no casualties: it rolls nothing"):
        apply(game, {"type": "roll", "dice": [[1, 1], [1, 1]], "ranges": [999, -5]})
    with pytest.raises(RuleError, match="AI-14"):
        apply(game, {"type": "roll", "dice": [[1, 1], [1, 1]], "ranges": [None, 1]})
    # "0" where nothing is rolled is no roll at all: the canonical action drops it.
    done = apply(game, {"type": "roll", "dice": [[1, 1], [1, 1]], "ranges": [0, None]})
    assert done.actions[-1] == {"type": "roll", "dice": [[1, 1], [1, 1]]}
    # A range is checked against the cell the dice give (Shock v Shock: 1–5).
    shock = declare(game_of(setup([unit("N", attack=1, size=9)], [unit("S", attack=1, size=9)])), "shock", "shock")
    with pytest.raises(RuleError, match="AI-14: South's casualty roll must be a whole number from 1 to 5"):
        apply(shock, {"type": "roll", "dice": [[1], [1]], "ranges": [3, 6]})
    with pytest.raises(RuleError, match="HR-AI-7: this battle is played with the table's own dice"):
        apply(shock, {"type": "roll", "ranges": [3, 3]})  # the cell is not known before the dice
    kept = apply(shock, {"type": "roll", "dice": [[1], [1]], "ranges": [3, None]})  # None: the app rolls it
    assert kept.actions[-1] == {"type": "roll", "dice": [[1], [1]], "ranges": [3, None]}
    w = replay(kept).weeks[-1]
    assert w.rolled[0] == 3 and 1 <= w.rolled[1] <= 5


def test_entered_dice_are_checked_against_the_pool_and_the_success_rule():
    game = revealed_defend_v_defend()
    with pytest.raises(RuleError, match="AI-3: North rolls 2 dice this week"):
        apply(game, {"type": "roll", "dice": [[1, 1, 1], [1, 1]]})
    with pytest.raises(RuleError, match="AI-6: each of South's dice must be a whole number from 1 to 6"):
        apply(game, {"type": "roll", "dice": [[1, 1], [1, 7]]})
    with pytest.raises(RuleError, match="AI-6: South's successes must be a whole number from 0 to 2"):
        apply(game, {"type": "roll", "successes": [0, 3]})
    with pytest.raises(ActionError, match="not both"):
        apply(game, {"type": "roll", "dice": [[1, 1], [1, 1]], "successes": [0, 0]})
    counted = apply(game, {"type": "roll", "successes": [2, 1]})
    w = replay(counted).weeks[-1]
    assert w.successes == (2, 1) and w.dice is None and w.tier == "minor"


def test_hr_ai_7_with_the_tables_own_dice_the_app_never_rolls():
    rules = {"dice": "table"}
    game = declare(game_of(setup([unit("N", attack=1, size=9)], [unit("S", attack=1, size=9)]), rules),
                   "shock", "shock")
    with pytest.raises(RuleError, match="HR-AI-7"):
        apply(game, {"type": "roll"})
    done = apply(game, {"type": "roll", "dice": [[4], [2]], "ranges": [2, None]})  # one range entered, one rolled
    w = replay(done).weeks[-1]
    assert w.successes == (1, 0) and w.rolled[0] == 2 and w.ranges[1] == (1, 5)
    assert history(done)[-1] == "Week 1 · dice entered"


def test_join_and_correct_between_weeks_recorded_in_the_history():
    s = setup([unit("N1", size=3), unit("N2")], [unit("S1", size=9)])
    game = game_of(s)
    reserve = unit("Reserve Division", 3, 3, 3)
    game = apply(game, {"type": "join", "side": 0, "unit": reserve})
    st = replay(game)
    assert [u.name for u in st.armies[0].units] == ["N1", "N2", "Reserve Division"]
    assert st.destroyed[0] == (False, False, False) and st.damage[0] == (0, 0, 0)
    assert ai.dice_pool(st, 0, "attack").rest_total == 5 + 3
    fixed = dict(unit("N2", attack=4), traits=["infantry"])
    game = apply(game, {"type": "correct", "side": 0, "index": 1, "unit": fixed})
    assert game.actions[-1]["unit"]["traits"] == ["infantry", "line"]  # AI-1: infantry implies line
    assert replay(game).armies[0].units[1].attack == 4
    assert history(game)[-2:] == ["Week 1 · Reserve Division joins North", "Week 1 · North: N2 corrected"]
    assert replay(game).changes[-1] == (1, "North: N2 corrected (attack 5 → 4)")
    with pytest.raises(ActionError, match="nothing to correct"):
        apply(game, {"type": "correct", "side": 0, "index": 1, "unit": fixed})
    with pytest.raises(RuleError, match="AI-14"):
        apply(game, {"type": "join", "side": 1, "unit": unit("Both", armour=2, size=2)})
    with pytest.raises(ActionError, match='unknown field "speed"'):
        apply(game, {"type": "join", "side": 1, "unit": {**unit("X"), "speed": 3}})
    # Not while a side has declared: only between weeks.
    bid = apply(game, {"type": "bid", "side": 1, "maneuver": "attack"})
    with pytest.raises(RuleError, match="between weeks"):
        apply(bid, {"type": "join", "side": 0, "unit": reserve})
    # A size unit's carried damage stays with it; its size cannot drop to what it has taken.
    hurt = week(game, "defend", "shock", dice=[[1] * 6, [1] * 5], ranges=[None, 1])
    assert replay(hurt).damage[0][0] == 1
    with pytest.raises(RuleError, match="N1 has taken 1 casualties: its size must be more than 1"):
        apply(hurt, {"type": "correct", "side": 0, "index": 0, "unit": unit("N1", size=1)})


def test_hr_ai_3_a_joining_line_unit_takes_the_vanguard_back_and_the_army_is_told():
    north = [unit("Line", attack=1, defense=1), unit("Guns", attack=1, defense=1, traits=["long range"], size=9)]
    game = week(game_of(setup(north, [unit("Foe", attack=1, size=99)])), "attack", "attack",
                dice=[[1], [1]])
    st = replay(game)
    w = st.weeks[-1]
    assert st.destroyed[0] == (True, False) and st.vanguards[0] == 1
    assert ("HR-AI-3: North has no line unit left: Guns (not a line unit) stands in the line as its vanguard, "
            "and the army fights on") in w.notes
    game = apply(game, {"type": "join", "side": 0, "unit": unit("Fresh Line")})
    st = replay(game)
    assert st.vanguards[0] == 2
    assert "HR-AI-3: Fresh Line is now the vanguard of North" in st.changes[-1][1]
    assert "fights on" in ai.HOUSE_RULES["HR-AI-3"] and "joins later" in ai.HOUSE_RULES["HR-AI-3"]


# ---------------------------------------------------------------------------
# AI-16's table: the prerequisites exactly


@pytest.mark.parametrize("key, maneuver", [("encirclement", "block"), ("raid", "skirmish"),
                                           ("guerrilla", "skirmish"), ("flanking", "attack"),
                                           ("feint", "attack"), ("surprise", "shock"),
                                           ("hammer_and_anvil", "block")])
def test_ai16_skilled_general_stratagems_need_a_level_3_general(key, maneuver):
    for general, allowed in ((None, False), (gen(2), False), (gen(3), True)):
        st = state_of(setup(a_general=general))
        assert (key in offered(st, 0, maneuver)) is allowed
        assert ai.can_use_stratagem(st, 0, key, maneuver) is allowed
    with pytest.raises(RuleError, match="North has no general"):
        ai.check_stratagem(state_of(setup()), 0, key, maneuver)
    with pytest.raises(RuleError, match="level 2"):
        ai.check_stratagem(state_of(setup(a_general=gen(2))), 0, key, maneuver)


@pytest.mark.parametrize("key, maneuver, level", [("deception", "withdraw", 2), ("last_stand", "withdraw", 1),
                                                  ("hold_the_line", "defend", 1), ("counter_attack", "defend", 2),
                                                  ("delay", "block", 2)])
def test_ai16_level_prerequisites(key, maneuver, level):
    assert key not in offered(state_of(setup(a_general=gen(level - 1))), 0, maneuver)
    assert key in offered(state_of(setup(a_general=gen(level))), 0, maneuver)
    assert key not in offered(state_of(setup()), 0, maneuver)


def test_ai16_ambush_needs_nothing_and_only_the_right_maneuver_is_offered():
    st = state_of(setup())
    assert offered(st, 0, "block") == ["ambush"]
    for m in ("withdraw", "defend", "skirmish", "attack"):
        assert offered(st, 0, m) == []
    with pytest.raises(RuleError, match="modifies Block, not Attack"):
        ai.check_stratagem(st, 0, "ambush", "attack")


def test_ai16_speed_needs_the_larger_skirmish_pool():
    fast = [unit("Riders", mobility=6)]
    slow = [unit("Foot", mobility=2)]
    st = state_of(setup(fast, slow))
    assert "speed" in offered(st, 0, "shock") and "speed" not in offered(st, 1, "shock")
    with pytest.raises(RuleError) as refused:
        ai.check_stratagem(st, 1, "speed", "shock")
    assert refused.value.rule_id == "AI-16" and str(refused.value) == (
        "AI-16: Speed needs faster units: South's Skirmish pool (2 dice) must be larger than North's (6 dice)")
    ai.check_stratagem(st, 0, "speed", "shock")  # allowed: nothing raised
    even = state_of(setup([unit("A", mobility=3)], [unit("B", mobility=3)]))
    assert "speed" not in offered(even, 0, "shock")


def test_ai16_observer_and_infantry_prerequisites():
    guns = unit("Guns", defense=3, traits=["long range"])
    assert "covering_fire" not in offered(state_of(setup([unit("N"), guns])), 0, "withdraw")
    assert "covering_fire" in offered(state_of(setup([unit("N"), guns], a_general=gen(0, ["observer"]))), 0,
                                      "withdraw")
    spotters = unit("Spotters", traits=["observer"])
    assert "covering_fire" in offered(state_of(setup([unit("N"), spotters])), 0, "withdraw")
    # Harassing Fire: Defend or Block, an observer, and a long-range unit (HR-AI-5).
    both = state_of(setup([unit("N"), guns, spotters]))
    assert "harassing_fire" in offered(both, 0, "defend") and "harassing_fire" in offered(both, 0, "block")
    assert "harassing_fire" not in offered(state_of(setup([unit("N"), spotters])), 0, "block")
    # AI-1 ruling: "20 infantry divisions" counts units with the infantry trait (line alone does not).
    lines = [unit(f"L{i}", traits=["line"]) for i in range(25)]
    assert "continuous_front" not in offered(state_of(setup(lines)), 0, "defend")
    infantry = [unit(f"I{i}", traits=["infantry"]) for i in range(20)]
    assert "continuous_front" in offered(state_of(setup(infantry)), 0, "defend")


def test_ai16_harassing_fire_with_block_reads_skirmish_and_rolls_long_range_defense():
    north = [unit("Line", defense=6), unit("Guns", defense=3, traits=["long range", "observer"], size=9)]
    game = declare(game_of(setup(north)), "block", "withdraw", ["harassing_fire"])
    st = replay(game)
    pool = ai.dice_pool(st, 0, "block", ["harassing_fire"])
    assert (pool.line_unit, pool.base, pool.dice) == (1, 3, 3)
    game = apply(game, {"type": "roll", "dice": [[1, 1, 1], [1, 1]]})
    w = replay(game).weeks[-1]
    assert w.read_as[0] == "skirmish" and w.cells[0].own == "skirmish"


def test_ai16_covering_fire_a_long_range_scout_adds_mobility_and_defense_never_a_stat_twice():
    north = [unit("Rear", defense=2, mobility=2), unit("Long Scout", defense=5, mobility=3,
                                                       traits=["scout", "long range", "observer"]),
             unit("Guns", defense=4, mobility=1, traits=["long range"]), unit("Scout", defense=1, mobility=2,
                                                                               traits=["scout"])]
    st = state_of(setup(north, a_general=gen(1), rearguard=0))
    plain = ai.dice_pool(st, 0, "withdraw")
    assert plain.rest_total == 3 + 2  # only scouts: their mobility
    cover = ai.dice_pool(st, 0, "withdraw", ["covering_fire"])
    assert cover.rest_total == (3 + 2) + (5 + 4)  # + long-range defense, the scout's too
    assert cover.reinforcing == (1, 3, 2)  # each unit once
    last = ai.dice_pool(st, 0, "withdraw", ["covering_fire", "last_stand"])
    assert last.stat == "defense" and last.rest_total == (5 + 1) + 4  # the long-range scout's defense once
    # The rearguard (the base) never reinforces itself.
    rear_is_guns = ai.dice_pool(st, 0, "withdraw", ["covering_fire"], rearguard=2)
    assert rear_is_guns.base == 1 and rear_is_guns.rest_total == (3 + 2) + 5


def test_ai17_effect_not_given_texts_and_feint():
    for strat in ai.STRATAGEMS:
        if strat.effect is None:
            assert strat.says == "effect not given in the rules — the invigilator decides"
    feint = ai.STRATAGEM_BY_KEY["feint"]
    assert feint.says.startswith("cancels the enemy's Counter Attack")
    assert "any other effect is not given in the rules — the invigilator decides" in feint.says
    assert "Feint" in ai.STRATAGEM_BY_KEY["counter_attack"].says


def test_ai16_counter_attack_and_feint_cancel_each_other_and_the_reveal_says_so():
    s = setup([unit("N1"), unit("N2")], a_general=gen(2), b_general=gen(3))
    game = declare(game_of(s, {"dice": ai.DICE_APP}), "defend", "attack", ["counter_attack"], ["feint"])
    st = replay(game)
    assert not ai.can_counter_attack(st, 0)
    with pytest.raises(RuleError, match="South's Feint cancels Counter Attack"):
        apply(game, {"type": "counter_attack", "side": 0})
    w = replay(apply(game, {"type": "roll"})).weeks[-1]
    assert w.maneuvers == ("defend", "attack")
    assert ("AI-16: North's Counter Attack and South's Feint cancel each other: North stays in Defend and the "
            "Feint has no effect") in w.notes
    assert not any("Feint" in n and "AI-17" in n for n in w.notes)  # cancelled: nothing for the invigilator


# ---------------------------------------------------------------------------
# AI-15: no breakthrough; AI-19: the fallback


def test_ai15_no_breakthrough_is_offered_or_named():
    game = game_of(setup())
    with pytest.raises(RuleError) as err:
        apply(game, {"type": "leave", "side": 0})
    assert "breakthrough" not in str(err.value).lower() and "flee" not in str(err.value).lower()
    texts = [s.name + s.needs + (s.effect or "") for s in ai.STRATAGEMS] + list(ai.HOUSE_RULES.values())
    assert not any("breakthrough" in t.lower() for t in texts)
    assert "breakthrough" not in ai.STRATAGEM_BY_KEY


def fallback_game(m0="attack", m1="defend", s1=(), margin=3, b_general=None, s0=()):
    big = unit("Big", 9, 9, 9, traits=("infantry", "line"), size=99)
    game = declare(game_of(setup([dict(big)], [dict(big)], b_general=b_general, a_general=gen(3))), m0, m1, s0,
                   s1)
    st = replay(game)
    pools = [p.dice for p in ai.week_pools(st)]
    dice = [[6] * margin + [1] * (pools[0] - margin), [1] * pools[1]]
    spans = ai.casualty_ranges(st, st.bids, (margin, 0))
    ranges = [s[0] if s else None for s in spans]
    return apply(game, {"type": "roll", "dice": dice, "ranges": ranges})


@pytest.mark.parametrize("m0", ["attack", "shock"])
@pytest.mark.parametrize("m1", ["defend", "block"])
def test_ai19_a_defend_or_block_beaten_by_3_by_an_attack_falls_back(m0, m1):
    st = replay(fallback_game(m0, m1, margin=3))
    w = st.weeks[-1]
    assert w.fell_back == (False, True) and st.phase == "over"
    assert st.outcome.startswith(f"AI-19: South ({ai.MANEUVER_NAMES[m1]}) lost by a major victory to "
                                 f"{ai.MANEUVER_NAMES[m0]} and falls back")
    assert ai.standing(st) == "Over in week 1 · South fell back"
    minor = replay(fallback_game(m0, m1, margin=2))
    assert minor.weeks[-1].fell_back == (False, False) and minor.phase == "bid"


def test_ai19_hold_the_line_prevents_exactly_the_fallback():
    st = replay(fallback_game("attack", "defend", ["hold_the_line"], margin=6, b_general=gen(1)))
    assert st.weeks[-1].fell_back == (False, False) and st.phase == "bid"
    assert "AI-16 Hold the Line: South cannot fall back and mitigates nothing" in st.weeks[-1].notes


def test_ai19_only_against_attack_or_shock_and_only_for_defend_or_block():
    for m0, m1 in (("skirmish", "defend"), ("withdraw", "block"), ("attack", "skirmish"), ("attack", "attack")):
        st = replay(fallback_game(m0, m1, margin=4))
        assert st.weeks[-1].fell_back == (False, False), (m0, m1)


def test_ai19_a_defend_switched_by_counter_attack_is_an_attack():
    s = setup([unit("N1", attack=9, size=99), unit("N2", size=99)], [unit("S1", defense=9, size=99)],
              a_general=gen(2))
    # North's Defend switched to Attack beats South's Block by 3: South falls back.
    game = declare(game_of(s), "defend", "attack", ["counter_attack"])
    game = apply(game, {"type": "counter_attack", "side": 0})
    pool = ai.week_pools(replay(game))
    assert pool[0].dice == 9 and pool[0].stat == "attack"
    dice = [[1] * 9, [6] * 3 + [1] * (pool[1].dice - 3)]
    st = replay(apply(game, {"type": "roll", "dice": dice}))
    assert st.weeks[-1].maneuvers[0] == "attack" and st.weeks[-1].fell_back == (False, False)  # an Attack
    assert st.phase == "bid"
    # Not switched, the same Defend beaten by 3 falls back.
    stays = declare(game_of(s), "defend", "attack", ["counter_attack"])
    pool = ai.week_pools(replay(stays))
    st = replay(apply(stays, {"type": "roll", "dice": [[1] * pool[0].dice, [6] * 3 + [1] * (pool[1].dice - 3)],
                              "ranges": [None, 1]}))
    assert st.weeks[-1].fell_back == (True, False) and st.phase == "over"


def test_ai19_old_games_keep_no_fallback_and_say_so():
    big = unit("Big", 9, 9, 9, traits=("infantry", "line"), size=99)
    s = {**setup([dict(big)], [dict(big)]), "old_rulings": True}
    game = declare(game_of(s), "attack", "defend")
    game = apply(game, {"type": "roll", "dice": [[6] * 3 + [1] * 6, [1] * 9], "ranges": [1, None]})
    st = replay(game)
    assert st.phase == "bid" and st.weeks[-1].fell_back == (False, False)
    assert any(n.startswith("AI-19 not applied: this battle was played before the fallback ruling")
               for n in st.weeks[-1].notes)
    assert history(game)[-1] == "Week 1 · dice entered (kept as played before the AI-19 ruling)"


# ---------------------------------------------------------------------------
# AI-14, AI-1, AI-10 variant


def test_ai14_a_unit_has_armour_or_size_not_both():
    with pytest.raises(ai.SetupError, match="AI-14: a unit has armour or size, not both"):
        ai.normalize_setup(setup([unit("Tank", armour=2, size=3)]))
    kept = ai.normalize_setup({**setup([unit("Tank", armour=2, size=3)]), "old_rulings": True})
    assert kept["armies"][0]["units"][0]["armour"] == 2 and kept["old_rulings"] is True


def test_ai1_infantry_implies_line():
    out = ai.normalize_setup(setup([unit("Inf", traits=["infantry"])]))
    assert out["armies"][0]["units"][0]["traits"] == ["infantry", "line"]
    assert ai.Unit("x", 1, 1, 1, ("infantry",)).is_line


def test_ai10_variant_winner_reads():
    rules = {"reads": "winner"}
    s = setup([unit("N", attack=3, mobility=3, size=99)], [unit("S", attack=3, mobility=3, size=99)])
    # Shock v Shock, North wins by 1: only North's row is applied; South inflicts nothing.
    game = declare(game_of(s, rules), "shock", "shock")
    game = apply(game, {"type": "roll", "dice": [[6, 1, 1], [1, 1, 1]], "ranges": [2, None]})
    w = replay(game).weeks[-1]
    assert w.applied == (True, False) and w.rolled == (2, 0) and w.taken == (0, 2)
    assert "AI-10 variant (winner reads): only North's row is applied; South inflicts nothing" in w.notes
    # A losing Withdraw does not get away (its own cell is not applied) …
    game = declare(game_of(s, rules), "attack", "withdraw")
    st = replay(apply(game, {"type": "roll", "dice": [[6, 1, 1], [1, 1, 1]], "ranges": [1, None]}))
    assert st.weeks[-1].withdrew == (False, False) and st.phase == "bid"
    # … and with the source's reading it does.
    plain = declare(game_of(s), "attack", "withdraw")
    st = replay(apply(plain, {"type": "roll", "dice": [[6, 1, 1], [1, 1, 1]], "ranges": [1, None]}))
    assert st.weeks[-1].withdrew == (False, True) and st.phase == "over"
    # A drawn combat is read by both.
    drawn = declare(game_of(s, rules), "shock", "shock")
    w = replay(apply(drawn, {"type": "roll", "dice": [[1] * 3, [1] * 3], "ranges": [1, 1]})).weeks[-1]
    assert w.applied == (True, True) and w.taken == (1, 1)


# ---------------------------------------------------------------------------
# AI-7: undo past a reveal asks first


def test_ai7_undo_warning_only_past_a_reveal():
    game = game_of(setup([unit(size=9)], [unit(size=9)]), {"dice": ai.DICE_APP})
    game = apply(game, {"type": "bid", "side": 0, "maneuver": "attack"})
    game = apply(game, {"type": "bid", "side": 1, "maneuver": "defend"})
    game = apply(game, {"type": "reveal"})
    assert ai.undo_warning(game, 3) is None
    assert ai.undo_warning(game, 2) == ("Both bids of week 1 were seen (AI-7). Undoing lets a side bid again "
                                        "knowing the other's choice. Undo anyway?")
    game = apply(game, {"type": "roll"})
    assert ai.undo_warning(game, 3) is None  # re-rolling undoes no reveal (and rolls the same dice)
    game = week(game, "attack", "defend")
    assert "weeks 1, 2" in ai.undo_warning(game, 0)
    assert ai.undo_warning(games.undo(game), len(game.actions)) is None  # forward: nothing undone
    for bad in (-1, len(game.actions) + 1, "2", True):
        with pytest.raises(ValueError):
            ai.undo_warning(game, bad)
    with pytest.raises(ValueError):
        ai.undo_warning("game", 0)


def test_ai7_undoing_a_sealed_bid_asks_first_and_says_whose():
    """Issue 34, 5: the second general may not take back the first's sealed bid unasked."""
    game = game_of(setup([unit(size=9)], [unit(size=9)]), {"dice": ai.DICE_APP})
    names = [a["name"] for a in game.setup["armies"]]
    game = apply(game, {"type": "bid", "side": 0, "maneuver": "attack"})
    assert ai.undo_warning(game, 0) == (f"Undoing takes back {names[0]}'s sealed bid, not yet revealed (AI-7): "
                                        f"only {names[0]}'s general should. Undo anyway?")
    game = apply(game, {"type": "bid", "side": 1, "maneuver": "defend"})
    assert names[1] + "'s sealed bid" in ai.undo_warning(game, 1) and names[0] not in ai.undo_warning(game, 1)
    assert f"the sealed bids of {names[0]} and {names[1]}" in ai.undo_warning(game, 0)
    game = apply(game, {"type": "reveal"})
    assert "sealed" not in ai.undo_warning(game, 2)  # revealed: the AI-7 question of seen bids
    game = apply(game, {"type": "roll"})
    assert ai.undo_warning(game, 3) is None  # a roll undone takes back no bid
    game = apply(game, {"type": "bid", "side": 1, "maneuver": "block"})
    text = ai.undo_warning(game, 2)
    assert text.startswith("Both bids of week 1 were seen") and f"{names[1]}'s sealed bid" in text


def test_standing_for_the_list_of_saves():
    s = ai.example_setup()
    s["armies"][0]["name"] = "Jibril 3rd Corps"
    st = state_of(s)
    assert ai.standing(st) == "Week 1 · Jibril 3rd Corps 3 units, Zone Army 6"
    one = state_of(setup([unit("Solo")], [unit("A"), unit("B")]))
    assert ai.standing(one) == "Week 1 · North 1 unit, South 2"
    left = week(game_of(setup([unit(size=9)], [unit(size=9)])), "attack", "skirmish", dice=[[1] * 5, [1, 1]])
    assert ai.standing(replay(apply(left, {"type": "leave", "side": 0}))) == "Over in week 1 · North left the battle"


# ---------------------------------------------------------------------------
# Old saves and links (schema 2, "2" links): they open as they were played


def old_save(game_data: dict) -> dict:
    return {"app": "conflict-table", "schema": 2, "kind": "battle", "rules": {"success": "d6/4+",
                                                                               "house_tables": {}},
            "position": len(game_data["actions"]), **game_data}


def old_link(game_data: dict) -> str:
    data = old_save(game_data)
    short = {"k": "battle", "s": data["seed"], "r": data["rules"], "u": data["setup"], "a": data["actions"]}
    raw = json.dumps(short, separators=(",", ":")).encode()
    return "2" + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def fallback_history():
    """Week 1: North's Attack beats South's Defend by 6 (a fallback today); week 2 follows.
    The dice are entered: the table's own (HR-AI-7; the app's dice are never entered, issue 35)."""
    big = unit("Big", 9, 9, 9, traits=("infantry", "line"), size=99)
    return {"seed": 5, "rules": {"success": "d6/4+", "house_tables": {}, "dice": "table"},
            "setup": setup([dict(big)], [dict(big)]), "actions": [
        {"type": "bid", "side": 0, "maneuver": "attack"}, {"type": "bid", "side": 1, "maneuver": "defend"},
        {"type": "reveal"}, {"type": "roll", "dice": [[6] * 6 + [1] * 3, [1] * 9], "ranges": [1, 0]},
        {"type": "bid", "side": 0, "maneuver": "attack"}, {"type": "bid", "side": 1, "maneuver": "attack"},
        {"type": "reveal"}, {"type": "roll", "successes": [1, 1]}]}


def test_an_old_save_whose_replay_the_fallback_changes_keeps_its_old_reading():
    data = fallback_history()
    with pytest.raises(ValueError):  # today's rules refuse week 2: the battle ended in week 1
        games.validate(games.Game("battle", 5, data["rules"], data["setup"], tuple(data["actions"]), 8))
    game, _ = codec.game_from_dict(old_save(data))
    assert game.setup["old_rulings"] is True
    st = replay(game)
    assert st.week == 3 and len(st.weeks) == 2 and st.phase == "bid"
    assert any("AI-19 not applied" in n for n in st.weeks[0].notes)
    assert "kept as played before the AI-19 ruling" in history(game)[3]
    via_link = codec.decode_share(old_link(data))
    assert via_link.setup["old_rulings"] is True and replay(via_link).weeks == st.weeks
    # The flag travels on: saved again (schema 3) and opened, the game is the same.
    assert codec.loads(codec.dumps(game))[0] == game


def test_an_old_save_the_rulings_do_not_touch_is_left_as_it_is():
    data = {"seed": 9, "setup": setup([unit(size=9)], [unit(size=9)]), "actions": [
        {"type": "bid", "side": 0, "maneuver": "withdraw"}, {"type": "bid", "side": 1, "maneuver": "attack"},
        {"type": "phase", "index": 3}]}
    game, _ = codec.game_from_dict(old_save(data))
    assert "old_rulings" not in game.setup
    assert game.actions[0] == {"type": "bid", "side": 0, "maneuver": "withdraw", "stratagems": [], "rearguard": 0}


def test_old_saves_with_stratagems_armour_and_size_or_covering_fire_keep_their_reading():
    flank = {"seed": 3, "setup": setup(), "actions": [
        {"type": "bid", "side": 0, "maneuver": "attack", "stratagems": ["flanking"]},
        {"type": "bid", "side": 1, "maneuver": "defend"}, {"type": "reveal"}, {"type": "roll"}]}
    game, _ = codec.game_from_dict(old_save(flank))
    assert game.setup["old_rulings"] is True and replay(game).weeks[0].stratagems[0] == ("flanking",)
    both = {"seed": 3, "setup": setup([unit("Tank", armour=2, size=3)]), "actions": []}
    assert codec.game_from_dict(old_save(both))[0].setup["old_rulings"] is True
    scout = [unit("Rear"), unit("Long Scout", defense=9, mobility=2, traits=["scout", "long range", "observer"])]
    cover = {"seed": 4, "setup": setup(scout, a_general=gen(1)), "actions": [
        {"type": "bid", "side": 0, "maneuver": "withdraw", "stratagems": ["covering_fire"]},
        {"type": "bid", "side": 1, "maneuver": "block"}, {"type": "reveal"}, {"type": "roll"}]}
    game, _ = codec.game_from_dict(old_save(cover))
    assert game.setup["old_rulings"] is True
    pool = replay(game).weeks[0].pools[0]
    assert pool.rest_total == 2  # as played then: the scout's mobility only


def test_an_old_spectator_copy_is_recognised_and_read_only():
    data = fallback_history()
    copy = {"seed": 0, "setup": data["setup"], "actions": data["actions"][:4]}
    game, _ = codec.game_from_dict(old_save(copy))
    assert games.is_spectator(game)
    with pytest.raises(ActionError, match="spectator"):
        apply(game, {"type": "bid", "side": 0, "maneuver": "attack"})
    assert games.is_spectator(codec.decode_share(old_link(copy)))
    # A full game (its rolls carry no dice) is not taken for a copy.
    full = {"seed": 0, "setup": setup([unit(size=9)], [unit(size=9)]), "actions": [
        {"type": "bid", "side": 0, "maneuver": "attack"}, {"type": "bid", "side": 1, "maneuver": "attack"},
        {"type": "reveal"}, {"type": "roll"}]}
    assert not games.is_spectator(codec.game_from_dict(old_save(full))[0])
    pending = {"seed": 0, "setup": setup(), "actions": [{"type": "bid", "side": 0, "maneuver": "attack"}]}
    assert not games.is_spectator(codec.game_from_dict(old_save(pending))[0])


# ---------------------------------------------------------------------------
# Spectator copies (issue 21)


def test_a_spectator_copy_is_marked_takes_no_move_and_says_what_is_true():
    game = game_of(ai.example_setup(), seed=8)
    game = apply(game, {"type": "bid", "side": 0, "maneuver": "withdraw", "rearguard": 1})
    game = apply(game, {"type": "bid", "side": 1, "maneuver": "block", "stratagems": ["ambush"]})
    copy = ai.public_game(game)
    assert copy.setup["spectator"] is True and games.is_spectator(copy) and copy.seed == 0
    assert ai.status(replay(copy)) == "Week 1: both armies have declared; waiting for the reveal (AI-7)"
    for action in ({"type": "reveal"}, {"type": "bid", "side": 0, "maneuver": "attack"}):
        with pytest.raises(ActionError, match="spectator"):
            apply(copy, action)
    assert "withdraw" not in json.dumps(copy.actions) and "ambush" not in json.dumps(copy.actions)
    game = apply(game, {"type": "reveal"})
    copy = ai.public_game(game)
    assert ai.status(replay(copy)) == "Week 1: both bids are revealed; waiting for the roll"
    assert replay(copy).bids == replay(game).bids
    # A sealed bid cannot be revealed, even in a crafted copy.
    crafted = games.Game("battle", 0, {}, {**dict(game.setup), "spectator": True},
                         ({"type": "bid", "side": 0, "sealed": True}, {"type": "bid", "side": 1, "sealed": True},
                          {"type": "reveal"}), 3)
    with pytest.raises(RuleError, match="sealed"):
        games.validate(crafted)


def test_a_spectator_copy_of_entered_successes_replays_the_same():
    game = declare(game_of(setup([unit("N", attack=3, size=9)], [unit("S", attack=3, size=9)]), {"dice": "table"}),
                   "attack", "shock")
    game = apply(game, {"type": "roll", "successes": [2, 0], "ranges": [2, None]})
    copy = ai.public_game(game)
    assert copy.actions[-1] == {"type": "roll", "successes": [2, 0], "ranges": [2, 1]}
    assert replay(copy).weeks == replay(game).weeks
    assert codec.decode_share(codec.encode_share(copy)) == copy


def test_settings_summary_for_the_share_drawer():
    assert ai.settings_summary({}) == ("d6, a success on 4 or more · each side reads its own row (the source) · "
                                       "the app's dice: the app rolls · no house tables")
    line = ai.settings_summary({"success": "d10/7+", "reads": "winner", "dice": "table",
                                "house_tables": {"major": {"attack": {"defend": "Inflict 3 casualties"}}}})
    assert line.startswith("d10, a success on 7 or more · winner reads") and "our own dice" in line
    assert line.endswith("1 house table cell")
    with pytest.raises(ValueError):
        ai.settings_summary({"dice": "borrowed"})
