"""Start-up from a Pyodide memory snapshot in WebKit (issue 10).

A snapshot restores only in the engine that made it, and the app makes it in a module
worker: this proves that WebKit restores its own worker-made snapshot on the page's main
thread, and that a damaged one falls back to a normal boot without a word. Its own
WebDriver session: the profile must start empty.
"""

from __future__ import annotations

import pytest

from builder.serve import serve_in_thread

from .conftest import BUILD, READY_TIMEOUT, new_driver, open_app, wait_for

MADE = ("const made = document.documentElement.dataset.snapshotMade;"
        "return made !== 'making' && made")
SNAPSHOT = "return document.documentElement.dataset.snapshot"


@pytest.fixture(scope="module")
def fresh_session():
    server, url = serve_in_thread(BUILD)
    driver = new_driver()
    yield driver, url
    driver.quit()
    server.shutdown()


def reboot(driver) -> str:
    driver.refresh()
    wait_for(driver, "return document.documentElement.dataset.ready === 'true'", timeout=READY_TIMEOUT,
             message="ready after a reload")
    return driver.execute_script(SNAPSHOT)


def test_webkit_restores_its_own_worker_made_snapshot_and_falls_back_when_damaged(fresh_session):
    driver, url = fresh_session
    open_app(driver, url + "#/conflict")
    assert driver.execute_script(SNAPSHOT) == "none"
    # The worker boots a second Pyodide: minutes on a busy machine.
    assert wait_for(driver, MADE, timeout=6 * READY_TIMEOUT, message="the snapshot to be made") == "stored"

    assert reboot(driver) == "used"
    # Python runs the table from the restored heap.
    wait_for(driver, "return [...document.querySelectorAll('#app-conflict button')]"
                     ".some((b) => b.textContent.includes('Purple Dragon'))", timeout=30,
             message="the conflict setup to render")
    assert driver.execute_script("return document.querySelectorAll('.error-box, .py-error').length") == 0

    driver.set_script_timeout(60)
    driver.execute_async_script("""const done = arguments[arguments.length - 1];
      (async () => {
        const cache = await caches.open('ct-snapshot');
        // Garbage of the stored length, with the maker's headers: it passes boot.mjs's length
        // check and reaches Pyodide, which must refuse it.
        for (const request of await cache.keys()) {
          const stored = await cache.match(request);
          const size = (await stored.clone().arrayBuffer()).byteLength;
          await cache.put(request, new Response(new Uint8Array(size).fill(7), {headers: stored.headers}));
        }
      })().then(done, done);""")
    assert reboot(driver) == "failed"
    assert driver.execute_script("return document.querySelectorAll('.error-box, .py-error').length") == 0
    assert driver.execute_script("return document.getElementById('boot').hidden")
