"""The site builder: sources → ``build/``, exactly what a static host serves.

``python -m builder.build [--out build]`` renders the Jinja2 templates, copies the few
runtime files the app needs from the npm packages (Pyodide, PyScript), ships the
Python code (``engine/`` and the browser UI) as one zip of bytecode, cuts Pyodide's
standard library down to the modules the app imports (``builder/stdlib-cut.txt``; bytecode
too, with the full library kept beside it as a fallback), writes the web manifest and
icons, and writes a service worker whose cache name and precache list come from the
content hashes of every file it serves. Same sources → same bytes.
"""

from __future__ import annotations

import argparse
import atexit
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from engine import conflict
from engine.registry import TABLES

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "builder" / "templates"
STATIC = ROOT / "static"
NODE = ROOT / "node_modules"

#: The Pyodide runtime files a pure-Python app requests (PLATFORM.md).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
#: Python packages shipped to the browser inside app.zip: every ``.py`` under them ships,
#: and nothing else does (the host-side tools live in builder/, issue 31).
APP_PACKAGES = ("engine", "web")
#: Pyodide's full standard library (2.5 MB of sources): kept in build/ for the fallback
#: (builder/stdlib_fallback.py) and the benchmark's bare page, not loaded by the app.
STDLIB_FULL = "python_stdlib.zip"
#: The standard library the app loads (``stdLibURL``): the modules of STDLIB_LIST's
#: ``[boot]`` part, their parent packages and the fallback finder (as ``sitecustomize``),
#: as bytecode.
STDLIB_CUT = "python_stdlib_cut.zip"
#: The modules imported only after the first render (STDLIB_LIST's ``[later]`` part: the
#: Share drawer's QR codes, file import …), as bytecode: fetched after ready, at a quiet
#: moment, and precached; the fallback finder loads them from it.
STDLIB_LATER = "python_stdlib_later.zip"
#: The standard-library modules the app imports: made by ``python -m tests.stdlib_trace``
#: (an import tracer over the real app and the test suites under Pyodide), committed.
STDLIB_LIST = ROOT / "builder" / "stdlib-cut.txt"
STDLIB_FALLBACK = ROOT / "builder" / "stdlib_fallback.py"
#: ``--trace-imports``: the full library with this import tracer as its sitecustomize.
STDLIB_TRACER = ROOT / "builder" / "stdlib_tracer.py"
#: How the shipped Python is compiled (builder/compile_pyc.mjs): bytecode only, no docstrings
#: (assertions stay; tracebacks keep file and line from the code objects).
APP_BYTECODE = {"sourceless": True, "docstrings": False}
#: The standard library's tiers: as the app, and without line tables (17 % fewer bytes;
#: a traceback names a standard-library frame's file and function, not its line).
STDLIB_BYTECODE = {**APP_BYTECODE, "lines": False}
#: The modules of PyScript's own package that it imports at every start (traced: the
#: others are imported only on demand): they get precompiled bytecode in app.zip.
PYSCRIPT_BOOT_MODULES = ("__init__", "context", "display", "events", "fetch", "ffi", "flatted", "storage",
                         "util", "websocket", "workers")
#: segno, the QR code library of the Share drawer (web/qr.py): shipped as its own zip,
#: fetched by the browser only when a Share drawer first opens. Its version is the one
#: pinned in pyproject.toml; the modules it needs (not its command line or helpers).
SEGNO_MODULES = ("__init__.py", "consts.py", "encoder.py", "utils.py", "writers.py")
#: zxing-wasm's QR reader (issue 32; the choice measured in docs/PLATFORM-seats.md): the IIFE
#: script (global ``ZXingWASM``), its WebAssembly and licence, as (file in the package, name in
#: vendor/zxing/).
ZXING_FILES = (("dist/iife/reader/index.js", "zxing-reader.js"),
               ("dist/reader/zxing_reader.wasm", "zxing_reader.wasm"), ("LICENSE", "LICENSE"))
