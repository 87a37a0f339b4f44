"""CONSIM's referee (issue 20; CS-2 … CS-13, HR-CS-6, HR-CS-7): :data:`ACTION_TYPES`
and :func:`normalize_action`, the one check of an action that :func:`step`, the views
and the link decoder share; "may this be done?" in one shape (issue 31): a
``check_*`` raises the :class:`~engine.game.RuleError` citing the clause (an
:class:`~engine.game.ArgumentError` for a combatant or card that is not one), a
``can_*`` answers ``True`` or ``False`` — :func:`check_shot` / :func:`can_shoot`,
:func:`check_long` / :func:`can_long`, :func:`check_treat` / :func:`can_treat`,
:func:`check_first_aid` / :func:`can_first_aid`, :func:`check_end_round` /
:func:`can_end_round`; and what the next action needs from the table's own deck and
dice: :func:`cards_owed`, :func:`next_roll`, :func:`countdowns_due`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .. import referee as fields
from ..cards import Card
from ..game import ActionError, ArgumentError, RuleError
from ..text import shown
from .rules import MissingRoll, current_index, deal_hands, dues, initiative_order, resolve_fire, turns_dying
from .values import (
    ADVANTAGES,
    DECK,
    DECK_TABLE,
    DICE_TABLE,
    Condition,
    ConsimState,
    Cover,
    DieCall,
    Trait,
    Turn,
    index_arg,
    state_arg,
    whole_arg,
)

#: Every action of the tracker (engine.system), as the rules reference names them.
ACTION_TYPES: tuple[str, ...] = ("deal", "next", "long", "shoot", "end_round", "treat", "first_aid", "privacy")


def _key_index(state: ConsimState, key: Any, what: str) -> int:
    """A combatant number written as an object key: "0", "1" … exactly (not "00", "01")."""
    if not isinstance(key, str) or not key.isascii() or not key.isdigit() or str(int(key)) != key:
        raise ActionError(f"{what}: combatants are numbered \"0\", \"1\", \"2\" … (got {shown(key)})")
    index = int(key)
    if index >= len(state.combatants):
        raise ActionError(f"{what}: there is no combatant {index} (they are 0 to {len(state.combatants) - 1})")
    return index


def _who(state: ConsimState, value: Any, what: str) -> int:
    return fields.whole(value, what, 0, len(state.combatants) - 1)


def _hidden_next(state: ConsimState, action: Mapping[str, Any], out: dict[str, Any], unseen_cards: int) -> None:
    """A spectator's copy: ``"hidden_next": true`` — one of the Observer's hidden combatants acts next."""
    if "hidden_next" not in action:
        return
    if not state.facts:
        raise ActionError("Only a spectator's copy says that a hidden combatant acts next ('hidden_next')")
    if action["hidden_next"] is not True:
        raise ActionError("'hidden_next' is true or absent")
    if unseen_cards <= 0 and (state.count_hidden or not state.hidden):  # HR-CS-8: an uncounted copy
        raise RuleError("CS-5", "no card of the Observer's hidden combatants is in this round's order")
    out["hidden_next"] = True


def _need_round(state: ConsimState, doing: str) -> None:
    if state.phase != "round":
        raise RuleError("CS-5", f"no round is on: deal first ({doing} happens on a card)")


def _current_actor(state: ConsimState, who: int, doing: str) -> Turn:
    """CS-5 ruling: only the current actor acts, once per card; the DYING and DEAD never.

    Returns the actor's turn (the card it acts on)."""
    name = state.combatants[who].name
    if state.statuses[who].condition in (Condition.DYING, Condition.DEAD):
        raise RuleError("CS-5", f"{name} is {state.statuses[who].condition.label} and never acts")
    if state.unseen_acting:
        raise RuleError("CS-5", f"one of the Observer's combatants is acting now, not {name}")
    cur = current_index(state)
    if cur is None:
        raise RuleError("CS-5", f"everyone has acted in round {state.round}: {name} has no card left to act on")
    turn = state.turns[cur]
    if turn.combatant != who:
        holds = any(t.combatant == who and not t.done for t in state.turns)
        why = "" if holds else f" ({name} has no card left this round)"
        actor = state.combatants[turn.combatant].name
        raise RuleError("CS-5", f"only the current actor acts: it is {actor}'s turn (the {turn.card.label}), "
                                f"so {name} cannot {doing} now{why}")
    return turn


