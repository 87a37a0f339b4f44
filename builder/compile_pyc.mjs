// Compiles Python sources to bytecode with Pyodide's own Python (the interpreter the
// browser runs), so the browser does not compile them at start-up. Called by builder/build.py.
//
// Usage: node builder/compile_pyc.mjs   (builder/build.py keeps one such process for a whole build:
// one Pyodide start for every directory it compiles)
//   Each line on stdin is a job, {"dir": "<dir>", "options": {...}}; each gets one line on
//   stdout, {"compiled": N} or {"error": "..."}. The process ends when stdin closes.
// Options (each optional):
//   {"sourceless": true}       write foo.pyc in place of every foo.py (the .py is removed:
//                              only bytecode ships); otherwise __pycache__/foo.cpython-3XX.pyc
//                              beside the source
//   {"docstrings": false}      drop docstrings (as `python -OO` does; assertions stay)
//   {"prefix": "/lib/x.zip/"}  the file name recorded in the code objects (tracebacks) is
//                              prefix + the path below <dir>
//   {"lines": false}           drop the line tables (co_linetable): a traceback through this
//                              code names file and function, without a line number (the
//                              standard library's tiers: 17 % fewer bytes on the wire)
//   {"checked": true}          "checked-hash" .pyc (PEP 552): used only while the source
//                              beside it has the very hash compiled (for sources someone
//                              else writes at run time: PyScript's own package)
// Otherwise the .pyc files are "unchecked-hash" (PEP 552): valid whatever the unpacked
// files' times are. Column ranges are left out (PYTHONNODEBUGRANGES): tracebacks keep file and line,
// without the ^^^ markers under the failing expression; the bytecode is smaller.
import { loadPyodide } from "pyodide";
import { resolve } from "node:path";
import { createInterface } from "node:readline";

const DEFAULTS = { sourceless: false, docstrings: true, prefix: "", checked: false, lines: true };
const pyodide = await loadPyodide({ env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.runPython(`
import ast, importlib.util, os, pathlib
from importlib._bootstrap_external import _code_to_hash_pyc

def strip_docstrings(tree):
    """The tree without its docstrings (line numbers of everything else unchanged)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \\
                    and isinstance(body[0].value.value, str):
                doc = body.pop(0)
                if not body:
                    body.append(ast.copy_location(ast.Pass(), doc))
    return tree

def strip_lines(code):
    """The code object (and those nested in it) without its line table."""
    consts = tuple(strip_lines(c) if isinstance(c, type(code)) else c for c in code.co_consts)
    return code.replace(co_linetable=b"", co_consts=consts)

def compile_dir(options):
    """Compiles every .py under /src as \`\`options\`\` say; returns how many."""
    count = 0
    for path in sorted(pathlib.Path("/src").rglob("*.py")):
        rel = path.relative_to("/src").as_posix()
        source = path.read_bytes()
        tree = ast.parse(source, filename=rel)
        if not options["docstrings"]:
            tree = strip_docstrings(tree)
        code = compile(tree, options["prefix"] + rel, "exec", dont_inherit=True)
        if not options["lines"]:
            code = strip_lines(code)
        data = _code_to_hash_pyc(code, importlib.util.source_hash(source), options["checked"])
        if options["sourceless"]:
            target = path.with_suffix(".pyc")
            path.unlink()
        else:
            target = pathlib.Path(importlib.util.cache_from_source(str(path)))
            target.parent.mkdir(exist_ok=True)
        target.write_bytes(bytes(data))
        count += 1
    return count
`);
const compileDir = pyodide.globals.get("compile_dir");

function compile(dir, options) {
  const settings = pyodide.toPy({ ...DEFAULTS, ...options });
  pyodide.FS.mkdirTree("/src");
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: resolve(dir) }, "/src");
  try {
    return compileDir(settings);
  } finally {
    pyodide.FS.unmount("/src");
    settings.destroy();
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  let answer;
  try {
    const job = JSON.parse(line);
    answer = { compiled: compile(job.dir, job.options || {}) };
  } catch (error) {
    answer = { error: String(error && error.message || error) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
