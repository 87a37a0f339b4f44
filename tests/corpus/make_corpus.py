"""Make the corpus of saves and links that every later version must open (issue 31).

Run once, from a checkout of the version whose saves and links are to be kept::

    python tests/corpus/make_corpus.py > tests/corpus/games.json

``games.json`` was made by main at 34abfc6 (before the house plan: flat engine
modules). Each entry is a game of one system at one phase, as a save, a full link and
a spectator link, with what opening it gave then: the canonical save text, the history
labels and the printed record (Markdown). ``tests/engine/test_corpus.py`` opens every
entry with today's code and compares. Deterministic: fixed seeds, moves chosen by rule.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import ascension, codec, conflict, record, solo  # noqa: E402
from engine.game import apply, history, new_game, replay  # noqa: E402


def _conflict_moves(game, count: int):
    """``count`` moves of a people's conflict, chosen as the Easy app would (no "why")."""
    for _ in range(count):
        state = replay(game)
        who = solo.to_act(state)
        if who is None:
            action = {"type": "next_round"}
        else:
            action = dict(solo.decide(state, who[0], "easy").action)
            action.pop("why", None)
        game = apply(game, action)
    return game


def games() -> dict[str, object]:
    out = {}
    example = conflict.purple_dragon_setup()
    start = new_game("conflict", example, seed=7)
    out["conflict: set up"] = start
    out["conflict: discards done"] = _conflict_moves(start, 2)
    out["conflict: mid-round"] = _conflict_moves(start, 5)
    out["conflict: second round"] = _conflict_moves(start, 14)
    solo_setup = dict(example)
    solo_setup["sides"] = [dict(example["sides"][0]), dict(example["sides"][1], controller="app", level="normal")]
    game = new_game("conflict", solo_setup, seed=8)
    state = replay(game)
    while solo.to_act(state) is not None and len(game.actions) < 8:
        side, _ = solo.to_act(state)
        decision = solo.decide(state, side, "normal")
        action = decision.action if side == 1 else {k: v for k, v in decision.action.items() if k != "why"}
        game = apply(game, action)
        state = replay(game)
    out["conflict: against the app"] = game

    campaign = new_game("campaign", {"players": ["Anna", "Ben"]}, seed=21)
    out["campaign: dealt"] = campaign
    campaign = apply(campaign, {"type": "battle", "winner": 0, "troops": 9})
    out["campaign: spoils to choose"] = campaign
    choices = __import__("engine.campaign", fromlist=["x"]).spoils_choices(replay(campaign))
    campaign = apply(campaign, {"type": "take", "stake": True, "pool": str(choices["pool"][0])})
    out["campaign: after the spoils"] = campaign
    for action in ({"type": "roll"}, {"type": "battle", "winner": 1, "troops": 3}):
        try:
            campaign = apply(campaign, action)
        except ValueError:
            pass
    out["campaign: a later battle"] = campaign
    dummy = new_game("campaign", {"players": ["Anna", ""], "dummy": True}, seed=22)
    dummy = apply(dummy, {"type": "battle", "winner": 1, "troops": 10})
    out["campaign: solo, the dummy took"] = dummy

    people = [{"name": n, "side": s, "grain": "individual", "training": t, "weapon": w, "player": p}
              for n, s, t, w, p in (("Vasquez", 0, "elite", ["automatic"], True),
                                    ("Hicks", 0, "trained", ["semi-automatic"], True),
                                    ("Rifleman", 0, "untrained", [], False),
                                    ("Sniper", 1, "elite", ["semi-automatic"], False),
                                    ("Gunner", 1, "trained", ["automatic"], False))]
    tracker = new_game("initiative", {"sides": ["Marines", "Hostiles"], "combatants": people, "privacy": True},
                       seed=31)
    out["initiative: roster"] = tracker
    tracker = apply(tracker, {"type": "deal"})
    out["initiative: dealt"] = tracker
    for _ in range(3):
        state = replay(tracker)
        actor = __import__("engine.consim", fromlist=["x"]).acting(state)
        if actor is None:
            break
        target = 3 if people[actor]["side"] == 0 else 0
        try:
            tracker = apply(tracker, {"type": "shoot", "shooter": actor, "targets": [target], "mode": "aimed",
                                      "cover": "none", "unseen": False})
        except ValueError:
            tracker = apply(tracker, {"type": "next"})
    out["initiative: shots fired"] = tracker

    battle = new_game("battle", ascension.example_setup(), seed=41)
    out["battle: armies"] = battle
    battle = apply(battle, {"type": "bid", "side": 0, "maneuver": "attack", "stratagems": []})
    out["battle: one bid sealed"] = battle
    battle = apply(battle, {"type": "bid", "side": 1, "maneuver": "defend", "stratagems": []})
    battle = apply(battle, {"type": "reveal"})
    out["battle: revealed"] = battle
    battle = apply(battle, {"type": "roll"})
    out["battle: a week rolled"] = battle
    for _ in range(6):
        if replay(battle).phase == "over":
            break
        for action in ({"type": "bid", "side": 0, "maneuver": "attack", "stratagems": []},
                       {"type": "bid", "side": 1, "maneuver": "withdraw", "stratagems": []},
                       {"type": "reveal"}, {"type": "roll"}):
            battle = apply(battle, action)
    out["battle: over"] = battle
    own = new_game("battle", ascension.example_setup(), {"dice": "table"}, seed=42)
    for action in ({"type": "bid", "side": 0, "maneuver": "attack", "stratagems": []},
                   {"type": "bid", "side": 1, "maneuver": "block", "stratagems": []}, {"type": "reveal"}):
        own = apply(own, action)
    pools = [ascension.dice_pool(replay(own), s, m).dice for s, m in ((0, "attack"), (1, "block"))]
    own = apply(own, {"type": "roll", "dice": [[6, 5, 4, 3, 2, 1, 6, 6][:pools[0]], [1, 2, 3, 4, 5, 6][:pools[1]]]})
    out["battle: the table's own dice"] = own
    table = new_game("initiative", {"sides": ["Marines", "Hostiles"], "combatants": people[:4], "privacy": False},
                     {"deck": "table", "dice": "table"}, seed=32)
    table = apply(table, {"type": "deal", "cards": {"0": ["AS"], "1": ["KH"], "2": ["5D"], "3": ["9C"]}})
    out["initiative: our own deck"] = table
    return out


def entry(name: str, game) -> dict[str, object]:
    mod = __import__(f"engine.{ {'initiative': 'consim', 'battle': 'ascension'}.get(game.kind, game.kind)}",
                     fromlist=["x"])
    spectator = mod.public_game(game)
    return {
        "name": name, "kind": game.kind,
        "save": codec.dumps(game, {"name": name, "created": 1_764_000_000_000, "updated": 1_764_000_000_000}),
        "link": codec.encode_share(game),
        "spectator_link": codec.encode_share(spectator),
        "canonical": codec.dumps(game),
        "spectator_canonical": codec.dumps(codec.decode_share(codec.encode_share(spectator))),
        "history": history(game),
        "record": record.to_markdown(record.record(game, name=name)),
    }


if __name__ == "__main__":
    json.dump([entry(name, game) for name, game in games().items()], sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
