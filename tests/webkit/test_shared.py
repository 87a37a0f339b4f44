"""The shared web layer in WebKit (issue 22): toasts never cover the toolbar, and the one
double-tap guard takes a tap on another button at once but refuses, and says so, a
second tap on what appeared under the finger.

Games are opened by share links in the suite's one document (``location.hash``).
"""

from __future__ import annotations

from engine import codec
from engine import game as games
from tests.e2e.test_hardening import TAPS, TOOLBAR
from tests.engine.test_consim import two_sides
from tests.web.test_session import impossible_links

from .conftest import TABLET_PORTRAIT, set_size, wait_for
from .kit import assert_app_ok, assert_on_screen, saved_game, visible

ROUTE = "section.route[data-route='initiative']"


def open_initiative(driver, seed: int) -> None:
    link = codec.encode_share(games.new_game("initiative", two_sides(), None, seed))
    driver.execute_script("location.hash = arguments[0]", f"#/initiative?g={link}")
    wait_for(driver, "return document.querySelector(arguments[0])", f"{ROUTE} [data-testid=deal-panel]",
             message="the deal panel")
    driver.execute_script("window.scrollTo(0, 0)")


def dismiss_toasts(driver) -> None:
    driver.execute_script("for (const b of document.querySelectorAll('.toast-close')) b.click()")
    wait_for(driver, "return !document.querySelector('.toast')", message="the toasts to go")


def actions(driver) -> list[str]:
    return [a["type"] for a in saved_game(driver, "initiative").actions]


def test_stacked_toasts_never_cover_the_toolbar(app):
    driver = app
    set_size(driver, *TABLET_PORTRAIT)
    open_initiative(driver, 11)
    for payload in ("2AAAA", impossible_links()[2][1]):
        driver.execute_script("location.hash = arguments[0]", f"#/initiative?g={payload}")
        wait_for(driver, "return document.querySelectorAll('.toast.error').length >= arguments[0]",
                 1 if payload == "2AAAA" else 2, message="the refusal toasts")
    driver.execute_script("window.scrollTo(0, 0)")
    assert len(visible(driver, ".toast")) == 3
    controls = [b for b in visible(driver, f"{ROUTE} button") if b.text.strip() in TOOLBAR]
    controls += visible(driver, f"{ROUTE} .tool-head [data-open-rules]")
    assert len(controls) == len(TOOLBAR) + 1
    assert_on_screen(driver, *controls, uncovered=True)
    dismiss_toasts(driver)
    assert_app_ok(driver)


def test_next_right_after_deal_is_taken_and_a_double_tap_on_next_is_refused_and_said(app):
    driver = app
    set_size(driver, *TABLET_PORTRAIT)
    open_initiative(driver, 12)
    dismiss_toasts(driver)
    hits = driver.execute_script(f"return ({TAPS})(arguments[0])", ["[data-action='init:deal']",
                                                                   "[data-action='init:next']"])
    assert hits == ["Deal", "Next ▸"] and actions(driver) == ["deal", "next"]
    assert not [t for t in visible(driver, ".toast") if "Not taken" in t.text]
    import time

    time.sleep(0.6)  # the Observer reads the order before tapping on (not a timing check)
    hits = driver.execute_script(f"return ({TAPS})(arguments[0])", ["[data-action='init:next']", None])
    assert hits == ["Next ▸", "Next ▸"] and actions(driver) == ["deal", "next", "next"]
    said = wait_for(driver, "return [...document.querySelectorAll('#toasts[aria-live=polite] .toast')]"
                            ".find(t => t.textContent.includes('Not taken')) || null", message="the refusal")
    assert "a second tap on “Next ▸”" in said.get_attribute("textContent")
    dismiss_toasts(driver)
    assert_app_ok(driver)
