"""The CONSIM referee (issue 20): every impossible action is refused with its clause, every
accepted one is stored in its canonical form, every public helper refuses a bad
argument with a ValueError subclass. Each case here was accepted (or crashed with a
TypeError) before."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from engine import codec
from engine import consim as cs
from engine.cards import parse_card
from engine.consim import ArgumentError, Condition, Status, WoundStatus
from engine.game import ActionError, Game, RuleError, apply, can_apply, check, new_game, replay, validate

from .consim_kit import DEAL, END, NEXT, OWN, deal, fighter, game, in_order, man, roster, run, shoot, two_sides, until

C = parse_card


def norm(g, action):
    return cs.normalize_action(replay(g), action)


# ---------------------------------------------------------------------------
# CS-5 ruling: only the current actor acts, once per card


def test_cs_5_a_shot_by_a_combatant_who_is_not_acting_is_refused():
    g = run(game(), in_order(6))
    with pytest.raises(RuleError, match=r"CS-5: only the current actor acts: it is Blue 1's turn \(the A♠\), so Red 1 "
                                        "cannot shoot now"):
        apply(g, shoot(3, 0, dice=[{"d10": 1}]))
    assert not can_apply(g, shoot(3, 0, dice=[{"d10": 1}]))
    assert can_apply(g, shoot(0, 3, dice=[{"d10": 1}]))


def test_cs_5_six_shots_on_one_card_are_refused():
    g = run(game(), in_order(6))
    g = apply(g, shoot(0, 3, dice=[{"d10": 1}]))
    for _ in range(5):
        with pytest.raises(RuleError, match="CS-5: only the current actor acts"):
            apply(g, shoot(0, 3, dice=[{"d10": 1}]))
    assert sum(1 for a in g.actions if a["type"] == "shoot") == 1


def test_cs_5_a_combatant_with_two_cards_shoots_once_on_each():
    g = run(game(), deal("AS KH", "QS", "JS", "10S", "9S", "8S", advantages={"0": ["morale"]}))
    g = apply(g, shoot(0, 3, dice=[{"d10": 1}]))  # on the A♠
    s = replay(g)
    assert s.turns[cs.current_turn(s)].card == C("KH") and cs.acting(s) == 0
    g = apply(g, shoot(0, 4, dice=[{"d10": 1}]))  # on the K♥
    assert cs.acting(replay(g)) == 1
    with pytest.raises(RuleError, match="CS-5"):
        apply(g, shoot(0, 5, dice=[{"d10": 1}]))


def test_cs_5_a_surprised_combatant_with_no_cards_cannot_shoot():
    g = run(game(), {"type": "deal", "surprised": [1]})
    s = replay(g)
    assert all(not h.dealt for h in s.hands[3:])
    with pytest.raises(RuleError, match=r"CS-5: .*Red 1 cannot shoot now \(Red 1 has no card left this round\)"):
        apply(g, shoot(3, 0, dice=[{"d10": 10, "d6": 6}]))
    with pytest.raises(RuleError, match="CS-5"):
        apply(g, {"type": "long", "combatant": 3, "cards": ["AS", "KS"]})


def test_cs_5_a_dead_combatant_takes_no_long_action_and_no_shot():
    g = run(game(), deal("AS", "KS", "QS", "JS 9D 2D", "10S", "9S", advantages={"3": ["morale", "firepower"]}))
    g = apply(g, shoot(0, 3, dice=[{"d10": 10, "d6": 6}]))
    assert replay(g).statuses[3].condition is Condition.DEAD
    for action in ({"type": "long", "combatant": 3, "cards": ["JS", "9D"]},
                   {"type": "long", "combatant": 3, "cards": ["9D", "2D"]}, shoot(3, 0, dice=[{"d10": 1}])):
        with pytest.raises(RuleError, match="CS-5: Red 1 is DEAD and never acts"):
            apply(g, action)


def test_cs_5_a_dying_combatant_never_acts():
    g = run(game(), deal("AS", "KS", "QS", "JS", "10S", "9S"), shoot(0, 3, dice=[{"d10": 10, "d6": 4, "countdown": 3}]))
    assert replay(g).statuses[3].condition is Condition.DYING
    g = until(g, 4)
    with pytest.raises(RuleError, match="CS-5: Red 1 is DYING and never acts"):
        apply(g, shoot(3, 0, dice=[{"d10": 1}]))


def test_cs_5_next_and_shots_need_a_round_and_a_card():
    g = game()
    with pytest.raises(RuleError, match="CS-5: no round is on"):
        apply(g, NEXT)
    with pytest.raises(RuleError, match=r"CS-5: no round is on: deal first \(a shot happens on a card\)"):
        apply(g, shoot(0, 3))
    g = run(g, in_order(6), *[NEXT] * 6)
    with pytest.raises(RuleError, match="CS-5: everyone has acted in round 1: end the round"):
        apply(g, NEXT)
    with pytest.raises(RuleError, match="CS-5: everyone has acted in round 1: Blue 1 has no card left"):
        apply(g, shoot(0, 3))


def refused(check, can, state, *args) -> str:
    """The clause and words of ``check``'s RuleError; ``can`` answers no alike."""
    with pytest.raises(RuleError) as caught:
        check(state, *args)
    assert can(state, *args) is False
    return str(caught.value)


