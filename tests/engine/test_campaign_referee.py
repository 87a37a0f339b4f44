"""The campaign engine as a referee that cannot be fooled (issue 20).

Every action has one exact, canonical shape (``normalize_action``, CMP-12); anything
else is refused with a clause and changes nothing; facts recorded in a spectator's
copy are checked like moves (each card once); the treaty odds never depend on a card
nobody may see (CMP-9); every public function refuses bad arguments with a
``ValueError`` subclass. The hostile-caller tests use ``tests/engine/hostile.py``.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from engine import campaign as cmp
from engine import codec, poker
from engine import game as games
from engine.cards import Card, full_deck, parse_card, parse_cards
from engine.game import ActionError, RuleError, apply, new_game, replay
from engine.poker import CATEGORIES, best_hand
from tests.engine import hostile

DECK = full_deck()


def new(seed: int = 5, dummy: bool = False):
    return new_game("campaign", {"players": ["Anna", "Ben"], "dummy": dummy}, seed=seed)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def advance(game, rnd: random.Random, until=None, limit: int = 60):
    """Plays legal moves (random choices) until ``until(state)`` or the end."""
    for _ in range(limit):
        state = replay(game)
        if state.phase == "over" or (until is not None and until(state)):
            return game
        if state.phase == "battle":
            winner = rnd.choice([0, 1, None])
            action = ({"type": "battle", "winner": None} if winner is None
                      else {"type": "battle", "winner": winner, "troops": rnd.randint(0, 12)})
        elif state.phase == "spoils":
            choices = cmp.spoils_choices(state)
            pool = str(rnd.choice(state.pool))
            action = ({"type": "take", "stake": True, "pool": pool} if choices["both"] else
                      rnd.choice([{"type": "take", "stake": True, "pool": None},
                                  {"type": "take", "stake": False, "pool": pool}]))
        elif state.phase == "exhaustion":
            action = {"type": "roll"}
        else:
            action = {"type": "negotiate"}
        game = apply(game, action)
    return game


def game_in(phase: str, dummy: bool = False, seed: int = 3):
    for attempt in range(200):
        game = advance(new(seed + attempt, dummy), random.Random(attempt), lambda s: s.phase == phase)
        if replay(game).phase == phase:
            return game
    raise AssertionError(f"no game reached {phase}")


# ---------------------------------------------------------------- canonical actions (CMP-12)


@pytest.mark.parametrize("phase,given,canonical", [
    ("battle", {"type": "battle", "winner": 1, "troops": 12}, {"type": "battle", "winner": 1, "troops": 12}),
    ("battle", {"type": "battle", "winner": None}, {"type": "battle", "winner": None}),
    ("exhaustion", {"type": "roll"}, {"type": "roll"}),
    ("exhausted", {"type": "negotiate"}, {"type": "negotiate"}),
])
def test_every_action_has_one_canonical_shape(phase, given, canonical):
    game = game_in(phase)
    assert cmp.normalize_action(replay(game), given) == canonical
    assert apply(game, given).actions[-1] == canonical


def test_take_is_stored_with_both_fields_and_canonical_tokens():
    game = apply(new(), {"type": "battle", "winner": 0, "troops": 3})
    state = replay(game)
    token = str(state.pool[2])
    stored = apply(game, {"type": "take", "pool": token.lower()}).actions[-1]
    assert stored == {"type": "take", "stake": False, "pool": token}
    assert apply(game, {"type": "take", "stake": True}).actions[-1] == {"type": "take", "stake": True, "pool": None}
    assert cmp.normalize_action(state, {"type": "take", "stake": False, "pool": parse_card(token)})["pool"] == token


@pytest.mark.parametrize("action,message", [
    ({"type": "roll", "dice": [6, 6]}, "CMP-12: the app rolls the exhaustion dice itself"),
    ({"type": "roll", "x": 1}, "A roll action has no field 'x'"),
    ({"type": "negotiate", "winner": 0}, "A negotiate action has no field 'winner'"),
])
def test_unknown_fields_are_refused_not_stored(action, message):
    phase = {"roll": "exhaustion", "negotiate": "exhausted"}[action["type"]]
    game = game_in(phase)
    with pytest.raises((ActionError, RuleError), match=message):
        apply(game, action)


@pytest.mark.parametrize("action,message", [
    ({"type": "battle", "winner": 0, "troops": 3, "dice": [1]}, "A battle action has no field 'dice'"),
    ({"type": "battle", "winner": "0", "troops": 3}, r"must be one of 0, 1 \(got '0'\)"),
    ({"type": "take", "stake": "yes", "pool": None}, "'stake' \\(take the loser's stake\\) must be true or false"),
    ({"type": "take", "stake": False, "pool": "ZZ"}, "The pool card: Not a card"),
    ({"type": "take", "stake": False, "pool": 7}, "The pool card: Not a card: 7"),
    ({"type": "take", "stake": False, "pool": ["AS"]}, "The pool card: Not a card"),
    ({"type": 3}, "Unknown action type: 3"),
    ({}, "Unknown action type: None"),
])
def test_malformed_actions_are_refused_clearly(action, message):
    game = apply(new(), {"type": "battle", "winner": 0, "troops": 3}) if action.get("type") == "take" else new()
    before = codec.dumps(game)
    with pytest.raises((ActionError, RuleError), match=message):
        apply(game, action)
    assert codec.dumps(game) == before


def test_validate_returns_the_canonical_game_redo_stack_included():
    game = apply(new(), {"type": "battle", "winner": 0, "troops": 3})
    token = str(replay(game).pool[0])
    raw = games.Game("campaign", game.seed, {}, game.setup,
                     ({"type": "battle", "winner": 0, "troops": 3},
                      {"type": "take", "pool": token.lower()}), 1)  # the take is on the redo stack
    checked = games.validate(raw)
    assert checked.actions[1] == {"type": "take", "stake": False, "pool": token}
    assert checked.position == 1
    bad = games.Game("campaign", game.seed, {}, game.setup, ({"type": "battle", "winner": None, "troops": -3},), 1)
    with pytest.raises(RuleError, match="CMP-12: a drawn battle carries no troop points.*step 1"):
        games.validate(bad)
    with pytest.raises(codec.ShareError, match="this game breaks CMP-12 at step 1"):
        codec.decode_share(codec.encode_share(bad))


# ---------------------------------------------------------------- out of turn


OUT_OF_TURN = [
    ("battle", {"type": "take", "stake": True}, "CMP-4", "has not been recorded yet"),
    ("battle", {"type": "roll"}, "CMP-6", "the exhaustion roll"),
    ("battle", {"type": "negotiate"}, "CMP-7", "only when both sides are exhausted"),
    ("spoils", {"type": "battle", "winner": None}, "CMP-4", "first takes the spoils of battle"),
    ("spoils", {"type": "roll"}, "CMP-4", "first takes the spoils"),
    ("exhaustion", {"type": "battle", "winner": 0, "troops": 3}, "CMP-6", "roll for exhaustion first"),
    ("exhaustion", {"type": "negotiate"}, "CMP-6", "roll for exhaustion first"),
    ("exhausted", {"type": "roll"}, "CMP-7", "both sides are exhausted"),
    ("exhausted", {"type": "battle", "winner": None}, "CMP-7", "negotiating table"),
    ("over", {"type": "negotiate"}, None, "the campaign is over"),
]


@pytest.mark.parametrize("phase,action,rule,message", OUT_OF_TURN)
def test_out_of_turn_moves_are_refused_citing_their_clause(phase, action, rule, message):
    game = game_in(phase)
    with pytest.raises(RuleError, match=message) as refused:
        apply(game, action)
    assert refused.value.rule_id == (rule or ("CMP-7" if replay(game).treaty else "CMP-2"))
    assert not games.can_apply(game, action)


def test_the_roll_after_battle_two_is_refused_and_after_a_roll_too():
    game = new()
    for _ in range(2):
        game = apply(game, {"type": "battle", "winner": None})
    with pytest.raises(RuleError, match=r"CMP-6: the exhaustion roll comes after the third battle .*2 battles fought"):
        apply(game, {"type": "roll"})


# ---------------------------------------------------------------- the rulings


def test_cmp_4_the_winner_must_take():
    game = apply(new(), {"type": "battle", "winner": 1, "troops": 2})
    for action in ({"type": "take"}, {"type": "take", "stake": False}, {"type": "take", "stake": False, "pool": None}):
        with pytest.raises(RuleError, match="CMP-4: Ben must take Anna's stake or one pool card"):
            apply(game, action)
    assert "CMP-4" in cmp.RULINGS


def test_cmp_4_the_new_pool_card_takes_the_place_of_the_one_taken():
    for index in range(4):
        game = apply(new(7), {"type": "battle", "winner": 0, "troops": 9})
        state = replay(game)
        after = replay(apply(game, {"type": "take", "stake": True, "pool": str(state.pool[index])}))
        expected = list(state.pool)
        expected[index] = state.deck[0]
        assert list(after.pool) == expected


def test_cmp_7_draws_are_made_in_player_order():
    base = cmp.CampaignState(players=("Anna", "Ben"), dummy=False, hands=(cards("AS AH"), cards("KS KH 2C")),
                             counts=(2, 3), stakes=(None, None), pool=cards("3C 4C 5C 6C"),
                             deck=cards("9D 9C 7H 8S 10D JD QD"), phase="exhausted", battle=4)
    state = cmp.step(base, {"type": "negotiate"})
    assert state.treaty.drawn == (cards("9D 9C 7H"), cards("8S 10D"))  # Anna first, then Ben
    texts = [e.text for e in state.log if e.rule == "CMP-7"]
    assert texts[0].startswith("At the table Anna draws 9♦ 9♣ 7♥") and texts[1].startswith("At the table Ben")


@pytest.mark.parametrize("held,drawn", [(2, 4), (4, 2), (5, 1), (6, 1), (8, 1)])
def test_cmp_9_a_dummy_short_of_five_draws_up_to_five_then_its_extra_card(held, drawn):
    deck = [c for c in DECK if c.suit.letter == "C"] + [c for c in DECK if c.suit.letter == "D"]
    hand = tuple(c for c in DECK if c.suit.letter == "S")[:held]
    base = cmp.CampaignState(players=("Anna", "Ben"), dummy=True, hands=(cards("AH KH QH JH 9H"), hand),
                             counts=(5, held), stakes=(None, None), pool=cards("2H 3H 4H 5H"),
                             deck=tuple(deck), phase="exhausted", battle=4)
    state = cmp.step(base, {"type": "negotiate"})
    assert len(state.treaty.drawn[1]) == drawn
    assert len(state.treaty.cards[1]) == max(held, 5) + 1
    assert state.treaty.drawn[1] == tuple(deck[:drawn])  # Anna had five: she drew none


def test_cmp_11_a_drawn_battle_counts_for_exhaustion():
    game = new()
    for _ in range(3):
        game = apply(game, {"type": "battle", "winner": None})
    state = replay(game)
    assert state.fought == 3 and state.phase == "exhaustion"
    assert cmp.RETIRED_IDS["HR-CMP-2"] == "CMP-11" and "HR-CMP-2" not in cmp.HOUSE_RULES
    assert "CMP-11" in cmp.RULINGS


def test_no_log_line_repeats_its_own_rule_id():
    for seed in range(30):
        game = advance(new(seed, dummy=seed % 2 == 1), random.Random(seed))
        for entry in replay(game).log:
            assert entry.rule not in entry.text, entry


@pytest.mark.parametrize("better,worse,words", [
    ("KS KD 7H 7C AS", "QS QD 9H 5C 3S", "two pairs rank above a pair"),
    ("2S 2H 2D 3C 4S", "AS AH KD KC QS", "a three of a kind ranks above two pairs"),
    ("AS AH KD QC JS", "AD KH QS JD 9C", "a pair ranks above a high card"),
    ("2S 3S 4S 5S 6S", "AS AH AD AC KS", "a straight flush ranks above a four of a kind"),
])
def test_cmp_8_explanations_read_right(better, worse, words):
    winner, text = cmp.compare_hands(best_hand(parse_cards(better)), best_hand(parse_cards(worse)), ("Anna", "Ben"))
    assert winner == 0 and text.endswith(words + ".")
    winner, text = cmp.compare_hands(best_hand(parse_cards(worse)), best_hand(parse_cards(better)), ("Anna", "Ben"))
    assert winner == 1 and text.startswith("CMP-8: Ben's")


# ---------------------------------------------------------------- treaty odds (CMP-7, CMP-8, CMP-9)


def brute_odds(own, unseen, hidden=0, extra=0):
    k = hidden + max(0, 5 - len(own) - hidden) + extra
    counts = Counter(best_hand(list(own) + list(x)).category for x in itertools.combinations(unseen, k))
    total = sum(counts.values())
    return {name: Fraction(counts[name], total) for name in CATEGORIES if counts[name]}


def test_treaty_odds_with_no_card_held_count_flushes_and_straight_flushes():
    odds = cmp.treaty_odds([], parse_cards("KS QS JS 10S 9S 8D"))
    assert odds == {"straight flush": Fraction(1, 6), "straight": Fraction(1, 6), "high card": Fraction(4, 6)}
    assert odds == brute_odds([], parse_cards("KS QS JS 10S 9S 8D"))
    assert cmp.treaty_odds([], ["AH", "KH", "QH", "JH", "9H"]) == {"flush": 1}


@pytest.mark.parametrize("own,unseen,message", [
    ("AS AS", "KS QS JS", "The A♠ is given twice"),
    ("AS", "KS KS QS JS 2D", "The K♠ is given twice"),
    ("AS KD", "AS QS JS 10S", "The A♠ cannot be both the player's and unseen"),
    ("AS", "KS", "Not enough unseen cards to draw 4"),
])
def test_treaty_odds_refuse_a_card_given_twice(own, unseen, message):
    with pytest.raises(ValueError, match=message):
        cmp.treaty_odds(parse_cards(own), parse_cards(unseen))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 6), st.integers(0, 3), st.integers(0, 2), st.booleans(), st.randoms(use_true_random=False))
def test_treaty_odds_with_hidden_and_extra_cards_match_every_draw(held, hidden, extra, one_suit, rnd):
    k = hidden + max(0, 5 - held - hidden) + extra
    deck = list(DECK)
    rnd.shuffle(deck)
    if one_suit:  # flush-heavy: own cards of one suit, the unseen mostly of it
        suit = deck[0].suit
        deck.sort(key=lambda c: c.suit != suit)
    unseen_size = {0: 6, 1: 20, 2: 18, 3: 15, 4: 14, 5: 13, 6: 12, 7: 11}[k]
    own, unseen = deck[:held], deck[held:held + unseen_size]
    if k == 0:
        assert cmp.treaty_odds(own, unseen, hidden=hidden, extra=extra) == {best_hand(own).category: 1}
        return
    event(f"{k} random cards")
    assert cmp.treaty_odds(own, unseen, hidden=hidden, extra=extra) == brute_odds(own, unseen, hidden, extra)


def test_treaty_odds_with_two_possible_flushes_count_each_hand_once():
    own = parse_cards("2S 3S 4S 5S 3H 4H 5H 6H 9D")
    unseen = parse_cards("6S 7H 2H 7S AS KS QH 5D 6D 7D 8D 10D")
    for hidden, extra in [(0, 1), (1, 1), (0, 2), (0, 3)]:
        assert cmp.treaty_odds(own, unseen, hidden=hidden, extra=extra) == brute_odds(own, unseen, hidden, extra)


def dummy_state(seed: int):
    """A solo campaign mid-way (after a few battles), the dummy's hand unknown to everyone."""
    rnd = random.Random(seed)
    game = advance(new(seed, dummy=True), rnd, lambda s: s.phase == "battle" and s.battle >= 3)
    return replay(game)


