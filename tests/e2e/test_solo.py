"""Organizations In Conflict solo on the built site (issue 12): the app plays a side.

A whole solo conflict by taps at both tablet orientations, with one-tap Undo, a
reload and a share link mid-game; the setup's "Played by" controls under the tablet
battery; table-deck mode refused for the app.

The set-up is small so that a conflict ends in a few rounds: the person's side A has
hearts 6 (one point above the home-ground threshold, OIC-4), the app's side B clubs
11 and diamonds 6 and opens (aggressor), seed 61. The person taps the first
highlighted card, or "Cannot play" when none is (the same policy in
``tests/engine`` terms ends this conflict in 3 rounds, won by the app).
"""

from __future__ import annotations

import re

import pytest

from .conftest import READY, TABLET_LANDSCAPE, TABLET_PORTRAIT, open_app
from .tablet import (
    TABLET_IDS,
    TABLET_SIZES,
    assert_app_ok,
    assert_on_screen,
    double_tap,
    every_field_then_every_button,
)

SEED = "61"
#: Start-up can be slow on a shared test machine; the app's own speed is measured in make bench.
LOAD = 120_000


def field(page, path: str):
    return page.locator(f"[data-field='setup:{path}']")


def set_up_solo(page, level: str = "normal") -> None:
    """Side A (people): hearts 6. Side B (the app): clubs 11 and diamonds 6, opens."""
    field(page, "sides.0.players.0.organizations.0.suit").select_option("H")
    field(page, "sides.0.players.0.organizations.0.power").fill("6")
    field(page, "sides.1.players.0.organizations.0.suit").select_option("C")
    field(page, "sides.1.players.0.organizations.0.power").fill("11")
    page.locator("[data-action='conflict:add-org']").nth(1).tap()  # side B's player
    field(page, "sides.1.players.0.organizations.1.suit").select_option("D")
    field(page, "sides.1.players.0.organizations.1.power").fill("6")
    field(page, "aggressor").select_option("1")
    page.locator("[data-testid=played-by-1]").select_option(level)
    page.locator("[data-field=seed]").fill(SEED)


def status(page) -> str:
    return page.locator("[data-testid=status]").inner_text()


def wait_for_person(page) -> None:
    """The app has moved (if it was its turn): the person's hand or a result is shown."""
    page.wait_for_selector("[data-testid=app-turn]", state="detached", timeout=20_000)
    page.wait_for_selector("[data-testid=hand], [data-testid=result]", timeout=20_000)


def person_step(page) -> str:
    """One decision of the person, by taps. Returns what was done ("over" when it is over)."""
    wait_for_person(page)
    phase = page.locator("[data-testid=table]").get_attribute("data-phase")
    if phase == "conflict-over":
        return "over"
    before = status(page)
    if phase == "round-over":
        page.locator("[data-action='conflict:next-round']").tap()
        done = "next"
    else:
        # Only the person's own hand is ever shown, and without a curtain (one human side).
        assert page.locator("[data-testid=curtain]").count() == 0
        hands = page.locator("[data-testid=hand] .hand")
        assert hands.count() == 1 and hands.first.get_attribute("aria-label") == "Hand of Side A"
        if phase == "discard":
            page.get_by_role("button", name="Keep all cards").tap()
            done = "discard"
        else:
            playable = page.locator("[data-testid=hand] .card.playable")
            if playable.count():
                playable.first.tap()
                done = "play"
            else:
                page.get_by_role("button", name="Pass — end the round").tap()
                done = "pass"
    page.wait_for_function("(before) => document.querySelector('[data-testid=status]').innerText !== before",
                           arg=before, timeout=20_000)
    return done


def play_to_the_end(page, limit: int = 40) -> int:
    steps = 0
    while person_step(page) != "over":
        steps += 1
        assert steps < limit, "the solo conflict must end"
    return steps


