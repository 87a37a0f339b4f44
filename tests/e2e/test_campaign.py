"""The campaign table (issue 13) on the built site, tapped as players would.

Every flow is mirrored on the engine: the test applies the same actions to an
``engine.game`` copy of the campaign (same seed) and checks that the table shows
what the engine says (stakes, odds, dice, the treaty and its winner).
"""

from __future__ import annotations

import json
import re
import time
from urllib.parse import urlparse

import pytest

from engine import campaign as cmp
from engine import codec
from engine.game import apply, new_game, replay

from .conftest import READY, TABLET_LANDSCAPE, TABLET_PORTRAIT, open_app
from .tablet import (
    TABLET_IDS,
    TABLET_SIZES,
    assert_app_ok,
    assert_no_traceback,
    assert_on_screen,
    double_tap,
    edit_then_tap,
    every_field_then_every_button,
)

SEED = 20261130
VIEWPORTS = [TABLET_PORTRAIT, TABLET_LANDSCAPE]
VIEWPORT_IDS = ["768x1024", "1024x768"]
LINKS: dict[str, int] = {}


def start(page, base_url, seed=SEED, names=("Anna", "Ben"), solo=False):
    open_app(page, base_url + "#/campaign", timeout=90_000)  # two cores shared: start-up can be slow
    page.wait_for_selector("[data-testid=setup]")
    if solo:
        page.get_by_label(re.compile("Solo against the dummy")).check()
    page.locator("[data-field='campaign:name0']").fill(names[0])
    page.locator("[data-field='campaign:name1']").fill(names[1])
    page.locator("[data-field=seed]").fill(str(seed))
    page.get_by_role("button", name="Start the campaign").tap()
    page.wait_for_selector("[data-testid=table]")
    game = new_game("campaign", {"players": list(names), "dummy": solo}, seed=seed)
    return game


def reveal(page, name: str) -> None:
    """Tap the curtain until the hand shows (a fresh curtain ignores taps for a moment)."""
    for _ in range(30):
        page.get_by_role("button", name=f"Show {name}'s hand").tap()
        if page.locator("[data-testid=hand]").count():
            return
        time.sleep(0.1)
    raise AssertionError("the hand did not open")


def status(page) -> str:
    return page.locator("[data-testid=status]").inner_text()


def stakes(page) -> list[str | None]:
    return [page.locator(f"[data-testid=stake-{p}] .card").first.get_attribute("data-card") for p in (0, 1)]


def main_action(page):
    """The control the table waits for now (CMP-3 … CMP-7)."""
    phase = page.locator("[data-testid=table]").get_attribute("data-phase")
    return {"battle": page.locator("[data-testid=record] .winner-picks"),
            "spoils": page.locator("[data-testid=spoils] button.card").first,
            "exhaustion": page.get_by_role("button", name="Roll 2d6"),
            "exhausted": page.get_by_role("button", name="To the negotiating table"),
            "over": page.locator("[data-testid=result] h2")}[phase]


def check_on_screen(page, hand=True):
    """Current stakes, the hand (curtain or cards) and the main action, without scrolling."""
    page.evaluate("window.scrollTo(0, 0)")
    hands = page.locator("[data-testid=hand] [data-testid=hand-cards], [data-testid=curtain] button")
    assert_on_screen(page, page.locator("[data-testid=stake-0]"), page.locator("[data-testid=stake-1]"),
                     main_action(page), *([hands.first] if hand else []))


def mirror_state(game):
    return replay(game)


def check_matches_engine(page, game):
    st = replay(game)
    assert status(page) == cmp.status(st)
    if st.phase in ("battle", "spoils"):
        assert stakes(page) == [str(s) for s in st.stakes]
    assert page.locator("[data-testid=pool] .card").evaluate_all("els => els.map(e => e.dataset.card)") == \
        [str(c) for c in st.pool]
    for p in (0, 1):
        count = st.card_count(p)
        assert page.locator(f"[data-testid=count-{p}]").inner_text() == f"{count} card{'s' if count != 1 else ''}"


