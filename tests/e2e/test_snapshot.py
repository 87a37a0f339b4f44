"""Start-up from a Pyodide memory snapshot (issue 10), in Chromium.

The first visit boots normally and, once ready and idle, makes this device's snapshot in
a worker (vendor/pyodide/boot.mjs, snapshot-worker.mjs); later visits restore it. Both
paths must reach ready; a broken or stale snapshot must never be used and never be seen.
``<html data-snapshot>`` says which path a boot took.
"""

from __future__ import annotations

import re

import pytest

from .conftest import BUILD, READY, TABLET_LANDSCAPE, open_app

CACHE = "ct-snapshot"
#: The first boot and the worker that makes the snapshot are slow on a loaded machine.
SLOW = 300_000
SNAPSHOT = "() => document.documentElement.dataset.snapshot"
MADE = "() => (made => made !== 'making' && made)(document.documentElement.dataset.snapshotMade)"
ENTRIES = f"async () => (await (await caches.open('{CACHE}')).keys()).map((r) => r.url)"


def boot(page, url: str | None = None) -> str:
    """Load ``url`` (or reload the page), wait for ready; which path the boot took."""
    if url is None:
        page.reload()
    else:
        page.goto(url)
    page.wait_for_selector(READY, state="attached", timeout=SLOW)
    return page.evaluate(SNAPSHOT)


def no_error_shown(page) -> None:
    assert page.locator(".error-box, .py-error, [role=alert]").count() == 0
    assert page.locator("#boot").is_hidden()


@pytest.fixture(scope="module")
def device(browser, base_url):
    """A browser profile (context) that has made its snapshot on a first visit."""
    context = browser.new_context(viewport=TABLET_LANDSCAPE, service_workers="block")
    page = context.new_page()
    assert boot(page, base_url) == "none"
    page.wait_for_function(MADE, timeout=SLOW)
    assert page.evaluate("document.documentElement.dataset.snapshotMade") == "stored"
    entries = page.evaluate(ENTRIES)
    assert len(entries) == 1 and "/vendor/pyodide/snapshot/" in entries[0]
    page.close()
    yield context
    context.close()


def test_a_later_visit_boots_from_the_snapshot_and_plays(device, base_url):
    page = device.new_page()
    recorder = open_app(page, base_url + "#/conflict", timeout=SLOW)
    assert page.evaluate(SNAPSHOT) == "used"
    assert recorder.errors == []
    assert recorder.foreign(base_url) == []
    # Python really runs the table: the example loads and a conflict starts.
    page.get_by_role("button", name="Load the Purple Dragon League example").click()
    page.get_by_role("button", name="Start the conflict").click()
    page.wait_for_selector("[data-testid=table]")
    no_error_shown(page)
    page.close()


def dealt_hand(page, base_url) -> str:
    """A new conflict from the worked example with no seed: the first hand dealt."""
    page.goto(base_url + "#/conflict")
    page.evaluate("localStorage.clear()")  # no game to resume: a new one is dealt
    assert boot(page) == "used"
    page.get_by_role("button", name="Load the Purple Dragon League example").click()
    page.locator("[data-field=seed]").fill("")
    page.get_by_role("button", name="Start the conflict").click()
    page.locator("[data-testid=curtain] button").click()
    hand = page.locator("[data-testid=hand]").inner_text()
    assert re.search(r"[♠♥♦♣]", hand), hand
    return hand


def test_two_boots_from_one_snapshot_deal_different_hands(device, base_url):
    page = device.new_page()
    hands = [dealt_hand(page, base_url) for _ in range(2)]
    assert hands[0] != hands[1]
    page.close()


def test_the_off_switch_boots_normally(device, base_url):
    page = device.new_page()
    assert boot(page, base_url + "?snapshot=off") == "off"
    no_error_shown(page)
    page.close()


@pytest.mark.parametrize("damage", ["garbage", "truncated", "unmarked"])
def test_a_broken_snapshot_falls_back_to_a_normal_boot_silently(device, base_url, damage):
    page = device.new_page()
    recorder = open_app(page, base_url, timeout=SLOW)
    good = page.evaluate(ENTRIES)[0]
    # Keep the good snapshot aside (for the tests after this one), then damage it.
    page.evaluate("""async ([cacheName, url, damage]) => {
      const cache = await caches.open(cacheName);
      const stored = await cache.match(url);
      const keep = await caches.open("test-keep");
      await keep.put(url, stored.clone());  // the entry as the maker stored it, headers too
      const bytes = new Uint8Array(await stored.arrayBuffer());
      // Garbage of the right length reaches Pyodide, which refuses it; a cut-short entry
      // (with the maker's length header kept) is refused before Pyodide sees it.
      // An entry without the length header (not the maker's) is refused too.
      if (damage === "unmarked") {
        await cache.put(url, new Response(bytes));
      } else {
        const bad = damage === "garbage" ? bytes.slice().fill(7) : bytes.slice(0, 4096);
        await cache.put(url, new Response(bad, {headers: stored.headers}));
      }
    }""", [CACHE, good, damage])
    assert boot(page) == "failed"
    assert recorder.errors == []
    no_error_shown(page)
    # The broken snapshot is gone and this version does not make another one.
    entries = page.evaluate(ENTRIES)
    assert entries == [good + "&failed"]
    page.wait_for_function(MADE, timeout=SLOW)  # the maker looks once the page is quiet
    assert page.evaluate("document.documentElement.dataset.snapshotMade") == "not needed"
    assert boot(page) == "none"
    # Put the good snapshot back.
    page.evaluate("""async ([cacheName, url]) => {
      const good = await (await caches.open("test-keep")).match(url);
      await caches.delete(cacheName);
      await (await caches.open(cacheName)).put(url, good);
      await caches.delete("test-keep");
    }""", [CACHE, good])
    assert boot(page) == "used"
    page.close()


def test_a_stale_snapshot_is_never_used_and_is_replaced(device, base_url):
    """A new deploy (another app or Pyodide build) has another key: the old snapshot is not used."""
    key = re.search(r'const KEY = "(\w+)"', (BUILD / "vendor/pyodide/boot.mjs").read_text()).group(1)
    new_key = key[::-1]
    page = device.new_page()

    def new_version(route):
        response = route.fetch()
        route.fulfill(response=response, body=response.text().replace(key, new_key))

    page.route("**/vendor/pyodide/boot.mjs", new_version)
    assert boot(page, base_url) == "none"
    no_error_shown(page)
    page.wait_for_function(MADE, timeout=SLOW)
    assert page.evaluate("document.documentElement.dataset.snapshotMade") == "stored"
    entries = page.evaluate(ENTRIES)
    assert len(entries) == 1 and new_key in entries[0] and key not in entries[0]
    assert boot(page) == "used"  # the new version's own snapshot
    # And the old version finds none of its own. It is served by a route as well, straight
    # from the server, so no cache of the browser can hand the page the new version's module:
    # once, under two workers, a plain unroute and reload booted the new version again (its
    # key is in the URL of its snapshot, which the old version never looks up).
    page.unroute("**/vendor/pyodide/boot.mjs")
    page.route("**/vendor/pyodide/boot.mjs", lambda route: route.fulfill(response=route.fetch()))
    assert boot(page) == "none"
    assert key in page.evaluate("async () => (await fetch('vendor/pyodide/boot.mjs')).text()")
    page.close()
