"""The table's own cards and dice in the CONSIM tracker (issue 18, HR-CS-6, HR-CS-7).

The strongest check: a game the app deals and rolls, played again with the same cards
and dice entered as a table with its own deck and dice would, ends in the same state.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import consim as cs
from engine.game import RuleError, apply, can_apply, new_game, replay

from .consim_kit import DEAL, END, NEXT, deal, game, man, roster, shoot, two_sides

OWN = {"deck": cs.DECK_TABLE, "dice": cs.DICE_TABLE}


def test_the_choices_are_settings_with_their_house_rules():
    keys = {v.key: v for v in cs.VARIANTS}
    assert keys["deck"].rule_id == "HR-CS-6" and keys["deck"].default == cs.DECK_APP
    assert keys["dice"].rule_id == "HR-CS-7" and keys["dice"].default == cs.DICE_APP
    assert {"HR-CS-6", "HR-CS-7"} <= set(cs.HOUSE_RULES)


def test_hr_cs_6_with_our_own_deck_the_app_does_not_deal():
    g = game(rules={"deck": cs.DECK_TABLE})
    with pytest.raises(RuleError, match="HR-CS-6"):
        apply(g, DEAL)
    g = apply(g, deal("AS", "KS", "QS", "JS", "10S", "9S"))
    assert [t.card.token for t in replay(g).turns] == ["AS", "KS", "QS", "JS", "10S", "9S"]


def test_cs_6_entered_cards_are_checked_card_by_card():
    g = game(rules={"deck": cs.DECK_TABLE})
    with pytest.raises(RuleError, match="CS-6.*twice"):
        apply(g, deal("AS", "AS", "QS", "JS", "10S", "9S"))
    with pytest.raises(RuleError, match="CS-6.*owed 1 card"):
        apply(g, deal("AS KH", "KS", "QS", "JS", "10S", "9S"))
    with pytest.raises(RuleError, match="CS-6.*owed 2 cards"):  # an advantage: two cards
        apply(g, deal("AS", "KS", "QS", "JS", "10S", "9S", advantages={"0": ["firepower"]}))


def test_cards_owed_is_what_the_deal_checks():
    state = replay(game())
    assert cs.cards_owed(state) == (1,) * 6
    assert cs.cards_owed(state, {0: 2, 3: 1}) == (3, 1, 1, 2, 1, 1)
    assert cs.cards_owed(state, surprised=[1]) == (1, 1, 1, 0, 0, 0)  # CS-4
    g = apply(game(rules={"deck": cs.DECK_TABLE}), deal("AS", "KS", "QS", "JS", "10S", "9S"))
    with pytest.raises(RuleError, match="CS-5"):
        cs.cards_owed(replay(g))


def test_cs_6_the_deck_runs_out_in_roster_order_with_our_own_deck():
    many = roster(*[man(f"M{i}", i % 2) for i in range(20)])
    state = replay(new_game(cs.KIND, many, OWN, 1))
    owed = cs.cards_owed(state, {i: 2 for i in range(20)})  # 3 cards each: 60 > 52
    assert owed[:17] == (3,) * 17 and owed[17:] == (1, 0, 0) and sum(owed) == 52


def test_hr_cs_7_with_our_own_dice_the_app_does_not_roll():
    g = apply(game(rules=OWN), deal("AS", "KS", "QS", "JS", "10S", "9S"))
    with pytest.raises(RuleError, match="HR-CS-7"):
        apply(g, shoot(0, 3))
    assert can_apply(g, shoot(0, 3, dice=[{"d10": 1}]))


def test_next_roll_asks_for_exactly_the_dice_the_shot_needs():
    g = apply(game(rules=OWN), deal("AS", "KS", "QS", "JS", "10S", "9S"))
    state = replay(g)
    shot = shoot(0, 3)
    calls = []
    for entered in ([], [{"d10": 9}], [{"d10": 9, "d6": 4}], [{"d10": 9, "d6": 2}]):
        call = cs.next_roll(state, {**shot, "dice": entered})
        calls.append((call.key, call.dice, call.low, call.high))
    # d6 4 + 1 = 5: DYING, a 1d6 countdown; d6 2 + 1 = 3: INJURE, 2d6 (CS-10, CS-13)
    assert calls == [("d10", "d10", 1, 10), ("d6", "d6", 1, 6), ("countdown", "d6", 1, 6), ("countdown", "2d6", 2, 12)]
    done = {**shot, "dice": [{"d10": 9, "d6": 4, "countdown": 4}]}
    assert cs.next_roll(state, done) is None and can_apply(g, done)
    dead = {**shot, "dice": [{"d10": 9, "d6": 6}]}  # 6 + 1 = 7: DEAD, no countdown
    assert cs.next_roll(state, dead) is None and can_apply(g, dead)
    miss = {**shot, "dice": [{"d10": 1}]}  # untrained, automatic: a 1 misses (CS-8), no d6
    assert cs.next_roll(state, miss) is None and can_apply(g, miss)


def test_next_roll_moves_to_the_next_target_of_suppressive_fire():
    g = apply(game(rules=OWN), deal("AS", "KS", "QS", "JS", "10S", "9S"))
    state = replay(g)
    shot = shoot(0, 3, 4, mode="suppressive")
    call = cs.next_roll(state, {**shot, "dice": [{"d10": 3}]})
    assert (call.position, call.target, call.key) == (1, 4, "d10")
    assert cs.next_roll(state, {**shot, "dice": [{"d10": 3}, {"d10": 2}]}) is None


def test_hr_cs_7_the_dying_countdown_is_entered_at_the_end_of_the_round():
    setup = two_sides(1)
    g = new_game(cs.KIND, setup, OWN, 1)
    g = apply(g, deal("AS", "KS"))
    g = apply(g, shoot(0, 1, dice=[{"d10": 10, "d6": 2, "countdown": 2}]))  # 2 + 1: INJURED, 2 rounds
    for _ in range(3):
        state = replay(g)
        while cs.current_turn(state) is not None:
            g = apply(g, NEXT)
            state = replay(g)
        if cs.countdowns_due(state):
            break
        g = apply(g, END)
        owed = cs.cards_owed(replay(g))
        g = apply(g, deal(*(" ".join(cards[:n]) for cards, n in zip((["AS", "QS"], ["KS", "JS"]), owed))))
    state = replay(g)
    assert cs.countdowns_due(state) == (1,)
    with pytest.raises(RuleError, match="HR-CS-7.*1d6.*Red 1"):
        apply(g, END)
    g = apply(g, {"type": "end_round", "dice": {"1": 5}})
    assert replay(g).statuses[1].condition is cs.Condition.DYING and replay(g).statuses[1].countdown == 5


# ----------------------------------------------------------------- fidelity
def _facts_of(before, action, after) -> dict:
    """What a table with its own deck and dice would enter for ``action``."""
    kind = action["type"]
    if kind == "deal":
        return {**action, "cards": {str(i): [c.token for c in h.dealt] for i, h in enumerate(after.hands)
                                    if h is not None and h.dealt}}
    if kind == "shoot":
        dice = []
        for r in after.last_shot.targets:
            rolls = {"d10": r.d10}
            if r.d6 is not None:
                rolls["d6"] = r.d6
            if r.countdown is not None and r.before is not r.after:
                rolls["countdown"] = r.countdown
            dice.append(rolls)
        return {**action, "dice": dice}
    if kind == "end_round":
        due = cs.countdowns_due(before)
        return {**action, "dice": {str(i): after.statuses[i].countdown for i in due}} if due else action
    return action


def _random_play(seed: int, moves: int):
    """A game the app deals and rolls, moves picked at random; and the same with entered facts."""
    pick = random.Random(seed)
    setup = roster(*[man(f"B{i}", 0, training=pick.choice(["untrained", "trained", "elite"]),
                         weapon=pick.choice([[], ["automatic"], ["semi-automatic"]])) for i in range(4)],
                   *[man(f"R{i}", 1, training=pick.choice(["untrained", "trained", "elite"])) for i in range(4)])
    app = new_game(cs.KIND, setup, {}, seed)
    own = new_game(cs.KIND, setup, OWN, seed + 1)  # another seed: nothing may come from the generator
    for _ in range(moves):
        state = replay(app)
        if state.phase != "round":
            action = {"type": "deal", "advantages": {str(i): ["firepower"] for i in range(8) if pick.random() < .3}}
        else:
            cur = cs.current_turn(state)
            if cur is None:
                action = END
            else:
                who = state.turns[cur].combatant
                foes = [i for i, c in enumerate(state.combatants) if c.side != state.combatants[who].side
                        and state.statuses[i].condition is not cs.Condition.DEAD]
                action = shoot(who, pick.choice(foes)) if foes and pick.random() < .7 else NEXT
        app = apply(app, action)
        own = apply(own, _facts_of(state, action, replay(app)))
    return replay(app), replay(own)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_a_game_with_entered_cards_and_dice_ends_where_the_apps_own_does(seed):
    mine, theirs = _random_play(seed, 40)
    assert replace(theirs, rules=mine.rules) == mine


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000))
def test_the_rolls_next_roll_asks_for_are_exactly_what_the_referee_takes(seed):
    """HR-CS-7: entering what next_roll asks, one roll at a time, always ends in a shot the
    referee accepts, and before that the shot is refused (it lacks a roll)."""
    pick = random.Random(seed)
    setup = roster(*[man(f"B{i}", 0, training=pick.choice(["untrained", "trained", "elite"]),
                         weapon=pick.choice([[], ["automatic"], ["semi-automatic"]])) for i in range(3)],
                   *[man(f"R{i}", 1, training="trained") for i in range(3)])
    g = apply(new_game(cs.KIND, setup, OWN, seed), deal("AS", "KS", "QS", "JS", "10S", "9S"))
    state = replay(g)
    shooter = state.combatants[0]
    area = shooter.has(cs.Trait.AUTOMATIC) or shooter.has(cs.Trait.SEMI_AUTOMATIC)
    mode = "suppressive" if area and pick.random() < .5 else "aimed"
    targets = pick.sample([3, 4, 5], pick.randint(1, 3)) if mode == "suppressive" else [pick.choice([3, 4, 5])]
    shot = shoot(0, *targets, mode=mode, cover=pick.choice(["none", "cover", "good"]),
                 semi="damage" if shooter.has(cs.Trait.SEMI_AUTOMATIC) and pick.random() < .5 else None, dice=[])
    asked = 0
    while (call := cs.next_roll(state, shot)) is not None:
        assert not can_apply(g, {**shot, "dice": shot["dice"] + [{}] * (len(targets) - len(shot["dice"]))})
        while len(shot["dice"]) <= call.position:
            shot["dice"].append({})
        shot["dice"][call.position][call.key] = pick.randint(call.low, call.high)
        asked += 1
    assert can_apply(g, shot) and len(targets) <= asked <= 3 * len(targets)
