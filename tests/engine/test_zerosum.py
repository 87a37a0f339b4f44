"""Exact zero-sum games (engine.zerosum, issue 17): the advisor's equilibrium mix.

The solver is checked against an independent brute force (:func:`brute_force`): every
vertex of the row player's optimal set, found by trying every choice of zero rows and
tight columns (support enumeration that also covers degenerate games) and solving the
linear system exactly. The value is the best such vertex; the expected mix is the
lexicographically greatest optimal vertex, the tie rule :func:`engine.zerosum.solve`
documents.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import zerosum as zs
from tests.engine.hostile import VALUES, call

F = Fraction


# ------------------------------------------------------------------ brute force

def _solve_linear(a: list[list[Fraction]], b: list[Fraction]) -> list[Fraction] | None:
    """The unique solution of a square system, or None (Gauss-Jordan over Fractions)."""
    n = len(a)
    m = [row[:] + [rhs] for row, rhs in zip(a, b)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if m[r][col] != 0), None)
        if pivot is None:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col] != 0:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] for i in range(n)]


def row_vertices(matrix: list[list[Fraction]]) -> list[tuple[Fraction, tuple[Fraction, ...]]]:
    """Every vertex (v, x) of {x ≥ 0, Σx = 1, v ≤ x·A_j for every column j}: choose which
    m of the m + n inequalities (x_i = 0, x·A_j = v) are tight, solve with Σx = 1."""
    m, n = len(matrix), len(matrix[0])
    out = []
    for tight in itertools.combinations(range(m + n), m):
        rows, rhs = [[F(1)] * m + [F(0)]], [F(1)]          # Σx = 1 (unknowns x_0..x_{m-1}, v)
        for t in tight:
            if t < m:
                rows.append([F(int(k == t)) for k in range(m)] + [F(0)])
            else:
                rows.append([matrix[i][t - m] for i in range(m)] + [F(-1)])
            rhs.append(F(0))
        sol = _solve_linear(rows, rhs)
        if sol is None:
            continue
        x, v = tuple(sol[:m]), sol[m]
        if min(x) >= 0 and all(sum(x[i] * matrix[i][j] for i in range(m)) >= v for j in range(n)):
            out.append((v, x))
    return out


def brute_force(payoff) -> tuple[Fraction, tuple[Fraction, ...], tuple[Fraction, ...], int]:
    """(value, lex-greatest optimal row mix, lex-greatest optimal column mix, number of
    optimal row vertices) by enumeration."""
    matrix = [[F(x) for x in row] for row in payoff]
    rows = row_vertices(matrix)
    value = max(v for v, _ in rows)
    optimal_rows = sorted({x for v, x in rows if v == value})
    transposed = [[-matrix[i][j] for i in range(len(matrix))] for j in range(len(matrix[0]))]
    cols = row_vertices(transposed)
    assert max(v for v, _ in cols) == -value                  # minimax theorem, by enumeration
    optimal_cols = sorted({y for v, y in cols if v == -value})
    return value, optimal_rows[-1], optimal_cols[-1], len(optimal_rows)


def assert_optimal(payoff, solution: zs.Solution) -> None:
    """The solution certifies itself: the row mix guarantees the value against every
    column, the column mix concedes no more than it against any row."""
    matrix = [[F(x) for x in row] for row in payoff]
    m, n = len(matrix), len(matrix[0])
    assert len(solution.row) == m and len(solution.column) == n
    assert sum(solution.row) == 1 and sum(solution.column) == 1
    assert all(isinstance(p, Fraction) and p >= 0 for p in solution.row + solution.column)
    assert min(sum(solution.row[i] * matrix[i][j] for i in range(m)) for j in range(n)) == solution.value
    assert max(sum(matrix[i][j] * solution.column[j] for j in range(n)) for i in range(m)) == solution.value
    assert zs.exploitability(payoff, solution.row) == 0
    assert zs.column_exploitability(payoff, solution.column) == 0


# ------------------------------------------------------------------ known games

def test_matching_pennies() -> None:
    s = zs.solve([[1, -1], [-1, 1]])
    assert s == zs.Solution(F(0), (F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)))


def test_rock_paper_scissors() -> None:
    rps = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    s = zs.solve(rps)
    assert s.value == 0 and s.row == (F(1, 3),) * 3 and s.column == (F(1, 3),) * 3
    assert zs.exploitability(rps, [1, 0, 0]) == 1                # paper beats pure rock
    assert zs.best_response(rps, [1, 0, 0]) == zs.Response(F(1), (1,))


def test_skewed_rock_paper_scissors() -> None:
    """A known non-uniform equilibrium: rock wins 2 against scissors."""
    game = [[0, -1, 2], [1, 0, -1], [-2, 1, 0]]
    s = zs.solve(game)
    assert s.value == 0
    assert s.row == (F(1, 4), F(1, 2), F(1, 4)) and s.column == (F(1, 4), F(1, 2), F(1, 4))


def test_dominated_strategy_gets_no_weight() -> None:
    """Row 1 is dominated by row 0; column 2 by column 0. The rest is the 2×2 game
    [[3, 0], [0, 2]] with value 6/5 (x = (2/5, 0, 3/5), y = (2/5, 3/5, 0))."""
    game = [[3, 0, 4], [2, -1, 3], [0, 2, 1]]
    s = zs.solve(game)
    assert s.row[1] == 0 and s.column[2] == 0
    assert s == zs.Solution(F(6, 5), (F(2, 5), F(0), F(3, 5)), (F(2, 5), F(3, 5), F(0)))
    assert_optimal(game, s)


def test_saddle_point() -> None:
    game = [[4, 2, 5], [3, 1, 0], [6, 2, 7]]
    s = zs.solve(game)
    assert s.value == 2
    assert s.row == (F(1), F(0), F(0))            # rows 0 and 2 both guarantee 2: the first
    assert s.column == (F(0), F(1), F(0))


def test_degenerate_game_with_a_segment_of_optimal_mixes() -> None:
    """x = (t, 1 − t) is optimal for every t in [1/3, 2/3]: the value is unique, both
    mixes are optimal, and the tie rule takes the most weight on row 0 (t = 2/3)."""
    game = [[2, -1, 0], [-1, 2, 0]]
    s = zs.solve(game)
    assert s.value == 0
    assert s.row == (F(2, 3), F(1, 3))
    assert s.column == (F(0), F(0), F(1))
    assert_optimal(game, s)
    for t in (F(1, 3), F(1, 2), F(2, 3)):
        assert zs.exploitability(game, [t, 1 - t]) == 0
    assert zs.exploitability(game, [F(3, 4), F(1, 4)]) == F(1, 4)


def test_duplicated_strategies_put_their_weight_on_the_first_copy() -> None:
    game = [[1, -1, -1], [1, -1, -1], [-1, 1, 1]]          # rows 0 = 1, columns 1 = 2
    s = zs.solve(game)
    assert s == zs.Solution(F(0), (F(1, 2), F(0), F(1, 2)), (F(1, 2), F(1, 2), F(0)))


def test_one_row_and_one_column() -> None:
    assert zs.solve([[3, 1, 2]]) == zs.Solution(F(1), (F(1),), (F(0), F(1), F(0)))
    assert zs.solve([[3], [1], [5], [5]]) == zs.Solution(F(5), (F(0), F(0), F(1), F(0)), (F(1),))
    assert zs.solve([[-7]]) == zs.Solution(F(-7), (F(1),), (F(1),))


@pytest.mark.parametrize("shape", [(1, 1), (1, 4), (3, 1), (3, 3), (5, 2)])
@pytest.mark.parametrize("value", [0, 7, F(-5, 3)])
def test_all_equal_matrix(shape, value) -> None:
    m, n = shape
    s = zs.solve([[value] * n for _ in range(m)])
    assert s.value == value
    assert s.row == (F(1),) + (F(0),) * (m - 1) and s.column == (F(1),) + (F(0),) * (n - 1)


def test_value_is_shifted_and_scaled_with_the_payoffs() -> None:
    game = [[3, -2, 5], [-1, 4, 0], [2, 2, -3]]
    s = zs.solve(game)
    t = zs.solve([[F(x, 7) * 3 + F(11, 2) for x in row] for row in game])
    assert t.value == s.value * 3 / 7 + F(11, 2) and t.row == s.row and t.column == s.column


def test_floats_are_taken_exactly() -> None:
    s = zs.solve([[0.5, -0.5], [-0.5, 0.5]])
    assert s.value == 0 and s.row == (F(1, 2), F(1, 2))
    assert zs.solve([[0.1]]).value == F(0.1) != F(1, 10)


def test_solution_is_a_frozen_value() -> None:
    s = zs.solve([[1, 0], [0, 1]])
    with pytest.raises(AttributeError):
        s.value = F(0)  # type: ignore[misc]
    assert s == zs.solve(((1, 0), (0, 1)))
    assert isinstance(s.row, tuple) and isinstance(s.column, tuple)


def test_same_input_same_output() -> None:
    rng = random.Random(17)
    game = [[F(rng.randint(-9, 9), rng.randint(1, 6)) for _ in range(8)] for _ in range(8)]
    assert zs.solve(game) == zs.solve([row[:] for row in game]) == zs.solve(tuple(map(tuple, game)))


# ------------------------------------------------------------- against brute force

SMALL_INTS = st.integers(-3, 3)
SMALL_FRACTIONS = st.builds(F, st.integers(-20, 20), st.integers(1, 6))


def matrices(entries, max_side: int = 4):
    return st.integers(1, max_side).flatmap(
        lambda m: st.integers(1, max_side).flatmap(
            lambda n: st.lists(st.lists(entries, min_size=n, max_size=n), min_size=m, max_size=m)))


@settings(max_examples=300)
@given(matrices(SMALL_INTS))
def test_small_integer_games_match_brute_force(game) -> None:
    """Entries in −3…3: most such games are degenerate (ties, duplicated strategies,
    several equilibria). Value and both tie-broken mixes equal the enumeration's."""
    s = zs.solve(game)
    value, row, column, _ = brute_force(game)
    assert s.value == value
    assert s.row == row and s.column == column
    assert_optimal(game, s)


