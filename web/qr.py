"""QR codes for the Share drawer: a link becomes a code a phone camera reads (issue 11).

The code itself is made by segno (PyPI: ``segno``, pinned in
``pyproject.toml``). The build ships segno as its own zip (``vendor/segno.zip``,
:mod:`builder.build`), which the browser fetches and imports only when a Share drawer
first opens, so start-up does not pay for it. This module only decides the error
correction, asks segno for the modules and draws them as SVG with :func:`web.dom.h`
(one ``<path>``, never markup from a string).

How big a code may be
---------------------
A code that scans from about a metre off a tablet screen needs big modules. Shown full
screen on the smallest tablet we support (768 CSS px across, about 148 mm on an iPad),
a version-25 code (117 modules plus a 4-module quiet zone each side) gets modules of
about 1.1 mm; a larger version gets smaller modules than a phone camera reliably reads
at that distance. So :data:`MAX_VERSION` is 25, and a longer link is refused with a
message that offers the spectator link, which is shorter.

Error correction by the link's length (:data:`LEVELS`): short links get level Q (25 %
of the code can be lost to glare or a finger), links that fit a version-25 code at
level M (15 %) get M, the longest that fit only at level L (7 %) get L. segno then
raises the level further whenever that keeps the same version (``boost_error``).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from web.dom import VNode, button, h

#: The largest QR version (size) drawn; see the module docstring.
MAX_VERSION = 25

#: Light modules around the code, in modules (ISO/IEC 18004 asks for 4).
QUIET_ZONE = 4

#: ``(level, largest version, bytes that fit)`` in order of preference: the first
#: level whose code for the link is at most that version is used. The byte counts
#: are the byte-mode capacities of ISO/IEC 18004 Table 7 (checked against segno by
#: tests/web/test_qr.py), so the choice costs no trial encoding.
LEVELS = (("Q", 10, 151), ("M", MAX_VERSION, 997), ("L", MAX_VERSION, 1273))

#: The longest link (in bytes) a code is drawn for.
MAX_LINK_BYTES = LEVELS[-1][2]

#: What each level survives, for the caption.
RECOVERS = {"L": "7%", "M": "15%", "Q": "25%", "H": "30%"}


class LinkTooLong(ValueError):
    """A link longer than a reliably scanned code holds; ``str()`` says so to players."""

    def __init__(self, length: int):
        super().__init__(f"This link is {length:,} characters long: too long for a QR code a phone reads "
                         f"reliably from across the table (at most {MAX_LINK_BYTES:,}).")
        self.length = length


@dataclass(frozen=True)
class QrCode:
    """A QR code of ``text``: ``rows`` of dark (True) and light modules, without the quiet zone."""

    text: str
    version: int
    error: str
    rows: tuple[tuple[bool, ...], ...]

    @property
    def size(self) -> int:
        """Modules across, without the quiet zone."""
        return len(self.rows)

    @property
    def extent(self) -> int:
        """Modules across, quiet zone included (the SVG's viewBox)."""
        return self.size + 2 * QUIET_ZONE

    def path(self) -> str:
        """SVG path data of the dark modules: one rectangle per horizontal run, in module units."""
        parts = []
        for y, row in enumerate(self.rows):
            x = 0
            while x < len(row):
                if not row[x]:
                    x += 1
                    continue
                start = x
                while x < len(row) and row[x]:
                    x += 1
                run = x - start
                parts.append(f"M{start + QUIET_ZONE} {y + QUIET_ZONE}h{run}v1h-{run}z")
        return "".join(parts)


def error_level(text: str) -> str:
    """The error correction level for ``text`` (see :data:`LEVELS`); raises :class:`LinkTooLong`."""
    length = len(text.encode("utf-8"))
    for level, _version, capacity in LEVELS:
        if length <= capacity:
            return level
    raise LinkTooLong(len(text))


@lru_cache(maxsize=16)
def make(text: str) -> QrCode:
    """The QR code of ``text`` (a link); raises :class:`LinkTooLong`. Imports segno."""
    import segno  # the first Share drawer pays for this import, not start-up

    level = error_level(text)
    code = segno.make(text, error=level, micro=False, boost_error=True)
    if code.version > MAX_VERSION:  # cannot happen with the capacities above; never draw one
        raise LinkTooLong(len(text))
    rows = tuple(tuple(bool(m) for m in row) for row in code.matrix)
    return QrCode(text, int(code.version), str(code.error).upper(), rows)


def svg(code: QrCode, label: str, cls: str = "qr-svg") -> VNode:
    """The code as an ``<svg>``: a light square (quiet zone included) and its dark modules.

    The colours are fixed (black on white), whatever the theme: a camera reads dark on light.
    """
    extent = code.extent
    return h("svg", {"xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {extent} {extent}",
                     "class": cls, "role": "img", "aria-label": label, "shape-rendering": "crispEdges",
                     "data-version": code.version, "data-error": code.error},
             h("rect", {"width": extent, "height": extent, "fill": "#ffffff"}),
             h("path", {"d": code.path(), "fill": "#000000"}))


def caption(code: QrCode) -> str:
    return (f"Version {code.version} ({code.size}×{code.size} modules), error correction {code.error}: "
            f"reads with up to {RECOVERS.get(code.error, '?')} of the code covered or in glare.")


# --------------------------------------------------------------------------- loading segno

def _segno_present() -> bool:
    import importlib.util

    return "segno" in sys.modules or importlib.util.find_spec("segno") is not None


async def fetch_bytes(url: str) -> bytes:
    """The body of a same-origin file, by the browser's ``fetch`` (answered by the service
    worker's cache offline). Not ``pyodide.http``: that module is itself in the standard
    library's later zip, which is what must be fetched first."""
    from js import fetch  # type: ignore[import-not-found]

    response = await fetch(url)
    if not response.ok:
        raise OSError(f"{url}: HTTP {response.status}")
    return bytes((await response.arrayBuffer()).to_bytes())


async def later_library() -> None:
    """The standard library's later zip (the modules only the QR codes, file import … need;
    builder/stdlib_fallback.py), fetched with ``fetch`` before anything imports from it, when
    the page's quiet-moment prefetch has not put it in place yet. Offline, Chromium answers a
    ``fetch`` from the service worker's cache but not the synchronous request the fallback
    finder would make (docs/PLATFORM-seats.md), so without this a drawer opened early on an
    offline tablet said "Preparing the QR code…" for ever (tests/e2e/test_share_qr.py). A
    failure here is silent: the finder still tries its own way."""
    import os

    site = sys.modules.get("sitecustomize")
    path, url = getattr(site, "LATER_PATH", ""), getattr(site, "LATER_URL", "")
    if not path or not url or os.path.exists(path):
        return
    try:
        data = await fetch_bytes(url)
        if not os.path.exists(path):
            with open(path, "wb") as file:
                file.write(data)
    except Exception:  # the finder fetches it itself
        pass


class SegnoLoader:
    """Gets segno into the interpreter once: already importable (CPython, tests), or
    fetched from the site's ``vendor/segno.zip`` and unpacked next to the app (browser)."""

    URL = "./vendor/segno.zip"

    def __init__(self) -> None:
        self.state = "ready" if _segno_present() else "absent"  # absent → loading → ready | failed
        self.waiting: list[Callable[[], None]] = []

    def ensure(self, on_ready: Callable[[], None]) -> None:
        """Start loading (once); ``on_ready`` is called when it is done or has failed."""
        if self.state in ("ready", "failed"):
            return
        self.waiting.append(on_ready)
        if self.state == "loading":
            return
        self.state = "loading"
        import asyncio

        asyncio.ensure_future(self._load())

    async def _load(self) -> None:
        try:
            import importlib
            import io
            import os
            import zipfile

            await later_library()
            data = await fetch_bytes(self.URL)
            here = os.getcwd()  # where app.zip was unpacked: already on sys.path
            zipfile.ZipFile(io.BytesIO(data)).extractall(here)
            if here not in sys.path:
                sys.path.append(here)
            importlib.invalidate_caches()
            import segno  # noqa: F401
            self.state = "ready"
        except Exception:
            import traceback

            traceback.print_exc()
            self.state = "failed"
        waiting, self.waiting = self.waiting, []
        for callback in waiting:
            callback()


_loader: SegnoLoader | None = None


def loader() -> SegnoLoader:
    global _loader
    if _loader is None:
        _loader = SegnoLoader()
    return _loader


# --------------------------------------------------------------------------- the Share drawer's part

class ShareCodes:
    """The QR codes of one tool's Share drawer and which one is shown full screen.

    ``links`` maps ``"public"``/``"full"`` to ``(title, url)``. :meth:`figure` draws one
    code (or says why there is none); :meth:`overlay` the full-screen one. The session
    routes the ``session:qr-full`` / ``session:qr-close`` taps to :meth:`handle`.
    """

    def __init__(self, rerender: Callable[[], None]):
        self.rerender = rerender
        self.full_screen: str | None = None

    def figure(self, which: str, title: str, url: str) -> VNode:
        try:
            error_level(url)
        except LinkTooLong as err:
            offer = (button("Show the spectator code full screen", "session:qr-full", "public",
                            cls="btn small primary", data_focus=f"qr-full-{which}", aria_haspopup="dialog")
                     if which != "public" else None)
            return h("div", {"class": "qr-figure qr-none", "data-testid": f"qr-{which}"},
                     h("p", {"class": "qr-too-long", "role": "note"}, str(err),
                       " Scan the spectator link instead (it is shorter), or send this link with "
                       "Copy link." if which != "public" else " Send it with Copy link instead."),
                     offer)
        loading = loader()
        if loading.state != "ready":
            loading.ensure(self.rerender)
            text = ("The QR code could not be prepared on this device; use Copy link." if loading.state == "failed"
                    else "Preparing the QR code…")
            return h("div", {"class": "qr-figure qr-none", "data-testid": f"qr-{which}"},
                     h("p", {"class": "muted", "role": "status"}, text))
        code = make(url)
        return h("figure", {"class": "qr-figure", "data-testid": f"qr-{which}"},
                 h("div", {"class": "qr-square"}, svg(code, f"QR code of the {title.lower()} link")),
                 h("figcaption", {"class": "muted"}, caption(code)),
                 button("Full screen", "session:qr-full", which, cls="btn small", data_focus=f"qr-full-{which}",
                        aria_haspopup="dialog", aria_label=f"Show the {title.lower()} QR code full screen"))

    def overlay(self, links: dict[str, tuple[str, str]]) -> VNode | None:
        if self.full_screen not in links or loader().state != "ready":
            return None
        title, url = links[self.full_screen]
        try:
            code = make(url)
        except LinkTooLong:
            return None
        # A modal dialog (issue 22): it takes the focus on its Close button when it opens
        # (data-focus "qr-dialog"), keeps Tab inside (web/app.py), and gives the focus back
        # to the "Full screen" button that opened it when it closes.
        return h("div", {"class": "qr-full", "role": "dialog", "aria-modal": "true", "aria-label": f"{title}: QR code",
                         "aria-describedby": "qr-full-hint", "data-testid": "qr-fullscreen"},
                 h("div", {"class": "qr-full-bar"},
                   h("h2", {}, title),
                   button("Close", "session:qr-close", cls="btn small primary", data_focus="qr-dialog")),
                 h("div", {"class": "qr-full-square"}, svg(code, f"QR code of the {title.lower()} link")),
                 h("p", {"class": "qr-full-hint", "id": "qr-full-hint"}, "Point a phone's camera app at the code and open the link it "
                                                  "shows."))

    def handle(self, name: str, arg: Any) -> bool:
        if name == "qr-full" and arg in ("public", "full"):
            self.full_screen = arg
            return True
        if name == "qr-close":
            self.full_screen = None
            return True
        return False


# --------------------------------------------------------------------------- a code of any text
def code_figure(text: str, label: str, testid: str, rerender: Callable[[], None], brief: bool = False) -> VNode:
    """A QR code of ``text`` (a pairing link or a phone's answer, issue 32) with its caption
    (its length, version and error correction; ``brief``: length and version only, for a
    phone's screen), or a line saying why there is none yet. The same loading and size
    rules as the Share drawer's codes."""
    try:
        error_level(text)
    except LinkTooLong as err:
        return h("div", {"class": "qr-figure qr-none", "data-testid": testid},
                 h("p", {"class": "qr-too-long", "role": "note"}, str(err), " Copy the text instead."))
    loading = loader()
    if loading.state != "ready":
        loading.ensure(rerender)
        words = ("The QR code could not be prepared on this device; copy the text instead."
                 if loading.state == "failed" else "Preparing the QR code…")
        return h("div", {"class": "qr-figure qr-none", "data-testid": testid}, h("p", {"class": "muted", "role": "status"},
                                                                                   words))
    code = make(text)
    return h("figure", {"class": "qr-figure", "data-testid": testid, "data-version": code.version},
             h("div", {"class": "qr-square"}, svg(code, label)),
             h("figcaption", {"class": "muted"}, f"{len(text):,} characters · "
               + (f"QR version {code.version}" if brief else caption(code))))
