"""The conflict table's spectator copy on the built site (issue 21): it says it is one,
offers no move, says what is true, and holds no hidden card, through a reload.

The host plays the worked example with the app deck (seed 7) into a round; the guest,
in a browser of its own, opens the spectator link. Hidden: every card of both decks
that was not played while the game stood where it was shared (the hands, the
discards, the deck order), as its label ("9♥"), its name ("nine of hearts") and its
token (``data-card="9H"``), anywhere in the page outside the static Rules panel.
"""

from __future__ import annotations

import random
import re

import pytest

from engine import codec, conflict
from engine import game as games
from engine.cards import Card

from .conftest import READY, TABLET_LANDSCAPE, open_app
from .tablet import TABLET_IDS, TABLET_SIZES, assert_app_ok, assert_on_screen
from .test_conflict import keep_all, start_example

#: Buttons a spectator must never be offered (moves, curtains, the app's turn).
MOVES = ("conflict:reveal", "conflict:play", "conflict:pick", "conflict:pass", "conflict:pass-confirmed",
         "conflict:discard", "conflict:select", "conflict:select-unusable", "conflict:next-round",
         "conflict:call", "conflict:call-confirmed", "conflict:table-player", "conflict:hide")

#: Every text node and every attribute of the page, one a line, outside the static Rules
#: panels: a card named in a sentence ("the 9♥") is in one text node, a card drawn as a
#: card has its name and token in attributes (aria-label, data-card).
PAGE = """() => {
    const out = [];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walk.currentNode; node; node = walk.nextNode()) {
        if (node.nodeType === Node.TEXT_NODE) {
            if (!node.parentElement.closest('[id^=rules-]')) out.push(node.data);
        } else if (!node.closest('[id^=rules-]')) {
            for (const attr of node.attributes) out.push(`${attr.name}="${attr.value}"`);
        }
    }
    return out.join('\\n');
}"""


def hidden_cards(game: games.Game) -> set[Card]:
    """Every card of the decks not played while the game stands at its position."""
    rng = random.Random(game.seed)
    state = conflict.start(game.setup, game.rules, rng)
    seen: set[Card] = set()
    for action in game.actions:
        for pile in state.draw_piles:
            seen.update(pile)
        for hands in state.hands:
            for hand in hands:
                seen.update(hand)
        state = conflict.step(state, action, game.rules, rng)
    played = {Card.parse(a["card"]) for a in game.actions[:game.position] if a["type"] == "play"}
    return seen - played


def share_links(page) -> tuple[str, str]:
    page.get_by_role("button", name="Share").click()
    full = page.locator("[data-testid=share-full]").input_value()
    public = page.locator("[data-testid=share-public]").input_value()
    page.get_by_role("button", name="Share").click()
    return full, public


def assert_spectator_screen(guest, hidden: set[Card]) -> None:
    """Banner, no move anywhere, no hidden card in the page."""
    assert guest.locator("[data-testid=spectator-banner]").is_visible()
    assert "Spectator view" in guest.locator("[data-testid=spectator-banner]").inner_text()
    for testid in ("curtain", "hand", "picker", "app-turn", "confirm-pass", "confirm-call"):
        assert guest.locator(f"[data-testid={testid}]").count() == 0, testid
    for action in MOVES:
        assert guest.locator(f"#app-conflict [data-action='{action}']").count() == 0, action
    page = guest.evaluate(PAGE)
    for card in hidden:
        assert card.label not in page, f"hidden {card.label} in the spectator's page"
        assert card.name not in page, f"hidden {card.name} in the spectator's page"
        assert f'data-card="{card}"' not in page, f"hidden {card} in the spectator's page"
    assert_app_ok(guest)


