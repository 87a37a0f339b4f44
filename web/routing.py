"""Hash routes: ``#/conflict?g=…`` → the tool and its parameters."""

from __future__ import annotations

from urllib.parse import unquote

#: The routes of the app: home and the four tools.
ROUTES = ("home", "conflict", "campaign", "initiative", "battle")


def parse_hash(hash_: str) -> tuple[str, dict[str, str]]:
    """``"#/conflict?g=abc"`` → ``("conflict", {"g": "abc"})``; anything unknown is home."""
    body = hash_[2:] if hash_.startswith("#/") else ""
    route, _, query = body.partition("?")
    if route not in ROUTES:
        route = "home"
    params: dict[str, str] = {}
    for pair in query.split("&"):
        if pair:
            key, _, value = pair.partition("=")
            params.setdefault(unquote(key), unquote(value.replace("+", " ")))
    return route, params


#: What players call each tool's games and table (kind → words), for messages:
#: "This link holds an Ascension Isle battle; …", "… on the Battle table".
GAME_WORDS = {
    "conflict": "an Organizations In Conflict game",
    "campaign": "a Campaign game",
    "initiative": "a CONSIM initiative round",
    "battle": "an Ascension Isle battle",
}
#: The table's name as the navigation says it.
TABLE_WORDS = {"conflict": "the Conflict table", "campaign": "the Campaign table",
               "initiative": "the Initiative table", "battle": "the Battle table"}


def game_words(kind: str) -> str:
    """"an Ascension Isle battle": a game of ``kind`` in players' words."""
    return GAME_WORDS.get(kind, "a game for another table")


def table_words(kind: str) -> str:
    """"the Battle table": where games of ``kind`` are played."""
    return TABLE_WORDS.get(kind, "another table")