@settings(max_examples=150)
@given(matrices(SMALL_FRACTIONS))
def test_small_fraction_games_match_brute_force(game) -> None:
    s = zs.solve(game)
    value, row, column, _ = brute_force(game)
    assert (s.value, s.row, s.column) == (value, row, column)


#: Games where a plain simplex (without the lexicographic objective) stops at another
#: optimal vertex than the tie rule's: found by comparing the two on random 5×5 games.
TIE_GAMES = [
    [[0, 1, -1, 1, -2], [2, -1, 2, -2, 1], [-2, 1, -1, -1, -2], [2, -1, 0, 0, 0], [1, 0, 2, 1, 1]],
    [[-1, 2, 1, 0, -2], [0, -1, -2, 2, -1], [1, 2, 0, 1, -2], [-1, 2, 0, -1, 0], [-2, 0, 1, 0, 0]],
    [[-2, 1], [-2, 1], [0, 0], [1, -1], [-2, 2]],
]


@pytest.mark.parametrize("game", TIE_GAMES)
def test_tie_rule_where_a_plain_simplex_differs(game) -> None:
    value, row, column, count = brute_force(game)
    assert count > 1
    assert zs.solve(game) == zs.Solution(value, row, column)


def test_degenerate_games_are_really_tried() -> None:
    """A seeded random sample up to 5×5 holds many games with more than one optimal
    row mix (the tie rule is exercised, not assumed); each matches the enumeration."""
    rng = random.Random(2024)
    several = 0
    for _ in range(60):
        m, n = rng.randint(2, 5), rng.randint(2, 5)
        game = [[rng.randint(-2, 2) for _ in range(n)] for _ in range(m)]
        value, row, column, count = brute_force(game)
        s = zs.solve(game)
        assert (s.value, s.row, s.column) == (value, row, column)
        several += count > 1
    assert several >= 10


