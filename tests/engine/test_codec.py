"""Saves and share links: round trips, every refusal, migrations, and fuzzing.

The fuzz tests follow the hypothesis profile (``HYPOTHESIS_PROFILE=fuzz`` tries
5000 examples each); the number of payloads tried is reported at the end of the
module ("fuzz: N share payloads tried, none crashed"; any other exception
fails the test and is counted as crashed).
"""

from __future__ import annotations

import base64
import json
import re
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import codec
from engine import game as game_mod
from engine.codec import SaveError, ShareError
from engine.game import MAX_SEED, RuleError

MARKUP = "<img src=x onerror=alert(1)>"
FUZZ = {"tried": 0, "crashed": 0}


@pytest.fixture(autouse=True, scope="module")
def _fake_system(request):
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(game_mod.SYSTEM_MODULES, "testdice", "tests.engine.fakesys")
        mp.setitem(game_mod.SYSTEM_MODULES, "ghost", "engine.no_such_module_yet")
        yield
    if FUZZ["tried"]:
        # Shown even without -s, so the lead can report "N tried, none crashed".
        capture = request.config.pluginmanager.get_plugin("capturemanager")
        crashed = FUZZ["crashed"] or "none"
        line = f"\nfuzz: {FUZZ['tried']} share payloads tried, {crashed} crashed"
        if capture is not None:
            with capture.global_and_fixture_disabled():
                print(line)
        else:  # pragma: no cover
            print(line)


# --------------------------------------------------------------------------- helpers

def new(players=("Ann", "Bo"), seed=7, rules=None):
    return game_mod.new_game("testdice", {"players": list(players)}, rules, seed)


def play(game, ops):
    """Apply ops ("roll", "pass", "bonus2", "undo", "redo"), skipping refused ones."""
    for op in ops:
        if op == "undo":
            if game.can_undo:
                game = game_mod.undo(game)
        elif op == "redo":
            if game.can_redo:
                game = game_mod.redo(game)
        else:
            action = {"type": "bonus", "amount": int(op[-1])} if op.startswith("bonus") else {"type": op}
            try:
                game = game_mod.apply(game, action)
            except RuleError:
                pass
    return game


def pack(obj) -> str:
    """A share payload around any JSON data (valid encoding, maybe invalid content)."""
    raw = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
    return "2" + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def valid_dict():
    return codec.game_to_dict(play(new(), ["roll", "pass", "bonus2", "roll", "undo"]), {"name": "Friday"})


names = st.text(min_size=1, max_size=40).filter(lambda s: s.strip())
OPS = ["roll", "roll", "pass", "bonus1", "bonus3", "undo", "redo"]


@st.composite
def games(draw):
    players = draw(st.lists(names, min_size=2, max_size=4))
    rules = {"target": draw(st.sampled_from([10, 20, 30])), "ones_lose": draw(st.booleans())}
    game = new(players, draw(st.integers(0, MAX_SEED)), rules)
    return play(game, draw(st.lists(st.sampled_from(OPS), max_size=40)))


def decodes_or_share_error(payload) -> None:
    FUZZ["tried"] += 1
    try:
        result = codec.decode_share(payload)
    except ShareError as err:
        assert str(err) and err.reason
    except BaseException:
        FUZZ["crashed"] += 1
        raise
    else:
        assert isinstance(result, game_mod.Game)


# --------------------------------------------------------------------------- round trips

@given(games(), st.one_of(st.none(), st.text(max_size=60)))
def test_save_round_trip(game, name):
    meta = {"name": name, "created": 1_700_000_000_000, "updated": 1_700_000_100_000}
    back, back_meta = codec.loads(codec.dumps(game, meta))
    assert back == game
    assert back.position == game.position and back.actions == game.actions
    assert back_meta == meta
    assert game_mod.replay(back) == game_mod.replay(game)
    pretty, _ = codec.loads(codec.dumps(game, meta, pretty=True))
    assert pretty == game


