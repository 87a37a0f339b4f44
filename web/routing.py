"""Hash routes: ``#/conflict?g=…`` → the tool and its parameters."""

from __future__ import annotations

from urllib.parse import parse_qs

#: The routes of the app: home and the four tools.
ROUTES = ("home", "conflict", "campaign", "initiative", "battle")


def parse_hash(hash_: str) -> tuple[str, dict[str, str]]:
    """``"#/conflict?g=abc"`` → ``("conflict", {"g": "abc"})``; anything unknown is home."""
    body = hash_[2:] if hash_.startswith("#/") else ""
    route, _, query = body.partition("?")
    if route not in ROUTES:
        route = "home"
    params = {k: v[0] for k, v in parse_qs(query, keep_blank_values=True).items()}
    return route, params
