"""Campaign's steps (RULES.md section 2): :func:`start` deals (CMP-1) and draws the first
stakes (CMP-2); :func:`step` plays one action — a battle recorded (CMP-3, CMP-5, CMP-11,
CMP-12), the spoils (CMP-4; the dummy's by CMP-9/CMP-10), the exhaustion roll (CMP-6),
the negotiating table (CMP-7, CMP-8, CMP-9) and, with the players' own deck, the cards
the table enters — over an immutable :class:`~engine.campaign.values.CampaignState`. And
the words of the table: :func:`describe`, :func:`status`, :func:`standing`,
:func:`undo_warning`, :func:`equipment`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from ..cards import Card, CardError, parse_card, shuffled_deck
from ..game import FrozenDict, Game, RuleError, SetupError, replaced
from ..text import brief_repr, plural
from .opponent import dummy_spoils
from .poker import best_hand
from .referee import check_new, check_stake, check_table, normalize_action, rules_settings
from .rules import compare_hands, exhaustion_chance, is_decisive, table_draw_count
from .setup import normalize_setup
from .values import (
    DECKS,
    EXHAUSTION_FROM,
    HAND_SIZE,
    KIND,
    LEGACY,
    MAX_TROOPS,
    POOL_SIZE,
    CampaignError,
    CampaignState,
    LogEntry,
    Roll,
    Treaty,
    hand_order,
    state_arg,
)

# ---------------------------------------------------------------------------
# Moving cards


_SPECTATOR_END = "this spectator view ends here: the link shows only what had happened when it was shared"


def _take_script(state: CampaignState, key: str, count: int = 1) -> tuple[list[Any], CampaignState]:
    """Spectator copy: the next revealed facts of one kind."""
    script = state.script or {}
    items = list(script.get(key, []))
    if len(items) < count:
        raise RuleError(_SCRIPT_RULE[key], _SPECTATOR_END)
    rest = dict(script)
    rest[key] = items[count:]
    return items[:count], replace(state, script=FrozenDict(rest))


_SCRIPT_RULE = {"stakes": "CMP-2", "refills": "CMP-4", "dice": "CMP-6", "table": "CMP-7"}


def _remember(state: CampaignState, key: str, values: list[Any]) -> CampaignState:
    history = dict(state.history or {})
    history[key] = list(history.get(key, [])) + values
    return replace(state, history=FrozenDict(history))


def _d6(state: CampaignState, rng: random.Random | None) -> tuple[int, CampaignState]:
    if state.public:
        (roll,), state = _take_script(state, "dice")
    else:
        roll = _rng(rng).randint(1, 6)
    return roll, _remember(state, "dice", [roll])


def _rng(rng: Any) -> random.Random:
    if not isinstance(rng, random.Random):
        raise CampaignError("This step deals or rolls: it needs the game's random generator (random.Random)")
    return rng


def _log(state: CampaignState, text: str, rule: str, cards: Iterable[Card] = ()) -> CampaignState:
    if text.startswith(rule + ": "):  # the table shows the id beside the text: never twice
        text = text[len(rule) + 2:]
        text = text[:1].upper() + text[1:]
    return replace(state, log=state.log + (LogEntry(state.battle, text, rule, tuple(cards)),))


def _add_to_hand(state: CampaignState, player: int, cards: Iterable[Card]) -> CampaignState:
    """Face-up cards into a hand: they are counted, and known to be there."""
    cards = tuple(cards)
    counts = replaced(state.counts, player, state.counts[player] + len(cards))
    known = replaced(state.known, player, hand_order(state.known[player] + cards))
    if not state.hands_known:
        return replace(state, counts=counts, known=known)
    hands = replaced(state.hands, player, hand_order(state.hands[player] + cards))
    return replace(state, hands=hands, counts=counts, known=known)


def _draw_stakes(state: CampaignState, rng: random.Random | None,
                 entered: tuple[Card, Card] | None = None) -> CampaignState:
    """CMP-2 (CMP-9 for the dummy): each player stakes one card of the hand at random, face up.

    With the players' own deck the table turns the stakes up: the state waits in
    "stakes" until they are entered (``entered``, checked by :func:`normalize_action`).
    """
    for p in (0, 1):
        if state.counts[p] < 1:  # cannot happen: losing the last card ends the campaign
            raise RuleError("CMP-2", f"{state.name(p)} has no card to stake")
    if state.table_deck and entered is None:
        return replace(state, phase="stakes", pending=None)
    if entered is not None:
        stakes = entered
        state = replace(state, counts=(state.counts[0] - 1, state.counts[1] - 1))
    elif state.public:
        (pair,), state = _take_script(state, "stakes")
        stakes = (parse_card(pair[0]), parse_card(pair[1]))
        check_stake(state, 0, stakes[0])
        check_stake(state, 1, stakes[1], stakes[0])
        state = replace(state, counts=(state.counts[0] - 1, state.counts[1] - 1))
    else:
        rng = _rng(rng)
        stakes_list = []
        hands = list(state.hands)
        for p in (0, 1):
            hand = hands[p]
            stake = hand[0] if len(hand) == 1 else hand[rng.randrange(len(hand))]
            stakes_list.append(stake)
            hands[p] = tuple(card for card in hand if card != stake)
        stakes = (stakes_list[0], stakes_list[1])
        state = replace(state, hands=(hands[0], hands[1]), counts=(len(hands[0]), len(hands[1])))
    known = tuple(tuple(c for c in state.known[p] if c != stakes[p]) for p in (0, 1))
    state = replace(state, stakes=stakes, known=(known[0], known[1]))
    state = _remember(state, "stakes", [[str(stakes[0]), str(stakes[1])]])
    state = replace(state, phase="battle", pending=None, seen=state.seen | set(stakes))
    last = [state.name(p) for p in (0, 1) if state.counts[p] == 0]
    how = "dealt at random for the dummy (CMP-9)" if state.dummy else "picked at random"
    if state.table_deck:
        how = ("turned up at random from each hand; the dummy's dealt at random (CMP-9)" if state.dummy
               else "turned up at random from each hand")
    text = (f"Battle {state.battle}: {state.name(0)} stakes the {stakes[0].label}, "
            f"{state.name(1)} stakes the {stakes[1].label} ({how})")
    if last:
        text += f"; last card for {' and '.join(last)}: losing it loses the campaign"
    return _log(state, text, "CMP-2", stakes)


def _refill_pool(state: CampaignState, at: int, entered: Card | None = None) -> CampaignState:
    """CMP-4: a pool card taken is replaced from the deck; the new card takes the place of
    the one taken (ruling; games from before it keep the right end, ``legacy``)."""
    if entered is not None:
        card = entered
    elif state.public:
        (token,), state = _take_script(state, "refills")
        card = parse_card(token)
        check_new(state, card, "CMP-4", "the new pool card")
    else:
        if not state.deck:  # cannot happen: CMP-6 ends the campaign by battle 8 at the latest
            return state
        card, deck = state.deck[0], state.deck[1:]
        state = replace(state, deck=deck)
    state = _remember(state, "refills", [str(card)])
    if "refill-end" in state.legacy:
        pool = state.pool + (card,)
    else:
        pool = state.pool[:at] + (card,) + state.pool[at:]
    state = replace(state, pool=pool, seen=state.seen | {card}, refill_at=None)
    return _log(state, f"The {card.label} is drawn from the deck into the pool", "CMP-4", (card,))


def _settle(state: CampaignState, winner: int, take_stake: bool, pool_card: Card | None,
            rng: random.Random | None, why: str = "") -> CampaignState:
    """CMP-4/CMP-5/CMP-2: move the spoils, return the stakes, refill the pool, check the last card."""
    loser = 1 - winner
    win, lose = state.name(winner), state.name(loser)
    stakes = state.staked()
    taken: list[Card] = []
    at = 0
    if take_stake:
        card = stakes[loser]
        taken.append(card)
        state = _log(state, f"{win} takes {lose}'s stake, the {card.label}{why}", "CMP-4", (card,))
    if pool_card is not None:
        taken.append(pool_card)
        at = state.pool.index(pool_card)
        state = replace(state, pool=state.pool[:at] + state.pool[at + 1:])
        state = _log(state, f"{win} takes the {pool_card.label} from the pool{why if not take_stake else ''}",
                     "CMP-4", (pool_card,))
    state = _add_to_hand(state, winner, taken)
    returned = [(winner, stakes[winner])] + ([] if take_stake else [(loser, stakes[loser])])
    for p, card in returned:
        state = _add_to_hand(state, p, (card,))
    state = replace(state, stakes=(None, None))
    state = _log(state, "Stakes back to their owners: " + ", ".join(
        f"the {card.label} to {state.name(p)}" for p, card in returned), "CMP-5", [c for _, c in returned])
    if pool_card is not None and not state.table_deck:
        state = _refill_pool(state, at)
    if state.counts[loser] == 0:
        result = (f"CMP-2: {lose} lost the last card — {win} wins the campaign after "
                  f"{plural(state.battle, 'battle')}.")
        state = replace(state, phase="over", winner=winner, result=result, fought=state.battle, pending=None)
        return _log(state, result, "CMP-2")
    if pool_card is not None and state.table_deck:  # the table draws the new pool card and enters it
        return replace(state, phase="refill", refill_at=at, pending=None)
    return _after_battle(state, rng)


def _after_battle(state: CampaignState, rng: random.Random | None) -> CampaignState:
    """CMP-6 (CMP-11: a drawn battle counts): the exhaustion roll after the third battle and
    every later one."""
    fought = state.battle
    state = replace(state, fought=fought, pending=None)
    if fought >= EXHAUSTION_FROM:
        if exhaustion_chance(fought) == 1 and "certain-roll" not in state.legacy:
            state = _log(state, f"No exhaustion roll after battle {fought}: it cannot fail — even a 1 on the lower "
                                f"die makes 1 + {fought} battles = {1 + fought}, 9 or more. Both sides are "
                                "exhausted and go to the negotiating table", "CMP-6")
            return replace(state, phase="exhausted")
        return replace(state, phase="exhaustion")
    return _next_battle(state, rng)


def _next_battle(state: CampaignState, rng: random.Random | None) -> CampaignState:
    return _draw_stakes(replace(state, battle=state.battle + 1), rng)


def _dummy_takes(state: CampaignState, decisive: bool, rng: random.Random | None) -> CampaignState:
    """CMP-9/CMP-10 (HR-CMP-1): the dummy takes the highest card or cards it may
    (:func:`engine.campaign.opponent.dummy_spoils`); its die is the game's."""

    def roll_die() -> int:
        nonlocal state
        roll, state = _d6(state, rng)
        return roll

    take_stake, pool_card, why = dummy_spoils(state, decisive, roll_die)
    return _settle(state, 1, take_stake, pool_card, rng, why)


