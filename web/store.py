"""Saved games in the browser's ``localStorage``, as plain Python that tests run on CPython.

The browser layer wraps ``window.localStorage`` in :class:`WebStorage`; tests (and
browsers with storage switched off) use :class:`MemoryStorage`. :class:`Store`
keeps one *slot* per saved game on top of either.

Keys (all start with ``ct:``; ``v1`` is the key layout, not the save schema):

``ct:v1:slot:<slot id>``
    a save in :mod:`engine.codec` format; its ``meta`` holds ``name``,
    ``created``/``updated`` (epoch ms), ``rev`` (a counter bumped by every save),
    ``tab`` (the tab that wrote it) and ``standing`` (where the game stands, in its
    system's words, written at every save so that listing saves replays nothing).
    Slot ids are ``<kind>-<6 letters/digits>``.
``ct:v1:last:<kind>``
    the slot id of the last game opened with that tool.
``ct:v1:trash``
    the most recently deleted game, until it is restored or another is deleted:
    a line of JSON (``token``, ``slot``, ``deleted``, ``last``), a newline, and
    the deleted slot's text unchanged.
``ct:v1:backup:<slot id>:<epoch ms>``
    the exact text of a save that could not be opened, kept so nothing is lost.
``ct:v1:backup:<name>:<epoch ms>``
    the exact text of another kept value (``<name>`` is its key after ``ct:v1:``: a
    setup form ``draft:<kind>``, the tracker's ``initiative:ticks`` …) that could not
    be used as it was (issue 35: :meth:`Store.keep_aside`, one way for every view).

Nothing is lost on failure: a write that does not fit raises :class:`StorageFull`
and leaves the previous save as it was; a save that cannot be opened is copied to
a backup key before it is taken off the list. When not even the deleted game fits
in the trash, it is held in this tab's memory, so Undo still works here.

Every name read from storage or from a file passes :func:`clean_name` (the check
typed names get, :func:`engine.text.text_problem`): a right-to-left override or a
line break in an imported save's name never reaches the screen (issue 35).
"""

from __future__ import annotations

import json
import os
import random
import re
import time
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from engine import codec
from engine import game as games
from engine.game import Game
from engine.registry import TABLES
from engine.text import text_problem

KEY_PREFIX = "ct:v1:"
SLOT_PREFIX = KEY_PREFIX + "slot:"
LAST_PREFIX = KEY_PREFIX + "last:"
TRASH_KEY = KEY_PREFIX + "trash"
BACKUP_PREFIX = KEY_PREFIX + "backup:"

#: How each tool's games are called by default ("Conflict 3").
KIND_TITLES = {table.kind: table.short for table in TABLES}  # engine.registry

_KIND = re.compile(r"[a-z][a-z0-9_]{0,39}")
_SLOT_ID = re.compile(r"([a-z][a-z0-9_]{0,39})-([a-z0-9]{1,16})")
_ID_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"

#: The longest ``standing`` kept in a save's meta (a few words for the list of saves).
MAX_STANDING = 120

_FULL = ("Browser storage is full, so {what} was not saved{kept}. "
         "Export or delete old games to make room.")


#: What a kept value other than a save is called, by the last part of its key (issue 35).
KEPT_VALUES = {"templates": "the roster templates", "sides": "the kept sides",
               "ticks": "the ticks for the next deal", "view": "whether the players' view was on"}


class StoreError(ValueError):
    """Something about saved games went wrong; ``str()`` is a message for players."""


class StorageFull(StoreError):
    """The browser's storage has no room for a write; nothing was changed."""


class NoSuchSave(StoreError):
    """The slot does not exist (any more: maybe it was deleted in another tab)."""

    def __init__(self, slot_id: str):
        super().__init__("This saved game is no longer there (it may have been deleted in another tab)")
        self.slot_id = slot_id


class DamagedSave(StoreError):
    """A save that cannot be opened.

    ``backup_key`` is where its exact text was copied (``None`` when it was left in
    place: a save from a newer app or for a tool this app does not have is not
    damaged, just not for us). ``reason`` is the :class:`engine.codec.SaveError` reason.
    """

    def __init__(self, message: str, slot_id: str, backup_key: str | None, reason: str):
        super().__init__(message)
        self.slot_id = slot_id
        self.backup_key = backup_key
        self.reason = reason


class ConflictingEdit(StoreError):
    """The slot was saved elsewhere (another tab) since this tab loaded it."""

    def __init__(self, slot_id: str, stored_rev: Any, stored_tab: Any):
        super().__init__("This game was changed in another tab since you opened it here. "
                         "Reload it to see those changes, or keep this version to overwrite them.")
        self.slot_id = slot_id
        self.stored_rev = stored_rev
        self.stored_tab = stored_tab


