"""The board: the status, the armies, the week's result, the campaign turn checklist (AI-18),
the log and the rules in play; units joining or corrected between weeks (issue 22); its taps."""

from __future__ import annotations

import copy

from engine import ascension as ai
from engine import game as games
from engine.ascension import TURN_PHASES
from web.dom import button, h
from web.parts.curtain import curtain
from web.parts.rulebits import rule_ref, seat_house_rules, with_rule_refs

from . import bids, matrix, roll
from .draft import SETTING_KEYS, SIDE_CLASS, STATS, TRAIT_LABELS, _int, blank_unit, repair_rules


def casualties(n: int) -> str:
    return f"{n} casualt{'y' if n == 1 else 'ies'}"


def render_board(view, st):
    return h("div", {"class": ["table battle-board", f"phase-{st.phase}", view.spectator and "spectating"],
                     "data-testid": "board", "data-phase": st.phase, "data-week": str(st.week)},
             h("p", {"class": "status", "role": "status", "data-testid": "status"},
               with_rule_refs(ai.status(st), "battle")),
             _spectator_area(view, st) if view.spectator else _action_area(view, st),
             _last_week(view, st),
             h("div", {"class": "board armies"}, _army_panel(view, st, 0), _army_panel(view, st, 1)),
             _checklist(view, st),
             # Issue 33 (draw only what changed): the log and the rules in play are built and
             # diffed again only when what they show changed (a new week, a unit, the settings).
             view.memo_log((tuple(a.name for a in st.armies), st.weeks, st.changes, st.old_rulings),
                           _log, view, st),
             view.memo_rules((st.rules, st.old_rulings), _rules_in_play, view, st))


def _spectator_area(view, st):
    """Issue 21: a spectator's copy offers no bid, reveal or roll; it says what is true."""
    names = [a.name for a in st.armies]
    if st.phase == "over":
        return h("section", {"class": "panel result over", "data-testid": "over"},
                 h("h2", {}, "The battle is over"),
                 h("p", {"data-testid": "outcome"}, with_rule_refs(st.outcome, "battle")))
    if st.phase == "revealed":
        return h("section", {"class": "panel revealed", "data-testid": "revealed"},
                 h("div", {"class": "revealed-body"},
                   h("div", {"class": "revealed-grid"}, [roll.revealed_side(view, st, s) for s in (0, 1)]),
                   roll.odds_table(view, st, ai.week_odds(st))),
                 h("p", {"class": "muted", "data-testid": "spectator-note"},
                   "The table rolls next; this copy shows the bids and the odds, not the roll."))
    declared = [s for s in (0, 1) if st.bids[s] is not None]
    if len(declared) == 2:
        text = "Their bids stay hidden until both are revealed at the table"
    elif declared:
        text = f"What {names[declared[0]]} declared stays hidden until both bids are revealed"
    else:
        text = "A bid is shown here only once both are revealed"
    return h("section", {"class": "panel spectating-note", "data-testid": "spectator-note"},
             h("p", {}, text, " (", rule_ref("AI-7", "battle"), "). This copy offers no move."))


def _army_panel(view, st, s: int):
    army = st.armies[s]
    changing = not view.spectator and ai.can_change_armies(st)
    form = view.unit_form if view.unit_form and view.unit_form["side"] == s else None
    items = []
    for i, unit in enumerate(army.units):
        dead = st.destroyed[s][i]
        tags = []
        if i == st.vanguards[s] and not dead:
            tags.append(h("span", {"class": "badge variant"}, "vanguard"))
            if not unit.is_line:
                tags.append(h("span", {"class": "badge house", "title": ai.HOUSE_RULES["HR-AI-3"]},
                              "not a line unit (HR-AI-3)"))
        if i == st.rearguards[s] and not dead:
            tags.append(h("span", {"class": "badge"}, "rearguard"))
        damage = f" · {st.damage[s][i]}/{unit.size} size damage" if unit.size and st.damage[s][i] else ""
        items.append(h("li", {"class": ["unit", dead and "destroyed"], "data-key": f"unit{s}.{i}",
                              "data-destroyed": "true" if dead else None},
                       h("div", {"class": "unit-line"},
                         h("span", {"class": "unit-name"}, unit.name), " ", tags,
                         button("Correct", "battle:unit-edit", f"{s}.{i}", cls="btn small ghost",
                                aria_label=f"Correct {unit.name}")
                         if changing and not dead and form is None else None),
                       h("span", {"class": "muted small unit-stats"},
                         f"{unit.attack}/{unit.defense}/{unit.mobility} · {unit.toughness()}{damage}",
                         " · destroyed" if dead else "")))
    general = army.general
    return h("section", {"class": ["panel side army", SIDE_CLASS[s]], "aria-label": army.name,
                         "data-testid": f"army-{s}"},
             h("h2", {"class": "side-title"}, army.name),
             h("p", {"class": "muted small"},
               f"{general.name} (general, level {general.level}" + (", skilled, AI-9)" if general.skilled else ")")
               if general else "No general",
               f" · {len(st.alive(s))} of {len(army.units)} units standing · attack/defense/mobility"),
             h("ul", {"class": "unit-status", "aria-label": f"Units of {army.name}"}, items),
             _unit_form(view, st, form) if form is not None else
             h("div", {"class": "row"},
               button("+ A unit joins", "battle:unit-new", str(s), cls="btn small",
                      aria_label=f"A unit joins {army.name}")) if changing else None)


