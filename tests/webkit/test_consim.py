"""The initiative tracker's tap and layout defects of issue 22 in WebKit (the engine of every
iPad browser), in the suite's one session: the name field after "Add to roster" tapped
while it still has the focus (defect 3), the roster in sight beside the acting panel
after a shot at 1024×768 (defect 4), and "End round N now" asking first (defect 5).
Games are opened by their full link through the route (``#/initiative?g=…``)."""

from __future__ import annotations

import json
import time

from engine import codec
from engine import consim as cs
from engine.game import apply, new_game, replay

from .conftest import goto_route, set_size, wait_for
from .kit import (
    assert_app_ok,
    assert_on_screen,
    button,
    double_tap,
    field,
    hold,
    safari_tap,
    saved_game,
    tap,
    type_into,
    visible,
)

ROUTE = "initiative"
SCOPE = "section.route[data-route='initiative']"
SQUAD = {"sides": ["Players", "Opposition"], "privacy": True, "combatants": [
    {"name": n, "side": s, "grain": g, "training": t, "weapon": w, "player": p} for n, s, g, t, w, p in (
        ("Sgt. Rook", 0, "individual", "trained", ["automatic"], True),
        ("Doc", 0, "individual", "untrained", [], True),
        ("Pvt. Able", 0, "individual", "untrained", ["semi-automatic"], True),
        ("Rifleman 1", 1, "individual", "trained", ["semi-automatic"], False),
        ("Rifleman 2", 1, "individual", "trained", ["semi-automatic"], False),
        ("Tank", 1, "vehicle", "trained", ["ground-vehicle", "explosive"], False),
        ("Sniper", 1, "individual", "elite", [], False))]}
ORDER = {"type": "deal", "cards": {str(i): [t] for i, t in enumerate(["AS", "KS", "QS", "JS", "10S", "9S", "8S"])}}
#: ORDER's cards are entered: the table's own deck (HR-CS-6; the app's deck is never entered,
#: issue 35); the app's dice roll the shots.
OWN_DECK = {"deck": cs.DECK_TABLE}
SETTLE_S = 0.5  # a person's pause between taps at one spot (the app's TapGuard window, 450 ms)


def open_link(driver, game) -> None:
    goto_route(driver, "")
    driver.execute_script("location.hash = arguments[0]", f"#/{ROUTE}?g={codec.encode_share(game)}")
    wait_for(driver, "return !!document.querySelector(arguments[0])", f"{SCOPE} [data-testid=tracker]",
             message="the tracker of the opened link")
    driver.execute_script("window.scrollTo(0, 0)")


def saved(driver):
    return saved_game(driver, ROUTE)


def to_roster(driver) -> None:
    goto_route(driver, ROUTE)
    if not visible(driver, f"{SCOPE} [data-testid=roster]"):
        if visible(driver, f"{SCOPE} [data-testid=players-bar]"):
            tap(driver, button(driver, "Observer's view…"))
            hold(driver, button(driver, "Hold to show everything"))  # issue 34 item 7
        tap(driver, visible(driver, f"{SCOPE} [data-action='session:drawer'][data-arg=saves]")[0])
        tap(driver, wait_for(driver, "return document.querySelector(arguments[0])",
                             f"{SCOPE} [data-action='session:new']", message="New game"))
    wait_for(driver, "return !!document.querySelector(arguments[0])", f"{SCOPE} [data-testid=roster]",
             message="the roster")
    for _ in range(30):  # a roster left by an earlier test of this session
        remove = visible(driver, f"{SCOPE} [data-action='init:remove']")
        if not remove:
            break
        safari_tap(driver, remove[0])


