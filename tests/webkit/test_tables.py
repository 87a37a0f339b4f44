"""The three newer tables in WebKit: campaign (CMP-*), CONSIM initiative (CS-*) and the
Ascension Isle battle board (AI-*), each started by taps in the suite's one session.

For each table: the game is started with the last setup field still focused when the
start button is Safari-tapped (the typed value must reach the game), the main action
and what the table needs now are on screen at 1024×768 without scrolling, and (where
a hidden screen can appear under the finger) a fast double tap never reveals it.
The game actually started is read back from the session's Share drawer (the full
link) and decoded by the engine's codec.
"""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlparse

from selenium.webdriver.support.select import Select

from engine import codec

from .conftest import goto_route, wait_for
from .kit import (
    assert_app_ok,
    assert_no_traceback,
    assert_on_screen,
    button,
    double_tap,
    edit_then_tap,
    field,
    safari_tap,
    tap,
    type_into,
    visible,
)

#: A freshly drawn curtain ignores taps for web.parts.curtain.SETTLE_MS (450 ms): a
#: player passing the tablet takes longer than that.
HAND_OVER_S = 0.7


def scope(route: str) -> str:
    return f"section.route[data-route='{route}']"


def present(driver, route: str, testid: str) -> bool:
    return bool(visible(driver, f"{scope(route)} [data-testid={testid}]"))


def wait_testid(driver, route: str, testid: str, timeout: float = 30):
    # Shown: it has a box (getClientRects; offsetParent is null for a position: fixed sheet).
    return wait_for(driver, "return [...document.querySelectorAll(arguments[0])]"
                            ".find(e => e.getClientRects().length > 0) || null", f"{scope(route)} [data-testid={testid}]", timeout=timeout,
                    message=f"[data-testid={testid}] on #/{route}")


def wait_gone(driver, route: str, testid: str, timeout: float = 10) -> None:
    wait_for(driver, "return !document.querySelector(arguments[0])", f"{scope(route)} [data-testid={testid}]",
             timeout=timeout, message=f"[data-testid={testid}] to go on #/{route}")


def fresh_setup(driver, route: str, setup_testid: str) -> None:
    """The route's setup screen; an open game is closed (it stays saved) by Saves → New game."""
    goto_route(driver, route)
    if not present(driver, route, setup_testid):
        if not visible(driver, f"{scope(route)} [data-action='session:new']"):
            tap(driver, visible(driver, f"{scope(route)} [data-action='session:drawer'][data-arg=saves]")[0])
        wait_for(driver, "return document.querySelector(arguments[0])",
                 f"{scope(route)} [data-action='session:new']", message="the New game button")
        tap(driver, visible(driver, f"{scope(route)} [data-action='session:new']")[0])
    wait_testid(driver, route, setup_testid)
    driver.execute_script("window.scrollTo(0, 0)")


def shared_game(driver, route: str):
    """The game the table holds, from the Share drawer's full link (validated by the engine's codec)."""
    share = f"{scope(route)} [data-action='session:drawer'][data-arg=share]"
    tap(driver, visible(driver, share)[0])
    url = wait_for(driver, "const e = document.querySelector(arguments[0]); return e && e.value",
                   f"{scope(route)} [data-testid=share-full]", message="the full share link")
    tap(driver, visible(driver, share)[0])  # close the drawer again
    wait_gone(driver, route, "share-full")
    return codec.decode_share(parse_qs(urlparse(url).fragment.split("?", 1)[1])["g"][0])


def centred(driver, element):
    """``element`` scrolled to the middle of the viewport (for a double tap where it is)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    return element


def at_top_on_screen(driver, *elements) -> None:
    driver.execute_script("window.scrollTo(0, 0)")
    assert_on_screen(driver, *elements)


# ---------------------------------------------------------------- campaign (CMP-*)

def start_campaign(driver, seed: str) -> None:
    """Two players and a seed; Ben's name is still focused when Start is Safari-tapped."""
    fresh_setup(driver, "campaign", "setup")
    # The setup remembers the last deck chosen (an earlier test may have left "our own"): the app's.
    deck = visible(driver, f"{scope('campaign')} input[data-field='campaign:deck'][value=app]")
    if deck and not deck[0].is_selected():
        tap(driver, deck[0])
    type_into(driver, field(driver, "campaign:name0"), "Anna")
    type_into(driver, field(driver, "seed"), seed)
    edit_then_tap(driver, field(driver, "campaign:name1"), "Ben", button(driver, "Start the campaign"))
    assert_app_ok(driver)
    wait_testid(driver, "campaign", "table")