def normalize_action(state: ConsimState, action: Mapping[str, Any], rules: Mapping[str, Any] | None = None
                     ) -> dict[str, Any]:
    """The referee (issue 20): the canonical form of ``action`` in ``state`` — exact
    shape, canonical card tokens, no unknown field, numbers in range — or the
    :class:`~engine.game.ActionError` (malformed) / :class:`~engine.game.RuleError`
    (forbidden, citing its clause) that :func:`step` raises for it. Changes nothing."""
    state = state_arg(state)
    try:
        return _normalize(state, action)
    except MissingRoll as missing:  # a plain ActionError: MissingRoll never leaves the referee (issue 35)
        raise ActionError(str(missing)) from None


def _normalize(state: ConsimState, action: Mapping[str, Any]) -> dict[str, Any]:
    kind = fields.action_type(action, ACTION_TYPES)
    return _NORMALIZE[kind](state, action)


def _norm_deal(state: ConsimState, action: Mapping[str, Any]) -> dict[str, Any]:
    """CS-2/CS-3/CS-4/CS-6: a new round."""
    fields.only(action, optional=("advantages", "surprised", "cards", "hidden_cards", "hidden_next"))
    if state.phase == "round":
        raise RuleError("CS-5", f"round {state.round} is still on: end it first")
    out: dict[str, Any] = {"type": "deal"}
    advantages = action.get("advantages", {})
    if not isinstance(advantages, Mapping):
        raise ActionError("The advantages must map combatant numbers to lists of advantages")
    canon_adv: dict[str, list[str]] = {}
    for key, items in advantages.items():
        index = _key_index(state, key, "Advantages")
        if state.facts and index in state.hidden:
            raise ActionError("A spectator's copy knows nothing of a hidden combatant's advantages")
        if not isinstance(items, (list, tuple)) or not all(isinstance(i, str) for i in items) \
                or any(i not in ADVANTAGES for i in items) or len(set(items)) != len(items):
            raise ActionError(f"Advantages are {', '.join(ADVANTAGES)}, each at most once (CS-2)")
        if items:
            canon_adv[str(index)] = [k for k in ADVANTAGES if k in items]
    if canon_adv:
        out["advantages"] = {k: canon_adv[k] for k in sorted(canon_adv, key=int)}
    surprised = action.get("surprised", [])
    if not isinstance(surprised, (list, tuple)) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < len(state.sides) for s in surprised) \
            or len(set(surprised)) != len(surprised):
        raise ActionError(f"Surprised must list sides by number (0 to {len(state.sides) - 1}), each once (CS-4)")
    if surprised:
        out["surprised"] = sorted(surprised)
    recorded = _recorded_cards(state, action)
    hidden_cards = 0
    if state.facts:
        if recorded is None:
            raise RuleError("CS-6", "this is a spectator's copy: it shows the game, it cannot deal")
        if "hidden_cards" in action:
            hidden_cards = fields.whole(action["hidden_cards"], "The hidden combatants' cards", 1, DECK)
            out["hidden_cards"] = hidden_cards
    elif "hidden_cards" in action:
        raise ActionError("Only a spectator's copy counts the hidden combatants' cards ('hidden_cards')")
    elif recorded is None and state.settings.get("deck") == DECK_TABLE:
        raise RuleError("HR-CS-6", "this game is played with your own deck: enter each combatant's cards")
    elif recorded is not None and state.settings.get("deck") != DECK_TABLE:  # issue 35: the seed deals
        raise RuleError("HR-CS-6", "this game is played with the app's deck: the app deals, so no move or link "
                                   "can say which cards were dealt (only a spectator's copy records them)")
    if recorded is not None:
        total = sum(len(v) for v in recorded.values())
        if total + hidden_cards > DECK:
            raise RuleError("CS-6", f"one deck has {DECK} cards, the record holds {total + hidden_cards}")
        deal_hands(state, advantage_ticks(state, out), tuple(out.get("surprised", ())), recorded, None)
        out["cards"] = {str(i): [c.token for c in cards] for i, cards in recorded.items() if cards}
    _hidden_next(state, action, out, hidden_cards)
    return out


