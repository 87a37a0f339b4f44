"""The CONSIM initiative tracker (CS-1 … CS-13), route ``#/initiative``.

Two screens: the roster (fast entry, duplicates, templates and saved sides) and the
tracker (advantages and surprise, the deal, the acting order with the current actor,
shooting with exact odds, statuses, countdowns, the round log, the players' view).
Every rule decision comes from :mod:`engine.consim`; this module only draws the
state and turns taps into actions.

What the players see — the players' view turned towards the table, and a spectator's
copy opened from a link — is drawn from the engine's spectator copy
(:func:`engine.consim.public_game`), never from the Observer's state with things left
out: what the copy does not hold cannot reach the screen (issue 21).

View state kept between visits (localStorage, like the setup draft): the roster form,
templates and saved sides, the ticks for the next deal and whether the players' view
is on (it holds through a reload until the Observer leaves it through its question).
"""

from __future__ import annotations

import copy
import re

from engine import consim as cs
from engine.cards import Card
from engine.game import RuleError
from engine.text import plural
from web.dom import button, h
from web.session import Session
from web.views.cards import card_picker, card_view
from web.views.chances import whole_percent
from web.views.dice import die_faces
from web.views.rulebits import rule_ref, seat_house_rules, with_rule_refs
from web.views.tool import ToolView, whole

ROUTE = "initiative"
DRAFT_KEY = "ct:v1:draft:initiative"
TEMPLATES_KEY = "ct:v1:initiative:templates"
SIDES_KEY = "ct:v1:initiative:sides"
#: The ticks for the next deal (advantages, surprise, per-combatant rows), per game and round.
TICKS_KEY = "ct:v1:initiative:ticks"
#: Whether the players' view is on (view state: it must survive a reload, issue 21).
VIEW_KEY = "ct:v1:initiative:view"
SIDE_CLASS = ("side-a", "side-b", "side-c", "side-d", "side-e", "side-f", "side-g", "side-h")
MAX_SIDES = len(SIDE_CLASS)
MAX_COUNT = 40
#: A kept combatant's name longer than this is cut (the engine takes 40; the form shows why).
MAX_KEPT_NAME = 200
WOUND_LABEL = {cs.WoundStatus.STUN: "STUN", cs.WoundStatus.INJURE: "INJURE", cs.WoundStatus.DYING: "DYING",
               cs.WoundStatus.DEAD: "DEAD"}
COVER_LABEL = {cs.Cover.NONE: "Open", cs.Cover.COVER: "Cover", cs.Cover.GOOD: "Good cover"}
_NUMBERED = re.compile(r"^(.*\S)\s+(\d+)$")
_TRAITS = tuple(t.value for t in cs.Trait)
_GRAINS = tuple(g.value for g in cs.Grain)
_TRAINING = tuple(t.value for t in cs.Training)
#: Where the focus goes after a step of the round (the first that is on the screen).
NEXT_FOCUS = ("next", "end", "deal")


def blank_form() -> dict:
    return {"name": "", "side": 0, "grain": "individual", "training": "trained", "weapon": [],
            "player": False, "count": "1"}


def blank_draft() -> dict:
    return {"sides": ["Players", "Opposition"], "combatants": [], "privacy": True}


def kept_equipment(data) -> dict:
    """The kept roster form's choice of cards and dice (HR-CS-6, HR-CS-7): only known values."""
    rules = data.get("rules") if isinstance(data, dict) else None
    if not isinstance(rules, dict):
        return {}
    return {key: rules[key] for key in ("deck", "dice") if rules.get(key) in ("app", "table")}


def game_name(game) -> str:
    """A save's name: "Players vs Opposition"."""
    return " vs ".join(game.setup["sides"])


def combatant_of(form: dict) -> dict:
    return {"name": form["name"].strip(), "side": int(form["side"]), "grain": form["grain"],
            "training": form["training"], "weapon": list(form["weapon"]), "player": bool(form["player"])}


def numbered(name: str, count: int, taken: set[str]) -> list[str]:
    """"Rifleman" ×3 → Rifleman 1, 2, 3 (continuing after numbers already on the roster)."""
    if count == 1 and name not in taken:
        return [name]
    start = 1
    for other in taken:
        match = _NUMBERED.match(other)
        if match and match.group(1) == name:
            start = max(start, int(match.group(2)) + 1)
    return [f"{name} {start + i}" for i in range(count)]


# ---------------------------------------------------------------- what storage gives back (issue 20)
# Storage can hold anything (an older version's draft, a hand edit, another tab): every
# piece is repaired or dropped here, with a note, before a view ever draws it.


def clean_combatant(raw, sides: int, notes: list[str], where: str = "a combatant") -> dict | None:
    """A roster entry the form and the list can draw, or ``None`` (dropped, with a note)."""
    if not isinstance(raw, dict):
        notes.append(f"{where} that was not a roster entry was dropped")
        return None
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        notes.append(f"{where} without a name was dropped")
        return None
    if len(name) > MAX_KEPT_NAME:
        notes.append(f"{where} “{name.strip()[:40]}…” had a far too long name, which was cut")
        name = name[:MAX_KEPT_NAME]
    label = f"{where} “{name.strip()[:40]}”"
    side = raw.get("side", 0)
    if not isinstance(side, int) or isinstance(side, bool) or not 0 <= side < sides:
        notes.append(f"{label} was on no side of this roster: dropped")
        return None
    out = {"name": name, "side": side, "grain": "individual", "training": "untrained", "weapon": [],
           "player": False}
    for key, allowed in (("grain", _GRAINS), ("training", _TRAINING)):
        value = raw.get(key, out[key])
        if isinstance(value, str) and value in allowed:
            out[key] = value
        else:
            notes.append(f"{label}: its {'kind' if key == 'grain' else key} was unreadable, now {out[key]}")
    weapon = raw.get("weapon", [])
    if isinstance(weapon, list) and all(isinstance(t, str) and t in _TRAITS for t in weapon):
        traits = []
        for t in weapon:  # CS-11: automatic or semi-automatic; ground- or air-vehicle
            pair = next((p for p in (("automatic", "semi-automatic"), ("ground-vehicle", "air-vehicle")) if t in p), ())
            if t not in traits and not any(o in traits for o in pair if o != t):
                traits.append(t)
        out["weapon"] = traits
    else:
        notes.append(f"{label}: its weapon traits were unreadable, now none")
    player = raw.get("player", False)
    if isinstance(player, bool):
        out["player"] = player
    else:
        notes.append(f"{label}: “player character” was unreadable, now off")
    return out


def repair_draft(data) -> tuple[dict, bool, list[str]]:
    """The kept roster form ``{"draft": …, "rules": …}`` as ``(draft, pulp, notes)``."""
    notes: list[str] = []
    draft, pulp = blank_draft(), False
    if data is None:
        return draft, pulp, notes
    if not isinstance(data, dict) or not isinstance(data.get("draft"), dict):
        return draft, pulp, ["the kept roster form could not be read, so it starts afresh"]
    raw = data["draft"]
    sides = raw.get("sides")
    if isinstance(sides, list) and sides:
        names = [s if isinstance(s, str) else f"Side {i + 1}" for i, s in enumerate(sides)]
        if any(not isinstance(s, str) for s in sides):
            notes.append("a side's name was unreadable and was renamed")
        if len(names) > MAX_SIDES:
            notes.append(f"the roster had {len(names)} sides; a roster has at most {MAX_SIDES}: "
                         f"kept the first {MAX_SIDES}")
            names = names[:MAX_SIDES]
        while len(names) < 2:
            names.append(blank_draft()["sides"][len(names)])
        draft["sides"] = names
    elif sides is not None:
        notes.append("the sides were unreadable: Players and Opposition")
    combatants = raw.get("combatants", [])
    if not isinstance(combatants, list):
        notes.append("the roster list was unreadable: it is empty now")
        combatants = []
    draft["combatants"] = [c for c in (clean_combatant(c, len(draft["sides"]), notes) for c in combatants) if c]
    privacy = raw.get("privacy", True)
    draft["privacy"] = privacy if isinstance(privacy, bool) else True
    if not isinstance(privacy, bool):
        notes.append("whether the Observer's combatants are hidden was unreadable, now hidden")
    rules = data.get("rules")
    if isinstance(rules, dict) and isinstance(rules.get("pulp"), bool):
        pulp = rules["pulp"]
    elif rules is not None and not (isinstance(rules, dict) and rules.get("pulp") is None):
        notes.append("the pulp setting was unreadable, now off")
    if isinstance(rules, dict):
        for key in ("deck", "dice"):
            if rules.get(key) is not None and rules.get(key) not in ("app", "table"):
                notes.append(f"whose {'cards' if key == 'deck' else 'dice'} was unreadable, now the app's")
    return draft, pulp, notes


def clean_kept_draft(data) -> tuple[dict, list[str]]:
    """The kept roster form as it is stored, ``{"draft": …, "rules": …}``, and notes."""
    draft, pulp, notes = repair_draft(data)
    return {"draft": draft, "rules": {"pulp": pulp, **kept_equipment(data)}}, notes


def clean_ticks(data) -> tuple[dict, list[str]]:
    """The kept ticks for the next deal (``_store_ticks``'s shape), checked field by
    field; anything else clears them, with a note (issue 35: a key "²" broke the table)."""
    if data is None or data == {}:
        return {}, []
    cleared = ({}, ["the ticks for the next deal could not be read, so they were cleared"])
    if not isinstance(data, dict):
        return cleared
    slot, rnd, adv = data.get("slot"), data.get("round"), data.get("advantages", {})
    surprised, per = data.get("surprised", []), data.get("per", False)
    if slot is not None and not (isinstance(slot, str) and slot.startswith(ROUTE + "-") and len(slot) <= 60):
        return cleared
    if not (isinstance(rnd, int) and not isinstance(rnd, bool) and 0 <= rnd < 1_000_000):
        return cleared
    if not isinstance(adv, dict) or not all(
            whole(k) and len(k) <= 4 and isinstance(v, list) and all(isinstance(a, str) and a in cs.ADVANTAGES
                                                                     for a in v) for k, v in adv.items()):
        return cleared
    if not isinstance(surprised, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) and 0 <= i < MAX_SIDES for i in surprised):
        return cleared
    if not isinstance(per, bool):
        return cleared
    return {"slot": slot, "round": rnd, "advantages": {k: list(dict.fromkeys(v)) for k, v in adv.items()},
            "surprised": sorted(set(surprised)), "per": per}, []


def clean_view(data) -> tuple[dict, list[str]]:
    """Whether the players' view is on, kept as ``{"players": true}``."""
    if data is None:
        return {"players": False}, []
    if isinstance(data, dict) and isinstance(data.get("players"), bool):
        return {"players": data["players"]}, []
    return {"players": False}, ["whether the players' view was on could not be read, so it is off"]


