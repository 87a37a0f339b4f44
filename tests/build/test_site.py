"""The site builder (builder/build.py): deterministic output, complete precache, nothing remote.

Runs on CPython only (the builder calls Node to compile bytecode with Pyodide).
"""

from __future__ import annotations

import hashlib
import json
import re
import zipfile
from pathlib import Path

import pytest

from builder.build import PYSCRIPT_BOOT_MODULES, STDLIB_FULL, build, shipped_sources


def digest(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def two_builds(tmp_path_factory):
    first = build(tmp_path_factory.mktemp("one") / "site")
    second = build(tmp_path_factory.mktemp("two") / "site")
    return first, second


def test_same_sources_give_the_same_bytes(two_builds):
    first, second = two_builds
    assert digest(first) == digest(second)


def test_the_service_worker_precaches_every_file_it_serves(two_builds):
    """Every file but the full standard library, which is fetched only by a fallback."""
    site, _ = two_builds
    source = (site / "sw.js").read_text()
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", source, re.S).group(1))
    served = {f"./{name}" for name in digest(site) if name != "sw.js"}
    on_demand = {f"./vendor/pyodide/{STDLIB_FULL}"}
    assert set(precache) == (served - on_demand) | {"./"}
    assert on_demand <= served  # still there for the fallback (and the benchmark's bare page)
    assert json.loads(re.search(r"new Set\((\[.*?\])\.map", source).group(1)) == sorted(on_demand)
    assert re.search(r'const CACHE = "conflict-table-[0-9a-f]{16}"', source)


def test_the_page_names_no_other_origin(two_builds):
    site, _ = two_builds
    page = (site / "index.html").read_text()
    assert not re.search(r"(src|href)=\"(https?:)?//", page)
    assert "Content-Security-Policy" in page
    config = json.loads(re.search(r'<script type="py" config="([^"]+)"', page).group(1).replace("&#34;", '"'))
    assert config["interpreter"].startswith("./") and all(k.startswith("./") for k in config["files"])


def test_the_app_zip_ships_pyodide_bytecode_only(two_builds):
    """Each module as its .pyc alone, in the source's place (no .py beside it, no __pycache__)."""
    site, _ = two_builds
    names = zipfile.ZipFile(site / "app.zip").namelist()
    assert "engine/conflict/__init__.pyc" in names and "web/app.pyc" in names and "web/views/conflict.pyc" in names
    assert not any(n.endswith(".py") for n in names)
    shipped = {str(p.with_suffix(".pyc").as_posix()) for p in shipped_sources() if p.suffix == ".py"}
    assert {n for n in names if n.endswith(".pyc") and not n.startswith("pyscript/")} == shipped
    # PyScript's own package (it writes the sources at start): checked-hash bytecode beside them.
    pyscript = {n for n in names if n.startswith("pyscript/")}
    assert pyscript == {f"pyscript/__pycache__/{m}.cpython-314.pyc" for m in PYSCRIPT_BOOT_MODULES}
    for name in pyscript:
        assert int.from_bytes(zipfile.ZipFile(site / "app.zip").read(name)[4:8], "little") == 0b11
    assert not any(n.startswith("builder/") for n in names)  # the host-side tools never ship (issue 31)
    assert not any(n.endswith(".mjs") or n.startswith("tests/") for n in names)
    lock = json.loads((site / "vendor" / "pyodide" / "pyodide-lock.json").read_text())
    assert lock["packages"] == {} and lock["info"]["python"].startswith("3.14")
    # Pyodide's own bytecode: the magic number of Python 3.14 (3600s), unchecked-hash (PEP 552).
    pyc = zipfile.ZipFile(site / "app.zip").read("engine/game.pyc")
    assert 3600 <= int.from_bytes(pyc[:2], "little") < 3700 and pyc[2:4] == b"\r\n"
    assert int.from_bytes(pyc[4:8], "little") == 0b01  # hash-based, not checked


def test_segno_ships_apart_from_the_app_as_its_wheels_modules(two_builds):
    """The QR library is its own zip (fetched on the first Share), never part of start-up:
    its wheel's modules as bytecode, and its licence."""
    site, _ = two_builds
    app_names = zipfile.ZipFile(site / "app.zip").namelist()
    assert "web/qr.pyc" in app_names and not any(n.startswith("segno/") for n in app_names)
    segno_zip = zipfile.ZipFile(site / "vendor" / "segno.zip")
    names = set(segno_zip.namelist())
    modules = {"__init__", "consts", "encoder", "utils", "writers"}
    assert names == {f"segno/{m}.pyc" for m in modules} | {"segno/LICENSE"}
    import segno

    # The bytecode was compiled from the installed (RECORD-checked) wheel's sources: the
    # names of the functions its encoder defines are in the code object.
    encoder = segno_zip.read("segno/encoder.pyc")
    source = (Path(segno.__file__).parent / "encoder.py").read_text()
    for name in re.findall(r"^def (\w+)\(", source, re.M):
        assert name.encode() in encoder
    assert b"BSD" in segno_zip.read("segno/LICENSE") or b"Redistribution" in segno_zip.read("segno/LICENSE")
    page = (site / "index.html").read_text()
    assert "segno" not in page  # not preloaded, not in PyScript's files


def test_one_compiler_serves_a_whole_build_and_a_broken_source_stops_it_with_its_name(tmp_path):
    """builder/build.py keeps one Pyodide under Node for every directory it compiles (issue 19):
    a second directory goes to the same process; a source that does not compile ends the
    build with a message naming it, and the next compile starts a new process."""
    from builder.build import _COMPILER, compile_bytecode

    good = tmp_path / "good"
    (good / "pkg").mkdir(parents=True)
    (good / "pkg" / "a.py").write_text('"""Doc."""\nX = 1\n')
    compile_bytecode(good, {"sourceless": True})
    process = _COMPILER.process
    assert (good / "pkg" / "a.pyc").exists() and not (good / "pkg" / "a.py").exists()
    again = tmp_path / "again"
    again.mkdir()
    (again / "b.py").write_text("Y = 2\n")
    compile_bytecode(again)
    assert _COMPILER.process is process and process.poll() is None
    assert list((again / "__pycache__").glob("b.cpython-3*.pyc"))
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "bad_module.py").write_text("def (:\n")
    with pytest.raises(SystemExit, match=r"(?s)compiling Python for Pyodide failed: .*bad_module\.py.*SyntaxError"):
        compile_bytecode(broken)
    assert process.poll() is not None  # ended, not left behind
    compile_bytecode(again)
    assert _COMPILER.process is not process and _COMPILER.process.poll() is None


