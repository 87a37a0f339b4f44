"""What the players see: the players' view turned towards the table and a spectator's copy
(issue 21), with the way back to the Observer's screen."""

from __future__ import annotations

from engine import consim as cs
from web.dom import button, h
from web.parts.rulebits import with_rule_refs

from . import entry, shots, tracker
from .draft import MAX_SIDES, ROUTE, SIDE_CLASS
from .marks import card_tag


def _copy_state(view):
    """The spectator's copy of the open game, replayed: everything the players may see."""
    game = view.session.game
    if view._copy[0] is not game:
        view._copy = (game, cs.public_state(game))
    return view._copy[1]


def players_screen(view):
    return public_tracker(view, _copy_state(view), leave=True)


def players_no_game(view):
    return h("div", {"class": "ini-tracker players", "data-testid": "tracker"},
             h("section", {"class": "panel", "data-testid": "players-view"},
               h("h2", {}, "Players' view"), h("p", {}, "No game is open.")),
             _leave_control(view))


def public_tracker(view, st, leave: bool):
    """Drawn from a spectator's copy: placeholders for the hidden, no control but leaving."""
    done, left = cs.turn_counts(st)
    hidden = bool(st.hidden)
    items = []
    if st.unseen_acting:
        items.append(h("li", {"class": "ini-entry current unseen", "data-key": "unseen", "aria-current": "true",
                              "data-testid": "order-entry"},
                       h("span", {"class": "ctag unseen", "role": "img", "aria-label": "a hidden card"}, "?"),
                       h("span", {"class": "ini-entry-name"}, "The Observer's combatants are acting")))
    cur = cs.current_turn(st)
    for n, t in enumerate(st.turns):
        if t.done or not cs.can_act(st, t.combatant):
            continue
        c = st.combatants[t.combatant]
        items.append(h("li", {"class": ["ini-entry", SIDE_CLASS[c.side % MAX_SIDES], n == cur and "current"],
                              "data-key": f"t{t.card.token}", "aria-current": "true" if n == cur else None,
                              "data-testid": "order-entry"},
                       card_tag(t.card), h("span", {"class": "ini-entry-name"}, c.name),
                       h("span", {"class": "muted small"}, "+ " + ", ".join(x.label for x in t.spent))
                       if t.spent else None))
    note = ", not counting the Observer's hidden cards" if hidden and st.phase == "round" else ""
    order = None
    if st.phase == "round":
        order = h("section", {"class": "panel ini-order", "aria-label": "Acting order"},
                  h("h2", {}, "Acting order ", h("span", {"class": "muted small", "data-testid": "order-count"},
                                                 f"{done} done · {left} to go{note}")),
                  h("ol", {"class": "ini-order-list", "data-testid": "order", "tabindex": "0",
                           "aria-label": "Cards still to act"}, items) if items else
                  h("p", {"class": "muted"}, "Every card shown here has acted."))
    intro = h("section", {"class": "panel ini-now", "data-testid": "players-view"},
              h("h2", {}, "Players' view" if leave else "Spectator view"),
              h("p", {"class": "muted small"},
                ("The Observer's hidden combatants are shown only as placeholders: no names, cards or statuses."
                 if st.count_hidden else "The Observer's hidden combatants are one line per side: no names, "
                                         "number, cards or statuses (HR-CS-8).")
                if hidden else "Everything on the table is shown."),
              shots.last_shot_panel(view, st))
    return h("div", {"class": "ini-tracker players", "data-testid": "tracker", "data-phase": st.phase,
                     "data-round": st.round},
             h("div", {"class": "ini-head"},
               h("p", {"class": "status", "role": "status", "data-testid": "status"},
                 with_rule_refs(cs.status(st), ROUTE))),
             h("div", {"class": "ini-round"},
               tracker.deal_notes(view, st),
               h("div", {"class": "ini-top"}, intro, order, _public_board(view, st))),
             view._log(st),
             _leave_control(view) if leave else None)


