"""CONSIM's setup (CS-1): :func:`normalize_setup`, the roster as canonical JSON (see
:mod:`engine.consim`), and the combatants it lists; a spectator's copy's hidden
combatants are placeholders (:func:`hidden_entry`).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any, cast

from ..game import SetupError
from ..text import key_text, setup_text, shown
from .values import HIDDEN_GROUP, MAX_COMBATANTS, MAX_SIDES, NAME_MAX, Combatant, Grain, Training, Trait, placeholder


def _text(value: Any, where: str, what: str) -> str:
    return setup_text(value, where, what, error=SetupError, max_len=NAME_MAX)


def _choice(enum: type[Enum], value: Any, where: str, what: str) -> str:
    for member in enum:
        if member.value == value and isinstance(value, str):
            return member.value
    allowed = ", ".join(e.value for e in enum)
    raise SetupError(f"{where}: the {what} must be one of {allowed} (got {shown(value)})")


def _bool(value: Any, where: str, what: str) -> bool:
    if not isinstance(value, bool):
        raise SetupError(f"{where}: {what} must be true or false")
    return value


_SETUP_KEYS = ("sides", "combatants", "privacy", "count_hidden", "spectator", "hidden", "legacy", "facts")
_COMBATANT_KEYS = ("name", "side", "grain", "training", "weapon", "player", "hidden")


def hidden_entry(number: int, side: int) -> dict[str, Any]:
    """The roster line of the ``number``-th hidden combatant in a spectator's copy: a placeholder."""
    return {"name": placeholder(number), "side": side, "grain": "individual", "training": "untrained",
            "weapon": [], "player": False}


def hidden_group_entry(side: int) -> dict[str, Any]:
    """HR-CS-8: the one roster line of a side's hidden combatants in a spectator's copy that
    does not count them (``"count_hidden": false``)."""
    return {"name": HIDDEN_GROUP, "side": side, "grain": "individual", "training": "untrained",
            "weapon": [], "player": False}


