"""One error contract (issue 30, items 5–7), with tests/engine/hostile.py.

- Item 5: every public function answers or refuses with a ``ValueError`` subclass whose
  message a player reads (never ``AttributeError``, ``TypeError``, a private class, or a
  billion-item ``range`` read to the end); ``engine.game`` and ``engine.codec`` have a
  true ``__all__``.
- Item 6: a bad value is shown the one way (``engine.text.shown``): nested 2,000 deep,
  100,000 characters long or ``10**5000``, it gives a short message, never
  ``RecursionError`` or Python's digit-limit error.
- Item 7: typed text refuses Cc, Cf, Cs, Zl, Zp, Co, Cn and the invisible letters
  (``engine.text.INVISIBLE``) in setups, links and saves alike, naming the character
  (U+XXXX) and the field; any game a setup accepts can be shared and saved again.
"""

from __future__ import annotations

import ast
import base64
import functools
import inspect
import itertools
import json
import sys
import unicodedata
import zlib
from collections.abc import Sequence
from enum import Enum
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    ascension,
    campaign,
    cards,
    codec,
    conflict,
    consim,
    poker,
    record,
    referee,
    rules,
    seats,
    solo,
    text,
    zerosum,
)
from engine import game as games
from engine.game import Game, new_game, replay

from . import hostile
from .consim_kit import deal, run, two_sides

ENGINE = Path(__file__).resolve().parents[2] / "engine"
MESSAGE_MAX = 300


def refusal(call: Callable[[], Any]) -> ValueError:
    """The ``ValueError`` subclass ``call`` refuses with (anything else fails the test)."""
    with pytest.raises(ValueError) as refused:
        call()
    err = refused.value
    assert type(err) is not ValueError, f"a bare ValueError: {err}"
    assert not type(err).__name__.startswith("_"), f"a private class reached the caller: {type(err).__name__}"
    readable(err)
    return err


def readable(err: BaseException) -> None:
    message = str(err)
    assert message and len(message) < MESSAGE_MAX, message[:400]
    for python in ("object has no attribute", "not subscriptable", "unhashable type", "Exceeds the limit",
                   "positional argument", "is not iterable", "not supported between"):
        assert python not in message, message


# ---------------------------------------------------------------- games and states of every system

def conflict_game() -> Game:
    return new_game("conflict", conflict.purple_dragon_setup(), None, 1)


def campaign_game() -> Game:
    return new_game("campaign", {"players": ["Anna", "Ben"]}, None, 1)


def consim_game() -> Game:
    return new_game("initiative", two_sides(), None, 1)


def battle_game() -> Game:
    return new_game("battle", ascension.example_setup(), None, 1)


@functools.lru_cache(maxsize=None)
def states() -> dict[str, Any]:
    return {"conflict": replay(conflict_game()), "campaign": replay(campaign_game()),
            "initiative": replay(consim_game()), "battle": replay(battle_game())}


class Endless(Sequence):
    """A sequence of a billion items that fails the test if any item is read."""

    def __len__(self) -> int:
        return 10**9

    def __getitem__(self, index):
        raise AssertionError("a billion items were read instead of refused")


# ---------------------------------------------------------------- item 5: the reproducers

