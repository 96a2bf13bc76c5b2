"""Hot Action Blackjack's rules, each against hand-worked examples from the sheet
(california-card-room-games.txt, "HOT ACTION BLACKJACK"; tags I, G, H as in games/hot_action/rules.py)."""

from __future__ import annotations

import pytest

from games.cards import card, cards
from games.hot_action import rules
from games.hot_action.options import HotActionOptions
from games.hot_action.rules import Rules, compare, total
from games.options import OptionError


def t(codes: str, ranked: bool = True) -> rules.Total:
    return total(cards(codes), ranked)


# --- totals: G2, G11, G12, I5 -------------------------------------------------------------------------


@pytest.mark.parametrize("codes, value, soft", [
    ("5C 9D", 14, False),           # G2: face value
    ("KC QD", 20, False),           # G2: face cards 10
    ("AS 7H", 18, True),            # G12: "Ace + 7" is a soft 18 (11 + 7)
    ("JK 6H", 18, True),            # G12: "Joker + 6" is a soft 18 (12 + 6)
    ("AS 10H", 21, True),           # 11 + 10
    ("JK 5C 10D", 17, False),       # 12 + 15 = 27 is over 22: the joker counts 2 (G11), 2 + 5 + 10
    ("AS 5C 10D", 16, False),       # 11 + 15 = 26 over: the ace counts 1
    ("JK JK", 14, True),            # 12 + 12 = 24 over: one joker 12, one 2
    ("AS JK", 13, True),            # 11 + 12 = 23 over: 11 + 2 or 1 + 12, both 13
    ("AS AD AH", 13, True),         # 11 + 11 + 1 = 23 over: 11 + 1 + 1
    ("KC QD 2H", 22, False),        # a drawn 22 (three cards), hard
    ("10C 9D 5H", 24, False),       # I6: over 22, no bust; hard (G11: no soft hands over 22)
    ("AS 10C 9D 5H", 25, False),    # every ace 1 once over 22 (G11)
])
def test_totals_count_aces_1_or_11_and_jokers_2_or_12_closest_to_22(codes, value, soft) -> None:
    got = t(codes)
    assert (got.value, got.soft) == (value, soft)
    assert got.over == (value > 22)
    assert not (got.over and got.soft), "G11: no soft hands over 22"


def test_the_sheets_2_2_joker_is_no_soft_18_under_either_reading_of_the_joker() -> None:
    """G12 calls 2 + 2 + Joker a soft 18; G2's joker (2 or 12) makes 6 or 16 and I11's "two to twelve"
    at most 16: read as a misprint, the definition is carried out (games.hot_action, reading 8)."""
    got = t("2C 2D JK")
    assert (got.value, got.soft) == (16, True)
    assert [2 + 2 + j for j in range(2, 13)][-1] == 16  # no joker value from 2 to 12 makes 18
    assert rules.player_must(cards("2C 2D JK"))[0] == "choice"


@pytest.mark.parametrize("codes, natural, two_card_22", [
    ("AS AD", True, True),          # I5a: "any two Aces" (11 + 11)
    ("JK KH", False, True),         # I5b: 12 + 10
    ("10S JK", False, True),
    ("JK QC", False, True),
    ("KC QD 2H", False, False),     # 22 in three cards is no two card 22
    ("AS 10D", False, False),       # 21
    ("JK JK", False, False),        # 14
])
def test_the_natural_22_and_the_two_card_22(codes, natural, two_card_22) -> None:
    got = t(codes)
    assert (got.natural, got.two_card_22) == (natural, two_card_22)
    assert not t(codes, ranked=False).two_card_22, "H14: a replaced hand cannot rank as a two card 22"


def test_card_values_refuse_a_card_of_another_deck() -> None:
    with pytest.raises(ValueError, match="not a card of this game's deck"):
        rules.point(card("MS"))  # Bet'Win's Beggar
    with pytest.raises(ValueError, match="at least one card"):
        total([])


@pytest.mark.parametrize("up, due", [("AS", True), ("JK", True), ("10H", True), ("KD", True), ("9C", False),
                                     ("2S", False)])
def test_the_check_for_a_two_card_22_is_due_on_an_ace_a_joker_or_a_ten(up, due) -> None:
    """H14: an ace (with an ace), a joker (with a 10-point card), a 10-point card (with a joker)."""
    assert rules.check_due(card(up)) is due