def test_check_shot_gives_the_views_the_same_refusals():
    s = replay(run(game(), in_order(6)))

    def refusal(*args) -> str:
        return refused(cs.check_shot, cs.can_shoot, s, *args)

    assert cs.check_shot(s, 0, [3], "aimed") is None and cs.can_shoot(s, 0, [3], "aimed") is True
    assert refusal(3, [0], "aimed").startswith("CS-5: only the current actor acts")
    assert refusal(0, [], "aimed") == "CS-7: pick a target"
    assert refusal(0, [3, 4], "aimed").startswith("CS-9: an aimed shot has one target")
    assert cs.check_shot(s, 0, [3, 4], "suppressive") is None and cs.can_shoot(s, 0, [3, 4], "suppressive")
    assert refusal(0, [3], "burst") == "CS-8: fire is aimed or suppressive"
    for bad in ((99, [3], "aimed"), (0, [99], "aimed"), (0, "3", "aimed"), ("0", [3], "aimed"), (0, None, "aimed")):
        with pytest.raises(ArgumentError):
            cs.check_shot(s, *bad)
        with pytest.raises(ArgumentError):
            cs.can_shoot(s, *bad)
    assert refused(cs.check_shot, cs.can_shoot, replay(game()), 0, [3], "aimed").startswith(
        "CS-5: shots are actions in card order")


def test_the_other_may_questions_have_the_same_shape():
    """Issue 31: check_* raises the referee's RuleError (its clause first), can_* answers; a
    combatant or card that is not one is an ArgumentError."""
    g = run(game(), deal("AS KH", "QS", "JS", "10S", "9S", "8S", advantages={"0": ["morale"]}))
    s = replay(g)
    assert cs.check_long(s, 0, ["AS", "KH"]) is None and cs.can_long(s, 0, ["KH", "AS"]) is True
    assert refused(cs.check_long, cs.can_long, s, 0, ["AS"]) == "CS-5: a long action spends at least 2 different cards"
    assert refused(cs.check_long, cs.can_long, s, 1, ["QS", "AS"]).startswith("CS-5: only the current actor acts")
    for bad in ((9, ["AS", "KH"]), (0, "AS KH"), (0, ["AS", "XX"])):
        with pytest.raises(ArgumentError):
            cs.can_long(s, *bad)
    assert refused(cs.check_treat, cs.can_treat, s, 3) == "CS-13: only an INJURED combatant is treated (Red 1 is fit)"
    assert refused(cs.check_first_aid, cs.can_first_aid, s, 3) == (
        "CS-13: first aid is for a DYING combatant (Red 1 is fit)")
    hurt = replay(apply(g, shoot(0, 3, dice=[{"d10": 10, "d6": 3, "countdown": 4}])))
    assert hurt.statuses[3].condition is Condition.INJURED
    assert cs.check_treat(hurt, 3) is None and cs.can_treat(hurt, 3) and not cs.can_first_aid(hurt, 3)
    with pytest.raises(ArgumentError):
        cs.can_treat(hurt, -1)
    assert cs.check_end_round(s) is None and cs.can_end_round(s) is True
    assert refused(cs.check_end_round, cs.can_end_round, replay(game())) == "CS-12: no round is on"
    for check, can, args in ((cs.check_long, cs.can_long, (0, ["AS", "KH"])), (cs.check_treat, cs.can_treat, (3,)),
                             (cs.check_first_aid, cs.can_first_aid, (3,)), (cs.check_end_round, cs.can_end_round, ())):
        with pytest.raises(ArgumentError):
            check("not a state", *args)
        with pytest.raises(ArgumentError):
            can("not a state", *args)


