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

from engine import codec
from engine import game as games
from engine import seats as seating
from engine.ascension.tables import MANEUVER_NAMES, MANEUVERS
from engine.cards import Card, CardError
from engine.registry import BY_KIND
from web import platform, qr, seatmsg, wire
from web.dom import button, h
from web.parts.cards import card_button, card_view
from web.parts.chances import percent
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
        self.position, self.asked = max(0, view["position"]), None
        self.private = view["private"]
        if isinstance(self.private.get("bid"), dict):
            self.maneuver = None  # declared and sealed (AI-7): next week's choice starts afresh
        if view["label"]:
            self.label = view["label"][:80]
        self._table().session.show(game)
        self._keep(codec.encode_share(game))  # a reload shows the public table, never the hand

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
        """A battle general's blind bid on its own phone (AI-7): a maneuver chosen, then
        declared; sealed until the tablet reveals both bids together. The other army's bid
        is never sent here (hidden means absent)."""
        sealed = p.get("bid") if isinstance(p.get("bid"), dict) else None
        may = p.get("may") if isinstance(p.get("may"), list) else []
        if sealed is not None:
            name = sealed.get("name") if isinstance(sealed.get("name"), str) else ""
            return self._seat_panel("Your bid is sealed: the tablet reveals both bids together (AI-7).", refused,
                                    h("p", {"data-testid": "seat-bid"}, "Your sealed bid: ", h("strong", {}, name[:60])))
        if "bid" not in may:
            return self._seat_panel("Your general waits: the tablet plays the week's steps." if p.get("phase") != "bid"
                                    else "Waiting for the tablet.", refused)
        chosen = self.maneuver if self.maneuver in MANEUVERS else None
        picks = [button(MANEUVER_NAMES[m], "join:maneuver", m, cls=["btn", "maneuver", m == chosen and "primary"],
                        aria_pressed="true" if m == chosen else "false", disabled=not live) for m in MANEUVERS]
        declare = button(f"Declare {MANEUVER_NAMES[chosen]}" if chosen else "Choose a maneuver", "join:declare",
                         cls="btn primary", disabled=not live or chosen is None)
        return self._seat_panel("Choose your maneuver in secret, then declare it (AI-7).", refused,
                                h("div", {"class": "seat-maneuvers", "role": "group", "aria-label": "Maneuvers",
                                          "data-testid": "seat-maneuvers"}, picks),
                                h("div", {"class": "row"}, declare))

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
            return self._seat_panel("The players' own deck: your cards are in your hand, not in the app.", refused)
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
        if action == "join:maneuver" and arg in MANEUVERS:
            self.maneuver = arg
            return
        if action == "join:declare" and self.maneuver in MANEUVERS:
            self._ask({"type": "bid", "maneuver": self.maneuver})
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

    def field(self, name: str, value: str, live: bool, row: str | None = None) -> bool:
        return False


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
