"""Issue 18 on the battle board: "our own dice". After the reveal the exact odds come first, then
each side's dice are entered (successes, or the faces), checked against the pool and the AI-6
success rule, then the casualty range rolls (AI-12) entered or left to the app; every entry is
one tap to correct before it counts, and the recorded roll is a fact in its action.

Tapped Safari-style at the four tablet sizes, with double taps; a whole battle played with
entered dice, reloaded and opened from its link in the middle.
"""

from __future__ import annotations

import pytest

from engine import ascension as ai
from engine.game import replay

from .tablet import TABLET_IDS, TABLET_SIZES, assert_app_ok, assert_on_screen, double_tap, safari_tap
from .test_battle import BOOT_MS, full_game, lift_curtain, open_app, pick


def start_table_dice(page, base_url, seed: str = "5") -> None:
    open_app(page, base_url + "#/battle")
    page.get_by_role("button", name="Load the Jibril corps example").tap()
    page.locator("[data-field='rules:dice']").select_option("table")
    page.locator("[data-field=seed]").fill(seed)
    page.get_by_role("button", name="Start the battle").tap()
    page.wait_for_selector("[data-testid=board]")


def declare_both(page, m0: str, m1: str) -> None:
    for maneuver in (m0, m1):
        lift_curtain(page)
        pick(page, maneuver)
        page.get_by_role("button", name="Declare in secret").tap()
    page.get_by_role("button", name="Reveal both bids").tap()
    page.wait_for_selector("[data-testid=entry]")


def record(page) -> None:
    safari_tap(page.locator("[data-action='battle:record']"))


@pytest.mark.parametrize("size", TABLET_SIZES, ids=TABLET_IDS)
def test_entered_successes_odds_first_range_entered_correctable_and_recorded(page, base_url, size):
    page.set_viewport_size(size)
    start_table_dice(page, base_url)
    declare_both(page, "shock", "shock")
    # The odds first, then the entry; no "Roll the dice" with the table's own dice (HR-AI-7).
    odds, entry = page.locator("[data-testid=odds]"), page.locator("[data-testid=entry]")
    assert odds.bounding_box()["y"] < entry.bounding_box()["y"] or odds.bounding_box()["x"] > 0
    assert page.get_by_role("button", name="Roll the dice").count() == 0
    game = full_game(page)
    pools = [p.dice for p in ai.week_pools(replay(game))]
    # AI-6: a side's successes are offered from 0 to its pool, no more.
    for s in (0, 1):
        assert page.locator(f"[data-testid=entry-side-{s}] [data-action='battle:hits']").count() == pools[s] + 1
    record_button = page.locator("[data-action='battle:record']")
    assert record_button.is_disabled()
    # A wrong entry is one tap to correct before it counts: 2, then 3.
    safari_tap(page.locator("[data-action='battle:hits'][data-arg='0.2']"))
    safari_tap(page.locator("[data-action='battle:hits'][data-arg='0.3']"))
    zero = page.locator("[data-action='battle:hits'][data-arg='1.0']")
    zero.evaluate("el => el.scrollIntoView({block: 'center'})")
    assert_on_screen(page, zero)
    double_tap(page, zero)  # a double tap: still 0
    assert page.locator("[data-action='battle:hits'][data-arg='0.3']").get_attribute("aria-checked") == "true"
    assert page.locator("[data-action='battle:hits'][data-arg='1.0']").get_attribute("aria-checked") == "true"
    preview = page.locator("[data-testid=entry-preview]").inner_text()
    assert "3–0" in preview and "major victory for Jibril Corps" in preview
    # Shock v Shock: both cells 1–5 (AI-12): Jibril's entered (4, then 2), Zone Army's left to the app.
    safari_tap(page.locator("[data-action='battle:range'][data-arg='0.4']"))
    safari_tap(page.locator("[data-action='battle:range'][data-arg='0.2']"))
    assert "the app rolls the casualty range of Zone Army" in record_button.inner_text()
    page.evaluate("window.scrollTo(0, 0)")
    record_button.scroll_into_view_if_needed()
    assert_on_screen(page, record_button)
    record(page)
    page.wait_for_selector("[data-testid=week-result]")
    game = full_game(page)
    roll = [a for a in game.actions if a["type"] == "roll"][-1]
    assert roll == {"type": "roll", "successes": [3, 0], "ranges": [2, None]}  # the facts as entered
    week = replay(game).weeks[-1]
    assert week.successes == (3, 0) and week.rolled[0] == 2 and 1 <= week.rolled[1] <= 5
    assert page.locator("[data-testid=inflicts-0]").inner_text() == "Inflicts 1–5: rolled 2 (AI-12)"
    assert "the successes were entered" in page.locator("[data-testid=week-side-0]").inner_text()
    assert_app_ok(page)


