"""A phone at the table (issue 32): ``#/join?t=<table>&s=<seat>&k=<tablet>&o=<offer>``.

The link comes from the tablet's "Players' phones…" (web/phones.py) as a QR code the
phone's camera app opens. The phone says which table and seat it joins, answers the
offer (static/wire.js) and shows its answer as a QR code and as text for the tablet to
scan or paste. Once connected it draws what the tablet sends with the table's own
read-only view: for the watch seat, the spectator copy, exactly as a spectator link
would show it, live; for a player's seat (``s=side-0/player-1``), that same public table
plus the player's own hand from the seat's view (:func:`engine.seats.seat_view`'s
``private``), its playable cards tappable. A tap asks the tablet for the move (an ``act``
message carrying the view's position, so a double tap never plays twice, HR-SEAT-4); the
tablet's next view or its refusal (the clause and its words) answers.

What a reload needs is kept on the phone: the seat and the last view in sessionStorage
(the screen comes back as it was, marked away), the seat's secret from the tablet in
localStorage (a rejoin proves it is the same phone). A reload cannot reuse the old
offer: the phone says to tap Rejoin on the tablet and open the new code.
"""

from __future__ import annotations

import importlib
import json

from engine import ascension as ai
from engine import campaign as cmp
from engine import codec
from engine import game as games
from engine import seats as seating
from engine.cards import Card, CardError, Suit
from engine.registry import BY_KIND
from web import platform, qr, seatmsg, wire
from web.dom import button, h
from web.parts.cards import card_button, card_picker, card_view, suit_mark
from web.parts.chances import percent, shares, whole_percent
from web.session import Session

#: sessionStorage: the seat this tab joined and the last view it had.
KEPT_KEY = "ct:v1:join"
#: localStorage, per tablet and seat: the seat's secret the tablet gave this phone.
TOKEN_KEY = "ct:v1:seat-token:{table}:{seat}"

#: What the phone says about the connection, by status.
STATUS_WORDS = {"answering": "preparing its answer", "answered": "waiting for the tablet",
                "connected": "connected", "away": "away", "dropped": "seat taken back", "failed": "not connected"}


class WatchSession(Session):
    """A table's session on a watching phone: the game the tablet sent, never saved, no
    move, no drawer; the phone's own bar in place of the session's toolbar."""

    watch = True
    seat_player = False  # a player's seat (its hand drawn by the join view), not only watching

    def __init__(self, app, kind: str, bar) -> None:
        super().__init__(app, kind, BY_KIND[kind].title)
        self.bar = bar

    def show(self, game) -> None:
        self.slot, self.game, self.name = None, game, ""

    def toolbar(self):
        return self.bar()

    def banner(self):
        return None

    def drawer_view(self):
        return None

    def save(self, force: bool = False) -> None:
        return None

    def try_act(self, action: dict) -> str | None:
        return "This phone watches the table: moves are made on the tablet."

    def handle(self, action: str, arg, el=None) -> bool:
        return action.startswith(("session:", "file:"))  # nothing of the tablet's session here


def _seat_id(value) -> bool:
    """Whether ``value`` is a seat id a link or storage may name (``watch``, ``side-0/player-1`` …)."""
    if value == seatmsg.WATCH:
        return True
    try:
        return bool(seating.seat_numbers(value))
    except seating.SeatRefused:
        return False


def _cards(tokens) -> list[Card]:
    """The cards of a seat's view (``["9H", "2S"]``), read as hostile input: bad ones are left out."""
    out = []
    for token in tokens if isinstance(tokens, list) else ():
        try:
            out.append(Card.parse(token))
        except (CardError, ValueError, TypeError):
            continue
    return out


def _words(value) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 40 and value.isascii() and value.replace("-", "").isalnum()


