"""Seats: what each device at the table sees and may do (issue 32).

The tablet holds the only :class:`~engine.game.Game` (and its seed). A *seat* is a
place at the table a phone can take: an Organizations In Conflict player, a campaign
player, a battle's general, a CONSIM player character — and the **watch** seat, which
sees what a spectator sees (a phone, a laptop on the TV). The Observer of a CONSIM
game, an army or side the app plays and the campaign's dummy are not seats: the
tablet is theirs.

**Hidden means absent.** :func:`seat_view` is made from the spectator copy
(the system's ``public_game``) plus exactly what that seat may see — its player's
hand, its general's sealed bid and advice — and nothing else: never another hand,
another sealed bid, the Observer's hidden combatants or the seed
(``tests/engine/test_seats_privacy.py`` looks for distinctive tokens in every seat's
view). **A phone acts only for its own seat** (HR-SEAT-1): :func:`check_seat_action`
takes a move only when it is the seat's own and the referee allows it now, and
refuses it with the clause otherwise (a move asked on a stale view too, HR-SEAT-4).
**A phone's message is hostile input** (HR-SEAT-3): :func:`read_seat_message` reads it
against a size cap, a nesting limit and an exact shape, fast; :func:`new_seat_token`
makes a seat's secret at pairing and :func:`seat_token_matches` compares it in constant
time; :class:`RateGate` says whether a phone sends too fast.

Each system gives its part through three optional hooks (:data:`engine.system.OPTIONAL_HOOKS`):
``seats(game)`` (its seats), ``seat_private(state, seat, advice)`` (what the seat
sees beyond the spectator copy, as JSON data) and ``seat_action(state, seat, action)``
(the action with the seat's own fields filled in, or :class:`SeatRefused`). A system
without them has only the watch seat. Stdlib only (runs on Pyodide).
"""

from __future__ import annotations

import base64
import hmac
import json
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from . import codec
from . import game as games
from .game import ActionError, ArgumentError, FrozenDict, Game, RuleError
from .system import hook
from .text import brief_repr

__all__ = [
    "HOUSE_RULES", "WATCH", "VIEW_VERSION", "MESSAGE_VERSION", "MESSAGE_TYPES", "MAX_MESSAGE_CHARS",
    "MAX_MESSAGE_DEPTH", "MAX_SEAT_ID", "MAX_TOKEN", "MAX_AIM", "Seat", "SeatRefused", "SeatMessage",
    "SeatMessageError",
    "RateGate", "seats", "seat", "seat_numbers", "seat_view", "check_seat_action", "read_seat_message",
    "new_seat_token", "seat_token_matches", "json_only",
]

#: The house rules of seats (RULES.md is silent on phones at the table), shown as house rules.
HOUSE_RULES: Mapping[str, str] = MappingProxyType({
    "HR-SEAT-1": "A phone acts only for its own seat: its player's own cards, and its side's pass, since "
                 "the team takes one turn together (OIC-14); its own spoils and hand (CMP-4, CMP-7); its "
                 "general's own bid, Counter Attack and leaving (AI-7, AI-16, AI-15); its own combatant's turn "
                 "and care (CS-5, CS-13). What the whole table does — the next round, recording a battle, the "
                 "reveal and the roll, the deal — is done on the tablet.",
    "HR-SEAT-2": "The watch seat sees what a spectator sees and takes no move.",
    "HR-SEAT-3": "A phone's message is checked as it arrives: anything but exactly a message the app "
                 "sends is refused, changes nothing and is said on the tablet.",
    "HR-SEAT-4": "A move a phone asks for on a view the table has since moved on from is refused: the "
                 "phone shows the table as it is now and its player chooses again.",
})

#: The id of the watch seat (always the last seat).
WATCH = "watch"
#: The version of a seat's view (``"v"``) and of a phone's message.
VIEW_VERSION = 1
MESSAGE_VERSION = 1
#: What a phone may say: join its seat, ask for a move, keep the line alive, ask for its
#: seat's advice (a battle general's staff officer, HR-AI-13) or stop asking.
MESSAGE_TYPES = ("hello", "act", "ping", "advice")
#: The longest aim an ``advice`` message may name (``"net"``, ``"away"``, ``"hold"``).
MAX_AIM = 16
#: A phone's message longer than this is refused unread (a move is a few hundred characters).
MAX_MESSAGE_CHARS = 8_192
#: A phone's message nested deeper than this is refused before it is parsed (a move needs 4).
MAX_MESSAGE_DEPTH = 8
#: The longest seat id and seat secret a message may carry.
MAX_SEAT_ID = 64
MAX_TOKEN = 128

