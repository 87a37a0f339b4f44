"""The independent Ascension Isle week reference (tests/engine/ascension_reference.py, issue 17)
checked on cases small enough to work out by hand, citing the rules they exercise."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.ascension_reference import (
    MOVEMENTS,
    Outcome,
    ReferenceInputError,
    literal_success_distribution,
    reference_odds,
    reinforcement,
    success_distribution,
    tier_of,
)

F = Fraction
HALF = F(1, 2)
#: The tables a test's house cells edit: the tiers beyond read the Minor cell (AI-11).
TIERS_READ = ("drawn", "minor")


def unit(attack=1, defense=1, mobility=1, traits=("line",), **more):
    return {"attack": attack, "defense": defense, "mobility": mobility, "traits": list(traits), **more}


def army(*units, vanguard=0, general=None, **more):
    return {"units": list(units), "vanguard": vanguard, "general": general, **more}


def bid(maneuver, *stratagems, **more):
    return {"maneuver": maneuver, "stratagems": list(stratagems), **more}


def odds(a, b, bid_a, bid_b, **rules):
    return reference_odds([a, b], [bid_a, bid_b], rules)


def general(level, *traits):
    return {"level": level, "traits": list(traits)}


# ------------------------------------------------------------------ dice (AI-3 … AI-6)

@pytest.mark.parametrize("total, dice", [(0, 0), (9, 0), (10, 1), (29, 1), (30, 2), (69, 2), (70, 3),
                                         (150, 4), (309, 4), (310, 5)])
def test_reinforcement_progression_for_a_base_of_5(total, dice) -> None:
    """AI-3: thresholds 10, 30, 70, 150, 310 for b = 5."""
    assert reinforcement(5, total) == dice


def test_the_47_division_example_and_a_base_of_0() -> None:
    assert 5 + reinforcement(5, 46 * 5) == 9                 # AI-4: 9 dice, not 10
    assert 5 + reinforcement(5, 2 * 5) == 6                  # AI-3: three divisions of attack 5
    assert [reinforcement(0, t) for t in (0, 1, 2, 5, 6, 14)] == [0, 0, 1, 1, 2, 3]   # AI-5


@pytest.mark.parametrize("dice", range(0, 5))
@pytest.mark.parametrize("die, target", [(6, 4), (6, 6), (8, 3), (10, 7)])
def test_success_distribution_enumerates_every_face(dice, die, target) -> None:
    """AI-6: die by die equals listing every face combination, equals the binomial."""
    dist = success_distribution(dice, die, target)
    assert dist == literal_success_distribution(dice, die, target)
    p = F(die - target + 1, die)
    assert dist == {k: comb(dice, k) * p ** k * (1 - p) ** (dice - k) for k in range(dice + 1)}


@pytest.mark.parametrize("margin, skilled, tier", [
    (0, True, "drawn"), (1, False, "minor"), (2, False, "minor"), (3, False, "major"), (5, True, "major"),
    (6, True, "crushing"), (9, True, "crushing"), (10, False, "crushing"), (10, True, "legendary"),
    (14, True, "legendary"),
])
def test_tiers(margin, skilled, tier) -> None:
    assert tier_of(margin, skilled) == tier                  # AI-8, AI-9


# ------------------------------------------------------------------ one die each

def test_one_die_each_attack_v_attack() -> None:
    """One d6 each at 4+: drawn 1/2, each wins a minor victory 1/4; both rows say
    "Inflict 1 casualty", so each unit (no armour, no size: HR-AI-1) is destroyed."""
    r = odds(army(unit()), army(unit()), bid("attack"), bid("attack"))
    assert r["tiers"] == {"drawn": HALF, "sides": ({"minor": F(1, 4)}, {"minor": F(1, 4)})}
    for side in r["sides"]:
        assert side["landed"] == {1: 1} and side["destroyed"] == 1 and side["loses_unit"] == 1
        # AI-20: destroyed by the week's casualties, it does not "stay in the battle".
        assert side["movement"]["stays"] == 0 and side["cells"] == {"Inflict 1 casualty": 1}
    assert r["battle_ends"] == 1
    assert sum(r["joint"].values()) == 1


def test_one_die_each_winner_reads() -> None:
    """AI-10 variant: a side takes its casualty only when the other reads: drawn (1/2) or
    the other wins (1/4)."""
    r = odds(army(unit()), army(unit()), bid("attack"), bid("attack"), winner_reads=True)
    for side in r["sides"]:
        assert side["landed"] == {0: F(1, 4), 1: F(3, 4)}
        assert side["cells"] == {"Inflict 1 casualty": F(3, 4), None: F(1, 4)}


def test_attack_v_shock_ranges_and_size() -> None:
    """Attack v Shock: the Attack row inflicts 1-2 (AI-12: 1 or 2, evenly), the Shock row 1.
    The shock army's size-2 unit is destroyed when 2 are rolled (AI-14)."""
    r = odds(army(unit(size=2)), army(unit(size=2)), bid("attack"), bid("shock"))
    attacker, shocker = r["sides"]
    assert shocker["rolled"] == {1: HALF, 2: HALF} and shocker["mean_landed"] == F(3, 2)
    assert shocker["destroyed"] == HALF
    assert attacker["landed"] == {1: 1} and attacker["destroyed"] == 0
    carried = odds(army(unit(size=2, damage=1)), army(unit(size=2)), bid("attack"), bid("shock"))
    assert carried["sides"][0]["destroyed"] == 1              # size damage carries over


