"""Print (issue 22): the Rules panels, the battle's result matrices and each table's
record, printed by Chromium (``page.pdf()``) at A4 and Letter and read back with
``pdftotext`` (poppler-utils).

The browser's print dialog is replaced by a stand-in that notes what the page marked
for printing (``<html data-print>``); ``page.pdf()`` then prints the page as it is.
What a printed page must be: only the part asked for, no toolbar, button, drawer,
toast or navigation text; every line of the log whole on one page; light colours
even when the screen is dark; nothing hidden. The pictures of those pages are
``tests/screenshots_print.py`` (not a test).
"""

from __future__ import annotations

import re
import subprocess

import pytest

from engine import codec
from engine import game as games
from engine import record as records
from engine.cards import clean_cards
from tests.engine.test_record import (
    HIDDEN_NAME,
    battle_game,
    campaign_game,
    conflict_game,
    consim_game,
)

from .conftest import READY, TABLET_PORTRAIT, open_app
from .tablet import assert_app_ok

PAPERS = ("A4", "Letter")
#: The print dialog's stand-in: what the page had marked when it asked to print.
NO_DIALOG = ("window.__printed = []; window.print = () => "
             "window.__printed.push(document.documentElement.dataset.print || '');")
#: Words of the app's chrome that must never be on paper (toolbar, drawer, shell).
CHROME = ("Undo", "Redo", "History", "Saves", "Share", "Record of this game", "Copy as post", "Print",
          "Close", "Skip to the table", "Starting the rules engine", "The table opens as soon as",
          "Opened the shared game", "New game", "Rules of ")


def pdf_pages(pdf: bytes, tmp_path, name: str, columns: bool = False) -> list[str]:
    """The text of each page of ``pdf`` (pdftotext, one call per page). ``columns``:
    each page read as its left half, then its right half (the record's steps are
    printed in two columns, which pdftotext otherwise reads across, line by line)."""
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    count = int(re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE).group(1))
    width, height = (float(x) for x in re.search(r"^Page size:\s+([\d.]+) x ([\d.]+)", info, re.MULTILINE).groups())

    def text(n: int, crop: tuple[int, int] | None = None) -> str:
        area = ["-x", str(crop[0]), "-y", "0", "-W", str(crop[1]), "-H", str(int(height) + 1)] if crop else []
        return subprocess.run(["pdftotext", "-f", str(n), "-l", str(n), *area, "-enc", "UTF-8", str(path), "-"],
                              check=True, capture_output=True, text=True).stdout

    half = int(width / 2)
    if columns:
        return [text(n, (0, half)) + "\n" + text(n, (half, int(width) + 1 - half)) for n in range(1, count + 1)]
    return [text(n) for n in range(1, count + 1)]


def norm(text: str) -> str:
    """Text as words: list markers and line breaks gone, spaces single; a rule id broken at
    its hyphen across two printed lines ("OIC-" / "16") joined again."""
    text = re.sub(r"\s+", " ", re.sub(r"[•◦▪]", " ", text)).strip()
    return re.sub(r"\b([A-Z]{2,4})- (\d)", r"\1-\2", text)


def open_game(page, base_url, game) -> None:
    page.add_init_script(NO_DIALOG)
    page.set_viewport_size(TABLET_PORTRAIT)
    page.emulate_media(color_scheme="dark")  # paper is light whatever the screen is
    open_app(page, base_url + f"#/{game.kind}?g={codec.encode_share(game)}")
    for close in page.locator(".toast-close").all():
        close.click()


def open_record(page, kind: str):
    table = page.locator(f"#app-{kind}")
    table.get_by_role("button", name="Record", exact=True).click()
    sheet = table.locator("[data-testid=record-sheet]")
    sheet.wait_for()
    return table, sheet


def hidden_cards(game) -> set[str]:
    """Cards nobody at the table saw: a conflict's hands and discards, never played."""
    full = games.replay(game)
    shown = {p.card.label for r in full.results for p in r.plays} | {p.card.label for p in full.chain}
    held = {c.label for side in full.hands for hand in side for c in hand}
    thrown = {c.label for a in game.actions if a["type"] == "discard" for c in clean_cards(a["cards"])}
    return (held | thrown) - shown


GAMES = {
    "conflict": lambda: conflict_game(actions=400),
    "campaign": lambda: campaign_game(finish=True),
    "initiative": lambda: consim_game(privacy=True),
    "battle": lambda: battle_game(weeks=3, pending=None),
}


