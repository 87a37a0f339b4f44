"""Issue 17's staff officer and app general, measured: ``python -m tests.bench_advisor``.

* the advisor grid (:func:`engine.ascension.advice`: 6×6 exact outcome odds, the equilibrium
  mix) for two seeded 40-unit armies, cold (a fresh state each time, nothing memoised), on
  CPython and on Pyodide's own Python under Node (``tests/bench_on_pyodide.mjs``): goal ≤ 150 ms;
* Hard's mix: exploitability (the best enemy answer against it minus the game's value) on
  200 seeded random army pairs: goal ≤ 1e-6 (the solver is exact, so it should be 0);
* Hard against Normal and against Easy over 1,000 seeded battles each, with the source
  tables and with one house table set: Hard's mean net casualties per battle (casualties
  landed on the other army minus on its own), with a 95 % interval.

Not a timed test: numbers side by side. Stdlib only at top level (runs under Pyodide).
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from tests.bench_on_pyodide import on_pyodide

ROOT = Path(__file__).resolve().parent.parent

#: The house table set of the battle series: bloodier Shock Attacks, a Block that holds.
HOUSE = {"minor": {"shock": {"shock": "Inflict 2-5 casualties", "block": "Inflict 1-3 casualties"},
                   "block": {"withdraw": "Block Succeeds - inflict 2 casualties"}},
         "major": {"attack": {"defend": "Inflict 1-3 casualties"}, "shock": {"block": "Inflict 2-4 casualties"}}}


def random_unit(rng: random.Random, i: int, line: bool) -> dict[str, Any]:
    traits = ["infantry"] if line else rng.choice([["infantry"], ["scout"], ["long range"], ["observer"],
                                                    ["scout", "long range"], []])
    tough = rng.choice([(0, 0), (1, 0), (2, 0), (0, 1), (0, 2), (0, 3)])
    return {"name": f"U{i}", "attack": rng.randint(0, 5), "defense": rng.randint(0, 5),
            "mobility": rng.randint(0, 5), "traits": traits, "armour": tough[0], "size": tough[1]}


def random_army(rng: random.Random, units: int, name: str) -> dict[str, Any]:
    level = rng.choice([None, 0, 1, 2, 3])
    general = None if level is None else {"name": "G", "level": level,
                                          "traits": ["observer"] if rng.random() < 0.3 else []}
    return {"name": name, "units": [random_unit(rng, i, i == 0) for i in range(units)], "vanguard": 0,
            "general": general}


def setup(rng: random.Random, units: int) -> dict[str, Any]:
    return {"armies": [random_army(rng, units, "North"), random_army(rng, units, "South")]}


def grid_bench(count: int = 10, units: int = 40, seed: int = 17) -> dict[str, Any]:
    from engine import ascension as ai

    rng = random.Random(seed)
    times, dice = [], []
    for _ in range(count):
        state = ai.start(setup(rng, units))
        started = time.perf_counter()
        found = ai.advice(state, 0, "net")
        times.append((time.perf_counter() - started) * 1000)
        dice.append(max(ai.dice_pool(state, s, m).dice for s in (0, 1) for m in ai.MANEUVERS))
        assert len(found.grid) >= 6  # a row per maneuver, more where the mix uses two forms of one
    times.sort()
    return {"median_ms": statistics.median(times), "p95_ms": times[min(len(times) - 1, round(0.95 * (len(times) - 1)))],
            "max_ms": times[-1], "count": count, "largest_pool": max(dice)}


def exploitability_bench(pairs: int = 200, seed: int = 23) -> dict[str, Any]:
    from engine import ascension as ai
    from engine import zerosum

    rng = random.Random(seed)
    worst = 0.0
    for k in range(pairs):
        state = ai.start(setup(rng, rng.randint(1, 8)), {"house_tables": HOUSE} if k % 2 else None)
        found = ai.advice(state, k % 2, "net")
        worst = max(worst, float(zerosum.exploitability(found.matrix, found.mix)))
    return {"pairs": pairs, "max_exploitability": worst}


def battle(ai, armies: dict[str, Any], rules: dict[str, Any] | None, levels: tuple[str, str], seed: int,
           max_weeks: int = 8) -> tuple[int, int]:
    """One battle to its end (or ``max_weeks``): casualties landed on each army."""
    rng = random.Random(seed)
    state = ai.start(armies, rules)
    landed = [0, 0]
    while state.phase != "over" and state.week <= max_weeks:
        actions = [ai.app_bid(state, s, levels[s], seed) for s in (0, 1)]  # both from the same public state
        for action in actions:
            action.pop("why")
            state = ai.step(state, action, rules)
        state = ai.step(state, {"type": "reveal"}, rules)
        for s in (0, 1):
            if ai.can_counter_attack(state, s):
                state = ai.step(state, {"type": "counter_attack", "side": s}, rules)
        state = ai.step(state, {"type": "roll"}, rules, rng)
        week = state.weeks[-1]
        for s in (0, 1):
            landed[s] += sum(n for _, n in week.hits[s])
    return landed[0], landed[1]


def series(opponent: str, rules: dict[str, Any] | None, battles: int = 1000, seed: int = 31) -> dict[str, Any]:
    from engine import ascension as ai

    rng = random.Random(f"{seed}-{opponent}-{bool(rules)}")
    nets = []
    for k in range(battles):
        armies = setup(rng, rng.randint(2, 5))
        hard = k % 2  # Hard plays each side in turn
        levels = ("hard", opponent) if hard == 0 else (opponent, "hard")
        landed = battle(ai, armies, rules, levels, rng.getrandbits(32))
        nets.append(landed[1 - hard] - landed[hard])
    mean = statistics.fmean(nets)
    half = 1.96 * statistics.stdev(nets) / math.sqrt(len(nets))
    return {"battles": battles, "mean_net": mean, "low": mean - half, "high": mean + half}


def node_bench(count: int) -> dict[str, Any]:
    return on_pyodide("tests.bench_advisor", "grid_bench", {"count": count}, timeout=1800)


def main() -> None:
    battles = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    cp = grid_bench()
    py = node_bench(10)
    res = py.get("results", {})
    print("Advisor grid, two 40-unit armies, cold (goal ≤ 150 ms): median / p95 / max ms")
    print(f"  CPython {sys.version.split()[0]:<10} {cp['median_ms']:8.1f} / {cp['p95_ms']:8.1f} / {cp['max_ms']:8.1f}"
          f"   (largest pool {cp['largest_pool']} dice)")
    if res:
        print(f"  Pyodide {py.get('python', '?'):<10} {res['median_ms']:8.1f} / {res['p95_ms']:8.1f} / "
              f"{res['max_ms']:8.1f}   ratio to CPython {res['median_ms'] / cp['median_ms']:.1f}x")
    else:
        print(f"  Pyodide: {py.get('error', '?')}")
    ex = exploitability_bench()
    print(f"Hard's mix, exploitability on {ex['pairs']} random army pairs (goal ≤ 1e-6): max {ex['max_exploitability']:.3g}")
    print(f"Hard's mean net casualties per battle ({battles} seeded battles each, 95 % interval):")
    for name, rules in (("source tables", None), ("house tables", {"house_tables": HOUSE})):
        for opponent in ("normal", "easy"):
            r = series(opponent, rules, battles)
            print(f"  vs {opponent.capitalize():<7} {name:<14} {r['mean_net']:+.3f}  [{r['low']:+.3f}, {r['high']:+.3f}]")


if __name__ == "__main__":
    main()
