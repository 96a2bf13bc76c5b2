"""Low poker hands, ace to five, parameterised by a game's rules: Low-Ball, Razz and the low half of
the high-low split games (california-card-room-games.txt).

What the sheet says, and where:
- Aces are low, straights and flushes do not count, pairs count against the hand, A-2-3-4-5 (the
  wheel) is the best ("Draw Poker & Low-Ball" rules 4, 6, 7; "Basics of Lo-Ball": "Aces are always
  low", "PAIRS COUNT AGAINST YOU. Straights and flushes have no meaning"; 7-Card Stud High-Low
  Split: "straights or flushes do not impair the value of a hand for low").
- Low-Ball's joker (``joker="lowest_not_held"``): "the Joker can only be used to represent the
  lowest card 'not actually' held in your hand" (rule 4, "Basics of Lo-Ball").
- The seven-or-better rule ("THE SEVEN OR BETTER RULE": "A player holding a 7,6,5,4,3, or better
  hand must bet or they cannot win any action after the draw"): :func:`seven_or_better`. Whether
  the player bet is the round's to know; this says whether the hand is one that must.
- Eight or better (``qualifier=8``): 7-Card Stud High-Low Split: "A qualifier of eight or better
  for low will be in force for all the high-low split games unless a specific posting to the
  contrary is made ... if there is no low, the high hand wins the entire pot". A low qualifies
  with five different ranks, none above the eight; :func:`low` gives None when it does not.
- "A player may use any five cards to make his best high hand and any other grouping of five
  cards ... to make his best low hand" (7-Card Stud High-Low Split): the low is worked out on its
  own, from all the cards.

Where the sheet is silent (each choice is tested in tests/games/test_poker_low.py):
1. Razz ("RAZZ is a lowball game") is ranked ace to five, as the sheet's own Low-Ball: aces low,
   straights and flushes ignored, pairs count, no qualifier (:data:`RAZZ`). Deuce-to-seven is in
   no game of the sheet and is not offered.
2. Hands with pairs rank as in standard ace-to-five: no pair, then one pair, two pair, three of a
   kind, full house, four of a kind; inside a category the grouped ranks first (a lower pair
   beats a higher pair whatever the kickers), then the rest from the top. Suits never count.
3. The Low-Ball joker takes the lowest rank absent from all the cards given: in a five-card hand
   a rank from ace to five, as the four other cards hold four ranks at most. Being a rank not
   held, it never pairs: A-2-3-4 with the joker is the wheel, A-A-3-4 with it is a pair of aces
   with a deuce (A-A-4-3-2), and a hand with the joker ties the same ranks without it. A joker
   under rules without Low-Ball's is refused.
4. Hands that tie on ranks tie: the pot is split (Draw Poker & Low-Ball rule 9, "In case of tie
   the pot is split"); the split of the chips is the round's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from games.cards import STANDARD_RANKS, Card
from games.poker.hands import PokerHandError

LOW_VALUE = {r: i for i, r in enumerate(STANDARD_RANKS, start=1)}
"""Ace 1, deuce 2, ... king 13."""
LOW_NAME = {v: r for r, v in LOW_VALUE.items()}

NO_PAIR, PAIR, TWO_PAIR, TRIPS, FULL_HOUSE, QUADS = range(6)
LOW_CATEGORIES = ("no pair", "pair", "two pair", "three of a kind", "full house", "four of a kind")
_PATTERN = {(1, 1, 1, 1, 1): NO_PAIR, (2, 1, 1, 1): PAIR, (2, 2, 1): TWO_PAIR, (3, 1, 1): TRIPS,
            (3, 2): FULL_HOUSE, (4, 1): QUADS}


@dataclass(frozen=True)
class LowRules:
    joker: Literal["none", "lowest_not_held"] = "none"
    qualifier: int | None = None
    """The highest rank a qualifying low may hold (8: eight or better), or None: every hand is a low."""


RAZZ = LowRules()
LOWBALL = LowRules(joker="lowest_not_held")
EIGHT_OR_BETTER = LowRules(qualifier=8)


@dataclass(frozen=True, order=True)
class LowHand:
    """A low hand. The better low compares greater (as a better high :class:`~games.poker.hands.Hand`
    does), so ``max`` picks the winner and sorting in reverse puts it first."""

    key: tuple[int, ...]
    """The negated category and ranks: greater is lower, so better."""

    @classmethod
    def of(cls, category: int, ranks: Sequence[int]) -> LowHand:
        return cls((-category, *(-v for v in ranks)))

    @property
    def category(self) -> int:
        return -self.key[0]

    @property
    def ranks(self) -> tuple[int, ...]:
        """The ranks as they compare, ace 1: each group's rank once, bigger groups first, then from
        the top (``(3, 7, 5, 4)`` for 3-3-7-5-4)."""
        return tuple(-v for v in self.key[1:])

    @property
    def name(self) -> str:
        """``wheel``, ``7-5-4-3-2``, or the category and the ranks: ``pair 3-3-7-5-4``."""
        text = "-".join(LOW_NAME[v] for v in self._spread())
        if self.category == NO_PAIR:
            return "wheel" if self.ranks == (5, 4, 3, 2, 1) else text
        return f"{LOW_CATEGORIES[self.category]} {text}"

    def _spread(self) -> list[int]:
        counts = {NO_PAIR: (1, 1, 1, 1, 1), PAIR: (2, 1, 1, 1), TWO_PAIR: (2, 2, 1), TRIPS: (3, 1, 1),
                  FULL_HOUSE: (3, 2), QUADS: (4, 1)}[self.category]
        return [v for v, n in zip(self.ranks, counts, strict=False) for _ in range(n)]


SEVEN_SIX = LowHand.of(NO_PAIR, (7, 6, 5, 4, 3))
"""7-6-5-4-3, the worst hand of the seven-or-better rule."""


def low(cards: Sequence[Card], rules: LowRules = RAZZ) -> LowHand | None:
    """The best ace-to-five low of five of ``cards`` (five or more) under ``rules``; None when
    the rules have a qualifier and no five of the cards meet it."""
    if len(cards) < 5:
        raise PokerHandError(f"a low hand needs five cards, not {len(cards)}")
    jokers = 0
    values: list[int] = []
    for c in cards:
        if c.is_joker:
            jokers += 1
        elif c.rank in LOW_VALUE:
            values.append(LOW_VALUE[c.rank])
        else:
            raise PokerHandError(f"{c} is not a card of a poker deck")
    if jokers and rules.joker == "none":
        raise PokerHandError("these rules have no joker")
    if jokers > 1:
        raise PokerHandError(f"one joker at most, not {jokers}")
    if jokers:  # the lowest card not actually held (Draw Poker & Low-Ball rule 4)
        values.append(next(v for v in range(1, 14) if v not in values))
    distinct = sorted(set(values))
    if len(distinct) >= 5:
        hand = LowHand.of(NO_PAIR, distinct[4::-1])
    else:
        hand = max(_ranked(five) for five in combinations(values, 5))
    if rules.qualifier is not None and not (hand.category == NO_PAIR and hand.ranks[0] <= rules.qualifier):
        return None
    return hand


def seven_or_better(hand: LowHand) -> bool:
    """Whether a Low-Ball hand is 7-6-5-4-3 or better: the hands that must bet after the draw or
    win no action after it ("THE SEVEN OR BETTER RULE"; "Basics of Lo-Ball": "You must bet a
    'seven low' or better after the draw"). So any unpaired hand with no card above the seven."""
    return hand >= SEVEN_SIX


def _ranked(five: Sequence[int]) -> LowHand:
    counts = Counter(five)
    order = sorted(counts, key=lambda v: (counts[v], v), reverse=True)
    pattern = tuple(counts[v] for v in order)
    return LowHand.of(_PATTERN[pattern], order)


__all__ = ["EIGHT_OR_BETTER", "LOWBALL", "LOW_CATEGORIES", "RAZZ", "SEVEN_SIX", "LowHand", "LowRules",
           "low", "seven_or_better"]
