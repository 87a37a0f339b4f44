"""engine.poker: the cases mutation testing found untested (issue 20 item 8; CMP-7, CMP-8).

Every hand is checked against the brute-force reference of ``test_poker`` (written from
CMP-8 alone); the samples here reach the categories and kickers that random hands
seldom reach (four of a kind with a kicker from trips, two trips, three pairs, six
cards of a suit …), and the refusals a Python caller meets.
"""

from __future__ import annotations

import copy
import itertools
import pickle
import random

import pytest

from engine.cards import Card, Rank, Suit, full_deck, parse_cards
from engine.poker import CATEGORIES, Hand, HandError, best_hand, category_index
from tests.engine.test_poker import ref_best, ref_five

DECK = full_deck()
SUITS = list(Suit)
RANKS = list(range(2, 15))


def card(rank: int, suit: Suit) -> Card:
    return Card(Rank(rank), suit)


def agrees(cards) -> Hand:
    """best_hand(cards) is the hand the reference finds: same category, same tie-break ranks."""
    hand = best_hand(cards)
    strength, ranks = ref_best(cards)
    assert (hand.category, hand.ranks) == (CATEGORIES[8 - strength], ranks), [str(c) for c in cards]
    assert len(hand.cards) == 5 and ref_five(hand.cards) == (strength, ranks) and set(hand.cards) <= set(cards)
    return hand


# ---------------------------------------------------------------- every five-card shape


def test_cmp_8_every_five_card_rank_pattern_matches_brute_force():
    """CMP-8: every multiset of five ranks (6,175 of them, four of a rank at most), in mixed
    suits, and every set of five distinct ranks as a flush, is the hand the reference finds."""
    seen = set()
    for index, ranks in enumerate(itertools.combinations_with_replacement(RANKS, 5)):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        cards, copies = [], {}
        for r in ranks:
            n = copies.get(r, 0)
            copies[r] = n + 1
            cards.append(card(r, SUITS[(n + index) % 4]))
        if len(set(ranks)) == 5 and len({c.suit for c in cards}) == 1:  # rotate one card off the suit
            cards[0] = card(ranks[0], SUITS[(index + 1) % 4])
        seen.add(agrees(cards).category)
        if len(set(ranks)) == 5:
            seen.add(agrees([card(r, SUITS[index % 4]) for r in ranks]).category)
    assert seen == set(CATEGORIES)


# ---------------------------------------------------------------- seven cards and more, by shape

SHAPES = [(4, 3), (4, 2, 1), (4, 1, 1, 1), (3, 3, 1), (3, 2, 2), (3, 2, 1, 1), (3, 1, 1, 1, 1),
          (2, 2, 2, 1), (2, 2, 1, 1, 1), (2, 1, 1, 1, 1, 1), (1, 1, 1, 1, 1, 1, 1), (4, 4), (3, 3, 2),
          (4, 3, 1), (2, 2, 2, 2)]


def shaped(rng: random.Random, shape: tuple[int, ...], flushy: bool) -> list[Card]:
    """Cards whose ranks come in ``shape`` (e.g. (4, 2, 1): quads, a pair, a single); with
    ``flushy`` the single cards lean to one suit (flushes and straight flushes)."""
    ranks = rng.sample(RANKS, len(shape))
    if flushy and rng.random() < 0.5:  # ranks in a row make straights (and straight flushes)
        low = rng.randint(2, 15 - len(shape))
        ranks = list(range(low, low + len(shape)))
        rng.shuffle(ranks)
    lean = rng.choice(SUITS)
    cards = []
    for rank, count in zip(ranks, shape):
        suits = rng.sample(SUITS, count)
        if flushy and lean not in suits:
            suits[0] = lean
        cards += [card(rank, s) for s in suits]
    rng.shuffle(cards)
    return cards


