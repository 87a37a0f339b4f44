"""Organizations In Conflict in WebKit: the example played by taps, and Safari's
edit-then-tap (issue 7, defect 1) on the setup screen.

The round is played with WebDriver clicks (real pointer events through WebKit's
hit-testing, after scrolling the element into view); the edit-then-tap cases use the
kit's ``safari_tap``, which leaves the edited field focused as iPad Safari does.
"""

from __future__ import annotations

import re
import time

from .conftest import clear_errors, goto_route, set_size, wait_for
from .kit import (
    assert_app_ok,
    assert_on_screen,
    button,
    double_tap,
    edit_then_tap,
    field,
    tap,
    text_of,
    type_into,
    visible,
)

SEED = "7"


def open_setup(driver) -> None:
    """The conflict route's setup with the source's example loaded (an open game is closed, it stays saved)."""
    goto_route(driver, "conflict")
    if visible(driver, "#app-conflict [data-testid=table]"):
        button(driver, "Saves").click()
        button(driver, "New game").click()
    wait_for(driver, "return document.querySelector('#app-conflict [data-testid=setup]')",
             message="the setup screen")
    button(driver, "Load the Purple Dragon League example").click()
    wait_for(driver, "return document.querySelector(\"[data-field='setup:sides.0.name']\").value"
                     " === 'Purple Dragon League'", message="the example's sides")


def start_example(driver, seed: str = SEED) -> None:
    open_setup(driver)
    type_into(driver, field(driver, "seed"), seed)
    button(driver, "Start the conflict").click()
    wait_for(driver, "return document.querySelector('#app-conflict [data-testid=table]')", message="the table")


def ratings(driver) -> dict[str, str]:
    return driver.execute_script("""
        const out = {};
        for (const s of [0, 1]) for (const suit of 'SHDC') {
          const el = document.querySelector(`[data-testid=rating-${s}-${suit}]`);
          out[`${s}${suit}`] = el ? el.innerText.trim() : null;
        }
        return out""")


def take_turns_until_result(driver, limit: int = 80) -> int:
    """Tap through the curtain and the hands (discards kept, first playable card played,
    else "Cannot play") until the round's result shows; returns the taps."""
    taps = 0
    while not visible(driver, "#app-conflict [data-testid=result]"):
        assert taps < limit, f"no result after {limit} taps: {text_of(driver, '[data-testid=status]')!r}"
        curtain = visible(driver, "#app-conflict [data-testid=curtain] button")
        keep = visible(driver, "#app-conflict [data-testid=hand] button")
        playable = visible(driver, "#app-conflict [data-testid=hand] .card.playable")
        # tap() scrolls to the middle: WebKitWebDriver scrolls only to an edge, where the
        # sticky action bar would take the tap. A fresh curtain ignores taps for 0.45 s.
        if curtain:
            time.sleep(0.5)
            tap(driver, curtain[0])
        elif any(b.text == "Keep all cards" for b in keep):
            tap(driver, button(driver, "Keep all cards"))
        elif playable:
            tap(driver, playable[0])
        else:
            tap(driver, button(driver, "Pass — end the round"))
        taps += 1
    return taps


def test_oic_7_example_round_played_by_taps(app):
    driver = app
    start_example(driver)
    assert "discard" in text_of(driver, "[data-testid=status]")
    before = ratings(driver)
    assert all(v and v.isdigit() for v in before.values()), before
    taps = take_turns_until_result(driver)
    assert taps >= 4  # two kept hands behind two curtains, then at least one card each way

    result = visible(driver, "#app-conflict [data-testid=result]")[0]
    explanation = text_of(driver, "[data-testid=explanation]")
    side, suit = result.get_attribute("data-change-side"), result.get_attribute("data-change-suit")
    delta, after = int(result.get_attribute("data-delta")), result.get_attribute("data-power-after")
    # OIC-15: the result explains itself, and the rating on screen changed by it.
    assert re.search(r"last card [♠♥♦♣] (=|≠) first card [♠♥♦♣]: .+ (gains|loses) 1 in \w+; .+ \d+ → \d+",
                     explanation), explanation
    now = ratings(driver)
    assert now[f"{side}{suit}"] == after
    assert int(after) == int(before[f"{side}{suit}"]) + delta
    assert {k: v for k, v in now.items() if k != f"{side}{suit}"} == \
        {k: v for k, v in before.items() if k != f"{side}{suit}"}

    # Undo the last card by a tap: the round is open again and the rating is back.
    tap(driver, button(driver, "↶ Undo"))
    wait_for(driver, "return !document.querySelector('#app-conflict [data-testid=result]')",
             message="the result to go after undo")
    assert ratings(driver) == before
    assert_app_ok(driver)


