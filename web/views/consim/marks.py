"""The small marks of the tracker: a card (CS-2), suppression pips (CS-9) and the loss chip
(CS-10 forecast)."""

from __future__ import annotations

from engine import consim as cs
from web.dom import h

WOUND_LABEL = {cs.WoundStatus.STUN: "STUN", cs.WoundStatus.INJURE: "INJURE", cs.WoundStatus.DYING: "DYING",
               cs.WoundStatus.DEAD: "DEAD"}


COVER_LABEL = {cs.Cover.NONE: "Open", cs.Cover.COVER: "Cover", cs.Cover.GOOD: "Good cover"}


def card_tag(card, *extra, label: str | None = None) -> object:
    """A compact card for lists (rank and suit, suit-coloured), named for screen readers."""
    return h("span", {"class": ["ctag", "red" if card.suit.is_red else "black", *extra], "role": "img",
                      "aria-label": label or card.name, "data-card": card.token}, card.label)


def pips(count: int) -> object:
    """CS-3/CS-7: suppression as pips (two pips strike a card at the deal)."""
    shown = min(count, 10)
    return h("span", {"class": "pips", "role": "img", "aria-label": f"suppression {count}"},
             [h("span", {"class": ["pip", i % 2 and "pair"]}) for i in range(shown)],
             h("span", {"class": "pip-more"}, f"+{count - shown}") if count > shown else None)


def loss_chip(f: cs.Forecast):
    """Issue 22: exactly what the next deal strikes (CS-3, CS-10), "no cards" when so."""
    if f.deal == 0:
        if f.why in (None, "DEAD", "DYING"):
            return None  # the condition's own chip says it (CS-13: no cards)
        return h("span", {"class": "chip loss", "data-testid": "loss"}, f"no cards next round ({f.why})")
    text = f.strikes_text()  # issue 34: both causes named (engine.consim.Forecast)
    return h("span", {"class": "chip loss", "data-testid": "loss"}, text) if text else None
