"""The CONSIM initiative tracker (CS-1 … CS-13), route ``#/initiative``.

Two screens: the roster (fast entry, duplicates, templates and saved sides) and the
tracker (advantages and surprise, the deal, the acting order with the current actor,
shooting with exact odds, statuses, countdowns, the round log, the players' view).
Every rule decision comes from :mod:`engine.consim`; this module only draws the
state and turns taps into actions.
"""

from __future__ import annotations

import copy
import re

from engine import consim as cs
from web.dom import button, h
from web.session import Session
from web.views.tool import ToolView
from web.views.cards import card_view
from web.views.rulebits import rule_ref, with_rule_refs

ROUTE = "initiative"
DRAFT_KEY = "ct:v1:draft:initiative"
TEMPLATES_KEY = "ct:v1:initiative:templates"
SIDES_KEY = "ct:v1:initiative:sides"
SIDE_CLASS = ("side-a", "side-b", "side-c", "side-d", "side-e", "side-f", "side-g", "side-h")
MAX_COUNT = 40
#: Taps that move the round on; a second one within this many ms is the same finger's double tap.
STEPS = ("deal", "next", "end-round")
DOUBLE_TAP_MS = 400
WOUND_LABEL = {cs.WoundStatus.STUN: "STUN", cs.WoundStatus.INJURE: "INJURE", cs.WoundStatus.DYING: "DYING",
               cs.WoundStatus.DEAD: "DEAD"}
COVER_LABEL = {cs.Cover.NONE: "Open", cs.Cover.COVER: "Cover", cs.Cover.GOOD: "Good cover"}
_NUMBERED = re.compile(r"^(.*\S)\s+(\d+)$")


def blank_form() -> dict:
    return {"name": "", "side": 0, "grain": "individual", "training": "trained", "weapon": [],
            "player": False, "count": "1"}


def blank_draft() -> dict:
    return {"sides": ["Players", "Opposition"], "combatants": [], "privacy": True}


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


def draft_ok(draft) -> bool:
    return (isinstance(draft, dict) and isinstance(draft.get("sides"), list) and len(draft["sides"]) >= 2
            and all(isinstance(s, str) for s in draft["sides"]) and isinstance(draft.get("combatants"), list)
            and all(isinstance(c, dict) for c in draft["combatants"]))


def card_tag(card, *extra, label: str | None = None) -> object:
    """A compact card for lists (rank and suit, suit-coloured), named for screen readers."""
    return h("span", {"class": ["ctag", "red" if card.suit.is_red else "black", *extra], "role": "img",
                      "aria-label": label or card.name, "data-card": card.token}, card.label)


def pips(count: int) -> object:
    """CS-3/CS-7: suppression as pips (two pips cost a card)."""
    shown = min(count, 10)
    return h("span", {"class": "pips", "role": "img", "aria-label": f"suppression {count}"},
             [h("span", {"class": ["pip", i % 2 and "pair"]}) for i in range(shown)],
             h("span", {"class": "pip-more"}, f"+{count - shown}") if count > shown else None)


