"""The result matrix (AI-10, AI-11): one tier's 6×6 table, drawn on the setup screen (editable)
and on the board (the cells read this week)."""

from __future__ import annotations

from engine import ascension as ai
from engine.ascension import FALLBACK_NOTE, TIER_MARGINS
from web.dom import button, h

from .draft import SIDE_CLASS


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
    fallback_any = False
    for own in ai.MANEUVERS:
        cells = []
        for other in ai.MANEUVERS:
            cell = ai.result_cell(rules, tier, own, other)
            effect = cell.effect
            kind = ("withdraw-ok" if effect.withdraw else "withdraw-fail" if effect.withdraw is False
                    else "casualties" if effect.casualties else "none")
            fallback_any |= cell.origin == "fallback"
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
    return h("div", {"class": "matrix-wrap", "tabindex": "0", "role": "region",
                     "aria-label": f"{ai.TIER_NAMES[tier]} matrix", "data-testid": "live-matrix"},
             h("table", {"class": "matrix result-matrix live", "data-tier": tier},
               h("caption", {}, ai.TIER_NAMES[tier], " ", h("span", {"class": "muted"}, f"({TIER_MARGINS[tier]})"),
                 [" ", h("span", {"class": "badge ruling"}, "AI-11 fallback"), " ",
                  h("span", {"class": "muted"}, FALLBACK_NOTE)] if fallback_any else None),
               h("thead", {}, head), h("tbody", {}, body)))


def _army_name(view, side: int) -> str:
    st = view.session.state
    if st is not None:
        return st.armies[side].name
    return view.draft["armies"][side].get("name") or f"Army {side + 1}"
