"""Exact-odds benchmark of the Ascension Isle board: ``python -m tests.bench_ascension``.

:func:`engine.ascension.tier_odds` is the convolution behind the odds shown before
every roll (AI-6, AI-8). This times it for pools up to 40 dice a side on CPython and
on Pyodide's own Python under Node (``tests/bench_on_pyodide.mjs``), the interpreter
the app really runs on. Stdlib only at top level, so :func:`odds_bench` runs under
Pyodide too.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

from tests.bench_on_pyodide import on_pyodide

ROOT = Path(__file__).resolve().parent.parent
POOLS = (5, 10, 20, 30, 40)
SETTINGS = ((6, 4), (10, 7))


def odds_bench(repeats: int = 7, pools: tuple[int, ...] = POOLS) -> dict[str, Any]:
    """Median and best ms of ``tier_odds(n, n, die, target, skilled=(True, True))`` per pool and setting."""
    from engine.ascension import tier_odds

    out: dict[str, Any] = {}
    for die, target in SETTINGS:
        for n in pools:
            times = []
            for _ in range(repeats):
                started = time.perf_counter()
                tier_odds(n, n, die, target, skilled=(True, True))
                times.append((time.perf_counter() - started) * 1000)
            out[f"d{die}/{target}+ {n}v{n}"] = {"median_ms": statistics.median(times), "best_ms": min(times)}
    return out


def node_odds_bench(repeats: int) -> dict[str, Any]:
    return on_pyodide("tests.bench_ascension", "odds_bench", {"repeats": repeats}, timeout=600)


def report(cpython: dict[str, Any], pyodide: dict[str, Any]) -> str:
    lines = ["Ascension Isle exact odds (tier_odds, both sides skilled), median ms (best)",
             f"{'pools':<18}{'CPython ' + sys.version.split()[0]:>22}{'Pyodide ' + str(pyodide.get('python', '?')):>24}"]
    for key, value in cpython.items():
        other = pyodide.get("results", {}).get(key)
        right = f"{other['median_ms']:.2f} ({other['best_ms']:.2f})" if other else pyodide.get("error", "—")[:20]
        lines.append(f"{key:<18}{value['median_ms']:>14.2f} ({value['best_ms']:.2f}){right:>24}")
    return "\n".join(lines)


def main() -> None:
    repeats = 7
    cpython = odds_bench(repeats)
    pyodide = node_odds_bench(repeats)
    print(report(cpython, pyodide))


if __name__ == "__main__":
    main()
