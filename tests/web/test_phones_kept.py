"""The tablet's kept seats (web/phones.py, issue 32): after a tablet reload the paired seats
of the open game come back as away with their secrets; what storage holds is hostile input
(another app, a hand edit): anything but this app's exact shape is ignored, never shown."""

from __future__ import annotations

import json
import sys

import pytest

from ..engine.test_seats import team_conflict
from .fakebrowser import FakeApp, browser

TOKEN = "0123456789abcdef" * 2
TABLE = "a1b2c3d4e5f6"


@pytest.fixture
def phones_module():
    """web.phones imported against the fake browser (its wire never runs here)."""
    with browser():
        sys.modules["pyodide.ffi"].create_proxy = lambda f: f
        for name in ("web.phones", "web.wire", "web.qr"):
            sys.modules.pop(name, None)
        import web.phones
        import web.session

        try:
            yield web.phones, web.session
        finally:
            for name in ("web.phones", "web.wire", "web.qr"):
                sys.modules.pop(name, None)


def table(phones_module, kept):
    """A conflict game saved in a slot, ``kept`` (text) under its phones key, and its Phones."""
    phones, session_module = phones_module
    app = FakeApp()
    session = session_module.Session(app, "conflict", "Conflict")
    game = team_conflict()
    assert session.start(game, quiet=True) is None
    if kept is not None:
        app.store.storage.set(phones.KEPT_KEY.format(slot=session.slot), kept)
    return phones.Phones(session), app, session


def test_kept_seats_come_back_away_with_their_secrets(phones_module):
    kept = json.dumps({"k": TABLE, "seats": [{"n": 3, "seat": "side-1/player-0", "token": TOKEN}]})
    phones, _, _ = table(phones_module, kept)
    [device] = phones.devices
    assert (device.seat, device.token, device.status, device.paired) == ("side-1/player-0", TOKEN, "away", True)
    assert device.label and phones.table_id == TABLE and phones._numbers == 3


@pytest.mark.parametrize("kept", [
    "not json", "[1]", json.dumps({"k": "<b>x</b>", "seats": [{"n": 1, "seat": "side-0/player-0", "token": TOKEN}]}),
    json.dumps({"k": TABLE, "seats": [{"n": 1, "seat": "side-9/player-0", "token": TOKEN}]}),
    json.dumps({"k": TABLE, "seats": [{"n": 1, "seat": "side-0/player-0", "token": "short"}]}),
    json.dumps({"k": TABLE, "seats": [{"n": True, "seat": "side-0/player-0", "token": TOKEN}]}),
    json.dumps({"k": TABLE, "seats": [{"n": -4, "seat": "side-0/player-0", "token": TOKEN}]}),
    json.dumps({"k": TABLE, "seats": "side-0/player-0"}), None,
], ids=["text", "list", "markup-id", "no-such-seat", "short-token", "bool-number", "negative", "seats-text", "none"])
def test_hostile_kept_seats_are_ignored(phones_module, kept):
    phones, _, _ = table(phones_module, kept)
    assert phones.devices == [] and phones.table_id == ""


def test_a_seat_kept_twice_comes_back_once(phones_module):
    entry = {"n": 1, "seat": "side-0/player-0", "token": TOKEN}
    phones, _, _ = table(phones_module, json.dumps({"k": TABLE, "seats": [entry, {**entry, "n": 2}]}))
    assert [d.number for d in phones.devices] == [1]


def test_dropping_the_last_kept_seat_forgets_the_key(phones_module):
    kept = json.dumps({"k": TABLE, "seats": [{"n": 1, "seat": "side-0/player-0", "token": TOKEN}]})
    phones, app, session = table(phones_module, kept)
    key = phones_module[0].KEPT_KEY.format(slot=session.slot)
    phones.drop(phones.devices[0])
    assert app.store.storage.get(key) is None and phones.devices == []
