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

This package is the system (:mod:`engine.system`); its face, this module, holds its
public names (``__all__``). The parts, by file:

* ``values.py`` — :data:`KIND`, :class:`Scope` (the OIC-3 table; OIC-4, OIC-18), the
  variants (:data:`VARIANTS`: OIC-9, OIC-12, OIC-13), house rules (:data:`HOUSE_RULES`:
  HR-OIC-1 … HR-OIC-3), rulings (:data:`RULINGS`), :data:`SCENARIO_CHOICES` (OIC-7),
  and the immutable table: :class:`Organization`, :class:`Player`, :class:`Side`,
  :class:`Play`, :class:`RoundResult`, :class:`ConflictState` (:data:`PHASES`);
* ``rules.py`` — pure rule functions, each docstring starting with its RULES.md id:
  :func:`max_card_size`, :func:`is_usable`, :func:`card_value`, :func:`trumps`,
  :func:`trumped_by`, :func:`can_follow`, :func:`why_not_follow`, :func:`can_engage`,
  :func:`in_world_time`, :func:`hand_size`, :func:`explain_max_size`; a table's ratings
  (:func:`side_ratings`, :func:`player_ratings`, :func:`player_max_sizes`,
  :func:`max_size_reason`, :func:`best_organization`, :func:`engageable_suits`) and
  OIC-19's totals (:func:`call_totals`, :func:`side_ahead`, :func:`call_sum`,
  :func:`call_preview`); cards may be given as :class:`~engine.cards.Card` or as tokens
  ("9h"), suits as :class:`~engine.cards.Suit` or letters;
* ``setup.py`` — :func:`normalize_setup`, :func:`setup_sides`, :func:`setup_warnings`
  and the source's worked example :func:`purple_dragon_setup` (OIC-7);
* ``referee.py`` — :data:`ACTION_TYPES` and :func:`normalize_action` (the one check of
  an action, citing its clause), :func:`legal_plays`, and "may this be done?" in one
  shape for every action: ``check_*`` raises, ``can_*`` answers —
  :func:`check_discard` / :func:`can_discard` (OIC-8), :func:`check_play` /
  :func:`can_play` (OIC-5, OIC-8, OIC-10, OIC-11, OIC-13), :func:`check_pass` /
  :func:`can_pass` (OIC-13, OIC-15), :func:`check_next_round` / :func:`can_next_round`
  (OIC-17), :func:`check_call` / :func:`can_call` (OIC-19);
* ``steps.py`` — :func:`start`, :func:`step`, :func:`describe`, :func:`status`,
  :func:`standing`, and the hooks :func:`equipment`, :func:`undo_warning`,
  :func:`replay_work`;
* ``public.py`` — :func:`public_game`, the spectator's copy;
* ``upgrade.py`` — :func:`upgrade`: games saved before save schema 3
  (:data:`UPGRADE_NOTES`);
* ``record.py`` — :func:`record_part`: the conflict's part of the printable record;
* ``opponent.py`` — the app's player (solo, issue 12): :mod:`engine.conflict.opponent`,
  also importable as :mod:`engine.solo`.

The rules it covers: RULES.md section 1, OIC-1 … OIC-19, and the house rules
HR-OIC-1 … HR-OIC-3.

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
text, the app's own explanation of its move (solo, :mod:`engine.conflict.opponent`). It changes
nothing in the rules; :func:`describe` shows it, :func:`public_game` drops it; a move
of a side people play carries none.
A side of the setup may say who plays it: ``"controller": "app"`` with a ``"level"``
(``"easy"``, ``"normal"``, ``"hard"``) — app deck only; people are the default and
are left out of the canonical setup.
"""

from __future__ import annotations

from ..game import ArgumentError, SetupError
from . import opponent
from .opponent import app_move_work, check_app_move
from .public import public_game
from .record import record_part
from .referee import (
                     ACTION_TYPES,
                     WHY_MAX,
                     can_call,
                     can_discard,
                     can_next_round,
                     can_pass,
                     can_play,
                     check_call,
                     check_discard,
                     check_next_round,
                     check_pass,
                     check_play,
                     legal_plays,
                     normalize_action,
)
from .rules import (
                     best_organization,
                     call_preview,
                     call_sum,
                     call_totals,
                     can_engage,
                     can_follow,
                     card_value,
                     engageable_suits,
                     explain_max_size,
                     hand_size,
                     in_world_time,
                     is_usable,
                     max_card_size,
                     max_size_reason,
                     player_max_sizes,
                     player_ratings,
                     side_ahead,
                     side_ratings,
                     trumped_by,
                     trumps,
                     why_not_follow,
)
from .seats import seat_action, seat_private, seats
from .setup import normalize_setup, purple_dragon_setup, setup_sides, setup_warnings
from .steps import describe, equipment, replay_work, standing, start, status, step, undo_warning
from .upgrade import upgrade
from .values import (
                     APP_LEVELS,
                     CAMPAIGN_SEASON,
                     CONTROLLERS,
                     HOUSE_RULES,
                     KIND,
                     OPENING_RULES,
                     PHASES,
                     RULINGS,
                     SCENARIO_CHOICES,
                     SPECTATOR_VIEW,
                     UPGRADE_NOTES,
                     VARIANTS,
                     ConflictState,
                     Organization,
                     Play,
                     Player,
                     RoundResult,
                     Scope,
                     Side,
)

__all__ = [
    # the system (engine.system): its names and hooks
    "KIND", "VARIANTS", "SPECTATOR_VIEW", "ACTION_TYPES", "HOUSE_RULES", "OPENING_RULES", "RULINGS",
    "normalize_setup", "start", "normalize_action", "step", "describe", "public_game", "check_app_move",
    "app_move_work", "seats", "seat_private", "seat_action",
    "upgrade", "standing", "status", "equipment", "undo_warning", "replay_work", "record_part",
    # errors (engine.game's, under the names this module always had)
    "SetupError", "ArgumentError",
    # values
    "Scope", "CAMPAIGN_SEASON", "SCENARIO_CHOICES", "PHASES", "CONTROLLERS", "APP_LEVELS", "UPGRADE_NOTES",
    "Organization", "Player", "Side", "Play", "RoundResult", "ConflictState",
    # rule functions and ratings
    "max_card_size", "is_usable", "card_value", "trumps", "trumped_by", "can_follow",
    "why_not_follow", "can_engage", "in_world_time", "hand_size", "explain_max_size",
    "side_ratings", "player_ratings", "player_max_sizes", "max_size_reason", "best_organization",
    "engageable_suits", "call_totals", "side_ahead", "call_sum", "call_preview",
    # setup
    "setup_sides", "setup_warnings", "purple_dragon_setup",
    # the referee: may this be done?
    "WHY_MAX", "legal_plays",
    "check_discard", "can_discard", "check_play", "can_play", "check_pass", "can_pass",
    "check_next_round", "can_next_round", "check_call", "can_call",
    # the app's player
    "opponent",
]
