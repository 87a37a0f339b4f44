"""A campaign played with the players' own deck and dice (issue 18, setup "deck": "table").

The app never knows the hands: it records what is revealed — the pool as dealt, each
stake as it is turned up, the spoils, the new pool cards, the dice (typed or rolled)
— keeps the counts, and judges the hands laid down at the negotiating table (CMP-7,
CMP-8). Each entered card is a fact of its action, checked like a move: what cannot
be (a card seen twice) is refused with its clause.

The whole-campaign tests play a *physical* deck alongside the engine: a shuffled list
of cards the simulated players really hold and draw from, so every entry is what a
real table would enter, and the engine's counts and verdict are checked against the
cards themselves.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from engine import campaign as cmp
from engine import codec
from engine import game as games
from engine.cards import full_deck, parse_card
from engine.game import ActionError, RuleError, apply, new_game, replay
from engine.poker import best_hand
from tests.engine import hostile
from tests.engine.privacy import assert_absent

DECK = full_deck()


def new(dummy: bool = False, seed: int | None = 7):
    return new_game("campaign", {"players": ["Anna", "Ben"], "dummy": dummy, "deck": "table"}, seed=seed)


class Table:
    """The real cards on a table: each player's hand, the pool, the deck (top first)."""

    def __init__(self, rnd: random.Random):
        deck = list(DECK)
        rnd.shuffle(deck)
        self.rnd = rnd
        self.hands = [deck[:6], deck[6:12]]
        self.pool = deck[12:16]
        self.deck = deck[16:]
        self.stakes = [None, None]

    def turn_up_stakes(self):
        for p in (0, 1):
            card = self.rnd.choice(self.hands[p])
            self.hands[p].remove(card)
            self.stakes[p] = card
        return [str(c) for c in self.stakes]

    def settle(self, state_before, state_after):
        """Move the real cards as the engine says the spoils went (the stakes come home,
        the pool card taken goes to the winner)."""
        winner, _, _ = state_before.pending if state_before.pending else (None, 0, False)
        taken_pool = [c for c in state_before.pool if c not in state_after.pool]
        for card in taken_pool:
            self.pool.remove(card)
        stakes = self.stakes
        if winner is None and state_after.dummy:  # the dummy's win: find what it took
            winner = 1
        for p in (0, 1):
            owner = p if stakes[p] in state_after.known[p] else 1 - p
            self.hands[owner].append(stakes[p])
        for card in taken_pool:
            self.hands[winner].append(card)
        self.stakes = [None, None]
        return taken_pool

    def refill(self):
        card = self.deck.pop(0)
        self.pool.append(card)
        return str(card)


def play_real(seed: int, dummy: bool, typed_dice: float = 0.5, limit: int = 80, until=None):
    """A whole campaign with real cards; returns (game, table) and checks every count
    (stopping early when ``until(state)``: the e2e phones' negotiating table)."""
    rnd = random.Random(seed)
    real = Table(rnd)
    game = new(dummy, seed)
    game = apply(game, {"type": "deal", "pool": [str(c) for c in real.pool]})
    for _ in range(limit):
        state = replay(game)
        if state.phase == "over" or (until is not None and until(state)):
            break
        if state.phase == "stakes":
            game = apply(game, {"type": "stakes", "stakes": real.turn_up_stakes()})
        elif state.phase == "battle":
            winner = rnd.choice([0, 1, None])
            action = ({"type": "battle", "winner": None} if winner is None else
                      {"type": "battle", "winner": winner, "troops": rnd.randint(0, 12)})
            before = state
            game = apply(game, action)
            after = replay(game)
            if winner is None:
                for p in (0, 1):
                    real.hands[p].append(real.stakes[p])
                real.stakes = [None, None]
            elif after.phase != "spoils":  # the dummy took at once (CMP-9, CMP-10)
                real.settle(replace_pending(before, winner), after)
        elif state.phase == "spoils":
            choices = cmp.spoils_choices(state)
            pool = str(rnd.choice(state.pool))
            action = ({"type": "take", "stake": True, "pool": pool} if choices["both"] else
                      rnd.choice([{"type": "take", "stake": True}, {"type": "take", "pool": pool}]))
            game = apply(game, action)
            real.settle(state, replay(game))
        elif state.phase == "refill":
            game = apply(game, {"type": "refill", "card": real.refill()})
        elif state.phase == "exhaustion":
            if rnd.random() < typed_dice:
                game = apply(game, {"type": "roll", "dice": [rnd.randint(1, 6), rnd.randint(1, 6)]})
            else:
                game = apply(game, {"type": "roll"})
        else:  # the negotiating table, in player order
            p = len(state.laid)
            need = max(0, 5 - len(real.hands[p])) + (1 if dummy and p == 1 else 0)
            drawn = [real.deck.pop(0) for _ in range(need)]
            game = apply(game, {"type": "lay", "player": p, "hand": [str(c) for c in real.hands[p]],
                                "drawn": [str(c) for c in drawn]})
            real.hands[p] += drawn
        state = replay(game)
        # The app's counts are the real counts; the pool and the stakes are the real ones.
        if state.phase != "over" or state.treaty is None:
            for p in (0, 1):
                held = len(real.hands[p]) + (real.stakes[p] is not None)
                assert state.card_count(p) == held, (p, state.phase)
        assert sorted(state.pool, key=str) == sorted(real.pool, key=str)
        assert [s for s in state.stakes if s] == [s for s in real.stakes if s]
    return game, real