@pytest.mark.parametrize("side", [6, 9, 12])
def test_larger_random_games_certify(side) -> None:
    """6×6 to 12×12 (the advisor's sizes), with casualty-like Fraction payoffs: both mixes
    optimal against every pure answer; pure strategies are exploitable exactly as
    the best answer to them says."""
    rng = random.Random(side)
    for _ in range(5):
        game = [[F(rng.randint(-600, 600), rng.choice([1, 2, 6, 36, 30])) for _ in range(side)]
                for _ in range(side)]
        s = zs.solve(game)
        assert_optimal(game, s)
        for i in range(side):
            pure = [int(k == i) for k in range(side)]
            answer = zs.column_best_response(game, pure)
            assert zs.exploitability(game, pure) == s.value - answer.payoff == s.value - min(game[i])


@settings(max_examples=60)
@given(matrices(SMALL_INTS), st.randoms(use_true_random=False))
def test_permuting_strategies_permutes_the_solution_when_unique(game, rnd) -> None:
    m, n = len(game), len(game[0])
    rows, cols = list(range(m)), list(range(n))
    rnd.shuffle(rows)
    rnd.shuffle(cols)
    s = zs.solve(game)
    p = zs.solve([[game[i][j] for j in cols] for i in rows])
    assert p.value == s.value
    _, _, _, count = brute_force(game)
    if count == 1:
        assert p.row == tuple(s.row[i] for i in rows)


