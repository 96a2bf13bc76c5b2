"""What the card-room blackjack games share: No Bust 21st Century Blackjack (games.no_bust) and
Hot Action Blackjack (games.hot_action).

Pure, and no rule of either game: each game's rules say what a card is worth, what a hand totals
and when it draws; this module does the arithmetic they have in common and counts for their odds.

- :func:`ten_point`: a 10, J, Q or K, the cards both games count 10.
- :func:`best_total`: a hand's total when some of its cards may count ten more (an ace 1 or 11,
  Hot Action's joker 2 or 12): as many count high as keep it at the game's target or less.
- :func:`shoe_composition` and :func:`finishing_odds`: how a hand dealt alone from a full shoe
  ends under a fixed drawing rule, exactly, every draw sequence counted by card composition.
- :func:`fresh_shoes`: the draws of seeded simulated rounds, each from a freshly shuffled shoe.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from functools import cache

from games.cards import JOKER, Card, card

CATEGORIES: tuple[Card, ...] = (*(card(f"{r}S") for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")), JOKER)
"""The cards as the games' totals see them: an ace, 2-9, a 10-point card (10S stands for the ten,
jack, queen and king), a joker."""


def ten_point(c: Card) -> bool:
    """A 10, J, Q or K: a card of 10-point value (never a joker)."""
    return not c.is_joker and c.rank in ("10", "J", "Q", "K")


def best_total(hard: int, flexible: int, target: int) -> tuple[int, int]:
    """``(total, raised)``: the total closest to ``target`` without passing it, when ``flexible``
    of the cards that make ``hard`` (each counted low) may each count ten more; ``raised`` of them
    count high. A hand over ``target`` even counted low is ``hard`` with none raised."""
    raised = 0
    while raised < flexible and hard + 10 * (raised + 1) <= target:
        raised += 1
    return hard + 10 * raised, raised


def shoe_composition(decks: int, jokers_per_deck: int) -> dict[Card, int]:
    """A full shoe of ``decks`` decks by :data:`CATEGORIES`: four of each rank a deck (sixteen
    10-point cards) and the jokers."""
    out = {c: 4 * decks for c in CATEGORIES[:-1]}
    out[card("10S")] = 16 * decks
    out[JOKER] = jokers_per_deck * decks
    return out


def finishing_odds(composition: Mapping[Card, int], ends: Callable[[list[Card]], str | None]) -> dict[str, Fraction]:
    """How a hand dealt alone from a shoe of ``composition`` ends: two cards, then a card at a time
    until ``ends(cards)`` names the outcome (None: the hand draws). Exact: each sequence of draws
    weighted by the cards left, merged by the hand's multiset."""
    kinds = tuple(composition)
    size = sum(composition.values())

    @cache
    def finish(hand: tuple[int, ...]) -> tuple[tuple[str, Fraction], ...]:
        cards = [kinds[i] for i in hand]
        if len(cards) >= 2:
            name = ends(cards)
            if name is not None:
                return ((name, Fraction(1)),)
        left = size - len(hand)
        out: Counter = Counter()
        for i, kind in enumerate(kinds):
            n = composition[kind] - hand.count(i)
            if n <= 0:
                continue
            for name, p in finish(tuple(sorted((*hand, i)))):
                out[name] += Fraction(n, left) * p
        return tuple(out.items())

    return dict(finish(()))


def fresh_shoes(shoe: list[Card], rounds: int, seed: int) -> Iterator[Callable[[], Card]]:
    """For each of ``rounds`` seeded rounds, a ``draw()`` dealing from the whole ``shoe`` freshly
    shuffled: each draw is a uniform card of those left (the shoe, shuffled in place, stays a
    permutation of itself)."""
    rng = random.Random(seed)
    n = len(shoe)
    for _ in range(rounds):
        k = 0

        def draw() -> Card:
            nonlocal k
            j = rng.randrange(k, n)
            shoe[k], shoe[j] = shoe[j], shoe[k]
            k += 1
            return shoe[k - 1]

        yield draw