@given(games())
def test_share_round_trip(game):
    payload = codec.encode_share(game)
    assert payload.startswith("3")
    assert re.fullmatch(r"[A-Za-z0-9_-]+", payload)
    back = codec.decode_share(payload)
    assert back == game
    assert game_mod.replay(back) == game_mod.replay(game)
    if game.can_redo:
        assert game_mod.replay(game_mod.redo(back)) == game_mod.replay(game_mod.redo(game))


def test_saved_form_shape():
    game = play(new(), ["roll", "pass", "roll", "undo"])
    data = codec.game_to_dict(game, {"name": "Friday", "created": 1, "updated": 2})
    assert data == {
        "app": "conflict-table", "schema": 3, "kind": "testdice", "seed": 7,
        "rules": {"target": 20, "ones_lose": False}, "setup": {"players": ["Ann", "Bo"]},
        "actions": [{"type": "roll"}, {"type": "pass"}, {"type": "roll"}], "position": 2,
        "meta": {"name": "Friday", "created": 1, "updated": 2},
    }
    assert "meta" not in codec.game_to_dict(game)
    back, meta = codec.game_from_dict(codec.game_to_dict(game))
    assert back == game and meta == {"name": None, "created": None, "updated": None}
    json.dumps(data)  # plain JSON data


def test_markup_is_plain_data():
    game = play(new(players=[MARKUP, "Bo"]), ["roll", "pass"])
    back, meta = codec.loads(codec.dumps(game, {"name": MARKUP}))
    assert back.setup["players"][0] == MARKUP and meta["name"] == MARKUP
    assert codec.decode_share(codec.encode_share(game)).setup["players"][0] == MARKUP


def test_meta_extras_are_kept():
    back, meta = codec.loads(codec.dumps(new(), {"name": "x", "rev": 4, "tab": "abc"}))
    assert meta["rev"] == 4 and meta["tab"] == "abc"


def test_loads_accepts_bytes_with_bom():
    game = play(new(), ["roll"])
    back, _ = codec.loads(b"\xef\xbb\xbf" + codec.dumps(game).encode())
    assert back == game


def test_mid_game_link_is_small():
    game = new(players=["Ann", "Bo", "Cy", "Di"], rules={"target": 30})
    for _ in range(200):
        game = play(game, ["roll", "pass"])
    payload = codec.encode_share(game)
    assert len(payload) < 1000, len(payload)


# --------------------------------------------------------------------------- save validation

def changed(data: dict, changes: dict) -> dict:
    """``data`` with ``changes`` applied; a value of ``KeyError`` removes that field."""
    for key, value in changes.items():
        if value is KeyError:
            data.pop(key)
        else:
            data[key] = value
    return data


def damage(**changes):
    """A valid saved form with ``changes``; built when called."""
    return lambda: changed(valid_dict(), changes)


