"""The battle's setup form as the view keeps it (AI-1, AI-2): the blank armies and rules, and a
kept draft read back as hostile input (issue 35)."""

from __future__ import annotations

from engine import ascension as ai
from engine.ascension import JIBRIL_DIVISION
from engine.rules import SettingsError
from web.parts.tool import whole

DRAFT_KEY = "ct:v1:draft:battle"


SIDE_CLASS = ("side-a", "side-b")


TRAIT_LABELS = {"infantry": "Infantry", "line": "Line", "scout": "Scout", "observer": "Observer",
                "long range": "Long range"}


STATS = ("attack", "defense", "mobility", "armour", "size")


#: The armour or size the one-tap Jibril buttons give (the source gives no number).
JIBRIL_TOUGHNESS = 2


SETTING_KEYS = ("success", "reads", "dice")


def blank_unit(number: int = 1) -> dict:
    return {"name": f"Unit {number}", "attack": 2, "defense": 2, "mobility": 2, "traits": ["infantry", "line"],
            "armour": 0, "size": 0}


def blank_setup() -> dict:
    return {"armies": [
        {"name": "Army A", "units": [ai.jibril_division()], "vanguard": 0, "rearguard": 0, "general": None},
        {"name": "Army B", "units": [blank_unit()], "vanguard": 0, "rearguard": 0, "general": None},
    ]}


def blank_rules() -> dict:
    return {"success": "d6/4+", "reads": "both", "dice": "app", "house_tables": {}}


def game_name(game) -> str:
    first, second = (army["name"] for army in game.setup["armies"])
    return f"{first} vs {second}"


def is_jibril(unit: dict) -> bool:
    return isinstance(unit.get("name"), str) and unit["name"].startswith(JIBRIL_DIVISION["name"])


def _text_field(value, fallback: str, what: str, problems: list[str]) -> str:
    if isinstance(value, str):
        return value[:60]
    problems.append(f"{what} was not text")
    return fallback


def _number_field(value, what: str, problems: list[str], default: int = 0):
    """A stat as the form keeps it: a whole number, or the text typed so far (shown as typed)."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        problems.append(f"{what} was not a number")
        return default
    if isinstance(value, str):
        return value[:6]
    return value


def _trait_list(value, allowed, what: str, problems: list[str]) -> list[str]:
    if not isinstance(value, list):
        problems.append(f"{what} were not a list")
        return []
    kept = [t for t in value if isinstance(t, str) and t in allowed]
    if len(kept) != len(value):
        problems.append(f"{what} had unknown entries")
    return list(dict.fromkeys(kept))


def _index(value, count: int, what: str, problems: list[str]) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < count:
        return value
    if value is not None:
        problems.append(f"{what} was not one of the army's units")
    return 0


def repair_draft(setup, rules=None) -> tuple[dict, dict, list[str]]:
    """The setup form's draft as stored (hand-edited, from an older version …), made safe to
    edit: every field of the shape the form edits, wrong fields replaced or dropped. Returns
    ``(setup, rules, problems)``: what was repaired, in players' words (empty: nothing)."""
    problems: list[str] = []
    blank = blank_setup()
    if not isinstance(setup, dict) or not isinstance(setup.get("armies"), list) or len(setup["armies"]) != 2:
        if setup is not None:
            problems.append("the armies could not be read, so the form starts fresh")
        return blank, repair_rules(rules, problems), problems
    armies = []
    for a, army in enumerate(setup["armies"]):
        where = f"Army {a + 1}"
        if not isinstance(army, dict):
            problems.append(f"{where} could not be read and was replaced")
            armies.append(blank["armies"][a])
            continue
        units = []
        raw_units = army.get("units") if isinstance(army.get("units"), list) else []
        for u, unit in enumerate(raw_units[:200]):
            uwhere = f"{where}, unit {u + 1}"
            if not isinstance(unit, dict):
                problems.append(f"{uwhere} could not be read and was dropped")
                continue
            units.append({"name": _text_field(unit.get("name", ""), f"Unit {u + 1}", f"{uwhere}'s name", problems),
                          **{key: _number_field(unit.get(key, 0), f"{uwhere}'s {key}", problems) for key in STATS},
                          "traits": _trait_list(unit.get("traits", []), ai.TRAITS, f"{uwhere}'s traits", problems)})
        if not units:
            problems.append(f"{where} had no unit that could be read: it has a blank one")
            units = [blank_unit()]
        general = army.get("general")
        if general is not None:
            if not isinstance(general, dict):
                problems.append(f"{where}'s general could not be read and was removed")
                general = None
            else:
                level = general.get("level")
                if not (isinstance(level, int) and not isinstance(level, bool) and 0 <= level <= 3):
                    problems.append(f"{where}'s general's level was not 0 to 3")
                    level = 0
                general = {"name": _text_field(general.get("name", ""), f"General of {where}",
                                               f"{where}'s general's name", problems),
                           "level": level,
                           "traits": _trait_list(general.get("traits", []), ("observer",),
                                                 f"{where}'s general's traits", problems)}
        armies.append({"name": _text_field(army.get("name", ""), where, f"{where}'s name", problems),
                       "units": units,
                       "vanguard": _index(army.get("vanguard", 0), len(units), f"{where}'s vanguard", problems),
                       "rearguard": _index(army.get("rearguard", 0), len(units), f"{where}'s rearguard", problems),
                       "general": general})
        if army.get("controller") == "app":  # issue 17: the app plays this army
            level = army.get("level")
            if not (isinstance(level, str) and level in ai.APP_LEVELS):
                problems.append(f"{where}'s general played by the app had no level that could be read (Normal now)")
                level = "normal"
            armies[-1].update(controller="app", level=level)
    return {"armies": armies}, repair_rules(rules, problems), problems


def clean_kept(data) -> tuple[dict | None, list[str]]:
    """The kept setup form as it is stored, ``{"setup": …, "rules": …}``, and what was
    repaired (for :meth:`ToolView.read_kept`); ``(None, [])`` when nothing is kept."""
    if data is None:
        return None, []
    setup = data.get("setup") if isinstance(data, dict) else data
    rules = data.get("rules") if isinstance(data, dict) else None
    setup, rules, problems = repair_draft(setup, rules)
    return {"setup": setup, "rules": rules}, problems


def repair_rules(rules, problems: list[str]) -> dict:
    out = blank_rules()
    if rules is None:
        return out
    if not isinstance(rules, dict):
        problems.append("the rules settings could not be read (the defaults are used)")
        return out
    for key in SETTING_KEYS:
        value = rules.get(key, out[key])
        if isinstance(value, str) and value in [c for c, _ in ai.VARIANT_BY_KEY[key].choices]:
            out[key] = value
        else:
            problems.append(f"the setting “{ai.VARIANT_BY_KEY[key].label}” was not a choice (the default is used)")
    try:
        out["house_tables"] = ai.normalize_house_tables(rules.get("house_tables"))
    except (ValueError, SettingsError):
        problems.append("the house tables could not be read and were dropped")
    return out


def _int(text: str):
    text = text.strip()
    return int(text) if whole(text) and len(text) <= 6 else text
