"""Campaign's setup (CMP-1, CMP-9, issue 18): :func:`normalize_setup`, the one check of a
setup (two players or one and the dummy, the app's deck or the players' own, and a
spectator's copy's revealed facts).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import CardError, parse_card
from ..game import SetupError
from ..text import brief_repr, key_text, setup_text
from .values import DECKS, LEGACY, POOL_SIZE, TREATY_CARDS

_NAME_MAX = 40


def _name(value: Any, where: str, default: str) -> str:
    if value is None:
        return default
    if isinstance(value, str) and not value.strip():
        return default
    return setup_text(value, where, "name", error=SetupError, max_len=_NAME_MAX)


def _tokens(value: Any, where: str, count: int | None = None) -> list[str]:
    if not isinstance(value, (list, tuple)):
        raise SetupError(f"{where} must be a list of cards")
    try:
        cards = [parse_card(token) for token in value]
    except CardError as err:
        raise SetupError(f"{where}: {err}") from None
    if count is not None and len(cards) != count:
        raise SetupError(f"{where} must hold {count} cards (got {len(cards)})")
    if len(set(cards)) != len(cards):
        raise SetupError(f"{where} lists a card twice")
    return [str(card) for card in cards]


def _dice_list(dice: Any) -> list[int]:
    if (not isinstance(dice, (list, tuple)) or len(dice) > 1000
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)):
        raise SetupError("Setup: the revealed dice must be a list of numbers from 1 to 6")
    return [int(d) for d in dice]


def _reveal(raw: Any, table: bool = False) -> dict[str, Any]:
    """The face-up facts of a spectator's copy (see :func:`public_game`). Each list is
    checked here; whether the facts fit the table (each card once) is checked as the
    copy replays, like moves. With the players' own deck the cards are in the actions
    already: only the dice the app rolled are revealed."""
    if not isinstance(raw, Mapping):
        raise SetupError("Setup: 'reveal' must be an object")
    if table:
        unknown = sorted(key_text(k) for k in raw if k != "dice")
        if unknown:
            raise SetupError(f"Setup: 'reveal' of a game with your own deck holds only the dice the app rolled "
                             f"(not {brief_repr(unknown[0])})")
        return {"dice": _dice_list(raw.get("dice", []))}
    unknown = sorted(key_text(k) for k in raw if k not in ("pool", "stakes", "refills", "dice", "table", "drawn"))
    if unknown:
        raise SetupError(f"Setup: 'reveal' has an unknown field {brief_repr(unknown[0])}")
    out: dict[str, Any] = {"pool": _tokens(raw.get("pool"), "Setup: the revealed pool", POOL_SIZE)}
    stakes = raw.get("stakes", [])
    if not isinstance(stakes, (list, tuple)) or len(stakes) > 100:
        raise SetupError("Setup: the revealed stakes must be a list (at most 100 battles)")
    out["stakes"] = [_tokens(pair, f"Setup: the stakes of battle {i + 1}", 2) for i, pair in enumerate(stakes)]
    refills = raw.get("refills", [])
    if isinstance(refills, (list, tuple)) and len(refills) > 48:
        raise SetupError("Setup: the revealed pool refills hold at most 48 cards")
    out["refills"] = _tokens(refills, "Setup: the revealed pool refills")
    out["dice"] = _dice_list(raw.get("dice", []))
    for key in ("table", "drawn"):
        if raw.get(key) is not None:
            pair = raw[key]
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise SetupError(f"Setup: the revealed {key} must hold two lists of cards")
            out[key] = [_tokens(cards, f"Setup: the revealed {key}") for cards in pair]
    if ("table" in out) != ("drawn" in out):
        raise SetupError("Setup: the revealed table needs both its cards and its draws")
    if "table" in out and any(len(cards) < TREATY_CARDS for cards in out["table"]):
        raise SetupError("Setup: at the revealed table each player holds five cards or more")
    return out


def _legacy(raw: Any) -> list[str]:
    if not isinstance(raw, (list, tuple)) or not all(isinstance(x, str) and x in LEGACY for x in raw) \
            or len(set(raw)) != len(raw):
        raise SetupError(f"Setup: 'legacy' lists earlier readings kept for an old game ({', '.join(LEGACY)})")
    return sorted(raw)


def normalize_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """Validated, canonical setup: ``{"players": [a, b], "dummy": bool}`` (+ ``"deck":
    "table"`` for the players' own deck and dice, ``"reveal"``, ``"spectator"`` and
    ``"legacy"`` where they apply).

    Empty names become "Player 1" / "Player 2" (or "Dummy" for a solo
    campaign's second player). Raises :class:`SetupError` naming the field.
    """
    if not isinstance(setup, Mapping):
        raise SetupError("The setup must be an object with named fields")
    unknown = sorted(key_text(k) for k in setup if k not in ("players", "dummy", "deck", "reveal", "spectator",
                                                        "legacy"))
    if unknown:
        raise SetupError(f"Setup: unknown field {brief_repr(unknown[0])}")
    dummy = setup.get("dummy", False)
    if not isinstance(dummy, bool):
        raise SetupError("Setup: 'dummy' must be true (solo against the dummy, CMP-9) or false")
    players = setup.get("players", [None, None])
    if not isinstance(players, (list, tuple)) or len(players) != 2:
        raise SetupError("CMP-1: a campaign has two players (or one player and the dummy)")
    names = [_name(players[0], "Player 1", "Player 1"),
             _name(players[1], "Dummy" if dummy else "Player 2", "Dummy" if dummy else "Player 2")]
    out: dict[str, Any] = {"players": names, "dummy": dummy}
    deck = setup.get("deck", "app")
    if not isinstance(deck, str) or deck not in DECKS:
        raise SetupError("Setup: 'deck' is \"app\" (the app's deck and dice) or \"table\" (your own)")
    if deck != "app":  # the app's deck is the default, left out (older games are unchanged)
        out["deck"] = deck
    if setup.get("legacy"):
        out["legacy"] = _legacy(setup["legacy"])
    if "reveal" in setup and setup["reveal"] is not None:
        out["reveal"] = _reveal(setup["reveal"], table=deck == "table")
    spectator = setup.get("spectator", "reveal" in out)
    if not isinstance(spectator, bool) or spectator != ("reveal" in out):
        raise SetupError("Setup: 'spectator' is true exactly for a spectator's copy (the one with 'reveal')")
    if spectator:
        out["spectator"] = True
    return out
