"""engine.record: a game's printable record and its Markdown post (issue 22).

Every game here is played through engine.game.apply with the current engines. The
privacy tests plant distinctive hidden tokens (cards in hands, a secret bid, the
Observer's combatants, an app's "why", a 128-bit seed) and check that none reaches
the record, its text or its post.
"""

from __future__ import annotations

import random
import re

import pytest

from engine import ascension as ai
from engine import campaign as cmp
from engine import conflict as oic
from engine import consim as cs
from engine import game as games
from engine import record as records
from engine import solo
from engine.cards import clean_cards
from engine.game import apply, new_game, replay, undo
from engine.record import Record, RecordError, record, to_markdown, to_text
from engine.text import plural

SEED = (1 << 127) | 0x5EED_1234_ABCD_9876_0000_4242  # a 128-bit seed: its digits are a token


# ---------------------------------------------------------------------------
# Games played to a point, with the current engines


def conflict_game(seed: int = SEED, actions: int = 400, app: bool = False):
    """The Purple Dragon League example played by random legal moves (to its end, or
    ``actions`` steps); with ``app``, the app plays both sides (engine.solo, Easy): its
    moves are its own, each with its "why" (issue 35)."""
    setup = oic.purple_dragon_setup()
    if app:  # only the app's own moves carry a why: the app plays both sides
        setup = {**setup, "sides": [{**side, "controller": "app", "level": "easy"} for side in setup["sides"]]}
    g = new_game("conflict", setup, seed=seed)
    rng = random.Random(11)
    while len(g.actions) < actions:
        st = replay(g)
        if st.phase == "conflict-over":
            break
        if st.phase == "discard":
            s, p = next((s, p) for s in (0, 1) for p in range(len(st.sides[s].players)) if not st.discarded[s][p])
            a = {"type": "discard", "side": s, "player": p, "cards": [str(c) for c in st.hands[s][p][:1]]}
        elif st.phase == "round-over":
            a = {"type": "next_round"}
        else:
            plays = oic.legal_plays(st)
            if plays and rng.random() > 0.1:
                p, card = rng.choice(plays)
                a = {"type": "play", "player": p, "card": str(card)}
            else:
                a = {"type": "pass"}
        if app and a["type"] != "next_round":
            a = solo.decide(st, *solo.to_act(st)[:1], "easy").action
        g = apply(g, a)
    return g


def campaign_game(seed: int = SEED, finish: bool = False, battles: int = 4):
    g = new_game("campaign", {"players": ["Anna", "Ben"]}, seed=seed)
    fought = 0
    while True:
        st = replay(g)
        if st.phase == "over" or (not finish and fought >= battles):
            return g
        if st.phase == "exhaustion":
            g = apply(g, {"type": "roll"})
        elif st.phase == "exhausted":
            g = apply(g, {"type": "negotiate"})
        else:
            g = apply(g, {"type": "battle", "winner": fought % 2, "troops": 9 if fought % 3 == 0 else 3})
            fought += 1
            st = replay(g)
            if st.phase == "spoils":
                both = cmp.spoils_choices(st)["both"]
                g = apply(g, {"type": "take", "stake": True, "pool": str(st.pool[0]) if both else None})


HIDDEN_NAME = "Zyx-Sniper-41"


def consim_game(seed: int = SEED, privacy: bool = True):
    setup = {"sides": ["Blue", "Red"], "privacy": privacy, "combatants": [
        {"name": "Sgt Rook", "side": 0, "player": True, "weapon": ["automatic"]},
        {"name": "Corporal Vale", "side": 0, "player": True},
        {"name": HIDDEN_NAME, "side": 1, "training": "trained", "weapon": ["semi-automatic"]},
        {"name": "Red Grunt", "side": 1}]}
    g = new_game("initiative", setup, {"dice": "table"}, seed=seed)  # the shot's dice entered (issue 35)
    g = apply(g, {"type": "deal", "advantages": {"0": ["firepower"]}})
    while cs.acting(replay(g)) != 0:  # CS-5 ruling: only the current actor shoots
        g = apply(g, {"type": "next"})
    g = apply(g, {"type": "shoot", "shooter": 0, "targets": [2], "mode": "aimed", "cover": "none",
                  "unseen": False, "dice": [{"d10": 9, "d6": 4, "countdown": 3}]})  # DYING: its 1d6 too
    return g