@pytest.mark.parametrize("viewport", [TABLET_LANDSCAPE, TABLET_PORTRAIT], ids=["landscape", "portrait"])
def test_a_whole_solo_conflict_by_taps_with_undo_reload_and_a_share_link(page, base_url, new_device, viewport):
    page.set_viewport_size(viewport)
    open_app(page, base_url + "#/conflict", timeout=LOAD)
    set_up_solo(page)
    page.get_by_role("button", name="Start the conflict").tap()
    page.wait_for_selector("[data-testid=table]")

    # The app opens: it discards first (counted, not shown) and plays its first card.
    wait_for_person(page)
    log = page.locator("[data-testid=app-log]")
    assert re.search(r"Side B (discards \d+ cards? it cannot use and draws as many|keeps all its cards)",
                     log.inner_text())

    # What the person needs now is on screen without scrolling (issue 7's check).
    assert_on_screen(page, page.locator("[data-testid=status]"), page.locator("[data-testid=hand] .card"),
                     page.get_by_role("button", name="Keep all cards"))
    statuses, seen = [], set()
    for _ in range(4):  # the person's discard, then plays until the app has answered a few times
        statuses.append(status(page))
        person_step(page)
        wait_for_person(page)
        seen.update(log.locator("li").all_inner_texts() if log.count() else [])
        if page.locator("[data-testid=hand] .card.playable").count():
            assert_on_screen(page, page.locator("[data-testid=status]"),
                             page.locator("[data-testid=current-card] .card"),
                             page.locator("[data-testid=hand] .card.playable"))
    # The log line of each of the app's plays says what it did and why.
    assert any(re.match(r"Side B plays \S+: \w", line) for line in seen), seen

    # One tap of Undo goes back to the person's last decision (the app's answers go too).
    page.get_by_role("button", name="↶ Undo").tap()
    assert status(page) == statuses[-1]
    assert page.locator("[data-testid=app-turn]").count() == 0
    assert page.locator("[data-testid=hand], [data-testid=result]").count() == 1  # the person's turn
    person_step(page)  # the same decision again: the app answers as before
    wait_for_person(page)

    # A reload resumes the same table.
    now = status(page)
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=LOAD)
    wait_for_person(page)
    assert status(page) == now
    person_step(page)
    wait_for_person(page)

    # A share link mid-game opens the same solo game in a fresh browser; the app plays on there.
    now = status(page)
    page.get_by_role("button", name="Share").tap()
    link = page.locator("[data-testid=share-full]").input_value()
    other = new_device(viewport=viewport, has_touch=True)
    try:
        guest = other.new_page()
        open_app(guest, link, timeout=LOAD)
        guest.wait_for_selector("[data-testid=table]")
        wait_for_person(guest)
        assert status(guest) == now
        play_to_the_end(guest)
        end = guest.locator("[data-testid=end-message]").inner_text()
        assert "Side B wins the conflict" in end
        assert_app_ok(guest)
    finally:
        other.close()

    # And the original device plays the same conflict to the same end.
    play_to_the_end(page)
    assert "Side B wins the conflict" in page.locator("[data-testid=end-message]").inner_text()
    # The history names the app's moves with their reasons.
    page.get_by_role("button", name="History").tap()
    assert page.locator(".history-item", has_text="(the app) plays").count() >= 2
    assert_app_ok(page)


def test_table_deck_says_the_app_cannot_hold_real_cards(page, base_url):
    open_app(page, base_url + "#/conflict", timeout=LOAD)
    page.locator("[data-testid=played-by-1]").select_option("hard")
    page.get_by_label(re.compile("Table deck")).check()
    assert page.get_by_text(re.compile("the app cannot hold real cards")).count() >= 1
    assert page.get_by_role("button", name="Start the conflict").is_disabled()
    page.get_by_label(re.compile("App deck")).check()
    assert page.get_by_role("button", name="Start the conflict").is_enabled()


def test_the_apps_turn_never_shows_its_hand_even_to_a_double_tap(page, base_url):
    open_app(page, base_url + "#/conflict", timeout=LOAD)
    set_up_solo(page, "easy")
    page.get_by_role("button", name="Start the conflict").tap()
    wait_for_person(page)
    page.get_by_role("button", name="Keep all cards").tap()
    wait_for_person(page)
    playable = page.locator("[data-testid=hand] .card.playable")
    if playable.count():
        double_tap(page, playable.first)
    wait_for_person(page)
    assert page.locator(".hand[aria-label='Hand of Side B']").count() == 0
    assert_app_ok(page)


def test_at_an_earlier_point_where_the_app_is_to_move_its_hand_stays_hidden(page, base_url):
    """HR-OIC-4: only the app moves its side. Back at the start through History (the app, the
    aggressor, discards first there), the board shows the app's panel and its move waiting in the
    history, never its hand or a curtain for it."""
    open_app(page, base_url + "#/conflict", timeout=LOAD)
    set_up_solo(page)
    page.get_by_role("button", name="Start the conflict").tap()
    wait_for_person(page)
    page.get_by_role("button", name="History").tap()
    page.get_by_role("button", name="Start of the game").tap()
    panel = page.locator("[data-testid=app-turn]")
    panel.wait_for(timeout=20_000)
    assert "its move is next in the history (Redo)" in panel.inner_text()
    assert page.locator(".hand[aria-label='Hand of Side B']").count() == 0
    assert page.locator("[data-testid=curtain]").count() == 0
    page.wait_for_timeout(1500)  # the app does not move by itself here (it keeps the redo stack)
    assert page.locator("[data-testid=app-turn]").count() == 1
    assert_app_ok(page)


