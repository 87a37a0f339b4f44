"""Playing cards drawn with CSS: large, legible at arm's length, named for screen readers."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Callable

from engine.cards import Card, Suit, full_deck
from web.dom import button, h

SUIT_CLASS = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds", Suit.CLUBS: "clubs"}


def face(card: Card) -> list:
    """The inside of a card: corner index and a big centre pip (or the face letter)."""
    centre = card.suit.symbol if not card.is_face else card.rank.token
    return [
        h("span", {"class": "card-corner", "aria-hidden": "true"},
          h("span", {"class": "card-rank"}, card.rank.token), h("span", {"class": "card-suit"}, card.suit.symbol)),
        h("span", {"class": ["card-centre", card.is_face and "face-letter"], "aria-hidden": "true"}, centre),
        h("span", {"class": "card-corner bottom", "aria-hidden": "true"},
          h("span", {"class": "card-rank"}, card.rank.token), h("span", {"class": "card-suit"}, card.suit.symbol)),
    ]


def card_classes(card: Card, size: str, *extra) -> list:
    return ["card", SUIT_CLASS[card.suit], "red" if card.suit.is_red else "black", size, *extra]


def card_view(card: Card, size: str = "", *extra, label: str | None = None):
    """A card that is only shown (an image with the card's name)."""
    return h("div", {"class": card_classes(card, size, *extra), "role": "img",
                     "aria-label": label or card.name, "data-card": str(card)}, face(card))


def card_button(card: Card, action: str, arg: str, *extra, size: str = "", label: str | None = None,
                pressed: bool | None = None, **attrs: Any):
    """A card that can be tapped; its accessible name is ``label`` (default: the card's name).

    The name is hidden text inside the button rather than ``aria-label``, so what a
    screen reader says and what the button shows never disagree.
    """
    return button([h("span", {"class": "visually-hidden"}, label or card.name), face(card)], action, arg,
                  cls=card_classes(card, size, *extra), data_card=str(card),
                  aria_pressed=None if pressed is None else ("true" if pressed else "false"), **attrs)


def card_back(size: str = "", label: str = "face-down card"):
    return h("div", {"class": ["card", "back", size], "role": "img", "aria-label": label})


def suit_mark(suit: Suit) -> object:
    return h("span", {"class": ["suit-mark", SUIT_CLASS[suit], "red" if suit.is_red else "black"],
                      "aria-hidden": "true"}, suit.symbol)



def poker_order(card: Card) -> tuple[int, int]:
    """Suit by suit (♠ ♥ ♦ ♣), two to ace."""
    return card.sort_key


def card_picker(action: str, states: Callable[[Card], Iterable[str]], *, labels: Callable[[Card], str] | None = None,
                heads: Callable[[Suit], Any] | None = None, order: Callable[[Card], Any] = poker_order,
                suits: Iterable[Suit] = tuple(Suit), size: str = "pick", grid: str = "cards"):
    """The 52-card picker every table that takes real cards shares: one row per suit,
    each card a button for ``action`` with its token as argument.

    ``states(card)`` gives each tile's classes (``"playable"``, ``"blocked"``,
    ``"played"`` (struck, already dealt or played) …); ``labels`` its accessible name;
    ``heads(suit)`` what stands before a row. The arrow keys move between the cards
    (``data-grid`` / ``data-cell``, handled by the app): left and right along a suit,
    up and down to the same rank of the next suit.
    """
    rows = []
    for r, suit in enumerate(suits):
        cards = sorted((c for c in full_deck() if c.suit == suit), key=order)
        tiles = [card_button(c, action, str(c), *states(c), size=size,
                             label=labels(c) if labels is not None else None, data_cell=f"{r},{col}")
                 for col, c in enumerate(cards)]
        rows.append(h("div", {"class": "picker-row", "data-key": suit.letter},
                      heads(suit) if heads is not None else h("div", {"class": "suit-head"}, suit_mark(suit)),
                      h("div", {"class": "picker-cards"}, tiles)))
    return h("div", {"class": "picker-grid", "data-grid": grid}, rows)
