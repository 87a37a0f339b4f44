"""Organizations In Conflict: the pure rule functions, each docstring starting with its
RULES.md id (OIC-2 … OIC-6, OIC-10 … OIC-14, OIC-16 … OIC-19).

On values: :func:`max_card_size`, :func:`is_usable`, :func:`card_value`,
:func:`trumps`, :func:`trumped_by`, :func:`can_follow`, :func:`why_not_follow`,
:func:`can_engage`, :func:`in_world_time`, :func:`hand_size`, :func:`explain_max_size`
(cards as :class:`~engine.cards.Card` or tokens such as "9h", suits as
:class:`~engine.cards.Suit` or letters); on a table (:class:`ConflictState`): the
ratings (:func:`side_ratings`, :func:`player_ratings`, :func:`player_max_sizes`,
:func:`max_size_reason`, :func:`best_organization`, :func:`engageable_suits`) and what
calling the conflict would record (OIC-19: :func:`call_totals`, :func:`side_ahead`,
:func:`call_sum`, :func:`call_preview`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..cards import Card, CardError, Rank, Suit, parse_card
from ..rules import SettingsError, resolve_rules
from ..text import plural
from .values import (
    CAMPAIGN_SEASON,
    VARIANTS,
    ArgumentError,
    ConflictState,
    Organization,
    Scope,
    Side,
    checked_player,
    checked_side,
    checked_state,
    is_whole,
    num,
    quote,
    setting,
    whole,
)

#: OIC-12 (variant): the trump circles.
_TRUMP_CIRCLES: dict[str, dict[Suit, Suit]] = {
    # suit → the suit it trumps
    "cards": {Suit.SPADES: Suit.CLUBS, Suit.CLUBS: Suit.DIAMONDS,
              Suit.DIAMONDS: Suit.HEARTS, Suit.HEARTS: Suit.SPADES},
    "introduction": {Suit.SPADES: Suit.CLUBS, Suit.CLUBS: Suit.HEARTS,
                     Suit.HEARTS: Suit.DIAMONDS, Suit.DIAMONDS: Suit.SPADES},
}


def _article(noun: str) -> str:
    """"an" before a vowel sound ("an ace", "an eight"), else "a"."""
    return "an" if noun[:1].lower() in "aeio" else "a"


# ---------------------------------------------------------------------------
# Arguments of the rule functions (issue 20: a clear refusal, never a TypeError)


def _card(value: Any, what: str = "the card") -> Card:
    """A card from a :class:`Card` or a token ("9h" → 9♥); :class:`CardError` otherwise."""
    try:
        return parse_card(value)
    except CardError as err:
        raise CardError(f"{what[:1].upper() + what[1:]}: {err}") from None


def _card_or_none(value: Any, what: str) -> Card | None:
    return None if value is None else _card(value, what)


def _suit(value: Any) -> Suit:
    """A suit from a :class:`Suit`, a letter, symbol or noun ("S", "♠", "spades")."""
    return Suit.parse(value)


def _rules(rules: Any) -> Mapping[str, Any] | None:
    """Rules settings for a helper: ``None`` (the defaults) or a mapping of known choices."""
    if rules is None:
        return None
    if not isinstance(rules, Mapping):
        raise SettingsError(f"The rules settings must be an object of {{setting: choice}} (got {quote(rules)})")
    return resolve_rules(VARIANTS, rules)


def _text_or_none(value: Any, what: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ArgumentError(f"{what[:1].upper() + what[1:]} must be text or nothing (got {quote(value)})")
    return value


# ---------------------------------------------------------------------------
# Pure rule functions


def max_size_of(power: int, scope: Scope) -> int:
    """:func:`max_card_size` of arguments already checked (the referee's and the app's loops)."""
    size = power - scope.offset
    if not (scope is Scope.HOME or power > scope.engage_threshold):
        return min(size, 0)
    return size


def max_card_size(power: int, scope: Scope | str) -> int:
    """OIC-3/OIC-5: max card size in a suit = rating − the offset of the side's scope.

    OIC-18 (ruling): beyond home ground an organization at or below the scope's
    threshold has no influence there, so its suit plays face cards only: the size is
    then at most 0 (``max_card_size(11, "regional")`` is 0, not 1). ``power`` is a
    whole number, 0 or more (OIC-16: ratings never go below 0).
    """
    return max_size_of(whole(power, "the power", 0), Scope.parse(scope))


def usable(card: Card, max_size: int) -> bool:
    """:func:`is_usable` of arguments already checked."""
    return card.rank.is_face or _value(card) <= max_size


def is_usable(card: Card | str, max_size: int) -> bool:
    """OIC-5/OIC-6: face cards always; number cards (ace = 1) only up to *max_size*.

    *max_size* may be 0 or below (then only face cards are usable).
    """
    return usable(_card(card), whole(max_size, "the max card size"))


_FACE_VALUES = {Rank.ACE: 1, Rank.JACK: 1, Rank.QUEEN: 2, Rank.KING: 3}


def _value(card: Card) -> int:
    return _FACE_VALUES.get(card.rank) or int(card.rank)


def card_value(card: Card | str) -> int:
    """OIC-11: the value of *card*: pips (ace 1, OIC-6), jack 1, queen 2, king 3."""
    return _value(_card(card))


def _trumps(suit: Suit, rules: Mapping[str, Any] | None) -> Suit:
    circle = setting(rules, "trump_circle")
    try:
        return _TRUMP_CIRCLES[circle][suit]
    except (KeyError, TypeError):
        raise SettingsError(f"OIC-12: unknown trump circle {quote(circle)}") from None


def _trumped_by(suit: Suit, rules: Mapping[str, Any] | None) -> Suit:
    for other in Suit:
        if _trumps(other, rules) == suit:
            return other
    raise AssertionError("a trump circle covers every suit")  # pragma: no cover


def trumps(suit: Suit | str, rules: Mapping[str, Any] | None = None) -> Suit:
    """OIC-12: the suit that *suit* trumps in the group's trump circle."""
    return _trumps(_suit(suit), _rules(rules))


