"""Shooting (CS-8 … CS-11): the shot panel with its exact odds, the dice entered with our own
dice (HR-CS-7), the last shot and the DYING countdowns (CS-13)."""

from __future__ import annotations

from engine import consim as cs
from engine.game import RuleError
from engine.text import plural
from web.dom import button, h
from web.parts.chances import whole_percent
from web.parts.dice import die_faces
from web.parts.rulebits import rule_ref, with_rule_refs
from web.parts.tool import whole

from .draft import ROUTE
from .marks import COVER_LABEL, WOUND_LABEL


def shot_panel(view, st):
    cur = cs.current_turn(st)
    if cur is None:
        return None
    shooter_i = st.turns[cur].combatant
    shooter = st.combatants[shooter_i]
    shot = view.shot
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
             _dice_entry(view, st, shooter_i) if own_dice and chosen and problem is None else None,
             # sticky: the roll (or Record) stays in sight below the odds at 1024x768 (issue 18)
             h("div", {"class": "row sticky-controls shot-controls"},
               button(f"Record the shot ({plural(len(chosen), 'target')})", "init:fire",
                      cls="btn primary", disabled=not chosen or problem is not None or _roll_call(view, st) is not None,
                      data_focus="fire")
               if own_dice else
               button(f"Roll the dice ({plural(len(chosen), 'target')})", "init:fire",
                      cls="btn primary", disabled=not chosen or problem is not None, data_focus="fire"),
               button("Cancel", "init:shoot-close", cls="btn ghost")),
             h("details", {"class": "ini-friends"}, h("summary", {}, "Fire at own side"),
               h("div", {"class": "row"}, [target_button(i) for i in friends])) if friends else None)


def _shot_action_of(view, st) -> dict | None:
    """The shot being set up, as the engine's action (its ``dice`` as entered so far)."""
    cur = cs.current_turn(st)
    shot = view.shot
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


def _roll_call(view, st):
    """HR-CS-7: the next roll the shot needs from the table's dice (None: all entered)."""
    action = _shot_action_of(view, st)
    if action is None or not cs.can_shoot(st, action["shooter"], action["targets"], action["mode"]):
        return None
    return cs.next_roll(st, action)


def _dice_entry(view, st, shooter_i: int):
    """HR-CS-7: the dice rolled at the table, one tap each, in the order the shot needs them
    (the d10 to hit, CS-8; the d6 if it hit, CS-10; a countdown if the wound starts one, CS-13).
    Each roll entered is a chip: a tap takes it back, and what came after it."""
    entered = view.shot.get("dice", [])
    chips = []
    for pos, rolls in enumerate(entered):
        name = st.combatants[view.shot["targets"][pos]].name
        for key, value in rolls.items():
            chips.append(button([f"{name}: {key} ", h("strong", {}, str(value)), " ✕"],
                                "init:die-back", f"{pos}.{key}", cls="btn small die-chip",
                                aria_label=f"{name}: {key} {value}, tap to take it back"))
    call = _roll_call(view, st)
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


def countdown_entry(view, st):
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
             [die_faces("init:cd", lambda v, i=i: f"{i}.{v}", 1, 6, view.countdowns.get(i),
                        f"{st.combatants[i].name}'s countdown", focus="countdown" if n == 0 else None)
              for n, i in enumerate(due)])


def last_shot_panel(view, st):
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


def shot_action(view, st, name, arg, index) -> None:
    shot = view.shot
    cur = cs.current_turn(st)
    if cur is None:
        return
    if name in ("mode", "target", "cover", "semi"):
        shot["dice"] = []  # the dice a shot needs depend on these: entered again
    if name == "die" and arg and whole(str(arg)):
        call = _roll_call(view, st)
        if call is not None and call.low <= int(arg) <= call.high:
            dice = shot.setdefault("dice", [])
            if call.position == len(dice):
                dice.append({})
            dice[call.position][call.key] = int(arg)
            if _roll_call(view, st) is None:
                view.app.focus_to("fire")
        return
    if name == "die-back" and arg:
        pos, _, key = str(arg).partition(".")
        dice = shot.get("dice", [])
        if whole(pos) and int(pos) < len(dice) and key in dice[int(pos)]:
            keys = list(dice[int(pos)])
            kept = {k: dice[int(pos)][k] for k in keys[:keys.index(key)]}
            shot["dice"] = dice[:int(pos)] + ([kept] if kept else [])
            view.app.focus_to("die")
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
        if view._act(_shot_action_of(view, st), ("result", "next")):
            view.shot = None  # the shot was this card's action: the turn moved on (CS-5)