def test_cmp_8_seven_and_eight_cards_of_every_shape_match_brute_force():
    """CMP-7/CMP-8: the best five of seven or eight cards, for every way the ranks can repeat
    (quads with trips, two trips, three pairs …), in mixed and in one-sided suits."""
    rng = random.Random(20261201)
    seen = set()
    for _ in range(60):
        for shape in SHAPES:
            seen.add(agrees(shaped(rng, shape, rng.random() < 0.5)).category)
    assert seen == set(CATEGORIES)


@pytest.mark.parametrize("text,category,ranks", [
    # Quads: the kicker is the best other card, even when it comes from trips or a pair.
    ("9S 9H 9D 9C KS KH KD", "four of a kind", (9, 9, 9, 9, 13)),
    ("9S 9H 9D 9C 2S 2H AD", "four of a kind", (9, 9, 9, 9, 14)),
    ("AS AH AD AC KS KH KD KC", "four of a kind", (14, 14, 14, 14, 13)),
    ("3S 3H 3D 3C AS AH AD AC", "four of a kind", (14, 14, 14, 14, 3)),
    # Two trips: the higher three with a pair of the lower; trips and two pairs: the higher pair.
    ("4S 4H 4D JC JS JH 2D", "full house", (11, 11, 11, 4, 4)),
    ("QS QH QD 5C 5S 8H 8D", "full house", (12, 12, 12, 8, 8)),
    ("2S 2H 2D AC AS KH KD", "full house", (2, 2, 2, 14, 14)),
    # Three pairs: the two best pairs, the kicker the best of the rest (the third pair too).
    ("KS KH 8D 8C 6S 6H 2D", "two pairs", (13, 13, 8, 8, 6)),
    ("KS KH 8D 8C 6S 6H QD", "two pairs", (13, 13, 8, 8, 12)),
    # Trips with four singles: the two best kickers.
    ("7S 7H 7D AC 2S 9H 5D", "three of a kind", (7, 7, 7, 14, 9)),
    # Six and seven cards of one suit: the best five.
    ("2H 4H 6H 8H 10H QH 3S", "flush", (12, 10, 8, 6, 4)),
    ("2H 4H 6H 8H 10H QH AH", "flush", (14, 12, 10, 8, 6)),
    # A flush in two suits: the better one; a straight flush in the lower suit beats it.
    ("AS KS QS JS 9S 8H 7H 6H 5H 3H", "flush", (14, 13, 12, 11, 9)),
    ("AS KS QS JS 9S 8C 7C 6C 5C 4C", "straight flush", (8, 7, 6, 5, 4)),
    # Runs of six or seven: the top five; a straight flush inside a longer straight.
    ("4S 5H 6D 7C 8S 9H 10D", "straight", (10, 9, 8, 7, 6)),
    ("4S 5S 6S 7S 8S 9H 10D", "straight flush", (8, 7, 6, 5, 4)),
    ("9D 10D JD QD KD AD 8D", "straight flush", (14, 13, 12, 11, 10)),
    # Pair and high card with many singles.
    ("JS JH 2D 4C 6S 8H 10D", "pair", (11, 11, 10, 8, 6)),
    ("2S 4H 6D 8C 10S QH 3D", "high card", (12, 10, 8, 6, 4)),
])
def test_cmp_8_best_five_of_many_cards(text, category, ranks):
    """CMP-8: category and tie-break ranks of the best five (the reference agrees)."""
    hand = agrees(parse_cards(text))
    assert (hand.category, hand.ranks) == (category, ranks)


def test_cmp_8_a_flush_is_made_of_one_suit_and_a_quads_kicker_is_held():
    """CMP-8: the five cards shown for a flush are of one suit, the flush's ranks; for four of
    a kind they are the four and the best other card."""
    hand = agrees(parse_cards("AS KS QS JS 9S AH KH QH JH 9H"))
    assert hand.category == "flush" and len({c.suit for c in hand.cards}) == 1
    hand = agrees(parse_cards("9S 9H 9D 9C KS 2H KD"))
    assert [c.token for c in hand.cards] == ["9S", "9H", "9D", "9C", "KS"]
    hand = agrees(parse_cards("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"))
    assert [c.token for c in hand.cards] == ["AC", "KC", "QC", "JC", "10C"]


