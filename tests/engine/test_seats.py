"""Seats (issue 32): who sits where, what each seat's phone is shown, which moves a seat may
take (its own, through the referee, refused with the clause otherwise) and the reader of a
phone's messages (hostile input: HR-SEAT-3). The privacy property is in
test_seats_privacy.py."""

from __future__ import annotations

import json
import random

import pytest

from engine import ascension as ai
from engine import campaign as cmp
from engine import conflict as oic
from engine import game as games
from engine import seats as seating
from engine.game import apply, new_game, replay
from engine.seats import Seat, SeatMessageError, SeatRefused, check_seat_action, seat_view

from .consim_kit import OWN, deal, man, roster, shoot
from .test_campaign_referee import advance, game_in


def org(name, power, suit):
    return {"name": name, "power": power, "suit": suit, "location": "far away"}


def team_conflict(app_south: bool = False, seed: int = 7) -> games.Game:
    """North: Anna (spades 14, hearts 12) and Ben (clubs 13, diamonds 12); South: Cleo."""
    south = {"name": "South", "scope": "home", "players": [
        {"name": "Cleo", "organizations": [org("Reds", 14, "H"), org("Blues", 13, "S"), org("Greens", 12, "C")]}]}
    if app_south:
        south.update(controller="app", level="easy")
    setup = {"sides": [{"name": "North", "scope": "home", "players": [
        {"name": "Anna", "organizations": [org("Ki", 14, "S"), org("Pizza", 12, "H")]},
        {"name": "Ben", "organizations": [org("Fire", 13, "C"), org("Little", 12, "D")]}]}, south],
        "scope": "home", "aggressor": 0, "deck": "app"}
    return new_game("conflict", setup, None, seed)


def discard_all(game):
    state = replay(game)
    for s, side in enumerate(state.sides):
        for p in range(len(side.players)):
            game = apply(game, {"type": "discard", "side": s, "player": p, "cards": []})
    return game


DEEP: list = []
for _ in range(60):
    DEEP = [DEEP]


def refused(game, seat_id, action) -> SeatRefused:
    with pytest.raises(SeatRefused) as caught:
        check_seat_action(game, seat_id, action)
    return caught.value


def refused_seen(game, seat_id, action, seen) -> SeatRefused:
    with pytest.raises(SeatRefused) as caught:
        check_seat_action(game, seat_id, action, seen=seen)
    return caught.value


def roundtrips(view) -> bool:
    return json.loads(json.dumps(view, allow_nan=False)) == view


# ------------------------------------------------------------------ who sits where


def test_seats_of_each_table():
    assert seating.seats(team_conflict()) == (
        Seat("side-0/player-0", "Anna (North)"), Seat("side-0/player-1", "Ben (North)"), Seat("side-1/player-0", "South"),
        Seat("watch", "Watch the table", True))
    # A side the app plays has no seat (OIC: its hands stay with the app).
    assert [s.id for s in seating.seats(team_conflict(app_south=True))] == ["side-0/player-0", "side-0/player-1",
                                                                            "watch"]
    # The campaign's dummy (CMP-9) is not a seat.
    assert [s.label for s in seating.seats(new_game("campaign", {"players": ["Anna", "Zed"], "dummy": True}))] == [
        "Anna", "Watch the table"]
    setup = ai.example_setup()
    assert [s.id for s in seating.seats(new_game("battle", setup))] == ["general-0", "general-1", "watch"]
    setup["armies"][1].update(controller="app", level="normal")
    assert [s.label for s in seating.seats(new_game("battle", setup))] == ["General of Jibril Corps", "Watch the table"]
    tracker = new_game("initiative", roster(man("Rook", 0, player=True), man("Zyx", 1), man("Doc", 0, player=True)))
    assert [(s.id, s.label) for s in seating.seats(tracker)] == [
        ("combatant-0", "Rook (Blue)"), ("combatant-2", "Doc (Blue)"), ("watch", "Watch the table")]


