"""Issue 18 on the initiative tracker: our own cards and our own dice (HR-CS-6, HR-CS-7).

The GM deals a real deck and enters each combatant's cards (the roster down the side, the
shared 52-card picker, a card of another combatant greyed out, CS-6 checked); a shot shows
its exact odds, then takes the d10 and d6 the player rolled; a wrong die is one tap to take
back. Tapped at the four tablet sizes (Safari-style taps, a double tap on the deal), with a
reload and the full link in the middle; the taps for ten combatants' cards are counted.
"""

from __future__ import annotations

import re

import pytest

from engine import consim as cs
from engine.game import new_game, replay

from .consim_kit import DOUBLE_TAP_MS, link, man, open_at, open_game, reload, wait_settle
from .tablet import TABLET_IDS, TABLET_SIZES, assert_app_ok, assert_on_screen, double_tap, safari_tap

OWN = {"deck": cs.DECK_TABLE, "dice": cs.DICE_TABLE}
NAMES = ["Hero", "Medic", "Driver", "Scout", "Gunner", "Rifle 1", "Rifle 2", "Rifle 3", "Rifle 4", "Sniper"]
#: The ten cards the GM deals, one each in roster order.
DEALT = ["AS", "KH", "QD", "JC", "10S", "9H", "8D", "7C", "6S", "5H"]


def ten_combatants():
    setup = {"sides": ["Players", "Opposition"], "privacy": False,
             "combatants": [man(n, 0 if i < 5 else 1, training="trained", player=i < 3) for i, n in enumerate(NAMES)]}
    return new_game(cs.KIND, setup, OWN, seed=2**127 + 5)


def pick(page, token: str):
    return page.locator(f"[data-testid=card-entry] [data-action='init:entry-pick'][data-arg='{token}']")