# ---------------------------------------------------------------------------
# Session protocol


def start(setup: Mapping[str, Any], rules: Mapping[str, Any] | None, rng: random.Random) -> CampaignState:
    """CMP-1 then CMP-2: deal six hidden cards each and a pool of four; stakes for battle 1."""
    normal = normalize_setup(setup)
    rules_settings(rules)
    players = (normal["players"][0], normal["players"][1])
    reveal = normal.get("reveal")
    legacy = frozenset(normal.get("legacy", ()))
    if normal.get("deck") == "table":
        script = FrozenDict({"dice": list(reveal["dice"])}) if reveal is not None else None
        state = CampaignState(players=players, dummy=normal["dummy"], hands=((), ()),
                              counts=(HAND_SIZE, HAND_SIZE), stakes=(None, None), pool=(), deck=(),
                              phase="deal", battle=0, public=reveal is not None, script=script, legacy=legacy,
                              deck_mode="table", history=FrozenDict())
        dummy = " (the dummy's face down: nobody looks at them, CMP-9)" if state.dummy else ""
        return _log(state, f"With your own deck: six cards dealt to each player{dummy} and four face up to the "
                           "pool; the hands stay in the players' hands", "CMP-1")
    if reveal is not None:
        pool = tuple(parse_card(token) for token in reveal["pool"])
        state = CampaignState(players=players, dummy=normal["dummy"], hands=((), ()),
                              counts=(HAND_SIZE, HAND_SIZE), stakes=(None, None), pool=pool, deck=(),
                              phase="battle", battle=0, seen=frozenset(pool), public=True, legacy=legacy,
                              script=FrozenDict({k: v for k, v in reveal.items() if k != "pool"}))
    else:
        deck = shuffled_deck(_rng(rng))
        hands = (hand_order(deck[:HAND_SIZE]), hand_order(deck[HAND_SIZE:2 * HAND_SIZE]))
        pool = tuple(deck[2 * HAND_SIZE:2 * HAND_SIZE + POOL_SIZE])
        state = CampaignState(players=players, dummy=normal["dummy"], hands=hands,
                              counts=(HAND_SIZE, HAND_SIZE), stakes=(None, None), pool=pool,
                              deck=tuple(deck[2 * HAND_SIZE + POOL_SIZE:]), phase="battle", battle=0,
                              seen=frozenset(pool), legacy=legacy)
    state = replace(state, history=FrozenDict({"pool": [str(c) for c in pool]}))
    for key in sorted(legacy):
        state = _log(state, f"This campaign was played with an earlier version of the app; it keeps that "
                            f"version's reading, so that it replays as it was played: {LEGACY[key]}",
                     "CMP-4" if key == "refill-end" else "CMP-6")
    dummy = " (the dummy's cards stay hidden, CMP-9)" if state.dummy else ""
    state = _log(state, f"Six hidden cards dealt to each player{dummy}; the pool: "
                        + " ".join(c.label for c in pool), "CMP-1", pool)
    return _next_battle(state, rng)


