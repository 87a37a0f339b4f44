"""The session of a table (web/session.py) with a fake app, on CPython and on Pyodide.

What it checks belongs to every table: undo past a reveal asks first (AI-7's hook,
played here by the stand-in dice system's ``undo_warning``), links and saves of
another table's game open there, a refused link names its clause and saves nothing,
the "storage full" and "opened as a new save" messages never contradict each other,
spectator copies are saved as such, kept copies of damaged saves can be seen,
exported, restored and deleted, and the saves list says where each game stands.
"""

from __future__ import annotations

import base64
import json
import zlib
from dataclasses import replace

import pytest

from engine import ascension, campaign, codec, conflict
from engine import game as games
from web.parts.curtain import Tap
from web.store import BACKUP_PREFIX, SLOT_PREFIX, DamagedSave, MemoryStorage

from .fakebrowser import FakeApp, _Date, browser


@pytest.fixture(autouse=True, scope="module")
def _dice_system():
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(games.SYSTEM_MODULES, "testdice", "tests.engine.fakesys")
        yield


@pytest.fixture
def web():
    """The fake browser's window, with web.session imported against it."""
    with browser() as window:
        import web.session

        window.session_module = web.session
        yield window


def dice_game(*ops, seed=7):
    game = games.new_game("testdice", {"players": ["Ann", "Bo"]}, None, seed)
    for op in ops:
        game = games.apply(game, {"type": "bonus", "amount": 2} if op == "bonus" else {"type": op})
    return game


def session_for(web, kind="testdice", title="Dice", app=None, namer=None):
    app = app or FakeApp()
    return web.session_module.Session(app, kind, title, namer=namer or (lambda game: "Ann vs Bo")), app


def texts_of(node) -> str:
    return node.text() if node is not None else ""


def find(node, predicate):
    """Every element of a vdom tree for which ``predicate(node)`` holds."""
    found = []
    if node is None or not hasattr(node, "children"):
        return found
    if predicate(node):
        found.append(node)
    for child in node.children:
        found += find(child, predicate)
    return found


def buttons(node, action):
    return find(node, lambda n: getattr(n, "tag", None) == "button" and n.attrs.get("data-action") == action)


# --------------------------------------------------------------------------- undo past a reveal (AI-7)

def test_undo_past_a_reveal_asks_first_and_no_keeps_the_table(web):
    session, app = session_for(web)
    session.start(dice_game("roll", "bonus", "pass"))
    before = session.game
    session.undo()  # back past "pass" only: nothing announced there
    assert session.game.position == 2 and session.question is None
    session.undo()  # back past the bonus: asked first
    assert session.game.position == 2
    q = session.question
    assert q["text"] == ("A bonus was announced to the table. Undoing it lets its player choose again. "
                         "Undo anyway?")
    assert app.focus[-1] == ("undo-no",)  # the safe answer has the focus
    banner = session.banner()
    assert banner.attrs["role"] == "alertdialog" and q["text"] in texts_of(banner)
    assert [b.text() for b in find(banner, lambda n: getattr(n, "tag", None) == "button")] == [
        "Yes, go back", "No, keep the table as it is"]
    session.answer(False)
    assert session.question is None and session.game.position == 2
    assert app.focus[-1] == ("undo", "undo")  # back on Undo, which asked
    assert session.game.actions == before.actions


