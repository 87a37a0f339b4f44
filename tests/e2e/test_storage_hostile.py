"""Issue 35 in Chromium: what the app reads back from the browser is hostile input.

Every key a table reads is checked: a hand-edited one is set aside (a kept copy in the
Saves drawer) with one plain message on its table, and the table works — the tracker's
ticks with a ``"²"`` key, a campaign form whose ``deck`` is a list, junk in every key.
With storage full, Delete can still be undone in this tab, and the player is told so.
A save's name from a file passes the check typed names get. An unterminated string of
escaped quotes (or 1 MB of ``[``) in a draft, a save or an imported file is set aside or
refused, and the app boots and says so (the engine's linear scan; no time is measured).
"""

from __future__ import annotations

import json

from engine import codec
from engine import game as games

from .conftest import READY, open_app
from .consim_kit import ROUTE as INITIATIVE
from .consim_kit import TICKS_KEY, link, make, man
from .tablet import assert_app_ok

KEPT = "The original is kept under Saves, “Kept copies of damaged saves and settings”"
SQUAD = {"sides": ["Blue", "Red"], "combatants": [man("Ann", 0, player=True), man("Cy", 1)]}
QUOTES_32K = '"' + '\\"' * 16_000


def put(page, key: str, text: str) -> None:
    """Write ``key`` once every table's view is built: a view built after it (at an idle moment
    after ready) would read it and set it aside in this page, and the next one would find it
    repaired and say nothing."""
    page.wait_for_selector("html[data-views=all]", state="attached")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, text])


def get(page, key: str):
    return page.evaluate("k => localStorage.getItem(k)", key)


def backups(page) -> dict:
    return page.evaluate("""() => Object.fromEntries(Object.keys(localStorage)
        .filter(k => k.startsWith('ct:v1:backup:')).map(k => [k, localStorage.getItem(k)]))""")


def reload(page, url: str | None = None) -> None:
    """A new page load (at ``url``: a change of the hash alone would not load the page again)."""
    if url is not None:
        page.goto(url)
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=90_000)


def error_toasts(page) -> list[str]:
    return page.locator(".toast.error").all_inner_texts()


def campaign_link(base_url: str, seed: int = 3) -> str:
    game = games.new_game("campaign", {"players": ["Anna", "Ben"]}, None, seed)
    return f"{base_url}#/campaign?g={codec.encode_share(game)}"


# ---------------------------------------------------------------- item 2: every key read is checked

def test_ticks_with_a_squared_key_are_set_aside_and_the_tracker_deals(page, base_url):
    """The issue's case: "Something went wrong drawing this screen", through Try again, a route
    change and a reload."""
    open_app(page, link(base_url, make(SQUAD)))
    page.wait_for_selector("[data-testid=deal-panel]")
    slot = get(page, "ct:v1:last:initiative")
    text = json.dumps({"slot": slot, "round": 1, "advantages": {"²": ["surprise"], "0": ["surprise"]},
                       "surprised": [], "per": False})
    put(page, TICKS_KEY, text)
    reload(page, f"{base_url}#/")
    page.goto(f"{base_url}{INITIATIVE}")  # a route change (the tracker is built on Home at an idle moment, or now)
    page.wait_for_selector("[data-testid=deal-panel]")
    assert page.locator("[data-testid=app-error]").count() == 0
    [message] = error_toasts(page)
    assert "the ticks for the next deal could not be read, so they were cleared" in message and KEPT in message
    assert list(backups(page).values()) == [text]
    page.get_by_role("button", name="Deal", exact=True).tap()
    page.wait_for_selector("[data-testid=current-actor]")
    assert_app_ok(page)
    reload(page)  # said once
    page.wait_for_selector("section[data-route=initiative]:not([hidden]) .session-bar")
    assert error_toasts(page) == []
    assert_app_ok(page)