@pytest.mark.parametrize("size", TABLET_SIZES, ids=TABLET_IDS)
def test_ten_combatants_cards_entered_checked_and_a_shot_with_our_own_dice(page, base_url, new_device, size):
    page.set_viewport_size(size)
    open_at(page, link(base_url, ten_combatants()))
    taps = 0
    enter = page.get_by_role("button", name="Enter the cards…")
    assert page.get_by_role("button", name="Deal", exact=True).count() == 0  # the app does not deal (HR-CS-6)
    enter.tap()
    taps += 1
    entry = page.locator("[data-testid=card-entry]")
    entry.wait_for()
    deal = page.get_by_role("button", name="Deal these cards")
    assert_on_screen(page, deal, page.locator("[data-testid=entry-who] .entry-who").first)
    for n, token in enumerate(DEALT):
        # the picker follows the roster: the next name is the one being entered
        assert page.locator("[data-testid=entry-at]").inner_text() == f"Entering {NAMES[n]}'s cards"
        assert_on_screen(page, pick(page, token))
        pick(page, token).tap()
        taps += 1
        if n == 2:  # CS-6: a card already dealt this round is greyed out and refused
            assert "played" in pick(page, "AS").get_attribute("class")
            pick(page, "AS").tap()
            assert re.search(r"CS-6.*Hero's already", page.locator("[data-testid=refusal]").inner_text())
            # a wrong card is one tap to take back: Driver's Q♦ is entered again
            page.locator("[data-action='init:entry-who'][data-arg='2']").tap()
            pick(page, "QD").tap()
            assert page.locator("[data-action='init:entry-who'][data-arg='2']").get_attribute(
                "aria-label") == "Driver: 0 of 1 cards entered"
            pick(page, "QD").tap()
    assert page.locator("[data-testid=entry-at]").inner_text() == "Every combatant has its cards."
    assert_on_screen(page, deal)
    # A fast double tap on the deal: the second tap lands on what the deal put under the finger.
    double_tap(page, deal)
    taps += 1
    page.wait_for_selector("[data-testid=now]")
    assert taps == 12  # 1 + one per combatant + 1: well under a minute of taps (reported in the issue)
    game = open_game(page)
    assert [a["type"] for a in game.actions[:game.position]] == ["deal"]
    state = replay(game)
    assert [h.dealt[0].token for h in state.hands] == DEALT
    assert_app_ok(page)

    # A reload in the middle: the same round, the same order.
    reload(page)
    assert replay(open_game(page)).turns == state.turns
    page.wait_for_timeout(DOUBLE_TAP_MS)

    # The shot: the odds first, then the table's dice, one tap each; a wrong die taken back.
    page.get_by_role("button", name="Shoot…").tap()
    panel = page.locator("[data-testid=shot-panel]")
    cur = cs.current_turn(state)
    shooter = state.combatants[state.turns[cur].combatant]
    target = next(i for i, c in enumerate(state.combatants) if c.side != shooter.side)
    panel.get_by_role("group", name="Targets").get_by_role("button", name=NAMES[target], exact=True).tap()
    odds, dice = panel.locator("[data-testid=odds]"), panel.locator("[data-testid=dice-entry]")
    assert odds.bounding_box()["y"] < dice.bounding_box()["y"]  # the odds before the dice
    assert panel.get_by_role("button", name=re.compile("^Roll the dice")).count() == 0
    record = panel.get_by_role("button", name=re.compile("^Record the shot"))
    assert record.is_disabled()
    faces = panel.locator("[data-action='init:die']")
    assert faces.count() == 10  # the d10 to hit (CS-8)
    panel.locator("[data-action='init:die'][data-arg='9']").tap()
    assert faces.count() == 6 and "d6" in dice.inner_text()  # trained: 9 + 1 hits in the open; the d6 next
    panel.locator("[data-action='init:die'][data-arg='1']").tap()  # 1: STUN, nothing more to roll
    assert not record.is_disabled()
    panel.locator("[data-action='init:die-back'][data-arg='0.d6']").tap()  # the wrong d6, one tap back
    assert faces.count() == 6 and record.is_disabled()
    panel.locator("[data-action='init:die'][data-arg='2']").tap()
    assert_on_screen(page, record)
    safari_tap(record)
    page.wait_for_selector(".ini-result")
    game = open_game(page)
    shot = game.actions[game.position - 1]
    assert shot["type"] == "shoot" and shot["dice"] == [{"d10": 9, "d6": 2}]
    assert replay(game).statuses[target].suppression >= 3  # STUN: +3 (CS-10)

    # The full link in the middle restores it exactly, its choice of cards and dice shown.
    wait_settle(page)
    page.get_by_role("button", name="Share").tap()
    assert "Our own deck" in page.locator("[data-testid=share-equipment]").inner_text()
    full = page.locator("[data-testid=share-full]").input_value()
    other = new_device(viewport=size, has_touch=True)
    p2 = other.new_page()
    open_at(p2, full)
    restored = open_game(p2)
    assert restored.rules == game.rules and list(restored.actions) == list(game.actions[:game.position])
    assert "Record the shot" not in p2.locator("#app-initiative").inner_text()

    # On to round 2: the round ended early (asked first), then the next deal entered. The
    # stunned target gets no cards (CS-10, HR-CS-1) and says so; the others one each again.
    page.locator("[data-action='session:drawer'][data-arg='']").first.tap()  # the share drawer's Close
    wait_settle(page)
    page.get_by_role("button", name="End round 1 now…").tap()
    wait_settle(page)
    page.get_by_role("button", name="End round 1", exact=True).tap()
    page.get_by_role("button", name="Enter the cards…").wait_for()
    wait_settle(page)
    page.get_by_role("button", name="Enter the cards…").tap()
    assert f"{NAMES[target]}: no cards" in page.locator("[data-testid=entry-who]").inner_text()
    second = [t for i, t in enumerate(DEALT) if i != target]
    for token in second:
        pick(page, token).tap()
    safari_tap(page.get_by_role("button", name="Deal these cards"))
    page.wait_for_selector("[data-testid=now]")
    game = open_game(page)
    assert [a["type"] for a in game.actions] == ["deal", "shoot", "end_round", "deal"]
    round2 = replay(game)
    assert round2.round == 2 and sorted(t.card.token for t in round2.turns) == sorted(second)
    wait_settle(page)
    assert_app_ok(page)


def test_our_own_deck_and_dice_chosen_by_taps_kept_through_a_reload_and_started_safari_style(page, base_url):
    from .test_consim import SEED, enter_roster, open_tracker, saved_game

    page.set_viewport_size(TABLET_SIZES[1])
    open_tracker(page, base_url + "#/initiative")
    enter_roster(page)
    for key in ("deck", "dice"):  # HR-CS-6, HR-CS-7: house rules, said as such where they are chosen
        box = page.locator(f"[data-field='init:rules.{key}']")
        box.tap()
        assert box.is_checked()
        assert "House rule" in box.locator("xpath=..").inner_text()
    reload(page)  # the roster form keeps the choice
    assert all(page.locator(f"[data-field='init:rules.{key}']").is_checked() for key in ("deck", "dice"))
    seed = page.locator("[data-field='init:seed']")
    seed.fill(str(SEED))
    safari_tap(page.get_by_role("button", name="Start tracking"))  # the seed field still has the focus
    page.get_by_role("button", name="Enter the cards…").wait_for()
    game = saved_game(page)
    assert dict(game.rules)["deck"] == "table" and dict(game.rules)["dice"] == "table" and game.seed == SEED
    assert_app_ok(page)


