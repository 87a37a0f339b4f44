"""Game sessions as data: settings, seed and actions; state is derived by replay.

A :class:`Game` is everything needed to rebuild a table exactly: the system it
belongs to (``kind``), the group's rules settings, the system's setup (sides,
organizations …), the seed of its one random generator, and the list of actions
taken. ``actions[:position]`` are in force; ``actions[position:]`` are the redo
stack. Replaying the same game always gives the same state, so undo, redo, save
and share need nothing else.

A *system* is a module (``engine.conflict`` …) that provides:

``KIND``
    its kind string;
``VARIANTS``
    a tuple of :class:`engine.rules.Variant`;
``normalize_setup(setup) -> dict``
    validated, canonical JSON setup (raises ``ValueError`` with a player-readable
    message);
``start(setup, rules, rng) -> state``
    the state before any action (may shuffle and deal with ``rng``);
``step(state, action, rules, rng) -> state``
    a new state; never mutates ``state``; raises :class:`RuleError` for a move the
    rules forbid and :class:`ActionError` for a malformed action;
``describe(state, action) -> str``
    a short label of ``action`` taken in ``state``, for the history;
``public_game(game) -> Game``
    a game that shows only public information (spectator links); its setup says
    ``"spectator": true`` (see :func:`is_spectator`);
``SPECTATOR_VIEW``
    what that public copy shows, in players' words (the Share drawer says it).

and may provide:

``normalize_action(state, action, rules) -> dict``
    the canonical form of ``action`` in ``state`` (exact shape, canonical card
    tokens, no unknown field), or the :class:`ActionError` / :class:`RuleError`
    that ``step`` would raise. :func:`apply` stores the canonical form and
    :func:`validate` returns it, so a stored game holds nothing the rules did not
    check. ``step`` refuses everything ``normalize_action`` refuses;
``upgrade(data) -> dict``
    a game saved or shared by an earlier version (before save schema 3), as a
    dict with ``kind``, ``seed``, ``rules``, ``setup``, ``actions``,
    ``position``, made to replay as it was played (engine.codec calls it);
``standing(state) -> str``
    where the game stands, in a few words, for the list of saves ("Battle 5 ·
    Anna 7 cards, Ben 5");
``equipment(setup, rules) -> str``
    whose cards and dice the game is played with (the app's, or the table's own,
    issue 18), in players' words (the Share drawer says it; see :func:`equipment`).
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any, ClassVar, NoReturn

from .registry import TABLES
from .rules import SettingsError, resolve_rules
from .text import brief_repr

__all__ = [
    "SYSTEM_MODULES", "MAX_SEED", "SEED_RANGE", "MAX_TYPED_SEED", "SEED_BITS", "MAX_REPLAY_WORK",
    "DEFAULT_ACTION_WORK", "MAX_APP_MOVE_WORK", "MAX_NESTING", "READ_ONLY",
    "RuleError", "ActionError", "UnknownKind", "GameError", "SetupError", "ArgumentError", "TooLong",
    "NotTheAppsMove", "app_move_work", "check_app_moves",
    "FrozenDict", "FrozenList", "freeze", "thaw", "replaced", "json_data", "system", "Game",
    "new_seed", "seed_is_secret", "equipment", "is_spectator", "new_game", "replay_work", "work_of",
    "check_replay_work", "replay", "normalize_action", "check", "can_apply", "apply", "undo", "redo", "goto",
    "history", "validate",
]

#: The four systems' packages, by kind (from the one table registry, engine.registry).
#: Imported on first use. A stand-in system registers here (tests/engine/fakesys.py).
SYSTEM_MODULES: dict[str, str] = {table.kind: table.module for table in TABLES}

#: Seeds are unsigned integers of up to 128 bits (they travel in links and JSON as
#: numbers). The app's own seeds are 128 bits from the operating system's generator
#: (:func:`new_seed`), too many to search from the cards and dice a spectator sees;
#: games saved before that (32-bit seeds) and seeds typed at the table still open.
MAX_SEED = 2**128 - 1
#: How a seed's range is said in messages.
SEED_RANGE = "a whole number from 0 to 2¹²⁸ − 1"
#: The largest seed a player may type (a typed seed is public by nature).
MAX_TYPED_SEED = 2**32 - 1
#: Seeds the app makes have exactly this many bits (the top bit set).
SEED_BITS = 128


#: The most replay work (:func:`replay_work`) a game may ask for: what a tablet's
#: Pyodide replays in about a second (issue 30; ``make bench`` measures the largest
#: legal game of each system against it). A unit of work is about a microsecond of
#: CPython on the benchmark machine.
MAX_REPLAY_WORK = 400_000
#: A system's work per action when it does not say (:func:`replay_work`).
DEFAULT_ACTION_WORK = 250
#: The most work (the units of :data:`MAX_REPLAY_WORK`) checking the app's moves of a game from
#: outside may take (:func:`check_app_moves`: HR-AI-14, HR-OIC-4; the system's
#: ``app_move_work`` estimates it before checking from the slowest decisions, so a hostile link
#: costs at most about 2.5 s of CPython). The longest games the app lets grow open, checked, in
#: 0.25 s of CPython and 0.54 s of Pyodide under Node, CPU time on the benchmark machine (a
#: conflict of two Hard sides; ``make bench``: tests/bench_appmove.py), once, when a link or a
#: file is opened. :func:`apply` refuses an app's move that would take a game past it, so every
#: game the app made opens again from its link.
MAX_APP_MOVE_WORK = 2_500_000


class RuleError(ValueError):
    """An action the rules forbid. ``str()`` starts with the rule id.

    ``step`` is the number (from 1) of the refused action in a game being replayed
    (a save or a link), ``None`` for a move refused at the table.
    """

    def __init__(self, rule_id: str, message: str, step: int | None = None):
        super().__init__(f"{rule_id}: {message}" + (f" (step {step})" if step is not None else ""))
        self.rule_id = rule_id
        self.message = message
        self.step = step


class ActionError(ValueError):
    """An action that is not well formed (unknown type, missing or bad field)."""


class UnknownKind(ValueError):
    """A game kind the app does not know (yet)."""


class GameError(ValueError):
    """Arguments that do not make a game (a seed that is not a number, rules that are
    not settings …)."""


class SetupError(GameError):
    """A setup that cannot be played: a field missing, out of range or contradicting the
    rules; the message names the field ("Side 1: the name is empty"). Every system's
    ``SetupError`` is this class (issue 31: one error for one question)."""


class ArgumentError(ValueError):
    """A public function of a system given an argument it cannot use (a state that is not
    one, a side that is not 0 or 1 …); the message says what was expected. Every
    system's bad-argument error (``ArgumentError``, ``BadArgument``, ``CampaignError``)
    is this class."""


class NotTheAppsMove(RuleError):
    """A game from outside (a link, an imported file) with a move recorded for a side the app
    plays that the app does not make there (HR-AI-14, HR-OIC-4: the app's moves are derived
    from the seed and the public game, never read from a link). ``step`` says which."""


class TooLong(GameError):
    """A game whose history would take a tablet too long to replay (see
    :data:`MAX_REPLAY_WORK`): refused before it is replayed, and no action takes a game
    past it, so every game the app made opens again."""


# ---------------------------------------------------------------------------
# Games as values: what a Game holds can never be changed afterwards


def _refuse(self: object, *args: object, **kwargs: object) -> NoReturn:
    raise TypeError(f"a game's {type(self).__name__[6:].lower() or 'data'} cannot be changed: "
                    "it is part of the game's record")


class _Frozen:
    """What :class:`FrozenDict` and :class:`FrozenList` share: ``copy.copy`` gives a plain
    ``dict`` or ``list`` (``_plain``), ``copy.deepcopy`` and pickling a plain, changeable
    copy (:func:`thaw`) that pickles back frozen, and the repr is the plain one."""

    __slots__ = ()
    _plain: ClassVar[Any]  # the class dict or list: what the frozen value reads as

    def __copy__(self) -> Any:
        return self._plain(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return thaw(self)

    def __reduce__(self) -> tuple[type[Any], tuple[Any]]:
        return (type(self), (thaw(self),))

    def __repr__(self) -> str:
        return str(self._plain.__repr__(self))


class FrozenDict(_Frozen, dict[str, Any]):
    """A JSON object inside a :class:`Game`: a ``dict`` that cannot be changed.

    It compares, iterates and serialises as a plain ``dict``; ``copy.deepcopy`` and
    :func:`thaw` give a plain, changeable copy.
    """

    __slots__ = ("_made",)  # set once __init__ has filled it: a second call would refill it in place
    _plain = dict

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if getattr(self, "_made", False):
            _refuse(self)
        dict.__init__(self, ((key, freeze(value)) for key, value in dict(*args, **kwargs).items()))
        _DICT_MADE(self, True)

    __setattr__ = __delattr__ = _refuse
    __setitem__ = __delitem__ = update = setdefault = pop = popitem = clear = __ior__ = _refuse


class FrozenList(_Frozen, list[Any]):
    """A JSON array inside a :class:`Game`: a ``list`` that cannot be changed."""

    __slots__ = ("_made",)  # as FrozenDict's: a second __init__ call would empty and refill it
    _plain = list

    def __init__(self, items: Iterable[Any] = ()) -> None:
        if getattr(self, "_made", False):
            _refuse(self)
        list.__init__(self, (freeze(item) for item in items))
        _LIST_MADE(self, True)

    __setattr__ = __delattr__ = _refuse
    __setitem__ = __delitem__ = append = extend = insert = pop = remove = clear = sort = reverse = _refuse
    __iadd__ = __imul__ = _refuse


#: The setters of the two classes' ``_made`` slots (their ``__setattr__`` refuses).
_DICT_MADE = FrozenDict._made.__set__  # type: ignore[attr-defined]  # a slot's descriptor, typed as its value
_LIST_MADE = FrozenList._made.__set__  # type: ignore[attr-defined]  # a slot's descriptor, typed as its value

#: Values :func:`freeze` returns as they are, by their exact type.
_AS_IT_IS = frozenset({str, int, float, bool, type(None), FrozenDict, FrozenList})


def freeze(value: Any) -> Any:
    """``value`` as data no one can change: mappings become :class:`FrozenDict`, lists
    and tuples :class:`FrozenList`, anything else stays as it is (numbers, text …)."""
    if type(value) in _AS_IT_IS:  # the common cases first: a save holds thousands of them
        return value
    if isinstance(value, (FrozenDict, FrozenList)):
        return value
    if isinstance(value, Mapping):
        return FrozenDict(value)
    if isinstance(value, (list, tuple)):
        return FrozenList(value)
    return value


def thaw(value: Any) -> Any:
    """A plain, changeable deep copy of ``value`` (dicts and lists)."""
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(item) for item in value]
    return value


def replaced(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``items`` with the one at ``index`` replaced by ``value``: how a step changes one side's
    or one player's part of an immutable state (a pair stays a pair; mypy cannot say so)."""
    if not isinstance(items, tuple) or isinstance(index, bool) or not isinstance(index, int) \
            or not 0 <= index < len(items):
        raise ArgumentError(f"replaced takes a tuple and the index of one of its items (got {brief_repr(index)})")
    return items[:index] + (value,) + items[index + 1:]


