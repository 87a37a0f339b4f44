"""The staff officer and the app's general (issue 17, HR-AI-13): the advisor grid's numbers are
outcome_odds' own, the recommended mix is an exact equilibrium of its payoff matrix, and neither
the advice nor the app's bid ever depends on the enemy's sealed bid."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine import ascension as ai
from engine import zerosum
from engine.ascension import bid_name, public_state
from engine.game import apply, new_game, replay

from .test_ascension import gen, setup, unit

ARMIES = setup([unit("N1", 2, 3, 2, size=2), unit("N2", 1, 1, 3, traits=["scout", "long range"], armour=1),
                unit("N3", 2, 2, 1, size=1)],
               [unit("S1", 3, 1, 2, size=3), unit("S2", 1, 2, 1, traits=["long range", "observer"])],
               a_general=gen(2), b_general=gen(3, ["observer"]))


@pytest.mark.parametrize("aim", ai.AIMS)
@pytest.mark.parametrize("side", [0, 1])
def test_the_grid_is_outcome_odds_and_the_mix_an_equilibrium(aim, side):
    state = ai.start(ARMIES)
    found = ai.advice(state, side, aim)
    assert len(found.own) == len(found.enemy) == 6
    assert [b.maneuver for b in found.own] == list(ai.MANEUVERS)
    for i, mine in enumerate(found.own):
        for j, theirs in enumerate(found.enemy):
            pair = (mine, theirs) if side == 0 else (theirs, mine)
            switched = ai.counter_switches(state, pair)
            odds = ai.outcome_odds(state, pair, switched)
            cell = found.grid[i][j]
            assert cell.gets_away == odds.sides[side].gets_away
            assert cell.inflicted == odds.sides[1 - side].mean_landed and cell.taken == odds.sides[side].mean_landed
            assert cell.falls_back == odds.sides[side].falls_back
            own, enemy = odds.sides[side], odds.sides[1 - side]
            strength = [sum(u.armour or u.size or 1 for u in army.units) for army in state.armies]  # undamaged
            expected = {"net": cell.inflicted - cell.taken, "away": cell.gets_away, "hold": own.remains,
                        "battle": own.remains - enemy.remains + (enemy.destroyed - own.destroyed) / 2
                        + (cell.inflicted / strength[1 - side] - cell.taken / strength[side]) / 4}[aim]
            assert found.matrix[i][j] == cell.payoff == expected
    assert sum(found.mix) == 1 and zerosum.exploitability(found.matrix, found.mix) == 0
    assert found.value == zerosum.solve(found.matrix).value
    assert found.recommendation().startswith("A careful general declares ")


def test_stratagems_are_weighed_only_when_they_raise_the_payoff():
    state = ai.start(ARMIES)
    own = ai.candidate_bids(state, 1, "net")
    for bid in own:
        assert all(ai.STRATAGEM_BY_KEY[k].effect is not None for k in bid.stratagems)
        for key in bid.stratagems:
            assert ai.can_use_stratagem(state, 1, key, bid.maneuver)
    # Hold the Line removes mitigation: for net casualties it never beats a plain Defend here
    assert own[1].stratagems != ("hold_the_line",)


def test_advice_never_reads_the_sealed_bid():
    """Hidden means absent: the enemy's declared bid changes no number of the advice."""
    base = ai.start(ARMIES)
    seen = []
    for maneuver in ("attack", "withdraw", "defend"):
        state = ai.step(base, {"type": "bid", "side": 1, "maneuver": maneuver})
        found = ai.advice(state, 0, "net")
        seen.append((found.matrix, found.mix, found.own, found.enemy))
        assert public_state(state).bids == (None, None)
        for level in ("easy", "normal", "hard"):
            assert ai.app_bid(state, 0, level, 99) == ai.app_bid(base, 0, level, 99)
    assert seen[0] == seen[1] == seen[2]


def test_app_bids_are_legal_and_explained():
    state = ai.start(ARMIES)
    for level in ("easy", "normal", "hard"):
        for seed in (1, 2, 3):
            action = ai.app_bid(state, 1, level, seed)
            assert action["why"].startswith(level.capitalize() + ":")
            why = action.pop("why")
            canonical = ai.normalize_action(state, action)
            assert canonical["maneuver"] == action["maneuver"] and len(why) < 200
    normal = ai.app_bid(state, 1, "normal", 1)
    found = ai.advice(state, 1, "net")
    uniform = [Fraction(1, 6)] * 6
    best = zerosum.best_response(found.matrix, uniform).choices[0]
    assert normal["maneuver"] == found.own[best].maneuver and bid_name(found.own[best]) in normal["why"]
    hard = {ai.app_bid(state, 1, "hard", seed)["maneuver"] for seed in range(40)}
    support = {b.maneuver for b, p in zip(found.own, found.mix) if p}
    assert hard <= support


@pytest.mark.parametrize("call, word", [
    (lambda s: ai.advice(s, 2), "side"), (lambda s: ai.advice(s, 0, "glory"), "aim"),
    (lambda s: ai.advice("x", 0), "battle state"), (lambda s: ai.app_bid(s, 0, "expert", 1), "level"),
    (lambda s: ai.app_bid(s, 0, "hard", "seed"), "seed"),
])
def test_bad_arguments(call, word):
    with pytest.raises(ValueError, match=word):
        call(ai.start(ARMIES))


# ---------------------------------------------------------------------------
# The app's general in a game (setup, recorded bid with its why, privacy, undo)

from engine.game import ActionError, goto  # noqa: E402

from .privacy import assert_absent  # noqa: E402


