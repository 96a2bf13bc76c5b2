"""Pai Gow Tiles' odds (games/pai_gow_tiles/odds.py): the dice placement counted by hand, and the
offline exact count of the house-way bet (tools/odds/pai_gow_house_way.py, shipped as data)
checked against a seeded simulation of the game's own house way and comparison."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from math import comb

from games.pai_gow_tiles import odds as pg
from games.pai_gow_tiles.hands import compare, house_way
from games.pai_gow_tiles.tiles import all_tiles


def test_three_dice_totals_by_hand():
    """216 throws: 3 and 18 one way each, 10 and 11 twenty-seven ways each."""
    t = pg.totals()
    assert sum(t.values()) == 216 and t[3] == t[18] == 1 and t[10] == t[11] == 27 and t[9] == 25


def test_the_first_tiles_and_the_action_button_by_hand():
    """Rules of Play: the count begins with the banker (1, 9, 17) and goes counterclockwise. The banker
    gets the first tiles on 9 or 17: 25 + 3 = 28 of 216 (7/54); then the action button goes to the
    first position to its right, which so has 28 more to its own (counts 2, 10, 18: 0 + 27 + 1 = 28):
    56/216 = 7/27. Count 5 (totals 5 and 13): 6 + 21 = 27/216 = 1/8."""
    where = pg.placement_odds()
    first, action = where["first_tiles"], where["action"]
    assert first[1] == Fraction(7, 54) and action[1] == 0
    assert first[2] == Fraction(7, 54) and action[2] == Fraction(7, 27)
    assert first[5] == action[5] == Fraction(1, 8) and first[6] == Fraction(25, 216)
    assert sum(first.values()) == sum(action.values()) == 1


def test_the_shipped_house_way_count_is_whole_and_a_simulation_agrees():
    """Every ordered deal counted once (C(32,4) x C(28,4)); 20,000 seeded deals of the game's own
    house way and comparison fall within 4 standard errors of each exact probability."""
    data = pg.house_way_data()
    assert data["script"] == "tools/odds/pai_gow_house_way.py" and data["seed"] is None
    for r in data["results"]:
        assert sum(r["counts"].values()) == r["deals"] == comb(32, 4) * comb(28, 4)
    exact = {o.name.split()[0]: float(o.probability) for o in pg.house_way_bet(True).outcomes}
    rng = random.Random(23)
    tiles = all_tiles()
    n, seen = 20_000, {"win": 0, "push": 0, "lose": 0}
    for _ in range(n):
        deal = rng.sample(tiles, 8)
        seen[compare(house_way(deal[:4]), house_way(deal[4:])).outcome] += 1
    for outcome, p in exact.items():
        assert abs(seen[outcome] / n - p) < 4 * math.sqrt(p * (1 - p) / n), (outcome, seen[outcome] / n, p)


def test_odds_prints_the_placement_and_both_readings_of_the_gee_joon():
    game = pg.odds()
    assert [w.wager for w in game.wagers] == ["bet, both set the house way (a Gee Joon tile 3 or 6)",
                                              "bet, both set the house way (a Gee Joon tile its spots)"]
    assert all(w.total_probability() == 1 and w.method == "exact" for w in game.wagers)
    assert round(float(game.wagers[0].house_edge) * 100, 3) == 1.178
    assert game.notes[1].startswith("  the first four tiles go to position: 1 7/54, 2 7/54")
