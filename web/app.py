"""Boot, router and the one set of event listeners.

Data flows one way: a tap on an element with ``data-action`` becomes a call to the
current view's ``handle(action, arg, event)``; the view turns it into an engine
action (or a change of what is shown), and the app re-renders the view from its
state with the virtual DOM (:mod:`web.dom`). Nothing is read back from the DOM but
the value of the control that changed.
"""

from __future__ import annotations

import importlib
import traceback

from js import Event, document, performance, window  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable, create_proxy  # type: ignore[import-not-found]

from engine.registry import TABLES
from web import platform
from web.dom import Root, Serial, button, h
from web.parts.curtain import Tap, TapGuard
from web.routing import parse_hash
from web.store import MemoryStorage, Store, WebStorage

#: The arrow keys and the (row, column) step each makes in a grid of cards.
ARROWS = {"ArrowLeft": (0, -1), "ArrowRight": (0, 1), "ArrowUp": (-1, 0), "ArrowDown": (1, 0)}

#: A toast longer than this many characters may not fit its two lines: it gets "More".
TOAST_SHORT = 120

#: Controls whose value is typed: taken from their "input" events only.
TEXT_TYPES = {"text", "number", "search", "tel", "email", "url", "password", "textarea"}


class App:
    def __init__(self) -> None:
        self.toasts: list[dict] = []
        self._toast_id = 0
        self.store = Store(self._storage(), now=platform.now_ms, tab_id=platform.tab_id())
        self.roots: dict[str, Root] = {}
        #: Each route's view, as "module:Class": a view is built (its module imported, its
        #: kept data read) when its route is first shown, or at an idle moment after ready
        #: (:meth:`prefetch_views`), so that start-up imports only what the first screen needs.
        self.view_specs = {"home": "web.views.home:HomeView",
                           **{table.route: table.view for table in TABLES},  # engine.registry
                           "join": "web.views.join:JoinView"}  # a phone at the table (issue 32)
        self.views: dict = {}  # the views built so far, by route
        self._started = False  # after start(): a view built from now on boots at once
        self.route = parse_hash(platform.location_hash())[0]
        self._proxies = []  # the listeners' proxies live as long as the page
        self.serial = Serial()  # events are handled one at a time, never inside a render
        self._rendering = False
        self._render_again = False
        self._focus_request: tuple[str, ...] = ()  # data-focus names to focus after this render
        self._scroll_request: str | None = None  # a selector to bring to the top after this render
        self.failure: str | None = None  # details of the last unexpected error (for "Copy details")
        #: The one double-tap guard (web/parts/curtain.py): it refuses only a second tap on what
        #: appeared under the finger, and says so.
        self.tap_guard = TapGuard(same=_same_target)
        self.tap: Tap | None = None  # the tap being handled (views' guards read it)

    def _storage(self):
        """localStorage, or — where the browser refuses it — memory, and say so."""
        try:
            from js import localStorage  # type: ignore[import-not-found]

            storage = WebStorage(localStorage)
            storage.keys()
            return storage
        except Exception:
            self.toast("This browser does not let the app keep data (private mode or storage switched off). "
                       "You can play, but games are lost when the page closes: use Share or Export to keep one.",
                       "error")
            return MemoryStorage()

    # ------------------------------------------------------------ views
    def view(self, route: str):
        """The view of ``route`` (None for a route the app does not have), built on first use.

        Building imports its module and makes the view; once the app has started, its
        ``boot`` (reading what the table kept: the setup form, the last game) runs right
        away, guarded: one table's bad data never stops the others."""
        view = self.views.get(route)
        if view is not None or route not in self.view_specs:
            return view
        module, _, name = self.view_specs[route].partition(":")
        view = self.views[route] = getattr(importlib.import_module(module), name)(self)
        performance.mark(f"ct:view:{route}")  # when each view was built (tests, bench)
        if self._started and hasattr(view, "boot"):
            self._guarded_job(view.boot)()
        return view

    def prefetch_views(self) -> None:
        """After ready, at idle moments, one per moment: build the tables' views not built
        yet (their code imported, their last game replayed), so that the first tap on a
        table finds it ready. A phone's join screen is built only when its link is opened."""
        waiting = [table.route for table in TABLES if table.route not in self.views]
        if not waiting:
            document.documentElement.setAttribute("data-views", "all")  # every table's view is built
            return

        def build() -> None:
            told = len(self.toasts)
            self.view(waiting[0])
            if len(self.toasts) != told:  # what that table kept could not be used: say so now
                self.render()

        def idle(*_) -> None:
            self.serial.run(self._guarded_job(lambda: (build(), self.prefetch_views())))

        later = getattr(window, "requestIdleCallback", None)
        if later is not None:
            later(create_once_callable(idle), platform.js_object({"timeout": 2000}))
        else:  # Safari has no requestIdleCallback
            window.setTimeout(create_once_callable(idle), 200)

    # ------------------------------------------------------------ rendering
    def render(self) -> None:
        """Redraw the current route and the toasts. Never re-entrant: a render asked
        for while one runs (a timer, a nested call) happens right after it."""
        if self._rendering:
            self._render_again = True
            return
        self._rendering = True
        before = self._focus_memo()
        try:
            self._render_again = True
            rounds = 0
            while self._render_again and rounds < 3:
                self._render_again = False
                rounds += 1
                self._render_route()
                self._render_toasts()
        finally:
            self._rendering = False
        view = self.view(self.route)
        if view is not None and hasattr(view, "after_render"):
            view.after_render()
        self._settle_scroll()
        try:
            self._settle_focus(before)
        except Exception:  # focus is a courtesy: it never breaks a tap
            traceback.print_exc()

    # ------------------------------------------------------------ focus (issue 14, WCAG 2.4.3)
    # A view names where the focus goes after an action with ``focus_to("curtain", …)``:
    # the first element of the current route marked ``data-focus="<name>"`` gets it after
    # the patch. Without a request, a control the patch replaced (a refused card, a
    # drawer's toggle) gets the focus back by its identity. A field being typed into
    # keeps the focus: nothing is ever taken from it.
    def focus_to(self, *names: str) -> None:
        """After this event's render, focus the first ``[data-focus=name]`` that exists."""
        self._focus_request = tuple(n for n in names if n)

    def scroll_to(self, selector: str) -> None:
        """After this event's render, bring the table's ``selector`` to the top of the screen
        (under the sticky bar): a new round's acting panel, where the next tap is."""
        self._scroll_request = selector

    def _settle_scroll(self) -> None:
        selector, self._scroll_request = self._scroll_request, None
        route_el = self._route_el()
        if selector is None or route_el is None:
            return
        el = platform.py(route_el.querySelector(selector))
        if el is not None:
            from js import Object  # type: ignore[import-not-found]
            from pyodide.ffi import to_js  # type: ignore[import-not-found]

            el.scrollIntoView(to_js({"block": "start"}, dict_converter=Object.fromEntries))

    def _route_el(self):
        root = self.roots.get(self.route)
        return root.el if root is not None else None

    def _focus_memo(self):
        """What has the focus before a render: the element and a selector that finds its
        successor (its ``data-focus`` name, id, or action and argument)."""
        active = platform.py(document.activeElement)
        if active is None or active == document.body:
            return None
        for attr in ("data-focus", "id", "data-action"):
            if active.hasAttribute(attr):
                selector = f"[{attr}={_css_string(str(active.getAttribute(attr)))}]"
                if attr == "data-action" and active.hasAttribute("data-arg"):
                    selector += f"[data-arg={_css_string(str(active.getAttribute('data-arg')))}]"
                return active, selector
        return active, None

    def _settle_focus(self, before) -> None:
        request, self._focus_request = self._focus_request, ()
        route_el = self._route_el()
        if route_el is None:
            return
        active = platform.py(document.activeElement)
        lost = active is None or active == document.body or not active.isConnected
        if not lost and str(active.tagName).lower() in ("input", "textarea", "select"):
            return  # never steal the focus from a field
        for name in request:
            el = platform.py(route_el.querySelector(f"[data-focus={_css_string(name)}]"))
            if el is not None:
                _focus(el)
                return
        if lost and before is not None and before[1] is not None:
            el = platform.py(route_el.querySelector(before[1]))
            if el is not None:
                _focus(el)
                return
        if lost and before is not None:
            self._focus_fallback(route_el)

    def _focus_fallback(self, route_el) -> None:
        """The focused control is gone and nothing names a successor: the focus goes to
        the table's next action (the first ``data-focus`` target on screen in the body
        of the frame), else to the page's main region, so that the next Tab starts
        from the table and not from the top of the page (WCAG 2.4.3)."""
        targets = platform.py(route_el.querySelectorAll("[data-slot=body] [data-focus]"))
        count = int(targets.length) if targets is not None else 0
        for i in range(count):
            el = platform.py(targets.item(i))
            if el is not None and not el.hasAttribute("disabled") and int(el.getClientRects().length) > 0:
                _focus(el)
                return
        main = platform.py(document.getElementById("main"))
        if main is not None:
            _focus(main)

    def _render_route(self) -> None:
        view = self.view(self.route)
        if view is None:
            return
        root = self.roots.get(self.route)
        if root is None:
            root = self.roots[self.route] = Root(document.getElementById(f"app-{self.route}"))
        try:
            if getattr(window, "ctMeasureRenders", None):
                # Issue 33 (tests/bench_taps.py): what each render costs, the tree and the patch.
                start = performance.now()
                tree = view.render()
                drawn = performance.now()
                root.render(tree)
                performance.measure("ct:render", platform.js_object({"start": start, "end": drawn}))
                performance.measure("ct:patch", platform.js_object({"start": drawn, "end": performance.now()}))
            else:
                root.render(view.render())
        except Exception:  # a bug must not leave a blank table: say so, keep the data
            self.failure = self._details()
            root.tree = None
            root.render(self._failure_box())

    def _failure_box(self):
        details = self.failure or ""
        return h("section", {"class": "panel app-error", "role": "alert", "data-testid": "app-error"},
                 h("h2", {}, "Something went wrong drawing this screen"),
                 h("p", {}, "Your games are safe: every step is saved, nothing was lost. "
                            "“Try again” redraws the table; if this keeps happening, "
                            "“Copy details” copies what went wrong and this game’s link for a bug report."),
                 h("div", {"class": "row"},
                   button("Try again", "app:retry", cls="btn primary"),
                   button("Copy details", "app:copy-details", cls="btn")),
                 h("details", {"class": "error-details"},
                   h("summary", {}, "Show the details"),
                   h("textarea", {"readonly": True, "rows": "6", "aria-label": "Error details",
                                  "value": details})))

    def _details(self) -> str:
        """What went wrong, for a bug report: the traceback and the game's link."""
        lines = [traceback.format_exc().rstrip(), "", f"Route: #/{self.route}"]
        view = self.view(self.route)
        session = getattr(view, "session", None)
        try:
            if session is not None and session.game is not None:
                lines.append(f"Game link: {session.share_url(public=False)}")
        except Exception:  # the report itself must not fail
            lines.append("Game link: (could not be made)")
        try:
            lines.append(f"Browser: {window.navigator.userAgent}")
        except Exception:
            pass
        return "\n".join(lines)

    def copy_details(self) -> None:
        try:
            platform.copy_text(self.failure or "")
            self.toast("Copied the details: paste them into your bug report.")
        except Exception:
            self.toast("This browser does not allow copying here: open “Show the details” and copy the text.",
                       "error")

    def _render_toasts(self) -> None:
        root = self.roots.get("_toasts")
        if root is None:
            root = self.roots["_toasts"] = Root(document.getElementById("toasts"))
        last = len(self.toasts) - 1
        # Toasts stack in one place above the toolbar (static/css/00-base.css): only the
        # newest takes taps and the keyboard; the older ones peek out beneath it (inert)
        # until it goes. A long one shows two lines until "More" opens it.
        root.render([
            h("div", {"class": ["toast", t["kind"], t.get("open") and "open"], "data-key": f"toast-{t['id']}",
                      "role": "alert" if t["kind"] == "error" else None, "inert": index != last},
              h("span", {"class": "toast-text"}, t["text"]),
              button("Less" if t.get("open") else "More", "app:toast-more", t["id"], cls="toast-more",
                     aria_expanded="true" if t.get("open") else "false")
              if len(t["text"]) > TOAST_SHORT else None,
              button(t["action_label"], "app:toast-action", t["id"], cls="toast-action")
              if t.get("action") else None,
              button("✕", "app:toast-close", t["id"], cls="toast-close", aria_label="Dismiss"))
            for index, t in enumerate(self.toasts)
        ])

    def toast(self, text: str, kind: str = "info", action=None, action_label: str = "Undo",
              seconds: float = 6.0) -> None:
        """A short message at the bottom; errors stay until dismissed."""
        self._toast_id += 1
        entry = {"id": self._toast_id, "text": text, "kind": kind, "action": action,
                 "action_label": action_label}
        self.toasts = [t for t in self.toasts if t["text"] != text][-2:] + [entry]
        if kind != "error":
            toast_id = self._toast_id

            def expire():
                self.toasts = [t for t in self.toasts if t["id"] != toast_id]
                self.render()

            self.later(seconds, expire)

    def later(self, seconds: float, job) -> None:
        """Run ``job`` after ``seconds``, in turn with the events (never inside a render)."""
        def fire(*_):
            self.serial.run(self._guarded_job(job))

        window.setTimeout(create_once_callable(fire), int(seconds * 1000))

    def after_paint(self, job) -> None:
        """Run ``job`` once the browser has painted what the current event drew (issue 33):
        a tap draws its direct result first, the heavy part follows. The next animation
        frame comes just before the paint; a timer set there fires after it. In turn with
        the events, as :meth:`later`."""
        def fire(*_):
            self.serial.run(self._guarded_job(job))

        def frame(*_):
            window.setTimeout(create_once_callable(fire), 0)

        window.requestAnimationFrame(create_once_callable(frame))

    # ------------------------------------------------------------ events
    # Every listener reads what it needs from the event at once and returns a job;
    # the jobs run one at a time through ``self.serial`` (see web.dom.Serial).
    def _target(self, event, attr: str):
        target = platform.py(event.target)
        if target is None or not hasattr(target, "closest"):
            return None
        return platform.py(target.closest(f"[{attr}]"))

    def on_click(self, event):
        el = self._target(event, "data-action")
        if el is None or el.hasAttribute("disabled"):
            return None
        if self.route != "home":
            platform.keep_screen_awake()
        action = str(el.getAttribute("data-action"))
        arg = platform.text(el.getAttribute("data-arg"))
        tap = self._tap_of(event, el, action, arg)
        return lambda: self._tap(tap, action, arg, el)

    def on_hold(self, event):
        """A button held down to its end (static/shell.js, data-hold-action): its action, as a tap
        (issue 34 item 7: the gesture the players' view asks before the Observer's view)."""
        el = self._target(event, "data-hold-action")
        if el is None or el.hasAttribute("disabled"):
            return None
        action = str(el.getAttribute("data-hold-action"))
        arg = platform.text(el.getAttribute("data-arg"))
        label = platform.text(el.getAttribute("aria-label")) or str(el.textContent or "")
        # a held press has no spot and is never a finger's double tap (the guard's rule)
        tap = Tap(float(platform.now_ms()), None, (el, action, arg), " ".join(label.split())[:60], touch=False)
        return lambda: self._tap(tap, action, arg, el)

    def on_pointer(self, event):
        """Remember whether the last pointer down was a finger (the guard's touch rule)."""
        try:
            self._pointer = (str(event.pointerType), float(event.timeStamp))
        except (TypeError, ValueError):
            self._pointer = None
        return None

    def _tap_of(self, event, el, action: str, arg) -> Tap:
        """What the double-tap guard needs of a click, read at once: when and where it
        landed and what it hit. Enter/Space on a button (``detail`` 0) and a script's
        click have no spot: they are never taken for a finger's double tap."""
        try:
            x, y, detail = float(event.clientX or 0), float(event.clientY or 0), int(event.detail or 0)
            stamp = float(event.timeStamp)
        except (TypeError, ValueError):
            x = y = 0.0
            detail, stamp = 0, float(platform.now_ms())
        point = None if detail == 0 or (x == 0 and y == 0) else (x, y)
        label = platform.text(el.getAttribute("aria-label")) or str(el.textContent or "")
        pointer = getattr(self, "_pointer", None)
        touch = pointer is not None and pointer[0] in ("touch", "pen") and 0 <= stamp - pointer[1] < 1500
        return Tap(stamp, point, (el, action, arg), " ".join(label.split())[:60], detail=max(detail, 1),
                   touch=touch)

    def _tap(self, tap: Tap, action: str, arg, el) -> None:
        """A tap, through the double-tap guard: a refused one is said, never dropped silently."""
        refusal = self.tap_guard.judge(tap)
        if refusal is not None:
            self.toast(refusal, seconds=5)
            self.render()
            return
        view = self.view(self.route)
        game_before = getattr(getattr(view, "session", None), "game", None)
        route_before = self.route
        self.tap = tap
        try:
            self.dispatch(action, arg, el, tap)
        finally:
            self.tap = None
        view = self.view(self.route)
        moved = self.route != route_before or getattr(getattr(view, "session", None), "game", None) is not game_before
        self.tap_guard.taken(tap, moved)
        if tap.refused:  # a view's own guard (a curtain settling) did not take it: say so
            self.toast(tap.refused, seconds=5)
            self.render()

    def on_field(self, event):
        el = self._target(event, "data-field")
        if el is None:
            return None
        field = str(el.getAttribute("data-field"))
        kind = str(el.type)
        if kind == "checkbox":
            value = "1" if el.checked else ""
        elif kind == "file":
            if event.type == "change":  # a file input also fires "input": import once
                return lambda: self.dispatch("file:" + field, None, el, None)
            return None
        else:
            value = str(el.value)
        if event.type == "change" and kind in TEXT_TYPES:
            # A typed value arrives with its "input" events; a late "change" (on blur,
            # perhaps after its row moved or went) only redraws, it never writes.
            return self.render
        live = event.type == "input"
        row = platform.text(el.getAttribute("data-row"))

        def job():
            view = self.view(self.route)
            # ``row``: the stable id of the field's row (data-row), or None
            if view is not None and view.field(field, value, live, row):
                self.render()

        return job

    def on_key(self, event):
        """Escape closes what is open (a drawer, a question); the arrow keys move between
        the cards of a picker; Ctrl/⌘+Z undoes, Ctrl/⌘+Shift+Z or Ctrl+Y redoes (not
        while typing in a field)."""
        if str(event.key) in ARROWS and not (event.ctrlKey or event.metaKey or event.altKey):
            return self._grid_move(event)
        if str(event.key) == "Tab":
            return self._trap_tab(event)
        if str(event.key) == "Escape" and not (event.ctrlKey or event.metaKey or event.altKey):
            view = self.view(self.route)
            escape = getattr(view, "escape", None) or getattr(getattr(view, "session", None), "escape", None)
            if escape is None:
                return None

            def job():
                if escape():
                    self.render()

            return job
        if not (event.ctrlKey or event.metaKey) or event.altKey:
            return None
        target = platform.py(event.target)
        if target is not None and str(getattr(target, "tagName", "")).lower() in ("input", "textarea", "select"):
            return None
        key = str(event.key).lower()
        if key == "z":
            action = "session:redo" if event.shiftKey else "session:undo"
        elif key == "y":
            action = "session:redo"
        else:
            return None
        event.preventDefault()
        return lambda: self.dispatch(action, None, None, None)

    def _trap_tab(self, event):
        """Tab and Shift+Tab stay inside an open modal dialog (``aria-modal``, such as the
        full-screen QR code): from its last control to its first and back."""
        modal = platform.py(document.querySelector("[aria-modal=true]"))
        if modal is None:
            return None
        found = platform.py(modal.querySelectorAll(
            "button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex='-1'])"))
        controls = [platform.py(found.item(i)) for i in range(int(found.length))] if found is not None else []
        if not controls:
            return None
        active = platform.py(document.activeElement)
        inside = active is not None and bool(modal.contains(active))
        if not inside:
            target = controls[0]
        elif event.shiftKey and active == controls[0]:
            target = controls[-1]
        elif not event.shiftKey and active == controls[-1]:
            target = controls[0]
        else:
            return None
        event.preventDefault()
        return lambda: _focus(target)

    def _grid_move(self, event):
        """An arrow key on a cell of a ``data-grid`` (the 52-card picker, web/parts/cards.py):
        the focus goes to the neighbouring cell (same rank on the next row, kept within the
        row's length). Only the focus moves; nothing is chosen."""
        cell = self._target(event, "data-cell")
        grid = platform.py(cell.closest("[data-grid]")) if cell is not None else None
        if grid is None:
            return None
        try:
            row, col = (int(part) for part in str(cell.getAttribute("data-cell")).split(","))
        except ValueError:
            return None
        d_row, d_col = ARROWS[str(event.key)]
        event.preventDefault()
        row, col = row + d_row, col + d_col
        if row < 0 or col < 0:
            return None
        target = platform.py(grid.querySelector(f'[data-cell="{row},{col}"]'))
        if target is None and d_row:  # a shorter row: its last cell
            cells = platform.py(grid.querySelectorAll(f'[data-cell^="{row},"]'))
            target = platform.py(cells.item(cells.length - 1)) if cells is not None and cells.length else None
        return None if target is None else (lambda: _focus(target))

    def dispatch(self, action: str, arg, el, event) -> None:
        if action == "app:toast-close":
            self.toasts = [t for t in self.toasts if str(t["id"]) != arg]
        elif action == "app:toast-more":
            for t in self.toasts:
                if str(t["id"]) == arg:
                    t["open"] = not t.get("open")
        elif action == "app:toast-action":
            for t in self.toasts:
                if str(t["id"]) == arg and t.get("action"):
                    self.toasts.remove(t)
                    t["action"]()
                    break
        elif action == "app:copy-details":
            self.copy_details()
        elif action == "app:retry":
            self.failure = None
            view = self.view(self.route)
            if view is not None and hasattr(view, "recover"):
                view.recover()
        else:
            view = self.view(self.route)
            if view is not None:
                view.handle(action, arg, el, event)
        self.render()

    def on_drop(self, event):
        view = self.view(self.route)
        transfer = platform.py(event.dataTransfer)
        files = platform.py(transfer.files) if transfer is not None else None
        if view is None or not files or files.length == 0 or not hasattr(view, "import_file"):
            return None
        event.preventDefault()
        file = files.item(0)
        return lambda: view.import_file(file)

    def on_hash(self, *_):
        hash_ = platform.location_hash()
        if hash_ and not hash_.startswith("#/"):
            return None  # an in-page anchor such as the skip link: the route stays
        return lambda: self._go(hash_)

    def _go(self, hash_: str) -> None:
        route, params = parse_hash(hash_)
        previous = self.view(self.route)
        if route != self.route and previous is not None and hasattr(previous, "on_leave"):
            previous.on_leave()
        self.route = route
        view = self.view(route)
        if view is not None and hasattr(view, "on_enter"):
            view.on_enter(params)
        self.render()

    def on_storage(self, event):
        """Another tab changed a save: let the views say so instead of overwriting it."""
        key = platform.text(event.key)
        if key is None:
            return None
        value = platform.text(event.newValue)

        def job():
            for view in self.views.values():
                if hasattr(view, "on_storage"):
                    view.on_storage(key, value)
            self.render()

        return job

    def _guarded_job(self, job):
        def run():
            try:
                job()
            except Exception:
                self.bug()

        return run

    def bug(self) -> None:
        """An unexpected error in a handler: say so in the app's words, keep the data."""
        traceback.print_exc()  # for the developer console; PyScript's on-page display is off
        self.failure = self._details()
        self.toast("Something went wrong with that tap. Your games are safe; nothing was lost.", "error",
                   action=self.copy_details, action_label="Copy details")
        try:
            self.render()
        except Exception:
            traceback.print_exc()

    def listen(self, target, name: str, handler) -> None:
        """``handler`` for ``name`` events: it reads the event and returns a job (or None);
        the jobs run one at a time, and a bug in either is reported while the page lives on."""
        def guarded(event):
            try:
                job = handler(event)
            except Exception:
                self.bug()
                return
            if job is not None:
                self.serial.run(self._guarded_job(job))

        proxy = create_proxy(guarded)
        self._proxies.append(proxy)
        target.addEventListener(name, proxy)

    def start(self) -> None:
        self.listen(document, "pointerdown", self.on_pointer)
        self.listen(document, "click", self.on_click)
        self.listen(document, "ct:hold", self.on_hold)
        self.listen(document, "input", self.on_field)
        self.listen(document, "change", self.on_field)
        self.listen(document, "submit", lambda e: e.preventDefault())
        self.listen(document, "keydown", self.on_key)
        self.listen(document, "dragover", lambda e: e.preventDefault())
        self.listen(document, "drop", self.on_drop)
        self.listen(window, "hashchange", self.on_hash)
        self.listen(window, "storage", self.on_storage)
        self._started = True
        # renders the current route (the others render when visited); a bug in opening what
        # the address names is the app's message, and the app still becomes ready
        self._guarded_job(lambda: self._go(platform.location_hash()))()


