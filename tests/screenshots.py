"""Every screen at the four tablet sizes, light and dark: ``python -m tests.screenshots`` → screenshots/.

Not a test: pictures to look at before calling a UI done.
"""

from __future__ import annotations

from tests.e2e.conftest import READY
from tests.screenshot_kit import OUT, run


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
    page.locator("#app-conflict [data-field=seed]").fill("7")
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
            page.get_by_role("button", name="Pass — end the round").click()
            shoot(page, f"conflict-confirm-pass-{tag}", full=False)
            page.get_by_role("button", name="Keep playing").click()
        if playable.count():
            playable.first.click()
        else:
            page.get_by_role("button", name="Pass — end the round").click()
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
    run(tour)


if __name__ == "__main__":
    main()
