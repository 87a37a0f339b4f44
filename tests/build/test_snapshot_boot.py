"""The builder's side of the start-up snapshot (issue 10): PyScript's interpreter module."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from builder import build


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


def test_the_boot_module_as_built_is_valid_javascript(tmp_path):
    # Comment lines are dropped one by one: a comment over several lines would leave its
    # middle behind as code, and the app would never start (a page's syntax error).
    node = shutil.which("node")
    assert node, "Node.js runs the Pyodide suite and this check"
    module = tmp_path / "boot.mjs"
    module.write_text(build.boot_module(b"app"))
    checked = subprocess.run([node, "--check", str(module)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_a_comment_over_several_lines_is_refused_at_build_time(monkeypatch, tmp_path):
    (tmp_path / build.BOOT_MODULE).write_text('/** one\n * two */\nexport const version = "__PYODIDE_VERSION__";\n')
    monkeypatch.setattr(build, "STATIC", tmp_path)
    with pytest.raises(ValueError, match=r":1: a /\*\* comment must end on its line"):
        build.boot_module(b"app")
