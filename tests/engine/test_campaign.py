"""The campaign system (RULES.md CMP-1 … CMP-12): every path cites its clause."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import campaign as cmp
from engine import codec
from engine import game as games
from engine.cards import Card, full_deck, parse_card, parse_cards
from engine.game import ActionError, RuleError, apply, new_game, replay
from engine.poker import CATEGORIES, best_hand

DECK = full_deck()


def new(seed: int = 5, dummy: bool = False, names=("Anna", "Ben")):
    return new_game("campaign", {"players": list(names), "dummy": dummy}, seed=seed)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def all_cards(state) -> list[Card]:
    """Every card somewhere on the table (hands, stakes, pool, deck)."""
    out = list(state.hands[0]) + list(state.hands[1]) + list(state.pool) + list(state.deck)
    out += [s for s in state.stakes if s is not None]
    return out


def take_for(state) -> dict:
    """A legal spoils choice (CMP-4): the stake, plus the first pool card when decisive."""
    choices = cmp.spoils_choices(state)
    return {"type": "take", "stake": True, "pool": str(state.pool[0]) if choices["both"] else None}


def table_state(hand0: str, hand1: str, pool: str, deck: str, dummy: bool = False, **fields):
    """A campaign at the start of a battle with chosen cards (stakes not yet out)."""
    state = cmp.CampaignState(players=("Anna", "Ben"), dummy=dummy, hands=(cards(hand0), cards(hand1)),
                              counts=(len(cards(hand0)), len(cards(hand1))), stakes=(None, None),
                              pool=cards(pool), deck=cards(deck), phase="battle", battle=1)
    return replace(state, **fields)


def with_stakes(state, stake0: str, stake1: str, **fields):
    s0, s1 = parse_card(stake0), parse_card(stake1)
    hands = (tuple(c for c in state.hands[0] if c != s0), tuple(c for c in state.hands[1] if c != s1))
    return replace(state, hands=hands, counts=(len(hands[0]), len(hands[1])), stakes=(s0, s1),
                   seen=state.seen | {s0, s1}, **fields)


def stakes_drawn(state, rng):
    """CMP-2 on a state made by hand (stakes not out, ``state.battle`` the battle to come): the
    stakes drawn as the game draws them, after the battle before — here a drawn one, whose
    stakes went back to their owners (CMP-5)."""
    before = with_stakes(replace(state, battle=state.battle - 1), str(state.hands[0][0]), str(state.hands[1][0]))
    after = cmp.step(before, {"type": "battle", "winner": None}, None, rng)
    assert after.phase == "battle" and after.battle == state.battle
    return after


# ---------------------------------------------------------------- CMP-1, CMP-2


def test_cmp_1_deal_six_hidden_each_and_a_pool_of_four_then_cmp_2_stakes():
    state = replay(new())
    assert state.phase == "battle" and state.battle == 1
    # CMP-2: the stakes are out of the hands, face up; each player owns six cards.
    assert [state.card_count(p) for p in (0, 1)] == [6, 6]
    assert [len(h) for h in state.hands] == [5, 5] and None not in state.stakes
    assert len(state.pool) == 4 and len(state.deck) == 52 - 16
    assert sorted(all_cards(state), key=str) == sorted(DECK, key=str)  # every card once
    assert state.log[0].rule == "CMP-1" and state.log[1].rule == "CMP-2"
    # The log names the pool and the stakes (face up), never a hidden card.
    hidden = set(state.hands[0]) | set(state.hands[1]) | set(state.deck)
    for entry in state.log:
        assert not hidden & set(entry.cards)
        assert not any(card.label in entry.text for card in hidden)


def test_cmp_2_stakes_are_random_and_reproducible():
    stakes = {replay(new(seed)).stakes for seed in range(12)}
    assert len(stakes) > 6  # not always the same cards
    assert replay(new(42)).stakes == replay(new(42)).stakes
    for seed in range(12):
        state = replay(new(seed))
        for p in (0, 1):
            assert state.stakes[p] not in state.hands[p]


def test_cmp_2_last_card_is_staked_and_losing_it_loses_the_campaign():
    state = table_state("KS", "2H 3H 4H", "5C 6C 7C 8C", "9D 10D JD QD", battle=2)
    state = stakes_drawn(state, random.Random(1))
    assert state.stakes[0] == parse_card("KS") and state.hands[0] == ()
    assert "last card for Anna" in state.log[-1].text
    state = cmp.step(state, {"type": "battle", "winner": 1, "troops": 3}, None, random.Random(1))
    state = cmp.step(state, {"type": "take", "stake": True, "pool": None}, None, random.Random(1))
    assert state.phase == "over" and state.winner == 1
    assert state.result.startswith("CMP-2: Anna lost the last card — Ben wins the campaign")


def test_cmp_2_last_card_kept_when_the_winner_takes_a_pool_card():
    state = with_stakes(table_state("KS", "2H 3H 4H", "5C 6C 7C 8C", "9D 10D JD QD"), "KS", "2H")
    state = cmp.step(state, {"type": "battle", "winner": 1, "troops": 3}, None, random.Random(1))
    state = cmp.step(state, {"type": "take", "stake": False, "pool": "5C"}, None, random.Random(1))
    assert state.phase == "battle" and state.stakes[0] == parse_card("KS")  # staked again (CMP-2)


# ---------------------------------------------------------------- CMP-3, CMP-4, CMP-5


@pytest.mark.parametrize("troops,decisive", [(0, False), (7, False), (8, True), (30, True)])
def test_cmp_3_decisive_from_eight_troop_points(troops, decisive):
    assert cmp.is_decisive(troops) is decisive
    state = apply(new(), {"type": "battle", "winner": 0, "troops": troops})
    choices = cmp.spoils_choices(replay(state))
    assert choices["decisive"] is decisive and choices["both"] is decisive
    assert ("a decisive victory" in replay(state).log[-1].text) is decisive


@pytest.mark.parametrize("bad,message", [
    (-1, r"CMP-12: troop points cannot be negative \(−1\): count the points of Anna's troops still in play"),
    (-3, r"CMP-12: troop points cannot be negative \(−3\)"),
    (1000, "CMP-12: 1000 troop points is more than the 999 a battle can record"),
    (10**100, "CMP-12: a huge number troop points is more than the 999"),
    (2.5, "CMP-12: troop points are a whole number from 0 to 999; 2.5 is not"),
    ("", "CMP-12: troop points are a whole number from 0 to 999; that is not"),
    ("9", 'CMP-12: troop points are a whole number from 0 to 999; "9" is not'),
    ("lots", 'CMP-12: troop points are a whole number from 0 to 999; "lots" is not'),
    (None, "CMP-12: enter the troop points Anna has left in play: a whole number from 0 to 999 "
           r"\(0 if none are left\)"),
    (True, "CMP-12: troop points are a whole number from 0 to 999; that is not"),
    (3.0, r"CMP-12: troop points are a whole number from 0 to 999 \(write 3, not 3.0\)"),
])
def test_cmp_12_troop_points_must_be_a_whole_number_from_0_to_999(bad, message):
    game = new()
    with pytest.raises(RuleError, match=message) as refused:
        apply(game, {"type": "battle", "winner": 0, "troops": bad})
    assert refused.value.rule_id == "CMP-12"
    assert "None" not in str(refused.value) and "True" not in str(refused.value)  # no Python words
    assert replay(game).phase == "battle" and not game.actions


def test_cmp_12_troop_points_missing_and_a_drawn_battle_carries_none():
    with pytest.raises(RuleError, match="CMP-12: enter the troop points Anna has left in play"):
        apply(new(), {"type": "battle", "winner": 0})
    with pytest.raises(RuleError, match="CMP-12: a drawn battle carries no troop points"):
        apply(new(), {"type": "battle", "winner": None, "troops": 3})
    for troops in (0, 999):
        game = apply(new(), {"type": "battle", "winner": 1, "troops": troops})
        assert game.actions[-1] == {"type": "battle", "winner": 1, "troops": troops}


def test_cmp_4_not_decisive_takes_stake_or_a_pool_card():
    g = apply(new(), {"type": "battle", "winner": 0, "troops": 5})
    state = replay(g)
    pool_card = str(state.pool[1])
    with pytest.raises(RuleError, match="CMP-4: a victory that is not decisive .* not both"):
        apply(g, {"type": "take", "stake": True, "pool": pool_card})
    with pytest.raises(RuleError, match="CMP-4: Anna must take Ben's stake or one pool card"):
        apply(g, {"type": "take", "stake": False, "pool": None})
    with pytest.raises(RuleError, match="CMP-4: Anna must take"):
        apply(g, {"type": "take"})
    # The stake: Ben's stake goes to Anna; Anna's stake back to Anna (CMP-5).
    after = replay(apply(g, {"type": "take", "stake": True, "pool": None}))
    assert state.stakes[1] in after.hands[0] and state.stakes[0] in after.hands[0]
    assert after.pool == state.pool and after.card_count(0) == 7 and after.card_count(1) == 5
    # Or one pool card: replaced from the top of the deck, in its place (CMP-4 ruling); both
    # stakes go home.
    after = replay(apply(g, {"type": "take", "stake": False, "pool": pool_card}))
    assert parse_card(pool_card) in after.hands[0] and parse_card(pool_card) not in after.pool
    assert after.pool == (state.pool[0], state.deck[0], state.pool[2], state.pool[3])
    assert state.stakes[1] in after.hands[1] or state.stakes[1] == after.stakes[1]
    assert [e.rule for e in after.log[-6:]].count("CMP-4") >= 2


def test_cmp_4_decisive_takes_stake_and_a_pool_card():
    g = apply(new(), {"type": "battle", "winner": 1, "troops": 12})
    state = replay(g)
    with pytest.raises(RuleError, match="CMP-4: after a decisive victory Ben takes Anna's stake and one pool card"):
        apply(g, {"type": "take", "stake": True, "pool": None})
    with pytest.raises(RuleError, match="CMP-4: after a decisive victory"):
        apply(g, {"type": "take", "stake": False, "pool": str(state.pool[0])})
    after = replay(apply(g, {"type": "take", "stake": True, "pool": str(state.pool[0])}))
    assert after.card_count(1) == 8 and after.card_count(0) == 5
    assert state.stakes[0] in after.cards_of(1) and state.pool[0] in after.cards_of(1)


def test_cmp_4_pool_card_must_be_in_the_pool():
    g = apply(new(), {"type": "battle", "winner": 0, "troops": 3})
    state = replay(g)
    outside = next(c for c in DECK if c not in state.pool)
    with pytest.raises(RuleError, match=f"CMP-4: the {outside.label} is not in the pool"):
        apply(g, {"type": "take", "stake": False, "pool": str(outside)})
    with pytest.raises(ActionError, match="Not a card"):
        apply(g, {"type": "take", "stake": False, "pool": "ZZ"})


def test_cmp_5_drawn_battle_moves_no_card_and_stakes_go_home():
    state = replay(new())
    after = replay(apply(new(), {"type": "battle", "winner": None}))
    for p in (0, 1):
        assert set(after.cards_of(p)) - {after.stakes[p]} <= set(state.cards_of(p))
        assert after.card_count(p) == 6
    assert after.pool == state.pool and after.battle == 2
    # CMP-11 (formerly the house rule HR-CMP-2): a drawn battle counts as a battle fought.
    assert after.fought == 1
    assert any("counts as a battle fought (CMP-11)" in e.text for e in after.log)
    assert not any("HR-CMP-2" in e.text for e in after.log)


# ---------------------------------------------------------------- CMP-6


def test_cmp_6_exact_exhaustion_chance_matches_every_roll_of_two_dice():
    for battles in range(0, 12):
        hits = sum(1 for a in range(1, 7) for b in range(1, 7) if min(a, b) + battles >= 9)
        assert cmp.exhaustion_chance(battles) == Fraction(hits, 36)
    assert cmp.exhaustion_odds_text(5) == "after battle 5: P(lower of 2d6 + 5 ≥ 9) = 9/36 = 25%"
    assert cmp.exhaustion_odds_text(3) == "after battle 3: P(lower of 2d6 + 3 ≥ 9) = 1/36 = 2.8%"
    assert cmp.exhaustion_odds_text(8) == "after battle 8: P(lower of 2d6 + 8 ≥ 9) = 36/36 = 100%"
    with pytest.raises(ValueError):
        cmp.exhaustion_chance(-1)


def play_battles(game, count: int, winner=None):
    for _ in range(count):
        state = replay(game)
        if state.phase == "exhaustion":
            game = apply(game, {"type": "roll"})
            state = replay(game)
            if state.phase != "battle":
                return game
        if state.phase != "battle":
            return game
        game = apply(game, {"type": "battle", "winner": winner} if winner is None else
                     {"type": "battle", "winner": winner, "troops": 3})
        state = replay(game)
        if state.phase == "spoils":
            game = apply(game, take_for(state))
    return game


def test_cmp_6_no_roll_before_the_third_battle_then_after_every_battle():
    g = new()
    with pytest.raises(RuleError, match="CMP-6: the exhaustion roll comes after the third battle"):
        apply(g, {"type": "roll"})
    g = play_battles(g, 2)
    assert replay(g).phase == "battle"
    g = play_battles(g, 1)
    state = replay(g)
    assert state.phase == "exhaustion" and state.fought == 3
    with pytest.raises(RuleError, match="CMP-6: roll for exhaustion first"):
        apply(g, {"type": "battle", "winner": None})
    rolled = replay(apply(g, {"type": "roll"}))
    roll = rolled.rolls[-1]
    assert roll.battles == 3 and roll.total == min(roll.dice) + 3
    assert rolled.phase == ("exhausted" if roll.total >= 9 else "battle")


def test_cmp_6_exhausted_at_nine_or_more_and_certain_after_battle_eight():
    outcomes = Counter()
    for seed in range(40):
        g = play_battles(new(seed), 30)
        state = replay(g)
        assert state.phase == "exhausted"
        assert 3 <= state.fought <= 8
        if state.rolls and state.rolls[-1].battles == state.fought:
            assert state.rolls[-1].total >= 9 and all(r.total < 9 for r in state.rolls[:-1])
        else:  # after battle 8 the roll cannot fail and is not rolled (CMP-6)
            assert state.fought == 8 and all(r.total < 9 for r in state.rolls)
        outcomes[state.fought] += 1
    assert len(outcomes) >= 3  # the war ends after different numbers of battles


def test_cmp_6_after_battle_eight_the_roll_is_certain_so_it_is_not_rolled():
    """Defect 13: lower die ≥ 1, + 8 battles = 9 or more. The table goes straight to the table."""
    assert cmp.exhaustion_chance(8) == 1 and cmp.exhaustion_chance(7) < 1
    game = new(2)
    for _ in range(7):
        game = apply(game, {"type": "battle", "winner": None})
        if replay(game).phase == "exhaustion":
            game = apply(game, {"type": "roll"})
        if replay(game).phase == "exhausted":
            break
    seeds = 0
    while replay(game).phase != "battle" or replay(game).battle != 8:  # a war that reaches battle 8
        seeds += 1
        game = new(2 + seeds)
        for _ in range(7):
            game = apply(game, {"type": "battle", "winner": None})
            if replay(game).phase == "exhaustion":
                game = apply(game, {"type": "roll"})
            if replay(game).phase != "battle":
                break
    rolls = len(replay(game).rolls)
    after = replay(apply(game, {"type": "battle", "winner": None}))
    assert after.fought == 8 and after.phase == "exhausted"
    assert len(after.rolls) == rolls  # no dice rolled
    assert after.log[-1].rule == "CMP-6"
    assert after.log[-1].text == ("No exhaustion roll after battle 8: it cannot fail — even a 1 on the lower die "
                                  "makes 1 + 8 battles = 9, 9 or more. Both sides are exhausted and go to the "
                                  "negotiating table")
    with pytest.raises(RuleError, match="CMP-7: both sides are exhausted"):
        apply(apply(game, {"type": "battle", "winner": None}), {"type": "roll"})


def test_standing_says_where_the_campaign_is_for_the_list_of_saves():
    game = new()
    assert cmp.standing(replay(game)) == "Battle 1 · Anna 6 cards, Ben 6"
    game = apply(game, {"type": "battle", "winner": 0, "troops": 9})
    state = replay(game)
    assert cmp.standing(state) == "Battle 1 · Anna 6 cards, Ben 6"
    game = apply(game, {"type": "take", "stake": True, "pool": str(state.pool[0])})
    assert cmp.standing(replay(game)) == "Battle 2 · Anna 8 cards, Ben 5"
    game = play_battles(game, 2)
    state = replay(game)
    assert state.phase == "exhaustion" and cmp.standing(state).startswith("Battle 3 fought · exhaustion roll · Anna")
    ended = play_battles(new(6), 30)
    state = replay(apply(ended, {"type": "negotiate"}))
    if state.winner is None:
        assert cmp.standing(state) == f"Over · the treaty is a draw after {state.fought} battles"
    else:
        assert cmp.standing(state) == (f"Over · {state.name(state.winner)} won at the negotiating table after "
                                       f"{state.fought} battles")
    lost = table_state("KS", "2H 3H 4H", "5C 6C 7C 8C", "9D 10D JD QD", battle=2)
    lost = stakes_drawn(lost, random.Random(1))
    lost = cmp.step(lost, {"type": "battle", "winner": 1, "troops": 3}, None, random.Random(1))
    lost = cmp.step(lost, {"type": "take", "stake": True, "pool": None}, None, random.Random(1))
    assert cmp.standing(lost) == "Over · Ben won: Anna lost the last card in battle 2"
    one = replace(replay(new()), counts=(0, 10))
    assert cmp.standing(one) == "Battle 1 · Anna 1 card, Ben 11"
    with pytest.raises(ValueError):
        cmp.standing(None)


def test_roll_dice_are_visible_in_the_log():
    g = play_battles(new(3), 3)
    state = replay(apply(g, {"type": "roll"}))
    a, b = state.rolls[-1].dice
    assert state.log[-1 if state.phase == "exhausted" else -2].text.startswith(
        f"Exhaustion roll after battle 3: {a} and {b}, lower {min(a, b)} + 3 battles")


# ---------------------------------------------------------------- CMP-7, CMP-8


def test_cmp_7_draw_up_to_five_and_best_hand_wins():
    state = table_state("AS AH", "KS KH QS QH JC 2D", "3C 4C 5C 6C", "9D 9C 7H 8S 10D", phase="exhausted")
    state = cmp.step(state, {"type": "negotiate"}, None, random.Random(0))
    treaty = state.treaty
    assert treaty.drawn == (cards("9D 9C 7H"), ())  # Anna draws three, Ben has six already
    assert treaty.hands[0].category == "two pairs" and str(treaty.hands[0]).startswith("two pairs, aces and nines")
    assert treaty.hands[1].category == "two pairs" and str(treaty.hands[1]).startswith("two pairs, kings and queens")
    assert state.winner == 0 and state.phase == "over"
    assert "the highest cards break the tie (ace against king)" in treaty.explanation
    assert state.log[-1].rule == "CMP-8"


def test_cmp_8_equal_hands_make_the_campaign_a_draw():
    state = table_state("AS KS QD JD 9C", "AH KH QC JC 9D", "2C 3C 4C 5C", "7H 8H", phase="exhausted")
    state = cmp.step(state, {"type": "negotiate"}, None, None)
    assert state.winner is None and state.treaty.winner is None
    assert "Suits never break ties: the campaign is a draw" in state.treaty.explanation
    assert state.result == "The treaty is a draw: equal hands."


def test_cmp_8_categories_explained():
    state = table_state("2S 3S 4S 5S 7S", "AH AC AD KH QC", "2C 3C 4C 5C", "", phase="exhausted")
    state = cmp.step(state, {"type": "negotiate"}, None, None)
    assert state.winner == 0
    assert state.treaty.explanation == ("CMP-8: Anna's flush, seven, five, four, three and two beats Ben's "
                                        "three of a kind, aces, king and queen kickers — a flush ranks above "
                                        "a three of a kind.")


def test_cmp_9_dummy_draws_one_extra_card_at_the_table():
    state = table_state("AS AH KD", "2S 3H", "3C 4C 5C 6C", "9D 9C 7H 8S 10D JD QD", dummy=True,
                        phase="exhausted")
    state = cmp.step(state, {"type": "negotiate"}, None, None)
    assert state.treaty.drawn == (cards("9D 9C"), cards("7H 8S 10D JD"))
    assert len(state.treaty.cards[1]) == 6
    entry = next(e for e in state.log if e.text.startswith("At the table Ben draws"))
    assert entry.rule == "CMP-9" and entry.text.endswith("up to five (CMP-7) and one extra card")


def test_cmp_7_table_refused_before_exhaustion():
    with pytest.raises(RuleError, match="CMP-7: the negotiating table comes only when both sides are exhausted"):
        apply(new(), {"type": "negotiate"})


# ---------------------------------------------------------------- CMP-9, CMP-10: the dummy


def test_cmp_10_dummy_takes_the_higher_of_stake_and_pool():
    base = table_state("KS 2C 3C", "4H 5H 6H", "QD JD 9C 8C", "7S 7D", dummy=True)
    state = with_stakes(base, "KS", "4H")
    state = cmp.step(state, {"type": "battle", "winner": 1, "troops": 4}, None, random.Random(0))
    assert parse_card("KS") in state.cards_of(1) and state.pool == cards("QD JD 9C 8C")
    assert "Ben takes Anna's stake, the K♠ — the highest card it may take (CMP-9, CMP-10)" in \
        [e.text for e in state.log]
    # A pool card ranks higher: it takes that one and Anna's stake goes home.
    state = with_stakes(table_state("5S 2C 3C", "4H 5H 6H", "QD JD AC 8C", "7S 7D", dummy=True), "5S", "4H")
    state = cmp.step(state, {"type": "battle", "winner": 1, "troops": 4}, None, random.Random(0))
    assert parse_card("AC") in state.cards_of(1) and parse_card("5S") in state.cards_of(0)
    assert state.pool == cards("QD JD 7S 8C")  # the new card takes the ace's place (CMP-4 ruling)


def test_cmp_9_decisive_dummy_takes_stake_and_highest_pool_card():
    state = with_stakes(table_state("5S 2C 3C", "4H 5H 6H", "QD JD AC 8C", "7S 7D", dummy=True), "5S", "4H")
    state = cmp.step(state, {"type": "battle", "winner": 1, "troops": 9}, None, random.Random(0))
    assert {parse_card("5S"), parse_card("AC")} <= set(state.cards_of(1))
    assert state.card_count(1) == 3 + 2  # its three cards, the stake and the ace
    assert "stake and the highest pool card" in " ".join(e.text for e in state.log)


def test_cmp_9_dummy_rolls_a_die_between_equal_choices_and_logs_it():
    picks = Counter()
    for seed in range(30):
        state = with_stakes(table_state("KS 2C 3C", "4H 5H 6H", "KD JD KC 8C", "7S 7D", dummy=True), "KS", "4H")
        state = cmp.step(state, {"type": "battle", "winner": 1, "troops": 2}, None, random.Random(seed))
        entry = next(e for e in state.log if "equal choices" in e.text)
        assert "HR-CMP-1" in entry.text and "it rolls" in entry.text
        roll = int(entry.text.split("it rolls ")[1].split(" ")[0].rstrip(","))
        pick = cmp.die_choice(3, roll)
        taken = [parse_card("KS"), parse_card("KD"), parse_card("KC")][pick]
        assert taken in state.cards_of(1)
        picks[str(taken)] += 1
    assert len(picks) == 3  # every equal choice happens


@pytest.mark.parametrize("choices,expected", [
    (1, [0, 0, 0, 0, 0, 0]),
    (2, [0, 0, 0, 1, 1, 1]),
    (3, [0, 0, 1, 1, 2, 2]),
    (4, [0, 1, 2, 3, None, None]),
    (5, [0, 1, 2, 3, 4, None]),
])
def test_hr_cmp_1_die_between_equal_choices(choices, expected):
    assert [cmp.die_choice(choices, roll) for roll in range(1, 7)] == expected


def test_hr_cmp_1_rerolls_until_a_choice():
    rolls = iter([6, 5, 2])
    index, tied, made = cmp.dummy_pick([("pool", c) for c in cards("KS KH KD KC")], lambda: next(rolls))
    assert made == [6, 5, 2] and index == 1 and tied == [0, 1, 2, 3]


def test_cmp_9_human_chooses_when_beating_the_dummy():
    g = new(dummy=True)
    g = apply(g, {"type": "battle", "winner": 0, "troops": 3})
    assert replay(g).phase == "spoils"
    assert replay(new(dummy=True)).players == ("Anna", "Ben")
    assert replay(new_game("campaign", {"players": ["Anna", ""], "dummy": True}, seed=1)).players[1] == "Dummy"


# ---------------------------------------------------------------- odds for the private view


def brute_odds(own, unseen):
    own = list(own)
    draws = 5 - len(own)
    counts = Counter(best_hand(own + list(extra)).category for extra in itertools.combinations(unseen, draws))
    total = sum(counts.values())
    return {name: Fraction(counts[name], total) for name in CATEGORIES if counts[name]}


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.randoms(use_true_random=False))
def test_treaty_odds_match_enumerating_every_draw(held, rnd):
    deck = list(DECK)
    rnd.shuffle(deck)
    own = deck[:held]
    # Few enough unseen cards to enumerate every draw here.
    unseen = deck[held:held + {1: 14, 2: 18, 3: 26, 4: 40}[held]]
    odds = cmp.treaty_odds(own, unseen)
    assert odds == brute_odds(own, unseen)
    assert sum(odds.values()) == 1


def test_treaty_odds_flush_and_straight_flush_paths():
    own = cards("9H 10H")
    unseen = cards("JH QH KH 8H 2C 3D 9S")
    assert cmp.treaty_odds(own, unseen) == brute_odds(own, unseen)
    assert "straight flush" in cmp.treaty_odds(own, unseen)
    assert cmp.treaty_odds(cards("AS KS QS JS 9S 2D"), []) == {"flush": 1}


def test_treaty_odds_one_card_in_hand_is_exact_and_sums_to_one():
    own = cards("AS")
    unseen = [c for c in DECK if c not in own][:40]
    odds = cmp.treaty_odds(own, unseen)
    assert sum(odds.values()) == 1
    assert set(odds) <= set(CATEGORIES)
    assert odds["pair"] > odds["two pairs"] > odds["three of a kind"]
    with pytest.raises(ValueError):
        cmp.treaty_odds(own, own)


def test_treaty_chances_use_only_what_the_player_can_see():
    state = replay(new(11))
    hidden = list(state.hands[1]) + list(state.deck)
    # Shuffle who holds the hidden cards: the player's odds cannot change.
    other = replace(state, hands=(state.hands[0], tuple(hidden[-5:])), deck=tuple(hidden[:-5]))
    small = replace(state, hands=(state.hands[0][:2], state.hands[1]))
    small_other = replace(other, hands=(state.hands[0][:2], other.hands[1]))
    assert cmp.treaty_chances(small, 0) == cmp.treaty_chances(small_other, 0)
    odds = cmp.treaty_chances(small, 0)
    assert sum(odds.values()) == 1 and len(odds) > 1
    unseen = [c for c in DECK if c not in cmp.visible_cards(small, 0)]
    assert not set(unseen) & set(small.pool) and small.stakes[1] not in unseen
    assert cmp.treaty_chances(state, 0) == {best_hand(state.cards_of(0)).category: 1}


# ---------------------------------------------------------------- whole campaigns


def random_campaign(seed: int, dummy: bool, choice_seed: int):
    rnd = random.Random(choice_seed)
    game = new(seed, dummy=dummy)
    for _ in range(60):
        state = replay(game)
        # The 52 cards are all somewhere, once (full game: nothing lost or doubled).
        assert sorted(all_cards(state), key=str) == sorted(DECK, key=str) or state.phase == "over"
        if state.phase == "over":
            return game, state
        if state.phase == "battle":
            winner = rnd.choice([0, 1, None])
            action = ({"type": "battle", "winner": None} if winner is None else
                      {"type": "battle", "winner": winner, "troops": rnd.randint(0, 15)})
        elif state.phase == "spoils":
            choices = cmp.spoils_choices(state)
            pool = str(rnd.choice(state.pool))
            if choices["both"]:
                action = {"type": "take", "stake": True, "pool": pool}
            else:
                action = rnd.choice([{"type": "take", "stake": True, "pool": None},
                                     {"type": "take", "stake": False, "pool": pool}])
        elif state.phase == "exhaustion":
            action = {"type": "roll"}
        else:
            action = {"type": "negotiate"}
        game = apply(game, action)
    raise AssertionError("a campaign ends")


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.integers(0, 10_000))
def test_every_campaign_ends_with_a_winner_or_a_draw(seed, dummy, choice_seed):
    game, state = random_campaign(seed, dummy, choice_seed)
    assert state.phase == "over"
    assert state.fought <= 8  # CMP-6: certain exhaustion after battle 8
    if state.treaty is not None:
        hands = state.treaty.hands
        assert state.winner == (None if hands[0] == hands[1] else (0 if hands[0] > hands[1] else 1))
        assert all(len(c) >= 5 for c in state.treaty.cards)
        assert len(state.treaty.cards[1]) >= 6 if dummy else True
    else:
        assert state.result.startswith("CMP-2")
    # The history labels every action; a save round-trips and replays the same.
    assert len(games.history(game)) == len(game.actions)
    again, _ = codec.loads(codec.dumps(game))
    assert replay(again).result == state.result


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.integers(0, 10_000), st.floats(0, 1))
def test_spectator_copy_shows_the_same_public_table(seed, dummy, choice_seed, cut):
    game, _ = random_campaign(seed, dummy, choice_seed)
    game = games.goto(game, int(cut * len(game.actions)))
    full = replay(game)
    public = cmp.public_game(game)
    assert public.seed == 0 and not public.can_redo and public.position == game.position
    spectator = replay(public)
    assert spectator.public and spectator.hands == ((), ())
    assert (spectator.pool, spectator.stakes, spectator.phase, spectator.battle) == \
        (full.pool, full.stakes, full.phase, full.battle)
    assert [spectator.card_count(p) for p in (0, 1)] == [full.card_count(p) for p in (0, 1)]
    assert [e.text for e in spectator.log] == [e.text for e in full.log]
    assert spectator.result == full.result
    # Nothing hidden travels: no hand card and no deck card is in the spectator's setup.
    payload = str(public.setup) + str(public.actions)
    if full.phase != "over":
        for card in set(full.hands[0]) | set(full.hands[1]) | set(full.deck):
            if card not in full.seen:
                assert f"'{card}'" not in payload
    # The link round-trips through the codec's checks.
    assert replay(codec.decode_share(codec.encode_share(public))).log == spectator.log


def test_spectator_copy_cannot_play_past_the_link():
    public = cmp.public_game(new(9))
    # A spectator's copy is read-only (issue 21) ...
    with pytest.raises(games.ActionError, match="spectator's copy"):
        apply(public, {"type": "battle", "winner": None})
    # ... and its system could not go on anyway: battle 2's stakes were not in the link.
    state = replay(public)
    with pytest.raises(RuleError, match="CMP-2: this spectator view ends here"):
        cmp.step(state, {"type": "battle", "winner": None}, public.rules, None)
    spoils = cmp.step(state, {"type": "battle", "winner": 0, "troops": 2}, public.rules, None)
    with pytest.raises(RuleError, match="CMP-2: this spectator view ends here"):
        cmp.step(spoils, {"type": "take", "stake": True, "pool": None}, public.rules, None)
    assert cmp.treaty_chances(state, 0) == {}


def test_spectator_copy_drops_the_redo_stack():
    game = play_battles(new(4), 2)
    back = games.undo(games.undo(game))
    public = cmp.public_game(back)
    assert len(public.actions) == back.position
    assert len(replay(public).history["stakes"]) == len(replay(back).history["stakes"])


# ---------------------------------------------------------------- refusals and labels


@pytest.mark.parametrize("action,error,message", [
    ({"type": "dance"}, ActionError, "Unknown action type"),
    ("battle", ActionError, "must be an object"),
    ({"type": "battle"}, ActionError, "A battle action needs its 'winner'"),
    ({"type": "battle", "winner": 2, "troops": 3}, ActionError, r"winner \(0, 1, or null for a drawn battle\) "
                                                                 r"must be one of 0, 1 \(got 2\)"),
    ({"type": "battle", "winner": True, "troops": 3}, ActionError, "must be one of 0, 1 \\(got True\\)"),
    ({"type": "roll", "dice": [6, 6]}, RuleError, "CMP-12: the app rolls the exhaustion dice itself"),
    ({"type": "battle", "winner": 0, "troops": 3, "note": "x"}, ActionError, "A battle action has no field 'note'"),
    ({"type": "take", "stake": True}, RuleError, "CMP-4: battle 1 has not been recorded yet"),
])
def test_refusals_name_their_rule(action, error, message):
    with pytest.raises(error, match=message):
        apply(new(), action)


def test_over_refuses_everything_with_its_rule():
    state = table_state("AS AH KD KC 2S", "2H 3H 4H 5C 7D", "3C 4C 5C 6C", "", phase="exhausted")
    state = cmp.step(state, {"type": "negotiate"}, None, None)
    with pytest.raises(RuleError, match="CMP-7: the campaign is over"):
        cmp.step(state, {"type": "battle", "winner": None}, None, None)
    with pytest.raises(RuleError, match="CMP-7: the campaign is over"):
        cmp.step(state, {"type": "roll"}, None, None)


@pytest.mark.parametrize("setup,message", [
    ({"players": ["A"]}, "CMP-1: a campaign has two players"),
    ({"players": ["A", "B"], "dummy": "yes"}, "'dummy' must be true"),
    ({"players": ["A", "x" * 41]}, "longer than 40"),
    ({"players": ["A\nB", "C"]}, "control character"),
    ({"players": ["A", 3]}, "must be text"),
    ({"players": ["A", "B"], "extra": 1}, "unknown field 'extra'"),
    ({"players": ["A", "B"], "reveal": {"pool": ["AS"]}}, "must hold 4 cards"),
    ({"players": ["A", "B"], "reveal": {"pool": ["AS", "KS", "QS", "JS"], "dice": [7]}}, "from 1 to 6"),
    ({"players": ["A", "B"], "reveal": {"pool": ["AS", "AS", "QS", "JS"]}}, "lists a card twice"),
])
def test_bad_setups_are_refused_clearly(setup, message):
    with pytest.raises(cmp.SetupError, match=message):
        cmp.normalize_setup(setup)


def test_default_names_and_describe():
    assert cmp.normalize_setup({}) == {"players": ["Player 1", "Player 2"], "dummy": False}
    g = new()
    state = replay(g)
    assert cmp.describe(state, {"type": "battle", "winner": 0, "troops": 9}) == \
        "Battle 1 · Anna wins (9 troop points, decisive)"
    assert cmp.describe(state, {"type": "battle", "winner": None}) == "Battle 1 · drawn"
    g = apply(g, {"type": "battle", "winner": 0, "troops": 9})
    state = replay(g)
    label = cmp.describe(state, {"type": "take", "stake": True, "pool": str(state.pool[0])})
    assert label == f"Battle 1 · Anna takes Ben's stake and the {state.pool[0].label} from the pool"
    assert cmp.status(state).startswith("Battle 1: Anna takes Ben's stake and one pool card (CMP-4)")
    assert games.history(apply(g, take_for(state)))[0] == "Battle 1 · Anna wins (9 troop points, decisive)"
