"""Games saved before the CS-3 and CS-5 rulings (issue 20) open as they were played.

``consim_before_rulings.json`` holds a save and a spectator's link made by the app
before the rulings (save schema 2 / a "2" link), with what that version showed:
the final statuses and log of the save, and what the link's copy showed. ``upgrade``
marks such games ``"legacy"`` (the earlier reading), and turns an earlier spectator's
copy into one that holds nothing of the hidden combatants."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import codec
from engine import consim as cs
from engine.game import apply, history, is_spectator, replay, validate

from .consim_kit import NEXT, shoot
from .privacy import payload_json

OLD = json.loads((Path(__file__).parent / "consim_before_rulings.json").read_text())


def statuses(state, count=None):
    return [[st.condition.value, st.suppression, st.countdown] for st in state.statuses[:count]]


def test_an_old_save_replays_as_it_was_played_under_the_earlier_rules():
    game, _ = codec.loads(json.dumps(OLD["full_save"]))
    assert game.setup["legacy"] is True
    s = replay(game)
    assert statuses(s) == OLD["full_expected"]["statuses"]
    # the log is the earlier one but for the wording fixed since, and it says why
    assert s.log[0].text == cs.LEGACY_RULES
    assert len(s.log) == len(OLD["full_expected"]["log"]) + 1
    assert history(game)[0] == "Round 1 · deal (earlier rules: see the log)"
    # two shots on one card, and a Next after each shot: allowed under the earlier rules only
    pairs = list(zip(game.actions, game.actions[1:]))
    assert any(a["type"] == b["type"] == "shoot" and a["shooter"] == b["shooter"] for a, b in pairs)
    assert any(a["type"] == "shoot" and b["type"] == "next" for a, b in pairs)
    fresh = dict(OLD["full_save"])
    fresh["schema"] = 3  # the same actions as a save of today: the CS-5 ruling refuses them
    with pytest.raises(codec.SaveError, match="CS-5"):
        codec.loads(json.dumps(fresh))


def test_an_old_game_goes_on_under_the_earlier_rules():
    game, _ = codec.loads(json.dumps(OLD["full_save"]))
    game = apply(game, {"type": "deal"})
    s = replay(game)
    who = cs.acting(s)
    target = next(i for i in range(6) if s.combatants[i].side != s.combatants[who].side
                  and s.statuses[i].condition is not cs.Condition.DEAD)
    game = apply(game, shoot(who, target))  # the app's dice: rolled from the seed (issue 35)
    assert cs.acting(replay(game)) == who  # the earlier reading: the turn moves on only with Next
    game = apply(game, shoot(who, target))
    assert validate(game) == game and codec.decode_share(codec.encode_share(game)) == game


def test_an_old_game_without_shots_is_left_under_todays_rules():
    data = {"kind": cs.KIND, "seed": 3, "rules": {"pulp": False},
            "setup": {**OLD["full_save"]["setup"]}, "actions": [{"type": "deal"}, {"type": "next"}], "position": 2}
    out = cs.upgrade(data)
    assert "legacy" not in out["setup"] and "facts" not in out["setup"] and "hidden" not in out["setup"]
    assert out["actions"] == data["actions"]


def test_an_old_spectator_link_opens_as_a_spectator_copy_without_the_hidden_roster():
    link = "2" + OLD["copy_link_v3"][1:]  # the same payload as a "2" link of that time
    before = payload_json(link)
    assert "Zyx-Sniper-41" in before and '"facts":true' in before  # what the earlier copy carried
    game = codec.decode_share(link)
    assert is_spectator(game) and game.setup["legacy"] is True
    assert game.setup["hidden"] == [2, 3]
    assert [c["name"] for c in game.setup["combatants"]] == [
        "Sgt. Rook", "Doc", "The Observer's combatant 1", "The Observer's combatant 2"]
    saved = codec.dumps(game)
    assert "Zyx-Sniper-41" not in saved and "Qwv-Rifle-7" not in saved and "elite" not in saved
    s = replay(game)
    expected = OLD["copy_expected"]
    assert statuses(s, 2) == expected["statuses"]  # the public facts are the ones the link showed
    assert [[t.card.token, t.combatant, t.done] for t in s.turns] == expected["turns"]
    shots = [e.text for e in s.log if "shot" in e.text]
    assert shots and all(t.startswith("An unseen shooter: aimed shot.") for t in shots)
    assert "d10" not in " ".join(shots)
    with pytest.raises(ValueError):
        apply(game, NEXT)  # read-only


def test_upgrade_leaves_what_it_cannot_read_for_the_checks():
    assert cs.upgrade({"setup": "x", "actions": []}) == {"setup": "x", "actions": []}
    junk = {"setup": {"facts": True, "sides": 3}, "actions": [{"type": "shoot"}]}
    assert cs.upgrade(junk) == junk
    with pytest.raises(cs.ArgumentError):
        cs.upgrade(None)
