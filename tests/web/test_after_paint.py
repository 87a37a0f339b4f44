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