def test_a_spectators_copy_has_only_the_watch_seat():
    copy = oic.public_game(team_conflict())
    assert [s.id for s in seating.seats(copy)] == ["watch"]
    assert seat_view(copy, "watch")["public"]["setup"]["spectator"] is True
    assert refused(copy, "side-0/player-0", {"type": "pass"}).rule_id == "HR-SEAT-3"


@pytest.mark.parametrize("bad", ["side-9/player-0", "nobody", "", None, 3, "side-0/player-0/x", "SIDE-0", "a" * 500])
def test_a_seat_that_is_not_at_the_table_is_refused(bad):
    game = team_conflict()
    with pytest.raises(SeatRefused) as caught:
        seat_view(game, bad)
    assert caught.value.rule_id == "HR-SEAT-3"
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, games.RuleError)


def test_seat_numbers():
    assert seating.seat_numbers("side-0/player-2") == {"side": 0, "player": 2}
    assert seating.seat_numbers("watch") == {}
    for bad in ("side-01", "side-0/", "/player-1", "side-0//player-1", "side--1"):
        with pytest.raises(SeatRefused):
            seating.seat_numbers(bad)


# ------------------------------------------------------------------ what a seat sees


def test_a_conflict_seat_sees_its_own_hand_and_its_playable_cards():
    game = team_conflict()
    state = replay(game)
    view = seat_view(game, "side-0/player-1")
    assert roundtrips(view)
    assert view["v"] == 1 and view["kind"] == "conflict" and view["position"] == 0 and view["watch"] is False
    private = view["private"]
    assert sorted(private["hand"]) == sorted(str(c) for c in state.hands[0][1])
    assert private["may_discard"] and not private["discarded"] and private["phase"] == "discard"
    assert private["max_sizes"] == {suit.value: size for suit, size in oic.player_max_sizes(state, 0, 1).items()}
    assert private["max_sizes"]["D"] == 7 and private["max_sizes"]["C"] == 8  # Little 12, Fire 13, at home
    assert view["public"]["seed"] == 0 and view["public"]["actions"] == []
    assert view["status"].startswith("Round 1")
    game = discard_all(game)
    state = replay(game)
    for p in (0, 1):
        private = seat_view(game, f"side-0/player-{p}")["private"]
        assert private["to_play"] and private["may_pass"] and not private["may_discard"]
        assert set(private["playable"]) == {str(c) for pl, c in oic.legal_plays(state) if pl == p}
        assert set(private["playable"]) <= set(private["hand"])
    south = seat_view(game, "side-1/player-0")
    assert south["position"] == 3 and south["private"]["playable"] == [] and not south["private"]["may_pass"]


def test_a_campaign_seat_sees_its_cards_best_hand_odds_and_its_spoils():
    game = new_game("campaign", {"players": ["Anna", "Ben"]}, seed=11)
    state = replay(game)
    private = seat_view(game, "player-0")["private"]
    assert private["cards"] == [str(c) for c in cmp.values.hand_order(state.cards_of(0))]
    assert private["stake"] == str(state.stakes[0]) and private["best"]["name"] == str(cmp.best_hand(state.cards_of(0)))
    assert private["odds"] == []  # six cards: a best hand already (the tablet shows the same)
    # A player short of five cards sees the exact chances, as the tablet's private screen does.
    for seed in range(40):
        short = advance(new_game("campaign", {"players": ["Anna", "Ben"]}, seed=seed), random.Random(seed),
                        lambda s: any(len(s.cards_of(p)) < 5 for p in (0, 1)) and s.phase == "battle")
        st_ = replay(short)
        if st_.phase == "battle":
            break
    p = 0 if len(st_.cards_of(0)) < 5 else 1
    odds = seat_view(short, f"player-{p}")["private"]["odds"]
    assert odds and odds == [{"hand": k, "chance": float(v)} for k, v in cmp.treaty_chances(st_, p).items()]
    # The spoils: only the winner's seat is offered them.
    spoils = game_in("spoils")
    winner = replay(spoils).pending[0]
    assert seat_view(spoils, f"player-{winner}")["private"]["may"] == ["take"]
    assert seat_view(spoils, f"player-{winner}")["private"]["spoils"]["pool"] == [str(c) for c in replay(spoils).pool]
    assert seat_view(spoils, f"player-{1 - winner}")["private"]["spoils"] is None
    # With the players' own deck the app never knows a hand.
    table = new_game("campaign", {"players": ["Anna", "Ben"], "deck": "table"})
    assert seat_view(table, "player-1")["private"]["cards"] is None


