"""Save files and share links: a game as JSON text, and as a short URL-safe payload.

Saves
-----
The saved form of a game (schema 3, :data:`SCHEMA_VERSION`) is one JSON object::

    {"app": "conflict-table", "schema": 3,
     "kind": "conflict", "seed": 12345,
     "rules": {...}, "setup": {...},
     "actions": [{...}, ...], "position": 7,
     "meta": {"name": "Friday game", "created": 1717000000000, "updated": 1717003600000}}

``actions[:position]`` are in force, the rest is the redo stack (see
:class:`engine.game.Game`). ``meta`` is optional. Its times are **epoch
milliseconds** (whole numbers, UTC, what JavaScript's ``Date.now()`` gives); any
other keys of ``meta`` (the browser store keeps ``rev`` and ``tab`` there) are
kept as they are.

Older saves are upgraded by :data:`MIGRATIONS` before they are checked. Schema 1
is the prototype's shape (Conflict Table 0.0.x), kept readable::

    {"version": 1,
     "game": {"kind": ..., "seed": ...,
              "settings": {"rules": {...}, "setup": {...}},
              "log": [action, ...]},
     "name": "Friday game",        # optional
     "saved": 1717000000.5}        # optional, epoch *seconds*

It has no ``app`` marker and no position: every action of the log is in force.

Schema 2 has the shape of schema 3; its games were played before the rulings of
the integrity audit (issue 20: every action checked and stored in canonical form,
rulings such as CMP-4's pool refill and AI-19's fallback). Upgrading one hands
it to its system's ``upgrade`` (see :mod:`engine.game`), which makes it replay
as it was played and says so in its history.

Everything read from outside is checked field by field, then replayed with
:func:`engine.game.validate`; any failure becomes a :class:`SaveError` whose
message a player understands.

Share links
-----------
:func:`encode_share` packs a game into ``"3"`` + base64url (no ``=`` padding) of
``zlib``-compressed compact JSON with one-letter keys (``k`` kind, ``s`` seed,
``r`` rules, ``u`` setup, ``a`` actions, ``p`` position — left out when every
action is in force). The leading character is the link format: ``"2"`` links
(from before schema 3) are upgraded like schema-2 saves; ``"4"`` … ``"9"`` are
kept for later versions of the app. :func:`decode_share` refuses anything
else with a :class:`ShareError` and never raises any other exception.

Names and other text inside a game are plain data: they are kept verbatim here
and the UI only ever shows them as text.
"""

from __future__ import annotations

import base64
import itertools
import json
import math
import re
import zlib
from collections.abc import Mapping
from typing import Any, Callable, TypeGuard

from . import game as game_mod
from .game import MAX_SEED, SEED_RANGE, ActionError, Game, NotTheAppsMove, RuleError, TooLong, UnknownKind
from .rules import SettingsError, resolve_rules
from .text import brief_repr, key_text

__all__ = [
    "APP", "SCHEMA_VERSION", "SHARE_VERSION", "OLD_SHARE_VERSIONS", "MAX_SHARE_CHARS", "MAX_SHARE_JSON",
    "MAX_SAVE_CHARS", "MAX_DEPTH", "MAX_NAME", "MAX_ACTIONS", "MAX_KIND", "MIGRATIONS",
    "CodecError", "SaveError", "ShareError",
    "json_depth", "migrate_v1_to_v2", "upgrade_game", "migrate_v2_to_v3", "read_save", "game_to_dict",
    "game_from_dict", "dumps", "parse_save_text", "loads", "encode_share", "decode_share",
]

#: The name every save carries in its ``app`` field.
APP = "conflict-table"

#: The save format this version writes.
SCHEMA_VERSION = 3

#: The share-link format this version writes (first character of a payload).
SHARE_VERSION = "3"
#: Older link formats still read, with the save schema their games correspond to.
OLD_SHARE_VERSIONS = {"2": 2}

#: Longest share payload accepted, in characters.
MAX_SHARE_CHARS = 20_000

#: Largest decompressed share JSON accepted, in bytes (guards against zip bombs).
MAX_SHARE_JSON = 1_000_000

#: Longest save text accepted, in characters (a browser's whole storage is ~5M).
MAX_SAVE_CHARS = 5_000_000

#: Deepest nesting of JSON arrays/objects accepted, in saves and links.
MAX_DEPTH = 32

