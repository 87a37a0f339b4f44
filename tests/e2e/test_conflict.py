"""Organizations In Conflict on the built site (issues 3 and 4), tapped as a player would.

The game-session proofs (autosave, reload, undo/redo, save slots, export/import,
share links, corrupted store, hostile links, two tabs, full storage) run on this
first real tool.
"""

from __future__ import annotations

import json
import re

import pytest

from engine import codec, conflict
from engine.game import new_game, replay

from .conftest import READY, TABLET_LANDSCAPE, TABLET_PORTRAIT, open_app
from .tablet import assert_on_screen

SEED = "7"
SUIT_LETTER = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def start_example(page, base_url, deck: str = "app", seed: str = SEED):
    open_app(page, base_url + "#/conflict")
    page.get_by_role("button", name="Load the Purple Dragon League example").click()
    if deck == "table":
        page.get_by_label(re.compile("Table deck")).check()
    page.locator("[data-field=seed]").fill(seed)
    page.get_by_role("button", name="Start the conflict").click()
    page.wait_for_selector("[data-testid=table]")


def keep_all(page):
    """Both sides keep their dealt hands (OIC-8), each behind the pass-the-tablet curtain."""
    for _ in range(2):
        page.locator("[data-testid=curtain] button").click()
        page.get_by_role("button", name="Keep all cards").click()


def play_round_by_taps(page) -> int:
    """Each side plays its first highlighted card until one cannot; returns the taps."""
    taps = 0
    while page.locator("[data-testid=result]").count() == 0:
        assert taps < 60, "a round must end"
        page.locator("[data-testid=curtain] button").click()
        playable = page.locator("[data-testid=hand] .card.playable")
        if playable.count():
            playable.first.tap()
        else:
            page.get_by_role("button", name="Pass — end the round").tap()
        taps += 1
    return taps


def ratings(page) -> dict[str, str]:
    return {f"{s}{suit}": page.locator(f"[data-testid=rating-{s}-{suit}]").inner_text()
            for s in (0, 1) for suit in "SHDC"}


@pytest.mark.parametrize("viewport", [TABLET_LANDSCAPE, TABLET_PORTRAIT], ids=["landscape", "portrait"])
def test_oic_7_example_full_round_undo_reload_and_share(page, base_url, new_device, viewport):
    page.set_viewport_size(viewport)
    open_app(page, base_url + "#/conflict")
    page.get_by_role("button", name="Load the Purple Dragon League example").click()
    # OIC-7: the source's max card sizes, with the reason shown live.
    league = page.get_by_label("Max card sizes of Player 1").inner_text()
    zombies = page.get_by_label("Max card sizes of Player 2").inner_text()
    for text in ("spades 14 − 5 at home ground = 9", "clubs 11 − 5 at home ground = 6",
                 "diamonds 12 − 5 at home ground = 7", "hearts 9 − 5 at home ground = 4"):
        assert text in league
    assert "hearts 13 − 5 at home ground = 8" in zombies

    page.locator("[data-field=seed]").fill(SEED)
    page.get_by_role("button", name="Start the conflict").click()
    keep_all(page)
    before = ratings(page)
    play_round_by_taps(page)

    result = page.locator("[data-testid=result]")
    explanation = result.locator("[data-testid=explanation]").inner_text()
    side, suit = result.get_attribute("data-change-side"), result.get_attribute("data-change-suit")
    delta, after = int(result.get_attribute("data-delta")), result.get_attribute("data-power-after")
    # OIC-15: the result explains itself and the rating on screen changed by it.
    assert re.search(r"last card [♠♥♦♣] (=|≠) first card [♠♥♦♣]: .+ (gains|loses) 1 in \w+; .+ \d+ → \d+",
                     explanation), explanation
    assert delta in (1, -1)
    now = ratings(page)
    assert now[f"{side}{suit}"] == after
    assert int(now[f"{side}{suit}"]) == int(before[f"{side}{suit}"]) + delta
    assert {k: v for k, v in now.items() if k != f"{side}{suit}"} == \
        {k: v for k, v in before.items() if k != f"{side}{suit}"}
    assert f"→ {after}" in explanation
    assert "Conflict log" in page.locator("#app-conflict").inner_text()

    # Undo the last card: the round is open again and the rating is back.
    page.get_by_role("button", name="↶ Undo").tap()
    assert page.locator("[data-testid=result]").count() == 0
    assert ratings(page) == before
    assert "1 later step is kept" in page.locator("[data-testid=past]").inner_text()
    page.get_by_role("button", name="↷ Redo").tap()
    assert page.locator("[data-testid=past]").count() == 0
    assert page.locator("[data-testid=explanation]").inner_text() == explanation
    # History: jump to the start and back to the latest.
    page.get_by_role("button", name="History").tap()
    page.get_by_role("button", name="Start of the game").tap()
    assert "discard" in page.locator("[data-testid=status]").inner_text()
    page.get_by_role("button", name="Back to the latest").tap()
    assert page.locator("[data-testid=explanation]").inner_text() == explanation
    page.get_by_role("button", name="History").tap()  # close the drawer

    # Autosave: a reload finds the same game at the same point.
    status = page.locator("[data-testid=status]").inner_text()
    page.reload()
    page.wait_for_selector(READY, state="attached")
    assert page.locator("[data-testid=status]").inner_text() == status
    assert ratings(page) == now

    # A share link opens the same table in a fresh browser (no shared storage).
    page.get_by_role("button", name="Share").click()
    link = page.locator("[data-testid=share-full]").input_value()
    assert len(link) < 2000
    other = new_device(viewport=viewport, has_touch=True)
    try:
        guest = other.new_page()
        open_app(guest, link)
        guest.wait_for_selector("[data-testid=table]")
        assert guest.locator("[data-testid=status]").inner_text() == status
        assert ratings(guest) == now
        assert "#/conflict" in guest.url and "g=" not in guest.url  # the payload was consumed
        # The receiver can undo through the history.
        guest.get_by_role("button", name="↶ Undo").tap()
        assert guest.locator("[data-testid=result]").count() == 0
    finally:
        other.close()