def test_a_campaign_form_whose_deck_is_a_list_still_reopens_the_last_campaign(page, base_url):
    """The issue's case: every start said "Something went wrong with that tap", and the last
    campaign was not reopened."""
    open_app(page, campaign_link(base_url))
    page.wait_for_selector("[data-testid=table]")
    put(page, "ct:v1:draft:campaign", json.dumps({"mode": "two", "names": ["Anna", "Ben"], "deck": ["table"]}))
    reload(page, f"{base_url}#/campaign")
    page.wait_for_selector("[data-testid=table]")  # the last campaign is open again
    [message] = error_toasts(page)
    assert message.startswith("The kept campaign setup could not be used as it was: the cards and dice were not "
                              "one of the choices")
    assert_app_ok(page)
    page.get_by_role("button", name="Saves").tap()
    kept = page.locator("[data-testid=backup]")
    assert kept.count() == 1 and "The setup form (it could not be used as it was)" in kept.inner_text()
    assert kept.get_by_role("button", name="Show text").count() == 1
    assert kept.get_by_role("button", name="Try to open").count() == 0  # a form is not a game to open
    assert_app_ok(page)


JUNK = {  # a different kind of junk in every key a table reads
    "ct:v1:draft:conflict": json.dumps({"setup": {"sides": {"²": [1]}}, "rules": [[]]}),
    "ct:v1:draft:campaign": "[" * 1_000_000,
    "ct:v1:draft:battle": QUOTES_32K,
    "ct:v1:draft:initiative": json.dumps({"draft": {"sides": ["A", {"²": 1}], "combatants": [[[]], "x" * 5000]}}),
    "ct:v1:initiative:templates": json.dumps([{"name": ["²"]}, 5]),
    "ct:v1:initiative:sides": "{not json",
    "ct:v1:initiative:ticks": json.dumps({"slot": 5, "round": "²"}),
    "ct:v1:initiative:view": json.dumps("x" * 200_000),
}
TABLES = {"conflict": ("Start the conflict", "The kept conflict setup could not be used as it was"),
          "campaign": ("Start the campaign", "The kept campaign setup could not be used as it was"),
          "battle": ("Start the battle", "The saved battle setup was damaged and has been repaired"),
          "initiative": ("Start tracking", "Some of what the tracker kept between visits could not be used")}


def test_junk_in_every_key_is_set_aside_with_one_message_on_each_table_and_every_table_starts(page, base_url):
    open_app(page, base_url)
    for key, text in JUNK.items():
        put(page, key, text)
    reload(page)
    page.wait_for_selector("html[data-views=all]", state="attached")  # each table has read what it kept
    assert error_toasts(page) == []  # Home: each table says it on its own screen
    assert sorted(backups(page).values()) == sorted(JUNK.values())  # every original kept as it was
    for route, (start, intro) in TABLES.items():
        page.goto(f"{base_url}#/{route}")
        section = page.locator(f"section[data-route={route}]:not([hidden])")
        section.locator("[data-testid=setup], [data-testid=roster]").first.wait_for()
        [message] = error_toasts(page)
        assert message.startswith(intro) and KEPT in message, message
        page.locator(".toast.error .toast-close").click()
        if route == "initiative":
            section.locator("[data-field='init:form.name']").fill("Ann")
            section.get_by_role("button", name="Add to roster").tap()
            section.locator("[data-field='init:form.name']").fill("Cy")
            section.locator("[data-field='init:form.side']").select_option("1")
            section.get_by_role("button", name="Add to roster").tap()
        elif route == "battle":
            section.get_by_role("button", name="Load the Jibril corps example").tap()
        section.get_by_role("button", name=start).tap()
        section.locator("[data-testid=table], [data-testid=board], [data-testid=deal-panel]").first.wait_for()
        assert_app_ok(page)
    reload(page, f"{base_url}#/initiative")
    for route in TABLES:
        page.goto(f"{base_url}#/{route}")
        page.locator(f"section[data-route={route}]:not([hidden]) .session-bar").wait_for()
        assert error_toasts(page) == [], route
    assert_app_ok(page)


# ---------------------------------------------------------------- item 3: Delete with storage full

FULL_STORAGE = """() => {
    // A storage that is full: a write that would make it larger than it is now is refused,
    // as a browser refuses one past its quota.
    const size = () => Object.keys(localStorage).reduce((n, k) => n + k.length + localStorage.getItem(k).length, 0);
    window.storageQuota = size();
    const real = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
        const old = this.getItem(key);
        const after = size() - (old === null ? 0 : key.length + old.length) + key.length + String(value).length;
        if (after > window.storageQuota) throw new DOMException('full', 'QuotaExceededError');
        return real.call(this, key, value);
    };
}"""


