"""Players' phones (issue 32) in WebKit, the engine of every iPad and iPhone browser.

WebKitGTK here (Debian's 2.50) has no ``RTCPeerConnection`` at all (not even with its
``enable-webrtc`` setting), no ``BarcodeDetector``, and ``getUserMedia`` without a camera
(docs/PLATFORM-seats.md). So a WebKitGTK tablet and phone cannot pair here; what this
checks is that each says so in plain words, and that what does work works: with WebRTC,
the tablet's invitation appears; without it, "Invite a watcher" is off and said why, and
a phone's join link says it cannot join, instead of failing quietly.
"""

from __future__ import annotations

from engine import codec
from engine import game as games
from tests.engine.test_consim import two_sides

from .conftest import wait_for
from .kit import assert_app_ok

TABLE = "section.route[data-route='initiative']"
JOIN = "section.route[data-route='join']"


def test_the_tablet_and_a_phone_say_what_this_browser_can_do(app, driver):
    has = driver.execute_script("return {rtc: typeof RTCPeerConnection === 'function', "
                                "deflate: typeof CompressionStream === 'function', "
                                "wire: window.ctWire.available()}")
    assert has["deflate"]  # CompressionStream("deflate-raw") is in WebKit (Safari 16.4+)
    assert has["wire"] == has["rtc"]
    link = codec.encode_share(games.new_game("initiative", two_sides(), None, 2**127 + 3))
    driver.execute_script("location.hash = arguments[0]", f"#/initiative?g={link}")
    wait_for(driver, "return document.querySelector(arguments[0])", f"{TABLE} [data-testid=deal-panel]",
             message="the table")
    driver.execute_script("[...document.querySelectorAll(arguments[0] + ' button')]"
                          ".find(b => b.getAttribute('aria-label') === \"Players' phones…\").click()", TABLE)
    wait_for(driver, "return document.querySelector(arguments[0])", f"{TABLE} .phones", message="the drawer")
    invite = ("[...document.querySelectorAll(arguments[0] + ' .phones button')]"
              ".find(b => b.textContent === 'Invite a watcher')")
    if has["rtc"]:
        driver.execute_script(f"{invite}.click()", TABLE)
        wait_for(driver, "return document.querySelector(arguments[0])", f"{TABLE} [data-testid=phones-link]",
                 message="the invitation", timeout=30)
    else:
        assert driver.execute_script(f"return {invite}.disabled", TABLE)
        text = driver.execute_script("return document.querySelector(arguments[0]).textContent", f"{TABLE} .phones")
        assert "This browser cannot connect phones (it has no WebRTC)." in text
    # A phone opening an invitation link.
    driver.execute_script("location.hash = '#/join?t=initiative&s=watch&k=abc123&o=lZLNbhshEIDvlvwOvAAJA'")
    wait_for(driver, "return document.querySelector(arguments[0])", f"{JOIN} [data-testid=seat-bar]",
             message="the phone's seat bar")
    page = driver.execute_script("return document.querySelector(arguments[0]).textContent", JOIN)
    assert "Join CONSIM as a watcher" in page
    if has["rtc"]:
        wait_for(driver, "return document.querySelector(arguments[0])", f"{JOIN} [data-testid=join-problem]",
                 message="the cut-short invitation's message")
    else:
        assert "This browser cannot join a table (it has no WebRTC)." in page
    assert_app_ok(driver)
