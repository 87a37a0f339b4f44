"""The campaign with the players' own deck and dice (issue 18), tapped as a table would.

A simulated table holds real cards (``tests.engine.test_campaign_table.Table``): the
test taps into the shared 52-card picker exactly the cards that table reveals — the
pool, each stake, each new pool card, the hands laid down at the negotiating table —
types or lets the app roll the dice, and checks the screen against the engine and
the real cards. In the middle: a reload, the full link on another device and the
spectator link. At the four tablet sizes: what the entry needs is on screen, a wrong
tap is one tap to take back, an impossible card is refused with its clause, and a
double tap on Record records once.
"""

from __future__ import annotations

import random
import re
import time
from urllib.parse import urlparse

import pytest

from engine import campaign as cmp
from engine import codec
from engine.game import apply, new_game, replay
from engine.poker import best_hand
from tests.engine.test_campaign_table import Table

from .conftest import READY, TABLET_LANDSCAPE, TABLET_PORTRAIT, open_app
from .tablet import (
    TABLET_IDS,
    TABLET_SIZES,
    assert_app_ok,
    assert_on_screen,
    double_tap,
    safari_tap,
)

NAMES = ("Anna", "Ben")


def start(page, base_url, seed: int, solo: bool = False, names=NAMES):
    open_app(page, base_url + "#/campaign", timeout=90_000)
    page.wait_for_selector("[data-testid=setup], [data-testid=table]")
    if page.locator("[data-testid=table]").count():
        page.get_by_role("button", name="Saves").tap()
        page.get_by_role("button", name="New game").tap()
    if solo:
        page.get_by_label(re.compile("Solo against the dummy")).check()
    page.get_by_label(re.compile("Our own deck and dice")).check()
    page.locator("[data-field='campaign:name0']").fill(names[0])
    page.locator("[data-field='campaign:name1']").fill(names[1])
    page.locator("[data-field=seed]").fill(str(seed))
    page.get_by_role("button", name="Start the campaign").tap()
    page.wait_for_selector("[data-testid=entry]")
    return new_game("campaign", {"players": list(names), "dummy": solo, "deck": "table"}, seed=seed)


def phase(page) -> str:
    return page.locator("[data-testid=table]").get_attribute("data-phase")


def status(page) -> str:
    return page.locator("[data-testid=status]").inner_text()


def tap_card(page, token: str) -> None:
    page.locator(f"[data-testid=entry] button[data-action='campaign:pick'][data-arg='{token}']").tap()


def enter(page, tokens) -> None:
    for token in tokens:
        tap_card(page, token)


def record_entry(page) -> None:
    page.locator("[data-action='campaign:record-entry']").tap()


def check(page, game, real) -> None:
    st = replay(game)
    assert phase(page) == st.phase
    assert status(page) == cmp.status(st)
    assert page.locator("[data-testid=pool] .card").evaluate_all("els => els.map(e => e.dataset.card)") == \
        [str(c) for c in st.pool]
    for p in (0, 1):
        count = st.card_count(p)
        assert page.locator(f"[data-testid=count-{p}]").inner_text() == f"{count} card{'s' if count != 1 else ''}"
        if st.phase != "over":
            assert count == len(real.hands[p]) + (real.stakes[p] is not None)
    # The app never shows a hand it cannot know: no card of a hand but those seen face up.
    shown = set(page.locator("#app-campaign [data-testid=table] .card[data-card]:not(button)")
                .evaluate_all("els => els.map(e => e.dataset.card)"))
    if st.phase != "over":
        assert shown <= {str(c) for c in st.seen}


