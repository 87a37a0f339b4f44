// Runs tests/bench_poker.py's poker_bench on Pyodide's own Python under Node (no browser).
// treys (pure Python) is mounted from the project venv when the bench extra installed it.
// Usage: node tests/bench_poker.mjs '{"repeats": 5}'  → one line "BENCH-JSON {...}".
import { loadPyodide } from "pyodide";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readdirSync } from "node:fs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const options = process.argv[2] || "{}";
const venvLib = resolve(root, ".venv", "lib");
let site = null;
try {
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
pyodide.globals.set("BENCH_OPTIONS", options);
const result = await pyodide.runPythonAsync(`
import json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, "/project")
sys.path.append("/site")
from tests.bench_poker import poker_bench
json.dumps(poker_bench(**json.loads(BENCH_OPTIONS)))
`);
const data = JSON.parse(result);
data.pyodide_version = pyodide.version;
console.log("BENCH-JSON " + JSON.stringify(data));
