"""The browser save store, run on a dict-backed storage."""

from __future__ import annotations

import json
import random

import pytest

from engine import codec
from engine import game as game_mod
from engine.game import RuleError
from web.store import (
    BACKUP_PREFIX,
    LAST_PREFIX,
    SLOT_PREFIX,
    TRASH_KEY,
    ConflictingEdit,
    DamagedSave,
    MemoryStorage,
    NoSuchSave,
    StorageFull,
    Store,
    StoreError,
    WebStorage,
    filename_for,
)

MARKUP = "<img src=x onerror=alert(1)>"


@pytest.fixture(autouse=True, scope="module")
def _fake_system():
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(game_mod.SYSTEM_MODULES, "testdice", "tests.engine.fakesys")
        yield


class Clock:
    """Epoch milliseconds that move on by a second at every reading."""

    def __init__(self, start: int = 1_700_000_000_000):
        self.t = start

    def __call__(self) -> int:
        self.t += 1000
        return self.t


def make_store(storage=None, tab="tabA", seed=1, clock=None):
    return Store(storage if storage is not None else MemoryStorage(), now=clock or Clock(), tab_id=tab,
                 rng=random.Random(seed))


def dice(players=("Ann", "Bo"), seed=7, ops=()):
    game = game_mod.new_game("testdice", {"players": list(players)}, None, seed)
    for op in ops:
        if op == "undo":
            game = game_mod.undo(game)
        else:
            try:
                game = game_mod.apply(game, {"type": op})
            except RuleError:
                pass
    return game


@pytest.fixture
def store():
    return make_store()


# --------------------------------------------------------------------------- slots

def test_create_and_load(store):
    game = dice(ops=["roll", "pass", "roll", "undo"])
    slot = store.create(game)
    assert slot.startswith("testdice-") and len(slot) == len("testdice-") + 6
    assert store.storage.get(SLOT_PREFIX + slot) is not None
    loaded, meta = store.load(slot)
    assert loaded == game and loaded.position == 2
    assert meta["name"] == "Testdice 1"
    assert meta["rev"] == 1 and meta["tab"] == "tabA"
    assert meta["created"] == meta["updated"]
    # The stored value is a codec save.
    assert codec.loads(store.storage.get(SLOT_PREFIX + slot))[0] == game


def test_ids_unique_and_default_names(store):
    slots = [store.create(dice()) for _ in range(30)]
    assert len(set(slots)) == 30
    names = {info.name for info in store.list("testdice")}
    assert names == {f"Testdice {n}" for n in range(1, 31)}
    named = store.create(dice(), name="  Friday night  ")
    assert store.load(named)[1]["name"] == "Friday night"


def test_default_name_skips_used_names(store):
    store.create(dice(), name="Testdice 2")
    slot = store.create(dice())
    assert store.load(slot)[1]["name"] == "Testdice 3"


def test_save_updates_meta_and_rev(store):
    slot = store.create(dice(), name="Friday")
    _, first = store.load(slot)
    game = dice(ops=["roll", "roll"])
    assert store.save(slot, game) == 2
    assert store.save(slot, dice(ops=["roll", "roll", "pass"])) == 3
    loaded, meta = store.load(slot)
    assert loaded == dice(ops=["roll", "roll", "pass"])
    assert meta["name"] == "Friday" and meta["created"] == first["created"]
    assert meta["updated"] > first["updated"] and meta["rev"] == 3


def test_save_refuses_other_kind_and_missing_slot(store):
    slot = store.create(dice())
    other = game_mod.Game("otherkind", 1, {}, {})
    with pytest.raises(StoreError, match="cannot be saved over"):
        store.save(slot, other)
    with pytest.raises(NoSuchSave, match="no longer there"):
        store.save("testdice-zzzzzz", dice())
    with pytest.raises(NoSuchSave):
        store.load("not a slot id")
    with pytest.raises(NoSuchSave):
        store.load("testdice-000000")


def test_list_newest_first_and_by_kind(store):
    a = store.create(dice(), name="A")
    b = store.create(dice(ops=["roll", "pass", "roll"]), name="B")
    c = store.create(dice(), name="C")
    store.save(a, dice(ops=["roll", "undo"]))
    store.storage.set("ct:v1:slot:other-abcdef", codec.dumps(dice()))  # another tool's slot
    store.storage.set("unrelated", "x")
    infos = store.list("testdice")
    assert [i.id for i in infos] == [a, c, b]
    first = infos[0]
    assert (first.kind, first.name, first.actions, first.position, first.rev, first.damaged) == (
        "testdice", "A", 1, 0, 2, False)
    assert first.updated > first.created
    assert infos[2].actions == 3
    assert {i.id for i in store.list()} == {a, b, c, "other-abcdef"}
    assert store.list("nothing") == []


