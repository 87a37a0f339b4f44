"""What the battle engine says, word for word: history labels, status lines, the notes of a
week, pool explanations, refusals and setup errors. Players read these at the table (AI-7's
secrecy, AI-15's ways out, AI-16/AI-17's stratagem texts, HR-AI-3's succession), so each is
pinned exactly here."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine import ascension as ai
from engine.game import ActionError, RuleError, apply, new_game, replay
from engine.rules import SettingsError

from .test_ascension import gen, setup, unit, week


def game_of(s, rules=None, seed=3):
    """A battle whose dice the tests enter: the table's own (HR-AI-7, issue 35) unless ``rules`` says."""
    return new_game("battle", s, {"dice": ai.DICE_TABLE, **(rules or {})}, seed)


# ---------------------------------------------------------------- history labels and status


def test_every_history_label():
    g = game_of(setup([unit("N1", size=9), unit("N2", size=9)], [unit("S1", size=9)]))
    st = replay(g)
    labels = {
        "bid": {"type": "bid", "side": 0, "maneuver": "shock"},
        "reveal": {"type": "reveal"},
        "counter": {"type": "counter_attack", "side": 1},
        "roll": {"type": "roll"},
        "entered": {"type": "roll", "dice": [[1], [1]]},
        "counted": {"type": "roll", "successes": [1, 0]},
        "leave": {"type": "leave", "side": 1},
        "join": {"type": "join", "side": 1, "unit": unit("Fresh")},
        "join?": {"type": "join", "side": 1, "unit": 5},
        "correct": {"type": "correct", "side": 0, "index": 1, "unit": unit("N2b")},
        "correct?": {"type": "correct", "side": 0, "index": 9, "unit": unit("x")},
        "correct??": {"type": "correct", "side": True, "index": 0},
        "phase": {"type": "phase", "index": 9},
        "phase?": {"type": "phase", "index": 10},
        "phase??": {"type": "phase", "index": True},
        "fly": {"type": "fly"},
        "bad side": {"type": "bid", "side": 2},
    }
    got = {key: ai.describe(st, action) for key, action in labels.items()}
    assert got == {
        "bid": "Week 1 · North declares in secret", "reveal": "Week 1 · both bids revealed",
        "counter": "Week 1 · South counter-attacks (AI-16)", "roll": "Week 1 · roll",
        "entered": "Week 1 · dice entered", "counted": "Week 1 · dice entered",
        "leave": "Week 1 · South leaves the battle", "join": "Week 1 · Fresh joins South",
        "join?": "Week 1 · a unit joins South", "correct": "Week 1 · North: N2 corrected",
        "correct?": "Week 1 · North: a unit corrected", "correct??": "Week 1 · ?: a unit corrected",
        "phase": "Week 1 · turn phase: Tally upkeep and adjust production", "phase?": "Week 1 · turn phase: ?",
        "phase??": "Week 1 · turn phase: ?", "fly": "Unknown action", "bad side": "Week 1 · ? declares in secret",
    }
    assert ai.describe(st, "roll") == "Unknown action"


def test_status_in_every_phase_for_the_table_and_for_a_spectator():
    g = game_of(setup([unit(size=9)], [unit(size=9)]))
    assert ai.status(replay(g)) == "Week 1: waiting for North and South to declare (AI-7)"
    g1 = apply(g, {"type": "bid", "side": 1, "maneuver": "attack"})
    assert ai.status(replay(g1)) == "Week 1: waiting for North to declare (AI-7)"
    assert ai.status(replay(ai.public_game(g1))) == "Week 1: South has declared; waiting for North (AI-7)"
    assert ai.status(replay(ai.public_game(g))) == "Week 1: waiting for the bids (AI-7)"
    g2 = apply(g1, {"type": "bid", "side": 0, "maneuver": "defend"})
    assert ai.status(replay(g2)) == "Week 1: both armies have declared; waiting for the reveal (AI-7)"
    g3 = apply(g2, {"type": "reveal"})
    assert ai.status(replay(g3)) == "Week 1: bids revealed — roll the dice (AI-8)"
    assert ai.status(replay(ai.public_game(g3))) == "Week 1: both bids are revealed; waiting for the roll"
    over = apply(week(g, "withdraw", "defend", dice=[[1, 1], [1] * 6]), {"type": "phase", "index": 0})
    assert ai.status(replay(over)) == "AI-15: North withdraws from the battle"
    assert ai.standing(replay(over)) == "Over in week 1 · North withdrew"


