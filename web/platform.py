"""The browser's services, wrapped for the app: clock, address bar, clipboard, files.

Everything that talks to ``js`` beyond the DOM lives here, so the rest of ``web/``
reads as plain Python.
"""

from __future__ import annotations

import functools

from js import URL, Blob, Date, Math, Object, document, navigator, window  # type: ignore[import-not-found]
from pyodide.ffi import jsnull, to_js  # type: ignore[import-not-found]


def py(value):
    """A JS value as Python: ``null`` and ``undefined`` become ``None``."""
    return None if value is None or value is jsnull else value


def text(value) -> str | None:
    """A JS string (or null) as ``str | None``."""
    value = py(value)
    return None if value is None else str(value)


def js_object(values: dict):
    """A plain JavaScript object from a dict (for options arguments)."""
    return to_js(values, dict_converter=Object.fromEntries)


def now_ms() -> int:
    return int(Date.now())


@functools.lru_cache(maxsize=512)
def local_time(ms: int | None) -> str:
    """An epoch-ms time in the reader's own language and time zone: "Nov 29, 2026, 10:42 PM".

    Remembered per time: the Saves drawer shows one per save at every render."""
    if ms is None:
        return "unknown time"
    return str(Date.new(ms).toLocaleString([], js_object({"dateStyle": "medium", "timeStyle": "short"})))


def tab_id() -> str:
    return f"tab-{int(Date.now()):x}-{int(Math.random() * 1e9):x}"


def location_hash() -> str:
    return str(window.location.hash or "")


def replace_hash(new_hash: str) -> None:
    """Change the address without adding a history entry (drops a consumed share payload)."""
    window.history.replaceState(None, "", new_hash or "#/")


def go_to_hash(new_hash: str) -> None:
    """Go to another route without adding a history entry; unlike :func:`replace_hash`,
    the page hears it (``hashchange``), so the shell and the app both move there."""
    window.location.replace(new_hash)


def page_url_without_hash() -> str:
    href = str(window.location.href)
    return href.split("#", 1)[0]


def copy_text(text: str) -> None:
    navigator.clipboard.writeText(text)


def print_page(part: str) -> None:
    """Print one part of the page: ``data-print`` on <html> says which (static/css/70-print.css
    shows only that part in print), then the browser's own print. The page shell
    (static/shell.js) clears the mark at the next tap, key or route change, so a later
    print from the browser's menu prints the page as usual."""
    document.documentElement.setAttribute("data-print", part)
    window.print()


def can_share() -> bool:
    return hasattr(navigator, "share")


def share_link(title: str, url: str) -> None:
    navigator.share(js_object({"title": title, "url": url}))


def download(filename: str, text: str) -> None:
    """Save ``text`` as a file (the browser's download)."""
    url = URL.createObjectURL(Blob.new([text], js_object({"type": "application/json"})))
    link = document.createElement("a")
    link.href = url
    link.download = filename
    document.body.appendChild(link)
    link.click()
    link.remove()
    URL.revokeObjectURL(url)


class _ScreenLock:
    """The screen wake lock: a tablet on the table should not go dark mid-conflict."""

    sentinel = None
    pending = False


def keep_screen_awake() -> None:
    """Ask the browser to keep the screen on (where it can); silently does nothing otherwise.

    The lock ends by itself when the page is hidden; the next tap asks again.
    """
    from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

    lock = _ScreenLock
    held = lock.sentinel is not None and not bool(lock.sentinel.released)
    if held or lock.pending or not hasattr(navigator, "wakeLock"):
        return
    lock.pending = True

    def granted(sentinel):
        lock.sentinel, lock.pending = sentinel, False

    def refused(_error):
        lock.pending = False

    try:
        navigator.wakeLock.request("screen").then(create_once_callable(granted), create_once_callable(refused))
    except Exception:  # an older browser's API shape: the screen just follows its own timeout
        lock.pending = False
