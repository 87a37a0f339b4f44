"""Hidden means absent (issue 21): a bid not yet revealed and the seed never reach a battle's
spectator copy — its saved JSON, its share payload, the opened link or its history — while
who has declared is public (a sealed placeholder) and the copy replays the same battle.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ascension as ai
from engine import codec
from engine import game as games
from engine.game import apply, new_game, replay

from .privacy import assert_absent, spectator_texts
from .test_ascension import gen, setup, unit

ARMIES = setup([unit("North Line", 4, 5, 3, size=99), unit("North Guns", 2, 4, 1, traits=["long range"], size=99)],
               [unit("South Line", 3, 4, 4, size=99), unit("South Scouts", 1, 2, 5, traits=["scout"], size=99)],
               a_general=gen(3, ["observer"]), b_general=gen(3))

#: Stratagems that need nothing but a skilled general, by maneuver (distinctive keys to look for).
SECRET_STRATAGEMS = {"block": ["ambush", "encirclement"], "skirmish": ["raid", "guerrilla"],
                     "attack": ["flanking"], "shock": ["surprise"], "defend": [], "withdraw": []}


def tokens_of(bid: dict) -> list[str]:
    out = [f'"maneuver": "{bid["maneuver"]}"', f'"maneuver":"{bid["maneuver"]}"']
    out += [f'"{key}"' for key in bid["stratagems"]]
    return out


@settings(deadline=None)
@given(seed=st.integers(2**127, 2**128 - 1), secret=st.sampled_from(list(ai.MANEUVERS)), data=st.data())
def test_unrevealed_bids_and_the_seed_never_reach_the_spectator_copy(seed, secret, data):
    game = new_game("battle", ARMIES, None, seed)
    others = [m for m in ai.MANEUVERS if m != secret and m != "withdraw"]
    for _ in range(data.draw(st.integers(0, 3), label="weeks played")):
        pair = [data.draw(st.sampled_from(others), label="revealed maneuver") for _ in (0, 1)]
        for side in (0, 1):
            game = apply(game, {"type": "bid", "side": side, "maneuver": pair[side]})
        game = apply(game, {"type": "reveal"})
        game = apply(game, {"type": "roll"})
        if replay(game).phase == "over":
            break
    hidden: list[str] = [str(seed)]
    declared = []
    if replay(game).phase == "bid":
        for side in data.draw(st.sampled_from([(0,), (1,), (0, 1), (1, 0)]), label="who declares"):
            strats = SECRET_STRATAGEMS[secret][: data.draw(st.integers(0, 2), label="stratagems")]
            bid = {"type": "bid", "side": side, "maneuver": secret, "stratagems": strats}
            if secret == "withdraw":
                bid["rearguard"] = 1
            game = apply(game, bid)
            hidden += tokens_of(bid)
            declared.append(side)
    assert_absent(game, hidden)
    copy = ai.public_game(game)
    full, seen = replay(game), replay(copy)
    assert seen.weeks == full.weeks and seen.destroyed == full.destroyed
    # What is true stays true: who declared is said, not what.
    assert [b is not None for b in seen.bids] == [b is not None for b in full.bids]
    assert all(b.sealed for b in seen.bids if b is not None)
    if len(declared) == 2:
        assert "both armies have declared; waiting for the reveal" in ai.status(seen)
    texts = spectator_texts(game)
    assert json.loads(texts["saved copy"])["setup"]["spectator"] is True


def test_after_the_reveal_the_bids_are_public_and_before_it_they_are_not():
    game = new_game("battle", ARMIES, None, 2**127 + 12345)
    game = apply(game, {"type": "bid", "side": 0, "maneuver": "block", "stratagems": ["encirclement", "ambush"]})
    game = apply(game, {"type": "bid", "side": 1, "maneuver": "skirmish", "stratagems": ["guerrilla"]})
    assert_absent(game, ['"encirclement"', '"ambush"', '"guerrilla"', str(game.seed)])
    revealed = apply(game, {"type": "reveal"})
    texts = spectator_texts(revealed)
    assert '"encirclement"' in texts["saved copy"] and '"guerrilla"' in texts["share payload"]
    assert str(revealed.seed) not in texts["opened link"]
    # A copy of a copy stays a copy and shows no more.
    again = ai.public_game(codec.decode_share(codec.encode_share(ai.public_game(game))))
    assert games.is_spectator(again) and "encirclement" not in json.dumps(again.actions)
