"""The staff officer's grid behind the curtain and the app's general (issue 17), light and
dark: ``python -m tests.screenshots_advisor [1024x768 768x1024 …]`` → screenshots/advisor-*.png.

Not a test: pictures to look at before calling the screens done.
"""

from __future__ import annotations

from engine import ascension as ai
from engine.game import new_game
from tests.screenshot_kit import run
from tests.screenshots import shoot
from tests.screenshots_battle import lift, open_game


def tour(page, base: str, tag: str) -> None:
    open_game(page, base, new_game("battle", ai.example_setup(), None, 7))
    lift(page)
    page.locator("[data-action='battle:pick'][data-arg=attack]").click()
    page.wait_for_selector("[data-testid=advisor] table")
    shoot(page, f"advisor-bid-{tag}", full=False)
    page.locator("[data-testid=advisor]").scroll_into_view_if_needed()
    page.evaluate("document.querySelector('[data-testid=advisor]').scrollIntoView({block: 'start'})")
    shoot(page, f"advisor-grid-{tag}", full=False)
    page.locator("[data-action='battle:aim'][data-arg=away]").click()
    page.locator("[data-action='battle:pick'][data-arg=withdraw]").click()
    page.evaluate("document.querySelector('[data-testid=advisor]').scrollIntoView({block: 'start'})")
    shoot(page, f"advisor-away-{tag}", full=False)
    setup = ai.example_setup()
    setup["armies"][1]["controller"] = "app"
    setup["armies"][1]["level"] = "hard"
    game = new_game("battle", setup, None, 7)
    open_game(page, base, game)
    shoot(page, f"advisor-app-general-{tag}", full=False)


def main() -> None:
    run(tour)


if __name__ == "__main__":
    main()
