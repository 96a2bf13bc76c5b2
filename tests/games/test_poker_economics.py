"""The poker room's fee schedules and jackpot collection (games.poker.economics), every posted row
checked by hand against california-card-room-games.txt: the Hold'em $4-$8 and $3-$6 "FEE
COLLECTION" boards, Omaha Hi-Lo $4-$8, 7 Card Stud $4-$8, 7 Card Stud Hi-Lo's time collection,
Draw Poker & Low-Ball rules 1 & 2, and Panguingue rules 1 and 2. Amounts in cents."""

from __future__ import annotations

import math

import pytest

from games.options import OptionError
from games.poker.economics import (
    ALLOWED,
    GAMES,
    POSTED,
    Economics,
    hand_collection,
    time_collection,
)
from games.poker.showdown import GAMES as SHOWDOWN_GAMES


def econ(**section):
    return Economics.from_mapping(section)


# The sheet's boards, row by row: (players, fee, jackpot) in cents.
HOLDEM_4_8 = [(9, 400, 100), (8, 400, 100), (7, 400, 100), (6, 300, 100), (5, 300, 100),
              (4, 100, 0), (3, 100, 0), (2, 100, 0)]
HOLDEM_3_6 = [(9, 300, 100), (8, 300, 100), (7, 300, 100), (6, 200, 100), (5, 200, 100),
              (4, 100, 0), (3, 100, 0), (2, 100, 0)]
OMAHA_HI_LO_4_8 = HOLDEM_4_8
STUD_4_8 = [(8, 400, 0), (7, 400, 0), (6, 400, 0), (5, 300, 0), (4, 200, 0), (3, 200, 0), (2, 200, 0)]


@pytest.mark.parametrize(("game", "schedule", "rows"), [
    ("holdem", "holdem_4_8", HOLDEM_4_8),
    ("holdem", "holdem_3_6", HOLDEM_3_6),
    ("omaha_hi_lo", None, OMAHA_HI_LO_4_8),
    ("stud", None, STUD_4_8),
])
def test_every_posted_row_of_the_pot_schedules(game, schedule, rows):
    section = {"game": game} | ({"schedule": schedule} if schedule else {})
    e = Economics.from_mapping(section)
    for players, fee, jackpot in rows:
        assert hand_collection(e, players) == {"players": players, "fee": fee, "jackpot": jackpot,
                                               "basis": "pot"}, players


def test_no_jackpot_below_five_players_and_none_in_stud():
    # "MUST HAVE 5 PLAYERS FOR 'JackPot'"; "(THERE IS NO JACKPOT IN THIS GAME)"
    e = econ(game="holdem", schedule="holdem_4_8")
    assert hand_collection(e, 4)["jackpot"] == 0
    assert hand_collection(e, 5)["jackpot"] == 100
    assert all(hand_collection(econ(game="stud"), n)["jackpot"] == 0 for n in range(2, 11))


def test_the_top_row_goes_on_upward():   # choice 2: a tenth Hold'em player, a ninth Stud player
    assert hand_collection(econ(game="holdem", schedule="holdem_4_8"), 10)["fee"] == 400
    assert hand_collection(econ(game="stud"), 9)["fee"] == 400


def test_a_small_pot_pays_the_fee_first_then_the_jackpot():   # choice 3
    e = econ(game="holdem", schedule="holdem_4_8")
    assert hand_collection(e, 6, pot=10_000) == {"players": 6, "fee": 300, "jackpot": 100, "basis": "pot"}
    assert hand_collection(e, 6, pot=350)["fee"] == 300
    assert hand_collection(e, 6, pot=350)["jackpot"] == 50
    assert hand_collection(e, 6, pot=200) == {"players": 6, "fee": 200, "jackpot": 0, "basis": "pot"}
    assert hand_collection(e, 3, pot=0)["fee"] == 0


def test_time_collections_take_nothing_per_hand():
    # Draw & Low-Ball 1 & 2: "The fee of 5.00 is collected every 1/2 hr."
    for game in ("draw", "lowball"):
        got = hand_collection(econ(game=game), 6)
        assert got == {"players": 6, "fee": 0, "jackpot": 0, "basis": "time", "time_fee_each": 500,
                       "period_minutes": 30}
        assert time_collection(econ(game=game), 6) == {"persons": 6, "fee": 3000, "period_minutes": 30}
    # 7 Card Stud Hi-Lo: "$6.00 PER 1/2 HOUR PER PERSON", no jackpot
    hilo = econ(game="stud_hi_lo")
    assert hand_collection(hilo, 8)["fee"] == 0
    assert hand_collection(hilo, 8)["jackpot"] == 0
    assert time_collection(hilo, 7) == {"persons": 7, "fee": 4200, "period_minutes": 30}
    with pytest.raises(ValueError, match="schedule"):
        time_collection(econ(game="stud"), 5)