def test_entered_faces_checked_against_the_pool_and_taken_back_with_a_tap(page, base_url):
    start_table_dice(page, base_url)
    declare_both(page, "attack", "defend")
    page.get_by_role("radio", name="Faces").tap()
    game = full_game(page)
    pools = [p.dice for p in ai.week_pools(replay(game))]
    for value in [6, 6, 2, 5, 1, 1]:  # Jibril's 6 dice
        safari_tap(page.locator(f"[data-action='battle:face'][data-arg='0.{value}']"))
    # The pool is full: no seventh die (AI-3).
    assert page.locator("[data-action='battle:face'][data-arg='0.6']").is_disabled()
    assert page.locator("[data-testid=entry-count-0]").inner_text().startswith("6 of 6 dice entered · 3 successes")
    # A wrong die is one tap to take back: the 2 becomes a 4.
    safari_tap(page.locator("[data-action='battle:unface'][data-arg='0.2']"))
    safari_tap(page.locator("[data-action='battle:face'][data-arg='0.4']"))
    for _ in range(pools[1]):
        safari_tap(page.locator("[data-action='battle:face'][data-arg='1.3']"))
    record(page)
    page.wait_for_selector("[data-testid=week-result]")
    roll = [a for a in full_game(page).actions if a["type"] == "roll"][-1]
    assert roll["dice"] == [[6, 6, 5, 1, 1, 4], [3] * pools[1]]
    assert page.locator("[data-testid=successes-0]").inner_text() == "4 successes"
    assert page.locator("[data-testid=week-side-0] .die.hit").count() == 4
    assert_app_ok(page)


def test_a_whole_battle_with_entered_dice_reloaded_and_linked_in_the_middle(page, base_url, new_device):
    start_table_dice(page, base_url, seed="9")
    weeks = 0
    link_opened = False
    while page.locator("[data-testid=over]").count() == 0 and weeks < 12:
        declare_both(page, "shock", "attack")
        state = replay(full_game(page))
        pools = [p.dice for p in ai.week_pools(state)]
        safari_tap(page.locator(f"[data-action='battle:hits'][data-arg='0.{min(2, pools[0])}']"))
        safari_tap(page.locator("[data-action='battle:hits'][data-arg='1.0']"))
        for s in (0, 1):
            ranges = page.locator(f"[data-testid=range-{s}] [data-action='battle:range']")
            if ranges.count():
                safari_tap(ranges.first)  # the lowest value of the range
        record(page)
        page.wait_for_selector(f"[data-testid=week-result] >> text=Week {weeks + 1}")
        weeks += 1
        if weeks == 1:
            page.reload()  # pull-to-refresh in the middle of the battle
            page.wait_for_selector("html[data-ready='true']", state="attached", timeout=BOOT_MS)
            page.wait_for_selector("[data-testid=week-result]")
            assert replay(full_game(page)).weeks[-1].successes[1] == 0
        if weeks == 2 and not link_opened:
            game = full_game(page)
            other = new_device(viewport=page.viewport_size, has_touch=True)
            try:
                view = other.new_page()
                from engine import codec
                open_app(view, base_url + "#/battle?g=" + codec.encode_share(game))
                view.wait_for_selector("[data-testid=week-result]")
                assert replay(full_game(view)).weeks == replay(game).weeks  # the same battle, entries and all
                assert view.locator("[data-testid=board]").get_attribute("data-week") == str(replay(game).week)
            finally:
                other.close()
            link_opened = True
    page.get_by_role("button", name="Share").tap()
    assert "our own dice: the table rolls real dice and enters them" in \
        page.locator("[data-testid=share-settings]").inner_text()
    page.get_by_role("button", name="Share").tap()
    game = full_game(page)
    rolls = [a for a in game.actions if a["type"] == "roll"]
    assert rolls and all("successes" in a for a in rolls)  # the app rolled no die
    assert len(replay(game).weeks) == weeks
    assert_app_ok(page)
