"""engine.poker against an independent brute-force reference (CMP-7, CMP-8)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, full_deck, parse_cards
from engine.poker import CATEGORIES, Hand, HandError, best_hand, category_index

DECK = full_deck()


# ---------------------------------------------------------------- the reference
# Written from CMP-8 alone, sharing nothing with engine.poker: every 5-card subset
# is classified by counting ranks, and the best is the largest (category, ranks) tuple.

def ref_five(cards) -> tuple[int, tuple[int, ...]]:
    """(strength 8 = straight flush … 0 = high card, tie-break ranks) of exactly five cards."""
    ranks = sorted((int(c.rank) for c in cards), reverse=True)
    counts = Counter(ranks)
    # Ranks ordered by (how many, rank): the kicker order of CMP-8.
    ordered = sorted(ranks, key=lambda r: (counts[r], r), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    straight = len(counts) == 5 and ranks[0] - ranks[4] == 4  # aces high only: no wheel
    shape = sorted(counts.values(), reverse=True)
    if straight and flush:
        return 8, tuple(ranks)
    if shape == [4, 1]:
        return 7, tuple(ordered)
    if shape == [3, 2]:
        return 6, tuple(ordered)
    if flush:
        return 5, tuple(ranks)
    if straight:
        return 4, tuple(ranks)
    if shape == [3, 1, 1]:
        return 3, tuple(ordered)
    if shape == [2, 2, 1]:
        return 2, tuple(ordered)
    if shape == [2, 1, 1, 1]:
        return 1, tuple(ordered)
    return 0, tuple(ranks)


def ref_best(cards) -> tuple[int, tuple[int, ...]]:
    return max(ref_five(five) for five in itertools.combinations(cards, 5))


def ref_category(cards) -> str:
    return CATEGORIES[8 - ref_best(cards)[0]]


def check_against_reference(cards) -> Hand:
    hand = best_hand(cards)
    strength, ranks = ref_best(cards)
    assert hand.category == CATEGORIES[8 - strength], (cards, hand)
    assert hand.ranks == ranks, (cards, hand)
    # The five cards used are the player's, make that very hand, and are distinct.
    assert len(set(hand.cards)) == 5 and set(hand.cards) <= set(cards)
    assert ref_five(hand.cards) == (strength, ranks)
    return hand


# ---------------------------------------------------------------- properties

hands_5_to_9 = st.integers(5, 9).flatmap(
    lambda n: st.lists(st.sampled_from(DECK), min_size=n, max_size=n, unique=True))


@settings(max_examples=400, deadline=None)
@given(hands_5_to_9)
def test_cmp_8_best_hand_matches_brute_force(cards):
    check_against_reference(cards)


def test_cmp_8_thousands_of_random_hands_match_brute_force():
    rng = random.Random(20261130)
    seen = Counter()
    for _ in range(3000):
        cards = rng.sample(DECK, rng.randint(5, 9))
        seen[check_against_reference(cards).category] += 1
    # The sample reaches deep into the categories (not only pairs and high cards).
    assert {"flush", "straight", "full house", "three of a kind", "two pairs"} <= set(seen)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=5, max_size=7, unique=True),
       st.lists(st.sampled_from(DECK), min_size=5, max_size=7, unique=True))
def test_cmp_8_comparison_matches_reference_order(a, b):
    ha, hb = best_hand(a), best_hand(b)
    ra, rb = ref_best(a), ref_best(b)
    assert (ha < hb) == (ra < rb)
    assert (ha == hb) == (ra == rb)
    assert (ha > hb) == (ra > rb)
    assert (ha <= hb) == (ra <= rb) and (ha >= hb) == (ra >= rb) and (ha != hb) == (ra != rb)


@settings(max_examples=200, deadline=None)
@given(hands_5_to_9, st.randoms(use_true_random=False))
def test_order_of_the_cards_does_not_change_the_hand(cards, rnd):
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert best_hand(cards) == best_hand(shuffled)
    assert best_hand(cards).category == best_hand(shuffled).category


def test_all_52_cards_make_a_royal_flush():
    hand = best_hand(DECK)
    assert hand.category == "straight flush" and hand.ranks == (14, 13, 12, 11, 10)
    assert str(hand) == "straight flush, ace high"


# ---------------------------------------------------------------- category boundaries

def h(text: str) -> Hand:
    return check_against_reference(parse_cards(text))


@pytest.mark.parametrize("better,worse", [
    # Each category against the best hand of the next one down (CMP-8 order).
    ("2S 3S 4S 5S 6S", "AS AH AD AC KS"),          # lowest straight flush > best quads
    ("2S 2H 2D 2C 3S", "AS AH AD KC KS"),          # lowest quads > best full house
    ("2S 2H 2D 3C 3S", "AH KH QH JH 9H"),          # lowest full house > best flush
    ("2H 3H 4H 5H 7H", "AS KH QD JC 10S"),         # lowest flush > best straight
    ("2S 3H 4D 5C 6S", "AS AH AD KC QS"),          # lowest straight > best trips
    ("2S 2H 2D 3C 4S", "AS AH KD KC QS"),          # lowest trips > best two pairs
    ("2S 2H 3D 3C 4S", "AS AH KD QC JS"),          # lowest two pairs > best pair
    ("2S 2H 3D 4C 5S", "AS KH QD JC 9S"),          # lowest pair > best high card
])
def test_cmp_8_category_boundaries(better, worse):
    assert h(better) > h(worse)
    assert category_index(h(better).category) + 1 == category_index(h(worse).category)


def test_cmp_8_no_wheel_aces_are_high_only():
    wheel = h("AS 2H 3D 4C 5S")
    assert wheel.category == "high card"
    assert str(wheel) == "high card ace, then five, four, three and two"
    assert h("AS 2S 3S 4S 5S").category == "flush"  # not a straight flush
    assert h("AS 2H 3D 4C 5S 6H").category == "straight"  # 2-6 is, with the ace a stray card
    assert h("AS 2H 3D 4C 5S 6H").ranks == (6, 5, 4, 3, 2)
    assert h("10S JH QD KC AS").category == "straight"  # ace-high is a straight
    assert h("JS QH KD AC 2S").category == "high card"  # no wrap-around


def test_cmp_8_kickers_and_equal_hands():
    # Standard kicker order breaks ties; suits never do, so hands can be equal.
    assert h("KS KD 7H 7C AS") > h("KH KC 7S 7D QS")
    assert h("KS KD 7H 7C AS") == h("KH KC 7S 7D AD")
    assert h("KS KD 7H 7C AS").cards != h("KH KC 7S 7D AD").cards
    assert h("AH KH QH JH 9H") == h("AS KS QS JS 9S")
    assert h("QS QD 9H 5C 3S") > h("QH QC 9S 5D 2S")  # third kicker
    assert h("9S 9D 9H AC 2S") > h("9S 9D 9H KC QS")
    assert h("9S 9D 9H AC AS") < h("10S 10D 10H 2C 2D")  # full house: trips decide first
    assert h("10S 10D 10H 2C 2S") < h("10S 10D 10H 3C 3S")
    assert hash(h("KS KD 7H 7C AS")) == hash(h("KH KC 7S 7D AD"))


def test_seven_cards_choose_the_best_five():
    hand = h("KS KD KH 7C 7S 7D 2H")  # two trips: the higher ones with a pair of the lower
    assert hand.category == "full house" and str(hand) == "full house, kings over sevens"
    hand = h("AH 2H 3H 4H 5H 6H 9C")
    assert hand.category == "straight flush" and hand.ranks == (6, 5, 4, 3, 2)
    assert [c.token for c in hand.cards] == ["6H", "5H", "4H", "3H", "2H"]
    hand = h("AS AH AD AC KS QS JS 10S")  # royal flush beats the four aces
    assert hand.category == "straight flush"
    assert h("QS QH 9D 9C 5S 5H 2D").ranks == (12, 12, 9, 9, 5)  # three pairs: best two, best kicker
    assert h("8S 8H 8D 8C 3S 3H 3D").ranks == (8, 8, 8, 8, 3)


@pytest.mark.parametrize("text,expected", [
    ("KS KD 7H 7C AS", "two pairs, kings and sevens, ace kicker"),
    ("6S 6D 6H 6C AS", "four of a kind, sixes, ace kicker"),
    ("QS QD QH 4C 4S", "full house, queens over fours"),
    ("AH 9H 7H 5H 3H", "flush, ace, nine, seven, five and three"),
    ("5D 6C 7H 8S 9S", "straight, nine high"),
    ("9D 9C 9H 2S 4D", "three of a kind, nines, four and two kickers"),
    ("10D 10C 8H 5S 2D", "pair of tens, eight, five and two kickers"),
    ("AD JC 9H 6S 2D", "high card ace, then jack, nine, six and two"),
    ("9S 10S JS QS KS", "straight flush, king high"),
])
def test_hand_reads_like_a_person(text, expected):
    hand = h(text)
    assert str(hand) == expected
    assert hand.name == hand.category[0].upper() + hand.category[1:]


def test_cards_are_most_significant_first():
    hand = best_hand(parse_cards("AS 7C KD 7H KS 2D 3C"))
    assert [c.token for c in hand.cards] == ["KD", "KS", "7C", "7H", "AS"]
    assert repr(hand) == "Hand('two pairs', KD KS 7C 7H AS)"


def test_tokens_are_accepted_and_hand_is_immutable():
    hand = best_hand(["AS", "kd", "10h", "9C", "2s"])
    assert hand.category == "high card"
    with pytest.raises(AttributeError):
        hand.category = "pair"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        hand._key = 0  # type: ignore[misc]


def test_hand_constructor_checks_its_parts():
    cards = parse_cards("KS KD 7H 7C AS")
    assert Hand("two pairs", cards, (13, 13, 7, 7, 14)) == best_hand(cards)
    with pytest.raises(HandError, match="two pairs, kings and sevens, ace kicker, not pair"):
        Hand("pair", cards, (13, 13, 14, 7, 7))
    with pytest.raises(HandError, match="Not a poker hand category"):
        Hand("royal", cards, (13, 13, 7, 7, 14))


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("cards,message", [
    ([], r"at least five cards \(got 0\)"),
    (parse_cards("AS KS QS JS"), r"at least five cards \(got 4\)"),
    (parse_cards("AS KS QS JS AS"), "The A♠ is given twice"),
    (parse_cards("2H 3H 4H 5H 6D 2H 9C"), "The 2♥ is given twice"),
    (["AS", "KS", "QS", "JS", "XX"], 'Not a card: "XX"'),
    ([1, 2, 3, 4, 5], "Not a card: 1"),
    ("AS KS QS JS 10S", "as a list"),
])
def test_bad_cards_are_refused_clearly(cards, message):
    with pytest.raises(ValueError, match=message):
        best_hand(cards)


def test_category_index_and_categories():
    assert CATEGORIES[0] == "straight flush" and CATEGORIES[-1] == "high card"
    assert [category_index(c) for c in CATEGORIES] == list(range(9))
    with pytest.raises(ValueError):
        category_index("royal flush")
    assert isinstance(best_hand(DECK[:5]).cards[0], Card)
