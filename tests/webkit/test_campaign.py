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