_SEAT_ID = re.compile(r"[a-z]+(?:-[0-9]{1,4})?(?:/[a-z]+-[0-9]{1,4})*")
_TOKEN = re.compile(r"[A-Za-z0-9_-]+")
_AIM = re.compile(r"[a-z]{0,16}")
_PART = re.compile(r"([a-z]+)-(0|[1-9][0-9]{0,3})")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


@dataclass(frozen=True)
class Seat:
    """A place at the table a device can take.

    ``id`` is stable across reloads (it is made from the setup: ``"side-0/player-2"``,
    ``"player-1"``, ``"general-0"``, ``"combatant-3"``, ``"watch"``); ``label`` says it
    in players' words ("Anna (North)"); ``watch`` marks the seat that sees only what a
    spectator sees (HR-SEAT-2).
    """

    id: str
    label: str
    watch: bool = False


class SeatRefused(RuleError):
    """A move a seat may not take now, or a seat that is not at this table: ``rule_id``
    is the clause (the system's, or HR-SEAT-1 … 4), ``message`` a player's sentence."""


class SeatMessageError(ValueError):
    """A phone's message that is not one (too long, too deep, not JSON, the wrong shape):
    a short message for the tablet to say; nothing changes."""


def json_only(value: Any) -> Any:
    """``value`` if it is JSON data made only of dict (text keys), list, str, int, finite
    float, bool and None, nested at most :data:`engine.codec.MAX_DEPTH`; else
    :class:`ArgumentError` (a system's bug must not reach a phone as something else)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > codec.MAX_DEPTH:
            raise ArgumentError("A seat's view is nested too deeply")
        if item is None or isinstance(item, (bool, str, int)):
            continue
        if isinstance(item, float):
            if not math.isfinite(item):
                raise ArgumentError("A seat's view holds a number that is not finite")
        elif type(item) in (dict, FrozenDict):
            if not all(isinstance(key, str) for key in item):
                raise ArgumentError("A seat's view has a key that is not text")
            stack.extend((child, depth + 1) for child in item.values())
        elif type(item) in (list, games.FrozenList):
            stack.extend((child, depth + 1) for child in item)
        else:
            raise ArgumentError(f"A seat's view holds something that is not JSON data ({type(item).__name__})")
    return value


def seat_numbers(seat_id: str) -> dict[str, int]:
    """The numbers a seat id names: ``"side-0/player-2"`` → ``{"side": 0, "player": 2}``
    (``"watch"`` → ``{}``). Raises :class:`SeatRefused` (HR-SEAT-3) for anything else."""
    if not isinstance(seat_id, str) or len(seat_id) > MAX_SEAT_ID or not _SEAT_ID.fullmatch(seat_id):
        raise SeatRefused("HR-SEAT-3", f"{brief_repr(seat_id)} is not a seat")
    out: dict[str, int] = {}
    for part in seat_id.split("/"):
        found = _PART.fullmatch(part)
        if found is None:
            if part == seat_id and "-" not in part:  # a seat of one word: "watch"
                return {}
            raise SeatRefused("HR-SEAT-3", f"{brief_repr(seat_id)} is not a seat")
        out[found.group(1)] = int(found.group(2))
    return out


# The systems' side (their seat hooks ask these; public inside the engine, not in __all__)


def seat_number(seat: Any, key: str) -> int:
    """The number ``key`` of a system's ``seat`` (``"player"`` of ``Seat("side-0/player-2", …)``
    is 2); :class:`ArgumentError` for anything but a seat with that number (a system's hooks
    ask it first)."""
    if not isinstance(seat, Seat):
        raise ArgumentError(f"A seat was expected (got {brief_repr(seat)})")
    numbers = seat_numbers(seat.id)
    if key not in numbers:
        raise ArgumentError(f"{brief_repr(seat.id)} is not a seat with a {key} number")
    return numbers[key]


def move_of(action: Any) -> dict[str, Any]:
    """A phone's move as a plain dict to fill in, or :class:`SeatRefused` (HR-SEAT-3) when it
    is not an object with a type."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise SeatRefused("HR-SEAT-3", "a move is an object with a type")
    return dict(action)


def tablet_only(kind: Any, moves: Mapping[str, str]) -> None:
    """HR-SEAT-1: :class:`SeatRefused` when ``kind`` is one of the table's own ``moves``
    ({type: where and by which clause it is done}); a system's ``seat_action`` asks it."""
    if isinstance(kind, str) and kind in moves:
        raise SeatRefused("HR-SEAT-1", moves[kind])


