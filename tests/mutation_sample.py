"""Picks a seeded, uniform random sample of mutants for `make mutate SAMPLE=N` (issue 20 item 8).

A system's whole scope is thousands of mutants (`engine.campaign.*` 4,563): over an hour on two
cores, because every surviving mutant runs every test that reaches its function. A uniform
sample of N mutants per pattern, drawn with a fixed seed from every mutant the pattern
matches, estimates the scope's score honestly (`tests.mutation_score` prints the 95 %
interval); the sample is printed one name per line for `mutmut run`.

The mutants' names are only known once mutmut has generated them, so this runs mutmut's own
first step (the pinned mutmut 3.8.1; files it already mutated and that did not change are
kept), then reads the names from mutmut's per-file records in `mutants/`.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import io
import json
import os
import random
import sys
from pathlib import Path


def generate() -> None:
    """Write mutmut's mutants into `mutants/` (the first step of `mutmut run`), quietly."""
    from mutmut import __main__ as mutmut

    Path("mutants").mkdir(exist_ok=True)
    with contextlib.redirect_stdout(io.StringIO()):
        mutmut.set_mutant_under_test("mutant_generation")
        mutmut.copy_src_dir()
        mutmut.copy_also_copy_files()
        mutmut.setup_source_paths()
        mutmut.create_mutants(os.cpu_count() or 2)


def mutant_names() -> list[str]:
    """Every generated mutant's name, sorted."""
    names: set[str] = set()
    for meta in Path("mutants").rglob("*.py.meta"):
        names.update(json.loads(meta.read_text())["exit_code_by_key"])
    return sorted(names)


def sample(names: list[str], pattern: str, count: int, seed: int) -> list[str]:
    """`count` names drawn uniformly (without replacement) from those `pattern` matches; the
    draw depends only on the seed, the pattern and the matching names."""
    matching = sorted(name for name in names if fnmatch.fnmatch(name, pattern))
    if not matching:
        sys.exit(f"no mutant matches {pattern!r}")
    return sorted(random.Random(f"{seed}:{pattern}").sample(matching, min(count, len(matching))))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, required=True, help="mutants drawn per pattern")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("patterns", nargs="+", help="mutmut name patterns, e.g. 'engine.consim.*'")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be at least 1")
    generate()
    names = mutant_names()
    for pattern in args.patterns:
        print("\n".join(sample(names, pattern, args.count, args.seed)))


if __name__ == "__main__":
    main()