def test_shock_v_shock_armour_and_size() -> None:
    """Shock v Shock inflicts 1-5. Armour 3 falls to 3+ (3/5); size 3 with 1 already taken
    to 2+ (4/5); armour ignores nothing of the past because it keeps none."""
    base = army(unit(attack=1))
    r = odds(base, army(unit(attack=1, armour=3)), bid("shock"), bid("shock"))
    assert r["sides"][1]["rolled"] == {n: F(1, 5) for n in range(1, 6)}
    assert r["sides"][1]["destroyed"] == F(3, 5)
    r = odds(base, army(unit(attack=1, size=3, damage=1)), bid("shock"), bid("shock"))
    assert r["sides"][1]["destroyed"] == F(4, 5)


def test_casualties_land_on_the_line_unit_first_then_in_list_order() -> None:
    """HR-AI-2: the vanguard (unit 1, armour 2) takes the first two, then unit 0 (HR-AI-1)
    the third; the rest has nowhere to land."""
    target = army(unit(), unit(armour=2), vanguard=1)
    r = odds(army(unit()), target, bid("shock"), bid("shock"))
    side = r["sides"][1]
    assert side["unit_destroyed"] == (F(3, 5), F(4, 5))
    assert side["loses_unit"] == F(4, 5) and side["destroyed"] == F(3, 5)
    assert side["landed"] == {1: F(1, 5), 2: F(1, 5), 3: F(3, 5)} and side["mean_landed"] == F(12, 5)
    assert side["taken"] == {n: F(1, 5) for n in range(1, 6)}
    assert side["units_lost"] == {0: F(1, 5), 1: F(1, 5), 2: F(3, 5)}


def test_destroyed_units_are_out_of_the_field() -> None:
    """A unit destroyed earlier neither reinforces nor takes casualties; indexes stay."""
    target = army(unit(defense=9, destroyed=True), unit(), vanguard=1)
    r = odds(army(unit()), target, bid("shock"), bid("defend"))
    assert r["pools"][1]["dice"] == 1 and r["pools"][1]["rest"] == 0
    assert r["sides"][1]["unit_destroyed"][0] == 0


# ------------------------------------------------------------------ mitigation (AI-15, AI-16)

def test_defend_v_attack_mitigation() -> None:
    """Defender 2 dice, attacker 1. The Attack row v Defend inflicts 0-1; the defender
    cancels it when it rolled more successes (P = 1/2): it takes 1 with P 1/2 · 1/2."""
    defender = army(unit(defense=2, size=9))
    r = odds(army(unit()), defender, bid("attack"), bid("defend"))
    side = r["sides"][1]
    assert side["rolled"] == {0: HALF, 1: HALF}
    assert side["mitigated"] == {0: F(3, 4), 1: F(1, 4)}
    assert side["landed"] == {0: F(3, 4), 1: F(1, 4)}