def test_a_general_sees_its_sealed_bid_until_the_reveal_and_advice_when_it_asks():
    game = new_game("battle", ai.example_setup(), None, 5)
    game = apply(game, {"type": "bid", "side": 0, "maneuver": "block", "stratagems": []})
    view = seat_view(game, "general-0")
    assert roundtrips(view)
    assert view["private"]["bid"] == {"maneuver": "block", "stratagems": [], "name": "Block"}
    assert view["private"]["may"] == [] and "advice" not in view["private"]
    assert seat_view(game, "general-1")["private"]["bid"] is None
    assert seat_view(game, "general-1")["private"]["may"] == ["bid"]
    told = seat_view(game, "general-1", advice=True)["private"]["advice"]
    expected = ai.advice(replay(game), 1)
    assert told["mix"] == [float(p) for p in expected.mix] and told["recommendation"] == expected.recommendation()
    assert told["outlook"] == expected.outlook()  # the staff officer's words, for the phone to show (HR-AI-13)
    assert [o["name"] for o in told["own"]] == [ai.bid_name(b) for b in expected.own]
    assert len(told["grid"]) == 6 and all(len(row) == 6 for row in told["grid"])
    assert seat_view(game, "general-1", advice="hold")["private"]["advice"]["aim"] == "hold"
    with pytest.raises(ValueError, match="no aim"):
        seat_view(game, "general-1", advice="win")
    game = apply(apply(game, {"type": "bid", "side": 1, "maneuver": "attack"}), {"type": "reveal"})
    assert seat_view(game, "general-0")["private"]["bid"] is None  # public now: in the copy
    assert '"maneuver": "attack"' in json.dumps(seat_view(game, "general-0")["public"])


def test_a_player_characters_seat_says_when_it_acts():
    setup = roster(man("Rook", 0, player=True, weapon=["automatic"]), man("Zyx", 1), man("Doc", 0, player=True))
    game = apply(new_game("initiative", setup, OWN), deal("AS", "KS", "QS"))  # Rook, then Zyx, then Doc
    rook, doc = seat_view(game, "combatant-0")["private"], seat_view(game, "combatant-2")["private"]
    # Its targets: those in the players' sight only (Zyx is the Observer's, hidden: absent).
    assert rook == {"combatant": 0, "at": 0, "phase": "round", "round": 1, "acting": True, "cards": ["AS"],
                    "may": ["shoot", "long", "next"], "targets": [{"at": 2, "name": "Doc", "foe": False}],
                    "own_dice": True}
    assert doc["acting"] is False and doc["cards"] == ["QS"] and doc["may"] == [] and doc["targets"] == []
    assert "Zyx" not in json.dumps(seat_view(game, "combatant-2"))


# ------------------------------------------------------------------ what a seat may do


