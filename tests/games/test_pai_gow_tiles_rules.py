"""Pai Gow Tiles' rules, hand-worked from the sheet (california-card-room-games.txt, "Pai Gow
Tiles": Rules of Play, Scoring, How to Arrange the Tiles, Hand Rankings, House Way).

Tiles are written by their halves' spots: Teen 6-6, Dey 1-1, Yun 4-4, Gor 1-3, Mooy 5-5, Chong 3-3,
Bon 2-2, Foo 5-6, Ping 4-6, Tit 1-6, Look 1-5; Mixed 9s 4-5 and 3-6, 8s 3-5 and 2-6, 7s 3-4 and
2-5, 5s 1-4 and 2-3; Gee Joon 1-2 and 2-4.
"""

from __future__ import annotations

import pytest

from games.pai_gow_tiles.hands import (
    arrangement_problem,
    beats,
    compare,
    hand,
    house_way,
    points,
    setting,
    splits,
)
from games.pai_gow_tiles.rules import HandRefused, placement, read_hand, settle, settle_seat
from games.pai_gow_tiles.tiles import KINDS, all_tiles, full_set, over_the_set, pair_rank, pairs, tile, tiles


def h(a: str, b: str, wild: bool = True):
    return hand(tile(a), tile(b), gee_joon_wild=wild)


def s(high: str, low: str):
    """A setting from ``"6-6 4-5"`` and ``"1-5 3-4"``."""
    return setting(tiles(high.split()), tiles(low.split()))


# --- the set ----------------------------------------------------------------------------------

def test_the_set_is_32_tiles_eleven_matched_kinds_twice_and_ten_mixed_tiles_once() -> None:
    counts = full_set()
    assert sum(counts.values()) == 32 and len(counts) == 21  # every way two dice fall
    assert len(all_tiles()) == 32
    twice = sorted(c for c, n in counts.items() if n == 2)
    assert twice == sorted(["6-6", "1-1", "4-4", "1-3", "5-5", "3-3", "2-2", "5-6", "4-6", "1-6", "1-5"])
    spots = {kind: [tile(c).spots for c in codes] for kind, codes in KINDS}
    assert spots == {"teen": [12], "dey": [2], "yun": [8], "gor": [4], "mooy": [10], "chong": [6], "bon": [4],
                     "foo": [11], "ping": [10], "tit": [7], "look": [6], "mixed_9": [9, 9], "mixed_8": [8, 8],
                     "mixed_7": [7, 7], "mixed_5": [5, 5], "gee_joon": [3, 6]}


def test_the_16_pairs_highest_first() -> None:
    """Hand Rankings: Supreme Pair, Matched Pairs, Unmatched Pairs (Mixed 9s, 8s, 7s, 5s)."""
    assert [f"{a}+{b}" for a, b in pairs()] == [
        "1-2+2-4", "6-6+6-6", "1-1+1-1", "4-4+4-4", "1-3+1-3", "5-5+5-5", "3-3+3-3", "2-2+2-2", "5-6+5-6",
        "4-6+4-6", "1-6+1-6", "1-5+1-5", "4-5+3-6", "3-5+2-6", "3-4+2-5", "1-4+2-3"]
    ranks = [pair_rank(a, b) for a, b in pairs()]
    assert ranks == list(range(16, 0, -1))
    keys = [hand(a, b).key for a, b in pairs()]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == 16, "every pair outranks the next"
    assert hand(*pairs()[0]).kind == "supreme_pair" and {hand(a, b).kind for a, b in pairs()[1:]} == {"pair"}


def test_what_is_not_a_pair() -> None:
    assert pair_rank(tile("4-5"), tile("4-5")) is None, "one copy of each mixed tile"
    assert pair_rank(tile("4-5"), tile("3-5")) is None, "a 9 and an 8"
    assert pair_rank(tile("1-3"), tile("2-2")) is None, "Gor and Bon are both 4 spots but two kinds"
    assert pair_rank(tile("1-5"), tile("3-3")) is None, "Look and Chong are both 6 spots"


def test_tile_codes() -> None:
    assert tile("6-5") == tile("5-6") and tile("6-5").kind == "foo"
    for bad in ("7-1", "0-3", "66", "teen", "6 - 6", ""):
        with pytest.raises(ValueError, match="is not a tile: a tile is its two halves' spots"):
            tile(bad)
    with pytest.raises(ValueError, match="'int' is not a tile"):
        tile(66)  # type: ignore[arg-type]


