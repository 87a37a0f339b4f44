"""Organizations In Conflict (RULES.md section 1, clauses OIC-1 … OIC-19).

Two sides — alliances of organizations run by 1–8 players each — fight a
conflict at one scope (home ground … superconflict) with playing cards. Each
organization has a power, a suit and a location; a side's rating in a suit is
the power of its best organization of that suit, and its *max card size* in the
suit is that rating minus the offset of the side's own scope. The aggressor
opens with a card in a suit where the defender can be engaged; the sides then
alternate, each card beating the current one (higher in suit, a face card of the
suit, or any card of the trumping suit). The side that cannot (or will not) play
passes and loses the round; the ratings change by one; the loser opens the next
round; the conflict ends when a side can no longer be engaged in any suit, or
when the table calls it between rounds (OIC-19).

The module has three layers:

* pure rule functions on values (:func:`max_card_size`, :func:`is_usable`,
  :func:`card_value`, :func:`trumps`, :func:`can_follow`, :func:`why_not_follow`,
  :func:`can_engage`, :func:`in_world_time`, :func:`hand_size`) — each docstring
  starts with its RULES.md id; cards may be given as :class:`~engine.cards.Card`
  or as tokens ("9h"), suits as :class:`~engine.cards.Suit` or letters;
* the session protocol of :mod:`engine.game` (``KIND``, ``VARIANTS``,
  :func:`normalize_setup`, :func:`start`, :func:`normalize_action`, :func:`step`,
  :func:`describe`, :func:`public_game`, :func:`upgrade`, :func:`standing`,
  :func:`undo_warning`) over an immutable :class:`ConflictState`;
* helpers for the table UI (:func:`legal_plays`, :func:`check_play`,
  :func:`side_ratings`, :func:`player_ratings`, :func:`player_max_sizes`,
  :func:`max_size_reason`, :func:`setup_warnings`, :func:`status`,
  :func:`call_totals`, :func:`call_preview` …).

Every public function refuses a bad argument with a ``ValueError`` subclass
(:class:`ArgumentError`, :class:`~engine.cards.CardError`, :class:`SetupError`,
:class:`~engine.game.ActionError`, :class:`~engine.game.RuleError` …) whose message
says what was wrong; never another kind of exception.

Deck modes (setup ``"deck"``): ``"app"`` — the app shuffles, deals, and holds the
hands; ``"table"`` — the players use real cards and enter each card played (no
hands, no discard phase; a side cannot play the same card twice in one round).

Actions (plain JSON objects; :func:`normalize_action` gives each its one canonical
form, and :func:`step` refuses whatever it refuses):

* ``{"type": "discard", "side": s, "player": p, "cards": ["2H", "3C"]}`` — app
  mode, discard phase (OIC-8); ``cards`` may be empty (keep all); tokens in any
  case, or one text ``"2h 3c"``; stored as upper-case tokens in the order given;
* ``{"type": "play", "side": s, "player": p, "card": "9S"}`` — the side whose turn
  it is plays one card of its player ``p`` (``side`` may be left out: it is the side
  to play; a side out of turn is refused, OIC-11);
* ``{"type": "pass", "side": s}`` — the side to play passes: the round ends (OIC-13,
  OIC-15); ``side`` as for a play;
* ``{"type": "next_round"}`` — after a round: fresh shuffle and hands (OIC-9,
  OIC-17);
* ``{"type": "call"}`` — between rounds, the table ends the conflict here (OIC-19):
  the side ahead (:func:`call_totals`) wins, or it is a standoff.

A discard, play or pass of a side the app plays may carry ``"why"``: one line of
text, the app's own explanation of its move (solo, :mod:`engine.solo`). It changes
nothing in the rules; :func:`describe` shows it, :func:`public_game` drops it; a move
of a side people play carries none.
A side of the setup may say who plays it: ``"controller": "app"`` with a ``"level"``
(``"easy"``, ``"normal"``, ``"hard"``) — app deck only; people are the default and
are left out of the canonical setup.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, replace
from enum import Enum
from types import MappingProxyType
from collections.abc import Iterable, Mapping
from typing import Any

from .cards import Card, CardError, Rank, Suit, clean_cards, full_deck, parse_card, shuffled_deck
from .game import ActionError, Game, RuleError
from . import referee
from .text import key_text, setup_text, shown
from .rules import SettingsError, Variant, resolve_rules

__all__ = [
    "equipment",
    "KIND", "VARIANTS", "HOUSE_RULES", "RULINGS", "SCENARIO_CHOICES", "SetupError", "ArgumentError", "Scope",
    "Organization", "Player", "Side", "Play", "RoundResult", "ConflictState",
    "max_card_size", "is_usable", "card_value", "trumps", "trumped_by", "can_follow",
    "why_not_follow", "can_engage", "in_world_time", "hand_size",
    "normalize_setup", "setup_sides", "setup_warnings", "purple_dragon_setup",
    "start", "normalize_action", "step", "describe", "public_game", "status", "upgrade",
    "standing",
    "undo_warning", "call_totals", "side_ahead", "call_preview", "ACTION_TYPES", "UPGRADE_NOTES",
    "legal_plays", "check_play", "side_ratings", "player_ratings", "player_max_sizes",
    "max_size_reason", "explain_max_size", "best_organization", "engageable_suits",
    "CONTROLLERS", "APP_LEVELS", "WHY_MAX",
]

KIND = "conflict"

#: What a spectator link (:func:`public_game`) shows, in the Share drawer's words.
SPECTATOR_VIEW = "the cards played, the ratings and the history. No hands, no discards, no deck order and no seed."


class SetupError(ValueError):
    """A conflict setup that cannot be played (message names the field)."""


class ArgumentError(ValueError):
    """A helper of this module given something it cannot use (a state that is not a
    conflict's, a power that is not a whole number …); the message says what."""


# ---------------------------------------------------------------------------
# Scopes (OIC-3, OIC-4)


class Scope(Enum):
    """OIC-3: where a side reaches / where the conflict is fought.

    Each scope carries the OIC-3 table row:

    * ``offset`` — max card size = power − offset;
    * ``engage_threshold`` — a suit can be engaged only while its rating is above
      this (OIC-4 ruling: 5 at home ground, so that its max card size is at least 1);
    * ``round_length`` — the in-world length of one round ("a day" … "a decade"),
      ``unit`` the same as a noun ("day" …);
    * ``label`` for display ("Home ground" …) and ``phrase`` for sentences
      ("at home ground", "in a world war" …);
    * ``beyond`` — where a weak organization has no influence (OIC-18: "beyond home
      ground" …; empty at home ground).
    """

    HOME = ("home", 5, 5, "a day", "Home ground", "day", "at home ground", "")
    REGIONAL = ("regional", 10, 15, "a week", "Regional", "week", "at regional scope", "beyond home ground")
    WAR = ("war", 15, 20, "a month", "War", "month", "at war", "beyond its region")
    WORLD_WAR = ("world war", 20, 25, "a year", "World war", "year", "in a world war", "on the world level")
    SUPERCONFLICT = ("superconflict", 25, 30, "a decade", "Superconflict", "decade", "in a superconflict",
                     "in a superconflict")

    def __new__(cls, value: str, offset: int, engage_threshold: int, round_length: str,
                label: str, unit: str, phrase: str, beyond: str) -> Scope:
        scope = object.__new__(cls)
        scope._value_ = value
        scope.offset, scope.engage_threshold, scope.round_length = offset, engage_threshold, round_length
        scope.label, scope.unit, scope.phrase, scope.beyond = label, unit, phrase, beyond
        return scope

    def has_influence(self, power: int) -> bool:
        """OIC-18 (ruling): does an organization of *power* have influence at this scope?

        At home ground always; beyond it only above the scope's threshold (regional 15,
        war 20, world war 25, superconflict 30).
        """
        power = _whole(power, "the power", 0)
        return self is Scope.HOME or power > self.engage_threshold

    @property
    def level(self) -> int:
        """0 (home ground) … 4 (superconflict)."""
        return list(Scope).index(self)

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, value: object) -> Scope:
        """A scope from its value or label ("home", "Home ground", "world_war" …)."""
        if isinstance(value, Scope):
            return value
        if isinstance(value, str):
            key = re.sub(r"[\s_\-]+", " ", value.strip().lower())
            if key == "home ground":
                key = "home"
            if key == "worldwar":
                key = "world war"
            for scope in cls:
                if key == scope.value or key == scope.label.lower():
                    return scope
        raise ArgumentError(
            f"Unknown scope: {_quote(value)} (scopes are home, regional, war, world war, superconflict)"
        )


#: War: only four rounds a year can be played — the campaign season (OIC-3).
CAMPAIGN_SEASON = 4

# ---------------------------------------------------------------------------
# Settings: variants, rulings, house rules

VARIANTS: tuple[Variant, ...] = (
    Variant(
        key="trump_circle",
        rule_id="OIC-12",
        label="Trump circle",
        choices=(
            ("cards", "Spades trump clubs, clubs trump diamonds, diamonds trump hearts, "
                      "hearts trump spades (the source's “Playing Cards” section)"),
            ("introduction", "Spades trump clubs, clubs trump hearts, hearts trump diamonds, "
                             "diamonds trump spades (the source's introduction)"),
        ),
        default="cards",
        explanation="The source gives two different trump circles. The default follows the "
                    "“Playing Cards” section, which agrees with the suit descriptions.",
    ),
    Variant(
        key="face_on_face",
        rule_id="OIC-13",
        label="Face card on a face card",
        choices=(
            ("any", "Any face card may be played on a card of its suit, another face card included"),
            ("higher", "A face card played on a face card of its suit must be higher (J < Q < K)"),
        ),
        default="any",
        explanation="Face cards are mini-trumps in their suit. Read literally, any face card beats "
                    "any card of its suit, even a higher face card; the variant asks for a higher one.",
    ),
    Variant(
        key="deck",
        rule_id="OIC-9",
        label="Decks",
        choices=(
            ("per-side", "Each side draws from its own shuffled deck"),
            ("shared", "Both sides draw from one shared deck; when it runs out, the discards are "
                       "shuffled into a new draw pile"),
        ),
        default="per-side",
        explanation="Two sides of up to 25 cards plus refills do not fit in one deck, so by "
                    "default each side has its own. Every round starts with a fresh shuffle.",
    ),
)

