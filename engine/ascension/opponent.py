"""Ascension Isle battles: the app's general (issue 17, HR-AI-13).

An army of the setup may be played by the app (``"controller": "app"`` and a level,
:data:`LEVELS`). :func:`app_bid` decides its bid from the public battle only, with the
staff officer's numbers (:mod:`.advice`): Easy a random legal bid, Normal the best answer
to an enemy bidding uniformly, Hard a draw from the equilibrium mix. The bid is an ordinary
bid action with a one-line ``"why"``. :func:`app_turn` says when the app must bid;
:func:`undo_target` where one tap of Undo goes when the app plays an army.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from .. import zerosum
from ..game import ArgumentError, Game, RuleError, replay
from ..text import brief_repr
from .advice import (
    AIM_NAMES,
    POLICY_AIM,
    advice,
    best_answer_to_plain,
    bid_name,
    mix_text,
    plain_advice,
    public_state,
    stated_stratagems,
)
from .referee import WHY_MAX, normalize_action
from .rules import dice_pool
from .setup import app_levels
from .steps import start
from .tables import MANEUVERS
from .values import KIND, Bid, side_arg

__all__ = ["LEVELS", "LEVEL_LABELS", "app_bid", "app_turn", "undo_target", "check_app_move", "app_move_work",
           "ADVICE_WORK", "DIE_WORK", "EASY_WORK", "FULL_BIDS"]


#: How well the app plays an army (setup ``"level"``).
LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
LEVEL_LABELS: Mapping[str, str] = {"easy": "Easy", "normal": "Normal", "hard": "Hard"}


def _rng(seed: Any, public: Any, side: int, level: str) -> random.Random:
    """The app's generator for this decision: seeded from the game's seed and the public
    battle (the week, the weeks fought), never from a hidden bid."""
    text = f"{seed}|{side}|{level}|{public.week}|{len(public.weeks)}|{len(public.changes)}"
    return random.Random(int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big"))


def _action(side: int, bid: Any, why: str) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "bid", "side": side, "maneuver": bid.maneuver,
                              "stratagems": list(bid.stratagems)}
    if bid.rearguard is not None:
        action["rearguard"] = bid.rearguard
    action["why"] = why
    return action


def app_bid(state: Any, side: int, level: str, seed: int) -> dict[str, Any]:
    """The app general's bid for ``side`` at ``level`` (:data:`LEVELS`): an ordinary bid
    action with a one-line ``"why"``, decided from the public battle only.

    * ``"easy"``: a random legal bid (a maneuver, each stated stratagem it qualifies for
      with even odds, a random rearguard for a Withdraw);
    * ``"normal"``: the best answer to an enemy that declares each of its six bids alike
      (net casualties over the 6×6 grid in a battle of policy 1; in a battle of policy 2, the
      aim "winning the battle" over every legal bid, :func:`~engine.ascension.advice.best_answer_to_plain`);
    * ``"hard"``: a draw from an equilibrium mix: for "winning the battle", of the game over every
      legal bid of both sides (:func:`~engine.ascension.advice`) in a battle of policy 2; for net
      casualties, of the 6×6 grid of :func:`~engine.ascension.plain_advice` in a battle of policy 1 (HR-AI-15: the
      battle's ``state.policy``, from its setup; kept so its links still check, HR-AI-14).

    ``seed`` is the game's seed: the draws come from a generator seeded from it and the
    public battle, so a replay decides the same and no one at the table can foresee it.
    """
    public = public_state(state)
    side = side_arg(side)
    if level not in LEVELS or not isinstance(level, str):
        raise ArgumentError(f"The app's level is easy, normal or hard (got {brief_repr(level)})")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ArgumentError("The seed must be the game's seed (a whole number)")
    rng = _rng(seed, public, side, level)
    if level == "easy":
        maneuver = rng.choice(MANEUVERS)
        keys = tuple(k for k in stated_stratagems(public, side, maneuver) if rng.random() < 0.5)
        rear = rng.choice(public.alive(side)) if maneuver == "withdraw" else None
        bid = Bid(maneuver, keys, rear)
        return _action(side, bid, f"Easy: a random legal bid — {bid_name(bid)}")
    if state.policy >= 2:  # HR-AI-15: the aim of the battle, over every legal bid (issue 34, 13 and 14)
        aim = AIM_NAMES[POLICY_AIM]
        if level == "normal":
            bid, gain = best_answer_to_plain(public, side, POLICY_AIM)
            return _action(side, bid, f"Normal: {bid_name(bid)} is the best answer to any plain enemy maneuver "
                                      f"alike, for {aim} ({float(gain):+.2f} on the battle's balance on average)")
        found = advice(public, side, POLICY_AIM)
        bid = _draw(rng, found)
        head = f"Hard: drew {bid_name(bid)} from the plan for {aim} that holds whatever the enemy declares"
        tail = f"{float(found.value):+.2f} on the battle's balance at worst"
        why = f"{head} ({mix_text(found.own, found.mix)}; {tail})"
        return _action(side, bid, why if len(why) <= WHY_MAX else f"{head} ({tail})"[:WHY_MAX])
    found = plain_advice(public, side, "net")
    if level == "normal":
        uniform = tuple(Fraction(1, len(found.enemy)) for _ in found.enemy)
        answer = zerosum.best_response(found.matrix, uniform)
        pick = answer.choices[0]
        average = float(answer.payoff)
        return _action(side, found.own[pick],
                       f"Normal: {bid_name(found.own[pick])} is the best answer to any enemy bid alike "
                       f"({average:+.2f} net casualties on average)")
    bid = _draw(rng, found)
    return _action(side, bid, f"Hard: drew {bid_name(bid)} from the equilibrium mix "
                              f"({mix_text(found.own, found.mix)}; worth {float(found.value):+.2f} net casualties "
                              "against the enemy's plain maneuvers)")


def _draw(rng: random.Random, found: Any) -> Any:
    """The bid of ``found``'s mix that one draw of ``rng`` picks (the shares in order, as floats)."""
    draw = rng.random()
    total, pick = 0.0, 0
    for i, p in enumerate(found.mix):
        if p:
            pick = i
            total += float(p)
            if draw < total:
                break
    return found.own[pick]

def app_turn(game: Any) -> tuple[int, str] | None:
    """(side, level) when the app must bid now in ``game``: the battle is at the week's bids, an
    army the app plays has not declared, and the game shows its newest position (the app never
    overwrites the redo stack by itself) and is no spectator's copy. ``None`` otherwise."""
    if not isinstance(game, Game) or game.kind != KIND:
        raise ArgumentError(f"Not a battle game: {type(game).__name__}")
    if game.position != len(game.actions):
        return None
    levels = app_levels(game.setup)
    if levels == (None, None) or game.setup.get("spectator"):
        return None
    state = replay(game)
    if state.phase != "bid":
        return None
    for s, level in enumerate(levels):
        if level is not None and state.bids[s] is None:
            return s, level
    return None


def undo_target(game: Any) -> int | None:
    """Where one tap of Undo goes when the app plays an army: just before the person's last
    action (the app's own bids after it are undone too, or it would only bid again). ``None``
    when no action of a person is in force."""
    if not isinstance(game, Game) or game.kind != KIND:
        raise ArgumentError(f"Not a battle game: {type(game).__name__}")
    for index in range(game.position - 1, -1, -1):
        if "why" not in game.actions[index]:
            return index
    return None


# ---------------------------------------------------------------------------
# HR-AI-14: the app general's bids of a battle from outside, derived again (issue 35)

#: What checking one week's Normal or Hard bid costs (the units of engine.game.MAX_REPLAY_WORK):
#: the staff officer's numbers for the week, a base and a part per die of the largest pool
#: (measured cold on CPython, tests/bench_appmove.py); an Easy bid costs EASY_WORK.
ADVICE_WORK = 20_000
DIE_WORK = 7_500
EASY_WORK = 1_000


def _move(action: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in action.items() if key != "why"}


def check_app_move(game: Any, state: Any, action: Mapping[str, Any]) -> None:
    """HR-AI-14: raise the :class:`~engine.game.RuleError` when ``action`` (about to be taken in
    ``state`` of ``game``) is the bid of an army the app plays and not the bid the app's general
    makes there (:func:`app_bid`, from the game's seed and the public battle). Other actions,
    and people's bids, pass. The message names neither bid (one may still be sealed)."""
    if not isinstance(action, Mapping) or action.get("type") != "bid" or "sealed" in action:
        return
    side = action.get("side")
    if side not in (0, 1) or isinstance(side, bool):
        return
    level = state.armies[side].level
    if level is None:
        return
    army = state.armies[side].name
    who = f"{army} is played by the app ({LEVEL_LABELS.get(level, level)})"
    if "why" not in action:
        raise RuleError("HR-AI-14", f"{who}: only the app's general bids for it, and this bid of week "
                                    f"{state.week} is not the app's")
    made = normalize_action(state, app_bid(state, side, level, game.seed))
    if _move(made) != _move(action):
        raise RuleError("HR-AI-14", f"{who}, and its bid of week {state.week} is not the one the app's general "
                                    "makes there (it bids from the game's seed and what both sides can see)")


_POOLS: list[tuple[Any, int]] = []  # (setup, largest pool) of the last setups asked


def _largest_pool(setup: Mapping[str, Any], actions: Any) -> int:
    """The largest pool of dice of the battle (AI-2, AI-3) as set up, over both armies' six
    maneuvers, or the bound of a unit that joins later (its highest stat and the reinforcement
    dice the most units could add), whichever is larger."""
    largest = next((pool for known, pool in _POOLS if known is setup), None)
    if largest is None:
        state = start(setup)
        largest = max(dice_pool(state, s, m).dice for s in (0, 1) for m in MANEUVERS)
        _POOLS.insert(0, (setup, largest))
        del _POOLS[4:]
    joined = [a.get("unit") for a in actions if isinstance(a, Mapping) and a.get("type") == "join"
              and isinstance(a.get("unit"), Mapping)]
    if joined:
        count = sum(len(army.get("units", ())) for army in setup.get("armies", ())) + len(joined)
        stats = [u.get(k) for u in joined if u is not None for k in ("attack", "defense", "mobility")]
        top = max([v for v in stats if isinstance(v, int) and not isinstance(v, bool)] + [1])
        largest = max(largest, top + ((count - 1) * top + 2).bit_length() - 2)
    return largest


#: HR-AI-15, policy 2: the Hard general's week costs the policy-1 week's work times
#: ``1 + bids / FULL_BIDS`` for the legal bids of both sides (:func:`_bids_bound`; measured cold on
#: CPython over seeded random and stratagem-rich armies, weeks 1-6: at most about half the estimate).
FULL_BIDS = 60
#: The bids of an army besides its Withdraws: Defend with any of its four stated stratagems (16),
#: Block with Harassing Fire and Delay (4), Attack with Feint (2), Skirmish, Shock Attack.
_OTHER_BIDS = 16 + 4 + 2 + 1 + 1


def _bids_bound(setup: Mapping[str, Any], joined: int, week: int) -> int:
    """At most how many bids :func:`~engine.ascension.legal_bids` gives both armies in ``week``:
    the other maneuvers with the combinations of the stratagems the army qualified for at the
    start (a prerequisite is only lost as units fall; :data:`_OTHER_BIDS` once a unit joined or
    was corrected), a Withdraw with each of its stratagem combinations (8 once a unit joined)
    and each kind of rearguard: the kinds as set up, two more a week (casualties land on one unit
    at a time, HR-AI-2, so a week leaves at most one unit partly hit, and a new vanguard, HR-AI-3,
    stands apart) and one a unit that joined or was corrected, never more than the army's units."""
    from .advice import _rearguard_choices, stated_stratagems

    known = next((found for key, found in _KINDS if key is setup), None)
    if known is None:
        state = start(setup)
        known = tuple((len(_rearguard_choices(state, s)), 1 << len(stated_stratagems(state, s, "withdraw")),
                       len(state.armies[s].units),
                       sum(1 << len(stated_stratagems(state, s, m)) for m in MANEUVERS if m != "withdraw"))
                      for s in (0, 1))
        _KINDS.insert(0, (setup, known))
        del _KINDS[4:]
    total = 0
    for kinds, combos, units, others in known:
        kinds = min(units + joined, kinds + 2 * week + joined)
        total += (8 if joined else combos) * kinds + (_OTHER_BIDS if joined else others)
    return total


_KINDS: list[tuple[Any, Any]] = []  # (setup, per army (rearguard kinds, withdraw combos, units)) last asked


def app_move_work(setup: Mapping[str, Any], actions: Any) -> int:
    """HR-AI-14: the work of checking the app general's bids of a battle (see
    :func:`engine.game.app_move_work`), from the (normalized) setup and the actions: each week
    with a Normal or Hard bid of the app costs the staff officer's numbers once (both armies'
    bids share them), :data:`ADVICE_WORK` plus :data:`DIE_WORK` a die of the largest pool; an
    Easy bid :data:`EASY_WORK`. 0 when people play both armies."""
    levels = app_levels(setup)
    if levels == (None, None):
        return 0
    per_week = ADVICE_WORK + DIE_WORK * _largest_pool(setup, actions)
    full = setup.get("policy", 1) != 1  # HR-AI-15: policy 2's generals weigh every legal bid
    done: set[Any] = set()
    work, week, joined = 0, 1, 0
    for action in actions:
        kind = action.get("type") if isinstance(action, Mapping) else None
        if kind == "roll" or kind == "leave":
            done = set()
            week += 1
        elif kind in ("join", "correct"):
            joined += 1
        elif kind == "bid" and action.get("side") in (0, 1) and not isinstance(action.get("side"), bool):
            level = levels[action["side"]]
            if level == "easy":
                work += EASY_WORK
            elif level is not None and (level if full else "advice") not in done:
                # policy 1: the staff officer's numbers, shared by both armies' bids; policy 2: each
                # level's own (the other army's same level shares its odds)
                work += per_week + (per_week * _bids_bound(setup, joined, week) // FULL_BIDS if full else 0)
                done.add(level if full else "advice")
    return work
