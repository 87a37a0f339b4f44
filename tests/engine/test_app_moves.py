"""Issue 35, item 1, the app's moves (HR-AI-14, HR-OIC-4): a game that comes from outside this
device — a share link, an imported file — opens only if every move recorded for a side the app
plays is the move the app makes there, derived again from the seed and the public game. A link
whose app bid or app move was changed (or made by people) is refused with the clause and nothing
is opened; a genuine link of a game against the app (Easy, Normal, Hard) opens identically. The
checking has its own budget (engine.game.MAX_APP_MOVE_WORK), told before any of it is done, and
the app never makes a game past it."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import ascension as ai
from engine import codec
from engine import game as games
from engine.codec import SaveError, ShareError
from engine.conflict import opponent
from engine.game import NotTheAppsMove, TooLong, apply, new_game, replay

from .app_policy_cases import battle_setup, conflict_against_the_app

# ---------------------------------------------------------------------------
# Games against the app, as the app itself makes them


def battle_against_the_app(levels: tuple[str | None, str | None], weeks: int = 12, seed: int = 3):
    """A battle with the app's dice where the app plays the armies ``levels`` names: its bids are
    the app's (``app_bid``, as the board asks it), the people's seeded random maneuvers."""
    rng = random.Random(seed)
    setup, rules = battle_setup(rng)
    for s, level in enumerate(levels):
        if level:
            setup["armies"][s].update(controller="app", level=level)
    game = new_game("battle", setup, rules, seed)
    for _ in range(weeks):
        if replay(game).phase == "over":
            break
        for s in (0, 1):
            state = replay(game)
            if levels[s]:
                game = apply(game, ai.app_bid(state, s, levels[s], game.seed))
            else:
                game = apply(game, {"type": "bid", "side": s, "maneuver": rng.choice(ai.MANEUVERS)})
        game = apply(game, {"type": "reveal"})
        game = apply(game, {"type": "roll"})
    return game


def with_action(game, index: int, action, *, cut: bool = False):
    """``game`` with its action ``index`` replaced, as a link's sender could write it (``cut``:
    and the actions after it left out, which the changed move may have made illegal)."""
    actions = list(game.actions[:index + 1] if cut else game.actions)
    actions[index] = action
    return replace(game, actions=tuple(actions), position=min(game.position, len(actions)), _tip=None)


def app_moves(game, types=("bid",)) -> list[int]:
    return [i for i, a in enumerate(game.actions) if a.get("type") in types and "why" in a]


def refused_link(game) -> ShareError:
    with pytest.raises(ShareError) as caught:
        codec.decode_share(codec.encode_share(game))
    return caught.value


def refused_import(game) -> SaveError:
    with pytest.raises(SaveError) as caught:
        codec.loads(codec.dumps(game), outside=True)
    return caught.value


def opens_identically(game) -> None:
    assert codec.decode_share(codec.encode_share(game)) == game
    assert codec.loads(codec.dumps(game), outside=True)[0] == game
    assert games.check_app_moves(game) is game


# ---------------------------------------------------------------------------
# The battle: the app general's bids (HR-AI-14)


@pytest.mark.parametrize("levels", [("easy", None), (None, "normal"), ("hard", None), ("hard", "normal")])
def test_a_genuine_battle_against_the_app_opens_identically_from_its_link_and_its_file(levels):
    game = battle_against_the_app(levels)
    assert app_moves(game)
    opens_identically(game)
    # Undone to any point (its redo stack travels too), it opens as well.
    opens_identically(games.goto(game, len(game.actions) // 2))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_link_whose_app_bid_was_changed_is_refused_with_the_clause(level):
    game = battle_against_the_app((None, level))
    index = app_moves(game)[-1]
    bid = dict(game.actions[index])
    state = replay(game, index)
    other = next(m for m in ai.MANEUVERS if m != bid["maneuver"])
    forged = {"type": "bid", "side": 1, "maneuver": other, "why": bid["why"]}
    if other == "withdraw":
        forged["rearguard"] = state.rearguards[1]
    game = with_action(game, index, forged)
    games.validate(game)  # a legal bid: only the app's check refuses it
    err = refused_link(game)
    assert err.reason == "forged"
    text = str(err)
    assert text.startswith("This link's app moves were not made by the app: HR-AI-14 at step ")
    assert f"step {index + 1}:" in text and "South is played by the app" in text
    assert "not the one the app's general makes there" in text
    assert ai.MANEUVER_NAMES[bid["maneuver"]] not in text.split("step")[1]  # the app's real bid is not told
    imported = refused_import(game)
    assert imported.reason == "forged" and str(imported).startswith("This save's app moves were not made by the app")
    # A save of this device's own storage is not checked (it was made here): it opens.
    assert codec.loads(codec.dumps(game))[0] == games.validate(game)


def test_an_app_armys_bid_without_its_why_is_a_bid_people_made_and_is_refused():
    game = battle_against_the_app(("normal", None))
    index = app_moves(game)[0]
    bid = {k: v for k, v in game.actions[index].items() if k != "why"}
    err = refused_link(with_action(game, index, bid))
    assert "HR-AI-14" in str(err) and "only the app's general bids for it" in str(err)


@pytest.mark.parametrize("kind", ["battle", "conflict"])
def test_a_link_where_people_made_every_move_of_the_apps_side_is_refused(kind):
    """With every "why" taken out, the app's side seems to have made no move of its own: its
    moves are still checked (the estimate counts every move of a side the app plays)."""
    game = battle_against_the_app(("hard", None)) if kind == "battle" else conflict_against_the_app("normal")
    plain = replace(game, actions=tuple({k: v for k, v in a.items() if k != "why"} for a in game.actions),
                    _tip=None)
    assert games.app_move_work(plain) > 0
    err = refused_link(plain)
    assert err.reason == "forged" and ("HR-AI-14" if kind == "battle" else "HR-OIC-4") in str(err)


def test_a_spectators_copy_of_a_battle_against_the_app_opens_unchecked():
    game = battle_against_the_app(("hard", None))
    copy_ = ai.public_game(game)
    assert codec.decode_share(codec.encode_share(copy_)) == copy_


def test_checking_is_refused_before_it_starts_when_it_would_take_too_long(monkeypatch):
    """A battle of the strongest armies with weeks of app bids: refused at once, before any bid
    is derived again (the estimate reads the setup and the actions only)."""
    def unit(i):
        return {"name": f"U{i}", "attack": 99, "defense": 99, "mobility": 99, "traits": ["infantry"],
                "armour": 99, "size": 0}
    setup = {"armies": [{"name": n, "units": [unit(i) for i in range(20)], "vanguard": 0, "general": None,
                         **({"controller": "app", "level": "hard"} if n == "North" else {})}
                        for n in ("North", "South")]}
    game = new_game("battle", setup, None, 9)
    week = [{"type": "bid", "side": 0, "maneuver": "block", "why": "Hard: a block"},
            {"type": "bid", "side": 1, "maneuver": "block"}, {"type": "reveal"}, {"type": "roll"}]
    actions = tuple(week * 5)
    forged = games.validate(replace(game, actions=actions, position=len(actions)))
    assert games.app_move_work(forged) > games.MAX_APP_MOVE_WORK
    monkeypatch.setattr("engine.ascension.opponent.app_bid", lambda *a: pytest.fail("derived a bid"))
    with pytest.raises(TooLong):
        games.check_app_moves(forged)
    err = refused_link(forged)
    assert err.reason == "too-large" and "checking the app's moves would keep a tablet busy" in str(err)


def test_the_app_general_does_not_bid_past_what_a_link_can_carry_checked(monkeypatch):
    """Every game the app makes opens again from its link: an app bid that would take the game
    past the budget is refused (TooLong), a person's move never is."""
    game = battle_against_the_app(("normal", None), weeks=1)
    week_work = games.app_move_work(game)
    assert week_work > 0
    monkeypatch.setattr(games, "MAX_APP_MOVE_WORK", week_work)
    state = replay(game)
    if state.phase == "over":
        pytest.skip("the battle ended in its first week")  # pragma: no cover (seeded: it does not)
    with pytest.raises(TooLong, match="as many of the app's moves as its link can carry"):
        apply(game, ai.app_bid(state, 0, "normal", game.seed))
    game = apply(game, {"type": "bid", "side": 1, "maneuver": "attack"})  # people still move
    assert games.check_app_moves(game) is game


