"""Campaign with a poker-hand peace treaty (RULES.md section 2, clauses CMP-1 … CMP-12).

Two players — or one player against the dummy (CMP-9) — fight a run of battles
on the tabletop. The app keeps the cards: six hidden cards each and a face-up
pool of four (CMP-1); before each battle a random stake from each hand (CMP-2);
after it, the winner and the winner's troop points left (CMP-3, decisive at 8+,
recorded as CMP-12 says), the spoils (CMP-4), stakes back to their owners
(CMP-5); from the third battle on, the exhaustion roll (CMP-6; a drawn battle
counts, CMP-11); and at the end the negotiating table, where the best five-card
poker hands decide the war (CMP-7, CMP-8). Losing your last card loses the
campaign (CMP-2).

This package is the system (:mod:`engine.system`); its face, this module, holds its
public names (``__all__``). The parts, by file:

* ``values.py`` — the constants (``HAND_SIZE`` … ``MAX_RANDOM_CARDS``), settings
  (``DECKS``), house rules (HR-CMP-1), rulings and ``LEGACY`` readings, the errors,
  and the immutable :class:`CampaignState` with :class:`LogEntry`, :class:`Roll`,
  :class:`Treaty`;
* ``rules.py`` — pure rule functions, each docstring starting with its id:
  :func:`is_decisive` (CMP-3), :func:`exhaustion_chance` and
  :func:`exhaustion_odds_text` (CMP-6), :func:`treaty_odds` (CMP-7, CMP-8, CMP-9),
  :func:`compare_hands` (CMP-8), :func:`table_draws` (CMP-7, CMP-9);
* ``poker.py`` — :func:`best_hand` and :class:`Hand`: poker hands by CMP-8 (aces high
  only, no wheel; also importable as :mod:`engine.poker`);
* ``setup.py`` — :func:`normalize_setup`;
* ``referee.py`` — :data:`ACTION_TYPES`, :func:`normalize_action` (the one check of an
  action, citing its clause), :func:`spoils_choices` (CMP-4) and, with the players' own
  deck, "may this card be entered?": :func:`check_entry` raises, :func:`can_enter`
  answers (CMP-2, CMP-4, CMP-7);
* ``steps.py`` — :func:`start`, :func:`step`, :func:`describe`, :func:`status`,
  :func:`standing`, :func:`undo_warning`, :func:`equipment`;
* ``opponent.py`` — the dummy, the app's player in a solo campaign (CMP-9, CMP-10,
  HR-CMP-1): :func:`dummy_pick`, :func:`die_choice`;
* ``public.py`` — :func:`public_game` (the spectator's copy) and what a player sees:
  :func:`player_cards`, :func:`visible_cards`, :func:`treaty_chances`,
  :func:`deck_left`;
* ``upgrade.py`` — :func:`upgrade`: games saved before save schema 3;
* ``record.py`` — :func:`record_part`: the campaign's part of the printable record.

Every public function refuses bad arguments with a ``ValueError`` subclass
(:class:`CampaignError`, :class:`SetupError`, or the game's ``ActionError`` /
``RuleError``) and a message a player or a Python user understands; cards are
taken as :class:`~engine.cards.Card` values or tokens (``"AS"``) alike.

Setup (JSON): ``{"players": ["Anna", "Ben"], "dummy": false}``; with
``"dummy": true`` the second player is the dummy (its name defaults to
"Dummy"). A spectator's copy (:func:`public_game`) adds ``"reveal"``: the cards
and dice that were shown face up, so it replays without the seed or any hand;
``"spectator": true`` marks it. ``"legacy"`` (set by :func:`upgrade` only) keeps
an earlier version's reading of a ruling for a game played before it.

Actions (plain JSON dicts; :func:`normalize_action` gives the canonical form):

* ``{"type": "battle", "winner": 0, "troops": 9}`` — a battle fought on the
  tabletop (CMP-3, CMP-12): the winner (0 or 1) and the winner's troop points
  left in play, a whole number from 0 to 999; ``{"type": "battle", "winner":
  null}`` — a drawn battle (CMP-5), which carries no troop points;
* ``{"type": "take", "stake": true, "pool": "KH"}`` — the winner's spoils
  (CMP-4): the loser's stake and/or one pool card (``"pool": null`` for none).
  The dummy never sends it: it takes by CMP-9/CMP-10 as its battle is recorded;
* ``{"type": "roll"}`` — the exhaustion roll (CMP-6);
* ``{"type": "negotiate"}`` — the negotiating table (CMP-7, CMP-8, CMP-9).

With the players' own deck and dice (setup ``"deck": "table"``, issue 18) the hands
stay in the players' hands: the app never knows them. It records what is revealed,
each as a fact in its action, checked like a move (each card once, consistent with
what was seen), and keeps the counts:

* ``{"type": "deal", "pool": ["AS", "KH", "7D", "2C"]}`` — the pool as dealt (CMP-1);
* ``{"type": "stakes", "stakes": ["QS", "3H"]}`` — each stake as it is turned up
  (its owner drew it at random; the dummy's is dealt at random, CMP-2, CMP-9);
* ``{"type": "refill", "card": "9C"}`` — the card drawn to replace a pool card
  taken (CMP-4);
* ``{"type": "roll", "dice": [3, 5]}`` — the exhaustion dice as rolled at the table
  (or ``{"type": "roll"}``: the app rolls them, CMP-6);
* ``{"type": "lay", "player": 0, "hand": [...], "drawn": [...]}`` — at the
  negotiating table, in player order, each player's cards laid down and the cards
  drawn there (up to five, and the dummy's extra card; CMP-7, CMP-9). The app judges
  the hands once both are down (CMP-8).
"""

