"""Mexican Stud's rules (games/mexican_stud/rules.py, options.py), hand-worked from
california-card-room-games.txt, "MEXICAN POKER (5-Card Stud--Mexico Style) (41 Card Deck)": the
deck, the collection, the deal from the left of the button, the forced bet by the high card with
the joker highest, the highest hand showing first, one card always down, the Hand Ranking and the
"Stud-Loce Rules"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from controller.table.config import ConfigError, load_config, parse_config
from games import registry
from games.cards import JOKER, card, cards
from games.mexican_stud import rules
from games.mexican_stud.options import MexicanOptions, deck
from games.options import OptionError

SPEC = deck()
EXAMPLE = Path(__file__).resolve().parents[2] / "config" / "mexican-stud.toml"
PLAYER = {"basis": "player", "fee_each": 100, "jackpot": 100}


def up(street_cards: dict[int, dict[int, str]]) -> dict[int, dict[int, object]]:
    """Up cards as the machine keeps them: "down" -> None."""
    return {street: {s: None if c == "down" else card(c) for s, c in seats.items()}
            for street, seats in street_cards.items()}


def acts(street: int, entered: dict[int, dict[int, str]], button: int, exposed: dict[int, str] | None = None,
         **kw) -> dict:
    shown = {s: cards(c) for s, c in (exposed or {}).items()}
    return rules.who_acts(street, up(entered), shown, button, **kw)


# --- the deck ---------------------------------------------------------------------------------

def test_the_deck_is_41_cards_the_8_9_10_removed_and_one_joker():
    """"a 'stripped' standard 53-card deck consisting of 52 cards and 1 Joker. the 8's, 9's and 10's
    are removed, leaving 41 cards"."""
    assert SPEC.size == 41 and len(SPEC.all_cards()) == 41
    assert SPEC.copies(JOKER) == 1
    assert all(SPEC.copies(card(f"{r}{s}")) == 0 for r in ("8", "9", "10") for s in "CDHS")
    assert all(SPEC.copies(card(f"{r}{s}")) == 1 for r in ("A", "2", "7", "J", "K") for s in "CDHS")
    assert registry.get("mexican_stud").deck(MexicanOptions(schedule=PLAYER)).counts == SPEC.counts


# --- the button, the deal, the collection -------------------------------------------------------

def test_the_button_rotates_clockwise_after_each_hand_among_the_seats_in():
    """"The cards are dealt clockwise, beginning to the left of the dealer button. the dealer button
    rotates clockwise after each hand is complete." Seats are numbered clockwise, so the next seat
    in to the left is the next higher number, wrapping round."""
    seats = {1, 2, 4, 6}
    assert rules.hand_button(6, seats, None, first=1) == 1
    assert rules.hand_button(6, seats, None, first=3) == 4, "the first button on an empty seat: next seat in"
    assert rules.hand_button(6, seats, 2, first=1) == 4, "seat 3 is empty: the button goes past it"
    assert rules.hand_button(6, seats, 6, first=1) == 1, "round the table"
    assert rules.hand_button(6, {1, 4}, 2, first=1) == 4, "the last button's player left: the next seat in"
    assert rules.hand_button(6, {4}, 2, first=1) is None, "one player: no hand"
    assert rules.deal_order(6, 4, seats) == [6, 1, 2, 4], "from the left of the button, the button last"


def test_the_collection_each_player_places_and_the_jackpot_from_five_players():
    """"To receive a hand, each player places a collection in front of him" (the table's amount: the
    sheet posts none); no jackpot below 5 players."""
    econ = MexicanOptions(schedule=PLAYER).economics
    assert rules.collection(econ, 6) == {"players": 6, "fee": 600, "jackpot": 100, "basis": "player",
                                         "fee_each": 100, "schedule": "table"}
    assert rules.collection(econ, 4) == {"players": 4, "fee": 400, "jackpot": 0, "basis": "player",
                                         "fee_each": 100, "schedule": "table"}
    pot = MexicanOptions(schedule={"basis": "pot", "bands": [{"low": 2, "high": 4, "fee": 100}, {"low": 5, "fee": 200}],
                                   "jackpot": 50}).economics
    assert rules.collection(pot, 5) == {"players": 5, "fee": 200, "jackpot": 50, "basis": "pot", "schedule": "table"}


