// PyScript's `interpreter` module (web/build.py writes it to vendor/pyodide/boot.mjs; PyScript
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
/** This app version + Pyodide build (web/build.py); the browser is added below. */
const KEY = "__SNAPSHOT_KEY__";
const CACHE = "ct-snapshot"; // not "conflict-table-…": the service worker prunes those
/** The standard library the app loads (web/build.py STDLIB_CUT), beside this module. */
const STDLIB = new URL("./__STDLIB_CUT__", import.meta.url).href;
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

async function read() {
  if (!enabled) return null;
  try {
    const cache = await caches.open(CACHE);
    const response = await cache.match(entry);
    return response ? new Uint8Array(await response.arrayBuffer()) : null;
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

export async function loadPyodide(options = {}) {
  performance.mark("ct:pyodide-start");
  const [{ loadPyodide: load }, snapshot] = await Promise.all([import("./pyodide.mjs"), stored]);
  if (!options.lockFileURL && !options.lockFileContents) options = { ...options, lockFileContents: LOCK };
  options = { stdLibURL: STDLIB, ...options };
  const ready = (pyodide) => { performance.mark("ct:pyodide-ready"); return pyodide; };
  if (snapshot) {
    try {
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
    worker.onmessage = ({ data }) => done(data.result);
    worker.postMessage({
      indexURL: new URL("./", import.meta.url).href,
      stdLibURL: STDLIB,
      appZip: new URL("../../app.zip", import.meta.url).href,
      lock: LOCK, cache: CACHE, entry, maxBytes: MAX_BYTES, minFreeBytes: MIN_FREE_BYTES,
    });
  });
}