def _battle(state: CampaignState, action: Mapping[str, Any], rng: random.Random | None) -> CampaignState:
    """CMP-3/CMP-5/CMP-11: record a battle fought on the tabletop."""
    winner = action["winner"]
    if winner is None:
        state = _log(state, f"Battle {state.battle} is drawn: no card moves; it counts as a battle fought "
                            "(CMP-11)", "CMP-5")
        stakes = state.staked()
        returned = [(p, stakes[p]) for p in (0, 1)]
        for p, card in returned:
            state = _add_to_hand(state, p, (card,))
        state = replace(state, stakes=(None, None))
        state = _log(state, "Stakes back to their owners: " + ", ".join(
            f"the {card.label} to {state.name(p)}" for p, card in returned), "CMP-5", [c for _, c in returned])
        return _after_battle(state, rng)
    troops = action["troops"]
    decisive = is_decisive(troops)
    kind = (f"a decisive victory ({troops} troop points left, 8 or more)" if decisive
            else f"a victory, not decisive ({plural(troops, 'troop point')} left, under 8)")
    state = _log(state, f"Battle {state.battle}: {state.name(winner)} wins — {kind}", "CMP-3")
    if state.dummy and winner == 1:
        return _dummy_takes(state, decisive, rng)
    return replace(state, phase="spoils", pending=(winner, troops, decisive))


