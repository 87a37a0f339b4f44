"""Ascension Isle battles: what two declared bids mean before the roll (issue 17; AI-6, AI-8 … AI-19).

:func:`week_odds` gives the exact chance of every tier of this week's roll with the
revealed bids (AI-6, AI-8: :func:`~engine.ascension.tier_odds` of the two pools).
:func:`outcome_odds` gives, for two bids (maneuver, stratagems, rearguard), the exact
chance (:class:`~fractions.Fraction`) of every outcome of the week for each side:
its Withdraw gets away (and how: the three-hex arc or back up the route, HR-AI-12),
fails, the army falls back (AI-19) or stays; the distribution of the casualties that
land on it (AI-12 ranges, AI-15 mitigation, Delay, Hold the Line, Counter Attack,
Feint, Harassing Fire, Last Stand) and its mean; the chance it loses a unit and the
chance it is destroyed this week (AI-14). House tables (AI-11) and the AI-10 "winner
reads" variant are read from the state's settings.

It is exact and shares the week's rules with :func:`~engine.ascension.resolve` (the
same reading of the cells, mitigation, withdraw, Last Stand, fallback and landing
helpers), so it gives what ``step`` replayed over every die outcome gives — the tests
check both that and an independent enumeration written from the rules alone.

Speed: the success counts are grouped by what they decide (winner, tier, each side's
mitigation) before the casualty ranges are rolled, and each army's landing of ``n``
casualties is worked out once per state (memoised with the odds of each pair of bids:
the state is immutable, so the cache never goes stale). The memo is found by the state's
content (:func:`content_key`), so a state replayed again — undo, redo, a reload, a link
opened, a week that changed nothing — reuses what was worked out for it (issue 33).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import gcd as _gcd
from types import MappingProxyType
from typing import Any, NamedTuple

from ..game import ArgumentError, RuleError
from ..text import brief_repr, key_text, shown
from .rules import bid_pools, pool_of, stratagem_keys, success_distribution, success_setting, tier_odds, victory_tier
from .tables import TIERS
from .values import BattleState, Bid, int_arg, maneuver_arg, per_side, state_arg
from .week import (
    beaten_line,
    bids_arg,
    land,
    last_stand_units,
    mitigation_by_margin,
    mitigation_of,
    read_tables,
    switched_arg,
    withdrew_of,
)

__all__ = ["MOVEMENTS", "MOVEMENT_NAMES", "SideOdds", "OutcomeOdds", "outcome_odds", "withdraw_route",
           "as_bid", "week_odds"]


#: What can become of a side this week (:attr:`SideOdds.movement`).
MOVEMENTS: tuple[str, ...] = ("away_arc", "away_route", "away", "withdraw_fails", "falls_back", "stays")
MOVEMENT_NAMES: Mapping[str, str] = MappingProxyType({
    "away_arc": "gets away (three-hex arc)", "away_route": "gets away (back up the route)",
    "away": "gets away", "withdraw_fails": "withdraw fails", "falls_back": "falls back (AI-19)",
    "stays": "no result: stays in the battle",
})

_ZERO = Fraction(0)


def withdraw_route(text: str) -> str:
    """HR-AI-12: how a Withdraw that gets away leaves, read from its cell's words:
    ``"away_arc"`` ("… three hex arc …": it may disengage into the three-hex arc from its
    route), ``"away_route"`` ("back up route" / "head back": it must head back up its
    route), ``"away"`` (the cell says only "Withdraw Succeeds")."""
    if not isinstance(text, str):
        raise ArgumentError(f"AI-10: a result cell is text (got {brief_repr(text)})")
    low = " ".join(text.lower().split())
    if "three hex arc" in low or "three-hex arc" in low:
        return "away_arc"
    if "back up route" in low or "back up the route" in low or "head back" in low:
        return "away_route"
    return "away"


class _ByValue:
    """Odds compare (and hash) by the exact figures they show, however they were counted."""

    __slots__ = ()

    def _values(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())


class _SideWeights(NamedTuple):
    """One side's outcomes counted in whole numbers over a common denominator (the odds'
    exact arithmetic, before any Fraction is made)."""

    movement: tuple[tuple[str, int], ...]
    landed: tuple[tuple[int, int], ...]
    taken: tuple[tuple[int, int], ...]
    mitigated: int
    units_lost: tuple[tuple[int, int], ...]
    unit_lost: tuple[int, ...]
    loses_unit: int
    destroyed: int
    remains: int


class SideOdds(_ByValue):
    """One side's outcome odds for the week (every chance a :class:`~fractions.Fraction`).

    * ``movement``: ``{movement: p}`` over :data:`MOVEMENTS`, each counting only the weeks
      the army survives (AI-20: a destroyed army neither gets away, falls back nor stays):
      with ``destroyed`` it sums to 1;
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

    Immutable; each figure is made (exactly) the first time it is read — the advisor reads
    a few of them for hundreds of pairs of bids (issue 17's speed goal).
    """

    __slots__ = ("_weights", "_denominator", "_made")
    _weights: _SideWeights
    _denominator: int
    _made: dict[str, Any]  # the figures made so far, by name

    def __init__(self, weights: _SideWeights, denominator: int) -> None:
        object.__setattr__(self, "_weights", weights)
        object.__setattr__(self, "_denominator", denominator)
        object.__setattr__(self, "_made", {})

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"SideOdds is immutable (cannot set {name})")

    def _p(self, weight: int) -> Fraction:
        return Fraction(weight, self._denominator) if weight else _ZERO

    def _figure(self, name: str) -> Any:
        made = self._made
        if name not in made:
            w = self._weights
            if name == "movement":
                made[name] = MappingProxyType({m: self._p(v) for m, v in w.movement})  # odds are remembered
            elif name in ("landed", "taken", "units_lost"):
                made[name] = tuple((k, self._p(v)) for k, v in getattr(w, name))
            elif name == "mean_landed":
                made[name] = self._p(sum(k * v for k, v in w.landed))
            elif name == "mean_mitigated":
                made[name] = self._p(w.mitigated)
            elif name == "unit_lost":
                made[name] = tuple(self._p(v) for v in w.unit_lost)
            else:
                made[name] = self._p(getattr(w, name))
        return made[name]

    #: Every figure, in the order they are compared, hashed and shown.
    FIGURES = ("movement", "landed", "mean_landed", "taken", "mean_mitigated", "units_lost", "unit_lost",
               "loses_unit", "destroyed", "remains")

    movement = property(lambda self: self._figure("movement"))
    landed = property(lambda self: self._figure("landed"))
    mean_landed = property(lambda self: self._figure("mean_landed"))
    taken = property(lambda self: self._figure("taken"))
    mean_mitigated = property(lambda self: self._figure("mean_mitigated"))
    units_lost = property(lambda self: self._figure("units_lost"))
    unit_lost = property(lambda self: self._figure("unit_lost"))
    loses_unit = property(lambda self: self._figure("loses_unit"))
    destroyed = property(lambda self: self._figure("destroyed"))
    remains = property(lambda self: self._figure("remains"))

    def _values(self) -> tuple[Any, ...]:
        return tuple(self._figure(n) if n != "movement" else tuple(self.movement.items()) for n in self.FIGURES)


    def __repr__(self) -> str:
        return "SideOdds(" + ", ".join(f"{n}={self._figure(n)!r}" for n in self.FIGURES) + ")"

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


@dataclass(frozen=True, eq=False)
class OutcomeOdds(_ByValue):
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
    sides: tuple[SideOdds, SideOdds]
    #: The tiers', the end's and the fallback's whole-number weights, skilled generals, and
    #: the denominator: their Fractions are made when first read.
    _weights: tuple[Any, ...] = field(repr=False, compare=False)

    @cached_property
    def tiers(self) -> Mapping[str, Any]:
        tiers_w, skilled, _, _, denominator = self._weights
        sides: tuple[dict[str, Fraction], dict[str, Fraction]] = ({}, {})
        for t in TIERS[1:]:
            for s in (0, 1):
                if t != "legendary" or skilled[s]:
                    sides[s][t] = Fraction(tiers_w.get((s, t), 0), denominator)
        # read-only: the odds are remembered per state, and every caller reads the same ones
        return MappingProxyType({"drawn": Fraction(tiers_w.get((None, "drawn"), 0), denominator),
                                 "sides": (MappingProxyType(sides[0]), MappingProxyType(sides[1]))})

    @cached_property
    def battle_ends(self) -> Fraction:
        return Fraction(self._weights[2], self._weights[4])

    @cached_property
    def fallback_table(self) -> tuple[Fraction, Fraction]:
        fallback, denominator = self._weights[3], self._weights[4]
        return Fraction(fallback[0], denominator), Fraction(fallback[1], denominator)

    def _values(self) -> tuple[Any, ...]:
        tiers = self.tiers
        return (self.bids, self.switched, self.maneuvers, self.read_as, self.pools, self.sides, tiers["drawn"],
                tuple(tuple(by_tier.items()) for by_tier in tiers["sides"]), self.battle_ends, self.fallback_table)



def as_bid(bid: Any) -> "Bid":
    """A :class:`~engine.ascension.Bid` from a Bid or a bid action's fields
    (``{"maneuver": "withdraw", "stratagems": [...], "rearguard": 2}``)."""
    if isinstance(bid, Bid):
        return bid
    if not isinstance(bid, Mapping):
        raise ArgumentError(f"A bid is a Bid or an object with its maneuver (got {brief_repr(bid)})")
    unknown = sorted(key_text(k) for k in bid if k not in ("type", "side", "maneuver", "stratagems", "rearguard", "why"))
    if unknown:
        raise ArgumentError("A bid has a maneuver, stratagems and (a Withdraw) a rearguard; "
                            f"not {', '.join(shown(k)[1:-1] for k in unknown[:4])}")
    maneuver = maneuver_arg(bid.get("maneuver"))
    stratagems = bid.get("stratagems", ())
    keys = stratagem_keys(stratagems)
    if len(keys) != len(list(stratagems)):
        raise ArgumentError("AI-16: a stratagem is declared at most once")
    rear = bid.get("rearguard")
    if rear is not None:
        rear = int_arg(rear, "The rearguard (a unit number)", 0, None)
    return Bid(maneuver, tuple(stratagems), rear)


#: How many states' memos are found by the state itself (the fast path: the same object asked again).
_CACHE_SIZE = 6
#: A state's remembered readings, by kind ("odds", "land", "decided", "fates", "dist", "pools" …).
Memo = dict[str, Any]
_cache: list[tuple[Any, Memo]] = []
#: How many battles' memos are kept by their content (:func:`content_key`): a state replayed again
#: (undo, redo, a reload, a link opened, a week that changed nothing) finds the odds, the advisor's
#: grid and the app general's numbers it had (issue 33: compute once).
_CONTENT_SIZE = 24
_by_content: dict[tuple[Any, ...], Memo] = {}


def content_key(state: BattleState) -> tuple[Any, ...]:
    """What the odds, the advisor and the app's general read of a battle state: the armies (their
    units, generals and levels), damage, destroyed units, vanguards, rearguards, the settings and
    the rulings it is played with — not the week, its history, the bids or the phase (the
    advisor wipes the bids: :func:`~engine.ascension.public_state`). Two states with the same key
    have the same odds for every pair of bids."""
    return (state.armies, state.damage, state.destroyed, state.vanguards, state.rearguards,
            _hashable(state.rules), state.old_rulings)


def _hashable(value: Any) -> Any:
    """A settings value as a key: objects (house tables) as sorted pairs, lists as tuples."""
    if isinstance(value, Mapping):
        return tuple(sorted((key, _hashable(item)) for key, item in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(item) for item in value)
    return value


def state_memo(state: BattleState) -> Memo:
    """The memo of ``state``'s pure figures (odds, landings, pools, the advisor's grid …), shared by
    every state of the same :func:`content_key`: found by the object first, then by its content."""
    for index, (known, memo) in enumerate(_cache):
        if known is state:
            if index:
                _cache.insert(0, _cache.pop(index))
            return memo
    key = content_key(state)
    found = _by_content.pop(key, None)
    if found is not None:
        memo = found
    else:
        memo = {"odds": {}, "land": {}, "decided": {}, "fates": {}, "dist": {}, "settings": key[5:]}
        if len(_by_content) >= _CONTENT_SIZE:
            del _by_content[next(iter(_by_content))]  # the least recently used
    _by_content[key] = memo
    _cache.insert(0, (state, memo))
    del _cache[_CACHE_SIZE:]
    return memo


#: What a reading of the tables decides (:func:`_decided`), by the settings and rulings it reads
#: and what decides it: the same for every battle with those settings.
_DECIDED_SIZE = 4096
_decided_memo: dict[tuple[Any, ...], "_Decided"] = {}


def _pools(state: BattleState, memo: Memo, bids: tuple[Bid, Bid], switched: tuple[bool, bool]) -> tuple[Any, Any]:
    """AI-2/AI-3/AI-16: the week's two pools (as the rules' ``bid_pools``), each
    remembered per side, bid and switch: a side's pool never depends on the other's bid."""
    known = memo.setdefault("pools", {})
    out = []
    for s in (0, 1):
        key = (s, bids[s], switched[s])
        pool = known.get(key)
        if pool is None:
            pool = known[key] = pool_of(state, s, bids[s].maneuver, bids[s].stratagems, switched[s],
                                        bids[s].rearguard)
        out.append(pool)
    return tuple(out)


def _landing(state: BattleState, memo: Memo, side: int, first: int, count: int) -> tuple[int, frozenset[int]]:
    """AI-14/HR-AI-2 via the engine's own landing: (casualties that landed, units destroyed)."""
    key = (side, first, count)
    found = memo["land"].get(key)
    if found is None:
        damage, destroyed, hits = land(state, side, count, first, state.damage[side], state.destroyed[side])
        lost = frozenset(i for i, dead in enumerate(destroyed) if dead and not state.destroyed[side][i])
        found = (sum(n for _, n in hits), lost)
        memo["land"][key] = found
    return found


