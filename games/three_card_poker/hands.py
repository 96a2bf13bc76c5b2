"""Three-card poker hands (california-card-room-games.txt, Three Card Poker: "all standard poker
rankings ... from ... a high card to ... a Royal Flush"; the Bonus Bet table orders them).

Ranking, highest first: straight flush (the royal, A-K-Q suited, is its best), three of a kind,
straight, flush, pair, high card -- the three-card order, in which a straight beats a flush (three
cards make a straight less often than a flush). A-2-3 is the lowest straight and Q-K-A the
highest (the ace plays high or low, never around the corner). With several decks, three cards
of one rank and one suit are three of a kind (the sheet ranks no "suited trips").

**A pair in one suit** (two decks or more: 7H 7H 2H) is both a pair and three cards of one suit.
"All standard poker rankings will be used" (the sheet's Standards of play), and a standard poker
hand ranks as the best category it makes, so by default (``suited_pair="flush"``) it is a flush,
ranked among flushes by its cards from the top (7-7-2) -- and the bonus pays it as a flush. The
other reading, ``suited_pair="pair"``, keeps the pair (the hand "consists of" a pair; the one-deck
game never meets the case). The table chooses (``[game] suited_pair``; docs/three_card_poker.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

from games.cards import STANDARD_RANKS, Card

CATEGORIES: tuple[str, ...] = ("high card", "pair", "flush", "straight", "three of a kind", "straight flush")
"""Lowest first; a hand's key starts with its index here."""

VALUE = {r: i for i, r in enumerate(STANDARD_RANKS[1:], start=2)} | {"A": 14}

SUITED_PAIRS: tuple[str, ...] = ("flush", "pair")
"""How a pair in one suit ranks: as the flush it also is (the default), or as a pair."""


class ThreeCardHandError(ValueError):
    """Not a three-card hand of standard cards."""


def key(cards: Sequence[Card], suited_pair: str = "flush") -> tuple[int, ...]:
    """A comparable strength: (category, ranks that break ties, highest first)."""
    if len(cards) != 3:
        raise ThreeCardHandError(f"a Three Card Poker hand is 3 cards, not {len(cards)}")
    if any(c.is_joker for c in cards):
        raise ThreeCardHandError("Three Card Poker uses standard decks, no jokers (Type of card deck used, 2)")
    return _key(tuple(sorted(VALUE[c.rank] for c in cards)), len({c.suit for c in cards}) == 1, suited_pair)


@cache
def _key(values: tuple[int, ...], flush: bool, suited_pair: str = "flush") -> tuple[int, ...]:
    low, mid, high = values
    counts = Counter(values)
    if len(counts) == 1:
        return (4, high)
    if len(counts) == 2 and flush and suited_pair == "flush":
        return (2, high, mid, low)         # a pair in one suit: the flush it also is
    if len(counts) == 2:
        pair = next(v for v, n in counts.items() if n == 2)
        kicker = next(v for v, n in counts.items() if n == 1)
        return (1, pair, kicker)
    straight_high = high if high - low == 2 else 3 if values == (2, 3, 14) else 0
    if straight_high:
        return (5 if flush else 3, straight_high)
    return (2 if flush else 0, high, mid, low)


def name(k: tuple[int, ...]) -> str:
    """``straight flush``, ``royal flush`` (A-K-Q suited), ``pair`` ..."""
    if k == (5, 14):
        return "royal flush"
    return CATEGORIES[k[0]]


QUEEN_HIGH = (0, VALUE["Q"], 0, 0)
"""The player-dealer qualifies with Queen high or better (Round of Play 5): any key >= this."""


def qualifies(k: tuple[int, ...]) -> bool:
    return k >= QUEEN_HIGH
