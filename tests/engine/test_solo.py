"""Organizations In Conflict solo (engine.conflict.opponent, issue 12): the app plays a side.

Every move the app makes is legal under every rules variant; it never peeks (two
states that differ only in hidden cards give the same decision); every move is
explained; team sides work; its moves are ordinary actions in a game.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import codec
from engine import conflict as oic
from engine.cards import Suit, full_deck, parse_card
from engine.conflict import SetupError, normalize_setup, public_game
from engine.conflict import opponent as solo
from engine.game import ActionError, apply, goto, history, new_game, replay, undo

C = parse_card
VARIANT_GRID = [{"trump_circle": t, "face_on_face": f, "deck": d}
                for t in ("cards", "introduction") for f in ("any", "higher") for d in ("per-side", "shared")]


def org(name: str, power: int, suit: str) -> dict[str, Any]:
    return {"name": name, "power": power, "suit": suit, "location": ""}


def solo_setup(level: str = "normal", side: int = 1, players: int = 1, other: str | None = None) -> dict[str, Any]:
    """The Purple Dragon League (OIC-7) with the app playing *side* (its orgs split over *players*);
    with *other*, the app plays the other side too, at that level (app against app)."""
    setup = oic.purple_dragon_setup()
    if other is not None:
        setup["sides"][1 - side].update(controller="app", level=other)
    target = setup["sides"][side]
    orgs = target["players"][0]["organizations"]
    target["players"] = [{"name": f"Member {p + 1}", "organizations": orgs[p::players]} for p in range(players)]
    target["controller"] = "app"
    target["level"] = level
    return setup


def advance(state: oic.ConflictState, rules: dict, rng: random.Random, steps: int,
            levels: tuple[str, str] = ("easy", "easy")) -> oic.ConflictState:
    """Play *steps* actions with the app on both sides (and next_round between rounds)."""
    for _ in range(steps):
        if state.phase == "conflict-over":
            break
        if state.phase == "round-over":
            state = oic.step(state, {"type": "next_round"}, rules, rng)
            continue
        side, _ = solo.to_act(state)
        state = oic.step(state, solo.decide(state, side, levels[side]).action, rules, rng)
    return state


@st.composite
def positions(draw):
    """A random app-deck position: set-up (teams, scopes), rules variant, some play already."""
    scope = draw(st.sampled_from(["home", "regional", "war"]))
    threshold = oic.Scope(scope).engage_threshold
    sides = []
    for s in range(2):
        count = draw(st.integers(1, 3))
        players = [{"name": f"P{s}{p}", "organizations": []} for p in range(count)]
        suits = draw(st.lists(st.sampled_from("SHDC"), min_size=1, max_size=5))
        for i, suit in enumerate(suits):
            power = draw(st.integers(max(0, threshold - 4), threshold + 12))
            players[i % count]["organizations"].append(org(f"O{s}{i}", power, suit))
        sides.append({"name": f"Side {s}", "scope": draw(st.sampled_from(["home", "regional", "war"])),
                      "players": players, "controller": "app", "level": "easy"})
    setup = {"sides": sides, "scope": scope, "aggressor": draw(st.integers(0, 1)), "deck": "app"}
    rules = draw(st.sampled_from(VARIANT_GRID))
    seed = draw(st.integers(0, 2**32 - 1))
    steps = draw(st.integers(0, 40))
    rng = random.Random(seed)
    state = oic.start(setup, rules, rng)
    state = advance(state, rules, rng, steps, (draw(st.sampled_from(solo.LEVELS[:2])), "easy"))
    return state, rules, rng


# ---------------------------------------------------------------------------
# Setup: who plays a side (people or the app, and its level)


def test_setup_controller_and_level_are_validated_and_canonical():
    setup = solo_setup("hard", side=1)
    normal = normalize_setup(setup)
    assert normal["sides"][1]["controller"] == "app" and normal["sides"][1]["level"] == "hard"
    assert "controller" not in normal["sides"][0]
    assert solo.controllers(normal) == (None, "hard")
    assert solo.app_level(normal, 0) is None
    # Without a level the app plays Normal.
    del setup["sides"][1]["level"]
    assert normalize_setup(setup)["sides"][1]["level"] == "normal"


def test_setup_people_are_the_default_and_old_setups_normalize_unchanged():
    old = oic.purple_dragon_setup()
    normal = normalize_setup(old)
    assert all(set(side) == {"name", "scope", "players"} for side in normal["sides"])
    explicit = oic.purple_dragon_setup()
    explicit["sides"][0]["controller"] = "people"
    assert normalize_setup(explicit) == normal


@pytest.mark.parametrize("field, value, message", [
    ("controller", "robot", 'played by "people" or "the app"'),
    ("level", "expert", "easy, normal or hard"),
])
def test_setup_bad_controller_or_level_is_refused(field, value, message):
    setup = solo_setup()
    setup["sides"][1][field] = value
    with pytest.raises(SetupError, match=message):
        normalize_setup(setup)


def test_setup_level_without_the_app_is_refused():
    setup = oic.purple_dragon_setup()
    setup["sides"][0]["level"] = "hard"
    with pytest.raises(SetupError, match="only for a side the app plays"):
        normalize_setup(setup)


def test_the_app_cannot_hold_real_cards():
    setup = solo_setup()
    setup["deck"] = "table"
    with pytest.raises(SetupError, match="the app cannot hold real cards"):
        normalize_setup(setup)
    state = oic.start(oic.purple_dragon_setup() | {"deck": "table"}, {}, random.Random(1))
    with pytest.raises(ValueError, match="cannot hold real cards"):
        solo.decide(state, 1, "normal")


def test_solo_games_save_and_share_and_spectators_see_no_app():
    game = new_game("conflict", solo_setup("normal", other="easy"), seed=5)
    state = replay(game)
    for _ in range(6):
        side, level = solo.app_turn(game, state)  # each side at its own level: the app's own moves (issue 35)
        game = apply(game, solo.decide(state, side, level).action)
        state = replay(game)
    assert codec.decode_share(codec.encode_share(game)) == game
    assert codec.loads(codec.dumps(game))[0] == game
    spectator = public_game(game)
    assert all("controller" not in side and "level" not in side for side in spectator.setup["sides"])
    assert all("why" not in action for action in spectator.actions)
    replay(spectator)  # a spectator's copy still replays


# ---------------------------------------------------------------------------
# Moves are ordinary actions with a "why"


def test_why_is_optional_text_and_is_shown_in_the_history():
    game = new_game("conflict", solo_setup("normal"), seed=3)
    state = replay(game)
    decision = solo.decide(state, 1, "normal")  # the app's side (the aggressor) discards first
    assert decision.action["type"] == "discard" and decision.action["why"] == decision.why
    game = apply(game, decision.action)
    assert history(game)[-1] == f"Round 1 · Zombie invasion (the app) {decision.why}"
    with pytest.raises(ActionError, match="'why'"):
        apply(game, {"type": "pass", "why": 3})
    with pytest.raises(ActionError, match="'why'"):
        apply(game, {"type": "pass", "why": "x" * (oic.WHY_MAX + 1)})
    with pytest.raises(ActionError, match="'why'"):
        apply(game, {"type": "pass", "why": "two\nlines"})


def test_to_act_names_the_next_discarder_aggressor_first_then_the_side_to_play():
    rng = random.Random(2)
    state = oic.start(solo_setup(players=2), {}, rng)  # the zombies (the app) are the aggressor
    assert solo.to_act(state) == (1, 0)
    for p in range(2):
        state = oic.step(state, solo.decide(state, 1, "normal").action, {}, rng)
    assert solo.to_act(state) == (0, 0)
    state = oic.step(state, {"type": "discard", "side": 0, "player": 0, "cards": []}, {}, rng)
    assert state.phase == "play" and solo.to_act(state) == (1, 0)


def _play_until_person(game):
    """Let the app move until people are to act (what the table does after each tap)."""
    while (turn := solo.app_turn(game)) is not None:
        side, level = turn
        game = apply(game, solo.decide(replay(game), side, level).action)
    return game


def test_app_turn_and_one_tap_undo_back_to_the_persons_last_decision():
    game = _play_until_person(new_game("conflict", solo_setup("normal"), seed=8))
    state = replay(game)
    assert state.phase == "discard" and solo.to_act(state) == (0, 0)  # the app (aggressor) discarded
    assert solo.app_turn(game) is None
    assert solo.undo_target(game) is None  # nothing of the person's to undo yet
    game = apply(game, {"type": "discard", "side": 0, "player": 0, "cards": []})
    before = game.position - 1
    game = _play_until_person(game)  # the zombies open
    state = replay(game)
    assert state.phase == "play" and state.turn == 0 and len(state.chain) == 1
    assert solo.undo_target(game) == before
    back = goto(game, solo.undo_target(game))
    assert solo.to_act(replay(back)) == (0, 0)  # the person's discard again, in one tap
    # While the table shows an earlier point, the app waits (its redo stack stays).
    assert solo.app_turn(undo(game)) is None
    # Between rounds, starting the next round is a person's tap.
    while replay(game).phase == "play":
        state = replay(game)
        plays = oic.legal_plays(state)
        action = {"type": "play", "player": plays[0][0], "card": str(plays[0][1])} if plays else {"type": "pass"}
        game = _play_until_person(apply(game, action))
    assert replay(game).phase in ("round-over", "conflict-over") and solo.app_turn(game) is None


def test_app_turn_is_none_without_the_app_or_with_real_cards():
    game = new_game("conflict", oic.purple_dragon_setup(), seed=1)
    assert solo.app_turn(game) is None
    table = new_game("conflict", oic.purple_dragon_setup() | {"deck": "table"}, seed=1)
    assert solo.app_turn(table) is None


# ---------------------------------------------------------------------------
# Legal under every rules variant (property over random states)


def _check_legal(state: oic.ConflictState, rules: dict, rng: random.Random, level: str) -> None:
    side, player = solo.to_act(state)
    decision = solo.decide(state, side, level, samples=6)
    action = decision.action
    assert decision.why and action["why"] == decision.why and len(decision.why) <= oic.WHY_MAX
    assert "\n" not in decision.why
    if state.phase == "discard":
        assert action["type"] == "discard" and (action["side"], action["player"]) == (side, player)
        assert set(map(C, action["cards"])) <= set(state.hands[side][player])
    elif action["type"] == "play":
        oic.check_play(state, action["player"], action["card"], side=side)
        assert (action["player"], C(action["card"])) in oic.legal_plays(state)
        assert decision.why.startswith(f"plays {C(action['card']).label}")
    else:
        assert action["type"] == "pass"
        legal = oic.legal_plays(state)
        if level != "hard" or not state.chain:
            assert legal == []  # Easy and Normal pass only when they cannot play; nobody declines to open
    oic.step(state, action, rules, random.Random(rng.random()))  # the engine accepts it


@settings(max_examples=60)
@given(positions())
def test_every_move_of_every_level_is_legal(position):
    state, rules, rng = position
    if solo.to_act(state) is None:
        state = advance(state, rules, rng, 1)
    if solo.to_act(state) is None:
        assert state.phase == "conflict-over"
        return
    for level in solo.LEVELS:
        _check_legal(state, rules, rng, level)


@pytest.mark.parametrize("rules", VARIANT_GRID, ids=lambda r: "-".join(r.values()))
def test_whole_conflict_app_against_app_is_legal_in_every_variant(rules):
    rng = random.Random(11)
    state = oic.start(solo_setup(players=2, other="hard"), rules, rng)
    levels = ("hard", "normal")
    plays = 0
    for _ in range(400):
        if state.phase == "conflict-over":
            break
        if state.phase == "round-over":
            state = oic.step(state, {"type": "next_round"}, rules, rng)
            continue
        side, _ = solo.to_act(state)
        decision = solo.decide(state, side, levels[side], samples=4)
        plays += decision.action["type"] == "play"
        state = oic.step(state, decision.action, rules, rng)
    assert plays > 20 and state.results


# ---------------------------------------------------------------------------
# The app never peeks


def _hide_differently(state: oic.ConflictState, app_side: int, rng: random.Random) -> oic.ConflictState:
    """The same public position and app hand; the other side's cards and every deck order redrawn."""
    other = 1 - app_side
    shared = state.settings["deck"] == "shared"
    taken = {c for hand in state.hands[app_side] for c in hand} if shared else set()
    taken |= {p.card for p in state.chain if shared or p.side == other}
    pool = [c for c in full_deck() if c not in taken]
    rng.shuffle(pool)
    hands = []
    for hand in state.hands[other]:
        hands.append(tuple(pool[:len(hand)]))
        pool = pool[len(hand):]
    new_hands = list(state.hands)
    new_hands[other] = tuple(hands)
    piles = tuple(tuple(rng.sample(list(p), len(p))) for p in state.draw_piles)
    assert new_hands[other] != state.hands[other] or not any(state.hands[other])
    return replace(state, hands=tuple(new_hands), draw_piles=piles)