def test_the_list_reads_a_save_again_only_when_its_text_changed(store, monkeypatch):
    """Issue 19: every render of the Saves drawer lists the saves; a save whose stored text
    is unchanged is not parsed and checked again, and any change (this tab, another tab,
    a hand edit, a deletion) is seen at the next listing."""
    a = store.create(dice(), name="A")
    b = store.create(dice(ops=["roll"]), name="B")
    other = store.create(dice(players=("Cy", "Di")), name="C")
    store.storage.set("ct:v1:slot:other-abcdef", codec.dumps(dice()))
    read: list[str] = []
    peek = Store._peek
    monkeypatch.setattr(Store, "_peek", staticmethod(lambda raw: read.append(raw) or peek(raw)))
    first = store.list("testdice")
    assert len(read) == 3
    assert store.list("testdice") == first and len(read) == 3  # nothing read again
    store.list()
    assert len(read) == 4  # only the other tool's slot was new
    store.save(a, dice(ops=["roll", "roll"]))  # this tab
    store.storage.set(SLOT_PREFIX + b, "{broken")  # another tab, or a hand edit
    store.storage.remove(SLOT_PREFIX + other)
    read.clear()
    listed = store.list("testdice")
    infos = {i.id: i for i in listed}
    assert len(read) == 2 and set(infos) == {a, b}
    assert infos[a].actions == 2 and infos[b].damaged
    assert store.list("testdice") == listed and len(read) == 2


def test_rename(store):
    slot = store.create(dice(), name="Old")
    store.rename(slot, MARKUP)
    game, meta = store.load(slot)
    assert meta["name"] == MARKUP and meta["rev"] == 1
    with pytest.raises(StoreError, match="cannot be empty"):
        store.rename(slot, "   ")
    with pytest.raises(StoreError, match="at most 200"):
        store.rename(slot, "x" * 201)
    with pytest.raises(StoreError, match="must be text"):
        store.rename(slot, 5)
    with pytest.raises(NoSuchSave):
        store.rename("testdice-nope00", "x")


def test_duplicate(store):
    game = dice(ops=["roll", "pass", "roll", "undo"])
    slot = store.create(game, name="Friday")
    copy = store.duplicate(slot)
    assert copy != slot
    loaded, meta = store.load(copy)
    assert loaded == game and meta["name"] == "Friday (copy)" and meta["rev"] == 1
    again = store.duplicate(slot)
    assert store.load(again)[1]["name"] == "Friday (copy 2)"
    named = store.duplicate(slot, name="Saturday")
    assert store.load(named)[1]["name"] == "Saturday"
    assert store.load(slot)[0] == game


# --------------------------------------------------------------------------- delete / undo

def test_delete_and_undo(store):
    game = dice(ops=["roll", "pass"])
    slot = store.create(game, name="Keep me")
    raw = store.storage.get(SLOT_PREFIX + slot)
    store.set_last("testdice", slot)
    token = store.delete(slot)
    assert store.list("testdice") == []
    assert store.last("testdice") is None
    assert store.storage.get(TRASH_KEY) is not None
    with pytest.raises(NoSuchSave):
        store.load(slot)
    assert store.undo_delete(token) == slot
    assert store.storage.get(SLOT_PREFIX + slot) == raw
    assert store.load(slot)[0] == game
    assert store.last("testdice") == slot
    assert store.storage.get(TRASH_KEY) is None
    with pytest.raises(StoreError, match="can no longer be restored"):
        store.undo_delete(token)


def test_next_delete_purges_trash(store):
    a, b = store.create(dice(), name="A"), store.create(dice(), name="B")
    token_a = store.delete(a)
    token_b = store.delete(b)
    with pytest.raises(StoreError, match="can no longer be restored"):
        store.undo_delete(token_a)
    assert store.undo_delete(token_b) == b
    token = store.delete(b)
    store.purge_trash()
    with pytest.raises(StoreError):
        store.undo_delete(token)
    with pytest.raises(StoreError):
        store.undo_delete("bogus")