@pytest.mark.parametrize("kind", list(GAMES))
def test_the_record_prints_alone_at_a4_and_letter(page, base_url, tmp_path, kind):
    game = GAMES[kind]()
    rec = records.record(game)
    open_game(page, base_url, game)
    table, sheet = open_record(page, kind)
    table.locator("[data-testid=record-print]").click()
    assert page.evaluate("window.__printed") == ["record"]
    assert page.locator("html").get_attribute("data-print") == "record"
    hidden = ([HIDDEN_NAME, "Red Grunt"] if kind == "initiative" else
              sorted(hidden_cards(game)) if kind == "conflict" else [])
    for paper in PAPERS:
        pdf = page.pdf(format=paper)
        pages = pdf_pages(pdf, tmp_path, f"{kind}-{paper}")
        text = norm(" ".join(pages))
        columns = norm(" ".join(pdf_pages(pdf, tmp_path, f"{kind}-{paper}-columns", columns=True)))
        where = f"{kind} at {paper}"
        assert text.startswith(norm(f"{rec.tool} {sheet.locator('.record-title').inner_text()}")), where
        for word in CHROME:
            assert not re.search(rf"\b{re.escape(word)}\b", text), f"{word!r} is printed ({where})"
        # every line of the log, whole, on one page (a page break never splits one)
        for entry in rec.section("log").entries:
            line = norm(" ".join([entry.ref, entry.text, *entry.details]))
            assert any(line in norm(p) for p in pages), f"log line split or missing ({where}): {line[:80]}"
        steps = [norm(f"{n}. {entry.text}") for n, entry in enumerate(rec.section("steps").entries, start=1)]
        for step in steps:
            assert step in columns, f"step missing ({where}): {step}"
        assert [columns.index(step) for step in steps] == sorted(columns.index(step) for step in steps)
        for entry in rec.section("house").entries + rec.section("rules").entries:
            start = text.find(norm(entry.text)[:30])
            assert norm(entry.text) in text and entry.ref in text and entry.tag in text, \
                f"{where}: {entry.text[:60]} … printed as {text[start - 20:start + 200] if start >= 0 else 'nothing'}"
        for token in hidden:
            assert not re.search(rf"(?<![0-9AJQK]){re.escape(token)}", text), f"hidden {token!r} printed ({where})"
        assert str(game.seed) not in text
        # pages are used: at least one, and no more than the text needs (~1,100 characters a page at least)
        assert 1 <= len(pages) <= len(text) // 1100 + 2, f"{len(pages)} pages for {len(text)} characters ({where})"
        if kind == "conflict":
            assert len(pages) > 3  # a long record: its page breaks were tested above
    assert_app_ok(page)


def test_paper_is_light_and_bare_whatever_the_theme(page, base_url):
    game = battle_game(weeks=1)
    open_game(page, base_url, game)
    page.evaluate("localStorage.setItem('ct:theme', 'dark'); document.documentElement.dataset.theme = 'dark'")
    table, sheet = open_record(page, "battle")
    table.locator("[data-testid=record-print]").click()
    page.emulate_media(media="print", color_scheme="dark")
    colours = sheet.evaluate("""el => [getComputedStyle(document.body).backgroundColor,
        getComputedStyle(el).color, getComputedStyle(el).backgroundColor,
        getComputedStyle(el.querySelector('h3')).color]""")
    assert colours == ["rgb(255, 255, 255)", "rgb(0, 0, 0)", "rgb(255, 255, 255)", "rgb(0, 0, 0)"]
    for hidden in ("header.bar", "#app-battle .session-bar", "#app-battle [data-testid=record-print]",
                   "#rules-battle", ".toast-area"):
        assert page.locator(hidden).first.is_hidden(), f"{hidden} is printed"
    assert sheet.is_visible() and sheet.evaluate("el => getComputedStyle(el).overflowY") == "visible"
    page.emulate_media(media="screen")
    assert page.locator("#app-battle .session-bar").is_visible()


def test_the_print_mark_goes_at_the_next_tap_and_the_browser_menu_prints_the_open_record(page, base_url, tmp_path):
    game = battle_game(weeks=2)
    open_game(page, base_url, game)
    table, sheet = open_record(page, "battle")
    table.locator("[data-testid=record-print]").click()
    assert page.locator("html").get_attribute("data-print") == "record"
    page.locator("#battle-title").click()  # any tap: the mark goes
    assert page.locator("html").get_attribute("data-print") is None
    # The browser's own Print with the Record drawer open: the record, nothing else.
    text = norm(" ".join(pdf_pages(page.pdf(format="A4"), tmp_path, "menu")))
    assert records.record(game).section("log").entries[0].text in text
    assert "Result matrices" not in text and not re.search(r"\bUndo\b", text)
    # Closed: the browser's Print gives the tool's rules reference again (the battle: its matrices).
    table.get_by_role("button", name="Close").click()
    text = norm(" ".join(pdf_pages(page.pdf(format="A4"), tmp_path, "closed")))
    assert "Result matrices" in text and "Battle log" not in text


