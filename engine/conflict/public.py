"""Organizations In Conflict: the spectator's copy (issue 21, issue 30).

:func:`public_game` keeps what the table saw: the cards played, the passes and the
rounds (:data:`PUBLIC_FIELDS` of each), never a hand, a discard, the deck order, the
redo stack or the seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..game import Game
from .setup import normalize_setup
from .values import KIND, ArgumentError

#: The fields of each action a spectator's copy keeps (what the table saw); the other
#: actions (the discards) are left out.
PUBLIC_FIELDS = {"play": ("type", "side", "player", "card"), "pass": ("type", "side"),
                 "next_round": ("type",), "call": ("type",)}


def public_game(game: Game) -> Game:
    """A spectator's copy: no discards, no hands, seed 0; it replays as real cards (table
    mode) from the cards played.

    Only the play/pass/next_round/call actions are kept (with their public fields),
    and only the actions in force (the redo stack could reveal cards that were never
    shown), so replaying shows the same chain, ratings and round history without any
    hidden card. Its setup says ``"spectator": true``: the copy takes no move. It keeps
    the game's own ``"deck"`` (issue 30): a copy of an app-deck game edited to drop its
    flag is an app-deck game whose first card comes before the discards, and is refused.
    """
    if not isinstance(game, Game) or game.kind != KIND:
        raise ArgumentError("public_game takes a conflict game")
    kept: list[dict[str, Any]] = []
    # Only what has happened: the redo stack may hold cards that were never shown.
    for action in game.actions[: game.position]:
        kind = action.get("type") if isinstance(action, Mapping) else None
        if kind not in PUBLIC_FIELDS:
            continue
        kept.append({key: action[key] for key in PUBLIC_FIELDS[kind] if key in action})
    setup = normalize_setup(game.setup)
    setup["spectator"] = True  # the deck stays the game's own: the copy's mark (see above)
    for side in setup["sides"]:  # a spectator watches: nobody plays for the app there
        side.pop("controller", None)
        side.pop("level", None)
    return replace(game, seed=0, setup=setup, actions=tuple(kept), position=len(kept), _tip=None)
