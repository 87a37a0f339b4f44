"""What travels on the wire between the tablet and a phone at the table (issue 32).

Pure Python (no browser import): the tablet (web/phones.py) and a phone
(web/views/join.py) both use it, and tests/web/test_seatmsg.py runs it on CPython.

The tablet holds the only game. It sends each phone its seat's view: for the **watch
seat** that is the spectator copy (``public_game``), the very payload a spectator link
carries (:func:`engine.codec.encode_share`), so a phone draws it with the table's own
read-only view. A player's seat is sent its seat's view (:func:`engine.seats.seat_view`:
that spectator copy in its saved form, plus what the seat alone may see) in a ``seat``
message; a move it asks for (``act``) is answered by the table's next view or by a
``refused`` message with the clause.

Every message from a phone is hostile input: at most :data:`MAX_PHONE_MESSAGE`
characters, JSON of exactly one shape, at most :data:`RATE_PER_SECOND` a second (a
burst of :data:`RATE_BURST`, :class:`engine.seats.RateGate`). :func:`read_seat_message`
(the size cap, then :func:`engine.seats.read_seat_message`) refuses anything else with a
:class:`SeatMessageError` whose text the tablet shows; a refused message changes
nothing (HR-SEAT-3).
"""

from __future__ import annotations

import json
from typing import Any

from engine import codec
from engine import seats as seating
from engine.seats import SeatMessage, SeatMessageError

__all__ = ["WIRE_VERSION", "WATCH", "NEW_TOKEN", "MAX_PHONE_MESSAGE", "RATE_PER_SECOND", "RATE_BURST",
           "TOKEN_LENGTH", "MAX_TABLE_MESSAGE", "SeatMessage", "SeatMessageError", "is_token", "rate_gate",
           "read_seat_message", "hello", "act", "advice", "welcome", "view", "seat", "refused", "bye", "read_table_message"]

#: The version of the messages (both ways): a phone or a tablet of another version is told so.
WIRE_VERSION = seating.MESSAGE_VERSION

#: The seat of a phone that only watches: the spectator copy, live (issue 32).
WATCH = seating.WATCH

#: What a phone that has no seat secret yet sends as its token (a new phone, before its
#: welcome): never a secret the tablet makes (:data:`TOKEN_LENGTH` hex digits).
NEW_TOKEN = "new"

#: The longest message a phone may send, in characters (a hello is under 150; a move of a
#: player's seat under 400), below the engine's cap (:data:`engine.seats.MAX_MESSAGE_CHARS`).
MAX_PHONE_MESSAGE = 2_048

#: Messages a phone may send per second on average, and in one burst (HR-SEAT-3).
RATE_PER_SECOND = 4.0
RATE_BURST = 8

#: A seat's secret: 16 random bytes (``crypto.getRandomValues``), as 32 hex digits.
TOKEN_LENGTH = 32

#: The longest message the tablet sends that a phone reads: a spectator copy's payload is
#: at most :data:`engine.codec.MAX_SHARE_CHARS`; a player seat's view carries its saved
#: public game (a long conflict is tens of kilobytes).
MAX_TABLE_MESSAGE = codec.MAX_SHARE_CHARS + 1_000
MAX_SEAT_MESSAGE = 240_000


def is_token(value: Any) -> bool:
    return (isinstance(value, str) and len(value) == TOKEN_LENGTH
            and all(c in "0123456789abcdef" for c in value))


def rate_gate() -> seating.RateGate:
    """A phone's pace on the tablet (HR-SEAT-3): :data:`RATE_BURST` at once, then
    :data:`RATE_PER_SECOND` a second."""
    return seating.RateGate(RATE_PER_SECOND, RATE_BURST)


def read_seat_message(text: Any) -> SeatMessage:
    """A phone's message, checked: at most :data:`MAX_PHONE_MESSAGE` characters, then
    exactly the engine's shape (:func:`engine.seats.read_seat_message`, HR-SEAT-3).
    Raises :class:`SeatMessageError` saying why; whether the seat and its secret are this
    phone's is the tablet's next question (web/phones.py)."""
    if isinstance(text, str) and len(text) > MAX_PHONE_MESSAGE:
        raise SeatMessageError(f"it was {len(text):,} characters long (at most {MAX_PHONE_MESSAGE:,})")
    return seating.read_seat_message(text)


def hello(seat_id: str, token: str, n: int) -> str:
    """The phone's first message once its channel opens (and after a rejoin): its seat,
    the secret it kept from an earlier pairing (:data:`NEW_TOKEN` for a new phone) and
    the position of the last view it drew."""
    return json.dumps({"v": WIRE_VERSION, "type": "hello", "seat": seat_id, "token": token or NEW_TOKEN,
                       "n": max(0, n)})


def act(seat_id: str, token: str, n: int, action: dict) -> str:
    """The phone asks for ``action``, a move of its seat, on the view at position ``n``
    (HR-SEAT-4: a second tap on the same view is refused)."""
    return json.dumps({"v": WIRE_VERSION, "type": "act", "seat": seat_id, "token": token, "n": max(0, n),
                       "action": action})