def test_treaty_chances_for_the_dummy_do_not_depend_on_its_hidden_cards():
    state = dummy_state(12)
    assert state.phase == "battle" and state.dummy
    hidden = [c for c in state.hands[1] if c not in state.known[1]]
    deck = list(state.deck)
    # Swap the dummy's hidden cards with cards of the deck: nobody could tell the difference.
    swapped_hand = tuple(c for c in state.hands[1] if c in state.known[1]) + tuple(deck[:len(hidden)])
    other = replace(state, hands=(state.hands[0], swapped_hand), deck=tuple(hidden) + tuple(deck[len(hidden):]))
    assert set(other.hands[1]) != set(state.hands[1])
    assert cmp.treaty_chances(other, 1) == cmp.treaty_chances(state, 1)
    # Nor on the human's hand: the dummy's chances are what everyone can see.
    human = replace(state, hands=(tuple(deck[-len(state.hands[0]):]), state.hands[1]))
    assert cmp.treaty_chances(human, 1) == cmp.treaty_chances(state, 1)


def test_treaty_chances_for_the_dummy_count_its_extra_card():
    """A table where almost every card has been seen: every draw can be listed."""
    state = dummy_state(12)
    unseen = [c for c in DECK if c not in state.seen and c not in state.pool]
    keep = set(unseen[:12])
    small = replace(state, seen=frozenset(c for c in DECK if c not in keep and c not in state.pool))
    stake = small.stakes[1]
    own = small.known[1] + ((stake,) if stake is not None else ())
    hidden = small.counts[1] - len(small.known[1])
    chances = cmp.treaty_chances(small, 1)
    assert chances == brute_odds(own, sorted(keep, key=lambda c: c.sort_key), hidden, extra=1)
    without_extra = brute_odds(own, sorted(keep, key=lambda c: c.sort_key), hidden, extra=0)
    assert chances != without_extra and sum(chances.values()) == 1


