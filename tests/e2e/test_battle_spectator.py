"""Issue 21 on the battle board: the spectator link opens a read-only copy labelled as one. It
offers no bid, reveal or roll, says what is true ("both armies have declared; waiting for the
reveal"), and a blind bid stays absent from the DOM, the copy and its log until revealed —
also after a reload."""

from __future__ import annotations

import json

import pytest

from engine import game as games

from .tablet import TABLET_IDS, TABLET_SIZES, assert_app_ok, assert_on_screen
from .test_battle import BOOT_MS, lift_curtain, open_app, pick, spectator_game, start_example

#: Distinctive words of the hidden bids (a stratagem key and its name appear nowhere else on the board).
SECRET = ("ambush", "Ambush")


def declare(page, side_maneuver: str, stratagem: str | None = None) -> None:
    lift_curtain(page)
    pick(page, side_maneuver)
    if stratagem:
        page.locator(f"[data-action='battle:strat'][data-arg={stratagem}]").tap()
    page.get_by_role("button", name="Declare in secret").tap()


def board_html(page) -> str:
    return page.locator("#app-battle").evaluate("el => el.outerHTML")


def stored(page) -> str:
    return page.evaluate("JSON.stringify(Object.assign({}, localStorage))")


def assert_offers_no_move(view) -> None:
    root = view.locator("#app-battle")
    for action in ("show", "pick", "declare", "reveal", "roll", "record", "counter", "leave", "phase",
                   "unit-new", "unit-edit", "hits", "face", "rematch"):
        assert root.locator(f"[data-action='battle:{action}']").count() == 0, action
    assert root.locator("[data-testid=curtain], [data-testid=bid-form], [data-testid=entry]").count() == 0


@pytest.mark.parametrize("size", [TABLET_SIZES[0], TABLET_SIZES[1]], ids=TABLET_IDS[:2])
def test_the_spectator_link_while_both_have_declared(page, base_url, new_device, size):
    page.set_viewport_size(size)
    start_example(page, base_url)
    declare(page, "block", "ambush")  # Jibril Corps: Block with Ambush (needs nothing, AI-16)
    declare(page, "attack")
    url, copy = spectator_game(page)
    assert games.is_spectator(copy) and copy.setup["spectator"] is True
    assert "ambush" not in json.dumps(copy.actions)
    other = new_device(viewport=size, has_touch=True)
    try:
        view = other.new_page()
        open_app(view, url)
        view.wait_for_selector("[data-testid=board]")
        banner = view.locator("[data-testid=spectator-banner]")
        assert "Spectator view" in banner.inner_text() and "read-only" in banner.inner_text()
        view.evaluate("window.scrollTo(0, 0)")
        assert_on_screen(view, banner, view.locator("[data-testid=status]"))
        status = view.locator("[data-testid=status]").inner_text()
        assert "both armies have declared; waiting for the reveal" in status
        assert "waiting for" in status and "to declare" not in status  # the old, false "waiting for … to declare"
        assert_offers_no_move(view)
        for word in SECRET:
            assert word not in board_html(view)
        assert "ambush" not in stored(view)
        view.reload()  # the copy opened from a link is saved: a reload shows the same, and no more
        view.wait_for_selector("html[data-ready='true']", state="attached", timeout=BOOT_MS)
        view.wait_for_selector("[data-testid=spectator-banner]")
        assert_offers_no_move(view)
        assert "ambush" not in board_html(view).lower()
        view.get_by_role("button", name="History").tap()
        history = view.locator(".history-list").inner_text()
        assert "declares in secret" in history and "ambush" not in history.lower()
        assert_app_ok(view)
    finally:
        other.close()


def test_the_spectator_link_after_the_reveal_and_after_the_roll(page, base_url, new_device):
    start_example(page, base_url)
    declare(page, "block", "ambush")
    declare(page, "attack")
    page.get_by_role("button", name="Reveal both bids").tap()
    url, _ = spectator_game(page)
    page.get_by_role("button", name="Roll the dice").tap()
    url_rolled, copy = spectator_game(page)
    assert copy.actions[-1]["type"] == "roll" and "dice" in copy.actions[-1]  # the dice travel, not the seed
    other = new_device(has_touch=True)
    try:
        view = other.new_page()
        open_app(view, url)
        view.wait_for_selector("[data-testid=revealed]")
        assert "both bids are revealed; waiting for the roll" in view.locator("[data-testid=status]").inner_text()
        assert "Ambush" in view.locator("[data-testid=revealed-0]").inner_text()  # revealed: public now
        assert_offers_no_move(view)
        assert view.locator("[data-testid=odds]").count() == 1
        open_app(view, url_rolled)
        view.wait_for_selector("[data-testid=week-result]")
        assert_offers_no_move(view)
        assert view.locator("[data-testid=spectator-banner]").count() == 1
        assert_app_ok(view)
    finally:
        other.close()
