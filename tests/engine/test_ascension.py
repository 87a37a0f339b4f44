"""Ascension Isle (engine.ascension): tests citing AI-1 … AI-18."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ascension as ai
from engine import codec
from engine.ascension import FALLBACK_NOTE, MANEUVERS, MATCHUPS, SOURCE_TABLES, matchup
from engine.game import ActionError, RuleError, apply, history, replay, undo
from engine.game import new_game as _new_game
from engine.rules import SettingsError


def new_game(kind, setup, rules=None, seed=None):
    """A battle of these tests: they enter its dice, so it is played with the table's own
    (HR-AI-7: with the app's dice entered dice are refused, issue 35) unless ``rules`` says."""
    return _new_game(kind, setup, {"dice": ai.DICE_TABLE, **(rules or {})}, seed)


#: The source's two tables, copied verbatim (tabs included) from seed 004_e3218ecbf04204cd.txt.
SOURCE_TEXT = 'Drawn Combat (equal rolls)\nResults\tWithdraw\tDefend\tBlock\tSkirmish\tAttack\tShock Attack\nWithdraw\tWithdraw Succeeds - may disengage in three hex arc from route\tWithdraw Succeeds - must head back up route\tWithdraw fails - remain in hex next turn\tWithdraw Succeeds - may disengage in three hex arc from route\tWithdraw Succeeds\tWithdraw Succeeds - inflict 0-1 casualties\nDefend\tNo result\tNo result\tNo result\tDefend Succeeds - inflict 0-1 casualties\tDefend Succeeds - inflict 0-1 casualties\tDefend Succeeds - inflict 1 casualty\nBlock\tBlock Succeeds -Inflict 1-2 casualties\tNo result\tNo result\tNo result\tBlock Succeeds - inflict 0-1 casualties\tBlock Succeeds - Inflict 1 casualty\nSkirmish\tNo result\tNo result\tNo result\tNo result\tInflict 0-1 casualties\tInflict 1 casualty\nAttack\tInflict 0-1 casualties\tInflict 0-1 casualties\tInflict 0-1 casualties\tNo result\tInflict 1 casualty\tInflict 1-2 casualties\nShock Attack\tInflict 1 casualty\tInflict 0-1 casualties\tInflict 0-1 casualties\tInflict 0-1 casualties\tInflict 1 casualty\tInflict 1-5 casualties\n\nMinor victory (win by 1-2 successes)\nResults\tWithdraw\tDefend\tBlock\tSkirmish\tAttack\tShock Attack\nWithdraw\tWithdraw Succeeds - may disengage in three hex arc from route\tWithdraw Succeeds - must head back up route\tWithdraw fails - remain in hex next turn\tWithdraw Succeeds - may disengage in three hex arc from route\tWithdraw Succeeds\tWithdraw Succeeds - inflict 0-1 casualties\nDefend\tNo result\tNo result\tNo result\tDefend Succeeds - inflict 0-1 casualties\tDefend Succeeds - inflict 0-1 casualties\tDefend Succeeds - inflict 1 casualty\nBlock\tBlock Succeeds -Inflict 1-2 casualties\tNo result\tNo result\tNo result\tBlock Succeeds - inflict 0-1 casualties\tBlock Succeeds - Inflict 1 casualty\nSkirmish\tNo result\tNo result\tNo result\tNo result\tInflict 0-1 casualties\tInflict 1 casualty\nAttack\tInflict 0-1 casualties\tInflict 0-1 casualties\tInflict 0-1 casualties\tNo result\tInflict 1 casualty\tInflict 1-2 casualties\nShock Attack\tInflict 1 casualty\tInflict 0-1 casualties\tInflict 0-1 casualties\tInflict 0-1 casualties\tInflict 1 casualty\tInflict 1-5 casualties'

NAMES = {"Withdraw": "withdraw", "Defend": "defend", "Block": "block", "Skirmish": "skirmish",
         "Attack": "attack", "Shock Attack": "shock"}


def parse_source_tables() -> dict[str, dict[str, dict[str, str]]]:
    tables: dict[str, dict[str, dict[str, str]]] = {}
    current = None
    for line in SOURCE_TEXT.splitlines():
        if not line.strip():
            continue
        if line.startswith("Drawn Combat"):
            current = tables.setdefault("drawn", {})
        elif line.startswith("Minor victory"):
            current = tables.setdefault("minor", {})
        elif line.startswith("Results\t"):
            cols = [NAMES[c] for c in line.split("\t")[1:]]
        else:
            row, *cells = line.split("\t")
            assert current is not None and len(cells) == 6
            current[NAMES[row]] = dict(zip(cols, cells))
    return tables


def unit(name="Div", attack=5, defense=6, mobility=2, traits=("infantry", "line"), armour=0, size=0):
    return {"name": name, "attack": attack, "defense": defense, "mobility": mobility,
            "traits": list(traits), "armour": armour, "size": size}


def army(name, units, vanguard=0, rearguard=None, general=None):
    out = {"name": name, "units": units, "vanguard": vanguard, "general": general}
    if rearguard is not None:
        out["rearguard"] = rearguard
    return out


def gen(level, traits=()):
    return {"name": "General", "level": level, "traits": list(traits)}


def setup(a_units=None, b_units=None, a_general=None, b_general=None, **kw):
    return {"armies": [army("North", a_units or [unit("N1")], general=a_general, **kw),
                       army("South", b_units or [unit("S1")], general=b_general)]}


def week(game, m0, m1, s0=(), s1=(), **roll):
    game = apply(game, {"type": "bid", "side": 0, "maneuver": m0, "stratagems": list(s0)})
    game = apply(game, {"type": "bid", "side": 1, "maneuver": m1, "stratagems": list(s1)})
    game = apply(game, {"type": "reveal"})
    return apply(game, {"type": "roll", **roll})


# ---------------------------------------------------------------------------
# AI-3, AI-4, AI-5: reinforcement dice


def test_ai3_progression_10_30_70_150_310():
    thresholds = [ai.reinforcement_threshold(5, k) for k in range(1, 6)]
    assert thresholds == [10, 30, 70, 150, 310]
    for k, t in enumerate(thresholds, start=1):
        assert ai.reinforcement_dice(5, t) == k
        assert ai.reinforcement_dice(5, t - 1) == k - 1


def test_ai3_three_division_corps_rolls_6_dice():
    game = new_game("battle", setup([ai.jibril_division() for _ in range(3)]), seed=1)
    pool = ai.dice_pool(replay(game), 0, "attack")
    assert (pool.base, pool.rest_total, pool.reinforcement, pool.dice) == (5, 10, 1, 6)
    assert pool.next_needs == 20  # 30 − 10: strength needed for the next die
    assert ai.dice_pool(replay(game), 0, "defend").dice == 7  # 6 + (12 ≥ 12)
    assert ai.dice_pool(replay(game), 0, "skirmish").dice == 3  # 2 + (4 ≥ 4)


def test_ai4_47_divisions_roll_9_dice_not_10():
    # AI-4: the source's 235 → 10 dice contradicts its progression; the progression wins.
    assert ai.reinforcement_dice(5, 46 * 5) == 4
    assert 5 + ai.reinforcement_dice(5, 230) == 9
    assert ai.reinforcement_dice(5, 309) == 4 and ai.reinforcement_dice(5, 310) == 5
    game = new_game("battle", setup([ai.jibril_division() for _ in range(47)]), seed=1)
    assert ai.dice_pool(replay(game), 0, "attack").dice == 9


def test_ai5_base_zero_counts_as_one():
    assert ai.reinforcement_dice(0, 0) == 0
    assert ai.reinforcement_dice(0, 2) == 1
    assert ai.reinforcement_dice(0, 6) == 2
    assert ai.reinforcement_threshold(0, 1) == 2


@pytest.mark.parametrize("base, rest", [(-1, 0), (3, -2)])
def test_ai3_negative_stat_is_refused(base, rest):
    with pytest.raises(ValueError, match="negative"):
        ai.reinforcement_dice(base, rest)


@given(st.integers(0, 50), st.integers(0, 5000))
def test_ai3_largest_k_property(base, rest):
    k = ai.reinforcement_dice(base, rest)
    b = max(base, 1)
    assert rest >= (2 ** (k + 1) - 2) * b
    assert rest < (2 ** (k + 2) - 2) * b
    assert ai.next_die_needs(base, rest) == (2 ** (k + 2) - 2) * b - rest > 0


# ---------------------------------------------------------------------------
# AI-8, AI-9: tiers


@pytest.mark.parametrize("margin, tier", [(0, "drawn"), (1, "minor"), (2, "minor"), (3, "major"), (5, "major"),
                                          (6, "crushing"), (9, "crushing"), (10, "crushing"), (40, "crushing"),
                                          (-4, "major")])
def test_ai8_tier_edges(margin, tier):
    assert ai.victory_tier(margin) == tier


def test_ai9_legendary_only_for_a_skilled_general():
    assert ai.victory_tier(9, skilled_general=True) == "crushing"
    assert ai.victory_tier(10, skilled_general=True) == "legendary"
    assert ai.victory_tier(10, skilled_general=False) == "crushing"


def test_ai9_level_3_is_skilled_in_a_battle():
    s = setup([unit("N1", attack=20)], [unit("S1", defense=0)], a_general=gen(3))
    game = new_game("battle", s, seed=1)
    game = week(game, "attack", "defend", dice=[[6] * 20, []])
    w = replay(game).weeks[-1]
    assert (w.margin, w.tier, w.winner) == (20, "legendary", 0)
    assert w.cells[0].origin == "fallback" and FALLBACK_NOTE in w.cells[0].note


# ---------------------------------------------------------------------------
# AI-10, AI-11, AI-12: tables


def test_ai10_tables_exactly_as_the_source():
    assert parse_source_tables() == {t: {r: dict(c) for r, c in SOURCE_TABLES[t].items()} for t in ("drawn", "minor")}


def test_ai11_missing_tiers_fall_back_to_minor_and_say_so():
    for tier in ("major", "crushing", "legendary"):
        cell = ai.result_cell({}, tier, "shock", "shock")
        assert cell.origin == "fallback" and cell.text == SOURCE_TABLES["minor"]["shock"]["shock"]
        assert cell.note == "AI-11: table not in the rules — falling back to Minor victory"
    assert ai.result_cell({}, "minor", "shock", "shock").origin == "source"


def test_ai12_cell_effects():
    assert ai.cell_effect("Inflict 1-5 casualties") == ai.CellEffect(None, (1, 5))
    assert ai.cell_effect("Block Succeeds -Inflict 1-2 casualties") == ai.CellEffect(None, (1, 2))
    assert ai.cell_effect("Defend Succeeds - inflict 1 casualty") == ai.CellEffect(None, (1, 1))
    assert ai.cell_effect("Withdraw fails - remain in hex next turn") == ai.CellEffect(False, None)
    assert ai.cell_effect("Withdraw Succeeds - inflict 0-1 casualties") == ai.CellEffect(True, (0, 1))
    assert ai.cell_effect("No result") == ai.CellEffect(None, None)


def _margin_dice(pool_a, pool_b, margin_for_a):
    """Dice that give side 0 ``margin_for_a`` more successes than side 1 (d6, 4+)."""
    hits_b = 0 if margin_for_a >= 0 else -margin_for_a
    hits_a = max(margin_for_a, 0)
    return [[6] * hits_a + [1] * (pool_a - hits_a), [6] * hits_b + [1] * (pool_b - hits_b)]


@pytest.mark.parametrize("tier, margin", [("drawn", 0), ("minor", 2), ("major", 4), ("crushing", 7)])
@pytest.mark.parametrize("perspective", [0, 1])
def test_ai10_every_cell_reached_from_both_perspectives(tier, margin, perspective):
    # Big pools (attack/defense/mobility 9) so any margin can be rolled with any maneuver.
    big = unit("Big", 9, 9, 9, traits=("infantry", "line", "scout"), size=99)
    seen = set()
    for own, other in itertools.product(MANEUVERS, MANEUVERS):
        game = new_game("battle", setup([dict(big)], [dict(big)]), seed=5)
        m0, m1 = (own, other) if perspective == 0 else (other, own)
        signed = margin if perspective == 0 else -margin
        game = week(game, m0, m1, dice=_margin_dice(9, 9, signed))
        w = replay(game).weeks[-1]
        cell = w.cells[perspective]
        assert (w.tier, cell.own, cell.other) == (tier, own, other)
        expected = SOURCE_TABLES[tier if tier in SOURCE_TABLES else "minor"][own][other]
        assert cell.text == expected
        rng_range = w.ranges[perspective]
        if rng_range:
            assert rng_range[0] <= w.rolled[perspective] <= rng_range[1]
        seen.add((own, other))
    assert len(seen) == 36


def test_ai12_range_rolled_uniformly_and_shown():
    rolls = set()
    for seed in range(60):
        game = new_game("battle", setup([unit("N", attack=1, size=99)], [unit("S", attack=1, size=99)]), seed=seed)
        game = week(game, "shock", "shock", dice=[[1], [1]])
        w = replay(game).weeks[-1]
        assert w.ranges == ((1, 5), (1, 5))
        rolls.add(w.rolled[0])
        assert w.taken == (w.rolled[1], w.rolled[0])
    assert rolls == {1, 2, 3, 4, 5}


def test_ai11_house_table_is_used_validated_and_survives_a_link():
    house = {"major": {"attack": {"defend": "Attack Succeeds - inflict 3 casualties"}}}
    rules = {"house_tables": house}
    s = setup([unit("N", attack=9, size=99)], [unit("S", defense=1, size=99)])
    game = new_game("battle", s, rules, seed=2)
    game = week(game, "attack", "defend", dice=[[6, 6, 6, 6, 1, 1, 1, 1, 1], [1]])
    w = replay(game).weeks[-1]
    assert w.tier == "major" and w.cells[0].origin == "house" and w.rolled[0] == 3 and w.taken[1] == 3
    back = codec.decode_share(codec.encode_share(game))
    assert back == game and dict(back.rules)["house_tables"] == house
    with pytest.raises(SettingsError, match="unknown column"):
        new_game("battle", s, {"house_tables": {"major": {"attack": {"charge": "x"}}}})
    with pytest.raises(SettingsError, match="at most 20"):
        new_game("battle", s, {"house_tables": {"major": {"attack": {"defend": "inflict 1-99 casualties"}}}})
    with pytest.raises(SettingsError, match="empty"):
        new_game("battle", s, {"house_tables": {"drawn": {"attack": {"defend": "  "}}}})


# ---------------------------------------------------------------------------
# AI-6: success setting and exact odds


def test_ai6_success_setting_default_and_variant():
    assert ai.success_setting({}) == (6, 4)
    assert ai.success_setting({"success": "d10/7+"}) == (10, 7)
    with pytest.raises(SettingsError):
        new_game("battle", setup(), {"success": "d12/4+"})
    with pytest.raises(SettingsError):
        new_game("battle", setup(), {"success": "d6/7+"})
    assert ai.count_successes([1, 2, 3, 4, 5, 6]) == 3
    assert ai.count_successes([7, 8, 9, 10, 6], 10, 7) == 4


def test_ai6_variant_changes_the_count():
    s = setup([unit("N", attack=2, size=9)], [unit("S", defense=2, size=9)])
    game = new_game("battle", s, {"success": "d8/6+"}, seed=3)
    game = week(game, "attack", "defend", dice=[[5, 6], [8, 8]])
    assert replay(game).weeks[-1].successes == (1, 2)
    with pytest.raises(RuleError, match="AI-6: each of North's dice must be a whole number from 1 to 8"):
        week(new_game("battle", s, {"success": "d8/6+"}, seed=3), "attack", "defend", dice=[[9, 1], [1, 1]])


def brute_force(n0, n1, die, target, skilled=(False, False)):
    out = {"drawn": Fraction(0), "sides": ({}, {})}
    total = 0
    counts = {}
    for roll in itertools.product(range(1, die + 1), repeat=n0 + n1):
        a = ai.count_successes(roll[:n0], die, target)
        b = ai.count_successes(roll[n0:], die, target)
        counts[a - b] = counts.get(a - b, 0) + 1
        total += 1
    for margin, c in counts.items():
        p = Fraction(c, total)
        if margin == 0:
            out["drawn"] += p
        else:
            s = 0 if margin > 0 else 1
            tier = ai.victory_tier(abs(margin), skilled[s])
            out["sides"][s][tier] = out["sides"][s].get(tier, 0) + p
    return out


@pytest.mark.parametrize("n0, n1, die, target", [(0, 0, 6, 4), (3, 2, 6, 4), (4, 1, 6, 2), (2, 3, 8, 6),
                                                 (1, 4, 10, 10), (5, 0, 6, 4)])
def test_ai6_exact_odds_match_brute_force(n0, n1, die, target):
    exact = ai.tier_odds(n0, n1, die, target)
    brute = brute_force(n0, n1, die, target)
    assert exact["drawn"] == brute["drawn"]
    for s in (0, 1):
        for tier, p in exact["sides"][s].items():
            assert p == brute["sides"][s].get(tier, 0)


def test_ai9_legendary_odds_only_for_the_skilled_side():
    odds = ai.tier_odds(12, 1, 6, 2, skilled=(True, False))
    assert "legendary" in odds["sides"][0] and "legendary" not in odds["sides"][1]
    assert odds["sides"][0]["legendary"] > 0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 40), st.integers(0, 40), st.sampled_from([(6, 4), (8, 5), (10, 7), (6, 2)]),
       st.booleans(), st.booleans())
