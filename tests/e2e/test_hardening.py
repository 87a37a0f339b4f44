"""Issue 7: one test per defect class found on tablets (each failed before its fix)."""

from __future__ import annotations

import re

import pytest

from engine import codec, conflict
from engine.game import new_game

from .conftest import READY, open_app
from .tablet import (TABLET_SIZES, assert_app_ok, assert_no_traceback, assert_on_screen, double_tap,
                     edit_then_tap, safari_tap, size_id)
from .test_conflict import keep_all, start_example


def reveal(page):
    page.locator("[data-testid=curtain] button").click()  # waits while the curtain ignores taps
    page.wait_for_selector("[data-testid=hand]")


# ---------------------------------------------------------------- defect 1
@pytest.mark.parametrize("button", ["Start the conflict", "Saves", "Remove player"])
def test_defect_1_a_button_tapped_while_a_field_has_focus_never_breaks_the_screen(page, base_url, button):
    open_app(page, base_url + "#/conflict")
    page.get_by_role("button", name="Load the Purple Dragon League example").click()
    page.locator("[data-action='conflict:add-player'][data-arg='1']").click()
    fields = {"Start the conflict": page.locator(".side-a .side-name input"),
              "Saves": page.locator("[data-field=seed]"),
              "Remove player": page.locator(".side-b .player-block").nth(1).locator(".player-name input")}
    target = page.get_by_role("button", name=button).last
    edit_then_tap(fields[button], "42" if button == "Saves" else "Edited name", target)
    assert_app_ok(page)
    if button == "Start the conflict":
        assert page.locator("[data-testid=side-0] .side-title").inner_text() == "Edited name"
    elif button == "Saves":
        assert page.get_by_label("Saved games").count() == 1
        assert page.locator("[data-field=seed]").input_value() == "42"
    else:
        assert page.locator(".side-b .player-block").count() == 1


# ---------------------------------------------------------------- defect 2
def org_names(page, side: str = "side-a") -> list[str]:
    rows = page.locator(f".{side} .org-row")
    return [rows.nth(i).locator("input").first.input_value() for i in range(rows.count())]


def test_defect_2_an_edited_row_removed_by_its_own_button_takes_nothing_else_with_it(page, base_url):
    open_app(page, base_url + "#/conflict")
    page.get_by_role("button", name="Load the Purple Dragon League example").click()
    row = page.locator(".side-a .org-row").nth(1)
    name = row.locator("input").first
    assert name.input_value() == "fire department"
    name.click()
    name.press("End")
    name.type(" HQ")
    safari_tap(row.locator("button.remove"))
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    assert_app_ok(page)
    expected = ["Warriors of Ki", "Little Leaguers", "Tony's Pizza Delivery"]
    assert org_names(page) == expected
    leaguers = page.locator(".side-a .org-row").nth(1)
    assert leaguers.locator("input[type=number]").input_value() == "12"
    assert leaguers.locator("select").input_value() == "D"
    page.reload()
    page.wait_for_selector(READY, state="attached")
    assert org_names(page) == expected
    # Typing into a row, then removing the row above it, keeps the typed text on its row.
    tony = page.locator(".side-a .org-row").nth(2).locator("input").first
    tony.fill("Tony's Pizza")
    safari_tap(page.locator(".side-a .org-row").nth(0).locator("button.remove"))
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    assert org_names(page) == ["Little Leaguers", "Tony's Pizza"]


# ---------------------------------------------------------------- defect 3
def test_defect_3_a_double_tap_on_a_card_never_reveals_the_next_hand(page, base_url):
    start_example(page, base_url, seed="11")
    keep_all(page)
    league_turns = 0
    for _ in range(12):
        reveal(page)
        status = page.locator("[data-testid=status]").inner_text()
        playable = page.locator("[data-testid=hand] .card.playable")
        assert playable.count(), "seed 11: both sides can play on the League's second turn"
        if "League" in status:
            league_turns += 1
            if league_turns == 2:
                break
        playable.first.tap()
    first_row = page.locator("[data-testid=hand] .suit-row").first
    cards = page.locator("[data-testid=hand] .card")
    boxes = [cards.nth(i).bounding_box() for i in range(cards.count())]
    target = first_row.locator(".card.playable").first if first_row.locator(".card.playable").count() \
        else page.locator("[data-testid=hand] .card.playable").first
    double_tap(page, target)
    assert page.locator("[data-testid=hand]").count() == 0, "the second tap showed the next side's hand"
    assert page.locator("[data-testid=curtain]").count() == 1
    # The curtain's button is away from where the cards were.
    button = page.locator("[data-testid=curtain] button").bounding_box()

    def overlap(a, b):
        return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                    or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])

    assert not any(overlap(button, box) for box in boxes)
    # After the short pause the owner's tap opens it.
    reveal(page)
    assert "Zombie" in page.locator("[data-testid=hand] h3").first.inner_text()
    # However fast the second tap comes, a tap on the new curtain's button right after
    # it appeared is ignored (both taps in one task: no time passes between them).
    second = page.evaluate("""() => {
        document.querySelector('[data-testid=hand] .card.playable').click();
        const button = document.querySelector('[data-testid=curtain] button');
        button.firstChild ? button.firstChild.parentElement.click() : button.click();
        return button.textContent;
    }""")
    assert second.startswith("Show ")
    assert page.locator("[data-testid=hand]").count() == 0, "a tap right after the curtain appeared opened it"


