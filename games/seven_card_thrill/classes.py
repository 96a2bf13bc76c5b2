"""The best-five class of every seven-card hand from 52 cards and a joker, counted exactly.

C(53,7) = 154,143,080 hands are too many to rank one by one, so they are counted by pattern: a
hand is its rank counts (how many of each of the 13 ranks, with or without the joker) and, where
five (four with the joker) or more of them can share a suit, which ranks the flush suit holds.
For each pattern one representative hand is ranked by games.poker.hands with the sheet's joker,
and counted as many times as suits can be given to its cards:

- a flush pattern, the flush suit holding exactly the ranks S: 4 suits x, for each rank in S,
  C(3, n-1) (the other copies elsewhere) x, for each rank not in S, C(3, n);
- the rest of the pattern's hands, Π C(4, n) less its flush hands, rank as the ranks alone.

The counts are kept in :data:`COUNTS` (the enumeration takes about a minute in pure Python);
``tests/games/test_seven_card_thrill_classes.py`` recounts them (marked slow) and checks that
they add up to C(53,7).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations
from math import comb, prod

from games.cards import JOKER, STANDARD_RANKS, Card
from games.poker.hands import NAME, THRILL, best

RANKS = STANDARD_RANKS
OTHER_SUITS = ("H", "D", "C")

COUNTS: dict[str, int] = {
    "high card": 24_780_420,
    "pair of A": 6_105_000,
    "pair of 2": 4_954_104,
    "pair of 3": 4_899_312,
    "pair of 4": 4_845_888,
    "pair of 5": 4_792_464,
    "pair of 6": 4_780_620,
    "pair of 7": 4_786_092,
    "pair of 8": 4_786_092,
    "pair of 9": 4_780_620,
    "pair of 10": 4_792_464,
    "pair of J": 4_845_888,
    "pair of Q": 4_899_312,
    "pair of K": 4_954_104,
    "two pair": 35_553_816,
    "three of a kind": 7_470_676,
    "straight": 11_236_028,
    "flush": 6_172_088,
    "full house": 4_188_528,
    "four of a kind": 307_472,
    "straight flush": 184_832,
    "royal flush": 26_132,
    "five aces": 1_128,
}
"""What :func:`count` returns (kept as data so `tablectl odds` answers at once; the slow test
recounts it). Its hands without the joker are the well-known seven-card counts (royal 4,324,
straight flush 37,260 ... high card 23,294,460)."""


def _vectors(n: int, ranks: int = 13, cap: int = 4) -> Iterator[tuple[int, ...]]:
    if ranks == 0:
        if n == 0:
            yield ()
        return
    for k in range(min(n, cap), -1, -1):
        for rest in _vectors(n - k, ranks - 1, cap):
            yield (k, *rest)


def _spread(vector: tuple[int, ...]) -> list[Card]:
    """A hand of these rank counts with no suit holding more than two cards."""
    out: list[Card] = []
    i = 0
    for r, n in enumerate(vector):
        for _ in range(n):
            out.append(Card(RANKS[r], "SHDC"[i % 4]))
            i += 1
    return out


def _flushed(vector: tuple[int, ...], flush: frozenset[int]) -> list[Card]:
    """A hand of these rank counts whose spades are exactly the ranks ``flush``."""
    out: list[Card] = []
    for r, n in enumerate(vector):
        others = iter(OTHER_SUITS)
        for k in range(n):
            suit = "S" if (r in flush and k == 0) else next(others)
            out.append(Card(RANKS[r], suit))
    return out


def label(cards: list[Card]) -> str:
    """The class the wagers need: the hand's name, and for one pair, its rank (a pair of kings
    pays half on the kings-or-better wager, aces even money)."""
    h = best(cards, THRILL)
    return f"pair of {NAME[int(h.key[1])]}" if h.name == "pair" else h.name


def count(jokers: tuple[int, ...] = (0, 1)) -> Counter[str]:
    """Hands by :func:`label`: with no joker (``0``, the 133,784,560 hands of 52), with it (``1``)."""
    tally: Counter[str] = Counter()
    for joker, n, threshold in ((0, 7, 5), (1, 6, 4)):
        if joker not in jokers:
            continue
        extra = [JOKER] if joker else []
        for vector in _vectors(n):
            present = [r for r, k in enumerate(vector) if k]
            total = prod(comb(4, k) for k in vector)
            flush_ways = 0
            for size in range(threshold, len(present) + 1):
                for flush in combinations(present, size):
                    s = frozenset(flush)
                    ways = 4 * prod(comb(3, k - 1) if r in s else comb(3, k) for r, k in enumerate(vector) if k)
                    if ways:
                        flush_ways += ways
                        tally[label(_flushed(vector, s) + extra)] += ways
            if total - flush_ways:
                tally[label(_spread(vector) + extra)] += total - flush_ways
    return tally
