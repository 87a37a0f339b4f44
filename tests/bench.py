"""Start-up, size and engine benchmark: ``python -m tests.bench`` (``make bench``).

A benchmark, not a test: it measures and prints a report, and writes the same
numbers as JSON to ``bench-results/latest.json``. Nothing passes or fails; the
report marks the goals (app ready within 1.15× of bare Pyodide, first contentful
paint well under 500 ms) as met or missed.

What it measures, side by side in one run (median of ``--runs`` runs, default 5):

1. Time to ready — navigation start to ``html[data-ready='true']`` — for the app
   (``build/``) and for a bare-Pyodide page built from the same vendored runtime
   (``tests/bench_bare/bare.html`` + ``bare.mjs``: ``loadPyodide`` + one
   ``runPython``, the app's CSP, no PyScript, no service worker). Conditions:
   *cold* (a new browser context per run; the app once with its service worker
   allowed, as a first visit really is, and once with service workers blocked),
   *reload* (same tab, ``page.reload()``, service workers blocked, so the HTTP
   cache revalidates) and, for the app only, *SW* (the service worker controls the
   tab, then ``page.reload()``). The ready time is ``performance.now()`` read by a
   ``requestAnimationFrame``-polled ``wait_for_function`` (resolution: one frame).
2. First contentful paint (``performance.getEntriesByType('paint')``).
3. Bytes of a cold load: the files the page fetched (raw — the local server does
   not compress — and gzip-compressed with Python's ``gzip`` at level 6, about what
   a static host such as GitHub Pages sends) and, server-side, every body byte sent
   including the service worker's precache.
4. WebKit (WebKitGTK, the engine of every iPad browser, through selenium under
   Xvfb; :func:`webkit_bench`): time to ready for the app and the bare page, cold (a
   new browser session per run) and reload, median of ``--webkit-runs`` (default 3),
   read from the ``ct:ready`` performance mark both pages set; the summary gives
   WebKit/Chromium ratios.
5. The first visit from a shared link (issue 19, tests/bench_firstvisit.py): over an
   emulated 20 Mbit/s / 40 ms link with files gzip-encoded as GitHub Pages serves them,
   bytes on the wire, and a reload right after the first visit.
6. Engine microbenchmarks on CPython and on Pyodide's Python under Node
   (``tests/bench_bare/engine_bench.mjs`` imports :func:`engine_bench` from here):
   replaying a 500-action Organizations In Conflict game, one more action at its
   tip, share links and saves (encode/decode time, lengths).

The bare page is staged in a temporary directory next to a copy of ``build/``; it
never goes into ``build/`` (which is what ships). This module imports only the
standard library at top level, so the engine part runs under Pyodide too.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
BARE_SRC = Path(__file__).resolve().parent / "bench_bare"
RESULTS = ROOT / "bench-results"
GOAL_RATIO = 1.15
GOAL_FCP_MS = 500.0
#: A share link as the app builds it on GitHub Pages (web/session.py share_url).
LINK_PREFIX = "https://user.github.io/conflict-table/#/conflict?g="
GZIP_LEVEL = 6
READY_JS = "() => document.documentElement.dataset.ready === 'true' && performance.now()"
FCP_JS = """() => {
  const entry = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
  return entry ? entry.startTime : null;
}"""
#: Where the time goes: milestones in ms from navigation start (null when absent).
MILESTONES_JS = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const end = (suffix) => {
    const r = performance.getEntriesByType('resource').find((e) => new URL(e.name).pathname.endsWith(suffix));
    return r ? r.responseEnd : null;
  };
  return {
    html: nav ? nav.responseEnd : null,
    dcl: nav ? nav.domContentLoadedEventEnd : null,
    load: nav ? nav.loadEventEnd || null : null,
    wasm: end('/pyodide.asm.wasm'),
    stdlib: end('/python_stdlib_cut.zip') ?? end('/python_stdlib.zip'),  // the app's cut, bare's full one
    app_zip: end('/app.zip'),
  };
}"""
MILESTONES = ("html", "dcl", "load", "wasm", "stdlib", "app_zip")


def stats(values: list[float]) -> dict[str, Any]:
    values = [v for v in values if v is not None]
    if not values:
        return {"n": 0, "min": None, "median": None, "max": None, "runs": []}
    return {"n": len(values), "min": min(values), "median": statistics.median(values),
            "max": max(values), "runs": [round(v, 3) for v in values]}


# ---------------------------------------------------------------------------
# Engine (stdlib + engine only: also runs under Pyodide)


def _time_call(fn: Callable[[], Any], repeats: int, min_time: float = 0.04) -> dict[str, Any]:
    """Per-call milliseconds: ``repeats`` samples, each looping ``fn`` long enough to time."""
    from time import perf_counter

    fn()  # warm-up
    number = 1
    while True:
        t0 = perf_counter()
        for _ in range(number):
            fn()
        elapsed = perf_counter() - t0
        if elapsed >= min_time or number >= 4096:
            break
        number *= 2 if elapsed == 0 else max(2, min(10, int(min_time / elapsed) + 1))
    samples = [elapsed / number * 1000]
    for _ in range(repeats - 1):
        t0 = perf_counter()
        for _ in range(number):
            fn()
        samples.append((perf_counter() - t0) / number * 1000)
    return {**stats(samples), "calls_per_sample": number}


