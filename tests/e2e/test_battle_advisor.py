"""Issue 17 on the built site: the staff officer's grid behind the curtain (the engine's exact
numbers, readable at 1024×768 and 768×1024, never a trace of the other side's sealed bid) and
the app's general (bids by itself from public information, hidden until the reveal, its
"why" shown after it, recorded in the shared game)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from engine import ascension as ai
from engine import codec
from engine.game import apply, new_game, replay

from .conftest import TABLET_LANDSCAPE, TABLET_PORTRAIT
from .tablet import assert_app_ok, assert_on_screen
from .test_battle import lift_curtain, open_app, pick, tap


def link(base_url, game) -> str:
    return base_url + "#/battle?g=" + codec.encode_share(game)


#: The board's HTML without the Rules-in-play panel (public rule texts that name every stratagem).
BOARD_HTML = """() => { const b = document.querySelector('[data-testid=board]').cloneNode(true);
  b.querySelectorAll('details').forEach(d => d.remove()); return b.innerHTML.toLowerCase(); }"""


def full_game(page):
    page.get_by_role("button", name="Share").tap()
    url = page.locator("[data-testid=share-full]").input_value()
    page.get_by_role("button", name="Share").tap()
    return codec.decode_share(parse_qs(urlparse(url).fragment.split("?", 1)[1])["g"][0])


@pytest.mark.parametrize("viewport", [TABLET_LANDSCAPE, TABLET_PORTRAIT], ids=["landscape", "portrait"])
def test_the_grid_shows_the_engines_odds_and_never_the_sealed_bid(page, base_url, viewport):
    page.set_viewport_size(viewport)
    game = new_game("battle", ai.example_setup(), None, 5)
    # Jibril declares a distinctive bid first: Withdraw with Deception, rearguard division 3.
    game = apply(game, {"type": "bid", "side": 0, "maneuver": "withdraw", "stratagems": ["deception"],
                        "rearguard": 2})
    open_app(page, link(base_url, game))
    page.wait_for_selector("[data-testid=curtain]")
    assert "deception" not in page.evaluate(BOARD_HTML)  # (the Rules panel explains Deception to everyone)
    lift_curtain(page)                                  # the Zone Army's secret screen
    pick(page, "attack")
    advisor = page.locator("[data-testid=advisor]")
    page.wait_for_selector("[data-testid=advisor] table")  # worked out after the frame painted (issue 33)
    html = page.evaluate(BOARD_HTML)
    assert "deception" not in html   # AI-7: hidden means absent (the Zone general cannot declare it)
    found = ai.advice(replay(game), 1, "net")
    assert found == ai.advice(ai.start(ai.example_setup()), 1, "net")  # public information only
    assert advisor.locator("[data-testid=advice]").inner_text().startswith(found.recommendation())
    cells = advisor.locator("td.adv-cell")
    assert cells.count() == 36
    for i, mine in enumerate(found.own):
        for j in range(6):
            cell = found.grid[i][j]
            text = advisor.locator(f"td[data-cell='{mine.maneuver}.{j}'] .adv-cas").inner_text()
            assert text == f"{float(cell.inflicted):.1f} / {float(cell.taken):.1f}"
    assert advisor.locator("tr.on").get_attribute("data-row") == "attack"
    # Readable: the whole grid fits the width, and Declare stays on screen.
    box = advisor.locator("table").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    assert_on_screen(page, page.get_by_role("button", name="Declare in secret"))
    # Another aim: the recommendation follows the engine.
    tap(page, "[data-action='battle:aim'][data-arg=away]")
    page.wait_for_selector("[data-testid=advisor] table")
    away = ai.advice(replay(game), 1, "away")
    assert advisor.locator("[data-testid=advice]").inner_text().startswith(away.recommendation())
    tap(page, "[data-action='battle:advise'][data-arg=off]")
    assert page.locator("[data-testid=advisor] table").count() == 0
    assert_app_ok(page)


def test_the_app_general_bids_hidden_and_explains_after_the_reveal(page, base_url):
    setup = ai.example_setup()
    setup["armies"][1].update(controller="app", level="hard")
    game = new_game("battle", setup, None, 8)
    open_app(page, link(base_url, game))
    page.wait_for_selector("[data-testid=declared-1]")          # the app's general declared by itself
    expected = ai.app_bid(replay(game), 1, "hard", 8)
    root = page.locator("#app-battle")                # the whole page: its why is nowhere
    html = root.inner_html()
    assert expected["why"] not in html and "drew" not in html   # its bid and why are hidden
    held = full_game(page)
    assert held.actions[0] == expected                           # an ordinary recorded bid
    lift_curtain(page)
    assert expected["why"] not in root.inner_html()
    pick(page, "defend")
    page.get_by_role("button", name="Declare in secret").tap()
    page.get_by_role("button", name="Reveal both bids").tap()
    page.wait_for_selector("[data-testid=why-1]")
    assert expected["why"] in page.locator("[data-testid=why-1]").inner_text()
    assert page.locator("[data-testid=why-0]").count() == 0
    page.get_by_role("button", name="Roll the dice").tap()
    page.wait_for_selector("[data-testid=week-result]")
    assert expected["why"] in page.locator("[data-testid=week-why-1]").inner_text()
    assert_app_ok(page)


#: Issue 33: what each painted frame showed, sampled in every animation frame (the last moment
#: before the paint), and how often the grid was put in the page. ``window.__meanwhile`` (a
#: selector) is clicked, once, in the first frame that paints the staff officer's "working".
FRAMES = """() => { window.__frames = []; window.__grids = 0; window.__clicked = false;
  new MutationObserver(ms => { for (const m of ms) for (const n of m.addedNodes)
      if (n.nodeType === 1 && (n.matches('table.adv-grid') || n.querySelector('table.adv-grid'))) window.__grids++; })
    .observe(document.body, {childList: true, subtree: true});
  const sample = () => {
    const q = s => document.querySelector(s) !== null;
    const f = {form: q('[data-testid=bid-form]'), working: q('[data-testid=advisor-working]'),
               grid: q('[data-testid=advisor] table'), curtain: q('[data-testid=curtain]')};
    window.__frames.push(f);
    if (f.working && window.__meanwhile && !window.__clicked) {
      window.__clicked = true; document.querySelector(window.__meanwhile).click(); }
    requestAnimationFrame(sample); };
  requestAnimationFrame(sample); }"""


def _open_zone_army(page, base_url, meanwhile: str | None = None):
    game = new_game("battle", ai.example_setup(), None, 5)
    open_app(page, link(base_url, game))
    page.wait_for_selector("[data-testid=curtain]")
    page.evaluate(FRAMES)
    page.evaluate("(s) => { window.__meanwhile = s; }", meanwhile)
    page.wait_for_timeout(700)  # a real hand-over (lift_curtain), without waiting for the form
    page.locator("[data-testid=curtain] button").first.tap()
    return game


def test_the_advice_shows_its_frame_at_once_and_the_grid_when_ready(page, base_url):
    """Issue 33: lifting the curtain paints the bid form and the staff officer's frame
    ("working out the odds") before the grid is computed; the grid follows, put in once."""
    _open_zone_army(page, base_url)
    page.wait_for_selector("[data-testid=advisor] table")
    page.wait_for_timeout(200)  # a few more frames sampled
    frames = page.evaluate("window.__frames")
    first_form = next(i for i, f in enumerate(frames) if f["form"])
    assert frames[first_form]["working"] and not frames[first_form]["grid"]  # the frame, painted first
    assert any(f["grid"] for f in frames[first_form:])
    assert page.evaluate("window.__grids") == 1
    assert page.locator("[data-testid=advisor-working]").count() == 0
    assert_app_ok(page)


def test_a_tap_on_hide_while_the_grid_is_worked_out_is_honoured(page, base_url):
    """Issue 33: Hide tapped while the staff officer works: the curtain comes down and stays
    down, the grid never appears behind it; lifting it again brings the grid."""
    _open_zone_army(page, base_url, meanwhile="[data-action='battle:hide']")
    page.wait_for_function("window.__clicked")
    page.wait_for_selector("[data-testid=curtain]")
    page.wait_for_timeout(1500)  # long enough for the grid, had it been worked out
    assert page.evaluate("window.__clicked")
    assert page.locator("[data-testid=bid-form]").count() == 0
    assert page.evaluate("window.__grids") == 0
    assert not any(f["grid"] for f in page.evaluate("window.__frames"))
    lift_curtain(page)
    page.wait_for_selector("[data-testid=advisor] table")
    assert_app_ok(page)


def test_a_pick_while_the_grid_is_worked_out_is_kept_and_nothing_doubles(page, base_url):
    """Issue 33: a maneuver picked while the staff officer works is neither lost nor doubled:
    the grid arrives once, with that maneuver's row marked, and Declare is ready."""
    game = _open_zone_army(page, base_url, meanwhile="[data-action='battle:pick'][data-arg=defend]")
    page.wait_for_selector("[data-testid=advisor] table")
    assert page.evaluate("window.__clicked")
    assert page.locator("[data-testid=advisor] tr.on").get_attribute("data-row") == "defend"
    assert page.locator("[data-action='battle:pick'][data-arg=defend][aria-checked=true]").count() == 1
    assert page.evaluate("window.__grids") == 1
    page.get_by_role("button", name="Declare in secret").tap()
    page.wait_for_selector("[data-testid=curtain]")
    held = full_game(page)
    assert [(a["type"], a["maneuver"]) for a in held.actions] == [("bid", "defend")]  # one bid, as picked
    assert held.setup == game.setup
    assert_app_ok(page)
