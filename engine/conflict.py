"""Organizations In Conflict (RULES.md section 1, clauses OIC-1 … OIC-18).

Two sides — alliances of organizations run by 1–8 players each — fight a
conflict at one scope (home ground … superconflict) with playing cards. Each
organization has a power, a suit and a location; a side's rating in a suit is
the power of its best organization of that suit, and its *max card size* in the
suit is that rating minus the offset of the side's own scope. The aggressor
opens with a card in a suit where the defender can be engaged; the sides then
alternate, each card beating the current one (higher in suit, a face card of the
suit, or any card of the trumping suit). The side that cannot (or will not) play
passes and loses the round; the ratings change by one; the loser opens the next
round; the conflict ends when a side can no longer be engaged in any suit.

The module has three layers:

* pure rule functions on values (:func:`max_card_size`, :func:`is_usable`,
  :func:`card_value`, :func:`trumps`, :func:`can_follow`, :func:`why_not_follow`,
  :func:`can_engage`, :func:`in_world_time`, :func:`hand_size`) — each docstring
  starts with its RULES.md id;
* the session protocol of :mod:`engine.game` (``KIND``, ``VARIANTS``,
  :func:`normalize_setup`, :func:`start`, :func:`step`, :func:`describe`,
  :func:`public_game`) over an immutable :class:`ConflictState`;
* helpers for the table UI (:func:`legal_plays`, :func:`check_play`,
  :func:`side_ratings`, :func:`player_ratings`, :func:`player_max_sizes`,
  :func:`max_size_reason`, :func:`setup_warnings`, :func:`status` …).

Deck modes (setup ``"deck"``): ``"app"`` — the app shuffles, deals, and holds the
hands; ``"table"`` — the players use real cards and enter each card played (no
hands, no discard phase; a side cannot play the same card twice in one round).

Actions (plain JSON dicts):

* ``{"type": "discard", "side": s, "player": p, "cards": ["2H", "3C"]}`` — app
  mode, discard phase (OIC-8); ``cards`` may be empty (keep all) or a string
  ``"2H 3C"``;
* ``{"type": "play", "player": p, "card": "9S"}`` — the side whose turn it is
  plays one card of its player ``p`` (optional ``"side"`` is checked);
* ``{"type": "pass"}`` — the side to play passes: the round ends (OIC-13, OIC-15);
* ``{"type": "next_round"}`` — after a round: fresh shuffle and hands (OIC-9,
  OIC-17).

A discard, play or pass may carry ``"why"``: one line of text, the app's own
explanation of a move it made for a side it plays (solo, :mod:`engine.solo`). It
changes nothing in the rules; :func:`describe` shows it, :func:`public_game` drops it.
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
from typing import Any, Iterable, Mapping

from .cards import Card, CardError, Rank, Suit, full_deck, parse_card, shuffled_deck
from .game import ActionError, Game, RuleError
from .text import setup_text, text_problem
from .rules import Variant, resolve_rules

__all__ = [
    "KIND", "VARIANTS", "HOUSE_RULES", "RULINGS", "SCENARIO_CHOICES", "SetupError", "Scope",
    "Organization", "Player", "Side", "Play", "RoundResult", "ConflictState",
    "max_card_size", "is_usable", "card_value", "trumps", "trumped_by", "can_follow",
    "why_not_follow", "can_engage", "in_world_time", "hand_size",
    "normalize_setup", "setup_sides", "setup_warnings", "purple_dragon_setup",
    "start", "step", "describe", "public_game", "status",
    "legal_plays", "check_play", "side_ratings", "player_ratings", "player_max_sizes",
    "max_size_reason", "explain_max_size", "best_organization", "engageable_suits",
    "CONTROLLERS", "APP_LEVELS", "WHY_MAX",
]

KIND = "conflict"

#: What a spectator link (:func:`public_game`) shows, in the Share drawer's words.
SPECTATOR_VIEW = "the cards played, the ratings and the history. No hands, no discards, no deck order and no seed."


class SetupError(ValueError):
    """A conflict setup that cannot be played (message names the field)."""


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
        raise ValueError(
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
RULINGS: tuple[str, ...] = ("OIC-4", "OIC-6", "OIC-9", "OIC-13", "OIC-16", "OIC-18")

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


def _quote(value: object) -> str:
    if isinstance(value, str):
        return '"' + value + '"'
    return repr(value)


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
# Pure rule functions


def max_card_size(power: int, scope: Scope | str) -> int:
    """OIC-3/OIC-5: max card size in a suit = rating − the offset of the side's scope.

    OIC-18 (ruling): beyond home ground an organization at or below the scope's
    threshold has no influence there, so its suit plays face cards only: the size is
    then at most 0 (``max_card_size(11, "regional")`` is 0, not 1).
    """
    scope = Scope.parse(scope)
    size = power - scope.offset
    if not scope.has_influence(power):
        return min(size, 0)
    return size


def is_usable(card: Card, max_size: int) -> bool:
    """OIC-5/OIC-6: face cards always; number cards (ace = 1) only up to *max_size*."""
    if card.rank.is_face:
        return True
    return card_value(card) <= max_size


def card_value(card: Card) -> int:
    """OIC-11: the value of *card*: pips (ace 1, OIC-6), jack 1, queen 2, king 3."""
    rank = card.rank
    if rank == Rank.ACE:
        return 1
    if rank == Rank.JACK:
        return 1
    if rank == Rank.QUEEN:
        return 2
    if rank == Rank.KING:
        return 3
    return int(rank)


def trumps(suit: Suit, rules: Mapping[str, Any] | None = None) -> Suit:
    """OIC-12: the suit that *suit* trumps in the group's trump circle."""
    circle = _setting(rules, "trump_circle")
    try:
        return _TRUMP_CIRCLES[circle][suit]
    except KeyError:
        raise ValueError(f"OIC-12: unknown trump circle {circle!r}") from None