def test_campaign_started_safari_style_and_on_screen(app):
    driver = app
    start_campaign(driver, "11")
    game = shared_game(driver, "campaign")
    assert game.kind == "campaign" and game.seed == 11
    assert list(game.setup["players"]) == ["Anna", "Ben"]  # the focused field's text reached the game
    # CMP-1: both hands hidden behind their curtains; the stakes and the battle to record on screen.
    curtains = visible(driver, f"{scope('campaign')} [data-testid=curtain] button")
    assert [c.text for c in curtains] == ["Show Anna's hand", "Show Ben's hand"]
    assert not present(driver, "campaign", "hand")
    at_top_on_screen(driver, wait_testid(driver, "campaign", "stake-0"), wait_testid(driver, "campaign", "stake-1"),
                     visible(driver, f"{scope('campaign')} [data-testid=record] .winner-picks")[0],
                     curtains[0], curtains[1])
    time.sleep(HAND_OVER_S)
    tap(driver, button(driver, "Show Anna's hand"))
    hand = wait_testid(driver, "campaign", "hand-cards")
    assert len(visible(driver, f"{scope('campaign')} [data-testid=hand-cards] .card")) == 6
    at_top_on_screen(driver, hand, button(driver, "Hide hand"),
                     visible(driver, f"{scope('campaign')} [data-testid=record] .winner-picks")[0])
    assert_app_ok(driver)


def test_campaign_double_taps_never_reveal_a_hand(app):
    driver = app
    start_campaign(driver, "8")
    time.sleep(HAND_OVER_S)
    tap(driver, button(driver, "Show Anna's hand"))
    wait_testid(driver, "campaign", "hand")
    # The second tap of a fast double tap on "Hide hand" lands on the curtain drawn in its place.
    hits = double_tap(driver, centred(driver, button(driver, "Hide hand")))
    time.sleep(0.3)
    assert not present(driver, "campaign", "hand"), f"the double tap hit {hits} and a hand is open"
    # A double tap on a curtain opens that hand at most, never the next one.
    time.sleep(HAND_OVER_S)
    hits = double_tap(driver, centred(driver, button(driver, "Show Ben's hand")))
    time.sleep(0.3)
    hands = visible(driver, f"{scope('campaign')} [data-testid=hand]")
    assert len(hands) <= 1, f"the double tap hit {hits}"
    assert not hands or "Anna" not in hands[0].text, f"Anna's hand opened by the second tap: {hits}"
    assert_app_ok(driver)


# ---------------------------------------------------------------- initiative (CS-*)

def add_combatant(driver, name: str, side: int) -> None:
    route = "initiative"
    before = len(visible(driver, f"{scope(route)} .ini-list li"))
    type_into(driver, field(driver, "init:form.name"), name)
    assert_app_ok(driver)  # the typed name reaches the view (it enables "Add to roster")
    Select(field(driver, "init:form.side")).select_by_value(str(side))
    wait_for(driver, "return document.querySelector(arguments[0]).value === arguments[1]",
             f"{scope(route)} [data-field='init:form.side']", str(side), message=f"side {side} chosen")
    tap(driver, button(driver, "Add to roster"))
    wait_for(driver, "return document.querySelectorAll(arguments[0]).length === arguments[1]",
             f"{scope(route)} .ini-list li", before + 1, message=f"{name} on the roster")


