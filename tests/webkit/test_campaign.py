"""The campaign table in WebKit (iPad's engine): the tap and layout defects of issue 22.

Defect 11 Safari-style: the empty points box says what to enter, "None left" records
0 troop points, a negative number typed and still focused when Record is tapped is
explained; the box, "None left" and Record are on screen at every tablet size.
"""

from __future__ import annotations

import pytest

from .conftest import set_size, wait_for
from .kit import assert_app_ok, assert_on_screen, button, double_tap, edit_then_tap, safari_tap, tap, text_of, visible
from .test_tables import scope, start_campaign, wait_testid

SIZES = [(768, 1024), (1024, 768), (820, 1180), (1366, 1024)]


def record_button(driver):
    return visible(driver, f"{scope('campaign')} [data-action='campaign:record']")[0]


def refusal(driver) -> str:
    return wait_for(driver, "const e = document.querySelector(arguments[0]); return e && e.innerText",
                    f"{scope('campaign')} [data-testid=refusal]", message="the refusal")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_11_the_points_box_safari_style(app, size):
    driver = app
    set_size(driver, *size)
    start_campaign(driver, "31")
    tap(driver, button(driver, "Anna won"))
    box = visible(driver, "#campaign-troops")[0]
    assert box.get_property("value") == "" and not box.get_attribute("placeholder")
    driver.execute_script("window.scrollTo(0, 0)")
    assert_on_screen(driver, box, button(driver, "None left: Anna has 0 troop points in play"), record_button(driver))
    # A negative number, the field still focused when Record is tapped.
    edit_then_tap(driver, box, "-3", record_button(driver))
    assert "CMP-12: troop points cannot be negative (−3)" in refusal(driver)
    assert "None" not in refusal(driver)
    # None left: one tap, the box shows a real 0, and it records.
    safari_tap(driver, button(driver, "None left: Anna has 0 troop points in play"))
    wait_for(driver, "return document.querySelector('#campaign-troops').value === '0'", message="the 0")
    assert "not decisive" in text_of(driver, f"{scope('campaign')} [data-testid=decisive]")
    tap(driver, record_button(driver))
    spoils = wait_testid(driver, "campaign", "spoils")
    assert "Anna won (0 troop points left, not decisive)" in spoils.text
    assert_app_ok(driver)


def test_11_a_double_tap_on_none_left_then_record_records_once(app):
    driver = app
    set_size(driver, 1024, 768)
    start_campaign(driver, "32")
    tap(driver, button(driver, "Ben won"))
    double_tap(driver, button(driver, "None left: Ben has 0 troop points in play"))
    tap(driver, record_button(driver))
    wait_testid(driver, "campaign", "spoils")
    # Both spoils choices are still there: the second tap did not take anything.
    assert len(visible(driver, f"{scope('campaign')} [data-testid=spoils] button.card")) == 5
    assert_app_ok(driver)


# ---------------------------------------------------------------- our own deck (issue 18)

def start_own_deck(driver, seed: str) -> None:
    from .test_tables import fresh_setup

    fresh_setup(driver, "campaign", "setup")
    safari_tap(driver, visible(driver, f"{scope('campaign')} input[data-field='campaign:deck'][value=table]")[0])
    wait_for(driver, "return document.querySelector(\"input[data-field='campaign:deck'][value=table]\").checked",
             message="our own deck chosen")
    from .kit import field, type_into

    type_into(driver, field(driver, "campaign:name0"), "Anna")
    type_into(driver, field(driver, "seed"), seed)
    edit_then_tap(driver, field(driver, "campaign:name1"), "Ben", button(driver, "Start the campaign"))
    wait_testid(driver, "campaign", "entry")


def pick_card(driver, token: str) -> None:
    tap(driver, visible(driver, f"{scope('campaign')} [data-testid=entry] button[data-arg='{token}']")[0])


def entry_record(driver):
    return visible(driver, f"{scope('campaign')} [data-action='campaign:record-entry']")[0]


