"""Home: the four tools (prerendered) and, live, the games to resume."""

from __future__ import annotations

from web.dom import h

TOOL_TITLES = {"conflict": "Organizations In Conflict"}


class HomeView:
    def __init__(self, app) -> None:
        self.app = app

    def render(self):
        rows = []
        for kind, title in TOOL_TITLES.items():
            for slot in self.app.store.list(kind)[:5]:
                rows.append(h("li", {"data-key": slot.id},
                              h("a", {"class": "resume-link", "href": f"#/{kind}?slot={slot.id}"},
                                h("span", {"class": "resume-name"}, slot.name),
                                h("span", {"class": "resume-meta"},
                                  f"{title} · {slot.actions} actions" if not slot.damaged
                                  else f"{title} · damaged save (kept as a backup)"))))
        if not rows:
            return h("p", {"class": "muted"}, "No saved games yet. Pick a tool above to start one.")
        return [h("h2", {}, "Resume a game"), h("ul", {"class": "resume-list"}, rows)]

    def handle(self, action, arg, el, event) -> None:
        pass

    def field(self, name, value, live) -> bool:
        return False
