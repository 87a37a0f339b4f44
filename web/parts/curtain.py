"""The pass-the-tablet curtain shared by every table that keeps hidden hands, and the
app's one guard against double taps.

A hand shows only after its owner taps the curtain's button. A fast double tap
lands its second tap on whatever appeared under the finger, so a curtain that has
just been drawn (after a "Hide" or any other tap at the same place) refuses to
open for a moment: :class:`CurtainGuard`.

Every tap goes through :class:`TapGuard` first (web/app.py). It refuses only the
second tap of a double tap: one that lands at the same spot as the tap before,
within :data:`SETTLE_MS`, on something that appeared there since (another button,
or the same button after the game moved on). A tap on a different button elsewhere
is taken however soon it comes ("Deal", then "Next ▸" at once). A refused tap is
never silent: the app says so (an announced message) and names the button to tap
again. Views see each tap as a :class:`Tap` (their ``handle``'s ``event``): its
``detail`` is 2 for a second tap on the same, unchanged control, and ``refuse()``
lets a view's own guard say that it did not take it.
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable

from web.dom import button, h

#: How long a freshly drawn curtain ignores taps, and how close in time two taps are
#: one double tap (a double tap's second tap comes within ~300 ms of the first).
SETTLE_MS = 450

#: How far apart (CSS pixels) two taps may land and still be one finger's double tap:
#: a finger's second tap lands within a few pixels; two buttons' centres are at least
#: a button (44 px) apart.
DOUBLE_TAP_PX = 24

#: What a guard says when it does not take a tap ({label}: the button's name).
REFUSED = "Not taken: “{label}” had only just appeared under your finger (a double tap?). Tap it again if you meant it."


class Tap:
    """One tap (a click) as the app's guards and the views see it.

    ``time`` in milliseconds (the event's time stamp); ``point`` the spot it landed
    (``None`` for a keyboard's Enter/Space or a script's click, which have none);
    ``target`` what it hit (an identity the app compares, with the control's action
    and argument); ``label`` the control's name for messages; ``detail`` 1, or 2 when
    it is the second tap of a double tap on the same, unchanged control. ``touch``:
    a finger's tap (the last pointer down was a touch); a mouse's click counts as the
    second of a double tap only when the browser says so (``detail`` 2: a double click).
    """

    __slots__ = ("time", "point", "target", "label", "detail", "refused", "touch")

    def __init__(self, time: float, point: tuple[float, float] | None, target: Any, label: str = "",
                 detail: int = 1, touch: bool = True):
        self.time = time
        self.point = point
        self.target = target
        self.label = label
        self.detail = detail
        self.touch = touch
        self.refused: str | None = None

    def refuse(self, text: str | None = None) -> None:
        """A guard did not take this tap: ``text`` (or :data:`REFUSED`) is said to the player."""
        self.refused = text or REFUSED.format(label=self.label or "the button")


class TapGuard:
    """Tells the second tap of a double tap from a tap on another button (see the module).

    ``same(a, b)`` says whether two taps' ``target`` are the same control, unchanged.
    The app calls :meth:`judge` for every tap and :meth:`taken` after it handled one.
    """

    def __init__(self, same: Callable[[Any, Any], bool] = lambda a, b: a == b,
                 window_ms: float = SETTLE_MS, radius_px: float = DOUBLE_TAP_PX):
        self.same = same
        self.window_ms = window_ms
        self.radius_px = radius_px
        self.last: Tap | None = None
        self.moved = False  # whether the last tap taken moved the game on

    def judge(self, tap: Tap) -> str | None:
        """``None``: take the tap (``tap.detail`` becomes 2 for a second tap on the same,
        unchanged control); otherwise what to tell the player about the refused tap."""
        last = self.last
        if tap.point is None or last is None or last.point is None:
            return None
        gap = tap.time - last.time
        if not 0 <= gap <= self.window_ms:
            return None
        if not tap.touch and tap.detail < 2:
            return None  # a mouse's single click: a person's next click, however soon
        if last.detail >= 2:
            return None  # the tap after a double tap's second: a new tap (taps never chain into one)
        if math.dist(tap.point, last.point) > self.radius_px:
            return None  # another spot: another button, however soon
        label, before = tap.label or "the button", last.label or "the button"
        if not self.same(last.target, tap.target):
            return (f"Not taken: “{label}” appeared under your finger right after your tap on “{before}”, "
                    "as the second tap of a double tap would. Tap it again if you meant it.")
        if self.moved:
            return (f"Not taken: a second tap on “{label}” right after the first (a double tap?) would have "
                    "gone on a step further. Tap it again if you meant it.")
        tap.detail = max(tap.detail, 2)
        return None

    def taken(self, tap: Tap, moved: bool) -> None:
        """``tap`` was handled; ``moved``: it changed the game (or what is under the finger)."""
        self.last, self.moved = tap, moved


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
        """Whether the tap ``event`` may open the curtain now. A refused :class:`Tap` is
        told why (``refuse``), so the app says so instead of dropping it silently."""
        detail = getattr(event, "detail", 0) if event is not None else 0
        try:
            double = int(detail) >= 2
        except (TypeError, ValueError):
            double = False
        if double or self.now() - self.since < self.settle_ms:
            refuse = getattr(event, "refuse", None)
            if callable(refuse):
                refuse()
            return False
        return True