def test_spectator_link_hides_hands(page, base_url, new_device):
    start_example(page, base_url)
    keep_all(page)
    page.locator("[data-testid=curtain] button").click()
    page.locator("[data-testid=hand] .card.playable").first.tap()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Share").click()
    link = page.locator("[data-testid=share-public]").input_value()
    page.locator(".share-block", has_text="Spectator view").get_by_role("button", name="Copy link").click()
    assert page.evaluate("navigator.clipboard.readText()") == link
    assert page.locator(".share-block", has_text="Spectator view").get_by_role("button", name="Copied ✓").count() == 1
    game = codec.decode_share(link.split("g=", 1)[1])
    # The copy keeps the game's own deck (the copy's mark, issue 30) and replays the cards played
    assert game.setup["deck"] == "app" and game.setup["spectator"] is True and game.seed == 0
    assert replay(game).deck_mode == "table"
    assert all(a["type"] != "discard" for a in game.actions)
    other = new_device(viewport=TABLET_LANDSCAPE, has_touch=True)
    try:
        guest = other.new_page()
        open_app(guest, link)
        guest.wait_for_selector("[data-testid=table]")
        assert guest.locator("[data-testid=current-card] .card").get_attribute("data-card") == \
            page.locator("[data-testid=current-card] .card").get_attribute("data-card")
        assert guest.locator("[data-testid=hand]").count() == 0  # no hands, and no move (issue 21)
        assert guest.locator("[data-testid=picker]").count() == 0
        assert guest.locator("[data-testid=spectator-banner]").count() == 1
    finally:
        other.close()


def test_table_deck_refuses_an_illegal_card_with_its_rule_id(page, base_url):
    start_example(page, base_url, deck="table")
    picker = page.locator("[data-testid=picker]")
    # The zombies open: 10♠ is above their max card size in spades (9) → OIC-5.
    picker.locator("[data-card='10S']").tap()
    assert "OIC-5" in page.locator("[data-testid=refusal]").inner_text()
    assert page.locator("[data-testid=current-card] [data-card]").count() == 0
    picker.locator("[data-card='9S']").tap()
    assert page.locator("[data-testid=current-card] [data-card]").get_attribute("data-card") == "9S"
    # The League answers with a lower spade: neither beats nor trumps → OIC-11.
    page.locator("[data-testid=picker] [data-card='5S']").tap()
    refusal = page.locator("[data-testid=refusal]").inner_text()
    assert refusal.startswith("OIC-11"), refusal
    assert page.locator("[data-testid=current-card] [data-card]").get_attribute("data-card") == "9S"
    # A heart trumps spades (OIC-12) and is within the League's hearts size of 4.
    page.locator("[data-testid=picker] [data-card='3H']").tap()
    assert page.locator("[data-testid=current-card] [data-card]").get_attribute("data-card") == "3H"


