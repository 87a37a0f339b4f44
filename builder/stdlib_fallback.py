"""The safety net of the standard-library cut (issue 19; docs/ARCHITECTURE.md, Start-up).

The browser gets a standard library cut to what the app imports
(``vendor/pyodide/python_stdlib_cut.zip``, made by builder/build.py from the list in
``builder/stdlib-cut.txt``). This module ships inside that zip as ``sitecustomize``, so
CPython's ``site`` installs it while the interpreter starts, before Pyodide, PyScript or
the app import anything; it is never part of app.zip.

It is an import finder, last on ``sys.meta_path``: it answers only for the modules of
Pyodide's full standard library that the cut leaves out (:data:`MISSING`, written by the
builder). Those imported only after the first render (:data:`LATER`: the Share drawer's
QR codes, file import …) come from the small later zip, which the page fetches after
ready at a quiet moment and writes to :data:`LATER_PATH` (static/pyodide-boot.mjs), or
which this module fetches itself if it is not there yet. Any other such import does not
fail either: the first one fetches the full library (``vendor/pyodide/python_stdlib.zip``,
the file Pyodide ships, synchronously, from the service worker's cache or the network),
writes it beside the cut (:data:`FULL_PATH`) and loads the module from it; later ones
use the same copy. A probe such as
``importlib.util.find_spec`` costs nothing: the library is fetched only when a module is
really executed. The page learns of it (``<html data-stdlib="full">`` and a console
warning naming the module); :data:`fallbacks` lists the modules, and the snapshot worker
stores no snapshot of a heap that needed the full library.

Runs on Pyodide (``js``) in the page and in the snapshot worker; importable on CPython
for the tests (tests/build/test_stdlib_cut.py), where :func:`install` takes a fetch.
"""

import sys

#: Modules of the full library that the cut leaves out, those of them in the later zip,
#: and which of them are packages (written by builder/build.py).
MISSING = frozenset()
LATER = frozenset()
PACKAGES = frozenset()
#: The full library and the later zip, relative to the site's root (the page and the
#: snapshot worker both live there), and where they are written in Pyodide's file system.
FULL_URL = "vendor/pyodide/python_stdlib.zip"
FULL_PATH = "/lib/python%d%d-full.zip" % sys.version_info[:2]
LATER_URL = "vendor/pyodide/python_stdlib_later.zip"
LATER_PATH = "/lib/python%d%d-later.zip" % sys.version_info[:2]
#: The modules that needed the full library, and those loaded from the later zip, in order.
fallbacks = []
later = []
#: Set by ``builder.build --report-fallbacks`` (``tests/stdlib_trace.py --check``, never
#: deployed): each fallback is also posted to the test server's ``__ct_trace__``.
REPORT = False


def fetch_sync(url):
    """The bytes at ``url`` (relative to the page or worker), fetched synchronously.

    A synchronous XMLHttpRequest: an import cannot wait for a promise. A window may not
    ask a synchronous request for an ArrayBuffer, so the body comes as a "user-defined"
    string, whose characters carry the bytes in their low 8 bits.
    """
    import _codecs

    import js  # type: ignore[import-not-found]

    xhr = js.XMLHttpRequest.new()
    xhr.open("GET", js.URL.new(url, js.location.href).href, False)
    xhr.overrideMimeType("text/plain; charset=x-user-defined")
    xhr.send()
    if xhr.status != 200:
        raise ImportError(f"the full standard library could not be loaded ({url}: HTTP {xhr.status})")
    return _codecs.utf_16_le_encode(xhr.responseText)[0][::2]


def _announce(name):
    """Tell the page (and whoever reads the console) that the cut missed ``name``."""
    try:
        import js  # type: ignore[import-not-found]

        js.console.warn(f"Conflict Table: the standard library cut lacks {name}; "
                        "loaded it from the full library.")
        if hasattr(js, "document"):
            js.document.documentElement.dataset.stdlib = "full"
        if REPORT:
            xhr = js.XMLHttpRequest.new()
            xhr.open("POST", js.URL.new("__ct_trace__", js.location.href).href, False)
            xhr.send(name)
    except Exception:  # the import matters, not the notice
        pass


class FullLibraryLoader:
    """Executes a module of the full library, fetching the library the first time."""

    def __init__(self, fetch):
        self.fetch = fetch

    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module):
        import os
        import zipimport

        name = module.__name__
        url, path = (LATER_URL, LATER_PATH) if name in LATER else (FULL_URL, FULL_PATH)
        if not os.path.exists(path):  # a restored snapshot starts without the file
            data = self.fetch(url)
            with open(path + ".part", "wb") as out:
                out.write(data)
            os.replace(path + ".part", path)
        if name in LATER:
            later.append(name)
        else:
            fallbacks.append(name)
            _announce(name)
        parent = name.rpartition(".")[0]
        importer = zipimport.zipimporter(path + ("/" + parent.replace(".", "/") if parent else ""))
        exec(importer.get_code(name), module.__dict__)


class StdlibFallback:
    """The finder: a spec for each module of :data:`MISSING`, pointing into the full library."""

    def __init__(self, fetch=fetch_sync):
        self.loader = FullLibraryLoader(fetch)

    def find_spec(self, name, path=None, target=None):
        if name not in MISSING:
            return None
        from importlib.machinery import ModuleSpec

        inner = (LATER_PATH if name in LATER else FULL_PATH) + "/" + name.replace(".", "/")
        package = name in PACKAGES
        spec = ModuleSpec(name, self.loader, origin=inner + ("/__init__.py" if package else ".py"),
                          is_package=package)
        if package:
            spec.submodule_search_locations = [inner]
        spec.has_location = True
        return spec

    def invalidate_caches(self):
        pass


def install(fetch=fetch_sync):
    """Put the finder last on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, StdlibFallback) for f in sys.meta_path):
        sys.meta_path.append(StdlibFallback(fetch))