def record(page, game, winner: int | None, troops: int | None = None, names=("Anna", "Ben")):
    label = "Drawn battle" if winner is None else f"{names[winner]} won"
    page.get_by_role("radio", name=label).tap()
    if troops is not None:
        page.locator("#campaign-troops").fill(str(troops))
        decisive = page.locator("[data-testid=decisive]").inner_text()
        assert decisive.startswith("Decisive") == (troops >= 8)  # CMP-3
    page.locator("[data-action='campaign:record']").tap()
    action = {"type": "battle", "winner": winner}
    if winner is not None:
        action["troops"] = troops
    return apply(game, action)


def take(page, game, which: str):
    """Tap a spoils card: "stake", or a pool card token (CMP-4)."""
    st = replay(game)
    choices = cmp.spoils_choices(st)
    page.locator(f"[data-testid=spoils] button[data-action='campaign:take'][data-arg='{which}']").tap()
    if which == "stake":
        action = {"type": "take", "stake": True, "pool": None}
    else:
        action = {"type": "take", "stake": choices["both"], "pool": which}
    return apply(game, action)


def roll(page, game):
    """CMP-6: the odds first (exactly the engine's), then the roll and its dice."""
    st = replay(game)
    shown = page.locator("[data-testid=exhaustion-odds]").inner_text()
    expected = cmp.exhaustion_odds_text(st.fought)
    assert shown == expected[0].upper() + expected[1:]
    page.get_by_role("button", name="Roll 2d6").tap()
    game = apply(game, {"type": "roll"})
    dice = replay(game).rolls[-1].dice
    faces = page.locator("[data-testid=dice] .die").all_inner_texts()
    assert faces == [str(d) for d in dice]
    return game



def to_the_table(page, game):
    """Draws and exhaustion rolls until the campaign ends, then to the negotiating table."""
    for _ in range(12):
        st = replay(game)
        if st.phase == "exhaustion":
            game = roll(page, game)
        elif st.phase == "battle":
            game = record(page, game, None)
        else:
            break
    page.get_by_role("button", name="To the negotiating table").tap()
    return apply(game, {"type": "negotiate"})

def play_to_the_table(page, game, names=("Anna", "Ben"), on_screen=True):
    """Battles by taps until both sides are exhausted; returns the mirrored game."""
    plan = [(0, 9), (1, 3), (None, None), (0, 2), (1, 12), (0, 5), (1, 1), (0, 0)]
    for winner, troops in plan:
        st = replay(game)
        if st.phase == "exhaustion":
            game = roll(page, game)
            check_matches_engine(page, game)
            st = replay(game)
        if st.phase != "battle":
            break
        if on_screen:
            check_on_screen(page)
        game = record(page, game, winner, troops, names)
        st = replay(game)
        if st.phase == "spoils":
            if on_screen:
                check_on_screen(page)
            game = take(page, game, "stake" if not st.pending[2] and winner == 1 else str(st.pool[0]))
        check_matches_engine(page, game)
        if replay(game).phase == "over":
            return game
    st = replay(game)
    if st.phase == "exhaustion":
        game = roll(page, game)
    assert replay(game).phase == "exhausted"
    return game


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=VIEWPORT_IDS)
def test_a_whole_two_player_campaign_by_taps_to_the_treaty(page, base_url, viewport):
    page.set_viewport_size(viewport)
    game = start(page, base_url)
    check_matches_engine(page, game)
    # CMP-1: six hidden cards each; the hands show only behind the curtain.
    assert page.locator("[data-testid=curtain]").count() == 2
    hidden = replay(game).hands[0] + replay(game).hands[1]
    assert all(page.locator(f"[data-card='{c}']").count() == 0 for c in hidden)
    reveal(page, "Anna")
    assert page.locator("[data-testid=hand-cards] .card").count() == 6
    assert page.locator("[data-testid=curtain]").count() == 0  # Ben's curtain waits
    check_on_screen(page)
    page.get_by_role("button", name="Hide hand").tap()
    assert page.locator("[data-testid=hand]").count() == 0

    game = play_to_the_table(page, game)
    check_on_screen(page)
    page.get_by_role("button", name="To the negotiating table").tap()
    game = apply(game, {"type": "negotiate"})
    st = replay(game)
    # CMP-7/CMP-8: both best hands, their five cards highlighted, the winner explained.
    for p in (0, 1):
        hand = st.treaty.hands[p]
        name = page.locator(f"[data-testid=hand-name-{p}]").inner_text()
        assert name == str(hand)[0].upper() + str(hand)[1:]
        used = page.locator(f"[data-testid=treaty-{p}] .card.used").evaluate_all(
            "els => els.map(e => e.dataset.card)")
        assert used == [str(c) for c in hand.cards]
    assert page.locator("[data-testid=end-message]").inner_text() == st.result
    assert page.locator("[data-testid=explanation]").inner_text() == st.treaty.explanation
    check_on_screen(page, hand=False)
    assert_app_ok(page)