def trumped_by(suit: Suit, rules: Mapping[str, Any] | None = None) -> Suit:
    """OIC-12: the suit that trumps *suit*."""
    for other in Suit:
        if trumps(other, rules) == suit:
            return other
    raise AssertionError("a trump circle covers every suit")  # pragma: no cover


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
        if card_value(card) > card_value(current):
            return None
        mine = " (an ace counts 1)" if card.rank == Rank.ACE else ""
        theirs = (f" ({_article(current.rank.noun)} {current.rank.noun} counts {card_value(current)})"
                  if current.rank.is_face or current.rank == Rank.ACE else "")
        return ("OIC-11", f"the {card.label}{mine} neither beats the {current.label}{theirs} "
                          "nor trumps it")
    if trumps(card.suit, rules) == current.suit:
        return None
    return ("OIC-11", f"the {card.label} neither beats the {current.label} nor trumps it "
                      f"(only {trumped_by(current.suit, rules).noun} trump {current.suit.noun})")


def can_follow(card: Card, current: Card | None, rules: Mapping[str, Any] | None = None) -> bool:
    """OIC-11: may *card* follow *current*? (OIC-12 trumps, OIC-13 face on face.)

    Same suit and higher value; or a face card of the same suit; or any card of
    the suit that trumps the current one. ``current=None`` (no card yet) allows
    any card. Usability (OIC-5) and the first card's suit (OIC-10) are separate.
    """
    return _follow_problem(card, current, rules) is None


def why_not_follow(card: Card, current: Card | None,
                   rules: Mapping[str, Any] | None = None) -> str | None:
    """OIC-11: why *card* may not follow *current*, for a player; ``None`` if it may."""
    problem = _follow_problem(card, current, rules)
    return None if problem is None else f"{problem[0]}: {problem[1]}"


def can_engage(rating: int, scope: Scope | str) -> bool:
    """OIC-3/OIC-4: can a suit with this rating be engaged at *scope*? (rating above threshold)"""
    return rating > Scope.parse(scope).engage_threshold


