"""Issue 7: one test per defect class found on tablets (each failed before its fix)."""

from __future__ import annotations

import re

import pytest

from engine import codec, conflict
from engine.game import new_game

from .conftest import READY, open_app
from .tablet import (
    TABLET_SIZES,
    assert_app_ok,
    assert_no_traceback,
    assert_on_screen,
    double_tap,
    edit_then_tap,
    safari_tap,
    size_id,
)
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
                [page.get_by_role("button", name="Pass — end the round"),
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


def test_defect_5_red_suits_have_enough_contrast_in_the_dark_theme(new_device, base_url):
    context = new_device(viewport=TABLET_SIZES[1], has_touch=True, color_scheme="dark")
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
    page.get_by_role("button", name="Pass — end the round").tap()
    confirm = page.locator("[data-testid=confirm-pass]")
    assert f"{playable} card" in confirm.inner_text()
    assert page.locator("[data-testid=result]").count() == 0
    confirm.get_by_role("button", name="Keep playing").tap()
    assert page.locator("[data-testid=confirm-pass]").count() == 0
    page.get_by_role("button", name="Pass — end the round").tap()
    page.locator("[data-testid=confirm-pass]").get_by_role("button", name="End the round").tap()
    assert page.locator("[data-testid=result]").count() == 1


def test_defect_5_a_revealed_hand_is_hidden_after_leaving_the_route(page, base_url):
    start_example(page, base_url)
    reveal(page)
    page.goto(base_url + "#/")
    page.wait_for_selector("section.route[data-route='home']", state="visible")  # the app has left the table
    page.goto(base_url + "#/conflict")
    page.wait_for_selector("[data-testid=curtain]")
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


# ---------------------------------------------------------------- issues 20, 21, 22: the shared web layer
from engine import ascension, campaign  # noqa: E402
from engine import game as games  # noqa: E402
from tests.engine.test_consim import two_sides  # noqa: E402
from tests.web.test_session import impossible_links, unknown_field_link  # noqa: E402

STORAGE = "() => JSON.stringify(Object.fromEntries(Object.keys(localStorage).sort().map(k => [k, localStorage.getItem(k)])))"
TOOLBAR = ("↶ Undo", "↷ Redo", "History", "Saves", "Share")


def initiative_link(seed: int = 5) -> str:
    return codec.encode_share(games.new_game("initiative", two_sides(), None, seed))


def open_link(page, base_url, route, payload, wait="[data-testid=table], [data-testid=deal-panel], .session-bar"):
    page.goto(f"{base_url}#/{route}?g={payload}")
    page.wait_for_selector(READY, state="attached")
    page.wait_for_selector(wait)


@pytest.mark.parametrize("size", TABLET_SIZES, ids=[size_id(s) for s in TABLET_SIZES])
def test_stacked_toasts_never_cover_the_toolbar(page, base_url, size):
    """Issue 22, 14: several toasts at once (an info toast and errors that stay) sit over the
    navigation bar, never over Undo, Redo, History, Saves, Share or Rules."""
    page.set_viewport_size(size)
    open_app(page, base_url)
    open_link(page, base_url, "initiative", initiative_link())
    for payload in ("2AAAA", impossible_links()[2][1]):  # two refusals (errors stay until dismissed)
        page.goto(f"{base_url}#/initiative?g={payload}")
        page.wait_for_function("n => document.querySelectorAll('.toast').length >= n", arg=2 if payload == "2AAAA" else 3)
    page.evaluate("scrollTo(0, 0)")
    assert page.locator(".toast").count() == 3
    route = page.locator("section[data-route=initiative]")
    controls = [route.get_by_role("button", name=name, exact=True) for name in TOOLBAR]
    controls.append(route.locator(".tool-head [data-open-rules]"))
    assert_on_screen(page, *controls, uncovered=True, ignore=None)
    # The newest toast is readable on top; each toast stays within the top of the screen.
    newest = page.locator(".toast").last
    assert "CS-5" in newest.inner_text()
    toolbar_top = page.locator("section[data-route=initiative] .tool-head").bounding_box()["y"]
    for box in page.locator(".toast").evaluate_all("els => els.map(e => e.getBoundingClientRect().bottom)"):
        assert box <= toolbar_top, f"a toast reaches {box} px, the toolbar starts at {toolbar_top} px"
    # A long one opens on request (covering is then the player's choice) and closes again.
    newest.get_by_role("button", name="More").click()
    assert page.locator(".toast.open").count() == 1
    page.locator(".toast.open").get_by_role("button", name="Less").click()
    assert_on_screen(page, *controls, uncovered=True, ignore=None)
    assert_app_ok(page)


TAPS = """([first, second]) => {
    // Two taps in one task: the first at the centre of ``first``, the second at ``second``
    // (a selector, or null: the same spot, on whatever the first tap left there).
    const centre = el => { const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
    // A finger: pointerdown (pointerType touch), then the click, as a tablet sends them.
    const click = ([x, y]) => { const el = document.elementFromPoint(x, y);
        el.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true, pointerType: 'touch', isPrimary: true,
                                                          clientX: x, clientY: y}));
        el.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, view: window, detail: 1,
                                                  clientX: x, clientY: y}));
        return (el.closest('button') || el).textContent.trim(); };
    const at = centre(document.querySelector(first));
    const hit = [click(at)];
    hit.push(click(second ? centre(document.querySelector(second)) : at));
    return hit;
}"""


def saved_actions(page, kind):
    raw = page.evaluate(f"""() => Object.keys(localStorage).filter(k => k.startsWith('ct:v1:slot:{kind}-'))
                              .map(k => localStorage.getItem(k))""")
    assert len(raw) == 1
    return codec.loads(raw[0])[0].actions


def test_next_tapped_right_after_deal_is_taken_and_a_double_tap_is_refused_and_said(page, base_url):
    """Issue 22, 15: "Next ▸" tapped at once after "Deal" (both in one task, a few ms apart)
    is taken; a second tap at the same spot as the first Next is refused, and said."""
    page.set_viewport_size(TABLET_SIZES[0])
    open_app(page, base_url)
    open_link(page, base_url, "initiative", initiative_link(), "[data-testid=deal-panel]")
    page.evaluate("scrollTo(0, 0)")
    hits = page.evaluate(TAPS, ["[data-action='init:deal']", "[data-action='init:next']"])
    assert hits == ["Deal", "Next ▸"]
    assert [a["type"] for a in saved_actions(page, "initiative")] == ["deal", "next"]
    assert page.locator(".toast", has_text="Not taken").count() == 0
    # A double tap on Next: the second tap would go on a step further. Refused and said.
    page.wait_for_timeout(600)  # the Observer looks at the order before tapping on (not a timing check)
    hits = page.evaluate(TAPS, ["[data-action='init:next']", None])
    assert hits == ["Next ▸", "Next ▸"]
    assert [a["type"] for a in saved_actions(page, "initiative")] == ["deal", "next", "next"]
    refusal = page.locator("#toasts[aria-live=polite] .toast", has_text="Not taken")
    refusal.wait_for()
    assert "a second tap on “Next ▸”" in refusal.inner_text()
    assert_app_ok(page)


@pytest.mark.parametrize("kind,payload,clause", impossible_links(), ids=[k for k, _, _ in impossible_links()])
def test_a_link_with_an_impossible_action_is_refused_with_its_clause_and_nothing_is_saved(page, base_url, kind,
                                                                                          payload, clause):
    """Issue 20, 5: well formed but impossible (a card not in the hand, spoils before a battle,
    Next before a deal, a roll before both bids): the clause is said, storage is unchanged."""
    text = refusal_of_link(page, base_url, kind, payload)
    assert f"this game breaks {clause}: " in text and "Nothing was saved" in text


def refusal_of_link(page, base_url, kind, payload) -> str:
    """The error a link refused on a tablet that holds a game says; storage stays as it was
    and no new save is made."""
    open_app(page, base_url)
    open_link(page, base_url, "campaign", codec.encode_share(games.new_game("campaign", {"players": ["A", "B"]})))
    before = page.evaluate(STORAGE)
    opened = page.locator(".toast", has_text="as a new save").count()
    page.goto(f"{base_url}#/{kind}?g={payload}")
    toast = page.locator(".toast.error")
    toast.wait_for()
    text = toast.inner_text()
    assert page.evaluate(STORAGE) == before
    assert page.locator(".toast", has_text="as a new save").count() <= opened
    assert_app_ok(page)
    return text


def test_a_link_with_900000_characters_in_an_unknown_field_fills_nothing(page, base_url):
    """Issue 20, 6: the engine refuses unknown fields, so five opens store nothing and each says
    only that the link could not be opened (never also "Opened … as a new save")."""
    open_app(page, base_url)
    before = page.evaluate(STORAGE)
    payload = unknown_field_link("campaign", {"players": ["Anna", "Ben"]}, "setup")
    for n in range(5):
        page.goto(f"{base_url}#/campaign?g={payload}&n={n}")
        toast = page.locator(".toast.error")
        toast.wait_for()
        texts = page.locator(".toast").all_inner_texts()
        assert len(texts) == 1 and "could not be opened" in texts[0] and "unknown field" in texts[0], texts
        toast.get_by_role("button", name="Dismiss").click()
        assert page.evaluate(STORAGE) == before
    assert_app_ok(page)


def battle_save(page, base_url) -> str:
    game = games.new_game("battle", ascension.example_setup(), None, 5)
    open_link(page, base_url, "battle", codec.encode_share(game))
    return page.evaluate("localStorage.getItem('ct:v1:last:battle')")


def test_a_slot_of_another_table_opens_on_its_own_table_open_app_and_fresh_load(page, base_url):
    """Issue 20, 6: #/campaign?slot=<a battle save> showed the error box (open app) and never
    became ready (fresh load). It opens the battle on the battle table."""
    open_app(page, base_url)
    slot = battle_save(page, base_url)
    page.goto(f"{base_url}#/")
    page.goto(f"{base_url}#/campaign?slot={slot}")
    page.wait_for_function("location.hash === '#/battle'")
    page.wait_for_selector("section[data-route=battle]:not([hidden]) .session-bar")
    assert page.locator("[data-testid=app-error]").count() == 0
    assert_app_ok(page)
    fresh = page.context.new_page()
    fresh.goto(f"{base_url}#/campaign?slot={slot}")
    fresh.wait_for_selector(READY, state="attached", timeout=90_000)
    fresh.wait_for_function("location.hash === '#/battle'")
    fresh.wait_for_selector("section[data-route=battle]:not([hidden]) .session-bar")
    assert_app_ok(fresh)
    fresh.close()


def test_kept_copies_of_a_damaged_save_can_be_seen_exported_and_deleted(page, base_url, tmp_path):
    """Issue 20, 6: "A copy was kept" — and the Saves drawer reaches it."""
    open_app(page, base_url)
    open_link(page, base_url, "campaign", codec.encode_share(games.new_game("campaign", {"players": ["Anna", "Ben"]})))
    slot = page.evaluate("localStorage.getItem('ct:v1:last:campaign')")
    damaged = page.evaluate(f"""() => {{ const k = 'ct:v1:slot:{slot}';
        const t = localStorage.getItem(k).slice(0, -25) + '###'; localStorage.setItem(k, t); return t; }}""")
    page.reload()
    page.wait_for_selector(READY, state="attached")
    page.locator(".toast.error", has_text="A copy was kept").wait_for()
    page.get_by_role("button", name="Saves").click()
    kept = page.locator("[data-testid=backup]")
    assert kept.count() == 1
    kept.get_by_role("button", name="Show text").click()
    assert kept.locator("textarea").input_value() == damaged
    with page.expect_download() as info:
        kept.get_by_role("button", name=re.compile("^Export")).click()
    path = tmp_path / "copy.json"
    info.value.save_as(path)
    assert path.read_text() == damaged and info.value.suggested_filename.endswith(".json")
    kept.get_by_role("button", name=re.compile("^Delete")).click()
    assert page.locator("[data-testid=backup]").count() == 0
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('ct:v1:backup:')).length") == 0
    page.locator(".toast", has_text="Deleted the kept copy").get_by_role("button", name="Undo").click()
    assert page.locator("[data-testid=backup]").count() == 1
    assert_app_ok(page)


