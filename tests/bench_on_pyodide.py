"""Run a bench function on Pyodide's own Python under Node: the one runner every bench's
Pyodide row uses (``tests/bench_on_pyodide.mjs``)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def on_pyodide(module: str, function: str, options: dict[str, Any], timeout: float = 900) -> dict[str, Any]:
    """``module.function(**options)`` on Pyodide: ``{"results": …, "python": …,
    "pyodide_version": …}``, or ``{"error": …}`` when that is not possible."""
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "pyodide").exists():
        return {"error": "node or node_modules/pyodide missing (make deps)"}
    try:
        proc = subprocess.run([node, str(ROOT / "tests" / "bench_on_pyodide.mjs"), module, function,
                               json.dumps(options)], cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as err:
        return {"error": str(err)}
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH-JSON "):
            return json.loads(line[len("BENCH-JSON "):])
    return {"error": (proc.stderr or proc.stdout).strip()[-500:] or f"exit {proc.returncode}"}