def _recorded_cards(state: ConsimState, action: Mapping[str, Any]) -> dict[int, tuple[Card, ...]] | None:
    """CS-6: the recorded cards of a deal, by combatant, in acting order (each card once)."""
    if "cards" not in action:
        return None
    recorded = action["cards"]
    if not isinstance(recorded, Mapping):
        raise ActionError("The recorded cards must map combatant numbers to lists of cards")
    out: dict[int, tuple[Card, ...]] = {}
    seen: dict[Card, int] = {}
    for key, given in recorded.items():
        index = _key_index(state, key, "Recorded cards")
        if state.facts and index in state.hidden:
            raise ActionError("A spectator's copy holds no card of a hidden combatant")
        cards = fields.cards(given, f"the recorded cards of {state.combatants[index].name}")
        for card in cards:
            if card in seen:
                raise RuleError("CS-6", f"the {card.label} is recorded twice (one deck of {DECK}): for "
                                        f"{state.combatants[seen[card]].name} and {state.combatants[index].name}")
            seen[card] = index
        out[index] = tuple(initiative_order(cards))
    return dict(sorted(out.items()))


def advantage_ticks(state: ConsimState, action: Mapping[str, Any]) -> list[int]:
    ticks = [0] * len(state.combatants)
    for key, items in action.get("advantages", {}).items():
        ticks[int(key)] = len(items)
    return ticks


def _norm_next(state: ConsimState, action: Mapping[str, Any]) -> dict[str, Any]:
    """CS-5: the current actor has acted."""
    fields.only(action, optional=("hidden_next",))
    if state.phase != "round":
        raise RuleError("CS-5", "no round is on: deal first")
    if not state.unseen_acting and current_index(state) is None:
        raise RuleError("CS-5", f"everyone has acted in round {state.round}: end the round")
    out: dict[str, Any] = {"type": "next"}
    _hidden_next(state, action, out, state.unseen_cards)
    return out


def _norm_long(state: ConsimState, action: Mapping[str, Any]) -> dict[str, Any]:
    """CS-5: the current actor spends several of its cards and acts at the lowest."""
    fields.only(action, ("combatant", "cards"), ("hidden_next",))
    _need_round(state, "a long action")
    who = _who(state, action["combatant"], "the combatant of a long action")
    cards = fields.cards(action["cards"], "the cards of a long action")
    name = state.combatants[who].name
    own = _current_actor(state, who, "declare a long action").card
    if len(cards) < 2:
        raise RuleError("CS-5", "a long action spends at least 2 different cards")
    for card in cards:
        if not any(t.card == card and t.combatant == who and not t.done for t in state.turns):
            raise RuleError("CS-5", f"{name} has no unplayed {card.label} this round")
    if not state.legacy and own not in cards:
        raise RuleError("CS-5", f"a long action is declared on {name}'s turn and spends its card, the {own.label}")
    out = {"type": "long", "combatant": who, "cards": [c.token for c in initiative_order(cards)]}
    _hidden_next(state, action, out, state.unseen_cards)
    return out


def _check_fire(state: ConsimState, shooter: int | None, targets: Sequence[int], mode: str) -> None:
    """Raise the RuleError that forbids this fire (the shooter ``None``: an unseen one)."""
    if state.phase != "round":
        raise RuleError("CS-5", "shots are actions in card order: deal the round first")
    if mode not in ("aimed", "suppressive"):
        raise RuleError("CS-8", "fire is aimed or suppressive")
    c = state.combatants[shooter] if shooter is not None else None
    if shooter is not None:
        _current_actor(state, shooter, "shoot")
    elif not state.facts:
        raise ActionError("A shot needs its shooter")
    elif not state.legacy and not state.unseen_acting:
        raise RuleError("CS-5", "only the current actor shoots, and no hidden combatant is acting now")
    if not targets:
        raise RuleError("CS-7", "pick a target")
    if len(set(targets)) != len(targets):
        raise RuleError("CS-9", "each target once")
    for t in targets:
        if t == shooter:
            raise RuleError("CS-7", f"{state.combatants[t].name} cannot shoot at itself")
        if state.statuses[t].condition is Condition.DEAD and not (state.facts and t in state.hidden):
            raise RuleError("CS-10", f"{state.combatants[t].name} is already DEAD")
    if len(targets) > 1:
        if mode == "aimed":
            raise RuleError("CS-9", "an aimed shot has one target; suppressive fire from an automatic "
                                    "weapon covers an area")
        if c is not None and not (c.has(Trait.AUTOMATIC) or c.has(Trait.SEMI_AUTOMATIC)):
            raise RuleError("CS-9", f"only automatic and semi-automatic weapons suppress an area "
                                    f"({c.name} has neither)")


