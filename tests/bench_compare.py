"""Before and after, side by side: ``python -m tests.bench_compare --base DIR [--base DIR …]``.

Issue 31's "what must not change": start-up time does not grow (boot and repeat-visit rows
within 3 % of before) and the first visit's bytes do not grow. This bench puts the current
build (``--build``, default ``build/``) beside one or more other builds of the site (an older
commit built by its own builder into its own directory, e.g.
``git worktree add /tmp/base-34abfc6 34abfc6`` then that tree's builder with ``--out``), and
prints each row with the ratio new/old. ``make bench BENCH_BASE=DIR`` runs it.

Rows:

- **first-visit bytes** (exact, no browser): every file a first visit downloads — the page
  and what the service worker precaches (its PRECACHE list; on-demand files are not counted)
  — raw and gzip-compressed at level 6 (about what a static host sends), with the largest
  groups (vendor/pyodide, vendor/zxing, app.zip …) apart.
- **boot** (Chromium, a new browser context per run, service workers allowed, ``?snapshot=off``
  as tests/bench.py's cold row): navigation start to ``html[data-ready]``.
- **repeat visit** (the service worker controls the tab, then ``page.reload()``, snapshot off
  as tests/bench.py's SW row).

The builds are measured interleaved — one run of each in turn, round after round — so the
machine's load (shared, noted with the load average) hits them alike; the ratio is what counts.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import statistics
import tempfile
from pathlib import Path
from typing import Any

from tests.bench import READY_JS, ROOT, _counting_server, _stage

GZIP_LEVEL = 6


def precache_list(site: Path) -> list[str]:
    """The files a first visit fetches: the service worker's precache list (its own file too)."""
    source = (site / "sw.js").read_text()
    match = re.search(r"const PRECACHE = (\[.*?\]);", source, re.S)
    if not match:
        raise SystemExit(f"{site}/sw.js has no PRECACHE list")
    names = {"index.html" if n in ("./", "./index.html") else n.removeprefix("./") for n in json.loads(match.group(1))}
    names.add("sw.js")
    return sorted(names)


def first_visit_bytes(site: Path) -> dict[str, Any]:
    """Raw and gzip bytes of a first visit's files, in total and by group."""
    groups: dict[str, list[int]] = {}
    total = [0, 0, 0]
    for name in precache_list(site):
        data = (site / name).read_bytes()
        packed = len(gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0))
        parts = name.split("/")
        group = "/".join(parts[:2]) if parts[0] == "vendor" and len(parts) > 2 else (
            name if name == "app.zip" else "other")
        g = groups.setdefault(group, [0, 0, 0])
        for acc in (g, total):
            acc[0] += 1
            acc[1] += len(data)
            acc[2] += packed
    return {"files": total[0], "raw": total[1], "gzip": total[2],
            "groups": {k: {"files": v[0], "raw": v[1], "gzip": v[2]} for k, v in sorted(groups.items())}}


def browser_rows(sites: dict[str, Path], runs: int, timeout_ms: float = 120_000) -> dict[str, Any]:
    """Boot and repeat-visit ready times of every site, interleaved, in Debian's Chromium."""
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM, CHROMIUM_FLAGS, TABLET_LANDSCAPE

    out: dict[str, Any] = {"errors": [], "boot": {k: [] for k in sites}, "repeat": {k: [] for k in sites}}
    with tempfile.TemporaryDirectory(prefix="ct-compare-") as tmp:
        servers = {}
        for label, site in sites.items():
            staged = Path(tmp) / label
            _stage(site, staged)
            servers[label] = _counting_server(staged)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)

                def context():
                    return browser.new_context(viewport=TABLET_LANDSCAPE, device_scale_factor=1,
                                               service_workers="allow")

                def ready(page) -> float:
                    return float(page.wait_for_function(READY_JS, polling="raf", timeout=timeout_ms).json_value())

                def watch(page, label: str) -> None:
                    page.on("pageerror", lambda e: out["errors"].append(f"{label}: {e}"))

                def boot(label: str) -> float:
                    ctx = context()
                    try:
                        page = ctx.new_page()
                        watch(page, label)
                        page.goto(servers[label][1] + "?snapshot=off", wait_until="commit")
                        return ready(page)
                    finally:
                        ctx.close()

                for label in sites:  # warm-up, not counted
                    boot(label)
                for _ in range(runs):
                    for label in sites:
                        out["boot"][label].append(boot(label))
                tabs = {}
                for label in sites:
                    ctx = context()
                    page = ctx.new_page()
                    watch(page, label)
                    page.goto(servers[label][1] + "?snapshot=off", wait_until="commit")
                    ready(page)
                    page.wait_for_function("() => Boolean(navigator.serviceWorker.controller)", timeout=timeout_ms)
                    tabs[label] = (ctx, page)
                for _ in range(runs):
                    for label, (_, page) in tabs.items():
                        page.reload(wait_until="commit")
                        out["repeat"][label].append(ready(page))
                for ctx, _ in tabs.values():
                    ctx.close()
                browser.close()
        finally:
            for server, _ in servers.values():
                server.shutdown()
    return out