@settings(max_examples=40)
@given(positions(), st.integers(0, 2**32 - 1))
def test_no_peeking_hidden_cards_and_deck_order_do_not_change_the_decision(position, seed):
    state, rules, rng = position
    who = solo.to_act(state)
    if who is None:
        return
    side = who[0]
    other = _hide_differently(state, side, random.Random(seed))
    assert solo.observe(other, side) == solo.observe(state, side)
    for level in solo.LEVELS:
        assert solo.decide(other, side, level, samples=8) == solo.decide(state, side, level, samples=8)


def test_no_peeking_in_the_dragon_example_every_level_hard_included():
    rng = random.Random(4)
    state = oic.start(solo_setup(other="normal"), {}, rng)
    state = advance(state, {}, rng, 5, ("normal", "normal"))
    assert state.phase == "play"
    side = state.turn
    for trial in range(5):
        other = _hide_differently(state, side, random.Random(trial))
        for level in solo.LEVELS:
            assert solo.decide(other, side, level) == solo.decide(state, side, level)


def test_decisions_are_reproducible_and_depend_on_the_apps_own_hand():
    rng = random.Random(9)
    state = advance(oic.start(solo_setup(other="easy"), {}, rng), {}, rng, 2)
    assert state.phase == "play"
    side = state.turn
    first = solo.decide(state, side, "easy")
    assert solo.decide(state, side, "easy") == first
    # Another hand for the app is another position: the easy level's draw changes with it.
    seen = set()
    for trial in range(8):
        mine = _hide_differently(state, 1 - side, random.Random(trial))  # redraw the app's own hand
        if solo.to_act(mine) is not None and oic.legal_plays(mine):
            seen.add(solo.decide(mine, side, "easy").action.get("card"))
    assert len(seen) > 1


