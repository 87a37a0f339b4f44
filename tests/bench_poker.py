"""Benchmark of engine.poker.best_hand against treys (issue 13): ``python -m tests.bench_poker``.

Times 7-card evaluations per second on CPython, side by side with treys (a PyPI
evaluator, installed only by the ``bench`` extra: ``pip install -e '.[bench]'``),
then the same on Pyodide's own Python under Node (``tests/bench_on_pyodide.mjs``).
treys is given its own integer cards, converted before the clock starts; best_hand
gets the app's :class:`engine.cards.Card` values, as the campaign table calls it.

Not a test: the numbers depend on the machine. Prints a report; ``--json`` prints
the data. The CI-free way to call it from ``make bench`` / ``tests/bench.py``:
``from tests.bench_poker import poker_report`` (see :func:`poker_report`).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from tests.bench_on_pyodide import on_pyodide

ROOT = Path(__file__).resolve().parents[1]


def _hands(count: int, size: int, seed: int):
    from engine.cards import full_deck

    rng = random.Random(seed)
    deck = list(full_deck())
    return [tuple(rng.sample(deck, size)) for _ in range(count)]


def _rate(fn, items, repeats: int) -> dict[str, Any]:
    """Evaluations per second: the median (and best) of ``repeats`` passes over ``items``."""
    rates = []
    for _ in range(repeats):
        started = time.perf_counter()
        for item in items:
            fn(item)
        rates.append(len(items) / (time.perf_counter() - started))
    return {"median": statistics.median(rates), "best": max(rates), "runs": rates}


def _treys_cards(hands):
    from treys import Card as TreysCard

    def token(card) -> str:
        rank = card.rank.token
        return ("T" if rank == "10" else rank) + card.suit.letter.lower()

    return [[TreysCard.new(token(c)) for c in hand] for hand in hands]


def poker_bench(repeats: int = 7, hands: int = 20_000, size: int = 7, seed: int = 20261130,
                treys: bool = True) -> dict[str, Any]:
    """best_hand (and treys, when installed and asked for) on the same random hands."""
    import engine.cards  # noqa: F401  (shared with every system: not counted)

    started = time.perf_counter()
    from engine import poker  # noqa: F401  (its own import: no tables are built)

    import_ms = (time.perf_counter() - started) * 1000
    from engine.poker import best_hand

    sample = _hands(hands, size, seed)
    _rate(best_hand, sample[:2000], 1)  # warm up
    data: dict[str, Any] = {"hands": hands, "size": size, "repeats": repeats, "import_ms": import_ms,
                            "best_hand": _rate(best_hand, sample, repeats)}
    if treys:
        try:
            from treys import Evaluator
        except ImportError:
            data["treys"] = {"error": "treys is not installed (pip install -e '.[bench]')"}
        else:
            evaluator = Evaluator()
            converted = _treys_cards(sample)
            evaluate = evaluator.evaluate
            _rate(lambda c: evaluate(c[:2], c[2:]), converted[:2000], 1)
            data["treys"] = _rate(lambda c: evaluate(c[:2], c[2:]), converted, repeats)
            data["ratio"] = data["best_hand"]["median"] / data["treys"]["median"]
    data["treaty_odds_ms"] = _treaty_odds_ms(repeats)
    data["dummy_odds_ms"] = _treaty_odds_ms(max(3, repeats // 3), dummy=True)
    data["python"] = sys.version.split()[0]
    return data


def _treaty_odds_ms(repeats: int, dummy: bool = False) -> dict[str, Any]:
    """engine.campaign.treaty_odds in its worst case, in ms: a player's view with one card
    held (four draws), or the dummy's (CMP-9: its stake seen, five hidden cards and its
    extra card: six cards at random)."""
    from engine.campaign import treaty_odds
    from engine.cards import full_deck

    deck = full_deck()
    own, unseen = deck[:1], deck[8:]  # 1 card held, 44 unseen: what a player sees mid-campaign
    extra = {"hidden": 5, "extra": 1} if dummy else {}
    times = []
    for _ in range(max(3, repeats)):
        started = time.perf_counter()
        treaty_odds(own, unseen, **extra)
        times.append((time.perf_counter() - started) * 1000)
    return {"median": statistics.median(times), "best": min(times)}


def node_poker_bench(repeats: int = 5, hands: int = 10_000) -> dict[str, Any]:
    """poker_bench on Pyodide's Python under Node; ``{"error": …}`` when that is not possible."""
    data = on_pyodide("tests.bench_poker", "poker_bench", {"repeats": repeats, "hands": hands}, timeout=600)
    if "error" in data:
        return data
    return {**data["results"], "pyodide_version": data["pyodide_version"]}


def _line(label: str, result: dict[str, Any] | None) -> str:
    if not result or "error" in result:
        return f"  {label:<28} {(result or {}).get('error', 'not measured')}"
    return f"  {label:<28} {result['median']:>10,.0f} /s  (best {result['best']:,.0f})"


def poker_report(repeats: int = 7, pyodide: bool = True) -> str:
    """The benchmark as text, for ``make bench`` (CPython, then Pyodide under Node)."""
    cpython = poker_bench(repeats=repeats)
    lines = ["Poker evaluator: 7-card hands per second (CMP-8; issue 13 asks for ≥ 2× treys)",
             f" CPython {cpython['python']}, engine.poker import {cpython['import_ms']:.1f} ms",
             _line("best_hand", cpython["best_hand"]), _line("treys", cpython.get("treys"))]
    if "ratio" in cpython:
        lines.append(f"  {'ratio best_hand / treys':<28} {cpython['ratio']:>10.2f} ×")
    lines.append(f"  {'treaty odds, 1 card held':<28} {cpython['treaty_odds_ms']['median']:>10.1f} ms")
    lines.append(f"  {'the dummy, 6 cards at random':<28} {cpython['dummy_odds_ms']['median']:>10.1f} ms")
    if pyodide:
        node = node_poker_bench(repeats=max(3, repeats // 2))
        if "error" in node:
            lines.append(f" Pyodide: {node['error']}")
        else:
            lines += [f" Pyodide {node.get('pyodide_version')} (Python {node['python']}) under Node, "
                      f"engine.poker import {node['import_ms']:.1f} ms",
                      _line("best_hand", node["best_hand"]), _line("treys", node.get("treys"))]
            if "ratio" in node:
                lines.append(f"  {'ratio best_hand / treys':<28} {node['ratio']:>10.2f} ×")
            lines.append(f"  {'treaty odds, 1 card held':<28} {node['treaty_odds_ms']['median']:>10.1f} ms")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--no-pyodide", action="store_true", help="CPython only")
    parser.add_argument("--json", action="store_true", help="print the data as JSON")
    args = parser.parse_args(argv)
    if args.json:
        data = {"cpython": poker_bench(repeats=args.repeats)}
        if not args.no_pyodide:
            data["pyodide"] = node_poker_bench(repeats=max(3, args.repeats // 2))
        print(json.dumps(data, indent=2))
    else:
        print(poker_report(repeats=args.repeats, pyodide=not args.no_pyodide))


if __name__ == "__main__":
    main()
