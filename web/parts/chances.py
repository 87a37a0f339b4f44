"""Chances as players read them: the one way every table writes a probability.

The engines give exact fractions; a table shows them rounded, but never rounds a possible
outcome to "0%" or an uncertain one to "100%": only an impossible chance is "0%" and only a
certain one "100%" (a possible one that rounds to nothing says "<1%", an uncertain one that
rounds to everything ">99%"). One spelling: "40%", no space (issue 34). Chances shown
together (the tiers of a side, the shares of a mix) are rounded together (:func:`shares`),
so the figures add up to 100.
"""

from __future__ import annotations

from fractions import Fraction

from engine.text import chance_text, chance_units, percent_shares


def percent(chance: Fraction | float) -> str:
    """One decimal for odds tables: "42.3%", "<0.1%" / ">99.9%" at the ends, "0%" and "100%"
    only when exact."""
    return chance_text(chance, chance_units(chance, 1), 1)


def whole_percent(chance: Fraction | float) -> str:
    """Whole percents where space is short (a grid square, a shot's odds): "42%", "<1%" /
    ">99%" at the ends, "0%" and "100%" only when exact."""
    return chance_text(chance, chance_units(chance, 0), 0)


def shares(chances, decimals: int = 0) -> list[str]:
    """Chances shown side by side, rounded together so that those that add to 1 show figures
    that add to 100 (largest remainder; the ends keep their meaning: ``engine.text.percent_shares``)."""
    return percent_shares(chances, decimals)


def spread(counts, shown: int = 4, decimals: int = 1) -> str:
    """A spread of counts with their chances, the ``shown`` likeliest in count order:
    "0: 40.0%, 1: 35.5%, 2: 20.1%, 3: 4.1%, …" — "…" when a possible count was left out.
    ``counts`` is ``(count, chance)`` pairs."""
    possible = [(n, p) for n, p in counts if p]
    likely = sorted(sorted(possible, key=lambda x: -x[1])[:shown])
    text = ", ".join(f"{n}: {percent(p)}" for n, p in likely)
    return text + (", …" if len(possible) > len(likely) else "")
