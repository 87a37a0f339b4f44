"""Solo benchmark (issue 12): ``python -m tests.bench_solo`` (``--quick`` for a small run).

A benchmark, not a test: it measures and prints a report, and writes the same
numbers as JSON to ``bench-results/solo.json``. Nothing passes or fails; the report
marks the targets (Hard ≥ 60 % against Normal, Normal ≥ 75 % against Easy, Hard's
decision time p95 ≤ 300 ms on Pyodide) as met or missed.

1. Strength: 1,000 simulated conflicts per pairing (Hard vs Normal, Normal vs Easy):
   500 on the Purple Dragon League (OIC-7) and 500 on random balanced set-ups (both
   sides get the same powers in shuffled suits; random scope, players per side and
   rules variants), seeded; the stronger policy plays side 0 in even-numbered
   conflicts and side 1 in odd ones (sides swapped half the time). A
   conflict still running after :data:`MAX_ROUNDS` rounds (the rules let a side that
   is behind avoid ever losing a point, so some never end) is adjudicated to the side
   with more life — points above the engagement threshold (OIC-4, OIC-17) — and half
   each when even. The win rate comes with a 95 % Wilson interval, and the rate over
   decided conflicts only is reported beside it, and the share of conflicts that ran
   to the round cap (the table would have had to call them, OIC-19).
3. Round cap (``--only cap``): that share for every pairing of levels
   (:data:`CAP_PAIRINGS`), on the same set-ups.
2. Decision time: every decision of a few simulated conflicts is timed, per level,
   on CPython and on Pyodide's Python under Node (``node_modules/pyodide``):
   median and 95th percentile of the wall-clock time (what a player waits; inflated
   when the machine is shared) and of the process CPU time beside it. The target is
   on the wall-clock p95.

This module imports only the standard library and the engine at top level, so the
measuring part runs under Pyodide too.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench-results"
MAX_ROUNDS = 150
PAIRINGS = (("hard", "normal"), ("normal", "easy"))
#: Every pairing of the app's levels, for how often a conflict runs to the round cap (OIC-19).
CAP_PAIRINGS = (("easy", "easy"), ("normal", "easy"), ("normal", "normal"), ("hard", "easy"),
                ("hard", "normal"), ("hard", "hard"))
TARGETS = {("hard", "normal"): 0.60, ("normal", "easy"): 0.75}
HARD_P95_MS = 300.0
SEED = 20261130


# ---------------------------------------------------------------------------
# Set-ups


def balanced_setup(rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]]:
    """A random balanced conflict: both sides get the same powers, in shuffled suits."""
    from engine import conflict

    scope = rng.choice(["home", "home", "regional", "war"])
    threshold = conflict.Scope(scope).engage_threshold
    powers = [threshold + rng.randint(2, 10) for _ in range(4)]
    sides = []
    for s in range(2):
        suits = ["S", "H", "D", "C"]
        rng.shuffle(suits)
        mine = list(powers)
        rng.shuffle(mine)
        count = rng.choice([1, 1, 1, 2, 3])
        players = [{"name": f"P{s}{p}", "organizations": []} for p in range(count)]
        for i, (suit, power) in enumerate(zip(suits, mine)):
            players[i % count]["organizations"].append(
                {"name": f"O{s}{i}", "power": power, "suit": suit, "location": ""})
        sides.append({"name": f"Side {s}", "scope": scope, "players": players})
    rules = {"trump_circle": rng.choice(["cards", "introduction"]),
             "face_on_face": rng.choice(["any", "higher"]),
             "deck": rng.choice(["per-side", "shared"])}
    return {"sides": sides, "scope": scope, "aggressor": rng.randint(0, 1), "deck": "app"}, rules


def dragon_setup(rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]]:
    from engine import conflict

    return conflict.purple_dragon_setup(), {}


# ---------------------------------------------------------------------------
# One conflict


def life(state: Any, side: int) -> int:
    """A side's points above the engagement threshold over all suits (OIC-17: 0 = beaten)."""
    from engine import conflict

    threshold = state.scope.engage_threshold
    return sum(max(0, rating - threshold) for rating in conflict.side_ratings(state, side).values())


