"""The Stud family's rules (games/stud/rules.py, options.py), hand-worked from
california-card-room-games.txt: "STUD POKER AND VARIATIONS" (7-CARD STUD, 7-CARD STUD HIGH-LOW
SPLIT, "RAZZ"), the STUD POKER HOUSE RULES, and the 7 Card Stud and Stud Hi-Lo fee schedules."""

from __future__ import annotations

import pytest

from games.cards import cards
from games.decks import standard
from games.options import OptionError
from games.stud import rules
from games.stud.options import StudOptions

SPEC = standard(1)


def up(street_cards: dict[int, dict[int, str]]) -> dict[int, dict[int, object]]:
    return {street: {s: cards(c)[0] for s, c in seats.items()} for street, seats in street_cards.items()}


def acts(variant: str, street: int, entered: dict[int, dict[int, str]]) -> dict:
    return rules.who_acts(variant, StudOptions(variant=variant).game, street, up(entered))


# --- 3rd street: the bring-in --------------------------------------------------------------

def test_the_bring_in_is_the_lowest_up_card_with_the_ace_high_and_suits_breaking_ties():
    """"The low card by suit (Clubs are lowest, Diamonds, Hearts, then Spades) initiates betting
    action on the first round, with an Ace counting as a high card for this purpose." Two deuces:
    the club is lower than the diamond; the ace is high, not low."""
    first = acts("seven_card_stud", 3, {3: {1: "AS", 2: "2D", 3: "2C", 4: "KH"}})
    assert first["seat"] == 3 and first["by"] == "bring_in"
    assert acts("stud_hi_lo", 3, {3: {1: "AC", 2: "3S", 5: "3H"}})["seat"] == 5, "hearts below spades"


def test_razz_the_bring_in_is_the_highest_up_card_king_high_ace_low():
    """"in RAZZ, the high card has the forced opening": two kings, the spade is higher than the
    club (House Rules: "Spades (highest), Hearts, Diamonds, Clubs"); the ace is low in Razz."""
    assert acts("razz", 3, {3: {1: "KC", 2: "KS", 3: "AS", 4: "QH"}})["seat"] == 2
    assert acts("razz", 3, {3: {1: "AS", 2: "2C"}})["seat"] == 2, "a deuce is higher than an ace in Razz"


# --- later streets: the best hand showing ----------------------------------------------------

def test_on_later_streets_the_high_hand_showing_acts_first_ties_to_the_left_of_the_dealer():
    """"On subsequent rounds, the high hand initiates action. If there is a tie, the player to the
    left of the dealer acts first." A pair of nines showing beats ace-king; K-5 against K-5: seat 1,
    the first to the dealer's left."""
    assert acts("seven_card_stud", 4, {3: {1: "AS", 2: "9C"}, 4: {1: "KD", 2: "9D"}})["seat"] == 2
    tie = acts("seven_card_stud", 4, {3: {4: "KC", 6: "KH"}, 4: {4: "5D", 6: "5S"}})
    assert tie["seat"] == 4 and tie["by"] == "high_showing"


def test_razz_the_low_hand_showing_acts_first():
    """"the low hand is first to act thereafter": 5-2 is a better low than 6-A; a pair is worst."""
    out = acts("razz", 4, {3: {1: "2C", 2: "AS", 3: "4H"}, 4: {1: "5D", 2: "6D", 3: "4S"}})
    assert (out["seat"], out["by"]) == (1, "low_showing")


def test_seventh_street_is_led_by_who_was_high_on_sixth():
    """"The player who was high on 6th Street will initiate the action" (7th street is dealt down)."""
    entered = {3: {1: "2C", 2: "AS"}, 4: {1: "3D", 2: "AD"}, 5: {1: "7H", 2: "4C"}, 6: {1: "9S", 2: "5C"}}
    assert acts("seven_card_stud", 6, entered)["seat"] == 2
    seventh = acts("seven_card_stud", 7, entered)
    assert seventh["seat"] == 2 and "6th street" in seventh["why"]


def test_first_to_act_is_unknown_without_the_up_cards_and_not_guessed_from_part_of_a_showing():
    """Choice 2: a seat entered on 5th street whose 4th street up card was not entered."""
    assert acts("seven_card_stud", 3, {})["seat"] is None
    out = acts("seven_card_stud", 5, {3: {1: "2C", 2: "AS"}, 5: {1: "3D", 2: "AD"}})
    assert out["seat"] is None and out["why"] == "seat 1's up card of 4th street was not entered"


# --- the fee per hand ------------------------------------------------------------------------

@pytest.mark.parametrize("players, fee", [(8, 400), (6, 400), (5, 300), (4, 200), (2, 200)])
def test_seven_card_stud_fee_by_players_and_no_jackpot(players, fee):
    """"8-7-6- PLAYERS $4.00 / 5 PLAYERS $3.00 / 4 OR LESS PLAYERS $2.00 (THERE IS NO JACKPOT IN
    THIS GAME)"."""
    options = StudOptions(variant="seven_card_stud")
    take = rules.collection(options.economics, players, options.schedule_name)
    assert take == {"players": players, "fee": fee, "jackpot": 0, "basis": "pot", "schedule": "stud_4_8"}


