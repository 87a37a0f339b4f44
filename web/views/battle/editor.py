"""The setup editor: both armies with their dice pools live (AI-1 … AI-3), the rules settings
and the house result tables (AI-11); its taps."""

from __future__ import annotations

import copy
import random

from engine import ascension as ai
from engine.ascension import JIBRIL_NOTE
from engine.rules import SettingsError
from web.dom import button, h
from web.parts.rulebits import rule_ref, with_rule_refs
from web.parts.tool import example_panel, played_by

from . import matrix
from .draft import JIBRIL_TOUGHNESS, SETTING_KEYS, SIDE_CLASS, TRAIT_LABELS, blank_unit, is_jibril


def _draft_state(view):
    try:
        setup = ai.normalize_setup(view.draft)
        return ai.start(setup, view.rules, random.Random(0)), None
    except (ValueError, TypeError) as err:
        return None, str(err)


def render_setup(view):
    preview, problem = _draft_state(view)
    return h("div", {"class": "setup battle-setup", "data-testid": "setup"},
             example_panel("New battle",
                           ("Build both armies, or start from an example: a corps of three Jibril Armoured "
                            "Infantry Divisions (", rule_ref("AI-3", "battle"), ": 6 attack dice) against a Zone army."),
                           "Load the Jibril corps example", "battle:example"),
             h("div", {"class": "sides-grid"},
               [_army_editor(view, a, army, preview) for a, army in enumerate(view.draft["armies"])]),
             _settings_panel(view),
             h("p", {"class": "msg-error", "role": "alert", "data-testid": "setup-error"},
               with_rule_refs(problem, "battle")) if problem else None,
             h("p", {"class": "msg-error", "role": "alert"}, view.setup_error) if view.setup_error else None,
             h("div", {"class": "row start-row"},
               view.seed_field("rolls the same dice"),
               button("Start the battle", "battle:start", cls="btn primary big", disabled=preview is None)))


def _army_editor(view, a: int, army: dict, preview):
    units = army.get("units", [])
    rows = [_unit_row(view, a, u, unit) for u, unit in enumerate(units)]
    general = army.get("general")
    line_choices = [(i, u.get("name") or f"Unit {i + 1}") for i, u in enumerate(units)
                    if {"line", "infantry"} & set(u.get("traits", []))]
    return h("section", {"class": ["panel side-editor army-editor", SIDE_CLASS[a]], "aria-label": f"Army {a + 1}",
                         "data-testid": f"army-{a}"},
             h("div", {"class": "row"},
               _text(view, f"armies.{a}.name", army.get("name", ""), f"Army {a + 1} name", cls="side-name"),
               played_by(a, army, ai.APP_LEVELS, ai.LEVEL_LABELS)),
             h("div", {"class": "row general-row"},
               h("label", {"class": "field"}, "General (AI-1)",
                 h("select", {"data-field": f"general:{a}.level",
                              "value": "none" if general is None else str(general.get("level", 0))},
                   h("option", {"value": "none", "selected": general is None}, "No general"),
                   [h("option", {"value": str(lv), "selected": general is not None and general.get("level") == lv},
                      f"Level {lv}" + (" — skilled (AI-9)" if lv == 3 else "")) for lv in range(4)])),
               _text(view, f"armies.{a}.general.name", general.get("name", ""), "General's name")
               if general is not None else None,
               h("label", {"class": "check"},
                 h("input", {"type": "checkbox", "data-field": f"general:{a}.observer",
                             "checked": "observer" in general.get("traits", [])}), "Observer")
               if general is not None else None),
             h("p", {"class": "muted small"}, "Armour or size, not both (", rule_ref("AI-14", "battle"),
               "): armour N falls to N casualties in one week, size N to N in all. With neither, one casualty "
               "destroys a unit (", rule_ref("HR-AI-1", "battle"), ")."),
             h("div", {"class": "unit-list"}, rows),
             h("div", {"class": "row"},
               button("+ Jibril Armoured Infantry Division", "battle:add-jibril", str(a), cls="btn small"),
               button("+ Unit", "battle:add-unit", str(a), cls="btn small")),
             _jibril_note(view, a, units),
             h("div", {"class": "row"},
               h("label", {"class": "field"}, "Vanguard (a line unit, AI-1)",
                 h("select", {"data-field": f"setup:armies.{a}.vanguard", "value": str(army.get("vanguard", 0))},
                   [h("option", {"value": str(i), "selected": army.get("vanguard") == i}, name)
                    for i, name in line_choices] or
                   h("option", {"value": str(army.get("vanguard", 0))}, "— no line unit —"))),
               h("label", {"class": "field"}, "Rearguard (the default for a Withdraw, AI-2)",
                 h("select", {"data-field": f"setup:armies.{a}.rearguard",
                              "value": str(army.get("rearguard", 0))},
                   [h("option", {"value": str(i), "selected": army.get("rearguard", 0) == i},
                      u.get("name") or f"Unit {i + 1}") for i, u in enumerate(units)]))),
             _pool_table(view, preview, a) if preview is not None else None)