# ---------------------------------------------------------------------------
# CS-6: recorded deals are checked facts


def test_cs_6_a_recorded_deal_gives_everyone_exactly_what_it_is_owed():
    g = game()
    with pytest.raises(RuleError, match="CS-6: Blue 3 is owed 1 card, the record gives 0"):
        apply(g, deal("AS", "KS", "", "JS", "10S", "9S"))
    with pytest.raises(RuleError, match="CS-6: Blue 1 is owed 2 cards, the record gives 1"):
        apply(g, deal("AS", "KS", "QS", "JS", "10S", "9S", advantages={"0": ["morale"]}))
    with pytest.raises(RuleError, match="CS-6: Blue 1 is owed 1 card, the record gives 2"):
        apply(g, deal("AS 2C", "KS", "QS", "JS", "10S", "9S"))
    with pytest.raises(RuleError, match="CS-6: Red 1 is owed 0 cards, the record gives 1"):
        apply(g, deal("AS", "KS", "QS", "JS", "10S", "9S", surprised=[1]))
    with pytest.raises(RuleError, match="CS-6: the K♠ is recorded twice .one deck of 52.: for Blue 2 and Red 1"):
        apply(g, deal("AS", "KS", "QS", "KS", "10S", "9S"))
    with pytest.raises(ActionError, match="given twice"):
        apply(g, deal("AS", "KS", "QS", "JS", "10S", "9S 9S"))
    ok = apply(g, deal("as", "ks", "qs", "js", "ts", "9♠"))
    assert ok.actions[-1]["cards"] == {"0": ["AS"], "1": ["KS"], "2": ["QS"], "3": ["JS"], "4": ["10S"], "5": ["9S"]}


def test_cs_6_a_recorded_deal_may_run_out_only_where_the_deck_does():
    big = roster(*[man(f"M{i}", i % 2) for i in range(30)])
    adv = {str(i): ["firepower"] for i in range(30)}
    deck = [c.token for c in __import__("engine.cards", fromlist=["full_deck"]).full_deck()]
    hands = [" ".join(deck[2 * i:2 * i + 2]) for i in range(26)] + [""] * 4
    ok = apply(new_game(cs.KIND, big, OWN, seed=1), deal(*hands, advantages=adv))
    assert replay(ok).nothing == (26, 27, 28, 29)
    short = list(hands)
    short[3] = deck[6]  # M3 gets 1 of its 2 while 46 cards were left
    with pytest.raises(RuleError, match="CS-6: M3 is owed 2 cards, the record gives 1"):
        apply(new_game(cs.KIND, big, OWN, seed=1), deal(*short, advantages=adv))
    late = list(hands[:25]) + [deck[50], deck[51]] + [""] * 3  # M25 short, M26 gets the last card
    with pytest.raises(RuleError, match=r"CS-6: M25 is owed 2 cards \(the deck had only 2 left\)|M25 is owed"):
        apply(new_game(cs.KIND, big, OWN, seed=1), deal(*late, advantages=adv))


