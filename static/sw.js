// Offline service worker: cache-first over a content-hashed precache list that the
// builder writes (builder/build.py). A new deploy has a new cache name: it installs
// beside the old one, the page shows "new version — reload", and the old cache is
// dropped when the new worker takes over.
const CACHE = "conflict-table-__CACHE_VERSION__";
const PRECACHE = __PRECACHE__;
// Served but not precached (builder/build.py ON_DEMAND): the full standard library, fetched
// only if the cut missed a module; kept in the cache once fetched (for offline use).
const ON_DEMAND = new Set(__ON_DEMAND__.map((url) => new URL(url, self.location).href));

self.addEventListener("install", (event) => {
  event.waitUntil(
    // "no-cache": revalidated with the server, so the files the page has just loaded come
    // from the HTTP cache (a 304, no body) instead of a second download of every file.
    caches.open(CACHE).then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "no-cache" }))))
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("conflict-table-") && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
});

let opened = null; // the open cache, kept while this worker runs
const cache = () => (opened ||= caches.open(CACHE));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const store = await cache();
    const cached = await store.match(request);
    if (cached) return cached;
    if (request.mode === "navigate") {
      const shell = await store.match("./index.html", { ignoreSearch: true });
      if (shell) return shell;
    }
    const response = await fetch(request);
    if (ON_DEMAND.has(request.url) && response.ok) store.put(request, response.clone()).catch(() => {});
    return response;
  })());
});