# --- the forced bet -----------------------------------------------------------------------------

def test_the_forced_bet_is_the_high_card_and_the_joker_supersedes_all_others():
    """"a betting round begins with the high card clockwise of the dealer button, making a forced
    opening bet"; "When the joker shows, that will be the high card superseding all others"."""
    first = acts(2, {2: {1: "KH", 2: "QD", 4: "7C", 5: "2S"}}, button=3)
    assert (first["seat"], first["by"]) == (1, "high_card")
    assert acts(2, {2: {1: "KH", 2: "AD", 5: "JK"}}, button=3)["seat"] == 5


def test_two_high_cards_of_one_rank_the_seat_closest_clockwise_of_the_button():
    """Choice 5 (and games.poker.bring_in choice 4): button 3, aces at seats 2 and 4: clockwise from
    the button's left, 4 comes before 2. ``forced_bet_tie = "suit"``: the ace of diamonds is above
    the ace of clubs (Stud House Rules: spades, hearts, diamonds, clubs)."""
    entered = {2: {2: "AD", 4: "AC", 5: "KS"}}
    assert acts(2, entered, button=3)["seat"] == 4
    assert acts(2, entered, button=5)["seat"] == 2, "from seat 6 on: 1, 2 before 4"
    assert acts(2, entered, button=3, tie="suit")["seat"] == 2


def test_the_forced_bet_goes_by_the_second_card_not_a_first_card_the_dealer_exposed():
    """Choice 2: seat 4's first card, an ace, was exposed by the dealer; the forced bet is still the
    high second card (seat 1's king)."""
    assert acts(2, {2: {1: "KH", 4: "2C"}}, button=6, exposed={4: "AS"})["seat"] == 1


# --- later rounds: the highest hand showing -------------------------------------------------------

def test_later_rounds_the_highest_hand_showing_and_the_joker_hand_ties_the_natural_one():
    """"The highest hand will start the action on all following round. Hands are considered to be of
    equal value whether or not one hand may include the Joker. The hand closest of such hands to the
    dealer acts first." Seat 1 shows K-K, seat 5 JK-K (a pair of kings too), seat 3 A-Q: button 2
    -> seat 5 (3, 4, 5 ... before 1); button 6 -> seat 1."""
    entered = {2: {1: "KS", 3: "AH", 5: "JK"}, 3: {1: "KC", 3: "QD", 5: "KD"}}
    out = acts(3, entered, button=2)
    assert (out["seat"], out["by"]) == (5, "high_showing")
    assert acts(3, entered, button=6)["seat"] == 1
    fourth = {**entered, 4: {1: "2C", 3: "QH", 5: "2S"}}
    assert acts(4, fourth, button=6)["seat"] == 1, "K-K-2 twice (the joker a king) above Q-Q-A: seat 1 is closer"
    assert acts(4, {**fourth, 4: {1: "2C", 3: "QH", 5: "3S"}}, button=6)["seat"] == 5, "K-K-3 above K-K-2"


def test_a_card_opened_is_showing_and_a_card_dealt_down_is_not():
    """Choice 3, button 1: seat 3 opened its first card (AH) before the third card, so its third
    came down ("down"): it shows A-A (its second card and the opened one) against seat 4's K-K and
    seat 1's 7-5. Had it not opened, its ace alone would be below seat 4's kings."""
    entered = {2: {1: "7C", 3: "AD", 4: "KS"}, 3: {1: "5H", 3: "down", 4: "KD"}}
    assert acts(3, entered, button=1, exposed={3: "AH"})["seat"] == 3
    assert acts(3, entered, button=1)["seat"] == 4


def test_first_to_act_is_unknown_without_the_up_cards_and_not_guessed_from_part_of_a_showing():
    """Choice 3: nothing entered for a street; a seat entered on the fourth card whose third card
    was not."""
    assert acts(2, {}, button=1)["seat"] is None
    out = acts(4, {2: {1: "2C", 2: "AS"}, 3: {2: "AD"}, 4: {1: "3D", 2: "KD"}}, button=1)
    assert out["seat"] is None and out["why"] == "seat 1's third card was not entered"


