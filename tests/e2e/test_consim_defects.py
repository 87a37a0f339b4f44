"""The initiative tracker's defects of issue 22, what it reads back from storage (issue 20),
its wording, its focus targets and the CS-5 turn on the screen — each test fails on the
tracker as it was before (tablet kit, Chromium; the layout and tap ones also in WebKit,
tests/webkit/test_consim.py)."""

from __future__ import annotations

import re

import pytest

from engine import consim as cs
from engine.game import apply, replay

from .conftest import TABLET_LANDSCAPE, TABLET_PORTRAIT
from .consim_kit import (
    DRAFT_KEY,
    OWN,
    OWN_DECK,
    ROUTE,
    SIDES_KEY,
    TEMPLATES_KEY,
    TICKS_KEY,
    get,
    link,
    make,
    man,
    open_at,
    open_game,
    put,
    reload,
    state_of,
    wait_settle,
)
from .tablet import TABLET_IDS, TABLET_SIZES, assert_app_ok, assert_focus, assert_on_screen, safari_tap

SQUAD = {"sides": ["Players", "Opposition"], "privacy": True, "combatants": [
    man("Sgt. Rook", 0, player=True, weapon=["automatic"], training="trained"),
    man("Doc", 0, player=True),
    man("Pvt. Able", 0, player=True, weapon=["semi-automatic"]),
    man("Rifleman 1", 1, weapon=["semi-automatic"], training="trained"),
    man("Rifleman 2", 1, weapon=["semi-automatic"], training="trained"),
    man("Tank", 1, grain="vehicle", weapon=["ground-vehicle", "explosive"], training="trained"),
    man("Sniper", 1, training="elite")]}


def deal_of(*hands, **extra):
    action = {"type": "deal", "cards": {str(i): h.split() for i, h in enumerate(hands) if h}}
    action.update(extra)
    return action


ORDER = deal_of("AS", "KS", "QS", "JS", "10S", "9S", "8S")  # combatant i acts i-th
# Entered cards and dice are the table's own (kit.OWN; OWN_DECK: the app's dice roll on the
# table): the app's deck and dice are never entered (HR-CS-6, HR-CS-7, issue 35).


def until_acting(game, who: int):
    """``game`` with "next" applied until combatant ``who`` acts (CS-5)."""
    while cs.acting(replay(game)) != who:
        assert cs.acting(replay(game)) is not None, f"combatant {who} does not act this round"
        game = apply(game, {"type": "next"})
    return game


# ---------------------------------------------------------------- issue 20: storage read back


def test_a_draft_with_nine_sides_is_repaired_not_a_crash(page, base_url):
    open_at(page, base_url + ROUTE)
    put(page, DRAFT_KEY, {"draft": {"sides": [f"S{i}" for i in range(9)], "combatants": [
        man("Scout", 0), man("Lost", 8)], "privacy": True}, "rules": {"pulp": False}})
    reload(page)
    assert_app_ok(page)
    sides = page.locator("[data-field^='init:side.']")
    assert sides.count() == 8  # the side colours cover eight
    assert page.locator(".ini-list li strong").all_inner_texts() == ["Scout"]
    assert "a roster has at most 8" in page.locator(".toast.error").first.inner_text()
    assert len(get(page, DRAFT_KEY)["draft"]["sides"]) == 8  # repaired in storage too
    page.get_by_role("button", name="Start tracking").tap()
    page.wait_for_selector("[data-testid=deal-panel]")
    assert_app_ok(page)


def test_a_combatant_whose_weapon_is_a_number_is_repaired(page, base_url):
    open_at(page, base_url + ROUTE)
    put(page, DRAFT_KEY, {"draft": {"sides": ["A", "B"], "combatants": [
        {**man("Gunner", 1), "weapon": 5}, {**man("Medic", 0), "training": 3, "player": "yes"}]}})
    reload(page)
    assert_app_ok(page)
    assert page.locator(".ini-list li strong").all_inner_texts() == ["Medic", "Gunner"]
    assert "weapon traits were unreadable" in page.locator(".toast.error").first.inner_text()
    page.get_by_role("button", name="Edit Gunner").tap()
    assert page.locator("[data-field='init:form.name']").input_value() == "Gunner"
    page.get_by_role("button", name="Remove Gunner").tap()
    assert page.locator(".ini-list li strong").all_inner_texts() == ["Medic"]
    assert_app_ok(page)


