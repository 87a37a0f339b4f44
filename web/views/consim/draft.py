"""The roster form as the view keeps it: the blank form and draft, and what was kept between
visits (roster, templates, saved sides, ticks, the players' view) read back as hostile input
(issue 35)."""

from __future__ import annotations

import re

from engine import consim as cs
from web.parts.tool import whole

ROUTE = "initiative"


DRAFT_KEY = "ct:v1:draft:initiative"


TEMPLATES_KEY = "ct:v1:initiative:templates"


SIDES_KEY = "ct:v1:initiative:sides"


#: The ticks for the next deal (advantages, surprise, per-combatant rows), per game and round.
TICKS_KEY = "ct:v1:initiative:ticks"


#: Where the focus goes after a step of the round (the first that is on the screen).
NEXT_FOCUS = ("next", "end", "deal")


#: Whether the players' view is on (view state: it must survive a reload, issue 21).
VIEW_KEY = "ct:v1:initiative:view"


SIDE_CLASS = ("side-a", "side-b", "side-c", "side-d", "side-e", "side-f", "side-g", "side-h")


MAX_SIDES = len(SIDE_CLASS)


MAX_COUNT = 40


#: A kept combatant's name longer than this is cut (the engine takes 40; the form shows why).
MAX_KEPT_NAME = 200


_NUMBERED = re.compile(r"^(.*\S)\s+(\d+)$")


_TRAITS = tuple(t.value for t in cs.Trait)


_GRAINS = tuple(g.value for g in cs.Grain)


_TRAINING = tuple(t.value for t in cs.Training)


def blank_form() -> dict:
    return {"name": "", "side": 0, "grain": "individual", "training": "trained", "weapon": [],
            "player": False, "count": "1"}


def blank_draft() -> dict:
    return {"sides": ["Players", "Opposition"], "combatants": [], "privacy": True, "count_hidden": False}


def hidden_by_default(draft: dict, index: int) -> bool:
    """HR-CS-8: a non-player combatant is hidden by default when its side has no player
    character (the Observer's side); the players' allies stay in sight."""
    c = draft["combatants"][index]
    return not c["player"] and not any(o["player"] and o["side"] == c["side"] for o in draft["combatants"])


def kept_hidden(draft: dict, index: int) -> bool:
    """HR-CS-8: the Observer's choice for this roster line, else the default."""
    c = draft["combatants"][index]
    if c["player"]:
        return False
    return c["hidden"] if isinstance(c.get("hidden"), bool) else hidden_by_default(draft, index)


def kept_equipment(data) -> dict:
    """The kept roster form's choice of cards and dice (HR-CS-6, HR-CS-7): only known values."""
    rules = data.get("rules") if isinstance(data, dict) else None
    if not isinstance(rules, dict):
        return {}
    return {key: rules[key] for key in ("deck", "dice") if rules.get(key) in ("app", "table")}


def game_name(game) -> str:
    """A save's name: "Players vs Opposition"."""
    return " vs ".join(game.setup["sides"])


def combatant_of(form: dict) -> dict:
    return {"name": form["name"].strip(), "side": int(form["side"]), "grain": form["grain"],
            "training": form["training"], "weapon": list(form["weapon"]), "player": bool(form["player"])}


def numbered(name: str, count: int, taken: set[str]) -> list[str]:
    """"Rifleman" ×3 → Rifleman 1, 2, 3 (continuing after numbers already on the roster)."""
    if count == 1 and name not in taken:
        return [name]
    start = 1
    for other in taken:
        match = _NUMBERED.match(other)
        if match and match.group(1) == name:
            start = max(start, int(match.group(2)) + 1)
    return [f"{name} {start + i}" for i in range(count)]


