"""The roster screen: the combatant form, the roster, templates and saved sides, and the start
(CS-1, CS-11); its taps."""

from __future__ import annotations

import copy

from engine import consim as cs
from engine.text import plural
from web.dom import button, h
from web.parts.rulebits import rule_ref
from web.parts.tool import whole

from .draft import (
    _NUMBERED,
    MAX_COUNT,
    MAX_SIDES,
    ROUTE,
    SIDE_CLASS,
    SIDES_KEY,
    TEMPLATES_KEY,
    blank_form,
    combatant_of,
    kept_hidden,
    numbered,
)


def render_roster(view):
    d = view.draft
    problem = None
    try:
        cs.normalize_setup(engine_setup(view))
    except ValueError as err:
        problem = str(err)
    return h("div", {"class": "ini-roster", "data-testid": "roster"},
             h("section", {"class": "panel", "aria-label": "Sides"},
               h("h2", {}, "Sides"),
               h("div", {"class": "row"},
                 [h("div", {"class": ["ini-side-name", SIDE_CLASS[i % MAX_SIDES]], "data-key": f"s{i}"},
                    _input(view, f"init:side.{i}", name, f"Side {i + 1} name"),
                    button("✕", "init:remove-side", i, cls="btn small ghost", aria_label=f"Remove side {name}")
                    if len(d["sides"]) > 2 and not any(c["side"] == i for c in d["combatants"]) else None)
                  for i, name in enumerate(d["sides"])],
                 button("+ Side", "init:add-side", cls="btn small", disabled=len(d["sides"]) >= MAX_SIDES))),
             _form_panel(view),
             _roster_list(view),
             _saved_panel(view),
             _start_panel(view, problem))


def _input(view, field: str, value: str, label: str, *, placeholder: str = "", hidden_label: bool = False,
           max_len: int = 40, testid: str | None = None, key: str | None = None, focus: str | None = None):
    return h("label", {"class": "field", "data-key": key},
             h("span", {"class": "visually-hidden"} if hidden_label else {}, label),
             h("input", {"type": "text", "data-field": field, "value": value, "maxlength": str(max_len),
                         "placeholder": placeholder or None, "autocomplete": "off", "data-testid": testid,
                         "data-focus": focus}))


def _select(view, field: str, value: str, label: str, options):
    return h("label", {"class": "field"}, label,
             h("select", {"data-field": field, "value": value},
               [h("option", {"value": v, "selected": v == value}, text) for v, text in options]))


def _form_panel(view):
    f = view.form
    editing = view.editing is not None
    traits = h("fieldset", {"class": "ini-traits"},
               h("legend", {}, "Weapon traits (CS-11)"),
               [h("label", {"class": "ini-check"},
                  h("input", {"type": "checkbox", "data-field": f"init:form.weapon.{t.value}",
                              "checked": t.value in f["weapon"]}), t.label)
                for t in cs.Trait])
    count = f.get("count", "1")
    n = _count(view)
    add_label = ("Save changes" if editing else
                 f"Add {f['name'].strip() or 'combatant'} ×{n}" if n and n > 1 else "Add to roster")
    templates = None
    if view.templates and not editing:
        templates = h("div", {"class": "row ini-templates", "role": "group", "aria-label": "Templates"},
                      h("span", {"class": "muted small"}, "Templates:"),
                      [button(t["name"], "init:template", i, cls="btn small") for i, t in enumerate(view.templates)])
    return h("section", {"class": "panel ini-form", "aria-label": "Add a combatant"},
             h("h2", {}, f"Edit {view.draft['combatants'][view.editing]['name']}" if editing else "Add combatants"),
             templates,
             h("div", {"class": "ini-form-grid"},
               _input(view, "init:form.name", f["name"], "Name", placeholder="Rifleman", testid="form-name",
                           key=f"name-{view.form_gen}", focus="form-name"),
               _select(view, "init:form.side", str(f["side"]), "Side",
                            [(str(i), s) for i, s in enumerate(view.draft["sides"])]),
               _select(view, "init:form.grain", f["grain"], "Kind (CS-1)",
                            [(g.value, g.value.capitalize()) for g in cs.Grain]),
               _select(view, "init:form.training", f["training"], "Training (CS-8)",
                            [(t.value, f"{t.label} (+{t.bonus} to hit)") for t in cs.Training]),
               None if editing else h("label", {"class": "field ini-count"}, "How many",
                                      h("input", {"type": "number", "inputmode": "numeric", "min": "1",
                                                  "max": str(MAX_COUNT), "data-field": "init:form.count",
                                                  "value": count, "aria-invalid": "true" if n is None else None})),
               h("label", {"class": "ini-check"},
                 h("input", {"type": "checkbox", "data-field": "init:form.player", "checked": f["player"]}),
                 "Player character")),
             traits,
             h("div", {"class": "row"},
               button(add_label, "init:add", cls="btn primary", disabled=not f["name"].strip() or n is None),
               button("Cancel", "init:cancel-edit", cls="btn ghost") if editing else None,
               button("Save as template", "init:save-template", cls="btn small",
                      disabled=not f["name"].strip()) if not editing else None))


