"""Hidden means absent, per seat (issue 32): what a seat's phone is sent — its view
(``engine.seats.seat_view``) and the refusals of its moves — never holds what is hidden
from that seat.

Random games of each system with distinctive tokens (the kits of the *_privacy tests):
every card in another player's hand or the deck (OIC, campaign: as a JSON token ``"9H"``,
a label ``9♥`` and a name), the other army's sealed bid and its staff officer's advice
(battle), the Observer's hidden combatants (CONSIM: "Zyx-Sniper-41", their kinds,
training and weapons), and the game's 128-bit seed. Each view is serialised with
``json.dumps`` and searched. Each test also checks that what the seat may see is there
(its own hand, its own bid), so the search could fail.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ascension as ai
from engine import game as games
from engine import seats as seating
from engine.cards import full_deck
from engine.game import apply, new_game, new_seed, replay

from .test_ascension_privacy import ARMIES, SECRET_STRATAGEMS, tokens_of
from .test_campaign_referee import advance
from .test_conflict_privacy import hidden_cards, played_conflicts
from .test_consim_privacy import random_play, rosters

DECK = full_deck()


def sent(game: games.Game, seat_id: str, **options) -> str:
    """A seat's view as the text a phone is sent."""
    return json.dumps(seating.seat_view(game, seat_id, **options), ensure_ascii=False)


def assert_not_sent(text: str, tokens, where: str) -> None:
    for token in tokens:
        assert token not in text, f"hidden {token!r} is in the view of {where}"


def card_tokens(cards) -> list[str]:
    return [f'"{c}"' for c in cards] + [c.label for c in cards] + [c.name for c in cards]


def player_seats(game):
    return [s for s in seating.seats(game) if not s.watch]


def test_the_watch_seat_is_last_and_sees_the_spectator_view_only():
    game = new_game("campaign", {"players": ["Anna", "Ben"]})
    *players, watch = seating.seats(game)
    assert watch == seating.Seat("watch", "Watch the table", True)
    view = seating.seat_view(game, "watch")
    assert view["private"] == {} and view["public"]["seed"] == 0
    assert view["public"]["setup"]["spectator"] is True
    assert [s.id for s in players] == ["player-0", "player-1"]


# ------------------------------------------------------------------ Organizations In Conflict


@settings(max_examples=40)
@given(played_conflicts())
def test_a_conflict_seat_sees_its_own_hand_and_no_other(game):
    state = replay(game)
    everything = hidden_cards(game)
    for one in player_seats(game):
        s, p = (seating.seat_numbers(one.id)[k] for k in ("side", "player"))
        own = set(state.hands[s][p])
        text = sent(game, one.id)
        assert_not_sent(text, [str(game.seed)] + card_tokens(everything - own), one.id)
        for card in own:  # the check can fail: the seat's own cards are there
            assert f'"{card}"' in text
        # Its refusals tell nothing hidden: a play and a discard of cards it may not hold,
        # each refusal searched for every hidden card but the one the phone named.
        for card in random.Random(game.position).sample(DECK, 6):
            for move in ({"type": "play", "card": str(card)}, {"type": "discard", "cards": [str(card)]}):
                try:
                    seating.check_seat_action(game, one.id, move)
                except seating.SeatRefused as err:
                    assert_not_sent(str(err), card_tokens(everything - own - {card}), f"{one.id}'s refusal")
    assert_not_sent(sent(game, "watch"), [str(game.seed)] + card_tokens(everything), "watch")


# ------------------------------------------------------------------ campaign


