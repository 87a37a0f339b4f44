"""The builder's side of the start-up snapshot (issue 10): PyScript's interpreter module."""

from __future__ import annotations

import json
import re

from web import build


def test_the_snapshot_key_changes_with_the_app_and_only_then():
    one, two = build.snapshot_key(b"app one"), build.snapshot_key(b"app two")
    assert one == build.snapshot_key(b"app one")
    assert one != two


def test_pyscript_loads_pyodide_through_the_boot_module_in_the_pyodide_folder():
    # PyScript takes Pyodide's indexURL from the interpreter module's folder.
    assert build.PYSCRIPT_CONFIG["interpreter"] == "./vendor/pyodide/boot.mjs"
    source = build.boot_module(b"app")
    assert not re.search(r"__[A-Z_]+__", source), "a placeholder was left unfilled"
    assert f'const KEY = "{build.snapshot_key(b"app")}"' in source
    version = json.loads((build.NODE / "pyodide" / "package.json").read_text())["version"]
    assert f'export const version = "{version}"' in source
    lock = json.loads(re.search(r"const LOCK = (\{.*\});", source).group(1))
    assert lock["packages"] == {} and lock["info"]["python"].startswith("3.")
    assert "\n//" not in source and not source.startswith("//")  # comment lines stay home
