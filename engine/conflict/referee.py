"""Organizations In Conflict: the referee, one check per action (issue 20; OIC-5, OIC-8 …
OIC-13, OIC-17, OIC-19).

:data:`ACTION_TYPES` and :func:`normalize_action`, the one check that :func:`step`, the
views and the link decoder share; and "may this be done?" in one shape for every
action (issue 31): a ``check_*`` raises the :class:`~engine.game.RuleError` citing the
clause (or an :class:`~engine.game.ActionError` for a side, player or card that does
not exist), a ``can_*`` answers ``True`` or ``False``, and :func:`step` does it —
:func:`check_discard` / :func:`can_discard`, :func:`check_play` / :func:`can_play`,
:func:`check_pass` / :func:`can_pass`, :func:`check_next_round` /
:func:`can_next_round`, :func:`check_call` / :func:`can_call`. :func:`legal_plays`
lists every card :func:`check_play` allows.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from .. import referee as fields
from ..cards import Card, CardError, Suit, clean_cards, full_deck, parse_card
from ..game import ActionError, RuleError
from .rules import best_organization, explain_max_size, follow_problem, max_size_of, rating_of, side_engageable, usable
from .values import ConflictState, checked_player, checked_side, checked_state, is_whole, join_or, num, quote, setting

#: The actions of a conflict, and their fields (required, optional) as a caller sends them.
ACTION_TYPES: tuple[str, ...] = ("discard", "play", "pass", "next_round", "call")
FIELDS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = MappingProxyType({
    "discard": (("side", "player", "cards"), ("why",)),
    "play": (("player", "card"), ("side", "why")),
    "pass": ((), ("side", "why")),
    "next_round": ((), ()),
    "call": ((), ()),
})

#: Longest ``"why"`` of an action (the app's one-line explanation of its move).
WHY_MAX = 240


def _without_id(message: str) -> str:
    """A message without its leading rule id, to quote it inside another one (as a sentence)."""
    text = re.sub(r"^[A-Z]+(?:-[A-Z]+)?-\d+: ", "", message)
    return text[:1].upper() + text[1:]


def _phase_problem(state: ConflictState, acting: str) -> RuleError | None:
    if state.phase == "conflict-over":
        return RuleError("OIC-17", f"the conflict is over. {_without_id(state.end_message)}")
    if state.phase == "round-over":
        return RuleError("OIC-17", f"round {state.round} is over — start the next round "
                                   "(or end the conflict here, OIC-19)")
    if state.phase == "discard" and acting != "discard":
        waiting = [f"{pl.name} ({side.name})" for s, side in enumerate(state.sides)
                   for p, pl in enumerate(side.players) if not state.discarded[s][p]]
        return RuleError("OIC-8", "every player discards (or keeps all cards) before the first card "
                                  f"is played — waiting for {join_or(waiting)}")
    return None


def _whose(state: ConflictState, side: int, player: int) -> tuple[str, str]:
    """("your", "you have") for a one-player side, else the player's name."""
    s = state.sides[side]
    if len(s.players) == 1:
        return "your", "you have"
    name = s.players[player].name
    return f"{name}'s", f"{name} has"