def test_with_storage_full_a_deleted_game_can_be_undone_in_this_tab(page, base_url):
    open_app(page, campaign_link(base_url, 4))
    page.wait_for_selector("[data-testid=table]")
    slot = get(page, "ct:v1:last:campaign")
    saved = get(page, f"ct:v1:slot:{slot}")
    page.evaluate(FULL_STORAGE)
    page.get_by_role("button", name="Saves").tap()
    page.get_by_label("Saved games").get_by_role("button", name="Delete Anna vs Ben (shared)").tap()
    toast = page.locator(".toast", has_text="Deleted “Anna vs Ben (shared)”")
    assert "Browser storage is full, so no copy could be kept in it: Undo works only here, in this tab." \
        in toast.inner_text()
    assert get(page, f"ct:v1:slot:{slot}") is None and get(page, "ct:v1:trash") is None
    toast.get_by_role("button", name="Undo").tap()
    page.locator(".toast", has_text="Restored “Anna vs Ben (shared)”").wait_for()
    assert get(page, f"ct:v1:slot:{slot}") == saved
    page.wait_for_selector("[data-testid=table]")  # the open game is open again
    assert_app_ok(page)


# ---------------------------------------------------------------- item 4: names from files

def test_an_imported_name_with_a_right_to_left_override_is_cleaned_and_said(page, base_url, tmp_path):
    open_app(page, base_url + "#/campaign")
    game = games.new_game("campaign", {"players": ["Anna", "Ben"]}, None, 5)
    path = tmp_path / "game.json"
    path.write_text(codec.dumps(game, {"name": "Anna vs Ben\u202e )ypoc rotatceps("}, pretty=True))
    page.get_by_role("button", name="Saves").tap()
    page.locator("input[data-field='session:import']").set_input_files(str(path))
    page.locator(".toast", has_text="Imported").wait_for()
    assert "Its name held invisible, control or line-break characters, which were taken out." in \
        page.locator(".toast", has_text="Imported").inner_text()
    name = page.locator("section[data-route=campaign] .session-name")
    assert name.inner_text() == "Anna vs Ben )ypoc rotatceps("
    assert "\u202e" not in page.locator("section[data-route=campaign]").inner_text()
    page.get_by_role("button", name="Saves").tap()
    row = page.get_by_label("Saved games").locator(".save-row.current strong")
    assert row.inner_text() == "Anna vs Ben )ypoc rotatceps( (open)"
    assert "\u202e" not in get(page, f"ct:v1:slot:{get(page, 'ct:v1:last:campaign')}")
    assert_app_ok(page)


# ---------------------------------------------------------------- item 6: escaped quotes, 1 MB of "["

def test_escaped_quotes_in_a_draft_a_save_and_imported_files_are_set_aside_or_refused(page, base_url, tmp_path):
    open_app(page, campaign_link(base_url, 6))
    page.wait_for_selector("[data-testid=table]")
    slot = get(page, "ct:v1:last:campaign")
    put(page, f"ct:v1:slot:{slot}", '{"app": "conflict-table", "meta": {"name": "' + '\\"' * 16_000)
    put(page, "ct:v1:draft:campaign", QUOTES_32K)
    reload(page, f"{base_url}#/campaign")
    page.wait_for_selector("[data-testid=setup]")
    toasts = " | ".join(error_toasts(page))
    assert "A copy was kept" in toasts and "The kept campaign setup could not be used as it was" in toasts
    assert len(backups(page)) == 2
    assert_app_ok(page)
    page.locator(".toast.error .toast-close").last.click()
    page.locator(".toast.error .toast-close").last.click()
    page.get_by_role("button", name="Saves").tap()
    for name, text in (("quotes.json", '{"app": "conflict-table", "x": "' + '\\"' * 64_000),
                       ("brackets.json", "[" * 1_000_000)):
        path = tmp_path / name
        path.write_text(text)
        page.locator("input[data-field='session:import']").set_input_files(str(path))
        page.locator(".toast.error", has_text="could not be imported").wait_for()
        page.locator(".toast.error .toast-close").click()
    page.get_by_role("button", name="Start the campaign").tap()
    page.wait_for_selector("[data-testid=table]")
    assert_app_ok(page)
