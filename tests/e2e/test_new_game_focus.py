"""A new game's setup form is shown from its top (issue 33's tour of the battle's swaps found
the focus, and so the page, landing on the house result tables 4,000 px down after "New battle
with these armies"): "New game" on every table, and the battle's rematch."""

from __future__ import annotations

import pytest

from engine import ascension as ai
from engine import codec
from engine import conflict as oic
from engine.game import new_game
from tests.engine.test_ascension import setup as battle_setup
from tests.engine.test_ascension import week

from .conftest import TABLET_LANDSCAPE, open_app
from .tablet import TABLET_IDS, TABLET_SIZES
from .test_phones import dealt_game

GAMES = {
    "conflict": lambda: new_game("conflict", oic.purple_dragon_setup(), seed=7),
    "campaign": lambda: new_game("campaign", {"players": ["Anna", "Ben"], "dummy": False}, seed=7),
    "initiative": dealt_game,
    "battle": lambda: new_game("battle", ai.example_setup(), seed=8),
}
#: Each table's setup form (the initiative tracker's is its roster).
SETUP = {"conflict": "setup", "campaign": "setup", "initiative": "roster", "battle": "setup"}
SHOWN = """([route, form]) => { const el = document.activeElement;
  return [scrollY, el ? el.tagName + ' ' + (el.getAttribute('data-focus') || el.id || '') : null,
          document.querySelector(`#app-${route} [data-testid=${form}]`).getBoundingClientRect().top + scrollY]; }"""


def over_battle():
    """A battle over in its first week (North withdraws, AI-15), its dice entered at the table."""
    game = new_game("battle", battle_setup(), {"dice": ai.DICE_TABLE}, seed=4)
    return week(game, "withdraw", "defend", dice=[[1, 1], [1] * 6])


def _setup_shown_from_its_top(page, route: str, height: int = TABLET_LANDSCAPE["height"]) -> None:
    page.wait_for_selector(f"#app-{route} [data-testid={SETUP[route]}]")
    page.wait_for_timeout(100)
    scroll, focused, form_top = page.evaluate(SHOWN, [route, SETUP[route]])
    # the form's top is on screen, in the upper half
    assert scroll <= form_top < scroll + height / 2, (scroll, focused, form_top)


@pytest.mark.parametrize("route", list(GAMES))
def test_new_game_shows_the_setup_from_its_top(page, base_url, route):
    page.set_viewport_size(TABLET_LANDSCAPE)
    open_app(page, f"{base_url}#/{route}?g={codec.encode_share(GAMES[route]())}")
    page.wait_for_selector(f"#app-{route} [data-slot=body]")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # a player deep in the table
    page.locator(f"#app-{route} [data-action='session:drawer'][data-arg=saves]").first.tap()
    page.locator(f"#app-{route} [data-action='session:new']").tap()
    _setup_shown_from_its_top(page, route)


@pytest.mark.parametrize("size", TABLET_SIZES, ids=TABLET_IDS)
def test_a_new_battle_with_these_armies_shows_the_setup_from_its_top(page, base_url, size):
    page.set_viewport_size(size)
    open_app(page, f"{base_url}#/battle?g={codec.encode_share(over_battle())}")
    page.wait_for_selector("#app-battle [data-testid=over]")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.get_by_role("button", name="New battle with these armies").tap()
    _setup_shown_from_its_top(page, "battle", size["height"])
    assert page.evaluate("document.activeElement.getAttribute('data-focus')") == "setup"
