"""Names and other short texts typed by players, checked the same way in every system."""

from __future__ import annotations

import re
from typing import Any

#: Line breaks and other control characters never belong in a name.
CONTROL = re.compile(r"[\x00-\x1f\x7f]")


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
    if CONTROL.search(text):
        raise error(f"{where}: the {what} contains a line break or control character")
    return text
