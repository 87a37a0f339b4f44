"""Names and other short texts typed by players, checked the same way in every system;
and :func:`shown`, the one way a message shows a value it refuses (issue 30)."""

from __future__ import annotations

import re
import reprlib
import unicodedata
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

#: Line breaks and other control characters never belong in a name.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")

#: What no typed text may hold, by Unicode category (issue 30): control characters
#: (Cc), line and paragraph separators (Zl, Zp: U+2028 and U+2029 break a line too),
#: invisible format characters (Cf), surrogates (Cs: half of a character, from a
#: JSON escape such as ``"\ud800"``; no save or link could hold it), private-use
#: (Co) and unassigned (Cn) code points (they show as nothing, a box, or whatever a
#: font puts there). "Unassigned" is by the Unicode version of the Python that runs
#: the engine (Pyodide's is the newer).
REFUSED_CATEGORIES = {
    "Cc": "a line break or control character",
    "Zl": "a line break or control character",
    "Zp": "a line break or control character",
    "Cf": "an invisible formatting character",
    "Cs": "half of a character (a lone surrogate)",
    "Co": "a private-use character",
    "Cn": "a code point that is not a character",
}

#: Letters and marks that show as nothing, so that a name made of them looks empty
#: (or, added to another name, identical to it): Unicode's default-ignorable code
#: points that are neither format characters (Cf, refused anyway) nor variation
#: selectors (which choose how the character before them is drawn: ❤ or ❤️) —
#: the combining grapheme joiner U+034F, the Hangul fillers U+115F, U+1160, U+3164
#: and U+FFA0, the Khmer inherent vowels U+17B4 and U+17B5 — and the blank Braille
#: pattern U+2800.
INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")


def hidden_format(text: str) -> str | None:
    """The first invisible format character of ``text`` (Unicode category Cf: a
    right-to-left override, a zero-width space, a soft hyphen …), or ``None``.

    Such a character changes how the text around it is shown (a right-to-left
    override turns "Anna vs Ben (shared)" into "(derahs) neB sv annA") without
    being visible itself, so no name may hold one.
    """
    for char in text:
        if unicodedata.category(char) == "Cf":
            return char
    return None


def _refused_char(text: str) -> str | None:
    """The first character of ``text`` that typed text may not hold (one of a category
    of :data:`REFUSED_CATEGORIES`, or of :data:`INVISIBLE`), or ``None``."""
    if text.isprintable() and INVISIBLE.isdisjoint(text):
        return None  # the common case, checked in C (printable: none of those categories)
    for char in text:
        if char in INVISIBLE or unicodedata.category(char) in REFUSED_CATEGORIES:
            return char
    return None


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be a name (a line break, a control, an invisible or a
    lone-surrogate character …: see :data:`REFUSED_CATEGORIES` and :data:`INVISIBLE`),
    or ``None``. The reason names the character (U+XXXX), so a player knows what to
    change (in an old save or a link too)."""
    if not isinstance(text, str):
        return "is not text"
    char = _refused_char(text)
    if char is None:
        return None
    code = f"U+{ord(char):04X}"
    if char in INVISIBLE:
        return f"contains an invisible letter ({code}), which would make it look empty or like another"
    what = REFUSED_CATEGORIES[unicodedata.category(char)]
    if what.startswith("an invisible"):
        return f"contains {what} ({code}), which would change how it reads"
    return f"contains {what} ({code})"


def setup_text(value: Any, where: str, what: str, *, error: type[ValueError], max_len: int = 60,
               required: bool = True) -> str:
    """``value`` stripped, or ``error`` with a message a player understands
    ("Side 1: the name is empty")."""
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise error(f"{where}: the {what} must be text")
    text = value.strip()
    if required and not text:
        raise error(f"{where}: the {what} is empty")
    if len(text) > max_len:
        raise error(f"{where}: the {what} is longer than {max_len} characters")
    problem = text_problem(text)
    if problem:
        raise error(f"{where}: the {what} {problem}")
    return text


# --------------------------------------------------------------------------- values in messages

#: Longest a value is shown in a message, in characters (a longer one is cut at "…").
SHOWN_MAX = 40
#: From this size on a whole number is said as "a huge number": its digits tell a
#: player nothing, and Python refuses to write more than 4,300 of them.
HUGE = 10**12


class _Brief(reprlib.Repr):
    """:func:`repr` that stops: a few levels, a few items, short texts, no huge numbers,
    and never a container's own ``repr`` (it would go all the way down)."""

    def __init__(self) -> None:
        super().__init__()
        self.fillvalue = "…"
        self.maxlevel = 3
        self.maxstring = self.maxother = SHOWN_MAX
        self.maxlist = self.maxtuple = self.maxset = self.maxfrozenset = self.maxdict = 4

    def repr1(self, x: Any, level: int) -> str:
        if x is None or isinstance(x, bool):
            return repr(x)
        if isinstance(x, int):
            if abs(x) >= HUGE:
                return "a huge number"
            return repr(int(x)) if type(x) is int else self.repr_instance(x, level)
        if isinstance(x, float):
            return repr(float(x))
        if isinstance(x, str):
            return self.repr_str(str(x), level)
        if isinstance(x, Mapping):
            return self._items(x, level, "{", "}", self.maxdict, pairs=True)
        if isinstance(x, list):
            return self._items(x, level, "[", "]", self.maxlist)
        if isinstance(x, tuple) and type(x).__repr__ is tuple.__repr__:
            return self._items(x, level, "(", ",)" if len(x) == 1 else ")", self.maxtuple)
        if isinstance(x, (set, frozenset)):
            return self._items(x, level, "{", "}", self.maxset) if x else f"{type(x).__name__}()"
        return self.repr_instance(x, level)

    def repr_str(self, x: str, level: int) -> str:
        return repr(x) if len(x) <= self.maxstring else _clip(repr(x[:self.maxstring]), self.maxstring)

    def _items(self, x: Any, level: int, left: str, right: str, most: int, pairs: bool = False) -> str:
        """The first ``most`` items of ``x`` (in its own order: never sorting all of it)."""
        if not x:
            return left + right
        if level <= 0:
            return left + "…" + right
        pieces: list[str] = []
        for item in x:
            if len(pieces) == most:
                pieces.append("…")
                break
            pieces.append(f"{self.repr1(item, level - 1)}: {self.repr1(x[item], level - 1)}" if pairs
                          else self.repr1(item, level - 1))
        return left + ", ".join(pieces) + right

    def repr_instance(self, x: Any, level: int) -> str:
        try:
            text = repr(x)
        except Exception:  # a repr that fails (recursion, the digit limit …): say what it is
            return f"a {type(x).__name__}"
        return _clip(text, self.maxother)


