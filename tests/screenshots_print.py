"""The printed pages, to look at: ``python -m tests.screenshots_print`` → screenshots/print/.

Not a test (tests/e2e/test_print.py asserts what can be asserted). For every tool's
Rules panel, Ascension Isle's result matrices and each table's record of a played
game, it prints the page as Chromium does (``page.pdf()``) at A4 and at Letter — the
screen in the dark theme, so the light print colours are checked too — and turns
every page into a PNG with ``pdftoppm`` (Debian's poppler-utils; ``make
screenshots-print`` installs it); then the screens around it (the toolbar's Record,
the Record drawer, the Rules panel's Print buttons) at the four tablet sizes, light
and dark. Open the PNGs and judge them. ``-k word`` keeps only the pictures whose
name contains the word.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from builder.serve import serve_in_thread
from engine import codec
from tests.e2e.conftest import BUILD, CHROMIUM, CHROMIUM_FLAGS, READY
from tests.e2e.tablet import TABLET_SIZES, size_id
from tests.engine.test_record import (
    battle_game,
    campaign_game,
    conflict_game,
    consim_game,
)

OUT = Path(__file__).resolve().parents[1] / "screenshots" / "print"
PAPERS = ("A4", "Letter")
#: A stand-in for the browser's print dialog: the page says what it would print.
NO_DIALOG = "window.__printed = []; window.print = () => window.__printed.push(document.documentElement.dataset.print || '');"


def games():
    """One played game per table (the hidden tokens of the privacy tests included)."""
    return {
        "conflict": conflict_game(actions=400),
        "campaign": campaign_game(finish=True),
        "initiative": consim_game(privacy=True),
        "battle": battle_game(weeks=4, rules={"house_tables": {"major": {"attack": {"defend": "inflict 2 casualties"}}}}),
    }


def to_pngs(pdf: Path) -> list[Path]:
    stem = pdf.with_suffix("")
    for old in stem.parent.glob(stem.name + "-*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(pdf), str(stem)], check=True)
    return sorted(stem.parent.glob(stem.name + "-*.png"))


def save(page, name: str) -> None:
    for paper in PAPERS:
        pdf = OUT / f"{name}-{paper.lower()}.pdf"
        pdf.write_bytes(page.pdf(format=paper, print_background=True))
        pngs = to_pngs(pdf)
        print(f"{pdf.name}: {len(pngs)} page{'s' if len(pngs) != 1 else ''}")


def quiet(page) -> None:
    """Dismiss the toasts ("Opened the shared game …") before a picture."""
    for close in page.locator(".toast-close").all():
        close.click()


def screens(browser, base: str, only: str) -> None:
    """The Record toggle in the toolbar, the Record drawer and the Rules panel's Print
    buttons at the four tablet sizes, light and dark (what the screen shows)."""
    game = games()["battle"]
    for theme in ("light", "dark"):
        for size in TABLET_SIZES:
            tag = f"{size_id(size)}-{theme}"
            if only not in f"screen-{tag}":
                continue
            context = browser.new_context(viewport=size, color_scheme=theme, has_touch=True, service_workers="block")
            context.add_init_script(NO_DIALOG)
            page = context.new_page()
            page.goto(base + f"#/battle?g={codec.encode_share(game)}")
            page.wait_for_selector(READY, state="attached", timeout=120_000)
            quiet(page)
            page.screenshot(path=str(OUT / f"screen-toolbar-{tag}.png"))
            page.locator("#app-battle").get_by_role("button", name="Record", exact=True).click()
            page.locator("#app-battle [data-testid=record-sheet]").wait_for()
            quiet(page)
            page.screenshot(path=str(OUT / f"screen-record-{tag}.png"))
            page.locator("#rules-battle > summary").click()
            page.locator("#rules-battle .rules-print").scroll_into_view_if_needed()
            page.screenshot(path=str(OUT / f"screen-rules-print-{tag}.png"))
            context.close()


def main(argv: list[str]) -> None:
    only = argv[argv.index("-k") + 1] if "-k" in argv else ""
    OUT.mkdir(parents=True, exist_ok=True)
    server, base = serve_in_thread(BUILD)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
            context = browser.new_context(viewport={"width": 1024, "height": 768}, color_scheme="dark",
                                          has_touch=True, service_workers="block")
            context.add_init_script(NO_DIALOG)
            page = context.new_page()
            for route in ("conflict", "campaign", "initiative", "battle"):
                for part, label in (("rules", "Print the rules"), ("matrices", "Print the result matrices")):
                    name = f"{route}-{part}"
                    if part == "matrices" and route != "battle" or only not in name:
                        continue
                    page.goto(base + f"#/{route}")
                    page.wait_for_selector(READY, state="attached", timeout=120_000)
                    if not page.locator(f"#rules-{route}").evaluate("panel => panel.open"):
                        page.locator(f"#rules-{route} > summary").click()
                    page.locator(f"#rules-{route}").get_by_role("button", name=label).click()
                    save(page, name)
            for kind, game in games().items():
                name = f"{kind}-record"
                if only not in name:
                    continue
                page.goto(base + f"#/{kind}?g={codec.encode_share(game)}")
                page.wait_for_selector(READY, state="attached", timeout=120_000)
                quiet(page)
                table = page.locator(f"#app-{kind}")
                table.get_by_role("button", name="Record", exact=True).click()
                table.locator("[data-testid=record-sheet]").wait_for()
                page.screenshot(path=str(OUT / f"{name}-drawer-dark.png"))
                table.locator("[data-testid=record-print]").click()
                save(page, name)
            screens(browser, base, only)
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main(sys.argv[1:])
