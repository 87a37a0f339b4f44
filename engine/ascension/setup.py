"""Ascension Isle battles: the setup (RULES.md AI-1, AI-2, AI-14) and the example armies.

:func:`normalize_setup` checks a setup and gives its canonical JSON (refusing with
:class:`~engine.game.SetupError`, naming the field); :func:`example_setup` and
:func:`jibril_division` are the source's examples (AI-3); :func:`app_levels` says which
army the app plays (issue 17).

Setup (plain JSON)::

    {"armies": [army, army]}                # + "spectator": true in a spectator's copy,
                                            # + "old_rulings": true for a game played
                                            #   before the AI-16/AI-19 rulings (see upgrade)
    army = {"name": "First Corps", "units": [unit, ...], "vanguard": 0, "rearguard": 0,
            "general": null | {"name": "Marshal Vey", "level": 0..3, "traits": ["observer"]}}
    unit = {"name": "...", "attack": 5, "defense": 6, "mobility": 2,
            "traits": ["infantry", "line", "scout", "observer", "long range"],
            "armour": 0, "size": 0}          # 0: none; a unit has armour or size, not both (AI-14)

An army of the setup may be played by the app (issue 17): ``"controller": "app"`` with a
``"level"`` (``"easy"``, ``"normal"``, ``"hard"``; people are the default and left out).
Its bids are ordinary bids that carry ``"why"``: one line, the app's reason
(:mod:`engine.ascension.opponent`), hidden with the bid until the reveal and kept in the
week's result (``WeekResult.whys``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..game import ArgumentError, SetupError
from ..text import key_text, setup_text, shown
from .tables import JIBRIL_DIVISION
from .values import POLICIES, POLICY, STATS, TRAITS, Army, General, Unit

_TEXT_MAX = 60
_STAT_MAX = 99
MAX_UNITS = 200
_NUM_MAX = 99
_UNIT_KEYS = {"name", "attack", "defense", "mobility", "traits", "armour", "size"}


def _text(value: Any, where: str, what: str, required: bool = True) -> str:
    return setup_text(value, where, what, error=SetupError, max_len=_TEXT_MAX, required=required)


def _whole(value: Any, where: str, what: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise SetupError(f"{where}: the {what} must be a whole number from {lo} to {hi} (got {shown(value)})")
    return int(value)


def _keys(value: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(key_text(k) for k in value if k not in allowed)
    if unknown:
        raise SetupError(f"{where}: unknown field {', '.join(shown(k) for k in unknown[:4])}")


def _traits(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        raise SetupError(f"{where}: the traits must be a list")
    out = []
    for trait in value:
        if not isinstance(trait, str) or trait not in TRAITS:
            raise SetupError(f"{where}: unknown trait {shown(trait)} (traits: {', '.join(TRAITS)})")
        if trait not in out:
            out.append(trait)
    return [t for t in TRAITS if t in out]


def unit_json(unit: Any, where: str, old_rulings: bool = False) -> dict[str, Any]:
    """AI-1/AI-14: one unit, validated and canonical (infantry implies line; armour or size)."""
    if not isinstance(unit, Mapping):
        raise SetupError(f"{where} must be an object with named fields")
    _keys(unit, _UNIT_KEYS, where)
    name = _text(unit.get("name"), where, "name")
    where = f"{where} ({name})"
    stats = {key: _whole(unit.get(key), where, key, 0, _STAT_MAX) for key in STATS}
    traits = _traits(unit.get("traits"), where)
    if "infantry" in traits and "line" not in traits:  # AI-1 ruling: infantry implies line
        traits = [t for t in TRAITS if t in traits or t == "line"]
    armour = _whole(unit.get("armour", 0), where, "armour", 0, _NUM_MAX)
    size = _whole(unit.get("size", 0), where, "size", 0, _NUM_MAX)
    if armour and size and not old_rulings:
        raise SetupError(f"{where}: AI-14: a unit has armour or size, not both (armour {armour}, size {size})")
    return {"name": name, **stats, "traits": traits, "armour": armour, "size": size}


def _flag(setup: Mapping[str, Any], key: str, what: str) -> bool:
    value = setup.get(key, False)
    if not isinstance(value, bool):
        raise SetupError(f"Setup: '{key}' must be true ({what}) or left out")
    return value


def normalize_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """AI-1: validated, canonical setup JSON (the module docstring gives its shape).

    Raises :class:`SetupError` naming the field. The vanguard must be a line unit
    (AI-1: infantry implies line); the rearguard may be any unit (AI-2); a unit has
    armour or size, not both (AI-14) unless the game keeps its ``old_rulings``.
    ``"spectator": true`` marks a spectator's copy (:func:`~engine.ascension.public_game`).
    """
    if not isinstance(setup, Mapping):
        raise SetupError("The setup must be an object with named fields")
    _keys(setup, {"armies", "spectator", "old_rulings", "policy"}, "Setup")
    policy = setup.get("policy", 1)
    if policy not in POLICIES or isinstance(policy, bool):
        raise SetupError(f"Setup: HR-AI-15: the app general's policy is {' or '.join(map(str, POLICIES))} "
                         f"(got {shown(policy)})")
    spectator = _flag(setup, "spectator", "a spectator's copy")
    old_rulings = _flag(setup, "old_rulings", "a game played before the AI-16 and AI-19 rulings")
    armies = setup.get("armies")
    if not isinstance(armies, (list, tuple)) or len(armies) != 2:
        raise SetupError("Setup: a battle has exactly 2 armies")
    out = []
    for a, raw in enumerate(armies):
        where = f"Army {a + 1}"
        if not isinstance(raw, Mapping):
            raise SetupError(f"{where} must be an object with named fields")
        _keys(raw, {"name", "units", "vanguard", "rearguard", "general", "controller", "level"}, where)
        name = _text(raw.get("name"), where, "name")
        where = f"Army {a + 1} ({name})"
        units = raw.get("units")
        if not isinstance(units, (list, tuple)) or not units:
            raise SetupError(f"{where}: the army has no units; give it at least one line unit")
        if len(units) > MAX_UNITS:
            raise SetupError(f"{where}: an army has at most {MAX_UNITS} units")
        out_units = [unit_json(unit, f"{where}, unit {u + 1}", old_rulings) for u, unit in enumerate(units)]
        vanguard = _whole(raw.get("vanguard", 0), where, "vanguard (a unit number)", 0, len(out_units) - 1)
        if "line" not in out_units[vanguard]["traits"]:
            raise SetupError(f"{where}: AI-1: the vanguard ({out_units[vanguard]['name']}) must be a line unit")
        rearguard = _whole(raw.get("rearguard", vanguard), where, "rearguard (a unit number)", 0,
                           len(out_units) - 1)
        general = raw.get("general")
        out_general = None
        if general is not None:
            gwhere = f"{where}, general"
            if not isinstance(general, Mapping):
                raise SetupError(f"{gwhere} must be an object with named fields")
            _keys(general, {"name", "level", "traits"}, gwhere)
            gtraits = _traits(general.get("traits"), gwhere)
            if set(gtraits) - {"observer"}:
                raise SetupError(f"{gwhere}: a general's trait can only be observer")
            out_general = {"name": _text(general.get("name"), gwhere, "name"),
                           "level": _whole(general.get("level"), gwhere, "level", 0, 3),
                           "traits": gtraits}
        out.append({"name": name, "units": out_units, "vanguard": vanguard, "rearguard": rearguard,
                    "general": out_general, **_controller(raw, where)})
    result: dict[str, Any] = {"armies": out}
    if spectator:
        result["spectator"] = True
    if old_rulings:
        result["old_rulings"] = True
    if policy != 1:
        result["policy"] = policy
    return result


def stamp_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """HR-AI-15: a new battle's setup names today's policy of the app's general (:data:`POLICY`)
    when the app plays an army and the setup names none (a setup made elsewhere keeps its own).
    Only a new game is stamped (``engine.game.new_game``); a game read from a save or a link
    keeps what it names (none: policy 1)."""
    if not isinstance(setup, Mapping):
        return setup  # refused by normalize_setup
    armies = setup.get("armies")
    app = isinstance(armies, (list, tuple)) and any(isinstance(a, Mapping) and a.get("controller") == "app"
                                                    for a in armies)
    if not app or "policy" in setup or setup.get("spectator"):
        return dict(setup)
    return {**setup, "policy": POLICY}


#: Who plays an army (setup ``"controller"``): people at the table, or the app (issue 17).
CONTROLLERS: tuple[str, ...] = ("people", "app")
APP_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")


def _controller(raw: Mapping[str, Any], where: str) -> dict[str, str]:
    """Issue 17: ``"controller": "app"`` and its ``"level"`` (easy, normal, hard); people are
    the default and are left out of the canonical setup (older setups normalize as before)."""
    controller = raw.get("controller", "people")
    if controller not in CONTROLLERS:
        raise SetupError(f'{where}: the army is played by "people" or "app" (got {shown(controller)})')
    level = raw.get("level")
    if controller == "people":
        if level is not None:
            raise SetupError(f"{where}: a level is only for an army the app plays")
        return {}
    level = "normal" if level is None else level
    if level not in APP_LEVELS:
        raise SetupError(f"{where}: the app's level is easy, normal or hard (got {shown(level)})")
    return {"controller": "app", "level": level}


def app_levels(setup: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """The app's level for each army of a (normalized) setup; ``None`` where people play it."""
    if not isinstance(setup, Mapping) or not isinstance(setup.get("armies"), (list, tuple)):
        raise ArgumentError("Not a battle setup")
    out = []
    for raw in list(setup["armies"])[:2]:
        app = isinstance(raw, Mapping) and raw.get("controller") == "app"
        out.append((raw.get("level") if raw.get("level") in APP_LEVELS else "normal") if app else None)
    while len(out) < 2:
        out.append(None)
    return out[0], out[1]