def clean_combatant(raw, sides: int, notes: list[str], where: str = "a combatant") -> dict | None:
    """A roster entry the form and the list can draw, or ``None`` (dropped, with a note)."""
    if not isinstance(raw, dict):
        notes.append(f"{where} that was not a roster entry was dropped")
        return None
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        notes.append(f"{where} without a name was dropped")
        return None
    if len(name) > MAX_KEPT_NAME:
        notes.append(f"{where} “{name.strip()[:40]}…” had a far too long name, which was cut")
        name = name[:MAX_KEPT_NAME]
    label = f"{where} “{name.strip()[:40]}”"
    side = raw.get("side", 0)
    if not isinstance(side, int) or isinstance(side, bool) or not 0 <= side < sides:
        notes.append(f"{label} was on no side of this roster: dropped")
        return None
    out = {"name": name, "side": side, "grain": "individual", "training": "untrained", "weapon": [],
           "player": False}
    for key, allowed in (("grain", _GRAINS), ("training", _TRAINING)):
        value = raw.get(key, out[key])
        if isinstance(value, str) and value in allowed:
            out[key] = value
        else:
            notes.append(f"{label}: its {'kind' if key == 'grain' else key} was unreadable, now {out[key]}")
    weapon = raw.get("weapon", [])
    if isinstance(weapon, list) and all(isinstance(t, str) and t in _TRAITS for t in weapon):
        traits = []
        for t in weapon:  # CS-11: automatic or semi-automatic; ground- or air-vehicle
            pair = next((p for p in (("automatic", "semi-automatic"), ("ground-vehicle", "air-vehicle")) if t in p), ())
            if t not in traits and not any(o in traits for o in pair if o != t):
                traits.append(t)
        out["weapon"] = traits
    else:
        notes.append(f"{label}: its weapon traits were unreadable, now none")
    player = raw.get("player", False)
    if isinstance(player, bool):
        out["player"] = player
    else:
        notes.append(f"{label}: “player character” was unreadable, now off")
    if isinstance(raw.get("hidden"), bool) and not out["player"]:
        out["hidden"] = raw["hidden"]  # HR-CS-8: the Observer's choice
    return out


def repair_draft(data) -> tuple[dict, bool, list[str]]:
    """The kept roster form ``{"draft": …, "rules": …}`` as ``(draft, pulp, notes)``."""
    notes: list[str] = []
    draft, pulp = blank_draft(), False
    if data is None:
        return draft, pulp, notes
    if not isinstance(data, dict) or not isinstance(data.get("draft"), dict):
        return draft, pulp, ["the kept roster form could not be read, so it starts afresh"]
    raw = data["draft"]
    sides = raw.get("sides")
    if isinstance(sides, list) and sides:
        names = [s if isinstance(s, str) else f"Side {i + 1}" for i, s in enumerate(sides)]
        if any(not isinstance(s, str) for s in sides):
            notes.append("a side's name was unreadable and was renamed")
        if len(names) > MAX_SIDES:
            notes.append(f"the roster had {len(names)} sides; a roster has at most {MAX_SIDES}: "
                         f"kept the first {MAX_SIDES}")
            names = names[:MAX_SIDES]
        while len(names) < 2:
            names.append(blank_draft()["sides"][len(names)])
        draft["sides"] = names
    elif sides is not None:
        notes.append("the sides were unreadable: Players and Opposition")
    combatants = raw.get("combatants", [])
    if not isinstance(combatants, list):
        notes.append("the roster list was unreadable: it is empty now")
        combatants = []
    draft["combatants"] = [c for c in (clean_combatant(c, len(draft["sides"]), notes) for c in combatants) if c]
    privacy = raw.get("privacy", True)
    draft["privacy"] = privacy if isinstance(privacy, bool) else True
    if not isinstance(privacy, bool):
        notes.append("whether the Observer's combatants are hidden was unreadable, now hidden")
    count_hidden = raw.get("count_hidden", False)
    draft["count_hidden"] = count_hidden is True  # HR-CS-8: off unless the Observer said so
    rules = data.get("rules")
    if isinstance(rules, dict) and isinstance(rules.get("pulp"), bool):
        pulp = rules["pulp"]
    elif rules is not None and not (isinstance(rules, dict) and rules.get("pulp") is None):
        notes.append("the pulp setting was unreadable, now off")
    if isinstance(rules, dict):
        for key in ("deck", "dice"):
            if rules.get(key) is not None and rules.get(key) not in ("app", "table"):
                notes.append(f"whose {'cards' if key == 'deck' else 'dice'} was unreadable, now the app's")
    return draft, pulp, notes


def clean_kept_draft(data) -> tuple[dict, list[str]]:
    """The kept roster form as it is stored, ``{"draft": …, "rules": …}``, and notes."""
    draft, pulp, notes = repair_draft(data)
    return {"draft": draft, "rules": {"pulp": pulp, **kept_equipment(data)}}, notes


