// Benchmark baseline (tests/bench.py): plain Pyodide from the same vendored files the
// app ships (build/vendor/pyodide/), no PyScript, no app code, no service worker.
// Sets the same ready marker as the app once Python has run.
import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";

const pyodide = await loadPyodide({ indexURL: new URL("./vendor/pyodide/", import.meta.url).href });
pyodide.runPython("import sys\nsys.version");
performance.mark("ct:ready"); // as the app does: WebKit's benchmark reads this mark
document.documentElement.dataset.ready = "true";