#: House rules of this app that are not in RULES.md (id → text). Shown with a marker.
HOUSE_RULES: Mapping[str, str] = MappingProxyType({
    "HR-OIC-1": "If the aggressor passes before any card is played, the defender wins the round "
                "and nothing is at stake: no rating changes. The aggressor opens the next round.",
    "HR-OIC-2": "When two organizations of the suit are equally powerful, the rating change goes to "
                "the one listed first on the side (the first player's before the second's).",
    "HR-OIC-3": "With one shared deck (OIC-9 variant), a player's own discards never come back in the "
                "same refill; if the draw pile and the earlier discards cannot cover a refill, the "
                "player's hand stays short for that round.",
})

#: OIC-7: what the worked example does not give, and what the app chose for it.
SCENARIO_CHOICES: tuple[str, ...] = (
    "The source gives the Zombie invasion's max card sizes (spades 9, clubs 6, diamonds 7, "
    "hearts 8), not its powers: at home ground power = size + 5, so 14, 11, 12 and 13.",
    "The source gives no locations: the app uses “the block” for the League and “the old "
    "cemetery” for the zombies.",
    "The source does not say who opens: the zombies invade, so the app makes them the aggressor "
    "of round 1.",
)

#: RULES.md clauses that are rulings (the app's reading where the source is silent).
RULINGS: tuple[str, ...] = ("OIC-4", "OIC-6", "OIC-9", "OIC-13", "OIC-16", "OIC-18", "OIC-19")

_DEFAULTS = {v.key: v.default for v in VARIANTS}

_TRUMP_CIRCLES: dict[str, dict[Suit, Suit]] = {
    # suit → the suit it trumps
    "cards": {Suit.SPADES: Suit.CLUBS, Suit.CLUBS: Suit.DIAMONDS,
              Suit.DIAMONDS: Suit.HEARTS, Suit.HEARTS: Suit.SPADES},
    "introduction": {Suit.SPADES: Suit.CLUBS, Suit.CLUBS: Suit.HEARTS,
                     Suit.HEARTS: Suit.DIAMONDS, Suit.DIAMONDS: Suit.SPADES},
}


def _setting(rules: Mapping[str, Any] | None, key: str) -> Any:
    if rules is None:
        return _DEFAULTS[key]
    return rules.get(key, _DEFAULTS[key])


_quote = shown  # a bad value in a message: short, whatever it is (engine.text.shown)


def _num(value: int) -> str:
    """A number with a true minus sign."""
    return f"−{-value}" if value < 0 else str(value)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _article(noun: str) -> str:
    """"an" before a vowel sound ("an ace", "an eight"), else "a"."""
    return "an" if noun[:1].lower() in "aeio" else "a"


