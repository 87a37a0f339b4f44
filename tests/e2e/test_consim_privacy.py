"""What is hidden stays hidden on the tracker (issue 21): the spectator link and the players'
view show the Observer's hidden combatants only as placeholders — no name, kind,
training, weapon, card, status or countdown anywhere in the page (its text and its
markup) — say only true things about the acting order, offer no control, and the
players' view holds through a reload, a route change, a new round, undo and a full
link opened on the same device, until the Observer leaves it through its question."""

from __future__ import annotations

import re

from engine import codec
from engine import consim as cs
from engine.game import apply, replay, undo

from .conftest import TABLET_LANDSCAPE, TABLET_PORTRAIT
from .consim_kit import (
    OWN,
    ROUTE,
    VIEW_KEY,
    dom_text,
    get,
    hold,
    leave_players_view,
    link,
    make,
    man,
    open_at,
    open_game,
    put,
    reload,
    rewrite_slot,
    wait_settle,
)
from .tablet import assert_app_ok, assert_focus

SECRETS = ["Zyx-Sniper-41", "Qwv-Panzer-IV", "Kjh-Spotter-7"]
ROSTER = {"sides": ["Players", "Opposition"], "privacy": True, "combatants": [
    man("Sgt. Rook", 0, player=True, weapon=["automatic"], training="trained"),
    man("Doc", 0, player=True),
    man(SECRETS[0], 1, training="elite", weapon=["semi-automatic"]),
    man(SECRETS[1], 1, grain="vehicle", training="trained", weapon=["explosive", "ground-vehicle"]),
    man(SECRETS[2], 1, grain="squad", weapon=["air-vehicle"])]}
#: The sniper (2) acts first on the A♠, then the panzer (3), then Sgt. Rook on the 9♣ …
#: (entered cards and dice: the games are played with the table's own, kit.OWN, issue 35)
DEAL = {"type": "deal", "cards": {"0": ["9C"], "1": ["2D"], "2": ["AS", "QH"], "3": ["KH"], "4": ["3S"]},
        "advantages": {"2": ["visibility"]}}
HIDDEN_CARDS = ["AS", "QH", "KH", "3S"]


def sniper_shoots():
    """The hidden sniper fires on Sgt. Rook (unseen, semi-automatic for damage): INJURED."""
    return {"type": "shoot", "shooter": 2, "targets": [0], "mode": "aimed", "cover": "cover", "unseen": True,
            "semi": "damage", "dice": [{"d10": 9, "d6": 3, "countdown": 7}]}


