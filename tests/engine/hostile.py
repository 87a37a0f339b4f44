"""Hostile callers (issue 20): random JSON-like actions and arguments, for every system.

Each system's tests draw actions with :func:`actions` (random JSON, and near-valid
actions built from the system's own action types and field names, with random
values) and pass each through :func:`take`, which asserts the contract:

- only ``ValueError`` subclasses ever come out of the engine;
- a refused action leaves the game equal (and its saved text identical);
- an accepted action is stored in canonical form: re-applying its JSON gives the
  same game, and replaying from scratch gives the same state as the cached one.

:func:`call` does the same for a public helper given random arguments.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Mapping

from hypothesis import strategies as st

from engine import codec
from engine import game as games

#: Scalars a hostile caller tries: edge numbers, wrong types, card-like and odd text.
SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.integers(-3, 60), st.sampled_from([-1, 0, 1, 2, 999, 1000, 10**100, -(10**100), 2**31, 2**53]),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.5, 1.0, -0.0]),
    st.text(max_size=6),
    st.sampled_from(["AS", "as", "10D", "Td", "0", "00", "01", "1", "-1", "attack", "ATTACK", "roll", "",
                     " ", "\u202eX", "KS", "XX"]),
)

#: Any JSON-like value (and a few things JSON cannot hold).
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.tuples(inner, inner),
                            st.dictionaries(st.one_of(st.text(max_size=6), st.sampled_from(["0", "1", "00"])),
                                            inner, max_size=4)),
    max_leaves=10,
)


def actions(types: Iterable[str], fields: Iterable[str], valid: Iterable[Mapping[str, Any]] = ()):
    """Actions a hostile caller might send: random JSON; the system's own types with
    random fields and values; and mutations of ``valid`` actions (a field removed,
    changed or added)."""
    types, fields = sorted(types), sorted(fields)
    own = st.fixed_dictionaries(
        {"type": st.one_of(st.sampled_from(types), SCALARS)},
        optional={name: VALUES for name in fields},
    )
    strategies = [VALUES, own]
    valid = [dict(a) for a in valid]
    if valid:
        def mutate(args):
            base, how, key, value = args
            out = dict(base)
            if how == "drop" and out:
                out.pop(sorted(out)[key % len(out)], None)
            elif how == "change" and out:
                out[sorted(out)[key % len(out)]] = value
            else:
                out[fields[key % len(fields)] if fields and how == "add" else f"x{key}"] = value
            return out

        strategies.append(st.tuples(st.sampled_from(valid), st.sampled_from(["drop", "change", "add", "junk"]),
                                    st.integers(0, 20), VALUES).map(mutate))
        strategies.append(st.sampled_from(valid))
    return st.one_of(strategies)


def saved(game: games.Game) -> str:
    return codec.dumps(game)


def take(game: games.Game, action: Any) -> tuple[games.Game, bool]:
    """Apply ``action`` as a hostile caller would; assert the contract; returns the game
    after it (unchanged when refused) and whether it was accepted."""
    before = saved(game)
    try:
        new = games.apply(game, action)
    except ValueError:
        assert saved(game) == before, "a refused action changed the game"
        return game, False
    canonical = json.loads(json.dumps(new.actions[-1]))
    again = games.apply(game, canonical)
    assert again == new, "the canonical action does not give the same game"
    fresh = games.Game(new.kind, new.seed, json.loads(json.dumps(new.rules)), json.loads(json.dumps(new.setup)),
                       tuple(json.loads(json.dumps(a)) for a in new.actions), new.position)
    assert games.replay(fresh) == games.replay(new), "a replay from scratch differs from the cached state"
    assert games.validate(new) == new, "validate changes an accepted game"
    assert codec.decode_share(codec.encode_share(new)) == new
    return new, True


def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call a public helper with hostile arguments: it answers, or refuses with a
    ``ValueError`` subclass (never TypeError, KeyError, IndexError, AttributeError …)."""
    try:
        return fn(*args, **kwargs)
    except ValueError as err:
        assert str(err), f"{fn.__name__} refused with an empty message"
        return err
