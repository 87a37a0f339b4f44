"""Shared helpers of the CONSIM engine tests (tests/engine/test_consim*.py)."""

from __future__ import annotations

from typing import Any

from engine import consim as cs
from engine.game import apply, new_game, replay

KIND = cs.KIND


def man(name: str, side: int = 0, *, training: str = "untrained", weapon: list[str] | None = None,
        player: bool = False, grain: str = "individual") -> dict[str, Any]:
    return {"name": name, "side": side, "grain": grain, "training": training,
            "weapon": weapon or [], "player": player}


def roster(*combatants: dict[str, Any], privacy: bool = True, sides: tuple[str, ...] = ("Blue", "Red")
           ) -> dict[str, Any]:
    return {"sides": list(sides), "combatants": list(combatants), "privacy": privacy}


def two_sides(n: int = 3) -> dict[str, Any]:
    """Blue 1 (a player character) … Blue n with automatic weapons; Red 1 … Red n trained, semi-automatic."""
    return roster(*[man(f"Blue {i + 1}", 0, player=i == 0, weapon=["automatic"]) for i in range(n)],
                  *[man(f"Red {i + 1}", 1, weapon=["semi-automatic"], training="trained") for i in range(n)])


#: The kit's games record their cards (:func:`deal`) and dice (:func:`shoot`): the table's
#: own deck and dice (HR-CS-6/7), since the app's are never recorded (issue 35).
OWN = {"deck": cs.DECK_TABLE, "dice": cs.DICE_TABLE}


def game(setup: dict[str, Any] | None = None, rules: dict[str, Any] | None = None, seed: int = 1):
    """A game of ``setup`` (default :func:`two_sides`) with ``rules`` (default :data:`OWN`)."""
    return new_game(KIND, setup or two_sides(), OWN if rules is None else rules, seed)


def run(g, *actions: dict[str, Any]):
    """``actions`` applied in turn. In a game with the table's own deck (:data:`OWN`) a deal
    without cards is the GM's: the cards owed, from a fresh deck in its order (spades from
    the ace down, then hearts …)."""
    for action in actions:
        if action.get("type") == "deal" and "cards" not in action and g.rules.get("deck") == cs.DECK_TABLE:
            action = table_deal(replay(g), action)
        g = apply(g, action)
    return g


def table_deal(state, action: dict[str, Any]) -> dict[str, Any]:
    """``action`` (a deal) with the cards each combatant is owed (:func:`engine.consim.cards_owed`)."""
    advantages = {int(k): len(v) for k, v in action.get("advantages", {}).items()}
    owed = cs.cards_owed(state, advantages, action.get("surprised", ()))
    deck = [f"{rank}{suit}" for suit in "SHDC" for rank in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4",
                                                            "3", "2")]
    cards, at = {}, 0
    for i, count in enumerate(owed):
        if count:
            cards[str(i)] = deck[at:at + count]
            at += count
    return {**action, "cards": cards}


DEAL = {"type": "deal"}
NEXT = {"type": "next"}
END = {"type": "end_round"}

#: Spades from the ace down: recorded deals where combatant i acts i-th.
SPADES = ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"]


def deal(*hands: str, advantages: dict[str, list[str]] | None = None, surprised: list[int] | None = None,
         **extra: Any) -> dict[str, Any]:
    """A recorded deal (CS-6): ``hands[i]`` are combatant i's cards ("AS KH"), "" for none."""
    action: dict[str, Any] = {"type": "deal", "cards": {str(i): h.split() for i, h in enumerate(hands) if h}}
    if advantages:
        action["advantages"] = advantages
    if surprised:
        action["surprised"] = surprised
    action.update(extra)
    return action


def in_order(count: int) -> dict[str, Any]:
    """A recorded deal of one card each, combatant 0 acting first, then 1, 2 …"""
    return deal(*SPADES[:count])


def shoot(shooter: int, *targets: int, mode: str = "aimed", cover: str = "none", unseen: bool = False,
          semi: str | None = None, dice: list[dict[str, int]] | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "shoot", "shooter": shooter, "targets": list(targets), "mode": mode,
                              "cover": cover, "unseen": unseen}
    if semi:
        action["semi"] = semi
    if dice is not None:
        action["dice"] = dice
    return action


def acting(g) -> int | None:
    return cs.acting(replay(g))


def until(g, who: int, limit: int = 60):
    """Next until combatant ``who`` is the current actor."""
    for _ in range(limit):
        if acting(g) == who:
            return g
        g = apply(g, NEXT)
    raise AssertionError(f"combatant {who} never came up")


def fighter(training: str = "untrained", *traits: str) -> cs.Combatant:
    return cs.Combatant("X", 0, training=cs.Training(training), weapon=frozenset(cs.Trait(t) for t in traits))
