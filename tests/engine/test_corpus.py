"""Every save and link made before opens and replays identically (issue 31).

``tests/corpus/games.json`` holds games of every system at several phases, as saves,
full links and spectator links, made by main at 34abfc6 with
``tests/corpus/make_corpus.py``, with what opening them gave then: the canonical save
text, the history labels and the printed record. Today's code must give the same.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import codec, record
from engine.game import history, is_spectator

CORPUS = json.loads((Path(__file__).resolve().parents[1] / "corpus" / "games.json").read_text(encoding="utf-8"))
NAMES = [entry["name"] for entry in CORPUS]


def test_the_corpus_covers_every_system():
    assert {entry["kind"] for entry in CORPUS} == {"conflict", "campaign", "initiative", "battle"}


@pytest.mark.parametrize("entry", CORPUS, ids=NAMES)
def test_an_old_save_opens_as_it_was(entry):
    game, meta = codec.loads(entry["save"])
    assert meta["name"] == entry["name"]
    assert codec.dumps(game) == entry["canonical"]
    assert history(game) == entry["history"]
    assert record.to_markdown(record.record(game, name=entry["name"])) == entry["record"]


@pytest.mark.parametrize("entry", CORPUS, ids=NAMES)
def test_an_old_link_opens_as_it_was(entry):
    game = codec.decode_share(entry["link"])
    assert codec.dumps(game) == entry["canonical"]
    assert history(game) == entry["history"]


@pytest.mark.parametrize("entry", CORPUS, ids=NAMES)
def test_an_old_spectator_link_opens_as_a_spectator_copy(entry):
    game = codec.decode_share(entry["spectator_link"])
    assert is_spectator(game)
    assert codec.dumps(game) == entry["spectator_canonical"]