REPRODUCERS: dict[str, Callable[[], Any]] = {
    "conflict.equipment([])": lambda: conflict.equipment([]),
    "campaign.equipment(0)": lambda: campaign.equipment(0),
    "consim.equipment({}, 5)": lambda: consim.equipment({}, 5),
    "consim.cards_owed(state, 9)": lambda: consim.cards_owed(states()["initiative"], 9),
    "consim.cards_owed(state, surprised=range(10**9))":
        lambda: consim.cards_owed(states()["initiative"], None, range(10**9)),
    "cards.shuffled_deck([])": lambda: cards.shuffled_deck([]),
    "ascension.bid_name(0)": lambda: ascension.bid_name(0),
    "ascension.bid_name(Bid('charge'))": lambda: ascension.bid_name(ascension.Bid("charge")),
    "mix_text([], 4)": lambda: ascension.mix_text([], 4),
    "mix_text(bids, [nan])": lambda: ascension.mix_text([ascension.Bid("attack")], [float("nan")]),
    "game.replay(0)": lambda: games.replay(0),
    "game.equipment(0)": lambda: games.equipment(0),
    "codec.encode_share(0)": lambda: codec.encode_share(0),
    "codec.dumps({})": lambda: codec.dumps({}),
    "codec.game_to_dict(None)": lambda: codec.game_to_dict(None),
    "codec.migrate_v1_to_v2({})": lambda: codec.migrate_v1_to_v2({}),
    "codec.migrate_v1_to_v2(0)": lambda: codec.migrate_v1_to_v2(0),
    "codec.upgrade_game({'kind': 'conflict'}, None)": lambda: codec.upgrade_game({"kind": "conflict"}, None),
    "codec.migrate_v2_to_v3(0)": lambda: codec.migrate_v2_to_v3(0),
    "codec.json_depth(0)": lambda: codec.json_depth(0),
    "Game(..., actions=1)": lambda: Game("conflict", 1, {}, {}, 1),
    "Game(..., setup nested 2,000 deep)": lambda: Game("conflict", 1, {}, {"x": nested(2000, list)}),
    "zerosum.best_response(a billion rows)": lambda: zerosum.best_response(Endless(), [1]),
    "zerosum.best_response(a billion columns)": lambda: zerosum.best_response([Endless()], [1]),
    "zerosum.row_payoffs(a mix of a billion)": lambda: zerosum.row_payoffs([[1, 2]], Endless()),
    "zerosum.exploitability(a mix of a billion)": lambda: zerosum.exploitability([[1, 2], [3, 4]], Endless()),
    "zerosum.exploitability(a billion rows)": lambda: zerosum.exploitability(Endless(), [1]),
    "consim.initiative_order(range(10**9))": lambda: consim.initiative_order(range(10**9)),
    "consim.initiative_order(an endless iterator)": lambda: consim.initiative_order(itertools.repeat("AS")),
    "cards.clean_cards(an endless iterator, unique=False)":
        lambda: cards.clean_cards(itertools.repeat("AS"), unique=False),
    "rules.resolve_rules(variants, 5)": lambda: rules.resolve_rules(consim.VARIANTS, 5),
    "rules.resolve_rules(variants, {10**5000: 1})": lambda: rules.resolve_rules(consim.VARIANTS, {10**5000: 1}),
    "cards.Card(10**5000, 'S')": lambda: cards.Card(10**5000, "S"),
    "cards.Card(2, nested 2,000 deep)": lambda: cards.Card(2, nested(2000, list)),
}


@pytest.mark.parametrize("name", REPRODUCERS)
def test_each_reproducer_is_refused_with_a_players_message(name):
    refusal(REPRODUCERS[name])


@pytest.mark.parametrize("setup", [{"deck": {}}, {"deck": ["table"]}, {"deck": 10**5000}])
def test_equipment_of_an_odd_deck_answers_or_refuses_in_words(setup):
    for fn in (campaign.equipment, conflict.equipment):
        answer = hostile.call(fn, setup)
        assert isinstance(answer, (str, ValueError))


def test_an_old_conflict_action_of_any_type_upgrades_or_is_left_for_the_checks():
    for kind in ({}, [], 10**5000, nested(2000, list), "x" * 100_000):
        data = {"kind": "conflict", "seed": 1, "setup": conflict.purple_dragon_setup(), "actions": [{"type": kind}]}
        out = conflict.upgrade(data)
        assert out["actions"] == [{"type": kind}]
        with pytest.raises(codec.SaveError):
            codec.game_from_dict({"app": codec.APP, "schema": 2, **data, "rules": {}, "position": 1})


def test_a_missing_roll_is_an_action_error_at_its_step_wherever_the_game_is_replayed():
    """consim's private refusal of a missing roll carries the roll; replaying a stored game
    that lacks one gave ``TypeError`` (its class could not be rebuilt with the step)."""
    own = {"deck": "table", "dice": "table"}
    base = run(new_game("initiative", two_sides(), own, 1), deal("AS", "KS", "QS", "JS", "10S", "9S"))
    shot = {"type": "shoot", "shooter": 0, "targets": [3], "dice": [{"d10": 10}]}
    stored = Game(base.kind, base.seed, base.rules, base.setup, base.actions + (shot,), 2)
    for call in (lambda: games.validate(stored), lambda: replay(stored), lambda: games.apply(base, shot)):
        err = refusal(call)
        assert isinstance(err, games.ActionError) and "Red 1" in str(err)
    assert "(step 2)" in str(refusal(lambda: games.validate(stored)))
    with pytest.raises(codec.ShareError, match="Red 1"):
        codec.decode_share(codec.encode_share(stored))


