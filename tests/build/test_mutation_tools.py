"""`make mutate SAMPLE=N`'s own arithmetic: the seeded sample and the score's interval."""

from __future__ import annotations

import pytest

from tests.mutation_sample import sample
from tests.mutation_score import wilson

NAMES = [f"engine.consim.x_f__mutmut_{i}" for i in range(1, 401)] + \
        [f"engine.campaign.x_g__mutmut_{i}" for i in range(1, 51)]


def test_a_sample_is_the_same_for_a_seed_and_another_for_another_seed():
    first = sample(NAMES, "engine.consim.*", 60, 1)
    assert first == sample(list(reversed(NAMES)), "engine.consim.*", 60, 1)  # the names' order does not matter
    assert first != sample(NAMES, "engine.consim.*", 60, 2)
    assert len(set(first)) == 60 and all(name.startswith("engine.consim.") for name in first)


def test_a_sample_larger_than_the_scope_is_the_whole_scope_and_an_empty_scope_says_so():
    assert sample(NAMES, "engine.campaign.*", 250, 1) == sorted(n for n in NAMES if "campaign" in n)
    with pytest.raises(SystemExit, match="no mutant matches 'engine.poker.\\*'"):
        sample(NAMES, "engine.poker.*", 10, 1)


def test_the_sample_is_spread_over_the_whole_scope():
    # 200 of 400: a uniform draw takes from both halves of the scope alike (a draw by name
    # pattern, e.g. every mutant numbered …7, would not).
    drawn = {int(name.rsplit("_", 1)[1]) for name in sample(NAMES, "engine.consim.*", 200, 3)}
    low = sum(1 for i in drawn if i <= 200)
    assert 80 <= low <= 120


def test_the_wilson_interval_of_half_of_a_hundred_is_the_textbook_one():
    low, high = wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)


@pytest.mark.parametrize("caught, checked", [(0, 10), (10, 10), (225, 250), (1, 3)])
def test_the_interval_holds_the_score_and_stays_within_0_and_1(caught, checked):
    low, high = wilson(caught, checked)
    assert 0 <= low <= caught / checked <= high <= 1
    low4, high4 = wilson(caught * 4, checked * 4)  # four times the evidence: a narrower interval
    assert high4 - low4 < high - low