# ---------------------------------------------------------------------------
# The Normal heuristic


def _position(app_hand: str, chain: list[tuple[int, str]], *, app_side: int = 1,
              rules: dict | None = None, setup: dict | None = None) -> oic.ConflictState:
    """A play-phase state of the Purple Dragon example with the app's hand and the chain given."""
    state = oic.start(setup or solo_setup(side=app_side), rules or {}, random.Random(0))
    hands = list(state.hands)
    hands[app_side] = (tuple(C(t) for t in app_hand.split()),)
    plays = tuple(oic.Play(side, 0, C(card)) for side, card in chain)
    aggressor = chain[0][0] if chain else app_side
    turn = app_side
    return replace(state, hands=tuple(hands), phase="play", chain=plays, aggressor=aggressor, turn=turn,
                   discarded=((True,), (True,)))


def test_normal_plays_the_cheapest_card_that_beats_and_keeps_face_cards():
    state = _position("3S 6S 9S KS 2H", [(0, "5S")])  # zombies (app): hearts trump spades
    decision = solo.decide(state, 1, "normal")
    assert decision.action["card"] == "6S"
    assert decision.why.startswith("plays 6♠: the cheapest card that beats your 5♠ and keeps its face cards")


def test_normal_trumps_when_it_cannot_beat_in_suit_and_says_so():
    state = _position("3S 4H KD", [(0, "9S")])
    decision = solo.decide(state, 1, "normal")
    assert decision.action["card"] == "4H"  # hearts trump spades (OIC-12, default circle)
    assert decision.why.startswith("plays 4♥: trumps your 9♠")