def test_hand_card_refusal_names_the_rule(page, base_url):
    start_example(page, base_url)
    keep_all(page)
    page.locator("[data-testid=curtain] button").click()
    blocked = page.locator("[data-testid=hand] .card.blocked")
    if blocked.count() == 0:
        pytest.fail("seed 7 deals the zombies at least one unplayable card")
    blocked.first.tap()
    assert re.match(r"OIC-\d+: ", page.locator("[data-testid=refusal]").inner_text())


def saves_panel(page):
    page.get_by_role("button", name="Saves").click()
    return page.get_by_label("Saved games")


def test_save_slots_rename_duplicate_delete_and_undo(page, base_url):
    start_example(page, base_url)
    panel = saves_panel(page)
    assert panel.locator(".save-row").count() == 1
    panel.get_by_role("button", name="Rename").click()
    page.locator("#rename-input").fill("Friday <b>night</b>")
    panel.get_by_role("button", name="Save name").click()
    assert "Friday <b>night</b>" in page.locator(".session-name").inner_text()
    assert page.locator(".session-name b").count() == 0  # text, never markup
    panel.get_by_role("button", name="Copy").click()
    assert panel.locator(".save-row").count() == 2
    copy_row = panel.locator(".save-row", has_text="(copy)")
    copy_row.get_by_role("button", name=re.compile("^Delete")).click()
    assert panel.locator(".save-row").count() == 1
    page.locator(".toast").get_by_role("button", name="Undo").click()
    assert panel.locator(".save-row").count() == 2
    # Open the copy: it is the same game.
    status = page.locator("[data-testid=status]").inner_text()
    panel.locator(".save-row", has_text="(copy)").get_by_role("button", name="Open").click()
    assert page.locator("[data-testid=status]").inner_text() == status
    assert "(copy)" in page.locator(".session-name").inner_text()


def test_export_and_import_never_overwrite(page, base_url, tmp_path):
    start_example(page, base_url)
    keep_all(page)
    panel = saves_panel(page)
    with page.expect_download() as info:
        panel.get_by_role("button", name="Export").click()
    path = tmp_path / "game.json"
    info.value.save_as(path)
    game, meta = codec.loads(path.read_text())
    assert game.kind == "conflict" and len(game.actions) == 2
    page.locator("input[data-field='session:import']").set_input_files(str(path))
    page.wait_for_selector(".toast:has-text('Imported')")
    # The import opened as a new game (same point of play); the original is still there.
    assert "(imported)" in page.locator(".session-name").inner_text()
    assert page.locator("[data-testid=status]").count() == 1
    panel = saves_panel(page)
    names = panel.locator(".save-row strong").all_inner_texts()
    assert len(names) == 2 and sum("(imported)" in n for n in names) == 1
    # A broken file is refused with a message and changes nothing.
    bad = tmp_path / "bad.json"
    bad.write_text('{"app": "conflict-table", "schema": 2, "kind": "conflict", "actions": 7}')
    page.locator("input[data-field='session:import']").set_input_files(str(bad))
    page.wait_for_selector(".toast.error")
    assert "could not be imported" in page.locator(".toast.error").inner_text()
    assert page.locator(".save-row").count() == 2


def test_corrupted_store_entry_is_backed_up_and_the_rest_still_open(page, base_url):
    start_example(page, base_url)
    keep_all(page)
    slot = page.evaluate("localStorage.getItem('ct:v1:last:conflict')")
    good = page.evaluate(f"localStorage.getItem('ct:v1:slot:{slot}')")
    # A second, healthy game in another slot.
    page.evaluate("""([slot, text]) => {
        localStorage.setItem('ct:v1:slot:conflict-zzzzzz', text);
        localStorage.setItem('ct:v1:slot:' + slot, text.slice(0, 40) + '###');
    }""", [slot, good])
    page.reload()
    page.wait_for_selector(READY, state="attached")
    toast = page.locator(".toast.error")
    assert "damaged" in toast.inner_text().lower() or "could not" in toast.inner_text().lower()
    backups = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('ct:v1:backup:'))")
    assert len(backups) == 1
    assert page.evaluate(f"localStorage.getItem('{backups[0]}')").endswith("###")
    panel = saves_panel(page)
    panel.locator(".save-row").first.get_by_role("button", name="Open").click()
    assert page.locator("[data-testid=table]").count() == 1


