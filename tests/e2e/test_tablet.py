"""The tablet battery (issue 7) on the conflict table, at the four tablet sizes.

Every screen of a conflict (setup, discard, a revealed hand, the table-deck picker,
a round's result) gets the kit's "every field, then every button" run: each field is
edited and, while it keeps focus, a button is tapped the way iPad Safari taps it.
"""

from __future__ import annotations

import pytest

from engine import codec, conflict
from engine.game import apply, new_game, replay

from .conftest import open_app
from .tablet import TABLET_IDS, TABLET_SIZES, assert_app_ok, every_field_then_every_button


def game_link(screen: str, seed: int = 7) -> str:
    """A share payload of the Purple Dragon example at the start of ``screen``."""
    setup = conflict.purple_dragon_setup()
    if screen == "picker":
        setup["deck"] = "table"
    game = new_game("conflict", setup, seed=seed)
    if screen in ("hand", "result"):
        while replay(game).phase == "discard":
            st = replay(game)
            s, p = next((s, p) for s in (st.aggressor, 1 - st.aggressor)
                        for p, done in enumerate(st.discarded[s]) if not done)
            game = apply(game, {"type": "discard", "side": s, "player": p, "cards": []})
    if screen == "result":
        while replay(game).phase == "play":
            legal = conflict.legal_plays(replay(game))
            if legal:
                game = apply(game, {"type": "play", "player": legal[0][0], "card": str(legal[0][1])})
            else:
                game = apply(game, {"type": "pass"})
    return codec.encode_share(game)


def open_screen(page, base_url: str, screen: str, link: str | None) -> None:
    """Bring the conflict route to ``screen`` without reloading the page."""
    if screen == "setup":
        if page.locator("[data-testid=setup]").count() == 0:
            if page.locator("[aria-label='Saved games']").count() == 0:
                page.get_by_role("button", name="Saves").click()
            page.get_by_role("button", name="New game").click()
        page.wait_for_selector("[data-testid=setup]")
        return
    page.goto(f"{base_url}#/conflict?g={link}")  # a hash change: the page stays, the link opens as a save
    page.wait_for_selector("[data-testid=table]")
    if screen in ("discard", "hand"):
        page.locator("[data-testid=curtain] button").click()  # waits until the curtain accepts taps
        page.wait_for_selector("[data-testid=hand]")
    # A text field on every screen: the open game's name, being renamed.
    if page.locator("[aria-label='Saved games']").count() == 0:
        page.get_by_role("button", name="Saves").click()
    page.locator(".save-row.current").get_by_role("button", name="Rename").click()
    page.wait_for_selector("#rename-input")


SCREENS = ("setup", "discard", "hand", "picker", "result")


@pytest.mark.parametrize("size", TABLET_SIZES, ids=TABLET_IDS)
def test_every_field_then_every_button_on_every_conflict_screen(page, base_url, size):
    page.set_viewport_size(size)
    open_app(page, base_url + "#/conflict")
    page.get_by_role("button", name="Load the Purple Dragon League example").click()
    tapped = {}
    for screen in SCREENS:
        link = None if screen == "setup" else game_link(screen)
        open_screen(page, base_url, screen, link)
        tapped[screen] = every_field_then_every_button(
            page, "#app-conflict", reset=lambda: open_screen(page, base_url, screen, link),
            # The first size gets the long run; the others a shorter one (the same code,
            # another layout: what differs between sizes is what is visible).
            per_action=2 if size == TABLET_SIZES[0] else 1, max_pairs=20 if size == TABLET_SIZES[0] else 9)
        assert_app_ok(page)
    assert all(n >= 6 for n in tapped.values()), tapped

