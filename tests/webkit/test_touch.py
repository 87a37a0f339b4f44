"""Fingers at the table in WebKit (issue 34): rule links land below the sticky bar and
lead back; every control of the tables' screens is at least 44×44 CSS px (the Chromium
kit measures the same with the same code, tests/touch_checks.py)."""

from __future__ import annotations

import pytest

from engine import codec, conflict
from engine.game import apply, new_game, replay

from .conftest import goto_route, open_app, set_size, wait_for
from .kit import assert_rule_link_lands, assert_taps_big_enough, visible

SIZES = [(768, 1024), (1024, 768), (820, 1180), (1366, 1024)]
ROUTES = ["conflict", "campaign", "initiative", "battle"]


@pytest.mark.parametrize("route", ROUTES)
def test_rule_links_land_below_the_bar_and_lead_back(app, route):
    driver = app
    goto_route(driver, route)
    wait_for(driver, "return [...document.querySelectorAll(`#app-${arguments[0]} .rule-ref`)]"
                     ".some(e => e.offsetParent !== null)", route, message="a rule chip")
    for width, height in SIZES:
        set_size(driver, width, height)
        chips = [c for c in visible(driver, f"#app-{route} .rule-ref") if c.is_displayed() and c.size["height"] > 0]
        assert_rule_link_lands(driver, chips[-1])
        assert_rule_link_lands(driver, visible(driver, f"section[data-route={route}] .tool-head [data-open-rules]")[0])
        driver.execute_script(f"document.getElementById('rules-{route}').open = false")
    assert_taps_big_enough(driver, "body", route)


def _conflict_hand():
    game = new_game("conflict", conflict.purple_dragon_setup(), seed=7)
    while replay(game).phase == "discard":
        st = replay(game)
        s, p = next((s, p) for s in (st.aggressor, 1 - st.aggressor)
                    for p, done in enumerate(st.discarded[s]) if not done)
        game = apply(game, {"type": "discard", "side": s, "player": p, "cards": []})
    return game


def test_the_tables_screens_are_a_finger_wide(driver, boot, base_url):
    """The hand and the table-deck picker of a conflict, a tracker's round: 44×44 at least."""
    set_size(driver, 768, 1024)
    picker = conflict.purple_dragon_setup()
    picker["deck"] = "table"
    games = {"conflict": [_conflict_hand(), new_game("conflict", picker, seed=7)]}
    for route, list_ in games.items():
        for game in list_:
            open_app(driver, f"{base_url}#/{route}?g={codec.encode_share(game)}")
            for curtain in visible(driver, "[data-testid=curtain] button")[:1]:
                curtain.click()
            assert_taps_big_enough(driver, "body", f"{route} {replay(game).phase}")