class ConsimView(ToolView):
    route = ROUTE

    def __init__(self, app) -> None:
        self.app = app
        self.session = Session(app, ROUTE, "CONSIM initiative", on_change=self._reset_view, namer=game_name)
        self.draft: dict = blank_draft()
        self.rules: dict = {v.key: v.default for v in cs.VARIANTS}
        self.form: dict = blank_form()
        self.editing: int | None = None
        self.seed_text = ""
        self.setup_error: str | None = None
        self.templates: list[dict] = []
        self.saved_sides: list[dict] = []
        self.advantages: dict[int, set[str]] = {}
        self.surprised: set[int] = set()
        self.per_combatant = False
        self.players_view = False
        self.confirm_leave = False
        self.shot: dict | None = None
        self.long_pick: set[str] | None = None
        self.notice: str | None = None
        self._last_step = -10_000  # when the order last moved (a double tap must not move it twice)

    # ------------------------------------------------------------ lifecycle
    def boot(self) -> None:
        storage = self.app.store.storage
        data = self.load_json(DRAFT_KEY)
        if isinstance(data, dict) and draft_ok(data.get("draft")):
            self.draft = data["draft"]
            if isinstance(data.get("rules"), dict):
                self.rules.update({k: v for k, v in data["rules"].items() if k in self.rules and isinstance(v, bool)})
        templates = self.load_json(TEMPLATES_KEY)
        if isinstance(templates, list):
            self.templates = [t for t in templates if isinstance(t, dict) and isinstance(t.get("name"), str)]
        sides = self.load_json(SIDES_KEY)
        if isinstance(sides, list):
            self.saved_sides = [s for s in sides if isinstance(s, dict) and isinstance(s.get("name"), str)
                                and isinstance(s.get("combatants"), list)]
        del storage
        self.session.boot()

    def _keep(self, key: str, value) -> None:
        self.keep_json(key, value, full="Storage is full: the roster form is not kept between visits.")

    def _save_draft(self) -> None:
        self._keep(DRAFT_KEY, {"draft": self.draft, "rules": self.rules})

    def _reset_view(self) -> None:
        self.shot = None
        self.long_pick = None
        self.notice = None
        self.confirm_leave = False

    # ------------------------------------------------------------ rendering
    def render(self):
        state = self.session.state
        if state is not None and self.players_view and not state.facts:
            # The players' view is turned towards the table: no undo, history, saves or links there.
            return [h("div", {"data-key": "players-bar", "class": "session-bar"},
                      h("span", {"class": "session-name"}, self.session.name or "Players' view")),
                    h("div", {"data-key": "banner", "class": "frame-slot"}),
                    h("div", {"data-key": "drawer", "class": "frame-slot"}),
                    h("div", {"data-key": "tracker", "class": "frame-slot"}, self.render_tracker(state))]
        return self.frame(self.render_roster() if state is None else self.render_tracker(state),
                          body_key="roster" if state is None else "tracker")

    # ---------------- roster
    def render_roster(self):
        d = self.draft
        problem = None
        try:
            cs.normalize_setup(self._setup())
        except (ValueError, TypeError) as err:
            problem = str(err)
        return h("div", {"class": "ini-roster", "data-testid": "roster"},
                 h("section", {"class": "panel", "aria-label": "Sides"},
                   h("h2", {}, "Sides"),
                   h("div", {"class": "row"},
                     [h("div", {"class": ["ini-side-name", SIDE_CLASS[i]], "data-key": f"s{i}"},
                        self._input(f"init:side.{i}", name, f"Side {i + 1} name"),
                        button("✕", "init:remove-side", i, cls="btn small ghost", aria_label=f"Remove side {name}")
                        if len(d["sides"]) > 2 and not any(c.get("side") == i for c in d["combatants"]) else None)
                      for i, name in enumerate(d["sides"])],
                     button("+ Side", "init:add-side", cls="btn small", disabled=len(d["sides"]) >= 8))),
                 self._form_panel(),
                 self._roster_list(),
                 self._saved_panel(),
                 self._start_panel(problem))

    def _input(self, field: str, value: str, label: str, *, placeholder: str = "", hidden_label: bool = False,
               max_len: int = 40, testid: str | None = None):
        return h("label", {"class": "field"},
                 h("span", {"class": "visually-hidden"} if hidden_label else {}, label),
                 h("input", {"type": "text", "data-field": field, "value": value, "maxlength": str(max_len),
                             "placeholder": placeholder or None, "autocomplete": "off", "data-testid": testid}))

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
                   self._input("init:form.name", f["name"], "Name", placeholder="Rifleman", testid="form-name"),
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
        if text.isdigit() and 1 <= int(text) <= MAX_COUNT:
            return int(text)
        return None

    def _summary(self, c: dict) -> str:
        bits = [c.get("grain", "individual"), c.get("training", "untrained")]
        bits += [cs.Trait(t).label.lower() for t in c.get("weapon", []) if t in {x.value for x in cs.Trait}]
        return ", ".join(bits)

    def _roster_list(self):
        d = self.draft
        groups = []
        for s, side in enumerate(d["sides"]):
            rows = []
            for i, c in enumerate(d["combatants"]):
                if c.get("side") != s:
                    continue
                rows.append(h("li", {"class": ["ini-row", self.editing == i and "editing"], "data-key": f"c{i}"},
                              h("div", {"class": "ini-row-main"},
                                h("strong", {}, c.get("name", "")),
                                h("span", {"class": "badge"}, "PC") if c.get("player") else None,
                                h("span", {"class": "muted small"}, self._summary(c))),
                              h("div", {"class": "row ini-row-buttons"},
                                button("↑", "init:up", i, cls="btn small ghost", aria_label=f"Move {c.get('name')} up",
                                       disabled=i == 0),
                                button("↓", "init:down", i, cls="btn small ghost",
                                       aria_label=f"Move {c.get('name')} down", disabled=i == len(d["combatants"]) - 1),
                                button("Edit", "init:edit", i, cls="btn small", aria_label=f"Edit {c.get('name')}"),
                                button("Duplicate", "init:dup", i, cls="btn small",
                                       aria_label=f"Duplicate {c.get('name')}"),
                                button("✕", "init:remove", i, cls="btn small ghost danger",
                                       aria_label=f"Remove {c.get('name')}"))))
            count = len(rows)
            groups.append(h("section", {"class": ["panel ini-side", SIDE_CLASS[s]], "data-key": f"g{s}",
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
                      h("span", {}, h("strong", {}, s["name"]), f" — {len(s['combatants'])} combatants"),
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


    # ---------------- tracker
    def _public_only(self, st) -> bool:
        return self.players_view or st.facts

    def render_tracker(self, st):
        public = self._public_only(st)
        if public:
            main = self._players_view(st)
        elif st.phase == "ready":
            main = self._round_setup(st)
        else:
            main = self._round_view(st)
        return h("div", {"class": ["ini-tracker", public and "players"], "data-testid": "tracker",
                         "data-phase": st.phase, "data-round": st.round},
                 h("div", {"class": "ini-head"},
                   h("p", {"class": "status", "role": "status", "data-testid": "status"},
                     with_rule_refs(cs.status(st) if not public else self._public_status(st), ROUTE)),
                   None if public else button("Players' view", "init:players", cls="btn small",
                                              data_testid="players-view-button")),
                 h("p", {"class": "msg-error refusal", "role": "alert", "data-testid": "refusal"},
                   with_rule_refs(self.notice, ROUTE)) if self.notice else None,
                 main,
                 self._log(st, public),
                 None if public else self._rules_in_play(st))

    def _public_status(self, st) -> str:
        if st.phase != "round":
            return cs.status(st)
        cur = cs.current_turn(st)
        if cur is None:
            return f"Round {st.round}: everyone has acted."
        turn = st.turns[cur]
        if cs.is_hidden(st, turn.combatant):
            return f"Round {st.round}: the Observer's combatants act."
        return cs.status(st)

    def _chips(self, st, i: int):
        """Status chips, suppression pips, countdown badges and next round's card losses."""
        s = st.statuses[i]
        c = st.combatants[i]
        chips = []
        if s.condition is not cs.Condition.OK:
            chips.append(h("span", {"class": ["chip", f"cond-{s.condition.value}"], "data-testid": f"cond-{i}"},
                           s.condition.label))
        if s.countdown is not None and s.condition is cs.Condition.INJURED:
            chips.append(h("span", {"class": "chip count ok" if s.treated else "chip count"},
                           "treated" if s.treated else f"dying in {cs._plural(s.countdown, 'round')}"))
        if s.countdown is not None and s.condition is cs.Condition.DYING:
            chips.append(h("span", {"class": "chip count ok" if s.first_aid else "chip count urgent"},
                           "first aid given" if s.first_aid else f"dies in {cs._plural(s.countdown, 'round')}"))
        if s.suppression:
            chips.append(pips(s.suppression))
        if s.condition is not cs.Condition.DEAD:
            due, drop, _ = cs.cards_due(0, s.suppression, s.condition, no_cards=s.no_cards_next, player=c.player,
                                        pulp=bool(st.settings.get("pulp")))
            if s.no_cards_next:
                chips.append(h("span", {"class": "chip loss"}, "no cards next round"))
            elif s.condition is cs.Condition.INJURED or drop:
                lost = (1 if s.condition is cs.Condition.INJURED and due == 0 else 0) + drop
                if s.condition is cs.Condition.INJURED:
                    lost = 1 + drop
                chips.append(h("span", {"class": "chip loss"}, f"−{lost} card{'s' if lost != 1 else ''} next round"))
        return chips

    def _now_panel(self, st):
        cur = cs.current_turn(st)
        if cur is None:
            return h("section", {"class": "panel ini-now", "data-testid": "now"},
                     h("h2", {}, f"Round {st.round}: everyone has acted"),
                     h("p", {"class": "muted"}, "Ending the round sheds suppression of anyone not fired on (",
                       rule_ref("CS-12", ROUTE), ") and counts down wounds (", rule_ref("CS-13", ROUTE), ")."),
                     h("div", {"class": "row"},
                       button(f"End round {st.round}", "init:end-round", cls="btn primary big")))
        turn = st.turns[cur]
        i = turn.combatant
        c = st.combatants[i]
        mine = [t for t in st.turns if t.combatant == i and not t.done]
        long = None
        if self.long_pick is not None:
            long = h("div", {"class": "ini-long", "role": "group", "aria-label": "Cards for a long action"},
                     h("p", {"class": "muted small"}, "Tap the cards to spend; the action happens at the lowest (",
                       rule_ref("CS-5", ROUTE), ")."),
                     h("div", {"class": "row"},
                       [button(t.card.label, "init:long-pick", t.card.token,
                               cls=["btn small", t.card.token in self.long_pick and "on"],
                               aria_pressed="true" if t.card.token in self.long_pick else "false",
                               aria_label=f"Spend the {t.card.name}") for t in mine],
                       button("Spend these cards", "init:long-ok", cls="btn small primary",
                              disabled=len(self.long_pick) < 2),
                       button("Cancel", "init:long-cancel", cls="btn small ghost")))
        return h("section", {"class": ["panel ini-now", SIDE_CLASS[c.side]], "data-testid": "now",
                             "aria-label": "Acting now"},
                 h("div", {"class": "ini-now-head"},
                   card_view(turn.card, "big", label=f"Acting on the {turn.card.name}"),
                   h("div", {"class": "ini-now-who"},
                     h("p", {"class": "muted small"}, f"Acting now · {st.sides[c.side]}"),
                     h("h2", {"data-testid": "current-actor"}, c.name),
                     h("p", {"class": "small"}, "Long action, also spends ",
                       ", ".join(x.label for x in turn.spent), " (", rule_ref("CS-5", ROUTE), ")")
                     if turn.spent else None,
                     h("div", {"class": "chips"}, self._chips(st, i)))),
                 h("div", {"class": "row ini-main-actions"},
                   button("Next ▸", "init:next", cls="btn primary big", aria_keyshortcuts="N"),
                   button("Shoot…", "init:shoot-open", cls=["btn big", self.shot is not None and "on"],
                          aria_expanded="true" if self.shot is not None else "false"),
                   button("Long action…", "init:long-open", cls="btn", disabled=len(mine) < 2)),
                 long)

    def _order(self, st, public: bool = False):
        cur = cs.current_turn(st)
        done = [t for t in st.turns if t.done]
        items = []
        for n, t in enumerate(st.turns):
            if t.done:
                continue
            if public and cs.is_hidden(st, t.combatant):
                continue
            c = st.combatants[t.combatant]
            out = not cs.can_act(st, t.combatant)
            items.append(h("li", {"class": ["ini-entry", SIDE_CLASS[c.side], n == cur and "current", out and "out"],
                                  "data-key": f"t{t.card.token}", "aria-current": "true" if n == cur else None,
                                  "data-testid": "order-entry"},
                           card_tag(t.card),
                           h("span", {"class": "ini-entry-name"}, c.name),
                           h("span", {"class": "muted small"}, "+ " + ", ".join(x.label for x in t.spent))
                           if t.spent else None,
                           h("span", {"class": "badge"}, "out (HR-CS-3)") if out else None))
        end_early = None
        if not public and cur is not None:
            end_early = button(f"End round {st.round} now", "init:end-round", cls="btn small ghost",
                               data_testid="end-early")
        return h("section", {"class": "panel ini-order", "aria-label": "Acting order"},
                 h("div", {"class": "spread"},
                   h("h2", {}, "Acting order ", h("span", {"class": "muted small"},
                                                  f"{len(done)} done · {len(items)} to go")),
                   end_early),
                 h("ol", {"class": "ini-order-list", "data-testid": "order", "tabindex": "0",
                          "aria-label": "Cards still to act"}, items) if items else
                 h("p", {"class": "muted"}, "No one left to act this round."))

    def _round_view(self, st):
        # While a shot is being set up it takes the order's place: odds and the roll stay on screen.
        shooting = self.shot is not None and cs.current_turn(st) is not None
        return h("div", {"class": "ini-round"},
                 h("div", {"class": ["ini-top", shooting and "shooting"]},
                   h("div", {"class": "ini-now-col"}, self._now_panel(st), None if shooting else self._last_shot(st)),
                   self._shot_panel(st) if shooting else self._order(st)),
                 self._deal_notes(st),
                 self._board(st))

    def _deal_notes(self, st):
        if not st.nothing:
            return None
        names = ", ".join(st.combatants[i].name for i in st.nothing)
        return h("p", {"class": "msg-warn", "role": "status"}, rule_ref("CS-6", ROUTE), " ",
                 h("span", {"class": "badge ruling"}, "Ruling"),
                 f" One deck could not cover everyone: {names} got nothing or fewer cards than due.")

    def _board(self, st, public: bool = False):
        groups = []
        for s, side in enumerate(st.sides):
            rows = []
            for i, c in enumerate(st.combatants):
                if c.side != s:
                    continue
                hidden = public and cs.is_hidden(st, i)
                if hidden:
                    continue
                hand = st.hands[i] if st.phase == "round" or st.round else None
                stt = st.statuses[i]
                actions = []
                if not public and stt.condition is cs.Condition.INJURED and not stt.treated:
                    actions.append(button("Treated", "init:treat", i, cls="btn small",
                                          aria_label=f"Mark {c.name} treated"))
                if not public and stt.condition is cs.Condition.DYING and not stt.first_aid:
                    actions.append(button("First aid", "init:first-aid", i, cls="btn small danger",
                                          aria_label=f"First aid for {c.name}"))
                cards = []
                if hand is not None and st.phase == "round":
                    cards = [card_tag(x, "lost", label=f"{x.name}, lost to suppression") for x in hand.lost]
                    cards += [card_tag(x, "done" if self._card_done(st, i, x) else "",
                                       label=f"{x.name}{', acted' if self._card_done(st, i, x) else ''}")
                              for x in hand.kept]
                rows.append(h("li", {"class": ["ini-fighter", stt.condition is cs.Condition.DEAD and "dead"],
                                     "data-key": f"f{i}", "data-testid": f"fighter-{i}"},
                              h("div", {"class": "ini-fighter-name"},
                                h("strong", {}, c.name),
                                h("span", {"class": "badge"}, "PC") if c.player else None,
                                h("span", {"class": "badge note"}, "hidden") if not public and cs.is_hidden(st, i)
                                else None),
                              h("div", {"class": "ini-hand"}, cards) if cards else None,
                              h("div", {"class": "chips"}, self._chips(st, i)),
                              h("div", {"class": "row"}, actions) if actions else None))
            hidden_count = sum(1 for i, c in enumerate(st.combatants) if c.side == s and public and cs.is_hidden(st, i))
            groups.append(h("section", {"class": ["panel ini-side", SIDE_CLASS[s]], "data-key": f"b{s}",
                                        "aria-label": side},
                            h("h2", {}, side, " ", h("span", {"class": "badge note"}, "surprised")
                              if s in st.surprised and st.phase == "round" else None),
                            h("ul", {"class": "ini-board-list"}, rows) if rows else None,
                            h("p", {"class": "muted small"},
                              f"{cs._plural(hidden_count, 'combatant')} of the Observer: hidden.")
                            if hidden_count else None))
        return h("div", {"class": "ini-board"}, groups)

    def _card_done(self, st, i, card) -> bool:
        return any(t.done and t.combatant == i and (t.card == card or card in t.spent) for t in st.turns)

    # ---------------- round setup (advantages, surprise, deal)
    def _round_setup(self, st):
        alive = [i for i, _ in enumerate(st.combatants) if cs.can_act(st, i)]
        sides = []
        for s, side in enumerate(st.sides):
            members = [i for i in alive if st.combatants[i].side == s]
            toggles = [button(label, "init:adv-side", f"{s}.{key}",
                              cls=["btn small", members and all(key in self.advantages.get(i, set()) for i in members)
                                   and "on"],
                              aria_pressed="true" if members and all(
                                  key in self.advantages.get(i, set()) for i in members) else "false")
                       for key, label in cs.ADVANTAGES.items()]
            per = None
            if self.per_combatant:
                per = h("ul", {"class": "ini-adv-list"},
                        [h("li", {"data-key": f"a{i}"},
                           h("span", {"class": "ini-adv-name"}, st.combatants[i].name),
                           h("span", {"class": "row"},
                             [button(label.split()[-1], "init:adv", f"{i}.{key}",
                                     cls=["btn small", key in self.advantages.get(i, set()) and "on"],
                                     aria_pressed="true" if key in self.advantages.get(i, set()) else "false",
                                     aria_label=f"{label} for {st.combatants[i].name}")
                              for key, label in cs.ADVANTAGES.items()]))
                         for i in members])
            sides.append(h("section", {"class": ["panel ini-side", SIDE_CLASS[s]], "data-key": f"r{s}",
                                       "aria-label": f"{side}: advantages"},
                           h("div", {"class": "spread"}, h("h2", {}, side),
                             button(["Surprised (CS-4)", h("span", {"class": "visually-hidden"}, f": {side}")],
                                    "init:surprise", s, cls=["btn small", s in self.surprised and "on"],
                                    aria_pressed="true" if s in self.surprised else "false")),
                           h("p", {"class": "msg-warn small"}, "Surprised: this side gets no cards this round (",
                             rule_ref("CS-4", ROUTE), ").") if s in self.surprised else None,
                           h("div", {"class": "row", "role": "group", "aria-label": f"Advantages of all of {side}"},
                             toggles),
                           per))
        return h("div", {"class": "ini-round"},
                 h("section", {"class": "panel ini-deal", "data-testid": "deal-panel"},
                   h("div", {"class": "spread"},
                     h("div", {},
                       h("h2", {}, f"Round {st.round + 1}"),
                       h("p", {"class": "muted small"}, "Each combatant gets 1 card plus 1 per advantage (",
                         rule_ref("CS-2", ROUTE), "); every 2 suppression costs the highest card (",
                         rule_ref("CS-3", ROUTE), "); a surprised side gets none (", rule_ref("CS-4", ROUTE), ").")),
                     h("div", {"class": "row"},
                       button("Per combatant" if not self.per_combatant else "Per side only", "init:per",
                              cls="btn small", aria_pressed="true" if self.per_combatant else "false"),
                       button("Deal", "init:deal", cls="btn primary big")))),
                 h("div", {"class": "ini-adv-grid"}, sides),
                 self._board(st))

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

        def target_button(i):
            on = i in chosen
            return button(st.combatants[i].name, "init:target", i, cls=["btn small", on and "on"],
                          aria_pressed="true" if on else "false")

        semi_row = None
        if shooter.has(cs.Trait.SEMI_AUTOMATIC):
            semi_row = [h("span", {"class": "muted small"}, "Semi-automatic (", rule_ref("CS-11", ROUTE), "):"),
                        h("span", {"class": "row", "role": "radiogroup", "aria-label": "Semi-automatic: +1 to"},
                          [button(label, "init:semi", value, cls=["btn small", shot["semi"] == value and "on"],
                                  role="radio", aria_checked="true" if shot["semi"] == value else "false")
                           for value, label in (("hit", "+1 hit"), ("damage", "+1 damage"))])]
        odds = cs.shot_odds(shooter, mode, cover, shot["semi"] if shooter.has(cs.Trait.SEMI_AUTOMATIC) else None)
        problem = cs.check_shot(st, shooter_i, chosen, mode) if chosen else None
        mult = cs.suppression_multiplier(shooter)
        per_target = cs.suppression_caused(shooter, unseen=shot["unseen"])
        odds_view = h("div", {"class": "ini-odds", "data-testid": "odds"},
                      h("p", {}, h("strong", {"data-testid": "hit-chance"}, f"Hit {cs._pct(odds.hit)}"),
                        h("span", {"class": "muted small"},
                          f" — d10 + {odds.hit_modifier} ≥ {odds.needed} ({cs.Cover(cover).label}, "
                          if mode == "aimed" else " — a natural 10 (", rule_ref("CS-8" if mode == "aimed" else "CS-9",
                                                                                ROUTE), ")")),
                      h("p", {"class": "small odds-wounds"}, f"If hit, 1d6 + {odds.damage_modifier}: ",
                        [h("span", {"class": ["odds-bit", f"w-{w.value}"]}, f"{WOUND_LABEL[w]} {cs._pct(p)}")
                         for w, p in odds.wounds.items() if p], h("span", {}, "(", rule_ref("CS-10", ROUTE), ")")),
                      h("p", {"class": "muted small"},
                        f"Each target takes {per_target} suppression"
                        + (f" (+{mult} more on a miss)" if mode == "suppressive" else "")
                        + (f", ×{mult} for a vehicle weapon" if mult > 1 else "") + " (", rule_ref("CS-7", ROUTE), ")."))
        return h("section", {"class": "panel ini-shot", "aria-label": "Shoot", "data-testid": "shot-panel"},
                 h("div", {"class": "spread"},
                   h("h3", {}, f"{shooter.name} shoots"),
                   h("div", {"class": "row", "role": "radiogroup", "aria-label": "Kind of fire"},
                     [button(label, "init:mode", value, cls=["btn small", mode == value and "on"], role="radio",
                             aria_checked="true" if mode == value else "false")
                      for value, label in (("aimed", "Aimed (CS-8)"), ("suppressive", "Suppressive (CS-9)"))])),
                 h("div", {"class": "row", "role": "group", "aria-label": "Targets"},
                   h("span", {"class": "muted small"}, "Targets" if area else "Target", ":"),
                   [target_button(i) for i in enemies]),
                 h("div", {"class": "row"},
                   h("span", {"class": "row", "role": "radiogroup", "aria-label": "Cover (CS-8)"},
                     [button(COVER_LABEL[c], "init:cover", c.value, cls=["btn small", cover == c.value and "on"],
                             role="radio", aria_checked="true" if cover == c.value else "false") for c in cs.Cover]),
                   button("Unseen (CS-7)", "init:unseen", cls=["btn small", shot["unseen"] and "on"],
                          aria_pressed="true" if shot["unseen"] else "false")),
                 h("div", {"class": "row"}, semi_row) if semi_row else None,
                 odds_view,
                 h("p", {"class": "msg-error"}, with_rule_refs(problem, ROUTE)) if problem else None,
                 h("div", {"class": "row"},
                   button(f"Roll the dice ({len(chosen)} target{'s' if len(chosen) != 1 else ''})", "init:fire",
                          cls="btn primary", disabled=not chosen or problem is not None),
                   button("Cancel", "init:shoot-close", cls="btn ghost")),
                 h("details", {"class": "ini-friends"}, h("summary", {}, "Fire at own side"),
                   h("div", {"class": "row"}, [target_button(i) for i in friends])) if friends else None)

    def _last_shot(self, st):
        shot = st.last_shot
        if shot is None:
            return None
        rows = []
        for r in shot.targets:
            dice = [h("span", {"class": "die d10", "role": "img", "aria-label": f"d10 rolled {r.d10}"}, str(r.d10))]
            if r.d6 is not None:
                dice.append(h("span", {"class": "die d6", "role": "img", "aria-label": f"d6 rolled {r.d6}"}, str(r.d6)))
            rows.append(h("li", {"data-key": f"r{r.target}", "class": "ini-result"},
                          h("div", {"class": "ini-dice"}, dice),
                          h("div", {},
                            h("strong", {}, st.combatants[r.target].name, ": ",
                              WOUND_LABEL[r.wound] if r.wound else "miss"),
                            h("p", {"class": "small"},
                              with_rule_refs(r.text.removeprefix(f"{st.combatants[r.target].name}: "), ROUTE)))))
        return h("section", {"class": "panel ini-shot-result", "data-testid": "shot-result", "aria-live": "polite"},
                 h("h3", {}, f"{st.combatants[shot.shooter].name}: ",
                   "aimed shot" if shot.mode == "aimed" else "suppressive fire"),
                 h("ul", {"class": "ini-results"}, rows))

    # ---------------- players' view
    def _players_view(self, st):
        banner = None
        if st.facts:
            banner = h("p", {"class": "msg-warn", "role": "status"},
                       "Spectator copy: it shows the public facts of the game and cannot deal or roll.")
        leave = None
        if not st.facts:
            if self.confirm_leave:
                leave = h("div", {"class": "panel ini-leave", "role": "alertdialog",
                                  "aria-label": "Back to the Observer's view"},
                          h("p", {}, "Show the Observer's view? Hidden cards and statuses become visible."),
                          h("div", {"class": "row"},
                            button("Stay in the players' view", "init:leave-no", cls="btn"),
                            button("Yes, show everything", "init:leave-yes", cls="btn danger")))
            else:
                leave = h("div", {"class": "row ini-leave-row"},
                          button("Observer's view…", "init:leave", cls="btn small ghost"))
        order = self._order(st, public=True) if st.phase == "round" else None
        return h("div", {"class": "ini-round", "data-testid": "players-view"},
                 banner,
                 h("div", {"class": "ini-top"},
                   h("section", {"class": "panel ini-now"},
                     h("h2", {}, "Players' view"),
                     h("p", {"class": "muted small"}, "Cards and statuses of the Observer's combatants are hidden.")),
                   order),
                 self._board(st, public=True),
                 leave)

    # ---------------- log and rules
    def _log(self, st, public: bool):
        entries = [e for e in st.log if not public or not any(cs.is_hidden(st, i) for i in e.who)]
        if not entries:
            return None
        items = [h("li", {"data-key": f"l{n}"}, h("span", {"class": "muted small"}, f"R{e.round} "),
                   with_rule_refs(e.text, ROUTE)) for n, e in reversed(list(enumerate(entries)))][:60]
        return h("section", {"class": "panel log", "aria-label": "Round log"},
                 h("h2", {}, "Round log"),
                 h("ol", {"class": "log-list", "reversed": True}, items))

    def _rules_in_play(self, st):
        settings = st.settings
        return h("details", {"class": "panel rules-in-play"},
                 h("summary", {}, "Rules in play"),
                 h("ul", {}, [h("li", {}, rule_ref(v.rule_id, ROUTE), " ", h("span", {"class": "badge variant"}, "Variant"),
                                " ", v.label, ": ", v.describe(settings[v.key])) for v in cs.VARIANTS],
                   [h("li", {}, rule_ref(rid, ROUTE), " ", h("span", {"class": "badge house"}, "House rule"), " ", text)
                    for rid, text in cs.HOUSE_RULES.items()],
                   h("li", {}, h("span", {"class": "badge ruling"}, "Rulings"), " ",
                     [[rule_ref(rid, ROUTE), " "] for rid in cs.RULINGS])),
                 h("div", {"class": "row"},
                   button("Show non-player combatants in the players' view" if st.privacy else
                          "Hide non-player combatants from the players' view", "init:privacy", cls="btn small")))

    # ------------------------------------------------------------ events
    def handle(self, action: str, arg, el, event) -> None:
        if self.players_view and self.session.game is not None and (
                action.startswith("session:") or action.startswith("file:")):
            return  # no session controls in the players' view (a keyboard shortcut included)
        if self.session.handle(action, arg, el):
            return
        if not action.startswith("init:"):
            return
        name = action[5:]
        st = self.session.state
        if st is None:
            self._roster_action(name, arg)
        else:
            self._tracker_action(st, name, arg)

    def _roster_action(self, name: str, arg) -> None:
        d = self.draft
        combatants = d["combatants"]
        index = int(arg) if arg is not None and str(arg).isdigit() else None
        if name == "add":
            self._add()
        elif name == "cancel-edit":
            self.editing, self.form = None, blank_form()
        elif name == "edit" and index is not None and index < len(combatants):
            self.editing = index
            self.form = {**blank_form(), **copy.deepcopy(combatants[index]), "count": "1"}
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
        elif name == "add-side" and len(d["sides"]) < 8:
            d["sides"].append(f"Side {len(d['sides']) + 1}")
        elif name == "remove-side" and index is not None and len(d["sides"]) > 2:
            if not any(c.get("side") == index for c in combatants):
                d["sides"].pop(index)
                for c in combatants:
                    if c.get("side", 0) > index:
                        c["side"] -= 1
                self.form["side"] = 0
        elif name == "template" and index is not None and index < len(self.templates):
            t = self.templates[index]
            self.form = {**blank_form(), **{k: copy.deepcopy(v) for k, v in t["combatant"].items()
                                            if k in ("name", "grain", "training", "weapon", "player")},
                         "side": self.form.get("side", 0), "count": self.form.get("count", "1")}
        elif name == "save-template":
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
            members = [{k: v for k, v in c.items() if k != "side"} for c in combatants if c.get("side") == index]
            self.saved_sides = [s for s in self.saved_sides if s["name"] != side_name] + [
                {"name": side_name, "combatants": members}]
            self._keep(SIDES_KEY, self.saved_sides)
            self.app.toast(f"Side “{side_name}” kept: load it in any later game.")
        elif name == "load-side" and index is not None and index < len(self.saved_sides):
            saved = self.saved_sides[index]
            if saved["name"] in d["sides"]:
                s = d["sides"].index(saved["name"])
            elif len(d["sides"]) < 8:
                empty = [i for i in range(len(d["sides"])) if not any(c.get("side") == i for c in combatants)]
                if empty:
                    s = empty[0]
                    d["sides"][s] = saved["name"]
                else:
                    d["sides"].append(saved["name"])
                    s = len(d["sides"]) - 1
            else:
                self.app.toast("A roster has at most 8 sides.", "error")
                return
            taken = {c["name"] for c in combatants}
            for c in saved["combatants"]:
                if isinstance(c, dict):
                    entry = {**copy.deepcopy(c), "side": s}
                    if entry.get("name") in taken:
                        entry["name"] = numbered(_NUMBERED.sub(r"\1", entry["name"]), 1, taken)[0]
                    taken.add(entry.get("name"))
                    combatants.append(entry)
        elif name == "forget-side" and index is not None and index < len(self.saved_sides):
            self.saved_sides.pop(index)
            self._keep(SIDES_KEY, self.saved_sides)
        elif name == "start":
            self._start()
            return
        self._save_draft()

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
            self.advantages, self.surprised, self.players_view = {}, set(), False

    def _tracker_action(self, st, name: str, arg) -> None:
        index = int(arg) if arg is not None and str(arg).isdigit() else None
        if st.facts and name not in ("privacy",):
            return  # a spectator copy only shows
        if self.players_view and name not in ("leave", "leave-no", "leave-yes"):
            return  # the players' view has no Observer controls (a stray tap does nothing)
        self.notice = None
        # Deal / Next / End round: a double tap's second tap (on the button that appeared under
        # the finger, or on Next again after the order moved) is refused, and said, by the app's
        # one guard (web/views/curtain.py TapGuard); a tap on another button is always taken.
        if name == "players":
            self.players_view, self.confirm_leave = True, False
            self.shot = self.long_pick = None
            self.session.drawer = None
        elif name == "leave":
            self.confirm_leave = True
        elif name == "leave-no":
            self.confirm_leave = False
        elif name == "leave-yes":
            self.players_view = self.confirm_leave = False
        elif name == "adv-side" and arg:
            s, _, key = arg.partition(".")
            members = [i for i, c in enumerate(st.combatants) if c.side == int(s) and cs.can_act(st, i)]
            on = all(key in self.advantages.get(i, set()) for i in members)
            for i in members:
                self.advantages.setdefault(i, set())
                (self.advantages[i].discard if on else self.advantages[i].add)(key)
        elif name == "adv" and arg:
            i, _, key = arg.partition(".")
            self.advantages.setdefault(int(i), set()).symmetric_difference_update({key})
        elif name == "per":
            self.per_combatant = not self.per_combatant
        elif name == "surprise" and index is not None:
            self.surprised ^= {index}
        elif name == "deal":
            adv = {str(i): sorted(v) for i, v in self.advantages.items() if v and i < len(st.combatants)}
            self._act({"type": "deal", "advantages": adv, "surprised": sorted(self.surprised)})
            self.surprised = set()  # surprise is for one round (CS-4)
        elif name == "next":
            self._act({"type": "next"})
        elif name == "end-round":
            self._act({"type": "end_round"})
        elif name == "treat" and index is not None:
            self._act({"type": "treat", "combatant": index})
        elif name == "first-aid" and index is not None:
            self._act({"type": "first_aid", "combatant": index})
        elif name == "privacy":
            self._act({"type": "privacy", "hide": not st.privacy})
        elif name == "long-open":
            self.long_pick = set()
            self.shot = None
        elif name == "long-pick" and arg and self.long_pick is not None:
            self.long_pick ^= {arg}
        elif name == "long-cancel":
            self.long_pick = None
        elif name == "long-ok" and self.long_pick:
            cur = cs.current_turn(st)
            if cur is not None:
                self._act({"type": "long", "combatant": st.turns[cur].combatant, "cards": sorted(self.long_pick)})
        elif name == "shoot-open":
            self.shot = None if self.shot is not None else {"targets": [], "mode": "aimed", "cover": "none",
                                                            "unseen": False, "semi": "hit"}
            self.long_pick = None
        elif name == "shoot-close":
            self.shot = None
        elif self.shot is not None:
            self._shot_action(st, name, arg, index)

    def _shot_action(self, st, name, arg, index) -> None:
        shot = self.shot
        cur = cs.current_turn(st)
        if cur is None:
            return
        shooter = st.combatants[st.turns[cur].combatant]
        area = shooter.has(cs.Trait.AUTOMATIC) or shooter.has(cs.Trait.SEMI_AUTOMATIC)
        if name == "mode" and arg in ("aimed", "suppressive"):
            shot["mode"] = arg
            shot["semi"] = "hit" if arg == "aimed" else "damage"
            if arg == "aimed":
                shot["targets"] = shot["targets"][:1]
        elif name == "target" and index is not None:
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
            action = {"type": "shoot", "shooter": st.turns[cur].combatant, "targets": list(shot["targets"]),
                      "mode": shot["mode"], "cover": shot["cover"], "unseen": shot["unseen"]}
            if shooter.has(cs.Trait.SEMI_AUTOMATIC):
                action["semi"] = shot["semi"]
            self._act(action)

    def _act(self, action: dict) -> None:
        refusal = self.session.try_act(action)
        self.notice = refusal

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
            if i.isdigit() and int(i) < len(self.draft["sides"]):
                self.draft["sides"][int(i)] = value
                self._save_draft()
            return not live
        if key == "rules.pulp":
            self.rules["pulp"] = value == "1"
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
                self.form["side"] = int(value) if value.isdigit() and int(value) < len(self.draft["sides"]) else 0
                return True
            if part in ("name", "grain", "training", "count"):
                self.form[part] = value
                return not live or part == "count" or part == "name"
        return False
