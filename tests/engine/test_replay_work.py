"""Issue 30, items 1–2: a link or a save can never freeze a tablet.

* The nesting scan before the JSON parser looks at each character once (the old one
  retried an unterminated string of escaped quotes from every quote: 18 s for a
  77-character link, hours for a 1,328-character one). These tests would not finish
  with the old scan; they check what the scan answers against a plain reference.
* Opening a game replays it, and the work of a replay grows with the tables (armies,
  rosters, sides) and the history: a game whose replay would take a tablet more than
  about a second is refused *before* it is replayed, and no action takes a game past
  that point, so every game the app made opens again.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import ascension, codec, consim
from engine import conflict as oic
from engine import game as games
from tests import maxgames


def reference_depth(text: str) -> int:
    """The nesting depth, one character at a time (strings skipped, escapes honoured)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(alphabet='ab"\\[]{}', max_size=6),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                        st.text(alphabet='k"\\[{', max_size=3), inner, max_size=3), max_leaves=20)


@given(JSON)
def test_the_scan_counts_the_nesting_of_any_json(value):
    text = json.dumps(value)
    assert codec.json_depth(text) == reference_depth(text)


@given(st.text(alphabet='"[]{}a', max_size=60))
def test_the_scan_agrees_with_the_reference_on_broken_json(text):
    """An unterminated string hides the brackets after it; stray closers count down."""
    assert codec.json_depth(text) == max(0, reference_depth(text))


@given(st.lists(st.sampled_from(['"', "\\", "[", "]", "{", "}", "a"]), max_size=60).map("".join))
def test_the_scan_reads_escapes_as_the_parser_does(inside):
    """Inside a string, whatever its escapes, no bracket counts."""
    text = "[" + json.dumps(inside) + "]"
    assert codec.json_depth(text) == 1 == reference_depth(text)


def test_the_scan_stops_at_the_limit():
    assert codec.json_depth("[" * 100_000, limit=32) > 32
    assert codec.json_depth("[" * 10 + "]" * 10, limit=32) == 10
    with pytest.raises(codec.CodecError):
        codec.json_depth(0)
    with pytest.raises(codec.CodecError):
        codec.json_depth("[]", limit=-1)


@pytest.mark.parametrize("name", sorted(maxgames.HOSTILE_JSON))
def test_hostile_json_is_refused_as_a_link_and_as_a_save(name):
    """Issue 30 item 1, and issue 35 item 6 (the same scan under drafts, saves, imports)."""
    text = maxgames.HOSTILE_JSON[name]
    with pytest.raises(codec.ShareError) as link:
        codec.decode_share(maxgames.link_of_json(text))
    assert "damaged" in str(link.value)
    with pytest.raises(codec.SaveError):
        codec.loads(text)
    with pytest.raises(codec.SaveError):
        codec.loads("[" + text)


def test_the_77_character_link_of_the_issue_is_refused():
    link = maxgames.link_of_json('"\\' + '\\"' * 16000)
    assert len(link) == 77
    with pytest.raises(codec.ShareError, match="not valid JSON"):
        codec.decode_share(link)


# --------------------------------------------------------------------------- the replay budget


@pytest.fixture(scope="module")
def longest_battle():
    """The longest battle of two 200-unit armies ``apply`` lets grow (the budget stops it)."""
    return maxgames.battle(10_000)


def test_a_battle_of_the_largest_armies_stops_growing_at_the_budget(longest_battle):
    game = longest_battle
    assert games.replay_work(game) <= games.MAX_REPLAY_WORK
    following = maxgames.WEEK[len(game.actions) % len(maxgames.WEEK)]
    assert games.can_apply(replace(game, actions=game.actions[:-1], position=len(game.actions) - 1,
                                   _tip=None), game.actions[-1])
    with pytest.raises(games.TooLong, match="new game"):
        games.apply(game, following)
    # Refused: the game as it was, and what the app made opens again, exactly.
    assert codec.decode_share(codec.encode_share(longest_battle)) == longest_battle
    assert codec.loads(codec.dumps(longest_battle))[0] == longest_battle


