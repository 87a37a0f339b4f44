"""The conflict card table (Organizations In Conflict, OIC-1 … OIC-19).

Two screens: the setup (build the sides, pick scopes and rules, or load the
source's example) and the table (deal, discard, play, pass, rounds and their
consequences, ending the conflict between rounds). Every rule decision comes from
:mod:`engine.conflict`; this module only draws the state and turns taps into
actions. A spectator's copy (issue 21) is drawn read-only: no curtain, no hand, no
card picker, no pass, no next round, no app move, only what the table could see.
"""

from __future__ import annotations

import copy
import json
import random

from engine import conflict as oic
from engine.cards import Card, Suit
from engine.conflict import opponent
from engine.text import plural
from web.dom import button, h
from web.parts.cards import card_back, card_button, card_picker, card_view, suit_mark
from web.parts.curtain import curtain
from web.parts.rulebits import rule_ref, seat_house_rules, with_rule_refs
from web.parts.tool import ToolView, draft_row, example_panel, played_by, whole
from web.session import Session

DRAFT_KEY = "ct:v1:draft:conflict"
#: What a spectator's copy is, said where it shows what comes next (issue 21).
SNAPSHOT = ("This copy shows the table as it was when its link was made; a new link shows later moves.")
SUITS = tuple(Suit)
SCOPES = tuple(oic.Scope)
SIDE_CLASS = ("side-a", "side-b")
#: How long (seconds) a new pass-the-tablet curtain ignores taps (issue 7, defect 3).
CURTAIN_PAUSE = 0.45


def blank_org(suit: str = "S", number: int = 1) -> dict:
    """A new organization, valid as it stands (the table edits it from there)."""
    return {"name": f"Organization {number}", "power": 10, "suit": suit, "location": ""}


def blank_setup() -> dict:
    return with_ids({
        "sides": [
            {"name": "Side A", "scope": "home",
             "players": [{"name": "Player 1", "organizations": [blank_org("S")]}]},
            {"name": "Side B", "scope": "home",
             "players": [{"name": "Player 2", "organizations": [blank_org("H")]}]},
        ],
        "scope": "home", "aggressor": 0, "deck": "app",
    })


# The setup form's rows (players, organizations) carry a stable "id" in the draft,
# so a row keeps its identity when one above it goes: its element, its focused
# field and any late event of that field stay with it (issue 7, defect 2). The ids
# are the form's business only: the engine gets the draft without them.

def _rows(draft: dict):
    for side in draft.get("sides", []):
        for player in side.get("players", []):
            yield player
            yield from player.get("organizations", [])


def with_ids(draft: dict) -> dict:
    """The draft with an ``id`` on every player and organization (kept where present)."""
    used = {row["id"] for row in _rows(draft) if isinstance(row.get("id"), str)}
    number = 0
    for row in _rows(draft):
        if not isinstance(row.get("id"), str):
            while f"r{number}" in used:
                number += 1
            row["id"] = f"r{number}"
            used.add(row["id"])
    return draft


def new_id(draft: dict, floor: int = 0) -> str:
    """An id no row of the draft has, numbered above ``floor`` and every id in use."""
    numbers = [int(row["id"][1:]) for row in _rows(draft)
               if isinstance(row.get("id"), str) and whole(row["id"][1:])]
    return f"r{max(numbers + [floor - 1]) + 1}"


#: Setup fields that belong to a game, never to a new one made from its sides.
GAME_ONLY = ("spectator", "upgraded")


def engine_setup(draft: dict) -> dict:
    """The draft as the engine takes it: a deep copy without the form's row ids (and
    without what marks a game rather than a setup: a spectator's copy, an upgrade)."""
    setup = copy.deepcopy(draft)
    for key in GAME_ONLY:
        setup.pop(key, None)
    for row in _rows(setup):
        row.pop("id", None)
    return setup


def find_row(draft: dict, row_id: str):
    """``(side, player, organization)`` indexes of the row with ``row_id`` (organization
    ``None`` for a player), or ``None`` when no such row is left."""
    for s, side in enumerate(draft.get("sides", [])):
        for p, player in enumerate(side.get("players", [])):
            if player.get("id") == row_id:
                return s, p, None
            for o, org in enumerate(player.get("organizations", [])):
                if org.get("id") == row_id:
                    return s, p, o
    return None


def unused_player_name(draft: dict) -> str:
    """"Player N" with the smallest N no player of either side is called."""
    names = {player.get("name") for side in draft.get("sides", []) for player in side.get("players", [])}
    number = 1
    while f"Player {number}" in names:
        number += 1
    return f"Player {number}"


def game_name(game) -> str:
    """A save's name: "Purple Dragon League vs Zombie invasion"."""
    first, second = (side["name"] for side in game.setup["sides"])
    return f"{first} vs {second}"


def draft_shape_ok(draft) -> bool:
    """Whether a stored setup draft has the shape the form edits (its values may still be wrong)."""
    def dicts(value, key):
        return isinstance(value, dict) and isinstance(value.get(key), list) and all(
            isinstance(item, dict) for item in value[key])

    return (dicts(draft, "sides") and len(draft["sides"]) == 2
            and all(dicts(side, "players") and side["players"] for side in draft["sides"])
            and all(dicts(player, "organizations") for side in draft["sides"] for player in side["players"]))


#: The longest text a kept setup field keeps (the engine takes far less; the form says why).
MAX_KEPT_TEXT = 200