def normalize_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """CS-1: validated, canonical roster JSON (see :mod:`engine.consim`); raises :class:`SetupError`.

    ``"spectator": true`` marks a spectator's copy (:func:`public_game`); only it may list
    ``"hidden"`` combatants, each a placeholder, and a roster that lists ``"hidden"`` (even
    none) is one, flag or not. HR-CS-8: a non-player combatant's ``"hidden": false`` keeps it
    in the players' sight (absent: hidden, as in every game saved before); ``"count_hidden":
    false`` says nothing of how many are hidden (absent: the count is said, as before), and
    such a copy shows each side's hidden combatants as one line. ``"legacy": true``: a game saved
    before the CS-3 and CS-5 rulings (:func:`upgrade`). ``"facts"`` is the earlier name
    of ``"spectator"`` (false is dropped).
    """
    if not isinstance(setup, Mapping):
        raise SetupError("The roster must be an object with named fields")
    unknown = sorted(key_text(k) for k in setup if k not in _SETUP_KEYS)
    if unknown:
        raise SetupError(f"Roster: unknown field {', '.join(map(shown, unknown[:4]))}")
    sides = setup.get("sides")
    if not isinstance(sides, (list, tuple)) or not 2 <= len(sides) <= MAX_SIDES:
        raise SetupError(f"Roster: give 2 to {MAX_SIDES} sides")
    side_names = [_text(name, f"Side {i + 1}", "name") for i, name in enumerate(sides)]
    if len(set(n.casefold() for n in side_names)) != len(side_names):
        raise SetupError("Roster: two sides have the same name")
    raw = setup.get("combatants")
    if not isinstance(raw, (list, tuple)) or not raw:
        raise SetupError("Roster: add at least one combatant")
    if len(raw) > MAX_COMBATANTS:
        raise SetupError(f"Roster: at most {MAX_COMBATANTS} combatants")
    out = []
    for i, c in enumerate(raw):
        where = f"Combatant {i + 1}"
        if not isinstance(c, Mapping):
            raise SetupError(f"{where} must be an object with named fields")
        bad = sorted(key_text(k) for k in c if k not in _COMBATANT_KEYS)
        if bad:
            raise SetupError(f"{where}: unknown field {', '.join(map(shown, bad[:4]))}")
        name = _text(c.get("name"), where, "name")
        where = f"Combatant {i + 1} ({name})"
        side = c.get("side", 0)
        if not isinstance(side, int) or isinstance(side, bool) or not 0 <= side < len(side_names):
            raise SetupError(f"{where}: the side must be 0 to {len(side_names) - 1} (got {shown(side)})")
        weapon = c.get("weapon", [])
        if not isinstance(weapon, (list, tuple)):
            raise SetupError(f"{where}: the weapon traits must be a list")
        traits = {_choice(Trait, t, where, "weapon trait") for t in weapon}
        if {"automatic", "semi-automatic"} <= traits:
            raise SetupError(f"{where}: a weapon is automatic or semi-automatic, not both (CS-11)")
        if {"ground-vehicle", "air-vehicle"} <= traits:
            raise SetupError(f"{where}: a weapon is a ground- or an air-vehicle weapon, not both (CS-11)")
        line = {
            "name": name, "side": side,
            "grain": _choice(Grain, c.get("grain", "individual"), where, "kind"),
            "training": _choice(Training, c.get("training", "untrained"), where, "training"),
            "weapon": [t.value for t in Trait if t.value in traits],
            "player": _bool(c.get("player", False), where, "player character"),
        }
        hide = _bool(c.get("hidden", not line["player"]), where, "hidden from the players")
        if hide and line["player"]:
            raise SetupError(f"{where}: a player character is never hidden from the players (HR-CS-8)")
        if not hide and not line["player"]:
            line["hidden"] = False  # HR-CS-8: the Observer keeps this one in the players' sight
        out.append(line)
    privacy = _bool(setup.get("privacy", True), "Roster", "privacy")
    count_hidden = _bool(setup.get("count_hidden", True), "Roster", "say how many are hidden")
    facts = _bool(setup.get("facts", False), "Roster", "facts")
    # Today only a spectator's copy lists "hidden" (even empty): a copy edited to drop its
    # flag is still a spectator's copy (issue 30). Rosters saved while "facts" and "hidden"
    # were written for every game say "facts" (false for a game played at a table).
    spectator = setup.get("spectator", facts if "facts" in setup else "hidden" in setup)
    if spectator is not True and spectator is not False:
        raise SetupError("Roster: 'spectator' must be true (a spectator's copy) or absent")
    if facts and not spectator:
        raise SetupError("Roster: a copy of recorded facts is a spectator's copy ('spectator': true)")
    legacy = setup.get("legacy", False)
    if legacy is not True and legacy is not False:
        raise SetupError("Roster: 'legacy' must be true (a game saved before the CS-3 and CS-5 rulings) or absent")
    hidden = setup.get("hidden", [])
    if not isinstance(hidden, (list, tuple)) or not all(
            isinstance(h, int) and not isinstance(h, bool) and 0 <= h < len(out) for h in hidden) \
            or len(set(hidden)) != len(hidden):
        raise SetupError("Roster: hidden must list combatants by number, each once")
    if hidden and not spectator:
        raise SetupError("Roster: only a spectator copy hides combatants outright")
    if not count_hidden and spectator:
        sides = [cast(int, out[h]["side"]) for h in hidden]
        if len(set(sides)) != len(sides) or any(out[h] != hidden_group_entry(s) for h, s in zip(hidden, sides)):
            raise SetupError(f"Roster: a copy that does not count the hidden shows each side's hidden "
                             f"combatants as one line, “{HIDDEN_GROUP}” (HR-CS-8)")
    for number, h in enumerate(sorted(hidden) if count_hidden else (), start=1):
        if out[h] != hidden_entry(number, out[h]["side"]):
            raise SetupError(f"Roster: hidden combatant {h + 1} must be the placeholder "
                             f"“{placeholder(number)}” (a spectator's copy holds nothing of it)")
    normal: dict[str, Any] = {"sides": side_names, "combatants": out, "privacy": privacy}
    if not count_hidden:
        normal["count_hidden"] = False
    if spectator:
        normal["spectator"] = True
        normal["hidden"] = sorted(hidden)
    if legacy:
        normal["legacy"] = True
    return normal


def combatant_of(raw: Mapping[str, Any]) -> Combatant:
    """The :class:`Combatant` of a canonical roster line (:func:`normalize_setup`)."""
    return Combatant(raw["name"], raw["side"], Grain(raw["grain"]), Training(raw["training"]),
                     frozenset(Trait(t) for t in raw["weapon"]), raw["player"],
                     raw.get("hidden", not raw["player"]))