def test_treaty_chances_of_a_player_use_only_what_that_player_sees():
    state = replay(new(11))
    small = replace(state, hands=(state.hands[0][:2], state.hands[1]))
    hidden = list(small.hands[1]) + list(small.deck)
    other = replace(small, hands=(small.hands[0], tuple(hidden[-5:])), deck=tuple(hidden[:-5]))
    assert cmp.treaty_chances(small, 0) == cmp.treaty_chances(other, 0)
    unseen = [c for c in DECK if c not in cmp.visible_cards(small, 0)]
    assert cmp.treaty_chances(small, 0) == cmp.treaty_odds(small.cards_of(0), unseen)


# ---------------------------------------------------------------- facts in a spectator's copy


def tampered(game, **changes):
    """The game's spectator copy with its revealed facts edited."""
    copy = cmp.public_game(game)
    setup = games.thaw(copy.setup)
    for key, value in changes.items():
        setup["reveal"][key] = value
    return games.Game(copy.kind, 0, copy.rules, setup, copy.actions, copy.position)


def test_a_copy_whose_refill_is_a_pool_card_is_refused():
    game = apply(new(), {"type": "battle", "winner": 0, "troops": 3})
    state = replay(game)
    game = apply(game, {"type": "take", "stake": False, "pool": str(state.pool[0])})
    copy = cmp.public_game(game)
    assert replay(copy).pool == replay(game).pool  # the honest copy opens
    pool = copy.setup["reveal"]["pool"]
    bad = tampered(game, refills=[pool[1]])
    with pytest.raises(RuleError, match=f"CMP-4: the {parse_card(pool[1]).label} cannot be the new pool card: "
                                        "it is in the pool"):
        replay(bad)
    with pytest.raises(codec.ShareError, match="this game breaks CMP-4 at step 2"):
        codec.decode_share(codec.encode_share(bad))
    # A card Anna took cannot come from the deck either.
    taken = str(state.pool[0])
    with pytest.raises(RuleError, match="it is in Anna's hand"):
        replay(tampered(game, refills=[taken]))