def test_hostile_and_broken_links_explain_and_keep_local_work(page, base_url):
    start_example(page, base_url)
    keep_all(page)
    status = page.locator("[data-testid=status]").inner_text()
    for payload in ("2AAAA", "%3Cscript%3E", "9" + "A" * 50, "x" * 30000):
        page.goto(f"{base_url}#/conflict?g={payload}")
        page.wait_for_selector(".toast.error")
        assert "could not be opened" in page.locator(".toast.error").last.inner_text()
        page.locator(".toast.error .toast-close").last.click()
        assert page.locator("[data-testid=status]").inner_text() == status
    # Markup in names arrives as text.
    setup = conflict.purple_dragon_setup()
    setup["sides"][0]["name"] = '<img src=x onerror="document.title=1">'
    link = codec.encode_share(new_game("conflict", setup, seed=1))
    page.goto(f"{base_url}#/conflict?g={link}")
    page.wait_for_selector("[data-testid=side-0]")
    assert '<img src=x onerror="document.title=1">' in page.locator("[data-testid=side-0]").inner_text()
    assert page.locator("#app-conflict img").count() == 0
    assert page.title() == "Organizations In Conflict — Conflict Table"  # the onerror never ran
    assert len(page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('ct:v1:slot:'))")) == 2


def test_two_tabs_on_one_game_do_not_overwrite_each_other(page, base_url):
    start_example(page, base_url)
    second = page.context.new_page()
    open_app(second, base_url + "#/conflict")
    second.wait_for_selector("[data-testid=table]")
    keep_all(page)  # tab one moves on
    second.wait_for_selector(".stale")
    assert "another tab" in second.locator(".stale").inner_text()
    second.get_by_role("button", name="Load the other version").click()
    assert second.locator(".stale").count() == 0
    assert second.locator("[data-testid=status]").inner_text() == page.locator("[data-testid=status]").inner_text()
    # Both tabs move on again; the second keeps its own version as a copy.
    page.locator("[data-testid=curtain] button").click()
    page.locator("[data-testid=hand] .card.playable").first.tap()
    second.wait_for_selector(".stale")
    second.get_by_role("button", name="Keep mine as a copy").click()
    assert "(this tab)" in second.locator(".session-name").inner_text()
    assert len(second.evaluate("Object.keys(localStorage).filter(k => k.startsWith('ct:v1:slot:'))")) == 2


def test_full_storage_is_reported_and_the_previous_save_stays(page, base_url):
    start_example(page, base_url)
    slot = page.evaluate("localStorage.getItem('ct:v1:last:conflict')")
    saved = page.evaluate(f"localStorage.getItem('ct:v1:slot:{slot}')")
    page.evaluate("""() => {
        const real = Storage.prototype.setItem;
        Storage.prototype.setItem = function (key, value) {
            if (key.startsWith('ct:v1:slot:')) throw new DOMException('full', 'QuotaExceededError');
            return real.call(this, key, value);
        };
    }""")
    page.locator("[data-testid=curtain] button").click()
    page.get_by_role("button", name="Keep all cards").click()
    assert "full" in page.locator(".toast.error").inner_text().lower()
    assert page.evaluate(f"localStorage.getItem('ct:v1:slot:{slot}')") == saved


def test_rule_ids_open_the_rules_panel_and_keys_undo(page, base_url):
    start_example(page, base_url, deck="table")
    page.locator("[data-testid=picker] [data-card='10S']").tap()
    page.locator("[data-testid=refusal] .rule-ref").click()
    clause = page.locator("#rule-OIC-5")
    clause.wait_for(state="visible")
    assert "flash" in clause.get_attribute("class")
    assert page.locator("#rules-conflict").get_attribute("open") is not None
    # Keyboard: Ctrl+Z undoes a played card, Ctrl+Shift+Z redoes it.
    page.locator("[data-testid=picker] [data-card='9S']").tap()
    page.locator("body").click(position={"x": 5, "y": 300})
    page.keyboard.press("Control+z")
    assert page.locator("[data-testid=current-card] [data-card]").count() == 0
    page.keyboard.press("Control+Shift+z")
    assert page.locator("[data-testid=current-card] [data-card]").get_attribute("data-card") == "9S"