def _card_problem(state: ConflictState, side: int, player: int, card: Card) -> RuleError | None:
    """Everything after phase and turn: holding the card, OIC-5, OIC-10, OIC-11/13."""
    s = state.sides[side]
    if state.deck_mode == "app":
        if card not in state.hands[side][player]:
            holder = "you do not" if len(s.players) == 1 else f"{s.players[player].name} does not"
            return RuleError("OIC-8", f"{holder} hold the {card.label}")
    else:
        shared = setting(state.settings, "deck") == "shared"
        for play in state.chain:
            if play.card == card and (shared or play.side == side):
                by = state.sides[play.side].name
                why = "one shared deck" if shared else "each side plays from its own deck"
                return RuleError("OIC-9", f"the {card.label} was already played by {by} this round ({why})")
    rating = rating_of(s, card.suit, player)
    size = max_size_of(rating or 0, s.scope)
    if not usable(card, size):
        your, you_have = _whose(state, side, player)
        if rating is None:
            return RuleError("OIC-5", f"{you_have} no organization in {card.suit.noun}, so only face "
                                      f"cards of {card.suit.noun} are usable")
        if size < 1:
            best = best_organization(state, side, card.suit, player)
            if size == 0 and rating - s.scope.offset >= 1:  # OIC-18 said once, as the rule cited
                who = best.name if best else "its best organization"
                return RuleError("OIC-18", f"{your} max card size in {card.suit.noun} is 0: {who} ({rating}) has "
                                           f"no influence {s.scope.beyond} (power must be above "
                                           f"{s.scope.engage_threshold}), so only face cards of "
                                           f"{card.suit.noun} are usable")
            why = explain_max_size(rating, s.scope, card.suit, best.name if best else None)
            return RuleError("OIC-5", f"{your} max card size in {card.suit.noun} is {num(size)} ({why})")
        return RuleError("OIC-5", f"the {card.label} is above {your} max card size in "
                                  f"{card.suit.noun} ({size})")
    if not state.chain:
        defender = state.sides[1 - side]
        if (rating_of(defender, card.suit) or 0) <= state.scope.engage_threshold:
            open_with = [suit.noun for suit in side_engageable(defender, state.scope)]
            rating = rating_of(defender, card.suit) or 0
            hint = f" — open with {join_or(open_with)}" if open_with else ""
            return RuleError("OIC-10", f"{defender.name} cannot be engaged in {card.suit.noun} "
                                       f"{state.scope.phrase} ({card.suit.noun} {rating}, must be above "
                                       f"{state.scope.engage_threshold}){hint}")
        return None
    problem = follow_problem(card, state.current_card, state.settings)
    if problem is not None:
        return RuleError(*problem)
    return None


def check_play(state: ConflictState, player: int, card: Card | str, side: int | None = None) -> None:
    """OIC-5/OIC-8/OIC-10/OIC-11/OIC-13: may *player* of the side to play play *card* now?

    Raises :class:`RuleError` (message starts with the rule id) if not;
    :class:`ActionError` for a player or card that does not exist. *side*, if
    given, must be the side whose turn it is. :func:`can_play` answers the same
    question with ``True`` or ``False``.
    """
    checked_state(state)
    try:
        card = parse_card(card)
    except CardError as err:
        raise ActionError(str(err)) from None
    problem = _phase_problem(state, "play")
    if problem is not None:
        raise problem
    assert state.turn is not None
    if side is not None:
        checked_side(state, side)
        if side != state.turn:
            raise RuleError("OIC-11", f"it is {state.sides[state.turn].name}'s turn, "
                                      f"not {state.sides[side].name}'s")
    checked_player(state, state.turn, player)
    problem = _card_problem(state, state.turn, player, card)
    if problem is not None:
        raise problem


def legal_plays(state: ConflictState) -> list[tuple[int, Card]]:
    """OIC-5/OIC-10/OIC-11: every (player, card) the side to play may play now.

    App mode: cards from the players' hands, in hand order. Table mode: every card
    of the deck not yet played this round that each player may play (so an empty
    list means the side cannot play whatever it holds). Empty outside phase "play".
    """
    if checked_state(state).phase != "play" or state.turn is None:
        return []
    # The same tests as check_play, straight from the rule functions (no messages).
    side = state.turn
    s = state.sides[side]
    settings = state.settings
    current = state.current_card
    if state.deck_mode == "table":
        shared = setting(settings, "deck") == "shared"
        played = {play.card for play in state.chain if shared or play.side == side}
    else:
        played = set()
    engageable = set(side_engageable(state.sides[1 - side], state.scope))
    plays = []
    for p in range(len(s.players)):
        sizes = {suit: max_size_of(rating_of(s, suit, p) or 0, s.scope) for suit in Suit}
        cards: Iterable[Card] = state.hands[side][p] if state.deck_mode == "app" else full_deck()
        for card in cards:
            if card in played or not usable(card, sizes[card.suit]):
                continue
            if current is None:
                if card.suit in engageable:
                    plays.append((p, card))
            elif follow_problem(card, current, settings) is None:
                plays.append((p, card))
    return plays


def _int_field(action: Mapping[str, Any], key: str) -> int:
    value = action[key]
    if not is_whole(value):
        raise ActionError(f"The '{key}' of a {action.get('type')} action must be a whole number "
                          f"(got {quote(value)})")
    return value