#: How deeply a game's rules, setup or actions may nest (saves and links allow far less:
#: engine.codec.MAX_DEPTH); deeper data is refused before it is frozen (issue 30).
MAX_NESTING = 64


def _check_nesting(value: Any, what: str) -> None:
    """:class:`GameError` when ``value`` nests lists and mappings more than
    :data:`MAX_NESTING` deep (looked at without recursion: it may be thousands deep)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if type(item) in _AS_IT_IS:
            continue
        if isinstance(item, Mapping):
            children: Iterable[Any] = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth >= MAX_NESTING:
            raise GameError(f"A game's {what} are nested too deeply (more than {MAX_NESTING} levels)")
        stack.extend((child, depth + 1) for child in children)


def json_data(value: Any, what: str = "the action", depth: int = 0) -> Any:
    """``value`` checked to be JSON data (objects with text keys, arrays, text, whole or
    finite numbers, true/false/null), as a frozen copy; :class:`ActionError` otherwise."""
    if depth > 32:
        raise ActionError(f"{what} is nested too deeply")
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ActionError(f"{what} contains a number that is not finite")
        return value
    if isinstance(value, Mapping):
        for key in value:
            if not isinstance(key, str):
                raise ActionError(f"{what} has a field name that is not text ({brief_repr(key)})")
        return FrozenDict({key: json_data(item, what, depth + 1) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return FrozenList(json_data(item, what, depth + 1) for item in value)
    raise ActionError(f"{what} contains something that is not data ({type(value).__name__})")


def system(kind: str) -> ModuleType:
    """The module that implements the rules of ``kind``."""
    try:
        name = SYSTEM_MODULES[kind]
    except (KeyError, TypeError):
        raise UnknownKind(f"Unknown kind of game: {brief_repr(kind)}") from None
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        raise UnknownKind(f"The {kind} table is not built yet") from None


@dataclass(frozen=True, eq=False)
class Game:
    """A game: kind, rules settings, setup, seed, actions, and how many are in force.

    A game is a value: its rules, setup and actions are deep, unchangeable copies
    (:class:`FrozenDict`, :class:`FrozenList`) of what it was given, so no caller can
    rewrite its history afterwards.
    """

    kind: str
    seed: int
    rules: Mapping[str, Any]
    setup: Mapping[str, Any]
    actions: tuple[Mapping[str, Any], ...] = ()
    position: int = 0
    # Replay cache: (position, state, rng state) of the last replay. Not part of the game.
    _tip: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.actions, (list, tuple)):
            raise GameError(f"A game's actions must be a list (got {type(self.actions).__name__})")
        for what in ("rules", "setup"):
            value = getattr(self, what)
            if type(value) is not FrozenDict:
                _check_nesting(value, what)
                object.__setattr__(self, what, freeze(value))
        if not (type(self.actions) is tuple and all(type(a) is FrozenDict for a in self.actions)):
            _check_nesting(self.actions, "actions")
            object.__setattr__(self, "actions", tuple(freeze(a) for a in self.actions))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (self.kind, self.seed, dict(self.rules), dict(self.setup), list(self.actions), self.position) == (
            other.kind, other.seed, dict(other.rules), dict(other.setup), list(other.actions), other.position)

    __hash__ = None  # type: ignore[assignment]  # the stdlib's way to say "unhashable"

    @property
    def can_undo(self) -> bool:
        return self.position > 0

    @property
    def can_redo(self) -> bool:
        return self.position < len(self.actions)


def new_seed() -> int:
    """A fresh seed of :data:`SEED_BITS` bits from the operating system's generator
    (the top bit set, so that :func:`seed_is_secret` can tell it from a typed one)."""
    return random.SystemRandom().getrandbits(SEED_BITS - 1) | (1 << (SEED_BITS - 1))


def seed_is_secret(seed: int) -> bool:
    """Whether ``seed`` is one the app made (128 bits, beyond any search).

    A seed typed by the players, or one from a game saved before the app made
    128-bit seeds, is short: anyone who knows it, or searches for it from the
    cards and dice that were shown, can deal the same cards.
    """
    return _is_seed(seed) and seed.bit_length() == SEED_BITS


def equipment(game: Game) -> str | None:
    """Whose cards and dice ``game`` is played with, in players' words (issue 18):
    the system's ``equipment(setup, rules)``, or ``None`` if it has no such choice."""
    mod = system(_checked_game(game).kind)
    hook = getattr(mod, "equipment", None)
    return hook(game.setup, game.rules) if hook is not None else None