def in_world_time(scope: Scope | str, rounds: int) -> str:
    """OIC-3/OIC-17: how much in-world time *rounds* rounds take at *scope*.

    War rounds are months, but only four can be fought a year (the campaign season).
    """
    scope = Scope.parse(scope)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 0:
        raise ValueError("The number of rounds must be a whole number, 0 or more")
    if scope is Scope.WAR and rounds > 0:
        seasons = math.ceil(rounds / CAMPAIGN_SEASON)
        return f"{_plural(seasons, 'campaign season')} ({_plural(rounds, 'month')} of fighting)"
    return _plural(rounds, scope.unit)


_HAND_SIZES = {1: 15, 2: 8, 3: 7, 4: 6, 5: 5, 6: 4, 7: 3, 8: 2}


def hand_size(players_on_side: int) -> int:
    """OIC-14: cards per player for a side of 1–8 players (1→15, 2→8, … 8→2)."""
    try:
        return _HAND_SIZES[players_on_side]
    except (KeyError, TypeError):
        raise ValueError("OIC-14: a side has 1 to 8 players") from None


def explain_max_size(rating: int | None, scope: Scope | str, suit: Suit,
                     organization: str | None = None) -> str:
    """OIC-5: the sum behind a max card size, e.g. "spades 14 − 5 at home ground = 9".

    OIC-18: where the best organization has no influence at the side's scope (and the
    plain sum alone would have allowed number cards), says so instead ("clubs: fire department (11) has no influence beyond home ground …").
    """
    scope = Scope.parse(scope)
    if rating is None:
        return f"no organization in {suit.noun}: face cards only"
    if not scope.has_influence(rating) and rating - scope.offset >= 1:
        who = f"{organization} ({rating})" if organization else f"an organization of power {rating}"
        return (f"{suit.noun}: {who} has no influence {scope.beyond} (OIC-18, ruling: power must be "
                f"above {scope.engage_threshold}): face cards only")
    size = max_card_size(rating, scope)
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
    * ``winner`` / ``end_message`` — when the conflict is over (OIC-17).
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
    unknown = sorted(str(k) for k in value if k not in allowed)
    if unknown:
        raise SetupError(f"{where}: unknown field {', '.join(_quote(k) for k in unknown)}")


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


def normalize_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """Validated, canonical setup JSON (see the module docstring for its shape).

    Raises :class:`SetupError` with a message naming the field. Defaults:
    ``aggressor`` 0, ``deck`` "app", an organization's ``location`` "".
    """
    setup = _mapping(setup, "The setup")
    _check_keys(setup, {"sides", "scope", "aggressor", "deck", "spectator"}, "Setup")
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
    return out


def _spectator_flag(setup: Mapping[str, Any], deck: str) -> bool:
    """``"spectator": true`` marks a spectator's copy (:func:`public_game`): table-deck
    mode, read-only. Absent (or false) for every game played at a table."""
    flag = setup.get("spectator", False)
    if not isinstance(flag, bool):
        raise SetupError("Setup: 'spectator' must be true (a spectator's copy) or false")
    if flag and deck != "table":
        raise SetupError("Setup: a spectator's copy holds no hidden cards: its deck is 'table'")
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
    return [suit for suit in Suit if can_engage(_rating(side, suit) or 0, scope)]


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


def _side(state: ConflictState, side: int) -> Side:
    if not isinstance(side, int) or isinstance(side, bool) or side not in (0, 1):
        raise ActionError(f"There is no side {side!r} (sides are 0 and 1)")
    return state.sides[side]


def _player(state: ConflictState, side: int, player: int) -> Player:
    s = _side(state, side)
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < len(s.players):
        raise ActionError(f"There is no player {player!r} on {s.name} "
                          f"(players are numbered 0 to {len(s.players) - 1})")
    return s.players[player]


def side_ratings(state: ConflictState, side: int) -> dict[Suit, int]:
    """OIC-2: the side's rating per suit — its best organization over all players (0 if none)."""
    s = _side(state, side)
    return {suit: _rating(s, suit) or 0 for suit in Suit}


def player_ratings(state: ConflictState, side: int, player: int) -> dict[Suit, int]:
    """OIC-14: a player's own rating per suit (0 where the player has no organization)."""
    _player(state, side, player)
    s = state.sides[side]
    return {suit: _rating(s, suit, player) or 0 for suit in Suit}


