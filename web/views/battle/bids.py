"""The blind bids (AI-7): the secret bid form behind the curtain, the staff officer's odds
(HR-AI-13) and the app's general (issue 17); their taps."""

from __future__ import annotations

from engine import ascension as ai
from engine.ascension.advice import advice_known
from web.dom import button, h
from web.parts.chances import shares, whole_percent
from web.parts.rulebits import rule_ref, with_rule_refs

from .draft import SIDE_CLASS


def next_bidder(view, st):
    """The next army people play that has not declared (the app's general bids by itself)."""
    levels = view._levels()
    for s in (0, 1):
        if st.bids[s] is None and levels[s] is None:
            return s
    return None


def app_waiting(view, st):
    """The app's army still to bid (its bid comes in a moment), or None."""
    levels = view._levels()
    for s in (0, 1):
        if st.phase == "bid" and st.bids[s] is None and levels[s] is not None:
            return s
    return None


def app_bid_now(view) -> bool:
    """Issue 17: every army the app plays that is to bid declares now, from public
    information only (engine.ascension.app_bid), as an ordinary recorded bid."""
    moved = False
    for _ in (0, 1):
        game = view.session.game
        if game is None or view.spectator:
            return moved
        turn = ai.app_turn(game)
        if turn is None:
            return moved
        side, level = turn
        try:
            action = ai.app_bid(view.session.state, side, level, game.seed)
        except ValueError as err:
            view.app.toast(f"The app's general could not bid: {err}", "error")
            return moved
        if view.session.try_act(action):
            return moved
        moved = True
    return moved


def bid_form(view, st, s: int):
    chosen = view.pick.get("maneuver")
    enemy = st.armies[1 - s].name
    options = []
    for m in ai.MANEUVERS:
        pool = ai.dice_pool(st, s, m)
        strong, weak = ai.MATCHUPS[m]
        options.append(button(
            [h("span", {"class": "m-name"}, ai.MANEUVER_NAMES[m]),
             h("span", {"class": "m-dice"}, f"{pool.dice} dice"),
             h("span", {"class": "m-hint"}, "strong vs " + ", ".join(ai.MANEUVER_NAMES[x] for x in strong))],
            "battle:pick", m, cls=["btn maneuver", chosen == m and "on"], role="radio",
            aria_label=f"{ai.MANEUVER_NAMES[m]}, {pool.dice} dice",
            aria_checked="true" if chosen == m else "false", data_focus="bid" if m == ai.MANEUVERS[0] else None))
    strat_rows = None
    if chosen:
        offered = ai.offered_stratagems(st, s, chosen)
        picked = view.pick.get("stratagems", [])
        rear = view.pick.get("rearguard")
        rear = st.rearguards[s] if rear is None or st.destroyed[s][rear] else rear
        rear_field = None
        if chosen == "withdraw":
            rear_field = h("label", {"class": "field rear-field"},
                           "Rearguard for this Withdraw (", rule_ref("AI-2", "battle"), ")",
                           h("select", {"data-field": "bid:rearguard", "value": str(rear)},
                             [h("option", {"value": str(i), "selected": i == rear},
                                st.armies[s].units[i].name) for i in st.alive(s)]))
        strat_rows = h("div", {"class": "stratagems", "role": "group", "aria-label": "Stratagems"},
                       h("p", {"class": "muted small"}, "Stratagems your army qualifies for (",
                         rule_ref("AI-16", "battle"), ")" + (":" if offered else ": none for this maneuver.")),
                       [button([h("strong", {}, strat.name), " — ", strat.says,
                                " (AI-17)" if strat.effect is None or strat.partly else ""],
                               "battle:strat", strat.key, cls=["btn strat", strat.key in picked and "on"],
                               aria_pressed="true" if strat.key in picked else "false")
                        for strat in offered])
        rearguard = rear if chosen == "withdraw" else None
        pool = ai.dice_pool(st, s, chosen, picked, rearguard=rearguard)
        strat_rows = [rear_field, strat_rows,
                      h("p", {"class": "pool-line", "data-testid": "bid-pool"},
                        f"{ai.MANEUVER_NAMES[chosen]}: {pool.explain()}")]
    return h("section", {"class": ["panel bid", SIDE_CLASS[s]], "data-testid": "bid-form",
                         "aria-label": f"{st.armies[s].name} declares"},
             h("h2", {}, f"{st.armies[s].name}: your maneuver for week {st.week}"),
             h("p", {"class": "muted small"}, f"{enemy}'s bid stays hidden until both are revealed (",
               rule_ref("AI-7", "battle"), ")."),
             h("p", {"class": "msg-error", "role": "alert"}, with_rule_refs(view.notice, "battle"))
             if view.notice else None,
             h("div", {"class": "maneuvers", "role": "radiogroup", "aria-label": "Maneuver"}, options),
             strat_rows,
             _advisor(view, st, s),
             h("div", {"class": "row sticky-controls"},
               button("Declare in secret", "battle:declare", str(s), cls="btn primary big", disabled=not chosen),
               button("Hide", "battle:hide", cls="btn ghost")))


