"""Makes ``tests/engine/test_campaign_schema2.json``: campaigns played with the engine of
save schema 2 (before issue 20's rulings), and what that engine showed after every
action, for ``test_campaign_upgrade.py``.

Run once, from the repository, with the schema-2 engine taken from git::

    .venv/bin/python -m tests.engine.campaign_schema2_make 6cf83ed

It loads that commit's ``engine/campaign.py`` as a module of its own (next to
today's ``engine.cards``, ``engine.game`` …), plays seeded random campaigns the
way that version's table did — and with the quirks it accepted (a drawn battle
with troop points, lower-case card tokens, a roll carrying dice it ignored) — and
records each game's schema-2 save with the table after every step: phase, pool
(in its order), stakes, card counts, the dice rolled and the result.
"""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path

OUT = Path(__file__).with_name("test_campaign_schema2.json")


def old_engine(commit: str):
    source = subprocess.run(["git", "show", f"{commit}:engine/campaign.py"], check=True, capture_output=True,
                            text=True).stdout
    spec = importlib.util.spec_from_loader("engine._campaign_schema2", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "engine"
    sys.modules[spec.name] = module  # dataclasses look their module up
    exec(compile(source, "campaign_schema2.py", "exec"), module.__dict__)
    return module


def snapshot(state) -> dict:
    return {"phase": state.phase, "pool": [str(c) for c in state.pool],
            "stakes": [None if s is None else str(s) for s in state.stakes],
            "counts": [state.card_count(0), state.card_count(1)],
            "dice": [list(r.dice) for r in state.rolls], "result": state.result}


def play(old, seed: int, dummy: bool, choices: random.Random) -> dict:
    setup = {"players": ["Anna", "Ben"], "dummy": dummy}
    rng = random.Random(seed)
    state = old.start(setup, {}, rng)
    actions, snaps = [], [snapshot(state)]
    while state.phase != "over" and len(actions) < 80:
        if state.phase == "battle":
            winner = choices.choice([0, 1, 1, None])
            action = {"type": "battle", "winner": winner, "troops": choices.randint(0, 12)}
            if winner is None and choices.random() < 0.5:
                del action["troops"]  # the view sent none; hand-made games did
        elif state.phase == "spoils":
            pool = str(choices.choice(state.pool))
            pool = pool.lower() if choices.random() < 0.3 else pool
            if state.pending[2]:
                action = {"type": "take", "stake": True, "pool": pool}
            else:
                action = choices.choice([{"type": "take", "stake": True, "pool": None},
                                         {"type": "take", "stake": False, "pool": pool}])
        elif state.phase == "exhaustion":
            action = {"type": "roll"} if choices.random() < 0.8 else {"type": "roll", "dice": [6, 6]}
        else:
            action = {"type": "negotiate"}
        state = old.step(state, action, {}, rng)
        actions.append(action)
        snaps.append(snapshot(state))
    save = {"app": "conflict-table", "schema": 2, "kind": "campaign", "seed": seed, "rules": {},
            "setup": setup, "actions": actions, "position": len(actions)}
    return {"save": save, "after": snaps}


def main(commit: str) -> None:
    old = old_engine(commit)
    games = []
    choices = random.Random(20261201)
    for seed in range(40):
        games.append(play(old, 1000 + seed, seed % 2 == 1, choices))
    OUT.write_text(json.dumps({"made_by": f"tests/engine/campaign_schema2_make.py {commit}", "games": games},
                              separators=(",", ":")) + "\n")
    print(f"{len(games)} games → {OUT}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "6cf83ed")