def battle_game(seed: int = SEED, weeks: int = 2, pending: dict | None = None, rules: dict | None = None):
    g = new_game("battle", ai.example_setup(), rules, seed=seed)
    for _ in range(weeks):
        if replay(g).phase == "over":
            break
        g = apply(g, {"type": "bid", "side": 0, "maneuver": "attack", "stratagems": []})
        g = apply(g, {"type": "bid", "side": 1, "maneuver": "defend", "stratagems": []})
        g = apply(g, {"type": "reveal"})
        g = apply(g, {"type": "roll"})
    if pending is not None:
        g = apply(g, {"type": "bid", "side": 0, **pending})
    return g


def every_game():
    return [conflict_game(actions=80), campaign_game(), consim_game(), battle_game()]


def all_text(rec: Record) -> str:
    return to_text(rec) + "\n" + to_markdown(rec)


# ---------------------------------------------------------------------------
# What a record holds


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.kind)
def test_a_record_has_its_parts_in_order(game):
    rec = record(game, name="Friday night", dates=[("Started", "Nov 29, 2026, 8:02 PM")])
    assert rec.kind == game.kind and rec.tool == records.TOOL_TITLES[game.kind]
    assert [s.key for s in rec.sections] == ["standing", "table", "log", "steps", "rules", "house"]
    assert ("Game", "Friday night") in rec.facts and ("Started", "Nov 29, 2026, 8:02 PM") in rec.facts
    assert rec.note.startswith("Made from the spectator copy: ") and games.system(game.kind).SPECTATOR_VIEW in rec.note
    assert rec.section("standing").title == "Where it stands"  # none of these is over
    assert rec.section("standing").entries[0].text  # status (or standing) in words


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.kind)
def test_the_steps_are_the_spectator_copys_history(game):
    public = games.system(game.kind).public_game(game)
    rec = record(game)
    steps = rec.section("steps")
    assert steps.numbered and [e.text for e in steps.entries] == games.history(public)
    assert rec.steps == len(public.actions) and ("Steps", str(rec.steps)) in rec.facts
    md = to_markdown(rec)
    for number, label in enumerate(games.history(public), start=1):
        assert f"\n{number}. {records._md(label)}\n" in md


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.kind)
def test_every_setting_and_house_rule_in_force_is_there_with_its_id(game):
    mod = games.system(game.kind)
    rec = record(game)
    rules = rec.section("rules")
    assert [e.ref for e in rules.entries if e.tag == "variant"] == [v.rule_id for v in mod.VARIANTS]
    for variant in mod.VARIANTS:
        if variant.choices:
            assert any(e.text == f"{variant.label}: {variant.describe(game.rules[variant.key])}"
                       for e in rules.entries)
    house = rec.section("house")
    opening = set(getattr(mod, "OPENING_RULES", ()))  # how a game from outside opens: no rule of its play
    unused = getattr(mod, "rules_not_in_play", None)  # a rule only a choice brings in (HR-CS-8)
    if unused is not None:
        opening |= unused(replay(mod.public_game(game)))
    assert [(e.ref, e.text) for e in house.entries] == [(rid, text) for rid, text in mod.HOUSE_RULES.items()
                                                        if rid not in opening]
    assert all(e.tag == "house rule" for e in house.entries)
    md = to_markdown(rec)
    for rid in [*mod.HOUSE_RULES, *(v.rule_id for v in mod.VARIANTS), *mod.RULINGS]:
        assert (rid in md) is (rid not in opening)


