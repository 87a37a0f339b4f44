"""CONSIM: card initiative, suppression, shooting and wounds (RULES.md section 3, CS-1 … CS-13).

The Observer (game master) keeps a roster of combatants — individuals, squads or
vehicles (CS-1) — on two or more sides. Every round each combatant is dealt cards
from one shuffled deck (CS-2, CS-6); suppression and an injury strike the highest
cards at the deal (CS-3), a surprised side gets none (CS-4). Everyone then acts in
card order, aces high, spades > hearts > diamonds > clubs (CS-5): only the current
actor acts, once per card, and a shot ends its turn. Shooting is an aimed shot or
suppressive fire (CS-8, CS-9): the target takes suppression (CS-7), a hit rolls a
wound (CS-10) whose countdowns the app keeps (CS-13); a combatant that was not
fired on for a round sheds its suppression (CS-12).

This package is the system (:mod:`engine.system`, kind ``"initiative"``); its face, this
module, holds its public names (``__all__``). The parts, by file:

* ``values.py`` — :data:`KIND`, the enums (:class:`Training`, :class:`Trait`,
  :class:`Grain`, :class:`Cover`, :class:`WoundStatus`, :class:`Condition`), the
  advantages (:data:`ADVANTAGES`, CS-2), the variants (:data:`VARIANTS`: the CS-3 pulp
  floor, HR-CS-6 whose cards, HR-CS-7 whose dice), house rules (:data:`HOUSE_RULES`:
  HR-CS-1 … HR-CS-8), rulings (:data:`RULINGS`), :data:`LEGACY_RULES`, and the immutable
  tracker: :class:`Combatant`, :class:`Status`, :class:`Turn`, :class:`DealtHand`,
  :class:`ShotTarget`, :class:`Shot`, :class:`LogEntry`, :class:`ConsimState`, with
  :class:`ShotOdds`, :class:`Forecast` and :class:`DieCall`; :func:`placeholder`, :data:`HIDDEN_GROUP` (HR-CS-8);
* ``rules.py`` — pure rule functions, each docstring starting with its RULES.md id:
  :func:`initiative_key`, :func:`initiative_order` (CS-5), :func:`wound_status` (CS-10),
  :func:`cards_due` (CS-2, CS-3, CS-4), :func:`to_hit_target`, :func:`hit_modifier`,
  :func:`damage_modifier`, :func:`suppression_multiplier`, :func:`suppression_caused`,
  :func:`base_ticks`, :func:`hit_chance`, :func:`wound_distribution`, :func:`shot_odds`
  (CS-7 … CS-11), :func:`apply_wound`, :func:`countdown_dice` (CS-10, CS-13); who acts
  now (:func:`current_turn`, :func:`acting`, :func:`can_act`, :func:`round_over`,
  :func:`turn_counts`, CS-5) and what the players see (:func:`is_hidden`); the next deal
  as things stand (:func:`forecast`); the deal and fire themselves, from the generator
  or recorded facts; odds are exact :class:`~fractions.Fraction` s;
* ``setup.py`` — :func:`normalize_setup`, the roster (CS-1);
* ``referee.py`` — :data:`ACTION_TYPES` and :func:`normalize_action` (the one check of an
  action, citing its clause), and "may this be done?" in one shape: ``check_*`` raises
  the :class:`~engine.game.RuleError`, ``can_*`` answers — :func:`check_shot` /
  :func:`can_shoot` (CS-5, CS-7, CS-9, CS-10), :func:`check_long` / :func:`can_long`
  (CS-5), :func:`check_treat` / :func:`can_treat`, :func:`check_first_aid` /
  :func:`can_first_aid` (CS-10, CS-13), :func:`check_end_round` / :func:`can_end_round`
  (CS-12, CS-13); what the next action needs from your own deck and dice
  (:func:`cards_owed`, :func:`next_roll`, :func:`countdowns_due`; HR-CS-6, HR-CS-7);
* ``steps.py`` — :func:`start`, :func:`step`, :func:`describe`, :func:`status`,
  :func:`standing`, and the hooks :func:`equipment`, :func:`replay_work`;
* ``public.py`` — :func:`public_game`, the spectator's copy, and :func:`public_state`,
  the players' view drawn from it;
* ``upgrade.py`` — :func:`upgrade`: games saved before save schema 3 (the CS-3 and CS-5
  rulings' earlier reading, ``"legacy": true``);
* ``record.py`` — :func:`record_part`: CONSIM's part of the printable record.

The rules it covers: RULES.md section 3, CS-1 … CS-13 (the rulings CS-3, CS-5, CS-6,
CS-13), and the house rules HR-CS-1 … HR-CS-8.

Every public function refuses a bad argument with a ``ValueError`` subclass
(:class:`ArgumentError`, :class:`SetupError`, :class:`~engine.game.ActionError`,
:class:`~engine.game.RuleError` …) whose message says what was wrong.

Setup (plain JSON)::

    {"sides": ["Blue", "Red"],
     "combatants": [{"name": "Rifleman 1", "side": 0, "grain": "individual",
                     "training": "trained", "weapon": ["semi-automatic"], "player": false}],
     "privacy": true}     # the Observer hides non-player combatants from the players

HR-CS-8: a non-player line's ``"hidden": false`` keeps it in the players' sight (absent: hidden,
the meaning of every game saved before); ``"count_hidden": false`` (absent: true, as before)
keeps the number of hidden combatants and of their cards out of the players' view, its log,
the spectator copy and the phones: the copy shows each side's hidden ones as one line,
"The Observer's hidden combatants", and says only when they start and stop acting.

A spectator's copy adds ``"spectator": true`` and ``"hidden"`` (the combatants the
Observer hid: in the copy they are placeholders, "The Observer's combatant 3"). A
game saved before the CS-3 and CS-5 rulings carries ``"legacy": true`` (see
:func:`upgrade`): it replays, and goes on, under the earlier reading.

Actions (plain JSON objects; :func:`normalize_action` gives the canonical form):

* ``{"type": "deal", "advantages": {"0": ["firepower", "position"]}, "surprised": [1]}``
  — a new round (CS-2, CS-3, CS-4, CS-6); optional ``"cards": {"0": ["AS", "9H"]}``
  gives the dealt cards as recorded facts (real cards dealt at the table, HR-CS-6): every
  combatant exactly what it is owed while the deck lasts, each card once;
* ``{"type": "next"}`` — the current actor has acted (CS-5);
* ``{"type": "long", "combatant": 3, "cards": ["KS", "5H"]}`` — the current actor
  declares a long action on its turn: it spends that turn's card and more of its own
  and acts at the lowest (CS-5);
* ``{"type": "shoot", "shooter": 0, "targets": [4, 5], "mode": "aimed" | "suppressive",
  "cover": "none" | "cover" | "good", "unseen": false, "semi": "hit" | "damage"}``
  — the current actor's action on this card (CS-5, CS-7 … CS-11); optional
  ``"dice": [{"d10": 7, "d6": 3, "countdown": 8}, …]`` gives the rolls (one object per
  target, exactly the rolls the shot needs) when the table rolls its own dice (HR-CS-7);
* ``{"type": "end_round"}`` — suppression reset (CS-12), countdowns (CS-13), stun
  ends; optional ``"dice": {"4": 3}`` gives the DYING countdown of each untreated
  INJURED whose time runs out (exactly those), with the table's own dice.
  With the app's deck or dice a deal, shot or end of round that says what was dealt or
  rolled is refused (issue 35): the seed deals and rolls; only a spectator's copy records
  the app's cards and dice;
* ``{"type": "treat", "combatant": 4}`` — an INJURED combatant is treated (CS-10, CS-13);
* ``{"type": "first_aid", "combatant": 4}`` — a DYING combatant gets first aid;
* ``{"type": "privacy", "hide": true}`` — hide / show non-player combatants.

In a spectator's copy the facts replace the generator: deals carry ``"cards"`` for
the combatants it shows and ``"hidden_cards"`` (how many cards the hidden ones hold
in the order); ``"hidden_next": true`` on a deal, next, shot or long action says that
one of the Observer's hidden combatants acts next; a shot by a hidden combatant has
no ``"shooter"`` (an unseen shooter) and gives ``"results"`` instead of dice; a
hidden target's dice are ``null``.
"""

