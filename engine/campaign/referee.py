"""Campaign's referee (RULES.md section 2): :data:`ACTION_TYPES`, :func:`normalize_action`
(the one check of an action, shared by the step, the table and the link decoder) and the
checks it makes, each raising the :class:`~engine.game.RuleError` with its clause: the
phase (CMP-1 … CMP-7), the troop points (CMP-12), the spoils (CMP-4), and with the
players' own deck every card entered (each card once, consistent with what was seen:
CMP-1, CMP-2, CMP-4, CMP-7, CMP-9). "May this card be entered?" is the triad
:func:`check_entry` (raises) / :func:`can_enter` (answers).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from .. import referee as fields
from ..cards import Card
from ..game import ActionError, RuleError
from ..text import brief_repr, plural
from .rules import exhaustion_odds_text, table_draw_count
from .values import (
    EXHAUSTION_FROM,
    MAX_TROOPS,
    POOL_SIZE,
    TREATY_CARDS,
    CampaignError,
    CampaignState,
    cards_arg,
    hand_order,
    player_arg,
    state_arg,
)


def rules_settings(rules: Any) -> Mapping[str, Any]:
    """The rules settings of a campaign game (``None`` or an object: the campaign has no
    variants), or the :class:`CampaignError` that refuses them."""
    if rules is None:
        return {}
    if not isinstance(rules, Mapping):
        raise CampaignError("The rules settings must be an object (the campaign has no variants)")
    return rules


#: Every action type the referee knows (with the app's deck: battle, take, roll, negotiate).
ACTION_TYPES = ("battle", "take", "roll", "negotiate", "deal", "stakes", "refill", "lay")
#: Actions that enter what the players' own deck revealed (setup "deck": "table").
_TABLE_TYPES = ("deal", "stakes", "refill", "lay")

_PHASE_OF = {"battle": "battle", "take": "spoils", "roll": "exhaustion", "negotiate": "exhausted",
             "deal": "deal", "stakes": "stakes", "refill": "refill", "lay": "exhausted"}


def check_phase(state: CampaignState, acting: str) -> None:
    """CMP-1 … CMP-7: the :class:`~engine.game.RuleError` that refuses an action of type
    ``acting`` in this phase of the campaign (what the table must do first), if any."""
    if state.phase == _PHASE_OF[acting]:
        return
    if state.phase == "over":
        raise RuleError("CMP-2" if state.treaty is None else "CMP-7", f"the campaign is over. {state.result}")
    if state.phase == "spoils":
        winner = state.pending[0] if state.pending else 0
        raise RuleError("CMP-4", f"{state.name(winner)} first takes the spoils of battle {state.battle}")
    if state.phase == "exhaustion":
        raise RuleError("CMP-6", f"roll for exhaustion first ({exhaustion_odds_text(state.fought)})")
    if state.phase == "exhausted":
        raise RuleError("CMP-7", "both sides are exhausted: they go to the negotiating table")
    if state.phase == "deal":
        raise RuleError("CMP-1", "enter the four pool cards as they were dealt first")
    if state.phase == "stakes":
        raise RuleError("CMP-2", f"turn up the stakes of battle {state.battle} and enter them first")
    if state.phase == "refill":
        raise RuleError("CMP-4", "draw the new pool card from the deck and enter it first")
    if acting == "deal":
        raise RuleError("CMP-1", "the pool was dealt at the start")
    if acting == "stakes":
        raise RuleError("CMP-2", f"the stakes of battle {state.battle} are out already")
    if acting == "refill":
        raise RuleError("CMP-4", "no pool card is waiting to be replaced")
    if acting == "take":
        raise RuleError("CMP-4", f"battle {state.battle} has not been recorded yet: nobody has won spoils")
    if acting == "roll":
        if state.fought < EXHAUSTION_FROM:
            raise RuleError("CMP-6", f"the exhaustion roll comes after the third battle and every later one "
                                      f"({plural(state.fought, 'battle')} fought so far)")
        raise RuleError("CMP-6", "the exhaustion roll for this battle has been made")
    raise RuleError("CMP-7", "the negotiating table comes only when both sides are exhausted (CMP-6)")


def _number_words(value: float) -> str:
    return f"{value:g}" if math.isfinite(value) and abs(value) < 10**6 else "that"


def _troops(state: CampaignState, winner: int, value: Any) -> int:
    """CMP-12: the winner's troop points, a whole number from 0 to 999, said for players."""
    name = state.name(winner)
    if value is None:
        raise RuleError("CMP-12", f"enter the troop points {name} has left in play: a whole number from 0 to "
                                  f"{MAX_TROOPS} (0 if none are left)")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (
            isinstance(value, float) and not value.is_integer()):
        shown = (f'"{value}"' if isinstance(value, str) and 0 < len(value) <= 20 and value.isprintable()
                 else _number_words(value) if isinstance(value, float) else "that")
        raise RuleError("CMP-12", f"troop points are a whole number from 0 to {MAX_TROOPS}; {shown} is not")
    if isinstance(value, float):
        raise RuleError("CMP-12", f"troop points are a whole number from 0 to {MAX_TROOPS} (write {int(value)}, "
                                  f"not {value})")
    if value < 0:
        shown = f"−{-value}" if value > -10**6 else "a negative number"
        raise RuleError("CMP-12", f"troop points cannot be negative ({shown}): count the points of {name}'s "
                                  "troops still in play, 0 or more")
    if value > MAX_TROOPS:
        shown = str(value) if value < 10**6 else "a huge number"
        raise RuleError("CMP-12", f"{shown} troop points is more than the {MAX_TROOPS} a battle can record: "
                                  "check the count")
    return int(value)


