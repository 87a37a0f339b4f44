"""The Ascension Isle battle board (AI-1 … AI-19).

Two screens: the setup (build both armies — Jibril preset, vanguard, rearguard,
general — with their dice pools live; the rules settings: dice and success, who reads
the tables, whose dice, the house tables) and the board (blind bids behind the
pass-the-tablet curtain, the reveal, exact odds, the app's roll or the table's own
dice entered and checked, the result matrix with each side's cell, casualties, units
joining or corrected between weeks, the log and the campaign turn checklist). A
spectator's copy shows what the table could see and offers no move. Every rule
decision comes from :mod:`engine.ascension`; this module only draws the state and
turns taps into actions.
"""

from __future__ import annotations

import copy
import random

from engine import ascension as ai
from engine import game as games
from engine.ascension import FALLBACK_NOTE, JIBRIL_DIVISION, JIBRIL_NOTE, TIER_MARGINS, TURN_PHASES
from engine.rules import SettingsError
from web import platform
from web.dom import button, h
from web.session import Session
from web.views.chances import percent, whole_percent
from web.views.curtain import CurtainGuard, curtain
from web.views.rulebits import rule_ref, seat_house_rules, with_rule_refs
from web.views.tool import ToolView, whole

DRAFT_KEY = "ct:v1:draft:battle"
SIDE_CLASS = ("side-a", "side-b")
TRAIT_LABELS = {"infantry": "Infantry", "line": "Line", "scout": "Scout", "observer": "Observer",
                "long range": "Long range"}
STATS = ("attack", "defense", "mobility", "armour", "size")
#: A tap that lands this soon after the screen changed is a double tap's second half: ignored
#: on the curtain (:class:`CurtainGuard`), so a fast double tap never opens the next side's
#: secret screen.
CURTAIN_GUARD_MS = 600
#: The armour or size the one-tap Jibril buttons give (the source gives no number).
JIBRIL_TOUGHNESS = 2
SETTING_KEYS = ("success", "reads", "dice")
#: The app's general bids this long after the week opens (its "declares…" shows briefly).
APP_BID_DELAY = 0.35


def blank_unit(number: int = 1) -> dict:
    return {"name": f"Unit {number}", "attack": 2, "defense": 2, "mobility": 2, "traits": ["infantry", "line"],
            "armour": 0, "size": 0}


def blank_setup() -> dict:
    return {"armies": [
        {"name": "Army A", "units": [ai.jibril_division()], "vanguard": 0, "rearguard": 0, "general": None},
        {"name": "Army B", "units": [blank_unit()], "vanguard": 0, "rearguard": 0, "general": None},
    ]}


def blank_rules() -> dict:
    return {"success": "d6/4+", "reads": "both", "dice": "app", "house_tables": {}}


def game_name(game) -> str:
    first, second = (army["name"] for army in game.setup["armies"])
    return f"{first} vs {second}"


def is_jibril(unit: dict) -> bool:
    return isinstance(unit.get("name"), str) and unit["name"].startswith(JIBRIL_DIVISION["name"])


# ------------------------------------------------------------ a stored draft, read back safely

def _text_field(value, fallback: str, what: str, problems: list[str]) -> str:
    if isinstance(value, str):
        return value[:60]
    problems.append(f"{what} was not text")
    return fallback


def _number_field(value, what: str, problems: list[str], default: int = 0):
    """A stat as the form keeps it: a whole number, or the text typed so far (shown as typed)."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        problems.append(f"{what} was not a number")
        return default
    if isinstance(value, str):
        return value[:6]
    return value


def _trait_list(value, allowed, what: str, problems: list[str]) -> list[str]:
    if not isinstance(value, list):
        problems.append(f"{what} were not a list")
        return []
    kept = [t for t in value if isinstance(t, str) and t in allowed]
    if len(kept) != len(value):
        problems.append(f"{what} had unknown entries")
    return list(dict.fromkeys(kept))


def _index(value, count: int, what: str, problems: list[str]) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < count:
        return value
    if value is not None:
        problems.append(f"{what} was not one of the army's units")
    return 0


def repair_draft(setup, rules=None) -> tuple[dict, dict, list[str]]:
    """The setup form's draft as stored (hand-edited, from an older version …), made safe to
    edit: every field of the shape the form edits, wrong fields replaced or dropped. Returns
    ``(setup, rules, problems)``: what was repaired, in players' words (empty: nothing)."""
    problems: list[str] = []
    blank = blank_setup()
    if not isinstance(setup, dict) or not isinstance(setup.get("armies"), list) or len(setup["armies"]) != 2:
        if setup is not None:
            problems.append("the armies could not be read, so the form starts fresh")
        return blank, repair_rules(rules, problems), problems
    armies = []
    for a, army in enumerate(setup["armies"]):
        where = f"Army {a + 1}"
        if not isinstance(army, dict):
            problems.append(f"{where} could not be read and was replaced")
            armies.append(blank["armies"][a])
            continue
        units = []
        raw_units = army.get("units") if isinstance(army.get("units"), list) else []
        for u, unit in enumerate(raw_units[:200]):
            uwhere = f"{where}, unit {u + 1}"
            if not isinstance(unit, dict):
                problems.append(f"{uwhere} could not be read and was dropped")
                continue
            units.append({"name": _text_field(unit.get("name", ""), f"Unit {u + 1}", f"{uwhere}'s name", problems),
                          **{key: _number_field(unit.get(key, 0), f"{uwhere}'s {key}", problems) for key in STATS},
                          "traits": _trait_list(unit.get("traits", []), ai.TRAITS, f"{uwhere}'s traits", problems)})
        if not units:
            problems.append(f"{where} had no unit that could be read: it has a blank one")
            units = [blank_unit()]
        general = army.get("general")
        if general is not None:
            if not isinstance(general, dict):
                problems.append(f"{where}'s general could not be read and was removed")
                general = None
            else:
                level = general.get("level")
                if not (isinstance(level, int) and not isinstance(level, bool) and 0 <= level <= 3):
                    problems.append(f"{where}'s general's level was not 0 to 3")
                    level = 0
                general = {"name": _text_field(general.get("name", ""), f"General of {where}",
                                               f"{where}'s general's name", problems),
                           "level": level,
                           "traits": _trait_list(general.get("traits", []), ("observer",),
                                                 f"{where}'s general's traits", problems)}
        armies.append({"name": _text_field(army.get("name", ""), where, f"{where}'s name", problems),
                       "units": units,
                       "vanguard": _index(army.get("vanguard", 0), len(units), f"{where}'s vanguard", problems),
                       "rearguard": _index(army.get("rearguard", 0), len(units), f"{where}'s rearguard", problems),
                       "general": general})
        if army.get("controller") == "app":  # issue 17: the app plays this army
            level = army.get("level")
            if not (isinstance(level, str) and level in ai.APP_LEVELS):
                problems.append(f"{where}'s general played by the app had no level that could be read (Normal now)")
                level = "normal"
            armies[-1].update(controller="app", level=level)
    return {"armies": armies}, repair_rules(rules, problems), problems


def clean_kept(data) -> tuple[dict | None, list[str]]:
    """The kept setup form as it is stored, ``{"setup": …, "rules": …}``, and what was
    repaired (for :meth:`ToolView.read_kept`); ``(None, [])`` when nothing is kept."""
    if data is None:
        return None, []
    setup = data.get("setup") if isinstance(data, dict) else data
    rules = data.get("rules") if isinstance(data, dict) else None
    setup, rules, problems = repair_draft(setup, rules)
    return {"setup": setup, "rules": rules}, problems


def repair_rules(rules, problems: list[str]) -> dict:
    out = blank_rules()
    if rules is None:
        return out
    if not isinstance(rules, dict):
        problems.append("the rules settings could not be read (the defaults are used)")
        return out
    for key in SETTING_KEYS:
        value = rules.get(key, out[key])
        if isinstance(value, str) and value in [c for c, _ in ai.VARIANT_BY_KEY[key].choices]:
            out[key] = value
        else:
            problems.append(f"the setting “{ai.VARIANT_BY_KEY[key].label}” was not a choice (the default is used)")
    try:
        out["house_tables"] = ai.normalize_house_tables(rules.get("house_tables"))
    except (ValueError, SettingsError):
        problems.append("the house tables could not be read and were dropped")
    return out


def landed_spread(landed) -> str:
    """The casualties that land, each count with its chance: "0: 40.0 %, 1: 35.5 % …"."""
    likely = sorted((p, n) for n, p in landed if p)[-4:]  # the four likeliest counts, in order
    return ", ".join(f"{n}: {percent(p)}" for p, n in sorted(likely, key=lambda x: x[1]))


def _int(text: str):
    text = text.strip()
    return int(text) if whole(text) and len(text) <= 6 else text


def casualties(n: int) -> str:
    return f"{n} casualt{'y' if n == 1 else 'ies'}"