def trumped_by(suit: Suit | str, rules: Mapping[str, Any] | None = None) -> Suit:
    """OIC-12: the suit that trumps *suit*."""
    return _trumped_by(_suit(suit), _rules(rules))


def follow_problem(card: Card, current: Card | None,
                   rules: Mapping[str, Any] | None) -> tuple[str, str] | None:
    if current is None:
        return None
    if card.suit == current.suit:
        if card.rank.is_face:
            if (current.rank.is_face and setting(rules, "face_on_face") == "higher"
                    and card.rank <= current.rank):
                return ("OIC-13", f"the {card.label} is not higher than the {current.label} "
                                  "(variant: a face card on a face card of its suit must be higher, "
                                  "J < Q < K)")
            return None
        if _value(card) > _value(current):
            return None
        mine = " (an ace counts 1)" if card.rank == Rank.ACE else ""
        theirs = (f" ({_article(current.rank.noun)} {current.rank.noun} counts {_value(current)})"
                  if current.rank.is_face or current.rank == Rank.ACE else "")
        return ("OIC-11", f"the {card.label}{mine} neither beats the {current.label}{theirs} "
                          "nor trumps it")
    if _trumps(card.suit, rules) == current.suit:
        return None
    return ("OIC-11", f"the {card.label} neither beats the {current.label} nor trumps it "
                      f"(only {_trumped_by(current.suit, rules).noun} trump {current.suit.noun})")


def can_follow(card: Card | str, current: Card | str | None, rules: Mapping[str, Any] | None = None) -> bool:
    """OIC-11: may *card* follow *current*? (OIC-12 trumps, OIC-13 face on face.)

    Same suit and higher value; or a face card of the same suit; or any card of
    the suit that trumps the current one. ``current=None`` (no card yet) allows
    any card. Usability (OIC-5) and the first card's suit (OIC-10) are separate.
    """
    return follow_problem(_card(card), _card_or_none(current, "the current card"), _rules(rules)) is None


def why_not_follow(card: Card | str, current: Card | str | None,
                   rules: Mapping[str, Any] | None = None) -> str | None:
    """OIC-11: why *card* may not follow *current*, for a player; ``None`` if it may."""
    problem = follow_problem(_card(card), _card_or_none(current, "the current card"), _rules(rules))
    return None if problem is None else f"{problem[0]}: {problem[1]}"