def _count(view) -> int | None:
    text = str(view.form.get("count", "1")).strip()
    if whole(text) and 1 <= int(text) <= MAX_COUNT:
        return int(text)
    return None


def _summary(view, c: dict) -> str:
    bits = [c["grain"], c["training"]] + [cs.Trait(t).label.lower() for t in c["weapon"]]
    return ", ".join(bits)


def _roster_list(view):
    d = view.draft
    groups = []
    for s, side in enumerate(d["sides"]):
        rows = []
        for i, c in enumerate(d["combatants"]):
            if c["side"] != s:
                continue
            rows.append(h("li", {"class": ["ini-row", view.editing == i and "editing"], "data-key": f"c{i}"},
                          h("div", {"class": "ini-row-main"},
                            h("strong", {}, c["name"]),
                            h("span", {"class": "badge"}, "PC") if c["player"] else None,
                            h("span", {"class": "muted small"}, _summary(view, c))),
                          h("div", {"class": "row ini-row-buttons"},
                            _hide_check(view, i, c),
                            button("↑", "init:up", i, cls="btn small ghost", aria_label=f"Move {c['name']} up",
                                   disabled=i == 0),
                            button("↓", "init:down", i, cls="btn small ghost",
                                   aria_label=f"Move {c['name']} down", disabled=i == len(d["combatants"]) - 1),
                            button("Edit", "init:edit", i, cls="btn small", aria_label=f"Edit {c['name']}"),
                            button("Duplicate", "init:dup", i, cls="btn small",
                                   aria_label=f"Duplicate {c['name']}"),
                            button("✕", "init:remove", i, cls="btn small ghost danger",
                                   aria_label=f"Remove {c['name']}"))))
        count = len(rows)
        groups.append(h("section", {"class": ["panel ini-side", SIDE_CLASS[s % MAX_SIDES]], "data-key": f"g{s}",
                                    "aria-label": f"{side} roster"},
                        h("div", {"class": "spread"},
                          h("h2", {}, f"{side} ", h("span", {"class": "muted small"}, f"({count})")),
                          button(["Save this side", h("span", {"class": "visually-hidden"}, f" ({side})")],
                                 "init:save-side", s, cls="btn small", disabled=not count)),
                        h("ol", {"class": "ini-list"}, rows) if rows else
                        h("p", {"class": "muted"}, "No combatants yet.")))
    return h("div", {"class": "ini-sides-grid"}, groups)


def _hide_check(view, i: int, c: dict):
    """HR-CS-8: the Observer's choice, line by line: hidden from the players' view or in sight."""
    if c["player"]:
        return None
    return h("label", {"class": "ini-check ini-hide", "data-testid": f"hide-{i}"},
             h("input", {"type": "checkbox", "data-field": f"init:hide.{i}", "checked": kept_hidden(view.draft, i),
                         "aria-label": f"Hide {c['name']} from the players"}),
             "Hidden")


