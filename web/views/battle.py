"""The Ascension Isle battle board (AI-1 … AI-18).

Two screens: the setup (build both armies — Jibril preset, vanguard, rearguard,
general — with their dice pools live; the dice setting and the house tables) and
the board (blind bids behind the pass-the-tablet curtain, the reveal, exact odds,
the roll, the result matrix with each side's cell, casualties, the log and the
campaign turn checklist). Every rule decision comes from :mod:`engine.ascension`;
this module only draws the state and turns taps into actions.
"""

from __future__ import annotations

import copy
import random

from engine import ascension as ai
from engine.ascension_tables import FALLBACK_NOTE, TIER_MARGINS, TURN_PHASES
from engine.rules import SettingsError
from web import platform
from web.dom import button, h
from web.session import Session
from web.views.tool import ToolView
from web.views.curtain import CurtainGuard, curtain
from web.views.rulebits import rule_ref, with_rule_refs

DRAFT_KEY = "ct:v1:draft:battle"
SIDE_CLASS = ("side-a", "side-b")
TRAIT_LABELS = {"infantry": "Infantry", "line": "Line", "scout": "Scout", "observer": "Observer",
                "long range": "Long range"}
#: A tap that lands this soon after the screen changed is a double tap's second half: ignored
#: on the curtain (:class:`CurtainGuard`), so a fast double tap never opens the next side's
#: secret screen.
CURTAIN_GUARD_MS = 600


def blank_unit(number: int = 1) -> dict:
    return {"name": f"Unit {number}", "attack": 2, "defense": 2, "mobility": 2, "traits": ["infantry", "line"],
            "armour": 0, "size": 0}


def blank_setup() -> dict:
    return {"armies": [
        {"name": "Army A", "units": [ai.jibril_division()], "vanguard": 0, "rearguard": 0, "general": None},
        {"name": "Army B", "units": [blank_unit()], "vanguard": 0, "rearguard": 0, "general": None},
    ]}


def game_name(game) -> str:
    first, second = (army["name"] for army in game.setup["armies"])
    return f"{first} vs {second}"


def draft_shape_ok(draft) -> bool:
    """Whether a stored draft has the shape the form edits (values may still be wrong)."""
    return (isinstance(draft, dict) and isinstance(draft.get("armies"), list) and len(draft["armies"]) == 2
            and all(isinstance(a, dict) and isinstance(a.get("units"), list) and a["units"]
                    and all(isinstance(u, dict) and isinstance(u.get("traits"), list) for u in a["units"])
                    and (a.get("general") is None or isinstance(a.get("general"), dict))
                    for a in draft["armies"]))


def pct(p) -> str:
    """A chance for the table: exact zero is "0%", a tiny one "<0.1%", else one decimal."""
    if p == 0:
        return "0%"
    value = float(p) * 100
    if value < 0.1:
        return "<0.1%"
    return f"{value:.1f}%"


def _int(text: str):
    text = text.strip()
    return int(text) if text.isdigit() else text