def test_yes_goes_back_but_not_for_a_double_taps_second_tap(web):
    session, app = session_for(web)
    session.start(dice_game("roll", "bonus"))
    session.undo()
    assert session.question is not None
    # The Yes button is aria-disabled while it settles, and a redraw is asked for after it.
    assert buttons(session.banner(), "session:undo-yes")[0].attrs.get("aria-disabled") == "true"
    assert app.laters and app.laters[-1][0] > 0.45
    # A second tap of a double tap (Undo tapped twice) lands on Undo again: the question stays.
    session.handle("session:undo", None)
    assert session.question is not None and session.game.position == 2
    # A tap on Yes right after the question appeared is refused, and says so.
    app.tap = Tap(0, (10, 10), "yes", "Yes, go back")
    session.handle("session:undo-yes", None)
    assert session.question is not None and app.tap.refused and "Yes, go back" in app.tap.refused
    _Date.clock[0] += 1000  # the table reads the question, then answers
    app.tap = Tap(0, (10, 10), "yes", "Yes, go back")
    assert buttons(session.banner(), "session:undo-yes")[0].attrs.get("aria-disabled") is None
    session.handle("session:undo-yes", None)
    assert session.question is None and session.game.position == 1 and app.tap.refused is None
    assert app.store.load(session.slot)[0].position == 1  # and it is saved


def test_escape_says_no_and_history_jumps_ask_too(web):
    session, app = session_for(web)
    session.start(dice_game("bonus", "roll", "pass"))
    session.handle("session:goto", "2")  # back past "pass" only
    assert session.question is None and session.game.position == 2
    session.handle("session:goto", "0")  # past the bonus
    assert session.question["position"] == 0 and session.question["asked_by"] == "history-0"
    assert session.escape() is True
    assert session.question is None and session.game.position == 2
    assert app.focus[-1] == ("history-0", "undo")
    session.handle("session:goto", "3")  # forward (redo) never asks
    assert session.question is None and session.game.position == 3


def test_a_hooks_odd_answer_still_asks_and_a_system_without_a_hook_never_does(web, monkeypatch):
    fakesys = games.system("testdice")
    session, app = session_for(web)
    session.start(dice_game("bonus"))
    monkeypatch.setattr(fakesys, "undo_warning", lambda game, position: "Both bids were seen.")
    session.undo()
    assert session.question["text"] == "Both bids were seen. Undo anyway?"
    session.answer(False)
    monkeypatch.setattr(fakesys, "undo_warning", lambda game, position: 1 / 0)
    session.undo()
    assert session.question["text"] == web.session_module.GENERIC_UNDO_WARNING
    session.answer(False)
    monkeypatch.delattr(fakesys, "undo_warning")
    session.undo()
    assert session.question is None and session.game.position == 0


def test_any_other_change_of_the_game_drops_the_question(web):
    session, app = session_for(web)
    session.start(dice_game("bonus"))
    session.undo()
    assert session.question is not None
    session.redo()  # nothing to redo: still asked
    assert session.act({"type": "roll"})
    assert session.question is None


def test_a_spectator_copy_is_never_asked(web):
    session, app = session_for(web, "campaign", "Campaign")
    game = games.new_game("campaign", {"players": ["Anna", "Ben"]}, None, 3)
    game = games.apply(game, {"type": "battle", "winner": 0, "troops": 9})
    session.start(campaign.public_game(game))
    calls = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(campaign, "undo_warning", lambda g, p: calls.append(p) or "Seen. Undo anyway?", raising=False)
        session.undo()
    assert calls == [] and session.question is None and session.game.position == 0


# --------------------------------------------------------------------------- links

def crafted(game, impossible):
    """A link to ``game`` with one more, impossible action at the end."""
    return codec.encode_share(replace(game, actions=game.actions + (impossible,),
                                      position=len(game.actions) + 1, _tip=None))


def impossible_links():
    from tests.engine.test_consim import two_sides

    conflict_game = games.new_game("conflict", conflict.purple_dragon_setup(), None, 5)
    for side in (0, 1):
        conflict_game = games.apply(conflict_game, {"type": "discard", "side": side, "player": 0, "cards": []})
    return [
        ("conflict", crafted(conflict_game, {"type": "play", "player": 0, "card": "2C"}), "OIC-8 at step 3"),
        ("campaign", crafted(games.new_game("campaign", {"players": ["Anna", "Ben"]}, None, 5),
                             {"type": "take", "stake": True, "pool": "KH"}), "CMP-4 at step 1"),
        ("initiative", crafted(games.new_game("initiative", two_sides(), None, 5), {"type": "next"}),
         "CS-5 at step 1"),
        ("battle", crafted(games.new_game("battle", ascension.example_setup(), None, 5), {"type": "roll"}),
         "AI-7 at step 1"),
    ]


