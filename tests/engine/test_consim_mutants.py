"""CONSIM (engine.consim): tests written against the survivors of `make mutate` (issue 20
item 8). Each asserts game behaviour a surviving mutant broke — the wound table's effects
(CS-10, CS-13), the acting order (CS-5), the deal (CS-2, CS-3, CS-4, CS-6), suppression
(CS-7, CS-9, CS-12), and the refusals' player-facing words — against small independent
oracles (the rule text as a table, the dice enumerated) rather than the engine's own
numbers."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from engine import consim as cs
from engine.cards import parse_card
from engine.consim import Condition, Status, WoundStatus, apply_wound
from engine.game import apply, replay

from .consim_kit import DEAL, END, NEXT, OWN, SPADES, deal, fighter, game, in_order, man, roster, run, shoot

# ---------------------------------------------------------------------------
# CS-10 / CS-13 / HR-CS-1 / HR-CS-2: the wound table's effects, every condition × wound

#: The statuses a wound can meet, each with the fields a new condition must reset set to
#: something else (a treated INJURED, a DYING with first aid, a running STUN …).
MEETS = {
    Condition.OK: Status(suppression=1),
    Condition.STUNNED: Status(suppression=2, condition=Condition.STUNNED, stunned_until=4, no_cards_next=True),
    Condition.INJURED: Status(suppression=3, condition=Condition.INJURED, countdown=5, treated=True),
    Condition.DYING: Status(suppression=4, condition=Condition.DYING, countdown=3, first_aid=True),
    Condition.DEAD: Status(suppression=5, condition=Condition.DEAD),
}

#: CS-10's suppression per wound (DEAD adds none: the target is dead).
WOUND_SUPPRESSION = {WoundStatus.STUN: 3, WoundStatus.INJURE: 3, WoundStatus.DYING: 5, WoundStatus.DEAD: 0}


def expected_after(before: Status, wound: WoundStatus, round_: int, roll: int) -> Status:
    """The rule text as a table: what ``wound`` in round ``round_`` makes of ``before``
    (``roll`` is the countdown a new INJURED or DYING takes, CS-13)."""
    cond = before.condition
    if cond is Condition.DEAD:
        return before
    if wound is WoundStatus.DEAD:
        return replace(before, condition=Condition.DEAD, countdown=None)
    after = replace(before, suppression=before.suppression + WOUND_SUPPRESSION[wound])
    if wound is WoundStatus.STUN:
        after = replace(after, no_cards_next=True)  # CS-10: no cards next round, whatever the condition
        if cond is Condition.OK:
            return replace(after, condition=Condition.STUNNED, stunned_until=round_ + 1)  # HR-CS-1
        if cond is Condition.STUNNED:  # the second STUN: INJURED, a new countdown, untreated
            return replace(after, condition=Condition.INJURED, countdown=roll, treated=False, stunned_until=None)
        return after  # HR-CS-2: milder than INJURED / DYING
    if wound is WoundStatus.INJURE:
        if cond is Condition.INJURED:
            return replace(after, condition=Condition.DEAD, countdown=None)  # the second INJURE kills
        if cond in (Condition.OK, Condition.STUNNED):
            return replace(after, condition=Condition.INJURED, countdown=roll, treated=False, stunned_until=None)
        return after  # milder than DYING
    if cond is Condition.DYING:
        return replace(after, condition=Condition.DEAD, countdown=None)  # the second DYING kills
    return replace(after, condition=Condition.DYING, countdown=roll, treated=False, first_aid=False,
                   stunned_until=None)  # CS-13: DYING replaces a milder condition


@pytest.mark.parametrize("cond, wound", list(itertools.product(MEETS, WoundStatus)),
                         ids=lambda v: v.name)
def test_cs_10_every_wound_on_every_condition_as_the_rule_text_says(cond, wound):
    """CS-10, CS-13, HR-CS-1, HR-CS-2: each wound's suppression, the "second" rules, a worse
    condition replacing a milder one with a fresh countdown (untreated, no first aid, no stun
    left), a milder wound leaving the condition as it is, a dead target left alone."""
    before = MEETS[cond]
    after, text = apply_wound(before, wound, 3, countdown=7)
    assert after == expected_after(before, wound, 3, 7)
    assert text  # every effect is told in the log
    if cond is Condition.DEAD:
        assert text == "already DEAD"


# ---------------------------------------------------------------------------
# CS-3 / CS-4 / CS-10 / CS-13: the forecast of the next deal


def test_cs_3_the_forecast_of_a_combatant_who_gets_no_cards_keeps_none():
    """CS-4, CS-10, CS-13: surprised, STUNNED or DYING, the next deal gives nothing and
    nothing is kept (no card struck either: there is none to strike)."""
    g = run(game(), deal("KS", "QS", "JS", "AS", "10S", "9S"), shoot(3, 0, dice=[{"d10": 10, "d6": 1}]))
    s = replay(g)
    for f in (cs.forecast(s, 1, surprised=True), cs.forecast(s, 0)):
        assert (f.deal, f.by_suppression, f.by_injury, f.keeps) == (0, 0, 0, 0)
    assert cs.forecast(s, 0).why == "STUNNED" and cs.forecast(s, 1, surprised=True).why == "surprised"
    assert cs.forecast(s, 0).suppression == 1 + 3  # the shot (CS-7) and the STUN (CS-10), fired on: kept


def test_cs_3_the_forecast_holds_the_pulp_floor_for_a_player_character():
    """CS-3 variant (pulp): a player character keeps 1 card against suppression; a
    non-player with the same suppression loses its only card."""
    g = run(game(rules={"pulp": True, **OWN}), deal("KS", "QS", "JS", "AS", "10S", "9S"),
            shoot(3, 0, unseen=True, dice=[{"d10": 1}]), NEXT, NEXT, NEXT, shoot(4, 1, unseen=True, dice=[{"d10": 1}]))
    s = replay(g)
    assert s.statuses[0].suppression == s.statuses[1].suppression == 3
    assert s.combatants[0].player and not s.combatants[1].player
    player, other = cs.forecast(s, 0), cs.forecast(s, 1)
    assert (player.deal, player.by_suppression, player.keeps) == (1, 0, 1)
    assert (other.deal, other.by_suppression, other.keeps) == (1, 1, 0)


# ---------------------------------------------------------------------------
# The canonical action (issue 20): combatants in roster order, whatever the caller's order


def test_canonical_deals_list_combatants_in_roster_order_past_ten():
    """CS-2, CS-6: a canonical deal lists advantages and recorded cards by combatant number
    (2 before 10, as the roster reads), so one game has one stored form and one link."""
    g = game(setup=roster(*[man(f"M{i}", i % 2) for i in range(12)]))
    cards = {str(i): [c] for i, c in zip(range(11, -1, -1), SPADES)}
    action = {"type": "deal", "advantages": {"10": ["morale"], "2": ["training"]},
              "cards": {**cards, "10": ["2S", "2H"], "2": ["2D", "2C"]}}
    out = cs.normalize_action(replay(g), action)
    assert list(out["advantages"]) == ["2", "10"]
    assert list(out["cards"]) == [str(i) for i in range(12)]


# ---------------------------------------------------------------------------
# CS-5 in a spectator's copy: when one of the Observer's hidden combatants acts


def sniper_game():
    """Sgt. Rook and Doc (player characters) against a hidden sniper (privacy on)."""
    setup = roster(man("Sgt. Rook", 0, player=True), man("Doc", 0, player=True),
                   man("Sniper", 1, training="elite", weapon=["semi-automatic"]))
    return game(setup=setup, seed=5)


def test_cs_5_a_copy_says_a_hidden_combatant_acts_on_its_single_card():
    """CS-5: the hidden sniper holds one card, the ace, and acts first: the copy says that
    one of the Observer's combatants is acting (one hidden card is enough)."""
    g = run(sniper_game(), deal("KS", "QS", "AS"))
    pub = cs.public_game(g)
    assert pub.actions[0]["hidden_cards"] == 1 and pub.actions[0]["hidden_next"] is True
    s = replay(pub)
    assert s.unseen_acting and cs.acting(s) is None
    assert cs.status(s) == "Round 1: the Observer's combatants are acting (CS-5)."