def noted(clean):
    """``clean(data, notes)`` as ``data → (value, notes)`` (for :meth:`ToolView.read_kept`)."""
    def read(data):
        notes: list[str] = []
        return clean(data, notes), notes

    return read


def clean_templates(data, notes: list[str]) -> list[dict]:
    """Kept templates: ``{"name": …, "combatant": {…}}`` each, repaired or dropped."""
    if data is None:
        return []
    if not isinstance(data, list):
        notes.append("the kept templates could not be read")
        return []
    out = []
    for t in data:
        if not isinstance(t, dict) or not isinstance(t.get("name"), str) or not t["name"].strip():
            notes.append("a template without a name was dropped")
            continue
        raw = t.get("combatant")
        raw = {**raw, "name": raw.get("name", t["name"]), "side": 0} if isinstance(raw, dict) else None
        entry = clean_combatant(raw, 1, notes, "template") if raw is not None else None
        if entry is None:
            if raw is None:
                notes.append(f"template “{t['name'][:40]}” held no combatant: dropped")
            continue
        out.append({"name": t["name"], "combatant": entry})
    return out


def clean_saved_sides(data, notes: list[str]) -> list[dict]:
    """Kept sides: ``{"name": …, "combatants": […]}`` each, repaired or dropped."""
    if data is None:
        return []
    if not isinstance(data, list):
        notes.append("the kept sides could not be read")
        return []
    out = []
    for s in data:
        if not isinstance(s, dict) or not isinstance(s.get("name"), str) or not s["name"].strip() \
                or not isinstance(s.get("combatants"), list):
            notes.append("a kept side that could not be read was dropped")
            continue
        members = [clean_combatant({**c, "side": 0} if isinstance(c, dict) else c, 1, notes,
                                   f"in side “{s['name'][:40]}”, a combatant") for c in s["combatants"]]
        out.append({"name": s["name"], "combatants": [{k: v for k, v in m.items() if k != "side"}
                                                     for m in members if m]})
    return out


def card_tag(card, *extra, label: str | None = None) -> object:
    """A compact card for lists (rank and suit, suit-coloured), named for screen readers."""
    return h("span", {"class": ["ctag", "red" if card.suit.is_red else "black", *extra], "role": "img",
                      "aria-label": label or card.name, "data-card": card.token}, card.label)


def pips(count: int) -> object:
    """CS-3/CS-7: suppression as pips (two pips strike a card at the deal)."""
    shown = min(count, 10)
    return h("span", {"class": "pips", "role": "img", "aria-label": f"suppression {count}"},
             [h("span", {"class": ["pip", i % 2 and "pair"]}) for i in range(shown)],
             h("span", {"class": "pip-more"}, f"+{count - shown}") if count > shown else None)


def loss_chip(f: cs.Forecast):
    """Issue 22: exactly what the next deal strikes (CS-3, CS-10), "no cards" when so."""
    if f.deal == 0:
        if f.why in (None, "DEAD", "DYING"):
            return None  # the condition's own chip says it (CS-13: no cards)
        return h("span", {"class": "chip loss", "data-testid": "loss"}, f"no cards next round ({f.why})")
    parts = [f"{f.by_suppression} for suppression" if f.by_suppression else "",
             "1 for INJURED" if f.by_injury else ""]
    parts = [p for p in parts if p]
    if not parts:
        return None
    tail = "no cards" if f.keeps == 0 else f"keeps {f.keeps} of {f.deal}"
    return h("span", {"class": "chip loss", "data-testid": "loss"},
             f"next deal strikes {' and '.join(parts)}: {tail}")


