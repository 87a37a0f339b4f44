"""End-to-end fixtures: build/ served on localhost, Debian's Chromium, one shared browser.

The site is built once per session if ``build/`` is missing (``make test`` builds it
first). Every page records its requests and console errors so tests can prove that
nothing leaves the origin and nothing breaks quietly.

One device per worker for the whole run (issue 19, the test suite; `make test` runs three
pytest-xdist workers, each with its own browser and servers): the ``page`` fixture is a new
tab in one session-wide browser context, so the HTTP cache, the service worker and the
app's memory snapshot (Cache Storage) carry over and every boot after the first is a
returning visit's warm boot. Each test still gets its own tab (its own sessionStorage,
listeners, dialogs, routes and viewport) and starts with the origin's localStorage and
IndexedDB emptied, the context online, no granted permissions and no other tab open.
A test that needs a device that has never seen the site (first visit, service worker
install/offline, request interception the service worker would bypass) is marked
``@pytest.mark.fresh_browser``: its ``page`` comes from a context of its own, as before.
Tests that open ``browser.new_context(...)`` themselves get a fresh device too.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import urlparse

import pytest

from builder.serve import serve_in_thread

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build"
#: Debian's Chromium: the browser people use (benchmarks and screenshot tours run in it).
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
#: The e2e suite runs in Debian's `chromium-headless-shell`, the same Chromium 156 (Blink,
#: V8, service workers, Cache Storage, printing) without the browser's own windows: the
#: full browser's headless mode starts a renderer for its omnibox pop-up with every tab,
#: which cost each test 1–2 s of a core (issue 19, measured with the suite's CPU by
#: process). Where the shell is missing, the full browser runs the suite unchanged.
E2E_CHROMIUM = os.environ.get("E2E_CHROMIUM") or next(
    (path for path in ("/usr/lib/chromium/chromium-headless-shell", shutil.which("chromium-headless-shell"))
     if path and os.path.exists(path)), CHROMIUM)
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
#: The suite's tabs of one site share one renderer process (Chromium's process-per-site
#: mode). Each test still has its own tab: its own window, JavaScript realm, Pyodide and
#: sessionStorage. What carries over is the process, and what it has compiled, so a
#: boot does not start a process and compile Pyodide's scripts and WebAssembly again
#: (issue 19, measured side by side: a boot in a new tab 2.3 core-seconds in a new
#: process, 1.3 in the site's; test_conflict.py with test_campaign.py on three workers,
#: twice each way, 217/222 → 168/198 core-seconds). Benchmarks and screenshot
#: tours keep the browser's own process model (``CHROMIUM_FLAGS``): they measure and
#: show what a person's browser does.
E2E_FLAGS = [*CHROMIUM_FLAGS, "--process-per-site"]
READY = "html[data-ready='true']"
TABLET_LANDSCAPE = {"width": 1024, "height": 768}
TABLET_PORTRAIT = {"width": 768, "height": 1024}
#: The origins of the suite's own servers (base_url, sub_url), alive for the whole run.
SUITE_ORIGINS: set[str] = set()


def _origin(url: str) -> str:
    parts = urlparse(url)
    return f"{parts.scheme}://{parts.netloc}"


@pytest.fixture(scope="session")
def site_dir() -> Path:
    if not (BUILD / "index.html").exists():
        from builder.build import build

        build(BUILD)
    return BUILD


@pytest.fixture(scope="session")
def base_url(site_dir):  # overrides pytest-base-url: the app's root URL
    server, url = serve_in_thread(site_dir)
    SUITE_ORIGINS.add(_origin(url))
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def sub_url(site_dir):
    """The same site under a subpath, as GitHub Pages serves a project site."""
    server, url = serve_in_thread(site_dir, prefix="/conflict-table/")
    SUITE_ORIGINS.add(_origin(url))
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": E2E_CHROMIUM, "args": E2E_FLAGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": TABLET_LANDSCAPE, "has_touch": True,
            "device_scale_factor": 1, "service_workers": "allow"}


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "fresh_browser: the test's page is in a browser context of its own (a device "
        "that has never seen the site), not the session's shared warm one")


#: What a test must not inherit from the one before it on the shared device. The HTTP
#: cache, Cache Storage (the service worker's precache, the memory snapshot) and the
#: service worker registration are what a returning device keeps: they stay.
STORAGE_CLEARED = "cookies,local_storage,indexeddb,file_systems,websql,shader_cache"
#: The app's snapshot maker has finished (stored, refused, failed, not needed).
SNAPSHOT_SETTLED = "() => (made => made !== 'making' && made)(document.documentElement.dataset.snapshotMade)"
#: A first boot plus the snapshot worker's own boot, on a loaded machine.
WARM_TIMEOUT = 300_000


class SharedDevice:
    """The session's one browser context and the origins it has been to."""

    def __init__(self, browser, context_args: dict):
        self.context = browser.new_context(**context_args)
        self.args = context_args
        self.origins: set[str] = set()
        self.warmed: str | None = None
        self.context.on("request", self._seen)

    def _seen(self, request) -> None:
        parts = urlparse(request.url)
        if parts.scheme in ("http", "https"):
            self.origins.add(f"{parts.scheme}://{parts.netloc}")

    def warm(self, url: str) -> str:
        """A first visit to ``url`` that waits until the app has made this device's memory
        snapshot (docs/ARCHITECTURE.md, Later visits), so that every later boot restores
        it as a returning tablet's does. Returns what the maker did (``stored`` …)."""
        tab = self.context.new_page()
        try:
            tab.goto(url)
            tab.wait_for_selector(READY, state="attached", timeout=WARM_TIMEOUT)
            tab.wait_for_function(SNAPSHOT_SETTLED, timeout=WARM_TIMEOUT)
            self.warmed = tab.evaluate("document.documentElement.dataset.snapshotMade")
        finally:
            tab.close()
        return self.warmed

    def reset(self, keep: set[str], tab=None, storage: bool = True) -> None:
        """Back to a clean returning device: no tab, no storage, online, no permissions.

        ``keep`` are the suite's own servers (base_url, sub_url): their caches, service
        worker and snapshot stay. Any other origin (a server a test started for itself
        on a port the system may hand out again) is forgotten entirely. ``tab``, a blank
        tab of this device's to keep open, clears the storage (else a tab opened for it
        alone does). ``storage=False`` leaves the storage for the reset before the next
        use (every use starts with one): a test's end closes its tabs and stops there.
        """
        context = self.context
        for open_page in list(context.pages):
            if open_page is not tab:
                open_page.close()
        context.set_offline(False)
        context.clear_permissions()
        context.clear_cookies()
        context.unroute_all(behavior="ignoreErrors")
        if not storage or not self.origins:
            return
        probe = tab or context.new_page()
        try:
            cdp = context.new_cdp_session(probe)
            for origin in sorted(self.origins):
                types = STORAGE_CLEARED if origin in keep else "all"
                cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": types})
            cdp.detach()
        finally:
            if tab is None:
                probe.close()
        self.origins &= keep


