"""Issue 22 on the battle board, each defect with its test (tablet kit, Chromium):

6. after every line unit is destroyed the army is told what it does now (HR-AI-3, complete);
7. at 1024×768 the house-table cell editor opens where it is seen;
8. Feint cancels Counter Attack (AI-16): the bid screen and the reveal say so;
9. army lists and stratagems are never cut off in small scroll areas; units join and are
   corrected between weeks, each recorded in the history;
10. the Jibril preset says that the source gives no armour or size number, and gives them one
    in one tap;
and the wording: no "(4 mitigated)" beside "1 of 1", a leave button that says what it does and
why it is offered; focus targets after each step.
"""

from __future__ import annotations

import pytest

from engine import codec
from engine.game import replay

from .conftest import TABLET_LANDSCAPE
from .tablet import TABLET_IDS, TABLET_SIZES, assert_app_ok, assert_focus, assert_on_screen, edit_then_tap, safari_tap
from .test_battle import full_game, lift_curtain, open_app, pick, start_example


def open_game(page, base_url, game) -> None:
    open_app(page, base_url + "#/battle?g=" + codec.encode_share(game))
    page.wait_for_selector("[data-testid=board]")


def week(game, m0, m1, s0=(), s1=(), **roll):
    from engine.game import apply

    game = apply(game, {"type": "bid", "side": 0, "maneuver": m0, "stratagems": list(s0)})
    game = apply(game, {"type": "bid", "side": 1, "maneuver": m1, "stratagems": list(s1)})
    game = apply(game, {"type": "reveal"})
    return apply(game, {"type": "roll", **roll})


def unit(name, attack=2, defense=2, mobility=2, traits=("infantry", "line"), armour=0, size=0):
    return {"name": name, "attack": attack, "defense": defense, "mobility": mobility, "traits": list(traits),
            "armour": armour, "size": size}


def battle(north, south, north_general=None, south_general=None, seed=4):
    from engine.game import new_game

    return new_game("battle", {"armies": [
        {"name": "North", "units": north, "vanguard": 0, "general": north_general},
        {"name": "South", "units": south, "vanguard": 0, "general": south_general}]}, None, seed)


# ---------------------------------------------------------------- 6: no line unit left

def test_6_the_army_without_a_line_unit_is_told_what_it_does_now(page, base_url):
    game = battle([unit("Line", 1, 1, 1), unit("Guns", 1, 1, 1, traits=["long range"], size=9)],
                  [unit("Foe", 1, 1, 1, size=99)])
    game = week(game, "attack", "attack", dice=[[1], [1]])  # Foe's "Inflict 1 casualty" destroys the line
    open_game(page, base_url, game)
    result = page.locator("[data-testid=week-result]").inner_text()
    assert ("HR-AI-3: North has no line unit left: Guns (not a line unit) stands in the line as its vanguard, "
            "and the army fights on") in result
    guns = page.locator("[data-testid=army-0] li[data-key='unit0.1']").inner_text()
    assert "vanguard" in guns and "not a line unit (HR-AI-3)" in guns
    assert "fights on" in page.locator("[data-testid=log]").inner_text()
    assert_app_ok(page)


# ---------------------------------------------------------------- 7: the cell editor on screen

@pytest.mark.parametrize("size", TABLET_SIZES, ids=TABLET_IDS)
def test_7_the_house_cell_editor_opens_where_it_is_seen(page, base_url, size):
    page.set_viewport_size(size)
    open_app(page, base_url + "#/battle")
    cell = page.locator("[data-testid=setup] [data-action='battle:edit-cell'][data-arg='shock.shock']")
    cell.scroll_into_view_if_needed()
    cell.tap()
    editor = page.locator("[data-testid=cell-editor]")
    field = editor.locator("[data-field=cell-text]")
    assert_on_screen(page, editor, field, editor.get_by_role("button", name="Use as house rule"))
    assert_focus(page, field)
    assert "Shock Attack against Shock Attack" in editor.inner_text()
    edit_then_tap(field, "Inflict 2-4 casualties", editor.get_by_role("button", name="Use as house rule"))
    assert page.locator("#app-battle td[data-cell='drawn.shock.shock']").get_attribute("data-origin") == "house"
    page.keyboard.press("Escape")
    assert page.locator("[data-testid=cell-editor]").count() == 0
    assert_focus(page, cell)  # back on the cell it edited
    assert_app_ok(page)


# ---------------------------------------------------------------- 8: Feint and Counter Attack