def _unit_form(view, st, form: dict):
    """Issue 22: a unit that joins (reinforcements entering the hex) or a corrected entry,
    between weeks; recorded as an action in the history."""
    s, index, unit = form["side"], form["index"], form["unit"]
    army = st.armies[s]
    title = (f"A unit joins {army.name}" if index is None else f"Correct {army.units[index].name}")

    def number(key, label):
        value = unit.get(key, "")
        return h("label", {"class": "field num"}, label,
                 h("input", {"type": "number", "inputmode": "numeric", "min": "0", "max": "99", "step": "1",
                             "data-field": f"uform:{key}", "value": str(value)}))

    traits = unit.get("traits", [])
    return h("div", {"class": "unit-form", "data-testid": "unit-form", "role": "group", "aria-label": title},
             h("h3", {}, title),
             h("label", {"class": "field"}, "Name",
               h("input", {"type": "text", "data-field": "uform:name", "value": unit.get("name", ""),
                           "maxlength": "60", "autocomplete": "off", "data-focus": "unit-form"})),
             h("div", {"class": "row stats"}, [number(k, k.capitalize()) for k in STATS]),
             h("div", {"class": "row traits", "role": "group", "aria-label": "Traits"},
               [h("label", {"class": "check"},
                  h("input", {"type": "checkbox", "data-field": f"uform-trait:{key}",
                              "checked": key in traits or (key == "line" and "infantry" in traits),
                              "disabled": key == "line" and "infantry" in traits}), label)
                for key, label in TRAIT_LABELS.items()]),
             h("p", {"class": "msg-error", "role": "alert"}, with_rule_refs(form["error"], "battle"))
             if form.get("error") else None,
             h("p", {"class": "muted small"}, "Recorded in the history as a step of this week, before the bids; "
                                              "Undo takes it back."),
             h("div", {"class": "row"},
               button("Join the battle" if index is None else "Record the correction", "battle:unit-save",
                      cls="btn primary small"),
               button("Cancel", "battle:unit-cancel", cls="btn small ghost")))


def _leave_offers(view, st):
    """AI-15: the week after its opponent skirmished, an army may leave the battle before the
    bids: the board says why it may, and the button says what it does."""
    out = []
    for s in (0, 1):
        if ai.can_leave(st, s):
            army, enemy = st.armies[s].name, st.armies[1 - s].name
            out.append(h("div", {"class": "leave-offer", "data-testid": f"leave-{s}"},
                         h("p", {"class": "small"}, f"{enemy} skirmished last week, so {army} may leave the "
                                                    "battle now, before the bids (", rule_ref("AI-15", "battle"),
                           ")."),
                         button(f"Take {army} out of the battle", "battle:leave", str(s), cls="btn small")))
    return out