def test_a_saved_template_with_a_bad_weapon_is_tapped_safely(page, base_url):
    open_at(page, base_url + ROUTE)
    put(page, TEMPLATES_KEY, [{"name": "T2", "combatant": {"weapon": 5}}, {"name": 7}, "junk"])
    put(page, SIDES_KEY, [{"name": "Reds", "combatants": [{}, man("Red", 0, weapon=["laser"])]}, {"x": 1}])
    reload(page)
    assert_app_ok(page)
    page.get_by_role("group", name="Templates").get_by_role("button", name="T2").tap()
    assert page.locator("[data-field='init:form.name']").input_value() == "T2"
    assert_app_ok(page)
    page.get_by_role("button", name="Add to roster").tap()
    page.get_by_role("button", name="Load side Reds").tap()
    assert page.locator(".ini-list li strong").all_inner_texts() == ["T2", "Red"]
    assert_app_ok(page)


def test_an_empty_combatant_in_a_draft_is_dropped_and_start_works(page, base_url):
    open_at(page, base_url + ROUTE)
    put(page, DRAFT_KEY, {"draft": {"sides": ["A", "B"], "combatants": [{}, man("Only", 0), None, {"name": ""}]}})
    reload(page)
    assert_app_ok(page)
    assert page.locator(".ini-list li strong").all_inner_texts() == ["Only"]
    assert page.get_by_role("button", name="Start tracking").is_enabled()
    page.get_by_role("button", name="Start tracking").tap()
    page.wait_for_selector("[data-testid=deal-panel]")
    assert [c["name"] for c in open_game(page).setup["combatants"]] == ["Only"]


def test_unreadable_draft_json_is_a_fresh_form(page, base_url):
    open_at(page, base_url + ROUTE)
    page.evaluate("k => localStorage.setItem(k, '{not json')", DRAFT_KEY)
    page.evaluate("k => localStorage.setItem(k, '[1, 2')", TICKS_KEY)
    reload(page)
    assert_app_ok(page)
    assert page.locator("[data-testid=roster]").is_visible()


# ---------------------------------------------------------------- CS-5 on the screen


def test_cs_5_a_shot_moves_the_turn_on_and_the_next_actor_comes_up(page, base_url):
    page.set_viewport_size(TABLET_LANDSCAPE)
    open_at(page, link(base_url, make(SQUAD, ORDER, rules=OWN_DECK)))
    assert page.locator("[data-testid=current-actor]").inner_text() == "Sgt. Rook"
    page.get_by_role("button", name="Shoot…").tap()
    page.locator("[data-testid=shot-panel]").get_by_role("button", name="Sniper", exact=True).tap()
    assert "the turn then moves on" in page.locator("[data-testid=shot-panel]").inner_text()
    wait_settle(page)  # at 1024x768 a person scrolls to Roll first (a tap at once is a double tap's)
    page.get_by_role("button", name=re.compile("^Roll the dice")).tap()
    page.wait_for_selector("[data-testid=shot-result]")
    assert page.locator("[data-testid=current-actor]").inner_text() == "Doc"
    assert page.locator("[data-testid=shot-panel]").count() == 0
    s = state_of(page)
    assert cs.acting(s) == 1 and [a["type"] for a in open_game(page).actions] == ["deal", "shoot"]
    assert "Sgt. Rook: aimed shot" in page.locator("[data-testid=shot-result]").inner_text()


# ---------------------------------------------------------------- issue 22 defect 1: the ticks