#: Longest game name kept in ``meta``.
MAX_NAME = 200
#: The most actions a save or link may hold. A long conflict is a few hundred;
#: the cap keeps a hostile link from making the receiver's tablet replay for minutes.
MAX_ACTIONS = 10_000

#: Longest kind string accepted.
MAX_KIND = 40

# Latest epoch-ms time accepted (JavaScript's safe integers).
_MAX_TIME = 2**53 - 1


class CodecError(ValueError):
    """A save or link that cannot be opened. ``str()`` is a message for players;
    ``reason`` says why, for the UI (see the subclasses)."""

    def __init__(self, message: str, reason: str = "damaged"):
        super().__init__(message)
        self.reason = reason


class SaveError(CodecError):
    """A save that cannot be opened.

    ``reason``: ``"not-a-save"``, ``"damaged"``, ``"newer"``, ``"too-large"``,
    ``"kind"`` (a game this app does not have), ``"settings"``, ``"setup"``,
    ``"rules"`` (an action the rules forbid) or ``"forged"`` (an imported file with a move
    recorded as the app's that the app does not make: HR-AI-14, HR-OIC-4).
    """


class ShareError(CodecError):
    """A share link that cannot be opened.

    ``reason``: ``"empty"``, ``"not-a-link"``, ``"damaged"``, ``"newer"``,
    ``"too-large"``, ``"kind"``, ``"settings"``, ``"setup"``, ``"rules"``, ``"forged"`` (a move
    recorded as the app's that the app does not make: HR-AI-14, HR-OIC-4).
    """


class _Problem(Exception):
    """Internal: a problem found while reading; turned into SaveError/ShareError."""

    def __init__(self, detail: str, reason: str = "damaged"):
        super().__init__(detail)
        self.detail = detail
        self.reason = reason


# --------------------------------------------------------------------------- JSON helpers

_NOT_BRACKET = re.compile(r"[^\[\]{}]++")
_BRACKET_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
#: How many characters :func:`json_depth` reads at a time before it looks at the limit.
_DEPTH_CHUNK = 65_536


def json_depth(text: str, *, limit: int | None = None) -> int:
    """How deeply arrays/objects nest in JSON ``text`` (strings ignored; 0 for a scalar).

    A cheap scan done before parsing, so hostile input never reaches the parser's
    recursion (which could overflow the stack in the browser). Its time grows with the
    text's length and nothing else: the escapes go first (an escaped backslash, then an
    escaped quote, read left to right as the parser reads them), then every other piece
    between two quotes is a string's inside, and the brackets outside are counted in
    chunks (issue 30: the old scan retried an unterminated string of escaped quotes from
    every quote, quadratic). Exact for JSON the parser accepts. With ``limit``, the count
    stops in the first chunk that goes deeper (and returns that depth). Raises
    :class:`CodecError` for anything but text.
    """
    if not isinstance(text, str):
        raise CodecError(f"JSON text was expected, not {type(text).__name__}")
    if limit is not None and (not _is_int(limit) or limit < 0):
        raise CodecError("the depth limit should be a whole number from 0 up")
    outside = "".join(text.replace("\\\\", "").replace('\\"', "").split('"')[0::2])
    depth = deepest = 0
    for start in range(0, len(outside), _DEPTH_CHUNK):
        brackets = _NOT_BRACKET.sub("", outside[start:start + _DEPTH_CHUNK])
        if not brackets:
            continue
        levels = list(itertools.accumulate(map(_BRACKET_STEP.__getitem__, brackets), initial=depth))
        deepest = max(deepest, max(levels))
        if limit is not None and deepest > limit:
            return deepest
        depth = levels[-1]
    return deepest


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


def _parse_json(text: str) -> Any:
    """Parse JSON text; raises ``_Problem`` (never RecursionError) on bad input."""
    if json_depth(text, limit=MAX_DEPTH) > MAX_DEPTH:
        raise _Problem("its data is nested too deeply")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise _Problem("its data is nested too deeply") from None
    except json.JSONDecodeError as err:
        if err.pos >= len(text.rstrip()):
            raise _Problem("it is cut short (its JSON is not complete)") from None
        raise _Problem("it is not valid JSON") from None
    except ValueError:
        raise _Problem("it is not valid JSON") from None