def test_8_feint_cancels_counter_attack_on_the_bid_screen_and_at_the_reveal(page, base_url):
    game = battle([unit("N1"), unit("N2")], [unit("S1"), unit("S2")],
                  {"name": "Vey", "level": 2, "traits": []}, {"name": "Orr", "level": 3, "traits": []})
    open_game(page, base_url, game)
    lift_curtain(page)
    pick(page, "defend")
    counter = page.locator("[data-action='battle:strat'][data-arg=counter_attack]").inner_text()
    assert "cancelled by the enemy's Feint" in counter
    page.locator("[data-action='battle:strat'][data-arg=counter_attack]").tap()
    page.get_by_role("button", name="Declare in secret").tap()
    lift_curtain(page)
    pick(page, "attack")
    feint = page.locator("[data-action='battle:strat'][data-arg=feint]").inner_text()
    assert "cancels the enemy's Counter Attack" in feint
    assert "not given in the rules" in feint and not feint.startswith("Feint — effect not given")
    page.locator("[data-action='battle:strat'][data-arg=feint]").tap()
    page.get_by_role("button", name="Declare in secret").tap()
    page.get_by_role("button", name="Reveal both bids").tap()
    north = page.locator("[data-testid=revealed-0]").inner_text()
    assert "South's Feint cancels this Counter Attack" in north and "it stays a Defend" in north
    assert page.get_by_role("button", name="Counter Attack: switch to Attack").count() == 0
    assert "cancels North's Counter Attack" in page.locator("[data-testid=revealed-1]").inner_text()
    page.get_by_role("button", name="Roll the dice").tap()
    assert "cancel each other" in page.locator("[data-testid=week-result]").inner_text()
    assert_app_ok(page)


# ---------------------------------------------------------------- 9: lists whole; join and correct

def no_clipped_scroll_area(page, selector: str) -> None:
    """Nothing inside ``selector`` is a scroll box that hides part of its content."""
    clipped = page.locator(selector).evaluate("""root => [root, ...root.querySelectorAll('*')].filter(el => {
        const s = getComputedStyle(el);
        return /(auto|scroll|hidden)/.test(s.overflowY) && el.scrollHeight > el.clientHeight + 1;
    }).map(el => el.className || el.tagName)""")
    assert clipped == [], f"cut off inside {clipped}"


@pytest.mark.parametrize("size", [TABLET_LANDSCAPE, TABLET_SIZES[0]], ids=["1024x768", "768x1024"])
def test_9_army_lists_and_stratagems_are_never_cut_off(page, base_url, size):
    page.set_viewport_size(size)
    north = [unit(f"North Division {i}", size=3) for i in range(1, 21)]  # 20 infantry: Continuous Front
    north.append(unit("Spotters", traits=["observer", "long range"]))
    game = battle(north, [unit(f"South {i}") for i in range(1, 15)], {"name": "Vey", "level": 3, "traits": []})
    open_game(page, base_url, game)
    for s in (0, 1):
        panel = page.locator(f"[data-testid=army-{s}]")
        no_clipped_scroll_area(page, f"[data-testid=army-{s}]")
        assert panel.locator("li.unit").count() == len(game.setup["armies"][s]["units"])
    lift_curtain(page)
    pick(page, "defend")
    no_clipped_scroll_area(page, "[data-testid=bid-form]")
    names = page.locator("[data-action='battle:strat'] strong").all_inner_texts()
    assert names == ["Continuous Front", "Hold the Line", "Counter Attack", "Harassing Fire"]
    last = page.locator("[data-action='battle:strat']").last
    page.locator("[data-testid=bid-form]").evaluate("el => el.scrollIntoView({block: 'end'})")
    assert_on_screen(page, last)  # scrolled to the end of the bid, not under the sticky Declare bar
    assert_app_ok(page)


def test_9_units_join_and_are_corrected_between_weeks_recorded_in_the_history(page, base_url):
    start_example(page, base_url)
    zone = page.locator("[data-testid=army-1]")
    zone.get_by_role("button", name="A unit joins Zone Army").tap()
    form = page.locator("[data-testid=unit-form]")
    assert_focus(page, form.locator("[data-field='uform:name']"))
    form.locator("[data-field='uform:name']").fill("Zone Reserve Division")
    form.locator("[data-field='uform:defense']").fill("4")
    form.locator("[data-field='uform:size']").fill("2")
    edit_then_tap(form.locator("[data-field='uform:size']"), "2", form.get_by_role("button", name="Join the battle"))
    page.wait_for_selector("[data-testid=unit-form]", state="detached")
    assert zone.locator("li.unit").count() == 7
    jibril = page.locator("[data-testid=army-0]")
    jibril.get_by_role("button", name="Correct Jibril Armoured Infantry Division 2").tap()
    form.locator("[data-field='uform:armour']").fill("2")
    safari_tap(form.get_by_role("button", name="Record the correction"))
    page.wait_for_selector("[data-testid=unit-form]", state="detached")
    game = full_game(page)
    assert [a["type"] for a in game.actions] == ["join", "correct"]
    state = replay(game)
    assert state.armies[1].units[-1].name == "Zone Reserve Division" and state.armies[1].units[-1].defense == 4
    assert state.armies[0].units[1].armour == 2
    log = page.locator("[data-testid=log]").inner_text()
    assert "Zone Reserve Division joins Zone Army" in log and "armour 0 → 2" in log
    page.get_by_role("button", name="History").tap()
    history = page.locator(".history-list").inner_text()
    assert "Zone Reserve Division joins Zone Army" in history and "Jibril Armoured Infantry Division 2 corrected" in history
    page.get_by_role("button", name="History").tap()
    # A refusal is said in the form and changes nothing (AI-14: armour or size, not both).
    jibril.get_by_role("button", name="Correct Jibril Armoured Infantry Division 1").tap()
    form.locator("[data-field='uform:armour']").fill("2")
    form.locator("[data-field='uform:size']").fill("2")
    safari_tap(form.get_by_role("button", name="Record the correction"))
    assert "armour or size, not both" in form.inner_text()
    assert len(full_game(page).actions) == 2
    # Only between weeks: once a side has declared, no unit joins.
    form.get_by_role("button", name="Cancel").tap()
    lift_curtain(page)
    pick(page, "attack")
    page.get_by_role("button", name="Declare in secret").tap()
    assert page.get_by_role("button", name="A unit joins Zone Army").count() == 0
    assert_app_ok(page)