#: Fixed zip timestamp: deterministic output.
ZIP_TIME = (2024, 1, 1, 0, 0, 0)

#: The strictest policy under which Pyodide and PyScript run: only this origin,
#: no inline scripts. Pyodide's Emscripten loader evaluates its EM_ASM/EM_JS glue
#: with ``eval`` at start-up, so 'unsafe-eval' is required (checked: without it
#: Pyodide never starts); 'wasm-unsafe-eval' alone is not enough.
CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
])

#: Start-up from a memory snapshot (issue 10): PyScript's interpreter module is a small
#: wrapper of Pyodide's loader (static/pyodide-boot.mjs, written into the Pyodide folder
#: because PyScript takes indexURL from there), and a module worker makes the snapshot.
BOOT_MODULE = "pyodide-boot.mjs"
SNAPSHOT_WORKER = "snapshot-worker.mjs"
#: Files of static/ that are templates, written by the builder rather than copied.
TEMPLATED = {"sw.js", BOOT_MODULE}
#: The style sheet is written in parts (static/css/NN-part.css: the shared base, then one
#: part per table or feature); the page loads one file, their concatenation in name order.
CSS_PARTS = STATIC / "css"

#: PyScript's configuration, inline in the page (one request fewer before Python
#: starts): the vendored Pyodide, our code as one zip unpacked into the working
#: directory, and none of PyScript's optional plugins (editor, terminal, game …),
#: which it would otherwise fetch before starting the interpreter. Its "error"
#: plugin is off too: it prints Python tracebacks (and all of stderr) into the page,
#: and a player must never see one (web/app.py shows the app's own message).
PYSCRIPT_CONFIG = {
    "interpreter": "./vendor/pyodide/boot.mjs",
    "files": {"./app.zip": "./*"},
    "plugins": ["!codemirror", "!deprecations-manager", "!donkey", "!error", "!py-editor", "!py-game",
                "!py-terminal"],
}

#: The home page's tiles: every table of the registry (engine.registry).
TOOLS = tuple({"route": table.route, "title": table.title, "short": table.short, "symbol": table.symbol,
               "built": True, "blurb": table.blurb} for table in TABLES)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write(path: Path, data: bytes | str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)


def shipped_sources() -> list[Path]:
    """The Python files (and data files) that run in the browser, relative to the root."""
    files = []
    for package in APP_PACKAGES:
        for path in sorted((ROOT / package).rglob("*")):
            rel = path.relative_to(ROOT)
            if not path.is_file() or "__pycache__" in rel.parts:
                continue
            if path.suffix == ".py":
                files.append(rel)
            elif "data" in rel.parts[1:2]:
                files.append(rel)
    return files


