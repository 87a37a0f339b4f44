"""The game of one tool in this tab: autosave, undo/redo, history, saves and sharing.

Built once and used by every tool's view. It owns the tool's current
:class:`engine.game.Game` and its save slot; the view asks it for the state and
sends it actions. Every change is saved at once (autosave); every failure is said
in plain words and loses nothing.
"""

from __future__ import annotations

from typing import Any, Callable

from engine import codec
from engine import game as games
from web import platform
from web.dom import button, h
from web.parts.curtain import CurtainGuard
from web.routing import ROUTES, game_words, table_words
from web.store import ConflictingEdit, DamagedSave, NoSuchSave, StorageFull, StoreError, slot_kind

#: What a spectator's copy is called in its save's name and in the lists of saves.
SPECTATOR_TAG = "spectator copy"

#: The most of a kept copy's text shown in the Saves drawer (Export gives all of it).
BACKUP_SHOWN = 20_000

#: Asked before going back when a system's hook cannot say what undoing would reveal.
GENERIC_UNDO_WARNING = ("Going back may undo something the table has already seen, and let it be chosen "
                        "again. Undo anyway?")

#: What :meth:`Session._store_step` gives when the store refused the step (and said so).
_REFUSED = object()


class Session:
    """One tool's open game: ``game`` (or ``None`` while setting up) and its ``slot``."""

    def __init__(self, app, kind: str, title: str, on_change: Callable[[], None] | None = None,
                 namer: Callable[[games.Game], str] | None = None):
        self.app = app
        self.kind = kind
        self.title = title
        self.on_change = on_change or (lambda: None)
        self.namer = namer or (lambda game: title)  # a save's default name for a game
        self.slot: str | None = None
        self.name: str = ""
        self.game: games.Game | None = None
        self._state_key: Any = None
        self._state: Any = None
        self.drawer: str | None = None  # "saves" | "share" | "history"
        self.renaming: str | None = None
        self.rename_text = ""
        self.stale = False  # another tab saved this game since we loaded it
        self.copied: str | None = None
        self._codes = None  # the Share drawer's QR codes (web/qr.py), made when first shown
        #: The question "…Undo anyway?" while it is asked: the hook's text, the position to go
        #: back to and the data-focus name of what asked (for the focus after No).
        self.question: dict | None = None
        self.question_guard = CurtainGuard(platform.now_ms)  # its Yes ignores a double tap's second tap
        self.backup_shown: str | None = None  # the kept copy whose text the Saves drawer shows
        self._phones = None  # the players' phones (web/phones.py, issue 32), made when first used

    # ------------------------------------------------------------ state
    @property
    def state(self):
        """The current state, replayed from the game (cached per game object)."""
        if self.game is None:
            return None
        if self._state_key is not self.game:
            self._state = games.replay(self.game)
            self._state_key = self.game
        return self._state

    def boot(self) -> None:
        slot = self.app.store.last(self.kind)
        if slot is not None:
            self.open(slot, quiet=True)

    def open(self, slot: str, quiet: bool = False) -> bool:
        """Open a saved game. A save of another tool's game opens on that tool's table
        (``#/campaign?slot=<a battle>`` goes to the battle table); it never lands here."""
        try:
            kind = slot_kind(slot)
        except NoSuchSave as err:
            self.app.toast(str(err), "error")
            return False
        if kind != self.kind:
            if kind in ROUTES:
                platform.go_to_hash(f"#/{kind}?slot={slot}" + ("&quiet=1" if quiet else ""))
            else:
                self.app.toast("This save is for a table this version of the app does not have.", "error")
            return False
        try:
            game, meta = self.app.store.load(slot)
        except DamagedSave as err:
            self.app.toast(str(err) + (" You find it under Saves, “Kept copies of damaged saves”."
                                       if err.backup_key else ""), "error")
            return False
        except StoreError as err:
            self.app.toast(str(err), "error")
            return False
        self._set(slot, game, meta.get("name") or "")
        try:
            self.app.store.set_last(self.kind, slot)
        except StoreError:
            pass  # which game was open is a convenience: a full storage does not stop the table
        if not quiet:
            self.app.toast(f"Opened “{self.name}”.")
        return True

    def _set(self, slot: str | None, game: games.Game | None, name: str = "") -> None:
        self.slot, self.game, self.name = slot, game, name
        self.stale = False
        self.drawer = None
        self.question = None
        self.on_change()
        self._tell_phones()

    def _tell_phones(self) -> None:
        """Every change of the table goes to the paired phones at once (issue 32)."""
        if self._phones is not None:
            self._phones.changed()

    @property
    def phones(self):
        """The players' phones of this table (web/phones.py), imported when first used."""
        if self._phones is None:
            from web.phones import Phones

            self._phones = Phones(self)
        return self._phones

    def start(self, game: games.Game, name: str | None = None, *, quiet: bool = False) -> StoreError | None:
        """Begin a new game in a new save slot. When it cannot be saved (storage full or
        off) the game is open unsaved; the reason is returned, and said unless ``quiet``.

        A spectator's copy is saved as one: its name says so (issue 21)."""
        if game.kind != self.kind:  # never a game of another table in this one
            raise ValueError(f"{game_words(game.kind)} cannot be opened on {table_words(self.kind)}")
        if games.is_spectator(game):
            name = self._spectator_name(name)
        try:
            slot = self.app.store.create(game, name, state=self._state_of(game))
        except StoreError as err:  # storage full or off: play on unsaved, and say so
            self._set(None, game, name or "")
            if not quiet:
                self.app.toast(str(err), "error")
            return err
        self._set(slot, game, self._slot_name(slot))
        try:
            self.app.store.set_last(self.kind, slot)
        except StoreError:
            pass
        return None

    def _spectator_name(self, name: str | None) -> str:
        base = (name or "").strip() or self.title
        return base if SPECTATOR_TAG in base.lower() else f"{base} ({SPECTATOR_TAG})"

    def _state_of(self, game: games.Game):
        """The state of ``game`` if this session already has it (no second replay)."""
        return self._state if self._state_key is game else None

    def close(self) -> None:
        """Leave the current game (it stays saved) to set up a new one.

        An unsaved game (storage was full, or its save was deleted elsewhere) is not
        dropped: the player is asked to save, export or share it first.
        """
        if self.game is not None and self.slot is None:
            self.app.toast("This game is not saved yet: use “Save this game” under Saves (or Share it) "
                           "before starting another.", "error")
            return
        self.app.store.set_last(self.kind, None)
        self._set(None, None)

    def save_unsaved(self) -> None:
        """Give an unsaved game a save slot (after storage was full, or its save was deleted)."""
        if self.game is not None and self.slot is None:
            self.start(self.game, self.name or None)
            if self.slot is not None:
                self.app.toast(f"Saved as “{self.name}”.")
            else:
                self.drawer = "saves"  # the way out (export, delete old games) is right there

    def _slot_name(self, slot: str, kind: str | None = None) -> str:
        for info in self.app.store.list(kind or self.kind):
            if info.id == slot:
                return info.name or ""
        return ""

    # ------------------------------------------------------------ actions
    def act(self, action: dict) -> bool:
        """Take ``action``; a refused one is explained (with its rule id) and changes nothing."""
        refusal = self.try_act(action)
        if refusal is not None:
            self.app.toast(refusal, "error")
        return refusal is None

    def try_act(self, action: dict) -> str | None:
        """Like :meth:`act`, but returns the refusal instead of showing it."""
        if self.game is None:
            return "No game is open"
        try:
            new = games.apply(self.game, action)
        except (games.RuleError, games.ActionError, games.TooLong) as err:  # TooLong: as long as it may grow
            return str(err)
        self._update(new)
        return None

    def _update(self, new: games.Game) -> None:
        self.game = new
        self.question = None
        self.save()
        self.on_change()
        self._tell_phones()

    def save(self, force: bool = False) -> None:
        if self.slot is None or self.game is None:
            return
        try:
            self.app.store.save(self.slot, self.game, force=force, state=self.state)
            self.stale = False
        except ConflictingEdit:
            self.stale = True
        except NoSuchSave:
            self.slot = None
            self.app.toast("This game's save was deleted elsewhere; it is now unsaved. "
                           "Use “Save this game” under Saves to keep it.", "error")
        except StoreError as err:
            self.app.toast(str(err), "error")

    def undo(self) -> None:
        """One step back (Undo, Ctrl+Z): asks first when the system says the step showed
        the table something (AI-7)."""
        if self.game is not None and self.game.can_undo:
            self.goto(self.game.position - 1, asked_by="undo")

    def redo(self) -> None:
        if self.game is not None and self.game.can_redo:
            self._update(games.redo(self.game))

    def goto(self, position: int, asked_by: str = "undo") -> None:
        """Jump to ``position`` of the history. Going back past a point the system's
        ``undo_warning`` hook names asks "…Undo anyway?" first; ``asked_by`` is the
        ``data-focus`` name of the control that asked (the focus goes back there on No)."""
        if self.game is None or not isinstance(position, int) or not 0 <= position <= len(self.game.actions):
            return
        if self.question is not None:
            return  # one question at a time: a second tap or Ctrl+Z never answers it
        if position < self.game.position:
            warning = self.undo_warning(position)
            if warning is not None:
                self.question = {"text": warning, "position": position, "asked_by": asked_by}
                self.question_guard.hold()
                self._focus("undo-no")
                later = getattr(self.app, "later", None)
                if later is not None:  # "Yes" is aria-disabled while it settles: redraw when it may be tapped
                    later(self.question_guard.settle_ms / 1000 + 0.05, self.app.render)
                return
        self._update(games.goto(self.game, position))

    def undo_warning(self, position: int) -> str | None:
        """What the table must hear before going back to ``position``, from the system's
        optional ``undo_warning(game, position)`` hook; ``None`` when nothing (or for a
        spectator's copy, which takes no moves, so nothing seen can be chosen again)."""
        game = self.game
        if game is None or games.is_spectator(game):
            return None
        hook = getattr(games.system(self.kind), "undo_warning", None)
        if hook is None:
            return None
        try:
            text = hook(game, position)
        except Exception:  # a failing hook must not let a reveal be undone silently
            return GENERIC_UNDO_WARNING
        if text is None:
            return None
        if not isinstance(text, str) or not text.strip():
            return GENERIC_UNDO_WARNING
        text = " ".join(text.split())
        return text if text.endswith("?") else f"{text} Undo anyway?"

    def answer(self, yes: bool) -> None:
        """The table's answer to "…Undo anyway?"."""
        question, self.question = self.question, None
        if question is None:
            return
        if yes and self.game is not None:
            self._update(games.goto(self.game, question["position"]))
            self._focus("undo", "drawer")
        else:
            self._focus(question["asked_by"], "undo")

    def _focus(self, *names: str) -> None:
        focus_to = getattr(self.app, "focus_to", None)
        if focus_to is not None:
            focus_to(*names)

    def _question_view(self):
        q = self.question
        if q is None:
            return None
        held = not self.question_guard.may_open()
        return h("div", {"class": "undo-question", "role": "alertdialog", "aria-labelledby": "undo-question-text",
                         "data-testid": "undo-question", "data-key": "undo-question"},
                 h("p", {"id": "undo-question-text"}, q["text"]),
                 h("div", {"class": "row"},
                   button("Yes, go back", "session:undo-yes", cls="btn danger",
                          aria_disabled="true" if held else None, data_focus="undo-yes"),
                   button("No, keep the table as it is", "session:undo-no", cls="btn primary",
                          data_focus="undo-no")))

    # ------------------------------------------------------------ links
    def share_url(self, public: bool) -> str:
        game = games.system(self.kind).public_game(self.game) if public else self.game
        return f"{platform.page_url_without_hash()}#/{self.kind}?g={codec.encode_share(game)}"

    def open_link(self, payload: str) -> None:
        """Open a shared game as a new save; a bad link is explained and changes nothing.

        A link to another tool's game opens on that tool's table. A spectator's link is
        saved as a spectator's copy; a full link opened later is another, new save.
        """
        platform.replace_hash(f"#/{self.kind}")
        try:
            game = codec.decode_share(payload)
        except codec.ShareError as err:
            self.app.toast(link_problem(err), "error")
            return
        if game.kind != self.kind:
            if game.kind in ROUTES:  # open it where it belongs
                platform.go_to_hash(f"#/{game.kind}?g={payload}")
            else:
                self.app.toast(f"This link holds {game_words(game.kind)}, which this app cannot open.", "error")
            return
        spectator = games.is_spectator(game)
        what = "the spectator's copy" if spectator else "the shared game"
        if spectator:  # issue 34: the same spectator link opened again opens the copy already here
            same = self._same_spectator_copy(game)
            if same is not None and self.open(same, quiet=True):
                self.app.toast(f"This spectator's copy is already here: opened “{self.name}”.")
                return
        problem = self.start(game, self.namer(game) if spectator else f"{self.namer(game)} (shared)", quiet=True)
        if problem is not None:  # one message that says what is true: open, and not saved
            if isinstance(problem, StorageFull):
                self.app.toast(f"Opened {what} here, but browser storage is full, so it is not saved. Export or "
                               "delete old games to make room, then use “Save this game” under Saves.", "error")
            else:
                self.app.toast(f"Opened {what} here, but it could not be saved ({str(problem).rstrip('.')}). "
                               "Use “Save this game” under Saves to try again.", "error")
            return
        self.app.toast(f"Opened {what} as a new save, “{self.name}”. Your other games are untouched.")

    def _same_spectator_copy(self, game: games.Game) -> str | None:
        """The save of this table that holds exactly ``game`` (a spectator's copy saved before:
        a spectator's copy cannot be played on, so the same link gives the same game)."""
        store = self.app.store
        for info in store.list(self.kind):
            if not info.spectator or info.damaged or info.actions != len(game.actions):
                continue
            try:
                saved, _meta = store.load(info.id)
            except StoreError:
                continue
            if saved == game:
                return info.id
        return None

    # ------------------------------------------------------------ other tabs
    def on_storage(self, key: str, value: str | None) -> None:
        slot = self.app.store.changed_elsewhere(key, value)
        if slot is not None and slot == self.slot:
            self.stale = True

    def reload_from_store(self) -> None:
        if self.slot is not None:
            self.open(self.slot, quiet=True)

    def keep_mine_as_copy(self) -> None:
        if self.game is not None:
            if self.start(self.game, f"{self.name} (this tab)") is None:
                self.app.toast(f"Your version is saved as “{self.name}”.")

    # ------------------------------------------------------------ files
    def import_text(self, text: str) -> None:
        notes: list[str] = []
        try:
            slot = self.app.store.import_text(text, notes)
        except (codec.SaveError, StoreError) as err:
            self.app.toast(f"That file could not be imported: {_lower_first(str(err))}", "error")
            return
        self._opened_new(slot, "Imported", notes)

    def _opened_new(self, slot: str, verb: str, notes: list[str] | None = None) -> None:
        """A new save (an import, a restored copy): open it on its own table. ``notes``:
        what was changed on the way in (a name cleaned, issue 35), said with it."""
        kind = slot_kind(slot)
        name = self._slot_name(slot, kind)
        after = "".join(f" {note}" for note in notes or ())
        if kind != self.kind:
            self.app.toast(f"{verb} “{name}” as a new save: it is {game_words(kind)}, opened on "
                           f"{table_words(kind)}.{after}")
            self.open(slot, quiet=True)
            return
        if self.open(slot, quiet=True):
            self.app.toast(f"{verb} “{self.name}” as a new save.{after}")

    def import_file(self, file) -> None:
        import asyncio  # only for reading a file: kept off the start-up path

        async def read():
            try:
                if int(file.size) > 5_000_000:
                    self.app.toast("That file is too large to be a saved game.", "error")
                else:
                    self.import_text(str(await file.text()))
            finally:
                self.app.render()

        asyncio.ensure_future(read())

    # ------------------------------------------------------------ UI
    def toolbar(self):
        g = self.game
        return h("div", {"class": "session-bar", "role": "toolbar", "aria-label": "Game"},
                 h("span", {"class": "session-name"}, self.name or "New game",
                   h("span", {"class": "badge note"}, "not saved") if g is not None and self.slot is None else None),
                 button("↶ Undo", "session:undo", cls="btn small", disabled=not (g and g.can_undo),
                        aria_keyshortcuts="Control+Z", data_focus="undo"),
                 button("↷ Redo", "session:redo", cls="btn small", disabled=not (g and g.can_redo),
                        aria_keyshortcuts="Control+Shift+Z Control+Y"),
                 self._drawer_toggle("History", "history", disabled=g is None),
                 self._drawer_toggle("Saves", "saves"),
                 self._drawer_toggle("Share", "share", disabled=g is None),
                 # issue 32: phones at the table (web/phones.py)
                 # "Phones…" on the bar (the toolbar fits one row at 768 px: the hand below stays
                 # on screen), "Players' phones…" its name.
                 self._drawer_toggle("Phones…", "phones", disabled=g is None, aria_name="Players' phones…"),
                 # issue 22: the printable record (web/parts/record.py)
                 self._drawer_toggle("Record", "record", disabled=g is None))

    # Drawers are disclosures (issue 14): a toggle with aria-expanded and aria-controls,
    # a named region that takes the focus when it opens; Close and Escape give the
    # focus back to the toggle.
    def _drawer_id(self, name: str) -> str:
        return f"{self.kind}-drawer-{name}"

    def _drawer_toggle(self, label: str, name: str, disabled: bool = False, *, aria_name: str | None = None):
        return button(label, "session:drawer", name, cls=["btn small", self.drawer == name and "on"],
                      aria_label=aria_name,
                      aria_expanded="true" if self.drawer == name else "false",
                      # aria-controls names the drawer while it exists (an id must resolve)
                      aria_controls=self._drawer_id(name) if self.drawer == name else None,
                      data_focus=f"drawer-{name}", disabled=disabled)

    def escape(self) -> bool:
        """Escape: say No to "…Undo anyway?", close a full-screen QR code (focus back on its
        "Full screen" button) or the open drawer (focus back on its toggle). Whether it did."""
        if self.question is not None:
            self.answer(False)
            return True
        if self._codes is not None and self._codes.full_screen is not None:
            self._close_qr()
            return True
        if self.drawer is None:
            return False
        self._toggle_drawer("")
        return True

    def _toggle_drawer(self, name: str | None) -> None:
        previous = self.drawer
        self.drawer = None if not name or self.drawer == name else name
        self.renaming, self.copied, self.backup_shown = None, None, None
        if self._phones is not None and self._phones.scanning is not None:
            self._phones.stop_scan()  # the camera never stays on behind a closed drawer
        if self.drawer == "phones" and self.game is not None:
            self.phones.prefetch_reader()
        if self._codes is not None:
            self._codes.full_screen = None
        focus_to = getattr(self.app, "focus_to", None)
        if focus_to is not None:
            focus_to("drawer" if self.drawer else f"drawer-{previous}")

    def banner(self):
        question = self._question_view()
        if question is not None:
            return question
        if not self.stale:
            return self._past_banner()
        return h("div", {"class": "msg-error stale", "role": "alert"},
                 h("p", {}, "This game was changed in another tab or window. To avoid overwriting "
                            "either version, this tab stopped saving."),
                 h("div", {"class": "row"},
                   button("Load the other version", "session:reload", cls="btn small"),
                   button("Keep mine as a copy", "session:keep", cls="btn small")))

    def _past_banner(self):
        """Shown while the table is at an earlier point of its history."""
        g = self.game
        if g is None or not g.can_redo:
            return None
        later = len(g.actions) - g.position
        return h("div", {"class": "past-banner", "role": "status", "data-testid": "past"},
                 h("span", {}, f"You are looking at an earlier point: {later} later "
                               f"step{'s are' if later != 1 else ' is'} kept until you take a different action."),
                 button("Back to the latest", "session:goto", len(g.actions), cls="btn small"))

    def drawer_view(self):
        node = None
        if self.drawer == "history":
            node = self._history_view()
        elif self.drawer == "saves":
            node = self._saves_view()
        elif self.drawer == "share" and self.game is not None:
            node = self._share_view()
        elif self.drawer == "phones" and self.game is not None:  # issue 32: players' phones
            node = self.phones.view()
        elif self.drawer == "record" and self.game is not None:  # issue 22: the printable record
            from web.parts import record

            node = record.drawer(self)
        if node is not None:  # a named region the toggle controls (see _drawer_toggle)
            node.attrs.update({"id": self._drawer_id(self.drawer), "role": "region", "tabindex": "-1",
                               "data-focus": "drawer", "data-key": f"drawer-{self.drawer}"})
            node.attrs.setdefault("aria-label", self.drawer.capitalize())
        return node

    def _history_view(self):
        if self.game is None:
            return h("div", {"class": "panel drawer", "aria-label": "History"}, h("p", {}, "No game is open."))
        labels = games.history(self.game)
        items = [h("li", {"data-key": "h0"},
                   button("Start of the game", "session:goto", 0, data_focus="history-0",
                          cls=["history-item", self.game.position == 0 and "current"]))]
        for index, label in enumerate(labels, start=1):
            items.append(h("li", {"data-key": f"h{index}"},
                           button(label, "session:goto", index, data_focus=f"history-{index}",
                                  cls=["history-item", index == self.game.position and "current",
                                       index > self.game.position and "future"],
                                  aria_current="step" if index == self.game.position else None)))
        return h("div", {"class": "panel drawer", "aria-label": "History"},
                 h("div", {"class": "spread"}, h("h2", {}, "History"),
                   button("Close", "session:drawer", "", cls="btn small ghost")),
                 h("p", {"class": "muted"}, "Newest first. Tap a step to see the table as it was; later steps stay "
                                           "available (Redo) until you take a different action."),
                 h("ol", {"class": "history-list", "reversed": True}, items[::-1]))

    def _saves_view(self):
        rows = []
        for info in self.app.store.list(self.kind):
            current = info.id == self.slot
            if info.damaged:
                rows.append(h("li", {"class": "save-row damaged", "data-key": info.id},
                              h("div", {"class": "save-main"}, h("strong", {}, "Damaged save"),
                                h("span", {"class": "muted"}, info.problem or "")),
                              button("Open", "session:open", info.id, cls="btn small")))
                continue
            tag = h("span", {"class": "badge spectator"}, "Spectator copy") if info.spectator else None
            if self.renaming == info.id:
                main = h("div", {"class": "save-main row"},
                         h("label", {"class": "visually-hidden", "for": "rename-input"}, "New name"),
                         h("input", {"type": "text", "id": "rename-input", "data-field": "session:rename",
                                     "value": self.rename_text, "maxlength": "80"}),
                         button("Save name", "session:rename-ok", info.id, cls="btn small primary"),
                         button("Cancel", "session:rename-cancel", cls="btn small ghost"))
            else:
                main = h("div", {"class": "save-main"},
                         h("strong", {}, info.name or info.id, " (open)" if current else ""),
                         h("span", {"class": "save-where", "data-testid": "save-where"}, tag, " " if tag else None,
                           info.where),
                         h("span", {"class": "muted"}, f"Saved {platform.local_time(info.updated)}"))
            rows.append(h("li", {"class": ["save-row", current and "current", info.spectator and "spectator"],
                                 "data-key": info.id}, main,
                          h("div", {"class": "row"},
                            None if current else button("Open", "session:open", info.id, cls="btn small"),
                            button("Rename", "session:rename", info.id, cls="btn small"),
                            button("Copy", "session:duplicate", info.id, cls="btn small"),
                            button("Export", "session:export", info.id, cls="btn small"),
                            button("Delete", "session:delete", info.id, cls="btn small danger",
                                   aria_label=f"Delete {info.name or 'this game'}"))))
        return h("div", {"class": "panel drawer", "aria-label": "Saved games"},
                 h("div", {"class": "spread"}, h("h2", {}, "Saved games"),
                   h("div", {"class": "row"},
                     button("Save this game", "session:save-unsaved", cls="btn small primary")
                     if self.game is not None and self.slot is None else None,
                     button("New game", "session:new", cls="btn small primary"),
                     button("Close", "session:drawer", "", cls="btn small ghost"))),
                 h("ul", {"class": "save-list"}, rows) if rows else h("p", {"class": "muted"}, "No saved games yet."),
                 self._backups_view(),
                 h("div", {"class": "dropzone"},
                   h("label", {"class": "btn small", "for": f"import-{self.kind}"}, "Import a game file…"),
                   h("input", {"type": "file", "id": f"import-{self.kind}", "accept": ".json,application/json",
                               "data-field": "session:import", "class": "visually-hidden"}),
                   h("span", {"class": "muted"}, "or drop an exported .json file anywhere on this page. "
                                                 "An import is always added as a new save.")))

    def _backups_view(self):
        """Kept copies of saves that could not be opened (issue 20): see, export, try to
        restore, delete. Nothing the app keeps is out of the player's reach."""
        copies = self.app.store.backup_list(self.kind)
        if not copies:
            return None
        rows = []
        for copy in copies:
            if copy.what is not None:  # issue 35: a setup form, the ticks … that could not be used as they were
                label = f"{copy.what[:1].upper()}{copy.what[1:]} (it could not be used as it was)"
            else:
                label = f"“{copy.name}”" if copy.name else "A save whose name cannot be read"
            shown = self.backup_shown == copy.key
            text = None
            if shown:
                try:
                    raw = self.app.store.backup_text(copy.key)
                except StoreError:
                    raw = ""
                more = len(raw) > BACKUP_SHOWN
                text = h("div", {"class": "backup-text"},
                         h("label", {"class": "visually-hidden", "for": "backup-text"}, "The kept copy's text"),
                         h("textarea", {"id": "backup-text", "readonly": True, "rows": "5",
                                        "value": raw[:BACKUP_SHOWN]}),
                         h("p", {"class": "muted"}, f"The first {BACKUP_SHOWN:,} of {len(raw):,} characters; "
                                                    "Export gives the whole text.") if more else None)
            rows.append(h("li", {"class": "save-row damaged", "data-key": copy.key, "data-testid": "backup"},
                          h("div", {"class": "save-main"},
                            h("strong", {}, label),
                            h("span", {"class": "muted"}, f"Kept {platform.local_time(copy.kept)} · "
                                                          f"{copy.size:,} characters")),
                          h("div", {"class": "row"},
                            button("Hide text" if shown else "Show text", "session:backup-show", copy.key,
                                   cls="btn small", aria_expanded="true" if shown else "false"),
                            button("Export", "session:backup-export", copy.key, cls="btn small",
                                   aria_label=f"Export the kept copy of {label}"),
                            button("Try to open", "session:backup-restore", copy.key, cls="btn small",
                                   aria_label=f"Try to open the kept copy of {label} as a new save")
                            if copy.what is None else None,
                            button("Delete", "session:backup-delete", copy.key, cls="btn small danger",
                                   aria_label=f"Delete the kept copy of {label}")),
                          text))
        saves_only = all(copy.what is None for copy in copies)
        return h("section", {"class": "backups", "aria-labelledby": f"{self.kind}-backups-title"},
                 h("h3", {"id": f"{self.kind}-backups-title"},
                   "Kept copies of damaged saves" + ("" if saves_only else " and settings")),
                 h("p", {"class": "muted"}, "Saves that could not be opened"
                                           + ("" if saves_only else ", and what this table kept between visits "
                                                                    "that could not be used,")
                                           + " are kept here exactly as they were, "
                                           "so nothing is lost. Export one to keep it as a file or for a bug "
                                           "report; “Try to open” adds it as a new save if this version can read it."),
                 h("ul", {"class": "save-list"}, rows))

    @property
    def codes(self):
        """The Share drawer's QR codes; web.qr is imported the first time a drawer shows them."""
        if self._codes is None:
            from web import qr

            # segno arrives asynchronously: redraw in turn with the events (App.later)
            self._codes = qr.ShareCodes(lambda: self.app.later(0, self.app.render))
        return self._codes

    def _share_view(self):
        full = self.share_url(public=False)
        public = self.share_url(public=True)

        def link_block(title, explain, url, which):
            return h("div", {"class": "share-block"},
                     h("h3", {}, title), h("p", {"class": "muted"}, explain),
                     h("label", {"class": "visually-hidden", "for": f"share-{which}"}, title),
                     h("input", {"type": "text", "readonly": True, "id": f"share-{which}", "value": url,
                                 "class": "share-url", "data-testid": f"share-{which}"}),
                     h("div", {"class": "row"},
                       button("Copied ✓" if self.copied == which else "Copy link", "session:copy", which,
                              cls="btn small primary"),
                       button("Share…", "session:native-share", which, cls="btn small")
                       if platform.can_share() else None,
                       h("span", {"class": "muted"}, f"{len(url):,} characters")),
                     self.codes.figure(which, title, url))

        if games.is_spectator(self.game):  # a spectator's copy has no full game to give
            return h("div", {"class": "panel drawer", "aria-label": "Share"},
                     h("div", {"class": "spread"}, h("h2", {}, "Share this spectator copy"),
                       button("Close", "session:drawer", "", cls="btn small ghost")),
                     link_block("Spectator view", "This is a spectator's copy: its link shows what the table "
                                "could see, read-only, like the copy itself. Safe to send to anyone.", public, "public"),
                     self.codes.overlay({"public": ("Spectator view", public)}))
        # Issue 21: a short seed (typed, or from an older save) can be searched from the cards
        # shown; the spectator link's promise says so instead of "safe to send to anyone".
        safe = ("Safe to send to anyone." if games.seed_is_secret(self.game.seed) else
                "This game's seed is short (typed, or from an older version): anyone who knows it, or "
                "searches for it from the cards and dice shown, can deal the hidden cards too. Start a new "
                "game with an empty seed for a link that keeps the secrets.")
        kit = games.equipment(self.game)  # issue 18: the app's cards and dice, or the table's own
        return h("div", {"class": "panel drawer", "aria-label": "Share"},
                 h("div", {"class": "spread"}, h("h2", {}, "Share this game"),
                   button("Close", "session:drawer", "", cls="btn small ghost")),
                 h("p", {"class": "small", "data-testid": "share-equipment"}, h("strong", {}, "Played with: "), kit)
                 if kit else None,
                 link_block("Spectator view", f"Public information only: {games.system(self.kind).SPECTATOR_VIEW} "
                            f"{safe}", public, "public"),
                 link_block("Full game (for your own devices)", "Everything, including hidden hands and the "
                            "deck order: anyone with this link can see every card. Use it to move the game to "
                            "another tablet.", full, "full"),
                 self.codes.overlay({"public": ("Spectator view", public),
                                     "full": ("Full game (for your own devices)", full)}))

    def _close_qr(self) -> None:
        """Close the full-screen code: the focus goes back to the "Full screen" button
        that opened it (issue 22)."""
        which = self._codes.full_screen if self._codes is not None else None
        if self._codes is not None:
            self._codes.full_screen = None
        if which:
            self._focus(f"qr-full-{which}", "drawer")

    def handle(self, action: str, arg: str | None, el=None) -> bool:
        """Handle a ``session:`` action; returns False when it is not one."""
        store = self.app.store
        if action == "file:session:import":
            files = platform.py(el.files) if el is not None else None
            if files is not None and int(files.length) > 0:
                self.import_file(files.item(0))
            return True
        if not action.startswith("session:"):
            return False
        name = action.split(":", 1)[1]
        call = _ONE_CALL.get(name) or (_ONE_CALL_WITH_ARG.get(name) if arg else None)
        if call is not None:
            call(self, arg)
        elif name == "goto":
            try:
                position = int(arg or 0)
            except ValueError:
                return True
            self.goto(position, asked_by=f"history-{position}")
        elif name == "undo-yes":
            if self.question_guard.may_open(getattr(self.app, "tap", None)):
                self.answer(True)
        elif name == "rename" and arg:
            self.renaming = arg
            self.rename_text = next((i.name or "" for i in store.list(self.kind) if i.id == arg), "")
        elif name == "rename-ok" and arg:
            if self._store_step(store.rename, arg, self.rename_text) is _REFUSED:
                return True
            if arg == self.slot:
                self.name = self._slot_name(arg)
            self.renaming = None
        elif name == "duplicate" and arg:
            copy = self._store_step(store.duplicate, arg)
            if copy is not _REFUSED:
                self.app.toast(f"Saved a copy: “{self._slot_name(copy)}”.")
        elif name == "export" and arg:
            self._download(store.export, arg)
        elif name == "copy" and arg:
            platform.copy_text(self.share_url(public=arg == "public"))
            self.copied = arg
        elif name == "qr-full":
            if self.codes.handle(name, arg):
                self._focus("qr-dialog")  # the dialog takes the focus (its Close button)
        elif name == "backup-show" and arg:
            self.backup_shown = None if self.backup_shown == arg else arg
        elif name == "backup-export" and arg:
            self._download(store.export_backup, arg)
        elif name == "backup-restore" and arg:
            try:
                slot = store.restore_backup(arg)
            except (codec.SaveError, StoreError) as err:
                self.app.toast(f"This copy still cannot be opened: {_lower_first(str(err))}", "error")
                return True
            self._opened_new(slot, "Opened the kept copy")
        elif name.startswith("phones-"):  # issue 32: web/phones.py
            self.phones.handle(name, arg)
        elif name.startswith("record-"):  # issue 22: Print, Copy as post (web/parts/record.py)
            from web.parts import record

            record.handle(self, name)
        elif name == "native-share" and arg:
            platform.share_link(f"{self.title} — Conflict Table", self.share_url(public=arg == "public"))
        return True

    def _store_step(self, act, *args):
        """``act(*args)``, a step of the store; when the store refuses it (a :class:`StoreError`:
        storage full or off, a save gone) the refusal is said and nothing changes: then
        :data:`_REFUSED`."""
        try:
            return act(*args)
        except StoreError as err:
            self.app.toast(str(err), "error")
            return _REFUSED

    def _download(self, export, key: str) -> None:
        """A save or a kept copy (``export(key)``: its file name and text) downloaded as a file."""
        held = self._store_step(export, key)
        if held is not _REFUSED:
            platform.download(*held)

    def _delete_backup(self, key: str) -> None:
        store = self.app.store
        try:
            text = store.backup_text(key)
            store.discard_backup(key)
        except StoreError as err:
            self.app.toast(str(err), "error")
            return
        if self.backup_shown == key:
            self.backup_shown = None

        def restore():
            if self._store_step(store.put_backup, key, text) is not _REFUSED:
                self.app.toast("The kept copy is back.")

        self.app.toast("Deleted the kept copy.", action=restore, action_label="Undo", seconds=10)

    def _delete(self, slot: str) -> None:
        store = self.app.store
        label = self._slot_name(slot) or "the game"
        token = self._store_step(store.delete, slot)
        if token is _REFUSED:
            return
        was_open = slot == self.slot
        if was_open:
            self._set(None, None)
        if token is None:
            self.app.toast(f"Deleted “{label}”. Storage is too full to keep a copy, so this cannot be undone.")
            return

        def export_held():
            held = store.held_text(token)
            if held is None:
                self.app.toast("That game can no longer be restored", "error")
                return
            platform.download(*held)
            self.app.toast(f"Exported “{label}” as a file: import it when there is room again.")

        def restore():
            try:
                restored = store.undo_delete(token)
            except StorageFull:
                if store.held_in_memory(token):  # still in this tab: never lost while it can be exported
                    self.app.toast(f"Browser storage is still full, so “{label}” could not be put back. Export it "
                                   "to keep it as a file (Import opens it again later).", "error",
                                   action=export_held, action_label="Export it")
                else:
                    self.app.toast(f"Browser storage is full, so “{label}” could not be put back.", "error")
                return
            except StoreError as err:
                self.app.toast(str(err), "error")
                return
            if was_open:
                self.open(restored, quiet=True)
            self.app.toast(f"Restored “{label}”.")

        if store.held_in_memory(token):  # issue 35: the undo lives in this tab, and the player is told so
            self.app.toast(f"Deleted “{label}”. Browser storage is full, so no copy could be kept in it: Undo works "
                           "only here, in this tab.", "error", action=restore, action_label="Undo")
            return
        self.app.toast(f"Deleted “{label}”.", action=restore, action_label="Undo", seconds=10)

    def field(self, name: str, value: str) -> bool:
        """Typing a new name: kept, nothing to redraw. Returns whether this was a session field."""
        if name == "session:rename":
            self.rename_text = value
            return True
        if name == "session:phones-answer":
            return self.phones.field(name, value)
        return False


