"""Every screen at the four tablet sizes, light and dark: ``python -m tests.screenshots`` → screenshots/.

Not a test: pictures to look at before calling a UI done.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.e2e.conftest import BUILD, CHROMIUM, CHROMIUM_FLAGS, READY
from tests.e2e.tablet import TABLET_SIZES, size_id
from web.serve import serve_in_thread

OUT = Path(__file__).resolve().parents[1] / "screenshots"
#: The four tablet sizes (tests/e2e/tablet.py); ``-k 768`` style filtering via argv.
VIEWPORTS = {size_id(size): (size["width"], size["height"]) for size in TABLET_SIZES}


def shoot(page, name: str, full: bool = True) -> None:
    """``full``: the whole page; otherwise what the player sees now, without scrolling."""
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=full)


def tour(page, base: str, tag: str) -> None:
    page.goto(base)
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    shoot(page, f"home-{tag}")
    page.goto(base + "#/campaign")
    page.locator("#rules-campaign summary").click()
    shoot(page, f"campaign-rules-{tag}")
    page.goto(base + "#/conflict")
    shoot(page, f"conflict-setup-blank-{tag}")
    page.get_by_role("button", name="Load the Purple Dragon League example").click()
    page.locator("[data-field=seed]").fill("7")
    shoot(page, f"conflict-setup-example-{tag}")
    page.get_by_role("button", name="Start the conflict").click()
    shoot(page, f"conflict-curtain-{tag}", full=False)
    page.locator("[data-testid=curtain] button").click()
    page.locator("[data-testid=hand] .card.unusable").first.click()
    shoot(page, f"conflict-discard-{tag}", full=False)
    page.get_by_role("button", name="Discard 1 and draw 1").click()
    page.locator("[data-testid=curtain] button").click()
    page.get_by_role("button", name="Keep all cards").click()
    for turn in range(40):
        if page.locator("[data-testid=result]").count():
            break
        page.locator("[data-testid=curtain] button").click()
        if turn == 3:
            blocked = page.locator("[data-testid=hand] .card.blocked")
            if blocked.count():
                blocked.first.click()
            shoot(page, f"conflict-hand-refusal-{tag}", full=False)
        playable = page.locator("[data-testid=hand] .card.playable")
        if turn == 5 and playable.count():
            page.get_by_role("button", name="Cannot play — end the round").click()
            shoot(page, f"conflict-confirm-pass-{tag}", full=False)
            page.get_by_role("button", name="Keep playing").click()
        if playable.count():
            playable.first.click()
        else:
            page.get_by_role("button", name="Cannot play — end the round").click()
    shoot(page, f"conflict-round-result-{tag}")
    page.get_by_role("button", name="History").click()
    shoot(page, f"conflict-history-{tag}")
    page.get_by_role("button", name="Saves").click()
    shoot(page, f"conflict-saves-{tag}")
    page.get_by_role("button", name="Share").click()
    shoot(page, f"conflict-share-{tag}")
    page.get_by_role("button", name="Saves").click()
    page.get_by_role("button", name="New game").click()
    page.get_by_role("button", name="Load the Purple Dragon League example").click()
    page.get_by_label("Table deck").check()
    page.get_by_role("button", name="Start the conflict").click()
    page.locator("[data-testid=picker] [data-card='10S']").click()
    shoot(page, f"conflict-table-deck-{tag}", full=False)


def main() -> None:
    OUT.mkdir(exist_ok=True)
    only = sys.argv[1:]  # e.g. "768x1024": just these sizes
    server, base = serve_in_thread(BUILD)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        for orientation, (width, height) in VIEWPORTS.items():
            if only and orientation not in only:
                continue
            for theme in ("light", "dark"):
                context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True,
                                              color_scheme=theme)
                tour(context.new_page(), base, f"{orientation}-{theme}")
                context.close()
        browser.close()
    server.shutdown()
    print(f"screenshots in {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
