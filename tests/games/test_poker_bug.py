"""Draw Poker's high hands, hand-worked: the shared evaluator under games.poker.hands.DRAW --
california-card-room-games.txt, Draw Poker & Low-Ball rule 4 ("the Joker may be used for
Aces/Straights and Flushes") and "Basics of Draw Poker" (five aces best; "There is no double Ace
Flush"). The bug is not a wild card: these are its limits."""

from __future__ import annotations

from itertools import pairwise

import pytest

from games.cards import cards
from games.poker.hands import DRAW, STANDARD, PokerHandError, best, short
from games.poker.mexican import MEXICAN


def hand(codes: str):
    return best(cards(codes), DRAW)


def test_the_ranking_1_to_10_with_five_aces_first():
    worst_to_best = ["KS QD 9H 5C 2D", "9S 9D KH QC 2D", "9S 9D KH KC 2D", "9S 9D 9H KC 2D",
                     "5S 6D 7H 8C 9D", "2S 5S 7S JS KS", "9S 9D 9H 2C 2D", "9S 9D 9H 9C 2D",
                     "5H 6H 7H 8H 9H", "10H JH QH KH AH", "AS AD AH AC JK"]
    names = ["high card", "pair", "two pair", "three of a kind", "straight", "flush", "full house",
             "four of a kind", "straight flush", "royal flush", "five aces"]
    ranked = [hand(c) for c in worst_to_best]
    assert [h.name for h in ranked] == names
    assert all(a < b for a, b in pairwise(ranked))


def test_the_bug_is_an_ace():
    assert hand("AS AD JK 5H 7C").name == "three of a kind"
    assert hand("AS AD KS KD JK").name == "full house"           # aces full of kings
    assert hand("AS AD AH JK 7C").name == "four of a kind"
    assert hand("KS QD 9H 5C JK").key == (0, 14, 13, 12, 9, 5)   # ace high, the bug the ace
    assert hand("AS QD 9H 5C JK").key == (1, 14, 12, 9, 5)       # with an ace: a pair of aces


@pytest.mark.parametrize("codes, bug, wild", [
    ("KS KD JK 5H 7C", "pair", "three of a kind"),           # a pair of kings with the ace kicker
    ("KS KD KH JK 2C", "three of a kind", "four of a kind"),
    ("KS KD KH KC JK", "four of a kind", "five of a kind"),  # four kings with the ace kicker
    ("KS KD 5H 5C JK", "two pair", "full house"),
    ("2C 3D 5H 7S JK", "high card", "pair"),                 # ace high, not a pair of sevens
])
def test_the_bug_is_not_wild(codes, bug, wild):
    """What the joker makes as Draw Poker's bug, and as Mexican Poker's wild card."""
    h = hand(codes)
    assert h.name == bug
    assert 14 in h.key[1:], "the joker played as an ace"
    assert best(cards(codes), MEXICAN).name == wild


def test_the_bug_completes_a_straight_or_a_flush():
    assert hand("5S 6D 7H 8C JK").key == (4, 9.0)     # the 9, not the 4
    assert hand("5S 6D 8H 9C JK").key == (4, 9.0)     # inside: the 7
    assert hand("2S 3D 4H 5C JK").key == (4, 6.0)     # the 6 rather than the ace of a wheel
    assert hand("2S 4S 6S 9S JK").key == (5, 14, 9, 6, 4, 2)   # a flush, the joker its ace
    assert hand("9S 10S JS QS JK").name == "straight flush"
    assert hand("10S JS QS KS JK").name == "royal flush"


def test_no_double_ace_flush():
    """"There is no double Ace Flush": with the ace of the suit held, the bug is the best card of
    the suit not held."""
    bug_flush = hand("AS KS QS 5S JK")
    assert bug_flush.key == (5, 14, 13, 12, 11, 5)
    assert bug_flush < hand("AH KH QH JH 6H")
    assert bug_flush > hand("AH KH QH 10H 9H")


def test_the_wheel_is_the_lowest_straight():
    assert hand("AS 2D 3H 4C 5S") < hand("2S 3D 4H 5C 6S")
    assert hand("AS 2D 3H 4C 5S").name == "straight"


def test_rules_without_the_joker_refuse_it():
    with pytest.raises(PokerHandError, match="no joker"):
        best(cards("AS KS QS JS JK"), STANDARD)
    with pytest.raises(PokerHandError, match="one joker at most"):
        hand("AS KS QS JK JK")
    with pytest.raises(PokerHandError, match="not a card of a poker deck"):
        hand("AS KS QS JS MS")


def test_a_short_hand_with_a_wild_joker_is_not_ranked():
    assert short(cards("KS JK"), DRAW).key == (0, 14, 13)
    with pytest.raises(PokerHandError, match="wild"):
        short(cards("KS JK"), MEXICAN)
