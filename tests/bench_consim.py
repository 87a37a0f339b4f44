"""Initiative tracker benchmark: ``python -m tests.bench_consim`` (issue 8).

A benchmark, not a test: it measures a 40-combatant roster and prints a report, on
CPython and on Pyodide's own Python under Node (the interpreter the app runs on;
no browser). Nothing passes or fails. The numbers (milliseconds, median of
``--repeats`` runs) are:

* ``deal`` — one Deal tap: :func:`engine.game.apply` of a ``deal`` at the tip of a
  game three rounds in (40 combatants, one advantage each: 80 cards owed, so the
  deck runs out, CS-6);
* ``tap`` — one Next tap: ``apply`` of ``next`` at the tip of a dealt round;
* ``shot`` — one area burst on 4 targets at the tip (dice rolled, wounds applied);
* ``render`` — the tracker view's tree for the dealt round (``ConsimView.render``,
  the Python half of redrawing after a tap; the DOM patch is the browser's half and
  is not measured here);
* ``undo`` — undo one step: a full replay of the game (what undo, redo and opening
  a save cost);
* ``spectator link`` — :func:`engine.consim.public_game` plus ``encode_share``
  (and the link's length in characters).

The view needs the browser's ``js`` module only for its services; the benchmark
gives it a small stand-in (:func:`_browserless`) so the same code runs on CPython
and under Node. Results are also written to ``bench-results/consim.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench-results"
COMBATANTS = 40

NODE_RUNNER = """
import { loadPyodide } from "pyodide";
const options = process.argv[1] || "{}";
const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/project");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: process.cwd() }, "/project");
pyodide.globals.set("BENCH_OPTIONS", options);
const result = await pyodide.runPythonAsync(`
import json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, "/project")
from tests.bench_consim import consim_bench
data = consim_bench(**json.loads(BENCH_OPTIONS))
data["python"] = "Pyodide " + sys.version.split()[0]
json.dumps(data)
`);
console.log("BENCH-JSON " + result);
"""


def roster(count: int = COMBATANTS) -> dict[str, Any]:
    """Two sides of ``count`` combatants: mixed training and weapons, a few player characters."""
    weapons = [["automatic"], ["semi-automatic"], [], ["explosive"], ["automatic", "ground-vehicle"]]
    training = ["untrained", "trained", "elite"]
    combatants = [{"name": f"Fighter {i + 1}", "side": i % 2, "grain": "individual",
                   "training": training[i % 3], "weapon": weapons[i % 5], "player": i % 8 == 0}
                  for i in range(count)]
    return {"sides": ["Blue", "Red"], "combatants": combatants, "privacy": True}


def _median_ms(fn: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _browserless() -> None:
    """Stand-ins for the browser modules ``web.platform`` imports (views only build trees here)."""
    if "js" in sys.modules and hasattr(sys.modules["js"], "document"):
        return
    js = types.ModuleType("js")
    for name in ("URL", "Blob", "Math", "Object", "document", "navigator", "window", "Event", "performance"):
        setattr(js, name, types.SimpleNamespace())
    js.Date = types.SimpleNamespace(now=lambda: time.time() * 1000)
    ffi = types.ModuleType("pyodide.ffi")
    ffi.jsnull, ffi.to_js = None, (lambda value, **_: value)
    ffi.create_proxy = ffi.create_once_callable = (lambda f: f)
    pyodide = sys.modules.get("pyodide") or types.ModuleType("pyodide")
    pyodide.ffi = ffi
    sys.modules.update({"js": js, "pyodide": pyodide, "pyodide.ffi": ffi})


class _App:
    """Just enough of ``web.app.App`` for a view to render."""

    def __init__(self) -> None:
        from web.store import MemoryStorage, Store

        self.store = Store(MemoryStorage(), now=lambda: 0, tab_id="bench")
        self.toasts: list[str] = []

    def toast(self, text: str, *args: Any, **kwargs: Any) -> None:
        self.toasts.append(text)

    def render(self) -> None:
        pass


def consim_bench(combatants: int = COMBATANTS, repeats: int = 9) -> dict[str, Any]:
    """Median milliseconds of a deal, a tap, a shot, a render, an undo and a spectator link."""
    from engine import codec
    from engine import consim as cs
    from engine import game as games

    g = games.new_game(cs.KIND, roster(combatants), seed=1)
    advantages = {str(i): ["firepower"] for i in range(combatants)}
    deal = {"type": "deal", "advantages": advantages}
    for _ in range(3):  # three rounds of fire: a game with a history, wounds and suppression
        g = games.apply(g, deal)
        for _ in range(12):
            state = games.replay(g)
            cur = cs.current_turn(state)
            if cur is None:
                break
            shooter = state.turns[cur].combatant
            side = state.combatants[shooter].side
            targets = [i for i, c in enumerate(state.combatants)
                       if c.side != side and state.statuses[i].condition is not cs.Condition.DEAD][:1]
            if targets:  # CS-5: the shot is the card's action, the turn moves on
                g = games.apply(g, {"type": "shoot", "shooter": shooter, "targets": targets})
            else:
                g = games.apply(g, {"type": "next"})
        g = games.apply(g, {"type": "end_round"})
    ready = g
    dealt = games.apply(ready, deal)
    state = games.replay(dealt)
    shooter = cs.acting(state)  # CS-5: only the current actor shoots
    area = [i for i, c in enumerate(state.combatants)
            if c.side != state.combatants[shooter].side
            and state.statuses[i].condition is not cs.Condition.DEAD][:4]
    burst = {"type": "shoot", "shooter": shooter, "targets": area, "mode": "suppressive"}
    if state.combatants[shooter].has(cs.Trait.SEMI_AUTOMATIC):
        burst["semi"] = "damage"
    elif not state.combatants[shooter].has(cs.Trait.AUTOMATIC):
        burst["targets"] = area[:1]

    _browserless()
    from web.views.consim import ConsimView

    view = ConsimView(_App())
    view.session.game = dealt

    link = ""

    def spectator() -> None:
        nonlocal link
        link = codec.encode_share(cs.public_game(dealt))

    results = {
        "combatants": combatants,
        "actions": len(dealt.actions),
        "cards_in_round": len(state.turns),
        "deal_ms": _median_ms(lambda: games.apply(ready, deal), repeats),
        "tap_ms": _median_ms(lambda: games.apply(dealt, {"type": "next"}), repeats),
        "shot_ms": _median_ms(lambda: games.apply(dealt, burst), repeats),
        "render_ms": _median_ms(view.render, repeats),
        "undo_ms": _median_ms(lambda: games.replay(games.undo(dealt)), repeats),
        "spectator_link_ms": _median_ms(spectator, repeats),
        # the players' view draws the spectator's copy: making and replaying it on a fresh game object
        "players_view_ms": _median_ms(lambda: cs.public_state(dealt), repeats),
    }
    results["spectator_link_chars"] = len(link)
    return results


def pyodide_bench(options: dict[str, Any]) -> dict[str, Any] | None:
    """The same benchmark on Pyodide's Python under Node (``None`` if Node or Pyodide is missing)."""
    try:
        out = subprocess.run(["node", "--input-type=module", "-e", NODE_RUNNER, json.dumps(options)], cwd=ROOT,
                             capture_output=True, text=True, timeout=900)
    except (OSError, subprocess.TimeoutExpired) as err:
        print(f"Pyodide under Node: not run ({err})", file=sys.stderr)
        return None
    for line in out.stdout.splitlines():
        if line.startswith("BENCH-JSON "):
            return json.loads(line[len("BENCH-JSON "):])
    print(f"Pyodide under Node failed:\n{out.stderr[-2000:]}", file=sys.stderr)
    return None