def test_home_offers_the_saved_games(page, base_url):
    start_example(page, base_url)
    page.goto(base_url + "#/")
    link = page.locator("#app-home .resume-link")
    assert link.count() == 1
    assert "Purple Dragon League vs Zombie invasion" in link.inner_text()
    link.click()
    page.wait_for_selector("[data-testid=table]")
    assert "Purple Dragon League vs Zombie invasion" in page.locator(".session-name").inner_text()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_accessibility_of_the_table_screens(new_device, base_url, theme):
    from .test_shell import axe_serious

    context = new_device(bypass_csp=True, viewport=TABLET_PORTRAIT, has_touch=True, color_scheme=theme)
    page = context.new_page()
    try:
        open_app(page, base_url + "#/conflict")
        found = {"setup-blank": axe_serious(page)}
        page.get_by_role("button", name="Load the Purple Dragon League example").click()
        found["setup-example"] = axe_serious(page)
        page.get_by_role("button", name="Start the conflict").click()
        found["curtain"] = axe_serious(page)
        page.locator("[data-testid=curtain] button").click()
        found["discard"] = axe_serious(page)
        page.get_by_role("button", name="Keep all cards").click()
        page.locator("[data-testid=curtain] button").click()
        page.get_by_role("button", name="Keep all cards").click()
        page.locator("[data-testid=curtain] button").click()
        found["hand"] = axe_serious(page)
        page.get_by_role("button", name="Pass — end the round").click()
        found["confirm-pass"] = axe_serious(page)  # the zombies could play: the app asks first
        page.get_by_role("button", name="End the round").click()
        found["result"] = axe_serious(page)
        for drawer in ("History", "Saves", "Share"):
            page.get_by_role("button", name=drawer).click()
            found[drawer] = axe_serious(page)
    finally:
        context.close()
    assert all(v == [] for v in found.values()), json.dumps(found, indent=1)


def test_setup_updates_live_and_teams_get_their_hand_sizes(page, base_url):
    open_app(page, base_url + "#/conflict")
    page.get_by_role("button", name="Load the Purple Dragon League example").click()
    power = page.locator("[data-field='setup:sides.0.players.0.organizations.3.power']")
    power.fill("12")
    power.dispatch_event("change")
    assert "hearts 12 − 5 at home ground = 7" in page.get_by_label("Max card sizes of Player 1").inner_text()
    # An impossible power is explained and blocks the start, and loses nothing else.
    power.fill("1000")
    power.dispatch_event("change")
    assert power.get_attribute("aria-invalid") == "true"
    assert page.get_by_role("button", name="Start the conflict").is_disabled()
    assert "power" in page.locator(".setup .msg-error").inner_text().lower()
    power.fill("9")
    power.dispatch_event("change")
    # OIC-14: a second player on the League: 8 cards each, and the advice past 5 players.
    page.locator("[data-action='conflict:add-player'][data-arg='0']").click()
    assert "OIC-14: 2 players, 8 cards each" in page.locator(".side-editor.side-a").inner_text()
    for _ in range(4):
        page.locator("[data-action='conflict:add-player'][data-arg='0']").click()
    assert "More than 5 players on a side gives no advantage" in page.locator(".warn-list").inner_text()
    for _ in range(4):
        page.locator(".side-editor.side-a [data-action='conflict:remove-player']").last.click()
    page.locator("[data-field=seed]").fill("3")
    page.get_by_role("button", name="Start the conflict").click()
    # The zombies (one player) discard first, then each League player on their own.
    page.locator("[data-testid=curtain] button").click()
    assert "15 cards" in page.locator("[data-testid=hand] h3").inner_text()
    page.get_by_role("button", name="Keep all cards").click()
    for _ in range(2):
        page.locator("[data-testid=curtain] button").click()
        assert "8 cards" in page.locator("[data-testid=hand] h3").inner_text()
        page.get_by_role("button", name="Keep all cards").click()
    # The zombies open; then the League's turn shows both players' hands (one team turn).
    page.locator("[data-testid=curtain] button").click()
    page.locator("[data-testid=hand] .card.playable").first.tap()
    page.locator("[data-testid=curtain] button").click()
    assert page.locator("[data-testid=hand] .hand").count() == 2


