"""Campaigns saved by earlier versions (before save schema 3): :func:`upgrade` makes them
replay as they were played, keeping the earlier readings of the CMP-4 refill and CMP-6
certain-roll rulings where a game needs them (setup ``"legacy"``, :data:`LEGACY`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..game import Game, replay
from ..referee import old_game
from .values import KIND, LEGACY

#: The fields of schema-2 actions (before the players' own deck): what :func:`upgrade` keeps.
_OLD_FIELDS = {"battle": ("type", "winner", "troops"), "take": ("type", "stake", "pool"),
               "roll": ("type",), "negotiate": ("type",)}


def _old_action(action: Any) -> Any:
    """An action of an earlier version with the fields that version ignored left out (a
    drawn battle's troop points, a roll's dice …): they never changed the game."""
    if not isinstance(action, Mapping):
        return action
    kind = action.get("type")
    fields = _OLD_FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        return dict(action)
    out = {key: action[key] for key in fields if key in action}
    if kind == "battle" and out.get("winner") is None:
        out.pop("troops", None)
    return out


def upgrade(data: Mapping[str, Any]) -> dict[str, Any]:
    """A campaign saved or shared before save schema 3, made to replay as it was played.

    Rulings since then that change a replay: CMP-4's "the new pool card takes the
    place of the one taken" (earlier versions put it at the right end of the pool,
    which changes what the table shows and, in solo, the order the dummy's die
    counts in, HR-CMP-1), and the exhaustion roll after battle 8, which cannot fail
    and is no longer rolled (CMP-6; earlier versions rolled it, so their games hold a
    roll there). A game in which a pool card was replaced, or the certain roll was
    rolled, keeps the earlier reading (setup ``"legacy": ["refill-end",
    "certain-roll"]``), and its log says so. Fields the earlier version ignored are
    left out of its actions.
    """
    out, setup, actions = old_game(data, "upgrade takes a saved game as a dict")
    if setup is None or actions is None:
        return out
    cleaned = [_old_action(a) for a in actions]
    out["actions"] = cleaned
    legacy = set(setup.get("legacy") or ()) if isinstance(setup.get("legacy"), (list, tuple)) else set()
    needed = set(LEGACY)
    try:
        trial = Game(KIND, out.get("seed", 0), out.get("rules") or {}, {**setup, "legacy": sorted(LEGACY)},
                     tuple(cleaned), len(cleaned))
        final = replay(trial, len(cleaned))
        needed = set()
        if (final.history or {}).get("refills"):
            needed.add("refill-end")
        if any(roll.battles >= 8 for roll in final.rolls):
            needed.add("certain-roll")
    except Exception:  # a game that does not replay either way: keep every earlier reading
        pass
    legacy |= needed
    new_setup = dict(setup)
    if legacy:
        new_setup["legacy"] = sorted(legacy)
    out["setup"] = new_setup
    return out
