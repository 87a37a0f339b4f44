"""Opening the slowest links and saves: ``python -m tests.bench_replay`` (issue 30, item 3).

A benchmark, not a test: nothing passes or fails here. For each system it builds the
largest legal game the limits allow (tests/maxgames.py: the largest armies, rosters
and sides, and as long a history as ``engine.game.apply`` takes, which is up to
:data:`engine.game.MAX_REPLAY_WORK`), and the hostile ones of issue 30 (the same
tables with a history past the budget, made without ``apply``; an unterminated string
of escaped quotes; a megabyte of brackets). It opens each as a share link
(``codec.decode_share``) and as a save (``codec.loads``), on CPython and on Pyodide's
own Python under Node, and prints the milliseconds (median of ``--repeats``) beside
the goal: **opened in under 1 s, or refused in under 0.1 s**. Written to
``bench-results/replay.json`` too.

The cases are built once on CPython and handed to Pyodide as a file
(``bench-results/replay-cases.json``), so both interpreters open the same texts.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench-results"
CASES = RESULTS / "replay-cases.json"

#: The goal of issue 30, item 3 (seconds).
OPEN_GOAL, REFUSE_GOAL = 1.0, 0.1


def cases() -> list[dict[str, str]]:
    """Every case: name, kind of text ("link"/"save") and the text itself."""
    from dataclasses import replace

    from engine import codec
    from tests import maxgames

    largest = {
        "battle, 2 × 200 units": maxgames.battle(10_000),
        "initiative, 120 combatants": maxgames.initiative(10_000),
        "conflict, 2 × 8 players × 20 organizations": maxgames.conflict(10_000),
        "campaign, two players": maxgames.campaign(10_000),
    }
    out: list[dict[str, str]] = []
    for name, game in largest.items():
        label = f"largest legal {name} ({len(game.actions):,} actions)"
        out.append({"name": label, "kind": "link", "text": codec.encode_share(game)})
        out.append({"name": label, "kind": "save", "text": codec.dumps(game)})
    for name, game in list(largest.items())[:3]:
        longer = (game.actions * (1 + codec.MAX_ACTIONS // max(1, len(game.actions))))[:codec.MAX_ACTIONS]
        hostile = replace(game, actions=longer, position=len(longer), _tip=None)
        label = f"hostile {name}, {len(longer):,} actions"
        out.append({"name": label, "kind": "link", "text": codec.encode_share(hostile)})
        out.append({"name": label, "kind": "save", "text": codec.dumps(hostile)})
    for name, text in maxgames.HOSTILE_JSON.items():
        out.append({"name": f"hostile JSON: {name}", "kind": "link", "text": maxgames.link_of_json(text)})
        out.append({"name": f"hostile JSON: {name}", "kind": "save", "text": text})
    return out


def open_cases(path: str, repeats: int = 3) -> list[dict[str, Any]]:
    """Open every case of the file at ``path``: median seconds and whether it opened."""
    from engine import codec

    rows = []
    for case in json.loads(Path(path).read_text(encoding="utf-8")):
        opener = codec.decode_share if case["kind"] == "link" else codec.loads
        times, opened, why = [], False, ""
        for _ in range(repeats):
            start = time.perf_counter()
            try:
                opener(case["text"])
                opened = True
            except codec.CodecError as err:
                opened, why = False, str(err)
            times.append(time.perf_counter() - start)
        rows.append({"name": case["name"], "kind": case["kind"], "chars": len(case["text"]),
                     "seconds": statistics.median(times), "opened": opened, "why": why[:120]})
    return rows


def _verdict(row: dict[str, Any]) -> str:
    if row["opened"]:
        return "ok" if row["seconds"] < OPEN_GOAL else "SLOW"
    return "ok" if row["seconds"] < REFUSE_GOAL else "SLOW"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-pyodide", action="store_true")
    args = parser.parse_args()
    RESULTS.mkdir(exist_ok=True)
    CASES.write_text(json.dumps(cases()), encoding="utf-8")
    results = {"CPython": open_cases(str(CASES), args.repeats)}
    if not args.no_pyodide:
        from tests.bench_on_pyodide import on_pyodide

        data = on_pyodide("tests.bench_replay", "open_cases",
                          {"path": f"/project/{CASES.relative_to(ROOT)}", "repeats": args.repeats})
        results["Pyodide"] = data.get("results") or []
        if "error" in data:
            print(f"Pyodide: {data['error']}")
    print(f"Opening links and saves (issue 30): opened in < {OPEN_GOAL:g} s or refused in < {REFUSE_GOAL:g} s")
    print(f"{'case':72} {'as':4} {'chars':>9} " + " ".join(f"{name:>24}" for name in results))
    for index, row in enumerate(results["CPython"]):
        cells = []
        for rows in results.values():
            if index < len(rows):
                other = rows[index]
                what = "opened" if other["opened"] else "refused"
                cells.append(f"{other['seconds'] * 1000:7.0f} ms {what:7} {_verdict(other):4}")
            else:
                cells.append(f"{'—':>24}")
        print(f"{row['name'][:72]:72} {row['kind']:4} {row['chars']:9,} " + " ".join(cells))
    (RESULTS / "replay.json").write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
