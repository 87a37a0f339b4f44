"""The driver loop every screenshot script shares (issue 22: "write each once").

A script defines ``tour(page, base, tag)`` (drive one fresh page through its screens,
naming each shot with ``tag``, e.g. ``1024x768-dark``) and calls :func:`run`: it serves
``build/``, opens Debian's Chromium, and runs the tour once per tablet size and theme,
each in a fresh touch context. Arguments filter what is shot: ``1024x768`` (a size) or
``1024x768-dark`` (one size and theme). A tour that fails leaves ``FAILED-<tag>.png``.
Not a test: pictures to look at before calling a UI done.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import sync_playwright

from builder.serve import serve_in_thread
from tests.e2e.conftest import BUILD, CHROMIUM, CHROMIUM_FLAGS
from tests.e2e.tablet import TABLET_SIZES, size_id

OUT = Path(__file__).resolve().parents[1] / "screenshots"
THEMES = ("light", "dark")


def wanted(tag: str, only: list[str]) -> bool:
    """Whether ``tag`` (``<size>-<theme>``) is asked for: no filter, its size, or itself."""
    return not only or tag in only or tag.rsplit("-", 1)[0] in only


def run(tour: Callable[..., None], argv: list[str] | None = None, **context_options) -> None:
    """Run ``tour(page, base, tag)`` at every tablet size in both themes (see the module)."""
    only = sys.argv[1:] if argv is None else argv
    OUT.mkdir(exist_ok=True)
    server, base = serve_in_thread(BUILD)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
            for size in TABLET_SIZES:
                for theme in THEMES:
                    tag = f"{size_id(size)}-{theme}"
                    if not wanted(tag, only):
                        continue
                    context = browser.new_context(viewport=size, has_touch=True, color_scheme=theme,
                                                  **context_options)
                    page = context.new_page()
                    try:
                        tour(page, base, tag)
                    except Exception:
                        page.screenshot(path=str(OUT / f"FAILED-{tag}.png"))
                        raise
                    finally:
                        context.close()
                    print("shot", tag, file=sys.stderr)
            browser.close()
    finally:
        server.shutdown()
    print(f"screenshots in {OUT}", file=sys.stderr)
