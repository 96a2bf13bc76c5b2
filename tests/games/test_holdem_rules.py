"""The Hold'em family's rules (games/holdem/rules.py, options.py), hand-worked from
california-card-room-games.txt: "THE BASIC PLAY OF THE MOTHER GAME TEXAS HOLD'EM", "The
Variations", the Hold'em and Omaha Hi-Lo fee schedules, and the poker room's BLINDS rules."""

from __future__ import annotations

import pytest

from games.cards import cards
from games.decks import standard
from games.holdem import rules
from games.holdem.options import HoldemOptions
from games.options import OptionError
from games.poker.positions import first_to_act

SPEC = standard(1)


# --- positions: "The dealer button moves one place to the left after each hand" (BLINDS) -------

def test_six_players_button_then_the_two_blinds_to_its_left_and_the_button_moves_one_place():
    pos, dealt = rules.hand_positions(6, range(1, 7), None, first_button=1, rule="dead")
    assert (pos.button, pos.blinds, dealt) == (1, (2, 3), frozenset(range(1, 7)))
    assert first_to_act(6, pos, dealt, "first") == 4, "before the flop: the player to the left of the big blind"
    assert first_to_act(6, pos, dealt, "later") == 2, "after it: the first player to the left of the button"
    nxt, _ = rules.hand_positions(6, range(1, 7), pos, first_button=1, rule="dead")
    assert (nxt.button, nxt.blinds) == (2, (3, 4))
    last, _ = rules.hand_positions(6, range(1, 7), rules.hand_positions(6, range(1, 7), None, first_button=5,
                                                                          rule="dead")[0], first_button=1, rule="dead")
    assert (last.button, last.blinds) == (6, (1, 2)), "round the table from seat 6 to seat 1"


def test_heads_up_the_button_posts_the_small_blind_and_acts_first_before_the_flop():
    pos, dealt = rules.hand_positions(2, {1, 2}, None, first_button=1, rule="dead")
    assert (pos.button, pos.blinds) == (1, (1, 2))
    assert first_to_act(2, pos, dealt, "first") == 1 and first_to_act(2, pos, dealt, "later") == 2
    nxt, _ = rules.hand_positions(2, {1, 2}, pos, first_button=1, rule="dead")
    assert (nxt.button, nxt.blinds) == (2, (2, 1))


def test_a_player_who_leaves_leaves_a_dead_button_and_nobody_escapes_the_big_blind():
    pos, _ = rules.hand_positions(6, range(1, 7), None, first_button=1, rule="dead")   # button 1, 2/3
    nxt, dealt = rules.hand_positions(6, {1, 3, 4, 5, 6}, pos, first_button=1, rule="dead")  # seat 2 gone
    assert (nxt.button, nxt.dead_button, nxt.blinds, 2 in dealt) == (2, True, (3, 4), False)
    moving, _ = rules.hand_positions(6, {1, 3, 4, 5, 6}, pos, first_button=1, rule="moving")
    assert (moving.button, moving.dead_button, moving.blinds) == (3, False, (4, 5))


def test_the_first_button_on_an_empty_seat_goes_to_the_first_seat_in_to_its_left():
    pos, _ = rules.hand_positions(6, {3, 5, 6}, None, first_button=1, rule="dead")
    assert (pos.button, pos.blinds) == (3, (5, 6))


def test_fewer_than_two_players_is_no_hand():
    assert rules.hand_positions(6, {4}, None, first_button=1, rule="dead") is None
    assert rules.hand_positions(6, set(), None, first_button=1, rule="dead") is None


def test_a_new_player_in_the_middle_of_the_blinds_waits_for_the_button_to_pass():
    """BLINDS: "A new player may not sit down in the middle of the blinds. He must wait until the
    button passes"; elsewhere he "is automatically dealt a hand"."""
    pos, _ = rules.hand_positions(6, {1, 3, 4, 5, 6}, None, first_button=1, rule="dead")  # button 1, 3/4
    nxt, dealt = rules.hand_positions(6, {1, 2, 3, 4, 5, 6}, pos, first_button=1, rule="dead",
                                      waiting={2: "new"})   # next: button 3 (spot 3), blinds 4/5
    assert (nxt.button, nxt.blinds) == (3, (4, 5)) and 2 in dealt, "seat 2 is not between button and big blind"
    _, dealt = rules.hand_positions(6, {1, 2, 3, 4, 5, 6}, pos, first_button=1, rule="dead", waiting={5: "new"})
    assert 5 in dealt, "seat 5 sits in the big blind: dealt"


# --- fees: the posted schedules -------------------------------------------------------------

@pytest.mark.parametrize("variant, players, fee, jackpot", [
    ("holdem", 9, 400, 100), ("holdem", 7, 400, 100),        # "9-8-7 PLAYERS $4.00", "JACKPOT $1.00"
    ("holdem", 6, 300, 100), ("holdem", 5, 300, 100),        # "6-5- PLAYERS $3.00"
    ("holdem", 4, 100, 0), ("holdem", 2, 100, 0),            # "4 OR LESS PLAYERS $1.00", no jackpot
    ("omaha_hi_lo", 8, 400, 100), ("omaha_hi_lo", 3, 100, 0),
    ("pineapple", 6, 300, 100),                               # economics choice 4: a Hold'em schedule
])
def test_the_default_schedule_is_the_first_the_sheet_posts_for_the_variant(variant, players, fee, jackpot):
    options = HoldemOptions(seats=9, variant=variant)
    take = rules.collection(options.economics, players, options.schedule_name)
    assert (take["fee"], take["jackpot"], take["players"]) == (fee, jackpot, players)