def _next_action(state: Any, rng: random.Random) -> dict[str, Any] | None:
    """A random legal action (engine/conflict.py module docstring), or None when over."""
    from engine import conflict

    if state.phase == "conflict-over":
        return None
    if state.phase == "discard":
        side, player = next((s, p) for s, row in enumerate(state.discarded)
                            for p, done in enumerate(row) if not done)
        return {"type": "discard", "side": side, "player": player, "cards": []}
    if state.phase == "round-over":
        return {"type": "next_round"}
    plays = conflict.legal_plays(state)
    if not plays or rng.random() < 0.1:
        return {"type": "pass"}
    player, card = rng.choice(plays)
    return {"type": "play", "player": player, "card": str(card)}


def random_game(actions: int, seed: int):
    """An Organizations In Conflict game of ``actions`` random legal actions.

    Starts from the Purple Dragon setup; if a conflict ends early, retries with the
    next seed and every organization's power raised by 10 so the conflict lasts.
    """
    from engine import conflict
    from engine import game as G

    boost = 0
    for attempt in range(30):
        setup = conflict.purple_dragon_setup()
        for side in setup["sides"]:
            for player in side["players"]:
                for org in player["organizations"]:
                    org["power"] = min(999, org["power"] + boost)
        game = G.new_game("conflict", setup, seed=seed + attempt)
        rng = random.Random(seed + attempt)
        while len(game.actions) < actions:
            action = _next_action(G.replay(game), rng)
            if action is None:
                break
            game = G.apply(game, action)
        else:
            return game, rng
        boost += 10
    raise RuntimeError(f"could not build a conflict lasting {actions} actions")


def engine_bench(repeats: int = 7, actions: int = 500, mid: int = 60, seed: int = 20261129) -> dict[str, Any]:
    """Engine timings (ms per call) and sizes; importable under Pyodide (stdlib only)."""
    from dataclasses import replace

    from engine import codec
    from engine import game as G

    t0 = time.perf_counter()
    long_game, rng = random_game(actions, seed)
    build_ms = (time.perf_counter() - t0) * 1000
    fresh = G.new_game("conflict", long_game.setup, seed=long_game.seed)
    mid_game = replace(long_game, actions=long_game.actions[:mid], position=mid, _tip=None)
    # Without the replay cache (_tip) a replay really replays every action.
    long_cold = replace(long_game, _tip=None)
    mid_cold = replace(mid_game, _tip=None)
    final = G.replay(long_game)
    tap = _next_action(final, rng) or {"type": "pass"}

    result: dict[str, Any] = {
        "actions": len(long_game.actions),
        "rounds": final.round,
        "phase": final.phase,
        "build_random_game_ms": build_ms,
        "replay_500_ms": _time_call(lambda: G.replay(long_cold), repeats),
        "replay_mid_ms": _time_call(lambda: G.replay(mid_cold), repeats),
        "apply_at_tip_500_ms": _time_call(lambda: G.apply(long_game, tap), repeats),
        "apply_all_500_ms": None,
        "games": {},
    }

    def apply_all() -> None:
        game = fresh
        for action in long_game.actions:
            game = G.apply(game, action)

    result["apply_all_500_ms"] = _time_call(apply_all, max(3, repeats // 2))

    for name, game in (("fresh", fresh), ("mid", mid_game), ("long", long_game)):
        payload = codec.encode_share(game)
        save = codec.dumps(game)
        assert codec.decode_share(payload) == game and codec.loads(save)[0] == game
        result["games"][name] = {
            "actions": len(game.actions),
            "payload_chars": len(payload),
            "link_chars": len(LINK_PREFIX) + len(payload),
            "save_chars": len(save),
            "encode_share_ms": _time_call(lambda: codec.encode_share(game), repeats),
            "decode_share_ms": _time_call(lambda: codec.decode_share(payload), repeats),
            "dumps_ms": _time_call(lambda: codec.dumps(game), repeats),
            "loads_ms": _time_call(lambda: codec.loads(save), repeats),
        }
    result["link_prefix_chars"] = len(LINK_PREFIX)
    return result


def node_engine_bench(repeats: int) -> dict[str, Any]:
    """engine_bench on Pyodide's Python under Node; {"error": …} when that is not possible."""
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "pyodide").is_dir():
        return {"error": "node or node_modules/pyodide missing (run `npm ci`)"}
    started = time.perf_counter()
    try:
        proc = subprocess.run([node, str(BARE_SRC / "engine_bench.mjs"), json.dumps({"repeats": repeats})],
                              cwd=ROOT, capture_output=True, text=True, timeout=240)
    except subprocess.TimeoutExpired:
        return {"error": "timed out after 240 s"}
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH-JSON "):
            data = json.loads(line[len("BENCH-JSON "):])
            data["wall_s"] = time.perf_counter() - started
            return data
    return {"error": f"exit {proc.returncode}: {(proc.stderr or proc.stdout)[-800:]}"}


# ---------------------------------------------------------------------------
# Browser


def _stage(build: Path, into: Path) -> None:
    """A copy of build/ (safe from a rebuild mid-run) plus the bare page with the app's CSP."""
    import html
    import shutil

    from builder.build import CSP

    shutil.copytree(build, into, dirs_exist_ok=True)
    page = (BARE_SRC / "bare.html").read_text().replace("__CSP__", html.escape(CSP, quote=True))
    (into / "bare.html").write_text(page)
    shutil.copy2(BARE_SRC / "bare.mjs", into / "bare.mjs")


def _counting_server(directory: Path):
    """builder.serve's server on a free port, recording every response body it sends."""
    import functools

    from builder.serve import Handler, serve_in_thread

    class CountingHandler(Handler):
        def send_response(self, code, message=None):
            self.server.log.append({"path": self.path.split("?")[0], "code": code, "bytes": 0})
            super().send_response(code, message)

        def copyfile(self, source, outputfile):
            size = os.fstat(source.fileno()).st_size
            for entry in reversed(self.server.log):
                if entry["path"] == self.path.split("?")[0] and entry["bytes"] == 0:
                    entry["bytes"] = size
                    break
            super().copyfile(source, outputfile)

    server, url = serve_in_thread(directory)
    server.log = []
    server.RequestHandlerClass = functools.partial(CountingHandler, directory=str(directory))
    return server, url


class _Gzip:
    def __init__(self, root: Path):
        self.root = root
        self.cache: dict[str, tuple[int, int]] = {}

    def sizes(self, path: str) -> tuple[int, int]:
        """(raw, gzip) bytes of a served path."""
        import gzip
        from urllib.parse import unquote

        rel = unquote(path).lstrip("/") or "index.html"
        if rel.endswith("/"):
            rel += "index.html"
        if rel not in self.cache:
            data = (self.root / rel).read_bytes()
            self.cache[rel] = (len(data), len(gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)))
        return self.cache[rel]


