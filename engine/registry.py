"""The tables of the app, in one place (issue 31): every system's kind, route, names,
engine package, view and stylesheet.

The engine (:mod:`engine.game` finds a system's package here, :mod:`engine.record`
its title), the browser's store, router and app, and the site builder all read this
one list; none keeps its own. A new table is one more :class:`Table` (and its package,
view and stylesheet).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Table:
    """One table of the app.

    * ``kind``: the kind string saves and links carry (never changes: old saves name it);
    * ``route``: the page's hash route (``#/initiative``);
    * ``title``: the system's name as the navigation and the record say it;
    * ``short``: the table's short name (``"Initiative"``: "the Initiative table");
    * ``games``: what one game is called in players' words (messages about links);
    * ``resume``: how Home lists its saved games;
    * ``symbol``, ``blurb``: the home page's tile;
    * ``module``: the engine package of its rules (:mod:`engine.system`);
    * ``view``: ``"module:Class"`` of its view (``web/views``);
    * ``stylesheet``: its part of the style sheet (``static/css``).
    """

    kind: str
    route: str
    title: str
    short: str
    games: str
    resume: str
    symbol: str
    blurb: str
    module: str
    view: str
    stylesheet: str

    @property
    def table_words(self) -> str:
        """"the Battle table": where its games are played, as messages say it."""
        return f"the {self.short} table"


TABLES: tuple[Table, ...] = (
    Table("conflict", "conflict", "Organizations In Conflict", "Conflict", "an Organizations In Conflict game",
          "Organizations In Conflict", "♠",
          "A card duel between alliances of organizations: suit ratings, scopes, "
          "a trump circle and rounds that change the balance of power.",
          "engine.conflict", "web.views.conflict:ConflictView", "10-conflict.css"),
    Table("campaign", "campaign", "Campaign", "Campaign", "a Campaign game", "Campaign", "♥",
          "A wargame campaign of hands, stakes and a pool, ending in an exhaustion roll "
          "and a peace treaty decided by the best poker hand.",
          "engine.campaign", "web.views.campaign:CampaignView", "20-campaign.css"),
    Table("initiative", "initiative", "CONSIM", "Initiative", "a CONSIM initiative round", "CONSIM initiative", "♣",
          "Card initiative, suppression, shooting and wounds for skirmishes.",
          "engine.consim", "web.views.consim:ConsimView", "30-initiative.css"),
    Table("battle", "battle", "Ascension Isle", "Battle", "an Ascension Isle battle", "Ascension Isle", "♦",
          "Army battles: blind maneuver bids, dice pools with reinforcement dice, "
          "stratagems and result matrices.",
          "engine.ascension", "web.views.battle:BattleView", "40-battle.css"),
)

#: The tables by kind.
BY_KIND: Mapping[str, Table] = MappingProxyType({table.kind: table for table in TABLES})
#: The kinds, in the app's order.
KINDS: tuple[str, ...] = tuple(BY_KIND)


def table(kind: str) -> Table | None:
    """The table of ``kind``, or ``None`` for a kind this app does not have."""
    return BY_KIND.get(kind) if isinstance(kind, str) else None


__all__ = ["BY_KIND", "KINDS", "TABLES", "Table", "table"]