def test_razz_takes_the_seven_card_stud_schedule_and_stud_hi_lo_is_a_time_collection():
    """Razz: "exactly the same as 7-Card Stud" (economics choice 4); Stud Hi-Lo: "$6.00 PER 1/2 HOUR
    PER PERSON", nothing from the pot."""
    razz = StudOptions(variant="razz")
    assert razz.schedule_name == "stud_4_8" and rules.collection(razz.economics, 5, "stud_4_8")["fee"] == 300
    hilo = StudOptions(variant="stud_hi_lo")
    assert rules.collection(hilo.economics, 6, hilo.schedule_name) == {
        "players": 6, "fee": 0, "jackpot": 0, "basis": "time", "time_fee_each": 600, "period_minutes": 30,
        "schedule": "stud_hi_lo_4_8"}


def test_options_refuse_what_the_sheet_does_not_post():
    with pytest.raises(OptionError, match="2 to 8 seats"):
        StudOptions(seats=9)
    with pytest.raises(OptionError, match="variant"):
        StudOptions(variant="stud")
    with pytest.raises(OptionError) as caught:
        StudOptions(variant="razz", schedule="holdem_4_8")
    assert caught.value.field == "schedule"
    own = StudOptions(variant="razz", schedule={"basis": "pot", "bands": [{"low": 2, "fee": 150}]})
    assert own.schedule_name == "table" and rules.collection(own.economics, 3, "table")["fee"] == 150


# --- entries: up cards and hands shown --------------------------------------------------------

@pytest.mark.parametrize("street, raw, message", [
    (7, {"1": "AS"}, "7th street has no up card"),
    (3, {}, "no up card entered"),
    (3, {"x": "AS"}, "a seat of the entry is not a seat number"),
    (3, {"4": "AS"}, "seat 4 is not in this hand: the players are 1, 2, 3"),
    (3, {"1": "ZZ"}, "seat 1's up card is not a card code"),
    (3, {"1": "JK"}, "seat 1's up card is not a card"),
    (3, {"1": "QS", "2": "QS"}, "the up cards of seats 1 and 2 are the same card"),
    (4, {"2": "KH"}, "seat 2's up card is already entered for seat 1's up card of 3rd street"),
])
def test_a_bad_up_card_entry_names_the_place_never_the_code(street, raw, message):
    taken = {cards("KH")[0]: "seat 1's up card of 3rd street"}
    with pytest.raises(rules.EntryError) as caught:
        rules.parse_up(raw, street, [1, 2, 3], SPEC, taken)
    assert str(caught.value).startswith(message)
    for code in ("AS", "ZZ", "QS", "KH", "JK"):
        assert code not in str(caught.value)


def test_a_hand_shown_is_seven_cards_holding_its_up_cards():
    """"A player must have seven cards in order to win. Any other number of cards constitutes a foul
    hand." The up cards entered for the seat must be among them."""
    hand = ["AS", "KS", "QS", "JS", "10S", "2H", "3H"]
    assert len(rules.parse_hand(hand, 1, SPEC, {}, [(3, cards("AS")[0])])) == 7
    with pytest.raises(rules.EntryError, match="seat 1's hand is 7 cards, not 6"):
        rules.parse_hand(hand[:6], 1, SPEC, {}, [])
    with pytest.raises(rules.EntryError, match="seat 1's hand does not hold its up card of 4th street as entered"):
        rules.parse_hand(hand, 1, SPEC, {}, [(4, cards("9D")[0])])
    with pytest.raises(rules.EntryError, match="card 3 of seat 1's hand is already entered for seat 2's hand"):
        rules.parse_hand(hand, 1, SPEC, {cards("QS")[0]: "seat 2's hand"}, [])


def test_stud_hi_lo_splits_and_with_no_low_the_high_takes_the_entire_pot():
    """"The best high hand splits the pot with the best low hand"; "if there is no low, the high hand
    wins the entire pot"; "any other grouping of five cards" for the low."""
    flush = cards("AS KS QS JS 9S 2H KH")
    low = cards("2C 4D 5D 6H 7H KC KD")
    out = rules.evaluate("stud_hi_lo", {1: flush, 3: low})
    assert (out["high"], out["low"], out["pot"]) == ([1], [3], "split")
    assert out["hands"][1]["low"]["name"] == "7-6-5-4-2"
    alone = rules.evaluate("stud_hi_lo", {1: flush, 2: cards("9C 9D 10H JC QD KC AC")})
    assert (alone["high"], alone["low"], alone["pot"]) == ([1], [], "high")


def test_razz_the_best_low_wins_and_there_is_no_high():
    """"RAZZ is a lowball game": ace to five, the wheel is the best low; pairs do not count."""
    out = rules.evaluate("razz", {1: cards("AS 2D 3C 4H 5S KD KC"), 2: cards("AC 2C 3D 4D 6S QH QS")})
    assert (out["high"], out["low"], out["pot"]) == ([], [1], "low")
    assert out["hands"][0]["low"]["name"] == "wheel" and out["hands"][0]["high"] is None
