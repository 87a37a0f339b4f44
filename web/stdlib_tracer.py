"""The import tracer of a tracing build (``python -m web.build --trace-imports``).

Never shipped: ``tests/stdlib_trace.py`` builds a site whose standard library is Pyodide's
full one with this module as its ``sitecustomize`` (so it is installed while the
interpreter starts, before Pyodide's own boot imports), runs the e2e and WebKit suites
against it, and collects what it reports. It records the name of every module an
``import`` event names (CPython's audit hook: each first import, whoever asks for it —
Pyodide's boot, PyScript's own Python, the app, segno, the snapshot worker) and posts
the names, one a line, to ``__ct_trace__`` beside the page (web/serve.py appends them to
``$CT_IMPORT_LOG``). The tool keeps the names that are modules of the standard library.

Posts are synchronous requests, so nothing is lost when a test closes its page; names
seen before ``js`` exists (early in the boot) or while it is blocked (the snapshot
worker) wait for the next import, or for :func:`report` (the snapshot worker calls it).
"""

import sys

_pending = []
_busy = [False]


def report():
    """Post the names recorded so far (when the page's ``js`` module is usable)."""
    js = sys.modules.get("js")
    if not _pending or js is None or _busy[0]:
        return
    _busy[0] = True
    try:
        xhr = js.XMLHttpRequest.new()
        xhr.open("POST", js.URL.new("__ct_trace__", js.location.href).href, False)
        xhr.send("\n".join(_pending))
        del _pending[:]
    except Exception:  # keep the names for the next try
        pass
    finally:
        _busy[0] = False


def _hook(event, args):
    if event == "import" and not _busy[0]:
        _pending.append(args[0])
        report()


sys.addaudithook(_hook)