# ---------------------------------------------------------------- a hand is a value


def test_a_hand_compares_only_with_hands():
    """CMP-8 compares hands; anything else is not equal, and ordering against it is refused."""
    hand = best_hand(parse_cards("KS KD 7H 7C AS"))
    assert (hand == "two pairs") is False and (hand != "two pairs") is True
    assert (hand == hand.key) is False and hand != 5
    for other in (5, "AS", None, hand.key):
        for compare in (lambda a, b: a < b, lambda a, b: a <= b, lambda a, b: a > b, lambda a, b: a >= b):
            with pytest.raises(TypeError):
                compare(hand, other)
    assert hand in {best_hand(parse_cards("KH KC 7S 7D AD"))}  # equal hands are one set member
    assert len({hand, best_hand(parse_cards("KH KC 7S 7D QD"))}) == 2


def test_a_hand_keeps_its_cards_and_category_index():
    """The five cards of a hand read the same every time; category_index is its CMP-8 place."""
    for text in ("AS 7C KD 7H KS 2D 3C", "2H 3H 4H 5H 7H 9C", "9S 10S JS QS KS AD"):
        hand = best_hand(parse_cards(text))
        first = hand.cards
        assert hand.cards == first and len(first) == 5 and all(isinstance(c, Card) for c in first)
        assert hand.category_index == category_index(hand.category) == CATEGORIES.index(hand.category)


def test_a_hand_survives_pickle_and_copy_and_cannot_be_changed():
    """CMP-8 (issue 20): a hand is a value: pickled or copied it is the same hand with the same cards; it
    refuses changes and deletions (a hand cannot be changed)."""
    hand = best_hand(parse_cards("QS QD QH 4C 4S 2D 9H"))
    for again in (pickle.loads(pickle.dumps(hand)), copy.copy(hand), copy.deepcopy(hand)):
        assert again == hand and again.cards == hand.cards and str(again) == str(hand)
    with pytest.raises(AttributeError) as refused:
        hand.category = "pair"  # type: ignore[misc]
    assert str(refused.value) == "A Hand cannot be changed"
    with pytest.raises(AttributeError) as refused:
        del hand.cards
    assert str(refused.value) == "A Hand cannot be changed"
    assert str(hand) == "full house, queens over fours"


def test_the_name_of_a_hand_is_its_category_capitalised():
    """CMP-8: the heading of a hand (its category with a capital letter), for every category."""
    names = {best_hand(parse_cards(t)).name for t in (
        "2S 3S 4S 5S 6S", "2S 2H 2D 2C 3S", "2S 2H 2D 3C 3S", "2H 3H 4H 5H 7H", "2S 3H 4D 5C 6S",
        "2S 2H 2D 3C 4S", "2S 2H 3D 3C 4S", "2S 2H 3D 4C 5S", "AS KH QD JC 9S")}
    assert names == {"Straight flush", "Four of a kind", "Full house", "Flush", "Straight",
                     "Three of a kind", "Two pairs", "Pair", "High card"}


# ---------------------------------------------------------------- the constructor checks its parts


def test_hand_constructor_accepts_a_true_description_of_any_category():
    """CMP-8: Hand(category, cards, ranks) is the hand best_hand finds, from Cards or tokens, with
    ranks from 2 (two) to 14 (ace)."""
    for text in ("2S 3S 4S 5S 6S", "AS AH AD AC 2S", "2H 2D 2C AS AH", "AH 9H 7H 5H 2H", "10S JH QD KC AS"):
        cards = parse_cards(text)
        found = best_hand(cards)
        assert Hand(found.category, cards, found.ranks) == found
        assert Hand(found.category, [c.token.lower() for c in cards], list(found.ranks)) == found
        assert Hand(found.category, iter(cards), iter(found.ranks)).cards == found.cards