def _take(state: CampaignState, action: Mapping[str, Any], rng: random.Random | None) -> CampaignState:
    """CMP-4: the winner's choice (checked by :func:`normalize_action`)."""
    assert state.pending is not None
    winner = state.pending[0]
    pool_card = None if action["pool"] is None else parse_card(action["pool"])
    return _settle(state, winner, action["stake"], pool_card, rng)


def _roll(state: CampaignState, rng: random.Random | None, dice: list[int] | None = None) -> CampaignState:
    """CMP-6: 2d6, keep the lower, add the battles fought; 9 or more exhausts both sides.

    ``dice``: the players' own dice as rolled at the table (a fact of the action)."""
    if dice is not None:
        first, second = dice
    else:
        first, state = _d6(state, rng)
        second, state = _d6(state, rng)
    roll = Roll(state.fought, (first, second))
    state = replace(state, rolls=state.rolls + (roll,))
    verdict = ("both sides are exhausted and go to the negotiating table" if roll.exhausted
               else "the war goes on")
    state = _log(state, f"Exhaustion roll after battle {roll.battles}{' (your dice)' if dice else ''}: "
                        f"{first} and {second}, lower {roll.lower} "
                        f"+ {roll.battles} battles = {roll.total} ({'≥' if roll.exhausted else '<'} 9): {verdict}",
                 "CMP-6")
    if roll.exhausted:
        return replace(state, phase="exhausted")
    return _next_battle(state, rng)