#: Issue 35: with the app's dice (HR-CS-7) the seed rolls; a move or a link never says what.
_APP_DICE = ("this game is played with the app's dice: the app rolls them, so no move or link can say what "
             "they rolled (only a spectator's copy records them)")


def _norm_shoot(state: ConsimState, action: Mapping[str, Any]) -> dict[str, Any]:
    """CS-5, CS-7 … CS-11: the current actor fires (its card's action)."""
    unseen_shooter = "shooter" not in action and state.facts
    required = ("targets",) if unseen_shooter else ("shooter", "targets")
    fields.only(action, required, ("mode", "cover", "unseen", "semi", "dice", "results", "hidden_next"))
    _need_round(state, "a shot")
    shooter = None if unseen_shooter else _who(state, action["shooter"], "the shooter")
    targets = action["targets"]
    if isinstance(targets, (str, bytes)) or not isinstance(targets, (list, tuple)):
        raise ActionError("The targets must be a list of combatant numbers")
    targets = [_who(state, t, "a target") for t in targets]
    mode = fields.one_of(action.get("mode", "aimed"), "the kind of fire", ("aimed", "suppressive"))
    cover = Cover(fields.one_of(action.get("cover", "none"), "the cover", tuple(c.value for c in Cover)))
    unseen = fields.flag(action.get("unseen", False), "unseen")
    _check_fire(state, shooter, targets, mode)
    out: dict[str, Any] = {"type": "shoot"}
    if shooter is not None:
        out["shooter"] = shooter
    out.update(targets=targets, mode=mode, cover=cover.value, unseen=unseen)
    c = state.combatants[shooter] if shooter is not None else None
    if c is not None and c.has(Trait.SEMI_AUTOMATIC):
        out["semi"] = fields.one_of(action.get("semi", "hit"), "the semi-automatic choice", ("hit", "damage"))
    elif "semi" in action:
        raise ActionError("Only a semi-automatic weapon picks +1 to hit or damage (CS-11)")
    if unseen_shooter:
        if "dice" in action:
            raise ActionError("An unseen shooter's fire gives its results, not dice")
        if "results" not in action:
            raise ActionError("A spectator's copy gives an unseen shooter's results")
    elif "results" in action:
        raise ActionError("Only an unseen shooter's fire gives results instead of dice")
    if state.facts and shooter is not None and "dice" not in action:
        raise RuleError("CS-8", "this is a spectator's copy: it shows the game, it cannot roll")
    if shooter is not None and "dice" not in action and state.settings.get("dice") == DICE_TABLE:
        raise RuleError("HR-CS-7", "this game is played with your own dice: enter the dice of the shot")
    if not state.facts and "dice" in action and state.settings.get("dice") != DICE_TABLE:  # issue 35
        raise RuleError("HR-CS-7", _APP_DICE)
    rolls = action.get("dice", action.get("results"))
    if rolls is not None:
        if isinstance(rolls, (str, bytes)) or not isinstance(rolls, (list, tuple)) or len(rolls) != len(targets):
            raise ActionError("The dice must give one set of rolls per target")
        _, canon, _ = resolve_fire(state, shooter, targets, mode, cover, unseen, out.get("semi"), rolls, None)
        out["results" if unseen_shooter else "dice"] = canon
    moves = not state.legacy
    if "hidden_next" in action and not moves:
        raise ActionError("Under the earlier rules a shot does not end a turn ('hidden_next' is for a move on)")
    _hidden_next(state, action, out, state.unseen_cards)
    return out


