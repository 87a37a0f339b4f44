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

from engine import consim as cs
from web.dom import button, h
from web.parts.rulebits import rule_ref, seat_house_rules, with_rule_refs
from web.parts.tool import ToolView, whole
from web.session import Session

from . import entry, public, roster, shots, tracker
from .draft import (
    _TRAITS,
    DRAFT_KEY,
    ROUTE,
    SIDES_KEY,
    TEMPLATES_KEY,
    TICKS_KEY,
    VIEW_KEY,
    blank_draft,
    blank_form,
    clean_kept_draft,
    clean_saved_sides,
    clean_templates,
    clean_ticks,
    clean_view,
    game_name,
    noted,
)


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

    def boot(self) -> None:
        # Every key is read as hostile input (issue 35): what does not pass is set aside
        # with one message, and the table carries on (web/parts/tool.py, read_kept).
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

    def render(self):
        state = self.session.state
        if self.players_view and not self.spectator and (state is not None or self.session.game is None):
            # The players' view is turned towards the table: no undo, history, saves or links there.
            bar = h("div", {"class": "session-bar", "data-testid": "players-bar"},
                    h("span", {"class": "session-name"}, "Players' view"))
            body = public.players_screen(self) if state is not None else public.players_no_game(self)
            return [h("div", {"data-key": "players-bar", "class": "frame-slot"}, bar),
                    h("div", {"data-key": "banner", "class": "frame-slot"}),
                    h("div", {"data-key": "drawer", "class": "frame-slot"}),
                    h("div", {"data-key": "tracker", "class": "frame-slot"}, body)]
        if state is None:
            return self.frame(roster.render_roster(self), body_key="roster")
        if self.spectator:
            return self.frame(public.public_tracker(self, state, leave=False), body_key="tracker")
        return self.frame(tracker.render_tracker(self, state), body_key="tracker")

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
                   button("Show the hidden combatants in the players' view" if st.privacy else
                          "Hide the chosen combatants from the players' view", "init:privacy", cls="btn small")))

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
                public.leave_action(self, name)
            return  # the players' view has no Observer controls (a stray tap does nothing)
        st = self.session.state
        if st is None:
            do = roster.ACTIONS.get(name)
            if do is not None:
                do(self, arg, event)
            if name != "start":
                self._save_draft()
        elif not self.spectator:
            self.notice = None
            # Deal / Next / End round: a double tap's second tap (on the button that appeared under
            # the finger, or on Next again after the order moved) is refused, and said, by the app's
            # one guard (web/parts/curtain.py TapGuard); a tap on another button is always taken.
            do = tracker.ACTIONS.get(name)
            if name.startswith("entry-"):
                index = int(arg) if arg is not None and whole(str(arg)) else None
                entry.entry_action(self, st, name, arg, index)
            elif do is not None:
                do(self, arg, event)
            elif self.shot is not None:
                index = int(arg) if arg is not None and whole(str(arg)) else None
                shots.shot_action(self, st, name, arg, index)

    def _start(self) -> None:
        if self.start_game(cs.KIND, copy.deepcopy(roster.engine_setup(self)), self.rules, game_name):
            self._set_players_view(False)
            self.app.focus_to("deal")

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
        if key == "count_hidden":  # HR-CS-8
            self.draft["count_hidden"] = value == "1"
            self._save_draft()
            return True
        if key.startswith("hide."):  # HR-CS-8: the Observer's choice for one roster line
            i = key[5:]
            if whole(i) and int(i) < len(self.draft["combatants"]) and not self.draft["combatants"][int(i)]["player"]:
                self.draft["combatants"][int(i)]["hidden"] = value == "1"
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
