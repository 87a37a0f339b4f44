"""Ascension Isle army battles (RULES.md section 4, clauses AI-1 … AI-19, HR-AI-1 … 13).

Two armies meet in a hex. Every week each side declares a maneuver in secret — a
blind bid the app keeps as the impartial invigilator (AI-7) — optionally with
stratagems its army qualifies for (AI-16). The bids are revealed together, each
army rolls its dice pool (the vanguard's stat plus reinforcement dice, AI-2, AI-3),
successes are counted (AI-6), and the margin gives the tier of the result (AI-8,
AI-9). Each side reads its own row of that tier's table (AI-10, AI-11; or only the
winner, in the AI-10 variant), rolls the casualty ranges (AI-12), lands the
casualties on the enemy's units (AI-14) less any mitigation (AI-15), a beaten
Defend or Block may fall back (AI-19), and the battle goes into another week until
an army is destroyed or leaves.

This package is the system (:mod:`engine.system`, kind ``"battle"``); its face, this
module, holds its public names (``__all__``). The parts, by file; every import runs one
way (tables ← values ← rules ← week ← odds ← advice ← opponent; setup reads values, the
referee setup, rules and week, steps the referee; values names rules' ``Cell`` for type
checkers only), and names two files share are public inside the package, not in ``__all__``:

* ``tables.py`` — the source's result tables, the AI-11 fallback, the AI-13 matchups
  and the AI-18 turn phases as data (one source for the engine, the board and the
  prerendered matrices);
* ``values.py`` — :data:`KIND`, :data:`SPECTATOR_VIEW`, the settings' choices, house
  rules (:data:`HOUSE_RULES`) and rulings (:data:`RULINGS`), the stratagems (AI-16,
  AI-17) and the immutable values: :class:`Unit`, :class:`General`, :class:`Army`
  (AI-1), :class:`Bid` (AI-7), :class:`Pool` (AI-2, AI-3), :class:`CellEffect`,
  :class:`Rolls`, :class:`WeekResult`, :class:`BattleState`;
* ``rules.py`` — pure rule functions citing their clauses: reinforcement dice (AI-3,
  AI-5), tiers (AI-8, AI-9), the settings (:data:`VARIANTS`: AI-6, AI-10, HR-AI-7,
  AI-11), cells (AI-10 … AI-12, HR-AI-10), exact tier odds (:func:`tier_odds`), pools
  and stratagems (:func:`dice_pool`, :func:`offered_stratagems`: AI-2, AI-3, AI-16,
  HR-AI-4 … 6);
* ``week.py`` — the week's resolution as a pure function, :func:`resolve`
  (``resolve(state, bids, rolls) -> WeekResult``: AI-8 … AI-19, HR-AI-1 … 3, 8, 9,
  11), :func:`casualty_ranges`, :func:`counter_switches`, :func:`line_up`;
* ``setup.py`` — :func:`normalize_setup` (AI-1, AI-2, AI-14), :func:`example_setup`,
  :func:`jibril_division`, :func:`app_levels`;
* ``referee.py`` — :data:`ACTION_TYPES`, :func:`normalize_action` (the one check of an
  action) and "may this be done?" in one shape: ``check_*`` refuses with the clause,
  ``can_*`` answers — :func:`check_stratagem` / :func:`can_use_stratagem` (AI-16),
  :func:`check_counter_attack` / :func:`can_counter_attack` (AI-16),
  :func:`check_leave` / :func:`can_leave` (AI-15), :func:`check_change_armies` /
  :func:`can_change_armies` (AI-7);
* ``steps.py`` — :func:`start`, :func:`step`, :func:`describe`, :func:`status`,
  :func:`standing`, :func:`undo_warning`, :func:`equipment`, :func:`replay_work`;
* ``public.py`` — :func:`public_game`, the spectator's copy (AI-7);
* ``upgrade.py`` — :func:`upgrade`: games saved before the AI-14, AI-16 and AI-19
  rulings keep the rules they were played with;
* ``record.py`` — :func:`record_part`: the battle's part of the printable record, and the
  words it uses for the house tables' keys (:data:`SETTING_WORDS`);
* ``odds.py`` — :func:`week_odds` and :func:`outcome_odds` (issue 17, HR-AI-8 … 12:
  the exact odds of a week's outcomes, sharing the week's readings);
* ``advice.py`` — the staff officer (HR-AI-13): :func:`advice`, :func:`public_state`;
* ``opponent.py`` — the app's general (issue 17): :func:`app_bid`, :func:`app_turn`,
  :func:`undo_target`.

Every public function refuses bad arguments with a ``ValueError`` subclass whose
message says what is wrong (:class:`~engine.game.ArgumentError`, also
``BadArgument``; :class:`~engine.game.SetupError`; or the
:class:`~engine.game.ActionError` / :class:`~engine.game.RuleError` of a move). The
setup's JSON is described in ``setup.py``, the actions in ``referee.py``.
"""

from __future__ import annotations