def test_ai8_odds_sum_to_one(n0, n1, setting, k0, k1):
    odds = ai.tier_odds(n0, n1, *setting, skilled=(k0, k1))
    assert odds["drawn"] + sum(odds["sides"][0].values()) + sum(odds["sides"][1].values()) == 1


# ---------------------------------------------------------------------------
# AI-13: matchups


def test_ai13_matchups_as_stated():
    assert matchup("withdraw", "defend") == "strong"
    assert matchup("withdraw", "block") == "weak" and matchup("withdraw", "skirmish") == "weak"
    assert matchup("block", "shock") == "weak" and matchup("shock", "block") == "strong"
    assert matchup("attack", "defend") == ""
    assert sum(len(s) + len(w) for s, w in MATCHUPS.values()) == 17


# ---------------------------------------------------------------------------
# AI-14, AI-15: casualties, armour, size, mitigation


def test_ai14_armour_does_not_carry_size_does():
    armoured = unit("Tank", attack=1, defense=1, mobility=1, armour=2)
    big = unit("Horde", attack=1, defense=1, mobility=1, size=2)
    foe = unit("Foe", attack=1, size=99)
    # Each week South attacks with "Inflict 1 casualty" (attack vs attack) on North.
    for u, survives_two_weeks in ((armoured, True), (big, False)):
        game = new_game("battle", setup([u], [foe]), seed=4)
        game = week(game, "attack", "attack", dice=[[1], [1]])
        assert replay(game).destroyed[0] == (False,)
        game = week(game, "attack", "attack", dice=[[1], [1]])
        assert replay(game).destroyed[0] == ((False,) if survives_two_weeks else (True,))
    # Armour 2 falls to 2 casualties in one week (South shock vs shock rolls 1-5).
    game = new_game("battle", setup([armoured], [foe]), seed=4)
    game = week(game, "shock", "shock", dice=[[1], [1]], ranges=[1, 2])
    w = replay(game).weeks[-1]
    assert replay(game).destroyed[0] == (True,) and w.lost[0] == ("Tank",)


