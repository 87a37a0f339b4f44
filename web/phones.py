"""Players' phones on the tablet (issue 32): pairing, the live watch seat, the list of
phones and what they may send.

The tablet keeps the only game. "Players' phones…" (a drawer of the session, beside
Share) invites a phone: the tablet makes a WebRTC offer with no ICE server
(static/wire.js), shows it as a link to this same site whose fragment carries the offer
(``#/join?…&o=<deflate-raw, base64url>``), as a QR code and as text; the phone opens
it (web/views/join.py) and shows its answer, which the tablet scans ("Scan the phone's
code") or takes pasted ("Paste the phone's answer"). When no connection forms in
:data:`CONNECT_SECONDS`, the drawer says so plainly and the table is as it was.

Each seat of :func:`engine.seats.seats` can be invited: every player of a side people
play (and the campaign's players, the battle's generals …) and any number of watchers.
Once paired, a watch seat's phone gets the spectator copy on connect and after every
change of the table (:meth:`Phones.changed`); a player's phone gets its seat's view
(:func:`engine.seats.seat_view`: the spectator copy plus its own hand, nothing else).
Everything a phone sends is read by :func:`web.seatmsg.read_seat_message` (a size cap
and the engine's exact shape) behind a :class:`engine.seats.RateGate`; a move it asks
for is checked by :func:`engine.seats.check_seat_action` (its own seat only, on the
view it saw) and taken through the session like a tap on the tablet (undo, history,
autosave), or refused back to that phone with the clause. A refused message changes
nothing and is said on the tablet (HR-SEAT-1 … 4).

The paired seats are kept beside the game's autosave (:data:`KEPT_KEY`): after a tablet
reload the drawer lists them as away, and each phone rejoins with one new code,
presenting the secret it kept.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from engine import codec
from engine import game as games
from engine import seats as seating
from web import platform, qr, seatmsg, wire
from web.dom import button, h
from web.store import StoreError


def _table_id(value) -> bool:
    """Whether ``value`` is a table id this tablet makes (:attr:`Phones.table_id`: 12 hex digits)."""
    return isinstance(value, str) and len(value) == 12 and all(c in "0123456789abcdef" for c in value)

#: Seconds the tablet waits, once it has the phone's answer, for the connection to form.
CONNECT_SECONDS = 15

#: What the tablet says when no connection formed in time (issue 32).
NO_CONNECTION = ("No connection formed in 15 seconds. Are the tablet and the phone on the same Wi-Fi? A guest, "
                 "hotel or office network often keeps devices apart (it isolates them): try a home network or a "
                 "phone's hotspot. The table is exactly as it was.")

#: How often a phone's refused messages are said (ms): a flood is said once, not a hundred times.
SAY_EVERY_MS = 5_000

#: localStorage, per save slot: the paired seats of that game (the tablet's name for its
#: seats on the phones and each paired seat's secret), so that a tablet reload keeps the
#: seats and each phone rejoins with one new code (issue 32). A line of JSON:
#: ``{"k": <table id>, "seats": [{"n": <number>, "seat": <seat id>, "token": <secret>}]}``.
KEPT_KEY = "ct:v1:phones:{slot}"


@dataclass
class Device:
    """One phone (or one invitation) for a seat. ``status``: "inviting" (the offer is being
    made), "invited" (its code is shown), "connecting" (the answer is in), "connected",
    "away" (it was connected and the connection went), "failed" (no connection formed)."""

    number: int
    seat: str
    token: str
    name: str = ""  # the seat's label at this table ("Anna (North)"); a watcher is numbered
    status: str = "inviting"
    peer: int | None = None
    link: str = ""
    paired: bool = False  # it has been connected once: the seat's secret is on that phone
    refused: int = 0
    advice: str = ""  # the aim this seat's phone asked its advice for (HR-AI-13); "": none is sent
    said_at: float = -1e12
    limit: seating.RateGate = field(default_factory=seatmsg.rate_gate)

    @property
    def label(self) -> str:
        return f"Watcher {self.number}" if self.seat == seatmsg.WATCH else (self.name or self.seat)

    @property
    def watch(self) -> bool:
        return self.seat == seatmsg.WATCH


class Phones:
    """The phones of one table (one :class:`web.session.Session`)."""

    def __init__(self, session) -> None:
        self.session = session
        self.app = session.app
        self.devices: list[Device] = []
        self.table_id = ""  # this tablet page's name for its seats' secrets on the phones
        self.answer_text = ""
        self.problem: str | None = None  # the drawer's last line about what went wrong
        self.sent = 0
        self.scanning: int | None = None  # the device whose answer the camera is reading
        self._numbers = 0
        self.kept_slot: str | None = None  # the save whose seats these are (KEPT_KEY)
        self._restore()

    # ------------------------------------------------------------ kept seats (a tablet reload)
    def _restore(self) -> None:
        """The seats paired with the open game before this page loaded (:data:`KEPT_KEY`):
        each is listed as away, its secret kept, so its phone rejoins with one new code and
        presents the secret it was given; another phone still is refused (HR-SEAT-2). A
        kept value that is not this app's shape is ignored: the phones then join as new."""
        slot, game = self.session.slot, self.session.game
        self.kept_slot = slot
        if slot is None or game is None:
            return
        try:
            raw = self.app.store.storage.get(KEPT_KEY.format(slot=slot))
            kept = json.loads(raw) if raw else None
        except (ValueError, TypeError):
            return
        if not isinstance(kept, dict) or not _table_id(kept.get("k")) or not isinstance(kept.get("seats"), list):
            return
        at_table = {one.id: one for one in seating.seats(game)}
        for entry in kept["seats"][:32]:
            if not isinstance(entry, dict):
                continue
            number, seat_id, token = entry.get("n"), entry.get("seat"), entry.get("token")
            if (not isinstance(number, int) or isinstance(number, bool) or not 0 < number < 10_000
                    or seat_id not in at_table or not seatmsg.is_token(token)
                    or any(d.number == number or (d.seat == seat_id and not d.watch) for d in self.devices)):
                continue
            self.devices.append(Device(number, seat_id, token, at_table[seat_id].label, status="away", paired=True))
            self._numbers = max(self._numbers, number)
        if self.devices:
            self.table_id = kept["k"]

    def _keep(self) -> None:
        """Write the paired seats of the open game (:data:`KEPT_KEY`); none: the key goes.
        A full storage only means a reload forgets the seats, and that is said."""
        slot = self.session.slot
        if slot is None or slot != self.kept_slot:
            return
        key = KEPT_KEY.format(slot=slot)
        paired = [{"n": d.number, "seat": d.seat, "token": d.token} for d in self.devices if d.paired]
        try:
            if paired:
                self.app.store.storage.set(key, json.dumps({"k": self.table_id, "seats": paired}))
            else:
                self.app.store.storage.remove(key)
        except StoreError:
            self.problem = ("Browser storage is full, so the paired seats are not kept: after a reload of this "
                            "tablet, invite each phone again.")

    # ------------------------------------------------------------ pairing
    def invite(self, device: Device | None = None, seat_id: str = seatmsg.WATCH) -> None:
        """A new invitation for seat ``seat_id`` (a watcher by default), or (``device``) a new
        code for a phone that is away."""
        if not wire.available():
            self.problem = "This browser cannot connect phones (it has no WebRTC)."
            return
        if not self.table_id:
            self.table_id = wire.secret()[:12]
        if device is None:
            self._numbers += 1
            game = self.session.game
            chosen = next((one for one in seating.seats(game) if one.id == seat_id), None) if game else None
            if chosen is None or (not chosen.watch and any(d.seat == seat_id for d in self.devices)):
                return  # a seat that is not at this table, or already invited: nothing to do
            device = Device(self._numbers, chosen.id, wire.secret(), chosen.label)
            self.devices.append(device)
        else:
            wire.close(device.peer)
            device.peer = None
        device.status, device.link = "inviting", ""
        self.answer_text, self.problem = "", None

        def made(result):
            peer, code = result
            if device not in self.devices or device.status != "inviting":
                wire.close(peer)  # cancelled meanwhile
                return
            device.peer, device.status = peer, "invited"
            device.link = (f"{platform.page_url_without_hash()}#/join?t={self.session.kind}&s={device.seat}"
                           f"&k={self.table_id}&o={code}")
            wire.attach(self.app, peer, lambda kind, text: self._event(device, kind, text))

        def failed(err):
            device.status = "failed"
            self.problem = "The invitation could not be made in this browser. Reload the page and try again."

        wire.run(self.app, wire.offer, made, failed)

    def accept(self, device: Device, text: str) -> None:
        """The phone's answer (pasted or scanned): connect, and give up after 15 s."""
        code = "".join(text.split())
        if device.status not in ("invited", "failed") or device.peer is None:
            return
        if not code:
            self.problem = "Paste the text the phone shows under its code first."
            return
        if len(code) > 8_000 or not all(c.isascii() and (c.isalnum() or c in "-_") for c in code):
            self.problem = "That is not a phone's answer: copy the text under the phone's code, all of it."
            return
        device.status, self.problem = "connecting", None
        peer = device.peer

        def done(_):
            self.answer_text = ""
            self.app.later(CONNECT_SECONDS, lambda: self._timeout(device, peer))

        def failed(err):
            device.status = "invited"
            self.problem = ("That is not the answer to this invitation: open this invitation's code on the phone, "
                            "then scan or paste the answer it shows.")

        wire.run(self.app, lambda: wire.accept(peer, code), done, failed)

    def _timeout(self, device: Device, peer: int | None) -> None:
        if device.peer == peer and device.status == "connecting":
            device.status = "failed"
            self.problem = NO_CONNECTION
            self.app.render()

    # ------------------------------------------------------------ the wire
    def _event(self, device: Device, kind: str, text: str) -> None:
        if kind == "message":
            self._message(device, text)
        elif kind == "bad":
            self._refuse(device, "it was not text, or far too long" if not text.startswith("long:")
                         else f"it was {int(text[5:]):,} characters long (at most {seatmsg.MAX_PHONE_MESSAGE:,})")
        elif kind == "close" or (kind == "state" and text in ("disconnected", "failed", "closed")):
            if device.status == "connected":
                device.status = "away"
                self.app.toast(f"{device.label}'s phone is away. The table plays on; tap Rejoin under "
                               "Players' phones… to bring it back.")
            elif device.status == "connecting" and text == "failed":
                device.status = "failed"
                self.problem = NO_CONNECTION

    def _message(self, device: Device, text: str) -> None:
        """One message from a phone: rate-limited (:class:`engine.seats.RateGate`), read as
        hostile input (:func:`web.seatmsg.read_seat_message`: the size cap, then
        :func:`engine.seats.read_seat_message`), its seat and secret checked, then
        answered. A refused one changes nothing (HR-SEAT-3)."""
        if not device.limit.allow(platform.now_ms() / 1000):
            self._refuse(device, "it sent too many messages at once (the extra ones were ignored)")
            return
        try:
            message = seatmsg.read_seat_message(text)
        except seatmsg.SeatMessageError as err:
            self._refuse(device, str(err))
            return
        if message.seat != device.seat:
            self._refuse(device, f"it spoke for another seat than {device.label}'s (HR-SEAT-1)")
            return
        if device.paired and not seating.seat_token_matches(device.token, message.token):
            self._refuse(device, "its seat key does not match (this seat was paired with another phone)")
            if device.status != "connected":  # a rejoin by another phone: it does not get the seat
                wire.close(device.peer)
                device.peer, device.status = None, "away"
            return
        if message.type == "ping":
            return
        if message.type in ("act", "advice") and device.status != "connected":
            self._refuse(device, "it asked for a move before it said hello" if message.type == "act"
                         else "it asked for advice before it said hello")
            return
        if message.type == "act":
            self._act(device, message)
            return
        if message.type == "advice":
            self._advise(device, message.aim or "")
            return
        wire.send(device.peer, seatmsg.welcome(device.seat, device.label, device.token, self.session.kind))
        if device.status != "connected":  # a repeated hello only gets the view again
            what = ("it shows what a spectator sees, live" if device.watch
                    else "it shows what only that seat may see and takes its moves")
            self.app.toast(f"{device.label}'s phone {'is back' if device.paired else 'is connected'}: {what}.")
            self.problem = None
        first = not device.paired
        device.status, device.paired = "connected", True
        if first:
            self._keep()
        self._send_view(device)

    def _act(self, device: Device, message: seatmsg.SeatMessage) -> None:
        """A move a player's phone asks for: the seat's own, on the view it saw
        (:func:`engine.seats.check_seat_action` with ``seen``), then taken through the
        session exactly as a tap on the tablet (undo, history, autosave, every phone told);
        else refused back to that phone with the clause, and said here."""
        game = self.session.game
        if game is None:
            return
        try:
            move = seating.check_seat_action(game, device.seat, message.action, seen=message.n)
        except seating.SeatRefused as err:
            self._refuse_move(device, err.rule_id, err.message)
            return
        refusal = self.session.try_act(move)
        if refusal is not None:  # the table changed between the check and the move (it does not, today)
            self._refuse_move(device, "HR-SEAT-4", refusal)

    def _advise(self, device: Device, aim: str) -> None:
        """A general's phone asks for its staff officer's advice (HR-AI-13), or no more: from
        now on its seat's view carries it (the tablet computes it, for that seat alone: the
        other general's advice is never in it); an aim the table has not is refused."""
        device.advice = "" if device.watch else aim
        self._send_view(device)

    def _refuse_move(self, device: Device, rule_id: str, message: str) -> None:
        game = self.session.game
        wire.send(device.peer, seatmsg.refused(rule_id, message, game.position if game is not None else 0))
        self._say(device, f"Refused a move from {device.label}'s phone: {rule_id} — {message}. Nothing changed.")

    def _refuse(self, device: Device, why: str) -> None:
        self._say(device, f"Refused a message from {device.label}'s phone: {why}. Nothing changed on the table.")

    def _say(self, device: Device, problem: str) -> None:
        """A refusal, counted and written in the drawer; a toast at most every
        :data:`SAY_EVERY_MS` per phone (a flood is said once, not a hundred times)."""
        device.refused += 1
        now = platform.now_ms()
        self.problem = problem
        if now - device.said_at >= SAY_EVERY_MS:
            device.said_at = now
            self.app.toast(self.problem, "error")

    def changed(self) -> None:
        """The table changed (an action, undo, another game opened): every connected phone
        gets its view at once."""
        for device in self.devices:
            if device.status == "connected":
                self._send_view(device)

    def _send_view(self, device: Device) -> None:
        game = self.session.game
        self.sent += 1
        if device.watch or game is None:  # the watch seat: the spectator copy (hidden means absent)
            payload = None
            if game is not None:
                public = game if games.is_spectator(game) else games.system(self.session.kind).public_game(game)
                payload = codec.encode_share(public)
            text = seatmsg.view(self.session.kind, payload, self.sent)
        else:
            try:  # a player's seat: the spectator copy and its own hand, nothing else
                try:
                    view = seating.seat_view(game, device.seat, advice=device.advice or False)
                except seating.SeatRefused:
                    raise
                except ValueError as err:  # an aim this table has not (HR-SEAT-3): the view without advice
                    device.advice = ""
                    self._refuse(device, str(err))
                    view = seating.seat_view(game, device.seat)
                text = seatmsg.seat(self.session.kind, view, self.sent)
            except seating.SeatRefused:  # another game is open now: this seat is not at its table
                text = seatmsg.view(self.session.kind, None, self.sent)
        if not wire.send(device.peer, text):
            device.status = "away"

    def drop(self, device: Device) -> None:
        """Take the seat back from a phone: it is told, and forgotten here."""
        wire.send(device.peer, seatmsg.bye("The tablet took this seat back. To join again, open a new "
                                            "invitation from the tablet."))
        wire.close(device.peer)
        if device in self.devices:
            self.devices.remove(device)
        if device.paired:
            self._keep()
            self.app.toast(f"{device.label}'s phone no longer watches the table." if device.watch else
                           f"The tablet took {device.label}'s seat back: play it here, behind the curtain.")

    def _device(self, arg) -> Device | None:
        return next((d for d in self.devices if str(d.number) == str(arg)), None)

    # ------------------------------------------------------------ camera
    def prefetch_reader(self) -> None:
        """The drawer opened: the camera's QR reader is not precached (a first visit does not
        download it), so fetch it now, online, where it would be used; then it scans offline."""
        wire.prefetch_reader()

    def scan(self, device: Device) -> None:
        self.scanning, self.problem = device.number, None

        def read(text):
            self.scanning = None
            self.accept(device, str(text))

        def failed(err):
            self.scanning = None
            words = str(err)
            if "stopped" in words:
                return
            if "QR reader" in words:  # not fetched yet, and offline (builder/build.py ZXING_ON_DEMAND)
                self.problem = ("This tablet has not downloaded the camera's code reader yet: it does the "
                                "first time the phones' drawer opens online. Paste the phone's answer instead.")
                return
            self.problem = ("The camera could not be used here (it was refused, or there is none). Paste the "
                            "phone's answer instead.")

        def start():
            from js import document  # type: ignore[import-not-found]

            video = platform.py(document.querySelector("[data-testid=scan-video]"))
            if video is None:
                self.scanning = None
                return
            wire.run(self.app, lambda: wire.js().scan(video), read, failed)

        self.app.later(0, start)  # after the render that draws the video element

    def stop_scan(self) -> None:
        self.scanning = None
        try:
            wire.js().stopScan()
        except Exception:
            pass

    # ------------------------------------------------------------ the drawer
    def handle(self, name: str, arg) -> bool:
        if name == "phones-invite":
            self.invite(seat_id=str(arg) if arg else seatmsg.WATCH)
        elif name == "phones-rejoin" and (d := self._device(arg)) is not None:
            self.invite(d)
        elif name == "phones-connect" and (d := self._device(arg)) is not None:
            self.accept(d, self.answer_text)
        elif name == "phones-scan" and (d := self._device(arg)) is not None:
            self.scan(d)
        elif name == "phones-scan-stop":
            self.stop_scan()
        elif name == "phones-drop" and (d := self._device(arg)) is not None:
            self.drop(d)
        elif name == "phones-copy" and (d := self._device(arg)) is not None:
            platform.copy_text(d.link)
            self.app.toast("Copied the invitation link.")
        else:
            return False
        return True

    def field(self, name: str, value: str) -> bool:
        if name == "session:phones-answer":
            self.answer_text = value
            return True
        return False

    def view(self):
        kind = self.session.kind
        pending = [d for d in self.devices if not d.paired]
        paired = [d for d in self.devices if d.paired]
        can = wire.available()
        return h("div", {"class": "panel drawer phones", "aria-label": "Players' phones"},
                 h("div", {"class": "spread"}, h("h2", {}, "Players' phones"),
                   button("Close", "session:drawer", "", cls="btn small ghost")),
                 h("p", {"class": "muted"}, "A phone at the table can hold a player's hand, or watch the game "
                                           "live, over the same Wi-Fi: no internet, no account. The tablet keeps "
                                           "the game; each phone is sent only what its seat may see."),
                 h("p", {"class": "msg-error", "role": "alert"}, "This browser cannot connect phones (it has "
                                                                  "no WebRTC).") if not can else None,
                 self._seats_view(can),
                 h("p", {"class": "msg-error phones-problem", "role": "alert", "data-testid": "phones-problem"},
                   self.problem) if self.problem else None,
                 [self._pending_view(d) for d in pending],
                 h("section", {"aria-labelledby": f"{kind}-phones-paired"},
                   h("h3", {"id": f"{kind}-phones-paired"}, "Paired phones"),
                   h("ul", {"class": "phone-list", "data-testid": "phones-paired"},
                     [self._paired_row(d) for d in paired]) if paired else
                   h("p", {"class": "muted"}, "None yet.")))

    def _seats_view(self, can: bool):
        """An Invite per seat of this table (:func:`engine.seats.seats`): a player's seat once,
        watchers as many as wanted; one invitation at a time."""
        game = self.session.game
        busy = not can or any(d.status in ("inviting", "invited", "connecting") for d in self.devices)
        taken = {d.seat for d in self.devices}
        rows = []
        for one in seating.seats(game) if game is not None else ():
            if one.watch:
                control = button("Invite a watcher", "session:phones-invite", one.id, cls="btn primary",
                                 disabled=busy, data_focus="phones-invite")
            else:
                control = button("Invite", "session:phones-invite", one.id, cls="btn", disabled=busy or one.id in taken,
                                 aria_label=f"Invite {one.label}'s phone")
            rows.append(h("li", {"class": "phone-seat", "data-key": f"seat-{one.id}", "data-testid": "phone-seat"},
                          h("span", {}, "Anyone watching" if one.watch else one.label,
                            h("span", {"class": "muted"}, " · invited" if one.id in taken and not one.watch else "")),
                          control))
        return h("ul", {"class": "phone-seats", "aria-label": "Seats at this table"}, rows)

    def _pending_view(self, d: Device):
        rerender = lambda: self.app.later(0, self.app.render)  # noqa: E731
        if d.status == "inviting":
            body = h("p", {"class": "muted", "role": "status"}, "Preparing the invitation…")
        elif d.status == "failed":
            body = h("div", {"class": "row"}, button("Make a new invitation", "session:phones-rejoin", d.number,
                                                     cls="btn primary"))
        else:
            # the code beside the steps (under them on a narrow screen): all of it on screen at once
            body = h("div", {"class": "phone-invite-body"},
                     qr.code_figure(d.link, f"QR code of the invitation for {d.label}", "phones-offer-qr", rerender),
                     h("div", {"class": "phone-steps"},
                       h("p", {}, h("strong", {}, "1. "), "On the phone, point the camera app at this code and open "
                                                          "the link (or send the phone this link)."),
                       h("div", {"class": "row"},
                         h("label", {"class": "visually-hidden", "for": f"phones-link-{d.number}"}, "Invitation link"),
                         h("input", {"type": "text", "readonly": True, "id": f"phones-link-{d.number}",
                                     "value": d.link, "class": "share-url", "data-testid": "phones-link"}),
                         button("Copy link", "session:phones-copy", d.number, cls="btn small")),
                       h("p", {}, h("strong", {}, "2. "), "The phone then shows its answer: scan it with this "
                                                          "tablet's camera, or paste its text."),
                       self._scan_view(d),
                       h("label", {"class": "field"}, "Paste the phone's answer",
                         h("textarea", {"data-field": "session:phones-answer", "rows": "2", "value": self.answer_text,
                                        "data-testid": "phones-answer", "autocomplete": "off",
                                        "spellcheck": "false"})),
                       h("div", {"class": "row"},
                         button("Connecting…" if d.status == "connecting" else "Connect", "session:phones-connect",
                                d.number, cls="btn primary", disabled=d.status == "connecting"))))
        return h("section", {"class": "phone-invite", "data-key": f"invite-{d.number}",
                             "data-testid": "phones-invite", "data-status": d.status},
                 h("div", {"class": "spread"}, h("h3", {}, f"Inviting {d.label}"),
                   button("Cancel", "session:phones-drop", d.number, cls="btn small ghost",
                          aria_label=f"Cancel the invitation of {d.label}")),
                 body)

    def _scan_view(self, d: Device):
        if self.scanning == d.number:
            return h("div", {"class": "phone-scan"},
                     h("video", {"class": "scan-video", "data-testid": "scan-video", "aria-label": "Camera",
                                 "playsinline": True, "muted": True}),
                     button("Stop the camera", "session:phones-scan-stop", cls="btn small"))
        return h("div", {"class": "row"},
                 button("Scan the phone's code", "session:phones-scan", d.number, cls="btn"))

    def _paired_row(self, d: Device):
        words = {"connected": "connected", "away": "away", "inviting": "away: preparing a new code",
                 "invited": "away: a new code is shown", "connecting": "away: connecting…",
                 "failed": "away: no connection formed"}[d.status]
        again = d.status in ("away", "failed")
        rejoin = [self._pending_view(d)] if d.status in ("inviting", "invited", "connecting") else []
        return h("li", {"class": ["phone-row", d.status], "data-key": f"phone-{d.number}",
                        "data-testid": "phone-row", "data-status": d.status},
                 h("div", {"class": "spread"},
                   h("span", {}, h("strong", {}, d.label), " · watches · " if d.watch else " · plays · ",
                     h("span", {"class": "phone-status", "data-testid": "phone-status"}, words),
                     h("span", {"class": "muted"}, f" · {d.refused} refused") if d.refused else None),
                   h("div", {"class": "row"},
                     button("Rejoin", "session:phones-rejoin", d.number, cls="btn small",
                            aria_label=f"Rejoin: a new code for {d.label}'s phone") if again else None,
                     button("Drop", "session:phones-drop", d.number, cls="btn small danger",
                            aria_label=f"Drop {d.label}'s phone (take the seat back)"))),
                 rejoin)