def replace_pending(state, winner):
    from dataclasses import replace

    return replace(state, pending=(winner, 0, False))


# ---------------------------------------------------------------- whole campaigns


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.floats(0, 1))
def test_a_whole_campaign_with_a_real_deck_is_counted_and_judged_right(seed, dummy, typed):
    game, real = play_real(seed, dummy, typed)
    state = replay(game)
    assert state.phase == "over"
    event("treaty" if state.treaty else "last card lost")
    if state.treaty is not None:
        # CMP-7/CMP-8: the app judges the cards the players really laid down.
        hands = [best_hand(real.hands[p]) for p in (0, 1)]
        assert state.treaty.hands == tuple(hands)
        assert state.winner == (None if hands[0] == hands[1] else 0 if hands[0] > hands[1] else 1)
        assert [sorted(map(str, c)) for c in state.treaty.cards] == [sorted(map(str, h)) for h in real.hands]
        if dummy:
            assert len(state.treaty.cards[1]) >= 6  # CMP-9: its extra card
    # Replay, links and saves work unchanged: every entered card is in its action.
    assert games.validate(game) == game
    assert codec.decode_share(codec.encode_share(game)) == game
    assert codec.loads(codec.dumps(game))[0] == game
    assert cmp.treaty_chances(replay(games.goto(game, len(game.actions) // 2)), 0) == {}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.floats(0, 1))
def test_a_spectators_copy_of_a_real_deck_game_shows_the_same_table_without_the_seed(seed, dummy, cut):
    game, _ = play_real(seed, dummy)
    game = games.goto(game, int(cut * len(game.actions)))
    copy = cmp.public_game(game)
    assert games.is_spectator(copy) and copy.seed == 0 and copy.setup["deck"] == "table"
    mine, theirs = replay(game), replay(copy)
    assert [e.text for e in theirs.log] == [e.text for e in mine.log]
    assert (theirs.pool, theirs.stakes, theirs.phase, theirs.counts) == (mine.pool, mine.stakes, mine.phase,
                                                                         mine.counts)
    assert_absent(game, [str(game.seed)] if game.seed > 10**6 else [])
    assert codec.decode_share(codec.encode_share(copy)) == copy


def test_the_app_can_roll_for_a_real_deck_game_and_a_copy_keeps_those_dice():
    game, _ = play_real(11, False, typed_dice=0.0)
    rolled = [r.dice for r in replay(game).rolls]
    assert rolled
    copy = cmp.public_game(game)
    assert copy.setup["reveal"]["dice"] == [d for pair in rolled for d in pair]
    assert [r.dice for r in replay(copy).rolls] == rolled


# ---------------------------------------------------------------- entries that cannot be


def at_battle():
    game = apply(new(), {"type": "deal", "pool": ["AS", "KH", "7D", "2C"]})
    return apply(game, {"type": "stakes", "stakes": ["QS", "3H"]})


@pytest.mark.parametrize("action,rule,message", [
    ({"type": "deal", "pool": ["AS", "KH", "7D"]}, "CMP-1", "the pool is four cards"),
    ({"type": "deal", "pool": ["AS", "KH", "7D", "as"]}, None, "The A♠ is given twice"),
    ({"type": "deal", "pool": ["AS", "KH", "7D", "XX"]}, None, "Not a card"),
    ({"type": "stakes", "stakes": ["QS", "3H"]}, "CMP-1", "enter the four pool cards as they were dealt first"),
    ({"type": "battle", "winner": None}, "CMP-1", "enter the four pool cards"),
])
def test_the_deal_is_checked(action, rule, message):
    with pytest.raises((RuleError, ActionError), match=message) as refused:
        apply(new(), action)
    if rule:
        assert refused.value.rule_id == rule


@pytest.mark.parametrize("stakes,message", [
    (["KH", "3H"], "CMP-2: the K♥ cannot be Anna's stake: it is in the pool"),
    (["3H", "3H"], "CMP-2: both stakes are the 3♥"),
    (["3H"], "CMP-2: each player stakes one card: two stakes"),
    (["3H", "4H", "5H"], "CMP-2: each player stakes one card"),
])
def test_a_stake_seen_elsewhere_is_refused(stakes, message):
    game = apply(new(), {"type": "deal", "pool": ["AS", "KH", "7D", "2C"]})
    with pytest.raises(RuleError, match=message):
        apply(game, {"type": "stakes", "stakes": stakes})


def test_a_card_seen_in_a_hand_cannot_turn_up_elsewhere():
    game = at_battle()
    game = apply(game, {"type": "battle", "winner": 0, "troops": 9})
    game = apply(game, {"type": "take", "stake": True, "pool": "KH"})  # Anna: QS back, 3H and KH won
    assert replay(game).phase == "refill"
    with pytest.raises(RuleError, match="CMP-4: the 3♥ cannot be the new pool card: it is in Anna's hand"):
        apply(game, {"type": "refill", "card": "3H"})
    with pytest.raises(RuleError, match="CMP-4: draw the new pool card from the deck and enter it first"):
        apply(game, {"type": "stakes", "stakes": ["QS", "4D"]})
    game = apply(game, {"type": "refill", "card": "9C"})
    state = replay(game)
    assert state.pool == tuple(parse_card(t) for t in ("AS", "9C", "7D", "2C"))  # in the K♥'s place
    with pytest.raises(RuleError, match="the K♥ cannot be Ben's stake: it is in Anna's hand"):
        apply(game, {"type": "stakes", "stakes": ["QS", "KH"]})
    # Ben has five cards nobody has seen: any unseen card can be his stake; Anna's may be a known one.
    game = apply(game, {"type": "stakes", "stakes": ["KH", "8S"]})
    assert replay(game).stakes == (parse_card("KH"), parse_card("8S"))


def test_a_player_whose_cards_are_all_known_stakes_one_of_them():
    game = at_battle()
    # Ben loses his stakes until his hand is only known cards... (a shorter way: craft the state)
    state = replay(game)
    from dataclasses import replace

    known = replace(state, phase="stakes", stakes=(None, None), counts=(5, 2),
                    known=((), (parse_card("9S"), parse_card("9H"))), seen=state.seen | {parse_card("9S"),
                                                                                  parse_card("9H")})
    with pytest.raises(RuleError, match=r"CMP-2: Ben's stake is one of Ben's cards \(9♠ 9♥\), not the 4♦"):
        cmp.normalize_action(known, {"type": "stakes", "stakes": ["JD", "4D"]})
    assert cmp.normalize_action(known, {"type": "stakes", "stakes": ["JD", "9h"]})["stakes"] == ["JD", "9H"]


def exhausted_game():
    for seed in range(40):
        game, real = play_real(seed, False, limit=400)
        for position in range(len(game.actions), 0, -1):
            if replay(games.goto(game, position)).phase == "exhausted" and not replay(
                    games.goto(game, position)).laid:
                return games.goto(game, position)
    raise AssertionError("no game reached the table")


def test_the_table_checks_each_hand_laid_down():
    game = exhausted_game()
    state = replay(game)
    known0 = list(state.known[0])
    count0 = state.counts[0]
    with pytest.raises(RuleError, match="CMP-7: Anna lays down first"):
        apply(game, {"type": "lay", "player": 1, "hand": [], "drawn": []})
    with pytest.raises(RuleError, match=f"CMP-7: Anna holds {count0} card"):
        apply(game, {"type": "lay", "player": 0, "hand": [str(c) for c in known0][:max(0, count0 - 1)] or ["2S"]})
    pool_card = str(state.pool[0])
    unseen = [c for c in DECK if c not in state.seen]
    hand = [str(c) for c in known0] + [str(c) for c in unseen[:count0 - len(known0)]]
    if hand:
        bad = [pool_card] + hand[1:] if not known0 else hand[:-1] + [pool_card]
        with pytest.raises(RuleError, match="CMP-7"):
            apply(game, {"type": "lay", "player": 0, "hand": bad,
                         "drawn": [str(c) for c in unseen[count0:count0 + max(0, 5 - count0)]]})
    draws = [str(c) for c in unseen[count0:count0 + max(0, 5 - count0)]]
    with pytest.raises(RuleError, match="CMP-7"):
        apply(game, {"type": "lay", "player": 0, "hand": hand, "drawn": draws + [str(unseen[-1])]})
    with pytest.raises(RuleError, match="CMP-7"):
        apply(game, {"type": "lay", "player": 0, "hand": hand, "drawn": [pool_card] + draws[1:]} if draws else
              {"type": "lay", "player": 0, "hand": hand, "drawn": [pool_card]})
    game = apply(game, {"type": "lay", "player": 0, "hand": hand, "drawn": draws})
    assert replay(game).phase == "exhausted" and len(replay(game).laid) == 1
    # Ben cannot lay down a card Anna just laid down.
    count1 = replay(game).counts[1]
    ben = [str(c) for c in replay(game).known[1]]
    rest = [c for c in DECK if c not in replay(game).seen]
    ben += [str(c) for c in rest[:count1 - len(ben)]]
    unknown1 = count1 - len(replay(game).known[1])
    assert unknown1 > 0
    with pytest.raises(RuleError, match="laid down by Anna at the negotiating table"):
        apply(game, {"type": "lay", "player": 1, "hand": ben[:-1] + [(hand[len(known0):] + draws)[0]],
                     "drawn": [str(c) for c in rest[count1:count1 + max(0, 5 - count1)]]})


@pytest.mark.parametrize("action,message", [
    ({"type": "negotiate"}, "With your own deck each player lays the cards down"),
    ({"type": "roll", "dice": [7, 1]}, "CMP-6: A die must be a whole number from 1 to 6"),
    ({"type": "roll", "dice": [3]}, "two dice"),
    ({"type": "roll", "dice": "66"}, "two dice"),
])
def test_the_modes_keep_to_their_own_actions(action, message):
    game = at_battle()
    for _ in range(3):
        game = apply(game, {"type": "battle", "winner": None})
        if replay(game).phase == "stakes":
            unseen = [c for c in DECK if c not in replay(game).seen]
            game = apply(game, {"type": "stakes", "stakes": [str(unseen[0]), str(unseen[1])]})
    assert replay(game).phase == "exhaustion"
    with pytest.raises((RuleError, ActionError), match=message):
        apply(game, action)


def test_the_app_deck_refuses_entered_cards_and_dice():
    app = new_game("campaign", {"players": ["Anna", "Ben"]}, seed=3)
    for action in ({"type": "deal", "pool": ["AS", "KH", "7D", "2C"]}, {"type": "stakes", "stakes": ["AS", "KH"]},
                   {"type": "refill", "card": "AS"}, {"type": "lay", "player": 0, "hand": []}):
        with pytest.raises(ActionError, match="this campaign is played with the app's deck"):
            apply(app, action)


def test_entries_are_stored_canonically_and_labelled():
    game = apply(new(), {"type": "deal", "pool": ["as", "kh", "7d", "2c"]})
    assert game.actions[-1] == {"type": "deal", "pool": ["AS", "KH", "7D", "2C"]}
    game = apply(game, {"type": "stakes", "stakes": ["qs", "3h"]})
    assert game.actions[-1] == {"type": "stakes", "stakes": ["QS", "3H"]}
    labels = games.history(game)
    assert labels == ["The pool as dealt · A♠ K♥ 7♦ 2♣", "Battle 1 · stakes Q♠ and 3♥"]
    state = replay(game)
    assert cmp.status(state) == ("Battle 1: fight it on the tabletop, then record the result (CMP-3)")
    assert state.log[0].text.startswith("With your own deck: six cards dealt to each player")
    assert "turned up at random from each hand" in state.log[-1].text
    with pytest.raises(ActionError, match="A stakes action has no field 'x'"):
        apply(apply(new(), {"type": "deal", "pool": ["AS", "KH", "7D", "2C"]}),
              {"type": "stakes", "stakes": ["QS", "3H"], "x": 1})


def test_the_deck_setting_is_part_of_the_setup():
    assert cmp.normalize_setup({"players": ["A", "B"], "deck": "table"})["deck"] == "table"
    assert "deck" not in cmp.normalize_setup({"players": ["A", "B"], "deck": "app"})  # older games unchanged
    with pytest.raises(cmp.SetupError, match="'deck' is"):
        cmp.normalize_setup({"players": ["A", "B"], "deck": "mine"})
    with pytest.raises(cmp.SetupError, match="holds only the dice"):
        cmp.normalize_setup({"players": ["A", "B"], "deck": "table", "reveal": {"pool": ["AS", "KS", "QS", "JS"]}})
    assert set(cmp.DECKS) == {"app", "table"}


# ---------------------------------------------------------------- hostile callers


TYPES = ("battle", "take", "roll", "negotiate", "deal", "stakes", "refill", "lay")
FIELDS = ("winner", "troops", "stake", "pool", "dice", "stakes", "card", "player", "hand", "drawn")
VALID = [{"type": "deal", "pool": ["AS", "KH", "7D", "2C"]}, {"type": "stakes", "stakes": ["QS", "3H"]},
         {"type": "battle", "winner": 0, "troops": 9}, {"type": "battle", "winner": None},
         {"type": "take", "stake": True, "pool": None}, {"type": "take", "stake": True, "pool": "KH"},
         {"type": "refill", "card": "9C"}, {"type": "roll", "dice": [6, 6]}, {"type": "roll"},
         {"type": "lay", "player": 0, "hand": ["QS"], "drawn": ["2S", "3S", "4S", "5S"]}]
SEEN: Counter = Counter()


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 1000), st.booleans(), st.floats(0, 1),
       st.lists(hostile.actions(TYPES, FIELDS, VALID), max_size=10))
def test_hostile_actions_on_a_real_deck_game_are_refused_cleanly_or_stored_canonically(seed, dummy, cut, actions):
    game, _ = play_real(seed, dummy)
    game = games.goto(game, int(cut * len(game.actions)))
    game = games.Game(game.kind, game.seed, game.rules, game.setup, game.actions[:game.position], game.position)
    for action in actions:
        game, accepted = hostile.take(game, action)
        SEEN["accepted" if accepted else "refused"] += 1
        event("accepted" if accepted else "refused")


def test_losing_the_last_card_ends_the_campaign_and_no_new_pool_card_is_asked_for():
    """CMP-2 with a real deck: Ben loses a stake every battle; the sixth is his last card.
    The campaign is over at once: the table is not asked for a card it would never use."""
    real = Table(random.Random(5))
    game = apply(new(seed=5), {"type": "deal", "pool": [str(c) for c in real.pool]})
    for battle in range(1, 7):
        state = replay(game)
        if state.phase == "exhaustion":
            game = apply(game, {"type": "roll", "dice": [1, 1]})  # 1 + battles < 9 until battle 8
        game = apply(game, {"type": "stakes", "stakes": real.turn_up_stakes()})
        game = apply(game, {"type": "battle", "winner": 0, "troops": 9})
        before = replay(game)
        game = apply(game, {"type": "take", "stake": True, "pool": str(before.pool[0])})
        real.settle(before, replay(game))
        state = replay(game)
        if battle < 6:
            assert state.phase == "refill" and state.card_count(1) == 6 - battle
            game = apply(game, {"type": "refill", "card": real.refill()})
    state = replay(game)
    assert state.phase == "over" and state.winner == 0 and state.treaty is None
    assert state.result.startswith("CMP-2: Ben lost the last card — Anna wins the campaign after 6 battles")
    assert len(state.pool) == 3  # the pool card taken is not replaced: the war is over
    assert cmp.standing(state) == "Over · Anna won: Ben lost the last card in battle 6"


def refusal(state, what, card, player=0, chosen=()):
    """What :func:`engine.campaign.check_entry` says against entering ``card`` (its message),
    or None when it may be entered; :func:`engine.campaign.can_enter` answers the same."""
    try:
        cmp.check_entry(state, what, card, player, chosen)
    except (RuleError, cmp.ArgumentError) as err:
        assert cmp.can_enter(state, what, card, player, chosen) is False
        return str(err)
    assert cmp.can_enter(state, what, card, player, chosen) is True
    return None


def test_check_entry_greys_out_what_the_engine_would_refuse():
    """The view's one check before anything is recorded: the same as normalize_action's (the
    triad: check_entry raises, can_enter answers)."""
    game = apply(new(), {"type": "deal", "pool": ["AS", "KH", "7D", "2C"]})
    state = replay(game)
    assert refusal(state, "stake", "QS", 0) is None
    assert refusal(state, "stake", "KH", 0) == "CMP-2: the K♥ cannot be Anna's stake: it is in the pool"
    assert refusal(state, "stake", "QS", 1, ["QS"]).startswith("the Q♠ is entered already")
    assert refusal(state, "pool", "QS", 0, ["QS"]).startswith("the Q♠ is entered already")
    assert refusal(state, "pool", "KH", 0) is None
    for card in DECK:
        refused = refusal(state, "stake", card, 0)
        accepted = games.can_apply(game, {"type": "stakes", "stakes": [str(card), "3H" if card != parse_card("3H")
                                                                          else "4H"]})
        assert (refused is None) == accepted, card
    game = apply(game, {"type": "stakes", "stakes": ["QS", "3H"]})
    game = apply(game, {"type": "battle", "winner": 1, "troops": 2})
    game = apply(game, {"type": "take", "pool": "7D"})
    state = replay(game)
    assert state.phase == "refill"
    assert refusal(state, "refill", "7D") == ("CMP-4: the 7♦ cannot be the new pool card: it is in "
                                                        "Ben's hand (it was seen face up); a deck has one of each card")
    assert refusal(state, "refill", "8D") is None
    assert refusal(state, "hand", "7D", 1) is None  # seen in Ben's hand: it belongs there
    assert refusal(state, "hand", "7D", 0).startswith("CMP-7: the 7♦ cannot be in Anna's hand")
    assert refusal(state, "drawn", "7D", 0).startswith("CMP-7: the 7♦ cannot be drawn from the deck")
    assert refusal(state, "drawn", "8D", 0) is None
    with pytest.raises(RuleError) as refused:
        cmp.check_entry(state, "refill", "7D")
    assert refused.value.rule_id == "CMP-4"
    with pytest.raises(cmp.ArgumentError, match="the Q♠ is entered already"):
        cmp.check_entry(state, "pool", "QS", 0, ["QS"])
    for check in (cmp.check_entry, cmp.can_enter):
        for bad in [("nothing", "8D"), ("stake", "ZZ"), ("stake", None)]:
            with pytest.raises(ValueError):
                check(state, *bad)
        with pytest.raises(ValueError):
            check(state, "stake", "8D", 2)
        with pytest.raises(ValueError):
            check(None, "stake", "8D")


def test_table_draws_and_the_deck_left():
    game = apply(new(dummy=True), {"type": "deal", "pool": ["AS", "KH", "7D", "2C"]})
    state = replay(game)
    assert cmp.deck_left(state) == 52 - 12 - 4
    assert cmp.table_draws(state, 0) == 0 and cmp.table_draws(state, 1) == 1  # six cards; the dummy one more
    from dataclasses import replace

    short = replace(state, counts=(3, 2))
    assert cmp.table_draws(short, 0) == 2 and cmp.table_draws(short, 1) == 4  # CMP-9: up to five, then one
    assert cmp.deck_left(short) == 52 - 5 - 4
    app = replay(new_game("campaign", {"players": ["A", "B"]}, seed=1))
    assert cmp.deck_left(app) == len(app.deck) == 36
    with pytest.raises(ValueError):
        cmp.table_draws(state, 3)
    with pytest.raises(ValueError):
        cmp.deck_left("state")
