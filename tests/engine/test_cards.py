"""Cards: suits, ranks, tokens, names, parsing and decks (engine.cards)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import Card, CardError, Rank, Suit, full_deck, parse_card, parse_cards, shuffled_deck

cards = st.sampled_from(full_deck())


def test_suit_letters_symbols_nouns_and_colour():
    assert [s.letter for s in Suit] == ["S", "H", "D", "C"]
    assert [s.symbol for s in Suit] == ["♠", "♥", "♦", "♣"]
    assert [s.noun for s in Suit] == ["spades", "hearts", "diamonds", "clubs"]
    assert [s.is_red for s in Suit] == [False, True, True, False]
    assert Suit("H") is Suit.HEARTS


@pytest.mark.parametrize("text, suit", [("s", Suit.SPADES), ("♥", Suit.HEARTS), ("Diamonds", Suit.DIAMONDS),
                                        ("club", Suit.CLUBS), (Suit.CLUBS, Suit.CLUBS)])
def test_suit_parse_accepts_letter_symbol_and_noun(text, suit):
    assert Suit.parse(text) is suit


@pytest.mark.parametrize("text", ["X", "", "spadez", 3, None])
def test_suit_parse_refuses_other_text(text):
    with pytest.raises(CardError, match="Not a suit"):
        Suit.parse(text)


def test_rank_tokens_nouns_faces_and_poker_order():
    assert [r.token for r in Rank] == ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    assert [r.noun for r in Rank][:3] == ["two", "three", "four"]
    assert [r.noun for r in Rank][-5:] == ["ten", "jack", "queen", "king", "ace"]
    assert [r for r in Rank if r.is_face] == [Rank.JACK, Rank.QUEEN, Rank.KING]
    assert Rank.ACE == 14 and Rank.ACE > Rank.KING > Rank.QUEEN > Rank.JACK > Rank.TEN
    assert Rank.TWO == 2 and min(Rank) is Rank.TWO


@pytest.mark.parametrize("card, token, name, label", [
    (Card(Rank.TEN, Suit.DIAMONDS), "10D", "ten of diamonds", "10♦"),
    (Card(Rank.ACE, Suit.SPADES), "AS", "ace of spades", "A♠"),
    (Card(Rank.QUEEN, Suit.HEARTS), "QH", "queen of hearts", "Q♥"),
    (Card(Rank.TWO, Suit.CLUBS), "2C", "two of clubs", "2♣"),
])
def test_card_token_name_and_label(card, token, name, label):
    assert str(card) == token == card.token
    assert card.name == name
    assert card.label == label


def test_card_is_a_frozen_value():
    card = Card(Rank.KING, Suit.SPADES)
    assert card == parse_card("KS") and hash(card) == hash(parse_card("ks"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = Rank.TWO  # type: ignore[misc]
    assert Card(13, "S") == card  # plain values are converted


@pytest.mark.parametrize("token, expected", [
    ("AS", "AS"), ("kh", "KH"), ("10D", "10D"), ("Td", "10D"), ("t♣", "10C"), (" 9c ", "9C"),
    ("Q♠", "QS"), ("2h", "2H"), ("J♦️", "JD"),
])
def test_parse_card_good_tokens(token, expected):
    assert str(parse_card(token)) == expected


@pytest.mark.parametrize("token", ["1S", "11H", "AX", "A", "", "10", "SS", "AS10D", "0D", "1OD", "KK"])
def test_parse_card_bad_tokens_name_the_token_and_the_format(token):
    with pytest.raises(CardError) as err:
        parse_card(token)
    message = str(err.value)
    assert message.startswith(f'Not a card: "{token}"')
    assert "ranks are 2–10, T, J, Q, K, A; suits S, H, D, C" in message


def test_parse_card_error_message_exactly():
    with pytest.raises(CardError) as err:
        parse_card("1S")
    assert str(err.value) == 'Not a card: "1S" (ranks are 2–10, T, J, Q, K, A; suits S, H, D, C)'


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)
    with pytest.raises(ValueError):
        parse_card(42)


def test_parse_cards_whitespace_and_commas():
    assert [str(c) for c in parse_cards("AS KH 10D 9c Td")] == ["AS", "KH", "10D", "9C", "10D"]
    assert [str(c) for c in parse_cards("2h,3c , 4d,\n5s")] == ["2H", "3C", "4D", "5S"]


@pytest.mark.parametrize("text", ["", "   ", " , ,", "\n"])
def test_parse_cards_empty_text_is_no_cards(text):
    assert parse_cards(text) == []


@pytest.mark.parametrize("text, bad", [("AS 1S KH", '"1S"'), ("AS,ZZ", '"ZZ"'), ("10", '"10"')])
def test_parse_cards_names_the_first_bad_token(text, bad):
    with pytest.raises(CardError, match=bad):
        parse_cards(text)


def test_parse_cards_refuses_non_text():
    with pytest.raises(CardError):
        parse_cards(["AS"])


def test_full_deck_has_52_different_cards_in_a_fixed_order():
    deck = full_deck()
    assert len(deck) == 52 == len(set(deck))
    assert str(deck[0]) == "2S" and str(deck[12]) == "AS" and str(deck[-1]) == "AC"
    assert deck == full_deck()


def test_shuffled_deck_is_a_seeded_permutation():
    one = shuffled_deck(random.Random(7))
    assert one == shuffled_deck(random.Random(7))
    assert one != shuffled_deck(random.Random(8))
    assert sorted(one, key=lambda c: c.sort_key) == list(full_deck())
    assert one != list(full_deck())


@given(cards)
def test_every_card_round_trips_through_its_token_and_label(card):
    assert parse_card(str(card)) == card
    assert parse_card(str(card).lower()) == card
    assert parse_card(card.label) == card
    assert card.name.endswith(card.suit.noun) and card.name.startswith(card.rank.noun)


@given(st.lists(cards, max_size=12), st.lists(st.sampled_from([" ", ",", ", ", "\t", " ,\n"]),
                                               min_size=12, max_size=12))
def test_parse_cards_reads_any_separated_list(hand, seps):
    text = "".join(str(card) + sep for card, sep in zip(hand, seps))
    assert parse_cards(text) == hand


# --------------------------------------------------------------------------- issue 20

def test_clean_cards_takes_cards_and_tokens_alike_and_refuses_a_card_twice():
    from engine.cards import clean_cards

    ace, king = parse_cards("AS KH")
    assert clean_cards([ace, "kh"]) == (ace, king) == clean_cards("as KH") == clean_cards(iter(["AS", king]))
    assert clean_cards(ace) == (ace,)
    with pytest.raises(CardError, match="A♠ is given twice"):
        clean_cards(["AS", ace])
    assert clean_cards(["AS", ace], unique=False) == (ace, ace)
    for bad in (None, 5, [None], ["ZZ"], [["AS"]]):
        with pytest.raises(CardError):
            clean_cards(bad)