def _negotiate(state: CampaignState) -> CampaignState:
    """CMP-7/CMP-8/CMP-9: draw up to five (the dummy one card more), best hands decide the war.

    Draws are made in player order (CMP-7 ruling: the first player, then the second
    or the dummy); a dummy short of five draws up to five, then its extra card (CMP-9
    ruling: it ends with max(n, 5) + 1 cards).
    """
    if state.public:
        script = dict(state.script or {})
        cards, drawn = script.pop("table", None), script.pop("drawn", None)
        if cards is None or drawn is None:
            raise RuleError("CMP-7", _SPECTATOR_END)
        state = replace(state, script=FrozenDict(script))
        table = tuple(hand_order(parse_card(t) for t in cards[p]) for p in (0, 1))
        draws = tuple(tuple(parse_card(t) for t in drawn[p]) for p in (0, 1))
        check_table(state, table, draws)
    else:
        deck = state.deck
        table_list, draw_list = [], []
        for p in (0, 1):
            own = state.hands[p]
            need = table_draw_count(state, p, len(own))
            draw_list.append(tuple(deck[:need]))
            deck = deck[need:]
            table_list.append(hand_order(own + draw_list[-1]))
        table = (table_list[0], table_list[1])
        draws = (draw_list[0], draw_list[1])
        state = replace(state, deck=deck, hands=table)
    return _judge(state, table, draws)


def _log_draws(state: CampaignState, p: int, drawn: tuple[Card, ...]) -> CampaignState:
    if state.dummy and p == 1:
        why = "up to five (CMP-7) and one extra card" if len(drawn) > 1 else "one extra card"
    else:
        why = "up to five"
    return _log(state, f"At the table {state.name(p)} draws {' '.join(c.label for c in drawn)} — {why}",
                "CMP-9" if state.dummy and p == 1 else "CMP-7", drawn)


def _judge(state: CampaignState, table: tuple[tuple[Card, ...], ...],
           draws: tuple[tuple[Card, ...], ...], draws_logged: bool = False) -> CampaignState:
    """CMP-8: the best hands of the cards at the table decide the war."""
    history = dict(state.history or {})
    history["table"] = [[str(c) for c in cards] for cards in table]
    history["drawn"] = [[str(c) for c in cards] for cards in draws]
    state = replace(state, history=FrozenDict(history))
    for p in (0, 1):
        if draws[p] and not draws_logged:
            state = _log_draws(state, p, draws[p])
    hands = (best_hand(table[0]), best_hand(table[1]))
    winner, explanation = compare_hands(hands[0], hands[1], state.players)
    treaty = Treaty(cards=(table[0], table[1]), drawn=(draws[0], draws[1]), hands=hands, winner=winner,
                    explanation=explanation)
    result = (f"{state.name(winner)} wins the war at the negotiating table." if winner is not None
              else "The treaty is a draw: equal hands.")
    state = replace(state, treaty=treaty, phase="over", winner=winner, result=result,
                    counts=(len(table[0]), len(table[1])), known=(table[0], table[1]),
                    seen=state.seen | set(table[0]) | set(table[1]))
    for p in (0, 1):
        state = _log(state, f"{state.name(p)}: {hands[p]}", "CMP-8", hands[p].cards)
    return _log(state, explanation, "CMP-8")


def step(state: CampaignState, action: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
         rng: random.Random | None = None) -> CampaignState:
    """The state after ``action`` (see the module docstring). Never mutates ``state``.

    Refuses (with the same error) everything :func:`normalize_action` refuses.
    """
    action = normalize_action(state, action, rules)
    kind = action["type"]
    if kind == "battle":
        return _battle(state, action, rng)
    if kind == "take":
        return _take(state, action, rng)
    if kind == "roll":
        return _roll(state, rng, action.get("dice"))
    if kind == "negotiate":
        return _negotiate(state)
    if kind == "deal":
        pool = tuple(parse_card(t) for t in action["pool"])
        state = replace(state, pool=pool, seen=state.seen | set(pool))
        state = _remember(state, "pool", [str(c) for c in pool])
        state = _log(state, "The pool as dealt: " + " ".join(c.label for c in pool), "CMP-1", pool)
        return _next_battle(state, rng)
    if kind == "stakes":
        s0, s1 = (parse_card(t) for t in action["stakes"])
        return _draw_stakes(state, rng, (s0, s1))
    if kind == "refill":
        state = _refill_pool(state, state.refill_at or 0, parse_card(action["card"]))
        return _after_battle(state, rng)
    return _lay(state, action)


