"""Issue 35 in WebKit (iPad's engine): what the app reads back from localStorage is hostile.

A hand-edited key (the tracker's ticks with a ``"²"`` key, a campaign form whose ``deck``
is a list, junk in the other forms, 32 KB of escaped quotes) is set aside with one plain
message on its table, and the table works; with storage full, Delete can be undone in
this tab; a save's name from a file passes the check typed names get.

The suite shares one document: each test loads the page again after writing storage, and
takes its keys out again when done.
"""

from __future__ import annotations

import json

from engine import codec
from engine import game as games
from tests.e2e.test_storage_hostile import FULL_STORAGE, KEPT, QUOTES_32K

from .conftest import ERROR_HOOK_JS, wait_for, wait_ready
from .kit import assert_app_ok, button, safari_tap, tap, visible
from .test_tables import scope, wait_testid

SQUAD = {"sides": ["Blue", "Red"], "combatants": [
    {"name": n, "side": s, "grain": "individual", "training": "untrained", "weapon": [], "player": s == 0}
    for n, s in (("Ann", 0), ("Cy", 1))]}
#: The keys these tests write (besides saves, which stay like any test's).
KEYS = ("ct:v1:draft:conflict", "ct:v1:draft:campaign", "ct:v1:draft:battle", "ct:v1:draft:initiative",
        "ct:v1:initiative:ticks", "ct:v1:initiative:view", "ct:v1:initiative:templates", "ct:v1:trash")


def put(driver, key: str, text: str) -> None:
    """Write ``key`` once every table's view is built: a view built after it (at an idle moment
    after ready) would read it and set it aside in this page, and the page loaded next would
    find it repaired and say nothing (what failed on a loaded machine: the battle's view was
    built after the keys were written)."""
    wait_for(driver, "return document.documentElement.dataset.views === 'all'", timeout=60,
             message="html[data-views='all'] before writing storage", interval=0.1)
    driver.execute_script("localStorage.setItem(arguments[0], arguments[1])", key, text)


def get(driver, key: str):
    return driver.execute_script("return localStorage.getItem(arguments[0])", key)


def backups(driver) -> dict:
    return driver.execute_script("""return Object.fromEntries(Object.keys(localStorage)
        .filter(k => k.startsWith('ct:v1:backup:')).map(k => [k, localStorage.getItem(k)]))""")


def clean_up(driver) -> None:
    driver.execute_script("""for (const k of Object.keys(localStorage))
        if (arguments[0].includes(k) || k.startsWith('ct:v1:backup:')) localStorage.removeItem(k);""", list(KEYS))


def reload(driver) -> None:
    driver.refresh()
    driver.execute_script(ERROR_HOOK_JS)
    wait_ready(driver)


def go(driver, hash_: str) -> None:
    driver.execute_script("location.hash = arguments[0]", hash_)


def error_toasts(driver) -> list[str]:
    return [t.get_attribute("textContent") for t in visible(driver, ".toast.error")]


def open_link(driver, route: str, game, testid: str) -> str:
    go(driver, f"#/{route}?g={codec.encode_share(game)}")
    wait_testid(driver, route, testid)
    return get(driver, f"ct:v1:last:{route}")


def test_hand_edited_keys_are_set_aside_with_a_message_and_every_table_works(app):
    driver = app
    try:
        clean_up(driver)
        slot = open_link(driver, "initiative", games.new_game("initiative", SQUAD, None, 8), "deal-panel")
        campaign = open_link(driver, "campaign", games.new_game("campaign", {"players": ["Anna", "Ben"]}, None, 8),
                             "table")
        written = {
            "ct:v1:initiative:ticks": json.dumps({"slot": slot, "round": 1, "advantages": {"²": ["surprise"]}}),
            "ct:v1:draft:campaign": json.dumps({"mode": "two", "names": ["Anna", "Ben"], "deck": ["table"]}),
            "ct:v1:draft:conflict": json.dumps({"setup": {"sides": {"²": [1]}}}),
            "ct:v1:draft:battle": QUOTES_32K,
            "ct:v1:initiative:templates": json.dumps([{"name": ["²"]}, 5]),
        }
        for key, text in written.items():
            put(driver, key, text)
        go(driver, "#/")
        reload(driver)
        # each table reads what it kept when its view is built: after ready, at idle moments
        wait_for(driver, "return document.documentElement.dataset.views === 'all'", timeout=30,
                 message="html[data-views='all']", interval=0.1)
        assert error_toasts(driver) == []  # each table says it on its own screen
        assert sorted(backups(driver).values()) == sorted(written.values())
        go(driver, "#/initiative")
        wait_testid(driver, "initiative", "deal-panel")
        [message] = error_toasts(driver)
        assert "the ticks for the next deal could not be read, so they were cleared" in message and KEPT in message
        assert "a template without a name was dropped" in message
        tap(driver, button(driver, "Deal"))
        wait_testid(driver, "initiative", "current-actor")
        assert_app_ok(driver)
        safari_tap(driver, visible(driver, ".toast.error .toast-close")[0])
        go(driver, "#/campaign")
        wait_testid(driver, "campaign", "table")  # the last campaign is open again
        assert get(driver, "ct:v1:last:campaign") == campaign
        [message] = error_toasts(driver)
        assert message.startswith("The kept campaign setup could not be used as it was: the cards and dice") \
            and KEPT in message
        assert_app_ok(driver)
        safari_tap(driver, visible(driver, ".toast.error .toast-close")[0])
        for route, intro in (("conflict", "The kept conflict setup could not be used as it was"),
                             ("battle", "The saved battle setup was damaged and has been repaired")):
            go(driver, f"#/{route}")
            wait_for(driver, "return [...document.querySelectorAll('.toast.error')].some("
                             "t => t.textContent.startsWith(arguments[0]))", intro, message=f"{route}'s message")
            assert_app_ok(driver)
            safari_tap(driver, visible(driver, ".toast.error .toast-close")[0])
        reload(driver)  # said once
        for route in ("initiative", "campaign", "conflict", "battle"):
            go(driver, f"#/{route}")
            wait_for(driver, "return !!document.querySelector(arguments[0])", f"{scope(route)} .session-bar",
                     message=f"#/{route}")
            assert error_toasts(driver) == [], route
        assert_app_ok(driver)
    finally:
        clean_up(driver)