def make_unit(raw: Mapping[str, Any]) -> Unit:
    return Unit(raw["name"], raw["attack"], raw["defense"], raw["mobility"], tuple(raw["traits"]),
                raw["armour"], raw["size"])


def make_army(raw: Mapping[str, Any]) -> Army:
    units = tuple(make_unit(u) for u in raw["units"])
    g = raw["general"]
    general = General(g["name"], g["level"], tuple(g["traits"])) if g else None
    return Army(raw["name"], units, raw["vanguard"], raw["rearguard"], general,
                raw.get("level") if raw.get("controller") == "app" else None)


def jibril_division(name: str | None = None) -> dict[str, Any]:
    """AI-3: the source's example line unit, Jibril Armoured Infantry Division (5 / 6 / 2).

    The source calls Jibril soldiers armoured and able to take more punishment, but
    gives no armour or size number: as given, one casualty destroys a division
    (HR-AI-1); the board offers one tap to give them armour or size.
    """
    if name is not None:
        name = setup_text(name, "Jibril division", "name", error=ArgumentError, max_len=_TEXT_MAX)
    unit: dict[str, Any] = dict(JIBRIL_DIVISION)
    unit["traits"] = list(unit["traits"])
    if name:
        unit["name"] = name
    return unit


def example_setup() -> dict[str, Any]:
    """A Jibril corps of three divisions (the AI-3 example: 6 attack dice) against a Zone army."""
    zone = [{"name": f"Zone Infantry Division {i}", "attack": 2, "defense": 3, "mobility": 2,
             "traits": ["infantry", "line"], "armour": 0, "size": 2} for i in (1, 2, 3, 4)]
    zone.append({"name": "Zone Heavy Artillery", "attack": 3, "defense": 2, "mobility": 1,
                 "traits": ["long range"], "armour": 0, "size": 1})
    zone.append({"name": "Zone Cavalry Scouts", "attack": 1, "defense": 1, "mobility": 4,
                 "traits": ["scout", "observer"], "armour": 0, "size": 1})
    return {"armies": [
        {"name": "Jibril Corps", "units": [jibril_division(f"Jibril Armoured Infantry Division {i}")
                                           for i in (1, 2, 3)],
         "vanguard": 0, "rearguard": 0, "general": {"name": "Marshal Jibril", "level": 2, "traits": []}},
        {"name": "Zone Army", "units": zone, "vanguard": 0, "rearguard": 5,
         "general": {"name": "General Arden", "level": 1, "traits": []}},
    ]}