class BattleView(ToolView):
    route = "battle"

    #: Where the focus goes after an action that changes the board (issue 14, 22): the first
    #: of these marked elements on the screen (see App.focus_to).
    NEXT = ("curtain", "bid", "reveal", "entry", "roll", "result", "over")

    def __init__(self, app) -> None:
        self.app = app
        self.session = Session(app, "battle", "Ascension Isle", on_change=self._reset_view, namer=game_name)
        self.draft: dict = blank_setup()
        self.rules: dict = blank_rules()
        self.seed_text = ""
        self.setup_error: str | None = None
        self.edit_tier = "drawn"
        self.edit_cell: tuple[str, str] | None = None  # (own, other) of the house cell being edited
        self.cell_text = ""
        self.cell_error: str | None = None
        self.guard = CurtainGuard(platform.now_ms, settle_ms=CURTAIN_GUARD_MS)
        self.advise = True  # the staff officer's odds behind the curtain (issue 17)
        self._app_pending = None
        self.aim = "net"
        self._reset_view()

    # ------------------------------------------------------------ lifecycle
    def _reset_view(self) -> None:
        """After every change of the game: the curtain is down, nothing picked, no entry open."""
        self.shown: int | None = None  # the side whose secret bid screen is up
        self.pick: dict = {"maneuver": None, "stratagems": [], "rearguard": None}
        self.notice: str | None = None
        self.entry: dict = {"mode": getattr(self, "entry_mode", "successes"), "hits": [None, None],
                            "faces": [[], []], "ranges": [None, None]}
        self.unit_form: dict | None = None  # {"side", "index" (None: a unit joins), "unit", "error"}
        self.guard.hold()

    def boot(self) -> None:
        form = self.read_kept(DRAFT_KEY, clean_kept, "the setup form")
        if form is not None:
            self.draft, self.rules = form["setup"], form["rules"]
        self.tell_kept("The saved battle setup was damaged and has been repaired")
        self.session.boot()

    def recover(self) -> None:
        """After an unexpected error: the plain table, and a draft the form can surely draw."""
        super().recover()
        self.draft, self.rules, _ = repair_draft(self.draft, self.rules)
        self.edit_cell = None

    def escape(self) -> bool:
        """Escape closes a drawer, else the house-cell editor or the unit form."""
        if self.session.escape():
            return True
        if self.edit_cell is not None:
            own, other = self.edit_cell
            self.edit_cell = None
            self.app.focus_to(f"cell-{own}.{other}")
            return True
        if self.unit_form is not None:
            self.unit_form = None
            return True
        return False

    def _save_draft(self) -> None:
        self.keep_json(DRAFT_KEY, {"setup": self.draft, "rules": self.rules})

    # ------------------------------------------------------------ rendering
    def render(self):
        state = self.session.state
        if state is not None:
            self._schedule_app_bid(state)
        out = self.frame(self.render_setup() if state is None else self.render_board(state))
        game = self.session.game
        if self.session.drawer == "share" and game is not None:
            # Issue 18: the game's settings (whose dice …) are said where its links are shared.
            drawer = next((c for c in out[2].children if getattr(c, "tag", None)), None)
            if drawer is not None:
                drawer.children.insert(1, h("p", {"class": "muted share-settings", "data-testid": "share-settings"},
                                            "Rules settings of this game, in both links: ",
                                            ai.settings_summary(game.rules), "."))
        return out

    # ---------------- setup
    def _draft_state(self):
        try:
            setup = ai.normalize_setup(self.draft)
            return ai.start(setup, self.rules, random.Random(0)), None
        except (ValueError, TypeError) as err:
            return None, str(err)

    def render_setup(self):
        preview, problem = self._draft_state()
        return h("div", {"class": "setup battle-setup", "data-testid": "setup"},
                 h("div", {"class": "panel example"},
                   h("div", {"class": "spread"},
                     h("div", {},
                       h("h2", {}, "New battle"),
                       h("p", {"class": "muted"}, "Build both armies, or start from an example: a corps of three "
                                                  "Jibril Armoured Infantry Divisions (", rule_ref("AI-3", "battle"),
                         ": 6 attack dice) against a Zone army.")),
                     button("Load the Jibril corps example", "battle:example", cls="btn"))),
                 h("div", {"class": "sides-grid"},
                   [self._army_editor(a, army, preview) for a, army in enumerate(self.draft["armies"])]),
                 self._settings_panel(),
                 h("p", {"class": "msg-error", "role": "alert", "data-testid": "setup-error"},
                   with_rule_refs(problem, "battle")) if problem else None,
                 h("p", {"class": "msg-error", "role": "alert"}, self.setup_error) if self.setup_error else None,
                 h("div", {"class": "row start-row"},
                   self.seed_field("rolls the same dice"),
                   button("Start the battle", "battle:start", cls="btn primary big", disabled=preview is None)))

    def _played_by(self, a: int, army: dict):
        """Issue 17: the army is played by people, or by the app at a level."""
        value = army.get("level", "normal") if army.get("controller") == "app" else "people"
        options = [("people", "People at the table")] + [
            (level, f"The app — {ai.LEVEL_LABELS[level]}") for level in ai.APP_LEVELS]
        return h("label", {"class": "field"}, "Played by",
                 h("select", {"data-field": f"solo:{a}", "value": value, "data-testid": f"played-by-{a}"},
                   [h("option", {"value": v, "selected": v == value}, text) for v, text in options]))

    def _army_editor(self, a: int, army: dict, preview):
        units = army.get("units", [])
        rows = [self._unit_row(a, u, unit) for u, unit in enumerate(units)]
        general = army.get("general")
        line_choices = [(i, u.get("name") or f"Unit {i + 1}") for i, u in enumerate(units)
                        if {"line", "infantry"} & set(u.get("traits", []))]
        return h("section", {"class": ["panel side-editor army-editor", SIDE_CLASS[a]], "aria-label": f"Army {a + 1}",
                             "data-testid": f"army-{a}"},
                 h("div", {"class": "row"},
                   self._text(f"armies.{a}.name", army.get("name", ""), f"Army {a + 1} name", cls="side-name"),
                   self._played_by(a, army)),
                 h("div", {"class": "row general-row"},
                   h("label", {"class": "field"}, "General (AI-1)",
                     h("select", {"data-field": f"general:{a}.level",
                                  "value": "none" if general is None else str(general.get("level", 0))},
                       h("option", {"value": "none", "selected": general is None}, "No general"),
                       [h("option", {"value": str(lv), "selected": general is not None and general.get("level") == lv},
                          f"Level {lv}" + (" — skilled (AI-9)" if lv == 3 else "")) for lv in range(4)])),
                   self._text(f"armies.{a}.general.name", general.get("name", ""), "General's name")
                   if general is not None else None,
                   h("label", {"class": "check"},
                     h("input", {"type": "checkbox", "data-field": f"general:{a}.observer",
                                 "checked": "observer" in general.get("traits", [])}), "Observer")
                   if general is not None else None),
                 h("p", {"class": "muted small"}, "Armour or size, not both (", rule_ref("AI-14", "battle"),
                   "): armour N falls to N casualties in one week, size N to N in all. With neither, one casualty "
                   "destroys a unit (", rule_ref("HR-AI-1", "battle"), ")."),
                 h("div", {"class": "unit-list"}, rows),
                 h("div", {"class": "row"},
                   button("+ Jibril Armoured Infantry Division", "battle:add-jibril", str(a), cls="btn small"),
                   button("+ Unit", "battle:add-unit", str(a), cls="btn small")),
                 self._jibril_note(a, units),
                 h("div", {"class": "row"},
                   h("label", {"class": "field"}, "Vanguard (a line unit, AI-1)",
                     h("select", {"data-field": f"setup:armies.{a}.vanguard", "value": str(army.get("vanguard", 0))},
                       [h("option", {"value": str(i), "selected": army.get("vanguard") == i}, name)
                        for i, name in line_choices] or
                       h("option", {"value": str(army.get("vanguard", 0))}, "— no line unit —"))),
                   h("label", {"class": "field"}, "Rearguard (the default for a Withdraw, AI-2)",
                     h("select", {"data-field": f"setup:armies.{a}.rearguard",
                                  "value": str(army.get("rearguard", 0))},
                       [h("option", {"value": str(i), "selected": army.get("rearguard", 0) == i},
                          u.get("name") or f"Unit {i + 1}") for i, u in enumerate(units)]))),
                 self._pool_table(preview, a) if preview is not None else None)

    def _jibril_note(self, a: int, units: list):
        """Issue 22: where the preset is added, the source's gap is said, and filled in one tap."""
        jibril = [u for u in units if is_jibril(u)]
        if not jibril:
            return None
        bare = [u for u in jibril if not u.get("armour") and not u.get("size")]
        n = JIBRIL_TOUGHNESS
        return h("div", {"class": "jibril-note", "data-testid": f"jibril-note-{a}"},
                 h("p", {"class": "small"}, with_rule_refs(JIBRIL_NOTE, "battle"),
                   f" {len(bare)} of {len(jibril)} here have neither." if bare else
                   " Those here have armour or size now; each can be changed in its row."),
                 h("div", {"class": "row"},
                   button(f"Give them armour {n}", "battle:jibril-armour", str(a), cls="btn small",
                          disabled=not bare, aria_label=f"Give them armour {n}: the Jibril divisions of army {a + 1}"),
                   button(f"Give them size {n}", "battle:jibril-size", str(a), cls="btn small",
                          disabled=not bare, aria_label=f"Give them size {n}: the Jibril divisions of army {a + 1}"))
                 if bare else None)

    def _unit_row(self, a: int, u: int, unit: dict):
        base = f"armies.{a}.units.{u}"
        name = unit.get("name") or f"Unit {u + 1}"
        traits = unit.get("traits", [])
        both = bool(unit.get("armour")) and bool(unit.get("size"))

        def number(key, label, hi=99):
            value = unit.get(key, "")
            bad = not (isinstance(value, int) and 0 <= value <= hi) or (both and key in ("armour", "size"))
            return h("label", {"class": "field num"}, label,
                     h("input", {"type": "number", "inputmode": "numeric", "min": "0", "max": str(hi), "step": "1",
                                 "data-field": f"setup:{base}.{key}", "value": str(value),
                                 "aria-invalid": "true" if bad else None}))

        def trait(key, label):
            implied = key == "line" and "infantry" in traits
            return h("label", {"class": ["check", implied and "implied"]},
                     h("input", {"type": "checkbox", "data-field": f"trait:{a}.{u}.{key}",
                                 "checked": key in traits or implied, "disabled": implied,
                                 "aria-describedby": f"implied-{a}-{u}" if implied else None}), label)

        return h("div", {"class": "unit-row", "data-key": f"u{a}.{u}"},
                 h("div", {"class": "row"},
                   self._text(f"{base}.name", unit.get("name", ""), "Unit", cls="unit-name"),
                   button("✕", "battle:remove-unit", f"{a}.{u}", cls="btn small ghost remove",
                          aria_label=f"Remove {name}", disabled=len(self.draft["armies"][a]["units"]) <= 1)),
                 h("div", {"class": "row stats"},
                   number("attack", "Attack"), number("defense", "Defense"), number("mobility", "Mobility"),
                   number("armour", "Armour"), number("size", "Size")),
                 h("div", {"class": "row traits", "role": "group", "aria-label": f"Traits of {name}"},
                   [trait(key, label) for key, label in TRAIT_LABELS.items()],
                   h("span", {"class": "muted small", "id": f"implied-{a}-{u}"}, "an infantry division is a line "
                                                                                   "unit (AI-1)")
                   if "infantry" in traits else None))

    def _text(self, path: str, value: str, label: str, cls: str = ""):
        return h("label", {"class": ["field", cls]}, label,
                 h("input", {"type": "text", "data-field": f"setup:{path}", "value": value, "maxlength": "60",
                             "autocomplete": "off"}))

    def _pool_table(self, st, a: int):
        """AI-2/AI-3: the dice of each maneuver, live, with the reinforcement and the next die."""
        rows = []
        for m in ai.MANEUVERS:
            pool = ai.dice_pool(st, a, m)
            line = st.armies[a].units[pool.line_unit].name if pool.line_unit is not None else "—"
            rows.append(h("tr", {"data-maneuver": m},
                          h("th", {"scope": "row"}, ai.MANEUVER_NAMES[m]),
                          h("td", {"class": "dice-count", "data-testid": f"pool-{a}-{m}"}, str(pool.dice)),
                          h("td", {}, f"{pool.base} {pool.stat} ({line}) + {pool.reinforcement}"),
                          h("td", {"class": "muted"}, f"rest {pool.rest_total}; next die needs +{pool.next_needs}"
                            if pool.next_needs is not None else "no reinforcement")))
        return h("table", {"class": "data-table pools", "aria-label": f"Dice pools of {st.armies[a].name}"},
                 h("caption", {}, "Dice pools (", rule_ref("AI-2", "battle"), ", ", rule_ref("AI-3", "battle"), ")"),
                 h("thead", {}, h("tr", {}, h("th", {"scope": "col"}, "Maneuver"), h("th", {"scope": "col"}, "Dice"),
                                  h("th", {"scope": "col"}, "Base + reinforcement"),
                                  h("th", {"scope": "col"}, "Strength"))),
                 h("tbody", {}, rows))

    def _variant_field(self, key: str):
        variant = ai.VARIANT_BY_KEY[key]
        badge = "House rule" if variant.rule_id.startswith("HR-") else "Variant"
        return h("div", {"class": "variant"},
                 h("label", {"class": "field"},
                   h("span", {}, h("span", {"class": "rule-id"}, variant.rule_id), " ", variant.label, " ",
                     h("span", {"class": ["badge", "house" if badge == "House rule" else "variant"]}, badge)),
                   h("select", {"data-field": f"rules:{key}", "value": self.rules.get(key)},
                     [h("option", {"value": value, "selected": self.rules.get(key) == value}, text)
                      for value, text in variant.choices])),
                 h("p", {"class": "muted small"}, variant.explanation))

    def _settings_panel(self):
        house = self.rules.get("house_tables") or {}
        edited = sum(len(cols) for rows in house.values() for cols in rows.values())
        return h("section", {"class": "panel options", "aria-label": "Rules settings"},
                 h("h2", {}, "Rules settings"),
                 [self._variant_field(key) for key in SETTING_KEYS],
                 h("h3", {}, "House result tables (", rule_ref("AI-11", "battle"), ")"),
                 h("p", {"class": "muted small"}, "Tap a cell to change it for your group. The engine reads "
                   "“Withdraw succeeds”, “Withdraw fails” and “inflict N” or “inflict N-M casualties” from "
                   "the words. ", f"{edited} cell{'s' if edited != 1 else ''} edited."),
                 h("div", {"class": "row", "role": "radiogroup", "aria-label": "Table to edit"},
                   [button(ai.TIER_NAMES[t], "battle:edit-tier", t, cls=["btn small", t == self.edit_tier and "on"],
                           role="radio", aria_checked="true" if t == self.edit_tier else "false")
                    for t in ai.TIERS]),
                 self.matrix(self.rules, self.edit_tier, editable=True),
                 self._cell_editor())

    def _cell_editor(self):
        """A sheet fixed at the bottom of the screen: wherever the tapped cell is, the editor is
        seen (issue 22: at 1024×768 it opened above the table, off screen)."""
        if self.edit_cell is None:
            return None
        own, other = self.edit_cell
        cell = ai.result_cell(self.rules, self.edit_tier, own, other)
        return h("div", {"class": "cell-editor cell-sheet", "data-testid": "cell-editor", "role": "dialog",
                         "aria-modal": "false", "aria-labelledby": "cell-editor-label"},
                 h("label", {"class": "field", "id": "cell-editor-label"},
                   f"{ai.TIER_NAMES[self.edit_tier]}: {ai.MANEUVER_NAMES[own]} against {ai.MANEUVER_NAMES[other]}",
                   h("input", {"type": "text", "data-field": "cell-text", "value": self.cell_text,
                               "maxlength": str(ai.CELL_MAX), "autocomplete": "off", "data-focus": "cell-text",
                               "aria-invalid": "true" if self.cell_error else None})),
                 h("p", {"class": "muted small"}, "The source's text: “",
                   ai.result_cell({}, self.edit_tier, own, other).text, "”"),
                 h("p", {"class": "msg-error", "role": "alert"}, self.cell_error) if self.cell_error else None,
                 h("div", {"class": "row"},
                   button("Use as house rule", "battle:cell-save", cls="btn primary small"),
                   button("Back to the rules' text", "battle:cell-reset", cls="btn small",
                          disabled=cell.origin != "house"),
                   button("Close", "battle:cell-close", cls="btn small ghost")))

    # ---------------- the matrix (live)
    def matrix(self, rules, tier: str, editable: bool = False, highlight: tuple = ()):
        """AI-10/AI-11: one tier's 6×6 table; house and fallback cells marked; ``highlight`` =
        ((side, own, other), …) cells read this week."""
        marks = {}
        for side, own, other in highlight:
            marks.setdefault((own, other), []).append(SIDE_CLASS[side].replace("side-", "hl-"))
        head = h("tr", {}, h("th", {"scope": "col", "class": "corner"},
                             h("span", {"class": "visually-hidden"}, "Your maneuver (rows), opponent's (columns)"),
                             h("span", {"aria-hidden": "true"}, "You ↓ · They →")),
                 [h("th", {"scope": "col"}, ai.MANEUVER_NAMES[m]) for m in ai.MANEUVERS])
        body = []
        fallback_any = False
        for own in ai.MANEUVERS:
            cells = []
            for other in ai.MANEUVERS:
                cell = ai.result_cell(rules, tier, own, other)
                effect = cell.effect
                kind = ("withdraw-ok" if effect.withdraw else "withdraw-fail" if effect.withdraw is False
                        else "casualties" if effect.casualties else "none")
                fallback_any |= cell.origin == "fallback"
                mark = (h("span", {"class": "cell-mark house", "title": "house table"}, "✎ ") if cell.origin == "house"
                        else h("span", {"class": "cell-mark fallback", "title": FALLBACK_NOTE}, "† ")
                        if cell.origin == "fallback" else None)
                hl = marks.get((own, other), [])
                label = None
                if hl:
                    who = " and ".join(self._army_name(int(c == "hl-b")) for c in hl)
                    label = f"read this week by {who}"
                content = [[h("span", {"class": ["hl-tag", c]}, self._army_name(int(c == "hl-b"))) for c in hl],
                           mark, cell.text,
                           h("span", {"class": "visually-hidden"}, f" ({label})") if label else None,
                           h("span", {"class": "visually-hidden"}, " (house table)") if cell.origin == "house" else None]
                if editable:
                    content = button(content, "battle:edit-cell", f"{own}.{other}", cls="cell-btn",
                                     data_focus=f"cell-{own}.{other}",
                                     aria_label=f"Edit {ai.MANEUVER_NAMES[own]} against {ai.MANEUVER_NAMES[other]}: "
                                                f"{cell.text}")
                editing = editable and self.edit_cell == (own, other)
                cells.append(h("td", {"class": ["cell", kind, cell.origin != "source" and cell.origin, *hl,
                                                editing and "editing"],
                                      "data-cell": f"{tier}.{own}.{other}", "data-origin": cell.origin},
                               content))
            body.append(h("tr", {}, h("th", {"scope": "row"}, ai.MANEUVER_NAMES[own]), cells))
        return h("div", {"class": "matrix-wrap", "tabindex": "0", "role": "region",
                         "aria-label": f"{ai.TIER_NAMES[tier]} matrix", "data-testid": "live-matrix"},
                 h("table", {"class": "matrix result-matrix live", "data-tier": tier},
                   h("caption", {}, ai.TIER_NAMES[tier], " ", h("span", {"class": "muted"}, f"({TIER_MARGINS[tier]})"),
                     [" ", h("span", {"class": "badge ruling"}, "AI-11 fallback"), " ",
                      h("span", {"class": "muted"}, FALLBACK_NOTE)] if fallback_any else None),
                   h("thead", {}, head), h("tbody", {}, body)))

    def _army_name(self, side: int) -> str:
        st = self.session.state
        if st is not None:
            return st.armies[side].name
        return self.draft["armies"][side].get("name") or f"Army {side + 1}"

    # ---------------- board
    def render_board(self, st):
        return h("div", {"class": ["table battle-board", f"phase-{st.phase}", self.spectator and "spectating"],
                         "data-testid": "board", "data-phase": st.phase, "data-week": str(st.week)},
                 h("p", {"class": "status", "role": "status", "data-testid": "status"},
                   with_rule_refs(ai.status(st), "battle")),
                 self._spectator_area(st) if self.spectator else self._action_area(st),
                 self._last_week(st),
                 h("div", {"class": "board armies"}, self._army_panel(st, 0), self._army_panel(st, 1)),
                 self._checklist(st),
                 self._log(st),
                 self._rules_in_play(st))

    def _spectator_area(self, st):
        """Issue 21: a spectator's copy offers no bid, reveal or roll; it says what is true."""
        names = [a.name for a in st.armies]
        if st.phase == "over":
            return h("section", {"class": "panel result over", "data-testid": "over"},
                     h("h2", {}, "The battle is over"),
                     h("p", {"data-testid": "outcome"}, with_rule_refs(st.outcome, "battle")))
        if st.phase == "revealed":
            return h("section", {"class": "panel revealed", "data-testid": "revealed"},
                     h("div", {"class": "revealed-body"},
                       h("div", {"class": "revealed-grid"}, [self._revealed_side(st, s) for s in (0, 1)]),
                       self._odds(st, ai.week_odds(st))),
                     h("p", {"class": "muted", "data-testid": "spectator-note"},
                       "The table rolls next; this copy shows the bids and the odds, not the roll."))
        declared = [s for s in (0, 1) if st.bids[s] is not None]
        if len(declared) == 2:
            text = "Their bids stay hidden until both are revealed at the table"
        elif declared:
            text = f"What {names[declared[0]]} declared stays hidden until both bids are revealed"
        else:
            text = "A bid is shown here only once both are revealed"
        return h("section", {"class": "panel spectating-note", "data-testid": "spectator-note"},
                 h("p", {}, text, " (", rule_ref("AI-7", "battle"), "). This copy offers no move."))

    def _army_panel(self, st, s: int):
        army = st.armies[s]
        changing = not self.spectator and ai.can_change_armies(st)
        form = self.unit_form if self.unit_form and self.unit_form["side"] == s else None
        items = []
        for i, unit in enumerate(army.units):
            dead = st.destroyed[s][i]
            tags = []
            if i == st.vanguards[s] and not dead:
                tags.append(h("span", {"class": "badge variant"}, "vanguard"))
                if not unit.is_line:
                    tags.append(h("span", {"class": "badge house", "title": ai.HOUSE_RULES["HR-AI-3"]},
                                  "not a line unit (HR-AI-3)"))
            if i == st.rearguards[s] and not dead:
                tags.append(h("span", {"class": "badge"}, "rearguard"))
            damage = f" · {st.damage[s][i]}/{unit.size} size damage" if unit.size and st.damage[s][i] else ""
            items.append(h("li", {"class": ["unit", dead and "destroyed"], "data-key": f"unit{s}.{i}",
                                  "data-destroyed": "true" if dead else None},
                           h("div", {"class": "unit-line"},
                             h("span", {"class": "unit-name"}, unit.name), " ", tags,
                             button("Correct", "battle:unit-edit", f"{s}.{i}", cls="btn small ghost",
                                    aria_label=f"Correct {unit.name}")
                             if changing and not dead and form is None else None),
                           h("span", {"class": "muted small unit-stats"},
                             f"{unit.attack}/{unit.defense}/{unit.mobility} · {unit.toughness()}{damage}",
                             " · destroyed" if dead else "")))
        general = army.general
        return h("section", {"class": ["panel side army", SIDE_CLASS[s]], "aria-label": army.name,
                             "data-testid": f"army-{s}"},
                 h("h2", {"class": "side-title"}, army.name),
                 h("p", {"class": "muted small"},
                   f"{general.name} (general, level {general.level}" + (", skilled, AI-9)" if general.skilled else ")")
                   if general else "No general",
                   f" · {len(st.alive(s))} of {len(army.units)} units standing · attack/defense/mobility"),
                 h("ul", {"class": "unit-status", "aria-label": f"Units of {army.name}"}, items),
                 self._unit_form(st, form) if form is not None else
                 h("div", {"class": "row"},
                   button("+ A unit joins", "battle:unit-new", str(s), cls="btn small",
                          aria_label=f"A unit joins {army.name}")) if changing else None)

    def _unit_form(self, st, form: dict):
        """Issue 22: a unit that joins (reinforcements entering the hex) or a corrected entry,
        between weeks; recorded as an action in the history."""
        s, index, unit = form["side"], form["index"], form["unit"]
        army = st.armies[s]
        title = (f"A unit joins {army.name}" if index is None else f"Correct {army.units[index].name}")

        def number(key, label):
            value = unit.get(key, "")
            return h("label", {"class": "field num"}, label,
                     h("input", {"type": "number", "inputmode": "numeric", "min": "0", "max": "99", "step": "1",
                                 "data-field": f"uform:{key}", "value": str(value)}))

        traits = unit.get("traits", [])
        return h("div", {"class": "unit-form", "data-testid": "unit-form", "role": "group", "aria-label": title},
                 h("h3", {}, title),
                 h("label", {"class": "field"}, "Name",
                   h("input", {"type": "text", "data-field": "uform:name", "value": unit.get("name", ""),
                               "maxlength": "60", "autocomplete": "off", "data-focus": "unit-form"})),
                 h("div", {"class": "row stats"}, [number(k, k.capitalize()) for k in STATS]),
                 h("div", {"class": "row traits", "role": "group", "aria-label": "Traits"},
                   [h("label", {"class": "check"},
                      h("input", {"type": "checkbox", "data-field": f"uform-trait:{key}",
                                  "checked": key in traits or (key == "line" and "infantry" in traits),
                                  "disabled": key == "line" and "infantry" in traits}), label)
                    for key, label in TRAIT_LABELS.items()]),
                 h("p", {"class": "msg-error", "role": "alert"}, with_rule_refs(form["error"], "battle"))
                 if form.get("error") else None,
                 h("p", {"class": "muted small"}, "Recorded in the history as a step of this week, before the bids; "
                                                  "Undo takes it back."),
                 h("div", {"class": "row"},
                   button("Join the battle" if index is None else "Record the correction", "battle:unit-save",
                          cls="btn primary small"),
                   button("Cancel", "battle:unit-cancel", cls="btn small ghost")))

    def _levels(self):
        game = self.session.game
        return ai.app_levels(game.setup) if game is not None else (None, None)

    def _next_bidder(self, st):
        """The next army people play that has not declared (the app's general bids by itself)."""
        levels = self._levels()
        for s in (0, 1):
            if st.bids[s] is None and levels[s] is None:
                return s
        return None

    def _app_waiting(self, st):
        """The app's army still to bid (its bid comes in a moment), or None."""
        levels = self._levels()
        for s in (0, 1):
            if st.phase == "bid" and st.bids[s] is None and levels[s] is not None:
                return s
        return None

    def _app_bid_now(self) -> bool:
        """Issue 17: every army the app plays that is to bid declares now, from public
        information only (engine.ascension.app_bid), as an ordinary recorded bid."""
        moved = False
        for _ in (0, 1):
            game = self.session.game
            if game is None or self.spectator:
                return moved
            turn = ai.app_turn(game)
            if turn is None:
                return moved
            side, level = turn
            try:
                action = ai.app_bid(self.session.state, side, level, game.seed)
            except ValueError as err:
                self.app.toast(f"The app's general could not bid: {err}", "error")
                return moved
            if self.session.try_act(action):
                return moved
            moved = True
        return moved

    def _schedule_app_bid(self, st) -> None:
        game = self.session.game
        if game is None or self.spectator or self._app_pending is game or st.phase != "bid":
            return
        if self._app_waiting(st) is None or ai.app_turn(game) is None:
            return
        self._app_pending = game

        def move():
            if self.session.game is not game:
                return
            self._app_pending = None
            if self._app_bid_now():
                self.app.render()

        later = getattr(self.app, "later", None)
        if later is not None:
            later(APP_BID_DELAY, move)
        else:
            from js import window  # type: ignore[import-not-found]
            from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

            window.setTimeout(create_once_callable(lambda *_: move()), int(APP_BID_DELAY * 1000))

    def _leave_offers(self, st):
        """AI-15: the week after its opponent skirmished, an army may leave the battle before the
        bids: the board says why it may, and the button says what it does."""
        out = []
        for s in (0, 1):
            if ai.can_leave(st, s):
                army, enemy = st.armies[s].name, st.armies[1 - s].name
                out.append(h("div", {"class": "leave-offer", "data-testid": f"leave-{s}"},
                             h("p", {"class": "small"}, f"{enemy} skirmished last week, so {army} may leave the "
                                                        "battle now, before the bids (", rule_ref("AI-15", "battle"),
                               ")."),
                             button(f"Take {army} out of the battle", "battle:leave", str(s), cls="btn small")))
        return out

    def _action_area(self, st):
        if st.phase == "over":
            return h("section", {"class": "panel result over", "role": "status", "data-testid": "over",
                                 "tabindex": "-1", "data-focus": "over"},
                     h("h2", {}, "The battle is over"),
                     h("p", {"data-testid": "outcome"}, with_rule_refs(st.outcome, "battle")),
                     h("div", {"class": "row"},
                       button("New battle with these armies", "battle:rematch", cls="btn primary"),
                       button("Set up a new battle", "session:new", cls="btn")))
        if st.phase == "revealed":
            return self._revealed(st)
        side = self._next_bidder(st)
        if side is None and any(b is None for b in st.bids):
            return h("div", {"class": "bid-stage"},
                     h("ul", {"class": "declared"},
                       [h("li", {}, f"{st.armies[s].name} has declared in secret ✓") for s in (0, 1)
                        if st.bids[s] is not None]),
                     h("p", {"class": "muted", "data-testid": "app-bidding"}, "The app's general is declaring…"))
        if side is None:
            return h("section", {"class": "panel reveal", "data-testid": "reveal-panel"},
                     h("p", {"class": "curtain-text"}, "Both armies have declared. Put the tablet where everyone "
                                                       "can see it."),
                     button("Reveal both bids", "battle:reveal", cls="btn primary big", data_focus="reveal"))
        levels = self._levels()
        declared = [h("li", {"data-testid": f"declared-{s}"}, f"{st.armies[s].name}"
                         + (f" (the app, {ai.LEVEL_LABELS[levels[s]]})" if levels[s] else "")
                         + " has declared in secret ✓") for s in (0, 1) if st.bids[s] is not None]
        waiting = self._app_waiting(st)
        if waiting is not None:
            declared.append(h("li", {"class": "muted", "data-testid": "app-bidding"},
                              f"{st.armies[waiting].name} (the app, "
                              f"{ai.LEVEL_LABELS[levels[waiting]]}) is declaring…"))
        leave = self._leave_offers(st)
        if self.shown != side:
            return h("div", {"class": "bid-stage"},
                     h("ul", {"class": "declared"}, declared) if declared else None,
                     curtain(st.armies[side].name, "to declare its maneuver in secret", "battle:show", str(side),
                             cls=SIDE_CLASS[side],
                             note="The app is the invigilator (AI-7): no one else sees the choice until both "
                                  "are revealed together.",
                             label=f"I am {st.armies[side].name}: choose my maneuver"),
                     h("div", {"class": "panel leave-offers"}, leave) if leave else None)
        return self._bid_form(st, side)

    def _bid_form(self, st, s: int):
        chosen = self.pick.get("maneuver")
        enemy = st.armies[1 - s].name
        options = []
        for m in ai.MANEUVERS:
            pool = ai.dice_pool(st, s, m)
            strong, weak = ai.MATCHUPS[m]
            options.append(button(
                [h("span", {"class": "m-name"}, ai.MANEUVER_NAMES[m]),
                 h("span", {"class": "m-dice"}, f"{pool.dice} dice"),
                 h("span", {"class": "m-hint"}, "strong vs " + ", ".join(ai.MANEUVER_NAMES[x] for x in strong))],
                "battle:pick", m, cls=["btn maneuver", chosen == m and "on"], role="radio",
                aria_label=f"{ai.MANEUVER_NAMES[m]}, {pool.dice} dice",
                aria_checked="true" if chosen == m else "false", data_focus="bid" if m == ai.MANEUVERS[0] else None))
        strat_rows = None
        if chosen:
            offered = ai.offered_stratagems(st, s, chosen)
            picked = self.pick.get("stratagems", [])
            rear = self.pick.get("rearguard")
            rear = st.rearguards[s] if rear is None or st.destroyed[s][rear] else rear
            rear_field = None
            if chosen == "withdraw":
                rear_field = h("label", {"class": "field rear-field"},
                               "Rearguard for this Withdraw (", rule_ref("AI-2", "battle"), ")",
                               h("select", {"data-field": "bid:rearguard", "value": str(rear)},
                                 [h("option", {"value": str(i), "selected": i == rear},
                                    st.armies[s].units[i].name) for i in st.alive(s)]))
            strat_rows = h("div", {"class": "stratagems", "role": "group", "aria-label": "Stratagems"},
                           h("p", {"class": "muted small"}, "Stratagems your army qualifies for (",
                             rule_ref("AI-16", "battle"), ")" + (":" if offered else ": none for this maneuver.")),
                           [button([h("strong", {}, strat.name), " — ", strat.says,
                                    " (AI-17)" if strat.effect is None or strat.partly else ""],
                                   "battle:strat", strat.key, cls=["btn strat", strat.key in picked and "on"],
                                   aria_pressed="true" if strat.key in picked else "false")
                            for strat in offered])
            rearguard = rear if chosen == "withdraw" else None
            pool = ai.dice_pool(st, s, chosen, picked, rearguard=rearguard)
            strat_rows = [rear_field, strat_rows,
                          h("p", {"class": "pool-line", "data-testid": "bid-pool"},
                            f"{ai.MANEUVER_NAMES[chosen]}: {pool.explain()}")]
        return h("section", {"class": ["panel bid", SIDE_CLASS[s]], "data-testid": "bid-form",
                             "aria-label": f"{st.armies[s].name} declares"},
                 h("h2", {}, f"{st.armies[s].name}: your maneuver for week {st.week}"),
                 h("p", {"class": "muted small"}, f"{enemy}'s bid stays hidden until both are revealed (",
                   rule_ref("AI-7", "battle"), ")."),
                 h("p", {"class": "msg-error", "role": "alert"}, with_rule_refs(self.notice, "battle"))
                 if self.notice else None,
                 h("div", {"class": "maneuvers", "role": "radiogroup", "aria-label": "Maneuver"}, options),
                 strat_rows,
                 self._advisor(st, s),
                 h("div", {"class": "row sticky-controls"},
                   button("Declare in secret", "battle:declare", str(s), cls="btn primary big", disabled=not chosen),
                   button("Hide", "battle:hide", cls="btn ghost")))

    def _advisor(self, st, s: int):
        """Issue 17 (HR-AI-13): the staff officer behind the curtain — for each of this side's
        maneuvers against each the enemy may declare, the exact odds, and the equilibrium mix
        for the chosen aim. Computed from the public battle only (never the enemy's bid)."""
        if not self.advise:
            return h("div", {"class": "advisor closed", "data-testid": "advisor"},
                     button("Show the staff officer's odds", "battle:advise", "on", cls="btn small ghost"))
        found = ai.advice(st, s, self.aim)
        chosen = self.pick.get("maneuver")
        heads = [h("th", {"scope": "col", "class": "adv-col"}, ai.MANEUVER_NAMES[b.maneuver].replace(" Attack", ""))
                 for b in found.enemy]
        rows = []
        for i, mine in enumerate(found.own):
            cells = []
            for j, cell in enumerate(found.grid[i]):
                lines = []
                if mine.maneuver == "withdraw":
                    lines.append(h("span", {"class": "adv-away"}, f"away {whole_percent(cell.gets_away)}"))
                lines.append(h("span", {"class": "adv-cas"}, f"{float(cell.inflicted):.1f} / {float(cell.taken):.1f}"))
                if cell.falls_back:
                    lines.append(h("span", {"class": "adv-back"}, f"back {whole_percent(cell.falls_back)}"))
                tone = "good" if cell.payoff > found.value else "bad" if cell.payoff < found.value else "even"
                cells.append(h("td", {"class": ["adv-cell", tone], "data-cell": f"{mine.maneuver}.{j}"}, lines))
            share = found.mix[i]
            rows.append(h("tr", {"class": [chosen == mine.maneuver and "on"], "data-row": mine.maneuver},
                          h("th", {"scope": "row", "class": "adv-row"},
                            h("span", {"class": "adv-name"}, ai.bid_name(mine)),
                            h("span", {"class": "adv-mix"}, f" {whole_percent(share)}") if share else None),
                          cells))
        aims = h("div", {"class": "row adv-aims", "role": "radiogroup", "aria-label": "Aim"},
                 h("span", {"class": "small muted"}, "Aim:"),
                 [button(ai.AIM_NAMES[a], "battle:aim", a, cls=["btn small", self.aim == a and "on"], role="radio",
                         aria_checked="true" if self.aim == a else "false") for a in ai.AIMS])
        value = found.value
        worth = (f"{float(value):+.2f} net casualties a week" if self.aim == "net" else
                 f"{whole_percent(value)} {'to get away' if self.aim == 'away' else 'to hold the hex'}")
        return h("section", {"class": "advisor", "data-testid": "advisor", "aria-label": "Staff officer's odds"},
                 h("div", {"class": "spread"},
                   h("h3", {}, "If they declare … (", rule_ref("HR-AI-13", "battle"), ")"),
                   aims),
                 h("p", {"class": "adv-advice", "data-testid": "advice"},
                   h("strong", {}, found.recommendation()), f" — for {ai.AIM_NAMES[self.aim]}, worth {worth} "
                   "whatever they declare."),
                 h("div", {"class": "adv-scroll"},
                   h("table", {"class": "data-table adv-grid"},
                     h("thead", {}, h("tr", {}, h("th", {"scope": "col"}, "You ↓ · They →"), heads)),
                     h("tbody", {}, rows))),
                 h("p", {"class": "muted small adv-legend"},
                   "Each square: casualties you inflict / you take (expected), your chance of getting away "
                   "(Withdraw) and of falling back (", rule_ref("AI-19", "battle"), "); green beats the mix's "
                   "worth. From both armies only: their bid is not known here.",
                   " ", button("Hide the odds", "battle:advise", "off", cls="btn small ghost")))

    def _revealed_side(self, st, s: int):
        bid = st.bids[s]
        pool = ai.dice_pool(st, s, bid.maneuver, bid.stratagems, st.switched[s], rearguard=bid.rearguard)
        enemy = st.bids[1 - s]
        names = [a.name for a in st.armies]
        strats = [ai.STRATAGEM_BY_KEY[k].name for k in bid.stratagems if not (st.switched[s] and k == "counter_attack")]
        notes = []
        if "counter_attack" in bid.stratagems and not st.switched[s]:
            if "feint" in enemy.stratagems:
                notes.append(f"AI-16: {names[1 - s]}'s Feint cancels this Counter Attack (and the Counter Attack "
                             "cancels the Feint): it stays a Defend.")
            elif enemy.maneuver not in ("attack", "shock"):
                notes.append(f"AI-16: {names[1 - s]} did not attack, so Counter Attack cannot switch: it stays a "
                             "Defend.")
        if "feint" in bid.stratagems and "counter_attack" in enemy.stratagems:
            notes.append(f"AI-16: this Feint cancels {names[1 - s]}'s Counter Attack, and is cancelled by it.")
        if bid.maneuver == "withdraw" and bid.rearguard is not None:
            notes.append(f"AI-2: rearguard {st.armies[s].units[bid.rearguard].name}.")
        can_switch = not self.spectator and ai.can_counter_attack(st, s)
        why = st.whys[s]
        return h("div", {"class": ["revealed-bid", SIDE_CLASS[s]], "data-testid": f"revealed-{s}"},
                 h("h3", {}, names[s]),
                 h("p", {"class": "small app-why", "data-testid": f"why-{s}"}, "The app's general: ", why)
                 if why else None,
                 h("p", {"class": "bid-maneuver"}, "Attack" if st.switched[s] else ai.MANEUVER_NAMES[bid.maneuver],
                   h("span", {"class": "muted"}, " with " + ", ".join(strats)) if strats else None),
                 h("p", {"class": "small"}, "Switched from Defend by Counter Attack, without reinforcement dice (",
                   rule_ref("AI-16", "battle"), ")") if st.switched[s] else None,
                 h("p", {"class": "muted small", "data-testid": f"pool-now-{s}"}, pool.explain()),
                 [h("p", {"class": "muted small"}, with_rule_refs(n, "battle")) for n in pool.notes + tuple(notes)],
                 button("Counter Attack: switch to Attack", "battle:counter", str(s), cls="btn small")
                 if can_switch else None)

    def _revealed(self, st):
        odds = ai.week_odds(st)
        die, target = ai.success_setting(st.settings)
        table_dice = st.settings.get("dice") == ai.DICE_TABLE
        return h("section", {"class": "panel revealed", "data-testid": "revealed"},
                 h("div", {"class": "revealed-body"},
                   h("div", {"class": "revealed-grid"}, [self._revealed_side(st, s) for s in (0, 1)]),
                   h("div", {"class": "revealed-odds"}, self._odds(st, odds), self._outcomes(st))),
                 self._entry(st, die, target) if table_dice else
                 h("div", {"class": "row sticky-controls"},
                   h("p", {"class": "muted small"}, f"Each die is a d{die}; {target} or more is a success (",
                     rule_ref("AI-6", "battle"), ")."),
                   button("Roll the dice", "battle:roll", cls="btn primary big", data_focus="roll")))

    # ---------------- our own dice (issue 18, HR-AI-7)
    def _entry_rolls(self, st):
        """The entered successes (or None while a side is incomplete)."""
        pools = [ai.dice_pool(st, s, st.bids[s].maneuver, st.bids[s].stratagems, st.switched[s],
                              rearguard=st.bids[s].rearguard) for s in (0, 1)]
        die, target = ai.success_setting(st.settings)
        hits = []
        for s in (0, 1):
            if self.entry["mode"] == "faces":
                faces = self.entry["faces"][s]
                hits.append(ai.count_successes(faces, die, target) if len(faces) == pools[s].dice else None)
            else:
                value = self.entry["hits"][s]
                hits.append(value if value is not None and value <= pools[s].dice else None)
        return pools, hits

    def _entry(self, st, die: int, target: int):
        names = [a.name for a in st.armies]
        pools, hits = self._entry_rolls(st)
        mode = self.entry["mode"]
        sides = []
        for s in (0, 1):
            n = pools[s].dice
            head = h("p", {"class": "entry-head"}, h("strong", {}, names[s]),
                     f" rolls {n} × d{die}; {target} or more is a success (",
                     rule_ref("AI-6", "battle"), ")")
            if mode == "faces":
                faces = self.entry["faces"][s]
                chips = [button(str(v), "battle:unface", f"{s}.{i}",
                                cls=["die", v >= target and "hit", "entered"],
                                aria_label=f"Remove the {v}" + (" (a success)" if v >= target else ""))
                         for i, v in enumerate(faces)]
                body = [h("div", {"class": "dice entered-dice", "aria-label": f"Dice entered for {names[s]}"},
                          chips or h("span", {"class": "muted small"}, "no die entered yet")),
                        h("p", {"class": "small", "data-testid": f"entry-count-{s}"},
                          f"{len(faces)} of {n} dice entered",
                          f" · {ai.count_successes(faces, die, target)} success"
                          f"{'es' if ai.count_successes(faces, die, target) != 1 else ''}" if faces else "",
                          " — tap a die to take it back" if faces else ""),
                        h("div", {"class": "face-pad", "role": "group", "aria-label": f"Add a die for {names[s]}"},
                          [button(str(v), "battle:face", f"{s}.{v}", cls=["btn face", v >= target and "hit"],
                                  disabled=len(faces) >= n, aria_label=f"Add a {v} for {names[s]}")
                           for v in range(1, die + 1)],
                          button("Clear", "battle:clear", str(s), cls="btn small ghost", disabled=not faces,
                                 aria_label=f"Clear {names[s]}'s dice"))]
            else:
                chosen = self.entry["hits"][s]
                body = [h("div", {"class": "hit-pad", "role": "radiogroup",
                                  "aria-label": f"Successes of {names[s]}"},
                          [button(str(k), "battle:hits", f"{s}.{k}", cls=["btn hit-count", chosen == k and "on"],
                                  role="radio", aria_checked="true" if chosen == k else "false",
                                  aria_label=f"{names[s]}: {k} success{'es' if k != 1 else ''}")
                           for k in range(n + 1)])]
            sides.append(h("div", {"class": ["entry-side", SIDE_CLASS[s]], "data-testid": f"entry-side-{s}"},
                           head, body))
        return h("section", {"class": "entry", "data-testid": "entry", "aria-label": "Your own dice"},
                 h("div", {"class": "spread"},
                   h("h3", {"tabindex": "-1", "data-focus": "entry"}, "Your own dice: enter what each side rolled"),
                   h("div", {"class": "row", "role": "radiogroup", "aria-label": "Enter"},
                     button("Successes", "battle:entry-mode", "successes",
                            cls=["btn small", mode == "successes" and "on"], role="radio",
                            aria_checked="true" if mode == "successes" else "false"),
                     button("Faces", "battle:entry-mode", "faces", cls=["btn small", mode == "faces" and "on"],
                            role="radio", aria_checked="true" if mode == "faces" else "false"))),
                 h("div", {"class": "entry-grid"}, sides),
                 self._entry_preview(st, hits))

    def _entry_preview(self, st, hits):
        names = [a.name for a in st.armies]
        if None in hits:
            missing = [names[s] for s in (0, 1) if hits[s] is None]
            return h("div", {"class": "row sticky-controls"},
                     h("p", {"class": "muted small", "data-testid": "entry-preview"},
                       f"Waiting for the dice of {' and '.join(missing)}."),
                     button("Record the roll", "battle:record", cls="btn primary big", disabled=True))
        margin = abs(hits[0] - hits[1])
        winner = None if margin == 0 else (0 if hits[0] > hits[1] else 1)
        spans = ai.casualty_ranges(st, st.bids, (hits[0], hits[1]))
        general = st.armies[winner].general if winner is not None else None
        tier = ai.victory_tier(margin, bool(general and general.skilled))
        line = (f"{hits[0]}–{hits[1]}: drawn combat" if winner is None else
                f"{hits[0]}–{hits[1]}: {ai.TIER_NAMES[tier].lower()} for {names[winner]} (margin {margin})")
        ranges = []
        app_rolls = []
        for s in (0, 1):
            span = spans[s]
            if not span or span[0] == span[1]:
                continue
            chosen = self.entry["ranges"][s]
            if chosen is None:
                app_rolls.append(names[s])
            ranges.append(h("div", {"class": "range-entry", "data-testid": f"range-{s}", "role": "radiogroup",
                                    "aria-label": f"{names[s]}'s casualty roll, {span[0]} to {span[1]}"},
                            h("span", {"class": "small"}, f"{names[s]} inflicts {span[0]}–{span[1]} (",
                              rule_ref("AI-12", "battle"), "): "),
                            [button(str(v), "battle:range", f"{s}.{v}", cls=["btn small", chosen == v and "on"],
                                    role="radio", aria_checked="true" if chosen == v else "false",
                                    aria_label=f"{names[s]} rolled {v}") for v in range(span[0], span[1] + 1)],
                            button("The app rolls it", "battle:range", f"{s}.app",
                                   cls=["btn small ghost", chosen is None and "on"], role="radio",
                                   aria_checked="true" if chosen is None else "false")))
        record = "Record the roll" + (f" (the app rolls the casualty range of {' and '.join(app_rolls)})"
                                      if app_rolls else "")
        return h("div", {"class": "entry-preview"},
                 h("p", {"class": "pool-line", "data-testid": "entry-preview"}, line, " (",
                   rule_ref("AI-8", "battle"), ")"),
                 ranges,
                 h("div", {"class": "row sticky-controls"},
                   h("p", {"class": "muted small"}, "Check the entries: each is one tap to change until you record."),
                   button(record, "battle:record", cls="btn primary big", data_focus="roll")))

    def _odds(self, st, odds):
        """AI-8: the exact chance of every tier for each side."""
        rows = []
        names = [a.name for a in st.armies]
        for s in (0, 1):
            for tier, p in odds["sides"][s].items():
                rows.append(h("tr", {"class": SIDE_CLASS[s], "data-odds": f"{s}.{tier}"},
                              h("th", {"scope": "row"}, f"{names[s]}: {ai.TIER_NAMES[tier].lower()}"),
                              h("td", {"class": "pct"}, percent(p)),
                              h("td", {"class": "bar-cell", "aria-hidden": "true"},
                                h("meter", {"min": "0", "max": "1", "value": f"{float(p):.4f}"}))))
            if s == 0:
                rows.append(h("tr", {"data-odds": "drawn"}, h("th", {"scope": "row"}, "Drawn combat"),
                              h("td", {"class": "pct"}, percent(odds["drawn"])),
                              h("td", {"class": "bar-cell", "aria-hidden": "true"},
                                h("meter", {"min": "0", "max": "1", "value": f"{float(odds['drawn']):.4f}"}))))
        return h("table", {"class": "data-table odds", "data-testid": "odds"},
                 h("caption", {}, "Exact odds before the roll (", rule_ref("AI-8", "battle"), ")"),
                 h("tbody", {}, rows))

    def _outcomes(self, st):
        """Issue 17: what the two revealed bids mean before the roll, exact for each army: whether
        it gets away (and how), its withdraw fails, it falls back (AI-19) or stays; the casualties
        that land on it (AI-12 ranges, AI-15 mitigation), a unit lost, the army destroyed (AI-14)."""
        if st.bids[0] is None or st.bids[1] is None:
            return None
        odds = ai.outcome_odds(st, st.bids, st.switched)
        names = [a.name for a in st.armies]
        sides = odds.sides
        rows = []
        for key in ai.MOVEMENTS:
            if any(side.movement[key] for side in sides):
                name = ai.MOVEMENT_NAMES[key]
                rows.append((name[:1].upper() + name[1:], [side.movement[key] for side in sides], key))
        body = [h("tr", {"data-outcome": key}, h("th", {"scope": "row"}, label),
                  [h("td", {"class": ["pct", SIDE_CLASS[s]]}, percent(p)) for s, p in enumerate(values)])
                for label, values, key in rows]
        body.append(h("tr", {"data-outcome": "landed"}, h("th", {"scope": "row"}, "Casualties landing (mean)"),
                      [h("td", {"class": ["pct", SIDE_CLASS[s]]}, f"{float(side.mean_landed):.2f}",
                         h("span", {"class": "spread"}, landed_spread(side.landed)))
                       for s, side in enumerate(sides)]))
        body.append(h("tr", {"data-outcome": "loses-unit"}, h("th", {"scope": "row"}, "Loses a unit"),
                      [h("td", {"class": ["pct", SIDE_CLASS[s]]}, percent(side.loses_unit)) for s, side in enumerate(sides)]))
        body.append(h("tr", {"data-outcome": "destroyed"}, h("th", {"scope": "row"}, "Army destroyed"),
                      [h("td", {"class": ["pct", SIDE_CLASS[s]]}, percent(side.destroyed)) for s, side in enumerate(sides)]))
        return h("table", {"class": "data-table outcomes", "data-testid": "outcomes"},
                 h("caption", {}, "What the bids mean this week (", rule_ref("AI-12", "battle"), ", ",
                   rule_ref("AI-14", "battle"), ", ", rule_ref("AI-19", "battle"), ")"),
                 h("thead", {}, h("tr", {}, h("td", {}),
                                  [h("th", {"scope": "col", "class": SIDE_CLASS[s]}, names[s]) for s in (0, 1)])),
                 h("tbody", {}, body))

    def _week_side(self, st, w, s: int, target: int):
        names = [a.name for a in st.armies]
        cell = w.cells[s]
        rng = w.ranges[s]
        if w.dice is not None:
            dice = [h("span", {"class": ["die", v >= target and "hit"],
                               "aria-label": f"{v}{' success' if v >= target else ''}"}, str(v)) for v in w.dice[s]]
            dice_box = h("div", {"class": "dice", "aria-label": f"Dice of {names[s]}"}, dice or
                         h("span", {"class": "muted"}, "no dice"))
        else:
            dice_box = h("p", {"class": "muted small"}, f"{w.pools[s].dice} dice rolled at the table; "
                                                        "the successes were entered")
        incoming = w.rolled[1 - s]
        if w.mitigated[s]:
            how = "Delay" if w.maneuvers[s] == "block" else "Defend"
            takes = (f"Takes {w.taken[s]} of {casualties(incoming)}: {how} cancels {w.mitigated[s]} (AI-15)")
        else:
            takes = f"Takes {casualties(w.taken[s])}"
        if rng and rng[0] != rng[1]:
            inflicts = f"Inflicts {rng[0]}–{rng[1]}: rolled {w.rolled[s]} (AI-12)"
        elif rng:
            inflicts = f"Inflicts {casualties(w.rolled[s])}"
        elif not w.applied[s]:
            inflicts = "Inflicts nothing: only the winner's row is applied (AI-10 variant)"
        else:
            inflicts = "Inflicts nothing"
        return h("div", {"class": ["week-side", SIDE_CLASS[s]], "data-testid": f"week-side-{s}"},
                 h("h3", {}, names[s], " — ", ai.MANEUVER_NAMES[w.maneuvers[s]]),
                 dice_box,
                 h("p", {"class": "successes", "data-testid": f"successes-{s}"},
                   f"{w.successes[s]} success{'es' if w.successes[s] != 1 else ''}"),
                 h("p", {"class": ["cell-read", not w.applied[s] and "not-applied"], "data-testid": f"cell-{s}"},
                   "Reads: “", cell.text, "”",
                   h("span", {"class": "muted"}, f" (as {ai.MANEUVER_NAMES[w.read_as[s]]})")
                   if w.read_as[s] != w.maneuvers[s] else None,
                   h("span", {"class": "muted"}, " — not applied") if not w.applied[s] else None),
                 h("p", {"class": "muted small"}, with_rule_refs(cell.note, "battle")) if cell.note else None,
                 h("p", {"class": "small", "data-testid": f"inflicts-{s}"}, with_rule_refs(inflicts, "battle")),
                 h("p", {"class": "small", "data-testid": f"takes-{s}"}, with_rule_refs(takes, "battle"),
                   "; destroyed: " + ", ".join(w.lost[s]) if w.lost[s] else ""),
                 h("p", {"class": "muted small app-why", "data-testid": f"week-why-{s}"}, "The app's general: ",
                   w.whys[s]) if w.whys[s] else None)

    def _last_week(self, st):
        if not st.weeks:
            return None
        w = st.weeks[-1]
        die, target = ai.success_setting(st.settings)
        highlight = ((0, w.read_as[0], w.maneuvers[1]), (1, w.read_as[1], w.maneuvers[0]))
        return h("section", {"class": "panel week-result", "data-testid": "week-result", "data-tier": w.tier,
                             "data-margin": str(w.margin), "data-winner": "" if w.winner is None else str(w.winner)},
                 h("h2", {"data-testid": "headline", "tabindex": "-1", "data-focus": "result"}, w.headline),
                 h("p", {"class": "tier-line"}, h("strong", {}, ai.TIER_NAMES[w.tier]), f" — margin {w.margin} (",
                   rule_ref("AI-8", "battle"), ")"),
                 h("div", {"class": "revealed-grid"}, [self._week_side(st, w, s, target) for s in (0, 1)]),
                 [h("p", {"class": "muted small note"}, with_rule_refs(n, "battle")) for n in w.notes
                  if not n.startswith("AI-11") and not n.startswith("AI-15:")],  # said beside each side
                 h("p", {"class": "note small", "data-testid": "ended"}, with_rule_refs(w.ended, "battle"))
                 if w.ended else None,
                 h("p", {"class": "muted small"}, with_rule_refs("Casualties land on the line unit first (HR-AI-2); a "
                                                                 "unit without armour or size falls to one (HR-AI-1).",
                                                                 "battle")) if any(w.taken) else None,
                 self.matrix(st.settings, w.tier, highlight=highlight))

    def _checklist(self, st):
        done = set(st.phases_done)
        if self.spectator:
            items = [h("li", {"data-key": f"ph{i}", "class": ["phase-done" if i in done else "phase-open"]},
                       h("span", {"class": "tick", "aria-hidden": "true"}, "✓" if i in done else "·"), " ", label,
                       h("span", {"class": "visually-hidden"}, " (done)" if i in done else " (not done)"))
                     for i, label in enumerate(TURN_PHASES)]
        else:
            items = [h("li", {"data-key": f"ph{i}"},
                       button([h("span", {"class": "tick", "aria-hidden": "true"}, "✓" if i in done else ""), label],
                              "battle:phase", str(i), cls=["btn phase", i in done and "done"],
                              aria_pressed="true" if i in done else "false"))
                     for i, label in enumerate(TURN_PHASES)]
        return h("section", {"class": "panel checklist", "aria-label": "Campaign turn"},
                 h("h2", {}, "Campaign turn (", rule_ref("AI-18", "battle"), ")"),
                 h("ol", {"class": "phase-list"}, items))

    def _log(self, st):
        if not st.weeks and not st.changes:
            return None
        names = [a.name for a in st.armies]
        entries = []
        for w in st.weeks:
            bids = "; ".join(f"{names[s]} {ai.MANEUVER_NAMES[w.maneuvers[s]]}"
                             + (f" ({', '.join(ai.STRATAGEM_BY_KEY[k].name for k in w.stratagems[s])})"
                                if w.stratagems[s] else "") for s in (0, 1))
            lost = "; ".join(f"{names[s]} lost {', '.join(w.lost[s])}" for s in (0, 1) if w.lost[s])
            kept = [n for n in w.notes if n.startswith(("AI-19", "HR-AI-3", "AI-10"))]
            entries.append((w.week, 1, h("li", {"data-key": f"w{w.week}"},
                                         h("strong", {}, w.headline), h("br", {}), bids,
                                         f" · dice {w.pools[0].dice} v {w.pools[1].dice}; casualties taken "
                                         f"{w.taken[0]} / {w.taken[1]}",
                                         h("br", {}) if lost else None, lost,
                                         [[h("br", {}), with_rule_refs(n, "battle")] for n in kept],
                                         h("br", {}) if w.ended else None,
                                         with_rule_refs(w.ended, "battle") if w.ended else None)))
        for i, (week, text) in enumerate(st.changes):
            entries.append((week, 0, h("li", {"data-key": f"c{i}", "class": "log-change"},
                                       h("strong", {}, f"Week {week}, before the bids: "),
                                       with_rule_refs(text, "battle"))))
        entries.sort(key=lambda e: (e[0], e[1]))
        return h("section", {"class": "panel log", "aria-label": "Battle log", "data-testid": "log"},
                 h("h2", {}, "Battle log"),
                 h("p", {"class": "muted small"}, with_rule_refs(ai.OLD_RULINGS_NOTE, "battle"))
                 if st.old_rulings else None,
                 h("ol", {"class": "log-list", "reversed": True}, [e[2] for e in reversed(entries)]))

    def _rules_in_play(self, st):
        settings = st.settings
        house = settings.get("house_tables") or {}
        edited = sum(len(cols) for rows in house.values() for cols in rows.values())
        return h("details", {"class": "panel rules-in-play", "data-testid": "rules-in-play"},
                 h("summary", {}, "Rules in play"),
                 h("ul", {},
                   h("li", {"class": "old-rulings"}, h("span", {"class": "badge note"}, "Earlier version"), " ",
                     with_rule_refs(ai.OLD_RULINGS_NOTE, "battle")) if st.old_rulings else None,
                   [h("li", {"data-setting": key}, rule_ref(ai.VARIANT_BY_KEY[key].rule_id, "battle"), " ",
                      h("span", {"class": ["badge", "house" if key == "dice" else "variant"]},
                        "House rule" if key == "dice" else "Variant"), " ",
                      ai.VARIANT_BY_KEY[key].label, ": ", ai.VARIANT_BY_KEY[key].describe(settings[key]))
                    for key in SETTING_KEYS],
                   h("li", {}, rule_ref("AI-11", "battle"), " ",
                     f"{edited} house table cell{'s' if edited != 1 else ''}" if edited else
                     "No house tables: Major, Crushing and Legendary read the Minor victory table."),
                   [h("li", {}, rule_ref(rid, "battle"), " ", h("span", {"class": "badge house"}, "House rule"), " ",
                      text) for rid, text in ai.HOUSE_RULES.items() if rid != "HR-AI-7"],
                   seat_house_rules(),
                   h("li", {}, h("span", {"class": "badge ruling"}, "Rulings"), " ",
                     [[rule_ref(rid, "battle"), " "] for rid in ai.RULINGS]),
                   h("li", {}, button("Print the result matrices", "battle:print", cls="btn small"))))

    # ------------------------------------------------------------ events
    def handle(self, action: str, arg, el, event) -> None:
        if action == "session:undo" and self._undo_for_person():
            return
        if self.session.handle(action, arg, el):
            return
        st = self.session.state
        name = action.split(":", 1)[1] if ":" in action else action
        armies = self.draft["armies"]
        moves = ("show", "hide", "declare", "reveal", "counter", "roll", "record", "leave", "phase", "unit-save",
                 "unit-new", "unit-edit", "unit-cancel", "pick", "strat", "hits", "face", "unface", "clear", "range",
                 "entry-mode")
        if st is not None and self.spectator and name in moves:
            return  # a spectator's copy takes no move (its board offers none)
        if name in ("roll", "record"):
            self.app.focus_to("result", "over", *self.NEXT)
        elif name in ("declare", "reveal", "hide", "counter", "leave", "unit-save", "unit-cancel"):
            self.app.focus_to(*self.NEXT)
        if name == "example":
            self.draft = ai.example_setup()
            self.setup_error = None
            self._save_draft()
        elif name == "add-jibril" and arg is not None:
            a = int(arg)
            number = sum(1 for u in armies[a]["units"] if is_jibril(u)) + 1
            armies[a]["units"].append(ai.jibril_division(f"Jibril Armoured Infantry Division {number}"))
            self._save_draft()
        elif name in ("jibril-armour", "jibril-size") and arg is not None:
            key = name.split("-", 1)[1]
            for unit in armies[int(arg)]["units"]:
                if is_jibril(unit) and not unit.get("armour") and not unit.get("size"):
                    unit[key] = JIBRIL_TOUGHNESS
            self._save_draft()
        elif name == "add-unit" and arg is not None:
            a = int(arg)
            armies[a]["units"].append(blank_unit(len(armies[a]["units"]) + 1))
            self._save_draft()
        elif name == "remove-unit" and arg:
            a, u = (int(x) for x in arg.split("."))
            units = armies[a]["units"]
            if len(units) > 1 and u < len(units):
                del units[u]
                for key in ("vanguard", "rearguard"):
                    value = armies[a].get(key, 0)
                    if isinstance(value, int) and value > u:
                        armies[a][key] = value - 1
                    elif value == u:
                        armies[a][key] = 0  # its unit is gone: the first unit (the form says if it is no line unit)
            self._save_draft()
        elif name == "start":
            self._start()
        elif name == "edit-tier" and arg in ai.TIERS:
            self.edit_tier = arg
            self.edit_cell = None
        elif name == "edit-cell" and arg:
            own, _, other = arg.partition(".")
            if own in ai.MANEUVERS and other in ai.MANEUVERS:
                self.edit_cell = (own, other)
                self.cell_text = ai.result_cell(self.rules, self.edit_tier, own, other).text
                self.cell_error = None
                self.app.focus_to("cell-text")
        elif name == "cell-save" and self.edit_cell:
            self._save_cell(self.cell_text)
        elif name == "cell-reset" and self.edit_cell:
            own, other = self.edit_cell
            house = copy.deepcopy(self.rules.get("house_tables") or {})
            house.get(self.edit_tier, {}).get(own, {}).pop(other, None)
            self.rules["house_tables"] = ai.normalize_house_tables(
                {t: {r: c for r, c in rows.items() if c} for t, rows in house.items()})
            self.cell_text = ai.result_cell(self.rules, self.edit_tier, own, other).text
            self.cell_error = None
            self._save_draft()
        elif name == "cell-close" and self.edit_cell:
            own, other = self.edit_cell
            self.edit_cell, self.cell_error = None, None
            self.app.focus_to(f"cell-{own}.{other}")
        elif name == "show" and arg is not None and st is not None:
            if not self.guard.may_open(event):
                return  # the second tap of a double tap on the previous screen
            self.shown = int(arg)
            self.pick = {"maneuver": None, "stratagems": [], "rearguard": None}
            self.notice = None
            self.app.focus_to("bid")
        elif name == "hide":
            self._reset_view()
        elif name == "aim" and arg in ai.AIMS:
            self.aim = arg
        elif name == "advise" and arg in ("on", "off"):
            self.advise = arg == "on"
        elif name == "pick" and arg in ai.MANEUVERS:
            self.pick = {"maneuver": arg, "stratagems": [], "rearguard": self.pick.get("rearguard")}
        elif name == "strat" and arg:
            picked = self.pick.setdefault("stratagems", [])
            if arg in picked:
                picked.remove(arg)
            else:
                picked.append(arg)
        elif name == "declare" and st is not None and self.shown is not None and self.pick.get("maneuver"):
            self._app_bid_now()  # issue 17: the app decides before the person's bid lands
            bid = {"type": "bid", "side": self.shown, "maneuver": self.pick["maneuver"],
                   "stratagems": list(self.pick.get("stratagems", []))}
            if bid["maneuver"] == "withdraw" and self.pick.get("rearguard") is not None:
                bid["rearguard"] = self.pick["rearguard"]
            refusal = self.session.try_act(bid)
            if refusal:
                self.notice = refusal
        elif name == "reveal":
            self.session.act({"type": "reveal"})
        elif name == "counter" and arg is not None:
            self.session.act({"type": "counter_attack", "side": int(arg)})
        elif name == "roll":
            self.session.act({"type": "roll"})
        elif name == "entry-mode" and arg in ("successes", "faces"):
            self.entry_mode = arg
            self.entry["mode"] = arg
        elif name == "hits" and arg:
            s, k = (int(x) for x in arg.split("."))
            self.entry["hits"][s] = k
            self.entry["ranges"] = [None, None]  # the cells may change with the margin
        elif name == "face" and arg and st is not None and st.phase == "revealed":
            s, v = (int(x) for x in arg.split("."))
            pools, _ = self._entry_rolls(st)
            if len(self.entry["faces"][s]) < pools[s].dice:
                self.entry["faces"][s].append(v)
                self.entry["ranges"] = [None, None]
        elif name == "unface" and arg:
            s, i = (int(x) for x in arg.split("."))
            if i < len(self.entry["faces"][s]):
                del self.entry["faces"][s][i]
                self.entry["ranges"] = [None, None]
        elif name == "clear" and arg is not None:
            self.entry["faces"][int(arg)] = []
            self.entry["ranges"] = [None, None]
        elif name == "range" and arg:
            s, _, v = arg.partition(".")
            self.entry["ranges"][int(s)] = None if v == "app" else int(v)
        elif name == "record" and st is not None and st.phase == "revealed":
            self._record(st)
        elif name == "leave" and arg is not None:
            self.session.act({"type": "leave", "side": int(arg)})
        elif name == "phase" and arg is not None:
            self.session.act({"type": "phase", "index": int(arg)})
        elif name == "unit-new" and arg is not None and st is not None:
            s = int(arg)
            self.unit_form = {"side": s, "index": None, "error": None,
                              "unit": blank_unit(len(st.armies[s].units) + 1)}
            self.app.focus_to("unit-form")
        elif name == "unit-edit" and arg and st is not None:
            s, i = (int(x) for x in arg.split("."))
            self.unit_form = {"side": s, "index": i, "error": None, "unit": st.armies[s].units[i].as_json()}
            self.app.focus_to("unit-form")
        elif name == "unit-cancel":
            self.unit_form = None
        elif name == "unit-save" and self.unit_form is not None:
            form = self.unit_form
            action_ = ({"type": "join", "side": form["side"], "unit": form["unit"]} if form["index"] is None else
                       {"type": "correct", "side": form["side"], "index": form["index"], "unit": form["unit"]})
            refusal = self.session.try_act(action_)
            if refusal:
                form["error"] = refusal
        elif name == "rematch" and self.session.game is not None:
            setup = copy.deepcopy(games.thaw(self.session.game.setup))
            for flag in ("spectator", "old_rulings"):
                setup.pop(flag, None)  # a new battle is neither a copy nor an old game
            self.draft = setup
            self.rules = repair_rules(games.thaw(self.session.game.rules), [])
            self._save_draft()
            self.session.close()
        elif name == "print":
            from js import document, window  # type: ignore[import-not-found]

            panel = document.getElementById("rules-battle")
            if panel is not None:
                panel.open = True
            window.print()

    def _undo_for_person(self) -> bool:
        """Issue 17: with the app's general in the game, one tap of Undo goes back to before the
        person's last action (the app's bids after it too, or it would only bid again)."""
        game = self.session.game
        if game is None or self._levels() == (None, None) or self.spectator:
            return False
        target = ai.undo_target(game)
        if target is None:
            self.app.toast("Nothing of yours to undo yet: the app's general made every move so far.")
        else:
            self.session.goto(target)
        return True

    def _record(self, st) -> None:
        """Issue 18: the table's own dice, entered, become the roll's recorded facts."""
        pools, hits = self._entry_rolls(st)
        if None in hits:
            return
        action = {"type": "roll"}
        if self.entry["mode"] == "faces":
            action["dice"] = [list(self.entry["faces"][0]), list(self.entry["faces"][1])]
        else:
            action["successes"] = list(hits)
        spans = ai.casualty_ranges(st, st.bids, (hits[0], hits[1]))
        ranges = [self.entry["ranges"][s] if spans[s] and spans[s][0] != spans[s][1] else None for s in (0, 1)]
        if ranges != [None, None]:
            action["ranges"] = ranges
        self.session.act(action)

    def _save_cell(self, text: str) -> None:
        own, other = self.edit_cell
        house = copy.deepcopy(self.rules.get("house_tables") or {})
        house.setdefault(self.edit_tier, {}).setdefault(own, {})[other] = text
        try:
            self.rules["house_tables"] = ai.normalize_house_tables(house)
        except SettingsError as err:
            self.cell_error = str(err)
            return
        self.cell_error = None
        self._save_draft()

    def _start(self) -> None:
        self.start_game("battle", copy.deepcopy(self.draft), copy.deepcopy(self.rules), game_name, "random dice")

    def field(self, name: str, value: str, live: bool, row: str | None = None) -> bool:
        """A form control changed; returns whether the screen needs redrawing."""
        if self.session.field(name, value):
            return False
        if name == "seed":
            # A "change" that repeats what "input" already kept needs no redraw: on an iPad it
            # fires while a tapped button's handler is re-rendering the page (field still focused).
            changed = value != self.seed_text
            self.seed_text = value
            return changed
        if name == "cell-text":
            self.cell_text = value  # kept on every keystroke: a tap on "Use" reads it (Safari focus)
            return False
        if name.startswith("rules:"):
            key = name[6:]
            if key in SETTING_KEYS and value in {c for c, _ in ai.VARIANT_BY_KEY[key].choices}:
                self.rules[key] = value
                self._save_draft()
            return True
        if name.startswith("solo:") and name[5:] in ("0", "1"):
            army = self.draft["armies"][int(name[5:])]
            if value in ai.APP_LEVELS:
                army["controller"], army["level"] = "app", value
            else:
                army.pop("controller", None)
                army.pop("level", None)
            self._save_draft()
            return True
        if name == "bid:rearguard":
            self.pick["rearguard"] = int(value) if whole(value) else None
            return True
        if name.startswith("uform"):
            return self._unit_form_field(name, value)
        armies = self.draft["armies"]
        try:
            if name.startswith("trait:"):
                a, u, trait = name[6:].split(".", 2)
                traits = armies[int(a)]["units"][int(u)].setdefault("traits", [])
                if value and trait not in traits:
                    traits.append(trait)
                elif not value and trait in traits:
                    traits.remove(trait)
                self._save_draft()
                return True
            if name.startswith("general:"):
                a, key = name[8:].split(".", 1)
                army = armies[int(a)]
                if key == "level":
                    if value == "none":
                        army["general"] = None
                    else:
                        general = army.get("general") or {"name": f"General of {army.get('name') or 'the army'}",
                                                          "traits": []}
                        general["level"] = int(value) if whole(value) else 0
                        army["general"] = general
                elif key == "observer" and army.get("general") is not None:
                    army["general"]["traits"] = ["observer"] if value else []
                self._save_draft()
                return True
        except (IndexError, KeyError, ValueError, TypeError, AttributeError):
            return True  # a control of a row just removed: redraw
        if not name.startswith("setup:"):
            return False
        path = name[6:].split(".")
        target = self.draft
        try:
            for part in path[:-1]:
                target = target[int(part)] if whole(part) else target[part]
        except (IndexError, KeyError, TypeError):
            return True
        if not isinstance(target, dict):
            return True
        last = path[-1]
        new = _int(value) if last in ("attack", "defense", "mobility", "armour", "size", "vanguard",
                                      "rearguard") else value
        if target.get(last) == new:
            return False  # the "change" after "input": already kept and drawn (see seed above)
        target[last] = new
        self.setup_error = None
        self._save_draft()
        return True  # drawn at once (names too: the focused field keeps its caret), so "change" has nothing left

    def _unit_form_field(self, name: str, value: str) -> bool:
        form = self.unit_form
        if form is None:
            return False
        unit = form["unit"]
        if name.startswith("uform-trait:"):
            trait = name.split(":", 1)[1]
            traits = [t for t in unit.get("traits", []) if t != trait]
            if value:
                traits.append(trait)
            unit["traits"] = [t for t in ai.TRAITS if t in traits]
            return True
        key = name.split(":", 1)[1]
        if key == "name":
            unit["name"] = value
            return False  # the text field keeps what is typed; the save reads it
        if key in STATS:
            unit[key] = _int(value)
        form["error"] = None
        return True