class ConsimView(ToolView):
    route = ROUTE

    def __init__(self, app) -> None:
        self.app = app
        self.session = Session(app, ROUTE, "CONSIM initiative", on_change=self._reset_view, namer=game_name)
        self.draft: dict = blank_draft()
        self.rules: dict = {v.key: v.default for v in cs.VARIANTS}
        self.form: dict = blank_form()
        self.form_gen = 0  # a new name field (so a focused stale value never survives, issue 22)
        self.editing: int | None = None
        self.seed_text = ""
        self.setup_error: str | None = None
        self.templates: list[dict] = []
        self.saved_sides: list[dict] = []
        self.ticks: dict = {}
        self.players_view = False
        self.confirm_leave = False
        self.confirm_end = False
        self.shot: dict | None = None
        self.long_pick: set[str] | None = None
        #: With our own deck (HR-CS-6): the cards entered for the coming deal, by combatant, and
        #: whose cards are being entered; None while the advantages are being ticked.
        self.entry: dict | None = None
        #: With our own dice (HR-CS-7): the DYING countdowns entered for the end of the round.
        self.countdowns: dict[int, int] = {}
        self.notice: str | None = None
        self._copy = (None, None)  # (the game, its spectator copy's state): the players' view

    # ------------------------------------------------------------ lifecycle
    def boot(self) -> None:
        # Every key is read as hostile input (issue 35): what does not pass is set aside
        # with one message, and the table carries on (web/views/tool.py, read_kept).
        kept = self.read_kept(DRAFT_KEY, clean_kept_draft, "the roster form")
        self.draft = kept["draft"]
        self.rules.update(kept["rules"])
        self.templates = self.read_kept(TEMPLATES_KEY, noted(clean_templates), "the roster templates")
        self.saved_sides = self.read_kept(SIDES_KEY, noted(clean_saved_sides), "the kept sides")
        self.ticks = self.read_kept(TICKS_KEY, clean_ticks, "the ticks for the next deal")
        self.players_view = self.read_kept(VIEW_KEY, clean_view, "whether the players' view was on")["players"]
        self.tell_kept("Some of what the tracker kept between visits could not be used as it was")
        self.session.boot()

    def _keep(self, key: str, value) -> None:
        self.keep_json(key, value, full="Storage is full: the roster form is not kept between visits.")

    def _save_draft(self) -> None:
        self._keep(DRAFT_KEY, {"draft": self.draft, "rules": self.rules})

    def _set_players_view(self, on: bool) -> None:
        self.players_view = on
        self.keep_json(VIEW_KEY, {"players": on},
                       full="Storage is full: the players' view will not hold through a reload.")

    def _reset_view(self) -> None:
        self.shot = None
        self.long_pick = None
        self.entry = None
        self.countdowns = {}
        self.notice = None
        self.confirm_leave = False
        self.confirm_end = False

    def escape(self) -> bool:
        """Escape: a question is answered no, an open shot or long action is closed; then the drawers."""
        if self.confirm_end or self.confirm_leave:
            self.confirm_end = self.confirm_leave = False
            return True
        if self.shot is not None or self.long_pick is not None:
            self.shot = self.long_pick = None
            self.app.focus_to("shoot-open")
            return True
        if self.entry is not None:
            self.entry = None
            self.app.focus_to("deal")
            return True
        return self.session.escape()

    # ------------------------------------------------------------ rendering
    def render(self):
        state = self.session.state
        if self.players_view and not self.spectator and (state is not None or self.session.game is None):
            # The players' view is turned towards the table: no undo, history, saves or links there.
            bar = h("div", {"class": "session-bar", "data-testid": "players-bar"},
                    h("span", {"class": "session-name"}, "Players' view"))
            body = self._players_screen() if state is not None else self._players_no_game()
            return [h("div", {"data-key": "players-bar", "class": "frame-slot"}, bar),
                    h("div", {"data-key": "banner", "class": "frame-slot"}),
                    h("div", {"data-key": "drawer", "class": "frame-slot"}),
                    h("div", {"data-key": "tracker", "class": "frame-slot"}, body)]
        if state is None:
            return self.frame(self.render_roster(), body_key="roster")
        if self.spectator:
            return self.frame(self._public_tracker(state, leave=False), body_key="tracker")
        return self.frame(self.render_tracker(state), body_key="tracker")

    def _copy_state(self):
        """The spectator's copy of the open game, replayed: everything the players may see."""
        game = self.session.game
        if self._copy[0] is not game:
            self._copy = (game, cs.public_state(game))
        return self._copy[1]

    def _players_screen(self):
        return self._public_tracker(self._copy_state(), leave=True)

    def _players_no_game(self):
        return h("div", {"class": "ini-tracker players", "data-testid": "tracker"},
                 h("section", {"class": "panel", "data-testid": "players-view"},
                   h("h2", {}, "Players' view"), h("p", {}, "No game is open.")),
                 self._leave_control())

    # ---------------- roster
    def render_roster(self):
        d = self.draft
        problem = None
        try:
            cs.normalize_setup(self._setup())
        except ValueError as err:
            problem = str(err)
        return h("div", {"class": "ini-roster", "data-testid": "roster"},
                 h("section", {"class": "panel", "aria-label": "Sides"},
                   h("h2", {}, "Sides"),
                   h("div", {"class": "row"},
                     [h("div", {"class": ["ini-side-name", SIDE_CLASS[i % MAX_SIDES]], "data-key": f"s{i}"},
                        self._input(f"init:side.{i}", name, f"Side {i + 1} name"),
                        button("✕", "init:remove-side", i, cls="btn small ghost", aria_label=f"Remove side {name}")
                        if len(d["sides"]) > 2 and not any(c["side"] == i for c in d["combatants"]) else None)
                      for i, name in enumerate(d["sides"])],
                     button("+ Side", "init:add-side", cls="btn small", disabled=len(d["sides"]) >= MAX_SIDES))),
                 self._form_panel(),
                 self._roster_list(),
                 self._saved_panel(),
                 self._start_panel(problem))

    def _input(self, field: str, value: str, label: str, *, placeholder: str = "", hidden_label: bool = False,
               max_len: int = 40, testid: str | None = None, key: str | None = None, focus: str | None = None):
        return h("label", {"class": "field", "data-key": key},
                 h("span", {"class": "visually-hidden"} if hidden_label else {}, label),
                 h("input", {"type": "text", "data-field": field, "value": value, "maxlength": str(max_len),
                             "placeholder": placeholder or None, "autocomplete": "off", "data-testid": testid,
                             "data-focus": focus}))

    def _select(self, field: str, value: str, label: str, options):
        return h("label", {"class": "field"}, label,
                 h("select", {"data-field": field, "value": value},
                   [h("option", {"value": v, "selected": v == value}, text) for v, text in options]))

    def _form_panel(self):
        f = self.form
        editing = self.editing is not None
        traits = h("fieldset", {"class": "ini-traits"},
                   h("legend", {}, "Weapon traits (CS-11)"),
                   [h("label", {"class": "ini-check"},
                      h("input", {"type": "checkbox", "data-field": f"init:form.weapon.{t.value}",
                                  "checked": t.value in f["weapon"]}), t.label)
                    for t in cs.Trait])
        count = f.get("count", "1")
        n = self._count()
        add_label = ("Save changes" if editing else
                     f"Add {f['name'].strip() or 'combatant'} ×{n}" if n and n > 1 else "Add to roster")
        templates = None
        if self.templates and not editing:
            templates = h("div", {"class": "row ini-templates", "role": "group", "aria-label": "Templates"},
                          h("span", {"class": "muted small"}, "Templates:"),
                          [button(t["name"], "init:template", i, cls="btn small") for i, t in enumerate(self.templates)])
        return h("section", {"class": "panel ini-form", "aria-label": "Add a combatant"},
                 h("h2", {}, f"Edit {self.draft['combatants'][self.editing]['name']}" if editing else "Add combatants"),
                 templates,
                 h("div", {"class": "ini-form-grid"},
                   self._input("init:form.name", f["name"], "Name", placeholder="Rifleman", testid="form-name",
                               key=f"name-{self.form_gen}", focus="form-name"),
                   self._select("init:form.side", str(f["side"]), "Side",
                                [(str(i), s) for i, s in enumerate(self.draft["sides"])]),
                   self._select("init:form.grain", f["grain"], "Kind (CS-1)",
                                [(g.value, g.value.capitalize()) for g in cs.Grain]),
                   self._select("init:form.training", f["training"], "Training (CS-8)",
                                [(t.value, f"{t.label} (+{t.bonus} to hit)") for t in cs.Training]),
                   None if editing else h("label", {"class": "field ini-count"}, "How many",
                                          h("input", {"type": "number", "inputmode": "numeric", "min": "1",
                                                      "max": str(MAX_COUNT), "data-field": "init:form.count",
                                                      "value": count, "aria-invalid": "true" if n is None else None})),
                   h("label", {"class": "ini-check"},
                     h("input", {"type": "checkbox", "data-field": "init:form.player", "checked": f["player"]}),
                     "Player character")),
                 traits,
                 h("div", {"class": "row"},
                   button(add_label, "init:add", cls="btn primary", disabled=not f["name"].strip() or n is None),
                   button("Cancel", "init:cancel-edit", cls="btn ghost") if editing else None,
                   button("Save as template", "init:save-template", cls="btn small",
                          disabled=not f["name"].strip()) if not editing else None))

    def _count(self) -> int | None:
        text = str(self.form.get("count", "1")).strip()
        if whole(text) and 1 <= int(text) <= MAX_COUNT:
            return int(text)
        return None

    def _summary(self, c: dict) -> str:
        bits = [c["grain"], c["training"]] + [cs.Trait(t).label.lower() for t in c["weapon"]]
        return ", ".join(bits)

    def _roster_list(self):
        d = self.draft
        groups = []
        for s, side in enumerate(d["sides"]):
            rows = []
            for i, c in enumerate(d["combatants"]):
                if c["side"] != s:
                    continue
                rows.append(h("li", {"class": ["ini-row", self.editing == i and "editing"], "data-key": f"c{i}"},
                              h("div", {"class": "ini-row-main"},
                                h("strong", {}, c["name"]),
                                h("span", {"class": "badge"}, "PC") if c["player"] else None,
                                h("span", {"class": "muted small"}, self._summary(c))),
                              h("div", {"class": "row ini-row-buttons"},
                                button("↑", "init:up", i, cls="btn small ghost", aria_label=f"Move {c['name']} up",
                                       disabled=i == 0),
                                button("↓", "init:down", i, cls="btn small ghost",
                                       aria_label=f"Move {c['name']} down", disabled=i == len(d["combatants"]) - 1),
                                button("Edit", "init:edit", i, cls="btn small", aria_label=f"Edit {c['name']}"),
                                button("Duplicate", "init:dup", i, cls="btn small",
                                       aria_label=f"Duplicate {c['name']}"),
                                button("✕", "init:remove", i, cls="btn small ghost danger",
                                       aria_label=f"Remove {c['name']}"))))
            count = len(rows)
            groups.append(h("section", {"class": ["panel ini-side", SIDE_CLASS[s % MAX_SIDES]], "data-key": f"g{s}",
                                        "aria-label": f"{side} roster"},
                            h("div", {"class": "spread"},
                              h("h2", {}, f"{side} ", h("span", {"class": "muted small"}, f"({count})")),
                              button(["Save this side", h("span", {"class": "visually-hidden"}, f" ({side})")],
                                     "init:save-side", s, cls="btn small", disabled=not count)),
                            h("ol", {"class": "ini-list"}, rows) if rows else
                            h("p", {"class": "muted"}, "No combatants yet.")))
        return h("div", {"class": "ini-sides-grid"}, groups)

    def _saved_panel(self):
        if not self.saved_sides and not self.templates:
            return None
        return h("section", {"class": "panel", "aria-label": "Saved sides and templates"},
                 h("h2", {}, "Kept between games"),
                 h("ul", {"class": "ini-saved"},
                   [h("li", {"data-key": f"ss{i}"},
                      h("span", {}, h("strong", {}, s["name"]), f" — {plural(len(s['combatants']), 'combatant')}"),
                      button("Load", "init:load-side", i, cls="btn small", aria_label=f"Load side {s['name']}"),
                      button("Forget", "init:forget-side", i, cls="btn small ghost",
                             aria_label=f"Forget side {s['name']}"))
                    for i, s in enumerate(self.saved_sides)],
                   [h("li", {"data-key": f"t{i}"},
                      h("span", {}, "Template ", h("strong", {}, t["name"])),
                      button("Forget", "init:forget-template", i, cls="btn small ghost",
                             aria_label=f"Forget template {t['name']}"))
                    for i, t in enumerate(self.templates)]))

    def _start_panel(self, problem: str | None):
        variant = cs.VARIANTS[0]
        return h("section", {"class": "panel", "aria-label": "Start"},
                 h("h2", {}, "Settings"),
                 h("label", {"class": "ini-check"},
                   h("input", {"type": "checkbox", "data-field": "init:rules.pulp", "checked": self.rules["pulp"]}),
                   h("span", {}, rule_ref(variant.rule_id, ROUTE), " ", h("span", {"class": "badge variant"}, "Variant"),
                     " Pulp: ", variant.choices[1][1].lower())),
                 [h("label", {"class": "ini-check"},
                    h("input", {"type": "checkbox", "data-field": f"init:rules.{key}",
                                "checked": self.rules[key] == "table"}),
                    h("span", {}, rule_ref(cs.VARIANT_BY_KEY[key].rule_id, ROUTE), " ",
                      h("span", {"class": "badge house"}, "House rule"), " ",
                      cs.VARIANT_BY_KEY[key].sentence("table")))
                  for key in ("deck", "dice")],
                 h("label", {"class": "ini-check"},
                   h("input", {"type": "checkbox", "data-field": "init:privacy",
                               "checked": self.draft.get("privacy", True)}),
                   "Hide the Observer's combatants (non-player) from the players' view and spectator links"),
                 self.seed_field(field="init:seed"),
                 h("p", {"class": "msg-error", "role": "alert"}, problem) if problem and self.draft["combatants"] else None,
                 h("p", {"class": "msg-error", "role": "alert"}, self.setup_error) if self.setup_error else None,
                 h("div", {"class": "row start-row"},
                   button("Start tracking", "init:start", cls="btn primary big", disabled=problem is not None)))

    def _setup(self) -> dict:
        return {"sides": list(self.draft["sides"]), "combatants": self.draft["combatants"],
                "privacy": bool(self.draft.get("privacy", True))}

    # ---------------- the Observer's tracker
    def render_tracker(self, st):
        if st.phase == "ready":
            main = self._round_setup(st)
        else:
            main = self._round_view(st)
        return h("div", {"class": "ini-tracker", "data-testid": "tracker", "data-phase": st.phase,
                         "data-round": st.round},
                 h("div", {"class": "ini-head"},
                   h("p", {"class": "status", "role": "status", "data-testid": "status"},
                     with_rule_refs(f"Enter the cards dealt at the table for round {st.round + 1} (CS-6)."
                                    if self.entry is not None and st.phase == "ready" else cs.status(st), ROUTE)),
                   button("Players' view", "init:players", cls="btn small", data_testid="players-view-button")),
                 h("p", {"class": "msg-error refusal", "role": "alert", "data-testid": "refusal"},
                   with_rule_refs(self.notice, ROUTE)) if self.notice else None,
                 main,
                 self._log(st),
                 self._rules_in_play(st))

    def _ticks_for(self, st) -> tuple[dict[int, list[str]], set[int], bool]:
        """The ticks for the next deal: what the Observer set for this round, or else
        the advantages of the last deal carried over and no surprise (issue 22)."""
        t = self.ticks
        mine = isinstance(t, dict) and t.get("slot") == self.session.slot and t.get("round") == st.round + 1
        per = bool(t.get("per")) if isinstance(t, dict) else False
        if mine:
            adv = {}
            raw = t.get("advantages")
            if isinstance(raw, dict):
                for k, v in raw.items():
                    if isinstance(k, str) and whole(k) and int(k) < len(st.combatants) and isinstance(v, list):
                        adv[int(k)] = [a for a in cs.ADVANTAGES if a in v]
            surprised = t.get("surprised")
            surprised = {s for s in surprised if isinstance(s, int) and not isinstance(s, bool)
                         and 0 <= s < len(st.sides)} if isinstance(surprised, list) else set()
            return adv, surprised, per
        adv = {i: list(a) for i, a in enumerate(st.advantages) if a and cs.can_act(st, i)}
        return adv, set(), per

    def _store_ticks(self, st, adv: dict[int, list[str]], surprised: set[int], per: bool) -> None:
        self.ticks = {"slot": self.session.slot, "round": st.round + 1,
                      "advantages": {str(i): v for i, v in sorted(adv.items()) if v},
                      "surprised": sorted(surprised), "per": per}
        self.keep_json(TICKS_KEY, self.ticks, full="Storage is full: the ticks are not kept through a reload.")

    def _chips(self, st, i: int, adv: dict[int, list[str]] | None = None, surprised: set[int] | None = None):
        """Status chips, suppression pips, countdown badges and what the next deal strikes."""
        s = st.statuses[i]
        chips = []
        if s.condition is not cs.Condition.OK:
            chips.append(h("span", {"class": ["chip", f"cond-{s.condition.value}"], "data-testid": f"cond-{i}"},
                           s.condition.label))
        if s.countdown is not None and s.condition is cs.Condition.INJURED:
            chips.append(h("span", {"class": "chip count ok" if s.treated else "chip count"},
                           "treated: will not start DYING" if s.treated else
                           f"DYING in {plural(s.countdown, 'round')} unless treated"))
        if s.countdown is not None and s.condition is cs.Condition.DYING:
            chips.append(h("span", {"class": "chip count ok" if s.first_aid else "chip count urgent"},
                           "first aid given" if s.first_aid else f"DEAD in {plural(s.countdown, 'round')}"))
        if s.suppression:
            chips.append(pips(s.suppression))
        if s.condition is not cs.Condition.DEAD and adv is not None:
            side = st.combatants[i].side
            chips.append(loss_chip(cs.forecast(st, i, len(adv.get(i, [])), side in (surprised or set()))))
        return chips

    def _now_panel(self, st):
        cur = cs.current_turn(st)
        if cur is None:
            return h("section", {"class": "panel ini-now", "data-testid": "now"},
                     h("h2", {}, f"Round {st.round}: everyone has acted"),
                     h("p", {"class": "muted"}, "Ending the round sheds the suppression of anyone not fired on (",
                       rule_ref("CS-12", ROUTE), ") and counts down wounds (", rule_ref("CS-13", ROUTE), ")."),
                     self._countdown_entry(st),
                     h("div", {"class": "row"},
                       button(f"End round {st.round}", "init:end-round", cls="btn primary big", data_focus="end")))
        turn = st.turns[cur]
        i = turn.combatant
        c = st.combatants[i]
        mine = [t for t in st.turns if t.combatant == i and not t.done]
        long = None
        if self.long_pick is not None:
            long = h("div", {"class": "ini-long", "role": "group", "aria-label": "Cards for a long action"},
                     h("p", {"class": "muted small"}, f"A long action spends this turn's {turn.card.label} and more "
                       "of these cards; it happens at the lowest one spent (", rule_ref("CS-5", ROUTE), ")."),
                     h("div", {"class": "row"},
                       [button(t.card.label, "init:long-pick", t.card.token,
                               cls=["btn small", (t.card.token in self.long_pick or t is turn) and "on"],
                               aria_pressed="true" if t.card.token in self.long_pick or t is turn else "false",
                               aria_label=f"Spend the {t.card.name}" + (" (this turn's card)" if t is turn else ""),
                               disabled=t is turn, data_focus="long-card" if n == 1 else None)
                        for n, t in enumerate(mine)],
                       button("Spend these cards", "init:long-ok", cls="btn small primary",
                              disabled=not cs.can_long(st, i, sorted(self.long_pick | {turn.card.token}))),
                       button("Cancel", "init:long-cancel", cls="btn small ghost")))
        return h("section", {"class": ["panel ini-now", SIDE_CLASS[c.side % MAX_SIDES]], "data-testid": "now",
                             "aria-label": "Acting now"},
                 h("div", {"class": "ini-now-head"},
                   card_view(turn.card, "big", label=f"Acting on the {turn.card.name}"),
                   h("div", {"class": "ini-now-who"},
                     h("p", {"class": "muted small"}, f"Acting now · {st.sides[c.side]}"),
                     h("h2", {"data-testid": "current-actor"}, c.name),
                     h("p", {"class": "small"}, "Long action: also spends ",
                       ", ".join(x.label for x in turn.spent), " (", rule_ref("CS-5", ROUTE), ")")
                     if turn.spent else None,
                     h("div", {"class": "chips"}, self._chips(st, i)),
                     button("Long action…", "init:long-open", cls="btn small",
                            disabled=not cs.can_long(st, i, [t.card.token for t in mine]), data_focus="long-open"))),
                 h("div", {"class": "row ini-main-actions"},
                   button("Next ▸", "init:next", cls="btn primary big", aria_keyshortcuts="N", data_focus="next"),
                   button("Shoot…", "init:shoot-open", cls=["btn big", self.shot is not None and "on"],
                          aria_expanded="true" if self.shot is not None else "false", data_focus="shoot-open")),
                 h("p", {"class": "muted small ini-turn-note"}, "One action on this card: a shot, or pass with Next (",
                   rule_ref("CS-5", ROUTE), ")."),
                 long)

    def _own_cards(self, st) -> set[str]:
        """The tokens of the current actor's cards still to play (what a long action may spend, CS-5)."""
        cur = cs.current_turn(st)
        if cur is None:
            return set()
        who = st.turns[cur].combatant
        return {t.card.token for t in st.turns if t.combatant == who and not t.done}

    def _order(self, st):
        cur = cs.current_turn(st)
        done, left = cs.turn_counts(st)
        items = []
        for n, t in enumerate(st.turns):
            if t.done:
                continue
            c = st.combatants[t.combatant]
            out = not cs.can_act(st, t.combatant)
            items.append(h("li", {"class": ["ini-entry", SIDE_CLASS[c.side % MAX_SIDES], n == cur and "current",
                                            out and "out"],
                                  "data-key": f"t{t.card.token}", "aria-current": "true" if n == cur else None,
                                  "data-testid": "order-entry"},
                           card_tag(t.card),
                           h("span", {"class": "ini-entry-name"}, c.name),
                           h("span", {"class": "muted small"}, "+ " + ", ".join(x.label for x in t.spent))
                           if t.spent else None,
                           h("span", {"class": "badge"}, f"skipped: {st.statuses[t.combatant].condition.label}")
                           if out else None))
        end_early = None
        if cur is not None and not self.confirm_end:
            end_early = button(f"End round {st.round} now…", "init:end-early", cls="btn small ghost",
                               data_testid="end-early", data_focus="end-early")
        body = h("ol", {"class": "ini-order-list", "data-testid": "order", "tabindex": "0",
                        "aria-label": "Cards still to act"}, items) if items else \
            h("p", {"class": "muted"}, "No one left to act this round.")
        if self.confirm_end and cur is not None:
            waiting = [f"{st.combatants[t.combatant].name} ({t.card.label})" for t in st.turns
                       if not t.done and cs.can_act(st, t.combatant)]
            body = h("div", {"class": "ini-confirm", "role": "alertdialog", "aria-label": f"End round {st.round}?",
                             "data-testid": "end-confirm"},
                     h("p", {}, h("strong", {}, f"End round {st.round} now? "),
                       f"{plural(len(waiting), 'card')} {'has' if len(waiting) == 1 else 'have'} not acted: ",
                       ", ".join(waiting[:8]) + (" …" if len(waiting) > 8 else ""),
                       ". They lose these turns."),
                     self._countdown_entry(st),
                     h("div", {"class": "row"},
                       button("Keep playing", "init:end-no", cls="btn", data_focus="end-no"),
                       button(f"End round {st.round}", "init:end-yes", cls="btn danger")))
        return h("section", {"class": "panel ini-order", "aria-label": "Acting order"},
                 h("div", {"class": "spread"},
                   h("h2", {}, "Acting order ", h("span", {"class": "muted small"}, f"{done} done · {left} to go")),
                   end_early),
                 body)

    def _round_view(self, st):
        # While a shot is being set up it takes the order's place: odds and the roll stay on screen,
        # and so does the roster with the targets' suppression and wounds (issue 22).
        shooting = self.shot is not None and cs.current_turn(st) is not None
        adv, surprised, _ = self._ticks_for(st)
        return h("div", {"class": "ini-round"},
                 self._deal_notes(st),
                 h("div", {"class": ["ini-top", shooting and "shooting"]},
                   h("div", {"class": "ini-now-col"}, self._now_panel(st), None if shooting else self._last_shot(st)),
                   self._shot_panel(st) if shooting else self._order(st),
                   self._board(st, adv, surprised)))

    def _deal_notes(self, st):
        if not st.nothing:
            return None
        names = ", ".join(st.combatants[i].name for i in st.nothing)
        return h("p", {"class": "msg-warn", "role": "status"}, rule_ref("CS-6", ROUTE), " ",
                 h("span", {"class": "badge ruling"}, "Ruling"),
                 f" One deck could not cover everyone: {names} got nothing or fewer cards than due.")

    def _board(self, st, adv=None, surprised=None):
        groups = []
        for s, side in enumerate(st.sides):
            rows = []
            for i, c in enumerate(st.combatants):
                if c.side != s:
                    continue
                hand = st.hands[i] if st.phase == "round" else None
                stt = st.statuses[i]
                actions = []
                if cs.can_treat(st, i):
                    actions.append(button("Treat", "init:treat", i, cls="btn small",
                                          aria_label=f"Treat {c.name} (stops the DYING countdown)"))
                if cs.can_first_aid(st, i):
                    actions.append(button("Give first aid", "init:first-aid", i, cls="btn small danger",
                                          aria_label=f"Give first aid to {c.name}"))
                cards = []
                if hand is not None:
                    cards = [card_tag(x, "lost", label=f"{x.name}, struck at the deal") for x in hand.lost]
                    cards += [card_tag(x, "done" if self._card_done(st, i, x) else "",
                                       label=f"{x.name}{', acted' if self._card_done(st, i, x) else ''}")
                              for x in hand.kept]
                rows.append(h("li", {"class": ["ini-fighter", stt.condition is cs.Condition.DEAD and "dead"],
                                     "data-key": f"f{i}", "data-testid": f"fighter-{i}"},
                              h("div", {"class": "ini-fighter-name"},
                                h("strong", {}, c.name),
                                h("span", {"class": "badge"}, "PC") if c.player else None,
                                h("span", {"class": "badge note"}, "hidden") if cs.is_hidden(st, i) else None),
                              h("div", {"class": "ini-hand"}, cards) if cards else None,
                              h("div", {"class": "chips"}, self._chips(st, i, adv, surprised), actions)))
            groups.append(h("section", {"class": ["panel ini-side", SIDE_CLASS[s % MAX_SIDES]], "data-key": f"b{s}",
                                        "aria-label": side},
                            h("h2", {}, side, " ", h("span", {"class": "badge note"}, "surprised")
                              if s in st.surprised and st.phase == "round" else None),
                            h("ul", {"class": "ini-board-list"}, rows) if rows else
                            h("p", {"class": "muted small"}, "No combatants.")))
        return h("div", {"class": "ini-board", "data-testid": "board"}, groups)

    def _card_done(self, st, i, card) -> bool:
        return any(t.done and t.combatant == i and (t.card == card or card in t.spent) for t in st.turns)

    # ---------------- round setup (advantages, surprise, deal)
    def _owed(self, st) -> tuple[int, ...]:
        """CS-6: the cards each combatant is dealt at the coming deal, with this round's ticks."""
        adv, surprised, _ = self._ticks_for(st)
        return cs.cards_owed(st, {i: len(v) for i, v in adv.items()}, sorted(surprised))

    def _card_entry(self, st):
        """HR-CS-6, CS-6: the cards the GM dealt from a real deck, entered: the roster down the
        side (tap a name), the 52-card picker (tap its cards; a card of another greyed out)."""
        owed = self._owed(st)
        cards, at = self.entry["cards"], self.entry["at"]
        taken = {t: i for i, ts in cards.items() for t in ts}
        who = []
        for i, c in enumerate(st.combatants):
            mine, n = cards.get(i, []), owed[i]
            if n == 0:
                who.append(h("li", {"data-key": f"e{i}", "class": "muted small entry-none"}, f"{c.name}: no cards"))
                continue
            who.append(h("li", {"data-key": f"e{i}"},
                         button([h("span", {"class": "entry-name"}, c.name),
                                 h("span", {"class": "entry-cards"},
                                   [card_tag(Card.parse(t)) for t in mine] if mine else "—"),
                                 h("span", {"class": "entry-count"}, f"{len(mine)}/{n}")],
                                "init:entry-who", i, cls=["btn entry-who", SIDE_CLASS[c.side % MAX_SIDES],
                                                          i == at and "on", len(mine) == n and "done"],
                                aria_pressed="true" if i == at else "false",
                                aria_label=f"{c.name}: {len(mine)} of {n} cards entered")))
        complete = all(len(cards.get(i, [])) == n for i, n in enumerate(owed))

        def states(card):
            owner = taken.get(str(card))
            return () if owner is None else (("selected",) if owner == at else ("played",))

        def label(card):
            owner = taken.get(str(card))
            if owner is None:
                return card.name
            name = st.combatants[owner].name
            return f"{card.name}: {name}'s" + (", tap to take it back" if owner == at else "")

        entering = st.combatants[at].name if at is not None else None
        return h("section", {"class": "panel ini-deal ini-entry entry", "data-testid": "card-entry",
                             "aria-labelledby": "ini-entry-title"},
                 h("h2", {"id": "ini-entry-title"}, f"Round {st.round + 1}: the cards dealt at the table"),
                 h("p", {"class": "small entry-how"}, "Deal the real deck in roster order, each combatant what it is "
                   "owed (", rule_ref("CS-6", ROUTE), "); tap a name, then its cards. Suppression and injuries strike "
                   "the highest after the deal, as usual (", rule_ref("CS-3", ROUTE), ")."),
                 h("div", {"class": "ini-entry-grid"},
                   h("ul", {"class": "ini-entry-who", "role": "group", "aria-label": "Whose cards",
                            "data-testid": "entry-who"}, who),
                   h("div", {},
                     h("div", {"class": "entry-bar"},
                       h("p", {"class": "small", "data-testid": "entry-at"},
                         f"Entering {entering}'s cards" if entering and not complete else
                         "Every combatant has its cards." if complete else ""),
                       h("div", {"class": "entry-controls"},
                         button("Deal these cards", "init:entry-deal", cls="btn primary big", disabled=not complete,
                                data_focus="entry-deal"),
                         button("Back", "init:entry-cancel", cls="btn ghost"))),
                     card_picker("init:entry-pick", states, labels=label))))

    def _round_setup(self, st):
        if self.entry is not None:
            return h("div", {"class": "ini-round"}, self._card_entry(st))
        adv, surprised, per_combatant = self._ticks_for(st)
        alive = [i for i, _ in enumerate(st.combatants) if cs.can_act(st, i)]
        sides = []
        for s, side in enumerate(st.sides):
            members = [i for i in alive if st.combatants[i].side == s]

            def all_on(key: str) -> bool:
                return bool(members) and all(key in adv.get(i, []) for i in members)

            toggles = [button(label, "init:adv-side", f"{s}.{key}", cls=["btn small", all_on(key) and "on"],
                              aria_pressed="true" if all_on(key) else "false", disabled=not members)
                       for key, label in cs.ADVANTAGES.items()]
            per = None
            if per_combatant:
                per = h("ul", {"class": "ini-adv-list"},
                        [h("li", {"data-key": f"a{i}"},
                           h("span", {"class": "ini-adv-name"}, st.combatants[i].name),
                           h("span", {"class": "row"},
                             [button(label.split()[-1].capitalize(), "init:adv", f"{i}.{key}",
                                     cls=["btn small", key in adv.get(i, []) and "on"],
                                     aria_pressed="true" if key in adv.get(i, []) else "false",
                                     aria_label=f"{label} for {st.combatants[i].name}")
                              for key, label in cs.ADVANTAGES.items()]))
                         for i in members])
            sides.append(h("section", {"class": ["panel ini-side", SIDE_CLASS[s % MAX_SIDES]], "data-key": f"r{s}",
                                       "aria-label": f"{side}: advantages"},
                           h("div", {"class": "spread"}, h("h2", {}, side),
                             button(["Surprised (CS-4)", h("span", {"class": "visually-hidden"}, f": {side}")],
                                    "init:surprise", s, cls=["btn small", s in surprised and "on"],
                                    aria_pressed="true" if s in surprised else "false")),
                           h("p", {"class": "msg-warn small"}, "Surprised: this side gets no cards this round (",
                             rule_ref("CS-4", ROUTE), ").") if s in surprised else None,
                           h("div", {"class": "row", "role": "group", "aria-label": f"Advantages of all of {side}"},
                             toggles) if members else h("p", {"class": "muted small"}, "No one here can act."),
                           per))
        return h("div", {"class": "ini-round"},
                 h("section", {"class": "panel ini-deal", "data-testid": "deal-panel"},
                   h("div", {"class": "spread"},
                     h("div", {},
                       h("h2", {}, f"Round {st.round + 1}"),
                       h("p", {"class": "muted small"}, "Each combatant gets 1 card plus 1 per advantage (",
                         rule_ref("CS-2", ROUTE), "); then every 2 suppression and an injury strike the highest "
                         "card (", rule_ref("CS-3", ROUTE), "); a surprised side gets none (",
                         rule_ref("CS-4", ROUTE), ")."),
                       h("p", {"class": "muted small", "data-testid": "carry-rule"},
                         "Advantages stay ticked from round to round until you untick them; surprise is for "
                         "one round only and clears after the deal.")),
                     h("div", {"class": "row"},
                       button("Per combatant" if not per_combatant else "Per side only", "init:per",
                              cls="btn small", aria_pressed="true" if per_combatant else "false"),
                       button("Enter the cards…", "init:entry-open", cls="btn primary big", data_focus="deal")
                       if st.settings.get("deck") == cs.DECK_TABLE else
                       button("Deal", "init:deal", cls="btn primary big", data_focus="deal")))),
                 h("div", {"class": "ini-adv-grid"}, sides),
                 self._board(st, adv, surprised))

    # ---------------- shooting
    def _shot_panel(self, st):
        cur = cs.current_turn(st)
        if cur is None:
            return None
        shooter_i = st.turns[cur].combatant
        shooter = st.combatants[shooter_i]
        shot = self.shot
        mode, cover = shot["mode"], shot["cover"]
        area = mode == "suppressive" and (shooter.has(cs.Trait.AUTOMATIC) or shooter.has(cs.Trait.SEMI_AUTOMATIC))
        targets = [i for i, c in enumerate(st.combatants)
                   if i != shooter_i and st.statuses[i].condition is not cs.Condition.DEAD]
        enemies = [i for i in targets if st.combatants[i].side != shooter.side]
        friends = [i for i in targets if st.combatants[i].side == shooter.side]
        chosen = shot["targets"]
        own_dice = st.settings.get("dice") == cs.DICE_TABLE

        def target_button(i, first: bool = False):
            on = i in chosen
            return button(st.combatants[i].name, "init:target", i, cls=["btn small", on and "on"],
                          aria_pressed="true" if on else "false", data_focus="target" if first else None)

        semi_row = None
        if shooter.has(cs.Trait.SEMI_AUTOMATIC):
            semi_row = [h("span", {"class": "muted small"}, "Semi-automatic (", rule_ref("CS-11", ROUTE), "):"),
                        h("span", {"class": "row", "role": "radiogroup", "aria-label": "Semi-automatic: +1 to"},
                          [button(label, "init:semi", value, cls=["btn small", shot["semi"] == value and "on"],
                                  role="radio", aria_checked="true" if shot["semi"] == value else "false")
                           for value, label in (("hit", "+1 to hit"), ("damage", "+1 damage"))])]
        semi = shot["semi"] if shooter.has(cs.Trait.SEMI_AUTOMATIC) else None
        odds = cs.shot_odds(shooter, mode, cover, semi)
        problem = None
        if chosen:
            try:
                cs.check_shot(st, shooter_i, chosen, mode)
            except RuleError as err:
                problem = str(err)
        mult = cs.suppression_multiplier(shooter)
        base = cs.base_ticks(shot["unseen"], False)
        per_target = base * mult
        vehicle = {2: "ground-vehicle", 3: "air-vehicle"}.get(mult)
        ticks = (f"Each target takes {per_target} suppression" + (f" ({base} ×{mult} for the {vehicle} weapon)"
                                                                   if vehicle else "")
                 + (f", {mult} more on a miss" if mode == "suppressive" else ""))
        odds_view = h("div", {"class": "ini-odds", "data-testid": "odds"},
                      h("p", {}, h("strong", {"data-testid": "hit-chance"}, f"Hit {whole_percent(odds.hit)}"),
                        h("span", {"class": "muted small"},
                          f" — d10 + {odds.hit_modifier} ≥ {odds.needed} ({cs.Cover(cover).label}, "
                          if mode == "aimed" else " — a natural 10 (", rule_ref("CS-8" if mode == "aimed" else "CS-9",
                                                                                ROUTE), ")")),
                      h("p", {"class": "small odds-wounds"}, f"If hit, 1d6 + {odds.damage_modifier}: ",
                        [h("span", {"class": ["odds-bit", f"w-{w.value}"]}, f"{WOUND_LABEL[w]} {whole_percent(p)}")
                         for w, p in odds.wounds.items() if p], h("span", {}, "(", rule_ref("CS-10", ROUTE), ")")),
                      h("p", {"class": "muted small"}, ticks, " (", rule_ref("CS-7", ROUTE), ")."))
        return h("section", {"class": "panel ini-shot", "aria-label": "Shoot", "data-testid": "shot-panel"},
                 h("div", {"class": "spread"},
                   h("h3", {}, f"{shooter.name} shoots"),
                   h("div", {"class": "row", "role": "radiogroup", "aria-label": "Kind of fire"},
                     [button(label, "init:mode", value, cls=["btn small", mode == value and "on"], role="radio",
                             aria_checked="true" if mode == value else "false")
                      for value, label in (("aimed", "Aimed (CS-8)"), ("suppressive", "Suppressive (CS-9)"))])),
                 h("div", {"class": "row", "role": "group", "aria-label": "Targets"},
                   h("span", {"class": "muted small"}, "Targets" if area else "Target", ":"),
                   [target_button(i, n == 0) for n, i in enumerate(enemies)]),
                 h("div", {"class": "row"},
                   h("span", {"class": "row", "role": "radiogroup", "aria-label": "Cover (CS-8)"},
                     [button(COVER_LABEL[c], "init:cover", c.value, cls=["btn small", cover == c.value and "on"],
                             role="radio", aria_checked="true" if cover == c.value else "false") for c in cs.Cover]),
                   button("Unseen by the target (CS-7)", "init:unseen", cls=["btn small", shot["unseen"] and "on"],
                          aria_pressed="true" if shot["unseen"] else "false")),
                 h("div", {"class": "row"}, semi_row) if semi_row else None,
                 odds_view,
                 h("p", {"class": "msg-error"}, with_rule_refs(problem, ROUTE)) if problem else None,
                 h("p", {"class": "muted small"}, "The shot is this card's action: the turn then moves on (",
                   rule_ref("CS-5", ROUTE), ")."),
                 self._dice_entry(st, shooter_i) if own_dice and chosen and problem is None else None,
                 # sticky: the roll (or Record) stays in sight below the odds at 1024x768 (issue 18)
                 h("div", {"class": "row sticky-controls shot-controls"},
                   button(f"Record the shot ({plural(len(chosen), 'target')})", "init:fire",
                          cls="btn primary", disabled=not chosen or problem is not None or self._roll_call(st) is not None,
                          data_focus="fire")
                   if own_dice else
                   button(f"Roll the dice ({plural(len(chosen), 'target')})", "init:fire",
                          cls="btn primary", disabled=not chosen or problem is not None, data_focus="fire"),
                   button("Cancel", "init:shoot-close", cls="btn ghost")),
                 h("details", {"class": "ini-friends"}, h("summary", {}, "Fire at own side"),
                   h("div", {"class": "row"}, [target_button(i) for i in friends])) if friends else None)

    def _shot_action_of(self, st) -> dict | None:
        """The shot being set up, as the engine's action (its ``dice`` as entered so far)."""
        cur = cs.current_turn(st)
        shot = self.shot
        if cur is None or shot is None or not shot["targets"]:
            return None
        shooter_i = st.turns[cur].combatant
        action = {"type": "shoot", "shooter": shooter_i, "targets": list(shot["targets"]), "mode": shot["mode"],
                  "cover": shot["cover"], "unseen": shot["unseen"]}
        if st.combatants[shooter_i].has(cs.Trait.SEMI_AUTOMATIC):
            action["semi"] = shot["semi"]
        if st.settings.get("dice") == cs.DICE_TABLE:
            action["dice"] = [dict(d) for d in shot.get("dice", [])]
        return action

    def _roll_call(self, st):
        """HR-CS-7: the next roll the shot needs from the table's dice (None: all entered)."""
        action = self._shot_action_of(st)
        if action is None or not cs.can_shoot(st, action["shooter"], action["targets"], action["mode"]):
            return None
        return cs.next_roll(st, action)

    def _dice_entry(self, st, shooter_i: int):
        """HR-CS-7: the dice rolled at the table, one tap each, in the order the shot needs them
        (the d10 to hit, CS-8; the d6 if it hit, CS-10; a countdown if the wound starts one, CS-13).
        Each roll entered is a chip: a tap takes it back, and what came after it."""
        entered = self.shot.get("dice", [])
        chips = []
        for pos, rolls in enumerate(entered):
            name = st.combatants[self.shot["targets"][pos]].name
            for key, value in rolls.items():
                chips.append(button([f"{name}: {key} ", h("strong", {}, str(value)), " ✕"],
                                    "init:die-back", f"{pos}.{key}", cls="btn small die-chip",
                                    aria_label=f"{name}: {key} {value}, tap to take it back"))
        call = self._roll_call(st)
        prompt = None
        if call is not None:
            name = st.combatants[call.target].name
            what = {"d10": f"the d10 to hit {name}", "d6": f"the d6 for {name}'s wound",
                    "countdown": f"{name}'s {call.dice} countdown ("
                                 + ("rounds until INJURED turns DYING" if call.count == 2 else
                                    "rounds until DYING turns DEAD") + ")"}[call.key]
            prompt = die_faces("init:die", str, call.low, call.high, None, f"Roll {what}",
                               spoken=lambda v, w=what: f"{w}: {v}", focus="die", key=f"roll-{call.position}-{call.key}")
        return h("div", {"class": "dice-entry ini-dice-entry", "data-testid": "dice-entry"},
                 h("p", {"class": "small"}, "Your own dice (", rule_ref("HR-CS-7", ROUTE), "): roll at the table and "
                   "tap what the dice show.") if not chips else None,
                 h("div", {"class": "row", "data-testid": "dice-entered"}, chips) if chips else None,
                 prompt if prompt is not None else
                 h("p", {"class": "small", "data-testid": "dice-complete"}, "Every die the shot needs is entered."))

    def _countdown_entry(self, st):
        """HR-CS-7, CS-13: the DYING countdowns (1d6) the end of the round starts, entered."""
        if st.settings.get("dice") != cs.DICE_TABLE:
            return None
        due = cs.countdowns_due(st)
        if not due:
            return None
        return h("div", {"class": "dice-entry", "data-testid": "countdown-entry"},
                 h("p", {"class": "small"}, "Ending the round turns INJURED to DYING for ",
                   ", ".join(st.combatants[i].name for i in due), ": roll 1d6 each, the rounds until DEAD (",
                   rule_ref("CS-13", ROUTE), ")."),
                 [die_faces("init:cd", lambda v, i=i: f"{i}.{v}", 1, 6, self.countdowns.get(i),
                            f"{st.combatants[i].name}'s countdown", focus="countdown" if n == 0 else None)
                  for n, i in enumerate(due)])

    def _last_shot(self, st):
        shot = st.last_shot
        if shot is None:
            return None
        rows = []
        for r in shot.targets:
            dice = []
            if r.d10 is not None:
                dice.append(h("span", {"class": "die d10", "role": "img", "aria-label": f"d10 rolled {r.d10}"},
                              str(r.d10)))
            if r.d6 is not None:
                dice.append(h("span", {"class": "die d6", "role": "img", "aria-label": f"d6 rolled {r.d6}"}, str(r.d6)))
            name = st.combatants[r.target].name
            rows.append(h("li", {"data-key": f"r{r.target}", "class": "ini-result"},
                          h("div", {"class": "ini-dice"}, dice) if dice else None,
                          h("div", {},
                            h("strong", {}, name, ": ", WOUND_LABEL[r.wound] if r.wound else "miss"),
                            h("p", {"class": "small"}, with_rule_refs(r.text.removeprefix(f"{name}: "), ROUTE)))))
        for t in shot.hidden:
            rows.append(h("li", {"data-key": f"r{t}", "class": "ini-result"},
                          h("div", {}, h("strong", {}, st.combatants[t].name, ": "), "the result is hidden")))
        who = "An unseen shooter" if shot.shooter is None else st.combatants[shot.shooter].name
        return h("section", {"class": "panel ini-shot-result", "data-testid": "shot-result", "aria-live": "polite",
                             "tabindex": "-1", "data-focus": "result"},
                 h("h3", {}, f"{who}: ", "aimed shot" if shot.mode == "aimed" else "suppressive fire"),
                 h("ul", {"class": "ini-results"}, rows))

    # ---------------- what the players see (the players' view, a spectator's copy)
    def _public_tracker(self, st, leave: bool):
        """Drawn from a spectator's copy: placeholders for the hidden, no control but leaving."""
        done, left = cs.turn_counts(st)
        hidden = bool(st.hidden)
        items = []
        if st.unseen_acting:
            items.append(h("li", {"class": "ini-entry current unseen", "data-key": "unseen", "aria-current": "true",
                                  "data-testid": "order-entry"},
                           h("span", {"class": "ctag unseen", "role": "img", "aria-label": "a hidden card"}, "?"),
                           h("span", {"class": "ini-entry-name"}, "The Observer's combatants are acting")))
        cur = cs.current_turn(st)
        for n, t in enumerate(st.turns):
            if t.done or not cs.can_act(st, t.combatant):
                continue
            c = st.combatants[t.combatant]
            items.append(h("li", {"class": ["ini-entry", SIDE_CLASS[c.side % MAX_SIDES], n == cur and "current"],
                                  "data-key": f"t{t.card.token}", "aria-current": "true" if n == cur else None,
                                  "data-testid": "order-entry"},
                           card_tag(t.card), h("span", {"class": "ini-entry-name"}, c.name),
                           h("span", {"class": "muted small"}, "+ " + ", ".join(x.label for x in t.spent))
                           if t.spent else None))
        note = ", not counting the Observer's hidden cards" if hidden and st.phase == "round" else ""
        order = None
        if st.phase == "round":
            order = h("section", {"class": "panel ini-order", "aria-label": "Acting order"},
                      h("h2", {}, "Acting order ", h("span", {"class": "muted small", "data-testid": "order-count"},
                                                     f"{done} done · {left} to go{note}")),
                      h("ol", {"class": "ini-order-list", "data-testid": "order", "tabindex": "0",
                               "aria-label": "Cards still to act"}, items) if items else
                      h("p", {"class": "muted"}, "Every card shown here has acted."))
        intro = h("section", {"class": "panel ini-now", "data-testid": "players-view"},
                  h("h2", {}, "Players' view" if leave else "Spectator view"),
                  h("p", {"class": "muted small"},
                    "The Observer's hidden combatants are shown only as placeholders: no names, cards or statuses."
                    if hidden else "Everything on the table is shown."),
                  self._last_shot(st))
        return h("div", {"class": "ini-tracker players", "data-testid": "tracker", "data-phase": st.phase,
                         "data-round": st.round},
                 h("div", {"class": "ini-head"},
                   h("p", {"class": "status", "role": "status", "data-testid": "status"},
                     with_rule_refs(cs.status(st), ROUTE))),
                 h("div", {"class": "ini-round"},
                   self._deal_notes(st),
                   h("div", {"class": "ini-top"}, intro, order, self._public_board(st))),
                 self._log(st),
                 self._leave_control() if leave else None)

    def _public_board(self, st):
        groups = []
        for s, side in enumerate(st.sides):
            rows, unseen = [], []
            for i, c in enumerate(st.combatants):
                if c.side != s:
                    continue
                if i in st.hidden:
                    unseen.append(c.name)
                    continue
                hand = st.hands[i] if st.phase == "round" else None
                cards = []
                if hand is not None:
                    cards = [card_tag(x, "lost", label=f"{x.name}, struck at the deal") for x in hand.lost]
                    cards += [card_tag(x, "done" if self._card_done(st, i, x) else "") for x in hand.kept]
                rows.append(h("li", {"class": ["ini-fighter", st.statuses[i].condition is cs.Condition.DEAD and "dead"],
                                     "data-key": f"f{i}", "data-testid": f"fighter-{i}"},
                              h("div", {"class": "ini-fighter-name"}, h("strong", {}, c.name),
                                h("span", {"class": "badge"}, "PC") if c.player else None),
                              h("div", {"class": "ini-hand"}, cards) if cards else None,
                              h("div", {"class": "chips"}, self._chips(st, i))))
            groups.append(h("section", {"class": ["panel ini-side", SIDE_CLASS[s % MAX_SIDES]], "data-key": f"b{s}",
                                        "aria-label": side},
                            h("h2", {}, side, " ", h("span", {"class": "badge note"}, "surprised")
                              if s in st.surprised and st.phase == "round" else None),
                            h("ul", {"class": "ini-board-list"}, rows) if rows else None,
                            h("p", {"class": "muted small ini-hidden-list"}, "Hidden: ", ", ".join(unseen), ".")
                            if unseen else None))
        return h("div", {"class": "ini-board", "data-testid": "board"}, groups)

    def _leave_control(self):
        if self.confirm_leave:
            return h("div", {"class": "panel ini-leave", "role": "alertdialog",
                             "aria-label": "Back to the Observer's view"},
                     h("p", {}, "Show the Observer's view? Hidden cards and statuses become visible."),
                     h("div", {"class": "row"},
                       button("Stay in the players' view", "init:leave-no", cls="btn", data_focus="leave-no"),
                       button("Yes, show everything", "init:leave-yes", cls="btn danger")))
        return h("div", {"class": "row ini-leave-row"},
                 button("Observer's view…", "init:leave", cls="btn small ghost", data_focus="leave"))

    # ---------------- log and rules
    def _log(self, st):
        if not st.log:
            return None
        items = [h("li", {"data-key": f"l{n}"}, h("span", {"class": "muted small"}, f"R{e.round} "),
                   with_rule_refs(e.text, ROUTE)) for n, e in reversed(list(enumerate(st.log)))][:60]
        return h("section", {"class": "panel log", "aria-label": "Round log"},
                 h("h2", {}, "Round log"),
                 h("ol", {"class": "log-list", "reversed": True}, items))

    def _rules_in_play(self, st):
        settings = st.settings
        return h("details", {"class": "panel rules-in-play"},
                 h("summary", {}, "Rules in play"),
                 h("ul", {},
                   h("li", {"data-testid": "legacy-rules"}, h("span", {"class": "badge ruling"}, "Earlier rules"), " ",
                     with_rule_refs(cs.LEGACY_RULES, ROUTE)) if st.legacy else None,
                   [h("li", {}, rule_ref(v.rule_id, ROUTE), " ",
                      h("span", {"class": "badge house"}, "House rule") if v.rule_id in cs.HOUSE_RULES else
                      h("span", {"class": "badge variant"}, "Variant"),
                      " ", v.label, ": ", v.describe(settings[v.key])) for v in cs.VARIANTS],
                   [h("li", {}, rule_ref(rid, ROUTE), " ", h("span", {"class": "badge house"}, "House rule"), " ", text)
                    for rid, text in cs.HOUSE_RULES.items() if rid not in {v.rule_id for v in cs.VARIANTS}],
                   seat_house_rules(),
                   h("li", {}, h("span", {"class": "badge ruling"}, "Rulings"), " ",
                     [[rule_ref(rid, ROUTE), " "] for rid in cs.RULINGS])),
                 h("div", {"class": "row"},
                   button("Show non-player combatants in the players' view" if st.privacy else
                          "Hide non-player combatants from the players' view", "init:privacy", cls="btn small")))

    # ------------------------------------------------------------ events
    def handle(self, action: str, arg, el, event) -> None:
        if self.players_view and not self.spectator and (action.startswith("session:") or action.startswith("file:")):
            return  # no session controls in the players' view (a keyboard shortcut included)
        if self.session.handle(action, arg, el):
            return
        if not action.startswith("init:"):
            return
        name = action[5:]
        if self.players_view and not self.spectator:
            if name in ("leave", "leave-no", "leave-yes"):
                self._leave_action(name)
            return  # the players' view has no Observer controls (a stray tap does nothing)
        st = self.session.state
        if st is None:
            self._roster_action(name, arg)
        elif not self.spectator:
            self._tracker_action(st, name, arg)

    def _leave_action(self, name: str) -> None:
        if name == "leave":
            self.confirm_leave = True
            self.app.focus_to("leave-no")
        elif name == "leave-no":
            self.confirm_leave = False
            self.app.focus_to("leave")
        else:
            self.confirm_leave = False
            self._set_players_view(False)
            self.app.focus_to("players-view-button")

    def _roster_action(self, name: str, arg) -> None:
        d = self.draft
        combatants = d["combatants"]
        index = int(arg) if arg is not None and whole(str(arg)) else None
        if name == "add":
            self._add()
        elif name == "cancel-edit":
            self.editing, self.form = None, blank_form()
            self.form_gen += 1
        elif name == "edit" and index is not None and index < len(combatants):
            self.editing = index
            self.form = {**blank_form(), **copy.deepcopy(combatants[index]), "count": "1"}
            self.form_gen += 1
            self.app.focus_to("form-name")
        elif name == "dup" and index is not None and index < len(combatants):
            original = combatants[index]
            match = _NUMBERED.match(original["name"])
            base = match.group(1) if match else original["name"]
            taken = {c["name"] for c in combatants}
            if not match:
                original["name"] = numbered(base, 1, taken | {base})[0] if base in taken else base
                taken = {c["name"] for c in combatants}
            copy_ = {**copy.deepcopy(original), "name": numbered(base, 1, taken | {base})[0]}
            combatants.insert(index + 1, copy_)
        elif name == "remove" and index is not None and index < len(combatants):
            removed = combatants.pop(index)
            self.editing = None
            self.app.toast(f"Removed {removed['name']}.", action=lambda: self._restore(index, removed),
                           action_label="Undo", seconds=8)
        elif name in ("up", "down") and index is not None:
            other = index - 1 if name == "up" else index + 1
            if 0 <= other < len(combatants):
                combatants[index], combatants[other] = combatants[other], combatants[index]
                self.editing = None
        elif name == "add-side" and len(d["sides"]) < MAX_SIDES:
            d["sides"].append(f"Side {len(d['sides']) + 1}")
        elif name == "remove-side" and index is not None and len(d["sides"]) > 2 and index < len(d["sides"]):
            if not any(c["side"] == index for c in combatants):
                d["sides"].pop(index)
                for c in combatants:
                    if c["side"] > index:
                        c["side"] -= 1
                self.form["side"] = 0
        elif name == "template" and index is not None and index < len(self.templates):
            t = self.templates[index]
            self.form = {**blank_form(), **{k: copy.deepcopy(v) for k, v in t["combatant"].items()
                                            if k in ("name", "grain", "training", "weapon", "player")},
                         "side": self.form.get("side", 0), "count": self.form.get("count", "1")}
            self.form_gen += 1
        elif name == "save-template" and self.form["name"].strip():
            entry = combatant_of({**self.form, "side": 0})
            self.templates = [t for t in self.templates if t["name"] != entry["name"]] + [
                {"name": entry["name"], "combatant": entry}]
            self._keep(TEMPLATES_KEY, self.templates)
            self.app.toast(f"Template “{entry['name']}” kept for later games.")
        elif name == "forget-template" and index is not None and index < len(self.templates):
            self.templates.pop(index)
            self._keep(TEMPLATES_KEY, self.templates)
        elif name == "save-side" and index is not None and index < len(d["sides"]):
            side_name = d["sides"][index]
            members = [{k: v for k, v in c.items() if k != "side"} for c in combatants if c["side"] == index]
            self.saved_sides = [s for s in self.saved_sides if s["name"] != side_name] + [
                {"name": side_name, "combatants": members}]
            self._keep(SIDES_KEY, self.saved_sides)
            self.app.toast(f"Side “{side_name}” kept: load it in any later game.")
        elif name == "load-side" and index is not None and index < len(self.saved_sides):
            self._load_side(self.saved_sides[index])
        elif name == "forget-side" and index is not None and index < len(self.saved_sides):
            self.saved_sides.pop(index)
            self._keep(SIDES_KEY, self.saved_sides)
        elif name == "start":
            self._start()
            return
        self._save_draft()

    def _load_side(self, saved: dict) -> None:
        d = self.draft
        combatants = d["combatants"]
        if saved["name"] in d["sides"]:
            s = d["sides"].index(saved["name"])
        else:
            empty = [i for i in range(len(d["sides"])) if not any(c["side"] == i for c in combatants)]
            if empty:
                s = empty[0]
                d["sides"][s] = saved["name"]
            elif len(d["sides"]) < MAX_SIDES:
                d["sides"].append(saved["name"])
                s = len(d["sides"]) - 1
            else:
                self.app.toast(f"A roster has at most {MAX_SIDES} sides.", "error")
                return
        taken = {c["name"] for c in combatants}
        for c in saved["combatants"]:
            entry = {**copy.deepcopy(c), "side": s}
            if entry["name"] in taken:
                entry["name"] = numbered(_NUMBERED.sub(r"\1", entry["name"]), 1, taken)[0]
            taken.add(entry["name"])
            combatants.append(entry)

    def _restore(self, index: int, combatant: dict) -> None:
        self.draft["combatants"].insert(min(index, len(self.draft["combatants"])), combatant)
        self._save_draft()

    def _add(self) -> None:
        f = self.form
        count = self._count()
        if not f["name"].strip() or count is None:
            return
        entry = combatant_of(f)
        try:
            cs.normalize_setup({"sides": self.draft["sides"], "combatants": [entry]})
        except ValueError as err:
            self.app.toast(str(err).replace("Combatant 1", "This combatant"), "error")
            return
        combatants = self.draft["combatants"]
        # A new name field: Safari leaves the focus in the old one, whose typed text a
        # patch would keep (issue 22): the next name starts fresh, with the focus in it.
        self.form_gen += 1
        self.app.focus_to("form-name")
        if self.editing is not None and self.editing < len(combatants):
            combatants[self.editing] = entry
            self.editing = None
            self.form = blank_form()
            return
        taken = {c["name"] for c in combatants}
        for name in numbered(entry["name"], count, taken):
            combatants.append({**entry, "name": name})
        self.form = {**blank_form(), "side": f["side"], "grain": f["grain"], "training": f["training"],
                     "weapon": list(f["weapon"]), "player": False}

    def _start(self) -> None:
        if self.start_game(cs.KIND, copy.deepcopy(self._setup()), self.rules, game_name):
            self._set_players_view(False)
            self.app.focus_to("deal")

    def _tracker_action(self, st, name: str, arg) -> None:
        index = int(arg) if arg is not None and whole(str(arg)) else None
        self.notice = None
        # Deal / Next / End round: a double tap's second tap (on the button that appeared under
        # the finger, or on Next again after the order moved) is refused, and said, by the app's
        # one guard (web/views/curtain.py TapGuard); a tap on another button is always taken.
        if name == "players":
            self._set_players_view(True)
            self.confirm_leave = False
            self.shot = self.long_pick = None
            self.session.drawer = None
            self.app.focus_to("leave")
        elif name in ("adv-side", "adv", "per", "surprise"):
            self._tick(st, name, arg, index)
        elif name.startswith("entry-"):
            self._entry_action(st, name, arg, index)
        elif name == "cd" and arg:
            i, _, v = str(arg).partition(".")
            if whole(i) and whole(v):
                self.countdowns[int(i)] = int(v)
        elif name == "deal":
            adv, surprised, _ = self._ticks_for(st)
            if self._act({"type": "deal", "advantages": {str(i): v for i, v in sorted(adv.items()) if v},
                          "surprised": sorted(surprised)}, NEXT_FOCUS):
                self.app.scroll_to("[data-testid=tracker]")  # the round's status and first actor, at the top
        elif name == "next":
            self._act({"type": "next"}, NEXT_FOCUS)
        elif name == "end-round":
            self._end_round(st)
        elif name == "end-early":
            self.confirm_end = True
            self.shot = self.long_pick = None
            self.app.focus_to("end-no")
        elif name == "end-no":
            self.confirm_end = False
            self.app.focus_to("end-early", "next")
        elif name == "end-yes":
            self.confirm_end = False
            self._end_round(st)
        elif name == "treat" and index is not None:
            self._act({"type": "treat", "combatant": index})
        elif name == "first-aid" and index is not None:
            self._act({"type": "first_aid", "combatant": index})
        elif name == "privacy":
            self._act({"type": "privacy", "hide": not st.privacy})
        elif name == "long-open":
            self.long_pick = set()
            self.shot = None
            self.app.focus_to("long-card")
        elif name == "long-pick" and arg and self.long_pick is not None and arg in self._own_cards(st):
            self.long_pick ^= {arg}
        elif name == "long-cancel":
            self.long_pick = None
            self.app.focus_to("long-open")
        elif name == "long-ok" and self.long_pick is not None:
            cur = cs.current_turn(st)
            if cur is not None:
                turn = st.turns[cur]
                self._act({"type": "long", "combatant": turn.combatant,
                           "cards": sorted(self.long_pick | {turn.card.token})}, NEXT_FOCUS)
        elif name == "shoot-open":
            self.shot = None if self.shot is not None else {"targets": [], "mode": "aimed", "cover": "none",
                                                            "unseen": False, "semi": "hit"}
            self.long_pick = None
            self.confirm_end = False
            self.app.focus_to("target" if self.shot is not None else "shoot-open")
            if self.shot is not None:  # the whole shot (targets, odds, dice, the roll) in sight at once
                self.app.scroll_to("[data-testid=shot-panel]")
        elif name == "shoot-close":
            self.shot = None
            self.app.focus_to("shoot-open")
        elif self.shot is not None:
            self._shot_action(st, name, arg, index)

    def _end_round(self, st) -> None:
        """CS-12/CS-13: the end of the round; with our own dice (HR-CS-7) the DYING countdowns entered."""
        action: dict = {"type": "end_round"}
        due = cs.countdowns_due(st) if st.settings.get("dice") == cs.DICE_TABLE else ()
        if due:
            missing = [st.combatants[i].name for i in due if i not in self.countdowns]
            if missing:
                self.notice = f"CS-13: enter the 1d6 DYING countdown of {missing[0]} first"
                self.confirm_end = cs.current_turn(st) is not None  # the question stays, with its dice
                self.app.focus_to("countdown")
                return
            action["dice"] = {str(i): self.countdowns[i] for i in due}
        if self._act(action, ("deal",)):
            self.countdowns = {}
            self.app.scroll_to("[data-testid=tracker]")

    def _entry_action(self, st, name: str, arg, index) -> None:
        """HR-CS-6: entering the cards dealt from a real deck (see :meth:`_card_entry`)."""
        if st.phase != "ready":
            self.entry = None
            return
        owed = self._owed(st)
        if name == "entry-open":
            first = next((i for i, n in enumerate(owed) if n), None)
            self.entry = {"cards": {}, "at": first}
            self.app.focus_to("entry-who", "entry-deal")
            self.app.scroll_to("[data-testid=card-entry]")
            return
        if self.entry is None:
            return
        cards = self.entry["cards"]
        if name == "entry-cancel":
            self.entry = None
            self.app.focus_to("deal")
        elif name == "entry-who" and index is not None and index < len(owed) and owed[index]:
            self.entry["at"] = index
        elif name == "entry-pick" and arg:
            at = self.entry["at"]
            token = str(arg)
            owner = next((i for i, ts in cards.items() if token in ts), None)
            if at is None:
                return
            if owner == at:
                tap = getattr(self.app, "tap", None)
                if tap is not None and tap.detail >= 2:  # a double tap's second: the card stays (TapGuard)
                    tap.refuse(f"Not taken: a second tap on the {Card.parse(token).name} right after the first "
                               "(a double tap?) would have taken it back. Tap it again if you meant it.")
                    return
                cards[at].remove(token)
            elif owner is not None:
                self.notice = (f"CS-6: the {Card.parse(token).name} is {st.combatants[owner].name}'s already "
                               "(one deck, each card once)")
            elif len(cards.get(at, [])) >= owed[at]:
                self.notice = (f"CS-6: {st.combatants[at].name} is owed {plural(owed[at], 'card')}: tap one "
                               "of them to take it back, or another name")
            else:
                cards.setdefault(at, []).append(token)
                if len(cards[at]) == owed[at]:  # on to the next combatant still short of cards
                    order = list(range(at + 1, len(owed))) + list(range(at))
                    nxt = next((i for i in order if len(cards.get(i, [])) < owed[i]), None)
                    if nxt is not None:
                        self.entry["at"] = nxt
                    else:
                        self.app.focus_to("entry-deal")
        elif name == "entry-deal":
            adv, surprised, _ = self._ticks_for(st)
            action = {"type": "deal", "advantages": {str(i): v for i, v in sorted(adv.items()) if v},
                      "surprised": sorted(surprised),
                      "cards": {str(i): list(ts) for i, ts in sorted(cards.items()) if ts}}
            if self._act(action, NEXT_FOCUS):
                self.entry = None
                self.app.scroll_to("[data-testid=tracker]")

    def _tick(self, st, name: str, arg, index) -> None:
        adv, surprised, per = self._ticks_for(st)
        if name == "adv-side" and arg:
            s, _, key = str(arg).partition(".")
            if not whole(s) or key not in cs.ADVANTAGES:
                return
            members = [i for i, c in enumerate(st.combatants) if c.side == int(s) and cs.can_act(st, i)]
            on = bool(members) and all(key in adv.get(i, []) for i in members)
            for i in members:
                have = [a for a in adv.get(i, []) if a != key]
                adv[i] = have if on else [a for a in cs.ADVANTAGES if a in have or a == key]
        elif name == "adv" and arg:
            i, _, key = str(arg).partition(".")
            if not whole(i) or int(i) >= len(st.combatants) or key not in cs.ADVANTAGES:
                return
            have = adv.get(int(i), [])
            adv[int(i)] = [a for a in cs.ADVANTAGES if (a in have) != (a == key)]
        elif name == "per":
            per = not per
        elif name == "surprise" and index is not None and index < len(st.sides):
            surprised ^= {index}
        self._store_ticks(st, adv, surprised, per)

    def _shot_action(self, st, name, arg, index) -> None:
        shot = self.shot
        cur = cs.current_turn(st)
        if cur is None:
            return
        if name in ("mode", "target", "cover", "semi"):
            shot["dice"] = []  # the dice a shot needs depend on these: entered again
        if name == "die" and arg and whole(str(arg)):
            call = self._roll_call(st)
            if call is not None and call.low <= int(arg) <= call.high:
                dice = shot.setdefault("dice", [])
                if call.position == len(dice):
                    dice.append({})
                dice[call.position][call.key] = int(arg)
                if self._roll_call(st) is None:
                    self.app.focus_to("fire")
            return
        if name == "die-back" and arg:
            pos, _, key = str(arg).partition(".")
            dice = shot.get("dice", [])
            if whole(pos) and int(pos) < len(dice) and key in dice[int(pos)]:
                keys = list(dice[int(pos)])
                kept = {k: dice[int(pos)][k] for k in keys[:keys.index(key)]}
                shot["dice"] = dice[:int(pos)] + ([kept] if kept else [])
                self.app.focus_to("die")
            return
        shooter = st.combatants[st.turns[cur].combatant]
        area = shooter.has(cs.Trait.AUTOMATIC) or shooter.has(cs.Trait.SEMI_AUTOMATIC)
        if name == "mode" and arg in ("aimed", "suppressive"):
            shot["mode"] = arg
            shot["semi"] = "hit" if arg == "aimed" else "damage"
            if arg == "aimed":
                shot["targets"] = shot["targets"][:1]
        elif name == "target" and index is not None and index < len(st.combatants):
            if index in shot["targets"]:
                shot["targets"].remove(index)
            elif shot["mode"] == "suppressive" and area:
                shot["targets"].append(index)
            else:
                shot["targets"] = [index]
        elif name == "cover" and arg in {c.value for c in cs.Cover}:
            shot["cover"] = arg
        elif name == "unseen":
            shot["unseen"] = not shot["unseen"]
        elif name == "semi" and arg in ("hit", "damage"):
            shot["semi"] = arg
        elif name == "fire" and shot["targets"]:
            if self._act(self._shot_action_of(st), ("result", "next")):
                self.shot = None  # the shot was this card's action: the turn moved on (CS-5)

    def _act(self, action: dict, focus: tuple[str, ...] = ()) -> bool:
        refusal = self.session.try_act(action)
        self.notice = refusal
        if refusal is None and focus:
            self.app.focus_to(*focus)
        return refusal is None

    def field(self, name: str, value: str, live: bool, row: str | None = None) -> bool:
        """A form control changed; returns whether the screen needs redrawing."""
        if self.session.field(name, value):
            return False
        if not name.startswith("init:"):
            return False
        key = name[5:]
        if key == "seed":
            self.seed_text = value
            self.setup_error = None
            return not live
        if key.startswith("side."):
            i = key[5:]
            if whole(i) and int(i) < len(self.draft["sides"]):
                self.draft["sides"][int(i)] = value
                self._save_draft()
            return not live
        if key == "rules.pulp":
            self.rules["pulp"] = value == "1"
            self._save_draft()
            return True
        if key in ("rules.deck", "rules.dice"):
            self.rules[key[6:]] = "table" if value == "1" else "app"
            self._save_draft()
            return True
        if key == "privacy":
            self.draft["privacy"] = value == "1"
            self._save_draft()
            return True
        if key.startswith("form."):
            part = key[5:]
            if part.startswith("weapon."):
                trait = part[7:]
                if trait not in _TRAITS:
                    return False
                weapon = [t for t in self.form["weapon"] if t != trait]
                if value == "1":
                    weapon.append(trait)
                    # CS-11: automatic or semi-automatic; ground- or air-vehicle: one of each pair
                    pairs = ({"automatic", "semi-automatic"}, {"ground-vehicle", "air-vehicle"})
                    for pair in pairs:
                        if trait in pair:
                            weapon = [t for t in weapon if t == trait or t not in pair]
                self.form["weapon"] = weapon
                return True
            if part == "player":
                self.form["player"] = value == "1"
                return True
            if part == "side":
                self.form["side"] = int(value) if whole(value) and int(value) < len(self.draft["sides"]) else 0
                return True
            if part in ("name", "grain", "training", "count"):
                self.form[part] = value
                return not live or part == "count" or part == "name"
        return False