def discard_cards(value: Any) -> tuple[Card, ...]:
    """The cards of a discard: a list of cards (or tokens), or one text "2h 3c"; each once."""
    if isinstance(value, str):
        try:
            return clean_cards(value, what="cards of the discard")
        except CardError as err:
            raise ActionError(f"The cards of the discard: {err}") from None
    if not isinstance(value, (list, tuple)):
        raise ActionError(f"The cards of a discard must be a list of cards like [\"2H\", \"3C\"] "
                          f"(got {quote(value)})")
    if len(value) > 52:
        raise ActionError("A discard lists more cards than a deck holds")
    return fields.cards(value, "the cards of the discard")


def _why_text(action: Mapping[str, Any]) -> str | None:
    """The optional ``"why"``: one line of plain text, 1 to :data:`WHY_MAX` characters."""
    if "why" not in action:
        return None
    why = action["why"]
    if isinstance(why, str) and not why.strip():
        raise ActionError("The 'why' of an action must be one line of text, not empty")
    return fields.line(why, "the 'why' of an action", WHY_MAX)


def _turn_side(state: ConflictState, action: Mapping[str, Any]) -> int:
    """The side to play, checked against the action's ``side`` when it names one (OIC-11)."""
    side = None
    if "side" in action:
        side = _int_field(action, "side")
        checked_side(state, side)
    problem = _phase_problem(state, action["type"])
    if problem is not None:
        raise problem
    turn = state.turn
    assert turn is not None
    if side is not None and side != turn:
        raise RuleError("OIC-11", f"it is {state.sides[turn].name}'s turn, not {state.sides[side].name}'s "
                                  "(the sides alternate)")
    return turn


def _check_discard(state: ConflictState, side: int, player: int, cards: tuple[Card, ...]) -> None:
    """OIC-8: one discard per player and round, of cards the player holds."""
    if state.phase != "discard":
        problem = _phase_problem(state, "discard")
        if problem is not None:
            raise problem
        if state.deck_mode == "table":
            raise RuleError("OIC-8", "with real cards the players discard at the table; there is "
                                     "nothing to enter")
        raise RuleError("OIC-8", "the discard is over — one discard per round, before the first card")
    s = state.sides[side]
    name = s.players[player].name
    if state.discarded[side][player]:
        raise RuleError("OIC-8", f"{name} ({s.name}) has already discarded this round "
                                 "(one discard per round)")
    hand = state.hands[side][player]
    for card in cards:
        if card not in hand:
            raise RuleError("OIC-8", f"{name} ({s.name}) does not hold the {card.label}")


def _between_rounds(state: ConflictState, what: str) -> None:
    """OIC-17/OIC-19: starting the next round and calling the conflict wait for a round's end."""
    if state.phase == "round-over":
        return
    if state.phase == "conflict-over":
        raise RuleError("OIC-17", f"the conflict is over. {_without_id(state.end_message)}")
    rule = "OIC-19" if what == "call" else "OIC-17"
    doing = "end the conflict" if what == "call" else "start the next round"
    raise RuleError(rule, f"round {state.round} is still being played: the table can {doing} only "
                          "between rounds")