# ---------------------------------------------------------------------------
# The conflict: the app side's discards, cards and passes (HR-OIC-4)


@pytest.mark.parametrize("level,both", [("easy", False), ("normal", False), ("hard", False), ("hard", True)])
def test_a_genuine_conflict_against_the_app_opens_identically_from_its_link_and_its_file(level, both):
    game = conflict_against_the_app(level, both=both)
    assert app_moves(game, ("discard", "play", "pass"))
    opens_identically(game)
    opens_identically(games.goto(game, len(game.actions) // 3))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_link_whose_app_card_was_changed_is_refused_with_the_clause(level):
    from engine import conflict as oic

    game = conflict_against_the_app(level, moves=80)
    for index in app_moves(game, ("play",)):
        state = replay(game, index)
        action = game.actions[index]
        others = sorted((pl, str(c)) for pl, c in oic.legal_plays(state) if str(c) != action["card"])
        if others:
            break
    else:  # pragma: no cover (seeded: there is such a play)
        pytest.fail("no app play with another legal card")
    player, card = others[0]
    forged = with_action(game, index, {**action, "player": player, "card": card}, cut=True)
    games.validate(forged)  # a legal card: only the app's check refuses it
    err = refused_link(forged)
    text = str(err)
    assert err.reason == "forged"
    assert text.startswith(f"This link's app moves were not made by the app: HR-OIC-4 at step {index + 1}: ")
    assert "is played by the app" in text and "not the move the app makes there" in text
    assert action["card"] not in text and card not in text  # no card of the app's hidden hand is told
    assert refused_import(forged).reason == "forged"


def test_a_link_whose_app_discard_was_changed_or_made_by_people_is_refused():
    game = conflict_against_the_app("normal")
    index = app_moves(game, ("discard",))[0]
    action = game.actions[index]
    hand = replay(game, index).hands[action["side"]][action["player"]]
    keep = [str(c) for c in hand if str(c) not in action["cards"]]
    forged = with_action(game, index, {**action, "cards": sorted(action["cards"] + keep[:1])}, cut=True)
    assert "HR-OIC-4" in str(refused_link(forged))
    by_people = with_action(game, index, {k: v for k, v in action.items() if k != "why"})
    assert "only the app moves that side" in str(refused_link(by_people))


def test_the_error_says_which_step_and_is_a_rule_error():
    game = conflict_against_the_app("hard")
    index = app_moves(game, ("discard",))[0]
    action = game.actions[index]
    forged = with_action(game, index, {k: v for k, v in action.items() if k != "why"})
    with pytest.raises(NotTheAppsMove) as caught:
        games.check_app_moves(games.validate(forged))
    assert caught.value.rule_id == "HR-OIC-4" and caught.value.step == index + 1
    assert isinstance(caught.value, games.RuleError) and isinstance(caught.value, ValueError)


def test_a_conflict_people_play_and_a_real_deck_game_cost_nothing_to_check():
    from engine import conflict as oic

    assert games.app_move_work(new_game("conflict", oic.purple_dragon_setup(), None, 3)) == 0
    assert oic.app_move_work({"deck": "table", "sides": []}, [{"type": "pass", "why": "x"}]) == 0


def test_at_the_table_only_the_app_moves_its_side():
    """apply takes a move of a side the app plays only as the app makes it, so every game the app
    makes passes the check of its link (and people never play the app's hidden hand)."""
    from engine.game import RuleError

    game = conflict_against_the_app("normal", moves=0)
    state = replay(game)
    while opponent.to_act(state) is None or state.levels[opponent.to_act(state)[0]] is None:
        side, player = opponent.to_act(state)
        game = apply(game, {"type": "discard", "side": side, "player": player, "cards": []})
        state = replay(game)
    side, player = opponent.to_act(state)
    made = opponent.decide(state, side, "normal").action
    hand = [str(c) for c in state.hands[side][player]]
    other = [] if made["cards"] else hand[:1]  # not the app's discard
    for move in ({"type": "discard", "side": side, "player": player, "cards": other},
                 {"type": "discard", "side": side, "player": player, "cards": other, "why": "made up"}):
        with pytest.raises(RuleError, match="^HR-OIC-4: "):
            apply(game, move)
        assert not games.can_apply(game, move)
    assert apply(game, opponent.decide(state, side, "normal").action).actions[-1]["type"] == "discard"
    battle = battle_against_the_app(("hard", None), weeks=0)
    with pytest.raises(RuleError, match="^HR-AI-14: North is played by the app"):
        apply(battle, {"type": "bid", "side": 0, "maneuver": "attack"})


def test_the_house_rules_say_the_budget_as_it_is():
    """HR-AI-14 and HR-OIC-4 tell how long a game against the app may grow: from the constants."""
    from engine import conflict as oic
    from engine.ascension import opponent as general

    weeks = games.MAX_APP_MOVE_WORK // (general.ADVICE_WORK + 7 * general.DIE_WORK)  # 7 dice: stats up to 6
    assert 25 <= weeks <= 35 and "about 30 weeks" in ai.HOUSE_RULES["HR-AI-14"]
    cards = games.MAX_APP_MOVE_WORK // opponent.HARD_WORK
    assert 180 <= cards <= 230 and "about 200 cards" in oic.HOUSE_RULES["HR-OIC-4"]
    assert ai.OPENING_RULES == ("HR-AI-14", "HR-AI-15") and oic.OPENING_RULES == ("HR-OIC-4",)
