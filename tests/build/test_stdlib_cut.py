"""The standard library cut to what the app imports (issue 19; builder/build.py, builder/stdlib_fallback.py).

What the cut holds (the traced list of builder/stdlib-cut.txt, their packages, the fallback,
as bytecode), that every import of the shipped code is in it, and the safety net: a
module the cut left out loads from the full library instead of failing.
"""

from __future__ import annotations

import ast
import io
import sys
import zipfile
from pathlib import Path

import pytest

from builder import build, stdlib_fallback

FULL = (build.NODE / "pyodide" / build.STDLIB_FULL).read_bytes()
INDEX = build.stdlib_index(FULL)
LISTED = build.listed_modules()
CHOSEN = build.cut_modules(INDEX, LISTED)


def frozen_modules() -> set[str]:
    """Frozen into Pyodide's interpreter (never read from the zip): written into the list by
    tests/stdlib_trace.py from Pyodide's own ``_imp._frozen_module_names()``."""
    for line in build.STDLIB_LIST.read_text().splitlines():
        if line.startswith("# frozen:"):
            return set(line.split(":", 1)[1].split())
    raise AssertionError("builder/stdlib-cut.txt lacks its '# frozen:' line (tests/stdlib_trace.py writes it)")


@pytest.fixture(scope="module")
def cut() -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(build.stdlib_cut()))


def test_the_list_is_sorted_unique_and_names_real_unfrozen_modules():
    assert LISTED == sorted(set(LISTED))
    assert set(LISTED) <= set(INDEX)
    assert not set(LISTED) & frozen_modules()
    # Pyodide's boot, PyScript and the app need these at least.
    assert {"asyncio", "json", "dataclasses", "enum", "random", "re", "typing", "encodings.utf_8",
            "pyodide.ffi", "_pyodide._base"} <= set(LISTED)


def test_the_cut_holds_the_listed_modules_their_packages_and_the_fallback_as_bytecode(cut):
    names = set(cut.namelist())
    assert names == {INDEX[m] + "c" for m in CHOSEN} | {"sitecustomize.pyc"}
    assert "encodings/__init__.pyc" in names and "asyncio/__init__.pyc" in names
    assert "email/__init__.pyc" not in names and "unittest/__init__.pyc" not in names
    assert "encodings/cp1252.pyc" not in names  # encodings: only the codecs the app uses
    # Smaller on the wire than the full library, bytecode and all.
    assert sum(i.compress_size for i in cut.infolist()) < 0.5 * len(FULL)
    # The code objects name the file as Pyodide's own zip would (tracebacks).
    assert b"/lib/python314.zip/json/decoder.py" in cut.read("json/decoder.pyc")


def test_the_fallback_knows_exactly_what_the_cut_leaves_out():
    source = build.fallback_module(INDEX, CHOSEN).decode()
    head, tail = source.split("# Written by builder/build.py: what the cut leaves out.")
    assert head.startswith(build.STDLIB_FALLBACK.read_text())
    assert tail.strip().endswith("install()")
    data: dict = {}
    exec(tail.replace("install()", ""), data)
    assert data["MISSING"] == frozenset(set(INDEX) - CHOSEN)
    assert data["PACKAGES"] == {m for m in data["MISSING"] if INDEX[m].endswith("/__init__.py")}
    assert {"email", "unittest", "email.mime", "encodings.cp1252"} <= data["MISSING"]
    assert "email.mime" in data["PACKAGES"] and "encodings.cp1252" not in data["PACKAGES"]


#: Imports in shipped code that never run in the app (the fallback would load them).
NEVER_IMPORTED_HERE = {"ctypes": "segno/writers.py: its Windows console writer, never called in a browser",
                       "webbrowser": "segno/__init__.py: QRCode.show() opens a desktop browser, never called"}


