"""A game's record: what a table prints or posts after (or during) a game.

:func:`record` turns a :class:`engine.game.Game` into a :class:`Record`: a title, a few
facts (the tool, the game's name, who played, the dates the caller gives), and
sections — where the game stands or its result, the table (sides, players, roster or
armies), the system's own log, every step of the history, the rules settings in force
(each :class:`engine.rules.Variant` with its RULES.md id) and the app's house rules
(``HR-…`` ids). :func:`to_markdown` gives the same record as a forum post (Ascension
Isle's narrative phase is written in posts).

Hidden means absent. A record is always made from the game's **spectator copy**
(``system(kind).public_game(game)``), the same copy a spectator link carries; nothing a
hand, a blind bid, the deck order, the Observer's privacy or the seed hides can reach
it. Per system:

* **conflict** (OIC): hands and discards are never shown at the table, not even when
  the conflict is over, and the app's own "why" may speak of its hand: the spectator
  copy (cards played, ratings, rounds) is the whole record.
* **campaign** (CMP): hands stay hidden until the negotiating table (CMP-7), where
  every card is laid down; the spectator copy of a finished campaign carries that
  table, so a finished record shows both hands and nothing of the undealt deck.
* **initiative** (CS): the Observer's combatants stay hidden as long as their privacy
  is on (a game master reuses them; a skirmish has no end that reveals them): the
  record shows what the players' view shows, their number but not their names.
* **battle** (AI): a bid is public once both bids are revealed (AI-7); a finished
  battle has no unrevealed bid, so its spectator copy holds everything but the seed.

The record reads each system's state only through its documented attributes; a part
that cannot be read (a newer state shape) is left out with a note, and the steps are
always there: they come from ``describe`` (:func:`engine.game.history`), which every
system provides for every action, old or new.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType, ModuleType
from typing import Any

from . import game as games
from .registry import TABLES
from .rules import Variant

__all__ = ["Entry", "Section", "Record", "RecordError", "TOOL_TITLES", "record", "to_markdown", "to_text", "entry",
           "cards_text", "dice_text"]

#: The tools' names, as the app's navigation says them (engine.registry).
TOOL_TITLES: Mapping[str, str] = MappingProxyType({table.kind: table.title for table in TABLES})

#: Exceptions that mean "this part of the state is not what this version expects".
_SHAPE_ERRORS = (AttributeError, TypeError, KeyError, IndexError, ValueError)

_UNREADABLE = "This part of the table could not be read by this version of the record; the steps below are complete."


class RecordError(ValueError):
    """Arguments that do not make a record (not a game, a date that is not text …)."""


@dataclass(frozen=True)
class Entry:
    """One line of a record: ``text``, with an optional ``ref`` before it (a rule id, a
    round, a step number), a ``tag`` ("house rule", "variant", "ruling"…) and
    ``details`` under it (a round's explanation, a unit of an army …)."""

    text: str
    ref: str = ""
    tag: str = ""
    details: tuple[str, ...] = ()


@dataclass(frozen=True)
class Section:
    """A titled part of a record. ``key`` names it for code ("standing", "table", "log",
    "steps", "rules", "house"); ``numbered`` lists its entries 1, 2, 3 …"""

    key: str
    title: str
    entries: tuple[Entry, ...] = ()
    intro: str = ""
    numbered: bool = False


@dataclass(frozen=True)
class Record:
    """A game's record (see the module docstring). ``facts`` are (label, text) pairs for
    the head of the page; ``note`` says what the record leaves out."""

    kind: str
    tool: str
    title: str
    facts: tuple[tuple[str, str], ...]
    sections: tuple[Section, ...]
    over: bool
    note: str = ""
    steps: int = 0

    def section(self, key: str) -> Section | None:
        """The section called ``key``, or ``None``."""
        return next((s for s in self.sections if s.key == key), None)


# ---------------------------------------------------------------------------
# Building a record


def record(game: games.Game, *, name: str | None = None,
           dates: Iterable[tuple[str, str]] = ()) -> Record:
    """The record of ``game`` at its current position, made from its spectator copy.

    ``name`` is the game's name (its save's name; by default the sides' names);
    ``dates`` are (label, text) pairs the caller formats in the reader's own time
    ("Started", "Nov 29, 2026, 10:42 PM"). The seed, hands, unrevealed bids and the
    Observer's hidden combatants are never in it (see the module docstring).
    """
    if not isinstance(game, games.Game):
        raise RecordError(f"Not a game: {type(game).__name__}")
    if name is not None and not isinstance(name, str):
        raise RecordError("The game's name must be text")
    facts_dates = _dates(dates)
    mod = games.system(game.kind)
    # Always the system's own copy, even of a game that says it is one: a copy of a
    # copy is the same copy, and a crafted "spectator" flag proves nothing.
    public = mod.public_game(game)
    state = games.replay(public)
    labels = games.history(public)[: public.position]
    part = getattr(mod, "record_part", None)  # the system's part of the record (engine.system)
    people: tuple[str, ...] = ()
    table: list[Section] = []
    problems = False
    if part is not None:
        try:
            people, table = part(state, public)
        except _SHAPE_ERRORS:
            people, table, problems = (), [], True
    over = bool(getattr(state, "is_over", False))
    standing = _standing(mod, state, over, problems)
    tool = TOOL_TITLES.get(game.kind, game.kind)
    title = (name or "").strip() or (" vs ".join(people) if people else tool)
    facts: list[tuple[str, str]] = [("Table", tool), ("Game", title)]
    if people:
        facts.append(("Sides" if game.kind != "campaign" else "Players", ", ".join(people)))
    facts.extend(facts_dates)
    later = len(game.actions) - game.position
    if later:
        facts.append(("Point", f"an earlier point of the game: {later} later step{'s are' if later != 1 else ' is'} "
                               "not in this record"))
    facts.append(("Steps", str(len(labels))))
    sections = [standing, *table]
    sections.append(Section("steps", "Every step", tuple(Entry(text) for text in labels),
                            intro="As the history lists them." if labels else "No step taken yet.",
                            numbered=True))
    sections.append(_rules_section(mod, public))
    unused = getattr(mod, "rules_not_in_play", None)  # engine.system: a rule only a choice brings in
    sections.append(_house_section(mod, frozenset(unused(state)) if unused is not None else frozenset()))
    view = getattr(mod, "SPECTATOR_VIEW", "")
    note = ("Made from the spectator copy: " + view) if view else "Made from the spectator copy."
    return Record(kind=game.kind, tool=tool, title=title, facts=tuple(facts),
                  sections=tuple(s for s in sections if s is not None), over=over, note=note,
                  steps=len(labels))


def _dates(dates: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    out = []
    try:
        pairs = list(dates)
    except TypeError:
        raise RecordError("The dates must be (label, text) pairs") from None
    for pair in pairs:
        if (not isinstance(pair, (tuple, list)) or len(pair) != 2
                or not all(isinstance(part, str) for part in pair)):
            raise RecordError("The dates must be (label, text) pairs")
        out.append((pair[0], pair[1]))
    return out


def _standing(mod: ModuleType, state: Any, over: bool, problems: bool) -> Section:
    entries = []
    hook = getattr(mod, "standing", None)
    if hook is not None:
        try:
            text = hook(state)
        except _SHAPE_ERRORS:
            text = ""
        if isinstance(text, str) and text:
            entries.append(Entry(text))
    status = getattr(mod, "status", None)
    text = status(state) if status is not None else ""
    if isinstance(text, str) and text and all(text != e.text for e in entries):
        entries.append(Entry(text))
    if problems:
        entries.append(Entry(_UNREADABLE))
    return Section("standing", "Result" if over else "Where it stands", tuple(entries))


def _rules_section(mod: ModuleType, game: games.Game) -> Section:
    entries = []
    for variant in getattr(mod, "VARIANTS", ()):
        if not isinstance(variant, Variant):
            continue
        value = game.rules.get(variant.key, variant.default)
        text, details = _setting(variant, value, getattr(mod, "SETTING_WORDS", None) or {})
        entries.append(Entry(f"{variant.label}: {text}", ref=variant.rule_id, tag="variant", details=details))
    rulings = tuple(getattr(mod, "RULINGS", ()))
    if rulings:
        entries.append(Entry("Where the source is silent, the app follows its rulings on "
                             + ", ".join(rulings) + " (see the Rules panel).", tag="rulings"))
    intro = "" if entries else "This table has no rules settings: it plays the rules as written."
    return Section("rules", "Rules settings", tuple(entries), intro=intro)


def _setting(variant: Variant, value: Any, words: Mapping[str, str]) -> tuple[str, tuple[str, ...]]:
    """A setting in players' words: a fixed choice by its text, a free-form one (a house
    table) as the changes it makes, one per line, its keys in the system's ``words``."""
    if variant.choices:
        try:
            return variant.describe(value), ()
        except ValueError:
            return _plain(value), ()
    leaves = list(_leaves(value))
    if not leaves:
        return "none (as in the rules)", ()
    return f"{len(leaves)} change{'s' if len(leaves) != 1 else ''}", tuple(
        f"{' · '.join(_words(p, words) for p in path)}: {text}" for path, text in leaves)


def _leaves(value: Any, path: tuple[str, ...] = ()) -> Iterable[tuple[tuple[str, ...], str]]:
    if isinstance(value, Mapping):
        for key in value:
            yield from _leaves(value[key], path + (str(key),))
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from _leaves(item, path + (str(index + 1),))
    elif value not in (None, ""):
        yield path, _plain(value)


def _words(key: str, words: Mapping[str, str]) -> str:
    """A settings key in words: the system's ``SETTING_WORDS`` (the battle's house tables are
    keyed by tier and maneuver), else the key with spaces for underscores."""
    return words.get(key, key.replace("_", " "))


def _plain(value: Any) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def _house_section(mod: ModuleType, unused: frozenset[str] = frozenset()) -> Section:
    rules = getattr(mod, "HOUSE_RULES", {}) or {}
    # How a game from outside is opened (HR-AI-14, HR-OIC-4) is no rule of its play, and the record is
    # made from the spectator copy, which is never checked: the system's OPENING_RULES are left out.
    opening = set(getattr(mod, "OPENING_RULES", ()) or ())
    entries = tuple(Entry(str(text), ref=str(rid), tag="house rule") for rid, text in rules.items()
                    if rid not in opening and rid not in unused)
    intro = ("The app's own rules where the source is silent; each applies when its case arises."
             if entries else "This table has no house rules.")
    return Section("house", "House rules", entries, intro=intro)


# ---------------------------------------------------------------------------
# The systems' tables and logs (documented state attributes only)


def entry(text: str, ref: str, details: Iterable[str] = ()) -> Entry:
    """An entry with ``ref`` before it, unless the text starts with it already
    ("Round 2: …" needs no "Round 2" in front). For the systems' ``record_part``."""
    if not isinstance(text, str) or not isinstance(ref, str):
        raise RecordError("An entry's text and reference must be text")
    lines = _listed(details, "An entry's details")
    if not all(isinstance(line, str) for line in lines):
        raise RecordError("An entry's details must be lines of text")
    return Entry(text, ref="" if text.startswith(ref) else ref, details=tuple(lines))


def cards_text(cards: Iterable[Any]) -> str:
    """Cards as ink-friendly text: rank and suit symbol ("10♦ Q♠")."""
    labels = [card if isinstance(card, str) else getattr(card, "label", None) for card in _listed(cards, "The cards")]
    texts = [label for label in labels if isinstance(label, str)]
    if len(texts) != len(labels):
        raise RecordError("The cards must be cards (or their names)")
    return " ".join(texts)


def dice_text(dice: Iterable[int]) -> str:
    """Dice as text: "6 3 1"."""
    faces = _listed(dice, "The dice")
    if not all(isinstance(d, int) and not isinstance(d, bool) and 0 <= d <= 1000 for d in faces):
        raise RecordError("The dice must be whole numbers (faces)")
    return " ".join(str(d) for d in faces)


def _listed(values: Any, what: str, most: int = 10_000) -> list[Any]:
    """``values`` as a list (at most ``most``), or :class:`RecordError` in a player's words."""
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise RecordError(f"{what} must be a list")
    out = []
    for value in values:
        out.append(value)
        if len(out) > most:
            raise RecordError(f"{what} are more than {most:,}")
    return out






# ---------------------------------------------------------------------------
# As text


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")
_MD_LINE_START = re.compile(r"^(\s*)([-+=>]|\d+[.)])")


def _md(text: str) -> str:
    """``text`` (players' names included) as Markdown that shows exactly that text: no
    emphasis, link, heading, table, HTML or list can come from a name."""
    text = _MD_SPECIAL.sub(r"\\\1", str(text))
    match = _MD_LINE_START.match(text)
    if match:  # "1. Army" or "- Anna" must not start a list of its own
        lead, mark = match.groups()
        text = f"{lead}{mark[:-1]}\\{mark[-1]}{text[match.end():]}"
    return text


def _entry_md(entry: Entry) -> str:
    head = ""
    if entry.ref:
        head += f"**{_md(entry.ref)}** "
    if entry.tag:
        head += f"*{_md(entry.tag)}* "
    return head + _md(entry.text)


def to_markdown(rec: Record) -> str:
    """The record as a Markdown post: a heading, the facts, each section as a list."""
    if not isinstance(rec, Record):
        raise RecordError(f"Not a record: {type(rec).__name__}")
    out = [f"# {_md(rec.tool)}: {_md(rec.title)}", ""]
    out.extend(f"- **{_md(label)}:** {_md(text)}" for label, text in rec.facts)
    out.extend(["", f"*{_md(rec.note)}*"] if rec.note else [])
    for section in rec.sections:
        out.extend(["", f"## {_md(section.title)}", ""])
        if section.intro:
            out.extend([_md(section.intro), ""])
        for number, entry in enumerate(section.entries, start=1):
            mark = f"{number}." if section.numbered else "-"
            out.append(f"{mark} {_entry_md(entry)}")
            pad = " " * (len(mark) + 1)
            out.extend(f"{pad}- {_md(detail)}" for detail in entry.details)
        if out[-1] == "":
            out.pop()
    out.extend(["", "*Recorded with Conflict Table.*"])
    return "\n".join(out) + "\n"


def to_text(rec: Record) -> str:
    """The record as plain text (what a printed page reads), one line per entry."""
    if not isinstance(rec, Record):
        raise RecordError(f"Not a record: {type(rec).__name__}")
    out = [f"{rec.tool}: {rec.title}"]
    out.extend(f"{label}: {text}" for label, text in rec.facts)
    if rec.note:
        out.append(rec.note)
    for section in rec.sections:
        out.extend(["", section.title])
        if section.intro:
            out.append(section.intro)
        for number, entry in enumerate(section.entries, start=1):
            lead = f"{number}. " if section.numbered else ""
            ref = f"{entry.ref} " if entry.ref else ""
            tag = f"[{entry.tag}] " if entry.tag else ""
            out.append(f"{lead}{ref}{tag}{entry.text}")
            out.extend(f"    {detail}" for detail in entry.details)
    return "\n".join(out) + "\n"