@pytest.mark.parametrize("kind,payload,clause", impossible_links(), ids=[k for k, _, _ in impossible_links()])
def test_an_impossible_link_is_refused_with_its_clause_and_saves_nothing(web, kind, payload, clause):
    app = FakeApp()
    existing = app.store.create(dice_game("roll"), name="Mine")
    before = dict(app.store.storage.data)
    session, _ = session_for(web, kind, kind.title(), app=app)
    session.open_link(payload)
    [text] = app.texts("error")
    assert text.startswith(f"This link could not be opened: this game breaks {clause}: ")
    assert text.endswith("Nothing was saved; your games are as they were.")
    assert "cannot be opened: this" not in text  # said once, not twice
    assert app.store.storage.data == before and session.game is None and existing


def unknown_field_link(kind, setup, where):
    game = games.new_game(kind, setup, None, 5)
    data = codec.game_to_dict(game)
    if where == "setup":
        data["setup"]["notes"] = "x" * 900_000
    else:
        data["actions"] = [{"type": "roll", "notes": "x" * 900_000}]
    short = {"k": data["kind"], "s": data["seed"], "r": data["rules"], "u": data["setup"], "a": data["actions"]}
    raw = json.dumps(short, separators=(",", ":")).encode()
    return "3" + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


@pytest.mark.parametrize("kind,setup,where", [
    ("campaign", {"players": ["Anna", "Ben"]}, "setup"),
    ("campaign", {"players": ["Anna", "Ben"]}, "action"),
    ("conflict", conflict.purple_dragon_setup(), "setup"),
    ("battle", ascension.example_setup(), "setup"),
    ("battle", ascension.example_setup(), "action"),
])
def test_a_link_with_900000_characters_in_an_unknown_field_is_refused_five_times_over(web, kind, setup, where):
    app = FakeApp(MemoryStorage(quota=5_000_000))
    session, _ = session_for(web, kind, kind.title(), app=app)
    payload = unknown_field_link(kind, setup, where)
    assert len(payload) < codec.MAX_SHARE_CHARS
    for _ in range(5):
        session.open_link(payload)
    assert app.store.storage.data == {} and session.game is None
    assert len(app.texts("error")) == 5 and not [t for t in app.texts() if "as a new save" in t]
    assert all("could not be opened" in t for t in app.texts("error"))


def test_a_full_storage_is_one_true_message_never_also_opened_as_a_new_save(web):
    app = FakeApp(MemoryStorage(quota=60))
    session, _ = session_for(web, "campaign", "Campaign", app=app)
    session.open_link(codec.encode_share(games.new_game("campaign", {"players": ["Anna", "Ben"]}, None, 5)))
    [text] = app.texts()
    assert text.startswith("Opened the shared game here, but browser storage is full, so it is not saved.")
    assert "as a new save" not in text and session.game is not None and session.slot is None
    assert "not saved" in texts_of(session.toolbar())


def test_a_link_or_a_save_of_another_table_opens_there(web):
    app = FakeApp()
    session, _ = session_for(web, "campaign", "Campaign", app=app)
    battle = games.new_game("battle", ascension.example_setup(), None, 5)
    payload = codec.encode_share(battle)
    session.open_link(payload)
    assert web.location.replaced[-1] == f"#/battle?g={payload}"
    slot = app.store.create(battle, name="Jibril 3rd Corps vs Zone Army")
    assert session.open(slot) is False
    assert web.location.replaced[-1] == f"#/battle?slot={slot}"
    assert session.game is None and app.texts("error") == []
    assert session.open("nosuchkind-abcdef") is False and "does not have" in app.texts("error")[-1]


