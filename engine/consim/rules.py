"""CONSIM's rules as pure functions (CS-2 … CS-13), each docstring starting with its
RULES.md id: the acting order (CS-5), the wound table and its countdowns (CS-10,
CS-13), the cards due at a deal (CS-2, CS-3, CS-4), to hit, damage and suppression
(CS-7 … CS-11) and their exact odds; who acts now and what the players may see of a
state; the next deal as things stand (:func:`forecast`); and the two resolutions
:func:`~engine.consim.referee` checks and :func:`~engine.consim.steps.step` takes —
the deal (:func:`deal_hands`, CS-2/3/4/6) and fire (:func:`resolve_fire`, CS-7 …
CS-11, CS-13), from the game's generator or from recorded cards and dice.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from .. import referee as fields
from ..cards import Card, CardError, clean_cards, shuffled_deck
from ..game import ActionError, ArgumentError, RuleError
from ..text import key_text, plural, shown
from .values import (
    ADVANTAGES,
    DECK,
    SUIT_RANK,
    Combatant,
    Condition,
    ConsimState,
    Cover,
    DealtHand,
    DieCall,
    Forecast,
    ShotOdds,
    ShotTarget,
    Status,
    Trait,
    WoundStatus,
    enum_arg,
    flag_arg,
    index_arg,
    mode_arg,
    one_card,
    semi_arg,
    shooter_arg,
    state_arg,
    whole_arg,
)

# ---------------------------------------------------------------------------
# Pure rule functions


def initiative_key(card: Card | str) -> tuple[int, int]:
    """CS-5: sort key, first to act first: aces high, then spades > hearts > diamonds > clubs.

    Takes a :class:`~engine.cards.Card` or a token (``"AS"``)."""
    card = one_card(card)
    return (-int(card.rank), SUIT_RANK[card.suit])


def initiative_order(cards: Iterable[Card | str] | str) -> list[Card]:
    """CS-5: the acting order of ``cards``: descending rank (aces high), ties by suit ♠ > ♥ > ♦ > ♣.

    ``cards`` are Cards or tokens alike (``["AS", "9H"]``, ``"AS 9H"``), each once (one deck)."""
    try:
        found = clean_cards(cards)
    except CardError as err:
        raise ArgumentError(str(err)) from None
    return sorted(found, key=initiative_key)


def _order(cards: Iterable[Card]) -> list[Card]:
    """CS-5 order of cards known to be Cards, each once (inside the engine)."""
    return sorted(cards, key=lambda c: (-int(c.rank), SUIT_RANK[c.suit]))


_WOUNDS = ((2, WoundStatus.STUN), (4, WoundStatus.INJURE), (5, WoundStatus.DYING))


def wound_status(total: int) -> WoundStatus:
    """CS-10: the wound table for 1d6 + damage: ≤2 STUN, 3–4 INJURE, 5 DYING, 6+ DEAD."""
    total = whole_arg(total, "CS-10: the wound roll", None)
    for top, result in _WOUNDS:
        if total <= top:
            return result
    return WoundStatus.DEAD


def cards_due(advantages: int = 0, suppression: int = 0, condition: Condition | str = Condition.OK, *,
              no_cards: bool = False, surprised: bool = False, player: bool = False,
              pulp: bool = False, legacy: bool = False) -> tuple[int, int, tuple[str, ...]]:
    """CS-2/CS-3/CS-4/CS-10/CS-13: ``(cards to deal, highest cards struck at the deal, reasons)``.

    1 card plus 1 per advantage (CS-2); none when surprised (CS-4), stunned (CS-10, a
    STUN last round), DYING or DEAD (CS-13). CS-3 ruling: the cards are dealt, then the
    suppression and wounds held at the deal strike the highest ones (every 2
    suppression one, INJURED one, CS-10); struck cards still come off the deck. Under
    the pulp variant a player character keeps at least 1 card against suppression and
    the injury (never against surprise, STUN, DYING or DEAD).

    ``legacy``: the reading before the CS-3 ruling (an INJURED combatant is dealt one
    card fewer; see :data:`LEGACY_RULES`).
    """
    advantages = whole_arg(advantages, "CS-2: the number of advantages", 0, len(ADVANTAGES))
    suppression = whole_arg(suppression, "CS-3: suppression", 0)
    condition = enum_arg(Condition, condition, "The condition")
    for flag_value, name in ((no_cards, "no_cards"), (surprised, "surprised"), (player, "player"),
                             (pulp, "pulp"), (legacy, "legacy")):
        flag_arg(flag_value, name)
    if surprised:
        return 0, 0, ("surprised: no cards (CS-4)",)
    if condition in (Condition.DYING, Condition.DEAD):
        return 0, 0, (f"{condition.label}: no cards (CS-13)",)
    if no_cards:
        return 0, 0, ("STUNNED: no cards this round (CS-10)",)
    reasons = [f"1 + {plural(advantages, 'advantage')} (CS-2)" if advantages else "1 card (CS-2)"]
    count = 1 + advantages
    floor = 1 if (pulp and player) else 0
    if legacy:
        return _cards_due_before_rulings(count, suppression, condition, floor, reasons)
    injury = 1 if condition is Condition.INJURED else 0
    by_suppression = suppression // 2
    struck = min(injury + by_suppression, count - floor)
    if injury:
        reasons.append("INJURED: one card struck (CS-10, CS-3)")
    if by_suppression:
        reasons.append(f"suppression {suppression}: the highest {plural(by_suppression, 'card')} struck (CS-3)")
    if floor and struck < injury + by_suppression:
        reasons.append("pulp: a player character keeps 1 card (CS-3)")
    return count, struck, tuple(reasons)


def _cards_due_before_rulings(count: int, suppression: int, condition: Condition, floor: int,
                              reasons: list[str]) -> tuple[int, int, tuple[str, ...]]:
    """The count of the app before the CS-3 ruling (kept for games saved then)."""
    if condition is Condition.INJURED:
        after = max(count - 1, floor)
        reasons.append("INJURED: one fewer (CS-10)" if after < count else "INJURED, kept 1 (pulp, CS-3)")
        count = after
    drop = min(suppression // 2, max(count - floor, 0))
    if suppression // 2:
        text = f"suppression {suppression}: loses the highest {plural(suppression // 2, 'card')} (CS-3)"
        if drop < suppression // 2 and count and floor:
            text += f", keeps {count - drop} (pulp)"
        reasons.append(text)
    return count, drop, tuple(reasons)


def to_hit_target(cover: Cover | str) -> int:
    """CS-8: the d10 an aimed shot needs before modifiers: 6+, 7+ in cover, 8+ in good cover."""
    return enum_arg(Cover, cover, "CS-8: the cover").needed


def semi_choice(shooter: Combatant, semi: str | None) -> str | None:
    if shooter.has(Trait.SEMI_AUTOMATIC):
        return semi if semi in ("hit", "damage") else "hit"
    return None


def _weapon_bonus(shooter: Combatant, semi: str | None, pick: str) -> int:
    """CS-11: what a weapon adds to the roll to hit and to the roll for the wound alike:
    automatic +1, semi-automatic +1 to the roll the shooter picks (``pick``), explosive +2."""
    return (shooter.has(Trait.AUTOMATIC) + (semi_choice(shooter, semi) == pick)
            + 2 * shooter.has(Trait.EXPLOSIVE))


def hit_modifier(shooter: Combatant, semi: str | None = None) -> int:
    """CS-8/CS-11: training (+1 trained, +2 elite), automatic +1, semi-automatic +1 if
    the shooter picks “hit”, explosive +2."""
    shooter, semi = shooter_arg(shooter), semi_arg(semi)
    return shooter.training.bonus + _weapon_bonus(shooter, semi, "hit")


def damage_modifier(shooter: Combatant, semi: str | None = None) -> int:
    """CS-11: automatic +1, semi-automatic +1 if the shooter picks “damage”, explosive +2,
    ground- or air-vehicle weapon +3."""
    shooter, semi = shooter_arg(shooter), semi_arg(semi)
    mod = _weapon_bonus(shooter, semi, "damage")
    if shooter.has(Trait.GROUND_VEHICLE):
        mod += 3
    if shooter.has(Trait.AIR_VEHICLE):
        mod += 3
    return mod


def suppression_multiplier(shooter: Combatant) -> int:
    """CS-7/CS-11: ground-vehicle weapons double suppression, air-vehicle weapons triple it."""
    shooter = shooter_arg(shooter)
    if shooter.has(Trait.AIR_VEHICLE):
        return 3
    if shooter.has(Trait.GROUND_VEHICLE):
        return 2
    return 1


def suppression_caused(shooter: Combatant, *, unseen: bool = False, suppressive_miss: bool = False) -> int:
    """CS-7/CS-9: suppression fire puts on a target: 1, +2 unseen, +1 for a suppressive
    miss, times the vehicle multiplier (HR-CS-5: wound suppression is added apart)."""
    flag_arg(unseen, "unseen")
    flag_arg(suppressive_miss, "suppressive_miss")
    return base_ticks(unseen, suppressive_miss) * suppression_multiplier(shooter)


def base_ticks(unseen: bool, suppressive_miss: bool) -> int:
    return 1 + (2 if unseen else 0) + (1 if suppressive_miss else 0)


def aimed_hits(d10: int, modifier: int, cover: Cover) -> bool:
    return d10 + modifier >= cover.needed


def hit_chance(shooter: Combatant, mode: str = "aimed", cover: Cover | str = Cover.NONE,
               semi: str | None = None) -> Fraction:
    """CS-8/CS-9: the exact chance that one shot hits.

    Aimed: P(d10 + modifiers ≥ 6/7/8). Suppressive: a natural 10 only, 1/10.
    """
    shooter, mode = shooter_arg(shooter), mode_arg(mode)
    cover, semi = enum_arg(Cover, cover, "CS-8: the cover"), semi_arg(semi)
    if mode == "suppressive":
        return Fraction(1, 10)
    mod = hit_modifier(shooter, semi)
    return Fraction(sum(1 for d in range(1, 11) if aimed_hits(d, mod, cover)), 10)


def wound_distribution(damage: int) -> dict[WoundStatus, Fraction]:
    """CS-10: the exact chance of each wound result for 1d6 + ``damage`` (given a hit)."""
    damage = whole_arg(damage, "CS-10: the damage modifier", None)
    out = {w: Fraction(0) for w in WoundStatus}
    for d6 in range(1, 7):
        out[wound_status(d6 + damage)] += Fraction(1, 6)
    return out


def shot_odds(shooter: Combatant, mode: str = "aimed", cover: Cover | str = Cover.NONE,
              semi: str | None = None) -> ShotOdds:
    """CS-8 … CS-11: hit chance and wound distribution, exact, no sampling."""
    hit = hit_chance(shooter, mode, cover, semi)
    damage = damage_modifier(shooter, semi)
    wounds = wound_distribution(damage)
    outcomes: dict[WoundStatus | None, Fraction] = {None: 1 - hit}
    for wound, chance in wounds.items():
        outcomes[wound] = hit * chance
    return ShotOdds(hit, MappingProxyType(wounds), MappingProxyType(outcomes), hit_modifier(shooter, semi),
                    damage, to_hit_target(cover) if mode == "aimed" else None)


def apply_wound(status: Status, wound: WoundStatus | str, round_: int, countdown: int | None = None
                ) -> tuple[Status, str]:
    """CS-10/CS-13: ``status`` after ``wound`` in round ``round_``, and what happened.

    STUN: +3 suppression, no cards next round; a STUN while stunned → INJURED (HR-CS-1).
    INJURE: +3, a card struck at each deal, DYING after the 2d6 ``countdown`` unless
    treated; a second INJURE kills. DYING: +5, DEAD after the 1d6 ``countdown`` without
    first aid; a second DYING kills. DEAD. A worse condition replaces a milder one; a
    milder wound does not change the condition (HR-CS-2). ``countdown`` is the roll for
    a condition that starts now (needed only then); the round it starts counts as its
    first (CS-13).
    """
    if not isinstance(status, Status):
        raise ArgumentError(f"The status must be a Status (got {shown(status)})")
    wound = enum_arg(WoundStatus, wound, "CS-10: the wound")
    whole_arg(round_, "The round")
    if countdown is not None:
        whole_arg(countdown, "CS-13: the countdown roll", 1, 12)
    cond = status.condition
    if cond is Condition.DEAD:
        return status, "already DEAD"

    def need() -> int:
        if countdown is None:
            raise ArgumentError("CS-13: a countdown roll is needed when INJURED or DYING starts")
        return countdown

    def injured() -> Status:
        return replace(status, condition=Condition.INJURED, countdown=need(), treated=False,
                       stunned_until=None)

    def dying_in(rounds: int) -> str:
        return f"DYING in {plural(rounds, 'round')} unless treated"

    if wound is WoundStatus.STUN:
        status = replace(status, suppression=status.suppression + 3, no_cards_next=True)
        if cond is Condition.STUNNED:
            new = injured()
            return new, f"second STUN: INJURED, {dying_in(need())} (CS-10, HR-CS-1, CS-13)"
        if cond is Condition.OK:
            return replace(status, condition=Condition.STUNNED, stunned_until=round_ + 1), \
                "STUN: STUNNED, +3 suppression, no cards next round (CS-10)"
        return status, f"STUN: +3 suppression, no cards next round; stays {cond.label} (HR-CS-2)"
    if wound is WoundStatus.INJURE:
        status = replace(status, suppression=status.suppression + 3)
        if cond is Condition.INJURED:
            return replace(status, condition=Condition.DEAD, countdown=None), "second INJURE: DEAD (CS-10)"
        if cond in (Condition.OK, Condition.STUNNED):
            new = injured()
            return new, (f"INJURE: INJURED, +3 suppression, a card struck at each deal, "
                         f"{dying_in(need())} (CS-10, CS-13)")
        return status, f"INJURE: +3 suppression; stays {cond.label} (HR-CS-2)"
    if wound is WoundStatus.DYING:
        status = replace(status, suppression=status.suppression + 5)
        if cond is Condition.DYING:
            return replace(status, condition=Condition.DEAD, countdown=None), "second DYING: DEAD (CS-10)"
        new = replace(status, condition=Condition.DYING, countdown=need(), first_aid=False, treated=False,
                      stunned_until=None)
        return new, (f"DYING: +5 suppression, DEAD in {plural(need(), 'round')} without first aid "
                     "(CS-10, CS-13)")
    return replace(status, condition=Condition.DEAD, countdown=None), "DEAD (CS-10)"


def countdown_dice(condition: Condition, wound: WoundStatus) -> int:
    """Dice of the countdown roll a wound starts (0: none): 2d6 for INJURED, 1d6 for DYING."""
    if condition is Condition.DEAD:
        return 0
    if wound is WoundStatus.STUN and condition is Condition.STUNNED:
        return 2
    if wound is WoundStatus.INJURE and condition in (Condition.OK, Condition.STUNNED):
        return 2
    if wound is WoundStatus.DYING and condition is not Condition.DYING:
        return 1
    return 0


# ---------------------------------------------------------------------------
# The acting order: who acts now (CS-5, CS-13), and what the players see


def can_act(state: ConsimState, index: int) -> bool:
    """CS-5/CS-13: DYING and DEAD combatants never act."""
    state = state_arg(state)
    index = index_arg(state, index)
    return _can_act(state, index)


def _can_act(state: ConsimState, index: int) -> bool:
    return state.statuses[index].condition not in (Condition.DYING, Condition.DEAD)


def current_turn(state: ConsimState) -> int | None:
    """CS-5: the index in ``state.turns`` of who acts now.

    ``None``: no round is on, the order is done, or (in a spectator's copy) one of the
    Observer's hidden combatants acts now (``state.unseen_acting``)."""
    return current_index(state_arg(state))


def current_index(state: ConsimState) -> int | None:
    """:func:`current_turn` of a state known to be one (inside the package)."""
    if state.phase != "round" or state.unseen_acting:
        return None
    for i, turn in enumerate(state.turns):
        if not turn.done and _can_act(state, turn.combatant):
            return i
    return None


def acting(state: ConsimState) -> int | None:
    """CS-5: the combatant who acts now (``None`` when no one, or an unseen one, does)."""
    cur = current_turn(state)
    return None if cur is None else state.turns[cur].combatant


def round_over(state: ConsimState) -> bool:
    """CS-5: a round is on and every card that can act has acted."""
    state = state_arg(state)
    return state.phase == "round" and not state.unseen_acting and current_index(state) is None


def is_hidden(state: ConsimState, index: int) -> bool:
    """Privacy: are this combatant's cards and status hidden from the players?

    The non-player combatants the Observer chose (HR-CS-8; by default, in games saved
    before it, all of them) are hidden while the Observer's privacy is on; in a
    spectator's copy the hidden ones are placeholders.
    """
    state = state_arg(state)
    index = index_arg(state, index)
    return kept_hidden(state, index)


def kept_hidden(state: ConsimState, index: int) -> bool:
    """:func:`is_hidden` of a state and index known to be ones (inside the package)."""
    if index in state.hidden:
        return True
    fighter = state.combatants[index]
    return state.privacy and not fighter.player and fighter.hidden


def rules_not_in_play(state: ConsimState) -> frozenset[str]:
    """HR-CS-8 is in play only when the Observer chose it: a non-player combatant kept in the
    players' sight, or the hidden not counted (a game that chose neither hides as before)."""
    state = state_arg(state)
    chosen = not state.count_hidden or any(not c.player and not c.hidden for c in state.combatants)
    return frozenset() if chosen else frozenset({"HR-CS-8"})


def turn_counts(state: ConsimState) -> tuple[int, int]:
    """CS-5: ``(cards that have acted, cards still to act)`` this round (skipped cards of
    the DYING and DEAD count as neither). A spectator's copy counts the cards it shows."""
    state = state_arg(state)
    if state.phase != "round":
        return 0, 0
    done = sum(1 for t in state.turns if t.done)
    left = sum(1 for t in state.turns if not t.done and _can_act(state, t.combatant))
    return done, left


# ---------------------------------------------------------------------------
# Between rounds (CS-3, CS-12, CS-13, HR-CS-1)


def _round_end_status(st: Status, round_: int) -> Status:
    """CS-12/CS-13/HR-CS-1: a status after the end of round ``round_`` (the countdown
    that runs out turns INJURED to DYING with an unknown roll: any roll gives no cards)."""
    if not st.fired_on and st.suppression:
        st = replace(st, suppression=0)
    st = replace(st, fired_on=False)
    if st.condition is Condition.STUNNED and st.stunned_until is not None and st.stunned_until <= round_:
        st = replace(st, condition=Condition.OK, stunned_until=None)
    running = (st.condition is Condition.INJURED and not st.treated) or (
        st.condition is Condition.DYING and not st.first_aid)
    if running and st.countdown is not None and st.countdown <= 1:
        st = replace(st, condition=Condition.DYING if st.condition is Condition.INJURED else Condition.DEAD,
                     countdown=None)
    return st


def turns_dying(st: Status) -> bool:
    """CS-13: an untreated INJURED whose countdown runs out now turns DYING (a 1d6 roll)."""
    return st.condition is Condition.INJURED and not st.treated and st.countdown is not None and st.countdown <= 1


def forecast(state: ConsimState, index: int, advantages: int = 0, surprised: bool = False) -> Forecast:
    """CS-3/CS-10/CS-12/CS-13: the next deal for combatant ``index`` with ``advantages``
    ticked, as things stand: during a round, as if it ended now (suppression of a
    combatant not fired on is shed, CS-12; a stun wears off, HR-CS-1; a countdown that
    runs out turns INJURED to DYING and DYING to DEAD, CS-13)."""
    state = state_arg(state)
    index = index_arg(state, index)
    whole_arg(advantages, "CS-2: the number of advantages", 0, len(ADVANTAGES))
    flag_arg(surprised, "surprised")
    st = state.statuses[index]
    c = state.combatants[index]
    if state.phase == "round":
        st = _round_end_status(st, state.round)
    pulp = bool(state.settings.get("pulp"))
    due, struck, reasons = cards_due(advantages, st.suppression, st.condition, no_cards=st.no_cards_next,
                                     surprised=surprised, player=c.player, pulp=pulp, legacy=state.legacy)
    if due == 0:
        return Forecast(0, 0, 0, 0, reasons[0].split(":")[0], st.suppression)
    injury = 1 if st.condition is Condition.INJURED and not state.legacy else 0
    by_injury = min(injury, struck)
    by_suppression = struck - by_injury
    return Forecast(due, by_suppression, by_injury, due - struck, None, st.suppression)


# ---------------------------------------------------------------------------
# The deal (CS-2, CS-3, CS-4, CS-6)


def dues(state: ConsimState, ticks: Sequence[int], surprised: Sequence[int]
         ) -> list[tuple[int, int, tuple[str, ...]]]:
    """CS-2/CS-3/CS-4: each combatant's ``(due, struck, reasons)`` at a deal with ``ticks``
    advantages each and the ``surprised`` sides (:func:`cards_due`, roster order)."""
    pulp = bool(state.settings.get("pulp"))
    return [cards_due(ticks[i], st.suppression, st.condition, no_cards=st.no_cards_next,
                      surprised=c.side in surprised, player=c.player, pulp=pulp, legacy=state.legacy)
            for i, (c, st) in enumerate(zip(state.combatants, state.statuses))]


def deal_hands(state: ConsimState, ticks: Sequence[int], surprised: Sequence[int],
               recorded: Mapping[int, tuple[Card, ...]] | None, rng: random.Random | None
               ) -> tuple[list[DealtHand | None], list[int]]:
    """CS-2/CS-3/CS-4/CS-6: every combatant's hand: one deck, dealt in roster order
    (shuffled by ``rng``, or the ``recorded`` cards, checked: exactly what each is owed
    while the deck lasts); then suppression and an injury strike the highest."""
    if recorded is None:
        if not isinstance(rng, random.Random):
            raise ArgumentError("step needs the game's random generator to deal (or recorded cards)")
        deck = shuffled_deck(rng)
    pulp = bool(state.settings.get("pulp"))
    remaining = DECK
    hands: list[DealtHand | None] = []
    nothing: list[int] = []
    short_before: str | None = None
    for i, (c, (due, struck, reasons)) in enumerate(zip(state.combatants, dues(state, ticks, surprised))):
        if state.facts and i in state.hidden:
            hands.append(None)  # a spectator's copy knows nothing of a hidden hand
            continue
        if recorded is None:
            dealt, deck = tuple(_order(deck[:due])), deck[due:]
        else:
            dealt = recorded.get(i, ())
            if state.facts:  # the copy does not see the hidden hands: the deck's end is in roster order
                if len(dealt) > due:
                    raise RuleError("CS-6", f"{c.name} is owed {plural(due, 'card')}, the record gives {len(dealt)}")
                if dealt and short_before is not None:
                    raise RuleError("CS-6", f"the deck reached {c.name} after {short_before} ran short: "
                                            "it is dealt in roster order")
                if len(dealt) < due:
                    short_before = short_before or c.name
            else:
                owed = min(due, remaining)
                if len(dealt) != owed:
                    deck_note = "" if owed == due else f" (the deck had only {remaining} left)"
                    raise RuleError("CS-6", f"{c.name} is owed {plural(owed, 'card')}{deck_note}, "
                                            f"the record gives {len(dealt)}")
        remaining -= len(dealt)
        if len(dealt) < due:
            nothing.append(i)
        floor = 1 if (pulp and c.player) else 0
        drop = max(0, min(struck, len(dealt) - floor)) if dealt else 0
        ordered = _order(dealt)
        hands.append(DealtHand(due, tuple(dealt), tuple(ordered[:drop]), tuple(ordered[drop:]), reasons))
    return hands, nothing


# ---------------------------------------------------------------------------
# Fire (CS-7 … CS-11, CS-13), from the game's dice or the recorded ones


#: The rolls a shot's recorded dice give, and an unseen shooter's results, in their canonical order.
_ROLL_KEYS = ("d10", "d6", "countdown")
_RESULT_KEYS = ("hit", "wound", "suppression", "countdown")


class MissingRoll(ActionError):
    """Recorded dice that lack a roll the fire needs: which one (``call``, a :class:`DieCall`).

    :func:`~engine.consim.next_roll` reads it; every other public function raises it as a
    plain :class:`~engine.game.ActionError` with the same sentence (issue 35). It can be
    made from its message alone, like every ActionError."""

    def __init__(self, message: str, call: DieCall | None = None) -> None:
        super().__init__(message)
        self.call = call


#: How a roll a shot needs is named in a refusal (:class:`MissingRoll`).
_ROLL_WORDS = {"d10": "the d10 roll to hit (CS-8)", "d6": "the d6 roll for the wound (CS-10)",
               "countdown": "the countdown roll ({dice} for the rounds left, CS-13)"}


def resolve_fire(state: ConsimState, shooter: int | None, targets: Sequence[int], mode: str, cover: Cover,
                 unseen: bool, semi: str | None, rolls: Sequence[Any] | None, rng: random.Random | None
                 ) -> tuple[list[Status], list[Any], list[ShotTarget]]:
    """CS-7 … CS-11: resolve fire at each target: ``(statuses, canonical rolls, results)``.

    ``rolls`` (recorded dice, or an unseen shooter's results) must give exactly what the
    fire needs, no more; without them ``rng`` rolls."""
    statuses = list(state.statuses)
    canon: list[Any] = []
    results: list[ShotTarget] = []
    c = state.combatants[shooter] if shooter is not None else None
    hmod = hit_modifier(c, semi) if c is not None else 0
    dmod = damage_modifier(c, semi) if c is not None else 0
    lenient = state.legacy  # the earlier referee ignored rolls a shot did not need
    for n, t in enumerate(targets):
        name = state.combatants[t].name
        given = rolls[n] if rolls is not None else None
        if state.facts and t in state.hidden:
            if given is not None:
                raise ActionError(f"A spectator's copy shows nothing of fire at {name}: its dice are null")
            canon.append(None)
            continue
        if rolls is not None and not isinstance(given, Mapping):
            raise ActionError(f"The rolls for {name} must be an object")
        used: dict[str, Any] = {}

        def roll(key: str, sides: int, count: int = 1) -> int:
            if given is None:
                if not isinstance(rng, random.Random):
                    raise ArgumentError("step needs the game's random generator to roll (or recorded dice)")
                value = sum(rng.randint(1, sides) for _ in range(count))
            else:
                if key not in given:
                    call = DieCall(n, t, key, count, sides)
                    raise MissingRoll(f"The dice entered for {name} lack "
                                      f"{_ROLL_WORDS[key].format(dice=call.dice)}: roll it and enter it", call)
                value = fields.whole(given[key], f"the {key} roll for {name}", count, count * sides)
            used[key] = value
            return value

        before = statuses[t].condition
        st = replace(statuses[t], fired_on=True)
        if c is None:  # an unseen shooter (a spectator's copy): the results the table saw
            if not isinstance(given, Mapping):
                raise ActionError(f"The results of the fire at {name} are missing (an unseen shooter's fire)")
            hit = fields.flag(given.get("hit"), f"the hit on {name}")
            used["hit"] = hit
            miss_ticks = base_ticks(unseen, mode == "suppressive" and not hit)
            ticks = fields.whole(given.get("suppression"), f"the suppression {name} took", 1, 3 * miss_ticks)
            if ticks % miss_ticks:
                raise RuleError("CS-7", f"{name} cannot take {ticks} suppression from this fire "
                                        f"({miss_ticks}, ×2 or ×3 from a vehicle weapon)")
            used["suppression"] = ticks
            d10 = d6 = None
            wound = None
            if hit:
                wound = WoundStatus(fields.one_of(given.get("wound"), f"the wound of {name}",
                                                  tuple(w.value for w in WoundStatus)))
                used["wound"] = wound.value
            text = f"{name}: " + ("hit (CS-8). " if hit else "")
        else:
            d10 = roll("d10", 10)
            hit = aimed_hits(d10, hmod, cover) if mode == "aimed" else d10 == 10
            ticks = suppression_caused(c, unseen=unseen, suppressive_miss=(mode == "suppressive" and not hit))
            if mode == "aimed":
                text = f"{name}: d10 {d10} + {hmod} = {d10 + hmod} vs {cover.needed}+ {cover.label}: "
            else:
                text = f"{name}: d10 {d10} (suppressive fire hits on a 10): "
            d6 = wound = None
            if hit:
                d6 = roll("d6", 6)
                wound = wound_status(d6 + dmod)
                text += f"hit (CS-8). d6 {d6} + {dmod} = {d6 + dmod}: "
        st = replace(st, suppression=st.suppression + ticks)
        countdown = None
        if hit:
            assert wound is not None  # every hit has its wound (CS-10)
            dice = countdown_dice(st.condition, wound)
            if dice:
                if c is None and given is not None and "countdown" not in given:
                    raise ActionError(f"The results for {name} lack the countdown roll ({dice}d6, CS-13)")
                countdown = roll("countdown", 6, dice)
                used["countdown"] = countdown
            st, what = apply_wound(st, wound, state.round, countdown)
            text += f"{what}. +{ticks} suppression from the fire (CS-7)."
        else:
            extra = ", +1 for suppressive fire: CS-9" if mode == "suppressive" else ""
            text += f"miss. +{ticks} suppression (CS-7{extra})."
        if given is not None and not lenient:
            extra_keys = sorted(key_text(k) for k in given if k not in used)
            if extra_keys:
                raise ActionError(f"The record for {name} gives a {extra_keys[0][:40]} the fire did not need")
        statuses[t] = st
        canon.append({k: used[k] for k in (_RESULT_KEYS if c is None else _ROLL_KEYS) if k in used})
        results.append(ShotTarget(t, d10, hmod if mode == "aimed" and c is not None else 0,
                                  cover.needed if mode == "aimed" else None, hit, d6, dmod, wound,
                                  st.suppression - state.statuses[t].suppression, before, st.condition,
                                  countdown, text, ticks))
    return statuses, canon, results
