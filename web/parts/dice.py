"""Real dice, tapped in (issue 18): what the table rolled, entered with one tap per roll."""

from __future__ import annotations

from typing import Callable

from web.dom import button, h


def die_faces(action: str, arg: Callable[[int], str], low: int, high: int, chosen: int | None, label: str, *,
              spoken: Callable[[int], str] | None = None, focus: str | None = None, key: str | None = None):
    """One roll entered by a tap: a radio group of the totals ``low`` … ``high`` (a d6's
    faces, a d10's, the sum of 2d6), each a button for ``action`` with ``arg(value)``;
    ``chosen`` is marked. ``spoken(value)`` is a button's accessible name (default
    "``label``: value"); ``focus`` names the first button for the app's focus; ``key`` the
    group's ``data-key``: another roll asked in the same place is new buttons, so a double
    tap's second tap on what appeared under the finger is refused (TapGuard)."""
    return h("div", {"class": "die-pick", "role": "radiogroup", "aria-label": label, "data-key": key},
             h("span", {"class": "small"}, label),
             [button(str(v), action, arg(v), cls=["die die-button", chosen == v and "kept"], role="radio",
                     aria_checked="true" if chosen == v else "false",
                     aria_label=spoken(v) if spoken is not None else f"{label}: {v}",
                     data_focus=focus if v == low else None)
              for v in range(low, high + 1)])
