"""Issue 20 on the battle board: what the web layer reads back gets the engine's contract. A
hand-edited setup draft (a general's ``traits`` that is a number, …) is repaired with a message,
never a crash box; a link whose actions are well formed but impossible is refused with its
clause and nothing is saved; an old link whose replay a ruling changed opens as it was played
and says so."""

from __future__ import annotations

import base64
import json
import zlib

import pytest

from .tablet import assert_app_ok
from .test_battle import BOOT_MS, open_app

DRAFT_KEY = "ct:v1:draft:battle"

DAMAGED = {
    "traits a number": {"setup": {"armies": [
        {"name": "Host", "units": [{"name": "Div", "attack": 5, "defense": 6, "mobility": 2, "traits": ["infantry"],
                                    "armour": 0, "size": 0}], "vanguard": 0, "rearguard": 0,
         "general": {"name": "Vey", "level": 2, "traits": 5}},
        {"name": "Levy", "units": [{"name": "Foot", "attack": 2, "defense": 2, "mobility": 2, "traits": ["line"],
                                    "armour": 0, "size": 0}], "vanguard": 0, "rearguard": 0, "general": None}]},
        "rules": {"success": "d6/4+", "house_tables": {}}},
    "every field wrong": {"setup": {"armies": [
        {"name": 7, "units": [{"name": None, "attack": [1], "traits": "scout", "size": True}, 5],
         "vanguard": "x", "rearguard": 99, "general": "Vey"},
        {"units": {}}]}, "rules": {"success": 4, "reads": "loser", "dice": None, "house_tables": [1]}},
    "not an object": [1, 2, 3],
    "armies missing": {"setup": {"sides": []}},
}


@pytest.mark.parametrize("name", list(DAMAGED))
def test_a_hand_edited_draft_is_repaired_with_a_message_never_a_crash_box(page, base_url, name):
    open_app(page, base_url + "#/battle")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [DRAFT_KEY, json.dumps(DAMAGED[name])])
    page.reload()
    page.wait_for_selector("html[data-ready='true']", state="attached", timeout=BOOT_MS)
    page.wait_for_selector("[data-testid=setup]")
    assert page.locator("[data-testid=app-error]").count() == 0
    toast = page.locator(".toast.error").inner_text()
    assert "The saved battle setup was damaged and has been repaired" in toast
    # The form works: the example loads and the battle starts.
    page.get_by_role("button", name="Load the Jibril corps example").tap()
    page.get_by_role("button", name="Start the battle").tap()
    page.wait_for_selector("[data-testid=board]")
    assert_app_ok(page)
    # The repaired draft was kept: the next load says nothing.
    page.get_by_role("button", name="Saves").tap()
    page.locator("[data-action='session:new']").first.tap()
    page.reload()
    page.wait_for_selector("html[data-ready='true']", state="attached", timeout=BOOT_MS)
    assert page.locator(".toast.error").count() == 0
    assert_app_ok(page)


def test_the_traits_number_draft_keeps_what_was_readable(page, base_url):
    open_app(page, base_url + "#/battle")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [DRAFT_KEY, json.dumps(DAMAGED["traits a number"])])
    page.reload()
    page.wait_for_selector("[data-testid=setup]", timeout=BOOT_MS)
    assert "Army 1's general's traits were not a list" in page.locator(".toast.error").inner_text()
    assert page.locator("[data-field='setup:armies.0.name']").input_value() == "Host"
    assert page.locator("[data-field='general:0.level']").input_value() == "2"
    assert not page.locator("[data-field='general:0.observer']").is_checked()


def link(short: dict, head: str = "3") -> str:
    raw = json.dumps(short, separators=(",", ":")).encode()
    return head + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


ARMIES = {"armies": [
    {"name": "North", "units": [{"name": "N", "attack": 2, "defense": 2, "mobility": 2, "traits": ["infantry"],
                                 "armour": 0, "size": 9}], "vanguard": 0, "rearguard": 0, "general": None},
    {"name": "South", "units": [{"name": "S", "attack": 2, "defense": 2, "mobility": 2, "traits": ["infantry"],
                                 "armour": 0, "size": 9}], "vanguard": 0, "rearguard": 0, "general": None}]}


@pytest.mark.parametrize("rules, clause", [
    ({"dice": "table"}, "AI-14"),  # the table's own dice, entered: the casualty rolls 999 and -5 are impossible
    ({}, "HR-AI-7"),  # the app's dice: no link says what they rolled (issue 35)
], ids=["table-dice", "app-dice"])
def test_an_impossible_link_is_refused_with_its_clause_and_nothing_is_saved(page, base_url, rules, clause):
    crafted = link({"k": "battle", "s": 5, "r": rules, "u": ARMIES, "a": [
        {"type": "bid", "side": 0, "maneuver": "defend", "stratagems": []},
        {"type": "bid", "side": 1, "maneuver": "defend", "stratagems": []}, {"type": "reveal"},
        {"type": "roll", "dice": [[1, 1], [1, 1]], "ranges": [999, -5]}]})
    open_app(page, base_url + "#/battle")
    saves = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('ct:v1:slot:')).length")
    page.goto(base_url + "#/battle?g=" + crafted)
    toast = page.locator(".toast.error")
    toast.wait_for()
    assert f"this game breaks {clause} at step 4" in toast.inner_text()
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('ct:v1:slot:')).length") == saves
    assert_app_ok(page)


def test_an_old_link_whose_replay_the_fallback_changed_opens_as_played(page, base_url):
    big = {"name": "Big", "attack": 9, "defense": 9, "mobility": 9, "traits": ["infantry", "line"], "armour": 0,
           "size": 99}
    armies = {"armies": [dict(ARMIES["armies"][0], units=[big]), dict(ARMIES["armies"][1], units=[dict(big)])]}
    # The dice are entered, so the table's own (the app's dice are never entered: HR-AI-7, issue 35)
    old = link({"k": "battle", "s": 5, "r": {"success": "d6/4+", "house_tables": {}, "dice": "table"}, "u": armies,
                "a": [
        {"type": "bid", "side": 0, "maneuver": "attack"}, {"type": "bid", "side": 1, "maneuver": "defend"},
        {"type": "reveal"}, {"type": "roll", "dice": [[6] * 6 + [1] * 3, [1] * 9], "ranges": [1, 0]},
        {"type": "bid", "side": 0, "maneuver": "attack"}, {"type": "bid", "side": 1, "maneuver": "attack"},
        {"type": "reveal"}, {"type": "roll", "successes": [1, 1]}]}, head="2")
    open_app(page, base_url + "#/battle?g=" + old)
    page.wait_for_selector("[data-testid=board]")
    assert page.locator("[data-testid=board]").get_attribute("data-week") == "3"  # two weeks, as played
    log = page.locator("[data-testid=log]").inner_text()
    assert "played with an earlier version of the app" in log and "AI-19 not applied" in log
    page.locator("[data-testid=rules-in-play] summary").tap()
    assert "Earlier version" in page.locator("[data-testid=rules-in-play]").inner_text()
    page.get_by_role("button", name="History").tap()
    assert "kept as played before the AI-19 ruling" in page.locator(".history-list").inner_text()
    assert_app_ok(page)
