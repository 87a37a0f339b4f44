"""WebKit end-to-end fixtures: build/ on localhost, WebKitGTK driven by selenium.

WebKit is the engine of every iPad browser. Debian's ``webkit2gtk-driver`` gives
WebKitGTK's WebDriver (``/usr/bin/WebKitWebDriver``) and its MiniBrowser; they need
a display, so the suite runs under ``xvfb-run -a`` (``make test-webkit``, part of
``make test``).

One browser session serves the whole suite: WebKit boots Pyodide in several seconds
under Xvfb, so the app is loaded once and tests move between routes by changing
``location.hash`` (same document, as a player does). A test that leaves the app
broken gets it reloaded before the next test (:func:`app`).

Selenium has no console log for WebKitGTK: :data:`ERROR_HOOK_JS` records uncaught
errors and unhandled rejections in ``window.__ctErrors``; it is installed as soon as
the document has loaded, before Python is ready, and the tests read it.
"""

from __future__ import annotations

import glob
import os
import time
from pathlib import Path

import pytest

from builder.serve import serve_in_thread

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build"
WEBDRIVER = os.environ.get("WEBKIT_WEBDRIVER", "/usr/bin/WebKitWebDriver")
MINIBROWSER = os.environ.get("WEBKIT_MINIBROWSER") or next(
    iter(sorted(glob.glob("/usr/lib/*/webkit2gtk-4.1/MiniBrowser"))),
    "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
#: Seconds to wait for the ready marker. WebKit needs ~6–10 s on two idle cores under
#: Xvfb; a machine busy with other work can take several times that.
READY_TIMEOUT = float(os.environ.get("WEBKIT_READY_TIMEOUT", "180"))
READY = "html[data-ready='true']"
TABLET_LANDSCAPE = (1024, 768)
TABLET_PORTRAIT = (768, 1024)

#: Records uncaught errors and unhandled promise rejections of the page.
ERROR_HOOK_JS = """
if (!window.__ctErrors) {
  window.__ctErrors = [];
  window.__ctHookedBeforeReady = document.documentElement.dataset.ready !== 'true';
  window.addEventListener('error', (e) => window.__ctErrors.push(
    `${e.message || e.error || e} (${(e.filename || '').split('/').pop()}:${e.lineno || 0})`));
  window.addEventListener('unhandledrejection', (e) => window.__ctErrors.push(
    `unhandled rejection: ${e.reason && (e.reason.stack || e.reason.message) || e.reason}`));
}
return window.__ctHookedBeforeReady;
"""


def new_driver():
    """A WebKitGTK session (MiniBrowser in automation mode) through WebKitWebDriver."""
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.service import Service

    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise RuntimeError("WebKitGTK needs a display: run under `xvfb-run -a` (make test-webkit)")
    options = webdriver.WebKitGTKOptions()
    options.binary_location = MINIBROWSER
    options.add_argument("--automation")
    driver = webdriver.WebKitGTK(options=options, service=Service(executable_path=WEBDRIVER))
    driver.set_script_timeout(60)
    driver.set_page_load_timeout(READY_TIMEOUT)
    return driver


def wait_for(driver, script: str, *args, timeout: float = 30, message: str = "", interval: float = 0.05):
    """Poll ``script`` (a JS function body that returns a value, with ``args``) until it is truthy."""
    deadline = time.monotonic() + timeout
    while True:
        value = driver.execute_script(script, *args)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {message or script}; "
                                 f"the page then: {page_state(driver)}")
        time.sleep(interval)


#: What a timed-out wait reports of the page, so that a failure on a loaded machine (CI)
#: says what the app was doing: the route, its markers, the toasts, the error box and the
#: uncaught errors the hook recorded.
PAGE_STATE_JS = """
const html = document.documentElement;
const text = (e) => (e.textContent || '').trim().slice(0, 160);
return JSON.stringify({hash: location.hash.slice(0, 80), ready: html.dataset.ready, views: html.dataset.views,
  shown: [...document.querySelectorAll('section.route')].filter(s => !s.hidden).map(s => s.dataset.route),
  toasts: [...document.querySelectorAll('.toast')].map(text),
  errorBox: [...document.querySelectorAll('[data-testid=app-error], .error-box')].map(text),
  errors: (window.__ctErrors || []).slice(0, 5)});
"""


def page_state(driver) -> str:
    """The page's state in one line (never raises: it only adds to a failure's message)."""
    try:
        return str(driver.execute_script(PAGE_STATE_JS))
    except Exception as error:  # the page itself may be what failed
        return f"(could not be read: {type(error).__name__})"


def wait_ready(driver, timeout: float = READY_TIMEOUT) -> float:
    """Wait for the ready marker Python sets; returns ``performance.now()`` at that point (ms)."""
    return float(wait_for(driver, "return document.documentElement.dataset.ready === 'true' && performance.now()",
                          timeout=timeout, message="html[data-ready='true']", interval=0.1))


