"""What each one may see of a campaign (RULES.md section 2): :func:`public_game`, the
spectator's copy (the face-up cards and dice as revealed facts, no hand, no deck order,
no seed), and a player's own view: :func:`player_cards`, :func:`visible_cards`,
:func:`treaty_chances` (CMP-7, CMP-8, the dummy's by CMP-9) and :func:`deck_left`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from ..cards import Card, full_deck
from ..game import Game, replay
from .rules import treaty_odds
from .setup import normalize_setup
from .values import KIND, CampaignError, CampaignState, player_arg, state_arg

_ALL = full_deck()


def player_cards(state: CampaignState, player: int) -> tuple[Card, ...]:
    """A player's own cards, hand and stake (empty in a spectator's copy)."""
    return state_arg(state).cards_of(player_arg(player))


def visible_cards(state: CampaignState, player: int) -> frozenset[Card]:
    """Every card ``player`` has seen: own cards, the pool, and every card ever face up."""
    state = state_arg(state)
    return frozenset(player_cards(state, player)) | frozenset(state.pool) | state.seen


def treaty_chances(state: CampaignState, player: int) -> dict[str, Fraction]:
    """CMP-7/CMP-8 for a player's private view: the exact chance of each hand category
    if the table came now — drawing up to five over the cards this player cannot see.

    Uses only what the player knows (own cards; pool, stakes and every card that was
    ever face up are not in the deck as far as they can tell). For the dummy (CMP-9)
    nobody knows its hidden cards: its chances use only what everyone has seen (its
    stake and the cards it was seen to take; its hidden cards are any of the unseen
    ones) and count its extra card at the table. Empty for a spectator's copy or a
    finished campaign.
    """
    state = state_arg(state)
    player = player_arg(player)
    if state.public or state.table_deck or state.phase == "over":
        return {}  # with the players' own deck the app never knows a hand (issue 18)
    if state.dummy and player == 1:
        stake = state.stakes[1]
        own = state.known[1] + ((stake,) if stake is not None else ())
        hidden = state.counts[1] - len(state.known[1])
        unseen = [card for card in _ALL if card not in state.seen and card not in state.pool]
        return treaty_odds(own, unseen, hidden=hidden, extra=1)
    own = player_cards(state, player)
    if not own:
        return {}
    seen = visible_cards(state, player)
    unseen = [card for card in _ALL if card not in seen]
    return treaty_odds(own, unseen)


#: The fields of each action (what a spectator's copy keeps: in a campaign no action
#: carries a hidden card; with the players' own deck the entered cards are all public).
_PUBLIC_FIELDS = {"battle": ("type", "winner", "troops"), "take": ("type", "stake", "pool"),
                  "roll": ("type", "dice"), "negotiate": ("type",), "deal": ("type", "pool"),
                  "stakes": ("type", "stakes"), "refill": ("type", "card"),
                  "lay": ("type", "player", "hand", "drawn")}


def public_game(game: Game) -> Game:
    """A spectator's copy: no hidden hand, no deck order, no seed, no redo stack.

    The actions in force are kept (with their known fields); the cards and dice
    that were shown face up — the pool, every stake, the pool refills, the dice,
    and the table once the campaign reached it — go into the setup as
    ``"reveal"``, so the copy replays the same public table without the seed.
    """
    if not isinstance(game, Game) or game.kind != KIND:
        raise CampaignError("public_game takes a campaign game")
    state = replay(game)
    history = dict(state.history or {})
    reveal: dict[str, Any] = {"pool": history.get("pool", []), "stakes": history.get("stakes", []),
                              "refills": history.get("refills", []), "dice": history.get("dice", [])}
    if state.table_deck:  # the cards entered are in the actions; the dice the app rolled are not
        reveal = {"dice": history.get("dice", [])}
    elif "table" in history:
        reveal["table"] = history["table"]
        reveal["drawn"] = history["drawn"]
    kept = []
    for action in game.actions[: game.position]:
        kind = action.get("type") if isinstance(action, Mapping) else None
        if kind in _PUBLIC_FIELDS:
            kept.append({key: action[key] for key in _PUBLIC_FIELDS[kind] if key in action})
    setup = normalize_setup({k: v for k, v in game.setup.items() if k not in ("reveal", "spectator")})
    setup["reveal"] = reveal
    setup["spectator"] = True
    return replace(game, seed=0, setup=setup, actions=tuple(kept), position=len(kept), _tip=None)


def deck_left(state: CampaignState) -> int:
    """How many cards are in the draw pile: 52 less every card held, staked, in the pool
    or laid down (the same with the app's deck or the players' own)."""
    state = state_arg(state)
    if state.hands_known:
        return len(state.deck)
    held = sum(state.card_count(p) for p in (0, 1)) if state.treaty is None else sum(
        len(c) for c in state.treaty.cards)
    return 52 - held - len(state.pool)