def test_hr_ai_1_2_casualties_land_on_the_line_unit_first():
    north = [unit("Line A", attack=1, defense=1), unit("Line B", attack=1, defense=1), unit("Guns", traits=["long range"])]
    game = new_game("battle", setup(north, [unit("Foe", attack=1, size=99)]), seed=4)
    game = week(game, "shock", "shock", dice=[[1, 1, 1], [1]], ranges=[1, 2])
    st_ = replay(game)
    assert st_.destroyed[0] == (True, True, False)
    assert st_.vanguards[0] == 2  # HR-AI-3: no line unit left, the guns hold the line


def test_ai15_defend_mitigates_attack_casualties():
    s = setup([unit("N", defense=4, size=99)], [unit("S", attack=1, size=99)])
    game = new_game("battle", s, seed=4)
    # Defend wins 3–0: a major victory; South (attack vs defend) inflicts 0-1 → roll 1, mitigated.
    game = week(game, "defend", "attack", dice=[[6, 6, 6, 1], [1]], ranges=[1, 1])
    w = replay(game).weeks[-1]
    assert w.mitigation[0] == 3 and w.mitigated[0] == 1 and w.rolled[1] == 1 and w.taken[0] == 0
    assert "AI-15: North's Defend cancels 1 of the 1 casualty it would take" in w.notes