def test_hold_the_line_gives_up_mitigation() -> None:
    defender = army(unit(defense=2, size=9), general=general(1))
    r = odds(army(unit()), defender, bid("attack"), bid("defend", "hold_the_line"))
    assert r["sides"][1]["landed"] == {0: HALF, 1: HALF} and r["sides"][1]["mitigated"] == {0: 1}


def test_defend_does_not_mitigate_a_shock_attack() -> None:
    r = odds(army(unit()), army(unit(defense=2, size=9)), bid("shock"), bid("defend"))
    assert r["sides"][1]["mitigated"] == {0: 1} and r["sides"][1]["landed"] == {0: HALF, 1: HALF}


def test_each_success_over_the_enemy_mitigates_one() -> None:
    """House cells make the Attack inflict 3 on a Defend; the attacker rolls no die (attack 0)
    so every defending success (0, 1, 2 of 2 dice) cancels one: 3, 2 or 1 land."""
    house = {t: {"attack": {"defend": "Inflict 3 casualties"}} for t in ("drawn", "minor")}
    r = odds(army(unit(attack=0)), army(unit(defense=2, size=9)), bid("attack"), bid("defend"),
             house_tables=house)
    side = r["sides"][1]
    assert side["landed"] == {3: F(1, 4), 2: HALF, 1: F(1, 4)} and side["mean_landed"] == 2


def test_delay_mitigates_half_the_successes() -> None:
    """Delay: half the Block's successes (3 dice, round down) cancel casualties, won or not.
    A 3-success margin is a major victory: no table (AI-11), the house Minor cell is read."""
    house = {t: {"attack": {"block": "Inflict 2 casualties"}} for t in ("drawn", "minor")}
    blocker = army(unit(defense=3, size=9), general=general(2))
    r = odds(army(unit(attack=0)), blocker, bid("attack"), bid("block", "delay"), house_tables=house)
    side = r["sides"][1]
    assert side["mitigated"] == {0: HALF, 1: HALF} and side["landed"] == {2: HALF, 1: HALF}
    assert r["sides"][0]["fallback_table"] == F(1, 8) == r["sides"][1]["fallback_table"]
    plain = odds(army(unit(attack=0)), blocker, bid("attack"), bid("block"), house_tables=house)
    assert plain["sides"][1]["landed"] == {2: 1}


# ------------------------------------------------------------------ fallback (AI-19), AI-11

@pytest.mark.parametrize("attack, defend, strat, level, p", [
    ("attack", "defend", (), None, F(1, 8)),
    ("shock", "block", (), None, F(1, 8)),
    ("attack", "defend", ("hold_the_line",), 1, 0),
    ("skirmish", "defend", (), None, 0),
    ("attack", "skirmish", (), None, 0),
])
def test_fallback(attack, defend, strat, level, p) -> None:
    """AI-19: 3 attacking dice against none (defense 0): a margin of 3 (P 1/8) makes a
    Defend or Block fall back, unless it holds the line; a Skirmish neither causes nor
    suffers one."""
    attacker = army(unit(attack=3, mobility=3, size=9))
    defender = army(unit(defense=0, mobility=0, size=9), general=None if level is None else general(level))
    r = odds(attacker, defender, bid(attack), bid(defend, *strat))
    assert r["sides"][1]["movement"]["falls_back"] == p
    assert r["sides"][1]["movement"]["stays"] == 1 - p
    assert r["battle_ends"] == p
    assert r["sides"][0]["fallback_table"] == F(1, 8)         # AI-11: major reads Minor


def test_fallback_table_uses_house_cells_of_the_tier() -> None:
    """AI-11: an edited major cell is read as it is (no fallback mark) when the margin is 3."""
    house = {"major": {"attack": {"defend": "Inflict 4 casualties"}}}
    attacker = army(unit(attack=3))
    r = odds(attacker, army(unit(defense=0, size=9)), bid("attack"), bid("defend"), house_tables=house)
    assert r["sides"][0]["fallback_table"] == 0
    assert r["sides"][0]["cells"]["Inflict 4 casualties"] == F(1, 8)
    assert r["sides"][1]["landed"][4] == F(1, 8)
    assert r["sides"][1]["cells"] == {"Defend Succeeds - inflict 0-1 casualties": 1}
    assert r["sides"][1]["fallback_table"] == F(1, 8)         # the Defend row's major cell is not edited


