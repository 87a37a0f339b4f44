"""Seeded random positions where the app decides, and what it decided (issue 33 "compute once",
issue 35: the app's moves are re-derived from the seed when a game arrives from outside).

``battle_cases`` and ``conflict_cases`` walk seeded random games (random armies, sides, rules
variants, house tables; random bids and plays for the people) and yield every position where
the app could decide, with a compact text of the decision (the move without its ``"why"``:
the wording may change, the move may not). ``tests/engine/app_policy.json`` holds what the
policy of the version that wrote it decided at each (``python -m tests.engine.app_policy_cases``
writes it); ``test_app_policy.py`` compares today's policy, cold and memoised, with it.

A change of what the app decides in some position makes every link of a game where that
position came up fail its check (HR-AI-14, HR-OIC-4): such a change is a new policy version
(docs/ARCHITECTURE.md, "The app's moves from outside").
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from engine import ascension as ai
from engine import conflict as oic
from engine.conflict import opponent

GOLDEN = Path(__file__).with_name("app_policy.json")

#: A house table set (AI-11) for some of the battles.
HOUSE = {"minor": {"shock": {"shock": "Inflict 2-5 casualties", "block": "Inflict 1-3 casualties"},
                   "block": {"withdraw": "Block Succeeds - inflict 2 casualties"}},
         "major": {"attack": {"defend": "Inflict 1-3 casualties"}}}


def move_text(action: dict[str, Any]) -> str:
    """The decision without its ``"why"``, as one canonical line."""
    return json.dumps({k: v for k, v in action.items() if k != "why"}, sort_keys=True, separators=(",", ":"))


def _unit(rng: random.Random, i: int, line: bool) -> dict[str, Any]:
    traits = ["infantry"] if line else rng.choice([["infantry"], ["scout"], ["long range"], ["observer"],
                                                    ["scout", "long range"], []])
    tough = rng.choice([(0, 0), (1, 0), (2, 0), (0, 1), (0, 2), (0, 3)])
    return {"name": f"U{i}", "attack": rng.randint(0, 6), "defense": rng.randint(0, 6),
            "mobility": rng.randint(0, 6), "traits": traits, "armour": tough[0], "size": tough[1]}


def battle_setup(rng: random.Random) -> tuple[dict[str, Any], dict[str, Any] | None]:
    armies = []
    for name in ("North", "South"):
        level = rng.choice([None, 0, 1, 2, 3])
        general = None if level is None else {"name": "G", "level": level,
                                              "traits": ["observer"] if rng.random() < 0.3 else []}
        count = rng.randint(1, 7)
        armies.append({"name": name, "units": [_unit(rng, i, i == 0) for i in range(count)], "vanguard": 0,
                       "general": general})
    rules = rng.choice([None, None, {"house_tables": HOUSE}, {"reads": "winner"}])
    return {"armies": armies}, rules


def _random_bid(rng: random.Random, state: Any, side: int) -> dict[str, Any]:
    maneuver = rng.choice(ai.MANEUVERS)
    keys = [s.key for s in ai.offered_stratagems(state, side, maneuver) if rng.random() < 0.4]
    return {"type": "bid", "side": side, "maneuver": maneuver, "stratagems": keys}


def battle_positions(count: int, seed: int = 41) -> Iterator[tuple[Any, str]]:
    """``count`` battle states at the bids (weeks of random bids rolled with the app's dice),
    each with a label (battle number and week)."""
    rng = random.Random(seed)
    made = 0
    battle = 0
    while made < count:
        setup, rules = battle_setup(rng)
        state = ai.start(setup, rules)
        dice = random.Random(rng.getrandbits(32))
        battle += 1
        while state.phase != "over" and made < count and state.week <= 6:
            yield state, f"battle {battle} week {state.week}"
            made += 1
            for side in (0, 1):
                state = ai.step(state, _random_bid(rng, state, side), rules)
            state = ai.step(state, {"type": "reveal"}, rules)
            state = ai.step(state, {"type": "roll"}, rules, dice)


def battle_cases(count: int = 60, seed: int = 41) -> Iterator[tuple[str, Any, int, str, int]]:
    """(label, state, side, level, game seed) for each position, side and level."""
    for state, label in battle_positions(count, seed):
        for side in (0, 1):
            for level in ai.LEVELS:
                yield f"{label} side {side} {level}", state, side, level, 1000 + len(label)


def conflict_positions(count: int, seed: int = 43) -> Iterator[tuple[Any, str]]:
    """``count`` conflict states where a side is to discard or play (random legal moves for
    both sides), each with a label."""
    from tests.bench_solo import balanced_setup

    rng = random.Random(seed)
    made = 0
    game_no = 0
    while made < count:
        setup, rules = balanced_setup(rng)
        setup = {**setup, "sides": [{**s, "controller": "app", "level": "easy"} for s in setup["sides"]]}
        deal = random.Random(rng.getrandbits(32))
        state = oic.start(setup, rules, deal)
        game_no += 1
        moves = 0
        while state.phase != "conflict-over" and made < count and moves < 60:
            if state.phase == "round-over":
                state = oic.step(state, {"type": "next_round"}, rules, deal)
                continue
            who = opponent.to_act(state)
            if who is None:
                break
            yield state, f"conflict {game_no} move {moves}"
            made += 1
            moves += 1
            # a random level plays on, so the positions are varied
            level = rng.choice(opponent.LEVELS)
            decision = opponent.decide(state, who[0], level)
            state = oic.step(state, decision.action, rules, deal)


def conflict_cases(count: int = 150, seed: int = 43) -> Iterator[tuple[str, Any, int, str]]:
    for state, label in conflict_positions(count, seed):
        side = opponent.to_act(state)[0]
        for level in opponent.LEVELS:
            yield f"{label} {level}", state, side, level


def conflict_against_the_app(level: str, moves: int = 60, seed: int = 5, both: bool = False,
                             decide: Callable[[Any, int, str], dict[str, Any]] | None = None) -> Any:
    """A game of a conflict with the app deck, side 1 played by the app at ``level`` (both sides
    with ``both``), as the board plays it: the app's moves are ``decide``'s (``opponent.decide``
    unless a caller's, given the state, side and level), the people's seeded random legal moves."""
    from engine.game import apply, new_game, replay
    from tests.bench_solo import balanced_setup

    rng = random.Random(seed)
    setup, rules = balanced_setup(rng)
    sides = [dict(side) for side in setup["sides"]]
    sides[1].update(controller="app", level=level)
    if both:
        sides[0].update(controller="app", level=level)
    game = new_game("conflict", {**setup, "sides": sides}, rules, seed)
    for _ in range(moves):
        state = replay(game)
        if state.phase == "conflict-over":
            break
        if state.phase == "round-over":
            game = apply(game, {"type": "next_round"})
            continue
        side, player = opponent.to_act(state)
        if state.levels[side] is not None:
            level_now = state.levels[side]
            game = apply(game, decide(state, side, level_now) if decide is not None
                         else opponent.decide(state, side, level_now).action)
        elif state.phase == "discard":
            hand = sorted(state.hands[side][player], key=str)
            game = apply(game, {"type": "discard", "side": side, "player": player,
                                "cards": [str(c) for c in hand if rng.random() < 0.3]})
        else:
            legal = oic.legal_plays(state)
            if legal:
                pl, card = rng.choice(sorted(legal, key=str))
                game = apply(game, {"type": "play", "side": side, "player": pl, "card": str(card)})
            else:
                game = apply(game, {"type": "pass", "side": side})
    return game


def decisions() -> dict[str, dict[str, str]]:
    """What today's policy decides at every case (the moves, without whys)."""
    battle = {label: move_text(ai.app_bid(state, side, level, seed))
              for label, state, side, level, seed in battle_cases()}
    conflict = {label: move_text(opponent.decide(state, side, level).action)
                for label, state, side, level in conflict_cases()}
    return {"battle": battle, "conflict": conflict}


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(decisions(), indent=0, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}", file=sys.stderr)