def play_by_taps(page, game, real: Table, rnd: random.Random, until=None, typed=True):
    """Taps the campaign on; stops when ``until(state)`` (or at the end)."""
    for _ in range(120):
        st = replay(game)
        if st.phase == "over" or (until is not None and until(st)):
            return game
        if st.phase == "deal":
            enter(page, [str(c) for c in real.pool])
            record_entry(page)
            game = apply(game, {"type": "deal", "pool": [str(c) for c in real.pool]})
        elif st.phase == "stakes":
            stakes = real.turn_up_stakes()
            enter(page, stakes)
            record_entry(page)
            game = apply(game, {"type": "stakes", "stakes": stakes})
        elif st.phase == "battle":
            winner = rnd.choice([0, 1, None])
            label = "Drawn battle" if winner is None else f"{st.name(winner)} won"
            page.get_by_role("radio", name=label).tap()
            action = {"type": "battle", "winner": winner}
            if winner is not None:
                action["troops"] = rnd.randint(0, 12)
                page.locator("#campaign-troops").fill(str(action["troops"]))
            page.locator("[data-action='campaign:record']").tap()
            before = st
            game = apply(game, action)
            after = replay(game)
            if winner is None:
                for p in (0, 1):
                    real.hands[p].append(real.stakes[p])
                real.stakes = [None, None]
            elif after.phase != "spoils":
                from dataclasses import replace

                real.settle(replace(before, pending=(winner, 0, False)), after)
        elif st.phase == "spoils":
            choices = cmp.spoils_choices(st)
            pool = str(rnd.choice(st.pool))
            which = pool if choices["both"] or rnd.random() < 0.5 else "stake"
            page.locator(f"[data-testid=spoils] button[data-arg='{which}']").tap()
            action = {"type": "take", "stake": True, "pool": None} if which == "stake" else \
                {"type": "take", "stake": choices["both"], "pool": pool}
            game = apply(game, action)
            real.settle(st, replay(game))
        elif st.phase == "refill":
            card = real.refill()
            tap_card(page, card)
            record_entry(page)
            game = apply(game, {"type": "refill", "card": card})
        elif st.phase == "exhaustion":
            if typed and rnd.random() < 0.7:
                dice = [rnd.randint(1, 6), rnd.randint(1, 6)]
                for i, v in enumerate(dice):
                    page.locator(f"[data-action='campaign:die'][data-arg='{i}:{v}']").tap()
                page.get_by_role("button", name=f"Record the dice {dice[0]} and {dice[1]}").tap()
                game = apply(game, {"type": "roll", "dice": dice})
            else:
                page.get_by_role("button", name="Let the app roll 2d6").tap()
                game = apply(game, {"type": "roll"})
            faces = page.locator("[data-testid=dice] .die").all_inner_texts()
            assert faces == [str(d) for d in replay(game).rolls[-1].dice]
        else:
            p = len(st.laid)
            need = cmp.table_draws(st, p)
            drawn = [real.deck.pop(0) for _ in range(need)]
            known = {str(c) for c in st.known[p]}
            enter(page, [str(c) for c in real.hands[p] if str(c) not in known])
            enter(page, [str(c) for c in drawn])
            record_entry(page)
            game = apply(game, {"type": "lay", "player": p, "hand": [str(c) for c in real.hands[p]],
                                "drawn": [str(c) for c in drawn]})
            real.hands[p] += drawn
        check(page, game, real)
    return game


def test_a_whole_campaign_with_our_own_deck_a_reload_and_both_links_in_the_middle(page, base_url, new_device):
    page.set_viewport_size(TABLET_LANDSCAPE)
    seed = 2026
    rnd = random.Random(seed)
    real = Table(random.Random(seed))
    game = start(page, base_url, seed)
    # The setting is in the game and shown where the rules are.
    assert game.setup["deck"] == "table"
    page.locator(".rules-in-play > summary").tap()  # "Rules in play", folded under the table
    assert page.locator("[data-testid=deck-setting]").inner_text().startswith("Cards and dice Our own deck")
    page.locator(".rules-in-play > summary").tap()
    assert page.locator("[data-testid=curtain]").count() == 0 and page.locator("[data-testid=treaty-odds]").count() == 0
    game = play_by_taps(page, game, real, rnd, until=lambda s: s.fought >= 3 and s.phase == "stakes")
    before = status(page)
    # A reload in the middle: the same table.
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=90_000)
    page.wait_for_selector("[data-testid=entry]")
    assert status(page) == before
    check(page, game, real)
    page.get_by_role("button", name="Share").tap()
    full = page.locator("[data-testid=share-full]").input_value()
    public = page.locator("[data-testid=share-public]").input_value()
    share = page.locator("#app-campaign .drawer").inner_text()
    assert "No hidden hand, no deck order, no seed." in share and "never knew" not in share
    print(f"\ncampaign with own deck after {len(game.actions)} actions: full link {len(full)} characters, "
          f"spectator link {len(public)} characters")
    assert codec.decode_share(urlparse(full).fragment.split("g=", 1)[1]) == game
    spectator = codec.decode_share(urlparse(public).fragment.split("g=", 1)[1])
    assert spectator.seed == 0 and spectator.setup["deck"] == "table"
    page.get_by_role("button", name="Share").tap()
    other = new_device(viewport=TABLET_PORTRAIT, has_touch=True)
    try:
        guest = other.new_page()
        open_app(guest, full, timeout=90_000)
        guest.wait_for_selector("[data-testid=entry]")
        assert status(guest) == before
        guest.goto("about:blank")
        open_app(guest, public, timeout=90_000)
        guest.wait_for_selector("[data-testid=table]")
        assert guest.locator("[data-testid=spectator-banner]").count() == 1
        assert guest.locator("[data-testid=entry], [data-action='campaign:pick']").count() == 0
        assert status(guest) == f"Battle {replay(game).battle}: the stakes are being turned up (CMP-2)"
    finally:
        other.close()
    # On to the end: the app judges the hands the players lay down.
    game = play_by_taps(page, game, real, rnd)
    st = replay(game)
    assert st.phase == "over"
    if st.treaty is not None:
        hands = [best_hand(real.hands[p]) for p in (0, 1)]
        assert st.treaty.hands == tuple(hands)
        for p in (0, 1):
            assert page.locator(f"[data-testid=hand-name-{p}]").inner_text().lower() == str(hands[p]).lower()
        assert page.locator("[data-testid=explanation]").inner_text() == st.treaty.explanation
    assert page.locator("[data-testid=end-message]").inner_text() == st.result
    assert_app_ok(page)


