"""Heavy work after the paint (issue 33, web/parts/tool.py ToolView.work_after_paint): asked once
per key while it waits, left undone when a tap meanwhile made it moot, and the screen drawn again
when it is done."""

from __future__ import annotations

import sys

import pytest

from .fakebrowser import FakeApp, browser


@pytest.fixture(autouse=True)
def tool():
    with browser():
        yield sys.modules["web.parts.tool"]


class Painted(FakeApp):
    """An app whose paints are run by hand: ``paint()`` runs what waited for the paint."""

    def __init__(self):
        super().__init__()
        self.waiting: list = []

    def after_paint(self, job):
        self.waiting.append(job)

    def paint(self):
        jobs, self.waiting = self.waiting, []
        for job in jobs:
            job()


def view_on(app):
    view = sys.modules["web.parts.tool"].ToolView()
    view.app = app
    return view


def test_the_work_is_asked_once_while_it_waits_and_the_screen_is_drawn_after_it():
    app, done = Painted(), []
    view = view_on(app)
    assert view.work_after_paint(("grid", 1), lambda: done.append(1), lambda: True)
    assert not view.work_after_paint(("grid", 1), lambda: done.append(2), lambda: True)  # a render meanwhile
    assert done == [] and app.renders == 0 and len(app.waiting) == 1  # nothing before the paint
    app.paint()
    assert done == [1] and app.renders == 1
    assert view.work_after_paint(("grid", 1), lambda: done.append(3), lambda: True)  # done: may be asked again


def test_a_tap_meanwhile_that_made_it_moot_is_honoured():
    app, done, shown = Painted(), [], {"grid": True}
    view = view_on(app)
    view.work_after_paint("grid", lambda: done.append(1), lambda: shown["grid"])
    shown["grid"] = False  # Hide, tapped before the paint
    app.paint()
    assert done == [] and app.renders == 0


def test_without_a_paint_to_wait_for_it_runs_on_the_next_timer():
    app, done = FakeApp(), []
    view = view_on(app)
    view.work_after_paint("grid", lambda: done.append(1), lambda: True)
    assert [seconds for seconds, _ in app.laters] == [0]
    app.laters[0][1]()
    assert done == [1] and app.renders == 1


def app_to_move(app, moved: list):
    """A view of a game whose next move is the app's; its move is noted in ``moved``."""
    view = view_on(app)
    view.session = type("Session", (), {"game": object()})()
    view.app_due = lambda st: True
    view.app_move = lambda: moved.append(1) or True
    return view


def test_the_app_moves_after_its_delay_and_then_the_next_paint():
    """Its turn ("the app plays…") is on screen before it thinks, even on a device too busy to
    draw within the delay: the move waits for the paint after the delay."""
    app, moved = Painted(), []
    view = app_to_move(app, moved)
    view.schedule_app_move(None)
    view.schedule_app_move(None)  # a render meanwhile asks again: one move
    assert [seconds for seconds, _ in app.laters] == [view.APP_MOVE_DELAY]
    app.laters[0][1]()  # the delay is over
    assert moved == [] and len(app.waiting) == 1  # not before the paint
    app.paint()
    assert moved == [1] and app.renders == 1


def test_a_game_changed_before_the_paint_gets_no_move_of_the_app():
    app, moved = Painted(), []
    view = app_to_move(app, moved)
    view.schedule_app_move(None)
    app.laters[0][1]()
    view.session.game = object()  # Undo, tapped while the app's turn shows
    app.paint()
    assert moved == [] and app.renders == 0