def test_a_double_tap_on_a_die_enters_one_roll_and_the_dying_countdown_is_tapped_in(page, base_url):
    """The d6 appears where the d10 was: a fast double tap's second tap is refused, and said.
    Then a round ends with a DYING countdown to roll (CS-13), entered by a tap."""
    from engine.game import apply

    page.set_viewport_size(TABLET_SIZES[0])
    setup = {"sides": ["Players", "Opposition"], "privacy": False,
             "combatants": [man("Hero", 0, training="trained", player=True), man("Rifle", 1, training="trained")]}
    g = apply(new_game(cs.KIND, setup, OWN, seed=2**127 + 9),
              {"type": "deal", "cards": {"0": ["AS"], "1": ["KS"]}})
    open_at(page, link(base_url, g))
    page.get_by_role("button", name="Shoot…").tap()
    panel = page.locator("[data-testid=shot-panel]")
    panel.get_by_role("group", name="Targets").get_by_role("button", name="Rifle", exact=True).tap()
    three = panel.locator("[data-action='init:die'][data-arg='3']")
    assert_on_screen(page, three)  # the shot panel came to the top: its dice in sight, above the sticky Record
    double_tap(page, three)  # d10 3: a miss needs no d6; the second tap lands on what replaced the faces
    page.wait_for_timeout(DOUBLE_TAP_MS)
    chips = panel.locator("[data-testid=dice-entered] .die-chip")
    assert chips.count() == 1  # one roll entered, not two
    # Now one that hits and injures: 9 to hit, then 3 for the wound (INJURE; a 2d6 countdown of 2: CS-13).
    chips.first.tap()
    for value in ("9", "3", "2"):
        page.wait_for_timeout(DOUBLE_TAP_MS)
        panel.locator(f"[data-action='init:die'][data-arg='{value}']").tap()
    page.wait_for_timeout(DOUBLE_TAP_MS)
    safari_tap(panel.get_by_role("button", name=re.compile("^Record the shot")))
    page.wait_for_selector(".ini-result")
    assert replay(open_game(page)).statuses[1].condition is cs.Condition.INJURED
    for _ in range(3):  # rounds go by until the countdown runs out (the injured Rifle owed no card or one)
        state = replay(open_game(page))
        if cs.countdowns_due(state):
            break
        wait_settle(page)
        page.get_by_role("button", name=re.compile(r"^End round \d+ now…")).tap()
        wait_settle(page)
        page.get_by_role("button", name=re.compile(r"^End round \d+$")).tap()
        wait_settle(page)
        page.get_by_role("button", name="Enter the cards…").tap()
        owed = cs.cards_owed(replay(open_game(page)))
        for token, n in zip(("AS", "KS"), owed):
            if n:
                pick(page, token).tap()
        safari_tap(page.get_by_role("button", name="Deal these cards"))
        page.wait_for_selector("[data-testid=now]")
    assert cs.countdowns_due(replay(open_game(page))) == (1,)
    wait_settle(page)
    page.get_by_role("button", name=re.compile(r"^End round \d+ now…")).tap()
    entry = page.locator("[data-testid=countdown-entry]")
    assert_on_screen(page, entry.locator("[data-action='init:cd']").first)
    wait_settle(page)
    page.get_by_role("button", name=re.compile(r"^End round \d+$")).tap()  # refused: the die first
    assert "CS-13" in page.locator("[data-testid=refusal]").inner_text()
    entry.locator("[data-action='init:cd'][data-arg='1.4']").tap()
    wait_settle(page)
    page.get_by_role("button", name=re.compile(r"^End round \d+$")).tap()
    page.get_by_role("button", name="Enter the cards…").wait_for()
    game = open_game(page)
    assert dict(game.actions[game.position - 1]) == {"type": "end_round", "dice": {"1": 4}}
    assert replay(game).statuses[1].condition is cs.Condition.DYING
    assert_app_ok(page)