@pytest.mark.parametrize("cards, words", [
    ({"6": ["AS"]}, "there is no combatant 6"),
    ({"0": ["AS"], "00": ["KS"]}, 'numbered "0", "1"'),
    ({"01": ["AS"]}, 'numbered "0", "1"'),
    ({"-1": ["AS"]}, 'numbered "0", "1"'),
    ({"٣": ["AS"]}, 'numbered "0", "1"'),
    ({"0": "AS"}, "must be a list of cards"),
    ({"0": ["ZZ"]}, "Not a card"),
    (["AS"], "must map combatant numbers"),
])
def test_cs_6_recorded_cards_for_no_one_are_refused_not_dropped(cards, words):
    g = game()
    action = {"type": "deal", "cards": {**{str(i): [t] for i, t in enumerate(["AS", "KS", "QS", "JS", "10S", "9S"])
                                           if str(i) not in (cards if isinstance(cards, dict) else {})}}}
    action["cards"] = cards if not isinstance(cards, dict) else {**action["cards"], **cards}
    with pytest.raises(ActionError, match=words):
        apply(g, action)


def test_cs_13_end_of_round_dice_for_nobody_are_refused():
    g = run(game(), in_order(6))
    with pytest.raises(RuleError, match="CS-13: Blue 1 starts no DYING countdown at the end of round 1"):
        apply(g, {"type": "end_round", "dice": {"0": 3}})
    with pytest.raises(ActionError, match="there is no combatant 9"):
        apply(g, {"type": "end_round", "dice": {"9": 3}})
    with pytest.raises(ActionError, match='numbered "0"'):
        apply(g, {"type": "end_round", "dice": {"00": 3}})
    g = run(game(), in_order(6), shoot(0, 3, dice=[{"d10": 10, "d6": 2, "countdown": 2}]),
            shoot(1, 4, dice=[{"d10": 10, "d6": 2, "countdown": 2}]), END, DEAL)
    with pytest.raises(ActionError, match="lack Red 2's"):
        apply(g, {"type": "end_round", "dice": {"3": 4}})
    with pytest.raises(ActionError, match="from 1 to 6"):
        apply(g, {"type": "end_round", "dice": {"3": 7, "4": 1}})
    done = apply(g, {"type": "end_round", "dice": {"4": 1, "3": 4}})
    assert done.actions[-1] == {"type": "end_round", "dice": {"3": 4, "4": 1}}
    assert [replay(done).statuses[i].countdown for i in (3, 4)] == [4, 1]
    assert apply(run(game(), in_order(6)), {"type": "end_round", "dice": {}}).actions[-1] == {"type": "end_round"}


# ---------------------------------------------------------------------------
# Exact shape and canonical form of every action


def test_every_action_has_its_canonical_form():
    g = run(game(rules={"deck": "table"}), in_order(6))  # the app's dice
    s = replay(g)
    assert cs.normalize_action(s, {"type": "next"}) == {"type": "next"}
    assert cs.normalize_action(s, {"type": "shoot", "shooter": 0, "targets": [3]}) == {
        "type": "shoot", "shooter": 0, "targets": [3], "mode": "aimed", "cover": "none", "unseen": False}
    red = replay(run(game(), deal("KS", "QS", "JS", "AS", "10S", "9S")))
    assert cs.normalize_action(red, {"type": "shoot", "shooter": 3, "targets": [0, 1], "mode": "suppressive",
                                     "dice": [{"d10": 3}, {"d10": 10, "d6": 1}]}) == {
        "type": "shoot", "shooter": 3, "targets": [0, 1], "mode": "suppressive", "cover": "none", "unseen": False,
        "semi": "hit", "dice": [{"d10": 3}, {"d10": 10, "d6": 1}]}
    assert cs.normalize_action(replay(game(rules={})), {"type": "deal", "advantages": {"2": ["morale", "firepower"],
                                                                               "0": [], "10" if False else "1":
                                                                               ["training"]},
                                                "surprised": [1]}) == {
        "type": "deal", "advantages": {"1": ["training"], "2": ["firepower", "morale"]}, "surprised": [1]}
    assert cs.normalize_action(replay(game(rules={})), {"type": "deal", "advantages": {}, "surprised": []}) == {
        "type": "deal"}
    assert cs.normalize_action(s, {"type": "end_round", "dice": {}}) == {"type": "end_round"}
    assert cs.normalize_action(s, {"type": "privacy", "hide": False}) == {"type": "privacy", "hide": False}
    injured = replay(run(game(), in_order(6), shoot(0, 3, dice=[{"d10": 10, "d6": 2, "countdown": 5}])))
    assert cs.normalize_action(injured, {"type": "treat", "combatant": 3}) == {"type": "treat", "combatant": 3}


