// PyScript's `interpreter` module (builder/build.py writes it to vendor/pyodide/boot.mjs; PyScript
// takes Pyodide's indexURL from this file's folder). It is Pyodide's own loader, except that
// it loads the standard library cut to what the app imports (issue 19: `stdLibURL`, the
// full library stays beside it as the fallback of its `sitecustomize`), and that on a
// device that has a memory snapshot of this very app version, Pyodide build and browser,
// it restores the snapshot instead of starting CPython (issue 10; docs/ARCHITECTURE.md,
// Start-up). Nothing here may ever stop the app from booting: a missing, stale, refused
// or broken snapshot means the normal boot, without a word.
//
// Performance marks: ct:pyodide-start (the loader is called), ct:pyodide-ready (Python runs).
//
// <html data-snapshot>: "used" (booted from a snapshot), "none" (none stored for this
// version), "failed" (restore failed: booted normally, the snapshot is dropped), "off".
// <html data-snapshot-made>: what the background maker does: "making", then "stored",
// "refused" or "failed"; "not needed" when it had nothing to do (a snapshot was used, the
// switch is off, or this version's restore failed before).
export const version = "__PYODIDE_VERSION__";
/** This app version + Pyodide build (builder/build.py); the browser is added below. */
const KEY = "__SNAPSHOT_KEY__";
const CACHE = "ct-snapshot"; // not "conflict-table-…": the service worker prunes those
/** The standard library the app loads (builder/build.py STDLIB_CUT), beside this module. */
const STDLIB = new URL("./__STDLIB_CUT__", import.meta.url).href;
/** Modules imported only after the first render (builder/build.py STDLIB_LATER). */
const STDLIB_LATER = new URL("./__STDLIB_LATER__", import.meta.url).href;
let interpreter = null; // the page's Pyodide, once loaded
/** Pyodide's lock file (no packages), inline: one request fewer before Python starts. */
const LOCK = __PYODIDE_LOCK__;
/** Pyodide cannot restore a heap that grew past its initial size (pyodide issue 6254). */
const MAX_BYTES = 32 * 1024 * 1024 + 64 * 1024;
/** A snapshot is only stored when this much room stays free besides it. */
const MIN_FREE_BYTES = 64 * 1024 * 1024;

const root = document.documentElement;
// ?snapshot=off: neither use nor make one (benchmarks, tests, support).
const enabled = new URLSearchParams(location.search).get("snapshot") !== "off"
  && typeof caches !== "undefined" && typeof Worker !== "undefined";
// The engine that made a snapshot is the only one that can restore it: key it by browser.
const entry = new URL(`snapshot/${KEY}?agent=${encodeURIComponent(navigator.userAgent)}`, import.meta.url).href;

/** The header the maker stores each snapshot's length in (snapshot-worker.mjs). */
const BYTES_HEADER = "x-ct-snapshot-bytes";
/** What a stored entry holds when it is not a whole snapshot: never given to Pyodide. */
const DAMAGED = "damaged";

// The stored snapshot's bytes, null when there is none, or DAMAGED when the entry is not
// the whole snapshot the maker stored (cut short, or not stored by the maker): a truncated
// heap given to Pyodide can crash the tab instead of failing (headless Chromium 156 did),
// so its length is checked first.
async function read() {
  if (!enabled) return null;
  try {
    const cache = await caches.open(CACHE);
    const response = await cache.match(entry);
    if (!response) return null;
    const expected = Number(response.headers.get(BYTES_HEADER));
    const bytes = new Uint8Array(await response.arrayBuffer());
    return expected > 0 && bytes.byteLength === expected ? bytes : DAMAGED;
  } catch {
    return null;
  }
}

/** A snapshot that failed is replaced by a marker: this version will not make another. */
async function forget() {
  try {
    const cache = await caches.open(CACHE);
    for (const old of await cache.keys()) await cache.delete(old);
    await cache.put(entry + "&failed", new Response("restore failed"));
  } catch { /* nothing to drop */ }
}

async function failedBefore() {
  try { return Boolean(await (await caches.open(CACHE)).match(entry + "&failed")); } catch { return true; }
}

// Start reading at once (this module is preloaded from the head): the bytes are there by
// the time PyScript asks for the interpreter.
const stored = read();