from __future__ import annotations

from ..game import ArgumentError, SetupError
from .public import public_game, public_state
from .record import record_part
from .referee import (
                     ACTION_TYPES,
                     can_end_round,
                     can_first_aid,
                     can_long,
                     can_shoot,
                     can_treat,
                     cards_owed,
                     check_end_round,
                     check_first_aid,
                     check_long,
                     check_shot,
                     check_treat,
                     countdowns_due,
                     next_roll,
                     normalize_action,
)
from .rules import (
                     MissingRoll,
                     acting,
                     apply_wound,
                     base_ticks,
                     can_act,
                     cards_due,
                     countdown_dice,
                     current_turn,
                     damage_modifier,
                     forecast,
                     hit_chance,
                     hit_modifier,
                     initiative_key,
                     initiative_order,
                     is_hidden,
                     round_over,
                     rules_not_in_play,
                     shot_odds,
                     suppression_caused,
                     suppression_multiplier,
                     to_hit_target,
                     turn_counts,
                     wound_distribution,
                     wound_status,
)
from .seats import seat_action, seat_private, seats
from .setup import normalize_setup
from .steps import describe, equipment, replay_work, standing, start, status, step
from .upgrade import upgrade
from .values import (
                     ADVANTAGES,
                     DECK_APP,
                     DECK_TABLE,
                     DICE_APP,
                     DICE_TABLE,
                     HIDDEN_GROUP,
                     HOUSE_RULES,
                     KIND,
                     LEGACY_RULES,
                     RULINGS,
                     SPECTATOR_VIEW,
                     VARIANT_BY_KEY,
                     VARIANTS,
                     Combatant,
                     Condition,
                     ConsimState,
                     Cover,
                     DealtHand,
                     DieCall,
                     Forecast,
                     Grain,
                     LogEntry,
                     Shot,
                     ShotOdds,
                     ShotTarget,
                     Status,
                     Training,
                     Trait,
                     Turn,
                     WoundStatus,
                     placeholder,
)

