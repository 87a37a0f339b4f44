"""The system protocol in code (issue 31): every system provides every required name of
:class:`engine.system.System`, and nothing but the documented optional hooks."""

from __future__ import annotations

import doctest
import importlib

import pytest

from engine import game as games
from engine import system

SYSTEMS = sorted(games.SYSTEM_MODULES)


@pytest.mark.parametrize("kind", SYSTEMS)
def test_every_system_provides_the_protocol(kind):
    module = games.system(kind)
    assert system.missing(module) == []
    assert isinstance(module, system.System)
    assert module.KIND == kind
    assert isinstance(module.ACTION_TYPES, tuple) and module.ACTION_TYPES
    assert all(isinstance(name, str) for name in module.ACTION_TYPES)


@pytest.mark.parametrize("kind", SYSTEMS)
def test_a_systems_face_says_its_public_names(kind):
    """Its ``__all__`` is true: every name in it exists, and every required name is in it."""
    module = games.system(kind)
    names = set(module.__all__)
    assert all(hasattr(module, name) for name in names)
    assert not [name for name in names if name.startswith("_")]
    required = [n for n in system.System.__annotations__] + ["normalize_setup", "start", "step",
                                                             "normalize_action", "describe", "public_game"]
    assert set(required) <= names


def test_a_hook_that_is_not_one_is_a_bug_not_an_absent_hook():
    with pytest.raises(KeyError, match="not a system hook"):
        system.hook(games.system("battle"), "undo_warnings")
    assert system.hook(games.system("battle"), "undo_warning") is not None


MODULES_WITH_DOCTESTS = ["engine.poker", "engine.campaign.poker", "engine.zerosum", "engine.cards", "engine.text"]


@pytest.mark.parametrize("name", MODULES_WITH_DOCTESTS)
def test_the_doctests_run(name):
    module = importlib.import_module(name)
    failed, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert failed == 0
    if name in ("engine.poker", "engine.campaign.poker", "engine.zerosum"):
        assert tried > 0


SEAT_HOOKS = ("seats", "seat_private", "seat_action")


def test_the_seat_hooks_are_documented_hooks():
    assert set(SEAT_HOOKS) <= set(system.OPTIONAL_HOOKS)
    for name in SEAT_HOOKS:
        assert "seat" in system.OPTIONAL_HOOKS[name]


@pytest.mark.parametrize("kind", SYSTEMS)
def test_every_system_gives_its_seats_through_the_hooks(kind):
    """Issue 32: each system says its seats, what each sees and whose move is whose; the
    hooks are in its face's ``__all__``."""
    module = games.system(kind)
    for name in SEAT_HOOKS:
        assert callable(system.hook(module, name)), name
        assert name in module.__all__
