"""Old campaigns (save schema 2, "2" links) open as they were played (issue 20).

``test_campaign_schema2.json`` holds campaigns played with the schema-2 engine (made by
``tests/engine/campaign_schema2_make.py`` from that version's ``engine/campaign.py``,
with the quirks it accepted) and what that engine showed after every action. Today's
engine, through the codec's upgrade to schema 3 (``campaign.upgrade``), must show the
same table at every step: the pool in its order, stakes, counts, dice and result.
"""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

import pytest

from engine import campaign as cmp
from engine import codec
from engine import game as games
from engine.game import new_game, replay

FIXTURE = json.loads(Path(__file__).with_name("test_campaign_schema2.json").read_text())
GAMES = FIXTURE["games"]


def table(state) -> dict:
    return {"phase": state.phase, "pool": [str(c) for c in state.pool],
            "stakes": [None if s is None else str(s) for s in state.stakes],
            "counts": [state.card_count(0), state.card_count(1)],
            "dice": [list(r.dice) for r in state.rolls], "result": state.result}


def old_link(save: dict) -> str:
    short = {"k": save["kind"], "s": save["seed"], "r": save["rules"], "u": save["setup"], "a": save["actions"]}
    raw = json.dumps(short, separators=(",", ":")).encode()
    return "2" + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_a_schema_2_save_replays_every_step_as_it_was_played(index):
    item = GAMES[index]
    game, _ = codec.game_from_dict(item["save"])
    assert len(game.actions) == len(item["after"]) - 1
    for position, expected in enumerate(item["after"]):
        assert table(replay(game, position)) == expected, f"step {position}"
    # The same game from a "2" link.
    assert codec.decode_share(old_link(item["save"])) == game
    # Saved again it is a schema-3 game that keeps its reading (and opens unchanged).
    again, _ = codec.loads(codec.dumps(game))
    assert again == game and table(replay(again)) == item["after"][-1]


def test_old_games_whose_pool_was_refilled_keep_the_old_refill_and_say_so():
    marked = 0
    for item in GAMES:
        game, _ = codec.game_from_dict(item["save"])
        refilled = bool(replay(game, len(game.actions)).history.get("refills"))
        assert ("refill-end" in game.setup.get("legacy", [])) == refilled
        log = [e.text for e in replay(game).log]
        assert any("earlier version" in t and "right end of the pool" in t for t in log) == refilled
        marked += refilled
        if refilled:
            # Without the kept reading, the same actions show another pool (the CMP-4 ruling).
            plain = games.Game(game.kind, game.seed, game.rules,
                               {k: v for k, v in game.setup.items() if k != "legacy"}, game.actions,
                               game.position)
            assert any(table(replay(plain, p))["pool"] != item["after"][p]["pool"]
                       for p in range(len(item["after"])))
    assert marked >= len(GAMES) // 2


def test_the_quirks_the_old_engine_ignored_are_left_out():
    quirky = next(item for item in GAMES
                  if any(a.get("type") == "battle" and a.get("winner") is None and "troops" in a
                         for a in item["save"]["actions"])
                  and any("dice" in a for a in item["save"]["actions"]))
    game, _ = codec.game_from_dict(quirky["save"])
    for action in game.actions:
        assert set(action) <= {"type", "winner", "troops", "stake", "pool"}
        if action["type"] == "battle" and action["winner"] is None:
            assert "troops" not in action
        if action["type"] == "take" and action["pool"] is not None:
            assert action["pool"] == action["pool"].upper()
    assert games.validate(game) == game  # canonical


def test_new_games_and_schema_3_saves_have_no_legacy_reading():
    game = new_game("campaign", {"players": ["Anna", "Ben"]}, seed=5)
    game = games.apply(game, {"type": "battle", "winner": 0, "troops": 3})
    state = replay(game)
    game = games.apply(game, {"type": "take", "stake": False, "pool": str(state.pool[1])})
    assert "legacy" not in game.setup
    assert codec.loads(codec.dumps(game))[0] == game
    # The ruling: the refill takes the taken card's place.
    assert replay(game).pool[1] == state.deck[0]


def test_an_old_spectator_copy_opens_as_it_was_shared():
    item = next(i for i in GAMES if "refill-end" in codec.game_from_dict(i["save"])[0].setup.get("legacy", []))
    game, _ = codec.game_from_dict(item["save"])
    copy = cmp.public_game(game)
    assert copy.setup["legacy"] == ["refill-end"]
    assert table(replay(copy)) == item["after"][-1] or replay(copy).phase == "over"
    # As the old version wrote it: no legacy flag, no spectator marker (it did not have them).
    old_setup = {k: v for k, v in copy.setup.items() if k not in ("legacy", "spectator")}
    old_copy = {"app": "conflict-table", "schema": 2, "kind": "campaign", "seed": 0, "rules": {},
                "setup": old_setup, "actions": [dict(a) for a in copy.actions], "position": len(copy.actions)}
    opened, _ = codec.game_from_dict(old_copy)
    assert games.is_spectator(opened) and opened.setup["legacy"] == ["refill-end"]
    assert [table(replay(opened, p))["pool"] for p in range(len(opened.actions) + 1)] == \
        [table(replay(copy, p))["pool"] for p in range(len(copy.actions) + 1)]


def test_upgrade_refuses_what_is_not_a_game_and_leaves_junk_to_the_checks():
    with pytest.raises(ValueError):
        cmp.upgrade(None)
    assert cmp.upgrade({"kind": "campaign", "setup": 3, "actions": []})["setup"] == 3
    junk = cmp.upgrade({"kind": "campaign", "seed": 1, "rules": {}, "setup": {"players": ["A", "B"]},
                        "actions": [{"type": "dance"}], "position": 1})
    assert junk["setup"]["legacy"] == sorted(cmp.LEGACY)  # it does not replay: every old reading kept
    with pytest.raises(codec.SaveError, match="step 1"):
        codec.game_from_dict({"app": "conflict-table", "schema": 2, "kind": "campaign", "seed": 1, "rules": {},
                              "setup": {"players": ["A", "B"]}, "actions": [{"type": "dance"}], "position": 1})


def test_old_games_that_rolled_the_certain_roll_after_battle_eight_keep_it():
    """CMP-6 (defect 13): the roll after battle 8 cannot fail and is no longer rolled; old
    games hold that roll, so they keep rolling it (and their log says so)."""
    rolled = 0
    for item in GAMES:
        game, _ = codec.game_from_dict(item["save"])
        full = replay(game, len(game.actions))
        certain = any(r.battles >= 8 for r in full.rolls)
        assert ("certain-roll" in game.setup.get("legacy", [])) == certain
        if certain:
            rolled += 1
            assert any("earlier version" in e.text and "after battle 8" in e.text for e in replay(game).log)
            plain = games.Game(game.kind, game.seed, game.rules,
                               {**game.setup, "legacy": [x for x in game.setup["legacy"] if x != "certain-roll"]},
                               game.actions, game.position)
            with pytest.raises(games.RuleError, match="CMP-7: both sides are exhausted"):
                games.validate(plain)
    assert rolled >= 3