def _lay(state: CampaignState, action: Mapping[str, Any]) -> CampaignState:
    """CMP-7 (CMP-9): one player's cards laid down at the negotiating table, with the cards
    drawn there; once both are down, CMP-8 judges them."""
    player = action["player"]
    hand = hand_order(parse_card(t) for t in action["hand"])
    drawn = tuple(parse_card(t) for t in action["drawn"])
    name = state.name(player)
    state = replace(state, laid=state.laid + ((hand, drawn),), seen=state.seen | set(hand) | set(drawn),
                    counts=replaced(state.counts, player, len(hand) + len(drawn)))
    state = _log(state, f"At the table {name} lays down {plural(len(hand), 'card')}: "
                        + " ".join(c.label for c in hand), "CMP-7", hand)
    if drawn:
        state = _log_draws(state, player, drawn)
    if player == 0:
        return state
    table = tuple(hand_order(h + d) for h, d in state.laid)
    draws = tuple(d for _, d in state.laid)
    return _judge(state, table, draws, draws_logged=True)


# ---------------------------------------------------------------------------
# The table's words: the history, the status line, the list of saves, Undo, the Share drawer


def describe(state: CampaignState, action: Mapping[str, Any]) -> str:
    """A short history label of ``action`` taken in ``state``."""
    state = state_arg(state)
    if not isinstance(action, Mapping):
        return "Unknown action"
    kind = action.get("type")
    if kind == "battle":
        winner = action.get("winner")
        if winner is None:
            return f"Battle {state.battle} · drawn"
        name = state.name(winner) if winner in (0, 1) and not isinstance(winner, bool) else "?"
        troops = action.get("troops")
        if not isinstance(troops, int) or isinstance(troops, bool) or not 0 <= troops <= MAX_TROOPS:
            return f"Battle {state.battle} · {name} wins"
        decisive = ", decisive" if is_decisive(troops) else ""
        return f"Battle {state.battle} · {name} wins ({plural(troops, 'troop point')}{decisive})"
    if kind == "take":
        winner = state.pending[0] if state.pending else 0
        parts = []
        if action.get("stake") is True:
            parts.append(f"{state.name(1 - winner)}'s stake")
        try:
            if action.get("pool") is not None:
                parts.append(f"the {parse_card(action['pool']).label} from the pool")
        except CardError:
            parts.append("a pool card")
        return f"Battle {state.battle} · {state.name(winner)} takes {' and '.join(parts) or 'nothing'}"
    if kind == "roll":
        dice = action.get("dice")
        if isinstance(dice, (list, tuple)) and len(dice) == 2:
            return f"Exhaustion roll after battle {state.fought} · your dice {dice[0]} and {dice[1]}"
        return f"Exhaustion roll after battle {state.fought}"
    if kind == "negotiate":
        return "The negotiating table"
    try:
        if kind == "deal":
            return "The pool as dealt · " + " ".join(parse_card(t).label for t in action.get("pool", ()))
        if kind == "stakes":
            a, b = (parse_card(t).label for t in action.get("stakes", ()))
            return f"Battle {state.battle} · stakes {a} and {b}"
        if kind == "refill":
            return f"Battle {state.battle} · the {parse_card(action.get('card')).label} into the pool"
        if kind == "lay":
            player = action.get("player")
            name = state.name(player) if player in (0, 1) and not isinstance(player, bool) else "?"
            hand, drawn = action.get("hand") or (), action.get("drawn") or ()
            more = f", draws {len(drawn)}" if drawn else ""
            return f"The negotiating table · {name} lays down {plural(len(hand), 'card')}{more}"
    except (CardError, ValueError, TypeError):
        pass
    return "Unknown action"


