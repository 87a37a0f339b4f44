"""The Ascension Isle tables, now :mod:`engine.ascension.tables` (issue 31): this name is kept
for callers that import it."""

from .ascension.tables import *  # noqa: F401,F403
from .ascension.tables import __all__  # noqa: F401