def test_defect_1_ticks_survive_a_reload_and_carry_over_by_the_shown_rule(page, base_url):
    open_at(page, link(base_url, make(SQUAD)))
    page.get_by_role("group", name="Advantages of all of Players").get_by_role(
        "button", name="Prepared position").tap()
    page.get_by_role("button", name="Per combatant").tap()
    page.get_by_role("button", name="Superior morale for Sniper").tap()
    page.locator("[data-action='init:surprise'][data-arg='1']").tap()
    reload(page)
    pos = page.get_by_role("group", name="Advantages of all of Players").get_by_role("button", name="Prepared position")
    assert pos.get_attribute("aria-pressed") == "true"
    assert page.get_by_role("button", name="Superior morale for Sniper").get_attribute("aria-pressed") == "true"
    assert page.locator("[data-action='init:surprise'][data-arg='1']").get_attribute("aria-pressed") == "true"
    assert "Advantages stay ticked from round to round" in page.locator("[data-testid=carry-rule]").inner_text()
    page.get_by_role("button", name="Deal", exact=True).tap()
    page.wait_for_selector("[data-testid=now]")
    deal = open_game(page).actions[-1]
    assert deal["advantages"] == {"0": ["position"], "1": ["position"], "2": ["position"], "6": ["morale"]}
    assert deal["surprised"] == [1]
    # Round 2: the advantages carried over, the surprise cleared (CS-4: one round)
    while cs.acting(state_of(page)) is not None:
        wait_settle(page)
        page.get_by_role("button", name="Next ▸").tap()
    wait_settle(page)
    page.get_by_role("button", name=re.compile(r"^End round 1$")).tap()
    page.wait_for_selector("[data-testid=deal-panel]")
    reload(page)
    pos = page.get_by_role("group", name="Advantages of all of Players").get_by_role("button", name="Prepared position")
    assert pos.get_attribute("aria-pressed") == "true"
    assert page.locator("[data-action='init:surprise'][data-arg='1']").get_attribute("aria-pressed") == "false"
    # undo back before the deal: the ticks that deal used are there again, surprise included
    page.get_by_role("button", name="↶ Undo").tap()
    wait_settle(page)
    for _ in range(20):
        if page.locator("[data-testid=deal-panel]").count() and state_of(page).round == 0:
            break
        wait_settle(page)  # the app refuses a finger's second tap at one spot within 450 ms (TapGuard)
        page.get_by_role("button", name="↶ Undo").tap()
    assert page.locator("[data-action='init:surprise'][data-arg='1']").get_attribute("aria-pressed") == "true"


# ---------------------------------------------------------------- defect 2: the "cards lost" chip


FOUR = ["firepower", "position", "visibility", "training"]


def rook_seven_and_injured():
    """Round 1: Sgt. Rook (4 advantages, 5 cards) is injured by Rifleman 1 (unseen) and missed by the Sniper:
    7 suppression and INJURED, fired on this round. The app deals (its deck: round 2 is dealt on the
    table), the shots' dice are entered (the table's own dice)."""
    g = make(SQUAD, {"type": "deal", "advantages": {"0": FOUR}}, rules={"dice": cs.DICE_TABLE})
    assert len(replay(g).hands[0].dealt) == 5
    g = apply(until_acting(g, 3), {"type": "shoot", "shooter": 3, "targets": [0], "mode": "aimed", "cover": "none",
                                   "unseen": True, "semi": "damage", "dice": [{"d10": 9, "d6": 2, "countdown": 9}]})
    return apply(until_acting(g, 6), {"type": "shoot", "shooter": 6, "targets": [0], "mode": "aimed",
                                      "cover": "none", "unseen": False, "dice": [{"d10": 1}]})