def test_a_conflict_seat_takes_its_own_moves_only():
    game = team_conflict()
    own = check_seat_action(game, "side-0/player-1", {"type": "discard", "cards": []})
    assert own == {"type": "discard", "side": 0, "player": 1, "cards": []}
    assert apply(game, own).position == 1
    err = refused(game, "side-0/player-1", {"type": "discard", "side": 0, "player": 0, "cards": []})
    assert err.rule_id == "OIC-14" and "Ben (North)'s own cards" in err.message
    assert refused(game, "side-1/player-0", {"type": "discard", "side": 0, "player": 0, "cards": []}).rule_id == "OIC-14"
    game = discard_all(game)
    card = str(oic.legal_plays(replay(game))[0][1])
    holder = oic.legal_plays(replay(game))[0][0]
    assert check_seat_action(game, f"side-0/player-{holder}", {"type": "play", "card": card.lower()}) == {
        "type": "play", "side": 0, "player": holder, "card": card}
    assert refused(game, f"side-0/player-{1 - holder}", {"type": "play", "player": holder, "card": card}
                   ).rule_id == "OIC-14"
    assert refused(game, f"side-0/player-{1 - holder}", {"type": "play", "card": card}).rule_id == "OIC-8"
    # Out of turn: the referee's own clause.
    assert refused(game, "side-1/player-0", {"type": "pass"}).rule_id == "OIC-11"
    assert refused(game, "side-1/player-0", {"type": "pass", "side": 0}).rule_id == "OIC-14"
    assert check_seat_action(game, "side-0/player-1", {"type": "pass"}) == {"type": "pass", "side": 0}
    # The table's moves are the tablet's.
    assert refused(game, "side-0/player-0", {"type": "next_round"}).rule_id == "HR-SEAT-1"
    assert refused(game, "side-0/player-0", {"type": "call"}).rule_id == "HR-SEAT-1"
    assert refused(game, "watch", {"type": "pass"}).rule_id == "HR-SEAT-2"
    # A move asked on a view the table has moved on from (a double tap) is refused (HR-SEAT-4).
    assert check_seat_action(game, "side-0/player-1", {"type": "pass"}, seen=game.position) == {"type": "pass",
                                                                                               "side": 0}
    for stale in (game.position - 1, game.position + 1, True, "3"):
        assert refused_seen(game, "side-0/player-1", {"type": "pass"}, stale).rule_id == "HR-SEAT-4"
    # Nothing changed: the game is a value.
    assert game == discard_all(team_conflict())


@pytest.mark.parametrize("action", [
    None, [], "pass", {}, {"type": 3}, {"type": "shuffle"}, {"type": "pass", "side": True},
    {"type": "pass", "extra": 1}, {"type": "play", "card": "ZZ"}, {"type": "play", "card": "9H", "why": "sly"},
    {"type": "discard", "cards": DEEP},
    {"type": "pass", "side": float("nan")},
])
def test_a_malformed_move_is_refused_with_a_players_message(action):
    game = discard_all(team_conflict())
    err = refused(game, "side-0/player-0", action)
    assert err.rule_id in ("HR-SEAT-3", "OIC-14", "OIC-8", "OIC-5") and err.message
    assert "Traceback" not in str(err)


def test_a_campaign_seat_takes_its_own_spoils_only():
    game = game_in("spoils")
    state = replay(game)
    winner = state.pending[0]
    choices = cmp.spoils_choices(state)
    take = ({"type": "take", "stake": True, "pool": str(state.pool[0])} if choices["both"]
            else {"type": "take", "stake": True, "pool": None})
    assert check_seat_action(game, f"player-{winner}", take) == take
    err = refused(game, f"player-{1 - winner}", take)
    assert err.rule_id == "CMP-4" and state.name(winner) in err.message
    assert refused(game_in("battle"), "player-0", {"type": "battle", "winner": 0, "troops": 9}).rule_id == "HR-SEAT-1"
    assert refused(game_in("exhaustion"), "player-1", {"type": "roll"}).rule_id == "HR-SEAT-1"