def report(data: dict[str, Any]) -> str:
    labels = list(data["sites"])
    new = labels[0]
    lines = [f"== Before and after, side by side (load average {data.get('loadavg')}) =="]
    lines.append(f"{'':<30}" + "".join(f"{label[-14:]:>15}" for label in labels) + "  " +
                 "".join(f"{'new/' + label[-7:]:>15}" for label in labels[1:]))

    def row(name: str, values: dict[str, float | None], fmt) -> None:
        cells = "".join(f"{fmt(values.get(label)):>15}" for label in labels)
        ratios = "".join(f"{(values[new] / values[label]) if values.get(label) else float('nan'):>15.3f}"
                         for label in labels[1:])
        lines.append(f"{name:<30}{cells}  {ratios}")

    def kb(v):
        return "-" if v is None else f"{v:,}"

    bytes_ = data["bytes"]
    row("first visit, gzip B", {k: bytes_[k]["gzip"] for k in labels}, kb)
    row("first visit, raw B", {k: bytes_[k]["raw"] for k in labels}, kb)
    row("first visit, files", {k: bytes_[k]["files"] for k in labels}, lambda v: str(v))
    groups = sorted({g for k in labels for g in bytes_[k]["groups"]})
    for g in groups:
        row(f"  {g}, gzip", {k: bytes_[k]["groups"].get(g, {}).get("gzip") for k in labels}, kb)
    for key, name in (("boot", "boot (cold, ms, median)"), ("repeat", "repeat visit (SW, ms, median)")):
        if key in data:
            row(name, {k: statistics.median(data[key][k]) if data[key][k] else None for k in labels},
                lambda v: "-" if v is None else f"{v:.0f}")
            lines.append("   runs: " + "; ".join(f"{k}: {[round(v) for v in data[key][k]]}" for k in labels))
    if data.get("errors"):
        lines.append(f"page errors: {data['errors'][:5]}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", type=Path, default=ROOT / "build", help="the new build (default build/)")
    parser.add_argument("--base", type=Path, action="append", required=True,
                        help="an older build to compare with (repeatable)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-browser", action="store_true", help="bytes only")
    parser.add_argument("--json", type=Path, default=ROOT / "bench-results" / "compare.json")
    args = parser.parse_args(argv)
    sites = {"new": args.build, **{p.name: p for p in args.base}}
    for site in sites.values():
        if not (site / "index.html").exists():
            raise SystemExit(f"{site} has no index.html: build it first")
    data: dict[str, Any] = {"sites": {k: str(v) for k, v in sites.items()},
                            "loadavg": [round(x, 2) for x in os.getloadavg()],
                            "bytes": {k: first_visit_bytes(v) for k, v in sites.items()}}
    if not args.no_browser:
        data.update(browser_rows(sites, args.runs))
        data["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
    args.json.parent.mkdir(exist_ok=True)
    args.json.write_text(json.dumps(data, indent=1))
    print(report(data))


if __name__ == "__main__":
    main()