@settings(max_examples=40)
@given(st.booleans(), st.integers(0, 10_000), st.floats(0, 1))
def test_a_campaign_seat_sees_its_own_cards_and_odds_and_no_other_hand(dummy, choice_seed, cut):
    game = new_game("campaign", {"players": ["Anna", "Ben"], "dummy": dummy})
    game = advance(game, random.Random(choice_seed))
    game = games.goto(game, int(cut * len(game.actions)))
    state = replay(game)
    unseen = {c for c in DECK if c not in state.seen}
    for one in player_seats(game):
        p = seating.seat_numbers(one.id)["player"]
        own = set(state.cards_of(p))
        text = sent(game, one.id)
        assert_not_sent(text, [str(game.seed)] + card_tokens(unseen - own), one.id)
        for card in own:
            assert f'"{card}"' in text
        for card in random.Random(game.position).sample(DECK, 4):
            for move in ({"type": "take", "stake": False, "pool": str(card)}, {"type": "take", "stake": True},
                         {"type": "negotiate"}):
                try:
                    seating.check_seat_action(game, one.id, move)
                except seating.SeatRefused as err:
                    assert_not_sent(str(err), card_tokens(unseen - own - {card}), f"{one.id}'s refusal")
    assert_not_sent(sent(game, "watch"), [str(game.seed)] + card_tokens(unseen), "watch")


# ------------------------------------------------------------------ battle


@settings(max_examples=30)
@given(seed=st.integers(2**127, 2**128 - 1), data=st.data())
def test_a_general_sees_its_own_sealed_bid_and_advice_and_not_the_others(seed, data):
    game = new_game("battle", ARMIES, None, seed)
    secrets_ = data.draw(st.permutations(["block", "skirmish", "attack", "shock"]), label="secrets")[:2]
    others = [m for m in ai.MANEUVERS if m not in secrets_ and m != "withdraw"]
    for _ in range(data.draw(st.integers(0, 2), label="weeks played")):
        for side in (0, 1):
            game = apply(game, {"type": "bid", "side": side, "maneuver": data.draw(st.sampled_from(others))})
        game = apply(apply(game, {"type": "reveal"}), {"type": "roll"})
        if replay(game).phase == "over":
            for s in (0, 1):
                over = json.loads(sent(game, f"general-{s}", advice=True))
                assert over["private"]["advice"] is None and str(seed) not in json.dumps(over)
            return
    bids: dict[int, dict] = {}
    for side in data.draw(st.sampled_from([(0,), (1,), (0, 1), (1, 0)]), label="who declares"):
        picks = SECRET_STRATAGEMS[secrets_[side]][: data.draw(st.integers(0, 2), label="stratagems")]
        bids[side] = {"type": "bid", "side": side, "maneuver": secrets_[side], "stratagems": picks}
        game = apply(game, bids[side])
    asks = data.draw(st.booleans(), label="advice")
    views = {s: sent(game, f"general-{s}", advice=asks) for s in (0, 1)}
    for s in (0, 1):
        other = 1 - s
        hidden = [str(seed)] + (tokens_of(bids[other]) if other in bids else [])
        assert_not_sent(views[s], hidden, f"general-{s}")
        if s in bids:  # its own bid is there
            assert f'"maneuver": "{bids[s]["maneuver"]}"' in views[s]
            assert all(f'"{key}"' in views[s] for key in bids[s]["stratagems"])
        private = json.loads(views[s])["private"]
        if asks:
            mine, theirs = private["advice"], json.loads(views[other])["private"]["advice"]
            assert mine["own"] == json.loads(views[other])["private"]["advice"]["enemy"]
            if theirs["recommendation"] != mine["recommendation"]:
                assert json.dumps(theirs["mix"]) not in json.dumps(mine)
                assert theirs["recommendation"] not in views[s]
        else:
            assert "advice" not in private
        for maneuver in ai.MANEUVERS:  # its refusals do not tell the other's bid either
            try:
                seating.check_seat_action(game, f"general-{s}", {"type": "bid", "maneuver": maneuver})
            except seating.SeatRefused as err:
                assert_not_sent(json.dumps(str(err)), hidden, f"general-{s}'s refusal")
                assert secrets_[other] not in str(err) or maneuver == secrets_[other]
    watch = sent(game, "watch")
    assert_not_sent(watch, [str(seed)] + [t for b in bids.values() for t in tokens_of(b)], "watch")