def _advisor(view, st, s: int):
    """Issue 17 (HR-AI-13): the staff officer behind the curtain — for each of this side's
    maneuvers against each the enemy may declare, the exact odds, and the equilibrium mix
    for the chosen aim. Computed from the public battle only (never the enemy's bid)."""
    if not view.advise:
        return h("div", {"class": "advisor closed", "data-testid": "advisor"},
                 button("Show the staff officer's odds", "battle:advise", "on", cls="btn small ghost"))
    if not advice_known(st, s, view.aim):
        return _advisor_working(view, st, s)
    found = ai.advice(st, s, view.aim)
    chosen = view.pick.get("maneuver")
    heads = [h("th", {"scope": "col", "class": "adv-col"}, ai.MANEUVER_NAMES[b.maneuver].replace(" Attack", ""))
             for b in found.enemy]
    rows = []
    for i, mine in enumerate(found.own):
        cells = []
        for j, cell in enumerate(found.grid[i]):
            lines = []
            if mine.maneuver == "withdraw":
                lines.append(h("span", {"class": "adv-away"}, f"away {whole_percent(cell.gets_away)}"))
            lines.append(h("span", {"class": "adv-cas"}, f"{float(cell.inflicted):.1f} / {float(cell.taken):.1f}"))
            if cell.falls_back:
                lines.append(h("span", {"class": "adv-back"}, f"back {whole_percent(cell.falls_back)}"))
            tone = "good" if cell.payoff > found.value else "bad" if cell.payoff < found.value else "even"
            cells.append(h("td", {"class": ["adv-cell", tone], "data-cell": f"{mine.maneuver}.{j}"}, lines))
        share = found.mix[i]
        rows.append(h("tr", {"class": [chosen == mine.maneuver and "on"], "data-row": mine.maneuver},
                      h("th", {"scope": "row", "class": "adv-row"},
                        h("span", {"class": "adv-name"}, ai.advised_name(mine)),
                        h("span", {"class": "adv-mix"}, f" {shares(found.mix)[i]}") if share else None),
                      cells))
    aims = h("div", {"class": "row adv-aims", "role": "radiogroup", "aria-label": "Aim"},
             h("span", {"class": "small muted"}, "Aim:"),
             [button(ai.AIM_NAMES[a], "battle:aim", a, cls=["btn small", view.aim == a and "on"], role="radio",
                     aria_checked="true" if view.aim == a else "false") for a in ai.AIMS])
    return h("section", {"class": "advisor", "data-testid": "advisor", "aria-label": "Staff officer's odds"},
             h("div", {"class": "spread"},
               h("h3", {}, "If they declare … (", rule_ref("HR-AI-13", "battle"), ")"),
               aims),
             h("p", {"class": "adv-advice", "data-testid": "advice"},
               h("strong", {}, found.recommendation()), " — ", found.outlook()),
             h("div", {"class": "adv-scroll"},
               h("table", {"class": "data-table adv-grid"},
                 h("thead", {}, h("tr", {}, h("th", {"scope": "col"}, "You ↓ · They →"), heads)),
                 h("tbody", {}, rows))),
             h("p", {"class": "muted small adv-legend"},
               "Each square: casualties you inflict / you take (expected), your chance of getting away "
               "(Withdraw) and of falling back (", rule_ref("AI-19", "battle"), "); green: better for you than the "
               "advice at worst, red: worse. From both armies only: their bid is not known here.",
               " ", button("Hide the odds", "battle:advise", "off", cls="btn small ghost")))


