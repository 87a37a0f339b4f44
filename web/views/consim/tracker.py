"""The Observer's tracker: the round setup (advantages, surprise; CS-3, CS-4), the turn order
and the current card (CS-2 … CS-7), the end of the round (CS-12, CS-13); its taps."""

from __future__ import annotations

from engine import consim as cs
from engine.text import plural
from web.dom import button, h
from web.parts.cards import card_view
from web.parts.rulebits import rule_ref, with_rule_refs
from web.parts.tool import whole

from . import entry, shots
from .draft import MAX_SIDES, NEXT_FOCUS, ROUTE, SIDE_CLASS, TICKS_KEY, ticks_for
from .marks import card_tag, loss_chip, pips


def render_tracker(view, st):
    if st.phase == "ready":
        main = _round_setup(view, st)
    else:
        main = _round_view(view, st)
    return h("div", {"class": "ini-tracker", "data-testid": "tracker", "data-phase": st.phase,
                     "data-round": st.round},
             h("div", {"class": "ini-head"},
               h("p", {"class": "status", "role": "status", "data-testid": "status"},
                 with_rule_refs(f"Enter the cards dealt at the table for round {st.round + 1} (CS-6)."
                                if view.entry is not None and st.phase == "ready" else cs.status(st), ROUTE)),
               button("Players' view", "init:players", cls="btn small", data_testid="players-view-button")),
             h("p", {"class": "msg-error refusal", "role": "alert", "data-testid": "refusal"},
               with_rule_refs(view.notice, ROUTE)) if view.notice else None,
             main,
             view._log(st),
             view._rules_in_play(st))


def _store_ticks(view, st, adv: dict[int, list[str]], surprised: set[int], per: bool) -> None:
    view.ticks = {"slot": view.session.slot, "round": st.round + 1,
                  "advantages": {str(i): v for i, v in sorted(adv.items()) if v},
                  "surprised": sorted(surprised), "per": per}
    view.keep_json(TICKS_KEY, view.ticks, full="Storage is full: the ticks are not kept through a reload.")


def status_chips(view, st, i: int, adv: dict[int, list[str]] | None = None, surprised: set[int] | None = None):
    """Status chips, suppression pips, countdown badges and what the next deal strikes."""
    s = st.statuses[i]
    chips = []
    if s.condition is not cs.Condition.OK:
        chips.append(h("span", {"class": ["chip", f"cond-{s.condition.value}"], "data-testid": f"cond-{i}"},
                       s.condition.label))
    if s.countdown is not None and s.condition is cs.Condition.INJURED:
        chips.append(h("span", {"class": "chip count ok" if s.treated else "chip count"},
                       "treated: will not start DYING" if s.treated else
                       f"DYING in {plural(s.countdown, 'round')} unless treated"))
    if s.countdown is not None and s.condition is cs.Condition.DYING:
        chips.append(h("span", {"class": "chip count ok" if s.first_aid else "chip count urgent"},
                       "first aid given" if s.first_aid else f"DEAD in {plural(s.countdown, 'round')}"))
    if s.suppression:
        chips.append(pips(s.suppression))
    if s.condition is not cs.Condition.DEAD and adv is not None:
        side = st.combatants[i].side
        chips.append(loss_chip(cs.forecast(st, i, len(adv.get(i, [])), side in (surprised or set()))))
    return chips


