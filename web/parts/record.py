"""The record of a game (issue 22): a drawer of every table's session toolbar.

"Record" in the toolbar opens the printable record of the open game — made by
:func:`engine.record.record` from the game's spectator copy, so nothing hidden is
in it — with **Print** (the browser's print, only the record on the page: A4 or
Letter, light colours, static/css/70-print.css) and **Copy as post** (the same
record in Markdown for a group's forum, :func:`engine.record.to_markdown`).

The sheet is drawn from the record only: text stays text (names are never
markup), cards are ranks and suit symbols, dice are numbers.
"""

from __future__ import annotations

from engine import record as records
from web import platform
from web.dom import button, h

#: What ``data-print`` on <html> is set to while the record prints (70-print.css).
PRINT_PART = "record"

_cache: dict = {}


def make(session) -> records.Record:
    """The open game's record, with its save's name and dates (cached per game and name)."""
    game, name = session.game, session.name
    key = (id(game), name, session.slot, platform.now_ms() // 60_000)  # "Recorded" to the minute
    if _cache.get("key") == key and _cache.get("game") is game:
        return _cache["record"]
    rec = records.record(game, name=name or None, dates=_dates(session))
    _cache.update(key=key, game=game, record=rec)
    return rec


def _dates(session) -> list[tuple[str, str]]:
    dates = []
    info = None
    if session.slot is not None:
        info = next((i for i in session.app.store.list(session.kind) if i.id == session.slot), None)
    if info is not None and info.created is not None:
        dates.append(("Started", platform.local_time(info.created)))
    if info is not None and info.updated is not None:
        dates.append(("Last saved", platform.local_time(info.updated)))
    dates.append(("Recorded", platform.local_time(platform.now_ms())))
    return dates


def drawer(session):
    """The Record drawer: Print, Copy as post, Close, and the sheet itself."""
    try:
        rec = make(session)
    except ValueError as err:  # a game this version cannot make a record of: said, not a traceback
        return h("div", {"class": "panel drawer record-drawer", "aria-label": "Record"},
                 h("div", {"class": "spread"}, h("h2", {}, "Record of this game"),
                   button("Close", "session:drawer", "", cls="btn small ghost")),
                 h("p", {"class": "msg-error"}, f"The record of this game could not be made: {err}"))
    return h("div", {"class": "panel drawer record-drawer", "aria-label": "Record"},
             h("div", {"class": "spread record-actions"}, h("h2", {}, "Record of this game"),
               h("div", {"class": "row"},
                 button("Print", "session:record-print", cls="btn small primary", data_testid="record-print"),
                 button("Copied ✓" if session.copied == "post" else "Copy as post", "session:record-copy",
                        cls="btn small", data_testid="record-copy"),
                 button("Close", "session:drawer", "", cls="btn small ghost"))),
             h("p", {"class": "muted small record-help"},
               "Print gives only this record, on A4 or Letter, in light colours. Copy as post gives it as "
               "Markdown for your group's forum. Both are made from the spectator copy: nothing hidden is in them."),
             sheet(rec))


def sheet(rec: records.Record):
    """The printable record: a head with the facts, then each section."""
    facts = h("dl", {"class": "record-facts"},
              [[h("dt", {}, label), h("dd", {}, text)] for label, text in rec.facts])
    parts = [h("header", {"class": "record-head"},
               h("p", {"class": "record-tool"}, rec.tool),
               h("h2", {"class": "record-title"}, rec.title),
               facts,
               h("p", {"class": "record-note"}, rec.note) if rec.note else None)]
    for section in rec.sections:
        items = [_entry(entry, f"{section.key}-{n}") for n, entry in enumerate(section.entries, start=1)]
        parts.append(h("section", {"class": ["record-section", f"record-{section.key}"],
                                   "data-section": section.key, "data-key": section.key},
                       h("h3", {}, section.title),
                       h("p", {"class": "record-intro"}, section.intro) if section.intro else None,
                       h("ol" if section.numbered else "ul", {"class": "record-list"}, items) if items else None))
    parts.append(h("p", {"class": "record-foot"}, "Recorded with Conflict Table."))
    # tabindex: the sheet scrolls inside the drawer, so a keyboard can reach and scroll it
    return h("article", {"class": "record-sheet", "data-testid": "record-sheet", "aria-label": f"Record: {rec.title}",
                         "tabindex": "0"}, parts)


def _entry(entry: records.Entry, key: str):
    return h("li", {"data-key": key},
             h("span", {"class": "rule-id"}, entry.ref) if entry.ref else None,
             " " if entry.ref else None,
             h("span", {"class": ["badge", _badge(entry.tag)]}, entry.tag) if entry.tag else None,
             " " if entry.tag else None,
             entry.text,
             h("ul", {"class": "record-details"}, [h("li", {}, d) for d in entry.details]) if entry.details else None)


def _badge(tag: str) -> str:
    return {"house rule": "house", "variant": "variant", "rulings": "ruling"}.get(tag, "note")


def handle(session, name: str) -> bool:
    """``session:record-…`` taps. Whether it was one."""
    if name == "record-print":
        platform.print_page(PRINT_PART)
        return True
    if name == "record-copy":
        if session.game is not None:
            try:
                post = records.to_markdown(make(session))
            except ValueError as err:
                session.app.toast(f"The record of this game could not be made: {err}", "error")
                return True
            try:
                platform.copy_text(post)
            except Exception:  # no clipboard here (an insecure address, an old browser)
                session.app.toast("This browser does not allow copying here: print the record instead, "
                                  "or select its text and copy it.", "error")
                return True
            session.copied = "post"
        return True
    return False