# ---------------------------------------------------------------- defect 4
def test_defect_4_the_play_area_is_on_screen_at_every_tablet_size(page, base_url):
    from .test_tablet import game_link

    links = {"discard": game_link("discard"), "play": game_link("hand")}
    open_app(page, base_url + "#/conflict")
    problems = []
    for size in TABLET_SIZES:
        page.set_viewport_size(size)
        for step in ("discard", "play-open", "play-answer"):
            if step in ("discard", "play-open"):  # a hash change opens the game: no reload
                page.goto(f"{base_url}#/conflict?g={links['discard' if step == 'discard' else 'play']}")
                page.wait_for_selector("[data-testid=curtain]")
            else:
                page.locator("[data-testid=hand] .card.playable").first.tap()
            reveal(page)
            controls = [page.get_by_role("button", name="Keep all cards"),
                        page.get_by_role("button", name="Select unusable cards")] if step == "discard" else \
                [page.get_by_role("button", name="Cannot play — end the round"),
                 page.get_by_role("button", name="Hide hand")]
            cards = page.locator("[data-testid=hand] .card") if step == "discard" else \
                page.locator("[data-testid=hand] .card.playable")
            try:
                assert_on_screen(page, page.locator("[data-testid=status]"),
                                 page.locator("[data-testid=current-card] .card"),
                                 cards, *controls)
                assert_on_screen(page, page.locator("header.bar"), uncovered=False)  # toasts may sit on it
            except AssertionError as err:
                problems.append(f"{size_id(size)} {step}: {err}")
        # The top bar stays at the top when the page scrolls.
        page.evaluate("window.scrollTo(0, 400)")
        if page.locator("header.bar").bounding_box()["y"] != 0:
            problems.append(f"{size_id(size)}: the top bar scrolled away")
        page.evaluate("window.scrollTo(0, 0)")
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- defect 5
def test_defect_5_long_names_wrap_and_default_player_names_are_unique(page, base_url):
    page.set_viewport_size(TABLET_SIZES[0])
    open_app(page, base_url + "#/conflict")
    page.get_by_role("button", name="+ Player").nth(1).click()
    names = page.locator(".player-name input")
    values = [names.nth(i).input_value() for i in range(names.count())]
    assert len(values) == 3 and len(set(values)) == 3, values
    setup = conflict.purple_dragon_setup()
    long = "W" * 60
    setup["sides"][1]["name"] = long
    link = codec.encode_share(new_game("conflict", setup, seed=7))
    page.goto(f"{base_url}#/conflict?g={link}")
    page.wait_for_selector("[data-testid=curtain]")
    width = page.evaluate("document.documentElement.clientWidth")
    for selector in ("[data-testid=side-1] .side-title", "[data-testid=curtain] .curtain-text",
                     "[data-testid=curtain] button", "[data-testid=status]"):
        box = page.locator(selector).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, selector
        assert page.locator(selector).evaluate("e => e.scrollWidth <= e.clientWidth + 1"), selector
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


CONTRAST = """(el) => {
    const rgb = c => { const m = c.match(/[\\d.]+/g).map(Number); return {r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1}; };
    const lum = ({r, g, b}) => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
    let bg = null, n = el;
    while (n && n.nodeType === 1) {
        const cs = getComputedStyle(n);
        if (cs.backgroundImage.includes('gradient')) {  // striped: the darker stripe
            const stops = cs.backgroundImage.match(/rgba?\\([^)]*\\)/g).map(rgb);
            bg = stops.sort((a, b) => lum(a) - lum(b))[0]; break;
        }
        const c = rgb(cs.backgroundColor);
        if (c.a > 0.5) { bg = c; break; }
        n = n.parentElement;
    }
    bg = bg || rgb(getComputedStyle(document.documentElement).backgroundColor);
    const fg = rgb(getComputedStyle(el).color);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    return (hi + 0.05) / (lo + 0.05);
}"""