def _same_target(a, b) -> bool:
    """Whether two taps hit the same control, unchanged: the same element, with the same
    action and argument (a button the patch reused for another action is another one)."""
    (el_a, action_a, arg_a), (el_b, action_b, arg_b) = a, b
    if (action_a, arg_a) != (action_b, arg_b):
        return False
    try:
        return bool(el_a.isSameNode(el_b))
    except Exception:
        return False


def _css_string(text: str) -> str:
    """``text`` as a quoted CSS string (for attribute selectors)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\a ") + '"'


def _focus(el) -> None:
    """Focus ``el``; scroll only when it is not on screen already."""
    from js import Object  # type: ignore[import-not-found]
    from pyodide.ffi import to_js  # type: ignore[import-not-found]

    el.focus(to_js({"preventScroll": True}, dict_converter=Object.fromEntries))
    rect = el.getBoundingClientRect()
    bar = document.querySelector(".bar")  # the sticky top bar covers what is under it
    top = float(bar.getBoundingClientRect().bottom) if bar is not None else 0.0
    if rect.top < top or rect.bottom > window.innerHeight:
        el.scrollIntoView(to_js({"block": "nearest"}, dict_converter=Object.fromEntries))


def main() -> None:
    performance.mark("ct:imported")
    try:
        app = App()
        app.start()
    except Exception:  # never a traceback on screen: the app's own words, in the boot bar
        traceback.print_exc()
        text = document.getElementById("boot-text")
        if text is not None:
            text.textContent = ("The table could not start. Your saved games are safe in this browser; "
                                "reload the page to try again.")
        return
    performance.mark("ct:ready")
    document.documentElement.setAttribute("data-ready", "true")
    document.dispatchEvent(Event.new("ct:ready"))  # the shell registers the offline worker now
    app.prefetch_views()
    boot = document.getElementById("boot")
    if boot is not None:
        boot.hidden = True
