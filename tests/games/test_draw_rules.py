"""Draw Poker & Low-Ball's rules (games/draw/rules.py, options.py), hand-worked from
california-card-room-games.txt: "DRAW POKER & LOW-BALL" rules 1-9, "BASICS OF DRAW POKER",
"BASICS OF LO-BALL" (THE SEVEN OR BETTER RULE) and "BLINDS"."""

from __future__ import annotations

import pytest

from controller.table.config import ConfigError, parse_raw
from games.cards import cards
from games.decks import standard
from games.draw import rules
from games.draw.options import DrawOptions
from games.options import OptionError
from games.poker.positions import first_to_act
from hw_sim.table_config import sim_table_raw

SPEC = standard(1, jokers=1)


# --- options: rules 1 & 2 and 3 -------------------------------------------------------------

def test_the_sheets_stakes_and_deck_are_the_defaults():
    options = DrawOptions()
    assert options.ante == 100, "rules 1 & 2: 'Antes of 1.00 are called by the dealer'"
    assert options.blinds == (200, 300, 500), "rules 1 & 2: 'The blinds are 2-3-5'"
    assert (options.spec.size, options.spec.copies(cards("JK")[0])) == (53, 1), "rule 3: 53 cards, rule 4: a joker"
    assert options.schedule_name == "draw_lowball"
    assert options.economics.schedule.time_fee == 500 and options.economics.schedule.period_minutes == 30, \
        "rules 1 & 2: 'The fee of 5.00 is collected every 1/2 hr.'"


def test_options_from_config_take_lists():
    options = DrawOptions.from_config({"variant": "lowball", "blinds": [100, 200], "seats_in": [1, 3, 4]}, 6)
    assert (options.blinds, options.seats_in, options.variant) == ((100, 200), (1, 3, 4), "lowball")


@pytest.mark.parametrize("values, key, why", [
    ({"seats": 9}, "seats", "a Draw table has 2 to 8 seats"),
    ({"seats": 1}, "seats", "a Draw table has 2 to 8 seats"),
    ({"variant": "razz"}, "variant", "must be one of draw, lowball, not 'razz'"),
    ({"ante": -100}, "ante", "an amount in cents may not be negative"),
    ({"ante": 1.5}, "ante", "must be a whole number"),
    ({"blinds": (), "ante": 0}, "ante", "a game without blinds is played for its antes"),
    ({"blinds": (100, 200, 300, 500)}, "blinds", "none to 3 amounts in cents"),
    ({"blinds": (500, 300, 200)}, "blinds", "smallest first (2-3-5), not [500, 300, 200]"),
    ({"blinds": (0, 300)}, "blinds", "a blind is at least one cent"),
    ({"blinds": (True, 300)}, "blinds", "must be a whole number"),
    ({"first_blind": 7}, "first_blind", "must be a seat, 1 to 6, not 7"),
    ({"button_rule": "floating"}, "button_rule", "must be one of dead, moving"),
    ({"seats_in": (1, 9)}, "seats_in", "9 is not a seat of a 6-seat table"),
    ({"seats_in": (1, 1)}, "seats_in", "a seat is listed twice"),
    ({"schedule": "holdem_4_8"}, "schedule", "'holdem_4_8' is not posted for draw"),
    ({"schedule": {"basis": "pot", "bands": [{"low": 3, "fee": 100}]}}, "schedule.bands", "the bands must hold"),
])
def test_bad_options_name_their_key(values, key, why):
    with pytest.raises(OptionError) as caught:
        DrawOptions(**{"seats": 6, **values})
    assert caught.value.field == key and why in caught.value.why, caught.value


@pytest.mark.parametrize("game, line", [
    ({"antes": 100}, "game.antes: unknown key (allowed: ante, blinds, button_rule, first_blind, schedule, seats_in, "
                     "variant)"),
    ({"blinds": [500, 300]}, "game.blinds: smallest first (2-3-5), not [500, 300]"),
    ({"blinds": [200, 300, 500, 1000]}, "game.blinds: must have at most 3 items (got 4)"),
    ({"ante": 1.5}, "game.ante: must be an integer (got 1.5)"),
    ({"first_blind": 7}, "game.first_blind: must be a seat, 1 to 6, not 7"),
    ({"schedule": "holdem_4_8"}, "game.schedule: 'holdem_4_8' is not posted for lowball: draw_lowball"),
])
def test_a_bad_table_config_is_refused_naming_its_key(game, line):
    raw = sim_table_raw("draw")
    raw["game"] = {**raw["game"], **game}
    with pytest.raises(ConfigError) as caught:
        parse_raw(raw)
    assert line in str(caught.value)


# --- positions: rule 5 and BLINDS ------------------------------------------------------------