def _plain(value: Any, what: str, depth: int = 0) -> Any:
    """A deep copy of ``value`` as plain JSON data (dict/list/str/int/float/bool/None)."""
    if depth > MAX_DEPTH:
        raise _Problem(f"{what} is nested too deeply")
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        if value.bit_length() > _MAX_INT_BITS:  # Python writes no more than 4,300 digits
            raise _Problem(f"{what} contains a number too long to write")
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _Problem(f"{what} contains a number that is not finite")
        return value
    if isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise _Problem(f"{what} has a key that is not text")
            out[key] = _plain(item, what, depth + 1)
        return out
    if isinstance(value, (list, tuple)):
        return [_plain(item, what, depth + 1) for item in value]
    raise _Problem(f"{what} contains something that is not data ({type(value).__name__})")


#: The longest whole number a save may hold, in bits (about 3,900 digits).
_MAX_INT_BITS = 13_000
#: Half of a character (a lone surrogate): no UTF-8 text, so no save or link, holds one.
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _no_surrogate(text: str, what: str) -> None:
    """``_Problem`` naming the first lone surrogate of ``text`` (U+XXXX) and ``what`` holds it."""
    found = _SURROGATE.search(text)
    if found:
        raise _Problem(f"{what} holds half of a character (U+{ord(found.group()):04X}), "
                       "which no save or link can keep")


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


# --------------------------------------------------------------------------- checking

def _check_game_fields(data: Mapping[str, Any]) -> Game:
    """A :class:`Game` from a dict with long keys, every field's type and range checked.

    Does not replay; raises ``_Problem``.
    """
    kind = data.get("kind")
    if not isinstance(kind, str) or not kind:
        raise _Problem("'kind' should be the name of a game system (text)")
    if len(kind) > MAX_KIND:
        raise _Problem("'kind' is too long")
    seed = data.get("seed")
    if not _is_int(seed) or not 0 <= seed <= MAX_SEED:
        raise _Problem(f"'seed' should be {SEED_RANGE}")
    rules = data.get("rules", {})
    if not isinstance(rules, Mapping):
        raise _Problem("'rules' should be an object of rules settings")
    setup = data.get("setup")
    if not isinstance(setup, Mapping):
        raise _Problem("'setup' should be an object")
    actions = data.get("actions")
    if not isinstance(actions, (list, tuple)):
        raise _Problem("'actions' should be a list")
    if len(actions) > MAX_ACTIONS:
        raise _Problem(f"too large to open (it holds more than {MAX_ACTIONS:,} actions)", "too-large")
    for index, action in enumerate(actions):
        if not isinstance(action, Mapping):
            raise _Problem(f"action {index + 1} should be an object")
    if kind in game_mod.SYSTEM_MODULES:
        try:  # issue 30: before anything is copied or replayed
            game_mod.check_replay_work(kind, setup, actions)
        except TooLong as err:
            raise _Problem(f"too long to open: {err}", "too-large") from None
        except UnknownKind:
            pass  # said when its rules are checked
    position = data.get("position", len(actions))
    if not _is_int(position) or not 0 <= position <= len(actions):
        raise _Problem(f"'position' should be a whole number from 0 to {len(actions)} (the number of actions)")
    return Game(
        kind=kind,
        seed=seed,
        rules=_plain(rules, "'rules'", 1),
        setup=_plain(setup, "'setup'", 1),
        actions=tuple(_plain(a, f"action {i + 1}", 2) for i, a in enumerate(actions)),
        position=position,
    )


