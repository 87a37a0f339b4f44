"""The house plan's drawing holds (issue 31): what the modules of ``engine/`` and ``web/``
import when they are imported.

- no import circle: a module never needs, while it is being imported, a module that needs it;
- no arrow back up: a module inside a package never imports that package's face
  (``__init__.py``), which imports the package's modules;
- private names stay inside their package: no module imports a ``_name`` of another package;
- the four systems stand apart: a system's package imports the kernel, never another system.

Read from the source with ``ast`` (module-level imports only: an import inside a function
runs when it is called, after every module is there).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ("conflict", "campaign", "consim", "ascension")


def project_modules() -> dict[str, tuple[Path, bool]]:
    """Every module of engine/ and web/ by dotted name: its file and whether it is a package."""
    found = {}
    for top in ("engine", "web"):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            package = parts[-1] == "__init__"
            found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


MODULES = project_modules()


def absolute(module: str, package: bool, name: str, level: int) -> str:
    if not level:
        return name
    base = module.split(".") if package else module.split(".")[:-1]
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def owner(name: str) -> str:
    """The project module that ``name`` (a module or a name in one) belongs to, or ''."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def imports(module: str) -> list[tuple[str, str | None]]:
    """(module imported, name taken from it or None) for each module-level import of ``module``."""
    path, package = MODULES[module]
    out: list[tuple[str, str | None]] = []
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Import):
            out += [(owner(alias.name), None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = absolute(module, package, node.module or "", node.level)
            for alias in node.names:
                whole = f"{base}.{alias.name}"
                out.append((whole, None) if whole in MODULES else (owner(base), alias.name))
    return [(target, name) for target, name in out if target and target != module]


GRAPH = {module: imports(module) for module in MODULES}


def test_the_drawing_reads_every_module():
    assert "engine.game" in MODULES and "engine.ascension.odds" in MODULES and "web.views.consim.entry" in MODULES
    assert any(target.startswith("engine.ascension.") for target, _ in GRAPH["engine.ascension.odds"])
    assert ("web.views.consim.draft", "ticks_for") in GRAPH["web.views.consim.entry"]


def test_no_import_circle():
    edges = {module: {target for target, _ in found} for module, found in GRAPH.items()}
    circles = []
    state: dict[str, int] = {}  # 1: being visited, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(edges[module]):
            if state.get(target) == 1:
                circles.append(path[path.index(target):] + [target])
            elif target not in state:
                visit(target, path + [target])
        state[module] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])
    assert circles == []


def test_no_arrow_back_up():
    back = [(module, target) for module, found in GRAPH.items() for target, _ in found
            if not MODULES[module][1] and module.startswith(target + ".")]
    assert back == []


def test_private_names_stay_in_their_package():
    def package(module: str) -> str:
        return module if MODULES[module][1] else module.rpartition(".")[0]

    reached = [(module, target, name) for module, found in GRAPH.items() for target, name in found
               if name and name.startswith("_") and not name.startswith("__")
               and package(module) != package(target)]
    assert reached == []


def test_the_systems_stand_apart():
    crossing = [(module, target) for module, found in GRAPH.items() if module.startswith("engine.")
                for target, _ in found
                for system in SYSTEMS if module.startswith(f"engine.{system}") and target.startswith("engine.")
                and target.split(".")[1] in SYSTEMS and target.split(".")[1] != system]
    assert crossing == []