# --- the drawing rules: G9-G13, I10 and the readings ------------------------------------------------------


@pytest.mark.parametrize("codes, must, rule", [
    ("AS 7H", "hit", "G12"),          # soft 18 hits, the dealer hits it (G13)
    ("JK 6H", "hit", "G12"),
    ("10C 8D", "stand", "G9"),        # hard 18
    ("10C 9D 5H", "stand", "G9"),     # over 22 is hard 18 or more
    ("AS 8H", "stand", "G10"),        # soft 19
    ("AS AD", "stand", "G10"),        # soft 22
    ("JK KH", "stand", "G10"),
    ("10C 7D", "choice", "G4"),       # hard 17: the player's choice
    ("AS 6H", "choice", "G4"),        # soft 17
    ("2C 3D", "choice", "G4"),
])
def test_players_hit_soft_18_stand_hard_18_and_soft_19_to_22_and_choose_below(codes, must, rule) -> None:
    got, why = rules.player_must(cards(codes))
    assert got == must and rule in why


@pytest.mark.parametrize("codes, must, rule", [
    ("10C 7D", "hit", "banker_below_18"),   # reading: the Banker draws to 18
    ("2C 3D", "hit", "banker_below_18"),
    ("AS 7H", "hit", "G12"),                # "including the Banker"
    ("10C 8D", "stand", "G9"),
    ("AS 9H", "stand", "G10"),
    ("9C 9D 9H", "stand", "G9"),            # 27, over 22
])
def test_the_bankers_drawing_rules_by_default(codes, must, rule) -> None:
    got, why = rules.banker_must(cards(codes))
    assert got == must and rule in why


def test_the_bankers_readings_hard_18_and_below_18() -> None:
    hit_18 = Rules(banker_hard_18="hit")
    assert rules.banker_must(cards("10C 8D"), hit_18)[0] == "hit", "I10: BANKERS SHOULD HIT HARD 18"
    assert rules.banker_must(cards("10C 9D"), hit_18)[0] == "stand", "hard 19 stands (G9)"
    assert rules.banker_must(cards("AS 7D"), hit_18)[0] == "hit"
    choice = Rules(banker_below_18="choice")
    assert rules.banker_must(cards("10C 5D"), choice)[0] == "choice"
    assert rules.banker_must(cards("AS 7D"), choice)[0] == "hit", "G12 binds the Banker whatever the reading"
    assert rules.banker_must(cards("10C 8D"), choice)[0] == "stand"
    with pytest.raises(ValueError, match="banker_below_18 is one of hit, choice"):
        Rules(banker_below_18="sometimes")


# --- results against the Bank: I5a-d, I7, I8, I9 and the readings ----------------------------------------------


@pytest.mark.parametrize("player, bank, outcome, rule", [
    # I5a: a natural 22 is the highest hand
    ("AS AD", "JK KH", "win", "I5a"),
    ("AS AD", "KC QD 2H", "win", "I5a"),
    ("JK KH", "AC AH", "lose", "I5a"),
    # I5b: a two card 22 beats a hand without one
    ("JK KH", "KC QD 2H", "win", "I5b"),
    ("10C 9D 3H", "JK QC", "lose", "I5b"),
    ("JK 10S", "10C 8D", "win", "I5b"),
    # I5c: both 18-22, closer to 22
    ("10C QD", "10H 9S", "win", "I5c"),
    ("10H 9S", "10C QD", "lose", "I5c"),
    ("KC QD 2H", "10C AD", "win", "I5c"),   # a drawn 22 against 21
    # I8: Bankers win ties on 18
    ("10C 8D", "9H 9S", "lose", "I8"),
    # I5d: both over 22, closer to 22
    ("10C 9D 5H", "10H 9S 7C", "win", "I5d"),   # 24 against 26
    ("10H 9S 7C", "10C 9D 5H", "lose", "I5d"),
    # I7: players win on 13-22 when the Bank goes over 22
    ("10C 3D", "10H 9S 7C", "win", "I7"),
    ("10C 7D", "10H 9S 4C", "win", "I7"),
    ("10C QD", "10H 9S 4C", "win", "I7"),
    # I9: the Bank's 18-22 against a player under 18 or over 22
    ("10C 7D", "10H 8S", "lose", "I9"),
    ("10C 9D 5H", "10H QS", "lose", "I9"),
    ("5C 4D", "10H 8S", "lose", "I9"),
])
def test_results_against_the_bank_by_the_sheet(player, bank, outcome, rule) -> None:
    got, why = compare(t(player), t(bank))
    assert got == outcome and rule in why, why