def open_app(driver, url: str, timeout: float = READY_TIMEOUT) -> bool:
    """Load ``url`` as a new document, hook errors, wait until ready.

    Returns whether the error hook was in place before the app became ready (so that
    errors of the start-up were seen). A URL that differs from the current one only in
    its hash would not load a new document: use :func:`goto_route` for that.
    """
    driver.get(url)
    hooked_early = driver.execute_script(ERROR_HOOK_JS)
    wait_ready(driver, timeout)
    return bool(hooked_early)


def goto_route(driver, route: str) -> None:
    """Go to ``#/route`` in the same document and wait for its section to show."""
    name = route or "home"
    driver.execute_script("location.hash = arguments[0]", f"#/{route}")
    wait_for(driver, "const s = document.querySelector(`section.route[data-route='${arguments[0]}']`);"
                     "return s && !s.hidden && s.offsetParent !== null", name,
             timeout=10, message=f"route #/{route} to show")


def set_size(driver, width: int, height: int) -> None:
    """Make the page's viewport ``width``×``height`` CSS pixels (the window adds its chrome)."""
    driver.set_window_size(width, height)
    for _ in range(3):
        inner = driver.execute_script("return [innerWidth, innerHeight]")
        dw, dh = width - inner[0], height - inner[1]
        if not dw and not dh:
            return
        size = driver.get_window_size()
        driver.set_window_size(size["width"] + dw, size["height"] + dh)
        time.sleep(0.1)
    inner = driver.execute_script("return [innerWidth, innerHeight]")
    assert inner == [width, height], f"viewport {inner}, wanted {[width, height]}"


def script_errors(driver) -> list[str]:
    """Uncaught errors and unhandled rejections recorded since the last :func:`clear_errors`."""
    return list(driver.execute_script("return window.__ctErrors || ['(error hook missing)']"))


def clear_errors(driver) -> None:
    driver.execute_script(ERROR_HOOK_JS)
    driver.execute_script("window.__ctErrors.length = 0")


@pytest.fixture(scope="session")
def site_dir() -> Path:
    if not (BUILD / "index.html").exists():
        from builder.build import build

        build(BUILD)
    return BUILD


@pytest.fixture(scope="session")
def base_url(site_dir):
    server, url = serve_in_thread(site_dir)
    yield url
    server.shutdown()
    server.server_close()


class Boot:
    """What the suite's one start-up of the app in WebKit showed."""

    def __init__(self, seconds: float, ready_ms: float, hooked_early: bool, errors: list[str]):
        self.seconds, self.ready_ms, self.hooked_early, self.errors = seconds, ready_ms, hooked_early, errors


_BOOTS: list["Boot"] = []


@pytest.fixture(scope="session")
def driver():
    driver = new_driver()
    yield driver
    driver.quit()


@pytest.fixture(scope="session")
def boot(driver, base_url) -> Boot:
    """The app loaded once in WebKit at a tablet size; the errors of its start-up."""
    set_size(driver, *TABLET_LANDSCAPE)
    started = time.monotonic()
    driver.get(base_url)
    hooked_early = bool(driver.execute_script(ERROR_HOOK_JS))
    ready_ms = wait_ready(driver)
    seconds = time.monotonic() - started
    time.sleep(0.5)  # let what ready triggers (idle callbacks, timers) run
    result = Boot(seconds, ready_ms, hooked_early, script_errors(driver))
    _BOOTS.append(result)
    return result


def _healthy(driver, base_url: str) -> bool:
    return bool(driver.execute_script(
        "return location.href.startsWith(arguments[0]) && document.documentElement.dataset.ready === 'true'"
        " && !!window.__ctErrors && !document.querySelector('.error-box, [data-testid=app-error]')", base_url))


@pytest.fixture
def app(driver, boot, base_url):
    """The booted app, ready and unbroken, at 1024×768 on the home route scrolled to the
    top; errors cleared.

    A test that left an error box (a defect reproduced) or another origin behind gets
    the app loaded again; otherwise the same document is reused.
    """
    if not _healthy(driver, base_url) and driver.current_url.startswith(base_url):
        goto_route(driver, "")  # a render from scratch may be enough
    if not _healthy(driver, base_url):
        open_app(driver, base_url)
    set_size(driver, *TABLET_LANDSCAPE)
    goto_route(driver, "")
    driver.execute_script("window.scrollTo(0, 0)")  # a route change keeps the scroll position
    clear_errors(driver)
    return driver


def pytest_configure(config):
    # selenium 4.51's own WebKitGTK driver class still passes remote_server_addr.
    config.addinivalue_line("filterwarnings", "ignore:setting remote_server_addr:DeprecationWarning")


def pytest_terminal_summary(terminalreporter):
    for b in _BOOTS:
        terminalreporter.write_line(
            f"WebKit: the app became ready in {b.seconds:.1f} s (performance.now() {b.ready_ms:.0f} ms) "
            f"at the suite's start; start-up script errors: {b.errors or 'none'}")
