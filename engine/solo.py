"""The app's player of Organizations In Conflict, at its place before issue 31: kept for
callers (``from engine import solo``). It lives in :mod:`engine.conflict.opponent`; this
module holds the same objects under the same names."""

from .conflict.opponent import *  # noqa: F403 (the same names: __all__ below)

# ruff: noqa: F405

__all__ = [
    "LEVELS", "LEVEL_LABELS", "HARD_SAMPLES", "Decision", "Observation",
    "controllers", "app_level", "to_act", "app_turn", "undo_target", "observe", "decide",
    "decide_observed", "normal_play", "normal_discard", "MAX_SAMPLES", "SUITS", "SIZE_WEIGHT", "OPPONENT_WEIGHT",
    "KNOCKOUT", "check_app_move", "app_move_work", "HARD_WORK", "MOVE_WORK",
]