# ------------------------------------------------------------------ CONSIM


@settings(max_examples=40)
@given(rosters(), st.integers(0, 2**32 - 1), st.integers(0, 40))
def test_a_player_characters_seat_never_sees_the_observers_hidden_combatants(made, play_seed, steps):
    setup, hidden_names = made
    seed = new_seed()
    game = random_play(new_game("initiative", setup, seed=seed), random.Random(play_seed), steps)
    state = replay(game)
    tokens = [str(seed)]
    if state.privacy:
        tokens += hidden_names + ['"squad"', '"vehicle"', '"trained"', '"elite"', '"automatic"',
                                  '"semi-automatic"', '"explosive"', '"ground-vehicle"', '"air-vehicle"']
    seats_ = player_seats(game)
    assert seats_, "every roster of the kit has a player character"
    for one in seats_ + [seating.seat(game, "watch")]:
        text = sent(game, one.id)
        assert_not_sent(text, tokens, one.id)
        if one.watch:
            continue
        i = seating.seat_numbers(one.id)["combatant"]
        assert state.combatants[i].name in text
        # Its refusals tell nothing hidden either: a shot at everyone, "done", the Observer's moves.
        moves = [{"type": "shoot", "targets": [t]} for t in range(len(state.combatants))] + [
            {"type": "next"}, {"type": "treat"}, {"type": "first_aid"}, {"type": "end_round"},
            {"type": "shoot", "targets": list(range(len(state.combatants)))}]
        for move in moves:
            try:
                seating.check_seat_action(game, one.id, move)
            except seating.SeatRefused as err:
                assert_not_sent(str(err), tokens, f"{one.id}'s refusal of {move}")


def test_a_player_characters_phone_is_never_sent_a_hidden_combatant_before_or_after_the_privacy_switch():
    """CS-1, issue 32: "ZQXHIDDEN", the Observer's, and its cards are in no view or refusal a
    player's seat is sent while privacy is on — before the Observer lifts it, and after it is
    put back on; while it is off the name is there (the search could fail)."""
    from .consim_kit import OWN, deal, man, roster

    setup = roster(man("Hero", 0, player=True, weapon=["automatic"]), man("ZQXHIDDEN", 1, training="elite"),
                   man("Medic", 0, player=True))
    setup["count_hidden"] = False
    game = apply(new_game("initiative", setup, OWN), deal("AS", "KH", "QH"))  # ZQXHIDDEN holds the K♥
    hidden = ["ZQXHIDDEN", '"KH"', "K♥", "King of Hearts", '"elite"']
    moves = [{"type": "shoot", key: [t], "dice": [{"d10": 3}]} for t in range(4) for key in ("targets", "lines")] + [
        {"type": "next"}, {"type": "long", "cards": ["AS", "2C"]}, {"type": "treat"}, {"type": "first_aid"},
        {"type": "privacy", "hide": False}]

    def said(g) -> str:
        texts = []
        for one in player_seats(g):
            texts.append(sent(g, one.id))
            for move in moves:
                try:
                    seating.check_seat_action(g, one.id, move)
                except seating.SeatRefused as err:
                    texts.append(str(err))
        return "\n".join(texts)

    before = said(game)
    assert '"AS"' in before and '"QH"' in before and "Hero" in before
    assert_not_sent(before, hidden, "a player's seat before the switch")
    game = apply(game, {"type": "next"})  # Hero's A♠ done: the hidden one acts (its K♥ is not shown)
    assert_not_sent(said(game), hidden, "a player's seat while the hidden act")
    shown = apply(game, {"type": "privacy", "hide": False})
    assert "ZQXHIDDEN" in said(shown)
    again = apply(shown, {"type": "privacy", "hide": True})
    assert_not_sent(said(again), hidden, "a player's seat after the switch")
