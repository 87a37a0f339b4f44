"""CONSIM's games saved by earlier versions (before save schema 3, "2" links):
:func:`upgrade` keeps the CS-3 and CS-5 readings they were played under
(``"legacy": true``, :data:`~engine.consim.LEGACY_RULES`) and scrubs an earlier
spectator's copy of what it should never have held.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..referee import old_game
from ..text import shown
from .rules import aimed_hits, damage_modifier, hit_modifier, semi_choice, suppression_caused, wound_status
from .setup import combatant_of, hidden_entry, normalize_setup
from .values import Combatant, Cover


def upgrade(data: Mapping[str, Any]) -> dict[str, Any]:
    """A game saved before save schema 3 (or a "2" link), made to replay as it was played.

    * A game with a shot or a long action was played before the CS-3 and CS-5 rulings:
      it gets ``"legacy": true`` and keeps the earlier reading (:data:`LEGACY_RULES`;
      its log and history say so).
    * A spectator's copy of that time (``"facts": true``) is marked ``"spectator": true``;
      its hidden combatants become placeholders, and their shots become an unseen
      shooter's results (the earlier copies named them and gave their dice).

    ``data`` is unchecked JSON: what cannot be read is left as it is, for the checks
    that follow to refuse with their reasons.
    """
    out, setup, actions = old_game(data, f"upgrade takes a saved game as an object (got {shown(data)})")
    if setup is None or actions is None:
        return out
    actions = [dict(a) if isinstance(a, Mapping) else a for a in actions]
    if any(isinstance(a, dict) and a.get("type") in ("shoot", "long") for a in actions):
        setup["legacy"] = True
    facts = setup.pop("facts", False)
    if facts is True:
        setup["spectator"] = True
        try:
            _scrub_copy(setup, actions)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            return out  # an earlier copy that does not read: the checks that follow say why
    elif setup.get("hidden") == []:
        setup.pop("hidden")
    out["setup"] = setup
    out["actions"] = actions
    return out


def _scrub_copy(setup: dict[str, Any], actions: list[Any]) -> None:
    """An earlier spectator's copy, without what it should never have held."""
    hidden = setup.get("hidden", [])
    if not isinstance(hidden, list) or not all(isinstance(h, int) and not isinstance(h, bool) for h in hidden):
        raise ValueError("hidden")
    hidden = sorted(set(hidden))
    roster = normalize_setup({"sides": setup["sides"], "combatants": setup["combatants"]})["combatants"]
    people = [combatant_of(c) for c in roster]
    for action in actions:
        if isinstance(action, dict) and action.get("type") == "shoot" and action.get("shooter") in hidden:
            _as_unseen_shot(action, people[action["shooter"]])
    numbers = {i: n for n, i in enumerate(hidden, start=1)}
    setup["combatants"] = [hidden_entry(numbers[i], c["side"]) if i in numbers else c for i, c in enumerate(roster)]
    setup["hidden"] = hidden


def _as_unseen_shot(action: dict[str, Any], shooter: Combatant) -> None:
    """An earlier copy's shot by a hidden shooter, as an unseen shooter's results."""
    mode = action.get("mode", "aimed")
    cover = Cover(action.get("cover", "none"))
    unseen = action.get("unseen", False) is True
    semi = semi_choice(shooter, action.get("semi"))
    hmod, dmod = hit_modifier(shooter, semi), damage_modifier(shooter, semi)
    results = []
    for rolls in action.get("dice") or []:
        d10 = rolls.get("d10")
        hit = aimed_hits(d10, hmod, cover) if mode == "aimed" else d10 == 10
        entry: dict[str, Any] = {"hit": hit}
        if hit:
            entry["wound"] = wound_status(rolls["d6"] + dmod).value
        entry["suppression"] = suppression_caused(shooter, unseen=unseen,
                                                  suppressive_miss=mode == "suppressive" and not hit)
        if hit and "countdown" in rolls:
            entry["countdown"] = rolls["countdown"]
        results.append(entry)
    for key in ("shooter", "dice", "semi"):
        action.pop(key, None)
    action["results"] = results
