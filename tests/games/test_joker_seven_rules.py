"""Joker Seven's wagers (games/joker_seven/rules.py), hand-worked from both sheets.

Rule numbers: joker-seven.txt (rules 2-4, 14, 15); "NJ" is N.J.A.C. 13:47-20.26(g).
"""

from __future__ import annotations

import pytest

from games.cards import cards
from games.joker_seven.paytables import GENERIC, NJ
from games.joker_seven.rules import JokerSevenCardsError, colour_count, pairs, settle


def outcome(hand: str, table=GENERIC) -> dict[str, tuple[str, str | None]]:
    return {r.wager: (r.outcome, None if r.pays is None else str(r.pays)) for r in settle(cards(hand), table)}


def test_every_wager_of_the_layout_is_settled_in_order():
    names = [r.wager for r in settle(cards("AS 2H 3C 4D 5S 6H 7C"), GENERIC)]
    assert names[:10] == ["black_4_or_more", "black_4", "black_5", "black_6", "black_7",
                          "red_4_or_more", "red_4", "red_5", "red_6", "red_7"]
    assert names[10:15] == ["no_pair", "two_pairs", "three_of_a_kind", "one_joker", "two_jokers"]
    assert names[15:] == [f"pair_{r}" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]


@pytest.mark.parametrize("hand, black, red", [
    ("AS 2C 3S 4C 5H 6D 7H", 4, 3),
    ("AS 2C 3S 4C 5S JK JK", 5, 0),     # rule 4: a joker is neither red nor black
    ("AH 2H 3D 4D 5H 6D JK", 0, 6),
])
def test_colour_counts(hand, black, red):
    assert (colour_count(cards(hand), "black"), colour_count(cards(hand), "red")) == (black, red)


def test_four_black_wins_four_or_more_and_exactly_four_and_red_loses():
    o = outcome("AS 2C 3S 4C 5H 6D 7H")
    assert o["black_4_or_more"] == ("win", "1 to 1") and o["black_4"] == ("win", "2 to 1")
    assert o["black_5"] == ("lose", None) and o["red_4_or_more"] == ("lose", None) and o["red_4"] == ("lose", None)


@pytest.mark.parametrize("hand, k", [
    ("AS 2C 3S 4C 5S 6D 7H", 5), ("AS 2C 3S 4C 5S 6C 7H", 6), ("AS 2C 3S 4C 5S 6C 7S", 7)])
def test_exactly_k_of_a_colour_by_paytable(hand, k):
    """Rule 15: 5 pays 5 to 1, 6 pays 20, 7 pays 40; NJ (g)1: 5, 15, 25."""
    generic, nj = outcome(hand), outcome(hand, NJ)
    assert generic[f"black_{k}"] == ("win", {5: "5 to 1", 6: "20 to 1", 7: "40 to 1"}[k])
    assert nj[f"black_{k}"] == ("win", {5: "5 to 1", 6: "15 to 1", 7: "25 to 1"}[k])
    assert generic["black_4_or_more"][0] == "win"
    assert all(generic[f"black_{j}"][0] == "lose" for j in (4, 5, 6, 7) if j != k)


def test_jokers_make_no_colour():
    """Five black and two jokers: five of seven are black, so 5 wins and 4 or more wins; no red at all."""
    o = outcome("AS 2C 3S 4C 5S JK JK")
    assert o["black_5"][0] == "win" and o["red_4_or_more"][0] == "lose"


def test_no_pair_wins_and_loses():
    assert outcome("AS 2C 3S 4C 5H 6D 7H")["no_pair"] == ("win", "3 to 1")
    assert outcome("AS AC 3S 4C 5H 6D 7H")["no_pair"] == ("lose", None)


def test_two_jokers_are_one_pair():
    """NJ (g)(1): two jokers are one pair, so they spoil no pair and make two pairs with one more pair."""
    hand = "AS 2C 3S 4C 5H JK JK"
    assert pairs(cards(hand), NJ) == 1
    assert outcome(hand)["no_pair"] == ("lose", None)
    assert outcome("AS AC 3S 4C 5H JK JK")["two_pairs"] == ("win", "3 to 1")


def test_one_joker_makes_no_pair():
    assert outcome("AS 2C 3S 4C 5H 6D JK")["no_pair"] == ("win", "3 to 1")