def normalize_action(state: CampaignState, action: Mapping[str, Any],
                     rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The canonical form of ``action`` in ``state`` — exact shape, canonical card tokens
    ("as" → "AS"), no unknown field, numbers in range (CMP-12) — or the
    :class:`ActionError` / :class:`RuleError` that refuses it, citing its clause.

    :func:`step` refuses everything this refuses (it calls it first).
    """
    state = state_arg(state)
    rules_settings(rules)
    kind = fields.action_type(action, ACTION_TYPES)
    if kind in _TABLE_TYPES and not state.table_deck:
        raise ActionError(f"A {kind} action enters what the players' own deck revealed; this campaign is played "
                          "with the app's deck, which deals and draws itself")
    if kind == "negotiate" and state.table_deck:
        raise ActionError("With your own deck each player lays the cards down at the negotiating table (a lay "
                          "action) and the app judges them")
    if kind in _TABLE_TYPES:
        return _normalize_table(state, action, kind)
    if kind == "battle":
        fields.only(action, ("winner",), ("troops",))
        winner = action["winner"]
        if winner is not None:
            winner = fields.one_of(winner, "the winner (0, 1, or null for a drawn battle)", (0, 1))
        check_phase(state, "battle")
        if winner is None:
            if "troops" in action:
                raise RuleError("CMP-12", "a drawn battle carries no troop points: nobody won it")
            return {"type": "battle", "winner": None}
        return {"type": "battle", "winner": winner, "troops": _troops(state, winner, action.get("troops"))}
    if kind == "take":
        fields.only(action, (), ("stake", "pool"))
        stake = fields.flag(action.get("stake", False), "'stake' (take the loser's stake)")
        token = action.get("pool")
        pool_card = None if token is None else fields.card(token, "the pool card")
        check_phase(state, "take")
        assert state.pending is not None
        winner, troops, decisive = state.pending
        if pool_card is not None and pool_card not in state.pool:
            raise RuleError("CMP-4", f"the {pool_card.label} is not in the pool "
                                     f"({' '.join(c.label for c in state.pool)})")
        lose = state.name(1 - winner)
        if decisive and not (stake and pool_card is not None):
            raise RuleError("CMP-4", f"after a decisive victory {state.name(winner)} takes {lose}'s stake and "
                                     "one pool card: choose both")
        if not decisive and stake and pool_card is not None:
            raise RuleError("CMP-4", f"a victory that is not decisive ({plural(troops, 'troop point')}, under 8) takes "
                                     f"{lose}'s stake or one pool card, not both")
        if not decisive and not stake and pool_card is None:
            raise RuleError("CMP-4", f"{state.name(winner)} must take {lose}'s stake or one pool card "
                                     "(a card never makes a hand worse)")
        return {"type": "take", "stake": stake, "pool": None if pool_card is None else str(pool_card)}
    if kind == "roll":
        if "dice" in action and not state.table_deck:
            raise RuleError("CMP-12", "the app rolls the exhaustion dice itself: a roll carries no dice")
        fields.only(action, (), ("dice",))
        dice = None
        if "dice" in action:  # the players' own dice, as rolled at the table
            raw = action["dice"]
            if not isinstance(raw, (list, tuple)) or len(raw) != 2:
                raise ActionError("The exhaustion dice are two dice, e.g. [3, 5] (CMP-6: 2d6)")
            dice = [fields.whole(d, "A die", 1, 6, rule="CMP-6") for d in raw]
        check_phase(state, "roll")
        return {"type": "roll"} if dice is None else {"type": "roll", "dice": dice}
    fields.only(action)
    check_phase(state, "negotiate")
    return {"type": "negotiate"}


def _normalize_table(state: CampaignState, action: Mapping[str, Any], kind: str) -> dict[str, Any]:
    """The actions of a campaign played with the players' own deck (issue 18): every card
    entered is checked like a move — each card once, and consistent with what was seen."""
    if kind == "deal":
        fields.only(action, ("pool",))
        pool = fields.cards(action["pool"], "the pool")
        if len(pool) != POOL_SIZE:
            raise RuleError("CMP-1", f"the pool is four cards (got {len(pool)})")
        check_phase(state, "deal")
        return {"type": "deal", "pool": [str(c) for c in pool]}
    if kind == "stakes":
        fields.only(action, ("stakes",))
        stakes = fields.cards(action["stakes"], "the stakes", unique=False)
        if len(stakes) != 2:
            raise RuleError("CMP-2", f"each player stakes one card: two stakes (got {len(stakes)})")
        check_phase(state, "stakes")
        check_stake(state, 0, stakes[0])
        check_stake(state, 1, stakes[1], stakes[0])
        return {"type": "stakes", "stakes": [str(c) for c in stakes]}
    if kind == "refill":
        fields.only(action, ("card",))
        card = fields.card(action["card"], "the new pool card")
        check_phase(state, "refill")
        check_new(state, card, "CMP-4", "the new pool card")
        return {"type": "refill", "card": str(card)}
    fields.only(action, ("player", "hand"), ("drawn",))
    player = fields.one_of(action["player"], "the player (0 or 1)", (0, 1))
    hand = fields.cards(action["hand"], "the hand")
    drawn = fields.cards(action.get("drawn", []), "the cards drawn")
    check_phase(state, "lay")
    turn = len(state.laid)
    if player != turn:
        raise RuleError("CMP-7", f"{state.name(turn)} lays down first: the negotiating table goes in player order"
                        if player > turn else f"{state.name(player)}'s cards are down already")
    _check_lay(state, player, hand, drawn)
    return {"type": "lay", "player": player, "hand": [str(c) for c in hand_order(hand)],
            "drawn": [str(c) for c in hand_order(drawn)]}


# ---------------------------------------------------------------------------
# Each card once: where a card seen face up is, and the checks of the cards entered


def _where(state: CampaignState, card: Card) -> str | None:
    """Where a card that has been face up is now, in words (``None``: never seen)."""
    if card in state.pool:
        return "in the pool"
    for p in (0, 1):
        if state.stakes[p] == card:
            return f"{state.name(p)}'s stake"
        if card in state.known[p]:
            return f"in {state.name(p)}'s hand (it was seen face up)"
    for p, (hand, drawn) in enumerate(state.laid):
        if card in hand or card in drawn:
            return f"laid down by {state.name(p)} at the negotiating table"
    if card in state.seen:
        return "already on the table"
    return None


def check_new(state: CampaignState, card: Card, rule: str, what: str) -> None:
    """A card that comes face up from the deck must be one nobody has seen (each card once)."""
    where = _where(state, card)
    if where is not None:
        raise RuleError(rule, f"the {card.label} cannot be {what}: it is {where}; a deck has one of each card")


def check_stake(state: CampaignState, player: int, card: Card, other: Card | None = None) -> None:
    """CMP-2: a stake comes from its owner's hand: a card known to be there, or one nobody has seen."""
    name = state.name(player)
    if card == other:
        raise RuleError("CMP-2", f"both stakes are the {card.label}: a deck has one of each card")
    if card in state.known[player]:
        return
    where = _where(state, card)
    if where is not None:
        raise RuleError("CMP-2", f"the {card.label} cannot be {name}'s stake: it is {where}")
    unknown = state.counts[player] - len(state.known[player])
    if unknown <= 0:
        cards = " ".join(c.label for c in state.known[player])
        raise RuleError("CMP-2", f"{name}'s stake is one of {name}'s cards ({cards}), not the {card.label}")


def _check_lay(state: CampaignState, player: int, hand: tuple[Card, ...], drawn: tuple[Card, ...]) -> None:
    """CMP-7/CMP-9: a hand laid down at the table is the player's cards — as many as the table
    counted, the ones seen in it among them, none seen anywhere else — and the cards drawn
    there are as many as CMP-7 (and CMP-9 for the dummy) draw, from the deck."""
    name = state.name(player)
    count = state.counts[player]
    if len(hand) != count:
        raise RuleError("CMP-7", f"{name} holds {plural(count, 'card')}: lay down all of them "
                                 f"({len(hand)} entered)")
    missing = [c for c in state.known[player] if c not in hand]
    if missing:
        raise RuleError("CMP-7", f"the {missing[0].label} is in {name}'s hand (it was seen face up): lay it down "
                                 "too")
    for card in hand:
        if card not in state.known[player]:
            where = _where(state, card)
            if where is not None:
                raise RuleError("CMP-7", f"the {card.label} cannot be in {name}'s hand: it is {where}")
    need = table_draw_count(state, player, count)
    rule = "CMP-9" if state.dummy and player == 1 else "CMP-7"
    if len(drawn) != need and need == 0:
        raise RuleError(rule, f"{name} holds {plural(count, 'card')}: with five or more nobody draws at the table")
    if len(drawn) != need:
        why = ("up to five, then one extra card" if rule == "CMP-9" and count < TREATY_CARDS
               else "one extra card" if rule == "CMP-9" else "up to five")
        raise RuleError(rule, f"{name} draws {plural(need, 'card')} at the table ({why}), not {len(drawn)}")
    for card in drawn:
        if card in hand:
            raise RuleError(rule, f"the {card.label} is in {name}'s hand: it cannot be drawn from the deck too")
        where = _where(state, card)
        if where is not None:
            raise RuleError(rule, f"the {card.label} cannot be drawn from the deck: it is {where}")


def check_table(state: CampaignState, table: tuple[tuple[Card, ...], ...],
                draws: tuple[tuple[Card, ...], ...]) -> None:
    """CMP-7/CMP-9: the cards shown at the table fit what the table knew: each player's own cards (the
    ones seen in that hand among them) and the draws, every card once."""
    placed: dict[Card, str] = {}
    for p in (0, 1):
        name = state.name(p)
        own = [c for c in table[p] if c not in draws[p]]
        if len(draws[p]) != len(set(draws[p])) or not set(draws[p]) <= set(table[p]):
            raise RuleError("CMP-7", f"{name}'s cards drawn at the table are not among {name}'s cards there")
        if len(own) != state.counts[p]:
            raise RuleError("CMP-7", f"{name} held {plural(state.counts[p], 'card')}, not {len(own)}")
        need = table_draw_count(state, p, len(own))
        if len(draws[p]) != need:
            raise RuleError("CMP-9" if state.dummy and p == 1 else "CMP-7",
                            f"{name} draws {plural(need, 'card')} at the table, not {len(draws[p])}")
        missing = [c for c in state.known[p] if c not in own]
        if missing:
            raise RuleError("CMP-7", f"the {missing[0].label} is in {name}'s hand (it was seen face up)")
        for card in table[p]:
            if card in placed:
                raise RuleError("CMP-7", f"the {card.label} is shown twice at the table ({placed[card]} and "
                                         f"{name}): a deck has one of each card")
            placed[card] = name
            if card in state.known[p] and card not in draws[p]:
                continue
            where = _where(state, card)
            if where is not None:
                raise RuleError("CMP-7", f"the {card.label} cannot be {name}'s at the table: it is {where}")


def spoils_choices(state: CampaignState) -> dict[str, Any]:
    """CMP-4: what the winner may take now.

    ``{"winner": p, "decisive": bool, "stake": Card, "pool": (cards…), "both": bool}``
    — after a decisive victory the stake **and** one pool card (``both``), else the
    stake **or** one pool card (the winner must take one: a card never makes a best
    hand worse). Empty outside the "spoils" phase.
    """
    state = state_arg(state)
    if state.phase != "spoils" or state.pending is None:
        return {}
    winner, troops, decisive = state.pending
    return {"winner": winner, "troops": troops, "decisive": decisive, "stake": state.stakes[1 - winner],
            "pool": state.pool, "both": decisive}


# ---------------------------------------------------------------------------
# May this card be entered? (the players' own deck, issue 18)


#: What a card may be entered as with the players' own deck (:func:`check_entry`).
ENTRIES = ("pool", "stake", "refill", "hand", "drawn")


def _entry_refusal(state: CampaignState, what: str, card: Card | str, player: int,
                   chosen: Iterable[Card | str]) -> ValueError | None:
    """The error that refuses the entry (:func:`check_entry`), or ``None``; an argument
    that is not one raises its :class:`CampaignError` at once."""
    state = state_arg(state)
    if not isinstance(what, str) or what not in ENTRIES:
        raise CampaignError(f"An entry is one of {', '.join(ENTRIES)} (got {brief_repr(what)})")
    card = cards_arg([card], "the card")[0]
    player = player_arg(player)
    picked = cards_arg(chosen, "the cards chosen")
    if card in picked:
        return CampaignError(f"the {card.label} is entered already: tap it again to take it back")
    try:
        if what == "pool":
            return None
        if what == "stake":
            check_stake(state, player, card, picked[0] if picked else None)
        elif what == "refill":
            check_new(state, card, "CMP-4", "the new pool card")
        elif what == "hand":
            if card not in state.known[player]:
                where = _where(state, card)
                if where is not None:
                    raise RuleError("CMP-7", f"the {card.label} cannot be in {state.name(player)}'s hand: it is "
                                             f"{where}")
        else:
            where = _where(state, card)
            if where is not None:
                raise RuleError("CMP-7", f"the {card.label} cannot be drawn from the deck: it is {where}")
    except RuleError as err:
        return err
    return None


def check_entry(state: CampaignState, what: str, card: Card | str, player: int = 0,
                chosen: Iterable[Card | str] = ()) -> None:
    """With the players' own deck (issue 18): whether ``card`` may be entered now as
    ``what`` — "pool" (dealt), "stake" (``player``'s), "refill" (the new pool card),
    "hand" or "drawn" (``player``'s at the negotiating table); ``chosen`` are the cards
    already picked in the same entry (each card once).

    Returns ``None`` when it may; else raises the :class:`~engine.game.RuleError` citing
    the clause (CMP-2, CMP-4, CMP-7), or a :class:`CampaignError` for a card in
    ``chosen`` already ("the Q♠ is entered already: tap it again to take it back") or an
    argument that is not one. The same checks :func:`normalize_action` makes (one check,
    used by the table to grey out and explain before anything is recorded).
    """
    refusal = _entry_refusal(state, what, card, player, chosen)
    if refusal is not None:
        raise refusal


def can_enter(state: CampaignState, what: str, card: Card | str, player: int = 0,
              chosen: Iterable[Card | str] = ()) -> bool:
    """Whether :func:`check_entry` lets ``card`` be entered now as ``what`` (an argument that
    is not one still raises its :class:`CampaignError`)."""
    return _entry_refusal(state, what, card, player, chosen) is None
