"""What every tool's view does with its session, written once.

Each table (conflict, campaign, initiative, battle) is a view with a ``route``, an
``app`` and a :class:`web.session.Session`. Opening a shared link or a save from the
route, noticing another tab, importing a file and keeping the setup form between
visits are the same for all of them; the view itself only draws its state and turns
taps into actions.
"""

from __future__ import annotations

import json
from typing import Any

from engine.game import MAX_SEED
from web import platform


class ToolView:
    """Base of a tool's view: needs ``route``, ``app`` and ``session`` attributes."""

    route: str

    def on_enter(self, params: dict) -> None:
        """``#/<tool>?g=…`` opens a shared game as a new save; ``?slot=…`` opens a save."""
        if "g" in params:
            self.session.open_link(params["g"])
        elif "slot" in params:
            platform.replace_hash(f"#/{self.route}")
            self.session.open(params["slot"])

    def on_leave(self) -> None:
        """Leaving the route hides what was private (a revealed hand, a secret bid): it is
        not open when someone comes back (issue 7). Views keep that state in
        ``_reset_view``."""
        self._reset_view()

    def recover(self) -> None:
        """After an unexpected error: back to the plain table (drawers shut, hidden things hidden)."""
        self.session.drawer = None
        self.session.renaming = None
        self.on_leave()

    def on_storage(self, key: str, value: str | None) -> None:
        self.session.on_storage(key, value)

    def import_file(self, file) -> None:
        self.session.import_file(file)

    def _seed(self):
        """The typed seed (``seed_text``): None for random, an int, or False when it is not a seed."""
        text = self.seed_text.strip()
        if not text:
            return None
        if text.isdigit() and int(text) <= MAX_SEED:
            return int(text)
        return False

    def load_json(self, key: str) -> Any:
        """What :meth:`keep_json` kept under ``key`` (``None`` when absent or unreadable)."""
        raw = self.app.store.storage.get(key)
        if not raw:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return None  # an unreadable draft is just a fresh form

    def keep_json(self, key: str, value: Any, full: str | None = None) -> None:
        """Keep ``value`` (a setup draft, templates) between visits; a full storage never
        stops the form — ``full`` is what to tell the player then, if anything."""
        try:
            self.app.store.storage.set(key, json.dumps(value))
        except Exception:
            if full:
                self.app.toast(full, "error")