# ---------------------------------------------------------------- 10: the Jibril preset

def test_10_the_jibril_preset_says_the_source_gives_no_number_and_one_tap_gives_one(page, base_url):
    open_app(page, base_url + "#/battle")
    note = page.locator("[data-testid=jibril-note-0]")
    assert "gives no armour or size number" in note.inner_text()
    assert "one casualty destroys a division (HR-AI-1)" in note.inner_text()
    page.locator("[data-testid=army-0]").get_by_role("button", name="+ Jibril Armoured Infantry Division").tap()
    page.get_by_role("button", name="Give them armour 2: the Jibril divisions of army 1").tap()
    for u in (0, 1):
        assert page.locator(f"[data-field='setup:armies.0.units.{u}.armour']").input_value() == "2"
        assert page.locator(f"[data-field='setup:armies.0.units.{u}.size']").input_value() == "0"
    assert "have armour or size now" in note.inner_text()
    page.get_by_role("button", name="Start the battle").tap()
    page.wait_for_selector("[data-testid=board]")
    assert all(u["armour"] == 2 for u in full_game(page).setup["armies"][0]["units"])
    assert_app_ok(page)


def test_ai14_the_builder_says_armour_or_size_not_both(page, base_url):
    open_app(page, base_url + "#/battle")
    assert "Armour or size, not both" in page.locator("[data-testid=army-1]").inner_text()
    for key in ("armour", "size"):
        field = page.locator(f"[data-field='setup:armies.1.units.0.{key}']")
        field.fill("2")
        field.dispatch_event("change")
    assert "AI-14: a unit has armour or size, not both" in page.locator("[data-testid=setup-error]").inner_text()
    assert page.get_by_role("button", name="Start the battle").is_disabled()
    assert page.locator("[data-field='setup:armies.1.units.0.size']").get_attribute("aria-invalid") == "true"


# ---------------------------------------------------------------- wording

def test_mitigation_is_said_once_and_right(page, base_url):
    game = battle([unit("N", defense=4, size=99)], [unit("S", attack=1, size=99)])
    game = week(game, "defend", "attack", dice=[[6, 6, 6, 6], [1]], ranges=[1, 1])
    open_game(page, base_url, game)
    takes = page.locator("[data-testid=takes-0]").inner_text()
    assert takes == "Takes 0 of 1 casualty: Defend cancels 1 (AI-15)"
    assert "mitigated" not in page.locator("[data-testid=week-result]").inner_text()


def test_the_leave_offer_says_why_and_what_it_does(page, base_url):
    game = battle([unit("N", size=9)], [unit("S", size=9)])
    game = week(game, "attack", "skirmish", dice=[[1, 1], [1, 1]])
    open_game(page, base_url, game)
    offer = page.locator("[data-testid=leave-0]")
    assert "South skirmished last week, so North may leave the battle now, before the bids (AI-15)." in \
        offer.inner_text()
    offer.get_by_role("button", name="Take North out of the battle").tap()
    assert "North leaves the battle" in page.locator("[data-testid=outcome]").inner_text()
    assert "breakthrough" not in page.locator("#app-battle").inner_text().lower()


# ---------------------------------------------------------------- focus targets

def test_focus_moves_to_what_the_table_needs_next(page, base_url):
    start_example(page, base_url)
    lift_curtain(page)
    assert_focus(page, page.locator("[data-action='battle:pick'][data-arg=withdraw]"))
    pick(page, "attack")
    page.get_by_role("button", name="Declare in secret").tap()
    assert_focus(page, page.locator("[data-testid=curtain] button"))
    lift_curtain(page)
    pick(page, "defend")
    page.get_by_role("button", name="Declare in secret").tap()
    assert_focus(page, page.get_by_role("button", name="Reveal both bids"))
    page.get_by_role("button", name="Reveal both bids").tap()
    assert_focus(page, page.get_by_role("button", name="Roll the dice"))
    page.get_by_role("button", name="Roll the dice").tap()
    assert_focus(page, page.locator("[data-testid=headline]"))