def app_setup(level="hard", side=1):
    data = {"armies": [dict(a) for a in ARMIES["armies"]]}
    data["armies"][side] = {**data["armies"][side], "controller": "app", "level": level}
    return data


def test_setup_says_who_plays_each_army():
    canon = ai.normalize_setup(app_setup("easy"))
    assert canon["armies"][1]["controller"] == "app" and canon["armies"][1]["level"] == "easy"
    assert "controller" not in canon["armies"][0]                       # people: left out, as before
    assert ai.normalize_setup({"armies": [{**ARMIES["armies"][0], "controller": "app"}, ARMIES["armies"][1]]}
                              )["armies"][0]["level"] == "normal"
    assert ai.app_levels(canon) == (None, "easy")
    for bad in ({"controller": "robot"}, {"controller": "app", "level": "expert"}, {"level": "hard"}):
        with pytest.raises(ai.SetupError):
            ai.normalize_setup({"armies": [{**ARMIES["armies"][0], **bad}, ARMIES["armies"][1]]})


def test_the_app_bid_is_an_ordinary_action_hidden_until_the_reveal():
    game = new_game("battle", app_setup(), None, 21)
    assert ai.app_turn(game) == (1, "hard")
    action = ai.app_bid(replay(game), 1, "hard", game.seed)
    game = apply(game, action)
    assert game.actions[-1]["why"] == action["why"] and ai.app_turn(game) is None
    assert ai.describe(replay(goto(game, 0)), action) == "Week 1 · South declares in secret"
    # Hidden means absent: the spectator copy, its link and history hold neither the bid nor its why.
    assert_absent(game, [action["why"], "Hard: drew"])
    game = apply(game, {"type": "bid", "side": 0, "maneuver": "attack"})
    game = apply(game, {"type": "reveal"})
    assert replay(game).whys == ("", action["why"])
    game = apply(game, {"type": "roll"})
    state = replay(game)
    assert state.weeks[-1].whys == ("", action["why"]) and state.whys == ("", "")
    assert ai.app_turn(game) == (1, "hard")                         # week 2: it bids again
    # Undo for the person: back before the person's roll (the app's bids never count).
    assert ai.undo_target(game) == 3
    assert ai.undo_target(goto(game, 1)) is None


def test_a_why_only_on_the_apps_army_and_one_line():
    game = new_game("battle", app_setup(), None, 21)
    state = replay(game)
    with pytest.raises(ActionError):
        ai.normalize_action(state, {"type": "bid", "side": 0, "maneuver": "attack", "why": "because"})
    for why in ("", "two\nlines", "x" * 300, "rtl \u202e"):
        with pytest.raises(ActionError):
            ai.normalize_action(state, {"type": "bid", "side": 1, "maneuver": "attack", "why": why})


def test_hard_draws_from_the_mix_with_the_games_seed():
    state = ai.start(app_setup())
    found = ai.advice(state, 1, "net")
    picks = [ai.app_bid(state, 1, "hard", seed)["maneuver"] for seed in range(60)]
    assert picks == [ai.app_bid(state, 1, "hard", seed)["maneuver"] for seed in range(60)]  # reproducible
    support = [b.maneuver for b, p in zip(found.own, found.mix) if p]
    assert set(picks) <= set(support)
    if len(support) > 1:
        assert len(set(picks)) > 1
    easy = {ai.app_bid(state, 1, "easy", seed)["maneuver"] for seed in range(60)}
    assert len(easy) >= 4                                                 # random legal bids


def test_a_mix_is_told_in_shares_that_add_to_100_and_one_spelling_of_percent():
    """Issue 34, 16: largest-remainder whole percents, "40%" (no space), "<1%" / ">99%"."""

    bids = ai.candidate_bids(replay(new_game("battle", ai.example_setup(), None, 7)), 0)
    thirds = ai.mix_text(bids[:3], (Fraction(1, 3),) * 3)
    assert thirds.endswith("34%, " + ai.bid_name(bids[1]) + " 33%, " + ai.bid_name(bids[2]) + " 33%")
    assert " %" not in thirds
    lopsided = ai.mix_text(bids[:2], (Fraction(199, 200), Fraction(1, 200)))
    assert lopsided == f"{ai.bid_name(bids[0])} >99%, {ai.bid_name(bids[1])} <1%"


def test_the_staff_officer_speaks_as_a_staff_officer():
    """Issue 34, 6: "To get away: 100% unless they Block (then 0%)" — not "worth 0% whatever
    they declare"; a stratagem is weighed, not picked: "(with …, if you pick it)"; no source
    path and no game-theory words in the players' text."""
    state = replay(new_game("battle", ai.example_setup(), None, 7))
    away = ai.advice(state, 0, "away")
    assert away.recommendation() == "A careful general declares Withdraw"
    assert away.outlook() == "To get away: 100% unless they Block (then 0%)."
    assert [v for v in away.against()] == [away.grid[0][j].payoff for j in range(6)]
    hold = ai.advice(state, 0, "hold")
    assert hold.recommendation() == "A careful general declares Skirmish"  # holds against every bid (item 13)
    assert hold.outlook() == "To hold the hex: 100%, whatever they declare."
    net = ai.advice(state, 0, "net")
    assert net.outlook().startswith("Casualties a week, on average: at worst ") and "net" not in net.outlook()
    for text in (away.outlook(), hold.outlook(), net.outlook(), net.recommendation(), ai.HOUSE_RULES["HR-AI-13"]):
        for word in ("worth", "equilibrium", "zero-sum", "engine/", ".py", " %"):
            assert word not in text, (word, text)
    assert ai.advised_name(ai.Bid("block", ("delay",))) == "Block (with Delay, if you pick it)"
    assert ai.advised_name(ai.Bid("attack")) == "Attack"