def browser_bench(runs: int = 5, timeout_ms: float = 90_000) -> dict[str, Any]:
    """Start-up, paint and byte measurements in Debian's Chromium (see the module docstring)."""
    import tempfile
    from urllib.parse import urlparse

    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM, CHROMIUM_FLAGS, TABLET_LANDSCAPE

    build = ROOT / "build"
    if not (build / "index.html").exists() or not (build / "vendor" / "pyodide" / "pyodide.mjs").exists():
        raise SystemExit("build/ is missing: run `.venv/bin/python -m builder.build` (make bench does)")

    out: dict[str, Any] = {"errors": []}
    with tempfile.TemporaryDirectory(prefix="ct-bench-") as tmp:
        site = Path(tmp)
        _stage(build, site)
        gz = _Gzip(site)
        # Two servers, two origins: the app's service worker can never touch the bare page.
        app_server, app_base = _counting_server(site)
        bare_server, bare_base = _counting_server(site)
        # The app without its start-up snapshot (one made mid-run would mix two boots in a
        # row); tests/bench_snapshot.py measures it with and without one.
        app_url, bare_url = app_base + "?snapshot=off", bare_base + "bare.html"
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
                out["chromium"] = browser.version

                def context(sw: bool):
                    return browser.new_context(viewport=TABLET_LANDSCAPE, device_scale_factor=1,
                                               service_workers="allow" if sw else "block")

                def watch(page, label: str) -> None:
                    page.on("pageerror", lambda e: out["errors"].append(f"{label}: {e}"))
                    page.on("console", lambda m: out["errors"].append(f"{label}: {m.text}")
                            if m.type == "error" else None)

                def ready(page) -> tuple[float, float | None, dict]:
                    t = page.wait_for_function(READY_JS, polling="raf", timeout=timeout_ms).json_value()
                    return float(t), page.evaluate(FCP_JS), page.evaluate(MILESTONES_JS)

                def cold(url: str, sw: bool, label: str) -> tuple[float, float | None, dict]:
                    ctx = context(sw)
                    try:
                        page = ctx.new_page()
                        watch(page, label)
                        page.goto(url, wait_until="commit")
                        return ready(page)
                    finally:
                        ctx.close()

                # Warm-up (not counted): the browser's first page pays process start-up.
                cold(app_url, True, "warm-up app")
                cold(bare_url, False, "warm-up bare")

                # 1+2. Cold, interleaved so drift hits both pages alike.
                series: dict[str, list] = {k: [] for k in ("app_cold", "app_cold_nosw", "bare_cold")}
                for i in range(runs):
                    series["app_cold"].append(cold(app_url, True, "app cold"))
                    series["bare_cold"].append(cold(bare_url, False, "bare cold"))
                    series["app_cold_nosw"].append(cold(app_url, False, "app cold (SW blocked)"))

                # Reload in the same tab, service workers blocked (HTTP cache revalidation).
                series["app_reload"], series["bare_reload"] = [], []
                tabs = {}
                for key, url in (("app_reload", app_url), ("bare_reload", bare_url)):
                    ctx = context(False)
                    page = ctx.new_page()
                    watch(page, key)
                    page.goto(url, wait_until="commit")
                    ready(page)
                    tabs[key] = (ctx, page)
                for i in range(runs):
                    for key in ("app_reload", "bare_reload"):
                        page = tabs[key][1]
                        page.reload(wait_until="commit")
                        series[key].append(ready(page))
                for ctx, _ in tabs.values():
                    ctx.close()

                # From the service-worker cache (app only): the worker controls the tab, then reload.
                ctx = context(True)
                page = ctx.new_page()
                watch(page, "app SW")
                page.goto(app_url, wait_until="commit")
                ready(page)
                page.wait_for_function("() => Boolean(navigator.serviceWorker.controller)", timeout=timeout_ms)
                series["app_sw"], sw_requests, sw_controlled = [], [], []
                for i in range(runs):
                    before = len(app_server.log)
                    page.reload(wait_until="commit")
                    series["app_sw"].append(ready(page))
                    sw_controlled.append(page.evaluate("() => Boolean(navigator.serviceWorker.controller)"))
                    sw_requests.append([e["path"] for e in app_server.log[before:]])
                ctx.close()

                for key, values in series.items():
                    out[key] = stats([v[0] for v in values])
                    out[key + "_fcp"] = stats([v[1] for v in values])
                    out[key + "_milestones"] = {m: stats([v[2].get(m) for v in values]) for m in MILESTONES}
                out["app_sw_all_controlled"] = all(sw_controlled)
                out["app_sw_network_requests"] = sw_requests

                # 3. Bytes of one cold load each (not timed).
                def cold_bytes(url: str, sw: bool, server) -> dict[str, Any]:
                    origin = urlparse(url).netloc
                    ctx = context(sw)
                    page = ctx.new_page()
                    fetched: list[tuple[str, int]] = []
                    page.on("response", lambda r: fetched.append((urlparse(r.url).path, r.status))
                            if urlparse(r.url).netloc == origin else None)
                    server.log.clear()
                    page.goto(url, wait_until="commit")
                    ready(page)
                    page.wait_for_timeout(300)  # late requests (icons, manifest) after ready
                    at_ready = sum(e["bytes"] for e in server.log)
                    files = sorted({path for path, status in fetched if status == 200})
                    result = {
                        "page_files": len(files),
                        "page_raw": sum(gz.sizes(p)[0] for p in files),
                        "page_gzip": sum(gz.sizes(p)[1] for p in files),
                        "largest": sorted(((p, *gz.sizes(p)) for p in files), key=lambda x: -x[1])[:6],
                        "server_bytes_at_ready": at_ready,
                    }
                    if sw:
                        page.wait_for_function("() => Boolean(navigator.serviceWorker.controller)",
                                               timeout=timeout_ms)
                        result["server_bytes_with_sw_precache"] = sum(e["bytes"] for e in server.log)
                        result["server_requests_with_sw_precache"] = len(server.log)
                        precached = {e["path"] for e in server.log}
                        result["sw_precache_gzip_total"] = sum(gz.sizes(p)[1] for p in precached)
                    ctx.close()
                    return result

                out["app_bytes"] = cold_bytes(app_url, True, app_server)
                out["bare_bytes"] = cold_bytes(bare_url, False, bare_server)
                browser.close()
        finally:
            app_server.shutdown()
            bare_server.shutdown()
    return out