class _Compiler:
    """One Pyodide under Node (``builder/compile_pyc.mjs``) for every directory a
    build compiles (a Pyodide start is ~2–4 s of a core: a build compiles five
    directories, and the test suite builds the site twice). Started at the first
    compile; it ends when its stdin closes: at exit, or after a compile that failed."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        atexit.register(self.close)

    def compile(self, staging: Path, options: dict) -> int:
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                ["node", str(ROOT / "builder" / "compile_pyc.mjs")], cwd=ROOT, text=True,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.process.stdin.write(json.dumps({"dir": str(staging), "options": options}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        answer = json.loads(line) if line.startswith("{") else {"error": line or "Node ended"}
        if "compiled" not in answer:
            self.close()
            sys.exit(f"compiling Python for Pyodide failed: {answer['error']}")
        return answer["compiled"]

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait()
        self.process = None


_COMPILER = _Compiler()


def compile_bytecode(staging: Path, options: dict | None = None) -> None:
    """Bytecode for Pyodide's Python, made by Pyodide itself under Node (builder/compile_pyc.mjs).

    The browser then imports the code without compiling its source at start-up.
    ``options`` go to compile_pyc.mjs (``sourceless``, ``docstrings``, ``prefix``).
    """
    _COMPILER.compile(staging, options or {})


def _zip_dir(files: dict[str, bytes], bytecode: dict | bool) -> bytes:
    """``files`` (relative name → bytes) as one deterministic zip, compiled to Pyodide bytecode
    when asked (``bytecode``: compile_pyc.mjs options, or True for the default ones)."""
    with tempfile.TemporaryDirectory() as tmp:
        staging = Path(tmp)
        for name, data in files.items():
            write(staging / name, data)
        if bytecode:
            compile_bytecode(staging, bytecode if isinstance(bytecode, dict) else None)
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
            for path in sorted(p for p in staging.rglob("*") if p.is_file()):
                info = zipfile.ZipInfo(path.relative_to(staging).as_posix(), ZIP_TIME)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                zf.writestr(info, path.read_bytes())
        return buf.getvalue()


def pyscript_sources() -> dict[str, bytes]:
    """PyScript's own Python package, as its core chunk writes it at every start
    (``pyscript/__init__.py`` … into the working directory, then ``import pyscript``).

    Read from the vendored chunk (a ``{pyscript:{"name.py":"source",…}}`` literal); an
    empty dict if this PyScript release is laid out otherwise (nothing is then precompiled).
    """
    dist = NODE / "@pyscript" / "core" / "dist"
    for chunk in sorted(dist.glob("core-*.js")):
        text = chunk.read_text()
        start = text.find("{pyscript:{")
        if start < 0:
            continue
        files, at = {}, start + len("{pyscript:{")
        entry = re.compile(r'"([a-z_]+\.py)":("(?:[^"\\]|\\.)*")(,|\})')
        while (match := entry.match(text, at)) is not None:  # one "name.py":"source" after another
            try:
                files[f"pyscript/{match[1]}"] = json.loads(match[2]).encode("utf-8")
            except ValueError:
                return {}
            at = match.end()
            if match[3] == "}":
                break
        return files
    return {}


def pyscript_bytecode() -> dict[str, bytes]:
    """``pyscript/__pycache__/*.pyc`` for PyScript's own package, checked-hash (PEP 552):
    Python uses each only while the source PyScript writes has the hash compiled, so the
    browser does not compile PyScript's ~30 KB of Python at every start (a snapshot boot
    included: that package is imported by the page, never in the snapshot)."""
    sources = {name: data for name, data in pyscript_sources().items()
               if name[len("pyscript/"):-3] in PYSCRIPT_BOOT_MODULES}
    if not sources:
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        staging = Path(tmp)
        for name, data in sources.items():
            write(staging / name, data)
        compile_bytecode(staging, {"checked": True})
        return {p.relative_to(staging).as_posix(): p.read_bytes()
                for p in sorted(staging.rglob("*.pyc"))}


def app_zip(bytecode: bool = True) -> bytes:
    """engine/ and the browser UI as one deterministic zip (PyScript unpacks it).

    With ``bytecode`` (the default), each module ships as its ``.pyc`` alone (APP_BYTECODE),
    in the source's place, and PyScript's package gets its checked-hash bytecode
    (:func:`pyscript_bytecode`); without, as source.
    """
    files = {rel.as_posix(): (ROOT / rel).read_bytes() for rel in shipped_sources()}
    if bytecode:
        files.update(pyscript_bytecode())
    return _zip_dir(files, APP_BYTECODE if bytecode else False)


def pinned_version(name: str) -> str:
    """The version of ``name`` pinned (``name==x.y.z``) in pyproject.toml's optional dependencies."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = {req.split("==")[1] for group in project.get("optional-dependencies", {}).values()
            for req in group if req.split("==")[0].strip().lower() == name}
    if len(pins) != 1:
        sys.exit(f"pyproject.toml must pin {name} to one version (name==x.y.z), found {sorted(pins)}")
    return pins.pop()


def segno_files() -> dict[str, bytes]:
    """segno's modules and licence, exactly as in its wheel.

    Read from the installed distribution (pip installed it from the pinned wheel); each
    file is checked against the wheel's RECORD hash and the version against the pin.
    """
    import base64
    from importlib import metadata

    pinned = pinned_version("segno")
    try:
        dist = metadata.distribution("segno")
    except metadata.PackageNotFoundError:
        sys.exit(f"segno {pinned} is not installed: run `make deps`")
    if dist.version != pinned:
        sys.exit(f"segno {dist.version} is installed but pyproject.toml pins {pinned}: run `make deps`")
    wanted = {f"segno/{name}": f"segno/{name}" for name in SEGNO_MODULES}
    files: dict[str, bytes] = {}
    for record in dist.files or ():
        path = record.as_posix()
        if path in wanted:
            target = wanted[path]
        elif path.endswith(".dist-info/licenses/LICENSE") or path.endswith(".dist-info/LICENSE"):
            target = "segno/LICENSE"
        else:
            continue
        data = record.read_binary()
        if record.hash is None or record.hash.mode != "sha256":
            sys.exit(f"segno's RECORD has no sha256 for {path}")
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).decode().rstrip("=")
        if digest != record.hash.value:
            sys.exit(f"segno's installed {path} differs from its wheel: reinstall it (`make deps`)")
        files[target] = data
    missing = sorted(set(wanted.values()) - set(files))
    if missing:
        sys.exit(f"segno {pinned} lacks {missing}")
    return files


def segno_zip(bytecode: bool = True) -> bytes:
    """segno as its own zip (``vendor/segno.zip``), unpacked by web/qr.py when first needed:
    bytecode only, as the app (and its licence)."""
    return _zip_dir(segno_files(), APP_BYTECODE if bytecode else False)


# --------------------------------------------------------------------------- the standard library

def stdlib_index(full: bytes) -> dict[str, str]:
    """Module name → file in Pyodide's standard-library zip (its sources)."""
    index = {}
    for name in zipfile.ZipFile(io.BytesIO(full)).namelist():
        if not name.endswith(".py") or name.startswith("site-packages/"):
            continue
        parts = name[:-3].split("/")
        if parts[-1] == "__init__":
            parts.pop()
        index[".".join(parts)] = name
    return index


def listed_modules(part: str = "boot", path: Path = STDLIB_LIST) -> list[str]:
    """The modules of ``builder/stdlib-cut.txt``'s ``[boot]`` or ``[later]`` part (one a line;
    ``#`` starts a comment)."""
    parts: dict[str, list[str]] = {}
    current = None
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            current = parts.setdefault(line[1:-1], [])
        elif line and current is not None:
            current.append(line)
    return parts.get(part, [])


def cut_modules(index: dict[str, str], listed: list[str]) -> set[str]:
    """The listed modules and every package above them (importing ``a.b`` runs ``a``)."""
    unknown = sorted(set(listed) - set(index))
    if unknown:
        sys.exit(f"{STDLIB_LIST.name} names modules Pyodide's standard library lacks: {unknown}")
    chosen = set()
    for name in listed:
        parts = name.split(".")
        chosen.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return chosen


def later_modules(index: dict[str, str], chosen: set[str]) -> set[str]:
    """The ``[later]`` modules (and their packages) that the boot cut does not hold."""
    return cut_modules(index, listed_modules("later")) - chosen


def fallback_module(index: dict[str, str], chosen: set[str], report: bool = False) -> bytes:
    """``sitecustomize.py`` of the cut: builder/stdlib_fallback.py, told what the cut leaves out
    and which of that is in the later zip (``report``: and to post each fallback to the
    test server, for tests/stdlib_trace.py)."""
    missing = sorted(set(index) - chosen)
    later = sorted(later_modules(index, chosen))
    packages = sorted(name for name in missing if index[name].endswith("/__init__.py"))
    return (STDLIB_FALLBACK.read_text()
            + "\n\n# Written by builder/build.py: what the cut leaves out.\n"
            # one string a set (fewer bytes on the wire than a tuple of strings)
            + f"MISSING = frozenset({' '.join(missing)!r}.split())\n"
            + f"LATER = frozenset({' '.join(later)!r}.split())\n"
            + f"PACKAGES = frozenset({' '.join(packages)!r}.split())\n"
            + ("REPORT = True\n" if report else "")
            + "install()\n").encode()


def stdlib_prefix() -> str:
    """Where Pyodide puts its standard-library zip (``/lib/python3XX.zip/``): code objects' file names."""
    major, minor = json.loads((NODE / "pyodide" / "pyodide-lock.json").read_text())["info"]["python"].split(".")[:2]
    return f"/lib/python{major}{minor}.zip/"


def stdlib_cut(listed: list[str] | None = None, sitecustomize: bytes | None = None,
               report: bool = False) -> bytes:
    """The standard library the app loads: the listed modules (and their packages) and the
    fallback finder as ``sitecustomize``, compiled to bytecode without docstrings.

    ``listed`` None means ``builder/stdlib-cut.txt``; ``sitecustomize`` replaces the fallback
    (the import tracer of ``--trace-imports``).
    """
    full = (NODE / "pyodide" / STDLIB_FULL).read_bytes()
    index = stdlib_index(full)
    chosen = cut_modules(index, listed_modules() if listed is None else listed)
    source = zipfile.ZipFile(io.BytesIO(full))
    files = {index[name]: source.read(index[name]) for name in sorted(chosen)}
    files["sitecustomize.py"] = (sitecustomize if sitecustomize is not None
                                 else fallback_module(index, chosen, report))
    return _zip_dir(files, {**STDLIB_BYTECODE, "prefix": stdlib_prefix()})


def stdlib_later() -> bytes:
    """The later zip: the ``[later]`` modules the boot cut does not hold, as bytecode."""
    full = (NODE / "pyodide" / STDLIB_FULL).read_bytes()
    index = stdlib_index(full)
    later = later_modules(index, cut_modules(index, listed_modules()))
    source = zipfile.ZipFile(io.BytesIO(full))
    files = {index[name]: source.read(index[name]) for name in sorted(later)}
    return _zip_dir(files, {**STDLIB_BYTECODE, "prefix": stdlib_prefix()})


def lock_stub() -> bytes:
    """Pyodide always fetches its lock file; ours lists no packages (pure-Python app)."""
    lock = json.loads((NODE / "pyodide" / "pyodide-lock.json").read_text())
    return json.dumps({"info": lock["info"], "packages": {}}, sort_keys=True).encode()


def copy_vendor(out: Path) -> None:
    pyodide = NODE / "pyodide"
    if not pyodide.is_dir():
        sys.exit("node_modules/pyodide is missing: run `npm ci` (make does this for you)")
    for name in PYODIDE_FILES:
        write(out / "vendor" / "pyodide" / name, (pyodide / name).read_bytes())
    write(out / "vendor" / "pyodide" / "pyodide-lock.json", lock_stub())
    # The camera's QR reader where the browser has no BarcodeDetector (Safari, Firefox; issue 32):
    # zxing-wasm's reader, pinned in package.json, loaded by static/wire.js only when a tablet
    # scans a phone's code; on demand (ZXING_ON_DEMAND): cached when first needed, then offline too.
    zxing = NODE / "zxing-wasm"
    if not zxing.is_dir():
        sys.exit("node_modules/zxing-wasm is missing: run `npm ci` (make does this for you)")
    for source, name in ZXING_FILES:
        write(out / "vendor" / "zxing" / name, (zxing / source).read_bytes())
    dist = NODE / "@pyscript" / "core" / "dist"
    for path in sorted(dist.rglob("*")):
        if path.is_file() and not path.name.endswith(".map"):
            write(out / "vendor" / "pyscript" / path.relative_to(dist), path.read_bytes())


def snapshot_key(app: bytes, stdlib: bytes = b"") -> str:
    """What a stored memory snapshot must match: the Pyodide build, the app, the standard
    library the app loads (the cut), the snapshot code.

    A snapshot from another version is never used (the browser is added at run time).
    """
    digest = hashlib.sha256()
    parts = [(NODE / "pyodide" / name).read_bytes() for name in PYODIDE_FILES]
    parts += [app, stdlib, (STATIC / SNAPSHOT_WORKER).read_bytes(), (STATIC / BOOT_MODULE).read_bytes()]
    for part in parts:
        digest.update(sha(part).encode())
    return digest.hexdigest()[:24]


def boot_module(app: bytes, stdlib: bytes = b"") -> str:
    """PyScript's interpreter module: Pyodide's loader with the cut standard library,
    restoring this device's snapshot.

    It is on the critical path of every start: its comment lines are dropped, and it
    carries Pyodide's lock stub inline (one request fewer).
    """
    version = json.loads((NODE / "pyodide" / "package.json").read_text())["version"]
    source = (STATIC / BOOT_MODULE).read_text()
    for number, line in enumerate(source.splitlines(), 1):
        if line.lstrip().startswith("/**") and not line.rstrip().endswith("*/"):
            raise ValueError(f"{BOOT_MODULE}:{number}: a /** comment must end on its line "
                             "(comment lines are dropped one by one): use // lines")
    source = "\n".join(line for line in source.splitlines()
                       if not line.lstrip().startswith(("//", "/**"))) + "\n"
    return (source.replace("__PYODIDE_VERSION__", version)
            .replace("__SNAPSHOT_KEY__", snapshot_key(app, stdlib))
            .replace("__STDLIB_CUT__", STDLIB_CUT)
            .replace("__STDLIB_LATER__", STDLIB_LATER)
            .replace("__PYODIDE_LOCK__", lock_stub().decode()))


