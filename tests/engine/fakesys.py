"""A tiny dice game used as a stand-in system in the codec and store tests.

Two to four players take turns. ``roll`` adds a die (from the game's generator)
to the player's score; ``pass`` ends the turn; ``bonus`` adds 1–3 points once
per player. The first to reach the target wins, after which nothing more may be
done. Register it with ``SYSTEM_MODULES["testdice"] = "tests.engine.fakesys"``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from engine.game import ActionError, Game, RuleError
from engine.rules import Variant

KIND = "testdice"
SPECTATOR_VIEW = "the dice rolled so far and the log."

VARIANTS = (
    Variant("target", "D1", "Target score",
            ((20, "First to 20 wins"), (30, "First to 30 wins"), (10, "First to 10 wins")), 20),
    Variant("ones_lose", "D2", "Rolling a one",
            ((False, "A one scores 1"), (True, "A one scores nothing and ends the turn")), False),
)

MAX_PLAYERS = 4


def normalize_setup(setup: Mapping[str, Any]) -> dict:
    """``{"players": [name, …]}`` with 2–4 non-empty names of at most 40 characters."""
    if not isinstance(setup, Mapping):
        raise ValueError("The setup must list the players")
    unknown = sorted(str(k) for k in setup if k != "players")
    if unknown:
        raise ValueError(f"Unknown setup field: {unknown[0]}")
    players = setup.get("players")
    if not isinstance(players, (list, tuple)) or not 2 <= len(players) <= MAX_PLAYERS:
        raise ValueError("A dice game needs 2 to 4 players")
    for name in players:
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            raise ValueError("Each player needs a name of 1 to 40 characters")
    return {"players": list(players)}


def start(setup: Mapping[str, Any], rules: Mapping[str, Any], rng) -> dict:
    count = len(setup["players"])
    return {
        "players": tuple(setup["players"]),
        "scores": (0,) * count,
        "bonus": (False,) * count,
        "turn": rng.randrange(count),
        "winner": None,
        "last": None,
    }


def _next(state: dict) -> int:
    return (state["turn"] + 1) % len(state["players"])


def normalize_action(state: dict, action: Mapping[str, Any], rules: Mapping[str, Any]) -> dict:
    """The canonical action: its type in lower case without spaces (``" Roll "`` → ``"roll"``)."""
    kind = action.get("type")
    if isinstance(kind, str):
        action = {**action, "type": kind.strip().lower()}
    step(state, action, rules, None)  # the same refusals as step (a roll needs no generator to be checked)
    return dict(action)


def step(state: dict, action: Mapping[str, Any], rules: Mapping[str, Any], rng) -> dict:
    if not isinstance(action, Mapping):
        raise ActionError("An action must be an object")
    kind = action.get("type")
    allowed = {"roll": {"type"}, "pass": {"type"}, "bonus": {"type", "amount"}}
    if not isinstance(kind, str) or kind not in allowed:
        raise ActionError(f"Unknown action: {kind!r}")
    extra = sorted(str(k) for k in action if k not in allowed[kind])
    if extra:
        raise ActionError(f"Unexpected field in {kind}: {extra[0]}")
    if state["winner"] is not None:
        raise RuleError("D4", "The game is over")
    turn = state["turn"]
    scores = list(state["scores"])
    if kind == "pass":
        return {**state, "turn": _next(state), "last": None}
    if kind == "bonus":
        amount = action.get("amount")
        if not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= 3:
            raise ActionError("A bonus is 1, 2 or 3 points")
        if state["bonus"][turn]:
            raise RuleError("D3", "Each player may take a bonus only once")
        bonus = list(state["bonus"])
        bonus[turn] = True
        scores[turn] += amount
        new = {**state, "scores": tuple(scores), "bonus": tuple(bonus), "last": None}
    else:
        if rng is None:
            return state  # only checked (normalize_action)
        die = rng.randint(1, 6)
        if die == 1 and rules["ones_lose"]:
            return {**state, "turn": _next(state), "last": die}
        scores[turn] += die
        new = {**state, "scores": tuple(scores), "last": die}
    if scores[turn] >= rules["target"]:
        new["winner"] = turn
    return new


def describe(state: dict, action: Mapping[str, Any]) -> str:
    who = state["players"][state["turn"]]
    if action.get("type") == "bonus":
        return f"{who} takes a bonus of {action.get('amount')}"
    return f"{who} {'rolls' if action.get('type') == 'roll' else 'passes'}"


def public_game(game: Game) -> Game:
    """Nothing is hidden in dice; spectators just do not get the redo stack."""
    return replace(game, actions=game.actions[: game.position], _tip=None)


def standing(state: dict) -> str:
    """Where the dice game stands, for the list of saves ("Ann 7, Bo 3 · Ann to roll")."""
    scores = ", ".join(f"{name} {score}" for name, score in zip(state["players"], state["scores"]))
    if state["winner"] is not None:
        return f"{state['players'][state['winner']]} won · {scores}"
    return f"{scores} · {state['players'][state['turn']]} to roll"


def undo_warning(game: Game, position: int) -> str | None:
    """D5 (a stand-in for AI-7's ruling): a bonus is announced to the table; going back
    past one lets its player choose again knowing what the others did since."""
    later = game.actions[position:game.position]
    if any(action.get("type") == "bonus" for action in later):
        return "A bonus was announced to the table. Undoing it lets its player choose again. Undo anyway?"
    return None
