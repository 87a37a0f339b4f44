"""The revealed bids and the roll: the exact odds (AI-8), what the bids mean (AI-12, AI-14,
AI-19), the app's roll or the table's own dice entered and checked (issue 18, HR-AI-7); their taps."""

from __future__ import annotations

from engine import ascension as ai
from web.dom import button, h
from web.parts.chances import percent, shares, spread
from web.parts.rulebits import rule_ref, with_rule_refs

from .draft import SIDE_CLASS


def landed_spread(landed) -> str:
    """The casualties that land, the four likeliest counts with their chances: "0: 40.0%, 1: 35.5%, …"."""
    return spread(landed)


def revealed_side(view, st, s: int):
    bid = st.bids[s]
    pool = ai.dice_pool(st, s, bid.maneuver, bid.stratagems, st.switched[s], rearguard=bid.rearguard)
    enemy = st.bids[1 - s]
    names = [a.name for a in st.armies]
    strats = [ai.STRATAGEM_BY_KEY[k].name for k in bid.stratagems if not (st.switched[s] and k == "counter_attack")]
    notes = []
    if "counter_attack" in bid.stratagems and not st.switched[s]:
        if "feint" in enemy.stratagems:
            notes.append(f"AI-16: {names[1 - s]}'s Feint cancels this Counter Attack (and the Counter Attack "
                         "cancels the Feint): it stays a Defend.")
        elif enemy.maneuver not in ("attack", "shock"):
            notes.append(f"AI-16: {names[1 - s]} did not attack, so Counter Attack cannot switch: it stays a "
                         "Defend.")
    if "feint" in bid.stratagems and "counter_attack" in enemy.stratagems:
        notes.append(f"AI-16: this Feint cancels {names[1 - s]}'s Counter Attack, and is cancelled by it.")
    if bid.maneuver == "withdraw" and bid.rearguard is not None:
        notes.append(f"AI-2: rearguard {st.armies[s].units[bid.rearguard].name}.")
    can_switch = not view.spectator and ai.can_counter_attack(st, s)
    why = st.whys[s]
    return h("div", {"class": ["revealed-bid", SIDE_CLASS[s]], "data-testid": f"revealed-{s}"},
             h("h3", {}, names[s]),
             h("p", {"class": "small app-why", "data-testid": f"why-{s}"}, "The app's general: ", why)
             if why else None,
             h("p", {"class": "bid-maneuver"}, "Attack" if st.switched[s] else ai.MANEUVER_NAMES[bid.maneuver],
               h("span", {"class": "muted"}, " with " + ", ".join(strats)) if strats else None),
             h("p", {"class": "small"}, "Switched from Defend by Counter Attack, without reinforcement dice (",
               rule_ref("AI-16", "battle"), ")") if st.switched[s] else None,
             h("p", {"class": "muted small", "data-testid": f"pool-now-{s}"}, pool.explain()),
             [h("p", {"class": "muted small"}, with_rule_refs(n, "battle")) for n in pool.notes + tuple(notes)],
             button("Counter Attack: switch to Attack", "battle:counter", str(s), cls="btn small")
             if can_switch else None)


def revealed_panel(view, st):
    odds = ai.week_odds(st)
    die, target = ai.success_setting(st.settings)
    table_dice = st.settings.get("dice") == ai.DICE_TABLE
    return h("section", {"class": "panel revealed", "data-testid": "revealed"},
             h("div", {"class": "revealed-body"},
               h("div", {"class": "revealed-grid"}, [revealed_side(view, st, s) for s in (0, 1)]),
               h("div", {"class": "revealed-odds"}, odds_table(view, st, odds), _outcomes(view, st))),
             _entry(view, st, die, target) if table_dice else
             h("div", {"class": "row sticky-controls"},
               h("p", {"class": "muted small"}, f"Each die is a d{die}; {target} or more is a success (",
                 rule_ref("AI-6", "battle"), ")."),
               button("Roll the dice", "battle:roll", cls="btn primary big", data_focus="roll")))


def entry_rolls(view, st):
    """The entered successes (or None while a side is incomplete)."""
    pools = [ai.dice_pool(st, s, st.bids[s].maneuver, st.bids[s].stratagems, st.switched[s],
                          rearguard=st.bids[s].rearguard) for s in (0, 1)]
    die, target = ai.success_setting(st.settings)
    hits = []
    for s in (0, 1):
        if view.entry["mode"] == "faces":
            faces = view.entry["faces"][s]
            hits.append(ai.count_successes(faces, die, target) if len(faces) == pools[s].dice else None)
        else:
            value = view.entry["hits"][s]
            hits.append(value if value is not None and value <= pools[s].dice else None)
    return pools, hits