def test_the_cameras_qr_reader_ships_as_its_pinned_package_and_is_precached(two_builds):
    """Issue 32: zxing-wasm's reader (pinned in package.json) in vendor/zxing/, byte for byte
    the package's files, precached for offline pairing, never preloaded; static/wire.js points
    its WebAssembly at that folder, so its default CDN is never asked."""
    from builder.build import NODE, ZXING_FILES

    site, _ = two_builds
    package = json.loads((NODE / "zxing-wasm" / "package.json").read_text())
    assert json.loads((Path(__file__).resolve().parents[2] / "package.json").read_text())[
        "dependencies"]["zxing-wasm"] == package["version"] == "3.1.4"
    for source, name in ZXING_FILES:
        assert (site / "vendor" / "zxing" / name).read_bytes() == (NODE / "zxing-wasm" / source).read_bytes()
    assert (site / "vendor" / "zxing" / "zxing_reader.wasm").read_bytes()[:4] == b"\0asm"
    precache = (site / "sw.js").read_text()
    for name in ("./wire.js", "./vendor/zxing/zxing-reader.js", "./vendor/zxing/zxing_reader.wasm"):
        assert f'"{name}"' in precache
    page = (site / "index.html").read_text()
    assert "zxing" not in page and '<script type="module" src="./wire.js"></script>' in page
    wire = (site / "wire.js").read_text()
    assert "locateFile: (path) => ZXING_DIR + path" in wire and "iceServers: []" in wire
    assert not re.search(r"https?://", wire)
