"""Our own deck (HR-CS-6): the cards dealt from a real deck, entered by combatant before the
deal."""

from __future__ import annotations

from engine import consim as cs
from engine.cards import Card
from engine.text import plural
from web.dom import button, h
from web.parts.cards import card_picker
from web.parts.rulebits import rule_ref

from .draft import MAX_SIDES, NEXT_FOCUS, ROUTE, SIDE_CLASS, ticks_for
from .marks import card_tag


def card_done(view, st, i, card) -> bool:
    return any(t.done and t.combatant == i and (t.card == card or card in t.spent) for t in st.turns)


def _owed(view, st) -> tuple[int, ...]:
    """CS-6: the cards each combatant is dealt at the coming deal, with this round's ticks."""
    adv, surprised, _ = ticks_for(view, st)
    return cs.cards_owed(st, {i: len(v) for i, v in adv.items()}, sorted(surprised))


def card_entry(view, st):
    """HR-CS-6, CS-6: the cards the GM dealt from a real deck, entered: the roster down the
    side (tap a name), the 52-card picker (tap its cards; a card of another greyed out)."""
    owed = _owed(view, st)
    cards, at = view.entry["cards"], view.entry["at"]
    taken = {t: i for i, ts in cards.items() for t in ts}
    who = []
    for i, c in enumerate(st.combatants):
        mine, n = cards.get(i, []), owed[i]
        if n == 0:
            who.append(h("li", {"data-key": f"e{i}", "class": "muted small entry-none"}, f"{c.name}: no cards"))
            continue
        who.append(h("li", {"data-key": f"e{i}"},
                     button([h("span", {"class": "entry-name"}, c.name),
                             h("span", {"class": "entry-cards"},
                               [card_tag(Card.parse(t)) for t in mine] if mine else "—"),
                             h("span", {"class": "entry-count"}, f"{len(mine)}/{n}")],
                            "init:entry-who", i, cls=["btn entry-who", SIDE_CLASS[c.side % MAX_SIDES],
                                                      i == at and "on", len(mine) == n and "done"],
                            aria_pressed="true" if i == at else "false",
                            aria_label=f"{c.name}: {len(mine)} of {n} cards entered")))
    complete = all(len(cards.get(i, [])) == n for i, n in enumerate(owed))

    def states(card):
        owner = taken.get(str(card))
        return () if owner is None else (("selected",) if owner == at else ("played",))

    def label(card):
        owner = taken.get(str(card))
        if owner is None:
            return card.name
        name = st.combatants[owner].name
        return f"{card.name}: {name}'s" + (", tap to take it back" if owner == at else "")

    entering = st.combatants[at].name if at is not None else None
    return h("section", {"class": "panel ini-deal ini-entry entry", "data-testid": "card-entry",
                         "aria-labelledby": "ini-entry-title"},
             h("h2", {"id": "ini-entry-title"}, f"Round {st.round + 1}: the cards dealt at the table"),
             h("p", {"class": "small entry-how"}, "Deal the real deck in roster order, each combatant what it is "
               "owed (", rule_ref("CS-6", ROUTE), "); tap a name, then its cards. Suppression and injuries strike "
               "the highest after the deal, as usual (", rule_ref("CS-3", ROUTE), ")."),
             h("div", {"class": "ini-entry-grid"},
               h("ul", {"class": "ini-entry-who", "role": "group", "aria-label": "Whose cards",
                        "data-testid": "entry-who"}, who),
               h("div", {},
                 h("div", {"class": "entry-bar"},
                   h("p", {"class": "small", "data-testid": "entry-at"},
                     f"Entering {entering}'s cards" if entering and not complete else
                     "Every combatant has its cards." if complete else ""),
                   h("div", {"class": "entry-controls"},
                     button("Deal these cards", "init:entry-deal", cls="btn primary big", disabled=not complete,
                            data_focus="entry-deal"),
                     button("Back", "init:entry-cancel", cls="btn ghost"))),
                 card_picker("init:entry-pick", states, labels=label))))


def entry_action(view, st, name: str, arg, index) -> None:
    """HR-CS-6: entering the cards dealt from a real deck (see :meth:`_card_entry`)."""
    if st.phase != "ready":
        view.entry = None
        return
    owed = _owed(view, st)
    if name == "entry-open":
        first = next((i for i, n in enumerate(owed) if n), None)
        view.entry = {"cards": {}, "at": first}
        view.app.focus_to("entry-who", "entry-deal")
        view.app.scroll_to("[data-testid=card-entry]")
        return
    if view.entry is None:
        return
    cards = view.entry["cards"]
    if name == "entry-cancel":
        view.entry = None
        view.app.focus_to("deal")
    elif name == "entry-who" and index is not None and index < len(owed) and owed[index]:
        view.entry["at"] = index
    elif name == "entry-pick" and arg:
        at = view.entry["at"]
        token = str(arg)
        owner = next((i for i, ts in cards.items() if token in ts), None)
        if at is None:
            return
        if owner == at:
            tap = getattr(view.app, "tap", None)
            if tap is not None and tap.detail >= 2:  # a double tap's second: the card stays (TapGuard)
                tap.refuse(f"Not taken: a second tap on the {Card.parse(token).name} right after the first "
                           "(a double tap?) would have taken it back. Tap it again if you meant it.")
                return
            cards[at].remove(token)
        elif owner is not None:
            view.notice = (f"CS-6: the {Card.parse(token).name} is {st.combatants[owner].name}'s already "
                           "(one deck, each card once)")
        elif len(cards.get(at, [])) >= owed[at]:
            view.notice = (f"CS-6: {st.combatants[at].name} is owed {plural(owed[at], 'card')}: tap one "
                           "of them to take it back, or another name")
        else:
            cards.setdefault(at, []).append(token)
            if len(cards[at]) == owed[at]:  # on to the next combatant still short of cards
                order = list(range(at + 1, len(owed))) + list(range(at))
                nxt = next((i for i in order if len(cards.get(i, [])) < owed[i]), None)
                if nxt is not None:
                    view.entry["at"] = nxt
                else:
                    view.app.focus_to("entry-deal")
    elif name == "entry-deal":
        adv, surprised, _ = ticks_for(view, st)
        action = {"type": "deal", "advantages": {str(i): v for i, v in sorted(adv.items()) if v},
                  "surprised": sorted(surprised),
                  "cards": {str(i): list(ts) for i, ts in sorted(cards.items()) if ts}}
        if view._act(action, NEXT_FOCUS):
            view.entry = None
            view.app.scroll_to("[data-testid=tracker]")
