"""7 Card Thrill's poker bet counted exactly (games/seven_card_thrill/showdown.py): against every
deal of decks of five ranks, in exact fractions that add up to one, against a hand-worked count of
the lowest hand's ties, against explicit cards for the flushes of one suit, and against a seeded
simulation of the game's own evaluator."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from games.cards import JOKER, STANDARD_RANKS, SUITS, Card
from games.odds import OutcomeOdds, simulated
from games.seven_card_thrill import odds as thrill
from games.seven_card_thrill import showdown
from games.seven_card_thrill.classes import COUNTS
from games.seven_card_thrill.rules import Paytable, settle_seat

LOWEST = (0, 9, 8, 7, 5, 4)
"""The lowest hand of 7 Card Thrill: seven ranks without a pair or a straight can go no lower than
2-3-4-5-7-8-9 (9-8-7-5-4 high), and it is the only rank set of that value."""

ONE_HAND = 4 ** 7 - 4 * (21 * 9 + 7 * 3 + 1)
"""The suitings of seven ranks that are not a flush: 4^7 less, for each suit, five of the seven
in it (C(7,5) x 3^2), six (7 x 3) or all seven: 15,540."""

LOWEST_TIES = 12 ** 7 - 2 * 844 * 3 ** 7 + 12 * 13_539
"""Both hands 2-3-4-5-7-8-9, dealt apart, neither a flush. Each rank in two different suits, 12^7
ways; less those where the player's is a flush (844 suitings, 4^7 - 15,540, each leaving 3^7 for
the dealer) and as many where the dealer's is; plus those where both are, counted twice: the two
flushes are in different suits s and t (12 ordered pairs), and of the seven ranks i are s for the
player and t for the dealer (one way), j1 only s for the player (two ways for the dealer), j2 only
t for the dealer (two ways), l neither (seven ways), with i + j1 >= 5 and i + j2 >= 5:
1 (i = 7) + 77 (i = 6: 2 + 2 + 7 ways for the seventh, x 7) + 21 x 11^2 (i = 5) + 35 x 216
(i = 4: three ranks with j1, j2 >= 1: 11^3 - 2 x 9^3 + 7^3) + 35 x 6 x 16 (i = 3: j1 = j2 = 2)
= 13,539. That is 32,302,620."""


def every_deal(deck: showdown.Deck) -> dict[tuple, int]:
    """Ties by value over every ordered deal of ``deck``: for each value, the pairs of its hands
    that share no card (each hand a bit mask of its cards; the hands of a value inside each mask
    counted by a subset-sum transform over all masks)."""
    cards = [Card(r, s) for r in deck.ranks for s in SUITS] + [JOKER]
    n = len(cards)
    by_value: dict[tuple, list[int]] = {}
    for combo in itertools.combinations(range(n), showdown.CARDS):
        by_value.setdefault(deck.hand([cards[i] for i in combo]).key, []).append(sum(1 << i for i in combo))
    full = (1 << n) - 1
    ties = {}
    for key, masks in by_value.items():
        inside = np.zeros(1 << n, dtype=np.int64)
        m = np.array(masks, dtype=np.int64)
        inside[m] = 1
        for i in range(n):
            view = inside.reshape(-1, 2, 1 << i)
            view[:, 1, :] += view[:, 0, :]
        ties[key] = int(inside[full ^ m].sum())
    return {k: t for k, t in ties.items() if t}


@pytest.mark.parametrize("ranks", [("10", "J", "Q", "K", "A"), ("A", "2", "3", "4", "5")])
def test_the_count_equals_every_deal_of_a_deck_of_five_ranks(ranks):
    """Twenty cards and the joker: 116,280 hands, 399 million deals. Flushes of two suits meet in
    these decks (all five spades against four hearts and the joker), so every part of the count is
    at work but the flushes of one suit (tested below) and the K/J high hands (none: seven cards of
    five ranks hold a pair)."""
    deck = showdown.Deck(ranks)
    counted = showdown.count(deck)
    assert counted.ties_by_value == every_deal(deck)
    assert counted.deals == 116_280 * 3_432 and counted.half == 0
    assert sum(counted.hands.values()) == 116_280


def test_the_lowest_hands_suitings_by_hand():
    assert ONE_HAND == 15_540 and LOWEST_TIES == 32_302_620
    assert showdown._suitings(0) == ONE_HAND ** 2
    assert showdown._suitings(7) == LOWEST_TIES


def test_the_poker_bet_is_exact_and_adds_up_to_one():
    """Wins as many as losses (the hands are dealt alike), so the house's edge is half the
    half-paid wins' share: Fraction for Fraction."""
    bet = thrill.poker(Paytable())
    assert bet.method == "exact" and bet.interval is None
    assert all(isinstance(o.probability, Fraction) for o in bet.outcomes)
    assert bet.total_probability() == 1
    sheet = showdown.SHEET
    assert sheet.deals == 154_143_080 * 53_524_680
    p = {o.name: o.probability for o in bet.outcomes}
    assert p["win 1 to 1"] + p["win 1 to 2 (the dealer's K/J high or lower)"] == p["lose"]
    assert bet.house_edge == Fraction(sheet.half, 2 * sheet.deals)
    assert 0.0217 < bet.house_edge < 0.0218