def can_engage(rating: int, scope: Scope | str) -> bool:
    """OIC-3/OIC-4: can a suit with this rating be engaged at *scope*? (rating above threshold)"""
    return whole(rating, "the rating", 0) > Scope.parse(scope).engage_threshold


def in_world_time(scope: Scope | str, rounds: int) -> str:
    """OIC-3/OIC-17: how much in-world time *rounds* rounds take at *scope*.

    War rounds are months, but only four can be fought a year (the campaign season).
    """
    scope = Scope.parse(scope)
    rounds = whole(rounds, "the number of rounds", 0)
    if scope is Scope.WAR and rounds > 0:
        seasons = math.ceil(rounds / CAMPAIGN_SEASON)
        return f"{plural(seasons, 'campaign season')} ({plural(rounds, 'month')} of fighting)"
    return plural(rounds, scope.unit)


_HAND_SIZES = {1: 15, 2: 8, 3: 7, 4: 6, 5: 5, 6: 4, 7: 3, 8: 2}


def hand_size(players_on_side: int) -> int:
    """OIC-14: cards per player for a side of 1–8 players (1→15, 2→8, … 8→2)."""
    if not is_whole(players_on_side) or players_on_side not in _HAND_SIZES:
        raise ArgumentError(f"OIC-14: a side has 1 to 8 players (got {quote(players_on_side)})")
    return _HAND_SIZES[players_on_side]


def explain_max_size(rating: int | None, scope: Scope | str, suit: Suit | str,
                     organization: str | None = None) -> str:
    """OIC-5: the sum behind a max card size, e.g. "spades 14 − 5 at home ground = 9".

    OIC-18: where the best organization has no influence at the side's scope (and the
    plain sum alone would have allowed number cards), says so instead ("clubs: fire
    department (11) has no influence beyond home ground …"). ``rating`` ``None``: the
    side (or player) has no organization of the suit.
    """
    scope = Scope.parse(scope)
    suit = _suit(suit)
    organization = _text_or_none(organization, "the organization")
    if rating is None:
        return f"no organization in {suit.noun}: face cards only"
    rating = whole(rating, "the rating", 0)
    if not scope.has_influence(rating) and rating - scope.offset >= 1:
        who = f"{organization} ({rating})" if organization else f"an organization of power {rating}"
        return (f"{suit.noun}: {who} has no influence {scope.beyond} (OIC-18, ruling: power must be "
                f"above {scope.engage_threshold}): face cards only")
    size = max_size_of(rating, scope)
    text = f"{suit.noun} {rating} − {scope.offset} {scope.phrase} = {num(size)}"
    if size < 1:
        text += ": face cards only"
    return text


# ---------------------------------------------------------------------------
# A side's ratings (OIC-2, OIC-16; HR-OIC-2)


def best_place(side: Side, suit: Suit, player: int | None = None) -> tuple[int, int] | None:
    """OIC-2/OIC-16: (player, org index) of the best organization of *suit*; HR-OIC-2: first listed wins ties."""
    best: tuple[int, int] | None = None
    best_power = -1
    for p, pl in enumerate(side.players):
        if player is not None and p != player:
            continue
        for o, org in enumerate(pl.organizations):
            if org.suit == suit and org.power > best_power:
                best, best_power = (p, o), org.power
    return best


def rating_of(side: Side, suit: Suit, player: int | None = None) -> int | None:
    """OIC-2/OIC-14: the side's (or its player's) rating in *suit*; ``None`` without an organization of it."""
    found = best_place(side, suit, player)
    if found is None:
        return None
    return side.players[found[0]].organizations[found[1]].power


def side_engageable(side: Side, scope: Scope) -> list[Suit]:
    """OIC-3/OIC-4: the suits in which *side* can be engaged at *scope* (rating above its threshold)."""
    threshold = scope.engage_threshold
    return [suit for suit in Suit if (rating_of(side, suit) or 0) > threshold]


# ---------------------------------------------------------------------------
# Ratings of a table, for the UI


def side_ratings(state: ConflictState, side: int) -> dict[Suit, int]:
    """OIC-2: the side's rating per suit — its best organization over all players (0 if none)."""
    s = checked_side(checked_state(state), side)
    return {suit: rating_of(s, suit) or 0 for suit in Suit}


