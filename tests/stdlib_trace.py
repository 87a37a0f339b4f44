"""Which standard-library modules the app imports: ``python -m tests.stdlib_trace``.

Writes ``web/stdlib-cut.txt``, the list web/build.py cuts Pyodide's standard library to
(issue 19; docs/ARCHITECTURE.md, Start-up). Not a guess: an import tracer, over

1. **the real app** — a tracing build (``web.build --trace-imports``: the full library,
   with web/stdlib_tracer.py as its ``sitecustomize``, reporting every import to the
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
    from web.build import NODE, STDLIB_FULL, stdlib_index

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


def suites(env: dict[str, str], extra: list[str] = ()) -> dict[str, int]:
    """The e2e and WebKit suites against build/, with ``env``; their exit codes."""
    codes = {}
    for name, command in (("e2e", [PY, "-m", "pytest", "tests/e2e", "-q", "-p", "no:cacheprovider", *extra]),
                          ("webkit", ["xvfb-run", "-a", PY, "-m", "pytest", "tests/webkit", "-q",
                                      "-p", "no:cacheprovider", *extra])):
        started = time.monotonic()
        print(f"running the {name} suite …", flush=True)
        codes[name] = subprocess.run(command, cwd=ROOT, env={**os.environ, **env}).returncode
        print(f"{name}: exit {codes[name]} in {time.monotonic() - started:.0f} s", flush=True)
    return codes


def browser_trace() -> set[str]:
    from web.build import build

    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as log:
        path = Path(log.name)
    try:
        build(BUILD, trace_imports=True)
        suites({"CT_IMPORT_LOG": str(path)})
        return {line.strip() for line in path.read_text().splitlines() if line.strip()}
    finally:
        path.unlink(missing_ok=True)
        build(BUILD)  # the normal build again


def check() -> int:
    """The suites against the cut build: no test but the deliberate one may need the full library."""
    from web.build import STDLIB_FULL, build

    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as log:
        path = Path(log.name)
    try:
        build(BUILD)
        codes = suites({"CT_REQUEST_LOG": str(path)}, ["-k", f"not {FALLBACK_TEST}"])
        fallbacks = [line for line in path.read_text().splitlines() if line.split("?")[0].endswith(STDLIB_FULL)]
    finally:
        path.unlink(missing_ok=True)
    print(f"suites: {codes}; requests for the full standard library: {len(fallbacks)}")
    return 1 if fallbacks or any(codes.values()) else 0


def write(names: set[str], sources: dict[str, int]) -> None:
    from web.build import STDLIB_LIST

    header = [
        "# The standard-library modules the app imports (issue 19): web/build.py cuts Pyodide's",
        "# standard library to these (plus their parent packages); anything else loads from the",
        "# full library on demand (web/stdlib_fallback.py). Made by `python -m tests.stdlib_trace`",
        "# (an import tracer over the real app under the e2e and WebKit suites, and over the",
        "# engine and web tests on Pyodide's Python); regenerate it after adding an import.",
        f"# {len(names)} modules; " + ", ".join(f"{k}: {v}" for k, v in sources.items()),
    ]
    STDLIB_LIST.write_text("\n".join(header + sorted(names)) + "\n")
    print(f"wrote {STDLIB_LIST.relative_to(ROOT)}: {len(names)} modules")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="prove the cut: no fallback in the suites")
    parser.add_argument("--no-browser", action="store_true", help="only the test suites under Node")
    parser.add_argument("--dry-run", action="store_true", help="print the list, do not write it")
    args = parser.parse_args(argv)
    if args.check:
        sys.exit(check())
    index = full_index()
    node = node_trace()
    found: dict[str, set[str]] = {key: set(node[key]) & set(index) for key in ("loaded", "direct", "closure")}
    if not args.no_browser:
        found["app"] = browser_trace() & set(index)
    names = set().union(*found.values()) - set(node["frozen"])
    sources = {key: len(value) for key, value in found.items()}
    if args.dry_run:
        print("\n".join(sorted(names)))
        print(sources)
        return
    write(names, sources)


if __name__ == "__main__":
    main()