class JoinView:
    route = "join"

    def __init__(self, app) -> None:
        self.app = app
        self.kind: str | None = None
        self.seat = seatmsg.WATCH
        self.table = ""
        self.status = "failed"
        self.problem: str | None = None
        self.answer = ""
        self.peer: int | None = None
        self.label = ""
        self.shown = -1
        self.tables: dict[str, object] = {}  # kind → the table's view, drawing the watched game
        self.private: dict | None = None  # what this seat alone sees (a player's seat), from its last view
        self.position = 0  # the table's position in the last view (a move is asked on it: HR-SEAT-4)
        self.asked: int | None = None  # the position a move was asked on, until the table answers
        self.selected: list[str] = []  # the cards chosen to discard (OIC-8), on this phone only
        self.refusal: tuple[str, str] | None = None  # the tablet's last refusal: clause, words
        self.maneuver: str | None = None  # the general's maneuver chosen, not yet declared (AI-7)
        self.stratagems: list[str] = []  # its stratagems chosen (AI-16), on this phone only
        self.rearguard: int | None = None  # a Withdraw's rearguard chosen (AI-2); None: the army's own
        self.advise = False  # "Show advice": this general's staff officer asked of the tablet (HR-AI-13)
        self.aim = "net"  # the staff officer's aim (engine.ascension.AIMS)
        self.advice_asked = ""  # the aim the tablet was last asked to send advice for ("": none)
        self.lay_hand: list[str] = []  # own deck, at the negotiating table: the cards laid down (CMP-7)
        self.lay_drawn: list[str] = []  # … and the cards drawn there
        self.lay_suit = "S"  # the suit the phone's card entry shows (one at a time: a phone's width)
        self.both = False  # the spoils drawn were of a decisive victory (the stake and a pool card, CMP-4)
        self.shot: dict = {}  # a CONSIM seat's shot or long action being set up, on this phone only (CS-5 … CS-9)

    # ------------------------------------------------------------ the link
    def on_enter(self, params: dict) -> None:
        kind, seat, table, offer = params.get("t"), params.get("s"), params.get("k"), params.get("o")
        if kind not in BY_KIND or not _seat_id(seat) or not _words(table):
            self._restore()
            if self.kind is None:
                self.status, self.problem = "failed", ("This link is not a whole invitation from a table. On the "
                                                      "tablet, open Players' phones… and invite this phone again.")
            return
        wire.close(self.peer)
        self.kind, self.seat, self.table, self.peer = kind, seat, table, None
        platform.replace_hash(f"#/join?t={kind}&s={seat}&k={table}")  # a reload never answers an old offer
        if not offer:
            self._restore()
            return
        if not wire.available():
            self.status, self.problem = "failed", "This browser cannot join a table (it has no WebRTC)."
            return
        self.status, self.problem, self.answer = "answering", None, ""
        self._keep()

        def made(result):
            self.peer, self.answer = result
            self.status = "answered"
            wire.attach(self.app, self.peer, self._event)

        def failed(err):
            self.status, self.problem = "failed", ("This invitation could not be read: it may have been cut short. "
                                                   "Open the code on the tablet again.")

        wire.run(self.app, lambda: wire.answer(offer), made, failed)

    def _restore(self) -> None:
        """After a reload: the seat and its last view, as they were, marked away."""
        kept = _kept()
        if kept is None:
            return
        self.kind, self.seat, self.table, self.label = kept["t"], kept["s"], kept["k"], kept["label"]
        self.status = "away"
        if kept["g"] is not None:
            self._show(kept["g"], keep=False)

    def _keep(self, payload: str | None = None) -> None:
        try:
            from js import sessionStorage  # type: ignore[import-not-found]

            sessionStorage.setItem(KEPT_KEY, json.dumps({"t": self.kind, "s": self.seat, "k": self.table,
                                                         "label": self.label, "g": payload}))
        except Exception:
            pass  # a phone that keeps nothing just needs a new code after a reload

    # ------------------------------------------------------------ the wire
    def _event(self, kind: str, text: str) -> None:
        if kind == "open":
            token = _token(self.table, self.seat) or seatmsg.NEW_TOKEN
            wire.send(self.peer, seatmsg.hello(self.seat, token, self.position))
        elif kind == "message":
            try:
                message = seatmsg.read_table_message(text)
            except seatmsg.SeatMessageError as err:
                self.problem = f"Ignored a message: {err}."
                return
            self._message(message)
        elif kind == "close" or (kind == "state" and text in ("disconnected", "failed", "closed")):
            if self.status == "connected":
                self.status = "away"
            elif self.status == "answered" and text == "failed":
                self.status, self.problem = "failed", ("No connection formed. Are this phone and the tablet on "
                                                       "the same Wi-Fi? A guest network may keep them apart.")

    def _message(self, message: dict) -> None:
        kind = message["type"]
        if kind == "welcome":
            if message["kind"] != self.kind or message["seat"] != self.seat or not (
                    message["token"] == "" or seatmsg.is_token(message["token"])):
                self.problem = "The tablet answered for another table or seat."
                return
            self.label, self.status, self.problem = message["label"], "connected", None
            _set_token(self.table, self.seat, message["token"])
            self._keep()
            if self.advice_asked:  # a tablet that reloaded forgot this phone asked (HR-AI-13)
                self._ask_advice(again=True)
        elif kind == "view":
            if message["kind"] != self.kind or message["n"] <= self.shown:
                return
            self.shown = message["n"]
            self.status = "connected"
            self._show(message["g"])
        elif kind == "seat":
            self._seat_view(message)
        elif kind == "refused":
            self.asked, self.refusal = None, (message["rule"], message["text"])
            self.position = max(0, message["n"])
        elif kind == "bye":
            self.status, self.problem = "dropped", message["text"]
            wire.close(self.peer)
            self.peer = None
            self._keep()

    def _show(self, payload: str | None, keep: bool = True) -> None:
        table = self._table()
        if payload is None:
            table.session.show(None)
        else:
            try:
                game = codec.decode_share(payload)
            except codec.ShareError as err:
                self.problem = f"The table's view could not be shown: {err}"
                return
            if game.kind != self.kind or not games.is_spectator(game):
                self.problem = "The tablet sent a view of another kind: it is not shown."
                return
            table.session.show(game)
        if keep:
            self._keep(payload)

    def _table(self):
        """The table's own view (conflict, campaign …), drawing the watched game."""
        view = self.tables.get(self.kind)
        if view is None:
            module, _, name = BY_KIND[self.kind].view.partition(":")
            view = getattr(importlib.import_module(module), name)(self.app)
            view.session = WatchSession(self.app, self.kind, self._bar)
            self.tables[self.kind] = view
        view.session.seat_player = self.seat != seatmsg.WATCH
        return view

    # ------------------------------------------------------------ drawing
    def _bar(self):
        title = BY_KIND[self.kind].title if self.kind in BY_KIND else "the table"
        status = self.status
        return h("div", {"class": ["seat-bar", status], "role": "status", "data-testid": "seat-bar",
                         "data-status": status},
                 h("span", {"class": "seat-name"}, h("strong", {}, self.label or "Watcher"),
                   f" · watching {title}" if self.seat == seatmsg.WATCH else f" · {title}"),
                 h("span", {"class": "seat-status", "data-testid": "seat-status"}, STATUS_WORDS.get(status, status)))

    def render(self):
        if self.kind is None:
            return h("section", {"class": "panel join"}, h("h2", {}, "Join a table"),
                     h("p", {"class": "msg-error", "role": "alert"}, self.problem or ""))
        title = BY_KIND[self.kind].title
        watching = self.seat == seatmsg.WATCH
        problem = h("p", {"class": "msg-error", "role": "alert", "data-testid": "join-problem"},
                    self.problem) if self.problem else None
        if self.status in ("answering", "answered") or (self.status == "failed" and not self._has_view()):
            return [self._bar(), h("section", {"class": "panel join", "data-testid": "join"},
                                   h("h2", {}, f"Join {title} as {'a watcher' if watching else 'a player'}"),
                                   problem, self._answer_view(),
                                   h("p", {"class": "muted"}, "This phone will show the table live, read-only: what "
                                                             "a spectator may see, nothing hidden." if watching else
                                     "This phone will show the table live and your own hand: only this phone is "
                                     "sent it. Your moves are made here; the tablet keeps the game."))]
        table = self._table()
        away = None
        if self.status in ("away", "dropped"):
            away = h("div", {"class": "seat-away", "role": "alert", "data-testid": "seat-away"},
                     h("p", {}, self.problem if self.status == "dropped" and self.problem else
                       "Away from the table: this is the table as it was. On the tablet, open Players' phones… and "
                       "tap Rejoin beside this phone, then open the new code with this phone's camera."))
        if table.session.game is None:
            body = [self._bar(), away, problem, h("p", {"class": "panel muted"}, "The tablet has no game open yet.")]
            return body
        frame = table.render()
        frame = frame if isinstance(frame, list) else [frame]
        # the seat bar (the frame's toolbar) first, then what is wrong, then the table
        return [frame[0], h("div", {"data-key": "seat-notes", "class": "frame-slot"}, away,
                            problem if self.status != "dropped" else None),
                h("div", {"data-key": "seat-hand", "class": "frame-slot"}, self._hand_view()), *frame[1:]]

    # ------------------------------------------------------------ a player's seat
    def _seat_view(self, message: dict) -> None:
        """A player seat's view: the public table (replayed from its saved form) and what
        this seat alone sees. A view of another table or seat, or an old one, is not shown."""
        view = message["view"]
        if (message["kind"] != self.kind or view["kind"] != self.kind or view["seat"] != self.seat
                or message["n"] <= self.shown):
            return
        try:
            game, _ = codec.game_from_dict(view["public"])
        except codec.CodecError as err:
            self.problem = f"The table's view could not be shown: {err}"
            return
        if game.kind != self.kind or not games.is_spectator(game):
            self.problem = "The tablet sent a view of another kind: it is not shown."
            return
        self.shown, self.status = message["n"], "connected"
        if view["position"] != self.position:
            self.refusal, self.selected = None, []  # the table moved on: a new choice (a maneuver chosen stays)
            self.lay_hand, self.lay_drawn = [], []
        self.position, self.asked = max(0, view["position"]), None
        self.private = view["private"]
        if isinstance(self.private.get("bid"), dict) or "bid" not in (self.private.get("may") or ()):
            self.maneuver, self.stratagems, self.rearguard = None, [], None  # sealed (AI-7): next week afresh
        if view["label"]:
            self.label = view["label"][:80]
        self._table().session.show(game)
        self._keep(codec.encode_share(game))  # a reload shows the public table, never the hand
        if self.kind == "battle":
            self._ask_advice()  # a bid to make again (next week), or sealed: advice asked, or no more

    def _ask(self, action: dict) -> None:
        """Ask the tablet for ``action`` on the view drawn now; nothing more until it answers
        (a second tap of a double tap lands on a disabled card, and would be refused anyway,
        HR-SEAT-4)."""
        if self.status != "connected" or self.asked is not None:
            return
        token = _token(self.table, self.seat)
        if token is None:
            self.problem = "This phone has no seat key yet: wait for the tablet to welcome it."
            return
        if wire.send(self.peer, seatmsg.act(self.seat, token, self.position, action)):
            self.asked, self.refusal = self.position, None

    def _hand_view(self):
        """A player seat's own part, drawn above the public table: its hand and the moves it
        may make now (the conflict, the campaign); nothing for the watch seat."""
        p = self.private
        if self.seat == seatmsg.WATCH or not isinstance(p, dict):
            return None
        live = self.status == "connected" and self.asked is None
        refused = (h("p", {"class": "msg-error", "role": "alert", "data-testid": "seat-refused"},
                      h("span", {"class": "rule-id"}, self.refusal[0]), " ", self.refusal[1])
                   if self.refusal else None)
        if self.kind == "conflict":
            return self._conflict_hand(p, live, refused)
        if self.kind == "campaign":
            return self._campaign_hand(p, live, refused)
        if self.kind == "battle":
            return self._general_bid(p, live, refused)
        if self.kind == "initiative":
            return self._combatant_turn(p, live, refused)
        return None

    def _general_bid(self, p: dict, live: bool, refused):
        """A battle general's own part on its phone: the blind bid as the tablet's bid form
        takes it (AI-7) — a maneuver with its dice, the stratagems the army qualifies for with
        what each does (AI-16, AI-17), the rearguard of a Withdraw (AI-2) and the pool they
        make (AI-3) — then declared, sealed until the tablet reveals both; the Counter Attack
        switch (AI-16) and leaving the battle (AI-15) when the tablet's referee allows them;
        and, when asked, this general's own staff officer (HR-AI-13, computed on the tablet).
        The other army's bid and advice are never sent here (hidden means absent)."""
        st = self._table().session.state
        s = p.get("side")
        if st is None or s not in (0, 1) or isinstance(s, bool):
            return self._seat_panel("Waiting for the tablet.", refused)
        sealed = p.get("bid") if isinstance(p.get("bid"), dict) else None
        may = p.get("may") if isinstance(p.get("may"), list) else []
        moves = self._general_moves(st, s, may, live)
        if sealed is not None:
            name = sealed.get("name") if isinstance(sealed.get("name"), str) else ""
            return self._seat_panel("Your bid is sealed: the tablet reveals both bids together (AI-7).", refused,
                                    h("p", {"data-testid": "seat-bid", "tabindex": "-1", "data-focus": "seat-bid"},
                                      "Your sealed bid: ", h("strong", {}, name[:60])), moves)
        if "bid" not in may:
            say = ("Switch to Attack now, or let the tablet roll (AI-16)." if "counter_attack" in may else
                   "Your general waits: the tablet plays the week's steps." if p.get("phase") != "bid"
                   else "Waiting for the tablet.")
            return self._seat_panel(say, refused, moves)
        head, grid = self._advice_view(p)
        return self._seat_panel(f"Week {st.week}: your secret maneuver (AI-7)", refused, head,
                                *self._bid_form(st, s, live), moves, grid)

    def _bid_form(self, st, s: int, live: bool):
        """AI-7 on a phone: the six maneuvers (their dice, AI-2/AI-3), then for the one chosen
        the stratagems offered (AI-16: only those the army qualifies for, from the public
        battle exactly as the tablet's form offers them), a Withdraw's rearguard (AI-2), the
        pool and Declare. The choice stays on this phone until it is declared."""
        chosen = self.maneuver if self.maneuver in ai.MANEUVERS else None
        picks = []
        for m in ai.MANEUVERS:
            dice = ai.dice_pool(st, s, m).dice
            picks.append(button([h("span", {"class": "m-name"}, ai.MANEUVER_NAMES[m]),
                                 h("span", {"class": "m-dice"}, f"{dice} dice")], "join:maneuver", m,
                                cls=["btn", "maneuver", m == chosen and "primary"], role="radio",
                                aria_checked="true" if m == chosen else "false",
                                aria_label=f"{ai.MANEUVER_NAMES[m]}, {dice} dice", disabled=not live))
        out = [h("div", {"class": "seat-maneuvers", "role": "radiogroup", "aria-label": "Maneuver",
                         "data-testid": "seat-maneuvers"}, picks)]
        if chosen is not None:
            offered = {x.key: x for x in ai.offered_stratagems(st, s, chosen)}
            self.stratagems = [k for k in self.stratagems if k in offered]
            rear = self.rearguard if self.rearguard in st.alive(s) else st.rearguards[s]
            if chosen == "withdraw":
                out.append(h("label", {"class": "field seat-rear"}, "Rearguard (AI-2)",
                             h("select", {"data-field": "join:rearguard", "value": str(rear), "disabled": not live,
                                          "data-testid": "seat-rearguard"},
                               [h("option", {"value": str(i), "selected": i == rear}, st.armies[s].units[i].name)
                                for i in st.alive(s)])))
            if offered:
                out.append(h("div", {"class": "seat-strats", "role": "group", "aria-label": "Stratagems",
                                     "data-testid": "seat-strats"},
                             [button([h("strong", {}, x.name), h("span", {"class": "small"}, x.says)],
                                     "join:strat", x.key, cls=["btn", "strat", x.key in self.stratagems and "on"],
                                     aria_pressed="true" if x.key in self.stratagems else "false",
                                     disabled=not live) for x in offered.values()]))
            pool = ai.dice_pool(st, s, chosen, self.stratagems, rearguard=rear if chosen == "withdraw" else None)
            out.append(h("p", {"class": "small seat-pool", "data-testid": "seat-pool"},
                         f"{ai.MANEUVER_NAMES[chosen]}: {pool.explain()}" + ("" if offered else
                                                                             " · no stratagem offered (AI-16)")))
        name = ai.bid_name({"maneuver": chosen, "stratagems": self.stratagems}) if chosen else None
        out.append(h("div", {"class": "row seat-declare"},
                     button(f"Declare {name}" if name else "Choose a maneuver", "join:declare",
                            cls="btn primary", disabled=not live or chosen is None)))
        return out

    def _general_moves(self, st, s: int, may: list, live: bool):
        """AI-16 / AI-15: the Counter Attack switch and leaving the battle, each only while the
        tablet's referee offers it (``may``), one tap each."""
        enemy = st.armies[1 - s].name
        rows = []
        if "counter_attack" in may:
            rows.append(button("Counter Attack: switch to Attack (AI-16)", "join:counter", cls="btn primary",
                               disabled=not live))
        if "leave" in may:
            rows.append(h("p", {"class": "small"}, f"{enemy} skirmished last week: you may leave the battle "
                                                   "before either side declares (AI-15)."))
            rows.append(button(f"Take {st.armies[s].name} out of the battle", "join:leave", cls="btn",
                               disabled=not live))
        return h("div", {"class": "seat-moves", "data-testid": "seat-moves"}, rows) if rows else None

    def _advice_view(self, p: dict):
        """HR-AI-13 on a phone: "Show advice" asks the tablet for this general's staff officer
        (the tablet computes it, for this seat alone). Two parts: above the bid, where the
        toggle was, the recommended mix (text only: a second tap of a double tap lands on
        nothing); below it, the staff officer's outlook, the grid's key figure (the aim's
        figure of each of your maneuvers against each of theirs, your mix beside each
        name), the aims and Hide. Hidden: not asked, so not sent."""
        told = p.get("advice") if isinstance(p.get("advice"), dict) else None
        if not self.advise:
            return (h("div", {"class": "row seat-advice-toggle"},
                      button("Show advice", "join:advise", "on", cls="btn ghost small", aria_pressed="false",
                             data_focus="seat-advise")),
                    None)
        aims = h("div", {"class": "seat-aims", "role": "radiogroup", "aria-label": "Aim"},
                 [button(ai.AIM_NAMES[a].capitalize(), "join:aim", a, cls=["btn small", self.aim == a and "on"],
                         role="radio", aria_checked="true" if self.aim == a else "false") for a in ai.AIMS])
        hide = h("div", {"class": "row"}, button("Hide advice", "join:advise", "off", cls="btn ghost small",
                                                 aria_pressed="true"))
        if told is None or told.get("aim") != self.aim:
            return (h("p", {"class": "muted seat-reco", "role": "status", "data-testid": "seat-reco",
                            "aria-busy": "true", "tabindex": "-1", "data-focus": "seat-reco"},
                      "The staff officer is working out the odds…"),
                    h("section", {"class": "seat-advice", "data-testid": "seat-advice", "aria-busy": "true"},
                      aims, hide))
        return (h("p", {"class": "seat-reco", "data-testid": "seat-reco", "role": "status", "tabindex": "-1",
                        "data-focus": "seat-reco"},
                  h("strong", {}, _text(told.get("recommendation"), 200)), " (HR-AI-13)"),
                h("section", {"class": "seat-advice", "data-testid": "seat-advice",
                              "aria-label": "Your staff officer's advice"},
                  h("p", {"class": "small seat-outlook"}, _text(told.get("outlook"), 240)),
                  _advice_grid(told, self.aim), aims, hide))

    def _seat_panel(self, say: str, refused, *body):
        return h("section", {"class": "panel seat-hand", "data-testid": "seat-hand", "data-position": str(self.position),
                             "data-asked": "true" if self.asked is not None else "false",
                             "aria-label": f"{self.label or 'Your'} hand"},
                 h("p", {"class": "seat-say", "role": "status"}, "Sent: waiting for the tablet…"
                   if self.asked is not None else say), refused, *body)

    def _campaign_hand(self, p: dict, live: bool, refused):
        """The campaign player's own cards, best hand and treaty odds (CMP-7, CMP-8), and the
        spoils of a battle it won (CMP-4): the stake, or a pool card (with the stake too after
        a decisive victory), each one tap."""
        cards = _cards(p.get("cards"))
        if p.get("cards") is None:
            return self._own_deck(p, live, refused)
        spoils = p.get("spoils") if isinstance(p.get("spoils"), dict) else None
        best = p.get("best") if isinstance(p.get("best"), dict) else None
        lines = []
        if best is not None and isinstance(best.get("name"), str):
            lines.append(h("p", {"data-testid": "seat-best"}, "Your best hand: ", h("strong", {}, best["name"][:60])))
        odds = [o for o in p.get("odds") or [] if isinstance(o, dict) and isinstance(o.get("hand"), str)
                and isinstance(o.get("chance"), (int, float))]
        if odds:
            lines.append(h("p", {"class": "muted small", "data-testid": "seat-odds"}, "If the table came now: ",
                           "; ".join(f"{o['hand'][:30]} {percent(float(o['chance']))}" for o in odds[:10])))
        take = []
        say = "Your cards."
        if spoils is not None:
            both = spoils.get("both") is True
            say = ("You won decisively: take the stake and one pool card (CMP-4)." if both else
                   "You won: take the loser's stake or one pool card (CMP-4).")
            stake = _cards([spoils.get("stake")]) if spoils.get("stake") is not None else []
            if stake:
                take.append(card_button(stake[0], "join:take", "stake", "playable", size="pick",
                                        label=f"Take the stake, the {stake[0].name}", disabled=not live))
            for card in _cards(spoils.get("pool")):
                take.append(card_button(card, "join:take", str(card), "playable", size="pick",
                                        label=f"Take the {card.name}" + (" and the stake" if both else ""),
                                        disabled=not live))
            self.both = both
        return self._seat_panel(say, refused,
                                h("div", {"class": "seat-cards", "role": "group", "aria-label": "Spoils",
                                          "data-testid": "seat-spoils"}, take) if take else None,
                                h("div", {"class": "hand seat-cards", "role": "group", "aria-label": "Your cards",
                                          "data-testid": "seat-cards"}, [card_view(c, "pick") for c in cards]),
                                lines)

    def _own_deck(self, p: dict, live: bool, refused):
        """The players' own deck (issue 18): the hand is in the player's fingers and the app
        never knows it, so the phone shows what the table needs of this player now — at the
        negotiating table, its own cards laid down and the cards drawn there (CMP-7, CMP-9),
        entered on the phone with the tablet's 52-card picker and its checks (each card
        once, the cards seen in this hand marked); else what to do at the table."""
        st = self._table().session.state
        me = p.get("player")
        if st is None or me not in (0, 1) or isinstance(me, bool):
            return self._seat_panel("Waiting for the tablet.", refused)
        if "lay" not in (p.get("may") or ()):
            if st.phase == "exhausted":
                say = (f"At the negotiating table {st.name(len(st.laid))} lays the cards down first, on the "
                       "tablet or their phone (CMP-7); then it is your turn here.")
            elif st.phase == "spoils" and st.pending is not None and st.pending[0] == me:
                say = "You won: take your spoils on the tablet (CMP-4)."
            else:
                say = ("The players' own deck: your cards are in your hand, not in the app. Play them at the "
                       "table; the tablet records what is turned up.")
            return self._seat_panel(say, refused)
        return self._seat_panel(*self._lay_form(st, me, live, refused))

    def _lay_target(self, st, me: int):
        """What the next card tapped is: ("hand" | "drawn", the cards chosen so far), or None
        when the entry is whole (CMP-7: all the cards held, then the cards drawn)."""
        known = [str(c) for c in st.known[me]]
        chosen = self.lay_hand + known + self.lay_drawn
        if len(self.lay_hand) < st.counts[me] - len(known):
            return "hand", chosen
        if len(self.lay_drawn) < cmp.table_draws(st, me):
            return "drawn", chosen
        return None

    def _lay_form(self, st, me: int, live: bool, refused):
        known = {str(c) for c in st.known[me]}
        draws = cmp.table_draws(st, me)
        count = st.counts[me]
        target = self._lay_target(st, me)
        chosen = set(self.lay_hand) | set(self.lay_drawn)
        laid = [*sorted(known), *self.lay_hand]
        say = (f"Lay down your {count} cards" + (f" and draw {draws} from the deck" if draws else "")
               + (" (CMP-7, CMP-9)" if st.dummy and me == 1 else " (CMP-7)")
               + (": tap each one, then each card drawn." if draws else ": tap each one."))

        def states(card):
            token = str(card)
            if token in chosen or token in known:
                return ("selected", "drawn" if token in self.lay_drawn else "")
            if target is None:
                return ()
            return () if cmp.can_enter(st, target[0], card, me, target[1]) else ("blocked",)

        def label(card):
            token = str(card)
            if token in known:
                return f"{card.name}: seen in your hand"
            return f"{card.name}: entered, tap to take it back" if token in chosen else card.name

        slots = h("p", {"class": "small seat-lay-slots", "data-testid": "seat-lay-slots"},
                  h("strong", {}, f"Your cards {len(laid)} of {count}: "), " ".join(laid) or "—",
                  [h("br", {}), h("strong", {}, f"Drawn {len(self.lay_drawn)} of {draws}: "),
                   " ".join(self.lay_drawn) or "—"] if draws else None)
        controls = h("div", {"class": "row seat-lay-controls"},
                     button("Lay them down", "join:lay", cls="btn primary", disabled=not live or target is not None),
                     button("Clear", "join:lay-clear", cls="btn", disabled=not live or not chosen))
        # One suit at a time (the tablet's picker, web/parts/cards.py, for that suit): 13
        # cards of 44 px and more fit a phone's width in three rows, the four suits above.
        suit = next((x for x in Suit if x.letter == self.lay_suit), Suit.SPADES)
        tabs = []
        for x in Suit:
            mine = sum(1 for t in chosen | known if t.endswith(x.letter))
            tabs.append(button([suit_mark(x), h("span", {"class": "small"}, f" {mine}" if mine else "")],
                               "join:lay-suit", x.letter, cls=["btn", "seat-suit", x == suit and "on"],
                               aria_pressed="true" if x == suit else "false",
                               aria_label=f"{x.name.capitalize()}" + (f", {mine} chosen" if mine else "")))
        picker = h("div", {"class": "seat-lay", "data-testid": "seat-lay"},
                   h("div", {"class": "seat-suits", "role": "group", "aria-label": "Suit"}, tabs),
                   card_picker("join:lay-pick", states, labels=label, size="mini", grid="seat-lay", suits=(suit,)))
        return say, refused, slots, picker, controls

    def _lay_tap(self, arg) -> None:
        """A card tapped in the lay entry: taken back when chosen, else entered where it goes
        next (the hand, then the cards drawn) when the tablet's own check allows it (CMP-7)."""
        st = self._table().session.state
        me = (self.private or {}).get("player")
        if st is None or me not in (0, 1) or not isinstance(arg, str) or len(arg) > 3:
            return
        if arg in self.lay_hand or arg in self.lay_drawn:
            self.lay_hand = [c for c in self.lay_hand if c != arg]
            self.lay_drawn = [c for c in self.lay_drawn if c != arg]
            return
        target = self._lay_target(st, me)
        try:
            allowed = target is not None and cmp.can_enter(st, target[0], arg, me, target[1])
        except ValueError:
            return
        if allowed:
            (self.lay_hand if target[0] == "hand" else self.lay_drawn).append(arg)

    def _conflict_hand(self, p: dict, live: bool, refused):
        """The seat's own hand (Organizations In Conflict, OIC-8, OIC-11, OIC-14): the cards it
        may play tappable while its side is to play; its discard while the discard phase lasts."""
        hand = _cards(p.get("hand"))
        playable = {str(c) for c in _cards(p.get("playable"))}
        discarding = p.get("may_discard") is True
        if p.get("hand") is None:  # real cards: the hand is in the player's fingers
            return self._seat_panel("This table plays with real cards: play them on the table and enter them on "
                                    "the tablet.", refused)
        if discarding:
            say = "Choose the cards to discard (OIC-8), or keep them all."
        elif p.get("to_play") is True:
            say = "Your side is to play: tap a highlighted card." if playable else "None of your cards can be played."
        elif p.get("phase") == "discard":
            say = "Discarded: waiting for the other players."
        else:
            say = "Your hand. The other side is to play." if p.get("phase") == "play" else "Your hand."
        tiles = []
        for card in hand:
            token = str(card)
            if discarding:
                chosen = token in self.selected
                tiles.append(card_button(card, "join:select", token, "selected" if chosen else "", size="pick",
                                         pressed=chosen, disabled=not live))
            elif token in playable:
                tiles.append(card_button(card, "join:play", token, "playable", size="pick",
                                         label=f"Play the {card.name}", disabled=not live))
            else:
                tiles.append(card_button(card, "", token, "blocked", size="pick", disabled=True))
        controls = []
        if discarding:
            n = len(self.selected)
            controls.append(button(f"Discard {n} card{'s' if n != 1 else ''}" if n else "Keep all cards",
                                   "join:discard", cls="btn primary", disabled=not live))
        elif p.get("may_pass") is True:
            controls.append(button("Cannot play — end the round" if not playable else "Pass — end the round",
                                   "join:pass", cls="btn", disabled=not live))
        return self._seat_panel(say, refused,
                                h("div", {"class": "hand seat-cards", "role": "group", "aria-label": "Your cards",
                                          "data-testid": "seat-cards"}, tiles),
                                h("div", {"class": "row"}, controls) if controls else None)

    # ------------------------------------------------------------ a CONSIM player character's seat
    def _combatant_turn(self, p: dict, live: bool, refused):
        """A player character's own turn on its phone (CS-5 … CS-13, HR-SEAT-1): whose turn it
        is, in the words the players' view uses; its cards still to act; and, when its
        combatant acts, the shot (a target among those in the players' sight — the tablet
        never sends the Observer's hidden ones — the fire, the cover, the odds), a long
        action, done; its treatment or first aid when it may ask. Each is one tap."""
        from engine import consim as cs
        from web.parts.chances import whole_percent
        from web.views.consim.marks import COVER_LABEL

        game = self._table().session.game
        if game is None:
            return None
        st = games.replay(game)  # the spectator copy: what the players may see
        at = p.get("at")
        me = st.combatants[at] if isinstance(at, int) and not isinstance(at, bool) and 0 <= at < len(
            st.combatants) else None
        may = [m for m in p.get("may") or [] if isinstance(m, str)] if isinstance(p.get("may"), list) else []
        acting = p.get("acting") is True and me is not None
        if self.shot.get("n") != self.position:  # the table moved on: choose afresh
            self.shot = {"n": self.position, "mode": "aimed", "cover": cs.Cover.NONE.value, "targets": [],
                         "long": None}
        shot = self.shot
        cards = _cards(p.get("cards"))
        say = f"Your turn: {me.name} acts on the {cards[0].label} (CS-5)." if acting and cards else cs.status(st)
        head = []
        if not cards and me is not None and p.get("phase") == "round":
            head.append(h("p", {"class": "muted small", "data-testid": "seat-no-card"},
                          f"{me.name} has no card left to act on this round (CS-5)."))
        if cards:
            picking = shot["long"] is not None
            tiles = [card_button(c, "join:ini-long-card", str(c), "selected" if n == 0 or str(c) in shot["long"]
                                 else "", size="pick", pressed=n == 0 or str(c) in shot["long"],
                                 disabled=not live or n == 0,
                                 label=f"Spend the {c.name}" + (" (this turn's card)" if n == 0 else ""))
                     if picking else card_view(c, "pick", label=f"Your {c.name}") for n, c in enumerate(cards)]
            head.append(h("div", {"class": "hand seat-cards ini-seat-cards", "role": "group",
                                  "aria-label": "Your cards this round", "data-testid": "seat-cards"}, tiles))
        moves = []
        if acting and shot["long"] is not None:
            spent = sorted({str(cards[0]), *shot["long"]}) if cards else []
            moves.append(h("p", {"class": "small"}, "A long action spends this turn's card and the ones you tap; "
                             "it happens at the lowest one spent (CS-5)."))
            moves.append(h("div", {"class": "row ini-seat-moves"},
                           button(f"Spend {len(spent)} cards", "join:ini-long-ok", cls="btn primary",
                                  disabled=not live or len(spent) < 2),
                           button("Cancel", "join:ini-long", cls="btn ghost", disabled=not live)))
        elif acting:
            targets = [t for t in p.get("targets") or [] if isinstance(t, dict) and isinstance(t.get("at"), int)
                       and isinstance(t.get("name"), str)] if isinstance(p.get("targets"), list) else []
            foes = [t for t in targets if t.get("foe") is True]
            friends = [t for t in targets if t.get("foe") is not True]
            area = shot["mode"] == "suppressive" and (me.has(cs.Trait.AUTOMATIC) or me.has(cs.Trait.SEMI_AUTOMATIC))
            chosen = [t for t in shot["targets"] if any(x["at"] == t for x in targets)]

            def target(t):
                on = t["at"] in chosen
                return button(t["name"][:40], "join:ini-target", t["at"], cls=["btn", on and "primary"],
                              aria_pressed="true" if on else "false")

            if p.get("own_dice") is True:  # HR-CS-7: the dice the shot needs are entered on the tablet
                moves.append(h("p", {"class": "small", "data-testid": "seat-own-dice"},
                               "Your own dice (HR-CS-7): to shoot, roll at the table and the Observer enters the "
                               "shot on the tablet."))
            elif "shoot" in may:
                semi = ("hit" if shot["mode"] == "aimed" else "damage") if me.has(cs.Trait.SEMI_AUTOMATIC) else None
                shot["semi"] = semi  # as the tablet's shot panel chooses it (CS-11)
                odds = cs.shot_odds(me, shot["mode"], shot["cover"], semi)
                moves += [
                    h("div", {"class": "seat-choice", "role": "radiogroup", "aria-label": "Kind of fire"},
                      [button(label, "join:ini-mode", value, cls=["btn", shot["mode"] == value and "primary"],
                              role="radio", aria_checked="true" if shot["mode"] == value else "false",
                              disabled=not live)
                       for value, label in (("aimed", "Aimed (CS-8)"), ("suppressive", "Suppressive (CS-9)"))]),
                    h("div", {"class": "seat-targets", "role": "group", "data-testid": "seat-targets",
                              "aria-label": "Targets" if area else "Target"},
                      [target(t) for t in foes] if foes else
                      h("p", {"class": "muted small"}, "No one of another side is in sight.")),
                    h("div", {"class": "seat-choice", "role": "radiogroup", "aria-label": "The target's cover (CS-8)"},
                      [button(COVER_LABEL[c], "join:ini-cover", c.value, cls=["btn", shot["cover"] == c.value
                                                                             and "primary"], role="radio",
                              aria_checked="true" if shot["cover"] == c.value else "false", disabled=not live)
                       for c in cs.Cover]),
                    h("p", {"class": "small", "data-testid": "seat-odds"},
                      h("strong", {}, f"Hit {whole_percent(odds.hit)}"),
                      f" · d10 + {odds.hit_modifier} ≥ {odds.needed} (CS-8)" if shot["mode"] == "aimed" else
                      " · a natural 10 (CS-9)"),
                    h("details", {"class": "ini-friends"}, h("summary", {}, "Fire at own side"),
                      h("div", {"class": "seat-targets"}, [target(t) for t in friends])) if friends else None]
            moves.append(h("div", {"class": "row ini-seat-moves"},
                           button(f"Fire at {', '.join(t['name'][:20] for t in targets if t['at'] in chosen)}"
                                  if chosen else "Fire", "join:ini-fire", cls="btn primary",
                                  disabled=not live or not chosen or "shoot" not in may or p.get("own_dice") is True),
                           button("Long action", "join:ini-long", cls="btn",
                                  disabled=not live or "long" not in may or len(cards) < 2),
                           button("Done ▸", "join:ini-next", cls="btn", disabled=not live or "next" not in may,
                                  aria_label="Done: pass this card (CS-5)")))
        care = [button(label, f"join:ini-{kind}", cls="btn", disabled=not live)
                for kind, label in (("treat", "Treatment (CS-13)"), ("first_aid", "First aid (CS-13)")) if kind in may]
        return self._seat_panel(say, refused, *head, *moves,
                                h("div", {"class": "row ini-seat-moves"}, care) if care else None)

    def _combatant_tap(self, name: str, arg) -> None:
        """A CONSIM seat's tap: a choice kept on this phone, or a move asked of the tablet
        (a shot names its targets by their lines in the copy, ``"lines"``)."""
        shot, p = self.shot, self.private if isinstance(self.private, dict) else {}
        if not shot:
            return
        if name == "mode" and arg in ("aimed", "suppressive"):
            shot["mode"] = arg
            shot["targets"] = shot["targets"][:1] if arg == "aimed" else shot["targets"]
        elif name == "cover" and arg in ("none", "cover", "good"):
            shot["cover"] = arg
        elif name == "target" and isinstance(arg, str) and arg.isdigit():
            at = int(arg)
            if at in shot["targets"]:
                shot["targets"].remove(at)
            elif shot["mode"] == "suppressive":
                shot["targets"].append(at)  # area fire (CS-9): the referee says if this weapon may
            else:
                shot["targets"] = [at]
        elif name == "long":
            shot["long"] = None if shot["long"] is not None else set()
        elif name == "long-card" and isinstance(arg, str) and shot["long"] is not None:
            shot["long"] ^= {arg}
        elif name == "long-ok" and shot["long"] and isinstance(p.get("cards"), list) and p["cards"]:
            self._ask({"type": "long", "cards": sorted({str(p["cards"][0]), *shot["long"]})})
        elif name == "fire" and shot["targets"]:
            action = {"type": "shoot", "lines": list(shot["targets"]), "mode": shot["mode"], "cover": shot["cover"]}
            if shot.get("semi"):
                action["semi"] = shot["semi"]
            self._ask(action)
        elif name in ("next", "treat", "first_aid"):
            self._ask({"type": name})

    def _has_view(self) -> bool:
        view = self.tables.get(self.kind) if self.kind else None
        return view is not None and view.session.game is not None

    def _answer_view(self):
        if self.status == "answering":
            return h("p", {"class": "muted", "role": "status"}, "Preparing this phone's answer…")
        if self.status != "answered":
            return None
        rerender = lambda: self.app.later(0, self.app.render)  # noqa: E731
        return h("div", {"class": "join-answer"},
                 qr.code_figure(self.answer, "QR code of this phone's answer", "join-answer-qr", rerender, brief=True),
                 h("p", {}, "Show this code to the tablet (“Scan the phone's code”), or copy the text and paste it "
                            "there (“Paste the phone's answer”)."),
                 h("div", {"class": "row"},
                   h("label", {"class": "visually-hidden", "for": "join-answer-text"}, "This phone's answer"),
                   h("textarea", {"id": "join-answer-text", "readonly": True, "rows": "1", "value": self.answer,
                                  "data-testid": "join-answer", "class": "share-url"}),
                   button("Copy", "join:copy", cls="btn primary", aria_label="Copy the answer")))

    def handle(self, action: str, arg, el, event) -> None:
        if action == "join:copy":
            platform.copy_text(self.answer)
            self.app.toast("Copied the answer: paste it on the tablet.")
            return
        if action == "join:play" and isinstance(arg, str):
            self._ask({"type": "play", "card": arg})
            return
        if action == "join:pass":
            self._ask({"type": "pass"})
            return
        if action == "join:select" and isinstance(arg, str):
            self.selected = [c for c in self.selected if c != arg] if arg in self.selected else [*self.selected, arg]
            return
        if action == "join:take" and isinstance(arg, str):  # CMP-4, as the tablet's own spoils take it
            self._ask({"type": "take", "stake": True, "pool": None} if arg == "stake" else
                      {"type": "take", "stake": self.both, "pool": arg})
            return
        if self.kind == "battle" and self._general_tap(action, arg):
            return
        if self.kind == "campaign" and action.startswith("join:lay"):  # CMP-7, the players' own deck
            if action == "join:lay-suit" and arg in ("S", "H", "D", "C"):
                self.lay_suit = arg
            elif action == "join:lay-pick" and getattr(event, "detail", 1) != 2:  # a double tap picks once
                self._lay_tap(arg)
            elif action == "join:lay-clear":
                self.lay_hand, self.lay_drawn = [], []
            elif action == "join:lay":
                st, me = self._table().session.state, (self.private or {}).get("player")
                if st is None or me not in (0, 1):
                    return
                known = [str(c) for c in st.known[me]]
                self._ask({"type": "lay", "hand": known + self.lay_hand, "drawn": list(self.lay_drawn)})
            return
        if action.startswith("join:ini-"):
            self._combatant_tap(action.removeprefix("join:ini-"), arg)
            return
        if action == "join:discard":
            self._ask({"type": "discard", "cards": list(self.selected)})
            return
        view = self.tables.get(self.kind) if self.kind else None
        if view is not None and not action.startswith(("session:", "file:")):
            view.handle(action, arg, el, event)  # the read-only view's own toggles; no move is made

    def _general_tap(self, action: str, arg) -> bool:
        """A battle general's taps (AI-7, AI-16, AI-15, HR-AI-13): True when ``action`` was one."""
        if action == "join:maneuver" and arg in ai.MANEUVERS:
            if arg != self.maneuver:
                self.maneuver, self.stratagems = arg, []
            return True
        if action == "join:strat" and isinstance(arg, str) and arg in ai.STRATAGEM_BY_KEY:
            self.stratagems = [k for k in self.stratagems if k != arg] if arg in self.stratagems else [
                *self.stratagems, arg]
            return True
        if action == "join:declare" and self.maneuver in ai.MANEUVERS:
            bid = {"type": "bid", "maneuver": self.maneuver, "stratagems": list(self.stratagems)}
            if self.maneuver == "withdraw" and self.rearguard is not None:
                bid["rearguard"] = self.rearguard
            self._ask(bid)
            self.app.focus_to("seat-bid")
            return True
        if action in ("join:counter", "join:leave"):
            self._ask({"type": "counter_attack" if action == "join:counter" else "leave"})
            return True
        if action == "join:advise" and arg in ("on", "off"):
            self.advise = arg == "on"
            self._ask_advice()
            self.app.focus_to("seat-reco" if self.advise else "seat-advise")  # in place: nothing scrolls
            return True
        if action == "join:aim" and arg in ai.AIMS:
            self.aim = arg
            self._ask_advice()
            return True
        return False

    def _ask_advice(self, again: bool = False) -> None:
        """Tell the tablet whether to send this general's advice, for which aim (HR-AI-13): only
        while "Show advice" is on and the general has a bid to make — once its bid is sealed
        the advice is asked no more (hidden, or not needed, means not sent)."""
        may = (self.private or {}).get("may") if isinstance(self.private, dict) else None
        want = self.aim if self.advise and isinstance(may, list) and "bid" in may else ""
        if want == self.advice_asked and not again:
            return
        token = _token(self.table, self.seat)
        if self.status == "connected" and token is not None and wire.send(
                self.peer, seatmsg.advice(self.seat, token, self.position, want)):
            self.advice_asked = want

    def field(self, name: str, value: str, live: bool, row: str | None = None) -> bool:
        if name == "join:rearguard" and self.kind == "battle":  # AI-2: a Withdraw's rearguard
            self.rearguard = int(value) if isinstance(value, str) and value.isdigit() and len(value) < 4 else None
            return True
        return False