def _norm_end_round(state: ConsimState, action: Mapping[str, Any]) -> dict[str, Any]:
    """CS-12/CS-13: the end of the round; the recorded countdown dice, exactly those needed."""
    fields.only(action, optional=("dice",))
    if state.phase != "round":
        raise RuleError("CS-12", "no round is on")
    dice = action.get("dice", {})
    if not isinstance(dice, Mapping):
        raise ActionError("The countdown dice must map combatant numbers to rolls")
    if dice and not state.facts and state.settings.get("dice") != DICE_TABLE:  # issue 35: the seed rolls
        raise RuleError("HR-CS-7", _APP_DICE)
    need = list(countdowns_due(state))
    out: dict[str, Any] = {"type": "end_round"}
    canon: dict[str, int] = {}
    for key, value in dice.items():
        index = _key_index(state, key, "Countdown dice")
        name = state.combatants[index].name
        if index not in need:
            raise RuleError("CS-13", f"{name} starts no DYING countdown at the end of round {state.round}: "
                                     "no die to roll for it")
        canon[key] = fields.whole(value, f"the DYING countdown of {name}", 1, 6)
    if state.facts and set(need) - {int(k) for k in canon}:
        missing = state.combatants[min(set(need) - {int(k) for k in canon})].name
        raise RuleError("CS-13", f"this is a spectator's copy: the countdown of {missing} must be recorded")
    if canon and set(need) - {int(k) for k in canon}:
        missing = state.combatants[min(set(need) - {int(k) for k in canon})].name
        raise ActionError(f"The recorded countdown dice lack {missing}'s (all or none are recorded)")
    if need and not canon and state.settings.get("dice") == DICE_TABLE:
        raise RuleError("HR-CS-7", f"this game is played with your own dice: enter the DYING countdown "
                                   f"(1d6) of {state.combatants[need[0]].name}")
    if canon:
        out["dice"] = {k: canon[k] for k in sorted(canon, key=int)}
    return out


def _norm_treat(state: ConsimState, action: Mapping[str, Any]) -> dict[str, Any]:
    """CS-10/CS-13: treatment of an INJURED, first aid for a DYING combatant."""
    fields.only(action, ("combatant",))
    kind = action["type"]
    who = _who(state, action["combatant"], "the combatant")
    if state.facts and who in state.hidden:
        raise ActionError("A spectator's copy shows nothing of a hidden combatant")
    refusal = _care_refusal(state, who, kind)
    if refusal is not None:
        raise refusal
    return {"type": kind, "combatant": who}


def _care_refusal(state: ConsimState, who: int, kind: str) -> RuleError | None:
    """CS-10/CS-13: why combatant ``who`` cannot be treated (``kind`` "treat") or get first aid
    ("first_aid") now, or ``None`` (the check :func:`_norm_treat`, :func:`can_treat` and
    :func:`can_first_aid` share; made, not raised, so that the board asks it cheaply)."""
    st = state.statuses[who]
    name = state.combatants[who].name
    if kind == "treat":
        if st.condition is not Condition.INJURED:
            return RuleError("CS-13", f"only an INJURED combatant is treated ({name} is {st.condition.label})")
        if st.treated:
            return RuleError("CS-13", f"{name} is already treated")
    else:
        if st.condition is not Condition.DYING:
            return RuleError("CS-13", f"first aid is for a DYING combatant ({name} is {st.condition.label})")
        if st.first_aid:
            return RuleError("CS-13", f"{name} already has first aid")
    return None


def _norm_privacy(state: ConsimState, action: Mapping[str, Any]) -> dict[str, Any]:
    fields.only(action, ("hide",))
    hide = fields.flag(action["hide"], "hide")
    if state.facts:
        raise ActionError("A spectator's copy keeps what its sender hid")
    return {"type": "privacy", "hide": hide}


_NORMALIZE = {"deal": _norm_deal, "next": _norm_next, "long": _norm_long, "shoot": _norm_shoot,
              "end_round": _norm_end_round, "treat": _norm_treat, "first_aid": _norm_treat,
              "privacy": _norm_privacy}


# ---------------------------------------------------------------------------
# May this be done? check_* raises the refusal (its clause first), can_* answers


def _answer(check: Callable[..., None], *args: Any) -> bool:
    """Whether ``check`` lets it be done (its RuleError is the answer "no"; an argument that
    is not one still raises its ArgumentError)."""
    try:
        check(*args)
    except RuleError:
        return False
    return True


