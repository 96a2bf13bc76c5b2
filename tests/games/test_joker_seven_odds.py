"""Joker Seven's exact odds (games/joker_seven/odds.py): hand-derivable figures, the counting
method checked exhaustively where the space is small, and agreement with the rules themselves."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction
from math import comb

import pytest

from games.cards import JOKER, STANDARD_RANKS, SUITS, Card
from games.joker_seven import odds as j7
from games.joker_seven.paytables import GENERIC, NJ
from games.joker_seven.rules import settle


def by_name(table: str) -> dict:
    return {w.wager: w for w in j7.odds(table).wagers}


def test_two_jokers_in_seven_from_fifty_four():
    """C(52,5) / C(54,7) = 7/477: both jokers, and any five of the other 52."""
    p = by_name("generic")["two_jokers"].outcomes[0].probability
    assert p == Fraction(comb(52, 5), comb(54, 7)) == Fraction(7, 477)


def test_exactly_seven_black():
    """All seven from the 26 black cards: C(26,7) / C(54,7)."""
    assert by_name("nj")["black_7"].outcomes[0].probability == Fraction(comb(26, 7), comb(54, 7))


def test_specific_pair_by_hand():
    """At least two of the four of a rank among the hand's standard cards, with 0, 1 or 2 jokers."""
    want = sum(comb(2, j) * comb(4, m) * comb(48, 7 - j - m) for j in range(3) for m in range(2, 5))
    assert by_name("generic")["pair_<rank>"].outcomes[0].probability == Fraction(want, comb(54, 7))


def test_every_wager_sums_to_one_and_the_house_has_the_edge():
    for table in ("generic", "nj"):
        for w in j7.odds(table).wagers:
            assert w.total_probability() == 1
            assert not w.favours_player, (table, w.wager, float(w.expected))


def test_the_pattern_count_is_exhaustive_on_four_cards():
    """Every 4-card hand of the 52, counted one by one, against the profile count."""
    deck = [Card(r, s) for s in SUITS for r in STANDARD_RANKS]
    brute = Counter(tuple(sorted(Counter(c.rank for c in hand).values(), reverse=True))
                    for hand in itertools.combinations(deck, 4))
    assert brute == {p: j7._ways(p) for p in j7._profiles(4)}


def test_odds_agree_with_the_rules_on_random_hands():
    """20,000 seeded hands settled by games.joker_seven.rules: each wager's win frequency is within
    five standard errors of the exact probability (an error in either would show)."""
    deck = [Card(r, s) for s in SUITS for r in STANDARD_RANKS] + [JOKER, JOKER]
    rng = random.Random(7)
    n = 20_000
    wins: Counter[str] = Counter()
    for _ in range(n):
        for r in settle(rng.sample(deck, 7), GENERIC):
            if r.outcome == "win":
                wins[r.wager if not r.wager.startswith("pair_") else "pair_<rank>"] += 1
    exact = by_name("generic")
    for name, w in exact.items():
        p = float(w.outcomes[0].probability)
        trials = n * (13 if name == "pair_<rank>" else 1)
        se = math.sqrt(p * (1 - p) / trials)
        assert abs(wins[name] / trials - p) < 5 * se + 1e-9, (name, wins[name] / trials, p)


def test_bad_odds_arguments():
    with pytest.raises(ValueError, match="Joker Seven's paytables are generic, nj, not 'vegas'"):
        j7.odds("vegas")
    with pytest.raises(ValueError, match="one deck and two jokers"):
        j7.odds(None, 2)


def test_paytables_differ_only_where_the_sheets_do():
    g, nj = by_name("generic"), by_name("nj")
    assert g["black_6"].outcomes[0].net == 20 and nj["black_6"].outcomes[0].net == 15
    assert g["pair_<rank>"].outcomes[0].net == 10 and nj["pair_<rank>"].outcomes[0].net == 9
    assert g["no_pair"].expected == nj["no_pair"].expected
    assert GENERIC.two_jokers_pair and NJ.one_joker_loses_on_two
