"""Rule ids in messages, shown as links into the tool's prerendered Rules panel."""

from __future__ import annotations

import re

from engine.seats import HOUSE_RULES as SEAT_HOUSE_RULES
from web.dom import h

RULE_ID = re.compile(r"\b((?:HR-)?(?:OIC|CMP|CS|AI)-\d+)\b")


def rule_ref(rule_id: str, route: str):
    """A tappable rule id: opens the Rules panel at that clause (handled by the page shell)."""
    return h("button", {"type": "button", "class": "rule-ref", "data-open-rules": route, "data-rule": rule_id,
                        "aria-label": f"{rule_id}: show this rule"}, rule_id)


def with_rule_refs(text: str, route: str) -> list:
    """``"OIC-11: the 4♥ …"`` → the id as a :func:`rule_ref`, the rest as text."""
    parts: list = []
    last = 0
    for match in RULE_ID.finditer(text):
        parts.append(text[last:match.start()])
        parts.append(rule_ref(match.group(1), route))
        last = match.end()
    parts.append(text[last:])
    return [p for p in parts if p != ""]


def seat_house_rules() -> list:
    """The house rules of phones at the table (HR-SEAT-1 … 4, :data:`engine.seats.HOUSE_RULES`),
    as items of a table's "Rules in play": every two-sided table can hand its seats to phones."""
    return [h("li", {"data-testid": "seat-house-rule"}, h("span", {"class": "rule-id"}, rid), " ",
              h("span", {"class": "badge house"}, "House rule"), " Players' phones: ", text)
            for rid, text in SEAT_HOUSE_RULES.items()]