@pytest.mark.parametrize("data, reason, message", [
    (damage(kind=5), "damaged", "This save is damaged: 'kind' should be"),
    (damage(kind=""), "damaged", "'kind' should be"),
    (damage(kind="x" * 41), "damaged", "'kind' is too long"),
    (damage(kind=KeyError), "damaged", "'kind' should be"),
    (damage(seed="7"), "damaged", "This save is damaged: 'seed' should be a whole number from 0 to 2¹²⁸ − 1"),
    (damage(seed=-1), "damaged", "'seed' should be a whole number"),
    (damage(seed=MAX_SEED + 1), "damaged", "'seed' should be a whole number"),
    (damage(seed=True), "damaged", "'seed' should be a whole number"),
    (damage(seed=7.0), "damaged", "'seed' should be a whole number"),
    (damage(rules=[]), "damaged", "'rules' should be an object"),
    (damage(setup="Ann,Bo"), "damaged", "'setup' should be an object"),
    (damage(setup=KeyError), "damaged", "'setup' should be an object"),
    (damage(actions={}), "damaged", "This save is damaged: 'actions' should be a list"),
    (damage(actions=KeyError), "damaged", "'actions' should be a list"),
    (damage(actions=[{"type": "roll"}, "roll"]), "damaged", "action 2 should be an object"),
    (damage(position=-1), "damaged", "'position' should be a whole number from 0 to 4"),
    (damage(position=5), "damaged", "'position' should be a whole number from 0 to 4"),
    (damage(position="3"), "damaged", "'position' should be"),
    (damage(position=None), "damaged", "'position' should be"),
    (damage(meta=[]), "damaged", "'meta' should be an object"),
    (damage(meta={"name": 3}), "damaged", "the game's name should be text"),
    (damage(meta={"name": "x" * 201}), "damaged", "longer than 200 characters"),
    (damage(meta={"created": -5}), "damaged", "'created' should be a time in milliseconds"),
    (damage(meta={"updated": "yesterday"}), "damaged", "'updated' should be a time"),
    (damage(meta={"updated": 2**60}), "damaged", "'updated' should be a time"),
    (damage(extra=1), "damaged", "unexpected field 'extra'"),
    (damage(schema="2"), "damaged", "'schema' should be a whole number"),
    (damage(schema=0), "damaged", "'schema' should be a whole number"),
    (damage(schema=7), "newer", "This save is from a newer version of Conflict Table (schema 7); "
                                "update the app to open it"),
    (damage(app="other-app"), "not-a-save", "This file is not a Conflict Table save"),
    (damage(app=KeyError), "not-a-save", "not a Conflict Table save"),
    ([1, 2], "not-a-save", "not a Conflict Table save"),
    ("hello", "not-a-save", "not a Conflict Table save"),
    ({}, "not-a-save", "not a Conflict Table save"),
    (damage(kind="zzz"), "kind", "This save cannot be opened: it is for a kind of game this app does not know"),
    (damage(kind="ghost"), "kind", "the ghost table, which this version of the app does not have yet"),
    (damage(rules={"speed": 3}), "settings", "rules settings this app does not know"),
    (damage(rules={"target": 99}), "settings", "99 is not a choice"),
    (damage(setup={"players": ["Solo"]}), "setup", "its setup cannot be used (A dice game needs 2 to 4 players)"),
    (damage(actions=[{"type": "fly"}], position=1), "damaged", "Unknown action: 'fly' (step 1)"),
    (damage(actions=[{"type": "bonus", "amount": 1}, {"type": "pass"}, {"type": "pass"},
                     {"type": "bonus", "amount": 2}], position=4),
     "rules", "this game breaks D3 at step 4: Each player may take a bonus only once"),
    # The redo stack is checked too: a bad action after 'position' is refused, not kept for later.
    (damage(actions=[{"type": "bonus", "amount": 1}, {"type": "pass"}, {"type": "pass"},
                     {"type": "bonus", "amount": 2}], position=2),
     "rules", "this game breaks D3 at step 4: Each player may take a bonus only once"),
    (damage(actions=[{"type": "roll"}, {"type": "fly"}], position=1), "damaged", "Unknown action: 'fly' (step 2)"),
    (damage(actions=[{"type": "roll"}, {"type": "bonus", "amount": 9}], position=0), "damaged",
     "A bonus is 1, 2 or 3 points (step 2)"),
    (damage(setup={"players": ["Ann", float("nan")]}), "damaged", "not finite"),
    (damage(setup={"players": ["Ann", {1, 2}]}), "damaged", "not data"),
    (damage(setup={"players": ["Ann", "Bo"], 3: "x"}), "damaged", "key that is not text"),
])
def test_every_field_is_checked(data, reason, message):
    with pytest.raises(SaveError) as info:
        codec.game_from_dict(data() if callable(data) else data)
    assert message in str(info.value)
    assert info.value.reason == reason


