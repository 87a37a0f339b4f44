"""The app shell in WebKit: ready, no script error, every route, offline reload."""

from __future__ import annotations

import pytest
from selenium.common.exceptions import WebDriverException

from builder.serve import serve_in_thread

from .conftest import TABLET_PORTRAIT, goto_route, open_app, script_errors, set_size, wait_for
from .kit import assert_app_ok, assert_on_screen, visible

ROUTES = ["", "conflict", "campaign", "initiative", "battle"]
TITLES = {"": "Conflict Table", "conflict": "Organizations In Conflict", "campaign": "Campaign",
          "initiative": "CONSIM", "battle": "Ascension Isle"}
#: Seconds for the shell to say what became of the worker (it registers at the first
#: idle moment after ready, at the latest 15 s after load) and for the worker to
#: install (it precaches every built file, ~14 MB) and take control.
SHELL_TIMEOUT = 30
SW_TIMEOUT = 120


def test_app_becomes_ready_in_webkit(app, boot, base_url):
    driver = app
    assert boot.hooked_early, "the error hook came after ready: start-up errors were not watched"
    assert driver.execute_script("return document.getElementById('boot').hidden") is True
    # Python really ran: it set the marker and measured itself.
    assert driver.execute_script("return performance.getEntriesByName('ct:ready').length") == 1
    foreign = driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)"
        ".filter(u => !u.startsWith(location.origin + '/') && !u.startsWith('data:') && !u.startsWith('blob:'))")
    assert foreign == []
    assert "AppleWebKit" in driver.execute_script("return navigator.userAgent")


def test_no_script_error_during_start_up(boot):
    """Nothing the page runs at start-up throws in WebKit (Safari's engine lacks some APIs)."""
    assert boot.hooked_early
    assert boot.errors == []


@pytest.mark.parametrize("route", ROUTES, ids=[r or "home" for r in ROUTES])
def test_every_route_renders(app, route):
    driver = app
    set_size(driver, *TABLET_PORTRAIT)
    goto_route(driver, route)
    section = visible(driver, f"section.route[data-route='{route or 'home'}']")
    assert section, f"#/{route} shows no section"
    title = section[0].find_element("css selector", "h1")
    assert TITLES[route] in title.text
    assert_on_screen(driver, title)
    if route:
        rules = driver.find_element("css selector", f"#rules-{route}")
        rules.find_element("css selector", "summary").click()
        wait_for(driver, "return arguments[0].open", rules, message="the rules panel to open")
        assert len(rules.find_elements("css selector", ".rule")) >= 5
    if route == "conflict":  # a table Python draws (the others are prerendered rules, for now)
        assert driver.execute_script("return document.getElementById('app-conflict').children.length") > 0
    assert driver.execute_script("return document.documentElement.scrollWidth - innerWidth") <= 0
    assert_app_ok(driver)


def test_offline_reload_after_first_visit(driver, boot, site_dir):
    """First visit registers the offline worker; with the server gone, a reload still starts the app.

    The site is served on its own port (its own origin), so the worker it installs
    controls nothing the other tests use. WebKitGTK has service workers and Cache
    Storage; if the page never gets a controlling worker, the test stops the server
    anyway and reports what WebKit shows then.
    """
    server, url = serve_in_thread(site_dir)
    stopped = False
    try:
        open_app(driver, url)
        try:
            wait_for(driver, "return document.documentElement.dataset.sw", timeout=SHELL_TIMEOUT,
                     message="the shell to register the offline worker (html[data-sw])")
            wait_for(driver, "return Boolean(navigator.serviceWorker.controller)", timeout=SW_TIMEOUT,
                     message="the offline worker to control the page", interval=0.25)
        except AssertionError:
            pass  # reported below, with what the page does offline
        facts = driver.execute_script("""return {
            controlled: Boolean(navigator.serviceWorker && navigator.serviceWorker.controller),
            serviceWorker: 'serviceWorker' in navigator, caches: typeof caches,
            requestIdleCallback: typeof requestIdleCallback,
            shell_says: document.documentElement.dataset.sw || null}""")
        errors = script_errors(driver)

        server.shutdown()
        server.server_close()
        stopped = True
        try:
            driver.refresh()
            # Without a worker the browser's error page is there at once; with one, Pyodide boots.
            wait_for(driver, "return document.documentElement.dataset.ready === 'true'",
                     timeout=180 if facts["controlled"] else 10, message="the app to start again offline")
            offline = "ready"
        except (AssertionError, WebDriverException) as err:
            offline = f"not ready: {str(err).splitlines()[0][:200]}"
        shown = driver.execute_script("return [document.title, (document.body && document.body.innerText || '')"
                                      ".trim().slice(0, 160)]")
        assert facts["controlled"] and offline == "ready", (
            f"offline reload in WebKit: {offline}; before going offline {facts}, script errors {errors}; "
            f"the offline reload shows {shown}")
        goto_route(driver, "conflict")
        assert "Organizations In Conflict" in visible(driver, "section.route[data-route='conflict'] h1")[0].text
    finally:
        if not stopped:
            server.shutdown()
            server.server_close()
