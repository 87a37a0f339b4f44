"""What every tool's view does with its session, written once.

Each table (conflict, campaign, initiative, battle) is a view with a ``route``, an
``app`` and a :class:`web.session.Session`. Opening a shared link or a save from the
route, noticing another tab, importing a file and keeping the setup form between
visits are the same for all of them; the view itself only draws its state and turns
taps into actions.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from engine import codec
from engine import game as games
from engine.game import MAX_TYPED_SEED
from web import platform
from web.dom import button, h
from web.store import StoreError

#: The longest text a kept value (a setup form, templates, the ticks) may have: anything
#: longer is not something the app wrote (issue 35).
MAX_KEPT_CHARS = 1_000_000

#: Said after what was set aside (issue 35): where the original is.
KEPT_WHERE = ("The original is kept under Saves, “Kept copies of damaged saves and settings”, "
              "so nothing is lost.")
KEPT_NO_ROOM = ("Browser storage is too full to keep a copy of the original, so it was left as it was "
                "until the form is next changed.")


def whole(text: Any) -> bool:
    """Whether ``text`` is a whole number in ASCII digits: what ``int()`` surely reads
    (``"²".isdigit()`` is true, and ``int("²")`` fails; issue 35)."""
    return isinstance(text, str) and text.isascii() and text.isdigit()


#: What every table says beside its seed field: a typed seed is no secret.
SEED_NOTE = ("Leave it empty and the app picks a secret one. A typed seed is public by nature: "
             "anyone who knows it can deal the same cards and roll the same dice.")


def draft_row(draft: Any, path: list[str]) -> Any:
    """What a setup field's dotted ``path`` (without its last key) leads to in ``draft``, or
    None when it is gone (a control of a row just removed)."""
    target = draft
    try:
        for part in path:
            target = target[int(part)] if whole(part) else target[part]
    except (IndexError, KeyError, TypeError):
        return None
    return target


def played_by(index: int, side: dict, levels, labels: dict):
    """Issue 12, 17: who plays side ``index`` of the setup form — people, or the app at one of
    ``levels`` (named by ``labels``)."""
    value = side.get("level", "normal") if side.get("controller") == "app" else "people"
    options = [("people", "People at the table")] + [(level, f"The app — {labels[level]}") for level in levels]
    return h("label", {"class": "field"}, "Played by",
             h("select", {"data-field": f"solo:{index}", "value": value, "data-testid": f"played-by-{index}"},
               [h("option", {"value": v, "selected": v == value}, text) for v, text in options]))


def example_panel(title: str, about: tuple, label: str, action: str, *below):
    """The head of a table's setup form: its title, how a game begins (``about``: build the
    sides, or start from the example), the button that loads the example and, ``below``,
    anything the example needs said (what it leaves to the app).

    The title is where the focus goes when the setup form replaces a table ("New game",
    "New battle with these armies"): the first ``data-focus`` of the screen (the app's focus
    fallback), so the form is shown from its top, not from a control far below it."""
    return h("div", {"class": "panel example"},
             h("div", {"class": "spread"},
               h("div", {}, h("h2", {"tabindex": "-1", "data-focus": "setup"}, title),
                 h("p", {"class": "muted"}, *about)),
               button(label, action, cls="btn")),
             *below)


class ToolView:
    """Base of a tool's view: needs ``route``, ``app`` and ``session`` attributes.

    A view is composed of its screens (modules of functions taking the view: the setup
    editor, the board …); each screen gives its taps, and the view joins them in
    :attr:`ACTIONS`, the one map :meth:`handle` reads."""

    route: str

    #: The view's taps: action name (after ``route:``) → what it does, a function
    #: ``(view, arg, event)`` of one of its screens.
    ACTIONS: dict[str, Callable[..., None]] = {}
    #: The taps a spectator's copy does not take: its board offers no move (issue 21).
    MOVES: frozenset[str] = frozenset()
    #: Where the focus goes after a tap, by action name (App.focus_to; issue 14): the first
    #: of these marked elements on the screen.
    FOCUS: dict[str, tuple[str, ...]] = {}
    #: How long (seconds) the app's turn shows before it moves (issue 17). Its decision itself
    #: takes at most ~0.3 s on a tablet (Hard, tests/bench_solo.py), so input is never
    #: blocked for more than half a second.
    APP_MOVE_DELAY = 0.35
    #: What Undo says when every move so far was the app's (issue 17).
    NOTHING_TO_UNDO = "Nothing of yours to undo yet: the app made every move so far."
    #: The game the app's next move is scheduled for (:meth:`schedule_app_move`).
    _app_pending: Any = None
    #: Where the setup form (``draft`` and ``rules``) is kept between visits.
    DRAFT_KEY = ""

    def on_enter(self, params: dict) -> None:
        """``#/<tool>?g=…`` opens a shared game as a new save; ``?slot=…`` opens a save
        (``&quiet=1``: without saying so, when the tap that led here already did). A link
        or a save of another tool's game opens on that tool's table (web/session.py).
        What was set aside at start-up is said first (:meth:`tell_kept`)."""
        self._say_kept()
        if "g" in params:
            self.session.open_link(params["g"])
        elif "slot" in params:
            platform.replace_hash(f"#/{self.route}")
            self.session.open(params["slot"], quiet=params.get("quiet") == "1")

    def on_leave(self) -> None:
        """Leaving the route hides what was private (a revealed hand, a secret bid): it is
        not open when someone comes back (issue 7). Views keep that state in
        ``_reset_view``."""
        self._reset_view()

    def recover(self) -> None:
        """After an unexpected error: back to the plain table (drawers shut, hidden things hidden)."""
        self.session.drawer = None
        self.session.renaming = None
        self.on_leave()

    def on_storage(self, key: str, value: str | None) -> None:
        self.session.on_storage(key, value)

    def import_file(self, file) -> None:
        self.session.import_file(file)

    # ------------------------------------------------------------ screens
    def render(self):
        """The table's screen: the setup form (``render_setup``) before a game, else the
        game's table (``render_table``), in the frame; the app moves when it is its turn."""
        state = self.session.state
        if state is not None:
            self.schedule_app_move(state)
        return self.frame(self.render_setup() if state is None else self.render_table(state))

    def _save_draft(self) -> None:
        """Keep the setup form between visits (:attr:`DRAFT_KEY`)."""
        self.keep_json(self.DRAFT_KEY, {"setup": self.draft, "rules": self.rules})

    # ------------------------------------------------------------ taps
    def handle(self, action: str, arg, el, event) -> None:
        """A tap: Undo goes back to the person's last move when the app plays a side
        (:meth:`undo_for_person`); the session's controls; else the view's own tap, from
        :attr:`ACTIONS`."""
        if action == "session:undo" and self.undo_for_person():
            return
        if self.session.handle(action, arg, el):
            return
        self.tap(action.split(":", 1)[1] if ":" in action else action, arg, event)

    def tap(self, name: str, arg, event) -> None:
        """The view's tap ``name``: refused on a spectator's copy when it is a move
        (:attr:`MOVES`), the focus sent on (:attr:`FOCUS`), then done (:attr:`ACTIONS`); a
        name the view does not know does nothing."""
        if name in self.MOVES and self.spectator:
            return
        focus = self.FOCUS.get(name)
        if focus:
            self.app.focus_to(*focus)
        do = self.ACTIONS.get(name)
        if do is not None:
            do(self, arg, event)

    # ------------------------------------------------------------ the app's player (issue 17)
    def app_plays(self) -> bool:
        """Whether the app plays a side of the open game (a view where it can says so)."""
        return False

    def app_due(self, st) -> bool:
        """Whether the app is to move now in state ``st``."""
        return False

    def app_move(self) -> bool:
        """Make the app's move, as an ordinary recorded action; whether one was made."""
        return False

    def app_undo_target(self, game) -> int | None:
        """The position before the person's last move (None: the app made every move)."""
        return None

    def schedule_app_move(self, st) -> None:
        """When the app is to move, it moves after :attr:`APP_MOVE_DELAY` (its turn shows
        briefly) and the browser's next paint, once for this game value: a game changed
        meanwhile (an undo, another game) is left for the next render to decide."""
        game = self.session.game
        if game is None or self._app_pending is game or not self.app_due(st):
            return
        self._app_pending = game

        def move():
            if self.session.game is not game:
                return  # something changed meanwhile: render decides again
            self._app_pending = None
            if self.app_move():
                self.app.render()

        later = getattr(self.app, "later", None)
        if later is not None:
            # after the delay, the next paint first (issue 33): on a device too busy to draw
            # within the delay, the app's turn is still on screen before it thinks
            after_paint = getattr(self.app, "after_paint", None)
            later(self.APP_MOVE_DELAY, move if after_paint is None else lambda: after_paint(move))
        else:
            from js import window  # type: ignore[import-not-found]
            from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

            window.setTimeout(create_once_callable(lambda *_: move()), int(self.APP_MOVE_DELAY * 1000))

    def work_after_paint(self, key: Any, work: Callable[[], Any], still: Callable[[], bool]) -> bool:
        """Issue 33: heavy work a screen needs (the staff officer's grid) runs after the
        browser painted the tap's direct result (its frame, "working out …"), then the
        screen is drawn again. Once per ``key`` while it waits: a render meanwhile does
        not ask twice. ``still()`` is asked when its turn comes: a tap meanwhile that made
        it moot (Hide, another game) is honoured and nothing is computed. Whether it was
        newly asked."""
        waiting = self.__dict__.setdefault("_work_waiting", set())
        if key in waiting:
            return False
        waiting.add(key)

        def run():
            waiting.discard(key)
            if still():
                work()
                self.app.render()

        after = getattr(self.app, "after_paint", None)
        if after is not None:
            after(run)
        else:
            self.app.later(0, run)
        return True

    def undo_for_person(self) -> bool:
        """With the app playing a side, one tap of Undo goes back to before the person's
        last action (the app's moves after it too, or it would only move again). Whether
        it was handled here."""
        game = self.session.game
        if game is None or not self.app_plays():
            return False
        target = self.app_undo_target(game)
        if target is None:
            self.app.toast(self.NOTHING_TO_UNDO)
        else:
            self.session.goto(target)
        return True

    # ------------------------------------------------------------ the frame of every table
    @property
    def spectator(self) -> bool:
        """Whether the open game is a spectator's copy (read-only: the view offers no move)."""
        game = self.session.game
        return game is not None and games.is_spectator(game)

    def frame(self, body: Any, *, body_key: str = "body", toolbar: Any = None) -> list:
        """The screen of every table: the session's toolbar (or ``toolbar``), the banners
        (a spectator's copy, another tab, an earlier point), the open drawer and
        ``body``, each in its own keyed slot, so that a banner or a drawer that opens
        never shifts (and so never replaces) what is below it: a focused field stays
        put while a tapped button re-renders (issue 7)."""
        return [
            self.session.toolbar() if toolbar is None else toolbar,
            h("div", {"data-key": "banner", "class": "frame-slot"},
              self.spectator_banner(), self.session.banner()),
            h("div", {"data-key": "drawer", "class": "frame-slot"}, self.session.drawer_view()),
            # data-slot="body": where the app's focus fallback looks first (web/app.py)
            h("div", {"data-key": body_key, "class": "frame-slot", "data-slot": "body"}, body),
        ]

    def spectator_banner(self):
        """Issue 21: a game opened from a spectator link says so, at the top."""
        if not self.spectator:
            return None
        if getattr(self.session, "seat_player", False):  # a player's phone: its hand is drawn above (issue 32)
            return h("div", {"class": "spectator-banner", "role": "status", "data-testid": "spectator-banner"},
                     h("strong", {}, "The table: "), "what everyone can see, live from the tablet. What only you "
                     "may see is above; the table's own moves are made on the tablet.")
        if getattr(self.session, "watch", False):  # a phone watching the table, live (issue 32)
            return h("div", {"class": "spectator-banner", "role": "status", "data-testid": "spectator-banner"},
                     h("strong", {}, "Watching: "), "what everyone at the table can see, live from the tablet. "
                     "Moves are made on the tablet.")
        return h("div", {"class": "spectator-banner", "role": "status", "data-testid": "spectator-banner"},
                 h("strong", {}, "Spectator view: "),
                 "what the table can see, read-only. No move can be made here; "
                 "the full game's link opens the game itself (as a new save).")

    def seed_field(self, same: str = "deals the same cards", field: str = "seed"):
        """The setup's optional seed: typed, it makes a game repeatable; the line under it
        says that a typed seed is no secret (issue 21)."""
        return h("label", {"class": "field"}, f"Seed (optional: the same seed {same})",
                 h("input", {"type": "text", "inputmode": "numeric", "data-field": field,
                             "value": self.seed_text, "placeholder": "random", "maxlength": "10",
                             "aria-invalid": "true" if self._seed() is False else None,
                             "aria-describedby": f"{self.route}-seed-note"}),
                 h("span", {"class": "muted seed-note", "id": f"{self.route}-seed-note"}, SEED_NOTE))

    def _seed(self):
        """The typed seed (``seed_text``): None for random, an int, or False when it is not a seed."""
        text = self.seed_text.strip()
        if not text:
            return None
        if whole(text) and int(text) <= MAX_TYPED_SEED:
            return int(text)
        return False

    def start_game(self, kind: str, setup: Any, rules: Any, name: str | None = None,
                   empty_seed: str = "a random deal") -> bool:
        """Start a new game of ``kind`` from the setup form: the typed seed (or a secret
        one), the engine's checks; a refusal goes to ``setup_error``. Whether it started."""
        seed = self._seed()
        if seed is False:
            self.setup_error = (f"The seed must be a whole number from 0 to {MAX_TYPED_SEED}, "
                                f"or empty for {empty_seed}.")
            return False
        try:
            game = games.new_game(kind, setup, rules, seed)
        except ValueError as err:
            self.setup_error = str(err)
            return False
        self.setup_error = None
        self.session.start(game, name(game) if callable(name) else name)
        return True

    def load_json(self, key: str) -> Any:
        """What :meth:`keep_json` kept under ``key``: parsed JSON, or ``None`` when it is
        absent or unreadable (not JSON, nested too deeply, storage refusing to answer).

        The contract: this never raises, and it checks nothing but that the text is
        JSON. Storage can be edited by hand, so what comes back may be any JSON value
        (a number where a dict was kept, a list of the wrong things): the caller
        validates its shape, field by field, before using any of it, and treats
        anything unexpected as a fresh form.
        """
        try:
            raw = self.app.store.storage.get(key)
        except Exception:  # a browser that refuses to read storage: a fresh form
            return None
        if not isinstance(raw, str) or not raw:
            return None
        if codec.json_depth(raw, limit=codec.MAX_DEPTH) > codec.MAX_DEPTH:
            return None  # never handed to the parser: deep nesting overflows Pyodide's stack (fatal)
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):
            return None  # an unreadable draft is just a fresh form

    def keep_json(self, key: str, value: Any, full: str | None = None) -> None:
        """Keep ``value`` (a setup draft, templates) between visits; a full storage never
        stops the form — ``full`` is what to tell the player then, if anything."""
        try:
            self.app.store.storage.set(key, json.dumps(value))
        except Exception:
            if full:
                self.app.toast(full, "error")

    # ------------------------------------------------------------ what is kept between visits (issue 35)
    def read_kept(self, key: str, clean: Callable[[Any], tuple[Any, list[str]]], what: str) -> Any:
        """The value kept under ``key`` between visits, read as hostile input (issue 35).

        Storage can hold anything (a hand edit, an older version, another app): ``clean``
        takes the parsed JSON (``None`` when nothing is kept) and returns ``(value,
        notes)`` — the value as the view keeps it, every field checked, and what did not
        pass, in a player's words (empty when all was well). When something did not
        pass — text that is not JSON, too large or nested too deep, a field of the wrong
        kind, or ``clean`` itself failing — the exact text is set aside
        (:meth:`web.store.Store.keep_aside`: a kept copy in the Saves drawer), the
        cleaned value (or a fresh one) is kept in its place, so that it is said once,
        and the notes wait for :meth:`tell_kept`. ``what`` names the value ("the setup
        form") in those notes. Never raises.
        """
        try:
            raw = self.app.store.storage.get(key)
        except Exception:  # a browser that refuses to read storage: nothing kept
            raw = None
        if not isinstance(raw, str) or not raw:
            return clean(None)[0]
        notes: list[str]
        if len(raw) > MAX_KEPT_CHARS:
            data, notes = None, [f"{what} was far too large ({len(raw):,} characters), so it starts afresh"]
        elif codec.json_depth(raw, limit=codec.MAX_DEPTH) > codec.MAX_DEPTH:
            data, notes = None, [f"{what} was nested too deeply to be read, so it starts afresh"]
        else:
            try:
                data, notes = json.loads(raw), []
            except (ValueError, RecursionError):
                data, notes = None, [f"{what} could not be read at all, so it starts afresh"]
        try:
            value, more = clean(data)
            notes += more
        except Exception:  # a check that fails is a value that did not pass it
            value = clean(None)[0]
            notes.append(f"{what} could not be read, so it starts afresh")
        if notes:
            self._set_aside(key, raw, value, notes)
        return value

    def _set_aside(self, key: str, raw: str, value: Any, notes: list[str]) -> None:
        said = self.__dict__.setdefault("_set_aside_notes", [])  # (notes, whether a copy was kept)
        try:
            self.app.store.keep_aside(key, raw)
        except StoreError:
            said.append((notes, False))
            return
        said.append((notes, True))
        if value is not None:
            self.keep_json(key, value)

    def tell_kept(self, intro: str = "Some of what this table kept between visits could not be used as it was"
                  ) -> None:
        """Say once, in one message, what :meth:`read_kept` set aside since the last time:
        ``intro``, the notes (the first four) and where the original is kept. The message
        waits for the table to be shown (:meth:`on_enter`): every table boots at start-up,
        and four messages at once on another screen would push each other out."""
        found = self.__dict__.pop("_set_aside_notes", [])
        if not found:
            return
        notes = [note for group, _ in found for note in group]
        kept = all(copied for _, copied in found)
        self.__dict__["_kept_message"] = (f"{intro}: " + "; ".join(notes[:4]) + ("; and more" if len(notes) > 4
                                                                                 else "") + ". "
                                          + (KEPT_WHERE if kept else KEPT_NO_ROOM))

    def _say_kept(self) -> None:
        message = self.__dict__.pop("_kept_message", None)
        if message:
            self.app.toast(message, "error")