def test_legendary_needs_a_skilled_general() -> None:
    """AI-8/AI-9: 10 dice against none, margin 10 with P 1/1024."""
    big = [unit(attack=10, size=99)]
    r = odds(army(*big, general=general(3)), army(unit(attack=0)), bid("attack"), bid("attack"))
    assert r["tiers"]["sides"][0]["legendary"] == F(1, 1024)
    r = odds(army(*big, general=general(2)), army(unit(attack=0)), bid("attack"), bid("attack"))
    assert "legendary" not in r["tiers"]["sides"][0]
    assert r["tiers"]["sides"][0]["crushing"] == F(1 + 10 + 45 + 120 + 210, 1024)


# ------------------------------------------------------------------ Withdraw (AI-2, AI-10, AI-16)

@pytest.mark.parametrize("enemy, movement", [
    ("withdraw", "away_arc"), ("defend", "away_route"), ("block", "withdraw_fails"),
    ("skirmish", "away_arc"), ("attack", "away"), ("shock", "away"),
])
def test_withdraw_reads_its_row(enemy, movement) -> None:
    r = odds(army(unit(armour=9)), army(unit()), bid("withdraw"), bid(enemy))  # armour: it survives (AI-20)
    assert r["sides"][0]["movement"][movement] == 1


def test_withdraw_words_of_a_house_cell() -> None:
    """Reading 2: a house cell's words say how the Withdraw gets away; withdraw words in
    another row do not move anybody."""
    house = {t: {"withdraw": {"attack": "Withdraw Succeeds - must head back up route"},
                 "attack": {"withdraw": "Withdraw fails - inflict 1 casualty"}} for t in TIERS_READ}
    r = odds(army(unit(armour=9)), army(unit(armour=9)), bid("withdraw"), bid("attack"), house_tables=house)
    assert r["sides"][0]["movement"]["away_route"] == 1
    assert r["sides"][1]["movement"]["stays"] == 1 and r["sides"][0]["landed"] == {1: 1}


def test_withdraw_v_block_takes_casualties_and_stays() -> None:
    r = odds(army(unit(size=5)), army(unit()), bid("withdraw"), bid("block"))
    assert r["sides"][0]["rolled"] == {1: HALF, 2: HALF} and r["battle_ends"] == 0


def test_continuous_front_stops_the_withdraw() -> None:
    """Reading 3: the enemy cannot withdraw through the defended hex (20 infantry)."""
    wall = army(*[unit(traits=("infantry",)) for _ in range(20)])
    r = odds(army(unit()), wall, bid("withdraw"), bid("defend", "continuous_front"))
    assert r["sides"][0]["movement"]["withdraw_fails"] == 1
    with pytest.raises(ReferenceInputError, match="20 infantry"):
        odds(army(unit()), army(*[unit(traits=("infantry",)) for _ in range(19)]),
             bid("withdraw"), bid("defend", "continuous_front"))


def test_winner_reads_a_losing_withdraw_stays_but_not_against_a_defend() -> None:
    """Reading 1: under the variant a Withdraw that loses the roll (1/4 with one die each)
    does not get away; against a Defend it still does (AI-20)."""
    r = odds(army(unit(armour=9)), army(unit(armour=9)), bid("withdraw"), bid("skirmish"), winner_reads=True)
    assert r["sides"][0]["movement"]["away_arc"] == F(3, 4)
    assert r["sides"][0]["movement"]["withdraw_fails"] == F(1, 4)
    r = odds(army(unit()), army(unit()), bid("withdraw"), bid("defend"), winner_reads=True)
    assert r["sides"][0]["movement"]["away_route"] == 1