def test_delete_when_storage_is_full():
    storage = MemoryStorage()
    store = make_store(storage)
    slot = store.create(dice(ops=["roll"] * 3), name="Big")
    storage.quota = storage.used() + 100  # no room for a second copy in the trash
    token = store.delete(slot)
    assert token is not None and store.list() == []
    assert store.undo_delete(token) == slot
    assert store.load(slot)[1]["name"] == "Big"


def test_delete_without_room_for_trash_is_undone_from_this_tabs_memory():
    """Issue 35: not even the trash fits, so the deleted game is held in memory: Undo works here."""
    storage = MemoryStorage()
    store = make_store(storage)
    keep = store.create(dice(), name="Keep")
    slot = store.create(dice(), name="Big")
    raw = storage.get(SLOT_PREFIX + slot)
    storage.quota = storage.used()  # full to the last character
    token = store.delete(slot)
    assert token is not None and store.held_in_memory(token)
    assert [i.id for i in store.list()] == [keep]
    assert storage.get(TRASH_KEY) is None
    assert store.held_text(token) == ("big.json", raw)
    assert make_store(storage).held_in_memory(token) is False  # another tab has no such copy
    assert store.undo_delete(token) == slot and storage.get(SLOT_PREFIX + slot) == raw
    assert not store.held_in_memory(token)
    with pytest.raises(StoreError, match="can no longer be restored"):
        store.undo_delete(token)
    with pytest.raises(StoreError, match="can no longer be restored"):
        store.undo_delete(None)


# --------------------------------------------------------------------------- last game per tool

def test_last(store):
    assert store.last("testdice") is None
    a, b = store.create(dice()), store.create(dice())
    store.set_last("testdice", a)
    assert store.last("testdice") == a
    store.set_last("testdice", b)
    assert store.last("testdice") == b
    assert store.storage.get(LAST_PREFIX + "testdice") == b
    assert store.last("other") is None
    with pytest.raises(StoreError):
        store.set_last("other", b)
    store.set_last("testdice", None)
    assert store.last("testdice") is None
    store.storage.set(LAST_PREFIX + "testdice", "testdice-gone00")
    assert store.last("testdice") is None
    store.storage.set(LAST_PREFIX + "testdice", "garbage")
    assert store.last("testdice") is None


def test_last_survives_a_new_store_on_the_same_storage():
    storage = MemoryStorage()
    first = make_store(storage)
    slot = first.create(dice())
    first.set_last("testdice", slot)
    reopened = make_store(storage, tab="tabB")
    assert reopened.last("testdice") == slot


# --------------------------------------------------------------------------- export / import

def test_export(store):
    game = dice(ops=["roll", "pass", "roll", "undo"])
    slot = store.create(game, name="Friday Night: Round 2!")
    filename, text = store.export(slot)
    assert filename == "friday-night-round-2.json"
    back, meta = codec.loads(text)
    assert back == game
    assert meta == {"name": "Friday Night: Round 2!", "created": meta["created"], "updated": meta["updated"]}
    assert "rev" not in json.loads(text)["meta"]
    assert filename_for(MARKUP, "x") == "img-src-x-onerror-alert-1.json"
    assert filename_for("Été", "x") == "ete.json"
    assert filename_for("!!!", "testdice-abc") == "testdice-abc.json"


def test_import_never_overwrites(store):
    game = dice(ops=["roll", "pass"])
    slot = store.create(game, name="Friday")
    _, text = store.export(slot)
    first = store.import_text(text)
    second = store.import_text(text)
    assert len({slot, first, second}) == 3
    names = [store.load(s)[1]["name"] for s in (slot, first, second)]
    assert names == ["Friday", "Friday (imported)", "Friday (imported 2)"]
    assert all(store.load(s)[0] == game for s in (slot, first, second))
    assert store.load(first)[1]["rev"] == 1


def test_import_markup_name_and_no_name(store):
    text = codec.dumps(dice(), {"name": MARKUP})
    assert store.load(store.import_text(text))[1]["name"] == MARKUP
    nameless = store.import_text(codec.dumps(dice()))
    assert store.load(nameless)[1]["name"].startswith("Testdice ")


def test_import_old_schema(store):
    v1 = {"version": 1, "game": {"kind": "testdice", "seed": 3, "settings": {"setup": {"players": ["A", "B"]}},
                                 "log": [{"type": "roll"}]}, "name": "Old one", "saved": 1_600_000_000}
    slot = store.import_text(json.dumps(v1))
    game, meta = store.load(slot)
    assert meta["name"] == "Old one" and meta["created"] == 1_600_000_000_000 and game.position == 1