ROWS = (("deal", "deal_ms", "Deal (40 combatants, 80 cards owed)"), ("tap", "tap_ms", "One tap: Next"),
        ("shot", "shot_ms", "One tap: area burst on 4"), ("render", "render_ms", "View tree after a tap"),
        ("undo", "undo_ms", "Undo (full replay)"), ("link", "spectator_link_ms", "Spectator link"),
        ("players", "players_view_ms", "Players' view (its copy, replayed)"))


def report(runs: dict[str, dict[str, Any]]) -> str:
    names = list(runs)
    first = next(iter(runs.values()))
    lines = [f"Initiative tracker, {first['combatants']} combatants, a game of {first['actions']} actions, "
             f"{first['cards_in_round']} cards in the round (median ms)",
             f"{'':38}" + "".join(f"{runs[n]['python']:>18}" for n in names)]
    for _, key, label in ROWS:
        lines.append(f"{label:38}" + "".join(f"{runs[n][key]:>18.2f}" for n in names))
    lines.append(f"{'Spectator link length (characters)':38}"
                 + "".join(f"{runs[n]['spectator_link_chars']:>18}" for n in names))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--combatants", type=int, default=COMBATANTS)
    parser.add_argument("--no-pyodide", action="store_true", help="CPython only")
    args = parser.parse_args(argv)
    options = {"repeats": args.repeats, "combatants": args.combatants}
    runs = {"cpython": {**consim_bench(**options), "python": "CPython " + sys.version.split()[0]}}
    if not args.no_pyodide:
        pyo = pyodide_bench(options)
        if pyo is not None:
            runs["pyodide"] = pyo
    print(report(runs))
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "consim.json").write_text(json.dumps(runs, indent=1))


if __name__ == "__main__":
    main()