# ---------------------------------------------------------------- a week's notes, word for word


def notes_of(game):
    return replay(game).weeks[-1].notes


def test_notes_harassing_fire_fallback_table_and_delay():
    north = [unit("N1", size=9), unit("Spot", 1, 1, 4, traits=["scout", "observer", "long range"], size=9)]
    south = [unit("S1", size=9), unit("Guns", 1, 3, 1, traits=["long range"], size=9)]
    s = setup(north, south, a_general=gen(3), b_general=gen(2, ["observer"]))
    g = game_of(s)
    g = apply(g, {"type": "bid", "side": 0, "maneuver": "withdraw", "stratagems": ["deception", "covering_fire"],
                  "rearguard": 1})
    g = apply(g, {"type": "bid", "side": 1, "maneuver": "block", "stratagems": ["harassing_fire", "delay"]})
    g = apply(g, {"type": "reveal"})
    g = apply(g, {"type": "roll", "dice": [[6, 6, 6, 6, 6, 1, 1, 1], [6, 1, 1]]})
    w = replay(g).weeks[-1]
    assert w.notes == ("AI-16 Harassing Fire: South reads its result as Skirmish",
                       "AI-11: table not in the rules — falling back to Minor victory")
    assert w.pools[0].notes == (
        "AI-2: the rearguard's mobility is the line stat; only scouts reinforce it",
        "AI-16 Covering Fire: long-range units add their defense (a long-range scout its mobility and its defense)",
        "AI-16 Deception: +4 scouting dice (HR-AI-4)")
    assert w.pools[1].notes == ("AI-16 Harassing Fire: only long-range units are line and reinforcement (HR-AI-5)",)
    assert [p.explain() for p in w.pools] == ["4 (mobility) + 0 reinforcement (rest 0) + 4 scouting = 8 dice",
                                              "3 (defense) + 0 reinforcement (rest 0) = 3 dice"]
    assert w.headline == "Week 1: major victory for North (5–1, margin 4)"
    assert (w.mitigation, w.mitigated, w.taken, w.withdrew, w.ended, w.how) == ((0, 0), (0, 0), (0, 0),
                                                                              (False, False), "", "")


def test_notes_mitigation_hold_the_line_and_ai17():
    s = setup([unit("N", defense=4, size=99)], [unit("S", attack=1, size=99)], a_general=gen(3), b_general=gen(3))
    g = week(game_of(s), "defend", "attack", ["hold_the_line"], ["flanking"], dice=[[6, 6, 1, 1], [1]],
             ranges=[1, 1])
    assert notes_of(g) == ("AI-16 Hold the Line: North cannot fall back and mitigates nothing",
                           "AI-17: South's Flanking: effect not given in the rules — the invigilator decides")
    g = week(game_of(s), "block", "shock", ["delay"], ["surprise"], dice=[[6, 6, 6, 6], [1]], ranges=[1, 1])
    w = replay(g).weeks[-1]
    assert w.notes == ("AI-11: table not in the rules — falling back to Minor victory",
                       "AI-15: North's Delay cancels 1 of the 1 casualty it would take",
                       "AI-17: South's Surprise: effect not given in the rules — the invigilator decides")
    assert (w.mitigation, w.mitigated, w.taken) == ((2, 0), (1, 0), (0, 1))
    g = week(game_of(s), "defend", "attack", dice=[[6, 6, 6, 1], [1]], ranges=[None, 1])
    assert notes_of(g)[-1] == "AI-15: North's Defend cancels 1 of the 1 casualty it would take"