# ------------------------------------------------------------- answers and exploitability

def test_best_response_lists_every_tie() -> None:
    rps = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    third = [F(1, 3)] * 3
    assert zs.best_response(rps, third) == zs.Response(F(0), (0, 1, 2))
    assert zs.column_best_response(rps, third) == zs.Response(F(0), (0, 1, 2))
    assert zs.column_best_response(rps, [0, 1, 0]) == zs.Response(F(-1), (2,))   # scissors cut paper


def test_normal_general_is_the_best_answer_to_a_uniform_enemy() -> None:
    game = [[2, 0, 0], [0, 1, 5], [1, 1, 1]]
    assert zs.best_response(game, [F(1, 3)] * 3) == zs.Response(F(2), (1,))
    assert zs.row_payoffs(game, [F(1, 3)] * 3) == (F(2, 3), F(2), F(1))
    assert zs.column_payoffs(game, [0, 0, 1]) == (F(1), F(1), F(1))


def test_exploitability_is_the_enemy_gain_over_the_value() -> None:
    game = [[3, -1], [-2, 1]]                    # value 1/7, x* = (3/7, 4/7)
    s = zs.solve(game)
    assert s.value == F(1, 7) and s.row == (F(3, 7), F(4, 7))
    # Against (1/2, 1/2) the enemy's best column gives the row 0 instead of 1/7.
    assert zs.exploitability(game, [F(1, 2), F(1, 2)]) == F(1, 7)
    assert zs.column_exploitability(game, [F(1, 2), F(1, 2)]) == F(1) - F(1, 7)
    assert zs.exploitability(game, [0.5, 0.5]) == F(1, 7)


@settings(max_examples=100)
@given(matrices(SMALL_INTS), st.data())
def test_exploitability_is_never_negative_and_zero_only_for_optimal_mixes(game, data) -> None:
    weights = data.draw(st.lists(st.integers(0, 4), min_size=len(game), max_size=len(game)))
    if not sum(weights):
        weights[0] = 1
    mix = [F(w, sum(weights)) for w in weights]
    e = zs.exploitability(game, mix)
    value = max(v for v, _ in row_vertices([[F(x) for x in row] for row in game]))
    worst = min(sum(mix[i] * game[i][j] for i in range(len(game))) for j in range(len(game[0])))
    assert e == value - worst >= 0


