"""The battle board in WebKit (the engine of every iPad browser): the layout and tap defects of
issue 22 and the entered dice of issue 18, tapped Safari-style at tablet sizes.

- the house-table cell editor opens where it is seen (1024×768 and the other sizes);
- the army lists are never cut off inside a small scroll area;
- our own dice: successes and faces entered with taps (double taps included), each one tap to
  correct, the casualty range entered, recorded as the roll's facts; the spectator's copy of it
  offers no move.
"""

from __future__ import annotations

import time

import pytest

from engine import ascension as ai
from engine import codec
from engine.game import replay

from .conftest import goto_route, set_size, wait_for
from .kit import assert_app_ok, assert_on_screen, button, double_tap, edit_then_tap, field, safari_tap, tap, visible
from .test_tables import HAND_OVER_S, fresh_setup, present, scope, shared_game, wait_testid

SIZES = [(768, 1024), (1024, 768), (820, 1180), (1366, 1024)]


def css(driver, selector: str):
    found = visible(driver, f"{scope('battle')} {selector}")
    assert found, f"nothing visible matches {selector}"
    return found[0]


def open_link(driver, game) -> None:
    """Open a game's link in the same document (a hash change, as a tapped link in the app)."""
    goto_route(driver, "battle")
    driver.execute_script("location.hash = arguments[0]", "#/battle?g=" + codec.encode_share(game))


def lift_curtain(driver) -> None:
    wait_testid(driver, "battle", "curtain")
    time.sleep(HAND_OVER_S)
    tap(driver, css(driver, "[data-testid=curtain] button"))
    wait_testid(driver, "battle", "bid-form")


def declare(driver, maneuver: str) -> None:
    lift_curtain(driver)
    tap(driver, css(driver, f"[data-action='battle:pick'][data-arg={maneuver}]"))
    tap(driver, button(driver, "Declare in secret"))


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_house_cell_editor_opens_where_it_is_seen(app, size):
    driver = app
    set_size(driver, *size)
    fresh_setup(driver, "battle", "setup")
    cell = css(driver, "[data-testid=setup] [data-action='battle:edit-cell'][data-arg='shock.shock']")
    tap(driver, cell)
    editor = wait_testid(driver, "battle", "cell-editor")
    text = field(driver, "cell-text")
    assert_on_screen(driver, editor, text, button(driver, "Use as house rule"))
    wait_for(driver, "return document.activeElement === arguments[0]", text, timeout=5,
             message="the cell's text field to take the focus")
    edit_then_tap(driver, text, "Inflict 2-3 casualties", button(driver, "Use as house rule"))
    wait_for(driver, "return document.querySelector(arguments[0]).dataset.origin === 'house'",
             f"{scope('battle')} td[data-cell='drawn.shock.shock']", message="the house cell")
    tap(driver, button(driver, "Close"))
    assert not present(driver, "battle", "cell-editor")
    assert_app_ok(driver)


def test_army_lists_are_never_cut_off(app, base_url):
    driver = app
    from engine.game import new_game

    units = [{"name": f"Division {i}", "attack": 2, "defense": 2, "mobility": 2, "traits": ["infantry"],
              "armour": 0, "size": 2} for i in range(1, 19)]
    game = new_game("battle", {"armies": [{"name": "North", "units": units, "vanguard": 0, "general": None},
                                          {"name": "South", "units": units[:9], "vanguard": 0, "general": None}]},
                    None, 3)
    open_link(driver, game)
    wait_testid(driver, "battle", "board")
    clipped = driver.execute_script("""return [...document.querySelectorAll(arguments[0])].filter(el => {
        const s = getComputedStyle(el);
        return /(auto|scroll|hidden)/.test(s.overflowY) && el.scrollHeight > el.clientHeight + 1;
    }).map(el => el.className)""", f"{scope('battle')} [data-testid^=army-] *")
    assert clipped == [], f"cut off inside {clipped}"
    assert len(visible(driver, f"{scope('battle')} [data-testid=army-0] li.unit")) == 18
    assert_app_ok(driver)


def test_our_own_dice_entered_with_taps_and_double_taps(app):
    driver = app
    fresh_setup(driver, "battle", "setup")
    tap(driver, button(driver, "Load the Jibril corps example"))
    driver.execute_script("const s = document.querySelector(arguments[0]); s.value = 'table';"
                          "s.dispatchEvent(new Event('change', {bubbles: true}))",
                          f"{scope('battle')} [data-field='rules:dice']")
    edit_then_tap(driver, field(driver, "seed"), "7", button(driver, "Start the battle"))
    wait_testid(driver, "battle", "board")
    declare(driver, "shock")
    declare(driver, "shock")
    tap(driver, button(driver, "Reveal both bids"))
    wait_testid(driver, "battle", "entry")
    assert not visible(driver, f"{scope('battle')} [data-action='battle:roll']")  # the table rolls, not the app
    # Successes: a wrong one corrected with one tap; a double tap changes nothing more.
    safari_tap(driver, css(driver, "[data-action='battle:hits'][data-arg='0.1']"))
    safari_tap(driver, css(driver, "[data-action='battle:hits'][data-arg='0.2']"))
    double_tap(driver, css(driver, "[data-action='battle:hits'][data-arg='1.0']"))
    time.sleep(0.3)
    assert css(driver, "[data-action='battle:hits'][data-arg='0.2']").get_attribute("aria-checked") == "true"
    # Faces instead: the pool is checked (no seventh die for Jibril's six).
    tap(driver, css(driver, "[data-action='battle:entry-mode'][data-arg=faces]"))
    for value in (6, 5, 1, 1, 2, 3, 4):
        target = css(driver, f"[data-action='battle:face'][data-arg='0.{value}']")
        if target.get_attribute("disabled") is None:
            safari_tap(driver, target)
    assert css(driver, "[data-testid=entry-count-0]").text.startswith("6 of 6 dice entered")
    safari_tap(driver, css(driver, "[data-action='battle:unface'][data-arg='0.0']"))  # take the 6 back
    safari_tap(driver, css(driver, "[data-action='battle:face'][data-arg='0.4']"))
    for _ in range(3):
        safari_tap(driver, css(driver, "[data-action='battle:face'][data-arg='1.1']"))
    wait_for(driver, "return document.querySelector(arguments[0])", f"{scope('battle')} [data-testid=range-0]",
             message="the casualty range entry")
    safari_tap(driver, css(driver, "[data-action='battle:range'][data-arg='0.3']"))
    record = css(driver, "[data-action='battle:record']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", record)
    assert_on_screen(driver, record)
    safari_tap(driver, record)
    wait_testid(driver, "battle", "week-result")
    game = shared_game(driver, "battle")
    roll = [a for a in game.actions if a["type"] == "roll"][-1]
    assert roll["dice"] == [[5, 1, 1, 2, 3, 4], [1, 1, 1]] and roll["ranges"][0] == 3
    week = replay(game).weeks[-1]
    assert week.successes == (2, 0) and week.rolled[0] == 3
    # The spectator's copy of the same battle offers no move.
    open_link(driver, ai.public_game(game))
    wait_testid(driver, "battle", "spectator-banner")
    for action in ("show", "roll", "record", "phase", "unit-new"):
        assert not visible(driver, f"{scope('battle')} [data-action='battle:{action}']"), action
    assert_app_ok(driver)
