"""Hidden means absent (issue 21): one check for every system's spectator copy.

A system's privacy test plays random games with distinctive hidden tokens (the
names of hidden combatants, cards in hands, unrevealed bids, the seed) and calls
:func:`assert_absent`, which looks for each token in everything a spectator's
copy is made of: its saved JSON, the JSON inside its share payload (decoded: the
payload itself is compressed) and the history labels of the copy.
"""

from __future__ import annotations

import base64
import zlib
from typing import Iterable

from engine import codec
from engine import game as games


def payload_json(payload: str) -> str:
    """The JSON text inside a share payload."""
    body = payload[1:]
    return zlib.decompress(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))).decode("utf-8")


def spectator_texts(game: games.Game) -> dict[str, str]:
    """Everything a spectator's copy of ``game`` carries, as text, by where it is."""
    copy = games.system(game.kind).public_game(game)
    assert games.is_spectator(copy), "public_game must mark its copy (setup 'spectator': true)"
    payload = codec.encode_share(copy)
    opened = codec.decode_share(payload)
    return {
        "saved copy": codec.dumps(copy),
        "share payload": payload_json(payload),
        "opened link": codec.dumps(opened),
        "history": "\n".join(games.history(opened)),
    }


def assert_absent(game: games.Game, tokens: Iterable[str]) -> None:
    """No ``token`` appears anywhere in the spectator's copy of ``game``.

    A seed is checked as its decimal digits: pass ``str(game.seed)`` (a spectator
    copy's seed is 0, and a short token could match by chance: use long, distinctive
    tokens, such as 128-bit seeds and names like "Zyx-Sniper-41").
    """
    texts = spectator_texts(game)
    for token in tokens:
        for where, text in texts.items():
            assert token not in text, f"hidden {token!r} is in the spectator's {where}"