_BRIEF = _Brief()


def _clip(text: str, limit: int) -> str:
    """``text`` cut short of ``limit`` characters, "…" at the cut (as the systems' messages
    always were: ``"xxxx…``)."""
    return text if len(text) <= limit else text[:max(limit - 3, 1)] + "…"


def brief_repr(value: Any, limit: int = SHOWN_MAX) -> str:
    """``repr(value)`` for a message, short whatever ``value`` is: at most ``limit``
    characters, a few levels and items of a container, a whole number of
    :data:`HUGE` or more as "a huge number". Never raises."""
    try:
        return _clip(_BRIEF.repr(value), limit)
    except Exception:  # a hostile mapping or sequence (its methods raise): say what it is
        return f"a {type(value).__name__}"


def key_text(key: Any) -> str:
    """A mapping's key as text, to sort and name unknown fields by: the key itself when
    it is text, :func:`brief_repr` otherwise (never ``str()`` of a huge number)."""
    return key if isinstance(key, str) else brief_repr(key)


def shown(value: Any, limit: int = SHOWN_MAX) -> str:
    """``value`` for a message a player reads: text in double quotes ("Anna"), its
    invisible and control characters written as escapes; anything else as
    :func:`brief_repr`. At most ``limit`` characters (a longer one is cut at "…");
    never raises, whatever ``value`` is (nested 2,000 deep, 100,000 characters,
    ``10**5000``)."""
    if not isinstance(value, str):
        return brief_repr(value, limit)
    body = str(value[:limit])  # never more than the message shows (it may be 100,000 long)
    if not body.isprintable():
        body = "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in body)
    return _clip(f'"{body}"', limit)


def plural(count: int, noun: str, plural_form: str | None = None) -> str:
    """``count`` and ``noun``, plural unless it is one: "1 card", "3 cards", "2 casualties"
    (``plural_form`` for a noun that does not take an s)."""
    return f"{count} {noun if count == 1 else (plural_form or noun + 's')}"


# ---------------------------------------------------------------- chances as text
# Every chance a player reads, in the app and in the engine's own texts (the staff
# officer's mix), rounded alike (issue 34): "40%", no space; "0%" and "100%" only when
# exact, "<1%" / ">99%" (one decimal: "<0.1%" / ">99.9%") for what rounds to an end;
# shares shown together rounded together, so that they add up to 100.

#: The text of a chance below / above what the figures can show, by decimals.
_LOW = {0: "<1%", 1: "<0.1%"}
_HIGH = {0: ">99%", 1: ">99.9%"}


def chance_text(chance: Fraction | float, units: int, decimals: int) -> str:
    """``units`` (tenths with one decimal) of a percent as text, guarding the two ends:
    only an impossible ``chance`` is "0%", only a certain one "100%"."""
    if chance == 0:
        return "0%"
    if chance == 1:
        return "100%"
    full = 100 * 10 ** decimals
    if units <= 0:
        return _LOW[decimals]
    if units >= full:
        return _HIGH[decimals]
    return f"{units / 10 ** decimals:.{decimals}f}%"


def chance_units(chance: Fraction | float, decimals: int) -> int:
    """The chance in units of the last shown decimal, rounded half up (exact on Fractions)."""
    value = Fraction(chance) * 100 * 10 ** decimals
    return int(value + Fraction(1, 2)) if value >= 0 else 0


def percent_shares(chances: Iterable[Fraction | float], decimals: int = 0) -> list[str]:
    """Chances shown side by side, rounded together so that those that add to 1 show figures
    that add to 100 (largest remainder: each gets its rounded-down units, the units left go
    to the largest remainders, ties to the first). The ends keep their meaning: a possible
    chance left with no unit says "<1%" ("<0.1%"), an uncertain one with all of them ">99%"."""
    values = [Fraction(c) for c in chances]
    full = 100 * 10 ** decimals
    scaled = [v * full for v in values]
    floors = [int(s) for s in scaled]
    total = sum(values)
    left = int(total * full + Fraction(1, 2)) - sum(floors) if total else 0
    order = sorted(range(len(values)), key=lambda i: (-(scaled[i] - floors[i]), i))
    for i in order[:max(0, left)]:
        floors[i] += 1
    return [chance_text(v, u, decimals) for v, u in zip(values, floors)]
