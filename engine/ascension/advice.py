"""Ascension Isle battles: the general's staff officer (issue 17, HR-AI-13).

Behind the curtain, the side about to bid sees what each of its maneuvers means against
each maneuver the enemy may declare — a 6×6 grid of exact odds (:func:`advice`) — and
a recommended **mixed strategy**: the equilibrium (:mod:`engine.zerosum`) of the
zero-sum game whose payoff it chooses from a few aims (:data:`AIMS`). The app's general
(:func:`~engine.ascension.app_bid`, :mod:`.opponent`) bids from the same numbers.

**Public information only.** Everything here is computed from the *public* battle —
both armies, their damage and settings, with every bid of the week wiped
(:func:`public_state`) — so a sealed enemy bid can never change a number, a
recommendation or a decision (the privacy tests swap the enemy's bid and compare).

Each maneuver is weighed with its best stratagems: of the plain maneuver and the
maneuver with each stratagem the army qualifies for whose effect is stated (AI-16,
AI-17), the one with the best average payoff against the enemy's six plain maneuvers;
the enemy's bids are chosen the same way for its side of the zero-sum game. A Defend
with Counter Attack switches whenever it may (AI-16). A Withdraw names the army's
current rearguard (AI-2).
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, cast

from .. import zerosum
from ..game import ArgumentError, RuleError
from ..text import brief_repr, percent_shares
from .odds import OutcomeOdds, as_bid, checked_odds, state_memo
from .rules import counter_problem, offered_stratagems, pool_of
from .tables import MANEUVER_NAMES, MANEUVERS
from .values import STRATAGEM_BY_KEY, Bid, maneuver_arg, side_arg, state_arg

__all__ = ["AIMS", "AIM_NAMES", "Advice", "GridCell", "public_state", "candidate_bids", "advice", "plain_advice",
           "legal_bids", "payoff",
           "mix_text", "bid_name", "advised_name", "strength",
           "best_answer_to_plain", "POLICY_AIM"]


#: What the general's payoff counts (HR-AI-13).
AIMS: tuple[str, ...] = ("net", "away", "hold", "battle")
AIM_NAMES: Mapping[str, str] = {"battle": "winning the battle", "net": "net casualties", "away": "getting away",
                                "hold": "holding the hex"}
AIM_EXPLAINED: Mapping[str, str] = {
    "battle": "the battle's balance: +1 when the enemy leaves the hex (driven off, fallen back, withdrawn) "
              "and you hold it, −1 the other way; +½ more for destroying its army, −½ for losing yours; "
              "and, for the weeks after this one, a quarter of the share of its strength you take minus the "
              "share of yours it takes",
    "net": "expected casualties landed on the enemy minus those landed on you",
    "away": "the chance your army leaves the battle by a Withdraw",
    "hold": "the chance your army is still in the hex after the week",
}


#: The aim "winning the battle": the weight of holding the hex while the enemy leaves it, of
#: destroying its army, and of the share of its strength taken (the weeks after this one).
BATTLE_WEIGHTS = (Fraction(1), Fraction(1, 2), Fraction(1, 4))  # tuned on tests/bench_generals.py

#: The aim of the app's generals of policy 2 (HR-AI-15; issue 34, item 14).
POLICY_AIM = "battle"


def strength(state: Any, side: int) -> int:
    """How many casualties would destroy what is left of ``side``'s army (AI-14, HR-AI-1): each
    unit in the field its armour, else its size less its damage, else 1."""
    army = state.armies[side]
    total = 0
    for i in state.alive(side):
        unit = army.units[i]
        total += unit.armour if unit.armour else max(1, unit.size - state.damage[side][i]) if unit.size else 1
    return max(total, 1)


def _aim(aim: Any) -> str:
    if aim not in AIMS or not isinstance(aim, str):
        raise ArgumentError(f"There is no aim {brief_repr(aim)} (aims: {', '.join(AIMS)})")
    return aim


def public_state(state: Any) -> Any:
    """The battle as both sides see it before the bids: the same armies, damage, settings
    and history, with no bid declared this week (a sealed or hidden bid is wiped)."""
    state = state_arg(state)
    if state.phase == "over":
        raise RuleError("AI-15", f"the battle is over: {state.outcome}")
    known = state.__dict__  # per state object (its memo is shared by content: state_memo)
    public = known.get("_public")
    if public is None:
        public = state if (state.phase == "bid" and state.bids == (None, None)) else \
            replace(state, phase="bid", bids=(None, None), switched=(False, False))
        known["_public"] = public
    return public


def payoff(odds: OutcomeOdds, side: int, aim: str, state: Any = None) -> Fraction:
    """HR-AI-13: what ``side`` wins (the enemy loses) in this week's odds for ``aim``; the aim
    "battle" (issue 34, 14: :data:`AIM_EXPLAINED`) reads the armies' strength from ``state``."""
    side, aim = side_arg(side), _aim(aim)
    own, enemy = odds.sides[side], odds.sides[1 - side]
    if aim == "battle":
        if state is None:
            raise ArgumentError("The aim 'winning the battle' weighs the armies' strength: give the battle")
        state = state_arg(state)
        hold, destroy, wear = BATTLE_WEIGHTS
        return (hold * (own.remains - enemy.remains) + destroy * (enemy.destroyed - own.destroyed)
                + wear * (enemy.mean_landed / strength(state, 1 - side) - own.mean_landed / strength(state, side)))
    if aim == "net":
        return enemy.mean_landed - own.mean_landed
    if aim == "away":
        return own.gets_away
    return own.remains


