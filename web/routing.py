"""Hash routes: ``#/conflict?g=…`` → the tool and its parameters."""

from __future__ import annotations

from urllib.parse import unquote

from engine.registry import BY_KIND, TABLES

#: The routes of the app: home and the four tools (engine.registry).
ROUTES = ("home",) + tuple(table.route for table in TABLES)
#: Pages that are not tables: a phone joining a table (web/views/join.py, issue 32).
PAGES = ("join",)


def parse_hash(hash_: str) -> tuple[str, dict[str, str]]:
    """``"#/conflict?g=abc"`` → ``("conflict", {"g": "abc"})``; anything unknown is home."""
    body = hash_[2:] if hash_.startswith("#/") else ""
    route, _, query = body.partition("?")
    if route not in ROUTES and route not in PAGES:
        route = "home"
    params: dict[str, str] = {}
    for pair in query.split("&"):
        if pair:
            key, _, value = pair.partition("=")
            params.setdefault(unquote(key), unquote(value.replace("+", " ")))
    return route, params


#: What players call each tool's games and table (kind → words), for messages:
#: "This link holds an Ascension Isle battle; …", "… on the Battle table".
GAME_WORDS = {kind: table.games for kind, table in BY_KIND.items()}
#: The table's name as the navigation says it.
TABLE_WORDS = {kind: table.table_words for kind, table in BY_KIND.items()}


def game_words(kind: str) -> str:
    """"an Ascension Isle battle": a game of ``kind`` in players' words."""
    return GAME_WORDS.get(kind, "a game for another table")


def table_words(kind: str) -> str:
    """"the Battle table": where games of ``kind`` are played."""
    return TABLE_WORDS.get(kind, "another table")