def on_show(view, arg, event) -> None:
    st = view.session.state
    if arg is None or st is None:
        return
    if not view.guard.may_open(event):
        return  # the second tap of a double tap on the previous screen
    view.shown = int(arg)
    view.pick = {"maneuver": None, "stratagems": [], "rearguard": None}
    view.notice = None
    view.app.focus_to("bid")


def on_aim(view, arg, event) -> None:
    if arg not in ai.AIMS:
        return
    view.aim = arg


def _advisor_working(view, st, s: int):
    """Issue 33: the staff officer's frame, drawn at once; the grid is worked out after the
    browser painted it (ToolView.work_after_paint), then drawn. A tap meanwhile counts: Hide
    (or another change of the screen) leaves it unasked, another aim asks for that one."""
    game, aim = view.session.game, view.aim

    def still() -> bool:
        return (view.session.game is game and view.shown == s and view.advise and view.aim == aim)

    view.work_after_paint(("advice", id(game), game.position if game is not None else 0, s, aim),
                          lambda: ai.advice(st, s, aim), still)
    return h("section", {"class": "advisor working", "data-testid": "advisor", "aria-label": "Staff officer's odds",
                         "aria-busy": "true"},
             h("h3", {}, "If they declare … (", rule_ref("HR-AI-13", "battle"), ")"),
             h("p", {"class": "muted", "role": "status", "data-testid": "advisor-working"},
               "The staff officer is working out the odds…"),
             h("div", {"class": "row"},
               button("Hide the staff officer's odds", "battle:advise", "off", cls="btn small ghost")))


def on_advise(view, arg, event) -> None:
    if arg not in ("on", "off"):
        return
    view.advise = arg == "on"


def on_pick(view, arg, event) -> None:
    if arg not in ai.MANEUVERS:
        return
    view.pick = {"maneuver": arg, "stratagems": [], "rearguard": view.pick.get("rearguard")}


def on_strat(view, arg, event) -> None:
    if not arg:
        return
    picked = view.pick.setdefault("stratagems", [])
    if arg in picked:
        picked.remove(arg)
    else:
        picked.append(arg)


def on_declare(view, arg, event) -> None:
    st = view.session.state
    if st is None or view.shown is None or not view.pick.get("maneuver"):
        return
    app_bid_now(view)  # issue 17: the app decides before the person's bid lands
    bid = {"type": "bid", "side": view.shown, "maneuver": view.pick["maneuver"],
           "stratagems": list(view.pick.get("stratagems", []))}
    if bid["maneuver"] == "withdraw" and view.pick.get("rearguard") is not None:
        bid["rearguard"] = view.pick["rearguard"]
    refusal = view.session.try_act(bid)
    if refusal:
        view.notice = refusal


def on_reveal(view, arg, event) -> None:
    view.session.act({"type": "reveal"})


#: The taps of this screen: action name → what it does (BattleView.ACTIONS).
ACTIONS = {"show": on_show, "hide": lambda view, arg, event: view._reset_view(), "aim": on_aim,
           "advise": on_advise, "pick": on_pick, "strat": on_strat, "declare": on_declare, "reveal": on_reveal}