def _saved_panel(view):
    if not view.saved_sides and not view.templates:
        return None
    return h("section", {"class": "panel", "aria-label": "Saved sides and templates"},
             h("h2", {}, "Kept between games"),
             h("ul", {"class": "ini-saved"},
               [h("li", {"data-key": f"ss{i}"},
                  h("span", {}, h("strong", {}, s["name"]), f" — {plural(len(s['combatants']), 'combatant')}"),
                  button("Load", "init:load-side", i, cls="btn small", aria_label=f"Load side {s['name']}"),
                  button("Forget", "init:forget-side", i, cls="btn small ghost",
                         aria_label=f"Forget side {s['name']}"))
                for i, s in enumerate(view.saved_sides)],
               [h("li", {"data-key": f"t{i}"},
                  h("span", {}, "Template ", h("strong", {}, t["name"])),
                  button("Forget", "init:forget-template", i, cls="btn small ghost",
                         aria_label=f"Forget template {t['name']}"))
                for i, t in enumerate(view.templates)]))


def _start_panel(view, problem: str | None):
    variant = cs.VARIANTS[0]
    return h("section", {"class": "panel", "aria-label": "Start"},
             h("h2", {}, "Settings"),
             h("label", {"class": "ini-check"},
               h("input", {"type": "checkbox", "data-field": "init:rules.pulp", "checked": view.rules["pulp"]}),
               h("span", {}, rule_ref(variant.rule_id, ROUTE), " ", h("span", {"class": "badge variant"}, "Variant"),
                 " Pulp: ", variant.choices[1][1].lower())),
             [h("label", {"class": "ini-check"},
                h("input", {"type": "checkbox", "data-field": f"init:rules.{key}",
                            "checked": view.rules[key] == "table"}),
                h("span", {}, rule_ref(cs.VARIANT_BY_KEY[key].rule_id, ROUTE), " ",
                  h("span", {"class": "badge house"}, "House rule"), " ",
                  cs.VARIANT_BY_KEY[key].sentence("table")))
              for key in ("deck", "dice")],
             h("label", {"class": "ini-check"},
               h("input", {"type": "checkbox", "data-field": "init:privacy",
                           "checked": view.draft.get("privacy", True)}),
               "Hide the combatants marked “Hidden” from the players' view and spectator links"),
             h("label", {"class": "ini-check"},
               h("input", {"type": "checkbox", "data-field": "init:count_hidden",
                           "checked": bool(view.draft.get("count_hidden", False))}),
               h("span", {}, rule_ref("HR-CS-8", ROUTE), " ", h("span", {"class": "badge house"}, "House rule"),
                 " Say how many are hidden (off: each side's hidden combatants are one line, not counted)")),
             view.seed_field(field="init:seed"),
             h("p", {"class": "msg-error", "role": "alert"}, problem) if problem and view.draft["combatants"] else None,
             h("p", {"class": "msg-error", "role": "alert"}, view.setup_error) if view.setup_error else None,
             h("div", {"class": "row start-row"},
               button("Start tracking", "init:start", cls="btn primary big", disabled=problem is not None)))


def engine_setup(view) -> dict:
    """The roster the engine starts from; every non-player line says whether it is hidden
    (HR-CS-8: the Observer's choice, else its default), and whether the hidden are counted."""
    d = view.draft
    lines = [{**{k: v for k, v in c.items() if k != "hidden"}, **({} if c["player"] else {"hidden": kept_hidden(d, i)})}
             for i, c in enumerate(d["combatants"])]
    return {"sides": list(d["sides"]), "combatants": lines, "privacy": bool(d.get("privacy", True)),
            "count_hidden": bool(d.get("count_hidden", False))}


