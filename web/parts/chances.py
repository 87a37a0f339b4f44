"""Chances as players read them: the one way every table writes a probability.

The engines give exact fractions; a table shows them rounded, but never rounds a possible
outcome to "0%" or an uncertain one to "100%": only an impossible chance is "0%" and only a
certain one "100%".
"""

from __future__ import annotations

from fractions import Fraction


def percent(chance: Fraction | float) -> str:
    """One decimal for odds tables: "42.3%", "<0.1%" / ">99.9%" at the ends, "0%" and "100%"
    only when exact."""
    if chance == 0:
        return "0%"
    if chance == 1:
        return "100%"
    value = float(chance) * 100
    if value < 0.05:
        return "<0.1%"
    if value >= 99.95:
        return ">99.9%"
    return f"{value:.1f}%"


def whole_percent(chance: Fraction | float) -> str:
    """Whole percents where space is short (a grid square, a shot's odds): "42%", "<1%" /
    ">99%" at the ends, "0%" and "100%" only when exact."""
    if chance == 0:
        return "0%"
    if chance == 1:
        return "100%"
    value = float(chance) * 100
    if value < 0.5:
        return "<1%"
    if value >= 99.5:
        return ">99%"
    return f"{value:.0f}%"