def clean_draft(data) -> tuple[dict | None, list[str]]:
    """The kept setup form ``{"setup": …, "rules": …}`` checked field by field (issue 35):
    ``(form, notes)``; a field of the wrong kind takes the blank form's value, with a
    note in players' words; ``(None, [])`` when nothing is kept. What the form itself
    keeps while being edited (a power typed as text, an empty name) passes: the engine
    says what is wrong with it at the start, as with a typed value."""
    if data is None:
        return None, []
    rules = {v.key: v.default for v in oic.VARIANTS}
    if not isinstance(data, dict) or not draft_shape_ok(data.get("setup")):
        return {"setup": blank_setup(), "rules": rules}, ["the setup form could not be read, so it starts afresh"]
    notes: list[str] = []
    setup = copy.deepcopy(data["setup"])

    def text(row: dict, key: str, default: str, what: str) -> None:
        value = row.get(key, default)
        if not isinstance(value, str):
            notes.append(f"{what} was not text (now “{default}”)" if default else f"{what} was not text (now empty)")
            row[key] = default
        elif len(value) > MAX_KEPT_TEXT:
            notes.append(f"{what} was far too long and was cut")
            row[key] = value[:MAX_KEPT_TEXT]

    def choice(row: dict, key: str, allowed, default, what: str) -> None:
        value = row.get(key, default)
        if isinstance(value, bool) or not isinstance(value, type(default)) or value not in allowed:
            notes.append(f"{what} was not one of the choices")
            row[key] = default

    scopes = [scope.value for scope in SCOPES]
    suits = [suit.value for suit in SUITS]
    for s, side in enumerate(setup["sides"]):
        where = f"side {s + 1}"
        text(side, "name", f"Side {'AB'[s]}", f"the name of {where}")
        choice(side, "scope", scopes, "home", f"the scope of {where}")
        if "controller" in side or "level" in side:
            if side.get("controller") != "app" or side.get("level") not in opponent.LEVELS:
                notes.append(f"who plays {where} was not one of the choices (people now)")
                side.pop("controller", None)
                side.pop("level", None)
        for p, player in enumerate(side["players"]):
            text(player, "name", f"Player {p + 1}", f"a player's name on {where}")
            for org in player["organizations"]:
                text(org, "name", "Organization", f"an organization's name on {where}")
                text(org, "location", "", f"an organization's location on {where}")
                choice(org, "suit", suits, "S", f"an organization's suit on {where}")
                power = org.get("power", 10)
                if isinstance(power, bool) or not isinstance(power, (int, str)) or \
                        (isinstance(power, int) and abs(power) > 10**6) or (isinstance(power, str) and len(power) > 12):
                    notes.append(f"an organization's power on {where} was not a number (now 10)")
                    org["power"] = 10
    choice(setup, "scope", scopes, "home", "the conflict's scope")
    choice(setup, "aggressor", (0, 1), 0, "who opens")
    choice(setup, "deck", ("app", "table"), "app", "whose cards")
    seen: set[str] = set()
    for row in _rows(setup):  # a row id twice would give two rows one element: the second gets a new one
        if isinstance(row.get("id"), str) and (row["id"] in seen or not row["id"][:1] == "r"
                                                or not whole(row["id"][1:]) or len(row["id"]) > 8):
            row.pop("id")
        elif "id" in row and not isinstance(row["id"], str):
            row.pop("id")
        if isinstance(row.get("id"), str):
            seen.add(row["id"])
    kept = data.get("rules")
    if isinstance(kept, dict):
        for variant in oic.VARIANTS:
            value = kept.get(variant.key, variant.default)
            if isinstance(value, str) and value in [c for c, _ in variant.choices]:
                rules[variant.key] = value
            else:
                notes.append(f"the setting “{variant.label}” was not one of the choices (the default now)")
    elif kept is not None:
        notes.append("the rules settings could not be read (the defaults now)")
    return {"setup": with_ids(setup), "rules": rules}, notes


def table_order(card: Card) -> tuple[int, int]:
    """Suit by suit, ace first: in this game an ace is worth 1 (OIC-6)."""
    return (SUITS.index(card.suit), 1 if card.rank.token == "A" else int(card.rank))


def _index(text: str | None) -> list[int]:
    return [int(part) for part in (text or "").split(".") if whole(part)]


def _suit_ratings(st, s: int) -> list[tuple]:
    """Side ``s`` suit by suit, as its panel and its one-line summary show it: the suit, its
    rating, the largest card it may play (OIC-5), its best organization and whether it is safe
    from being engaged (OIC-3)."""
    ratings = oic.side_ratings(st, s)
    engageable = set(oic.engageable_suits(st, s))
    scope = st.sides[s].scope
    return [(suit, ratings[suit], oic.max_card_size(ratings[suit], scope), oic.best_organization(st, s, suit),
             suit not in engageable) for suit in SUITS]


