"""Issue 35, item 1: forged chance is refused. What the app's generator decides — every
roll, every deal — comes from the game's seed on
replay, never from a move or a link: a link that says otherwise is refused with the
clause, and nothing is opened. Item 5: a refusal of missing dice is a player's sentence,
raised as a plain ActionError. One test (or a few) per system."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from engine import ascension as ai
from engine import codec
from engine import consim as cs
from engine.codec import ShareError
from engine.game import ActionError, RuleError, apply, new_game, replay

from .consim_kit import deal, man, roster, shoot
from .test_ascension import gen, setup, unit


def forged(game, *actions):
    """``game`` with ``actions`` written after its own, as a link's sender could."""
    acts = game.actions[: game.position] + tuple(actions)
    return replace(game, actions=acts, position=len(acts), _tip=None)


def refused_link(game, *actions) -> str:
    with pytest.raises(ShareError) as caught:
        codec.decode_share(codec.encode_share(forged(game, *actions)))
    return str(caught.value)


def opens(game):
    """The game as a link and as a save opens again, unchanged."""
    assert codec.decode_share(codec.encode_share(game)) == game
    assert codec.loads(codec.dumps(game))[0] == game


# ---------------------------------------------------------------------------
# Battle (Ascension Isle): the app's dice (HR-AI-7) and the app's general (HR-AI-13)

BATTLE = setup([unit("N1", 3, 3, 2, size=4), unit("N2", 2, 2, 2, size=3)],
               [unit("S1", 3, 3, 2, size=4), unit("S2", 2, 2, 2, size=3)])


def revealed(rules=None, seed=7):
    game = new_game("battle", BATTLE, rules, seed)
    game = apply(game, {"type": "bid", "side": 0, "maneuver": "attack"})
    game = apply(game, {"type": "bid", "side": 1, "maneuver": "defend"})
    return apply(game, {"type": "reveal"})


def test_battle_with_the_apps_dice_refuses_dice_successes_and_range_rolls_from_a_link():
    game = revealed()
    pools = ai.week_pools(replay(game))
    crushing = {"type": "roll", "dice": [[6] * pools[0].dice, [1] * pools[1].dice]}
    for roll in (crushing, {"type": "roll", "successes": [pools[0].dice, 0]},
                 {"type": "roll", "successes": [2, 0], "ranges": [3, None]}):
        with pytest.raises(RuleError, match="^HR-AI-7: this battle is played with the app's dice") as caught:
            apply(game, roll)
        assert "no move or link can say what they rolled" in str(caught.value)
        message = refused_link(game, roll)
        assert "HR-AI-7" in message and "app's dice" in message and "step 4" in message
    # The app's own roll: the stored form the app itself writes, and it opens again.
    rolled = apply(game, {"type": "roll"})
    assert rolled.actions[-1] == {"type": "roll"}
    opens(rolled)
    # The table's own dice are still entered as facts (HR-AI-7 variant).
    table = revealed({"dice": ai.DICE_TABLE})
    entered = apply(table, crushing)
    assert replay(entered).weeks[-1].dice == tuple(tuple(d) for d in crushing["dice"])
    opens(entered)
    # A spectator's copy records the app's dice (seed 0) and still opens, read-only.
    copy_ = ai.public_game(rolled)
    assert "dice" in copy_.actions[-1]
    assert codec.decode_share(codec.encode_share(copy_)) == copy_


def app_battle(level="normal", seed=11):
    raw = copy.deepcopy(BATTLE)
    raw["armies"][1].update(controller="app", level=level)
    raw["armies"][1]["general"] = gen(2)
    return new_game("battle", raw, None, seed)


# ---------------------------------------------------------------------------
# Initiative (CONSIM): the app's deck (HR-CS-6) and the app's dice (HR-CS-7)

def consim_game(rules=None):
    return new_game(cs.KIND, roster(man("Blue 1", 0, weapon=["automatic"]), man("Red 1", 1)), rules, 3)


