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

from engine import ascension as ai
from web import platform
from web.dom import Memo, h
from web.parts.curtain import CurtainGuard
from web.parts.tool import ToolView, draft_row, whole
from web.session import Session

from . import bids, board, editor, matrix, roll
from .draft import DRAFT_KEY, SETTING_KEYS, _int, blank_rules, blank_setup, clean_kept, game_name, repair_draft

#: A tap that lands this soon after the screen changed is a double tap's second half: ignored
#: on the curtain (:class:`CurtainGuard`), so a fast double tap never opens the next side's
#: secret screen.
CURTAIN_GUARD_MS = 600



class BattleView(ToolView):
    route = "battle"
    DRAFT_KEY = DRAFT_KEY

    #: Where the focus goes after an action that changes the board (issue 14, 22): the first
    #: of these marked elements on the screen (see App.focus_to).
    NEXT = ("curtain", "bid", "reveal", "entry", "roll", "result", "over")
    #: Every tap of the battle, from its screens: action name → what it does.
    ACTIONS = {**editor.ACTIONS, **bids.ACTIONS, **roll.ACTIONS, **board.ACTIONS}
    #: A spectator's copy takes no move (its board offers none).
    MOVES = frozenset(("show", "hide", "declare", "reveal", "counter", "roll", "record", "leave", "phase", "unit-save",
                       "unit-new", "unit-edit", "unit-cancel", "pick", "strat", "hits", "face", "unface", "clear",
                       "range", "entry-mode"))
    FOCUS = {**dict.fromkeys(("roll", "record"), ("result", "over", *NEXT)),
             **dict.fromkeys(("declare", "reveal", "hide", "counter", "leave", "unit-save", "unit-cancel"), NEXT)}
    NOTHING_TO_UNDO = "Nothing of yours to undo yet: the app's general made every move so far."

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
        self.memo_log, self.memo_rules = Memo(), Memo()  # parts redrawn only when changed (issue 33)
        self.aim = "net"
        self._reset_view()

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

    #: The two screens: the setup editor before a battle, the board during it.
    render_setup = editor.render_setup
    render_table = board.render_board

    def render(self):
        out = super().render()
        game = self.session.game
        state = self.session.state
        # issue 34 item 1: the Rules panel's matrices (and their print) are this battle's tables
        matrix.sync_rules_panel(state.settings if state is not None else None)
        if self.session.drawer == "share" and game is not None:
            # Issue 18: the game's settings (whose dice …) are said where its links are shared.
            drawer = next((c for c in out[2].children if getattr(c, "tag", None)), None)
            if drawer is not None:
                drawer.children.insert(1, h("p", {"class": "muted share-settings", "data-testid": "share-settings"},
                                            "Rules settings of this game, in both links: ",
                                            ai.settings_summary(game.rules), "."))
        return out

    def _levels(self):
        game = self.session.game
        return ai.app_levels(game.setup) if game is not None else (None, None)

    # ---------------- the app's general (issue 17; the timer and Undo: ToolView)
    def app_plays(self) -> bool:
        return self._levels() != (None, None) and not self.spectator

    def app_due(self, st) -> bool:
        return (not self.spectator and st.phase == "bid" and bids.app_waiting(self, st) is not None
                and ai.app_turn(self.session.game) is not None)

    def app_move(self) -> bool:
        return bids.app_bid_now(self)

    def app_undo_target(self, game):
        return ai.undo_target(game)

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
            return board.unit_form_field(self, name, value)
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
        target = draft_row(self.draft, path[:-1])
        if not isinstance(target, dict):
            return True  # a control of a row just removed: redraw
        last = path[-1]
        new = _int(value) if last in ("attack", "defense", "mobility", "armour", "size", "vanguard",
                                      "rearguard") else value
        if target.get(last) == new:
            return False  # the "change" after "input": already kept and drawn (see seed above)
        target[last] = new
        self.setup_error = None
        self._save_draft()
        return True  # drawn at once (names too: the focused field keeps its caret), so "change" has nothing left