def player_max_sizes(state: ConflictState, side: int, player: int) -> dict[Suit, int]:
    """OIC-5/OIC-14: a player's max card size per suit (from the side's own scope)."""
    scope = state.sides[side].scope
    return {suit: max_card_size(rating, scope)
            for suit, rating in player_ratings(state, side, player).items()}


def max_size_reason(state: ConflictState, side: int, player: int, suit: Suit) -> str:
    """OIC-5: the sum behind a player's max card size, e.g. "spades 14 − 5 at home ground = 9"."""
    _player(state, side, player)
    s = state.sides[side]
    best = _best(s, suit, player)
    name = None if best is None else s.players[best[0]].organizations[best[1]].name
    return explain_max_size(_rating(s, suit, player), s.scope, suit, name)


def best_organization(state: ConflictState, side: int, suit: Suit,
                      player: int | None = None) -> Organization | None:
    """OIC-16: the organization whose power is the side's (or player's) rating in *suit*."""
    s = _side(state, side)
    found = _best(s, suit, player)
    return None if found is None else s.players[found[0]].organizations[found[1]]


def engageable_suits(state: ConflictState, side: int) -> list[Suit]:
    """OIC-3/OIC-4/OIC-10: the suits in which *side* can be engaged at the conflict's scope."""
    return _side_engageable(_side(state, side), state.scope)


# ---------------------------------------------------------------------------
# Checking a play


def _without_id(message: str) -> str:
    """A message without its leading rule id, to quote it inside another one."""
    return re.sub(r"^[A-Z]+(?:-[A-Z]+)?-\d+: ", "", message)


def _phase_problem(state: ConflictState, acting: str) -> RuleError | None:
    if state.phase == "conflict-over":
        return RuleError("OIC-17", f"the conflict is over. {_without_id(state.end_message)}")
    if state.phase == "round-over":
        return RuleError("OIC-17", f"round {state.round} is over — start the next round")
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
    size = max_card_size(rating or 0, s.scope)
    if not is_usable(card, size):
        your, you_have = _whose(state, side, player)
        if rating is None:
            return RuleError("OIC-5", f"{you_have} no organization in {card.suit.noun}, so only face "
                                      f"cards of {card.suit.noun} are usable")
        if size < 1:
            best = best_organization(state, side, card.suit, player)
            why = explain_max_size(rating, s.scope, card.suit, best.name if best else None)
            rule = "OIC-18" if size == 0 and rating - s.scope.offset >= 1 else "OIC-5"
            return RuleError(rule, f"{your} max card size in {card.suit.noun} is {_num(size)} ({why})")
        return RuleError("OIC-5", f"the {card.label} is above {your} max card size in "
                                  f"{card.suit.noun} ({size})")
    if not state.chain:
        defender = state.sides[1 - side]
        if not can_engage(_rating(defender, card.suit) or 0, state.scope):
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
    if not isinstance(card, Card):
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
    if state.phase != "play" or state.turn is None:
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
        sizes = {suit: max_card_size(_rating(s, suit, p) or 0, s.scope) for suit in Suit}
        cards: Iterable[Card] = state.hands[side][p] if state.deck_mode == "app" else full_deck()
        for card in cards:
            if card in played or not is_usable(card, sizes[card.suit]):
                continue
            if current is None:
                if card.suit in engageable:
                    plays.append((p, card))
            elif can_follow(card, current, settings):
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
    settings = resolve_rules(VARIANTS, rules)
    sides = setup_sides(normal)
    scope = Scope(normal["scope"])
    state = ConflictState(
        sides=sides, initial_sides=sides, scope=scope, deck_mode=normal["deck"],
        rules=tuple(sorted(settings.items())), round=1, phase="play",
        aggressor=normal["aggressor"], turn=normal["aggressor"],
        hands=tuple(tuple(() for _ in side.players) for side in sides),
        discarded=tuple(tuple(False for _ in side.players) for side in sides),
        draw_piles=(), discard_piles=(),
    )
    ended = _conflict_end(sides, scope, 0)
    if ended is not None:
        return replace(state, phase="conflict-over", turn=None, winner=ended[0], end_message=ended[1])
    return _deal(state, rng)