def own_field(action: dict[str, Any], key: str, own: int, rule_id: str, message: str) -> None:
    """A seat's own number in ``action[key]``: filled in when the phone left it out, else it
    must be ``own`` (:class:`SeatRefused` with ``rule_id`` and ``message`` when it names
    another seat's side, player or combatant). A system's ``seat_action`` asks it."""
    if key not in action:
        action[key] = own
    elif action[key] != own or isinstance(action[key], bool):
        raise SeatRefused(rule_id, message)


def _checked(game: Any) -> Game:
    if not isinstance(game, Game):
        raise ArgumentError(f"Not a game: {type(game).__name__} (make one with new_game)")
    return game


def seats(game: Game) -> tuple[Seat, ...]:
    """Every seat of ``game``, from its setup, in table order, the watch seat last.

    A spectator's copy has only the watch seat (it takes no move). The seats of a system
    come from its ``seats(game)`` hook: OIC — every player of a side people play
    (``"side-S/player-P"``, OIC-2, OIC-14); campaign — each player but the dummy
    (``"player-P"``, CMP-1, CMP-9); battle — the general of each army people play
    (``"general-S"``, AI-7); CONSIM — each player character (``"combatant-I"``, CS-1;
    the Observer's seat is the tablet).
    """
    game = _checked(game)
    out: tuple[Seat, ...] = ()
    maker = hook(games.system(game.kind), "seats")
    if maker is not None and not games.is_spectator(game):
        out = tuple(maker(game))
    return out + (Seat(WATCH, "Watch the table", True),)


def seat(game: Game, seat_id: Any) -> Seat:
    """The seat ``seat_id`` of ``game``, or :class:`SeatRefused` (HR-SEAT-3) if it has none."""
    for one in seats(game):
        if one.id == seat_id:
            return one
    raise SeatRefused("HR-SEAT-3", f"there is no seat {brief_repr(seat_id)} at this table")


def seat_view(game: Game, seat_id: str, *, advice: bool | str = False) -> dict[str, Any]:
    """What the device in seat ``seat_id`` is shown now, as JSON data.

    ``{"v": 1, "kind", "seat", "label", "watch", "position", "status", "public",
    "private"}``: ``public`` is the spectator copy in its saved form
    (:func:`engine.codec.game_to_dict` of the system's ``public_game``: seed 0, no
    hand, no sealed bid, no redo stack; a phone replays it to draw the table),
    ``status`` its one line, ``position`` how many actions are in force (a phone can
    tell a stale view, and sends it back as a message's ``"n"``), ``private`` what this
    seat alone may see (the system's ``seat_private``; empty for the watch seat,
    HR-SEAT-2). ``advice=True`` (or an aim: ``"net"``, ``"away"``, ``"hold"``) asks a
    battle general's staff officer too (HR-AI-13: the 6×6 grid and the recommended mix,
    40–60 ms of CPython: only when the phone asks for it); other tables ignore it.
    """
    game = _checked(game)
    chosen = seat(game, seat_id)
    mod = games.system(game.kind)
    copy = game if games.is_spectator(game) else mod.public_game(game)
    status = hook(mod, "status")
    private: dict[str, Any] = {}
    if not chosen.watch:
        maker = hook(mod, "seat_private")
        if maker is not None:
            private = maker(games.replay(game), chosen, advice)
    view = {
        "v": VIEW_VERSION, "kind": game.kind, "seat": chosen.id, "label": chosen.label, "watch": chosen.watch,
        "position": game.position, "status": status(games.replay(copy)) if status is not None else "",
        "public": codec.game_to_dict(copy), "private": private,
    }
    return json_only(view)


def _refusal(err: ValueError) -> SeatRefused:
    if isinstance(err, SeatRefused):
        return err
    if isinstance(err, RuleError):
        return SeatRefused(err.rule_id, err.message)
    return SeatRefused("HR-SEAT-3", str(err))


