"""7 Card Thrill's wagers (games/seven_card_thrill/rules.py), hand-worked from the sheet."""

from __future__ import annotations

import pytest

from games.cards import cards
from games.seven_card_thrill.rules import ThrillHandError, settle, settle_seat


def outcomes(player: str, dealer: str) -> dict[str, tuple[str, str | None]]:
    return {w.wager: (w.outcome, None if w.pays is None else str(w.pays))
            for w in settle_seat(cards(player), cards(dealer))}


def test_poker_bet_wins_even_money_against_a_dealer_pair():
    o = outcomes("KS KD 9H 7C 5S 3D 2H", "QS QD 9C 7D 5C 3H 2C")
    assert o["poker"] == ("win", "1 to 1")


def test_poker_bet_pays_half_against_king_jack_high_or_lower():
    """The sheet: when the dealer's losing hand is King/Jack high or lower, half pay."""
    assert outcomes("2S 2D 9H 7C 5S 3D 4H", "KS JD 9C 7D 5C 3H 2C")["poker"] == ("win", "1 to 2")
    assert outcomes("2S 2D 9H 7C 5S 3D 4H", "QS JD 9C 7D 5C 3H 2C")["poker"] == ("win", "1 to 2")
    assert outcomes("2S 2D 9H 7C 6S 3D 4H", "KS QD 9C 7D 5C 3H 8C")["poker"] == ("win", "1 to 1"), "K-Q beats K-J"


def test_poker_bet_loses_and_pushes():
    assert outcomes("KS JD 9C 7D 5C 3H 2C", "2S 2D 9H 7C 6S 3D 4H")["poker"][0] == "lose"
    assert outcomes("KS KD 9H 7C 5S 3D 2H", "KC KH 9D 7S 5D 3C 2S")["poker"] == ("push", None)


@pytest.mark.parametrize("player, expected", [
    ("KS KD 9H 7C 5S 3D 2H", ("win", "1 to 2")),   # a pair of kings: half
    ("AS AD 9H 7C 5S 3D 2H", ("win", "1 to 1")),   # aces are better
    ("5S 5D 9H 9C 2S 3D 7H", ("win", "1 to 1")),   # two pair is better than a pair of kings
    ("QS QD 9H 7C 5S 3D 2H", ("lose", None)),
])
def test_pair_of_kings_or_better(player, expected):
    assert outcomes(player, "2C 3C 4D 7D 9S JH QC")["kings_or_better"] == expected


def test_three_of_a_kind_or_better_and_full_house_or_better():
    trips = outcomes("7S 7D 7H KC 5S 3D 2H", "2C 3C 4D 8D 9S JH QC")
    assert trips["trips_or_better"] == ("win", "4 to 1") and trips["full_house_or_better"] == ("lose", None)
    boat = outcomes("7S 7D 7H KC KS 3D 2H", "2C 3C 4D 8D 9S JH QC")
    assert boat["trips_or_better"] == ("win", "4 to 1") and boat["full_house_or_better"] == ("win", "30 to 1")


@pytest.mark.parametrize("player, dealer, pays", [
    ("AS AD AH AC JK 3D 2H", "2C 3C 4D 8D 9S JH QC", "20000 to 1"),
    ("AS KS QS JS 10S 3D 2H", "2C 3C 4D 8D 9S JH QC", "2000 to 1"),
    ("9H 10H JH QH JK 3D 2C", "2C 3C 4D 8D 9S JS QC", "300 to 1"),   # the joker completes it
    ("8H 9H 10H JH QH 3D 2C", "AC KC QC JC 10C 3S 2S", "300 to 1"),   # the dealer's royal beats it
])
def test_the_special_bet_pays_regardless_of_the_poker_bet(player, dealer, pays):
    o = outcomes(player, dealer)
    assert o["special"] == ("win", pays)
    if "AC KC QC" in dealer:
        assert o["poker"][0] == "lose", "the poker bet lost, the special bet still pays"


def test_settle_reveals_each_hand_with_its_best_five():
    result = settle({1: cards("KS KD 9H 7C 5S 3D 2H")}, cards("QS QD 9C 7D 5C 3H 2C"))
    assert result["dealer"]["hand"] == "pair" and result["seats"]["1"]["hand"] == "pair"
    assert [w["wager"] for w in result["seats"]["1"]["wagers"]] == [
        "poker", "kings_or_better", "trips_or_better", "full_house_or_better", "special"]


def test_bad_hands():
    with pytest.raises(ThrillHandError, match="a 7 Card Thrill hand is 7 cards, not 6"):
        settle_seat(cards("KS KD 9H 7C 5S 3D"), cards("QS QD 9C 7D 5C 3H 2C"))