def _entry(view, st, die: int, target: int):
    names = [a.name for a in st.armies]
    pools, hits = entry_rolls(view, st)
    mode = view.entry["mode"]
    sides = []
    for s in (0, 1):
        n = pools[s].dice
        head = h("p", {"class": "entry-head"}, h("strong", {}, names[s]),
                 f" rolls {n} × d{die}; {target} or more is a success (",
                 rule_ref("AI-6", "battle"), ")")
        if mode == "faces":
            faces = view.entry["faces"][s]
            chips = [button(str(v), "battle:unface", f"{s}.{i}",
                            cls=["die", v >= target and "hit", "entered"],
                            aria_label=f"Remove the {v}" + (" (a success)" if v >= target else ""))
                     for i, v in enumerate(faces)]
            body = [h("div", {"class": "dice entered-dice", "aria-label": f"Dice entered for {names[s]}"},
                      chips or h("span", {"class": "muted small"}, "no die entered yet")),
                    h("p", {"class": "small", "data-testid": f"entry-count-{s}"},
                      f"{len(faces)} of {n} dice entered",
                      f" · {ai.count_successes(faces, die, target)} success"
                      f"{'es' if ai.count_successes(faces, die, target) != 1 else ''}" if faces else "",
                      " — tap a die to take it back" if faces else ""),
                    h("div", {"class": "face-pad", "role": "group", "aria-label": f"Add a die for {names[s]}"},
                      [button(str(v), "battle:face", f"{s}.{v}", cls=["btn face", v >= target and "hit"],
                              disabled=len(faces) >= n, aria_label=f"Add a {v} for {names[s]}")
                       for v in range(1, die + 1)],
                      button("Clear", "battle:clear", str(s), cls="btn small ghost", disabled=not faces,
                             aria_label=f"Clear {names[s]}'s dice"))]
        else:
            chosen = view.entry["hits"][s]
            body = [h("div", {"class": "hit-pad", "role": "radiogroup",
                              "aria-label": f"Successes of {names[s]}"},
                      [button(str(k), "battle:hits", f"{s}.{k}", cls=["btn hit-count", chosen == k and "on"],
                              role="radio", aria_checked="true" if chosen == k else "false",
                              aria_label=f"{names[s]}: {k} success{'es' if k != 1 else ''}")
                       for k in range(n + 1)])]
        sides.append(h("div", {"class": ["entry-side", SIDE_CLASS[s]], "data-testid": f"entry-side-{s}"},
                       head, body))
    return h("section", {"class": "entry", "data-testid": "entry", "aria-label": "Your own dice"},
             h("div", {"class": "spread"},
               h("h3", {"tabindex": "-1", "data-focus": "entry"}, "Your own dice: enter what each side rolled"),
               h("div", {"class": "row", "role": "radiogroup", "aria-label": "Enter"},
                 button("Successes", "battle:entry-mode", "successes",
                        cls=["btn small", mode == "successes" and "on"], role="radio",
                        aria_checked="true" if mode == "successes" else "false"),
                 button("Faces", "battle:entry-mode", "faces", cls=["btn small", mode == "faces" and "on"],
                        role="radio", aria_checked="true" if mode == "faces" else "false"))),
             h("div", {"class": "entry-grid"}, sides),
             _entry_preview(view, st, hits))


