"""Share at the table (issue 11): every link has a QR code that a real decoder reads back.

The codes are screenshotted as the browser draws them and decoded with zbarimg
(Debian's zbar-tools, installed by `make test`); the decoded link must be the link,
for both links, in both themes, in the drawer and full screen, and it must open the
same game in a fresh browser.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess

import pytest

from engine import codec, conflict
from engine.game import apply, new_game, replay

from .conftest import TABLET_LANDSCAPE, TABLET_PORTRAIT, open_app
from .test_conflict import SEED, keep_all, ratings

ZBARIMG = shutil.which("zbarimg") or "/usr/bin/zbarimg"
#: Start-up and the first QR codes on a machine shared with other test runs can be slow.
SLOW = 90_000


@pytest.fixture(autouse=True)
def _patient(page):
    page.set_default_timeout(SLOW)


def open_slowly(page, url: str):
    return open_app(page, url, timeout=SLOW)


def decode(png_path) -> list[str]:
    """Every QR code zbarimg finds in a PNG, as text."""
    result = subprocess.run([ZBARIMG, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(png_path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode in (0, 4), result.stderr  # 4: no code found (asserted by the caller)
    return [line for line in result.stdout.splitlines() if line]


def mid_game(page, base_url, plays: int = 3):
    """The Purple Dragon example after the discards and a few cards played."""
    open_slowly(page, base_url + "#/conflict")
    page.get_by_role("button", name="Load the Purple Dragon League example").click()
    page.locator("[data-field=seed]").fill(SEED)
    page.get_by_role("button", name="Start the conflict").click()
    page.wait_for_selector("[data-testid=table]")
    keep_all(page)
    for _ in range(plays):
        page.locator("[data-testid=curtain] button").click()
        playable = page.locator("[data-testid=hand] .card.playable")
        if not playable.count():
            break
        playable.first.tap()


def code_of(page, which: str):
    svg = page.locator(f"[data-testid=qr-{which}] svg")
    svg.wait_for(timeout=SLOW)  # segno is fetched and imported when the drawer first opens
    return svg


def test_both_codes_decode_to_their_links_in_both_themes_and_open_the_same_game(page, base_url, new_device,
                                                                                  tmp_path):
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    mid_game(page, base_url)
    status = page.locator("[data-testid=status]").inner_text()
    now = ratings(page)
    card = page.locator("[data-testid=current-card] .card").get_attribute("data-card")
    assert not any("segno" in url for url in requests)  # start-up and play never load the QR library
    page.get_by_role("button", name="Share").click()
    links = {which: page.locator(f"[data-testid=share-{which}]").input_value() for which in ("public", "full")}
    decoded: dict[str, str] = {}
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        for which, link in links.items():
            svg = code_of(page, which)
            # always dark modules on a light square, whatever the theme
            assert svg.locator("rect").evaluate("e => getComputedStyle(e).fill") == "rgb(255, 255, 255)"
            assert svg.locator("path").evaluate("e => getComputedStyle(e).fill") == "rgb(0, 0, 0)"
            box = svg.bounding_box()
            assert box["width"] >= 260 and abs(box["width"] - box["height"]) < 1, box  # large and square
            svg.evaluate("e => e.scrollIntoView({block: 'center'})")  # clear of the sticky top bar
            png = tmp_path / f"{which}-{theme}.png"
            svg.screenshot(path=str(png))
            found = decode(png)
            assert found == [link], (which, theme, found)
            decoded[which] = found[0]
    assert sum(url.endswith("/vendor/segno.zip") for url in requests) == 1  # loaded once, on first Share

    other = new_device(viewport=TABLET_LANDSCAPE, has_touch=True)
    try:
        guest = other.new_page()
        guest.set_default_timeout(SLOW)
        open_slowly(guest, decoded["full"])
        guest.wait_for_selector("[data-testid=table]")
        assert guest.locator("[data-testid=status]").inner_text() == status
        assert ratings(guest) == now
        spectator = other.new_page()
        spectator.set_default_timeout(SLOW)
        open_slowly(spectator, decoded["public"])
        spectator.wait_for_selector("[data-testid=table]")
        assert spectator.locator("[data-testid=current-card] .card").get_attribute("data-card") == card
        assert spectator.locator("[data-testid=hand]").count() == 0
    finally:
        other.close()


@pytest.mark.parametrize("viewport", [TABLET_PORTRAIT, TABLET_LANDSCAPE], ids=["portrait", "landscape"])
def test_full_screen_shows_one_code_alone_at_the_largest_size(page, base_url, viewport, tmp_path):
    page.set_viewport_size(viewport)
    mid_game(page, base_url, plays=1)
    page.get_by_role("button", name="Share").click()
    link = page.locator("[data-testid=share-full]").input_value()
    in_drawer = code_of(page, "full").bounding_box()["width"]
    page.get_by_role("button", name="Show the full game (for your own devices) QR code full screen").click()
    overlay = page.locator("[data-testid=qr-fullscreen]")
    assert overlay.get_attribute("role") == "dialog"
    svg = overlay.locator("svg")
    assert svg.count() == 1  # one code alone
    box = svg.bounding_box()
    short_side = min(viewport["width"], viewport["height"])
    assert box["width"] > in_drawer and box["width"] >= short_side - 160, (box, in_drawer)
    assert box["x"] >= 0 and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]
    png = tmp_path / "full-screen.png"
    svg.screenshot(path=str(png))
    assert decode(png) == [link]
    overlay.get_by_role("button", name="Close").click()
    assert page.locator("[data-testid=qr-fullscreen]").count() == 0
    assert page.locator("[data-testid=qr-public] svg").count() == 1  # back in the drawer


def long_game_link(base_url: str, actions: int = 200) -> str:
    """A conflict link whose full game is longer than a scannable code holds."""
    rng = random.Random(3)
    game = new_game("conflict", conflict.purple_dragon_setup(), seed=3)
    while len(game.actions) < actions:
        state = replay(game)
        if state.phase == "conflict-over":
            break
        if state.phase == "discard":
            s, p = next((s, p) for s in (0, 1) for p in range(len(state.sides[s].players))
                        if not state.discarded[s][p])
            cards = [str(c) for c in state.hands[s][p] if rng.random() < 0.3]
            action = {"type": "discard", "side": s, "player": p, "cards": cards}
        elif state.phase == "round-over":
            action = {"type": "next_round"}
        else:
            plays = conflict.legal_plays(state)
            if plays:
                p, card = rng.choice(plays)
                action = {"type": "play", "player": p, "card": str(card)}
            else:
                action = {"type": "pass"}
        game = apply(game, action)
    return f"{base_url}#/conflict?g={codec.encode_share(game)}"


def test_a_full_link_too_long_to_scan_says_so_and_offers_the_spectator_code(page, base_url, tmp_path):
    open_slowly(page, long_game_link(base_url))
    page.wait_for_selector("[data-testid=table]")
    page.get_by_role("button", name="Share").click()
    full = page.locator("[data-testid=share-full]").input_value()
    public = page.locator("[data-testid=share-public]").input_value()
    assert len(full) > 1273 >= len(public)
    code_of(page, "public")
    notice = page.locator("[data-testid=qr-full]")
    assert f"{len(full):,} characters long" in notice.inner_text()
    assert "Scan the spectator link instead" in notice.inner_text()
    assert notice.locator("svg").count() == 0
    notice.get_by_role("button", name="Show the spectator code full screen").click()
    overlay = page.locator("[data-testid=qr-fullscreen]")
    assert "Spectator view" in overlay.inner_text()
    png = tmp_path / "spectator.png"
    overlay.locator("svg").screenshot(path=str(png))
    assert decode(png) == [public]


def test_home_explains_opening_a_game_from_another_device(page, base_url):
    open_slowly(page, base_url)
    section = page.locator("section.another-device")
    assert section.get_by_role("heading", name="Open a game from another device").is_visible()
    text = section.inner_text()
    assert "camera app" in text and "QR code" in text and "new save" in text


def test_a_full_screen_code_takes_the_focus_as_a_dialog_and_gives_it_back(page, base_url):
    """Issue 22, 16: the full-screen code is a modal dialog that takes the focus (its Close
    button); Tab stays inside; Escape or Close gives the focus back to "Full screen"."""
    from .tablet import assert_focus

    mid_game(page, base_url, plays=1)
    page.get_by_role("button", name="Share").click()
    for which, close in (("public", "Escape"), ("full", "Close")):
        code_of(page, which)
        opener = page.locator(f"[data-testid=qr-{which}]").get_by_role("button", name=re.compile("full screen"))
        opener.focus()
        page.keyboard.press("Enter")
        dialog = page.get_by_role("dialog")
        dialog.wait_for()
        assert dialog.get_attribute("aria-modal") == "true" and "QR code" in dialog.get_attribute("aria-label")
        assert_focus(page, dialog.get_by_role("button", name="Close"), message="a full-screen code:")
        page.keyboard.press("Tab")
        assert dialog.evaluate("d => d.contains(document.activeElement)"), "Tab left the full-screen code"
        page.keyboard.press("Shift+Tab")
        assert dialog.evaluate("d => d.contains(document.activeElement)"), "Shift+Tab left the full-screen code"
        if close == "Escape":
            page.keyboard.press("Escape")
        else:
            page.keyboard.press("Enter")  # on Close
        dialog.wait_for(state="detached")
        assert_focus(page, opener, message=f"after the {which} code closed ({close}):")


#: A page that is never quiet: a pointer event every 300 ms, so the shell's quiet-moment work
#: (the later standard-library zip's prefetch, the memory snapshot) never starts.
NEVER_QUIET = "setInterval(() => window.dispatchEvent(new Event('pointerdown')), 300)"


@pytest.mark.fresh_browser  # the service worker installs on this first visit
def test_offline_the_codes_draw_even_before_the_quiet_moment_prefetch(page, base_url):
    """Offline, a page's synchronous request is not answered from the service worker's cache
    (docs/PLATFORM-seats.md): the QR codes' standard-library modules come by ``fetch``
    (web/qr.py ``later_library``), so a Share drawer opened on an offline tablet before the
    page's first quiet moment still draws its codes, and nothing falls back to the full library."""
    from .test_shell import wait_for_controller

    page.add_init_script(NEVER_QUIET)
    open_slowly(page, base_url)
    wait_for_controller(page)
    page.context.set_offline(True)
    try:
        page.reload()
        page.wait_for_selector("html[data-ready=true]", state="attached", timeout=SLOW)
        assert page.evaluate("document.documentElement.dataset.snapshot") != "used"  # a boot of its own
        mid_game(page, base_url, plays=1)
        page.get_by_role("button", name="Share").click()
        assert code_of(page, "public").is_visible()
        assert code_of(page, "full").is_visible()
        assert page.evaluate("document.documentElement.dataset.stdlib") != "full"
    finally:
        page.context.set_offline(False)
