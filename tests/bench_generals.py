"""Issue 34, item 14: what the app's Hard general achieves, measured: ``python -m tests.bench_generals [battles]``.

Seeded battles of random armies (tests/bench_advisor.py's: 2–5 units a side, random generals,
observers, scouts, long range), the app's dice, at most 8 weeks; the Hard general plays each side
in turn, against

* **the dice-edge attacker**: a player who declares Attack when its Attack pool is 3 or more dice
  larger than the Hard general's Defend pool (Shock Attack when that edge is on Shock Attack
  against Block), to force a fallback (AI-19), and Defend otherwise;
* **Normal**: the app's Normal general of the same policy.

For the Hard general of policy 1 (net casualties over the 6×6 grid) and of policy 2 (HR-AI-15:
winning the battle over every legal bid): the share of battles it **wins** (the enemy leaves the
hex — falls back, withdraws or is destroyed — and it stays), **loses** (it leaves the hex and the
enemy stays) and **draws** (both stay to the 8th week, or both leave), each with a 95 % Wilson
interval. A Counter Attack switches when its holder likes it better for its aim (the attacker
never declares one).

Not a timed test: numbers for the report. Stdlib only.
"""

from __future__ import annotations

import math
import random
import sys
from dataclasses import replace
from typing import Any

from tests.bench_advisor import setup as random_armies

WEEKS = 8


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of k successes in n trials."""
    if n == 0:
        return 0.0, 1.0
    z = 1.959964
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def edge_attacker(ai: Any, state: Any, side: int) -> dict[str, Any]:
    """Attack with a dice edge of 3+ over the enemy's Defend (Shock Attack over its Block), else Defend."""
    enemy = 1 - side
    if ai.dice_pool(state, side, "attack").dice - ai.dice_pool(state, enemy, "defend").dice >= 3:
        return {"type": "bid", "side": side, "maneuver": "attack"}
    if ai.dice_pool(state, side, "shock").dice - ai.dice_pool(state, enemy, "block").dice >= 3:
        return {"type": "bid", "side": side, "maneuver": "shock"}
    return {"type": "bid", "side": side, "maneuver": "defend"}


def wants_switch(ai: Any, state: Any, side: int, policy: int) -> bool:
    """Whether the holder of a Counter Attack likes the switch better for its aim (AI-16)."""
    aim = "battle" if policy >= 2 else "net"
    bids = state.bids
    plain = ai.payoff(ai.outcome_odds(state, bids, (False, False)), side, aim, state)
    flips = (side == 0, side == 1)
    return ai.payoff(ai.outcome_odds(state, bids, flips), side, aim, state) > plain


def left(week: Any, side: int) -> bool:
    return week.withdrew[side] or week.fell_back[side] or all(week.destroyed[side])


def battle(ai: Any, armies: dict[str, Any], hard: int, opponent: str, policy: int, seed: int) -> str:
    """One battle: "win", "loss" or "draw" for the Hard general (army ``hard``)."""
    dice = random.Random(seed)
    state = replace(ai.start(armies), policy=policy)
    while state.phase != "over" and state.week <= WEEKS:
        bids = []
        for s in (0, 1):
            if s == hard:
                bids.append(ai.app_bid(state, s, "hard", seed))
            elif opponent == "edge":
                bids.append(edge_attacker(ai, state, s))
            else:
                bids.append(ai.app_bid(state, s, "normal", seed))
        for bid in bids:
            bid.pop("why", None)
            state = ai.step(state, bid)
        state = ai.step(state, {"type": "reveal"})
        for s in (0, 1):
            if ai.can_counter_attack(state, s) and wants_switch(ai, state, s, policy):
                state = ai.step(state, {"type": "counter_attack", "side": s})
        state = ai.step(state, {"type": "roll"}, None, dice)
    if state.phase != "over":
        return "draw"
    week = state.weeks[-1]
    mine, theirs = left(week, hard), left(week, 1 - hard)
    return "win" if theirs and not mine else "loss" if mine and not theirs else "draw"


def series(opponent: str, policy: int, battles: int, seed: int = 34) -> dict[str, Any]:
    from engine import ascension as ai

    rng = random.Random(f"{seed}-{opponent}")  # the same armies and dice for both policies
    counts = {"win": 0, "loss": 0, "draw": 0}
    for k in range(battles):
        armies = random_armies(rng, rng.randint(2, 5))
        counts[battle(ai, armies, k % 2, opponent, policy, rng.getrandbits(32))] += 1
    return {key: (n, n / battles, *wilson(n, battles)) for key, n in counts.items()} | {"battles": battles}


def main() -> None:
    battles = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    names = {"edge": "the dice-edge attacker (Attack/Shock with 3+ dice more, else Defend)",
             "normal": "Normal (same policy)"}
    for opponent in ("edge", "normal"):
        for policy in (1, 2):
            row = series(opponent, policy, battles)
            parts = [f"{key} {row[key][1]:.1%} [{row[key][2]:.1%}, {row[key][3]:.1%}]" for key in ("win", "loss", "draw")]
            print(f"Hard (policy {policy}) vs {names[opponent]}, {battles} battles: " + "; ".join(parts), flush=True)


if __name__ == "__main__":
    main()