def _check_rules(game: Game, outside: bool = False) -> Game:
    """Replay ``game`` through its system; raises ``_Problem`` with a player's message.

    ``outside``: the game comes from outside this device (a link, an imported file), so the
    app's moves in it are derived again and compared (HR-AI-14, HR-OIC-4:
    :func:`engine.game.check_app_moves`); a save of this device's own storage is not."""
    kind = game.kind
    try:
        mod = game_mod.system(kind)
    except UnknownKind:
        if kind in game_mod.SYSTEM_MODULES:
            raise _Problem(f"it is for the {kind} table, which this version of the app does not have yet",
                           "kind") from None
        raise _Problem(f"it is for a kind of game this app does not know ({brief_repr(kind)})", "kind") from None
    try:
        resolve_rules(mod.VARIANTS, game.rules)
    except SettingsError as err:
        raise _Problem(f"it uses rules settings this app does not know ({err})", "settings") from None
    try:
        mod.normalize_setup(game.setup)
    except ValueError as err:
        raise _Problem(f"its setup cannot be used ({err})", "setup") from None
    try:
        checked = game_mod.validate(game)
        return game_mod.check_app_moves(checked) if outside else checked
    except TooLong as err:  # issue 30: refused before any of it is replayed
        raise _Problem(f"too long to open: {err}", "too-large") from None
    except NotTheAppsMove as err:  # issue 35: a move recorded as the app's that the app does not make
        raise _Problem(f"{err.rule_id} at step {err.step}: {err.message}", "forged") from None
    except RuleError as err:
        where = f" at step {err.step}" if err.step is not None else ""
        raise _Problem(f"this game breaks {err.rule_id}{where}: {err.message}", "rules") from None
    except ActionError as err:
        raise _Problem(f"it has an action this app cannot read ({err})") from None
    except (ValueError, LookupError, TypeError, AttributeError, ArithmeticError) as err:
        raise _Problem(f"its game cannot be replayed ({err})") from None


def _check_meta(meta: Any) -> dict[str, Any]:
    """``meta`` with ``name``/``created``/``updated`` checked (None when unknown)."""
    if meta is None:
        meta = {}
    if not isinstance(meta, Mapping):
        raise _Problem("'meta' should be an object")
    out = _plain(meta, "'meta'", 1)
    name = out.get("name")
    if name is not None:
        if not isinstance(name, str):
            raise _Problem("the game's name should be text")
        if len(name) > MAX_NAME:
            raise _Problem(f"the game's name is longer than {MAX_NAME} characters")
    for key in ("created", "updated"):
        value = out.get(key)
        if value is not None and (not _is_int(value) or not 0 <= value <= _MAX_TIME):
            raise _Problem(f"'{key}' should be a time in milliseconds since 1970")
    return {"name": name, "created": out.get("created"), "updated": out.get("updated"),
            **{k: v for k, v in out.items() if k not in ("name", "created", "updated")}}


# --------------------------------------------------------------------------- saves

def migrate_v1_to_v2(data: Mapping[str, Any]) -> dict[str, Any]:
    """Schema 1 (the prototype's shape, see the module docstring) → schema 2.
    Raises :class:`SaveError` (a save too damaged to upgrade)."""
    try:
        return _v1_to_v2(data)
    except _Problem as problem:
        raise _save_error(problem) from None