@pytest.mark.parametrize("text, message", [
    ("", "not a Conflict Table save"),
    ("   ", "not a Conflict Table save"),
    ("hello world", "not a Conflict Table save"),
    ('{"app": "conflict-table", "schema": 2, "kind"', "This save is damaged: it is cut short"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"a":' * 50 + "1" + "}" * 50, "nested too deeply"),
    ('{"app": "conflict-table", "schema": NaN}', "not valid JSON"),
    ('{"seed": ' + "9" * 5000 + "}", "not valid JSON"),
    ('{"app": "conflict-table",, "schema": 2}', "This save is damaged: it is not valid JSON"),
    (b"\xff\xfe\x00", "not a Conflict Table save"),
    (None, "not a Conflict Table save"),
    (12, "not a Conflict Table save"),
])
def test_bad_save_text(text, message):
    with pytest.raises(SaveError) as info:
        codec.loads(text)
    assert message in str(info.value)


def test_save_text_size_limit(monkeypatch):
    monkeypatch.setattr(codec, "MAX_SAVE_CHARS", 100)
    with pytest.raises(SaveError, match="too large") as info:
        codec.loads(codec.dumps(play(new(), ["roll"] * 5)))
    assert info.value.reason == "too-large"


def test_real_save_size_cap_and_its_message():
    """The real cap, not a patched one: a save of 5,000,000 characters opens, one more is refused.

    JSON allows whitespace after the object, so a small valid save padded with spaces is
    exactly as long as the test needs (and costs no parsing work beyond the scan).
    """
    game = play(new(), ["roll", "pass", "roll"])
    text = codec.dumps(game, {"name": "Friday"})
    at_cap = text + " " * (5_000_000 - len(text))
    assert len(at_cap) == 5_000_000
    assert codec.loads(at_cap)[0] == game
    with pytest.raises(SaveError) as info:
        codec.loads(at_cap + " ")
    assert str(info.value) == "This save is too large to open (more than 5,000,000 characters)"
    assert info.value.reason == "too-large"
    # bytes are measured after decoding, the same way
    with pytest.raises(SaveError, match=r"more than 5,000,000 characters"):
        codec.loads((at_cap + " ").encode())


def test_newer_schema_refused_as_text():
    text = json.dumps({**valid_dict(), "schema": 4, "whatever": {"new": "shape"}})
    with pytest.raises(SaveError, match=r"newer version of Conflict Table \(schema 4\)"):
        codec.loads(text)


def test_game_to_dict_refuses_non_data():
    game = game_mod.Game("testdice", 1, {}, {"players": [object()]})
    with pytest.raises(SaveError, match="cannot be saved"):
        codec.dumps(game)


def test_depth_scanner_ignores_brackets_in_strings():
    assert codec.json_depth('{"a": "[[[[[[[[", "b": [1, {"c": "]]\\"[["}]}') == 3
    assert codec.json_depth("12") == 0


# --------------------------------------------------------------------------- migrations

V1 = {
    "version": 1,
    "game": {
        "kind": "testdice",
        "seed": 7,
        "settings": {"rules": {"target": 10}, "setup": {"players": ["Ann", MARKUP]}},
        "log": [{"type": "roll"}, {"type": "pass"}, {"type": "bonus", "amount": 3}],
    },
    "name": "Old Friday game",
    "saved": 1_600_000_000.25,
}


def test_migrations_registry():
    assert codec.SCHEMA_VERSION == 3
    assert codec.MIGRATIONS == {1: codec.migrate_v1_to_v2, 2: codec.migrate_v2_to_v3}


def test_v1_to_v2():
    game, meta = codec.loads(json.dumps(V1))
    expected = play(new(players=["Ann", MARKUP], rules={"target": 10}),
                    ["roll", "pass", "bonus3"])
    assert game == expected
    assert game.position == 3  # v1 had no redo stack: every action is in force
    assert meta == {"name": "Old Friday game", "created": 1_600_000_000_250, "updated": 1_600_000_000_250}
    # Saving again writes the current schema.
    data = json.loads(codec.dumps(game, meta))
    assert data["schema"] == 3 and data["app"] == "conflict-table"


def test_v1_minimal():
    old = {"version": 1, "game": {"kind": "testdice", "seed": 3, "settings": {"setup": {"players": ["A", "B"]}}}}
    game, meta = codec.game_from_dict(old)
    assert game == new(players=["A", "B"], seed=3) and meta["name"] is None


@pytest.mark.parametrize("change, message", [
    ({"game": []}, "'game' should be an object"),
    ({"game": {**V1["game"], "log": "roll"}}, "'log' should be a list"),
    ({"game": {**V1["game"], "settings": 5}}, "'settings' should be an object"),
    ({"saved": "monday"}, "'saved' should be a time in seconds"),
    ({"name": ["x"]}, "name should be text"),
    ({"version": "1"}, "'schema' should be a whole number"),
    ({"game": {**V1["game"], "seed": None}}, "'seed' should be"),
    ({"game": {**V1["game"], "log": [{"type": "bonus", "amount": 1}, {"type": "pass"}, {"type": "pass"},
                                      {"type": "bonus", "amount": 1}]}}, "D3"),
])
def test_v1_damaged(change, message):
    with pytest.raises(SaveError, match=re.escape(message)):
        codec.game_from_dict({**V1, **change})


# --------------------------------------------------------------------------- share refusals

LINK_DAMAGED = "This link is incomplete or damaged — ask for it again"


def good_payload():
    return codec.encode_share(play(new(), ["roll", "pass", "roll", "bonus1", "undo"]))


@pytest.mark.parametrize("payload, reason, message", [
    ("", "empty", "This link has no game in it"),
    ("   \n", "empty", "This link has no game in it"),
    (None, "empty", "This link has no game in it"),
    (b"2abc", "not-a-link", "This is not a Conflict Table link"),
    (42, "not-a-link", "This is not a Conflict Table link"),
    ("hello", "not-a-link", "This is not a Conflict Table link"),
    ("https://example.com/#2abc", "not-a-link", "This is not a Conflict Table link"),
    ("4eNqrVgIAAD0AHg", "newer", "This link is from a newer version of Conflict Table; update the app to open it"),
    ("9", "newer", "newer version"),
    ("2", "damaged", LINK_DAMAGED),
    ("2abc!", "damaged", LINK_DAMAGED),
    ("2abc=", "damaged", LINK_DAMAGED),
    ("2abcde", "damaged", LINK_DAMAGED),
    ("2eNqrVgIAAD0AH", "damaged", LINK_DAMAGED),
    ("2" + "A" * 20_000, "too-large", "This link is too large to open (more than 20,000 characters)"),
])
def test_share_refusals(payload, reason, message):
    with pytest.raises(ShareError) as info:
        codec.decode_share(payload)
    assert str(info.value) == message or message in str(info.value)
    assert info.value.reason == reason


def test_truncated_and_corrupted_links():
    payload = good_payload()
    for cut in range(1, len(payload) - 1, 3):
        with pytest.raises(ShareError) as info:
            codec.decode_share(payload[:cut])
        assert str(info.value) == LINK_DAMAGED
    flipped = payload[:10] + ("A" if payload[10] != "A" else "B") + payload[11:]
    with pytest.raises(ShareError, match="incomplete or damaged"):
        codec.decode_share(flipped)
    with pytest.raises(ShareError, match="incomplete or damaged"):
        codec.decode_share(payload + "AAAA")  # junk after the compressed data


def test_whitespace_around_payload_is_ignored():
    assert codec.decode_share("  " + good_payload() + "\n") == codec.decode_share(good_payload())


def test_zip_bomb_refused():
    bomb = pack(b"[" + b"0," * 3_000_000 + b"0]")
    assert len(bomb) < codec.MAX_SHARE_CHARS
    with pytest.raises(ShareError, match="holds more data than Conflict Table accepts") as info:
        codec.decode_share(bomb)
    assert info.value.reason == "too-large"


def test_deep_nesting_refused():
    for raw in (b"[" * 50_000 + b"]" * 50_000, b'{"k":"testdice","s":1,"u":{"players":["A","B"]},"a":[' +
                b'{"x":' * 40 + b"1" + b"}" * 40 + b"]}"):
        with pytest.raises(ShareError, match="nested too deeply"):
            codec.decode_share(pack(raw))


def link_body(**changes):
    """A valid link's JSON with ``changes`` (see :func:`changed`)."""
    return changed({"k": "testdice", "s": 7, "r": {}, "u": {"players": ["Ann", "Bo"]}, "a": [{"type": "roll"}]},
                   changes)


@pytest.mark.parametrize("body, reason, message", [
    ([1, 2, 3], "damaged", "This link is damaged: it does not hold a game"),
    ("text", "damaged", "it does not hold a game"),
    (link_body(s="7"), "damaged", "This link is damaged: 'seed' should be a whole number"),
    (link_body(a={"type": "roll"}), "damaged", "This link is damaged: 'actions' should be a list"),
    (link_body(a=KeyError), "damaged", "'actions' is missing"),
    (link_body(k=KeyError), "damaged", "'kind' is missing"),
    (link_body(u=[]), "damaged", "'setup' should be an object"),
    (link_body(r=3), "damaged", "'rules' should be an object"),
    (link_body(p=2), "damaged", "'position' should be a whole number from 0 to 1"),
    (link_body(z=1), "damaged", "unexpected field 'z'"),
    (link_body(a=[7]), "damaged", "action 1 should be an object"),
    (link_body(k="zzz"), "kind", "This link cannot be opened: it is for a kind of game this app does not know"),
    (link_body(r={"target": 5}), "settings", "rules settings"),
    (link_body(u={"players": []}), "setup", "A dice game needs 2 to 4 players"),
    (link_body(a=[{"type": "bonus", "amount": 9}]), "damaged", "A bonus is 1, 2 or 3 points (step 1)"),
    (link_body(a=[{"type": "bonus", "amount": 1}, {"type": "pass"}, {"type": "pass"},
                  {"type": "bonus", "amount": 1}]),
     "rules", "This link cannot be opened: this game breaks D3 at step 4: Each player may take"),
    (link_body(a=[{"type": "bonus", "amount": 1}, {"type": "pass"}, {"type": "pass"},
                  {"type": "bonus", "amount": 1}], p=1),
     "rules", "this game breaks D3 at step 4: Each player may take a bonus only once"),
])
def test_share_content_checked(body, reason, message):
    with pytest.raises(ShareError) as info:
        codec.decode_share(pack(body))
    assert message in str(info.value)
    assert info.value.reason == reason


def test_share_bad_utf8_and_bad_json():
    for raw in (b"\xff\xfe{}", b"{not json", b'{"k": NaN}', b""):
        with pytest.raises(ShareError, match="damaged"):
            codec.decode_share(pack(raw))


def test_share_wraps_unexpected_system_errors(monkeypatch):
    from tests.engine import fakesys

    def broken(state, action, rules, rng):
        raise KeyError("boom")

    saved = damage()()
    monkeypatch.setattr(fakesys, "step", broken)
    with pytest.raises(ShareError, match="damaged"):
        codec.decode_share(pack(link_body()))
    with pytest.raises(SaveError, match="This save is damaged"):
        codec.game_from_dict(saved)


def test_share_limits_can_be_tightened(monkeypatch):
    payload = good_payload()
    monkeypatch.setattr(codec, "MAX_SHARE_JSON", 20)
    with pytest.raises(ShareError, match="holds more data"):
        codec.decode_share(payload)


# --------------------------------------------------------------------------- fuzzing

URL_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


@given(st.text(max_size=300))
def test_fuzz_any_text(payload):
    decodes_or_share_error(payload)


@given(st.text(alphabet=URL_SAFE, max_size=300))
def test_fuzz_url_safe_text(body):
    decodes_or_share_error("2" + body)


@given(st.binary(max_size=400))
def test_fuzz_compressed_bytes(raw):
    decodes_or_share_error(pack(raw))
    decodes_or_share_error("2" + base64.urlsafe_b64encode(raw).decode().rstrip("="))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner, max_size=5),
    max_leaves=30,
)


