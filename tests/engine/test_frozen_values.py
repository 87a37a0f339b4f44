"""Issue 30, items 4 and 9: a game is a value — nobody holding one, its state or what the
engine returns about it can change it — and every engine module imports on its own.

The reproducers of the issue come first; then a property test that, for games of every
system, walks every container reachable from the game, its replayed state, its spectator
copy and the value of every public helper, and tries to change each one.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pathlib
import random
import sys
import types
from collections.abc import Mapping
from enum import Enum
from fractions import Fraction
from functools import cached_property
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import ascension as ai
from engine import campaign as cmp
from engine import cards, codec, solo
from engine import conflict as oic
from engine import consim as cs
from engine import game as games
from engine import record as records
from engine.ascension import MANEUVERS
from engine.game import FrozenDict, FrozenList, apply, new_game, replay
from tests.engine import consim_kit

ROOT = pathlib.Path(__file__).resolve().parents[2]
REFUSED = (TypeError, AttributeError)


# ---------------------------------------------------------------------------
# The reproducers


def test_campaign_history_cannot_forge_the_spectator_copy():
    game = new_game("campaign", {"players": ["Anna", "Ben"], "dummy": False}, seed=5)
    pool = [str(c) for c in replay(game).pool]
    with pytest.raises(REFUSED):
        replay(game).history["pool"][0] = "KS" if pool[0] != "KS" else "QS"
    with pytest.raises(REFUSED):
        replay(game).history["pool"] = []
    assert list(replay(game).history["pool"]) == pool
    assert list(cmp.public_game(game).setup["reveal"]["pool"]) == pool


def test_campaign_script_of_a_spectator_copy_cannot_be_changed():
    game = new_game("campaign", {"players": ["Anna", "Ben"], "dummy": False}, seed=5)
    game = apply(game, {"type": "battle", "winner": 0, "troops": 3})
    public = replay(cmp.public_game(game))
    assert public.public and public.script is not None
    for key in public.script:
        with pytest.raises(REFUSED):
            public.script[key].append("KS")


def test_battle_rules_house_tables_cannot_be_changed():
    house = {"major": {"attack": {"defend": "Attack Succeeds - inflict 3 casualties"}}}
    game = new_game("battle", ai.example_setup(), {"house_tables": house}, seed=2)
    state = replay(game)
    tables = dict(state.rules)["house_tables"]
    with pytest.raises(REFUSED):
        tables["major"]["attack"]["defend"] = "Attack Succeeds - inflict 1 casualty"
    with pytest.raises(REFUSED):
        tables["minor"] = {}
    with pytest.raises(REFUSED):
        state.settings["house_tables"]["major"]["attack"]["defend"] = "No result"
    state.settings["house_tables"] = {}  # a fresh dict each time: changing it changes nothing
    assert replay(game).settings["house_tables"] == house
    assert ai.result_cell(replay(game).settings, "major", "attack", "defend").origin == "house"


def test_outcome_odds_cannot_be_changed_by_a_caller():
    state = replay(new_game("battle", ai.example_setup(), seed=1))
    bids = ({"maneuver": "attack"}, {"maneuver": "defend"})
    odds = ai.outcome_odds(state, bids)
    drawn, movement = odds.tiers["drawn"], dict(odds.sides[0].movement)
    with pytest.raises(REFUSED):
        odds.tiers["drawn"] = Fraction(1)
    with pytest.raises(REFUSED):
        odds.tiers["sides"][0]["minor"] = Fraction(1)
    with pytest.raises(REFUSED):
        odds.sides[0].movement["stays"] = Fraction(1)
    with pytest.raises(REFUSED):
        odds._weights[0][(None, "drawn")] = 0
    again = ai.outcome_odds(state, bids)
    assert again.tiers["drawn"] == drawn and dict(again.sides[0].movement) == movement
    assert again.tiers == ai.tier_odds(odds.pools[0].dice, odds.pools[1].dice)


def test_frozen_containers_refuse_a_second_init():
    game = new_game("battle", ai.example_setup(), seed=1)
    text = codec.dumps(game)
    setup, armies = game.setup, game.setup["armies"]
    assert type(setup) is FrozenDict and type(armies) is FrozenList
    with pytest.raises(TypeError):
        FrozenDict.__init__(setup, {"armies": []})
    with pytest.raises(TypeError):
        FrozenList.__init__(armies, [])
    with pytest.raises(TypeError):
        FrozenDict.__init__(FrozenDict(), {"x": 1})  # even an empty one, once made
    with pytest.raises(TypeError):
        FrozenList.__init__(FrozenList(), [1])
    with pytest.raises(REFUSED):
        setup._made = False
    assert codec.dumps(game) == text and game.setup["armies"] is armies and len(armies) == 2


def test_frozen_containers_still_copy_pickle_and_compare_as_plain_data():
    import copy
    import pickle

    data = {"a": [1, {"b": [2, 3]}], "c": "x"}
    frozen = games.freeze(data)
    assert frozen == data and data == frozen and games.thaw(frozen) == data
    for again in (pickle.loads(pickle.dumps(frozen)), copy.deepcopy(frozen), copy.copy(frozen)):
        assert again == data
    assert type(pickle.loads(pickle.dumps(frozen))) is FrozenDict
    assert type(copy.deepcopy(frozen)) is dict and type(copy.deepcopy(frozen["a"])) is list
    listed = FrozenList([1, [2]])
    assert pickle.loads(pickle.dumps(listed)) == [1, [2]] and listed[1:] == [[2]]


ENGINE_MODULES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for path in (ROOT / "engine").rglob("*.py") if "__pycache__" not in path.parts and path != ROOT / "engine" / "__init__.py")


def _import_afresh(module: str) -> None:
    """Import ``module`` as a fresh interpreter would: with no engine module loaded yet
    (the engine's modules are set aside and put back after; Pyodide has no subprocess)."""
    def engine_modules():
        return [name for name in sys.modules if name == "engine" or name.startswith("engine.")]

    saved = {name: sys.modules.pop(name) for name in engine_modules()}
    try:
        importlib.import_module(module)
    finally:
        for name in engine_modules():
            del sys.modules[name]
        sys.modules.update(saved)


@pytest.mark.parametrize("module", ENGINE_MODULES)
def test_every_engine_module_imports_first_in_a_fresh_interpreter(module):
    """Item 9: importing engine.ascension.odds (or any module, old alias paths too) before
    anything else of the engine works: no import circle."""
    _import_afresh(module)


# ---------------------------------------------------------------------------
# The walker: every container reachable must refuse to change, or be a fresh copy


_SENTINEL = ("sentinel-issue-30",)
#: Values no one can change, by type (their contents, for tuples and frozensets, are walked).
_LEAVES = (str, bytes, int, float, complex, bool, type(None), Fraction, Enum, range, type, types.ModuleType,
           types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.BuiltinMethodType,
           types.MethodWrapperType, types.WrapperDescriptorType)


def _content(obj: Any) -> Any:
    """What a container holds, by identity (to see whether an attempt changed it)."""
    if isinstance(obj, Mapping):
        return [(id(k), id(v)) for k, v in obj.items()]
    return [id(item) for item in obj]


def _attempts(obj: Any) -> list[tuple[str, tuple]]:
    """Calls that change ``obj`` if it lets them (each one would, on a plain container)."""
    if isinstance(obj, Mapping) or isinstance(obj, dict):
        out = [("__setitem__", (_SENTINEL, 1)), ("update", ({_SENTINEL: 1},)), ("setdefault", (_SENTINEL, 1)),
               ("__ior__", ({_SENTINEL: 1},)), ("__init__", ({_SENTINEL: 1},))]
        if len(obj):
            first = next(iter(obj))
            out += [("clear", ()), ("popitem", ()), ("pop", (first,)), ("__delitem__", (first,)),
                    ("__setitem__", (first, _SENTINEL))]
        return out
    if isinstance(obj, (set, frozenset)):
        out = [("add", (_SENTINEL,)), ("update", ([_SENTINEL],)), ("__ior__", ({_SENTINEL},)),
               ("__init__", ([_SENTINEL],))]
        if obj:
            out += [("clear", ()), ("pop", ()), ("discard", (next(iter(obj)),))]
        return out
    out = [("append", (_SENTINEL,)), ("extend", ([_SENTINEL],)), ("insert", (0, _SENTINEL)),
           ("__iadd__", ([_SENTINEL],)), ("__init__", ([_SENTINEL],))]
    if len(obj):
        out += [("__setitem__", (0, _SENTINEL)), ("__delitem__", (0,)), ("pop", ()), ("clear", ()),
                ("remove", (obj[0],)), ("__imul__", (0,)), ("__setitem__", (slice(None), []))]
    return out


class Walker:
    """Walks pairs (a, b) of the same value fetched twice: where ``a is b`` (shared) the
    container must refuse every change; where they differ it is a fresh copy, and what it
    holds is compared the same way (a fresh dict of shared lists is still shared)."""

    def __init__(self) -> None:
        self.seen: dict[tuple[int, int], tuple[Any, Any]] = {}
        self.problems: list[str] = []
        self.containers = 0

    def refuse(self, obj: Any, path: str) -> bool:
        """Whether ``obj`` refused every change tried."""
        self.containers += 1
        for name, args in _attempts(obj):
            method = getattr(type(obj), name, None)
            if method is None:
                continue
            before = _content(obj)
            try:
                method(obj, *args)
            except REFUSED:
                pass
            except Exception as error:  # noqa: BLE001 - anything else means it tried
                self.problems.append(f"{path}: {type(obj).__name__}.{name} raised {error!r}")
            if _content(obj) != before:
                self.problems.append(f"{path}: {type(obj).__name__}.{name} changed it")
                return False
        return True

    def check(self, a: Any, b: Any, path: str) -> None:
        if isinstance(a, _LEAVES) or isinstance(a, random.Random):
            if isinstance(a, random.Random):
                self.problems.append(f"{path}: a random generator is reachable")
            return
        key = (id(a), id(b))
        if key in self.seen or len(self.seen) > 200_000:
            return
        self.seen[key] = (a, b)
        shared = a is b
        if isinstance(a, (tuple, frozenset)):
            self.children(a, b, path)
        elif isinstance(a, (Mapping, list, set, dict)):
            if shared and not self.refuse(a, path):
                return  # changed (by the sentinel): what it holds now says nothing more
            if not shared and type(a) is not type(b):
                self.problems.append(f"{path}: {type(a).__name__} then {type(b).__name__}")
            self.children(a, b, path)
        else:
            self.attributes(a, b, path)

    def children(self, a: Any, b: Any, path: str) -> None:
        if isinstance(a, Mapping):
            for k, v in list(a.items()):
                self.check(k, k, f"{path}[{k!r}] (key)")
                other = b[k] if isinstance(b, Mapping) and k in b else v
                self.check(v, other, f"{path}[{k!r}]")
        elif isinstance(a, (set, frozenset)):
            for item in list(a):
                self.check(item, item, f"{path}{{{item!r}}}")
        else:
            items, others = list(a), list(b)
            if len(items) != len(others):
                others = items
            for i, (v, w) in enumerate(zip(items, others)):
                self.check(v, w, f"{path}[{i}]")

    def attributes(self, a: Any, b: Any, path: str) -> None:
        name = type(a).__name__
        if dataclasses.is_dataclass(a):
            for f in dataclasses.fields(a):
                if a is b:
                    try:
                        setattr(a, f.name, _SENTINEL)
                    except REFUSED:
                        pass
                    else:
                        self.problems.append(f"{path}.{f.name}: {name} is not frozen")
                self.check(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}")
        elif hasattr(a, "__dict__") and vars(a):
            self.problems.append(f"{path}: {name} is not a value type")
        for cls in type(a).__mro__:
            for prop, attr in vars(cls).items():
                if prop.startswith("_") or not isinstance(attr, (property, cached_property)):
                    continue
                if a is b:
                    try:
                        setattr(a, prop, _SENTINEL)
                    except REFUSED:
                        pass
                    else:
                        self.problems.append(f"{path}.{prop}: {name} lets it be set")
                try:
                    first, second = getattr(a, prop), getattr(a, prop)
                except ValueError:
                    continue
                self.check(first, second, f"{path}.{prop}")

    def twice(self, label: str, call: Callable[[], Any]) -> None:
        """The value of ``call`` (a helper), fetched twice."""
        try:
            first = call()
        except ValueError:
            return
        self.check(first, call(), label)


# ---------------------------------------------------------------------------
# Games of every system, played a few steps from their example setups

_CONSIM = consim_kit.two_sides(2)


def _setups(kind: str) -> list[tuple[dict, dict | None]]:
    if kind == "conflict":
        return [(oic.purple_dragon_setup(), None)]
    if kind == "campaign":
        return [({"players": ["Anna", "Ben"], "dummy": False}, None), ({"players": ["Anna", ""], "dummy": True}, None),
                ({"players": ["Anna", "Ben"], "dummy": False, "deck": "table"}, None)]
    if kind == cs.KIND:
        return [(_CONSIM, None)]
    house = {"major": {"attack": {"defend": "Attack Succeeds - inflict 3 casualties"}}}
    return [(ai.example_setup(), None), (ai.example_setup(), {"house_tables": house})]


def _candidates(kind: str, state: Any) -> list[dict]:
    """Actions that may be legal now (the walk keeps those ``can_apply`` accepts)."""
    if kind == "conflict":
        out: list[dict] = [{"type": "pass"}, {"type": "next_round"}]
        for s, side in enumerate(state.sides):
            for p in range(len(side.players)):
                out.append({"type": "discard", "side": s, "player": p, "cards": []})
        for hands in state.hands:
            for p, hand in enumerate(hands):
                out += [{"type": "play", "player": p, "card": str(c)} for c in hand[:4]]
        return out
    if kind == "campaign":
        out = [{"type": "battle", "winner": w, "troops": t} for w in (0, 1) for t in (3, 9)]
        out += [{"type": "battle", "winner": None}, {"type": "roll"}, {"type": "negotiate"}]
        if state.phase == "spoils":
            try:
                out.append({"type": "take", "stake": True,
                            "pool": str(state.pool[0]) if cmp.spoils_choices(state)["both"] else None})
            except (ValueError, IndexError):
                pass
        return out
    if kind == cs.KIND:
        return [consim_kit.DEAL, consim_kit.NEXT, consim_kit.END,
                consim_kit.shoot(0, 2), consim_kit.shoot(2, 0), consim_kit.shoot(1, 3, mode="snap"),
                consim_kit.shoot(3, 1)]
    out = [{"type": "bid", "side": s, "maneuver": m, "stratagems": []} for s in (0, 1) for m in ("attack", "defend")]
    out += [{"type": "reveal"}, {"type": "roll"}, {"type": "phase", "index": 0}, {"type": "leave", "side": 1},
            {"type": "bid", "side": 0, "maneuver": "withdraw", "stratagems": []}]
    return out


def _played(kind: str, data: Any, steps: int) -> games.Game:
    setup, rules = data.draw(st.sampled_from(_setups(kind)), label="setup")
    game = new_game(kind, setup, rules, seed=data.draw(st.integers(1, 2**32), label="seed"))
    for _ in range(steps):
        legal = [a for a in _candidates(kind, replay(game)) if games.can_apply(game, a)]
        if not legal:
            break
        game = apply(game, data.draw(st.sampled_from(legal), label="action"))
    if data.draw(st.booleans(), label="undo") and game.can_undo:
        game = games.undo(game)
    return game


def _fill(param: inspect.Parameter, state: Any, game: games.Game) -> list[Any] | None:
    """Arguments to try for one parameter of a public helper (None: the helper is skipped)."""
    name = param.name
    if param.default is not inspect.Parameter.empty or param.kind is param.VAR_KEYWORD:
        return [inspect.Parameter.empty]
    if name in ("side", "player", "index"):
        return [0, 1]
    if name == "maneuver":
        return list(MANEUVERS[:1]) + ["attack"]
    if name == "level":
        return ["normal"]
    if name == "seed":
        return [7]
    if name == "position":
        return [game.position]
    if name == "bids":
        return [({"maneuver": "attack"}, {"maneuver": "defend"}), ({"maneuver": "withdraw"}, {"maneuver": "shock"})]
    if name == "action" and game.position:
        return [game.actions[game.position - 1]]
    return None


_HELPERS = {
    "conflict": (oic, solo), "campaign": (cmp,), cs.KIND: (cs,),
    "battle": (ai,),  # its face holds the odds', the staff officer's and the app general's names too
}


#: Helpers that take a while (exact odds over the unseen cards): asked about one side only.
_SLOW = frozenset({"treaty_chances", "advice", "app_bid"})


def _helpers(kind: str, game: games.Game, state: Any) -> list[tuple[str, Callable[[], Any]]]:
    """Every public helper of the system that takes the state (or the game), with arguments."""
    out: list[tuple[str, Callable[[], Any]]] = []
    for module in _HELPERS[kind]:
        for name in sorted(getattr(module, "__all__", None) or dir(module)):
            func = getattr(module, name, None)
            if name.startswith("_") or not inspect.isfunction(func) or name in ("step", "start", "resolve"):
                continue
            params = list(inspect.signature(func).parameters.values())
            if not params or params[0].name not in ("state", "game"):
                continue
            first = state if params[0].name == "state" else game
            choices = [_fill(p, state, game) for p in params[1:]]
            if any(c is None for c in choices):
                continue
            for combo in _combos(choices)[:1] if name in _SLOW else _combos(choices):
                args = [first] + [v for v in combo if v is not inspect.Parameter.empty]
                out.append((f"{module.__name__}.{name}{tuple(args[1:])!r}", lambda f=func, a=args: f(*a)))
    return out


def _combos(choices: list[list[Any]]) -> list[tuple]:
    out: list[tuple] = [()]
    for values in choices:
        out = [c + (v,) for c in out for v in values]
    return out


def _extras(kind: str, state: Any) -> list[tuple[str, Callable[[], Any]]]:
    """Helpers that take parts of a state, or plain numbers."""
    if kind == "conflict":
        return [(f"best_organization({s}, {suit})", lambda s=s, suit=suit: oic.best_organization(state, s, suit))
                for s in (0, 1) for suit in "SCDH"]
    if kind == "campaign":
        unseen = [c for c in cards.full_deck() if c not in state.seen][:8]
        return [("treaty_odds", lambda: cmp.treaty_odds(state.pool[:2], unseen, hidden=1)),
                ("exhaustion_chance(4)", lambda: cmp.exhaustion_chance(4))]
    if kind == cs.KIND:
        out = [(f"shot_odds({i})", lambda c=c: cs.shot_odds(c)) for i, c in enumerate(state.combatants)]
        out += [(f"hit_chance({i})", lambda c=c: cs.hit_chance(c)) for i, c in enumerate(state.combatants)]
        out += [("wound_distribution(7)", lambda: cs.wound_distribution(7)),
                ("can_shoot", lambda: cs.can_shoot(state, 0, [2], "aimed")),
                ("initiative_order", lambda: cs.initiative_order("AS KH 2C"))]
        return out
    return [("tier_odds(3, 4)", lambda: ai.tier_odds(3, 4, skilled=(True, False))),
            ("success_distribution(4)", lambda: ai.success_distribution(4)),
            ("result_cell", lambda: ai.result_cell(state.settings, "major", "attack", "defend")),
            ("jibril_division", lambda: ai.jibril_division()), ("example_setup", lambda: ai.example_setup())]


def _walk(kind: str, game: games.Game, walker: Walker) -> None:
    text, state = codec.dumps(game), replay(codec.loads(codec.dumps(game))[0])
    walker.check(game, game, "game")
    walker.twice("replay(game)", lambda: replay(game))
    walker.twice("replay(game, 0)", lambda: replay(game, 0))
    walker.twice("history(game)", lambda: games.history(game))
    walker.twice("validate(game)", lambda: games.validate(game))
    walker.twice("record(game)", lambda: records.record(game))
    walker.twice("codec.loads", lambda: codec.loads(text))
    module = games.system(kind)
    if hasattr(module, "public_game"):
        walker.twice("public_game(game)", lambda: module.public_game(game))
        walker.twice("replay(public_game(game))", lambda: replay(module.public_game(game)))
    for label, call in _helpers(kind, game, replay(game)) + _extras(kind, replay(game)):
        walker.twice(label, call)
    # Whatever was tried, the game is as it was: the same saved text and the same replay.
    assert codec.dumps(game) == text
    assert replay(game) == state == replay(codec.loads(text)[0])


@pytest.mark.parametrize("kind", ["conflict", "campaign", cs.KIND, "battle"])
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_reachable_container_refuses_to_change(kind, data):
    game = _played(kind, data, data.draw(st.integers(0, 12), label="steps"))
    walker = Walker()
    try:
        _walk(kind, game, walker)
    except Exception:
        if not walker.problems:
            raise  # otherwise the change that was let through broke the game: say which
    assert not walker.problems, "\n".join(walker.problems[:40])
    assert walker.containers > 0


def test_the_walker_finds_what_can_be_changed():
    """The property test's own check: it sees a shared list in a frozen value, a read-only
    view of a changeable list, a shared dict handed out twice and a non-frozen dataclass;
    a fresh dict of frozen values each call passes."""

    @dataclasses.dataclass(frozen=True)
    class Frozen:
        items: Any

    @dataclasses.dataclass
    class Loose:
        n: int = 0

    class Refillable(dict):  # refuses every change but a second __init__ (FrozenDict before issue 30)
        __setitem__ = __delitem__ = update = setdefault = pop = popitem = clear = __ior__ = \
            lambda self, *args: (_ for _ in ()).throw(TypeError("no"))

    made = {"list in a frozen value": Frozen([1]), "view of a list": types.MappingProxyType({"a": [1]}),
            "the same dict twice": {"a": 1}, "a dataclass": Frozen(Loose()), "a set": Frozen({1}),
            "an object": Frozen(types.SimpleNamespace(a=1)), "a second init": Refillable(a=1)}
    cases: dict[str, Callable[[], Any]] = {label: (lambda v=value: v) for label, value in made.items()}
    cases["fresh dict, shared list"] = lambda l=[1]: {"a": l}
    for label, call in cases.items():
        walker = Walker()
        walker.twice(label, call)
        assert walker.problems, label
    walker = Walker()
    inner = (FrozenList([1]), FrozenDict(x=[1]), types.MappingProxyType({"y": (1,)}))
    walker.twice("fresh", lambda: {"a": inner[0], "b": inner[1:], "c": frozenset({1})})
    assert not walker.problems and walker.containers == 4 and inner[1] == {"x": [1]}
