"""Who acts first on a stud street (games.poker.bring_in), hands worked out by hand from
california-card-room-games.txt: 7-Card Stud, 7-Card Stud High-Low Split, "RAZZ", Stud Poker House
Rules, and Mexican Poker's Stud-Loce Rules."""

from __future__ import annotations

import pytest

from games.cards import card, cards
from games.poker.bring_in import bring_in, first_to_act, razz_showing, showing_key
from games.poker.hands import PokerHandError


def up(**seats):
    return {int(k[1:]): card(v) for k, v in seats.items()}


def showing(**seats):
    return {int(k[1:]): cards(v) for k, v in seats.items()}


@pytest.mark.parametrize("game", ["stud", "stud_hi_lo"])
def test_stud_the_low_card_by_suit_brings_it_in(game):
    # "The low card by suit (Clubs are lowest, Diamonds, Hearts, then Spades) initiates betting
    # action on the first round, with an Ace counting as a high card for this purpose."
    assert bring_in(game, up(s1="5H", s2="2S", s3="KC", s4="2D")) == 4      # 2D below 2S
    assert bring_in(game, up(s1="AC", s2="3S")) == 2                         # the ace is high
    assert bring_in(game, up(s1="2C", s2="2D", s3="2H", s4="2S")) == 1
    # 7-Card Stud: "In the case of an exposed hole card, the hand cannot be forced low"
    assert bring_in(game, up(s1="5H", s2="2S", s4="2D"), exempt={4}) == 2


def test_razz_the_high_card_brings_it_in_king_high_ace_low():
    # "in RAZZ, the high card has the forced opening"; ace to five: the ace is low
    assert bring_in("razz", up(s1="QH", s2="KD", s3="AS", s4="7C")) == 2
    assert bring_in("razz", up(s1="AS", s2="2C")) == 2
    # House Rules: "Suits are ranked as: Spades (highest), Hearts, Diamonds, Clubs"
    assert bring_in("razz", up(s1="KS", s2="KH", s3="KC")) == 1


def test_mexican_the_high_card_the_joker_above_all():
    # "the high card clockwise of the dealer button, making a forced opening bet"; "When the joker
    # shows, that will be the high card superseding all others"
    assert bring_in("mexican_stud", up(s1="KH", s2="AD", s3="7C"), dealer=2) == 2
    assert bring_in("mexican_stud", up(s1="KH", s2="AD", s3="JK"), dealer=2) == 3
    # choice 4: two aces: the one closest clockwise to the button (seat 2): seat 4, then seat 1
    assert bring_in("mexican_stud", up(s1="AS", s4="AC", s3="QD"), dealer=2) == 4
    assert bring_in("mexican_stud", up(s1="AS", s4="AC", s3="QD"), dealer=5) == 1
    assert bring_in("mexican_stud", up(s1="AS", s4="AC", s3="QD"), dealer=2, tie="suit") == 1


def test_stud_later_streets_the_high_hand_ties_left_of_the_dealer():
    # "On subsequent rounds, the high hand initiates action. If there is a tie, the player to the
    # left of the dealer acts first." (choice 5: the house dealer is before seat 1)
    for game in ("stud", "stud_hi_lo"):
        assert first_to_act(game, showing(s1="AS KD", s2="3C 3D", s3="QH JH")) == 2   # a pair
        assert first_to_act(game, showing(s1="AS KD", s2="AC 4D", s3="AH KC")) == 1   # tie: left of the dealer
        assert first_to_act(game, showing(s5="AS KD 2C", s3="AH KC 2D")) == 3
        # 6th street, four cards showing: three of a kind above two pair and four to a flush
        assert first_to_act(game, showing(s1="9S 9D 4C 4H", s2="5C 5D 5H 2S", s3="AS KS QS JS")) == 2


def test_razz_later_streets_the_best_low_showing():
    # "the low hand is first to act thereafter"; choice 2
    assert first_to_act("razz", showing(s1="5C 4D", s2="6H AS", s3="KC QD")) == 1   # 5-4 beats 6-A
    assert first_to_act("razz", showing(s1="2C 2D", s2="KH QS")) == 2               # a pair is worse
    assert first_to_act("razz", showing(s1="7C 4D 2S", s2="7H 4C 2D")) == 1          # tie: left of the dealer
    assert first_to_act("razz", showing(s1="8C 5D 3S 2C", s2="8H 6C 2D AS")) == 1   # 8-5 beats 8-6
    assert first_to_act("razz", showing(s1="KC KD 2S 3C", s2="QH QC JD JS")) == 1   # one pair beats two


def test_razz_showing_ranks():
    assert razz_showing(cards("4D 3C")) > razz_showing(cards("5C AS"))
    assert razz_showing(cards("KC QD JS 10H")) > razz_showing(cards("AS AD 2C 3C"))
    assert razz_showing(cards("2S 2D 3C")) > razz_showing(cards("3S 3D 2C"))   # the lower pair
    assert razz_showing(cards("9S 9D 9C")) < razz_showing(cards("KS KD QC QH"))


def test_mexican_later_streets_the_joker_ties_the_natural_hand():
    # "Hands are considered to be of equal value whether or not one hand may include the Joker. The
    # hand closest of such hands to the dealer acts first." (choice 3: J-K is a pair of kings)
    assert showing_key("mexican_stud", cards("JK KD")) == showing_key("mexican_stud", cards("KS KC"))
    assert first_to_act("mexican_stud", showing(s1="KS KC", s5="JK KD"), dealer=3) == 5
    assert first_to_act("mexican_stud", showing(s1="KS KC", s5="JK KD"), dealer=6) == 1
    assert first_to_act("mexican_stud", showing(s1="KS KC", s5="JK AD"), dealer=6) == 5   # aces
    assert first_to_act("mexican_stud", showing(s1="QS QC QD", s5="JK 7D 7C 2H"), dealer=6) == 1
    assert first_to_act("mexican_stud", showing(s1="QS QC QD", s5="JK 7D 7C 7H"), dealer=6) == 5


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: bring_in("holdem", up(s1="2C")), ValueError, "stud game"),
    (lambda: bring_in("stud", {}), ValueError, "no up card"),
    (lambda: bring_in("stud", up(s1="JK")), PokerHandError, "no joker"),
    (lambda: bring_in("mexican_stud", up(s1="9C")), PokerHandError, "41-card"),
    (lambda: bring_in("mexican_stud", up(s1="AC"), tie="colour"), ValueError, "tie"),
    (lambda: first_to_act("razz", {}), ValueError, "no hand"),
    (lambda: showing_key("stud", cards("AS KS QS JS 10S")), PokerHandError, "one to four"),
    (lambda: showing_key("mexican_stud", [card("JK"), card("JK")]), PokerHandError, "one joker"),
])
def test_bad_input_is_refused(call, error, message):
    with pytest.raises(error, match=message):
        call()