# ---------------------------------------------------------------- defect 1: edit, then tap

def test_edit_side_name_then_safari_tap_start(app):
    driver = app
    open_setup(driver)
    name = field(driver, "setup:sides.0.name")
    edit_then_tap(driver, name, "Purple Dragon League HQ", button(driver, "Start the conflict"))
    assert_app_ok(driver)
    wait_for(driver, "return document.querySelector('#app-conflict [data-testid=table]')",
             message="the table after Start")
    assert "Purple Dragon League HQ" in driver.find_element("css selector", "#app-conflict").text


def test_edit_location_then_safari_tap_saves(app):
    driver = app
    open_setup(driver)
    location = field(driver, "setup:sides.0.players.0.organizations.1.location")
    edit_then_tap(driver, location, "the firehouse", button(driver, "Saves"))
    assert_app_ok(driver)
    assert visible(driver, "[aria-label='Saved games']"), "the Saves drawer did not open"
    assert field(driver, "setup:sides.0.players.0.organizations.1.location").get_property("value") == "the firehouse"


def test_edit_seed_then_safari_tap_remove_player(app):
    driver = app
    open_setup(driver)
    button(driver, "+ Player").click()  # the first side's: now it has a second player
    wait_for(driver, "return document.querySelectorAll('.side-a .player-block').length === 2",
             message="a second player on side 1")
    remove = visible(driver, ".side-a [data-action='conflict:remove-player']")[-1]
    edit_then_tap(driver, field(driver, "seed"), "11", remove)
    assert_app_ok(driver)
    assert len(visible(driver, ".side-a .player-block")) == 1
    assert field(driver, "seed").get_property("value") == "11"



# ---------------------------------------------------------------- defect 3: a quick double tap

def test_double_tap_on_a_card_never_reveals_the_next_hand(app):
    """Seed 11 puts the next side's "Show … hand" where the League's played card was."""
    driver = app
    start_example(driver, seed="11")
    played = 0
    while not visible(driver, "#app-conflict [data-testid=result]") and played < 8:
        curtain = visible(driver, "#app-conflict [data-testid=curtain] button")
        if curtain:
            curtain[0].click()
            continue
        if any(b.text == "Keep all cards" for b in visible(driver, "#app-conflict [data-testid=hand] button")):
            button(driver, "Keep all cards").click()
            continue
        playable = visible(driver, "#app-conflict [data-testid=hand] .card.playable")
        if not playable:
            button(driver, "Pass — end the round").click()
            continue
        hits = double_tap(driver, playable[0])
        played += 1
        assert not visible(driver, "#app-conflict [data-testid=hand]"), \
            f"card {played}: the second tap of a double tap hit {hits[1]!r} and a hand is open"
    assert played >= 2
    assert_app_ok(driver)


# ---------------------------------------------------------------- issue 21: a spectator's copy

def _open_link(driver, game) -> None:
    """Open ``game`` as a shared link in the same document (a hash change)."""
    from engine import codec

    driver.execute_script("location.hash = arguments[0]", "#/conflict?g=" + codec.encode_share(game))
    wait_for(driver, "return document.querySelector('#app-conflict [data-testid=table]')"
                     " && !location.hash.includes('g=')", message="the shared game")


