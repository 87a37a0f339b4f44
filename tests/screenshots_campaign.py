"""Every campaign screen at tablet sizes, light and dark: ``python -m tests.screenshots_campaign``.

Writes ``screenshots/campaign-*.png`` (viewport shots: what the tablet shows without
scrolling, plus a full-page one of the table). Not a test: pictures to look at.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.e2e.conftest import BUILD, CHROMIUM, CHROMIUM_FLAGS, READY
from web.serve import serve_in_thread

OUT = Path(__file__).resolve().parents[1] / "screenshots"
VIEWPORTS = {"portrait": (768, 1024), "landscape": (1024, 768)}
SEED = "20261130"


def shoot(page, name: str, full: bool = False) -> None:
    page.evaluate("window.scrollTo(0, 0)")  # what the tablet shows before any scrolling
    page.screenshot(path=str(OUT / f"campaign-{name}.png"), full_page=full)


def reveal(page, name: str) -> None:
    button = page.get_by_role("button", name=f"Show {name}'s hand")
    for _ in range(20):  # a fresh curtain ignores taps for a moment (double-tap guard)
        button.click()
        if page.locator("[data-testid=hand]").count():
            return
        time.sleep(0.15)
    raise AssertionError("the hand did not open")


def record(page, winner: str, troops: int | None) -> None:
    page.get_by_role("radio", name=winner).click()
    if troops is not None:
        page.locator("#campaign-troops").fill(str(troops))
    page.locator("[data-action='campaign:record']").click()


def tour(page, base: str, tag: str) -> None:
    page.goto(base + "#/campaign")
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    page.wait_for_selector("[data-testid=setup], [data-testid=table]")
    if page.locator("[data-testid=table]").count():
        page.get_by_role("button", name="Saves").click()
        page.get_by_role("button", name="New game").click()
    page.locator("[data-field='campaign:name0']").fill("Anna")
    page.locator("[data-field='campaign:name1']").fill("Ben")
    page.locator("[data-field=seed]").fill(SEED)
    shoot(page, f"setup-{tag}")
    page.get_by_role("button", name="Start the campaign").click()
    page.wait_for_selector("[data-testid=table]")
    shoot(page, f"battle-{tag}")
    reveal(page, "Anna")
    shoot(page, f"hand-{tag}")
    page.get_by_role("button", name="Hide hand").click()
    page.get_by_role("radio", name="Anna won").click()
    page.locator("#campaign-troops").fill("9")
    shoot(page, f"record-{tag}")
    page.locator("[data-action='campaign:record']").click()
    shoot(page, f"spoils-decisive-{tag}")
    page.locator("[data-testid=spoils] button.card").first.click()
    record(page, "Ben won", 3)
    shoot(page, f"spoils-{tag}")
    page.locator("[data-testid=spoils] button.card").first.click()
    record(page, "Drawn battle", None)
    shoot(page, f"exhaustion-{tag}")
    for _ in range(12):
        if page.locator("[data-testid=exhaustion]").count():
            page.get_by_role("button", name="Roll 2d6").click()
        if page.locator("[data-testid=exhausted]").count():
            break
        if page.locator("[data-testid=record]").count():
            shoot(page, f"after-roll-{tag}")
            record(page, "Anna won", 2)
            page.locator("[data-testid=spoils] button.card").last.click()
    shoot(page, f"exhausted-{tag}")
    page.get_by_role("button", name="To the negotiating table").click()
    shoot(page, f"treaty-{tag}")
    shoot(page, f"treaty-full-{tag}", full=True)
    # Solo against the dummy, and a player's odds with few cards.
    page.get_by_role("button", name="Set up a new campaign").click()
    page.get_by_label("Solo against the dummy").check()
    page.locator("[data-field='campaign:name1']").fill("")
    page.locator("[data-field=seed]").fill("3")
    page.get_by_role("button", name="Start the campaign").click()
    record(page, "The dummy won", 4)
    shoot(page, f"solo-{tag}")
    shoot(page, f"solo-full-{tag}", full=True)


def main() -> None:
    OUT.mkdir(exist_ok=True)
    server, base = serve_in_thread(BUILD)
    only = sys.argv[1:]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        for orientation, (width, height) in VIEWPORTS.items():
            for theme in ("light", "dark"):
                tag = f"{orientation}-{theme}"
                if only and tag not in only:
                    continue
                context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True,
                                              color_scheme=theme)
                tour(context.new_page(), base, tag)
                context.close()
        browser.close()
    server.shutdown()
    print(f"screenshots in {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