@pytest.mark.parametrize(("condition", "fee", "ante"), [(200, 200, 200), (500, 300, 500), (1000, 400, 500)])
def test_panguingue_fee_and_ante_by_condition(condition, fee, ante):
    # Panguingue rule 1: "If the condition is 2.00 the fee is 2.00 ante 2.00", 5.00: 3.00 / 5.00,
    # 10.00: 4.00 / 5.00; per player (rule 5 "Each player antes"): 7 players
    got = hand_collection(econ(game="panguingue", condition=condition), 7)
    assert got == {"players": 7, "fee": 7 * fee, "jackpot": 0, "basis": "condition", "fee_each": fee,
                   "ante_each": ante, "ante": 7 * ante, "condition": condition}


def test_panguingue_plays_only_the_posted_conditions():
    # rule 2: "Conditions playable are 2.00 - 5.00 -10.00"
    with pytest.raises(OptionError, match=r"condition: .*2\.00, 5\.00, 10\.00"):
        econ(game="panguingue", condition=300)
    with pytest.raises(OptionError, match="condition"):
        econ(game="panguingue")
    with pytest.raises(OptionError, match="condition: only a Panguingue"):
        econ(game="stud", condition=200)


def test_defaults_and_the_games_that_must_name_a_schedule():   # choice 4
    assert econ(game="razz").schedule is POSTED["stud_4_8"]
    assert econ(game="omaha").schedule is POSTED["omaha_hi_lo_4_8"]
    assert econ(game="lowball").schedule is POSTED["draw_lowball"]
    for game in ("holdem", "holdem_hi_lo", "pineapple", "crazy_pineapple_hi_lo"):
        with pytest.raises(OptionError, match="schedule: the sheet posts 2 schedules"):
            econ(game=game)
        assert econ(game=game, schedule="holdem_3_6").schedule is POSTED["holdem_3_6"]
    with pytest.raises(OptionError, match="schedule: the sheet posts no fee for Mexican Stud"):
        econ(game="mexican_stud")
    with pytest.raises(OptionError, match="schedule: 'stud_4_8' is not posted for holdem"):
        econ(game="holdem", schedule="stud_4_8")
    with pytest.raises(OptionError, match="schedule: no posted schedule 'holdem_5_10'"):
        econ(game="holdem", schedule="holdem_5_10")


def test_every_game_of_the_showdown_has_economics():
    assert set(GAMES) == set(SHOWDOWN_GAMES) | {"panguingue"} == set(ALLOWED)


def test_a_table_schedule_of_its_own():
    e = econ(game="mexican_stud", schedule={
        "basis": "pot", "bands": [{"low": 6, "fee": 300}, {"low": 2, "high": 5, "fee": 200}],
        "jackpot": 50, "jackpot_min_players": 6})
    assert hand_collection(e, 5) == {"players": 5, "fee": 200, "jackpot": 0, "basis": "pot"}
    assert hand_collection(e, 6) == {"players": 6, "fee": 300, "jackpot": 50, "basis": "pot"}
    t = econ(game="holdem", schedule={"basis": "time", "time_fee": 700, "period_minutes": 60})
    assert time_collection(t, 2)["fee"] == 1400


def test_a_collection_each_player_places():
    """MEXICAN POKER: "To receive a hand, each player places a collection in front of him" -- a
    table's own amount per player (the sheet posts none); the jackpot by players as on the posted
    boards, none below 5 ("MUST HAVE 5 PLAYERS FOR 'JackPot'"), and from the pot (choice 4)."""
    e = econ(game="mexican_stud", schedule={"basis": "player", "fee_each": 100, "jackpot": 100})
    assert hand_collection(e, 4) == {"players": 4, "fee": 400, "jackpot": 0, "basis": "player", "fee_each": 100}
    assert hand_collection(e, 5) == {"players": 5, "fee": 500, "jackpot": 100, "basis": "player", "fee_each": 100}
    assert hand_collection(e, 7, pot=60) == {"players": 7, "fee": 700, "jackpot": 60, "basis": "player",
                                             "fee_each": 100}, "the collections are not the pot's: only the jackpot"
    late = econ(game="mexican_stud", schedule={"basis": "player", "fee_each": 50, "jackpot_min_players": 6})
    assert hand_collection(late, 6)["jackpot"] == 0 and hand_collection(late, 6)["fee"] == 300


