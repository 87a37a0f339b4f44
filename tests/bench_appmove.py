"""The app's moves, measured (issues 33 and 35): ``python -m tests.bench_appmove``.

1. **Compute once** (issue 33), side by side with the engine of a base commit (``--base``,
   default 1fdbe89, unpacked with ``git archive`` into a temporary folder and run in a
   subprocess): a battle against the Hard app's general (12 weeks) and a conflict against the
   Hard app (80 moves) played as the board plays them (each decision asked of a fresh replay),
   then every position where the app decided visited again as Undo, Redo and History do
   (``goto``), then the game reloaded from its save text and the app asked at its newest
   position. Before, each new state object thought again; now what was worked out is found by
   the battle's content and the conflict's observation.
2. **Checking the app's moves of a link** (issue 35, HR-AI-14, HR-OIC-4: ``decode_share``
   derives them again), cold (every memo emptied): genuine links of games against the app, the
   worst real cases (the longest games the app lets grow under ``MAX_APP_MOVE_WORK``: a battle of
   armies of stats up to 6 and one of stats 99, a conflict of two Hard sides), each with the
   budget's estimate beside the time, and a hostile link past the budget (refused before any
   move is checked). On CPython and on Pyodide's Python under Node.

Times are CPU seconds of the process (the benchmark machine is shared). Not a timed test:
numbers side by side. Stdlib only at top level (runs under Pyodide).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BASE = "1fdbe89"


_CPU: Any = None


def _clock() -> float:
    """Seconds of CPU of this process (the machine is shared): ``time.process_time``, Node's
    ``process.cpuUsage()`` under Pyodide (tests/bench_solo.py's clock)."""
    global _CPU
    if _CPU is None:
        from tests.bench_solo import _cpu_clock

        _CPU = _cpu_clock()
    return _CPU()


# ---------------------------------------------------------------------------
# 1. Compute once: the same script on the base engine and on this one


def _battle_setup(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)

    def unit(i: int) -> dict[str, Any]:
        return {"name": f"U{i}", "attack": rng.randint(2, 6), "defense": rng.randint(2, 6),
                "mobility": rng.randint(1, 5), "traits": ["infantry"] if i < 3 else ["long range", "observer"],
                "armour": 0, "size": 6}
    return {"armies": [{"name": "North", "units": [unit(i) for i in range(6)], "vanguard": 0,
                        "general": {"name": "G", "level": 2, "traits": []}, "controller": "app", "level": "hard"},
                       {"name": "South", "units": [unit(i) for i in range(6)], "vanguard": 0,
                        "general": {"name": "H", "level": 2, "traits": []}}]}


def session_script(weeks: int = 12, moves: int = 80) -> dict[str, float]:
    """Milliseconds spent in the app's decisions: played, revisited (undo/redo/history), reloaded."""
    from engine import ascension as ai
    from engine import codec
    from engine.conflict import opponent
    from engine.game import apply, goto, new_game, replay

    out: dict[str, float] = {}
    rng = random.Random(7)
    game = new_game("battle", _battle_setup(7), None, 11)
    spent, asked = 0.0, []
    for _ in range(weeks):
        if replay(game).phase == "over":
            break
        state = replay(game)
        t = _clock()
        bid = ai.app_bid(state, 0, "hard", game.seed)
        spent += _clock() - t
        asked.append(len(game.actions))
        game = apply(game, bid)
        game = apply(game, {"type": "bid", "side": 1, "maneuver": rng.choice(ai.MANEUVERS)})
        game = apply(game, {"type": "reveal"})
        game = apply(game, {"type": "roll"})
    out["battle played"] = spent * 1000
    spent = 0.0
    for position in asked:  # Undo, Redo, History: each position the app decided at, shown again
        state = replay(goto(game, position))
        t = _clock()
        ai.app_bid(state, 0, "hard", game.seed)
        spent += _clock() - t
    out["battle revisited"] = spent * 1000
    text = codec.dumps(goto(game, asked[-1]))
    again = codec.loads(text)[0]  # a reload: the save read again, the app asked at its newest position
    state = replay(again)
    t = _clock()
    ai.app_bid(state, 0, "hard", again.seed)
    out["battle reloaded"] = (_clock() - t) * 1000
    out["battle weeks"] = len(asked)

    from tests.engine.app_policy_cases import conflict_against_the_app

    timed = [0.0]
    asked = []

    def timed_decide(state: Any, side: int, level: str) -> dict[str, Any]:
        t = _clock()
        action = opponent.decide(state, side, level).action
        timed[0] += _clock() - t
        asked.append(state)
        return action

    game = conflict_against_the_app("hard", moves=moves, seed=9, decide=timed_decide)
    spent = timed[0]
    positions = [i for i, a in enumerate(game.actions) if "why" in a]
    out["conflict played"] = spent * 1000
    spent = 0.0
    for position in positions:
        state = replay(goto(game, position))
        t = _clock()
        opponent.decide(state, 1, "hard")
        spent += _clock() - t
    out["conflict revisited"] = spent * 1000
    out["conflict app moves"] = len(asked)
    return out


def _run_script(root: Path, function: str, options: dict[str, Any]) -> dict[str, Any]:
    code = (f"import json, sys; sys.path.insert(0, {str(root)!r}); sys.path.insert(1, {str(ROOT)!r});\n"
            f"from tests.bench_appmove import {function}; print('BENCH-JSON ' + json.dumps({function}(**{options!r})))")
    env = {**os.environ, "PYTHONPATH": str(root)}
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True,
                          timeout=1800)
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH-JSON "):
            return json.loads(line[len("BENCH-JSON "):])
    return {"error": (proc.stderr or proc.stdout)[-800:]}