def style_sheet() -> bytes:
    """``style.css``: the parts of ``static/css/`` in name order (base first); every
    table's own part (engine.registry) must be there."""
    parts = sorted(CSS_PARTS.glob("*.css"))
    missing = [t.stylesheet for t in TABLES if not (CSS_PARTS / t.stylesheet).is_file()]
    if missing:
        raise SystemExit(f"build: the style sheet parts of {', '.join(missing)} are missing from {CSS_PARTS}")
    return b"".join(path.read_bytes() for path in parts)


def icon_png(size: int, maskable: bool = False) -> bytes:
    """The app icon drawn in pure Python: a card with a diamond pip on a dark field."""
    import struct
    import zlib

    bg = (0x1D, 0x3B, 0x2F)
    card = (0xF7, 0xF3, 0xE8)
    pip = (0xC0, 0x2B, 0x2B)
    pad = 0.18 if maskable else 0.10
    rows = []
    for y in range(size):
        row = bytearray([0])
        v = (y + 0.5) / size
        for x in range(size):
            u = (x + 0.5) / size
            colour = bg
            cx0, cx1 = 0.5 - (0.5 - pad) * 0.72, 0.5 + (0.5 - pad) * 0.72
            cy0, cy1 = pad, 1 - pad
            if cx0 <= u <= cx1 and cy0 <= v <= cy1:
                colour = card
                if abs(u - 0.5) / 0.17 + abs(v - 0.5) / 0.25 <= 1:
                    colour = pip
            row.extend(colour)
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