def is_spectator(game: Game) -> bool:
    """Whether ``game`` is a spectator's copy (made by its system's ``public_game``):
    what the table could see, read-only."""
    return isinstance(game, Game) and isinstance(game.setup, Mapping) and game.setup.get("spectator") is True


def _is_seed(seed: Any) -> bool:
    return isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed <= MAX_SEED


def new_game(kind: str, setup: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
             seed: int | None = None) -> Game:
    """A new game of ``kind``; validates setup and rules and checks that it starts.

    ``rules`` maps variant keys to choices (``None`` for the defaults); ``seed`` is
    a whole number from 0 to :data:`MAX_SEED`, or ``None`` for a fresh one.
    """
    stamp = getattr(system(kind), "stamp_setup", None)
    if stamp is not None:  # only a new game names today's versions (HR-AI-15); validate keeps a game's own
        setup = stamp(setup)
    return _made_game(kind, setup, rules, seed)


def _made_game(kind: str, setup: Mapping[str, Any], rules: Mapping[str, Any] | None, seed: int | None) -> Game:
    """:func:`new_game` of a setup as it is (a game read from a save or a link: :func:`validate`)."""
    mod = system(kind)
    if seed is None:
        seed = new_seed()
    if not _is_seed(seed):
        raise GameError(f"The seed must be {SEED_RANGE}")
    if rules is not None and not isinstance(rules, Mapping):
        raise SettingsError("The rules settings must be an object of {setting: choice}")
    if not isinstance(setup, Mapping):
        raise GameError(f"The setup of a {kind} game must be an object")
    game = Game(kind, seed, resolve_rules(mod.VARIANTS, rules), json_data(mod.normalize_setup(setup), "the setup"))
    replay(game)
    return game