@given(st.dictionaries(st.sampled_from(["k", "s", "r", "u", "a", "p", "x"]),
                       json_values | st.just("testdice"), max_size=7))
def test_fuzz_link_fields(body):
    decodes_or_share_error(pack(body))


@given(st.fixed_dictionaries({
    "k": st.just("testdice"), "s": st.integers(0, MAX_SEED), "u": st.just({"players": ["A", "B"]}),
    "a": st.lists(st.fixed_dictionaries({"type": st.sampled_from(["roll", "pass", "bonus", "fly"])},
                                        optional={"amount": json_values}), max_size=30),
}, optional={"r": st.dictionaries(st.sampled_from(["target", "ones_lose"]), json_values),
             "p": json_values | st.integers(-2, 32)}))
def test_fuzz_near_valid_links(body):
    decodes_or_share_error(pack(body))


mutation = st.tuples(st.sampled_from(["flip", "delete", "insert", "truncate", "swap"]),
                     st.integers(0, 10_000), st.sampled_from(list(URL_SAFE + "=+/ .%#é\x00")))


@given(games(), st.lists(mutation, min_size=1, max_size=4))
def test_fuzz_mutated_payloads(game, mutations):
    payload = codec.encode_share(game)
    for op, where, char in mutations:
        where %= max(len(payload), 1)
        if op == "flip":
            payload = payload[:where] + char + payload[where + 1:]
        elif op == "delete":
            payload = payload[:where] + payload[where + 1:]
        elif op == "insert":
            payload = payload[:where] + char + payload[where:]
        elif op == "truncate":
            payload = payload[:where]
        else:
            payload = payload[where:] + payload[:where]
    decodes_or_share_error(payload)



