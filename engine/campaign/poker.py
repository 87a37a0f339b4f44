"""Poker hands for the campaign's peace treaty (RULES.md CMP-7, CMP-8).

:func:`best_hand` finds the best five-card hand among 5 to 52 distinct cards::

    >>> from engine.cards import parse_cards
    >>> hand = best_hand(parse_cards("KS KD 7H 7C AS 2D 3C"))
    >>> hand.category, str(hand)
    ('two pairs', 'two pairs, kings and sevens, ace kicker')

Hands compare with ``<``, ``==`` and ``>`` by CMP-8: the categories in the order
of :data:`CATEGORIES` (best first); aces are high only, so A-2-3-4-5 is **not** a
straight; within a category the highest cards break ties in the usual kicker
order; suits never break ties, so two different hands can be equal (the campaign
is then a draw).

Speed: pure Python with no lookup tables (nothing to build at import). Ranks are
kept as bit masks — one mask of the ranks seen once or more, twice or more, three
and four times, and one per suit — so a straight is five set bits in a row
(``m & m >> 1 & m >> 2 & m >> 3 & m >> 4``) and the highest rank is
``bit_length() - 1``. ``python -m tests.bench_poker`` measures it against treys.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from typing import Any, NoReturn

from ..cards import Card, CardError, Rank, Suit, parse_card
from ..text import brief_repr

__all__ = ["CATEGORIES", "Hand", "HandError", "best_hand", "category_index"]

#: CMP-8: the hand categories, best first.
CATEGORIES: tuple[str, ...] = (
    "straight flush", "four of a kind", "full house", "flush", "straight",
    "three of a kind", "two pairs", "pair", "high card",
)

# Category strength: 8 for a straight flush … 0 for high card (bigger is better).
_STRENGTH = {name: 8 - index for index, name in enumerate(CATEGORIES)}
_NAME = {8 - index: name for index, name in enumerate(CATEGORIES)}
_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


class HandError(ValueError):
    """Cards from which no poker hand can be made (too few, repeated, not cards)."""


def category_index(category: str) -> int:
    """CMP-8: the position of ``category`` in :data:`CATEGORIES` (0 = straight flush)."""
    if isinstance(category, str) and category in _STRENGTH:
        return CATEGORIES.index(category)
    raise HandError(f"Not a poker hand category: {brief_repr(category)} (one of {', '.join(CATEGORIES)})")


def _plural(rank: int) -> str:
    noun = Rank(rank).noun
    return noun + "es" if noun.endswith("x") else noun + "s"


def _noun(rank: int) -> str:
    return Rank(rank).noun


def _and(words: list[str]) -> str:
    """Three words or more (a flush's five ranks, a pair's three kickers …) as "a, b and c"."""
    return ", ".join(words[:-1]) + " and " + words[-1]


#: A hand in words by its category, from its distinct ranks in tie-break order (``d``).
_WORDS: dict[str, Callable[[tuple[int, ...]], str]] = {
    "straight flush": lambda d: f"straight flush, {_noun(d[0])} high",
    "four of a kind": lambda d: f"four of a kind, {_plural(d[0])}, {_noun(d[1])} kicker",
    "full house": lambda d: f"full house, {_plural(d[0])} over {_plural(d[1])}",
    "flush": lambda d: f"flush, {_and([_noun(x) for x in d])}",
    "straight": lambda d: f"straight, {_noun(d[0])} high",
    "three of a kind": lambda d: f"three of a kind, {_plural(d[0])}, {_noun(d[1])} and {_noun(d[2])} kickers",
    "two pairs": lambda d: f"two pairs, {_plural(d[0])} and {_plural(d[1])}, {_noun(d[2])} kicker",
    "pair": lambda d: f"pair of {_plural(d[0])}, {_and([_noun(x) for x in d[1:]])} kickers",
    "high card": lambda d: f"high card {_noun(d[0])}, then {_and([_noun(x) for x in d[1:]])}",
}


def _by_key(compare: Callable[[int, int], bool]) -> Callable[[Hand, object], bool]:
    """A comparison of two hands by their keys (CMP-8); anything but a hand is not compared."""
    def method(self: Hand, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return compare(self._key, other._key)

    return method


class Hand:
    """CMP-8: a best five-card poker hand.

    * ``category`` — one of :data:`CATEGORIES` (``"two pairs"`` …);
    * ``cards`` — the five cards used, most significant first (the pairs before
      the kicker, a straight from its top card); among equal cards the one given
      first is used;
    * ``ranks`` — the five ranks in the order that breaks ties (what CMP-8
      compares after the category);
    * ``str(hand)`` reads like a person: ``"full house, kings over sevens"``.

    Two hands compare by category, then by ``ranks``; suits never count, so hands
    of different cards can be equal. A hand cannot be changed.
    """

    __slots__ = ("_key", "_source", "_suit", "_cards")
    _key: int  # the CMP-8 order in one number (see key)
    _source: tuple[Card, ...]  # the cards the hand was picked from
    _suit: int  # a flush's suit (index into _SUITS), -1 for none
    _cards: tuple[Card, ...]  # the five cards, picked on first use

    def __init__(self, category: str, cards: Iterable[Card | str], ranks: Iterable[int]):
        """A hand from its parts (checked against each other); :func:`best_hand` is the usual way."""
        if not isinstance(category, str) or category not in _STRENGTH:
            raise HandError(f"Not a poker hand category: {brief_repr(category)} (one of {', '.join(CATEGORIES)})")
        cards = _cards(cards)
        ranks = _ranks(ranks)
        if len(cards) != 5 or len(ranks) != 5:
            raise HandError("A poker hand has exactly five cards and five ranks")
        found = best_hand(cards)
        if found.category != category or found.ranks != ranks:
            raise HandError(f"{' '.join(c.label for c in cards)} is {found}, not {category} {ranks}")
        for name in ("_key", "_source", "_suit"):
            _set(self, name, getattr(found, name))

    @classmethod
    def _make(cls, key: int, source: tuple[Card, ...], suit: int) -> Hand:
        hand = _new(cls)
        _set(hand, "_key", key)
        _set(hand, "_source", source)
        _set(hand, "_suit", suit)
        return hand

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("A Hand cannot be changed")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError("A Hand cannot be changed")

    @property
    def key(self) -> int:
        """One whole number that orders hands exactly as CMP-8 does (bigger is better)."""
        return self._key

    @property
    def category(self) -> str:
        """One of :data:`CATEGORIES`."""
        return _NAME[self._key >> 20]

    @property
    def category_index(self) -> int:
        """0 for a straight flush … 8 for high card (the order of :data:`CATEGORIES`)."""
        return 8 - (self._key >> 20)

    @property
    def ranks(self) -> tuple[int, ...]:
        """The five ranks (2 … 14, ace high) in tie-break order: ``(13, 13, 7, 7, 14)``."""
        key = self._key
        return (key >> 16 & 15, key >> 12 & 15, key >> 8 & 15, key >> 4 & 15, key & 15)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The five cards used, most significant first."""
        try:
            return self._cards
        except AttributeError:
            cards = _pick(self._source, self.ranks, self._suit)
            _set(self, "_cards", cards)
            return cards

    # Hands compare by their key (CMP-8), and only with hands.
    __eq__ = _by_key(operator.eq)
    __ne__ = _by_key(operator.ne)
    __lt__ = _by_key(operator.lt)
    __le__ = _by_key(operator.le)
    __gt__ = _by_key(operator.gt)
    __ge__ = _by_key(operator.ge)

    def __hash__(self) -> int:
        return hash(self._key)

    def __reduce__(self) -> tuple[Callable[[Iterable[Card | str]], Hand], tuple[tuple[Card, ...]]]:
        return (best_hand, (self.cards,))

    def __repr__(self) -> str:
        return f"Hand({self.category!r}, {' '.join(str(c) for c in self.cards)})"

    def __str__(self) -> str:
        d = tuple(dict.fromkeys(self.ranks))  # the distinct ranks, in tie-break order
        return _WORDS[self.category](d)

    @property
    def name(self) -> str:
        """The category with a capital letter, for a heading: ``"Two pairs"``."""
        category = self.category
        return category[0].upper() + category[1:]