def check_seat_action(game: Game, seat_id: str, action: Any, *, seen: int | None = None) -> dict[str, Any]:
    """The canonical form of ``action`` when seat ``seat_id`` may take it now, else
    :class:`SeatRefused` with the clause and a player's message; nothing changes.

    The seat acts only for itself (HR-SEAT-1): the system's ``seat_action`` fills in the
    seat's own side or player and refuses another seat's move (OIC-14, CMP-4, AI-7,
    CS-5) and a move of the whole table (the tablet's); then the referee's one check
    (the system's ``normalize_action`` and the step, :func:`engine.game.check`) refuses
    what the rules forbid now. The watch seat and a spectator's copy take no move
    (HR-SEAT-2); a malformed action is refused (HR-SEAT-3). With ``seen`` (a message's
    ``"n"``: the position of the view the phone acted on) a move asked on a view the table
    has moved on from is refused (HR-SEAT-4): a double tap on a phone never takes a
    second turn.
    """
    game = _checked(game)
    chosen = seat(game, seat_id)
    if chosen.watch:
        raise SeatRefused("HR-SEAT-2", "the watch seat sees the table and takes no move")
    if seen is not None and (not _whole(seen) or seen != game.position):
        raise SeatRefused("HR-SEAT-4", "the table has moved on since this phone's view: look again and "
                                       "choose again")
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise SeatRefused("HR-SEAT-3", "a move is an object with a type")
    mod = games.system(game.kind)
    owner = hook(mod, "seat_action")
    if owner is None:
        raise SeatRefused("HR-SEAT-1", "moves at this table are made on the tablet")
    try:
        data = games.thaw(games.json_data(action))
        state = games.replay(game)
        own = owner(state, chosen, data)
        canonical = games.normalize_action(game, own)
        if owner(state, chosen, canonical) != canonical:  # the canonical move is still the seat's own
            raise SeatRefused("HR-SEAT-1", "that move is not this seat's")
        games.check(game, canonical)
    except (RuleError, ActionError) as err:
        raise _refusal(err) from None
    return canonical


# --------------------------------------------------------------------------- messages


@dataclass(frozen=True)
class SeatMessage:
    """A phone's message, read and checked (:func:`read_seat_message`).

    ``type`` is ``"hello"`` (join the seat, or rejoin after a reload), ``"act"`` (ask for
    ``action``, a move of the seat), ``"ping"`` or ``"advice"`` (send the seat's advice with
    each view from now on, for ``aim``; ``aim`` ``""``: stop); ``seat`` the seat id,
    ``token`` the seat's secret fixed at pairing (compare it with :func:`seat_token_matches`),
    ``n`` the position of the last view the phone drew (a move asked on a stale view can be
    refused). ``action`` is an unchangeable JSON object (``None`` unless ``"act"``); ``aim``
    a short lowercase word (``None`` unless ``"advice"``; whether the table has that aim is
    :func:`seat_view`'s question).
    """

    type: str
    seat: str
    token: str
    n: int
    action: Mapping[str, Any] | None = field(default=None)
    aim: str | None = field(default=None)


_REQUIRED = ("v", "type", "seat", "token", "n")
_MAX_N = 10**9


def _no_constant(name: str) -> Any:
    raise SeatMessageError(f"{name} is not a number a message may carry")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise SeatMessageError("a number in the message is too large")
    return value


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise SeatMessageError(f"the field {brief_repr(key)} is given twice")
        out[key] = value
    return out


