"""The offline app shell (issue 2): ready, routes, origin, offline, subpath, layout, a11y."""

from __future__ import annotations

import json

import pytest

from .conftest import READY, ROOT, TABLET_LANDSCAPE, TABLET_PORTRAIT, open_app

ROUTES = ["", "conflict", "campaign", "initiative", "battle"]
TITLES = {"": "Conflict Table", "conflict": "Organizations In Conflict", "campaign": "Campaign",
          "initiative": "CONSIM", "battle": "Ascension Isle"}


def visible_title(page) -> str:
    return page.locator("section.route:not([hidden]) h1").inner_text()


def test_app_becomes_ready_without_errors_or_foreign_requests(page, base_url):
    recorder = open_app(page, base_url)
    assert page.locator("#boot").is_hidden()
    assert recorder.foreign(base_url) == []
    assert recorder.errors == []
    # Pyodide really ran: Python set the marker, hid the boot bar and measured itself.
    assert page.evaluate("performance.getEntriesByName('ct:ready').length") == 1


@pytest.mark.parametrize("route", ROUTES)
def test_every_route_renders(app, base_url, route):
    app.goto(f"{base_url}#/{route}")
    assert TITLES[route] in visible_title(app)
    assert app.locator(f"section.route[data-route='{route or 'home'}']").is_visible()
    if route:
        rules = app.locator(f"#rules-{route}")
        rules.locator("summary").click()
        assert rules.locator(".rule").count() >= 5
    assert app.recorder.errors == []


def test_navigation_works_before_python_is_ready(page, base_url):
    # Block the Python runtime: the prerendered shell must still navigate and show rules.
    page.route("**/pyodide.asm.wasm", lambda route: route.abort())
    page.goto(base_url)
    page.get_by_role("link", name="Campaign", exact=False).first.click()
    assert "Campaign" in visible_title(page)
    assert page.locator("#rules-campaign .rule").count() >= 5
    assert page.locator("#boot").is_visible()


def test_works_from_a_subpath(page, sub_url):
    recorder = open_app(page, sub_url + "#/conflict")
    assert "Organizations In Conflict" in visible_title(page)
    assert recorder.foreign(sub_url) == []
    assert all("/conflict-table/" in u for u in recorder.requests if u.startswith("http"))
    assert recorder.errors == []


def test_offline_after_first_visit(page, base_url):
    open_app(page, base_url)
    wait_for_controller(page)
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=30_000)
    page.goto(base_url + "#/conflict")
    assert "Organizations In Conflict" in visible_title(page)


@pytest.mark.parametrize("viewport", [TABLET_LANDSCAPE, TABLET_PORTRAIT], ids=["landscape", "portrait"])
def test_no_horizontal_overflow_on_tablets(app, base_url, viewport):
    app.set_viewport_size(viewport)
    for route in ROUTES:
        app.goto(f"{base_url}#/{route}")
        app.locator(f"section.route[data-route='{route or 'home'}'] summary").first.click() if route else None
        overflow = app.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, route


def test_touch_targets_are_at_least_44px(app, base_url):
    for route in ROUTES:
        app.goto(f"{base_url}#/{route}")
        small = app.evaluate("""() => [...document.querySelectorAll(
              'section.route:not([hidden]) button, section.route:not([hidden]) a.button, header.bar a, header.bar button, summary')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.textContent.trim().slice(0, 30), e.getBoundingClientRect()])
            .filter(([, r]) => r.height < 44 || r.width < 44).map(([t, r]) => `${t} ${r.width}x${r.height}`)""")
        assert small == [], route


def test_manifest_and_icons_make_it_installable(app, base_url):
    manifest = app.evaluate("fetch('./manifest.webmanifest').then(r => r.json())")
    assert manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        status = app.evaluate(f"fetch('./{icon['src']}').then(r => r.status)")
        assert status == 200


def test_content_security_policy_is_strict(app):
    csp = app.locator("meta[http-equiv='Content-Security-Policy']").get_attribute("content")
    assert "default-src 'self'" in csp
    assert "'unsafe-inline'" not in csp  # no inline script or style
    assert "http" not in csp and "*" not in csp  # no remote origin, no wildcard
    for directive in ("object-src 'none'", "base-uri 'none'", "connect-src 'self'"):
        assert directive in csp


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def axe_serious(page) -> list[str]:
    """Serious and critical axe-core violations on the page as it is now."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text())
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])}: {v['nodes'][0]['target']})"
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_accessibility_audit(browser, base_url, theme):
    context = browser.new_context(bypass_csp=True, viewport=TABLET_LANDSCAPE, has_touch=True,
                                  color_scheme=theme)
    page = context.new_page()
    open_app(page, base_url)
    found = {}
    for route in ROUTES:
        page.goto(f"{base_url}#/{route}")
        if route:
            page.locator(f"#rules-{route} summary").click()
        found[route or "home"] = axe_serious(page)
    context.close()
    assert all(v == [] for v in found.values()), json.dumps(found, indent=1)


def wait_for_controller(page) -> None:
    """First visits are not controlled by the service worker yet: reload until they are."""
    page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
    for _ in range(5):
        if page.evaluate("navigator.serviceWorker.controller !== null"):
            return
        page.reload()
        page.wait_for_selector(READY, state="attached")
    raise AssertionError("the service worker never took control")


def test_a_new_deploy_shows_a_quiet_reload_notice(page, site_dir, tmp_path):
    import shutil

    from web.serve import serve_in_thread

    site = tmp_path / "site"
    shutil.copytree(site_dir, site)
    server, url = serve_in_thread(site)
    try:
        open_app(page, url)
        wait_for_controller(page)
        assert page.locator("#update-notice").is_hidden()
        old = page.evaluate("caches.keys()")
        # Deploy a new version: the service worker's content (and cache name) changes.
        sw = (site / "sw.js").read_text()
        (site / "sw.js").write_text(sw.replace('const CACHE = "conflict-table-', 'const CACHE = "conflict-table-new-'))
        page.reload()
        page.wait_for_selector("#update-notice", state="visible", timeout=30_000)
        with page.expect_navigation():
            page.locator("#update-reload").click()
        page.wait_for_selector(READY, state="attached")
        page.wait_for_function("caches.keys().then(k => k.length === 1 && k[0].startsWith('conflict-table-new-'))")
        assert page.evaluate("caches.keys()") != old
        assert page.locator("#update-notice").is_hidden()
    finally:
        server.shutdown()


def test_print_style_shows_the_rules_without_the_app_chrome(app, base_url):
    app.goto(base_url + "#/conflict")
    app.emulate_media(media="print")
    assert app.locator("header.bar").is_hidden()
    assert app.locator("#app-conflict").is_hidden()
    assert app.locator("#rule-OIC-11").is_visible()  # printed even though the panel is closed
    app.emulate_media(media="screen")
    assert app.locator("#rule-OIC-11").is_hidden()


def test_rule_cross_references_keep_the_route(app, base_url):
    app.goto(base_url + "#/conflict")
    app.locator("#rules-conflict summary").click()
    app.locator("#rule-OIC-2 a[href='#rule-OIC-14']").click()
    assert "flash" in app.locator("#rule-OIC-14").get_attribute("class")
    assert app.url.endswith("#/conflict")
