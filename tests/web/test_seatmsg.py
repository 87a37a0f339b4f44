"""What a phone may send the tablet (issue 32): web/seatmsg.py on CPython. Every message
from a phone is hostile input: one exact shape, a size cap, a rate limit; anything else
is refused with a player's message (a SeatMessageError, a ValueError) and nothing else."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import codec
from engine import consim as cs
from engine import game as games
from web import seatmsg

TOKEN = "0123456789abcdef" * 2


def test_a_hello_with_or_without_the_seat_key_is_read():
    new = seatmsg.read_seat_message(seatmsg.hello(seatmsg.WATCH, "", 0))
    assert (new.type, new.seat, new.token, new.n) == ("hello", seatmsg.WATCH, seatmsg.NEW_TOKEN, 0)
    assert not seatmsg.is_token(seatmsg.NEW_TOKEN)  # never a secret the tablet gives
    kept = seatmsg.read_seat_message(seatmsg.hello("side-0/player-1", TOKEN, 7))
    assert (kept.seat, kept.token, kept.n) == ("side-0/player-1", TOKEN, 7)
    move = seatmsg.read_seat_message(seatmsg.act("side-1/player-0", TOKEN, 3, {"type": "play", "card": "9H"}))
    assert move.type == "act" and dict(move.action) == {"type": "play", "card": "9H"} and move.n == 3
    asked = seatmsg.read_seat_message(seatmsg.advice("general-0", TOKEN, 2, "net"))
    assert (asked.type, asked.aim, asked.action) == ("advice", "net", None)  # HR-AI-13, asked by the phone
    assert seatmsg.read_seat_message(seatmsg.advice("general-0", TOKEN, 2, "")).aim == ""


HELLO = {"v": 1, "type": "hello", "seat": "watch", "token": TOKEN, "n": 0}


@pytest.mark.parametrize("text, why", [
    ("not json", "not JSON"),
    ("[1]", "a JSON object"),
    ("3", "a JSON object"),
    (json.dumps({**HELLO, "v": True}), "version"),  # True == 1 in Python
    (json.dumps({**HELLO, "v": 1.0}), "version"),
    (json.dumps({**HELLO, "v": 2}), "version"),
    (json.dumps({**HELLO, "type": "act"}), "a move is an object"),
    (json.dumps({**HELLO, "type": "<b>x</b>"}), "no message type"),
    (json.dumps({**HELLO, "seat": "p0"}), "is not a seat"),
    (json.dumps({**HELLO, "extra": 1}), "unknown field"),
    (json.dumps({"v": 1, "type": "hello", "token": TOKEN}), "missing"),
    (json.dumps({**HELLO, "token": ""}), "secret"),
    (json.dumps({**HELLO, "token": 5}), "secret"),
    (json.dumps({**HELLO, "token": ["a"]}), "secret"),
    (json.dumps({**HELLO, "n": -1}), "whole number"),
    (json.dumps({**HELLO, "action": {"type": "pass"}}), "carries no move"),
    ("[" * 100_000 + "]" * 100_000, "characters long"),
    ("[" * 900 + "]" * 900, "nested"),
    ("x" * (seatmsg.MAX_PHONE_MESSAGE + 1), "characters long"),
])
def test_anything_else_is_refused_with_a_reason(text, why):
    with pytest.raises(seatmsg.SeatMessageError) as err:
        seatmsg.read_seat_message(text)
    assert why in str(err.value)
    assert isinstance(err.value, ValueError)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=300), st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12).map(json.dumps)))
def test_any_text_is_read_or_refused_never_anything_else(text):
    try:
        message = seatmsg.read_seat_message(text)
    except seatmsg.SeatMessageError as err:
        assert str(err) and "Traceback" not in str(err)
    else:
        assert message.type in ("hello", "act", "ping", "advice")


def test_the_rate_gate_reads_a_burst_then_the_average():
    limit = seatmsg.rate_gate()
    taken = [limit.allow(1.0) for _ in range(20)]
    assert taken.count(True) == seatmsg.RATE_BURST and taken[:8] == [True] * 8
    assert limit.allow(1.25)  # one more a quarter of a second later
    assert not limit.allow(1.25)
    assert [limit.allow(10 + i / 1000) for i in range(9)].count(True) == 8  # refilled, never above the burst


def test_a_player_seats_view_and_a_refusal_are_read_by_the_phone():
    from engine import conflict
    from engine.conflict.setup import purple_dragon_setup
    from engine.seats import seat_view

    game = games.new_game(conflict.KIND, purple_dragon_setup(), None, seed=7)
    view = seat_view(game, "side-1/player-0")
    message = seatmsg.read_table_message(seatmsg.seat(conflict.KIND, view, 4))
    assert message["view"] == view and message["n"] == 4
    refusal = seatmsg.read_table_message(seatmsg.refused("OIC-14", "not this phone's hand", 3))
    assert (refusal["rule"], refusal["text"], refusal["n"]) == ("OIC-14", "not this phone's hand", 3)
    for bad in ({**view, "extra": 1}, {**view, "watch": 0}, {**view, "position": True},
                {k: v for k, v in view.items() if k != "private"}):
        with pytest.raises(seatmsg.SeatMessageError):
            seatmsg.read_table_message(seatmsg.seat(conflict.KIND, bad, 5))


def test_the_watch_seats_view_is_the_spectator_copy_and_a_phone_reads_it():
    game = games.new_game(cs.KIND, {"sides": ["A", "B"], "privacy": True, "combatants": [
        {"name": "Visible", "side": 0, "grain": "individual", "training": "trained", "weapon": [], "player": True},
        {"name": "Zanzibar", "side": 1, "grain": "individual", "training": "trained", "weapon": [],
         "player": False}]}, None, seed=2**127 + 5)
    game = games.apply(game, {"type": "deal", "advantages": {}})
    public = games.system(cs.KIND).public_game(game)
    text = seatmsg.view(cs.KIND, codec.encode_share(public), 3)
    message = seatmsg.read_table_message(text)
    assert message["n"] == 3 and codec.decode_share(message["g"]) == public
    assert "Zanzibar" not in json.dumps([public.setup, public.actions])  # hidden means absent (CS-3)
    for bad in ("{}", json.dumps({"v": 1, "type": "view", "kind": "initiative", "g": None, "n": True}),
                json.dumps({"v": 1, "type": "view", "kind": "initiative", "g": None}),
                json.dumps({"v": 1, "type": "run", "text": "x"}), "[" * 50):
        with pytest.raises(seatmsg.SeatMessageError):
            seatmsg.read_table_message(bad)
    assert seatmsg.read_table_message(seatmsg.bye("Taken back."))["text"] == "Taken back."
    welcome = seatmsg.read_table_message(seatmsg.welcome(seatmsg.WATCH, "Watcher 1", TOKEN, cs.KIND))
    assert welcome["token"] == TOKEN and welcome["label"] == "Watcher 1"