def test_ai15_hold_the_line_stops_mitigation():
    s = setup([unit("N", defense=4, size=99)], [unit("S", attack=1, size=99)], a_general=gen(1))
    game = new_game("battle", s, seed=4)
    game = week(game, "defend", "attack", ["hold_the_line"], dice=[[6, 6, 6, 1], [1]], ranges=[1, 1])
    w = replay(game).weeks[-1]
    assert w.mitigated[0] == 0 and w.taken[0] == 1


def test_ai15_withdraw_success_ends_the_battle():
    game = new_game("battle", setup(), seed=4)
    game = week(game, "withdraw", "defend", dice=[[1, 1], [1] * 6])
    st_ = replay(game)
    assert st_.phase == "over" and "North withdraws" in st_.outcome


def test_ai15_leave_only_after_the_opponent_skirmished():
    game = new_game("battle", setup([unit(size=9)], [unit(size=9)]), seed=4)
    with pytest.raises(RuleError, match="AI-15"):
        apply(game, {"type": "leave", "side": 0})
    game = week(game, "attack", "skirmish", dice=[[1] * 5, [1, 1]])
    game = apply(game, {"type": "leave", "side": 0})
    assert replay(game).phase == "over"


def test_ai15_battle_goes_week_after_week():
    game = new_game("battle", setup([unit(size=99)], [unit(size=99)]), {"dice": ai.DICE_APP}, seed=9)
    for _ in range(3):
        game = week(game, "attack", "defend")
    st_ = replay(game)
    assert st_.week == 4 and len(st_.weeks) == 3 and st_.phase == "bid"