def test_normal_uses_a_face_card_last():
    state = _position("QS 9D", [(0, "9S")])
    assert solo.decide(state, 1, "normal").action["card"] == "QS"
    state = _position("QS 2H", [(0, "9S")])
    assert solo.decide(state, 1, "normal").action["card"] == "2H"


def test_normal_opens_with_a_low_card_of_its_strongest_suit():
    state = _position("2S 5S 8S JS 3H 4H 7D 2C", [])
    decision = solo.decide(state, 1, "normal")
    assert decision.action["card"] == "2S"
    assert decision.why == "plays 2♠: opens in spades, the suit it is strongest in, lowest card first"


def test_normal_passes_only_when_it_cannot_play():
    state = _position("2S 3D", [(0, "9S")])  # nothing beats 9♠: no higher spade, no heart, no face
    decision = solo.decide(state, 1, "normal")
    assert decision.action == {"type": "pass", "side": 1, "why": "cannot play on your 9♠: the round ends"}


def test_normal_discards_the_cards_it_cannot_use():
    state = oic.start(solo_setup(side=0), {}, random.Random(7))  # the League: hearts max 4
    cards, why = solo.normal_discard(solo.observe(state, 0), 0)
    sizes = oic.player_max_sizes(state, 0, 0)
    assert cards == [c for c in state.hands[0][0] if not oic.is_usable(c, sizes[c.suit])]
    assert cards and why == f"discards {len(cards)} cards it cannot use and draws as many"