class Storage(Protocol):
    """A string key/value store such as ``localStorage``."""

    def get(self, key: str) -> str | None:
        """The value of ``key``, or ``None``."""

    def set(self, key: str, value: str) -> None:
        """Store ``value``; raises :class:`StorageFull` (changing nothing) when it does not fit."""

    def remove(self, key: str) -> None:
        """Forget ``key`` (no error when absent)."""

    def keys(self) -> list[str]:
        """Every key."""


class MemoryStorage:
    """A dict-backed :class:`Storage`.

    ``quota`` limits the total length of keys plus values, in characters (browsers
    allow about 5 million); ``None`` means no limit. ``data`` is the dict itself.
    """

    def __init__(self, quota: int | None = None, data: dict[str, str] | None = None):
        self.quota = quota
        self.data: dict[str, str] = dict(data or {})

    def used(self) -> int:
        """Characters in use (keys plus values)."""
        return sum(len(k) + len(v) for k, v in self.data.items())

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def set(self, key: str, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError("Storage values are strings")
        if self.quota is not None:
            old = len(key) + len(self.data[key]) if key in self.data else 0
            if self.used() - old + len(key) + len(value) > self.quota:
                raise StorageFull("Browser storage is full")
        self.data[key] = value

    def remove(self, key: str) -> None:
        self.data.pop(key, None)

    def keys(self) -> list[str]:
        return list(self.data)


class WebStorage:
    """:class:`Storage` over a JavaScript ``Storage`` object (``window.localStorage``).

    A ``QuotaExceededError`` from ``setItem`` becomes :class:`StorageFull`; any other
    failure becomes :class:`StoreError`.
    """

    def __init__(self, js_storage: Any):
        self.js = js_storage

    def get(self, key: str) -> str | None:
        value = self.js.getItem(key)
        # JavaScript null arrives as None or as Pyodide's ``jsnull``: anything but text is "no entry".
        return value if isinstance(value, str) else None

    def set(self, key: str, value: str) -> None:
        try:
            self.js.setItem(key, value)
        except Exception as err:
            text = f"{getattr(err, 'name', '')} {err}"
            if "quota" in text.lower():
                raise StorageFull("Browser storage is full") from None
            raise StoreError("The browser refused to save") from None

    def remove(self, key: str) -> None:
        self.js.removeItem(key)

    def keys(self) -> list[str]:
        count = int(self.js.length)
        keys = [self.js.key(i) for i in range(count)]
        return [k for k in keys if isinstance(k, str)]


@dataclass(frozen=True)
class SlotInfo:
    """One saved game as listed: enough to show it without opening it.

    ``problem`` is a message for players when the save cannot be read (the other
    fields are then ``None`` where unknown); ``actions`` counts every action,
    ``position`` those in force. ``standing`` is where the game stood when it was
    saved, in its system's words (``None`` for a system without ``standing`` or an
    older save); ``spectator`` says the save is a spectator's copy (read from the
    game itself, not from anything a name or meta could claim).
    """

    id: str
    kind: str
    name: str | None
    created: int | None
    updated: int | None
    actions: int | None
    position: int | None
    rev: int | None
    problem: str | None = None
    standing: str | None = None
    spectator: bool = False

    @property
    def damaged(self) -> bool:
        return self.problem is not None

    @property
    def where(self) -> str:
        """Where the game stands, for a list of saves: the system's words when the save
        has them, else its point in the history ("12 steps played · 2 undone")."""
        if self.damaged:
            return "cannot be opened"
        if self.standing:
            text = self.standing
        elif not self.position:
            text = "No moves yet"
        else:
            text = f"{self.position} step{'s' if self.position != 1 else ''} played"
        later = (self.actions or 0) - (self.position or 0)
        if later > 0:
            text += f" · {later} undone"
        return text


@dataclass(frozen=True)
class BackupInfo:
    """A copy of a save that could not be opened (``ct:v1:backup:…``), as listed.

    ``slot_id``/``kind`` come from the key (``None`` for a key of another shape);
    ``kept`` is when the copy was made (epoch ms, from the key); ``size`` its length
    in characters; ``name`` the game's name when the text still says it. ``what``
    is ``None`` for a save, else what the kept value was, in a player's words ("the
    setup form", see :meth:`Store.keep_aside`).
    """

    key: str
    slot_id: str | None
    kind: str | None
    kept: int | None
    size: int
    name: str | None
    what: str | None = None


def standing_of(game: Game, state: Any = None) -> str | None:
    """Where ``game`` stands, from its system's optional ``standing(state)`` hook.

    ``state`` is the game's current state when the caller has it (the session
    does), so that nothing is replayed twice. ``None`` when the system has no such
    hook, or the hook fails or returns no text: a save never fails because of it.
    """
    try:
        hook = getattr(games.system(game.kind), "standing", None)
        if hook is None:
            return None
        text = hook(games.replay(game) if state is None else state)
    except Exception:  # a system's words are a courtesy: the save goes on without them
        return None
    return _clean_standing(text)


def _clean_standing(text: Any) -> str | None:
    if not isinstance(text, str):
        return None
    text = " ".join(text.split())
    if len(text) > MAX_STANDING:
        text = text[: MAX_STANDING - 1].rstrip() + "…"
    return text or None


_BACKUP_STAMP = re.compile(r"(\d{1,16})(?:-\d+)?")


def _backup_key_parts(key: str) -> tuple[str | None, str | None, int | None]:
    """``(slot id, kind, kept at)`` of ``ct:v1:backup:<slot id>:<ms>[-n]``; ``None`` where unknown.

    A kept value other than a save (``ct:v1:backup:draft:<kind>:<ms>``,
    ``ct:v1:backup:<kind>:<thing>:<ms>``) has no slot id but its table's kind."""
    name, _, stamp = key[len(BACKUP_PREFIX):].rpartition(":")
    kept = _BACKUP_STAMP.fullmatch(stamp)
    at = int(kept.group(1)) if kept else None
    match = _SLOT_ID.fullmatch(name)
    if match:
        return name, match.group(1), at
    if _kept_value_what(name) is not None:
        return None, _kept_value_kind(name), at
    return None, None, None


def _kept_value_kind(name: str) -> str | None:
    """The table a kept value belongs to: ``draft:<kind>`` and ``<kind>:<thing>``."""
    parts = name.split(":")
    kind = parts[1] if parts[0] == "draft" and len(parts) == 2 else parts[0] if len(parts) == 2 else None
    return kind if kind is not None and kind in KIND_TITLES else None


def _kept_value_what(name: str) -> str | None:
    """What a kept value is called ("the setup form"), from its key after ``ct:v1:``."""
    if _kept_value_kind(name) is None:
        return None
    first, thing = name.split(":")
    return "the setup form" if first == "draft" else KEPT_VALUES.get(thing, "what this table kept between visits")


def clean_name(name: Any) -> str | None:
    """A save's name as the app shows and keeps it, whatever storage or a file said.

    Typed names may not hold line breaks, control, invisible or formatting characters
    (:func:`engine.text.text_problem`); a name read from a save, an imported file or a
    link gets the same check, and what fails it is taken out (a line break or tab
    becomes a space): a right-to-left override never turns "(open)" into "(nepo)"
    (issue 35). At most :data:`engine.codec.MAX_NAME` characters; ``None`` when it
    is not text or nothing is left.
    """
    if not isinstance(name, str):
        return None
    if text_problem(name) is not None:
        kept = "".join(" " if char.isspace() else char for char in name
                       if char.isspace() or text_problem(char) is None)
        name = " ".join(kept.split())
    name = name.strip()[: codec.MAX_NAME].strip()
    return name or None


def _name_in(raw: str) -> str | None:
    """The game's name in a save's text, if it can still be read (a damaged save may
    still be JSON with its ``meta``); never raises."""
    try:
        data = codec.parse_save_text(raw)
    except codec.SaveError:
        return None
    meta = data.get("meta") if isinstance(data, dict) else None
    return clean_name(meta.get("name")) if isinstance(meta, dict) else None


def slot_kind(slot_id: str) -> str:
    """The kind of game a slot id belongs to; raises :class:`NoSuchSave` for a malformed id."""
    match = _SLOT_ID.fullmatch(slot_id) if isinstance(slot_id, str) else None
    if not match:
        raise NoSuchSave(str(slot_id))
    return match.group(1)


def _now_ms() -> int:
    return int(time.time() * 1000)


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def filename_for(name: str | None, fallback: str) -> str:
    """A safe file name (``friday-game.json``) for a game called ``name``."""
    text = unicodedata.normalize("NFKD", name or "").encode("ascii", "ignore").decode("ascii")
    slug = "-".join(re.findall(r"[a-z0-9]+", text.lower()))[:60].strip("-")
    return f"{slug or fallback}.json"


class Store:
    """Saved games on a :class:`Storage`.

    ``now`` returns the time in epoch milliseconds; ``tab_id`` names this browser
    tab (recorded with every save, for telling tabs apart). Every method raises
    only ``ValueError`` subclasses with messages for players
    (:class:`StoreError` ones, or :class:`engine.codec.SaveError` from imports).
    """

    def __init__(self, storage: Storage, now: Callable[[], int] | None = None, tab_id: str | None = None,
                 rng: random.Random | None = None):
        self.storage = storage
        self.now = now or _now_ms
        self.rng = rng or random.Random(os.urandom(16))
        self.tab_id = tab_id or self._random(8)
        #: The rev this tab last loaded or wrote, per slot.
        self.seen: dict[str, int] = {}
        #: What :meth:`list` read of each slot, by the exact text it read it from: a save
        #: is checked again only when its text changed (another tab, an edit), not at
        #: every render of the Saves drawer (issue 19: with twenty saves, re-reading them
        #: all was half of what a tap cost).
        self._listed: dict[str, tuple[str, SlotInfo]] = {}
        #: The last deleted game when not even the trash had room for it (see :meth:`delete`).
        self._held: dict[str, Any] | None = None

    # ------------------------------------------------------------------ helpers

    def _random(self, length: int) -> str:
        return "".join(self.rng.choice(_ID_CHARS) for _ in range(length))

    def _new_id(self, kind: str) -> str:
        if not isinstance(kind, str) or not _KIND.fullmatch(kind):
            raise StoreError("This kind of game cannot be saved here")
        while True:
            slot_id = f"{kind}-{self._random(6)}"
            if self.storage.get(SLOT_PREFIX + slot_id) is None:
                return slot_id

    def _write(self, key: str, value: str, what: str, kept: str = "") -> None:
        """Write and read back. When it does not fit, the previous value is left as it was."""
        try:
            self.storage.set(key, value)
        except StorageFull:
            raise StorageFull(_FULL.format(what=what, kept=kept)) from None
        if self.storage.get(key) != value:
            raise StoreError(f"The browser did not keep {what}; try again")

    def _raw(self, slot_id: str) -> str:
        slot_kind(slot_id)
        raw = self.storage.get(SLOT_PREFIX + slot_id)
        if raw is None:
            raise NoSuchSave(slot_id)
        return raw

    @staticmethod
    def _peek(raw: str) -> tuple[Game, dict[str, Any]]:
        """The game and meta of stored text without replaying it (raises SaveError)."""
        return codec.read_save(codec.parse_save_text(raw))

    def _check_name(self, name: Any) -> str | None:
        """A typed name (Rename), checked like every typed text (issue 35)."""
        if name is None:
            return None
        if not isinstance(name, str):
            raise StoreError("A name must be text")
        name = name.strip()
        if len(name) > codec.MAX_NAME:
            raise StoreError(f"A name can be at most {codec.MAX_NAME} characters long")
        problem = text_problem(name)
        if problem:
            raise StoreError(f"The name {problem}")
        return name or None

    def _given_name(self, name: Any) -> str | None:
        """A name the app made (from a game's sides, a save's name + " (this tab)"):
        checked like a typed one, but cleaned rather than refused (:func:`clean_name`)."""
        return self._check_name(clean_name(name) if isinstance(name, str) else name)

    def _names(self, kind: str) -> set[str]:
        return {info.name for info in self.list(kind) if info.name}

    def _default_name(self, kind: str) -> str:
        title = KIND_TITLES.get(kind, kind.replace("_", " ").capitalize())
        infos = self.list(kind)
        names = {info.name for info in infos if info.name}
        number = len(infos) + 1
        while f"{title} {number}" in names:
            number += 1
        return f"{title} {number}"

    def _unique_name(self, kind: str, name: str, tag: str, always: bool = False) -> str:
        """``name``, or "name (tag)", "name (tag 2)" … — the first not used by a ``kind`` game."""
        names = self._names(kind)
        if not always and name not in names:
            return name
        base = name[: codec.MAX_NAME - len(tag) - 12]
        candidate, number = f"{base} ({tag})", 2
        while candidate in names:
            candidate = f"{base} ({tag} {number})"
            number += 1
        return candidate

    def _backup(self, name: str, raw: str, what: str = "a copy of the damaged save") -> str:
        """Copy ``raw`` under a fresh backup key for ``name`` (a slot id, or a kept value's
        key after ``ct:v1:``); returns the key (raises StorageFull)."""
        base = f"{BACKUP_PREFIX}{name}:{self.now()}"
        key, number = base, 2
        while self.storage.get(key) is not None:
            key = f"{base}-{number}"
            number += 1
        self._write(key, raw, what)
        return key

    def keep_aside(self, key: str, raw: str | None = None) -> str:
        """Set aside the value of ``key`` that could not be used (issue 35): its exact
        text (``raw``, by default what is stored) is copied to a backup key, as a damaged
        save's is, listed with the kept copies of that table's Saves drawer, and ``key``
        is removed. Returns the backup key.

        ``key`` is one of the app's own keys other than a save (``ct:v1:draft:<kind>``,
        ``ct:v1:<kind>:<thing>``). Raises :class:`StorageFull` (and leaves ``key`` as
        it was) when there is no room for the copy, :class:`StoreError` for another key.
        """
        name = key[len(KEY_PREFIX):] if isinstance(key, str) and key.startswith(KEY_PREFIX) else None
        if name is None or _kept_value_what(name) is None:
            raise StoreError("That is not a value this app keeps")
        if raw is None:
            raw = self.storage.get(key)
            if raw is None:
                raise StoreError("That value is no longer there")
        backup = self._backup(name, raw, "a copy of it")
        self.storage.remove(key)
        return backup

    def _put(self, slot_id: str, game: Game, meta: Mapping[str, Any], what: str, kept: str = "") -> None:
        text = codec.dumps(game, meta)
        self._write(SLOT_PREFIX + slot_id, text, what, kept)
        self.seen[slot_id] = meta["rev"]

    # ------------------------------------------------------------------ slots

    @staticmethod
    def _with_standing(meta: dict[str, Any], standing: str | None) -> dict[str, Any]:
        if standing:
            meta["standing"] = standing
        return meta

    def create(self, game: Game, name: str | None = None, *, state: Any = None) -> str:
        """Save ``game`` in a new slot (named ``name`` or "Conflict 3" …); returns its id.

        ``state``: the game's current state, when the caller has it (for the save's
        ``standing``, see :func:`standing_of`)."""
        slot_id = self._new_id(game.kind)
        name = self._given_name(name) or self._default_name(game.kind)
        now = self.now()
        meta = {"name": name, "created": now, "updated": now, "rev": 1, "tab": self.tab_id}
        self._put(slot_id, game, self._with_standing(meta, standing_of(game, state)), "the new game")
        return slot_id

    def save(self, slot_id: str, game: Game, expected_rev: int | None = None, *, force: bool = False,
             state: Any = None) -> int:
        """Autosave ``game`` into its slot; returns the new rev.

        Keeps the stored name and creation time, sets ``updated`` and bumps ``rev``;
        writes where the game stands now (``standing``, from ``state`` when given).
        Raises :class:`ConflictingEdit` when the stored rev is not ``expected_rev``
        (by default the rev this Store last loaded or wrote), unless ``force``;
        :class:`NoSuchSave` when the slot is gone; :class:`StorageFull` when it does
        not fit (the previous save stays as it was).
        """
        kind = slot_kind(slot_id)
        if game.kind != kind:
            raise StoreError("This game belongs to another table: it cannot be saved over this save")
        raw = self._raw(slot_id)
        damaged = False
        try:
            _, meta = self._peek(raw)
        except codec.SaveError:
            # The stored text is unreadable: keep a copy, then replace it with this game.
            self._backup(slot_id, raw)
            meta, damaged = {}, True
        stored_rev = _int_or_none(meta.get("rev"))
        if expected_rev is None:
            expected_rev = self.seen.get(slot_id)
        if not (force or damaged) and expected_rev is not None and stored_rev != expected_rev:
            raise ConflictingEdit(slot_id, stored_rev, meta.get("tab"))
        now = self.now()
        new_meta = {
            "name": clean_name(meta.get("name")) or self._default_name(kind),
            "created": meta.get("created") if meta.get("created") is not None else now,
            "updated": now,
            "rev": (stored_rev or 0) + 1,
            "tab": self.tab_id,
        }
        self._with_standing(new_meta, standing_of(game, state))
        self._put(slot_id, game, new_meta, "this move", "; your previous save is unchanged")
        return new_meta["rev"]

    def load(self, slot_id: str) -> tuple[Game, dict[str, Any]]:
        """``(game, meta)`` of a slot, fully checked and replayed.

        A save that cannot be opened is copied to a backup key and taken off the
        list, and :class:`DamagedSave` says so (a save from a newer app, or for a
        tool this app does not have, is left in place). :class:`NoSuchSave` when
        the slot is gone.
        """
        raw = self._raw(slot_id)
        try:
            game, meta = codec.loads(raw)
            if game.kind != slot_kind(slot_id):
                raise codec.SaveError("This save is damaged: it holds a different kind of game")
        except codec.SaveError as err:
            if err.reason in ("newer", "kind"):
                raise DamagedSave(str(err), slot_id, None, err.reason) from None
            try:
                backup_key = self._backup(slot_id, raw)
            except StoreError:
                raise DamagedSave(f"{err}. It was left in place, because there is no room to keep a copy.",
                                  slot_id, None, err.reason) from None
            self.storage.remove(SLOT_PREFIX + slot_id)
            kind = slot_kind(slot_id)
            if self.storage.get(LAST_PREFIX + kind) == slot_id:
                self.storage.remove(LAST_PREFIX + kind)
            raise DamagedSave(f"{err}. A copy was kept in the browser, so nothing is lost.",
                              slot_id, backup_key, err.reason) from None
        rev = _int_or_none(meta.get("rev"))
        if rev is not None:
            self.seen[slot_id] = rev
        return game, {**meta, "name": clean_name(meta.get("name"))}

    def list(self, kind: str | None = None) -> list[SlotInfo]:
        """Saved games (of ``kind``, or all), newest first; unreadable ones have a ``problem``."""
        infos = []
        listed: dict[str, tuple[str, SlotInfo]] = {}
        for key in self.storage.keys():
            if not key.startswith(SLOT_PREFIX):
                continue
            slot_id = key[len(SLOT_PREFIX):]
            match = _SLOT_ID.fullmatch(slot_id)
            if not match or (kind is not None and match.group(1) != kind):
                continue
            raw = self.storage.get(key)
            if raw is None:
                continue
            seen = self._listed.get(slot_id)
            info = seen[1] if seen is not None and seen[0] == raw else self._slot_info(slot_id, match.group(1), raw)
            listed[slot_id] = (raw, info)
            infos.append(info)
        # what is known of the slots of other kinds (not looked at) stays; gone slots go
        self._listed = {s: v for s, v in self._listed.items() if kind is not None and v[1].kind != kind} | listed
        infos.sort(key=lambda i: (-(i.updated if i.updated is not None else -1), i.id))
        return infos

    def _slot_info(self, slot_id: str, kind: str, raw: str) -> SlotInfo:
        """A slot as :meth:`list` shows it, read from its stored text ``raw``."""
        try:
            game, meta = self._peek(raw)
        except codec.SaveError as err:
            return SlotInfo(slot_id, kind, None, None, None, None, None, None, str(err))
        return SlotInfo(
            id=slot_id, kind=kind, name=clean_name(meta.get("name")),
            created=meta.get("created"), updated=meta.get("updated"),
            actions=len(game.actions), position=game.position, rev=_int_or_none(meta.get("rev")),
            problem=None if game.kind == kind else "This save is damaged: it holds a different kind of game",
            standing=_clean_standing(meta.get("standing")), spectator=games.is_spectator(game),
        )

    def rename(self, slot_id: str, name: str) -> None:
        """Give a saved game a new name (does not count as an edit for other tabs)."""
        name = self._check_name(name)
        if name is None:
            raise StoreError("A name cannot be empty")
        raw = self._raw(slot_id)
        try:
            game, meta = self._peek(raw)
        except codec.SaveError as err:
            raise DamagedSave(str(err), slot_id, None, err.reason) from None
        meta = {**meta, "name": name}
        text = codec.dumps(game, meta)
        self._write(SLOT_PREFIX + slot_id, text, "the new name", "; the old name is kept")

    def duplicate(self, slot_id: str, name: str | None = None) -> str:
        """A copy of a saved game in a new slot (named "<name> (copy)", "(copy 2)" … by default)."""
        game, meta = self.load(slot_id)
        name = self._given_name(name)
        if name is None:
            name = self._unique_name(game.kind, meta.get("name") or "Game", "copy", always=True)
        new_id = self._new_id(game.kind)
        now = self.now()
        copy_meta = {"name": name, "created": now, "updated": now, "rev": 1, "tab": self.tab_id}
        self._put(new_id, game, self._with_standing(copy_meta, _clean_standing(meta.get("standing"))), "the copy")
        return new_id

    # ------------------------------------------------------------------ delete / undo

    def delete(self, slot_id: str) -> str | None:
        """Delete a saved game; returns a token for :meth:`undo_delete`.

        The game is kept in the trash until it is restored or another game is
        deleted (or :meth:`purge_trash`). When storage is so full that not even
        the trash fits, the deleted game's text is held in this tab's memory
        instead (issue 35): Undo still works here, and :meth:`held_in_memory`
        says so, for the player to be told.
        """
        kind = slot_kind(slot_id)
        raw = self._raw(slot_id)
        was_last = self.storage.get(LAST_PREFIX + kind) == slot_id
        token = self._random(10)
        header = {"token": token, "slot": slot_id, "deleted": self.now(), "last": was_last}
        trash = json.dumps(header, separators=(",", ":")) + "\n" + raw
        self.storage.remove(TRASH_KEY)  # the previous deleted game is gone for good
        self._held = None
        key = SLOT_PREFIX + slot_id
        try:
            self._write(TRASH_KEY, trash, "the deleted game")
        except StoreError:
            # No room for a second copy: free the slot first.
            self.storage.remove(key)
            try:
                self._write(TRASH_KEY, trash, "the deleted game")
            except StoreError:
                self.storage.remove(TRASH_KEY)
                self._held = {**header, "value": raw}  # this tab can still undo
        self.storage.remove(key)
        if was_last:
            self.storage.remove(LAST_PREFIX + kind)
        self.seen.pop(slot_id, None)
        return token

    def held_in_memory(self, token: str | None) -> bool:
        """Whether the game deleted with ``token`` is kept only in this tab's memory
        (storage had no room for the trash): Undo works in this tab only."""
        return token is not None and self._held is not None and self._held["token"] == token

    def held_text(self, token: str | None) -> tuple[str, str] | None:
        """``(file name, text)`` of a deleted game held in memory, for exporting it
        when storage is too full to put it back; ``None`` when there is none."""
        if not self.held_in_memory(token):
            return None
        held = self._held
        return filename_for(_name_in(held["value"]), held["slot"]), held["value"]

    def _trash(self) -> dict[str, Any] | None:
        """The trash header plus ``value`` (the deleted save's text), or None."""
        raw = self.storage.get(TRASH_KEY)
        if raw is None or "\n" not in raw:
            return None
        header, value = raw.split("\n", 1)
        try:
            data = json.loads(header)
        except (ValueError, RecursionError):
            return None
        if not isinstance(data, dict) or not isinstance(data.get("slot"), str):
            return None
        if not _SLOT_ID.fullmatch(data["slot"]):
            return None
        data["value"] = value
        return data

    def undo_delete(self, token: str | None) -> str:
        """Restore the game deleted with ``token``; returns its slot id.

        A game held in memory (see :meth:`delete`) stays held when it still does not
        fit (:class:`StorageFull`): the player can try again, or export it."""
        held = self._held if self.held_in_memory(token) else None
        data = held or self._trash()
        if token is None or data is None or data.get("token") != token:
            raise StoreError("That game can no longer be restored")
        slot_id = data["slot"]
        kind = slot_kind(slot_id)
        if self.storage.get(SLOT_PREFIX + slot_id) is not None:
            slot_id = self._new_id(kind)
        if held is not None:
            self._write(SLOT_PREFIX + slot_id, data["value"], "the restored game")
            self._held = None
        else:
            trash = self.storage.get(TRASH_KEY) or ""
            try:
                self._write(SLOT_PREFIX + slot_id, data["value"], "the restored game")
            except StorageFull:
                # No room for both copies: empty the trash first, refill it if the slot still fails.
                self.storage.remove(TRASH_KEY)
                try:
                    self._write(SLOT_PREFIX + slot_id, data["value"], "the restored game")
                except StoreError:
                    self.storage.set(TRASH_KEY, trash)
                    raise
            self.storage.remove(TRASH_KEY)
        if data.get("last") and self.last(kind) is None:
            try:
                self.set_last(kind, slot_id)
            except StoreError:
                pass  # which game was open is a convenience: the game itself is back
        try:
            rev = _int_or_none(self._peek(data["value"])[1].get("rev"))
        except codec.SaveError:
            rev = None
        if rev is not None:
            self.seen[slot_id] = rev
        return slot_id

    def purge_trash(self) -> None:
        """Forget the deleted game for good."""
        self.storage.remove(TRASH_KEY)
        self._held = None

    # ------------------------------------------------------------------ last game per tool

    def last(self, kind: str) -> str | None:
        """The slot of the last game opened with the ``kind`` tool, if it still exists."""
        slot_id = self.storage.get(LAST_PREFIX + kind)
        if slot_id is None or not _SLOT_ID.fullmatch(slot_id) or slot_kind(slot_id) != kind:
            return None
        if self.storage.get(SLOT_PREFIX + slot_id) is None:
            return None
        return slot_id

    def set_last(self, kind: str, slot_id: str | None) -> None:
        """Remember ``slot_id`` as the game to reopen for ``kind`` (``None`` forgets it)."""
        if slot_id is None:
            self.storage.remove(LAST_PREFIX + kind)
            return
        if slot_kind(slot_id) != kind:
            raise StoreError("That save belongs to another table")
        self._write(LAST_PREFIX + kind, slot_id, "which game was open")

    # ------------------------------------------------------------------ files

    def export(self, slot_id: str) -> tuple[str, str]:
        """``(file name, JSON text)`` of a saved game, for downloading."""
        game, meta = self.load(slot_id)
        public_meta = {"name": meta.get("name"), "created": meta.get("created"), "updated": meta.get("updated")}
        return filename_for(meta.get("name"), slot_id), codec.dumps(game, public_meta, pretty=True)

    def import_text(self, text: str | bytes, notes: list[str] | None = None) -> str:
        """Save the game of an exported file in a new slot (never overwrites); returns its id.

        A name already used by a game of the same tool gets " (imported)" added. A
        name gets the check of a typed one (:func:`clean_name`): what fails it is taken
        out, and a full game's name does not claim to be a spectator's copy; each such
        change is said in ``notes`` (plain sentences), when given.
        Raises :class:`engine.codec.SaveError` for a file that cannot be opened.
        """
        game, meta = codec.loads(text, outside=True)  # a file from outside: the app's moves checked too
        notes = [] if notes is None else notes
        given = meta.get("name")
        name = clean_name(given)
        if isinstance(given, str) and text_problem(given):
            notes.append("Its name held invisible, control or line-break characters, which were taken out.")
        if name is not None and not games.is_spectator(game):
            claim = re.compile(r"\s*\(\s*spectator copy\s*\)", re.I)
            if claim.search(name):
                name = claim.sub("", name).strip() or None
                notes.append("It is a full game, so “(spectator copy)” was taken out of its name.")
        if name is None:
            name = self._default_name(game.kind)
        name = self._unique_name(game.kind, name, "imported")
        slot_id = self._new_id(game.kind)
        now = self.now()
        created = meta.get("created") if meta.get("created") is not None else now
        imported = {"name": name, "created": created, "updated": now, "rev": 1, "tab": self.tab_id}
        self._put(slot_id, game, self._with_standing(imported, standing_of(game)), "the imported game")
        return slot_id

    # ------------------------------------------------------------------ backups

    def backups(self, slot_id: str | None = None) -> list[str]:
        """Backup keys of saves that could not be opened (of one slot, or all), oldest first."""
        prefix = BACKUP_PREFIX + (f"{slot_id}:" if slot_id else "")
        return sorted(k for k in self.storage.keys() if k.startswith(prefix))

    def backup_list(self, kind: str | None = None) -> list[BackupInfo]:
        """The kept copies of damaged saves (of ``kind``'s tool, or all), newest first.

        Cheap: nothing is replayed; the name is read only when the text still says it.
        A copy whose key has another shape is listed under no tool (``kind`` None).
        """
        infos = []
        for key in self.backups():
            raw = self.storage.get(key)
            if raw is None:
                continue
            slot_id, kind_of, kept = _backup_key_parts(key)
            if kind is not None and kind_of != kind:
                continue
            if slot_id is not None or kind_of is None:
                infos.append(BackupInfo(key, slot_id, kind_of, kept, len(raw), _name_in(raw)))
            else:  # a kept value other than a save: what it was, never a game's name
                name = key[len(BACKUP_PREFIX):].rpartition(":")[0]
                infos.append(BackupInfo(key, None, kind_of, kept, len(raw), None, _kept_value_what(name)))
        infos.sort(key=lambda i: (-(i.kept if i.kept is not None else -1), i.key))
        return infos

    def backup_text(self, key: str) -> str:
        """The exact text of a kept copy (raises :class:`StoreError` when it is gone)."""
        if not isinstance(key, str) or not key.startswith(BACKUP_PREFIX):
            raise StoreError("That is not a kept copy of a save")
        raw = self.storage.get(key)
        if raw is None:
            raise StoreError("That copy is no longer there (it may have been deleted in another tab)")
        return raw

    def export_backup(self, key: str) -> tuple[str, str]:
        """``(file name, exact text)`` of a kept copy, for downloading as it is."""
        raw = self.backup_text(key)
        slot_id, kind, kept = _backup_key_parts(key)
        if slot_id is None and kind is not None:  # a kept setup form, the ticks …: named by its key
            stem = filename_for(key[len(BACKUP_PREFIX):].rpartition(":")[0].replace(":", " "), "kept")[:-5]
        else:
            stem = filename_for(_name_in(raw), slot_id or "save")[: -len(".json")]
        return f"{stem}-damaged-copy{'-' + str(kept) if kept is not None else ''}.json", raw

    def restore_backup(self, key: str) -> str:
        """Open a kept copy again as a new save (the copy stays); returns the new slot id.

        Raises :class:`engine.codec.SaveError` when the copy still cannot be opened.
        """
        return self.import_text(self.backup_text(key))

    def discard_backup(self, key: str) -> None:
        """Forget a backup for good."""
        if not isinstance(key, str) or not key.startswith(BACKUP_PREFIX):
            raise StoreError("That is not a backup")
        self.storage.remove(key)

    def put_backup(self, key: str, text: str) -> None:
        """Write a kept copy back under its key (undoing :meth:`discard_backup`)."""
        if not isinstance(key, str) or not key.startswith(BACKUP_PREFIX) or not isinstance(text, str):
            raise StoreError("That is not a backup")
        self._write(key, text, "the kept copy")

    # ------------------------------------------------------------------ other tabs

    def changed_elsewhere(self, key: str | None, new_value: str | None) -> str | None:
        """The slot id a browser ``storage`` event changed, if its game moved on.

        Returns the id when a saved game was deleted or saved with a rev this Store
        has not seen (so a tab showing that game should offer to reload); ``None``
        for other keys, renames, and this tab's own writes. Never raises.
        """
        try:
            if not isinstance(key, str) or not key.startswith(SLOT_PREFIX):
                return None
            slot_id = key[len(SLOT_PREFIX):]
            if not _SLOT_ID.fullmatch(slot_id):
                return None
            if new_value is None:
                return slot_id
            try:
                _, meta = self._peek(new_value)
            except codec.SaveError:
                return slot_id
            rev = _int_or_none(meta.get("rev"))
            if rev is not None and rev == self.seen.get(slot_id):
                return None
            return slot_id
        except Exception:
            return None
