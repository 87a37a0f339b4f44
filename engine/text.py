"""Names and other short texts typed by players, checked the same way in every system."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

#: Line breaks and other control characters never belong in a name.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


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


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be a name (a line break, a control or an invisible format
    character), or ``None``."""
    if CONTROL.search(text):
        return "contains a line break or control character"
    char = hidden_format(text)
    if char is not None:
        return f"contains an invisible formatting character (U+{ord(char):04X}), which would change how it reads"
    return None


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