def test_webkit_defect_3_add_to_roster_with_the_name_still_focused(app):
    driver = app
    to_roster(driver)
    name = field(driver, "init:form.name")
    type_into(driver, name, "Scout")  # "Add to roster" is enabled once a name is typed
    assert driver.execute_script("return document.activeElement === arguments[0]", name)
    safari_tap(driver, button(driver, "Add to roster"))  # Safari: the name field keeps the focus
    wait_for(driver, "return document.querySelectorAll(arguments[0]).length === 1", f"{SCOPE} .ini-list li",
             message="Scout on the roster")
    name = field(driver, "init:form.name")
    assert name.get_property("value") == ""
    assert driver.execute_script("return document.activeElement === arguments[0]", name), \
        "the focus is back in the (new, empty) name field"
    driver.switch_to.active_element.send_keys("Medic")  # typing starts fresh, in the name field
    assert field(driver, "init:form.name").get_property("value") == "Medic"
    add = button(driver, "Add to roster")
    safari_tap(driver, add)
    wait_for(driver, "return document.querySelectorAll(arguments[0]).length === 2", f"{SCOPE} .ini-list li",
             message="Medic on the roster")
    names = [e.text for e in visible(driver, f"{SCOPE} .ini-list li strong")]
    assert names == ["Scout", "Medic"]
    assert_app_ok(driver)


def test_webkit_defect_4_the_roster_is_in_sight_after_a_shot_at_1024x768(app):
    driver = app
    set_size(driver, 1024, 768)
    open_link(driver, apply(new_game(cs.KIND, SQUAD, OWN_DECK, seed=5), ORDER))
    tap(driver, button(driver, "Shoot…"))
    tap(driver, wait_for(driver, "return [...document.querySelectorAll(arguments[0])].find("
                                 "b => b.innerText.trim() === 'Sniper') || null",
                         f"{SCOPE} [data-testid=shot-panel] [data-action='init:target']", message="the Sniper"))
    tap(driver, button(driver, "Roll the dice", prefix=True))
    wait_for(driver, "return !!document.querySelector(arguments[0])", f"{SCOPE} [data-testid=shot-result]",
             message="the result")
    driver.execute_script("window.scrollTo(0, 0)")
    fighters = [visible(driver, f"{SCOPE} [data-testid=fighter-{i}]")[0] for i in range(7)]
    assert_on_screen(driver, visible(driver, f"{SCOPE} [data-testid=current-actor]")[0],
                     visible(driver, f"{SCOPE} [data-testid=shot-result]")[0], button(driver, "Next ▸"),
                     visible(driver, f"{SCOPE} [data-testid=fighter-6] .pips")[0], *fighters)
    assert cs.acting(replay(saved(driver))) == 1  # CS-5: the shot moved the turn on
    assert_app_ok(driver)


def test_webkit_defect_5_ending_a_round_early_asks_first(app):
    driver = app
    open_link(driver, apply(new_game(cs.KIND, SQUAD, OWN_DECK, seed=5), ORDER))
    before = len(saved(driver).actions)
    tap(driver, button(driver, "End round 1 now…"))
    dialog = wait_for(driver, "return document.querySelector(arguments[0])", f"{SCOPE} [data-testid=end-confirm]",
                      message="the question")
    assert "7 cards have not acted" in dialog.text
    assert len(saved(driver).actions) == before
    time.sleep(SETTLE_S)
    tap(driver, button(driver, "Keep playing"))
    assert len(saved(driver).actions) == before and not visible(driver, f"{SCOPE} [data-testid=end-confirm]")
    time.sleep(SETTLE_S)
    tap(driver, button(driver, "End round 1 now…"))
    time.sleep(SETTLE_S)
    tap(driver, button(driver, "End round 1"))
    wait_for(driver, "return !!document.querySelector(arguments[0])", f"{SCOPE} [data-testid=deal-panel]",
             message="the next round's deal")
    assert json.loads(json.dumps(saved(driver).actions[-1])) == {"type": "end_round"}
    assert_app_ok(driver)


TABLET_SIZES = ((768, 1024), (1024, 768), (820, 1180), (1366, 1024))


