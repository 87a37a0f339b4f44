"""The CONSIM tracker's own cards and dice (issue 18, HR-CS-6, HR-CS-7), tapped through the
view on the fake browser: every tap is an action the view handles, every check is against
the game the session holds."""

from __future__ import annotations

import importlib
import sys

import pytest

from engine import consim as cs
from engine.game import replay

from .fakebrowser import FakeApp, browser
from .test_session import buttons, find, texts_of

ROSTER = [{"name": n, "side": s, "grain": "individual", "training": "trained", "weapon": [], "player": s == 0}
          for n, s in (("Ann", 0), ("Bo", 0), ("Cy", 1), ("Di", 1))]


def forget() -> None:
    """The view package and its screens imported afresh next time (against this fake browser)."""
    for name in [m for m in sys.modules if m == "web.views.consim" or m.startswith("web.views.consim.")]:
        sys.modules.pop(name)


@pytest.fixture
def view():
    with browser():
        forget()
        mod = importlib.import_module("web.views.consim")
        app = FakeApp()
        v = mod.ConsimView(app)
        v.boot()
        v.draft = {"sides": ["Blue", "Red"], "combatants": [dict(c) for c in ROSTER], "privacy": True}
        v.rules.update(deck="table", dice="table")
        v.seed_text = "11"
        v.handle("init:start", None, None, None)
        assert v.session.game is not None, app.toasts
        yield v
        forget()


def screen(v):
    from web.dom import h

    return h("div", {}, v.render())


def tap(v, action, arg=None):
    v.handle(action, None if arg is None else str(arg), None, None)
    return screen(v)


def state(v):
    return replay(v.session.game)


def test_the_cards_are_entered_combatant_by_combatant_and_checked(view):
    tree = tap(view, "init:entry-open")
    assert find(tree, lambda n: getattr(n, "attrs", {}).get("data-testid") == "card-entry")
    assert not buttons(tree, "init:deal")  # with our own deck the app does not deal (HR-CS-6)
    assert "Enter the cards dealt at the table for round 1" in texts_of(tree)
    for token in ("AS", "KH"):  # Ann, then (after her one card) Bo
        tree = tap(view, "init:entry-pick", token)
    tree = tap(view, "init:entry-pick", "AS")  # Cy's turn: the A♠ is Ann's already
    assert "CS-6" in view.notice and "Ann's already" in view.notice
    tree = tap(view, "init:entry-pick", "QD")
    tree = tap(view, "init:entry-who", 2)
    tree = tap(view, "init:entry-pick", "QD")  # one tap takes a card back
    deal_button = buttons(tree, "init:entry-deal")[0]
    assert "disabled" in deal_button.attrs
    for token in ("QD", "2C"):
        tree = tap(view, "init:entry-pick", token)
    assert "disabled" not in buttons(tree, "init:entry-deal")[0].attrs
    tap(view, "init:entry-deal")
    st = state(view)
    assert st.phase == "round" and [h.dealt[0].token for h in st.hands] == ["AS", "KH", "QD", "2C"]
    assert view.app.scrolls[-1] == "[data-testid=tracker]"


def test_the_shot_takes_the_tables_dice_one_tap_each_and_a_tap_takes_one_back(view):
    tap(view, "init:entry-open")
    for token in ("AS", "KH", "QD", "2C"):
        tap(view, "init:entry-pick", token)
    tap(view, "init:entry-deal")
    tap(view, "init:shoot-open")
    tree = tap(view, "init:target", 2)
    fire = buttons(tree, "init:fire")[0]
    assert "Record the shot" in texts_of(fire) and "disabled" in fire.attrs
    assert "the d10 to hit Cy" in texts_of(tree)
    tree = tap(view, "init:die", 9)  # trained: +0, 9 ≥ 6 in the open: a hit; the d6 next
    assert "the d6 for Cy's wound" in texts_of(tree)
    tree = tap(view, "init:die", 2)  # 2: STUN, no countdown
    assert "disabled" not in buttons(tree, "init:fire")[0].attrs
    tree = tap(view, "init:die-back", "0.d6")  # taken back: the d6 is asked again
    assert "the d6 for Cy's wound" in texts_of(tree)
    tap(view, "init:die", 3)  # 3: INJURE, a 2d6 countdown
    tree = screen(view)
    assert "2d6 countdown" in texts_of(tree)
    assert [b.attrs["data-arg"] for b in buttons(tree, "init:die")] == [str(v) for v in range(2, 13)]
    tap(view, "init:die", 7)
    tap(view, "init:fire")
    shot = view.session.game.actions[-1]
    assert shot["dice"] == [{"d10": 9, "d6": 3, "countdown": 7}]
    assert state(view).statuses[2].condition is cs.Condition.INJURED