def normalize_action(state: ConflictState, action: Mapping[str, Any],
                     rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The canonical form of *action* in *state*, or the refusal :func:`step` would raise.

    Exact shape (every required field, no unknown one; ``True`` is not a number),
    canonical card tokens ("9h" → "9H"), the side and player in range, the side to
    play (OIC-11), the phase (OIC-8, OIC-17, OIC-19) and every card rule (OIC-5,
    OIC-8 … OIC-13). A play and a pass always name their side; a ``"why"`` is kept
    only on a move of a side the app plays. Raises :class:`ActionError` (malformed)
    or :class:`RuleError` (citing the clause). ``rules`` is accepted for the
    :mod:`engine.game` protocol (the state carries its own settings).
    """
    return checked_action(checked_state(state), action)


def checked_action(state: ConflictState, action: Any) -> dict[str, Any]:
    """:func:`normalize_action` in a state already checked (:func:`step` shares it)."""
    kind = fields.action_type(action, ACTION_TYPES)
    required, optional = FIELDS[kind]
    fields.only(action, required, optional)
    why = _why_text(action)
    if kind == "discard":
        side = _int_field(action, "side")
        player = _int_field(action, "player")
        checked_player(state, side, player)
        cards = discard_cards(action["cards"])
        _check_discard(state, side, player, cards)
        out: dict[str, Any] = {"type": "discard", "side": side, "player": player,
                               "cards": [str(card) for card in cards]}
    elif kind == "play":
        player = _int_field(action, "player")
        try:
            card = parse_card(action["card"])
        except CardError as err:
            raise ActionError(str(err)) from None
        side = _turn_side(state, action)
        check_play(state, player, card, side=side)
        out = {"type": "play", "side": side, "player": player, "card": str(card)}
    elif kind == "pass":
        out = {"type": "pass", "side": _turn_side(state, action)}
    else:
        _between_rounds(state, kind)
        out = {"type": kind}
    if why is not None:
        acting = out["side"]
        if state.levels[acting] is None:
            raise ActionError(f"Only the app's own moves carry a 'why': {state.sides[acting].name} is "
                              "played by people")
        out["why"] = why
    return out


# ---------------------------------------------------------------------------
# May this be done? One shape for every action (issue 31): ``check_*`` raises the
# refusal normalize_action would raise (a RuleError citing the clause, or an ActionError
# for a side, player or card that does not exist), ``can_*`` answers, step does it.


def _answer(check: Any, state: Any, *args: Any) -> bool:
    """Whether ``check(state, *args)`` passes. Something that is not a conflict's state is
    a caller's mistake, not a "no": :class:`ArgumentError`, as every helper says it."""
    checked_state(state)
    try:
        check(state, *args)
    except (RuleError, ActionError):
        return False
    return True


def can_play(state: ConflictState, player: int, card: Card | str, side: int | None = None) -> bool:
    """OIC-5/OIC-8/OIC-10/OIC-11/OIC-13: whether *player* of the side to play may play *card*
    now (:func:`check_play` says why not)."""
    return _answer(check_play, state, player, card, side)


def check_discard(state: ConflictState, side: int, player: int, cards: Any) -> None:
    """OIC-8: may *player* of *side* discard *cards* now (cards or tokens, or one text
    "2h 3c"; none keeps every card)? Once per player and round, in the discard phase,
    of cards the player holds, with the app's deck only.

    Raises :class:`RuleError` (citing the clause) if not; :class:`ActionError` for a
    side, player or card that does not exist.
    """
    checked_action(checked_state(state), {"type": "discard", "side": side, "player": player, "cards": cards})


def can_discard(state: ConflictState, side: int, player: int, cards: Any) -> bool:
    """OIC-8: whether *player* of *side* may discard *cards* now (:func:`check_discard` says
    why not)."""
    return _answer(check_discard, state, side, player, cards)


def check_pass(state: ConflictState, side: int | None = None) -> None:
    """OIC-13/OIC-15: may the side to play pass now (and so end the round)? *side*, if
    given, must be the side whose turn it is (OIC-11).

    Raises :class:`RuleError` (citing the clause: the phase, OIC-8 or OIC-17, or the
    turn, OIC-11) if not; :class:`ActionError` for a side that does not exist.
    """
    checked_action(checked_state(state), {"type": "pass"} if side is None else {"type": "pass", "side": side})


def can_pass(state: ConflictState, side: int | None = None) -> bool:
    """OIC-13/OIC-15: whether the side to play (or *side*) may pass now (:func:`check_pass`
    says why not)."""
    return _answer(check_pass, state, side)


def check_next_round(state: ConflictState) -> None:
    """OIC-17: may the table start the next round now? Only between rounds, while the
    conflict goes on; raises the :class:`RuleError` that says why not."""
    _between_rounds(checked_state(state), "next_round")


def can_next_round(state: ConflictState) -> bool:
    """OIC-17: whether the table may start the next round now (:func:`check_next_round`
    says why not)."""
    return _answer(check_next_round, state)


def check_call(state: ConflictState) -> None:
    """OIC-19: may the table end the conflict here? Only between rounds, while the
    conflict goes on; raises the :class:`RuleError` that says why not (OIC-19, or
    OIC-17 once it is over)."""
    _between_rounds(checked_state(state), "call")


def can_call(state: ConflictState) -> bool:
    """OIC-19: whether the table may end the conflict now (:func:`check_call` says why
    not)."""
    return _answer(check_call, state)
