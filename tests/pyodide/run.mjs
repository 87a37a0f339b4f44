// Runs the engine tests on Pyodide's own Python (3.14) under Node, no browser, so
// nothing drifts between CPython and the interpreter the app really runs on.
// pytest and hypothesis are pure Python: they are mounted from the project venv.
import { loadPyodide } from "pyodide";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readdirSync } from "node:fs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const venvLib = resolve(root, ".venv", "lib");
const site = resolve(venvLib, readdirSync(venvLib).find((d) => d.startsWith("python")), "site-packages");

const started = performance.now();
const pyodide = await loadPyodide({ packageCacheDir: resolve(root, "node_modules", ".pyodide-cache") });
pyodide.FS.mkdirTree("/project");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root }, "/project");
pyodide.FS.mkdirTree("/site");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: site }, "/site");
const code = `
import sys, os
sys.path[:0] = ["/project"]
sys.path.append("/site")
os.chdir("/project")
os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = "/tmp/hypothesis"
# The venv also holds selenium's trio, whose hypothesis plugin cannot import on Pyodide.
os.environ["HYPOTHESIS_NO_PLUGINS"] = "1"
import pytest
print("Pyodide Python", sys.version.split()[0])
# pytest-xdist (the e2e suite's workers) needs subprocesses, which Pyodide has not.
code = pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:playwright", "-p", "no:base_url",
                    "-p", "no:xdist", "-p", "no:xdist.looponfail",
                    "tests/engine", "tests/web"])
int(code)
`;
let exitCode;
try {
  exitCode = await pyodide.runPythonAsync(code);
} catch (error) {
  console.error(error);
  exitCode = 1;
}
console.log(`engine tests on Pyodide finished in ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(exitCode);