def test_notes_fallback_last_stand_continuous_front_and_succession():
    big = unit("Big", 9, 9, 9, size=99)
    g = week(game_of(setup([dict(big)], [dict(big)])), "shock", "block", dice=[[6] * 4 + [1] * 5, [1] * 9],
             ranges=[1, None])
    st = replay(g)
    assert st.outcome == ("AI-19: South (Block) lost by a major victory to Shock Attack and falls back — North "
                          "holds the field")
    assert st.how == "South fell back" and st.weeks[-1].fell_back == (False, True)
    north = [unit("Line", defense=3, size=9), unit("Scout", defense=3, traits=["scout"], size=9),
             unit("Reserve", size=9)]
    infantry = [unit(f"I{i}", size=99) for i in range(20)]
    g = game_of(setup(north, infantry, a_general=gen(1)))
    pools = [3, ai.dice_pool(replay(g), 1, "defend").dice]
    g = week(g, "withdraw", "defend", ["last_stand"], ["continuous_front"], dice=[[1] * pools[0], [1] * pools[1]])
    w = replay(g).weeks[-1]
    assert w.notes == ("AI-16 Last Stand: North's rearguard and its reinforcing units are destroyed",
                       "AI-16 Continuous Front: North may not withdraw through the defended hex",
                       "HR-AI-3: Reserve is now the vanguard of North",
                       "HR-AI-3: Reserve is now the rearguard of North")
    assert w.ended == "AI-15: North withdraws from the battle" and w.lost[0] == ("Line", "Scout")
    g = week(game_of(setup([unit("A", 1, 1, 1), unit("B", 1, 1, 1)], [unit("Z", 1, 1, 1, size=9)])),
             "attack", "attack", dice=[[1], [1]])
    assert notes_of(g) == ("HR-AI-3: B is now the vanguard of North", "HR-AI-3: B is now the rearguard of North")


def test_destroyed_and_both_destroyed_endings():
    g = week(game_of(setup([unit("A", 1, 1, 1)], [unit("Z", 1, 1, 1)])), "attack", "attack", dice=[[1], [1]])
    st = replay(g)
    assert (st.outcome, st.how) == ("AI-15: both armies are destroyed", "both armies destroyed")
    assert ai.standing(st) == "Over in week 1 · both armies destroyed"
    g = week(game_of(setup([unit("A", 1, 1, 1)], [unit("Z", 1, 1, 1, size=9)])), "attack", "attack",
             dice=[[1], [1]])
    st = replay(g)
    assert st.outcome == "AI-15: North is destroyed — South holds the field" and st.how == "North destroyed"
    assert st.weeks[-1].notes == ()  # nothing to say about a vanguard that has no army left


# ---------------------------------------------------------------- refusals, word for word


@pytest.mark.parametrize("action, message", [
    ({"type": "bid", "side": 0, "maneuver": "attack", "stratagems": ["flanking"]},
     "AI-16: Flanking needs a skilled general (level 3, AI-9); North has no general"),
    ({"type": "bid", "side": 0, "maneuver": "defend", "stratagems": ["counter_attack"]},
     "AI-16: Counter Attack needs a general of level 2 or more; North has no general"),
    ({"type": "bid", "side": 0, "maneuver": "block", "stratagems": ["hammer_and_anvil"]},
     "AI-16: Hammer and Anvil needs a general of level 3; North has no general"),
    ({"type": "bid", "side": 0, "maneuver": "withdraw", "stratagems": ["covering_fire"]},
     "AI-16: Covering Fire needs an observer unit or general"),
    ({"type": "bid", "side": 0, "maneuver": "defend", "stratagems": ["continuous_front"]},
     "AI-16: Continuous Front needs at least 20 infantry divisions (North has 1)"),
    ({"type": "bid", "side": 0, "maneuver": "attack", "stratagems": ["ambush"]},
     "AI-16: Ambush modifies Block, not Attack"),
    ({"type": "bid", "side": 0, "maneuver": "attack", "stratagems": ["harassing_fire"]},
     "AI-16: Harassing Fire modifies Defend or Block, not Attack"),
    ({"type": "reveal"}, "AI-7: both sides declare before the reveal (waiting for North and South)"),
    ({"type": "counter_attack", "side": 0}, "AI-16: Counter Attack switches to Attack after the reveal"),
    ({"type": "leave", "side": 0}, "AI-15: an army may leave only by a successful Withdraw, or the week after its "
                                   "opponent skirmished (before either side declares)"),
    ({"type": "roll"}, "AI-7: both sides declare and reveal before the roll"),
    ({"type": "bid", "side": 0, "maneuver": "withdraw", "rearguard": 1},
     "The rearguard (a unit number) must be a whole number from 0 to 0 (got 1)"),
    ({"type": "correct", "side": 1, "index": 0, "unit": unit("S1", size=1)},
     "AI-14: S1 has taken 1 casualties: its size must be more than 1"),
    ({"type": "join", "side": 0, "unit": unit("")}, "North, the unit that joins: the name is empty"),
])
def test_refusals_word_for_word(action, message):
    s = setup([unit("N1", size=9)], [unit("S1", size=9)])
    g = game_of(s)
    if action["type"] == "correct":
        g = week(g, "shock", "defend", dice=[[1] * 5, [1] * 6], ranges=[1, None])
    with pytest.raises((ActionError, RuleError)) as err:
        apply(g, action)
    assert str(err.value) == message


