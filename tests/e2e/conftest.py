"""End-to-end fixtures: build/ served on localhost, Debian's Chromium, one shared browser.

The site is built once per session if ``build/`` is missing (``make test`` builds it
first). Every page records its requests and console errors so tests can prove that
nothing leaves the origin and nothing breaks quietly.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import urlparse

import pytest

from web.serve import serve_in_thread

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build"
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
READY = "html[data-ready='true']"
TABLET_LANDSCAPE = {"width": 1024, "height": 768}
TABLET_PORTRAIT = {"width": 768, "height": 1024}


@pytest.fixture(scope="session")
def site_dir() -> Path:
    if not (BUILD / "index.html").exists():
        from web.build import build

        build(BUILD)
    return BUILD


@pytest.fixture(scope="session")
def base_url(site_dir):  # overrides pytest-base-url: the app's root URL
    server, url = serve_in_thread(site_dir)
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def sub_url(site_dir):
    """The same site under a subpath, as GitHub Pages serves a project site."""
    server, url = serve_in_thread(site_dir, prefix="/conflict-table/")
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_FLAGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": TABLET_LANDSCAPE, "has_touch": True,
            "device_scale_factor": 1, "service_workers": "allow"}


class Recorder:
    """Requests and console errors of one page."""

    def __init__(self, page):
        self.requests: list[str] = []
        self.errors: list[str] = []
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def foreign(self, base: str) -> list[str]:
        origin = urlparse(base).netloc
        return [u for u in self.requests
                if not u.startswith(("data:", "blob:")) and urlparse(u).netloc != origin]


def open_app(page, url: str, timeout: float = 90_000) -> Recorder:
    recorder = Recorder(page)
    page.goto(url)
    page.wait_for_selector(READY, state="attached", timeout=timeout)
    return recorder


@pytest.fixture
def app(page, base_url):
    """A page with the app loaded and ready, at the home route."""
    recorder = open_app(page, base_url)
    page.recorder = recorder
    return page