def test_a_three_six_table_names_its_schedule_and_a_table_may_give_its_own():
    options = HoldemOptions(seats=9, schedule="holdem_3_6")
    assert rules.collection(options.economics, 7, "holdem_3_6")["fee"] == 300        # "9-8-7 PLAYERS $3.00"
    own = HoldemOptions(seats=9, schedule={"basis": "pot", "bands": [{"low": 2, "fee": 250}], "jackpot": 0})
    assert own.schedule_name == "table" and rules.collection(own.economics, 9, "table")["fee"] == 250


@pytest.mark.parametrize("values, field, why", [
    ({"variant": "stud"}, "variant", "must be one of holdem"),
    ({"schedule": "stud_4_8"}, "schedule", "'stud_4_8' is not posted for holdem"),
    ({"variant": "omaha", "schedule": "holdem_4_8"}, "schedule", "'holdem_4_8' is not posted for omaha"),
    ({"button": 12}, "button", "must be a seat, 1 to 9"),
    ({"seats": 11}, "seats", "2 to 10 seats"),
    ({"seats_in": (1, 10)}, "seats_in", "10 is not a seat"),
    ({"button_rule": "floating"}, "button_rule", "must be one of dead, moving"),
])
def test_bad_options_name_their_field(values, field, why):
    with pytest.raises(OptionError) as caught:
        HoldemOptions(**{"seats": 9, **values})
    assert caught.value.field == field and why in caught.value.why


# --- the showdown, entered by card codes ----------------------------------------------------

def test_how_many_cards_a_hand_shows_per_variant():
    assert [rules.shown_cards(v) for v in ("holdem", "holdem_hi_lo", "pineapple", "crazy_pineapple",
                                           "omaha_hi_lo")] == [2, 2, 2, 3, 4]


@pytest.mark.parametrize("codes, taken, message", [
    (["AS", "ZZ"], {}, "card 2 of seat 3's hand is not a card code: a rank (2-10, J, Q, K, A) then a suit "
                        "(C, D, H, S)"),
    (["JK", "AS"], {}, "card 1 of seat 3's hand is not a card of the deck (1x52)"),
    (["AS", "AS"], {}, "cards 1 and 2 of seat 3's hand are the same card: one deck holds it once"),
    (["AS", "KD"], {"KD": "the board"}, "card 2 of seat 3's hand is already entered for the board: "
                                      "one deck holds it once"),
    (["AS"], {}, "seat 3's hand is 2 cards, not 1"),
    (["AS", "KD", "QH"], {}, "seat 3's hand is 2 cards, not 3"),
])
def test_a_bad_entry_is_refused_naming_the_card_by_its_place_never_its_code(codes, taken, message):
    taken = {cards(c)[0]: where for c, where in taken.items()}
    with pytest.raises(rules.EntryError) as caught:
        rules.parse_entry(codes, 2, "seat 3's hand", SPEC, taken)
    assert str(caught.value) == message
    for code in ("AS", "KD", "QH", "ZZ", "JK"):
        assert code not in str(caught.value)


def test_holdem_any_five_of_hand_and_board_the_best_high_wins():
    """"any player may use any combination of five cards": seat 1 plays the board's straight with
    a flush of hearts from two of its own; seat 2 has only the straight."""
    board = cards("9H 10H JC QD 2H")
    out = rules.evaluate("holdem", board, {1: cards("AH 3H"), 2: cards("KS 4C")})
    assert [h["high"]["name"] for h in out["hands"]] == ["flush", "straight"]
    assert (out["high"], out["low"], out["pot"]) == ([1], [], "high")


def test_holdem_hi_lo_splits_between_the_best_high_and_the_best_qualifying_low():
    board = cards("AS 4D 7C KH KD")
    out = rules.evaluate("holdem_hi_lo", board, {2: cards("KC 9S"), 5: cards("2C 3H")})
    assert out["high"] == [2] and out["hands"][0]["high"]["name"] == "three of a kind"
    assert out["low"] == [5] and out["hands"][1]["low"]["name"] == "7-4-3-2-A"
    assert out["pot"] == "split"


def test_hi_lo_without_a_qualifying_low_the_high_takes_the_whole_pot():
    board = cards("KS QD 9C 9H 10D")     # three cards above eight: no low is possible
    out = rules.evaluate("holdem_hi_lo", board, {1: cards("AS 2C"), 2: cards("9S 3D")})
    assert (out["high"], out["low"], out["pot"]) == ([2], [], "high")
    assert "no low qualifies" in out["why"]


def test_omaha_takes_exactly_two_from_the_hand():
    """"may only use two cards from their hand": four hearts on the board and one in the hand make
    no flush in Omaha (Hold'em would play it)."""
    board = cards("2H 7H 9H KH 4C")
    hand = cards("AH QS QD 3C")
    omaha = rules.evaluate("omaha_hi_lo", board, {1: hand})["hands"][0]
    assert omaha["high"]["name"] == "pair", "queens: QS QD from the hand, three from the board"
    assert rules.evaluate("crazy_pineapple", board, {1: cards("AH QS QD")})["hands"][0]["high"]["name"] == "flush"
    # Omaha's low: A-3 from the hand, 2-4-7 from the board: 7-4-3-2-A.
    assert omaha["low"]["name"] == "7-4-3-2-A"


def test_omaha_hi_lo_one_seat_scoops_and_ties_share():
    board = cards("2D 5C 8H JS QC")
    out = rules.evaluate("omaha_hi_lo", board, {3: cards("AC 3D QS QD"), 4: cards("AH 3S 9C 9D"),
                                                 6: cards("KS KH 10C 10D")})
    assert out["high"] == [3] and out["hands"][0]["high"]["name"] == "three of a kind"
    assert out["low"] == [3, 4], "A-3 with 2-5-8 on the board: both make 8-5-3-2-A and share the low"
    assert out["pot"] == "split"
