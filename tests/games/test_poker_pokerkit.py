"""The shared poker evaluators agree with pokerkit (a test dependency, never the controller's) on
large seeded random samples of standard 52-card hands: high (five to seven cards: Hold'em, Stud,
Draw without the joker), ace-to-five low (Razz), eight-or-better low (Stud and Hold'em Hi/Lo) and
Omaha's high and low (exactly two from the hand). What is compared is the order: the sample,
sorted by our evaluator, must be in pokerkit's order too, hands equal for one equal for the other
-- which is every pair of hands compared, without comparing internal numbers.

Half of each sample comes from the full deck, half from a narrowed one (a few ranks, few suits),
so that the rare hands (four of a kind, straight flushes; paired and tripped lows) are many."""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

import pytest
from pokerkit import (
    EightOrBetterLowHand,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    RegularLowHand,
    StandardHighHand,
)

from games.cards import STANDARD_RANKS, SUITS, Card, card
from games.poker.hands import STANDARD, best
from games.poker.low import EIGHT_OR_BETTER, RAZZ, low
from games.poker.showdown import GAMES, showdown

DECK = [card(r + s) for r in STANDARD_RANKS for s in SUITS]


def pk(cards: list[Card]) -> str:
    return "".join(("T" if c.rank == "10" else c.rank) + c.suit.lower() for c in cards)


def deal(rng: random.Random, n: int) -> list[Card]:
    if rng.random() < 0.5:
        return rng.sample(DECK, n)
    while True:
        ranks = rng.sample(STANDARD_RANKS, rng.randint(2, 9))
        suits = rng.sample(SUITS, rng.randint(1, 4))
        if len(ranks) * len(suits) >= n:
            return rng.sample([card(r + s) for r in ranks for s in suits], n)


def agree(rows) -> None:
    """``rows``: (ours, pokerkit's, cards). Sorted by ours, each neighbour must compare alike in
    pokerkit: with both orders total, that is every pair."""
    rows.sort(key=lambda row: row[0])
    for (a, pa, ca), (b, pb, cb) in pairwise(rows):
        if a == b:
            assert pa == pb, f"{ca} and {cb}: equal for us, {pa} and {pb} for pokerkit"
        else:
            assert pa < pb, f"{ca} below {cb} for us, not for pokerkit ({pa!s}, {pb!s})"


def high_sample(seed: int, size: int) -> None:
    rng = random.Random(seed)
    rows = []
    for _ in range(size):
        hand = deal(rng, rng.randint(5, 7))
        rows.append((best(hand, STANDARD), StandardHighHand.from_game(pk(hand)), " ".join(map(str, hand))))
    seen = Counter(ours.category for ours, _, _ in rows)
    assert all(seen[c] >= 20 for c in range(9)), f"the sample misses categories: {seen}"
    agree(rows)


def low_sample(seed: int, size: int) -> None:
    rng = random.Random(seed)
    razz, eight = [], []
    for _ in range(size):
        hand = deal(rng, rng.randint(5, 7))
        text = " ".join(map(str, hand))
        razz.append((low(hand, RAZZ), RegularLowHand.from_game(pk(hand)), text))
        ours, theirs = low(hand, EIGHT_OR_BETTER), EightOrBetterLowHand.from_game_or_none(pk(hand))
        assert (ours is None) == (theirs is None), f"{text}: a low for one only ({ours}, {theirs})"
        if ours is not None:
            eight.append((ours, theirs, text))
    seen = Counter(ours.category for ours, _, _ in razz)
    assert all(seen[c] >= 5 for c in range(6)), f"the sample misses categories: {seen}"  # low quads: 4 + 1 only
    assert len(eight) >= size // 20
    agree(razz)
    agree(eight)


def omaha_sample(seed: int, size: int) -> None:
    rng = random.Random(seed)
    highs, lows = [], []
    for _ in range(size):
        cards = deal(rng, 9)
        hole, board = cards[:4], cards[4:]
        text = f"{' '.join(map(str, hole))} / {' '.join(map(str, board))}"
        ours = showdown(GAMES["omaha_hi_lo"], hole, board)
        highs.append((ours.high, OmahaHoldemHand.from_game(pk(hole), pk(board)), text))
        theirs = OmahaEightOrBetterLowHand.from_game_or_none(pk(hole), pk(board))
        assert (ours.low is None) == (theirs is None), f"{text}: a low for one only ({ours.low}, {theirs})"
        if ours.low is not None:
            lows.append((ours.low, theirs, text))
    assert len(lows) >= size // 20
    agree(highs)
    agree(lows)


def test_standard_high_agrees_with_pokerkit():
    high_sample(seed=9, size=20_000)


def test_ace_to_five_and_eight_or_better_lows_agree_with_pokerkit():
    low_sample(seed=9, size=6_000)


def test_omaha_high_and_low_agree_with_pokerkit():
    omaha_sample(seed=9, size=1_000)


@pytest.mark.slow
def test_larger_samples_agree_with_pokerkit():
    high_sample(seed=2024, size=150_000)
    low_sample(seed=2024, size=40_000)
    omaha_sample(seed=2024, size=6_000)
