"""A new battle with the same armies shows its setup form from the top in WebKit too (the
focus, and so the page, once landed on the house result tables 4,000 px down)."""

from __future__ import annotations

import pytest

from tests.e2e.test_new_game_focus import over_battle

from .conftest import set_size, wait_for
from .kit import button, tap
from .test_battle import SIZES, open_link
from .test_tables import wait_testid


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_new_battle_with_these_armies_shows_the_setup_from_its_top(app, size):
    driver = app
    set_size(driver, *size)
    open_link(driver, over_battle())
    wait_testid(driver, "battle", "over")
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    tap(driver, button(driver, "New battle with these armies"))
    wait_testid(driver, "battle", "setup")
    top = wait_for(driver, "const r = document.querySelector('#app-battle [data-testid=setup]').getBoundingClientRect();"
                           "return document.activeElement.getAttribute('data-focus') === 'setup' && [r.top, innerHeight]",
                   message="the focus on the setup's title")
    assert 0 <= top[0] < top[1] / 2, top