def _now_panel(view, st):
    cur = cs.current_turn(st)
    if cur is None:
        return h("section", {"class": "panel ini-now", "data-testid": "now"},
                 h("h2", {}, f"Round {st.round}: everyone has acted"),
                 h("p", {"class": "muted"}, "Ending the round sheds the suppression of anyone not fired on (",
                   rule_ref("CS-12", ROUTE), ") and counts down wounds (", rule_ref("CS-13", ROUTE), ")."),
                 shots.countdown_entry(view, st),
                 h("div", {"class": "row"},
                   button(f"End round {st.round}", "init:end-round", cls="btn primary big", data_focus="end")))
    turn = st.turns[cur]
    i = turn.combatant
    c = st.combatants[i]
    mine = [t for t in st.turns if t.combatant == i and not t.done]
    long = None
    if view.long_pick is not None:
        long = h("div", {"class": "ini-long", "role": "group", "aria-label": "Cards for a long action"},
                 h("p", {"class": "muted small"}, f"A long action spends this turn's {turn.card.label} and more "
                   "of these cards; it happens at the lowest one spent (", rule_ref("CS-5", ROUTE), ")."),
                 h("div", {"class": "row"},
                   [button(t.card.label, "init:long-pick", t.card.token,
                           cls=["btn small", (t.card.token in view.long_pick or t is turn) and "on"],
                           aria_pressed="true" if t.card.token in view.long_pick or t is turn else "false",
                           aria_label=f"Spend the {t.card.name}" + (" (this turn's card)" if t is turn else ""),
                           disabled=t is turn, data_focus="long-card" if n == 1 else None)
                    for n, t in enumerate(mine)],
                   button("Spend these cards", "init:long-ok", cls="btn small primary",
                          disabled=not cs.can_long(st, i, sorted(view.long_pick | {turn.card.token}))),
                   button("Cancel", "init:long-cancel", cls="btn small ghost")))
    return h("section", {"class": ["panel ini-now", SIDE_CLASS[c.side % MAX_SIDES]], "data-testid": "now",
                         "aria-label": "Acting now"},
             h("div", {"class": "ini-now-head"},
               card_view(turn.card, "big", label=f"Acting on the {turn.card.name}"),
               h("div", {"class": "ini-now-who"},
                 h("p", {"class": "muted small"}, f"Acting now · {st.sides[c.side]}"),
                 h("h2", {"data-testid": "current-actor"}, c.name),
                 h("p", {"class": "small"}, "Long action: also spends ",
                   ", ".join(x.label for x in turn.spent), " (", rule_ref("CS-5", ROUTE), ")")
                 if turn.spent else None,
                 h("div", {"class": "chips"}, status_chips(view, st, i)),
                 button("Long action…", "init:long-open", cls="btn small",
                        disabled=not cs.can_long(st, i, [t.card.token for t in mine]), data_focus="long-open"))),
             h("div", {"class": "row ini-main-actions"},
               button("Next ▸", "init:next", cls="btn primary big", aria_keyshortcuts="N", data_focus="next"),
               button("Shoot…", "init:shoot-open", cls=["btn big", view.shot is not None and "on"],
                      aria_expanded="true" if view.shot is not None else "false", data_focus="shoot-open")),
             h("p", {"class": "muted small ini-turn-note"}, "One action on this card: a shot, or pass with Next (",
               rule_ref("CS-5", ROUTE), ")."),
             long)


def own_cards(view, st) -> set[str]:
    """The tokens of the current actor's cards still to play (what a long action may spend, CS-5)."""
    cur = cs.current_turn(st)
    if cur is None:
        return set()
    who = st.turns[cur].combatant
    return {t.card.token for t in st.turns if t.combatant == who and not t.done}


def _order(view, st):
    cur = cs.current_turn(st)
    done, left = cs.turn_counts(st)
    items = []
    for n, t in enumerate(st.turns):
        if t.done:
            continue
        c = st.combatants[t.combatant]
        out = not cs.can_act(st, t.combatant)
        items.append(h("li", {"class": ["ini-entry", SIDE_CLASS[c.side % MAX_SIDES], n == cur and "current",
                                        out and "out"],
                              "data-key": f"t{t.card.token}", "aria-current": "true" if n == cur else None,
                              "data-testid": "order-entry"},
                       card_tag(t.card),
                       h("span", {"class": "ini-entry-name"}, c.name),
                       h("span", {"class": "muted small"}, "+ " + ", ".join(x.label for x in t.spent))
                       if t.spent else None,
                       h("span", {"class": "badge"}, f"skipped: {st.statuses[t.combatant].condition.label}")
                       if out else None))
    end_early = None
    if cur is not None and not view.confirm_end:
        end_early = button(f"End round {st.round} now…", "init:end-early", cls="btn small ghost",
                           data_testid="end-early", data_focus="end-early")
    body = h("ol", {"class": "ini-order-list", "data-testid": "order", "tabindex": "0",
                    "aria-label": "Cards still to act"}, items) if items else \
        h("p", {"class": "muted"}, "No one left to act this round.")
    if view.confirm_end and cur is not None:
        waiting = [f"{st.combatants[t.combatant].name} ({t.card.label})" for t in st.turns
                   if not t.done and cs.can_act(st, t.combatant)]
        body = h("div", {"class": "ini-confirm", "role": "alertdialog", "aria-label": f"End round {st.round}?",
                         "data-testid": "end-confirm"},
                 h("p", {}, h("strong", {}, f"End round {st.round} now? "),
                   f"{plural(len(waiting), 'card')} {'has' if len(waiting) == 1 else 'have'} not acted: ",
                   ", ".join(waiting[:8]) + (" …" if len(waiting) > 8 else ""),
                   ". They lose these turns."),
                 shots.countdown_entry(view, st),
                 h("div", {"class": "row"},
                   button("Keep playing", "init:end-no", cls="btn", data_focus="end-no"),
                   button(f"End round {st.round}", "init:end-yes", cls="btn danger")))
    return h("section", {"class": "panel ini-order", "aria-label": "Acting order"},
             h("div", {"class": "spread"},
               h("h2", {}, "Acting order ", h("span", {"class": "muted small"}, f"{done} done · {left} to go")),
               end_early),
             body)


