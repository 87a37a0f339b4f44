"""Issue 14: accessibility beyond axe on the conflict table, with the kit's checks.

Focus after every action, a visible focus ring on cards, the curtain and the drawers
managing focus, measured contrast of suit marks, ranks and badges in both themes,
heading order, and a whole round played with Tab, Enter and Space only.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from .conftest import ROOT, TABLET_LANDSCAPE, open_app
from .tablet import (
    KeyboardOnly,
    assert_contrast,
    assert_curtain_announced,
    assert_escape_closes_drawer,
    assert_focus,
    assert_focus_visible,
    contrasts,
)
from .test_tablet import game_link

SHOTS = ROOT / "screenshots" / "a11y"
HAND = "[data-testid=hand]"
CURTAIN_BUTTON = "[data-testid=curtain] button"


def setup_example(page, base_url, seed: str = "7") -> None:
    """The Purple Dragon example with a fixed seed, ready to start (set up by mouse:
    typing the seed is not a Tab, Enter or Space key)."""
    open_app(page, base_url + "#/conflict")
    page.get_by_role("button", name="Load the Purple Dragon League example").click()
    page.locator("#app-conflict [data-field=seed]").fill(seed)


def curtain_ready(page) -> None:
    """Wait while a new curtain ignores taps (its double-tap pause)."""
    page.wait_for_function("""() => { const b = document.querySelector('[data-testid=curtain] button');
        return b && !b.disabled && b.getAttribute('aria-disabled') !== 'true'; }""")


def play_round_by_keyboard(page) -> KeyboardOnly:
    """From the seed field: Start, both discards kept, then each side plays its first
    playable card (Space) or ends the round, until the result shows."""
    keys = KeyboardOnly(page)
    keys.activate(page.get_by_role("button", name="Start the conflict"), label="start")
    for turn in range(60):
        if page.locator("[data-testid=result]").count():
            return keys
        if page.locator(CURTAIN_BUTTON).count():
            curtain_ready(page)
            keys.activate(page.locator(CURTAIN_BUTTON), label=f"{turn} curtain")
            page.wait_for_selector(HAND)
        elif page.get_by_role("button", name="Keep all cards").count():
            keys.activate(page.get_by_role("button", name="Keep all cards"), label=f"{turn} keep")
        elif page.locator(f"{HAND} .card.playable").count():
            keys.activate(page.locator(f"{HAND} .card.playable").first, key="Space", label=f"{turn} play")
        else:
            keys.activate(page.get_by_role("button", name="Pass — end the round"), label=f"{turn} pass")
    raise AssertionError("the round did not end")


def test_a_round_played_with_tab_enter_and_space_only(page, base_url):
    page.set_viewport_size(TABLET_LANDSCAPE)
    setup_example(page, base_url)
    keys = play_round_by_keyboard(page)
    result = page.locator("[data-testid=result]")
    assert result.count() == 1
    report = {"presses": keys.presses, "steps": keys.steps}
    print("KEYBOARD ROUND", json.dumps(report))
    if os.environ.get("A11Y_MEASURE"):
        Path(os.environ["A11Y_MEASURE"]).write_text(json.dumps(report, indent=1))
    # After each curtain, play and kept hand the focus was already on the next action:
    # curtains, plays and "cannot play" take no Tab; keeping a hand passes its cards
    # (15 in the example) on the way to "Keep all cards"; Start is 7 Tabs from the seed.
    def allowed(label):
        return 8 if label == "start" else 17 if label.endswith("keep") else 0

    far = [(label, tabs) for label, tabs in keys.steps if tabs > allowed(label)]
    assert not far, far
    assert_focus(page, result, message="after the round:")


# ---------------------------------------------------------------- contrast
def contrast_screens(page, base_url):
    """(screen, element kind, locator, graphic) of suit marks, ranks and badges."""
    out = []
    page.goto(f"{base_url}#/conflict?g={game_link('hand')}")
    page.wait_for_selector("[data-testid=curtain]")
    curtain_ready(page)
    page.locator(CURTAIN_BUTTON).click()
    page.wait_for_selector(HAND)
    out += [("hand", "suit mark (chips)", page.locator(".chips .suit-mark.red"), False),
            ("hand", "suit mark (hand)", page.locator(f"{HAND} .suit-head .suit-mark.red"), False),
            ("hand", "red rank (playable)", page.locator(f"{HAND} .card.red.playable .card-rank"), False),
            ("hand", "red rank (blocked)", page.locator(f"{HAND} .card.red.blocked .card-rank"), False),
            ("hand", "black rank (blocked)", page.locator(f"{HAND} .card.black.blocked .card-rank"), False),
            ("hand", "red pip (blocked)", page.locator(f"{HAND} .card.red.blocked .card-centre"), True),
            ("hand", "chip max", page.locator(".chips .chip-max"), False)]
    yield out
    out = []
    page.goto(f"{base_url}#/conflict?g={game_link('discard')}")
    page.wait_for_selector("[data-testid=curtain]")
    curtain_ready(page)
    page.locator(CURTAIN_BUTTON).click()
    page.wait_for_selector(HAND)
    page.locator(f"{HAND} .card.unusable").first.click()
    out += [("discard", "rank (unusable)", page.locator(f"{HAND} .card.unusable .card-rank"), False),
            ("discard", "face letter", page.locator(f"{HAND} .card .face-letter"), True)]
    yield out
    out = []
    page.goto(f"{base_url}#/conflict?g={game_link('result')}")
    page.wait_for_selector("[data-testid=result]")
    page.locator(".rules-in-play summary").click()
    out += [("result", "suit mark (side panel)", page.locator(".ratings .suit-mark.red"), False),
            ("result", "badge", page.locator("#app-conflict .badge"), False)]
    yield out
    page.goto(f"{base_url}#/conflict?g={game_link('picker')}")
    page.wait_for_selector("[data-testid=picker]")
    for _ in range(2):  # each side enters a card: the first side's is "played" in its picker
        page.locator("[data-testid=picker] .card.playable").first.click()
    yield [("picker", "rank (played pick)", page.locator("[data-testid=picker] .card.played .card-rank"), False),
           ("picker", "red rank (blocked pick)", page.locator("[data-testid=picker] .card.red.blocked .card-rank"), False),
           ("picker", "suit mark (picker)", page.locator("[data-testid=picker] .suit-mark.red"), False)]


def measure_contrast(new_device, base_url, theme):
    context = new_device(viewport=TABLET_LANDSCAPE, has_touch=True, color_scheme=theme)
    page = context.new_page()
    rows = []
    try:
        open_app(page, base_url + "#/conflict")
        for group in contrast_screens(page, base_url):
            for screen, what, locator, graphic in group:
                found = contrasts(locator)
                assert found, f"{theme} {screen} {what}: nothing to measure"
                worst = min(found, key=lambda m: m["ratio"])
                rows.append({"theme": theme, "screen": screen, "element": what, "ratio": worst["ratio"],
                             "fg": worst["fg"], "bg": worst["bg"], "graphic": graphic, "large": worst["large"]})
                assert_contrast(locator, f"{theme} {screen} {what}", graphic=graphic)
    finally:
        if os.environ.get("A11Y_MEASURE"):
            path = Path(os.environ["A11Y_MEASURE"] + f".contrast-{theme}.json")
            path.write_text(json.dumps(rows, indent=1))
        context.close()
    return rows


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_suit_marks_ranks_and_badges_meet_aa_in_both_themes(new_device, base_url, theme):
    rows = measure_contrast(new_device, base_url, theme)
    assert len(rows) >= 10


# ---------------------------------------------------------------- focus after each action
def test_focus_goes_where_the_next_action_is(page, base_url):
    setup_example(page, base_url)
    page.get_by_role("button", name="Start the conflict").click()
    curtain = page.locator("[data-testid=curtain]")
    assert_curtain_announced(page, curtain, r"Pass the tablet to .+ to discard")
    curtain_ready(page)
    page.keyboard.press("Enter")
    assert_focus(page, page.locator(f"{HAND} [data-focus=hand]"), message="after opening the curtain:")
    assert page.locator(f"{HAND} [role=group][aria-label^='Hand of']").count() == 1
    page.get_by_role("button", name="Keep all cards").click()
    assert_curtain_announced(page, curtain, r"Pass the tablet to .+ to discard")
    curtain_ready(page)
    page.locator(CURTAIN_BUTTON).click()
    page.get_by_role("button", name="Keep all cards").click()
    assert_curtain_announced(page, curtain, r"Pass the tablet to .+ to play")
    curtain_ready(page)
    page.locator(CURTAIN_BUTTON).click()
    first = page.locator(f"{HAND} .card.playable").first
    assert_focus(page, first, message="a revealed hand to play:")
    # A refused card keeps the focus (the refusal is read out as an alert).
    blocked = page.locator(f"{HAND} .card.blocked").first
    arg = blocked.get_attribute("data-arg")
    blocked.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=refusal]")
    assert_focus(page, page.locator(f"{HAND} [data-arg='{arg}']"), message="after a refusal:")
    # "Cannot play" asks first: the question takes the focus, Escape answers "keep playing".
    page.get_by_role("button", name="Pass — end the round").focus()
    page.keyboard.press("Enter")
    assert_focus(page, page.get_by_role("button", name="Keep playing"), message="the question:")
    page.keyboard.press("Escape")
    assert page.locator("[data-testid=confirm-pass]").count() == 0
    assert_focus(page, page.get_by_role("button", name="Pass — end the round"), message="after Escape:")
    # A play: the next curtain's button.
    page.locator(f"{HAND} .card.playable").first.focus()
    page.keyboard.press("Space")
    assert_curtain_announced(page, curtain, r"Pass the tablet to .+ to play")
    # The end of the round: its result.
    for _ in range(40):
        if page.locator("[data-testid=result]").count():
            break
        curtain_ready(page)
        page.locator(CURTAIN_BUTTON).click()
        playable = page.locator(f"{HAND} .card.playable")
        if playable.count():
            playable.first.click()
        else:
            page.get_by_role("button", name="Pass — end the round").click()
    assert_focus(page, page.locator("[data-testid=result]"), message="after the round:")
    page.get_by_role("button", name=re.compile("Start round 2")).click()
    assert_curtain_announced(page, curtain, r"Pass the tablet to")


@pytest.mark.parametrize("drawer", ["History", "Saves", "Share"])
def test_drawers_are_disclosures_and_escape_closes_them(page, base_url, drawer):
    setup_example(page, base_url)
    page.get_by_role("button", name="Start the conflict").click()
    toggle = page.locator("#app-conflict .session-bar").get_by_role("button", name=drawer)
    # The toggle names its drawer (aria-controls) only while the drawer exists.
    region = page.locator(f"#conflict-drawer-{drawer.lower()}")
    assert_escape_closes_drawer(page, toggle, region)
    # Opening moves the focus into the drawer; its Close button gives it back to the toggle.
    toggle.click()
    assert_focus(page, region, message="an opened drawer:")
    # A person reads the drawer before closing it: a tap within 450 ms at the spot where the
    # toggle was (the focus may scroll the drawer there) would be a double tap's second tap.
    page.wait_for_timeout(500)
    region.get_by_role("button", name="Close").click()
    assert region.count() == 0
    assert_focus(page, toggle, message="after Close:")


# ---------------------------------------------------------------- visible focus on cards
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_focused_card_is_visibly_different(new_device, base_url, theme):
    context = new_device(viewport=TABLET_LANDSCAPE, has_touch=True, color_scheme=theme)
    page = context.new_page()
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        open_app(page, base_url + "#/conflict")
        page.goto(f"{base_url}#/conflict?g={game_link('hand')}")
        page.wait_for_selector("[data-testid=curtain]")
        curtain_ready(page)
        page.locator(CURTAIN_BUTTON).click()
        page.wait_for_selector(HAND)
        assert_focus_visible(page, page.locator(f"{HAND} .card.playable"), str(SHOTS / f"focus-playable-{theme}.png"))
        assert_focus_visible(page, page.locator(f"{HAND} .card.blocked"), str(SHOTS / f"focus-blocked-{theme}.png"))
        page.goto(f"{base_url}#/conflict?g={game_link('discard')}")
        page.wait_for_selector("[data-testid=curtain]")
        curtain_ready(page)
        page.locator(CURTAIN_BUTTON).click()
        page.locator(f"{HAND} .card").first.click()
        assert_focus_visible(page, page.locator(f"{HAND} .card.selected"), str(SHOTS / f"focus-selected-{theme}.png"))
    finally:
        context.close()


# ---------------------------------------------------------------- headings
def test_headings_never_skip_a_level(new_device, base_url):
    from .test_shell import AXE

    context = new_device(bypass_csp=True, viewport=TABLET_LANDSCAPE)
    page = context.new_page()
    found = {}
    try:
        open_app(page, base_url)
        page.add_script_tag(content=AXE.read_text())
        for route in ("campaign", "initiative", "battle", "conflict"):
            page.goto(f"{base_url}#/{route}")
            page.locator(f"#rules-{route} summary").click()
            result = page.evaluate("axe.run(document, {runOnly: ['heading-order', 'aria-valid-attr-value']})")
            found[route] = [f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}" for v in result["violations"]]
        setup_example(page, base_url)
        page.add_script_tag(content=AXE.read_text())
        page.get_by_role("button", name="Start the conflict").click()
        page.wait_for_selector("[data-testid=table]")  # the table drawn, not the page between routes
        result = page.evaluate("axe.run(document, {runOnly: ['heading-order', 'aria-valid-attr-value']})")
        found["table"] = [v["id"] for v in result["violations"]]
    finally:
        context.close()
    assert all(v == [] for v in found.values()), found