def test_drag_and_drop_import(page, base_url):
    start_example(page, base_url)
    text = page.evaluate("localStorage.getItem('ct:v1:slot:' + localStorage.getItem('ct:v1:last:conflict'))")
    transfer = page.evaluate_handle("""(text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'game.json', {type: 'application/json'}));
        return dt;
    }""", text)
    page.dispatch_event("main", "drop", {"dataTransfer": transfer})
    page.wait_for_selector(".toast:has-text('Imported')")
    assert len(page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('ct:v1:slot:'))")) == 2


def test_a_mangled_setup_draft_gives_a_fresh_form(page, base_url):
    open_app(page, base_url + "#/conflict")
    page.evaluate("localStorage.setItem('ct:v1:draft:conflict', JSON.stringify({setup: {sides: [1, {players: 'x'}]}}))")
    page.reload()
    page.wait_for_selector(READY, state="attached")
    assert page.locator("[data-testid=setup] .side-editor").count() == 2
    assert page.locator(".error-box").count() == 0


def test_without_browser_storage_the_table_still_plays(new_device, base_url):
    context = new_device(viewport=TABLET_LANDSCAPE, has_touch=True)
    context.add_init_script("""Object.defineProperty(window, 'localStorage', {
        get() { throw new DOMException('The operation is insecure.', 'SecurityError'); }
    });""")
    page = context.new_page()
    try:
        open_app(page, base_url + "#/conflict")
        assert "does not let the app keep data" in page.locator(".toast.error").inner_text()
        page.get_by_role("button", name="Load the Purple Dragon League example").click()
        page.get_by_role("button", name="Start the conflict").click()
        keep_all(page)
        assert "Zombie invasion opens" in page.locator("[data-testid=status]").inner_text()
    finally:
        context.close()


def test_oic_17_the_conflict_ends_and_names_the_winner(page, base_url):
    """The Mice (hearts 6) lose 1 in hearts and can no longer be engaged: the Lions win."""
    setup = {
        "sides": [
            {"name": "Lions", "scope": "home", "players": [{"name": "Leo", "organizations": [
                {"name": "Pride", "power": 20, "suit": "S"}, {"name": "Roar", "power": 20, "suit": "H"}]}]},
            {"name": "Mice", "scope": "home", "players": [{"name": "Mo", "organizations": [
                {"name": "Nest", "power": 6, "suit": "H"}]}]},
        ],
        "scope": "home", "aggressor": 1, "deck": "table",
    }
    link = codec.encode_share(new_game("conflict", setup, seed=1))
    open_app(page, f"{base_url}#/conflict?g={link}")
    picker = "[data-testid=picker]"
    page.locator(f"{picker} [data-card='JS']").tap()  # the Mice open: a face card is always usable
    page.locator(f"{picker} [data-card='2H']").tap()  # hearts trump spades
    page.get_by_role("button", name="Pass — end the round").tap()
    message = page.locator("[data-testid=end-message]").inner_text()
    assert "OIC-17" in message and "Mice can no longer be engaged" in message and "Lions wins" in message
    assert page.locator("[data-testid=rating-1-H]").inner_text() == "5"
    page.get_by_role("button", name="New conflict with these sides").tap()
    assert page.locator("[data-field='setup:sides.1.name']").input_value() == "Mice"
    assert page.locator("[data-field='setup:sides.1.players.0.organizations.0.power']").input_value() == "6"


def test_variants_teams_and_discard_helpers_as_a_group_would_use_them(page, base_url):
    """OIC-12 variant circle, OIC-14 team chooser in table-deck mode, and the discard helper."""
    open_app(page, base_url + "#/conflict")
    page.get_by_role("button", name="Load the Purple Dragon League example").click()
    page.locator("[data-field='rules:trump_circle']").select_option("introduction")
    page.locator("[data-action='conflict:add-player'][data-arg='0']").click()  # the League is a team of 2
    page.get_by_label(re.compile("Table deck")).check()
    page.get_by_role("button", name="Start the conflict").click()
    page.locator(".rules-in-play summary").click()
    assert "introduction" in page.locator(".rules-in-play").inner_text()
    page.locator("[data-testid=picker] [data-card='9S']").tap()
    # Introduction circle: diamonds trump spades. Player 2 of the League has only a blank
    # spades organization, so Player 1 (with the diamonds) plays.
    chooser = page.get_by_role("radiogroup", name="Who plays")
    chooser.get_by_role("radio", name="Player 1").tap()
    page.locator("[data-testid=picker] [data-card='2D']").tap()
    assert page.locator("[data-testid=current-card] [data-card]").get_attribute("data-card") == "2D"


