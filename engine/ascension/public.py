"""Ascension Isle battles: the spectator's copy (RULES.md AI-7).

:func:`public_game` makes the copy a spectator link carries: every bid that has not been
revealed is a sealed placeholder (who declared is public, what is not), the dice travel as
rolled, and there is no seed and no redo stack (:data:`~engine.ascension.SPECTATOR_VIEW`
says it in players' words). The staff officer's public view of a state is
:func:`~engine.ascension.public_state`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..game import ArgumentError, Game, replay, thaw
from .values import KIND


def public_game(game: Game) -> Game:
    """A spectator's copy: ``"spectator": true`` in its setup, no bid that has not been
    revealed (a declared one is a sealed placeholder: who declared is public, what is
    not), no seed, no redo stack, dice as rolled.

    Each roll carries the dice (or entered successes) and the casualty range rolls it
    made, so the copy replays the same battle with seed 0 and cannot foretell later
    dice; joins, corrections, Counter Attacks, leaves and ticks are public and kept.
    """
    if not isinstance(game, Game) or game.kind != KIND:
        raise ArgumentError(f"Not a battle game: {type(game).__name__}")
    acts = list(game.actions[: game.position])
    state = replay(game)
    rolls = iter(state.weeks)
    kept: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    for action in acts:
        kind = action.get("type")
        if kind == "bid":
            pending.append(thaw(action))
            continue
        if kind == "reveal":
            kept.extend(pending)
            pending = []
            kept.append({"type": "reveal"})
        elif kind == "roll":
            week = next(rolls)
            out: dict[str, Any] = {"type": "roll"}
            if week.dice is not None:
                out["dice"] = [list(d) for d in week.dice]
            else:
                out["successes"] = list(week.successes)
            ranges = [week.rolled[s] if week.ranges[s] else None for s in (0, 1)]
            if ranges != [None, None]:
                out["ranges"] = ranges
            kept.append(out)
        else:
            kept.append(thaw(action))
    kept.extend({"type": "bid", "side": b["side"], "sealed": True} for b in pending)
    setup = thaw(game.setup)
    setup["spectator"] = True
    return replace(game, seed=0, setup=setup, actions=tuple(kept), position=len(kept), _tip=None)