def webkit_bench(runs: int = 3, timeout_s: float = 240) -> dict[str, Any]:
    """Time to ready in WebKitGTK (the engine of every iPad browser), beside Chromium's.

    Driven by selenium through WebKitWebDriver (``tests/webkit/conftest.py``), so it
    needs a display: ``make bench`` runs under ``xvfb-run -a``. *cold* is a new
    browser session per run (an empty cache); *reload* is ``refresh()`` in one tab.
    The ready time is the ``ct:ready`` performance mark both pages set just before
    ``html[data-ready]`` (exact, no polling), from navigation start. Returns
    ``{"error": …}`` when WebKit cannot be driven here.
    """
    import shutil
    import tempfile

    try:
        from tests.webkit.conftest import MINIBROWSER, WEBDRIVER, new_driver, wait_ready
    except ImportError as err:
        return {"error": f"selenium missing ({err}): `make deps`"}
    if not (shutil.which(WEBDRIVER) and Path(MINIBROWSER).exists()):
        return {"error": f"{WEBDRIVER} or {MINIBROWSER} missing (apt-get install webkit2gtk-driver xvfb)"}
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return {"error": "no display: run under `xvfb-run -a` (make bench does)"}
    build = ROOT / "build"
    out: dict[str, Any] = {"errors": []}
    with tempfile.TemporaryDirectory(prefix="ct-bench-webkit-") as tmp:
        site = Path(tmp)
        _stage(build, site)
        app_server, app_base = _counting_server(site)
        bare_server, bare_base = _counting_server(site)
        urls = {"app": app_base + "?snapshot=off", "bare": bare_base + "bare.html"}  # as in browser_bench

        def ready(driver) -> tuple[float, float | None, dict]:
            wait_ready(driver, timeout_s)
            mark = driver.execute_script("const m = performance.getEntriesByName('ct:ready')[0];"
                                         "return m ? m.startTime : null")
            fcp = driver.execute_script("return (" + FCP_JS + ")()")
            milestones = driver.execute_script("return (" + MILESTONES_JS + ")()")
            if mark is None:
                out["errors"].append(f"{driver.current_url}: no ct:ready mark")
            return float(mark or 0), fcp, milestones

        def session():
            driver = new_driver()
            driver.set_window_size(1024, 768)
            out.setdefault("webkit", driver.capabilities.get("browserVersion"))
            return driver

        try:
            # Warm-up (not counted): the first session pays the browser's start-up.
            driver = session()
            try:
                driver.get(urls["app"])
                ready(driver)
            finally:
                driver.quit()
            series: dict[str, list] = {f"{k}_{c}": [] for k in urls for c in ("cold", "reload")}
            # Cold: a new session (empty cache) per run, app and bare interleaved.
            for _ in range(runs):
                for key, url in urls.items():
                    driver = session()
                    try:
                        driver.get(url)
                        series[f"{key}_cold"].append(ready(driver))
                    finally:
                        driver.quit()
            # Reload in the same tab.
            for key, url in urls.items():
                driver = session()
                try:
                    driver.get(url)
                    ready(driver)
                    for _ in range(runs):
                        driver.refresh()
                        series[f"{key}_reload"].append(ready(driver))
                    if key == "app":
                        out["app_sw_controlled"] = driver.execute_script(
                            "return Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)")
                        out["app_sw_shell"] = driver.execute_script(
                            "return document.documentElement.dataset.sw || null")
                finally:
                    driver.quit()
            for key, values in series.items():
                out[key] = stats([v[0] for v in values])
                out[key + "_fcp"] = stats([v[1] for v in values])
                out[key + "_milestones"] = {m: stats([v[2].get(m) for v in values]) for m in MILESTONES}
        except Exception as err:  # a broken WebKit run must not lose the other numbers
            out["error"] = f"{type(err).__name__}: {str(err).splitlines()[0][:300] if str(err) else ''}"
        finally:
            app_server.shutdown()
            bare_server.shutdown()
    return out