@pytest.mark.parametrize("action, words", [
    ({"type": "next", "who": 1}, "has no field 'who'"),
    ({"type": "shoot", "shooter": 0, "targets": [3], "dice": [{"d10": 1}], "why": "x"}, "has no field 'why'"),
    ({"type": "shoot", "targets": [3]}, "needs its 'shooter'"),
    ({"type": "shoot", "shooter": 0}, "needs its 'targets'"),
    ({"type": "shoot", "shooter": "0", "targets": [3]}, "The shooter must be a whole number from 0 to 5"),
    ({"type": "shoot", "shooter": True, "targets": [3]}, "The shooter must be a whole number from 0 to 5"),
    ({"type": "shoot", "shooter": 0, "targets": "3"}, "list of combatant numbers"),
    ({"type": "shoot", "shooter": 0, "targets": [3.0]}, "A target must be a whole number from 0 to 5"),
    ({"type": "shoot", "shooter": 0, "targets": [3], "mode": "AIMED"}, "kind of fire"),
    ({"type": "shoot", "shooter": 0, "targets": [3], "unseen": 1}, "Unseen must be true or false"),
    ({"type": "shoot", "shooter": 0, "targets": [3], "semi": "hit"}, "Only a semi-automatic"),
    ({"type": "shoot", "shooter": 0, "targets": [3], "dice": {"d10": 3}}, "one set of rolls per target"),
    ({"type": "shoot", "shooter": 0, "targets": [3], "dice": [{"d10": 3}, {"d10": 4}]}, "one set of rolls"),
    ({"type": "shoot", "shooter": 0, "targets": [3], "dice": [5]}, "must be an object"),
    ({"type": "shoot", "shooter": 0, "targets": [3], "dice": [{"d10": 0}]}, "from 1 to 10"),
    ({"type": "shoot", "shooter": 0, "targets": [3], "dice": [{"d10": 10**100}]}, "a huge number"),
    ({"type": "shoot", "shooter": 0, "targets": [3], "dice": [{"d10": 10}]}, "lack the d6 roll"),
    ({"type": "shoot", "shooter": 0, "targets": [3], "dice": [{"d10": 1, "d6": 3}]}, "a d6 the fire did not need"),
    ({"type": "shoot", "shooter": 0, "targets": [3], "dice": [{"d10": 10, "d6": 1, "countdown": 5}]},
     "a countdown the fire did not need"),
    ({"type": "shoot", "shooter": 0, "targets": [3], "dice": [{"d10": 10, "d6": 2}]}, "lack the countdown"),
    ({"type": "shoot", "shooter": 0, "targets": [3], "dice": [{"d10": 10, "d6": 2, "countdown": 13}]},
     "from 2 to 12"),
    ({"type": "shoot", "shooter": 0, "targets": [3], "dice": [{"d10": 10, "d6": 4, "countdown": 7}]},
     "from 1 to 6"),
    ({"type": "shoot", "shooter": 0, "targets": [3], "results": [{"hit": False, "suppression": 1}]},
     "Only an unseen shooter"),
    ({"type": "shoot", "shooter": 0, "targets": [3], "dice": [{"d10": 1}], "hidden_next": True},
     "Only a spectator's copy"),
    ({"type": "long", "combatant": 0}, "needs its 'cards'"),
    ({"type": "long", "combatant": 0, "cards": "AS KS"}, "must be a list of cards"),
    ({"type": "long", "combatant": 0, "cards": ["AS", "AS"]}, "given twice"),
    ({"type": "deal"}, "CS-5: round 1 is still on"),
    ({"type": "end_round", "dice": []}, "must map combatant numbers"),
    ({"type": "end_round", "extra": 1}, "has no field 'extra'"),
    ({"type": "treat"}, "needs its 'combatant'"),
    ({"type": "treat", "combatant": -1}, "from 0 to 5"),
    ({"type": "first_aid", "combatant": 6}, "from 0 to 5"),
    ({"type": "privacy", "hide": "yes"}, "Hide must be true or false"),
    ({"type": "privacy", "hide": True, "also": 1}, "has no field 'also'"),
    ({"type": None}, "Unknown action type"),
    ({"type": ["deal"]}, "Unknown action type"),
    ({}, "Unknown action type"),
])
def test_malformed_actions_are_refused_with_a_clear_message(action, words):
    g = run(game(), in_order(6))
    with pytest.raises(ActionError if not words.startswith("CS-") else RuleError, match=words):
        apply(g, action)
    with pytest.raises(ValueError):
        check(g, action)


