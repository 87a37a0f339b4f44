"""Playing cards: suits, ranks, cards, parsing and decks.

A standard 52-card deck without jokers. Ranks are in poker order (ace high,
``Rank.ACE == 14``) so a poker module can compare them directly; a system that
counts an ace as 1 (Organizations In Conflict, OIC-6) does so in its own rules.

Card tokens are what players type and what actions carry: rank ``2``–``10``
(or ``T`` for ten), ``J``, ``Q``, ``K``, ``A`` followed by the suit ``S``,
``H``, ``D`` or ``C`` (the symbols ``♠ ♥ ♦ ♣`` are accepted too), case
insensitive: ``AS``, ``kh``, ``10D``, ``Td``, ``Q♠``. ``str(card)`` is the
canonical token (``"10D"``), ``card.label`` the short display form (``"10♦"``)
and ``card.name`` the accessible name (``"ten of diamonds"``).
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Any

from .text import shown

__all__ = [
    "Card",
    "CardError",
    "Rank",
    "Suit",
    "clean_cards",
    "full_deck",
    "parse_card",
    "parse_cards",
    "shuffled_deck",
]


class CardError(ValueError):
    """Text that is not a card (or a list of cards)."""


class Suit(Enum):
    """The four suits; the value is the suit's letter in a card token."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def letter(self) -> str:
        """``"S"``, ``"H"``, ``"D"`` or ``"C"``."""
        return self.value

    @property
    def symbol(self) -> str:
        """``"♠"``, ``"♥"``, ``"♦"`` or ``"♣"``."""
        return _SUIT_SYMBOLS[self]

    @property
    def noun(self) -> str:
        """``"spades"``, ``"hearts"``, ``"diamonds"`` or ``"clubs"``."""
        return self.name.lower()

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: object) -> Suit:
        """A suit from its letter, symbol or noun (``"s"``, ``"♠"``, ``"Spades"``)."""
        if isinstance(text, Suit):
            return text
        if isinstance(text, str):
            key = text.strip().lower()
            for suit in cls:
                if key in (suit.letter.lower(), suit.symbol, suit.noun, suit.noun[:-1]):
                    return suit
        raise CardError(f"Not a suit: {_quote(text)} (suits are S, H, D, C)")


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


