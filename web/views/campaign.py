"""The campaign table (Campaign with a poker-hand treaty, CMP-1 … CMP-12).

Two screens: the setup (two players, or one against the dummy; the app's deck and
dice or the players' own) and the table: both players' card counts and face-up
stakes, the pool, the battle to record, the spoils to take, the exhaustion roll,
the hidden hands behind the pass-the-tablet curtain, the negotiating table and the
log. With the players' own deck (issue 18) the hands stay in their hands and the
table enters what is revealed with the shared 52-card picker: the pool, each stake,
each new pool card, the dice, the hands laid down at the table. A pick is a draft
until it is recorded (one tap takes it back). Every rule decision comes from
:mod:`engine.campaign`; this module only draws the state and turns taps into actions.
"""

from __future__ import annotations

from engine import campaign as cmp
from engine.cards import Card
from engine.game import RuleError
from engine.text import text_problem
from web import platform
from web.dom import button, h
from web.parts.cards import card_back, card_button, card_picker, card_view
from web.parts.chances import shares
from web.parts.curtain import CurtainGuard, curtain
from web.parts.dice import die_faces
from web.parts.rulebits import rule_ref, seat_house_rules, with_rule_refs
from web.parts.tool import ToolView, whole
from web.session import Session
from web.store import clean_name

DRAFT_KEY = "ct:v1:draft:campaign"
SIDE_CLASS = ("side-a", "side-b")


def clean_draft(data) -> tuple[dict | None, list[str]]:
    """The kept setup form ``{"mode", "names", "deck"}`` checked field by field (issue 35):
    ``(form, notes)``, a field that is missing taking its default silently, one of the
    wrong kind with a note; ``(None, [])`` when nothing is kept."""
    if data is None:
        return None, []
    form = {"mode": "two", "names": ["", ""], "deck": "app"}
    if not isinstance(data, dict):
        return form, ["the setup form was not a form, so it starts afresh"]
    notes = []
    mode = data.get("mode", "two")
    if isinstance(mode, str) and mode in ("two", "solo"):
        form["mode"] = mode
    else:
        notes.append("who plays was not one of the choices (two players now)")
    deck = data.get("deck", "app")
    if isinstance(deck, str) and deck in cmp.DECKS:
        form["deck"] = deck
    else:
        notes.append("the cards and dice were not one of the choices (the app's now)")
    names = data.get("names", ["", ""])
    if isinstance(names, list) and len(names) == 2 and all(isinstance(n, str) for n in names):
        form["names"] = [(clean_name(n) or "")[:40] for n in names]
        if any(text_problem(n) for n in names):
            notes.append("a player's name held invisible or control characters, which were taken out")
    else:
        notes.append("the players' names could not be read, so they are empty")
    return form, notes


def game_name(game) -> str:
    """A save's name: "Anna vs Ben"."""
    first, second = game.setup["players"]
    return f"{first} vs {second}"


def cmp_label(token: str) -> str:
    """A card token as the table shows it: "10♦"."""
    return Card.parse(token).label


def spectator_status(st) -> str:
    """What a spectator's copy can truly say about the table (it takes no move, issue 21)."""
    if st.phase == "over":
        return st.result
    if st.phase == "spoils" and st.pending is not None:
        return f"Battle {st.battle}: {st.name(st.pending[0])} won; the spoils are being chosen (CMP-4)"
    if st.phase == "exhaustion":
        return f"Battle {st.fought} fought: the exhaustion roll comes next (CMP-6)"
    if st.phase == "exhausted":
        if st.laid:
            return f"At the negotiating table: {st.name(0)} has laid down; {st.name(1)} is next (CMP-7)"
        return "Both sides are exhausted: the negotiating table comes next (CMP-7)"
    if st.phase == "deal":
        return "The cards are being dealt; the pool comes next (CMP-1)"
    if st.phase == "stakes":
        return f"Battle {st.battle}: the stakes are being turned up (CMP-2)"
    if st.phase == "refill":
        return f"Battle {st.battle}: a new pool card is being drawn (CMP-4)"
    return f"Battle {st.battle}: the stakes are out and the battle is fought on the tabletop (CMP-3)"