def test_too_many_actions_are_refused_in_saves_and_links():
    """A hostile link cannot make a tablet replay for minutes: the action count is capped."""
    body = link_body(a=[{"type": "roll"}] * (codec.MAX_ACTIONS + 1))
    with pytest.raises(ShareError, match="more than 10,000 actions") as info:
        codec.decode_share(pack(json.dumps(body).encode()))
    assert info.value.reason == "too-large"
    save = codec.game_to_dict(new())
    save["actions"] = [{"type": "roll"}] * (codec.MAX_ACTIONS + 1)
    with pytest.raises(SaveError, match="more than 10,000 actions"):
        codec.loads(json.dumps(save))


# --------------------------------------------------------------------------- schema 3 (issue 20)

def _old_link(game) -> str:
    """A share payload as the previous version wrote it ("2" links: schema-2 games)."""
    import base64
    import zlib

    data = codec.game_to_dict(game)
    short = {"k": data["kind"], "s": data["seed"], "r": data["rules"], "u": data["setup"], "a": data["actions"]}
    raw = json.dumps(short, separators=(",", ":")).encode()
    return "2" + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def test_old_saves_and_links_go_through_their_systems_upgrade(monkeypatch):
    """A schema-2 save or a "2" link is handed to the system's ``upgrade`` (which makes an
    old game replay as it was played); a schema-3 one is not."""
    import tests.engine.fakesys as fakesys

    seen = []

    def upgrade(data):
        seen.append(data["kind"])
        return {**data, "rules": {**data["rules"], "target": 10}}

    monkeypatch.setattr(fakesys, "upgrade", upgrade, raising=False)
    game = play(new(), ["roll", "pass"])
    old = {**codec.game_to_dict(game), "schema": 2}
    upgraded, _ = codec.game_from_dict(old)
    assert upgraded.rules["target"] == 10 and seen == ["testdice"]
    assert codec.game_from_dict(codec.game_to_dict(game))[0].rules == game.rules and len(seen) == 1
    linked = codec.decode_share(_old_link(game))
    assert linked.rules["target"] == 10 and linked.actions == game.actions and len(seen) == 2
    assert codec.decode_share(codec.encode_share(game)) == game and len(seen) == 2


def test_an_upgrade_that_fails_leaves_the_game_to_the_checks(monkeypatch):
    import tests.engine.fakesys as fakesys

    def upgrade(data):
        raise KeyError("boom")

    monkeypatch.setattr(fakesys, "upgrade", upgrade, raising=False)
    game = play(new(), ["roll"])
    assert codec.game_from_dict({**codec.game_to_dict(game), "schema": 2})[0] == game
    assert codec.decode_share(_old_link(game)) == game


def test_an_impossible_game_in_a_link_names_its_clause_and_step():
    game = play(new(), ["bonus1", "pass", "pass"])
    bad = game_mod.Game(game.kind, game.seed, game.rules, game.setup,
                        game.actions + ({"type": "bonus", "amount": 1},), 4)
    with pytest.raises(ShareError, match=r"this game breaks D3 at step 4: Each player may take a bonus only once"):
        codec.decode_share(codec.encode_share(bad))