def test_defect_2_the_chip_says_exactly_what_the_next_deal_strikes(page, base_url):
    g = rook_seven_and_injured()
    s = replay(g)
    assert (s.statuses[0].condition, s.statuses[0].suppression) == (cs.Condition.INJURED, 7)
    open_at(page, link(base_url, g))
    chip = page.locator("[data-testid=fighter-0] [data-testid=loss]")
    # its advantages carry over: 5 cards, 3 struck for 7 suppression and 1 for the injury
    assert chip.inner_text() == "next deal strikes 3 for suppression and 1 for INJURED: keeps 1 of 5"
    while cs.acting(state_of(page)) is not None:
        wait_settle(page)
        page.get_by_role("button", name="Next ▸").tap()
    wait_settle(page)
    page.get_by_role("button", name=re.compile(r"^End round 1$")).tap()
    page.wait_for_selector("[data-testid=deal-panel]")
    assert chip.inner_text() == "next deal strikes 3 for suppression and 1 for INJURED: keeps 1 of 5"
    page.get_by_role("button", name="Per combatant").tap()
    page.get_by_role("button", name="Superior training for Sgt. Rook").tap()
    assert chip.inner_text() == "next deal strikes 3 for suppression and 1 for INJURED: no cards"
    page.get_by_role("button", name="Superior training for Sgt. Rook").tap()
    page.get_by_role("button", name="Deal", exact=True).tap()
    page.wait_for_selector("[data-testid=now]")
    hand = state_of(page).hands[0]
    assert (hand.due, len(hand.lost), len(hand.kept)) == (5, 4, 1)  # what the chip said


def test_defect_2_six_suppression_on_one_card_says_no_cards(page, base_url):
    g = make(SQUAD, deal_of("AS", "KS", "QS", "10C", "3C", "2H", "9D"), *[{"type": "next"}] * 3,
             {"type": "shoot", "shooter": 3, "targets": [1], "mode": "suppressive", "cover": "none", "unseen": True,
              "semi": "hit", "dice": [{"d10": 2}]},  # Doc: 1 + 2 unseen + 1 suppressive = 4
             {"type": "shoot", "shooter": 6, "targets": [1], "mode": "aimed", "cover": "none", "unseen": False,
              "dice": [{"d10": 1}]},  # 5
             {"type": "shoot", "shooter": 4, "targets": [1], "mode": "aimed", "cover": "none", "unseen": False,
              "semi": "hit", "dice": [{"d10": 1}]}, rules=OWN)  # 6
    assert replay(g).statuses[1].suppression == 6
    open_at(page, link(base_url, g))
    chip = page.locator("[data-testid=fighter-1] [data-testid=loss]")
    assert chip.inner_text() == "next deal strikes 1 for suppression: no cards"
    assert "−1 card" not in page.locator("#app-initiative").inner_text()


def test_defect_2_a_stunned_combatant_gets_no_cards_next_round(page, base_url):
    g = make(SQUAD, ORDER, {"type": "shoot", "shooter": 0, "targets": [3], "mode": "aimed", "cover": "none",
                            "unseen": False, "dice": [{"d10": 10, "d6": 1}]}, rules=OWN)
    open_at(page, link(base_url, g))
    assert page.locator("[data-testid=fighter-3] [data-testid=loss]").inner_text() == "no cards next round (STUNNED)"


# ---------------------------------------------------------------- defect 3: iPad-style entry


def test_defect_3_add_to_roster_with_the_name_still_focused_clears_the_field(page, base_url):
    open_at(page, base_url + ROUTE)
    name = page.locator("[data-field='init:form.name']")
    name.fill("Scout")
    safari_tap(page.locator("[data-action='init:add']"))  # Safari: the field keeps the focus
    assert page.locator(".ini-list li strong").all_inner_texts() == ["Scout"]
    assert name.input_value() == ""
    assert_focus(page, name, message="after Add to roster:")
    page.keyboard.type("Medic")  # typing starts fresh, in the name field
    assert name.input_value() == "Medic"
    add = page.locator("[data-action='init:add']")
    assert add.is_enabled() and add.inner_text() == "Add to roster"
    safari_tap(add)
    assert page.locator(".ini-list li strong").all_inner_texts() == ["Scout", "Medic"]
    assert name.input_value() == ""
    # the same after "Save changes" of an edit and after a template
    page.get_by_role("button", name="Edit Scout").tap()
    name.fill("Lookout")
    safari_tap(page.get_by_role("button", name="Save changes"))
    assert page.locator(".ini-list li strong").all_inner_texts() == ["Lookout", "Medic"] and name.input_value() == ""
    assert_app_ok(page)


