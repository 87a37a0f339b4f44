"""What is hidden stays hidden (issue 21): a campaign's spectator copy carries no hidden card
and no seed, at any point of any campaign; undoing past the negotiating table asks first.

``tests/engine/privacy.py`` looks for each hidden token in the copy's saved JSON, its
decoded share payload, the opened link and its history labels. The hidden tokens of a
campaign at a point are every card nobody has seen face up yet (the cards in hands, the
deck order) — as a JSON token (``"7H"``), a label (``7♥``) and a name (``seven of
hearts``) — and the game's 128-bit seed.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from engine import campaign as cmp
from engine import game as games
from engine.cards import full_deck
from engine.game import apply, new_game, replay
from tests.engine.privacy import assert_absent, spectator_texts
from tests.engine.test_campaign_referee import advance

DECK = full_deck()


def hidden_tokens(game) -> list[str]:
    state = replay(game)
    unseen = [c for c in DECK if c not in state.seen]
    return [f'"{c}"' for c in unseen] + [c.label for c in unseen] + [c.name for c in unseen] + [str(game.seed)]


@settings(max_examples=60, deadline=None)
@given(st.booleans(), st.integers(0, 10_000), st.floats(0, 1))
def test_a_spectators_copy_never_carries_a_hidden_card_or_the_seed(dummy, choice_seed, cut):
    game = new_game("campaign", {"players": ["Anna", "Ben"], "dummy": dummy})  # a secret 128-bit seed
    assert games.seed_is_secret(game.seed)
    game = advance(game, random.Random(choice_seed))
    game = games.goto(game, int(cut * len(game.actions)))
    state = replay(game)
    event(f"phase {state.phase}")
    tokens = hidden_tokens(game)
    assert len(tokens) > 1 or state.phase == "over"
    assert_absent(game, tokens)
    # The copy itself shows the same public table.
    copy = replay(cmp.public_game(game))
    assert (copy.pool, copy.stakes, copy.phase) == (state.pool, state.stakes, state.phase)


def test_a_copy_shows_the_cards_that_were_face_up():
    """The check above could pass on an empty copy: the public cards must be in it."""
    game = advance(new_game("campaign", {"players": ["Anna", "Ben"]}), random.Random(4),
                   lambda s: s.battle >= 3)
    state = replay(game)
    texts = spectator_texts(game)
    for card in state.seen:
        assert f'"{card}"' in texts["saved copy"]
    assert str(game.seed) in __import__("engine.codec", fromlist=["dumps"]).dumps(game)


def test_the_dummys_cards_stay_out_of_every_copy_until_the_table():
    game = advance(new_game("campaign", {"players": ["Anna", "Zed"], "dummy": True}), random.Random(9),
                   lambda s: s.phase == "exhausted")
    state = replay(game)
    assert state.phase == "exhausted"
    dummy_hidden = [c for c in state.hands[1] if c not in state.seen]
    assert dummy_hidden
    assert_absent(game, [f'"{c}"' for c in dummy_hidden] + [c.label for c in dummy_hidden])


# ---------------------------------------------------------------- undo past the table (issue 21)


def finished(dummy: bool = False):
    for seed in range(50):
        game = advance(new_game("campaign", {"players": ["Anna", "Ben"], "dummy": dummy}, seed=seed),
                       random.Random(seed))
        if replay(game).treaty is not None:
            return game
    raise AssertionError("no campaign reached the table")


def test_undoing_past_the_negotiating_table_asks_first():
    game = finished()
    table = len(game.actions) - 1
    assert game.actions[table] == {"type": "negotiate"}
    warning = cmp.undo_warning(game, table)
    assert warning is not None and warning.endswith("Go back anyway?")
    assert "both hands were laid down" in warning and "Anna and Ben" in warning and "CMP-7" in warning
    assert cmp.undo_warning(game, 0) == warning  # a jump in the History crosses it too
    # Once back before the table, going further back crosses nothing new.
    back = games.undo(game)
    assert cmp.undo_warning(back, back.position - 1) is None
    assert cmp.undo_warning(back, 0) is None
    solo = finished(dummy=True)
    assert "the dummy's too" in cmp.undo_warning(solo, solo.position - 1)


def test_undoing_a_battle_a_take_or_a_roll_asks_nothing():
    game = advance(new_game("campaign", {"players": ["Anna", "Ben"]}, seed=3), random.Random(3),
                   lambda s: s.phase == "exhausted")
    for position in range(game.position + 1):
        assert cmp.undo_warning(game, position) is None
    assert cmp.undo_warning(game, game.position) is None


@pytest.mark.parametrize("args", [(None, 0), ("game", 0), (games.Game("conflict", 1, {}, {}), 0)])
def test_undo_warning_refuses_what_is_not_a_campaign(args):
    with pytest.raises(ValueError):
        cmp.undo_warning(*args)


def test_undo_warning_refuses_a_point_that_is_not_behind():
    game = apply(new_game("campaign", {"players": ["Anna", "Ben"]}, seed=1), {"type": "battle", "winner": None})
    for position in (-1, 2, True, "0"):
        with pytest.raises(ValueError):
            cmp.undo_warning(game, position)