def test_the_high_card_posts_the_two_dollar_blind_and_the_button_moves_one_place_left():
    """Rule 5: "The player who shows the 'high' card starts with a 2.00 blind and the second player -
    the 3.00 blind. The third player a 5.00 blind." Seat 3 shows the high card, six seats in."""
    pos, dealt = rules.hand_positions(6, range(1, 7), None, first_blind=3, blinds=3, rule="dead")
    assert (pos.button, pos.blinds, dealt) == (2, (3, 4, 5), frozenset(range(1, 7)))
    assert first_to_act(6, pos, dealt, "first") == 6, "'Before the draw ... the player to the left of the blind'"
    assert first_to_act(6, pos, dealt, "later") == 3, "'after the draw, it is the player to the left of the dealer'"
    nxt, _ = rules.hand_positions(6, range(1, 7), pos, first_blind=3, blinds=3, rule="dead")
    assert (nxt.button, nxt.blinds) == (3, (4, 5, 6)), "'The dealer button moves one place to the left'"


def test_the_first_blind_on_an_empty_seat_goes_to_the_next_seat_in_and_heads_up_posts_the_bigger_blinds():
    pos, _ = rules.hand_positions(6, {2, 4, 5}, None, first_blind=1, blinds=3, rule="dead")
    assert (pos.button, pos.blinds) == (2, (2, 4, 5)), "three players, three blinds: seat 2 posts the 2.00"
    pos, _ = rules.hand_positions(6, {2, 4}, None, first_blind=1, blinds=3, rule="dead")
    assert pos.blinds == (None, 2, 4), "heads-up: the 3.00 and the 5.00 (positions choice 2)"
    assert rules.hand_positions(6, {4}, None, first_blind=1, blinds=3, rule="dead") is None


def test_a_deal_from_another_position_moves_the_rotation_there():
    """"If the pot has been opened ... play continues and the next deal follows rotation from the new
    position": the hand dealt from seat 4's button; the next hand's button is seat 5."""
    moved = rules.moved_to(6, range(1, 7), 4, 3)
    assert (moved.button, moved.blinds) == (4, (5, 6, 1))
    nxt, _ = rules.hand_positions(6, range(1, 7), moved, first_blind=1, blinds=3, rule="dead")
    assert (nxt.button, nxt.blinds) == (5, (6, 1, 2))


# --- stakes and the house's collection ------------------------------------------------------

def test_stakes_every_player_antes_and_each_blind_names_its_seat():
    pos, dealt = rules.hand_positions(6, range(1, 7), None, first_blind=1, blinds=3, rule="dead")
    assert rules.stakes(pos, dealt, 100, (200, 300, 500)) == {
        "ante": 100, "antes": 600,
        "blinds": [{"amount": 200, "seat": 1}, {"amount": 300, "seat": 2}, {"amount": 500, "seat": 3}]}
    heads_up, two = rules.hand_positions(6, {2, 4}, None, first_blind=1, blinds=3, rule="dead")
    assert rules.stakes(heads_up, two, 100, (200, 300, 500))["blinds"][0] == {"amount": 200, "seat": None}


def test_the_posted_fee_is_by_time_and_a_tables_own_jackpot_needs_five_players():
    options = DrawOptions(seats=8)
    assert rules.collection(options.economics, 6, "draw_lowball") == {
        "players": 6, "fee": 0, "jackpot": 0, "basis": "time", "time_fee_each": 500, "period_minutes": 30,
        "schedule": "draw_lowball"}
    own = DrawOptions(seats=8, schedule={"basis": "pot", "bands": [{"low": 2, "high": 4, "fee": 100},
                                                                   {"low": 5, "fee": 200}], "jackpot": 100})
    assert rules.collection(own.economics, 5, own.schedule_name) == {
        "players": 5, "fee": 200, "jackpot": 100, "basis": "pot", "schedule": "table"}
    assert rules.collection(own.economics, 4, own.schedule_name)["jackpot"] == 0, "no jackpot below 5"


# --- a hand shown -----------------------------------------------------------------------------

@pytest.mark.parametrize("codes, message", [
    (["AS", "KS", "QS", "JS"], "seat 2's hand is 5 cards, not 4"),
    (["AS", "KS", "QS", "JS", "10S", "9S"], "seat 2's hand is 5 cards, not 6"),
    (["AS", "KS", "QS", "JS", "ZZ"], "card 5 of seat 2's hand is not a card code"),
    (["AS", "KS", "QS", "JS", "1S"], "card 5 of seat 2's hand is not a card of the deck (1x52+1JK)"),
    (["AS", "KS", "QS", "JS", 10], "card 5 of seat 2's hand is not a card code"),
    (["AS", "KS", "QS", "JS", "AS"], "cards 1 and 5 of seat 2's hand are the same card"),
    (["AS", "KS", "QS", "JS", "9D"], "card 5 of seat 2's hand is already entered for seat 4's hand"),
    ("AS KS QS JS 10S", "seat 2's hand is a list of 5 card codes"),
])
def test_a_bad_hand_is_refused_naming_a_place_never_a_code(codes, message):
    with pytest.raises(rules.EntryError) as caught:
        rules.parse_hand(codes, 2, SPEC, {cards("9D")[0]: "seat 4's hand"})
    assert str(caught.value).startswith(message)
    for code in ("AS", "KS", "QS", "JS", "9D", "1S", "ZZ"):
        assert code not in str(caught.value)