# ---------------------------------------------------------------------------
# Report


def _ms(value: float | None, digits: int = 0) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _mb(value: int | None) -> str:
    return "n/a" if value is None else f"{value / 1e6:.2f} MB"


def _line(label: str, s: dict[str, Any] | None, unit: str = "ms", digits: int = 0) -> str:
    if not s or not s.get("n"):
        return f"  {label:<42} n/a"
    return (f"  {label:<42} min {_ms(s['min'], digits):>7}  median {_ms(s['median'], digits):>7}  "
            f"max {_ms(s['max'], digits):>7} {unit}  (n={s['n']})")


def _ratio(a: dict | None, b: dict | None) -> float | None:
    if not a or not b or not a.get("median") or not b.get("median"):
        return None
    return a["median"] / b["median"]


def report(data: dict[str, Any]) -> str:
    lines = [f"Conflict Table benchmark — {data['when']}  ({data['cpus']} CPUs, "
             f"CPython {data['cpython']}, Chromium {data.get('browser', {}).get('chromium', 'n/a')}, "
             f"commit {data['commit']})",
             f"load average (1/5/15 min) at start {data.get('loadavg_start')}, at end {data.get('loadavg_end')}"
             " — other work on the machine inflates and spreads the browser numbers", ""]
    b = data.get("browser")
    if b:
        lines.append("Time to ready (navigation start → html[data-ready='true'], ms)")
        for key, label in (("app_cold", "app  cold, first visit (SW registers)"),
                           ("app_cold_nosw", "app  cold, service workers blocked"),
                           ("bare_cold", "bare cold"),
                           ("app_reload", "app  reload (HTTP cache, no SW)"),
                           ("bare_reload", "bare reload (HTTP cache)"),
                           ("app_sw", "app  reload from service-worker cache")):
            lines.append(_line(label, b.get(key)))
        lines.append("  bare from service-worker cache             n/a (the bare page has no service worker)")
        lines.append("")
        lines.append("Where the time goes (medians, ms from navigation start; responseEnd of the file)")
        heads = ("HTML", "DOMContentLoaded", "load", "wasm", "stdlib", "app.zip", "ready")
        lines.append(f"  {'':<16}" + "".join(f"{h:>17}" for h in heads))
        for key in ("app_cold", "app_cold_nosw", "bare_cold", "app_reload", "bare_reload", "app_sw"):
            m = b.get(key + "_milestones") or {}
            cells = [_ms((m.get(k) or {}).get("median")) for k in MILESTONES] + [_ms((b.get(key) or {}).get("median"))]
            lines.append(f"  {key:<16}" + "".join(f"{c:>17}" for c in cells))
        lines.append("")
        lines.append("First contentful paint (ms)")
        for key, label in (("app_cold_fcp", "app  cold, first visit"), ("app_cold_nosw_fcp", "app  cold, SW blocked"),
                           ("app_reload_fcp", "app  reload"), ("app_sw_fcp", "app  from SW cache"),
                           ("bare_cold_fcp", "bare cold (one line of text)")):
            lines.append(_line(label, b.get(key)))
        lines.append("")
        lines.append(f"Bytes of one cold load (files the page fetched; gzip -{GZIP_LEVEL} of the same files)")
        for key, label in (("app_bytes", "app "), ("bare_bytes", "bare")):
            s = b.get(key) or {}
            lines.append(f"  {label} {s.get('page_files', 0):>3} files  raw {_mb(s.get('page_raw'))}  "
                         f"gzip {_mb(s.get('page_gzip'))}")
            for path, raw, gzipped in s.get("largest", []):
                lines.append(f"        {path:<44} {raw:>10,} raw {gzipped:>10,} gzip")
        ab = b.get("app_bytes") or {}
        if "server_bytes_with_sw_precache" in ab:
            lines.append(f"  app first visit incl. SW precache, sent by the server: "
                         f"{_mb(ab['server_bytes_with_sw_precache'])} raw in {ab['server_requests_with_sw_precache']} "
                         f"responses (those files gzipped: {_mb(ab['sw_precache_gzip_total'])})")
        requests = b.get("app_sw_network_requests") or []
        lines.append(f"  app reloads from SW cache: controlled {b.get('app_sw_all_controlled')}, network requests "
                     f"per reload {[len(r) for r in requests]} {sorted({p for r in requests for p in r})}")
        if b.get("errors"):
            lines.append("")
            lines.append(f"Page errors ({len(b['errors'])}, first 5):")
            lines.extend(f"  {e[:200]}" for e in b["errors"][:5])
        lines.append("")
    w = data.get("webkit")
    if w:
        lines.append(f"WebKit (WebKitGTK {w.get('webkit', 'n/a')} under Xvfb): time to ready "
                     "(navigation start → the ct:ready mark, ms)")
        if w.get("error"):
            lines.append(f"  n/a — {w['error']}")
        for key, label in (("app_cold", "app  cold (new session, empty cache)"), ("bare_cold", "bare cold"),
                           ("app_reload", "app  reload (same tab)"), ("bare_reload", "bare reload")):
            if key in w:
                lines.append(_line(label, w.get(key)))
        if "app_sw_controlled" in w:
            lines.append("  app from service-worker cache: "
                         + ("not measured" if w["app_sw_controlled"] else
                            f"n/a, no worker controls the page (the shell says {w.get('app_sw_shell')!r})"))
        for key, label in (("app_cold_fcp", "first contentful paint, app cold"),
                           ("bare_cold_fcp", "first contentful paint, bare cold")):
            if key in w:
                lines.append(_line(label, w.get(key)))
        if w.get("errors"):
            lines.append(f"  problems: {w['errors'][:3]}")
        lines.append("")
    for key, title in (("engine_cpython", "Engine on CPython"), ("engine_pyodide", "Engine on Pyodide under Node")):
        e = data.get(key)
        if not e:
            continue
        if "error" in e:
            lines.append(f"{title}: n/a — {e['error']}")
            lines.append("")
            continue
        extra = (f", Python {e.get('python')}, Pyodide {e.get('pyodide_version')} loaded in "
                 f"{_ms(e.get('pyodide_load_ms'))} ms" if key == "engine_pyodide" else "")
        lines.append(f"{title} (ms per call; game of {e['actions']} actions, {e['rounds']} rounds{extra})")
        lines.append(_line(f"replay {e['actions']} actions (no cache)", e["replay_500_ms"], digits=2))
        lines.append(_line("replay 60 actions (no cache)", e["replay_mid_ms"], digits=2))
        lines.append(_line("apply 1 action at the tip (the UI's tap)", e["apply_at_tip_500_ms"], digits=3))
        lines.append(_line(f"apply {e['actions']} actions one by one", e["apply_all_500_ms"], digits=2))
        for name, g in e["games"].items():
            lines.append(f"  {name} game ({g['actions']} actions): share payload {g['payload_chars']} chars, "
                         f"link {g['link_chars']} chars, save {g['save_chars']} chars")
            for op in ("encode_share_ms", "decode_share_ms", "dumps_ms", "loads_ms"):
                lines.append(_line(f"    {op[:-3]}", g[op], digits=3))
        lines.append("")
    if data.get("firstvisit"):
        from tests import bench_firstvisit

        lines.extend([bench_firstvisit.report(data["firstvisit"]), ""])
    if data.get("snapshot"):
        from tests import bench_snapshot

        lines.extend([bench_snapshot.report(data["snapshot"]), ""])
    lines.extend(summary(data))
    lines.extend([""] + goals_19(data))
    return "\n".join(lines)


