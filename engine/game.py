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
    a game that shows only public information (spectator links);
``SPECTATOR_VIEW``
    what that public copy shows, in players' words (the Share drawer says it).
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any, Mapping

from .rules import resolve_rules

#: The four systems, by kind. Imported on first use.
SYSTEM_MODULES: dict[str, str] = {
    "conflict": "engine.conflict",
    "campaign": "engine.campaign",
    "initiative": "engine.consim",
    "battle": "engine.ascension",
}

#: Seeds are unsigned 32-bit integers (they travel in links and JSON).
MAX_SEED = 2**32 - 1


class RuleError(ValueError):
    """An action the rules forbid. ``str()`` starts with the rule id."""

    def __init__(self, rule_id: str, message: str):
        super().__init__(f"{rule_id}: {message}")
        self.rule_id = rule_id
        self.message = message


class ActionError(ValueError):
    """An action that is not well formed (unknown type, missing or bad field)."""


class UnknownKind(ValueError):
    """A game kind the app does not know (yet)."""


def system(kind: str) -> ModuleType:
    """The module that implements the rules of ``kind``."""
    try:
        name = SYSTEM_MODULES[kind]
    except (KeyError, TypeError):
        raise UnknownKind(f"Unknown kind of game: {kind!r}") from None
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        raise UnknownKind(f"The {kind} table is not built yet") from None


@dataclass(frozen=True, eq=False)
class Game:
    """A game: kind, rules settings, setup, seed, actions, and how many are in force."""

    kind: str
    seed: int
    rules: Mapping[str, Any]
    setup: Mapping[str, Any]
    actions: tuple[Mapping[str, Any], ...] = ()
    position: int = 0
    # Replay cache: (position, state, rng state) of the last replay. Not part of the game.
    _tip: Any = field(default=None, repr=False, compare=False)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (self.kind, self.seed, dict(self.rules), dict(self.setup), list(self.actions), self.position) == (
            other.kind, other.seed, dict(other.rules), dict(other.setup), list(other.actions), other.position)

    __hash__ = None  # type: ignore[assignment]

    @property
    def can_undo(self) -> bool:
        return self.position > 0

    @property
    def can_redo(self) -> bool:
        return self.position < len(self.actions)


def new_seed() -> int:
    """A fresh random seed from the operating system."""
    return random.SystemRandom().randint(0, MAX_SEED)


def new_game(kind: str, setup: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
             seed: int | None = None) -> Game:
    """A new game of ``kind``; validates setup and rules and checks that it starts."""
    mod = system(kind)
    if seed is None:
        seed = new_seed()
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise ValueError("The seed must be a whole number from 0 to 4294967295")
    game = Game(kind, seed, resolve_rules(mod.VARIANTS, rules), mod.normalize_setup(setup))
    replay(game)
    return game


def _start(game: Game) -> tuple[Any, random.Random]:
    mod = system(game.kind)
    rng = random.Random(game.seed)
    return mod.start(game.setup, game.rules, rng), rng


def replay(game: Game, upto: int | None = None) -> Any:
    """The state after the first ``upto`` actions (default: ``game.position``)."""
    return _replay(game, game.position if upto is None else upto)[0]


def _replay(game: Game, upto: int) -> tuple[Any, random.Random]:
    if not 0 <= upto <= len(game.actions):
        raise ValueError(f"No such point in the history: {upto}")
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
            raise type(err)(*_err_args(err, index)) from None
    return state, rng


def _err_args(err: ValueError, index: int) -> tuple:
    if isinstance(err, RuleError):
        return (err.rule_id, f"{err.message} (action {index + 1})")
    return (f"{err} (action {index + 1})",)


def apply(game: Game, action: Mapping[str, Any]) -> Game:
    """The game with ``action`` taken at the current position; the redo stack is dropped.

    Raises :class:`RuleError` / :class:`ActionError` and leaves ``game`` unchanged
    when the action is refused.
    """
    mod = system(game.kind)
    if not isinstance(action, Mapping):
        raise ActionError("An action must be an object with a type")
    state, rng = _replay(game, game.position)
    action = dict(action)
    new_state = mod.step(state, action, game.rules, rng)
    actions = game.actions[: game.position] + (action,)
    return replace(game, actions=actions, position=len(actions), _tip=(len(actions), new_state, rng.getstate()))


def undo(game: Game) -> Game:
    """One action back (it stays on the redo stack)."""
    if not game.can_undo:
        raise ValueError("Nothing to undo")
    return replace(game, position=game.position - 1, _tip=None)


def redo(game: Game) -> Game:
    """Take the next action of the redo stack again (same dice, same cards)."""
    if not game.can_redo:
        raise ValueError("Nothing to redo")
    return replace(game, position=game.position + 1, _tip=None)


def goto(game: Game, position: int) -> Game:
    """Jump to any point of the history (the later actions stay redoable)."""
    if not isinstance(position, int) or not 0 <= position <= len(game.actions):
        raise ValueError(f"No such point in the history: {position}")
    return replace(game, position=position, _tip=None)


def history(game: Game) -> list[str]:
    """A label for every action of the game (redo stack included), in order."""
    mod = system(game.kind)
    state, rng = _start(game)
    labels = []
    for action in game.actions:
        labels.append(mod.describe(state, action))
        state = mod.step(state, action, game.rules, rng)
    return labels


def validate(game: Game) -> Game:
    """Check every field and replay every action; returns the canonical game.

    Used on anything that comes from outside (a save, an import, a link). Raises a
    ``ValueError`` subclass with a player-readable message.
    """
    checked = new_game(game.kind, game.setup, game.rules, game.seed)
    if not isinstance(game.position, int) or not 0 <= game.position <= len(game.actions):
        raise ValueError("The saved position is outside the game's history")
    for index, action in enumerate(game.actions):
        if not isinstance(action, Mapping):
            raise ActionError(f"Action {index + 1} is not an action")
    checked = replace(checked, actions=tuple(dict(a) for a in game.actions), position=game.position)
    _replay(checked, len(checked.actions))  # every action, the redo stack included
    return checked