def test_a_chosen_variant_is_recorded_as_chosen():
    g = new_game("conflict", oic.purple_dragon_setup(), {"trump_circle": "introduction", "deck": "shared"}, seed=3)
    entries = {e.ref: e.text for e in record(g).section("rules").entries if e.tag == "variant"}
    assert entries["OIC-12"] == "Trump circle: " + oic.VARIANTS[0].describe("introduction")
    assert entries["OIC-9"].startswith("Decks: Both sides draw from one shared deck")


def test_a_house_table_is_recorded_cell_by_cell():
    rules = {"house_tables": {"major": {"attack": {"defend": "inflict 2 casualties"}}}, "success": "d8/5+"}
    rec = record(battle_game(weeks=0, rules=rules))
    entries = {e.ref: e for e in rec.section("rules").entries if e.tag == "variant"}
    assert entries["AI-11"].text == "House result tables: 1 change"
    assert entries["AI-11"].details == ("Major victory · Attack · Defend: inflict 2 casualties",)
    assert entries["AI-6"].text == "Dice and success: " + ai.VARIANTS[0].describe("d8/5+")
    plain = {e.ref: e for e in record(battle_game(weeks=0)).section("rules").entries if e.tag == "variant"}
    assert plain["AI-11"].text == "House result tables: none (as in the rules)" and not plain["AI-11"].details


def test_conflict_record_rounds_cards_and_powers():
    g = conflict_game(actions=400)
    st = replay(g)
    rec = record(g)
    log = rec.section("log")
    assert len(log.entries) == len(st.results) > 3
    for entry, result in zip(log.entries, st.results):
        assert entry.text == result.headline and result.explanation in entry.details
        cards = " → ".join(f"{st.sides[p.side].name} {p.card.label}" for p in result.plays)
        if result.plays:  # ranks and suit symbols as text
            assert f"Cards: {cards}" in entry.details
        else:  # HR-OIC-1: no card was played
            assert not any(d.startswith("Cards:") for d in entry.details)
    sides = rec.section("table").entries
    assert [e.text.split(" (")[0] for e in sides[:2]] == [s.name for s in st.sides]
    for s, side in enumerate(st.sides):  # powers as set up → now
        now = [f"{o.name} ({o.suit.symbol} {o.suit.noun}), power" for pl in side.players for o in pl.organizations]
        assert [d.split(": ", 1)[1].split(" power")[0] + " power" for d in sides[s].details] == now
        for pl_i, pl in enumerate(side.players):
            for o_i, org in enumerate(pl.organizations):
                before = st.initial_sides[s].players[pl_i].organizations[o_i].power
                want = f"power {before}" if before == org.power else f"power {before} → {org.power}"
                assert any(f"{org.name} (" in d and want in d for d in sides[s].details)
    assert any(r.changed for r in st.results)
    if st.is_over:
        assert rec.over and rec.section("standing").title == "Result"
        assert rec.section("standing").entries[-1].text == st.end_message


def test_campaign_record_log_rolls_and_the_negotiating_table():
    g = campaign_game(finish=True)
    st = replay(g)
    assert st.is_over and st.treaty is not None
    rec = record(g, name="Winter war")
    assert rec.over and rec.section("standing").title == "Result"
    assert rec.section("standing").entries[-1].text == st.result
    log = rec.section("log")
    assert [e.ref for e in log.entries] == [e.rule for e in st.log]
    assert all(entry.text.startswith(item.text) for entry, item in zip(log.entries, st.log))
    table = "\n".join(e.text for e in rec.section("table").entries)
    for roll in st.rolls:  # dice as numbers
        assert f"Exhaustion roll after battle {roll.battles}: dice {roll.dice[0]} {roll.dice[1]}" in table
    for p in (0, 1):  # both best hands, their cards spelled as ranks and suits
        hand = st.treaty.hands[p]
        assert f"{st.players[p]}: {hand} ({' '.join(c.label for c in hand.cards)})" in table
    assert to_markdown(rec).startswith("# Campaign: Winter war\n")