# ---------------------------------------------------------------------------
# AI-16, AI-17: stratagems


def test_ai16_prerequisites():
    plain = replay(new_game("battle", setup(), seed=1))
    assert [s.key for s in ai.offered_stratagems(plain, 0, "withdraw")] == []
    assert [s.key for s in ai.offered_stratagems(plain, 0, "block")] == ["ambush"]  # AI-16: needs nothing
    lvl2 = replay(new_game("battle", setup(a_general=gen(2, ["observer"])), seed=1))
    assert [s.key for s in ai.offered_stratagems(lvl2, 0, "withdraw")] == ["deception", "covering_fire", "last_stand"]
    assert [s.key for s in ai.offered_stratagems(lvl2, 0, "defend")] == ["hold_the_line", "counter_attack"]
    assert "hammer_and_anvil" not in [s.key for s in ai.offered_stratagems(lvl2, 0, "block")]
    lvl3 = replay(new_game("battle", setup(a_general=gen(3)), seed=1))
    assert "hammer_and_anvil" in [s.key for s in ai.offered_stratagems(lvl3, 0, "block")]
    many = replay(new_game("battle", setup([unit(f"D{i}") for i in range(20)]), seed=1))
    assert "continuous_front" in [s.key for s in ai.offered_stratagems(many, 0, "defend")]
    nineteen = replay(new_game("battle", setup([unit(f"D{i}") for i in range(19)]), seed=1))
    assert not ai.can_use_stratagem(nineteen, 0, "continuous_front", "defend")
    with pytest.raises(RuleError, match="^AI-16: Continuous Front needs at least 20 infantry divisions"):
        ai.check_stratagem(nineteen, 0, "continuous_front", "defend")
    with pytest.raises(RuleError, match="AI-16"):
        apply(new_game("battle", setup(), seed=1), {"type": "bid", "side": 0, "maneuver": "withdraw",
                                                     "stratagems": ["deception"]})
    with pytest.raises(RuleError, match="HR-AI-5"):
        apply(new_game("battle", setup(a_general=gen(0, ["observer"])), seed=1),
              {"type": "bid", "side": 0, "maneuver": "defend", "stratagems": ["harassing_fire"]})