def test_tiles_over_the_set() -> None:
    assert over_the_set([tiles(["6-6", "6-6", "1-1", "1-1"])]) is None
    assert over_the_set([tiles(["6-6", "6-6", "1-1", "4-5"]), tiles(["6-6", "2-2", "3-3", "1-3"])]) == (
        "tile 6-6 (teen) appears 3 times, but the set of 32 holds it twice (Rules of Play: 32 tiles, 16 pairs)")
    assert "tile 4-5 (mixed_9) appears 2 times, but the set of 32 holds it once" in over_the_set(
        [tiles(["4-5", "4-5", "1-1", "2-2"])])


# --- Scoring ------------------------------------------------------------------------------------

def test_scoring_examples_of_the_sheet() -> None:
    """"A 12-spot tile has a value of 2"; "An 8-spot tile and a 9-spot tile have a value of 17 which
    equals 7"."""
    assert points(tile("6-6"), tile("1-1")) == 4      # 12 + 2 = 14: 4
    assert h("4-4", "4-5").kind == "points" and h("4-4", "4-5").points == 7   # Yun is no Teen or Dey
    assert h("3-5", "3-6").points == 7
    assert h("6-6", "1-5").points == 8                 # 12 + 6 = 18


def test_wong_gong_and_high_nine() -> None:
    """Hand Rankings: WONG "Any 2 or 12-spot tile and any 9-spot tile", GONG "Any 2 or 12-spot with
    any 8-spot tile"; a high nine is Teen or Dey with a 7: a 9 with the best high tile."""
    for a, b in (("6-6", "4-5"), ("6-6", "3-6"), ("1-1", "4-5"), ("1-1", "3-6")):
        assert h(a, b).kind == "wong" and h(b, a).kind == "wong"
    for a, b in (("6-6", "4-4"), ("6-6", "3-5"), ("6-6", "2-6"), ("1-1", "4-4"), ("1-1", "3-5"), ("1-1", "2-6")):
        assert h(a, b).kind == "gong"
    assert h("6-6", "1-6").high_nine and h("6-6", "1-6").points == 9
    assert h("1-1", "3-4").high_nine and h("1-1", "2-5").high_nine
    assert not h("5-5", "4-5").high_nine and h("5-5", "4-5").points == 9   # Mooy 10 + 9 = 19: 9, no Teen
    # the order: pair > wong > gong > 9 points; within each, the high tile
    ladder = [h("1-5", "1-5"), h("6-6", "4-5"), h("1-1", "3-6"), h("6-6", "4-4"), h("1-1", "2-6"),
              h("6-6", "1-6"), h("1-1", "3-4"), h("5-5", "4-5"), h("1-5", "1-2")]
    assert [x.key for x in ladder] == sorted((x.key for x in ladder), reverse=True)
    assert beats(h("6-6", "4-5"), h("1-1", "4-5")) == "player", "a Teen wong beats a Dey wong"
    assert beats(h("1-1", "2-6"), h("6-6", "1-6")) == "player", "a gong beats a high nine"


def test_gee_joon_counts_3_or_6_outside_the_supreme_pair_unless_the_option_says_no() -> None:
    assert h("1-2", "5-6").points == 7 and h("1-2", "5-6", wild=False).points == 4   # 6 + 11, or 3 + 11
    assert h("2-4", "1-3").points == 7 and h("2-4", "1-3", wild=False).points == 0   # 3 + 4, or 6 + 4
    assert h("1-2", "2-4").kind == "supreme_pair"


def test_ties_copies_and_two_zeros_go_to_the_banker() -> None:
    """Scoring: the same value -> the highest ranked tile decides; the same value and identical
    high tiles is a copy, won by the player/dealer; two zeros go to the player/dealer "regardless
    of the high tile"."""
    assert beats(h("6-6", "1-4"), h("3-4", "5-5")) == "player"     # 7 and 7: Teen over Mooy
    assert beats(h("3-4", "5-5"), h("6-6", "1-4")) == "banker"
    assert beats(h("4-5", "2-2"), h("3-6", "1-3")) == "banker"     # 3 and 3: Gor over Bon
    assert beats(h("4-5", "2-2"), h("3-6", "2-2")) == "banker"     # a copy: 3, high tile Bon both
    assert beats(h("6-6", "4-5"), h("6-6", "3-6")) == "banker"     # two Teen wongs: a copy
    assert beats(h("6-6", "4-4"), h("6-6", "3-5")) == "banker"     # two Teen gongs: only the high tile counts
    assert beats(h("1-3", "3-3"), h("5-5", "4-6")) == "banker"     # 0 and 0, Gor over Mooy: still the banker's
    assert beats(h("1-3", "1-4"), h("5-5", "4-6")) == "player"     # 9 and 0
    assert beats(h("1-5", "1-2"), h("1-5", "2-4")) == "banker"     # 9 and 9, Look both: a copy