class BattleView(ToolView):
    route = "battle"

    def __init__(self, app) -> None:
        self.app = app
        self.session = Session(app, "battle", "Ascension Isle", on_change=self._reset_view, namer=game_name)
        self.draft: dict = blank_setup()
        self.rules: dict = {"success": "d6/4+", "house_tables": {}}
        self.seed_text = ""
        self.setup_error: str | None = None
        self.edit_tier = "drawn"
        self.edit_cell: tuple[str, str] | None = None  # (own, other) of the house cell being edited
        self.cell_text = ""
        self.cell_error: str | None = None
        self.guard = CurtainGuard(platform.now_ms, settle_ms=CURTAIN_GUARD_MS)
        self._reset_view()

    # ------------------------------------------------------------ lifecycle
    def _reset_view(self) -> None:
        """After every change of the game: the curtain is down, nothing picked."""
        self.shown: int | None = None  # the side whose secret bid screen is up
        self.pick: dict = {"maneuver": None, "stratagems": []}
        self.notice: str | None = None
        self.guard.hold()

    def boot(self) -> None:
        data = self.load_json(DRAFT_KEY)
        if isinstance(data, dict) and draft_shape_ok(data.get("setup")):
            self.draft = data["setup"]
            rules = data.get("rules")
            if isinstance(rules, dict):
                try:
                    success = rules.get("success", "d6/4+")
                    ai.success_setting({"success": success})
                    self.rules = {"success": success,
                                  "house_tables": ai.normalize_house_tables(rules.get("house_tables"))}
                except (ValueError, SettingsError):
                    pass  # a damaged draft of the settings: the defaults
        self.session.boot()

    def _save_draft(self) -> None:
        self.keep_json(DRAFT_KEY, {"setup": self.draft, "rules": self.rules})

    # ------------------------------------------------------------ rendering
    def render(self):
        state = self.session.state
        return self.frame(self.render_setup() if state is None else self.render_board(state))

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

    def _army_editor(self, a: int, army: dict, preview):
        units = army.get("units", [])
        rows = [self._unit_row(a, u, unit) for u, unit in enumerate(units)]
        general = army.get("general")
        line_choices = [(i, u.get("name") or f"Unit {i + 1}") for i, u in enumerate(units)
                        if {"line", "infantry"} & set(u.get("traits", []))]
        return h("section", {"class": ["panel side-editor army-editor", SIDE_CLASS[a]], "aria-label": f"Army {a + 1}",
                             "data-testid": f"army-{a}"},
                 h("div", {"class": "row"},
                   self._text(f"armies.{a}.name", army.get("name", ""), f"Army {a + 1} name", cls="side-name")),
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
                 h("div", {"class": "unit-list"}, rows),
                 h("div", {"class": "row"},
                   button("+ Jibril Armoured Infantry Division", "battle:add-jibril", str(a), cls="btn small"),
                   button("+ Unit", "battle:add-unit", str(a), cls="btn small")),
                 h("div", {"class": "row"},
                   h("label", {"class": "field"}, "Vanguard (a line unit, AI-1)",
                     h("select", {"data-field": f"setup:armies.{a}.vanguard", "value": str(army.get("vanguard", 0))},
                       [h("option", {"value": str(i), "selected": army.get("vanguard") == i}, name)
                        for i, name in line_choices] or
                       h("option", {"value": str(army.get("vanguard", 0))}, "— no line unit —"))),
                   h("label", {"class": "field"}, "Rearguard (for a Withdraw, AI-2)",
                     h("select", {"data-field": f"setup:armies.{a}.rearguard",
                                  "value": str(army.get("rearguard", 0))},
                       [h("option", {"value": str(i), "selected": army.get("rearguard", 0) == i},
                          u.get("name") or f"Unit {i + 1}") for i, u in enumerate(units)]))),
                 self._pool_table(preview, a) if preview is not None else None)

    def _unit_row(self, a: int, u: int, unit: dict):
        base = f"armies.{a}.units.{u}"
        name = unit.get("name") or f"Unit {u + 1}"

        def number(key, label, hi=99):
            value = unit.get(key, "")
            bad = not (isinstance(value, int) and 0 <= value <= hi)
            return h("label", {"class": "field num"}, label,
                     h("input", {"type": "number", "inputmode": "numeric", "min": "0", "max": str(hi), "step": "1",
                                 "data-field": f"setup:{base}.{key}", "value": str(value),
                                 "aria-invalid": "true" if bad else None}))

        return h("div", {"class": "unit-row", "data-key": f"u{a}.{u}"},
                 h("div", {"class": "row"},
                   self._text(f"{base}.name", unit.get("name", ""), "Unit", cls="unit-name"),
                   button("✕", "battle:remove-unit", f"{a}.{u}", cls="btn small ghost remove",
                          aria_label=f"Remove {name}", disabled=len(self.draft["armies"][a]["units"]) <= 1)),
                 h("div", {"class": "row stats"},
                   number("attack", "Attack"), number("defense", "Defense"), number("mobility", "Mobility"),
                   number("armour", "Armour"), number("size", "Size")),
                 h("div", {"class": "row traits", "role": "group", "aria-label": f"Traits of {name}"},
                   [h("label", {"class": "check"},
                      h("input", {"type": "checkbox", "data-field": f"trait:{a}.{u}.{trait}",
                                  "checked": trait in unit.get("traits", [])}), label)
                    for trait, label in TRAIT_LABELS.items()]))

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

    def _settings_panel(self):
        variant = ai.VARIANTS[0]
        house = self.rules.get("house_tables") or {}
        edited = sum(len(cols) for rows in house.values() for cols in rows.values())
        return h("section", {"class": "panel options", "aria-label": "Rules settings"},
                 h("h2", {}, "Rules settings"),
                 h("div", {"class": "variant"},
                   h("label", {"class": "field"},
                     h("span", {}, h("span", {"class": "rule-id"}, "AI-6"), " ", variant.label, " ",
                       h("span", {"class": "badge variant"}, "Variant")),
                     h("select", {"data-field": "rules:success", "value": self.rules.get("success")},
                       [h("option", {"value": value, "selected": self.rules.get("success") == value}, text)
                        for value, text in variant.choices])),
                   h("p", {"class": "muted small"}, variant.explanation)),
                 h("h3", {}, "House result tables (", rule_ref("AI-11", "battle"), ")"),
                 h("p", {"class": "muted small"}, "Tap a cell to change it for your group. The engine reads "
                   "“Withdraw succeeds”, “Withdraw fails” and “inflict N” or “inflict N-M casualties” from "
                   "the words. ", f"{edited} cell{'s' if edited != 1 else ''} edited."),
                 h("div", {"class": "row", "role": "radiogroup", "aria-label": "Table to edit"},
                   [button(ai.TIER_NAMES[t], "battle:edit-tier", t, cls=["btn small", t == self.edit_tier and "on"],
                           role="radio", aria_checked="true" if t == self.edit_tier else "false")
                    for t in ai.TIERS]),
                 self._cell_editor(),
                 self.matrix(self.rules, self.edit_tier, editable=True))

    def _cell_editor(self):
        if self.edit_cell is None:
            return None
        own, other = self.edit_cell
        cell = ai.result_cell(self.rules, self.edit_tier, own, other)
        return h("div", {"class": "cell-editor", "data-testid": "cell-editor"},
                 h("label", {"class": "field"},
                   f"{ai.TIER_NAMES[self.edit_tier]}: {ai.MANEUVER_NAMES[own]} against {ai.MANEUVER_NAMES[other]}",
                   h("input", {"type": "text", "data-field": "cell-text", "value": self.cell_text,
                               "maxlength": str(ai.CELL_MAX), "autocomplete": "off",
                               "aria-invalid": "true" if self.cell_error else None})),
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
                                     aria_label=f"Edit {ai.MANEUVER_NAMES[own]} against {ai.MANEUVER_NAMES[other]}: "
                                                f"{cell.text}")
                cells.append(h("td", {"class": ["cell", kind, cell.origin != "source" and cell.origin, *hl],
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
        return h("div", {"class": ["table battle-board", f"phase-{st.phase}"], "data-testid": "board",
                         "data-phase": st.phase, "data-week": str(st.week)},
                 h("p", {"class": "status", "role": "status", "data-testid": "status"},
                   with_rule_refs(ai.status(st), "battle")),
                 self._action_area(st),
                 self._last_week(st),
                 h("div", {"class": "board armies"}, self._army_panel(st, 0), self._army_panel(st, 1)),
                 self._checklist(st),
                 self._log(st),
                 self._rules_in_play(st))

    def _army_panel(self, st, s: int):
        army = st.armies[s]
        items = []
        for i, unit in enumerate(army.units):
            dead = st.destroyed[s][i]
            tags = []
            if i == st.vanguards[s] and not dead:
                tags.append(h("span", {"class": "badge variant"}, "vanguard"))
            if i == st.rearguards[s] and not dead:
                tags.append(h("span", {"class": "badge"}, "rearguard"))
            damage = f" · {st.damage[s][i]}/{unit.size} size damage" if unit.size and st.damage[s][i] else ""
            items.append(h("li", {"class": ["unit", dead and "destroyed"], "data-key": f"unit{s}.{i}",
                                  "data-destroyed": "true" if dead else None},
                           h("span", {"class": "unit-name"}, unit.name), " ", tags,
                           h("span", {"class": "muted small unit-stats"},
                             f" {unit.attack}/{unit.defense}/{unit.mobility} · {unit.toughness()}{damage}",
                             " · destroyed" if dead else "")))
        general = army.general
        return h("section", {"class": ["panel side army", SIDE_CLASS[s]], "aria-label": army.name,
                             "data-testid": f"army-{s}"},
                 h("h2", {"class": "side-title"}, army.name),
                 h("p", {"class": "muted small"},
                   f"{general.name} (general, level {general.level}" + (", skilled, AI-9)" if general.skilled else ")")
                   if general else "No general",
                   f" · {len(st.alive(s))} of {len(army.units)} units standing · attack/defense/mobility"),
                 h("ul", {"class": "unit-status", "tabindex": "0", "aria-label": f"Units of {army.name}"}, items))

    def _next_bidder(self, st):
        for s in (0, 1):
            if st.bids[s] is None:
                return s
        return None

    def _action_area(self, st):
        if st.phase == "over":
            return h("section", {"class": "panel result over", "role": "status", "data-testid": "over"},
                     h("h2", {}, "The battle is over"),
                     h("p", {"data-testid": "outcome"}, with_rule_refs(st.outcome, "battle")),
                     h("div", {"class": "row"},
                       button("New battle with these armies", "battle:rematch", cls="btn primary"),
                       button("Set up a new battle", "session:new", cls="btn")))
        if st.phase == "revealed":
            return self._revealed(st)
        side = self._next_bidder(st)
        if side is None:
            return h("section", {"class": "panel reveal", "data-testid": "reveal-panel"},
                     h("p", {"class": "curtain-text"}, "Both armies have declared. Put the tablet where everyone "
                                                       "can see it."),
                     button("Reveal both bids", "battle:reveal", cls="btn primary big"))
        declared = [h("li", {}, f"{st.armies[s].name} has declared in secret ✓") for s in (0, 1)
                    if st.bids[s] is not None]
        leave = [button(f"{st.armies[s].name} leaves the battle (AI-15)", "battle:leave", str(s), cls="btn small")
                 for s in (0, 1) if ai.can_leave(st, s)]
        if self.shown != side:
            return h("div", {"class": "bid-stage"},
                     h("ul", {"class": "declared"}, declared) if declared else None,
                     curtain(st.armies[side].name, "to declare its maneuver in secret", "battle:show", str(side),
                             cls=SIDE_CLASS[side],
                             note="The app is the invigilator (AI-7): no one else sees the choice until both "
                                  "are revealed together.",
                             label=f"I am {st.armies[side].name}: choose my maneuver"),
                     h("div", {"class": "row"}, leave) if leave else None)
        return self._bid_form(st, side)

    def _bid_form(self, st, s: int):
        chosen = self.pick.get("maneuver")
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
                aria_checked="true" if chosen == m else "false"))
        strat_rows = None
        if chosen:
            offered = ai.offered_stratagems(st, s, chosen)
            picked = self.pick.get("stratagems", [])
            strat_rows = h("div", {"class": "stratagems", "role": "group", "aria-label": "Stratagems"},
                           h("p", {"class": "muted small"}, "Stratagems your army qualifies for (",
                             rule_ref("AI-16", "battle"), ")" + (":" if offered else ": none for this maneuver.")),
                           [button([h("strong", {}, strat.name), " — ",
                                    strat.effect or f"{ai.NO_EFFECT} (AI-17)"],
                                   "battle:strat", strat.key, cls=["btn strat", strat.key in picked and "on"],
                                   aria_pressed="true" if strat.key in picked else "false")
                            for strat in offered])
            pool = ai.dice_pool(st, s, chosen, picked)
            strat_rows = [strat_rows, h("p", {"class": "pool-line", "data-testid": "bid-pool"},
                                        f"{ai.MANEUVER_NAMES[chosen]}: {pool.explain()}")]
        return h("section", {"class": ["panel bid", SIDE_CLASS[s]], "data-testid": "bid-form",
                             "aria-label": f"{st.armies[s].name} declares"},
                 h("h2", {}, f"{st.armies[s].name}: your maneuver for week {st.week}"),
                 h("p", {"class": "msg-error", "role": "alert"}, with_rule_refs(self.notice, "battle"))
                 if self.notice else None,
                 h("div", {"class": "maneuvers", "role": "radiogroup", "aria-label": "Maneuver"}, options),
                 strat_rows,
                 h("div", {"class": "row sticky-controls"},
                   button("Declare in secret", "battle:declare", str(s), cls="btn primary big", disabled=not chosen),
                   button("Hide", "battle:hide", cls="btn ghost")))

    def _revealed(self, st):
        pools = [ai.dice_pool(st, s, st.bids[s].maneuver, st.bids[s].stratagems, st.switched[s]) for s in (0, 1)]
        odds = ai.week_odds(st)
        die, target = ai.success_setting(st.settings)
        sides = []
        for s in (0, 1):
            bid = st.bids[s]
            shown = "Attack (Counter Attack)" if st.switched[s] else ai.MANEUVER_NAMES[bid.maneuver]
            strats = [ai.STRATAGEM_BY_KEY[k].name for k in bid.stratagems]
            sides.append(h("div", {"class": ["revealed-bid", SIDE_CLASS[s]], "data-testid": f"revealed-{s}"},
                           h("h3", {}, st.armies[s].name),
                           h("p", {"class": "bid-maneuver"}, shown,
                             h("span", {"class": "muted"}, " with " + ", ".join(strats)) if strats else None),
                           h("p", {"class": "muted small", "data-testid": f"pool-now-{s}"}, pools[s].explain()),
                           [h("p", {"class": "muted small"}, with_rule_refs(n, "battle")) for n in pools[s].notes],
                           button("Counter Attack: switch to Attack", "battle:counter", str(s), cls="btn small")
                           if ai.can_counter_attack(st, s) else None))
        return h("section", {"class": "panel revealed", "data-testid": "revealed"},
                 h("div", {"class": "revealed-body"},
                   h("div", {"class": "revealed-grid"}, sides),
                   self._odds(st, odds)),
                 h("div", {"class": "row sticky-controls"},
                   h("p", {"class": "muted small"}, f"Each die is a d{die}; {target} or more is a success (",
                     rule_ref("AI-6", "battle"), ")."),
                   button("Roll the dice", "battle:roll", cls="btn primary big")))

    def _odds(self, st, odds):
        """AI-8: the exact chance of every tier for each side."""
        rows = []
        names = [a.name for a in st.armies]
        for s in (0, 1):
            for tier, p in odds["sides"][s].items():
                rows.append(h("tr", {"class": SIDE_CLASS[s], "data-odds": f"{s}.{tier}"},
                              h("th", {"scope": "row"}, f"{names[s]}: {ai.TIER_NAMES[tier].lower()}"),
                              h("td", {"class": "pct"}, pct(p)),
                              h("td", {"class": "bar-cell", "aria-hidden": "true"},
                                h("meter", {"min": "0", "max": "1", "value": f"{float(p):.4f}"}))))
            if s == 0:
                rows.append(h("tr", {"data-odds": "drawn"}, h("th", {"scope": "row"}, "Drawn combat"),
                              h("td", {"class": "pct"}, pct(odds["drawn"])),
                              h("td", {"class": "bar-cell", "aria-hidden": "true"},
                                h("meter", {"min": "0", "max": "1", "value": f"{float(odds['drawn']):.4f}"}))))
        return h("table", {"class": "data-table odds", "data-testid": "odds"},
                 h("caption", {}, "Exact odds before the roll (", rule_ref("AI-8", "battle"), ")"),
                 h("tbody", {}, rows))

    def _last_week(self, st):
        if not st.weeks:
            return None
        w = st.weeks[-1]
        names = [a.name for a in st.armies]
        die, target = ai.success_setting(st.settings)
        sides = []
        for s in (0, 1):
            cell = w.cells[s]
            dice = [h("span", {"class": ["die", v >= target and "hit"],
                               "aria-label": f"{v}{' success' if v >= target else ''}"}, str(v)) for v in w.dice[s]]
            rng = w.ranges[s]
            sides.append(h("div", {"class": ["week-side", SIDE_CLASS[s]], "data-testid": f"week-side-{s}"},
                           h("h3", {}, names[s], " — ", ai.MANEUVER_NAMES[w.maneuvers[s]]),
                           h("div", {"class": "dice", "aria-label": f"Dice of {names[s]}"}, dice or
                             h("span", {"class": "muted"}, "no dice")),
                           h("p", {"class": "successes", "data-testid": f"successes-{s}"},
                             f"{w.successes[s]} success{'es' if w.successes[s] != 1 else ''}"),
                           h("p", {"class": "cell-read", "data-testid": f"cell-{s}"}, "Reads: “", cell.text, "”",
                             h("span", {"class": "muted"}, f" (as {ai.MANEUVER_NAMES[w.read_as[s]]})")
                             if w.read_as[s] != w.maneuvers[s] else None),
                           h("p", {"class": "muted small"}, with_rule_refs(cell.note, "battle")) if cell.note else None,
                           h("p", {"class": "small", "data-testid": f"inflicts-{s}"},
                             f"Inflicts {rng[0]}–{rng[1]}: rolled {w.rolled[s]} (AI-12)" if rng and rng[0] != rng[1]
                             else f"Inflicts {w.rolled[s]}" if rng else "Inflicts nothing"),
                           h("p", {"class": "small", "data-testid": f"takes-{s}"},
                             f"Takes {w.taken[s]} casualt{'y' if w.taken[s] == 1 else 'ies'}",
                             f" ({w.mitigated[s]} mitigated, AI-15)" if w.mitigated[s] and w.rolled[1 - s] else "",
                             "; destroyed: " + ", ".join(w.lost[s]) if w.lost[s] else "")))
        highlight = ((0, w.read_as[0], w.maneuvers[1]), (1, w.read_as[1], w.maneuvers[0]))
        return h("section", {"class": "panel week-result", "data-testid": "week-result", "data-tier": w.tier,
                             "data-margin": str(w.margin), "data-winner": "" if w.winner is None else str(w.winner)},
                 h("h2", {"data-testid": "headline"}, w.headline),
                 h("p", {"class": "tier-line"}, h("strong", {}, ai.TIER_NAMES[w.tier]), f" — margin {w.margin} (",
                   rule_ref("AI-8", "battle"), ")"),
                 h("div", {"class": "revealed-grid"}, sides),
                 [h("p", {"class": "muted small note"}, with_rule_refs(n, "battle")) for n in w.notes
                  if not n.startswith("AI-11")],  # said beside each side's cell
                 h("p", {"class": "muted small"}, with_rule_refs("Casualties land on the line unit first (HR-AI-2); a "
                                                                 "unit without armour or size falls to one (HR-AI-1).",
                                                                 "battle")) if any(w.taken) else None,
                 self.matrix(st.settings, w.tier, highlight=highlight))

    def _checklist(self, st):
        done = set(st.phases_done)
        return h("section", {"class": "panel checklist", "aria-label": "Campaign turn"},
                 h("h2", {}, "Campaign turn (", rule_ref("AI-18", "battle"), ")"),
                 h("ol", {"class": "phase-list"},
                   [h("li", {"data-key": f"ph{i}"},
                      button([h("span", {"class": "tick", "aria-hidden": "true"}, "✓" if i in done else ""), label],
                             "battle:phase", str(i), cls=["btn phase", i in done and "done"],
                             aria_pressed="true" if i in done else "false"))
                    for i, label in enumerate(TURN_PHASES)]))

    def _log(self, st):
        if not st.weeks:
            return None
        items = []
        for w in reversed(st.weeks):
            names = [a.name for a in st.armies]
            bids = "; ".join(f"{names[s]} {ai.MANEUVER_NAMES[w.maneuvers[s]]}"
                             + (f" ({', '.join(ai.STRATAGEM_BY_KEY[k].name for k in w.stratagems[s])})"
                                if w.stratagems[s] else "") for s in (0, 1))
            lost = "; ".join(f"{names[s]} lost {', '.join(w.lost[s])}" for s in (0, 1) if w.lost[s])
            items.append(h("li", {"data-key": f"w{w.week}"},
                           h("strong", {}, w.headline), h("br", {}), bids,
                           f" · dice {w.pools[0].dice} v {w.pools[1].dice}; casualties {w.taken[0]} / {w.taken[1]}",
                           h("br", {}) if lost else None, lost, h("br", {}) if w.ended else None,
                           with_rule_refs(w.ended, "battle") if w.ended else None))
        return h("section", {"class": "panel log", "aria-label": "Battle log"},
                 h("h2", {}, "Battle log"), h("ol", {"class": "log-list", "reversed": True}, items))

    def _rules_in_play(self, st):
        settings = st.settings
        house = settings.get("house_tables") or {}
        edited = sum(len(cols) for rows in house.values() for cols in rows.values())
        return h("details", {"class": "panel rules-in-play"},
                 h("summary", {}, "Rules in play"),
                 h("ul", {},
                   h("li", {}, h("span", {"class": "rule-id"}, "AI-6"), " ", h("span", {"class": "badge variant"},
                                                                                 "Variant"), " ",
                     ai.VARIANTS[0].describe(settings["success"])),
                   h("li", {}, rule_ref("AI-11", "battle"), " ",
                     f"{edited} house table cell{'s' if edited != 1 else ''}" if edited else
                     "No house tables: Major, Crushing and Legendary read the Minor victory table."),
                   [h("li", {}, rule_ref(rid, "battle"), " ", h("span", {"class": "badge house"}, "House rule"), " ",
                      text) for rid, text in ai.HOUSE_RULES.items()],
                   h("li", {}, h("span", {"class": "badge ruling"}, "Rulings"), " ",
                     [[rule_ref(rid, "battle"), " "] for rid in ai.RULINGS]),
                   h("li", {}, button("Print the result matrices", "battle:print", cls="btn small"))))

    # ------------------------------------------------------------ events
    def handle(self, action: str, arg, el, event) -> None:
        if self.session.handle(action, arg, el):
            return
        st = self.session.state
        name = action.split(":", 1)[1] if ":" in action else action
        armies = self.draft["armies"]
        if name == "example":
            self.draft = ai.example_setup()
            self.setup_error = None
            self._save_draft()
        elif name == "add-jibril" and arg is not None:
            a = int(arg)
            number = sum(1 for u in armies[a]["units"] if u.get("name", "").startswith("Jibril")) + 1
            armies[a]["units"].append(ai.jibril_division(f"Jibril Armoured Infantry Division {number}"))
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
        elif name == "cell-close":
            self.edit_cell, self.cell_error = None, None
        elif name == "show" and arg is not None and st is not None:
            if not self.guard.may_open(event):
                return  # the second tap of a double tap on the previous screen
            self.shown = int(arg)
            self.pick = {"maneuver": None, "stratagems": []}
            self.notice = None
        elif name == "hide":
            self._reset_view()
        elif name == "pick" and arg in ai.MANEUVERS:
            self.pick = {"maneuver": arg, "stratagems": []}
        elif name == "strat" and arg:
            picked = self.pick.setdefault("stratagems", [])
            if arg in picked:
                picked.remove(arg)
            else:
                picked.append(arg)
        elif name == "declare" and st is not None and self.shown is not None and self.pick.get("maneuver"):
            refusal = self.session.try_act({"type": "bid", "side": self.shown, "maneuver": self.pick["maneuver"],
                                            "stratagems": list(self.pick.get("stratagems", []))})
            if refusal:
                self.notice = refusal
        elif name == "reveal":
            self.session.act({"type": "reveal"})
        elif name == "counter" and arg is not None:
            self.session.act({"type": "counter_attack", "side": int(arg)})
        elif name == "roll":
            self.session.act({"type": "roll"})
        elif name == "leave" and arg is not None:
            self.session.act({"type": "leave", "side": int(arg)})
        elif name == "phase" and arg is not None:
            self.session.act({"type": "phase", "index": int(arg)})
        elif name == "rematch" and self.session.game is not None:
            self.draft = copy.deepcopy(dict(self.session.game.setup))
            self.rules = copy.deepcopy(dict(self.session.game.rules))
            self._save_draft()
            self.session.close()
        elif name == "print":
            from js import document, window  # type: ignore[import-not-found]

            panel = document.getElementById("rules-battle")
            if panel is not None:
                panel.open = True
            window.print()

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
        if name == "rules:success":
            if value in {c for c, _ in ai.VARIANTS[0].choices}:
                self.rules["success"] = value
                self._save_draft()
            return True
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
                        general["level"] = int(value) if value.isdigit() else 0
                        army["general"] = general
                elif key == "observer" and army.get("general") is not None:
                    army["general"]["traits"] = ["observer"] if value else []
                self._save_draft()
                return True
        except (IndexError, KeyError, ValueError, TypeError):
            return True  # a control of a row just removed: redraw
        if not name.startswith("setup:"):
            return False
        path = name[6:].split(".")
        target = self.draft
        try:
            for part in path[:-1]:
                target = target[int(part)] if part.isdigit() else target[part]
        except (IndexError, KeyError, TypeError):
            return True
        last = path[-1]
        new = _int(value) if last in ("attack", "defense", "mobility", "armour", "size", "vanguard",
                                      "rearguard") else value
        try:
            if target[last] == new:
                return False  # the "change" after "input": already kept and drawn (see seed above)
        except (KeyError, IndexError, TypeError):
            pass
        target[last] = new
        self.setup_error = None
        self._save_draft()
        return True  # drawn at once (names too: the focused field keeps its caret), so "change" has nothing left