def _entry_preview(view, st, hits):
    names = [a.name for a in st.armies]
    if None in hits:
        missing = [names[s] for s in (0, 1) if hits[s] is None]
        return h("div", {"class": "row sticky-controls"},
                 h("p", {"class": "muted small", "data-testid": "entry-preview"},
                   f"Waiting for the dice of {' and '.join(missing)}."),
                 button("Record the roll", "battle:record", cls="btn primary big", disabled=True))
    margin = abs(hits[0] - hits[1])
    winner = None if margin == 0 else (0 if hits[0] > hits[1] else 1)
    spans = ai.casualty_ranges(st, st.bids, (hits[0], hits[1]))
    general = st.armies[winner].general if winner is not None else None
    tier = ai.victory_tier(margin, bool(general and general.skilled))
    line = (f"{hits[0]}–{hits[1]}: drawn combat" if winner is None else
            f"{hits[0]}–{hits[1]}: {ai.TIER_NAMES[tier].lower()} for {names[winner]} (margin {margin})")
    ranges = []
    app_rolls = []
    for s in (0, 1):
        span = spans[s]
        if not span or span[0] == span[1]:
            continue
        chosen = view.entry["ranges"][s]
        if chosen is None:
            app_rolls.append(names[s])
        ranges.append(h("div", {"class": "range-entry", "data-testid": f"range-{s}", "role": "radiogroup",
                                "aria-label": f"{names[s]}'s casualty roll, {span[0]} to {span[1]}"},
                        h("span", {"class": "small"}, f"{names[s]} inflicts {span[0]}–{span[1]} (",
                          rule_ref("AI-12", "battle"), "): "),
                        [button(str(v), "battle:range", f"{s}.{v}", cls=["btn small", chosen == v and "on"],
                                role="radio", aria_checked="true" if chosen == v else "false",
                                aria_label=f"{names[s]} rolled {v}") for v in range(span[0], span[1] + 1)],
                        button("The app rolls it", "battle:range", f"{s}.app",
                               cls=["btn small ghost", chosen is None and "on"], role="radio",
                               aria_checked="true" if chosen is None else "false")))
    record = "Record the roll" + (f" (the app rolls the casualty range of {' and '.join(app_rolls)})"
                                  if app_rolls else "")
    return h("div", {"class": "entry-preview"},
             h("p", {"class": "pool-line", "data-testid": "entry-preview"}, line, " (",
               rule_ref("AI-8", "battle"), ")"),
             ranges,
             h("div", {"class": "row sticky-controls"},
               h("p", {"class": "muted small"}, "Check the entries: each is one tap to change until you record."),
               button(record, "battle:record", cls="btn primary big", data_focus="roll")))


def odds_table(view, st, odds):
    """AI-8: the exact chance of every tier for each side."""
    rows = []
    names = [a.name for a in st.armies]
    # One week's tiers and the draw add up to 1: rounded together (issue 34), in row order.
    shown = iter(shares([*odds["sides"][0].values(), odds["drawn"], *odds["sides"][1].values()], 1))
    for s in (0, 1):
        for tier, p in odds["sides"][s].items():
            rows.append(h("tr", {"class": SIDE_CLASS[s], "data-odds": f"{s}.{tier}"},
                          h("th", {"scope": "row"}, f"{names[s]}: {ai.TIER_NAMES[tier].lower()}"),
                          h("td", {"class": "pct"}, next(shown)),
                          h("td", {"class": "bar-cell", "aria-hidden": "true"},
                            h("meter", {"min": "0", "max": "1", "value": f"{float(p):.4f}"}))))
        if s == 0:
            rows.append(h("tr", {"data-odds": "drawn"}, h("th", {"scope": "row"}, "Drawn combat"),
                          h("td", {"class": "pct"}, next(shown)),
                          h("td", {"class": "bar-cell", "aria-hidden": "true"},
                            h("meter", {"min": "0", "max": "1", "value": f"{float(odds['drawn']):.4f}"}))))
    return h("table", {"class": "data-table odds", "data-testid": "odds"},
             h("caption", {}, "Exact odds before the roll (", rule_ref("AI-8", "battle"), ")"),
             h("tbody", {}, rows))


