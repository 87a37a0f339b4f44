// Makes this device's Pyodide memory snapshot (issue 10; docs/ARCHITECTURE.md, Start-up).
// Started by vendor/pyodide/boot.mjs at an idle moment after the first ready, in its own
// thread so the table stays responsive. It boots a plain Pyodide with `_makeSnapshot`,
// unpacks app.zip where PyScript will unpack it, imports every app module that does not
// need the browser page at import time, and stores the heap in Cache Storage under the
// key of this app version + Pyodide build + browser. Every failure is silent: the app
// then simply keeps booting the normal way.
//
// It loads the same standard library as the page (the cut, `stdLibURL`): the snapshot's
// heap holds that zip's directory, so the page must restore with the very same file.
//
// Message in:  {indexURL, stdLibURL, appZip, lock, cache, entry, maxBytes, minFreeBytes}
// Message out: {result: "stored" | "refused" | "failed", bytes?, modules?, ms?, error?}

// Python run inside the snapshot Pyodide. `js` is blocked while importing: a module
// that reaches for the page at import time (document, window …) fails to import and is
// left for the page to import after the restore; the snapshot then holds no reference
// to any JavaScript object of this worker.
const PREIMPORT = `
import importlib, sys
from pathlib import Path

skipped, imported = [], []
names = sorted({
    ".".join(p.with_suffix("").parts) if p.stem != "__init__" else ".".join(p.parent.parts)
    for top in ("engine", "web") for p in Path(top).rglob("*.py*")  # app.zip ships .pyc
})
BLOCKED = ("js", "pyodide_js")
saved = {name: sys.modules[name] for name in BLOCKED if name in sys.modules}
sys.modules.update(dict.fromkeys(BLOCKED))  # import js -> ImportError
try:
    for name in names:
        if name == "web.main":  # the entry point: it starts the app
            continue
        try:
            importlib.import_module(name)
            imported.append(name)
        except Exception:
            skipped.append(name)
finally:
    for name in BLOCKED:
        sys.modules.pop(name, None)
    sys.modules.update(saved)
del saved, BLOCKED
# A tracing build's sitecustomize (builder/stdlib_tracer.py) reports what was imported.
getattr(sys.modules.get("sitecustomize"), "report", lambda: None)()
# A heap that needed the full standard library (a module the cut missed, see
# builder/stdlib_fallback.py) or the later zip refers to a file the page will not have at
# once: not stored.
fallbacks = [*getattr(sys.modules.get("sitecustomize"), "fallbacks", []),
             *getattr(sys.modules.get("sitecustomize"), "later", [])]
"!" + ",".join(fallbacks) if fallbacks else ",".join(imported)
`;

self.onmessage = async ({ data }) => {
  const started = performance.now();
  try {
    const { loadPyodide } = await import(new URL("pyodide.mjs", data.indexURL).href);
    const [pyodide, zip] = await Promise.all([
      loadPyodide({ indexURL: data.indexURL, stdLibURL: data.stdLibURL, lockFileContents: data.lock,
                    _makeSnapshot: true }),
      fetch(data.appZip).then((r) => {
        if (!r.ok) throw new Error(`app.zip: HTTP ${r.status}`);
        return r.arrayBuffer();
      }),
    ]);
    // PyScript unpacks {"./app.zip": "./*"} into the working directory (/home/pyodide).
    pyodide.unpackArchive(zip, "zip", { extractDir: "." });
    const modules = pyodide.runPython(PREIMPORT);
    if (modules.startsWith("!")) {
      self.postMessage({ result: "refused", error: `the cut standard library lacked ${modules.slice(1)}` });
      return;
    }
    const snapshot = pyodide.makeMemorySnapshot();
    if (snapshot.byteLength > data.maxBytes) {
      self.postMessage({ result: "refused", error: `heap grew to ${snapshot.byteLength} bytes` });
      return;
    }
    // Saves live in localStorage; the snapshot goes only where there is room to spare.
    const { quota = 0, usage = 0 } = (await navigator.storage?.estimate?.()) || {};
    if (quota && quota - usage < snapshot.byteLength + data.minFreeBytes) {
      self.postMessage({ result: "refused", error: `quota ${quota}, usage ${usage}` });
      return;
    }
    const cache = await caches.open(data.cache);
    for (const old of await cache.keys()) await cache.delete(old); // one snapshot a device
    await cache.put(data.entry, new Response(snapshot, {
      // boot.mjs restores only an entry of exactly this length (a cut-short one is refused)
      headers: { "content-type": "application/octet-stream", "x-ct-snapshot-bytes": String(snapshot.byteLength) },
    }));
    self.postMessage({ result: "stored", bytes: snapshot.byteLength, modules, ms: performance.now() - started });
  } catch (error) {
    self.postMessage({ result: error?.name === "QuotaExceededError" ? "refused" : "failed", error: String(error) });
  }
};
