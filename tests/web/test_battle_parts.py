"""Draw only what changed (issue 33): the battle board's log and rules in play are the same
tree while what they show is the same (so the patch skips them), and a new one the moment a
week is fought, undone or a setting differs — never a stale log (AI-9's week results)."""

from __future__ import annotations

import sys

import pytest

from engine import ascension as ai
from engine.game import apply, new_game, undo

from .fakebrowser import FakeApp, browser


@pytest.fixture
def view():
    with browser():
        from web.views import battle

        yield battle.BattleView(FakeApp())
        sys.modules.pop("web.views.battle", None)


def part(tree, testid: str):
    """The first node of ``tree`` with ``data-testid=testid``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if getattr(node, "tag", None) is None:
            continue
        if node.attrs.get("data-testid") == testid:
            return node
        stack.extend(reversed(node.children))
    return None


def board(view, game):
    view.session.start(game, "Test")
    return view.render_table(view.session.state)


def week(game):
    for side in (0, 1):
        game = apply(game, {"type": "bid", "side": side, "maneuver": "attack", "stratagems": []})
    return apply(apply(game, {"type": "reveal"}), {"type": "roll"})


def test_the_log_is_reused_until_a_week_is_fought_or_undone(view):
    game = week(new_game("battle", ai.example_setup(), None, 8))
    first = board(view, game)
    log, rules = part(first, "log"), part(first, "rules-in-play")
    assert "Week 1" in log.text()
    bid = apply(game, {"type": "bid", "side": 0, "maneuver": "attack", "stratagems": []})
    second = board(view, bid)  # a bid: the log and the rules in play show the same
    assert part(second, "log") is log and part(second, "rules-in-play") is rules
    fought = board(view, week(game))
    assert part(fought, "log") is not log and "Week 2" in part(fought, "log").text()
    back = board(view, undo(week(game)))  # Undo of the roll: week 2 leaves the log
    assert "Week 2" not in part(back, "log").text() and "Week 1" in part(back, "log").text()
    assert part(back, "rules-in-play") is rules


def test_other_settings_make_other_rules_in_play(view):
    setup = ai.example_setup()
    rules = part(board(view, new_game("battle", setup, {"dice": "app"}, 8)), "rules-in-play")
    again = part(board(view, new_game("battle", setup, {"dice": "table"}, 8)), "rules-in-play")
    assert again is not rules and "our own dice" in again.text() and "our own dice" not in rules.text()
