"""Organizations In Conflict as a referee that cannot be fooled (issue 20).

Every action has one canonical form (:func:`engine.conflict.normalize_action`), and
``step`` refuses exactly what it refuses; every public helper refuses a bad argument
with a ``ValueError`` subclass whose message says what was wrong, and takes cards as
``Card`` s or tokens alike. Games saved by earlier versions still open as they were
played (:func:`engine.conflict.upgrade`).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from engine import codec
from engine import conflict as oic
from engine.cards import Card, CardError, Suit, parse_card
from engine.conflict import opponent as solo
from engine.game import ActionError, Game, RuleError, apply, goto, history, new_game, replay, validate
from engine.rules import SettingsError

C = parse_card


def table_game(**setup: Any) -> Game:
    """The worked example (OIC-7) with real cards: the zombies open."""
    return new_game("conflict", oic.purple_dragon_setup() | {"deck": "table"} | setup, seed=3)


def app_game(seed: int = 5, **setup: Any) -> Game:
    return new_game("conflict", oic.purple_dragon_setup() | setup, seed=seed)


def keep_all(game: Game) -> Game:
    for side in (1, 0):
        game = apply(game, {"type": "discard", "side": side, "player": 0, "cards": []})
    return game


def solo_game(seed: int = 5) -> Game:
    setup = oic.purple_dragon_setup()
    setup["sides"][1].update(controller="app", level="normal")
    return new_game("conflict", setup, seed=seed)


# ---------------------------------------------------------------------------
# One canonical form per action


def test_a_play_is_stored_with_its_side_and_an_upper_case_token():
    game = apply(table_game(), {"type": "play", "player": 0, "card": "9s"})
    assert game.actions[-1] == {"type": "play", "side": 1, "player": 0, "card": "9S"}
    assert oic.normalize_action(replay(game), {"type": "play", "player": 0, "card": "4h"}) == {
        "type": "play", "side": 0, "player": 0, "card": "4H"}


def test_a_pass_names_its_side_and_next_round_and_call_have_no_fields():
    game = apply(table_game(), {"type": "play", "player": 0, "card": "9S"})
    game = apply(game, {"type": "pass"})
    assert game.actions[-1] == {"type": "pass", "side": 0}
    state = replay(game)
    assert oic.normalize_action(state, {"type": "next_round"}) == {"type": "next_round"}
    assert oic.normalize_action(state, {"type": "call"}) == {"type": "call"}


def test_a_discard_keeps_its_order_in_canonical_tokens_and_takes_text_too():
    game = app_game()
    hand = replay(game).hands[1][0]
    picked = [str(hand[3]).lower(), str(hand[0]).lower()]
    assert oic.normalize_action(replay(game), {"type": "discard", "side": 1, "player": 0, "cards": picked}) == {
        "type": "discard", "side": 1, "player": 0, "cards": [picked[0].upper(), picked[1].upper()]}
    as_text = {"type": "discard", "side": 1, "player": 0, "cards": " ".join(picked)}
    assert apply(game, as_text).actions[-1]["cards"] == [picked[0].upper(), picked[1].upper()]


@pytest.mark.parametrize("action, message", [
    ({"type": "pass", "x": 1}, "A pass action has no field 'x'"),
    ({"type": "next_round", "why": "because"}, "has no field 'why'"),
    ({"type": "call", "side": 0}, "A call action has no field 'side'"),
    ({"type": "play", "player": 0, "card": "9S", "seat": 1}, "has no field 'seat'"),
    ({"type": "play", "player": 0, "card": "9S", "side": None}, "'side' of a play action must be a whole number"),
    ({"type": "play", "player": 0.0, "card": "9S"}, "'player' of a play action must be a whole number"),
    ({"type": "play", "player": 10**100, "card": "9S"}, "There is no player"),
    ({"type": "play", "player": 0, "card": ["9S"]}, "Not a card"),
    ({"type": "discard", "side": 1, "player": 0}, "needs its 'cards'"),
    ({"type": "pass", "why": ""}, "not empty"),
    ({"type": "pass", "why": "\u202eplays"}, "one line of text"),
    ({"type": "pass", "why": "a\u200bb"}, "one line of text"),
    ({"type": "Play", "player": 0, "card": "9S"}, "Unknown action type"),
    ({"type": ["play"]}, "Unknown action type"),
])
def test_malformed_actions_are_refused_with_what_is_wrong(action, message):
    game = table_game()
    with pytest.raises(ActionError, match=message):
        apply(game, action)
    with pytest.raises(ActionError, match=message):
        oic.normalize_action(replay(game), action)
    with pytest.raises(ActionError, match=message):
        oic.step(replay(game), action, None, random.Random(0))


def test_out_of_turn_moves_cite_the_clause():
    game = table_game()  # the zombies (side 1) open
    with pytest.raises(RuleError, match=r"^OIC-11: it is Zombie invasion's turn, not Purple Dragon League's"):
        apply(game, {"type": "play", "side": 0, "player": 0, "card": "9S"})
    with pytest.raises(RuleError, match=r"^OIC-11: it is Zombie invasion's turn"):
        apply(game, {"type": "pass", "side": 0})
    with pytest.raises(RuleError, match=r"^OIC-17: round 1 is still being played"):
        apply(game, {"type": "next_round"})
    with pytest.raises(RuleError, match=r"^OIC-19: round 1 is still being played: the table can end the conflict "
                                        "only between rounds"):
        apply(game, {"type": "call"})
    dealt = app_game()
    with pytest.raises(RuleError, match=r"^OIC-8: every player discards"):
        apply(dealt, {"type": "pass"})


def test_may_this_be_done_has_one_shape_check_raises_can_answers_step_does():
    """Issue 31: each action's check_* raises what normalize_action raises (the clause),
    its can_* answers, and step does it."""
    game = table_game()  # the zombies (side 1) open; round 1 is being played
    state = replay(game)
    questions = [
        (oic.check_play, oic.can_play, (0, "9S"), {"type": "play", "player": 0, "card": "9S"}),
        (oic.check_play, oic.can_play, (0, "9S", 0), {"type": "play", "side": 0, "player": 0, "card": "9S"}),
        (oic.check_play, oic.can_play, (0, "2S"), {"type": "play", "player": 0, "card": "2S"}),
        (oic.check_pass, oic.can_pass, (), {"type": "pass"}),
        (oic.check_pass, oic.can_pass, (0,), {"type": "pass", "side": 0}),
        (oic.check_next_round, oic.can_next_round, (), {"type": "next_round"}),
        (oic.check_call, oic.can_call, (), {"type": "call"}),
        (oic.check_discard, oic.can_discard, (0, 0, []), {"type": "discard", "side": 0, "player": 0, "cards": []}),
    ]
    dealt = keep_all(app_game())
    between = round_won_by(table_game(), "9S")
    over = apply(between, {"type": "call"})
    for g in (game, app_game(), dealt, between, over):
        st = replay(g)
        for check, can, args, action in questions:
            try:
                oic.normalize_action(st, action)
            except (RuleError, ActionError) as err:
                with pytest.raises(type(err)) as refused:
                    check(st, *args)
                assert getattr(refused.value, "rule_id", None) == getattr(err, "rule_id", None)
                assert can(st, *args) is False
            else:
                assert check(st, *args) is None and can(st, *args) is True
                apply(g, action)  # and the step does it
    assert oic.can_play(state, 0, "9S") and not oic.can_play(state, 0, "9S", side=0)
    with pytest.raises(RuleError, match=r"^OIC-11: it is Zombie invasion's turn, not Purple Dragon League's"):
        oic.check_play(state, 0, "9S", side=0)
    with pytest.raises(RuleError, match=r"^OIC-19: round 1 is still being played"):
        oic.check_call(state)
    assert oic.can_call(replay(between)) and oic.can_next_round(replay(between)) and not oic.can_pass(replay(between))
    with pytest.raises(RuleError, match="^OIC-17: the conflict is over"):
        oic.check_next_round(replay(over))
    # A player, side or card that does not exist is a "no" too (ActionError from check_*) …
    assert not oic.can_play(state, 7, "9S") and not oic.can_play(state, 0, "1X") and not oic.can_pass(state, 2)
    with pytest.raises(ActionError, match="There is no player 7"):
        oic.check_play(state, 7, "9S")
    # … but something that is not a conflict's state is the caller's mistake.
    for can in (oic.can_play, oic.can_pass, oic.can_next_round, oic.can_call, oic.can_discard):
        with pytest.raises(oic.ArgumentError, match="Not the state of a conflict"):
            can(None, *([0] * (can.__code__.co_argcount - 1)))


def test_a_why_belongs_to_the_apps_own_moves_only():
    game = solo_game()
    state = replay(game)
    decision = solo.decide(state, 1, "normal")
    assert apply(game, decision.action).actions[-1]["why"] == decision.why
    # The League is played by people: a "why" would make the log say the app played it.
    lie = {"type": "discard", "side": 0, "player": 0, "cards": [], "why": "keeps all its cards"}
    with pytest.raises(ActionError, match="Only the app's own moves carry a 'why': Purple Dragon League is "
                                          "played by people"):
        apply(game, lie)


def test_validate_returns_the_canonical_game_redo_stack_included():
    base = table_game()
    loose = Game(base.kind, base.seed, base.rules, base.setup,
                 ({"type": "play", "player": 0, "card": "9s"}, {"type": "play", "player": 0, "card": "4h"},
                  {"type": "pass"}), position=2)
    checked = validate(loose)
    assert list(checked.actions) == [{"type": "play", "side": 1, "player": 0, "card": "9S"},
                                     {"type": "play", "side": 0, "player": 0, "card": "4H"},
                                     {"type": "pass", "side": 1}]
    assert checked.position == 2 and replay(checked) == replay(loose)


def test_a_refused_action_changes_nothing_and_step_refuses_what_normalize_refuses():
    game = table_game()
    before = codec.dumps(game)
    state = replay(game)
    for action in ({"type": "play", "player": 0, "card": "KS", "extra": 1}, {"type": "play", "player": 0, "card": "10S"}):
        with pytest.raises(ValueError) as normalized:
            oic.normalize_action(state, action)
        with pytest.raises(type(normalized.value)) as stepped:
            oic.step(state, action, None, random.Random(0))
        assert str(stepped.value) == str(normalized.value)
        with pytest.raises(ValueError):
            apply(game, action)
    assert codec.dumps(game) == before


# ---------------------------------------------------------------------------
# Public helpers: a clear ValueError for bad arguments; cards as Card or token


def test_rule_functions_take_tokens_as_well_as_cards():
    assert oic.can_follow("9h", "4h") is True and oic.can_follow(C("4H"), C("9H")) is False
    assert oic.why_not_follow("4h", "9H").startswith("OIC-11: the 4♥ neither beats the 9♥")
    assert oic.can_follow("2s", None) is True
    assert oic.is_usable("qd", 0) is True and oic.is_usable("3d", 2) is False
    assert oic.card_value("kc") == 3 and oic.card_value(Card.parse("AS")) == 1
    assert oic.trumps("S") is Suit.CLUBS and oic.trumped_by("spades", {"trump_circle": "introduction"}) is Suit.DIAMONDS
    state = replay(table_game())
    oic.check_play(state, 0, "9s")
    oic.check_play(state, 0, C("9S"), side=1)


@pytest.mark.parametrize("call, error, message", [
    (lambda: oic.max_card_size("14", "home"), oic.ArgumentError, "The power must be a whole number, 0 or more"),
    (lambda: oic.max_card_size(True, "home"), oic.ArgumentError, "whole number"),
    (lambda: oic.max_card_size(-1, "home"), oic.ArgumentError, "0 or more"),
    (lambda: oic.max_card_size(14, 3), oic.ArgumentError, "Unknown scope"),
    (lambda: oic.is_usable(None, 3), CardError, "Not a card"),
    (lambda: oic.is_usable("9S", "3"), oic.ArgumentError, "max card size must be a whole number"),
    (lambda: oic.card_value(9), CardError, "Not a card"),
    (lambda: oic.can_follow("9S", "4S", rules=[1, 2]), SettingsError, "rules settings must be an object"),
    (lambda: oic.can_follow("9S", "4S", rules={"trump_circle": "sideways"}), SettingsError, "not a choice"),
    (lambda: oic.can_follow("9S", 4), CardError, "The current card: Not a card"),
    (lambda: oic.trumps("X"), CardError, "Not a suit"),
    (lambda: oic.can_engage(None, "home"), oic.ArgumentError, "The rating must be a whole number"),
    (lambda: oic.hand_size(True), oic.ArgumentError, "OIC-14: a side has 1 to 8 players"),
    (lambda: oic.hand_size(2.0), oic.ArgumentError, "OIC-14"),
    (lambda: oic.in_world_time("home", "3"), oic.ArgumentError, "number of rounds"),
    (lambda: oic.explain_max_size("14", "home", "S"), oic.ArgumentError, "The rating must be"),
    (lambda: oic.explain_max_size(14, "home", "S", 5), oic.ArgumentError, "organization must be text"),
    (lambda: oic.Scope.HOME.has_influence("x"), oic.ArgumentError, "The power must be"),
    (lambda: oic.legal_plays(None), oic.ArgumentError, "Not the state of a conflict"),
    (lambda: oic.status({}), oic.ArgumentError, "Not the state of a conflict"),
    (lambda: oic.side_ratings(replay(table_game()), "0"), ActionError, "There is no side"),
    (lambda: oic.side_ratings(replay(table_game()), True), ActionError, "There is no side"),
    (lambda: oic.best_organization(replay(table_game()), 0, "S", player=4), ActionError, "There is no player 4"),
    (lambda: oic.max_size_reason(replay(table_game()), 0, 0, 7), CardError, "Not a suit"),
    (lambda: oic.check_play(replay(table_game()), 0, None), ActionError, "Not a card"),
    (lambda: oic.check_play(replay(table_game()), "0", "9S"), ActionError, "There is no player"),
    (lambda: oic.step(replay(table_game()), {"type": "next_round"}, None, None), RuleError, "OIC-17"),
    (lambda: oic.step(replay(app_game()), {"type": "discard", "side": 0, "player": 0, "cards": []}, None, 7),
     oic.ArgumentError, "random generator"),
    (lambda: oic.start(oic.purple_dragon_setup(), None, None), oic.ArgumentError, "random generator"),
    (lambda: oic.start(oic.purple_dragon_setup(), [1], random.Random(1)), SettingsError, "rules settings"),
    (lambda: oic.public_game(None), oic.ArgumentError, "conflict game"),
    (lambda: oic.describe(None, {"type": "pass"}), oic.ArgumentError, "Not the state"),
    (lambda: oic.undo_warning(table_game(), 5), oic.ArgumentError, "The position must be a whole number"),
    (lambda: solo.decide(None, 0), oic.ArgumentError, "Not the state of a conflict"),
    (lambda: solo.decide(replay(app_game()), True), oic.ArgumentError, "There is no side True"),
    (lambda: solo.decide(replay(app_game()), 1, "normal", samples=0), oic.ArgumentError, "samples"),
    (lambda: solo.decide(replay(app_game()), 1, ["hard"]), oic.ArgumentError, "Unknown level"),
    (lambda: solo.observe(replay(app_game()), 2), oic.ArgumentError, "There is no side 2"),
    (lambda: solo.controllers(None), oic.ArgumentError, "Not a conflict setup"),
    (lambda: solo.app_level(oic.purple_dragon_setup(), 5), oic.ArgumentError, "There is no side 5"),
    (lambda: solo.to_act("state"), oic.ArgumentError, "Not the state"),
    (lambda: solo.app_turn(None), oic.ArgumentError, "Not a conflict game"),
    (lambda: solo.undo_target([]), oic.ArgumentError, "Not a conflict game"),
    (lambda: solo.decide_observed("obs"), oic.ArgumentError, "Not an observation"),
    (lambda: solo.normal_discard(solo.observe(replay(app_game()), 1), 3), oic.ArgumentError, "There is no player 3"),
    (lambda: solo.normal_play(solo.observe(replay(app_game()), 1)), oic.ArgumentError, "not Zombie invasion's turn"),
])
def test_public_helpers_refuse_bad_arguments_with_a_clear_value_error(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ---------------------------------------------------------------------------
# OIC-19: calling a conflict


def round_won_by(game: Game, opener: str, answer: str | None = None) -> Game:
    """One round of the table-deck example: *opener*, then *answer* (or none), then a pass."""
    game = apply(game, {"type": "play", "player": 0, "card": opener})
    if answer:
        game = apply(game, {"type": "play", "player": 0, "card": answer})
    return apply(game, {"type": "pass"})


def test_oic_19_call_totals_are_ratings_above_the_engagement_threshold():
    state = replay(table_game())
    # League 14 11 12 9, zombies 14 11 12 13 at home ground (threshold 5).
    assert oic.call_totals(state) == (9 + 6 + 7 + 4, 9 + 6 + 7 + 8) == (26, 30)
    assert oic.side_ahead(state) == 1
    assert oic.call_sum(state, 0) == "♠ 9 + ♥ 4 + ♦ 7 + ♣ 6 = 26"
    regional = oic.purple_dragon_setup() | {"deck": "table", "scope": "regional"}
    for side in regional["sides"]:
        side["scope"] = "regional"
        side["players"][0]["organizations"][0]["power"] = 18
    state = replay(new_game("conflict", regional, seed=1))
    assert oic.call_totals(state) == (3, 3) and oic.side_ahead(state) is None  # only spades 18 > 15
    assert oic.call_sum(state, 0) == "♠ 3"


def test_oic_19_the_table_ends_the_conflict_between_rounds_and_the_side_ahead_wins():
    game = round_won_by(table_game(), "9S")  # the League cannot answer: last ♠ = first ♠, zombies +1 in spades
    state = replay(game)
    assert state.phase == "round-over" and oic.call_totals(state) == (26, 31)
    assert oic.call_preview(state) == ("OIC-19: ended now, Zombie invasion is ahead, 31 to 26 in rating points above "
                                       "the engagement threshold (5 at home ground), and wins the conflict.")
    called = apply(game, {"type": "call"})
    end = replay(called)
    assert end.phase == "conflict-over" and end.is_over and end.ending == "called"
    assert end.winner == 1 and end.final == (26, 31)
    assert end.end_message == ("OIC-19: the table ended the conflict after 1 round (1 day). Zombie invasion was "
                               "ahead, 31 to 26 in rating points above the engagement threshold (5 at home "
                               "ground), and wins the conflict.")
    assert oic.status(end) == "The table ended the conflict: Zombie invasion wins (OIC-19)."
    assert history(called)[-1] == "After round 1 · the table ends the conflict: Zombie invasion ahead 31–26 (OIC-19)"
    with pytest.raises(RuleError, match="^OIC-17: the conflict is over. The table ended the conflict"):
        apply(called, {"type": "next_round"})
    with pytest.raises(RuleError, match="^OIC-17: the conflict is over"):
        apply(called, {"type": "call"})
    # An action like any other: undo, links, saves, spectators.
    assert replay(goto(called, called.position - 1)).phase == "round-over"
    assert codec.decode_share(codec.encode_share(called)) == called
    assert codec.loads(codec.dumps(called))[0] == called
    spectator = oic.public_game(called)
    assert spectator.actions[-1] == {"type": "call"} and replay(spectator).end_message == end.end_message


def test_oic_19_a_standoff_names_no_winner():
    setup = oic.purple_dragon_setup() | {"deck": "table"}
    setup["sides"][1]["players"][0]["organizations"][3]["power"] = 9  # the zombies' hearts as the League's
    game = apply(round_won_by(new_game("conflict", setup, seed=2), "9S"), {"type": "next_round"})
    game = round_won_by(game, "9S")  # the League opens round 2 and wins it: 27–27
    state = replay(game)
    assert oic.call_totals(state) == (27, 27) and oic.side_ahead(state) is None
    assert oic.call_preview(state).startswith("OIC-19: ended now, it is a standoff — both sides stand 27")
    end = replay(apply(game, {"type": "call"}))
    assert end.winner is None and end.end_message.startswith(
        "OIC-19: the table ended the conflict after 2 rounds (2 days) in a standoff — both sides stood 27")
    assert oic.standing(end) == "Called after 2 rounds · standoff 27–27"
    assert oic.status(end) == "The table ended the conflict in a standoff (OIC-19)."


def test_oic_19_war_time_is_in_campaign_seasons():
    setup = oic.purple_dragon_setup() | {"deck": "table", "scope": "war"}
    for side in setup["sides"]:
        side["scope"] = "war"
        for org in side["players"][0]["organizations"]:
            org["power"] += 20
    game = round_won_by(new_game("conflict", setup, seed=2), "9S")
    assert "after 1 round (1 campaign season (1 month of fighting))" in replay(apply(game, {"type": "call"})).end_message


def test_standing_says_where_the_conflict_stands_for_the_list_of_saves():
    game = table_game()
    assert oic.standing(replay(game)) == "Round 1 · Zombie invasion ahead 30–26"
    game = apply(round_won_by(game, "9S"), {"type": "next_round"})
    assert oic.standing(replay(game)) == "Round 2 · Zombie invasion ahead 31–26"
    assert oic.standing(replay(apply(round_won_by(game, "2H"), {"type": "call"}))).startswith(
        "Called after 2 rounds · ")
    out = oic.purple_dragon_setup() | {"deck": "table"}
    out["sides"][0]["players"][0]["organizations"] = [{"name": "last stand", "power": 6, "suit": "S", "location": ""}]
    lost = round_won_by(new_game("conflict", out, seed=1), "9S")  # the League cannot answer: zombies +1
    lost = apply(lost, {"type": "next_round"})  # the League opens with a face card; the zombies end on a spade
    for card in ("JH", "2D", "JC", "2S"):
        lost = apply(lost, {"type": "play", "player": 0, "card": card})
    state = replay(apply(lost, {"type": "pass"}))  # last ♠ ≠ first ♥: the League loses 1 in spades, 6 → 5
    assert state.ending == "out" and oic.standing(state) == "Over after 2 rounds · Zombie invasion won outright"


# ---------------------------------------------------------------------------
# A spectator's copy says what is true


def test_a_spectator_copy_says_the_sides_discard_before_the_first_card():
    game = app_game()
    spectator = replay(oic.public_game(game))
    assert spectator.spectator and not replay(game).spectator
    assert oic.status(spectator) == ("Round 1 · the sides draw and discard (OIC-8), then Zombie invasion opens "
                                     "(OIC-10)")
    game = keep_all(game)
    player, card = oic.legal_plays(replay(game))[0]
    game = apply(apply(game, {"type": "play", "player": player, "card": str(card)}), {"type": "pass"})
    copy = replay(oic.public_game(game))
    assert oic.status(copy).endswith("Next, Zombie invasion opens round 2, unless the table ends the conflict here "
                                     "(OIC-19).") or oic.status(copy).endswith(
        "Next, Purple Dragon League opens round 2, unless the table ends the conflict here (OIC-19).")


# ---------------------------------------------------------------------------
# Undo past a hand that was seen (issue 21)


def test_undo_past_a_discard_whose_refill_was_seen_asks_first():
    game = app_game()
    hand = replay(game).hands[1][0]
    game = apply(game, {"type": "discard", "side": 1, "player": 0, "cards": [str(hand[0])]})
    game = apply(game, {"type": "discard", "side": 0, "player": 0, "cards": []})
    assert oic.undo_warning(game, 2) is None and oic.undo_warning(game, 1) is None  # a kept hand drew nothing
    assert oic.undo_warning(game, 0) == ("Zombie invasion has seen the cards its discard drew. Undoing lets it "
                                         "discard again knowing which cards come next (OIC-8). Undo anyway?")
    # Redo (going forward) and real cards never ask.
    assert oic.undo_warning(goto(game, 0), 2) is None
    assert oic.undo_warning(table_game(), 0) is None


def test_undo_warning_names_the_players_of_a_team_and_ignores_the_apps_discards():
    setup = oic.purple_dragon_setup()
    orgs = setup["sides"][0]["players"][0]["organizations"]
    setup["sides"][0]["players"] = [{"name": "Ann", "organizations": orgs[:2]}, {"name": "Ben", "organizations": orgs[2:]}]
    setup["sides"][1].update(controller="app", level="easy")
    game = new_game("conflict", setup, seed=4)
    state = replay(game)
    game = apply(game, solo.decide(state, 1, "easy").action)
    assert oic.undo_warning(game, 0) is None  # the app learns nothing it would not decide again
    for player in (0, 1):
        card = replay(game).hands[0][player][0]
        game = apply(game, {"type": "discard", "side": 0, "player": player, "cards": [str(card)]})
    assert oic.undo_warning(game, 0) == ("Ann (Purple Dragon League) and Ben (Purple Dragon League) have seen the "
                                         "cards their discards drew. Undoing lets them discard again knowing which "
                                         "cards come next (OIC-8). Undo anyway?")
    assert oic.undo_warning(game, 2).startswith("Ben (Purple Dragon League) has seen the cards their discard drew. "
                                                "Undoing lets them")


# ---------------------------------------------------------------------------
# Games from earlier versions


def old_save(game: Game, **changes: Any) -> dict[str, Any]:
    data = {**codec.game_to_dict(game), "schema": 2}
    data.update(changes)
    return data


def test_an_old_save_with_fields_the_old_engine_ignored_still_opens_as_it_was_played():
    game = keep_all(app_game())
    player, card = oic.legal_plays(replay(game))[0]
    game = apply(game, {"type": "play", "player": player, "card": str(card)})
    actions = [dict(a) for a in game.actions]
    actions[0]["note"] = "from a script"
    actions[1].pop("cards")
    actions[2] = {"type": "play", "player": player, "card": str(card).lower(), "side": None, "why": "x"}
    opened, _ = codec.game_from_dict(old_save(game, actions=actions))
    assert replace(replay(opened), notes=()) == replay(game)
    assert [dict(a) for a in opened.actions] == [dict(a) for a in game.actions]
    assert opened.setup["upgraded"] == ["fields"] and replay(opened).notes == ("fields",)
    # The same game saved by this version needs nothing.
    assert "upgraded" not in codec.game_from_dict(old_save(game))[0].setup
    assert codec.game_from_dict(codec.game_to_dict(game))[0] == game


def test_an_old_spectator_copy_is_recognised_and_read_only():
    game = keep_all(app_game(seed=11))
    player, card = oic.legal_plays(replay(game))[0]
    game = apply(game, {"type": "play", "player": player, "card": str(card)})
    copy = oic.public_game(game)
    setup = dict(copy.setup)
    del setup["spectator"]  # what public_game wrote before copies were marked: real cards, no flag
    setup["deck"] = "table"
    old_actions = [{"type": "play", "player": player, "card": str(card)}]
    opened, _ = codec.game_from_dict(old_save(copy, setup=setup, actions=old_actions))
    assert opened.setup["spectator"] is True and opened.setup["upgraded"] == ["spectator"]
    assert replay(opened).chain == replay(game).chain
    with pytest.raises(ActionError, match="spectator's copy"):
        apply(opened, {"type": "pass"})
    # The same through an old "2" link.
    link = "2" + codec.encode_share(Game(opened.kind, 0, opened.rules, setup, tuple(old_actions), 1))[1:]
    assert codec.decode_share(link).setup["spectator"] is True


@pytest.mark.parametrize("change", ["seed", "redo", "app", "fields"])
def test_a_real_table_game_is_not_taken_for_a_spectator_copy(change):
    game = apply(table_game(), {"type": "play", "player": 0, "card": "9S"})
    data = old_save(game, seed=0)
    if change == "seed":
        data["seed"] = 12
    elif change == "redo":
        data["position"] = 0
    elif change == "app":
        data = old_save(keep_all(app_game()), seed=0)
    else:
        data["actions"] = [{"type": "play", "player": 0, "card": "9S", "why": "typed"}]
    opened, _ = codec.game_from_dict(data)
    assert "spectator" not in opened.setup


def test_upgrade_leaves_what_it_cannot_read_for_the_checks():
    for data in ({}, {"setup": 5, "actions": []}, {"setup": {}, "actions": "x"},
                 {"setup": {"sides": 3}, "actions": [5, {"type": 7}, {"type": "play", "side": "x", "why": 1}]}):
        assert isinstance(oic.upgrade(data), dict)
    with pytest.raises(codec.SaveError):
        codec.game_from_dict({"app": "conflict-table", "schema": 2, "kind": "conflict", "seed": 0,
                              "rules": {}, "setup": {"sides": 3}, "actions": [], "position": 0})


def test_upgrade_notes_are_a_closed_list():
    setup = oic.purple_dragon_setup() | {"upgraded": ["spectator", "fields", "fields"]}
    assert oic.normalize_setup(setup)["upgraded"] == ["fields", "spectator"]
    with pytest.raises(oic.SetupError, match="'upgraded' lists what an upgrade did"):
        oic.normalize_setup(oic.purple_dragon_setup() | {"upgraded": ["<b>hi</b>"]})
