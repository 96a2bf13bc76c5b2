"""The baccarat scoreboard roads against shoes worked by hand (games/baccarat/roads.py).

Each expectation is a small picture of the road, one line a row, worked out on paper from the
rules in the module's docstring: ``B``/``P``/``T`` a result, ``r``/``b`` a red or blue mark,
``.`` an empty cell. Rows are 6 unless a test says otherwise.
"""

from __future__ import annotations

import textwrap

import pytest

from games.baccarat.roads import (
    Outcome,
    bead_plate,
    big_road,
    derived_marks,
    derived_road,
    place,
    scoreboard,
)


def pic(text: str) -> str:
    return textwrap.dedent(text).strip("\n")


def shoe(text: str) -> list[Outcome]:
    return Outcome.parse(text)


# A shoe with ties at its start, runs of 2, 1, 3, 2, 1, 1 (worked in full below).
SHOE = shoe("TT BB P BBB PP B P")


def test_bead_plate_fills_six_rows_column_by_column_ties_included() -> None:
    assert bead_plate(SHOE).text() == pic("""
        TB
        TB
        BP
        BP
        PB
        BP
    """)


def test_big_road_runs_down_columns_and_ties_at_the_start_go_on_the_first_cell() -> None:
    road = big_road(SHOE)
    assert road.text() == pic("""
        BPBPBP
        B.BP..
        ..B...
        ......
        ......
        ......
    """)
    assert road.at(0, 0).ties == 2 and road.pending_ties == 0
    assert sum(c.ties for c in road.cells) == 2


def test_a_tie_is_counted_on_the_win_before_it() -> None:
    road = big_road(shoe("B T T P T B"))
    assert road.text().splitlines()[0] == "BPB"
    assert [c.ties for c in road.cells] == [2, 1, 0]


def test_a_shoe_of_ties_only_has_no_cell_yet_but_keeps_the_count() -> None:
    road = big_road(shoe("TTT"))
    assert road.cells == () and road.pending_ties == 3
    assert bead_plate(shoe("TTT")).text().startswith("T\nT\nT")


def test_big_eye_boy_starts_at_column_3_row_1_when_column_2_has_one_win() -> None:
    # runs 2,1,3,2,1,1. Column 2 (P) has one win, so the first mark is column 3's first win:
    # col2 (1) vs col1 (2): blue; 2nd B of col3: col2 has no row 2, but row 1: blue; 3rd B: col2
    # is shorter still: red; col4 first: col3 (3) vs col2 (1): blue; col4 2nd: col3 has a row 2:
    # red; col5 first: 2 vs 3 blue; col6 first: 1 vs 2 blue.
    assert derived_marks(SHOE, 1) == ["blue", "blue", "red", "blue", "red", "blue", "blue"]
    assert derived_road(SHOE, "big_eye_boy", "Big eye boy", 1).text() == pic("""
        brbrb
        b...b
        .....
        .....
        .....
        .....
    """)


def test_small_road_starts_at_column_3_row_2_when_column_3_has_it() -> None:
    # col3's 2nd win: col1 has a row 2: red; col3's 3rd: col1 ends at row 2: blue; col4 first:
    # col3 (3) vs col1 (2): blue; col4's 2nd: col2 ends at row 1: blue; col5: 2 vs 1 blue; col6: 1 vs 3 blue.
    assert derived_marks(SHOE, 2) == ["red", "blue", "blue", "blue", "blue", "blue"]
    assert derived_road(SHOE, "small_road", "Small road", 2).text() == pic("""
        rb
        .b
        .b
        .b
        .b
        ..
    """)


def test_cockroach_pig_starts_at_column_4_row_2() -> None:
    # col4's 2nd win: col1 has a row 2: red; col5 first: col4 (2) vs col1 (2): red; col6: col5 (1) vs col2 (1): red.
    assert derived_marks(SHOE, 3) == ["red", "red", "red"]
    assert derived_road(SHOE, "cockroach_pig", "Cockroach pig", 3).text() == pic("""
        r
        r
        r
        .
        .
        .
    """)