def _has_half_character(value: Any) -> bool:
    """Whether a parsed message holds a lone surrogate (written as an escape, ``"\\ud800"``)
    in any text, key or value (the nesting is already limited)."""
    if isinstance(value, str):
        return _SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(_has_half_character(k) or _has_half_character(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_half_character(item) for item in value)
    return False


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_seat_message(text: Any) -> SeatMessage:
    """A phone's message from its text, or :class:`SeatMessageError` saying what is wrong.

    The shape is exact (HR-SEAT-3)::

        {"v": 1, "type": "hello" | "act" | "ping" | "advice", "seat": "side-0/player-2",
         "token": "<the seat's secret>", "n": 12, "action": {...}, "aim": "net"}

    ``action`` (an object with a text ``type``) only in, and required by, ``"act"``;
    ``aim`` (``""`` or a lowercase word of at most :data:`MAX_AIM` letters) only in, and
    required by, ``"advice"``; no other field. Text only, at most :data:`MAX_MESSAGE_CHARS` characters, nested at most
    :data:`MAX_MESSAGE_DEPTH` (counted by :func:`engine.codec.json_depth` before parsing),
    no NaN or Infinity, no field given twice, no half of a character (a lone surrogate).
    Whether the seat exists, the token is its own and the move allowed is the caller's
    next question (:func:`seat_token_matches`, :func:`check_seat_action`).
    """
    if not isinstance(text, str):
        raise SeatMessageError("a message is text")
    if len(text) > MAX_MESSAGE_CHARS:
        raise SeatMessageError(f"the message is too long ({len(text):,} characters; at most "
                               f"{MAX_MESSAGE_CHARS:,})")
    if _SURROGATE.search(text):
        raise SeatMessageError("the message holds half of a character")
    if codec.json_depth(text, limit=MAX_MESSAGE_DEPTH) > MAX_MESSAGE_DEPTH:
        raise SeatMessageError("the message is nested too deeply")
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_unique)
    except SeatMessageError:
        raise
    except (ValueError, RecursionError):
        raise SeatMessageError("the message is not JSON") from None
    if not isinstance(data, dict):
        raise SeatMessageError("a message is a JSON object")
    if _has_half_character(data):
        raise SeatMessageError("the message holds half of a character")
    unknown = [key for key in data if key not in _REQUIRED + ("action", "aim")]
    if unknown:
        raise SeatMessageError(f"unknown field {brief_repr(unknown[0])}")
    missing = [key for key in _REQUIRED if key not in data]
    if missing:
        raise SeatMessageError(f"the field {missing[0]!r} is missing")
    if not _whole(data["v"]) or data["v"] != MESSAGE_VERSION:
        raise SeatMessageError(f"this app reads messages of version {MESSAGE_VERSION}, not {brief_repr(data['v'])}")
    kind = data["type"]
    if not isinstance(kind, str) or kind not in MESSAGE_TYPES:
        raise SeatMessageError(f"there is no message type {brief_repr(kind)}")
    seat_id = data["seat"]
    if not isinstance(seat_id, str) or len(seat_id) > MAX_SEAT_ID or not _SEAT_ID.fullmatch(seat_id):
        raise SeatMessageError(f"{brief_repr(seat_id)} is not a seat")
    token = data["token"]
    if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN or not _TOKEN.fullmatch(token):
        raise SeatMessageError("the seat's secret is not one the app makes")
    n = data["n"]
    if not _whole(n) or not 0 <= n <= _MAX_N:
        raise SeatMessageError(f"'n' is a whole number from 0 (got {brief_repr(n)})")
    action = data.get("action")
    if kind == "act":
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise SeatMessageError("a move is an object with a type")
    elif "action" in data:
        raise SeatMessageError(f"a {kind} message carries no move")
    aim = data.get("aim")
    if kind == "advice":
        if not isinstance(aim, str) or not _AIM.fullmatch(aim):
            raise SeatMessageError("an advice message names an aim (a short lowercase word, or nothing)")
    elif "aim" in data:
        raise SeatMessageError(f"a {kind} message carries no aim")
    return SeatMessage(kind, seat_id, token, n, games.freeze(action) if action is not None else None,
                       aim if kind == "advice" else None)


def new_seat_token() -> str:
    """A fresh seat secret (128 bits from the operating system, base64url): fixed when a
    phone pairs, carried by each of its messages."""
    return base64.urlsafe_b64encode(os.urandom(16)).rstrip(b"=").decode("ascii")


def seat_token_matches(expected: str, given: Any) -> bool:
    """Whether ``given`` is the seat's secret ``expected``, compared in constant time
    (:func:`hmac.compare_digest`); anything but text never matches."""
    if not isinstance(expected, str) or not isinstance(given, str) or not expected:
        return False
    return hmac.compare_digest(expected.encode("utf-8", "surrogatepass"), given.encode("utf-8", "surrogatepass"))


def _seconds(value: Any) -> float | None:
    """``value`` as a finite float, or ``None`` (not a number, NaN, infinite, too large)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


@dataclass
class RateGate:
    """A phone's pace (HR-SEAT-3): a token bucket of ``burst`` messages refilled at
    ``per_second``. Pure: the caller gives the time (seconds, any monotonic clock);
    a clock that goes back refills nothing."""

    per_second: float
    burst: int
    _tokens: float = field(default=-1.0, repr=False)
    _last: float | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if _seconds(self.per_second) is None or self.per_second <= 0:
            raise ArgumentError(f"A rate is a positive number per second (got {brief_repr(self.per_second)})")
        if not _whole(self.burst) or self.burst < 1:
            raise ArgumentError(f"A burst is a whole number from 1 (got {brief_repr(self.burst)})")
        self._tokens = float(self.burst)

    def allow(self, now: float) -> bool:
        """Whether a message arriving at ``now`` is taken (it then uses one token)."""
        seconds = _seconds(now)
        if seconds is None:
            raise ArgumentError("The time is a number of seconds")
        now = seconds
        if self._last is not None and now > self._last:
            self._tokens = min(float(self.burst), self._tokens + (now - self._last) * self.per_second)
        if self._last is None or now > self._last:
            self._last = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False