def _imports(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_every_standard_library_import_of_the_shipped_code_is_in_the_cut():
    """A new import in engine/, web/ or segno's shipped modules must be traced again
    (``python -m tests.stdlib_trace``): the fallback would save the game, this says so first.
    In the boot cut or the later zip (``[later]``: imported after the first render)."""
    import segno

    files = [build.ROOT / rel for rel in build.shipped_sources() if rel.suffix == ".py"]
    files += [Path(segno.__file__).parent / name for name in build.SEGNO_MODULES]
    needed = {}
    for path in files:
        for name in _imports(ast.parse(path.read_bytes())):
            if name in INDEX:
                needed.setdefault(name, path.name)
    later = build.later_modules(INDEX, CHOSEN)
    left_out = {name: where for name, where in needed.items()
                if name not in CHOSEN | later | frozen_modules() | set(NEVER_IMPORTED_HERE)}
    assert left_out == {}
    assert {"json", "random", "dataclasses", "asyncio"} <= set(needed)


# --------------------------------------------------------------------------- the safety net

@pytest.fixture
def full_library(tmp_path, monkeypatch):
    """A stand-in for the full library (modules the "cut" lacks) and a finder that fetches it."""
    fake = io.BytesIO()
    with zipfile.ZipFile(fake, "w") as zf:
        zf.writestr("ctfake_mod.py", "VALUE = 41 + 1\n")
        zf.writestr("ctfake_pkg/__init__.py", "from . import sub\n")
        zf.writestr("ctfake_pkg/sub.py", "def where():\n    return __name__\n")
        zf.writestr("ctfake_pkg/inner/__init__.py", "")
        zf.writestr("ctfake_pkg/inner/deep.py", "DEEP = True\n")
    fetched = []

    def fetch(url):
        fetched.append(url)
        return fake.getvalue()

    monkeypatch.setattr(stdlib_fallback, "MISSING", frozenset(
        {"ctfake_mod", "ctfake_pkg", "ctfake_pkg.sub", "ctfake_pkg.inner", "ctfake_pkg.inner.deep"}))
    monkeypatch.setattr(stdlib_fallback, "PACKAGES", frozenset({"ctfake_pkg", "ctfake_pkg.inner"}))
    monkeypatch.setattr(stdlib_fallback, "FULL_PATH", str(tmp_path / "full.zip"))
    monkeypatch.setattr(stdlib_fallback, "fallbacks", [])
    finder = stdlib_fallback.StdlibFallback(fetch)
    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, finder])
    yield fetched
    for name in [n for n in sys.modules if n.startswith("ctfake_")]:
        del sys.modules[name]


def test_a_module_the_cut_left_out_loads_from_the_full_library(full_library):
    import importlib

    import ctfake_mod

    assert ctfake_mod.VALUE == 42
    assert ctfake_mod.__file__.endswith("full.zip/ctfake_mod.py")
    deep = importlib.import_module("ctfake_pkg.inner.deep")
    assert deep.DEEP is True
    import ctfake_pkg

    assert ctfake_pkg.sub.where() == "ctfake_pkg.sub"
    assert deep.__file__.endswith("full.zip/ctfake_pkg/inner/deep.py")
    assert full_library == [stdlib_fallback.FULL_URL]  # fetched once, for all of them
    # The finder answered for the two top-level names; the package's submodules were then
    # found through its __path__, inside the full library.
    assert stdlib_fallback.fallbacks == ["ctfake_mod", "ctfake_pkg"]


def test_a_probe_does_not_fetch_the_full_library_and_other_modules_are_not_its_business(full_library):
    import importlib.util

    assert importlib.util.find_spec("ctfake_mod") is not None
    assert full_library == []
    with pytest.raises(ModuleNotFoundError):
        import ctfake_not_in_the_library  # noqa: F401
    assert full_library == []


def test_a_failed_fetch_is_an_import_error_that_says_why(tmp_path, monkeypatch):
    def refuse(url):
        raise ImportError(f"the full standard library could not be loaded ({url}: HTTP 404)")

    monkeypatch.setattr(stdlib_fallback, "MISSING", frozenset({"ctfake_gone"}))
    monkeypatch.setattr(stdlib_fallback, "FULL_PATH", str(tmp_path / "full.zip"))
    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, stdlib_fallback.StdlibFallback(refuse)])
    with pytest.raises(ImportError, match="HTTP 404"):
        import ctfake_gone  # noqa: F401
    assert "ctfake_gone" not in sys.modules


def test_the_snapshot_key_covers_the_standard_library():
    assert build.snapshot_key(b"app", b"one cut") != build.snapshot_key(b"app", b"another cut")
    assert f"{build.STDLIB_CUT}" in build.boot_module(b"app", b"cut")