def _defined_names(module) -> set[str]:
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {name for name in names if not name.startswith("_")}


@pytest.mark.parametrize("module", [games, codec], ids=["game", "codec"])
def test_game_and_codec_export_every_public_name_and_nothing_private(module):
    exported = module.__all__
    assert len(exported) == len(set(exported))
    assert set(exported) == _defined_names(module)
    assert all(hasattr(module, name) for name in exported)


# ---------------------------------------------------------------- item 6: one way to show a bad value

def nested(depth: int, kind: type = list, leaf: Any = 0) -> Any:
    value = leaf
    for _ in range(depth):
        value = {"k": value} if kind is dict else kind([value])
    return value


@pytest.mark.parametrize("value, expected", [
    ("Anna", '"Anna"'),
    ("x" * 100_000, '"' + "x" * 36 + "…"),
    (10**5000, "a huge number"),
    (-(10**12), "a huge number"),
    (999_999_999_999, "999999999999"),
    (True, "True"),
    (None, "None"),
    (2.5, "2.5"),
    ([1, "a"], "[1, 'a']"),
    (("pool",), "('pool',)"),
    ("a\nb\u202e", '"a\\nb\\u202e"'),
    (nested(2000), "[[[[…]]]]"),
    ({"k": {"k": {"k": {"k": 1}}}}, "{'k': {'k': {'k': {…}}}}"),
    (list(range(100)), "[0, 1, 2, 3, …]"),
    ([10**5000], "[a huge number]"),
], ids=lambda v: text.shown(v, 20))
def test_shown_is_short_whatever_it_is_given(value, expected):
    assert text.shown(value) == expected
    assert len(text.shown(value)) <= text.SHOWN_MAX and len(text.brief_repr(value)) <= text.SHOWN_MAX


def test_brief_repr_never_raises_and_stays_short():
    class Broken:
        def __repr__(self):
            raise RuntimeError("no")

    class Liar(dict):
        def __getitem__(self, key):
            raise KeyError(key)

    deep_dict = nested(3000, dict)
    for value in (Broken(), Liar(a=1), deep_dict, nested(3000, tuple), {10**5000: "x" * 10**5}, range(10**9),
                  frozenset(range(1000)), games.FrozenList([1, 2])):
        assert len(text.brief_repr(value)) <= text.SHOWN_MAX and len(text.shown(value)) <= text.SHOWN_MAX
    assert text.brief_repr(Broken()) == "a Broken"


#: Public callables left out of the property, and why.
NOT_CALLED = {
    # Deep copies of a game's data, recursive by design; deep data is refused where a game
    # is made (Game, new_game: engine.game.MAX_NESTING) before they ever see it.
    games.freeze, games.thaw, games.FrozenDict, games.FrozenList,
}

MODULES = (cards, poker, zerosum, rules, games, codec, conflict, solo, campaign, consim, ascension, seats,
           record)


def _public_callables() -> list[Callable[..., Any]]:
    found: dict[str, Callable[..., Any]] = {}
    for module in MODULES:
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name, None)
            if not callable(obj) or obj in NOT_CALLED:
                continue
            if inspect.isclass(obj) and issubclass(obj, (BaseException, Enum)):
                continue  # exceptions are made by the engine; enums' own lookups are not the engine's API
            if not _positional(obj):
                continue
            found.setdefault(f"{module.__name__.split('.')[-1]}.{name}", obj)
    for name in ("text_problem", "shown", "brief_repr", "key_text"):
        found[f"text.{name}"] = getattr(text, name)
    # The referee's field helpers: the value is the caller's; ``what`` is the system's own text.
    for name in ("whole", "flag", "one_of", "card", "cards", "line", "action_type", "only"):
        found[f"referee.{name}"] = getattr(referee, name)
    return sorted(found.items())