def test_refusals_after_the_reveal_word_for_word():
    s = setup([unit("N1", size=9)], [unit("S1", size=9)], a_general=gen(2))
    g = apply(apply(apply(game_of(s), {"type": "bid", "side": 0, "maneuver": "defend",
                                       "stratagems": ["counter_attack"]}),
                    {"type": "bid", "side": 1, "maneuver": "skirmish"}), {"type": "reveal"})
    cases = {
        "counter": ({"type": "counter_attack", "side": 0},
                    "AI-16: Counter Attack switches to Attack only after the enemy declares Attack or Shock Attack "
                    "(South declared Skirmish)"),
        "not defend": ({"type": "counter_attack", "side": 1},
                       "AI-16: only a Defend declared with Counter Attack may switch to Attack"),
        "bid": ({"type": "bid", "side": 0, "maneuver": "attack"}, "AI-7: the bids are already revealed; roll first"),
        "reveal": ({"type": "reveal"}, "AI-7: the bids are already revealed"),
        "join": ({"type": "join", "side": 0, "unit": unit("X")}, "AI-7: units join between weeks, before either "
                                                                   "side declares"),
        "dice": ({"type": "roll", "dice": [[1] * 6]}, "The dice must be two lists, one per army"),
        "successes": ({"type": "roll", "successes": 3}, "The successes must be two numbers, one per army"),
        "ranges": ({"type": "roll", "successes": [0, 0], "ranges": [0]},
                   "The range rolls must be two entries, one per army (null: none or the app's roll)"),
    }
    for key, (action, message) in cases.items():
        with pytest.raises((ActionError, RuleError)) as err:
            apply(g, action)
        assert str(err.value) == message, key
    done = apply(g, {"type": "roll", "successes": [0, 0]})  # the table's own dice (game_of)
    over_g = week(game_of(setup([unit(size=9)], [unit(size=9)])), "withdraw", "defend", dice=[[1, 1], [1] * 6])
    for action in ({"type": "bid", "side": 0, "maneuver": "attack"}, {"type": "reveal"}, {"type": "roll"},
                   {"type": "leave", "side": 1}, {"type": "join", "side": 0, "unit": unit("X")}):
        with pytest.raises(RuleError) as err:
            apply(over_g, action)
        assert str(err.value) == "AI-15: the battle is over: AI-15: North withdraws from the battle"
    assert replay(done).phase == "bid"


@pytest.mark.parametrize("bad, message", [
    ("x", "The setup must be an object with named fields"),
    ({"armies": [], "x": 1}, 'Setup: unknown field "x"'),
    ({"armies": [1, 2]}, "Army 1 must be an object with named fields"),
    ({"armies": [{"name": "A", "units": []}, {}]}, "Army 1 (A): the army has no units; give it at least one line unit"),
    ({"armies": [{"name": "A", "units": [5]}, {}]}, "Army 1 (A), unit 1 must be an object with named fields"),
    (setup([unit("U", attack=100)]), "Army 1 (North), unit 1 (U): the attack must be a whole number from 0 to 99 "
                                     "(got 100)"),
    (setup([unit("U", traits=["line"], armour=True)]), "Army 1 (North), unit 1 (U): the armour must be a whole "
                                                       "number from 0 to 99 (got True)"),
    (setup([unit("U", traits=["scout"])]), "Army 1 (North): AI-1: the vanguard (U) must be a line unit"),
    (setup(a_general={"name": "G", "level": 1, "traits": ["scout"]}),
     "Army 1 (North), general: a general's trait can only be observer"),
    (setup(a_general=5), "Army 1 (North), general must be an object with named fields"),
    ({**setup(), "spectator": "yes"}, "Setup: 'spectator' must be true (a spectator's copy) or left out"),
    (setup([unit("U", traits=["infantry", "flying"])]), 'Army 1 (North), unit 1 (U): unknown trait "flying" '
                                                        "(traits: infantry, line, scout, observer, long range)"),
    (setup([{**unit("U"), "traits": "line"}]), "Army 1 (North), unit 1 (U): the traits must be a list"),
])
def test_setup_errors_word_for_word(bad, message):
    with pytest.raises(ai.SetupError) as err:
        ai.normalize_setup(bad)
    assert str(err.value) == message