def test_initiative_record_roster_and_log():
    g = consim_game(privacy=False)
    st = replay(g)
    rec = record(g)
    roster = rec.section("table").entries
    assert [e.text for e in roster] == ["Blue", "Red"]
    assert any(d.startswith(HIDDEN_NAME + ":") for d in roster[1].details)  # privacy off: shown
    log_text = [e.text for e in rec.section("log").entries]
    assert log_text == [e.text for e in st.log]
    assert any("d10" in t or "9" in t for t in log_text[1:])  # the shot's dice are in the log


def test_battle_record_weeks_with_dice_as_numbers():
    g = battle_game(weeks=3)
    st = replay(g)
    rec = record(g)
    weeks = rec.section("log").entries
    assert [e.text for e in weeks] == [w.headline for w in st.weeks]
    for entry, week in zip(weeks, st.weeks):
        for s in (0, 1):
            dice = " ".join(str(d) for d in week.dice[s])
            assert any(d.startswith(f"{st.armies[s].name}: ") and f"rolled: {dice} →" in d for d in entry.details)
    armies = rec.section("table").entries
    assert [a.text for a in armies] == [a.name for a in st.armies]
    for s, army in enumerate(st.armies):
        units = [d for d in armies[s].details if not d.startswith("General:")]
        for u, unit in enumerate(army.units):
            if st.destroyed[s][u]:
                assert units[u].startswith(f"{unit.name} (destroyed): ")
            elif u == st.vanguards[s]:
                assert units[u].startswith(f"{unit.name} (vanguard")


def test_battle_record_of_a_week_entered_as_successes_only():
    """HR-AI-7: the table's own dice entered as successes only (no faces): the record says
    each side's successes, as it does for dice (it used to say the week could not be read)."""
    g = new_game("battle", ai.example_setup(), {"dice": "table"}, seed=SEED)
    g = apply(g, {"type": "bid", "side": 0, "maneuver": "attack", "stratagems": []})
    g = apply(g, {"type": "bid", "side": 1, "maneuver": "defend", "stratagems": []})
    g = apply(g, {"type": "reveal"})
    g = apply(g, {"type": "roll", "successes": [3, 1]})
    st = replay(g)
    assert st.weeks[0].dice is None and st.weeks[0].successes == (3, 1)
    rec = record(g)
    text = all_text(rec)
    assert "could not be read" not in text
    (week,) = rec.section("log").entries
    assert week.text == st.weeks[0].headline
    for s, successes in ((0, "3 successes"), (1, "1 success")):
        dice = plural(st.weeks[0].pools[s].dice, "die", "dice")
        line = next(d for d in week.details if d.startswith(f"{st.armies[s].name}: "))
        assert f"; {dice} rolled at the table, successes entered → {successes}; reads “" in line


def test_a_record_at_an_earlier_point_says_so_and_stops_there():
    g = battle_game(weeks=2)
    back = undo(undo(g))  # week 2's bids declared, not revealed: in the record as sealed bids
    rec = record(back)
    assert dict(rec.facts)["Point"] == "an earlier point of the game: 2 later steps are not in this record"
    steps = [e.text for e in rec.section("steps").entries]
    public = games.system("battle").public_game(back)
    assert rec.steps == 6 and steps == games.history(public)[:6]
    assert steps[:3] == games.history(g)[:3]
    assert steps[4:] == ["Week 2 · Jibril Corps declares in secret", "Week 2 · Zone Army declares in secret"]
    assert record(undo(g)).steps == 7
    assert "Point" not in dict(record(g).facts)


def test_a_record_of_the_spectator_copy_is_the_same_record():
    for game in every_game():
        public = games.system(game.kind).public_game(game)
        assert record(public, name="x") == record(game, name="x"), game.kind