def assert_nothing_hidden(page, where: str) -> None:
    text = dom_text(page)
    for token in SECRETS + ["elite", "explosive", "ground-vehicle", "air-vehicle", "vehicle", "squad"]:
        assert token not in text, f"{where}: {token!r} is on the page"
    cards = set(page.locator("#app-initiative [data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert not cards & set(HIDDEN_CARDS), f"{where}: hidden cards {cards & set(HIDDEN_CARDS)} on the page"
    for word in ("d10 9 + ", "semi-automatic", "Semi-automatic"):
        assert word not in text, f"{where}: {word!r} tells the hidden shooter's training or weapon"


def test_the_spectator_link_is_read_only_with_its_banner_and_holds_nothing_hidden(browser, base_url):
    game = make(ROSTER, DEAL, sniper_shoots(), rules=OWN)
    public = f"{base_url}{ROUTE}?g={codec.encode_share(cs.public_game(game))}"
    context = browser.new_context(viewport=TABLET_LANDSCAPE, has_touch=True)
    try:
        page = context.new_page()
        open_at(page, public)
        page.wait_for_selector("[data-testid=tracker]")
        banner = page.locator("#app-initiative [data-testid=spectator-banner]")
        assert banner.is_visible() and "read-only" in banner.inner_text()
        for name in ("Deal", "Next ▸", "Shoot…", "Long action…", "Players' view", "Treat", "Observer's view…"):
            assert page.get_by_role("button", name=name, exact=True).count() == 0, name
        assert page.locator("#app-initiative [data-action^='init:']").count() == 0
        text = page.locator("#app-initiative").inner_text()
        # what is true: the hidden panzer acts now; the shot came from an unseen shooter
        assert "Round 1: the Observer's combatants are acting (CS-5)." in text
        assert "An unseen shooter: aimed shot" in text and "Sgt. Rook: hit" in text
        assert "The Observer's combatant 1" in text
        assert_nothing_hidden(page, "the spectator link")
        reload(page)
        assert banner.is_visible()
        assert_nothing_hidden(page, "the spectator link after a reload")
        assert_app_ok(page)
    finally:
        context.close()


def test_the_players_view_holds_through_reload_route_new_round_undo_and_a_full_link(page, base_url):
    page.set_viewport_size(TABLET_PORTRAIT)
    game = make(ROSTER, DEAL, rules=OWN)
    open_at(page, link(base_url, game))
    assert set(HIDDEN_CARDS) <= set(page.locator("#app-initiative [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"))  # the Observer sees them
    page.get_by_role("button", name="Players' view", exact=True).tap()
    page.wait_for_selector("[data-testid=players-view]")
    assert get(page, VIEW_KEY) == {"players": True}
    assert_nothing_hidden(page, "the players' view")
    # what the players see of the acting order is true
    assert page.locator("[data-testid=status]").inner_text() == "Round 1: the Observer's combatants are acting (CS-5)."
    assert page.locator(".ini-entry.current").inner_text().strip().endswith("The Observer's combatants are acting")
    assert page.locator("[data-testid=order-count]").inner_text() == \
        "0 done · 2 to go, not counting the Observer's hidden cards"
    # a reload
    reload(page)
    page.wait_for_selector("[data-testid=players-view]")
    assert_nothing_hidden(page, "the players' view after a reload")
    assert page.get_by_role("button", name="↶ Undo").count() == 0 and page.get_by_role("button", name="Share").count() == 0
    # a route change and back
    page.evaluate("location.hash = '#/conflict'")
    page.wait_for_selector("section.route[data-route='conflict']:not([hidden])", state="attached")
    page.evaluate("location.hash = '#/initiative'")
    page.wait_for_selector("[data-testid=players-view]")
    assert_nothing_hidden(page, "the players' view after a route change")
    # a new round and an undo made elsewhere (another tab): the view holds
    saved = open_game(page)
    moved = apply(apply(apply(saved, sniper_shoots()), {"type": "end_round"}),
                  {"type": "deal", "cards": {"0": ["10C"], "1": ["2C"], "2": ["AD", "QD"], "3": ["KD"], "4": ["3D"]},
                   "advantages": {"2": ["visibility"]}})
    rewrite_slot(page, moved)
    reload(page)
    page.wait_for_selector("[data-testid=players-view]")
    assert page.locator("[data-testid=tracker]").get_attribute("data-round") == "2"
    assert "An unseen shooter: aimed shot" in page.locator(".log").inner_text()
    assert_nothing_hidden(page, "the players' view in round 2")
    rewrite_slot(page, undo(moved))
    reload(page)
    page.wait_for_selector("[data-testid=players-view]")
    assert page.locator("[data-testid=tracker]").get_attribute("data-phase") == "ready"
    # a full link opened on this device (a new save): still the players' view
    open_at(page, link(base_url, make(ROSTER, DEAL, sniper_shoots(), rules=OWN)))
    page.wait_for_selector("[data-testid=players-view]")
    assert_nothing_hidden(page, "the players' view after a full link")
    # only the question leaves it
    page.get_by_role("button", name="Observer's view…").tap()
    assert_focus(page, page.get_by_role("button", name="Stay in the players' view"))
    page.get_by_role("button", name="Stay in the players' view").tap()
    reload(page)
    page.wait_for_selector("[data-testid=players-view]")
    leave_players_view(page)
    assert get(page, VIEW_KEY) == {"players": False}
    assert set(HIDDEN_CARDS[:2]) <= set(page.locator("#app-initiative [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"))
    reload(page)
    assert page.locator("[data-testid=players-view]").count() == 0
    assert_app_ok(page)


def test_the_players_view_says_who_acts_as_the_round_goes_on(page, base_url):
    page.set_viewport_size(TABLET_LANDSCAPE)
    # the sniper's shot with its dice (INJURED: Sgt. Rook still acts; the app's own dice could
    # leave him DYING, and then it is truly the Observer's combatants who act next)
    open_at(page, link(base_url, make(ROSTER, DEAL, sniper_shoots(), rules=OWN)))
    for _ in range(2):  # the panzer's K♥, the sniper's Q♥
        wait_settle(page)
        page.get_by_role("button", name="Next ▸").tap()
    page.get_by_role("button", name="Players' view", exact=True).tap()
    status = page.locator("[data-testid=status]")
    assert status.inner_text() == "Round 1: Sgt. Rook acts on the 9♣ (CS-5)."
    assert page.locator("[data-testid=order-count]").inner_text() == \
        "0 done · 2 to go, not counting the Observer's hidden cards"
    said = page.locator("#app-initiative .log").inner_text()
    if page.locator("[data-testid=shot-result]").count():
        said += page.locator("[data-testid=shot-result]").inner_text()
    assert "An unseen shooter" in said
    assert_nothing_hidden(page, "the players' view mid-round")
    assert_app_ok(page)


# ---------------------------------------------------------------------------
# Issue 34 item 7: the Observer's view returns only after a press and hold


def test_the_observers_view_returns_only_after_a_held_press_and_a_lift_cancels(page, base_url):
    page.set_viewport_size(TABLET_LANDSCAPE)
    open_at(page, link(base_url, make(ROSTER, DEAL, rules=OWN)))
    page.get_by_role("button", name="Players' view", exact=True).tap()
    page.wait_for_selector("[data-testid=players-view]")
    page.get_by_role("button", name="Observer's view…").tap()
    held = page.get_by_role("button", name="Hold to show everything")
    # a tap, a click and a short press do nothing: the players' view stays, nothing hidden shows
    held.tap()
    held.click()
    hold(page, held, 350)
    page.wait_for_timeout(900)
    assert page.locator("[data-testid=players-view]").count() == 1
    assert_nothing_hidden(page, "after a tap, a click and a short press")
    # the button fills while held (visible progress), and lifting before the end cancels
    box = held.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(500)
    part = float(held.evaluate("el => getComputedStyle(el).getPropertyValue('--hold') || '0'"))
    assert 0.2 < part < 1 and "holding" in held.get_attribute("class")
    fill = held.locator(".hold-fill").evaluate("el => getComputedStyle(el).transform")
    assert fill not in ("none", "matrix(0, 0, 0, 1, 0, 0)"), fill
    page.mouse.move(5, 5)  # slides off: cancelled
    page.wait_for_timeout(900)
    page.mouse.up()
    assert page.locator("[data-testid=players-view]").count() == 1
    assert "holding" not in held.get_attribute("class")
    # the keyboard: Enter kept pressed a second (a quick Enter does nothing)
    held.focus()
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert page.locator("[data-testid=players-view]").count() == 1
    page.keyboard.down("Enter")
    page.wait_for_timeout(1300)
    page.keyboard.up("Enter")
    page.wait_for_selector("[data-testid=players-view]", state="detached")
    assert get(page, VIEW_KEY) == {"players": False}
    assert set(HIDDEN_CARDS) <= set(page.locator("#app-initiative [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"))
    # and a finger's press and hold, from the players' view again
    page.get_by_role("button", name="Players' view", exact=True).tap()
    page.wait_for_selector("[data-testid=players-view]")
    leave_players_view(page)
    assert get(page, VIEW_KEY) == {"players": False}
    assert_app_ok(page)


# ---------------------------------------------------------------------------
# Issue 34 item 2, HR-CS-8: the Observer chooses who is hidden; the hidden are not counted

AMBUSHERS = [f"Xqz-Ambusher-{n}" for n in range(1, 6)]
AMBUSH = {"sides": ["Players", "Ambush"], "privacy": True, "count_hidden": False, "combatants": [
    man("Sgt. Rook", 0, player=True, training="trained"),
    {**man("Kvq-Ally-Rifleman", 0, training="trained"), "hidden": False},
    *(man(name, 1, training="elite", weapon=["semi-automatic"]) for name in AMBUSHERS)]}
AMBUSH_DEAL = {"type": "deal", "cards": {"0": ["5C"], "1": ["4C"], "2": ["AS"], "3": ["KS"], "4": ["QS"],
                                        "5": ["JS"], "6": ["10S"]}}
NO_COUNT = ("The Observer's combatant ", "7 cards", "5 of them", "Ambusher", "elite", "semi-automatic",
            "hidden_cards", "5 combatants")


def test_the_players_allies_are_shown_and_the_ambush_is_one_uncounted_line(browser, base_url):
    game = make(AMBUSH, AMBUSH_DEAL, {"type": "next"}, {"type": "next"}, rules=OWN)
    for url, where in ((link(base_url, game), "players' view"),
                       (f"{base_url}{ROUTE}?g={codec.encode_share(cs.public_game(game))}", "spectator link")):
        context = browser.new_context(viewport=TABLET_LANDSCAPE, has_touch=True)
        try:
            page = context.new_page()
            open_at(page, url)
            if where == "players' view":
                page.get_by_role("button", name="Players' view", exact=True).tap()
            page.wait_for_selector("[data-testid=players-view]")
            text = dom_text(page)
            for token in NO_COUNT:
                assert token not in text, f"{where}: {token!r}"
            assert "Kvq-Ally-Rifleman" in page.locator("[data-testid=board]").inner_text()
            lines = page.locator("[data-testid=hidden-line]")
            assert lines.count() == 1
            assert lines.inner_text() == "The Observer's hidden combatants (HR-CS-8): not shown."
            assert page.locator("[data-testid=status]").inner_text() == \
                "Round 1: the Observer's combatants are acting (CS-5)."
            assert page.locator("[data-testid=order-count]").inner_text() == \
                "0 done · 2 to go, not counting the Observer's hidden cards"
            assert "2 cards shown to act, besides the Observer's hidden ones" in \
                page.locator("#app-initiative .log").inner_text()
            assert_app_ok(page)
        finally:
            context.close()


def test_the_roster_hides_the_observers_side_by_default_and_the_observer_chooses(page, base_url):
    page.set_viewport_size(TABLET_PORTRAIT)
    put_roster = {"draft": {"sides": ["Players", "Opposition"], "privacy": True, "combatants": [
        man("Sgt. Rook", 0, player=True), man("Kvq-Ally-Rifleman", 0), man("Xqz-Foe-Sniper", 1),
        man("Xqz-Foe-Spotter", 1)]}}
    open_at(page, f"{base_url}{ROUTE}")
    put(page, "ct:v1:draft:initiative", put_roster)
    reload(page)
    page.wait_for_selector("[data-testid=roster]")
    boxes = [page.locator(f"[data-testid=hide-{i}] input") for i in (1, 2, 3)]
    assert page.locator("[data-testid=hide-0]").count() == 0  # a player character is never hidden
    assert [b.is_checked() for b in boxes] == [False, True, True]  # the default: the Observer's side
    boxes[2].tap()  # the Observer shows the spotter
    count = page.get_by_role("checkbox", name=re.compile("Say how many are hidden"))
    assert not count.is_checked()
    page.get_by_role("button", name="Start tracking").tap()
    page.wait_for_selector("[data-testid=tracker]")
    state = replay(open_game(page))
    assert [cs.is_hidden(state, i) for i in range(4)] == [False, False, True, False]
    assert state.count_hidden is False
    page.get_by_role("button", name="Players' view", exact=True).tap()
    page.wait_for_selector("[data-testid=players-view]")
    text = dom_text(page)
    assert "Xqz-Foe-Sniper" not in text and "Xqz-Foe-Spotter" in text and "Kvq-Ally-Rifleman" in text
    assert "The Observer's combatant " not in text
    assert_app_ok(page)