def test_solo_campaign_dummy_stays_hidden_until_the_table(page, base_url):
    page.set_viewport_size(TABLET_PORTRAIT)
    names = ("Anna", "The dummy")
    game = start(page, base_url, seed=3, names=names, solo=True)
    st = replay(game)
    # CMP-9: no curtain for the dummy, no way to show its cards.
    assert page.locator("[data-testid=dummy-hand]").count() == 1
    assert page.get_by_role("button", name="Show The dummy's hand").count() == 0
    game = record(page, game, 1, 4, names)  # the dummy wins: it takes by CMP-10 at once
    st = replay(game)
    assert st.phase == "battle"
    last = page.locator("[data-testid=last-battle]").inner_text()
    took = next(e.text for e in st.log if "CMP-10" in e.text)
    assert took in last  # what it took and why, on screen
    check_matches_engine(page, game)
    for _ in range(10):
        dummy_cards = set(replay(game).hands[1])
        shown = set(page.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
        assert not {str(c) for c in dummy_cards} & shown
        st = replay(game)
        if st.phase == "exhaustion":
            game = roll(page, game)
        elif st.phase == "battle":
            game = record(page, game, 0, 3, names)
            game = take(page, game, "stake")
        else:
            break
    assert replay(game).phase == "exhausted"
    page.get_by_role("button", name="To the negotiating table").tap()
    game = apply(game, {"type": "negotiate"})
    st = replay(game)
    assert len(st.treaty.drawn[1]) >= 1  # CMP-9: the dummy's extra card
    dummy_side = page.locator("[data-testid=treaty-1] .card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert sorted(dummy_side) == sorted(str(c) for c in st.treaty.cards[1])
    assert page.locator("[data-testid=explanation]").inner_text() == st.treaty.explanation
    assert re.search(r"CMP-9 At the table The dummy draws .*one extra card", page.locator("[data-testid=log]").inner_text())


def test_reload_and_both_share_links_mid_campaign(page, base_url, new_device):
    page.set_viewport_size(TABLET_LANDSCAPE)
    game = start(page, base_url, seed=77)
    game = record(page, game, 0, 9)
    game = take(page, game, str(replay(game).pool[0]))
    game = record(page, game, 1, 3)
    game = take(page, game, "stake")
    game = record(page, game, None)
    game = roll(page, game)  # mid-campaign: an exhaustion roll made, the war goes on or not
    before = status(page)
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=90_000)
    assert status(page) == before
    check_matches_engine(page, game)

    page.get_by_role("button", name="Share").tap()
    full = page.locator("[data-testid=share-full]").input_value()
    public = page.locator("[data-testid=share-public]").input_value()
    LINKS["full"], LINKS["public"] = len(full), len(public)
    print(f"\ncampaign links after {len(game.actions)} actions: full {len(full)} characters, "
          f"spectator {len(public)} characters")
    assert len(full) < 2000 and len(public) < 2000
    # The spectator payload: no seed, no hand, no deck order, no redo stack.
    spectator = codec.decode_share(urlparse(public).fragment.split("g=", 1)[1])
    assert spectator.seed == 0 and "reveal" in spectator.setup
    st = replay(game)
    secret = {str(c) for c in st.hands[0] + st.hands[1] + st.deck} - {str(c) for c in st.seen}
    assert not secret & set(re.findall(r"\b(?:10|[2-9JQKA])[SHDC]\b", json.dumps(spectator.setup)))
    other = new_device(viewport=TABLET_PORTRAIT, has_touch=True)
    try:
        guest = other.new_page()
        open_app(guest, full, timeout=90_000)
        guest.wait_for_selector("[data-testid=table]")
        assert status(guest) == before
        check_matches_engine(guest, game)
        guest.goto("about:blank")
        open_app(guest, public, timeout=90_000)
        guest.wait_for_selector("[data-testid=table]")
        # The copy says what is true there (issue 21): it records nothing, so no "record the result".
        assert status(guest) == (f"Battle {st.battle}: the stakes are out and the battle is fought on the tabletop "
                                 "(CMP-3)" if st.phase == "battle" else
                                 "Both sides are exhausted: the negotiating table comes next (CMP-7)")
        assert guest.locator("[data-testid=spectator]").count() == 1
        assert guest.locator("[data-testid=curtain], [data-testid=hand]").count() == 0
        assert guest.get_by_role("button", name="↷ Redo").is_disabled()
        shown = set(guest.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
        assert not secret & shown
        assert_no_traceback(guest)
    finally:
        other.close()


def test_undo_redo_and_history_replay_the_same_cards(page, base_url):
    game = start(page, base_url, seed=5)
    first = stakes(page)
    game = record(page, game, 0, 3)
    game = take(page, game, "stake")
    second = stakes(page)
    page.get_by_role("button", name="↶ Undo").tap()
    assert page.locator("[data-testid=spoils]").count() == 1
    page.wait_for_timeout(500)  # a second, deliberate tap: not the second tap of a double tap (TapGuard)
    page.get_by_role("button", name="↶ Undo").tap()
    assert stakes(page) == first
    page.get_by_role("button", name="↷ Redo").tap()
    page.wait_for_timeout(500)
    page.get_by_role("button", name="↷ Redo").tap()
    assert stakes(page) == second  # a redone battle deals the same stakes
    check_matches_engine(page, game)
    page.get_by_role("button", name="History").tap()
    assert "Battle 1 · Anna wins (3 troop points)" in page.locator(".history-list").inner_text()


def test_refusals_and_safari_taps_lose_nothing(page, base_url):
    game = start(page, base_url, seed=11)
    page.get_by_role("radio", name="Anna won").tap()
    # Safari: the typed number is still in a focused field when Record is tapped.
    edit_then_tap(page.locator("#campaign-troops"), "12", page.locator("[data-action='campaign:record']"))
    game = apply(game, {"type": "battle", "winner": 0, "troops": 12})
    assert page.locator("[data-testid=spoils]").count() == 1
    assert "decisively (12 troop points left)" in page.locator("[data-testid=spoils]").inner_text()
    # A late change event of the recorded field does not leak into the next battle.
    game = take(page, game, str(replay(game).pool[0]))
    page.get_by_role("radio", name="Ben won").tap()
    assert page.locator("#campaign-troops").input_value() == ""
    # Not a number: the engine's CMP-3 refusal is shown and nothing changes.
    page.locator("#campaign-troops").fill("-3")
    page.locator("[data-action='campaign:record']").tap()
    assert "CMP-12" in page.locator("[data-testid=refusal]").inner_text()
    assert page.locator("[data-testid=record]").count() == 1
    check_matches_engine(page, game)
    # The stepper: large touch controls.
    page.locator("#campaign-troops").fill("7")
    page.get_by_role("button", name="One troop point more").tap()
    assert page.locator("#campaign-troops").input_value() == "8"
    assert page.locator("[data-testid=decisive]").inner_text().startswith("Decisive")
    box = page.get_by_role("button", name="One troop point more").bounding_box()
    assert box["height"] >= 56 and box["width"] >= 56
    assert_app_ok(page)


def test_double_tap_never_reveals_a_hand(page, base_url):
    start(page, base_url, seed=8)
    reveal(page, "Anna")
    # The second tap of a fast double tap on "Hide hand" lands on the new curtain.
    double_tap(page, page.get_by_role("button", name="Hide hand"))
    time.sleep(0.3)
    assert page.locator("[data-testid=hand]").count() == 0
    # A double tap on a curtain opens it once at most; its second tap must not hide it
    # and open the next one.
    double_tap(page, page.get_by_role("button", name="Show Ben's hand"))
    time.sleep(0.3)
    assert page.locator("[data-testid=hand]").count() <= 1
    assert_app_ok(page)


@pytest.mark.parametrize("size", TABLET_SIZES, ids=TABLET_IDS)
def test_tablet_battery(page, base_url, size):
    page.set_viewport_size(size)
    game = start(page, base_url, seed=21)
    # The stakes, the hand and the main action fit without scrolling in every phase.
    check_on_screen(page)
    page.get_by_role("radio", name="Anna won").tap()
    page.locator("#campaign-troops").fill("9")
    check_on_screen(page)
    assert_on_screen(page, page.locator("[data-action='campaign:record']"))
    reveal(page, "Anna")
    check_on_screen(page)
    assert_on_screen(page, page.get_by_role("button", name="Hide hand"))
    page.get_by_role("button", name="Hide hand").tap()
    page.locator("[data-action='campaign:record']").tap()
    check_on_screen(page)
    game = apply(game, {"type": "battle", "winner": 0, "troops": 9})

    def reset():
        page.evaluate("window.scrollTo(0, 0)")
        if page.locator("[data-testid=table]").count() == 0:
            page.locator("[data-field=seed]").fill("21")
            page.get_by_role("button", name="Start the campaign").tap()
        elif page.locator("[data-testid=record]").count() and not page.locator("#campaign-troops").count():
            page.get_by_role("radio", name="Anna won").tap()

    page.get_by_role("button", name="↶ Undo").tap()
    page.get_by_role("radio", name="Anna won").tap()
    pairs = every_field_then_every_button(page, "#app-campaign", reset=reset,
                                          skip=("Export", "Delete", "Copy link", "Share…"))
    assert pairs > 0
    assert_app_ok(page)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_accessibility_of_the_campaign_screens(new_device, base_url, theme):
    from .test_shell import axe_serious

    context = new_device(bypass_csp=True, viewport=TABLET_PORTRAIT, has_touch=True, color_scheme=theme)
    page = context.new_page()
    try:
        open_app(page, base_url + "#/campaign", timeout=90_000)
        found = {"setup": axe_serious(page)}
        game = start(page, base_url, seed=SEED)
        found["battle"] = axe_serious(page)
        page.get_by_role("radio", name="Anna won").tap()
        page.locator("#campaign-troops").fill("9")
        found["record"] = axe_serious(page)
        reveal(page, "Ben")
        found["hand"] = axe_serious(page)
        page.get_by_role("button", name="Hide hand").tap()
        page.locator("[data-action='campaign:record']").tap()
        found["spoils"] = axe_serious(page)
        game = apply(game, {"type": "battle", "winner": 0, "troops": 9})
        game = play_to_the_table(page, take(page, game, str(replay(game).pool[0])), on_screen=False)
        found["exhausted"] = axe_serious(page)
        page.get_by_role("button", name="To the negotiating table").tap()
        found["treaty"] = axe_serious(page)
    finally:
        context.close()
    assert all(v == [] for v in found.values()), json.dumps(found, indent=1)
