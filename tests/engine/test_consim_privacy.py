"""Hidden means absent (issue 21): the CONSIM spectator's copy — which the players' view is
drawn from too — carries of the Observer's hidden combatants only what the table can see.

A property test plays random games with distinctive hidden names ("Zyx-Sniper-41"),
grains, training and weapons, a 128-bit seed and hidden cards, and checks the copy's
JSON, its share payload, the opened link and its history (tests/engine/privacy.py), and
that the copy's state says only true things about the acting order."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import codec
from engine import consim as cs
from engine.game import (
    ActionError,
    RuleError,
    apply,
    goto,
    history,
    is_spectator,
    new_game,
    new_seed,
    replay,
    undo,
    validate,
)

from .consim_kit import DEAL, END, NEXT, OWN, deal, game, man, roster, run, shoot
from .privacy import assert_absent, payload_json, spectator_texts


def public_view(state: cs.ConsimState, hidden: frozenset[int]):
    """What the table may see of a full state: the shown combatants' statuses and hands, the
    shown part of the acting order, whether a hidden combatant acts now, the round."""
    cur = cs.current_turn(state)
    acting_hidden = cur is not None and state.turns[cur].combatant in hidden
    shown = [i for i in range(len(state.combatants)) if i not in hidden]
    return (state.round, state.phase, acting_hidden,
            None if acting_hidden or cur is None else (state.turns[cur].card, state.turns[cur].combatant),
            tuple(state.statuses[i] for i in shown),
            tuple(state.hands[i] for i in shown),
            tuple(t for t in state.turns if t.combatant not in hidden),
            state.nothing, state.surprised)


def copy_view(state: cs.ConsimState):
    cur = cs.current_turn(state)
    shown = [i for i in range(len(state.combatants)) if i not in state.hidden]
    return (state.round, state.phase, state.unseen_acting,
            None if cur is None else (state.turns[cur].card, state.turns[cur].combatant),
            tuple(state.statuses[i] for i in shown),
            tuple(state.hands[i] for i in shown),
            state.turns, state.nothing, state.surprised)


def sniper_game(seed: int = 12345):
    """Sgt. Rook (a player character) against a hidden sniper and rifleman."""
    setup = roster(man("Sgt. Rook", 0, player=True, weapon=["automatic"]), man("Doc", 0, player=True),
                   man("Zyx-Sniper-41", 1, training="elite", weapon=["semi-automatic"]),
                   man("Qwv-Panzer-IV", 1, grain="vehicle", training="trained", weapon=["explosive", "ground-vehicle"]))
    return new_game(cs.KIND, setup, OWN, seed=seed)  # cards and dice recorded: the table's own (issue 35)


def test_the_copy_holds_placeholders_not_the_hidden_roster():
    g = run(sniper_game(), deal("9C", "2D", "AS", "KH"))
    pub = cs.public_game(g)
    assert is_spectator(pub) and pub.setup["spectator"] is True and pub.seed == 0
    assert pub.setup["combatants"][2:] == [
        {"name": "The Observer's combatant 1", "side": 1, "grain": "individual", "training": "untrained",
         "weapon": [], "player": False},
        {"name": "The Observer's combatant 2", "side": 1, "grain": "individual", "training": "untrained",
         "weapon": [], "player": False}]
    assert pub.setup["hidden"] == [2, 3]
    assert_absent(g, ["Zyx-Sniper-41", "Qwv-Panzer-IV", '"elite"', '"vehicle"', '"explosive"', '"ground-vehicle"',
                      '"semi-automatic"', '"AS"', '"KH"', str(g.seed)])
    assert json.dumps(list(pub.actions)) == '[{"type": "deal", "cards": {"0": ["9C"], "1": ["2D"]}, ' \
                                            '"hidden_cards": 2, "hidden_next": true}]'


def test_the_acting_order_in_the_copy_is_true_mid_round():
    """Issue 21 item 3: while a hidden sniper acts the copy said "everyone has acted",
    "0 done · 0 to go" and "0 cards dealt"; in round 4 "Sgt. Rook acts on the 9♣" while a
    hidden rifleman acted on the A♠."""
    g = run(sniper_game(), deal("9C", "2D", "AS", "KH"))
    s = replay(cs.public_game(g))
    assert cs.status(s) == "Round 1: the Observer's combatants are acting (CS-5)."
    assert cs.current_turn(s) is None and not cs.round_over(s)
    assert cs.turn_counts(s) == (0, 2)
    assert s.log[-1].text == "Round 1: 4 cards to act (2 of them the Observer's hidden combatants')."
    assert cs.standing(s) == "Round 1 · 0 of 2 visible cards acted"
    g = apply(g, shoot(2, 0, dice=[{"d10": 2}], semi="damage"))  # the sniper misses Sgt. Rook
    s = replay(cs.public_game(g))
    assert s.unseen_acting and cs.status(s) == "Round 1: the Observer's combatants are acting (CS-5)."
    assert s.statuses[0].suppression == 1 and s.statuses[0].fired_on
    g = apply(g, NEXT)  # the panzer's K♥ passes
    s = replay(cs.public_game(g))
    assert not s.unseen_acting and cs.status(s) == "Round 1: Sgt. Rook acts on the 9♣ (CS-5)."
    g = run(g, NEXT, NEXT)
    s = replay(cs.public_game(g))
    assert cs.status(s) == "Round 1: everyone has acted; the Observer ends the round next (CS-12, CS-13)."
    assert cs.round_over(s)
    s = replay(cs.public_game(apply(g, END)))
    assert cs.status(s) == "Round 1 is over; the Observer deals round 2 next."


def test_fire_from_a_hidden_shooter_is_an_unseen_shooter_everywhere():
    g = run(sniper_game(), deal("9C", "2D", "AS", "KH"),
            shoot(2, 0, dice=[{"d10": 10, "d6": 4, "countdown": 6}], semi="damage", unseen=True))
    full = replay(g)
    assert full.log[-1].text.startswith("Zyx-Sniper-41: aimed shot, not seen by the target (CS-7), "
                                        "semi-automatic for +1 damage (CS-11).")
    pub = cs.public_game(g)
    shot = pub.actions[-1]
    assert shot == {"type": "shoot", "targets": [0], "mode": "aimed", "cover": "none", "unseen": True,
                    "results": [{"hit": True, "wound": "dying", "suppression": 3, "countdown": 6}],
                    "hidden_next": True}
    s = replay(pub)
    assert s.last_shot.shooter is None
    assert s.log[-1].text == ("An unseen shooter: aimed shot, not seen by the target (CS-7). Sgt. Rook: hit (CS-8). "
                              "DYING: +5 suppression, DEAD in 6 rounds without first aid (CS-10, CS-13). "
                              "+3 suppression from the fire (CS-7).")
    assert s.statuses[0] == full.statuses[0]
    assert history(codec.decode_share(codec.encode_share(pub)))[-1] == "Round 1 · an unseen shooter aims at Sgt. Rook"
    # the copy does not tell the shooter's training or weapon: no dice, no modifier, no semi
    text = payload_json(codec.encode_share(pub))
    assert '"d10"' not in text and "semi" not in text and "+ 3 =" not in s.log[-1].text


def test_fire_at_a_hidden_target_is_listed_without_its_result():
    g = run(sniper_game(), deal("AS", "2D", "9C", "KH"), shoot(0, 2, dice=[{"d10": 10, "d6": 6}]))
    assert replay(g).statuses[2].condition is cs.Condition.DEAD
    pub = cs.public_game(g)
    assert pub.actions[-1]["dice"] == [None]
    s = replay(pub)
    assert s.statuses[2] == cs.Status()  # nothing of the sniper is tracked
    assert s.log[-1].text == "Sgt. Rook: aimed shot. At The Observer's combatant 1: the result is hidden."
    assert "DEAD" not in json.dumps([e.text for e in s.log])
    # the dead sniper's card is skipped: the copy must not say it acts
    assert cs.status(s) == "Round 1: the Observer's combatants are acting (CS-5)."  # the panzer's K♥
    g = apply(g, NEXT)
    s = replay(cs.public_game(g))
    assert cs.status(s) == "Round 1: Doc acts on the 2♦ (CS-5)."


def test_hidden_long_actions_treatment_and_privacy_toggles_stay_out():
    g = run(sniper_game(), deal("9C", "2D", "AS QH", "KH", advantages={"2": ["visibility"]}))
    g = apply(g, {"type": "long", "combatant": 2, "cards": ["AS", "QH"]})
    g = run(g, NEXT, shoot(2, 0, dice=[{"d10": 1}], semi="hit"))  # the panzer passes, the sniper's long shot
    full = replay(g)
    assert cs.acting(full) == 0
    pub = cs.public_game(g)
    assert [a["type"] for a in pub.actions] == ["deal", "next", "next", "shoot"]
    assert not any("cards" in a for a in pub.actions[1:])
    assert copy_view(replay(pub)) == public_view(full, frozenset({2, 3}))
    # treatment of a hidden combatant and the privacy switch are not in the copy
    g = run(sniper_game(), deal("AS", "2D", "9C", "KH"), shoot(0, 2, dice=[{"d10": 10, "d6": 2, "countdown": 5}]),
            {"type": "treat", "combatant": 2}, {"type": "privacy", "hide": False}, {"type": "privacy", "hide": True})
    assert [a["type"] for a in cs.public_game(g).actions] == ["deal", "shoot"]


def test_privacy_off_shows_everything_as_facts():
    g = run(sniper_game(), deal("9C", "2D", "AS", "KH"), shoot(2, 0, dice=[{"d10": 2}], semi="hit"),
            {"type": "privacy", "hide": False})
    pub = cs.public_game(g)
    assert pub.setup["hidden"] == [] and pub.setup["combatants"][2]["name"] == "Zyx-Sniper-41"
    s, full = replay(pub), replay(g)
    assert s.hands == full.hands and s.statuses == full.statuses and s.turns == full.turns
    assert pub.actions[1]["dice"] == [{"d10": 2}] and pub.actions[1]["shooter"] == 2


def test_privacy_hides_non_player_combatants():
    s = replay(game())
    assert [cs.is_hidden(s, i) for i in range(6)] == [False, True, True, True, True, True]
    s = replay(apply(game(), {"type": "privacy", "hide": False}))
    assert not any(cs.is_hidden(s, i) for i in range(6))
    pub = replay(cs.public_game(game()))
    assert [cs.is_hidden(pub, i) for i in range(6)] == [False, True, True, True, True, True]


def test_a_spectator_copy_takes_no_move_and_its_facts_are_checked():
    g = run(sniper_game(), deal("9C", "2D", "AS", "KH"), NEXT, NEXT)
    pub = cs.public_game(g)
    for action in (NEXT, END, DEAL, {"type": "privacy", "hide": False}):
        with pytest.raises(ActionError, match="spectator's copy"):
            apply(pub, action)
    s = replay(pub)
    # the copy's own rules (what validate and a link decoder check)
    with pytest.raises(RuleError, match="cannot roll"):
        cs.step(s, shoot(0, 2))
    with pytest.raises(ActionError, match="keeps what its sender hid"):
        cs.step(s, {"type": "privacy", "hide": False})
    with pytest.raises(ActionError, match="holds no card of a hidden combatant"):
        cs.step(replay(pub, 0), deal("9C", "2D", "AS", "KH"))
    with pytest.raises(RuleError, match="CS-6: the 9♣ is recorded twice"):
        cs.step(replay(pub, 0), {"type": "deal", "cards": {"0": ["9C"], "1": ["9C"]}})
    with pytest.raises(RuleError, match="CS-6: Sgt. Rook is owed 1 card, the record gives 2"):
        cs.step(replay(pub, 0), {"type": "deal", "cards": {"0": ["9C", "8C"], "1": ["2D"]}})
    with pytest.raises(RuleError, match="cannot deal"):
        cs.step(replay(pub, 0), DEAL)
    with pytest.raises(RuleError, match="CS-6: one deck has 52 cards"):
        cs.step(replay(pub, 0), {"type": "deal", "cards": {"0": ["9C"], "1": ["2D"]}, "hidden_cards": 51})
    with pytest.raises(RuleError, match="no card of the Observer's hidden combatants"):
        cs.step(replay(pub, 0), {"type": "deal", "cards": {"0": ["9C"], "1": ["2D"]}, "hidden_next": True})
    with pytest.raises(ActionError, match="'hidden_next' is true or absent"):
        cs.step(replay(pub, 0), {"type": "deal", "cards": {"0": ["9C"], "1": ["2D"]}, "hidden_cards": 2,
                                 "hidden_next": False})
    unseen = replay(pub, 1)
    assert unseen.unseen_acting
    with pytest.raises(RuleError, match="one of the Observer's combatants is acting now, not Sgt. Rook"):
        cs.step(unseen, {**shoot(0, 2), "dice": [None]})
    bad_results = [({"hit": True, "suppression": 1}, "The wound of Sgt. Rook must be one of"),
                   ({"hit": False, "suppression": 4}, "from 1 to 3"),
                   ({"hit": False, "suppression": 1, "wound": "stun"}, "gives a wound the fire did not need"),
                   ({"hit": True, "wound": "injure", "suppression": 1}, "lack the countdown"),
                   ({"hit": "yes", "suppression": 1}, "true or false")]
    for result, words in bad_results:
        with pytest.raises(ValueError, match=words):
            cs.step(unseen, {"type": "shoot", "targets": [0], "results": [result]})
    with pytest.raises(RuleError, match="cannot take 4 suppression from this fire"):
        cs.step(unseen, {"type": "shoot", "targets": [0], "unseen": True, "results": [{"hit": False, "suppression": 4}]})
    assert cs.step(unseen, {"type": "shoot", "targets": [0], "unseen": True,
                            "results": [{"hit": False, "suppression": 6}]}).statuses[0].suppression == 6
    with pytest.raises(ActionError, match="gives its results, not dice"):
        cs.step(unseen, {"type": "shoot", "targets": [0], "dice": [{"d10": 3}], "results": [None]})
    with pytest.raises(ActionError, match="its dice are null"):
        cs.step(unseen, {"type": "shoot", "targets": [2], "results": [{"hit": False, "suppression": 1}]})
    with pytest.raises(ActionError, match="advantages"):
        cs.step(replay(pub, 0), {"type": "deal", "cards": {}, "advantages": {"2": ["morale"]}})
    with pytest.raises(ActionError, match="shows nothing of a hidden combatant"):
        cs.step(s, {"type": "treat", "combatant": 2})
    assert validate(pub) == pub
    # the copy of a copy is the copy (without the redo stack of a spectator who looked back)
    assert cs.public_game(pub) == pub
    back = undo(pub)
    assert cs.public_game(back).actions == pub.actions[:-1]


def test_a_copy_records_the_deck_running_out_in_roster_order():
    big = roster(*[man(f"Zq-{i}", i % 2, player=i % 3 != 1) for i in range(30)])
    g = apply(new_game(cs.KIND, big, seed=new_seed()), {"type": "deal", "advantages": {
        str(i): ["firepower"] for i in range(30)}})
    pub = cs.public_game(g)
    s, full = replay(pub), replay(g)
    assert s.nothing == tuple(i for i in full.nothing if not cs.is_hidden(full, i))
    bad = dict(pub.actions[0])
    cards = dict(bad["cards"])
    later = next(i for i in s.nothing[1:] if not cs.is_hidden(full, i))
    moved = cards["0"][-1]
    cards["0"] = cards["0"][:-1]  # Zq-0 one card short while the deck went on: not in roster order
    cards[str(later)] = [moved]
    with pytest.raises(RuleError, match="it is dealt in roster order"):
        cs.step(replay(pub, 0), {**bad, "cards": cards})


# ---------------------------------------------------------------------------
# The property test: random games, distinctive hidden tokens


GRAINS, TRAINING = ("squad", "vehicle"), ("trained", "elite")
WEAPON_SETS = (["automatic"], ["semi-automatic"], ["explosive"], ["ground-vehicle"], ["air-vehicle"],
               ["automatic", "explosive", "air-vehicle"])


@st.composite
def rosters(draw):
    count = draw(st.integers(2, 9))
    people = []
    hidden_names = []
    for i in range(count):
        if i == 0 or draw(st.booleans()):  # a player character: plain, so its fields can be shown
            people.append(man(f"Pc {i}", draw(st.integers(0, 1)), player=True))
        else:
            name = f"Zyx-{draw(st.sampled_from(['Sniper', 'Panzer', 'Spotter', 'Medic']))}-{i}{draw(st.integers(10, 99))}"
            hidden_names.append(name)
            people.append(man(name, draw(st.integers(0, 2)), grain=draw(st.sampled_from(GRAINS)),
                              training=draw(st.sampled_from(TRAINING)), weapon=draw(st.sampled_from(WEAPON_SETS))))
    if len(hidden_names) == 0:
        people.append(man("Zyx-Last-99", 1, grain="vehicle", training="elite", weapon=["air-vehicle"]))
        hidden_names.append("Zyx-Last-99")
    return roster(*people, sides=("Players", "Observer", "Third")), hidden_names


def random_play(g, rng: random.Random, steps: int):
    """Random legal play: whatever the current actor may do, deals and round ends."""
    for _ in range(steps):
        s = replay(g)
        if s.phase == "ready":
            adv = {str(i): rng.sample(list(cs.ADVANTAGES), rng.randint(0, 2)) for i in range(len(s.combatants))
                   if rng.random() < 0.3}
            surprised = [side for side in range(len(s.sides)) if rng.random() < 0.1]
            g = apply(g, {"type": "deal", "advantages": {k: v for k, v in adv.items() if v}, "surprised": surprised})
            continue
        cur = cs.current_turn(s)
        options = ["end"] if cur is None else ["next", "shoot", "shoot", "shoot", "long", "end"]
        for i, st_ in enumerate(s.statuses):
            if st_.condition is cs.Condition.INJURED and not st_.treated:
                options.append(("treat", i))
            if st_.condition is cs.Condition.DYING and not st_.first_aid:
                options.append(("first_aid", i))
        options.append("privacy") if rng.random() < 0.05 else None
        choice = rng.choice(options)
        if choice == "end" and cur is not None and rng.random() < 0.8:
            choice = "next"
        if choice == "next":
            g = apply(g, NEXT)
        elif choice == "end":
            g = apply(g, END)
        elif choice == "privacy":
            g = apply(g, {"type": "privacy", "hide": not s.privacy})
        elif isinstance(choice, tuple):
            g = apply(g, {"type": choice[0], "combatant": choice[1]})
        elif choice == "long":
            who = s.turns[cur].combatant
            mine = [t.card.token for t in s.turns if t.combatant == who and not t.done]
            if len(mine) >= 2:
                g = apply(g, {"type": "long", "combatant": who, "cards": mine[:rng.randint(2, len(mine))]})
        else:
            who = s.turns[cur].combatant
            c = s.combatants[who]
            alive = [i for i in range(len(s.combatants)) if i != who and s.statuses[i].condition is not cs.Condition.DEAD]
            if not alive:
                continue
            area = c.has(cs.Trait.AUTOMATIC) or c.has(cs.Trait.SEMI_AUTOMATIC)
            mode = "suppressive" if area and rng.random() < 0.4 else rng.choice(["aimed", "suppressive"])
            targets = rng.sample(alive, rng.randint(1, min(3, len(alive)))) if mode == "suppressive" and area else \
                [rng.choice(alive)]
            action = {"type": "shoot", "shooter": who, "targets": targets, "mode": mode,
                      "cover": rng.choice(["none", "cover", "good"]), "unseen": rng.random() < 0.3}
            if c.has(cs.Trait.SEMI_AUTOMATIC):
                action["semi"] = rng.choice(["hit", "damage"])
            g = apply(g, action)
    return g


@settings(max_examples=60)
@given(rosters(), st.integers(0, 2**32 - 1), st.integers(0, 60))
def test_property_hidden_means_absent_and_the_copy_says_only_true_things(made, play_seed, steps):
    setup, hidden_names = made
    seed = new_seed()
    g = random_play(new_game(cs.KIND, setup, seed=seed), random.Random(play_seed), steps)
    full = replay(g)
    hidden = frozenset(i for i in range(len(full.combatants)) if cs.is_hidden(full, i))
    tokens = [str(seed)]
    if full.privacy:
        tokens += hidden_names + ['"squad"', '"vehicle"', '"trained"', '"elite"', '"automatic"',
                                  '"semi-automatic"', '"explosive"', '"ground-vehicle"', '"air-vehicle"', "semi"]
    assert_absent(g, tokens)
    pub = cs.public_game(g)
    texts = spectator_texts(g)
    # no hidden card of any round is in the copy's record of that round
    deals = [a for a in pub.actions if a["type"] == "deal"]
    assert len(deals) == full.round
    # every prefix: the copy's state is the table's public view, and its sentences are true
    for position in range(0, len(g.actions) + 1, max(1, len(g.actions) // 6)):
        part = goto(g, position)
        state = replay(part)
        copy = replay(cs.public_game(part))
        hidden_then = frozenset(i for i in range(len(state.combatants)) if cs.is_hidden(state, i))
        assert copy_view(copy) == public_view(state, hidden_then)
        assert copy.hidden == hidden_then
        if state.phase == "round" and cs.current_turn(state) is None:
            assert cs.round_over(copy)
    last = replay(pub)
    if full.phase == "round":
        hand_cards = {c.token for i in hidden for h in [full.hands[i]] if h for c in h.dealt}
        last_deal = json.dumps(deals[-1])
        assert not any(f'"{t}"' in last_deal for t in hand_cards)
        assert last.unseen_cards == sum(len(full.hands[i].kept) for i in hidden)
    for where, text in texts.items():
        assert "Zyx-" not in text or not full.privacy, where


# ---------------------------------------------------------------------------
# HR-CS-8 (issue 34 item 2): the Observer chooses who is hidden; the hidden are not counted


def ambush_game(count_hidden: bool = False, seed: int = 4242):
    """Sgt. Rook and an ally the Observer keeps in sight, against five hidden ambushers."""
    people = [man("Sgt. Rook", 0, player=True, weapon=["automatic"]),
              {**man("Kvq-Ally-Rifleman", 0, training="trained"), "hidden": False}]
    people += [man(f"Xqz-Ambusher-{n}", 1, training="elite", weapon=["semi-automatic"]) for n in range(5)]
    setup = {**roster(*people, sides=("Players", "Ambush")), "count_hidden": count_hidden}
    return new_game(cs.KIND, setup, OWN, seed=seed)


AMBUSH_DEAL = deal("5C", "4C", "AS", "KS", "QS", "JS", "10S")  # the five ambushers act first


def test_an_ally_the_observer_keeps_in_sight_is_shown_by_name():
    g = run(ambush_game(), AMBUSH_DEAL)
    full = replay(g)
    assert [cs.is_hidden(full, i) for i in range(7)] == [False, False, True, True, True, True, True]
    pub = cs.public_game(g)
    assert pub.setup["combatants"][1]["name"] == "Kvq-Ally-Rifleman"
    assert "The Observer's combatant" not in json.dumps(pub.setup)


def test_an_uncounted_side_is_one_line_and_nothing_counts_its_cards():
    g = run(ambush_game(), AMBUSH_DEAL, NEXT, NEXT, NEXT, NEXT)  # four ambushers' cards acted
    pub = cs.public_game(g)
    assert pub.setup["combatants"][2:] == [{"name": "The Observer's hidden combatants", "side": 1,
                                            "grain": "individual", "training": "untrained", "weapon": [],
                                            "player": False}]
    assert pub.setup["hidden"] == [2] and pub.setup["count_hidden"] is False
    # the copy says only that the hidden act: no count, not one step per hidden card
    assert pub.actions == ({"type": "deal", "cards": {"0": ["5C"], "1": ["4C"]}, "hidden_next": True},)
    texts = spectator_texts(g)
    for where, text in texts.items():
        for token in ("Xqz-Ambusher", "hidden_cards", "The Observer's combatant ", "7 cards", "5 of them",
                      '"elite"', '"semi-automatic"'):
            assert token not in text, (token, where)
    copy = replay(pub)
    assert copy.log[0].text.startswith("Round 1: 2 cards shown to act, besides the Observer's hidden ones")
    assert copy.unseen_acting and cs.turn_counts(copy) == (0, 2)
    # the fifth hidden card acts: the copy's order moves to the shown cards
    g = run(g, NEXT)
    copy = replay(cs.public_game(g))
    assert not copy.unseen_acting and cs.acting(copy) == 0
    assert len(cs.public_game(g).actions) == 2


def test_a_shot_at_two_hidden_ambushers_is_one_shot_at_the_hidden_line():
    g = run(ambush_game(), deal("AS", "KS", "5C", "4C", "3C", "2C", "2D"),
            shoot(0, 2, 3, mode="suppressive", dice=[{"d10": 4}, {"d10": 5}]))
    pub = cs.public_game(g)
    shot = pub.actions[1]
    assert shot["targets"] == [2] and shot["dice"] == [None] and shot["shooter"] == 0
    record = cs.record_part(replay(pub), pub)
    text = json.dumps([s.entries for s in record[1]], default=str)
    assert "The Observer's hidden combatants (not counted)" in text and "5 combatants" not in text
    assert "Xqz-Ambusher" not in text


def test_say_how_many_are_hidden_counts_them_as_before():
    g = run(ambush_game(count_hidden=True), AMBUSH_DEAL, NEXT)
    pub = cs.public_game(g)
    assert [c["name"] for c in pub.setup["combatants"][2:]] == [
        f"The Observer's combatant {n}" for n in range(1, 6)]
    assert pub.actions[0]["hidden_cards"] == 5 and len(pub.actions) == 2
    assert replay(pub).log[0].text.startswith("Round 1: 7 cards to act (5 of them the Observer's hidden combatants')")


def test_an_older_roster_keeps_its_meaning_every_non_player_hidden_and_counted():
    setup = roster(man("Sgt. Rook", 0, player=True), man("Old-Ally-Wmx", 0), man("Old-Foe-Wmx", 1))
    g = new_game(cs.KIND, setup, OWN, seed=7)
    assert cs.normalize_setup(setup) == setup  # no new field written for an older roster
    full = replay(g)
    assert [cs.is_hidden(full, i) for i in range(3)] == [False, True, True]
    assert "HR-CS-8" in cs.rules_not_in_play(full)
    pub = cs.public_game(g)
    assert [c["name"] for c in pub.setup["combatants"]] == [
        "Sgt. Rook", "The Observer's combatant 1", "The Observer's combatant 2"]
    assert "HR-CS-8" not in cs.rules_not_in_play(replay(cs.public_game(ambush_game())))


def test_a_player_character_is_never_hidden_and_a_forged_uncounted_copy_is_refused():
    with pytest.raises(cs.SetupError, match="HR-CS-8"):
        cs.normalize_setup(roster({**man("Sgt. Rook", 0, player=True), "hidden": True}))
    pub = cs.public_game(run(ambush_game(), AMBUSH_DEAL))
    forged = json.loads(json.dumps(pub.setup))
    forged["combatants"].append({**forged["combatants"][2]})
    forged["hidden"] = [2, 3]
    with pytest.raises(cs.SetupError, match="one line"):
        cs.normalize_setup(forged)


@settings(max_examples=40)
@given(rosters(), st.integers(0, 2**32 - 1), st.integers(0, 50), st.integers(0, 2**16))
def test_property_an_uncounted_copy_holds_no_hidden_name_nor_count(made, play_seed, steps, shown_bits):
    setup, _ = made
    setup = {**setup, "count_hidden": False,
             "combatants": [{**c, "hidden": False} if not c["player"] and shown_bits >> i & 1 else c
                            for i, c in enumerate(setup["combatants"])]}
    hidden_names = [c["name"] for c in setup["combatants"] if not c["player"] and c.get("hidden", True)]
    g = random_play(new_game(cs.KIND, setup, seed=new_seed()), random.Random(play_seed), steps)
    full = replay(g)
    hidden = [i for i in range(len(full.combatants)) if cs.is_hidden(full, i)]
    pub = cs.public_game(g)
    copy = replay(pub)
    if full.privacy:
        assert_absent(g, hidden_names + ["hidden_cards", "The Observer's combatant "])
        sides = [pub.setup["combatants"][i]["side"] for i in pub.setup["hidden"]]
        assert sorted(sides) == sorted({full.combatants[i].side for i in hidden})
    shown = [i for i in range(len(full.combatants)) if i not in hidden]
    copy_shown = [i for i in range(len(copy.combatants)) if i not in copy.hidden]
    assert [full.combatants[i].name for i in shown] == [copy.combatants[i].name for i in copy_shown]
    assert [full.statuses[i] for i in shown] == [copy.statuses[i] for i in copy_shown]
    cur = cs.current_turn(full)
    assert copy.unseen_acting == (cur is not None and full.turns[cur].combatant in hidden)
    if cur is not None and not copy.unseen_acting:
        assert copy.combatants[cs.acting(copy)].name == full.combatants[full.turns[cur].combatant].name


def test_the_phones_seats_of_an_ambush_count_no_hidden_combatant():
    from engine import seats as seating

    g = run(ambush_game(), AMBUSH_DEAL, NEXT, NEXT)
    views = {s.id: json.dumps(seating.seat_view(g, s.id), ensure_ascii=False) for s in seating.seats(g)}
    assert len(views) >= 2  # Sgt. Rook's seat and the watch seat
    for seat, text in views.items():
        for token in ("Xqz-Ambusher", "hidden_cards", "The Observer's combatant ", "5 of them", '"elite"'):
            assert token not in text, (token, seat)
        assert "Kvq-Ally-Rifleman" in text, seat