def test_too_many_units_and_the_vanguard_number():
    with pytest.raises(ai.SetupError, match="at most 200 units"):
        ai.normalize_setup(setup([unit(f"U{i}") for i in range(201)]))
    out = ai.normalize_setup(setup([unit(f"U{i}") for i in range(200)]))
    assert len(out["armies"][0]["units"]) == 200 and out["armies"][0]["rearguard"] == 0
    with pytest.raises(ai.SetupError, match=r"vanguard \(a unit number\) must be a whole number from 0 to 1"):
        ai.normalize_setup(setup([unit("A"), unit("B")], vanguard=2))
    kept = ai.normalize_setup(setup([unit("A", traits=["scout"]), unit("B")], vanguard=1))
    assert kept["armies"][0]["rearguard"] == 1  # the rearguard defaults to the vanguard (AI-2)


def test_house_table_errors_word_for_word():
    cases = [
        ([1], "AI-11: the house tables must be an object of tiers"),
        ({"epic": {}}, "AI-11: there is no 'epic' table (tables: drawn, minor, major, crushing, legendary)"),
        ({"major": []}, "AI-11: the house Major victory table must be an object of rows"),
        ({"major": {"charge": {}}}, "AI-11: the house Major victory table has an unknown row 'charge'"),
        ({"major": {"attack": {"x": "y"}}}, "AI-11: the house Major victory table has an unknown column 'x'"),
        ({"major": {"attack": {"defend": "x" * 121}}},
         "AI-11: house Major victory table, Attack vs Defend: the cell is longer than 120 characters"),
        ({"major": {"attack": {"defend": "Inflict 2\u202e casualties"}}},
         "AI-11: house Major victory table, Attack vs Defend: the cell contains an invisible formatting character "
         "(U+202E), which would change how it reads"),
    ]
    for value, message in cases:
        with pytest.raises(SettingsError) as err:
            ai.normalize_house_tables(value)
        assert str(err.value) == message
    assert ai.normalize_house_tables({"major": {"attack": {"defend": "  Inflict   2  casualties "}}}) == \
        {"major": {"attack": {"defend": "Inflict 2 casualties"}}}
    assert ai.normalize_house_tables(None) == {}
    assert ai.normalize_house_tables({"major": {"attack": {"defend": "inflict 20 casualties"}}})


# ---------------------------------------------------------------- values the board shows


def test_the_example_and_the_preset_exactly():
    j = {"name": "Jibril Armoured Infantry Division", "attack": 5, "defense": 6, "mobility": 2,
         "traits": ["infantry", "line"], "armour": 0, "size": 0}
    assert ai.jibril_division() == j and ai.jibril_division("J 2") == {**j, "name": "J 2"}
    ex = ai.example_setup()
    assert ex["armies"][0] == {"name": "Jibril Corps", "units": [{**j, "name": f"{j['name']} {i}"} for i in (1, 2, 3)],
                               "vanguard": 0, "rearguard": 0,
                               "general": {"name": "Marshal Jibril", "level": 2, "traits": []}}
    zone = ex["armies"][1]
    assert zone["name"] == "Zone Army" and zone["vanguard"] == 0 and zone["rearguard"] == 5
    assert zone["general"] == {"name": "General Arden", "level": 1, "traits": []}
    assert zone["units"][:4] == [{"name": f"Zone Infantry Division {i}", "attack": 2, "defense": 3, "mobility": 2,
                                  "traits": ["infantry", "line"], "armour": 0, "size": 2} for i in (1, 2, 3, 4)]
    assert zone["units"][4:] == [
        {"name": "Zone Heavy Artillery", "attack": 3, "defense": 2, "mobility": 1, "traits": ["long range"],
         "armour": 0, "size": 1},
        {"name": "Zone Cavalry Scouts", "attack": 1, "defense": 1, "mobility": 4, "traits": ["scout", "observer"],
         "armour": 0, "size": 1}]
    assert ai.normalize_setup(ex) == ex


