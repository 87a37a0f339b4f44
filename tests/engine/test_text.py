"""Names typed by players (engine.text), the same in every system (issue 20)."""

from __future__ import annotations

import pytest

from engine import game as g
from engine.text import setup_text, text_problem


class Refused(ValueError):
    pass


@pytest.mark.parametrize("name", [
    "\u202eAnna",  # right-to-left override: "(derahs) neB sv annA"
    "An\u200bna",  # zero-width space
    "Ann\u00ada",  # soft hyphen
    "\u2066Ben\u2069",  # isolates
    "Ben\ufeff",  # zero-width no-break space
    "Ann\nBo", "Ann\x00", "An\x85n",  # line breaks and C0/C1 controls
])
def test_invisible_and_control_characters_are_refused(name):
    assert text_problem(name)
    with pytest.raises(Refused, match=r"^Player 1: the name contains"):
        setup_text(name, "Player 1", "name", error=Refused)


@pytest.mark.parametrize("name", ["Anna", "Zoë", "محمد", "李雷", "Ørjan ♠ 10", "Jean-Luc O'Neill"])
def test_ordinary_names_in_any_script_are_kept(name):
    assert text_problem(name) is None and setup_text(f"  {name} ", "Player 1", "name", error=Refused) == name


@pytest.mark.parametrize("kind, setup", [
    ("conflict", lambda name: _conflict(name)),
    ("campaign", lambda name: {"players": [name, "Ben"]}),
])
def test_every_system_refuses_a_right_to_left_override_in_a_name(kind, setup):
    with pytest.raises(ValueError, match="invisible formatting character"):
        g.new_game(kind, setup("\u202eAnna"), None, 1)


def _conflict(name):
    from engine import conflict

    setup = conflict.purple_dragon_setup()
    setup["sides"][0]["name"] = name
    return setup
