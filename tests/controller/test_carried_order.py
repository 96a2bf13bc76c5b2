"""The shuffle monitor's statistic (controller.table.carried_order) on hand-worked deals, its exact
null mean and variance against every order of tiny shoes, and its gamma tail against scipy (a test
dependency only)."""

from __future__ import annotations

import itertools
import math
import random
import re

import pytest
from scipy import special, stats

from controller.table.carried_order import (
    compare,
    gamma_q,
    links,
    null_moments,
    position_pairs,
    repeats,
    upper_p,
)

PREVIOUS = ["AS", "KH", "7D", None, "AS"]
CURRENT = ["7D", "AS", "KH", "2C"]


def test_links_of_a_hand_worked_deal() -> None:
    # window 1: AS-KH, KH-7D; the unread 4th card breaks 7D-? and ?-AS
    assert links(PREVIOUS, 1) == {("AS", "KH"): 1, ("7D", "KH"): 1}
    # window 2 adds AS-7D (1st and 3rd) and 7D-AS (3rd and 5th): the same unordered pair twice
    assert links(PREVIOUS, 2) == {("AS", "KH"): 1, ("7D", "KH"): 1, ("7D", "AS"): 2}


def test_repeats_and_pairs_of_a_hand_worked_deal() -> None:
    w = links(PREVIOUS, 2)
    # pairs within 2: 7D-AS (2 links), 7D-KH (1), AS-KH (1), AS-2C, KH-2C (none): T = 4
    assert repeats(w, CURRENT, 2) == 4
    # positions 1-2, 1-3, 2-3, 2-4, 3-4: five pairs; degrees 2, 3, 3, 2 -> 2+6+6+2 = 16 sharing one
    assert position_pairs(CURRENT, 2) == (5, 16)
    # the 2nd unread: 1-3 and 3-4 (1-4 is 3 apart); degrees 1, 2, 1 -> 2 sharing one (both ways round)
    assert position_pairs(["7D", None, "KH", "2C"], 2) == (2, 2)


def test_null_moments_of_one_pair_by_hand() -> None:
    """A shoe A A B C, one link A-B, one pair dealt: T is 1 when the two cards are an A and the B,
    2 * (2/4 * 1/3) = 1/3; a 0/1 count of mean 1/3 has variance 1/3 - 1/9 = 2/9."""
    m = null_moments({("A", "B"): 1}, {"A": 2, "B": 1, "C": 1}, pairs=1, shared=0)
    assert m.mean == pytest.approx(1 / 3) and m.variance == pytest.approx(2 / 9)


def _enumerated(copies: dict[str, int], previous: list, mask: list[int], window: int) -> tuple[float, float]:
    cards = [f for f, n in copies.items() for _ in range(n)]
    w = links(previous, window)
    ts = [repeats(w, [cards[p[i]] if seen else None for i, seen in enumerate(mask)], window)
          for p in itertools.permutations(range(len(cards)))]
    mean = sum(ts) / len(ts)
    return mean, sum((t - mean) ** 2 for t in ts) / len(ts)


@pytest.mark.parametrize("copies, previous, mask, window", [
    ({"A": 2, "B": 1, "C": 1, "D": 1, "E": 2}, ["A", "B", None, "A", "C", "E", "E"], [1, 1, 0, 1, 1, 1], 2),
    ({"A": 3, "B": 2, "C": 1, "D": 1}, ["A", "B", "A", "A", "C", "B"], [1, 1, 1, 1, 1, 1, 0], 1),
    ({"A": 3, "B": 2, "C": 1, "D": 1}, ["A", "B", "A", "A", "C", "B"], [1] * 7, 3),
    ({"A": 1, "B": 1, "C": 1, "D": 1, "E": 1, "F": 1}, ["C", "A", "F", "B"], [1, 1, 0, 1, 1], 2),
])
def test_null_moments_equal_every_order_of_a_tiny_shoe(copies, previous, mask, window) -> None:
    mean, variance = _enumerated(copies, previous, mask, window)
    pairs, shared = position_pairs(["x" if seen else None for seen in mask], window)
    m = null_moments(links(previous, window), copies, pairs, shared)
    assert m.mean == pytest.approx(mean, rel=1e-12)
    assert m.variance == pytest.approx(variance, rel=1e-9)


@pytest.mark.parametrize("a", [0.05, 0.3, 1.0, 2.5, 7.0, 40.0, 470.0, 2000.0])
def test_gamma_q_equals_scipy(a: float) -> None:
    for x in (1e-6, 0.01, 0.5, 1.0, a / 2, a - 1, a, a + 1, a + 3 * math.sqrt(a), 2 * a + 10, 5 * a + 50):
        if x > 0:
            assert gamma_q(a, x) == pytest.approx(special.gammaincc(a, x), rel=1e-9, abs=1e-300), (a, x)


def test_upper_p_is_scipys_gamma_with_a_half_for_continuity() -> None:
    for observed, mean, variance in ((600, 494.3, 445.2), (3, 0.4, 0.45), (1, 0.09, 0.1), (470, 470.0, 440.0)):
        shape, scale = mean ** 2 / variance, variance / mean
        assert upper_p(observed, mean, variance) == pytest.approx(
            stats.gamma.sf(observed - 0.5, shape, scale=scale), rel=1e-9)
    assert upper_p(0, 10.0, 9.0) == 1.0 and upper_p(5, 0.0, 0.0) == 1.0


def test_fair_shuffles_match_the_null_moments_and_the_tail() -> None:
    """Seeded: 1,500 fair shuffles of a two-deck shoe, 90 cards dealt: the counts' mean and variance
    are the exact ones, and p < 0.05 comes about 5 % of the time (the gamma's tail holds)."""
    rng = random.Random(25)
    faces = [r + s for s in "CDHS" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")] * 2
    copies = {f: 2 for f in faces}
    order = faces[:]
    rng.shuffle(order)
    previous = order[:90]
    results = []
    for _ in range(1500):
        stack = order[90:] + order[:90]
        rng.shuffle(stack)
        order = stack
        results.append(compare(previous, order[:90], copies))
        previous = order[:90]
    mean = sum(c.mean for c in results) / len(results)
    observed = [c.observed for c in results]
    assert sum(observed) / len(observed) == pytest.approx(mean, rel=0.03)
    variance = sum(c.variance for c in results) / len(results)
    assert stats.tvar(observed) == pytest.approx(variance, rel=0.12)
    share = sum(c.p_value < 0.05 for c in results) / len(results)
    assert 0.03 < share < 0.07


@pytest.mark.parametrize("call, why", [
    (lambda: links(["AS"], 0), "the window is a whole number of positions from 1, not 0"),
    (lambda: null_moments({("AS", "ZZ"): 1}, {"AS": 4}, 1, 0), "the link AS-ZZ names cards the composition has not got"),
    (lambda: null_moments({("AS", "AS"): 1}, {"AS": 1, "KH": 3}, 1, 0), "the link AS-AS names cards"),
    (lambda: null_moments({("A", "B"): 1}, {"A": 1, "B": 1}, 1, 0), "a shoe of 2 cards is too small for the test"),
    (lambda: gamma_q(0.0, 1.0), "the gamma shape must be more than 0, not 0.0"),
])
def test_bad_input_says_what_is_wrong(call, why: str) -> None:
    with pytest.raises(ValueError, match=re.escape(why)):
        call()