def link_problem(err: codec.ShareError) -> str:
    """A refused link in one sentence: "This link could not be opened: this game breaks
    CS-5 at step 14: …. Nothing was saved; your games are as they were."."""
    text = str(err).strip().rstrip(".")
    for prefix in ("This link cannot be opened: ", "This link could not be opened: "):
        if text.startswith(prefix):
            text = text[len(prefix):]
    return f"This link could not be opened: {_lower_first(text)}. Nothing was saved; your games are as they were."


#: The session's actions that are one call each (``session:<name>``, with the action's argument).
_ONE_CALL = {
    "undo": lambda session, arg: session.undo(),
    "redo": lambda session, arg: session.redo(),
    "undo-no": lambda session, arg: session.answer(False),
    "drawer": lambda session, arg: session._toggle_drawer(arg),
    "new": lambda session, arg: session.close(),
    "save-unsaved": lambda session, arg: session.save_unsaved(),
    "rename-cancel": lambda session, arg: setattr(session, "renaming", None),
    "reload": lambda session, arg: session.reload_from_store(),
    "keep": lambda session, arg: session.keep_mine_as_copy(),
    "qr-close": lambda session, arg: session._close_qr(),
}
#: As :data:`_ONE_CALL`, for the actions on a save or a kept copy (``arg``): none without one.
_ONE_CALL_WITH_ARG = {
    "open": lambda session, arg: session.open(arg),
    "delete": lambda session, arg: session._delete(arg),
    "backup-delete": lambda session, arg: session._delete_backup(arg),
}


def _lower_first(text: str) -> str:
    """A sentence continued after a colon: "This save is damaged" → "this save is damaged"
    (a clause id or a name such as "CS-5" or "OIC" stays as it is)."""
    if text[:1].isupper() and not text[1:2].isupper() and not text[1:2].isdigit():
        return text[0].lower() + text[1:]
    return text
