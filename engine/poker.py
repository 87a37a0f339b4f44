"""Poker hands for the campaign's peace treaty (RULES.md CMP-7, CMP-8): the names of
:mod:`engine.campaign.poker`, where they live, under their documented older address::

    >>> from engine.poker import best_hand
    >>> best_hand("KS KD 7H 7C AS 2D 3C".split()).category
    'two pairs'
"""

from .campaign.poker import *  # noqa: F401,F403

__all__ = ["CATEGORIES", "Hand", "HandError", "best_hand", "category_index"]