def goals_19(data: dict[str, Any]) -> list[str]:
    """Issue 19's goals, each beside what this run measured (side by side with bare Pyodide)."""
    from tests import bench_firstvisit as fv
    from tests import bench_snapshot as bs

    b, f = data.get("browser") or {}, data.get("firstvisit") or {}
    snap = data.get("snapshot") or {}
    chromium, webkit = snap.get("chromium") or {}, snap.get("webkit") or {}

    def med(d: dict, key: str) -> float | None:
        return (d.get(key) or {}).get("median")

    def ratio_row(label: str, d: dict, app: str, bare: str, goal: float, unit: str = "ms"):
        a, z = med(d, app), med(d, bare)
        r = a / z if a and z else None
        verdict = "n/a" if r is None else ("meets goal" if r <= goal else "MISSES goal")
        return (label, _ms(a), _ms(z), "n/a" if r is None else f"{r:.2f}×", f"≤ {goal:.2f}×", verdict)

    wire = med(f, "app_wire")
    rows = [("", "app", "bare", "app/bare", "goal", ""),
            ("bytes on the wire, first visit (gzip)", _mb(wire), _mb(med(f, "bare_wire")),
             f"{wire / med(f, 'bare_wire'):.2f}×" if wire and med(f, "bare_wire") else "n/a",
             f"≤ {fv.GOAL_WIRE_MB:.1f} MB",
             "n/a" if wire is None else ("meets goal" if wire <= fv.GOAL_WIRE_MB * 1e6 else "MISSES goal")),
            ratio_row("first visit, 20 Mbit/s / 40 ms, ms", f, "app_emulated", "bare_emulated", fv.GOAL_EMULATED),
            ratio_row("cold start, loopback, ms", b, "app_cold", "bare_cold", 1.05),
            ratio_row("reload right after the first visit, ms", f, "app_reload_after_first",
                      "bare_reload_after_first", fv.GOAL_RELOAD),
            ratio_row("repeat visit (snapshot), Chromium cold, ms", chromium, "snap_cold", "bare_cold", bs.GOAL_LATER),
            ratio_row("repeat visit (snapshot), WebKit revisit, ms", webkit, "snap_revisit", "bare_revisit",
                      bs.GOAL_LATER)]
    widths = [max(len(str(r[i])) for r in rows) for i in range(6)]
    out = ["Issue 19 goals (medians of this run; the ratios are to bare Pyodide in the same run)",
           "-" * (sum(widths) + 10)]
    for r in rows:
        out.append("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
                   .rstrip())
    return out