def test_a_copy_whose_stake_is_a_pool_card_or_anothers_card_is_refused():
    game = new()
    copy = cmp.public_game(game)
    pool = copy.setup["reveal"]["pool"]
    stakes = copy.setup["reveal"]["stakes"]
    with pytest.raises(RuleError, match=f"CMP-2: the {parse_card(pool[2]).label} cannot be Anna's stake: "
                                        "it is in the pool"):
        replay(tampered(game, stakes=[[pool[2], stakes[0][1]]]))
    with pytest.raises(codec.ShareError, match="this game breaks CMP-2"):
        codec.decode_share(codec.encode_share(tampered(game, stakes=[[stakes[0][0], pool[0]]])))
    # Battle 2: Anna took Ben's stake; Ben cannot stake it again.
    game = apply(game, {"type": "battle", "winner": 0, "troops": 2})
    game = apply(game, {"type": "take", "stake": True})
    honest = cmp.public_game(game).setup["reveal"]["stakes"]
    with pytest.raises(RuleError, match=f"the {parse_card(stakes[0][1]).label} cannot be Ben's stake: "
                                        "it is in Anna's hand"):
        replay(tampered(game, stakes=[honest[0], [honest[1][0], stakes[0][1]]]))


def test_a_copy_with_an_impossible_table_is_refused():
    game = game_in("over")
    while replay(game).treaty is None:
        game = game_in("over", seed=replay(game).battle + 17)
    copy = cmp.public_game(game)
    assert replay(copy).treaty.hands == replay(game).treaty.hands
    reveal = copy.setup["reveal"]
    table = [list(t) for t in reveal["table"]]
    # One of Ben's cards is shown in Anna's hand too.
    table[0][0] = table[1][-1]
    with pytest.raises(RuleError, match="CMP-7"):
        replay(tampered(game, table=table))
    pool_card = reveal["pool"][0] if reveal["pool"][0] not in sum(reveal["table"], []) else None
    if pool_card is not None:
        table = [list(t) for t in reveal["table"]]
        table[1][0] = pool_card
        with pytest.raises(RuleError, match="CMP-7"):
            replay(tampered(game, table=table))