_new = object.__new__
_set = object.__setattr__


def _card(item: object) -> Card:
    if isinstance(item, Card):
        return item
    try:
        return parse_card(item)
    except CardError as err:
        raise HandError(str(err)) from None


def _cards(cards: object) -> tuple[Card, ...]:
    """``cards`` (Card values or tokens, in any iterable but one text) as a tuple of Cards."""
    if isinstance(cards, (str, Card)) or cards is None:
        raise HandError('Give the cards as a list, e.g. parse_cards("AS KH 10D 9C 2S") '
                        f"(got {type(cards).__name__})")
    try:
        items: tuple[Any, ...] = tuple(cards)  # type: ignore[arg-type]  # any iterable; TypeError caught
    except TypeError:
        raise HandError(f"Not a list of cards: {type(cards).__name__} (give cards like AS KH 10D)") from None
    return tuple(_card(c) for c in items)


def _ranks(ranks: object) -> tuple[int, ...]:
    """Five ranks as whole numbers from 2 to 14 (ace high)."""
    try:
        items: tuple[Any, ...] = tuple(ranks)  # type: ignore[arg-type]  # any iterable; TypeError caught
    except TypeError:
        raise HandError("The ranks must be a list of five whole numbers from 2 to 14") from None
    if not all(isinstance(r, int) and not isinstance(r, bool) and 2 <= r <= 14 for r in items):
        raise HandError("The ranks must be whole numbers from 2 (two) to 14 (ace)")
    return tuple(int(r) for r in items)


