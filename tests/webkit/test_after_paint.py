"""Issue 33 in WebKit (every iPad browser): nothing heavy before the paint, nothing lost or
doubled when taps arrive while the app works.

The same behaviour the Chromium suite checks (tests/e2e/test_battle_advisor.py,
tests/e2e/test_solo.py), read the same way: a script samples, in every animation frame (the
last moment before a paint), what the page shows, and clicks ``window.__meanwhile`` once while
the app works (the battle: in the first frame that paints the staff officer at work; the
conflict: as soon as the app's turn is in the page). Not timed: the order of what was painted.

- lifting a general's curtain paints the bid form and the staff officer's frame first, the
  grid after, put in once; Hide tapped meanwhile is honoured (the grid never comes behind
  the curtain); a maneuver picked meanwhile is kept and declared once;
- a card played against the Hard app paints before the app's reply (and "the app plays…",
  whenever a frame shows it, before the reply too), which comes once; Undo tapped while the
  app's turn shows is honoured (no reply lands).
"""

from __future__ import annotations

import time

import pytest

from engine import ascension as ai
from engine import codec
from engine.game import new_game
from tests.engine.test_solo import solo_setup  # the Purple Dragon League (OIC-7), the app a side

from .conftest import goto_route, wait_for
from .kit import assert_app_ok, button, saved_game, tap, visible
from .test_battle import lift_curtain
from .test_tables import HAND_OVER_S, scope

#: The battle: what each frame painted and how often the grid was put in the page.
BATTLE_FRAMES = """window.__frames = []; window.__grids = 0; window.__clicked = false;
  window.__meanwhile = arguments[0]; const gen = window.__gen = (window.__gen || 0) + 1;
  window.__observer = new MutationObserver(ms => { for (const m of ms) for (const n of m.addedNodes)
      if (n.nodeType === 1 && (n.matches('table.adv-grid') || n.querySelector('table.adv-grid'))) window.__grids++; });
  window.__observer.observe(document.body, {childList: true, subtree: true});
  const q = s => document.querySelector(`section.route[data-route=battle] ${s}`) !== null;
  const sample = () => {
    if (window.__gen !== gen) return;  // a later test's sampler took over
    const f = {form: q('[data-testid=bid-form]'), working: q('[data-testid=advisor-working]'),
               grid: q('[data-testid=advisor] table')};
    window.__frames.push(f);
    if (f.working && window.__meanwhile && !window.__clicked) {
      window.__clicked = true; document.querySelector(window.__meanwhile).click(); }
    requestAnimationFrame(sample); };
  requestAnimationFrame(sample);"""

#: The conflict: in every frame, the current card's cards, whether the app's turn shows, the
#: app's log lines. ``window.__meanwhile`` is clicked as soon as the app's turn is in the page
#: (a mutation observer: the app waits before it moves, the tap lands meanwhile however
#: seldom a loaded machine paints).
CONFLICT_FRAMES = """window.__frames = []; window.__clicked = false; window.__meanwhile = arguments[0];
  const gen = window.__gen = (window.__gen || 0) + 1;
  const root = document.querySelector('section.route[data-route=conflict]');
  window.__observer = new MutationObserver(() => {
    if (window.__gen === gen && window.__meanwhile && !window.__clicked
        && root.querySelector('[data-testid=app-turn]')) {
      window.__clicked = true; root.querySelector(window.__meanwhile).click(); } });
  window.__observer.observe(root, {childList: true, subtree: true});
  const sample = () => {
    if (window.__gen !== gen) return;  // a later test's sampler took over
    const current = root.querySelector('[data-testid=current-card]');
    window.__frames.push({turn: root.querySelector('[data-testid=app-turn]') !== null,
      current: current ? [...current.querySelectorAll('[data-card]')].map(c => c.dataset.card) : [],
      log: root.querySelectorAll('[data-testid=app-log] li').length});
    requestAnimationFrame(sample); };
  requestAnimationFrame(sample);"""

STOP_FRAMES = """window.__meanwhile = null; window.__gen = (window.__gen || 0) + 1;
  if (window.__observer) { window.__observer.disconnect(); window.__observer = null; }"""


@pytest.fixture
def sampled(app):
    """The suite's document; every sampler a test started stops after it."""
    yield app
    app.execute_script(STOP_FRAMES)


def in_route(route: str, selector: str) -> str:
    return f"{scope(route)} {selector}"


def count(driver, route: str, selector: str) -> int:
    return driver.execute_script("return document.querySelectorAll(arguments[0]).length", in_route(route, selector))


def wait_shown(driver, route: str, selector: str, message: str) -> None:
    """Wait until ``selector`` is in the route's page."""
    wait_for(driver, "return !!document.querySelector(arguments[0])", in_route(route, selector), message=message)


def open_link(driver, route: str, game) -> None:
    goto_route(driver, route)
    driver.execute_script("location.hash = arguments[0]", f"#/{route}?g={codec.encode_share(game)}")


# ---------------------------------------------------------------- the staff officer's grid

def lift_with_frames(driver, attack: int, meanwhile: str | None = None) -> None:
    """A new battle of the example armies, the first division's attack ``attack`` (the app
    remembers the grid of a battle it has seen: each test brings one this document has not);
    its first curtain lifted with every frame sampled."""
    setup = ai.example_setup()
    setup["armies"][0]["units"][0]["attack"] = attack
    open_link(driver, "battle", new_game("battle", setup, None, 5))
    wait_shown(driver, "battle", "[data-testid=curtain]", "the first general's curtain")
    driver.execute_script(BATTLE_FRAMES, meanwhile)
    time.sleep(HAND_OVER_S)  # a real hand-over
    tap(driver, visible(driver, in_route("battle", "[data-testid=curtain] button"))[0])