@pytest.mark.parametrize("text", ["", "garbage", "{", json.dumps({"app": "conflict-table", "schema": 9})])
def test_import_bad_file_writes_nothing(store, text):
    store.create(dice())
    before = dict(store.storage.data)
    with pytest.raises(codec.SaveError):
        store.import_text(text)
    assert store.storage.data == before


def test_import_over_the_real_size_cap_writes_nothing(store):
    """A file one character over the real 5,000,000-character cap is refused with its message."""
    store.create(dice())
    before = dict(store.storage.data)
    text = codec.dumps(dice(ops=["roll"]), {"name": "Big"})
    with pytest.raises(codec.SaveError, match=r"^This save is too large to open \(more than 5,000,000 characters\)$"):
        store.import_text(text + " " * (5_000_001 - len(text)))
    assert store.storage.data == before
    slot = store.import_text(text + " " * (5_000_000 - len(text)))  # at the cap it opens
    assert store.load(slot)[1]["name"] == "Big"


# --------------------------------------------------------------------------- damaged saves

@pytest.mark.parametrize("raw, message", [
    ("{this is not json", "This save is damaged"),
    ('{"app": "conflict-table", "schema": 2, "kind": "testdice"}', "'seed' should be"),
    (None, "this game breaks D3 at step"),  # filled in below: a save whose actions break the rules
    (2, "this game breaks D3 at step"),  # the same, with the bad action on the redo stack (position 2)
])
def test_damaged_entry_is_backed_up(store, raw, message):
    good = store.create(dice(ops=["roll"]), name="Good")
    bad = store.create(dice(), name="Bad")
    store.set_last("testdice", bad)
    if raw is None or isinstance(raw, int):
        data = json.loads(store.storage.get(SLOT_PREFIX + bad))
        data["actions"] = [{"type": "bonus", "amount": 1}, {"type": "pass"}, {"type": "pass"},
                           {"type": "bonus", "amount": 1}]
        data["position"] = 4 if raw is None else raw
        raw = json.dumps(data)
    store.storage.set(SLOT_PREFIX + bad, raw)

    infos = store.list("testdice")
    assert {i.id for i in infos} == {good, bad}
    if "breaks" not in message:  # listing does not replay, so only unreadable saves show as damaged
        damaged = next(i for i in infos if i.id == bad)
        assert damaged.damaged and message in damaged.problem

    with pytest.raises(DamagedSave) as info:
        store.load(bad)
    err = info.value
    assert message in str(err) and "nothing is lost" in str(err)
    assert err.slot_id == bad and err.backup_key.startswith(BACKUP_PREFIX + bad + ":")
    assert store.storage.get(err.backup_key) == raw
    assert store.backups() == [err.backup_key] and store.backups(bad) == [err.backup_key]
    assert [i.id for i in store.list("testdice")] == [good]
    assert store.last("testdice") is None
    assert store.load(good)[1]["name"] == "Good"
    store.discard_backup(err.backup_key)
    assert store.backups() == []
    with pytest.raises(StoreError):
        store.discard_backup(SLOT_PREFIX + good)


def test_newer_save_is_left_in_place(store):
    slot = store.create(dice())
    data = json.loads(store.storage.get(SLOT_PREFIX + slot))
    data["schema"] = 7
    store.storage.set(SLOT_PREFIX + slot, json.dumps(data))
    with pytest.raises(DamagedSave, match=r"newer version of Conflict Table \(schema 7\)") as info:
        store.load(slot)
    assert info.value.backup_key is None and info.value.reason == "newer"
    assert store.storage.get(SLOT_PREFIX + slot) is not None
    assert store.list()[0].problem.startswith("This save is from a newer version")


def test_damaged_entry_without_room_for_backup_stays(store):
    storage = MemoryStorage()
    store = make_store(storage)
    slot = store.create(dice())
    storage.set(SLOT_PREFIX + slot, "{broken")
    storage.quota = storage.used()
    with pytest.raises(DamagedSave, match="left in place") as info:
        store.load(slot)
    assert info.value.backup_key is None and storage.get(SLOT_PREFIX + slot) == "{broken"


def test_slot_holding_other_kind_is_damaged(store):
    slot = store.create(dice())
    store.storage.set("ct:v1:slot:other-abcdef", store.storage.get(SLOT_PREFIX + slot))
    with pytest.raises(DamagedSave, match="different kind"):
        store.load("other-abcdef")