class Rank(IntEnum):
    """Ranks in poker order: two is lowest, ace is highest (14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def token(self) -> str:
        """``"2"`` … ``"10"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``."""
        return _RANK_TOKENS[self]

    @property
    def noun(self) -> str:
        """``"two"`` … ``"ten"``, ``"jack"``, ``"queen"``, ``"king"``, ``"ace"``."""
        return self.name.lower()

    @property
    def is_face(self) -> bool:
        """Jack, queen and king are face cards (an ace is not)."""
        return self in (Rank.JACK, Rank.QUEEN, Rank.KING)

    def __str__(self) -> str:
        return self.token


_RANK_TOKENS = {rank: (str(rank.value) if rank <= 10 else rank.name[0]) for rank in Rank}
_TOKEN_RANKS = {token: rank for rank, token in _RANK_TOKENS.items()}
_TOKEN_RANKS["T"] = Rank.TEN

_SUIT_BY_CHAR = {}
for _suit in Suit:
    _SUIT_BY_CHAR[_suit.letter] = _suit
    _SUIT_BY_CHAR[_suit.symbol] = _suit
# Variation selectors sometimes follow a suit symbol (♠️); ignore them.
_VARIATION_SELECTORS = "\ufe0e\ufe0f"

_CARD_HELP = "ranks are 2–10, T, J, Q, K, A; suits S, H, D, C"


@dataclass(frozen=True)
class Card:
    """A playing card. ``str(card)`` is its canonical token, e.g. ``"10D"``."""

    rank: Rank
    suit: Suit

    def __post_init__(self) -> None:
        if not isinstance(self.rank, Rank):
            object.__setattr__(self, "rank", _member(Rank, self.rank, "rank", "2 to 14"))
        if not isinstance(self.suit, Suit):
            object.__setattr__(self, "suit", _member(Suit, self.suit, "suit", "S, H, D, C"))

    def __str__(self) -> str:
        return self.rank.token + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def token(self) -> str:
        """The canonical token, same as ``str(card)``."""
        return str(self)

    @property
    def label(self) -> str:
        """Short display form: ``"Q♠"``, ``"10♦"``."""
        return self.rank.token + self.suit.symbol

    @property
    def name(self) -> str:
        """Accessible name: ``"queen of spades"``, ``"ten of diamonds"``."""
        return f"{self.rank.noun} of {self.suit.noun}"

    @property
    def is_face(self) -> bool:
        return self.rank.is_face

    @property
    def sort_key(self) -> tuple[int, int]:
        """Order for showing a hand: by suit (♠ ♥ ♦ ♣), then rank (low to high)."""
        return (_SUIT_ORDER[self.suit], int(self.rank))

    @classmethod
    def parse(cls, token: object) -> Card:
        """Same as :func:`parse_card`."""
        return parse_card(token)


_SUIT_ORDER = {suit: index for index, suit in enumerate(Suit)}


def _member(enum: type[Enum], value: Any, what: str, choices: str) -> Any:
    """``enum(value)``, or a :class:`CardError` that shows ``value`` briefly (the enum's
    own refusal writes out its whole ``repr``: issue 30)."""
    try:
        known = value in enum._value2member_map_
    except TypeError:  # unhashable
        known = False
    if not known:
        raise CardError(f"Not a {what}: {_quote(value)} ({what}s are {choices})")
    return enum(value)


_quote = shown  # a bad value in a message: short, whatever it is (engine.text.shown)


def parse_card(token: object) -> Card:
    """One card from a token such as ``"AS"``, ``"10d"``, ``"Th"`` or ``"Q♠"``.

    Raises :class:`CardError` with a message a player understands.
    """
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise CardError(f"Not a card: {_quote(token)} ({_CARD_HELP})")
    text = token.strip()
    for selector in _VARIATION_SELECTORS:
        text = text.replace(selector, "")
    upper = text.upper()
    if len(upper) >= 2:
        suit = _SUIT_BY_CHAR.get(upper[-1])
        rank = _TOKEN_RANKS.get(upper[:-1])
        if suit is not None and rank is not None:
            return Card(rank, suit)
    raise CardError(f"Not a card: {_quote(token.strip())} ({_CARD_HELP})")


_SEPARATORS = re.compile(r"[\s,]+")


def parse_cards(text: object) -> list[Card]:
    """Cards from text such as ``"AS KH 10D, 9c Td"`` (whitespace and/or commas).

    Empty text gives ``[]``. Raises :class:`CardError` naming the first bad token.
    """
    if not isinstance(text, str):
        raise CardError(f"Not a list of cards: {_quote(text)} (type cards like AS KH 10D)")
    return [parse_card(token) for token in _SEPARATORS.split(text) if token]


def clean_cards(cards: object, *, unique: bool = True, what: str = "cards") -> tuple[Card, ...]:
    """Cards from whatever a caller gives: :class:`Card` objects or tokens alike, in
    a list, a tuple, any iterable, or one text (``"AS KH 10D"``).

    With ``unique`` (the default: one deck) a card given twice is refused. Raises
    :class:`CardError` with a message a player understands.
    """
    if isinstance(cards, str):
        found = tuple(parse_cards(cards))
    elif isinstance(cards, Card):
        found = (cards,)
    else:
        try:
            items = list(itertools.islice(cards, MAX_CARDS + 1))  # type: ignore[call-overload]  # any iterable; TypeError caught
        except TypeError:
            raise CardError(f"Not a list of {what}: {_quote(cards)} (give cards like AS KH 10D)") from None
        if len(items) > MAX_CARDS:  # never read to the end (it may have no end: issue 30)
            raise CardError(f"Too many {what}: more than {MAX_CARDS:,} cards")
        found = tuple(parse_card(item) for item in items)
    if unique:
        seen: set[Card] = set()
        for card in found:
            if card in seen:
                raise CardError(f"The {card.label} is given twice (one deck has one of each card)")
            seen.add(card)
    return found


#: The most cards any list given to :func:`clean_cards` may hold (ten decks).
MAX_CARDS = 520

_FULL_DECK = tuple(Card(rank, suit) for suit in Suit for rank in Rank)


def full_deck() -> tuple[Card, ...]:
    """The 52 cards in a fixed order: spades, hearts, diamonds, clubs; two to ace."""
    return _FULL_DECK


def shuffled_deck(rng: random.Random) -> list[Card]:
    """A new shuffled 52-card deck; the only randomness is ``rng``."""
    if not isinstance(rng, random.Random):
        raise CardError(f"A deck is shuffled with a random.Random (got {type(rng).__name__})")
    deck = list(_FULL_DECK)
    rng.shuffle(deck)
    return deck