def test_discard_helper_selects_exactly_the_unusable_cards(page, base_url):
    start_example(page, base_url)
    page.locator("[data-testid=curtain] button").click()
    unusable = page.locator("[data-testid=hand] .card.unusable").count()
    page.get_by_role("button", name="Select unusable cards").click()
    assert page.locator("[data-testid=hand] .card.selected").count() == unusable
    label = f"Discard {unusable} and draw {unusable}" if unusable else "Keep all cards"
    page.get_by_role("button", name=label).click()
    assert page.locator("[data-testid=curtain]").count() == 1  # the next player's turn to discard


def test_deleting_the_open_game_can_be_undone(page, base_url):
    start_example(page, base_url)
    keep_all(page)
    status = page.locator("[data-testid=status]").inner_text()
    panel = saves_panel(page)
    panel.get_by_role("button", name=re.compile("^Delete")).click()
    assert page.locator("[data-testid=setup]").count() == 1
    page.locator(".toast").get_by_role("button", name="Undo").click()
    assert page.locator("[data-testid=status]").inner_text() == status


def test_theme_toggle_is_remembered(page, base_url):
    open_app(page, base_url)
    page.emulate_media(color_scheme="light")
    page.locator("#theme-toggle").click()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    page.reload()
    page.wait_for_selector(READY, state="attached")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    page.locator("#theme-toggle").click()
    assert page.evaluate("getComputedStyle(document.documentElement).backgroundColor") != background


def test_a_game_that_could_not_be_saved_is_not_dropped(page, base_url):
    open_app(page, base_url + "#/conflict")
    page.evaluate("""() => {
        const real = Storage.prototype.setItem;
        window.storageFull = true;
        Storage.prototype.setItem = function (key, value) {
            if (window.storageFull && key.startsWith('ct:v1:slot:'))
                throw new DOMException('full', 'QuotaExceededError');
            return real.call(this, key, value);
        };
    }""")
    page.get_by_role("button", name="Load the Purple Dragon League example").click()
    page.get_by_role("button", name="Start the conflict").click()
    assert "full" in page.locator(".toast.error").inner_text().lower()
    assert "not saved" in page.locator(".session-name").inner_text()
    panel = saves_panel(page)
    panel.get_by_role("button", name="New game").click()  # refused: it would drop the game
    assert page.locator("[data-testid=table]").count() == 1
    page.evaluate("window.storageFull = false")
    panel.get_by_role("button", name="Save this game").click()
    assert page.locator(".session-name").inner_text() == "Purple Dragon League vs Zombie invasion"  # saved now
    assert len(page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('ct:v1:slot:'))")) == 1


def test_issue_34_pass_button_safe_badge_and_the_refusal_keeps_the_hand_in_sight(page, base_url):
    """OIC-13: a side may pass when it cannot or will not play: "Pass — end the round".
    The home-ground safe badge cites OIC-4 (OIC-3 only points to it). At 1024×768 a refused
    card's banner leaves every card of the hand in sight, none under the sticky controls."""
    page.set_viewport_size({"width": 1024, "height": 768})
    start_example(page, base_url)
    keep_all(page)
    page.locator("[data-testid=curtain] button").click()
    assert page.get_by_role("button", name="Pass — end the round").count() == 1
    assert page.get_by_text("Cannot play — end the round").count() == 0
    badges = page.locator(".panel.side .badge", has_text="safe (")
    if badges.count():
        assert set(badges.all_inner_texts()) == {"safe (OIC-4)"}
    blocked = page.locator("[data-testid=hand] .card.blocked")
    blocked.first.tap()
    page.wait_for_selector("[data-testid=refusal]")
    page.wait_for_timeout(300)
    assert_on_screen(page, page.locator("[data-testid=hand] .card"), page.locator("[data-testid=refusal]"))