def test_saving_over_a_damaged_entry_keeps_a_copy(store):
    slot = store.create(dice(), name="Mine")
    store.storage.set(SLOT_PREFIX + slot, "{broken")
    assert store.save(slot, dice(ops=["roll"])) == 1
    assert store.load(slot)[0] == dice(ops=["roll"])
    assert [store.storage.get(k) for k in store.backups(slot)] == ["{broken"]


def test_rename_damaged(store):
    slot = store.create(dice())
    store.storage.set(SLOT_PREFIX + slot, "[]")
    with pytest.raises(DamagedSave):
        store.rename(slot, "New")
    assert store.storage.get(SLOT_PREFIX + slot) == "[]"


# --------------------------------------------------------------------------- storage full

def test_quota_keeps_previous_save():
    storage = MemoryStorage()
    store = make_store(storage)
    small = dice()
    slot = store.create(small, name="Small")
    before = storage.get(SLOT_PREFIX + slot)
    storage.quota = storage.used() + 20
    with pytest.raises(StorageFull) as info:
        store.save(slot, dice(ops=["roll", "pass"] * 10))
    assert "storage is full" in str(info.value) and "previous save is unchanged" in str(info.value)
    assert isinstance(info.value, ValueError)
    assert storage.get(SLOT_PREFIX + slot) == before
    game, meta = store.load(slot)
    assert game == small and meta["rev"] == 1
    with pytest.raises(StorageFull):
        store.create(dice(ops=["roll"] * 5))
    assert [i.id for i in store.list()] == [slot]
    storage.quota = None
    assert store.save(slot, dice(ops=["roll"])) == 2


def test_memory_storage_quota():
    storage = MemoryStorage(quota=10)
    storage.set("a", "123456789")
    with pytest.raises(StorageFull):
        storage.set("b", "1")
    storage.set("a", "12345678")  # replacing counts the old value as freed
    assert storage.used() == 9 and storage.keys() == ["a"]
    storage.remove("a")
    storage.remove("a")
    assert storage.get("a") is None


def test_unverified_write_is_reported():
    class Forgetful(MemoryStorage):
        def set(self, key, value):
            super().set(key, value[:-1])

    store = make_store(Forgetful())
    with pytest.raises(StoreError, match="did not keep"):
        store.create(dice())


# --------------------------------------------------------------------------- two tabs

def test_two_tabs_conflict():
    storage = MemoryStorage()
    clock = Clock()
    tab_a = make_store(storage, tab="tabA", seed=1, clock=clock)
    tab_b = make_store(storage, tab="tabB", seed=2, clock=clock)
    slot = tab_a.create(dice(), name="Shared")
    tab_b.load(slot)
    assert tab_a.save(slot, dice(ops=["roll"])) == 2
    with pytest.raises(ConflictingEdit) as info:
        tab_b.save(slot, dice(ops=["pass"]))
    assert "changed in another tab" in str(info.value)
    assert (info.value.stored_rev, info.value.stored_tab) == (2, "tabA")
    assert tab_b.load(slot)[0] == dice(ops=["roll"])  # what tab A saved is intact
    assert tab_b.save(slot, dice(ops=["roll", "pass"])) == 3  # after reloading, fine
    with pytest.raises(ConflictingEdit):
        tab_a.save(slot, dice(ops=["roll", "roll"]))
    with pytest.raises(ConflictingEdit):
        tab_a.save(slot, dice(ops=["roll", "roll"]), expected_rev=2)
    assert tab_a.save(slot, dice(ops=["roll", "roll"]), expected_rev=3) == 4
    assert tab_b.save(slot, dice(ops=["pass"]), force=True) == 5
    assert tab_a.load(slot)[1]["tab"] == "tabB"


def test_rename_in_other_tab_is_not_a_conflict():
    storage = MemoryStorage()
    tab_a, tab_b = make_store(storage, tab="tabA"), make_store(storage, tab="tabB", seed=2)
    slot = tab_a.create(dice(), name="Old")
    tab_b.load(slot)
    tab_a.rename(slot, "New")
    assert tab_b.save(slot, dice(ops=["roll"])) == 2
    assert tab_a.load(slot)[1]["name"] == "New"


