"""The app's double-tap guard (web/parts/curtain.py TapGuard) and the curtain's (issue 22, 15).

A double tap's second tap lands on whatever appeared under the finger; a tap on another
button elsewhere, however soon, is a person's next tap ("Next ▸" 245 ms after "Deal").
"""

from __future__ import annotations

from web.parts.curtain import DOUBLE_TAP_PX, REFUSED, SETTLE_MS, CurtainGuard, Tap, TapGuard


def tap(time, point=(100, 200), target="deal", label="Deal"):
    return Tap(time, point, target, label)


def test_a_tap_on_another_button_elsewhere_is_taken_however_soon():
    guard = TapGuard()
    first = tap(1000)
    assert guard.judge(first) is None
    guard.taken(first, moved=True)
    nxt = tap(1245, point=(100, 200 + 60), target="next", label="Next ▸")  # a button's height below
    assert guard.judge(nxt) is None and nxt.detail == 1


def test_what_appeared_under_the_finger_is_refused_and_said():
    guard = TapGuard()
    guard.taken(tap(1000), moved=True)
    second = tap(1245, point=(103, 198), target="next", label="Next ▸")
    refusal = guard.judge(second)
    assert refusal == ("Not taken: “Next ▸” appeared under your finger right after your tap on “Deal”, as "
                       "the second tap of a double tap would. Tap it again if you meant it.")


def test_a_second_tap_on_the_same_button_after_the_game_moved_is_refused():
    guard = TapGuard()
    guard.taken(tap(1000, target="next", label="Next ▸"), moved=True)
    refusal = guard.judge(tap(1090, target="next", label="Next ▸"))
    assert refusal is not None and "a second tap on “Next ▸”" in refusal


def test_a_second_tap_on_the_same_unchanged_button_reaches_the_view_as_a_double_tap():
    guard = TapGuard()
    guard.taken(tap(1000, target="plus", label="+"), moved=False)
    second = tap(1090, target="plus", label="+")
    assert guard.judge(second) is None and second.detail == 2  # the view's guard may refuse it


def test_later_or_elsewhere_or_from_the_keyboard_is_never_a_double_tap():
    guard = TapGuard()
    guard.taken(tap(1000), moved=True)
    assert guard.judge(tap(1000 + SETTLE_MS + 1, target="next")) is None  # later
    assert guard.judge(tap(1100, point=(100 + DOUBLE_TAP_PX + 1, 200), target="next")) is None  # elsewhere
    assert guard.judge(tap(1100, point=None, target="next")) is None  # Enter / Space: no spot
    assert guard.judge(tap(900, target="next")) is None  # an older event
    keyboard = TapGuard()
    keyboard.taken(tap(1000, point=None), moved=True)
    assert keyboard.judge(tap(1100, target="next")) is None


def test_the_curtain_guard_says_why_it_did_not_open():
    now = [0.0]
    guard = CurtainGuard(lambda: now[0])
    guard.drawn("curtain-1")
    early = Tap(0, (1, 1), "show", "Show Ben's hand")
    assert guard.may_open(early) is False
    assert early.refused == REFUSED.format(label="Show Ben's hand")
    now[0] = SETTLE_MS + 1
    double = Tap(0, (1, 1), "show", "Show Ben's hand", detail=2)
    assert guard.may_open(double) is False and double.refused
    fine = Tap(0, (1, 1), "show", "Show Ben's hand")
    assert guard.may_open(fine) is True and fine.refused is None
    assert guard.may_open(None) is True  # no tap object (a keyboard shortcut): just the answer


def test_a_mouse_click_is_refused_only_as_the_second_click_of_a_double_click():
    """A mouse (or a test driver's click) at the same spot soon after is a person's next click;
    the second click of a real double click (detail 2) lands on what appeared, and is refused."""
    guard = TapGuard()
    guard.taken(Tap(1000, (100, 200), "deal", "Deal", touch=False), moved=True)
    assert guard.judge(Tap(1100, (100, 200), "next", "Next ▸", touch=False)) is None
    assert guard.judge(Tap(1100, (100, 200), "next", "Next ▸", detail=2, touch=False)).startswith("Not taken")


def test_taps_never_chain_the_one_after_a_second_tap_is_a_new_tap():
    """A player tapping a settling curtain again and again: every other tap is a fresh
    one (detail 1), so the curtain opens once it has settled; taps never chain."""
    guard = TapGuard()
    taps = [tap(1000 + 150 * i, target="curtain", label="Show Anna's hand") for i in range(4)]
    details = []
    for t in taps:
        assert guard.judge(t) is None
        guard.taken(t, moved=False)
        details.append(t.detail)
    assert details == [1, 2, 1, 2]