def _jibril_note(view, a: int, units: list):
    """Issue 22: where the preset is added, the source's gap is said, and filled in one tap."""
    jibril = [u for u in units if is_jibril(u)]
    if not jibril:
        return None
    bare = [u for u in jibril if not u.get("armour") and not u.get("size")]
    n = JIBRIL_TOUGHNESS
    return h("div", {"class": "jibril-note", "data-testid": f"jibril-note-{a}"},
             h("p", {"class": "small"}, with_rule_refs(JIBRIL_NOTE, "battle"),
               f" {len(bare)} of {len(jibril)} here have neither." if bare else
               " Those here have armour or size now; each can be changed in its row."),
             h("div", {"class": "row"},
               button(f"Give them armour {n}", "battle:jibril-armour", str(a), cls="btn small",
                      disabled=not bare, aria_label=f"Give them armour {n}: the Jibril divisions of army {a + 1}"),
               button(f"Give them size {n}", "battle:jibril-size", str(a), cls="btn small",
                      disabled=not bare, aria_label=f"Give them size {n}: the Jibril divisions of army {a + 1}"))
             if bare else None)


def _unit_row(view, a: int, u: int, unit: dict):
    base = f"armies.{a}.units.{u}"
    name = unit.get("name") or f"Unit {u + 1}"
    traits = unit.get("traits", [])
    both = bool(unit.get("armour")) and bool(unit.get("size"))

    def number(key, label, hi=99):
        value = unit.get(key, "")
        bad = not (isinstance(value, int) and 0 <= value <= hi) or (both and key in ("armour", "size"))
        return h("label", {"class": "field num"}, label,
                 h("input", {"type": "number", "inputmode": "numeric", "min": "0", "max": str(hi), "step": "1",
                             "data-field": f"setup:{base}.{key}", "value": str(value),
                             "aria-invalid": "true" if bad else None}))

    def trait(key, label):
        implied = key == "line" and "infantry" in traits
        return h("label", {"class": ["check", implied and "implied"]},
                 h("input", {"type": "checkbox", "data-field": f"trait:{a}.{u}.{key}",
                             "checked": key in traits or implied, "disabled": implied,
                             "aria-describedby": f"implied-{a}-{u}" if implied else None}), label)

    return h("div", {"class": "unit-row", "data-key": f"u{a}.{u}"},
             h("div", {"class": "row"},
               _text(view, f"{base}.name", unit.get("name", ""), "Unit", cls="unit-name"),
               button("✕", "battle:remove-unit", f"{a}.{u}", cls="btn small ghost remove",
                      aria_label=f"Remove {name}", disabled=len(view.draft["armies"][a]["units"]) <= 1)),
             h("div", {"class": "row stats"},
               number("attack", "Attack"), number("defense", "Defense"), number("mobility", "Mobility"),
               number("armour", "Armour"), number("size", "Size")),
             h("div", {"class": "row traits", "role": "group", "aria-label": f"Traits of {name}"},
               [trait(key, label) for key, label in TRAIT_LABELS.items()],
               h("span", {"class": "muted small", "id": f"implied-{a}-{u}"}, "an infantry division is a line "
                                                                               "unit (AI-1)")
               if "infantry" in traits else None))


def _text(view, path: str, value: str, label: str, cls: str = ""):
    return h("label", {"class": ["field", cls]}, label,
             h("input", {"type": "text", "data-field": f"setup:{path}", "value": value, "maxlength": "60",
                         "autocomplete": "off"}))


