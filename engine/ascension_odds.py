"""Ascension Isle: what two declared bids mean before the roll (issue 17).

:func:`outcome_odds` gives, for two bids (maneuver, stratagems, rearguard), the exact
chance (:class:`~fractions.Fraction`) of every outcome of the week for each side:
its Withdraw gets away (and how: the three-hex arc or back up the route, HR-AI-12),
fails, the army falls back (AI-19) or stays; the distribution of the casualties that
land on it (AI-12 ranges, AI-15 mitigation, Delay, Hold the Line, Counter Attack,
Feint, Harassing Fire, Last Stand) and its mean; the chance it loses a unit and the
chance it is destroyed this week (AI-14). House tables (AI-11) and the AI-10 "winner
reads" variant are read from the state's settings.

It is exact and shares the week's rules with :func:`engine.ascension.resolve` (the
same reading of the cells, mitigation, withdraw, Last Stand, fallback and landing
helpers), so it gives what ``step`` replayed over every die outcome gives — the tests
check both that and an independent enumeration written from the rules alone.

Speed: the success counts are grouped by what they decide (winner, tier, each side's
mitigation) before the casualty ranges are rolled, and each army's landing of ``n``
casualties is worked out once per state (memoised with the odds of each pair of bids:
the state is immutable, so the cache never goes stale).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import gcd as _gcd
from collections.abc import Mapping
from typing import Any

from . import ascension as _a
from .ascension_tables import TIERS

__all__ = ["MOVEMENTS", "MOVEMENT_NAMES", "SideOdds", "OutcomeOdds", "outcome_odds", "withdraw_route",
           "as_bid"]

#: What can become of a side this week (:attr:`SideOdds.movement`).
MOVEMENTS: tuple[str, ...] = ("away_arc", "away_route", "away", "withdraw_fails", "falls_back", "stays")
MOVEMENT_NAMES: Mapping[str, str] = {
    "away_arc": "gets away (three-hex arc)", "away_route": "gets away (back up the route)",
    "away": "gets away", "withdraw_fails": "withdraw fails", "falls_back": "falls back (AI-19)",
    "stays": "no result: stays in the battle",
}

_ZERO = Fraction(0)


def withdraw_route(text: str) -> str:
    """HR-AI-12: how a Withdraw that gets away leaves, read from its cell's words:
    ``"away_arc"`` ("… three hex arc …": it may disengage into the three-hex arc from its
    route), ``"away_route"`` ("back up route" / "head back": it must head back up its
    route), ``"away"`` (the cell says only "Withdraw Succeeds")."""
    if not isinstance(text, str):
        raise _a.BadArgument(f"AI-10: a result cell is text (got {_a._shown(text)})")
    low = " ".join(text.lower().split())
    if "three hex arc" in low or "three-hex arc" in low:
        return "away_arc"
    if "back up route" in low or "back up the route" in low or "head back" in low:
        return "away_route"
    return "away"


@dataclass(frozen=True)
class SideOdds:
    """One side's outcome odds for the week (every chance a :class:`~fractions.Fraction`).

    * ``movement``: ``{movement: p}`` over :data:`MOVEMENTS` (sums to 1);
      ``gets_away`` is the sum of the three ``away`` kinds;
    * ``landed``: ``((n, p), …)`` the casualties that land on this army's units (after
      mitigation, no more than it can take), ``mean_landed`` its mean; ``taken`` the
      same before the cap (what the enemy's cell rolled less mitigation), ``mean_mitigated``;
    * ``units_lost``: ``((n, p), …)`` how many units it loses (Last Stand included);
      ``unit_lost``: per unit index the chance it is destroyed this week;
    * ``loses_unit``: chance it loses at least one unit; ``destroyed``: chance it has no
      unit left after the week (AI-14);
    * ``remains``: chance it is still in the hex after the week (it neither got away, nor
      fell back, nor was destroyed).
    """

    movement: Mapping[str, Fraction]
    landed: tuple[tuple[int, Fraction], ...]
    mean_landed: Fraction
    taken: tuple[tuple[int, Fraction], ...]
    mean_mitigated: Fraction
    units_lost: tuple[tuple[int, Fraction], ...]
    unit_lost: tuple[Fraction, ...]
    loses_unit: Fraction
    destroyed: Fraction
    remains: Fraction = _ZERO

    @property
    def gets_away(self) -> Fraction:
        return self.movement["away_arc"] + self.movement["away_route"] + self.movement["away"]

    @property
    def falls_back(self) -> Fraction:
        return self.movement["falls_back"]

    @property
    def withdraw_fails(self) -> Fraction:
        return self.movement["withdraw_fails"]

    @property
    def no_result(self) -> Fraction:
        return self.movement["stays"]


@dataclass(frozen=True)
class OutcomeOdds:
    """The odds of the week for two bids (see :func:`outcome_odds`).

    ``bids`` as resolved (canonical stratagem order, a Withdraw's rearguard filled in),
    ``switched`` (Counter Attack), ``maneuvers`` (after a switch), ``read_as`` (the row
    read: Skirmish under Harassing Fire), ``pools`` (:class:`~engine.ascension.Pool`),
    ``tiers`` (as :func:`~engine.ascension.tier_odds`), ``sides`` (:class:`SideOdds` per
    side), ``battle_ends`` (a side gets away, falls back or is destroyed), ``fallback_table``
    (chance that a side reads a cell of the AI-11 fallback to Minor victory).
    """

    bids: tuple[Any, Any]
    switched: tuple[bool, bool]
    maneuvers: tuple[str, str]
    read_as: tuple[str, str]
    pools: tuple[Any, Any]
    tiers: Mapping[str, Any]
    sides: tuple[SideOdds, SideOdds]
    battle_ends: Fraction
    fallback_table: tuple[Fraction, Fraction]


def as_bid(bid: Any) -> "_a.Bid":
    """A :class:`~engine.ascension.Bid` from a Bid or a bid action's fields
    (``{"maneuver": "withdraw", "stratagems": [...], "rearguard": 2}``)."""
    if isinstance(bid, _a.Bid):
        return bid
    if not isinstance(bid, Mapping):
        raise _a.BadArgument(f"A bid is a Bid or an object with its maneuver (got {_a._shown(bid)})")
    unknown = sorted(str(k) for k in bid if k not in ("type", "side", "maneuver", "stratagems", "rearguard", "why"))
    if unknown:
        raise _a.BadArgument(f"A bid has a maneuver, stratagems and (a Withdraw) a rearguard; not {', '.join(unknown)}")
    maneuver = _a._maneuver(bid.get("maneuver"))
    stratagems = bid.get("stratagems", ())
    keys = _a._stratagem_keys(stratagems)
    if len(keys) != len(list(stratagems)):
        raise _a.BadArgument("AI-16: a stratagem is declared at most once")
    rear = bid.get("rearguard")
    if rear is not None:
        rear = _a._int(rear, "The rearguard (a unit number)", 0, None)
    return _a.Bid(maneuver, tuple(stratagems), rear)


# ---------------------------------------------------------------------------
# The per-state memo (the state is immutable: its odds never change)

_CACHE_SIZE = 6
_cache: list[tuple[Any, dict[str, dict]]] = []


def _memo(state: Any) -> dict[str, dict]:
    for index, (known, memo) in enumerate(_cache):
        if known is state:
            if index:
                _cache.insert(0, _cache.pop(index))
            return memo
    memo: dict[str, dict] = {"odds": {}, "land": {}}
    _cache.insert(0, (state, memo))
    del _cache[_CACHE_SIZE:]
    return memo


def _pools(state: Any, memo: dict, bids: tuple, switched: tuple[bool, bool]) -> tuple[Any, Any]:
    """AI-2/AI-3/AI-16: the week's two pools (as :func:`engine.ascension._week_pools`), each
    remembered per side, bid and switch: a side's pool never depends on the other's bid."""
    known = memo.setdefault("pools", {})
    out = []
    for s in (0, 1):
        key = (s, bids[s], switched[s])
        pool = known.get(key)
        if pool is None:
            pool = known[key] = _a._pool(state, s, bids[s].maneuver, bids[s].stratagems, switched[s],
                                         bids[s].rearguard)
        out.append(pool)
    return tuple(out)


def _landing(state: Any, memo: dict, side: int, first: int, count: int) -> tuple[int, frozenset[int]]:
    """AI-14/HR-AI-2 via the engine's own landing: (casualties that landed, units destroyed)."""
    key = (side, first, count)
    found = memo["land"].get(key)
    if found is None:
        damage, destroyed, hits = _a._land(state, side, count, first, state.damage[side], state.destroyed[side])
        lost = frozenset(i for i, dead in enumerate(destroyed) if dead and not state.destroyed[side][i])
        found = (sum(n for _, n in hits), lost)
        memo["land"][key] = found
    return found


def outcome_odds(state: Any, bids: Any, switched: Any = None) -> OutcomeOdds:
    """AI-8 … AI-19: the exact odds of every outcome of this week for two declared bids.

    ``state``: the battle before the roll (any phase but over; the bids need not be the
    state's own — an advisor may ask about any pair the armies could declare). ``bids``:
    a pair of :class:`~engine.ascension.Bid` (or bid fields, see :func:`as_bid`); their
    stratagems must qualify (AI-16), a Withdraw's rearguard defaults to the army's.
    ``switched``: Counter Attack switches (default: the state's when ``bids`` are its
    revealed bids, else none; see :func:`engine.ascension.resolve`).

    Returns an :class:`OutcomeOdds`, with Fractions that sum to 1 per distribution.
    Every roll of both pools (AI-3, AI-6) is counted exactly, every casualty range roll
    uniformly (AI-12), mitigation (AI-15, Delay; none under Hold the Line), landing
    (AI-14, HR-AI-1, HR-AI-2), Last Stand, the fallback (AI-19) and the AI-10 variant
    as :func:`~engine.ascension.resolve` applies them. Raises a ``ValueError`` subclass
    (:class:`~engine.ascension.BadArgument`, :class:`~engine.game.RuleError`) for
    arguments that do not fit.
    """
    state = _a._state(state)
    if state.phase == "over":
        raise _a.RuleError("AI-15", f"the battle is over: {state.outcome}")
    if not isinstance(bids, (tuple, list)) or len(bids) != 2:
        raise _a.BadArgument("The bids must be a pair, one per side")
    pair = _a._bids_arg(state, (as_bid(bids[0]), as_bid(bids[1])))
    flips = _a._switched_arg(state, pair, switched)
    memo = _memo(state)
    key = (pair, flips)
    found = memo["odds"].get(key)
    if found is None:
        found = _compute(state, memo, pair, flips)
        memo["odds"][key] = found
    return found


def _compute(state: Any, memo: dict, bids: tuple, switched: tuple[bool, bool]) -> OutcomeOdds:
    die, target = _a.success_setting(state.settings)
    pools = _pools(state, memo, bids, switched)
    dists = [_a.success_distribution(p.dice, die, target) for p in pools]
    total = die ** (pools[0].dice + pools[1].dice)
    readings: dict[tuple, Any] = {}
    groups: dict[tuple, int] = {}
    skilled = [bool(a.general and a.general.skilled) for a in state.armies]
    maneuvers = None
    tier_of: dict[tuple[int, bool], str] = {}
    for s0, w0 in enumerate(dists[0]):
        if not w0:
            continue
        for s1, w1 in enumerate(dists[1]):
            if not w1:
                continue
            margin = abs(s0 - s1)
            winner = None if margin == 0 else (0 if s0 > s1 else 1)
            skill = winner is not None and skilled[winner]
            tier = tier_of.get((margin, skill))
            if tier is None:
                tier = tier_of[(margin, skill)] = _a.victory_tier(margin, skill)
            rkey = (winner, tier)
            if rkey not in readings:
                readings[rkey] = _a._read(state, bids, switched, (s0, s1), pools)
            maneuvers = readings[rkey].maneuvers
            mit = _a._mitigation(bids, maneuvers, (s0, s1))
            gkey = (winner, tier, mit)
            groups[gkey] = groups.get(gkey, 0) + w0 * w1
    assert maneuvers is not None
    rears = tuple(bids[s].rearguard if maneuvers[s] == "withdraw" else None for s in (0, 1))
    firsts = tuple(rears[s] if rears[s] is not None else state.vanguards[s] for s in (0, 1))
    alive = [frozenset(state.alive(s)) for s in (0, 1)]
    # Each group's casualty rolls are uniform (AI-12): weights in whole numbers over the common
    # denominator total · scale, where scale is a multiple of every group's number of range rolls.
    plans = []
    scale = 1
    for (winner, tier, mit), weight in groups.items():
        reading = readings[(winner, tier)]
        rolls = [[0] if span is None else list(range(span[0], span[1] + 1)) for span in reading.ranges]
        n = len(rolls[0]) * len(rolls[1])
        scale = scale * n // _gcd(scale, n)
        plans.append((winner, tier, mit, weight, reading, rolls, n))
    denominator = total * scale
    movement = [{m: 0 for m in MOVEMENTS}, {m: 0 for m in MOVEMENTS}]
    landed: list[dict] = [{}, {}]
    taken_d: list[dict] = [{}, {}]
    lost_n: list[dict] = [{}, {}]
    mitigated = [0, 0]
    per_unit = [[0] * len(state.armies[s].units) for s in (0, 1)]
    loses = [0, 0]
    wiped = [0, 0]
    remains = [0, 0]
    ends = 0
    fallback = [0, 0]
    tiers_w: dict[tuple, int] = {}
    for winner, tier, mit, weight, reading, rolls, n in plans:
        big = weight * scale
        tiers_w[(winner, tier)] = tiers_w.get((winner, tier), 0) + big
        withdrew = _a._withdrew(reading)
        loser = _a._beaten_line(reading, bids)
        moves = []
        for s in (0, 1):
            if withdrew[s]:
                moves.append(withdraw_route(reading.cells[s].text))
            elif reading.maneuvers[s] == "withdraw":
                moves.append("withdraw_fails")
            elif loser == s and not state.old_rulings:
                moves.append("falls_back")
            else:
                moves.append("stays")
            movement[s][moves[s]] += big
            if reading.applied[s] and reading.cells[s].origin == "fallback":
                fallback[s] += big
        moving = any(m not in ("stays", "withdraw_fails") for m in moves)
        stand = [frozenset(_a._last_stand_units(reading, s, rears[s]))
                 if withdrew[s] and "last_stand" in bids[s].stratagems else frozenset() for s in (0, 1)]
        q = big // n
        # Each side's fate depends only on the roll of the other side's range (what comes in),
        # so each side is summed over that roll alone, weighted by the other's number of rolls;
        # the battle ends in a pair of rolls unless neither side is gone (nor moving).
        standing = [0, 0]  # per side: the incoming rolls that leave it in the field
        for s in (0, 1):
            w = q * len(rolls[s])
            for incoming in rolls[1 - s]:
                cut = min(mit[s], incoming)
                taken = incoming - cut
                count, lost = _landing(state, memo, s, firsts[s], taken)
                if stand[s]:
                    lost = lost | stand[s]
                landed[s][count] = landed[s].get(count, 0) + w
                taken_d[s][taken] = taken_d[s].get(taken, 0) + w
                lost_n[s][len(lost)] = lost_n[s].get(len(lost), 0) + w
                mitigated[s] += cut * w
                if lost:
                    loses[s] += w
                    for i in lost:
                        per_unit[s][i] += w
                    if alive[s] <= lost:
                        wiped[s] += w
                        continue
                standing[s] += 1
                if moves[s] in ("stays", "withdraw_fails"):
                    remains[s] += w
        ends += q * n if moving else q * (n - standing[0] * standing[1])

    def f(weight: int) -> Fraction:
        return Fraction(weight, denominator)

    def dist(table: dict) -> tuple[tuple[int, Fraction], ...]:
        return tuple((k, f(v)) for k, v in sorted(table.items()) if v)

    tiers: dict[str, Any] = {"drawn": f(tiers_w.get((None, "drawn"), 0)), "sides": ({}, {})}
    for t in TIERS[1:]:
        for s in (0, 1):
            if t != "legendary" or skilled[s]:
                tiers["sides"][s][t] = f(tiers_w.get((s, t), 0))
    sides = tuple(SideOdds(
        movement={m: f(v) if v else _ZERO for m, v in movement[s].items()}, landed=dist(landed[s]),
        mean_landed=f(sum(k * v for k, v in landed[s].items())), taken=dist(taken_d[s]),
        mean_mitigated=f(mitigated[s]), units_lost=dist(lost_n[s]), unit_lost=tuple(f(v) if v else _ZERO for v in per_unit[s]),
        loses_unit=f(loses[s]), destroyed=f(wiped[s]), remains=f(remains[s])) for s in (0, 1))
    any_reading = next(iter(readings.values()))
    return OutcomeOdds(bids=bids, switched=switched, maneuvers=any_reading.maneuvers, read_as=any_reading.read_as,
                       pools=pools, tiers=tiers, sides=sides, battle_ends=f(ends),  # type: ignore[arg-type]
                       fallback_table=(f(fallback[0]), f(fallback[1])))