from __future__ import annotations

from ..game import ArgumentError, SetupError
from .opponent import die_choice, dummy_pick
from .poker import CATEGORIES, Hand, HandError, best_hand, category_index
from .public import deck_left, player_cards, public_game, treaty_chances, visible_cards
from .record import record_part
from .referee import ACTION_TYPES, ENTRIES, can_enter, check_entry, normalize_action, spoils_choices
from .rules import compare_hands, exhaustion_chance, exhaustion_odds_text, is_decisive, table_draws, treaty_odds
from .seats import seat_action, seat_private, seats
from .setup import normalize_setup
from .steps import describe, equipment, standing, start, status, step, undo_warning
from .upgrade import upgrade
from .values import (
                     DECISIVE_TROOPS,
                     DECKS,
                     EXHAUSTION_FROM,
                     EXHAUSTION_TARGET,
                     HAND_SIZE,
                     HOUSE_RULES,
                     KIND,
                     LEGACY,
                     MAX_RANDOM_CARDS,
                     MAX_TROOPS,
                     PHASES,
                     POOL_SIZE,
                     RETIRED_IDS,
                     RULINGS,
                     SPECTATOR_VIEW,
                     TREATY_CARDS,
                     VARIANTS,
                     CampaignError,
                     CampaignState,
                     LogEntry,
                     Roll,
                     Treaty,
)

__all__ = [
    # the system (engine.system)
    "KIND", "VARIANTS", "SPECTATOR_VIEW", "ACTION_TYPES",
    "normalize_setup", "start", "normalize_action", "step", "describe", "public_game", "seats", "seat_private", "seat_action",
    "upgrade", "standing", "status", "equipment", "undo_warning", "record_part", "RULINGS", "HOUSE_RULES",
    # errors (the kernel's; CampaignError is ArgumentError by its old name)
    "SetupError", "ArgumentError", "CampaignError",
    # values
    "DECKS", "RETIRED_IDS", "LEGACY", "PHASES", "HAND_SIZE", "POOL_SIZE", "DECISIVE_TROOPS", "EXHAUSTION_FROM",
    "EXHAUSTION_TARGET", "MAX_TROOPS", "TREATY_CARDS", "MAX_RANDOM_CARDS", "ENTRIES",
    "LogEntry", "Roll", "Treaty", "CampaignState",
    # rule functions, the dummy, poker hands
    "is_decisive", "exhaustion_chance", "exhaustion_odds_text", "treaty_odds", "compare_hands", "table_draws",
    "die_choice", "dummy_pick",
    "CATEGORIES", "Hand", "HandError", "best_hand", "category_index",
    # the table's helpers
    "check_entry", "can_enter", "spoils_choices", "deck_left", "treaty_chances", "visible_cards", "player_cards",
]