def test_the_next_card_is_down_for_a_seat_that_opened_its_down_card_up_for_the_others():
    """"the third card which may be delivered up or down depending on whether or not previously
    dealt down cards have been opened"; "If any down card is exposed by the house dealer, that
    player will receive his next card down"."""
    assert rules.next_faces([1, 2, 3, 5], {3, 7}) == {"down": [3], "up": [1, 2, 5]}
    assert rules.next_faces([1, 2], set()) == {"down": [], "up": [1, 2]}


# --- the showdown: the Mexican Hand Ranking ------------------------------------------------------

def test_hand_ranking_five_of_a_kind_royal_straight_flush_four_flush_full_house_straight():
    """Hand Ranking 1-7, one hand each, best first: five of a kind (the joker wild), royal flush
    (7-J-Q-K-A suited: no ten in this deck), straight flush, four of a kind, flush, full house,
    straight. Each beats the next."""
    hands = [cards("JK 2C 2D 2H 2S"), cards("7H JH QH KH AH"), cards("3S 4S 5S 6S 7S"),
             cards("KC KD KS KH 3D"), cards("AD JD 6D 4D 2D"), cards("QD QS QC 3C 3H"), cards("4H 5C 6H 7C JC")]
    names = ["five of a kind", "royal flush", "straight flush", "four of a kind", "flush", "full house", "straight"]
    for i in range(len(hands) - 1):
        out = rules.evaluate({1: hands[i], 2: hands[i + 1]})
        assert [h["high"]["name"] for h in out["hands"]] == names[i:i + 2]
        assert out["high"] == [1] and out["pot"] == "high", names[i]


def test_the_skip_straights_rank_above_the_plain_ones():
    """"4-5-6-7-J, 5-6-7-J-Q, 6-7-J-Q-K, 7-J-Q-K-A" count as straights; 4-5-6-7-J is higher than
    3-4-5-6-7, and the joker completes one (5-6-7-J + joker = 5-6-7-J-Q)."""
    out = rules.evaluate({1: cards("4C 5D 6H 7S JC"), 2: cards("3C 4D 5H 6S 7C")})
    assert out["high"] == [1] and out["hands"][1]["high"]["name"] == "straight"
    wild = rules.evaluate({1: cards("JK 5D 6C 7H JH"), 2: cards("4S 5S 6D 7D JD")})
    assert wild["high"] == [1] and wild["hands"][0]["high"]["name"] == "straight"


def test_a_hand_with_the_joker_ties_the_same_natural_hand_and_shares():
    """"Hands are considered to be of equal value whether or not one hand may include the Joker":
    JK-K-5-4-2 is a pair of kings, 5-4-2, as is K-K-5-4-2."""
    out = rules.evaluate({2: cards("KS KD 5C 4D 2H"), 6: cards("JK KC 5H 4S 2D")})
    assert out["high"] == [2, 6] and "share" in out["why"]


def test_no_hand_with_the_joker_in_a_jackpot_unless_five_of_a_kind():
    """"No hand involved in a jackpot may include the Joker ... 5 of a Kind is exempt"."""
    out = rules.evaluate({1: cards("JK 2C 2D 2H 2S"), 2: cards("AS AD AC QH QS"), 3: cards("3C 3D 3H 3S KD")})
    assert [h["jackpot_eligible"] for h in out["hands"]] == [True, True, True]
    joker = rules.evaluate({4: cards("JK AH AC QD QC")})
    assert joker["hands"][0]["jackpot_eligible"] is False


def test_five_aces_are_five_of_a_kind_and_exempt_from_the_joker_rule_of_the_jackpot():
    """Issue 23.1: A-A-A-A-JK is named "five aces" (the shared evaluator's name for five of a kind
    of aces), and it is Hand Ranking 1, "5 of a Kind", exempt from "No hand involved in a jackpot
    may include the Joker" as 7-7-7-7-JK is."""
    out = rules.evaluate({1: cards("AS AH AD AC JK"), 2: cards("7S 7H 7D 7C KD")})
    aces = out["hands"][0]
    assert aces["high"]["name"] == "five aces" and aces["jackpot_eligible"] is True
    assert rules.jackpot_eligible(cards("AS AH AD AC JK")) is True
    assert rules.jackpot_eligible(cards("7S 7H 7D 7C JK")) is True
    assert rules.jackpot_eligible(cards("AS AH AD JK KC")) is False    # four aces with the joker


