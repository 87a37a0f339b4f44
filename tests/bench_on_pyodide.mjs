// Runs one bench function of this project on Pyodide's own Python under Node (no browser).
// Usage: node tests/bench_on_pyodide.mjs tests.bench_zerosum zerosum_bench '{"count": 20}'
// prints one line "BENCH-JSON {...}": {"results": <what the function returned>, "python": …,
// "pyodide_version": …}. The project is mounted at /project; the venv's site-packages (pure
// Python bench extras such as treys) at /site when it exists. See tests/bench_on_pyodide.py.
import { loadPyodide } from "pyodide";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readdirSync } from "node:fs";

const [module, func, options = "{}"] = process.argv.slice(2);
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
let site = null;
try {
  const venvLib = resolve(root, ".venv", "lib");
  site = resolve(venvLib, readdirSync(venvLib).find((d) => d.startsWith("python")), "site-packages");
} catch {
  site = null;
}
const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/project");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root }, "/project");
if (site) {
  pyodide.FS.mkdirTree("/site");
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: site }, "/site");
}
pyodide.globals.set("BENCH_MODULE", module);
pyodide.globals.set("BENCH_FUNCTION", func);
pyodide.globals.set("BENCH_OPTIONS", options);
const result = await pyodide.runPythonAsync(`
import importlib, json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, "/project")
sys.path.append("/site")
bench = getattr(importlib.import_module(BENCH_MODULE), BENCH_FUNCTION)
json.dumps({"results": bench(**json.loads(BENCH_OPTIONS)), "python": sys.version.split()[0]})
`);
const data = JSON.parse(result);
data.pyodide_version = pyodide.version;
console.log("BENCH-JSON " + JSON.stringify(data));