def test_ai16_counter_attack_switches_without_reinforcement_and_feint_cancels():
    s = setup([unit("N1"), unit("N2"), unit("N3")], a_general=gen(2), b_general=gen(3))
    game = new_game("battle", s, {"dice": ai.DICE_APP}, seed=1)
    game = apply(game, {"type": "bid", "side": 0, "maneuver": "defend", "stratagems": ["counter_attack"]})
    with pytest.raises(RuleError):
        apply(game, {"type": "counter_attack", "side": 0})  # not before the reveal
    game = apply(game, {"type": "bid", "side": 1, "maneuver": "attack"})
    game = apply(game, {"type": "reveal"})
    game = apply(game, {"type": "counter_attack", "side": 0})
    pool = ai.dice_pool(replay(game), 0, "defend", ["counter_attack"], switched=True)
    assert pool.dice == 5 and pool.stat == "attack"
    game = apply(game, {"type": "roll"})
    assert replay(game).weeks[-1].maneuvers[0] == "attack"
    feint = apply(apply(apply(new_game("battle", s, seed=1),
                              {"type": "bid", "side": 0, "maneuver": "defend", "stratagems": ["counter_attack"]}),
                        {"type": "bid", "side": 1, "maneuver": "attack", "stratagems": ["feint"]}), {"type": "reveal"})
    with pytest.raises(RuleError, match="Feint"):
        apply(feint, {"type": "counter_attack", "side": 0})