def _round_view(view, st):
    # While a shot is being set up it takes the order's place: odds and the roll stay on screen,
    # and so does the roster with the targets' suppression and wounds (issue 22).
    shooting = view.shot is not None and cs.current_turn(st) is not None
    adv, surprised, _ = ticks_for(view, st)
    return h("div", {"class": "ini-round"},
             deal_notes(view, st),
             h("div", {"class": ["ini-top", shooting and "shooting"]},
               h("div", {"class": "ini-now-col"}, _now_panel(view, st), None if shooting else shots.last_shot_panel(view, st)),
               shots.shot_panel(view, st) if shooting else _order(view, st),
               _board(view, st, adv, surprised)))


def deal_notes(view, st):
    if not st.nothing:
        return None
    names = ", ".join(st.combatants[i].name for i in st.nothing)
    return h("p", {"class": "msg-warn", "role": "status"}, rule_ref("CS-6", ROUTE), " ",
             h("span", {"class": "badge ruling"}, "Ruling"),
             f" One deck could not cover everyone: {names} got nothing or fewer cards than due.")


def _board(view, st, adv=None, surprised=None):
    groups = []
    for s, side in enumerate(st.sides):
        rows = []
        for i, c in enumerate(st.combatants):
            if c.side != s:
                continue
            hand = st.hands[i] if st.phase == "round" else None
            stt = st.statuses[i]
            actions = []
            if cs.can_treat(st, i):
                actions.append(button("Treat", "init:treat", i, cls="btn small",
                                      aria_label=f"Treat {c.name} (stops the DYING countdown)"))
            if cs.can_first_aid(st, i):
                actions.append(button("Give first aid", "init:first-aid", i, cls="btn small danger",
                                      aria_label=f"Give first aid to {c.name}"))
            cards = []
            if hand is not None:
                cards = [card_tag(x, "lost", label=f"{x.name}, struck at the deal") for x in hand.lost]
                cards += [card_tag(x, "done" if entry.card_done(view, st, i, x) else "",
                                   label=f"{x.name}{', acted' if entry.card_done(view, st, i, x) else ''}")
                          for x in hand.kept]
            rows.append(h("li", {"class": ["ini-fighter", stt.condition is cs.Condition.DEAD and "dead"],
                                 "data-key": f"f{i}", "data-testid": f"fighter-{i}"},
                          h("div", {"class": "ini-fighter-name"},
                            h("strong", {}, c.name),
                            h("span", {"class": "badge"}, "PC") if c.player else None,
                            h("span", {"class": "badge note"}, "hidden") if cs.is_hidden(st, i) else None),
                          h("div", {"class": "ini-hand"}, cards) if cards else None,
                          h("div", {"class": "chips"}, status_chips(view, st, i, adv, surprised), actions)))
        groups.append(h("section", {"class": ["panel ini-side", SIDE_CLASS[s % MAX_SIDES]], "data-key": f"b{s}",
                                    "aria-label": side},
                        h("h2", {}, side, " ", h("span", {"class": "badge note"}, "surprised")
                          if s in st.surprised and st.phase == "round" else None),
                        h("ul", {"class": "ini-board-list"}, rows) if rows else
                        h("p", {"class": "muted small"}, "No combatants.")))
    return h("div", {"class": "ini-board", "data-testid": "board"}, groups)