def _outcomes(view, st):
    """Issue 17: what the two revealed bids mean before the roll, exact for each army: whether
    it gets away (and how), its withdraw fails, it falls back (AI-19) or stays; the casualties
    that land on it (AI-12 ranges, AI-15 mitigation), a unit lost, the army destroyed (AI-14)."""
    if st.bids[0] is None or st.bids[1] is None:
        return None
    odds = ai.outcome_odds(st, st.bids, st.switched)
    names = [a.name for a in st.armies]
    sides = odds.sides
    rows = []
    for key in ai.MOVEMENTS:
        if any(side.movement[key] for side in sides):
            name = ai.MOVEMENT_NAMES[key]
            rows.append((name[:1].upper() + name[1:], [side.movement[key] for side in sides], key))
    body = [h("tr", {"data-outcome": key}, h("th", {"scope": "row"}, label),
              [h("td", {"class": ["pct", SIDE_CLASS[s]]}, percent(p)) for s, p in enumerate(values)])
            for label, values, key in rows]
    body.append(h("tr", {"data-outcome": "landed"}, h("th", {"scope": "row"}, "Casualties landing (mean)"),
                  [h("td", {"class": ["pct", SIDE_CLASS[s]]}, f"{float(side.mean_landed):.2f}",
                     h("span", {"class": "spread"}, landed_spread(side.landed)))
                   for s, side in enumerate(sides)]))
    body.append(h("tr", {"data-outcome": "loses-unit"}, h("th", {"scope": "row"}, "Loses a unit"),
                  [h("td", {"class": ["pct", SIDE_CLASS[s]]}, percent(side.loses_unit)) for s, side in enumerate(sides)]))
    body.append(h("tr", {"data-outcome": "destroyed"}, h("th", {"scope": "row"}, "Army destroyed"),
                  [h("td", {"class": ["pct", SIDE_CLASS[s]]}, percent(side.destroyed)) for s, side in enumerate(sides)]))
    return h("table", {"class": "data-table outcomes", "data-testid": "outcomes"},
             h("caption", {}, "What the bids mean this week (", rule_ref("AI-12", "battle"), ", ",
               rule_ref("AI-14", "battle"), ", ", rule_ref("AI-19", "battle"), ")"),
             h("thead", {}, h("tr", {}, h("td", {}),
                              [h("th", {"scope": "col", "class": SIDE_CLASS[s]}, names[s]) for s in (0, 1)])),
             h("tbody", {}, body))


def record_roll(view, st) -> None:
    """Issue 18: the table's own dice, entered, become the roll's recorded facts."""
    pools, hits = entry_rolls(view, st)
    if None in hits:
        return
    action = {"type": "roll"}
    if view.entry["mode"] == "faces":
        action["dice"] = [list(view.entry["faces"][0]), list(view.entry["faces"][1])]
    else:
        action["successes"] = list(hits)
    spans = ai.casualty_ranges(st, st.bids, (hits[0], hits[1]))
    ranges = [view.entry["ranges"][s] if spans[s] and spans[s][0] != spans[s][1] else None for s in (0, 1)]
    if ranges != [None, None]:
        action["ranges"] = ranges
    view.session.act(action)


def on_counter(view, arg, event) -> None:
    if arg is None:
        return
    view.session.act({"type": "counter_attack", "side": int(arg)})


def on_roll(view, arg, event) -> None:
    view.session.act({"type": "roll"})


def on_entry_mode(view, arg, event) -> None:
    if arg not in ("successes", "faces"):
        return
    view.entry_mode = arg
    view.entry["mode"] = arg


def on_hits(view, arg, event) -> None:
    if not arg:
        return
    s, k = (int(x) for x in arg.split("."))
    view.entry["hits"][s] = k
    view.entry["ranges"] = [None, None]  # the cells may change with the margin


def on_face(view, arg, event) -> None:
    st = view.session.state
    if not arg or st is None or st.phase != "revealed":
        return
    s, v = (int(x) for x in arg.split("."))
    pools, _ = entry_rolls(view, st)
    if len(view.entry["faces"][s]) < pools[s].dice:
        view.entry["faces"][s].append(v)
        view.entry["ranges"] = [None, None]


def on_unface(view, arg, event) -> None:
    if not arg:
        return
    s, i = (int(x) for x in arg.split("."))
    if i < len(view.entry["faces"][s]):
        del view.entry["faces"][s][i]
        view.entry["ranges"] = [None, None]


def on_clear(view, arg, event) -> None:
    if arg is None:
        return
    view.entry["faces"][int(arg)] = []
    view.entry["ranges"] = [None, None]


def on_range(view, arg, event) -> None:
    if not arg:
        return
    s, _, v = arg.partition(".")
    view.entry["ranges"][int(s)] = None if v == "app" else int(v)


def on_record(view, arg, event) -> None:
    st = view.session.state
    if st is None or st.phase != "revealed":
        return
    record_roll(view, st)


#: The taps of this screen: action name → what it does (BattleView.ACTIONS).
ACTIONS = {"counter": on_counter, "roll": on_roll, "entry-mode": on_entry_mode, "hits": on_hits, "face": on_face,
           "unface": on_unface, "clear": on_clear, "range": on_range, "record": on_record}
