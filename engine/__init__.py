"""Conflict Table's rules engine: four conflict systems as pure Python.

Standard library only; runs on CPython 3.11+ and on Pyodide. A game is data
(:class:`engine.game.Game`: kind, rules settings, setup, seed and actions); the
current state is derived by replaying the actions through a system's pure rules.
"""

__version__ = "0.1.0"
