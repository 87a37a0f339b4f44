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
    """Every file but the on-demand ones (the full standard library, fetched only by a
    fallback; the camera's QR reader; PyScript's unused chunks), kept once fetched."""
    site, _ = two_builds
    source = (site / "sw.js").read_text()
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", source, re.S).group(1))
    served = {f"./{name}" for name in digest(site) if name != "sw.js"}
    on_demand = set(json.loads(re.search(r"new Set\((\[.*?\])\.map", source).group(1)))
    assert f"./vendor/pyodide/{STDLIB_FULL}" in on_demand
    assert set(precache) == (served - on_demand) | {"./"}
    assert on_demand <= served  # still there for the fallback (and the benchmark's bare page)
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


def precache_and_on_demand(site: Path) -> tuple[list[str], list[str]]:
    source = (site / "sw.js").read_text()
    return (json.loads(re.search(r"const PRECACHE = (\[.*?\]);", source, re.S).group(1)),
            json.loads(re.search(r"new Set\((\[.*?\])\.map", source).group(1)))


def test_the_cameras_qr_reader_ships_as_its_pinned_package_on_demand(two_builds):
    """Issue 32: zxing-wasm's reader (pinned in package.json) in vendor/zxing/, byte for byte
    the package's files, never preloaded; static/wire.js points its WebAssembly at that folder,
    so its default CDN is never asked. Issue 31 (the first visit's bytes do not grow): it is
    served on demand, not precached (about 425 KB gzip); wire.js fetches it when the phones'
    drawer opens (prefetchReader), and the service worker keeps it for offline scans."""
    from builder.build import NODE, ZXING_FILES

    site, _ = two_builds
    package = json.loads((NODE / "zxing-wasm" / "package.json").read_text())
    assert json.loads((Path(__file__).resolve().parents[2] / "package.json").read_text())[
        "dependencies"]["zxing-wasm"] == package["version"] == "3.1.4"
    for source, name in ZXING_FILES:
        assert (site / "vendor" / "zxing" / name).read_bytes() == (NODE / "zxing-wasm" / source).read_bytes()
    assert (site / "vendor" / "zxing" / "zxing_reader.wasm").read_bytes()[:4] == b"\0asm"
    precache, on_demand = precache_and_on_demand(site)
    assert "./wire.js" in precache
    for name in ("./vendor/zxing/zxing-reader.js", "./vendor/zxing/zxing_reader.wasm"):
        assert name in on_demand and name not in precache
    assert not any("zxing" in name and "LICENSE" not in name for name in precache)
    page = (site / "index.html").read_text()
    assert "zxing" not in page and '<script type="module" src="./wire.js"></script>' in page
    wire = (site / "wire.js").read_text()
    assert "locateFile: (path) => ZXING_DIR + path" in wire and "iceServers: []" in wire
    assert 'ZXING_DIR + "zxing_reader.wasm"' in wire and "async prefetchReader()" in wire
    assert not re.search(r"https?://", wire)


def test_pyscripts_unused_chunks_are_served_but_not_precached(two_builds):
    """Issue 31: the code editor, the terminal, MicroPython, TOML and PyScript's other chunks
    the app never loads are not in a first visit (about 325 KB gzip); every chunk a boot
    fetches is precached (a boot offline needs each: tests/e2e/test_shell.py's offline reload)."""
    from builder.build import pyscript_chunk

    site, _ = two_builds
    precache, on_demand = precache_and_on_demand(site)
    chunks = {pyscript_chunk(p.name): f"./vendor/pyscript/{p.name}" for p in (site / "vendor" / "pyscript").iterdir()}
    for boot in ("core", "error", "donkey", "deprecations-manager", "py-editor", "py-game", "py-terminal"):
        assert chunks[boot] in precache and chunks[boot] not in on_demand
    for unused in ("codemirror_view", "codemirror_state", "xterm", "xterm-readline", "zip", "toml", "mpy", "py"):
        assert chunks[unused] in on_demand and chunks[unused] not in precache
    assert sum(n.startswith("./vendor/pyscript/") for n in on_demand) >= 15


def test_shipped_bytecode_has_no_column_tables(two_builds):
    """Issue 31: the .pyc files carry line numbers but no column ranges (PYTHONNODEBUGRANGES in
    builder/compile_pyc.mjs): a traceback in "Copy details" keeps file, function and line, the
    bytecode is smaller. Read back with Pyodide's own marshal (Python 3.14) under Node."""
    import subprocess

    from builder.build import ROOT

    site, _ = two_builds
    pyc = site.parent / "game.pyc"
    pyc.write_bytes(zipfile.ZipFile(site / "app.zip").read("engine/game.pyc"))
    script = f"""
import {{ loadPyodide }} from "pyodide";
const py = await loadPyodide();
py.FS.writeFile("/game.pyc", new Uint8Array(await (await import("node:fs/promises")).readFile({json.dumps(str(pyc))})));
console.log(py.runPython(`
import marshal
def walk(c):
    yield c
    for k in c.co_consts:
        if hasattr(k, "co_positions"):
            yield from walk(k)
code = marshal.loads(open("/game.pyc", "rb").read()[16:])
pos = [p for c in walk(code) for p in c.co_positions()]
str([len(pos), sum(p[0] is not None for p in pos), sum(p[2] is not None or p[3] is not None for p in pos), code.co_filename])
`));
"""
    out = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=True).stdout.strip().splitlines()[-1]
    positions, with_line, with_column, filename = eval(out)  # noqa: S307 (our own literal)
    assert positions > 1000 and with_line > positions // 2  # line numbers kept
    assert with_column == 0  # no column ranges
    assert filename.endswith("engine/game.py")