def manifest() -> str:
    return json.dumps({
        "name": "Conflict Table",
        "short_name": "Conflict Table",
        "description": "Deals, checks, rolls, tracks and remembers for four tabletop conflict systems.",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "orientation": "any",
        "background_color": "#f4f1e8",
        "theme_color": "#1d3b2f",
        "icons": [
            {"src": "icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {"src": "icons/maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
        ],
    }, indent=2)


def battle_matrices() -> dict:
    """The Ascension Isle result tables (AI-10, AI-11) and matchups (AI-13) for the prerendered
    matrices, from the engine's one copy of them (engine/ascension_tables.py)."""
    from engine.ascension import HOUSE_RULES, cell_effect
    from engine.ascension import tables as t

    def kind(text: str) -> str:
        effect = cell_effect(text)
        if effect.withdraw is not None:
            return "withdraw-ok" if effect.withdraw else "withdraw-fail"
        return "casualties" if effect.casualties else "none"

    maneuvers = [{"key": m, "name": t.MANEUVER_NAMES[m]} for m in t.MANEUVERS]
    tiers = []
    for tier in t.TIERS:
        fallback = tier not in t.SOURCE_TABLES
        table = t.SOURCE_TABLES[t.FALLBACK[tier] if fallback else tier]
        rows = [{"key": own, "name": t.MANEUVER_NAMES[own],
                 "cells": [{"other": other, "text": table[own][other], "kind": kind(table[own][other])}
                           for other in t.MANEUVERS]} for own in t.MANEUVERS]
        tiers.append({"key": tier, "name": t.TIER_NAMES[tier], "margins": t.TIER_MARGINS[tier],
                      "fallback": fallback, "rows": rows})
    matchups = [{"key": own, "name": t.MANEUVER_NAMES[own], "cells": [t.matchup(own, o) for o in t.MANEUVERS]}
                for own in t.MANEUVERS]
    return {"maneuvers": maneuvers, "tiers": tiers, "matchups": matchups, "fallback_note": t.FALLBACK_NOTE,
            "house_rules": list(HOUSE_RULES.items())}


def render_pages(out: Path) -> None:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html", "j2"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    chunks = sorted(p.name for p in (out / "vendor" / "pyscript").glob("core-*.js"))
    page = env.get_template("index.html.j2").render(
        tools=TOOLS, csp=CSP, pyscript_config=json.dumps(PYSCRIPT_CONFIG, separators=(",", ":")),
        pyscript_chunks=chunks, stdlib=f"./vendor/pyodide/{STDLIB_CUT}", scenario_choices=conflict.SCENARIO_CHOICES, battle=battle_matrices())
    write(out / "index.html", page)


#: Served but not precached: the full standard library is the cut's fallback, needed only
#: if the cut missed a module (the e2e suites prove it does not, in every path they take).
#: Precaching it would add 2.5 MB to every first visit; the service worker keeps it once a
#: fallback fetched it, so a device that needed it once has it offline too.
ON_DEMAND = (f"vendor/pyodide/{STDLIB_FULL}",)
#: The camera's QR reader (about 425 KB gzip, issue 32) is on demand too: it is needed only
#: on a tablet without BarcodeDetector that scans a phone's code, so a first visit does not
#: download it; static/wire.js fetches it (into the cache, for offline use) when the
#: "Players' phones…" drawer first opens online, and at the first tap on "Scan the phone's code".
ZXING_ON_DEMAND = tuple(f"vendor/zxing/{name}" for _, name in ZXING_FILES if name != "LICENSE")
#: PyScript's chunks that the app never loads (measured: a boot, cold, reload or from a
#: snapshot, fetches only core, error, donkey, deprecations-manager and the py-editor,
#: py-game and py-terminal custom elements): the code editor (codemirror), the terminal
#: (xterm), MicroPython, TOML config, its zip reader, its storage module, its worker and
#: graph helpers. Served (a PyScript release that did load one still works online) but not
#: precached: about 325 KB gzip less on every first visit. Names without their content hash.
PYSCRIPT_UNUSED = ("codemirror", "xterm", "zip", "toml", "index", "mpy", "py", "pyodide_graph", "storage",
                   "service-worker")


def pyscript_chunk(name: str) -> str:
    """A vendored PyScript file's name without its content hash and extension
    ("codemirror_lang-python-r-dBg-Wd.js" → "codemirror_lang-python")."""
    stem = re.sub(r"\.(m?js|css)$", "", name)
    return re.sub(r"-[A-Za-z0-9_-]{8}$", "", stem) if re.search(r"-[A-Za-z0-9_-]{8}$", stem) else stem


def on_demand(files: list[str]) -> list[str]:
    """The served files a first visit does not download (the service worker keeps each once
    fetched): the full standard library, the camera's QR reader, PyScript's unused chunks."""
    unused = [name for name in files if name.startswith("vendor/pyscript/")
              and (pyscript_chunk(name.rsplit("/", 1)[1]) in PYSCRIPT_UNUSED
                   or pyscript_chunk(name.rsplit("/", 1)[1]).startswith(("codemirror", "xterm")))]
    return [*ON_DEMAND, *ZXING_ON_DEMAND, *unused]


def service_worker(out: Path) -> None:
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0" + sha((out / name).read_bytes()).encode())
    version = digest.hexdigest()[:16]
    lazy = on_demand(files)
    precache = (["./"] + [f"./{name}" for name in files if name != "index.html" and name not in lazy]
                + ["./index.html"])
    source = (STATIC / "sw.js").read_text()
    source = (source.replace("__CACHE_VERSION__", version)
              .replace("__PRECACHE__", json.dumps(precache, indent=1))
              .replace("__ON_DEMAND__", json.dumps([f"./{name}" for name in lazy])))
    write(out / "sw.js", source)


def build(out: Path, trace_imports: bool = False, report_fallbacks: bool = False) -> Path:
    """The site in ``out``. For tests/stdlib_trace.py only (never deployed): ``trace_imports``,
    the full standard library, whose sitecustomize reports every import; ``report_fallbacks``,
    the cut, whose fallback also reports each module it had to load."""
    started = time.perf_counter()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    copy_vendor(out)
    app = app_zip()
    write(out / "app.zip", app)
    write(out / "vendor" / "segno.zip", segno_zip())
    if trace_imports:
        full = stdlib_index((NODE / "pyodide" / STDLIB_FULL).read_bytes())
        stdlib = stdlib_cut(sorted(full), STDLIB_TRACER.read_bytes())
    else:
        stdlib = stdlib_cut(report=report_fallbacks)
    write(out / "vendor" / "pyodide" / STDLIB_CUT, stdlib)
    write(out / "vendor" / "pyodide" / STDLIB_LATER, stdlib_later())
    write(out / "vendor" / "pyodide" / "boot.mjs", boot_module(app, stdlib))
    for path in sorted(STATIC.rglob("*")):
        if path.is_file() and path.name not in TEMPLATED and CSS_PARTS not in path.parents:
            write(out / path.relative_to(STATIC), path.read_bytes())
    write(out / "style.css", style_sheet())
    write(out / "icons" / "icon-192.png", icon_png(192))
    write(out / "icons" / "icon-512.png", icon_png(512))
    write(out / "icons" / "maskable-512.png", icon_png(512, maskable=True))
    write(out / "manifest.webmanifest", manifest())
    render_pages(out)
    service_worker(out)
    print(f"built {out} in {time.perf_counter() - started:.2f}s")
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build")
    parser.add_argument("--trace-imports", action="store_true",
                        help="a tracing build for tests/stdlib_trace.py (never deploy it)")
    parser.add_argument("--report-fallbacks", action="store_true",
                        help="the cut, reporting each fallback to the test server (never deploy it)")
    args = parser.parse_args(argv)
    build(args.out.resolve(), trace_imports=args.trace_imports, report_fallbacks=args.report_fallbacks)


if __name__ == "__main__":
    main()