def _odds_for(public: Any, bids: tuple[Any, Any]) -> OutcomeOdds:
    """The odds of two of the advisor's own bids (:func:`candidate_bids`: plain, or with one
    stratagem the army qualifies for; a Withdraw names its rearguard), a Counter Attack
    switching whenever it may (AI-16)."""
    switched = (counter_problem(public, 0, bids) is None, counter_problem(public, 1, bids) is None)
    return checked_odds(public, bids, switched)


def _plain(public: Any, side: int, maneuver: str) -> Any:
    return Bid(maneuver, (), public.rearguards[side] if maneuver == "withdraw" else None)


def _with(public: Any, side: int, maneuver: str, keys: tuple[str, ...]) -> Any:
    return Bid(maneuver, keys, public.rearguards[side] if maneuver == "withdraw" else None)


def stated_stratagems(public: Any, side: int, maneuver: str) -> list[str]:
    """AI-16/AI-17: the stratagems of ``maneuver`` the army qualifies for whose effect is stated."""
    return [s.key for s in offered_stratagems(public, side, maneuver) if s.effect is not None]


def candidate_bids(state: Any, side: int, aim: str = "net") -> tuple[Any, ...]:
    """The bid ``side`` weighs for each of the six maneuvers (in table order): the plain
    maneuver, or with the one stated stratagem that raises its average payoff for ``aim``
    against the enemy's six plain maneuvers the most (ties: fewer stratagems first)."""
    public = public_state(state)
    side, aim = side_arg(side), _aim(aim)
    memo = state_memo(public).setdefault("candidates", {})
    key = (side, aim)
    if key in memo:
        return memo[key]
    enemies = [_plain(public, 1 - side, m) for m in MANEUVERS]
    out = []
    for maneuver in MANEUVERS:
        options = [_plain(public, side, maneuver)] + [_with(public, side, maneuver, (k,))
                                                       for k in stated_stratagems(public, side, maneuver)]
        best, best_value = options[0], None
        for bid in options:
            total = Fraction(0)
            for enemy in enemies:
                pair = (bid, enemy) if side == 0 else (enemy, bid)
                total += payoff(_odds_for(public, pair), side, aim, public)
            if best_value is None or total > best_value:
                best, best_value = bid, total
        out.append(best)
    memo[key] = tuple(out)
    return memo[key]


def bid_name(bid: Any) -> str:
    """"Defend with Hold the Line" (a Bid, or a bid action's fields: see ``as_bid``)."""
    bid = as_bid(bid)
    name = MANEUVER_NAMES[maneuver_arg(bid.maneuver)]
    if not isinstance(bid.stratagems, (list, tuple)):
        raise ArgumentError(f"A bid's stratagems are a list of keys (got {brief_repr(bid.stratagems)})")
    for key in bid.stratagems:
        if not isinstance(key, str) or key not in STRATAGEM_BY_KEY:
            raise ArgumentError(f"AI-16: there is no stratagem {brief_repr(key)}")
    if bid.stratagems:
        name += " with " + ", ".join(STRATAGEM_BY_KEY[k].name for k in bid.stratagems)
    return name