def test_unit_toughness_and_stats():
    assert ai.Unit("u", 1, 2, 3).toughness() == "falls to 1 casualty (HR-AI-1)"
    assert ai.Unit("u", 1, 2, 3, armour=2).toughness() == "armour 2"
    assert ai.Unit("u", 1, 2, 3, size=4).toughness() == "size 4"
    assert ai.Unit("u", 1, 2, 3, armour=2, size=4).toughness() == "armour 2, size 4"  # old games only
    assert [ai.Unit("u", 1, 2, 3).stat(k) for k in ("attack", "defense", "mobility")] == [1, 2, 3]
    assert not ai.Unit("u", 1, 2, 3, ("scout",)).is_line and ai.Unit("u", 1, 2, 3, ("line",)).is_line
    assert ai.General("g", 3).skilled and not ai.General("g", 2).skilled


def test_exact_numbers_of_the_pure_functions():
    assert ai.success_distribution(3) == [27, 81, 81, 27]
    assert ai.success_distribution(2, 10, 7) == [36, 48, 16]
    assert ai.success_chance(8, 6) == Fraction(3, 8)
    odds = ai.tier_odds(2, 1)
    assert odds["drawn"] == Fraction(3, 8) and odds["sides"][0] == {"minor": Fraction(1, 2), "major": 0,
                                                                     "crushing": 0}
    assert odds["sides"][1] == {"minor": Fraction(1, 8), "major": 0, "crushing": 0}
    assert ai.tier_odds(3, 0, 6, 4, (True, False))["sides"][0]["major"] == Fraction(1, 8)
    assert ai.reinforcement_threshold(0, 3) == 14 and ai.reinforcement_threshold(3, 0) == 0
    assert ai.next_die_needs(0, 0) == 2 and ai.next_die_needs(5, 29) == 1
    assert ai.cell_effect("inflict 3-1 casualties") == ai.CellEffect(None, (1, 3))
    assert ai.cell_effect("Inflict 2 – 4 casualties") == ai.CellEffect(None, (2, 4))
    assert ai.cell_effect("WITHDRAW FAILS") == ai.CellEffect(False, None)
    assert ai.success_setting({"success": "d10/10+"}) == (10, 10)
    assert ai.count_successes((8, 7, 6), 8, 7) == 2


def test_the_settings_and_the_house_rules():
    assert [v.key for v in ai.VARIANTS] == ["success", "reads", "dice", "house_tables"]
    assert [v.default for v in ai.VARIANTS[:3]] == ["d6/4+", "both", "app"]
    assert [v.rule_id for v in ai.VARIANTS] == ["AI-6", "AI-10", "HR-AI-7", "AI-11"]
    assert list(ai.HOUSE_RULES) == [f"HR-AI-{i}" for i in range(1, 16)]
    assert len(ai.VARIANTS[0].choices) == 5 + 7 + 9
    assert ai.VARIANTS[0].describe("d6/4+") == "d6, a success on 4 or more (the app's ruling)"
    state = replay(game_of(setup(), {"dice": ai.DICE_APP}))
    assert state.settings == {"success": "d6/4+", "reads": "both", "dice": "app", "house_tables": {}}


def test_a_spectator_copy_word_for_word():
    s = setup([unit("N1", size=9)], [unit("S1", size=9)])
    g = game_of(s)
    g = apply(g, {"type": "phase", "index": 1})
    g = week(g, "shock", "skirmish", dice=[[6] * 5, [1, 1]], ranges=[None, 1])
    g = apply(g, {"type": "join", "side": 0, "unit": unit("N2")})
    g = apply(g, {"type": "bid", "side": 1, "maneuver": "withdraw"})
    copy = ai.public_game(g)
    assert copy.seed == 0 and copy.position == len(copy.actions) and copy.setup["spectator"] is True
    assert list(copy.actions) == [
        {"type": "phase", "index": 1},
        {"type": "bid", "side": 0, "maneuver": "shock", "stratagems": []},
        {"type": "bid", "side": 1, "maneuver": "skirmish", "stratagems": []},
        {"type": "reveal"},
        {"type": "roll", "dice": [[6] * 5, [1, 1]], "ranges": [replay(g).weeks[0].rolled[0], 1]},
        {"type": "join", "side": 0, "unit": unit("N2")},
        {"type": "bid", "side": 1, "sealed": True},
    ]
    assert replay(copy).weeks == replay(g).weeks