# --- entries --------------------------------------------------------------------------------------

@pytest.mark.parametrize("street, raw, down, message", [
    (6, {"1": "AS"}, (), "up cards are entered for the second to the fifth card"),
    (2, {}, (), "no up card entered"),
    (2, {"x": "AS"}, (), "a seat of the entry is not a seat number"),
    (2, {"4": "AS"}, (), "seat 4 is not in this hand: the players are 1, 2, 3"),
    (2, {"1": "ZZ"}, (), "seat 1's second card is not a card code"),
    (2, {"1": "9H"}, (), "seat 1's second card is not a card of the deck (41 cards: 52 and a joker, no 8, 9 or 10)"),
    (2, {"1": "QS", "2": "QS"}, (), "the second cards of seats 1 and 2 are the same card"),
    (3, {"2": "KH"}, (), "seat 2's third card is already entered for seat 1's second card"),
    (3, {"2": "JK"}, (2,), "seat 2's third card was dealt face down (seat 2 had opened its down card): enter \"down\""),
    (3, {"1": "down"}, (2,), "seat 1's third card was dealt face up: enter its code"),
    (2, {"1": "down"}, (), "seat 1's second card was dealt face up"),
])
def test_a_bad_up_card_entry_names_the_place_never_the_code(street, raw, down, message):
    taken = {card("KH"): "seat 1's second card"}
    with pytest.raises(rules.EntryError) as caught:
        rules.parse_up(raw, street, [1, 2, 3], SPEC, taken, down)
    assert str(caught.value).startswith(message)
    for code in ("AS", "ZZ", "9H", "QS", "KH", "JK"):
        assert code not in str(caught.value)


def test_up_cards_with_a_card_dealt_down_and_the_joker():
    assert rules.parse_up({"1": "JK", "2": "down", "3": "7C"}, 3, [1, 2, 3], SPEC, {}, {2}) == {
        1: JOKER, 2: None, 3: card("7C")}


def test_an_opened_card_is_a_card_of_the_deck_not_entered_before():
    assert rules.parse_exposed("JK", 3, SPEC, {}) == JOKER
    with pytest.raises(rules.EntryError, match="seat 3's opened card is not a card of the deck"):
        rules.parse_exposed("10S", 3, SPEC, {})
    with pytest.raises(rules.EntryError) as caught:
        rules.parse_exposed("JK", 3, SPEC, {JOKER: "seat 1's second card"})
    assert str(caught.value) == "seat 3's opened card is already entered for seat 1's second card: the deck holds it once"


def test_a_hand_shown_is_five_cards_holding_every_card_entered_face_up():
    """"Each Player receives a total of 5 cards"; the cards entered face up for the seat (up cards
    and opened cards) must be among them; one joker in the deck."""
    hand = ["JK", "KS", "KD", "7H", "2C"]
    assert rules.parse_hand(hand, 1, SPEC, {}, [("its second card", card("KS"))]) == tuple(cards(" ".join(hand)))
    with pytest.raises(rules.EntryError, match="seat 1's hand is 5 cards, not 4"):
        rules.parse_hand(hand[:4], 1, SPEC, {}, [])
    with pytest.raises(rules.EntryError, match="seat 1's hand does not hold its opened first card as entered"):
        rules.parse_hand(hand, 1, SPEC, {}, [("its opened first card", card("AH"))])
    with pytest.raises(rules.EntryError, match="card 1 of seat 1's hand is already entered for seat 2's hand"):
        rules.parse_hand(hand, 1, SPEC, {JOKER: "seat 2's hand"}, [])
    with pytest.raises(rules.EntryError, match="cards 1 and 2 of seat 1's hand are the same card"):
        rules.parse_hand(["JK", "JK", "KD", "7H", "2C"], 1, SPEC, {}, [])
    with pytest.raises(rules.EntryError, match="card 4 of seat 1's hand is not a card of the deck"):
        rules.parse_hand(["JK", "KS", "KD", "8H", "2C"], 1, SPEC, {}, [])


# --- options and config ----------------------------------------------------------------------------