def load_side(view, saved: dict) -> None:
    d = view.draft
    combatants = d["combatants"]
    if saved["name"] in d["sides"]:
        s = d["sides"].index(saved["name"])
    else:
        empty = [i for i in range(len(d["sides"])) if not any(c["side"] == i for c in combatants)]
        if empty:
            s = empty[0]
            d["sides"][s] = saved["name"]
        elif len(d["sides"]) < MAX_SIDES:
            d["sides"].append(saved["name"])
            s = len(d["sides"]) - 1
        else:
            view.app.toast(f"A roster has at most {MAX_SIDES} sides.", "error")
            return
    taken = {c["name"] for c in combatants}
    for c in saved["combatants"]:
        entry = {**copy.deepcopy(c), "side": s}
        if entry["name"] in taken:
            entry["name"] = numbered(_NUMBERED.sub(r"\1", entry["name"]), 1, taken)[0]
        taken.add(entry["name"])
        combatants.append(entry)


def restore(view, index: int, combatant: dict) -> None:
    view.draft["combatants"].insert(min(index, len(view.draft["combatants"])), combatant)
    view._save_draft()


def add_combatant(view) -> None:
    f = view.form
    count = _count(view)
    if not f["name"].strip() or count is None:
        return
    entry = combatant_of(f)
    try:
        cs.normalize_setup({"sides": view.draft["sides"], "combatants": [entry]})
    except ValueError as err:
        view.app.toast(str(err).replace("Combatant 1", "This combatant"), "error")
        return
    combatants = view.draft["combatants"]
    # A new name field: Safari leaves the focus in the old one, whose typed text a
    # patch would keep (issue 22): the next name starts fresh, with the focus in it.
    view.form_gen += 1
    view.app.focus_to("form-name")
    if view.editing is not None and view.editing < len(combatants):
        old = combatants[view.editing]
        combatants[view.editing] = {**entry, **({"hidden": old["hidden"]}
                                                 if "hidden" in old and not entry["player"] else {})}
        view.editing = None
        view.form = blank_form()
        return
    taken = {c["name"] for c in combatants}
    for name in numbered(entry["name"], count, taken):
        combatants.append({**entry, "name": name})
    view.form = {**blank_form(), "side": f["side"], "grain": f["grain"], "training": f["training"],
                 "weapon": list(f["weapon"]), "player": False}


def on_add(view, arg, event) -> None:
    add_combatant(view)


def on_cancel_edit(view, arg, event) -> None:
    view.editing, view.form = None, blank_form()
    view.form_gen += 1


def on_edit(view, arg, event) -> None:
    combatants = view.draft["combatants"]
    index = int(arg) if arg is not None and whole(str(arg)) else None
    if index is None or index >= len(combatants):
        return
    view.editing = index
    view.form = {**blank_form(), **copy.deepcopy(combatants[index]), "count": "1"}
    view.form_gen += 1
    view.app.focus_to("form-name")


def on_dup(view, arg, event) -> None:
    combatants = view.draft["combatants"]
    index = int(arg) if arg is not None and whole(str(arg)) else None
    if index is None or index >= len(combatants):
        return
    original = combatants[index]
    match = _NUMBERED.match(original["name"])
    base = match.group(1) if match else original["name"]
    taken = {c["name"] for c in combatants}
    if not match:
        original["name"] = numbered(base, 1, taken | {base})[0] if base in taken else base
        taken = {c["name"] for c in combatants}
    copy_ = {**copy.deepcopy(original), "name": numbered(base, 1, taken | {base})[0]}
    combatants.insert(index + 1, copy_)


def on_remove(view, arg, event) -> None:
    combatants = view.draft["combatants"]
    index = int(arg) if arg is not None and whole(str(arg)) else None
    if index is None or index >= len(combatants):
        return
    removed = combatants.pop(index)
    view.editing = None
    view.app.toast(f"Removed {removed['name']}.", action=lambda: restore(view, index, removed),
                   action_label="Undo", seconds=8)