def test_changed_elsewhere():
    storage = MemoryStorage()
    tab_a, tab_b = make_store(storage, tab="tabA"), make_store(storage, tab="tabB", seed=2)
    slot = tab_a.create(dice(), name="Shared")
    other = tab_a.create(dice(), name="Other")
    key = SLOT_PREFIX + slot
    tab_b.load(slot)
    assert tab_b.changed_elsewhere(key, storage.get(key)) is None  # same rev as loaded
    tab_a.save(slot, dice(ops=["roll"]))
    assert tab_b.changed_elsewhere(key, storage.get(key)) == slot
    assert tab_a.changed_elsewhere(key, storage.get(key)) is None  # its own write
    tab_a.rename(other, "Renamed")
    assert tab_b.changed_elsewhere(SLOT_PREFIX + other, storage.get(SLOT_PREFIX + other)) == other  # not seen
    assert tab_a.changed_elsewhere(SLOT_PREFIX + other, storage.get(SLOT_PREFIX + other)) is None
    assert tab_b.changed_elsewhere(key, None) == slot  # deleted
    assert tab_b.changed_elsewhere(key, "{garbage") == slot
    for bad_key in (None, "", "unrelated", LAST_PREFIX + "testdice", TRASH_KEY, SLOT_PREFIX + "bad id"):
        assert tab_b.changed_elsewhere(bad_key, "x") is None
    assert tab_b.changed_elsewhere(12, object()) is None


# --------------------------------------------------------------------------- browser adapter

class FakeJsStorage:
    """Enough of the JavaScript Storage API, with a quota like a browser's."""

    def __init__(self, quota=10_000):
        self.items: dict[str, str] = {}
        self.quota = quota

    @property
    def length(self):
        return len(self.items)

    def key(self, index):
        return list(self.items)[index] if index < len(self.items) else None

    def getItem(self, key):  # noqa: N802 (JavaScript name)
        return self.items.get(key)

    def setItem(self, key, value):  # noqa: N802
        if sum(len(k) + len(v) for k, v in self.items.items() if k != key) + len(key) + len(value) > self.quota:
            error = Exception("Failed to execute 'setItem' on 'Storage': exceeded the quota.")
            error.name = "QuotaExceededError"
            raise error
        self.items[key] = value

    def removeItem(self, key):  # noqa: N802
        self.items.pop(key, None)


def test_web_storage_adapter():
    js = FakeJsStorage()
    store = make_store(WebStorage(js))
    slot = store.create(dice(), name="Web")
    assert store.load(slot)[1]["name"] == "Web"
    assert SLOT_PREFIX + slot in js.items
    js.quota = sum(len(k) + len(v) for k, v in js.items.items())
    with pytest.raises(StorageFull):
        store.save(slot, dice(ops=["roll"] * 10))
    assert store.load(slot)[0] == dice()


def test_every_error_is_a_value_error():
    for cls in (StoreError, StorageFull, DamagedSave, ConflictingEdit, NoSuchSave, codec.SaveError):
        assert issubclass(cls, ValueError)


# --------------------------------------------------------------------------- where a game stands (issue 22)

def test_every_save_writes_where_the_game_stands_and_the_list_reads_it_without_replaying(store, monkeypatch):
    game = dice(ops=["roll", "roll", "pass"])
    slot = store.create(game, name="Jibril 3rd Corps vs Zone Army")
    fakesys = game_mod.system("testdice")
    expected = fakesys.standing(game_mod.replay(game))
    assert json.loads(store.storage.get(SLOT_PREFIX + slot))["meta"]["standing"] == expected
    # A later move is a later standing (autosave writes it again).
    later = game_mod.apply(game, {"type": "roll"})
    store.save(slot, later)
    assert store.list()[0].standing == fakesys.standing(game_mod.replay(later)) != expected
    # Three saves of the same name are told apart by where they stand.
    for ops in (["roll"], ["roll", "pass", "roll", "roll"]):
        store.create(dice(ops=ops), name="Jibril 3rd Corps vs Zone Army")
    standings = [info.where for info in store.list()]
    assert len(set(standings)) == 3
    # Listing replays nothing: the system's replay is never called.
    monkeypatch.setattr(game_mod, "replay", lambda *a, **k: pytest.fail("listing replayed a game"))
    monkeypatch.setattr(fakesys, "standing", lambda state: pytest.fail("listing asked the system"))
    assert len(store.list()) == 3