__all__ = [
    # the system (engine.system): its names and hooks
    "KIND", "VARIANTS", "SPECTATOR_VIEW", "ACTION_TYPES", "HOUSE_RULES", "RULINGS",
    "normalize_setup", "start", "normalize_action", "step", "describe", "public_game", "seats", "seat_private", "seat_action",
    "upgrade", "standing", "status", "equipment", "replay_work", "record_part",
    # errors (engine.game's, under the names this module always had)
    "SetupError", "ArgumentError",
    # values
    "ADVANTAGES", "VARIANT_BY_KEY", "LEGACY_RULES", "DECK_APP", "DECK_TABLE", "DICE_APP", "DICE_TABLE",
    "Training", "Trait", "Grain", "Cover", "Condition", "WoundStatus",
    "Combatant", "Status", "Turn", "DealtHand", "ShotTarget", "Shot", "LogEntry", "ShotOdds", "Forecast", "DieCall",
    "ConsimState", "placeholder", "HIDDEN_GROUP",
    # rule functions
    "initiative_order", "initiative_key", "wound_status", "cards_due", "to_hit_target", "hit_modifier",
    "damage_modifier", "suppression_multiplier", "suppression_caused", "base_ticks", "hit_chance",
    "wound_distribution", "shot_odds", "apply_wound", "countdown_dice",
    # who acts now, what the players see, the next deal
    "current_turn", "acting", "can_act", "round_over", "turn_counts", "is_hidden", "rules_not_in_play", "forecast", "public_state",
    # the referee: may this be done?
    "check_shot", "can_shoot", "check_long", "can_long", "check_treat", "can_treat",
    "check_first_aid", "can_first_aid", "check_end_round", "can_end_round",
    # what the next action needs from your own deck and dice (HR-CS-6, HR-CS-7)
    "cards_owed", "next_roll", "countdowns_due", "MissingRoll",
]
