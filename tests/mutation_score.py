"""Prints the score of the last `make mutate` run, per engine module (mutmut's records in mutants/).

A mutant is *caught* when a test failed (killed) or the tests ran into mutmut's time
limit (timeout: the mutant made the engine loop). A module whose mutants were not all
checked (a sample, `make mutate SAMPLE=N`) also gets the 95 % Wilson interval of its
whole scope's score. Survivors are listed by `mutmut results`; `mutmut show <name>`
prints one as a diff.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

CAUGHT = {"killed", "timeout", "caught by type check"}
#: mutmut's names: "<module>.x_<function>__mutmut_<n>" or "<module>.xǁ<Class>ǁ<method>__mutmut_<n>".
MUTANT_NAME = re.compile(r"(.+?)\.x[_ǁ]")


def wilson(caught: int, checked: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion seen as `caught` of `checked`."""
    p = caught / checked
    centre = (p + z * z / (2 * checked)) / (1 + z * z / checked)
    half = z * math.sqrt(p * (1 - p) / checked + z * z / (4 * checked * checked)) / (1 + z * z / checked)
    return max(0.0, centre - half), min(1.0, centre + half)


def statuses() -> dict[str, Counter]:
    """Each engine module's mutants counted by mutmut's status ("killed", "not checked" …)."""
    from mutmut.stats import status_by_exit_code

    by_module: dict[str, Counter] = defaultdict(Counter)
    for meta in sorted(Path("mutants").rglob("*.py.meta")):
        for name, exit_code in json.loads(meta.read_text())["exit_code_by_key"].items():
            module = MUTANT_NAME.match(name).group(1)
            by_module[module][status_by_exit_code[exit_code]] += 1
    return by_module


def main() -> None:
    rows = []
    for module, counts in statuses().items():
        checked = sum(n for status, n in counts.items() if status not in {"not checked", "skipped"})
        if not checked:
            continue
        caught = sum(counts[status] for status in CAUGHT)
        total = sum(counts.values())
        line = (f"{module}: {100 * caught / checked:.1f}% of {checked} checked "
                f"(caught {caught}, survived {counts['survived']}")
        others = {s: n for s, n in counts.items() if s not in CAUGHT | {"survived", "not checked", "skipped"}}
        line += "".join(f", {status} {n}" for status, n in sorted(others.items())) + ")"
        if checked < total:
            low, high = wilson(caught, checked)
            line += f"; a sample of {total}: the scope's score is {100 * low:.1f}–{100 * high:.1f}% (95 %)"
        rows.append(line)
    if not rows:
        sys.exit("no mutant was checked")
    print("mutation score per module:")
    print("\n".join(f"  {row}" for row in rows))


if __name__ == "__main__":
    main()