def test_a_general_bids_for_its_own_army_only():
    game = new_game("battle", ai.example_setup(), None, 5)
    assert check_seat_action(game, "general-1", {"type": "bid", "maneuver": "defend"}) == {
        "type": "bid", "side": 1, "maneuver": "defend", "stratagems": []}
    assert refused(game, "general-1", {"type": "bid", "side": 0, "maneuver": "defend"}).rule_id == "AI-7"
    assert refused(game, "general-0", {"type": "bid", "maneuver": "defend", "sealed": True}).rule_id == "HR-SEAT-3"
    game = apply(game, {"type": "bid", "side": 0, "maneuver": "block"})
    err = refused(game, "general-0", {"type": "bid", "maneuver": "attack"})
    assert err.rule_id == "AI-7" and "already declared" in err.message
    game = apply(game, {"type": "bid", "side": 1, "maneuver": "attack"})
    assert refused(game, "general-0", {"type": "reveal"}).rule_id == "HR-SEAT-1"
    assert refused(apply(game, {"type": "reveal"}), "general-1", {"type": "roll"}).rule_id == "HR-SEAT-1"


def test_a_player_character_acts_on_its_own_turn_only():
    setup = roster(man("Rook", 0, player=True, weapon=["automatic"]), man("Zyx-Hidden", 1),
                   man("Doc", 0, player=True))
    game = apply(new_game("initiative", setup, OWN), deal("AS", "KS", "QS"))
    shot = shoot(0, 1, dice=[{"d10": 3}])
    assert check_seat_action(game, "combatant-0", {k: v for k, v in shot.items() if k != "shooter"}) == \
        games.normalize_action(game, shot)
    err = refused(game, "combatant-2", {"type": "next"})
    assert err.rule_id == "CS-5" and "Doc" in err.message
    assert refused(game, "combatant-2", shot).rule_id == "CS-5"
    game = apply(game, shot)  # Zyx, hidden, acts now: the refusal does not name it
    err = refused(game, "combatant-2", {"type": "shoot", "targets": [0], "dice": [{"d10": 3}]})
    assert err.rule_id == "CS-5" and "Zyx" not in str(err)
    assert refused(game, "combatant-0", {"type": "end_round"}).rule_id == "HR-SEAT-1"


def test_a_phones_shot_names_its_targets_by_their_lines_in_the_spectator_copy():
    """HR-CS-8: the hidden are not counted, so the copy's roster is Rook, Red (the Observer's
    one line), Vee, Doc — the phone's lines — and a shot at line 2 (``"lines"``) is at Vee (index 3); the
    hidden line is refused without naming anyone; a line past the roster is no one."""
    setup = roster(man("Rook", 0, player=True), man("Zyx", 1), man("Wex", 1), man("Vee", 1, player=True),
                   man("Doc", 0, player=True))
    setup["count_hidden"] = False
    game = apply(new_game("initiative", setup, OWN), deal("AS", "2S", "3S", "4S", "5S"))
    public = seat_view(game, "combatant-0")["public"]["setup"]["combatants"]
    private = seat_view(game, "combatant-0")["private"]
    assert [c["name"] for c in public][2:] == ["Vee", "Doc"] and private["at"] == 0
    assert private["targets"] == [{"at": 2, "name": "Vee", "foe": True}, {"at": 3, "name": "Doc", "foe": False}]
    assert seat_view(game, "combatant-3")["private"]["at"] == 2
    for target in private["targets"]:
        assert public[target["at"]]["name"] == target["name"]  # the line the phone draws is the one it names
    move = {"type": "shoot", "lines": [2], "dice": [{"d10": 3}]}
    assert check_seat_action(game, "combatant-0", move)["targets"] == [3]
    err = refused(game, "combatant-0", {**move, "lines": [1]})
    assert err.rule_id == "HR-CS-8" and "Zyx" not in str(err) and "Wex" not in str(err)
    assert refused(game, "combatant-0", {**move, "lines": [9]}).rule_id == "HR-SEAT-3"
    assert refused(game, "combatant-0", {**move, "targets": [3]}).rule_id == "HR-SEAT-3"  # both: refused


