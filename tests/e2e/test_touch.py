"""Fingers at the table (issue 34): every control of every screen is a tap of at least
44×44 CSS px, and a rule link lands its clause below the sticky bar with a way back.

The screens are the screenshot tours' (tests/screenshots*.py, the one list of every
screen each table has): the tour is driven as for pictures, and at each picture the
kit measures every visible control instead.
"""

from __future__ import annotations

import importlib

import pytest

from .conftest import open_app
from .tablet import TABLET_IDS, TABLET_SIZES, assert_on_screen, assert_rule_link_lands, assert_taps_big_enough, size_id

#: (tour module, its tour function): every screen of every table.
TOURS = [
    ("tests.screenshots", "tour"),            # home, the conflict
    ("tests.screenshots_conflict", "tour"),   # the conflict's call, between rounds
    ("tests.screenshots_campaign", "tour"),
    ("tests.screenshots_campaign", "own_deck"),  # the 52-card picker
    ("tests.screenshots_consim", "tour"),     # the shot form, the end of the round (Treat)
    ("tests.screenshots_consim", "own_tour"),
    ("tests.screenshots_battle", "tour"),
]

#: Phones are seats of a table (BRIEF): the rule links must land there too.
PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("size", [TABLET_SIZES[0], TABLET_SIZES[1], TABLET_SIZES[3]],
                         ids=[TABLET_IDS[0], TABLET_IDS[1], TABLET_IDS[3]])
@pytest.mark.parametrize("module, tour", TOURS, ids=[f"{m.rsplit('.', 1)[-1]}-{t}" for m, t in TOURS])
def test_every_control_on_every_screen_is_a_finger_wide(page, base_url, module, tour, size, monkeypatch):
    """BRIEF: every control at least 44×44 CSS px, on every screen of the tour, portrait
    (where the most wraps) and both landscapes (where the tracker packs three columns)."""
    mod = importlib.import_module(module)
    problems: dict[str, list[str]] = {}

    def measure(page_, name, *args, **kwargs):
        try:
            assert_taps_big_enough(page_, "body", name)
        except AssertionError as e:
            problems[name] = str(e).splitlines()[1:]

    monkeypatch.setattr(mod, "shoot", measure)
    page.set_viewport_size(size)
    getattr(mod, tour)(page, base_url, f"{size_id(size)}-light")
    assert not problems, "\n".join(f"{name}: {', '.join(p)}" for name, p in problems.items())


@pytest.mark.parametrize("route", ["conflict", "campaign", "initiative", "battle"])
def test_rule_links_land_below_the_bar_and_lead_back(page, base_url, route):
    """Issue 34, 3: a rule chip and the Rules button, at every tablet size and a phone's."""
    open_app(page, base_url + f"#/{route}")
    page.wait_for_selector(f"#app-{route} .rule-ref:visible")
    for size in (*TABLET_SIZES, PHONE):
        page.set_viewport_size(size)
        page.evaluate("scrollTo(0, 0)")
        chips = page.locator(f"#app-{route} .rule-ref:visible")
        assert_rule_link_lands(page, chips.last)
        assert_rule_link_lands(page, chips.first)
        assert_rule_link_lands(page, page.locator(f"section[data-route={route}] .tool-head [data-open-rules]"))
        page.locator(f"#rules-{route}").evaluate("el => el.open = false")


def test_a_cross_reference_keeps_the_way_back_to_the_table(page, base_url):
    """Following OIC-2's reference to OIC-14 inside the panel: Back still returns to the chip."""
    open_app(page, base_url + "#/conflict")
    page.set_viewport_size(TABLET_SIZES[1])
    chip = page.locator("#app-conflict .rule-ref:visible").last
    chip.evaluate("el => el.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(300)
    before = page.evaluate("scrollY")
    chip.dispatch_event("click")  # a tap where the chip is (no scroll of the driver's own first)
    page.locator("#rule-OIC-2 a[href='#rule-OIC-14']").click()
    page.wait_for_function("document.activeElement && document.activeElement.id === 'rule-OIC-14'")
    page.locator("#rules-back").click()
    # Back scrolls to where the tap was; near the page's end the browser's scroll anchoring may
    # then move it by a line as the closed panel settles (seen: 13–19 px), the chip still in sight.
    assert abs(page.evaluate("scrollY") - before) <= 24
    assert_on_screen(page, chip)
    assert chip.evaluate("el => document.activeElement === el")


@pytest.mark.parametrize("size", TABLET_SIZES, ids=TABLET_IDS)
def test_home_and_setups_are_a_finger_wide(page, base_url, size):
    """The first screens at every tablet size (media queries change paddings)."""
    open_app(page, base_url)
    page.set_viewport_size(size)
    assert_taps_big_enough(page, "body", "home")
    for route in ("conflict", "campaign", "initiative", "battle"):
        page.goto(base_url + f"#/{route}")
        page.wait_for_selector(f"#app-{route} .rule-ref:visible")
        assert_taps_big_enough(page, "body", route)


_MARKERS = """() => [...document.querySelectorAll('summary')].map(s => {
    const before = getComputedStyle(s, '::before');
    const shown = s.getClientRects().length > 0;
    const marker = before.content !== 'none' && before.display !== 'none'
        && parseFloat(before.borderRightWidth) > 0 && parseFloat(before.width) > 0;
    return {text: s.innerText.trim().slice(0, 50), shown, marker, turn: before.transform};
})"""


def test_every_summary_has_a_disclosure_marker(page, base_url):
    """Issue 34, 10: a collapsible section reads as one (a marker, turned when open)."""
    open_app(page, base_url + "#/conflict")
    page.get_by_role("button", name="Load the Purple Dragon League example").click()
    page.wait_for_selector("summary:has-text('Where the example is silent')")
    found = page.evaluate(_MARKERS)
    texts = {f["text"] for f in found}
    assert {"Where the example is silent: the app's choices", "Rules of Organizations In Conflict"} <= texts
    missing = [f["text"] for f in found if not f["marker"]]
    assert not missing, f"summaries without a marker: {missing}"
    summary = page.locator("summary", has_text="Where the example is silent")
    closed = page.evaluate(_MARKERS)
    summary.click()
    page.wait_for_timeout(400)  # the turn's transition
    opened = page.evaluate(_MARKERS)
    turn = {f["text"]: f["turn"] for f in closed}
    assert [f for f in opened if f["text"].startswith("Where the example") and f["turn"] == turn[f["text"]]] == [], \
        "the marker does not turn when the section opens"