def test_derived_roads_start_at_the_next_column_when_columns_have_one_win() -> None:
    chop = shoe("BPBPBP")   # every column one win: each first win compares equal lengths: red
    assert derived_marks(chop, 1) == ["red"] * 4     # from column 3 row 1
    assert derived_marks(chop, 2) == ["red"] * 3     # from column 4 row 1
    assert derived_marks(chop, 3) == ["red"] * 2     # from column 5 row 1
    assert derived_marks(shoe("BPBP"), 3) == []      # cockroach pig has nothing to compare before column 5
    assert derived_marks(shoe("BBP"), 1) == []       # big eye boy: column 2 has no row 2, column 3 not yet
    assert derived_marks(shoe("BPP"), 1) == ["blue"]  # column 2 row 2: column 1 has no row 2, but row 1


def test_dragon_tail_turns_right_at_row_6_and_where_a_tail_lies_below() -> None:
    # 8 B: down to row 6, then right along it. 7 P: down to row 5 (row 6 is the first tail), then right.
    # 6 B: from column 3 down to row 4 (row 5 holds the P tail), then right along row 4. Then P.
    road = big_road(shoe("BBBBBBBB PPPPPPP BBBBBB P"))
    assert road.text() == pic("""
        BPBP.
        BPB..
        BPB..
        BPBBB
        BPPP.
        BBB..
    """)


def test_derived_roads_read_the_runs_whatever_their_tails() -> None:
    # runs 8, 7, 1: column 2's wins 2..7 each find a cell at their row in column 1 (8 long): red;
    # column 3's first: 7 vs 8: blue.
    outcomes = shoe("BBBBBBBB PPPPPPP B")
    assert derived_marks(outcomes, 1) == ["red"] * 6 + ["blue"]
    assert derived_road(outcomes, "big_eye_boy", "Big eye boy", 1).text() == pic("""
        rb
        r.
        r.
        r.
        r.
        r.
    """)


def test_a_run_whose_top_cell_a_tail_took_starts_further_right() -> None:
    # On 2 rows: B B B ends with a tail at row 2; P P P turns at once (row 2 is taken) along row 1,
    # through the top cells of columns 3 and 4; the next B starts at the first free top cell.
    marks = list("BBBPPPB")
    assert place(marks, rows=2) == [(0, 0), (0, 1), (1, 1), (1, 0), (2, 0), (3, 0), (4, 0)]
    assert big_road(shoe("BBBPPPB"), rows=2).text() == pic("""
        BPPPB
        BB...
    """)


def test_pairs_come_from_the_first_two_cards_of_each_hand() -> None:
    def result(winner: str, player: list[str], banker: list[str]) -> dict:
        return {"winner": winner, "player": {"cards": player, "total": 0, "natural": False},
                "banker": {"cards": banker, "total": 0, "natural": False}, "banker_six": False,
                "payouts": {}, "player_dealer": None}

    board = scoreboard([
        result("banker", ["2H", "5C"], ["KD", "KS", "7H"]),   # banker pair (kings)
        result("tie", ["10H", "10C"], ["4D", "6S"]),           # player pair (tens), on the bead plate
        result("player", ["9H", "9C", "AS"], ["QD", "QH"]),    # both
        {"winner": "nobody"},                                  # unreadable: left out, counted
    ])
    grids = {g["name"]: g for g in board["grids"]}
    bead = grids["bead_plate"]["cells"]
    assert [(c["mark"], c.get("banker_pair", False), c.get("player_pair", False)) for c in bead] == [
        ("B", True, False), ("T", False, True), ("P", True, True)]
    big = grids["big_road"]["cells"]
    assert big[0] == {"col": 0, "row": 0, "mark": "B", "ties": 1, "banker_pair": True}
    assert big[1] == {"col": 1, "row": 0, "mark": "P", "banker_pair": True, "player_pair": True}
    assert board["counts"] == {"banker": 1, "player": 1, "tie": 1} and board["unreadable"] == 1
    assert [g["name"] for g in board["grids"]] == ["bead_plate", "big_road", "big_eye_boy", "small_road",
                                                   "cockroach_pig"]


@pytest.mark.parametrize("data", [{}, {"winner": "Banker"}, {"winner": None}, "banker", None])
def test_a_result_without_a_winner_is_refused_by_name(data) -> None:
    with pytest.raises(ValueError, match="winner must be banker, player or tie"):
        Outcome.from_result(data)