def _public_board(view, st):
    groups = []
    for s, side in enumerate(st.sides):
        rows, unseen = [], []
        for i, c in enumerate(st.combatants):
            if c.side != s:
                continue
            if i in st.hidden:
                unseen.append(c.name)
                continue
            hand = st.hands[i] if st.phase == "round" else None
            cards = []
            if hand is not None:
                cards = [card_tag(x, "lost", label=f"{x.name}, struck at the deal") for x in hand.lost]
                cards += [card_tag(x, "done" if entry.card_done(view, st, i, x) else "") for x in hand.kept]
            rows.append(h("li", {"class": ["ini-fighter", st.statuses[i].condition is cs.Condition.DEAD and "dead"],
                                 "data-key": f"f{i}", "data-testid": f"fighter-{i}"},
                          h("div", {"class": "ini-fighter-name"}, h("strong", {}, c.name),
                            h("span", {"class": "badge"}, "PC") if c.player else None),
                          h("div", {"class": "ini-hand"}, cards) if cards else None,
                          h("div", {"class": "chips"}, tracker.status_chips(view, st, i))))
        groups.append(h("section", {"class": ["panel ini-side", SIDE_CLASS[s % MAX_SIDES]], "data-key": f"b{s}",
                                    "aria-label": side},
                        h("h2", {}, side, " ", h("span", {"class": "badge note"}, "surprised")
                          if s in st.surprised and st.phase == "round" else None),
                        h("ul", {"class": "ini-board-list"}, rows) if rows else None,
                        _hidden_line(st, unseen)))
    return h("div", {"class": "ini-board", "data-testid": "board"}, groups)


def _hidden_line(st, unseen: list[str]):
    """A side's hidden combatants: named placeholders when the Observer says how many are
    hidden, else one line that counts nothing (HR-CS-8)."""
    if not unseen:
        return None
    if not st.count_hidden:
        return h("p", {"class": "muted small ini-hidden-list", "data-testid": "hidden-line"},
                 with_rule_refs(f"{cs.HIDDEN_GROUP} (HR-CS-8): not shown.", ROUTE))
    return h("p", {"class": "muted small ini-hidden-list", "data-testid": "hidden-line"},
             "Hidden: ", ", ".join(unseen), ".")


def _leave_control(view):
    if view.confirm_leave:
        return h("div", {"class": "panel ini-leave", "role": "alertdialog",
                         "aria-label": "Back to the Observer's view"},
                 h("p", {}, "Show the Observer's view? Hidden cards and statuses become visible."),
                 h("div", {"class": "row"},
                   button("Stay in the players' view", "init:leave-no", cls="btn", data_focus="leave-no"),
                   _hold_button("Hold to show everything", "init:leave-yes", "leave-hold-help")),
                 h("p", {"class": "muted small", "id": "leave-hold-help"},
                   "Press and hold for a second (or keep Enter pressed); let go to cancel."))
    return h("div", {"class": "row ini-leave-row"},
             button("Observer's view…", "init:leave", cls="btn small ghost", data_focus="leave"))


def _hold_button(label: str, action: str, help_id: str):
    """Issue 34 item 7: a button that acts only when held about a second (static/shell.js),
    filling as it is held: a deliberate gesture no stray tap makes. Press and hold rather
    than a code: nothing for the Observer to set up, remember or be locked out by."""
    return h("button", {"type": "button", "class": "btn danger hold", "data-hold-action": action,
                        "data-focus": "leave-yes", "aria-describedby": help_id},
             h("span", {"class": "hold-fill", "aria-hidden": "true"}), label)


def leave_action(view, name: str) -> None:
    if name == "leave":
        view.confirm_leave = True
        view.app.focus_to("leave-no")
    elif name == "leave-no":
        view.confirm_leave = False
        view.app.focus_to("leave")
    else:
        view.confirm_leave = False
        view._set_players_view(False)
        view.app.focus_to("players-view-button")
