"""CONSIM (engine.consim): tests per clause CS-1 … CS-13, the house rules, the exact odds
against brute-force enumeration of the dice, and the session protocol.

The referee (issue 20) is in test_consim_referee.py, the spectator's copy and the
players' view (issue 21) in test_consim_privacy.py, hostile callers in
test_consim_hostile.py and older saves in test_consim_upgrade.py."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import codec
from engine import consim as cs
from engine.cards import Suit, full_deck, parse_card
from engine.consim import (
    ADVANTAGES,
    HOUSE_RULES,
    KIND,
    VARIANTS,
    Combatant,
    Condition,
    SetupError,
    Status,
    Training,
    Trait,
    WoundStatus,
    apply_wound,
    cards_due,
    current_turn,
    damage_modifier,
    hit_chance,
    hit_modifier,
    initiative_order,
    normalize_setup,
    shot_odds,
    suppression_caused,
    wound_distribution,
    wound_status,
)
from engine.game import ActionError, RuleError, apply, history, new_game, redo, replay, undo
from engine.rules import SettingsError

from .consim_kit import (
    DEAL,
    END,
    NEXT,
    OWN,
    SPADES,  # noqa: F401 (other tests import it from here)
    acting,
    deal,
    fighter,
    game,
    in_order,
    man,
    roster,
    run,
    shoot,
    two_sides,  # noqa: F401 (other tests import it from here)
    until,
)

C = parse_card


# ---------------------------------------------------------------------------
# CS-1: combatants


def test_cs_1_roster_is_normalized_with_defaults():
    out = normalize_setup({"sides": ["A", "B"], "combatants": [{"name": "  Sniper ", "side": 1}]})
    assert out == {"sides": ["A", "B"], "combatants": [
        {"name": "Sniper", "side": 1, "grain": "individual", "training": "untrained", "weapon": [],
         "player": False}], "privacy": True}
    # the weapon traits come in a fixed order, each once
    out = normalize_setup(roster(man("x", weapon=["explosive", "automatic", "explosive"])))
    assert out["combatants"][0]["weapon"] == ["automatic", "explosive"]
    # older saves carried "facts": false and "hidden": []: the same game
    assert normalize_setup({**roster(man("x")), "facts": False, "hidden": []}) == normalize_setup(roster(man("x")))


@pytest.mark.parametrize("bad, words", [
    ({"sides": ["A"], "combatants": [man("x")]}, "2 to 8 sides"),
    ({"sides": [f"S{i}" for i in range(9)], "combatants": [man("x")]}, "2 to 8 sides"),
    ({"sides": ["A", "a"], "combatants": [man("x")]}, "same name"),
    ({"sides": ["A", "B"], "combatants": []}, "at least one combatant"),
    ({"sides": ["A", "B"], "combatants": [man(f"x{i}") for i in range(121)]}, "at most 120"),
    ({"sides": ["A", "B"], "combatants": [man("x", 2)]}, "side must be 0 to 1"),
    ({"sides": ["A", "B"], "combatants": [man("x", True)]}, "side must be 0 to 1"),
    ({"sides": ["A", "B"], "combatants": [man("", 0)]}, "name is empty"),
    ({"sides": ["A", "B"], "combatants": [man("a\nb", 0)]}, "line break"),
    ({"sides": ["A", "B"], "combatants": [man("\u202eAnna", 0)]}, "invisible"),
    ({"sides": ["A", "B"], "combatants": [man("x", training="veteran")]}, "training must be one of"),
    ({"sides": ["A", "B"], "combatants": [man("x", grain="army")]}, "kind must be one of"),
    ({"sides": ["A", "B"], "combatants": [man("x", weapon=["laser"])]}, "weapon trait must be one of"),
    ({"sides": ["A", "B"], "combatants": [{**man("x"), "weapon": 5}]}, "must be a list"),
    ({"sides": ["A", "B"], "combatants": [man("x", weapon=["automatic", "semi-automatic"])]}, "not both"),
    ({"sides": ["A", "B"], "combatants": [man("x", weapon=["ground-vehicle", "air-vehicle"])]}, "not both"),
    ({"sides": ["A", "B"], "combatants": [{**man("x"), "morale": 3}]}, "unknown field"),
    ({"sides": ["A", "B"], "combatants": [{**man("x"), "player": "yes"}]}, "true or false"),
    ({"sides": ["A", "B"], "combatants": ["x"]}, "must be an object"),
    ({"sides": ["A", "B"], "combatants": [man("x")], "spectator": False, "hidden": [0]}, "spectator copy"),
    ({"sides": ["A", "B"], "combatants": [man("x")], "privacy": "on"}, "true or false"),
    ({"sides": ["A", "B"], "combatants": [man("x")], "turns": 3}, "unknown field"),
    ({"sides": ["A", "B"], "combatants": [man("x")], "spectator": 1}, "spectator"),
    ({"sides": ["A", "B"], "combatants": [man("x")], "legacy": "yes"}, "legacy"),
    ({"sides": ["A", "B"], "combatants": [man("x")], "facts": True, "spectator": False}, "spectator"),
    ({"sides": ["A", "B"], "combatants": [man("Sniper")], "spectator": True, "hidden": [0]}, "placeholder"),
    ({"sides": ["A", "B"], "combatants": [man("x"), man("y")], "spectator": True, "hidden": [0, 0]}, "each once"),
    ({"sides": ["A", "B"], "combatants": [man("x")], "spectator": True, "hidden": [1]}, "by number"),
    ("roster", "object"),
])
def test_cs_1_bad_rosters_are_explained(bad, words):
    with pytest.raises(SetupError, match=words):
        normalize_setup(bad)


def test_cs_1_a_spectator_copy_holds_placeholders_for_the_hidden():
    copy = {"sides": ["A", "B"], "combatants": [man("Hero", player=True),
                                                 {**man(cs.placeholder(1), 1)}], "spectator": True, "hidden": [1]}
    assert normalize_setup(copy)["hidden"] == [1] and normalize_setup(copy)["spectator"] is True
    assert normalize_setup({**copy, "spectator": True, "legacy": True})["legacy"] is True
    assert "legacy" not in normalize_setup({**copy, "legacy": False})
    assert "spectator" not in normalize_setup({**roster(man("x")), "spectator": False})


def test_cs_1_and_cs_8_training_bonus():
    assert [t.bonus for t in Training] == [0, 1, 2]
    assert [t.label for t in Training] == ["Untrained", "Trained", "Elite"]
    assert Condition.OK.label == "fit" and Condition.DYING.label == "DYING"
    assert [c.severity for c in Condition] == [0, 1, 2, 3, 4]
    assert Trait.GROUND_VEHICLE.label == "Ground-vehicle weapon"
    assert [c.label for c in cs.Cover] == ["out of cover", "in cover", "in good cover"]


# ---------------------------------------------------------------------------
# CS-5: acting order


def test_cs_5_order_aces_high_then_spades_hearts_diamonds_clubs():
    cards = [C(t) for t in "2C KH AS KS 10D AC KC KD 3H".split()]
    assert [c.token for c in initiative_order(cards)] == "AS AC KS KH KD KC 10D 3H 2C".split()
    assert initiative_order("2C AS KH") == [C("AS"), C("KH"), C("2C")]  # tokens alike (issue 20)
    assert cs.initiative_key("AS") == cs.initiative_key(C("AS")) == (-14, 0)
    assert cs.initiative_key("2C") == (-2, 3)


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
        assert cs.turn_counts(s) == (len(seen) - 1, len(s.turns) - len(seen) + 1)
        g = apply(g, NEXT)
        s = replay(g)
    assert seen == initiative_order(seen) and len(seen) == len(s.turns)
    assert cs.round_over(s) and cs.turn_counts(s) == (len(seen), 0)
    with pytest.raises(RuleError, match="CS-5: everyone has acted"):
        apply(g, NEXT)


def test_cs_5_a_shot_is_the_cards_action_and_the_turn_moves_on():
    g = run(game(), in_order(6))
    assert acting(g) == 0
    g = apply(g, shoot(0, 3, dice=[{"d10": 1}]))
    s = replay(g)
    assert cs.acting(s) == 1 and s.turns[0].done  # no Next needed
    assert cs.status(s) == "Round 1: Blue 2 acts on the K♠ (CS-5)."
    with pytest.raises(RuleError, match="CS-5: only the current actor acts: it is Blue 2's turn"):
        apply(g, shoot(0, 3, dice=[{"d10": 1}]))  # a second shot on the same card


def test_cs_5_long_action_is_declared_on_the_turn_and_acts_at_the_lowest():
    g = run(game(), deal("AS 9H 2C", "KS", "QS", "JS", "10S", "9S", advantages={"0": ["firepower", "position"]}))
    s = replay(g)
    assert cs.acting(s) == 0
    with pytest.raises(RuleError, match="spends its card, the A♠"):
        apply(g, {"type": "long", "combatant": 0, "cards": ["9H", "2C"]})
    with pytest.raises(RuleError, match="at least 2"):
        apply(g, {"type": "long", "combatant": 0, "cards": ["AS"]})
    with pytest.raises(RuleError, match="no unplayed 8♥"):
        apply(g, {"type": "long", "combatant": 0, "cards": ["AS", "8H"]})
    with pytest.raises(RuleError, match="CS-5: only the current actor"):
        apply(g, {"type": "long", "combatant": 1, "cards": ["KS", "AS"]})
    g = apply(g, {"type": "long", "combatant": 0, "cards": ["9h", "AS"]})
    assert g.actions[-1] == {"type": "long", "combatant": 0, "cards": ["AS", "9H"]}  # canonical order
    s = replay(g)
    entries = [t for t in s.turns if t.combatant == 0]
    assert [(t.card.token, [c.token for c in t.spent]) for t in entries] == [("9H", ["AS"]), ("2C", [])]
    assert [t.card for t in s.turns] == initiative_order(t.card for t in s.turns)
    assert cs.acting(s) == 1  # the A♠ went into the long action: the turn moved on
    assert "Blue 1: long action on A♠, 9♥, acts at the 9♥ (CS-5)." == s.log[-1].text
    assert cs.status(until(g, 0) and replay(until(g, 0))) == "Round 1: Blue 1 acts on the 9♥ (long action, 2 cards) (CS-5)."
    # the long action's card: a shot there is its action, then Blue 1's last card comes up
    g = until(g, 0)
    g = apply(g, shoot(0, 3, dice=[{"d10": 1}]))
    assert acting(g) == 0 and replay(g).turns[current_turn(replay(g))].card == C("2C")


# ---------------------------------------------------------------------------
# CS-2, CS-3, CS-4, CS-10, CS-13 card counts


@pytest.mark.parametrize("advantages", range(6))
def test_cs_2_one_card_plus_one_per_advantage(advantages):
    due, struck, reasons = cards_due(advantages)
    assert (due, struck) == (1 + advantages, 0)
    assert reasons == ((f"1 + {advantages} advantage{'s' if advantages != 1 else ''} (CS-2)",) if advantages
                       else ("1 card (CS-2)",))


def test_cs_2_deal_counts_the_ticked_advantages():
    keys = list(ADVANTAGES)
    g = run(game(), {"type": "deal", "advantages": {"0": keys, "3": keys[:2]}})
    s = replay(g)
    assert [len(h.dealt) for h in s.hands] == [6, 1, 1, 3, 1, 1]
    assert s.advantages[0] == tuple(keys) and s.advantages[3] == tuple(keys[:2]) and s.advantages[1] == ()
    with pytest.raises(ActionError):
        apply(game(), {"type": "deal", "advantages": {"0": ["luck"]}})
    with pytest.raises(ActionError):
        apply(game(), {"type": "deal", "advantages": {"0": ["morale", "morale"]}})


@pytest.mark.parametrize("suppression, lost", [(0, 0), (1, 0), (2, 1), (3, 1), (4, 2), (9, 4)])
def test_cs_3_every_two_suppression_strikes_a_card(suppression, lost):
    assert cards_due(5, suppression)[:2] == (6, lost)


def test_cs_3_the_injury_and_suppression_strike_at_the_deal_and_pulp_keeps_one():
    assert cards_due(1, 10)[:2] == (2, 2)
    assert cards_due(1, 10, player=True, pulp=True)[:2] == (2, 1)
    assert cards_due(1, 10, player=False, pulp=True)[:2] == (2, 2)  # pulp is for player characters
    assert cards_due(1, 10, player=True, pulp=False)[:2] == (2, 2)
    # CS-3 ruling: INJURED's card is dealt, then struck (it comes off the deck)
    due, struck, reasons = cards_due(2, 7, Condition.INJURED)
    assert (due, struck) == (3, 3) and "INJURED: one card struck (CS-10, CS-3)" in reasons
    assert "suppression 7: the highest 3 cards struck (CS-3)" in reasons
    assert cards_due(0, 0, Condition.INJURED)[:2] == (1, 1)
    assert cards_due(0, 0, "injured", player=True, pulp=True) == (
        1, 0, ("1 card (CS-2)", "INJURED: one card struck (CS-10, CS-3)", "pulp: a player character keeps 1 card (CS-3)"))
    # the earlier reading (saved games, "legacy"): one card fewer, not dealt
    assert cards_due(2, 7, Condition.INJURED, legacy=True)[:2] == (2, 2)
    assert cards_due(0, 0, Condition.INJURED, legacy=True) == (0, 0, ("1 card (CS-2)", "INJURED: one fewer (CS-10)"))
    assert cards_due(0, 0, Condition.INJURED, player=True, pulp=True, legacy=True)[:2] == (1, 0)
    assert cards_due(1, 6, player=True, pulp=True, legacy=True) == (
        2, 1, ("1 + 1 advantage (CS-2)", "suppression 6: loses the highest 3 cards (CS-3), keeps 1 (pulp)"))


@pytest.mark.parametrize("kwargs, reason", [
    ({"surprised": True}, "surprised: no cards (CS-4)"),
    ({"condition": Condition.DYING}, "DYING: no cards (CS-13)"),
    ({"condition": Condition.DEAD}, "DEAD: no cards (CS-13)"),
    ({"no_cards": True}, "STUNNED: no cards this round (CS-10)"),
])
def test_cs_3_the_pulp_floor_does_not_hold_against_surprise_stun_dying_or_dead(kwargs, reason):
    assert cards_due(3, 0, player=True, pulp=True, **kwargs) == (0, 0, (reason,))


@given(st.integers(0, 5), st.integers(0, 30), st.sampled_from(list(Condition)), st.booleans(), st.booleans(),
       st.booleans(), st.booleans())
def test_cs_2_3_4_10_card_count_properties(adv, sup, cond, stunned, surprised, player, pulp):
    due, struck, reasons = cards_due(adv, sup, cond, no_cards=stunned, surprised=surprised, player=player,
                                     pulp=pulp)
    assert 0 <= struck <= due <= 1 + adv and reasons
    if surprised or stunned or cond in (Condition.DYING, Condition.DEAD):
        assert due == struck == 0  # CS-4, CS-10 (stun), CS-13
        return
    assert due == 1 + adv  # CS-3 ruling: everything owed is dealt
    strikes = sup // 2 + (1 if cond is Condition.INJURED else 0)
    if pulp and player:
        assert struck == min(strikes, due - 1)  # CS-3 variant: keeps 1
    else:
        assert struck == min(strikes, due)


def test_cs_3_the_highest_cards_are_struck_in_a_deal_and_still_come_off_the_deck():
    g = run(game(seed=11), in_order(6), shoot(0, 3, unseen=True, dice=[{"d10": 1}]), END)
    s = replay(g)
    assert s.statuses[3].suppression == 3  # 1 + 2 unseen (CS-7), kept: fired on this round
    g = apply(g, deal("AS", "KS", "QS", "2H 9H KH AH", "10S", "9S", advantages={"3": ["firepower", "training",
                                                                                          "morale"]}))
    hand = replay(g).hands[3]
    assert [c.token for c in hand.dealt] == ["AH", "KH", "9H", "2H"] and [c.token for c in hand.lost] == ["AH"]
    assert [c.token for c in hand.kept] == ["KH", "9H", "2H"]
    assert replay(g).log[-1].text == "Round 2: 9 cards dealt, 1 struck for suppression and wounds (CS-3): 8 to act."
    # With the app's deck: struck cards are dealt (so later combatants get other cards).
    g = run(game(seed=11), in_order(6), shoot(0, 3, unseen=True, dice=[{"d10": 1}]), END,
            {"type": "deal", "advantages": {"3": list(ADVANTAGES)[:3]}})
    s = replay(g)
    assert len(s.hands[3].dealt) == 4 and s.hands[3].lost == tuple(initiative_order(s.hands[3].dealt)[:1])
    dealt = [c for h in s.hands for c in h.dealt]
    assert len(dealt) == len(set(dealt)) == 9


def test_cs_3_an_injured_combatant_is_dealt_its_card_and_loses_the_highest():
    g = run(game(), in_order(6), shoot(0, 3, dice=[{"d10": 10, "d6": 3, "countdown": 9}]), END)
    assert replay(g).statuses[3].condition is Condition.INJURED
    assert replay(g).statuses[3].suppression == 4  # 1 + 3: two more cards struck
    adv = {"3": ["firepower", "position", "morale"]}
    g = apply(g, deal("AS", "KS", "QS", "5D 10D JD QD", "10S", "9S", advantages=adv))
    hand = replay(g).hands[3]
    assert (hand.due, [c.token for c in hand.lost], [c.token for c in hand.kept]) == (4, ["QD", "JD", "10D"], ["5D"])
    assert hand.reasons == ("1 + 3 advantages (CS-2)", "INJURED: one card struck (CS-10, CS-3)",
                            "suppression 4: the highest 2 cards struck (CS-3)")
    with pytest.raises(RuleError, match="CS-6: Red 1 is owed 4 cards, the record gives 3"):
        apply(run(game(), in_order(6), shoot(0, 3, dice=[{"d10": 10, "d6": 3, "countdown": 9}]), END),
              deal("AS", "KS", "QS", "5D 10D JD", "10S", "9S", advantages=adv))


def test_cs_3_suppression_gained_mid_round_costs_no_card_already_held():
    g = run(game(), deal("AS", "KS", "QS", "JS 2S", "10S", "9S", advantages={"3": ["morale"]}))
    g = apply(g, shoot(0, 3, unseen=True, dice=[{"d10": 1}]))  # 3 suppression now, mid-round
    s = replay(g)
    assert s.statuses[3].suppression == 3
    assert [t.card.token for t in s.turns if t.combatant == 3] == ["JS", "2S"]  # both still act


def test_cs_4_a_surprised_side_gets_no_cards():
    s = replay(run(game(), {"type": "deal", "surprised": [1], "advantages": {"3": ["firepower"]}}))
    assert [len(h.dealt) for h in s.hands] == [1, 1, 1, 0, 0, 0]
    assert all(s.combatants[t.combatant].side == 0 for t in s.turns)
    assert "Red surprised (CS-4)" in s.log[-1].text
    assert s.surprised == (1,)


def test_cs_10_injured_one_card_struck_stunned_none_dying_none():
    g = run(game(), in_order(6), shoot(0, 3, dice=[{"d10": 10, "d6": 1}]))
    s = replay(g)
    # Blue 1 is automatic: +1 damage, so the wound is 1 + 1 = 2: STUN.
    assert s.statuses[3].condition is Condition.STUNNED and s.statuses[3].no_cards_next
    g = run(g, shoot(1, 4, dice=[{"d10": 10, "d6": 2, "countdown": 6}]),
            shoot(2, 5, dice=[{"d10": 10, "d6": 4, "countdown": 4}]), END)
    s = replay(g)
    assert [st.condition for st in s.statuses[3:]] == [Condition.STUNNED, Condition.INJURED, Condition.DYING]
    g = run(g, {"type": "deal", "advantages": {str(i): ["firepower"] for i in range(6)}})
    s = replay(g)
    assert [h.due for h in s.hands[3:]] == [0, 2, 0]
    assert [len(h.lost) for h in s.hands[3:]] == [0, 2, 0]  # INJURED 1 + suppression 4 // 2, of 2 dealt
    assert s.hands[3].reasons == ("STUNNED: no cards this round (CS-10)",)
    assert "INJURED: one card struck (CS-10, CS-3)" in s.hands[4].reasons
    assert s.hands[5].reasons == ("DYING: no cards (CS-13)",)


def test_cs_6_one_deck_dealt_in_roster_order_reports_who_got_nothing():
    big = roster(*[man(f"M{i}", i % 2) for i in range(30)])
    g = new_game(KIND, big, seed=3)
    g = apply(g, {"type": "deal", "advantages": {str(i): ["firepower"] for i in range(30)}})
    s = replay(g)
    dealt = [c for h in s.hands for c in h.dealt]
    assert len(dealt) == 52 and len(set(dealt)) == 52
    assert [len(h.dealt) for h in s.hands] == [2] * 26 + [0] * 4
    assert s.nothing == (26, 27, 28, 29)
    assert "The deck ran out (CS-6): M26, M27, M28, M29 got nothing or too few" in s.log[-1].text
    # CS-6: reshuffled every round: a new deal is a full deck again.
    g = run(g, END, DEAL)
    assert [len(h.dealt) for h in replay(g).hands] == [1] * 30


@settings(max_examples=40)
@given(st.integers(1, 60), st.integers(0, 2**32 - 1), st.data())
def test_cs_6_property_no_card_twice_and_roster_order(count, seed, data):
    adv = data.draw(st.lists(st.integers(0, 5), min_size=count, max_size=count))
    setup = roster(*[man(f"M{i}", i % 2) for i in range(count)])
    g = new_game(KIND, setup, seed=seed)
    g = apply(g, {"type": "deal", "advantages": {str(i): list(ADVANTAGES)[:a] for i, a in enumerate(adv) if a}})
    s = replay(g)
    dealt = [c for h in s.hands for c in h.dealt]
    assert len(dealt) == len(set(dealt)) == min(52, sum(1 + a for a in adv))
    short = [i for i, h in enumerate(s.hands) if len(h.dealt) < h.due]
    assert list(s.nothing) == short
    if short:  # roster order: everyone before the first short one got all their cards
        assert all(len(h.dealt) == h.due for h in s.hands[:short[0]])
        assert all(len(h.dealt) == 0 for h in s.hands[short[0] + 1:])
    # the same deal, recorded as real cards, is accepted and gives the same table (CS-6)
    recorded = {str(i): [c.token for c in h.dealt] for i, h in enumerate(s.hands) if h.dealt}
    again = apply(new_game(KIND, setup, OWN, seed=seed + 1), {**dict(g.actions[0]), "cards": recorded})
    assert replay(again).hands == s.hands and replay(again).turns == s.turns


# ---------------------------------------------------------------------------
# CS-7 … CS-11 shooting


def test_cs_7_suppression_from_fire():
    plain, ground, air = fighter(), fighter("untrained", "ground-vehicle"), fighter("untrained", "air-vehicle")
    assert suppression_caused(plain) == 1
    assert suppression_caused(plain, unseen=True) == 3
    assert suppression_caused(plain, suppressive_miss=True) == 2
    assert suppression_caused(ground) == 2 and suppression_caused(ground, unseen=True) == 6
    assert suppression_caused(air) == 3 and suppression_caused(air, unseen=True, suppressive_miss=True) == 12
    assert [cs.suppression_multiplier(f) for f in (plain, ground, air)] == [1, 2, 3]
    both = cs.Combatant("X", 0, weapon=frozenset({Trait.GROUND_VEHICLE, Trait.AIR_VEHICLE}))
    assert cs.suppression_multiplier(both) == 3


def test_cs_8_aimed_thresholds_and_training():
    for cover, needed in (("none", 6), ("cover", 7), ("good", 8)):
        assert cs.to_hit_target(cover) == needed == cs.to_hit_target(cs.Cover(cover))
        assert hit_chance(fighter(), "aimed", cover) == Fraction(11 - needed, 10)
        assert hit_chance(fighter("trained"), "aimed", cover) == Fraction(12 - needed, 10)
        assert hit_chance(fighter("elite"), "aimed", cover) == Fraction(13 - needed, 10)
    assert hit_chance(fighter("elite", "explosive", "automatic"), "aimed", "none") == 1  # d10 1 + 5 = 6


def test_cs_8_an_aimed_shot_hits_exactly_at_its_number():
    for d10, hit in ((4, False), (5, True)):  # trained +1, automatic +1 (Blue has automatic, untrained)
        g = run(game(setup=roster(man("A", weapon=["automatic"], training="trained"), man("B", 1))),
                in_order(2), shoot(0, 1, cover="cover", dice=[{"d10": d10, "d6": 1}] if hit else [{"d10": d10}]))
        r = replay(g).log[-1].text
        assert r.startswith(f"A: aimed shot. B: d10 {d10} + 2 = {d10 + 2} vs 7+ in cover: ")
        assert ("hit (CS-8)" in r) is hit


def test_cs_9_suppressive_fire_hits_only_on_a_natural_10():
    for f in (fighter(), fighter("elite", "automatic", "explosive")):
        assert hit_chance(f, "suppressive", "good") == Fraction(1, 10)
    g = run(game(), in_order(6), shoot(0, 3, 4, mode="suppressive", dice=[{"d10": 9}, {"d10": 10, "d6": 1}]))
    s = replay(g)
    a, b = s.last_shot.targets
    assert not a.hit and s.statuses[3].suppression == 2 and a.fire == 2  # 1 + 1 extra (CS-9)
    assert b.hit and b.wound is WoundStatus.STUN and b.fire == 1  # 1 + automatic 1 = 2: STUN
    assert s.statuses[4].suppression == 1 + 3
    assert s.log[-1].text == (
        "Blue 1: suppressive fire on an area. Red 1: d10 9 (suppressive fire hits on a 10): miss. "
        "+2 suppression (CS-7, +1 for suppressive fire: CS-9). Red 2: d10 10 (suppressive fire hits on a 10): "
        "hit (CS-8). d6 1 + 1 = 2: STUN: STUNNED, +3 suppression, no cards next round (CS-10). "
        "+1 suppression from the fire (CS-7).")


def test_cs_9_area_needs_an_automatic_or_semi_automatic_weapon_and_aimed_is_one_target():
    setup = roster(man("Pistol", 0), man("A", 1), man("B", 1))
    g = run(new_game(KIND, setup, OWN, seed=1), in_order(3))
    with pytest.raises(RuleError, match="CS-9: only automatic"):
        apply(g, shoot(0, 1, 2, mode="suppressive"))
    with pytest.raises(RuleError, match="CS-9: an aimed shot has one target"):
        apply(run(game(), in_order(6)), shoot(0, 3, 4))
    g = run(game(rules={"deck": "table"}), deal("KS", "QS", "JS", "AS", "10S", "9S"))  # the app's dice
    assert apply(g, shoot(3, 0, 1, mode="suppressive", semi="damage"))
    with pytest.raises(RuleError, match="CS-7: pick a target"):
        apply(g, shoot(3))
    with pytest.raises(RuleError, match="CS-9: each target once"):
        apply(g, shoot(3, 0, 0, mode="suppressive"))
    with pytest.raises(RuleError, match="CS-7: Red 1 cannot shoot at itself"):
        apply(g, shoot(3, 3))


def test_cs_11_weapon_modifiers_stack_and_semi_automatic_is_a_choice():
    assert hit_modifier(fighter("elite", "automatic", "explosive")) == 5
    assert damage_modifier(fighter("elite", "automatic", "explosive", "ground-vehicle")) == 6
    assert damage_modifier(fighter("untrained", "air-vehicle")) == 3
    assert damage_modifier(fighter("untrained", "ground-vehicle", "air-vehicle")) == 6
    semi = fighter("trained", "semi-automatic")
    assert (hit_modifier(semi, "hit"), damage_modifier(semi, "hit")) == (2, 0)
    assert (hit_modifier(semi, "damage"), damage_modifier(semi, "damage")) == (1, 1)
    assert (hit_modifier(semi), damage_modifier(semi)) == (2, 0)  # +1 to hit unless the shooter picks damage
    assert hit_modifier(fighter("trained"), "hit") == 1  # no semi-automatic: the choice means nothing
    assert damage_modifier(fighter("trained"), "damage") == 0


def test_cs_11_the_semi_automatic_choice_is_stored_and_used():
    g = run(game(), deal("KS", "QS", "JS", "AS", "10S", "9S"))
    # Red 1 (trained, semi-automatic) picks damage: d10 5 + 1 = 6 hits out of cover; d6 2 + 1 = 3: INJURE
    g = apply(g, shoot(3, 0, dice=[{"d10": 5, "d6": 2, "countdown": 4}], semi="damage"))
    s = replay(g)
    assert g.actions[-1]["semi"] == "damage" and s.last_shot.semi == "damage"
    assert s.statuses[0].condition is Condition.INJURED
    assert "semi-automatic for +1 damage (CS-11)" in s.log[-1].text
    # the default is +1 to hit, written down in the canonical action: d10 4 + 2 = 6 hits, d6 2 + 0: STUN
    plain = run(game(), deal("KS", "QS", "JS", "AS", "10S", "9S"), shoot(3, 0, dice=[{"d10": 4, "d6": 2}]))
    assert plain.actions[-1]["semi"] == "hit"
    assert replay(plain).statuses[0].condition is Condition.STUNNED
    assert "semi-automatic for +1 hit (CS-11)" in replay(plain).log[-1].text
    with pytest.raises(ActionError, match="Only a semi-automatic weapon"):
        apply(run(game(), in_order(6)), shoot(0, 3, semi="hit"))


def test_cs_10_wound_table():
    assert [wound_status(t) for t in range(-2, 10)] == (
        [WoundStatus.STUN] * 5 + [WoundStatus.INJURE] * 2 + [WoundStatus.DYING] + [WoundStatus.DEAD] * 4)
    assert [w.name for w in WoundStatus] == ["STUN", "INJURE", "DYING", "DEAD"]


def test_cs_10_effects_and_second_time_escalations():
    ok = Status()
    stunned, text = apply_wound(ok, WoundStatus.STUN, 1)
    assert (stunned.condition, stunned.suppression, stunned.no_cards_next, stunned.stunned_until) == (
        Condition.STUNNED, 3, True, 2)
    assert text == "STUN: STUNNED, +3 suppression, no cards next round (CS-10)"
    twice, text = apply_wound(stunned, WoundStatus.STUN, 1, countdown=8)
    assert twice.condition is Condition.INJURED and twice.countdown == 8 and twice.stunned_until is None
    assert text == "second STUN: INJURED, DYING in 8 rounds unless treated (CS-10, HR-CS-1, CS-13)"
    injured, text = apply_wound(ok, WoundStatus.INJURE, 1, countdown=5)
    assert (injured.condition, injured.suppression, injured.countdown) == (Condition.INJURED, 3, 5)
    assert text == ("INJURE: INJURED, +3 suppression, a card struck at each deal, DYING in 5 rounds unless "
                    "treated (CS-10, CS-13)")
    assert "DYING in 1 round unless" in apply_wound(ok, WoundStatus.INJURE, 1, countdown=1)[1]
    dead, text = apply_wound(injured, WoundStatus.INJURE, 1)
    assert dead.condition is Condition.DEAD and text == "second INJURE: DEAD (CS-10)" and dead.suppression == 6
    dying, text = apply_wound(injured, WoundStatus.DYING, 1, countdown=2)  # CS-13: DYING replaces INJURED
    assert (dying.condition, dying.suppression, dying.countdown) == (Condition.DYING, 8, 2)
    assert text == "DYING: +5 suppression, DEAD in 2 rounds without first aid (CS-10, CS-13)"
    assert "DEAD in 1 round without" in apply_wound(ok, WoundStatus.DYING, 1, countdown=1)[1]
    dead, text = apply_wound(dying, WoundStatus.DYING, 1)
    assert dead.condition is Condition.DEAD and text == "second DYING: DEAD (CS-10)"
    corpse, text = apply_wound(ok, WoundStatus.DEAD, 1)
    assert corpse.condition is Condition.DEAD and text == "DEAD (CS-10)" and corpse.suppression == 0
    assert apply_wound(corpse, WoundStatus.STUN, 3) == (corpse, "already DEAD")
    # HR-CS-2: a milder wound adds its suppression but does not change a worse condition.
    milder, text = apply_wound(dying, WoundStatus.INJURE, 1)
    assert milder.condition is Condition.DYING and milder.suppression == 11
    assert text == "INJURE: +3 suppression; stays DYING (HR-CS-2)"
    stun_on_injured, text = apply_wound(injured, WoundStatus.STUN, 1)
    assert stun_on_injured.condition is Condition.INJURED and stun_on_injured.no_cards_next
    assert text == "STUN: +3 suppression, no cards next round; stays INJURED (HR-CS-2)"
    with pytest.raises(ValueError, match="CS-13"):
        apply_wound(ok, WoundStatus.INJURE, 1)
    # a new INJURED is untreated again; a new DYING has no first aid yet
    treated = replace_status(injured, treated=True)
    assert apply_wound(stunned, "injure", 1, countdown=4)[0].treated is False
    assert apply_wound(treated, "dying", 1, countdown=4)[0] == Status(
        suppression=8, condition=Condition.DYING, countdown=4)


def replace_status(status: Status, **changes: Any) -> Status:
    from dataclasses import replace

    return replace(status, **changes)


def test_cs_10_countdowns_start_only_where_a_condition_starts():
    need = cs.countdown_dice
    assert need(Condition.OK, WoundStatus.INJURE) == need(Condition.STUNNED, WoundStatus.INJURE) == 2
    assert need(Condition.STUNNED, WoundStatus.STUN) == 2
    assert need(Condition.OK, WoundStatus.STUN) == 0 and need(Condition.INJURED, WoundStatus.INJURE) == 0
    assert need(Condition.INJURED, WoundStatus.DYING) == need(Condition.OK, WoundStatus.DYING) == 1
    assert need(Condition.DYING, WoundStatus.DYING) == 0 and need(Condition.DEAD, WoundStatus.DYING) == 0
    assert need(Condition.OK, WoundStatus.DEAD) == 0 and need(Condition.DYING, WoundStatus.INJURE) == 0


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
    base = replay(run(new_game(KIND, setup, OWN, seed=0), in_order(2)))
    counts: dict[Any, Fraction] = {}
    for d10, d6 in itertools.product(range(1, 11), range(1, 7)):
        hits = (d10 + hit_modifier(shooter, semi) >= cs.to_hit_target(cover)) if mode == "aimed" else d10 == 10
        rolls = {"d10": d10, "d6": d6} if hits else {"d10": d10}
        wound = wound_status(d6 + damage_modifier(shooter, semi)) if hits else None
        if wound in (WoundStatus.INJURE, WoundStatus.DYING):
            rolls["countdown"] = 2
        result = cs.step(base, shoot(0, 1, mode=mode, cover=cover, semi=semi, dice=[rolls])).last_shot.targets[0]
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
            assert odds.hit == hit_chance(shooter, mode, cover, semi)
            assert (odds.hit_modifier, odds.damage_modifier) == (hit_modifier(shooter, semi),
                                                                  damage_modifier(shooter, semi))
            assert odds.needed == (cs.to_hit_target(cover) if mode == "aimed" else None)


@given(st.integers(-3, 12))
def test_cs_10_wound_distribution_is_the_enumerated_d6(damage):
    dist = wound_distribution(damage)
    for wound in WoundStatus:
        assert dist[wound] == Fraction(sum(1 for d in range(1, 7) if wound_status(d + damage) is wound), 6)


# ---------------------------------------------------------------------------
# CS-12, CS-13 rounds


def test_cs_12_suppression_is_lost_after_a_round_without_fire():
    g = run(game(), in_order(6), shoot(0, 3, dice=[{"d10": 1}]), shoot(1, 4, dice=[{"d10": 1}]), END)
    s = replay(g)
    assert s.statuses[3].suppression == 1 and s.statuses[4].suppression == 1  # fired on this round: kept
    g = run(g, in_order(6), shoot(0, 3, dice=[{"d10": 1}]), END)
    s = replay(g)
    assert s.statuses[3].suppression == 2  # fired on again: kept and grows
    assert s.statuses[4].suppression == 0  # a round with no fire: all lost (CS-12)
    assert "Red 2 was not fired on: suppression 1 → 0 (CS-12)." in [e.text for e in s.log]
    assert not any(st.fired_on for st in s.statuses)


def test_cs_13_injured_countdown_turns_dying_then_dead_unless_treated():
    g = run(game(), in_order(6), shoot(0, 3, dice=[{"d10": 10, "d6": 2, "countdown": 2}]))
    assert replay(g).statuses[3].countdown == 2
    g = run(g, END)
    assert replay(g).statuses[3].countdown == 1  # the round it started counted as its first (CS-13)
    treated = apply(g, {"type": "treat", "combatant": 3})
    after = replay(run(treated, DEAL, END, DEAL, END))
    assert after.statuses[3].condition is Condition.INJURED  # treated: the countdown stopped
    assert after.statuses[3].countdown == 1 and after.statuses[3].treated
    with pytest.raises(RuleError, match="already treated"):
        apply(treated, {"type": "treat", "combatant": 3})
    g = run(g, DEAL, {"type": "end_round", "dice": {"3": 1}})
    s = replay(g)
    assert s.statuses[3].condition is Condition.DYING and s.statuses[3].countdown == 1
    assert s.log[-1].text == ("Red 1 was not treated in time: DYING, DEAD in 1 round without first aid "
                              "(CS-10, CS-13).")
    with pytest.raises(RuleError, match="CS-13: only an INJURED"):
        apply(g, {"type": "treat", "combatant": 3})
    aided = apply(g, {"type": "first_aid", "combatant": 3})
    assert replay(run(aided, DEAL, END)).statuses[3].condition is Condition.DYING  # stays DYING, does not die
    with pytest.raises(RuleError, match="already has first aid"):
        apply(aided, {"type": "first_aid", "combatant": 3})
    assert replay(run(aided, DEAL)).hands[3].due == 0  # DYING: no cards (CS-13)
    # a DYING that starts at the end of a round counts from the next round: 1 round → dead after it
    g = run(g, DEAL)
    assert replay(g).statuses[3].condition is Condition.DYING
    g = run(g, END)
    assert replay(g).statuses[3].condition is Condition.DEAD
    assert replay(g).log[-1].text == "Red 1 got no first aid in time: DEAD (CS-10, CS-13)."
    with pytest.raises(RuleError, match="first aid is for a DYING"):
        apply(g, {"type": "first_aid", "combatant": 3})


def test_cs_13_a_countdown_of_one_runs_out_at_the_end_of_the_round_it_starts():
    g = run(game(), in_order(6), shoot(0, 3, dice=[{"d10": 10, "d6": 4, "countdown": 1}]))
    s = replay(g)
    assert s.statuses[3].condition is Condition.DYING and s.statuses[3].countdown == 1
    g = run(g, END)
    assert replay(g).statuses[3].condition is Condition.DEAD


def test_cs_13_the_app_rolls_2d6_for_injured_and_1d6_for_dying():
    import random

    setup = roster(man("Grenadier", training="trained", weapon=["explosive"]), man("Target", 1))
    base = replay(run(new_game(KIND, setup, {"deck": "table"}, seed=0), in_order(2)))  # the app's dice
    injured, dying = [], []
    for seed in range(700):
        s = cs.step(base, shoot(0, 1), rng=random.Random(seed))
        st = s.statuses[1]
        if st.condition is Condition.INJURED:
            injured.append(st.countdown)
        elif st.condition is Condition.DYING:
            dying.append(st.countdown)
        r = s.last_shot.targets[0]
        assert r.countdown == st.countdown
    assert set(injured) == set(range(2, 13))  # 2d6: every total from 2 to 12
    assert set(dying) == set(range(1, 7))
    assert sum(injured) / len(injured) == pytest.approx(7, abs=0.6)  # a sum of two dice, not one d12


def test_cs_13_the_app_rolls_the_dying_countdown_at_the_end_of_the_round():
    rolls = set()
    for seed in range(400):  # the app's dice (issue 35: a roll of the app's is never recorded)
        g = run(game(rules={"deck": "table"}, seed=seed), in_order(6), shoot(0, 3))
        if replay(g).statuses[3].condition is not Condition.INJURED:
            continue
        while replay(g).statuses[3].condition is Condition.INJURED:
            g = run(g, END, DEAL)
        s = replay(g)
        assert s.statuses[3].condition is Condition.DYING
        rolls.add(s.statuses[3].countdown)
        if len(rolls) == 6:
            break
    assert rolls == set(range(1, 7))


def test_hr_cs_1_stun_wears_off_after_the_round_without_cards():
    g = run(game(), in_order(6), shoot(0, 3, dice=[{"d10": 10, "d6": 1}]), END)
    assert replay(g).statuses[3].condition is Condition.STUNNED
    g = run(g, DEAL)
    assert replay(g).hands[3].due == 0 and not replay(g).statuses[3].no_cards_next
    g = run(g, END)
    assert replay(g).statuses[3].condition is Condition.OK
    assert "Red 1 is no longer stunned (HR-CS-1)." in [e.text for e in replay(g).log]
    assert replay(run(g, DEAL)).hands[3].due == 1


def test_cs_5_dying_and_dead_never_act_and_are_skipped():
    g = run(game(seed=2), deal("AS", "KS", "QS", "JS 5H", "10S", "9S", advantages={"3": ["firepower"]}))
    g = apply(g, shoot(0, 3, dice=[{"d10": 10, "d6": 6}]))  # 6 + 1: DEAD
    s = replay(g)
    assert s.statuses[3].condition is Condition.DEAD
    assert all(t.combatant != 3 for t in s.turns if not t.done and cs.can_act(s, t.combatant))
    g = until(g, 4)
    with pytest.raises(RuleError, match="CS-10: Red 1 is already DEAD"):
        apply(g, shoot(4, 3, dice=[{"d10": 1}]))
    g = run(g, NEXT, NEXT)
    assert cs.round_over(replay(g))  # Red 1's J♠ and 5♥ are skipped
    with pytest.raises(RuleError, match="CS-5: Red 1 is DEAD and never acts"):
        apply(g, shoot(3, 0, dice=[{"d10": 1}]))


def test_pulp_variant_keeps_a_player_character_in_the_fight():
    assert [v.key for v in VARIANTS] == ["pulp", "deck", "dice"] and VARIANTS[0].rule_id == "CS-3"
    with pytest.raises(SettingsError):
        game(rules={"pulp": "yes"})
    for pulp, expected in ((False, 0), (True, 1)):
        g = run(game(rules={"pulp": pulp, **OWN}), deal("KS", "QS", "JS", "AS", "10S", "9S"),
                shoot(3, 0, unseen=True, dice=[{"d10": 1}]), END, DEAL)
        assert len(replay(g).hands[0].kept) == expected  # suppression 3: strikes 1 of 1
        assert len(replay(g).hands[1].kept) == 1


def test_house_rules_are_listed_with_ids():
    assert set(HOUSE_RULES) == {f"HR-CS-{n}" for n in range(1, 9)}
    assert cs.RULINGS == ("CS-3", "CS-5", "CS-6", "CS-13")
    assert "part of the ruling CS-3" in HOUSE_RULES["HR-CS-4"] and "CS-13" in HOUSE_RULES["HR-CS-3"]


# ---------------------------------------------------------------------------
# Session protocol: refusals, history, codec, undo


def test_round_phases_are_enforced():
    g = game()
    for action, rule in ((NEXT, "CS-5"), (shoot(0, 3), "CS-5"), (END, "CS-12"),
                         ({"type": "long", "combatant": 0, "cards": ["AS", "KS"]}, "CS-5")):
        with pytest.raises(RuleError, match=rule):
            apply(g, action)
    g = apply(g, in_order(6))
    with pytest.raises(RuleError, match="still on"):
        apply(g, DEAL)
    for bad in ({"type": "jump"}, {"type": "shoot", "shooter": 99, "targets": [1]},
                {"type": "shoot", "shooter": 0, "targets": [3], "cover": "wall"},
                {"type": "shoot", "shooter": 0, "targets": [3], "dice": [{"d10": 11}]},
                {"type": "privacy"}, "deal"):
        with pytest.raises(ActionError):
            apply(g, bad)


def test_redo_gives_the_same_deal_and_the_same_dice_and_saves_round_trip():
    g = run(game(rules={}, seed=9), DEAL)  # the app's deck and dice
    g = apply(g, shoot(acting(g), 3 if acting(g) < 3 else 0, mode="suppressive"))
    g = apply(g, NEXT)
    s = replay(g)
    again = redo(redo(undo(undo(g))))
    assert replay(again).hands == s.hands and replay(again).statuses == s.statuses
    loaded, _ = codec.loads(codec.dumps(g))
    assert replay(loaded).log == s.log
    assert codec.decode_share(codec.encode_share(g)) == g
    assert cs.describe(replay(g, 0), g.actions[0]) == "Round 1 · deal"
    assert cs.describe(replay(g, 1), g.actions[1]).startswith("Round 1 · ")
    assert " suppresses " in cs.describe(replay(g, 1), g.actions[1])


def test_replay_gives_the_same_random_draws_as_before_the_rulings():
    """The CS-3 and CS-5 rulings change who acts and what an INJURED holds, not the random
    draws: seed 7's deal and the first shot's d10 and d6 come out as the app dealt and
    rolled them before (values taken from the earlier engine)."""
    g = run(game(rules={}, seed=7), DEAL)  # the app's deck and dice
    s = replay(g)
    assert [c.token for h in s.hands for c in h.dealt] == ["6H", "2C", "7D", "QS", "3C", "KS"]
    assert acting(g) == 5
    g = apply(g, {"type": "shoot", "shooter": 5, "targets": [1]})
    r = replay(g).last_shot.targets[0]
    assert (r.d10, r.d6, r.countdown) == (9, 6, None)


def test_describe_labels_every_action():
    s = replay(run(game(), in_order(6)))
    assert cs.describe(s, NEXT) == "Round 1 · Blue 1 passes (A♠)"
    assert cs.describe(s, shoot(0, 3)) == "Round 1 · Blue 1 aims at Red 1"
    assert cs.describe(s, shoot(0, 3, 4, mode="suppressive")) == "Round 1 · Blue 1 suppresses Red 1, Red 2"
    for action, label in (({"type": "treat", "combatant": 0}, "Blue 1 treated"),
                          ({"type": "first_aid", "combatant": 0}, "Blue 1 first aid"),
                          ({"type": "privacy", "hide": False}, "show the Observer's combatants"),
                          ({"type": "privacy", "hide": True}, "hide the Observer's combatants"),
                          (END, "end of round"), ({"type": "long", "combatant": 0, "cards": []},
                                                  "Blue 1: long action")):
        assert cs.describe(s, action) == "Round 1 · " + label
    assert cs.describe(s, {"type": "nope"}) == "Unknown action" == cs.describe(s, "deal")
    assert cs.describe(s, {"type": "treat", "combatant": 99}) == "Round 1 · ? treated"
    done = replay(run(game(), in_order(6), *[NEXT] * 6))
    assert cs.describe(done, NEXT) == "Round 1 · next"
    assert history(run(game(), in_order(6), NEXT)) == ["Round 1 · deal", "Round 1 · Blue 1 passes (A♠)"]


def test_status_says_what_the_table_waits_for():
    g = game()
    assert cs.status(replay(g)) == "Tick this round's advantages and surprise, then deal (CS-2, CS-4)."
    g = run(g, in_order(6))
    assert cs.status(replay(g)) == "Round 1: Blue 1 acts on the A♠ (CS-5)."
    g = run(g, *[NEXT] * 6)
    assert cs.status(replay(g)) == "Round 1: everyone has acted. End the round (CS-12, CS-13)."
    g = run(g, END)
    assert cs.status(replay(g)) == "Round 1 is over. Tick the advantages for round 2, then deal."


def test_standing_says_where_the_game_stands():
    g = game()
    assert cs.standing(replay(g)) == "Not dealt yet · 6 combatants"
    g = run(g, in_order(6), NEXT, NEXT)
    assert cs.standing(replay(g)) == "Round 1 · 2 of 6 acted"
    g = run(g, *[NEXT] * 4)
    assert cs.standing(replay(g)) == "Round 1 · all acted"
    g = run(g, END)
    assert cs.standing(replay(g)) == "Round 1 over · 6 of 6 alive"
    g = run(g, in_order(6), shoot(0, 3, dice=[{"d10": 10, "d6": 6}]), END)
    assert cs.standing(replay(g)) == "Round 2 over · 5 of 6 alive"


def test_forecast_says_what_the_next_deal_strikes():
    g = run(game(), deal("KS", "QS", "JS", "AS", "10S", "9S"),
            shoot(3, 0, unseen=True, mode="suppressive", dice=[{"d10": 10, "d6": 3, "countdown": 7}]))
    s = replay(g)
    # Blue 1: suppression 3 + 1 (suppressive miss? no: a hit) … 3 unseen + 3 wound = 6, INJURED
    assert s.statuses[0].suppression == 6 and s.statuses[0].condition is Condition.INJURED
    f = cs.forecast(s, 0, advantages=4)
    assert (f.deal, f.by_injury, f.by_suppression, f.keeps, f.why) == (5, 1, 3, 1, None)
    assert cs.forecast(s, 0).keeps == 0 and cs.forecast(s, 0).by_injury == 1
    assert cs.forecast(s, 0, surprised=True).why == "surprised"
    assert cs.forecast(s, 1) == cs.Forecast(1, 0, 0, 1, None, 0)
    # the round's end sheds the suppression of those not fired on (CS-12)
    g = run(game(), deal("KS", "QS", "JS", "AS", "10S", "9S"), shoot(3, 1, unseen=True, dice=[{"d10": 1}]), END)
    s = replay(g)
    assert cs.forecast(s, 1, 1).by_suppression == 1  # fired on last round: keeps its 3 into the deal
    g = run(g, deal("KS", "QS", "JS", "AS", "10S", "9S"))
    assert cs.forecast(replay(g), 1, 1).by_suppression == 0  # not fired on in round 2: shed at its end
    # a STUN takes the next round; a countdown running out makes DYING: no cards
    g = run(game(), deal("KS", "QS", "JS", "AS", "10S", "9S"), shoot(3, 0, dice=[{"d10": 10, "d6": 1}]))
    assert cs.forecast(replay(g), 0).why == "STUNNED"
    g = run(game(), deal("KS", "QS", "JS", "AS", "10S", "9S"),
            shoot(3, 0, dice=[{"d10": 10, "d6": 3, "countdown": 2}]), END, DEAL)
    assert replay(g).statuses[0].condition is Condition.INJURED and replay(g).statuses[0].countdown == 1
    assert cs.forecast(replay(g), 0).why == "DYING"
    assert cs.forecast(replay(apply(g, {"type": "treat", "combatant": 0})), 0).by_injury == 1


def test_issue_34_the_strike_chip_names_both_suppression_and_an_injury():
    """CS-3/CS-10: with one card due, INJURED strikes it and suppression 2 has no card left to
    strike: the chip says both, not "1 for INJURED" alone."""
    from engine.consim import Forecast

    assert Forecast(1, 0, 1, 0, None, 2).strikes_text() == (
        "next deal strikes 1 for INJURED; suppression 2 would strike 1 more: no cards")
    assert Forecast(5, 3, 1, 1, None, 6).strikes_text() == "next deal strikes 3 for suppression and 1 for INJURED: keeps 1 of 5"
    assert Forecast(2, 0, 1, 1, None, 1).strikes_text() == "next deal strikes 1 for INJURED: keeps 1 of 2"
    assert Forecast(2, 0, 0, 2, None, 1).strikes_text() is None