def _positional(fn: Callable[..., Any]) -> list[inspect.Parameter]:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


#: The referee's helpers take (value, what, …): only ``value`` is the caller's.
ONLY_FIRST = {"referee.whole", "referee.flag", "referee.one_of", "referee.card", "referee.cards",
              "referee.line", "referee.action_type", "referee.only", "game.json_data"}

CALLABLES = _public_callables()

HUGE_INTS = st.integers(4301, 6000).map(lambda digits: 10**digits) | \
    st.integers(4301, 6000).map(lambda digits: -(10**digits))
LONG_TEXTS = st.tuples(st.integers(100_000, 100_050), st.sampled_from(["x", "A", "9", "♠", "\u202e", "AS "])).map(
    lambda t: (t[1] * t[0])[:t[0]])
DEEP = st.tuples(st.integers(2000, 2200), st.sampled_from([list, tuple, dict]), st.sampled_from([0, "AS", None])).map(
    lambda t: nested(*t))
HOSTILE = st.one_of(
    HUGE_INTS, LONG_TEXTS, DEEP,
    HUGE_INTS.map(lambda n: [n]), HUGE_INTS.map(lambda n: {"k": n}), HUGE_INTS.map(lambda n: {n: 1}),
    LONG_TEXTS.map(lambda s: {s: 1}), LONG_TEXTS.map(lambda s: [s]), DEEP.map(lambda d: {"type": d}),
)


def _state_for(fn: Callable[..., Any], name: str) -> Any:
    """A real state or game of ``fn``'s module, for a first parameter that wants one."""
    system = {"conflict": "conflict", "solo": "conflict", "campaign": "campaign", "consim": "initiative",
              "ascension": "battle"}.get(name.split(".")[0])
    first = _positional(fn)[0].name if _positional(fn) else ""
    if system is None:
        return None
    if first == "state":
        return states()[system]
    if first == "game":
        return {"conflict": conflict_game, "campaign": campaign_game, "initiative": consim_game,
                "battle": battle_game}[system]()
    return None


@pytest.mark.parametrize("name, fn", CALLABLES, ids=[name for name, _ in CALLABLES])
@settings(max_examples=12)
@given(value=HOSTILE, slot=st.integers(0, 5), how=st.sampled_from(["alone", "everywhere", "after its state"]))
def test_public_helpers_refuse_deep_long_and_huge_values_in_a_short_message(name, fn, value, slot, how):
    params = _positional(fn)
    required = [p for p in params if p.default is p.empty]
    slot = 0 if name in ONLY_FIRST else slot % len(params)
    args: list[Any] = [None] * max(len(required), slot + 1)
    if how == "everywhere" and name not in ONLY_FIRST:
        args = [value] * len(args)
    if how == "after its state" and len(args) > 1 and slot > 0:
        args[0] = _state_for(fn, name)
    if name in ONLY_FIRST:
        args = [value, "the value"] + [None] * (len(required) - 2)
        if name == "referee.whole":
            args = [value, "the value", 0, 9]
        elif name in ("referee.one_of",):
            args = [value, "the value", ("a", "b")]
        elif name == "referee.line":
            args = [value, "the value", 40]
        elif name == "referee.action_type":
            args = [value, ("a", "b")]
        elif name == "game.json_data":
            args = [value]
    else:
        args[slot] = value
    try:
        fn(*args)
    except ValueError as err:
        readable(err)
    except RecursionError as err:  # pragma: no cover - the failure this test is for
        pytest.fail(f"{name}: RecursionError ({err})")


def test_new_game_with_a_deep_long_or_huge_setup_says_so_in_a_short_message():
    for kind in games.SYSTEM_MODULES:
        for bad in (nested(2000, dict), nested(2000, list), {"sides": nested(2000, list)}, {"players": [10**5000]},
                    {"players": ["x" * 100_000, "B"]}, {"x" * 100_000: 1}, {"sides": [{"name": 10**5000}]},
                    {"armies": [{"name": "x" * 100_000}]}):
            setup = bad if isinstance(bad, dict) else {"x": bad}
            readable(refusal(lambda: new_game(kind, setup, None, 1)))
            readable(refusal(lambda: new_game(kind, {}, {"deck": bad}, 1)))