def test_our_own_cards_and_dice_entered_safari_style_at_every_size(app):
    """Issue 18 (HR-CS-6, HR-CS-7): the cards of a real deal entered with taps (the deal
    double-tapped: its second tap refused), then a shot's d10 and d6 entered, one taken back."""
    driver = app
    own = {**SQUAD, "privacy": False}
    for width, height in TABLET_SIZES:
        set_size(driver, width, height)
        open_link(driver, new_game(cs.KIND, own, {"deck": "table", "dice": "table"}, seed=5))
        tap(driver, button(driver, "Enter the cards…"))
        wait_for(driver, "return !!document.querySelector(arguments[0])", f"{SCOPE} [data-testid=card-entry]",
                 message="the card entry")
        for token in ("AS", "KS", "QS", "JS", "10S", "9S", "8S"):
            card = visible(driver, f"{SCOPE} [data-action='init:entry-pick'][data-arg='{token}']")[0]
            assert_on_screen(driver, card)
            safari_tap(driver, card)
        deal = button(driver, "Deal these cards")
        assert_on_screen(driver, deal)
        double_tap(driver, deal)
        wait_for(driver, "return !!document.querySelector(arguments[0])", f"{SCOPE} [data-testid=now]",
                 message="the round")
        time.sleep(SETTLE_S)
        game = saved(driver)
        assert [a["type"] for a in game.actions] == ["deal"]  # the second tap moved nothing
        assert [h.dealt[0].token for h in replay(game).hands] == ["AS", "KS", "QS", "JS", "10S", "9S", "8S"]
        tap(driver, button(driver, "Shoot…"))
        tap(driver, wait_for(driver, "return [...document.querySelectorAll(arguments[0])].find("
                                     "b => b.innerText.trim() === 'Rifleman 1') || null",
                             f"{SCOPE} [data-testid=shot-panel] [data-action='init:target']", message="Rifleman 1"))
        for arg in ("9", "3"):  # the d10, then a wrong d6
            safari_tap(driver, wait_for(driver, "return document.querySelector(arguments[0])",
                                        f"{SCOPE} [data-action='init:die'][data-arg='{arg}']", message=f"die {arg}"))
        safari_tap(driver, visible(driver, f"{SCOPE} [data-action='init:die-back'][data-arg='0.d6']")[0])
        safari_tap(driver, wait_for(driver, "return document.querySelector(arguments[0])",
                                    f"{SCOPE} [data-action='init:die'][data-arg='1']", message="die 1"))
        record = button(driver, "Record the shot", prefix=True)
        assert_on_screen(driver, record)
        safari_tap(driver, record)
        wait_for(driver, "return !!document.querySelector(arguments[0])", f"{SCOPE} [data-testid=shot-result]",
                 message="the result")
        shot = saved(driver).actions[-1]
        assert shot["type"] == "shoot" and list(shot["dice"]) == [{"d10": 9, "d6": 1}]  # 1 + 1: STUN
        assert_app_ok(driver)


def test_webkit_the_observers_view_returns_after_a_press_and_hold_only(app):
    """Issue 34 item 7 on WebKit: in the players' view a tap on "Hold to show everything"
    does nothing; held about a second, the Observer's view returns."""
    driver = app
    open_link(driver, apply(new_game(cs.KIND, SQUAD, OWN_DECK, seed=5), ORDER))
    tap(driver, button(driver, "Players' view"))
    wait_for(driver, "return !!document.querySelector(arguments[0])", f"{SCOPE} [data-testid=players-view]",
             message="the players' view")
    tap(driver, button(driver, "Observer's view…"))
    time.sleep(SETTLE_S)
    tap(driver, button(driver, "Hold to show everything"))
    time.sleep(1.5)
    assert visible(driver, f"{SCOPE} [data-testid=players-view]"), "a tap must not leave the players' view"
    assert "Sniper" not in driver.find_element("css selector", SCOPE).text
    hold(driver, button(driver, "Hold to show everything"))
    wait_for(driver, "return !document.querySelector(arguments[0])", f"{SCOPE} [data-testid=players-view]",
             message="the Observer's view after the hold")
    assert "Sniper" in driver.find_element("css selector", SCOPE).text
    assert_app_ok(driver)