def _v1_to_v2(data: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise _Problem("this is not a Conflict Table save", "not-a-save")
    inner = data.get("game")
    if not isinstance(inner, Mapping):
        raise _Problem("'game' should be an object")
    settings = inner.get("settings", {})
    if not isinstance(settings, Mapping):
        raise _Problem("'settings' should be an object")
    log = inner.get("log", [])
    if not isinstance(log, (list, tuple)):
        raise _Problem("'log' should be a list")
    meta: dict[str, Any] = {}
    if "name" in data:
        meta["name"] = data["name"]
    saved = data.get("saved")
    if saved is not None:
        if isinstance(saved, bool) or not isinstance(saved, (int, float)) or not 0 <= saved < _MAX_TIME / 1000:
            raise _Problem("'saved' should be a time in seconds since 1970")
        meta["created"] = meta["updated"] = round(saved * 1000)
    return {
        "app": APP,
        "schema": 2,
        "kind": inner.get("kind"),
        "seed": inner.get("seed"),
        "rules": settings.get("rules", {}),
        "setup": settings.get("setup"),
        "actions": log,
        "position": len(log),
        "meta": meta,
    }


_GAME_KEYS = ("kind", "seed", "rules", "setup", "actions", "position")


def upgrade_game(data: Mapping[str, Any], schema: int) -> dict[str, Any]:
    """A game (a dict with the long keys of :data:`_GAME_KEYS`) saved under ``schema``,
    upgraded by its system's ``upgrade`` to replay in this version as it was played.

    Nothing else is checked here (that comes after); a system that cannot upgrade it
    leaves it for the checks to refuse. Raises :class:`SaveError` when ``data`` is not
    an object or ``schema`` not a schema number.
    """
    if not isinstance(data, Mapping):
        raise SaveError("This save is damaged: its game should be an object")
    if not _is_int(schema) or schema < 1:
        raise SaveError("This save is damaged: 'schema' should be a whole number from 1 up")
    out = dict(data)
    if schema >= 3:
        return out
    kind = out.get("kind")
    if not isinstance(kind, str) or kind not in game_mod.SYSTEM_MODULES:
        return out
    try:
        mod = game_mod.system(kind)
    except UnknownKind:
        return out
    upgrade = getattr(mod, "upgrade", None)
    if upgrade is None:
        return out
    try:
        upgraded = upgrade({key: out[key] for key in _GAME_KEYS if key in out})
    except Exception:  # an old game its system cannot read: the checks that follow say why
        return out
    if isinstance(upgraded, Mapping):
        out.update(upgraded)
    return out


def migrate_v2_to_v3(data: Mapping[str, Any]) -> dict[str, Any]:
    """Schema 2 → 3: the same shape; the game goes through its system's ``upgrade``."""
    return {**upgrade_game(data, 2), "schema": 3}


#: Upgrades, by the schema they upgrade *from*; applied in order up to SCHEMA_VERSION.
MIGRATIONS: dict[int, Callable[[Mapping[str, Any]], dict[str, Any]]] = {1: migrate_v1_to_v2, 2: migrate_v2_to_v3}

_V2_KEYS = {"app", "schema", "kind", "seed", "rules", "setup", "actions", "position", "meta"}


def _upgrade(data: Any) -> dict[str, Any]:
    """The save ``data`` in the current schema, its top level checked; raises ``_Problem``."""
    if not isinstance(data, Mapping):
        raise _Problem("this is not a Conflict Table save", "not-a-save")
    if "schema" in data:
        if data.get("app") != APP:
            raise _Problem("this is not a Conflict Table save", "not-a-save")
        schema = data["schema"]
    elif "version" in data and "game" in data:
        schema = data["version"]
    else:
        raise _Problem("this is not a Conflict Table save", "not-a-save")
    if not _is_int(schema) or schema < 1:
        raise _Problem("'schema' should be a whole number from 1 up")
    if schema > SCHEMA_VERSION:
        raise _Problem(f"newer:{schema}", "newer")
    while schema < SCHEMA_VERSION:
        data = MIGRATIONS[schema](data)
        schema += 1
    unknown = sorted(key_text(k) for k in data if k not in _V2_KEYS)
    if unknown:
        raise _Problem(f"it has an unexpected field {brief_repr(unknown[0])}")
    return dict(data)


def _save_error(problem: _Problem) -> SaveError:
    if problem.reason == "newer":
        schema = problem.detail.split(":", 1)[1]
        return SaveError(f"This save is from a newer version of Conflict Table (schema {schema}); "
                         "update the app to open it", "newer")
    if problem.reason == "not-a-save":
        return SaveError("This file is not a Conflict Table save", "not-a-save")
    if problem.reason == "too-large":
        return SaveError(f"This save is {problem.detail}", "too-large")
    if problem.reason == "damaged":
        return SaveError(f"This save is damaged: {problem.detail}", "damaged")
    if problem.reason == "forged":
        return SaveError(f"This save's app moves were not made by the app: {problem.detail}", "forged")
    return SaveError(f"This save cannot be opened: {problem.detail}", problem.reason)


def read_save(data: Any) -> tuple[Game, dict[str, Any]]:
    """Structure check without replay: ``(game, meta)`` from a save dict, upgraded.

    Cheap (no rules run), for listing saved games. Raises :class:`SaveError`.
    The game may still break the rules; :func:`game_from_dict` checks that too.
    """
    try:
        data = _upgrade(data)
        return _check_game_fields(data), _check_meta(data.get("meta"))
    except _Problem as problem:
        raise _save_error(problem) from None
    except SaveError:  # from a migration (migrate_v1_to_v2, upgrade_game): already in words
        raise
    except Exception:
        raise SaveError("This save is damaged and cannot be opened") from None


def game_to_dict(game: Game, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The saved form of ``game`` (plain JSON data), with ``meta`` when given.
    Raises :class:`SaveError` for anything that is not a game a save can hold."""
    try:
        return _saved_form(game, meta)
    except _Problem as problem:
        raise SaveError(f"This game cannot be saved: {problem.detail}") from None


def _saved_form(game: Game, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """:func:`game_to_dict`'s work; raises ``_Problem``."""
    if not isinstance(game, Game):
        raise _Problem(f"it is not a game ({type(game).__name__})")
    if not isinstance(game.kind, str) or not game.kind or len(game.kind) > MAX_KIND:
        raise _Problem("its kind should be the name of a game system")
    if not _is_int(game.seed) or not 0 <= game.seed <= MAX_SEED:
        raise _Problem(f"its seed should be {SEED_RANGE}")
    for what, value in (("rules", game.rules), ("setup", game.setup)):
        if not isinstance(value, Mapping):
            raise _Problem(f"its {what} should be an object")
    for index, action in enumerate(game.actions):
        if not isinstance(action, Mapping):
            raise _Problem(f"action {index + 1} should be an object")
    if not _is_int(game.position) or not 0 <= game.position <= len(game.actions):
        raise _Problem(f"its position should be a whole number from 0 to {len(game.actions)}")
    data: dict[str, Any] = {
        "app": APP,
        "schema": SCHEMA_VERSION,
        "kind": game.kind,
        "seed": game.seed,
        "rules": _plain(game.rules, "'rules'", 1),
        "setup": _plain(game.setup, "'setup'", 1),
        "actions": [_plain(a, f"action {i + 1}", 2) for i, a in enumerate(game.actions)],
        "position": game.position,
    }
    if meta is not None:
        data["meta"] = _check_meta(meta)
        if data["meta"]["name"] is not None:  # read as it is (the store cleans it), never written
            _no_surrogate(data["meta"]["name"], "the game's name")
    return data


def game_from_dict(data: Any, *, outside: bool = False) -> tuple[Game, dict[str, Any]]:
    """``(game, meta)`` from a saved form; upgrades, checks every field and replays.

    ``meta`` always has ``name``, ``created`` and ``updated`` (``None`` when the save
    does not say) plus any other keys it carried. Raises :class:`SaveError`.
    ``outside``: a file from outside this device (an import): the app's moves are checked
    too (HR-AI-14, HR-OIC-4; reason ``"forged"``).
    """
    game, meta = read_save(data)
    try:
        return _check_rules(game, outside), meta
    except _Problem as problem:
        raise _save_error(problem) from None
    except Exception:
        raise SaveError("This save is damaged and cannot be opened") from None


def dumps(game: Game, meta: Mapping[str, Any] | None = None, *, pretty: bool = False) -> str:
    """The save text of ``game``: compact JSON, or indented for a file when ``pretty``."""
    data = game_to_dict(game, meta)
    if pretty:
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    else:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    try:
        _no_surrogate(text, "it")  # a game made without new_game: no file or store could keep it
    except _Problem as problem:
        raise SaveError(f"This game cannot be saved: {problem.detail}") from None
    return text


def parse_save_text(text: Any) -> Any:
    """The JSON data of save ``text``, size and nesting limited. Raises :class:`SaveError`."""
    try:
        if isinstance(text, (bytes, bytearray)):
            try:
                text = bytes(text).decode("utf-8-sig")
            except UnicodeDecodeError:
                raise _Problem("this is not a Conflict Table save", "not-a-save") from None
        if not isinstance(text, str):
            raise _Problem("this is not a Conflict Table save", "not-a-save")
        if len(text) > MAX_SAVE_CHARS:
            raise _Problem(f"too large to open (more than {MAX_SAVE_CHARS:,} characters)", "too-large")
        text = text.lstrip("\ufeff")
        if not text.strip():
            raise _Problem("this is not a Conflict Table save", "not-a-save")
        try:
            return _parse_json(text)
        except _Problem:
            if text.lstrip()[:1] not in ("{", "["):
                # Not JSON at all: some other file.
                raise _Problem("this is not a Conflict Table save", "not-a-save") from None
            raise
    except _Problem as problem:
        raise _save_error(problem) from None
    except Exception:
        raise SaveError("This save is damaged and cannot be opened") from None


def loads(text: str | bytes, *, outside: bool = False) -> tuple[Game, dict[str, Any]]:
    """``(game, meta)`` from save text (see :func:`game_from_dict`; ``outside`` for an imported
    file). Raises :class:`SaveError`."""
    return game_from_dict(parse_save_text(text), outside=outside)


# --------------------------------------------------------------------------- share links

_SHORT = {"kind": "k", "seed": "s", "rules": "r", "setup": "u", "actions": "a", "position": "p"}
_LONG = {v: k for k, v in _SHORT.items()}
_PAYLOAD = re.compile(r"[A-Za-z0-9_-]*")
_DAMAGED_LINK = "This link is incomplete or damaged — ask for it again"


def encode_share(game: Game) -> str:
    """A compact URL-safe payload holding all of ``game`` (see the module docstring).
    Raises :class:`ShareError` for anything that is not a game a link can hold."""
    try:
        data = _saved_form(game)
        short: dict[str, Any] = {_SHORT[k]: data[k] for k in ("kind", "seed", "rules", "setup", "actions")}
        if data["position"] != len(data["actions"]):
            short["p"] = data["position"]
        text = json.dumps(short, ensure_ascii=False, separators=(",", ":"))
        _no_surrogate(text, "it")  # UTF-8 has no lone surrogate: encoding would fail
    except _Problem as problem:
        raise ShareError(f"This game cannot be shared: {problem.detail}") from None
    raw = text.encode("utf-8")
    packed = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")
    return SHARE_VERSION + packed


def _unpack_share(payload: Any) -> tuple[Any, int]:
    """The JSON data inside a payload and the save schema of its format; raises
    ShareError for everything up to parsing."""
    if payload is None:
        raise ShareError("This link has no game in it", "empty")
    if not isinstance(payload, str):
        raise ShareError("This is not a Conflict Table link", "not-a-link")
    payload = payload.strip()
    if not payload:
        raise ShareError("This link has no game in it", "empty")
    if len(payload) > MAX_SHARE_CHARS:
        raise ShareError(f"This link is too large to open (more than {MAX_SHARE_CHARS:,} characters)",
                         "too-large")
    head, body = payload[0], payload[1:]
    if head != SHARE_VERSION and head not in OLD_SHARE_VERSIONS:
        if head in "456789":
            raise ShareError("This link is from a newer version of Conflict Table; update the app to open it",
                             "newer")
        raise ShareError("This is not a Conflict Table link", "not-a-link")
    if not body:
        raise ShareError(_DAMAGED_LINK)
    if not _PAYLOAD.fullmatch(body):
        raise ShareError(_DAMAGED_LINK)
    if len(body) % 4 == 1:
        raise ShareError(_DAMAGED_LINK)
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (ValueError, TypeError):
        raise ShareError(_DAMAGED_LINK) from None
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(packed, MAX_SHARE_JSON + 1)
    except zlib.error:
        raise ShareError(_DAMAGED_LINK) from None
    if len(raw) > MAX_SHARE_JSON or inflater.unconsumed_tail:
        raise ShareError("This link holds more data than Conflict Table accepts", "too-large")
    if not inflater.eof or inflater.unused_data:
        raise ShareError(_DAMAGED_LINK)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ShareError(_DAMAGED_LINK) from None
    try:
        return _parse_json(text), OLD_SHARE_VERSIONS.get(head, SCHEMA_VERSION)
    except _Problem as problem:
        raise ShareError(f"This link is damaged: {problem.detail}") from None


def decode_share(payload: str) -> Game:
    """The game inside a share payload, checked and replayed; the app's moves in it derived
    again and compared (HR-AI-14, HR-OIC-4: a link never chooses them).

    Raises :class:`ShareError` — and nothing else, whatever ``payload`` is.
    """
    try:
        data, schema = _unpack_share(payload)
        try:
            if not isinstance(data, dict):
                raise _Problem("it does not hold a game")
            unknown = sorted(k for k in data if k not in _LONG)
            if unknown:
                raise _Problem(f"it has an unexpected field {brief_repr(unknown[0])}")
            for key in ("k", "s", "u", "a"):
                if key not in data:
                    raise _Problem(f"'{_LONG[key]}' is missing")
            game = _check_game_fields(upgrade_game({_LONG[k]: v for k, v in data.items()}, schema))
            return _check_rules(game, outside=True)
        except _Problem as problem:
            if problem.reason == "damaged":
                raise ShareError(f"This link is damaged: {problem.detail}") from None
            if problem.reason == "forged":
                raise ShareError(f"This link's app moves were not made by the app: {problem.detail}",
                                 "forged") from None
            if problem.reason == "too-large":
                raise ShareError(f"This link is {problem.detail}", "too-large") from None
            raise ShareError(f"This link cannot be opened: {problem.detail}", problem.reason) from None
    except ShareError:
        raise
    except Exception:
        raise ShareError(_DAMAGED_LINK) from None