def test_a_new_game_has_a_record_too():
    for kind, setup in (("conflict", oic.purple_dragon_setup()), ("campaign", {"players": ["A", "B"]}),
                        ("battle", ai.example_setup())):
        rec = record(new_game(kind, setup, seed=5))
        assert rec.steps == 0 and rec.section("steps").intro == "No step taken yet."
        assert rec.title == " vs ".join(dict(rec.facts)[("Players" if kind == "campaign" else "Sides")].split(", "))


# ---------------------------------------------------------------------------
# Hidden means absent


def _labels(cards) -> set[str]:
    return {c.label for c in cards}


def test_conflict_hands_discards_why_and_seed_never_reach_the_record():
    g = conflict_game(actions=60, app=True)
    whys = [a["why"] for a in g.actions if "why" in a]
    full = replay(g)
    shown = {p.card.label for r in full.results for p in r.plays} | {p.card.label for p in full.chain}
    in_hands = {c.label for side in full.hands for hand in side for c in hand} - shown
    discarded = {c.label for a in g.actions if a["type"] == "discard" for c in clean_cards(a["cards"])} - shown
    assert in_hands and discarded
    text = all_text(record(g, name="Game"))
    for token in sorted(in_hands | discarded):
        assert not re.search(rf"(?<![0-9AJQK]){re.escape(token)}", text), f"hidden card {token} is in the record"
    assert whys and not any(why in text for why in whys)
    assert str(g.seed) not in text and str(SEED)[:12] not in text


def test_campaign_hands_and_deck_never_reach_the_record():
    g = campaign_game(battles=3)
    full = replay(g)
    assert full.phase != "over"
    hidden = (_labels(full.hands[0]) | _labels(full.hands[1]) | _labels(full.deck)) - _labels(full.seen) - _labels(full.pool)
    assert len(hidden) > 20
    text = all_text(record(g))
    for token in sorted(hidden):
        assert not re.search(rf"(?<![0-9]){re.escape(token)}", text), f"hidden card {token} is in the record"
    assert str(g.seed) not in text


def test_a_finished_campaign_shows_the_table_but_not_the_deck():
    g = campaign_game(finish=True)
    full = replay(g)
    text = all_text(record(g))
    at_table = _labels(full.treaty.cards[0]) | _labels(full.treaty.cards[1])
    assert all(label in text for label in at_table)  # laid down at the table (CMP-7): public
    undealt = _labels(full.deck) - at_table - _labels(full.seen) - _labels(full.pool)
    assert undealt
    for token in sorted(undealt):
        assert not re.search(rf"(?<![0-9]){re.escape(token)}", text), f"undealt {token} is in the record"


def test_the_observers_hidden_combatants_never_reach_the_record():
    g = consim_game(privacy=True)
    full = replay(g)
    hidden_cards = {c.label for i, h in enumerate(full.hands) if cs.is_hidden(full, i) and h for c in h.dealt}
    shown_cards = {c.label for i, h in enumerate(full.hands) if not cs.is_hidden(full, i) and h for c in h.dealt}
    assert hidden_cards
    rec = record(g)
    text = all_text(rec)
    assert HIDDEN_NAME not in text and "Red Grunt" not in text
    for token in sorted(hidden_cards - shown_cards):
        assert not re.search(rf"(?<![0-9]){re.escape(token)}", text), f"hidden card {token} is in the record"
    assert "2 combatants of the Observer: hidden" in rec.section("table").entries[1].details
    assert str(g.seed) not in text


def test_a_secret_bid_never_reaches_the_record():
    g = battle_game(weeks=1, pending={"maneuver": "shock", "stratagems": []})
    assert replay(g).bids[0] is not None
    text = all_text(record(g))
    assert "Shock" not in text and "shock" not in text
    # the spectator copy says that a side declared (the table saw it), never what
    assert "Week 2: Jibril Corps has declared; waiting for Zone Army (AI-7)" in text
    assert str(g.seed) not in text


def test_every_record_leaves_the_seed_out():
    for game in every_game():
        text = all_text(record(game))
        assert str(game.seed) not in text and str(SEED)[:10] not in text, game.kind