# ---------------------------------------------------------------- bad arguments


STATE = replay(new())

BAD_CALLS = [
    (cmp.is_decisive, ("9",)), (cmp.is_decisive, (None,)), (cmp.is_decisive, (-1,)), (cmp.is_decisive, (True,)),
    (cmp.exhaustion_chance, ("3",)), (cmp.exhaustion_chance, (-1,)), (cmp.exhaustion_odds_text, (None,)),
    (cmp.die_choice, ("2", 3)), (cmp.die_choice, (0, 3)), (cmp.die_choice, (2, 7)), (cmp.die_choice, (2, None)),
    (cmp.dummy_pick, (None, lambda: 1)), (cmp.dummy_pick, ([], lambda: 1)), (cmp.dummy_pick, ([("pool", "ZZ")], None)),
    (cmp.dummy_pick, ([("pool", "KS"), ("pool", "KH")], None)), (cmp.dummy_pick, ([("pool", "KS"), ("pool", "KS")], None)),
    (cmp.dummy_pick, ([("pool", "KS"), ("pool", "KH")], lambda: "6")),
    (cmp.dummy_pick, ([("pool", c) for c in "KS KH KD KC AS".split()][:4] + [("pool", "KD")], lambda: 5)),
    (cmp.dummy_pick, ([("p", "KS"), ("p", "KH"), ("p", "KD"), ("p", "KC")], lambda: 6)),
    (cmp.dummy_pick, ("KS", lambda: 1)), (cmp.dummy_pick, ([("pool",)], lambda: 1)),
    (cmp.treaty_odds, (None, [])), (cmp.treaty_odds, ([], None)), (cmp.treaty_odds, (["XX"], [])),
    (cmp.treaty_odds, ([1, 2], [])), (cmp.treaty_odds, ("AS", "KS QS", )),
    (cmp.compare_hands, (None, None, ("A", "B"))), (cmp.compare_hands, (best_hand(DECK[:5]), best_hand(DECK[5:10]), "AB")),
    (cmp.normalize_setup, (None,)), (cmp.normalize_setup, ({"players": "AB"},)),
    (cmp.start, ({"players": ["A", "B"]}, None, None)), (cmp.start, ({"players": ["A", "B"]}, [1], random.Random(1))),
    (cmp.step, (None, {"type": "roll"})), (cmp.step, (STATE, None)), (cmp.step, (STATE, {"type": "roll"}, [1, 2])),
    (cmp.step, (STATE, {"type": "battle", "winner": None}, None, None)),
    (cmp.normalize_action, (STATE, "battle")), (cmp.normalize_action, ("state", {"type": "roll"})),
    (cmp.describe, (None, {"type": "roll"})), (cmp.status, (None,)), (cmp.spoils_choices, ({},)),
    (cmp.treaty_chances, (STATE, 2)), (cmp.treaty_chances, (STATE, True)), (cmp.treaty_chances, (None, 0)),
    (cmp.visible_cards, (STATE, "0")), (cmp.player_cards, (STATE, -1)), (cmp.player_cards, (STATE, None)),
    (cmp.public_game, (None,)), (cmp.public_game, (games.Game("conflict", 1, {}, {}),)), (cmp.upgrade, (None,)),
    (poker.best_hand, (None,)), (poker.best_hand, (5,)), (poker.best_hand, ([None] * 5,)),
    (poker.category_index, (None,)), (poker.Hand, ("pair", None, None)), (poker.Hand, ("pair", DECK[:5], ["x"] * 5)),
]


