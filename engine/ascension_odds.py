"""Ascension Isle's outcome odds, now :mod:`engine.ascension.odds` (issue 31): this name is kept
for callers that import it, with the names it had."""

from .ascension.odds import MOVEMENT_NAMES, MOVEMENTS, OutcomeOdds, SideOdds, as_bid, outcome_odds, withdraw_route

__all__ = ["MOVEMENTS", "MOVEMENT_NAMES", "SideOdds", "OutcomeOdds", "outcome_odds", "withdraw_route", "as_bid"]