@pytest.mark.parametrize("action, words", [
    ({"type": "deal", "advantages": {"0": [["morale"]]}}, "Advantages are firepower"),
    ({"type": "deal", "advantages": {"0": "morale"}}, "Advantages are firepower"),
    ({"type": "deal", "advantages": {"0": ["morale", "morale"]}}, "each at most once"),
    ({"type": "deal", "advantages": {"0": ["luck"]}}, "Advantages are"),
    ({"type": "deal", "advantages": {"6": ["morale"]}}, "there is no combatant 6"),
    ({"type": "deal", "advantages": {"00": ["morale"]}}, 'numbered "0"'),
    ({"type": "deal", "advantages": ["0"]}, "must map combatant numbers"),
    ({"type": "deal", "surprised": [2]}, "Surprised must list sides"),
    ({"type": "deal", "surprised": [1, 1]}, "each once"),
    ({"type": "deal", "surprised": [True]}, "Surprised must list sides"),
    ({"type": "deal", "surprised": 1}, "Surprised must list sides"),
    ({"type": "deal", "hidden_cards": 3}, "Only a spectator's copy"),
    ({"type": "deal", "hidden_next": True}, "Only a spectator's copy"),
    ({"type": "deal", "seed": 3}, "has no field 'seed'"),
])
def test_malformed_deals_are_refused(action, words):
    with pytest.raises(ActionError, match=words):
        apply(game(rules={}), action)  # the app's deck


def test_a_stored_game_holds_only_canonical_actions():
    g = run(game(rules={}), {"type": "deal", "advantages": {"0": ["morale", "firepower"]}, "surprised": []})
    assert g.actions[-1] == {"type": "deal", "advantages": {"0": ["firepower", "morale"]}}
    # a link with sloppy (but legal) actions is stored canonical after validate
    raw = Game(cs.KIND, 1, {"pulp": False}, two_sides(),
               ({"type": "deal", "advantages": {"0": ["morale", "firepower"]}, "surprised": []},
                {"type": "end_round", "dice": {}}), 2)
    checked = validate(raw)
    assert list(checked.actions) == [{"type": "deal", "advantages": {"0": ["firepower", "morale"]}},
                                     {"type": "end_round"}]


def test_an_impossible_link_is_refused_with_its_clause_and_step():
    g = run(game(), in_order(6))
    bad = Game(g.kind, g.seed, g.rules, g.setup, tuple(g.actions) + (
        {"type": "shoot", "shooter": 0, "targets": [3], "mode": "aimed", "cover": "none", "unseen": False,
         "dice": [{"d10": 1}]},) * 2, 3)
    with pytest.raises(RuleError) as err:
        validate(bad)
    assert err.value.rule_id == "CS-5" and err.value.step == 3
    with pytest.raises(codec.ShareError, match="CS-5 at step 3"):
        codec.decode_share(codec.encode_share(bad))