def base_engine(commit: str, into: Path) -> Path:
    """The engine of ``commit`` (its ``engine/`` folder), unpacked into ``into``."""
    archive = subprocess.run(["git", "archive", commit, "engine"], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


# ---------------------------------------------------------------------------
# 2. Checking the app's moves of a link


def _forget() -> None:
    from engine.ascension import odds
    from engine.conflict import opponent

    odds._cache.clear()
    odds._by_content.clear()
    odds._decided_memo.clear()
    opponent._REMEMBERED.clear()


def _longest_battle(stat_top: int, units: int, both: bool, weeks: int = 400) -> Any:
    """A battle of the app's Hard general (both armies with ``both``) against seeded people, played
    until the battle ends or the app may not bid any more (TooLong: its link's budget)."""
    from engine import ascension as ai
    from engine.game import TooLong, apply, new_game, replay

    rng = random.Random(stat_top * 100 + units)

    def unit(i: int) -> dict[str, Any]:
        return {"name": f"U{i}", "attack": rng.randint(1, stat_top), "defense": rng.randint(1, stat_top),
                "mobility": rng.randint(1, stat_top), "traits": ["infantry"] if i < 2 else ["long range", "observer"],
                "armour": 0, "size": 4}
    armies = [{"name": name, "units": [unit(i) for i in range(units)], "vanguard": 0,
               "general": {"name": "G", "level": 2, "traits": []}} for name in ("North", "South")]
    armies[0].update(controller="app", level="hard")
    if both:
        armies[1].update(controller="app", level="hard")
    game = new_game("battle", {"armies": armies}, None, 17)
    try:
        for _ in range(weeks):
            if replay(game).phase == "over":
                break
            for s in (0, 1):
                state = replay(game)
                if state.armies[s].level:
                    game = apply(game, ai.app_bid(state, s, "hard", game.seed))
                else:
                    game = apply(game, {"type": "bid", "side": s, "maneuver": rng.choice(["attack", "defend", "block"])})
            game = apply(game, {"type": "reveal"})
            game = apply(game, {"type": "roll"})
    except TooLong:
        pass
    return game


def _longest_conflict(moves: int = 4000) -> Any:
    from engine import conflict as oic
    from engine.conflict import opponent
    from engine.game import TooLong, apply, new_game, replay
    from tests.bench_solo import balanced_setup

    setup, rules = balanced_setup(random.Random(21))
    sides = [{**side, "controller": "app", "level": "hard"} for side in setup["sides"]]
    game = new_game("conflict", {**setup, "sides": sides}, rules, 23)
    try:
        for _ in range(moves):
            state = replay(game)
            if state.phase == "conflict-over":
                break
            if state.phase == "round-over":
                game = apply(game, {"type": "next_round"} if state.round < 150 else {"type": "call"})
                continue
            side, _ = opponent.to_act(state)
            game = apply(game, opponent.decide(state, side, "hard").action)
    except TooLong:
        pass
    assert oic.KIND == game.kind
    return game


def _opening(game: Any) -> dict[str, Any]:
    from engine import codec
    from engine.game import app_move_work

    link = codec.encode_share(game)
    _forget()
    t = _clock()
    opened = codec.decode_share(link)
    seconds = _clock() - t
    assert opened == game
    return {"actions": len(game.actions), "estimate": app_move_work(game), "seconds": seconds,
            "link_chars": len(link)}


def check_bench(quick: bool = False) -> dict[str, Any]:
    from dataclasses import replace

    from engine import codec
    from engine.game import MAX_APP_MOVE_WORK, new_game, validate

    out: dict[str, Any] = {"budget": MAX_APP_MOVE_WORK}
    out["battle, 12 weeks, Hard"] = _opening(_longest_battle(6, 6, False, weeks=12))
    out["battle, Hard both, stats up to 6, as long as the app lets it grow"] = _opening(
        _longest_battle(6, 10, True, weeks=40 if quick else 400))
    if not quick:
        out["battle, Hard, stats up to 99, as long as the app lets it grow"] = _opening(_longest_battle(99, 20, False))
        out["conflict, Hard both sides, as long as the app lets it grow"] = _opening(_longest_conflict())
    # A hostile link: the strongest armies and weeks of bids claimed as the app's, past the budget.
    unit = {"name": "U", "attack": 99, "defense": 99, "mobility": 99, "traits": ["infantry"], "armour": 99, "size": 0}
    armies = [{"name": n, "units": [dict(unit, name=f"U{i}") for i in range(200)], "vanguard": 0, "general": None}
              for n in ("North", "South")]
    armies[0].update(controller="app", level="hard")
    week = [{"type": "bid", "side": 0, "maneuver": "block", "why": "Hard"}, {"type": "bid", "side": 1,
            "maneuver": "block"}, {"type": "reveal"}, {"type": "roll"}]
    game = new_game("battle", {"armies": armies}, None, 3)
    actions = tuple(week * 20)
    hostile = validate(replace(game, actions=actions, position=len(actions)))
    link = codec.encode_share(hostile)
    t = _clock()
    try:
        codec.decode_share(link)
        refused = "opened"
    except codec.ShareError as err:
        refused = err.reason
    out["hostile link past the budget"] = {"seconds": _clock() - t, "refused": refused}
    return out


def main() -> None:
    from tests.bench_on_pyodide import on_pyodide

    quick = "--quick" in sys.argv
    base = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--base=")), BASE)
    with tempfile.TemporaryDirectory() as tmp:
        before = _run_script(base_engine(base, Path(tmp)), "session_script", {})
    now = _run_script(ROOT, "session_script", {})
    print(f"Compute once (issue 33): ms in the app's decisions, base {base} / now / ratio")
    for key in ("battle played", "battle revisited", "battle reloaded", "conflict played", "conflict revisited"):
        b, n = before.get(key), now.get(key)
        if b is None or n is None:
            print(f"  {key:<20} {before.get('error', '') or now.get('error', '')}")
            continue
        print(f"  {key:<20} {b:9.1f} / {n:9.1f} / {b / max(n, 1e-6):7.1f}x")
    print(f"  ({now.get('battle weeks')} weeks against the Hard general, {now.get('conflict app moves')} moves "
          "of the Hard app)")
    results = {"CPython " + sys.version.split()[0]: check_bench(quick)}
    py = on_pyodide("tests.bench_appmove", "check_bench", {"quick": quick}, timeout=3600)
    results[f"Pyodide {py.get('python', '?')}"] = py.get("results") or {"error": py.get("error", "?")}
    for where, rows in results.items():
        print(f"Opening a link, the app's moves checked (HR-AI-14, HR-OIC-4), cold — {where}:")
        if "error" in rows:
            print(f"  {rows['error']}")
            continue
        for key, row in rows.items():
            if key == "budget":
                print(f"  budget MAX_APP_MOVE_WORK {row:,}")
            elif "estimate" in row:
                print(f"  {key}: {row['actions']} actions, link {row['link_chars']:,} chars, estimate "
                      f"{row['estimate']:,}, opened in {row['seconds']:.2f} s")
            else:
                print(f"  {key}: {row['refused']} in {row['seconds'] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