def test_a_spectator_link_is_saved_as_a_spectator_copy_and_a_full_link_later_is_a_new_save(web):
    app = FakeApp()
    session, _ = session_for(web, "campaign", "Campaign", app=app, namer=lambda g: "Anna vs Ben")
    game = games.new_game("campaign", {"players": ["Anna", "Ben"]}, None, 5)
    game = games.apply(game, {"type": "battle", "winner": 0, "troops": 9})
    session.open_link(codec.encode_share(campaign.public_game(game)))
    assert app.texts()[-1] == ("Opened the spectator's copy as a new save, “Anna vs Ben (spectator copy)”. "
                               "Your other games are untouched.")
    copy_slot = session.slot
    session.open_link(codec.encode_share(game))
    infos = {info.id: info for info in app.store.list("campaign")}
    assert len(infos) == 2 and session.slot != copy_slot
    assert infos[copy_slot].spectator and not infos[session.slot].spectator
    assert infos[session.slot].name == "Anna vs Ben (shared)"
    assert games.is_spectator(app.store.load(copy_slot)[0])  # the copy did not turn into the game
    # The Saves drawer labels it; its Share drawer offers no "full game".
    session.drawer = "saves"
    rows = find(session.drawer_view(), lambda n: "save-row" in n.attrs.get("class", "") if hasattr(n, "attrs") else False)
    labelled = [r for r in rows if "Spectator copy" in r.text()]
    assert len(labelled) == 1 and "(spectator copy)" in labelled[0].text()
    session.open(copy_slot, quiet=True)
    session.drawer = "share"
    share = session.drawer_view()
    assert "Full game" not in share.text() and "spectator" in share.text().lower()


# --------------------------------------------------------------------------- saves: where a game stands, kept copies

def test_the_saves_drawer_tells_three_saves_of_one_name_apart(web):
    session, app = session_for(web)
    for ops in (("roll",), ("roll", "pass", "roll"), ()):
        session.start(dice_game(*ops), "Jibril 3rd Corps vs Zone Army")
        session.act({"type": "roll"})
    session.drawer = "saves"
    wheres = [n.text() for n in find(session.drawer_view(),
                                      lambda n: getattr(n, "attrs", {}).get("data-testid") == "save-where")]
    assert len(wheres) == 3 and len(set(wheres)) == 3
    assert all("to roll" in w or "won" in w for w in wheres)  # the system's own words (fakesys.standing)


def test_kept_copies_are_shown_exported_restored_and_deleted_from_the_saves_drawer(web):
    session, app = session_for(web)
    slot = app.store.create(dice_game("roll"), name="Broken game")
    raw = app.store.storage.get(SLOT_PREFIX + slot)
    app.store.storage.set(SLOT_PREFIX + slot, raw[:-30])
    assert session.open(slot) is False
    [message] = app.texts("error")
    assert "A copy was kept" in message and "Kept copies of damaged saves" in message
    session.drawer = "saves"
    [row] = find(session.drawer_view(), lambda n: getattr(n, "attrs", {}).get("data-testid") == "backup")
    assert "A save whose name cannot be read" in row.text() or "Broken game" in row.text()
    [key] = app.store.backups()
    session.handle("session:backup-show", key)
    [area] = find(session.drawer_view(), lambda n: getattr(n, "tag", None) == "textarea")
    assert area.attrs["value"] == raw[:-30]
    session.handle("session:backup-export", key)
    assert web.downloads[-1][1] == raw[:-30] and web.downloads[-1][0].endswith(".json")
    session.handle("session:backup-restore", key)
    assert app.texts("error")[-1].startswith("This copy still cannot be opened: ")
    session.handle("session:backup-delete", key)
    assert app.store.backups() == []
    undo = app.toasts[-1]
    assert undo["text"] == "Deleted the kept copy." and undo["action_label"] == "Undo"
    undo["action"]()
    assert app.store.backups() == [key] and app.store.storage.get(key) == raw[:-30]
    # A copy that opens now (fixed by hand, or readable by a newer app) comes back as a new save.
    app.store.storage.set(key, raw)
    session.handle("session:backup-restore", key)
    assert session.game == dice_game("roll") and session.slot != slot
    assert app.texts()[-1] == f"Opened the kept copy “{session.name}” as a new save."


