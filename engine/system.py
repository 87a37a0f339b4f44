"""The system protocol: what a game system (a table's rules) gives the kernel (issue 31).

A *system* is a package (``engine.conflict``, ``engine.campaign``, ``engine.consim``,
``engine.ascension``) whose face (its ``__init__``) provides the names below.
:mod:`engine.game` replays a game through them, :mod:`engine.codec` saves and shares
it, :mod:`engine.record` prints it, and the browser's session (``web/session.py``)
asks the optional hooks. :class:`System` is the required part as a
:class:`typing.Protocol`; :data:`OPTIONAL_HOOKS` the optional hooks and what each
means. ``tests/engine/test_system_protocol.py`` checks all four systems against both.

The one question "may this be done?" has one shape in every system (as in PokerKit):
``check_*`` raises the :class:`engine.game.RuleError` with the clause, ``can_*``
answers ``True``/``False``, and :func:`engine.game.apply` (through ``step``) does it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

from .rules import Variant


@runtime_checkable
class System(Protocol):
    """The names every system provides (a module or package satisfies it structurally)."""

    #: The kind string saves and links carry (``"conflict"``, ``"campaign"``,
    #: ``"initiative"``, ``"battle"``): never changes, or old saves stop opening.
    KIND: str
    #: The RULES.md variants a group can switch (:class:`engine.rules.Variant`).
    VARIANTS: tuple[Variant, ...]
    #: What the spectator copy shows, in players' words (the Share drawer says it).
    SPECTATOR_VIEW: str
    #: Every action type the referee knows, in the order the rules reference names them.
    ACTION_TYPES: tuple[str, ...]

    def normalize_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """Validated, canonical JSON setup; raises :class:`engine.game.SetupError` (a
        ``ValueError``) with a player-readable message naming the field."""

    def start(self, setup: Mapping[str, Any], rules: Mapping[str, Any] | None,
              rng: random.Random) -> Any:
        """The state before any action (may shuffle and deal with ``rng``, the game's only
        generator)."""

    def step(self, state: Any, action: Mapping[str, Any], rules: Mapping[str, Any] | None,
             rng: random.Random | None) -> Any:
        """A new state after ``action``; never mutates ``state``; raises ``RuleError`` for a
        move the rules forbid, ``ActionError`` for a malformed one."""

    def normalize_action(self, state: Any, action: Mapping[str, Any],
                         rules: Mapping[str, Any] | None) -> dict[str, Any]:
        """The canonical form of ``action`` in ``state`` (exact shape, no unknown field),
        or the ``ActionError``/``RuleError`` ``step`` would raise: the referee's one check,
        shared by ``step``, the views and the link decoder."""

    def describe(self, state: Any, action: Mapping[str, Any]) -> str:
        """A short label of ``action`` taken in ``state``, for the history (never a hidden
        card or bid)."""

    def public_game(self, game: Any) -> Any:
        """The spectator copy of ``game``: public information only, read-only."""


#: The optional hooks, by name, with what each means. The kernel and the browser ask
#: them with ``getattr(system, name, None)``; a system without one gets the default.
OPTIONAL_HOOKS: dict[str, str] = {
    "upgrade": "upgrade(data) -> dict: a game saved by an earlier version (before save schema 3) made to "
               "replay as it was played (engine.codec)",
    "standing": "standing(state) -> str: where the game stands in a few words, for the list of saves",
    "status": "status(state) -> str: what happens now, one line (the record's last line)",
    "equipment": "equipment(setup, rules) -> str: whose cards and dice the game is played with",
    "undo_warning": "undo_warning(game, position) -> str | None: what undoing to position would un-reveal "
                    "or take back from another person, asked before Undo (web/session.py)",
    "replay_work": "replay_work(setup, actions) -> int: what replaying the actions costs, told before "
                   "replaying (engine.game.MAX_REPLAY_WORK; issue 30)",
    "check_app_move": "check_app_move(game, state, action) -> None: raise the RuleError (HR-AI-14, HR-OIC-4) "
                      "when action is a move of a side the app plays that the app does not make in state "
                      "(engine.game.check_app_moves: games from outside; issue 35)",
    "stamp_setup": "stamp_setup(setup) -> dict: a new game's setup naming the versions of today's app that a "
                   "save or a link must keep (the battle's app general's policy, HR-AI-15); engine.game.new_game "
                   "calls it, validate never",
    "app_move_work": "app_move_work(setup, actions) -> int: what checking the app's moves costs, told before "
                     "checking (engine.game.MAX_APP_MOVE_WORK)",
    "record_part": "record_part(state, game) -> (facts, sections): the system's part of the printable "
                   "record, made from the spectator copy (engine.record)",
    "seats": "seats(game) -> tuple[engine.seats.Seat, ...]: the seats a phone can take at this table, from the "
             "setup (its players, generals, player characters; the watch seat is the kernel's), issue 32",
    "seat_private": "seat_private(state, seat, advice) -> dict: what that seat alone may see beyond the "
                    "spectator copy, as JSON data (a hand, a sealed bid, advice when asked), engine.seats.seat_view",
    "seat_action": "seat_action(state, seat, action) -> dict: the action with the seat's own side or player "
                   "filled in, or engine.seats.SeatRefused when it is another seat's or the table's move",
    "SETTING_WORDS": "{key: words} for the parts of a free-form rules setting (the battle's house tables), "
                     "as the record says them",
    "RULINGS": "the ids of the RULES.md rulings this system applies (the record lists them)",
    "HOUSE_RULES": "{id: text} of the house rules this system applies (shown as house rules)",
    "rules_not_in_play": "rules_not_in_play(state) -> frozenset[str]: the ids among HOUSE_RULES that only "
                         "a choice of the game brings in and this game did not choose (HR-CS-8), left out "
                         "of its printed record (engine.record), so older games print as they did",
    "OPENING_RULES": "the ids among HOUSE_RULES about opening a game from outside (HR-AI-14, HR-OIC-4), "
                     "not part of a game's printed record (engine.record)",
}


def missing(module: ModuleType) -> list[str]:
    """The required names of :class:`System` that ``module`` lacks (empty: it is a system)."""
    names = [name for name in System.__annotations__] + [
        name for name, value in vars(System).items() if callable(value) and not name.startswith("_")]
    return [name for name in dict.fromkeys(names) if not hasattr(module, name)]


def hook(module: ModuleType, name: str) -> Any:
    """The optional hook ``name`` of a system, or ``None`` (``name`` must be one of
    :data:`OPTIONAL_HOOKS`: a misspelt hook is a bug, not an absent hook)."""
    if name not in OPTIONAL_HOOKS:
        raise KeyError(f"{name!r} is not a system hook (see engine.system.OPTIONAL_HOOKS)")
    return getattr(module, name, None)


__all__ = ["OPTIONAL_HOOKS", "System", "hook", "missing"]