def summary(data: dict[str, Any]) -> list[str]:
    b = data.get("browser") or {}
    cp, py = data.get("engine_cpython") or {}, data.get("engine_pyodide") or {}

    def med(key: str) -> float | None:
        return (b.get(key) or {}).get("median")

    def verdict(ratio: float | None) -> str:
        if ratio is None:
            return ""
        return "meets goal" if ratio <= GOAL_RATIO else f"MISSES goal ≤{GOAL_RATIO:.2f}×"

    rows = [("", "app", "bare", "app/bare", f"goal ≤{GOAL_RATIO:.2f}×")]
    for label, app_key, bare_key in (("ready cold (first visit)", "app_cold", "bare_cold"),
                                     ("ready cold (SW blocked)", "app_cold_nosw", "bare_cold"),
                                     ("ready reload", "app_reload", "bare_reload"),
                                     ("ready SW cache (bare: reload)", "app_sw", "bare_reload")):
        r = _ratio(b.get(app_key), b.get(bare_key))
        rows.append((label + " ms", _ms(med(app_key)), _ms(med(bare_key)),
                     "n/a" if r is None else f"{r:.2f}×", verdict(r)))
    w = data.get("webkit") or {}
    for label, app_key, bare_key in (("WebKit ready cold", "app_cold", "bare_cold"),
                                     ("WebKit ready reload", "app_reload", "bare_reload")):
        if app_key in w or bare_key in w:
            r = _ratio(w.get(app_key), w.get(bare_key))
            rows.append((label + " ms", _ms((w.get(app_key) or {}).get("median")),
                         _ms((w.get(bare_key) or {}).get("median")), "n/a" if r is None else f"{r:.2f}×", verdict(r)))
    # Chromium's cold app run with service workers blocked is the like of WebKit's cold run.
    for label, key, chromium_key in (("WebKit/Chromium, app cold", "app_cold", "app_cold_nosw"),
                                     ("WebKit/Chromium, bare cold", "bare_cold", "bare_cold"),
                                     ("WebKit/Chromium, app reload", "app_reload", "app_reload"),
                                     ("WebKit/Chromium, bare reload", "bare_reload", "bare_reload")):
        r = _ratio(w.get(key), b.get(chromium_key))
        if r is not None:
            rows.append((label, "", "", f"{r:.2f}×", ""))
    fcp = med("app_cold_fcp")
    rows.append(("FCP cold ms", _ms(fcp), _ms(med("bare_cold_fcp")), "",
                 "" if fcp is None else ("well under 500 ms" if fcp < GOAL_FCP_MS else "MISSES < 500 ms")))
    ab, bb = b.get("app_bytes") or {}, b.get("bare_bytes") or {}
    rows.append(("bytes cold raw", _mb(ab.get("page_raw")), _mb(bb.get("page_raw")),
                 f"{ab['page_raw'] / bb['page_raw']:.2f}×" if ab.get("page_raw") and bb.get("page_raw") else "", ""))
    rows.append(("bytes cold gzip", _mb(ab.get("page_gzip")), _mb(bb.get("page_gzip")),
                 f"{ab['page_gzip'] / bb['page_gzip']:.2f}×" if ab.get("page_gzip") and bb.get("page_gzip") else "",
                 ""))
    rows.append(("bytes first visit + SW precache", _mb(ab.get("server_bytes_with_sw_precache")), "", "", ""))
    rows.append(("", "CPython", "Pyodide", "Pyodide/CPython", ""))

    def eng(e: dict, *keys: str) -> float | None:
        for k in keys:
            if not isinstance(e, dict) or k not in e:
                return None
            e = e[k]
        return e

    for label, keys in (("replay 500 actions ms", ("replay_500_ms", "median")),
                        ("apply 1 action at tip ms", ("apply_at_tip_500_ms", "median")),
                        ("decode_share 500 ms", ("games", "long", "decode_share_ms", "median")),
                        ("loads 500 ms", ("games", "long", "loads_ms", "median"))):
        a, p = eng(cp, *keys), eng(py, *keys)
        rows.append((label, _ms(a, 2), _ms(p, 2), f"{p / a:.1f}×" if a and p else "", ""))
    for name in ("fresh", "mid", "long"):
        g = eng(cp, "games", name) or {}
        if g:
            rows.append((f"link chars, {name} ({g['actions']} actions)", str(g["link_chars"]), "", "",
                         f"payload {g['payload_chars']}"))
    widths = [max(len(str(r[i])) for r in rows) for i in range(5)]
    out = ["Summary (medians)", "-" * (sum(widths) + 8)]
    for r in rows:
        out.append("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) if i < 4 else str(c)
                             for i, (c, w) in enumerate(zip(r, widths))).rstrip())
    return out