def play_conflict(setup: dict[str, Any], rules: dict[str, Any], levels: tuple[str, str], seed: int,
                  timings: dict[str, list[float]] | None = None,
                  max_rounds: int = MAX_ROUNDS) -> tuple[int | None, int, bool]:
    """Play a whole conflict, side s played by the app at ``levels[s]``.

    Returns (winner, rounds played, decided). A conflict still running after
    ``max_rounds`` rounds is called (OIC-19, ``decided`` False): the side ahead —
    more points above the engagement threshold — is the winner, ``None`` for a
    standoff. With ``timings``, every decision's time in ms is appended under its level.
    """
    from engine import conflict, solo

    setup = {**setup, "sides": [{**side, "controller": "app", "level": level}
                                for side, level in zip(setup["sides"], levels)]}
    rng = random.Random(seed)
    state = conflict.start(setup, rules, rng)
    clock, cpu = time.perf_counter, _cpu_clock()
    while state.phase != "conflict-over":
        if state.phase == "round-over":
            if state.round >= max_rounds:
                state = conflict.step(state, {"type": "call"}, rules, rng)  # OIC-19: the table calls it
                assert state.winner == conflict.side_ahead(state) and state.final == (life(state, 0), life(state, 1))
                return state.winner, len(state.results), False
            state = conflict.step(state, {"type": "next_round"}, rules, rng)
            continue
        side, _ = solo.to_act(state)
        t0, c0 = clock(), cpu()
        decision = solo.decide(state, side, levels[side])
        if timings is not None:
            timings.setdefault(levels[side], []).append(((clock() - t0) * 1000, (cpu() - c0) * 1000))
        state = conflict.step(state, decision.action, rules, rng)
    return state.winner, state.round, True


def _cpu_clock() -> Callable[[], float]:
    """Seconds of CPU used by this process: Node's ``process.cpuUsage()`` under Pyodide
    (where ``time.process_time`` is wall-clock), else ``time.process_time``."""
    if sys.platform == "emscripten":
        try:
            from js import process  # type: ignore[import-not-found]

            def clock() -> float:
                usage = process.cpuUsage()
                return (usage.user + usage.system) / 1e6

            clock()
            return clock
        except Exception:  # not under Node
            pass
    return time.process_time


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def strength(strong: str, weak: str, setups: str, conflicts: int, seed: int = SEED,
             progress: Callable[[str], None] | None = None, max_rounds: int = MAX_ROUNDS) -> dict[str, Any]:
    """Win rate of ``strong`` against ``weak`` over ``conflicts`` simulated conflicts.

    A conflict won outright counts 1; one adjudicated at the round cap counts 1 for
    the side ahead and ½ each when even. Also reported: the rate over decided
    conflicts only.
    """
    make = dragon_setup if setups == "dragon" else balanced_setup
    score = 0.0
    counts = {"won": 0, "lost": 0, "ahead": 0, "behind": 0, "even": 0}
    rounds = []
    started = time.perf_counter()
    for i in range(conflicts):
        rng = random.Random(seed * 7919 + i)
        setup, rules = make(rng)
        swap = i % 2 == 1
        levels = (weak, strong) if swap else (strong, weak)
        me = 1 if swap else 0
        winner, played, decided = play_conflict(setup, rules, levels, seed * 104729 + i, max_rounds=max_rounds)
        rounds.append(played)
        if winner is None:
            score += 0.5
            counts["even"] += 1
        elif winner == me:
            score += 1
            counts["won" if decided else "ahead"] += 1
        else:
            counts["lost" if decided else "behind"] += 1
        if progress and (i + 1) % 25 == 0:
            progress(f"  {strong} vs {weak} ({setups}): {i + 1}/{conflicts}, {score / (i + 1):.1%} {counts}")
    low, high = wilson(score, conflicts)
    decided = counts["won"] + counts["lost"]
    at_cap = counts["ahead"] + counts["behind"] + counts["even"]
    return {"strong": strong, "weak": weak, "setups": setups, "conflicts": conflicts,
            "win_rate": score / conflicts, "ci95": [low, high], **counts,
            "at_cap": at_cap, "at_cap_share": at_cap / conflicts, "at_cap_ci95": list(wilson(at_cap, conflicts)),
            "decided_win_rate": counts["won"] / decided if decided else None,
            "decided_ci95": list(wilson(counts["won"], decided)) if decided else None,
            "rounds_median": statistics.median(rounds), "seconds": time.perf_counter() - started}