def best_hand(cards: Iterable[Card | str]) -> Hand:
    """CMP-7/CMP-8: the best five-card poker hand among 5 to 52 distinct cards.

    ``cards`` are :class:`engine.cards.Card` values or card tokens (``"KH"``).
    Raises :class:`HandError` (a ``ValueError``) for fewer than five cards, a card
    given twice, or something that is not a card.
    """
    if isinstance(cards, (str, Card)) or cards is None:
        raise HandError('Give the cards as a list, e.g. parse_cards("AS KH 10D 9C 2S") '
                        f"(got {type(cards).__name__})")
    try:
        cards = tuple(cards)
    except TypeError:
        raise HandError(f"Not a list of cards: {type(cards).__name__} (give cards like AS KH 10D)") from None
    if len(cards) < 5:
        raise HandError(f"A poker hand needs at least five cards (got {len(cards)})")
    s0 = s1 = s2 = s3 = 0
    try:
        for card in cards:
            if card.__class__ is not _Card:
                raise AttributeError  # a token, or not a card at all: the slow path says which
            bit = 1 << card.rank
            suit = card.suit
            if suit is _S:
                if s0 & bit:
                    break
                s0 |= bit
            elif suit is _H:
                if s1 & bit:
                    break
                s1 |= bit
            elif suit is _D:
                if s2 & bit:
                    break
                s2 |= bit
            elif suit is _C:
                if s3 & bit:
                    break
                s3 |= bit
            else:
                raise AttributeError
        else:
            card = None
    except (AttributeError, TypeError):
        return best_hand([_card(c) for c in cards])  # tokens, or not cards at all
    if card is not None:
        raise HandError(f"The {card.label} is given twice (a deck has one of each card)")
    return _evaluate(cards, s0, s1, s2, s3)  # type: ignore[arg-type]  # each passed the Card check above


_S, _H, _D, _C = _SUITS
_Card = Card