class CampaignView(ToolView):
    route = "campaign"

    def __init__(self, app) -> None:
        self.app = app
        self.session = Session(app, "campaign", "Campaign", on_change=self._reset_view, namer=game_name)
        self.mode = "two"  # "two" players or "solo" against the dummy
        self.deck = "app"  # "app": the app's deck and dice; "table": the players' own (issue 18)
        self.names = ["", ""]
        self.seed_text = ""
        self.setup_error: str | None = None
        self.revealed: int | None = None  # whose hand the tablet shows
        self.pick: str | None = None  # "0", "1" or "draw": the battle being recorded
        self.troops_text = ""
        self.notice: str | None = None  # why the last tap was refused
        self.guard = CurtainGuard(self._now)
        self._odds: dict = {}
        # Own deck: the cards picked for the entry on the table (a draft until recorded).
        self.entry: list[str] = []
        self.entry_drawn: list[str] = []
        self.dice: list[int | None] = [None, None]

    @staticmethod
    def _now() -> float:
        return platform.now_ms()

    # ------------------------------------------------------------ lifecycle
    def boot(self) -> None:
        form = self.read_kept(DRAFT_KEY, clean_draft, "the setup form")
        if form is not None:
            self.mode, self.names, self.deck = form["mode"], form["names"], form["deck"]
        self.tell_kept("The kept campaign setup could not be used as it was")
        self.session.boot()

    def _reset_view(self) -> None:
        """After every change of the game: hands hidden again, the battle form cleared."""
        self.revealed = None
        self.pick = None
        self.troops_text = ""
        self.notice = None
        self.entry = []
        self.entry_drawn = []
        self.dice = [None, None]

    def _save_draft(self) -> None:
        self.keep_json(DRAFT_KEY, {"mode": self.mode, "names": self.names, "deck": self.deck})

    # ------------------------------------------------------------ rendering
    def render(self):
        if self.session.state is None:
            self.guard.drawn(None)
        return super().render()

    # ---------------- setup
    def render_setup(self):
        solo = self.mode == "solo"
        modes = (("two", "Two players", "each with a hidden hand; pass the tablet to look at it"),
                 ("solo", "Solo against the dummy", "the dummy's cards stay hidden until the table (CMP-9)"))
        decks = (("app", "The app's deck and dice", "it deals, keeps the hands behind the curtain and rolls"),
                 ("table", "Our own deck and dice", "the hands stay in your hands; you enter the pool, each stake, "
                                                    "the new pool cards and the dice as they are revealed"))
        return h("div", {"class": "setup campaign-setup", "data-testid": "setup"},
                 h("section", {"class": "panel", "aria-label": "New campaign"},
                   h("h2", {}, "New campaign"),
                   h("p", {"class": "muted", "data-testid": "setup-intro"},
                     *(("You deal six cards to each side from your own deck, kept hidden in your hands, and four "
                        "face up to the pool (", rule_ref("CMP-1", "campaign"), "); the app records the pool, each "
                        "stake and the new pool cards as you reveal them, and keeps the counts while you fight the "
                        "battles on the tabletop.") if self.deck == "table" else
                       ("The app deals six hidden cards to each side and four face up to the pool (",
                        rule_ref("CMP-1", "campaign"), "), picks the stakes, and keeps the cards while you fight "
                        "the battles on the tabletop."))),
                   h("fieldset", {"class": "deck-mode"},
                     h("legend", {}, "Players"),
                     [h("label", {"class": "radio"},
                        h("input", {"type": "radio", "name": "campaign-mode", "value": mode,
                                    "data-field": "campaign:mode", "checked": self.mode == mode}),
                        h("span", {}, h("strong", {}, title), " — ", text)) for mode, title, text in modes]),
                   h("fieldset", {"class": "deck-mode", "data-testid": "deck-choice"},
                     h("legend", {}, "Cards and dice"),
                     [h("label", {"class": "radio"},
                        h("input", {"type": "radio", "name": "campaign-deck", "value": deck,
                                    "data-field": "campaign:deck", "checked": self.deck == deck}),
                        h("span", {}, h("strong", {}, title), " — ", text)) for deck, title, text in decks]),
                   h("div", {"class": "options-grid"},
                     self._name_input(0, "Player 1 name", "Player 1"),
                     self._name_input(1, "The dummy's name" if solo else "Player 2 name",
                                      "Dummy" if solo else "Player 2"),
                     self.seed_field()),
                   self._house_rules(),
                   h("p", {"class": "msg-error", "role": "alert"}, self.setup_error) if self.setup_error else None,
                   h("div", {"class": "row start-row"},
                     button("Start the campaign", "campaign:start", cls="btn primary big"))))

    def _name_input(self, index: int, label: str, placeholder: str):
        return h("label", {"class": "field"}, label,
                 h("input", {"type": "text", "data-field": f"campaign:name{index}", "value": self.names[index],
                             "maxlength": "40", "placeholder": placeholder, "autocomplete": "off"}))

    def _house_rules(self):
        return [h("p", {"class": "muted small"}, h("span", {"class": "badge house"}, "House rule"), " ",
                  rule_ref(rule_id, "campaign"), ": ", text) for rule_id, text in cmp.HOUSE_RULES.items()]


    # ---------------- table
    def render_table(self, st):
        watching = self.spectator or st.public
        hands = None if watching or st.phase == "over" else (self._own_hands(st) if st.table_deck
                                                              else self._hands(st))
        if hands is None:
            self.guard.drawn(None)
        status = spectator_status(st) if watching else cmp.status(st)
        return h("div", {"class": ["table campaign-table", f"phase-{st.phase}"], "data-testid": "table",
                         "data-phase": st.phase},
                 h("p", {"class": "status", "role": "status", "data-testid": "status"},
                   with_rule_refs(status, "campaign")),
                 h("div", {"class": "campaign-board"},
                   self._player_panel(st, 0), self._centre(st), self._player_panel(st, 1)),
                 h("p", {"class": "msg-error refusal", "role": "alert", "data-testid": "refusal"},
                   with_rule_refs(self.notice, "campaign")) if self.notice and not watching else None,
                 h("div", {"class": ["campaign-play", hands is not None and not st.table_deck and "with-hands"]},
                   self._spectator_note(st) if watching and st.phase != "over" else self._action_area(st),
                   hands),
                 self._log(st),
                 self._rules_in_play())

    def _player_panel(self, st, p: int):
        count = st.card_count(p)
        stake = st.stakes[p]
        dummy = st.dummy and p == 1
        last = stake is not None and st.counts[p] == 0
        if stake is not None:
            shown = card_view(stake, "stake", label=f"{st.name(p)}'s stake: {stake.name}")
        else:
            shown = h("div", {"class": "card stake empty", "aria-hidden": "true"})
        return h("section", {"class": ["panel campaign-player", SIDE_CLASS[p]], "aria-label": st.name(p),
                             "data-testid": f"player-{p}"},
                 h("div", {"class": "stake-slot", "data-testid": f"stake-{p}"}, shown,
                   h("div", {"class": "player-facts"},
                     h("h2", {"class": "side-title"}, st.name(p),
                       h("span", {"class": "badge"}, "dummy") if dummy else None),
                     h("p", {"class": "card-count", "data-testid": f"count-{p}"},
                       f"{count} card{'s' if count != 1 else ''}"),
                     h("span", {"class": "muted small"}, "stake (CMP-2)" if stake is not None else "no stake out"),
                     h("span", {"class": "badge note"}, "last card") if last else None)))

    def _centre(self, st):
        pool = [h("li", {"data-key": str(c)}, card_view(c, label=f"Pool: {c.name}")) for c in st.pool]
        deck = cmp.deck_left(st) if not st.public or st.table_deck else None
        meta = [f"Battle {st.battle}", f"{st.fought} fought"]
        if deck is not None:
            meta.append(f"deck {deck}")
        return h("section", {"class": "campaign-centre", "aria-label": "The pool"},
                 h("ul", {"class": "pool", "data-testid": "pool"}, pool),
                 h("p", {"class": "muted small pool-meta", "data-testid": "battles"},
                   h("strong", {}, "Pool"), " (", rule_ref("CMP-4", "campaign"), ") · ", " · ".join(meta)))

    def _spectator_note(self, st):
        """A spectator's copy shows the table as it was when the link was shared: what comes
        next, in words that are true there (no move is offered, issue 21)."""
        last_roll = st.rolls[-1] if st.rolls and st.rolls[-1].battles == st.fought else None
        return h("section", {"class": "panel result spectator-note", "data-testid": "spectator"},
                 self._dice(last_roll) if last_roll is not None and st.phase in ("battle", "exhausted") else None,
                 h("h2", {}, "What the table can see"),
                 h("p", {}, "The pool, the stakes, each player's card count and the log: every card that was "
                            "face up. The hands and the deck are not in this copy, and nothing here can be "
                            "played."),
                 h("p", {"class": "muted"}, "It shows the table as it was when the link was shared; a newer "
                                            "link shows what happened since."))

    # ---------------- what the table does now
    def _action_area(self, st):
        if st.phase in ("deal", "stakes", "refill") or (st.table_deck and st.phase == "exhausted"):
            return self._entry(st)
        if st.phase == "battle":
            return self._record(st)
        if st.phase == "spoils":
            return self._spoils(st)
        if st.phase == "exhaustion":
            return self._exhaustion(st)
        if st.phase == "exhausted":
            last_roll = st.rolls[-1] if st.rolls and st.rolls[-1].battles == st.fought else None
            certain = None
            if last_roll is None:  # CMP-6: after battle 8 the roll cannot fail, so it is not rolled
                certain = h("p", {"class": "odds-line", "data-testid": "no-roll"},
                            f"No exhaustion roll after battle {st.fought}: it cannot fail — even a 1 on the lower "
                            f"die makes 1 + {st.fought} = {1 + st.fought}, 9 or more (",
                            rule_ref("CMP-6", "campaign"), ").")
            return h("section", {"class": "panel campaign-action", "data-testid": "exhausted"},
                     self._dice(last_roll) if last_roll else certain,
                     h("h2", {}, "Both sides are exhausted"),
                     h("p", {}, "Each side makes its best five-card poker hand from all its own cards; a side with "
                                "fewer than five draws up to five (", rule_ref("CMP-7", "campaign"), ")",
                       [", and the dummy draws one card more (", rule_ref("CMP-9", "campaign"), ")"]
                       if st.dummy else "", "."),
                     button("To the negotiating table", "campaign:negotiate", cls="btn primary big",
                            data_focus="negotiate"))
        return self._over(st)

    # ---------------- own deck (issue 18): entering what the table revealed
    def _entry_target(self, st):
        """What the next picked card is (``(what, player, chosen)`` for
        :func:`engine.campaign.check_entry`), or None when the entry is complete."""
        if st.phase == "deal":
            return ("pool", 0, self.entry) if len(self.entry) < cmp.POOL_SIZE else None
        if st.phase == "stakes":
            slot = len(self.entry)
            return ("stake", slot, self.entry) if slot < 2 else None
        if st.phase == "refill":
            return ("refill", 0, self.entry) if not self.entry else None
        p = len(st.laid)
        if len(self.entry) < st.counts[p] - len(st.known[p]):
            return ("hand", p, self.entry + [str(c) for c in st.known[p]] + self.entry_drawn)
        if len(self.entry_drawn) < cmp.table_draws(st, p):
            return ("drawn", p, self.entry + [str(c) for c in st.known[p]] + self.entry_drawn)
        return None

    def _entry_action(self, st) -> dict | None:
        """The action the entry makes, once it is complete."""
        if self._entry_target(st) is not None:
            return None
        if st.phase == "deal":
            return {"type": "deal", "pool": list(self.entry)}
        if st.phase == "stakes":
            return {"type": "stakes", "stakes": list(self.entry)}
        if st.phase == "refill":
            return {"type": "refill", "card": self.entry[0]}
        p = len(st.laid)
        return {"type": "lay", "player": p, "hand": [str(c) for c in st.known[p]] + list(self.entry),
                "drawn": list(self.entry_drawn)}

    def _entry(self, st):
        """CMP-1/CMP-2/CMP-4/CMP-7 with the players' own deck: the shared 52-card picker."""
        target = self._entry_target(st)
        chosen = set(self.entry) | set(self.entry_drawn)
        known = set()
        if st.phase == "stakes":
            names = [st.name(0), st.name(1)]
            title = f"Battle {st.battle}: tap {names[0]}'s stake, then {names[1]}'s"
            how = ["The dummy's stake is dealt at random from its face-down cards (", rule_ref("CMP-9", "campaign"),
                   ")."] if st.dummy else None
            slots = [(f"{names[i]}'s stake", self.entry[i] if i < len(self.entry) else None) for i in (0, 1)]
            verb = "Record the stakes"
        elif st.phase == "deal":
            title = "The pool as dealt: tap its four cards, left to right"
            how = None
            slots = [(f"Pool card {i + 1}", self.entry[i] if i < len(self.entry) else None) for i in range(4)]
            verb = "Record the pool"
        elif st.phase == "refill":
            title = f"Battle {st.battle}: tap the new pool card drawn from the deck"
            how = None
            slots = [("New pool card", self.entry[0] if self.entry else None)]
            verb = "Put it in the pool"
        else:
            p = len(st.laid)
            known = {str(c) for c in st.known[p]}
            draws = cmp.table_draws(st, p)
            name = st.name(p)
            title = f"At the negotiating table: {name}'s cards"
            how = [f"{name} lays down all {st.counts[p]} cards" + (f" and draws {draws} from the deck" if draws else ""),
                   " (", rule_ref("CMP-7", "campaign"), [", ", rule_ref("CMP-9", "campaign")]
                   if st.dummy and p == 1 else "", "). Tap each card laid down",
                   ", then each card drawn" if draws else "",
                   "; the cards seen in this hand are marked already." if known else "."]
            laid = [str(c) for c in st.known[p]] + list(self.entry)
            slots = [(f"{name}'s cards: {len(laid)} of {st.counts[p]}", " ".join(laid) or None)]
            if draws:
                slots.append((f"Drawn at the table: {len(self.entry_drawn)} of {draws}",
                              " ".join(self.entry_drawn) or None))
            verb = f"Lay down {name}'s cards"
        action = self._entry_action(st)

        def states(card):
            token = str(card)
            if token in chosen or token in known:
                return ("selected", "drawn" if token in self.entry_drawn else "")
            if target is None:
                return ()  # the entry is complete: nothing more to pick (a tap says so)
            return () if cmp.can_enter(st, target[0], card, target[1], target[2]) else ("blocked",)

        def label(card):
            token = str(card)
            if token in known:
                return f"{card.name}: seen in this hand"
            if token in chosen:
                return f"{card.name}: entered, tap to take it back"
            return card.name

        slot_tiles = [h("li", {"class": ["entry-slot", value is None and "empty"]},
                        h("span", {"class": "small"}, what),
                        h("strong", {}, " ".join(cmp_label(t) for t in value.split()) if value else "—"))
                      for what, value in slots]
        return h("section", {"class": "panel campaign-action entry", "data-testid": "entry", "tabindex": "-1",
                             "data-focus": "picker", "aria-labelledby": "campaign-entry-title"},
                 self._last_battle(st) if st.phase == "stakes" else None,
                 # the exhaustion roll just made: before the next stakes, or the roll that ended the campaign
                 self._dice(st.rolls[-1]) if st.phase in ("stakes", "exhausted") and st.rolls
                 and st.rolls[-1].battles == st.fought else None,
                 h("h2", {"id": "campaign-entry-title"}, title),
                 h("p", {"class": "small entry-how"}, how) if how else None,
                 h("div", {"class": "entry-bar"},
                   h("ul", {"class": "entry-slots", "data-testid": "entry-slots"}, slot_tiles),
                   h("div", {"class": "entry-controls"},
                     button(verb, "campaign:record-entry", cls="btn primary big", disabled=action is None,
                            data_focus="record-entry"),
                     button("Clear", "campaign:clear-entry", cls="btn",
                            disabled=not self.entry and not self.entry_drawn))),
                 card_picker("campaign:pick", states, labels=label))

    def _own_hands(self, st):
        """With the players' own deck the hands are in the players' hands: the app shows what
        everyone knows of them (the count, the cards seen face up in them)."""
        tiles = []
        for p in (0, 1):
            seen = st.known[p]
            dummy = st.dummy and p == 1
            tiles.append(h("section", {"class": ["panel own-hand", SIDE_CLASS[p]], "data-testid": f"own-hand-{p}"},
                           h("p", {"class": "curtain-text"},
                             f"{st.name(p)}: {st.counts[p]} card{'s' if st.counts[p] != 1 else ''} "
                             + ("face down: nobody looks at them (CMP-9)" if dummy else "in hand")),
                           h("div", {"class": "backs"}, [card_view(c, "mini", label=f"{c.name}, seen in this hand")
                                                         for c in seen]) if seen else None,
                           h("p", {"class": "muted small"}, self._own_hand_seen(st, p, seen))))
        self.guard.drawn(None)
        return h("div", {"class": "campaign-hands", "aria-label": "Hands", "data-testid": "own-hands"}, tiles)

    @staticmethod
    def _own_hand_seen(st, p: int, seen) -> str:
        """What everyone has seen of an own-deck hand: the cards shown above, its face-up stake
        (CMP-2) said as such, never "nothing face up" while the stake lies face up."""
        stake = st.stakes[p]
        if seen:
            return "Seen in this hand: the cards above" + (f"; its stake, the {stake.name}, is face up (CMP-2)."
                                                          if stake is not None and stake not in seen else ".")
        if stake is not None:
            return f"Its stake, the {stake.name}, is face up (CMP-2); no other card of this hand has been seen."
        return "No card of this hand has been face up yet."

    def _dice_entry(self, st):
        """CMP-6 with the players' own dice: tap what each die shows (a draft until recorded)."""
        rows = [die_faces("campaign:die", lambda v, i=i: f"{i}:{v}", 1, 6, self.dice[i], f"Die {i + 1}",
                          spoken=lambda v, i=i: f"Die {i + 1} shows {v}", focus="dice" if i == 0 else None)
                for i in (0, 1)]
        ready = None not in self.dice
        return h("div", {"class": "dice-entry", "data-testid": "dice-entry"},
                 h("p", {"class": "small"}, "Or roll your own two dice and tap what they show:"), rows,
                 button(f"Record the dice {self.dice[0]} and {self.dice[1]}" if ready else "Record the dice",
                        "campaign:roll-dice", cls="btn primary", disabled=not ready))

    def _dice(self, roll):
        lower = roll.lower
        dice = []
        marked = False
        for value in roll.dice:
            kept = value == lower and not marked
            marked = marked or kept
            dice.append(h("span", {"class": ["die", kept and "kept"], "role": "img",
                                   "aria-label": f"die showing {value}{' (kept: the lower)' if kept else ''}"},
                          str(value)))
        verdict = "exhausted" if roll.exhausted else "the war goes on"
        return h("div", {"class": "dice-row", "data-testid": "dice"},
                 dice,
                 h("span", {"class": "dice-sum"},
                   f"lower {lower} + {roll.battles} battles = {roll.total} "
                   f"{'≥' if roll.exhausted else '<'} 9: {verdict}"))

    def _record(self, st):
        """CMP-3/CMP-5: who won the battle on the tabletop, and the winner's troop points left."""
        last_roll = st.rolls[-1] if st.rolls and st.rolls[-1].battles == st.fought else None
        choices = [(str(p), f"{st.name(p)} won") for p in (0, 1)] + [("draw", "Drawn battle")]
        picks = h("div", {"class": "winner-picks", "role": "radiogroup", "aria-label": "Who won"},
                  [button(label, "campaign:winner", value,
                          cls=["btn big pick", value != "draw" and SIDE_CLASS[int(value)], self.pick == value and "on"],
                          role="radio", aria_checked="true" if self.pick == value else "false",
                          data_focus="winner" if index == 0 else None)
                   for index, (value, label) in enumerate(choices)])
        detail = None
        if self.pick in ("0", "1"):
            winner = st.name(int(self.pick))
            troops = self._troops()
            problem = self._troops_problem(st, int(self.pick))
            if not self.troops_text.strip():
                # An empty box is empty: no grey "0" that looks like a value (defect 11).
                verdict = h("span", {"class": "troops-hint", "data-testid": "troops-hint", "id": "campaign-troops-hint"},
                            f"Enter {winner}'s troop points — or tap “None left” for 0")
            elif problem is not None:
                verdict = h("span", {"class": "troops-hint msg-error", "data-testid": "troops-hint",
                                     "id": "campaign-troops-hint"}, with_rule_refs(problem, "campaign"))
            elif cmp.is_decisive(troops):
                verdict = h("span", {"class": "badge variant", "data-testid": "decisive"},
                            "Decisive victory (8 or more)")
            else:
                verdict = h("span", {"class": "badge note", "data-testid": "decisive"},
                            "Victory, not decisive (under 8)")
            detail = h("div", {"class": "troops-row"},
                       h("div", {"class": "troops-label"},
                         h("label", {"for": "campaign-troops"}, f"Troop points {winner} has left in play"),
                         " (", rule_ref("CMP-3", "campaign"), ")"),
                       h("div", {"class": "stepper"},
                         button("−", "campaign:troops-step", "-1", cls="btn big step",
                                aria_label="One troop point less"),
                         h("input", {"type": "number", "inputmode": "numeric", "min": "0", "max": "999", "step": "1",
                                     "id": "campaign-troops", "data-field": f"campaign:troops:{st.battle}",
                                     "data-focus": "troops",
                                     "value": self.troops_text,
                                     "aria-describedby": "campaign-troops-hint" if troops is None else None,
                                     "aria-invalid": "true" if self.troops_text.strip() and troops is None else None}),
                         button("+", "campaign:troops-step", "1", cls="btn big step",
                                aria_label="One troop point more"),
                         button("None left", "campaign:troops-zero", cls="btn step-zero",
                                aria_label=f"None left: {winner} has 0 troop points in play")),
                       verdict,
                       button(f"Record: {winner} wins", "campaign:record", cls="btn primary big"))
        elif self.pick == "draw":
            detail = h("div", {"class": "troops-row"},
                       h("p", {"class": "muted"}, "A drawn battle moves no card; both stakes go home (",
                         rule_ref("CMP-5", "campaign"), "), and it counts as a battle fought (",
                         rule_ref("CMP-11", "campaign"), ")."),
                       button("Record the drawn battle", "campaign:record", cls="btn primary big"))
        return h("section", {"class": "panel campaign-action", "data-testid": "record"},
                 self._last_battle(st),
                 self._dice(last_roll) if last_roll else None,
                 h("h2", {}, f"Who won battle {st.battle}?"),
                 picks, detail)

    def _last_battle(self, st):
        """What the last battle moved (the dummy's choice included), so nobody has to scroll."""
        entries = [e for e in st.log if e.battle == st.fought and e.battle > 0 and e.rule in ("CMP-3", "CMP-4", "CMP-5")]
        if not entries:
            return None
        return h("ul", {"class": "last-battle muted small", "aria-label": f"Battle {st.fought}",
                        "data-testid": "last-battle"},
                 [h("li", {}, with_rule_refs(e.text, "campaign")) for e in entries])

    def _spoils(self, st):
        """CMP-4: exactly the choices the winner has, as taps on cards."""
        choices = cmp.spoils_choices(st)
        winner, loser = st.name(choices["winner"]), st.name(1 - choices["winner"])
        stake = choices["stake"]
        if choices["both"]:
            text = [f"{winner} won decisively ({choices['troops']} troop points left): takes {loser}'s stake ",
                    h("strong", {}, "and"), " one pool card (", rule_ref("CMP-4", "campaign"),
                    "). Tap the pool card to take."]
            stake_tile = h("div", {"class": "take-stake"}, card_view(stake, "taken",
                                                                      label=f"{loser}'s stake {stake.name}, taken"),
                           h("span", {"class": "small"}, f"✓ {loser}'s stake: taken"))
        else:
            points = f"{choices['troops']} troop point{'s' if choices['troops'] != 1 else ''}"
            text = [f"{winner} won ({points} left, not decisive): takes {loser}'s stake ",
                    h("strong", {}, "or"), " one pool card (", rule_ref("CMP-4", "campaign"), "). Tap the card to take."]
            stake_tile = h("div", {"class": "take-stake"},
                           card_button(stake, "campaign:take", "stake", "playable",
                                       label=f"Take {loser}'s stake, the {stake.name}", data_focus="spoils"),
                           h("span", {"class": "small"}, f"{loser}'s stake"))
        pool = [card_button(c, "campaign:take", str(c), "playable", label=f"Take the {c.name} from the pool",
                            data_focus="spoils" if choices["both"] and i == 0 else None)
                for i, c in enumerate(choices["pool"])]
        return h("section", {"class": ["panel campaign-action spoils", SIDE_CLASS[choices["winner"]]],
                             "data-testid": "spoils"},
                 h("h2", {}, f"Battle {st.battle}: {winner}'s spoils"),
                 h("p", {}, text),
                 h("div", {"class": "spoils-cards"}, stake_tile,
                   h("div", {"class": "take-pool"}, h("div", {"class": "hand-cards"}, pool),
                     h("span", {"class": "small"}, "Pool"))))

    def _exhaustion(self, st):
        """CMP-6: the exact chance first, then the roll with visible dice."""
        chance = cmp.exhaustion_odds_text(st.fought)
        return h("section", {"class": "panel campaign-action", "data-testid": "exhaustion"},
                 h("h2", {}, "Exhaustion roll (", rule_ref("CMP-6", "campaign"), ")"),
                 h("p", {"class": "odds-line", "data-testid": "exhaustion-odds"}, chance[0].upper() + chance[1:]),
                 h("p", {"class": "muted small"}, "Roll 2d6, keep the lower die, add the battles fought: 9 or more "
                                                  "and both sides go to the negotiating table."),
                 button("Roll 2d6" if not st.table_deck else "Let the app roll 2d6", "campaign:roll",
                        cls="btn primary big", data_focus="roll"),
                 self._dice_entry(st) if st.table_deck else None)

    def _over(self, st):
        rows = None if self.spectator else h(
            "div", {"class": "row"},
            button("New campaign, same players", "campaign:rematch", cls="btn primary"),
            button("Set up a new campaign", "session:new", cls="btn"))
        if st.treaty is None:
            return h("section", {"class": "panel result over", "role": "status", "data-testid": "result",
                                 "tabindex": "-1", "data-focus": "result"},
                     h("h2", {}, "The campaign is over"),
                     h("p", {"data-testid": "end-message"}, with_rule_refs(st.result, "campaign")), rows)
        treaty = st.treaty
        sides = []
        for p in (0, 1):
            hand = treaty.hands[p]
            used = set(hand.cards)
            drawn = set(treaty.drawn[p])
            tiles = [h("li", {"data-key": str(c)},
                       card_view(c, "used" if c in used else "unused mini", "drawn" if c in drawn else "",
                                 label=f"{c.name}{', in the hand' if c in used else ''}"
                                       f"{', drawn at the table' if c in drawn else ''}"))
                     for c in self._treaty_order(treaty.cards[p], hand)]
            sides.append(h("section", {"class": ["panel treaty-side", SIDE_CLASS[p],
                                                 treaty.winner == p and "winner"],
                                       "data-testid": f"treaty-{p}", "aria-label": f"{st.name(p)} at the table"},
                           h("h3", {}, st.name(p), h("span", {"class": "badge variant"}, "wins") if treaty.winner == p
                             else None),
                           h("p", {"class": "hand-name", "data-testid": f"hand-name-{p}"},
                             str(hand)[0].upper() + str(hand)[1:]),
                           h("ul", {"class": "treaty-cards"}, tiles),
                           h("p", {"class": "muted small"},
                             f"Drew {len(treaty.drawn[p])} at the table" if treaty.drawn[p] else "No draw needed",
                             " · highlighted: the five cards of the hand")))
        return h("section", {"class": "panel result over treaty", "role": "status", "data-testid": "result",
                             "tabindex": "-1", "data-focus": "result"},
                 h("h2", {"data-testid": "end-message"}, st.result),
                 h("div", {"class": "treaty-grid"}, sides),
                 h("p", {"class": "explanation", "data-testid": "explanation"},
                   with_rule_refs(treaty.explanation, "campaign")),
                 rows)

    @staticmethod
    def _treaty_order(cards: tuple[Card, ...], hand) -> list[Card]:
        """The hand's five cards first (in hand order), then the rest."""
        used = list(hand.cards)
        return used + [c for c in cards if c not in used]

    # ---------------- hidden hands
    def _hands(self, st):
        """Each hand behind its pass-the-tablet curtain; solo, the one person at the table sees
        their own hand without one (nobody to hide it from), and the dummy's stays hidden."""
        tiles = []
        shown = None
        for p in (0, 1):
            if st.dummy and p == 0:
                shown = p
                tiles.append(self._private(st, p, solo=True))
            elif st.dummy and p == 1:
                tiles.append(h("section", {"class": ["panel dummy-hand", SIDE_CLASS[1]], "data-testid": "dummy-hand"},
                               h("p", {"class": "curtain-text"}, f"{st.name(1)}: {st.counts[1]} hidden "
                                                                 f"card{'s' if st.counts[1] != 1 else ''}"),
                               h("div", {"class": "backs"}, [card_back("mini") for _ in range(min(st.counts[1], 12))]),
                               h("p", {"class": "muted small"}, "They stay hidden until the negotiating table (",
                                 rule_ref("CMP-9", "campaign"), ").")))
            elif self.revealed == p:
                shown = p
                tiles.append(self._private(st, p))
            elif self.revealed is None:
                tiles.append(curtain(st.name(p), "", "campaign:reveal", p, cls=SIDE_CLASS[p],
                                     note=f"Only {st.name(p)} looks at the hand. It hides again with “Hide hand” "
                                          "or when the table moves on."))
        self.guard.drawn(None if shown is not None else ("curtains", self.revealed))
        return h("div", {"class": ["campaign-hands", shown is not None and not st.dummy and "one"],
                         "aria-label": "Hands"}, tiles)

    def _chances(self, st, p: int):
        """The treaty odds of one player's view, remembered for the state's cards (they are
        computed once per change, not on every redraw)."""
        key = (p, st.cards_of(p), cmp.visible_cards(st, p))
        if key not in self._odds:
            self._odds = {key: cmp.treaty_chances(st, p)}
        return self._odds[key]

    def _private(self, st, p: int, solo: bool = False):
        own = st.cards_of(p)
        best = cmp.best_hand(own) if len(own) >= 5 else None
        used = set(best.cards) if best is not None else set()
        stake = st.stakes[p]
        tiles = [h("li", {"data-key": str(c)},
                      card_view(c, "own", "used" if c in used else "", "staked" if c == stake else "",
                                label=f"{c.name}{' (your stake, face up)' if c == stake else ''}"))
                 for c in own]
        chances = self._chances(st, p)
        draws = max(0, 5 - len(own))
        if best is not None:
            odds_head = ["If the table came now: ", h("strong", {}, str(best)),
                         " (", rule_ref("CMP-7", "campaign"), ", ", rule_ref("CMP-8", "campaign"), ")."]
        else:
            odds_head = [f"If the table came now: draw {draws} to make five (", rule_ref("CMP-7", "campaign"),
                         "). Exact chances over every draw from the cards you have not seen:"]
        # The categories' chances are shown together: rounded together, they add up to 100.
        shown = dict(zip(chances, shares(chances.values(), 1)))
        rows = [h("li", {"data-key": name, "data-category": name},
                  h("span", {"class": "odds-name"}, name),
                  h("span", {"class": "odds-value"}, shown[name]),
                  # A progress bar: the page's CSP allows no inline style attribute.
                  h("progress", {"class": "odds-bar", "max": "1000", "value": str(round(float(chance) * 1000)),
                                 "aria-hidden": "true"}))
                for name, chance in chances.items()] if best is None else []
        return h("section", {"class": ["panel private campaign-private", SIDE_CLASS[p]], "data-testid": "hand",
                             "tabindex": "-1", "data-focus": "hand",
                             "aria-label": f"{st.name(p)}'s hand"},
                 h("div", {"class": "spread"},
                   h("h3", {}, f"{st.name(p)}'s cards — {len(own)}"),
                   None if solo else button("Hide hand", "campaign:hide", cls="btn big")),
                 h("ul", {"class": "hand-cards", "data-testid": "hand-cards"}, tiles),
                 h("p", {"class": "muted small"}, "The stake is face up on the table; highlighted cards make your "
                                                  "best hand now.") if best is not None else None,
                 h("div", {"class": "treaty-odds", "data-testid": "treaty-odds"},
                   h("p", {}, odds_head),
                   h("ul", {"class": "odds-list"}, rows) if rows else None))

    # ---------------- log and rules
    def _log(self, st):
        items = []
        for index, entry in reversed(list(enumerate(st.log))):
            items.append(h("li", {"data-key": f"l{index}"},
                           h("span", {"class": "log-rule"}, rule_ref(entry.rule, "campaign")), " ",
                           with_rule_refs(entry.text, "campaign")))
        return h("section", {"class": "panel log", "aria-label": "Campaign log", "data-testid": "log"},
                 h("h2", {}, "Campaign log"),
                 h("p", {"class": "muted small"}, "Newest first: every card that moved, and why."),
                 h("ol", {"class": "log-list", "reversed": True}, items))

    def _rules_in_play(self):
        game = self.session.game
        deck = game.setup.get("deck", "app") if game is not None else "app"
        return h("details", {"class": "panel rules-in-play"},
                 h("summary", {}, "Rules in play"),
                 h("ul", {},
                   h("li", {"data-testid": "deck-setting"}, h("span", {"class": "badge variant"}, "Cards and dice"),
                     " ", cmp.DECKS[deck]),
                   [h("li", {}, rule_ref(rid, "campaign"), " ", h("span", {"class": "badge house"}, "House rule"),
                      " ", text) for rid, text in cmp.HOUSE_RULES.items()],
                   seat_house_rules(),
                   h("li", {}, h("span", {"class": "badge ruling"}, "Rulings"), " Where the source is silent, the "
                     "app follows these rulings: ", [[rule_ref(rid, "campaign"), " "] for rid in cmp.RULINGS])))

    # ------------------------------------------------------------ events
    #: Where the focus goes after a move (issue 14): the main control of the next phase
    #: (only one of them is on the table at a time; see App.focus_to).
    NEXT = ("spoils", "winner", "roll", "negotiate", "picker", "result")

    def _troops_value(self):
        """What the points box holds, as the engine reads it: None when empty, a whole
        number, a number, or the text itself (the engine says why it is not points)."""
        text = self.troops_text.strip()
        if not text:
            return None
        if whole(text.lstrip("-")) and text.count("-") <= 1 and not text.endswith("-"):
            return int(text)
        try:
            return float(text)
        except ValueError:
            return text

    def _troops(self) -> int | None:
        value = self._troops_value()
        if isinstance(value, int) and 0 <= value <= cmp.MAX_TROOPS:
            return value
        return None

    def _troops_problem(self, st, winner: int) -> str | None:
        """The engine's reason (CMP-12) why the box's value cannot be recorded, or None."""
        value = self._troops_value()
        if value is None or self._troops() is not None:
            return None
        try:
            cmp.normalize_action(st, {"type": "battle", "winner": winner, "troops": value})
        except ValueError as err:
            return str(err)
        return None

    def on_start(self, arg, event) -> None:
        self._start()

    def on_rematch(self, arg, event) -> None:
        if self.session.game is None:
            return
        self.names = list(self.session.game.setup["players"])
        self.mode = "solo" if self.session.game.setup.get("dummy") else "two"
        self.deck = self.session.game.setup.get("deck", "app")
        self._save_draft()
        self.session.close()

    def on_reveal(self, arg, event) -> None:
        st = self.session.state
        if st is None or arg is None:
            return
        if self.guard.may_open(event) and self.revealed is None:
            self.revealed = int(arg)
            self.notice = None
            self.app.focus_to("hand")

    def on_hide(self, arg, event) -> None:
        st = self.session.state
        if st is None:
            return
        self.revealed = None
        self.app.focus_to("curtain")

    def on_winner(self, arg, event) -> None:
        st = self.session.state
        if st is None or arg not in ("0", "1", "draw"):
            return
        self.pick = arg
        self.notice = None

    def on_troops_step(self, arg, event) -> None:
        st = self.session.state
        if st is None or arg not in ("-1", "1"):
            return
        value = (self._troops() or 0) + int(arg)
        self.troops_text = str(min(cmp.MAX_TROOPS, max(0, value)))

    def on_troops_zero(self, arg, event) -> None:
        st = self.session.state
        if st is None:
            return
        self.troops_text = "0"

    def on_record(self, arg, event) -> None:
        st = self.session.state
        if st is None or self.pick is None:
            return
        if self.pick == "draw":
            action_ = {"type": "battle", "winner": None}
        else:
            action_ = {"type": "battle", "winner": int(self.pick), "troops": self._troops_value()}
        self._act(action_)
        if self.notice is not None and self.pick != "draw":
            # CMP-12 refused the points: the tap is answered where the fix is typed (a second
            # tap on Record would otherwise redraw the same message: nothing seen to change).
            self.app.focus_to("troops")

    def on_take(self, arg, event) -> None:
        st = self.session.state
        if st is None or not arg:
            return
        choices = cmp.spoils_choices(st)
        if not choices:
            return
        if arg == "stake":
            action_ = {"type": "take", "stake": True, "pool": None}
        elif choices["both"]:
            action_ = {"type": "take", "stake": True, "pool": arg}
        else:
            action_ = {"type": "take", "stake": False, "pool": arg}
        self._act(action_)

    def on_roll(self, arg, event) -> None:
        st = self.session.state
        if st is None:
            return
        self._act({"type": "roll"})

    def on_pick(self, arg, event) -> None:
        st = self.session.state
        if st is None or not arg:
            return
        self._pick(st, arg)

    def on_clear_entry(self, arg, event) -> None:
        st = self.session.state
        if st is None:
            return
        self.entry, self.entry_drawn, self.notice = [], [], None

    def on_record_entry(self, arg, event) -> None:
        st = self.session.state
        if st is None:
            return
        action_ = self._entry_action(st)
        if action_ is None:
            self.notice = "Tap every card first: the entry is not complete."
        else:
            self._act(action_)

    def on_die(self, arg, event) -> None:
        st = self.session.state
        if st is None or not arg or ":" not in arg:
            return
        i, v = arg.split(":", 1)
        if i in ("0", "1") and v in ("1", "2", "3", "4", "5", "6"):
            self.dice[int(i)] = None if self.dice[int(i)] == int(v) else int(v)

    def on_roll_dice(self, arg, event) -> None:
        st = self.session.state
        if st is None or None in self.dice:
            return
        self._act({"type": "roll", "dice": list(self.dice)})

    def on_negotiate(self, arg, event) -> None:
        st = self.session.state
        if st is None:
            return
        self._act({"type": "negotiate"})

    #: Every tap of the campaign table: action name → what it does.
    ACTIONS = {"start": on_start, "rematch": on_rematch, "reveal": on_reveal, "hide": on_hide, "winner": on_winner,
               "troops-step": on_troops_step, "troops-zero": on_troops_zero, "record": on_record, "take": on_take,
               "roll": on_roll, "pick": on_pick, "clear-entry": on_clear_entry, "record-entry": on_record_entry,
               "die": on_die, "roll-dice": on_roll_dice, "negotiate": on_negotiate}
    #: A spectator's copy only shows (issue 21): no move, no curtain.
    MOVES = frozenset(ACTIONS) - {"start"}

    def _pick(self, st, token: str) -> None:
        """A card tapped in the picker: taken back if it was picked, else picked for the
        next slot — unless the engine says it cannot be (then the table hears why)."""
        self.notice = None
        if token in self.entry:
            self.entry.remove(token)
            return
        if token in self.entry_drawn:
            self.entry_drawn.remove(token)
            return
        if not st.table_deck:
            return
        if st.phase == "exhausted":
            p = len(st.laid)
            if token in {str(c) for c in st.known[p]}:
                self.notice = f"{Card.parse(token).label} is in {st.name(p)}'s hand already: it was seen face up."
                return
        target = self._entry_target(st)
        if target is None:
            self.notice = "Every card of this entry is tapped: tap one to take it back, or record it."
            return
        try:
            cmp.check_entry(st, target[0], token, target[1], target[2])
        except (RuleError, cmp.ArgumentError) as err:
            self.notice = str(err)
            return
        (self.entry_drawn if target[0] == "drawn" else self.entry).append(token)

    def _act(self, action: dict) -> None:
        """Take an action; a refusal (with its rule id) stays on the table, and the focus
        goes to the next phase's main control after a move (issue 14)."""
        self.notice = self.session.try_act(action)
        if self.notice is None:
            self.app.focus_to(*self.NEXT)

    def _start(self) -> None:
        setup = {"players": list(self.names), "dummy": self.mode == "solo"}
        if self.deck == "table":
            setup["deck"] = "table"
        self.start_game("campaign", setup, {}, game_name)

    def field(self, name: str, value: str, live: bool, row: str | None = None) -> bool:
        """A form control changed; returns whether the screen needs redrawing."""
        if self.session.field(name, value):
            return False
        if name == "seed":
            self.seed_text = value
            self.setup_error = None
            return not live
        if name == "campaign:mode":
            if value in ("two", "solo"):
                self.mode = value
                self._save_draft()
            return True
        if name == "campaign:deck":
            if value in cmp.DECKS:
                self.deck = value
                self._save_draft()
            return True
        if name in ("campaign:name0", "campaign:name1"):
            self.names[int(name[-1])] = value[:40]
            self.setup_error = None
            self._save_draft()
            return not live
        if name.startswith("campaign:troops:"):
            st = self.session.state
            # A late change from the field of a battle already recorded is ignored.
            if st is not None and st.phase == "battle" and name == f"campaign:troops:{st.battle}":
                self.troops_text = value.strip()[:8]
                return True
            return False
        return False