# ---------------------------------------------------------------------------
# Decision time


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def decision_times(conflicts: int = 6, seed: int = SEED, max_rounds: int = 12) -> dict[str, Any]:
    """Median and p95 decision time per level over the decisions of a few conflicts.

    Each level plays against Normal on the Purple Dragon League and on balanced set-ups
    (at most ``max_rounds`` rounds each, to keep the run short on Pyodide).
    """
    from engine import solo

    timings: dict[str, list[float]] = {}
    for i in range(conflicts):
        rng = random.Random(seed + i)
        setup, rules = (dragon_setup if i % 2 == 0 else balanced_setup)(rng)
        for level in solo.LEVELS:
            levels = (level, "normal") if i % 2 == 0 else ("normal", level)
            mine: dict[str, list[float]] = {}
            play_conflict(setup, rules, levels, seed + 31 * i, mine, max_rounds=max_rounds)
            # Only the decisions of the level measured (Normal's own are in its run).
            timings.setdefault(level, []).extend(mine.get(level, []))
    out = {}
    for level, pairs in timings.items():
        wall = [w for w, _ in pairs]
        cpu = [c for _, c in pairs]
        out[level] = {"n": len(wall), "median_ms": statistics.median(wall), "p95_ms": percentile(wall, 0.95),
                      "max_ms": max(wall), "cpu_median_ms": statistics.median(cpu),
                      "cpu_p95_ms": percentile(cpu, 0.95), "cpu_max_ms": max(cpu)}
    return out


def node_decision_times(conflicts: int) -> dict[str, Any]:
    """:func:`decision_times` on Pyodide's Python under Node; {"error": …} when not possible."""
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "pyodide").is_dir():
        return {"error": "node or node_modules/pyodide missing (run `npm ci`)"}
    script = """
import { loadPyodide } from "pyodide";
const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/project");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: process.cwd() }, "/project");
pyodide.globals.set("OPTIONS", process.argv[1]);
const out = await pyodide.runPythonAsync(`
import json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, "/project")
from tests.bench_solo import decision_times
data = {"times": decision_times(**json.loads(OPTIONS)), "python": sys.version.split()[0]}
json.dumps(data)
`);
console.log("BENCH-JSON " + out);
"""
    try:
        proc = subprocess.run([node, "--input-type=module", "-e", script, json.dumps({"conflicts": conflicts})],
                              cwd=ROOT, capture_output=True, text=True, timeout=3600)
    except subprocess.TimeoutExpired:
        return {"error": "timed out"}
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH-JSON "):
            return json.loads(line[len("BENCH-JSON "):])
    return {"error": (proc.stderr or proc.stdout)[-2000:]}


# ---------------------------------------------------------------------------
# Report


def _times_table(times: dict[str, Any]) -> list[str]:
    lines = []
    for level in ("easy", "normal", "hard"):
        t = times.get(level)
        if t:
            lines.append(f"  {level:<7} n={t['n']:<5} wall: median {t['median_ms']:7.2f} ms  "
                         f"p95 {t['p95_ms']:7.2f} ms  max {t['max_ms']:7.2f} ms | CPU: median "
                         f"{t['cpu_median_ms']:7.2f} ms  p95 {t['cpu_p95_ms']:7.2f} ms  max {t['cpu_max_ms']:7.2f} ms")
    return lines