def _evaluate(cards: tuple[Card, ...], s0: int, s1: int, s2: int, s3: int) -> Hand:
    """The hand from the rank masks of the four suits (bit r set = rank r held)."""
    make = Hand._make
    # Flushes (and straight flushes): a suit with five cards or more.
    flush_suit = -1
    flush_key = 0
    for s, mask in ((0, s0), (1, s1), (2, s2), (3, s3)):
        if mask.bit_count() >= 5:
            run = mask & mask >> 1 & mask >> 2 & mask >> 3 & mask >> 4
            if run:
                high = run.bit_length() + 3
                key = 8 << 20 | high << 16 | (high - 1) << 12 | (high - 2) << 8 | (high - 3) << 4 | (high - 4)
            else:
                key = _flush_key(mask)
            if key > flush_key:
                flush_suit, flush_key = s, key
    if flush_key >> 20 == 8:
        return make(flush_key, cards, flush_suit)
    m1 = s0 | s1 | s2 | s3
    m2 = s0 & s1 | s0 & s2 | s0 & s3 | s1 & s2 | s1 & s3 | s2 & s3
    if m2:
        m3 = s0 & s1 & (s2 | s3) | s2 & s3 & (s0 | s1)
        if m3:
            m4 = s0 & s1 & s2 & s3
            if m4:
                quad = m4.bit_length() - 1
                kick = (m1 ^ 1 << quad).bit_length() - 1
                return make(7 << 20 | quad * 0x1111 << 4 | kick, cards, -1)
            trips = m3.bit_length() - 1
            pairs = m2 ^ 1 << trips
            if pairs:
                pair = pairs.bit_length() - 1
                return make(6 << 20 | trips * 0x111 << 8 | pair * 0x11, cards, -1)
    if flush_suit >= 0:
        return make(flush_key, cards, flush_suit)
    run = m1 & m1 >> 1 & m1 >> 2 & m1 >> 3 & m1 >> 4
    if run:
        high = run.bit_length() + 3
        return make(4 << 20 | high << 16 | (high - 1) << 12 | (high - 2) << 8 | (high - 3) << 4 | (high - 4),
                    cards, -1)
    if not m2:
        return make(_flush_key(m1) & 0xFFFFF, cards, -1)
    if m3:
        trips = m3.bit_length() - 1
        rest = m1 ^ 1 << trips
        k1 = rest.bit_length() - 1
        k2 = (rest ^ 1 << k1).bit_length() - 1
        return make(3 << 20 | trips * 0x111 << 8 | k1 << 4 | k2, cards, -1)
    p1 = m2.bit_length() - 1
    lower = m2 ^ 1 << p1
    if lower:
        p2 = lower.bit_length() - 1
        kick = (m1 ^ 1 << p1 ^ 1 << p2).bit_length() - 1
        return make(2 << 20 | p1 * 0x11 << 12 | p2 * 0x11 << 4 | kick, cards, -1)
    rest = m1 ^ 1 << p1
    k1 = rest.bit_length() - 1
    rest ^= 1 << k1
    k2 = rest.bit_length() - 1
    rest ^= 1 << k2
    k3 = rest.bit_length() - 1
    return make(1 << 20 | p1 * 0x11 << 12 | k1 << 8 | k2 << 4 | k3, cards, -1)


def _flush_key(mask: int) -> int:
    """Key of a flush (or, masked, high card) from the top five ranks of ``mask``."""
    r1 = mask.bit_length() - 1
    mask ^= 1 << r1
    r2 = mask.bit_length() - 1
    mask ^= 1 << r2
    r3 = mask.bit_length() - 1
    mask ^= 1 << r3
    r4 = mask.bit_length() - 1
    mask ^= 1 << r4
    r5 = mask.bit_length() - 1
    return 5 << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5


def _pick(cards: tuple[Card, ...], ranks: tuple[int, ...], suit: int) -> tuple[Card, ...]:
    """The five cards of a hand with these ``ranks`` (of ``suit`` for a flush)."""
    wanted_suit = _SUITS[suit] if suit >= 0 else None
    slots: dict[int, list[Card]] = {}
    for rank in ranks:
        slots.setdefault(rank, [])
    need: dict[int, int] = {}
    for rank in ranks:
        need[rank] = need.get(rank, 0) + 1
    for card in cards:
        rank = int(card.rank)
        if need.get(rank) and (wanted_suit is None or card.suit is wanted_suit):
            slots[rank].append(card)
            need[rank] -= 1
    return tuple(card for group in slots.values() for card in group)