@pytest.fixture(scope="session")
def shared_device(browser, browser_context_args, base_url):
    device = SharedDevice(browser, browser_context_args)
    device.warm(base_url)
    yield device
    device.context.close()


class Device:
    """Another tablet for one test, with the interface the tests use of a context.

    Its tabs live in a warm context of its own (never the ``page``'s: two devices share
    no storage), emptied like the shared device before and after the test. What a
    context takes only when it is made (``has_touch``, ``bypass_csp``,
    ``java_script_enabled``, ``service_workers`` …) picks the context; ``viewport`` and
    ``color_scheme`` are set on each tab, as the context would have.
    """

    def __init__(self, pool: "DevicePool", shared: SharedDevice, viewport, color_scheme):
        self._pool, self._shared = pool, shared
        self._viewport, self._color_scheme = viewport, color_scheme
        self._scripts: list[str] = []
        self._pages: list = []

    @property
    def pages(self) -> list:
        return [p for p in self._pages if not p.is_closed()]

    def add_init_script(self, script: str) -> None:
        self._scripts.append(script)
        for tab in self.pages:
            tab.add_init_script(script)

    def new_page(self):
        tab = self._shared.context.new_page()
        if self._viewport is not None:
            tab.set_viewport_size(self._viewport)
        if self._color_scheme is not None:
            tab.emulate_media(color_scheme=self._color_scheme)
        for script in self._scripts:
            tab.add_init_script(script)
        self._pages.append(tab)
        return tab

    def close(self) -> None:
        if self._shared is not None:
            self._pool.give_back(self._shared)
            self._shared = None


