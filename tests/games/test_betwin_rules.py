"""Bet'Win's rules (games/betwin/rules.py), hand-worked from betwin.txt (rule numbers are its)."""

from __future__ import annotations

import pytest

from games.betwin.rules import BetWinCardError, Rules, joker_value, settle, wins, zone, zone_text
from games.cards import card
from games.options import OptionError


def win(player: str, waiting: str, adjoining: str, rules: Rules | None = None) -> bool:
    return wins(card(player), card(waiting), card(adjoining), rules or Rules())[0]


@pytest.mark.parametrize("player, waiting, adjoining, expected", [
    ("3S", "2H", "5C", True),    # rule 2: 2 <= 3 < 5
    ("2S", "2H", "5C", True),    # equal to the lowest dealer card wins
    ("5S", "2H", "5C", False),   # "strictly lower than its highest card": equal to the highest loses
    ("1S", "2H", "5C", False),   # below the zone
    ("MS", "2H", "5C", False),   # a face is above every number (1.1)
    ("VS", "5H", "DC", True),    # 5 < Jack < Lady (faces M V C D R, lowest first)
    ("RS", "MH", "RC", False),   # the King is the top: equal to the highest loses
    ("3S", "5C", "2H", True),    # the order of the dealer's cards does not matter
])
def test_the_win_zone(player, waiting, adjoining, expected):
    assert win(player, waiting, adjoining) is expected


def test_identical_dealer_cards_only_that_card_wins():
    """3.5: "If the second dealer's card is identical to the first, only the players having exactly
    this same card win": by rank by default, by rank and suit as an option."""
    assert win("3S", "3H", "3C") and not win("4S", "3H", "3C") and not win("2S", "3H", "3C")
    strict = Rules(identical="rank_and_suit")
    assert win("3H", "3H", "3H", strict) and not win("3S", "3H", "3H", strict)
    assert not win("3S", "3H", "3C", strict), "3H and 3C differ in suit: a normal zone from 3 to below 3 is empty"


def test_two_dealer_jokers_every_seat_wins():
    """Rule 2 and 3.5: "If the croupier has two jokers, he pays all the bets"."""
    assert all(win(p, "JK", "JK") for p in ("1S", "5H", "RS", "JK"))
    assert zone_text(card("JK"), card("JK")) == "two jokers: every seat wins (rule 2)"


@pytest.mark.parametrize("waiting, adjoining, value", [
    ("JK", "3H", 0),    # the second card is a number: the joker is below 1
    ("JK", "DH", 11),   # a face: above the King
    ("4C", "JK", 0),    # the second card is the joker: the other dealer card decides (a number)
    ("RC", "JK", 11),
])
def test_the_jokers_value(waiting, adjoining, value):
    assert joker_value(card(waiting), card(adjoining)) == value


def test_a_dealer_joker_opens_the_zone_from_below_one_or_to_above_the_king():
    assert zone(card("JK"), card("3H")) == (0, 3)
    assert win("1S", "JK", "3H") and win("2S", "JK", "3H") and not win("3S", "JK", "3H")
    assert zone(card("DH"), card("JK")) == (9, 11)   # Lady up to above the King
    assert win("RS", "DH", "JK") and win("DS", "DH", "JK") and not win("CS", "DH", "JK")


def test_a_seats_joker_takes_the_same_value():
    assert win("JK", "JK", "3H"), "joker (0) <= joker (0) < 3"
    assert not win("JK", "2H", "4C"), "the second card is a number: the seat's joker is below 1"
    assert not win("JK", "MH", "RC"), "a face: above the King, outside Beggar..King"


def test_the_face_order_is_an_option():
    """1.1 names the faces; which is higher is the room's to post: the option reorders them."""
    default, swapped = Rules(), Rules(face_order=("M", "C", "V", "D", "R"))
    assert win("VS", "MH", "CC", default) and not win("VS", "MH", "CC", swapped)
    with pytest.raises(OptionError, match="face_order: must order the five faces M V C D R"):
        Rules(face_order=("M", "V", "C", "D", "D"))


def test_settle_pays_the_bet_and_the_rebet_1_to_1():
    results = settle({1: card("3S"), 2: card("MS")}, card("2H"), card("5C"))
    assert [(r.wager, r.outcome, str(r.pays)) for r in results[1]] == [("bet", "win", "1 to 1"), ("rebet", "win", "1 to 1")]
    assert [(r.wager, r.outcome) for r in results[2]] == [("bet", "lose"), ("rebet", "lose")]
    assert results[1][0].why == "3S (3) is in the zone from 2 to below 5"


@pytest.mark.parametrize("code", ["AS", "7H", "KD", "10C"])
def test_a_card_not_of_the_betwin_deck_is_refused(code):
    with pytest.raises(BetWinCardError, match=f"{code} is not a Bet'Win card"):
        settle({1: card(code)}, card("2H"), card("5C"))