@pytest.mark.parametrize("fn,args", BAD_CALLS, ids=[f"{fn.__name__}-{i}" for i, (fn, _) in enumerate(BAD_CALLS)])
def test_public_functions_refuse_bad_arguments_with_a_value_error(fn, args):
    with pytest.raises(ValueError) as refused:
        fn(*args)
    assert str(refused.value)
    assert "Traceback" not in str(refused.value)


def test_cards_are_taken_as_cards_or_tokens_alike():
    own = parse_cards("AS KH")
    unseen = [c for c in DECK if c not in own][:20]
    assert cmp.treaty_odds(own, unseen) == cmp.treaty_odds(["as", "kh"], [str(c) for c in unseen])
    assert cmp.dummy_pick([("pool", "KS"), ("pool", parse_card("AH"))], lambda: 1) == (1, [1], [])
    assert STATE.name(0) == "Anna"
    with pytest.raises(cmp.CampaignError):
        STATE.name(2)


# ---------------------------------------------------------------- hostile callers


TYPES = ("battle", "take", "roll", "negotiate")
FIELDS = ("winner", "troops", "stake", "pool", "dice")
VALID = [{"type": "battle", "winner": 0, "troops": 9}, {"type": "battle", "winner": 1, "troops": 3},
         {"type": "battle", "winner": None}, {"type": "take", "stake": True, "pool": None},
         {"type": "take", "stake": True, "pool": "AS"}, {"type": "take", "stake": False, "pool": "kh"},
         {"type": "roll"}, {"type": "negotiate"}]