@dataclass(frozen=True)
class GridCell:
    """One square of the advisor grid: for the general's bid against the enemy's, the chance
    its army gets away, the expected casualties it inflicts (landed on the enemy) and takes,
    the chance it falls back (AI-19), and its payoff for the chosen aim."""

    gets_away: Fraction
    inflicted: Fraction
    taken: Fraction
    falls_back: Fraction
    payoff: Fraction


@dataclass(frozen=True)
class Advice:
    """What the staff officer tells ``side`` (HR-AI-13): ``own`` and ``enemy`` bids (one per
    maneuver, table order), ``grid[i][j]`` (:class:`GridCell`), the ``matrix`` of payoffs,
    the game's ``value``, the recommended ``mix`` (one Fraction per own bid) and the enemy's
    equilibrium mix, all exact."""

    side: int
    aim: str
    own: tuple[Any, ...]
    enemy: tuple[Any, ...]
    grid: tuple[tuple[GridCell, ...], ...]
    matrix: tuple[tuple[Fraction, ...], ...]
    value: Fraction
    mix: tuple[Fraction, ...]
    enemy_mix: tuple[Fraction, ...]
    #: What the mix gives at worst against every legal enemy bid of each maneuver (maneuver →
    #: payoff; item 13 of issue 34), when the game was solved over the real bid sets; empty for
    #: :func:`plain_advice`, whose figures cover the grid's columns only.
    worst: tuple[tuple[str, Fraction], ...] = ()

    def recommendation(self) -> str:
        """"A careful general declares Withdraw" (one bid), or "A careful general declares
        Attack 40%, Skirmish 60% (let the dice pick)" (a mix, so that the enemy cannot read it);
        a stratagem is named "(with Delay, if you pick it)": the advice weighs it, the general
        still chooses (issue 34)."""
        chosen = [(bid, p) for bid, p in zip(self.own, self.mix) if p]
        if len(chosen) == 1:
            return "A careful general declares " + advised_name(chosen[0][0])
        shown = dict(zip(range(len(self.mix)), percent_shares(self.mix)))
        return ("A careful general declares " + ", ".join(f"{advised_name(bid)} {shown[i]}" for i, (bid, p)
                                                           in enumerate(zip(self.own, self.mix)) if p)
                + " (let the dice pick, so that they cannot read you)")

    def against(self) -> tuple[Fraction, ...]:
        """What the recommended mix gives for the aim against each enemy bid (table order)."""
        return tuple(sum((p * self.matrix[i][j] for i, p in enumerate(self.mix)), Fraction(0))
                     for j in range(len(self.enemy)))

    def outlook(self) -> str:
        """What the recommendation gives, in a staff officer's words, against each maneuver
        the enemy may declare: "To get away: 100% unless they Block (then 0%)"; one figure
        when it is the same whatever they declare; "at worst …; … if they …" from the worst
        case up when there are more (issue 34: no game-theory words)."""
        pairs = [(MANEUVER_NAMES[m], value) for m, value in self.worst] if self.worst else \
            [(MANEUVER_NAMES[bid.maneuver], value) for bid, value in zip(self.enemy, self.against())]
        groups: dict[Fraction, list[str]] = {}
        for name, value in pairs:
            groups.setdefault(value, [])
            if name not in groups[value]:
                groups[value].append(name)
        ordered = sorted(groups.items(), key=lambda kv: -kv[0])
        best = _value_text(self.aim, ordered[0][0])
        head = AIM_HEADS[self.aim]
        if len(ordered) == 1:
            return f"{head}: {best}, whatever they declare."
        if len(ordered) == 2:
            value, names = ordered[1]
            return f"{head}: {best} unless they {_or(names)} (then {_value_text(self.aim, value)})."
        cases = [f"{_value_text(self.aim, value)} if they {_or(names)}" for value, names in reversed(ordered)]
        return f"{head}: at worst {'; '.join(cases)}."


#: How the staff officer opens the figures of each aim (:meth:`Advice.outlook`).
AIM_HEADS: Mapping[str, str] = {"battle": "The battle this week (+1: they leave the hex and you hold it; "
                                          "−1: you leave it)",
                                "net": "Casualties a week, on average", "away": "To get away",
                                "hold": "To hold the hex"}


