"""Mexican Poker ("Stud Loco") ranking, hand-worked: the shared evaluator (games.poker.hands.best)
under games.poker.mexican.MEXICAN -- california-card-room-games.txt, "MEXICAN POKER", Hand Ranking
1-11 and Stud-Loce Rules -- and the module's choices where the sheet is silent."""

from __future__ import annotations

from itertools import pairwise

import pytest

from games.cards import STANDARD_RANKS, cards
from games.poker.hands import (
    FIVE_OF_A_KIND,
    FLUSH,
    FULL_HOUSE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    PokerHandError,
    best,
)
from games.poker.mexican import DECK_RANKS, MEXICAN, SKIP_STRAIGHTS


def hand(codes: str):
    return best(cards(codes), MEXICAN)


def test_the_deck_is_41_cards_without_eights_nines_and_tens():
    assert len(DECK_RANKS) * 4 + 1 == 41
    assert set(STANDARD_RANKS) - set(DECK_RANKS) == set(MEXICAN.removed) == {"8", "9", "10"}
    for stripped in ("8S", "9H", "10D"):
        with pytest.raises(PokerHandError, match="not in this deck"):
            hand(f"{stripped} 2S 3S 4S 5D")


def test_hand_ranking_1_to_11_in_the_sheets_order():
    worst_to_best = [
        ("AS KD 5H 3C 2D", "high card"),
        ("5S 5D KH QC 2D", "pair"),
        ("5S 5D KH KC 2D", "two pair"),
        ("5S 5D 5H KC 2D", "three of a kind"),
        ("4S 5D 6H 7C JD", "straight"),
        ("KS KD KH 2C 2D", "full house"),
        ("2S 4S 5S 7S JS", "flush"),       # the lowest flush above the best full house (5 over 6)
        ("AS AD AH AC KD", "four of a kind"),
        ("6H 7H JH QH KH", "straight flush"),
        ("7S JS QS KS AS", "royal flush"),
        ("2S 2D 2H 2C JK", "five of a kind"),
    ]
    ranked = [hand(c) for c, _ in worst_to_best]
    assert [h.name for h in ranked] == [n for _, n in worst_to_best]
    assert all(a < b for a, b in pairwise(ranked))
    assert hand("KS KD KH AC AD") < hand("2S 3S 4S 6S 7S"), "any flush beats any full house"


@pytest.mark.parametrize("ranks", SKIP_STRAIGHTS)
def test_each_skip_straight_is_a_straight(ranks):
    suits = "SDHCS"
    h = hand(" ".join(r + s for r, s in zip(ranks, suits, strict=True)))
    assert (h.category, h.name) == (STRAIGHT, "straight")
    assert h.key[1] == {"J": 11, "Q": 12, "K": 13, "A": 14}[ranks[-1]]


def test_straights_rank_by_their_top_card_in_the_stripped_order():
    """Choice 2: 7-J-Q-K-A highest, A-2-3-4-5 lowest; each skip straight above 3-4-5-6-7."""
    order = ["AS 2D 3H 4C 5S", "2S 3D 4H 5C 6S", "3S 4D 5H 6C 7S", "4S 5D 6H 7C JS",
             "5S 6D 7H JC QS", "6S 7D JH QC KS", "7S JD QH KC AS"]
    ranked = [hand(c) for c in order]
    assert all(h.category == STRAIGHT for h in ranked)
    assert all(a < b for a, b in pairwise(ranked))


@pytest.mark.parametrize("codes", ["3S 4D 5H 7C JS", "JS QD KH AC 2S", "6S 7D JH QC AS", "KS AD 2H 3C 4S"])
def test_no_other_gap_or_wrap_is_a_straight(codes):
    assert hand(codes).category != STRAIGHT


def test_the_royal_flush_is_7_j_q_k_a_suited():
    """Choice 1: with the tens gone, the ace-high straight flush is the royal flush (Ranking 2)."""
    royal, king_high = hand("7D JD QD KD AD"), hand("6D 7D JD QD KD")
    assert royal.name == "royal flush" and king_high.name == "straight flush"
    assert royal > king_high > hand("AS AD AH AC KS")
    assert hand("4C 5C 6C 7C JC").category == STRAIGHT_FLUSH, "a skip straight flush"


def test_the_joker_is_wild_in_all_cases():
    """Stud-Loce Rules: the joker "is 'wild' in all cases" -- unlike Draw Poker's bug it makes
    pairs, trips, fours and full houses of any rank."""
    assert hand("KS KD JK 5H 7C").name == "three of a kind"
    assert hand("KS KD KH JK 7C").name == "four of a kind"
    assert hand("KS KD 5H 5C JK").key[1:] == (13, 5)               # kings full of fives
    assert hand("KS KD 5H 5C JK").category == FULL_HOUSE
    assert hand("2C 3D 5H 7S JK").name == "pair"                     # the best it can do: a pair of sevens
    assert hand("2C 3D 5H 7S JK").key[1] == 7
    assert hand("4S 5D 6H JC JK").key == (STRAIGHT, 11.0)           # the joker the 7 of 4-5-6-7-J
    assert hand("7S JS QS KS JK").name == "royal flush"              # the joker the ace of spades


def test_five_of_a_kind_of_any_rank_beats_a_royal_flush():
    aces, deuces = hand("AS AD AH AC JK"), hand("2S 2D 2H 2C JK")
    assert (aces.category, aces.name) == (FIVE_OF_A_KIND, "five aces")
    assert (deuces.category, deuces.name) == (FIVE_OF_A_KIND, "five of a kind")
    assert aces > deuces > hand("7S JS QS KS AS")


def test_the_joker_is_never_an_eight_nine_or_ten():
    """Choice 3: 4-5-6-7 and the joker is 4-5-6-7-J (the joker no 8 for 4-5-6-7-8)."""
    assert hand("4S 5D 6H 7C JK").key == (STRAIGHT, 11.0)
    assert hand("5S 6D 7H JK 2C").category != STRAIGHT   # 5-6-7-8-9 is not to be had


def test_no_double_ace_flush():
    """Choice 3: in a flush the joker is the best card of the suit not held, never a second ace."""
    joker_flush = hand("AS KS QS 2S JK")
    assert joker_flush.key[1:] == (14, 13, 12, 11, 2)
    assert joker_flush == hand("AH KH QH JH 2H")
    assert joker_flush < hand("AH KH QH JH 3H")


def test_a_hand_with_the_joker_equals_the_same_hand_without():
    """Stud-Loce Rules: "Hands are considered to be of equal value whether or not one hand may
    include the Joker"."""
    assert hand("KS KD JK 5H 7C") == hand("KH KC KS 5D 7D")
    assert hand("4S 5D 6H JK JS") == hand("4H 5H 6S 7D JC")


def test_ties_break_on_ranks_never_on_suits():
    """Choice 4."""
    assert hand("2S 4S 5S 7S JS") == hand("2H 4H 5H 7H JH")
    assert hand("2S 4S 6S 7S JS") > hand("2H 4H 5H 7H JH")
    assert hand("QS QD QH 2C 2D") > hand("JS JD JH AC AD")
    assert hand("QS QD 7H 7C 2D") > hand("QH QC 6H 6C KD")
    assert best(cards("2S 4S 5S 7S JS 2D 2H"), MEXICAN).category == FLUSH, "seven cards: the flush over the full house"