def test_a_double_tap_on_done_does_not_skip_the_next_card():
    """Rook holds the A♠ and K♥ and acts twice in a row (CS-5): the second "done" of a
    double tap carries the position of the view it was tapped on, and is refused (HR-SEAT-4)."""
    setup = roster(man("Rook", 0, player=True), man("Zyx", 1))
    game = apply(new_game("initiative", setup, OWN), deal("AS KH", "QS", advantages={"0": ["firepower"]}))
    seen = game.position
    game = apply(game, check_seat_action(game, "combatant-0", {"type": "next"}, seen=seen))
    assert seat_view(game, "combatant-0")["private"]["acting"] is True  # its K♥ now
    assert refused_seen(game, "combatant-0", {"type": "next"}, seen).rule_id == "HR-SEAT-4"
    assert check_seat_action(game, "combatant-0", {"type": "next"}, seen=game.position) == {"type": "next"}
    assert refused(game, "combatant-0", {"type": "deal"}).rule_id == "HR-SEAT-1"


# ------------------------------------------------------------------ a phone's messages


def message(**fields):
    base = {"v": 1, "type": "act", "seat": "side-0/player-1", "token": "abc_DEF-123", "n": 4,
            "action": {"type": "pass"}}
    base.update(fields)
    return json.dumps({k: v for k, v in base.items() if v is not ...})


def test_a_phones_message_is_read():
    read = seating.read_seat_message(message())
    assert read == seating.SeatMessage("act", "side-0/player-1", "abc_DEF-123", 4, {"type": "pass"})
    with pytest.raises(TypeError):
        read.action["type"] = "play"  # unchangeable
    hello = seating.read_seat_message(message(type="hello", action=..., n=0))
    assert hello.type == "hello" and hello.action is None
    assert seating.read_seat_message(message(type="ping", action=...)).type == "ping"


def test_a_phone_asks_for_its_seats_advice_and_stops_asking():
    """HR-AI-13 on a phone: an ``advice`` message names the aim (or ``""``: stop) and no move."""
    asked = seating.read_seat_message(message(type="advice", action=..., aim="away"))
    assert asked == seating.SeatMessage("advice", "side-0/player-1", "abc_DEF-123", 4, None, "away")
    assert seating.read_seat_message(message(type="advice", action=..., aim="")).aim == ""
    assert seating.read_seat_message(message()).aim is None


@pytest.mark.parametrize("text,words", [
    ("x" * (seating.MAX_MESSAGE_CHARS + 1), "too long"),
    ('{"v":1,"type":"act","seat":"watch","token":"t","n":0,"action":' + "[" * 50 + "]" * 50 + "}", "nested"),
    ("[" * 8_000, "nested"),
    ("not json", "not JSON"),
    ('{"v":1', "not JSON"),
    ("[1, 2]", "JSON object"),
    ('"hello"', "JSON object"),
    (message(extra=1), "unknown field"),
    (message(token=...), "missing"),
    (message(v=2), "version"),
    (message(v="1"), "version"),
    (message(v=True), "version"),
    (message(type="shout"), "message type"),
    (message(type=["act"]), "message type"),
    (message(seat=5), "not a seat"),
    (message(seat="SIDE 0"), "not a seat"),
    (message(seat="x" * 100), "not a seat"),
    (message(token=""), "secret"),
    (message(token="a b"), "secret"),
    (message(token="t" * 200), "secret"),
    (message(token=None), "secret"),
    (message(n=-1), "'n'"),
    (message(n=1.5), "'n'"),
    (message(n=True), "'n'"),
    (message(n=10**12), "'n'"),
    (message(action=...), "a move"),
    (message(action=[]), "a move"),
    (message(action={"cards": []}), "a move"),
    (message(type="ping"), "carries no move"),
    (message(type="advice"), "carries no move"),
    (message(type="advice", action=...), "names an aim"),
    (message(type="advice", action=..., aim="NET"), "names an aim"),
    (message(type="advice", action=..., aim="a" * 17), "names an aim"),
    (message(type="advice", action=..., aim=["net"]), "names an aim"),
    (message(type="advice", action=..., aim=None), "names an aim"),
    (message(aim="net"), "carries no aim"),
    (message(type="hello", action=..., aim=""), "carries no aim"),
    (message().replace('"n": 4', '"n": NaN'), "NaN"),
    (message().replace('"n": 4', '"n": Infinity'), "Infinity"),
    (message().replace('"n": 4', '"n": -Infinity'), "Infinity"),
    (message(action={"type": "pass", "side": 1}).replace('"side": 1', '"side": 1e999'), "too large"),
    (message().replace('"n": 4', '"n": 4, "n": 5'), "twice"),
    (message(action={"type": "pass", "x": "\ud800"}), "half of a character"),
    (message() + "\ud800", "half of a character"),
    ('{"v":1,"type":"act","seat":"watch","token":"t","n":' + "9" * 5000 + "}", "not JSON"),
])
def test_a_hostile_message_is_refused_in_a_few_words(text, words):
    with pytest.raises(SeatMessageError) as caught:
        seating.read_seat_message(text)
    assert words in str(caught.value)
    assert len(str(caught.value)) < 120


