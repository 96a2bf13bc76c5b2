"""Double-Hand Poker's rules, hand-worked (california-card-room-games.txt, "DOUBLE-HANDED POKER";
the tags O, R1-R11, D, T, P1-P13 and the readings are games.double_hand.rules')."""

from __future__ import annotations

import random

import pytest

from games.cards import JOKER, STANDARD_RANKS, SUITS, Card, cards
from games.double_hand import rules
from games.poker.hands import PokerHandError, best, short

DH = rules.rules_for("lowest")


def two(codes: str):
    return short(cards(codes), DH)


def five(codes: str):
    return best(cards(codes), DH)


def said(hand) -> str:
    return rules.describe(hand)


# --- P4: the seat the dice total reaches ------------------------------------------------------

# Counted by hand: the position to the designated player's left is 1, then clockwise round the
# table (every position, the designated player's too) until the total is reached.
REACHED = {
    # (seats, designated): seats reached by the totals 3, 4, ..., 18
    (7, 1): [4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5],
    (7, 4): [7, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 1],
    (7, 7): [3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4],
    (5, 2): [5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5],
    (6, 6): [3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6],
    (2, 1): [2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1],
}


@pytest.mark.parametrize("seats, designated", list(REACHED))
def test_every_dice_total_reaches_its_seat(seats, designated):
    got = [rules.first_seat(total, designated, seats) for total in range(3, 19)]
    assert got == REACHED[(seats, designated)]


def test_the_count_starts_left_of_the_designated_player_and_may_reach_it():
    """P4: "counting clockwise from the person to the immediate left of the designated player":
    a total of 1 would be that seat; 7 at a seven-position table comes back to the designated
    player, who then receives the selected hand."""
    assert rules.first_seat(1, 3, 7) == 4
    assert rules.first_seat(7, 3, 7) == 3
    assert rules.first_seat(3, 7, 7) == 3, "the seat left of seat 7 is seat 1"


# --- P5: where the other hands go ---------------------------------------------------------------

def test_the_hands_go_right_from_the_selected_one_then_from_the_far_left_clockwise():
    """The action button on hand 5, the dice reach seat 3 (seven positions): hand 5 to seat 3,
    hands 6 and 7 to seats 4 and 5, then from the far left hands 1 to 4 to seats 6, 7, 1, 2."""
    assert rules.hands_out(5, 3, 7) == {3: 5, 4: 6, 5: 7, 6: 1, 7: 2, 1: 3, 2: 4}
    assert rules.dead_hands(rules.hands_out(5, 3, 7)) == []


def test_with_fewer_positions_the_last_hands_of_the_sequence_are_dead():
    """Five positions, hand 6 selected, the dice reach seat 2: 6, 7, 1, 2, 3 go to seats 2, 3, 4,
    5, 1; hands 4 and 5 are dealt to nobody."""
    out = rules.hands_out(6, 2, 5)
    assert out == {2: 6, 3: 7, 4: 1, 5: 2, 1: 3}
    assert rules.dead_hands(out) == [4, 5]


def test_the_showdown_starts_with_the_designated_player_then_clockwise():
    assert rules.showdown_order(5, 7) == [5, 6, 7, 1, 2, 3, 4]


# --- R1-R11 and D: the ranking --------------------------------------------------------------------

RANKED = [  # R1 .. R11, one hand each, best first
    ("AS AD AH AC JK", "five aces"),
    ("AS KS QS JS 10S", "royal flush"),
    ("9H 10H JH QH KH", "straight flush to K"),
    ("7C 7D 7H 7S KD", "four of a kind 7"),
    ("7C 7D 7H KS KD", "full house 7 over K"),
    ("2H 7H 9H JH KH", "flush K-J-9-7-2"),
    ("5C 6D 7H 8S 9D", "straight to 9"),
    ("7C 7D 7H KS QD", "three of a kind 7"),
    ("7C 7D KH KS QD", "two pair K and 7"),
    ("7C 7D KH JS QD", "pair of 7"),
    ("2C 7D KH JS AD", "high card A-K-J-7-2"),
]


def test_the_sheets_ranking_one_to_eleven():
    hands = [five(codes) for codes, _ in RANKED]
    assert [said(h) for h in hands] == [name for _, name in RANKED]
    assert hands == sorted(hands, reverse=True) and len(set(hands)) == len(hands), "R1 above R2 ... above R11"


def test_the_joker_is_an_ace():
    """D: "The Joker can only be used as an Ace ...": JK with an ace is a pair of aces, in either hand."""
    assert said(five("JK AS 9D 6C 3H")) == "pair of A"
    assert said(two("JK AS")) == "pair of A"
    assert said(two("JK KD")) == "high card A-K", "in the two-card hand the joker can only be an ace"
    assert two("JK KD") == two("AH KD")


