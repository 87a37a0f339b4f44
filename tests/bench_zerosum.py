"""Zero-sum solver benchmark (issue 17's advisor and Hard general): ``python -m tests.bench_zerosum``.

:func:`engine.zerosum.solve` finds the equilibrium mix the advisor recommends. This
times it on seeded random games of the advisor's sizes — 6×6 (the six maneuvers) up
to 12×12 and 20×20 (maneuvers with stratagems) — with two kinds of payoffs: small
integers (many ties, degenerate games) and casualty-like Fractions (denominators of
exact dice odds such as 6^k·5), on CPython and on Pyodide's own Python under Node
(``tests/bench_on_pyodide.mjs``), the interpreter the app really runs on. Stdlib only
at top level, so :func:`zerosum_bench` runs under Pyodide too.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from tests.bench_on_pyodide import on_pyodide

ROOT = Path(__file__).resolve().parent.parent
SIDES = (6, 9, 12, 20)


def games(kind: str, side: int, count: int, seed: int) -> list[list[list[Any]]]:
    rng = random.Random(f"{kind}-{side}-{seed}")
    if kind == "ints":
        return [[[rng.randint(-3, 3) for _ in range(side)] for _ in range(side)] for _ in range(count)]
    return [[[Fraction(rng.randint(-6 ** 6, 6 ** 6), 6 ** rng.randint(1, 6) * rng.choice((1, 2, 5)))
              for _ in range(side)] for _ in range(side)] for _ in range(count)]


def zerosum_bench(count: int = 20, sides: tuple[int, ...] = SIDES, seed: int = 17) -> dict[str, Any]:
    """Median, 95th percentile and worst ms of ``solve`` per size and kind of payoff."""
    from engine.zerosum import exploitability, solve

    out: dict[str, Any] = {}
    for kind in ("ints", "fractions"):
        for side in sides:
            times = []
            for game in games(kind, side, count, seed):
                started = time.perf_counter()
                solution = solve(game)
                times.append((time.perf_counter() - started) * 1000)
                assert exploitability(game, solution.row) == 0
            times.sort()
            out[f"{kind} {side}x{side}"] = {
                "median_ms": statistics.median(times),
                "p95_ms": times[min(len(times) - 1, round(0.95 * (len(times) - 1)))],
                "max_ms": times[-1],
            }
    return out


def node_bench(count: int) -> dict[str, Any]:
    return on_pyodide("tests.bench_zerosum", "zerosum_bench", {"count": count}, timeout=900)


def report(cpython: dict[str, Any], pyodide: dict[str, Any]) -> str:
    lines = ["Zero-sum solve (engine.zerosum.solve), ms: median / p95 / max",
             f"{'game':<18}{'CPython ' + sys.version.split()[0]:>26}{'Pyodide ' + str(pyodide.get('python', '?')):>28}"]

    def cell(v: dict[str, float] | None) -> str:
        return f"{v['median_ms']:.2f} / {v['p95_ms']:.2f} / {v['max_ms']:.2f}" if v else "—"

    for key, value in cpython.items():
        other = pyodide.get("results", {}).get(key)
        right = cell(other) if other else pyodide.get("error", "—")[:24]
        lines.append(f"{key:<18}{cell(value):>26}{right:>28}")
    return "\n".join(lines)


def main() -> None:
    count = 20
    print(report(zerosum_bench(count), node_bench(count)))


if __name__ == "__main__":
    main()