# --- setting two hands ----------------------------------------------------------------------------

def test_the_low_hand_may_not_outrank_the_high_hand() -> None:
    """Rules of Play: four tiles set "into two hands; each consisting of two tiles, with the high
    hand in one stack and the low hand in another"."""
    why = arrangement_problem(tiles(["1-5", "2-2"]), tiles(["6-6", "1-6"]))
    assert why == ("the low hand high nine (teen+tit) outranks the high hand 0 points (bon+look): the high "
                   "hand must be the higher of the two (Rules of Play)")
    with pytest.raises(ValueError, match="outranks the high hand"):
        s("1-5 2-2", "6-6 1-6")
    assert arrangement_problem(tiles(["4-5", "2-2"]), tiles(["3-6", "2-2"])) is None, "equal is not higher"
    assert "not 3 high and 1 low" in arrangement_problem(tiles(["4-5", "2-2", "1-1"]), tiles(["3-6"]))


def test_the_three_ways_to_set_four_tiles() -> None:
    ways = splits(tiles(["6-6", "4-5", "1-5", "3-4"]))
    assert sorted((w.high.describe(), w.low.describe()) for w in ways) == sorted([
        ("wong (teen+mixed_9)", "3 points (look+mixed_7)"),
        ("8 points (teen+look)", "6 points (mixed_9+mixed_7)"),
        ("high nine (teen+mixed_7)", "5 points (look+mixed_9)")])


# --- comparing with the banker --------------------------------------------------------------------

def test_win_push_and_lose_against_the_banker() -> None:
    """Rules of Play: a player wins if both hands rank higher, pushes if only one does, loses if
    neither (high against high, low against low); identical hands go to the player/dealer."""
    banker = s("6-6 4-5", "1-5 3-4")                    # wong, 3
    assert compare(s("1-1 1-1", "4-6 1-6"), banker).outcome == "win"     # Dey pair > wong; 7 > 3
    assert compare(s("1-1 1-1", "2-2 1-5"), banker).outcome == "push"    # pair > wong; 10: 0 < 3
    assert compare(s("1-1 2-6", "4-6 1-6"), banker).outcome == "push"    # gong < wong; 7 > 3
    assert compare(s("1-1 2-6", "2-2 1-5"), banker).outcome == "lose"    # gong < wong; 10: 0 < 3
    assert compare(s("6-6 3-6", "1-5 2-5"), banker).outcome == "lose", "copies both ways: the banker's"
    result = settle_seat(s("1-1 1-1", "4-6 1-6"), banker)
    assert result == {"high": "player", "low": "player", "wager": "bet", "outcome": "win", "pays": "1 to 1",
                      "why": "both hands rank higher than the player-dealer's (Rules of Play)"}
    assert settle_seat(s("6-6 3-6", "1-5 2-5"), banker)["pays"] is None


def test_a_push_won_by_the_low_hand() -> None:
    """Dey + 2-6 is a gong, lower than the banker's wong; 3-6 + 1-5 is 15: 5 points, higher than the
    banker's 3 (Look + 3-4 = 13): one hand each, a push."""
    banker = s("6-6 4-5", "1-5 3-4")
    assert compare(s("1-1 2-6", "3-6 1-5"), banker).outcome == "push"


# --- the house way ---------------------------------------------------------------------------------

def hw(four: str) -> tuple[str, str]:
    w = house_way(tiles(four.split()))
    return w.high.describe(), w.low.describe()


def test_house_way_keeps_a_pair_it_may_not_split() -> None:
    """"Most valuable high hand is a pair"; "Never split pairs with tiles that have 4, 5, 6, 10 or 11 spots"."""
    assert hw("2-2 2-2 6-6 1-6") == ("pair (bon+bon)", "high nine (teen+tit)")
    assert hw("5-5 5-5 4-5 1-6") == ("pair (mooy+mooy)", "6 points (tit+mixed_9)")
    assert hw("6-6 6-6 1-1 1-1") == ("pair (teen+teen)", "pair (dey+dey)")


def test_house_way_splits_the_supreme_pair_with_a_6_and_a_4_5_or_6() -> None:
    assert hw("1-2 2-4 3-3 2-2") == ("9 points (chong+gee_joon)", "7 points (bon+gee_joon)")
    assert hw("1-2 2-4 3-3 1-1") == ("supreme pair (gee_joon+gee_joon)", "8 points (dey+chong)")