def _refusal(state: ConsimState, action: Mapping[str, Any]) -> None:
    """The referee's refusal of ``action`` (the RuleError citing its clause); a malformed
    one, from a caller's argument, as an :class:`ArgumentError` with the same words."""
    try:
        _normalize(state, action)
    except RuleError:
        raise
    except ActionError as err:
        raise ArgumentError(str(err)) from None


def check_shot(state: ConsimState, shooter: int, targets: Sequence[int], mode: str) -> None:
    """CS-5/CS-7/CS-9/CS-10: may ``shooter`` fire at ``targets`` (combatant numbers), aimed
    or suppressive (``mode``), now? Returns ``None`` if so; else raises the
    :class:`~engine.game.RuleError` that forbids it, citing its clause.

    CS-5 ruling: only the current actor shoots, once per card (the shot is that card's
    action). Bad arguments (not numbers, no such combatant) are an :class:`ArgumentError`.
    The rest of the shot (cover, dice) is :func:`normalize_action`'s to check.
    """
    state = state_arg(state)
    shooter = index_arg(state, shooter, "the shooter")
    if isinstance(targets, (str, bytes)) or not isinstance(targets, Sequence):
        raise ArgumentError(f"The targets must be a list of combatant numbers (got {shown(targets)})")
    targets = [index_arg(state, t, "a target") for t in targets]
    try:
        _check_fire(state, shooter, targets, mode)
    except RuleError:
        raise
    except ActionError as err:
        raise RuleError("CS-8", str(err)) from None


def can_shoot(state: ConsimState, shooter: int, targets: Sequence[int], mode: str) -> bool:
    """CS-5/CS-7/CS-9/CS-10: whether ``shooter`` may fire at ``targets`` now
    (:func:`check_shot` says why not)."""
    return _answer(check_shot, state, shooter, targets, mode)


def check_long(state: ConsimState, combatant: int, cards: Sequence[Card | str]) -> None:
    """CS-5: may ``combatant`` declare a long action spending ``cards`` (a list of Cards or
    tokens) now? Only the current actor, on its turn: it spends that turn's card and at
    least one more of its own unplayed cards, and acts at the lowest. Raises the
    :class:`~engine.game.RuleError` (CS-5) if not; an :class:`ArgumentError` for a
    combatant or cards that are not ones."""
    state = state_arg(state)
    combatant = index_arg(state, combatant)
    _refusal(state, {"type": "long", "combatant": combatant, "cards": cards})


def can_long(state: ConsimState, combatant: int, cards: Sequence[Card | str]) -> bool:
    """CS-5: whether ``combatant`` may declare a long action spending ``cards`` now
    (:func:`check_long` says why not)."""
    return _answer(check_long, state, combatant, cards)


def _care(state: ConsimState, combatant: int, kind: str) -> RuleError | None:
    """The referee's refusal of treatment or first aid (``kind``) for ``combatant``, checked
    as an argument first."""
    state = state_arg(state)
    who = index_arg(state, combatant)
    if state.facts and who in state.hidden:
        raise ArgumentError("A spectator's copy shows nothing of a hidden combatant")
    return _care_refusal(state, who, kind)


def check_treat(state: ConsimState, combatant: int) -> None:
    """CS-10/CS-13: may ``combatant`` be treated now? Only an INJURED combatant not
    treated yet; raises the :class:`~engine.game.RuleError` (CS-13) if not."""
    refusal = _care(state, combatant, "treat")
    if refusal is not None:
        raise refusal


def can_treat(state: ConsimState, combatant: int) -> bool:
    """CS-10/CS-13: whether ``combatant`` may be treated now (:func:`check_treat` says why
    not)."""
    return _care(state, combatant, "treat") is None


def check_first_aid(state: ConsimState, combatant: int) -> None:
    """CS-10/CS-13: may ``combatant`` get first aid now? Only a DYING combatant without
    it; raises the :class:`~engine.game.RuleError` (CS-13) if not."""
    refusal = _care(state, combatant, "first_aid")
    if refusal is not None:
        raise refusal


def can_first_aid(state: ConsimState, combatant: int) -> bool:
    """CS-10/CS-13: whether ``combatant`` may get first aid now (:func:`check_first_aid`
    says why not)."""
    return _care(state, combatant, "first_aid") is None