def test_the_rearguard_is_the_line_and_only_scouts_reinforce() -> None:
    """AI-2: rearguard mobility 2 is the base; scouts (mobility 2 + 2) reinforce, the
    other unit (mobility 9) does not: T = 4 ≥ 2·2 gives one die. Casualties land on the
    rearguard first (HR-AI-2)."""
    a = army(unit(mobility=9), unit(mobility=2, traits=()), unit(mobility=2, traits=("scout",)),
             unit(mobility=2, traits=("scout",)))
    r = odds(a, army(unit()), bid("withdraw", rearguard=1), bid("shock"))
    assert r["pools"][0] == {"stat": "mobility", "line": 1, "base": 2, "rest": 4, "reinforcement": 1,
                             "scouting": 0, "dice": 3}
    assert r["sides"][0]["unit_destroyed"] == (0, 1, 0, 0)           # Shock v Withdraw: inflict 1


def test_covering_fire_and_last_stand_pools() -> None:
    """AI-16 Covering Fire: long-range units add defense (a long-range scout mobility and
    defense); with Last Stand scouts add defense, a long-range scout once (HR-AI-6)."""
    units = [unit(mobility=2, defense=5, traits=("line",)),                      # rearguard
             unit(mobility=3, defense=1, traits=("scout", "long range")),
             unit(mobility=0, defense=4, traits=("long range",)),
             unit(mobility=7, defense=7, traits=())]
    a = army(*units, general=general(1, "observer"))
    cover = odds(a, army(unit()), bid("withdraw", "covering_fire"), bid("attack"))["pools"][0]
    assert (cover["base"], cover["rest"], cover["dice"]) == (2, 3 + 1 + 4, 2 + 1)
    both = odds(a, army(unit()), bid("withdraw", "covering_fire", "last_stand"), bid("attack"))["pools"][0]
    assert (both["stat"], both["base"], both["rest"], both["dice"]) == ("defense", 5, 1 + 4, 5 + 0)
    stand = odds(a, army(unit()), bid("withdraw", "last_stand"), bid("attack"))["pools"][0]
    assert (stand["base"], stand["rest"]) == (5, 1)


def test_last_stand_destroys_the_rearguard_and_its_scouts_when_it_gets_away() -> None:
    units = [unit(), unit(traits=("scout",)), unit(traits=("long range",))]
    a = army(*units, general=general(1))
    r = odds(a, army(unit()), bid("withdraw", "last_stand"), bid("skirmish"))
    assert r["sides"][0]["movement"]["away_arc"] == 1
    assert r["sides"][0]["unit_destroyed"] == (1, 1, 0) and r["sides"][0]["destroyed"] == 0
    # Against a Block the withdraw fails: no Last Stand losses, only the Block's 1-2
    # casualties, on the rearguard first, then unit 1 (HR-AI-2).
    r = odds(a, army(unit()), bid("withdraw", "last_stand"), bid("block"))
    assert r["sides"][0]["movement"]["withdraw_fails"] == 1
    assert r["sides"][0]["unit_destroyed"] == (1, HALF, 0)


def test_deception_adds_the_scouting_roll() -> None:
    """HR-AI-4: scouts mobility 3 (best, the base) and 2 (T = 2 < 6): 3 scouting dice."""
    a = army(unit(mobility=1), unit(mobility=3, traits=("scout",)), unit(mobility=2, traits=("scout",)),
             general=general(2))
    r = odds(a, army(unit()), bid("withdraw", "deception"), bid("block"))
    pool = r["pools"][0]
    assert pool["scouting"] == 3 and pool["dice"] == pool["base"] + pool["reinforcement"] + 3
    assert r["successes"][0] == success_distribution(pool["dice"], 6, 4)


# ------------------------------------------------------------------ Counter Attack, Harassing Fire

def test_counter_attack_switches_without_reinforcement() -> None:
    """AI-16: the Defend becomes an Attack with its vanguard's attack alone; it reads the
    Attack row and cannot fall back (AI-19)."""
    d = army(unit(attack=2, defense=0, size=9), unit(attack=9), general=general(2))
    r = odds(army(unit(attack=5)), d, bid("attack"), bid("defend", "counter_attack"))
    assert r["maneuvers"] == ("attack", "attack") and r["switched"] == (False, True)
    assert r["pools"][1]["dice"] == 2 and r["pools"][1]["reinforcement"] == 0
    assert r["sides"][1]["movement"]["falls_back"] == 0
    assert r["sides"][1]["cells"] == {"Inflict 1 casualty": 1}
    kept = odds(army(unit(attack=5)), d, bid("attack"), bid("defend", "counter_attack", switch=False))
    assert kept["maneuvers"] == ("attack", "defend") and kept["sides"][1]["movement"]["falls_back"] > 0


