"""Organizations In Conflict: the steps of a game (OIC-8 … OIC-10, OIC-14 … OIC-19) —
:func:`start`, :func:`step`, and what the table and the saves say of a state:
:func:`describe`, :func:`status`, :func:`standing`; the optional hooks
:func:`equipment`, :func:`undo_warning` and :func:`replay_work` (:mod:`engine.system`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from ..cards import Card, CardError, Suit, parse_card, shuffled_deck
from ..game import Game, SetupError, replaced
from ..referee import listed_count
from ..rules import SettingsError, resolve_rules
from ..text import plural
from .referee import checked_action, discard_cards
from .rules import best_place, call_totals, hand_size, in_world_time, side_ahead, side_engageable, threshold_words
from .setup import normalize_setup, setup_sides
from .values import (
    KIND,
    VARIANTS,
    ArgumentError,
    ConflictState,
    Play,
    RoundResult,
    Scope,
    Side,
    checked_state,
    is_whole,
    join_or,
    quote,
    setting,
    whole,
)

# ---------------------------------------------------------------------------
# The start of a round: shuffles and hands (OIC-8, OIC-9, OIC-14)


def _draw(pile: tuple[Card, ...], discards: tuple[Card, ...], count: int,
          rng: random.Random) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """OIC-9: draw *count* cards; when the pile runs out, the discards are shuffled into a new one."""
    drawn: list[Card] = []
    while len(drawn) < count:
        if not pile:
            if not discards:
                break
            fresh = list(discards)
            rng.shuffle(fresh)
            pile, discards = tuple(fresh), ()
        take = min(count - len(drawn), len(pile))
        drawn.extend(pile[:take])
        pile = pile[take:]
    return tuple(drawn), pile, discards


def _deal(state: ConflictState, rng: random.Random) -> ConflictState:
    """OIC-8/OIC-9/OIC-14: fresh shuffle(s), fresh hands, discard phase (app mode)."""
    sides = state.sides
    if state.deck_mode == "table":
        return replace(state, hands=tuple(tuple(() for _ in side.players) for side in sides),
                       discarded=tuple(tuple(False for _ in side.players) for side in sides),
                       draw_piles=(), discard_piles=(), phase="play", turn=state.aggressor)
    shared = setting(state.settings, "deck") == "shared"
    piles = [tuple(shuffled_deck(rng))] if shared else [tuple(shuffled_deck(rng)) for _ in sides]
    hands = []
    for s, side in enumerate(sides):
        size = hand_size(len(side.players))
        side_hands = []
        index = 0 if shared else s
        for _ in side.players:
            side_hands.append(piles[index][:size])
            piles[index] = piles[index][size:]
        hands.append(tuple(side_hands))
    return replace(state, hands=tuple(hands),
                   discarded=tuple(tuple(False for _ in side.players) for side in sides),
                   draw_piles=tuple(piles), discard_piles=tuple(() for _ in piles),
                   phase="discard", turn=None)


def _conflict_end(sides: tuple[Side, ...], scope: Scope, rounds: int) -> tuple[int | None, str] | None:
    """OIC-17: (winner, message) once a side can no longer be engaged in any suit."""
    out = [s for s, side in enumerate(sides) if not side_engageable(side, scope)]
    if not out:
        return None
    if len(out) == 2:
        return None, (f"OIC-17: neither {sides[0].name} nor {sides[1].name} can be engaged in any suit "
                      f"{scope.phrase} — there is nothing to fight over.")
    loser = out[0]
    winner = 1 - loser
    after = (f" after {plural(rounds, 'round')} ({in_world_time(scope, rounds)})" if rounds else
             " before a card is played")
    return winner, (f"OIC-17: {sides[loser].name} can no longer be engaged in any suit {scope.phrase} — "
                    f"{sides[winner].name} wins the conflict{after}.")


def start(setup: Mapping[str, Any], rules: Mapping[str, Any] | None, rng: random.Random) -> ConflictState:
    """OIC-8/OIC-9/OIC-10: round 1 — the setup's aggressor opens; app mode deals the hands.

    If a side cannot be engaged in any suit at the conflict's scope, the conflict is
    over at once (OIC-17; :func:`setup_warnings` says so beforehand).
    """
    normal = normalize_setup(setup)
    if rules is not None and not isinstance(rules, Mapping):
        raise SettingsError("The rules settings must be an object of {setting: choice}")
    settings = resolve_rules(VARIANTS, rules)
    if not isinstance(rng, random.Random):
        raise ArgumentError("start needs the game's random generator (a random.Random)")
    sides = setup_sides(normal)
    scope = Scope.parse(normal["scope"])
    first, second = (side.get("level") if side.get("controller") == "app" else None for side in normal["sides"])
    levels = (first, second)  # issue 12: the app's level for each side it plays (None: people play it)
    state = ConflictState(
        sides=sides, initial_sides=sides, scope=scope,
        deck_mode="table" if normal.get("spectator") else normal["deck"],  # a copy replays the cards played
        rules=tuple(sorted(settings.items())), round=1, phase="play",
        aggressor=normal["aggressor"], turn=normal["aggressor"],
        hands=tuple(tuple(() for _ in side.players) for side in sides),
        discarded=tuple(tuple(False for _ in side.players) for side in sides),
        draw_piles=(), discard_piles=(),
        levels=levels, spectator=normal.get("spectator", False), notes=tuple(normal.get("upgraded", ())),
    )
    ended = _conflict_end(sides, scope, 0)
    if ended is not None:
        return replace(state, phase="conflict-over", turn=None, winner=ended[0], end_message=ended[1],
                       ending="out")
    return _deal(state, rng)


# ---------------------------------------------------------------------------
# The moves (canonical actions: the referee has checked them)


def _discard(state: ConflictState, action: Mapping[str, Any], rng: random.Random) -> ConflictState:
    """OIC-8: one player's discard and refill, once per round (a canonical action)."""
    side, player = action["side"], action["player"]
    cards = [parse_card(token) for token in action["cards"]]
    hand = state.hands[side][player]
    index = 0 if len(state.draw_piles) == 1 else side
    kept = tuple(card for card in hand if card not in cards)
    # OIC-9 (variant): only the discards already on the pile can be reshuffled into a new
    # draw pile; this player's own discards join the pile after the refill, so they never
    # come back in it. HR-OIC-3: a refill nothing can cover leaves the hand short.
    drawn, pile, earlier = _draw(state.draw_piles[index], state.discard_piles[index],
                                 len(hand) - len(kept), rng)
    discards = earlier + tuple(cards)
    hands = replaced(state.hands, side, replaced(state.hands[side], player, kept + drawn))
    discarded = replaced(state.discarded, side, replaced(state.discarded[side], player, True))
    new = replace(state, hands=hands, discarded=discarded,
                  draw_piles=replaced(state.draw_piles, index, pile),
                  discard_piles=replaced(state.discard_piles, index, discards))
    if all(all(flags) for flags in discarded):
        new = replace(new, phase="play", turn=state.aggressor)
    return new