def _spectator_of_a_game_in_play():
    """The worked example with the app deck (seed 7), both hands kept, the zombies' first card."""
    from engine import conflict
    from engine.game import apply, new_game, replay

    game = new_game("conflict", conflict.purple_dragon_setup(), seed=7)
    for side in (1, 0):
        game = apply(game, {"type": "discard", "side": side, "player": 0, "cards": []})
    player, card = conflict.legal_plays(replay(game))[0]
    game = apply(game, {"type": "play", "player": player, "card": str(card)})
    return game, conflict.public_game(game)


def test_a_spectator_copy_says_so_and_offers_no_move_nor_hidden_card(app):
    from engine.cards import full_deck
    from engine.game import replay

    driver = app
    game, copy = _spectator_of_a_game_in_play()
    _open_link(driver, copy)
    banner = visible(driver, "[data-testid=spectator-banner]")
    assert banner and "Spectator view" in banner[0].text
    assert_on_screen(driver, banner[0])
    for testid in ("curtain", "hand", "picker", "app-turn"):
        assert not visible(driver, f"#app-conflict [data-testid={testid}]"), testid
    moves = driver.execute_script(
        "return [...document.querySelectorAll('#app-conflict [data-action^=\"conflict:\"]')]"
        ".map(b => b.dataset.action).filter(a => !['conflict:rematch'].includes(a))")
    assert moves == [], moves
    assert "Next, Purple Dragon League plays on the" in text_of(driver, "[data-testid=spectator-wait]")
    played = {play.card for play in replay(game).chain}
    # The conflict table (the other tables of this shared test session hold their own games).
    page = driver.execute_script("const c = document.querySelector('#app-conflict').cloneNode(true);"
                                 "c.querySelectorAll('[id^=rules-]').forEach(e => e.remove());"
                                 "return c.innerHTML + c.innerText")
    for card in full_deck():
        if card not in played:
            assert card.name not in page and f'data-card="{card}"' not in page, card
    # A reload keeps the copy a spectator's copy.
    driver.refresh()
    wait_for(driver, "return document.documentElement.dataset.ready === 'true'"
                     " && document.querySelector('#app-conflict [data-testid=table]')", timeout=120,
             message="the app after a reload")
    assert visible(driver, "[data-testid=spectator-banner]")
    assert not visible(driver, "#app-conflict [data-testid=picker]")
    clear_errors(driver)  # a new document: the error hook again
    assert_app_ok(driver)


# ---------------------------------------------------------------- OIC-19: calling a conflict

def test_oic_19_end_the_conflict_here_by_taps(app):
    driver = app
    for size in ((1024, 768), (768, 1024)):
        set_size(driver, *size)
        open_setup(driver)
        tap(driver, driver.find_element("css selector", "[data-field='setup:deck'][value='table']"))
        type_into(driver, field(driver, "seed"), SEED)
        button(driver, "Start the conflict").click()
        wait_for(driver, "return document.querySelector('#app-conflict [data-testid=picker]')", message="the picker")
        tap(driver, driver.find_element("css selector", "[data-testid=picker] [data-card='9S']"))
        tap(driver, button(driver, "Pass — end the round"))
        wait_for(driver, "return document.querySelector('[data-testid=call]')", message="End the conflict here")
        assert "Zombie invasion is ahead, 31 to 26" in text_of(driver, "[data-testid=call-preview]")
        tap(driver, button(driver, "End the conflict here…"))
        confirm = wait_for(driver, "return document.querySelector('[data-testid=confirm-call]')", message="the question")
        assert_on_screen(driver, confirm, button(driver, "End the conflict"), button(driver, "Keep fighting"))
        tap(driver, button(driver, "End the conflict"))
        wait_for(driver, "return document.querySelector('[data-testid=result][data-ending=called]')",
                 message="the called result")
        assert "the table ended the conflict after 1 round (1 day)" in text_of(driver, "[data-testid=end-message]")
        assert "After round 1: the table ended the conflict." in text_of(driver, "[data-testid=log-called]")
        assert_app_ok(driver)