@pytest.mark.parametrize("hand, wins", [
    ("AS AC 3S 3C 5H 6D 7H", True),     # two pairs
    ("AS AC 3S 3C 5H 5D 7H", True),     # three pairs hold two
    ("AS AC AH AD 5H 6D 7H", True),     # rule 14: four of a kind is two pairs; NJ (g)3ii
    ("AS AC AH 3C 3H 6D 7H", True),     # a prial and a pair: the pair within the prial and the pair
    ("AS AC AH 3C 5H 6D 7H", False),    # a prial alone is one pair
    ("AS AC 3S 4C 5H 6D 7H", False),
])
def test_two_pairs(hand, wins):
    assert outcome(hand)["two_pairs"] == (("win", "3 to 1") if wins else ("lose", None))


@pytest.mark.parametrize("hand, wins", [
    ("10S 10C 10H 4C 5H 6D 7H", True),  # rule 14: "3 10's"
    ("KS KC KH KD 5H 6D 7H", True),     # NJ (g)3iii: four of a kind wins the prial at 12 to 1
    ("KS KC 5H 5D 7H 8S JK", False),
])
def test_three_of_a_kind(hand, wins):
    assert outcome(hand)["three_of_a_kind"] == (("win", "12 to 1") if wins else ("lose", None))
    assert outcome(hand, NJ)["three_of_a_kind"][0] == ("win" if wins else "lose")


def test_one_joker_and_two_jokers():
    """The one-joker wager pays 3 to 1 on exactly one joker and loses on two (NJ (g)(3)); two jokers 20 to 1."""
    one = outcome("AS 2C 3S 4C 5H 6D JK")
    assert one["one_joker"] == ("win", "3 to 1") and one["two_jokers"] == ("lose", None)
    two = outcome("AS 2C 3S 4C 5H JK JK")
    assert two["one_joker"] == ("lose", None) and two["two_jokers"] == ("win", "20 to 1")
    assert outcome("AS 2C 3S 4C 5H 6D 7H")["one_joker"] == ("lose", None)


@pytest.mark.parametrize("hand, rank, why", [
    ("QS QC 3S 4C 5H 6D 7H", "Q", "a pair of Q"),
    ("QS QC QH 4C 5H 6D 7H", "Q", "a pair within a prial of Q (NJ (g)2vi)"),
    ("QS QC QH QD 5H 6D 7H", "Q", "four Q: a pair (NJ (g)3i)"),
])
def test_specific_pair_wins_on_a_pair_a_prial_or_four(hand, rank, why):
    """Rule 15: 10 to 1; NJ (g)2iv and 2vi: 9 to 1, the pair within a prial too."""
    result = {r.wager: r for r in settle(cards(hand), GENERIC)}[f"pair_{rank}"]
    assert (result.outcome, str(result.pays), result.why) == ("win", "10 to 1", why)
    assert outcome(hand, NJ)[f"pair_{rank}"] == ("win", "9 to 1")
    assert outcome(hand)["pair_K"] == ("lose", None)


def test_jokers_are_no_specific_pair():
    """Rule 15: "Specific Pair (other than Jokers)": two jokers win no rank's pair."""
    o = outcome("AS 2C 3S 4C 5H JK JK")
    assert all(o[f"pair_{r}"][0] == "lose" for r in ("A", "2", "3", "4", "5"))


def test_one_joker_reading_is_a_paytable_option():
    from dataclasses import replace
    lenient = replace(GENERIC, one_joker_loses_on_two=False)
    assert outcome("AS 2C 3S 4C 5H JK JK", lenient)["one_joker"] == ("win", "3 to 1")
    apart = replace(GENERIC, two_jokers_pair=False)
    assert outcome("AS 2C 3S 4C 5H JK JK", apart)["no_pair"] == ("win", "3 to 1")


@pytest.mark.parametrize("hand, message", [
    ("AS 2C 3S 4C 5H 6D", "Joker Seven settles exactly 7 cards (rule 3), got 6"),
    ("AS 2C 3S 4C 5H 6D 7H 8S", "Joker Seven settles exactly 7 cards (rule 3), got 8"),
    ("AS AS 3S 4C 5H 6D 7H", "one deck holds each card once and two jokers (rule 2)"),
    ("AS 2C 3S 4C 5H MS 7H", "not cards of a Joker Seven deck (rule 2): MS"),
])
def test_bad_hands_are_refused_with_the_rule(hand, message):
    with pytest.raises(JokerSevenCardsError, match=message.replace("(", r"\(").replace(")", r"\)")):
        settle(cards(hand), GENERIC)
