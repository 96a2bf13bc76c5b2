"""games.dice: what a valid reading is, and the seat a dice total reaches (hand-worked)."""

from __future__ import annotations

import pytest

from games.dice import reading_problem, seat_for_total

EIGHT = range(1, 9)


@pytest.mark.parametrize("total, seat", [
    (1, 1), (9, 1), (17, 1),          # GAMES.md, Pai Gow: the banker is 1, 9, 17
    (2, 8), (3, 7), (5, 5), (8, 2),   # counter-clockwise from seat 1: 1, 8, 7, 6, 5 ...
    (10, 8), (18, 8),
])
def test_pai_gow_counts_counterclockwise_from_the_banker(total: int, seat: int) -> None:
    assert seat_for_total(total, 1, EIGHT, "counterclockwise") == seat


def test_a_banker_elsewhere_is_still_one() -> None:
    # banker at seat 4 of 8: 4 is 1, 3 is 2, 2 is 3, 1 is 4, 8 is 5 ... 5 is 8, and 4 again at 9
    assert [seat_for_total(t, 4, EIGHT, "counterclockwise") for t in range(1, 10)] == [4, 3, 2, 1, 8, 7, 6, 5, 4]


def test_clockwise_counts_up_the_seat_numbers_and_wraps() -> None:
    # seats 1..7 from seat 3: 3, 4, 5, 6, 7, 1, 2, 3, 4, 5 (a total of 10 reaches seat 5)
    assert [seat_for_total(t, 3, range(1, 8), "clockwise") for t in range(1, 11)] == [3, 4, 5, 6, 7, 1, 2, 3, 4, 5]


def test_only_the_positions_given_are_counted() -> None:
    # three dice, 18 at most; the positions 2, 5, 7 from 5: 5, 7, 2, 5, 7 ...
    assert seat_for_total(3, 5, (2, 5, 7), "clockwise") == 2
    assert seat_for_total(3, 5, (2, 5, 7), "counterclockwise") == 7


@pytest.mark.parametrize("args, why", [
    ((0, 1, EIGHT, "clockwise"), "a dice total is a whole number from 1, not 0"),
    ((True, 1, EIGHT, "clockwise"), "a dice total is a whole number from 1, not True"),
    ((5, 9, EIGHT, "clockwise"), "seat 9 is not one of the seats counted"),
    ((5, 1, (), "clockwise"), "no seats to count"),
    ((5, 1, (1, 3, 2), "clockwise"), "distinct seat numbers in clockwise order"),
    ((5, 1, EIGHT, "left"), "direction must be clockwise or counterclockwise, not 'left'"),
])
def test_bad_arguments_say_what_is_wrong(args: tuple, why: str) -> None:
    with pytest.raises(ValueError, match=why.replace("(", r"\(")):
        seat_for_total(*args)


def test_a_reading_is_checked_shake_first_then_count_then_faces() -> None:
    assert reading_problem((1, 6, 3), 3, shaken=True) is None
    assert reading_problem((1, 6, 3), 3, shaken=False) == (
        "dice_before_shake", "dice read (1 6 3) before the cup was shaken for this throw")
    assert reading_problem((1, 6), 3, shaken=True) == (
        "dice_count", "2 dice read (1 6), but this throw is of 3 dice")
    assert reading_problem((), 2, shaken=True) == ("dice_count", "0 dice read (no dice), but this throw is of 2 dice")
    assert reading_problem((0, 6, 7), 3, shaken=True) == (
        "dice_value", "die 1 showed 0, die 3 showed 7: a die shows 1 to 6 (read 0 6 7)")
    # no shake is named before the count: the same dice read again are not a throw at all
    assert reading_problem((9,), 3, shaken=False)[0] == "dice_before_shake"