def _play(state: ConflictState, action: Mapping[str, Any]) -> ConflictState:
    """OIC-10/OIC-11/OIC-14: the side to play plays one card of one of its players."""
    turn, player, card = action["side"], action["player"], parse_card(action["card"])
    hands = state.hands
    if state.deck_mode == "app":
        hand = tuple(c for c in hands[turn][player] if c != card)
        hands = replaced(hands, turn, replaced(hands[turn], player, hand))
    return replace(state, hands=hands, chain=state.chain + (Play(turn, player, card),), turn=1 - turn)


def _change(sides: tuple[Side, ...], side: int, suit: Suit,
            delta: int) -> tuple[tuple[Side, ...], tuple[int, str, int, int] | None]:
    """OIC-16: change the side's best organization of *suit*; never below 0."""
    found = best_place(sides[side], suit)
    if found is None:
        return sides, None
    p, o = found
    s = sides[side]
    org = s.players[p].organizations[o]
    after = max(0, org.power + delta)
    new_org = replace(org, power=after)
    new_player = replace(s.players[p], organizations=replaced(s.players[p].organizations, o, new_org))
    new_side = replace(s, players=replaced(s.players, p, new_player))
    return replaced(sides, side, new_side), (p, org.name, org.power, after)


def _pass(state: ConflictState, action: Mapping[str, Any]) -> ConflictState:
    """OIC-13/OIC-15/OIC-16/OIC-17 (and HR-OIC-1): the side to play passes; the round ends."""
    loser = action["side"]
    winner = 1 - loser
    names = [side_.name for side_ in state.sides]
    number = state.round
    sides = state.sides
    chain = state.chain
    common = dict(number=number, aggressor=state.aggressor, winner=winner, loser=loser,
                  plays=chain, elapsed=in_world_time(state.scope, number))
    if not chain:
        result = RoundResult(
            first_card=None, last_card=None, suit=None, change_side=None, player=None,
            organization=None, power_before=None, power_after=None, delta=0,
            explanation=(f"HR-OIC-1 (house rule): {names[loser]} did not open, so nothing was at "
                         f"stake — {names[winner]} wins the round and no rating changes"),
            headline=f"Round {number}: {names[winner]} wins — {names[loser]} did not open",
            house_rule="HR-OIC-1", **common)
    else:
        first, last = chain[0].card, chain[-1].card
        if last.suit == first.suit:
            target, suit, delta = winner, first.suit, +1
            compare = f"last card {last.suit.symbol} = first card {first.suit.symbol}"
            head = f"{compare}: {names[winner]} gains 1 in {suit.noun}"
        else:
            target, suit, delta = loser, last.suit, -1
            compare = f"last card {last.suit.symbol} ≠ first card {first.suit.symbol}"
            head = f"{compare}: {names[loser]} loses 1 in {suit.noun}"
        sides, change = _change(sides, target, suit, delta)
        if change is None:
            explanation = (f"{compare}: {names[target]} has no organization in {suit.noun}, "
                           "so nothing changes (OIC-16, ruling)")
            player = org_name = before = after = None
            applied = 0
        else:
            player, org_name, before, after = change
            applied = after - before
            if applied == 0:
                explanation = f"{head}; {org_name} is already at 0 (OIC-16, ruling: ratings never go below 0)"
            else:
                explanation = f"{head}; {org_name} {before} → {after}"
        result = RoundResult(
            first_card=first, last_card=last, suit=suit, change_side=target, player=player,
            organization=org_name, power_before=before, power_after=after, delta=applied,
            explanation=explanation,
            headline=f"Round {number}: {names[winner]} wins — {names[loser]} could not play on the {last.label}",
            **common)
    new = replace(state, sides=sides, results=state.results + (result,), turn=None, phase="round-over")
    ended = _conflict_end(sides, state.scope, len(new.results))
    if ended is not None:
        new = replace(new, phase="conflict-over", winner=ended[0], end_message=ended[1], ending="out")
    return new