def test_the_joker_completes_a_straight_or_a_flush():
    """D: "... or to complete a flush or a straight"; a straight flush is both."""
    assert said(five("5C 6D 7H 8S JK")) == "straight to 9"
    assert said(five("2H 7H 9H JH JK")) == "flush A-J-9-7-2", "the joker completes the flush as its ace"
    assert said(five("9H 10H JH QH JK")) == "straight flush to K"
    assert said(five("10S JS QS KS JK")) == "royal flush"


def test_the_joker_is_no_wild_card():
    """Not a third king: K-K with the joker is kings with an ace, not three of a kind."""
    assert said(five("KS KD JK 5H 7C")) == "pair of K"
    assert five("KS KD JK 5H 7C").key == (1, 13, 14, 7, 5)


def test_aces_high_or_low_and_the_wheel_reading():
    """D: aces high or low. Reading 2: A-2-3-4-5 is the lowest straight; second highest on option."""
    assert said(five("AS 2D 3H 4C 5S")) == "straight to 5"
    assert five("AS 2D 3H 4C 5S") < five("2D 3H 4C 5S 6S")
    second = rules.rules_for("second_highest")
    assert best(cards("AS 2D 3H 4C 5S"), second) > best(cards("9S 10D JH QC KS"), second)
    assert best(cards("AS 2D 3H 4C 5S"), second) < best(cards("10D JH QC KS AS"), second)


def test_two_card_hands_rank_by_pair_then_cards():
    assert two("2C 2D") > two("AS KS"), "any pair above any two odd cards"
    assert two("10C 10D") > two("9S 9H")
    assert two("AS KD") > two("AH QS") > two("KS QD")
    assert two("AS KD") == two("AH KS"), "a copy"


def test_a_short_hand_has_no_straight_or_flush_and_groups_compare():
    assert said(two("5H 6H")) == "high card 6-5"
    assert said(short(cards("7C 7D 7H"), DH)) == "three of a kind 7"
    assert said(short(cards("7C 7D 5H 5S"), DH)) == "two pair 7 and 5"
    assert said(short(cards("7C 7D 7H 7S"), DH)) == "four of a kind 7"
    with pytest.raises(PokerHandError, match="one to four cards, not 5"):
        short(cards("2C 3C 4C 5C 6C"), DH)
    with pytest.raises(PokerHandError, match="these rules have no joker"):
        short(cards("JK 2C"))


# --- P7: the five-card hand must outrank the two-card hand -----------------------------------------

def test_a_setting_whose_five_card_hand_does_not_outrank_is_refused_naming_both():
    with pytest.raises(rules.SetError) as err:
        rules.arrange(cards("KS KD"), cards("QH JC 9D 7S 3H"), DH)
    assert str(err.value) == ("the five-card hand (high card Q-J-9-7-3) does not outrank the two-card hand (pair "
                              "of K): the higher ranking hand must be the five-card hand (P7)")
    with pytest.raises(rules.SetError, match=r"\(high card A-Q-J-9-8\) does not outrank .* \(high card A-K\)"):
        rules.arrange(cards("AS KD"), cards("AH QS JC 9D 8S"), DH)


def test_the_five_card_hand_outranks_the_same_pair_or_the_same_top_cards():
    """Reading 3: the five-card hand, having more cards, ranks higher on equal groups."""
    assert rules.arrange(cards("AS KD"), cards("AH KS QC JD 9S"), DH).five_rank.name == "high card"
    assert rules.arrange(cards("7C 7D"), cards("7H 7S KC QD 2S"), DH).two_rank.name == "pair"


def test_a_setting_needs_two_and_five_cards():
    with pytest.raises(rules.SetError, match="not 3 and 4 cards"):
        rules.arrange(cards("AS KD QC"), cards("AH KS QD JD"), DH)


# --- O, P11, P12 and reading 4: against the designated player ---------------------------------------

DP = rules.arrange(cards("9H 9C"), cards("KS KD 5D 4C 2S"), DH)     # pair of 9 / pair of K


