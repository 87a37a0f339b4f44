"""What is hidden stays hidden in a conflict's spectator copy (issue 21), with
tests/engine/privacy.py.

Random app-deck conflicts (teams, solo sides, every rules variant, the shared deck),
played a random number of moves and sometimes undone (a redo stack holds cards that
were never shown). The hidden tokens: every card that sat in a hand (or was drawn,
discarded, or played only on the redo stack) and was never played in the part of the
game in force, as its token ("9H") and its label ("9♥"); and the 128-bit seed. None may
appear in the spectator copy's saved JSON, its share payload, the opened link or its
history.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import event, given
from hypothesis import strategies as st

from engine import conflict as oic
from engine import game as games
from engine.cards import Card
from engine.conflict import opponent as solo
from tests.engine import privacy

NAMES = ("north", "south")


def org(name: str, power: int, suit: str) -> dict[str, Any]:
    return {"name": name, "power": power, "suit": suit, "location": "far away"}


@st.composite
def played_conflicts(draw) -> games.Game:
    sides = []
    for s, name in enumerate(NAMES):
        count = draw(st.integers(1, 3))
        players = [{"name": f"{name} player {'abc'[p]}", "organizations": []} for p in range(count)]
        for i, suit in enumerate(draw(st.lists(st.sampled_from("SHDC"), min_size=2, max_size=5))):
            players[i % count]["organizations"].append(org(f"{name} org {'abcde'[i]}", draw(st.integers(7, 16)), suit))
        side = {"name": name, "scope": "home", "players": players}
        if draw(st.booleans()):
            side.update(controller="app", level=draw(st.sampled_from(solo.LEVELS[:2])))
        sides.append(side)
    rules = {"trump_circle": draw(st.sampled_from(["cards", "introduction"])),
             "face_on_face": draw(st.sampled_from(["any", "higher"])),
             "deck": draw(st.sampled_from(["per-side", "shared"]))}
    game = games.new_game("conflict", {"sides": sides, "scope": "home", "aggressor": draw(st.integers(0, 1)),
                                       "deck": "app"}, rules)  # a seed of the app's own: 128 bits
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 60))):
        state = games.replay(game)
        if state.phase == "conflict-over":
            break
        turn = solo.app_turn(game, state)
        if turn is not None:
            action = solo.decide(state, *turn).action
        elif state.phase == "discard":
            s, p = solo.to_act(state)
            action = {"type": "discard", "side": s, "player": p,
                      "cards": [str(c) for c in state.hands[s][p] if rng.random() < 0.4]}
        elif state.phase == "round-over":
            action = {"type": "call"} if rng.random() < 0.05 else {"type": "next_round"}
        else:
            plays = oic.legal_plays(state)
            if plays and rng.random() < 0.9:
                p, card = rng.choice(plays)
                action = {"type": "play", "player": p, "card": str(card)}
            else:
                action = {"type": "pass"}
        game = games.apply(game, action)
    if game.actions and draw(st.booleans()):
        game = games.goto(game, draw(st.integers(0, len(game.actions))))
    return game


def hidden_cards(game: games.Game) -> set[Card]:
    """Every card a hand held at some point of the whole history (redo stack included),
    or that a discard threw away, less those played while the game stood at its position."""
    mod = games.system(game.kind)
    rng = random.Random(game.seed)
    state = mod.start(game.setup, game.rules, rng)
    seen: set[Card] = set()
    played: set[Card] = set()
    for index, action in enumerate(game.actions):
        for hands in state.hands:
            for hand in hands:
                seen.update(hand)
        for pile in state.draw_piles:
            seen.update(pile)
        state = mod.step(state, action, game.rules, rng)
        if action["type"] == "play" and index < game.position:
            played.add(Card.parse(action["card"]))
    for hands in state.hands:
        for hand in hands:
            seen.update(hand)
    return seen - played


@given(played_conflicts())
def test_no_hidden_card_and_no_seed_in_the_spectator_copy(game):
    hidden = hidden_cards(game)
    assert games.seed_is_secret(game.seed)
    tokens = [str(game.seed)] + [str(card) for card in hidden] + [card.label for card in hidden]
    event(f"{len(hidden) // 10 * 10}+ hidden cards")
    privacy.assert_absent(game, tokens)
    # The check itself can fail: a card played in force is in the copy.
    copy = privacy.spectator_texts(game)["saved copy"]
    for action in game.actions[:game.position]:
        if action["type"] == "play":
            assert f'"{action["card"]}"' in copy