# ---------------------------------------------------------------- defect 4: the roster in sight after a shot


@pytest.mark.parametrize("size", [TABLET_SIZES[1], TABLET_SIZES[3]], ids=[TABLET_IDS[1], TABLET_IDS[3]])
def test_defect_4_the_roster_is_in_sight_beside_the_acting_panel_after_a_shot(page, base_url, size):
    page.set_viewport_size(size)
    # Sgt. Rook's shot leaves the Sniper INJURED (DYING in 5 rounds): the app's dice, from this seed
    g = make(SQUAD, ORDER, {"type": "shoot", "shooter": 0, "targets": [6], "mode": "aimed", "cover": "none",
                            "unseen": False}, rules=OWN_DECK, seed=2**127 + 101)
    sniper = replay(g).statuses[6]
    assert (sniper.condition, sniper.countdown) == (cs.Condition.INJURED, 5)
    open_at(page, link(base_url, g))
    page.get_by_role("button", name="Shoot…").tap()
    page.locator("[data-testid=shot-panel]").get_by_role("button", name="Rifleman 1", exact=True).tap()
    page.get_by_role("button", name=re.compile("^Roll the dice")).tap()
    page.wait_for_selector("[data-testid=shot-result]")
    page.evaluate("scrollTo(0, 0)")
    fighters = [page.locator(f"[data-testid=fighter-{i}]") for i in range(7)]
    assert_on_screen(page, page.locator("[data-testid=current-actor]"), page.get_by_role("button", name="Next ▸"),
                     page.locator("[data-testid=shot-result]"), *fighters,
                     page.locator("[data-testid=fighter-6] .pips"), page.locator("[data-testid=cond-6]"),
                     page.locator("[data-testid=fighter-3] .pips"))
    board, now = page.locator("[data-testid=board]").bounding_box(), page.locator("[data-testid=now]").bounding_box()
    assert board["x"] >= now["x"] + now["width"]  # beside, not below
    # while aiming, the targets' rows stay in sight too
    page.get_by_role("button", name="Shoot…").tap()
    page.evaluate("scrollTo(0, 0)")
    assert_on_screen(page, page.locator("[data-testid=hit-chance]"), *fighters)
    assert_app_ok(page)


# ---------------------------------------------------------------- defect 5: End round now asks first


def test_defect_5_ending_a_round_early_asks_first(page, base_url):
    page.set_viewport_size(TABLET_PORTRAIT)
    open_at(page, link(base_url, make(SQUAD, ORDER, rules=OWN_DECK)))
    before = len(open_game(page).actions)
    page.get_by_role("button", name="End round 1 now…").tap()
    dialog = page.get_by_role("alertdialog", name="End round 1?")
    assert "7 cards have not acted: Sgt. Rook (A♠), Doc (K♠)" in dialog.inner_text()
    assert len(open_game(page).actions) == before  # nothing ended yet
    assert_focus(page, dialog.get_by_role("button", name="Keep playing"))
    page.keyboard.press("Escape")
    assert dialog.count() == 0 and len(open_game(page).actions) == before
    wait_settle(page)
    page.get_by_role("button", name="End round 1 now…").tap()
    page.get_by_role("button", name="Keep playing").tap()
    assert len(open_game(page).actions) == before
    wait_settle(page)
    page.get_by_role("button", name="End round 1 now…").tap()
    wait_settle(page)
    page.get_by_role("alertdialog").get_by_role("button", name="End round 1").tap()
    page.wait_for_selector("[data-testid=deal-panel]")
    assert open_game(page).actions[-1] == {"type": "end_round"}