def _value_text(aim: str, value: Fraction) -> str:
    """A payoff in players' words: "100%" (a chance), "0.50 more on them than on you"."""
    if aim == "battle":
        return "even" if value == 0 else f"{float(value):+.2f}"
    if aim != "net":
        return percent_shares([value])[0]
    if value == 0:
        return "as many on you as on them"
    return f"{abs(float(value)):.2f} more on {'them than on you' if value > 0 else 'you than on them'}"


def _or(names: list[str]) -> str:
    """"Block", "Block or Defend", "Block, Defend or Attack"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def advised_name(bid: Any) -> str:
    """A bid as the staff officer advises it: "Block (with Delay, if you pick it)" — the
    advice weighs the stratagem, but none is picked until the general picks it."""
    bid = as_bid(bid)
    plain = bid_name(Bid(bid.maneuver, (), bid.rearguard))
    if not bid.stratagems:
        return plain
    return f"{plain} (with {bid_name(bid).split(' with ', 1)[1]}, if you pick it)"


def mix_text(bids: tuple[Any, ...], mix: tuple[Fraction, ...]) -> str:
    """"Attack 40%, Skirmish 60%": whole percents rounded together so that they add up to 100
    (``engine.text.percent_shares``: a share too small to show says "<1%", one not certain
    ">99%"), the app's one spelling of a percent (issue 34)."""
    if not isinstance(bids, (list, tuple)) or not isinstance(mix, (list, tuple)) or len(bids) != len(mix):
        raise ArgumentError("A mix is told from a list of bids and a list of as many shares")
    for p in mix:
        if isinstance(p, bool) or not isinstance(p, numbers.Real) or not 0 <= p <= 1:
            raise ArgumentError(f"A share of a mix is a number from 0 to 1 (got {brief_repr(p)})")
    shown = percent_shares(mix)
    return ", ".join(f"{bid_name(bid)} {text}" for bid, p, text in zip(bids, mix, shown) if p)


def advice_known(state: Any, side: int, aim: str = "net") -> bool:
    """Whether :func:`advice` for ``side`` and ``aim`` in ``state`` is already worked out (its
    memo holds it): a view draws the grid at once, else its frame first (issue 33)."""
    return (side_arg(side), _aim(aim)) in state_memo(public_state(state)).get("full_advice", {})


def plain_advice(state: Any, side: int, aim: str = "net") -> Advice:
    """The app general's staff officer of policy 1 (HR-AI-15: battles started before policy 2):
    the 6×6 grid of :func:`candidate_bids` (each maneuver with at most one stratagem, weighed
    against the enemy's plain bids) and its equilibrium. Kept exactly as it decided, so the
    links of those battles still check (HR-AI-14). Exact; memoised per state."""
    public = public_state(state)
    side, aim = side_arg(side), _aim(aim)
    memo = state_memo(public).setdefault("advice", {})
    if (side, aim) in memo:
        return memo[(side, aim)]
    own = candidate_bids(public, side, aim)
    enemy = candidate_bids(public, 1 - side, aim)
    grid, matrix = [], []
    for mine in own:
        row, values = [], []
        for theirs in enemy:
            pair = (mine, theirs) if side == 0 else (theirs, mine)
            odds = _odds_for(public, pair)
            value = payoff(odds, side, aim, public)
            row.append(GridCell(odds.sides[side].gets_away, odds.sides[1 - side].mean_landed,
                                odds.sides[side].mean_landed, odds.sides[side].falls_back, value))
            values.append(value)
        grid.append(tuple(row))
        matrix.append(tuple(values))
    solution = zerosum.solve(matrix)
    out = Advice(side, aim, own, enemy, tuple(grid), tuple(matrix), solution.value, solution.row, solution.column)
    memo[(side, aim)] = out
    return out


# ---------------------------------------------------------------------------
# Issue 34, item 13: the game over every bid each side can make (HR-AI-13, HR-AI-15)


def _rearguard_choices(public: Any, side: int) -> list[int]:
    """AI-2: the rearguards a Withdraw may name, one of each kind: units alike in every stat,
    trait, toughness and damage (and whether they are the vanguard) give the same odds and
    battles alike but for the units' names and places in the list (HR-AI-2 lands casualties on
    the rearguard first, then on the others in list order: the same kinds in the same order), so the first of them stands for all; the army's
    current rearguard stands for its kind and comes first."""
    army = public.armies[side]
    current = public.rearguards[side]
    seen, out = set(), []
    for i in [current] + [u for u in public.alive(side) if u != current]:
        kind = (replace(army.units[i], name=""), public.damage[side][i], i == public.vanguards[side])
        if kind not in seen:
            seen.add(kind)
            out.append(i)
    return out