def _loadavg() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def _git() -> str:
    import subprocess

    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True,
                               text=True, timeout=10).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="page loads per condition (default 5)")
    parser.add_argument("--repeats", type=int, default=7, help="engine timing samples (default 7)")
    parser.add_argument("--no-browser", action="store_true", help="skip the Chromium measurements")
    parser.add_argument("--no-node", action="store_true", help="skip the engine on Pyodide under Node")
    parser.add_argument("--no-webkit", action="store_true", help="skip the WebKit measurements")
    parser.add_argument("--webkit-runs", type=int, default=3,
                        help="page loads per condition in WebKit (default 3; each is several seconds)")
    parser.add_argument("--out", type=Path, default=RESULTS / "latest.json")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    data: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
        "commit": _git(),
        "cpus": os.cpu_count(),
        "cpython": sys.version.split()[0],
        "runs": args.runs,
        "goals": {"ready_ratio_max": GOAL_RATIO, "fcp_ms_max": GOAL_FCP_MS},
        "loadavg_start": _loadavg(),
    }
    print("engine on CPython …", flush=True)
    data["engine_cpython"] = engine_bench(repeats=args.repeats)
    if not args.no_node:
        print("engine on Pyodide under Node …", flush=True)
        data["engine_pyodide"] = node_engine_bench(args.repeats)
    if not args.no_browser:
        print(f"Chromium: {args.runs} runs per condition …", flush=True)
        data["browser"] = browser_bench(runs=args.runs)
    if not args.no_webkit:
        print(f"WebKit: {args.webkit_runs} runs per condition …", flush=True)
        data["webkit"] = webkit_bench(runs=args.webkit_runs)
    browsers = tuple(name for name, skip in (("chromium", args.no_browser), ("webkit", args.no_webkit)) if not skip)
    if not args.no_browser:
        from tests import bench_firstvisit  # issue 19: the first visit from a shared link

        print(f"first visit (emulated link, gzip): {args.runs} runs …", flush=True)
        try:
            data["firstvisit"] = bench_firstvisit.firstvisit_bench(runs=args.runs)
        except Exception as error:  # a benchmark reports, it does not stop the others
            data["firstvisit"] = {"error": f"{type(error).__name__}: {error}"[:600]}
    if browsers:
        from tests import bench_snapshot  # issue 10: with and without the memory snapshot

        data["snapshot"] = bench_snapshot.snapshot_bench(runs=args.runs, browsers=browsers)
    data["total_s"] = time.perf_counter() - started
    data["loadavg_end"] = _loadavg()
    print()
    print(report(data))
    print(f"\n(total {data['total_s']:.0f} s; JSON in {args.out})")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1, default=str))


if __name__ == "__main__":
    main()
