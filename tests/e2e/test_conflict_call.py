"""Calling a conflict on the built site (OIC-19, issue 22).

The worked example with real cards: the zombies open 9♠ and the League cannot
answer, so round 1 ends with the zombies +1 in spades (31 to 26 above the
engagement threshold of 5). Between rounds the table may end the conflict: the app
says who is ahead, asks once more, records it (an action: undo, reload and links
keep it) and says how it ended in the result and the log.
"""

from __future__ import annotations

import pytest

from engine import codec

from .conftest import READY, TABLET_LANDSCAPE, open_app
from .tablet import TABLET_IDS, TABLET_SIZES, assert_app_ok, assert_focus, assert_on_screen, double_tap
from .test_conflict import start_example

AHEAD = ("OIC-19: ended now, Zombie invasion is ahead, 31 to 26 in rating points above the engagement "
         "threshold (5 at home ground), and wins the conflict.")
ENDED = ("OIC-19: the table ended the conflict after 1 round (1 day). Zombie invasion was ahead, 31 to 26 in rating "
         "points above the engagement threshold (5 at home ground), and wins the conflict.")


def first_round(page) -> None:
    start_example(page, page.base, deck="table")
    page.locator("[data-testid=picker] [data-card='9S']").tap()
    page.get_by_role("button", name="Pass — end the round").tap()
    page.wait_for_selector("[data-testid=call]")


@pytest.fixture
def table(page, base_url):
    page.base = base_url
    return page


def test_oic_19_end_the_conflict_here_names_the_side_ahead_asks_and_records_it(table, new_device):
    page = table
    first_round(page)
    assert page.locator("[data-testid=call-preview]").inner_text() == AHEAD
    page.locator("[data-testid=call]").tap()
    confirm = page.locator("[data-testid=confirm-call]")
    assert "End the conflict after 1 round (1 day)?" in confirm.inner_text() and AHEAD in confirm.inner_text()
    assert_focus(page, page.get_by_role("button", name="Keep fighting"))
    page.get_by_role("button", name="Keep fighting").tap()
    assert page.locator("[data-testid=confirm-call]").count() == 0
    assert page.get_by_role("button", name="Start round 2").count() == 1
    page.locator("[data-testid=call]").tap()
    page.get_by_role("button", name="End the conflict", exact=True).tap()
    result = page.locator("[data-testid=result]")
    assert result.get_attribute("data-ending") == "called"
    assert result.locator("h2").inner_text() == "The table ended the conflict"
    assert page.locator("[data-testid=end-message]").inner_text() == ENDED
    sums = result.locator(".call-sums").inner_text()
    assert "Purple Dragon League: ♠ 9 + ♥ 4 + ♦ 7 + ♣ 6 = 26" in sums and "Zombie invasion: ♠ 10 + ♥ 8" in sums
    assert "1 round, 1 day of in-world time." in result.inner_text()
    log = page.get_by_label("Conflict log").inner_text()
    assert "After round 1: the table ended the conflict" in log and ENDED in log
    assert page.locator("[data-testid=status]").inner_text() == "The table ended the conflict: Zombie invasion wins (OIC-19)."
    # An action like any other: undo and redo, a reload, the history, a link.
    page.get_by_role("button", name="↶ Undo").tap()
    assert page.locator("[data-testid=call]").count() == 1
    page.get_by_role("button", name="↷ Redo").tap()
    assert page.locator("[data-testid=result]").get_attribute("data-ending") == "called"
    page.reload()
    page.wait_for_selector(READY, state="attached")
    assert page.locator("[data-testid=end-message]").inner_text() == ENDED
    page.get_by_role("button", name="History").click()
    assert "the table ends the conflict: Zombie invasion ahead 31–26 (OIC-19)" in page.locator(
        "#app-conflict").inner_text()
    page.get_by_role("button", name="History").click()
    page.get_by_role("button", name="Share").click()
    link = page.locator("[data-testid=share-full]").input_value()
    assert codec.decode_share(link.split("g=", 1)[1]).actions[-1] == {"type": "call"}
    other = new_device(viewport=TABLET_LANDSCAPE, has_touch=True)
    try:
        guest = other.new_page()
        open_app(guest, link)
        guest.wait_for_selector("[data-testid=end-message]")
        assert guest.locator("[data-testid=end-message]").inner_text() == ENDED
    finally:
        other.close()
    assert_app_ok(page)


def test_a_double_tap_that_ends_a_round_never_ends_the_conflict(table):
    page = table
    start_example(page, page.base, deck="table")
    page.locator("[data-testid=picker] [data-card='9S']").tap()
    double_tap(page, page.get_by_role("button", name="Pass — end the round"))
    page.wait_for_selector("[data-testid=result]")
    # Still between rounds: the second tap may at most open the question, never end the conflict.
    assert page.locator("[data-testid=table]").get_attribute("data-phase") == "round-over"
    assert page.locator("[data-testid=result]").get_attribute("data-ending") is None


def test_escape_closes_the_question(table):
    page = table
    first_round(page)
    page.locator("[data-testid=call]").tap()
    page.keyboard.press("Escape")
    assert page.locator("[data-testid=confirm-call]").count() == 0
    assert_focus(page, page.locator("[data-testid=call]"))


@pytest.mark.parametrize("size", TABLET_SIZES, ids=TABLET_IDS)
def test_between_rounds_both_choices_and_the_question_fit_every_tablet(table, size):
    """As the app leaves the screen after each tap (it moves the focus to what comes next)."""
    page = table
    page.set_viewport_size(size)
    first_round(page)
    assert_on_screen(page, page.get_by_role("button", name="Start round 2"), page.locator("[data-testid=call]"),
                     page.locator("[data-testid=explanation]"))
    page.locator("[data-testid=call]").tap()
    assert_on_screen(page, page.locator("[data-testid=confirm-call]"),
                     page.get_by_role("button", name="End the conflict", exact=True))
    page.get_by_role("button", name="End the conflict", exact=True).tap()
    assert_on_screen(page, page.locator("[data-testid=end-message]"))
