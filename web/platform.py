"""The browser's services, wrapped for the app: localStorage, clock, clipboard, files.

Everything that talks to ``js`` beyond the DOM lives here, so the rest of ``web/``
reads as plain Python.
"""

from __future__ import annotations

from js import Date, Math, document, localStorage, navigator, window  # type: ignore[import-not-found]
from pyodide.ffi import JsException, jsnull  # type: ignore[import-not-found]

from web.store import StorageFull


def py(value):
    """A JS value as Python: ``null`` and ``undefined`` become ``None``."""
    return None if value is None or value is jsnull else value


def text(value) -> str | None:
    """A JS string (or null) as ``str | None``."""
    value = py(value)
    return None if value is None else str(value)


class LocalStorage:
    """``window.localStorage`` behind the :class:`web.store.Storage` protocol."""

    def get(self, key: str) -> str | None:
        return text(localStorage.getItem(key))

    def set(self, key: str, value: str) -> None:
        try:
            localStorage.setItem(key, value)
        except JsException as err:
            if "quota" in str(err).lower():
                raise StorageFull(
                    "This device's storage for the app is full: the game was not saved. "
                    "Export or delete old games to make room; your previous save is intact."
                ) from None
            raise

    def remove(self, key: str) -> None:
        localStorage.removeItem(key)

    def keys(self) -> list[str]:
        keys = (text(localStorage.key(i)) for i in range(int(localStorage.length)))
        return [k for k in keys if k is not None]


def now_ms() -> int:
    return int(Date.now())


def tab_id() -> str:
    return f"tab-{int(Date.now()):x}-{int(Math.random() * 1e9):x}"


def location_hash() -> str:
    return str(window.location.hash or "")


def replace_hash(new_hash: str) -> None:
    """Change the address without adding a history entry (drops a consumed share payload)."""
    window.history.replaceState(None, "", new_hash or "#/")


def page_url_without_hash() -> str:
    href = str(window.location.href)
    return href.split("#", 1)[0]


def copy_text(text: str) -> None:
    navigator.clipboard.writeText(text)


def can_share() -> bool:
    return hasattr(navigator, "share")


def share_link(title: str, url: str) -> None:
    from pyodide.ffi import to_js  # type: ignore[import-not-found]
    from js import Object  # type: ignore[import-not-found]

    navigator.share(to_js({"title": title, "url": url}, dict_converter=Object.fromEntries))


def download(filename: str, text: str) -> None:
    """Save ``text`` as a file (the browser's download)."""
    from js import Blob, URL  # type: ignore[import-not-found]
    from pyodide.ffi import to_js  # type: ignore[import-not-found]
    from js import Object  # type: ignore[import-not-found]

    blob = Blob.new([text], to_js({"type": "application/json"}, dict_converter=Object.fromEntries))
    url = URL.createObjectURL(blob)
    link = document.createElement("a")
    link.href = url
    link.download = filename
    document.body.appendChild(link)
    link.click()
    link.remove()
    URL.revokeObjectURL(url)