def test_ai16_withdraw_pools():
    north = [unit("Line", mobility=2), unit("Scout", mobility=4, traits=["scout"]),
             unit("Guns", defense=8, mobility=1, traits=["long range"]), unit("Inf", mobility=9)]
    game = new_game("battle", setup(north, a_general=gen(2, ["observer"]), rearguard=0), seed=1)
    st_ = replay(game)
    plain = ai.dice_pool(st_, 0, "withdraw")
    assert (plain.base, plain.rest_total, plain.dice) == (2, 4, 3)  # only the scout reinforces
    cover = ai.dice_pool(st_, 0, "withdraw", ["covering_fire"])
    assert cover.rest_total == 12 and cover.dice == 2 + 2
    last = ai.dice_pool(st_, 0, "withdraw", ["last_stand"])
    assert last.stat == "defense" and last.base == 6
    deception = ai.dice_pool(st_, 0, "withdraw", ["deception"])
    assert deception.extra == 4 and deception.dice == plain.dice + 4


def test_ai16_last_stand_destroys_rearguard_and_reinforcements_on_success():
    north = [unit("Line", defense=3, size=9), unit("Scout", defense=3, traits=["scout"], size=9),
             unit("Reserve", size=9)]
    game = new_game("battle", setup(north, a_general=gen(1)), seed=1)
    game = week(game, "withdraw", "attack", ["last_stand"], dice=[[1, 1, 1], [1] * 5], ranges=[0, 0])
    st_ = replay(game)
    assert st_.phase == "over" and st_.destroyed[0] == (True, True, False)


def test_ai16_harassing_fire_reads_skirmish():
    north = [unit("Line"), unit("Guns", defense=3, traits=["long range"], size=9)]
    s = setup(north, a_general=gen(0, ["observer"]))
    game = new_game("battle", s, seed=1)
    game = week(game, "defend", "block", ["harassing_fire"], dice=[[1, 1, 1], [1] * 6])
    w = replay(game).weeks[-1]
    assert w.read_as[0] == "skirmish" and w.cells[0].own == "skirmish" and w.pools[0].base == 3


def test_ai16_delay_mitigates_half_the_successes():
    s = setup([unit("N", defense=5, size=99)], [unit("S", attack=1, size=99)], a_general=gen(2))
    game = new_game("battle", s, seed=1)
    game = week(game, "block", "shock", ["delay"], dice=[[6, 6, 1, 1, 1], [1]], ranges=[1, 1])
    w = replay(game).weeks[-1]
    assert w.mitigated[0] == 1 and w.rolled[1] == 1 and w.taken[0] == 0
    plain = week(new_game("battle", s, seed=1), "block", "shock", dice=[[6, 6, 1, 1, 1], [1]], ranges=[1, 1])
    assert replay(plain).weeks[-1].taken[0] == 1


def test_ai17_no_effect_stratagem_is_recorded_and_says_so():
    game = new_game("battle", setup(a_general=gen(3)), {"dice": ai.DICE_APP}, seed=1)
    game = week(game, "attack", "defend", ["flanking"])
    w = replay(game).weeks[-1]
    assert w.stratagems[0] == ("flanking",)
    assert any("AI-17" in n and "the invigilator decides" in n for n in w.notes)


# ---------------------------------------------------------------------------
# AI-7: blind bid; spectator copies; AI-18