class DevicePool:
    """Warm contexts for ``new_device``, by the options fixed when a context is made."""

    def __init__(self, browser, base_url: str):
        self.browser, self.base_url = browser, base_url
        self.free: dict[tuple, list[SharedDevice]] = {}
        self.all: list[SharedDevice] = []
        self.key_of: dict[int, tuple] = {}

    def take(self, **args) -> Device:
        viewport = args.pop("viewport", None)
        color_scheme = args.pop("color_scheme", None)
        key = tuple(sorted(args.items()))
        free = self.free.setdefault(key, [])
        if free:
            shared = free.pop()
            if shared.warmed is None and self.base_url:  # used again: worth its snapshot
                shared.reset(SUITE_ORIGINS)
                shared.warm(self.base_url)
        else:
            shared = SharedDevice(self.browser, args)
            self.all.append(shared)
            self.key_of[id(shared)] = key
        shared.reset(SUITE_ORIGINS)
        return Device(self, shared, viewport, color_scheme)

    def give_back(self, shared: SharedDevice) -> None:
        shared.reset(SUITE_ORIGINS, storage=False)  # emptied when it is taken again
        self.free[self.key_of[id(shared)]].append(shared)

    def close(self) -> None:
        for shared in self.all:
            shared.context.close()


@pytest.fixture(scope="session")
def _device_pool(browser, base_url):
    pool = DevicePool(browser, base_url)
    yield pool
    pool.close()


@pytest.fixture
def new_device(_device_pool):
    """``new_device(viewport=…, has_touch=True, color_scheme=…)``: another tablet that has
    been to the site before (warm caches) but holds none of this test's data; takes the
    arguments of ``browser.new_context``. Use ``browser.new_context`` itself only for a
    device that must never have seen the site."""
    taken: list[Device] = []

    def make(**args) -> Device:
        device = _device_pool.take(**args)
        taken.append(device)
        return device

    yield make
    for device in taken:
        device.close()


@pytest.fixture
def page(request, browser, browser_context_args, base_url):
    """A new tab for the test: on the shared warm device, or (``fresh_browser``) its own."""
    if request.node.get_closest_marker("fresh_browser"):
        context = browser.new_context(**browser_context_args)
        yield context.new_page()
        context.close()
        return
    device = request.getfixturevalue("shared_device")
    tab = device.context.new_page()
    device.reset(SUITE_ORIGINS, tab=tab)  # the test's own blank tab empties the storage
    yield tab
    device.reset(SUITE_ORIGINS, storage=False)  # the next test's reset empties it


class Recorder:
    """Requests and console errors of one page."""

    def __init__(self, page):
        self.requests: list[str] = []
        self.errors: list[str] = []
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def foreign(self, base: str) -> list[str]:
        origin = urlparse(base).netloc
        return [u for u in self.requests
                if not u.startswith(("data:", "blob:")) and urlparse(u).netloc != origin]


def open_app(page, url: str, timeout: float = 90_000) -> Recorder:
    recorder = Recorder(page)
    page.goto(url)
    page.wait_for_selector(READY, state="attached", timeout=timeout)
    return recorder


@pytest.fixture
def app(page, base_url):
    """A page with the app loaded and ready, at the home route."""
    recorder = open_app(page, base_url)
    page.recorder = recorder
    return page
