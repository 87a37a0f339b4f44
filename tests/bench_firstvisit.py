"""The first visit from a shared link (issue 19): ``python -m tests.bench_firstvisit``.

Part of ``make bench`` (tests/bench.py calls :func:`firstvisit_bench` and prints
:func:`report`); also runnable alone (``--build DIR`` measures another build, e.g. one
made with other ``builder.build`` options). A benchmark, not a test: it prints medians, the
ratios to bare Pyodide measured in the same run, and the goals beside them.

Both pages are served from one staged copy of the build by two servers (two origins: the
app's service worker and snapshot never touch the bare page) that gzip-encode as GitHub
Pages does (``builder.serve`` with ``gzip``: text, scripts, JSON and wasm compressed on the
fly; zip archives and images as they are). The bare page is ``tests/bench_bare``
(``loadPyodide`` from the same vendored files, one ``runPython``, the app's CSP).

Rows (Chromium, a new browser context per run, so every run is a first visit):

- **emulated first visit**: Chromium's DevTools protocol ``Network.emulateNetworkConditions``
  (20 Mbit/s down and up, 40 ms latency) on the page, service workers allowed, the app as
  shipped (it makes its snapshot after ready, as a real first visit does); ready time from
  navigation start (``performance.now()`` when ``html[data-ready]`` is seen, polled every
  frame) and **bytes on the wire**: the response bodies the server sent, as encoded, up to
  ready. After ready the run waits for the background work of a first visit (the service
  worker's precache and, for the app, the snapshot worker) and reports those bytes apart.
- **reload right after the first visit** (loopback, no emulation): the first visit, then at
  once a reload in the same tab — while the service worker installs and the snapshot maker
  might run. The snapshot maker must not slow the page the person is using.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: Issue 19's goals.
GOAL_WIRE_MB = 5.0
GOAL_EMULATED = 0.85
GOAL_RELOAD = 1.10
#: The emulated link: 20 Mbit/s, 40 ms (a phone on mobile data or a crowded Wi-Fi).
LINK = {"offline": False, "latency": 40, "downloadThroughput": 20e6 / 8, "uploadThroughput": 20e6 / 8}
TIMEOUT_MS = 240_000
READY_JS = "() => document.documentElement.dataset.ready === 'true' && performance.now()"
#: Milestones of the app's boot (performance marks), ms from navigation start.
MARKS_JS = """() => Object.fromEntries(performance.getEntriesByType('mark')
  .filter((m) => m.name.startsWith('ct:')).map((m) => [m.name.slice(3), Math.round(m.startTime)]))"""


def stats(values: list[float]) -> dict[str, Any]:
    values = [v for v in values if v is not None]
    if not values:
        return {"n": 0, "median": None, "min": None, "max": None, "runs": []}
    return {"n": len(values), "median": statistics.median(values), "min": min(values), "max": max(values),
            "runs": [round(v) for v in values]}


def counting_server(directory: Path):
    """builder.serve's gzip-encoding server on a free port, recording each response's body bytes."""
    import functools

    from builder.serve import Handler, serve_in_thread

    class Counting(Handler):
        gzip = True

        def send_response(self, code, message=None):
            self.server.log.append({"path": self.path.split("?")[0], "code": code, "bytes": 0,
                                    "t": time.monotonic()})
            super().send_response(code, message)

        def copyfile(self, source, outputfile):
            size = len(source.getbuffer()) if hasattr(source, "getbuffer") else os.fstat(source.fileno()).st_size
            for entry in reversed(self.server.log):
                if entry["path"] == self.path.split("?")[0] and entry["bytes"] == 0:
                    entry["bytes"] = size
                    break
            super().copyfile(source, outputfile)

    server, url = serve_in_thread(directory, gzip=True)
    server.log = []
    server.RequestHandlerClass = functools.partial(Counting, directory=str(directory))
    return server, url


def firstvisit_bench(runs: int = 5, build: Path | None = None) -> dict[str, Any]:
    """The emulated first visit and the reload right after it, app and bare side by side."""
    from playwright.sync_api import sync_playwright

    from tests.bench import _stage
    from tests.e2e.conftest import CHROMIUM, CHROMIUM_FLAGS, TABLET_LANDSCAPE

    build = build or ROOT / "build"
    if not (build / "index.html").exists():
        raise SystemExit(f"{build} is missing: run `make site`")
    out: dict[str, Any] = {"runs": runs, "link": LINK, "errors": []}
    series: dict[str, list] = {}
    with tempfile.TemporaryDirectory(prefix="ct-bench-first-") as tmp:
        site = Path(tmp)
        _stage(build, site)
        servers = {"app": counting_server(site), "bare": counting_server(site)}
        urls = {"app": servers["app"][1], "bare": servers["bare"][1] + "bare.html"}
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
                out["chromium"] = browser.version

                def first_visit(which: str, emulate: bool, reload: bool = False,
                                background: bool = False) -> dict[str, Any]:
                    server = servers[which][0]
                    ctx = browser.new_context(viewport=TABLET_LANDSCAPE, device_scale_factor=1,
                                              service_workers="allow")
                    try:
                        page = ctx.new_page()
                        page.on("pageerror", lambda e: out["errors"].append(f"{which}: {e}"))
                        page.on("console", lambda m: out["errors"].append(f"{which}: {m.text[:200]}")
                                if m.type == "error" else None)
                        if emulate:
                            cdp = ctx.new_cdp_session(page)
                            cdp.send("Network.enable")
                            cdp.send("Network.emulateNetworkConditions", LINK)
                        server.log.clear()
                        page.goto(urls[which], wait_until="commit")
                        ms = float(page.wait_for_function(READY_JS, polling="raf", timeout=TIMEOUT_MS).json_value())
                        result = {"ms": ms, "wire": sum(e["bytes"] for e in server.log),
                                  "requests": len(server.log), "marks": page.evaluate(MARKS_JS),
                                  "files": sorted({(e["path"], e["bytes"]) for e in server.log}, key=lambda x: -x[1])}
                        if reload:
                            page.reload(wait_until="commit")
                            result["reload_ms"] = float(page.wait_for_function(
                                READY_JS, polling="raf", timeout=TIMEOUT_MS).json_value())
                            result["reload_snapshot"] = page.evaluate("document.documentElement.dataset.snapshot")
                        if background:
                            # What a first visit downloads after ready: the service worker's
                            # precache and (app) the snapshot worker's own Pyodide boot.
                            if which == "app":
                                page.wait_for_function("() => navigator.serviceWorker.ready.then(() => true)",
                                                       timeout=TIMEOUT_MS)
                                page.wait_for_function("() => Boolean(navigator.serviceWorker.controller)",
                                                       timeout=TIMEOUT_MS)
                                page.wait_for_function(
                                    "() => (m => m && m !== 'making')(document.documentElement.dataset.snapshotMade)",
                                    timeout=TIMEOUT_MS)
                                result["snapshot_made"] = page.evaluate("document.documentElement.dataset.snapshotMade")
                            page.wait_for_timeout(500)
                            result["wire_total"] = sum(e["bytes"] for e in server.log)
                            result["requests_total"] = len(server.log)
                        return result
                    finally:
                        ctx.close()

                # Warm-up (not counted): the browser's first pages pay process start-up.
                first_visit("app", False)
                first_visit("bare", False)
                for i in range(runs):
                    for which in ("bare", "app"):
                        r = first_visit(which, True, background=(i == 0))
                        series.setdefault(f"{which}_emulated", []).append(r["ms"])
                        series.setdefault(f"{which}_wire", []).append(r["wire"])
                        if i == 0:
                            out[f"{which}_files"] = r["files"]
                            out[f"{which}_wire_total"] = r.get("wire_total")
                            out[f"{which}_requests_total"] = r.get("requests_total")
                            out[f"{which}_snapshot_made"] = r.get("snapshot_made")
                        if which == "app":
                            series.setdefault("app_emulated_marks", []).append(r["marks"])
                for i in range(runs):
                    for which in ("bare", "app"):
                        r = first_visit(which, False, reload=True)
                        series.setdefault(f"{which}_first_loopback", []).append(r["ms"])
                        series.setdefault(f"{which}_reload_after_first", []).append(r["reload_ms"])
                        if which == "app" and r.get("reload_snapshot") not in ("none", "used"):
                            out["errors"].append(f"reload booted with data-snapshot={r.get('reload_snapshot')}")
                browser.close()
        finally:
            for server, _ in servers.values():
                server.shutdown()
    marks = series.pop("app_emulated_marks", [])
    for key, values in series.items():
        out[key] = stats(values)
    names = sorted({k for m in marks for k in m})
    out["app_emulated_marks"] = {k: stats([m.get(k) for m in marks]) for k in names}
    return out


def _ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0f}"


def _mb(value: float | None) -> str:
    return "n/a" if value is None else f"{value / 1e6:.2f} MB"


def ratio(data: dict[str, Any], app_key: str, bare_key: str) -> float | None:
    a, b = (data.get(app_key) or {}).get("median"), (data.get(bare_key) or {}).get("median")
    return a / b if a and b else None


def report(data: dict[str, Any]) -> str:
    link = data.get("link", LINK)
    lines = [f"First visit from a shared link (issue 19): gzip-encoded as GitHub Pages serves, a new "
             f"Chromium context per run, median of {data.get('runs')} (min–max)"]
    if "error" in data:
        return "\n".join(lines + [f"  n/a — {data['error']}"])

    def row(label: str, key: str, bare_key: str | None = None, goal: float | None = None, fmt=_ms) -> None:
        s = data.get(key) or {}
        if not s.get("n"):
            lines.append(f"  {label:<58} n/a")
            return
        cell = f"{fmt(s['median']):>9}  ({fmt(s['min'])}–{fmt(s['max'])})"
        if bare_key:
            r = ratio(data, key, bare_key)
            if r is not None:
                cell += f"  {r:.2f}× bare"
                if goal is not None:
                    cell += "  meets goal" if r <= goal else f"  MISSES goal ≤{goal:.2f}×"
        lines.append(f"  {label:<58} {cell}")

    mbit = link["downloadThroughput"] * 8 / 1e6
    lines.append(f"  emulated link: {mbit:.0f} Mbit/s, {link['latency']} ms latency (Network.emulateNetworkConditions)")
    row("bare, first visit over the emulated link (ms)", "bare_emulated")
    row("app,  first visit over the emulated link (ms)", "app_emulated", "bare_emulated", GOAL_EMULATED)
    wire = (data.get("app_wire") or {}).get("median")
    row("bare, bytes on the wire up to ready", "bare_wire", fmt=_mb)
    row("app,  bytes on the wire up to ready", "app_wire", "bare_wire", fmt=_mb)
    if wire is not None:
        lines.append(f"  {'':<58} {'meets' if wire <= GOAL_WIRE_MB * 1e6 else 'MISSES'} goal ≤ {GOAL_WIRE_MB:.1f} MB")
    for which in ("bare", "app"):
        total = data.get(f"{which}_wire_total")
        if total is not None:
            made = data.get(f"{which}_snapshot_made")
            lines.append(f"  {which:<4}, first visit incl. background work after ready: {_mb(total)} in "
                         f"{data.get(f'{which}_requests_total')} responses"
                         + (f" (snapshot {made})" if made else ""))
    for which in ("bare", "app"):
        files = data.get(f"{which}_files") or []
        if files:
            lines.append(f"  {which} files up to ready (encoded bytes): " + ", ".join(
                f"{path.rsplit('/', 1)[-1] or '/'} {size / 1e3:.0f} kB" for path, size in files[:8]))
    marks = data.get("app_emulated_marks") or {}
    if marks:
        lines.append("  app boot marks over the emulated link (median ms from navigation start): " + ", ".join(
            f"{k} {_ms(v.get('median'))}" for k, v in sorted(marks.items(), key=lambda kv: kv[1].get("median") or 0)))
    lines.append("  loopback (no emulation):")
    row("bare, first visit (ms)", "bare_first_loopback")
    row("app,  first visit (ms)", "app_first_loopback", "bare_first_loopback")
    row("bare, reload right after the first visit (ms)", "bare_reload_after_first")
    row("app,  reload right after the first visit (ms)", "app_reload_after_first", "bare_reload_after_first",
        GOAL_RELOAD)
    if data.get("errors"):
        lines.append(f"  problems ({len(data['errors'])}, first 5): " + "; ".join(e[:160] for e in data["errors"][:5]))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--build", type=Path, default=ROOT / "build")
    parser.add_argument("--json", type=Path, default=ROOT / "bench-results" / "firstvisit.json")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    load = [round(x, 2) for x in os.getloadavg()]
    data = firstvisit_bench(args.runs, args.build.resolve())
    data["loadavg_start"], data["loadavg_end"] = load, [round(x, 2) for x in os.getloadavg()]
    data["total_s"] = round(time.perf_counter() - started)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(data, indent=1))
    print(report(data))
    print(f"  (load average {data['loadavg_start']} → {data['loadavg_end']}, {data['total_s']} s; JSON in {args.json})")


if __name__ == "__main__":
    main()
