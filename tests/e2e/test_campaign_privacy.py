"""What is hidden stays hidden on the campaign table (issue 21), in Chromium.

A spectator's copy says it is one, offers no move, no curtain, no record or roll, and
says what is true; opened from its link and reloaded, no card nobody has seen is
anywhere in the table's DOM (text, labels, ``data-card``). A solo campaign shows the
one player's hand without a curtain; the dummy's stays hidden.
"""

from __future__ import annotations

import re
from urllib.parse import urlparse

from engine import codec
from engine.cards import full_deck
from engine.game import replay

from .conftest import READY, TABLET_LANDSCAPE, TABLET_PORTRAIT, open_app
from .tablet import assert_app_ok, assert_on_screen
from .test_campaign import (
    check_matches_engine,
    record,
    start,
    status,
    take,
    to_the_table,
)

DECK = full_deck()


def hidden_cards(game):
    state = replay(game)
    return [c for c in DECK if c not in state.seen]


def table_dom(page) -> dict:
    """Everything the campaign table holds: its HTML (text and every attribute) and its cards."""
    return page.evaluate("""() => {
        const app = document.getElementById('app-campaign');
        return {html: app.outerHTML, text: app.innerText,
                cards: [...app.querySelectorAll('[data-card]')].map(e => e.dataset.card)};
    }""")


def assert_no_hidden_card(page, game) -> None:
    dom = table_dom(page)
    for card in hidden_cards(game):
        assert str(card) not in dom["cards"], f"the hidden {card} is on the table"
        assert card.label not in dom["html"], f"the hidden {card.label} is in the table's HTML"
        assert card.name not in dom["html"], f"the hidden {card.name} is in the table's HTML"


def test_the_spectator_copy_says_so_offers_no_move_and_keeps_hidden_cards_out_through_a_reload(
        page, base_url, new_device):
    page.set_viewport_size(TABLET_LANDSCAPE)
    game = start(page, base_url, seed=91)
    game = record(page, game, 0, 9)
    game = take(page, game, str(replay(game).pool[1]))
    game = record(page, game, 1, 3)
    game = take(page, game, "stake")
    page.get_by_role("button", name="Share").tap()
    public = page.locator("[data-testid=share-public]").input_value()
    payload = urlparse(public).fragment.split("g=", 1)[1]
    copy = codec.decode_share(payload)
    assert copy.setup["spectator"] is True and copy.seed == 0

    other = new_device(viewport=TABLET_PORTRAIT, has_touch=True)
    try:
        guest = other.new_page()
        open_app(guest, public, timeout=90_000)
        guest.wait_for_selector("[data-testid=table]")
        for reloaded in (False, True):
            if reloaded:
                guest.reload()
                guest.wait_for_selector(READY, state="attached", timeout=90_000)
                guest.wait_for_selector("[data-testid=table]")
            banner = guest.locator("[data-testid=spectator-banner]")
            assert banner.count() == 1 and "Spectator view" in banner.inner_text()
            assert_on_screen(guest, banner)
            # What is true: battle 3's stakes are out, the battle is being fought; no move is offered.
            assert status(guest) == "Battle 3: the stakes are out and the battle is fought on the tabletop (CMP-3)"
            assert guest.locator("[data-testid=spectator]").count() == 1
            table = guest.locator("#app-campaign [data-testid=table]")
            for selector in ("[data-testid=curtain]", "[data-testid=hand]", "[data-testid=record]",
                             "[data-action^='campaign:']", "button.card", "[data-testid=treaty-odds]"):
                assert table.locator(selector).count() == 0, selector
            for name in ("Roll 2d6", "To the negotiating table", "Anna won", "Drawn battle"):
                assert guest.get_by_role("button", name=name).count() == 0
                assert guest.get_by_role("radio", name=name).count() == 0
            assert [guest.locator(f"[data-testid=count-{p}]").inner_text() for p in (0, 1)] == \
                [f"{replay(game).card_count(p)} cards" for p in (0, 1)]
            assert_no_hidden_card(guest, game)
            assert_app_ok(guest)
    finally:
        other.close()


def test_the_spectator_copy_at_the_end_shows_the_table_and_no_rematch(page, base_url, new_device):
    page.set_viewport_size(TABLET_LANDSCAPE)
    game = to_the_table(page, start(page, base_url, seed=5))
    page.get_by_role("button", name="Share").tap()
    public = page.locator("[data-testid=share-public]").input_value()
    other = new_device(viewport=TABLET_PORTRAIT, has_touch=True)
    try:
        guest = other.new_page()
        open_app(guest, public, timeout=90_000)
        guest.wait_for_selector("[data-testid=result]")
        st = replay(game)
        assert guest.locator("[data-testid=end-message]").inner_text() == st.result
        assert guest.locator("[data-testid=explanation]").inner_text() == st.treaty.explanation
        assert guest.get_by_role("button", name="New campaign, same players").count() == 0
        assert guest.locator("[data-testid=spectator-banner]").count() == 1
        assert_no_hidden_card(guest, game)
        assert_app_ok(guest)
    finally:
        other.close()


def test_a_solo_campaign_shows_the_players_hand_without_a_curtain(page, base_url):
    page.set_viewport_size(TABLET_PORTRAIT)
    names = ("Anna", "Dummy")
    game = start(page, base_url, seed=3, names=names, solo=True)
    st = replay(game)
    assert page.locator("[data-testid=curtain]").count() == 0
    hand = page.locator("[data-testid=hand]")
    assert hand.count() == 1 and "Anna's cards — 6" in hand.inner_text()
    assert hand.get_by_role("button", name="Hide hand").count() == 0
    shown = set(page.locator("[data-testid=hand-cards] .card").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert shown == {str(c) for c in st.cards_of(0)}
    # The dummy's cards stay hidden (CMP-9): not one of them is on the table.
    dummy = {str(c) for c in st.hands[1]}
    assert not dummy & set(table_dom(page)["cards"])
    assert page.locator("[data-testid=dummy-hand]").count() == 1
    # After a battle the hand is still open: no curtain comes back.
    game = record(page, game, 0, 3, names)
    game = take(page, game, "stake")
    assert page.locator("[data-testid=curtain]").count() == 0 and page.locator("[data-testid=hand]").count() == 1
    check_matches_engine(page, game)
    assert re.search(r"Anna's cards — 7", page.locator("[data-testid=hand]").inner_text())
    assert_app_ok(page)