COUNTS: Counter = Counter()


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.lists(hostile.actions(TYPES, FIELDS, VALID), max_size=14),
       st.randoms(use_true_random=False))
def test_hostile_actions_are_refused_cleanly_or_stored_canonically(seed, dummy, actions, rnd):
    game = advance(new(seed, dummy), rnd, lambda s: rnd.random() < 0.3)
    for action in actions:
        # Pool tokens of the game itself reach the spoils checks more often than random text.
        state = replay(game)
        if isinstance(action, dict) and action.get("pool") == "AS" and state.pool:
            action = {**action, "pool": str(rnd.choice(state.pool))}
        game, accepted = hostile.take(game, action)
        COUNTS["accepted" if accepted else "refused"] += 1
        event("accepted" if accepted else "refused")


HELPERS = [cmp.is_decisive, cmp.exhaustion_chance, cmp.exhaustion_odds_text, cmp.die_choice, cmp.dummy_pick,
           cmp.treaty_odds, cmp.compare_hands, cmp.normalize_setup, cmp.describe, cmp.status, cmp.spoils_choices,
           cmp.treaty_chances, cmp.visible_cards, cmp.player_cards, cmp.normalize_action, cmp.step,
           cmp.public_game, cmp.upgrade, poker.best_hand, poker.category_index, poker.Hand]


def arity(fn) -> tuple[int, int]:
    """How many positional arguments ``fn`` takes: (required, at most)."""
    import inspect

    params = [p for p in inspect.signature(fn).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return sum(p.default is p.empty for p in params), len(params)


ARGUMENT = st.one_of(hostile.VALUES, st.just(STATE), st.just("AS KS QS"), st.just([("pool", "KS"), ("pool", "KH")]),
                     st.just(lambda: 3), st.just(parse_cards("AS KS QS JS 9H")))


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(HELPERS).flatmap(
    lambda fn: st.tuples(st.just(fn), st.integers(*arity(fn)).flatmap(lambda n: st.lists(ARGUMENT, min_size=n,
                                                                                         max_size=n)))))
def test_hostile_arguments_to_every_public_helper_give_only_value_errors(call):
    fn, args = call
    result = hostile.call(fn, *args)
    event(f"{fn.__name__}: {'refused' if isinstance(result, ValueError) else 'answered'}")


def test_hostile_actions_on_a_spectators_copy_are_all_refused():
    copy = cmp.public_game(game_in("spoils"))
    for action in VALID:
        assert hostile.take(copy, action) == (copy, False)