def player_ratings(state: ConflictState, side: int, player: int) -> dict[Suit, int]:
    """OIC-14: a player's own rating per suit (0 where the player has no organization)."""
    checked_player(checked_state(state), side, player)
    s = state.sides[side]
    return {suit: rating_of(s, suit, player) or 0 for suit in Suit}


def player_max_sizes(state: ConflictState, side: int, player: int) -> dict[Suit, int]:
    """OIC-5/OIC-14: a player's max card size per suit (from the side's own scope)."""
    ratings = player_ratings(state, side, player)
    scope = state.sides[side].scope
    return {suit: max_size_of(rating, scope) for suit, rating in ratings.items()}


def max_size_reason(state: ConflictState, side: int, player: int, suit: Suit | str) -> str:
    """OIC-5: the sum behind a player's max card size, e.g. "spades 14 − 5 at home ground = 9"."""
    checked_player(checked_state(state), side, player)
    suit = _suit(suit)
    s = state.sides[side]
    best = best_place(s, suit, player)
    name = None if best is None else s.players[best[0]].organizations[best[1]].name
    return explain_max_size(rating_of(s, suit, player), s.scope, suit, name)


def best_organization(state: ConflictState, side: int, suit: Suit | str,
                      player: int | None = None) -> Organization | None:
    """OIC-16: the organization whose power is the side's (or player's) rating in *suit*."""
    s = checked_side(checked_state(state), side)
    suit = _suit(suit)
    if player is not None:
        checked_player(state, side, player)
    found = best_place(s, suit, player)
    return None if found is None else s.players[found[0]].organizations[found[1]]


def engageable_suits(state: ConflictState, side: int) -> list[Suit]:
    """OIC-3/OIC-4/OIC-10: the suits in which *side* can be engaged at the conflict's scope."""
    return side_engageable(checked_side(checked_state(state), side), state.scope)


# ---------------------------------------------------------------------------
# OIC-19: calling a conflict


def call_totals(state: ConflictState) -> tuple[int, int]:
    """OIC-19 (ruling): each side's total of ratings above the engagement threshold at
    the conflict's scope (OIC-3, OIC-4: above 5 at home ground, 15 regional …), over
    the four suits — how far each side is from being out of the conflict (OIC-17)."""
    state = checked_state(state)
    threshold = state.scope.engage_threshold

    def total(side: Side) -> int:
        return sum(max(0, (rating_of(side, suit) or 0) - threshold) for suit in Suit)

    return total(state.sides[0]), total(state.sides[1])


def side_ahead(state: ConflictState) -> int | None:
    """OIC-19: the side with the larger :func:`call_totals`; ``None`` for a standoff."""
    a, b = call_totals(state)
    return None if a == b else (0 if a > b else 1)


def call_sum(state: ConflictState, side: int) -> str:
    """OIC-19: a side's total as a sum a player can check: "♠ 9 + ♥ 8 + ♦ 7 + ♣ 6 = 30"."""
    s = checked_side(checked_state(state), side)
    threshold = state.scope.engage_threshold
    parts = [(suit, (rating_of(s, suit) or 0) - threshold) for suit in Suit]
    shown = [f"{suit.symbol} {points}" for suit, points in parts if points > 0]
    total = sum(points for _, points in parts if points > 0)
    if not shown:
        return f"0 (no rating above {threshold})"
    return f"{' + '.join(shown)} = {total}" if len(shown) > 1 else f"{shown[0]}"


def threshold_words(state: ConflictState) -> str:
    """OIC-19: the engagement threshold of the conflict's scope, as the messages say it."""
    return f"the engagement threshold ({state.scope.engage_threshold} {state.scope.phrase})"


def call_preview(state: ConflictState) -> str:
    """OIC-19: what ending the conflict now would record, in one sentence."""
    state = checked_state(state)
    totals = call_totals(state)
    ahead = side_ahead(state)
    names = [side.name for side in state.sides]
    if ahead is None:
        return (f"OIC-19: ended now, it is a standoff — both sides stand {totals[0]} rating points above "
                f"{threshold_words(state)}.")
    return (f"OIC-19: ended now, {names[ahead]} is ahead, {totals[ahead]} to {totals[1 - ahead]} in rating "
            f"points above {threshold_words(state)}, and wins the conflict.")