def test_the_advice_paints_its_frame_first_and_the_grid_once(sampled):
    driver = sampled
    lift_with_frames(driver, 2)
    wait_shown(driver, "battle", "[data-testid=advisor] table", "the staff officer's grid")
    wait_for(driver, "return window.__frames.some(f => f.grid)", timeout=10, message="a frame painted with the grid")
    frames = driver.execute_script("return window.__frames")
    first_form = next(i for i, f in enumerate(frames) if f["form"])
    assert frames[first_form]["working"] and not frames[first_form]["grid"]  # the frame, painted first
    assert any(f["grid"] for f in frames[first_form:])
    assert driver.execute_script("return window.__grids") == 1
    assert count(driver, "battle", "[data-testid=advisor-working]") == 0
    assert_app_ok(driver)


def test_hide_while_the_grid_is_worked_out_is_honoured(sampled):
    driver = sampled
    lift_with_frames(driver, 3, meanwhile=in_route("battle", "[data-action='battle:hide']"))
    wait_for(driver, "return window.__clicked", message="Hide tapped while the staff officer works")
    time.sleep(1.5)  # long enough for the grid, had it been worked out
    assert count(driver, "battle", "[data-testid=curtain]") == 1
    assert count(driver, "battle", "[data-testid=bid-form]") == 0
    assert driver.execute_script("return window.__grids") == 0
    assert not any(f["grid"] for f in driver.execute_script("return window.__frames"))
    lift_curtain(driver)
    wait_shown(driver, "battle", "[data-testid=advisor] table", "the grid once the curtain is lifted again")
    assert_app_ok(driver)


def test_a_pick_while_the_grid_is_worked_out_is_kept_and_declared_once(sampled):
    driver = sampled
    lift_with_frames(driver, 4, meanwhile=in_route("battle", "[data-action='battle:pick'][data-arg=defend]"))
    wait_shown(driver, "battle", "[data-testid=advisor] table", "the staff officer's grid")
    assert driver.execute_script("return window.__clicked")
    row = driver.execute_script("return document.querySelector(arguments[0]).dataset.row",
                                in_route("battle", "[data-testid=advisor] tr.on"))
    assert row == "defend"
    assert count(driver, "battle", "[data-action='battle:pick'][data-arg=defend][aria-checked=true]") == 1
    assert driver.execute_script("return window.__grids") == 1
    tap(driver, button(driver, "Declare in secret"))
    wait_shown(driver, "battle", "[data-testid=curtain]", "the second general's curtain")
    held = saved_game(driver, "battle")
    assert [(a["type"], a["maneuver"]) for a in held.actions] == [("bid", "defend")]  # one bid, as picked
    assert_app_ok(driver)


# ---------------------------------------------------------------- the Hard app's reply

def wait_for_person(driver) -> None:
    """The app has moved (if it was its turn): the person's hand or a result is shown."""
    wait_for(driver, "return !document.querySelector(arguments[0]) && !!document.querySelector(arguments[1])",
             in_route("conflict", "[data-testid=app-turn]"),
             f"{in_route('conflict', '[data-testid=hand]')}, {in_route('conflict', '[data-testid=result]')}",
             message="the person's turn")


def play_with_frames(driver, meanwhile: str | None = None) -> tuple[str, int, int]:
    """A new conflict against the Hard app, to the person's first play: the card played with
    every frame sampled; the app's log lines and the game's moves before it."""
    open_link(driver, "conflict", new_game("conflict", solo_setup("hard"), None, 61))
    for _ in range(6):
        wait_for_person(driver)
        if visible(driver, in_route("conflict", "[data-testid=hand] .card.playable")):
            break
        tap(driver, button(driver, "Keep all cards"))
    card = visible(driver, in_route("conflict", "[data-testid=hand] .card.playable"))[0]
    played = card.get_attribute("data-card")
    before = count(driver, "conflict", "[data-testid=app-log] li")
    moves = saved_game(driver, "conflict").position
    driver.execute_script(CONFLICT_FRAMES, meanwhile)
    tap(driver, card)
    return played, before, moves


def test_the_card_against_the_hard_app_paints_before_its_reply(sampled):
    driver = sampled
    played, before, _ = play_with_frames(driver)
    wait_for_person(driver)
    wait_for(driver, "return window.__frames.some(f => f.log === arguments[0])", before + 1, timeout=10,
             message="a frame painted with the app's reply")
    frames = driver.execute_script("return window.__frames")
    painted = next(i for i, f in enumerate(frames) if played in f["current"])
    assert frames[painted]["log"] == before  # the card painted, the reply not yet there
    assert all(f["log"] == before for f in frames if f["turn"])  # "the app plays…": before its reply
    assert any(f["log"] == before + 1 for f in frames[painted:])
    assert count(driver, "conflict", "[data-testid=app-log] li") == before + 1  # one reply, not two
    assert_app_ok(driver)


def test_undo_while_the_app_thinks_is_honoured(sampled):
    driver = sampled
    played, before, moves = play_with_frames(driver, meanwhile="[data-action='session:undo']")
    wait_for(driver, "return window.__clicked", message="Undo tapped while the app works")
    wait_for_person(driver)
    time.sleep(1.5)  # long enough for the app's reply, had it been left to come
    assert count(driver, "conflict", "[data-testid=app-log] li") == before
    assert count(driver, "conflict", f"[data-testid=hand] [data-card='{played}']") == 1
    assert saved_game(driver, "conflict").position == moves  # the card undone, no reply kept
    assert_app_ok(driver)