# ---------------------------------------------------------------------------
# As a post


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def test_markdown_shows_names_as_they_were_typed():
    nasty = "*Bold* [x](http://e.test) <b>x</b> #1 | ~y~ `z` _u_"
    setup = oic.purple_dragon_setup()
    setup["sides"][0]["name"] = nasty
    g = new_game("conflict", setup, seed=2)
    md = to_markdown(record(g, name="1. Not a list"))
    assert "<b>" not in md and "[x](" not in md and "*Bold*" not in md and "`z`" not in md
    assert "# Organizations In Conflict: 1\\. Not a list\n" in md
    lines = [line for line in md.splitlines() if "Bold" in line]
    assert lines and all(nasty in _unescape(line) for line in lines)


def test_markdown_structure():
    rec = record(battle_game(weeks=1), name="Jibril vs Zone", dates=[("Started", "today")])
    md = to_markdown(rec)
    assert md.startswith("# Ascension Isle: Jibril vs Zone\n\n- **Table:** Ascension Isle\n")
    assert "\n## Battle log\n" in md and "\n## Every step\n" in md and "\n## House rules\n" in md
    assert "\n- **HR-AI-1** *house rule* A unit with neither armour nor size is destroyed by one casualty.\n" in md
    assert "\n   - Jibril Corps: Attack; " in md or "\n  - Jibril Corps: Attack; " in md
    assert md.endswith("*Recorded with Conflict Table.*\n") and "\n\n\n" not in md


def test_escaping_a_line_start():
    assert records._md("1. Army") == "1\\. Army"
    assert records._md("- Anna") == "\\- Anna"
    assert records._md("> quote") == "\\> quote"
    assert records._md("Round 1 · 9♠ — opens") == "Round 1 · 9♠ — opens"


# ---------------------------------------------------------------------------
# Robust to other systems and newer states


def test_a_system_without_table_parts_still_gets_its_steps_and_settings(monkeypatch):
    monkeypatch.setitem(games.SYSTEM_MODULES, "testdice", "tests.engine.fakesys")
    g = new_game("testdice", {"players": ["Ann", "Bo"]}, {"target": 10}, seed=3)
    g = apply(apply(g, {"type": "roll"}), {"type": "pass"})
    rec = record(g)
    assert [s.key for s in rec.sections] == ["standing", "steps", "rules", "house"]
    assert [e.text for e in rec.section("steps").entries] == games.history(games.system("testdice").public_game(g))
    assert [e.ref for e in rec.section("rules").entries] == ["D1", "D2"]
    assert rec.section("house").intro == "This table has no house rules."


def test_a_state_this_version_cannot_read_leaves_a_note_and_keeps_the_steps(monkeypatch):
    def newer(state, game):
        return (state.armies[0].name, state.no_such_attribute)

    monkeypatch.setattr(ai, "record_part", newer)  # the battle's hook (engine.system)
    g = battle_game(weeks=1)
    rec = record(g)
    assert [s.key for s in rec.sections] == ["standing", "steps", "rules", "house"]
    assert rec.section("standing").entries[-1].text == records._UNREADABLE
    assert rec.steps == 4


def test_a_standing_hook_comes_first(monkeypatch):
    monkeypatch.setattr(ai, "standing", lambda state: f"Week {state.week} · two armies", raising=False)
    rec = record(battle_game(weeks=1))
    public = ai.public_game(battle_game(weeks=1))  # the record is made from the spectator copy
    assert [e.text for e in rec.section("standing").entries] == ["Week 2 · two armies", ai.status(replay(public))]


def test_bad_arguments_are_refused_with_value_errors():
    g = battle_game(weeks=0)
    for call in (lambda: record("game"), lambda: record(g, name=3), lambda: record(g, dates=5),
                 lambda: record(g, dates=[("only one",)]), lambda: record(g, dates=[("a", 1)]),
                 lambda: to_markdown("x"), lambda: to_text(None)):
        with pytest.raises(RecordError):
            call()
    assert issubclass(RecordError, ValueError)