def test_with_storage_full_a_deleted_game_can_be_undone_in_this_tab(app):
    driver = app
    try:
        clean_up(driver)
        slot = open_link(driver, "campaign", games.new_game("campaign", {"players": ["Anna", "Ben"]}, None, 9),
                         "table")
        saved = get(driver, f"ct:v1:slot:{slot}")
        driver.execute_script(f"({FULL_STORAGE})()")
        tap(driver, visible(driver, f"{scope('campaign')} [data-action='session:drawer'][data-arg='saves']")[0])
        tap(driver, visible(driver, f"{scope('campaign')} [data-action='session:delete'][data-arg='{slot}']")[0])
        toast = wait_for(driver, "return [...document.querySelectorAll('.toast')].find("
                                 "t => t.textContent.includes('Undo works only here')) || null",
                         message="the delete's message")
        assert "Browser storage is full, so no copy could be kept in it: Undo works only here, in this tab." \
            in toast.get_attribute("textContent")
        assert get(driver, f"ct:v1:slot:{slot}") is None
        tap(driver, toast.find_element("css selector", ".toast-action"))
        wait_for(driver, "return localStorage.getItem(arguments[0]) === arguments[1]", f"ct:v1:slot:{slot}", saved,
                 message="the game back in storage")
        wait_testid(driver, "campaign", "table")
        assert_app_ok(driver)
    finally:
        reload(driver)  # the real setItem again
        clean_up(driver)


def test_an_imported_name_with_a_right_to_left_override_is_cleaned(app):
    driver = app
    try:
        clean_up(driver)
        go(driver, "#/campaign")
        wait_for(driver, "return !!document.querySelector(arguments[0])", f"{scope('campaign')} .session-bar",
                 message="the campaign")
        if visible(driver, f"{scope('campaign')} [data-testid=table]"):  # a campaign from another test: a new one
            tap(driver, visible(driver, f"{scope('campaign')} [data-action='session:drawer'][data-arg='saves']")[0])
            tap(driver, visible(driver, f"{scope('campaign')} [data-action='session:new']")[0])
        tap(driver, visible(driver, f"{scope('campaign')} [data-action='session:drawer'][data-arg='saves']")[0])
        game = games.new_game("campaign", {"players": ["Anna", "Ben"]}, None, 10)
        text = codec.dumps(game, {"name": "Anna vs Ben\u202e )ypoc rotatceps("}, pretty=True)
        driver.execute_script("""const input = document.querySelector(arguments[0]);
            const dt = new DataTransfer(); dt.items.add(new File([arguments[1]], 'game.json', {type: 'application/json'}));
            input.files = dt.files; input.dispatchEvent(new Event('change', {bubbles: true}));""",
                              f"{scope('campaign')} input[data-field='session:import']", text)
        toast = wait_for(driver, "return [...document.querySelectorAll('.toast')].find("
                                 "t => t.textContent.startsWith('Imported')) || null", message="the import")
        assert "Its name held invisible, control or line-break characters, which were taken out." in \
            toast.get_attribute("textContent")
        name = visible(driver, f"{scope('campaign')} .session-name")[0].get_attribute("textContent")
        assert name == "Anna vs Ben )ypoc rotatceps("
        assert_app_ok(driver)
    finally:
        clean_up(driver)