# ---------------------------------------------------------------- item 7: typed text

@functools.lru_cache(maxsize=None)
def by_category() -> dict[str, list[str]]:
    """Every code point, by Unicode general category (of this Python's Unicode version)."""
    found: dict[str, list[str]] = {}
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        found.setdefault(unicodedata.category(char), []).append(char)
    return found


CATEGORIES = ("Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf",
              "Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn")
REFUSED = {"Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn"}


def test_the_categories_refused_are_the_documented_ones():
    assert set(text.REFUSED_CATEGORIES) == REFUSED
    assert set(by_category()) == set(CATEGORIES)
    assert text.INVISIBLE == {"\u034f", "\u115f", "\u1160", "\u17b4", "\u17b5", "\u2800", "\u3164", "\uffa0"}
    assert text.text_problem("❤️ Anna") is None and text.text_problem("Zoë 李雷 محمد") is None


@pytest.mark.parametrize("char, words", [
    ("\ud800", "half of a character (a lone surrogate) (U+D800)"),
    ("\udfff", "(U+DFFF)"),
    ("\u2028", "line break or control character (U+2028)"),
    ("\u2029", "line break or control character (U+2029)"),
    ("\u3164", "invisible letter (U+3164), which would make it look empty or like another"),
    ("\u115f", "(U+115F)"), ("\u1160", "(U+1160)"), ("\uffa0", "(U+FFA0)"), ("\u2800", "(U+2800)"),
    ("\u034f", "(U+034F)"), ("\ue000", "private-use character (U+E000)"), ("\U000f0000", "(U+F0000)"),
    ("\U000e0fff", "code point that is not a character (U+E0FFF)"), ("\uffff", "(U+FFFF)"),
    ("\u202e", "invisible formatting character (U+202E), which would change how it reads"),
    ("\n", "line break or control character (U+000A)"),
])
def test_text_problem_names_the_character(char, words):
    problem = text.text_problem(f"An{char}na")
    assert problem is not None and words in problem
    with pytest.raises(ValueError, match=r"^Player 1: the name contains .*U\+"):
        text.setup_text(f" An{char}na ", "Player 1", "name", error=campaign.SetupError)


def _named(kind: str, field: int, name: str) -> dict[str, Any]:
    """A setup of ``kind`` with ``name`` typed in one of its name fields."""
    if kind == "conflict":
        setup = conflict.purple_dragon_setup()
        spot = [setup["sides"][0], setup["sides"][0]["players"][0], setup["sides"][1]["players"][0]["organizations"][0]]
    elif kind == "campaign":
        setup = {"players": ["Anna", "Ben"]}
        setup["players"][field % 2] = name
        return setup
    elif kind == "initiative":
        setup = two_sides(1)
        if field % 3 == 0:
            setup["sides"][0] = name
            return setup
        spot = [None, setup["combatants"][0], setup["combatants"][1]]
    else:
        setup = ascension.example_setup()
        army = setup["armies"][0]
        spot = [army, army["units"][0], army["general"]]
    spot[field % 3]["name"] = name
    return setup


SYSTEMS = ("conflict", "campaign", "initiative", "battle")


@pytest.mark.parametrize("category", CATEGORIES)
@settings(max_examples=6)
@given(data=st.data(), kind=st.sampled_from(SYSTEMS), field=st.integers(0, 2), alone=st.booleans())
def test_every_category_in_a_typed_name_is_kept_or_refused_in_words(category, data, kind, field, alone):
    """Any character in a name of any system's setup: refused with a ValueError that names it
    (U+XXXX), or kept — and then the game is shared and saved, and both open again as it was."""
    char = data.draw(st.sampled_from(by_category()[category]))
    name = char if alone else f"An{char}na"
    expected = text.text_problem(name.strip())
    try:
        game = new_game(kind, _named(kind, field, name), None, 7)
    except ValueError as err:
        readable(err)
        if name.strip() and expected is not None:
            assert f"U+{ord(char):04X}" in str(err), str(err)
        return
    assert expected is None  # kept: nothing refused in it (a lone space-like character is stripped)
    assert not name.strip() or (category not in REFUSED and char not in text.INVISIBLE)
    assert codec.decode_share(codec.encode_share(game)) == game
    assert codec.loads(codec.dumps(game, {"name": name}))[0] == game
    assert codec.loads(codec.dumps(game, pretty=True))[0] == game