def _next_round(state: ConflictState, rng: random.Random) -> ConflictState:
    """OIC-17/OIC-9: the loser of the last round opens the next; fresh shuffle and hands."""
    loser = state.results[-1].loser
    new = replace(state, round=state.round + 1, aggressor=loser, chain=())
    return _deal(new, rng)


def _call(state: ConflictState) -> ConflictState:
    """OIC-19: the table ends the conflict between rounds; the side ahead wins (or a standoff)."""
    totals = call_totals(state)
    ahead = side_ahead(state)
    rounds = len(state.results)
    names = [side.name for side in state.sides]
    when = f"after {plural(rounds, 'round')} ({in_world_time(state.scope, rounds)})"
    if ahead is None:
        message = (f"OIC-19: the table ended the conflict {when} in a standoff — both sides stood "
                   f"{totals[0]} rating points above {threshold_words(state)}.")
    else:
        message = (f"OIC-19: the table ended the conflict {when}. {names[ahead]} was ahead, {totals[ahead]} "
                   f"to {totals[1 - ahead]} in rating points above {threshold_words(state)}, and wins "
                   "the conflict.")
    return replace(state, phase="conflict-over", turn=None, winner=ahead, end_message=message,
                   ending="called", final=totals)


# ---------------------------------------------------------------------------
# Steps


def step(state: ConflictState, action: Mapping[str, Any], rules: Mapping[str, Any] | None = None,
         rng: random.Random | None = None) -> ConflictState:
    """The state after *action* (the actions: :mod:`engine.conflict`). Never mutates *state*.

    Refuses exactly what :func:`normalize_action` refuses (it is the same check).
    The rules settings are those the state started with (``rules`` is accepted for
    the :mod:`engine.game` protocol). ``rng`` is needed for dealing and reshuffles.
    """
    canonical = checked_action(checked_state(state), action)
    kind = canonical["type"]
    if kind == "play":
        return _play(state, canonical)
    if kind == "pass":
        return _pass(state, canonical)
    if kind == "call":
        return _call(state)
    if not isinstance(rng, random.Random):
        raise ArgumentError("step needs the game's random generator for this action (a random.Random)")
    if kind == "discard":
        return _discard(state, canonical, rng)
    return _next_round(state, rng)


def _label_player(state: ConflictState, side: int, player: Any) -> str:
    try:
        s = state.sides[side]
        name = s.players[player].name
    except (IndexError, TypeError):
        return f"player {player}"
    return name


def _side_of(value: Any) -> int | None:
    return value if is_whole(value) and value in (0, 1) else None


