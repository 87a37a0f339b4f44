"""Rules settings: the RULES.md variants and house rules a group can switch.

A system declares its :class:`Variant` s; a game's ``rules`` is a plain dict of
``{variant key: chosen value}`` resolved against them by :func:`resolve_rules`.
Settings travel with a saved game and a shared link.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Callable

from .text import brief_repr, key_text


class SettingsError(ValueError):
    """Rules settings that name an unknown variant or an unknown choice."""


@dataclass(frozen=True)
class Variant:
    """One switchable rule.

    ``rule_id`` is the RULES.md clause; ``choices`` pairs each allowed value with
    what it means for players; the first choice is the default ruling unless
    ``default`` says otherwise.
    """

    key: str
    rule_id: str
    label: str
    choices: tuple[tuple[Any, str], ...]
    default: Any
    explanation: str = ""
    #: A free-form setting (a house table …) has no fixed choices: ``normalize``
    #: validates a given value and returns its canonical form, raising SettingsError.
    normalize: Callable[[Any], Any] | None = None

    def describe(self, value: Any) -> str:
        for choice, text in self.choices:
            if choice == value:
                return text
        raise SettingsError(f"{self.rule_id}: {brief_repr(value)} is not a choice for {self.label.lower()}")

    def sentence(self, value: Any) -> str:
        """What choosing ``value`` means, as a sentence: "Our own dice: the players roll …"."""
        text = self.describe(value)
        return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def resolve_rules(variants: Iterable[Variant], given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Defaults for every variant, overridden by ``given``; refuses unknown keys and values."""
    table = {v.key: v for v in variants}
    if given is not None and not isinstance(given, Mapping):
        raise SettingsError("The rules settings must be an object of {setting: choice}")
    given = dict(given or {})
    unknown = sorted(key_text(k) for k in given if k not in table)
    if unknown:
        raise SettingsError(f"Unknown rules setting: {', '.join(k[:40] for k in unknown[:4])}")
    resolved: dict[str, Any] = {}
    for key, variant in table.items():
        value = given.get(key, variant.default)
        if variant.normalize is not None:
            resolved[key] = variant.normalize(value)
            continue
        allowed = [c for c, _ in variant.choices]
        # bool is an int in Python: compare types too so True never passes for 1.
        if not any(value == c and type(value) is type(c) for c in allowed):
            raise SettingsError(
                f"{variant.rule_id}: {brief_repr(value)} is not a choice for {variant.label.lower()}"
            )
        resolved[key] = value
    return resolved