def replay_work(game: Game) -> int:
    """How much work replaying every action of ``game`` (its redo stack too) takes, told
    before replaying it: the system's ``replay_work(setup, actions)`` (what a step costs
    grows with the armies, the roster, the sides), else :data:`DEFAULT_ACTION_WORK` an
    action. Cheap: it reads the setup and the actions' types, and runs no rule."""
    game = _checked_game(game)
    return work_of(game.kind, game.setup, game.actions)


def work_of(kind: str, setup: Any, actions: Sequence[Any]) -> int:
    """:func:`replay_work` of a game not made yet: its kind, setup and actions as read
    from a save or a link, before anything else is checked (the system's estimate reads
    any value without failing)."""
    hook = getattr(system(kind), "replay_work", None)
    if hook is None:
        return DEFAULT_ACTION_WORK * len(actions)
    return hook(setup, actions)


def check_replay_work(kind: str, setup: Any, actions: Sequence[Any]) -> None:
    """Raise :class:`TooLong`, in a player's words, when a game of ``kind`` with this
    setup and these actions would take a tablet more than about a second to open
    (:data:`MAX_REPLAY_WORK`)."""
    work = work_of(kind, setup, actions)
    if work > MAX_REPLAY_WORK:
        seconds = -(-work // MAX_REPLAY_WORK)
        raise TooLong(f"its {len(actions):,} actions would keep a tablet busy for about {seconds} "
                      f"seconds to replay; the app opens a game that replays in about a second")


def app_move_work(game: Game) -> int:
    """How much work checking the app's moves of ``game`` takes (:func:`check_app_moves`), told
    before checking: the system's ``app_move_work(setup, actions)``, 0 when the app plays no
    side of it (or the system has no app player). Cheap: it reads the setup and the actions."""
    game = _checked_game(game)
    hook = getattr(system(game.kind), "app_move_work", None)
    return 0 if hook is None else hook(game.setup, game.actions)


def check_app_moves(game: Game) -> Game:
    """HR-AI-14, HR-OIC-4 (issue 35): every move recorded for a side the app plays in ``game``
    is the move the app makes at that point, derived again from the seed and the public game.

    For a game from outside this device (a share link, an imported file), after
    :func:`validate`: raises :class:`NotTheAppsMove` (the clause and the step) for the first
    move the app does not make, and :class:`TooLong` when checking would take longer than
    :data:`MAX_APP_MOVE_WORK` (before any of it is checked). A spectator's copy has no seed
    (its bids and dice are facts of the table) and is not checked. Returns ``game``."""
    game = _checked_game(game)
    mod = system(game.kind)
    check_move = getattr(mod, "check_app_move", None)
    if check_move is None or is_spectator(game) or app_move_work(game) == 0:
        return game
    if app_move_work(game) > MAX_APP_MOVE_WORK:
        raise TooLong("checking the app's moves would keep a tablet busy too long; the app opens a game whose "
                      "app moves it checks in a few seconds")
    state, rng = _start(game)
    for index, action in enumerate(game.actions):
        try:
            check_move(game, state, action)
        except RuleError as err:
            raise NotTheAppsMove(err.rule_id, err.message, index + 1) from None
        state = mod.step(state, action, game.rules, rng)
    return game


def _start(game: Game) -> tuple[Any, random.Random]:
    mod = system(game.kind)
    rng = random.Random(game.seed)
    return mod.start(game.setup, game.rules, rng), rng


def replay(game: Game, upto: int | None = None) -> Any:
    """The state after the first ``upto`` actions (default: ``game.position``)."""
    game = _checked_game(game)
    return _replay(game, game.position if upto is None else upto)[0]


def _replay(game: Game, upto: int) -> tuple[Any, random.Random]:
    if not isinstance(upto, int) or isinstance(upto, bool) or not 0 <= upto <= len(game.actions):
        raise GameError(f"No such point in the history: {brief_repr(upto)}")
    tip = game._tip
    if tip is not None and tip[0] == upto:
        rng = random.Random()
        rng.setstate(tip[2])
        return tip[1], rng
    mod = system(game.kind)
    state, rng = _start(game)
    for index, action in enumerate(game.actions[:upto]):
        try:
            state = mod.step(state, action, game.rules, rng)
        except (RuleError, ActionError) as err:
            raise _at_step(err, index) from None
    return state, rng


def _err_args(err: ValueError, index: int) -> tuple[Any, ...]:
    if isinstance(err, RuleError):
        return (err.rule_id, err.message, index + 1)
    return (f"{err} (step {index + 1})",)


def _at_step(err: ValueError, index: int) -> ValueError:
    """``err`` again, saying at which step of a replay it came: of its own class, or of
    RuleError / ActionError when that class is made otherwise (consim's refusal of a
    missing roll carries the roll: issue 30)."""
    base = RuleError if isinstance(err, RuleError) else ActionError
    cls = type(err) if type(err).__init__ is base.__init__ else base
    return cls(*_err_args(err, index))


#: Why a spectator's copy takes no move.
READ_ONLY = ("This is a spectator's copy: it shows what the table could see and takes no moves "
             "(open the full game's link to play on)")


def _checked_game(game: Any) -> Game:
    if not isinstance(game, Game):
        raise GameError(f"Not a game: {type(game).__name__} (make one with new_game)")
    return game


def _canonical(mod: ModuleType, state: Any, action: Any, rules: Mapping[str, Any]) -> FrozenDict:
    if not isinstance(action, Mapping):
        raise ActionError("An action must be an object with a type")
    data = json_data(action)
    if hasattr(mod, "normalize_action"):
        data = json_data(mod.normalize_action(state, thaw(data), rules))
    return data


def normalize_action(game: Game, action: Mapping[str, Any]) -> dict[str, Any]:
    """The canonical form of ``action`` at the game's current position, or the
    :class:`RuleError` / :class:`ActionError` that would refuse it (nothing changes).

    Uses the system's ``normalize_action`` where it has one; otherwise the action
    is only checked to be JSON data.
    """
    game = _checked_game(game)
    return thaw(_canonical(system(game.kind), replay(game), action, game.rules))


def _app_move(mod: ModuleType, game: Game, state: Any, action: Mapping[str, Any]) -> None:
    """HR-AI-14, HR-OIC-4: a move of a side the app plays is taken only as the app makes it (the
    system's ``check_app_move``; the app's own decision is remembered, so asking costs nothing),
    so every game the app makes passes :func:`check_app_moves` when its link is opened."""
    check_move = getattr(mod, "check_app_move", None)
    if check_move is not None:
        check_move(game, state, action)


def check(game: Game, action: Mapping[str, Any]) -> None:
    """Raise the :class:`RuleError` / :class:`ActionError` that refuses ``action`` at the
    game's current position; return ``None`` when it is allowed. Changes nothing."""
    _stepped(game, action)


def _stepped(game: Game, action: Mapping[str, Any]) -> tuple[Game, FrozenDict, Any, random.Random]:
    """``action`` taken at the game's current position, as :func:`check` and :func:`apply`
    both ask it: the checked game, the canonical action, the new state and the generator
    after it; raises what refuses it (a spectator copy takes no move)."""
    game = _checked_game(game)
    if is_spectator(game):
        raise ActionError(READ_ONLY)
    mod = system(game.kind)
    state, rng = _replay(game, game.position)
    canonical = _canonical(mod, state, action, game.rules)
    _app_move(mod, game, state, canonical)
    return game, canonical, mod.step(state, thaw(canonical), game.rules, rng), rng


def can_apply(game: Game, action: Mapping[str, Any]) -> bool:
    """Whether the rules allow ``action`` now (see :func:`check` for why not)."""
    try:
        check(game, action)
    except (RuleError, ActionError):
        return False
    return True


def apply(game: Game, action: Mapping[str, Any]) -> Game:
    """The game with ``action`` taken at the current position; the redo stack is dropped.

    The game keeps the canonical form of the action (see :func:`normalize_action`),
    never the caller's own objects. Raises :class:`RuleError` / :class:`ActionError`
    and leaves ``game`` unchanged when the action is refused.
    """
    game, canonical, new_state, rng = _stepped(game, action)
    actions = game.actions[: game.position] + (canonical,)
    longer = replace(game, actions=actions, position=len(actions), _tip=(len(actions), new_state, rng.getstate()))
    if replay_work(longer) > MAX_REPLAY_WORK:
        raise TooLong("This game's history is as long as the app can reopen on a tablet in about a second: "
                      "save it and go on in a new game")
    work = app_move_work(longer)
    if work > MAX_APP_MOVE_WORK and work > app_move_work(replace(game, actions=actions[:-1])):
        raise TooLong("This game has as many of the app's moves as its link can carry with each one "
                      "checked (HR-AI-14, HR-OIC-4): save it and go on in a new game")
    return longer


def undo(game: Game) -> Game:
    """One action back (it stays on the redo stack)."""
    if not _checked_game(game).can_undo:
        raise ValueError("Nothing to undo")
    return replace(game, position=game.position - 1, _tip=None)


def redo(game: Game) -> Game:
    """Take the next action of the redo stack again (same dice, same cards)."""
    if not _checked_game(game).can_redo:
        raise ValueError("Nothing to redo")
    return replace(game, position=game.position + 1, _tip=None)


def goto(game: Game, position: int) -> Game:
    """Jump to any point of the history (the later actions stay redoable)."""
    game = _checked_game(game)
    if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position <= len(game.actions):
        raise GameError(f"No such point in the history: {brief_repr(position)}")
    return replace(game, position=position, _tip=None)


def history(game: Game) -> list[str]:
    """A label for every action of the game (redo stack included), in order."""
    mod = system(_checked_game(game).kind)
    state, rng = _start(game)
    labels = []
    for action in game.actions:
        labels.append(mod.describe(state, action))
        state = mod.step(state, action, game.rules, rng)
    return labels


def validate(game: Game) -> Game:
    """Check every field and replay every action; returns the canonical game.

    Every action (the redo stack included) is replaced by its canonical form, so
    nothing the rules did not check is kept. Used on anything that comes from
    outside (a save, an import, a link). Raises a ``ValueError`` subclass with a
    player-readable message; a refused action's error says at which step.
    """
    game = _checked_game(game)
    if not isinstance(game.kind, str):
        raise UnknownKind(f"Unknown kind of game: {brief_repr(game.kind)}")
    if not isinstance(game.actions, tuple):
        raise GameError("A game's actions must be a list")
    if not isinstance(game.rules, Mapping) or not isinstance(game.setup, Mapping):
        raise GameError("A game's rules and setup must be objects")
    checked = _made_game(game.kind, game.setup, game.rules, game.seed)
    check_replay_work(game.kind, game.setup, game.actions)
    if not isinstance(game.position, int) or isinstance(game.position, bool) \
            or not 0 <= game.position <= len(game.actions):
        raise GameError("The saved position is outside the game's history")
    mod = system(game.kind)
    state, rng = _start(checked)
    canonical = []
    for index, action in enumerate(game.actions):
        if not isinstance(action, Mapping):
            raise ActionError(f"Step {index + 1} is not an action")
        try:
            action = _canonical(mod, state, action, checked.rules)
            state = mod.step(state, thaw(action), checked.rules, rng)
        except (RuleError, ActionError) as err:
            raise _at_step(err, index) from None
        canonical.append(action)
    return replace(checked, actions=tuple(canonical), position=game.position)