def test_a_seeded_simulation_of_the_games_evaluator_agrees():
    """100,000 deals settled by rules.settle_seat: the exact edge inside the simulation's 95 %
    interval, and each outcome's share within four standard errors of its exact probability."""
    deals = 100_000
    deck = [Card(r, s) for s in SUITS for r in STANDARD_RANKS] + [JOKER]
    rng = random.Random(23)
    seen: Counter = Counter()
    for _ in range(deals):
        fourteen = rng.sample(deck, 14)
        bet = settle_seat(fourteen[:7], fourteen[7:])[0]
        half = bet.outcome == "win" and bet.pays == Paytable().poker_half
        seen["half" if half else bet.outcome] += 1
    exact = thrill.poker(Paytable())
    by_name = {"win": exact.outcomes[0], "half": exact.outcomes[1], "push": exact.outcomes[2], "lose": exact.outcomes[3]}
    sim = simulated("poker", tuple(OutcomeOdds(k, seen[k] / deals, by_name[k].net) for k in by_name), deals, "")
    lo, hi = sim.interval
    assert lo <= float(exact.expected) <= hi
    for name, o in by_name.items():
        p = float(o.probability)
        assert abs(seen[name] / deals - p) <= 4 * (p * (1 - p) / deals) ** 0.5, name


@pytest.mark.slow
def test_flushes_of_one_suit_equal_explicit_cards():
    """Half a minute: the F* pairs whose flushes share a suit, at three values, against every pair of their hands
    written out card by card (bit masks) that share no card."""
    deck = showdown.Deck()
    u = showdown.RankValues(deck)
    found = [p for p in showdown.patterns(deck, u) if p.u in {(4, 14.0), (4, 6.0), (0, 14, 13, 12, 11, 8)}]
    counted = showdown.flush_ties_one_suit(found)

    def hands(p: showdown.Pattern) -> set[int]:
        base = sum(1 << 4 * r for r in range(13) if p.flush >> r & 1) | p.joker << 52
        offs = [4 * r + s for r in sorted(set(p.off)) for s in (1, 2, 3)]
        return {base | sum(1 << c for c in choice) for choice in itertools.combinations(offs, len(p.off))
                if sorted(c // 4 for c in choice) == list(p.off)}

    for key in ((4, 14.0), (4, 6.0), (0, 14, 13, 12, 11, 8)):
        masks = np.array(sorted(set().union(*(hands(p) for p in found if p.u == key))), dtype=np.int64)
        apart = sum(int(np.count_nonzero((masks & m) == 0)) for m in masks)
        assert counted[key] == 4 * apart > 0, key


@pytest.mark.slow
def test_the_whole_deck_recounted_is_the_kept_count():
    """About a minute: the count equals what odds prints, every hand's class equals classes.COUNTS,
    and the lowest hand ties as worked out by hand."""
    counted = showdown.count()
    assert counted == showdown.SHEET
    assert counted.hands == COUNTS
    assert counted.ties_by_value[LOWEST] == LOWEST_TIES