@pytest.mark.parametrize("pays, message", [
    ({"five aces": {"share": 100}}, "jackpot_pays: 'five aces' is not a hand of the Hand Ranking"),
    ({"royal flush": {"share": 0}}, "jackpot_pays: royal flush: an amount is a cent or more, a share 1 to 100"),
    ({"royal flush": {"share": 50, "amount": 100}}, "jackpot_pays: royal flush: give one of amount"),
    ({}, "jackpot_pays: the posted jackpot is a table of hands"),
])
def test_a_posted_jackpot_names_hands_of_the_ranking_and_one_amount_or_share_each(pays, message):
    """Choice 6: the table posts its jackpot by the Hand Ranking's names, each paying an amount or a
    share of the jackpot; a table without a jackpot collection cannot post one."""
    with pytest.raises(OptionError, match=re.escape(message)):
        MexicanOptions(seats=6, schedule=PLAYER, jackpot_pays=pays)
    with pytest.raises(OptionError, match="the table posts a jackpot but its schedule collects none"):
        MexicanOptions(seats=6, schedule={"basis": "player", "fee_each": 100}, jackpot_pays={"pair": {"amount": 1}})


def test_the_jackpot_payout_by_hand():
    """jackpot_payout: the best posted, eligible hand; an amount up to the pool; a share rounded down
    to the cent; equal hands share in whole cents."""
    posted = {"four of a kind": {"amount": 5000}, "straight flush": {"share": 25}}
    assert rules.jackpot_payout({1: cards("KC KD KH KS 2C")}, posted, 3000)["paid"] == 3000   # up to the pool
    flush = rules.jackpot_payout({2: cards("3H 4H 5H 6H 7H"), 5: cards("QC QD QH QS 2D")}, posted, 1001)
    assert (flush["hand"], flush["seats"], flush["paid"], flush["left"]) == ("straight flush", [2], 250, 751)
    assert rules.jackpot_payout({1: cards("QC QD QH JK 2D")}, posted, 1000) is None, "four with the joker"
    assert rules.hand_name(cards("AS AH AD AC JK")) == "five of a kind"


def test_options_refuse_what_the_sheet_does_not_allow_naming_the_key():
    with pytest.raises(OptionError, match="schedule: the sheet posts no collection for Mexican Stud"):
        MexicanOptions()
    with pytest.raises(OptionError, match="schedule: the sheet posts no schedule for Mexican Stud"):
        MexicanOptions(schedule="stud_4_8")
    with pytest.raises(OptionError, match=r"schedule\.basis: .*'condition' is Panguingue's"):
        MexicanOptions(schedule={"basis": "condition", "conditions": [{"condition": 200, "fee": 200, "ante": 200}]})
    with pytest.raises(OptionError, match=r"schedule\.jackpot_min_players: a jackpot is taken from 5 players"):
        MexicanOptions(schedule={**PLAYER, "jackpot_min_players": 4})
    with pytest.raises(OptionError, match=r"schedule\.fee_each"):
        MexicanOptions(schedule={"basis": "player", "fee_each": -1})
    with pytest.raises(OptionError, match="seats: a Mexican Stud table has 2 to 8 seats, not 9"):
        MexicanOptions(seats=9, schedule=PLAYER)
    with pytest.raises(OptionError, match="button: must be a seat, 1 to 6, not 7"):
        MexicanOptions(seats=6, button=7, schedule=PLAYER)
    with pytest.raises(OptionError, match="seats_in: 9 is not a seat"):
        MexicanOptions(seats_in=(1, 9), schedule=PLAYER)
    with pytest.raises(OptionError, match="forced_bet_tie: must be one of position, suit"):
        MexicanOptions(forced_bet_tie="colour", schedule=PLAYER)
    assert MexicanOptions(schedule={**PLAYER, "jackpot": 0, "jackpot_min_players": 2}).economics.schedule.jackpot == 0


def test_the_example_config_loads_and_a_config_without_a_collection_names_the_key():
    cfg = load_config(EXAMPLE)
    entry = registry.get("mexican_stud")
    options = entry.load_options(cfg.game, cfg.table.seats)
    assert options.economics.schedule.fee_each == 100 and options.seats == 8
    text = EXAMPLE.read_text()
    cut = text[:text.index("[game.schedule]")] + text[text.index("[mqtt]"):]
    with pytest.raises(ConfigError) as caught:
        parse_config(cut, "mex.toml")
    assert "game.schedule: the sheet posts no collection for Mexican Stud" in str(caught.value)
