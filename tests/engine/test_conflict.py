"""Organizations In Conflict (engine.conflict): one or more tests per clause OIC-1 … OIC-18."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import conflict as oic
from engine.cards import Card, Rank, Suit, full_deck, parse_card
from engine.conflict import (
    HOUSE_RULES,
    KIND,
    VARIANTS,
    Scope,
    SetupError,
    can_engage,
    can_follow,
    card_value,
    check_play,
    hand_size,
    in_world_time,
    is_usable,
    legal_plays,
    max_card_size,
    normalize_setup,
    player_max_sizes,
    player_ratings,
    public_game,
    setup_warnings,
    side_ratings,
    trumps,
    why_not_follow,
)
from engine.game import ActionError, Game, RuleError, apply, goto, history, new_game, replay
from engine.rules import SettingsError, resolve_rules

C = parse_card
INTRO = {"trump_circle": "introduction"}
HIGHER = {"face_on_face": "higher"}


# ---------------------------------------------------------------------------
# Helpers


def org(name: str, power: int, suit: str, location: str = "") -> dict[str, Any]:
    return {"name": name, "power": power, "suit": suit, "location": location}


def player(name: str, *orgs: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "organizations": list(orgs)}


def side(name: str, *players: dict[str, Any], scope: str = "home") -> dict[str, Any]:
    return {"name": name, "scope": scope, "players": list(players)}


def league_like(name: str = "Alpha", hearts: int = 9) -> dict[str, Any]:
    return side(name, player("A1", org(f"{name} S", 14, "S"), org(f"{name} C", 11, "C"),
                             org(f"{name} D", 12, "D"), org(f"{name} H", hearts, "H")))


def conflict_setup(a: dict[str, Any] | None = None, b: dict[str, Any] | None = None, *,
                   scope: str = "home", aggressor: int = 0, deck: str = "table") -> dict[str, Any]:
    return {"sides": [a or league_like("Alpha"), b or league_like("Beta", hearts=13)],
            "scope": scope, "aggressor": aggressor, "deck": deck}


def table_game(setup: dict[str, Any] | None = None, rules: dict[str, Any] | None = None,
               seed: int = 1) -> Game:
    return new_game(KIND, setup or conflict_setup(), rules, seed)


def run(game: Game, *actions: dict[str, Any] | str) -> Game:
    """Apply actions; a string is a card played by player 0 ("9S"), or "pass" / "next"."""
    for action in actions:
        if action == "pass":
            action = {"type": "pass"}
        elif action == "next":
            action = {"type": "next_round"}
        elif isinstance(action, str):
            action = {"type": "play", "player": 0, "card": action}
        game = apply(game, action)
    return game


def power(state: oic.ConflictState, side_index: int, name: str) -> int:
    for org_ in state.sides[side_index].organizations:
        if org_.name == name:
            return org_.power
    raise KeyError(name)


def discard_all(game: Game) -> Game:
    """Every player keeps all cards."""
    state = replay(game)
    for s, side_ in enumerate(state.sides):
        for p in range(len(side_.players)):
            game = apply(game, {"type": "discard", "side": s, "player": p, "cards": []})
    return game


# ---------------------------------------------------------------------------
# OIC-1 organizations, OIC-2 sides and ratings


def test_oic_1_organization_has_name_power_suit_and_location():
    setup = conflict_setup(side("A", player("  P  ", org("  Guild ", 12, "♠", "  the docks  "),
                                            org("Farmers", 7, "clubs"))))
    normal = normalize_setup(setup)
    org0, org1 = normal["sides"][0]["players"][0]["organizations"]
    assert org0 == {"name": "Guild", "power": 12, "suit": "S", "location": "the docks"}
    assert org1 == {"name": "Farmers", "power": 7, "suit": "C", "location": ""}
    assert normal["sides"][0]["players"][0]["name"] == "P"
    state = replay(table_game(setup))
    guild = state.sides[0].organizations[0]
    assert (guild.name, guild.power, guild.suit, guild.location) == ("Guild", 12, Suit.SPADES, "the docks")


def test_oic_2_side_rating_is_its_best_organization_of_the_suit():
    setup = conflict_setup(side("A", player("P1", org("a", 9, "S"), org("b", 12, "S")),
                                player("P2", org("c", 11, "S"), org("d", 7, "H"))))
    state = replay(table_game(setup))
    assert side_ratings(state, 0) == {Suit.SPADES: 12, Suit.HEARTS: 7, Suit.DIAMONDS: 0, Suit.CLUBS: 0}
    assert player_ratings(state, 0, 0)[Suit.SPADES] == 12
    assert player_ratings(state, 0, 1) == {Suit.SPADES: 11, Suit.HEARTS: 7, Suit.DIAMONDS: 0, Suit.CLUBS: 0}
    assert oic.best_organization(state, 0, Suit.SPADES).name == "b"
    assert oic.best_organization(state, 0, Suit.DIAMONDS) is None


# ---------------------------------------------------------------------------
# OIC-3 scopes, OIC-4 engagement


def test_oic_3_scope_table():
    assert [s.value for s in Scope] == ["home", "regional", "war", "world war", "superconflict"]
    assert [s.offset for s in Scope] == [5, 10, 15, 20, 25]
    assert [s.engage_threshold for s in Scope] == [5, 15, 20, 25, 30]
    assert [s.round_length for s in Scope] == ["a day", "a week", "a month", "a year", "a decade"]
    assert [s.label for s in Scope] == ["Home ground", "Regional", "War", "World war", "Superconflict"]


@pytest.mark.parametrize("scope, size", [("home", 26), ("regional", 21), ("war", 16), ("world war", 11),
                                         ("superconflict", 6), (Scope.WAR, 16)])
def test_oic_3_max_card_size_is_power_minus_scope_offset(scope, size):
    assert max_card_size(31, scope) == size


@pytest.mark.parametrize("power, scope, size", [
    (14, "home", 9),            # home ground: every organization has influence
    (6, "home", 1),
    (15, "regional", 0),        # 15 or lower: no influence beyond home ground (15 − 10 would be 5)
    (16, "regional", 6),
    (11, "regional", 0),        # fire department at regional scope
    (20, "war", 0), (21, "war", 6),
    (25, "world war", 0), (26, "world war", 6),
    (30, "superconflict", 0), (31, "superconflict", 6),
    (3, "regional", -7),        # already below 1: the plain sum stays (face cards only either way)
])
def test_oic_18_no_influence_at_or_below_the_scope_threshold(power, scope, size):
    assert max_card_size(power, scope) == size
    assert Scope.parse(scope).has_influence(power) == (scope == "home" or size > 0)


def test_oic_18_reason_names_the_organization_and_the_threshold():
    setup = oic.purple_dragon_setup()
    setup["sides"][0]["scope"] = "regional"
    setup.update(aggressor=0, deck="table")
    state = oic.start(setup, None, random.Random(1))
    reason = oic.max_size_reason(state, 0, 0, Suit.CLUBS)
    assert reason == ("clubs: fire department (11) has no influence beyond home ground "
                      "(OIC-18, ruling: power must be above 15): face cards only")
    assert player_max_sizes(state, 0, 0)[Suit.CLUBS] == 0
    # Only face cards of clubs are usable for the League there; a number card is refused by OIC-18.
    with pytest.raises(RuleError) as refused:
        check_play(state, 0, "2C")
    # The rule is cited once (the message does not repeat "OIC-18" inside itself).
    assert str(refused.value) == ("OIC-18: your max card size in clubs is 0: fire department (11) has no influence "
                                  "beyond home ground (power must be above 15), so only face cards of clubs are usable")
    check_play(state, 0, "KC")  # face cards stay usable (OIC-5)


def test_oic_18_a_stronger_organization_of_the_suit_still_counts():
    setup = oic.purple_dragon_setup()
    league = setup["sides"][0]
    league["scope"] = "regional"
    league["players"][0]["organizations"].append(
        {"name": "Fire brigade HQ", "power": 17, "suit": "C", "location": "downtown"})
    state = oic.start(setup, None, random.Random(1))
    assert player_max_sizes(state, 0, 0)[Suit.CLUBS] == 7
    assert oic.max_size_reason(state, 0, 0, Suit.CLUBS) == "clubs 17 − 10 at regional scope = 7"


@pytest.mark.parametrize("bad", ["galactic", "", None, 3])
def test_oic_3_unknown_scope_is_refused(bad):
    with pytest.raises(ValueError, match="Unknown scope"):
        max_card_size(14, bad)


@pytest.mark.parametrize("text", ["Home ground", "HOME", "world_war", "World war", "world-war"])
def test_oic_3_scope_accepts_labels_and_spellings(text):
    assert Scope.parse(text) in (Scope.HOME, Scope.WORLD_WAR)


@pytest.mark.parametrize("scope, threshold", [("home", 5), ("regional", 15), ("war", 20),
                                              ("world war", 25), ("superconflict", 30)])
def test_oic_3_oic_4_engaged_only_with_power_above_threshold(scope, threshold):
    assert not can_engage(threshold, scope)
    assert can_engage(threshold + 1, scope)


def test_oic_4_card_sizes_from_the_sides_own_scope_engagement_from_the_conflicts():
    # A regional side in a home-ground conflict: card sizes power − 10, engaged above 5.
    a = side("Far", player("P", org("Raiders", 19, "S"), org("Spies", 6, "H")), scope="regional")
    state = replay(table_game(conflict_setup(a, aggressor=1)))
    assert player_max_sizes(state, 0, 0)[Suit.SPADES] == 9
    assert player_max_sizes(state, 0, 0)[Suit.HEARTS] == -4
    assert oic.engageable_suits(state, 0) == [Suit.SPADES, Suit.HEARTS]
    assert oic.max_size_reason(state, 0, 0, Suit.SPADES) == "spades 19 − 10 at regional scope = 9"
    # Beta (aggressor) may open hearts: Far's hearts 6 is above 5 at home ground.
    game = run(table_game(conflict_setup(a, aggressor=1)), "8H")
    assert replay(game).chain[-1].card == C("8H")


# ---------------------------------------------------------------------------
# OIC-5 usable cards, OIC-6 aces


@pytest.mark.parametrize("token, size, usable", [
    ("9S", 9, True), ("10S", 9, False), ("2S", 1, False), ("AS", 1, True), ("AS", 0, False),
    ("JS", -5, True), ("QS", 0, True), ("KS", -100, True), ("2H", 2, True),
])
def test_oic_5_oic_6_usable_face_cards_always_number_cards_up_to_max(token, size, usable):
    assert is_usable(C(token), size) is usable


def test_oic_6_ace_is_a_number_card_worth_one():
    assert card_value(C("AS")) == 1
    assert not C("AS").is_face
    assert can_follow(C("2S"), C("AS")) and not can_follow(C("AS"), C("2S"))


def test_oic_5_play_above_max_card_size_is_refused_with_the_reason():
    game = run(table_game(conflict_setup(aggressor=1)), "9S")  # Beta opens
    with pytest.raises(RuleError) as err:
        run(game, "8H")  # Alpha's hearts max is 9 − 5 = 4
    assert err.value.rule_id == "OIC-5"
    assert str(err.value) == "OIC-5: the 8♥ is above your max card size in hearts (4)"
    run(game, "4H")  # 4 is fine (hearts trump spades)
    run(game, "KH")  # face cards always


def test_oic_5_no_number_cards_below_size_one_or_without_organization():
    a = side("A", player("P", org("Army", 14, "S"), org("Weak", 5, "H")))
    game = table_game(conflict_setup(a))
    with pytest.raises(RuleError, match=r"OIC-5: your max card size in hearts is 0 \(hearts 5 − 5 at home ground = 0: face cards only\)"):
        run(game, "AH")
    with pytest.raises(RuleError, match="OIC-5: you have no organization in clubs, so only face cards"):
        run(game, "2C")
    run(game, "JC")


# ---------------------------------------------------------------------------
# OIC-7 worked example


def test_oic_7_purple_dragon_league_max_card_sizes():
    state = replay(new_game(KIND, oic.purple_dragon_setup(), seed=3))
    league, zombies = state.sides
    assert league.name == "Purple Dragon League" and zombies.name == "Zombie invasion"
    assert state.scope is Scope.HOME and league.scope is Scope.HOME and zombies.scope is Scope.HOME
    assert player_max_sizes(state, 0, 0) == {Suit.SPADES: 9, Suit.CLUBS: 6, Suit.DIAMONDS: 7, Suit.HEARTS: 4}
    assert player_max_sizes(state, 1, 0) == {Suit.SPADES: 9, Suit.CLUBS: 6, Suit.DIAMONDS: 7, Suit.HEARTS: 8}
    names = [o.name for o in league.organizations]
    assert names == ["Warriors of Ki", "fire department", "Little Leaguers", "Tony's Pizza Delivery"]
    assert [o.name for o in zombies.organizations] == [
        "hopping vampires", "fireomancers", "shambling dead", "ghosts of Christmas past"]
    assert oic.max_size_reason(state, 0, 0, Suit.SPADES) == "spades 14 − 5 at home ground = 9"
    assert oic.max_size_reason(state, 0, 0, Suit.HEARTS) == "hearts 9 − 5 at home ground = 4"
    # The zombies invade: they open round 1.
    assert state.aggressor == 1
    assert setup_warnings(oic.purple_dragon_setup()) == []


# ---------------------------------------------------------------------------
# OIC-8 dealing and discarding


def test_oic_8_each_side_draws_15_then_discards_once_and_refills():
    game = new_game(KIND, oic.purple_dragon_setup(), seed=11)
    state = replay(game)
    assert state.phase == "discard" and state.turn is None
    assert [len(h) for s in state.hands for h in s] == [15, 15]
    hand = state.hands[0][0]
    thrown = [str(c) for c in hand[:3]]
    game = apply(game, {"type": "discard", "side": 0, "player": 0, "cards": thrown})
    after = replay(game)
    assert len(after.hands[0][0]) == 15
    assert not set(map(C, thrown)) & set(after.hands[0][0])
    assert after.hands[0][0][:12] == hand[3:]
    assert after.discard_piles[0] == tuple(map(C, thrown))
    assert len(after.draw_piles[0]) == 52 - 15 - 3
    assert after.phase == "discard"
    with pytest.raises(RuleError, match="OIC-8: .*already discarded this round"):
        apply(game, {"type": "discard", "side": 0, "player": 0, "cards": []})
    with pytest.raises(RuleError, match="OIC-8: every player discards .* waiting for Player 2"):
        apply(game, {"type": "play", "player": 0, "card": str(after.hands[1][0][0])})
    game = apply(game, {"type": "discard", "side": 1, "player": 0, "cards": "  "})
    final = replay(game)
    assert final.phase == "play" and final.turn == final.aggressor == 1
    assert final.hands[1][0] == state.hands[1][0]  # kept all


def test_oic_8_cannot_discard_a_card_not_held():
    game = new_game(KIND, oic.purple_dragon_setup(), seed=11)
    state = replay(game)
    missing = next(c for c in full_deck() if c not in state.hands[0][0])
    with pytest.raises(RuleError, match=f"OIC-8: Player 1 \\(Purple Dragon League\\) does not hold the {missing.label}"):
        apply(game, {"type": "discard", "side": 0, "player": 0, "cards": [str(missing)]})
    with pytest.raises(ActionError, match="twice"):
        card = str(state.hands[0][0][0])
        apply(game, {"type": "discard", "side": 0, "player": 0, "cards": [card, card.lower()]})


def test_oic_8_no_discard_phase_with_real_cards():
    game = table_game()
    assert replay(game).phase == "play"
    with pytest.raises(RuleError, match="OIC-8: with real cards"):
        apply(game, {"type": "discard", "side": 0, "player": 0, "cards": []})


# ---------------------------------------------------------------------------
# OIC-9 decks


def test_oic_9_each_side_draws_from_its_own_deck():
    overlaps = 0
    for seed in range(5):
        state = replay(new_game(KIND, oic.purple_dragon_setup(), seed=seed))
        assert len(state.draw_piles) == 2
        for s in (0, 1):
            cards_of_side = state.hands[s][0] + state.draw_piles[s]
            assert sorted(cards_of_side, key=lambda c: c.sort_key) == list(full_deck())
        overlaps += len(set(state.hands[0][0]) & set(state.hands[1][0]))
    assert overlaps > 0  # two decks: the same card can be in both hands


def test_oic_9_variant_shared_deck_reshuffles_discards_when_it_runs_out():
    game = new_game(KIND, oic.purple_dragon_setup(), {"deck": "shared"}, seed=4)
    state = replay(game)
    assert len(state.draw_piles) == 1 and len(state.draw_piles[0]) == 52 - 30
    assert not set(state.hands[0][0]) & set(state.hands[1][0])
    first = list(state.hands[0][0])
    game = apply(game, {"type": "discard", "side": 0, "player": 0, "cards": [str(c) for c in first]})
    mid = replay(game)
    assert len(mid.draw_piles[0]) == 7 and len(mid.discard_piles[0]) == 15
    second = list(mid.hands[1][0])
    game = apply(game, {"type": "discard", "side": 1, "player": 0, "cards": [str(c) for c in second]})
    end = replay(game)
    # 7 from the pile; then only the League's 15 earlier discards were shuffled into a new
    # pile and 8 more drawn: the zombies' own 15 discards wait on the discard pile.
    assert len(end.hands[1][0]) == 15 and len(end.draw_piles[0]) == 7
    assert set(end.discard_piles[0]) == set(second)
    everything = end.hands[0][0] + end.hands[1][0] + end.draw_piles[0] + end.discard_piles[0]
    assert len(everything) == 52 == len(set(everything))
    assert set(end.hands[1][0]) & set(first)  # the League's discards came back …
    assert not set(end.hands[1][0]) & set(second)  # … never the zombies' own (OIC-9 variant)


def test_oic_9_variant_own_discards_never_come_back_hr_oic_3_short_refill():
    # Two sides of five players: 25 + 25 cards dealt from one deck, 2 left in the pile. The
    # first player to discard everything can refill only 2: their own 3 other discards never
    # come back in the same refill, so the hand stays short (HR-OIC-3).
    five = [player(f"P{i}", org(f"Org{i}", 14, "S")) for i in range(5)]
    beta = side("Beta", *[player(f"Q{i}", org(f"B{i}", 14, "H")) for i in range(5)])
    setup = conflict_setup(side("Alpha", *five), beta, deck="app")
    game = new_game(KIND, setup, {"deck": "shared"}, seed=9)
    state = replay(game)
    assert len(state.draw_piles[0]) == 2
    hand = [str(c) for c in state.hands[0][0]]
    state = replay(apply(game, {"type": "discard", "side": 0, "player": 0, "cards": hand}))
    assert len(state.hands[0][0]) == 2 and not {str(c) for c in state.hands[0][0]} & set(hand)
    assert "HR-OIC-3" in HOUSE_RULES


def test_oic_9_every_round_starts_with_a_fresh_shuffle_and_hand():
    game = discard_all(new_game(KIND, oic.purple_dragon_setup(), seed=21))
    before = replay(game)
    game = run(game, "pass", "next")  # zombies decline to open (HR-OIC-1), round 2
    state = replay(game)
    assert state.round == 2 and state.phase == "discard" and state.chain == ()
    assert state.discarded == ((False,), (False,))
    assert [len(h) for s in state.hands for h in s] == [15, 15]
    assert state.hands != before.hands
    assert len(state.draw_piles[0]) == 37


# ---------------------------------------------------------------------------
# OIC-10 the first card


def test_oic_10_first_card_must_be_a_suit_where_the_defender_can_be_engaged():
    b = side("Beta", player("B1", org("Army", 14, "S"), org("Church", 5, "H"), org("Farm", 8, "C")))
    game = table_game(conflict_setup(b=b))
    with pytest.raises(RuleError) as err:
        run(game, "4H")
    assert err.value.rule_id == "OIC-10"
    assert str(err.value) == ("OIC-10: Beta cannot be engaged in hearts at home ground (hearts 5, must be "
                              "above 5) — open with spades or clubs")
    with pytest.raises(RuleError, match="OIC-10: Beta cannot be engaged in diamonds"):
        run(game, "JD")
    # Only the first card is limited: later cards may be of any suit.
    assert replay(run(game, "9S", "KS", "2H")).current_card == C("2H")


def test_oic_10_legal_first_cards_in_app_mode_respect_the_defender():
    b = side("Beta", player("B1", org("Army", 14, "S"), org("Church", 4, "H")))
    total = 0
    for seed in range(6):
        state = replay(discard_all(new_game(KIND, conflict_setup(b=b, deck="app"), seed=seed)))
        plays = legal_plays(state)
        total += len(plays)
        assert all(card.suit == Suit.SPADES for _, card in plays)
        assert {card for _, card in plays} == {c for c in state.hands[0][0]
                                              if c.suit == Suit.SPADES and is_usable(c, 9)}
    assert total > 0


# ---------------------------------------------------------------------------
# OIC-11 following, OIC-12 trumps, OIC-13 face on face


@pytest.mark.parametrize("card, current, ok", [
    ("10H", "9H", True), ("9H", "9H", False), ("4H", "9H", False),       # 1. higher in suit
    ("4H", "KH", True), ("3H", "KH", False), ("2H", "JH", True),          # face values J1 Q2 K3
    ("3H", "QH", True), ("2H", "QH", False), ("AH", "JH", False),
    ("JH", "10H", True), ("QH", "9H", True), ("KH", "2H", True),          # 2. face = mini-trump
    ("2D", "10H", True), ("2S", "10H", False), ("2C", "10H", False),      # 3. diamonds trump hearts
    ("2S", "KC", True), ("2H", "AS", True), ("2C", "QD", True),
])
def test_oic_11_follow_rules(card, current, ok):
    assert can_follow(C(card), C(current)) is ok
    assert (why_not_follow(C(card), C(current)) is None) is ok


def test_oic_11_face_card_is_mini_trump():
    for face in ("JS", "QS", "KS"):
        for number in ("2S", "9S", "10S", "AS"):
            assert can_follow(C(face), C(number))


def test_oic_11_reasons_for_players():
    assert why_not_follow(C("4H"), C("9H")) == "OIC-11: the 4♥ neither beats the 9♥ nor trumps it"
    assert why_not_follow(C("2H"), C("QH")) == ("OIC-11: the 2♥ neither beats the Q♥ (a queen counts 2) "
                                                 "nor trumps it")
    assert why_not_follow(C("AH"), C("JH")) == ("OIC-11: the A♥ (an ace counts 1) neither beats the J♥ "
                                                 "(a jack counts 1) nor trumps it")
    assert why_not_follow(C("2S"), C("10H")) == ("OIC-11: the 2♠ neither beats the 10♥ nor trumps it "
                                                  "(only diamonds trump hearts)")
    assert why_not_follow(C("10H"), None) is None
    # Articles read right: "an ace", "an eight".
    assert why_not_follow(C("7H"), C("8H")) == "OIC-11: the 7♥ neither beats the 8♥ nor trumps it"
    assert why_not_follow(C("AH"), C("AH")) == ("OIC-11: the A♥ (an ace counts 1) neither beats the A♥ "
                                                 "(an ace counts 1) nor trumps it")


def test_oic_11_only_the_current_card_matters():
    game = run(table_game(), "9S", "2H", "3H", "2D")
    assert replay(game).current_card == C("2D")
    # Beta answers the 2♦ with a 3♦ although the 9♠ was higher long ago.
    game = run(game, "3D")
    assert [str(p.card) for p in replay(game).chain] == ["9S", "2H", "3H", "2D", "3D"]


def test_oic_11_sides_alternate_and_the_wrong_side_is_refused():
    game = table_game()
    assert replay(game).turn == 0
    game = run(game, "9S")
    assert replay(game).turn == 1
    with pytest.raises(RuleError, match="OIC-11: it is Beta's turn, not Alpha's"):
        apply(game, {"type": "play", "side": 0, "player": 0, "card": "KS"})
    with pytest.raises(RuleError, match="OIC-11: it is Beta's turn"):
        apply(game, {"type": "pass", "side": 0})
    game = apply(game, {"type": "play", "side": 1, "player": 0, "card": "KS"})
    assert replay(game).turn == 0


def test_oic_12_default_trump_circle():
    assert [trumps(s) for s in (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)] == [
        Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES]


def test_oic_12_variant_introduction_trump_circle():
    assert [trumps(s, INTRO) for s in (Suit.SPADES, Suit.CLUBS, Suit.HEARTS, Suit.DIAMONDS)] == [
        Suit.CLUBS, Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES]
    assert can_follow(C("2H"), C("10D"), INTRO) and not can_follow(C("2H"), C("10D"))
    assert can_follow(C("2D"), C("10S"), INTRO) and not can_follow(C("2D"), C("10S"))


@pytest.mark.parametrize("circle", ["cards", "introduction"])
def test_oic_12_each_suit_trumps_one_is_weak_to_one_neutral_to_the_opposite(circle):
    rules = {"trump_circle": circle}
    assert sorted(trumps(s, rules).letter for s in Suit) == sorted(s.letter for s in Suit)
    for suit in Suit:
        target = trumps(suit, rules)
        assert target != suit and trumps(target, rules) != suit
        weak_to = oic.trumped_by(suit, rules)
        neutral = set(Suit) - {suit, target, weak_to}
        assert len(neutral) == 1 and trumps(trumps(suit, rules), rules) == neutral.pop()


def test_oic_12_variant_applies_in_a_game():
    game = table_game(rules=INTRO)
    game = run(game, "9S")
    with pytest.raises(RuleError, match="OIC-11: .*only diamonds trump spades"):
        run(game, "2H")
    assert replay(run(game, "2D")).current_card == C("2D")


def test_oic_13_face_on_face_any_by_default():
    assert can_follow(C("JH"), C("KH")) and can_follow(C("KH"), C("KH"))
    assert replay(run(table_game(), "KS", "JS", "QS")).current_card == C("QS")


def test_oic_13_variant_face_on_face_must_be_higher():
    assert not can_follow(C("JH"), C("KH"), HIGHER)
    assert not can_follow(C("QH"), C("QH"), HIGHER)
    assert can_follow(C("KH"), C("JH"), HIGHER) and can_follow(C("JH"), C("10H"), HIGHER)
    assert why_not_follow(C("JH"), C("KH"), HIGHER).startswith("OIC-13: the J♥ is not higher than the K♥")
    game = run(table_game(rules=HIGHER), "QS")
    with pytest.raises(RuleError) as err:
        run(game, "JS")
    assert err.value.rule_id == "OIC-13"
    run(game, "KS")


def test_oic_13_passing_ends_the_round():
    game = run(table_game(), "9S", "pass")
    state = replay(game)
    assert state.phase == "round-over" and state.turn is None
    assert state.results[-1].winner == 0 and state.results[-1].loser == 1
    with pytest.raises(RuleError, match="OIC-17: round 1 is over"):
        run(game, "KS")


# ---------------------------------------------------------------------------
# OIC-14 teams


@pytest.mark.parametrize("players, cards", [(1, 15), (2, 8), (3, 7), (4, 6), (5, 5), (6, 4), (7, 3), (8, 2)])
def test_oic_14_cards_per_player(players, cards):
    assert hand_size(players) == cards


@pytest.mark.parametrize("players", [0, 9, -1, "2"])
def test_oic_14_a_side_has_one_to_eight_players(players):
    with pytest.raises(ValueError, match="OIC-14"):
        hand_size(players)


def team_setup(deck: str = "table") -> dict[str, Any]:
    team = side("Team", player("Ann", org("Knights", 14, "S")), player("Bob", org("Priests", 13, "H")),
                player("Cid", org("Smiths", 12, "D")))
    return conflict_setup(team, deck=deck)


def test_oic_14_team_hands_dealt_per_player():
    state = replay(new_game(KIND, team_setup("app"), seed=5))
    assert [len(h) for h in state.hands[0]] == [7, 7, 7]
    assert [len(h) for h in state.hands[1]] == [15]
    team_cards = [c for h in state.hands[0] for c in h]
    assert len(set(team_cards)) == 21  # one deck for the team


def test_oic_14_each_player_has_own_ratings_and_the_team_plays_one_card_together():
    game = table_game(team_setup())
    state = replay(game)
    assert player_max_sizes(state, 0, 0)[Suit.SPADES] == 9
    assert player_max_sizes(state, 0, 1)[Suit.SPADES] == -5
    with pytest.raises(RuleError, match="OIC-5: Bob has no organization in spades"):
        apply(game, {"type": "play", "player": 1, "card": "9S"})
    game = apply(game, {"type": "play", "player": 0, "card": "9S"})   # Ann
    assert replay(game).turn == 1
    game = run(game, "KS")                                              # Beta
    with pytest.raises(RuleError, match="OIC-5: the 9♥ is above Bob's max card size in hearts"):
        apply(game, {"type": "play", "player": 1, "card": "9H"})
    game = apply(game, {"type": "play", "player": 1, "card": "8H"})   # Bob trumps with hearts
    chain = replay(game).chain
    assert [(p.side, p.player, str(p.card)) for p in chain] == [(0, 0, "9S"), (1, 0, "KS"), (0, 1, "8H")]
    assert oic.describe(replay(game), {"type": "play", "player": 0, "card": "2D"}) == \
        "Round 1 · Beta plays 2♦ — trumps the 8♥"


def test_oic_14_legal_plays_come_from_every_players_hand():
    game = discard_all(new_game(KIND, team_setup("app"), seed=5))
    state = replay(game)
    plays = legal_plays(state)
    assert {p for p, _ in plays} <= {0, 1, 2}
    for p, card in plays:
        assert card in state.hands[0][p]
        check_play(state, p, card)


def test_oic_14_more_than_five_players_gives_a_warning():
    six = side("Crowd", *[player(f"P{i}", org(f"o{i}", 10, "S")) for i in range(6)])
    warnings = setup_warnings(conflict_setup(six))
    assert any(w.startswith("OIC-14: Crowd has 6 players") and "no advantage" in w for w in warnings)
    five = side("Five", *[player(f"P{i}", org(f"o{i}", 10, "S")) for i in range(5)])
    assert not any("OIC-14" in w for w in setup_warnings(conflict_setup(five)))


# ---------------------------------------------------------------------------
# OIC-15 consequences, OIC-16 rating changes


def test_oic_15_last_card_matches_first_winner_gains_one():
    state = replay(run(table_game(), "9S", "pass"))
    result = state.results[0]
    assert (result.winner, result.loser, result.suit, result.change_side) == (0, 1, Suit.SPADES, 0)
    assert (result.organization, result.power_before, result.power_after, result.delta) == ("Alpha S", 14, 15, 1)
    assert power(state, 0, "Alpha S") == 15
    assert result.explanation == "last card ♠ = first card ♠: Alpha gains 1 in spades; Alpha S 14 → 15"


def test_oic_15_otherwise_loser_loses_one_in_the_suit_of_the_last_card():
    state = replay(run(table_game(), "9S", "2H", "3H", "pass"))
    result = state.results[0]
    assert result.winner == 0 and result.first_card == C("9S") and result.last_card == C("3H")
    assert (result.change_side, result.suit, result.power_before, result.power_after) == (1, Suit.HEARTS, 13, 12)
    assert power(state, 1, "Beta H") == 12 and power(state, 0, "Alpha S") == 14
    assert result.explanation == "last card ♥ ≠ first card ♠: Beta loses 1 in hearts; Beta H 13 → 12"
    assert result.headline == "Round 1: Alpha wins — Beta could not play on the 3♥"


def test_oic_16_ties_change_the_first_listed_organization():
    b = side("Beta", player("B1", org("Old guard", 10, "S"), org("New guard", 10, "S"), org("Inn", 9, "H")))
    state = replay(run(table_game(conflict_setup(b=b)), "9S", "JS", "2H", "pass"))
    assert power(state, 1, "Inn") == 8
    state = replay(run(table_game(conflict_setup(b=b, aggressor=1)), "5S", "pass"))
    assert power(state, 1, "Old guard") == 11 and power(state, 1, "New guard") == 10


def test_oic_16_team_changes_its_best_organization_among_players():
    team = side("Team", player("Ann", org("Squires", 10, "S")), player("Bob", org("Knights", 12, "S")))
    state = replay(run(table_game(conflict_setup(team)), {"type": "play", "player": 1, "card": "7S"}, "pass"))
    assert power(state, 0, "Knights") == 13 and power(state, 0, "Squires") == 10
    assert state.results[0].player == 1


def test_oic_16_no_organization_in_the_suit_loses_nothing():
    b = side("Beta", player("B1", org("Army", 14, "S")))
    state = replay(run(table_game(conflict_setup(b=b)), "9S", "JS", "2H", "pass"))
    result = state.results[0]
    assert result.organization is None and result.delta == 0 and not result.changed
    assert result.explanation == ("last card ♥ ≠ first card ♠: Beta has no organization in hearts, "
                                  "so nothing changes (OIC-16, ruling)")
    assert state.sides[1] == state.initial_sides[1]
    assert "OIC-16" in oic.RULINGS


def test_oic_16_ratings_never_go_below_zero():
    b = side("Beta", player("B1", org("Army", 14, "S"), org("Nobody", 0, "H")))
    state = replay(run(table_game(conflict_setup(b=b)), "9S", "JS", "2H", "pass"))
    result = state.results[0]
    assert power(state, 1, "Nobody") == 0
    assert result.delta == 0 and result.power_before == result.power_after == 0
    assert "already at 0" in result.explanation


# ---------------------------------------------------------------------------
# OIC-17 multi-round conflicts


def test_oic_17_loser_opens_the_next_round():
    game = run(table_game(), "9S", "pass")
    assert replay(game).results[0].loser == 1
    game = run(game, "next")
    state = replay(game)
    assert (state.round, state.aggressor, state.turn, state.phase) == (2, 1, 1, "play")
    assert oic.describe(replay(run(table_game(), "9S", "pass")), {"type": "next_round"}) == "Round 2 · Beta opens"


def test_oic_17_next_round_only_after_a_round():
    with pytest.raises(RuleError, match="OIC-17: round 1 is still being played"):
        run(table_game(), "next")


def weak_beta() -> dict[str, Any]:
    # Beta can be engaged only in spades (6 > 5); everything else is at 5 or lower.
    return side("Beta", player("B1", org("Last stand", 6, "S"), org("Farm", 3, "C"), org("Guild", 5, "D")))


def test_oic_17_conflict_ends_when_a_side_cannot_be_engaged_in_any_suit():
    game = table_game(conflict_setup(b=weak_beta(), aggressor=1))
    # Beta opens with a face club; Alpha trumps with a spade; Beta cannot play and loses a spade.
    game = run(game, "JC", "2S", "pass")
    state = replay(game)
    assert state.phase == "conflict-over" and state.is_over and state.winner == 0
    assert power(state, 1, "Last stand") == 5
    assert state.end_message == ("OIC-17: Beta can no longer be engaged in any suit at home ground — "
                                 "Alpha wins the conflict after 1 round (1 day).")
    assert oic.status(state) == "The conflict is over: Alpha wins (OIC-17)."
    for action in ("pass", "next", "KS"):
        with pytest.raises(RuleError, match="OIC-17: the conflict is over") as refused:
            run(game, action)
        assert str(refused.value).count("OIC-17") == 1  # the rule id is not repeated


def test_oic_17_history_keeps_rounds_and_elapsed_time():
    game = run(table_game(), "9S", "pass", "next", "9S", "pass", "next", "pass")
    state = replay(game)
    assert [r.number for r in state.results] == [1, 2, 3]
    assert [r.aggressor for r in state.results] == [0, 1, 0]
    assert [r.winner for r in state.results] == [0, 1, 1]
    assert [str(r.first_card) for r in state.results[:2]] == ["9S", "9S"]
    assert [r.elapsed for r in state.results] == ["1 day", "2 days", "3 days"]
    assert state.elapsed == "3 days"
    assert history(game)[:3] == ["Round 1 · Alpha plays 9♠ — opens", "Round 1 · Beta cannot play — round ends",
                                 "Round 2 · Beta opens"]
    assert history(game)[-1] == "Round 3 · Alpha does not open — round ends"


def test_oic_17_a_side_that_cannot_be_engaged_at_the_start_ends_the_conflict_at_once():
    hopeless = side("Beta", player("B1", org("Mob", 5, "S")))
    setup = conflict_setup(b=hopeless)
    warnings = setup_warnings(setup)
    assert any(w.startswith("OIC-17: Beta cannot be engaged in any suit at home ground") for w in warnings)
    state = replay(table_game(setup))
    assert state.phase == "conflict-over" and state.winner == 0 and state.results == ()
    assert "before a card is played" in state.end_message
    both = conflict_setup(hopeless, side("Gamma", player("G", org("x", 2, "H"))))
    state = replay(table_game(both))
    assert state.is_over and state.winner is None and "neither" in state.end_message


@pytest.mark.parametrize("scope, rounds, text", [
    ("home", 0, "0 days"), ("home", 1, "1 day"), ("home", 3, "3 days"), ("regional", 2, "2 weeks"),
    ("war", 1, "1 campaign season (1 month of fighting)"), ("war", 4, "1 campaign season (4 months of fighting)"),
    ("war", 5, "2 campaign seasons (5 months of fighting)"), ("war", 6, "2 campaign seasons (6 months of fighting)"),
    ("war", 9, "3 campaign seasons (9 months of fighting)"),
    ("world war", 1, "1 year"), ("world war", 4, "4 years"), ("superconflict", 3, "3 decades"),
])
def test_oic_3_oic_17_in_world_time(scope, rounds, text):
    assert in_world_time(scope, rounds) == text


def test_oic_17_in_world_time_refuses_negative_rounds():
    with pytest.raises(ValueError):
        in_world_time("home", -1)


# ---------------------------------------------------------------------------
# House rule HR-OIC-1


def test_hr_oic_1_aggressor_passing_before_any_card_changes_nothing():
    assert "HR-OIC-1" in HOUSE_RULES and "nothing is at stake" in HOUSE_RULES["HR-OIC-1"]
    game = run(table_game(), "pass")
    state = replay(game)
    result = state.results[0]
    assert result.house_rule == "HR-OIC-1" and result.winner == 1 and result.delta == 0
    assert result.first_card is None and result.explanation.startswith("HR-OIC-1 (house rule)")
    assert state.sides == state.initial_sides
    assert replay(run(game, "next")).aggressor == 0  # the aggressor lost, so it opens again


# ---------------------------------------------------------------------------
# Variants and settings


def test_variants_have_ids_labels_explanations_and_defaults():
    table = {v.key: v for v in VARIANTS}
    assert set(table) == {"trump_circle", "face_on_face", "deck"}
    assert (table["trump_circle"].rule_id, table["face_on_face"].rule_id, table["deck"].rule_id) == (
        "OIC-12", "OIC-13", "OIC-9")
    assert resolve_rules(VARIANTS) == {"trump_circle": "cards", "face_on_face": "any", "deck": "per-side"}
    for variant in VARIANTS:
        assert variant.label and variant.explanation and len(variant.choices) == 2
        for value, text in variant.choices:
            assert variant.describe(value) == text
    with pytest.raises(SettingsError):
        new_game(KIND, conflict_setup(), {"trump_circle": "square"}, seed=1)
    assert replay(table_game(rules=HIGHER)).settings["face_on_face"] == "higher"


# ---------------------------------------------------------------------------
# Setup validation and warnings


def test_setup_is_canonical_and_idempotent():
    normal = normalize_setup(conflict_setup(scope="Home ground", deck="app"))
    assert normal["scope"] == "home"
    assert normalize_setup(normal) == normal
    assert normalize_setup({"sides": conflict_setup()["sides"], "scope": "war"})["aggressor"] == 0
    assert normalize_setup({"sides": conflict_setup()["sides"], "scope": "war"})["deck"] == "app"


def _bad(mutate) -> dict[str, Any]:
    setup = conflict_setup()
    mutate(setup)
    return setup


@pytest.mark.parametrize("setup, message", [
    ("nope", "must be an object"),
    (_bad(lambda s: s.pop("sides")), "sides are missing"),
    (_bad(lambda s: s["sides"].pop()), "exactly 2 sides"),
    (_bad(lambda s: s.update(scope="galaxy")), "Unknown scope"),
    (_bad(lambda s: s.pop("scope")), "conflict's scope is missing"),
    (_bad(lambda s: s.update(aggressor=2)), "aggressor must be side 0 or side 1"),
    (_bad(lambda s: s.update(aggressor=True)), "aggressor must be side 0 or side 1"),
    (_bad(lambda s: s.update(deck="paper")), "deck must be"),
    (_bad(lambda s: s.update(extra=1)), 'unknown field "extra"'),
    (_bad(lambda s: s["sides"][0].update(name="   ")), "Side 1: the name is empty"),
    (_bad(lambda s: s["sides"][0].update(name="x" * 61)), "longer than 60"),
    (_bad(lambda s: s["sides"][0].update(name=5)), "name must be text"),
    (_bad(lambda s: s["sides"][1].update(scope="space")), r"Side 2 \(Beta\): Unknown scope"),
    (_bad(lambda s: s["sides"][0].update(players=[])), "1 to 8 players"),
    (_bad(lambda s: s["sides"][0].update(players=[player(f"p{i}", org("o", 9, "S")) for i in range(9)])),
     "1 to 8 players"),
    (_bad(lambda s: s["sides"][0]["players"][0].update(name="")), "player 1: the name is empty"),
    (_bad(lambda s: s["sides"][0]["players"][0].update(organizations=[org("o", 9, "S")] * 21)),
     "at most 20 organizations"),
    (_bad(lambda s: s["sides"][0]["players"][0].update(organizations=[])), "has no organization"),
    (_bad(lambda s: s["sides"][0]["players"][0]["organizations"][0].update(power="14")),
     "power must be a whole number from 0 to 999"),
    (_bad(lambda s: s["sides"][0]["players"][0]["organizations"][0].update(power=1000)), "0 to 999"),
    (_bad(lambda s: s["sides"][0]["players"][0]["organizations"][0].update(power=-1)), "0 to 999"),
    (_bad(lambda s: s["sides"][0]["players"][0]["organizations"][0].update(power=9.0)), "0 to 999"),
    (_bad(lambda s: s["sides"][0]["players"][0]["organizations"][0].update(power=True)), "0 to 999"),
    (_bad(lambda s: s["sides"][0]["players"][0]["organizations"][0].update(suit="X")), "suit must be S, H, D or C"),
    (_bad(lambda s: s["sides"][0]["players"][0]["organizations"][0].update(name="a\nb")), "line break"),
    (_bad(lambda s: s["sides"][0]["players"][0]["organizations"][0].update(location=7)), "location must be text"),
])
def test_setup_errors_are_clear(setup, message):
    with pytest.raises(SetupError, match=message):
        normalize_setup(setup)
    with pytest.raises(ValueError):
        new_game(KIND, setup, seed=1)


def test_setup_warnings_side_scope_below_conflict_scope_and_empty_player():
    a = side("Locals", player("P", org("Army", 30, "S")), player("Q"), scope="home")
    b = side("Empire", player("E", org("Legions", 30, "S")), scope="war")
    warnings = setup_warnings(conflict_setup(a, b, scope="war"))
    assert any(w.startswith("OIC-4: Locals reaches only to home ground scope") for w in warnings)
    assert not any("Empire reaches" in w for w in warnings)
    assert any(w.startswith("OIC-5: Q (Locals) controls no organization") for w in warnings)
    assert setup_warnings(conflict_setup()) == []


# ---------------------------------------------------------------------------
# Actions, checks, descriptions


@pytest.mark.parametrize("action, message", [
    ("play", "must be an object"),
    ({"type": "shout"}, "Unknown action type"),
    ({"type": "play", "card": "9S"}, "needs its 'player'"),
    ({"type": "play", "player": True, "card": "9S"}, "whole number"),
    ({"type": "play", "player": 0}, "needs its 'card'"),
    ({"type": "play", "player": 0, "card": "1S"}, 'Not a card: "1S"'),
    ({"type": "play", "player": 3, "card": "9S"}, "There is no player 3 on Alpha"),
    ({"type": "play", "player": 0, "card": "9S", "side": 2}, "There is no side 2"),
    ({"type": "discard", "side": 0, "cards": []}, "needs its 'player'"),
    ({"type": "discard", "side": 0, "player": 0, "cards": 5}, "list of cards"),
])
def test_malformed_actions_raise_action_error(action, message):
    with pytest.raises(ActionError, match=message):
        oic.step(replay(table_game()), action, None, random.Random(0))


def test_oic_9_table_mode_a_side_cannot_play_the_same_card_twice_in_a_round():
    game = run(table_game(), "JS", "KS", "QS")
    with pytest.raises(RuleError, match="OIC-9: the K♠ was already played by Beta this round"):
        run(game, "KS")
    # Each side has its own deck: Beta may play the J♠ that Alpha played.
    assert replay(run(game, "JS")).current_card == C("JS")


def test_oic_9_table_mode_shared_deck_forbids_repeats_across_sides():
    game = run(table_game(rules={"deck": "shared"}), "JS", "KS", "QS")
    with pytest.raises(RuleError, match=r"OIC-9: the J♠ was already played by Alpha this round \(one shared deck\)"):
        run(game, "JS")


def test_app_mode_card_must_be_held():
    game = discard_all(new_game(KIND, oic.purple_dragon_setup(), seed=8))
    state = replay(game)
    missing = next(c for c in full_deck() if c not in state.hands[1][0] and c.is_face)
    with pytest.raises(RuleError, match=f"OIC-8: you do not hold the {missing.label}"):
        run(game, str(missing))


def test_describe_labels():
    game = new_game(KIND, oic.purple_dragon_setup(), seed=2)
    state = replay(game)
    hand = state.hands[0][0]
    assert oic.describe(state, {"type": "discard", "side": 0, "player": 0, "cards": [str(c) for c in hand[:3]]}) \
        == "Round 1 · Player 1 (Purple Dragon League) discards 3 cards"
    assert oic.describe(state, {"type": "discard", "side": 1, "player": 0, "cards": []}) \
        == "Round 1 · Player 2 (Zombie invasion) keeps all cards"
    game = discard_all(game)
    state = replay(game)
    assert oic.describe(state, {"type": "play", "player": 0, "card": "9s"}) == "Round 1 · Zombie invasion plays 9♠ — opens"
    assert oic.describe(state, {"type": "pass"}) == "Round 1 · Zombie invasion does not open — round ends"
    assert oic.describe(state, "junk") == "Unknown action"


def test_status_sentences():
    game = new_game(KIND, oic.purple_dragon_setup(), seed=2)
    assert oic.status(replay(game)) == ("Round 1 · discard (OIC-8): waiting for Player 1 (Purple Dragon League) "
                                        "or Player 2 (Zombie invasion)")
    assert oic.status(replay(table_game())) == "Round 1 · Alpha opens (OIC-10)"
    assert oic.status(replay(run(table_game(), "9S"))) == "Round 1 · Beta to play on the 9♠"
    assert oic.status(replay(run(table_game(), "9S", "pass"))) == (
        "Round 1: Alpha wins — Beta could not play on the 9♠. Beta opens round 2.")


def test_step_never_mutates_its_input():
    rng = random.Random(3)
    state = oic.start(oic.purple_dragon_setup(), None, rng)
    snapshot = (state.hands, state.draw_piles, state.discard_piles, state.discarded, state.sides)
    copy = oic.ConflictState(**{f: getattr(state, f) for f in state.__dataclass_fields__})
    new = oic.step(state, {"type": "discard", "side": 0, "player": 0, "cards": [str(state.hands[0][0][0])]},
                   None, rng)
    assert new is not state and new != state
    assert state == copy
    assert (state.hands, state.draw_piles, state.discard_piles, state.discarded, state.sides) == snapshot


# ---------------------------------------------------------------------------
# Public (spectator) game


def play_out(game: Game, rng: random.Random, max_actions: int, pass_chance: float = 0.05):
    """Random legal play; yields the game after each action."""
    while len(game.actions) < max_actions:
        state = replay(game)
        if state.phase == "conflict-over":
            return
        if state.phase == "discard":
            s, p = next((s, p) for s in (0, 1) for p in range(len(state.sides[s].players))
                        if not state.discarded[s][p])
            cards = [str(c) for c in state.hands[s][p] if rng.random() < 0.3]
            action: dict[str, Any] = {"type": "discard", "side": s, "player": p, "cards": cards}
        elif state.phase == "round-over":
            action = {"type": "next_round"}
        else:
            plays = legal_plays(state)
            if plays and rng.random() >= pass_chance:
                p, card = rng.choice(plays)
                action = {"type": "play", "player": p, "card": str(card)}
            else:
                action = {"type": "pass"}
        game = apply(game, action)
        yield game


def last(iterable):
    item = None
    for item in iterable:
        pass
    return item


def public_view(state: oic.ConflictState):
    return (state.sides, state.results, state.chain, state.round, state.aggressor, state.winner,
            state.end_message)


def test_public_game_replays_to_the_same_ratings_rounds_and_chain():
    game = new_game(KIND, oic.purple_dragon_setup(), seed=42)
    game = last(play_out(game, random.Random(42), 120))
    assert len(replay(game).results) >= 2
    public = public_game(game)
    assert public.seed == 0 and public.setup["deck"] == "app"  # the game's own deck: the copy's mark (issue 30)
    assert replay(public).deck_mode == "table"  # it replays the cards played
    assert not any(a["type"] == "discard" for a in public.actions)
    shown = replay(public)
    assert all(h == () for s in shown.hands for h in s)
    assert public_view(shown) == public_view(replay(game))
    # The same point in the middle of the history, too.
    for position in range(0, len(game.actions), 7):
        middle = goto(game, position)
        original = replay(middle)
        spectator = replay(public_game(middle))
        assert public_view(spectator) == public_view(original)
        if original.phase != "discard":
            assert spectator.phase == original.phase and spectator.turn == original.turn


# ---------------------------------------------------------------------------
# Properties

rule_settings = st.fixed_dictionaries({
    "trump_circle": st.sampled_from(["cards", "introduction"]),
    "face_on_face": st.sampled_from(["any", "higher"]),
    "deck": st.sampled_from(["per-side", "shared"]),
})

suits = st.sampled_from(["S", "H", "D", "C"])
org_strategy = st.builds(org, st.sampled_from(["a", "b", "c"]), st.integers(0, 18), suits)
#: Powers 6–9 at home ground fall out of reach after a few lost rounds, so conflicts end.
anchor_strategy = st.builds(org, st.just("anchor"), st.integers(6, 18), suits)


@st.composite
def setups(draw, deck=st.sampled_from(["app", "table"]), max_players: int = 3):
    sides = []
    for name in ("Alpha", "Beta"):
        count = draw(st.integers(1, max_players))
        players = [player(f"{name}{i}", *draw(st.lists(org_strategy, min_size=0, max_size=3)))
                   for i in range(count)]
        players[0]["organizations"].insert(0, draw(anchor_strategy))
        sides.append(side(name, *players, scope=draw(st.sampled_from(["home", "home", "regional"]))))
    return {"sides": sides, "scope": draw(st.sampled_from(["home", "home", "home", "regional"])),
            "aggressor": draw(st.integers(0, 1)), "deck": draw(deck)}


def test_can_follow_and_why_not_follow_agree_on_every_pair():
    for rules in ({"trump_circle": c, "face_on_face": f} for c in ("cards", "introduction")
                  for f in ("any", "higher")):
        for card in full_deck():
            for current in full_deck():
                ok = can_follow(card, current, rules)
                reason = why_not_follow(card, current, rules)
                assert ok is (reason is None)
                if not ok:
                    assert reason.startswith(("OIC-11: ", "OIC-13: ")) and card.label in reason
                # The three ways of OIC-11, stated independently.
                same = card.suit == current.suit
                expected = ((same and card_value(card) > card_value(current) and not card.is_face)
                            or (same and card.is_face and (rules["face_on_face"] == "any" or not current.is_face
                                                          or card.rank > current.rank))
                            or trumps(card.suit, rules) == current.suit)
                assert ok is expected


@settings(max_examples=20)
@given(setups(), rule_settings, st.integers(0, 2**32 - 1))
def test_every_accepted_card_follows_and_is_usable(setup, rules, seed):
    game = new_game(KIND, setup, rules, seed)
    rng = random.Random(seed)
    for game in play_out(game, rng, 40):
        state = replay(game)
        if state.phase != "play":
            continue
        side_ = state.turn
        candidates = ([(p, c) for p, hand in enumerate(state.hands[side_]) for c in hand]
                      if state.deck_mode == "app" else
                      [(p, c) for p in range(len(state.sides[side_].players)) for c in full_deck()])
        accepted = []
        for p, card in candidates:
            try:
                check_play(state, p, card)
            except RuleError as err:
                assert str(err).startswith(("OIC-5", "OIC-8", "OIC-9", "OIC-10", "OIC-11", "OIC-13", "OIC-18"))
                continue
            accepted.append((p, card))
            assert is_usable(card, player_max_sizes(state, side_, p)[card.suit])
            if state.chain:
                assert can_follow(card, state.current_card, state.settings)
            else:
                assert can_engage(side_ratings(state, state.defender)[card.suit], state.scope)
        assert accepted == legal_plays(state)


@settings(max_examples=20)
@given(setups(), rule_settings, st.integers(0, 2**32 - 1))
def test_random_play_out_rounds_end_ratings_stay_non_negative_and_replay_is_identical(setup, rules, seed):
    game = new_game(KIND, setup, rules, seed)
    rng = random.Random(seed ^ 0x5EED)
    for game in play_out(game, rng, 120, pass_chance=0.0):
        state = replay(game)
        assert all(o.power >= 0 for s in state.sides for o in s.organizations)
        # A chain is finite: each card comes from a hand (app) or is played once per side (table).
        limit = (sum(hand_size(len(s.players)) * len(s.players) for s in state.sides)
                 if state.deck_mode == "app" else 2 * 52)
        assert len(state.chain) <= limit
        for before, after in zip(state.chain, state.chain[1:]):
            assert after.side != before.side
            assert can_follow(after.card, before.card, state.settings)
        if state.results:
            assert state.results[-1].number == len(state.results)
        if state.is_over and state.results:
            assert oic.engageable_suits(state, state.winner) != []
            assert oic.engageable_suits(state, 1 - state.winner) == []
            assert state.results[-1].loser == 1 - state.winner
    state = replay(game)
    assert state.phase in ("conflict-over", "round-over", "play", "discard")
    fresh = Game(game.kind, game.seed, game.rules, game.setup, game.actions, game.position)
    assert replay(fresh) == state
    assert [r.delta for r in state.results] == [r.delta for r in replay(fresh).results]


@settings(max_examples=20)
@given(setups(deck=st.just("app")), rule_settings, st.integers(0, 2**32 - 1), st.integers(0, 200))
def test_public_game_replays_to_the_same_public_state(setup, rules, seed, cut):
    game = last(play_out(new_game(KIND, setup, rules, seed), random.Random(seed), 80))
    if game is None:
        return
    game = goto(game, cut % (len(game.actions) + 1))
    assert public_view(replay(public_game(game))) == public_view(replay(game))


@settings(max_examples=40)
@given(st.sampled_from(full_deck()), st.integers(-30, 30))
def test_oic_5_usable_matches_the_text(card, size):
    expected = card.is_face or (card_value(card) <= size and size >= 1)
    assert is_usable(card, size) is expected


def test_rule_functions_cite_their_rule_ids():
    for fn in (max_card_size, is_usable, card_value, trumps, can_follow, why_not_follow, can_engage,
               in_world_time, hand_size, check_play, legal_plays, oic.purple_dragon_setup):
        assert fn.__doc__.startswith("OIC-"), fn.__name__
    assert Rank.ACE > Rank.KING and Card(Rank.ACE, Suit.SPADES) == C("AS")


def test_hr_oic_2_equal_organizations_the_first_listed_changes():
    setup = {
        "sides": [
            {"name": "A", "scope": "home", "players": [{"name": "Ann", "organizations": [
                {"name": "Pride", "power": 20, "suit": "S"}]}]},
            {"name": "B", "scope": "home", "players": [
                {"name": "Bo", "organizations": [{"name": "First", "power": 12, "suit": "H"}]},
                {"name": "Cy", "organizations": [{"name": "Second", "power": 12, "suit": "H"},
                                                 {"name": "Third", "power": 12, "suit": "H"}]}]},
        ],
        "scope": "home", "aggressor": 1, "deck": "table",
    }
    game = new_game("conflict", setup, seed=0)
    for action in ({"type": "play", "player": 1, "card": "JS"}, {"type": "play", "player": 0, "card": "JH"},
                   {"type": "pass"}):
        game = apply(game, action)
    result = replay(game).results[-1]
    assert (result.organization, result.power_before, result.power_after) == ("First", 12, 11)
    assert "HR-OIC-2" in HOUSE_RULES


def test_history_labels_say_what_each_card_did():
    """The history reads like the table: who opened, who trumped, face cards on cards."""
    setup = oic.purple_dragon_setup()
    setup["deck"] = "table"
    game = new_game("conflict", setup, seed=0)
    for card in ("5S", "QS", "3H"):
        game = apply(game, {"type": "play", "player": 0, "card": card})
    labels = history(game)
    assert labels[0] == "Round 1 · Zombie invasion plays 5♠ — opens"
    assert labels[1] == "Round 1 · Purple Dragon League plays Q♠ — face card on the 5♠"
    assert labels[2] == "Round 1 · Zombie invasion plays 3♥ — trumps the Q♠"