def test_initiative_with_the_apps_deck_and_dice_refuses_cards_and_dice_from_a_link():
    game = consim_game()
    rigged = deal("AS", "2C")  # Blue 1 acts first, by choice
    with pytest.raises(RuleError, match="^HR-CS-6: this game is played with the app's deck"):
        apply(game, rigged)
    assert "HR-CS-6" in refused_link(game, rigged)
    dealt = apply(game, {"type": "deal"})
    assert dealt.actions[-1] == {"type": "deal"}
    state = replay(dealt)
    shooter = cs.acting(state)
    target = 1 - shooter
    sure_kill = shoot(shooter, target, dice=[{"d10": 10, "d6": 6}])
    with pytest.raises(RuleError, match="^HR-CS-7: this game is played with the app's dice"):
        apply(dealt, sure_kill)
    assert "HR-CS-7" in refused_link(dealt, sure_kill)
    shot = apply(dealt, shoot(shooter, target))
    assert "dice" not in shot.actions[-1]
    opens(shot)
    # Countdown dice at the end of a round are the app's too.
    with pytest.raises(RuleError, match="^HR-CS-7"):
        apply(dealt, {"type": "end_round", "dice": {str(target): 6}})
    # With the table's own deck and dice the same facts are entered (HR-CS-6/7).
    own = consim_game({"deck": cs.DECK_TABLE, "dice": cs.DICE_TABLE})
    own = apply(own, rigged)
    shooter = cs.acting(replay(own))
    own = apply(own, shoot(shooter, 1 - shooter, dice=[{"d10": 10, "d6": 6}]))
    opens(own)
    # A spectator's copy records the app's cards and dice and opens, read-only.
    copy_ = cs.public_game(shot)
    assert "cards" in copy_.actions[0]
    assert codec.decode_share(codec.encode_share(copy_)) == copy_


# ---------------------------------------------------------------------------
# Campaign: already refused (CMP-12); kept here so every system is covered

def test_campaign_with_the_apps_deck_refuses_dice_and_cards_from_a_link():
    from engine import campaign as cmp

    game = new_game(cmp.KIND, {"players": ["Anna", "Ben"]}, None, 5)
    with pytest.raises(RuleError, match="^CMP-12: the app rolls the exhaustion dice itself"):
        apply(game, {"type": "roll", "dice": [6, 6]})
    assert "CMP-12" in refused_link(game, {"type": "roll", "dice": [6, 6]})
    assert "the app's deck" in refused_link(game, {"type": "deal", "pool": ["AS", "KS", "QS", "JS"]})


# ---------------------------------------------------------------------------
# Item 5: a missing roll is refused in a player's words, as a plain ActionError

def test_a_missing_roll_is_a_players_sentence_and_a_plain_action_error():
    game = consim_game({"deck": cs.DECK_TABLE, "dice": cs.DICE_TABLE})
    game = apply(game, deal("AS", "2C"))
    shooter = cs.acting(replay(game))
    short = shoot(shooter, 1 - shooter, dice=[{"d10": 10}])  # a hit: the wound's d6 is missing
    with pytest.raises(ActionError) as caught:
        apply(game, short)
    assert type(caught.value) is ActionError
    assert str(caught.value) == ("The dice entered for Red 1 lack the d6 roll for the wound (CS-10): "
                                 "roll it and enter it")
    with pytest.raises(ActionError) as caught:
        cs.normalize_action(replay(game), short)
    assert type(caught.value) is ActionError
    message = refused_link(game, short)
    assert "__init__" not in message and "positional argument" not in message
    assert "lack the d6 roll for the wound (CS-10)" in message and "step 2" in message
    # The helper that asks for the next roll still names it.
    call = cs.next_roll(replay(game), short)
    assert (call.key, call.dice) == ("d6", "d6")
    # The refusal next_roll reads can be made from its message alone, like every ActionError.
    assert str(cs.MissingRoll("x")) == "x"