def _round_setup(view, st):
    if view.entry is not None:
        return h("div", {"class": "ini-round"}, entry.card_entry(view, st))
    adv, surprised, per_combatant = ticks_for(view, st)
    alive = [i for i, _ in enumerate(st.combatants) if cs.can_act(st, i)]
    sides = []
    for s, side in enumerate(st.sides):
        members = [i for i in alive if st.combatants[i].side == s]

        def all_on(key: str) -> bool:
            return bool(members) and all(key in adv.get(i, []) for i in members)

        toggles = [button(label, "init:adv-side", f"{s}.{key}", cls=["btn small", all_on(key) and "on"],
                          aria_pressed="true" if all_on(key) else "false", disabled=not members)
                   for key, label in cs.ADVANTAGES.items()]
        per = None
        if per_combatant:
            per = h("ul", {"class": "ini-adv-list"},
                    [h("li", {"data-key": f"a{i}"},
                       h("span", {"class": "ini-adv-name"}, st.combatants[i].name),
                       h("span", {"class": "row"},
                         [button(label.split()[-1].capitalize(), "init:adv", f"{i}.{key}",
                                 cls=["btn small", key in adv.get(i, []) and "on"],
                                 aria_pressed="true" if key in adv.get(i, []) else "false",
                                 aria_label=f"{label} for {st.combatants[i].name}")
                          for key, label in cs.ADVANTAGES.items()]))
                     for i in members])
        sides.append(h("section", {"class": ["panel ini-side", SIDE_CLASS[s % MAX_SIDES]], "data-key": f"r{s}",
                                   "aria-label": f"{side}: advantages"},
                       h("div", {"class": "spread"}, h("h2", {}, side),
                         button(["Surprised (CS-4)", h("span", {"class": "visually-hidden"}, f": {side}")],
                                "init:surprise", s, cls=["btn small", s in surprised and "on"],
                                aria_pressed="true" if s in surprised else "false")),
                       h("p", {"class": "msg-warn small"}, "Surprised: this side gets no cards this round (",
                         rule_ref("CS-4", ROUTE), ").") if s in surprised else None,
                       h("div", {"class": "row", "role": "group", "aria-label": f"Advantages of all of {side}"},
                         toggles) if members else h("p", {"class": "muted small"}, "No one here can act."),
                       per))
    return h("div", {"class": "ini-round"},
             h("section", {"class": "panel ini-deal", "data-testid": "deal-panel"},
               h("div", {"class": "spread"},
                 h("div", {},
                   h("h2", {}, f"Round {st.round + 1}"),
                   h("p", {"class": "muted small"}, "Each combatant gets 1 card plus 1 per advantage (",
                     rule_ref("CS-2", ROUTE), "); then every 2 suppression and an injury strike the highest "
                     "card (", rule_ref("CS-3", ROUTE), "); a surprised side gets none (",
                     rule_ref("CS-4", ROUTE), ")."),
                   h("p", {"class": "muted small", "data-testid": "carry-rule"},
                     "Advantages stay ticked from round to round until you untick them; surprise is for "
                     "one round only and clears after the deal.")),
                 h("div", {"class": "row"},
                   button("Per combatant" if not per_combatant else "Per side only", "init:per",
                          cls="btn small", aria_pressed="true" if per_combatant else "false"),
                   button("Enter the cards…", "init:entry-open", cls="btn primary big", data_focus="deal")
                   if st.settings.get("deck") == cs.DECK_TABLE else
                   button("Deal", "init:deal", cls="btn primary big", data_focus="deal")))),
             h("div", {"class": "ini-adv-grid"}, sides),
             _board(view, st, adv, surprised))


def end_the_round(view, st) -> None:
    """CS-12/CS-13: the end of the round; with our own dice (HR-CS-7) the DYING countdowns entered."""
    action: dict = {"type": "end_round"}
    due = cs.countdowns_due(st) if st.settings.get("dice") == cs.DICE_TABLE else ()
    if due:
        missing = [st.combatants[i].name for i in due if i not in view.countdowns]
        if missing:
            view.notice = f"CS-13: enter the 1d6 DYING countdown of {missing[0]} first"
            view.confirm_end = cs.current_turn(st) is not None  # the question stays, with its dice
            view.app.focus_to("countdown")
            return
        action["dice"] = {str(i): view.countdowns[i] for i in due}
    if view._act(action, ("deal",)):
        view.countdowns = {}
        view.app.scroll_to("[data-testid=tracker]")


def tick(view, st, name: str, arg, index) -> None:
    adv, surprised, per = ticks_for(view, st)
    if name == "adv-side" and arg:
        s, _, key = str(arg).partition(".")
        if not whole(s) or key not in cs.ADVANTAGES:
            return
        members = [i for i, c in enumerate(st.combatants) if c.side == int(s) and cs.can_act(st, i)]
        on = bool(members) and all(key in adv.get(i, []) for i in members)
        for i in members:
            have = [a for a in adv.get(i, []) if a != key]
            adv[i] = have if on else [a for a in cs.ADVANTAGES if a in have or a == key]
    elif name == "adv" and arg:
        i, _, key = str(arg).partition(".")
        if not whole(i) or int(i) >= len(st.combatants) or key not in cs.ADVANTAGES:
            return
        have = adv.get(int(i), [])
        adv[int(i)] = [a for a in cs.ADVANTAGES if (a in have) != (a == key)]
    elif name == "per":
        per = not per
    elif name == "surprise" and index is not None and index < len(st.sides):
        surprised ^= {index}
    _store_ticks(view, st, adv, surprised, per)


