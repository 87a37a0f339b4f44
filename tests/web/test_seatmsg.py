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
    assert seatmsg.read_seat_message(seatmsg.hello(""), seatmsg.WATCH) == seatmsg.Hello("")
    assert seatmsg.read_seat_message(seatmsg.hello(TOKEN), seatmsg.WATCH) == seatmsg.Hello(TOKEN)


@pytest.mark.parametrize("text, why", [
    ("not json", "not JSON"),
    ("[1]", "not a message"),
    ("3", "not a message"),
    (json.dumps({"v": True, "type": "hello", "token": ""}), "another version"),  # True == 1 in Python
    (json.dumps({"v": 1.0, "type": "hello", "token": ""}), "another version"),
    (json.dumps({"v": 2, "type": "hello", "token": ""}), "another version"),
    (json.dumps({"v": 1, "type": "act", "token": ""}), "does not send “act”"),
    (json.dumps({"v": 1, "type": "<b>x</b>", "token": ""}), "not a message"),
    (json.dumps({"v": 1, "type": "hello", "token": "", "seat": "p0"}), "unexpected fields"),
    (json.dumps({"v": 1, "type": "hello"}), "unexpected fields"),
    (json.dumps({"v": 1, "type": "hello", "token": TOKEN.upper()}), "seat key"),
    (json.dumps({"v": 1, "type": "hello", "token": TOKEN[:-1]}), "seat key"),
    (json.dumps({"v": 1, "type": "hello", "token": 5}), "seat key"),
    (json.dumps({"v": 1, "type": "hello", "token": ["a"]}), "nested"),
    ("[" * 100_000 + "]" * 100_000, "characters long"),
    ("[" * 900 + "]" * 900, "nested"),
    ("x" * (seatmsg.MAX_PHONE_MESSAGE + 1), "characters long"),
])
def test_anything_else_is_refused_with_a_reason(text, why):
    with pytest.raises(seatmsg.SeatMessageError) as err:
        seatmsg.read_seat_message(text, seatmsg.WATCH)
    assert why in str(err.value)
    assert isinstance(err.value, ValueError)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=300), st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12).map(json.dumps)))
def test_any_text_is_read_or_refused_never_anything_else(text):
    try:
        message = seatmsg.read_seat_message(text, seatmsg.WATCH)
    except seatmsg.SeatMessageError as err:
        assert str(err) and "Traceback" not in str(err)
    else:
        assert message.token == "" or seatmsg.is_token(message.token)


def test_the_rate_limit_reads_a_burst_then_the_average():
    limit = seatmsg.RateLimit(per_second=4, burst=8)
    taken = [limit.take(1000) for _ in range(20)]
    assert taken.count(True) == 8 and taken[:8] == [True] * 8
    assert limit.take(1000 + 250)  # one more a quarter of a second later
    assert not limit.take(1000 + 250)
    assert [limit.take(10_000 + i) for i in range(9)].count(True) == 8  # refilled, never above the burst


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
