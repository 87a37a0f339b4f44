"""The offline app shell (issue 2): ready, routes, origin, offline, subpath, layout, a11y."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .conftest import READY, ROOT, TABLET_LANDSCAPE, TABLET_PORTRAIT, open_app

ROUTES = ["", "conflict", "campaign", "initiative", "battle"]
TITLES = {"": "Conflict Table", "conflict": "Organizations In Conflict", "campaign": "Campaign",
          "initiative": "CONSIM", "battle": "Ascension Isle"}


def visible_title(page) -> str:
    return page.locator("section.route:not([hidden]) h1").inner_text()


@pytest.mark.fresh_browser  # a first visit: nothing cached, no service worker yet
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


@pytest.mark.fresh_browser  # page.route must see the wasm request (a service worker would answer it unseen)
def test_navigation_works_before_python_is_ready(page, base_url):
    # Block the Python runtime: the prerendered shell must still navigate and show rules.
    page.route("**/pyodide.asm.wasm", lambda route: route.abort())
    page.goto(base_url)
    page.get_by_role("link", name="Campaign", exact=False).first.click()
    # The shell switches sections on `hashchange`, after the click returns: wait for it (an
    # immediate read once found the home section still showing, under two workers).
    expect(page.locator("section.route:not([hidden]) h1")).to_contain_text("Campaign")
    assert page.locator("#rules-campaign .rule").count() >= 5
    assert page.locator("#boot").is_visible()


def test_works_from_a_subpath(page, sub_url):
    recorder = open_app(page, sub_url + "#/conflict")
    assert "Organizations In Conflict" in visible_title(page)
    assert recorder.foreign(sub_url) == []
    assert all("/conflict-table/" in u for u in recorder.requests if u.startswith("http"))
    assert recorder.errors == []


@pytest.mark.fresh_browser  # the service worker installs and takes control on a first visit
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
def test_accessibility_audit(new_device, base_url, theme):
    context = new_device(bypass_csp=True, viewport=TABLET_LANDSCAPE, has_touch=True,
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


@pytest.mark.fresh_browser  # a service worker installs, then a new one replaces it
def test_a_new_deploy_shows_a_quiet_reload_notice(page, site_dir, tmp_path):
    import shutil

    from builder.serve import serve_in_thread

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


# ---------------------------------------------------------------- the standard library cut (issue 19)
@pytest.mark.fresh_browser  # what a first visit requests: the cut, never the full library
def test_the_app_loads_the_cut_standard_library_and_never_the_full_one(page, base_url):
    full, cut = [], []
    page.on("request", lambda r: (full if r.url.endswith("/python_stdlib.zip") else
                                  cut if r.url.endswith("/python_stdlib_cut.zip") else []).append(r.url))
    recorder = open_app(page, base_url + "#/conflict")
    assert len(cut) >= 1 and full == []
    assert page.evaluate("document.documentElement.dataset.stdlib") is None
    assert recorder.errors == []


@pytest.mark.fresh_browser  # the fallback fetch of the full library, on a device that has never had it
def test_a_module_the_cut_left_out_loads_from_the_full_library(page, base_url):
    """The cut lacks ``colorsys`` (in neither the boot nor the later zip): an import of it from the page (PyScript runs a new
    ``<script type="py">`` in the app's interpreter) fetches the full library once and
    works; the page says so, and the table goes on working."""
    from pathlib import Path
    cut = (Path(__file__).parents[2] / "builder" / "stdlib-cut.txt").read_text().split()
    assert "colorsys" not in cut, "pick a probe module the cut leaves out"
    recorder = open_app(page, base_url + "#/conflict")
    full = []
    page.on("request", lambda r: full.append(r.url) if r.url.endswith("/python_stdlib.zip") else None)
    page.evaluate("""() => {
      const script = document.createElement("script");
      script.type = "py";
      script.textContent = [
        "import colorsys, sys",
        "from js import document",
        "document.documentElement.dataset.probe = repr(colorsys.rgb_to_hsv(1.0, 0.0, 0.0))",
        "document.documentElement.dataset.probeFile = sys.modules['colorsys'].__file__",
      ].join("\\n");
      document.body.append(script);
    }""")
    page.wait_for_function("() => document.documentElement.dataset.probe", timeout=60_000)
    assert page.evaluate("document.documentElement.dataset.probe") == "(0.0, 1.0, 1.0)"
    assert page.evaluate("document.documentElement.dataset.probeFile").endswith("-full.zip/colorsys.py")
    assert page.evaluate("document.documentElement.dataset.stdlib") == "full"
    assert len(full) == 1
    assert [e for e in recorder.errors if "python_stdlib" in e or "Traceback" in e] == []
    # The app still runs: a conflict starts.
    page.get_by_role("button", name="Load the Purple Dragon League example").click()
    page.get_by_role("button", name="Start the conflict").click()
    page.wait_for_selector("[data-testid=table]")


def test_tracebacks_in_copy_details_keep_file_and_line_without_shipped_sources(page, base_url):
    """app.zip ships bytecode only; the line numbers of "Copy details" come from the code objects."""
    import re
    import zipfile

    from .test_conflict import keep_all, start_example

    assert not any(n.endswith(".py") for n in zipfile.ZipFile(ROOT / "build" / "app.zip").namelist())
    start_example(page, base_url)
    keep_all(page)
    # The Saves drawer formats dates (web/platform.py) and that now throws.
    page.evaluate("() => { Date.prototype.toLocaleString = () => { throw new Error('injected failure'); }; }")
    page.get_by_role("button", name="Saves").click()
    details = page.locator("[data-testid=app-error] textarea").input_value()
    frames = re.findall(r'File "((?:engine|web)/[\w/]+\.py)", line (\d+), in (\w+)', details)
    assert frames, details
    for path, line, function in frames:
        source = (ROOT / path).read_text().splitlines()
        assert 1 <= int(line) <= len(source)
        assert any(re.match(rf"\s*(async\s+)?def {function}\b", text) for text in source[:int(line)]), (path, line)
    failing = [(path, int(line)) for path, line, _ in frames if path == "web/platform.py"]
    assert failing and "toLocaleString" in (ROOT / "web/platform.py").read_text().splitlines()[failing[-1][1] - 1]


VIEW_MARKS = "() => performance.getEntriesByType('mark').filter(m => m.name.startsWith('ct:view:')).map(m => m.name)"


def test_start_up_builds_only_the_first_screen_and_the_other_tables_when_idle(page, base_url):
    """Issue 31 (start-up does not grow): at ready only the route shown has its view built;
    the tables' views follow at idle moments, and a phone's join screen only when opened."""
    open_app(page, base_url)
    built_at_ready = page.evaluate("""() => performance.getEntriesByType('mark')
        .filter(m => m.name.startsWith('ct:view:') && m.startTime <= performance.getEntriesByName('ct:ready')[0].startTime)
        .map(m => m.name)""")
    assert built_at_ready == ["ct:view:home"]
    page.wait_for_selector("html[data-views=all]", state="attached")
    assert sorted(page.evaluate(VIEW_MARKS)) == sorted(
        ["ct:view:home", "ct:view:conflict", "ct:view:campaign", "ct:view:initiative", "ct:view:battle"])
    page.goto(f"{base_url}#/battle")
    page.locator("section[data-route=battle]:not([hidden]) [data-testid=setup]").wait_for()
    assert "ct:view:join" not in page.evaluate(VIEW_MARKS)


def test_a_link_to_a_table_builds_that_table_first(page, base_url):
    page.goto(f"{base_url}#/campaign")
    page.wait_for_selector(READY, state="attached", timeout=90_000)
    assert page.evaluate(VIEW_MARKS)[0] == "ct:view:campaign"
    page.wait_for_selector("html[data-views=all]", state="attached")
    assert "ct:view:home" not in page.evaluate(VIEW_MARKS)  # Home is built when it is shown
    assert page.locator("section[data-route=campaign]:not([hidden])").is_visible()