def test_initiative_roster_started_safari_style_dealt_and_on_screen(app):
    driver = app
    fresh_setup(driver, "initiative", "roster")
    for _ in range(20):  # a roster draft left by an earlier test of this session
        remove = visible(driver, f"{scope('initiative')} [data-action='init:remove']")
        if not remove:
            break
        safari_tap(driver, remove[0])
    add_combatant(driver, "Hero", 0)
    add_combatant(driver, "Sniper", 1)
    edit_then_tap(driver, field(driver, "init:seed"), "7", button(driver, "Start tracking"))
    assert_no_traceback(driver)
    deal = wait_testid(driver, "initiative", "deal-panel")
    game = shared_game(driver, "initiative")
    assert game.kind == "initiative" and game.seed == 7  # the focused seed reached the game
    names = [(c["name"], c["side"]) for c in game.setup["combatants"]]
    assert ("Hero", 0) in names and ("Sniper", 1) in names
    at_top_on_screen(driver, deal, button(driver, "Deal"))
    tap(driver, button(driver, "Deal"))
    actor = wait_testid(driver, "initiative", "current-actor")
    assert actor.text in ("Hero", "Sniper")
    at_top_on_screen(driver, actor, visible(driver, f"{scope('initiative')} .ini-now .card")[0],
                     button(driver, "Next ▸"), button(driver, "Shoot…"),
                     visible(driver, f"{scope('initiative')} .ini-entry.current")[0])
    assert_app_ok(driver)


# ---------------------------------------------------------------- battle (AI-*)

def start_battle(driver, seed: str) -> None:
    """The Jibril corps example (the Chromium tests' start); the seed still focused when Start is Safari-tapped."""
    fresh_setup(driver, "battle", "setup")
    tap(driver, button(driver, "Load the Jibril corps example"))
    # The rules settings are remembered (an earlier test may have left "our own dice"): the app's.
    driver.execute_script("const s = document.querySelector(arguments[0]); if (s && s.value !== 'app') {"
                          " s.value = 'app'; s.dispatchEvent(new Event('change', {bubbles: true})); }",
                          f"{scope('battle')} [data-field='rules:dice']")
    edit_then_tap(driver, field(driver, "seed"), seed, button(driver, "Start the battle"))
    assert_app_ok(driver)
    wait_testid(driver, "battle", "board")


def lift_curtain(driver) -> None:
    wait_testid(driver, "battle", "curtain")
    time.sleep(HAND_OVER_S)
    tap(driver, visible(driver, f"{scope('battle')} [data-testid=curtain] button")[0])
    wait_testid(driver, "battle", "bid-form")


def pick(driver, maneuver: str) -> None:
    tap(driver, visible(driver, f"{scope('battle')} [data-action='battle:pick'][data-arg={maneuver}]")[0])


def test_battle_started_safari_style_and_on_screen(app):
    driver = app
    start_battle(driver, "3")
    game = shared_game(driver, "battle")
    assert game.kind == "battle" and game.seed == 3
    # The example: a corps of three Jibril divisions (AI-3) against the Zone army.
    assert [u["name"].startswith("Jibril") for u in game.setup["armies"][0]["units"]] == [True] * 3
    assert game.setup["armies"][1]["units"][0]["name"].startswith("Zone")
    at_top_on_screen(driver, wait_testid(driver, "battle", "curtain").find_element("css selector", "button"))
    lift_curtain(driver)
    pick(driver, "defend")
    at_top_on_screen(driver, button(driver, "Declare in secret"))
    tap(driver, button(driver, "Declare in secret"))
    lift_curtain(driver)
    pick(driver, "attack")
    tap(driver, button(driver, "Declare in secret"))
    at_top_on_screen(driver, button(driver, "Reveal both bids"))
    tap(driver, button(driver, "Reveal both bids"))
    at_top_on_screen(driver, button(driver, "Roll the dice"), wait_testid(driver, "battle", "odds"))
    tap(driver, button(driver, "Roll the dice"))
    at_top_on_screen(driver, wait_testid(driver, "battle", "headline"))
    assert_app_ok(driver)


def test_battle_double_tap_on_declare_never_opens_the_next_bid(app):
    driver = app
    start_battle(driver, "3")
    lift_curtain(driver)
    pick(driver, "block")
    hits = double_tap(driver, centred(driver, button(driver, "Declare in secret")))
    time.sleep(0.3)
    assert not present(driver, "battle", "bid-form"), f"the double tap hit {hits} and a bid form is open"
    assert len(visible(driver, f"{scope('battle')} [data-testid=curtain]")) == 1
    assert_app_ok(driver)