def test_the_joker_is_a_card_of_this_deck():
    assert rules.parse_hand(["JK", "AS", "AD", "AH", "AC"], 1, SPEC, {}) == tuple(cards("JK AS AD AH AC"))


# --- the showdown: rules 4, 6, 7, 9 -----------------------------------------------------------

def evaluate(variant: str, hands: dict[int, str], bets: dict[int, bool] | None = None) -> dict:
    return rules.evaluate(variant, {s: cards(h) for s, h in hands.items()}, bets)


def test_draw_five_aces_is_the_best_hand():
    """"Five Aces (four Aces and Joker) is the best possible hand", above a straight flush."""
    out = evaluate("draw", {1: "AS AD AH AC JK", 2: "9H 10H JH QH KH"})
    assert [h["high"]["name"] for h in out["hands"]] == ["five aces", "straight flush"]
    assert (out["high"], out["pot"], out["seven_or_better"]) == ([1], "high", [])


def test_draw_the_bug_is_an_ace_or_completes_a_straight_or_flush_and_nothing_else():
    """Rule 4: "In Draw Poker - the Joker may be used for Aces/Straights and Flushes." With two kings
    it is an ace (a pair of kings, ace kicker), not a third king; with four spades in a row it makes
    the straight flush; "There is no double Ace Flush": with the ace of spades held it is the king."""
    out = evaluate("draw", {1: "JK KS KD 5C 2H", 2: "QS QD QH 7C 3D"})
    assert out["hands"][0]["high"] == {"name": "pair", "key": [1, 13, 14, 5, 2]}
    assert out["high"] == [2], "three queens beat the pair of kings"
    assert evaluate("draw", {1: "JK 2S 3S 4S 5S"})["hands"][0]["high"]["name"] == "straight flush"
    flush = evaluate("draw", {1: "JK AS 9S 7S 4S", 2: "AH KH 9H 7H 3H"})
    assert flush["hands"][0]["high"]["key"] == [5, 14, 13, 9, 7, 4] and flush["high"] == [1]


def test_draw_a_tie_splits_the_pot():
    out = evaluate("draw", {3: "AS KD QH JC 9S", 5: "AD KH QC JD 9H"})
    assert out["high"] == [3, 5] and out["why"].endswith("seats 3, 5 share it"), "rule 9"


def test_lowball_the_wheel_with_the_joker_pairs_and_straights():
    """Rule 4: the joker "can only be used to represent the lowest card 'not actually' held"; rule 7:
    "The best qualifying low hand is Low-Ball is 1,2,3,4,5"; "PAIRS COUNT AGAINST YOU. Straights and
    flushes have no meaning"."""
    out = evaluate("lowball", {1: "JK 2D 3H 4C 5S", 2: "AS 2C 3D 4H 6S", 3: "2H 3S 4D 5D 7H"})
    assert [h["low"]["name"] for h in out["hands"]] == ["wheel", "6-4-3-2-A", "7-5-4-3-2"]
    assert (out["low"], out["high"], out["pot"]) == ([1], [], "low")
    flush = evaluate("lowball", {1: "2H 3H 4H 5H 7H", 2: "7S 6D 4S 3C 2C"})
    assert flush["low"] == [1], "a flush is no matter: 7-5 beats 7-6"
    paired = evaluate("lowball", {1: "AS AD 2H 3C 4D", 2: "KS QD JH 9C 8D"})
    assert paired["low"] == [2], "a pair of aces loses to king high"


@pytest.mark.parametrize("bet, center_only, says", [
    (False, True, "did not bet after the draw: it wins the center pot only"),
    (True, False, "bet after the draw and wins the pot"),
    (None, False, "had it not bet after the draw, it wins the center pot only"),
])
def test_lowball_seven_or_better_must_bet_or_win_no_action_after_the_draw(bet, center_only, says):
    """THE SEVEN OR BETTER RULE: "A player holding a 7,6,5,4,3, or better hand must bet or they cannot
    win any action after the draw. They could still win the center pot". Seat 2's 7-6-5-4-3 is the
    worst such hand and wins; seat 4's 8-4-3-2-A is not one."""
    bets = None if bet is None else {2: bet}
    out = evaluate("lowball", {2: "7S 6D 5H 4C 3S", 4: "8D 4H 3D 2S AC"}, bets)
    assert out["low"] == [2]
    assert [r["seat"] for r in out["seven_or_better"]] == [2]
    ruling = out["seven_or_better"][0]
    assert (ruling["bet_after_draw"], ruling["wins"], ruling["center_pot_only"]) == (bet, True, center_only)
    assert says in ruling["ruling"]


def test_a_losing_seven_or_better_is_named_but_wins_nothing():
    out = evaluate("lowball", {1: "JK 2D 3H 4C 5S", 2: "7S 6D 5H 4S 3S"}, {2: False})
    assert [(r["seat"], r["wins"], r["center_pot_only"]) for r in out["seven_or_better"]] == [(1, True, False),
                                                                                           (2, False, False)]