@pytest.mark.parametrize("player, bank, option, rule", [
    ("10C QD", "10H JS", "tie_19_22", "I5c"),          # a tie on 20
    ("KC QD 2H", "10H 9S 3C", "tie_19_22", "I5c"),     # a tie on a drawn 22
    ("10C 9D 6H", "10H 8S 7C", "tie_over_22", "I5d"),  # 25 each
    ("AS AD", "AC AH", "tie_22s", "I5a"),
    ("JK KH", "JK 10S", "tie_22s", "I5b"),
    ("10C 2D", "10H 9S 4C", "low_vs_over", "I7"),      # the player stood on 12, the Bank went over
    ("2C 3D", "10H 9S 4C", "low_vs_over", "I7"),
])
def test_what_the_sheet_leaves_unnamed_pushes_by_default_or_goes_to_the_bank(player, bank, option, rule) -> None:
    outcome, why = compare(t(player), t(bank))
    assert outcome == "push" and rule in why and "reading" in why, why
    outcome, why = compare(t(player), t(bank), Rules(**{option: "banker"}))
    assert outcome == "lose" and "the Bank wins it" in why, why


def test_a_replaced_hole_card_cannot_make_a_two_card_22_after_the_check() -> None:
    """H14: the Bank's JK-10 after a replacement is a plain 22: it beats a 21 (I5c), ties a drawn 22,
    and loses to a player's two card 22 (I5b)."""
    bank = t("JK 10C", ranked=False)
    assert compare(t("10S AD"), bank)[0] == "lose"
    assert compare(t("KC QD 2H"), bank)[0] == "push"
    assert compare(t("JK KH"), bank)[0] == "win"


def test_a_bank_that_stood_below_18_with_the_choice_reading() -> None:
    """banker_below_18 = choice: closer to 22 wins, a tie pushes, a hand over 22 loses to it."""
    bank = t("10C 6D")
    assert compare(t("10H 7S"), bank)[0] == "win"
    assert compare(t("10H 5S"), bank)[0] == "lose"
    assert compare(t("9H 7S"), bank)[0] == "push"
    assert compare(t("10C 9D 5H"), bank)[0] == "lose"
    assert compare(t("10C 9D"), bank)[0] == "win"


def test_every_win_is_even_money_and_the_banks_round() -> None:
    """G7: the Bank wins or loses up to the amount bet: a natural 22 pays 1 to 1 like any win."""
    won = rules.settle_hand(cards("AS AD"), cards("10C 8D"))
    assert (won.outcome, str(won.pays)) == ("win", "1 to 1")
    result = rules.settle(cards("10C 8D"), {2: cards("AS AD"), 3: cards("9H 9S"), 4: cards("10H QS")})
    assert [s["wagers"][0]["outcome"] for s in result["seats"].values()] == ["win", "lose", "win"]
    assert result["bank"] == {"cards": ["10C", "8D"], "total": 18, "soft": False, "natural": False,
                              "two_card_22": False, "over": False, "ranked": True}
    assert result["bank_round"] == {"wins": 1, "losses": 2, "pushes": 0, "lost_money": None}
    # G6: "unless they lost money": lost bets and won none; lost none; both (the chips decide)
    assert rules.bank_summary(["win", "push"])["lost_money"] is True
    assert rules.bank_summary(["lose", "lose", "push"])["lost_money"] is False
    assert rules.bank_summary(["push"])["lost_money"] is False
    assert rules.bank_summary(["win", "lose"])["lost_money"] is None


# --- the action button: H5, H12 --------------------------------------------------------------------------------