def _swap(view, arg, step: int) -> None:
    """A combatant one place up (``step`` -1) or down (+1) the roster."""
    combatants = view.draft["combatants"]
    index = int(arg) if arg is not None and whole(str(arg)) else None
    if index is None:
        return
    other = index + step
    if 0 <= other < len(combatants):
        combatants[index], combatants[other] = combatants[other], combatants[index]
        view.editing = None


def on_up(view, arg, event) -> None:
    _swap(view, arg, -1)


def on_down(view, arg, event) -> None:
    _swap(view, arg, 1)


def on_add_side(view, arg, event) -> None:
    d = view.draft
    if len(d["sides"]) >= MAX_SIDES:
        return
    d["sides"].append(f"Side {len(d['sides']) + 1}")


def on_remove_side(view, arg, event) -> None:
    d = view.draft
    combatants = view.draft["combatants"]
    index = int(arg) if arg is not None and whole(str(arg)) else None
    if index is None or len(d["sides"]) <= 2 or index >= len(d["sides"]):
        return
    if not any(c["side"] == index for c in combatants):
        d["sides"].pop(index)
        for c in combatants:
            if c["side"] > index:
                c["side"] -= 1
        view.form["side"] = 0


def on_template(view, arg, event) -> None:
    index = int(arg) if arg is not None and whole(str(arg)) else None
    if index is None or index >= len(view.templates):
        return
    t = view.templates[index]
    view.form = {**blank_form(), **{k: copy.deepcopy(v) for k, v in t["combatant"].items()
                                    if k in ("name", "grain", "training", "weapon", "player")},
                 "side": view.form.get("side", 0), "count": view.form.get("count", "1")}
    view.form_gen += 1


def on_save_template(view, arg, event) -> None:
    if not view.form["name"].strip():
        return
    entry = combatant_of({**view.form, "side": 0})
    view.templates = [t for t in view.templates if t["name"] != entry["name"]] + [
        {"name": entry["name"], "combatant": entry}]
    view._keep(TEMPLATES_KEY, view.templates)
    view.app.toast(f"Template “{entry['name']}” kept for later games.")


def _forget(view, arg, kept: list, key: str) -> None:
    """A kept template or saved side forgotten (``kept`` is the list kept under ``key``)."""
    index = int(arg) if arg is not None and whole(str(arg)) else None
    if index is None or index >= len(kept):
        return
    kept.pop(index)
    view._keep(key, kept)


def on_forget_template(view, arg, event) -> None:
    _forget(view, arg, view.templates, TEMPLATES_KEY)


def on_save_side(view, arg, event) -> None:
    d = view.draft
    combatants = view.draft["combatants"]
    index = int(arg) if arg is not None and whole(str(arg)) else None
    if index is None or index >= len(d["sides"]):
        return
    side_name = d["sides"][index]
    members = [{k: v for k, v in c.items() if k != "side"} for c in combatants if c["side"] == index]
    view.saved_sides = [s for s in view.saved_sides if s["name"] != side_name] + [
        {"name": side_name, "combatants": members}]
    view._keep(SIDES_KEY, view.saved_sides)
    view.app.toast(f"Side “{side_name}” kept: load it in any later game.")


def on_load_side(view, arg, event) -> None:
    index = int(arg) if arg is not None and whole(str(arg)) else None
    if index is None or index >= len(view.saved_sides):
        return
    load_side(view, view.saved_sides[index])


def on_forget_side(view, arg, event) -> None:
    _forget(view, arg, view.saved_sides, SIDES_KEY)


def on_start(view, arg, event) -> None:
    view._start()
    return


#: The taps of this screen: action name → what it does (ConsimView.handle).
ACTIONS = {"add": on_add, "cancel-edit": on_cancel_edit, "edit": on_edit, "dup": on_dup, "remove": on_remove,
           "up": on_up, "down": on_down, "add-side": on_add_side, "remove-side": on_remove_side,
           "template": on_template, "save-template": on_save_template, "forget-template": on_forget_template,
           "save-side": on_save_side, "load-side": on_load_side, "forget-side": on_forget_side, "start": on_start}
