"""A stand-in browser for the web layer on CPython (and Pyodide under Node): just enough
of ``js`` and ``pyodide.ffi`` for :mod:`web.platform`, and a fake app for
:class:`web.session.Session` and the views' base class.

``browser()`` (a context manager) installs the fakes, imports ``web.platform`` and
``web.session`` against them and yields the fake ``window``; on leaving, the modules
are taken out again so nothing else sees the fakes.
"""

from __future__ import annotations

import contextlib
import importlib
import random
import sys
import types

from web.store import MemoryStorage, Store


class FakeLocation:
    def __init__(self):
        self.href = "http://127.0.0.1:8000/"
        self.hash = ""
        self.replaced: list[str] = []  # location.replace(…) calls: routes the app went to

    def replace(self, url):
        self.replaced.append(url)
        self.hash = url


class FakeHistory:
    def __init__(self, location):
        self.location = location
        self.calls: list[str] = []

    def replaceState(self, _state, _title, url):  # noqa: N802 (JavaScript name)
        self.calls.append(url)
        self.location.hash = url


class FakeWindow:
    def __init__(self):
        self.location = FakeLocation()
        self.history = FakeHistory(self.location)
        self.downloads: list[tuple[str, str]] = []
        self.copied: list[str] = []


class _Date:
    clock = [1_700_000_000_000]

    @staticmethod
    def now():
        return _Date.clock[0]

    @staticmethod
    def new(ms):
        return types.SimpleNamespace(toLocaleString=lambda *a: f"time {ms}")


def _modules(window):
    js = types.ModuleType("js")
    js.window = window
    js.Date = _Date
    js.Math = types.SimpleNamespace(random=lambda: 0.5)
    js.Object = types.SimpleNamespace(fromEntries=dict)
    js.navigator = types.SimpleNamespace(clipboard=types.SimpleNamespace(writeText=window.copied.append))

    class Blob:
        @staticmethod
        def new(parts, _options):
            return "".join(parts)

    class URL:
        @staticmethod
        def createObjectURL(blob):  # noqa: N802
            return blob

        @staticmethod
        def revokeObjectURL(_url):  # noqa: N802
            pass

    class Link:
        def click(self):
            window.downloads.append((self.download, self.href))

        def remove(self):
            pass

    js.Blob, js.URL = Blob, URL
    # A page without the prerendered Rules panel: querySelector finds nothing (the battle's
    # matrices sync, web/views/battle/matrix.py, then leaves the page as it is).
    js.document = types.SimpleNamespace(createElement=lambda tag: Link(),
                                        body=types.SimpleNamespace(appendChild=lambda el: el),
                                        querySelector=lambda selector: None)
    ffi = types.ModuleType("pyodide.ffi")
    ffi.jsnull = object()
    ffi.to_js = lambda value, **kw: value
    pyodide = types.ModuleType("pyodide")
    pyodide.ffi = ffi
    return {"js": js, "pyodide": pyodide, "pyodide.ffi": ffi}


_WEB = ("web.platform", "web.session", "web.parts.tool")


@contextlib.contextmanager
def browser():
    window = FakeWindow()
    saved = {name: sys.modules.get(name) for name in (*_modules(window), *_WEB)}
    sys.modules.update(_modules(window))
    for name in _WEB:
        sys.modules.pop(name, None)
    try:
        for name in _WEB:
            importlib.import_module(name)
        yield window
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


class Clock:
    def __init__(self, start: int = 1_700_000_000_000):
        self.t = start

    def __call__(self) -> int:
        self.t += 1000
        return self.t


class FakeApp:
    """What a Session needs of the app: the store, toasts, focus requests, timers."""

    def __init__(self, storage=None):
        self.store = Store(storage if storage is not None else MemoryStorage(), now=Clock(), tab_id="tab",
                           rng=random.Random(1))
        self.toasts: list[dict] = []
        self.focus: list[tuple[str, ...]] = []
        self.scrolls: list[str] = []
        self.laters: list[tuple[float, object]] = []
        self.tap = None
        self.renders = 0

    def toast(self, text, kind="info", action=None, action_label="Undo", seconds=6.0):
        self.toasts.append({"text": text, "kind": kind, "action": action, "action_label": action_label})

    def focus_to(self, *names):
        self.focus.append(names)

    def scroll_to(self, selector):
        self.scrolls.append(selector)

    def later(self, seconds, job):
        self.laters.append((seconds, job))

    def render(self):
        self.renders += 1

    def texts(self, kind=None) -> list[str]:
        return [t["text"] for t in self.toasts if kind is None or t["kind"] == kind]