def test_float_mix_is_rescaled_within_tolerance() -> None:
    game = [[1, -1], [-1, 1]]
    # The floats are taken exactly, then divided by their exact sum: |2p − 1| up to rounding.
    assert abs(zs.exploitability(game, [0.1, 0.9]) - F(4, 5)) < 1e-15
    assert abs(zs.exploitability(game, [1 / 3, 2 / 3]) - F(1, 3)) < 1e-15
    assert zs.exploitability(game, [0.25, 0.75]) == F(1, 2)
    with pytest.raises(zs.MixError, match="sums to"):
        zs.exploitability(game, [0.5, 0.6])


# ------------------------------------------------------------------ bad input

@pytest.mark.parametrize("payoff, words", [
    ([], "empty"),
    ([[]], "empty"),
    ((), "empty"),
    ([[1, 2], [3]], "row 1 of the payoff matrix has 1 entries, row 0 has 2"),
    ([[1], [2, 3]], "row 1"),
    ([[1, "2"]], r"payoff\[0\]\[1\] must be a number"),
    ([[None]], "must be a number"),
    ([[[1]]], "must be a number"),
    ([[True, 0]], "must be a number"),
    ([[1, 2j]], "must be a number"),
    ([[float("nan")]], "finite"),
    ([[float("inf"), 1]], "finite"),
    ([[1], [-float("inf")]], "finite"),
    ([[__import__("decimal").Decimal("0.1")]], "must be a number"),  # decimal is not shipped (issue 19)
    ("ab", "list or a tuple"),
    (5, "list or a tuple"),
    (None, "list or a tuple"),
    ({0: [1]}, "list or a tuple"),
    ([{1, 2}], "list or a tuple"),
    (["12"], "list or a tuple"),
    ([[1] * (zs.MAX_STRATEGIES + 1)], "at most"),
    ([[1]] * (zs.MAX_STRATEGIES + 1), "at most"),
])
def test_bad_payoff_refused(payoff, words) -> None:
    with pytest.raises(zs.PayoffError, match=words):
        zs.solve(payoff)
    with pytest.raises(zs.PayoffError):
        zs.best_response(payoff, [1])


@pytest.mark.parametrize("mix, words", [
    ([1], "has 1 entries but the row player has 2 strategies"),
    ([F(1, 2), F(1, 2), 0], "3 entries"),
    ([2, -1], "negative"),
    ([F(1, 2), F(1, 3)], "sums to 5/6, not 1"),
    ([0, 0], "sums to 0"),
    ([float("nan"), 1], "finite"),
    (["1", 0], "must be a number"),
    ([True, False], "must be a number"),
    ("10", "list or a tuple"),
    (None, "list or a tuple"),
])
def test_bad_mix_refused(mix, words) -> None:
    game = [[1, -1], [-1, 1]]
    with pytest.raises(zs.MixError, match=words):
        zs.exploitability(game, mix)
    with pytest.raises(zs.MixError):
        zs.column_best_response(game, mix)


def test_errors_are_value_errors() -> None:
    assert issubclass(zs.PayoffError, zs.ZeroSumError) and issubclass(zs.MixError, zs.ZeroSumError)
    assert issubclass(zs.ZeroSumError, ValueError)


@settings(max_examples=300)
@given(VALUES, VALUES)
def test_hostile_arguments_only_raise_value_errors(payoff, mix) -> None:
    for fn in (zs.best_response, zs.column_best_response, zs.exploitability, zs.column_exploitability,
               zs.row_payoffs, zs.column_payoffs):
        call(fn, payoff, mix)
    result = call(zs.solve, payoff)
    if isinstance(result, zs.Solution):
        assert_optimal(payoff, result)


def test_solve_handles_big_denominators() -> None:
    """Payoffs with the denominators of exact odds (6^10 and friends) stay exact."""
    rng = random.Random(6)
    game = [[F(rng.randint(-6**10, 6**10), 6**10 * rng.choice([1, 5, 7])) for _ in range(6)] for _ in range(6)]
    s = zs.solve(game)
    assert_optimal(game, s)
    assert math.lcm(*(p.denominator for p in s.row)) > 1
