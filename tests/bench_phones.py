"""Tablet tap to phone paint over the players' phones' wire (issue 32): ``python -m tests.bench_phones``
(``make bench``).

A benchmark, not a test: it pairs a phone (360×740) with the tablet on loopback, as
tests/e2e/test_phones.py does, and reads, for each tablet tap that changes the game, the
time from the tablet's ``pointerdown`` to the first task after the next frame in which the
phone drew the new view (both pages on one machine: ``performance.timeOrigin`` + ``now`` is
one clock). Two rows: a watch seat following "Next ▸" on the initiative tracker, and a
player's seat (Anna's phone, her hand on it) following a campaign's battles recorded and
undone on the tablet. Each prints the median and p95 in milliseconds (goal: 200).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from builder.serve import serve_in_thread
from engine import campaign as cmp
from engine import codec
from engine.game import new_game

from .e2e.conftest import CHROMIUM, CHROMIUM_FLAGS, READY
from .e2e.test_phones import RECORD_WIRE, answer_on_phone, dealt_game, invite, paste_answer, wait_link

ROOT = Path(__file__).resolve().parent.parent
#: The tablet's taps: when each ``pointerdown`` happened.
TAPS = """window.__taps = []; document.addEventListener("pointerdown",
  (e) => window.__taps.push(performance.timeOrigin + e.timeStamp), true);"""
#: The phone: when the first task after the frame that follows each view message ran.
PAINTS = """window.__paints = []; setInterval(() => {
  const n = (window.__wire || []).filter((t) => t.includes('"view"')).length;
  if (n > (window.__seen || 0)) { window.__seen = n;
    requestAnimationFrame(() => setTimeout(() => window.__paints.push(performance.timeOrigin + performance.now()), 0)); }
}, 1);"""
GAMES, TAPS_PER_GAME = 3, 7


def seat_on_phone(browser, tablet, invite_seat) -> object:
    """A phone paired to the tablet's seat ``invite_seat(tablet)`` opens, its paints timed."""
    phone_context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
    phone_context.add_init_script(RECORD_WIRE)
    phone = phone_context.new_page()
    phone.set_default_timeout(120_000)
    paste_answer(tablet, answer_on_phone(phone, invite_seat(tablet)))
    phone.wait_for_selector("[data-testid=seat-bar][data-status=connected]")
    phone.evaluate(PAINTS)
    return phone


def timed_tap(tablet, phone, locator) -> float:
    """Tap ``locator`` on the tablet after a person's pause; ms from its touch to the phone's paint."""
    tablet.wait_for_timeout(600)  # a person's pause (the double-tap guard, a settled phone)
    paints = phone.evaluate("window.__paints.length")
    locator.tap()
    phone.wait_for_function("n => window.__paints.length > n", arg=paints)
    tap = tablet.evaluate("window.__taps[window.__taps.length - 1]")
    return phone.evaluate("window.__paints[window.__paints.length - 1]") - tap


def tablet_page(browser, link: str):
    tablet = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True).new_page()
    tablet.set_default_timeout(120_000)
    tablet.add_init_script(TAPS)
    tablet.goto(link)
    tablet.wait_for_selector(READY, state="attached")
    return tablet


def watch_seat(browser, base: str) -> list[float]:
    """The initiative tracker's watch seat: "Next ▸" on the tablet, GAMES games of TAPS_PER_GAME."""
    link = f"{base}#/initiative?g={codec.encode_share(dealt_game())}"
    tablet = tablet_page(browser, link)
    phone = seat_on_phone(browser, tablet, invite)
    samples = []
    for round_ in range(GAMES):
        if round_:
            tablet.evaluate("h => { location.hash = h }", link[len(base):])
            tablet.wait_for_function("() => !location.hash.includes('g=')")
        for _ in range(TAPS_PER_GAME):
            samples.append(timed_tap(tablet, phone, tablet.get_by_role("button", name="Next ▸")))
    return samples


def player_seat(browser, base: str) -> list[float]:
    """A campaign player's seat (Anna's hand on her phone): the tablet records a drawn battle
    and undoes it, GAMES × TAPS_PER_GAME taps in all (each one a new view on her phone)."""
    game = new_game(cmp.KIND, {"players": ["Anna", "Ben"], "dummy": False}, seed=2**100 + 7)
    tablet = tablet_page(browser, f"{base}#/campaign?g={codec.encode_share(game)}")
    tablet.wait_for_selector("[data-testid=table]")
    tablet.get_by_role("button", name="Players' phones…").tap()

    def anna(tablet) -> str:
        tablet.get_by_role("button", name="Invite Anna's phone").tap()
        return wait_link(tablet)

    phone = seat_on_phone(browser, tablet, anna)
    phone.wait_for_selector("[data-testid=seat-hand]")
    tablet.keyboard.press("Escape")
    samples = []
    record = tablet.locator("[data-action='campaign:record']")
    undo = tablet.locator("[data-action='session:undo']")
    for tap in range(GAMES * TAPS_PER_GAME):
        if tap % 2 == 0:
            tablet.get_by_role("radio", name="Drawn battle").tap()
            samples.append(timed_tap(tablet, phone, record))
        else:
            samples.append(timed_tap(tablet, phone, undo))
    return samples


def report(what: str, samples: list[float]) -> None:
    samples = sorted(samples)
    p95 = samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))]
    print(f"tablet tap → phone paint, loopback, {what}, {len(samples)} taps: median "
          f"{statistics.median(samples):.0f} ms, p95 {p95:.0f} ms, worst {samples[-1]:.0f} ms (goal: 200 ms)")
    sys.stdout.flush()


def main() -> None:
    server, base = serve_in_thread(ROOT / "build")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        report("initiative watch seat", watch_seat(browser, base))
        report("campaign player's seat", player_seat(browser, base))
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