def test_the_session_state_is_used_so_a_save_replays_nothing_more(store, monkeypatch):
    game = dice(ops=["roll", "pass"])
    state = game_mod.replay(game)
    monkeypatch.setattr(game_mod, "replay", lambda *a, **k: pytest.fail("saved with a replay"))
    slot = store.create(game, state=state)
    store.save(slot, game, state=state)
    assert store.list()[0].standing == game_mod.system("testdice").standing(state)


def test_without_a_standing_hook_the_list_says_the_point_in_the_history(store, monkeypatch):
    monkeypatch.delattr(game_mod.system("testdice"), "standing")
    slot = store.create(dice(ops=["roll", "pass", "roll", "undo"]))
    info = store.list()[0]
    assert info.standing is None and "standing" not in json.loads(store.storage.get(SLOT_PREFIX + slot))["meta"]
    assert info.where == "2 steps played · 1 undone"
    store.create(dice())
    assert store.list()[0].where == "No moves yet"


def test_a_failing_or_odd_standing_hook_never_stops_a_save(store, monkeypatch):
    fakesys = game_mod.system("testdice")
    monkeypatch.setattr(fakesys, "standing", lambda state: 1 / 0)
    slot = store.create(dice(ops=["roll"]))
    assert store.list()[0].standing is None and store.list()[0].where == "1 step played"
    monkeypatch.setattr(fakesys, "standing", lambda state: "  Round 4\n·  6 of 11 acted " + "x" * 500)
    store.save(slot, dice(ops=["roll", "roll"]))
    text = store.list()[0].standing
    assert text.startswith("Round 4 · 6 of 11 acted") and len(text) <= 120 and "\n" not in text


def test_copies_and_imports_keep_or_compute_the_standing(store):
    game = dice(ops=["roll", "pass", "roll"])
    slot = store.create(game, name="Friday")
    copy = store.duplicate(slot)
    _, text = store.export(slot)
    assert "standing" not in json.loads(text)["meta"]  # a file carries no app bookkeeping
    imported = store.import_text(text)
    standings = {info.id: info.standing for info in store.list()}
    assert standings[slot] == standings[copy] == standings[imported] is not None


def test_hand_edited_standing_is_read_as_text_or_not_at_all(store):
    slot = store.create(dice(ops=["roll"]))
    data = json.loads(store.storage.get(SLOT_PREFIX + slot))
    for odd in (5, None, ["Week 3"], {"x": 1}, "", "   "):
        data["meta"]["standing"] = odd
        store.storage.set(SLOT_PREFIX + slot, json.dumps(data))
        info = store.list()[0]
        assert info.standing is None and info.where == "1 step played"


# --------------------------------------------------------------------------- spectator copies (issue 21)

def test_a_spectator_copy_is_listed_as_one_whatever_its_name_says(store):
    from engine import campaign

    game = game_mod.new_game("campaign", {"players": ["Anna", "Ben"]}, None, 5)
    copy = campaign.public_game(game)
    assert game_mod.is_spectator(copy)
    spectator = store.create(copy, name="Anna vs Ben")
    full = store.create(game, name="Anna vs Ben (spectator copy)")
    infos = {info.id: info for info in store.list()}
    assert infos[spectator].spectator and not infos[full].spectator
    # A spectator copy stays one through a copy, an export and an import.
    dup = store.duplicate(spectator)
    imported = store.import_text(store.export(spectator)[1])
    assert all(info.spectator for info in store.list() if info.id in (dup, imported))


# --------------------------------------------------------------------------- kept copies of damaged saves (issue 20)

def damaged(store, text="{broken", name=None):
    """A save that cannot be opened, opened: it is moved to a backup key; returns that key."""
    slot = store.create(dice(), name=name)
    store.storage.set(SLOT_PREFIX + slot, text)
    with pytest.raises(DamagedSave) as info:
        store.load(slot)
    return slot, info.value.backup_key


def test_kept_copies_are_listed_per_tool_newest_first_with_what_can_be_read(store):
    first_slot, first = damaged(store)
    good = json.loads(codec.dumps(dice(ops=["roll"]), {"name": "Named game"}))
    good["actions"] = [{"type": "roll", "junk": 1}]  # well formed JSON, refused by the rules
    second_slot, second = damaged(store, json.dumps(good))
    store.storage.set(BACKUP_PREFIX + "odd-key", "x")
    listed = store.backup_list("testdice")
    assert [b.key for b in listed] == [second, first]
    assert listed[0].name == "Named game" and listed[1].name is None
    assert listed[0].slot_id == second_slot and listed[0].kind == "testdice"
    assert listed[0].size == len(store.storage.get(second)) and listed[0].kept > listed[1].kept
    assert [b.key for b in store.backup_list("conflict")] == []
    assert {b.key for b in store.backup_list()} == {first, second, BACKUP_PREFIX + "odd-key"}