def test_cs_5_after_the_round_ends_nobody_is_acting_in_the_copy():
    """CS-5/CS-12: the round's end closes the order: the copy (the players' view) no longer
    says that one of the Observer's combatants is acting, until the next deal says so."""
    g = run(sniper_game(), deal("KS", "QS", "AS"), NEXT)
    assert replay(cs.public_game(g)).unseen_acting is False  # the sniper passed: Sgt. Rook's turn
    g = run(g, NEXT, NEXT, END)
    s = replay(cs.public_game(g))
    assert s.phase == "ready" and s.unseen_acting is False and s.unseen_cards == 0
    s = replay(cs.public_game(run(g, deal("KS", "QS", "AS"))))
    assert s.unseen_acting is True and s.unseen_cards == 1


# ---------------------------------------------------------------------------
# An earlier spectator's copy (upgrade): a hidden shooter's dice become the results the table saw


def test_an_earlier_copys_hidden_shots_become_the_results_the_rules_give():
    """CS-7, CS-8, CS-9, CS-10, CS-11: the earlier copy gave a hidden shooter's dice; the
    upgraded copy gives only hit, wound, suppression and countdown, each as the rules make
    them from those dice: the cover's number, the shooter's training and semi-automatic
    choice, a suppressive miss's extra tick, a ground-vehicle weapon's double suppression."""
    setup = {"sides": ["Blue", "Red"], "facts": True, "hidden": [1, 2], "privacy": True,
             "combatants": [man("Hero", 0, player=True),
                            man("Sniper", 1, training="elite", weapon=["semi-automatic"]),
                            man("Tank", 1, grain="vehicle", weapon=["ground-vehicle"])]}

    def sniper(dice, **how):
        return {"type": "shoot", "shooter": 1, "targets": [0], "mode": "aimed", "cover": "none", "unseen": False,
                "semi": "damage", **how, "dice": [dice]}

    shots = [
        # elite +2 (damage picked, not +1 to hit): d10 6 + 2 = 8 hits in good cover; d6 4 + 1 = 5: DYING
        sniper({"d10": 6, "d6": 4, "countdown": 3}, cover="good"),
        sniper({"d10": 5}, cover="good"),  # 5 + 2 = 7: a miss in good cover (with +1 to hit it would hit)
        sniper({"d10": 9}, mode="suppressive", unseen=True),  # no natural 10: 1 + 2 unseen + 1 suppressive
        {"type": "shoot", "shooter": 2, "targets": [0], "mode": "aimed", "cover": "cover", "unseen": False,
         "dice": [{"d10": 3}]},  # untrained 3 vs 7+: a miss, ×2 for a ground-vehicle weapon
    ]
    data = {"kind": cs.KIND, "seed": 0, "rules": {}, "setup": setup, "position": 1 + len(shots),
            "actions": [{"type": "deal"}, *shots]}
    out = cs.upgrade(data)
    results = [a["results"] for a in out["actions"][1:]]
    assert results == [[{"hit": True, "wound": "dying", "suppression": 1, "countdown": 3}],
                       [{"hit": False, "suppression": 1}],
                       [{"hit": False, "suppression": 4}],
                       [{"hit": False, "suppression": 2}]]
    assert all("shooter" not in a and "dice" not in a and "semi" not in a for a in out["actions"][1:])
    assert [c["name"] for c in out["setup"]["combatants"]] == [
        "Hero", "The Observer's combatant 1", "The Observer's combatant 2"]
    assert out["setup"]["spectator"] is True and out["setup"]["legacy"] is True and "facts" not in out["setup"]


