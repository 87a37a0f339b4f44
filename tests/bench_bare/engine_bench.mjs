// Runs tests/bench.py's engine benchmark on Pyodide's own Python under Node (no browser).
// Usage: node tests/bench_bare/engine_bench.mjs '{"repeats": 7}'
// Prints one line "BENCH-JSON {...}" with the results (plus the Pyodide load time).
import { loadPyodide } from "pyodide";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const options = process.argv[2] || "{}";

const started = performance.now();
const pyodide = await loadPyodide();
const loadMs = performance.now() - started;
pyodide.FS.mkdirTree("/project");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root }, "/project");
pyodide.globals.set("BENCH_OPTIONS", options);
const result = await pyodide.runPythonAsync(`
import json, sys
sys.dont_write_bytecode = True  # leave no __pycache__ for 3.14 in the project
sys.path.insert(0, "/project")
from tests.bench import engine_bench
data = engine_bench(**json.loads(BENCH_OPTIONS))
data["python"] = sys.version.split()[0]
json.dumps(data)
`);
const data = JSON.parse(result);
data.pyodide_load_ms = loadMs;
data.pyodide_version = pyodide.version;
console.log("BENCH-JSON " + JSON.stringify(data));