# Hand-worked: seven positions, the Banker's position counted as 1; counter-clockwise is falling seat
# numbers (seats are numbered clockwise), so with the Banker on seat 1 the count runs 1, 7, 6, ... and
# the Banker is 1, 8 and 15.
TOTALS = list(range(3, 19))
SEVEN_CCW = {
    1: [6, 5, 4, 3, 2, 1, 7, 6, 5, 4, 3, 2, 1, 7, 6, 5],
    4: [2, 1, 7, 6, 5, 4, 3, 2, 1, 7, 6, 5, 4, 3, 2, 1],
    7: [5, 4, 3, 2, 1, 7, 6, 5, 4, 3, 2, 1, 7, 6, 5, 4],
}
SEVEN_CW = {1: [3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4]}
FOUR_CW = {3: [1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]}
FOUR_CCW = {2: [4, 3, 2, 1, 4, 3, 2, 1, 4, 3, 2, 1, 4, 3, 2, 1]}


@pytest.mark.parametrize("seats, direction, table", [(7, "counterclockwise", SEVEN_CCW), (7, "clockwise", SEVEN_CW),
                                                     (4, "clockwise", FOUR_CW), (4, "counterclockwise", FOUR_CCW)])
def test_every_dice_total_3_to_18_places_the_button_with_the_banker_in_several_seats(seats, direction, table) -> None:
    for banker, expected in table.items():
        got = [rules.action_button(_dice(total_), banker, seats, direction)["seat"] for total_ in TOTALS]
        assert got == expected, (banker, direction)


def _dice(total_: int) -> tuple[int, int, int]:
    """Three dice with this total (3..18)."""
    a = min(6, total_ - 2)
    b = min(6, total_ - a - 1)
    return (a, b, total_ - a - b)


def test_pay_off_begins_at_the_button_and_leaves_the_banker_out() -> None:
    """H12: from the button's seat, in the order the cards are dealt (rising seat numbers); on the
    Banker's own seat pay-off begins at the next seat."""
    ab = rules.action_button((3, 4, 5), 1, 7, "counterclockwise")   # 12: 1, 7, 6, 5, 4, 3, 2, 1, 7, 6, 5, 4
    assert (ab["seat"], ab["first_payoff_seat"], ab["payoff_order"]) == (4, 4, [4, 5, 6, 7, 2, 3])
    ab = rules.action_button((2, 3, 3), 1, 7, "counterclockwise")   # 8: the Banker's own seat
    assert (ab["seat"], ab["first_payoff_seat"], ab["payoff_order"]) == (1, 2, [2, 3, 4, 5, 6, 7])
    assert ab == {"dice": [2, 3, 3], "total": 8, "banker": 1, "direction": "counterclockwise", "seat": 1,
                  "first_payoff_seat": 2, "payoff_order": [2, 3, 4, 5, 6, 7]}


# --- options --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kw, field, why", [
    ({"seats": 9}, "seats", "2 to 8 positions"),
    ({"seats": 1}, "seats", "2 to 8 positions"),
    ({"decks": 0}, "decks", "G1"),
    ({"decks": 9}, "decks", "G1"),
    ({"first_player_dealer_seat": 8}, "first_player_dealer_seat", "seats 1..7"),
    ({"dice_direction": "sideways"}, "dice_direction", "counterclockwise, clockwise"),
    ({"check_two_card_22": "yes"}, "check_two_card_22", "true or false"),
    ({"banker_below_18": "stand"}, "banker_below_18", "hit, choice"),
    ({"banker_hard_18": "maybe"}, "banker_hard_18", "stand, hit"),
    ({"tie_19_22": "player"}, "tie_19_22", "push, banker"),
    ({"tie_over_22": "player"}, "tie_over_22", "push, banker"),
    ({"tie_22s": "player"}, "tie_22s", "push, banker"),
    ({"low_vs_over": "player"}, "low_vs_over", "push, banker"),
    ({"seats": True}, "seats", "whole number"),
])
def test_options_refuse_what_the_rules_do_not_allow(kw, field, why) -> None:
    with pytest.raises(OptionError) as caught:
        HotActionOptions(**kw)
    assert caught.value.field == field and why in caught.value.why


def test_the_shoe_is_8_decks_of_56_with_4_jokers_each() -> None:
    """G1: 8 x 56 = 448 cards, 32 jokers."""
    spec = HotActionOptions().spec
    assert spec.size == 448 and spec.copies(card("JK")) == 32 and spec.copies(card("AS")) == 8
    assert HotActionOptions(decks=1).spec.size == 56