def test_a_longer_history_is_refused_before_any_of_it_is_replayed(longest_battle, monkeypatch):
    doubled = longest_battle.actions * 2
    hostile = replace(longest_battle, actions=doubled, position=len(doubled), _tip=None)
    link, save = codec.encode_share(hostile), codec.dumps(hostile)

    def never(*args, **kwargs):
        raise AssertionError("replayed")

    monkeypatch.setattr(ascension, "step", never)
    with pytest.raises(codec.ShareError) as refused:
        codec.decode_share(link)
    assert refused.value.reason == "too-large"
    assert str(refused.value).startswith(f"This link is too long to open: its {len(doubled):,} actions would keep "
                                         "a tablet busy for about 2 seconds")
    with pytest.raises(codec.SaveError) as refused:
        codec.loads(save)
    assert refused.value.reason == "too-large"
    assert str(refused.value).startswith("This save is too long to open: its")


@pytest.mark.parametrize("system, setup, per_action", [
    (ascension, {"armies": [{"units": [{}] * 200}, {"units": [{}] * 200}]}, 160 + 320),
    (ascension, {"armies": [{"units": [{}] * 3}, {"units": [{}] * 5}]}, 160 + 6),
    (consim, {"combatants": [{}] * 120}, 80 + 60),
    (oic, {"sides": [{"players": [{"organizations": [{}] * 20}] * 8}] * 2}, 200 + 80),
])
def test_each_system_says_what_its_actions_cost(system, setup, per_action):
    assert system.replay_work(setup, [{"type": "next"}] * 10) == 10 * per_action


def test_units_that_join_count_from_then_on():
    setup = {"armies": [{"units": [{}] * 199}, {"units": [{}] * 199}]}
    joins = [{"type": "join"}] * 4
    assert ascension.replay_work(setup, joins) == (160 + 319) + (160 + 320) * 3  # the armies are full at 400


@pytest.mark.parametrize("setup", [None, 0, "x", {"armies": 3}, {"armies": [None, {"units": "abc"}]},
                                   {"sides": [{"players": [None, {"organizations": 7}]}]},
                                   {"combatants": {"a": 1}}])
@pytest.mark.parametrize("system", [ascension, consim, oic])
def test_the_estimate_reads_a_hostile_setup_without_failing(system, setup):
    """It runs before anything is checked: whatever the setup holds, it counts."""
    assert system.replay_work(setup, [None, 1, {"type": {}}]) >= 3 * 80


def test_a_system_without_an_estimate_counts_every_action_alike():
    game = maxgames.campaign(0)
    longer = replace(game, actions=({"type": "roll"},) * 7, position=7, _tip=None)
    assert games.replay_work(longer) == 7 * games.DEFAULT_ACTION_WORK


def test_a_week_asks_for_each_pool_once():
    """The pools are remembered with the state, and a bid or the reveal keeps them."""
    game = games.new_game("battle", ascension.example_setup(), seed=2)
    state = games.replay(game)
    pool = ascension.dice_pool(state, 0, "attack")
    assert ascension.dice_pool(state, 0, "attack") is pool
    assert ascension.dice_pool(state, 0, "attack", ["flanking"]) is not pool
    declared = ascension.step(state, {"type": "bid", "side": 0, "maneuver": "attack", "stratagems": []},
                              game.rules)
    assert ascension.dice_pool(ascension.step(declared, {"type": "bid", "side": 1, "maneuver": "defend",
                                                         "stratagems": []}, game.rules), 0, "attack") is pool
    bid = games.apply(game, {"type": "bid", "side": 0, "maneuver": "attack", "stratagems": []})
    rolled = games.apply(games.apply(games.apply(bid, {"type": "bid", "side": 1, "maneuver": "defend",
                                                            "stratagems": []}), {"type": "reveal"}),
                         {"type": "roll"})
    after = games.replay(rolled)
    fresh = ascension.start(game.setup, game.rules)
    # After the roll the armies may have changed: the pool is worked out again, from them.
    assert ascension.dice_pool(after, 0, "attack") == ascension.dice_pool(replace(after), 0, "attack")
    assert ascension.dice_pool(fresh, 0, "attack") == pool
