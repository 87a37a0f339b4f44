"""engine.campaign: the cases mutation testing found untested (issue 20 item 8, RULES.md section 2).

Each test plays (or builds) a campaign to the point where a rule decides, and asserts what
the table sees: the phase, the cards that moved, the refusal and the key words of its
message, the status and history lines. Odds are checked against enumerating every draw.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from fractions import Fraction

import pytest

from engine import campaign as cmp
from engine import game as games
from engine.cards import Card, Rank, Suit, full_deck, parse_card, parse_cards
from engine.game import ActionError, RuleError, apply, new_game, replay

DECK = full_deck()


def new(seed: int = 5, dummy: bool = False, deck: str = "app", names=("Anna", "Ben")):
    setup = {"players": list(names), "dummy": dummy}
    if deck != "app":
        setup["deck"] = deck
    return new_game("campaign", setup, seed=seed)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def at(items: tuple, index: int, value) -> tuple:
    """``items`` with ``value`` at ``index`` (a state's pair of counts or hands, changed by hand)."""
    return items[:index] + (value,) + items[index + 1:]


def unseen(state, count: int) -> list[str]:
    return [str(c) for c in DECK if c not in state.seen and c not in state.pool][:count]


def table_game(dummy: bool = False):
    """A campaign with the players' own deck, the pool dealt: AS KH 7D 2C."""
    return apply(new(dummy=dummy, deck="table"), {"type": "deal", "pool": ["AS", "KH", "7D", "2C"]})


def stakes(game):
    return apply(game, {"type": "stakes", "stakes": unseen(replay(game), 2)})


# ---------------------------------------------------------------- what the table waits for


@pytest.mark.parametrize("dummy", [False, True])
def test_status_says_what_the_table_waits_for_in_every_phase_with_your_own_deck(dummy):
    """CMP-1 … CMP-7 with the players' own deck: the status line of each phase names its
    clause and what to enter."""
    game = new(dummy=dummy, deck="table")
    second = "Dummy" if dummy else "Ben"
    if dummy:
        game = new_game("campaign", {"players": ["Anna", None], "dummy": True, "deck": "table"}, seed=5)
    assert cmp.status(replay(game)) == ("Deal six cards to each player and four face up to the pool, then enter "
                                        "the pool (CMP-1)")
    assert cmp.standing(replay(game)) == "Dealing · the pool to enter"
    game = apply(game, {"type": "deal", "pool": ["AS", "KH", "7D", "2C"]})
    state = replay(game)
    assert state.phase == "stakes"
    dealt = " (the dummy's is dealt at random from its face-down cards, CMP-9)" if dummy else ""
    assert cmp.status(state) == (f"Battle 1: each player turns up a card of the hand at random{dealt}; enter both "
                                 "stakes (CMP-2)")
    game = stakes(game)
    assert cmp.status(replay(game)) == "Battle 1: fight it on the tabletop, then record the result (CMP-3)"
    game = apply(game, {"type": "battle", "winner": 0, "troops": 8})
    assert cmp.status(replay(game)) == f"Battle 1: Anna takes {second}'s stake and one pool card (CMP-4)"
    game = apply(game, {"type": "take", "stake": True, "pool": "KH"})
    assert cmp.status(replay(game)) == "Battle 1: draw a card from the deck for the pool and enter it (CMP-4)"
    game = apply(game, {"type": "refill", "card": unseen(replay(game), 1)[0]})
    for _ in range(2):
        game = apply(stakes(game), {"type": "battle", "winner": None})
    assert cmp.status(replay(game)) == "Battle 3 fought: roll for exhaustion (CMP-6)"
    game = apply(game, {"type": "roll", "dice": [6, 6]})
    state = replay(game)
    assert state.phase == "exhausted"
    assert cmp.status(state) == ("Both sides are exhausted: Anna lays the cards down at the negotiating table "
                                 "(CMP-7)")
    assert cmp.standing(state) == f"Exhausted after battle 3 · Anna 8 cards, {second} 5"


def test_status_of_a_victory_that_is_not_decisive_and_of_the_app_table():
    """CMP-4: under 8 troop points the winner takes the stake *or* a pool card; CMP-7: the
    app's table needs no entry."""
    game = apply(new(), {"type": "battle", "winner": 1, "troops": 7})
    assert cmp.status(replay(game)) == "Battle 1: Ben takes Anna's stake or one pool card (CMP-4)"
    for _ in range(2):
        game = apply(apply(game, {"type": "take", "stake": True}) if replay(game).phase == "spoils" else game,
                     {"type": "battle", "winner": None})
    state = replay(game)
    assert state.phase == "exhaustion" and cmp.status(state) == "Battle 3 fought: roll for exhaustion (CMP-6)"
    exhausted = replace(state, phase="exhausted")
    assert cmp.status(exhausted) == "Both sides are exhausted: to the negotiating table (CMP-7)"


# ---------------------------------------------------------------- the history's labels


def test_describe_labels_every_action_of_the_app_deck():
    """The history names each move as the table made it (CMP-3, CMP-4, CMP-6, CMP-7)."""
    game = new()
    state = replay(game)
    assert cmp.describe(state, {"type": "battle", "winner": 1, "troops": 1}) == "Battle 1 · Ben wins (1 troop point)"
    assert cmp.describe(state, {"type": "battle", "winner": 0, "troops": 7}) == "Battle 1 · Anna wins (7 troop points)"
    assert cmp.describe(state, {"type": "battle", "winner": 0, "troops": 8}) == \
        "Battle 1 · Anna wins (8 troop points, decisive)"
    for troops in (-1, 1000, "9", True, None):
        assert cmp.describe(state, {"type": "battle", "winner": 1, "troops": troops}) == "Battle 1 · Ben wins"
    for winner in (2, True, "0"):
        assert cmp.describe(state, {"type": "battle", "winner": winner, "troops": 3}) == "Battle 1 · ? wins (3 troop points)"
    game = apply(game, {"type": "battle", "winner": 1, "troops": 2})
    state = replay(game)
    pool = state.pool[1]
    assert cmp.describe(state, {"type": "take", "stake": True, "pool": None}) == "Battle 1 · Ben takes Anna's stake"
    assert cmp.describe(state, {"type": "take", "stake": False, "pool": str(pool)}) == \
        f"Battle 1 · Ben takes the {pool.label} from the pool"
    assert cmp.describe(state, {"type": "take", "stake": "yes", "pool": "ZZ"}) == "Battle 1 · Ben takes a pool card"
    assert cmp.describe(state, {"type": "take"}) == "Battle 1 · Ben takes nothing"
    assert games.history(apply(game, {"type": "take", "stake": True}))[-1] == "Battle 1 · Ben takes Anna's stake"
    fought = replace(state, fought=4)
    assert cmp.describe(fought, {"type": "roll"}) == "Exhaustion roll after battle 4"
    assert cmp.describe(fought, {"type": "roll", "dice": [2, 5]}) == \
        "Exhaustion roll after battle 4 · your dice 2 and 5"
    assert cmp.describe(fought, {"type": "roll", "dice": [2]}) == "Exhaustion roll after battle 4"
    assert cmp.describe(state, {"type": "negotiate"}) == "The negotiating table"
    for junk in ({"type": "dance"}, {}, {"type": "stakes", "stakes": ["AS"]}, {"type": "refill", "card": 5},
                 {"type": "deal", "pool": ["XX"]}, {"type": "stakes", "stakes": 3}):
        assert cmp.describe(state, junk) == "Unknown action"
    assert cmp.describe(state, ["battle"]) == "Unknown action"
    with pytest.raises(cmp.CampaignError, match="Not a campaign state"):
        cmp.describe(None, {"type": "negotiate"})


def test_describe_labels_what_your_own_deck_revealed():
    """With the players' own deck the history names the cards entered (issue 18)."""
    state = replay(table_game())
    assert cmp.describe(state, {"type": "deal", "pool": ["AS", "KH", "7D", "2C"]}) == \
        "The pool as dealt · A♠ K♥ 7♦ 2♣"
    assert cmp.describe(state, {"type": "stakes", "stakes": ["QS", "3H"]}) == "Battle 1 · stakes Q♠ and 3♥"
    assert cmp.describe(state, {"type": "refill", "card": "9C"}) == "Battle 1 · the 9♣ into the pool"
    assert cmp.describe(state, {"type": "lay", "player": 1, "hand": ["AS", "KS"], "drawn": ["2D", "3D", "4D"]}) == \
        "The negotiating table · Ben lays down 2 cards, draws 3"
    assert cmp.describe(state, {"type": "lay", "player": 0, "hand": ["AS"] * 6}) == \
        "The negotiating table · Anna lays down 6 cards"
    assert cmp.describe(state, {"type": "lay", "player": 0, "hand": ["AS"], "drawn": []}) == \
        "The negotiating table · Anna lays down 1 card"
    assert cmp.describe(state, {"type": "lay", "player": False, "hand": None}) == \
        "The negotiating table · ? lays down 0 cards"


# ---------------------------------------------------------------- out of turn, with your own deck


@pytest.mark.parametrize("action,rule,words", [
    ({"type": "deal", "pool": ["3S", "4S", "5S", "6S"]}, "CMP-1", "the pool was dealt at the start"),
    ({"type": "stakes", "stakes": ["3S", "4S"]}, "CMP-2", "the stakes of battle 1 are out already"),
    ({"type": "refill", "card": "3S"}, "CMP-4", "no pool card is waiting to be replaced"),
    ({"type": "lay", "player": 0, "hand": ["3S"]}, "CMP-7",
     "the negotiating table comes only when both sides are exhausted (CMP-6)"),
    ({"type": "roll", "dice": [3, 4]}, "CMP-6", "the exhaustion roll comes after the third battle and every later "
                                                "one (0 battles fought so far)"),
])
def test_entries_out_of_turn_are_refused_with_their_clause(action, rule, words):
    """Each entry of the players' own deck has its moment (CMP-1, CMP-2, CMP-4, CMP-6, CMP-7)."""
    game = stakes(table_game())
    with pytest.raises(RuleError) as refused:
        apply(game, action)
    assert refused.value.rule_id == rule and words in str(refused.value)
    assert not games.can_apply(game, action)


def test_the_roll_is_refused_before_battle_three_and_once_made():
    """CMP-6: the roll comes after the third battle and every later one, once."""
    game = apply(new(), {"type": "battle", "winner": None})
    with pytest.raises(RuleError, match=r"CMP-6: .*after the third battle and every later one \(1 battle fought"):
        apply(game, {"type": "roll"})
    for _ in range(2):
        game = apply(game, {"type": "battle", "winner": None})
    game = apply(game, {"type": "roll"})
    state = replay(game)
    assert not state.rolls[-1].exhausted and state.phase == "battle"  # the war goes on: battle 4 waits
    with pytest.raises(RuleError, match="CMP-6: the exhaustion roll for this battle has been made"):
        apply(game, {"type": "roll"})


def test_a_campaign_lost_by_its_last_card_refuses_moves_under_cmp_2():
    """CMP-2: losing the last card loses the campaign; after it every move is refused citing
    CMP-2 with the result."""
    state = replace(replay(new()), counts=(0, 6))  # Anna's stake is her last card
    state = cmp.step(state, {"type": "battle", "winner": 1, "troops": 3}, None, random.Random(1))
    state = cmp.step(state, {"type": "take", "stake": True, "pool": None}, None, random.Random(1))
    assert state.phase == "over" and state.winner == 1 and state.treaty is None
    assert state.result == "CMP-2: Anna lost the last card — Ben wins the campaign after 1 battle."
    for action in ({"type": "battle", "winner": None}, {"type": "roll"}, {"type": "negotiate"}):
        with pytest.raises(RuleError) as refused:
            cmp.step(state, action, None, random.Random(1))
        assert refused.value.rule_id == "CMP-2"
        assert "the campaign is over. CMP-2: Anna lost the last card" in str(refused.value)


# ---------------------------------------------------------------- the log reads like the table

L = r"(?:10|[2-9JQKA])[♠♥♦♣]"  # a card label


def labels(text: str) -> list[str]:
    return re.findall(L, text)


def check_log_line(state, entry, names) -> None:
    """One log line against the sentence its clause says (CMP-1 … CMP-11, HR-CMP-1): the words,
    the arithmetic of a roll, and the cards it names are the cards it carries."""
    a, b = names
    who = f"(?:{re.escape(a)}|{re.escape(b)})"
    text, rule = entry.text, entry.rule
    shown = [c.label for c in entry.cards]
    tie = rf"(?:; equal choices between (?:the {L} \([^)]*\)(?: and )?)+: it rolls [1-6](?:, then [1-6])* → the {L} \(HR-CMP-1\))?"
    dummy_why = (rf"(?: — decisive, so the stake and the highest pool card \(CMP-9, CMP-10\){tie}"
                 rf"| — the highest card it may take \(CMP-9, CMP-10\){tie})?")
    patterns = {
        "CMP-1": [rf"Six hidden cards dealt to each player(?: \(the dummy's cards stay hidden, CMP-9\))?; the pool: "
                  rf"{L} {L} {L} {L}",
                  r"With your own deck: six cards dealt to each player(?: \(the dummy's face down: nobody looks at "
                  r"them, CMP-9\))? and four face up to the pool; the hands stay in the players' hands",
                  rf"The pool as dealt: {L} {L} {L} {L}"],
        "CMP-2": [rf"Battle {entry.battle}: {re.escape(a)} stakes the {L}, {re.escape(b)} stakes the {L} "
                  r"\((?:picked at random|dealt at random for the dummy \(CMP-9\)|turned up at random from each hand"
                  r"|turned up at random from each hand; the dummy's dealt at random \(CMP-9\))\)"
                  rf"(?:; last card for {who}(?: and {who})?: losing it loses the campaign)?",
                  rf"{who} lost the last card — {who} wins the campaign after {entry.battle} battles?\."],
        "CMP-3": [rf"Battle {entry.battle}: {who} wins — (?:a decisive victory \((?:[89]|\d\d+) troop points left, 8 or "
                  r"more\)|a victory, not decisive \((?:1 troop point|[02-7] troop points) left, under 8\))"],
        "CMP-4": [rf"{who} takes {who}'s stake, the {L}{dummy_why}", rf"{who} takes the {L} from the pool{dummy_why}",
                  rf"The {L} is drawn from the deck into the pool"],
        "CMP-5": [rf"Stakes back to their owners: the {L} to {who}(?:, the {L} to {who})?",
                  rf"Battle {entry.battle} is drawn: no card moves; it counts as a battle fought \(CMP-11\)"],
        "CMP-6": [r"Exhaustion roll after battle (\d+)(?: \(your dice\))?: ([1-6]) and ([1-6]), lower ([1-6]) \+ (\d+) "
                  r"battles = (\d+) \((≥|<) 9\): (both sides are exhausted and go to the negotiating table|the war "
                  r"goes on)",
                  r"No exhaustion roll after battle (\d+): it cannot fail — even a 1 on the lower die makes 1 \+ (\d+) "
                  r"battles = (\d+), 9 or more\. Both sides are exhausted and go to the negotiating table"],
        "CMP-7": [rf"At the table {who} draws {L}(?: {L})* — up to five",
                  rf"At the table {who} lays down \d+ cards?:(?: {L})+"],
        "CMP-9": [rf"At the table {who} draws {L}(?: {L})* — (?:up to five \(CMP-7\) and one extra card|one extra card)"],
        "CMP-8": [rf"{who}: .+", rf"{who}'s .+ beats {who}'s .+ — .+ ranks? above .+\.",
                  rf"Both hold .+; {who}'s .+ beats {who}'s .+ — the highest cards break the tie \(\w+ against \w+\)\.",
                  rf"Equal hands — {who} and {who} both hold .+\. Suits never break ties: the campaign is a draw\."],
    }
    match = next((m for m in (re.fullmatch(p, text) for p in patterns[rule]) if m), None)
    assert match, (rule, text)
    if rule != "CMP-8":
        assert sorted(labels(text.split(" — ")[0] if "equal choices" in text else text)) == sorted(shown) or \
            (rule == "CMP-2" and "lost the last card" in text), (text, shown)
    if rule == "CMP-6" and text.startswith("Exhaustion roll"):
        battles, first, second, lower, plus, total, sign, verdict = match.groups()
        assert battles == plus and int(lower) == min(int(first), int(second))
        assert int(total) == int(lower) + int(battles)
        assert (sign == "≥") == (int(total) >= 9) == verdict.startswith("both sides")
    if rule == "CMP-9":  # the dummy's draws: up to five first only when it was short of five
        assert text.endswith("up to five (CMP-7) and one extra card" if len(shown) > 1 else "— one extra card")
    if rule == "CMP-3":  # decisive from 8 troop points (CMP-3)
        troops = int(re.search(r"\((\d+) troop", text).group(1))
        assert ("a decisive victory" in text) == (troops >= 8)
    if rule == "CMP-6" and text.startswith("No exhaustion roll"):
        battles, plus, total = match.groups()
        assert battles == plus and int(total) == 1 + int(battles) >= 9


def narrated(game) -> None:
    state = replay(game)
    names = state.players
    for entry in state.log:
        check_log_line(state, entry, names)
        assert entry.text[:1] == entry.text[:1].upper()
    if state.treaty is not None:  # CMP-8: each best hand, then the verdict, in the treaty's words
        hands = [e for e in state.log if e.rule == "CMP-8"]
        assert [e.text for e in hands[:2]] == [f"{names[p]}: {state.treaty.hands[p]}" for p in (0, 1)]
        assert [e.cards for e in hands[:2]] == [state.treaty.hands[p].cards for p in (0, 1)]
        verdict = state.treaty.explanation.removeprefix("CMP-8: ")
        assert hands[2].text == verdict[:1].upper() + verdict[1:]
    return state


@pytest.mark.parametrize("dummy", [False, True])
def test_every_log_line_says_what_its_clause_says(dummy):
    """CMP-1 … CMP-11 and HR-CMP-1: every line of the log of many seeded campaigns is the
    sentence of its clause, names exactly the cards it moved, and adds its roll right."""
    from tests.engine.test_campaign_referee import advance

    rules_seen = set()
    for seed in range(14):
        game = advance(new(seed=seed, dummy=dummy, names=("Anna", "Ben")), random.Random(seed), limit=80)
        state = narrated(game)
        rules_seen |= {e.rule for e in state.log}
    assert rules_seen >= {"CMP-1", "CMP-2", "CMP-3", "CMP-4", "CMP-5", "CMP-6", "CMP-8"}


@pytest.mark.parametrize("dummy", [False, True])
def test_every_log_line_of_a_game_with_your_own_deck_says_what_its_clause_says(dummy):
    """The same with the players' own deck (issue 18): the entries are logged in the words of
    their clauses."""
    from tests.engine.test_campaign_table import play_real

    for seed in range(5):
        game, _ = play_real(seed, dummy)
        narrated(game)


# ---------------------------------------------------------------- refusals a caller can read

_STATE = replay(new())
_H1, _H2 = (cmp.best_hand(DECK[:5]), cmp.best_hand(DECK[5:10]))
def _ROLL():
    return 1
NO_CARD = ' (ranks are 2–10, T, J, Q, K, A; suits S, H, D, C)'

REFUSALS = [
    (cmp.is_decisive, ("9",), "CMP-12: Troop points must be a whole number from 0 to 999 (got '9')"),
    (cmp.is_decisive, (1000,), "CMP-12: Troop points must be a whole number from 0 to 999 (got 1000)"),
    (cmp.exhaustion_chance, ("3",), "The number of battles must be a whole number 0 or more (got '3')"),
    (cmp.exhaustion_chance, (-1,), "The number of battles must be a whole number 0 or more (got -1)"),
    (cmp.exhaustion_chance, (-10**13,), "The number of battles must be a whole number 0 or more (got a huge number)"),
    (cmp.exhaustion_odds_text, (None,), "The number of battles must be a whole number 0 or more (got None)"),
    (cmp.die_choice, ("2", 3), "The number of choices must be a whole number from 1 to 6 (got '2')"),
    (cmp.die_choice, (0, 3), "The number of choices must be a whole number from 1 to 6 (got 0)"),
    (cmp.die_choice, (7, 3), "The number of choices must be a whole number from 1 to 6 (got 7)"),
    (cmp.die_choice, (2, 7), "A die must be a whole number from 1 to 6 (got 7)"),
    (cmp.die_choice, (2, 0), "A die must be a whole number from 1 to 6 (got 0)"),
    (cmp.die_choice, (2, True), "A die must be a whole number from 1 to 6 (got True)"),
    (cmp.dummy_pick, (None, _ROLL), "The dummy's candidates must be a list of (where, card) pairs"),
    (cmp.dummy_pick, ("KS", _ROLL), "The dummy's candidates must be a list of (where, card) pairs"),
    (cmp.dummy_pick, ({}, _ROLL), "The dummy's candidates must be a list of (where, card) pairs"),
    (cmp.dummy_pick, (5, _ROLL), "The dummy's candidates must be a list of (where, card) pairs"),
    (cmp.dummy_pick, ([], _ROLL), "The dummy chooses among 1 to 6 cards (got 0)"),
    (cmp.dummy_pick, ([("pool", c) for c in "2S 3S 4S 5S 6S 7S 8S".split()], _ROLL),
     "The dummy chooses among 1 to 6 cards (got 7)"),
    (cmp.dummy_pick, ([("pool",)], _ROLL), "A candidate is a (where, card) pair (got ('pool',))"),
    (cmp.dummy_pick, ([(1, "KS")], _ROLL), "A candidate is a (where, card) pair (got (1, 'KS'))"),
    (cmp.dummy_pick, (["KS"], _ROLL), "A candidate is a (where, card) pair (got 'KS')"),
    (cmp.dummy_pick, ([("pool", "ZZ")], _ROLL), "The dummy's candidates: Not a card: \"ZZ\"" + NO_CARD),
    (cmp.dummy_pick, ([("pool", "KS"), ("pool", "ks")], _ROLL),
     "The dummy's candidates: The K♠ is given twice (one deck has one of each card)"),
    (cmp.dummy_pick, ([("pool", "KS"), ("pool", "KH")], None), "roll_die must be a function that rolls one d6"),
    (cmp.dummy_pick, ([("p", "KS"), ("p", "KH"), ("p", "KD"), ("p", "KC")], lambda: 6),
     "roll_die gave no usable roll in 200 tries"),
    (cmp.treaty_odds, (None, []), "The player's cards: give a list of cards (got None)"),
    (cmp.treaty_odds, ([], None), "The unseen cards: give a list of cards (got None)"),
    (cmp.treaty_odds, (["XX"], []), "The player's cards: Not a card: \"XX\"" + NO_CARD),
    (cmp.treaty_odds, (["KS", "AS"], ["as", "ks"]), "The K♠ cannot be both the player's and unseen"),
    (cmp.treaty_odds, (["AS"], DECK[1:3]), "Not enough unseen cards to draw 4 (there are 2)"),
    (cmp.compare_hands, (None, _H2, ("A", "B")), "compare_hands takes two poker hands (engine.poker.best_hand)"),
    (cmp.compare_hands, (_H1, "pair", ("A", "B")), "compare_hands takes two poker hands (engine.poker.best_hand)"),
    (cmp.compare_hands, (_H1, _H2, "AB"), "compare_hands needs the two players' names"),
    (cmp.compare_hands, (_H1, _H2, ("A", "")), "compare_hands needs the two players' names"),
    (cmp.compare_hands, (_H1, _H2, ("A", "B", "C")), "compare_hands needs the two players' names"),
    (cmp.compare_hands, (_H1, _H2, ("A", 2)), "compare_hands needs the two players' names"),
    (cmp.normalize_setup, (None,), "The setup must be an object with named fields"),
    (cmp.normalize_setup, ({"players": "AB"},), "CMP-1: a campaign has two players (or one player and the dummy)"),
    (cmp.treaty_chances, (_STATE, 2), "Players are 0 and 1 (got 2)"),
    (cmp.visible_cards, (_STATE, "0"), "Players are 0 and 1 (got '0')"),
    (cmp.player_cards, (_STATE, True), "Players are 0 and 1 (got True)"),
    (cmp.table_draws, (_STATE, 3), "Players are 0 and 1 (got 3)"),
    (cmp.public_game, (None,), "public_game takes a campaign game"),
    (cmp.public_game, (games.Game("conflict", 1, {}, {}),), "public_game takes a campaign game"),
    (cmp.upgrade, (None,), "upgrade takes a saved game as a dict"),
    (cmp.undo_warning, (None, 0), "undo_warning takes a campaign game"),
    (cmp.status, (None,), "Not a campaign state: NoneType (replay a campaign game to get one)"),
    (cmp.standing, (5,), "Not a campaign state: int (replay a campaign game to get one)"),
    (cmp.deck_left, (None,), "Not a campaign state: NoneType (replay a campaign game to get one)"),
    (cmp.start, ({"players": ["A", "B"]}, None, None),
     "This step deals or rolls: it needs the game's random generator (random.Random)"),
    (cmp.start, ({"players": ["A", "B"]}, [1], random.Random(1)),
     "The rules settings must be an object (the campaign has no variants)"),
    (cmp.check_entry, (_STATE, "table", "AS"), "An entry is one of pool, stake, refill, hand, drawn (got 'table')"),
    (cmp.check_entry, (_STATE, "pool", "ZZ"), "The card: Not a card: \"ZZ\"" + NO_CARD),
    (cmp.check_entry, (_STATE, "pool", "AS", 0, None), "The cards chosen: give a list of cards (got None)"),
    (cmp.can_enter, (_STATE, "table", "AS"), "An entry is one of pool, stake, refill, hand, drawn (got 'table')"),
    (cmp.can_enter, (_STATE, "pool", "AS", 0, None), "The cards chosen: give a list of cards (got None)"),
]


@pytest.mark.parametrize("fn,args,message", REFUSALS,
                         ids=[f"{fn.__name__}-{i}" for i, (fn, _, _) in enumerate(REFUSALS)])
def test_public_functions_say_exactly_what_is_wrong(fn, args, message):
    """Every public function refuses a bad argument with a ValueError whose message a player
    or a Python user can act on (issue 20: one bad-input contract)."""
    with pytest.raises(ValueError) as refused:
        fn(*args)
    assert str(refused.value) == message


@pytest.mark.parametrize("kwargs,message", [
    ({"hidden": -1}, "The number of hidden cards must be a whole number from 0 to 7 (got -1)"),
    ({"hidden": "2"}, "The number of hidden cards must be a whole number from 0 to 7 (got '2')"),
    ({"extra": 8}, "The number of extra cards must be a whole number from 0 to 7 (got 8)"),
    ({"hidden": 4, "extra": 4}, "The odds are worked out for at most 7 cards drawn at random (these would draw 8)"),
    ({"hidden": 2, "extra": 5}, "The odds are worked out for at most 7 cards drawn at random (these would draw 8)"),
    ({"hidden": 0, "extra": 5}, "The odds are worked out for at most 7 cards drawn at random (these would draw 8)"),
])
def test_treaty_odds_refuse_counts_out_of_range(kwargs, message):
    """CMP-7/CMP-9: the odds take at most seven cards drawn at random (the dummy's six)."""
    with pytest.raises(cmp.CampaignError) as refused:
        cmp.treaty_odds(DECK[:2], DECK[2:20], **kwargs)
    assert str(refused.value) == message


# ---------------------------------------------------------------- setups

P4 = ["AS", "KS", "QS", "JS"]
FIVE = [["2S", "3S", "4S", "5S", "6S"], ["2H", "3H", "4H", "5H", "6H"]]


@pytest.mark.parametrize("setup,message", [
    ({"dummy": 1}, "Setup: 'dummy' must be true (solo against the dummy, CMP-9) or false"),
    ({"deck": 5}, 'Setup: \'deck\' is "app" (the app\'s deck and dice) or "table" (your own)'),
    ({"legacy": ["x"]}, "Setup: 'legacy' lists earlier readings kept for an old game (refill-end, certain-roll)"),
    ({"legacy": "refill-end"}, "Setup: 'legacy' lists earlier readings kept for an old game (refill-end, certain-roll)"),
    ({"legacy": ["refill-end", "refill-end"]},
     "Setup: 'legacy' lists earlier readings kept for an old game (refill-end, certain-roll)"),
    ({"reveal": 5}, "Setup: 'reveal' must be an object"),
    ({"reveal": {"pool": P4, "x": 1}}, "Setup: 'reveal' has an unknown field 'x'"),
    ({"reveal": {"pool": "AS"}}, "Setup: the revealed pool must be a list of cards"),
    ({"reveal": {"pool": P4[:3]}}, "Setup: the revealed pool must hold 4 cards (got 3)"),
    ({"reveal": {"pool": P4[:3] + ["ZZ"]}}, 'Setup: the revealed pool: Not a card: "ZZ"' + NO_CARD),
    ({"reveal": {"pool": P4, "stakes": 5}}, "Setup: the revealed stakes must be a list (at most 100 battles)"),
    ({"reveal": {"pool": P4, "stakes": [["2S", "3S"]] * 101}},
     "Setup: the revealed stakes must be a list (at most 100 battles)"),
    ({"reveal": {"pool": P4, "stakes": [["2S"]]}}, "Setup: the stakes of battle 1 must hold 2 cards (got 1)"),
    ({"reveal": {"pool": P4, "stakes": [["2S", "3S"], ["2S", "2s"]]}}, "Setup: the stakes of battle 2 lists a card twice"),
    ({"reveal": {"pool": P4, "refills": ["2S"] * 49}}, "Setup: the revealed pool refills hold at most 48 cards"),
    ({"reveal": {"pool": P4, "refills": "2S"}}, "Setup: the revealed pool refills must be a list of cards"),
    ({"reveal": {"pool": P4, "dice": "66"}}, "Setup: the revealed dice must be a list of numbers from 1 to 6"),
    ({"reveal": {"pool": P4, "dice": [True]}}, "Setup: the revealed dice must be a list of numbers from 1 to 6"),
    ({"reveal": {"pool": P4, "dice": [0]}}, "Setup: the revealed dice must be a list of numbers from 1 to 6"),
    ({"reveal": {"pool": P4, "dice": [1] * 1001}}, "Setup: the revealed dice must be a list of numbers from 1 to 6"),
    ({"reveal": {"pool": P4, "table": [["2S"]]}}, "Setup: the revealed table must hold two lists of cards"),
    ({"reveal": {"pool": P4, "table": FIVE}}, "Setup: the revealed table needs both its cards and its draws"),
    ({"reveal": {"pool": P4, "drawn": [[], []]}}, "Setup: the revealed table needs both its cards and its draws"),
    ({"reveal": {"pool": P4, "drawn": 5}}, "Setup: the revealed drawn must hold two lists of cards"),
    ({"reveal": {"pool": P4, "table": [FIVE[0][:4], FIVE[1]], "drawn": [[], []]}},
     "Setup: at the revealed table each player holds five cards or more"),
    ({"reveal": {"pool": P4, "table": [FIVE[0], FIVE[1][:4]], "drawn": [[], []]}},
     "Setup: at the revealed table each player holds five cards or more"),
    ({"reveal": {"pool": P4}, "spectator": False},
     "Setup: 'spectator' is true exactly for a spectator's copy (the one with 'reveal')"),
    ({"spectator": True}, "Setup: 'spectator' is true exactly for a spectator's copy (the one with 'reveal')"),
    ({"reveal": {"pool": P4}, "spectator": 1},
     "Setup: 'spectator' is true exactly for a spectator's copy (the one with 'reveal')"),
    ({"deck": "table", "reveal": {"dice": [7]}}, "Setup: the revealed dice must be a list of numbers from 1 to 6"),
    ({"deck": "table", "reveal": {"pool": P4}},
     "Setup: 'reveal' of a game with your own deck holds only the dice the app rolled (not 'pool')"),
    ({"deck": "table", "reveal": 5}, "Setup: 'reveal' must be an object"),
])
def test_setups_that_cannot_be_played_are_refused_naming_the_field(setup, message):
    """A setup (typed, or carried by a link or a spectator's copy) that cannot be a campaign is
    refused with the field and what it must be (CMP-1, CMP-9, issue 18, issue 20)."""
    with pytest.raises(cmp.SetupError) as refused:
        cmp.normalize_setup({"players": ["A", "B"], **setup})
    assert str(refused.value) == message


def test_setups_are_made_canonical():
    """Empty names take their defaults (the dummy's is "Dummy", CMP-9); card tokens, the
    legacy list and the spectator flag take one form."""
    assert cmp.normalize_setup({"players": ["  ", None], "dummy": True}) == \
        {"players": ["Player 1", "Dummy"], "dummy": True}
    assert cmp.normalize_setup({"players": ["", ""]}) == {"players": ["Player 1", "Player 2"], "dummy": False}
    assert cmp.normalize_setup({"players": ["A", "B"], "reveal": {"pool": ["as", "ks", "qs", "js"]}}) == {
        "players": ["A", "B"], "dummy": False, "spectator": True,
        "reveal": {"pool": P4, "stakes": [], "refills": [], "dice": []}}
    assert cmp.normalize_setup({"players": ["A", "B"], "reveal": {"pool": P4, "table": FIVE, "drawn": [[], []],
                                                                  "stakes": [["2d", "3d"]]}})["reveal"] == {
        "pool": P4, "stakes": [["2D", "3D"]], "refills": [], "dice": [], "table": FIVE, "drawn": [[], []]}
    assert cmp.normalize_setup({"players": ["A", "B"], "legacy": ["refill-end", "certain-roll"]})["legacy"] == \
        ["certain-roll", "refill-end"]
    assert cmp.normalize_setup({"players": ["A", "B"], "deck": "table", "reveal": {}}) == {
        "players": ["A", "B"], "dummy": False, "deck": "table", "reveal": {"dice": []}, "spectator": True}
    assert cmp.normalize_setup({"players": ["A", "B"], "reveal": None, "legacy": []}) == \
        {"players": ["A", "B"], "dummy": False}
    assert cmp.equipment({"deck": "table"}) == cmp.DECKS["table"] and cmp.equipment({}) == cmp.DECKS["app"]
    assert cmp.equipment({"deck": "x"}, {}) == cmp.DECKS["app"]


# ---------------------------------------------------------------- the spoils (CMP-4)


def spoils_game(winner: int, troops: int, dummy: bool = False):
    game = apply(new(dummy=dummy), {"type": "battle", "winner": winner, "troops": troops})
    return game, replay(game)


def test_cmp_4_spoils_refusals_say_what_the_winner_may_take():
    """CMP-4: not decisive — the stake *or* one pool card, and one must be taken; decisive —
    the stake *and* one pool card; a pool card must be in the pool."""
    game, state = spoils_game(0, 1)
    pool = " ".join(c.label for c in state.pool)
    absent = next(c for c in DECK if c not in state.pool)
    refusals = [
        ({"type": "take", "stake": True, "pool": str(state.pool[0])},
         "CMP-4: a victory that is not decisive (1 troop point, under 8) takes Ben's stake or one pool card, not both"),
        ({"type": "take"}, "CMP-4: Anna must take Ben's stake or one pool card (a card never makes a hand worse)"),
        ({"type": "take", "stake": False, "pool": None},
         "CMP-4: Anna must take Ben's stake or one pool card (a card never makes a hand worse)"),
        ({"type": "take", "pool": str(absent)}, f"CMP-4: the {absent.label} is not in the pool ({pool})"),
    ]
    for action, message in refusals:
        with pytest.raises(RuleError) as refused:
            apply(game, action)
        assert str(refused.value) == message
    game, state = spoils_game(1, 9)
    for action in ({"type": "take", "stake": True}, {"type": "take", "pool": str(state.pool[0])}, {"type": "take"}):
        with pytest.raises(RuleError) as refused:
            apply(game, action)
        assert str(refused.value) == ("CMP-4: after a decisive victory Ben takes Anna's stake and one pool card: "
                                      "choose both")
    assert cmp.spoils_choices(state) == {"winner": 1, "troops": 9, "decisive": True, "stake": state.stakes[0],
                                         "pool": state.pool, "both": True}
    assert cmp.spoils_choices(replay(new())) == {}


@pytest.mark.parametrize("take_stake", [True, False])
def test_cmp_4_cmp_5_the_spoils_move_exactly_the_cards_taken(take_stake):
    """CMP-4/CMP-5: the winner gets what was taken (and keeps the own stake), the loser gets the
    own stake back unless it was taken; a pool card taken is replaced in its place from the top
    of the deck."""
    game, state = spoils_game(0, 3)
    stake0, stake1 = state.stakes
    at = 2
    card = state.pool[at]
    action = {"type": "take", "stake": True} if take_stake else {"type": "take", "pool": str(card)}
    after = replay(apply(game, action))
    won = stake1 if take_stake else card
    assert set(after.cards_of(0)) == set(state.cards_of(0)) | {won}
    assert set(after.cards_of(1)) == set(state.cards_of(1)) - ({stake1} if take_stake else set())
    assert [after.card_count(p) for p in (0, 1)] == [7, 5 if take_stake else 6]
    assert {won, stake0} - {after.stakes[0]} <= set(after.known[0]) | {after.stakes[0]}
    assert after.stakes != state.stakes and after.battle == 2  # the next battle's stakes are out
    if take_stake:
        assert after.pool == state.pool
    else:
        assert after.pool == state.pool[:at] + (state.deck[0],) + state.pool[at + 1:]
        assert after.log[[e.rule for e in after.log].index("CMP-4", len(state.log)) + 2].cards == (state.deck[0],)


# ---------------------------------------------------------------- entering your own deck's cards


def test_check_entry_says_why_a_card_cannot_be_entered_now():
    """Issue 18 (CMP-2, CMP-4, CMP-7): each card once — a card seen face up cannot turn up as
    another stake, new pool card, hand or draw; the table greys it out with the reason."""
    from tests.engine.test_campaign_table import refusal

    state = replay(table_game())
    assert state.phase == "stakes" and cmp.deck_left(state) == 52 - 12 - 4
    expect = [
        ("pool", "AS", 0, (), None),
        ("stake", "AS", 0, (), "CMP-2: the A♠ cannot be Anna's stake: it is in the pool"),
        ("stake", "3S", 1, ("3s",), "the 3♠ is entered already: tap it again to take it back"),
        ("stake", "4S", 1, ("3S",), None),
        ("refill", "KH", 0, (), "CMP-4: the K♥ cannot be the new pool card: it is in the pool; a deck has one of "
                                "each card"),
        ("refill", "9C", 0, (), None),
        ("hand", "AS", 1, (), "CMP-7: the A♠ cannot be in Ben's hand: it is in the pool"),
        ("hand", "9C", 1, (), None),
        ("drawn", "7D", 0, (), "CMP-7: the 7♦ cannot be drawn from the deck: it is in the pool"),
        ("drawn", "9C", 0, (), None),
    ]
    for what, card, player, chosen, message in expect:
        assert refusal(state, what, card, player, chosen) == message, (what, card)
    game = apply(table_game(), {"type": "stakes", "stakes": ["QS", "3H"]})
    state = replay(game)
    assert cmp.deck_left(state) == 36 and cmp.table_draws(state, 0) == 0
    assert refusal(state, "stake", "QS", 1) == "CMP-2: the Q♠ cannot be Ben's stake: it is Anna's stake"
    assert refusal(state, "drawn", "3H", 1) == "CMP-7: the 3♥ cannot be drawn from the deck: it is Ben's stake"
    game = apply(apply(game, {"type": "battle", "winner": 0, "troops": 9}), {"type": "take", "stake": True, "pool": "KH"})
    state = replay(game)
    assert state.phase == "refill" and state.refill_at == 1
    assert refusal(state, "refill", "3H", 0) == ("CMP-4: the 3♥ cannot be the new pool card: it is in "
                                                           "Anna's hand (it was seen face up); a deck has one of each card")
    assert refusal(state, "hand", "3H", 0) is None  # seen in Anna's hand: it is hers
    assert refusal(state, "hand", "3H", 1) == ("CMP-7: the 3♥ cannot be in Ben's hand: it is in Anna's "
                                                         "hand (it was seen face up)")
    game = apply(game, {"type": "refill", "card": "9C"})
    state = replay(game)
    assert state.pool == cards("AS 9C 7D 2C") and state.refill_at is None
    # Anna 8 cards (the K♥ and Ben's 3♥ won), Ben 5: the deck holds 52 - 8 - 5 - 4.
    assert [state.card_count(p) for p in (0, 1)] == [8, 5] and cmp.deck_left(state) == 52 - 13 - 4


def exhausted_table_game(dummy: bool = False):
    """Own deck: three drawn battles, then the dice 6 and 6 (lower 6 + 3 = 9: exhausted)."""
    game = table_game(dummy)
    for _ in range(3):
        game = apply(stakes(game), {"type": "battle", "winner": None})
    return apply(game, {"type": "roll", "dice": [6, 6]})


@pytest.mark.parametrize("dummy", [False, True])
def test_cmp_7_cmp_9_each_hand_laid_down_is_checked_and_said_why(dummy):
    """CMP-7 (CMP-9 for the dummy): in player order, all of a player's cards, the ones seen in
    that hand among them, none seen elsewhere; the draws are exactly what the table draws."""
    game = exhausted_table_game(dummy)
    state = replay(game)
    assert state.phase == "exhausted" and state.counts == (6, 6)
    mine = [str(c) for c in state.known[0]]
    fresh = unseen(state, 12)
    hand0 = mine + fresh[:6 - len(mine)]
    refusals = [
        ({"type": "lay", "player": 1, "hand": []}, "CMP-7: Anna lays down first: the negotiating table goes in player order"),
        ({"type": "lay", "player": 0, "hand": hand0[:5]}, "CMP-7: Anna holds 6 cards: lay down all of them (5 entered)"),
        ({"type": "lay", "player": 0, "hand": hand0[1:] + [fresh[6]]},
         f"CMP-7: the {parse_card(mine[0]).label} is in Anna's hand (it was seen face up): lay it down too"),
        ({"type": "lay", "player": 0, "hand": hand0[:-1] + ["AS"]}, "CMP-7: the A♠ cannot be in Anna's hand: it is in the pool"),
        ({"type": "lay", "player": 0, "hand": hand0, "drawn": [fresh[7]]},
         "CMP-7: Anna holds 6 cards: with five or more nobody draws at the table"),
    ]
    for action, message in refusals:
        with pytest.raises(RuleError) as refused:
            apply(game, action)
        assert str(refused.value) == message
    game = apply(game, {"type": "lay", "player": 0, "hand": hand0})
    state = replay(game)
    assert cmp.status(state) == "Both sides are exhausted: Ben lays the cards down at the negotiating table (CMP-7)"
    theirs = [str(c) for c in state.known[1]]
    fresh = unseen(state, 12)
    hand1 = theirs + fresh[:6 - len(theirs)]
    extra = [fresh[6]] if dummy else []
    refusals = [
        ({"type": "lay", "player": 0, "hand": hand0}, "CMP-7: Anna's cards are down already"),
        ({"type": "lay", "player": 1, "hand": hand1[:-1] + [hand0[-1]], "drawn": extra},
         f"CMP-7: the {parse_card(hand0[-1]).label} cannot be in Ben's hand: it is laid down by Anna at the "
         "negotiating table"),
    ]
    if dummy:
        refusals += [
            ({"type": "lay", "player": 1, "hand": hand1}, "CMP-9: Ben draws 1 card at the table (one extra card), not 0"),
            ({"type": "lay", "player": 1, "hand": hand1, "drawn": [fresh[6], fresh[7]]},
             "CMP-9: Ben draws 1 card at the table (one extra card), not 2"),
            ({"type": "lay", "player": 1, "hand": hand1, "drawn": [hand1[0]]},
             f"CMP-9: the {parse_card(hand1[0]).label} is in Ben's hand: it cannot be drawn from the deck too"),
            ({"type": "lay", "player": 1, "hand": hand1, "drawn": ["AS"]},
             "CMP-9: the A♠ cannot be drawn from the deck: it is in the pool"),
            ({"type": "lay", "player": 1, "hand": hand1, "drawn": [hand0[-1]]},
             f"CMP-9: the {parse_card(hand0[-1]).label} cannot be drawn from the deck: it is laid down by Anna at the "
             "negotiating table"),
        ]
    else:
        refusals.append(({"type": "lay", "player": 1, "hand": hand1, "drawn": [fresh[6]]},
                         "CMP-7: Ben holds 6 cards: with five or more nobody draws at the table"))
    for action, message in refusals:
        with pytest.raises(RuleError) as refused:
            apply(game, action)
        assert str(refused.value) == message, action
    done = replay(apply(game, {"type": "lay", "player": 1, "hand": hand1, "drawn": extra}))
    assert done.phase == "over" and done.treaty is not None
    assert done.treaty.cards[1] == tuple(sorted(cards(" ".join(hand1 + extra)), key=lambda c: (-int(c.rank),
                                                                                               c.sort_key[0])))
    assert done.treaty.drawn == ((), cards(" ".join(extra)))
    assert done.counts == (6, 6 + len(extra)) and cmp.deck_left(done) == 52 - 12 - len(extra) - 4


@pytest.mark.parametrize("dummy,held,need,why", [
    (False, 3, 2, "up to five"), (True, 2, 4, "up to five, then one extra card"), (True, 5, 1, "one extra card"),
])
def test_cmp_7_cmp_9_a_short_hand_draws_up_to_five_and_the_dummy_one_more(dummy, held, need, why):
    """CMP-7: fewer than five cards draw up to five; CMP-9 (ruling): the dummy then draws its extra
    card; a wrong number of draws is refused saying how many."""
    state = replay(exhausted_table_game(dummy))
    player = 1 if dummy else 0
    name = state.name(player)
    state = replace(state, counts=at(state.counts, player, held),
                    known=at(state.known, player, state.known[player][:min(held, 3)]))
    if player == 1:
        laid = cards("9H 9D 9C 8H 8D 8C")
        state = replace(state, laid=((laid, ()),), seen=state.seen | set(laid))
    assert cmp.table_draws(state, player) == need
    hand = [str(c) for c in state.known[player]] + unseen(state, held - len(state.known[player]))
    drawn = [c for c in unseen(state, 20) if c not in hand]
    rule = "CMP-9" if dummy else "CMP-7"
    with pytest.raises(RuleError) as refused:
        cmp.normalize_action(state, {"type": "lay", "player": player, "hand": hand, "drawn": drawn[:need + 1]})
    noun = "card" if need == 1 else "cards"
    assert str(refused.value) == f"{rule}: {name} draws {need} {noun} at the table ({why}), not {need + 1}"
    ok = cmp.normalize_action(state, {"type": "lay", "player": player, "hand": hand, "drawn": drawn[:need]})
    assert len(ok["drawn"]) == need


# ---------------------------------------------------------------- treaty odds against every draw


def brute_odds(own, unseen, hidden=0, extra=0):
    """CMP-7/CMP-9 by enumeration: every set of random cards equally likely, best hand of all."""
    from collections import Counter
    from fractions import Fraction
    from itertools import combinations

    k = hidden + max(0, 5 - len(own) - hidden) + extra
    counts = Counter(cmp.best_hand(list(own) + list(x)).category for x in combinations(unseen, k))
    total = sum(counts.values())
    return {name: Fraction(n, total) for name, n in counts.items()}


def test_treaty_odds_match_every_draw_in_flush_and_straight_heavy_decks():
    """CMP-7/CMP-8/CMP-9: exact odds for hands near a flush, a straight and a straight flush —
    one or two suits in play, runs of ranks, cards held hidden and extra cards drawn — equal
    the enumeration of every draw."""
    rng = random.Random(8)
    suits = list(Suit)
    checked = 0
    for case in range(90):
        lean = rng.sample(suits, rng.choice([1, 2]))
        low = rng.randint(2, 9)
        run = [r for r in range(low, low + 6)]
        pool = [Card(Rank(r), s) for r in run for s in lean] + rng.sample(DECK, 6)
        pool = list(dict.fromkeys(pool))
        rng.shuffle(pool)
        held = rng.randint(0, 4)
        hidden = rng.choice([0, 0, 1, 2])
        extra = rng.choice([0, 1, 1, 2])
        own, unseen = pool[:held], pool[held:held + 11]
        k = hidden + max(0, 5 - held - hidden) + extra
        if k == 0 or k > len(unseen) or k > 5:
            continue
        assert cmp.treaty_odds(own, unseen, hidden=hidden, extra=extra) == brute_odds(own, unseen, hidden, extra), \
            ([str(c) for c in own], [str(c) for c in unseen], hidden, extra)
        checked += 1
    assert checked > 60


@pytest.mark.parametrize("own,unseen,extra", [
    ("2S 3S 4S 5S", "6S 7S AS KH 6H", 0),          # five cards: a straight flush or a flush or a straight
    ("2S 3S 4S 5S", "6S 7S AS KH 6H", 1),
    ("9H 10H JH", "QH KH 8H 7H 2C 3C", 0),
    ("", "KS QS JS 10S 9S 8S 7D", 0),
    ("", "AH KH QH JH 10H 9D 9C", 1),
    ("2S 3S 4H 5H", "6S 7S 6H 7H 8S 8H AD", 1),    # two suits near a straight flush each
    ("KD", "AD QD JD 10D 9D 2C 3C 4C 5C", 0),
    ("2S 3S 4S 5S 6S", "7S AS KH 9D 2C", 1),        # five held already a straight flush, one extra card
    ("2S 3S 4S 5S 6S 9H", "7S AS KH 9D 2C", 2),
    ("2S 3S 4S 5S 7S KD", "6S AS KH 9D 2C", 1),     # the extra card may complete it
    ("2H 3H 4H 5H 3D 4D 5D 6D 9C", "6H 7D 2D 7H AH KD QC 5C 6C 7C 8C 10C", 2),  # two flushes, no spade
    ("2H 3H 4H 5H 3D 4D 5D 6D 9C", "6H 7D 2D 7H AH KD QC 5C 6C 7C 8C 10C", 3),
])
def test_treaty_odds_straight_flush_paths_match_every_draw(own, unseen, extra):
    """CMP-8: a straight flush counts once, above the flush and the straight it also is."""
    own, unseen = cards(own), cards(unseen)
    odds = cmp.treaty_odds(own, unseen, extra=extra)
    assert odds == brute_odds(own, unseen, 0, extra)
    assert list(odds) == [c for c in cmp.CATEGORIES if c in odds]  # in CATEGORIES order


# ---------------------------------------------------------------- the verdict in words (CMP-8)


def hand(text):
    return cmp.best_hand(parse_cards(text))


@pytest.mark.parametrize("first,second,winner,text", [
    ("KS KD 7H 7C AS", "KH KC 7S 7D QS", 0,
     "CMP-8: both hold two pairs; Anna's two pairs, kings and sevens, ace kicker beats Ben's two pairs, kings and "
     "sevens, queen kicker — the highest cards break the tie (ace against queen)."),
    ("KS KD 7H 7C AS", "KH KC 7S 7D AD", None,
     "CMP-8: equal hands — Anna and Ben both hold two pairs, kings and sevens, ace kicker. Suits never break ties: "
     "the campaign is a draw."),
    ("9S 9D 9H AC AS", "10S 10D 10H 2C 2D", 1,
     "CMP-8: both hold a full house; Ben's full house, tens over twos beats Anna's full house, nines over aces — the "
     "highest cards break the tie (ten against nine)."),
    ("2S 2H 3D 3C 4S", "AS AH KD QC JS", 0,
     "CMP-8: Anna's two pairs, threes and twos, four kicker beats Ben's pair of aces, king, queen and jack kickers — "
     "two pairs rank above a pair."),
    ("AS AH KD QC JS", "2S 2H 3D 3C 4S", 1,
     "CMP-8: Ben's two pairs, threes and twos, four kicker beats Anna's pair of aces, king, queen and jack kickers — "
     "two pairs rank above a pair."),
    ("2S 2H 2D 3C 4S", "AS AH KD KC QS", 0,
     "CMP-8: Anna's three of a kind, twos, four and three kickers beats Ben's two pairs, aces and kings, queen kicker "
     "— a three of a kind ranks above two pairs."),
    ("QS QD 9H 5C 3S", "QH QC 9S 5D 2S", 0,
     "CMP-8: both hold a pair; Anna's pair of queens, nine, five and three kickers beats Ben's pair of queens, nine, "
     "five and two kickers — the highest cards break the tie (three against two)."),
])
def test_cmp_8_the_verdict_says_who_wins_and_why(first, second, winner, text):
    """CMP-8: the better category wins; within one, the first different rank in kicker order;
    equal hands (suits never count) are a draw."""
    assert cmp.compare_hands(hand(first), hand(second), ("Anna", "Ben")) == (winner, text)


# ---------------------------------------------------------------- a spectator's copy is checked like moves


def finished_by_treaty(dummy: bool):
    from tests.engine.test_campaign_referee import game_in

    seed = 3
    while True:
        game = game_in("over", dummy=dummy, seed=seed)
        if replay(game).treaty is not None:
            return game
        seed += 17


@pytest.mark.parametrize("dummy", [False, True])
def test_a_copy_whose_table_cannot_be_is_refused_saying_why(dummy):
    """CMP-7/CMP-9 (issue 20): the table revealed in a spectator's copy must fit what the table
    knew — the draws among the player's cards, as many cards as held, the cards seen in a hand
    there, every card once — or the copy does not open, saying why."""
    from tests.engine.test_campaign_referee import tampered

    game = finished_by_treaty(dummy)
    copy = cmp.public_game(game)
    before = replay(games.goto(copy, copy.position - 1))
    assert before.phase == "exhausted"
    reveal = copy.setup["reveal"]
    table, drawn = [list(t) for t in reveal["table"]], [list(d) for d in reveal["drawn"]]
    known0 = [str(c) for c in before.known[0]]
    hidden0 = [c for c in table[0] if c not in known0 and c not in drawn[0]]
    hidden1 = [c for c in table[1] if c not in [str(k) for k in before.known[1]] and c not in drawn[1]]
    spare = next(str(c) for c in DECK if str(c) not in sum(table, []) and c not in before.seen)
    n0 = before.counts[0]
    step = f" (step {copy.position})"
    wrong = [
        (dict(drawn=[drawn[0], drawn[1] + [spare]]),
         "CMP-7: Ben's cards drawn at the table are not among Ben's cards there"),
        (dict(table=[table[0] + [spare], table[1]]), f"CMP-7: Anna held {n0} cards, not {n0 + 1}"),
        (dict(table=[[spare if c == hidden0[0] else c for c in table[0]], [hidden0[0] if c == hidden1[0] else c
                                                                          for c in table[1]]]), None),
        (dict(table=[[hidden1[0] if c == hidden0[0] else c for c in table[0]], table[1]]),
         f"CMP-7: the {parse_card(hidden1[0]).label} is shown twice at the table (Anna and Ben): a deck has one of "
         "each card"),
        (dict(table=[[str(before.pool[0]) if c == hidden0[0] else c for c in table[0]], table[1]]),
         f"CMP-7: the {before.pool[0].label} cannot be Anna's at the table: it is in the pool"),
    ]
    if known0:
        wrong.append((dict(table=[[spare if c == known0[0] else c for c in table[0]], table[1]]),
                      f"CMP-7: the {parse_card(known0[0]).label} is in Anna's hand (it was seen face up)"))
    if n0 >= 5:
        wrong.append((dict(table=[table[0] + [spare], table[1]], drawn=[drawn[0] + [spare], drawn[1]]),
                      "CMP-7: Anna draws 0 cards at the table, not 1"))
    if dummy:
        wrong.append((dict(table=[table[0], [c for c in table[1] if c != drawn[1][0]]], drawn=[drawn[0], drawn[1][1:]]),
                      f"CMP-9: Ben draws {len(drawn[1])} card{'s' if len(drawn[1]) != 1 else ''} at the table, "
                      f"not {len(drawn[1]) - 1}"))
    for changes, message in wrong:
        if message is None:  # the swap is a legal table (two hidden cards traded): it opens
            replay(tampered(game, **changes))
            continue
        with pytest.raises(RuleError) as refused:
            replay(tampered(game, **changes))
        assert str(refused.value) == message + step, changes
    assert replay(copy).treaty.hands == replay(game).treaty.hands


# ---------------------------------------------------------------- undo, standing


@pytest.mark.parametrize("dummy", [False, True])
def test_undo_past_the_table_says_what_everyone_saw(dummy):
    """CMP-7 (CMP-9): going back past the negotiating table asks first, in these words; going
    back to a point that is not behind is refused saying the range."""
    game = finished_by_treaty(dummy)
    table = len(game.actions) - 1
    if dummy:
        expected = ("At the negotiating table every hand was laid down, the dummy's too, and the top of the deck was "
                    "drawn: everyone has seen them. Going back lets Anna record battles and choose spoils again "
                    "knowing those cards (CMP-7). Go back anyway?")
    else:
        expected = ("At the negotiating table both hands were laid down and the top of the deck was drawn: everyone "
                    "has seen them. Going back lets Anna and Ben record battles and choose spoils again knowing "
                    "those cards (CMP-7). Go back anyway?")
    assert cmp.undo_warning(game, table) == expected
    assert cmp.undo_warning(game, game.position) is None
    for position in (-1, game.position + 1, True, "0"):
        with pytest.raises(cmp.CampaignError) as refused:
            cmp.undo_warning(game, position)
        assert str(refused.value) == f"Going back means a point from 0 to {game.position} (got {position!r})"
    # Names the setup does not give are the defaults.
    unnamed = games.Game("campaign", game.seed, {}, {"dummy": dummy}, game.actions, game.position)
    assert ("Player 1" if dummy else "Player 1 and Player 2") in cmp.undo_warning(unnamed, table)


def test_standing_reads_each_ending_and_phase():
    """The list of saves says where each campaign stands (CMP-2, CMP-6, CMP-7, CMP-8)."""
    game = finished_by_treaty(False)
    state = replay(game)
    fought = state.fought
    if state.winner is None:
        assert cmp.standing(state) == f"Over · the treaty is a draw after {fought} battles"
    else:
        assert cmp.standing(state) == (f"Over · {state.name(state.winner)} won at the negotiating table after "
                                       f"{fought} battles")
    drawn = replace(state, winner=None)
    assert cmp.standing(drawn) == f"Over · the treaty is a draw after {fought} battles"
    one = replace(state, fought=1, winner=1)
    assert cmp.standing(one) == "Over · Ben won at the negotiating table after 1 battle"
    assert cmp.standing(replace(one, winner=None)) == "Over · the treaty is a draw after 1 battle"
    exhausted = replay(games.goto(game, len(game.actions) - 1))
    a, b = (exhausted.card_count(p) for p in (0, 1))
    assert cmp.standing(exhausted) == f"Exhausted after battle {exhausted.fought} · Anna {a} cards, Ben {b}"
    rolling = replace(exhausted, phase="exhaustion", fought=4)
    assert cmp.standing(rolling) == f"Battle 4 fought · exhaustion roll · Anna {a} cards, Ben {b}"
    assert cmp.standing(replace(rolling, phase="spoils", battle=5)) == f"Battle 5 · Anna {a} cards, Ben {b}"
    assert cmp.standing(replace(rolling, phase="over", treaty=None, winner=0, battle=6)) == \
        "Over · Anna won: Ben lost the last card in battle 6"


# ---------------------------------------------------------------- old games


def test_a_game_that_keeps_earlier_readings_says_so_first():
    """CMP-4/CMP-6 (issue 20 item 7): a game kept on an earlier reading says which, under the
    clause it touches, before the deal."""
    game = new_game("campaign", {"players": ["Anna", "Ben"], "legacy": ["refill-end", "certain-roll"]}, seed=3)
    log = replay(game).log
    said = ("This campaign was played with an earlier version of the app; it keeps that version's reading, so that "
            "it replays as it was played: ")
    assert [(e.rule, e.text) for e in log[:2]] == [("CMP-6", said + cmp.LEGACY["certain-roll"]),
                                                   ("CMP-4", said + cmp.LEGACY["refill-end"])]
    assert log[2].rule == "CMP-1" and log[2].battle == 0
    assert replay(new_game("campaign", {"players": ["Anna", "Ben"]}, seed=3)).log[0].rule == "CMP-1"


def test_upgrade_leaves_out_only_what_old_versions_ignored():
    """Issue 20: an old game's actions lose the fields its version ignored (a drawn battle's
    troop points, a roll's dice, unknown fields); other actions pass as they are, to be checked."""

    def upgraded(action):
        old = {"kind": "campaign", "seed": 3, "setup": {"players": ["A", "B"]}, "position": 0, "actions": [action]}
        return cmp.upgrade(old)["actions"][0]

    assert upgraded({"type": "battle", "winner": None, "troops": 3, "x": 1}) == {"type": "battle", "winner": None}
    assert upgraded({"type": "battle", "winner": 1, "troops": 3, "x": 1}) == \
        {"type": "battle", "winner": 1, "troops": 3}
    assert upgraded({"type": "roll", "dice": [1, 2]}) == {"type": "roll"}
    assert upgraded({"type": "take", "stake": True, "pool": "ks", "x": 0}) == \
        {"type": "take", "stake": True, "pool": "ks"}
    assert upgraded({"type": "zzz", "a": 1}) == {"type": "zzz", "a": 1} and upgraded(5) == 5
    old = {"kind": "campaign", "seed": 3, "setup": {"players": ["A", "B"]}, "position": 1,
           "actions": [{"type": "battle", "winner": None, "troops": 4}]}
    assert cmp.upgrade(old) == {"kind": "campaign", "seed": 3, "setup": {"players": ["A", "B"]}, "position": 1,
                                "actions": [{"type": "battle", "winner": None}]}
    assert old["actions"][0]["troops"] == 4  # the caller's data is not changed


# ---------------------------------------------------------------- the dummy's die (CMP-9, CMP-10, HR-CMP-1)

# HR-CMP-1 in a table: with 2 choices 1–3 takes the first and 4–6 the second; with 3, 1–2, 3–4
# and 5–6; with 4 or 5 the die shows the choice and a higher roll is rolled again (None).
HR_CMP_1 = {
    1: [0, 0, 0, 0, 0, 0],
    2: [0, 0, 0, 1, 1, 1],
    3: [0, 0, 1, 1, 2, 2],
    4: [0, 1, 2, 3, None, None],
    5: [0, 1, 2, 3, 4, None],
    6: [0, 1, 2, 3, 4, 5],
}


def test_hr_cmp_1_every_roll_for_every_number_of_choices():
    """HR-CMP-1: what each face of the die picks among 1 to 6 equal choices."""
    for choices, picks in HR_CMP_1.items():
        assert [cmp.die_choice(choices, roll) for roll in range(1, 7)] == picks, choices


@pytest.mark.parametrize("candidates,rolls,index,tied", [
    (["2S", "KD", "9C"], [], 1, [1]),                       # one highest card: no roll
    (["KS", "2D", "KD"], [4], 2, [0, 2]),                   # two kings: 4–6 takes the second
    (["KS", "2D", "KD"], [3], 0, [0, 2]),
    (["AS", "AH", "AD", "AC", "2C"], [6, 5, 3], 2, [0, 1, 2, 3]),  # four: 5 and 6 are rolled again
    (["QS", "QH", "QD", "3C", "QC", "2H"], [6, 4], 4, [0, 1, 2, 4]),
    (["10S", "JH", "JD", "JC", "9C"], [2], 1, [1, 2, 3]),   # three: 1–2, 3–4, 5–6
    (["10S", "JH", "JD", "JC", "9C"], [5], 3, [1, 2, 3]),
])
def test_cmp_10_the_dummy_takes_the_highest_card_rolling_between_equals(candidates, rolls, index, tied):
    """CMP-10: the highest rank (aces high) wins; HR-CMP-1 decides between equal ranks, with
    rerolls; the rolls are reported as made."""
    dice = iter(rolls)
    made = []

    def roll():
        made.append(next(dice))
        return made[-1]

    pairs = [("pool", c) for c in candidates]
    assert cmp.dummy_pick(pairs, roll) == (index, tied, rolls)
    assert made == rolls


# ---------------------------------------------------------------- every action's shape, refused in words

CARD_WORDS = " (ranks are 2–10, T, J, Q, K, A; suits S, H, D, C)"


def _state_for(where: str):
    if where == "app":
        return replay(new())
    if where == "app-exhaustion":
        game = new()
        for _ in range(3):
            game = apply(game, {"type": "battle", "winner": None})
        return replay(game)
    if where == "table-stakes":
        return replay(table_game())
    if where == "table-deal":
        return replay(new(deck="table"))
    return replay(stakes(table_game()))


@pytest.mark.parametrize("where,action,message", [
    ("app", {"type": "deal", "pool": []}, "A deal action enters what the players' own deck revealed; this campaign is "
                                          "played with the app's deck, which deals and draws itself"),
    ("app", {"type": "lay"}, "A lay action enters what the players' own deck revealed; this campaign is played with "
                             "the app's deck, which deals and draws itself"),
    ("app", {"type": "battle"}, "A battle action needs its 'winner'"),
    ("app", {"type": "battle", "winner": None, "troops": None}, "CMP-12: a drawn battle carries no troop points: "
                                                                "nobody won it"),
    ("app", {"type": "battle", "winner": 0.0, "troops": 3}, "The winner (0, 1, or null for a drawn battle) must be "
                                                            "one of 0, 1 (got 0.0)"),
    ("app", {"type": "battle", "winner": 0, "troops": 5, "x": 1}, "A battle action has no field 'x' (its fields: "
                                                                  "type, winner, troops)"),
    ("app", {"type": "take", "stake": 1}, "'stake' (take the loser's stake) must be true or false (got 1)"),
    ("app", {"type": "take", "pool": "ZZ"}, 'The pool card: Not a card: "ZZ"' + CARD_WORDS),
    ("app", "x", "An action must be an object with a type"),
    ("app", {"type": "x"}, "Unknown action type: 'x' (battle, take, roll, negotiate, deal, stakes, refill, lay)"),
    ("app-exhaustion", {"type": "roll", "dice": [1, 2]}, "CMP-12: the app rolls the exhaustion dice itself: a roll "
                                                         "carries no dice"),
    ("app-exhaustion", {"type": "roll", "x": 1}, "A roll action has no field 'x' (its fields: type, dice)"),
    ("app-exhaustion", {"type": "negotiate", "x": 1}, "A negotiate action has no field 'x' (its fields: type)"),
    ("app-exhaustion", {"type": "battle", "winner": None}, "CMP-6: roll for exhaustion first (after battle 3: "
                                                           "P(lower of 2d6 + 3 ≥ 9) = 1/36 = 2.8%)"),
    ("table", {"type": "negotiate"}, "With your own deck each player lays the cards down at the negotiating table (a "
                                     "lay action) and the app judges them"),
    ("table", {"type": "deal"}, "A deal action needs its 'pool'"),
    ("table-deal", {"type": "deal", "pool": "AS"}, "The pool must be a list of cards (got 'AS')"),
    ("table", {"type": "deal", "pool": ["AS", "KS"]}, "CMP-1: the pool is four cards (got 2)"),
    ("table", {"type": "stakes", "stakes": "AS"}, "The stakes must be a list of cards (got 'AS')"),
    ("table", {"type": "refill", "card": "ZZ"}, 'The new pool card: Not a card: "ZZ"' + CARD_WORDS),
    ("table", {"type": "lay", "player": 0, "hand": ["AS"], "drawn": "x"}, "The cards drawn must be a list of cards "
                                                                          "(got 'x')"),
    ("table", {"type": "roll", "dice": [1, "2"]}, "CMP-6: A die must be a whole number from 1 to 6 (got '2')"),
    ("table", {"type": "roll", "dice": [1, 2, 3]}, "The exhaustion dice are two dice, e.g. [3, 5] (CMP-6: 2d6)"),
    ("table", {"type": "roll", "dice": [1, 2], "x": 1}, "A roll action has no field 'x' (its fields: type, dice)"),
    ("table", {"type": "battle", "winner": None, "x": 1}, "A battle action has no field 'x' (its fields: type, "
                                                          "winner, troops)"),
    ("table-stakes", {"type": "stakes", "stakes": ["QS", "QS"]}, "CMP-2: both stakes are the Q♠: a deck has one of "
                                                                 "each card"),
    ("table-stakes", {"type": "stakes", "stakes": ["QS", "2C"]}, "CMP-2: the 2♣ cannot be Ben's stake: it is in the "
                                                                 "pool"),
    ("table-stakes", {"type": "battle", "winner": None}, "CMP-2: turn up the stakes of battle 1 and enter them first"),
])
def test_every_refused_action_says_what_is_wrong(where, action, message):
    """Issue 20 item 1 (CMP-1 … CMP-12): an action of the wrong shape, of the other deck's
    kind, or out of its moment is refused with this exact message; the state is unchanged."""
    state = _state_for(where)
    with pytest.raises((ActionError, RuleError)) as refused:
        cmp.normalize_action(state, action)
    assert str(refused.value) == message
    with pytest.raises((ActionError, RuleError)) as again:
        cmp.step(state, action, None, random.Random(1))
    assert str(again.value) == message


def test_cmp_6_odds_text_for_every_battle_matches_the_dice():
    """CMP-6: the chance after each battle, counted over the 36 rolls of two dice, in words."""
    for battles in range(0, 12):
        ways = sum(1 for a in range(1, 7) for b in range(1, 7) if min(a, b) + battles >= 9)
        assert cmp.exhaustion_chance(battles) == Fraction(ways, 36)
        percent = Fraction(ways * 100, 36)
        shown = str(percent.numerator) if percent.denominator == 1 else f"{float(percent):.1f}"
        assert cmp.exhaustion_odds_text(battles) == \
            f"after battle {battles}: P(lower of 2d6 + {battles} ≥ 9) = {ways}/36 = {shown}%"
    assert cmp.exhaustion_odds_text(5) == "after battle 5: P(lower of 2d6 + 5 ≥ 9) = 9/36 = 25%"
    assert cmp.exhaustion_odds_text(3) == "after battle 3: P(lower of 2d6 + 3 ≥ 9) = 1/36 = 2.8%"


def test_moves_out_of_their_moment_say_what_comes_first():
    """CMP-4, CMP-7: the spoils come before anything else; at the table nothing but the table;
    after the treaty, nothing (CMP-7 with the result)."""
    game = apply(new(), {"type": "battle", "winner": 1, "troops": 2})
    with pytest.raises(RuleError) as refused:
        apply(game, {"type": "roll"})
    assert str(refused.value) == "CMP-4: Ben first takes the spoils of battle 1"
    game = finished_by_treaty(False)
    table = games.goto(game, len(game.actions) - 1)
    with pytest.raises(RuleError) as refused:
        apply(table, {"type": "battle", "winner": None})
    assert str(refused.value) == "CMP-7: both sides are exhausted: they go to the negotiating table"
    state = replay(game)
    with pytest.raises(RuleError) as refused:
        apply(game, {"type": "negotiate"})
    assert str(refused.value) == f"CMP-7: the campaign is over. {state.result}"
    assert state.result in (f"{state.name(state.winner)} wins the war at the negotiating table." if state.winner
                            is not None else "", "The treaty is a draw: equal hands.")


# ---------------------------------------------------------------- a player's odds (CMP-7, CMP-9)


@pytest.mark.parametrize("dummy", [False, True])
def test_treaty_chances_count_only_what_each_side_may_know(dummy):
    """CMP-7/CMP-9: a player's chances use the own cards and draw over every card that player has
    not seen; the dummy's use only its face-up cards, its hidden cards as unseen ones, and its
    extra card. A spectator's copy, your own deck and a finished campaign show none."""
    from tests.engine.test_campaign_referee import advance

    game = advance(new(seed=21, dummy=dummy), random.Random(21), lambda s: s.battle == 3 and s.phase == "battle")
    state = replay(game)
    own = state.hands[0] + (state.stakes[0],)
    seen = set(own) | set(state.pool) | set(state.seen)
    assert cmp.treaty_chances(state, 0) == cmp.treaty_odds(own, [c for c in DECK if c not in seen])
    assert cmp.visible_cards(state, 0) == frozenset(seen)
    assert cmp.player_cards(state, 0) == state.hands[0] + (state.stakes[0],)
    if dummy:
        face_up = state.known[1] + (state.stakes[1],)
        hidden = state.counts[1] - len(state.known[1])
        others = [c for c in DECK if c not in state.seen and c not in state.pool]
        assert cmp.treaty_chances(state, 1) == cmp.treaty_odds(face_up, others, hidden=hidden, extra=1)
    else:
        theirs = state.hands[1] + (state.stakes[1],)
        seen1 = set(theirs) | set(state.pool) | set(state.seen)
        assert cmp.treaty_chances(state, 1) == cmp.treaty_odds(theirs, [c for c in DECK if c not in seen1])
    assert cmp.treaty_chances(replay(cmp.public_game(game)), 0) == {}
    assert cmp.treaty_chances(replay(stakes(table_game())), 0) == {}
    assert cmp.treaty_chances(replay(stakes(table_game(dummy=True))), 1) == {}  # the app never knows a hand
    assert cmp.treaty_chances(replay(finished_by_treaty(dummy)), 0) == {}
    assert cmp.treaty_chances(replace(state, hands=((), state.hands[1]), stakes=(None, state.stakes[1])), 0) == {}


@pytest.mark.parametrize("hand0,hand1,last", [("KS", "2H 3H 4H", "Anna"), ("KS", "2H", "Anna and Ben"),
                                              ("KS QS", "2H", "Ben"), ("KS QS", "2H 3H", None)])
def test_cmp_2_the_last_card_is_announced_with_its_stake(hand0, hand1, last):
    """CMP-2: a player with one card left stakes it, and the log says that losing it loses the
    campaign."""
    from tests.engine.test_campaign import stakes_drawn, table_state

    state = table_state(hand0, hand1, "5C 6C 7C 8C", "9D 10D JD QD", battle=2)
    state = stakes_drawn(state, random.Random(1))
    text = state.log[-1].text
    if last is None:
        assert "last card" not in text
    else:
        assert text.endswith(f" (picked at random); last card for {last}: losing it loses the campaign")
    if len(cards(hand0)) == 1:
        assert state.stakes[0] == cards(hand0)[0] and state.counts[0] == 0


@pytest.mark.parametrize("cut,rule", [("stakes", "CMP-2"), ("refills", "CMP-4"), ("dice", "CMP-6"), ("table", "CMP-7")])
def test_a_copy_missing_a_revealed_fact_ends_where_its_facts_end(cut, rule):
    """CMP-2/CMP-4/CMP-6/CMP-7 (issue 20): a spectator's copy replays only what was revealed: with one stake, pool card, die or the
    table missing, it stops there, under that fact's clause, saying why."""
    from tests.engine.test_campaign_referee import tampered

    game = finished_by_treaty(True)
    reveal = cmp.public_game(game).setup["reveal"]
    changes = {"table": None, "drawn": None} if cut == "table" else {cut: reveal[cut][:-1]}
    with pytest.raises(RuleError) as refused:
        replay(tampered(game, **changes))
    assert refused.value.rule_id == rule
    assert str(refused.value).startswith(f"{rule}: this spectator view ends here: the link shows only what had "
                                         "happened when it was shared (step ")


def test_a_new_campaign_deals_sorted_hands_and_keeps_the_rest_as_the_deck():
    """CMP-1: six cards each (shown highest first, then ♠ ♥ ♦ ♣), four in the pool, 36 in the
    deck; every card once; the pool is revealed history, the hands are not."""
    for seed in range(6):
        game = new(seed=seed)
        state = replay(game)
        for p in (0, 1):
            held = state.cards_of(p)
            assert len(held) == 6 and state.counts[p] == 5 and state.card_count(p) == 6
            order = [(-int(c.rank), "SHDC".index(str(c.suit))) for c in state.hands[p]]
            assert order == sorted(order)
        assert len(state.pool) == 4 and len(state.deck) == 36 and cmp.deck_left(state) == 36
        every = list(state.hands[0]) + list(state.hands[1]) + list(state.pool) + list(state.deck) + list(state.stakes)
        assert sorted(map(str, every)) == sorted(map(str, DECK))
        assert state.history["pool"] == [str(c) for c in state.pool]
        assert state.history["stakes"] == [[str(s) for s in state.stakes]]
        assert state.seen == frozenset(state.pool) | frozenset(state.stakes)
        assert state.phase == "battle" and state.battle == 1 and state.fought == 0


class Dice(random.Random):
    """A generator whose d6 rolls are the given ones (the dummy's die, HR-CMP-1)."""

    def __init__(self, rolls):
        super().__init__(0)
        self.rolls = list(rolls)

    def randint(self, a, b):
        assert (a, b) == (1, 6)
        return self.rolls.pop(0)


def test_cmp_9_hr_cmp_1_the_dummys_choice_between_equals_is_logged_with_its_rolls():
    """CMP-9/CMP-10/HR-CMP-1: the dummy takes the highest card it may; between equal ones the
    die decides (a roll too high is rolled again), and the log names the choices and the rolls."""
    from tests.engine.test_campaign import table_state, with_stakes

    base = with_stakes(table_state("KS 2C 3C", "4H 5H 6H", "KD JD KC KH", "7S 7D", dummy=True), "KS", "4H")
    state = cmp.step(base, {"type": "battle", "winner": 1, "troops": 2}, None, Dice([6, 5, 2]))
    assert ("Ben takes the K♦ from the pool — the highest card it may take (CMP-9, CMP-10); "
                                  "equal choices between the K♠ (Anna's stake) and the K♦ (pool) and the K♣ (pool) "
                                  "and the K♥ (pool): it rolls 6, then 5, then 2 → the K♦ (HR-CMP-1)") in \
        [e.text for e in state.log]
    assert parse_card("KD") in state.cards_of(1) and parse_card("KS") in state.cards_of(0)
    assert state.pool == cards("7S JD KC KH")
    state = cmp.step(base, {"type": "battle", "winner": 1, "troops": 2}, None, Dice([1]))
    assert ("Ben takes Anna's stake, the K♠ — the highest card it may take (CMP-9, CMP-10); "
                                  "equal choices between the K♠ (Anna's stake) and the K♦ (pool) and the K♣ (pool) "
                                  "and the K♥ (pool): it rolls 1 → the K♠ (HR-CMP-1)") in \
        [e.text for e in state.log]
    assert state.pool == cards("KD JD KC KH") and parse_card("KS") in state.cards_of(1)
    state = cmp.step(base, {"type": "battle", "winner": 1, "troops": 8}, None, Dice([4]))
    texts = [e.text for e in state.log]
    assert ("Ben takes Anna's stake, the K♠ — decisive, so the stake and the highest pool card (CMP-9, CMP-10); "
            "equal choices between the K♦ (pool) and the K♣ (pool) and the K♥ (pool): it rolls 4 → the K♣ "
            "(HR-CMP-1)") in texts
    assert "Ben takes the K♣ from the pool" in texts
    assert {parse_card("KS"), parse_card("KC")} <= set(state.cards_of(1)) and state.pool == cards("KD JD 7S KH")
    assert state.history["dice"] == [4]


def test_public_game_keeps_the_moves_and_the_face_up_facts_only():
    """Issue 20 (CMP-1 … CMP-8 facts): a spectator's copy: the moves in force (no redo stack), seed 0, and in the setup the facts
    shown face up — pool, stakes, refills, dice, and the table once reached; with your own deck,
    only the dice the app rolled (the cards are in the entries)."""
    game = finished_by_treaty(False)
    state = replay(game)
    back = games.undo(games.undo(game))
    copy = cmp.public_game(back)
    assert copy.seed == 0 and copy.position == len(copy.actions) == back.position
    assert list(copy.actions) == list(back.actions[:back.position])
    reveal = copy.setup["reveal"]
    assert set(reveal) == {"pool", "stakes", "refills", "dice"} and copy.setup["spectator"] is True
    assert copy.setup["players"] == ["Anna", "Ben"] and copy.setup["dummy"] is False
    assert reveal["pool"] == state.history["pool"]
    full = cmp.public_game(game).setup["reveal"]
    assert full["table"] == [[str(c) for c in cards_] for cards_ in state.treaty.cards]
    assert full["drawn"] == [[str(c) for c in d] for d in state.treaty.drawn]
    assert full["dice"] == [d for roll in state.rolls for d in roll.dice]
    assert cmp.public_game(cmp.public_game(game)).setup == cmp.public_game(game).setup  # a copy of a copy
    own = stakes(table_game())
    own = apply(own, {"type": "battle", "winner": None})
    own_copy = cmp.public_game(own)
    assert own_copy.setup["reveal"] == {"dice": []} and own_copy.setup["deck"] == "table"
    assert list(own_copy.actions) == list(own.actions)


@pytest.mark.parametrize("dummy", [False, True])
def test_cmp_7_cmp_8_the_table_shows_every_card_and_judges_the_best_hands(dummy):
    """CMP-7/CMP-8 (CMP-9): at the table each side's cards are all shown (and become seen and
    known), the best hands are made from them, the better one wins the war, equal ones draw."""
    for seed in range(4):
        game = finished_by_treaty(dummy) if seed == 0 else None
        if game is None:
            from tests.engine.test_campaign_referee import advance

            game = advance(new(seed=100 + seed, dummy=dummy), random.Random(seed), limit=80)
            if replay(game).treaty is None:
                continue
        before = replay(games.goto(game, len(game.actions) - 1))
        state = replay(game)
        treaty = state.treaty
        for p in (0, 1):
            assert set(treaty.cards[p]) == set(before.cards_of(p)) | set(treaty.drawn[p])
            assert treaty.hands[p] == cmp.best_hand(treaty.cards[p])
            assert state.counts[p] == len(treaty.cards[p]) and state.known[p] == treaty.cards[p]
            assert set(treaty.cards[p]) <= state.seen
            assert len(treaty.drawn[p]) == max(0, 5 - before.card_count(p)) + (1 if dummy and p == 1 else 0)
        assert treaty.drawn[0] + treaty.drawn[1] == before.deck[:len(treaty.drawn[0]) + len(treaty.drawn[1])]
        a, b = treaty.hands
        assert treaty.winner == (None if a == b else 0 if a > b else 1) == state.winner
        assert state.result == ("The treaty is a draw: equal hands." if state.winner is None else
                                f"{state.name(state.winner)} wins the war at the negotiating table.")
        assert state.history["table"] == [[str(c) for c in t] for t in treaty.cards]
        assert state.phase == "over" and cmp.status(state) == state.result
        assert cmp.deck_left(state) == 52 - len(treaty.cards[0]) - len(treaty.cards[1]) - len(state.pool)


WHOLE = "CMP-12: troop points are a whole number from 0 to 999"


@pytest.mark.parametrize("troops,message", [
    (-1, "CMP-12: troop points cannot be negative (−1): count the points of Ben's troops still in play, 0 or more"),
    (-999_999, "CMP-12: troop points cannot be negative (−999999): count the points of Ben's troops still in play, "
               "0 or more"),
    (-10**6, "CMP-12: troop points cannot be negative (a negative number): count the points of Ben's troops still "
             "in play, 0 or more"),
    (1000, "CMP-12: 1000 troop points is more than the 999 a battle can record: check the count"),
    (999_999, "CMP-12: 999999 troop points is more than the 999 a battle can record: check the count"),
    (10**6, "CMP-12: a huge number troop points is more than the 999 a battle can record: check the count"),
    (2.5, f"{WHOLE}; 2.5 is not"),
    (12345.5, f"{WHOLE}; 12345.5 is not"),
    (-0.5, f"{WHOLE}; -0.5 is not"),
    (1e6 + 0.5, f"{WHOLE}; that is not"),
    (float("inf"), f"{WHOLE}; that is not"),
    (float("nan"), f"{WHOLE}; that is not"),
    ("", f"{WHOLE}; that is not"),
    ("9", f'{WHOLE}; "9" is not'),
    ("x" * 20, f'{WHOLE}; "{"x" * 20}" is not'),
    ("x" * 21, f"{WHOLE}; that is not"),
    ("a\nb", f"{WHOLE}; that is not"),
    (True, f"{WHOLE}; that is not"),
    ([], f"{WHOLE}; that is not"),
    (3.0, f"{WHOLE} (write 3, not 3.0)"),
    (None, "CMP-12: enter the troop points Ben has left in play: a whole number from 0 to 999 (0 if none are left)"),
])
def test_cmp_12_troop_points_refused_in_words_a_player_reads(troops, message):
    """CMP-12: the winner's troop points are a whole number from 0 to 999; anything else is refused
    saying what was typed (short, printable text only; huge numbers are not spelled out)."""
    with pytest.raises(RuleError) as refused:
        cmp.normalize_action(replay(new()), {"type": "battle", "winner": 1, "troops": troops})
    assert str(refused.value) == message


@pytest.mark.parametrize("dummy", [False, True])
def test_a_campaign_with_your_own_deck_starts_with_counts_only(dummy):
    """Issue 18 (CMP-1): with the players' own deck the app knows no hand: six cards counted for
    each, no pool until it is entered, and nothing in the deck it could draw."""
    state = replay(new(dummy=dummy, deck="table"))
    assert state.phase == "deal" and state.battle == 0 and state.deck_mode == "table" and state.table_deck
    assert state.hands == ((), ()) and state.counts == (6, 6) and state.pool == () and state.deck == ()
    assert not state.hands_known and not state.public and state.history == {}
    assert cmp.deck_left(state) == 52 - 12 and cmp.player_cards(state, 0) == ()
    state = replay(table_game(dummy))
    assert state.pool == cards("AS KH 7D 2C") and state.seen == frozenset(cards("AS KH 7D 2C"))
    assert state.history["pool"] == ["AS", "KH", "7D", "2C"] and state.phase == "stakes" and state.battle == 1
    assert cmp.deck_left(state) == 52 - 12 - 4
    with pytest.raises(cmp.CampaignError) as refused:
        cmp.normalize_action(state, {"type": "negotiate"}, [1])
    assert str(refused.value) == "The rules settings must be an object (the campaign has no variants)"


# ------------------------------------- from the seeded sample (`make mutate … SAMPLE=250`, seed 1)

@pytest.mark.parametrize("five", ["S", "H", "D", "C"])
def test_treaty_odds_with_three_suits_near_a_flush_match_every_draw(five):
    """CMP-7/CMP-8: four cards in each of two suits and a flush in a third, one card still to
    come: two suits can flush together only where the draw covers both (inclusion–exclusion
    over every pair, whichever pair comes first), as the enumeration of every draw says."""
    near = [s for s in "SHDC" if s != five][:2]
    own = parse_cards(" ".join([f"{r}{five}" for r in ("2", "4", "6", "8", "10")]
                               + [f"{r}{s}" for s in near for r in ("3", "5", "7", "9")]))
    unseen = [card for card in DECK if card not in own]
    assert cmp.treaty_odds(own, unseen, extra=1) == brute_odds(own, unseen, extra=1)


def test_a_refused_number_shows_the_number_unless_it_is_huge():
    for given, shown in ((500, "500"), (10**13, "a huge number")):
        with pytest.raises(cmp.CampaignError) as refused:
            cmp.treaty_odds([], [], hidden=given)
        assert str(refused.value) == f"The number of hidden cards must be a whole number from 0 to 7 (got {shown})"
