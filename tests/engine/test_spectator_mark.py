"""Issue 30, item 8: a spectator's copy is marked by what it holds, not only by its
``"spectator"`` flag. A copy edited to drop the flag and opened as a link is either
refused with a clear message or still a spectator's copy (read-only) — never an ordinary,
playable game. For each system: a game with hidden information mid-play, its
``public_game``, the flag dropped, encoded (engine.codec.encode_share) and decoded."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from engine import ascension as ai
from engine import campaign as cmp
from engine import codec
from engine import conflict as oic
from engine import consim as cs
from engine.codec import ShareError
from engine.game import READ_ONLY, ActionError, apply, is_spectator, new_game, replay, system, thaw

from .consim_kit import man, roster
from .test_ascension import gen, setup, unit


def unflagged(game):
    """The spectator's copy of ``game`` with its ``"spectator"`` flag deleted, as a link."""
    public = system(game.kind).public_game(game)
    assert is_spectator(public)
    edited = thaw(public.setup)
    del edited["spectator"]
    return codec.encode_share(replace(public, setup=edited, _tip=None))


def refused_or_read_only(link, move) -> str | None:
    """The refusal's message, or None when the link opened as a spectator's copy (and
    then every move is refused)."""
    try:
        opened = codec.decode_share(link)
    except ShareError as err:
        return str(err)
    assert is_spectator(opened), "an edited spectator's copy opened as an ordinary game"
    with pytest.raises(ActionError) as caught:
        apply(opened, move)
    assert str(caught.value) == READ_ONLY
    return None


# ---------------------------------------------------------------------------
# Conflict: the copy keeps the game's own deck, so it replays only as a copy


def test_conflict_copy_without_its_flag_is_refused():
    game = new_game("conflict", oic.purple_dragon_setup(), None, 21)  # the app's deck: hands are hidden
    state = replay(game)
    for s in (state.aggressor, 1 - state.aggressor):
        game = apply(game, {"type": "discard", "side": s, "player": 0, "cards": []})
    state = replay(game)
    player, card = oic.legal_plays(state)[0]
    game = apply(game, {"type": "play", "player": player, "card": str(card)})
    public = oic.public_game(game)
    assert public.setup["deck"] == "app" and replay(public).deck_mode == "table"  # it replays the cards played
    assert codec.decode_share(codec.encode_share(public)) == public  # the copy itself still opens
    message = refused_or_read_only(unflagged(game), {"type": "pass"})
    assert message is not None and "OIC-8" in message and "discards" in message


# ---------------------------------------------------------------------------
# Battle: a copy's dice (app's dice), sealed bids and the app general's bids are facts
# only a copy may hold

BATTLE = setup([unit("N1", 3, 3, 2, size=4), unit("N2", 2, 2, 2, size=3)],
               [unit("S1", 3, 3, 2, size=4), unit("S2", 2, 2, 2, size=3)])


def battle_week(game):
    game = apply(game, {"type": "bid", "side": 0, "maneuver": "attack"})
    game = apply(game, {"type": "bid", "side": 1, "maneuver": "defend"})
    return apply(apply(game, {"type": "reveal"}), {"type": "roll"})


def test_battle_copy_without_its_flag_is_refused_after_a_roll():
    game = battle_week(new_game("battle", BATTLE, None, 4))  # the seed (the next dice) is hidden
    message = refused_or_read_only(unflagged(game), {"type": "bid", "side": 0, "maneuver": "attack"})
    assert message is not None and "HR-AI-7" in message and "app's dice" in message


def test_battle_copy_without_its_flag_is_refused_with_a_sealed_bid():
    game = new_game("battle", BATTLE, {"dice": ai.DICE_TABLE}, 4)
    game = apply(game, {"type": "bid", "side": 0, "maneuver": "withdraw"})  # sealed in the copy
    message = refused_or_read_only(unflagged(game), {"type": "bid", "side": 1, "maneuver": "attack"})
    assert message is not None and "AI-7" in message and "sealed bid" in message


def test_battle_copy_of_a_game_against_the_app_without_its_flag_is_refused():
    raw = copy.deepcopy(BATTLE)
    raw["armies"][1].update(controller="app", level="easy", general=gen(1))
    game = new_game("battle", raw, None, 9)
    game = apply(game, {"type": "bid", "side": 0, "maneuver": "attack"})
    game = apply(game, ai.app_bid(replay(game), 1, "easy", game.seed))
    game = apply(apply(game, {"type": "reveal"}), {"type": "roll"})  # the copy records the app's dice
    message = refused_or_read_only(unflagged(game), {"type": "bid", "side": 0, "maneuver": "attack"})
    assert message is not None and "HR-AI-7" in message


# ---------------------------------------------------------------------------
# Initiative: a copy always lists its "hidden" combatants (even none)


@pytest.mark.parametrize("privacy", [False, True])
def test_initiative_copy_without_its_flag_is_still_a_spectators_copy(privacy):
    setup_ = roster(man("Sgt. Rook", 0, player=True, weapon=["automatic"]), man("Sniper", 1),
                    man("Rifleman", 1), privacy=privacy)
    game = new_game(cs.KIND, setup_, None, 6)
    game = apply(game, {"type": "deal"})  # the deck order and the Observer's combatants are hidden
    assert refused_or_read_only(unflagged(game), {"type": "next"}) is None
    opened = codec.decode_share(unflagged(game))
    assert opened.setup["hidden"] == ([1, 2] if privacy else [])
    assert replay(opened).spectator


# ---------------------------------------------------------------------------
# Campaign: a copy carries its "reveal" (already so)


def test_campaign_copy_without_its_flag_is_still_a_spectators_copy():
    game = new_game(cmp.KIND, {"players": ["Anna", "Ben"]}, None, 12)  # hands and deck hidden
    game = apply(game, {"type": "battle", "winner": 0, "troops": 3})
    assert refused_or_read_only(unflagged(game), {"type": "take", "stake": True}) is None
