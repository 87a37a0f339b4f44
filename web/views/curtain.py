"""The pass-the-tablet curtain shared by every table that keeps hidden hands.

A hand shows only after its owner taps the curtain's button. A fast double tap
lands its second tap on whatever appeared under the finger, so a curtain that has
just been drawn (after a "Hide" or any other tap at the same place) refuses to
open for a moment: :class:`CurtainGuard`.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from web.dom import button, h

#: How long a freshly drawn curtain ignores taps (a double tap's second tap comes
#: within ~300 ms of the first).
SETTLE_MS = 450


def curtain(who: str, task: str, action: str, arg: Any, *, cls: Any = None,
            note: str = "The hand stays hidden until its owner taps the button.", label: str | None = None,
            disabled: bool = False):
    """One big button that shows the hand, then ``Pass the tablet to {who} {task}.``

    The button comes first, in the curtain's top line (where a hand has its heading,
    not its cards); ``disabled`` while a freshly drawn curtain settles: then it is
    ``aria-disabled``, not ``disabled``, so it keeps the keyboard focus, and the view's
    handler refuses the tap. It is the ``data-focus="curtain"`` target the app moves the
    focus to (issue 14), and its description is the "Pass the tablet to …" line, so a
    screen reader says whom to pass the tablet to.
    """
    text_id = "curtain-" + re.sub(r"[^A-Za-z0-9_-]+", "-", f"{action}-{arg}")
    return h("section", {"class": ["panel curtain", cls], "data-testid": "curtain", "aria-labelledby": text_id},
             button(label or f"Show {who}'s hand", action, arg, cls="btn primary big",
                    aria_disabled="true" if disabled else None, data_focus="curtain", aria_describedby=text_id),
             h("p", {"class": "curtain-text", "id": text_id}, f"Pass the tablet to {who}{' ' + task if task else ''}."),
             h("p", {"class": "muted"}, note) if note else None)


class CurtainGuard:
    """Refuses to open a curtain within :data:`SETTLE_MS` of it appearing.

    The view calls :meth:`drawn` from ``render`` with a key naming the curtains on
    screen; a change of key is a new curtain under the finger. :meth:`may_open`
    says whether a tap may open it now (and never for a click the browser counts
    as the second of a double click).
    """

    def __init__(self, now: Callable[[], float], settle_ms: float = SETTLE_MS):
        self.now = now
        self.settle_ms = settle_ms
        self.key: Any = None
        self.since: float = float("-inf")

    def hold(self) -> None:
        """A new screen has just been drawn under the finger: settle from now."""
        self.since = self.now()

    def drawn(self, key: Any) -> None:
        if key != self.key:
            self.key = key
            self.since = self.now() if key is not None else float("-inf")

    def may_open(self, event: Any = None) -> bool:
        detail = getattr(event, "detail", 0) if event is not None else 0
        try:
            if int(detail) >= 2:
                return False
        except (TypeError, ValueError):
            pass
        return self.now() - self.since >= self.settle_ms
