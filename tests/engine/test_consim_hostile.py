"""A hostile caller of the CONSIM engine (issue 20), with tests/engine/hostile.py.

Random JSON-like actions — random junk, the system's own action types with random
fields, and legal actions with a field dropped, changed or added — are applied in
sequence to games at every phase (before the first deal, the current actor's turn,
a hidden combatant's turn, a spectator's copy): only ValueError subclasses come out,
a refused action changes nothing, an accepted one is canonical and replays
identically (``hostile.take``). The public helpers get random arguments
(``hostile.call``). Runs on CPython and on Pyodide (tests/pyodide/run.mjs)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import consim as cs
from engine.game import new_game, replay

from . import hostile
from .consim_kit import NEXT, OWN, deal, in_order, run, shoot, two_sides

FIELDS = ("advantages", "surprised", "cards", "hidden_cards", "hidden_next", "combatant", "shooter", "targets",
          "mode", "cover", "unseen", "semi", "dice", "results", "hide")


def _games():
    base = new_game(cs.KIND, two_sides(), OWN, seed=2**127 + 12345)  # recorded facts: the table's own (issue 35)
    dealt = run(base, deal("AS 9D", "KS", "QS", "JS", "10S", "9S", advantages={"0": ["morale"]}))
    hurt = run(dealt, shoot(0, 3, dice=[{"d10": 10, "d6": 2, "countdown": 2}]), NEXT, NEXT, NEXT, NEXT, NEXT,
               {"type": "end_round"}, {"type": "deal"})
    legacy = new_game(cs.KIND, {**two_sides(), "legacy": True}, OWN, seed=5)
    legacy = run(legacy, in_order(6), shoot(0, 3, dice=[{"d10": 1}]))
    return {"ready": base, "round": dealt, "hurt": hurt, "legacy": legacy, "copy": cs.public_game(dealt)}


GAMES = _games()


def _valid(g) -> list[dict]:
    s = replay(g)
    out = [{"type": "deal"}, NEXT, {"type": "end_round"}, {"type": "privacy", "hide": False},
           {"type": "deal", "advantages": {"1": ["morale"]}, "surprised": [1]},
           {"type": "deal", "cards": {str(i): [t] for i, t in enumerate(["AS", "KS", "QS", "JS", "10S", "9S"])}}]
    who = cs.acting(s)
    if who is not None:
        out += [shoot(who, 4), shoot(who, 4, dice=[{"d10": 10, "d6": 3, "countdown": 4}]),
                shoot(who, 3, 4, mode="suppressive", dice=[{"d10": 2}, {"d10": 3}]),
                {"type": "long", "combatant": who, "cards": [t.card.token for t in s.turns
                                                             if t.combatant == who and not t.done][:2]}]
    for i, st_ in enumerate(s.statuses):
        if st_.condition is cs.Condition.INJURED:
            out.append({"type": "treat", "combatant": i})
    out.append({"type": "end_round", "dice": {"3": 2}})
    return out


ACTIONS = {name: hostile.actions(cs.ACTION_TYPES, FIELDS, _valid(g)) for name, g in GAMES.items()}


def _play(name: str, moves) -> None:
    g = GAMES[name]
    accepted = 0
    for action in moves:
        g, ok = hostile.take(g, action)
        accepted += ok
    assert replay(g) is not None


@settings(max_examples=250)
@given(st.lists(ACTIONS["ready"], min_size=1, max_size=6))
def test_hostile_actions_before_the_first_deal(moves):
    _play("ready", moves)


@settings(max_examples=250)
@given(st.lists(ACTIONS["round"], min_size=1, max_size=6))
def test_hostile_actions_on_the_current_actors_turn(moves):
    _play("round", moves)


@settings(max_examples=150)
@given(st.lists(ACTIONS["hurt"], min_size=1, max_size=6))
def test_hostile_actions_with_wounds_and_countdowns(moves):
    _play("hurt", moves)


@settings(max_examples=100)
@given(st.lists(ACTIONS["legacy"], min_size=1, max_size=6))
def test_hostile_actions_on_a_game_kept_under_the_earlier_rules(moves):
    _play("legacy", moves)


@settings(max_examples=100)
@given(ACTIONS["copy"])
def test_hostile_actions_on_a_spectator_copy_are_all_refused(action):
    g = GAMES["copy"]
    assert hostile.take(g, action) == (g, False)


@settings(max_examples=200)
@given(ACTIONS["round"])
def test_hostile_actions_through_the_copys_own_rules(action):
    """A crafted spectator copy goes through the copy's rules (validate, link decoding):
    ``step`` on the copy's state answers or refuses with a ValueError subclass."""
    state = replay(GAMES["copy"])
    hostile.call(cs.step, state, action)
    hostile.call(cs.normalize_action, state, action)