def test_a_solo_campaign_with_our_own_deck_ends_at_the_table(page, base_url):
    page.set_viewport_size(TABLET_PORTRAIT)
    seed = 77
    rnd = random.Random(seed)
    real = Table(random.Random(seed))
    game = start(page, base_url, seed, solo=True, names=("Anna", "Dummy"))
    assert "face down: nobody looks at them" in page.locator("[data-testid=own-hand-1]").inner_text()
    game = play_by_taps(page, game, real, rnd, typed=False)
    st = replay(game)
    assert st.phase == "over"
    if st.treaty is not None:
        assert len(st.treaty.cards[1]) >= 6  # CMP-9: the dummy's extra card, entered
        assert st.treaty.hands[1] == best_hand(real.hands[1])
    assert_app_ok(page)


@pytest.mark.parametrize("size", TABLET_SIZES, ids=TABLET_IDS)
def test_entering_cards_at_every_tablet_size(page, base_url, size):
    page.set_viewport_size(size)
    real = Table(random.Random(5))
    game = start(page, base_url, 5)
    entry = page.locator("[data-testid=entry]")
    page.evaluate("window.scrollTo(0, 0)")
    assert_on_screen(page, entry.locator("h2"), entry.locator("[data-testid=entry-slots]"),
                     entry.locator(".picker-grid"), page.locator("[data-action='campaign:record-entry']"))
    pool = [str(c) for c in real.pool]
    # A wrong tap is one tap to take back; Safari-style taps reach the picker.
    other = next(str(c) for c in real.deck[:1])
    safari_tap(entry.locator(f"button[data-arg='{other}']"))
    assert re.search(re.escape(cmp_label(other)), entry.locator("[data-testid=entry-slots]").inner_text())
    safari_tap(entry.locator(f"button[data-arg='{other}']"))
    assert entry.locator("[data-testid=entry-slots] .entry-slot.empty").count() == 4
    enter(page, pool)
    assert page.locator("[data-action='campaign:record-entry']").is_enabled()
    # A double tap on Record: it records the pool once (the second tap lands on the next screen).
    double_tap(page, page.locator("[data-action='campaign:record-entry']"))
    time.sleep(0.3)
    game = apply(game, {"type": "deal", "pool": pool})
    st = replay(game)
    assert phase(page) == "stakes" and status(page) == cmp.status(st)
    # An impossible stake is refused with its clause, and nothing is picked.
    tap_card(page, pool[1])
    assert f"CMP-2: the {cmp_label(pool[1])} cannot be Anna's stake: it is in the pool" in \
        page.locator("[data-testid=refusal]").inner_text()
    assert entry.locator("[data-testid=entry-slots] .entry-slot.empty").count() == 2
    assert entry.locator(f"button[data-arg='{pool[1]}']").get_attribute("class").count("blocked") == 1
    stakes = real.turn_up_stakes()
    enter(page, stakes)
    page.evaluate("window.scrollTo(0, 0)")
    assert_on_screen(page, page.locator("[data-testid=stake-0]"), page.locator("[data-testid=stake-1]"),
                     page.locator("[data-action='campaign:record-entry']"))
    record_entry(page)
    game = apply(game, {"type": "stakes", "stakes": stakes})
    assert phase(page) == "battle"
    assert [page.locator(f"[data-testid=stake-{p}] .card").get_attribute("data-card") for p in (0, 1)] == stakes
    assert_app_ok(page)


def cmp_label(token: str) -> str:
    from engine.cards import parse_card

    return parse_card(token).label