def test_defect_5_red_suits_have_enough_contrast_in_the_dark_theme(browser, base_url):
    context = browser.new_context(viewport=TABLET_SIZES[1], has_touch=True, color_scheme="dark")
    page = context.new_page()
    try:
        start_example(page, base_url)
        reveal(page)
        text_marks = page.locator(".suit-mark.red, [data-testid=hand] .card.red .card-corner")
        pips = page.locator("[data-testid=hand] .card.red .card-centre")
        assert text_marks.count() and pips.count()
        low_text = [round(r, 2) for r in text_marks.evaluate_all(f"els => els.map({CONTRAST})") if r < 4.5]
        low_pips = [round(r, 2) for r in pips.evaluate_all(f"els => els.map({CONTRAST})") if r < 3]
        assert low_text == [] and low_pips == [], (low_text, low_pips)
    finally:
        context.close()


def test_defect_5_cannot_play_asks_first_when_cards_could_be_played(page, base_url):
    start_example(page, base_url)
    keep_all(page)
    reveal(page)
    playable = page.locator("[data-testid=hand] .card.playable").count()
    assert playable > 0
    page.get_by_role("button", name="Cannot play — end the round").tap()
    confirm = page.locator("[data-testid=confirm-pass]")
    assert f"{playable} card" in confirm.inner_text()
    assert page.locator("[data-testid=result]").count() == 0
    confirm.get_by_role("button", name="Keep playing").tap()
    assert page.locator("[data-testid=confirm-pass]").count() == 0
    page.get_by_role("button", name="Cannot play — end the round").tap()
    page.locator("[data-testid=confirm-pass]").get_by_role("button", name="End the round").tap()
    assert page.locator("[data-testid=result]").count() == 1


def test_defect_5_a_revealed_hand_is_hidden_after_leaving_the_route(page, base_url):
    start_example(page, base_url)
    reveal(page)
    page.goto(base_url + "#/")
    page.goto(base_url + "#/conflict")
    assert page.locator("[data-testid=hand]").count() == 0
    assert page.locator("[data-testid=curtain]").count() == 1


# ---------------------------------------------------------------- never a traceback
def test_an_unexpected_error_shows_the_apps_message_keeps_the_data_and_copies_details(page, base_url):
    start_example(page, base_url)
    keep_all(page)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    slot = page.evaluate("localStorage.getItem('ct:v1:last:conflict')")
    saved = page.evaluate(f"localStorage.getItem('ct:v1:slot:{slot}')")
    status = page.locator("[data-testid=status]").inner_text()
    # A failure while drawing: the Saves drawer formats dates, and that now throws.
    page.evaluate("() => { window.realToLocale = Date.prototype.toLocaleString; "
                  "Date.prototype.toLocaleString = () => { throw new Error('injected failure'); }; }")
    page.get_by_role("button", name="Saves").click()
    assert_no_traceback(page)
    message = page.locator("[data-testid=app-error]")
    assert "Your games are safe" in message.inner_text()
    message.get_by_role("button", name="Copy details").click()
    details = page.evaluate("navigator.clipboard.readText()")
    assert "Traceback" in details and "injected failure" in details and "#/conflict?g=" in details
    assert page.evaluate(f"localStorage.getItem('ct:v1:slot:{slot}')") == saved
    page.evaluate("() => { Date.prototype.toLocaleString = window.realToLocale; }")
    message.get_by_role("button", name="Try again").click()
    assert page.locator("[data-testid=status]").inner_text() == status
    # A failure inside a tap: the clipboard throws.
    page.evaluate("() => { navigator.clipboard.writeText = () => { throw new Error('injected clipboard failure'); }; }")
    page.get_by_role("button", name="Share").click()
    page.locator(".share-block").first.get_by_role("button", name="Copy link").click()
    assert_no_traceback(page)
    toast = page.locator(".toast.error")
    assert re.search("went wrong", toast.inner_text(), re.I)
    assert toast.get_by_role("button", name="Copy details").count() == 1
    assert page.locator("[data-testid=status]").inner_text() == status