def on_players(view, arg, event) -> None:
    view._set_players_view(True)
    view.confirm_leave = False
    view.shot = view.long_pick = None
    view.session.drawer = None
    view.app.focus_to("leave")


def _tick_of(name: str):
    """A tick of the next deal (advantages, per-combatant, surprise: CS-3, CS-4)."""
    def do(view, arg, event) -> None:
        index = int(arg) if arg is not None and whole(str(arg)) else None
        tick(view, view.session.state, name, arg, index)
    return do


def on_cd(view, arg, event) -> None:
    if not arg:
        return
    i, _, v = str(arg).partition(".")
    if whole(i) and whole(v):
        view.countdowns[int(i)] = int(v)


def on_deal(view, arg, event) -> None:
    st = view.session.state
    adv, surprised, _ = ticks_for(view, st)
    if view._act({"type": "deal", "advantages": {str(i): v for i, v in sorted(adv.items()) if v},
                  "surprised": sorted(surprised)}, NEXT_FOCUS):
        view.app.scroll_to("[data-testid=tracker]")  # the round's status and first actor, at the top


def on_next(view, arg, event) -> None:
    view._act({"type": "next"}, NEXT_FOCUS)


def on_end_round(view, arg, event) -> None:
    st = view.session.state
    end_the_round(view, st)


def on_end_early(view, arg, event) -> None:
    view.confirm_end = True
    view.shot = view.long_pick = None
    view.app.focus_to("end-no")


def on_end_no(view, arg, event) -> None:
    view.confirm_end = False
    view.app.focus_to("end-early", "next")


def on_end_yes(view, arg, event) -> None:
    st = view.session.state
    view.confirm_end = False
    end_the_round(view, st)


def on_treat(view, arg, event) -> None:
    index = int(arg) if arg is not None and whole(str(arg)) else None
    if index is None:
        return
    view._act({"type": "treat", "combatant": index})


def on_first_aid(view, arg, event) -> None:
    index = int(arg) if arg is not None and whole(str(arg)) else None
    if index is None:
        return
    view._act({"type": "first_aid", "combatant": index})


def on_privacy(view, arg, event) -> None:
    st = view.session.state
    view._act({"type": "privacy", "hide": not st.privacy})


def on_long_open(view, arg, event) -> None:
    view.long_pick = set()
    view.shot = None
    view.app.focus_to("long-card")


def on_long_pick(view, arg, event) -> None:
    st = view.session.state
    if not arg or view.long_pick is None or arg not in own_cards(view, st):
        return
    view.long_pick ^= {arg}


def on_long_cancel(view, arg, event) -> None:
    view.long_pick = None
    view.app.focus_to("long-open")


def on_long_ok(view, arg, event) -> None:
    st = view.session.state
    if view.long_pick is None:
        return
    cur = cs.current_turn(st)
    if cur is not None:
        turn = st.turns[cur]
        view._act({"type": "long", "combatant": turn.combatant,
                   "cards": sorted(view.long_pick | {turn.card.token})}, NEXT_FOCUS)


def on_shoot_open(view, arg, event) -> None:
    view.shot = None if view.shot is not None else {"targets": [], "mode": "aimed", "cover": "none",
                                                    "unseen": False, "semi": "hit"}
    view.long_pick = None
    view.confirm_end = False
    view.app.focus_to("target" if view.shot is not None else "shoot-open")
    if view.shot is not None:  # the whole shot (targets, odds, dice, the roll) in sight at once
        view.app.scroll_to("[data-testid=shot-panel]")


def on_shoot_close(view, arg, event) -> None:
    view.shot = None
    view.app.focus_to("shoot-open")


#: The taps of this screen: action name → what it does (ConsimView.handle).
ACTIONS = {"players": on_players, **{name: _tick_of(name) for name in ("adv-side", "adv", "per", "surprise")},
           "cd": on_cd, "deal": on_deal, "next": on_next, "end-round": on_end_round, "end-early": on_end_early,
           "end-no": on_end_no, "end-yes": on_end_yes, "treat": on_treat, "first-aid": on_first_aid,
           "privacy": on_privacy, "long-open": on_long_open, "long-pick": on_long_pick,
           "long-cancel": on_long_cancel, "long-ok": on_long_ok, "shoot-open": on_shoot_open,
           "shoot-close": on_shoot_close}
