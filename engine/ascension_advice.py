"""Ascension Isle's staff officer and app general, now :mod:`engine.ascension.advice` and
:mod:`engine.ascension.opponent` (issue 31): this name is kept for callers that import it,
with the names it had."""

from .ascension.advice import (
    AIM_NAMES,
    AIMS,
    Advice,
    GridCell,
    advice,
    bid_name,
    candidate_bids,
    mix_text,
    payoff,
    public_state,
)
from .ascension.opponent import LEVEL_LABELS, LEVELS, app_bid, app_turn, undo_target

__all__ = ["AIMS", "AIM_NAMES", "LEVELS", "LEVEL_LABELS", "Advice", "GridCell", "public_state", "candidate_bids",
           "advice", "app_bid", "app_turn", "undo_target", "payoff", "mix_text", "bid_name"]
