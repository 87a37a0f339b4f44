"""Browser entry point: PyScript runs this after unpacking app.zip."""

import random

from js import performance  # type: ignore[import-not-found]

performance.mark("ct:python-start")

# A start-up from a memory snapshot (vendor/pyodide/boot.mjs) restores the `random` state
# frozen in it: every boot from one snapshot would deal the same "random" hands. Reseed
# from the operating system before anything is dealt (a normal boot loses nothing by it).
random.seed()

from web.app import main  # noqa: E402

main()