def advice(seat_id: str, token: str, n: int, aim: str) -> str:
    """The phone asks for its seat's advice with each view from now on (a battle general's
    staff officer for ``aim``, HR-AI-13: the tablet computes it), or ``aim`` ``""``: no more
    (hidden on the phone means not sent)."""
    return json.dumps({"v": WIRE_VERSION, "type": "advice", "seat": seat_id, "token": token, "n": max(0, n),
                       "aim": aim})


# --------------------------------------------------------------------------- the tablet's messages
def welcome(seat: str, label: str, token: str, kind: str) -> str:
    """The tablet's answer to a hello: the seat, its name at this table, its secret (the
    phone keeps it for a rejoin) and the table's kind."""
    return json.dumps({"v": WIRE_VERSION, "type": "welcome", "seat": seat, "label": label[:80], "token": token,
                       "kind": kind})


def view(kind: str, payload: str | None, seq: int) -> str:
    """The seat's view: ``payload`` is a share payload (the watch seat: the spectator copy),
    or None while no game is open on the table. ``seq`` counts the views sent."""
    return json.dumps({"v": WIRE_VERSION, "type": "view", "kind": kind, "g": payload, "n": seq})


def seat(kind: str, seat_view: dict, seq: int) -> str:
    """A player seat's view (:func:`engine.seats.seat_view`: the spectator copy in its
    saved form plus what that seat alone may see). ``seq`` counts the views sent."""
    return json.dumps({"v": WIRE_VERSION, "type": "seat", "kind": kind, "view": seat_view, "n": seq})


def refused(rule_id: str, text: str, n: int) -> str:
    """The tablet refused the phone's move: the clause and a player's sentence (HR-SEAT-1 … 4
    or the system's own rule); ``n`` the position of the table now."""
    return json.dumps({"v": WIRE_VERSION, "type": "refused", "rule": rule_id[:40], "text": text[:200], "n": n})


def bye(reason: str) -> str:
    """The tablet has taken the seat back (Drop): the phone says ``reason`` and stops."""
    return json.dumps({"v": WIRE_VERSION, "type": "bye", "text": reason})


#: The shape of each tablet message: its keys and their types (what a phone accepts).
TABLE_SHAPES: dict[str, dict[str, tuple[type, ...]]] = {
    "welcome": {"seat": (str,), "label": (str,), "token": (str,), "kind": (str,)},
    "view": {"kind": (str,), "g": (str, type(None)), "n": (int,)},
    "seat": {"kind": (str,), "view": (dict,), "n": (int,)},
    "refused": {"rule": (str,), "text": (str,), "n": (int,)},
    "bye": {"text": (str,)},
}

#: The fields of a player seat's view and their types (engine.seats.seat_view).
VIEW_SHAPE: dict[str, tuple[type, ...]] = {
    "v": (int,), "kind": (str,), "seat": (str,), "label": (str,), "watch": (bool,), "position": (int,),
    "status": (str,), "public": (dict,), "private": (dict,)}


def read_table_message(text: Any) -> dict:
    """A message from the tablet, checked by shape (a phone trusts its tablet no more than
    it must: a bad one is ignored and said). Raises :class:`SeatMessageError`."""
    if not isinstance(text, str) or len(text) > MAX_SEAT_MESSAGE:
        raise SeatMessageError("the table sent something too long")
    if codec.json_depth(text, limit=codec.MAX_DEPTH + 1) > codec.MAX_DEPTH:
        raise SeatMessageError("the table sent something this phone does not read")
    try:
        data = json.loads(text)
    except ValueError:
        raise SeatMessageError("the table sent something this phone does not read") from None
    if not isinstance(data, dict) or type(data.get("v")) is not int or data["v"] != WIRE_VERSION:
        raise SeatMessageError("the table runs another version of the app: reload both pages")
    shape = TABLE_SHAPES.get(data.get("type"))  # type: ignore[arg-type]
    if shape is None or set(data) != {"v", "type", *shape}:
        raise SeatMessageError("the table sent something this phone does not read")
    for key, types in shape.items():
        value = data[key]
        if not isinstance(value, types) or isinstance(value, bool) or (isinstance(value, str) and len(value) > 200
                                                                        and key != "g"):
            raise SeatMessageError("the table sent something this phone does not read")
    if data["type"] != "seat" and len(text) > MAX_TABLE_MESSAGE:
        raise SeatMessageError("the table sent something too long")
    if data["type"] == "seat":
        view = data["view"]
        if set(view) != set(VIEW_SHAPE) or any(not isinstance(view[k], t) or (isinstance(view[k], bool)
                                                                              and t != (bool,))
                                               for k, t in VIEW_SHAPE.items()):
            raise SeatMessageError("the table sent a seat's view this phone does not read")
    return data
