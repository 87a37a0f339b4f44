"""What travels on the wire between the tablet and a phone at the table (issue 32).

Pure Python (no browser import): the tablet (web/phones.py) and a phone
(web/views/join.py) both use it, and tests/web/test_seatmsg.py runs it on CPython.

The tablet holds the only game. It sends each phone its seat's view: for the **watch
seat** that is the spectator copy (``public_game``), the very payload a spectator link
carries (:func:`engine.codec.encode_share`), so a phone draws it with the table's own
read-only view. A player's seat will be sent its seat's view the same way
(``engine.seats``), in the same ``view`` message; nothing else changes.

Every message from a phone is hostile input: at most :data:`MAX_PHONE_MESSAGE`
characters, JSON of exactly one shape, at most :data:`RATE_PER_SECOND` a second (a
burst of :data:`RATE_BURST`). :func:`read_seat_message` refuses anything else with a
:class:`SeatMessageError` whose text the tablet shows; a refused message changes
nothing. (For the lead: when ``engine.seats.read_seat_message`` exists, it takes this
function's place; the tablet calls it in one spot, :meth:`web.phones.Phones._message`.)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine import codec

#: The version of the messages (both ways): a phone or a tablet of another version is told so.
WIRE_VERSION = 1

#: The seat of a phone that only watches: the spectator copy, live (issue 32).
WATCH = "watch"

#: The longest message a phone may send, in characters (a hello is under 100; an action
#: of a player's seat will be under 1,000).
MAX_PHONE_MESSAGE = 2_048

#: Messages a phone may send per second on average, and in one burst.
RATE_PER_SECOND = 4.0
RATE_BURST = 8

#: A seat's secret: 16 random bytes (``crypto.getRandomValues``), as 32 hex digits.
TOKEN_LENGTH = 32

#: The longest message the tablet sends that a phone reads (a spectator copy's payload is
#: at most :data:`engine.codec.MAX_SHARE_CHARS`).
MAX_TABLE_MESSAGE = codec.MAX_SHARE_CHARS + 1_000


class SeatMessageError(ValueError):
    """A message refused; ``str()`` says why, in a player's words."""


@dataclass(frozen=True)
class Hello:
    """A phone's first message once its channel opens: ``token`` is the seat's secret it
    kept from an earlier pairing (a rejoin), or empty for a new phone."""

    token: str


def is_token(value: Any) -> bool:
    return (isinstance(value, str) and len(value) == TOKEN_LENGTH
            and all(c in "0123456789abcdef" for c in value))


def read_seat_message(text: Any, seat: str) -> Hello:
    """A phone's message for ``seat``, checked: the one shape ``{"v": 1, "type": "hello",
    "token": "<32 hex digits or empty>"}``, exactly these keys. Raises
    :class:`SeatMessageError` for anything else (too long, not JSON, nested, another
    shape, a type the seat may not send)."""
    if not isinstance(text, str):
        raise SeatMessageError("it was not text")
    if len(text) > MAX_PHONE_MESSAGE:
        raise SeatMessageError(f"it was {len(text):,} characters long (at most {MAX_PHONE_MESSAGE:,})")
    if codec.json_depth(text, limit=2) > 1:
        raise SeatMessageError("it was not a message this app sends (nested data)")
    try:
        data = json.loads(text)
    except ValueError:
        raise SeatMessageError("it was not a message this app sends (not JSON)") from None
    if not isinstance(data, dict):
        raise SeatMessageError("it was not a message this app sends")
    if type(data.get("v")) is not int or data["v"] != WIRE_VERSION:
        raise SeatMessageError("it came from another version of the app: reload the page on the phone")
    kind = data.get("type")
    if kind != "hello":
        what = kind if isinstance(kind, str) and kind.isascii() and kind.isalnum() and len(kind) <= 20 else "unknown"
        raise SeatMessageError(f"a {'watcher' if seat == WATCH else 'seat'}'s phone does not send “{what}”"
                               if what != "unknown" else "it was not a message this app sends")
    if set(data) != {"v", "type", "token"}:
        raise SeatMessageError("it was not a message this app sends (unexpected fields)")
    token = data["token"]
    if token != "" and not is_token(token):
        raise SeatMessageError("its seat key was not one this tablet gives")
    return Hello(token)


def hello(token: str) -> str:
    """The phone's first message (see :func:`read_seat_message`)."""
    return json.dumps({"v": WIRE_VERSION, "type": "hello", "token": token})


class RateLimit:
    """A token bucket: :meth:`take` answers whether one more message may be read now."""

    def __init__(self, per_second: float = RATE_PER_SECOND, burst: int = RATE_BURST):
        self.per_second, self.burst = per_second, burst
        self.level = float(burst)
        self.at: float | None = None

    def take(self, now_ms: float) -> bool:
        if self.at is not None:
            self.level = min(self.burst, self.level + (now_ms - self.at) / 1000 * self.per_second)
        self.at = now_ms
        if self.level >= 1:
            self.level -= 1
            return True
        return False


# --------------------------------------------------------------------------- the tablet's messages
def welcome(seat: str, label: str, token: str, kind: str) -> str:
    """The tablet's answer to a hello: the seat, its name at this table, its secret (the
    phone keeps it for a rejoin) and the table's kind."""
    return json.dumps({"v": WIRE_VERSION, "type": "welcome", "seat": seat, "label": label, "token": token,
                       "kind": kind})


def view(kind: str, payload: str | None, seq: int) -> str:
    """The seat's view: ``payload`` is a share payload (the watch seat: the spectator copy),
    or None while no game is open on the table. ``seq`` counts the views sent."""
    return json.dumps({"v": WIRE_VERSION, "type": "view", "kind": kind, "g": payload, "n": seq})


def bye(reason: str) -> str:
    """The tablet has taken the seat back (Drop): the phone says ``reason`` and stops."""
    return json.dumps({"v": WIRE_VERSION, "type": "bye", "text": reason})


#: The shape of each tablet message: its keys and their types (what a phone accepts).
TABLE_SHAPES: dict[str, dict[str, tuple[type, ...]]] = {
    "welcome": {"seat": (str,), "label": (str,), "token": (str,), "kind": (str,)},
    "view": {"kind": (str,), "g": (str, type(None)), "n": (int,)},
    "bye": {"text": (str,)},
}


def read_table_message(text: Any) -> dict:
    """A message from the tablet, checked by shape (a phone trusts its tablet no more than
    it must: a bad one is ignored and said). Raises :class:`SeatMessageError`."""
    if not isinstance(text, str) or len(text) > MAX_TABLE_MESSAGE:
        raise SeatMessageError("the table sent something too long")
    if codec.json_depth(text, limit=2) > 1:
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
    return data
