"""Prints the score of the last `make mutate` run (mutmut's counts in mutants/).

A mutant is *caught* when a test failed (killed) or the tests ran into mutmut's time
limit (timeout: the mutant made the engine loop). Survivors are listed by
`mutmut results`; `mutmut show <name>` prints one as a diff.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

STATS = Path("mutants") / "mutmut-cicd-stats.json"


def main() -> None:
    subprocess.run([str(Path(sys.executable).parent / "mutmut"), "export-cicd-stats"], check=True,
                   stdout=subprocess.DEVNULL)
    stats = json.loads(STATS.read_text())
    caught = stats["killed"] + stats["timeout"]
    checked = caught + stats["survived"] + stats["no_tests"] + stats["suspicious"] + stats["segfault"]
    if not checked:
        sys.exit("no mutant was checked")
    print(f"mutants checked: {checked}  caught: {caught} (killed {stats['killed']}, timeout {stats['timeout']})  "
          f"survived: {stats['survived']}  no tests: {stats['no_tests']}  suspicious: {stats['suspicious']}")
    print(f"mutation score: {100 * caught / checked:.1f}%")


if __name__ == "__main__":
    main()
