"""The largest games the limits allow, for each system (issue 30, items 2 and 3).

Each builder returns a legal :class:`engine.game.Game` made through ``apply`` (so
every action is one the app itself would store), as large as the setup limits allow
and as long as asked: the armies, rosters and sides at their caps, a long history.
``make bench`` opens them as links and saves (tests/bench_replay.py), and the engine
tests check that opening any of them is either quick or refused at once
(tests/engine/test_replay_work.py). Deterministic: the seeds are fixed.
"""

from __future__ import annotations

import base64
import zlib
from typing import Any, Callable

from engine import solo
from engine.game import Game, TooLong, apply, new_game, replay

#: A battle's week of Block against Block, rolled with the app's dice.
WEEK = ({"type": "bid", "side": 0, "maneuver": "block", "stratagems": []},
        {"type": "bid", "side": 1, "maneuver": "block", "stratagems": []},
        {"type": "reveal"}, {"type": "roll"})


def battle(weeks: int, units: int = 200) -> Game:
    """Two armies of ``units`` armoured line units (99 / 99 / 99, armour 99: nobody dies),
    ``weeks`` weeks of Block against Block with the app's dice (fewer when the app's
    replay budget ends the history first)."""
    def unit(i: int) -> dict[str, Any]:
        return {"name": f"Unit {i + 1}", "attack": 99, "defense": 99, "mobility": 99,
                "traits": ["infantry", "line"], "armour": 99, "size": 0}

    setup = {"armies": [{"name": name, "units": [unit(i) for i in range(units)], "vanguard": 0,
                         "rearguard": 0, "general": None} for name in ("North", "South")]}
    game = new_game("battle", setup, seed=5)
    for _ in range(weeks):
        try:
            for action in WEEK:
                game = apply(game, action)
        except TooLong:  # as long as the app lets a battle grow
            break
    return game


def initiative(actions: int, combatants: int = 120) -> Game:
    """A roster of ``combatants`` (two sides, automatic weapons), round after round of a
    deal and every card's turn passed, ``actions`` actions in all."""
    people = [{"name": f"Soldier {i + 1}", "side": i % 2, "grain": "individual", "training": "trained",
               "weapon": ["automatic"], "player": i == 0} for i in range(combatants)]
    game = new_game("initiative", {"sides": ["Blue", "Red"], "combatants": people, "privacy": True}, seed=3)
    return _walk(game, actions, lambda g: ({"type": "next"}, {"type": "deal"}, {"type": "end_round"}))


def conflict(actions: int, players: int = 8, organizations: int = 20) -> Game:
    """``players`` players a side with ``organizations`` organizations each, every suit
    and scope; both sides played by the app's Easy moves, round after round."""
    def side(name: str, s: int) -> dict[str, Any]:
        return {"name": name, "scope": "home", "controller": "app", "level": "easy", "players": [
            {"name": f"{name} {p + 1}", "organizations": [
                {"name": f"Org {s}.{p}.{o}", "power": 8 + (o % 7), "suit": "SHDC"[o % 4],
                 "location": "the city"} for o in range(organizations)]} for p in range(players)]}

    setup = {"sides": [side("League", 0), side("Horde", 1)], "scope": "home"}
    game = new_game("conflict", setup, seed=11)

    def moves(g: Game):
        state = replay(g)
        who = solo.to_act(state)
        if who is not None:
            return (solo.decide(state, who[0], "easy").action,)
        return ({"type": "next_round"},)

    return _walk(game, actions, moves)


def campaign(actions: int) -> Game:
    """Two players, battle after battle (decisive wins by each in turn, spoils taken, the
    exhaustion roll) until the campaign ends or it holds ``actions`` actions."""
    return _walk(new_game("campaign", {"players": ["Anna", "Ben"]}, seed=9), actions, _campaign_moves)


def _campaign_moves(game: Game):
    from engine import campaign as cmp

    choices = cmp.spoils_choices(replay(game))
    moves: list[dict[str, Any]] = []
    if choices:
        pool = str(choices["pool"][0]) if choices["both"] and choices["pool"] else None
        moves.append({"type": "take", "stake": True, "pool": pool})
    # A drawn battle moves no card (CMP-3): the longest campaign is one of draws.
    return (*moves, {"type": "roll"}, {"type": "battle", "winner": None}, {"type": "negotiate"})


def _walk(game: Game, count: int, moves: Callable[[Game], Any]) -> Game:
    """``game`` with legal moves taken until it holds ``count`` actions (the first of
    ``moves(game)`` the rules take, each time), or until none is taken."""
    while len(game.actions) < count:
        for action in moves(game):
            try:
                game = apply(game, action)
                break
            except ValueError:
                continue
        else:
            break
    return game


def link_of_json(text: str) -> str:
    """A share link payload ("3" format) holding exactly ``text`` (hostile ones too)."""
    return "3" + base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii").rstrip("=")


#: Hostile payloads of issue 30, item 1: an unterminated string of escaped quotes
#: (77 characters of link; the 1 MB one 1,328) and 1 MB of brackets.
HOSTILE_JSON = {
    "escaped quotes (32 KB)": '"\\' + '\\"' * 16_000,
    "escaped quotes (1 MB)": '"\\' + '\\"' * 499_000,
    "brackets (1 MB)": "[" * 999_000,
    "objects (1 MB)": '{"a":' * 199_000,
}

