"""Ascension Isle battles: games saved before the AI-16/AI-19 rulings (save schema 2, "2" links).

:func:`upgrade` (the :mod:`engine.codec` hook) makes an old game replay as it was played:
an earlier spectator's copy is marked as one, and a game the AI-14, AI-16 or AI-19 rulings
would change keeps the rules it was played with (``"old_rulings": true``,
:data:`~engine.ascension.OLD_RULINGS_NOTE`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..game import Game, replay, validate
from ..referee import old_game
from .values import KIND

_OLD_COPY_SHAPES = {"reveal": {"type"}, "counter_attack": {"type", "side"}, "leave": {"type", "side"},
                    "phase": {"type", "index"}}


def _looks_like_old_copy(data: Mapping[str, Any]) -> bool:
    """Whether an old game is a spectator's copy as the earlier ``public_game`` made them:
    seed 0, no redo stack, only revealed bids, every roll with its dice and range rolls."""
    actions = data.get("actions")
    if data.get("seed") != 0 or not isinstance(actions, list) or data.get("position", len(actions)) != len(actions):
        return False
    pending = 0
    for action in actions:
        if not isinstance(action, Mapping):
            return False
        kind = action.get("type")
        if kind == "bid":
            pending += 1
            continue
        if kind == "reveal":
            pending = 0
        if kind == "roll":
            if set(action) != {"type", "dice", "ranges"}:
                return False
        elif kind in _OLD_COPY_SHAPES and set(action) != _OLD_COPY_SHAPES[kind]:
            return False
        elif kind not in _OLD_COPY_SHAPES and kind != "roll":
            return False
    return pending == 0


def _replayed(data: Mapping[str, Any], setup: Mapping[str, Any]) -> Any:
    """The weeks and ending of the whole game ``data`` with ``setup``, or None if it does not replay."""
    try:
        actions = tuple(data["actions"])
        game = validate(Game(KIND, data["seed"], data.get("rules") or {}, setup, actions, len(actions)))
        final = replay(game)
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    weeks = tuple((w.dice, w.successes, w.rolled, w.taken, w.lost, w.ended) for w in final.weeks)
    return weeks, final.phase, final.outcome, final.destroyed


def upgrade(data: Mapping[str, Any]) -> dict[str, Any]:
    """A battle saved or shared before save schema 3, made to replay as it was played.

    * An old spectator's copy (seed 0, every roll carrying its dice, only revealed
      bids — the shape the earlier :func:`~engine.ascension.public_game` made) gets ``"spectator": true``.
    * Where the AI-16 prerequisites, AI-16's Covering Fire, the AI-14 "armour or size"
      ruling or the AI-19 fallback would change (or refuse) the game's replay, its
      setup gets ``"old_rulings": true``: the game keeps the rules it was played with,
      and its history and log say so (:data:`~engine.ascension.OLD_RULINGS_NOTE`). A game those rulings
      do not touch is left as it is.
    """
    out, setup, _ = old_game(data, "An old game is an object with its kind, seed, rules, setup and actions "
                                   f"(got {type(data).__name__})")
    if setup is None:
        return out
    if _looks_like_old_copy(out):
        setup["spectator"] = True
    if "old_rulings" not in setup:
        now = _replayed(out, setup)
        if now is None or now != _replayed(out, {**setup, "old_rulings": True}):
            if _replayed(out, {**setup, "old_rulings": True}) is not None:
                setup["old_rulings"] = True
    out["setup"] = setup
    return out
