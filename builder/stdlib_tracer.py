"""The import tracer of a tracing build (``python -m builder.build --trace-imports``).

Never shipped: ``tests/stdlib_trace.py`` builds a site whose standard library is Pyodide's
full one with this module as its ``sitecustomize`` (installed while the interpreter
starts, before Pyodide's own boot imports), runs browser suites against it and collects
what it reports: the name of every module in ``sys.modules`` read from a file (so also the packages and
``from package import module`` submodules, which CPython's import audit event does not
name, and the codecs imported before ``site``), each tagged with when it was first seen —
``boot`` up to the app's ``ct:ready`` event (and in the snapshot worker), ``later`` after
it (the Share drawer's QR codes, file import, error reports …). Lines ``<phase> <name>``
are posted to ``__ct_trace__`` beside the page (builder/serve.py appends them to
``$CT_IMPORT_LOG``); the tool keeps the modules of the standard library.

The names are posted with synchronous requests, at each import event, at ``ct:ready``, once
a second, and when the snapshot worker calls :func:`report`.
"""

import sys

_seen = set()
_busy = [False]
_hooked = [False]


def _phase(js):
    try:
        return "later" if js.document.documentElement.dataset.ready == "true" else "boot"
    except Exception:  # the snapshot worker has no document
        return "boot"


def _from_zip(module):
    """Read from the standard-library zip (not frozen, built in, or an alias of those such as
    ``importlib._bootstrap``; the tool then keeps the modules of the standard library)."""
    origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
    return ".zip/" in origin or not origin.startswith(("frozen", "built-in")) and origin != ""


def report(*_):
    """Post the modules not posted yet (when the page's ``js`` module is usable)."""
    js = sys.modules.get("js")
    if js is None or _busy[0]:
        return
    _busy[0] = True
    try:
        if not _hooked[0] and hasattr(js, "document"):  # not in the worker: its heap is snapshotted
            _hooked[0] = True
            from pyodide.ffi import create_proxy

            proxy = create_proxy(report)
            js.document.addEventListener("ct:ready", proxy)
            js.setInterval(proxy, 1000)
        new = sorted(name for name in set(sys.modules) - _seen if _from_zip(sys.modules[name]))
        if new:
            phase = _phase(js)
            xhr = js.XMLHttpRequest.new()
            xhr.open("POST", js.URL.new("__ct_trace__", js.location.href).href, False)
            xhr.send("\n".join(f"{phase} {name}" for name in new))
            _seen.update(new)
    except Exception:  # try again at the next event
        pass
    finally:
        _busy[0] = False


def _hook(event, args):
    if event == "import" and not _busy[0]:
        report()


sys.addaudithook(_hook)
