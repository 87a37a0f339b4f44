"""Serve ``build/`` on localhost with the MIME types Pyodide needs.

``python -m web.serve [--port 8000] [--dir build] [--prefix /sub/]`` — a static
host for playing and testing. ``--prefix`` serves the site under a subpath, as
GitHub Pages serves a project site (under ``/<repo>/``).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import threading
from urllib.parse import urlunsplit
from pathlib import Path

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


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}
    prefix = "/"

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

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - stdlib signature
        if getattr(self.server, "verbose", False):
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    verbose = False

    def handle_error(self, request, client_address) -> None:
        """Browsers abort requests all the time (navigation, offline tests): not an error."""


def make_server(directory: Path, port: int = 0, prefix: str = "/", host: str = "127.0.0.1") -> Server:
    prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
    handler = functools.partial(type("PrefixHandler", (Handler,), {"prefix": prefix}),
                                directory=str(directory))
    return Server((host, port), handler)


def site_url(host: str, port: int, path: str) -> str:
    """The local address of the site (plain HTTP on the loopback interface)."""
    return urlunsplit(("http", f"{host}:{port}", path, "", ""))


def serve_in_thread(directory: Path, prefix: str = "/") -> tuple[Server, str]:
    """Start a server on a free port; returns it and the site's base URL."""
    server = make_server(directory, 0, prefix)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    base = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
    return server, site_url(host, port, base)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dir", type=Path, default=Path(__file__).resolve().parent.parent / "build")
    parser.add_argument("--prefix", default="/")
    args = parser.parse_args()
    server = make_server(args.dir, args.port, args.prefix)
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
