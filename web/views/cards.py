"""Playing cards drawn with CSS: large, legible at arm's length, named for screen readers."""

from __future__ import annotations

from engine.cards import Card, Suit
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
                pressed: bool | None = None):
    """A card that can be tapped; its accessible name is ``label`` (default: the card's name).

    The name is hidden text inside the button rather than ``aria-label``, so what a
    screen reader says and what the button shows never disagree.
    """
    return button([h("span", {"class": "visually-hidden"}, label or card.name), face(card)], action, arg,
                  cls=card_classes(card, size, *extra), data_card=str(card),
                  aria_pressed=None if pressed is None else ("true" if pressed else "false"))


def card_back(size: str = "", label: str = "face-down card"):
    return h("div", {"class": ["card", "back", size], "role": "img", "aria-label": label})


def suit_mark(suit: Suit) -> object:
    return h("span", {"class": ["suit-mark", SUIT_CLASS[suit], "red" if suit.is_red else "black"],
                      "aria-hidden": "true"}, suit.symbol)