def week_odds(state: BattleState, rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """AI-6/AI-8: exact odds of this week's roll with the revealed bids (see :func:`~engine.ascension.tier_odds`)."""
    state = state_arg(state)
    pools = bid_pools(state)
    die, target = success_setting(rules if rules is not None else state.settings)

    def is_skilled(s: int) -> bool:  # AI-8, AI-9: a legendary victory needs a skilled general
        general = state.armies[s].general
        return general is not None and bool(general.skilled)

    skilled = per_side(is_skilled)
    return tier_odds(pools[0].dice, pools[1].dice, die, target, skilled)


def outcome_odds(state: object, bids: Any, switched: Any = None) -> OutcomeOdds:
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
    (:class:`~engine.game.ArgumentError`, :class:`~engine.game.RuleError`) for
    arguments that do not fit.
    """
    state = state_arg(state)
    if state.phase == "over":
        raise RuleError("AI-15", f"the battle is over: {state.outcome}")
    if not isinstance(bids, (tuple, list)) or len(bids) != 2:
        raise ArgumentError("The bids must be a pair, one per side")
    pair = bids_arg(state, (as_bid(bids[0]), as_bid(bids[1])))
    flips = switched_arg(state, pair, switched)
    return checked_odds(state, pair, flips)


def checked_odds(state: BattleState, bids: tuple[Bid, Bid], switched: tuple[bool, bool]) -> OutcomeOdds:
    """:func:`outcome_odds` of bids already checked and canonical (as ``bids_arg`` gives them:
    stratagems the army qualifies for, in table order, a Withdraw's rearguard named) with
    switches already allowed: the advisor's own (:mod:`.advice`)."""
    memo = state_memo(state)
    key = (bids, switched)
    found = memo["odds"].get(key)
    if found is None:
        found = memo["odds"][key] = _compute(state, memo, bids, switched)
    return found


class _Decided(NamedTuple):
    """What one reading of the tables decides this week, whatever the mitigation: each side's
    movement (AI-10, AI-15, AI-19: one of :data:`MOVEMENTS`), whether its Withdraw got away,
    whether it read a fallback cell (AI-11), the casualty range coming in from each side's cell
    (AI-12) and the number of its rolls."""

    reading: Any
    moves: tuple[str, str]
    withdrew: tuple[bool, bool]
    fell_to_fallback: tuple[bool, bool]
    spans: tuple[Any, Any]
    sizes: tuple[int, int]


def _decided(state: BattleState, memo: Memo, bids: tuple[Bid, Bid], switched: tuple[bool, bool], successes: tuple[int, int],
             pools: tuple[Any, Any], winner: int | None, tier: str) -> _Decided:
    """AI-8 … AI-11, AI-16, AI-19 via the week's own readings (``read_tables``,
    ``withdrew_of`` and ``beaten_line``, :mod:`.week`),
    remembered for what decides them: the settings and rulings, both maneuvers, Harassing Fire
    and Hold the Line, the switches, the winner and the tier (the same cells whatever the
    armies, the other stratagems or the pools)."""
    read_key = (bids[0].maneuver, bids[1].maneuver, switched, winner, tier,
                "harassing_fire" in bids[0].stratagems, "harassing_fire" in bids[1].stratagems)
    key = (read_key, "hold_the_line" in bids[0].stratagems, "hold_the_line" in bids[1].stratagems)
    found = memo["decided"].get(key)
    if found is None:
        shared = (memo["settings"], key)
        found = _decided_memo.get(shared)
        if found is None:
            found = _read_decided(state, bids, switched, successes, pools)
            if len(_decided_memo) >= _DECIDED_SIZE:
                _decided_memo.clear()
            _decided_memo[shared] = found
        memo["decided"][key] = found
    return found


def _read_decided(state: BattleState, bids: tuple[Bid, Bid], switched: tuple[bool, bool],
                  successes: tuple[int, int], pools: tuple[Any, Any]) -> _Decided:
    reading = read_tables(state, bids, switched, successes, pools)
    withdrew = withdrew_of(reading)
    loser = beaten_line(reading, bids)
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
    spans = reading.ranges
    rolls = [1 if span is None else span[1] - span[0] + 1 for span in spans]
    fallback = [reading.applied[s] and reading.cells[s].origin == "fallback" for s in (0, 1)]
    return _Decided(reading, (moves[0], moves[1]), withdrew, (fallback[0], fallback[1]), spans,
                    (rolls[0], rolls[1]))


def _alive(state: BattleState, memo: Memo) -> tuple[frozenset[int], frozenset[int]]:
    """Each army's units still in the battle, once per state."""
    if "alive" not in memo:
        memo["alive"] = (frozenset(state.alive(0)), frozenset(state.alive(1)))
    return memo["alive"]


def _fates(state: BattleState, memo: Memo, side: int, first: int, mitigation: int, span: Any,
           stand: frozenset[int]) -> tuple[tuple[tuple[int, int, frozenset[int], int, bool], ...], int]:
    """What each roll of the casualties coming in (``span``, AI-12; ``None``: none) does to
    ``side`` (AI-14, AI-15, Last Stand): per roll (landed, taken, units lost, cancelled), and
    how many rolls leave the army in the field; ``killed``: whether the casualties alone
    destroyed the army (AI-20: then it neither gets away nor falls back; a Last Stand that
    leaves nobody is the price of getting away). Remembered per state."""
    key = (side, first, mitigation, span, stand)
    found = memo["fates"].get(key)
    if found is None:
        alive = _alive(state, memo)[side]
        rows, standing = [], 0
        for incoming in ([0] if span is None else range(span[0], span[1] + 1)):
            cut = min(mitigation, incoming)
            count, landed_lost = _landing(state, memo, side, first, incoming - cut)
            lost = landed_lost | stand
            rows.append((count, incoming - cut, lost, cut, bool(landed_lost) and alive <= landed_lost))
            if not (lost and alive <= lost):
                standing += 1
        found = memo["fates"][key] = (tuple(rows), standing)
    return found


def _compute(state: BattleState, memo: Memo, bids: tuple[Bid, Bid], switched: tuple[bool, bool]) -> OutcomeOdds:
    if "setting" not in memo:
        memo["setting"] = success_setting(state.settings)
        memo["skilled"] = tuple(bool(a.general and a.general.skilled) for a in state.armies)
    die, target = memo["setting"]
    skilled = memo["skilled"]
    pools = _pools(state, memo, bids, switched)
    dists = [memo["dist"].get(p.dice) or memo["dist"].setdefault(p.dice, success_distribution(p.dice, die, target))
             for p in pools]
    total = die ** (pools[0].dice + pools[1].dice)
    decided: dict[tuple[int | None, str], _Decided] = {}
    groups: dict[tuple[int | None, str, tuple[int, int]], int] = {}
    maneuvers = None
    tier_of: dict[tuple[int, bool], str] = {}

    def group(s0: int, s1: int, weight: int) -> None:
        nonlocal maneuvers
        margin = abs(s0 - s1)
        winner = None if margin == 0 else (0 if s0 > s1 else 1)
        skill = winner is not None and skilled[winner]
        tier = tier_of.get((margin, skill))
        if tier is None:
            tier = tier_of[(margin, skill)] = victory_tier(margin, skill)
        rkey = (winner, tier)
        if rkey not in decided:
            decided[rkey] = _decided(state, memo, bids, switched, (s0, s1), pools, winner, tier)
        maneuvers = decided[rkey].reading.maneuvers
        gkey = (winner, tier, mitigation_of(bids, maneuvers, (s0, s1)))
        groups[gkey] = groups.get(gkey, 0) + weight

    if mitigation_by_margin(bids):  # only the difference counts: the ways of each margin first
        by_margin: dict[int, int] = {}
        for s0, w0 in enumerate(dists[0]):
            for s1, w1 in enumerate(dists[1]):
                by_margin[s0 - s1] = by_margin.get(s0 - s1, 0) + w0 * w1
        for d, weight in by_margin.items():
            if weight:
                group(max(d, 0), max(-d, 0), weight)
    else:  # a Delay's mitigation depends on its own count of successes
        for s0, w0 in enumerate(dists[0]):
            for s1, w1 in enumerate(dists[1]):
                if w0 and w1:
                    group(s0, s1, w0 * w1)
    assert maneuvers is not None
    rears = tuple(bids[s].rearguard if maneuvers[s] == "withdraw" else None for s in (0, 1))
    firsts: tuple[int, ...] = tuple(state.vanguards[s] if rear is None else rear for s, rear in enumerate(rears))
    # AI-16 Last Stand: the units a Withdraw that gets away leaves behind.
    no_stand: frozenset[int] = frozenset()
    stand_of = tuple(frozenset(last_stand_units(pools[s], rears[s])) if "last_stand" in bids[s].stratagems
                     else no_stand for s in (0, 1))
    # Each group's casualty rolls are uniform (AI-12): weights in whole numbers over the common
    # denominator total · scale, where scale is a multiple of every group's number of range rolls.
    scale = 1
    for winner, tier, _ in groups:
        sizes = decided[(winner, tier)].sizes
        n = sizes[0] * sizes[1]
        scale = scale * n // _gcd(scale, n)
    denominator = total * scale
    movement = [{m: 0 for m in MOVEMENTS}, {m: 0 for m in MOVEMENTS}]
    # Each side's fate depends only on the roll of the casualties coming in, its mitigation and
    # its Last Stand: the weight of each such case is summed first (``cases``), its rolls are
    # counted once below; the battle ends in a pair of rolls unless neither side is gone (nor moving).
    cases: list[dict[tuple[Any, ...], int]] = [{}, {}]
    ends = 0
    fallback = [0, 0]
    tiers_w: dict[tuple[int | None, str], int] = {}
    for (winner, tier, mit), weight in groups.items():
        _, moves, withdrew, fell_to_fallback, spans, sizes = decided[(winner, tier)]
        stands = tuple(stand_of[s] if withdrew[s] else no_stand for s in (0, 1))
        n = sizes[0] * sizes[1]
        big = weight * scale
        tiers_w[(winner, tier)] = tiers_w.get((winner, tier), 0) + big
        q = big // n
        standing = [0, 0]  # per side: the incoming rolls that leave it in the field
        for s in (0, 1):
            movement[s][moves[s]] += big
            if fell_to_fallback[s]:
                fallback[s] += big
            case = (mit[s], spans[1 - s], stands[s], moves[s])
            cases[s][case] = cases[s].get(case, 0) + q * sizes[s]
            standing[s] = _fates(state, memo, s, firsts[s], mit[s], spans[1 - s], stands[s])[1]
        moving = any(m not in ("stays", "withdraw_fails") for m in moves)
        ends += q * n if moving else q * (n - standing[0] * standing[1])
    landed: list[dict[int, int]] = [{}, {}]
    taken_d: list[dict[int, int]] = [{}, {}]
    lost_n: list[dict[int, int]] = [{}, {}]
    mitigated = [0, 0]
    per_unit = [[0] * len(state.armies[s].units) for s in (0, 1)]
    loses = [0, 0]
    wiped = [0, 0]
    remains = [0, 0]
    alive = _alive(state, memo)
    for s in (0, 1):
        for (mit_s, span, stand, move), w in cases[s].items():
            in_field = move in ("stays", "withdraw_fails")
            for count, taken, lost, cut, killed in _fates(state, memo, s, firsts[s], mit_s, span, stand)[0]:
                landed[s][count] = landed[s].get(count, 0) + w
                taken_d[s][taken] = taken_d[s].get(taken, 0) + w
                lost_n[s][len(lost)] = lost_n[s].get(len(lost), 0) + w
                mitigated[s] += cut * w
                if lost:
                    loses[s] += w
                    for i in lost:
                        per_unit[s][i] += w
                    if killed:  # AI-20: destroyed by the week's casualties: it neither gets
                        movement[s][move] -= w  # away, nor falls back, nor stays
                    if alive[s] <= lost:
                        wiped[s] += w
                        continue
                if in_field:
                    remains[s] += w

    def dist(table: dict[int, int]) -> tuple[tuple[int, int], ...]:
        return tuple((k, v) for k, v in sorted(table.items()) if v)

    sides = per_side(lambda s: SideOdds(_SideWeights(
        movement=tuple(movement[s].items()), landed=dist(landed[s]), taken=dist(taken_d[s]), mitigated=mitigated[s],
        units_lost=dist(lost_n[s]), unit_lost=tuple(per_unit[s]), loses_unit=loses[s], destroyed=wiped[s],
        remains=remains[s]), denominator))
    any_reading = next(iter(decided.values())).reading
    return OutcomeOdds(bids=bids, switched=switched, maneuvers=any_reading.maneuvers, read_as=any_reading.read_as,
                       pools=pools, sides=sides,
                       _weights=(MappingProxyType(tiers_w), skilled, ends, tuple(fallback), denominator))
