"""Home: the four tools (prerendered) and, live, the saved games to resume."""

from __future__ import annotations

from engine.registry import TABLES
from web.dom import h
from web.platform import local_time

#: The tools with a live table, and what their games are called (engine.registry).
TOOL_TITLES = {table.kind: table.resume for table in TABLES}


class HomeView:
    def __init__(self, app) -> None:
        self.app = app

    def render(self):
        rows = []
        for kind, title in TOOL_TITLES.items():
            for slot in self.app.store.list(kind)[:5]:
                if slot.damaged:
                    meta = f"{title} · this save cannot be opened; opening it keeps a copy under Saves"
                else:  # where the game stands, so that saves of the same name are told apart
                    meta = f"{title} · {slot.where} · {local_time(slot.updated)}"
                rows.append(h("li", {"data-key": slot.id},
                              h("a", {"class": "resume-link", "href": f"#/{kind}?slot={slot.id}"},
                                h("span", {"class": "resume-name"}, slot.name or "Unnamed game",
                                  h("span", {"class": "badge spectator"}, "Spectator copy")
                                  if slot.spectator else None),
                                h("span", {"class": "resume-meta", "data-testid": "resume-meta"}, meta))))
        if not rows:
            return None  # a first visit: just the tools
        return h("section", {"class": "resume", "aria-labelledby": "resume-title"},
                 h("h2", {"id": "resume-title"}, "Resume a game"), h("ul", {"class": "resume-list"}, rows))

    def handle(self, action, arg, el, event) -> None:
        """Home has no actions of its own: its links are plain routes."""

    def field(self, name, value, live, row=None) -> bool:
        return False