def test_spectator_copies_are_saved_and_listed_as_such_and_the_full_link_is_a_new_save(page, base_url):
    """Issue 21: a spectator copy's save says so (Saves drawer, Home, its name); the full link
    opened later is another save, and the copy stays a copy."""
    game = games.new_game("campaign", {"players": ["Anna", "Ben"]}, None, 5)
    game = games.apply(game, {"type": "battle", "winner": 0, "troops": 9})
    open_app(page, base_url)
    open_link(page, base_url, "campaign", codec.encode_share(campaign.public_game(game)))
    assert page.locator("[data-testid=spectator-banner]").count() == 1
    assert "(spectator copy)" in page.locator(".session-name").inner_text()
    open_link(page, base_url, "campaign", codec.encode_share(game))
    assert page.locator("[data-testid=spectator-banner]").count() == 0
    page.get_by_role("button", name="Saves").click()
    rows = page.locator(".save-row")
    assert rows.count() == 2
    copy = page.locator(".save-row.spectator")
    assert copy.count() == 1 and "Spectator copy" in copy.inner_text() and "(spectator copy)" in copy.inner_text()
    page.goto(f"{base_url}#/")
    home = page.locator("#app-home .resume-link")
    assert home.count() == 2
    assert page.locator("#app-home .resume-link", has_text="Spectator copy").count() == 1
    raw = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('ct:v1:slot:campaign-'))"
                        ".map(k => localStorage.getItem(k))")
    assert sorted(games.is_spectator(codec.loads(r)[0]) for r in raw) == [False, True]