def check_end_round(state: ConsimState) -> None:
    """CS-12/CS-13: may the round end now (before everyone has acted, too: the cards not
    played lose their turns)? Only while a round is on; with your own dice (HR-CS-7) the
    DYING countdowns due (:func:`countdowns_due`) come with the action, so without them
    it may not. Raises the :class:`~engine.game.RuleError` if not."""
    _refusal(state_arg(state), {"type": "end_round"})


def can_end_round(state: ConsimState) -> bool:
    """CS-12/CS-13: whether the round may end now, without recorded dice
    (:func:`check_end_round` says why not)."""
    return _answer(check_end_round, state)


# ---------------------------------------------------------------------------
# What the next action needs from your own deck and dice (HR-CS-6, HR-CS-7)


def cards_owed(state: ConsimState, advantages: Mapping[int, int] | None = None,
               surprised: Iterable[int] = ()) -> tuple[int, ...]:
    """CS-2/CS-3/CS-4/CS-6: how many cards each combatant (roster order) is dealt at the
    next deal, with ``advantages`` ticked (combatant → count) and the ``surprised`` sides:
    what it is owed while the one deck of 52 lasts. With your own deck (HR-CS-6) these
    are the cards the GM enters; suppression's and an injury's losses are struck after."""
    state = state_arg(state)
    if state.phase == "round":
        raise RuleError("CS-5", f"round {state.round} is still on: end it first")
    if advantages is not None and not isinstance(advantages, Mapping):
        raise ArgumentError(f"The advantages map combatant numbers to counts (got {shown(advantages)})")
    advantages = dict(advantages or {})
    for key, count in advantages.items():
        index_arg(state, key, "a combatant with advantages")
        whole_arg(count, "CS-2: the number of advantages", 0, len(ADVANTAGES))
    if isinstance(surprised, (str, bytes)) or not isinstance(surprised, (list, tuple, set, frozenset)) \
            or len(surprised) > len(state.sides):
        raise ArgumentError(f"The surprised sides are a list of at most {len(state.sides)} side numbers "
                            f"(got {shown(surprised)})")
    surprised = tuple(surprised)
    for side in surprised:
        whole_arg(side, "CS-4: a surprised side", 0, len(state.sides) - 1)
    remaining, owed = DECK, []
    for due, _, _ in dues(state, [advantages.get(i, 0) for i in range(len(state.combatants))], surprised):
        owed.append(min(due, remaining))
        remaining -= owed[-1]
    return tuple(owed)


def next_roll(state: ConsimState, action: Mapping[str, Any]) -> DieCall | None:
    """HR-CS-7: the first roll the shot ``action`` still needs, ``None`` once its ``"dice"``
    (one object per target, as entered so far: the last may be partial, later ones
    missing) hold exactly what the fire needs: the d10, then the d6 if it hit, then the
    countdown dice if the wound starts one (2d6 INJURED, 1d6 DYING, CS-13).

    The referee itself answers (:func:`normalize_action`, one reading of CS-5 … CS-13): a
    shot it refuses for another reason raises that refusal, a roll out of range included."""
    state = state_arg(state)
    if not isinstance(action, Mapping):
        raise ArgumentError("next_roll needs a shot (an action object)")
    targets, entered = action.get("targets"), action.get("dice", [])
    if isinstance(entered, (str, bytes)) or not isinstance(entered, (list, tuple)) or \
            not isinstance(targets, (list, tuple)) or len(entered) > len(targets):
        raise ArgumentError("next_roll needs a shot with its targets and at most one set of rolls per target")
    padded = list(entered) + [{} for _ in range(len(targets) - len(entered))]
    try:
        _normalize(state, {**action, "type": "shoot", "dice": padded})
    except MissingRoll as missing:
        return missing.call
    return None


def countdowns_due(state: ConsimState) -> tuple[int, ...]:
    """CS-13: the combatants whose INJURED time runs out at the end of this round: each
    turns DYING and its 1d6 countdown is rolled (entered, with your own dice, HR-CS-7)."""
    state = state_arg(state)
    if state.phase != "round":
        return ()
    return tuple(i for i, st in enumerate(state.statuses)
                 if turns_dying(st) and not (state.facts and i in state.hidden))