def test_an_import_of_another_tables_game_opens_on_that_table(web):
    session, app = session_for(web)
    text = codec.dumps(games.new_game("campaign", {"players": ["Anna", "Ben"]}, None, 5), {"name": "Sunday"})
    session.import_text(text)
    assert app.texts()[-1] == ("Imported “Sunday” as a new save: it is a Campaign game, opened on the "
                               "Campaign table.")
    assert web.location.replaced[-1].startswith("#/campaign?slot=campaign-")
    assert web.location.replaced[-1].endswith("&quiet=1")


def test_the_share_drawer_gives_the_full_screen_code_the_focus_and_takes_it_back(web):
    session, app = session_for(web)
    session.start(dice_game("roll"))
    session.handle("session:drawer", "share")
    session.handle("session:qr-full", "public")
    assert app.focus[-1] == ("qr-dialog",)
    assert session.escape() is True and app.focus[-1] == ("qr-full-public", "drawer")
    session.handle("session:qr-full", "full")
    session.handle("session:qr-close", None)
    assert app.focus[-1] == ("qr-full-full", "drawer") and session.drawer == "share"



def test_the_spectator_link_says_safe_only_with_a_seed_no_one_can_search(web):
    """Issue 21: a typed (short) seed can be searched from the cards shown, so the share
    drawer does not call the spectator link safe for such a game; a 128-bit seed is."""
    for seed, safe in ((7, False), (games.new_seed(), True)):
        session, _ = session_for(web)
        session.start(dice_game("roll", seed=seed))
        session.handle("session:drawer", "share")
        text = texts_of(session._share_view())
        assert ("Safe to send to anyone." in text) is safe, seed
        assert ("This game's seed is short" in text) is not safe, seed

# --------------------------------------------------------------------------- the views' base: load_json

@pytest.mark.parametrize("raw,expected", [
    (None, None), ("", None), ("{", None), ("[" * 100_000 + "]" * 100_000, None), ("5", 5),
    ('{"setup": 3}', {"setup": 3}), ("NaN", None) if False else ("null", None),
])
def test_load_json_returns_parsed_json_or_none_and_never_raises(web, raw, expected):
    from web.parts.tool import ToolView

    app = FakeApp()
    if raw is not None:
        app.store.storage.set("ct:v1:draft:x", raw)
    view = ToolView()
    view.app = app
    assert view.load_json("ct:v1:draft:x") == expected


def test_load_json_survives_a_storage_that_refuses_to_read(web):
    from web.parts.tool import ToolView

    class Refusing(MemoryStorage):
        def get(self, key):
            raise RuntimeError("SecurityError")

    view = ToolView()
    view.app = FakeApp(Refusing())
    assert view.load_json("ct:v1:draft:x") is None


def test_damaged_saves_in_storage_never_stop_the_saves_drawer(web):
    session, app = session_for(web)
    session.start(dice_game("roll"))
    storage = app.store.storage
    storage.set(SLOT_PREFIX + "testdice-zzzzzz", '{"app": "conflict-table", "schema": 3, "meta": {"name": 5}}')
    storage.set(SLOT_PREFIX + "testdice-yyyyyy", "[" * 10_000)
    storage.set(BACKUP_PREFIX + "testdice-yyyyyy:abc", "")
    storage.set(BACKUP_PREFIX + "garbage", "{}")
    session.drawer = "saves"
    text = session.drawer_view().text()
    assert text.count("Damaged save") == 2 and "Kept copies of damaged saves" in text
    with pytest.raises(DamagedSave):
        app.store.load("testdice-zzzzzz")