def test_a_kept_copy_exports_as_it_is_and_can_be_deleted_and_put_back(store):
    _, key = damaged(store, '{"app": "conflict-table", "meta": {"name": "Fri <b>"}, "oops"')
    filename, text = store.export_backup(key)
    assert text == store.storage.get(key) and filename.endswith("-damaged-copy-" + key.rsplit(":", 1)[1] + ".json")
    assert "<" not in filename and "/" not in filename
    store.discard_backup(key)
    assert store.backup_list() == []
    with pytest.raises(StoreError):
        store.export_backup(key)
    store.put_backup(key, text)
    assert store.backup_text(key) == text
    for bad in (SLOT_PREFIX + "testdice-aaaaaa", None, 5):
        with pytest.raises(StoreError):
            store.backup_text(bad)


def test_a_kept_copy_that_opens_again_is_restored_as_a_new_save(store):
    game = dice(ops=["roll", "pass"])
    _, key = damaged(store)
    with pytest.raises(codec.SaveError):
        store.restore_backup(key)  # still broken: nothing is added
    assert store.list() == []
    store.storage.set(key, codec.dumps(game, {"name": "Back again"}))  # e.g. a save a newer app fixed
    slot = store.restore_backup(key)
    loaded, meta = store.load(slot)
    assert loaded == game and meta["name"] == "Back again" and store.backup_text(key)


def test_a_full_storage_says_so_when_a_kept_copy_is_put_back():
    store = make_store(MemoryStorage())
    _, key = damaged(store)
    text = store.backup_text(key)
    store.discard_backup(key)
    store.storage.quota = store.storage.used() + len(key) + len(text) - 1
    with pytest.raises(StorageFull):
        store.put_backup(key, text)


# --------------------------------------------------------------------------- hand-edited storage (issue 20)

def _hostile_values():
    from hypothesis import strategies as st

    good = codec.dumps(dice(ops=["roll", "pass"]), {"name": "G"})
    json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                               lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c, max_size=3),
                               max_leaves=8)

    def edited(field, value):
        d = json.loads(good)
        if field.startswith("meta."):
            d["meta"][field[5:]] = value
        else:
            d[field] = value
        return json.dumps(d)

    fields = st.sampled_from(["meta.name", "meta.created", "meta.updated", "meta.rev", "meta.standing",
                              "meta", "kind", "seed", "actions", "position", "setup", "rules", "schema"])
    return st.one_of(st.text(max_size=30), json_values.map(json.dumps), st.just(good),
                     st.builds(edited, fields, json_values),
                     st.just("[" * 5000), st.just(good[: len(good) // 2]))


def test_listings_and_loads_of_hand_edited_storage_raise_only_store_errors():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    keys = st.sampled_from([SLOT_PREFIX + "testdice-aaaaaa", SLOT_PREFIX + "testdice-bbbbbb",
                            SLOT_PREFIX + "conflict-cccccc", SLOT_PREFIX + "nokind", LAST_PREFIX + "testdice",
                            TRASH_KEY, BACKUP_PREFIX + "testdice-aaaaaa:17", BACKUP_PREFIX + "x:y:z"])

    @settings(max_examples=120, deadline=None, derandomize=True)
    @given(st.dictionaries(keys, _hostile_values(), max_size=6))
    def run(data):
        store = make_store(MemoryStorage(data=data))
        for kind in (None, "testdice", "conflict"):
            for info in store.list(kind):
                assert isinstance(info.where, str)
                assert info.name is None or isinstance(info.name, str)
                assert info.standing is None or isinstance(info.standing, str)
            for backup in store.backup_list(kind):
                assert backup.name is None or isinstance(backup.name, str)
        store.last("testdice")
        for slot in ("testdice-aaaaaa", "testdice-bbbbbb", "conflict-cccccc"):
            try:
                store.load(slot)
            except StoreError:
                pass
        for key in store.backups():
            store.export_backup(key)
            try:
                store.restore_backup(key)
            except (StoreError, codec.SaveError):
                pass
        try:
            store.undo_delete("token")
        except StoreError:
            pass

    run()
