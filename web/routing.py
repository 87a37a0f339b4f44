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