from ..game import ArgumentError, SetupError
from .advice import (
    AIM_NAMES,
    AIMS,
    Advice,
    GridCell,
    advice,
    advised_name,
    bid_name,
    candidate_bids,
    legal_bids,
    mix_text,
    payoff,
    plain_advice,
    public_state,
)
from .odds import MOVEMENT_NAMES, MOVEMENTS, OutcomeOdds, SideOdds, as_bid, outcome_odds, week_odds, withdraw_route
from .opponent import LEVEL_LABELS, LEVELS, app_bid, app_move_work, app_turn, check_app_move, undo_target
from .public import public_game
from .record import SETTING_WORDS, record_part
from .referee import (
    ACTION_FIELDS,
    ACTION_TYPES,
    WHY_MAX,
    can_change_armies,
    can_counter_attack,
    can_leave,
    can_use_stratagem,
    check_change_armies,
    check_counter_attack,
    check_leave,
    check_stratagem,
    normalize_action,
)
from .rules import (
    CELL_MAX,
    DIE_SIZES,
    MAX_K,
    MAX_POOL,
    MAX_RANGE,
    VARIANT_BY_KEY,
    VARIANTS,
    Cell,
    cell_effect,
    count_successes,
    dice_pool,
    next_die_needs,
    normalize_house_tables,
    offered_stratagems,
    reinforcement_dice,
    reinforcement_threshold,
    result_cell,
    settings_summary,
    success_chance,
    success_distribution,
    success_setting,
    tier_odds,
    victory_tier,
    week_pools,
)
from .seats import seat_action, seat_private, seats
from .setup import APP_LEVELS, CONTROLLERS, app_levels, example_setup, jibril_division, normalize_setup, stamp_setup
from .steps import describe, equipment, replay_work, standing, start, status, step, undo_warning
from .tables import (
    FALLBACK,
    FALLBACK_NOTE,
    JIBRIL_DIVISION,
    JIBRIL_NOTE,
    MANEUVER_NAMES,
    MANEUVERS,
    MATCHUPS,
    SOURCE_TABLES,
    TIER_MARGINS,
    TIER_NAMES,
    TIERS,
    TURN_PHASES,
    matchup,
)
from .upgrade import upgrade
from .values import (
    DICE_APP,
    DICE_TABLE,
    HOUSE_RULES,
    KIND,
    NO_EFFECT,
    OLD_RULINGS_NOTE,
    OPENING_RULES,
    PHASES,
    POLICIES,
    POLICY,
    READS_BOTH,
    READS_WINNER,
    RULINGS,
    SPECTATOR_VIEW,
    STRATAGEM_BY_KEY,
    STRATAGEMS,
    TRAITS,
    Army,
    BattleState,
    Bid,
    CellEffect,
    General,
    Pool,
    Rolls,
    Stratagem,
    Unit,
    WeekResult,
)
from .week import casualty_ranges, counter_switches, line_up, resolve

#: The battle's bad-argument error before issue 31: :class:`engine.game.ArgumentError` itself.
BadArgument = ArgumentError

__all__ = [
    # the system (engine.system) and its errors
    "KIND", "VARIANTS", "SPECTATOR_VIEW", "ACTION_TYPES", "HOUSE_RULES", "OPENING_RULES", "RULINGS", "SetupError",
    "ArgumentError", "BadArgument", "normalize_setup", "normalize_action", "start", "step", "describe",
    "public_game", "seats", "seat_private", "seat_action", "upgrade",
    "standing", "status", "undo_warning", "equipment", "replay_work", "record_part", "SETTING_WORDS",
    "check_app_move", "app_move_work", "stamp_setup", "POLICIES", "POLICY",
    # tables (tables.py)
    "MANEUVERS", "MANEUVER_NAMES", "TIERS", "TIER_NAMES", "TIER_MARGINS", "SOURCE_TABLES", "FALLBACK",
    "FALLBACK_NOTE", "MATCHUPS", "matchup", "TURN_PHASES", "JIBRIL_DIVISION", "JIBRIL_NOTE",
    # values (values.py)
    "READS_BOTH", "READS_WINNER", "DICE_APP", "DICE_TABLE", "OLD_RULINGS_NOTE", "TRAITS", "STRATAGEMS",
    "STRATAGEM_BY_KEY", "NO_EFFECT", "PHASES", "Unit", "General", "Army", "Bid", "Pool", "CellEffect", "Stratagem",
    "Rolls", "WeekResult", "BattleState",
    # rule functions (rules.py)
    "MAX_POOL", "MAX_K", "DIE_SIZES", "CELL_MAX", "MAX_RANGE", "VARIANT_BY_KEY", "reinforcement_dice",
    "reinforcement_threshold", "next_die_needs", "victory_tier", "normalize_house_tables", "settings_summary",
    "success_setting", "success_chance", "count_successes", "cell_effect", "Cell", "result_cell",
    "success_distribution", "tier_odds", "dice_pool", "week_pools", "offered_stratagems",
    # the week (week.py)
    "resolve", "casualty_ranges", "counter_switches", "line_up",
    # setup (setup.py)
    "CONTROLLERS", "APP_LEVELS", "app_levels", "jibril_division", "example_setup",
    # the referee (referee.py): check_* refuses, can_* answers
    "ACTION_FIELDS", "WHY_MAX", "check_stratagem", "can_use_stratagem", "check_counter_attack", "can_counter_attack",
    "check_leave", "can_leave", "check_change_armies", "can_change_armies",
    # odds (odds.py), the staff officer (advice.py), the app's general (opponent.py)
    "week_odds", "outcome_odds", "OutcomeOdds", "SideOdds", "MOVEMENTS", "MOVEMENT_NAMES", "withdraw_route", "as_bid",
    "AIMS", "AIM_NAMES", "Advice", "GridCell", "public_state", "candidate_bids", "advice", "plain_advice", "legal_bids", "payoff", "mix_text",
    "bid_name", "advised_name", "LEVELS", "LEVEL_LABELS", "app_bid", "app_turn", "undo_target",
]