def test_cs_3_a_copys_deal_tells_the_shown_cards_struck():
    """CS-3 in the players' view: Sgt. Rook, shot at by the unseen sniper (3 suppression) and
    fired on, loses his only card at the next deal; the copy's log says so, counting the
    hidden sniper's card among those to act but not as dealt or struck."""
    g = run(sniper_game(), deal("KS", "QS", "AS"), shoot(2, 0, unseen=True, dice=[{"d10": 1}], semi="hit"),
            NEXT, NEXT, END, deal("KS", "QS", "AS"))
    s = replay(cs.public_game(g))
    assert s.hands[0].lost == (parse_card("KS"),) and s.hands[0].kept == ()
    assert s.log[-1].text == ("Round 2: 2 cards to act (1 of them the Observer's hidden combatants'); "
                              "1 of the cards shown struck for suppression and wounds (CS-3).")
    full = replay(g)
    assert full.log[-1].text == "Round 2: 3 cards dealt, 1 struck for suppression and wounds (CS-3): 2 to act."


def test_a_copy_keeps_surprise_treatment_first_aid_and_the_privacy_switch():
    """CS-4, CS-13 and privacy in the players' view: a surprised side, the treatment of an
    INJURED and the first aid of a DYING player character are facts the copy shows; with
    privacy switched off the copy hides no one any more."""
    setup = roster(man("Sgt. Rook", 0, player=True), man("Doc", 0, player=True),
                   man("Sniper", 1, training="elite", weapon=["automatic"]))
    g = run(game(setup=setup, seed=5), deal("AS", "KS", surprised=[1]),
            shoot(0, 1, dice=[{"d10": 10, "d6": 3, "countdown": 4}]))  # Rook hits Doc: 3 + 0: INJURE
    s = replay(cs.public_game(g))
    assert s.surprised == (1,) and "Red surprised (CS-4)" in s.log[0].text
    assert s.statuses[1].condition is Condition.INJURED
    g = apply(g, {"type": "treat", "combatant": 1})
    assert replay(cs.public_game(g)).statuses[1].treated
    g = run(g, shoot(1, 0, dice=[{"d10": 10, "d6": 5, "countdown": 2}]))  # Doc hits Rook: 5: DYING
    g = apply(g, {"type": "first_aid", "combatant": 0})
    s = replay(cs.public_game(g))
    assert s.statuses[0].condition is Condition.DYING and s.statuses[0].first_aid
    assert [a["type"] for a in cs.public_game(g).actions] == ["deal", "shoot", "treat", "shoot", "first_aid"]
    assert cs.is_hidden(replay(cs.public_game(g)), 2)
    shown = apply(g, {"type": "privacy", "hide": False})
    pub = cs.public_game(shown)
    assert pub.setup["privacy"] is False and not cs.is_hidden(replay(pub), 2)


