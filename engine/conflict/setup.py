"""Organizations In Conflict: the setup (OIC-1, OIC-2, OIC-4, OIC-7, OIC-14, OIC-17).

:func:`normalize_setup` (the canonical setup, or a :class:`SetupError` naming the
field), :func:`setup_sides` (the sides as values), :func:`setup_warnings` (a legal setup
that is probably not meant) and the source's worked example,
:func:`purple_dragon_setup` (OIC-7; what the source leaves open is
:data:`SCENARIO_CHOICES`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import CardError, Suit
from ..game import SetupError
from ..text import key_text, setup_text
from .rules import hand_size, side_engageable
from .values import APP_LEVELS, CONTROLLERS, UPGRADE_NOTES, Organization, Player, Scope, Side, quote

_TEXT_MAX = 60
_LOCATION_MAX = 120
_POWER_MAX = 999
_MAX_ORGS = 20


def _check_keys(value: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(key_text(k) for k in value if k not in allowed)
    if unknown:
        raise SetupError(f"{where}: unknown field {', '.join(quote(k) for k in unknown[:4])}")


def _text(value: Any, where: str, what: str, *, max_len: int = _TEXT_MAX, required: bool = True) -> str:
    return setup_text(value, where, what, error=SetupError, max_len=max_len, required=required)


def _list(value: Any, where: str, what: str) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        raise SetupError(f"{where}: {what} must be a list")
    return list(value)


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise SetupError(f"{where} must be an object with named fields")
    return value


def _scope_field(value: Any, where: str) -> str:
    try:
        return Scope.parse(value).value
    except ValueError as err:
        raise SetupError(f"{where}: {err}") from None


def normalize_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """Validated, canonical setup JSON (see :mod:`engine.conflict` for its shape).

    Raises :class:`SetupError` with a message naming the field. Defaults:
    ``aggressor`` 0, ``deck`` "app", an organization's ``location`` "".
    """
    setup = _mapping(setup, "The setup")
    _check_keys(setup, {"sides", "scope", "aggressor", "deck", "spectator", "upgraded"}, "Setup")
    if "sides" not in setup:
        raise SetupError("Setup: the sides are missing")
    sides = _list(setup["sides"], "Setup", "sides")
    if len(sides) != 2:
        raise SetupError(f"Setup: a conflict has exactly 2 sides (got {len(sides)})")
    out_sides = []
    for s, raw_side in enumerate(sides):
        where = f"Side {s + 1}"
        raw_side = _mapping(raw_side, where)
        _check_keys(raw_side, {"name", "scope", "players", "controller", "level"}, where)
        name = _text(raw_side.get("name"), where, "name")
        where = f"Side {s + 1} ({name})"
        if "scope" not in raw_side:
            raise SetupError(f"{where}: the scope is missing (home, regional, war, world war, superconflict)")
        scope = _scope_field(raw_side["scope"], where)
        players = _list(raw_side.get("players"), where, "players")
        if not 1 <= len(players) <= 8:
            raise SetupError(f"{where}: a side has 1 to 8 players (got {len(players)})")
        out_players = []
        for p, raw_player in enumerate(players):
            pwhere = f"{where}, player {p + 1}"
            raw_player = _mapping(raw_player, pwhere)
            _check_keys(raw_player, {"name", "organizations"}, pwhere)
            pname = _text(raw_player.get("name"), pwhere, "name")
            orgs = _list(raw_player.get("organizations", []), pwhere, "organizations")
            if len(orgs) > _MAX_ORGS:
                raise SetupError(f"{pwhere}: a player controls at most {_MAX_ORGS} organizations")
            out_orgs = []
            for o, raw_org in enumerate(orgs):
                owhere = f"{pwhere}, organization {o + 1}"
                raw_org = _mapping(raw_org, owhere)
                _check_keys(raw_org, {"name", "power", "suit", "location"}, owhere)
                oname = _text(raw_org.get("name"), owhere, "name")
                owhere = f"{pwhere}, organization {o + 1} ({oname})"
                power = raw_org.get("power")
                if (not isinstance(power, int) or isinstance(power, bool)
                        or not 0 <= power <= _POWER_MAX):
                    raise SetupError(f"{owhere}: the power must be a whole number from 0 to {_POWER_MAX}"
                                     f" (got {quote(power)})")
                try:
                    suit = Suit.parse(raw_org.get("suit"))
                except CardError:
                    raise SetupError(f"{owhere}: the suit must be S, H, D or C "
                                     f"(got {quote(raw_org.get('suit'))})") from None
                location = _text(raw_org.get("location"), owhere, "location",
                                 max_len=_LOCATION_MAX, required=False)
                out_orgs.append({"name": oname, "power": power, "suit": suit.letter, "location": location})
            out_players.append({"name": pname, "organizations": out_orgs})
        if not any(player["organizations"] for player in out_players):
            raise SetupError(f"{where}: the side has no organization; give it at least one")
        out_side = {"name": name, "scope": scope, "players": out_players}
        out_side.update(_controller(raw_side, where))
        out_sides.append(out_side)
    if "scope" not in setup:
        raise SetupError("Setup: the conflict's scope is missing (home, regional, war, world war, superconflict)")
    scope = _scope_field(setup["scope"], "Setup (conflict scope)")
    aggressor = setup.get("aggressor", 0)
    if aggressor not in (0, 1) or isinstance(aggressor, bool) or not isinstance(aggressor, int):
        raise SetupError(f"Setup: the aggressor must be side 0 or side 1 (got {quote(aggressor)})")
    deck = setup.get("deck", "app")
    if deck not in ("app", "table"):
        raise SetupError(f'Setup: the deck must be "app" (the app deals) or "table" '
                         f"(real cards) (got {quote(deck)})")
    if deck == "table":
        for s, out_side in enumerate(out_sides):
            if out_side.get("controller") == "app":
                raise SetupError(f"Side {s + 1} ({out_side['name']}): the app cannot hold real cards — "
                                 "choose the app deck for a side the app plays")
    out = {"sides": out_sides, "scope": scope, "aggressor": aggressor, "deck": deck}
    if _spectator_flag(setup, deck):
        out["spectator"] = True
    notes = _upgrade_notes(setup)
    if notes:
        out["upgraded"] = notes
    return out


def _upgrade_notes(setup: Mapping[str, Any]) -> list[str]:
    """Setup ``"upgraded"``: what :func:`upgrade` did to a game from an earlier version
    (codes of :data:`UPGRADE_NOTES`, sorted, each once); absent for every other game."""
    notes = setup.get("upgraded", [])
    if not isinstance(notes, (list, tuple)) or any(not isinstance(n, str) or n not in UPGRADE_NOTES for n in notes):
        raise SetupError(f"Setup: 'upgraded' lists what an upgrade did ({', '.join(UPGRADE_NOTES)})")
    return sorted(set(notes))


def _spectator_flag(setup: Mapping[str, Any], deck: str) -> bool:
    """``"spectator": true`` marks a spectator's copy (:func:`public_game`): read-only, it
    replays from the cards played whatever its deck says (a copy of an app-deck game
    keeps ``"deck": "app"``, so without its flag it does not replay: issue 30). Absent
    (or false) for every game played at a table."""
    flag = setup.get("spectator", False)
    if not isinstance(flag, bool):
        raise SetupError("Setup: 'spectator' must be true (a spectator's copy) or false")
    return flag


def _controller(raw_side: Mapping[str, Any], where: str) -> dict[str, str]:
    """Solo (issue 12): ``"controller": "app"`` and its ``"level"``; nothing for people.

    People is the default and is left out of the canonical setup, so setups (saves,
    links) from before solo play normalize exactly as they did.
    """
    controller = raw_side.get("controller", "people")
    if controller not in CONTROLLERS:
        raise SetupError(f'{where}: the side is played by "people" or "the app" '
                         f'(controller "people" or "app", got {quote(controller)})')
    level = raw_side.get("level")
    if controller == "people":
        if level is not None:
            raise SetupError(f"{where}: a level is only for a side the app plays")
        return {}
    if level is None:
        level = "normal"
    if level not in APP_LEVELS:
        raise SetupError(f"{where}: the app's level is easy, normal or hard (got {quote(level)})")
    return {"controller": "app", "level": level}


def setup_sides(setup: Mapping[str, Any]) -> tuple[Side, Side]:
    """OIC-1/OIC-2: the sides of a setup as values (normalizes it first)."""
    setup = normalize_setup(setup)
    sides = []
    for raw in setup["sides"]:
        players = tuple(
            Player(p["name"], tuple(Organization(o["name"], o["power"], Suit(o["suit"]), o["location"])
                                    for o in p["organizations"]))
            for p in raw["players"]
        )
        sides.append(Side(raw["name"], Scope.parse(raw["scope"]), players))
    return sides[0], sides[1]


def setup_warnings(setup: Mapping[str, Any]) -> list[str]:
    """OIC-4/OIC-14/OIC-17: advice about a setup that is legal but probably not meant.

    Warns about a side that cannot be engaged in any suit at the conflict's scope
    (the conflict would be over before it starts), more than 5 players on a side,
    a player without organizations, and a side whose own scope is below the
    conflict's. Raises :class:`SetupError` if the setup itself is invalid.
    """
    normal = normalize_setup(setup)
    sides = setup_sides(normal)
    scope = Scope.parse(normal["scope"])
    warnings: list[str] = []
    for side in sides:
        if not side_engageable(side, scope):
            warnings.append(
                f"OIC-17: {side.name} cannot be engaged in any suit {scope.phrase} (every rating must "
                f"be above {scope.engage_threshold} to be engaged) — the conflict would be over before "
                "it starts.")
    for side in sides:
        count = len(side.players)
        if count > 5:
            warnings.append(
                f"OIC-14: {side.name} has {count} players. More than 5 players on a side gives no "
                f"advantage ({hand_size(count)} cards each, {hand_size(count) * count} in all).")
    for side in sides:
        for player in side.players:
            if not player.organizations:
                warnings.append(
                    f"OIC-5: {player.name} ({side.name}) controls no organization and can use only "
                    "face cards.")
    for side in sides:
        if side.scope.level < scope.level:
            warnings.append(
                f"OIC-4: {side.name} reaches only to {side.scope.label.lower()} scope but the conflict "
                f"is fought {scope.phrase}: its card sizes use its own scope (power − "
                f"{side.scope.offset}), and it can be engaged only in suits above "
                f"{scope.engage_threshold}.")
    return warnings


def purple_dragon_setup() -> dict[str, Any]:
    """OIC-7: the worked example — the Purple Dragon League against a zombie invasion.

    Both sides and the conflict are at home ground. The League (side 0): Warriors of
    Ki spades 14, fire department clubs 11, Little Leaguers diamonds 12, Tony's Pizza
    Delivery hearts 9 → max card sizes 9, 6, 7, 4. The Zombie invasion (side 1):
    hopping vampires spades 14, fireomancers clubs 11, shambling dead diamonds 12,
    ghosts of Christmas past hearts 13 → max card sizes 9, 6, 7, 8. The zombies
    invade, so they are the aggressor of round 1 (``"aggressor": 1``).

    The zombies' powers (derived from the card sizes the source gives), the locations
    and who opens are the app's choices, not the source's: :data:`SCENARIO_CHOICES`
    says so in words the table shows.
    """
    def side(name: str, player: str, location: str, orgs: list[tuple[str, int, str]]) -> dict[str, Any]:
        """A home side of one player whose organizations all stand at ``location``."""
        return {"name": name, "scope": "home", "players": [
            {"name": player, "organizations": [
                {"name": org, "power": power, "suit": suit, "location": location} for org, power, suit in orgs
            ]},
        ]}

    return {
        "sides": [
            side("Purple Dragon League", "Player 1", "the block", [
                ("Warriors of Ki", 14, "S"), ("fire department", 11, "C"), ("Little Leaguers", 12, "D"),
                ("Tony's Pizza Delivery", 9, "H"),
            ]),
            side("Zombie invasion", "Player 2", "the old cemetery", [
                ("hopping vampires", 14, "S"), ("fireomancers", 11, "C"), ("shambling dead", 12, "D"),
                ("ghosts of Christmas past", 13, "H"),
            ]),
        ],
        "scope": "home",
        "aggressor": 1,
        "deck": "app",
    }