def _join_or(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


# ---------------------------------------------------------------------------
# Arguments: what the public functions take (issue 20: a clear refusal, never a TypeError)


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as a whole number in ``low`` … ``high`` (``True`` is not a number)."""
    if not _is_whole(value) or (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            span = f"from {low} to {high}"
        elif low is not None:
            span = f"{low} or more"
        else:
            span = "any whole number"
        raise ArgumentError(f"{what[:1].upper() + what[1:]} must be a whole number, {span} (got {_quote(value)})")
    return int(value)


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
        raise SettingsError(f"The rules settings must be an object of {{setting: choice}} (got {_quote(rules)})")
    return resolve_rules(VARIANTS, rules)


def _text_or_none(value: Any, what: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ArgumentError(f"{what[:1].upper() + what[1:]} must be text or nothing (got {_quote(value)})")
    return value


# ---------------------------------------------------------------------------
# Pure rule functions


def _max_size(power: int, scope: Scope) -> int:
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
    return _max_size(_whole(power, "the power", 0), Scope.parse(scope))


def _usable(card: Card, max_size: int) -> bool:
    return card.rank.is_face or _value(card) <= max_size


def is_usable(card: Card | str, max_size: int) -> bool:
    """OIC-5/OIC-6: face cards always; number cards (ace = 1) only up to *max_size*.

    *max_size* may be 0 or below (then only face cards are usable).
    """
    return _usable(_card(card), _whole(max_size, "the max card size"))


_FACE_VALUES = {Rank.ACE: 1, Rank.JACK: 1, Rank.QUEEN: 2, Rank.KING: 3}


def _value(card: Card) -> int:
    return _FACE_VALUES.get(card.rank) or int(card.rank)


def card_value(card: Card | str) -> int:
    """OIC-11: the value of *card*: pips (ace 1, OIC-6), jack 1, queen 2, king 3."""
    return _value(_card(card))


def _trumps(suit: Suit, rules: Mapping[str, Any] | None) -> Suit:
    circle = _setting(rules, "trump_circle")
    try:
        return _TRUMP_CIRCLES[circle][suit]
    except (KeyError, TypeError):
        raise SettingsError(f"OIC-12: unknown trump circle {_quote(circle)}") from None


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


def _follow_problem(card: Card, current: Card | None,
                    rules: Mapping[str, Any] | None) -> tuple[str, str] | None:
    if current is None:
        return None
    if card.suit == current.suit:
        if card.rank.is_face:
            if (current.rank.is_face and _setting(rules, "face_on_face") == "higher"
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
    return _follow_problem(_card(card), _card_or_none(current, "the current card"), _rules(rules)) is None


def why_not_follow(card: Card | str, current: Card | str | None,
                   rules: Mapping[str, Any] | None = None) -> str | None:
    """OIC-11: why *card* may not follow *current*, for a player; ``None`` if it may."""
    problem = _follow_problem(_card(card), _card_or_none(current, "the current card"), _rules(rules))
    return None if problem is None else f"{problem[0]}: {problem[1]}"


def can_engage(rating: int, scope: Scope | str) -> bool:
    """OIC-3/OIC-4: can a suit with this rating be engaged at *scope*? (rating above threshold)"""
    return _whole(rating, "the rating", 0) > Scope.parse(scope).engage_threshold


def in_world_time(scope: Scope | str, rounds: int) -> str:
    """OIC-3/OIC-17: how much in-world time *rounds* rounds take at *scope*.

    War rounds are months, but only four can be fought a year (the campaign season).
    """
    scope = Scope.parse(scope)
    rounds = _whole(rounds, "the number of rounds", 0)
    if scope is Scope.WAR and rounds > 0:
        seasons = math.ceil(rounds / CAMPAIGN_SEASON)
        return f"{_plural(seasons, 'campaign season')} ({_plural(rounds, 'month')} of fighting)"
    return _plural(rounds, scope.unit)


_HAND_SIZES = {1: 15, 2: 8, 3: 7, 4: 6, 5: 5, 6: 4, 7: 3, 8: 2}


def hand_size(players_on_side: int) -> int:
    """OIC-14: cards per player for a side of 1–8 players (1→15, 2→8, … 8→2)."""
    if not _is_whole(players_on_side) or players_on_side not in _HAND_SIZES:
        raise ArgumentError(f"OIC-14: a side has 1 to 8 players (got {_quote(players_on_side)})")
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
    rating = _whole(rating, "the rating", 0)
    if not scope.has_influence(rating) and rating - scope.offset >= 1:
        who = f"{organization} ({rating})" if organization else f"an organization of power {rating}"
        return (f"{suit.noun}: {who} has no influence {scope.beyond} (OIC-18, ruling: power must be "
                f"above {scope.engage_threshold}): face cards only")
    size = _max_size(rating, scope)
    text = f"{suit.noun} {rating} − {scope.offset} {scope.phrase} = {_num(size)}"
    if size < 1:
        text += ": face cards only"
    return text


# ---------------------------------------------------------------------------
# Values


@dataclass(frozen=True)
class Organization:
    """OIC-1: an organization; ``power`` is its current power."""

    name: str
    power: int
    suit: Suit
    location: str = ""


@dataclass(frozen=True)
class Player:
    """OIC-14: a player of a side and the organizations they control."""

    name: str
    organizations: tuple[Organization, ...]


@dataclass(frozen=True)
class Side:
    """OIC-2: a side (alliance, team) at its own scope (OIC-4)."""

    name: str
    scope: Scope
    players: tuple[Player, ...]

    @property
    def organizations(self) -> tuple[Organization, ...]:
        return tuple(org for player in self.players for org in player.organizations)


@dataclass(frozen=True)
class Play:
    """One card of the chain: which side, which of its players, which card."""

    side: int
    player: int
    card: Card


@dataclass(frozen=True)
class RoundResult:
    """OIC-15/16/17: how a round ended and what it changed.

    ``suit`` / ``change_side`` name the rating that was at stake (``None`` under
    HR-OIC-1); ``organization`` is ``None`` when that side has no organization of
    the suit (OIC-16); ``delta`` is the change actually applied (+1, −1 or 0).
    """

    number: int
    aggressor: int
    winner: int
    loser: int
    first_card: Card | None
    last_card: Card | None
    plays: tuple[Play, ...]
    suit: Suit | None
    change_side: int | None
    player: int | None
    organization: str | None
    power_before: int | None
    power_after: int | None
    delta: int
    explanation: str
    headline: str
    elapsed: str
    house_rule: str | None = None

    @property
    def changed(self) -> bool:
        return self.delta != 0


PHASES = ("discard", "play", "round-over", "conflict-over")


@dataclass(frozen=True)
class ConflictState:
    """The whole table at one moment. Immutable: :func:`step` returns a new one.

    * ``sides`` — both sides with the organizations' *current* powers (OIC-16);
      ``initial_sides`` as set up;
    * ``scope`` — the conflict's scope; ``deck_mode`` — ``"app"`` or ``"table"``;
    * ``rules`` — the resolved variant settings as sorted ``(key, value)`` pairs
      (``settings`` gives a dict);
    * ``round`` (from 1), ``phase`` (one of :data:`PHASES`), ``aggressor`` of the
      round, ``turn`` (side to play in phase "play", else ``None``);
    * ``hands[side][player]`` (app mode; empty tuples in table mode),
      ``discarded[side][player]`` (this round);
    * ``draw_piles`` / ``discard_piles`` — one per side, or one shared (OIC-9);
    * ``chain`` — this round's plays; ``results`` — finished rounds;
    * ``winner`` / ``end_message`` — when the conflict is over (OIC-17, OIC-19);
      ``ending`` says how: ``"out"`` (a side can no longer be engaged, OIC-17),
      ``"called"`` (the table ended it between rounds, OIC-19), ``""`` while it runs;
      ``final`` — for a called conflict, both sides' :func:`call_totals` then;
    * ``levels`` — the app's level on each side (solo), ``None`` for people;
    * ``spectator`` — a spectator's copy (:func:`public_game`): what the table could see
      (its ``deck_mode`` is ``"table"``: it replays the cards played, whatever its deck);
    * ``notes`` — what :func:`upgrade` did to a game from an earlier version
      (:data:`UPGRADE_NOTES`).
    """

    sides: tuple[Side, ...]
    initial_sides: tuple[Side, ...]
    scope: Scope
    deck_mode: str
    rules: tuple[tuple[str, Any], ...]
    round: int
    phase: str
    aggressor: int
    turn: int | None
    hands: tuple[tuple[tuple[Card, ...], ...], ...]
    discarded: tuple[tuple[bool, ...], ...]
    draw_piles: tuple[tuple[Card, ...], ...]
    discard_piles: tuple[tuple[Card, ...], ...]
    chain: tuple[Play, ...] = ()
    results: tuple[RoundResult, ...] = ()
    winner: int | None = None
    end_message: str = ""
    ending: str = ""
    final: tuple[int, int] | None = None
    levels: tuple[str | None, str | None] = (None, None)
    spectator: bool = False
    notes: tuple[str, ...] = ()

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self.rules)

    @property
    def defender(self) -> int:
        return 1 - self.aggressor

    @property
    def current_card(self) -> Card | None:
        """OIC-11: only the current (last played) card matters."""
        return self.chain[-1].card if self.chain else None

    @property
    def first_card(self) -> Card | None:
        return self.chain[0].card if self.chain else None

    @property
    def is_over(self) -> bool:
        return self.phase == "conflict-over"

    @property
    def elapsed(self) -> str:
        """OIC-17: in-world time of the finished rounds."""
        return in_world_time(self.scope, len(self.results))


# ---------------------------------------------------------------------------
# Setup

_TEXT_MAX = 60
_LOCATION_MAX = 120
_POWER_MAX = 999
_MAX_ORGS = 20


def _check_keys(value: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(key_text(k) for k in value if k not in allowed)
    if unknown:
        raise SetupError(f"{where}: unknown field {', '.join(_quote(k) for k in unknown[:4])}")


def _text(value: Any, where: str, what: str, *, max_len: int = _TEXT_MAX, required: bool = True) -> str:
    return setup_text(value, where, what, error=SetupError, max_len=max_len, required=required)


def _list(value: Any, where: str, what: str) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        raise SetupError(f"{where}: {what} must be a list")
    return list(value)


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise SetupError(f"{where} must be an object with named fields")
    return value


def _scope_field(value: Any, where: str) -> str:
    try:
        return Scope.parse(value).value
    except ValueError as err:
        raise SetupError(f"{where}: {err}") from None


def equipment(setup: Mapping[str, Any], rules: Mapping[str, Any] | None = None) -> str:
    """Whose cards (issue 18, setup ``"deck"``), in players' words."""
    if not isinstance(setup, Mapping):
        raise SetupError("The setup must be an object")
    if setup.get("deck") == "table":
        return "Your own cards: the players play real cards and enter each one as it is played."
    return "The app's deck: the app shuffles, deals and keeps the hands."


def normalize_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """Validated, canonical setup JSON (see the module docstring for its shape).

    Raises :class:`SetupError` with a message naming the field. Defaults:
    ``aggressor`` 0, ``deck`` "app", an organization's ``location`` "".
    """
    setup = _mapping(setup, "The setup")
    _check_keys(setup, {"sides", "scope", "aggressor", "deck", "spectator", "upgraded"}, "Setup")
    if "sides" not in setup:
        raise SetupError("Setup: the sides are missing")
    sides = _list(setup["sides"], "Setup", "sides")
    if len(sides) != 2:
        raise SetupError(f"Setup: a conflict has exactly 2 sides (got {len(sides)})")
    out_sides = []
    for s, raw_side in enumerate(sides):
        where = f"Side {s + 1}"
        raw_side = _mapping(raw_side, where)
        _check_keys(raw_side, {"name", "scope", "players", "controller", "level"}, where)
        name = _text(raw_side.get("name"), where, "name")
        where = f"Side {s + 1} ({name})"
        if "scope" not in raw_side:
            raise SetupError(f"{where}: the scope is missing (home, regional, war, world war, superconflict)")
        scope = _scope_field(raw_side["scope"], where)
        players = _list(raw_side.get("players"), where, "players")
        if not 1 <= len(players) <= 8:
            raise SetupError(f"{where}: a side has 1 to 8 players (got {len(players)})")
        out_players = []
        for p, raw_player in enumerate(players):
            pwhere = f"{where}, player {p + 1}"
            raw_player = _mapping(raw_player, pwhere)
            _check_keys(raw_player, {"name", "organizations"}, pwhere)
            pname = _text(raw_player.get("name"), pwhere, "name")
            orgs = _list(raw_player.get("organizations", []), pwhere, "organizations")
            if len(orgs) > _MAX_ORGS:
                raise SetupError(f"{pwhere}: a player controls at most {_MAX_ORGS} organizations")
            out_orgs = []
            for o, raw_org in enumerate(orgs):
                owhere = f"{pwhere}, organization {o + 1}"
                raw_org = _mapping(raw_org, owhere)
                _check_keys(raw_org, {"name", "power", "suit", "location"}, owhere)
                oname = _text(raw_org.get("name"), owhere, "name")
                owhere = f"{pwhere}, organization {o + 1} ({oname})"
                power = raw_org.get("power")
                if (not isinstance(power, int) or isinstance(power, bool)
                        or not 0 <= power <= _POWER_MAX):
                    raise SetupError(f"{owhere}: the power must be a whole number from 0 to {_POWER_MAX}"
                                     f" (got {_quote(power)})")
                try:
                    suit = Suit.parse(raw_org.get("suit"))
                except CardError:
                    raise SetupError(f"{owhere}: the suit must be S, H, D or C "
                                     f"(got {_quote(raw_org.get('suit'))})") from None
                location = _text(raw_org.get("location"), owhere, "location",
                                 max_len=_LOCATION_MAX, required=False)
                out_orgs.append({"name": oname, "power": power, "suit": suit.letter, "location": location})
            out_players.append({"name": pname, "organizations": out_orgs})
        if not any(player["organizations"] for player in out_players):
            raise SetupError(f"{where}: the side has no organization; give it at least one")
        out_side = {"name": name, "scope": scope, "players": out_players}
        out_side.update(_controller(raw_side, where))
        out_sides.append(out_side)
    if "scope" not in setup:
        raise SetupError("Setup: the conflict's scope is missing (home, regional, war, world war, superconflict)")
    scope = _scope_field(setup["scope"], "Setup (conflict scope)")
    aggressor = setup.get("aggressor", 0)
    if aggressor not in (0, 1) or isinstance(aggressor, bool) or not isinstance(aggressor, int):
        raise SetupError(f"Setup: the aggressor must be side 0 or side 1 (got {_quote(aggressor)})")
    deck = setup.get("deck", "app")
    if deck not in ("app", "table"):
        raise SetupError(f'Setup: the deck must be "app" (the app deals) or "table" '
                         f"(real cards) (got {_quote(deck)})")
    if deck == "table":
        for s, out_side in enumerate(out_sides):
            if out_side.get("controller") == "app":
                raise SetupError(f"Side {s + 1} ({out_side['name']}): the app cannot hold real cards — "
                                 "choose the app deck for a side the app plays")
    out = {"sides": out_sides, "scope": scope, "aggressor": aggressor, "deck": deck}
    if _spectator_flag(setup, deck):
        out["spectator"] = True
    notes = _upgrade_notes(setup)
    if notes:
        out["upgraded"] = notes
    return out


def _upgrade_notes(setup: Mapping[str, Any]) -> list[str]:
    """Setup ``"upgraded"``: what :func:`upgrade` did to a game from an earlier version
    (codes of :data:`UPGRADE_NOTES`, sorted, each once); absent for every other game."""
    notes = setup.get("upgraded", [])
    if not isinstance(notes, (list, tuple)) or any(not isinstance(n, str) or n not in UPGRADE_NOTES for n in notes):
        raise SetupError(f"Setup: 'upgraded' lists what an upgrade did ({', '.join(UPGRADE_NOTES)})")
    return sorted(set(notes))


def _spectator_flag(setup: Mapping[str, Any], deck: str) -> bool:
    """``"spectator": true`` marks a spectator's copy (:func:`public_game`): read-only, it
    replays from the cards played whatever its deck says (a copy of an app-deck game
    keeps ``"deck": "app"``, so without its flag it does not replay: issue 30). Absent
    (or false) for every game played at a table."""
    flag = setup.get("spectator", False)
    if not isinstance(flag, bool):
        raise SetupError("Setup: 'spectator' must be true (a spectator's copy) or false")
    return flag


#: Who plays a side (setup ``"controller"``): people at the table, or the app (solo).
CONTROLLERS: tuple[str, ...] = ("people", "app")
#: How well the app plays a side (setup ``"level"``, see :mod:`engine.solo`).
APP_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")


def _controller(raw_side: Mapping[str, Any], where: str) -> dict[str, str]:
    """Solo (issue 12): ``"controller": "app"`` and its ``"level"``; nothing for people.

    People is the default and is left out of the canonical setup, so setups (saves,
    links) from before solo play normalize exactly as they did.
    """
    controller = raw_side.get("controller", "people")
    if controller not in CONTROLLERS:
        raise SetupError(f'{where}: the side is played by "people" or "the app" '
                         f'(controller "people" or "app", got {_quote(controller)})')
    level = raw_side.get("level")
    if controller == "people":
        if level is not None:
            raise SetupError(f"{where}: a level is only for a side the app plays")
        return {}
    if level is None:
        level = "normal"
    if level not in APP_LEVELS:
        raise SetupError(f"{where}: the app's level is easy, normal or hard (got {_quote(level)})")
    return {"controller": "app", "level": level}


def setup_sides(setup: Mapping[str, Any]) -> tuple[Side, Side]:
    """OIC-1/OIC-2: the sides of a setup as values (normalizes it first)."""
    setup = normalize_setup(setup)
    sides = []
    for raw in setup["sides"]:
        players = tuple(
            Player(p["name"], tuple(Organization(o["name"], o["power"], Suit(o["suit"]), o["location"])
                                    for o in p["organizations"]))
            for p in raw["players"]
        )
        sides.append(Side(raw["name"], Scope(raw["scope"]), players))
    return sides[0], sides[1]


def _best(side: Side, suit: Suit, player: int | None = None) -> tuple[int, int] | None:
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


def _rating(side: Side, suit: Suit, player: int | None = None) -> int | None:
    found = _best(side, suit, player)
    if found is None:
        return None
    return side.players[found[0]].organizations[found[1]].power


def _side_engageable(side: Side, scope: Scope) -> list[Suit]:
    threshold = scope.engage_threshold
    return [suit for suit in Suit if (_rating(side, suit) or 0) > threshold]


def setup_warnings(setup: Mapping[str, Any]) -> list[str]:
    """OIC-4/OIC-14/OIC-17: advice about a setup that is legal but probably not meant.

    Warns about a side that cannot be engaged in any suit at the conflict's scope
    (the conflict would be over before it starts), more than 5 players on a side,
    a player without organizations, and a side whose own scope is below the
    conflict's. Raises :class:`SetupError` if the setup itself is invalid.
    """
    normal = normalize_setup(setup)
    sides = setup_sides(normal)
    scope = Scope(normal["scope"])
    warnings: list[str] = []
    for side in sides:
        if not _side_engageable(side, scope):
            warnings.append(
                f"OIC-17: {side.name} cannot be engaged in any suit {scope.phrase} (every rating must "
                f"be above {scope.engage_threshold} to be engaged) — the conflict would be over before "
                "it starts.")
    for side in sides:
        count = len(side.players)
        if count > 5:
            warnings.append(
                f"OIC-14: {side.name} has {count} players. More than 5 players on a side gives no "
                f"advantage ({hand_size(count)} cards each, {hand_size(count) * count} in all).")
    for side in sides:
        for player in side.players:
            if not player.organizations:
                warnings.append(
                    f"OIC-5: {player.name} ({side.name}) controls no organization and can use only "
                    "face cards.")
    for side in sides:
        if side.scope.level < scope.level:
            warnings.append(
                f"OIC-4: {side.name} reaches only to {side.scope.label.lower()} scope but the conflict "
                f"is fought {scope.phrase}: its card sizes use its own scope (power − "
                f"{side.scope.offset}), and it can be engaged only in suits above "
                f"{scope.engage_threshold}.")
    return warnings


def purple_dragon_setup() -> dict[str, Any]:
    """OIC-7: the worked example — the Purple Dragon League against a zombie invasion.

    Both sides and the conflict are at home ground. The League (side 0): Warriors of
    Ki spades 14, fire department clubs 11, Little Leaguers diamonds 12, Tony's Pizza
    Delivery hearts 9 → max card sizes 9, 6, 7, 4. The Zombie invasion (side 1):
    hopping vampires spades 14, fireomancers clubs 11, shambling dead diamonds 12,
    ghosts of Christmas past hearts 13 → max card sizes 9, 6, 7, 8. The zombies
    invade, so they are the aggressor of round 1 (``"aggressor": 1``).

    The zombies' powers (derived from the card sizes the source gives), the locations
    and who opens are the app's choices, not the source's: :data:`SCENARIO_CHOICES`
    says so in words the table shows.
    """
    def org(name: str, power: int, suit: str, location: str) -> dict[str, Any]:
        return {"name": name, "power": power, "suit": suit, "location": location}

    return {
        "sides": [
            {"name": "Purple Dragon League", "scope": "home", "players": [
                {"name": "Player 1", "organizations": [
                    org("Warriors of Ki", 14, "S", "the block"),
                    org("fire department", 11, "C", "the block"),
                    org("Little Leaguers", 12, "D", "the block"),
                    org("Tony's Pizza Delivery", 9, "H", "the block"),
                ]},
            ]},
            {"name": "Zombie invasion", "scope": "home", "players": [
                {"name": "Player 2", "organizations": [
                    org("hopping vampires", 14, "S", "the old cemetery"),
                    org("fireomancers", 11, "C", "the old cemetery"),
                    org("shambling dead", 12, "D", "the old cemetery"),
                    org("ghosts of Christmas past", 13, "H", "the old cemetery"),
                ]},
            ]},
        ],
        "scope": "home",
        "aggressor": 1,
        "deck": "app",
    }


# ---------------------------------------------------------------------------
# Ratings for the UI


def _state(state: Any) -> ConflictState:
    """``state`` when it is a conflict's state (:class:`ArgumentError` otherwise)."""
    if not isinstance(state, ConflictState):
        raise ArgumentError(f"Not the state of a conflict: {type(state).__name__} "
                            "(replay a conflict game, or call start, to get one)")
    return state


def _side(state: ConflictState, side: int) -> Side:
    if not _is_whole(side) or side not in (0, 1):
        raise ActionError(f"There is no side {_quote(side)} (sides are 0 and 1)")
    return state.sides[side]


def _player(state: ConflictState, side: int, player: int) -> Player:
    s = _side(state, side)
    if not _is_whole(player) or not 0 <= player < len(s.players):
        raise ActionError(f"There is no player {_quote(player)} on {s.name} "
                          + (f"(players are numbered 0 to {len(s.players) - 1})" if len(s.players) > 1
                             else "(its one player is number 0)"))
    return s.players[player]


def side_ratings(state: ConflictState, side: int) -> dict[Suit, int]:
    """OIC-2: the side's rating per suit — its best organization over all players (0 if none)."""
    s = _side(_state(state), side)
    return {suit: _rating(s, suit) or 0 for suit in Suit}


def player_ratings(state: ConflictState, side: int, player: int) -> dict[Suit, int]:
    """OIC-14: a player's own rating per suit (0 where the player has no organization)."""
    _player(_state(state), side, player)
    s = state.sides[side]
    return {suit: _rating(s, suit, player) or 0 for suit in Suit}


def player_max_sizes(state: ConflictState, side: int, player: int) -> dict[Suit, int]:
    """OIC-5/OIC-14: a player's max card size per suit (from the side's own scope)."""
    ratings = player_ratings(state, side, player)
    scope = state.sides[side].scope
    return {suit: _max_size(rating, scope) for suit, rating in ratings.items()}


def max_size_reason(state: ConflictState, side: int, player: int, suit: Suit | str) -> str:
    """OIC-5: the sum behind a player's max card size, e.g. "spades 14 − 5 at home ground = 9"."""
    _player(_state(state), side, player)
    suit = _suit(suit)
    s = state.sides[side]
    best = _best(s, suit, player)
    name = None if best is None else s.players[best[0]].organizations[best[1]].name
    return explain_max_size(_rating(s, suit, player), s.scope, suit, name)


def best_organization(state: ConflictState, side: int, suit: Suit | str,
                      player: int | None = None) -> Organization | None:
    """OIC-16: the organization whose power is the side's (or player's) rating in *suit*."""
    s = _side(_state(state), side)
    suit = _suit(suit)
    if player is not None:
        _player(state, side, player)
    found = _best(s, suit, player)
    return None if found is None else s.players[found[0]].organizations[found[1]]


def engageable_suits(state: ConflictState, side: int) -> list[Suit]:
    """OIC-3/OIC-4/OIC-10: the suits in which *side* can be engaged at the conflict's scope."""
    return _side_engageable(_side(_state(state), side), state.scope)


# ---------------------------------------------------------------------------
# Checking a play


def _without_id(message: str) -> str:
    """A message without its leading rule id, to quote it inside another one (as a sentence)."""
    text = re.sub(r"^[A-Z]+(?:-[A-Z]+)?-\d+: ", "", message)
    return text[:1].upper() + text[1:]


def _phase_problem(state: ConflictState, acting: str) -> RuleError | None:
    if state.phase == "conflict-over":
        return RuleError("OIC-17", f"the conflict is over. {_without_id(state.end_message)}")
    if state.phase == "round-over":
        return RuleError("OIC-17", f"round {state.round} is over — start the next round "
                                   "(or end the conflict here, OIC-19)")
    if state.phase == "discard" and acting != "discard":
        waiting = [f"{pl.name} ({side.name})" for s, side in enumerate(state.sides)
                   for p, pl in enumerate(side.players) if not state.discarded[s][p]]
        return RuleError("OIC-8", "every player discards (or keeps all cards) before the first card "
                                  f"is played — waiting for {_join_or(waiting)}")
    return None


def _whose(state: ConflictState, side: int, player: int) -> tuple[str, str]:
    """("your", "you have") for a one-player side, else the player's name."""
    s = state.sides[side]
    if len(s.players) == 1:
        return "your", "you have"
    name = s.players[player].name
    return f"{name}'s", f"{name} has"


def _card_problem(state: ConflictState, side: int, player: int, card: Card) -> RuleError | None:
    """Everything after phase and turn: holding the card, OIC-5, OIC-10, OIC-11/13."""
    s = state.sides[side]
    if state.deck_mode == "app":
        if card not in state.hands[side][player]:
            holder = "you do not" if len(s.players) == 1 else f"{s.players[player].name} does not"
            return RuleError("OIC-8", f"{holder} hold the {card.label}")
    else:
        shared = _setting(state.settings, "deck") == "shared"
        for play in state.chain:
            if play.card == card and (shared or play.side == side):
                by = state.sides[play.side].name
                why = "one shared deck" if shared else "each side plays from its own deck"
                return RuleError("OIC-9", f"the {card.label} was already played by {by} this round ({why})")
    rating = _rating(s, card.suit, player)
    size = _max_size(rating or 0, s.scope)
    if not _usable(card, size):
        your, you_have = _whose(state, side, player)
        if rating is None:
            return RuleError("OIC-5", f"{you_have} no organization in {card.suit.noun}, so only face "
                                      f"cards of {card.suit.noun} are usable")
        if size < 1:
            best = best_organization(state, side, card.suit, player)
            if size == 0 and rating - s.scope.offset >= 1:  # OIC-18 said once, as the rule cited
                who = best.name if best else "its best organization"
                return RuleError("OIC-18", f"{your} max card size in {card.suit.noun} is 0: {who} ({rating}) has "
                                           f"no influence {s.scope.beyond} (power must be above "
                                           f"{s.scope.engage_threshold}), so only face cards of "
                                           f"{card.suit.noun} are usable")
            why = explain_max_size(rating, s.scope, card.suit, best.name if best else None)
            return RuleError("OIC-5", f"{your} max card size in {card.suit.noun} is {_num(size)} ({why})")
        return RuleError("OIC-5", f"the {card.label} is above {your} max card size in "
                                  f"{card.suit.noun} ({size})")
    if not state.chain:
        defender = state.sides[1 - side]
        if (_rating(defender, card.suit) or 0) <= state.scope.engage_threshold:
            open_with = [suit.noun for suit in _side_engageable(defender, state.scope)]
            rating = _rating(defender, card.suit) or 0
            hint = f" — open with {_join_or(open_with)}" if open_with else ""
            return RuleError("OIC-10", f"{defender.name} cannot be engaged in {card.suit.noun} "
                                       f"{state.scope.phrase} ({card.suit.noun} {rating}, must be above "
                                       f"{state.scope.engage_threshold}){hint}")
        return None
    problem = _follow_problem(card, state.current_card, state.settings)
    if problem is not None:
        return RuleError(*problem)
    return None


def check_play(state: ConflictState, player: int, card: Card | str, side: int | None = None) -> None:
    """OIC-5/OIC-8/OIC-10/OIC-11/OIC-13: may *player* of the side to play play *card* now?

    Raises :class:`RuleError` (message starts with the rule id) if not;
    :class:`ActionError` for a player or card that does not exist. *side*, if
    given, must be the side whose turn it is.
    """
    _state(state)
    try:
        card = parse_card(card)
    except CardError as err:
        raise ActionError(str(err)) from None
    problem = _phase_problem(state, "play")
    if problem is not None:
        raise problem
    assert state.turn is not None
    if side is not None:
        _side(state, side)
        if side != state.turn:
            raise RuleError("OIC-11", f"it is {state.sides[state.turn].name}'s turn, "
                                      f"not {state.sides[side].name}'s")
    _player(state, state.turn, player)
    problem = _card_problem(state, state.turn, player, card)
    if problem is not None:
        raise problem


def legal_plays(state: ConflictState) -> list[tuple[int, Card]]:
    """OIC-5/OIC-10/OIC-11: every (player, card) the side to play may play now.

    App mode: cards from the players' hands, in hand order. Table mode: every card
    of the deck not yet played this round that each player may play (so an empty
    list means the side cannot play whatever it holds). Empty outside phase "play".
    """
    if _state(state).phase != "play" or state.turn is None:
        return []
    # The same tests as check_play, straight from the rule functions (no messages).
    side = state.turn
    s = state.sides[side]
    settings = state.settings
    current = state.current_card
    if state.deck_mode == "table":
        shared = _setting(settings, "deck") == "shared"
        played = {play.card for play in state.chain if shared or play.side == side}
    else:
        played = set()
    engageable = set(_side_engageable(state.sides[1 - side], state.scope))
    plays = []
    for p in range(len(s.players)):
        sizes = {suit: _max_size(_rating(s, suit, p) or 0, s.scope) for suit in Suit}
        cards: Iterable[Card] = state.hands[side][p] if state.deck_mode == "app" else full_deck()
        for card in cards:
            if card in played or not _usable(card, sizes[card.suit]):
                continue
            if current is None:
                if card.suit in engageable:
                    plays.append((p, card))
            elif _follow_problem(card, current, settings) is None:
                plays.append((p, card))
    return plays


# ---------------------------------------------------------------------------
# Session protocol


def _draw(pile: tuple[Card, ...], discards: tuple[Card, ...], count: int,
          rng: random.Random) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """OIC-9: draw *count* cards; when the pile runs out, the discards are shuffled into a new one."""
    drawn: list[Card] = []
    while len(drawn) < count:
        if not pile:
            if not discards:
                break
            fresh = list(discards)
            rng.shuffle(fresh)
            pile, discards = tuple(fresh), ()
        take = min(count - len(drawn), len(pile))
        drawn.extend(pile[:take])
        pile = pile[take:]
    return tuple(drawn), pile, discards


def _deal(state: ConflictState, rng: random.Random) -> ConflictState:
    """OIC-8/OIC-9/OIC-14: fresh shuffle(s), fresh hands, discard phase (app mode)."""
    sides = state.sides
    if state.deck_mode == "table":
        return replace(state, hands=tuple(tuple(() for _ in side.players) for side in sides),
                       discarded=tuple(tuple(False for _ in side.players) for side in sides),
                       draw_piles=(), discard_piles=(), phase="play", turn=state.aggressor)
    shared = _setting(state.settings, "deck") == "shared"
    piles = [tuple(shuffled_deck(rng))] if shared else [tuple(shuffled_deck(rng)) for _ in sides]
    hands = []
    for s, side in enumerate(sides):
        size = hand_size(len(side.players))
        side_hands = []
        index = 0 if shared else s
        for _ in side.players:
            side_hands.append(piles[index][:size])
            piles[index] = piles[index][size:]
        hands.append(tuple(side_hands))
    return replace(state, hands=tuple(hands),
                   discarded=tuple(tuple(False for _ in side.players) for side in sides),
                   draw_piles=tuple(piles), discard_piles=tuple(() for _ in piles),
                   phase="discard", turn=None)


def _conflict_end(sides: tuple[Side, ...], scope: Scope, rounds: int) -> tuple[int | None, str] | None:
    """OIC-17: (winner, message) once a side can no longer be engaged in any suit."""
    out = [s for s, side in enumerate(sides) if not _side_engageable(side, scope)]
    if not out:
        return None
    if len(out) == 2:
        return None, (f"OIC-17: neither {sides[0].name} nor {sides[1].name} can be engaged in any suit "
                      f"{scope.phrase} — there is nothing to fight over.")
    loser = out[0]
    winner = 1 - loser
    after = (f" after {_plural(rounds, 'round')} ({in_world_time(scope, rounds)})" if rounds else
             " before a card is played")
    return winner, (f"OIC-17: {sides[loser].name} can no longer be engaged in any suit {scope.phrase} — "
                    f"{sides[winner].name} wins the conflict{after}.")


def start(setup: Mapping[str, Any], rules: Mapping[str, Any] | None, rng: random.Random) -> ConflictState:
    """OIC-8/OIC-9/OIC-10: round 1 — the setup's aggressor opens; app mode deals the hands.

    If a side cannot be engaged in any suit at the conflict's scope, the conflict is
    over at once (OIC-17; :func:`setup_warnings` says so beforehand).
    """
    normal = normalize_setup(setup)
    if rules is not None and not isinstance(rules, Mapping):
        raise SettingsError("The rules settings must be an object of {setting: choice}")
    settings = resolve_rules(VARIANTS, rules)
    if not isinstance(rng, random.Random):
        raise ArgumentError("start needs the game's random generator (a random.Random)")
    sides = setup_sides(normal)
    scope = Scope(normal["scope"])
    levels = tuple(side.get("level") if side.get("controller") == "app" else None for side in normal["sides"])
    state = ConflictState(
        sides=sides, initial_sides=sides, scope=scope,
        deck_mode="table" if normal.get("spectator") else normal["deck"],  # a copy replays the cards played
        rules=tuple(sorted(settings.items())), round=1, phase="play",
        aggressor=normal["aggressor"], turn=normal["aggressor"],
        hands=tuple(tuple(() for _ in side.players) for side in sides),
        discarded=tuple(tuple(False for _ in side.players) for side in sides),
        draw_piles=(), discard_piles=(),
        levels=levels, spectator=normal.get("spectator", False), notes=tuple(normal.get("upgraded", ())),
    )
    ended = _conflict_end(sides, scope, 0)
    if ended is not None:
        return replace(state, phase="conflict-over", turn=None, winner=ended[0], end_message=ended[1],
                       ending="out")
    return _deal(state, rng)


# ---------------------------------------------------------------------------
# The referee: one check per action (issue 20)

#: The actions of a conflict, and their fields (required, optional) as a caller sends them.
ACTION_TYPES: tuple[str, ...] = ("discard", "play", "pass", "next_round", "call")
_FIELDS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = MappingProxyType({
    "discard": (("side", "player", "cards"), ("why",)),
    "play": (("player", "card"), ("side", "why")),
    "pass": ((), ("side", "why")),
    "next_round": ((), ()),
    "call": ((), ()),
})

#: Longest ``"why"`` of an action (the app's one-line explanation of its move).
WHY_MAX = 240


def _int_field(action: Mapping[str, Any], key: str) -> int:
    value = action[key]
    if not _is_whole(value):
        raise ActionError(f"The '{key}' of a {action.get('type')} action must be a whole number "
                          f"(got {_quote(value)})")
    return value


def _discard_cards(value: Any) -> tuple[Card, ...]:
    """The cards of a discard: a list of cards (or tokens), or one text "2h 3c"; each once."""
    if isinstance(value, str):
        try:
            return clean_cards(value, what="cards of the discard")
        except CardError as err:
            raise ActionError(f"The cards of the discard: {err}") from None
    if not isinstance(value, (list, tuple)):
        raise ActionError(f"The cards of a discard must be a list of cards like [\"2H\", \"3C\"] "
                          f"(got {_quote(value)})")
    if len(value) > 52:
        raise ActionError("A discard lists more cards than a deck holds")
    return referee.cards(value, "the cards of the discard")


def _why_text(action: Mapping[str, Any]) -> str | None:
    """The optional ``"why"``: one line of plain text, 1 to :data:`WHY_MAX` characters."""
    if "why" not in action:
        return None
    why = action["why"]
    if isinstance(why, str) and not why.strip():
        raise ActionError("The 'why' of an action must be one line of text, not empty")
    return referee.line(why, "the 'why' of an action", WHY_MAX)


def _turn_side(state: ConflictState, action: Mapping[str, Any]) -> int:
    """The side to play, checked against the action's ``side`` when it names one (OIC-11)."""
    side = None
    if "side" in action:
        side = _int_field(action, "side")
        _side(state, side)
    problem = _phase_problem(state, action["type"])
    if problem is not None:
        raise problem
    turn = state.turn
    assert turn is not None
    if side is not None and side != turn:
        raise RuleError("OIC-11", f"it is {state.sides[turn].name}'s turn, not {state.sides[side].name}'s "
                                  "(the sides alternate)")
    return turn


def _check_discard(state: ConflictState, side: int, player: int, cards: tuple[Card, ...]) -> None:
    """OIC-8: one discard per player and round, of cards the player holds."""
    if state.phase != "discard":
        problem = _phase_problem(state, "discard")
        if problem is not None:
            raise problem
        if state.deck_mode == "table":
            raise RuleError("OIC-8", "with real cards the players discard at the table; there is "
                                     "nothing to enter")
        raise RuleError("OIC-8", "the discard is over — one discard per round, before the first card")
    s = state.sides[side]
    name = s.players[player].name
    if state.discarded[side][player]:
        raise RuleError("OIC-8", f"{name} ({s.name}) has already discarded this round "
                                 "(one discard per round)")
    hand = state.hands[side][player]
    for card in cards:
        if card not in hand:
            raise RuleError("OIC-8", f"{name} ({s.name}) does not hold the {card.label}")


def _between_rounds(state: ConflictState, what: str) -> None:
    """OIC-17/OIC-19: starting the next round and calling the conflict wait for a round's end."""
    if state.phase == "round-over":
        return
    if state.phase == "conflict-over":
        raise RuleError("OIC-17", f"the conflict is over. {_without_id(state.end_message)}")
    rule = "OIC-19" if what == "call" else "OIC-17"
    doing = "end the conflict" if what == "call" else "start the next round"
    raise RuleError(rule, f"round {state.round} is still being played: the table can {doing} only "
                          "between rounds")


def normalize_action(state: ConflictState, action: Mapping[str, Any],
                     rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The canonical form of *action* in *state*, or the refusal :func:`step` would raise.

    Exact shape (every required field, no unknown one; ``True`` is not a number),
    canonical card tokens ("9h" → "9H"), the side and player in range, the side to
    play (OIC-11), the phase (OIC-8, OIC-17, OIC-19) and every card rule (OIC-5,
    OIC-8 … OIC-13). A play and a pass always name their side; a ``"why"`` is kept
    only on a move of a side the app plays. Raises :class:`ActionError` (malformed)
    or :class:`RuleError` (citing the clause). ``rules`` is accepted for the
    :mod:`engine.game` protocol (the state carries its own settings).
    """
    return _normalize(_state(state), action)


def _normalize(state: ConflictState, action: Any) -> dict[str, Any]:
    kind = referee.action_type(action, ACTION_TYPES)
    required, optional = _FIELDS[kind]
    referee.only(action, required, optional)
    why = _why_text(action)
    if kind == "discard":
        side = _int_field(action, "side")
        player = _int_field(action, "player")
        _player(state, side, player)
        cards = _discard_cards(action["cards"])
        _check_discard(state, side, player, cards)
        out: dict[str, Any] = {"type": "discard", "side": side, "player": player,
                               "cards": [str(card) for card in cards]}
    elif kind == "play":
        player = _int_field(action, "player")
        try:
            card = parse_card(action["card"])
        except CardError as err:
            raise ActionError(str(err)) from None
        side = _turn_side(state, action)
        check_play(state, player, card, side=side)
        out = {"type": "play", "side": side, "player": player, "card": str(card)}
    elif kind == "pass":
        out = {"type": "pass", "side": _turn_side(state, action)}
    else:
        _between_rounds(state, kind)
        out = {"type": kind}
    if why is not None:
        acting = out["side"]
        if state.levels[acting] is None:
            raise ActionError(f"Only the app's own moves carry a 'why': {state.sides[acting].name} is "
                              "played by people")
        out["why"] = why
    return out


def _discard(state: ConflictState, action: Mapping[str, Any], rng: random.Random) -> ConflictState:
    """OIC-8: one player's discard and refill, once per round (a canonical action)."""
    side, player = action["side"], action["player"]
    cards = [parse_card(token) for token in action["cards"]]
    hand = state.hands[side][player]
    index = 0 if len(state.draw_piles) == 1 else side
    kept = tuple(card for card in hand if card not in cards)
    # OIC-9 (variant): only the discards already on the pile can be reshuffled into a new
    # draw pile; this player's own discards join the pile after the refill, so they never
    # come back in it. HR-OIC-3: a refill nothing can cover leaves the hand short.
    drawn, pile, earlier = _draw(state.draw_piles[index], state.discard_piles[index],
                                 len(hand) - len(kept), rng)
    discards = earlier + tuple(cards)
    hands = _set(state.hands, side, _set(state.hands[side], player, kept + drawn))
    discarded = _set(state.discarded, side, _set(state.discarded[side], player, True))
    new = replace(state, hands=hands, discarded=discarded,
                  draw_piles=_set(state.draw_piles, index, pile),
                  discard_piles=_set(state.discard_piles, index, discards))
    if all(all(flags) for flags in discarded):
        new = replace(new, phase="play", turn=state.aggressor)
    return new


def _set(items: tuple, index: int, value: Any) -> tuple:
    return items[:index] + (value,) + items[index + 1:]


def _play(state: ConflictState, action: Mapping[str, Any]) -> ConflictState:
    """OIC-10/OIC-11/OIC-14: the side to play plays one card of one of its players."""
    turn, player, card = action["side"], action["player"], parse_card(action["card"])
    hands = state.hands
    if state.deck_mode == "app":
        hand = tuple(c for c in hands[turn][player] if c != card)
        hands = _set(hands, turn, _set(hands[turn], player, hand))
    return replace(state, hands=hands, chain=state.chain + (Play(turn, player, card),), turn=1 - turn)


def _change(sides: tuple[Side, ...], side: int, suit: Suit,
            delta: int) -> tuple[tuple[Side, ...], tuple[int, str, int, int] | None]:
    """OIC-16: change the side's best organization of *suit*; never below 0."""
    found = _best(sides[side], suit)
    if found is None:
        return sides, None
    p, o = found
    s = sides[side]
    org = s.players[p].organizations[o]
    after = max(0, org.power + delta)
    new_org = replace(org, power=after)
    new_player = replace(s.players[p], organizations=_set(s.players[p].organizations, o, new_org))
    new_side = replace(s, players=_set(s.players, p, new_player))
    return _set(sides, side, new_side), (p, org.name, org.power, after)


def _pass(state: ConflictState, action: Mapping[str, Any]) -> ConflictState:
    """OIC-13/OIC-15/OIC-16/OIC-17 (and HR-OIC-1): the side to play passes; the round ends."""
    loser = action["side"]
    winner = 1 - loser
    names = [side_.name for side_ in state.sides]
    number = state.round
    sides = state.sides
    chain = state.chain
    common = dict(number=number, aggressor=state.aggressor, winner=winner, loser=loser,
                  plays=chain, elapsed=in_world_time(state.scope, number))
    if not chain:
        result = RoundResult(
            first_card=None, last_card=None, suit=None, change_side=None, player=None,
            organization=None, power_before=None, power_after=None, delta=0,
            explanation=(f"HR-OIC-1 (house rule): {names[loser]} did not open, so nothing was at "
                         f"stake — {names[winner]} wins the round and no rating changes"),
            headline=f"Round {number}: {names[winner]} wins — {names[loser]} did not open",
            house_rule="HR-OIC-1", **common)
    else:
        first, last = chain[0].card, chain[-1].card
        if last.suit == first.suit:
            target, suit, delta = winner, first.suit, +1
            compare = f"last card {last.suit.symbol} = first card {first.suit.symbol}"
            head = f"{compare}: {names[winner]} gains 1 in {suit.noun}"
        else:
            target, suit, delta = loser, last.suit, -1
            compare = f"last card {last.suit.symbol} ≠ first card {first.suit.symbol}"
            head = f"{compare}: {names[loser]} loses 1 in {suit.noun}"
        sides, change = _change(sides, target, suit, delta)
        if change is None:
            explanation = (f"{compare}: {names[target]} has no organization in {suit.noun}, "
                           "so nothing changes (OIC-16, ruling)")
            player = org_name = before = after = None
            applied = 0
        else:
            player, org_name, before, after = change
            applied = after - before
            if applied == 0:
                explanation = f"{head}; {org_name} is already at 0 (OIC-16, ruling: ratings never go below 0)"
            else:
                explanation = f"{head}; {org_name} {before} → {after}"
        result = RoundResult(
            first_card=first, last_card=last, suit=suit, change_side=target, player=player,
            organization=org_name, power_before=before, power_after=after, delta=applied,
            explanation=explanation,
            headline=f"Round {number}: {names[winner]} wins — {names[loser]} could not play on the {last.label}",
            **common)
    new = replace(state, sides=sides, results=state.results + (result,), turn=None, phase="round-over")
    ended = _conflict_end(sides, state.scope, len(new.results))
    if ended is not None:
        new = replace(new, phase="conflict-over", winner=ended[0], end_message=ended[1], ending="out")
    return new


def _next_round(state: ConflictState, rng: random.Random) -> ConflictState:
    """OIC-17/OIC-9: the loser of the last round opens the next; fresh shuffle and hands."""
    loser = state.results[-1].loser
    new = replace(state, round=state.round + 1, aggressor=loser, chain=())
    return _deal(new, rng)


# ---------------------------------------------------------------------------
# OIC-19: calling a conflict


def call_totals(state: ConflictState) -> tuple[int, int]:
    """OIC-19 (ruling): each side's total of ratings above the engagement threshold at
    the conflict's scope (OIC-3, OIC-4: above 5 at home ground, 15 regional …), over
    the four suits — how far each side is from being out of the conflict (OIC-17)."""
    state = _state(state)
    threshold = state.scope.engage_threshold
    return tuple(sum(max(0, (_rating(side, suit) or 0) - threshold) for suit in Suit)  # type: ignore[return-value]
                 for side in state.sides)


def side_ahead(state: ConflictState) -> int | None:
    """OIC-19: the side with the larger :func:`call_totals`; ``None`` for a standoff."""
    a, b = call_totals(state)
    return None if a == b else (0 if a > b else 1)


def call_sum(state: ConflictState, side: int) -> str:
    """OIC-19: a side's total as a sum a player can check: "♠ 9 + ♥ 8 + ♦ 7 + ♣ 6 = 30"."""
    s = _side(_state(state), side)
    threshold = state.scope.engage_threshold
    parts = [(suit, (_rating(s, suit) or 0) - threshold) for suit in Suit]
    shown = [f"{suit.symbol} {points}" for suit, points in parts if points > 0]
    total = sum(points for _, points in parts if points > 0)
    if not shown:
        return f"0 (no rating above {threshold})"
    return f"{' + '.join(shown)} = {total}" if len(shown) > 1 else f"{shown[0]}"


def _threshold_words(state: ConflictState) -> str:
    return f"the engagement threshold ({state.scope.engage_threshold} {state.scope.phrase})"


def call_preview(state: ConflictState) -> str:
    """OIC-19: what ending the conflict now would record, in one sentence."""
    state = _state(state)
    totals = call_totals(state)
    ahead = side_ahead(state)
    names = [side.name for side in state.sides]
    if ahead is None:
        return (f"OIC-19: ended now, it is a standoff — both sides stand {totals[0]} rating points above "
                f"{_threshold_words(state)}.")
    return (f"OIC-19: ended now, {names[ahead]} is ahead, {totals[ahead]} to {totals[1 - ahead]} in rating "
            f"points above {_threshold_words(state)}, and wins the conflict.")


def _call(state: ConflictState) -> ConflictState:
    """OIC-19: the table ends the conflict between rounds; the side ahead wins (or a standoff)."""
    totals = call_totals(state)
    ahead = side_ahead(state)
    rounds = len(state.results)
    names = [side.name for side in state.sides]
    when = f"after {_plural(rounds, 'round')} ({in_world_time(state.scope, rounds)})"
    if ahead is None:
        message = (f"OIC-19: the table ended the conflict {when} in a standoff — both sides stood "
                   f"{totals[0]} rating points above {_threshold_words(state)}.")
    else:
        message = (f"OIC-19: the table ended the conflict {when}. {names[ahead]} was ahead, {totals[ahead]} "
                   f"to {totals[1 - ahead]} in rating points above {_threshold_words(state)}, and wins "
                   "the conflict.")
    return replace(state, phase="conflict-over", turn=None, winner=ahead, end_message=message,
                   ending="called", final=totals)


# ---------------------------------------------------------------------------
# Steps


def step(state: ConflictState, action: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
         rng: random.Random | None = None) -> ConflictState:
    """The state after *action* (see the module docstring). Never mutates *state*.

    Refuses exactly what :func:`normalize_action` refuses (it is the same check).
    The rules settings are those the state started with (``rules`` is accepted for
    the :mod:`engine.game` protocol). ``rng`` is needed for dealing and reshuffles.
    """
    canonical = _normalize(_state(state), action)
    kind = canonical["type"]
    if kind == "play":
        return _play(state, canonical)
    if kind == "pass":
        return _pass(state, canonical)
    if kind == "call":
        return _call(state)
    if not isinstance(rng, random.Random):
        raise ArgumentError("step needs the game's random generator for this action (a random.Random)")
    if kind == "discard":
        return _discard(state, canonical, rng)
    return _next_round(state, rng)


def _label_player(state: ConflictState, side: int, player: Any) -> str:
    try:
        s = state.sides[side]
        name = s.players[player].name
    except (IndexError, TypeError):
        return f"player {player}"
    return name


def _side_of(value: Any) -> int | None:
    return value if _is_whole(value) and value in (0, 1) else None


def describe(state: ConflictState, action: Mapping[str, Any]) -> str:
    """A short history label of *action* taken in *state*."""
    state = _state(state)
    if not isinstance(action, Mapping):
        return "Unknown action"
    kind = action.get("type")
    prefix = f"Round {state.round} · "
    why = action.get("why")
    if isinstance(why, str) and why and kind in ("discard", "play", "pass"):
        # The app's own move (solo): its one-line explanation is the label.
        side = _side_of(action.get("side")) if kind == "discard" else state.turn
        if side is not None:
            who = state.sides[side].name
            if kind == "discard" and len(state.sides[side].players) > 1:
                who = f"{_label_player(state, side, action.get('player'))} ({who})"
            return f"{prefix}{who} (the app) {why}"
    if kind == "discard":
        side = _side_of(action.get("side"))
        side_name = state.sides[side].name if side is not None else "?"
        who = _label_player(state, side if side is not None else 0, action.get("player"))
        try:
            count = len(_discard_cards(action.get("cards", [])))
        except ValueError:
            count = 0
        what = "keeps all cards" if count == 0 else f"discards {_plural(count, 'card')}"
        return f"{prefix}{who} ({side_name}) {what}"
    if kind == "play":
        side = state.turn if state.turn is not None else 0
        try:
            played: Card | None = parse_card(action.get("card"))
        except CardError:
            played = None
        card = played.label if played is not None else _quote(action.get("card"))
        text = f"{prefix}{state.sides[side].name} plays {card}"
        if len(state.sides[side].players) > 1:
            text += f" ({_label_player(state, side, action.get('player'))})"
        current = state.current_card
        if current is None:
            text += " — opens"
        elif played is not None and played.suit != current.suit:
            text += f" — trumps the {current.label}"
        elif played is not None and played.is_face:
            text += f" — face card on the {current.label}"
        return text
    if kind == "pass":
        side = state.turn if state.turn is not None else 0
        if not state.chain:
            return f"{prefix}{state.sides[side].name} does not open — round ends"
        return f"{prefix}{state.sides[side].name} cannot play — round ends"
    if kind == "next_round":
        loser = state.results[-1].loser if state.results else state.aggressor
        return f"Round {state.round + 1} · {state.sides[loser].name} opens"
    if kind == "call":
        totals = call_totals(state)
        ahead = side_ahead(state)
        names = [side.name for side in state.sides]
        if ahead is None:
            verdict = f"a standoff, {totals[0]}–{totals[1]}"
        else:
            verdict = f"{names[ahead]} ahead {totals[ahead]}–{totals[1 - ahead]}"
        return f"After round {state.round} · the table ends the conflict: {verdict} (OIC-19)"
    return "Unknown action"


def status(state: ConflictState) -> str:
    """What the table is waiting for, in one sentence.

    A spectator's copy (:func:`public_game`) holds no discards, so before the first card
    of a round it says what is true at the table then: the sides draw and discard, then
    the aggressor opens; between rounds the table may also end the conflict (OIC-19).
    """
    state = _state(state)
    prefix = f"Round {state.round} · "
    if state.phase == "conflict-over":  # the result says how, at length: here, who
        winner = None if state.winner is None else state.sides[state.winner].name
        if state.ending == "called":
            return (f"The table ended the conflict: {winner} wins (OIC-19)." if winner else
                    "The table ended the conflict in a standoff (OIC-19).")
        return (f"The conflict is over: {winner} wins (OIC-17)." if winner else
                "The conflict is over: neither side can be engaged (OIC-17).")
    if state.phase == "round-over":
        last = state.results[-1]
        opens = f"{state.sides[last.loser].name} opens round {state.round + 1}"
        if state.spectator:
            return f"{last.headline}. Next, {opens}, unless the table ends the conflict here (OIC-19)."
        return f"{last.headline}. {opens}."
    if state.phase == "discard":
        waiting = [f"{pl.name} ({side.name})" for s, side in enumerate(state.sides)
                   for p, pl in enumerate(side.players) if not state.discarded[s][p]]
        return f"{prefix}discard (OIC-8): waiting for {_join_or(waiting)}"
    assert state.turn is not None
    name = state.sides[state.turn].name
    current = state.current_card
    if current is None:
        if state.spectator:
            return f"{prefix}the sides draw and discard (OIC-8), then {name} opens (OIC-10)"
        return f"{prefix}{name} opens (OIC-10)"
    return f"{prefix}{name} to play on the {current.label}"


def standing(state: ConflictState) -> str:
    """Where the conflict stands in a few words, for the list of saves.

    "Round 4 · Purple Dragon League ahead 27–26" (OIC-19's totals: rating points above
    the engagement threshold); once over, who won and how: "Over after 6 rounds ·
    Zombie invasion won outright" (OIC-17), "Called after 5 rounds · Zombie invasion
    won 31–27" or "Called after 5 rounds · standoff 28–28" (OIC-19).
    """
    state = _state(state)
    names = [side.name for side in state.sides]
    rounds = len(state.results)
    if state.phase == "conflict-over":
        if state.ending == "called" and state.final is not None:
            a, b = state.final
            if state.winner is None:
                return f"Called after {_plural(rounds, 'round')} · standoff {a}–{b}"
            w = state.winner
            return f"Called after {_plural(rounds, 'round')} · {names[w]} won {state.final[w]}–{state.final[1 - w]}"
        when = f"Over after {_plural(rounds, 'round')}" if rounds else "Over at the start"
        if state.winner is None:
            return f"{when} · neither side can be engaged"
        return f"{when} · {names[state.winner]} won outright"
    totals = call_totals(state)
    ahead = side_ahead(state)
    if ahead is None:
        return f"Round {state.round} · even {totals[0]}–{totals[1]}"
    return f"Round {state.round} · {names[ahead]} ahead {totals[ahead]}–{totals[1 - ahead]}"


_PUBLIC_FIELDS = {"play": ("type", "side", "player", "card"), "pass": ("type", "side"),
                  "next_round": ("type",), "call": ("type",)}


def public_game(game: Game) -> Game:
    """A spectator's copy: no discards, no hands, seed 0; it replays as real cards (table
    mode) from the cards played.

    Only the play/pass/next_round/call actions are kept (with their public fields),
    and only the actions in force (the redo stack could reveal cards that were never
    shown), so replaying shows the same chain, ratings and round history without any
    hidden card. Its setup says ``"spectator": true``: the copy takes no move. It keeps
    the game's own ``"deck"`` (issue 30): a copy of an app-deck game edited to drop its
    flag is an app-deck game whose first card comes before the discards, and is refused.
    """
    if not isinstance(game, Game) or game.kind != KIND:
        raise ArgumentError("public_game takes a conflict game")
    kept: list[dict[str, Any]] = []
    # Only what has happened: the redo stack may hold cards that were never shown.
    for action in game.actions[: game.position]:
        kind = action.get("type") if isinstance(action, Mapping) else None
        if kind not in _PUBLIC_FIELDS:
            continue
        kept.append({key: action[key] for key in _PUBLIC_FIELDS[kind] if key in action})
    setup = normalize_setup(game.setup)
    setup["spectator"] = True  # the deck stays the game's own: the copy's mark (see above)
    for side in setup["sides"]:  # a spectator watches: nobody plays for the app there
        side.pop("controller", None)
        side.pop("level", None)
    return replace(game, seed=0, setup=setup, actions=tuple(kept), position=len(kept), _tip=None)


# ---------------------------------------------------------------------------
# Games from earlier versions (engine.codec calls this for saves before schema 3)

#: What :func:`upgrade` may have done to a game from an earlier version (setup
#: ``"upgraded"``), in players' words; the conflict log shows it.
UPGRADE_NOTES: Mapping[str, str] = MappingProxyType({
    "fields": "Opened from an earlier version of the app: fields its moves carried that changed nothing "
              "were dropped (the game replays exactly as it was played).",
    "spectator": "Opened from an earlier version of the app: recognised as a spectator's copy (real cards, "
                 "no hands, no seed), so it is read-only like every spectator view.",
})


def _old_action(action: Any, levels: list[Any]) -> Any:
    """An action of an earlier version with only what that version read: the fields of its
    type, a ``"why"`` only on a move of a side the app played, a missing discard list as
    keeping every card. Anything else is left for the checks to refuse."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str) or action["type"] not in _FIELDS:
        return action
    kind = action["type"]
    required, optional = _FIELDS[kind]
    out = {key: value for key, value in action.items() if key == "type" or key in required or key in optional}
    if "side" in out and out["side"] is None:
        del out["side"]  # earlier versions read a null side as no side
    if kind == "discard" and "cards" not in out:
        out["cards"] = []
    why = out.get("why")
    side = out.get("side")
    if "why" in out and not (isinstance(why, str) and why.strip() and _is_whole(side) and side in (0, 1)
                             and levels[side] is not None):
        del out["why"]  # a "why" the app never wrote: earlier versions showed it, the rules ignored it
    return out


def _looks_like_old_spectator(data: Mapping[str, Any], setup: Mapping[str, Any], actions: list[Any]) -> bool:
    """An earlier version's spectator copy: seed 0, real cards, nobody for the app, every
    action in force and only the public fields of play/pass/next_round — exactly what
    that version's ``public_game`` wrote."""
    position = data.get("position", len(actions))
    if data.get("seed") != 0 or isinstance(data.get("seed"), bool) or setup.get("deck") != "table":
        return False
    if "spectator" in setup or position != len(actions) or not actions:
        return False
    sides = setup.get("sides")
    if not isinstance(sides, list) or any(not isinstance(side, Mapping) or "controller" in side or "level" in side
                                          for side in sides):
        return False
    for action in actions:
        if not isinstance(action, Mapping) or action.get("type") not in ("play", "pass", "next_round"):
            return False
        if any(key not in _PUBLIC_FIELDS[action["type"]] for key in action):
            return False
    return True


def upgrade(data: Mapping[str, Any]) -> dict[str, Any]:
    """A game saved (or shared) before save schema 3, made to replay as it was played.

    Earlier versions read only the fields they knew: unknown fields of a move, a
    ``"why"`` on a move the app did not make, a null ``side`` are dropped and a
    discard without its cards keeps every card, which changes nothing in the replay
    (setup note ``"fields"``). A spectator's copy from before copies were marked (seed
    0, real cards, only public moves, nothing to redo) is marked ``"spectator": true``
    (note ``"spectator"``). The notes (:data:`UPGRADE_NOTES`) show in the conflict log.
    Data this cannot read is returned as it is, for the checks to refuse.
    """
    if not isinstance(data, Mapping):
        raise ArgumentError(f"upgrade takes a saved game as an object (got {type(data).__name__})")
    out = dict(data)
    setup, actions = out.get("setup"), out.get("actions")
    if not isinstance(setup, Mapping) or not isinstance(actions, (list, tuple)):
        return out
    setup = dict(setup)
    sides = setup.get("sides")
    levels: list[Any] = [None, None]
    if isinstance(sides, (list, tuple)):
        for s, side in enumerate(list(sides)[:2]):
            if isinstance(side, Mapping) and side.get("controller") == "app":
                levels[s] = side.get("level", "normal")
    actions = list(actions)
    notes = set()
    cleaned = [_old_action(action, levels) for action in actions]
    if cleaned != actions:
        notes.add("fields")
    if _looks_like_old_spectator(out, setup, actions):
        setup["spectator"] = True
        notes.add("spectator")
    if notes:
        old = setup.get("upgraded")
        known = set(old) if isinstance(old, (list, tuple)) and all(isinstance(n, str) for n in old) else set()
        setup["upgraded"] = sorted(known | notes)
        out["setup"] = setup
        out["actions"] = cleaned
    return out


# ---------------------------------------------------------------------------
# Undo past a hand that was seen (issue 21)


def undo_warning(game: Game, position: int) -> str | None:
    """What the table must hear before going back to *position*, or ``None``.

    Dealing replays from the seed, so a discard undone and made again draws from the
    same deck: a player who has seen the cards a discard drew (the refill was shown
    behind the curtain) would discard again knowing which cards come next (OIC-8,
    OIC-9). Undoing past such a discard of a side people play asks first. The app's
    own discards (solo) learn nothing: it decides again from the same position.
    Nothing to warn about in a spectator's copy or with real cards.
    """
    if not isinstance(game, Game) or game.kind != KIND:
        raise ArgumentError("undo_warning takes a conflict game")
    position = _whole(position, "the position", 0, len(game.actions))
    setup = game.setup
    if setup.get("deck") != "app" or setup.get("spectator") is True or position >= game.position:
        return None
    levels = [side.get("level") if side.get("controller") == "app" else None for side in setup["sides"]]
    seen: list[str] = []
    for action in game.actions[position:game.position]:
        if action.get("type") != "discard" or not action.get("cards"):
            continue
        side, player = action.get("side"), action.get("player")
        if levels[side] is not None:
            continue
        raw = setup["sides"][side]
        name = raw["name"] if len(raw["players"]) == 1 else f"{raw['players'][player]['name']} ({raw['name']})"
        if name not in seen:
            seen.append(name)
    if not seen:
        return None
    if len(seen) == 1:
        who, pronoun, whose = seen[0], ("them" if " (" in seen[0] else "it"), ("their" if " (" in seen[0] else "its")
        return (f"{who} has seen the cards {whose} discard drew. Undoing lets {pronoun} discard again "
                "knowing which cards come next (OIC-8). Undo anyway?")
    return (f"{_join_and(seen)} have seen the cards their discards drew. Undoing lets them discard again "
            "knowing which cards come next (OIC-8). Undo anyway?")


def _join_and(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def replay_work(setup: Mapping[str, Any], actions: Iterable[Any]) -> int:
    """Issue 30: the work of replaying ``actions`` (see :func:`engine.game.replay_work`):
    a discard, a card or a round costs about 200 plus a quarter a organization on the
    table (measured with the largest legal sides, tests/maxgames.py, ``make bench``)."""
    organizations = 0
    sides = setup.get("sides") if isinstance(setup, Mapping) else None
    for side in sides if isinstance(sides, (list, tuple)) else ():
        players = side.get("players") if isinstance(side, Mapping) else None
        for player in players if isinstance(players, (list, tuple)) else ():
            orgs = player.get("organizations") if isinstance(player, Mapping) else None
            organizations += len(orgs) if isinstance(orgs, (list, tuple)) else 0
    return sum(1 for _ in actions) * (200 + min(organizations, 1000) // 4)