def _by_pool(public: Any, side: int, stratagems: tuple[str, ...], rears: list[int]) -> list[int]:
    """AI-2/HR-AI-2: of Withdraws without Last Stand, one rearguard for each size of pool: the
    rearguard changes only the pool and the unit the casualties land on first, and since they
    land one at a time until each unit is destroyed, then on the next, how many land and whether
    the army is destroyed do not depend on the order — so the aims' figures (casualties landed,
    getting away, staying, the army destroyed) are the same for rearguards of the same pool
    (which units fall differs: Last Stand, which destroys the rearguard's own, keeps every kind)."""
    seen, out = set(), []
    for rear in rears:
        dice = pool_of(public, side, "withdraw", stratagems, False, rear).dice
        if dice not in seen:
            seen.add(dice)
            out.append(rear)
    return out


def legal_bids(state: Any, side: int) -> tuple[Any, ...]:
    """AI-7, AI-16, AI-2: every bid ``side`` may declare this week, up to bids proved the same:
    each maneuver with every combination of the stratagems it qualifies for whose effect is
    stated (one whose effect is not given changes nothing the app applies, AI-17, so it is the
    same bid without it), a Withdraw with every kind of rearguard (:func:`_rearguard_choices`;
    without Last Stand, one of each size of pool, :func:`_by_pool`).
    Table order: maneuvers, then fewer stratagems first."""
    public = public_state(state)
    side = side_arg(side)
    memo = state_memo(public).setdefault("legal_bids", {})
    if side in memo:
        return memo[side]
    out: list[Any] = []
    for maneuver in MANEUVERS:
        keys = stated_stratagems(public, side, maneuver)
        combos = [tuple(k for k in keys if mask >> keys.index(k) & 1) for mask in range(1 << len(keys))]
        combos.sort(key=len)
        for combo in combos:
            rears: list[Any] = _rearguard_choices(public, side) if maneuver == "withdraw" else [None]
            if maneuver == "withdraw" and "last_stand" not in combo:
                rears = _by_pool(public, side, combo, rears)
            out.extend(Bid(maneuver, combo, rear) for rear in rears)
    memo[side] = tuple(out)
    return memo[side]


def _full_cell(public: Any, side: int, aim: str, mine: Any, theirs: Any,
               memo: dict[Any, Any]) -> tuple[Fraction, Any]:
    """The payoff for ``side`` and the odds of ``mine`` against ``theirs``, a Counter Attack
    switched or not as its holder likes best for the aim (AI-16: it decides after the reveal)."""
    key = (mine, theirs)
    found = memo.get(key)
    if found is None:
        pair = (mine, theirs) if side == 0 else (theirs, mine)
        options = [(False, False)]
        for s in (0, 1):
            if counter_problem(public, s, pair) is None:
                options.append((s == 0, s == 1))
        best: tuple[Fraction, Any] | None = None
        for switched in options:
            odds = checked_odds(public, pair, switched)
            value = payoff(odds, side, aim, public)
            holder_is_me = switched[side]
            if best is None or (value > best[0] if holder_is_me else value < best[0]):
                best = (value, odds)
        found = memo[key] = best
    return cast(tuple[Fraction, Any], found)


def _solve_full(public: Any, side: int,
                aim: str) -> tuple[list[Any], list[Any], Any, dict[Any, Any], dict[Any, Any]]:
    """The zero-sum game over :func:`legal_bids` of both sides, solved exactly by the double
    oracle: solve the game of the bids found so far (first the plain maneuvers), add the best
    answer of each side from all its legal bids to the other's mix while one gains, and stop
    when neither does. Then the row mix gives at least the value against every legal enemy
    bid, and the column mix at most: the equilibrium of the whole game, no bid pruned unless
    it was proved the same (:func:`legal_bids`). Returns the rows, columns, solution, cells
    and what the row mix gives against every legal enemy bid."""
    cells: dict[Any, Any] = {}
    own_all, enemy_all = legal_bids(public, side), legal_bids(public, 1 - side)
    rows = [_plain(public, side, m) for m in MANEUVERS]
    cols = [_plain(public, 1 - side, m) for m in MANEUVERS]
    while True:
        matrix = [[_full_cell(public, side, aim, r, c, cells)[0] for c in cols] for r in rows]
        solution = zerosum.solve(matrix)
        x = [(r, p) for r, p in zip(rows, solution.row) if p]
        y = [(c, q) for c, q in zip(cols, solution.column) if q]
        against = {e: sum((p * _full_cell(public, side, aim, r, e, cells)[0] for r, p in x), Fraction(0))
                   for e in enemy_all}
        worst = min(against, key=against.__getitem__)  # ties: the first in table order
        answer = {b: sum((q * _full_cell(public, side, aim, b, c, cells)[0] for c, q in y), Fraction(0))
                  for b in own_all}
        best = max(answer, key=answer.__getitem__)
        grew = False
        if against[worst] < solution.value and worst not in cols:
            cols.append(worst)
            grew = True
        if answer[best] > solution.value and best not in rows:
            rows.append(best)
            grew = True
        if not grew:
            return rows, cols, solution, cells, against