@pytest.mark.parametrize("category,text,ranks,message", [
    # The right category with the wrong ranks, and the wrong category with the right ranks.
    ("two pairs", "KS KD 7H 7C AS", (13, 13, 7, 7, 12), "K♠ K♦ 7♥ 7♣ A♠ is two pairs, kings and sevens, ace kicker, not two pairs (13, 13, 7, 7, 12)"),
    ("pair", "KS KD 7H 7C AS", (13, 13, 7, 7, 14), "K♠ K♦ 7♥ 7♣ A♠ is two pairs, kings and sevens, ace kicker, not pair (13, 13, 7, 7, 14)"),
    ("two pairs", "KS KD 7H 7C AS 2D", (13, 13, 7, 7, 14), "A poker hand has exactly five cards and five ranks"),
    ("two pairs", "KS KD 7H 7C AS", (13, 13, 7, 7), "A poker hand has exactly five cards and five ranks"),
    ("two pairs", "KS KD 7H 7C", (13, 13, 7, 7, 14), "A poker hand has exactly five cards and five ranks"),
    ("two pairs", "KS KD 7H 7C AS", (13, 13, 7, 7, 15), "The ranks must be whole numbers from 2 (two) to 14 (ace)"),
    ("high card", "2S 4H 6D 8C 10S", (10, 8, 6, 4, 1), "The ranks must be whole numbers from 2 (two) to 14 (ace)"),
    ("two pairs", "KS KD 7H 7C AS", (13, 13, 7, 7, True), "The ranks must be whole numbers from 2 (two) to 14 (ace)"),
    ("two pairs", "KS KD 7H 7C AS", (13, 13, 7, 7, "14"), "The ranks must be whole numbers from 2 (two) to 14 (ace)"),
    ("two pairs", "KS KD 7H 7C AS", 13, "The ranks must be a list of five whole numbers from 2 to 14"),
    (5, "KS KD 7H 7C AS", (13, 13, 7, 7, 14), "Not a poker hand category: 5 (one of " + ", ".join(CATEGORIES) + ")"),
])
def test_hand_constructor_refuses_parts_that_do_not_fit(category, text, ranks, message):
    """A Hand is never made from a false description (CMP-8 decides what the cards are)."""
    with pytest.raises(HandError) as err:
        Hand(category, parse_cards(text), ranks)
    assert str(err.value) == message


@pytest.mark.parametrize("cards,message", [
    (None, 'Give the cards as a list, e.g. parse_cards("AS KH 10D 9C 2S") (got NoneType)'),
    ("KS KD 7H 7C AS", 'Give the cards as a list, e.g. parse_cards("AS KH 10D 9C 2S") (got str)'),
    (Card(Rank.KING, Suit.SPADES), 'Give the cards as a list, e.g. parse_cards("AS KH 10D 9C 2S") (got Card)'),
    (5, "Not a list of cards: int (give cards like AS KH 10D)"),
])
def test_hand_constructor_refuses_what_is_not_a_list_of_cards(cards, message):
    """CMP-7 (issue 20, one bad-input contract): a Python caller learns how to give the cards."""
    with pytest.raises(HandError) as err:
        Hand("two pairs", cards, (13, 13, 7, 7, 14))
    assert str(err.value) == message
    with pytest.raises(HandError, match='Not a card: "ZZ"'):
        Hand("two pairs", ["KS", "KD", "7H", "7C", "ZZ"], (13, 13, 7, 7, 14))


# ---------------------------------------------------------------- best_hand refuses clearly