def describe(state: ConflictState, action: Mapping[str, Any]) -> str:
    """A short history label of *action* taken in *state*."""
    state = checked_state(state)
    if not isinstance(action, Mapping):
        return "Unknown action"
    kind = action.get("type")
    prefix = f"Round {state.round} · "
    why = action.get("why")
    if isinstance(why, str) and why and kind in ("discard", "play", "pass"):
        # The app's own move (solo): its one-line explanation is the label.
        side = _side_of(action.get("side")) if kind == "discard" else state.turn
        if side is not None:
            who = state.sides[side].name
            if kind == "discard" and len(state.sides[side].players) > 1:
                who = f"{_label_player(state, side, action.get('player'))} ({who})"
            return f"{prefix}{who} (the app) {why}"
    if kind == "discard":
        side = _side_of(action.get("side"))
        side_name = state.sides[side].name if side is not None else "?"
        who = _label_player(state, side if side is not None else 0, action.get("player"))
        try:
            count = len(discard_cards(action.get("cards", [])))
        except ValueError:
            count = 0
        what = "keeps all cards" if count == 0 else f"discards {plural(count, 'card')}"
        return f"{prefix}{who} ({side_name}) {what}"
    if kind == "play":
        side = state.turn if state.turn is not None else 0
        try:
            played: Card | None = parse_card(action.get("card"))
        except CardError:
            played = None
        card = played.label if played is not None else quote(action.get("card"))
        text = f"{prefix}{state.sides[side].name} plays {card}"
        if len(state.sides[side].players) > 1:
            text += f" ({_label_player(state, side, action.get('player'))})"
        current = state.current_card
        if current is None:
            text += " — opens"
        elif played is not None and played.suit != current.suit:
            text += f" — trumps the {current.label}"
        elif played is not None and played.is_face:
            text += f" — face card on the {current.label}"
        return text
    if kind == "pass":
        side = state.turn if state.turn is not None else 0
        if not state.chain:
            return f"{prefix}{state.sides[side].name} does not open — round ends"
        return f"{prefix}{state.sides[side].name} cannot play — round ends"
    if kind == "next_round":
        loser = state.results[-1].loser if state.results else state.aggressor
        return f"Round {state.round + 1} · {state.sides[loser].name} opens"
    if kind == "call":
        totals = call_totals(state)
        ahead = side_ahead(state)
        names = [side.name for side in state.sides]
        if ahead is None:
            verdict = f"a standoff, {totals[0]}–{totals[1]}"
        else:
            verdict = f"{names[ahead]} ahead {totals[ahead]}–{totals[1 - ahead]}"
        return f"After round {state.round} · the table ends the conflict: {verdict} (OIC-19)"
    return "Unknown action"


def status(state: ConflictState) -> str:
    """What the table is waiting for, in one sentence.

    A spectator's copy (:func:`public_game`) holds no discards, so before the first card
    of a round it says what is true at the table then: the sides draw and discard, then
    the aggressor opens; between rounds the table may also end the conflict (OIC-19).
    """
    state = checked_state(state)
    prefix = f"Round {state.round} · "
    if state.phase == "conflict-over":  # the result says how, at length: here, who
        winner = None if state.winner is None else state.sides[state.winner].name
        if state.ending == "called":
            return (f"The table ended the conflict: {winner} wins (OIC-19)." if winner else
                    "The table ended the conflict in a standoff (OIC-19).")
        return (f"The conflict is over: {winner} wins (OIC-17)." if winner else
                "The conflict is over: neither side can be engaged (OIC-17).")
    if state.phase == "round-over":
        last = state.results[-1]
        opens = f"{state.sides[last.loser].name} opens round {state.round + 1}"
        if state.spectator:
            return f"{last.headline}. Next, {opens}, unless the table ends the conflict here (OIC-19)."
        return f"{last.headline}. {opens}."
    if state.phase == "discard":
        waiting = [f"{pl.name} ({side.name})" for s, side in enumerate(state.sides)
                   for p, pl in enumerate(side.players) if not state.discarded[s][p]]
        return f"{prefix}discard (OIC-8): waiting for {join_or(waiting)}"
    assert state.turn is not None
    name = state.sides[state.turn].name
    current = state.current_card
    if current is None:
        if state.spectator:
            return f"{prefix}the sides draw and discard (OIC-8), then {name} opens (OIC-10)"
        return f"{prefix}{name} opens (OIC-10)"
    return f"{prefix}{name} to play on the {current.label}"


