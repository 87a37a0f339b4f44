"""The result matrix (AI-10, AI-11): one tier's 6×6 table, drawn on the setup screen (editable)
and on the board (the cells read this week)."""

from __future__ import annotations

import json

from engine import ascension as ai
from engine.ascension import FALLBACK_NOTE, TIER_MARGINS
from web.dom import button, h

from .draft import SIDE_CLASS

#: A tier's table has this many cells (AI-10: six maneuvers each side).
CELLS = len(ai.MANEUVERS) ** 2


def _kind(effect) -> str:
    return ("withdraw-ok" if effect.withdraw else "withdraw-fail" if effect.withdraw is False
            else "casualties" if effect.casualties else "none")


def tier_note(rules, tier: str) -> tuple[str | None, str]:
    """AI-11: what a tier's heading says of where its cells come from, as ``(badge, words)``:
    the whole table falls back to Minor victory, or some cells do beside the group's house
    cells (✎), or the table is the source's with house cells, or the source's as it is."""
    origins = [ai.result_cell(rules, tier, own, other).origin for own in ai.MANEUVERS for other in ai.MANEUVERS]
    house, fallback = origins.count("house"), origins.count("fallback")
    cells = f"{house} house cell{'s' if house != 1 else ''} ✎"
    if fallback == CELLS:
        return "AI-11 fallback", FALLBACK_NOTE
    if fallback:
        return "AI-11 fallback", f"{cells}; the other {fallback} cells (†) fall back to Minor victory"
    if house:
        return "House table", cells
    return None, ""


def matrix(view, rules, tier: str, editable: bool = False, highlight: tuple = ()):
    """AI-10/AI-11: one tier's 6×6 table; house and fallback cells marked; ``highlight`` =
    ((side, own, other), …) cells read this week."""
    marks = {}
    for side, own, other in highlight:
        marks.setdefault((own, other), []).append(SIDE_CLASS[side].replace("side-", "hl-"))
    head = h("tr", {}, h("th", {"scope": "col", "class": "corner"},
                         h("span", {"class": "visually-hidden"}, "Your maneuver (rows), opponent's (columns)"),
                         h("span", {"aria-hidden": "true"}, "You ↓ · They →")),
             [h("th", {"scope": "col"}, ai.MANEUVER_NAMES[m]) for m in ai.MANEUVERS])
    body = []
    for own in ai.MANEUVERS:
        cells = []
        for other in ai.MANEUVERS:
            cell = ai.result_cell(rules, tier, own, other)
            effect = cell.effect
            kind = _kind(effect)
            mark = (h("span", {"class": "cell-mark house", "title": "house table"}, "✎ ") if cell.origin == "house"
                    else h("span", {"class": "cell-mark fallback", "title": FALLBACK_NOTE}, "† ")
                    if cell.origin == "fallback" else None)
            hl = marks.get((own, other), [])
            label = None
            if hl:
                who = " and ".join(_army_name(view, int(c == "hl-b")) for c in hl)
                label = f"read this week by {who}"
            content = [[h("span", {"class": ["hl-tag", c]}, _army_name(view, int(c == "hl-b"))) for c in hl],
                       mark, cell.text,
                       h("span", {"class": "visually-hidden"}, f" ({label})") if label else None,
                       h("span", {"class": "visually-hidden"}, " (house table)") if cell.origin == "house" else None]
            if editable:
                content = button(content, "battle:edit-cell", f"{own}.{other}", cls="cell-btn",
                                 data_focus=f"cell-{own}.{other}",
                                 aria_label=f"Edit {ai.MANEUVER_NAMES[own]} against {ai.MANEUVER_NAMES[other]}: "
                                            f"{cell.text}")
            editing = editable and view.edit_cell == (own, other)
            cells.append(h("td", {"class": ["cell", kind, cell.origin != "source" and cell.origin, *hl,
                                            editing and "editing"],
                                  "data-cell": f"{tier}.{own}.{other}", "data-origin": cell.origin},
                           content))
        body.append(h("tr", {}, h("th", {"scope": "row"}, ai.MANEUVER_NAMES[own]), cells))
    badge, words = tier_note(rules, tier)
    return h("div", {"class": "matrix-wrap", "tabindex": "0", "role": "region",
                     "aria-label": f"{ai.TIER_NAMES[tier]} matrix", "data-testid": "live-matrix"},
             h("table", {"class": "matrix result-matrix live", "data-tier": tier},
               h("caption", {}, ai.TIER_NAMES[tier], " ", h("span", {"class": "muted"}, f"({TIER_MARGINS[tier]})"),
                 [" ", h("span", {"class": ["badge", "house" if badge == "House table" else "ruling"]}, badge), " ",
                  h("span", {"class": "muted", "data-testid": "tier-note"}, words)] if badge else None),
               h("thead", {}, head), h("tbody", {}, body)))


