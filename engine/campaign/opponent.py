"""The dummy, the app's player in a solo campaign (CMP-9, CMP-10, HR-CMP-1): which cards it
takes as its spoils. Its stake is dealt at random and its cards stay hidden (CMP-9,
in :mod:`engine.campaign.steps`); here is what it chooses: the highest card it may take,
equal choices settled by a die (HR-CMP-1).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Callable

from ..cards import Card
from ..text import brief_repr
from .values import CampaignError, CampaignState, cards_arg, whole_arg


def die_choice(choices: int, roll: int) -> int | None:
    """HR-CMP-1: which of ``choices`` equal choices a die ``roll`` picks (0-based); None: roll again."""
    choices = whole_arg(choices, "The number of choices", 1, 6)
    roll = whole_arg(roll, "A die", 1, 6)
    width = 6 // choices
    if roll > width * choices:
        return None
    return (roll - 1) // width


#: How many times the dummy's die is rolled at most before the caller's die is called broken.
_MAX_ROLLS = 200


def dummy_pick(candidates: Iterable[tuple[str, Card | str]],
               roll_die: Callable[[], int]) -> tuple[int, list[int], list[int]]:
    """CMP-9/CMP-10 (HR-CMP-1): the dummy takes the highest-ranked candidate (aces high).

    ``candidates`` are ``(where, card)`` in table order (cards as Card values or
    tokens, each card once); ``roll_die()`` gives one d6 (called only between equal
    choices). Returns ``(index, tied indexes, rolls)``.
    """
    if isinstance(candidates, (str, Mapping)) or candidates is None:
        raise CampaignError("The dummy's candidates must be a list of (where, card) pairs")
    try:
        items = list(candidates)
    except TypeError:
        raise CampaignError("The dummy's candidates must be a list of (where, card) pairs") from None
    if not items or len(items) > 6:
        raise CampaignError(f"The dummy chooses among 1 to 6 cards (got {len(items)})")
    pairs = []
    for item in items:
        if not isinstance(item, (tuple, list)) or len(item) != 2 or not isinstance(item[0], str):
            raise CampaignError(f"A candidate is a (where, card) pair (got {brief_repr(item)})")
        pairs.append(item[1])
    cards = cards_arg(pairs, "the dummy's candidates")
    if not callable(roll_die):
        raise CampaignError("roll_die must be a function that rolls one d6")
    top = max(int(card.rank) for card in cards)
    tied = [i for i, card in enumerate(cards) if int(card.rank) == top]
    rolls: list[int] = []
    if len(tied) == 1:
        return tied[0], tied, rolls
    for _ in range(_MAX_ROLLS):
        roll = roll_die()
        pick = die_choice(len(tied), roll)
        rolls.append(int(roll))
        if pick is not None:
            return tied[pick], tied, rolls
    raise CampaignError(f"roll_die gave no usable roll in {_MAX_ROLLS} tries")


def dummy_spoils(state: CampaignState, decisive: bool,
                 roll_die: Callable[[], int]) -> tuple[bool, Card | None, str]:
    """CMP-9/CMP-10 (HR-CMP-1): what the dummy takes after winning a battle: the highest card
    or cards it may. Returns ``(takes the stake, pool card or None, why)``; ``why`` ends the
    log's line ("… — the highest card it may take (CMP-9, CMP-10)"). ``roll_die()`` gives one
    d6, called only between equal choices."""
    human = 0
    stake = state.stakes[human]

    def tie_words(candidates: list[tuple[str, Card]], tied: list[int], rolls: list[int], index: int) -> str:
        if len(tied) == 1:
            return ""
        names = " and ".join(f"the {candidates[i][1].label} ({candidates[i][0]})" for i in tied)
        shown = ", then ".join(str(r) for r in rolls)
        return (f"; equal choices between {names}: it rolls {shown} → the {candidates[index][1].label} "
                "(HR-CMP-1)")

    if decisive:
        pool = [("pool", card) for card in state.pool]
        index, tied, rolls = dummy_pick(pool, roll_die)
        pool_card = pool[index][1]
        why = (f" — decisive, so the stake and the highest pool card (CMP-9, CMP-10)"
               f"{tie_words(pool, tied, rolls, index)}")
        return True, pool_card, why
    if stake is None:
        raise CampaignError(f"{state.name(human)}'s stake is not out: the dummy chooses its spoils after a battle (CMP-9)")
    candidates = [(f"{state.name(human)}'s stake", stake)] + [("pool", card) for card in state.pool]
    index, tied, rolls = dummy_pick(candidates, roll_die)
    why = f" — the highest card it may take (CMP-9, CMP-10){tie_words(candidates, tied, rolls, index)}"
    if index == 0:
        return True, None, why
    return False, candidates[index][1], why
