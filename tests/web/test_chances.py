"""How every table writes a chance (web/parts/chances.py), on CPython and on Pyodide."""

from __future__ import annotations

from fractions import Fraction

import pytest

from web.parts.chances import percent, shares, spread, whole_percent


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


# ---------------------------------------------------------------- issue 34, 16

def test_a_possible_outcome_is_never_0_and_an_uncertain_one_never_100():
    """1/200 is exactly half a percent: it once rounded (half to even) to "0%"."""
    assert whole_percent(Fraction(1, 200)) == "1%"
    assert whole_percent(Fraction(199, 200)) == ">99%"
    assert percent(Fraction(1, 2000)) == "0.1%"
    assert percent(Fraction(1999, 2000)) == ">99.9%"
    for n in range(1, 2000):
        p = Fraction(n, 2000)
        assert whole_percent(p) not in ("0%", "100%") and percent(p) not in ("0%", "100%", "0.0%", "100.0%")


def _figure(text: str) -> Fraction:
    return Fraction(text.strip("<>%"))


@pytest.mark.parametrize("decimals", [0, 1])
def test_shares_shown_together_add_up_to_100(decimals):
    """Largest remainder: every set of chances that adds to 1 shows figures that add to 100."""
    import random

    rng = random.Random(34)
    for _ in range(2000):
        weights = [rng.choice([0, 1, 1, 2, 3, 7, 50, 200]) for _ in range(rng.randint(2, 7))]
        if not sum(weights):
            continue
        chances = [Fraction(w, sum(weights)) for w in weights]
        shown = shares(chances, decimals)
        if not any(s.startswith(("<", ">")) for s in shown):
            assert sum(_figure(s) for s in shown) == 100, (chances, shown)
        for c, s in zip(chances, shown):
            assert (s == "0%") == (c == 0) and (s == "100%") == (c == 1), (c, s)
            if not s.startswith(("<", ">")):
                assert abs(_figure(s) - c * 100) < 1 if decimals == 0 else abs(_figure(s) - c * 100) < Fraction(1, 10)


def test_a_mix_of_199_to_1_reads_as_the_grid_does():
    assert shares([Fraction(199, 200), Fraction(1, 200)]) == [">99%", "<1%"]
    assert shares([Fraction(1, 3)] * 3) == ["34%", "33%", "33%"]


def test_a_casualty_spread_that_leaves_counts_out_says_so():
    counts = [(0, Fraction(40, 100)), (1, Fraction(30, 100)), (2, Fraction(20, 100)), (3, Fraction(6, 100)),
              (4, Fraction(4, 100)), (5, Fraction(0))]
    assert spread(counts) == "0: 40.0%, 1: 30.0%, 2: 20.0%, 3: 6.0%, …"
    assert spread(counts[2:]) == "2: 20.0%, 3: 6.0%, 4: 4.0%"
