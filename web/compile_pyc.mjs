// Compiles the app's Python sources to bytecode with Pyodide's own Python (the
// interpreter the browser runs), so the app does not compile them at start-up.
// Usage: node web/compile_pyc.mjs <dir>  — writes __pycache__/*.pyc next to every
// .py file below <dir>. The .pyc files are "unchecked-hash" (PEP 552): valid
// whatever the unpacked files' timestamps are. Called by web/build.py.
import { loadPyodide } from "pyodide";
import { resolve } from "node:path";

const dir = resolve(process.argv[2]);
const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/src");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: dir }, "/src");
const count = pyodide.runPython(`
import pathlib, py_compile
count = 0
for path in sorted(pathlib.Path("/src").rglob("*.py")):
    py_compile.compile(str(path), dfile=str(path.relative_to("/src")), doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    count += 1
count
`);
console.log(`compiled ${count} modules with Python ${pyodide.version}`);