@pytest.mark.parametrize(("section", "key"), [
    ({"game": "blackjack"}, "game"),
    ({"game": None}, "game"),
    ({"game": "stud", "colour": 1}, "colour"),
    ({"game": "panguingue", "condition": 2.0}, "condition"),
    ({"game": "panguingue", "condition": math.nan}, "condition"),
    ({"game": "panguingue", "condition": -200}, "condition"),
    ({"game": "holdem", "schedule": 5}, "schedule"),
    ({"game": "holdem", "schedule": {"basis": "rake"}}, "schedule.basis"),
    ({"game": "holdem", "schedule": {"basis": "time", "time_fee": -500}}, "schedule.time_fee"),
    ({"game": "holdem", "schedule": {"basis": "time", "time_fee": math.nan}}, "schedule.time_fee"),
    ({"game": "holdem", "schedule": {"basis": "time", "time_fee": 5.0}}, "schedule.time_fee"),
    ({"game": "holdem", "schedule": {"basis": "time", "time_fee": True}}, "schedule.time_fee"),
    ({"game": "holdem", "schedule": {"basis": "time", "time_fee": 500, "period_minutes": 0}},
     "schedule.period_minutes"),
    ({"game": "holdem", "schedule": {"basis": "time", "time_fee": 500, "bands": []}}, "schedule.bands"),
    ({"game": "holdem", "schedule": {"basis": "pot", "bands": []}}, "schedule.bands"),
    ({"game": "holdem", "schedule": {"basis": "pot", "bands": [{"low": 2, "fee": -1}]}}, "schedule.bands[0].fee"),
    ({"game": "holdem", "schedule": {"basis": "pot", "bands": [{"low": 2, "fee": math.nan}]}},
     "schedule.bands[0].fee"),
    ({"game": "holdem", "schedule": {"basis": "pot", "bands": [{"low": 2.5, "fee": 100}]}},
     "schedule.bands[0].low"),
    ({"game": "holdem", "schedule": {"basis": "pot", "bands": [{"low": 2, "high": 4, "fee": 100}]}},
     "schedule.bands"),
    ({"game": "holdem", "schedule": {"basis": "pot", "bands": [{"low": 3, "fee": 100}]}}, "schedule.bands"),
    ({"game": "holdem", "schedule": {"basis": "pot", "bands": [{"low": 2, "high": 5, "fee": 100},
                                                                {"low": 5, "fee": 200}]}}, "schedule.bands"),
    ({"game": "holdem", "schedule": {"basis": "pot", "bands": [{"low": 2, "fee": 100}], "jackpot": -100}},
     "schedule.jackpot"),
    ({"game": "holdem", "schedule": {"basis": "pot", "bands": [{"low": 2, "fee": 100}],
                                     "jackpot_min_players": "5"}}, "schedule.jackpot_min_players"),
    ({"game": "mexican_stud", "schedule": {"basis": "player"}}, "schedule.fee_each"),
    ({"game": "mexican_stud", "schedule": {"basis": "player", "fee_each": -100}}, "schedule.fee_each"),
    ({"game": "mexican_stud", "schedule": {"basis": "player", "fee_each": 1.5}}, "schedule.fee_each"),
    ({"game": "mexican_stud", "schedule": {"basis": "player", "fee_each": 100, "bands": []}}, "schedule.bands"),
    ({"game": "mexican_stud", "schedule": {"basis": "player", "fee_each": 100, "jackpot_min_players": 1}},
     "schedule.jackpot_min_players"),
    ({"game": "panguingue", "condition": 200, "schedule": {"basis": "condition", "conditions": [
        {"condition": 200, "fee": 200}]}}, "schedule.conditions[0]"),
    ({"game": "panguingue", "condition": 200, "schedule": {"basis": "condition", "conditions": [
        {"condition": 200, "fee": 200, "ante": -1}]}}, "schedule.conditions[0].ante"),
])
def test_bad_options_name_their_key(section, key):
    with pytest.raises(ValueError) as caught:
        Economics.from_mapping(section)
    assert isinstance(caught.value, OptionError)
    assert caught.value.field == key
    assert str(caught.value).startswith(f"{key}: ")


@pytest.mark.parametrize("players", [1, 0, -3, 2.0, math.nan, True, "5"])
def test_a_hand_has_a_whole_number_of_players_two_or_more(players):
    with pytest.raises(OptionError, match="players"):
        hand_collection(econ(game="stud"), players)


def test_a_bad_pot_is_refused():
    with pytest.raises(OptionError, match="pot"):
        hand_collection(econ(game="stud"), 5, pot=-1)
    with pytest.raises(OptionError, match="pot: an amount in cents, not NaN"):
        hand_collection(econ(game="stud"), 5, pot=math.nan)


def test_the_options_model_is_frozen():
    e = econ(game="stud")
    with pytest.raises(AttributeError):
        e.game = "razz"   # type: ignore[misc]
