"""The bridge to static/wire.js (WebRTC, deflate-raw, the camera) for the tablet
(web/phones.py) and a phone (web/views/join.py), issue 32.

One listener for the page: each peer's events ("open", "close", "state", "message",
"bad") go to the handler that made the peer, in turn with the app's other events
(``app.serial``), never inside a render. A JS promise is awaited in a task whose result
is handled the same way.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable

from js import window  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from web import sdp

_handlers: dict[int, Callable[[str, str], None]] = {}
_state: dict[str, Any] = {}


def js():
    """``window.ctWire`` (static/wire.js), or None when the page has none."""
    return getattr(window, "ctWire", None)


def available() -> bool:
    """Whether this browser can pair a phone (RTCPeerConnection, CompressionStream)."""
    wire = js()
    try:
        return wire is not None and bool(wire.available())
    except Exception:
        return False


def _listen(app) -> None:
    if "proxy" in _state:
        return

    def on_event(peer, kind, text):
        handler = _handlers.get(int(peer))
        if handler is not None:
            kind, text = str(kind), str(text)
            app.serial.run(app._guarded_job(lambda: (handler(kind, text), app.render())))

    _state["proxy"] = proxy = create_proxy(on_event)
    js().listen(proxy)


def attach(app, peer: int, handler: Callable[[str, str], None]) -> None:
    """``handler(kind, text)`` gets peer ``peer``'s events from now on."""
    _listen(app)
    _handlers[peer] = handler


def close(peer: int | None) -> None:
    if peer is None:
        return
    _handlers.pop(peer, None)
    try:
        js().close(peer)
    except Exception:
        pass


def send(peer: int | None, text: str) -> bool:
    """Send ``text`` to ``peer``; whether its channel was open."""
    if peer is None:
        return False
    try:
        return bool(js().send(peer, text))
    except Exception:
        return False


def prefetch_reader() -> None:
    """Fetch the camera's QR reader into the cache (static/wire.js ``prefetchReader``), in the
    background; nothing happens where it is not needed, offline, or without wire.js."""
    wire = js()
    if wire is None:
        return
    try:
        wire.prefetchReader()
    except Exception:
        pass


def secret() -> str:
    """16 bytes from ``crypto.getRandomValues``, as 32 hex digits (a seat's secret)."""
    return str(js().secret(16))


def run(app, promise_of: Callable[[], Any], done: Callable[[Any], None], failed: Callable[[Exception], None]) -> None:
    """Await the JS promise ``promise_of()``; then ``done(result)`` or ``failed(error)``, in
    turn with the app's events, and redraw."""
    async def task():
        try:
            result = await promise_of()
        except Exception as err:  # a JS rejection arrives as JsException
            outcome = (failed, err)
        else:
            outcome = (done, result)
        app.serial.run(app._guarded_job(lambda: (outcome[0](outcome[1]), app.render())))

    asyncio.ensure_future(task())


def pair(result) -> tuple[int, str]:
    """A ``[peer id, text]`` array from wire.js as a Python pair."""
    items = result.to_py() if hasattr(result, "to_py") else result
    return int(items[0]), str(items[1])


# The three steps of pairing: the description squeezed (web/sdp.py), then deflated and
# written base64url by wire.js; read back the other way, as hostile input.
async def offer() -> tuple[int, str]:
    """The tablet: a new peer and its invitation's code."""
    peer, description = pair(await js().offer())
    return peer, str(await js().pack(sdp.squeeze(description)))


async def answer(code: str) -> tuple[int, str]:
    """The phone: the invitation's ``code`` answered; a new peer and the answer's code.
    Raises :class:`web.sdp.SdpError` (or the browser's error) for a code that is not one."""
    description = sdp.expand(str(await js().unpack(code)), offer=True)
    peer, mine = pair(await js().answer(description))
    return peer, str(await js().pack(sdp.squeeze(mine)))


async def accept(peer: int, code: str) -> None:
    """The tablet: the phone's answer ``code`` for ``peer``."""
    await js().accept(peer, sdp.expand(str(await js().unpack(code)), offer=False))