# ---------------------------------------------------------------------------
# Bad arguments to the public helpers: a ValueError that says why


@pytest.mark.parametrize("call, words", [
    (lambda: cs.cards_due("2", 0), "CS-2: the number of advantages must be a whole number"),
    (lambda: cs.cards_due(6), "from 0 to 5"),
    (lambda: cs.cards_due(0, -1), "CS-3: suppression must be a whole number of at least 0"),
    (lambda: cs.cards_due(0, 1.5), "CS-3: suppression"),
    (lambda: cs.cards_due(0, 0, "hurt"), "The condition must be one of"),
    (lambda: cs.cards_due(0, 0, pulp=1), "pulp must be true or false"),
    (lambda: cs.initiative_order(["AS", "XX"]), "Not a card"),
    (lambda: cs.initiative_order(["AS", "AS"]), "given twice"),
    (lambda: cs.initiative_order(5), "Not a list of cards"),
    (lambda: cs.initiative_key(None), "Not a card"),
    (lambda: cs.wound_status("3"), "CS-10: the wound roll must be a whole number"),
    (lambda: cs.wound_status(True), "CS-10: the wound roll"),
    (lambda: cs.wound_distribution(None), "CS-10: the damage modifier"),
    (lambda: cs.to_hit_target("wall"), "CS-8: the cover must be one of"),
    (lambda: cs.to_hit_target(None), "CS-8: the cover"),
    (lambda: cs.hit_modifier("Sniper"), "The shooter must be a Combatant"),
    (lambda: cs.hit_modifier(fighter(), "both"), "CS-11: the semi-automatic choice"),
    (lambda: cs.damage_modifier(None), "The shooter must be a Combatant"),
    (lambda: cs.suppression_multiplier({}), "The shooter must be a Combatant"),
    (lambda: cs.suppression_caused(fighter(), unseen="yes"), "unseen must be true or false"),
    (lambda: cs.suppression_caused(fighter(), suppressive_miss=None), "suppressive_miss"),
    (lambda: cs.hit_chance(fighter(), "burst"), "CS-8: fire is aimed or suppressive"),
    (lambda: cs.hit_chance(fighter(), "aimed", "wall"), "CS-8: the cover"),
    (lambda: cs.shot_odds(fighter(), "aimed", 3), "CS-8: the cover"),
    (lambda: cs.apply_wound(None, WoundStatus.STUN, 1), "The status must be a Status"),
    (lambda: cs.apply_wound(Status(), "scratch", 1), "CS-10: the wound must be one of"),
    (lambda: cs.apply_wound(Status(), WoundStatus.STUN, "1"), "The round must be a whole number"),
    (lambda: cs.apply_wound(Status(), WoundStatus.INJURE, 1, 0), "from 1 to 12"),
    (lambda: cs.status(None), "Not a CONSIM state"),
    (lambda: cs.current_turn("state"), "Not a CONSIM state"),
    (lambda: cs.is_hidden(replay(game()), 6), "from 0 to 5"),
    (lambda: cs.is_hidden(replay(game()), "0"), "The combatant must be a whole number"),
    (lambda: cs.can_act(replay(game()), -1), "from 0 to 5"),
    (lambda: cs.describe(None, {"type": "next"}), "Not a CONSIM state"),
    (lambda: cs.standing(3), "Not a CONSIM state"),
    (lambda: cs.forecast(replay(game()), 0, 9), "from 0 to 5"),
    (lambda: cs.forecast(replay(game()), 0, surprised="no"), "surprised must be true or false"),
    (lambda: cs.turn_counts([]), "Not a CONSIM state"),
    (lambda: cs.public_game(None), "public_game takes a game"),
    (lambda: cs.public_game(new_game("campaign", {"players": ["A", "B"]}, seed=1)), "public_game takes a game"),
    (lambda: cs.step(None, {"type": "next"}), "Not a CONSIM state"),
    (lambda: cs.step(replay(game(rules={})), {"type": "deal"}), "random generator"),
    (lambda: cs.normalize_action(replay(game()), "deal"), "An action must be an object"),
    (lambda: cs.Combatant("", 0), "A combatant needs a name"),
    (lambda: cs.Combatant("X", 9), "side must be a whole number from 0 to 7"),
    (lambda: cs.Combatant("X", 0, grain="army"), "A combatant's kind must be one of"),
    (lambda: cs.Combatant("X", 0, training=2), "A combatant's training"),
    (lambda: cs.Combatant("X", 0, weapon="automatic"), "weapon traits must be a list"),
    (lambda: cs.Combatant("X", 0, weapon=["laser"]), "A weapon trait must be one of"),
    (lambda: cs.Combatant("X", 0, weapon=5), "weapon traits must be a list"),
    (lambda: cs.Combatant("X", 0, player="no"), "Player character must be true or false"),
    (lambda: cs.Status(suppression=-1), "Suppression"),
    (lambda: cs.Status(condition="hurt"), "The condition"),
    (lambda: cs.Status(countdown="3"), "Countdown"),
    (lambda: cs.Status(treated=1), "Treated"),
])
def test_public_helpers_refuse_bad_arguments_with_a_value_error(call, words):
    with pytest.raises(ValueError, match=words) as err:
        call()
    assert not isinstance(err.value, (TypeError, KeyError, IndexError, AttributeError))