def _text(value, limit: int) -> str:
    """A sentence of a seat's view, read as hostile input: text, cut to ``limit``."""
    return value[:limit] if isinstance(value, str) else ""


#: The enemy's maneuvers as a phone's grid heads them (AI-2), short enough for 360 px.
SHORT_MANEUVER = {"withdraw": "Wdr", "defend": "Def", "block": "Blk", "skirmish": "Skm", "attack": "Att",
                  "shock": "Shk"}


def _advice_grid(told: dict, aim: str):
    """The staff officer's grid as a phone shows it (HR-AI-13): a row for each of your
    bids with its share of the recommended mix, a column for each enemy maneuver, each
    square the aim's figure (net casualties a week, or the chance to get away or to hold),
    green when better for you than the advice at worst, red when worse — the tablet's
    colours (web/views/battle/bids.py). Read as hostile input: a bad square is left blank."""
    own = [o for o in told.get("own") or [] if isinstance(o, dict)][:6]
    enemy = [o for o in told.get("enemy") or [] if isinstance(o, dict)][:6]
    grid = told.get("grid") if isinstance(told.get("grid"), list) else []
    mix = [float(x) for x in told.get("mix") or [] if isinstance(x, (int, float)) and not isinstance(x, bool)]
    value = told.get("value") if isinstance(told.get("value"), (int, float)) else 0.0
    mix_shown = shares(mix) if len(mix) == len(own) and mix else [""] * len(own)
    heads = [h("th", {"scope": "col", "title": ai.MANEUVER_NAMES.get(_maneuver(o), "")},
               SHORT_MANEUVER.get(_maneuver(o), "?")) for o in enemy]
    rows = []
    for i, mine in enumerate(own):
        row = grid[i] if i < len(grid) and isinstance(grid[i], list) else []
        cells = []
        for j in range(len(enemy)):
            cell = row[j] if j < len(row) and isinstance(row[j], dict) else {}
            payoff = cell.get("payoff")
            if not isinstance(payoff, (int, float)) or isinstance(payoff, bool):
                cells.append(h("td", {}, ""))
                continue
            tone = "good" if payoff > value + 1e-9 else "bad" if payoff < value - 1e-9 else "even"
            figure = (f"{payoff:+.1f}".replace("+0.0", "0.0").replace("-0.0", "0.0") if aim == "net"
                      else whole_percent(min(1.0, max(0.0, payoff))))
            cells.append(h("td", {"class": ["adv-cell", tone]}, figure))
        share = mix_shown[i] if mix and i < len(mix) and mix[i] > 0 else ""
        rows.append(h("tr", {"class": [share and "on"]},
                      h("th", {"scope": "row"}, ai.MANEUVER_NAMES.get(_maneuver(mine), "?"),
                        h("span", {"class": "seat-mix"}, f" {share}") if share else None), cells))
    legend = {"net": "casualties a week, inflicted minus taken", "away": "your chance of getting away",
              "hold": "your chance of holding the hex"}[aim]
    return h("div", {"class": "seat-grid-wrap"},
             h("table", {"class": "seat-grid", "data-testid": "seat-grid"},
               h("caption", {}, f"You ↓ · they →: {legend}; your mix by the name"),
               h("thead", {}, h("tr", {}, h("th", {"scope": "col"}, ""), heads)), h("tbody", {}, rows)))