def clean_ticks(data) -> tuple[dict, list[str]]:
    """The kept ticks for the next deal (``_store_ticks``'s shape), checked field by
    field; anything else clears them, with a note (issue 35: a key "²" broke the table)."""
    if data is None or data == {}:
        return {}, []
    cleared = ({}, ["the ticks for the next deal could not be read, so they were cleared"])
    if not isinstance(data, dict):
        return cleared
    slot, rnd, adv = data.get("slot"), data.get("round"), data.get("advantages", {})
    surprised, per = data.get("surprised", []), data.get("per", False)
    if slot is not None and not (isinstance(slot, str) and slot.startswith(ROUTE + "-") and len(slot) <= 60):
        return cleared
    if not (isinstance(rnd, int) and not isinstance(rnd, bool) and 0 <= rnd < 1_000_000):
        return cleared
    if not isinstance(adv, dict) or not all(
            whole(k) and len(k) <= 4 and isinstance(v, list) and all(isinstance(a, str) and a in cs.ADVANTAGES
                                                                     for a in v) for k, v in adv.items()):
        return cleared
    if not isinstance(surprised, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) and 0 <= i < MAX_SIDES for i in surprised):
        return cleared
    if not isinstance(per, bool):
        return cleared
    return {"slot": slot, "round": rnd, "advantages": {k: list(dict.fromkeys(v)) for k, v in adv.items()},
            "surprised": sorted(set(surprised)), "per": per}, []


def clean_view(data) -> tuple[dict, list[str]]:
    """Whether the players' view is on, kept as ``{"players": true}``."""
    if data is None:
        return {"players": False}, []
    if isinstance(data, dict) and isinstance(data.get("players"), bool):
        return {"players": data["players"]}, []
    return {"players": False}, ["whether the players' view was on could not be read, so it is off"]


def noted(clean):
    """``clean(data, notes)`` as ``data → (value, notes)`` (for :meth:`ToolView.read_kept`)."""
    def read(data):
        notes: list[str] = []
        return clean(data, notes), notes

    return read


def _named(data, notes: list[str], what: str, dropped: str, whole=lambda entry: True):
    """The entries of a kept list (the kept ``what``) that are objects with a name (and ``whole``),
    one by one; a list that cannot be read is noted and read as empty, any other entry is noted
    (``dropped``) and dropped, each note in turn as the entries are read."""
    if data is None:
        return
    if not isinstance(data, list):
        notes.append(f"the kept {what} could not be read")
        return
    for entry in data:
        if isinstance(entry, dict) and isinstance(entry.get("name"), str) and entry["name"].strip() and whole(entry):
            yield entry
        else:
            notes.append(dropped)


def clean_templates(data, notes: list[str]) -> list[dict]:
    """Kept templates: ``{"name": …, "combatant": {…}}`` each, repaired or dropped."""
    out = []
    for t in _named(data, notes, "templates", "a template without a name was dropped"):
        raw = t.get("combatant")
        raw = {**raw, "name": raw.get("name", t["name"]), "side": 0} if isinstance(raw, dict) else None
        entry = clean_combatant(raw, 1, notes, "template") if raw is not None else None
        if entry is None:
            if raw is None:
                notes.append(f"template “{t['name'][:40]}” held no combatant: dropped")
            continue
        out.append({"name": t["name"], "combatant": entry})
    return out


def clean_saved_sides(data, notes: list[str]) -> list[dict]:
    """Kept sides: ``{"name": …, "combatants": […]}`` each, repaired or dropped."""
    out = []
    for s in _named(data, notes, "sides", "a kept side that could not be read was dropped",
                    lambda s: isinstance(s.get("combatants"), list)):
        members = [clean_combatant({**c, "side": 0} if isinstance(c, dict) else c, 1, notes,
                                   f"in side “{s['name'][:40]}”, a combatant") for c in s["combatants"]]
        out.append({"name": s["name"], "combatants": [{k: v for k, v in m.items() if k != "side"}
                                                     for m in members if m]})
    return out


def ticks_for(view, st) -> tuple[dict[int, list[str]], set[int], bool]:
    """The ticks for the next deal: what the Observer set for this round, or else
    the advantages of the last deal carried over and no surprise (issue 22)."""
    t = view.ticks
    mine = isinstance(t, dict) and t.get("slot") == view.session.slot and t.get("round") == st.round + 1
    per = bool(t.get("per")) if isinstance(t, dict) else False
    if mine:
        adv = {}
        raw = t.get("advantages")
        if isinstance(raw, dict):
            for k, v in raw.items():
                if isinstance(k, str) and whole(k) and int(k) < len(st.combatants) and isinstance(v, list):
                    adv[int(k)] = [a for a in cs.ADVANTAGES if a in v]
        surprised = t.get("surprised")
        surprised = {s for s in surprised if isinstance(s, int) and not isinstance(s, bool)
                     and 0 <= s < len(st.sides)} if isinstance(surprised, list) else set()
        return adv, surprised, per
    adv = {i: list(a) for i, a in enumerate(st.advantages) if a and cs.can_act(st, i)}
    return adv, set(), per