def test_feint_cancels_counter_attack() -> None:
    d = army(unit(attack=2, defense=1), general=general(2))
    r = odds(army(unit(), general=general(3)), d, bid("attack", "feint"), bid("defend", "counter_attack"))
    assert r["maneuvers"] == ("attack", "defend") and r["pools"][1]["stat"] == "defense"


def test_harassing_fire_reads_skirmish_with_long_range_units() -> None:
    """AI-16/HR-AI-5: the long-range units (defense 3 best = base, 2 reinforces: 3 dice)
    roll; against a Block the harasser reads Skirmish (a house cell inflicts 2), the Block
    reads its row in the Defend column ("No result")."""
    house = {t: {"skirmish": {"block": "Inflict 2 casualties"}} for t in TIERS_READ}
    h = army(unit(defense=9), unit(defense=2, traits=("long range",)), unit(defense=3, traits=("long range",)),
             general=general(0, "observer"))
    r = odds(h, army(unit(size=9)), bid("defend", "harassing_fire"), bid("block"), house_tables=house)
    assert r["read_as"] == ("skirmish", "block")
    assert r["pools"][0] == {"stat": "defense", "line": 2, "base": 3, "rest": 2, "reinforcement": 0,
                             "scouting": 0, "dice": 3}
    assert r["sides"][1]["landed"] == {2: 1} and r["sides"][0]["cells"] == {"Inflict 2 casualties": 1}
    assert r["sides"][1]["cells"] == {"No result": 1}
    plain = odds(h, army(unit(size=9)), bid("defend", "harassing_fire"), bid("block"))
    assert plain["sides"][1]["landed"] == {0: 1}                # the source's Skirmish v Block: no result
    versus_attack = odds(h, army(unit()), bid("block", "harassing_fire"), bid("attack"))
    assert versus_attack["read_as"] == ("block", "attack") and versus_attack["pools"][0]["dice"] == 3



# ------------------------------------------------------------------ refusals

@pytest.mark.parametrize("a, b, bid_a, words", [
    (army(unit()), army(unit()), bid("withdraw", "deception"), "level 2"),
    (army(unit(), general=general(1)), army(unit()), bid("withdraw", "deception"), "level 2"),
    (army(unit(traits=("line", "observer"))), army(unit()), bid("defend", "harassing_fire"), "long-range"),
    (army(unit(traits=("line", "long range"))), army(unit()), bid("block", "harassing_fire"), "observer"),
    (army(unit(), general=general(2)), army(unit()), bid("attack", "flanking"), "level 3"),
    (army(unit(mobility=1)), army(unit(mobility=1)), bid("shock", "speed"), "larger Skirmish pool"),
    (army(unit()), army(unit()), bid("attack", "delay"), "does not go with attack"),
    (army(unit()), army(unit()), bid("attack", "charge"), "unknown stratagem"),
    (army(unit()), army(unit()), bid("charge"), "unknown maneuver"),
    (army(unit(armour=1, size=2)), army(unit()), bid("attack"), "armour and size"),
    (army(unit(traits=("scout",))), army(unit()), bid("attack"), "vanguard must be a line unit"),
    (army(unit(armour=2, damage=1)), army(unit()), bid("attack"), "only a size unit carries damage"),
    (army(unit(size=2, damage=2)), army(unit()), bid("attack"), "less than its size"),
    (army(unit()), army(unit()), bid("attack", rearguard=0), "only a Withdraw names a rearguard"),
    (army(unit(), unit(destroyed=True)), army(unit()), bid("withdraw", rearguard=1), "in the field"),
    (army(unit(attack=-1)), army(unit()), bid("attack"), "attack must be a whole number"),
])
def test_refusals(a, b, bid_a, words) -> None:
    with pytest.raises(ReferenceInputError, match=words):
        odds(a, b, bid_a, bid("attack"))