# ---------------------------------------------------------------- wording


def test_wording_of_wounds_countdowns_treatment_and_vehicle_suppression(page, base_url):
    g = make(SQUAD, ORDER,
             {"type": "shoot", "shooter": 0, "targets": [3], "mode": "aimed", "cover": "none", "unseen": False,
              "dice": [{"d10": 10, "d6": 6}]},  # DEAD
             {"type": "shoot", "shooter": 1, "targets": [4], "mode": "aimed", "cover": "none", "unseen": False,
              "dice": [{"d10": 10, "d6": 5, "countdown": 1}]},  # DYING, dead in 1 round
             {"type": "shoot", "shooter": 2, "targets": [6], "mode": "aimed", "cover": "none", "unseen": False,
              "semi": "hit", "dice": [{"d10": 10, "d6": 3, "countdown": 2}]}, rules=OWN)  # INJURED
    open_at(page, link(base_url, g))
    text = page.locator("#app-initiative").inner_text()
    assert "DEAD (CS-10) — DEAD (CS-10)" not in text and "DEAD (CS-10)." in text
    assert "1 rounds" not in text and "DEAD in 1 round" in text
    assert page.get_by_role("button", name="Treated").count() == 0
    assert page.get_by_role("button", name="Treat Sniper (stops the DYING countdown)").is_visible()
    assert page.get_by_role("button", name="Give first aid to Rifleman 2").is_visible()
    page.get_by_role("button", name="Treat Sniper (stops the DYING countdown)").tap()
    assert "treated: will not start DYING" in page.locator("[data-testid=fighter-6]").inner_text()
    # the Tank's shot: "2 suppression (1 ×2 for the ground-vehicle weapon)", not "2 …, ×2"
    tank = make(SQUAD, deal_of("2S", "3S", "4S", "5S", "6S", "AS", "7S"), rules=OWN_DECK)
    open_at(page, link(base_url, tank))
    page.get_by_role("button", name="Shoot…").tap()
    odds = page.locator("[data-testid=odds]").inner_text()
    assert "Each target takes 2 suppression (1 ×2 for the ground-vehicle weapon)" in odds
    page.get_by_role("button", name="Unseen by the target (CS-7)").tap()
    assert "Each target takes 6 suppression (3 ×2 for the ground-vehicle weapon)" in \
        page.locator("[data-testid=odds]").inner_text()


# ---------------------------------------------------------------- focus targets


def test_focus_goes_where_the_next_action_is(page, base_url):
    open_at(page, link(base_url, make(SQUAD)))
    page.get_by_role("button", name="Deal", exact=True).focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=now]")
    assert_focus(page, page.get_by_role("button", name="Next ▸"), message="after Deal:")
    wait_settle(page)
    first = page.locator("[data-testid=current-actor]").inner_text()
    page.keyboard.press("Enter")  # Next: the focus stays on Next for the next actor
    page.wait_for_function("name => document.querySelector('[data-testid=current-actor]').innerText !== name", arg=first)
    assert_focus(page, page.get_by_role("button", name="Next ▸"), message="after Next:")
    page.get_by_role("button", name="Shoot…").focus()
    page.keyboard.press("Enter")
    assert_focus(page, page.locator("[data-testid=shot-panel] [data-focus=target]"), message="after Shoot…:")
    page.keyboard.press("Enter")
    page.get_by_role("button", name=re.compile("^Roll the dice")).focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=shot-result]")
    assert_focus(page, page.locator("[data-testid=shot-result]"), message="after the roll:")
    page.get_by_role("button", name="Players' view", exact=True).focus()
    page.keyboard.press("Enter")
    assert_focus(page, page.get_by_role("button", name="Observer's view…"), message="in the players' view:")
    page.keyboard.press("Enter")
    assert_focus(page, page.get_by_role("button", name="Stay in the players' view"), message="at the question:")
    assert_app_ok(page)
