"""The conflict table's newer screens at the four tablet sizes, light and dark:
``python -m tests.screenshots_conflict [768x1024 …]`` → ``screenshots/conflict-*.png``.

Between rounds (the next round, or end the conflict here: OIC-19), the question,
the called result, and a spectator's copy during a round and between rounds
(issue 21). Viewport shots: what the tablet shows as the app leaves it, without
scrolling. Not a test: pictures to look at.
"""

from __future__ import annotations

from tests.e2e.conftest import READY
from tests.screenshot_kit import OUT, run


def shoot(page, name: str, tag: str) -> None:
    page.screenshot(path=str(OUT / f"conflict-{name}-{tag}.png"))


def start_table_deck(page, base: str) -> None:
    page.goto(base + "#/conflict")
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    page.wait_for_selector("[data-testid=setup], [data-testid=table]")
    if page.locator("[data-testid=table]").count():
        page.get_by_role("button", name="Saves").click()
        page.get_by_role("button", name="New game").click()
    page.get_by_role("button", name="Load the Purple Dragon League example").click()
    page.get_by_label("Table deck").check()
    page.locator("#app-conflict [data-field=seed]").fill("7")
    page.get_by_role("button", name="Start the conflict").click()
    page.wait_for_selector("[data-testid=picker]")


def spectator(browser, link: str, size: dict, theme: str):
    context = browser.new_context(viewport=size, has_touch=True, color_scheme=theme)
    guest = context.new_page()
    guest.goto(link)
    guest.wait_for_selector(READY, state="attached", timeout=120_000)
    guest.wait_for_selector("[data-testid=table]")
    guest.wait_for_timeout(300)
    return context, guest


def share_public(page) -> str:
    page.get_by_role("button", name="Share").click()
    link = page.locator("[data-testid=share-public]").input_value()
    page.get_by_role("button", name="Share").click()
    return link


def tour(page, base: str, tag: str) -> None:
    browser, size, theme = page.context.browser, page.viewport_size, tag.rsplit("-", 1)[1]
    start_table_deck(page, base)
    page.locator("[data-testid=picker] [data-card='9S']").tap()
    during = share_public(page)
    page.get_by_role("button", name="Pass — end the round").tap()
    page.wait_for_selector("[data-testid=call]")
    page.wait_for_timeout(300)
    shoot(page, "between-rounds", tag)
    between = share_public(page)
    page.locator("[data-testid=call]").tap()
    page.wait_for_timeout(200)
    shoot(page, "call-question", tag)
    page.get_by_role("button", name="End the conflict", exact=True).tap()
    page.wait_for_timeout(300)
    shoot(page, "called", tag)
    for name, link in (("spectator-round", during), ("spectator-between", between)):
        context, guest = spectator(browser, link, size, theme)
        shoot(guest, name, tag)
        context.close()


def main() -> None:
    run(tour)


if __name__ == "__main__":
    main()
