"""Organizations In Conflict: the values (OIC-1 … OIC-4, OIC-14 … OIC-17), settings and
constants, and the checks of the arguments every part of the package takes.

:class:`Scope` (the OIC-3 table), the variants (:data:`VARIANTS`), house rules
(:data:`HOUSE_RULES`), rulings (:data:`RULINGS`), the immutable table
(:class:`Organization`, :class:`Player`, :class:`Side`, :class:`Play`,
:class:`RoundResult`, :class:`ConflictState`) and what a setup may say of who plays a
side (:data:`CONTROLLERS`, :data:`APP_LEVELS`) or of an upgrade (:data:`UPGRADE_NOTES`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Any

from ..cards import Card, Suit
from ..game import ActionError, ArgumentError
from ..rules import Variant
from ..text import shown

KIND = "conflict"

#: What a spectator link (:func:`public_game`) shows, in the Share drawer's words.
SPECTATOR_VIEW = "the cards played, the ratings and the history. No hands, no discards, no deck order and no seed."


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

    # The row's columns (set by __new__; annotations only, so not members).
    offset: int
    engage_threshold: int
    round_length: str
    label: str
    unit: str
    phrase: str
    beyond: str

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
        power = whole(power, "the power", 0)
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
            f"Unknown scope: {quote(value)} (scopes are home, regional, war, world war, superconflict)"
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
    "HR-OIC-4": "The app plays its side from the game's seed, what the table can see and its own hand, "
                "never from a link: a conflict that comes from another device (a link or an imported file) "
                "opens only if every discard, card and pass of a side the app plays is the move the app "
                "makes there; otherwise it is refused and nothing is saved. Your own saves on this tablet "
                "open as they are. Checking takes time, so a conflict against the app holds as many of its "
                "moves as its link can carry checked (about 200 cards of a Hard side): past that, the app "
                "does not move, and you go on in a new conflict.",
})

#: The house rules about opening a game from outside (the app's moves checked, issue 35): shown
#: with the others, not part of a game's printed record (engine.record).
OPENING_RULES: tuple[str, ...] = ("HR-OIC-4",)

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


def setting(rules: Mapping[str, Any] | None, key: str) -> Any:
    """The choice of variant ``key`` in resolved rules settings (``None``: the default)."""
    if rules is None:
        return _DEFAULTS[key]
    return rules.get(key, _DEFAULTS[key])


# ---------------------------------------------------------------------------
# Words the package's messages share


quote = shown  # a bad value in a message: short, whatever it is (engine.text.shown)


def num(value: int) -> str:
    """A number with a true minus sign."""
    return f"−{-value}" if value < 0 else str(value)


def join_or(words: list[str]) -> str:
    """"a, b or c"."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


# ---------------------------------------------------------------------------
# Arguments: what the public functions take (issue 20: a clear refusal, never a TypeError)


def is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def whole(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as a whole number in ``low`` … ``high`` (``True`` is not a number)."""
    if not is_whole(value) or (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            span = f"from {low} to {high}"
        elif low is not None:
            span = f"{low} or more"
        else:
            span = "any whole number"
        raise ArgumentError(f"{what[:1].upper() + what[1:]} must be a whole number, {span} (got {quote(value)})")
    return int(value)


def checked_state(state: Any) -> ConflictState:
    """``state`` when it is a conflict's state (:class:`ArgumentError` otherwise)."""
    if not isinstance(state, ConflictState):
        raise ArgumentError(f"Not the state of a conflict: {type(state).__name__} "
                            "(replay a conflict game, or call start, to get one)")
    return state


def checked_side(state: ConflictState, side: int) -> Side:
    """The side ``side`` (0 or 1) of ``state`` (:class:`ActionError` otherwise)."""
    if not is_whole(side) or side not in (0, 1):
        raise ActionError(f"There is no side {quote(side)} (sides are 0 and 1)")
    return state.sides[side]


def checked_player(state: ConflictState, side: int, player: int) -> Player:
    """Player ``player`` of side ``side`` (:class:`ActionError` when there is none)."""
    s = checked_side(state, side)
    if not is_whole(player) or not 0 <= player < len(s.players):
        raise ActionError(f"There is no player {quote(player)} on {s.name} "
                          + (f"(players are numbered 0 to {len(s.players) - 1})" if len(s.players) > 1
                             else "(its one player is number 0)"))
    return s.players[player]


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


class InPlay:
    """What a conflict's state and the app's observation of it (``opponent.Observation``) read
    alike from the ``rules`` in play and this round's ``chain`` of plays."""

    rules: tuple[tuple[str, Any], ...]
    chain: tuple[Play, ...]

    @property
    def settings(self) -> dict[str, Any]:
        """The rules in play as a mapping (key → choice)."""
        return dict(self.rules)

    @property
    def current_card(self) -> Card | None:
        """OIC-11: only the current (last played) card matters."""
        return self.chain[-1].card if self.chain else None


@dataclass(frozen=True)
class ConflictState(InPlay):
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
    def defender(self) -> int:
        return 1 - self.aggressor

    @property
    def first_card(self) -> Card | None:
        return self.chain[0].card if self.chain else None

    @property
    def is_over(self) -> bool:
        return self.phase == "conflict-over"

    @property
    def elapsed(self) -> str:
        """OIC-17: in-world time of the finished rounds."""
        from .rules import in_world_time  # the rules are made of these values

        return in_world_time(self.scope, len(self.results))


# ---------------------------------------------------------------------------
# What a setup may say besides the sides: who plays them, what an upgrade did


#: Who plays a side (setup ``"controller"``): people at the table, or the app (solo).
CONTROLLERS: tuple[str, ...] = ("people", "app")
#: How well the app plays a side (setup ``"level"``, see :mod:`engine.conflict.opponent`).
APP_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")

#: What :func:`upgrade` may have done to a game from an earlier version (setup
#: ``"upgraded"``), in players' words; the conflict log shows it.
UPGRADE_NOTES: Mapping[str, str] = MappingProxyType({
    "fields": "Opened from an earlier version of the app: fields its moves carried that changed nothing "
              "were dropped (the game replays exactly as it was played).",
    "spectator": "Opened from an earlier version of the app: recognised as a spectator's copy (real cards, "
                 "no hands, no seed), so it is read-only like every spectator view.",
})
