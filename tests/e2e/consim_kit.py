"""Helpers of the CONSIM e2e tests (tests/e2e/test_consim*.py): games made by the engine
and opened on the table by their full link, storage read and written as a hand would."""

from __future__ import annotations

import json

from engine import codec
from engine import consim as cs
from engine.game import apply, new_game, replay

from .conftest import READY

ROUTE = "#/initiative"
PATIENCE = 120_000
#: web.views.consim keys (the view imports the browser, so they are repeated here).
DRAFT_KEY = "ct:v1:draft:initiative"
TEMPLATES_KEY = "ct:v1:initiative:templates"
SIDES_KEY = "ct:v1:initiative:sides"
TICKS_KEY = "ct:v1:initiative:ticks"
VIEW_KEY = "ct:v1:initiative:view"
#: web.parts.curtain.SETTLE_MS: the TapGuard window for a finger's second tap at the same spot.
DOUBLE_TAP_MS = 450


def man(name, side=0, *, training="untrained", weapon=None, player=False, grain="individual"):
    return {"name": name, "side": side, "grain": grain, "training": training, "weapon": weapon or [],
            "player": player}


#: The rules of a game whose cards (a deal's "cards") and dice (a shot's or an end of round's
#: "dice") a test enters: the table's own deck and dice (HR-CS-6, HR-CS-7). The app's are
#: never entered (issue 35); :data:`OWN_DECK` keeps the app's dice for a roll on the table.
OWN = {"deck": cs.DECK_TABLE, "dice": cs.DICE_TABLE}
OWN_DECK = {"deck": cs.DECK_TABLE}


def make(setup, *actions, seed=2**127 + 99, rules=None):
    """A game of ``setup`` with ``rules`` (default: the app's deck and dice), ``actions`` applied."""
    g = new_game(cs.KIND, setup, rules, seed=seed)
    for action in actions:
        g = apply(g, action)
    return g


def link(base_url: str, game) -> str:
    return f"{base_url}{ROUTE}?g={codec.encode_share(game)}"


def open_at(page, url: str) -> None:
    page.set_default_timeout(PATIENCE)
    page.goto(url)
    page.wait_for_selector(READY, state="attached", timeout=PATIENCE)


def reload(page) -> None:
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=PATIENCE)


def saved_games(page) -> list:
    raw = page.evaluate("""() => Object.keys(localStorage).filter(k => k.startsWith('ct:v1:slot:initiative-'))
                              .map(k => localStorage.getItem(k))""")
    return [codec.loads(r)[0] for r in raw]


def open_game(page):
    """The game the tracker holds now (the last one the app saved)."""
    key = page.evaluate("() => localStorage.getItem('ct:v1:last:initiative')")
    raw = page.evaluate("k => localStorage.getItem('ct:v1:slot:' + k)", key) if key else None
    if raw is None:
        games = saved_games(page)
        assert len(games) == 1, f"{len(games)} initiative saves"
        return games[0]
    return codec.loads(raw)[0]


def put(page, key: str, value) -> None:
    """Write ``value`` (JSON) under ``key`` as a hand edit would."""
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, json.dumps(value)])


def get(page, key: str):
    raw = page.evaluate("k => localStorage.getItem(k)", key)
    return None if raw is None else json.loads(raw)


def dom_text(page) -> str:
    """Everything of the tracker's route a person or a script could read: text and markup."""
    return page.locator("#app-initiative").evaluate("el => el.innerText + '\\n' + el.outerHTML")


def state_of(page):
    return replay(open_game(page))


def wait_settle(page) -> None:
    """A person's pause between taps that move the round (the double-tap guard)."""
    page.wait_for_timeout(DOUBLE_TAP_MS + 80)


def rewrite_slot(page, game) -> None:
    """Replace the open save's game, as another tab of this device would (then reload)."""
    key = page.evaluate("() => localStorage.getItem('ct:v1:last:initiative')")
    data = json.loads(page.evaluate("k => localStorage.getItem('ct:v1:slot:' + k)", key))
    fresh = json.loads(codec.dumps(game))
    data.update({k: fresh[k] for k in ("actions", "position")})
    page.evaluate("([k, v]) => localStorage.setItem('ct:v1:slot:' + k, v)", [key, json.dumps(data)])


#: static/shell.js HOLD_MS: how long the Observer's view's button is held (issue 34 item 7).
HOLD_MS = 1000


def hold(page, locator, ms: int = HOLD_MS + 300) -> None:
    """Press ``locator`` and keep it pressed ``ms`` milliseconds (a finger's press and hold)."""
    box = locator.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(ms)
    page.mouse.up()


def leave_players_view(page) -> None:
    """Back to the Observer's view: "Observer's view…", then hold "Hold to show everything"."""
    page.get_by_role("button", name="Observer's view…").tap()
    hold(page, page.get_by_role("button", name="Hold to show everything"))
    page.wait_for_selector("[data-testid=players-view]", state="detached")