def test_a_spectator_link_says_so_offers_no_move_and_shows_no_hidden_card_after_a_reload(page, base_url, new_device):
    start_example(page, base_url)
    keep_all(page)
    for _ in range(2):  # the zombies open, the League answers
        page.locator("[data-testid=curtain] button").click()
        page.locator("[data-testid=hand] .card.playable").first.tap()
    full, public = share_links(page)
    game = codec.decode_share(full.split("g=", 1)[1])
    hidden = hidden_cards(game)
    assert len(hidden) > 30 and all(a["type"] != "discard" for a in codec.decode_share(public.split("g=", 1)[1]).actions)
    current = page.locator("[data-testid=current-card] .card").get_attribute("data-card")
    other = new_device(viewport=TABLET_LANDSCAPE, has_touch=True)
    try:
        guest = other.new_page()
        open_app(guest, public)
        guest.wait_for_selector("[data-testid=table]")
        # What is true: the card on the table, whose turn, that this is a snapshot.
        assert guest.locator("[data-testid=current-card] .card").get_attribute("data-card") == current
        wait = guest.locator("[data-testid=spectator-wait]").inner_text()
        assert re.search(r"Next, Zombie invasion plays on the .+ or passes", wait), wait
        assert "as it was when its link was made" in wait
        assert_spectator_screen(guest, hidden)
        assert_on_screen(guest, guest.locator("[data-testid=spectator-banner]"))
        guest.reload()
        guest.wait_for_selector(READY, state="attached")
        guest.wait_for_selector("[data-testid=table]")
        assert_spectator_screen(guest, hidden)
        # The saved copy holds no hidden card either (what a reload restores).
        stored = guest.evaluate("Object.keys(localStorage).filter(k => k.startsWith('ct:v1:slot:'))"
                                ".map(k => localStorage.getItem(k)).join('\\n')")
        assert stored and all(f'"{card}"' not in stored for card in hidden)
    finally:
        other.close()


def test_a_table_deck_spectator_copy_offers_no_card_picker_and_no_pass(page, base_url, new_device):
    start_example(page, base_url, deck="table")
    page.locator("[data-testid=picker] [data-card='9S']").tap()
    _, public = share_links(page)
    other = new_device(viewport=TABLET_LANDSCAPE, has_touch=True)
    try:
        guest = other.new_page()
        open_app(guest, public)
        guest.wait_for_selector("[data-testid=table]")
        assert guest.locator("[data-testid=picker]").count() == 0
        assert guest.get_by_role("button", name=re.compile("Cannot play")).count() == 0
        assert "Purple Dragon League plays on the 9♠ or passes" in guest.locator(
            "[data-testid=spectator-wait]").inner_text()
        assert_spectator_screen(guest, set())
    finally:
        other.close()


def test_between_rounds_a_spectator_sees_no_next_round_and_no_call(page, base_url, new_device):
    start_example(page, base_url, deck="table")
    page.locator("[data-testid=picker] [data-card='9S']").tap()
    page.get_by_role("button", name="Pass — end the round").tap()
    page.wait_for_selector("[data-testid=call]")
    _, public = share_links(page)
    other = new_device(viewport=TABLET_LANDSCAPE, has_touch=True)
    try:
        guest = other.new_page()
        open_app(guest, public)
        guest.wait_for_selector("[data-testid=result]")
        assert guest.get_by_role("button", name=re.compile("Start round|End the conflict")).count() == 0
        assert ("Next, Purple Dragon League opens round 2, unless the table ends the conflict here (OIC-19)."
                in guest.locator("[data-testid=status]").inner_text())
        assert "as it was when its link was made" in guest.locator("[data-testid=spectator-wait]").inner_text()
        assert_spectator_screen(guest, set())
    finally:
        other.close()


@pytest.mark.parametrize("size", TABLET_SIZES, ids=TABLET_IDS)
def test_the_spectator_banner_and_where_the_table_stands_fit_every_tablet(page, base_url, new_device, size):
    start_example(page, base_url, deck="table")
    page.locator("[data-testid=picker] [data-card='9S']").tap()
    _, public = share_links(page)
    other = new_device(viewport=size, has_touch=True)
    try:
        guest = other.new_page()
        open_app(guest, public)
        guest.wait_for_selector("[data-testid=spectator-wait]")
        assert_on_screen(guest, guest.locator("[data-testid=spectator-banner]"),
                         guest.locator("[data-testid=status]"), guest.locator("[data-testid=current-card]"),
                         guest.locator("[data-testid=spectator-wait]"))
    finally:
        other.close()
