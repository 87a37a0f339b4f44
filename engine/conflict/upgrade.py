"""Organizations In Conflict: games from earlier versions (engine.codec calls
:func:`upgrade` for saves and links before schema 3); what it did is
:data:`UPGRADE_NOTES`, in players' words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..referee import old_game
from .public import PUBLIC_FIELDS
from .referee import FIELDS
from .values import is_whole


def _old_action(action: Any, levels: list[Any]) -> Any:
    """An action of an earlier version with only what that version read: the fields of its
    type, a ``"why"`` only on a move of a side the app played, a missing discard list as
    keeping every card. Anything else is left for the checks to refuse."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str) or action["type"] not in FIELDS:
        return action
    kind = action["type"]
    required, optional = FIELDS[kind]
    out = {key: value for key, value in action.items() if key == "type" or key in required or key in optional}
    if "side" in out and out["side"] is None:
        del out["side"]  # earlier versions read a null side as no side
    if kind == "discard" and "cards" not in out:
        out["cards"] = []
    why = out.get("why")
    side = out.get("side")
    if "why" in out and not (isinstance(why, str) and why.strip() and is_whole(side) and side in (0, 1)
                             and levels[side] is not None):
        del out["why"]  # a "why" the app never wrote: earlier versions showed it, the rules ignored it
    return out


def _looks_like_old_spectator(data: Mapping[str, Any], setup: Mapping[str, Any], actions: list[Any]) -> bool:
    """An earlier version's spectator copy: seed 0, real cards, nobody for the app, every
    action in force and only the public fields of play/pass/next_round — exactly what
    that version's ``public_game`` wrote."""
    position = data.get("position", len(actions))
    if data.get("seed") != 0 or isinstance(data.get("seed"), bool) or setup.get("deck") != "table":
        return False
    if "spectator" in setup or position != len(actions) or not actions:
        return False
    sides = setup.get("sides")
    if not isinstance(sides, list) or any(not isinstance(side, Mapping) or "controller" in side or "level" in side
                                          for side in sides):
        return False
    for action in actions:
        if not isinstance(action, Mapping) or action.get("type") not in ("play", "pass", "next_round"):
            return False
        if any(key not in PUBLIC_FIELDS[action["type"]] for key in action):
            return False
    return True


def upgrade(data: Mapping[str, Any]) -> dict[str, Any]:
    """A game saved (or shared) before save schema 3, made to replay as it was played.

    Earlier versions read only the fields they knew: unknown fields of a move, a
    ``"why"`` on a move the app did not make, a null ``side`` are dropped and a
    discard without its cards keeps every card, which changes nothing in the replay
    (setup note ``"fields"``). A spectator's copy from before copies were marked (seed
    0, real cards, only public moves, nothing to redo) is marked ``"spectator": true``
    (note ``"spectator"``). The notes (:data:`UPGRADE_NOTES`) show in the conflict log.
    Data this cannot read is returned as it is, for the checks to refuse.
    """
    out, setup, actions = old_game(data, f"upgrade takes a saved game as an object (got {type(data).__name__})")
    if setup is None or actions is None:
        return out
    sides = setup.get("sides")
    levels: list[Any] = [None, None]
    if isinstance(sides, (list, tuple)):
        for s, side in enumerate(list(sides)[:2]):
            if isinstance(side, Mapping) and side.get("controller") == "app":
                levels[s] = side.get("level", "normal")
    notes = set()
    cleaned = [_old_action(action, levels) for action in actions]
    if cleaned != actions:
        notes.add("fields")
    if _looks_like_old_spectator(out, setup, actions):
        setup["spectator"] = True
        notes.add("spectator")
    if notes:
        old = setup.get("upgraded")
        known = set(old) if isinstance(old, (list, tuple)) and all(isinstance(n, str) for n in old) else set()
        setup["upgraded"] = sorted(known | notes)
        out["setup"] = setup
        out["actions"] = cleaned
    return out
