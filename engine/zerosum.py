"""Exact solution of finite two-player zero-sum matrix games (issue 17).

Issue 17's general's advisor recommends a **mixed strategy** ("a careful general
declares Attack 40%, Skirmish 60%"): the equilibrium of the zero-sum game whose
payoff the general reads, and the app's Hard general draws its bid from it. The issue
asks for an exploitability of at most 1e-6 and shows the numbers as exact fractions, so
everything here is exact (:class:`~fractions.Fraction`), in pure Python (standard
library only).

The game: ``payoff[i][j]`` is what the **row** player wins (and the column player
loses) when the row player plays row ``i`` and the column player column ``j``. The row
player maximises, the column player minimises. Entries are ints, Fractions or finite
floats (a float is taken at its exact binary value: ``0.1`` is
3602879701896397/36028797018963968, so pass Fractions for exact decimal payoffs).
Booleans, text, NaN and infinities are refused.

API
---
* :func:`solve(payoff) <solve>` → :class:`Solution` ``(value, row, column)``: the
  game's value and an optimal mix for each player (tuples of Fractions summing to
  exactly 1).
* :func:`row_payoffs(payoff, column_mix) <row_payoffs>` and
  :func:`column_payoffs(payoff, row_mix) <column_payoffs>`: the row player's expected
  payoff of each row against a column mix, of each column against a row mix.
* :func:`best_response(payoff, column_mix) <best_response>` → :class:`Response`: the
  row player's best answers to a column mix (every row that maximises the expected
  payoff, ascending; ``choices[0]`` is the deterministic pick);
  :func:`column_best_response(payoff, row_mix) <column_best_response>`: the column
  player's (the enemy's) best answers to a row mix.
* :func:`exploitability(payoff, row_mix) <exploitability>`: how much the best enemy
  answer to the row mix gains over the game's value — ``value − min_j (row_mix · A)_j``
  — which is the enemy's best payoff against the mix minus the enemy's value of the
  game. It is ``>= 0``, and ``0`` exactly when the mix is optimal.
  :func:`column_exploitability` is the same for a column mix.

A mix is a sequence of one non-negative number per row (per column). Exact mixes
(ints, Fractions) must sum to exactly 1. A mix with a float in it must sum to
1 within 1e-9 and is then divided by its exact sum (so that a mix printed or stored as
floats can still be judged).

Errors are :class:`ZeroSumError` (a :class:`ValueError`): :class:`PayoffError` for a
matrix that is not a game (empty, ragged, not numbers, NaN/inf, more than
:data:`MAX_STRATEGIES` strategies a side), :class:`MixError` for a mix that is not a
probability distribution over the right strategies.

Method
------
Linear programming solved exactly by the simplex method, in integers:

1. The payoffs are scaled by the least common multiple of their denominators and
   shifted so that every entry is at least 1 (neither changes the optimal mixes; the
   value is mapped back). For such a matrix ``M`` the column player's problem is
   the LP ``maximise Σ w  subject to  M w ≤ 1, w ≥ 0``: its optimum is ``1 / value(M)``
   and ``w / Σ w`` is an optimal column mix. The slack basis is feasible at the start,
   so no phase 1 is needed, and the region is bounded (every ``w_j ≤ 1``).
2. The row player's mix is the column player's mix of the transposed, negated game
   ``−Aᵀ``, solved the same way.
3. Pivoting is fraction-free (Edmonds/Bareiss: the tableau is kept in integers over the
   common denominator ``det(B)`` of the current basis; every division is exact), so it
   costs integer arithmetic only.
4. **Ties** (degenerate games, with several optimal mixes): the objective is
   lexicographic — first ``Σ w`` (optimality), then ``w_1``, then ``w_2`` … — so each
   player's mix is the **lexicographically greatest optimal mix**: as much weight as
   optimality allows on the first strategy, then on the second, and so on. This is a
   property of the game, not of the algorithm: the same matrix always gives the same
   mixes, a game whose optimal mix is unique gets it, and a game with two copies of a
   strategy puts all their weight on the first copy (an all-equal matrix gives
   ``(1, 0, …, 0)`` to both). To prefer other strategies on ties, reorder them.
5. **Pivoting.** The entering variable is the one with the steepest primary reduced cost
   (Dantzig; ties to the lowest index) after a pivot that moved the solution, and by
   **Bland's rule** (the lowest-numbered variable whose lexicographic reduced cost is
   positive) after a degenerate pivot; the leaving row is always the lowest-numbered
   basic variable among the tied minimum ratios. It cannot cycle: a cycle is made of
   degenerate pivots, so all but its first would be Bland pivots, and a lexicographic
   objective is the objective ``Σ_k ε^k c_k`` for a small enough ``ε``, to which Bland's
   theorem applies. The rule changes only the speed, never the answer: the
   lexicographically greatest optimal point is unique.
   The tie-breaking objectives cost nothing when the optimum is unique: the simplex runs
   on ``Σ w`` alone first, and only if a non-basic variable then has a zero reduced cost
   (another optimal vertex may exist) are the reduced costs of ``w_1, w_2 …`` read off
   the optimal tableau and the lexicographic simplex continued from there.
6. Every :class:`Solution` is checked before it is returned: the row mix guarantees at
   least the value against every column and the column mix concedes at most the value
   against every row (a certificate of optimality, in exact arithmetic).

Speed (``make bench``, ``tests/bench_zerosum.py``; medians on a shared 2-core machine):
a 6×6 game (the six maneuvers) takes under 1 ms on CPython and 3–7 ms on Pyodide under
Node; 12×12 2–5 ms on CPython, 8–34 ms on Pyodide (the slower figures for payoffs with
the large denominators of exact dice odds).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .text import brief_repr

__all__ = [
    "MAX_STRATEGIES", "ZeroSumError", "PayoffError", "MixError", "Solution", "Response",
    "solve", "row_payoffs", "column_payoffs", "best_response", "column_best_response",
    "exploitability", "column_exploitability",
]

#: The most strategies a side may have (the advisor needs 6 to a few dozen).
MAX_STRATEGIES = 256

#: How far from 1 a mix that holds floats may sum (it is then rescaled exactly).
FLOAT_MIX_TOLERANCE = 1e-9


class ZeroSumError(ValueError):
    """A matrix or a mix given to :mod:`engine.zerosum` that does not make sense."""


class PayoffError(ZeroSumError):
    """The payoff matrix is not a finite game of numbers."""


class MixError(ZeroSumError):
    """A mixed strategy is not a probability distribution over the player's strategies."""