def _pool_table(view, st, a: int):
    """AI-2/AI-3: the dice of each maneuver, live, with the reinforcement and the next die."""
    rows = []
    for m in ai.MANEUVERS:
        pool = ai.dice_pool(st, a, m)
        line = st.armies[a].units[pool.line_unit].name if pool.line_unit is not None else "—"
        rows.append(h("tr", {"data-maneuver": m},
                      h("th", {"scope": "row"}, ai.MANEUVER_NAMES[m]),
                      h("td", {"class": "dice-count", "data-testid": f"pool-{a}-{m}"}, str(pool.dice)),
                      h("td", {}, f"{pool.base} {pool.stat} ({line}) + {pool.reinforcement}"),
                      h("td", {"class": "muted"}, f"rest {pool.rest_total}; next die needs +{pool.next_needs}"
                        if pool.next_needs is not None else "no reinforcement")))
    return h("table", {"class": "data-table pools", "aria-label": f"Dice pools of {st.armies[a].name}"},
             h("caption", {}, "Dice pools (", rule_ref("AI-2", "battle"), ", ", rule_ref("AI-3", "battle"), ")"),
             h("thead", {}, h("tr", {}, h("th", {"scope": "col"}, "Maneuver"), h("th", {"scope": "col"}, "Dice"),
                              h("th", {"scope": "col"}, "Base + reinforcement"),
                              h("th", {"scope": "col"}, "Strength"))),
             h("tbody", {}, rows))


def _variant_field(view, key: str):
    variant = ai.VARIANT_BY_KEY[key]
    badge = "House rule" if variant.rule_id.startswith("HR-") else "Variant"
    return h("div", {"class": "variant"},
             h("label", {"class": "field"},
               h("span", {}, h("span", {"class": "rule-id"}, variant.rule_id), " ", variant.label, " ",
                 h("span", {"class": ["badge", "house" if badge == "House rule" else "variant"]}, badge)),
               h("select", {"data-field": f"rules:{key}", "value": view.rules.get(key)},
                 [h("option", {"value": value, "selected": view.rules.get(key) == value}, text)
                  for value, text in variant.choices])),
             h("p", {"class": "muted small"}, variant.explanation))


def _settings_panel(view):
    house = view.rules.get("house_tables") or {}
    edited = sum(len(cols) for rows in house.values() for cols in rows.values())
    return h("section", {"class": "panel options", "aria-label": "Rules settings"},
             h("h2", {}, "Rules settings"),
             [_variant_field(view, key) for key in SETTING_KEYS],
             h("h3", {}, "House result tables (", rule_ref("AI-11", "battle"), ")"),
             h("p", {"class": "muted small"}, "Tap a cell to change it for your group. The engine reads "
               "“Withdraw succeeds”, “Withdraw fails” and “inflict N” or “inflict N-M casualties” from "
               "the words. ", f"{edited} cell{'s' if edited != 1 else ''} edited."),
             h("div", {"class": "row", "role": "radiogroup", "aria-label": "Table to edit"},
               [button(ai.TIER_NAMES[t], "battle:edit-tier", t, cls=["btn small", t == view.edit_tier and "on"],
                       role="radio", aria_checked="true" if t == view.edit_tier else "false")
                for t in ai.TIERS]),
             matrix.matrix(view, view.rules, view.edit_tier, editable=True),
             _cell_editor(view))


def _cell_editor(view):
    """A sheet fixed at the bottom of the screen: wherever the tapped cell is, the editor is
    seen (issue 22: at 1024×768 it opened above the table, off screen)."""
    if view.edit_cell is None:
        return None
    own, other = view.edit_cell
    cell = ai.result_cell(view.rules, view.edit_tier, own, other)
    return h("div", {"class": "cell-editor cell-sheet", "data-testid": "cell-editor", "role": "dialog",
                     "aria-modal": "false", "aria-labelledby": "cell-editor-label"},
             h("label", {"class": "field", "id": "cell-editor-label"},
               f"{ai.TIER_NAMES[view.edit_tier]}: {ai.MANEUVER_NAMES[own]} against {ai.MANEUVER_NAMES[other]}",
               h("input", {"type": "text", "data-field": "cell-text", "value": view.cell_text,
                           "maxlength": str(ai.CELL_MAX), "autocomplete": "off", "data-focus": "cell-text",
                           "aria-invalid": "true" if view.cell_error else None})),
             h("p", {"class": "muted small"}, "The source's text: “",
               ai.result_cell({}, view.edit_tier, own, other).text, "”"),
             h("p", {"class": "msg-error", "role": "alert"}, view.cell_error) if view.cell_error else None,
             h("div", {"class": "row"},
               button("Use as house rule", "battle:cell-save", cls="btn primary small"),
               button("Back to the rules' text", "battle:cell-reset", cls="btn small",
                      disabled=cell.origin != "house"),
               button("Close", "battle:cell-close", cls="btn small ghost")))


