// Runs tests/bench_advisor.py grid_bench on Pyodide's own Python under Node (no browser).
// Usage: node tests/bench_advisor.mjs '{"count": 20}' — prints one line "BENCH-JSON {...}".
import { loadPyodide } from "pyodide";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/project");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root }, "/project");
pyodide.globals.set("BENCH_OPTIONS", process.argv[2] || "{}");
const result = await pyodide.runPythonAsync(`
import json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, "/project")
from tests.bench_advisor import grid_bench
json.dumps({"results": grid_bench(**json.loads(BENCH_OPTIONS)), "python": sys.version.split()[0]})
`);
console.log("BENCH-JSON " + result);