def _action_area(view, st):
    if st.phase == "over":
        return h("section", {"class": "panel result over", "role": "status", "data-testid": "over",
                             "tabindex": "-1", "data-focus": "over"},
                 h("h2", {}, "The battle is over"),
                 h("p", {"data-testid": "outcome"}, with_rule_refs(st.outcome, "battle")),
                 h("div", {"class": "row"},
                   button("New battle with these armies", "battle:rematch", cls="btn primary"),
                   button("Set up a new battle", "session:new", cls="btn")))
    if st.phase == "revealed":
        return roll.revealed_panel(view, st)
    side = bids.next_bidder(view, st)
    if side is None and any(b is None for b in st.bids):
        return h("div", {"class": "bid-stage"},
                 h("ul", {"class": "declared"},
                   [h("li", {}, f"{st.armies[s].name} has declared in secret ✓") for s in (0, 1)
                    if st.bids[s] is not None]),
                 h("p", {"class": "muted", "data-testid": "app-bidding"}, "The app's general is declaring…"))
    if side is None:
        return h("section", {"class": "panel reveal", "data-testid": "reveal-panel"},
                 h("p", {"class": "curtain-text"}, "Both armies have declared. Put the tablet where everyone "
                                                   "can see it."),
                 button("Reveal both bids", "battle:reveal", cls="btn primary big", data_focus="reveal"))
    levels = view._levels()
    declared = [h("li", {"data-testid": f"declared-{s}"}, f"{st.armies[s].name}"
                     + (f" (the app, {ai.LEVEL_LABELS[levels[s]]})" if levels[s] else "")
                     + " has declared in secret ✓") for s in (0, 1) if st.bids[s] is not None]
    waiting = bids.app_waiting(view, st)
    if waiting is not None:
        declared.append(h("li", {"class": "muted", "data-testid": "app-bidding"},
                          f"{st.armies[waiting].name} (the app, "
                          f"{ai.LEVEL_LABELS[levels[waiting]]}) is declaring…"))
    leave = _leave_offers(view, st)
    if view.shown != side:
        return h("div", {"class": "bid-stage"},
                 h("ul", {"class": "declared"}, declared) if declared else None,
                 curtain(st.armies[side].name, "to declare its maneuver in secret", "battle:show", str(side),
                         cls=SIDE_CLASS[side],
                         note="The app is the invigilator (AI-7): no one else sees the choice until both "
                              "are revealed together.",
                         label=f"I am {st.armies[side].name}: choose my maneuver"),
                 h("div", {"class": "panel leave-offers"}, leave) if leave else None)
    return bids.bid_form(view, st, side)


def _week_side(view, st, w, s: int, target: int):
    names = [a.name for a in st.armies]
    cell = w.cells[s]
    rng = w.ranges[s]
    if w.dice is not None:
        dice = [h("span", {"class": ["die", v >= target and "hit"],
                           "aria-label": f"{v}{' success' if v >= target else ''}"}, str(v)) for v in w.dice[s]]
        dice_box = h("div", {"class": "dice", "aria-label": f"Dice of {names[s]}"}, dice or
                     h("span", {"class": "muted"}, "no dice"))
    else:
        dice_box = h("p", {"class": "muted small"}, f"{w.pools[s].dice} dice rolled at the table; "
                                                    "the successes were entered")
    incoming = w.rolled[1 - s]
    if w.mitigated[s]:
        how = "Delay" if w.maneuvers[s] == "block" else "Defend"
        takes = (f"Takes {w.taken[s]} of {casualties(incoming)}: {how} cancels {w.mitigated[s]} (AI-15)")
    else:
        takes = f"Takes {casualties(w.taken[s])}"
    if rng and rng[0] != rng[1]:
        inflicts = f"Inflicts {rng[0]}–{rng[1]}: rolled {w.rolled[s]} (AI-12)"
    elif rng:
        inflicts = f"Inflicts {casualties(w.rolled[s])}"
    elif not w.applied[s]:
        inflicts = "Inflicts nothing: only the winner's row is applied (AI-10 variant)"
    else:
        inflicts = "Inflicts nothing"
    return h("div", {"class": ["week-side", SIDE_CLASS[s]], "data-testid": f"week-side-{s}"},
             h("h3", {}, names[s], " — ", ai.MANEUVER_NAMES[w.maneuvers[s]]),
             dice_box,
             h("p", {"class": "successes", "data-testid": f"successes-{s}"},
               f"{w.successes[s]} success{'es' if w.successes[s] != 1 else ''}"),
             h("p", {"class": ["cell-read", not w.applied[s] and "not-applied"], "data-testid": f"cell-{s}"},
               "Reads: “", cell.text, "”",
               h("span", {"class": "muted"}, f" (as {ai.MANEUVER_NAMES[w.read_as[s]]})")
               if w.read_as[s] != w.maneuvers[s] else None,
               h("span", {"class": "muted"}, " — not applied") if not w.applied[s] else None),
             h("p", {"class": "muted small"}, with_rule_refs(cell.note, "battle")) if cell.note else None,
             h("p", {"class": "small", "data-testid": f"inflicts-{s}"}, with_rule_refs(inflicts, "battle")),
             h("p", {"class": "small", "data-testid": f"takes-{s}"}, with_rule_refs(takes, "battle"),
               "; destroyed: " + ", ".join(w.lost[s]) if w.lost[s] else ""),
             h("p", {"class": "muted small app-why", "data-testid": f"week-why-{s}"}, "The app's general: ",
               w.whys[s]) if w.whys[s] else None)