def advice(state: Any, side: int, aim: str = "net") -> Advice:
    """HR-AI-13 (issue 34, item 13): the staff officer's advice for ``side`` and ``aim``, from the
    public battle only (:func:`public_state`): the equilibrium of the game over every bid each
    side may legally declare (:func:`legal_bids`: stratagem combinations, every rearguard, a
    Counter Attack switched or not), so the mix holds its value whatever the enemy declares.
    The grid shows, for each maneuver, the bids the mixes use (else the plain maneuver) against
    the enemy's; ``worst`` what the mix gives at worst against each enemy maneuver in any of
    its legal forms. Exact; memoised per state."""
    public = public_state(state)
    side, aim = side_arg(side), _aim(aim)
    memo = state_memo(public).setdefault("full_advice", {})
    if (side, aim) in memo:
        return memo[(side, aim)]
    rows, cols, solution, cells, against = _solve_full(public, side, aim)
    row_mix, col_mix = dict(zip(rows, solution.row)), dict(zip(cols, solution.column))

    def shown(bids: list[Any], mix: dict[Any, Any], everything: tuple[Any, ...], s: int) -> list[Any]:
        out: list[Any] = []
        for maneuver in MANEUVERS:
            used = sorted((b for b in bids if b.maneuver == maneuver and mix[b]), key=everything.index)
            out.extend(used or [_plain(public, s, maneuver)])
        return out

    own = shown(rows, row_mix, legal_bids(public, side), side)
    enemy = shown(cols, col_mix, legal_bids(public, 1 - side), 1 - side)
    grid, matrix = [], []
    for mine in own:
        row, values = [], []
        for theirs in enemy:
            value, odds = _full_cell(public, side, aim, mine, theirs, cells)
            row.append(GridCell(odds.sides[side].gets_away, odds.sides[1 - side].mean_landed,
                                odds.sides[side].mean_landed, odds.sides[side].falls_back, value))
            values.append(value)
        grid.append(tuple(row))
        matrix.append(tuple(values))
    worst = tuple((m, min(v for e, v in against.items() if e.maneuver == m)) for m in MANEUVERS)
    out = Advice(side, aim, tuple(own), tuple(enemy), tuple(grid), tuple(matrix), solution.value,
                 tuple(row_mix.get(b, Fraction(0)) for b in own), tuple(col_mix.get(b, Fraction(0)) for b in enemy),
                 worst)
    memo[(side, aim)] = out
    return out


def best_answer_to_plain(state: Any, side: int, aim: str) -> tuple[Any, Fraction]:
    """The bid of :func:`legal_bids` with the best average payoff for ``aim`` against an enemy
    declaring each of its six plain maneuvers alike (the Normal general of policy 2, HR-AI-15),
    a Counter Attack switched or not as its holder likes; ties: the first in table order."""
    public = public_state(state)
    side, aim = side_arg(side), _aim(aim)
    memo = state_memo(public).setdefault("plain_answer", {})
    if (side, aim) not in memo:
        cells: dict[Any, Any] = {}
        enemies = [_plain(public, 1 - side, m) for m in MANEUVERS]
        best, best_value = None, None
        for bid in legal_bids(public, side):
            value = sum((_full_cell(public, side, aim, bid, e, cells)[0] for e in enemies), Fraction(0)) / 6
            if best_value is None or value > best_value:
                best, best_value = bid, value
        memo[(side, aim)] = (best, best_value)
    return memo[(side, aim)]