def test_a_message_that_is_not_text_is_refused():
    for value in (None, b'{"v":1}', 3, {"v": 1}):
        with pytest.raises(SeatMessageError, match="text"):
            seating.read_seat_message(value)
    assert issubclass(SeatMessageError, ValueError)


def test_a_seats_secret_is_compared_in_constant_time():
    token = seating.new_seat_token()
    assert len(token) >= 22 and seating.read_seat_message(message(token=token)).token == token
    assert seating.new_seat_token() != token
    assert seating.seat_token_matches(token, token)
    assert not seating.seat_token_matches(token, token[:-1])
    assert not seating.seat_token_matches(token, token + "x")
    assert not seating.seat_token_matches(token, None)
    assert not seating.seat_token_matches(token, 5)
    assert not seating.seat_token_matches("", "")
    assert not seating.seat_token_matches(token, "é" * 5)  # no TypeError for text that is not ASCII
    assert not seating.seat_token_matches(token, "\ud800")


def test_the_rate_gate_lets_a_burst_through_then_the_rate():
    gate = seating.RateGate(per_second=2, burst=3)
    assert [gate.allow(10.0) for _ in range(4)] == [True, True, True, False]
    assert gate.allow(10.4) is False  # 0.8 of a message refilled
    assert gate.allow(10.5) is True   # one whole message
    assert gate.allow(9.0) is False   # a clock that goes back refills nothing
    assert gate.allow(100.0) and gate.allow(100.0) and gate.allow(100.0) and not gate.allow(100.0)  # capped at the burst
    for bad in ((0, 3), (-1, 3), (float("nan"), 3), (1, 0), (1, 1.5), (True, 3), (1, True)):
        with pytest.raises(ValueError):
            seating.RateGate(*bad)
    with pytest.raises(ValueError):
        gate.allow(float("nan"))


def test_every_seat_house_rule_cited_is_one_the_app_shows():
    """HR-SEAT-1 … 4 are house rules (RULES.md is silent on phones): each id the seat code
    cites is in ``engine.seats.HOUSE_RULES`` (its text for the tablet to show), and each is cited."""
    import re
    from pathlib import Path

    root = Path(seating.__file__).parent
    cited = set()
    for path in [root / "seats.py"] + sorted(root.glob("*/seats.py")):
        cited |= set(re.findall(r"HR-SEAT-\d+", path.read_text(encoding="utf-8")))
    assert cited == set(seating.HOUSE_RULES) == {"HR-SEAT-1", "HR-SEAT-2", "HR-SEAT-3", "HR-SEAT-4"}
    assert all(text.endswith(".") and len(text) < 600 for text in seating.HOUSE_RULES.values())