def main(argv: list[str] | None = None) -> int:
    from engine import solo

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="100 conflicts per pairing (50 per set-up kind), fewer timings")
    parser.add_argument("--conflicts", type=int, default=None,
                        help="conflicts per pairing and set-up kind (default 500: 1,000 per pairing)")
    parser.add_argument("--cap-pairings", default=None,
                        help="with --only cap: these pairings only, e.g. easy-easy,hard-normal")
    parser.add_argument("--no-node", action="store_true", help="skip the Pyodide timings")
    parser.add_argument("--only", choices=["strength", "time", "cap"], default=None)
    parser.add_argument("--pairing", choices=["hard-normal", "normal-easy"], default=None,
                        help="only this pairing (to run the two in parallel)")
    parser.add_argument("--setups", choices=["dragon", "balanced"], default=None, help="only these set-ups")
    parser.add_argument("--max-rounds", type=int, default=MAX_ROUNDS)
    args = parser.parse_args(argv)
    conflicts = args.conflicts or (50 if args.quick else 500)
    timing_conflicts = 2 if args.quick else 6
    say = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    report: dict[str, Any] = {"hard_samples": solo.HARD_SAMPLES, "max_rounds": args.max_rounds, "seed": SEED}
    lines = [f"Solo benchmark — Hard samples {solo.HARD_SAMPLES}, seed {SEED}"]
    if args.only in (None, "strength"):
        rows = []
        for strong, weak in PAIRINGS:
            if args.pairing and args.pairing != f"{strong}-{weak}":
                continue
            for setups in ("dragon", "balanced"):
                if args.setups and args.setups != setups:
                    continue
                row = strength(strong, weak, setups, conflicts, progress=say, max_rounds=args.max_rounds)
                rows.append(row)
                target = TARGETS[(strong, weak)]
                low, high = row["ci95"]
                mark = "met" if row["win_rate"] >= target else "MISSED"
                dec = row["decided_win_rate"]
                dec_text = (f"decided only {dec:.1%} [{row['decided_ci95'][0]:.1%}, {row['decided_ci95'][1]:.1%}]"
                            if dec is not None else "none decided")
                lines.append(
                    f"  {strong:>6} vs {weak:<6} {setups:<9} n={row['conflicts']:<5} "
                    f"win {row['win_rate']:6.1%}  95% CI [{low:6.1%}, {high:6.1%}]  target {target:.0%}: {mark}\n"
                    f"        won {row['won']}, lost {row['lost']}, at the cap ahead {row['ahead']} / behind "
                    f"{row['behind']} / even {row['even']} ({row['at_cap_share']:.0%} at the cap); {dec_text}; "
                    f"median {row['rounds_median']} rounds, {row['seconds']:.0f} s")
        report["strength"] = rows
    if args.only == "cap":
        rows = []
        lines.append(f"Conflicts that ran to the round cap ({args.max_rounds} rounds; OIC-19 calls them)")
        total = capped = 0
        chosen = [tuple(p.split("-")) for p in args.cap_pairings.split(",")] if args.cap_pairings else CAP_PAIRINGS
        for strong, weak in chosen:
            for setups in ("dragon", "balanced"):
                if args.setups and args.setups != setups:
                    continue
                row = strength(strong, weak, setups, conflicts, progress=say, max_rounds=args.max_rounds)
                rows.append(row)
                total, capped = total + row["conflicts"], capped + row["at_cap"]
                low, high = row["at_cap_ci95"]
                lines.append(f"  {strong:>6} vs {weak:<6} {setups:<9} n={row['conflicts']:<5} at the cap "
                             f"{row['at_cap_share']:6.1%}  95% CI [{low:6.1%}, {high:6.1%}]  median "
                             f"{row['rounds_median']} rounds")
        low, high = wilson(capped, total)
        lines.append(f"  all pairings: {capped} of {total} = {capped / total:.1%}  95% CI [{low:.1%}, {high:.1%}]")
        report["round_cap"] = rows
    if args.only in (None, "time"):
        cpy = decision_times(timing_conflicts)
        report["time_cpython"] = cpy
        lines.append("Decision time, CPython " + sys.version.split()[0])
        lines += _times_table(cpy)
        if not args.no_node:
            node = node_decision_times(timing_conflicts)
            report["time_pyodide"] = node
            if "error" in node:
                lines.append(f"Decision time, Pyodide: not measured ({node['error'][:300]})")
            else:
                lines.append(f"Decision time, Pyodide (Python {node['python']}) under Node")
                lines += _times_table(node["times"])
                hard = node["times"].get("hard", {})
                if hard:
                    mark = "met" if hard["p95_ms"] <= HARD_P95_MS else "MISSED"
                    lines.append(f"  Hard p95 {hard['p95_ms']:.0f} ms (target ≤ {HARD_P95_MS:.0f} ms: {mark})")
    print("\n".join(lines))
    RESULTS.mkdir(exist_ok=True)
    name = "solo" + ("-quick" if args.quick else "") + "".join(f"-{x}" for x in (args.only, args.pairing, args.setups) if x)
    (RESULTS / f"{name}.json").write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