def test_public_helpers_take_cards_and_values_as_tokens_alike():
    assert cs.initiative_order(["AS"]) == [C("AS")]
    assert cs.initiative_order([C("2C"), "as"]) == [C("AS"), C("2C")]
    assert cs.cards_due(2, 0, "injured")[:2] == (3, 1)
    c = cs.Combatant("Sniper", 1, "individual", "elite", ["semi-automatic"], False)
    assert c.training is cs.Training.ELITE and c.has(cs.Trait.SEMI_AUTOMATIC) and c.grain is cs.Grain.INDIVIDUAL
    assert cs.hit_chance(c, "aimed", "good") == Fraction(6, 10)  # 8+ with +2 elite +1 semi: d10 5+
    assert cs.apply_wound(Status(), "dead", 1)[0].condition is Condition.DEAD
    assert cs.Status(condition="stunned").condition is Condition.STUNNED


def test_step_without_the_generator_refuses_to_invent_dice():
    s = replay(run(game(rules={"deck": "table"}), in_order(6)))  # the app's dice
    with pytest.raises(ArgumentError, match="random generator to roll"):
        cs.step(s, shoot(0, 3))
    assert cs.step(s, shoot(0, 3), rng=random.Random(1)).last_shot is not None
    own = replay(run(game(), in_order(6)))  # the table's own dice, entered
    assert cs.step(own, shoot(0, 3, dice=[{"d10": 1}])).last_shot.targets[0].d10 == 1
    # CS-13: an untreated INJURED whose time runs out needs its DYING countdown rolled or recorded
    own = replay(run(game(), in_order(6), shoot(0, 3, dice=[{"d10": 10, "d6": 2, "countdown": 2}]), END,
                     in_order(6)))
    assert cs.step(own, {"type": "end_round", "dice": {"3": 4}}).statuses[3].countdown == 4
    # With the app's dice: a shot the seed rolls that injures, then rounds until its time runs out
    g = next(g for seed in range(100) if replay(g := run(game(rules={"deck": "table"}, seed=seed), in_order(6),
                                                           shoot(0, 3))).statuses[3].condition is Condition.INJURED)
    while replay(g).statuses[3].countdown > 1:
        g = run(g, END, in_order(6))
    s = replay(g)
    with pytest.raises(ArgumentError, match="random generator to roll"):
        cs.step(s, {"type": "end_round"})
    assert cs.step(s, {"type": "end_round"}, rng=random.Random(1)).statuses[3].condition is Condition.DYING