# ---------------------------------------------------------------------------
# A game kept under the earlier rules (LEGACY_RULES): its card count, by enumeration


@pytest.mark.parametrize("pulp_player", [False, True])
def test_cs_3_legacy_count_an_injured_is_dealt_one_fewer_and_suppression_strikes(pulp_player):
    """The reading before the CS-3 ruling (games saved then): 1 + advantages, one fewer for
    an INJURED combatant, then every 2 suppression strike one of the highest; the pulp
    floor keeps a player character 1 card against both."""
    floor = 1 if pulp_player else 0
    for adv, sup, cond in itertools.product(range(6), range(10), (Condition.OK, Condition.INJURED)):
        count = 1 + adv
        if cond is Condition.INJURED:
            count = max(count - 1, floor)
        struck = min(sup // 2, max(count - floor, 0))
        due, lost, reasons = cs.cards_due(adv, sup, cond, player=pulp_player, pulp=pulp_player, legacy=True)
        assert (due, lost) == (count, struck), (adv, sup, cond)
        if sup // 2:
            assert f"suppression {sup}: loses the highest {sup // 2} card" in reasons[-1]
            assert reasons[-1].endswith(f", keeps {count - struck} (pulp)") == (struck < sup // 2 and count > 0
                                                                                 and pulp_player)
    assert cs.cards_due(0, 0, "injured", player=True, pulp=True, legacy=True)[2][-1] == "INJURED, kept 1 (pulp, CS-3)"


def test_cs_9_suppressive_fire_at_one_target_is_told_as_such():
    """CS-9: suppressive fire at a single target is "suppressive fire" (not an area); a miss
    adds the extra tick; the unseen shooter's +2 (CS-7) and the semi-automatic choice (CS-11)
    are told in the log line's head."""
    g = run(game(), deal("KS", "QS", "JS", "AS", "10S", "9S"),
            shoot(3, 0, mode="suppressive", unseen=True, semi="damage", dice=[{"d10": 4}]))
    s = replay(g)
    assert s.log[-1].text == (
        "Red 1: suppressive fire, not seen by the target (CS-7), semi-automatic for +1 damage (CS-11). "
        "Blue 1: d10 4 (suppressive fire hits on a 10): miss. +4 suppression (CS-7, +1 for suppressive fire: CS-9).")
    assert s.statuses[0].suppression == 1 + 2 + 1


# ---------------------------------------------------------------------------
# Refusals a player reads: the clause and the words that say why (issue 20)


def refusal(g, action) -> ValueError:
    with pytest.raises(ValueError) as err:
        apply(g, action)
    return err.value


def test_messages_show_a_long_value_cut_short_and_a_huge_number_by_name():
    """A refusal quotes the value it refused, at most 40 characters, and no hundred-digit number."""
    assert str(refusal_of(lambda: cs.hit_modifier("x" * 60))) == (
        'The shooter must be a Combatant (got "' + "x" * 36 + "…)")
    assert str(refusal_of(lambda: cs.cards_due(10**20))).endswith("from 0 to 5 (got a huge number)")
    assert "Stunned until must be a whole number" in str(refusal_of(lambda: Status(stunned_until="2")))
    assert str(refusal_of(lambda: cs.normalize_setup({"sides": ["", "B"], "combatants": [man("x")]}))) == (
        "Side 1: the name is empty")


def refusal_of(call) -> ValueError:
    with pytest.raises(ValueError) as err:
        call()
    return err.value


def test_cs_5_long_action_refusals_say_why():
    """CS-5: a long action happens on a card, spends at least 2 of the actor's unplayed cards,
    and is declared on its own turn, spending that turn's card."""
    err = refusal(game(), {"type": "long", "combatant": 0, "cards": ["AS", "KS"]})
    assert (err.rule_id, str(err)) == ("CS-5", "CS-5: no round is on: deal first (a long action happens on a card)")
    g = run(game(), deal("AS 5D 2D", "KS", "QS", "JS", "10S", "9S", advantages={"0": ["morale", "training"]}))
    assert str(refusal(g, {"type": "long", "combatant": 0, "cards": ["AS"]})) == (
        "CS-5: a long action spends at least 2 different cards")
    assert "cards of a long action must be a list of cards" in str(
        refusal(g, {"type": "long", "combatant": 0, "cards": "AS"}))
    assert str(refusal(g, {"type": "long", "combatant": 0, "cards": ["5D", "2D"]})) == (
        "CS-5: a long action is declared on Blue 1's turn and spends its card, the A♠")
    assert str(refusal(g, {"type": "long", "combatant": 0, "cards": ["AS", "3D"]})) == (
        "CS-5: Blue 1 has no unplayed 3♦ this round")


def test_cs_5_a_visible_long_action_that_lets_a_hidden_combatant_act_says_so_in_the_copy():
    """CS-5: Sgt. Rook spends his A♠ and 2♦ and acts at the 2♦: the hidden sniper's K♠ now
    comes first, and the players' view says that one of the Observer's combatants acts."""
    g = run(sniper_game(), deal("AS 2D", "QS", "KS", advantages={"0": ["morale"]}),
            {"type": "long", "combatant": 0, "cards": ["AS", "2D"]})
    assert cs.acting(replay(g)) == 2
    pub = cs.public_game(g)
    assert pub.actions[-1] == {"type": "long", "combatant": 0, "cards": ["AS", "2D"], "hidden_next": True}
    s = replay(pub)
    assert s.unseen_acting and cs.status(s) == "Round 1: the Observer's combatants are acting (CS-5)."


def test_recorded_facts_name_where_they_went_wrong():
    """CS-6, CS-13, HR-CS-7: refusals of recorded cards and dice name the record and say why."""
    assert str(refusal(game(), {"type": "deal", "cards": {"6": ["AS"]}})) == (
        "Recorded cards: there is no combatant 6 (they are 0 to 5)")
    err = refusal(run(game(), in_order(6)), shoot(0, 3))  # the kit's game: the table's own dice
    assert (err.rule_id, str(err)) == (
        "HR-CS-7", "HR-CS-7: this game is played with your own dice: enter the dice of the shot")
    g = run(game(), in_order(6))
    assert str(refusal(g, {"type": "end_round", "dice": {"0": 3}})) == (
        "CS-13: Blue 1 starts no DYING countdown at the end of round 1: no die to roll for it")
    assert str(refusal(g, shoot(0, 3, dice=[{"d10": 1, "d6": 3}]))) == (
        "The record for Red 1 gives a d6 the fire did not need")
    assert str(refusal(g, shoot(0, 3, dice=[{"d10": 1}, {"d10": 1}]))) == "The dice must give one set of rolls per target"
    assert str(refusal(game(), NEXT)) == "CS-5: no round is on: deal first"
    assert str(refusal(game(), END)) == "CS-12: no round is on"


def test_cs_7_an_unseen_shooters_recorded_suppression_is_what_fire_can_cause():
    """CS-7/CS-11: an aimed miss causes 1 suppression, 2 or 3 from a vehicle weapon: a
    copy's record of 4 from one aimed shot is impossible and refused."""
    cp = replay(cs.public_game(run(sniper_game(), deal("KS", "QS", "AS"))))
    shot = {"type": "shoot", "targets": [0], "mode": "aimed", "cover": "none", "unseen": False}
    for ticks in (1, 2, 3):
        assert cs.step(cp, {**shot, "results": [{"hit": False, "suppression": ticks}]}).statuses[0].suppression == ticks
    with pytest.raises(ValueError, match="The suppression Sgt. Rook took must be a whole number from 1 to 3"):
        cs.step(cp, {**shot, "results": [{"hit": False, "suppression": 4}]})
    assert str(refusal_of(lambda: cs.step(cp, {"type": "privacy", "hide": False}))) == (
        "A spectator's copy keeps what its sender hid")


def test_cs_13_first_aid_and_treatment_refusals_cite_cs_13():
    """CS-13: first aid is given once, and only to the DYING; treatment is for the INJURED."""
    g = run(game(), in_order(6), shoot(0, 3, dice=[{"d10": 10, "d6": 4, "countdown": 3}]))  # 4 + 1: DYING
    g = apply(g, {"type": "first_aid", "combatant": 3})
    for action, text in (({"type": "first_aid", "combatant": 3}, "CS-13: Red 1 already has first aid"),
                         ({"type": "treat", "combatant": 3}, "CS-13: only an INJURED combatant is treated "
                                                             "(Red 1 is DYING)"),
                         ({"type": "first_aid", "combatant": 4}, "CS-13: first aid is for a DYING combatant "
                                                                 "(Red 2 is fit)")):
        err = refusal(g, action)
        assert (err.rule_id, str(err)) == ("CS-13", text)


def test_cs_10_a_shots_result_tells_the_condition_before_and_after():
    """CS-10: each target's result says the condition it had and the one it has now; aimed
    fire shows its modifier and number, suppressive fire neither (a natural 10 hits, CS-9)."""
    g = run(game(), in_order(6), shoot(0, 3, dice=[{"d10": 10, "d6": 1}]))  # 1 + 1 automatic: STUN
    r = replay(g).last_shot.targets[0]
    assert (r.before, r.after, r.modifier, r.needed) == (Condition.OK, Condition.STUNNED, 1, 6)
    g = apply(g, shoot(1, 3, 4, mode="suppressive", dice=[{"d10": 10, "d6": 3, "countdown": 5}, {"d10": 2}]))
    hit, miss = replay(g).last_shot.targets
    assert (hit.before, hit.after, hit.modifier, hit.needed) == (Condition.STUNNED, Condition.INJURED, 0, None)
    assert (miss.before, miss.after, miss.modifier, miss.needed) == (Condition.OK, Condition.OK, 0, None)


def test_cs_2_the_ticked_advantages_are_kept_with_the_round():
    """CS-2: the round remembers each combatant's ticked advantages (the tracker offers them
    again at the next deal)."""
    s = replay(run(game(), {"type": "deal", "advantages": {"1": ["visibility", "firepower"], "4": ["morale"]}}))
    assert s.advantages == ((), ("firepower", "visibility"), (), (), ("morale",), ())
    assert [h.due for h in s.hands] == [1, 3, 1, 1, 2, 1]


def test_upgrade_drops_an_empty_hidden_list_and_leaves_a_real_one_for_the_checks():
    """A save of before schema 3 with ``"hidden": []`` is the same game; one that hides
    combatants without being a spectator's copy is left as it is, for the roster check to refuse."""
    setup = roster(man("A"), man("B", 1))
    assert "hidden" not in cs.upgrade({"setup": {**setup, "hidden": []}, "actions": []})["setup"]
    kept = cs.upgrade({"setup": {**setup, "hidden": [1]}, "actions": []})["setup"]
    assert kept["hidden"] == [1]
    with pytest.raises(cs.SetupError, match="hidden combatant 2 must be the placeholder"):
        cs.normalize_setup(kept)  # today a roster that lists "hidden" is a spectator's copy (issue 30)


def test_cs_13_the_forecast_of_a_combatant_stunned_then_killed_is_no_cards():
    """CS-10/CS-13: Red 1 is STUNNED, then killed in the same round: in the next round the
    forecast still says DEAD, no cards (the stun's end does not bring a dead man back)."""
    g = run(game(), in_order(6), shoot(0, 3, dice=[{"d10": 10, "d6": 1}]),  # 1 + 1: STUN
            shoot(1, 3, dice=[{"d10": 10, "d6": 5}]), END, DEAL)  # 5 + 1: DEAD
    s = replay(g)
    assert s.statuses[3].condition is Condition.DEAD and s.hands[3].due == 0
    f = cs.forecast(s, 3)
    assert (f.deal, f.keeps, f.why) == (0, 0, "DEAD")


def test_cs_11_the_pure_modifiers_stack_every_trait_they_are_given():
    """CS-11 "weapon traits stack": the pure functions add every trait of the Combatant they
    are given (a roster refuses automatic with semi-automatic; a Python caller may build one)."""
    both = fighter("untrained", "automatic", "semi-automatic")
    assert (cs.hit_modifier(both, "hit"), cs.damage_modifier(both, "hit")) == (2, 1)
    assert (cs.hit_modifier(both, "damage"), cs.damage_modifier(both, "damage")) == (1, 2)


def test_deal_and_copy_refusals_say_why():
    """CS-2, CS-6, HR-CS-6 and hidden means absent: what a deal or a spectator's copy refuses."""
    assert str(refusal(game(), {"type": "deal", "advantages": ["0"]})) == (
        "The advantages must map combatant numbers to lists of advantages")
    err = refusal(game(rules={"deck": "table"}), DEAL)
    assert (err.rule_id, str(err)) == (
        "HR-CS-6", "HR-CS-6: this game is played with your own deck: enter each combatant's cards")
    fresh = replay(cs.public_game(sniper_game()))
    assert str(refusal_of(lambda: cs.step(fresh, DEAL))) == (
        "CS-6: this is a spectator's copy: it shows the game, it cannot deal")
    assert str(refusal_of(lambda: cs.step(fresh, {"type": "deal", "advantages": {"2": ["morale"]},
                                                  "cards": {"0": ["AS"], "1": ["KS"]}}))) == (
        "A spectator's copy knows nothing of a hidden combatant's advantages")
    dealt = replay(cs.public_game(run(sniper_game(), deal("AS", "QS", "KS"))))
    assert str(refusal_of(lambda: cs.step(dealt, shoot(0, 2, dice=[{"d10": 3}])))) == (
        "A spectator's copy shows nothing of fire at The Observer's combatant 1: its dice are null")
    s = replay(run(game(), in_order(6)))
    assert str(refusal_of(lambda: cs.check_shot(s, 0, [3], "burst"))) == "CS-8: fire is aimed or suppressive"
    assert str(refusal_of(lambda: cs.check_shot(s, 1, [3], "aimed"))) == (
        "CS-5: only the current actor acts: it is Blue 1's turn (the A♠), so Blue 2 cannot shoot now")


@pytest.mark.parametrize("targets, dice", [(None, []), (5, []), ([3], [{"d10": 1}, {"d10": 2}])])
def test_hr_cs_7_next_roll_needs_the_targets_and_at_most_one_set_of_rolls_each(targets, dice):
    """HR-CS-7: the dice entry asks for a shot's rolls target by target; a shot without a list of
    targets, or with more sets of rolls than targets, is refused with a ValueError that says so."""
    s = replay(run(game(), in_order(6)))
    with pytest.raises(cs.ArgumentError, match="at most one set of rolls per target"):
        cs.next_roll(s, {"type": "shoot", "shooter": 0, "targets": targets, "dice": dice})


def test_cs_13_a_copys_round_end_must_record_each_dying_countdown_it_shows():
    """CS-13: Doc, INJURED with 2 rounds, runs out at the end of round 2: the players' copy
    cannot roll his DYING countdown; the round's end must record it."""
    g = run(sniper_game(), deal("AS", "KS", "QS"), shoot(0, 1, dice=[{"d10": 10, "d6": 3, "countdown": 2}]),
            NEXT, NEXT, END, deal("AS", "KS", "QS"))
    cp = replay(cs.public_game(g))
    assert cs.countdowns_due(cp) == (1,)
    err = refusal_of(lambda: cs.step(cp, END))
    assert (err.rule_id, str(err)) == ("CS-13", "CS-13: this is a spectator's copy: the countdown of Doc must be recorded")
    assert cs.step(cp, {"type": "end_round", "dice": {"1": 3}}).statuses[1].countdown == 3


# ---------------------------------------------------------------------------
# From the seeded sample (`make mutate MUTANTS='engine.consim.*' SAMPLE=250`, seed 1)


def test_cs_3_the_pulp_floor_is_only_for_a_player_character_and_none_is_one_unless_said():
    """CS-3 (pulp): a player character keeps a card the suppression would strike; a combatant
    is no player character unless the caller says so."""
    plain = cs.cards_due(1, 4, pulp=True)
    assert plain == cs.cards_due(1, 4, pulp=True, player=False) and plain[:2] == (2, 2)
    assert cs.cards_due(1, 4, pulp=True, player=True)[:2] == (2, 1)


def test_cs_8_a_shot_is_aimed_unless_said():
    assert cs.hit_chance(fighter()) == cs.hit_chance(fighter(), "aimed") != cs.hit_chance(fighter(), "suppressive")


@pytest.mark.parametrize("call, message", [
    (lambda: cs.suppression_caused(fighter(), suppressive_miss="yes"), 'suppressive_miss must be true or false (got "yes")'),
    (lambda: cs.normalize_setup(roster(dict(man("A"), name=5), man("B", 1))), "Combatant 1: the name must be text"),
    (lambda: cs.normalize_setup(roster(dict(man("A"), player="yes"), man("B", 1))),
     "Combatant 1 (A): player character must be true or false"),
])
def test_argument_and_setup_refusals_name_the_field(call, message):
    assert str(refusal_of(call)) == message


def test_cs_6_recorded_numbers_name_where_they_went_wrong():
    assert str(refusal(game(), {"type": "deal", "cards": {"x": ["AS"]}})) == (
        'Recorded cards: combatants are numbered "0", "1", "2" … (got "x")')
    g = run(game(), in_order(6), *[NEXT] * 6)
    assert str(refusal(g, {"type": "end_round", "dice": {"x": 3}})) == (
        'Countdown dice: combatants are numbered "0", "1", "2" … (got "x")')


def test_cs_5_a_long_action_out_of_turn_says_whose_turn_it_is():
    g = run(game(), in_order(6))
    err = refusal(g, {"type": "long", "combatant": 2, "cards": ["QS"]})
    assert (err.rule_id, str(err)) == ("CS-5", "CS-5: only the current actor acts: it is Blue 1's turn (the A♠), "
                                               "so Blue 3 cannot declare a long action now")


def test_cs_5_in_a_copy_nobody_shown_acts_while_a_hidden_combatant_does():
    """CS-5: while the hidden sniper acts, the players' copy refuses a shot by anyone it shows,
    citing CS-5, and shows nothing of the sniper to treat."""
    cp = replay(cs.public_game(run(sniper_game(), deal("KS", "QS", "AS"))))
    err = refusal_of(lambda: cs.step(cp, shoot(0, 2, dice=[{"d10": 1}])))
    assert (err.rule_id, str(err)) == ("CS-5", "CS-5: one of the Observer's combatants is acting now, not Sgt. Rook")
    (hidden,) = cp.hidden
    err = refusal_of(lambda: cs.step(cp, {"type": "first_aid", "combatant": hidden}))
    assert str(err) == "A spectator's copy shows nothing of a hidden combatant"

