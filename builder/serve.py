"""Serve ``build/`` on localhost with the MIME types Pyodide needs.

``python -m builder.serve [--port 8000] [--dir build] [--prefix /sub/] [--gzip]`` — a static
host for playing and testing. ``--prefix`` serves the site under a subpath, as
GitHub Pages serves a project site (under ``/<repo>/``). ``--gzip`` encodes responses
as GitHub Pages does (``Content-Encoding: gzip`` for text, JavaScript, JSON and wasm;
zip archives and images as they are): ``make bench`` measures the bytes on the wire so.

Two switches for the standard-library tooling (``tests/stdlib_trace.py``), read from the
environment so that every test server (they all come from :func:`serve_in_thread`)
obeys them: ``CT_REQUEST_LOG=<file>`` appends the path of every request to that file;
``CT_IMPORT_LOG=<file>`` accepts the module names a tracing build posts to
``__ct_trace__`` and appends them to that file.
"""

from __future__ import annotations

import argparse
import email.utils
import functools
import gzip
import http.server
import io
import os
import threading
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".zip": "application/zip",
    ".py": "text/plain",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".html": "text/html",
}
#: What a static host such as GitHub Pages compresses on the fly (its CDN gzips text,
#: scripts, JSON, SVG and wasm; archives and PNGs are compressed already).
GZIP_TYPES = {"text/javascript", "application/wasm", "application/json", "application/manifest+json",
              "text/plain", "text/css", "image/svg+xml", "text/html"}
GZIP_LEVEL = 6
#: The path a tracing build posts the standard-library modules it imported to.
TRACE_PATH = "__ct_trace__"
_log_lock = threading.Lock()


def _append(path: str, text: str) -> None:
    with _log_lock, open(path, "a", encoding="utf-8") as log:
        log.write(text)


@functools.lru_cache(maxsize=256)
def _gzipped(path: str, mtime_ns: int, size: int) -> bytes:
    with open(path, "rb") as source:
        return gzip.compress(source.read(), compresslevel=GZIP_LEVEL, mtime=0)


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}
    prefix = "/"
    gzip = False

    def translate_path(self, path: str) -> str:
        if self.prefix != "/":
            if not path.startswith(self.prefix):
                return str(Path(self.directory) / "__outside_prefix__")
            path = "/" + path[len(self.prefix):]
        return super().translate_path(path)

    def end_headers(self) -> None:
        # The service worker does the caching; the server always revalidates.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def do_GET(self) -> None:
        if os.environ.get("CT_REQUEST_LOG"):
            _append(os.environ["CT_REQUEST_LOG"], self.path + "\n")
        super().do_GET()

    def do_POST(self) -> None:
        """Only a tracing build posts, and only its imported module names (``CT_IMPORT_LOG``)."""
        log = os.environ.get("CT_IMPORT_LOG")
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        if not (log and urlsplit(self.path).path.endswith("/" + TRACE_PATH)):
            self.send_error(405)
            return
        _append(log, "".join(line.strip() + "\n" for line in body.splitlines() if line.strip()))
        self.send_response(204)
        self.end_headers()

    def send_head(self):
        """As the standard handler, but gzip-encoded (``self.gzip``) where a static host would."""
        if not self.gzip:
            return super().send_head()
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not urlsplit(self.path).path.endswith("/"):
                return super().send_head()  # the redirect to the slash
            path = os.path.join(path, "index.html")
        ctype = self.guess_type(path)
        accepts = "gzip" in (self.headers.get("Accept-Encoding") or "")
        if ctype not in GZIP_TYPES or not accepts or not os.path.isfile(path):
            return super().send_head()
        stat = os.stat(path)
        since = self.headers.get("If-Modified-Since")
        if since and not self.headers.get("If-None-Match"):
            try:
                if int(stat.st_mtime) <= email.utils.parsedate_to_datetime(since).timestamp():
                    self.send_response(304)
                    self.end_headers()
                    return None
            except (TypeError, ValueError, OverflowError, IndexError):
                pass
        body = _gzipped(path, stat.st_mtime_ns, stat.st_size)
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - stdlib signature
        if getattr(self.server, "verbose", False):
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    verbose = False

    def handle_error(self, request, client_address) -> None:
        """Browsers abort requests all the time (navigation, offline tests): not an error."""


def make_server(directory: Path, port: int = 0, prefix: str = "/", host: str = "127.0.0.1",
                gzip: bool = False) -> Server:
    prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
    handler = functools.partial(type("PrefixHandler", (Handler,), {"prefix": prefix, "gzip": gzip}),
                                directory=str(directory))
    return Server((host, port), handler)


def site_url(host: str, port: int, path: str) -> str:
    """The local address of the site (plain HTTP on the loopback interface)."""
    return urlunsplit(("http", f"{host}:{port}", path, "", ""))


def serve_in_thread(directory: Path, prefix: str = "/", gzip: bool = False) -> tuple[Server, str]:
    """Start a server on a free port; returns it and the site's base URL."""
    server = make_server(directory, 0, prefix, gzip=gzip)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    base = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
    return server, site_url(host, port, base)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dir", type=Path, default=Path(__file__).resolve().parent.parent / "build")
    parser.add_argument("--prefix", default="/")
    parser.add_argument("--gzip", action="store_true", help="gzip-encode as GitHub Pages does")
    args = parser.parse_args()
    server = make_server(args.dir, args.port, args.prefix, gzip=args.gzip)
    server.verbose = True
    host, port = server.server_address[:2]
    prefix = "/" + args.prefix.strip("/") + "/" if args.prefix.strip("/") else "/"
    print(f"Conflict Table is served at {site_url(host, port, prefix)}  (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