def _last_week(view, st):
    if not st.weeks:
        return None
    w = st.weeks[-1]
    die, target = ai.success_setting(st.settings)
    highlight = ((0, w.read_as[0], w.maneuvers[1]), (1, w.read_as[1], w.maneuvers[0]))
    return h("section", {"class": "panel week-result", "data-testid": "week-result", "data-tier": w.tier,
                         "data-margin": str(w.margin), "data-winner": "" if w.winner is None else str(w.winner)},
             h("h2", {"data-testid": "headline", "tabindex": "-1", "data-focus": "result"}, w.headline),
             h("p", {"class": "tier-line"}, h("strong", {}, ai.TIER_NAMES[w.tier]), f" — margin {w.margin} (",
               rule_ref("AI-8", "battle"), ")"),
             h("div", {"class": "revealed-grid"}, [_week_side(view, st, w, s, target) for s in (0, 1)]),
             [h("p", {"class": "muted small note"}, with_rule_refs(n, "battle")) for n in w.notes
              if not n.startswith("AI-11") and not n.startswith("AI-15:")],  # said beside each side
             h("p", {"class": "note small", "data-testid": "ended"}, with_rule_refs(w.ended, "battle"))
             if w.ended else None,
             h("p", {"class": "muted small"}, with_rule_refs("Casualties land on the line unit first (HR-AI-2); a "
                                                             "unit without armour or size falls to one (HR-AI-1).",
                                                             "battle")) if any(w.taken) else None,
             matrix.matrix(view, st.settings, w.tier, highlight=highlight))


def _checklist(view, st):
    done = set(st.phases_done)
    if view.spectator:
        items = [h("li", {"data-key": f"ph{i}", "class": ["phase-done" if i in done else "phase-open"]},
                   h("span", {"class": "tick", "aria-hidden": "true"}, "✓" if i in done else "·"), " ", label,
                   h("span", {"class": "visually-hidden"}, " (done)" if i in done else " (not done)"))
                 for i, label in enumerate(TURN_PHASES)]
    else:
        items = [h("li", {"data-key": f"ph{i}"},
                   button([h("span", {"class": "tick", "aria-hidden": "true"}, "✓" if i in done else ""), label],
                          "battle:phase", str(i), cls=["btn phase", i in done and "done"],
                          aria_pressed="true" if i in done else "false"))
                 for i, label in enumerate(TURN_PHASES)]
    return h("section", {"class": "panel checklist", "aria-label": "Campaign turn"},
             h("h2", {}, "Campaign turn (", rule_ref("AI-18", "battle"), ")"),
             h("ol", {"class": "phase-list"}, items))


def _log(view, st):
    if not st.weeks and not st.changes:
        return None
    names = [a.name for a in st.armies]
    entries = []
    for w in st.weeks:
        bids = "; ".join(f"{names[s]} {ai.MANEUVER_NAMES[w.maneuvers[s]]}"
                         + (f" ({', '.join(ai.STRATAGEM_BY_KEY[k].name for k in w.stratagems[s])})"
                            if w.stratagems[s] else "") for s in (0, 1))
        lost = "; ".join(f"{names[s]} lost {', '.join(w.lost[s])}" for s in (0, 1) if w.lost[s])
        kept = [n for n in w.notes if n.startswith(("AI-19", "HR-AI-3", "AI-10"))]
        entries.append((w.week, 1, h("li", {"data-key": f"w{w.week}"},
                                     h("strong", {}, w.headline), h("br", {}), bids,
                                     f" · dice {w.pools[0].dice} v {w.pools[1].dice}; casualties taken "
                                     f"{w.taken[0]} / {w.taken[1]}",
                                     h("br", {}) if lost else None, lost,
                                     [[h("br", {}), with_rule_refs(n, "battle")] for n in kept],
                                     h("br", {}) if w.ended else None,
                                     with_rule_refs(w.ended, "battle") if w.ended else None)))
    for i, (week, text) in enumerate(st.changes):
        entries.append((week, 0, h("li", {"data-key": f"c{i}", "class": "log-change"},
                                   h("strong", {}, f"Week {week}, before the bids: "),
                                   with_rule_refs(text, "battle"))))
    entries.sort(key=lambda e: (e[0], e[1]))
    return h("section", {"class": "panel log", "aria-label": "Battle log", "data-testid": "log"},
             h("h2", {}, "Battle log"),
             h("p", {"class": "muted small"}, with_rule_refs(ai.OLD_RULINGS_NOTE, "battle"))
             if st.old_rulings else None,
             h("ol", {"class": "log-list", "reversed": True}, [e[2] for e in reversed(entries)]))


