"""Boot, router and the one set of event listeners.

Data flows one way: a tap on an element with ``data-action`` becomes a call to the
current view's ``handle(action, arg, event)``; the view turns it into an engine
action (or a change of what is shown), and the app re-renders the view from its
state with the virtual DOM (:mod:`web.dom`). Nothing is read back from the DOM but
the value of the control that changed.
"""

from __future__ import annotations

import traceback

from js import Event, document, performance, window  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable, create_proxy  # type: ignore[import-not-found]

from web import platform
from web.dom import Root, button, h
from web.routing import parse_hash
from web.store import MemoryStorage, Store, WebStorage


class App:
    def __init__(self) -> None:
        self.toasts: list[dict] = []
        self._toast_id = 0
        self.store = Store(self._storage(), now=platform.now_ms, tab_id=platform.tab_id())
        self.roots: dict[str, Root] = {}
        from web.views.home import HomeView
        from web.views.battle import BattleView
        from web.views.conflict import ConflictView

        self.views = {"home": HomeView(self), "conflict": ConflictView(self), "battle": BattleView(self)}
        self.route = parse_hash(platform.location_hash())[0]
        self._proxies = []  # the listeners' proxies live as long as the page

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

    # ------------------------------------------------------------ rendering
    def render(self) -> None:
        view = self.views.get(self.route)
        if view is not None:
            root = self.roots.get(self.route)
            if root is None:
                root = self.roots[self.route] = Root(document.getElementById(f"app-{self.route}"))
            try:
                root.render(view.render())
            except Exception:  # a bug must not leave a blank table: say so, keep the data
                traceback.print_exc()
                root.tree = None
                root.render(h("p", {"class": "error-box", "role": "alert"},
                              "Something went wrong drawing this screen. Your games are safe; "
                              "reload the page to continue."))
        self._render_toasts()

    def _render_toasts(self) -> None:
        root = self.roots.get("_toasts")
        if root is None:
            root = self.roots["_toasts"] = Root(document.getElementById("toasts"))
        root.render([
            h("div", {"class": ["toast", t["kind"]], "data-key": f"toast-{t['id']}",
                      "role": "alert" if t["kind"] == "error" else None},
              h("span", {"class": "toast-text"}, t["text"]),
              button(t["action_label"], "app:toast-action", t["id"], cls="toast-action")
              if t.get("action") else None,
              button("✕", "app:toast-close", t["id"], cls="toast-close", aria_label="Dismiss"))
            for t in self.toasts
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

            def expire(*_):
                self.toasts = [t for t in self.toasts if t["id"] != toast_id]
                self._render_toasts()

            window.setTimeout(create_once_callable(expire), int(seconds * 1000))

    # ------------------------------------------------------------ events
    def _target(self, event, attr: str):
        target = platform.py(event.target)
        if target is None or not hasattr(target, "closest"):
            return None
        return platform.py(target.closest(f"[{attr}]"))

    def on_click(self, event) -> None:
        el = self._target(event, "data-action")
        if el is None or el.hasAttribute("disabled"):
            return
        if self.route != "home":
            platform.keep_screen_awake()
        action = str(el.getAttribute("data-action"))
        arg = platform.text(el.getAttribute("data-arg"))
        self.dispatch(action, arg, el, event)

    def on_field(self, event) -> None:
        el = self._target(event, "data-field")
        if el is None:
            return
        field = str(el.getAttribute("data-field"))
        if el.type == "checkbox":
            value = "1" if el.checked else ""
        elif el.type == "file":
            if event.type == "change":  # a file input also fires "input": import once
                self.dispatch("file:" + field, None, el, event)
            return
        else:
            value = str(el.value)
        live = event.type == "input"
        view = self.views.get(self.route)
        if view is not None and view.field(field, value, live):
            self.render()

    def on_key(self, event) -> None:
        """Ctrl/⌘+Z undoes, Ctrl/⌘+Shift+Z or Ctrl+Y redoes (not while typing in a field)."""
        if not (event.ctrlKey or event.metaKey) or event.altKey:
            return
        target = platform.py(event.target)
        if target is not None and str(getattr(target, "tagName", "")).lower() in ("input", "textarea", "select"):
            return
        key = str(event.key).lower()
        if key == "z":
            action = "session:redo" if event.shiftKey else "session:undo"
        elif key == "y":
            action = "session:redo"
        else:
            return
        event.preventDefault()
        self.dispatch(action, None, None, event)

    def dispatch(self, action: str, arg, el, event) -> None:
        if action == "app:toast-close":
            self.toasts = [t for t in self.toasts if str(t["id"]) != arg]
        elif action == "app:toast-action":
            for t in self.toasts:
                if str(t["id"]) == arg and t.get("action"):
                    self.toasts.remove(t)
                    t["action"]()
                    break
        else:
            view = self.views.get(self.route)
            if view is not None:
                view.handle(action, arg, el, event)
        self.render()

    def on_drop(self, event) -> None:
        view = self.views.get(self.route)
        transfer = platform.py(event.dataTransfer)
        files = platform.py(transfer.files) if transfer is not None else None
        if view is None or not files or files.length == 0 or not hasattr(view, "import_file"):
            return
        event.preventDefault()
        view.import_file(files.item(0))

    def on_hash(self, *_):
        hash_ = platform.location_hash()
        if hash_ and not hash_.startswith("#/"):
            return  # an in-page anchor such as the skip link: the route stays
        route, params = parse_hash(hash_)
        self.route = route
        view = self.views.get(route)
        if view is not None and hasattr(view, "on_enter"):
            view.on_enter(params)
        self.render()

    def on_storage(self, event) -> None:
        """Another tab changed a save: let the views say so instead of overwriting it."""
        key = platform.text(event.key)
        if key is None:
            return
        for view in self.views.values():
            if hasattr(view, "on_storage"):
                view.on_storage(key, platform.text(event.newValue))
        self.render()

    def listen(self, target, name: str, handler) -> None:
        """``handler`` for ``name`` events; a bug in it is reported, and the page lives on."""
        def guarded(event):
            try:
                handler(event)
            except Exception as err:
                traceback.print_exc()
                self.toast(f"That did not work: {err}. Your games are safe.", "error")
                self.render()

        proxy = create_proxy(guarded)
        self._proxies.append(proxy)
        target.addEventListener(name, proxy)

    def start(self) -> None:
        self.listen(document, "click", self.on_click)
        self.listen(document, "input", self.on_field)
        self.listen(document, "change", self.on_field)
        self.listen(document, "submit", lambda e: e.preventDefault())
        self.listen(document, "keydown", self.on_key)
        self.listen(document, "dragover", lambda e: e.preventDefault())
        self.listen(document, "drop", self.on_drop)
        self.listen(window, "hashchange", self.on_hash)
        self.listen(window, "storage", self.on_storage)
        for view in self.views.values():
            if hasattr(view, "boot"):
                view.boot()
        self.on_hash()  # renders the current route; the others render when visited


def main() -> None:
    performance.mark("ct:imported")
    App().start()
    performance.mark("ct:ready")
    document.documentElement.setAttribute("data-ready", "true")
    document.dispatchEvent(Event.new("ct:ready"))  # the shell registers the offline worker now
    boot = document.getElementById("boot")
    if boot is not None:
        boot.hidden = True
