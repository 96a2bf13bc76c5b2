"""The shared poker evaluator (games/poker/hands.py), hand-worked: standard high, and the rules of
7 Card Thrill (the joker an ace or completing a straight or flush, five aces best, A-2-3-4-5 the
second-highest straight)."""

from __future__ import annotations

import pytest

from games.cards import cards
from games.poker.hands import STANDARD, THRILL, PokerHandError, best


def name(codes: str, rules=THRILL) -> str:
    return best(cards(codes), rules).name


@pytest.mark.parametrize("codes, expected", [
    ("AS KS QS JS 10S 2D 3H", "royal flush"),
    ("9H 10H JH QH KH 2D 3C", "straight flush"),
    ("7C 7D 7H 7S KD 2H 3C", "four of a kind"),
    ("7C 7D 7H KS KD 2H 3C", "full house"),
    ("2H 7H 9H JH KH 3D 4C", "flush"),
    ("5C 6D 7H 8S 9D KH 2C", "straight"),
    ("7C 7D 7H KS QD 2H 3C", "three of a kind"),
    ("7C 7D KH KS QD 2H 3C", "two pair"),
    ("7C 7D KH JS QD 2H 3C", "pair"),
    ("2C 7D KH JS QD 4H 3C", "high card"),
])
def test_every_category_without_a_joker(codes, expected):
    assert name(codes, STANDARD) == name(codes) == expected


def test_the_joker_is_an_ace():
    assert best(cards("KS KD 5H 5C 9S JK 2D"), THRILL).key == (2, 13, 5, 14), "two pair with the joker as an ace kicker"
    assert name("AS AD JK 5H 7C 9D 2S") == "three of a kind", "aces: the joker makes trips"
    assert name("AS AD AH AC JK 2D 3H") == "five aces"


def test_the_joker_completes_a_straight_or_a_flush_and_nothing_else():
    assert name("5C 6D 7H 8S JK KD 2C") == "straight"              # the joker is the 9 (or 4)
    assert name("2H 7H 9H JH JK 3D 4C") == "flush"                 # the joker is a heart
    assert name("9H 10H JH QH JK 2D 3C") == "straight flush"       # the joker is the KH (or 8H)
    assert name("10S JS QS KS JK 2D 3H") == "royal flush"          # the joker is the AS
    # With a pair of kings the joker cannot make a third king (it is no wild card): aces up instead.
    assert best(cards("KS KD JK 5H 7C 9D 2S"), THRILL).key[:2] == (1, 13) and \
        best(cards("KS KD JK 5H 7C 9D 2S"), THRILL).key[2] == 14


def test_five_aces_beat_a_royal_flush():
    assert best(cards("AS AD AH AC JK 2D 3H"), THRILL) > best(cards("AS KS QS JS 10S 2D 3H"), THRILL)


def test_the_wheel_is_the_second_highest_straight_in_7_card_thrill():
    wheel, broadway, king = (best(cards(c), THRILL) for c in
                             ("AS 2H 3D 4C 5S 9D KH", "AS KH QD JC 10S 2D 4H", "KS QH JD 10C 9S 2D 3H"))
    assert broadway > wheel > king
    assert best(cards("AS 2H 3D 4C 5S 9D KH"), STANDARD) < best(cards("2S 3H 4D 5C 6S 9D KH"), STANDARD)


def test_ties_and_kickers():
    assert best(cards("AS AD KH 9S 7C 3D 2H"), STANDARD) > best(cards("AC AH QH 9D 7S 3C 2S"), STANDARD)
    assert best(cards("AS AD KH 9S 7C"), STANDARD) == best(cards("AC AH KD 9D 7S"), STANDARD)


def test_bad_hands():
    with pytest.raises(PokerHandError, match="five cards"):
        best(cards("AS KS QS JS"))
    with pytest.raises(PokerHandError, match="no joker"):
        best(cards("AS KS QS JS JK"), STANDARD)