def standing(state: ConflictState) -> str:
    """Where the conflict stands in a few words, for the list of saves.

    "Round 4 · Purple Dragon League ahead 27–26" (OIC-19's totals: rating points above
    the engagement threshold); once over, who won and how: "Over after 6 rounds ·
    Zombie invasion won outright" (OIC-17), "Called after 5 rounds · Zombie invasion
    won 31–27" or "Called after 5 rounds · standoff 28–28" (OIC-19).
    """
    state = checked_state(state)
    names = [side.name for side in state.sides]
    rounds = len(state.results)
    if state.phase == "conflict-over":
        if state.ending == "called" and state.final is not None:
            a, b = state.final
            if state.winner is None:
                return f"Called after {plural(rounds, 'round')} · standoff {a}–{b}"
            w = state.winner
            return f"Called after {plural(rounds, 'round')} · {names[w]} won {state.final[w]}–{state.final[1 - w]}"
        when = f"Over after {plural(rounds, 'round')}" if rounds else "Over at the start"
        if state.winner is None:
            return f"{when} · neither side can be engaged"
        return f"{when} · {names[state.winner]} won outright"
    totals = call_totals(state)
    ahead = side_ahead(state)
    if ahead is None:
        return f"Round {state.round} · even {totals[0]}–{totals[1]}"
    return f"Round {state.round} · {names[ahead]} ahead {totals[ahead]}–{totals[1 - ahead]}"


# ---------------------------------------------------------------------------
# Whose cards (issue 18)


def equipment(setup: Mapping[str, Any], rules: Mapping[str, Any] | None = None) -> str:
    """Whose cards (issue 18, setup ``"deck"``), in players' words."""
    if not isinstance(setup, Mapping):
        raise SetupError("The setup must be an object")
    if setup.get("deck") == "table":
        return "Your own cards: the players play real cards and enter each one as it is played."
    return "The app's deck: the app shuffles, deals and keeps the hands."


# ---------------------------------------------------------------------------
# Undo past a hand that was seen (issue 21)


def undo_warning(game: Game, position: int) -> str | None:
    """What the table must hear before going back to *position*, or ``None``.

    Dealing replays from the seed, so a discard undone and made again draws from the
    same deck: a player who has seen the cards a discard drew (the refill was shown
    behind the curtain) would discard again knowing which cards come next (OIC-8,
    OIC-9). Undoing past such a discard of a side people play asks first. The app's
    own discards (solo) learn nothing: it decides again from the same position.
    Nothing to warn about in a spectator's copy or with real cards.
    """
    if not isinstance(game, Game) or game.kind != KIND:
        raise ArgumentError("undo_warning takes a conflict game")
    position = whole(position, "the position", 0, len(game.actions))
    setup = game.setup
    if setup.get("deck") != "app" or setup.get("spectator") is True or position >= game.position:
        return None
    levels = [side.get("level") if side.get("controller") == "app" else None for side in setup["sides"]]
    seen: list[str] = []
    for action in game.actions[position:game.position]:
        if action.get("type") != "discard" or not action.get("cards"):
            continue
        side, player = action.get("side"), action.get("player")
        if side not in (0, 1) or levels[side] is not None:
            continue
        raw = setup["sides"][side]
        name = raw["name"] if len(raw["players"]) == 1 else f"{raw['players'][player]['name']} ({raw['name']})"
        if name not in seen:
            seen.append(name)
    if not seen:
        return None
    if len(seen) == 1:
        who, pronoun, whose = seen[0], ("them" if " (" in seen[0] else "it"), ("their" if " (" in seen[0] else "its")
        return (f"{who} has seen the cards {whose} discard drew. Undoing lets {pronoun} discard again "
                "knowing which cards come next (OIC-8). Undo anyway?")
    return (f"{_join_and(seen)} have seen the cards their discards drew. Undoing lets them discard again "
            "knowing which cards come next (OIC-8). Undo anyway?")


def _join_and(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def replay_work(setup: Mapping[str, Any], actions: Iterable[Any]) -> int:
    """Issue 30: the work of replaying ``actions`` (see :func:`engine.game.replay_work`):
    a discard, a card or a round costs about 200 plus a quarter a organization on the
    table (measured with the largest legal sides, tests/maxgames.py, ``make bench``)."""
    organizations = listed_count(setup, "sides", "players", "organizations")
    try:
        count = sum(1 for _ in actions)
    except TypeError:  # not a list of actions at all: a caller's mistake, said as every helper says it
        raise ArgumentError(f"replay_work takes a game's actions as a list (got {type(actions).__name__})") from None
    return count * (200 + min(organizations, 1000) // 4)