def save_cell(view, text: str) -> None:
    own, other = view.edit_cell
    house = copy.deepcopy(view.rules.get("house_tables") or {})
    house.setdefault(view.edit_tier, {}).setdefault(own, {})[other] = text
    try:
        view.rules["house_tables"] = ai.normalize_house_tables(house)
    except SettingsError as err:
        view.cell_error = str(err)
        return
    view.cell_error = None
    view._save_draft()


def on_example(view, arg, event) -> None:
    view.draft = ai.example_setup()
    view.setup_error = None
    view._save_draft()


def on_add_jibril(view, arg, event) -> None:
    armies = view.draft["armies"]
    if arg is None:
        return
    a = int(arg)
    number = sum(1 for u in armies[a]["units"] if is_jibril(u)) + 1
    armies[a]["units"].append(ai.jibril_division(f"Jibril Armoured Infantry Division {number}"))
    view._save_draft()


def _give_jibril(view, arg, key: str) -> None:
    """Issue 22: the Jibril divisions with neither armour nor size get ``key`` (AI-14)."""
    armies = view.draft["armies"]
    if arg is None:
        return
    for unit in armies[int(arg)]["units"]:
        if is_jibril(unit) and not unit.get("armour") and not unit.get("size"):
            unit[key] = JIBRIL_TOUGHNESS
    view._save_draft()


def on_jibril_armour(view, arg, event) -> None:
    _give_jibril(view, arg, "armour")


def on_jibril_size(view, arg, event) -> None:
    _give_jibril(view, arg, "size")


def on_add_unit(view, arg, event) -> None:
    armies = view.draft["armies"]
    if arg is None:
        return
    a = int(arg)
    armies[a]["units"].append(blank_unit(len(armies[a]["units"]) + 1))
    view._save_draft()


def on_remove_unit(view, arg, event) -> None:
    armies = view.draft["armies"]
    if not arg:
        return
    a, u = (int(x) for x in arg.split("."))
    units = armies[a]["units"]
    if len(units) > 1 and u < len(units):
        del units[u]
        for key in ("vanguard", "rearguard"):
            value = armies[a].get(key, 0)
            if isinstance(value, int) and value > u:
                armies[a][key] = value - 1
            elif value == u:
                armies[a][key] = 0  # its unit is gone: the first unit (the form says if it is no line unit)
    view._save_draft()


def on_edit_tier(view, arg, event) -> None:
    if arg not in ai.TIERS:
        return
    view.edit_tier = arg
    view.edit_cell = None


def on_edit_cell(view, arg, event) -> None:
    if not arg:
        return
    own, _, other = arg.partition(".")
    if own in ai.MANEUVERS and other in ai.MANEUVERS:
        view.edit_cell = (own, other)
        view.cell_text = ai.result_cell(view.rules, view.edit_tier, own, other).text
        view.cell_error = None
        view.app.focus_to("cell-text")


def on_cell_save(view, arg, event) -> None:
    if not view.edit_cell:
        return
    save_cell(view, view.cell_text)


def on_cell_reset(view, arg, event) -> None:
    if not view.edit_cell:
        return
    own, other = view.edit_cell
    house = copy.deepcopy(view.rules.get("house_tables") or {})
    house.get(view.edit_tier, {}).get(own, {}).pop(other, None)
    view.rules["house_tables"] = ai.normalize_house_tables(
        {t: {r: c for r, c in rows.items() if c} for t, rows in house.items()})
    view.cell_text = ai.result_cell(view.rules, view.edit_tier, own, other).text
    view.cell_error = None
    view._save_draft()


def on_cell_close(view, arg, event) -> None:
    if not view.edit_cell:
        return
    own, other = view.edit_cell
    view.edit_cell, view.cell_error = None, None
    view.app.focus_to(f"cell-{own}.{other}")


#: The taps of this screen: action name → what it does (BattleView.ACTIONS).
ACTIONS = {"example": on_example, "add-jibril": on_add_jibril, "jibril-armour": on_jibril_armour,
           "jibril-size": on_jibril_size, "add-unit": on_add_unit, "remove-unit": on_remove_unit,
           "start": lambda view, arg, event: view._start(), "edit-tier": on_edit_tier, "edit-cell": on_edit_cell,
           "cell-save": on_cell_save, "cell-reset": on_cell_reset, "cell-close": on_cell_close}
