"""Tablet tap to phone paint over the players' phones' wire (issue 32): ``python -m tests.bench_phones``
(``make bench``).

A benchmark, not a test: it pairs a phone (360×740) with the tablet on loopback, as
tests/e2e/test_phones.py does, taps "Next ▸" on the initiative tracker and reads, for each
tap, the time from the tablet's ``pointerdown`` to the first task after the next frame in
which the phone drew the new view (both pages on one machine: ``performance.timeOrigin``
+ ``now`` is one clock). It prints the median and p95 in milliseconds (goal: 200).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from builder.serve import serve_in_thread
from engine import codec

from .e2e.conftest import CHROMIUM, CHROMIUM_FLAGS, READY
from .e2e.test_phones import RECORD_WIRE, answer_on_phone, dealt_game, invite, paste_answer

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


def main() -> None:
    server, base = serve_in_thread(ROOT / "build")
    link = f"{base}#/initiative?g={codec.encode_share(dealt_game())}"
    samples: list[float] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        tablet = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True).new_page()
        tablet.set_default_timeout(120_000)
        tablet.add_init_script(TAPS)
        tablet.goto(link)
        tablet.wait_for_selector(READY, state="attached")
        phone_context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
        phone_context.add_init_script(RECORD_WIRE)
        phone = phone_context.new_page()
        phone.set_default_timeout(120_000)
        paste_answer(tablet, answer_on_phone(phone, invite(tablet)))
        phone.wait_for_selector("[data-testid=seat-bar][data-status=connected]")
        phone.evaluate(PAINTS)
        for round_ in range(GAMES):
            if round_:
                tablet.evaluate("h => { location.hash = h }", link[len(base):])
                tablet.wait_for_function("() => !location.hash.includes('g=')")
            for _ in range(TAPS_PER_GAME):
                tablet.wait_for_timeout(600)  # a person's pause (the double-tap guard, a settled phone)
                paints = phone.evaluate("window.__paints.length")
                tablet.get_by_role("button", name="Next ▸").tap()
                phone.wait_for_function("n => window.__paints.length > n", arg=paints)
                tap = tablet.evaluate("window.__taps[window.__taps.length - 1]")
                paint = phone.evaluate("window.__paints[window.__paints.length - 1]")
                samples.append(paint - tap)
        browser.close()
    server.shutdown()
    samples.sort()
    p95 = samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))]
    print(f"tablet tap → phone paint, loopback, {len(samples)} taps: median {statistics.median(samples):.0f} ms, "
          f"p95 {p95:.0f} ms, worst {samples[-1]:.0f} ms (goal: 200 ms)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
