"""The week's resolution as a pure function (for issue 17's outcome odds and advisor):
``resolve(state, bids, rolls)`` gives exactly what ``step`` gives for the same dice, for any
pair of bids the armies could declare, without playing them; ``casualty_ranges`` says which
range rolls a pair of success counts calls for."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from engine import ascension as ai
from engine.game import apply, new_game, replay

from .test_ascension import gen, setup, unit

ARMIES = setup([unit("N1", 2, 2, 2, size=2), unit("N2", 1, 1, 1, traits=["scout"], armour=1)],
               [unit("S1", 2, 1, 2, size=3), unit("S2", 1, 2, 1, traits=["long range"])],
               a_general=gen(1), b_general=gen(2, ["observer"]))

BIDS = [("attack", ()), ("shock", ()), ("defend", ()), ("defend", ("hold_the_line",)), ("block", ()),
        ("skirmish", ()), ("withdraw", ())]


def played(m0, s0, m1, s1, dice, ranges):
    game = new_game("battle", ARMIES, {"dice": ai.DICE_TABLE}, 3)  # the dice entered (HR-AI-7, issue 35)
    game = apply(game, {"type": "bid", "side": 0, "maneuver": m0, "stratagems": list(s0)})
    game = apply(game, {"type": "bid", "side": 1, "maneuver": m1, "stratagems": list(s1)})
    game = apply(game, {"type": "reveal"})
    game = apply(game, {"type": "roll", "dice": dice, "ranges": ranges})
    return replay(game)


@pytest.mark.parametrize("bid0", BIDS[:4] + BIDS[5:], ids=lambda b: "+".join((b[0],) + b[1]))
@pytest.mark.parametrize("bid1", [("attack", ()), ("defend", ()), ("block", ("harassing_fire",)), ("withdraw", ())],
                         ids=lambda b: "+".join((b[0],) + b[1]))
def test_resolve_equals_step_for_every_outcome_of_small_pools(bid0, bid1):
    start = replay(new_game("battle", ARMIES, None, 3))
    bids = (ai.Bid(bid0[0], bid0[1]), ai.Bid(bid1[0], bid1[1]))
    pools = [ai.dice_pool(start, s, bids[s].maneuver, bids[s].stratagems) for s in (0, 1)]
    for hits in itertools.product(range(pools[0].dice + 1), range(pools[1].dice + 1)):
        spans = ai.casualty_ranges(start, bids, hits)
        choices = [range(sp[0], sp[1] + 1) if sp and sp[0] != sp[1] else [None] for sp in spans]
        for r0, r1 in itertools.product(*choices):
            result = ai.resolve(start, bids, ai.Rolls(hits, (r0, r1)))
            dice = [[6] * hits[s] + [1] * (pools[s].dice - hits[s]) for s in (0, 1)]
            entered = [r0, r1]
            for s in (0, 1):
                if spans[s] and spans[s][0] == spans[s][1]:
                    entered[s] = spans[s][0]
            after = played(bid0[0], bid0[1], bid1[0], bid1[1], dice, entered)
            week = after.weeks[-1]
            assert (week.successes, week.tier, week.taken, week.lost, week.withdrew, week.fell_back, week.ended) == (
                result.successes, result.tier, result.taken, result.lost, result.withdrew, result.fell_back,
                result.ended)
            assert (after.destroyed, after.damage, after.vanguards) == (result.destroyed, result.damage,
                                                                        result.vanguards)


def test_resolve_gives_a_distribution_when_weighted_by_the_dice():
    """What issue 17 does: weight each outcome by its chance; the chances sum to 1."""
    start = replay(new_game("battle", ARMIES, None, 3))
    bids = (ai.Bid("shock"), ai.Bid("shock"))
    pools = [ai.dice_pool(start, s, "shock").dice for s in (0, 1)]
    dists = [ai.success_distribution(n) for n in pools]
    total = Fraction(0)
    lose_a_unit = Fraction(0)
    for a, b in itertools.product(range(pools[0] + 1), range(pools[1] + 1)):
        p_hits = Fraction(dists[0][a] * dists[1][b], 6 ** sum(pools))
        spans = ai.casualty_ranges(start, bids, (a, b))
        choices = [list(range(sp[0], sp[1] + 1)) if sp and sp[0] != sp[1] else [None] for sp in spans]
        for rolls in itertools.product(*choices):
            p = p_hits / (len(choices[0]) * len(choices[1]))
            total += p
            if ai.resolve(start, bids, ai.Rolls((a, b), rolls)).lost[0]:
                lose_a_unit += p
    assert total == 1
    assert 0 < lose_a_unit < 1


def test_resolve_needs_no_particular_phase_and_keeps_the_state():
    start = replay(new_game("battle", ARMIES, None, 3))
    before = repr(start)
    result = ai.resolve(start, (ai.Bid("withdraw", (), 1), ai.Bid("block")), ai.Rolls((0, 0), (None, 2)))
    assert repr(start) == before and start.phase == "bid"
    assert result.rearguards_used == (1, None) and result.taken[0] == 2
    # Casualties land on the named rearguard first (AI-2, HR-AI-2): N2 (armour 1) falls, then N1 takes one.
    assert result.hits[0] == ((0, 1), (1, 1)) and result.lost[0] == ("N2",)


@pytest.mark.parametrize("bids, rolls, message", [
    ("attack", ai.Rolls((0, 0)), "pair of Bid"),
    ((ai.Bid("charge"), ai.Bid("attack")), ai.Rolls((0, 0)), "Unknown maneuver"),
    ((ai.Bid("attack", ("flanking",)), ai.Bid("attack")), ai.Rolls((0, 0)), "skilled general"),
    ((ai.Bid("attack"), ai.Bid("attack")), ai.Rolls((9, 0)), "from 0 to"),
    ((ai.Bid("attack"), ai.Bid("attack")), (0, 0), "Rolls value"),
    ((ai.Bid("shock"), ai.Bid("shock")), ai.Rolls((0, 0)), "needs its roll"),
    ((ai.Bid("shock"), ai.Bid("shock")), ai.Rolls((0, 0), (9, 1)), "from 1 to 5"),
    ((ai.Bid("defend"), ai.Bid("defend")), ai.Rolls((0, 0), (1, None)), "rolls nothing"),
    ((ai.Bid("attack"), ai.Bid("attack")), ai.Rolls((1, 0), (None, None), ((6,), (1,))), "rolls 2 dice"),
    ((ai.Bid("attack"), ai.Bid("attack")), ai.Rolls((1, 0), (None, None), ((6, 6), (1, 1))), "show 2 successes"),
    ((ai.Bid("attack", (), 0), ai.Bid("attack")), ai.Rolls((0, 0)), "only a Withdraw"),
    ((ai.Bid("", (), None, True), ai.Bid("attack")), ai.Rolls((0, 0)), "sealed"),
])
def test_resolve_refuses_what_does_not_fit(bids, rolls, message):
    start = replay(new_game("battle", ARMIES, None, 3))
    with pytest.raises(ValueError, match=message):
        ai.resolve(start, bids, rolls)


def test_counter_attack_switch_in_resolve():
    s = setup([unit("N1", attack=4), unit("N2")], [unit("S1", attack=2)], a_general=gen(2))
    start = replay(new_game("battle", s, None, 1))
    bids = (ai.Bid("defend", ("counter_attack",)), ai.Bid("attack"))
    result = ai.resolve(start, bids, ai.Rolls((0, 0)), switched=(True, False))
    assert result.maneuvers == ("attack", "attack") and result.pools[0].dice == 4
    with pytest.raises(ValueError, match="AI-16"):
        ai.resolve(start, (ai.Bid("defend"), ai.Bid("attack")), ai.Rolls((0, 0)), switched=(True, False))
