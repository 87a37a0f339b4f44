"""Campaign's pure rule functions (RULES.md section 2): each docstring starts with its
clause id. The decisive victory (CMP-3, CMP-12), the exhaustion roll's chances (CMP-6),
the exact odds of the treaty's hands (CMP-7, CMP-8, the dummy's by CMP-9), who wins the
treaty and why (CMP-8), and how many cards a player draws at the table (CMP-7, CMP-9).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from fractions import Fraction

from .. import referee as fields
from ..cards import Card, Rank, Suit
from .poker import CATEGORIES, Hand, best_hand
from .values import (
    DECISIVE_TROOPS,
    EXHAUSTION_TARGET,
    MAX_RANDOM_CARDS,
    MAX_TROOPS,
    TREATY_CARDS,
    CampaignError,
    CampaignState,
    cards_arg,
    player_arg,
    state_arg,
    whole_arg,
)

_SUITS = tuple(Suit)


def is_decisive(troops: int) -> bool:
    """CMP-3: a victory with 8 or more points of troops left in play is decisive.

    ``troops`` is a whole number from 0 to 999 (CMP-12).
    """
    return fields.whole(troops, "Troop points", 0, MAX_TROOPS, rule="CMP-12") >= DECISIVE_TROOPS


def _chance_over_36(battles: int) -> int:
    need = EXHAUSTION_TARGET - battles  # the lower die must be at least this
    if need <= 1:
        return 36
    if need > 6:
        return 0
    return (7 - need) ** 2


def exhaustion_chance(battles: int) -> Fraction:
    """CMP-6: the exact chance that the roll after ``battles`` battles exhausts both sides.

    P(lower of 2d6 + battles ≥ 9) = P(both dice ≥ 9 − battles) = ((7 − k) / 6)² with
    k = 9 − battles: 1/36 after battle 3, 4/36 after 4, 9/36 after 5 … certain from 8.
    """
    battles = whole_arg(battles, "The number of battles")
    return Fraction(_chance_over_36(battles), 36)


def exhaustion_odds_text(battles: int) -> str:
    """CMP-6 for players: ``"after battle 5: P(lower of 2d6 + 5 ≥ 9) = 9/36 = 25%"``."""
    chance = exhaustion_chance(battles)
    battles = whole_arg(battles, "The number of battles", 0, 999_999)  # no thousand-digit text (issue 30)
    over36 = _chance_over_36(battles)
    percent = chance * 100
    shown = f"{percent.numerator // percent.denominator}" if percent.denominator == 1 else f"{float(percent):.1f}"
    return (f"after battle {battles}: P(lower of 2d6 + {battles} ≥ {EXHAUSTION_TARGET}) = "
            f"{over36}/36 = {shown}%")


# ---- treaty odds ----------------------------------------------------------

# Category strengths (bigger is better) for the odds: 8 straight flush … 0 high card.
_SF, _QUADS, _FULL, _FLUSH, _STRAIGHT, _TRIPS, _TWO_PAIRS, _PAIR, _HIGH = range(8, -1, -1)


def _run(mask: int) -> bool:
    """Five ranks in a row among the set bits of ``mask`` (bit r = rank r; aces high only)."""
    return bool(mask & mask >> 1 & mask >> 2 & mask >> 3 & mask >> 4)


def _rank_strength(counts: Mapping[int, int]) -> int:
    """CMP-8 without suits: the category the ranks alone make (quads … high card)."""
    pairs = 0
    trips = False
    mask = 0
    for rank, count in counts.items():
        if count:
            mask |= 1 << rank
            if count >= 4:
                return _QUADS
            if count >= 2:
                pairs += 1
                if count == 3:
                    trips = True
    if trips and pairs >= 2:
        return _FULL
    if _run(mask):
        return _STRAIGHT
    if trips:
        return _TRIPS
    if pairs >= 2:
        return _TWO_PAIRS
    return _PAIR if pairs else _HIGH


@functools.lru_cache(maxsize=4096)
def _subsets_ways(pairs: tuple[tuple[int, int], ...], need: int) -> int:
    """Σ over subsets D of ``pairs`` with |D| ≥ need of Π_{D} x · Π_{not D} y (pairs (x, y))."""
    poly = [1]
    for x, y in pairs:
        nxt = [0] * (len(poly) + 1)
        for size, ways in enumerate(poly):
            if ways:
                nxt[size] += ways * y
                nxt[size + 1] += ways * x
        poly = nxt
    return sum(poly[max(0, need):])


def _joint(group: tuple[int, ...], taken: list[tuple[int, int]], avail: Mapping[int, int], own_suit: list[int],
           straight: bool) -> int:
    """Assignments of the drawn ranks ``taken`` (rank, count) to suits in which every suit of
    ``group`` ends with a flush (``straight``: a straight flush). ``avail[rank]`` is the
    bit set of suits still unseen at that rank."""
    in_group = 0
    for s in group:
        in_group |= 1 << s
    total = 0

    def walk(i: int, masks: tuple[int, ...], ways: int) -> None:
        nonlocal total
        if i == len(taken):
            for s, mask in zip(group, masks):
                if (mask | own_suit[s]).bit_count() < TREATY_CARDS:
                    return
                if straight and not _run(mask | own_suit[s]):
                    return
            total += ways
            return
        rank, count = taken[i]
        suits = avail[rank]
        outside = (suits & ~in_group).bit_count()
        chosen_from = suits & in_group
        sub = chosen_from
        while True:  # every subset of the group's suits available at this rank
            c = sub.bit_count()
            if c <= count:
                rest = math.comb(outside, count - c)
                if rest:
                    new = tuple(mask | (1 << rank) if sub >> s & 1 else mask for s, mask in zip(group, masks))
                    walk(i + 1, new, ways * rest)
            if sub == 0:
                return  # every subset tried
            sub = (sub - 1) & chosen_from

    walk(0, tuple(0 for _ in group), 1)
    return total


#: Binomials of up to four suits at a rank: _COMB[n][k] = C(n, k) (0 for k > n).
_COMB = tuple(tuple(math.comb(n, k) for k in range(6)) for n in range(5))


def _flush_ways(taken: list[tuple[int, int]], avail: Mapping[int, int], own_suit: list[int],
                random_cards: int) -> tuple[int, int]:
    """For the drawn ranks ``taken``: in how many of its card choices some suit makes a
    flush, and in how many a straight flush (inclusion–exclusion over the suits)."""
    singles: list[tuple[int, int, int]] = []  # (suit, flush ways, straight flush ways)
    ranks = [(rank, count, avail[rank], avail[rank].bit_count()) for rank, count in taken]
    for s in range(4):
        need = TREATY_CARDS - own_suit[s].bit_count()
        bit = 1 << s
        if sum(1 for _, _, suits, _ in ranks if suits & bit) < need:
            continue
        items = []
        other = 1
        reach = own_suit[s]
        for rank, count, suits, n in ranks:
            if suits & bit:
                fewer = _COMB[n - 1]  # C(n - 1, ·)
                items.append((rank, fewer[count - 1], fewer[count]))
                reach |= 1 << rank
            else:
                other *= _COMB[n][count]
        flush = _subsets_ways(tuple(sorted((x, y) for _, x, y in items)), need) * other
        if not flush:
            continue
        straight = 0
        if _run(reach):
            for size in range(max(0, need), len(items) + 1):
                for chosen in itertools.combinations(range(len(items)), size):
                    mask = own_suit[s]
                    ways = other
                    picked = set(chosen)
                    for j, (rank, x, y) in enumerate(items):
                        if j in picked:
                            mask |= 1 << rank
                            ways *= x
                        else:
                            ways *= y
                    if ways and _run(mask):
                        straight += ways
        singles.append((s, flush, straight))
    flush_total = sum(f for _, f, _ in singles)
    straight_total = sum(sf for _, _, sf in singles)
    flush_suits = [s for s, _, _ in singles]
    # Two suits (or more) can flush together only with enough cards for both.
    for size in range(2, len(flush_suits) + 1):
        for group in itertools.combinations(flush_suits, size):
            need = sum(max(0, TREATY_CARDS - own_suit[s].bit_count()) for s in group)
            if need > random_cards:
                continue
            sign = -1 if size % 2 == 0 else 1
            flush_total += sign * _joint(group, taken, avail, own_suit, False)
            straight_total += sign * _joint(group, taken, avail, own_suit, True)
    return flush_total, straight_total


def _odds(own: tuple[Card, ...], unseen: tuple[Card, ...], random_cards: int) -> Counter[int]:
    """Ways (out of C(len(unseen), random_cards)) of each category strength."""
    avail: dict[int, int] = {}
    for card in unseen:
        avail[int(card.rank)] = avail.get(int(card.rank), 0) | 1 << _SUITS.index(card.suit)
    own_ranks = Counter(int(card.rank) for card in own)
    own_suit = [0, 0, 0, 0]
    for card in own:
        own_suit[_SUITS.index(card.suit)] |= 1 << int(card.rank)
    found: Counter[int] = Counter()
    five = len(own) + random_cards == TREATY_CARDS
    ranks = sorted(avail)
    for drawn in itertools.combinations_with_replacement(ranks, random_cards):
        taken = sorted(Counter(drawn).items())
        ways = 1
        for rank, count in taken:
            ways *= math.comb(avail[rank].bit_count(), count)
        if not ways:
            continue
        counts = own_ranks.copy()
        counts.update(drawn)
        strength = _rank_strength(counts)
        if five:
            # Exactly five cards: a flush needs all five of one suit (so five distinct ranks).
            flush = straight = 0
            if len(counts) == TREATY_CARDS:
                for s in range(4):
                    if own_suit[s].bit_count() == len(own) and all(avail[r] >> s & 1 for r, _ in taken):
                        if strength == _STRAIGHT:
                            straight += 1
                        else:
                            flush += 1
            found[_SF] += straight
            found[_FLUSH] += flush
            found[strength] += ways - flush - straight
            continue
        flush, straight = _flush_ways(taken, avail, own_suit, random_cards)
        found[_SF] += straight
        if strength >= _FULL:
            found[strength] += ways - straight
        else:
            found[_FLUSH] += flush - straight
            found[strength] += ways - flush
    return found


def treaty_odds(own: Iterable[Card | str], unseen: Iterable[Card | str], *, hidden: int = 0,
                extra: int = 0) -> dict[str, Fraction]:
    """CMP-7/CMP-8: exact chances of each hand category if the table came now.

    ``own`` are the player's cards; a player with fewer than five draws up to five
    from the deck, which (as far as the player can tell) is any of the ``unseen``
    cards, each set of draws equally likely. With five or more cards the category
    is certain. ``hidden`` counts cards the player holds that nobody has seen (the
    dummy's, CMP-9: they are any of the unseen cards too) and ``extra`` the cards
    drawn after the draw up to five (the dummy's one extra card, CMP-9): the player
    ends with max(own + hidden, 5) + extra cards, and the best five count.

    Exact and fast: instead of listing every draw (91,390 for one card in hand), it
    enumerates the *ranks* drawn — at most 1,820 multisets for four draws — counts
    the card combinations of each with binomials, and counts the flushes suit by
    suit (straight flushes by the ranks drawn in that suit). Worst case of a
    player's view (one card held, 44 unseen) ≈ 80 ms on CPython; the dummy's
    (six cards at random) about ten times that (``python -m tests.bench_poker``).
    Cards are Card values or tokens; each card once (one deck). Returns the
    categories that can happen, in :data:`engine.poker.CATEGORIES` order.
    """
    own = cards_arg(own, "the player's cards")
    unseen = cards_arg(unseen, "the unseen cards")
    both = set(own) & set(unseen)
    if both:
        card = sorted(both, key=lambda c: c.sort_key)[0]
        raise CampaignError(f"The {card.label} cannot be both the player's and unseen")
    hidden = whole_arg(hidden, "The number of hidden cards", 0, MAX_RANDOM_CARDS)
    extra = whole_arg(extra, "The number of extra cards", 0, MAX_RANDOM_CARDS)
    held = len(own) + hidden
    random_cards = hidden + max(0, TREATY_CARDS - held) + extra
    if random_cards > MAX_RANDOM_CARDS:
        raise CampaignError(f"The odds are worked out for at most {MAX_RANDOM_CARDS} cards drawn at random "
                            f"(these would draw {random_cards})")
    if len(unseen) < random_cards:
        raise CampaignError(f"Not enough unseen cards to draw {random_cards} (there are {len(unseen)})")
    if random_cards == 0:
        return {best_hand(own).category: Fraction(1)}
    found = _odds(own, unseen, random_cards)
    total = math.comb(len(unseen), random_cards)
    return {name: Fraction(found[8 - index], total) for index, name in enumerate(CATEGORIES) if found[8 - index]}


def _article(category: str) -> str:
    if category == "two pairs":
        return category
    return "a " + category  # no CMP-8 category starts with a vowel


def compare_hands(first: Hand, second: Hand, names: tuple[str, str]) -> tuple[int | None, str]:
    """CMP-8: who wins the treaty, and why, in words (``None``: equal hands, a draw)."""
    if not isinstance(first, Hand) or not isinstance(second, Hand):
        raise CampaignError("compare_hands takes two poker hands (engine.poker.best_hand)")
    if (not isinstance(names, (tuple, list)) or len(names) != 2
            or not all(isinstance(n, str) and n for n in names)):
        raise CampaignError("compare_hands needs the two players' names")
    a, b = names
    if first == second:
        return None, (f"CMP-8: equal hands — {a} and {b} both hold {first}. Suits never break ties: "
                      "the campaign is a draw.")
    winner = 0 if first > second else 1
    best, worst = (first, second) if winner == 0 else (second, first)
    win_name, lose_name = names[winner], names[1 - winner]
    if best.category != worst.category:
        verb = "rank" if best.category == "two pairs" else "ranks"
        return winner, (f"CMP-8: {win_name}'s {best} beats {lose_name}'s {worst} — "
                        f"{_article(best.category)} {verb} above {_article(worst.category)}.")
    mine = theirs = 0
    for mine, theirs in zip(best.ranks, worst.ranks):
        if mine != theirs:
            break
    return winner, (f"CMP-8: both hold {_article(best.category)}; {win_name}'s {best} beats "
                    f"{lose_name}'s {worst} — the highest cards break the tie "
                    f"({Rank(mine).noun} against {Rank(theirs).noun}).")


def table_draw_count(state: CampaignState, player: int, held: int) -> int:
    """CMP-7/CMP-9: how many cards a player draws at the table: up to five, and the dummy one more."""
    return max(0, TREATY_CARDS - held) + (1 if state.dummy and player == 1 else 0)


def table_draws(state: CampaignState, player: int) -> int:
    """CMP-7/CMP-9: how many cards ``player`` draws at the negotiating table now: up to
    five, and the dummy one more."""
    state = state_arg(state)
    player = player_arg(player)
    return table_draw_count(state, player, state.counts[player])