@pytest.mark.parametrize("cards,message", [
    (None, 'Give the cards as a list, e.g. parse_cards("AS KH 10D 9C 2S") (got NoneType)'),
    (Card(Rank.ACE, Suit.SPADES), 'Give the cards as a list, e.g. parse_cards("AS KH 10D 9C 2S") (got Card)'),
    (7, "Not a list of cards: int (give cards like AS KH 10D)"),
    (parse_cards("2D 5D 9D 2D KC"), "The 2♦ is given twice (a deck has one of each card)"),
    (parse_cards("2C 5C 9S 8H 2C"), "The 2♣ is given twice (a deck has one of each card)"),
    (parse_cards("2H 5C 9S 8H 2H"), "The 2♥ is given twice (a deck has one of each card)"),
    (parse_cards("2S 5C 9S 8H 2S"), "The 2♠ is given twice (a deck has one of each card)"),
    (["2C", "5C", "9S", "8H", "2c"], "The 2♣ is given twice (a deck has one of each card)"),
    (parse_cards("2C 5C 9S"), "A poker hand needs at least five cards (got 3)"),
    (parse_cards("2C 5C 9S") + [None, None], "Not a card: None (ranks are 2–10, T, J, Q, K, A; suits S, H, D, C)"),
])
def test_best_hand_refuses_bad_cards_saying_why(cards, message):
    """CMP-7 (issue 20): a caller learns what is wrong (a card twice in any suit, too few, not a list, not a card)."""
    with pytest.raises(HandError) as err:
        best_hand(cards)
    assert str(err.value) == message


def test_best_hand_takes_any_iterable_and_mixed_cards_and_tokens():
    """CMP-7 (issue 20 item 3): cards as Card values or tokens alike, in a list, tuple, generator or set."""
    cards = parse_cards("KS KD 7H 7C AS 2D 3C")
    want = best_hand(cards)
    assert best_hand(tuple(cards)) == want and best_hand(c for c in cards) == want
    assert best_hand(set(cards)) == want
    assert best_hand([cards[0], "kd", cards[2], "7c", "AS"]).ranks == (13, 13, 7, 7, 14)


@pytest.mark.parametrize("bad", [5, None, [], "royal flush", "Pair", ("pair",)])
def test_category_index_refuses_what_is_not_a_category(bad):
    """CMP-8 has nine categories; anything else is refused with the list of them."""
    with pytest.raises(HandError) as err:
        category_index(bad)
    assert str(err.value) == f"Not a poker hand category: {bad!r} (one of {', '.join(CATEGORIES)})"


@pytest.mark.parametrize("text,used", [
    ("KS KD KH 7C 7S 7D", "KS KD KH 7C 7S"),          # two trips: the first two of the lower three
    ("7D 7C KS 7S KD KH", "KS KD KH 7D 7C"),
    ("AS AH KH QH JH 9H", "AH KH QH JH 9H"),          # the flush, not the ace of spades given first
    ("AH AS KS QS JS 9S 9D", "AS KS QS JS 9S"),       # a flush in spades too
    ("KC 9D QD JD 10D 8D KD", "KD QD JD 10D 9D"),     # a straight flush in diamonds, not the K♣
    ("9S 9H 9D 9C 2C KS KD", "9S 9H 9D 9C KS"),       # quads: the first king is the kicker
    ("QD QS 8C 8H 8D 8S 3C", "8C 8H 8D 8S QD"),
    ("5C 5D 5H 4S 4C 4D 2S", "5C 5D 5H 4S 4C"),
    ("JS JH 4D 4C 4S 9H 9C", "4D 4C 4S JS JH"),       # trips with two pairs: the higher pair
    ("2S 3D 4C 5H 6S 6D 7H", "7H 6S 5H 4C 3D"),       # a straight takes the first six given
])
def test_cmp_8_a_hand_uses_the_first_given_of_equal_cards(text, used):
    """CMP-8: the five cards used, most significant first; among equal cards the one given first
    (suits never count, but the table shows real cards)."""
    hand = agrees(parse_cards(text))
    assert [c.token for c in hand.cards] == used.split()