def status(state: CampaignState) -> str:
    """What the table is waiting for, in one sentence."""
    state = state_arg(state)
    if state.phase == "over":
        return state.result
    if state.phase == "spoils" and state.pending is not None:
        winner, troops, decisive = state.pending
        lose = state.name(1 - winner)
        if decisive:
            return f"Battle {state.battle}: {state.name(winner)} takes {lose}'s stake and one pool card (CMP-4)"
        return f"Battle {state.battle}: {state.name(winner)} takes {lose}'s stake or one pool card (CMP-4)"
    if state.phase == "exhaustion":
        return f"Battle {state.fought} fought: roll for exhaustion (CMP-6)"
    if state.phase == "exhausted":
        if state.table_deck:
            return (f"Both sides are exhausted: {state.name(len(state.laid))} lays the cards down at the "
                    "negotiating table (CMP-7)")
        return "Both sides are exhausted: to the negotiating table (CMP-7)"
    if state.phase == "deal":
        return "Deal six cards to each player and four face up to the pool, then enter the pool (CMP-1)"
    if state.phase == "stakes":
        who = "each player turns up a card of the hand at random" + (
            " (the dummy's is dealt at random from its face-down cards, CMP-9)" if state.dummy else "")
        return f"Battle {state.battle}: {who}; enter both stakes (CMP-2)"
    if state.phase == "refill":
        return f"Battle {state.battle}: draw a card from the deck for the pool and enter it (CMP-4)"
    return f"Battle {state.battle}: fight it on the tabletop, then record the result (CMP-3)"


def undo_warning(game: Game, position: int) -> str | None:
    """What the table must hear before going back from ``game.position`` to ``position``
    (the session asks before Undo or a jump in the History), or ``None``.

    Going back past the negotiating table (CMP-7) needs a question: there every hand
    was laid down — the dummy's hidden cards too (CMP-9) — and the top of the deck
    drawn, so a table that goes back could record battles and choose spoils (CMP-4)
    again knowing them. Going back past a battle, a spoils choice or a roll needs
    none: a player's own hand behind the curtain is not news to anyone, and a redone
    roll or stake is the same roll or stake (one seeded generator).
    """
    if not isinstance(game, Game) or game.kind != KIND:
        raise CampaignError("undo_warning takes a campaign game")
    if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position <= game.position:
        raise CampaignError(f"Going back means a point from 0 to {game.position} (got {brief_repr(position)})")
    crossed = [a for a in game.actions[position:game.position] if isinstance(a, Mapping)]
    if not any(a.get("type") == "negotiate" for a in crossed):
        return None
    players = game.setup.get("players") or ["Player 1", "Player 2"]
    seen = ("every hand was laid down, the dummy's too, and the top of the deck was drawn"
            if game.setup.get("dummy") else "both hands were laid down and the top of the deck was drawn")
    who = players[0] if game.setup.get("dummy") else f"{players[0]} and {players[1]}"
    return (f"At the negotiating table {seen}: everyone has seen them. Going back lets {who} record battles "
            "and choose spoils again knowing those cards (CMP-7). Go back anyway?")


def standing(state: CampaignState) -> str:
    """Where the campaign stands, in a few words, for the list of saves:
    ``"Battle 5 · Anna 7 cards, Ben 5"``; at the end, who won."""
    state = state_arg(state)
    counts = f"{state.name(0)} {plural(state.card_count(0), 'card')}, {state.name(1)} {state.card_count(1)}"
    if state.phase == "over":
        winner = state.winner
        if winner is None:  # CMP-8: only a treaty of equal hands ends in a draw
            return f"Over · the treaty is a draw after {plural(state.fought, 'battle')}"
        if state.treaty is None:
            return (f"Over · {state.name(winner)} won: {state.name(1 - winner)} lost the last card "
                    f"in battle {state.battle}")
        return f"Over · {state.name(winner)} won at the negotiating table after {plural(state.fought, 'battle')}"
    if state.phase == "exhaustion":
        return f"Battle {state.fought} fought · exhaustion roll · {counts}"
    if state.phase == "exhausted":
        return f"Exhausted after battle {state.fought} · {counts}"
    if state.phase == "deal":
        return "Dealing · the pool to enter"
    return f"Battle {state.battle} · {counts}"


def equipment(setup: Mapping[str, Any], rules: Mapping[str, Any] | None = None) -> str:
    """Whose deck and dice (issue 18, setup ``"deck"``), in players' words."""
    if not isinstance(setup, Mapping):
        raise SetupError("The setup must be an object")
    deck = setup.get("deck", "app")
    return DECKS.get(deck, DECKS["app"]) if isinstance(deck, str) else DECKS["app"]