def test_house_way_splits_teen_or_dey_for_a_low_of_6_or_with_a_9_or_11() -> None:
    assert hw("6-6 6-6 4-5 1-5") == ("wong (teen+mixed_9)", "8 points (teen+look)")
    assert hw("6-6 6-6 2-2 1-6") == ("high nine (teen+tit)", "6 points (teen+bon)")  # the low after the split is 6
    assert hw("6-6 6-6 2-2 1-1") == ("pair (teen+teen)", "6 points (dey+bon)")       # it would be 4: kept
    assert hw("1-1 1-1 5-6 2-2") == ("6 points (dey+bon)", "3 points (dey+foo)")     # an 11-spot tile


def test_house_way_splits_7s_8s_and_9s_as_the_sheet_says() -> None:
    assert hw("1-6 1-6 6-6 1-1") == ("high nine (teen+tit)", "high nine (dey+tit)")  # 7s with Teen and Dey
    assert hw("3-4 2-5 6-6 1-3") == ("pair (mixed_7+mixed_7)", "6 points (teen+gor)")  # no Dey: kept
    assert hw("4-4 4-4 6-6 1-1") == ("gong (teen+yun)", "gong (dey+yun)")            # 8s: low 7 or more
    assert hw("4-4 4-4 1-3 2-2") == ("pair (yun+yun)", "8 points (gor+bon)")         # low would be 2: kept
    assert hw("4-5 3-6 6-6 1-1") == ("wong (teen+mixed_9)", "wong (dey+mixed_9)")    # 9s: low 9 or more
    assert hw("4-5 3-6 1-6 1-5") == ("pair (mixed_9+mixed_9)", "3 points (tit+look)")  # low would be 6


def test_house_way_without_a_pair_wong_then_gong_then_largest_with_smallest() -> None:
    """How to Arrange the Tiles 4-7, read as the high hand's preference."""
    assert hw("6-6 4-5 1-5 3-4") == ("wong (teen+mixed_9)", "3 points (look+mixed_7)")
    assert hw("1-1 3-5 5-6 1-4") == ("gong (dey+mixed_8)", "6 points (foo+mixed_5)")
    assert hw("6-6 1-5 4-6 1-4") == ("7 points (teen+mixed_5)", "6 points (ping+look)")
    with pytest.raises(ValueError, match="sets four tiles, not 3"):
        house_way(tiles(["6-6", "1-5", "4-6"]))


# --- the dice: where the action button and the first tiles go -------------------------------------

# Hand-worked: the banker counts 1, the next position counterclockwise (the next lower seat number)
# 2, ..., so with 8 positions the banker is 1, 9 and 17. total -> the position the count reaches.
REACHES = {
    1: {3: 7, 4: 6, 5: 5, 6: 4, 7: 3, 8: 2, 9: 1, 10: 8, 11: 7, 12: 6, 13: 5, 14: 4, 15: 3, 16: 2, 17: 1, 18: 8},
    4: {3: 2, 4: 1, 5: 8, 6: 7, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1, 13: 8, 14: 7, 15: 6, 16: 5, 17: 4, 18: 3},
    8: {3: 6, 4: 5, 5: 4, 6: 3, 7: 2, 8: 1, 9: 8, 10: 7, 11: 6, 12: 5, 13: 4, 14: 3, 15: 2, 16: 1, 17: 8, 18: 7},
}
RIGHT_OF = {1: 8, 4: 3, 8: 7}
"""The first position to the banker's right (counterclockwise)."""


@pytest.mark.parametrize("banker", sorted(REACHES))
@pytest.mark.parametrize("total", range(3, 19))
def test_every_total_3_to_18_reaches_its_seat_counting_counterclockwise_from_the_banker(banker, total) -> None:
    p = placement(total, banker)
    assert p.reaches == REACHES[banker][total]
    if total in (9, 17):
        # Rules of Play: the banker receives the first four tiles, the Action button goes to the first
        # player to the right (counter-clockwise) of the banker
        assert p.first_tiles == banker and p.action == RIGHT_OF[banker]
    else:
        assert p.first_tiles == p.action == REACHES[banker][total]
    assert len(p.deal_order) == 8 and set(p.deal_order) == set(range(1, 9)) and p.deal_order[0] == p.first_tiles