@pytest.mark.parametrize("size", TABLET_SIZES, ids=TABLET_IDS)
def test_tablet_battery_on_the_solo_setup(page, base_url, size):
    page.set_viewport_size(size)
    open_app(page, base_url + "#/conflict", timeout=LOAD)
    page.get_by_role("button", name="Load the Purple Dragon League example").tap()
    chooser = page.locator("[data-testid=played-by-1]")
    chooser.select_option("hard")
    chooser.scroll_into_view_if_needed()
    assert_on_screen(page, chooser)

    def reset():
        page.goto(base_url + "#/")
        page.goto(base_url + "#/conflict")

    assert every_field_then_every_button(page, "#app-conflict [data-testid=setup]", reset=reset,
                                         skip=("Start the conflict", "Export")) > 0
    assert_app_ok(page)
    # The choice lives in the setup draft: it survives a reload (the battery's taps
    # include loading the example, which rightly resets both sides to people).
    page.goto(base_url + "#/conflict")
    page.locator("[data-testid=played-by-0]").select_option("easy")
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=LOAD)
    assert page.locator("[data-testid=played-by-0]").input_value() == "easy"


#: Issue 33: what each painted frame showed, sampled in every animation frame (the last moment
#: before the paint). ``window.__meanwhile`` (a selector) is clicked, once, in the first frame
#: that paints the app's turn.
FRAMES = """() => { window.__frames = []; window.__clicked = false;
  const sample = () => {
    const current = document.querySelector('[data-testid=current-card]');
    const f = {turn: document.querySelector('[data-testid=app-turn]') !== null,
               current: current ? [...current.querySelectorAll('[data-card]')].map(c => c.dataset.card) : [],
               log: document.querySelectorAll('[data-testid=app-log] li').length};
    window.__frames.push(f);
    if (f.turn && window.__meanwhile && !window.__clicked) {
      window.__clicked = true; document.querySelector(window.__meanwhile).click(); }
    requestAnimationFrame(sample); };
  requestAnimationFrame(sample); }"""


def _hard_conflict_to_a_play(page, base_url, meanwhile: str | None = None):
    """A solo conflict against the Hard app, at the person's first play: the card tapped and
    the app's log lines before it."""
    open_app(page, base_url + "#/conflict", timeout=LOAD)
    set_up_solo(page, "hard")
    page.get_by_role("button", name="Start the conflict").tap()
    wait_for_person(page)
    page.get_by_role("button", name="Keep all cards").tap()
    wait_for_person(page)
    card = page.locator("[data-testid=hand] .card.playable").first
    played = card.get_attribute("data-card")
    before = page.locator("[data-testid=app-log] li").count()
    page.evaluate(FRAMES)
    page.evaluate("(s) => { window.__meanwhile = s; }", meanwhile)
    card.tap()
    return played, before


def test_the_card_played_against_the_hard_app_paints_before_its_reply(page, base_url):
    """Issue 33: the person's card and "the app plays…" are painted before the Hard app's
    reply is worked out; its reply follows, once."""
    played, before = _hard_conflict_to_a_play(page, base_url)
    wait_for_person(page)
    frames = page.evaluate("window.__frames")
    painted = next(i for i, f in enumerate(frames) if played in f["current"])
    assert frames[painted]["log"] == before  # the card painted, the reply not yet there
    thinking = next(i for i, f in enumerate(frames) if f["turn"] and played in f["current"])
    assert frames[thinking]["log"] == before  # "the app plays…" painted, before its reply
    assert any(f["log"] == before + 1 for f in frames[thinking:])
    assert page.locator("[data-testid=app-log] li").count() == before + 1  # one reply, not two
    assert_app_ok(page)


def test_undo_tapped_while_the_app_thinks_is_honoured_and_nothing_doubles(page, base_url):
    """Issue 33: Undo while the app's turn shows: the app's reply never lands, the person's
    hand is back; the same card again gets exactly one reply."""
    played, before = _hard_conflict_to_a_play(page, base_url, meanwhile="[data-action='session:undo']")
    page.wait_for_function("window.__clicked")
    wait_for_person(page)
    page.wait_for_timeout(1500)  # long enough for the app's reply, had it been left to come
    assert page.locator("[data-testid=app-log] li").count() == before
    assert page.locator(f"[data-testid=hand] [data-card='{played}']").count() == 1
    page.locator(f"[data-testid=hand] [data-card='{played}']").tap()
    page.wait_for_function("(n) => document.querySelectorAll('[data-testid=app-log] li').length > n", arg=before)
    wait_for_person(page)
    page.wait_for_timeout(800)
    assert page.locator("[data-testid=app-log] li").count() == before + 1
    assert_app_ok(page)
