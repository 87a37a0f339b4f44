"""The campaign's words with our own deck (issue 34, 11), drawn through the view on the fake
browser: the setup says who deals, a hand whose stake is face up never says nothing of it
has been face up, and a record of an app-deck game says nothing about an own deck."""

from __future__ import annotations

import importlib
import sys

import pytest

from engine import record
from engine.game import new_game
from tests.engine.test_campaign_table import at_battle

from .fakebrowser import FakeApp, browser
from .test_session import texts_of


@pytest.fixture
def view():
    with browser():
        sys.modules.pop("web.views.campaign", None)
        mod = importlib.import_module("web.views.campaign")
        v = mod.CampaignView(FakeApp())
        v.boot()
        yield v
        sys.modules.pop("web.views.campaign", None)


def screen(v):
    from web.dom import h

    return texts_of(h("div", {}, v.render()))


def test_the_setup_says_who_deals(view):
    view.deck = "app"
    assert "The app deals six hidden cards to each side" in screen(view)
    view.deck = "table"
    words = screen(view)
    assert "The app deals" not in words
    assert "You deal six cards to each side from your own deck" in words


def test_an_own_deck_hand_with_its_stake_face_up_says_so(view):
    from engine.cards import parse_cards

    assert view.session.start(at_battle()) is None
    words = screen(view)
    assert "No card of this hand has been face up yet" not in words
    for token in ("QS", "3H"):  # the two stakes entered (CMP-2)
        name = parse_cards(token)[0].name
        assert f"Its stake, the {name}, is face up (CMP-2); no other card of this hand has been seen." in words


def test_an_app_deck_record_says_nothing_of_an_own_deck():
    game = new_game("campaign", {"players": ["Anna", "Ben"], "dummy": False}, seed=7)
    text = record.to_markdown(record.record(game, name="c"))
    assert "own deck" not in text and "never knew" not in text
