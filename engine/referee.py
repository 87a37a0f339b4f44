"""The referee's tools: one way for every system to read the fields of an action.

A system's ``normalize_action`` (see :mod:`engine.game`) checks an action's exact
shape with these and returns its canonical form; ``step`` refuses the same
things. A malformed action (unknown type or field, wrong type, a number out of
range) is an :class:`~engine.game.ActionError`; a move the rules forbid is a
:class:`~engine.game.RuleError` citing its clause. Messages are for players.

The last few read what nothing has checked yet, leaving the refusals to the checks that
follow: a history label's side or unit (:func:`index_in`), the pieces a setup lists for
the replay's work (:func:`listed_count`, issue 30), an earlier version's save for its
upgrade (:func:`old_game`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sized
from typing import Any

from .cards import Card, CardError, clean_cards, parse_card
from .game import ActionError, ArgumentError, RuleError
from .text import brief_repr, text_problem


def action_type(action: Any, types: Iterable[str]) -> str:
    """The ``type`` of ``action``, one of ``types`` (an :class:`ActionError` otherwise)."""
    types = tuple(types)
    if not isinstance(action, Mapping):
        raise ActionError("An action must be an object with a type")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in types:
        raise ActionError(f"Unknown action type: {brief_repr(kind)} ({', '.join(types)})")
    return kind


def only(action: Mapping[str, Any], required: Iterable[str] = (), optional: Iterable[str] = ()) -> None:
    """Refuse an action that lacks one of ``required`` or carries a field that is
    neither ``required``, ``optional`` nor ``type``."""
    required, optional = tuple(required), tuple(optional)
    if not isinstance(action, Mapping):
        raise ActionError("An action must be an object with a type")
    kind = action.get("type")
    for key in required:
        if key not in action:
            raise ActionError(f"A {kind} action needs its '{key}'")
    known = {"type", *required, *optional}
    unknown = sorted((key for key in action if key not in known),
                     key=lambda key: (0, key) if isinstance(key, str) else (1, brief_repr(key)))
    if unknown:
        fields = ", ".join(["type", *required, *optional])
        raise ActionError(f"A {kind} action has no field {brief_repr(unknown[0])} (its fields: {fields})")


def _refusal(rule: str | None, message: str) -> ValueError:
    return RuleError(rule, message) if rule else ActionError(message[:1].upper() + message[1:])


def whole(value: Any, what: str, low: int, high: int, *, rule: str | None = None) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (``True`` is not a number).

    Refused with ``RuleError(rule, …)`` when ``rule`` is given (a number a player typed
    that the rules bound), an :class:`ActionError` otherwise.
    """
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _refusal(rule, f"{what} must be a whole number from {low} to {high} (got {brief_repr(value)})")
    return int(value)


def flag(value: Any, what: str) -> bool:
    """``value`` as ``True`` or ``False`` (nothing else)."""
    if not isinstance(value, bool):
        raise ActionError(f"{what[:1].upper() + what[1:]} must be true or false (got {brief_repr(value)})")
    return value


def one_of(value: Any, what: str, choices: Iterable[Any]) -> Any:
    """``value`` when it is one of ``choices`` (compared with its type: ``True`` is not 1)."""
    choices = tuple(choices)
    for choice in choices:
        if value == choice and type(value) is type(choice):
            return choice
    shown = ", ".join(brief_repr(c) for c in choices)
    raise ActionError(f"{what[:1].upper() + what[1:]} must be one of {shown} (got {brief_repr(value)})")


def card(value: Any, what: str = "the card") -> Card:
    """One card from a :class:`Card` or a token (``"as"`` → A♠)."""
    try:
        return parse_card(value)
    except CardError as err:
        raise ActionError(f"{what[:1].upper() + what[1:]}: {err}") from None


def cards(value: Any, what: str = "the cards", *, unique: bool = True) -> tuple[Card, ...]:
    """Cards from a list of :class:`Card` s or tokens (each once, when ``unique``)."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise ActionError(f"{what[:1].upper() + what[1:]} must be a list of cards (got {brief_repr(value)})")
    try:
        return clean_cards(value, unique=unique, what=what)
    except CardError as err:
        raise ActionError(str(err)) from None


def line(value: Any, what: str, max_len: int) -> str:
    """One line of text of at most ``max_len`` characters (a log's "why" …)."""
    if not isinstance(value, str) or len(value) > max_len or text_problem(value):
        raise ActionError(f"{what[:1].upper() + what[1:]} must be one line of text (at most {max_len} characters)")
    return value


# ---------------------------------------------------------------------------
# Reading what was never checked: history labels, the replay's work, earlier saves


def index_in(value: Any, items: Sized) -> int | None:
    """``value`` when it is a whole number that names one of ``items`` (0 … len − 1), else
    ``None``: how a history label reads a side, a unit or a combatant it does not trust."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(items):
        return value
    return None


def listed_count(data: Any, *keys: str) -> int:
    """Issue 30: how many pieces an unchecked setup lists at the end of ``keys``, read
    defensively: ``listed_count(setup, "sides", "players", "organizations")`` counts every
    organization of every player of every side; anything that is not an object, or a list
    where a list belongs, counts none (the checks that follow refuse it)."""
    listed = data.get(keys[0]) if isinstance(data, Mapping) else None
    if not isinstance(listed, (list, tuple)):
        return 0
    if len(keys) == 1:
        return len(listed)
    return sum(listed_count(item, *keys[1:]) for item in listed)


def old_game(data: Any, refusal: str) -> tuple[dict[str, Any], dict[str, Any] | None, list[Any] | None]:
    """A game saved by an earlier version, read for a system's ``upgrade``: a copy of the
    object, and copies of its setup and its actions where they are an object and a list
    (``None`` where not: the checks that follow refuse them with their reasons). Data that
    is not an object at all is an :class:`~engine.game.ArgumentError` saying ``refusal``."""
    if not isinstance(data, Mapping):
        raise ArgumentError(refusal)
    out = dict(data)
    setup, actions = out.get("setup"), out.get("actions")
    return (out, dict(setup) if isinstance(setup, Mapping) else None,
            list(actions) if isinstance(actions, (list, tuple)) else None)