def _rules_in_play(view, st):
    settings = st.settings
    house = settings.get("house_tables") or {}
    edited = sum(len(cols) for rows in house.values() for cols in rows.values())
    return h("details", {"class": "panel rules-in-play", "data-testid": "rules-in-play"},
             h("summary", {}, "Rules in play"),
             h("ul", {},
               h("li", {"class": "old-rulings"}, h("span", {"class": "badge note"}, "Earlier version"), " ",
                 with_rule_refs(ai.OLD_RULINGS_NOTE, "battle")) if st.old_rulings else None,
               [h("li", {"data-setting": key}, rule_ref(ai.VARIANT_BY_KEY[key].rule_id, "battle"), " ",
                  h("span", {"class": ["badge", "house" if key == "dice" else "variant"]},
                    "House rule" if key == "dice" else "Variant"), " ",
                  ai.VARIANT_BY_KEY[key].label, ": ", ai.VARIANT_BY_KEY[key].describe(settings[key]))
                for key in SETTING_KEYS],
               h("li", {}, rule_ref("AI-11", "battle"), " ",
                 f"{edited} house table cell{'s' if edited != 1 else ''}" if edited else
                 "No house tables: Major, Crushing and Legendary read the Minor victory table."),
               [h("li", {}, rule_ref(rid, "battle"), " ", h("span", {"class": "badge house"}, "House rule"), " ",
                  text) for rid, text in ai.HOUSE_RULES.items() if rid != "HR-AI-7"],
               seat_house_rules(),
               h("li", {}, h("span", {"class": "badge ruling"}, "Rulings"), " ",
                 [[rule_ref(rid, "battle"), " "] for rid in ai.RULINGS]),
               h("li", {}, button("Print the result matrices", "battle:print", cls="btn small"))))


def unit_form_field(view, name: str, value: str) -> bool:
    form = view.unit_form
    if form is None:
        return False
    unit = form["unit"]
    if name.startswith("uform-trait:"):
        trait = name.split(":", 1)[1]
        traits = [t for t in unit.get("traits", []) if t != trait]
        if value:
            traits.append(trait)
        unit["traits"] = [t for t in ai.TRAITS if t in traits]
        return True
    key = name.split(":", 1)[1]
    if key == "name":
        unit["name"] = value
        return False  # the text field keeps what is typed; the save reads it
    if key in STATS:
        unit[key] = _int(value)
    form["error"] = None
    return True


def on_leave(view, arg, event) -> None:
    if arg is None:
        return
    view.session.act({"type": "leave", "side": int(arg)})


def on_phase(view, arg, event) -> None:
    if arg is None:
        return
    view.session.act({"type": "phase", "index": int(arg)})


def on_unit_new(view, arg, event) -> None:
    st = view.session.state
    if arg is None or st is None:
        return
    s = int(arg)
    view.unit_form = {"side": s, "index": None, "error": None,
                      "unit": blank_unit(len(st.armies[s].units) + 1)}
    view.app.focus_to("unit-form")


def on_unit_edit(view, arg, event) -> None:
    st = view.session.state
    if not arg or st is None:
        return
    s, i = (int(x) for x in arg.split("."))
    view.unit_form = {"side": s, "index": i, "error": None, "unit": st.armies[s].units[i].as_json()}
    view.app.focus_to("unit-form")


def on_unit_cancel(view, arg, event) -> None:
    view.unit_form = None


def on_unit_save(view, arg, event) -> None:
    if view.unit_form is None:
        return
    form = view.unit_form
    action_ = ({"type": "join", "side": form["side"], "unit": form["unit"]} if form["index"] is None else
               {"type": "correct", "side": form["side"], "index": form["index"], "unit": form["unit"]})
    refusal = view.session.try_act(action_)
    if refusal:
        form["error"] = refusal


def on_rematch(view, arg, event) -> None:
    if view.session.game is None:
        return
    setup = copy.deepcopy(games.thaw(view.session.game.setup))
    for flag in ("spectator", "old_rulings"):
        setup.pop(flag, None)  # a new battle is neither a copy nor an old game
    view.draft = setup
    view.rules = repair_rules(games.thaw(view.session.game.rules), [])
    view._save_draft()
    view.session.close()


def on_print(view, arg, event) -> None:
    from js import document, window  # type: ignore[import-not-found]

    panel = document.getElementById("rules-battle")
    if panel is not None:
        panel.open = True
    window.print()


#: The taps of this screen: action name → what it does (BattleView.ACTIONS).
ACTIONS = {"leave": on_leave, "phase": on_phase, "unit-new": on_unit_new, "unit-edit": on_unit_edit,
           "unit-cancel": on_unit_cancel, "unit-save": on_unit_save, "rematch": on_rematch, "print": on_print}