def test_the_equipment_is_shown_in_the_share_drawer_and_the_rules_in_play(view):
    view.session.drawer = "share"
    tree = screen(view)
    text = texts_of(tree)
    assert "Played with:" in text and "Our own deck" in text and "Our own dice" in text
    rules = texts_of(view._rules_in_play(state(view)))
    assert "HR-CS-6" in rules and "Whose cards: our own deck" in rules


def test_the_dying_countdown_is_tapped_in_before_the_round_can_end(view):
    def deal_all():
        tap(view, "init:entry-open")
        owed = cs.cards_owed(state(view))
        for token, n in zip(("AS", "KH", "QD", "2C"), owed):
            if n:
                tap(view, "init:entry-pick", token)
        tap(view, "init:entry-deal")

    deal_all()
    tap(view, "init:shoot-open")
    tap(view, "init:target", 2)
    for value in (9, 3, 2):  # a hit, INJURE (3 + 0), a 2d6 countdown of 2 rounds (CS-13)
        tap(view, "init:die", value)
    tap(view, "init:fire")
    assert state(view).statuses[2].condition is cs.Condition.INJURED
    for _ in range(3):
        st = state(view)
        if cs.countdowns_due(st):
            break
        tap(view, "init:end-early")
        tap(view, "init:end-yes")
        deal_all()
    st = state(view)
    assert cs.countdowns_due(st) == (2,)
    tap(view, "init:end-early")
    tree = screen(view)
    assert find(tree, lambda n: getattr(n, "attrs", {}).get("data-testid") == "countdown-entry")
    tap(view, "init:end-yes")  # refused until the die is entered
    assert "CS-13" in view.notice and "Cy" in view.notice and state(view).phase == "round"
    assert view.confirm_end  # the question stays open, with the die to enter
    tap(view, "init:cd", "2.4")
    tap(view, "init:end-yes")
    assert view.session.game.actions[-1]["dice"] == {"2": 4}
    assert state(view).statuses[2].condition is cs.Condition.DYING and state(view).statuses[2].countdown == 4


def test_a_double_taps_second_tap_never_takes_back_a_card_or_enters_a_die_it_did_not_see(view):
    from web.parts.curtain import Tap

    tap(view, "init:entry-open")
    tap(view, "init:entry-pick", "AS")  # Ann's one card; the entry moves on to Bo
    tap(view, "init:entry-who", 0)  # back to Ann (owed 1: her card would be taken back by a tap)
    view.app.tap = Tap(0, (10, 10), None, detail=2)  # the guard's mark: the second tap on the same card
    tap(view, "init:entry-pick", "AS")
    assert view.app.tap.refused and "double tap" in view.app.tap.refused
    assert view.entry["cards"][0] == ["AS"]
    view.app.tap = None
    tap(view, "init:entry-who", 1)
    for token in ("KH", "QD", "2C"):
        tap(view, "init:entry-pick", token)
    tap(view, "init:entry-deal")
    tap(view, "init:shoot-open")
    tree = tap(view, "init:target", 2)

    def roll_groups(node):
        return [n.attrs.get("data-key") for n in find(node, lambda n: str(getattr(n, "attrs", {}).get("data-key", ""))
                                                      .startswith("roll-"))]

    keys = roll_groups(tree)
    tree = tap(view, "init:die", 9)
    after = roll_groups(tree)
    # the d6 asked where the d10 was is a new group of buttons (the guard refuses a tap landing on it at once)
    assert keys == ["roll-0-d10"] and after == ["roll-0-d6"]