def _maneuver(bid: dict) -> str:
    key = bid.get("key") if isinstance(bid.get("key"), str) else ""
    return key.split("+", 1)[0]


def _kept() -> dict | None:
    """The seat this tab joined, read as hostile input (storage can hold anything)."""
    try:
        from js import sessionStorage  # type: ignore[import-not-found]

        raw = platform.text(sessionStorage.getItem(KEPT_KEY))
    except Exception:
        return None
    if not raw or len(raw) > seatmsg.MAX_TABLE_MESSAGE or codec.json_depth(raw, limit=2) > 1:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if (not isinstance(data, dict) or set(data) != {"t", "s", "k", "label", "g"} or data["t"] not in BY_KIND
            or not _seat_id(data["s"]) or not _words(data["k"]) or not isinstance(data["label"], str)
            or len(data["label"]) > 80 or not (data["g"] is None or isinstance(data["g"], str))):
        return None
    return data


def _token(table: str, seat: str) -> str | None:
    try:
        from js import localStorage  # type: ignore[import-not-found]

        value = platform.text(localStorage.getItem(TOKEN_KEY.format(table=table, seat=seat)))
    except Exception:
        return None
    return value if value is not None and seatmsg.is_token(value) else None


def _set_token(table: str, seat: str, token: str) -> None:
    try:
        from js import localStorage  # type: ignore[import-not-found]

        localStorage.setItem(TOKEN_KEY.format(table=table, seat=seat), token)
    except Exception:
        pass
