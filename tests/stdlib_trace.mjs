// The test-suite half of the standard-library trace (tests/stdlib_trace.py): runs the
// engine and web-layer tests on Pyodide's own Python under Node (as tests/pyodide/run.mjs
// does) with an import tracer, and prints the standard-library modules the app's code
// needs, as one JSON line "STDLIB-TRACE {...}":
//   "loaded"  modules first imported while a frame of engine/ or web/ code was running
//             (whatever imported them: the app's own import statements, a stdlib module the
//             app called, importlib.import_module …);
//   "direct"  every module an import statement in engine/ or web/ code named (also those
//             pytest had imported before);
//   "closure" what importing each "direct" module pulls in, in a fresh interpreter;
//   "frozen"  the modules frozen into the interpreter (never read from the zip).
import { loadPyodide } from "pyodide";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readdirSync } from "node:fs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const venvLib = resolve(root, ".venv", "lib");
const site = resolve(venvLib, readdirSync(venvLib).find((d) => d.startsWith("python")), "site-packages");

const TRACER = `
import builtins, sys
APP = ("engine", "web")
loaded, direct = set(), set()

def app_frame(frame):
    while frame is not None:
        if str(frame.f_globals.get("__name__", "")).split(".")[0] in APP:
            return True
        frame = frame.f_back
    return False

def hook(event, args):
    if event == "import" and app_frame(sys._getframe(1)):
        loaded.add(args[0])

real_import = builtins.__import__

def traced_import(name, globals=None, locals=None, fromlist=(), level=0):
    module = real_import(name, globals, locals, fromlist, level)
    caller = str((globals or {}).get("__name__", ""))
    if level == 0 and caller.split(".")[0] in APP:
        direct.add(name)
        for item in fromlist or ():
            if f"{name}.{item}" in sys.modules:
                direct.add(f"{name}.{item}")
    return module

sys.addaudithook(hook)
builtins.__import__ = traced_import
`;

async function pyodideWithProject() {
  const pyodide = await loadPyodide({ packageCacheDir: resolve(root, "node_modules", ".pyodide-cache") });
  pyodide.FS.mkdirTree("/project");
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root }, "/project");
  pyodide.FS.mkdirTree("/site");
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: site }, "/site");
  return pyodide;
}

const pyodide = await pyodideWithProject();
pyodide.runPython(TRACER);
const code = `
import sys, os
sys.path[:0] = ["/project"]
sys.path.append("/site")
os.chdir("/project")
os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = "/tmp/hypothesis"
os.environ["HYPOTHESIS_NO_PLUGINS"] = "1"
import pytest
exit_code = int(pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:playwright", "-p", "no:base_url",
                             "tests/engine", "tests/web"]))
exit_code
`;
const exitCode = await pyodide.runPythonAsync(code);
const loaded = pyodide.runPython("sorted(loaded)").toJs();
const direct = pyodide.runPython("sorted(direct)").toJs();

// The import-time closure of the direct imports, in a fresh interpreter.
const fresh = await pyodideWithProject();
fresh.globals.set("names", fresh.toPy(direct));
const closure = fresh.runPython(`
import importlib, sys
before = set(sys.modules)
for name in names:
    if name.split(".")[0] in ("engine", "web", "js", "pyodide_js"):
        continue
    try:
        importlib.import_module(name)
    except ImportError:
        pass
sorted(set(sys.modules) - before)
`).toJs();
// Frozen modules (os, codecs, importlib.util …) come from the interpreter, never from the zip.
const frozen = fresh.runPython("import _imp; sorted(_imp._frozen_module_names())").toJs();
console.log("STDLIB-TRACE " + JSON.stringify({ exitCode, loaded, direct, closure, frozen }));
process.exit(0);