async function boot(options) {
  performance.mark("ct:pyodide-start");
  const [{ loadPyodide: load }, snapshot] = await Promise.all([import("./pyodide.mjs"), stored]);
  const ready = (pyodide) => { performance.mark("ct:pyodide-ready"); interpreter = pyodide; return pyodide; };
  if (snapshot) {
    try {
      if (snapshot === DAMAGED) throw new Error("the stored snapshot is not whole");
      const pyodide = await load({ ...options, _loadSnapshot: snapshot });
      pyodide.runPython("import js, sys, random"); // the restored interpreter works
      root.dataset.snapshot = "used";
      return ready(pyodide);
    } catch (error) {
      console.info("Conflict Table: the start-up snapshot could not be restored; starting normally.", error);
      root.dataset.snapshot = "failed";
      forget();
    }
  } else {
    root.dataset.snapshot = enabled ? "none" : "off";
  }
  return ready(await load(options));
}

// Pyodide starts as soon as this module runs (shell.js imports it from the head), not when
// PyScript asks for it: PyScript first sets itself up (its modules, its IndexedDB package
// cache), and meanwhile the wasm compiles and CPython starts. PyScript's own request then
// takes this interpreter and sets its output streams on it; a request with other loader
// options (not this app's) gets an interpreter of its own.
const INDEX = new URL("./", import.meta.url).href;
const OPTIONS = { indexURL: INDEX, lockFileContents: LOCK, stdLibURL: STDLIB };
let early = boot(OPTIONS);
early.catch(() => {}); // reported when PyScript asks for it

export async function loadPyodide(options = {}) {
  const { stdout, stderr, indexURL, ...other } = options;
  const same = !indexURL || new URL(indexURL.replace(/\/?$/, "/"), location.href).href === INDEX;
  if (early && same && Object.keys(other).length === 0) {
    const pyodide = await early;
    early = null;
    if (stdout) pyodide.setStdout({ batched: stdout });
    if (stderr) pyodide.setStderr({ batched: stderr });
    return pyodide;
  }
  return boot({ ...OPTIONS, ...options });
}

// At the first quiet moment after ready (static/shell.js): put the later zip (the modules
// only the Share drawer, file import … need) where the fallback finder of the cut
// (builder/stdlib_fallback.py, the `sitecustomize` of the cut) looks for it, so those imports
// never wait for the network. Anything that goes wrong is silent: the finder then fetches
// it itself when a module of it is first imported.
export async function prefetchLater() {
  try {
    if (!interpreter) return;
    const path = interpreter.runPython("getattr(__import__('sitecustomize'), 'LATER_PATH', '')");
    if (!path || interpreter.FS.analyzePath(path).exists) return;
    const response = await fetch(STDLIB_LATER);
    if (!response.ok) return;
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (!interpreter.FS.analyzePath(path).exists) interpreter.FS.writeFile(path, bytes);
  } catch { /* the finder fetches it when needed */ }
}

// After the first ready, at an idle moment (static/shell.js): make this device's snapshot
// in a worker if there is none for this version. Resolves to what happened.
export async function makeSnapshotInBackground() {
  if (!enabled || root.dataset.snapshot !== "none" || await failedBefore()) {
    root.dataset.snapshotMade = "not needed";
    return "not needed";
  }
  return new Promise((resolve) => {
    let worker;
    const done = (result) => {
      root.dataset.snapshotMade = result;
      if (result === "failed") forget(); // not again for this version
      worker?.terminate();
      resolve(result);
    };
    root.dataset.snapshotMade = "making";
    try {
      worker = new Worker(new URL("../../snapshot-worker.mjs", import.meta.url), { type: "module" });
    } catch {
      return done("failed");
    }
    worker.onerror = () => done("failed");
    worker.onmessage = ({ data }) => {
      if (data.error) console.info(`Conflict Table: no start-up snapshot (${data.result}): ${data.error}`);
      done(data.result);
    };
    worker.postMessage({
      indexURL: INDEX,
      stdLibURL: STDLIB,
      appZip: new URL("../../app.zip", import.meta.url).href,
      lock: LOCK, cache: CACHE, entry, maxBytes: MAX_BYTES, minFreeBytes: MIN_FREE_BYTES,
    });
  });
}