@pytest.mark.parametrize("front, back, two_vs, five_vs, designated_player, push", [
    ("QH QC", "AS AD 7D 6C 3H", "win", "win", "win", "win"),          # P11: both higher
    ("QS QD", "KH KC 4H 3S 2D", "win", "lose", "push", "push"),       # P12: K-K-4-3-2 below K-K-5-4-2
    ("10C 3D", "JK 5C 6S 7H 8D", "lose", "win", "push", "push"),      # P12
    ("JC 8H", "10S 10D 6D 3C 2H", "lose", "lose", "lose", "lose"),    # O: both lower
    ("9S 9D", "JH JD 7C 6H 4D", "tie", "lose", "lose", "push"),       # a copy and a loss
    ("9S 9D", "AH AC 8S 7S 4S", "tie", "win", "push", "push"),        # a copy and a win
    ("9S 9D", "KH KC 5S 4H 2D", "tie", "tie", "lose", "push"),        # two copies
])
def test_each_seat_against_the_designated_player(front, back, two_vs, five_vs, designated_player, push):
    mine = rules.arrange(cards(front), cards(back), DH)
    for ties, outcome in (("designated_player", designated_player), ("push", push)):
        got_two, got_five, wager = rules.settle(mine, DP, ties)
        assert (got_two, got_five, wager.outcome) == (two_vs, five_vs, outcome), ties
        assert (wager.pays is not None) == (outcome == "win") and (wager.pays is None or str(wager.pays) == "1 to 1")


def test_the_why_names_both_comparisons_and_the_rule():
    mine = rules.arrange(cards("9S 9D"), cards("JH JD 7C 6H 4D"), DH)
    assert rules.settle(mine, DP)[2].why == ("two-card pair of 9 ties pair of 9; five-card pair of J loses to pair "
                                             "of K: a copy goes to the designated player: neither hand wins (O)")
    with pytest.raises(ValueError, match="ties must be one of designated_player, push"):
        rules.settle(mine, DP, "house")


def test_the_outcome_lists_every_seat_but_the_designated_player():
    sets = {1: DP, 2: rules.arrange(cards("QH QC"), cards("AS AD 7D 6C 3H"), DH)}
    out = rules.outcome(1, sets, "designated_player")
    assert out["designated"] == {"seat": 1, "two": {"cards": ["9C", "9H"], "hand": "pair of 9"},
                                 "five": {"cards": ["KD", "KS", "5D", "4C", "2S"], "hand": "pair of K"}}
    assert list(out["seats"]) == ["2"] and out["seats"]["2"]["wagers"][0]["outcome"] == "win"


# --- P8: the house way ------------------------------------------------------------------------------

@pytest.mark.parametrize("seven, front, back", [
    ("AS KH QH JH 10H 3S 2S", "high card 3-2", "straight to A"),          # a straight kept behind
    ("KS KD 9H 9C 5D 4C 2S", "pair of 9", "pair of K"),                   # two pair split
    ("8C 8D 8H 5S 5D KC QD", "pair of 5", "three of a kind 8"),           # a full house split
    ("QS QD 9H 9C 5D 5C 2S", "pair of Q", "two pair 9 and 5"),            # three pair: the highest in front
    ("AS AD KH 8C 6D 4H 2S", "high card K-8", "pair of A"),               # one pair kept behind
    ("JK AS KD 8H 6C 4D 2S", "high card K-8", "pair of A"),               # the joker's pair of aces kept
    ("AS KD QH 9C 7D 4H 2S", "high card K-Q", "high card A-9-7-4-2"),     # no pair: 2nd and 3rd best in front
    ("5C 6D 7H 8S 9D KH 2C", "high card K-2", "straight to 9"),
    ("2H 7H 9H JH KH KD 4C", "high card K-4", "flush K-J-9-7-2"),         # the flush over a pair of kings
    ("8C 8D 8H 9S 10D KC QD", "high card K-Q", "three of a kind 8"),
    ("7C 7D 7H 7S KC QD 2S", "pair of 7", "pair of 7"),                   # four of a kind split
])
def test_the_house_way(seven, front, back):
    way = rules.house_way(cards(seven), DH)
    assert (said(way.two_rank), said(way.five_rank)) == (front, back)


def test_every_seven_cards_have_a_legal_setting_and_the_house_way_is_one():
    deck = [Card(r, s) for s in SUITS for r in STANDARD_RANKS] + [JOKER]
    rng = random.Random(8)
    for _ in range(400):
        seven = rng.sample(deck, 7)
        way = rules.house_way(seven, DH)
        assert way.five_rank > way.two_rank
        assert sorted(c.code for c in (*way.two, *way.five)) == sorted(c.code for c in seven)
        assert way in rules.settings(seven, DH)
    with pytest.raises(rules.SetError, match="is 7 cards"):
        rules.house_way(cards("AS KS"), DH)


def test_published_cards_are_in_rank_order_not_the_order_dealt():
    assert rules.in_rank_order(cards("2C KD JK 10H AS 10C")) == ["JK", "AS", "KD", "10C", "10H", "2C"]


def test_the_deck_arithmetic():
    assert (rules.DECK, rules.HANDS, rules.CARDS, rules.LEFT) == (53, 7, 7, 4)