def _share_text(data: dict[str, Any]) -> str:
    """A "3" link of ``data`` (one-letter keys), its JSON with \\u escapes as any encoder writes."""
    raw = json.dumps(data, ensure_ascii=True).encode("ascii")
    return codec.SHARE_VERSION + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


@pytest.mark.parametrize("char", ["\ud800", "\udc00", "\u2028", "\u3164", "\u2800", "\ue000", "\u200b"])
def test_a_link_or_an_old_save_with_such_a_name_says_what_to_change(char):
    game = campaign_game()
    saved = codec.game_to_dict(game)
    saved["setup"] = {**saved["setup"], "players": [f"An{char}na", "Ben"]}
    code = f"U+{ord(char):04X}"
    with pytest.raises(codec.SaveError) as refused:
        codec.loads(json.dumps(saved, ensure_ascii=True))
    assert code in str(refused.value) and "Player 1" in str(refused.value) and "name" in str(refused.value)
    readable(refused.value)
    short = {"k": saved["kind"], "s": saved["seed"], "r": saved["rules"], "u": saved["setup"], "a": saved["actions"]}
    with pytest.raises(codec.ShareError) as refused:
        codec.decode_share(_share_text(short))
    assert code in str(refused.value) and "Player 1" in str(refused.value)
    readable(refused.value)


def test_a_saves_name_with_half_a_character_opens_but_is_never_written():
    """The store cleans a save's name as it reads it (web/store.py ``clean_name``: what
    text_problem refuses is taken out); a name that still holds one is refused naming it."""
    game = campaign_game()
    saved = codec.game_to_dict(game)
    opened, meta = codec.loads(json.dumps({**saved, "meta": {"name": "Friday \ud800"}}, ensure_ascii=True))
    assert opened == game and text.text_problem(meta["name"])
    for pretty in (False, True):
        with pytest.raises(codec.SaveError, match=r"the game's name holds half of a character \(U\+D800\)"):
            codec.dumps(game, meta, pretty=pretty)


@pytest.mark.parametrize("where", ["setup", "action", "rules"])
def test_encoding_a_game_made_without_new_game_raises_only_codec_errors(where):
    """No game holds a lone surrogate once setups refuse one, but one made by hand still
    gets a ShareError / SaveError, never UnicodeEncodeError; so does a 5,000-digit number."""
    base = campaign_game()
    for odd in ("\ud800", 10**5000, nested(40, list), float("nan")):
        setup, actions, game_rules = dict(base.setup), base.actions, dict(base.rules)
        if where == "setup":
            setup["players"] = [odd, "Ben"]
        elif where == "action":
            actions = ({"type": "deal", "x": odd},)
        else:
            game_rules["x"] = odd
        game = Game(base.kind, base.seed, game_rules, setup, actions, len(actions))
        for call, error in ((codec.encode_share, codec.ShareError), (codec.dumps, codec.SaveError)):
            readable(refusal(lambda: call(game)))
            with pytest.raises(error):
                call(game)
        with pytest.raises(codec.SaveError):
            codec.dumps(game, pretty=True)
        if odd != "\ud800":  # plain data may hold one; only its text could not
            with pytest.raises(codec.SaveError):
                codec.game_to_dict(game)


@pytest.mark.parametrize("field, value", [("kind", 5), ("kind", "x" * 100), ("seed", -1), ("seed", 10**5000),
                                          ("position", 9), ("position", "1"), ("rules", None), ("setup", 5),
                                          ("actions", ("roll",))], ids=lambda v: text.shown(v, 12))
def test_a_game_with_a_field_no_save_could_hold_cannot_be_saved_or_shared(field, value):
    base = campaign_game()
    fields = {"kind": base.kind, "seed": base.seed, "rules": base.rules, "setup": base.setup,
              "actions": base.actions, "position": base.position, field: value}
    if field == "actions":
        fields["position"] = 1
    game = Game(**fields)
    readable(refusal(lambda: codec.encode_share(game)))
    readable(refusal(lambda: codec.dumps(game)))