def phase(driver) -> str:
    return driver.execute_script("return document.querySelector(arguments[0]).dataset.phase",
                                 f"{scope('campaign')} [data-testid=table]")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_own_deck_entries_safari_style_at_every_size(app, size):
    driver = app
    set_size(driver, *size)
    start_own_deck(driver, "5")
    driver.execute_script("window.scrollTo(0, 0)")
    entry = wait_testid(driver, "campaign", "entry")
    assert_on_screen(driver, entry.find_element("css selector", "h2"),
                     entry.find_element("css selector", ".picker-grid"), entry_record(driver))
    # A wrong tap, taken back with one more tap.
    pick_card(driver, "9H")
    assert "9♥" in text_of(driver, f"{scope('campaign')} [data-testid=entry-slots]")
    pick_card(driver, "9H")
    assert len(visible(driver, f"{scope('campaign')} .entry-slot.empty")) == 4
    for token in ("AS", "KH", "7D", "2C"):
        pick_card(driver, token)
    # A double tap on Record records the pool once.
    double_tap(driver, entry_record(driver))
    wait_for(driver, "return document.querySelector(arguments[0]).dataset.phase === 'stakes'",
             f"{scope('campaign')} [data-testid=table]", message="the stakes entry")
    # An impossible stake is refused with its clause.
    pick_card(driver, "KH")
    assert "CMP-2: the K♥ cannot be Anna's stake: it is in the pool" in refusal(driver)
    for token in ("QS", "3H"):
        pick_card(driver, token)
    driver.execute_script("window.scrollTo(0, 0)")
    assert_on_screen(driver, entry_record(driver))
    tap(driver, entry_record(driver))
    wait_testid(driver, "campaign", "record")
    assert phase(driver) == "battle"
    assert_app_ok(driver)


def test_own_deck_a_battle_a_new_pool_card_and_a_reload(app):
    from .conftest import ERROR_HOOK_JS, wait_ready

    driver = app
    set_size(driver, 1024, 768)
    start_own_deck(driver, "6")
    for token in ("AS", "KH", "7D", "2C"):
        pick_card(driver, token)
    tap(driver, entry_record(driver))
    wait_for(driver, "return document.querySelector(arguments[0]).dataset.phase === 'stakes'",
             f"{scope('campaign')} [data-testid=table]", message="the stakes entry")
    for token in ("QS", "3H"):
        pick_card(driver, token)
    tap(driver, entry_record(driver))
    tap(driver, button(driver, "Anna won"))
    edit_then_tap(driver, visible(driver, "#campaign-troops")[0], "3", record_button(driver))
    wait_testid(driver, "campaign", "spoils")
    tap(driver, visible(driver, f"{scope('campaign')} [data-testid=spoils] button[data-arg='KH']")[0])
    wait_for(driver, "return document.querySelector(arguments[0]).dataset.phase === 'refill'",
             f"{scope('campaign')} [data-testid=table]", message="the new pool card entry")
    pick_card(driver, "9C")
    tap(driver, entry_record(driver))
    wait_for(driver, "return document.querySelector(arguments[0]).dataset.phase === 'stakes'",
             f"{scope('campaign')} [data-testid=table]", message="battle 2's stakes")
    pool = driver.execute_script("return [...document.querySelectorAll(arguments[0])].map(e => e.dataset.card)",
                                 f"{scope('campaign')} [data-testid=pool] .card")
    assert pool == ["AS", "9C", "7D", "2C"]  # the new card in the K♥'s place (CMP-4)
    driver.refresh()  # as Safari's pull-to-refresh does
    driver.execute_script(ERROR_HOOK_JS)
    wait_ready(driver)
    wait_testid(driver, "campaign", "entry")
    assert phase(driver) == "stakes"
    assert driver.execute_script("return [...document.querySelectorAll(arguments[0])].map(e => e.dataset.card)",
                                 f"{scope('campaign')} [data-testid=pool] .card") == pool
    assert "7 cards" in text_of(driver, f"{scope('campaign')} [data-testid=count-0]")
    assert_app_ok(driver)