def test_speed_is_allowed_with_the_larger_skirmish_pool() -> None:
    r = odds(army(unit(mobility=3), general=None), army(unit(mobility=1)), bid("shock", "speed"), bid("attack"))
    assert r["maneuvers"] == ("shock", "attack")


@pytest.mark.parametrize("rules, words", [
    ({"success": "d12/4+"}, "AI-6"), ({"success": "d6/7+"}, "AI-6"),
    ({"house_tables": {"epic": {}}}, "AI-11"), ({"house_tables": {"minor": {"attack": {"defend": 5}}}}, "AI-11"),
    ({"house_tables": {"minor": {"attack": {"defend": "Inflict 3-1 casualties"}}}}, "AI-12"),
    ({"winner_reads": "yes"}, "AI-10"),
])
def test_bad_rules(rules, words) -> None:
    with pytest.raises(ReferenceInputError, match=words):
        reference_odds([army(unit()), army(unit())], [bid("attack"), bid("attack")], rules)


# ------------------------------------------------------------------ properties

MANEUVER_LIST = ("withdraw", "defend", "block", "skirmish", "attack", "shock")
UNITS = st.lists(st.builds(
    lambda a, d, m, extra, tough, n: unit(a, d, m, ("line",) + extra,
                                          **({"armour": n} if tough == "armour" else
                                             {"size": n} if tough == "size" else {})),
    st.integers(0, 3), st.integers(0, 3), st.integers(0, 3),
    st.sampled_from([(), ("scout",), ("long range",), ("scout", "long range"), ("observer",)]),
    st.sampled_from(["", "armour", "size"]), st.integers(1, 3)), min_size=1, max_size=3)


@settings(max_examples=60)
@given(UNITS, UNITS, st.sampled_from(MANEUVER_LIST), st.sampled_from(MANEUVER_LIST), st.booleans(),
       st.sampled_from(["d6/4+", "d8/6+", "d10/3+"]))
def test_every_week_is_a_distribution_and_symmetric(units_a, units_b, m_a, m_b, winner_reads, success) -> None:
    """Whatever the armies and bids: the whole week sums to 1, the sides' numbers are
    consistent (rolled = mitigated + taken, landed ≤ taken, destroyed ≤ loses a unit),
    and swapping the sides swaps every number."""
    rules = {"winner_reads": winner_reads, "success": success}
    a, b = army(*units_a), army(*units_b)
    r = reference_odds([a, b], [bid(m_a), bid(m_b)], rules)
    assert sum(r["joint"].values()) == 1
    assert r["tiers"]["drawn"] + sum(sum(t.values()) for t in r["tiers"]["sides"]) == 1
    for o in r["joint"]:
        assert isinstance(o, Outcome)
        for s in (0, 1):
            assert o.rolled[s] == o.mitigated[s] + o.taken[s] and o.landed[s] <= o.taken[s]
            assert o.movement[s] in MOVEMENTS or o.movement[s] is None  # None: destroyed (AI-20)
    for s, side in enumerate(r["sides"]):
        gone = sum((p for o, p in r["joint"].items() if o.movement[s] is None), F(0))
        assert sum(side["movement"].values()) + gone == 1 and sum(side["landed"].values()) == 1
        assert gone <= side["destroyed"]
        assert side["destroyed"] <= side["loses_unit"] <= 1
        assert all(0 <= p <= 1 for p in side["unit_destroyed"])
    swapped = reference_odds([b, a], [bid(m_b), bid(m_a)], rules)
    assert swapped["sides"] == r["sides"][::-1]
    assert swapped["pools"] == r["pools"][::-1]
    assert swapped["tiers"]["sides"] == r["tiers"]["sides"][::-1]
    assert {Outcome(o.tier, None if o.winner is None else 1 - o.winner, o.movement[::-1], o.rolled[::-1],
                    o.mitigated[::-1], o.taken[::-1], o.landed[::-1], o.lost[::-1]): p
            for o, p in r["joint"].items()} == swapped["joint"]