def test_the_order_of_the_deal_goes_counterclockwise_from_the_first_tiles() -> None:
    assert placement(14, 1).deal_order == (4, 3, 2, 1, 8, 7, 6, 5)
    assert placement(9, 1).to_dict() == {"reaches": 1, "first_tiles_seat": 1, "action_seat": 8,
                                         "deal_order": [1, 8, 7, 6, 5, 4, 3, 2]}


@pytest.mark.parametrize("total", [2, 19, 0, True, 9.0])
def test_a_total_three_dice_cannot_make_is_refused(total) -> None:
    with pytest.raises(ValueError, match="three dice total 3 to 18"):
        placement(total, 1)


# --- a disputed hand as entered ---------------------------------------------------------------------

def test_a_hand_as_set_and_a_hand_set_the_house_way() -> None:
    entered = read_hand({"high": ["6-6", "4-5"], "low": ["1-5", "3-4"]})
    assert entered.set_by == "as_set" and entered.setting.high.kind == "wong"
    house = read_hand({"tiles": ["1-6", "1-6", "6-6", "1-1"], "set": "house"})
    assert house.set_by == "house_way" and house.setting.high.high_nine and house.setting.low.high_nine
    assert house.to_dict()["set_by"] == "house_way"


@pytest.mark.parametrize("entry, why", [
    ({"high": ["6-6", "7-1"], "low": ["1-5", "3-4"]}, "high[1] is not a tile: a tile is its two halves' spots, 1 to 6 each"),
    ({"high": ["6-6"], "low": ["1-5", "3-4"]}, "a hand is four tiles (Rules of Play: \"four tiles to each player\"), "
                                               "set two high and two low; got 1 high and 2 low"),
    ({"high": ["6-6", "4-5", "1-1"], "low": ["1-5", "3-4"]}, "got 3 high and 2 low"),
    ({"high": ["4-5", "4-5"], "low": ["1-5", "3-4"]}, "tile 4-5 (mixed_9) appears 2 times, but the set of 32 "
                                                      "holds it once"),
    ({"high": ["1-5", "2-2"], "low": ["6-6", "1-6"]}, "outranks the high hand"),
    ({"tiles": ["6-6", "6-6", "6-6", "1-1"], "set": "house"}, "tile 6-6 (teen) appears 3 times"),
    ({"tiles": ["6-6", "4-5", "1-1"], "set": "house"}, "got 3 tiles"),
    ({"tiles": ["6-6", "4-5", "1-1", "2-2"]}, "come as {\"tiles\": [...], \"set\": \"house\"}"),
    ({"high": ["6-6", "4-5"]}, "names its high hand and its low hand"),
    ({"high": "6-6 4-5", "low": ["1-5", "3-4"]}, "high: a list of tiles"),
    (["6-6", "4-5", "1-5", "3-4"], "a hand is {\"high\""),
])
def test_a_hand_out_of_the_rules_is_refused_with_its_reason(entry, why) -> None:
    with pytest.raises(HandRefused) as caught:
        read_hand(entry)
    assert why in str(caught.value)


def test_settle_every_entered_seat() -> None:
    banker = read_hand({"high": ["6-6", "4-5"], "low": ["1-5", "3-4"]})
    seats = {5: read_hand({"high": ["1-1", "2-6"], "low": ["4-6", "1-6"]}),
             3: read_hand({"high": ["1-1", "1-1"], "low": ["4-6", "1-6"]})}
    out = settle(banker, seats)
    assert list(out) == ["3", "5"]
    assert out["3"]["outcome"] == "win" and out["5"]["outcome"] == "push"
    assert out["5"]["high"] == "banker" and out["5"]["low"] == "player"
    assert out["3"]["hand"]["high"] == {"tiles": ["1-1", "1-1"], "kind": "pair", "points": 4, "high_nine": False}


def test_the_house_way_sets_every_hand_of_the_set_legally() -> None:
    """Every four tiles the set can deal (each distinct hand once): the house way uses exactly those
    tiles, two high and two low, and never sets the low hand above the high one."""
    from itertools import combinations

    hands = {tuple(sorted(t.code for t in four)) for four in combinations(all_tiles(), 4)}
    assert len(hands) == 8130   # the x^4 coefficient of (1 + x + x^2)^11 (1 + x)^10: 11 kinds twice, 10 once
    for codes in hands:
        for wild in (True, False):
            w = house_way(tiles(codes), gee_joon_wild=wild)
            assert sorted(t.code for t in w.high.tiles + w.low.tiles) == list(codes)
            assert w.high.key >= w.low.key and arrangement_problem(w.high.tiles, w.low.tiles, gee_joon_wild=wild) is None
