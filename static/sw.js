// Offline service worker: cache-first over a content-hashed precache list that the
// builder writes (web/build.py). A new deploy has a new cache name: it installs
// beside the old one, the page shows "new version — reload", and the old cache is
// dropped when the new worker takes over.
const CACHE = "conflict-table-__CACHE_VERSION__";
const PRECACHE = __PRECACHE__;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload" }))))
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
    return fetch(request);
  })());
});
