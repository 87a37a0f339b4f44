"""How every table writes a chance (web/parts/chances.py), on CPython and on Pyodide."""

from __future__ import annotations

from fractions import Fraction

import pytest

from web.parts.chances import percent, whole_percent


@pytest.mark.parametrize("chance, shown", [
    (Fraction(0), "0%"), (Fraction(1), "100%"), (Fraction(1, 2), "50.0%"), (Fraction(423, 1000), "42.3%"),
    (Fraction(1, 3), "33.3%"), (Fraction(1, 2001), "<0.1%"), (Fraction(1, 1999), "0.1%"),
    (Fraction(1999, 2000), ">99.9%"), (Fraction(1998, 2000), "99.9%"), (0.25, "25.0%"),
])
def test_odds_tables_show_one_decimal_and_never_round_a_possible_outcome_away(chance, shown):
    assert percent(chance) == shown


@pytest.mark.parametrize("chance, shown", [
    (Fraction(0), "0%"), (Fraction(1), "100%"), (Fraction(1, 2), "50%"), (Fraction(1, 3), "33%"),
    (Fraction(1, 201), "<1%"), (Fraction(1, 199), "1%"), (Fraction(199, 200), ">99%"), (Fraction(99, 100), "99%"),
])
def test_short_odds_show_whole_percents_and_never_0_or_100_unless_exact(chance, shown):
    assert whole_percent(chance) == shown