def test_saves_of_one_name_say_where_each_game_stands(page, base_url):
    """Issue 22: three saves named alike are told apart (Saves drawer and Home): by the system's
    standing where it has one, by the point in the history until then."""
    open_app(page, base_url)
    for battles in (0, 1, 2):
        game = games.new_game("campaign", {"players": ["Jibril 3rd Corps", "Zone Army"]}, None, 5 + battles)
        for _ in range(battles):
            game = games.apply(game, {"type": "battle", "winner": None})
        open_link(page, base_url, "campaign", codec.encode_share(game))
    page.get_by_role("button", name="Saves").click()
    wheres = page.locator("[data-testid=save-where]").all_inner_texts()
    assert len(wheres) == 3 and len(set(wheres)) == 3, wheres
    page.goto(f"{base_url}#/")
    metas = page.locator("#app-home [data-testid=resume-meta]").all_inner_texts()
    assert len(metas) == 3 and len({m.rsplit(" · ", 1)[0] for m in metas}) == 3, metas


def forged_app_links():
    """Issue 35, 1: a battle link whose app general's last bid a sender changed (HR-AI-14) and a
    conflict link whose app side's card was changed (HR-OIC-4): legal moves, not the app's."""
    from engine import conflict as oic
    from tests.engine.test_app_moves import app_moves, battle_against_the_app, conflict_against_the_app, with_action

    battle = battle_against_the_app((None, "hard"), weeks=3)
    index = app_moves(battle)[-1]
    bid = dict(battle.actions[index])
    other = next(m for m in ascension.MANEUVERS if m not in (bid["maneuver"], "withdraw"))
    battle = with_action(battle, index, {"type": "bid", "side": 1, "maneuver": other, "why": bid["why"]})
    conflict = conflict_against_the_app("hard", moves=80)
    for index in app_moves(conflict, ("play",)):
        action = conflict.actions[index]
        others = sorted((pl, str(c)) for pl, c in oic.legal_plays(games.replay(conflict, index))
                        if str(c) != action["card"])
        if others:
            break
    player, card = others[0]
    conflict = with_action(conflict, index, {**action, "player": player, "card": card}, cut=True)
    return [("battle", codec.encode_share(battle), "HR-AI-14"), ("conflict", codec.encode_share(conflict), "HR-OIC-4")]


@pytest.mark.parametrize("kind", ["battle", "conflict"])
def test_a_link_whose_app_move_was_changed_is_refused_with_its_clause_and_nothing_is_saved(page, base_url, kind):
    """Issue 35, 1: what the app decides comes from the seed, never from a link: a link whose
    app move differs from the app's is refused with the house rule, and storage is unchanged."""
    [(_, payload, clause)] = [link for link in forged_app_links() if link[0] == kind]
    text = refusal_of_link(page, base_url, kind, payload)
    assert f"app moves were not made by the app: {clause} at step " in text and "Nothing was saved" in text