def sync_rules_panel(rules) -> None:
    """Issue 34 item 1: the Rules panel's result matrices (prerendered from the source,
    builder/templates/rules/battle_matrices.html.j2) show the open battle's tables — its
    house cells marked ✎, each heading true (AI-11) — so the panel and its print ("Print
    the result matrices") are the tables the app applies; with no battle open, the source's.
    Only the cells' own words are written (text, never markup); nothing is redone when the
    tables are the ones already shown."""
    try:
        from js import document  # type: ignore[import-not-found]
    except ImportError:  # not in a browser
        return
    section = document.querySelector("#rules-battle .battle-matrices")
    if section is None:
        return
    house = (rules or {}).get("house_tables") or {}
    sign = json.dumps(house, sort_keys=True)
    if section.getAttribute("data-house") == sign:
        return
    section.setAttribute("data-house", sign)
    for tier in ai.TIERS:
        table = section.querySelector(f'table.result-matrix[data-tier="{tier}"]')
        if table is None:
            continue
        any_fallback = False
        for own in ai.MANEUVERS:
            for other in ai.MANEUVERS:
                td = table.querySelector(f'td[data-cell="{tier}.{own}.{other}"]')
                if td is None:
                    continue
                cell = ai.result_cell(rules, tier, own, other)
                any_fallback |= cell.origin == "fallback"
                td.className = " ".join(["cell", _kind(cell.effect)] + ([cell.origin] if cell.origin != "source" else []))
                td.setAttribute("data-origin", cell.origin)
                td.replaceChildren()
                if cell.origin != "source":
                    mark = document.createElement("span")
                    mark.className = f"cell-mark {cell.origin}"
                    mark.title = "house table" if cell.origin == "house" else FALLBACK_NOTE
                    mark.textContent = "✎ " if cell.origin == "house" else "† "
                    td.append(mark)
                td.append(document.createTextNode(cell.text))
                if cell.origin == "house":
                    note = document.createElement("span")
                    note.className = "visually-hidden"
                    note.textContent = " (house table)"
                    td.append(note)
        table.classList.toggle("is-fallback", any_fallback)
        caption = table.querySelector("caption")
        if caption is None:
            continue
        caption.replaceChildren()
        caption.append(document.createTextNode(f"{ai.TIER_NAMES[tier]} "))
        margins = document.createElement("span")
        margins.className = "muted"
        margins.textContent = f"({TIER_MARGINS[tier]})"
        caption.append(margins)
        badge, words = tier_note(rules, tier)
        if badge:
            tag = document.createElement("span")
            tag.className = "badge house" if badge == "House table" else "badge ruling"
            tag.textContent = badge
            note = document.createElement("span")
            note.className = "muted"
            note.textContent = words
            caption.append(document.createTextNode(" "), tag, document.createTextNode(" "), note)


def _army_name(view, side: int) -> str:
    st = view.session.state
    if st is not None:
        return st.armies[side].name
    return view.draft["armies"][side].get("name") or f"Army {side + 1}"
