"""CONSIM (engine.consim): tests per clause CS-1 … CS-13, the house rules, the exact odds
against brute-force enumeration of the dice, and the spectator copy."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import codec
from engine import consim as cs
from engine.cards import Card, Rank, Suit, full_deck, parse_card
from engine.consim import (
    ADVANTAGES, HOUSE_RULES, KIND, VARIANTS, Combatant, Condition, Cover, SetupError, Status, Trait,
    Training, WoundStatus, apply_wound, cards_due, current_turn, damage_modifier, hit_chance,
    hit_modifier, initiative_order, normalize_setup, public_game, shot_odds, suppression_caused,
    wound_distribution, wound_status,
)
from engine.game import ActionError, RuleError, apply, new_game, redo, replay, undo, validate
from engine.rules import SettingsError

C = parse_card


def man(name: str, side: int = 0, *, training: str = "untrained", weapon: list[str] | None = None,
        player: bool = False, grain: str = "individual") -> dict[str, Any]:
    return {"name": name, "side": side, "grain": grain, "training": training,
            "weapon": weapon or [], "player": player}


def roster(*combatants: dict[str, Any], privacy: bool = True) -> dict[str, Any]:
    return {"sides": ["Blue", "Red"], "combatants": list(combatants), "privacy": privacy}


def two_sides(n: int = 3) -> dict[str, Any]:
    return roster(*[man(f"Blue {i + 1}", 0, player=i == 0, weapon=["automatic"]) for i in range(n)],
                  *[man(f"Red {i + 1}", 1, weapon=["semi-automatic"], training="trained") for i in range(n)])


def game(setup: dict[str, Any] | None = None, rules: dict[str, Any] | None = None, seed: int = 1):
    return new_game(KIND, setup or two_sides(), rules, seed)


def run(g, *actions: dict[str, Any]):
    for action in actions:
        g = apply(g, action)
    return g


DEAL = {"type": "deal"}


def shoot(shooter: int, *targets: int, mode: str = "aimed", cover: str = "none", unseen: bool = False,
          semi: str | None = None, dice: list[dict[str, int]] | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "shoot", "shooter": shooter, "targets": list(targets), "mode": mode,
                              "cover": cover, "unseen": unseen}
    if semi:
        action["semi"] = semi
    if dice is not None:
        action["dice"] = dice
    return action


def fighter(training: str = "untrained", *traits: str) -> Combatant:
    return Combatant("X", 0, training=Training(training), weapon=frozenset(Trait(t) for t in traits))


# ---------------------------------------------------------------------------
# CS-1: combatants


def test_cs_1_roster_is_normalized_with_defaults():
    out = normalize_setup({"sides": ["A", "B"], "combatants": [{"name": "  Sniper ", "side": 1}]})
    assert out == {"sides": ["A", "B"], "combatants": [
        {"name": "Sniper", "side": 1, "grain": "individual", "training": "untrained", "weapon": [],
         "player": False}], "privacy": True, "facts": False, "hidden": []}


@pytest.mark.parametrize("bad, words", [
    ({"sides": ["A"], "combatants": [man("x")]}, "2 to 8 sides"),
    ({"sides": ["A", "a"], "combatants": [man("x")]}, "same name"),
    ({"sides": ["A", "B"], "combatants": []}, "at least one combatant"),
    ({"sides": ["A", "B"], "combatants": [man("x", 2)]}, "side must be 0 to 1"),
    ({"sides": ["A", "B"], "combatants": [man("", 0)]}, "name is empty"),
    ({"sides": ["A", "B"], "combatants": [man("a\nb", 0)]}, "line break"),
    ({"sides": ["A", "B"], "combatants": [man("x", training="veteran")]}, "training must be one of"),
    ({"sides": ["A", "B"], "combatants": [man("x", weapon=["laser"])]}, "weapon trait must be one of"),
    ({"sides": ["A", "B"], "combatants": [man("x", weapon=["automatic", "semi-automatic"])]}, "not both"),
    ({"sides": ["A", "B"], "combatants": [man("x", weapon=["ground-vehicle", "air-vehicle"])]}, "not both"),
    ({"sides": ["A", "B"], "combatants": [{**man("x"), "morale": 3}]}, "unknown field"),
    ({"sides": ["A", "B"], "combatants": [{**man("x"), "player": "yes"}]}, "true or false"),
    ({"sides": ["A", "B"], "combatants": [man("x")], "hidden": [0]}, "spectator copy"),
    ("roster", "object"),
])
def test_cs_1_bad_rosters_are_explained(bad, words):
    with pytest.raises(SetupError, match=words):
        normalize_setup(bad)


def test_cs_1_and_cs_8_training_bonus():
    assert [t.bonus for t in Training] == [0, 1, 2]


# ---------------------------------------------------------------------------
# CS-5: acting order


def test_cs_5_order_aces_high_then_spades_hearts_diamonds_clubs():
    cards = [C(t) for t in "2C KH AS KS 10D AC KC KD 3H".split()]
    assert [c.token for c in initiative_order(cards)] == "AS AC KS KH KD KC 10D 3H 2C".split()


@given(st.lists(st.sampled_from(full_deck()), unique=True, max_size=52))
def test_cs_5_order_property_every_pair_compares_as_the_rule_says(cards):
    order = initiative_order(cards)
    assert sorted(order, key=str) == sorted(cards, key=str)
    suit_rank = {Suit.SPADES: 4, Suit.HEARTS: 3, Suit.DIAMONDS: 2, Suit.CLUBS: 1}
    for first, later in zip(order, order[1:]):
        assert (first.rank, suit_rank[first.suit]) > (later.rank, suit_rank[later.suit])


def test_cs_5_a_combatant_with_several_cards_acts_once_per_card_in_order():
    g = run(game(seed=5), {"type": "deal", "advantages": {"0": ["firepower", "position", "morale"]}})
    s = replay(g)
    assert len(s.hands[0].kept) == 4
    assert [t.card for t in s.turns] == initiative_order(t.card for t in s.turns)
    assert sum(1 for t in s.turns if t.combatant == 0) == 4
    seen = []
    while current_turn(s) is not None:
        seen.append(s.turns[current_turn(s)].card)
        g = apply(g, {"type": "next"})
        s = replay(g)
    assert seen == initiative_order(seen) and len(seen) == len(s.turns)
    with pytest.raises(RuleError, match="CS-5: everyone has acted"):
        apply(g, {"type": "next"})


def test_cs_5_long_action_spends_cards_and_acts_at_the_lowest():
    g = run(game(seed=5), {"type": "deal", "advantages": {"0": ["firepower", "position"]}})
    s = replay(g)
    mine = [t.card for t in s.turns if t.combatant == 0]
    high, low = mine[0], mine[-1]
    g = apply(g, {"type": "long", "combatant": 0, "cards": [high.token, low.token]})
    s2 = replay(g)
    entries = [t for t in s2.turns if t.combatant == 0]
    assert len(entries) == 2
    merged = next(t for t in entries if t.spent)
    assert merged.card == low and merged.spent == (high,)
    assert [t.card for t in s2.turns] == initiative_order(t.card for t in s2.turns)
    with pytest.raises(RuleError, match="CS-5: .* has no unplayed"):
        apply(g, {"type": "long", "combatant": 0, "cards": [high.token, mine[1].token]})
    with pytest.raises(RuleError, match="at least 2"):
        apply(g, {"type": "long", "combatant": 0, "cards": [mine[1].token]})


# ---------------------------------------------------------------------------
# CS-2, CS-3, CS-4, CS-10 card counts


@pytest.mark.parametrize("advantages", range(6))
def test_cs_2_one_card_plus_one_per_advantage(advantages):
    assert cards_due(advantages)[:2] == (1 + advantages, 0)


def test_cs_2_deal_counts_the_ticked_advantages():
    keys = list(ADVANTAGES)
    g = run(game(), {"type": "deal", "advantages": {"0": keys, "3": keys[:2]}})
    s = replay(g)
    assert [len(h.dealt) for h in s.hands] == [6, 1, 1, 3, 1, 1]
    with pytest.raises(ActionError):
        apply(game(), {"type": "deal", "advantages": {"0": ["luck"]}})
    with pytest.raises(ActionError):
        apply(game(), {"type": "deal", "advantages": {"0": ["morale", "morale"]}})


@pytest.mark.parametrize("suppression, lost", [(0, 0), (1, 0), (2, 1), (3, 1), (4, 2), (9, 4)])
def test_cs_3_every_two_suppression_costs_a_card(suppression, lost):
    assert cards_due(5, suppression)[:2] == (6, lost)


def test_cs_3_suppression_cannot_take_more_than_there_is_and_pulp_keeps_one():
    assert cards_due(1, 10)[:2] == (2, 2)
    assert cards_due(1, 10, player=True, pulp=True)[:2] == (2, 1)
    assert cards_due(1, 10, player=False, pulp=True)[:2] == (2, 2)  # pulp is for player characters


@given(st.integers(0, 5), st.integers(0, 30), st.sampled_from(list(Condition)), st.booleans(), st.booleans(),
       st.booleans(), st.booleans())
def test_cs_2_3_4_10_card_count_properties(adv, sup, cond, stunned, surprised, player, pulp):
    due, drop, reasons = cards_due(adv, sup, cond, no_cards=stunned, surprised=surprised, player=player, pulp=pulp)
    assert 0 <= drop <= due <= 1 + adv and reasons
    if surprised or stunned or cond in (Condition.DYING, Condition.DEAD):
        assert due == 0  # CS-4, CS-10 (stun), HR-CS-3
        return
    expected = 1 + adv - (1 if cond is Condition.INJURED else 0)  # CS-10: injured one fewer
    if pulp and player:
        assert due == max(expected, 1) and due - drop >= 1  # CS-3 variant, HR-CS-4
    else:
        assert due == expected and drop == min(sup // 2, due)


def test_cs_3_the_highest_cards_are_lost_in_a_deal():
    g = game(seed=11)
    g = run(g, DEAL, shoot(3, 0, dice=[{"d10": 1}], unseen=True), {"type": "end_round"})
    s = replay(g)
    assert s.statuses[0].suppression == 3  # 1 + 2 unseen (CS-7), kept: fired on this round
    g = apply(g, {"type": "deal", "advantages": {"0": list(ADVANTAGES)[:3]}})
    hand = replay(g).hands[0]
    assert len(hand.dealt) == 4 and len(hand.lost) == 1
    assert hand.lost == tuple(initiative_order(hand.dealt)[:1])
    assert set(hand.kept) | set(hand.lost) == set(hand.dealt)


def test_cs_4_a_surprised_side_gets_no_cards():
    s = replay(run(game(), {"type": "deal", "surprised": [1], "advantages": {"3": ["firepower"]}}))
    assert [len(h.dealt) for h in s.hands] == [1, 1, 1, 0, 0, 0]
    assert all(s.combatants[t.combatant].side == 0 for t in s.turns)
    assert "Red surprised (CS-4)" in s.log[-1].text


def test_cs_10_injured_one_card_fewer_stunned_none_dying_none():
    g = run(game(), DEAL,
            shoot(3, 0, dice=[{"d10": 10, "d6": 2}]))
    s = replay(g)
    # Red 1 is semi-automatic and picks +1 to hit by default, so the wound is 2 + 0: STUN.
    assert s.statuses[0].condition is Condition.STUNNED and s.statuses[0].no_cards_next
    g = run(g, shoot(4, 1, dice=[{"d10": 10, "d6": 3, "countdown": 6}]),
            shoot(5, 2, dice=[{"d10": 10, "d6": 5, "countdown": 4}]), {"type": "end_round"})
    s = replay(g)
    assert [st.condition for st in s.statuses[:3]] == [Condition.STUNNED, Condition.INJURED, Condition.DYING]
    g = apply(g, {"type": "deal", "advantages": {str(i): ["firepower"] for i in range(6)}})
    s = replay(g)
    assert [h.due for h in s.hands[:3]] == [0, 1, 0]
    assert "stunned" in s.hands[0].reasons[0] and "INJURED: one fewer (CS-10)" in s.hands[1].reasons


def test_cs_6_one_deck_dealt_in_roster_order_reports_who_got_nothing():
    big = roster(*[man(f"M{i}", i % 2) for i in range(30)])
    g = new_game(KIND, big, seed=3)
    g = apply(g, {"type": "deal", "advantages": {str(i): ["firepower"] for i in range(30)}})
    s = replay(g)
    dealt = [c for h in s.hands for c in h.dealt]
    assert len(dealt) == 52 and len(set(dealt)) == 52
    assert [len(h.dealt) for h in s.hands] == [2] * 26 + [0] * 4
    assert s.nothing == (26, 27, 28, 29)
    assert "The deck ran out (CS-6): M26, M27, M28, M29" in s.log[-1].text
    # CS-6: reshuffled every round: a new deal is a full deck again.
    g = run(g, {"type": "end_round"}, {"type": "deal"})
    assert [len(h.dealt) for h in replay(g).hands] == [1] * 30


@settings(max_examples=40)
@given(st.integers(1, 60), st.integers(0, 2**32 - 1), st.data())
def test_cs_6_property_no_card_twice_and_roster_order(count, seed, data):
    adv = data.draw(st.lists(st.integers(0, 5), min_size=count, max_size=count))
    setup = roster(*[man(f"M{i}", i % 2) for i in range(count)])
    g = new_game(KIND, setup, seed=seed)
    g = apply(g, {"type": "deal", "advantages": {str(i): list(ADVANTAGES)[:a] for i, a in enumerate(adv)}})
    s = replay(g)
    dealt = [c for h in s.hands for c in h.dealt]
    assert len(dealt) == len(set(dealt)) == min(52, sum(1 + a for a in adv))
    short = [i for i, h in enumerate(s.hands) if len(h.dealt) < h.due]
    assert list(s.nothing) == short
    if short:  # roster order: everyone before the first short one got all their cards
        assert all(len(h.dealt) == h.due for h in s.hands[:short[0]])
        assert all(len(h.dealt) == 0 for h in s.hands[short[0] + 1:])


# ---------------------------------------------------------------------------
# CS-7 … CS-11 shooting


def test_cs_7_suppression_from_fire():
    plain, ground, air = fighter(), fighter("untrained", "ground-vehicle"), fighter("untrained", "air-vehicle")
    assert suppression_caused(plain) == 1
    assert suppression_caused(plain, unseen=True) == 3
    assert suppression_caused(ground) == 2 and suppression_caused(ground, unseen=True) == 6
    assert suppression_caused(air) == 3 and suppression_caused(air, unseen=True, suppressive_miss=True) == 12


def test_cs_8_aimed_thresholds_and_training():
    for cover, needed in (("none", 6), ("cover", 7), ("good", 8)):
        assert cs.to_hit_target(cover) == needed
        assert hit_chance(fighter(), "aimed", cover) == Fraction(11 - needed, 10)
        assert hit_chance(fighter("trained"), "aimed", cover) == Fraction(12 - needed, 10)
        assert hit_chance(fighter("elite"), "aimed", cover) == Fraction(13 - needed, 10)


def test_cs_9_suppressive_fire_hits_only_on_a_natural_10():
    for f in (fighter(), fighter("elite", "automatic", "explosive")):
        assert hit_chance(f, "suppressive", "good") == Fraction(1, 10)
    g = run(game(), DEAL, shoot(0, 3, 4, mode="suppressive", dice=[{"d10": 9}, {"d10": 10, "d6": 1}]))
    s = replay(g)
    a, b = s.last_shot.targets
    assert not a.hit and s.statuses[3].suppression == 2  # 1 + 1 extra (CS-9)
    assert b.hit and b.wound is WoundStatus.STUN  # 1 + automatic 1 = 2: STUN
    assert s.statuses[4].suppression == 1 + 3


def test_cs_9_area_needs_an_automatic_or_semi_automatic_weapon_and_aimed_is_one_target():
    setup = roster(man("Pistol", 0), man("A", 1), man("B", 1))
    g = run(new_game(KIND, setup, seed=1), DEAL)
    with pytest.raises(RuleError, match="CS-9: only automatic"):
        apply(g, shoot(0, 1, 2, mode="suppressive"))
    with pytest.raises(RuleError, match="CS-9: an aimed shot has one target"):
        apply(run(game(), DEAL), shoot(0, 3, 4))
    assert apply(run(game(), DEAL), shoot(3, 0, 1, mode="suppressive", semi="damage"))


def test_cs_11_weapon_modifiers_stack_and_semi_automatic_is_a_choice():
    assert hit_modifier(fighter("elite", "automatic", "explosive")) == 5
    assert damage_modifier(fighter("elite", "automatic", "explosive", "ground-vehicle")) == 6
    assert damage_modifier(fighter("untrained", "air-vehicle")) == 3
    semi = fighter("trained", "semi-automatic")
    assert (hit_modifier(semi, "hit"), damage_modifier(semi, "hit")) == (2, 0)
    assert (hit_modifier(semi, "damage"), damage_modifier(semi, "damage")) == (1, 1)
    assert hit_modifier(fighter("trained"), "hit") == 1  # no semi-automatic: the choice means nothing


def test_cs_10_wound_table():
    assert [wound_status(t) for t in range(-2, 10)] == (
        [WoundStatus.STUN] * 5 + [WoundStatus.INJURE] * 2 + [WoundStatus.DYING] + [WoundStatus.DEAD] * 4)
    assert [w.name for w in WoundStatus] == ["STUN", "INJURE", "DYING", "DEAD"]


def test_cs_10_effects_and_second_time_escalations():
    ok = Status()
    stunned, text = apply_wound(ok, WoundStatus.STUN, 1)
    assert (stunned.condition, stunned.suppression, stunned.no_cards_next) == (Condition.STUNNED, 3, True)
    twice, text = apply_wound(stunned, WoundStatus.STUN, 1, countdown=8)
    assert twice.condition is Condition.INJURED and twice.countdown == 8 and "second STUN" in text
    injured, _ = apply_wound(ok, WoundStatus.INJURE, 1, countdown=5)
    assert (injured.condition, injured.suppression, injured.countdown) == (Condition.INJURED, 3, 5)
    dead, text = apply_wound(injured, WoundStatus.INJURE, 1)
    assert dead.condition is Condition.DEAD and "second INJURE" in text
    dying, _ = apply_wound(injured, WoundStatus.DYING, 1, countdown=2)  # CS-13: DYING replaces INJURED
    assert (dying.condition, dying.suppression, dying.countdown) == (Condition.DYING, 8, 2)
    dead, text = apply_wound(dying, WoundStatus.DYING, 1)
    assert dead.condition is Condition.DEAD and "second DYING" in text
    assert apply_wound(ok, WoundStatus.DEAD, 1)[0].condition is Condition.DEAD
    # HR-CS-2: a milder wound adds its suppression but does not change a worse condition.
    milder, text = apply_wound(dying, WoundStatus.INJURE, 1)
    assert milder.condition is Condition.DYING and milder.suppression == 11 and "HR-CS-2" in text
    stun_on_injured, _ = apply_wound(injured, WoundStatus.STUN, 1)
    assert stun_on_injured.condition is Condition.INJURED and stun_on_injured.no_cards_next
    with pytest.raises(ValueError, match="CS-13"):
        apply_wound(ok, WoundStatus.INJURE, 1)


@given(st.lists(st.sampled_from(list(WoundStatus)), max_size=8))
def test_cs_13_property_conditions_never_get_better_through_wounds(wounds):
    status = Status()
    for n, wound in enumerate(wounds):
        new, _ = apply_wound(status, wound, n + 1, countdown=3)
        assert new.condition.severity >= status.condition.severity
        assert new.suppression >= status.suppression
        status = new


# ---------------------------------------------------------------------------
# Exact odds against brute force


WEAPONS = [tuple(t for t in combo if t) for combo in itertools.product(
    ("", "automatic", "semi-automatic"), ("", "explosive"), ("", "ground-vehicle", "air-vehicle"))]


def brute_force(shooter: Combatant, mode: str, cover: str, semi: str | None) -> dict:
    """Resolve the shot through the engine for every d10 × d6 and count the outcomes."""
    setup = roster({"name": "S", "side": 0, "grain": "individual", "training": shooter.training.value,
                    "weapon": [t.value for t in shooter.weapon], "player": False}, man("T", 1))
    base = replay(run(new_game(KIND, setup, seed=0), DEAL))
    counts: dict[Any, Fraction] = {}
    for d10, d6 in itertools.product(range(1, 11), range(1, 7)):
        action = shoot(0, 1, mode=mode, cover=cover, semi=semi,
                       dice=[{"d10": d10, "d6": d6, "countdown": 2}])
        result = cs.step(base, action).last_shot.targets[0]
        key = result.wound if result.hit else None
        counts[key] = counts.get(key, Fraction(0)) + Fraction(1, 60)
    return counts


@pytest.mark.parametrize("weapon", WEAPONS, ids=lambda w: "+".join(w) or "plain")
def test_cs_8_to_11_exact_odds_agree_with_brute_force_enumeration(weapon):
    for training, cover, mode in itertools.product(("untrained", "trained", "elite"), ("none", "cover", "good"),
                                                   ("aimed", "suppressive")):
        for semi in (("hit", "damage") if "semi-automatic" in weapon else (None,)):
            shooter = fighter(training, *weapon)
            odds = shot_odds(shooter, mode, cover, semi)
            counted = brute_force(shooter, mode, cover, semi)
            expected = {k: v for k, v in odds.outcomes.items() if v}
            assert counted == expected, (training, cover, mode, semi)
            assert sum(odds.outcomes.values()) == 1 and sum(odds.wounds.values()) == 1


@given(st.integers(-3, 12))
def test_cs_10_wound_distribution_is_the_enumerated_d6(damage):
    dist = wound_distribution(damage)
    for wound in WoundStatus:
        assert dist[wound] == Fraction(sum(1 for d in range(1, 7) if wound_status(d + damage) is wound), 6)


# ---------------------------------------------------------------------------
# CS-12, CS-13 rounds


def test_cs_12_suppression_is_lost_after_a_round_without_fire():
    g = run(game(), DEAL, shoot(3, 0, dice=[{"d10": 1}]), shoot(3, 1, dice=[{"d10": 1}]), {"type": "end_round"})
    s = replay(g)
    assert s.statuses[0].suppression == 1 and s.statuses[1].suppression == 1  # fired on this round: kept
    g = run(g, DEAL, shoot(3, 0, dice=[{"d10": 1}]), {"type": "end_round"})
    s = replay(g)
    assert s.statuses[0].suppression == 2  # fired on again: kept and grows
    assert s.statuses[1].suppression == 0  # a round with no fire: all lost (CS-12)
    assert any("suppression 1 → 0 (CS-12)" in e.text for e in s.log)


def test_cs_13_injured_countdown_turns_dying_then_dead_unless_treated():
    g = run(game(), DEAL, shoot(3, 0, dice=[{"d10": 10, "d6": 3, "countdown": 2}]))
    assert replay(g).statuses[0].countdown == 2
    g = run(g, {"type": "end_round"})
    assert replay(g).statuses[0].countdown == 1
    treated = apply(g, {"type": "treat", "combatant": 0})
    after = replay(run(treated, DEAL, {"type": "end_round"}, DEAL, {"type": "end_round"}))
    assert after.statuses[0].condition is Condition.INJURED  # treated: the countdown stopped
    g = run(g, DEAL, {"type": "end_round", "dice": {"0": 1}})
    s = replay(g)
    assert s.statuses[0].condition is Condition.DYING and s.statuses[0].countdown == 1
    assert "not treated in time" in s.log[-1].text
    with pytest.raises(RuleError, match="CS-13: only an INJURED"):
        apply(g, {"type": "treat", "combatant": 0})
    aided = apply(g, {"type": "first_aid", "combatant": 0})
    assert replay(run(aided, DEAL, {"type": "end_round"})).statuses[0].condition is Condition.DYING
    g = run(g, DEAL, {"type": "end_round"})
    assert replay(g).statuses[0].condition is Condition.DEAD
    assert "no first aid in time: DEAD" in replay(g).log[-1].text


def test_cs_13_countdowns_are_rolled_by_the_app_2d6_and_1d6():
    injured, dying = set(), set()
    for seed in range(60):
        g = run(game(seed=seed), DEAL, shoot(3, 0, dice=[{"d10": 10, "d6": 3}]),
                shoot(3, 1, dice=[{"d10": 10, "d6": 5}]))
        s = replay(g)
        injured.add(s.statuses[0].countdown)
        dying.add(s.statuses[1].countdown)
    assert injured <= set(range(2, 13)) and len(injured) > 6
    assert dying <= set(range(1, 7)) and len(dying) == 6


def test_hr_cs_1_stun_wears_off_after_the_round_without_cards():
    g = run(game(), DEAL, shoot(3, 0, dice=[{"d10": 10, "d6": 1}]), {"type": "end_round"})
    assert replay(g).statuses[0].condition is Condition.STUNNED
    g = run(g, DEAL)
    assert replay(g).hands[0].due == 0
    g = run(g, {"type": "end_round"})
    assert replay(g).statuses[0].condition is Condition.OK
    assert replay(run(g, DEAL)).hands[0].due == 1


def test_hr_cs_3_dying_and_dead_do_not_act():
    g = run(game(seed=2), {"type": "deal", "advantages": {"0": ["firepower"]}})
    g = apply(g, shoot(3, 0, dice=[{"d10": 10, "d6": 6}]))  # 6 + 0: DEAD
    s = replay(g)
    assert all(s.turns[i].combatant != 0 for i in [current_turn(s)])
    with pytest.raises(RuleError, match="HR-CS-3"):
        apply(g, shoot(0, 3))
    with pytest.raises(RuleError, match="CS-10: .* already DEAD"):
        apply(g, shoot(4, 0))


def test_pulp_variant_keeps_a_player_character_in_the_fight():
    assert [v.key for v in VARIANTS] == ["pulp"] and VARIANTS[0].rule_id == "CS-3"
    with pytest.raises(SettingsError):
        game(rules={"pulp": "yes"})
    for pulp, expected in ((False, 0), (True, 1)):
        g = run(game(rules={"pulp": pulp}), DEAL,
                shoot(3, 0, unseen=True, dice=[{"d10": 1}]), {"type": "end_round"}, DEAL)
        assert len(replay(g).hands[0].kept) == expected  # suppression 3: loses 1 of 1


def test_house_rules_are_listed_with_ids():
    assert set(HOUSE_RULES) == {f"HR-CS-{n}" for n in range(1, 6)}


# ---------------------------------------------------------------------------
# Session protocol: refusals, history, codec, undo


def test_round_phases_are_enforced():
    g = game()
    for action, rule in (({"type": "next"}, "CS-5"), (shoot(0, 3), "CS-5"), ({"type": "end_round"}, "CS-12")):
        with pytest.raises(RuleError, match=rule):
            apply(g, action)
    g = apply(g, DEAL)
    with pytest.raises(RuleError, match="still on"):
        apply(g, DEAL)
    for bad in ({"type": "jump"}, {"type": "shoot", "shooter": 99, "targets": [1]},
                {"type": "shoot", "shooter": 0, "targets": [3], "cover": "wall"},
                {"type": "shoot", "shooter": 0, "targets": [3], "dice": [{"d10": 11}]},
                {"type": "privacy"}, "deal"):
        with pytest.raises(ActionError):
            apply(g, bad)


def test_redo_gives_the_same_deal_and_the_same_dice_and_saves_round_trip():
    g = run(game(seed=9), DEAL, shoot(0, 3, mode="suppressive"), shoot(3, 0))
    s = replay(g)
    again = redo(redo(undo(undo(g))))
    assert replay(again).hands == s.hands and replay(again).statuses == s.statuses
    loaded, _ = codec.loads(codec.dumps(g))
    assert replay(loaded).log == s.log
    assert codec.decode_share(codec.encode_share(g)) == g
    labels = cs.describe(replay(g, 1), g.actions[1])
    assert labels == "Round 1 · Blue 1 suppresses Red 1"


def test_describe_labels_every_action():
    s = replay(run(game(), DEAL))
    assert cs.describe(s, {"type": "next"}).startswith("Round 1 · ")
    for action in ({"type": "treat", "combatant": 0}, {"type": "first_aid", "combatant": 0},
                   {"type": "privacy", "hide": False}, {"type": "end_round"},
                   {"type": "long", "combatant": 0, "cards": []}):
        assert cs.describe(s, action).startswith("Round 1 · ")
    assert cs.describe(s, {"type": "nope"}) == "Unknown action"


# ---------------------------------------------------------------------------
# Privacy and the spectator copy


def played_game(seed: int = 4):
    g = run(game(seed=seed), {"type": "deal", "advantages": {"0": ["firepower"], "4": ["morale"]}},
            shoot(0, 3, 4, mode="suppressive"), shoot(3, 0, dice=[{"d10": 10, "d6": 3, "countdown": 5}]),
            {"type": "next"}, {"type": "next"}, {"type": "end_round"}, DEAL)
    return g


def test_privacy_hides_non_player_combatants():
    s = replay(game())
    assert [cs.is_hidden(s, i) for i in range(6)] == [False, True, True, True, True, True]
    s = replay(apply(game(), {"type": "privacy", "hide": False}))
    assert not any(cs.is_hidden(s, i) for i in range(6))


def test_spectator_copy_has_no_seed_and_no_hidden_card_anywhere():
    g = played_game()
    full = replay(g)
    hidden_cards = {str(c) for i, h in enumerate(full.hands) if cs.is_hidden(full, i) for c in h.dealt}
    pub = public_game(g)
    assert pub.seed == 0 and pub.setup["facts"] and pub.setup["hidden"] == [1, 2, 3, 4, 5]
    payload = json.dumps(list(pub.actions))
    assert hidden_cards and not any(f'"{c}"' in payload for c in hidden_cards)
    opened = codec.decode_share(codec.encode_share(pub))
    s = replay(opened)
    assert all(not s.hands[i].dealt for i in range(1, 6))
    assert s.hands[0] == full.hands[0] and s.statuses[0] == full.statuses[0]
    assert all(s.statuses[i] == Status() for i in range(1, 6))  # their status is not tracked
    ended = apply(opened, {"type": "end_round"})
    with pytest.raises(RuleError, match="CS-6: this is a spectator copy"):
        apply(ended, DEAL)


def test_spectator_copy_with_privacy_off_shows_everything_as_facts():
    g = apply(played_game(), {"type": "privacy", "hide": False})
    pub = public_game(g)
    s, full = replay(pub), replay(g)
    assert pub.seed == 0 and pub.setup["hidden"] == []
    assert s.hands == full.hands and s.statuses == full.statuses
    assert [t.card for t in s.turns] == [t.card for t in full.turns]


def test_spectator_copy_drops_the_redo_stack():
    g = undo(played_game())
    pub = public_game(g)
    assert len(pub.actions) == pub.position and validate(pub) == pub


ACTIONS = st.one_of(
    st.just({"type": "next"}), st.just({"type": "end_round"}), st.just(DEAL),
    st.builds(lambda a, b, m, c: shoot(a, b, mode=m, cover=c), st.integers(0, 5), st.integers(0, 5),
              st.sampled_from(["aimed", "suppressive"]), st.sampled_from(["none", "cover", "good"])),
    st.builds(lambda a: {"type": "treat", "combatant": a}, st.integers(0, 5)),
    st.builds(lambda a: {"type": "first_aid", "combatant": a}, st.integers(0, 5)),
    st.builds(lambda h: {"type": "privacy", "hide": h}, st.booleans()),
)


@settings(max_examples=60)
@given(st.integers(0, 2**32 - 1), st.lists(ACTIONS, max_size=30))
def test_property_spectator_copy_replays_the_public_facts(seed, actions):
    g = game(seed=seed)
    for action in actions:
        try:
            g = apply(g, action)
        except (RuleError, ActionError):
            pass
    pub = public_game(g)
    s, full = replay(pub), replay(g)
    assert (s.round, s.phase) == (full.round, full.phase)
    for i in range(6):
        if cs.is_hidden(full, i):
            assert s.hands[i] is None or not s.hands[i].dealt
        else:
            assert s.statuses[i] == full.statuses[i]
            assert s.hands[i] == full.hands[i]
    public_turns = [t for t in full.turns if not cs.is_hidden(full, t.combatant)]
    assert s.turns == tuple(public_turns)
    assert codec.decode_share(codec.encode_share(pub)) == pub


def test_log_entries_name_whose_cards_or_status_they_tell():
    g = run(game(), {"type": "deal"}, shoot(3, 0, dice=[{"d10": 1}]), shoot(0, 3, dice=[{"d10": 1}]))
    s = replay(g)
    assert s.log[-2].who == (0,) and s.log[-1].who == (3,)  # the target, not the shooter
    pub = replay(public_game(g))
    assert [e.who for e in pub.log[1:]] == [(0,)]  # fire at a hidden combatant is left out
