"""7 Card Thrill's exact class counts (games/seven_card_thrill/classes.py) and the odds built on them."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from games.seven_card_thrill import odds as thrill
from games.seven_card_thrill.classes import COUNTS, count

KNOWN_52 = {"royal flush": 4_324, "straight flush": 37_260, "four of a kind": 224_848, "full house": 3_473_184,
            "flush": 4_047_644, "straight": 6_180_020, "three of a kind": 6_461_620, "two pair": 31_433_400,
            "high card": 23_294_460}
"""The well-known seven-card counts of a 52-card deck (one pair: 58,627,800)."""


def test_the_counts_cover_every_hand_of_7_from_53():
    assert sum(COUNTS.values()) == comb(53, 7)


def test_five_aces_by_hand():
    """Four aces, the joker, and any two of the other 48 cards: C(48,2)."""
    assert COUNTS["five aces"] == comb(48, 2)


def test_every_wager_is_exact_and_sums_to_one():
    table = thrill.odds()
    for w in table.wagers:
        assert w.total_probability() == 1
        assert w.method == "exact" and w.interval is None
    kings = next(w for w in table.wagers if w.wager == "kings_or_better")
    assert kings.outcomes[1].probability == Fraction(COUNTS["pair of K"], comb(53, 7))
    assert not any(w.favours_player for w in table.wagers)


@pytest.mark.slow
def test_the_pattern_count_without_the_joker_is_the_known_one_and_with_it_the_kept_one():
    """Recounts everything (about a minute): without the joker the classes are the well-known
    seven-card counts; with it, the totals are the ones kept in COUNTS."""
    plain = count((0,))
    assert {k: plain[k] for k in KNOWN_52} == KNOWN_52
    assert sum(v for k, v in plain.items() if k.startswith("pair of")) == 58_627_800
    assert plain + count((1,)) == COUNTS