# --------------------------------------------------------------------------- the app's moves (issue 35)


def _forged_battle():
    """A battle against the Hard app's general whose last app bid a sender changed."""
    from dataclasses import replace

    from tests.engine.test_app_moves import app_moves, battle_against_the_app

    game = battle_against_the_app((None, "hard"))
    index = app_moves(game)[-1]
    bid = game.actions[index]
    other = "attack" if bid["maneuver"] != "attack" else "defend"
    actions = list(game.actions)
    actions[index] = {"type": "bid", "side": 1, "maneuver": other, "why": bid["why"]}
    return game, replace(game, actions=tuple(actions), _tip=None)


def test_a_link_whose_app_bid_was_changed_is_refused_and_saves_nothing(web):
    genuine, forged = _forged_battle()
    app = FakeApp()
    app.store.create(dice_game("roll"), name="Mine")
    before = dict(app.store.storage.data)
    session, _ = session_for(web, "battle", "Battle", app=app)
    session.open_link(codec.encode_share(forged))
    [text] = app.texts("error")
    assert text.startswith("This link could not be opened: this link's app moves were not made by the app: "
                           "HR-AI-14 at step ")
    assert text.endswith("Nothing was saved; your games are as they were.")
    assert app.store.storage.data == before and session.game is None
    # The genuine link opens, identically, as a new save.
    session.open_link(codec.encode_share(genuine))
    assert session.game == genuine


def test_an_imported_file_whose_app_bid_was_changed_is_refused_and_saves_nothing(web):
    genuine, forged = _forged_battle()
    session, app = session_for(web, "battle", "Battle")
    before = dict(app.store.storage.data)
    session.import_text(codec.dumps(forged, {"name": "Forged"}))
    [text] = app.texts("error")
    assert "That file could not be imported: this save's app moves were not made by the app: HR-AI-14" in text
    assert app.store.storage.data == before
    session.import_text(codec.dumps(genuine, {"name": "Genuine"}))
    slot = next(info.id for info in app.store.list("battle"))
    assert app.store.load(slot)[0] == genuine


def test_a_game_as_long_as_its_link_can_carry_says_so_when_the_app_would_move(web, monkeypatch):
    """The app's move past MAX_APP_MOVE_WORK is refused in words (a toast), never a failed tap."""
    from engine import ascension as ai
    from tests.engine.test_app_moves import battle_against_the_app

    game = battle_against_the_app(("normal", None), weeks=1)
    monkeypatch.setattr(games, "MAX_APP_MOVE_WORK", games.app_move_work(game))
    session, app = session_for(web, "battle", "Battle")
    session.start(game, "Long")
    state = games.replay(game)
    assert not session.act(ai.app_bid(state, 0, "normal", game.seed))
    [text] = app.texts("error")
    assert "as many of the app's moves as its link can carry" in text and session.game == game


def test_the_same_spectator_link_opened_twice_opens_the_copy_already_here(web):
    """Issue 34, 12: one spectator's copy per link, not two identical saves."""
    app = FakeApp()
    session, _ = session_for(web, "campaign", "Campaign", app=app, namer=lambda g: "Anna vs Ben")
    game = games.new_game("campaign", {"players": ["Anna", "Ben"]}, None, 5)
    game = games.apply(game, {"type": "battle", "winner": 0, "troops": 9})
    link = codec.encode_share(campaign.public_game(game))
    session.open_link(link)
    first = session.slot
    session.start(games.new_game("campaign", {"players": ["Cy", "Di"]}, None, 6), "other")
    session.open_link(link)
    assert session.slot == first
    assert len([i for i in app.store.list("campaign") if i.spectator]) == 1
    assert app.texts()[-1] == "This spectator's copy is already here: opened “Anna vs Ben (spectator copy)”."