def test_copy_as_post_gives_the_record_in_markdown(page, base_url):
    game = battle_game(weeks=2, pending={"maneuver": "shock", "stratagems": []})
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_game(page, base_url, game)
    table, sheet = open_record(page, "battle")
    name = sheet.locator(".record-title").inner_text()
    table.locator("[data-testid=record-copy]").click()
    expect_label = table.locator("[data-testid=record-copy]")
    assert expect_label.inner_text() == "Copied ✓"
    post = page.evaluate("navigator.clipboard.readText()")
    rec = records.record(game, name=name)
    assert post.startswith(f"# Ascension Isle: {records._md(name)}\n\n- **Table:** Ascension Isle\n")
    for section in ("Where it stands", "Armies", "Battle log", "Every step", "Rules settings", "House rules"):
        assert f"\n## {section}\n" in post
    for entry in rec.section("log").entries:
        assert f"\n- {records._md(entry.text)}\n" in post
    body = post.split("\n## ", 1)[1]  # the dates (local time) aside, it is the engine's post
    assert body == records.to_markdown(rec).split("\n## ", 1)[1]
    assert "Shock" not in post and str(game.seed) not in post  # the secret bid stays secret
    assert_app_ok(page)


@pytest.mark.parametrize("route", ["conflict", "campaign", "initiative", "battle"])
def test_rules_print_before_python(browser, base_url, tmp_path, route):
    # Python never starts here: the Print button is the page shell's (static/shell.js).
    context = browser.new_context(viewport=TABLET_PORTRAIT, color_scheme="dark", service_workers="block")
    try:
        page = context.new_page()
        page.route(re.compile(r".*/(vendor/pyscript/|app\.zip).*"), lambda r: r.abort())
        page.add_init_script(NO_DIALOG)
        page.goto(base_url + f"#/{route}")
        page.wait_for_load_state("domcontentloaded")
        panel = page.locator(f"#rules-{route}")
        panel.locator("summary").click()
        panel.get_by_role("button", name="Print the rules").click()
        assert page.evaluate("window.__printed") == ["rules"]
        assert page.locator(READY).count() == 0  # still no Python
        clauses = panel.locator(".rule[id^='rule-']").evaluate_all("els => els.map(e => e.id.slice(5))")
        assert len(clauses) >= 10
        for paper in PAPERS:
            pages = pdf_pages(page.pdf(format=paper), tmp_path, f"{route}-{paper}")
            text = norm(" ".join(pages))
            assert text.startswith(norm(page.locator(f"#{route}-title").inner_text()))
            assert f"Rules of {page.locator(f'section[data-route={route}]').get_attribute('data-title')}" in text
            for clause in clauses:
                if re.search(r"\d", clause):  # a rule id (OIC-4, HR-AI-13): printed as such
                    assert re.search(rf"\b{re.escape(clause)}\b", text), f"{clause} is not printed ({route}, {paper})"
                else:  # a note of the app's own (rule-solo, rule-privacy): its heading is printed
                    heading = norm(panel.locator(f"#rule-{clause}").locator("h3, h4, h5").first
                                   .evaluate("h => h.firstChild.textContent"))  # its words, not its badge
                    assert heading in text, f"{clause}'s heading is not printed ({route}, {paper})"
            for word in ("Print the rules", "Print the result matrices", "Starting the rules engine",
                         "The table opens as soon as", "Skip to the table", "Conflict Table"):
                assert word not in text, f"{word!r} is printed ({route}, {paper})"
            if route == "battle":
                assert "Result matrices" in text and "Legendary victory" in text  # the whole panel
            assert 2 <= len(pages) <= 14
    finally:
        context.close()


def test_the_battle_matrices_print_as_a_reference_sheet(page, base_url, tmp_path):
    page.add_init_script(NO_DIALOG)
    open_app(page, base_url + "#/battle")
    panel = page.locator("#rules-battle")
    panel.locator("summary").click()
    panel.get_by_role("button", name="Print the result matrices").click()
    assert page.evaluate("window.__printed") == ["matrices"]
    for paper in PAPERS:
        pages = pdf_pages(page.pdf(format=paper), tmp_path, f"matrices-{paper}")
        text = norm(" ".join(pages))
        for caption in ("Drawn combat", "Minor victory", "Major victory", "Crushing victory", "Legendary victory",
                        "Matchups"):
            assert caption in text
        assert not re.search(r"\bAI-3\b", text) and "Rules of Ascension Isle" not in text  # just the matrices
        assert "Print the" not in text
        assert len(pages) <= 4