class ConflictView(ToolView):
    route = "conflict"
    DRAFT_KEY = DRAFT_KEY

    def __init__(self, app) -> None:
        self.app = app
        self.session = Session(app, "conflict", "Organizations In Conflict", on_change=self._reset_view,
                               namer=game_name)
        self.draft: dict = blank_setup()
        self.rules: dict = {v.key: v.default for v in oic.VARIANTS}
        self.seed_text = ""
        self.setup_error: str | None = None
        self.revealed: tuple | None = None  # which hand the tablet shows (pass-and-play)
        self.selected: set[str] = set()  # cards picked for a discard
        self.notice: str | None = None  # why the last tapped card was refused
        self.table_player = 0  # team player entering a card in table-deck mode
        self._id_floor = 0  # setup row ids are numbered from here on (see with_ids)
        self.confirm_pass = False  # "Pass" tapped with playable cards: asking first
        self.confirm_call = False  # "End the conflict here" tapped: asking first (OIC-19)
        self.curtain_held = False  # a new curtain ignores taps for a moment
        self._hold_token = 0
        self.scroll_to_play = False
        self._auto_shown = None  # solo: the turn whose hand was last shown without a curtain

    # ------------------------------------------------------------ lifecycle
    def boot(self) -> None:
        form = self.read_kept(DRAFT_KEY, clean_draft, "the setup form")
        if form is not None:
            self.draft = form["setup"]
            self.rules.update(form["rules"])
        self.tell_kept("The kept conflict setup could not be used as it was")
        self.session.boot()

    def _reset_view(self) -> None:
        """After every change of the game: hands hidden again, nothing selected."""
        self.revealed = None
        self.selected = set()
        self.notice = None
        self.table_player = 0
        self.confirm_pass = False
        self.confirm_call = False
        self._hold_curtain()

    def _hold_curtain(self) -> None:
        """A new curtain ignores taps for CURTAIN_PAUSE seconds: the second tap of a quick
        double tap on the hand that was there must not show the next hand."""
        self.curtain_held = True
        self._hold_token += 1
        token = self._hold_token

        def release():
            if token == self._hold_token:
                self.curtain_held = False
                self.app.render()

        self.app.later(CURTAIN_PAUSE, release)

    def on_leave(self) -> None:
        """Leaving the route hides a revealed hand: it is not open when someone comes back."""
        self.revealed = None
        self.selected = set()
        self.confirm_pass = False
        self.confirm_call = False

    def recover(self) -> None:
        """After an unexpected error: back to the plain table (drawers shut, hands hidden)."""
        self.session.drawer = None
        self.session.renaming = None
        self.on_leave()
        self.notice = None

    def after_render(self) -> None:
        """A hand just revealed: scroll the play area (status, current card, hand,
        actions) to the top of the screen, under the sticky bar."""
        if self.scroll_to_play:
            self.scroll_to_play = False
            from js import document  # type: ignore[import-not-found]

            status = document.querySelector("#app-conflict [data-testid=status]")
            if status is not None:
                status.scrollIntoView()

    def _new_id(self) -> str:
        """A row id never used in this tab (a removed row's id is not given again)."""
        rid = new_id(self.draft, self._id_floor)
        self._id_floor = int(rid[1:]) + 1
        return rid

    # ------------------------------------------------------------ rendering
    # ---------------- setup
    def _draft_state(self):
        """The draft as the engine sees it (None and a message when it is not valid yet)."""
        try:
            setup = oic.normalize_setup(engine_setup(self.draft))
            return oic.start(setup, self.rules, random.Random(0)), setup, None
        except (ValueError, TypeError) as err:
            return None, None, str(err)

    def render_setup(self):
        preview, setup, problem = self._draft_state()
        warnings = oic.setup_warnings(setup) if setup is not None else []
        sides = [self._side_editor(s, side, preview) for s, side in enumerate(self.draft["sides"])]
        return h("div", {"class": "setup", "data-testid": "setup"},
                 example_panel("New conflict",
                               ("Build the two sides, or start from the source's worked example: the Purple "
                                "Dragon League against a zombie invasion (OIC-7).",),
                               "Load the Purple Dragon League example", "conflict:example",
                               h("details", {"class": "scenario-choices"},
                                 h("summary", {}, "Where the example is silent: the app's choices"),
                                 h("p", {"class": "muted small"}, rule_ref("OIC-7", "conflict"),
                                   " gives the League's powers and the zombies' card sizes only."),
                                 h("ul", {}, [h("li", {}, choice) for choice in oic.SCENARIO_CHOICES]))),
                 h("div", {"class": "sides-grid"}, sides),
                 self._conflict_options(),
                 h("ul", {"class": "warn-list", "aria-label": "Warnings"},
                   [h("li", {}, with_rule_refs(w, "conflict")) for w in warnings])
                 if warnings else None,
                 h("p", {"class": "msg-error", "role": "alert"}, problem) if problem else None,
                 h("p", {"class": "msg-error", "role": "alert"}, self.setup_error) if self.setup_error else None,
                 h("div", {"class": "row start-row"},
                   button("Start the conflict", "conflict:start", cls="btn primary big",
                          disabled=setup is None)))

    def _side_editor(self, s: int, side: dict, preview):
        players = side.get("players", [])
        blocks = []
        for p, player in enumerate(players):
            orgs = player.get("organizations", [])
            rows = [self._org_row(s, p, o, org) for o, org in enumerate(orgs)]
            sizes = None
            if preview is not None:
                sizes = h("ul", {"class": "max-sizes", "aria-label": f"Max card sizes of {player.get('name')}"},
                          [h("li", {"class": ["max-size", max(0, oic.player_max_sizes(preview, s, p)[suit]) == 0
                                              and "none"]},
                             suit_mark(suit), " ", oic.max_size_reason(preview, s, p, suit))
                           for suit in SUITS])
            pid = player.get("id")
            blocks.append(h("div", {"class": "player-block", "data-key": f"p-{pid}"},
                            h("div", {"class": "row"},
                              self._text_input(f"sides.{s}.players.{p}.name", player.get("name", ""),
                                               f"Player {p + 1} name", cls="player-name", row=pid),
                              button("Remove player", "conflict:remove-player", pid, cls="btn small ghost",
                                     aria_label=f"Remove player {player.get('name') or p + 1}")
                              if len(players) > 1 else None),
                            h("div", {"class": "org-list"}, rows),
                            button("+ Organization", "conflict:add-org", pid, cls="btn small"),
                            sizes))
        hand = oic.hand_size(len(players)) if 1 <= len(players) <= 8 else None
        return h("section", {"class": ["panel side-editor", SIDE_CLASS[s]], "aria-label": f"Side {s + 1}"},
                 h("div", {"class": "row"},
                   self._text_input(f"sides.{s}.name", side.get("name", ""), f"Side {s + 1} name",
                                    cls="side-name"),
                   self._scope_select(f"sides.{s}.scope", side.get("scope", "home"), "Reaches to (side's scope)"),
                   played_by(s, side, opponent.LEVELS, opponent.LEVEL_LABELS)),
                 blocks,
                 h("div", {"class": "spread"},
                   button("+ Player", "conflict:add-player", str(s), cls="btn small", disabled=len(players) >= 8),
                   h("span", {"class": "muted"}, f"OIC-14: {len(players)} player{'s' if len(players) != 1 else ''}, "
                                                 f"{hand} cards each" if hand else "")))

    def _org_row(self, s: int, p: int, o: int, org: dict):
        base = f"sides.{s}.players.{p}.organizations.{o}"
        rid = org.get("id")
        power = org.get("power", "")
        bad_power = not (isinstance(power, int) and 0 <= power <= 999)
        return h("div", {"class": "org-row", "data-key": f"o-{rid}"},
                 self._text_input(f"{base}.name", org.get("name", ""), "Organization", placeholder="Organization",
                                  row=rid),
                 h("label", {"class": "field power"}, "Power",
                   h("input", {"type": "number", "inputmode": "numeric", "min": "0", "max": "999", "step": "1",
                               "data-field": f"setup:{base}.power", "data-row": rid, "value": str(power),
                               "aria-invalid": "true" if bad_power else None})),
                 h("label", {"class": "field"}, "Suit",
                   h("select", {"data-field": f"setup:{base}.suit", "data-row": rid, "value": org.get("suit", "S")},
                     [h("option", {"value": suit.letter, "selected": org.get("suit") == suit.letter},
                        f"{suit.symbol} {suit.noun}") for suit in SUITS])),
                 self._text_input(f"{base}.location", org.get("location", ""), "Location", placeholder="Location",
                                  max_len=120, row=rid),
                 button("✕", "conflict:remove-org", rid, cls="btn small ghost remove",
                        aria_label=f"Remove {org.get('name') or 'organization'}"))

    def _text_input(self, path: str, value: str, label: str, cls: str = "", placeholder: str = "",
                    max_len: int = 60, row: str | None = None):
        """A typed field; ``row`` is the stable id of the player/organization it edits."""
        return h("label", {"class": ["field", cls]}, label,
                 h("input", {"type": "text", "data-field": f"setup:{path}", "data-row": row, "value": value,
                             "maxlength": str(max_len), "placeholder": placeholder or None,
                             "autocomplete": "off"}))

    def _scope_select(self, path: str, value: str, label: str, rounds: bool = False):
        """OIC-3: a scope picker; the conflict's one also says how long a round lasts."""
        def text(scope):
            if rounds:
                return f"{scope.label} (power − {scope.offset}, a round is {scope.round_length})"
            return f"{scope.label} (power − {scope.offset})"

        return h("label", {"class": "field"}, label,
                 h("select", {"data-field": f"setup:{path}", "value": value},
                   [h("option", {"value": scope.value, "selected": scope.value == value}, text(scope))
                    for scope in SCOPES]))

    def _conflict_options(self):
        d = self.draft
        names = [side.get("name") or f"Side {i + 1}" for i, side in enumerate(d["sides"])]
        variant_rows = []
        for variant in oic.VARIANTS:
            variant_rows.append(h("div", {"class": "variant"},
                                  h("label", {"class": "field"},
                                    h("span", {}, h("span", {"class": "rule-id"}, variant.rule_id), " ",
                                      variant.label, " ", h("span", {"class": "badge variant"}, "Variant")),
                                    h("select", {"data-field": f"rules:{variant.key}",
                                                 "value": self.rules.get(variant.key)},
                                      [h("option", {"value": value, "selected": self.rules.get(variant.key) == value},
                                         text) for value, text in variant.choices])),
                                  h("p", {"class": "muted small"}, variant.explanation)))
        return h("section", {"class": "panel options", "aria-label": "The conflict"},
                 h("h2", {}, "The conflict"),
                 h("div", {"class": "options-grid"},
                   self._scope_select("scope", d.get("scope", "home"), "Fought at (conflict's scope, OIC-4)", rounds=True),
                   h("label", {"class": "field"}, "Aggressor (opens round 1, OIC-10)",
                     h("select", {"data-field": "setup:aggressor", "value": str(d.get("aggressor", 0))},
                       [h("option", {"value": str(i), "selected": d.get("aggressor", 0) == i}, name)
                        for i, name in enumerate(names)])),
                   h("fieldset", {"class": "deck-mode"},
                     h("legend", {}, "Cards"),
                     *[h("label", {"class": "radio"},
                         h("input", {"type": "radio", "name": "deck-mode", "value": mode,
                                     "data-field": "setup:deck", "checked": d.get("deck") == mode}),
                         h("span", {}, h("strong", {}, title), " — ", text))
                       for mode, title, text in (
                           ("app", "App deck", "the app shuffles and deals; pass the tablet between sides"),
                           ("table", "Table deck", "play with real cards and enter each card played "
                                                   "(the app cannot hold real cards, so it cannot play a side)"))]),
                   self.seed_field()),
                 h("h3", {}, "Rules settings"),
                 h("div", {"class": "variants"}, variant_rows),
                 [h("p", {"class": "muted small"}, h("span", {"class": "badge house"}, "House rule"), " ",
                    rule_ref(rule_id, "conflict"), ": ", text) for rule_id, text in oic.HOUSE_RULES.items()])


    # ---------------- table
    def render_table(self, st):
        # While cards are being chosen the sides shrink to a one-line summary, so the
        # current card, the hand and its actions fit a tablet screen (issue 7); for a
        # spectator, the card on the table and what comes next.
        compact = st.phase in ("discard", "play")
        return h("div", {"class": ["table", f"phase-{st.phase}", compact and "compact"], "data-testid": "table",
                         "data-phase": st.phase},
                 h("p", {"class": "status", "role": "status", "data-testid": "status"},
                   with_rule_refs(oic.status(st), "conflict")),
                 h("div", {"class": "board"},
                   self._side_summary(st, 0) if compact else self._side_panel(st, 0),
                   self._centre(st),
                   self._side_summary(st, 1) if compact else self._side_panel(st, 1)),
                 self._action_area(st),
                 self._app_log(),
                 self._log(st),
                 self._rules_in_play(st))

    def _side_panel(self, st, s: int):
        side = st.sides[s]
        # Safe from engagement: OIC-3's table of thresholds, except at home ground, whose
        # threshold the OIC-4 ruling gives (above 5, so that a card of size 1 is possible).
        safe_rule = "OIC-4" if st.scope is oic.Scope.HOME else "OIC-3"
        rows = []
        for suit, rating, size, org, safe in _suit_ratings(st, s):
            rows.append(h("tr", {"data-suit": suit.letter},
                          h("th", {"scope": "row"}, suit_mark(suit), h("span", {"class": "visually-hidden"}, suit.noun)),
                          h("td", {"class": "rating", "data-testid": f"rating-{s}-{suit.letter}"}, str(rating)),
                          h("td", {"class": "size"}, str(max(size, 0)) if size >= 1 else "faces"),
                          h("td", {"class": "org"}, org.name if org else "—",
                            h("span", {"class": "badge"}, f"safe ({safe_rule})") if safe else None)))
        role = "aggressor" if st.aggressor == s else "defender"
        return h("section", {"class": ["panel side", SIDE_CLASS[s], st.turn == s and "to-play"],
                             "aria-label": side.name, "data-testid": f"side-{s}"},
                 h("h2", {"class": "side-title"}, side.name),
                 h("p", {"class": "muted small"}, f"{side.scope.label} · {role}",
                   " · to play" if st.turn == s else ""),
                 h("table", {"class": "ratings"},
                   h("thead", {}, h("tr", {}, h("th", {"scope": "col"}, h("span", {"class": "visually-hidden"}, "Suit")),
                                    h("th", {"scope": "col"}, "Rating"), h("th", {"scope": "col"}, "Max"),
                                    h("th", {"scope": "col"}, "Best organization"))),
                   h("tbody", {}, rows)))

    def _side_summary(self, st, s: int):
        """A side in one line a suit: rating, max card size, "safe" (OIC-3, OIC-5)."""
        side = st.sides[s]
        chips = []
        for suit, rating, size, org, safe in _suit_ratings(st, s):
            chips.append(h("li", {"class": ["chip", safe and "safe"], "data-suit": suit.letter,
                                  "title": org.name if org else None},
                           suit_mark(suit), h("span", {"class": "visually-hidden"}, f"{suit.noun} rating "),
                           h("span", {"class": "rating", "data-testid": f"rating-{s}-{suit.letter}"}, str(rating)),
                           h("span", {"class": "chip-max"}, f" max {size}" if size >= 1 else " faces"),
                           h("span", {"class": "chip-safe"}, " safe") if safe else None))
        role = "aggressor" if st.aggressor == s else "defender"
        return h("section", {"class": ["panel side compact", SIDE_CLASS[s], st.turn == s and "to-play"],
                             "aria-label": side.name, "data-testid": f"side-{s}"},
                 h("div", {"class": "side-head"}, h("h2", {"class": "side-title"}, side.name),
                   h("span", {"class": "muted small side-role"}, role, " · to play" if st.turn == s else "")),
                 h("ul", {"class": "chips", "aria-label": f"Ratings of {side.name}"}, chips))

    def _centre(self, st):
        first = st.first_card
        current = st.current_card
        about = (h("p", {"class": "about"}, "What the conflict is about: ", suit_mark(first.suit), " ",
                     first.suit.noun, " (first card)") if first else
                 h("p", {"class": "about muted"}, "The aggressor's first card sets what the conflict is about "
                                                  "(OIC-10)."))
        chain = [h("li", {"data-key": f"c{i}", "class": SIDE_CLASS[play.side]},
                   card_view(play.card, "mini", label=f"{st.sides[play.side].name}: {play.card.name}"))
                 for i, play in enumerate(st.chain)]
        centre = (card_view(current, "big", label=f"Current card: {current.name}") if current
                  else card_back("big", "No card played yet"))
        trump = None
        if current is not None and st.phase == "play":  # how to beat the card on the table, while it can be
            beats = oic.trumped_by(current.suit, st.settings)
            trump = h("p", {"class": "muted small"}, "To beat it: a higher ", current.suit.noun,
                      " card, any ", current.suit.noun, " face card, or any ", suit_mark(beats), " ", beats.noun,
                      " card (OIC-11, OIC-12).")
        return h("section", {"class": "centre", "aria-label": "The chain"},
                 about,
                 h("div", {"class": "current", "data-testid": "current-card"}, centre),
                 trump,
                 h("ol", {"class": "chain", "aria-label": "Cards played this round"}, chain) if chain else None)

    # ---------------- what the table does now
    def _turn_key(self, st, extra=None):
        return (st.round, st.phase, st.turn, len(st.chain), extra)

    def _next_discarder(self, st):
        order = [st.aggressor, 1 - st.aggressor]
        for s in order:
            for p, done in enumerate(st.discarded[s]):
                if not done:
                    return s, p
        return None

    def _action_area(self, st):
        if st.phase == "conflict-over":
            return self._over(st)
        if st.phase == "round-over":
            return self._round_over(st)
        if st.spectator:
            return self._spectator_panel(st)
        turn = self._app_turn(st)
        if turn is not None:
            return self._app_panel(st, *turn)
        earlier = self._app_earlier(st)
        if earlier is not None:  # HR-OIC-4: only the app moves its side (its hand stays hidden)
            return self._app_panel(st, *earlier, earlier=True)
        if st.phase == "discard":
            who = self._next_discarder(st)
            s, p = who
            return self._private(st, s, p, "discard")
        if st.deck_mode == "table":
            return self._picker(st)
        return self._private(st, st.turn, None, "play")

    def _over(self, st):
        """The conflict is over: how it ended (OIC-17, or called by the table, OIC-19)."""
        called = st.ending == "called"
        rounds = plural(len(st.results), "round")
        sums = None
        if called:
            sums = h("ul", {"class": "call-sums", "aria-label": "Rating points above the engagement threshold"},
                     [h("li", {"class": SIDE_CLASS[s]}, h("strong", {}, side.name), ": ", oic.call_sum(st, s))
                      for s, side in enumerate(st.sides)])
        again = None if st.spectator else h(
            "div", {"class": "row"},
            button("New conflict with these sides", "conflict:rematch", cls="btn primary"),
            button("Set up a new conflict", "session:new", cls="btn"))
        return h("section", {"class": "panel result over", "role": "status", "data-testid": "result",
                             "data-ending": st.ending, "tabindex": "-1", "data-focus": "result",
                             "aria-labelledby": "conflict-result-title", "aria-describedby": "conflict-end-message"},
                 h("h2", {"id": "conflict-result-title"},
                   "The table ended the conflict" if called else "The conflict is over"),
                 h("p", {"data-testid": "end-message", "id": "conflict-end-message"},
                   with_rule_refs(st.end_message, "conflict")),
                 sums,
                 h("p", {"class": "muted"}, f"{rounds}, {st.elapsed} of in-world time."),
                 again)

    def _round_over(self, st):
        """Between rounds: what the round did; start the next, or end the conflict here (OIC-19)."""
        last = st.results[-1]
        game = self.session.game
        if st.spectator or game is None or not oic.can_next_round(st):
            # A spectator's copy: the status line says what comes next; nothing to tap here.
            nxt = h("p", {"class": "muted", "data-testid": "spectator-wait"}, SNAPSHOT)
        elif self.confirm_call:
            nxt = h("div", {"class": "row sticky-controls confirm", "role": "alertdialog",
                            "aria-label": "End the conflict?", "data-testid": "confirm-call",
                            "aria-describedby": "conflict-call-text"},
                    h("p", {"class": "confirm-text", "id": "conflict-call-text"},
                      f"End the conflict after {plural(len(st.results), 'round')} "
                      f"({st.elapsed})? ", with_rule_refs(oic.call_preview(st), "conflict")),
                    button("End the conflict", "conflict:call-confirmed", cls="btn danger"),
                    button("Keep fighting", "conflict:call-cancel", cls="btn primary", data_focus="confirm"))
        else:
            can_call = oic.can_call(st)
            nxt = h("div", {"class": "row next-or-call"},
                    button(f"Start round {st.round + 1}", "conflict:next-round", cls="btn primary"),
                    button("End the conflict here…", "conflict:call", cls="btn", data_testid="call", data_focus="call")
                    if can_call else None,
                    h("p", {"class": "muted small call-preview", "data-testid": "call-preview"},
                      with_rule_refs(oic.call_preview(st), "conflict")))
        return h("section", {"class": "panel result", "data-testid": "result",
                             "data-change-side": last.change_side, "data-change-suit":
                             last.suit.letter if last.suit else None, "data-delta": last.delta,
                             "data-power-after": last.power_after, "tabindex": "-1", "data-focus": "result",
                             "aria-labelledby": "conflict-result-title", "aria-describedby": "conflict-explanation"},
                 h("h2", {"id": "conflict-result-title"}, last.headline),
                 h("p", {"class": "explanation", "data-testid": "explanation", "id": "conflict-explanation"},
                   last.explanation),
                 h("p", {"class": "muted small"}, "Why: ", rule_ref("OIC-15", "conflict"),
                   " who wins and what changes; ", rule_ref("OIC-16", "conflict"), " ",
                   h("span", {"class": "badge ruling"}, "Ruling"), " which organization's power moves."),
                 h("p", {"class": "muted small"}, h("span", {"class": "badge house"}, "House rule"), " ",
                   rule_ref(last.house_rule, "conflict"), ": ", oic.HOUSE_RULES[last.house_rule])
                 if last.house_rule else None,
                 nxt)

    def _spectator_panel(self, st):
        """A spectator's copy during a round: where the table stood, and nothing to tap."""
        name = st.sides[st.turn].name
        current = st.current_card
        if current is None:
            now = ("the sides draw and discard their cards (", rule_ref("OIC-8", "conflict"), "), then ", name,
                   " opens round ", str(st.round), " (", rule_ref("OIC-10", "conflict"), ").")
        else:
            now = (name, " plays on the ", current.label, " or passes, which ends the round (",
                   rule_ref("OIC-11", "conflict"), ", ", rule_ref("OIC-15", "conflict"), ").")
        return h("section", {"class": ["panel spectator-now", SIDE_CLASS[st.turn]], "role": "status",
                             "data-testid": "spectator-wait"},
                 h("h2", {}, "At the table"),
                 h("p", {}, "Next, ", *now),
                 h("p", {"class": "muted small"}, "The hands stay hidden: only the cards played are shown. ",
                   SNAPSHOT))

    def _curtain(self, st, s: int, p: int | None, purpose: str, key):
        side = st.sides[s]
        who = side.name if p is None or len(side.players) == 1 else f"{side.players[p].name} ({side.name})"
        task = "to discard and refill (OIC-8)" if purpose == "discard" else "to play"
        # The button ignores taps for a moment after the curtain appears (a double tap's
        # second tap must not open the next hand) and comes first, in the curtain's top
        # line, where the hand had its heading, not its cards.
        return curtain(who, task, "conflict:reveal", json.dumps(key), cls=SIDE_CLASS[s],
                       disabled=self.curtain_held)

    def _private(self, st, s: int, p: int | None, purpose: str):
        key = self._turn_key(st, p)
        if self._only_people_side(s):
            if self._auto_shown != key:  # no curtain: a new turn scrolls the play area up once
                self._auto_shown = key
                self.scroll_to_play = True
        elif self.revealed != key:
            return self._curtain(st, s, p, purpose, key)
        side = st.sides[s]
        players = [p] if p is not None else list(range(len(side.players)))
        legal = {(pl, str(card)) for pl, card in oic.legal_plays(st)} if purpose == "play" else set()
        hands = []
        focus_named = False  # the first playable card (or, discarding, the first card) is "hand"
        for pl in players:
            hand = sorted(st.hands[s][pl], key=table_order)
            sizes = oic.player_max_sizes(st, s, pl)
            groups = []
            for suit in SUITS:
                cards = [c for c in hand if c.suit == suit]
                if not cards:
                    continue
                size = sizes[suit]
                tiles = []
                for card in cards:
                    usable = oic.is_usable(card, size)
                    if purpose == "discard":
                        chosen = str(card) in self.selected
                        tiles.append(card_button(card, "conflict:select", str(card),
                                                 "selected" if chosen else "", "" if usable else "unusable",
                                                 pressed=chosen,
                                                 label=f"{card.name}{'' if usable else ' (unusable)'}"))
                        ok = True
                    else:
                        ok = (pl, str(card)) in legal
                        tiles.append(card_button(card, "conflict:play", f"{pl}.{card}",
                                                 "playable" if ok else "blocked",
                                                 label=f"{'Play' if ok else 'Cannot play'} {card.name}"))
                    if ok and not focus_named:
                        tiles[-1].attrs["data-focus"] = "hand"
                        focus_named = True
                groups.append(h("div", {"class": "suit-row", "data-key": f"{pl}{suit.letter}"},
                                h("div", {"class": "suit-head"}, suit_mark(suit),
                                  h("span", {}, f"max {size}" if size >= 1 else "faces only"),
                                  h("span", {"class": "muted small"}, oic.max_size_reason(st, s, pl, suit))),
                                h("div", {"class": "hand-cards"}, tiles)))
            title = side.players[pl].name if len(side.players) > 1 else side.name
            hands.append(h("div", {"class": "hand", "data-key": f"hand{pl}", "role": "group",
                               "aria-label": f"Hand of {title}"},
                           h("h3", {}, f"{title} — {plural(len(hand), 'card')}"),
                           h("div", {"class": "suit-grid"}, groups)))
        if purpose == "discard":
            count = len(self.selected)
            explain = h("p", {"class": "muted small hand-help"},
                        "Tap the cards to throw away; you draw as many new ones (one discard per round, ",
                        rule_ref("OIC-8", "conflict"), "). Dimmed cards are above your max card size (",
                        rule_ref("OIC-5", "conflict"), "; an ace counts 1, ruling ", rule_ref("OIC-6", "conflict"),
                        ").")
            controls = h("div", {"class": "row sticky-controls"},
                         button(f"Discard {count} and draw {count}" if count else "Keep all cards",
                                "conflict:discard", cls="btn primary"),
                         button("Select unusable cards", "conflict:select-unusable", cls="btn"),
                         None if self._only_people_side(s) else button("Hide hand", "conflict:hide",
                                                                      cls="btn ghost"))
        else:
            can = bool(legal)
            explain = h("p", {"class": "muted small hand-help"},
                        ["Highlighted cards can be played (", rule_ref("OIC-11", "conflict"),
                         "); tap any other to hear why not."] if can else
                        ["No card in this hand can be played: the round ends (",
                         rule_ref("OIC-15", "conflict"), ")."])
            if self.confirm_pass and can:
                n = len(legal)
                controls = h("div", {"class": "row sticky-controls confirm", "role": "alertdialog",
                                     "aria-label": "End the round?", "data-testid": "confirm-pass",
                                     "aria-describedby": "conflict-confirm-text"},
                             h("p", {"class": "confirm-text", "id": "conflict-confirm-text"},
                               f"{n} card{'s' if n != 1 else ''} in this hand could be played (highlighted). "
                               "End the round anyway? (", rule_ref("OIC-15", "conflict"), ")"),
                             button("End the round", "conflict:pass-confirmed", cls="btn danger"),
                             button("Keep playing", "conflict:pass-cancel", cls="btn primary", data_focus="confirm"))
            else:
                controls = h("div", {"class": "row sticky-controls"},
                             button("Pass — end the round", "conflict:pass",
                                    cls=["btn", "danger" if can else "primary"], data_focus="pass"),
                             None if self._only_people_side(s) else button("Hide hand", "conflict:hide",
                                                                          cls="btn ghost"))
        return h("section", {"class": ["panel private", SIDE_CLASS[s]], "data-testid": "hand"},
                 h("p", {"class": "msg-error refusal", "role": "alert", "data-testid": "refusal"},
                   with_rule_refs(self.notice, "conflict")) if self.notice else None,
                 explain, hands, controls)

    def _picker(self, st):
        s = st.turn
        side = st.sides[s]
        legal = {(pl, str(card)) for pl, card in oic.legal_plays(st)}
        p = min(self.table_player, len(side.players) - 1)
        shared = st.settings.get("deck") == "shared"
        played = {str(play.card) for play in st.chain if shared or play.side == s}
        sizes = oic.player_max_sizes(st, s, p)

        def head(suit):
            return h("div", {"class": "suit-head"},
                     h("span", {}, suit_mark(suit), " ", f"max {sizes[suit]}" if sizes[suit] >= 1 else "faces only"),
                     h("span", {"class": "muted small"}, oic.max_size_reason(st, s, p, suit)))

        rows = card_picker("conflict:pick",
                           lambda c: ("playable" if (p, str(c)) in legal else "blocked",
                                      "played" if str(c) in played else ""),
                           labels=lambda c: f"{c.name}{' (already played)' if str(c) in played else ''}",
                           heads=head, order=table_order, suits=SUITS)
        chooser = None
        if len(side.players) > 1:
            chooser = h("div", {"class": "row", "role": "radiogroup", "aria-label": "Who plays"},
                        [button(pl.name, "conflict:table-player", str(i), cls=["btn small", i == p and "on"],
                                role="radio", aria_checked="true" if i == p else "false")
                         for i, pl in enumerate(side.players)])
        return h("section", {"class": ["panel picker", SIDE_CLASS[s]], "data-testid": "picker", "tabindex": "-1",
                             "data-focus": "picker", "aria-labelledby": "conflict-picker-title"},
                 h("h3", {"id": "conflict-picker-title"}, f"{side.name}: tap the card you play"),
                 chooser,
                 h("p", {"class": "msg-error refusal", "role": "alert", "data-testid": "refusal"},
                   with_rule_refs(self.notice, "conflict")) if self.notice else None,
                 rows,
                 h("div", {"class": "row sticky-controls"},
                   h("p", {"class": "muted"}, "Highlighted cards would be legal (", rule_ref("OIC-5", "conflict"), ", ",
                     rule_ref("OIC-11", "conflict"), "); the app checks every card you enter."),
                   button("Pass — end the round", "conflict:pass", cls="btn danger")))

    # ---------------- solo: the app plays a side (engine.conflict.opponent)
    def _levels(self):
        game = self.session.game
        return opponent.controllers(game.setup) if game is not None else (None, None)

    def _only_people_side(self, s: int) -> bool:
        """With the app on the other side, nobody is there to hide this hand from."""
        levels = self._levels()
        return levels[s] is None and levels[1 - s] is not None

    def _app_turn(self, st):
        game = self.session.game
        if game is None or all(level is None for level in self._levels()):
            return None
        return opponent.app_turn(game, st)

    def _app_earlier(self, st):
        """(side, level) when the game shows an earlier point of its history (History, Undo) where
        a side the app plays is to move: the app moves only at the newest point (it never drops
        the redo stack by itself), and people never move for it (HR-OIC-4)."""
        game = self.session.game
        if game is None or st.deck_mode != "app" or game.position == len(game.actions):
            return None
        who = opponent.to_act(st)
        if who is None:
            return None
        level = self._levels()[who[0]]
        return None if level is None else (who[0], level)

    def _app_panel(self, st, s: int, level: str, earlier: bool = False):
        side = st.sides[s]
        held = sum(len(hand) for hand in st.hands[s])
        doing = "discards" if st.phase == "discard" else "plays"
        text = (f"{side.name} (the app, {opponent.LEVEL_LABELS[level]}) {doing} here: its move is next in the "
                "history (Redo).") if earlier else \
            f"{side.name} (the app, {opponent.LEVEL_LABELS[level]}) {doing}…"
        return h("section", {"class": ["panel app-turn", SIDE_CLASS[s]], "role": "status", "data-testid": "app-turn"},
                 h("p", {"class": "app-turn-text"}, text),
                 h("p", {"class": "muted small"}, f"Its hand stays hidden: {plural(held, 'card')}."))

    def _app_moves(self):
        """The app's moves of this round, newest first: (side name, why)."""
        game = self.session.game
        if game is None or all(level is None for level in self._levels()):
            return []
        actions = game.actions[:game.position]
        start = max((i + 1 for i, a in enumerate(actions) if a.get("type") == "next_round"), default=0)
        names = [side["name"] for side in game.setup["sides"]]
        lines = []
        for action in actions[start:]:
            why = action.get("why")
            side = action.get("side")  # the app's moves always name their side
            if isinstance(why, str) and why and side in (0, 1) and not isinstance(side, bool):
                lines.append((names[side], why))
        return lines[::-1]

    def _app_log(self):
        lines = self._app_moves()
        if not lines:
            return None
        return h("section", {"class": "panel app-log", "aria-label": "The app's moves this round",
                             "data-testid": "app-log"},
                 h("h2", {}, "The app this round"),
                 h("ol", {"class": "app-log-list", "reversed": True},
                   [h("li", {"data-key": f"a{len(lines) - i}"}, h("strong", {}, name), " ", why)
                    for i, (name, why) in enumerate(lines)]))

    # the app's timer and Undo for the person: ToolView
    def app_plays(self) -> bool:
        return not all(level is None for level in self._levels())

    def app_due(self, st) -> bool:
        return self._app_turn(st) is not None

    def app_move(self) -> bool:
        turn = opponent.app_turn(self.session.game)
        if turn is None:
            return False
        side, level = turn
        try:
            decision = opponent.decide(self.session.state, side, level)
        except ValueError as err:
            self.app.toast(f"The app could not move: {err}", "error")
            return False
        self.session.act(decision.action)
        return True

    def app_undo_target(self, game):
        return opponent.undo_target(game)

    def _log(self, st):
        notes = [h("p", {"class": "muted small upgrade-note", "data-testid": "upgrade-note"}, oic.UPGRADE_NOTES[note])
                 for note in st.notes]
        if not st.results and not notes:
            return None
        called = None
        if st.ending == "called":  # not a round: above the numbered rounds
            called = h("p", {"class": "called", "data-testid": "log-called"},
                       h("strong", {}, f"After round {len(st.results)}: the table ended the conflict."), " ",
                       with_rule_refs(st.end_message, "conflict"))
        items = []
        for r in reversed(st.results):
            items.append(h("li", {"data-key": f"r{r.number}"},
                           h("strong", {}, r.headline), " ",
                           h("span", {"class": "muted"}, f"({r.elapsed} in)"), h("br", {}),
                           r.explanation))
        return h("section", {"class": "panel log", "aria-label": "Conflict log"},
                 h("h2", {}, "Conflict log"),
                 notes,
                 h("p", {"class": "muted small"}, "In-world time so far: ", st.elapsed, " (",
                   rule_ref("OIC-3", "conflict"), ", ", rule_ref("OIC-17", "conflict"), ")."),
                 called,
                 h("ol", {"class": "log-list", "reversed": True}, items) if items else None)

    def _rules_in_play(self, st):
        settings = st.settings
        return h("details", {"class": "panel rules-in-play"},
                 h("summary", {}, "Rules in play"),
                 h("ul", {}, [h("li", {}, h("span", {"class": "rule-id"}, v.rule_id), " ",
                                h("span", {"class": "badge variant"}, "Variant"), " ", v.label, ": ",
                                v.describe(settings[v.key])) for v in oic.VARIANTS],
                   [h("li", {}, rule_ref(rid, "conflict"), " ",
                      h("span", {"class": "badge house"}, "House rule"), " ", text)
                    for rid, text in oic.HOUSE_RULES.items()],
                   seat_house_rules(),
                   h("li", {}, h("span", {"class": "badge ruling"}, "Rulings"), " Where the source is silent or "
                     "contradicts itself, the app follows these rulings: ",
                     [[rule_ref(rid, "conflict"), " "] for rid in oic.RULINGS])))

    # ------------------------------------------------------------ events
    #: Where the focus goes after an action that changes the table (issue 14): the
    #: first of these marked elements that is on the screen (see App.focus_to).
    NEXT = ("confirm", "hand", "pass", "curtain", "result", "picker")

    def escape(self) -> bool:
        """Escape closes a drawer, else the "end the round?" question."""
        if self.session.escape():
            return True
        if self.confirm_pass:
            self.confirm_pass = False
            self.app.focus_to("pass")
            return True
        if self.confirm_call:
            self.confirm_call = False
            self.app.focus_to("call", "result")
            return True
        return False

    def on_example(self, arg, event) -> None:
        self.draft = with_ids(oic.purple_dragon_setup())
        self.setup_error = None
        self._save_draft()

    def on_add_org(self, arg, event) -> None:
        if not arg:
            return
        at = find_row(self.draft, arg)
        if at is not None and at[2] is None:
            orgs = self.draft["sides"][at[0]]["players"][at[1]]["organizations"]
            used = {o.get("suit") for o in orgs}
            org = blank_org(next((x.letter for x in SUITS if x.letter not in used), "S"), len(orgs) + 1)
            org["id"] = self._new_id()
            orgs.append(org)
            self._save_draft()

    def on_remove_org(self, arg, event) -> None:
        if not arg:
            return
        at = find_row(self.draft, arg)  # a row already gone is not removed twice
        if at is not None and at[2] is not None:
            del self.draft["sides"][at[0]]["players"][at[1]]["organizations"][at[2]]
            self._save_draft()

    def on_add_player(self, arg, event) -> None:
        (s,) = _index(arg)
        players = self.draft["sides"][s]["players"]
        if len(players) < 8:
            player = {"name": unused_player_name(self.draft), "id": self._new_id(), "organizations": []}
            players.append(player)
            org = blank_org()
            org["id"] = self._new_id()
            player["organizations"].append(org)
        self._save_draft()

    def on_remove_player(self, arg, event) -> None:
        if not arg:
            return
        at = find_row(self.draft, arg)
        if at is not None and at[2] is None and len(self.draft["sides"][at[0]]["players"]) > 1:
            del self.draft["sides"][at[0]]["players"][at[1]]
        self._save_draft()

    def on_start(self, arg, event) -> None:
        self._start()

    def on_reveal(self, arg, event) -> None:
        st = self.session.state
        if st is None:
            return
        if self.curtain_held:
            return  # a tap that began before the curtain appeared
        self.revealed = tuple(json.loads(arg)) if arg else None
        self.notice = None
        self.scroll_to_play = True

    def on_hide(self, arg, event) -> None:
        self.revealed = None
        self.confirm_pass = False
        self._hold_curtain()

    def on_select(self, arg, event) -> None:
        if not arg:
            return
        self.selected ^= {arg}

    def on_select_unusable(self, arg, event) -> None:
        st = self.session.state
        if st is None or st.phase != "discard":
            return
        s, p = self._next_discarder(st)
        sizes = oic.player_max_sizes(st, s, p)
        self.selected = {str(c) for c in st.hands[s][p] if not oic.is_usable(c, sizes[c.suit])}

    def on_discard(self, arg, event) -> None:
        st = self.session.state
        if st is None or st.phase != "discard":
            return
        s, p = self._next_discarder(st)
        if self.session.act({"type": "discard", "side": s, "player": p, "cards": sorted(self.selected)}):
            self.selected = set()

    def on_play(self, arg, event) -> None:
        st = self.session.state
        if not arg or st is None:
            return
        pl, _, token = arg.partition(".")
        self._play(int(pl), token)

    def on_pick(self, arg, event) -> None:
        st = self.session.state
        if not arg or st is None:
            return
        self._play(min(self.table_player, len(st.sides[st.turn].players) - 1), arg)
        self.scroll_to_play = True  # the next entry starts from the same place

    def on_table_player(self, arg, event) -> None:
        if not arg:
            return
        self.table_player = int(arg)
        self.notice = None

    def on_pass(self, arg, event) -> None:
        st = self.session.state
        if st is None:
            return
        # OIC-15: passing ends the round; with playable cards in the hand, ask first.
        if st.deck_mode != "table" and oic.legal_plays(st) and not self.confirm_pass:
            self.confirm_pass = True
        else:
            self.session.act({"type": "pass"})

    def on_pass_confirmed(self, arg, event) -> None:
        st = self.session.state
        if st is None:
            return
        self.session.act({"type": "pass"})

    def on_pass_cancel(self, arg, event) -> None:
        self.confirm_pass = False

    def on_next_round(self, arg, event) -> None:
        self.session.act({"type": "next_round"})

    def on_call(self, arg, event) -> None:
        st = self.session.state
        if st is None or st.phase != "round-over":
            return
        self.confirm_call = True  # OIC-19: ending the conflict asks first

    def on_call_confirmed(self, arg, event) -> None:
        st = self.session.state
        if st is None:
            return
        self.confirm_call = False
        self.session.act({"type": "call"})

    def on_call_cancel(self, arg, event) -> None:
        self.confirm_call = False

    def on_rematch(self, arg, event) -> None:
        if self.session.game is None:
            return
        # The sides as they were set up (before any rating changed), same rules.
        self.draft = with_ids(engine_setup(self.session.game.setup))
        self.rules = dict(self.session.game.rules)
        self._save_draft()
        self.session.close()

    #: Every tap of the conflict table: action name → what it does.
    ACTIONS = {"example": on_example, "add-org": on_add_org, "remove-org": on_remove_org,
               "add-player": on_add_player, "remove-player": on_remove_player, "start": on_start,
               "reveal": on_reveal, "hide": on_hide, "select": on_select, "select-unusable": on_select_unusable,
               "discard": on_discard, "play": on_play, "pick": on_pick, "table-player": on_table_player,
               "pass": on_pass, "pass-confirmed": on_pass_confirmed, "pass-cancel": on_pass_cancel,
               "next-round": on_next_round, "call": on_call, "call-confirmed": on_call_confirmed,
               "call-cancel": on_call_cancel, "rematch": on_rematch}
    FOCUS = {**dict.fromkeys(("start", "reveal", "hide", "discard", "pass", "pass-confirmed", "next-round", "call",
                              "call-confirmed"), NEXT),
             "pass-cancel": ("pass",), "call-cancel": ("call", "result"),
             "pick": ("result",)}  # otherwise the focus stays on the card entered

    def _play(self, player: int, token: str) -> None:
        """Play a tapped card; a refusal (with its rule id) stays beside the hand (and the
        focus on the card)."""
        self.notice = self.session.try_act({"type": "play", "player": player, "card": token})
        if self.notice is None and self.session.state.deck_mode != "table":
            self.app.focus_to(*self.NEXT)

    def _start(self) -> None:
        if self.start_game("conflict", engine_setup(self.draft), self.rules, game_name):
            self.scroll_to_play = self.session.game.setup.get("deck") == "table"  # the picker, in view

    def field(self, name: str, value: str, live: bool, row: str | None = None) -> bool:
        """A form control changed; returns whether the screen needs redrawing.

        ``row`` is the stable id of the setup row the control belongs to: when the
        row at the control's place is no longer that row (it was removed), the value
        is dropped rather than written onto its neighbour.
        """
        if self.session.field(name, value):
            return False
        if name == "seed":
            self.seed_text = value
            return not live
        if name.startswith("solo:"):
            index = name[5:]
            if index in ("0", "1"):
                side = self.draft["sides"][int(index)]
                if value in opponent.LEVELS:
                    side["controller"], side["level"] = "app", value
                else:
                    side.pop("controller", None)
                    side.pop("level", None)
                self.setup_error = None
                self._save_draft()
            return True
        if name.startswith("rules:"):
            key = name[6:]
            if key in self.rules:
                self.rules[key] = value
                self._save_draft()
            return True
        if not name.startswith("setup:"):
            return False
        path = name[6:].split(".")
        target = draft_row(self.draft, path[:-1])
        if target is None:
            return True  # a control of a row just removed: nothing to keep, redraw
        if row is not None and (not isinstance(target, dict) or target.get("id") != row):
            return True  # its row moved or went: never write onto another row
        last = path[-1]
        if last == "power":
            text = value.strip()
            target[last] = int(text) if whole(text.lstrip("-")) and text.count("-") <= 1 else text
        elif last == "aggressor":
            target[last] = int(value) if whole(value) else 0
        else:
            target[last] = value
        self.setup_error = None
        self._save_draft()
        # Typing a name re-renders only when the change is committed; numbers and
        # choices update the live card sizes at once.
        return not live or last in ("power", "suit", "scope", "deck", "aggressor")
