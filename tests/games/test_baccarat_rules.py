"""Commission-Free Baccarat evaluator against the rule sheet (california-card-room-games.txt).

Each test names the rule it checks; the examples are worked by hand in the
comments, so a failure says which reading of the sheet is wrong.
"""

import pytest

from games.baccarat import rules
from games.baccarat.rules import (
    BaccaratCardError,
    action_button,
    action_count,
    action_position,
    banker_draws,
    is_natural,
    next_card,
    next_draw,
    outcome,
    player_complete,
    player_draws,
    point,
    stand_reason,
    total,
)
from games.cards import JOKER, card, cards

# A card of each baccarat value, for building hands with a given total.
VALUE_CARD = {0: "10", 1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9"}


def hand_of(total_: int, suit: str = "C") -> list:
    """Two cards totalling ``total_`` without being a natural unless total_ is 8 or 9: K + card."""
    return [card("K" + suit), card(VALUE_CARD[total_] + suit)]


# --- rules 4-6, 12, 17: points and totals -------------------------------------------------


@pytest.mark.parametrize("code,value", [
    ("AS", 1), ("2H", 2), ("3D", 3), ("4C", 4), ("5S", 5), ("6H", 6), ("7D", 7), ("8C", 8), ("9S", 9),
    ("10H", 0), ("JD", 0), ("QC", 0), ("KS", 0),
])
def test_rules_4_5_6_card_points(code, value):
    """Rule 4: 2-9 face value; rule 5: tens and pictures 0; rule 6: aces 1."""
    assert point(card(code)) == value


def test_rule_2_no_jokers_and_no_foreign_ranks():
    with pytest.raises(BaccaratCardError, match="rule 2"):
        point(JOKER)
    with pytest.raises(BaccaratCardError, match="rule 2"):
        point(card("MS"))  # a Bet'Win Beggar


@pytest.mark.parametrize("codes,expected", [
    ("7H 8D", 5),        # 15 -> 5 (rule 12: the last digit)
    ("9S 9C", 8),        # 18 -> 8, the sheet's own example
    ("KH QD", 0),        # 0 + 0
    ("5C 5D", 0),        # 10 -> 0
    ("AS 2H 3C", 6),     # 6
    ("9H 9D 9S", 7),     # 27 -> 7
    ("10S 4H", 4),
])
def test_rules_12_17_hand_total_is_last_digit(codes, expected):
    assert total(cards(codes)) == expected


# --- rule 18: naturals ---------------------------------------------------------------------


def test_rule_18_player_natural_stops_banker_draw():
    """P 3H 5D = 8 (natural); B 2C 2S = 4 would draw under 16a, but nobody draws."""
    player, banker = cards("3H 5D"), cards("2C 2S")
    assert is_natural(player) and not is_natural(banker)
    assert next_draw(player, banker) is None
    assert stand_reason(player, banker) == "no card: player natural 8, neither hand draws (rule 18)"


def test_rule_18_banker_natural_stops_player_draw():
    """P 2H 3C = 5 would draw (13b); B 4S 5S = 9 natural: nobody draws; banker wins 9-5."""
    player, banker = cards("2H 3C"), cards("4S 5S")
    assert next_draw(player, banker) is None
    assert player_complete(player, banker)
    out = outcome(player, banker)
    assert (out.winner, out.player_total, out.banker_total, out.banker_natural) == ("banker", 5, 9, True)


def test_rule_18_both_naturals():
    """P 4H 4D = 8, B KD 9C = 9: both natural, no draws, banker wins 9-8."""
    player, banker = cards("4H 4D"), cards("KD 9C")
    assert next_draw(player, banker) is None
    out = outcome(player, banker)
    assert out.player_natural and out.banker_natural and out.winner == "banker"
    assert stand_reason(player, banker) == (
        "no card: player natural 8 and banker natural 9, neither hand draws (rule 18)")


def test_rule_18_natural_is_only_the_first_two_cards():
    """P 2H 3C 3D reaches 8 with its third card: not a natural."""
    assert not is_natural(cards("2H 3C 3D"))
    assert is_natural(cards("AH 7C 5D"))  # first two 8: natural whatever follows
    assert not is_natural(cards("AH"))


# --- rule 13: the player's draw -------------------------------------------------------------


@pytest.mark.parametrize("player_total,draws", [
    (0, True), (1, True), (2, True), (3, True), (4, True), (5, True),   # 13b: hit 0-5
    (6, False), (7, False),                                              # 13a: stand 6-9
    (8, False), (9, False),                                              # 13a (and natural, 18)
])
def test_rule_13_player_draws_on_0_to_5(player_total, draws):
    assert player_draws(player_total) is draws
    # Same through next_draw with concrete cards, against a banker K7 = 7 (no natural).
    player = hand_of(player_total, "H")
    banker = cards("KS 7S")
    assert next_draw(player, banker) == ("player" if draws else None)


# --- rule 16: the banker's draw --------------------------------------------------------------

# Rule 16c, transcribed from the sheet: banker's score, then H/S for the
# player's third card 0 1 2 3 4 5 6 7 8 9.
CHART_16C = """
7 S S S S S S S S S S
6 S S S S S S H H S S
5 S S S S H H H H S S
4 S S H H H H H H S S
3 H H H H H H H H S H
2 H H H H H H H H H H
1 H H H H H H H H H H
0 H H H H H H H H H H
"""
CHART_CELLS = [
    (int(row.split()[0]), third, row.split()[1 + third] == "H")
    for row in CHART_16C.strip().splitlines()
    for third in range(10)
]


def test_rule_16c_chart_has_80_cells():
    assert len(CHART_CELLS) == 80


@pytest.mark.parametrize("banker_score,third,hits", CHART_CELLS)
def test_rule_16c_chart_cell(banker_score, third, hits):
    """Every cell of the rule-16 chart, by the function and by a concrete round.

    Concrete round: player K + 2 (= 2, draws, rule 13b) takes a third card of
    value ``third``; banker K + (banker_score).
    """
    assert banker_draws(banker_score, third) is hits
    player = [card("KH"), card("2H"), card(VALUE_CARD[third] + "D")]
    banker = hand_of(banker_score, "S")
    assert next_draw(player, banker) == ("banker" if hits else None)


@pytest.mark.parametrize("banker_score,clause,hits", [
    (3, "16b-i", [True] * 8 + [False, True]),                        # unless an 8
    (4, "16b-ii", [False, False] + [True] * 6 + [False, False]),     # unless 0, 1, 8, 9
    (5, "16b-iii", [False] * 4 + [True] * 4 + [False, False]),       # on 4, 5, 6, 7
    (6, "16b-iv", [False] * 6 + [True, True, False, False]),         # on 6, 7
])
def test_rule_16b_clauses_agree_with_the_chart(banker_score, clause, hits):
    """The words of 16b i-iv say the same as the chart of 16c."""
    assert [banker_draws(banker_score, t) for t in range(10)] == hits


@pytest.mark.parametrize("banker_score,hits", [
    (0, True), (1, True), (2, True), (3, True), (4, True), (5, True), (6, False), (7, False),
])
def test_rule_16a_player_stood(banker_score, hits):
    """16a: player stood -> banker hits 0-5, stands 6-7. Player K7 = 7 stands (13a)."""
    assert banker_draws(banker_score, None) is hits
    player = cards("KH 7H")
    banker = hand_of(banker_score, "S")
    assert next_draw(player, banker) == ("banker" if hits else None)
    assert player_complete(player, banker)


def test_rule_16a_player_stood_on_6():
    """Player 6 stands (13a); banker 5 draws (16a), then nothing more."""
    player, banker = cards("3H 3D"), cards("2S 3S")
    assert next_draw(player, banker) == "banker"
    assert next_draw(player, [*banker, card("4C")]) is None


def test_banker_naturals_never_draw():
    assert not banker_draws(8, None) and not banker_draws(9, 0)


def test_each_hand_takes_at_most_one_third_card():
    """Player 0 + third 0 = 0; banker 0 draws to 0: both three cards, done (rules 13-16)."""
    player, banker = cards("KH QH 10H"), cards("KS QS JS")
    assert next_draw(player, banker) is None
    assert stand_reason(player, banker) == "no card: player drew to 0, banker drew to 0"


def test_next_card_follows_rule_11_then_the_draws():
    """P, B, P, B (rule 11), then player 5 draws (13b), banker 4 on a 5 draws (16b-ii)."""
    p, b = [], []
    sequence = cards("2H KD 3C 4S 5D 9C")
    seen = []
    for c in sequence:
        hand, position = next_card(p, b)
        seen.append((hand, position))
        (p if hand == "player" else b).append(c)
    assert seen == [("player", 1), ("banker", 1), ("player", 2), ("banker", 2), ("player", 3), ("banker", 3)]
    assert next_card(p, b) is None


def test_player_complete_marks_the_reveal():
    """Rule 10: the face-down card is turned once the player's hand is complete."""
    assert not player_complete(cards("2H 3C"), cards("KD"))
    assert not player_complete(cards("2H 3C"), cards("KD 4S"))       # 5 draws
    assert player_complete(cards("2H 3C 5D"), cards("KD 4S"))        # third card taken
    assert player_complete(cards("4H 3D"), cards("QC 6S"))           # 7 stands


def test_bad_hands_are_rejected():
    with pytest.raises(ValueError, match="2 or 3 cards"):
        next_draw(cards("2H"), cards("3H 4H"))
    with pytest.raises(ValueError, match="0-9"):
        banker_draws(10, None)
    with pytest.raises(ValueError, match="not complete"):
        outcome(cards("2H 3C"), cards("KD 4S"))


# --- rules 8 and 19: outcome and payouts ------------------------------------------------------


def test_rules_8a_19a_player_win_pays_1_to_1():
    """P 4H 3D = 7 stands; B QC 6S = 6 stands (16a): player wins 7-6."""
    out = outcome(cards("4H 3D"), cards("QC 6S"))
    assert out.winner == "player" and not out.banker_six
    assert out.to_dict()["payouts"] == {
        "player": {"outcome": "win", "odds": [1, 1]},
        "banker": {"outcome": "lose", "odds": None},
        "tie": {"outcome": "lose", "odds": None},
    }


def test_rules_8b_19b_banker_win_not_six_pays_1_to_1():
    """P 2H 3C 5D = 0; B KD 4S 9C = 3: banker wins 3-0 at 1:1."""
    out = outcome(cards("2H 3C 5D"), cards("KD 4S 9C"))
    assert (out.winner, out.banker_total, out.banker_six) == ("banker", 3, False)
    assert out.payouts["banker"].odds == (1, 1)
    assert out.payouts["player"].outcome == "lose" and out.payouts["tie"].outcome == "lose"


def test_rules_8b_19b_banker_win_with_six_pays_half():
    """P KH 5C 10S = 5 (drew a 0); B 3D 3H = 6 stands on a 0 (chart): banker 6 wins at 1:2."""
    player, banker = cards("KH 5C 10S"), cards("3D 3H")
    assert next_draw(player, banker) is None
    out = outcome(player, banker)
    assert (out.winner, out.banker_total, out.banker_six) == ("banker", 6, True)
    assert out.to_dict()["payouts"]["banker"] == {"outcome": "win", "odds": [1, 2]}


def test_rule_19b_three_card_six_also_pays_half():
    """P 2H 2C 10D = 4; B AS AD 4C = 6 (drew: 2 always draws): banker 6 wins, half pay."""
    out = outcome(cards("2H 2C 10D"), cards("AS AD 4C"))
    assert out.banker_six and out.payouts["banker"].odds == (1, 2)


def test_rules_8c_19c_19d_tie_pays_8_to_1_and_pushes():
    """P AH 6C = 7 stands; B 7D KS = 7 stands: tie. Tie bets 8:1; player and banker push."""
    out = outcome(cards("AH 6C"), cards("7D KS"))
    assert out.winner == "tie"
    assert out.to_dict()["payouts"] == {
        "player": {"outcome": "push", "odds": None},
        "banker": {"outcome": "push", "odds": None},
        "tie": {"outcome": "win", "odds": [8, 1]},
    }


def test_rule_19_tie_on_six_is_not_a_banker_six():
    """P 3H 3C = 6, B 2S 4S = 6: a tie, so no half pay (banker did not win)."""
    out = outcome(cards("3H 3C"), cards("2S 4S"))
    assert out.winner == "tie" and not out.banker_six


def test_rule_19_banker_loses_with_six_is_not_a_banker_six():
    out = outcome(cards("3H 4C"), cards("2S 4S"))  # 7 vs 6
    assert out.winner == "player" and not out.banker_six


def test_result_dict_names_cards_totals_and_naturals():
    d = outcome(cards("4H 4D"), cards("2C 3S")).to_dict()
    assert d["player"] == {"cards": ["4H", "4D"], "total": 8, "natural": True}
    assert d["banker"] == {"cards": ["2C", "3S"], "total": 5, "natural": False}
    assert d["winner"] == "player" and d["banker_six"] is False


# --- rule 21: the action button ---------------------------------------------------------------

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def test_rule_21_action_counts():
    """The action button card chart: A=1, 2-10 face value, J=11, Q=12, K=13."""
    assert [action_count(card(r + "S")) for r in RANKS] == list(range(1, 14))
    with pytest.raises(BaccaratCardError, match="rule 21"):
        action_count(JOKER)


# Hand-worked on an 8-seat table (rule 3). "around_table": position = count mod 8;
# "skip_player_dealer": position = ((count - 1) mod 7) + 1. Seat = pd seat + position, wrapping 8 -> 1.
#                 A  2  3  4  5  6  7  8  9  10 J  Q  K
AROUND_POS_8 = [1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5]
SKIP_POS_8 = [1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6]
ACTION_SEATS_8 = {
    ("around_table", 1): [2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6],
    ("around_table", 5): [6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2],
    ("around_table", 8): [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5],
    ("skip_player_dealer", 1): [2, 3, 4, 5, 6, 7, 8, 2, 3, 4, 5, 6, 7],
    ("skip_player_dealer", 5): [6, 7, 8, 1, 2, 3, 4, 6, 7, 8, 1, 2, 3],
    ("skip_player_dealer", 8): [1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6],
}


@pytest.mark.parametrize("wrap,pd_seat", sorted(ACTION_SEATS_8))
def test_rule_21_action_button_seat_every_rank_8_seats(wrap, pd_seat):
    positions = AROUND_POS_8 if wrap == "around_table" else SKIP_POS_8
    for rank, position, seat in zip(RANKS, positions, ACTION_SEATS_8[(wrap, pd_seat)], strict=True):
        ab = action_button(card(rank + "H"), pd_seat, 8, wrap)
        assert (ab.count, ab.position, ab.seat) == (RANKS.index(rank) + 1, position, seat), rank
        first = seat if position else pd_seat % 8 + 1  # position 0: the player to the player-dealer's left
        assert ab.to_dict() == {"card": rank + "H", "count": ab.count, "position": position, "seat": seat,
                                "first_action_seat": first}


@pytest.mark.parametrize("wrap,positions", [
    # 6 seats: around = count mod 6; skip = ((count - 1) mod 5) + 1.
    ("around_table", [1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 1]),
    ("skip_player_dealer", [1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3]),
])
def test_rule_21_action_position_every_rank_6_seats(wrap, positions):
    assert [action_position(n, 6, wrap) for n in range(1, 14)] == positions


def test_rule_21_position_zero_is_the_player_dealer_first_action_to_the_left():
    """An 8 on an 8-seat table with the player-dealer at seat 3: the button is on seat 3
    (position 0); first action goes to the player to its left, seat 4 (rule 21's covering order)."""
    ab = action_button(card("8D"), 3, 8, "around_table")
    assert (ab.position, ab.seat, ab.first_action_seat) == (0, 3, 4)
    ab = action_button(card("5D"), 3, 8, "around_table")
    assert (ab.position, ab.seat, ab.first_action_seat) == (5, 8, 8)
    ab = action_button(card("KD"), 8, 8, "around_table")  # 13 mod 8 = 5; seat 8 + 5 -> 5
    assert (ab.position, ab.seat) == (5, 5)


# Rule 21, hand-worked: 8 seats, the player-dealer at seat 1 and at seat 6, counts 1..13 (A..K).
# Each row: the button's seat, then who receives first action. "around_table": position =
# count mod 8, so the 8 lands on position 0, the player-dealer's own seat; first action then goes
# to the player to the player-dealer's left (rule 21: "starting with the player to the left of the
# player-dealer position"). "skip_player_dealer": position = ((count - 1) mod 7) + 1, never 0.
#                                     A  2  3  4  5  6  7  8  9  10 J  Q  K
FIRST_ACTION_8 = {
    ("around_table", 1):       {"seat": [2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6],
                                "first": [2, 3, 4, 5, 6, 7, 8, 2, 2, 3, 4, 5, 6]},
    ("around_table", 6):       {"seat": [7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3],
                                "first": [7, 8, 1, 2, 3, 4, 5, 7, 7, 8, 1, 2, 3]},
    ("skip_player_dealer", 1): {"seat": [2, 3, 4, 5, 6, 7, 8, 2, 3, 4, 5, 6, 7],
                                "first": [2, 3, 4, 5, 6, 7, 8, 2, 3, 4, 5, 6, 7]},
    ("skip_player_dealer", 6): {"seat": [7, 8, 1, 2, 3, 4, 5, 7, 8, 1, 2, 3, 4],
                                "first": [7, 8, 1, 2, 3, 4, 5, 7, 8, 1, 2, 3, 4]},
}


@pytest.mark.parametrize("wrap,pd_seat", sorted(FIRST_ACTION_8))
def test_rule_21_first_action_seat_every_count_8_seats(wrap, pd_seat):
    expected = FIRST_ACTION_8[(wrap, pd_seat)]
    got = [action_button(card(rank + "D"), pd_seat, 8, wrap) for rank in RANKS]
    assert [ab.count for ab in got] == list(range(1, 14))
    assert [ab.seat for ab in got] == expected["seat"]
    assert [ab.first_action_seat for ab in got] == expected["first"]
    assert [ab.to_dict()["first_action_seat"] for ab in got] == expected["first"]


def test_rule_21_skip_player_dealer_never_lands_on_the_player_dealer():
    for pd in range(1, 9):
        for n in range(1, 14):
            ab = action_button(card(RANKS[n - 1] + "C"), pd, 8, "skip_player_dealer")
            assert ab.seat != pd and 1 <= ab.position <= 7


def test_action_position_rejects_nonsense():
    with pytest.raises(ValueError, match="unknown action_wrap"):
        action_position(3, 8, "sideways")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least 2 seats"):
        action_position(3, 1)
    with pytest.raises(ValueError, match="not one of seats"):
        rules.seat_at(0, 9, 8)
