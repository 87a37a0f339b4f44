"""The pass-the-tablet curtain, shared by every tool with hidden information.

A curtain stands in for a private screen (a hand of cards, a blind bid) until its
owner taps: it names who should hold the tablet and what for, and nothing of the
private screen is in the DOM while it shows.
"""

from __future__ import annotations

from web.dom import button, h


def curtain(text: str, note: str, label: str, action: str, arg, side_class: str):
    """A curtain panel: "Pass the tablet to …", a note, and the one button that lifts it."""
    return h("section", {"class": ["panel curtain", side_class], "data-testid": "curtain"},
             h("p", {"class": "curtain-text"}, text),
             h("p", {"class": "muted"}, note),
             button(label, action, arg, cls="btn primary big"))