@dataclass(frozen=True)
class Solution:
    """An exact solution of a zero-sum game (issue 17).

    ``value`` is what the row player can guarantee and the column player can hold it
    to; ``row`` and ``column`` are optimal mixes (one Fraction per strategy, summing to
    exactly 1), each the lexicographically greatest optimal mix of its player.
    """

    value: Fraction
    row: tuple[Fraction, ...]
    column: tuple[Fraction, ...]


@dataclass(frozen=True)
class Response:
    """A best answer to a mix: ``payoff`` is the row player's expected payoff when the
    answer is played, ``choices`` every best answer (strategy indexes, ascending);
    ``choices[0]`` is the deterministic pick."""

    payoff: Fraction
    choices: tuple[int, ...]


# ----------------------------------------------------------------------------- input

def _number(value: Any, where: str, error: type[ZeroSumError]) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (numbers.Rational, float)):
        raise error(f"{where} must be a number (an int, a Fraction or a finite float), "
                    f"not {type(value).__name__} {brief_repr(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise error(f"{where} must be a finite number, not {value}")
    if isinstance(value, numbers.Rational) and not isinstance(value, (int, Fraction)):
        return Fraction(int(value.numerator), int(value.denominator))
    return Fraction(value)


def _sequence(value: Any, what: str, error: type[ZeroSumError]) -> Sequence[Any]:
    """``value`` when it is a list or a tuple (any sequence but text), not yet read: its
    caller checks its length first (a range of a billion is not materialised: issue 30)."""
    if isinstance(value, (str, bytes, bytearray)) or not isinstance(value, Sequence):
        raise error(f"{what} must be a list or a tuple, not {type(value).__name__}")
    return value


def _matrix(payoff: Any) -> tuple[tuple[Fraction, ...], ...]:
    rows = _sequence(payoff, "the payoff matrix", PayoffError)
    if not rows:
        raise PayoffError("the payoff matrix is empty: the row player needs at least one strategy")
    if len(rows) > MAX_STRATEGIES:
        raise PayoffError(f"the payoff matrix has {len(rows):,} rows; at most {MAX_STRATEGIES} are allowed")
    out = []
    width = None
    for i, row in enumerate(tuple(rows)):
        cells = _sequence(row, f"row {i} of the payoff matrix", PayoffError)
        if width is None:
            width = len(cells)
            if not width:
                raise PayoffError("row 0 of the payoff matrix is empty: "
                                  "the column player needs at least one strategy")
            if width > MAX_STRATEGIES:
                raise PayoffError(f"the payoff matrix has {width:,} columns; at most {MAX_STRATEGIES} are allowed")
        if len(cells) != width:
            raise PayoffError(f"row {i} of the payoff matrix has {len(cells)} entries, row 0 has {width}: "
                              "every row needs one entry per column")
        out.append(tuple(_number(c, f"payoff[{i}][{j}]", PayoffError) for j, c in enumerate(cells)))
    return tuple(out)


def _mix(mix: Any, size: int, who: str) -> tuple[Fraction, ...]:
    entries = _sequence(mix, f"the {who} mix", MixError)
    if len(entries) != size:
        plural = "strategy" if size == 1 else "strategies"
        raise MixError(f"the {who} mix has {len(entries):,} entries but the {who} player has {size} {plural}")
    entries = tuple(entries)
    values = tuple(_number(p, f"entry {k} of the {who} mix", MixError) for k, p in enumerate(entries))
    for k, p in enumerate(values):
        if p < 0:
            raise MixError(f"entry {k} of the {who} mix is negative ({p}): a probability is at least 0")
    total = sum(values, Fraction(0))
    if any(isinstance(p, float) for p in entries):
        if abs(total - 1) > FLOAT_MIX_TOLERANCE:
            raise MixError(f"the {who} mix sums to {float(total)!r}, not 1")
        return tuple(p / total for p in values)
    if total != 1:
        raise MixError(f"the {who} mix sums to {total}, not 1")
    return values


# ------------------------------------------------------------------------- simplex

def _integers(matrix: tuple[tuple[Fraction, ...], ...]) -> tuple[list[list[int]], int]:
    """The matrix times the least common multiple ``scale`` of its denominators."""
    scale = 1
    for row in matrix:
        for x in row:
            scale = scale * x.denominator // math.gcd(scale, x.denominator)
    return [[int(x * scale) for x in row] for row in matrix], scale


def _pivots(tableau: list[list[int]], costs: list[list[int]], basis: list[int], denominator: int,
            steepest: bool) -> int:
    """Run the simplex on ``tableau`` (constraint rows over the common ``denominator``)
    with the lexicographic reduced costs ``costs`` until none is positive; returns the
    final denominator. ``steepest``: Dantzig's entering rule after a pivot that moved the
    solution, Bland's after a degenerate one; otherwise Bland's throughout."""
    n = len(tableau[0]) - 1
    degenerate = not steepest
    while True:
        entering = -1
        if not degenerate:
            # Dantzig: the steepest primary reduced cost (ties: the lowest index).
            primary = costs[0]
            top = 0
            for j in range(n):
                if primary[j] > top:
                    top, entering = primary[j], j
        else:
            # Bland: the lowest index with a lexicographically positive reduced cost.
            for j in range(n):
                for row in costs:
                    if row[j]:
                        if row[j] > 0:
                            entering = j
                        break
                if entering >= 0:
                    break
        if entering < 0:
            return denominator
        leaving = -1
        for i, row in enumerate(tableau):
            a = row[entering]
            if a > 0:
                if leaving < 0:
                    leaving = i
                    continue
                here = row[n] * tableau[leaving][entering]
                best = tableau[leaving][n] * a
                if here < best or (here == best and basis[i] < basis[leaving]):
                    leaving = i
        if leaving < 0:  # cannot happen: the region is bounded (every w_j <= 1)
            raise RuntimeError("zerosum: unbounded column in a bounded LP")
        pivot_row = tableau[leaving]
        pivot = pivot_row[entering]
        for row in tableau + costs:
            if row is pivot_row:
                continue
            factor = row[entering]
            if factor:
                for j in range(n + 1):
                    row[j] = (row[j] * pivot - factor * pivot_row[j]) // denominator
            elif pivot != denominator:
                for j in range(n + 1):
                    row[j] = row[j] * pivot // denominator
        basis[leaving] = entering
        degenerate = not steepest or pivot_row[n] == 0
        denominator = pivot


def _lex_max_mix(m: list[list[int]]) -> tuple[Fraction, tuple[Fraction, ...]]:
    """For a matrix ``m`` of integers ≥ 1 (rows: constraints), the LP
    ``maximise Σw, then w_0, w_1, … lexicographically, subject to m w ≤ 1, w ≥ 0``.

    Returns ``(value, mix)``: ``value = 1 / Σw`` is the value of ``m`` as a game (the
    column player minimising), ``mix = w / Σw`` the lexicographically greatest optimal
    column mix. Fraction-free simplex (see the module docstring) in two phases: ``Σw``
    alone first; then, only if the optimum may not be unique (a non-basic variable with
    a zero reduced cost), the tie-breaking objectives ``w_0, w_1, …`` — their reduced
    costs read off the optimal tableau — with Bland's rule.
    """
    p, q = len(m), len(m[0])
    n = q + p                                   # variables: q columns, then p slacks
    tableau = [m[i][:] + [1 if k == i else 0 for k in range(p)] + [1] for i in range(p)]
    primary = [1] * q + [0] * (p + 1)           # reduced costs of Σw (maximising)
    basis = [q + i for i in range(p)]
    denominator = _pivots(tableau, [primary], basis, 1, steepest=True)
    in_basis = set(basis)
    if any(primary[j] == 0 for j in range(n) if j not in in_basis):
        # Reduced costs of w_k over the denominator: D·e_k − (the row where w_k is basic).
        row_of = {var: i for i, var in enumerate(basis)}
        costs = [primary]
        for k in range(q):
            row = [denominator if j == k else 0 for j in range(n)] + [0]
            if k in row_of:
                row = [x - y for x, y in zip(row, tableau[row_of[k]])]
            costs.append(row)
        denominator = _pivots(tableau, costs, basis, denominator, steepest=False)
    weights = [Fraction(0)] * q
    for i, var in enumerate(basis):
        if var < q:
            weights[var] = Fraction(tableau[i][n], denominator)
    total = sum(weights, Fraction(0))
    return 1 / total, tuple(w / total for w in weights)


def solve(payoff: Sequence[Sequence[Any]]) -> Solution:
    """Solve the zero-sum game ``payoff`` exactly (issue 17).

    ``payoff[i][j]`` is the row player's payoff for row ``i`` against column ``j``.
    Returns the game's value and, for each player, the lexicographically greatest
    optimal mix (ties go to the first strategies; see the module docstring). Raises
    :class:`PayoffError` for a matrix that is not a finite game.

    >>> solve([[1, -1], [-1, 1]])
    Solution(value=Fraction(0, 1), row=(Fraction(1, 2), Fraction(1, 2)), column=(Fraction(1, 2), Fraction(1, 2)))
    """
    matrix = _matrix(payoff)
    ints, scale = _integers(matrix)
    low = min(min(row) for row in ints)
    high = max(max(row) for row in ints)
    # Column player of A: rows of M = A + shift are its constraints.
    shift = 1 - low
    value_m, column = _lex_max_mix([[x + shift for x in row] for row in ints])
    # Row player of A = column player of -Aᵀ.
    shift_t = 1 + high
    value_t, row_mix = _lex_max_mix([[shift_t - ints[i][j] for i in range(len(ints))]
                                     for j in range(len(ints[0]))])
    value = (value_m - shift) / scale
    if (shift_t - value_t) / scale != value:
        raise RuntimeError("zerosum: the two players' problems disagree on the value")
    solution = Solution(value, row_mix, column)
    _certify(matrix, solution)
    return solution


def _certify(matrix: tuple[tuple[Fraction, ...], ...], solution: Solution) -> None:
    """The row mix guarantees the value against every column, the column mix concedes
    no more than the value against any row: both are optimal and the value is right."""
    if sum(solution.row) != 1 or sum(solution.column) != 1 or min(solution.row + solution.column) < 0:
        raise RuntimeError("zerosum: a mix is not a probability distribution")
    guaranteed = min(_columns_against(matrix, solution.row))
    conceded = max(_rows_against(matrix, solution.column))
    if not guaranteed == solution.value == conceded:
        raise RuntimeError("zerosum: the solution does not certify its value")


# ---------------------------------------------------------------- answers to a mix

def _rows_against(matrix: Sequence[Sequence[Fraction]], column_mix: Sequence[Fraction]) -> tuple[Fraction, ...]:
    return tuple(sum((a * y for a, y in zip(row, column_mix) if y), Fraction(0)) for row in matrix)


def _columns_against(matrix: Sequence[Sequence[Fraction]], row_mix: Sequence[Fraction]) -> tuple[Fraction, ...]:
    width = len(matrix[0])
    return tuple(sum((matrix[i][j] * x for i, x in enumerate(row_mix) if x), Fraction(0)) for j in range(width))


def row_payoffs(payoff: Sequence[Sequence[Any]], column_mix: Sequence[Any]) -> tuple[Fraction, ...]:
    """The row player's expected payoff of each row against ``column_mix``."""
    matrix = _matrix(payoff)
    return _rows_against(matrix, _mix(column_mix, len(matrix[0]), "column"))


def column_payoffs(payoff: Sequence[Sequence[Any]], row_mix: Sequence[Any]) -> tuple[Fraction, ...]:
    """The row player's expected payoff, for each column, when the row player plays ``row_mix``."""
    matrix = _matrix(payoff)
    return _columns_against(matrix, _mix(row_mix, len(matrix), "row"))


def best_response(payoff: Sequence[Sequence[Any]], column_mix: Sequence[Any]) -> Response:
    """The row player's best answers to ``column_mix``: every row with the highest
    expected payoff (ascending), and that payoff. Issue 17's Normal general is the
    best answer to an enemy bidding uniformly: ``best_response(payoff, [Fraction(1, n)] * n)``."""
    values = row_payoffs(payoff, column_mix)
    best = max(values)
    return Response(best, tuple(i for i, v in enumerate(values) if v == best))


def column_best_response(payoff: Sequence[Sequence[Any]], row_mix: Sequence[Any]) -> Response:
    """The column player's best answers to ``row_mix``: every column that holds the row
    player to its lowest expected payoff (ascending), and that payoff (the row's)."""
    values = column_payoffs(payoff, row_mix)
    worst = min(values)
    return Response(worst, tuple(j for j, v in enumerate(values) if v == worst))


def exploitability(payoff: Sequence[Sequence[Any]], row_mix: Sequence[Any]) -> Fraction:
    """Issue 17: the best enemy answer's payoff against ``row_mix`` minus the game's value
    (both from the enemy's side): ``value − min_j (row_mix · payoff)_j``. Never negative;
    zero exactly when ``row_mix`` is optimal."""
    matrix = _matrix(payoff)
    mix = _mix(row_mix, len(matrix), "row")
    return solve(matrix).value - min(_columns_against(matrix, mix))


def column_exploitability(payoff: Sequence[Sequence[Any]], column_mix: Sequence[Any]) -> Fraction:
    """What the row player's best answer to ``column_mix`` gains over the game's value:
    ``max_i (payoff · column_mix)_i − value``. Never negative; zero exactly when
    ``column_mix`` is optimal."""
    matrix = _matrix(payoff)
    mix = _mix(column_mix, len(matrix[0]), "column")
    return max(_rows_against(matrix, mix)) - solve(matrix).value