def _action_type(action: Any) -> str:
    if not isinstance(action, Mapping):
        raise ActionError("An action must be an object with a type")
    kind = action.get("type")
    if kind not in ("discard", "play", "pass", "next_round"):
        raise ActionError(f"Unknown action type: {_quote(kind)} (discard, play, pass, next_round)")
    return kind


def _int_field(action: Mapping[str, Any], key: str) -> int:
    if key not in action:
        raise ActionError(f"The {action.get('type')} action needs a {key!r}")
    value = action[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise ActionError(f"The {key!r} of a {action.get('type')} action must be a whole number")
    return value


def _card_list(value: Any) -> list[Card]:
    if isinstance(value, str):
        tokens: list[Any] = re.split(r"[\s,]+", value.strip()) if value.strip() else []
    elif isinstance(value, (list, tuple)):
        tokens = list(value)
    else:
        raise ActionError("The cards of a discard must be a list of cards like [\"2H\", \"3C\"]")
    try:
        return [parse_card(token) for token in tokens]
    except CardError as err:
        raise ActionError(str(err)) from None


def _discard(state: ConflictState, action: Mapping[str, Any], rng: random.Random) -> ConflictState:
    """OIC-8: one player's discard and refill, once per round."""
    side = _int_field(action, "side")
    player = _int_field(action, "player")
    _player(state, side, player)
    cards = _card_list(action.get("cards", []))
    if len(set(cards)) != len(cards):
        raise ActionError("The same card is listed twice in the discard")
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
    player = _int_field(action, "player")
    side = action.get("side")
    if side is not None:
        side = _int_field(action, "side")
    if "card" not in action:
        raise ActionError("The play action needs a 'card'")
    try:
        card = parse_card(action["card"])
    except CardError as err:
        raise ActionError(str(err)) from None
    check_play(state, player, card, side=side)
    turn = state.turn
    assert turn is not None
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
    side = action.get("side")
    if side is not None:
        side = _int_field(action, "side")
        _side(state, side)
    problem = _phase_problem(state, "pass")
    if problem is not None:
        raise problem
    loser = state.turn
    assert loser is not None
    if side is not None and side != loser:
        raise RuleError("OIC-11", f"it is {state.sides[loser].name}'s turn, not {state.sides[side].name}'s")
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
        new = replace(new, phase="conflict-over", winner=ended[0], end_message=ended[1])
    return new


def _next_round(state: ConflictState, rng: random.Random) -> ConflictState:
    """OIC-17/OIC-9: the loser of the last round opens the next; fresh shuffle and hands."""
    if state.phase != "round-over":
        if state.phase == "conflict-over":
            raise RuleError("OIC-17", f"the conflict is over. {_without_id(state.end_message)}")
        raise RuleError("OIC-17", f"round {state.round} is still being played")
    loser = state.results[-1].loser
    new = replace(state, round=state.round + 1, aggressor=loser, chain=())
    return _deal(new, rng)


#: Longest ``"why"`` of an action (the app's one-line explanation of its move).
WHY_MAX = 240


def _why(action: Mapping[str, Any]) -> str | None:
    """The optional ``"why"`` of an action: plain text, at most :data:`WHY_MAX` characters."""
    why = action.get("why")
    if why is None:
        return None
    if not isinstance(why, str) or len(why) > WHY_MAX or text_problem(why):
        raise ActionError(f"The 'why' of an action must be one line of text (at most {WHY_MAX} characters)")
    return why


def step(state: ConflictState, action: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
         rng: random.Random | None = None) -> ConflictState:
    """The state after *action* (see the module docstring). Never mutates *state*.

    The rules settings are those the state started with (``rules`` is accepted for
    the :mod:`engine.game` protocol). ``rng`` is needed for dealing and reshuffles.
    """
    kind = _action_type(action)
    _why(action)
    if kind == "play":
        return _play(state, action)
    if kind == "pass":
        return _pass(state, action)
    if rng is None:
        raise ValueError("step needs the game's random generator for this action")
    if kind == "discard":
        return _discard(state, action, rng)
    return _next_round(state, rng)


def _label_player(state: ConflictState, side: int, player: Any) -> str:
    try:
        s = state.sides[side]
        name = s.players[player].name
    except (IndexError, TypeError):
        return f"player {player}"
    return name


def describe(state: ConflictState, action: Mapping[str, Any]) -> str:
    """A short history label of *action* taken in *state*."""
    if not isinstance(action, Mapping):
        return "Unknown action"
    kind = action.get("type")
    prefix = f"Round {state.round} · "
    why = action.get("why")
    if isinstance(why, str) and why and kind in ("discard", "play", "pass"):
        # The app's own move (solo): its one-line explanation is the label.
        if kind == "discard":
            side = action.get("side")
        else:
            side = state.turn
        if side in (0, 1) and not isinstance(side, bool):
            who = state.sides[side].name
            if kind == "discard" and len(state.sides[side].players) > 1:
                who = f"{_label_player(state, side, action.get('player'))} ({who})"
            return f"{prefix}{who} (the app) {why}"
    if kind == "discard":
        side = action.get("side")
        side_name = state.sides[side].name if side in (0, 1) and not isinstance(side, bool) else "?"
        who = _label_player(state, side if side in (0, 1) else 0, action.get("player"))
        try:
            count = len(_card_list(action.get("cards", [])))
        except ActionError:
            count = 0
        what = "keeps all cards" if count == 0 else f"discards {_plural(count, 'card')}"
        return f"{prefix}{who} ({side_name}) {what}"
    if kind == "play":
        side = state.turn if state.turn is not None else 0
        try:
            card = parse_card(action.get("card")).label
        except CardError:
            card = str(action.get("card"))
        text = f"{prefix}{state.sides[side].name} plays {card}"
        if len(state.sides[side].players) > 1:
            text += f" ({_label_player(state, side, action.get('player'))})"
        current = state.current_card
        try:
            played = parse_card(action.get("card"))
        except CardError:
            played = None
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
    return "Unknown action"


def status(state: ConflictState) -> str:
    """What the table is waiting for, in one sentence."""
    prefix = f"Round {state.round} · "
    if state.phase == "conflict-over":
        return state.end_message
    if state.phase == "round-over":
        last = state.results[-1]
        return f"{last.headline}. {state.sides[last.loser].name} opens round {state.round + 1}."
    if state.phase == "discard":
        waiting = [f"{pl.name} ({side.name})" for s, side in enumerate(state.sides)
                   for p, pl in enumerate(side.players) if not state.discarded[s][p]]
        return f"{prefix}discard (OIC-8): waiting for {_join_or(waiting)}"
    assert state.turn is not None
    name = state.sides[state.turn].name
    current = state.current_card
    if current is None:
        return f"{prefix}{name} opens (OIC-10)"
    return f"{prefix}{name} to play on the {current.label}"


_PUBLIC_FIELDS = {"play": ("type", "player", "card", "side"), "pass": ("type", "side"),
                  "next_round": ("type",)}


def public_game(game: Game) -> Game:
    """A spectator's copy: real-cards (table) mode, no discards, no hands, seed 0.

    Only the play/pass/next_round actions are kept (with their known fields), and
    only the actions in force are kept (the redo stack could reveal cards that
    were never shown), so replaying shows the same chain, ratings and round
    history without any hidden card.
    """
    kept: list[dict[str, Any]] = []
    # Only what has happened: the redo stack may hold cards that were never shown.
    for action in game.actions[: game.position]:
        kind = action.get("type") if isinstance(action, Mapping) else None
        if kind not in _PUBLIC_FIELDS:
            continue
        kept.append({key: action[key] for key in _PUBLIC_FIELDS[kind] if key in action})
    setup = normalize_setup(game.setup)
    setup["deck"] = "table"
    setup["spectator"] = True
    for side in setup["sides"]:  # a spectator watches: nobody plays for the app there
        side.pop("controller", None)
        side.pop("level", None)
    return replace(game, seed=0, setup=setup, actions=tuple(kept), position=len(kept), _tip=None)