def test_easy_passes_only_when_it_cannot_play_and_picks_at_random():
    state = _position("6S 7S 8S 4H", [(0, "5S")])
    picks = set()
    for trial in range(12):
        # Different public positions (another round number) give different draws.
        picks.add(solo.decide(replace(state, round=trial + 1), 1, "easy").action["card"])
    assert picks <= {"6S", "7S", "8S", "4H"} and len(picks) > 1


# ---------------------------------------------------------------------------
# Hard


def test_hard_considers_passing_when_the_round_already_costs_nothing():
    # The League (app, side 0) has no organization in... every suit but spades here:
    setup = solo_setup(side=0)
    setup["sides"][0]["players"][0]["organizations"] = [org("Warriors of Ki", 14, "S")]
    # The zombies opened in hearts and hold the round on a K♥. Passing now: last ♥ = first ♥,
    # the zombies gain in hearts. The app holds only spades, which hearts trump... so it
    # cannot play at all: Hard passes with the plain reason.
    state = _position("2S 3S", [(1, "4H"), (0, "5H"), (1, "KH")], app_side=0, setup=setup)
    assert oic.legal_plays(state) == []
    decision = solo.decide(state, 0, "hard")
    assert decision.action["type"] == "pass" and decision.why.startswith("cannot play on your K♥")


def test_hard_explains_its_choice_and_uses_the_sample_count():
    rng = random.Random(21)
    state = advance(oic.start(solo_setup(level="hard", other="hard"), {}, rng), {}, rng, 3, ("normal", "normal"))
    assert state.phase == "play" and len(oic.legal_plays(state)) > 1
    decision = solo.decide(state, state.turn, "hard", samples=5)
    assert "over 5 deals it could not see" in decision.why
    assert f"over {solo.HARD_SAMPLES} deals" in solo.decide(state, state.turn, "hard").why


# ---------------------------------------------------------------------------
# Teams


def test_team_side_plays_from_every_players_hand_and_names_the_player():
    rng = random.Random(13)
    setup = solo_setup(side=1, players=3, other="easy")
    state = oic.start(setup, {}, rng)
    players_used = set()
    for _ in range(300):
        if state.phase == "conflict-over":
            break
        if state.phase == "round-over":
            state = oic.step(state, {"type": "next_round"}, {}, rng)
            continue
        side, _ = solo.to_act(state)
        decision = solo.decide(state, side, "normal" if side else "easy")
        action = decision.action
        if side == 1 and action["type"] == "play":
            players_used.add(action["player"])
            assert C(action["card"]) in state.hands[1][action["player"]]
            assert f"({state.sides[1].players[action['player']].name})" in decision.why
        if side == 1 and action["type"] == "discard":
            assert not state.discarded[1][action["player"]]
        state = oic.step(state, action, {}, rng)
    assert players_used == {0, 1, 2}


def test_an_app_side_discards_for_each_of_its_players_once():
    rng = random.Random(3)
    state = oic.start(solo_setup(side=1, players=2), {}, rng)
    seen = []
    for _ in range(2):
        action = solo.decide(state, 1, "normal").action
        seen.append(action["player"])
        state = oic.step(state, action, {}, rng)
    assert seen == [0, 1] and state.phase == "discard"  # the League has not discarded yet
    with pytest.raises(ValueError, match="already discarded"):
        solo.decide(state, 1, "normal")


def test_unknown_level_and_wrong_turn_are_refused():
    state = _position("6S", [(0, "5S")])
    with pytest.raises(ValueError, match="Unknown level"):
        solo.decide(state, 1, "expert")
    with pytest.raises(ValueError, match="not Purple Dragon League's turn"):
        solo.decide(state, 0, "normal")


def test_suits_table_matches_the_cards_module():
    assert solo.SUITS == tuple(Suit)


def test_the_old_import_path_still_works():
    """engine.solo, the app's player before issue 31, is kept for callers: the same objects."""
    from engine import solo as old
    from engine.solo import decide, to_act

    assert old.__all__ == solo.__all__ and all(getattr(old, name) is getattr(solo, name) for name in solo.__all__)
    assert decide is solo.decide and to_act is solo.to_act and oic.opponent is solo


def test_the_apps_why_talks_to_people_and_names_the_side_when_the_app_plays_both():
    state = _position("6S", [(0, "5S")])
    assert solo.decide(state, 1, "normal").why.startswith("plays 6♠: the cheapest card that beats your 5♠")
    both = _position("6S", [(0, "5S")], setup=solo_setup(other="easy"))
    assert solo.decide(both, 1, "normal").why.startswith(
        "plays 6♠: the cheapest card that beats Purple Dragon League's 5♠")