ARG = hostile.VALUES
STATE = st.sampled_from([replay(g) for g in GAMES.values()])
FIGHTER = st.one_of(ARG, st.builds(lambda t, w: cs.Combatant("X", 0, training=t, weapon=w),
                                   st.sampled_from(list(cs.Training)),
                                   st.sets(st.sampled_from(list(cs.Trait)), max_size=3)))


@settings(max_examples=200)
@given(ARG, ARG, ARG, st.tuples(ARG, ARG, ARG, ARG, ARG))
def test_hostile_arguments_to_the_rule_functions(a, b, c, flags):
    hostile.call(cs.initiative_order, a)
    hostile.call(cs.initiative_key, a)
    hostile.call(cs.wound_status, a)
    hostile.call(cs.wound_distribution, b)
    hostile.call(cs.to_hit_target, c)
    hostile.call(cs.cards_due, a, b, c, no_cards=flags[0], surprised=flags[1], player=flags[2], pulp=flags[3],
                 legacy=flags[4])
    hostile.call(cs.apply_wound, cs.Status(), a, b, c)
    hostile.call(cs.apply_wound, a, cs.WoundStatus.STUN, 1)
    hostile.call(cs.Combatant, a, b, c, *flags[:3])
    hostile.call(cs.Status, a, b)


@settings(max_examples=200)
@given(FIGHTER, ARG, ARG, ARG)
def test_hostile_arguments_to_the_odds(shooter, mode, cover, semi):
    hostile.call(cs.hit_modifier, shooter, semi)
    hostile.call(cs.damage_modifier, shooter, semi)
    hostile.call(cs.suppression_multiplier, shooter)
    hostile.call(cs.suppression_caused, shooter, unseen=mode, suppressive_miss=cover)
    hostile.call(cs.hit_chance, shooter, mode, cover, semi)
    hostile.call(cs.shot_odds, shooter, mode, cover, semi)


@settings(max_examples=200)
@given(st.one_of(STATE, ARG), ARG, ARG, ARG)
def test_hostile_arguments_to_the_table_helpers(state, a, b, c):
    for fn in (cs.status, cs.standing, cs.current_turn, cs.acting, cs.round_over, cs.turn_counts):
        hostile.call(fn, state)
    hostile.call(cs.is_hidden, state, a)
    hostile.call(cs.can_act, state, a)
    hostile.call(cs.check_shot, state, a, b, c)
    hostile.call(cs.can_shoot, state, a, b, c)
    for fn in (cs.check_long, cs.can_long):
        hostile.call(fn, state, a, b)
    for fn in (cs.check_treat, cs.can_treat, cs.check_first_aid, cs.can_first_aid):
        hostile.call(fn, state, a)
    for fn in (cs.check_end_round, cs.can_end_round):
        hostile.call(fn, state)
    hostile.call(cs.forecast, state, a, b, c)
    hostile.call(cs.describe, state, a)
    hostile.call(cs.normalize_action, state, a)
    hostile.call(cs.public_game, a)


@settings(max_examples=150)
@given(ARG, ARG)
def test_hostile_setups_and_upgrades(setup, actions):
    hostile.call(cs.normalize_setup, setup)
    hostile.call(cs.start, setup)
    out = hostile.call(cs.upgrade, {"kind": cs.KIND, "seed": 1, "rules": {}, "setup": setup, "actions": actions,
                                    "position": 0})
    assert isinstance(out, (dict, ValueError))