def test_ai7_bids_are_secret_until_the_reveal():
    game = new_game("battle", setup(a_general=gen(3)), seed=1)
    game = apply(game, {"type": "bid", "side": 0, "maneuver": "shock", "stratagems": ["surprise"]})
    assert "shock" not in " ".join(history(game)).lower()
    pub = ai.public_game(game)
    assert "shock" not in repr(pub.actions) and "surprise" not in repr(pub.actions)
    assert "shock" not in codec.encode_share(pub)  # payload is compressed: check the decoded game too
    # Who declared is public (a sealed placeholder); what is not.
    assert codec.decode_share(codec.encode_share(pub)).actions == ({"type": "bid", "side": 0, "sealed": True},)
    with pytest.raises(RuleError, match="AI-7"):
        apply(game, {"type": "reveal"})
    with pytest.raises(RuleError, match="AI-7"):
        apply(game, {"type": "bid", "side": 0, "maneuver": "attack"})
    game = apply(game, {"type": "bid", "side": 1, "maneuver": "defend"})
    assert [a.get("sealed") for a in ai.public_game(game).actions] == [True, True]
    game = apply(game, {"type": "reveal"})
    assert any(a.get("maneuver") == "shock" for a in ai.public_game(game).actions)


def test_public_game_replays_the_same_battle_without_the_seed():
    game = new_game("battle", ai.example_setup(), {"dice": ai.DICE_APP}, seed=77)
    for m0, m1 in (("attack", "defend"), ("skirmish", "block")):
        if replay(game).phase == "over":
            break
        game = week(game, m0, m1)
    game = apply(game, {"type": "bid", "side": 0, "maneuver": "withdraw"})
    pub = ai.public_game(game)
    assert pub.seed == 0
    full, spect = replay(game), replay(pub)
    assert spect.weeks == full.weeks and spect.destroyed == full.destroyed
    assert spect.bids == (ai.Bid("", (), None, True), None)  # declared, not shown
    assert ai.status(spect).endswith("Jibril Corps has declared; waiting for Zone Army (AI-7)")
    assert codec.decode_share(codec.encode_share(pub)) == pub


def test_redo_rolls_the_same_dice():
    game = week(new_game("battle", ai.example_setup(), {"dice": ai.DICE_APP}, seed=5), "attack", "defend")
    again = apply(undo(game), {"type": "roll"})
    assert replay(again).weeks[-1].dice == replay(game).weeks[-1].dice


def test_ai18_phase_checklist_toggles_and_resets_each_week():
    game = new_game("battle", setup([unit(size=9)], [unit(size=9)]), seed=1)
    game = apply(game, {"type": "phase", "index": 2})
    game = apply(game, {"type": "phase", "index": 0})
    assert replay(game).phases_done == (0, 2)
    game = apply(game, {"type": "phase", "index": 2})
    assert replay(game).phases_done == (0,)
    with pytest.raises(ActionError):
        apply(game, {"type": "phase", "index": 10})
    game = week(game, "attack", "defend", dice=[[1] * 5, [1] * 6])
    assert replay(game).phases_done == ()


# ---------------------------------------------------------------------------
# Setup validation (AI-1)


@pytest.mark.parametrize("bad, message", [
    ({"armies": []}, "exactly 2"),
    (setup([unit(traits=["scout"])]), "AI-1: the vanguard"),
    (setup([unit(attack=-1)]), "attack"),
    (setup([unit(traits=["flying"])]), "unknown trait"),
    (setup(a_general=gen(4)), "level"),
    (setup([unit(name="<b>x</b>\ny")]), "control"),
])
def test_ai1_setup_is_validated(bad, message):
    with pytest.raises(ai.SetupError, match=message):
        ai.normalize_setup(bad)


def test_malformed_actions_are_refused():
    game = new_game("battle", setup(), seed=1)
    for action in ({"type": "bid", "side": 2, "maneuver": "attack"}, {"type": "bid", "side": 0, "maneuver": "charge"},
                   {"type": "fly"}, {"type": "bid", "side": 0, "maneuver": "attack", "stratagems": "x"}):
        with pytest.raises(ActionError):
            apply(game, action)
    with pytest.raises(RuleError, match="AI-7"):
        apply(game, {"type": "roll"})
