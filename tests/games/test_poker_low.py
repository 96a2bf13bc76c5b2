"""Ace-to-five lows, hand-worked: games.poker.low under Low-Ball's, Razz's and eight-or-better's
rules (california-card-room-games.txt: Draw Poker & Low-Ball rules 4, 6, 7, "Basics of Lo-Ball",
"The Seven or Better Rule"; 7-Card Stud High-Low Split; "RAZZ") and the module's choices."""

from __future__ import annotations

from itertools import pairwise

import pytest

from games.cards import cards
from games.poker.hands import PokerHandError
from games.poker.low import (
    EIGHT_OR_BETTER,
    LOWBALL,
    NO_PAIR,
    PAIR,
    RAZZ,
    TWO_PAIR,
    low,
    seven_or_better,
)


def razz(codes: str):
    return low(cards(codes), RAZZ)


def lowball(codes: str):
    return low(cards(codes), LOWBALL)


def test_the_wheel_is_the_best_low_and_aces_are_low():
    """Rule 7: "The best qualifying low hand in Low-Ball is 1,2,3,4,5"; "Aces are always low"."""
    wheel = razz("AS 2D 3H 4C 5S")
    assert wheel.name == "wheel" and wheel.ranks == (5, 4, 3, 2, 1)
    assert wheel > razz("AS 2D 3H 4C 6S") > razz("2S 3D 4H 5C 7S")
    assert razz("KS QD JH 9C AS") > razz("KS QD JH 9C 10S"), "the ace is the lowest card, not the highest"


def test_straights_and_flushes_have_no_meaning():
    """"Straights and flushes have no meaning"; Stud High-Low: they "do not impair" a low."""
    assert razz("AS 2S 3S 4S 5S") == razz("AH 2D 3C 4S 5H")
    assert razz("2H 3H 4H 5H 6H").name == "6-5-4-3-2"
    assert low(cards("AS 2S 3S 4S 5S"), EIGHT_OR_BETTER).name == "wheel"


def test_lows_compare_from_the_top_card_down():
    ranked = [razz(c) for c in ("9S 8D 7H 6C 5S", "8S 7D 6H 5C 4S", "8S 7D 3H 2C AS",
                                "8S 6D 5H 4C 3S", "7S 6D 5H 4C 3S", "7S 5D 4H 3C 2S", "6S 4D 3H 2C AS")]
    assert all(a < b for a, b in pairwise(ranked))


def test_pairs_count_against_the_hand():
    """"PAIRS COUNT AGAINST YOU"; choice 2: no pair, pair, two pair, trips, full house, quads; a
    lower pair beats a higher pair whatever the kickers."""
    ranked = [razz(c) for c in ("2S 2D 2H 2C 3S", "2S 2D 2H 3C 3S", "2S 2D 2H 4C 3S", "AS AD 2H 2C 3S",
                                "3S 3D AH 4C 5S", "2S 2D KH QC JS", "KS QD JH 10C 9S")]
    assert [h.category for h in ranked] == [5, 4, 3, 2, 1, 1, NO_PAIR]
    assert all(a < b for a, b in pairwise(ranked))
    assert razz("2S 2D KH QC JS").name == "pair 2-2-K-Q-J"


def test_the_best_five_of_seven_in_razz():
    assert razz("KS 7D AH 2C 3S 4D 9H").name == "7-4-3-2-A"
    assert razz("AS 2D 3H 4C 5S 6D 7H").name == "wheel"
    k = razz("KS KD QH QC JS JD 2H")          # four ranks: one pair, the lowest that can be made
    assert (k.category, k.name) == (PAIR, "pair J-J-K-Q-2")
    t = razz("3S 3D 3H 2C 2S AD AH")          # three ranks: two pair beats trips; deuces and aces
    assert (t.category, t.name) == (TWO_PAIR, "two pair 2-2-A-A-3")


def test_razz_has_no_qualifier_and_no_joker():
    """Choice 1: Razz is ace-to-five with no qualifier."""
    assert razz("KS KD QH QC JS JD KH") is not None
    with pytest.raises(PokerHandError, match="no joker"):
        razz("JK 2D 3H 4C 5S")


@pytest.mark.parametrize("codes, name", [
    ("JK 2D 3H 4C 5S", "wheel"),        # the joker the ace
    ("JK AD 2H 3C 4S", "wheel"),        # the five
    ("JK AD 3H 4C 5S", "wheel"),        # the deuce
    ("JK 2D 4H 6C 7S", "7-6-4-2-A"),    # the ace, the lowest card not held
    ("JK AD 2H 6C 7S", "7-6-3-2-A"),    # the three
    ("KS QD JH 10C JK", "K-Q-J-10-A"),
    ("AS AD 3H 4C JK", "pair A-A-4-3-2"),   # the deuce: the joker never pairs, and never is a second ace
])
def test_the_lowball_joker_is_the_lowest_card_not_held(codes, name):
    """Rule 4 and "Basics of Lo-Ball": "the Joker can only be used to represent the lowest card
    'not actually' held in your hand"."""
    assert lowball(codes).name == name


def test_a_hand_with_the_joker_ties_the_same_ranks_without_it():
    """Choice 3, and rule 9: "In case of tie the pot is split"."""
    assert lowball("JK 2D 3H 4C 6S") == lowball("AS 2D 3H 4C 6S")
    assert lowball("JK 2D 3H 4C 6S") < lowball("AS 2D 3H 4C 5S")
    with pytest.raises(PokerHandError, match="one joker at most"):
        lowball("JK JK 3H 4C 6S")


@pytest.mark.parametrize("codes, must_bet", [
    ("7S 6D 5H 4C 3S", True),     # 7-6-5-4-3, the worst hand of the rule
    ("7S 6D 5H 4C 2S", True),
    ("7S 6D 5H 3C 2S", True),
    ("6S 5D 4H 3C AS", True),
    ("AS 2D 3H 4C 5S", True),
    ("8S 4D 3H 2C AS", False),    # an eight
    ("7S 7D 5H 4C 3S", False),    # a pair
    ("JK 7D 6H 5C 4S", True),     # the joker the ace: 7-6-5-4-A
    ("JK 8D 5H 4C 3S", False),    # 8-5-4-3-A
])
def test_the_seven_or_better_rule(codes, must_bet):
    """"A player holding a 7,6,5,4,3, or better hand must bet"."""
    assert seven_or_better(lowball(codes)) is must_bet


@pytest.mark.parametrize("codes, name", [
    ("8S 7D 6H 5C 4S", "8-7-6-5-4"),               # the worst qualifying low
    ("9S 5D 4H 3C 2S", None),                      # a nine
    ("8S 8D 4H 3C 2S", None),                      # a pair: only four ranks
    ("AS 2D 3H 4C 9S 9D KH", None),                # seven cards, four low ranks
    ("AS AD 2H 3C 4S 5D KH", "wheel"),
    ("8S 8D 8H 7C 6S 5D 4H", "8-7-6-5-4"),
    ("KS QD 2H 3C 4S 6D 8H", "8-6-4-3-2"),
])
def test_eight_or_better(codes, name):
    """7-Card Stud High-Low Split: "A qualifier of eight or better for low"."""
    h = low(cards(codes), EIGHT_OR_BETTER)
    assert (h.name if h else None) == name


def test_bad_hands():
    with pytest.raises(PokerHandError, match="five cards"):
        razz("AS 2D 3H 4C")
    with pytest.raises(PokerHandError, match="not a card of a poker deck"):
        razz("AS 2D 3H 4C MS")
