"""Which standard-library modules the app imports: ``python -m tests.stdlib_trace``.

Writes ``builder/stdlib-cut.txt``, the list builder/build.py cuts Pyodide's standard library to
(issue 19; docs/ARCHITECTURE.md, Start-up). Not a guess: an import tracer, over

1. **the real app** — a tracing build (``builder.build --trace-imports``: the full library,
   with builder/stdlib_tracer.py as its ``sitecustomize``, reporting every import to the
   test server) under the e2e suite (Chromium) and the WebKit suite: Pyodide's boot,
   PyScript's own Python, the app's every route and table, segno for the QR codes, file
   import (asyncio), the snapshot worker;
2. **the test suites under Pyodide** — the engine and web-layer tests on Pyodide's Python
   under Node (tests/stdlib_trace.mjs): the modules first imported under a frame of
   engine/ or web/ code, those the app's import statements name, and what importing
   those pulls in.

Their union, kept to modules of Pyodide's standard library that are not frozen into the
interpreter (``os``, ``codecs`` …: never read from the zip), is the list. The build reads
the committed list (same list, same zip), adds each module's parent packages and makes
the fallback know the rest, so a module this trace never saw still loads (from the full
library) rather than failing.

``--check`` proves the cut instead: it runs the same suites against the normal build and
reports every request for the full library (a fallback) made by any test but the one that
forces a fallback on purpose. Both hold the browser lock for their whole run:
``/work/bin/browser-lock .venv/bin/python -m tests.stdlib_trace`` (about two suite runs).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
PY = sys.executable
#: The e2e test that makes a fallback on purpose (tests/e2e/test_shell.py).
FALLBACK_TEST = "full_library"


def full_index() -> dict[str, str]:
    from builder.build import NODE, STDLIB_FULL, stdlib_index

    return stdlib_index((NODE / "pyodide" / STDLIB_FULL).read_bytes())


def node_trace() -> dict[str, list[str]]:
    proc = subprocess.run(["node", str(ROOT / "tests" / "stdlib_trace.mjs")], cwd=ROOT,
                          capture_output=True, text=True, timeout=1800)
    for line in proc.stdout.splitlines():
        if line.startswith("STDLIB-TRACE "):
            data = json.loads(line[len("STDLIB-TRACE "):])
            if data["exitCode"] != 0:
                print(f"warning: the test suites failed on Pyodide (exit {data['exitCode']})", file=sys.stderr)
            return data
    raise SystemExit(f"tests/stdlib_trace.mjs failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")


def suites(env: dict[str, str], extra: list[str] = (), webkit: bool = True) -> dict[str, int]:
    """The e2e and WebKit suites against build/, with ``env``; their exit codes."""
    codes = {}
    runs = [("e2e", [PY, "-m", "pytest", "tests/e2e", "-q", "-p", "no:cacheprovider", *extra])]
    if webkit:
        runs.append(("webkit", ["xvfb-run", "-a", PY, "-m", "pytest", "tests/webkit", "-q",
                                "-p", "no:cacheprovider", *extra]))
    for name, command in runs:
        started = time.monotonic()
        print(f"running the {name} suite …", flush=True)
        codes[name] = subprocess.run(command, cwd=ROOT, env={**os.environ, **env}).returncode
        print(f"{name}: exit {codes[name]} in {time.monotonic() - started:.0f} s", flush=True)
    return codes


def browser_trace(webkit: bool = True) -> dict[str, set[str]]:
    """The tracing build under the browser suites: {"boot": …, "later": …} module names."""
    from builder.build import build

    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as log:
        path = Path(log.name)
    try:
        build(BUILD, trace_imports=True)
        suites({"CT_IMPORT_LOG": str(path)}, webkit=webkit)
        return parse_log(path.read_text())
    finally:
        path.unlink(missing_ok=True)
        build(BUILD)  # the normal build again


def parse_log(text: str) -> dict[str, set[str]]:
    """``<phase> <name>`` lines → names by phase; a module seen at boot anywhere is a boot module."""
    phases: dict[str, set[str]] = {"boot": set(), "later": set()}
    for line in text.splitlines():
        phase, _, name = line.strip().partition(" ")
        if name:
            phases.setdefault(phase, set()).add(name)
    phases["later"] -= phases["boot"]
    return phases


def check(webkit: bool = True) -> int:
    """The suites against the cut (``--report-fallbacks``: the fallback names each module it
    loads): no test but the deliberate one may need the full library."""
    from builder.build import STDLIB_FULL, build

    with tempfile.TemporaryDirectory() as tmp:
        requests, imports = Path(tmp) / "requests.log", Path(tmp) / "imports.log"
        requests.touch()
        imports.touch()
        try:
            build(BUILD, report_fallbacks=True)
            codes = suites({"CT_REQUEST_LOG": str(requests), "CT_IMPORT_LOG": str(imports)},
                           ["-k", f"not {FALLBACK_TEST}"], webkit=webkit)
            fetched = [line for line in requests.read_text().splitlines()
                       if line.split("?")[0].endswith(STDLIB_FULL)]
            missed = sorted({line.strip() for line in imports.read_text().splitlines() if line.strip()})
        finally:
            build(BUILD)  # the normal build again
    print(f"suites: {codes}; requests for the full standard library: {len(fetched)}; "
          f"modules the cut missed: {missed or 'none'}")
    return 1 if fetched or missed or any(codes.values()) else 0


def write(boot: set[str], later: set[str], sources: dict[str, int], frozen: list[str]) -> None:
    from builder.build import STDLIB_LIST

    header = [
        "# The standard-library modules the app imports (issue 19). [boot]: imported by the time",
        "# the app is ready (Pyodide's boot, PyScript, the app, the snapshot worker): builder/build.py",
        "# cuts Pyodide's standard library to these and their parent packages",
        "# (python_stdlib_cut.zip). [later]: imported only after that (the Share drawer's QR",
        "# codes, file import …): python_stdlib_later.zip, fetched after ready. Anything else",
        "# loads from the full library on demand (builder/stdlib_fallback.py).",
        "# Made by `python -m tests.stdlib_trace` (an import tracer over the real app under the",
        "# browser suites, and over the engine and web tests on Pyodide's Python); regenerate",
        "# it after adding an import. The line 'frozen:' names the modules frozen into Pyodide's",
        "# interpreter (never read from the zip, so never listed); tests/build reads it.",
        f"# {len(boot)} + {len(later)} modules; " + ", ".join(f"{k}: {v}" for k, v in sources.items()),
        "# frozen: " + " ".join(sorted(frozen)),
    ]
    STDLIB_LIST.write_text("\n".join(header + ["[boot]"] + sorted(boot) + ["", "[later]"] + sorted(later)) + "\n")
    print(f"wrote {STDLIB_LIST.relative_to(ROOT)}: {len(boot)} + {len(later)} modules")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="prove the cut: no fallback in the suites")
    parser.add_argument("--no-browser", action="store_true", help="only the test suites under Node")
    parser.add_argument("--no-webkit", action="store_true", help="the e2e suite only (Chromium)")
    parser.add_argument("--dry-run", action="store_true", help="print the list, do not write it")
    args = parser.parse_args(argv)
    if args.check:
        sys.exit(check(webkit=not args.no_webkit))
    index = full_index()
    node = node_trace()
    frozen = set(node["frozen"])
    found = {key: set(node[key]) & set(index) for key in ("loaded", "direct", "closure")}
    app = {"boot": set(), "later": set()}
    if not args.no_browser:
        app = {phase: names & set(index) for phase, names in browser_trace(webkit=not args.no_webkit).items()}
    boot = app["boot"] - frozen
    later = (set().union(app["later"], *found.values()) - frozen) - boot
    sources = {**{key: len(value) for key, value in found.items()},
               "app at boot": len(app["boot"]), "app later": len(app["later"])}
    if args.dry_run:
        print("[boot]", " ".join(sorted(boot)))
        print("[later]", " ".join(sorted(later)))
        print(sources)
        return
    write(boot, later, sources, sorted(frozen))


if __name__ == "__main__":
    main()
