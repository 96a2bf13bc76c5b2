"""Panguingue's rules (games/panguingue/rules.py, options.py), hand-worked from
california-card-room-games.txt: "PANGUINGUE (also called PAN)" rules 1-9 and "PAN RULES" (THE
DECK, THE DEAL, DECLARING, THE DRAW, FOUL HANDS AND CARDS)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.cards import Card
from games.options import OptionError
from games.panguingue import rules
from games.panguingue.options import PanOptions
from games.registry import get

# --- THE DECK (rules 3, 4) ------------------------------------------------------------------


def test_eight_decks_of_forty_without_eights_nines_tens_or_jokers():
    """THE DECK: "a set of 8 decks from which all 8s, 9s, 10s, and Jokers have been removed from
    each deck. (A total of 320 cards)": 10 ranks x 4 suits = 40 per deck, each card 8 times."""
    spec = PanOptions(condition=200).spec
    assert spec.size == 320 and len(spec.one_deck) == 40
    assert {c.rank for c in spec.counts} == {"A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"}
    assert set(spec.counts.values()) == {8}
    assert Card("8", "S") not in spec.counts and Card("10", "H") not in spec.counts
    assert not any(c.is_joker for c in spec.counts)


def test_ten_decks_when_the_table_says_so():
    """Rule 3: "There are ten decks of cards": 400 cards, each 10 times."""
    spec = PanOptions(condition=200, pan_decks=10).spec
    assert spec.size == 400 and Counter(spec.all_cards())[Card("K", "S")] == 10


# --- the fee and the ante by condition (rules 1, 2, 5) --------------------------------------

@pytest.mark.parametrize("condition, fee, ante", [(200, 200, 200), (500, 300, 500), (1000, 400, 500)])
def test_the_fee_and_the_ante_by_condition_for_each_player(condition, fee, ante):
    """Rule 1: "If the condition is 2.00 the fee is 2.00 ante 2.00 / 5.00: fee 3.00 ante 5.00 /
    10.00: fee 4.00 ante 5.00"; rule 5: "Each player antes one chip". Seven players at $5.00:
    7 x $3.00 = $21.00 of fees and 7 x $5.00 = $35.00 of antes."""
    options = PanOptions(condition=condition)
    got = rules.collection(options.economics, 7, options.schedule_name)
    assert got == {"players": 7, "fee": 7 * fee, "jackpot": 0, "basis": "condition", "fee_each": fee,
                   "ante_each": ante, "ante": 7 * ante, "condition": condition, "schedule": "panguingue"}


def test_a_table_of_its_own_conditions():
    options = PanOptions(condition=2500, schedule={"basis": "condition", "conditions": [
        {"condition": 2500, "fee": 600, "ante": 1000}]})
    got = rules.collection(options.economics, 3, options.schedule_name)
    assert (got["fee"], got["ante"], got["schedule"]) == (1800, 3000, "table")


@pytest.mark.parametrize("options, key, why", [
    ({}, "condition", "give the table's condition in cents: 200, 500 or 1000"),
    ({"condition": 300}, "condition", "the conditions playable are 2.00, 5.00, 10.00 (Panguingue rule 2), not 300"),
    ({"condition": 2.0}, "condition", "an amount is a whole number of cents, not 2.0"),
    ({"condition": 200, "pan_decks": 9}, "pan_decks", "8 (THE DECK: 'a set of 8 decks') or 10"),
    ({"condition": 200, "pan_decks": True}, "pan_decks", "8 (THE DECK"),
    ({"condition": 200, "seats": 11}, "seats", "a Panguingue table has 2 to 10 seats, not 11"),
    ({"condition": 200, "seats": 1}, "seats", "a Panguingue table has 2 to 10 seats, not 1"),
    ({"condition": 200, "first_seat": 9}, "first_seat", "must be a seat, 1 to 8, not 9"),
    ({"condition": 200, "first_seat": "1"}, "first_seat", "must be a whole number, not '1'"),
    ({"condition": 200, "nine_cards": "ignored"}, "nine_cards", "must be one of corrected, dead, not 'ignored'"),
    ({"condition": 200, "seats_in": (1, 1)}, "seats_in", "a seat is listed twice"),
    ({"condition": 200, "seats_in": (1, 9)}, "seats_in", "9 is not a seat of a 8-seat table"),
    ({"condition": 200, "schedule": "holdem_4_8"}, "schedule", "'holdem_4_8' is not posted for panguingue"),
])
def test_bad_options_are_refused_naming_the_key(options, key, why):
    with pytest.raises(OptionError) as caught:
        PanOptions(**options)
    assert caught.value.field == key and caught.value.why.startswith(why), caught.value.why


def test_a_bad_config_names_its_config_key():
    entry = get("panguingue")
    with pytest.raises(OptionError, match=r"^table\.seats: a Panguingue table has 2 to 10 seats, not 12$"):
        entry.load_options({"condition": 500}, 12)
    with pytest.raises(OptionError, match=r"^game\.condition: give the table's condition"):
        entry.load_options({}, 6)


# --- THE DEAL, THE DRAW ---------------------------------------------------------------------

def test_the_deal_goes_to_the_right_from_the_previous_winner():
    """THE DEAL: "The rotation of dealing and playing is to the right"; "Starting with the previous
    winner". Seats are numbered clockwise, so to the right is the next lower seat: from seat 4 at an
    8-seat table with seats 1, 2, 4, 6, 7 in: 4, 2, 1, 7, 6."""
    assert rules.deal_order(8, {1, 2, 4, 6, 7}, 4) == [4, 2, 1, 7, 6]
    # The previous winner left the table: the first seat in to his right starts (positions choice 4).
    assert rules.deal_order(8, {1, 2, 6, 7}, 4) == [2, 1, 7, 6]


def test_the_draw_begins_with_the_previous_winner_or_the_first_player_to_his_right():
    """THE DRAW: "the draw is begun by the winner of the previous hand (or if the previous winner
    has declared not to play the hand, then the first player to his right draws first)"."""
    assert rules.draw_order(8, [4, 2, 6], 4) == [4, 2, 6]
    assert rules.draw_order(8, [2, 6, 7], 4) == [2, 7, 6]


# --- a count of a seat's cards (FOUL HANDS AND CARDS 7 and 3) -------------------------------

@pytest.mark.parametrize("cards", [0, 5, 8, 12, 13, 20])
def test_eight_or_less_and_twelve_or_more_before_touching_the_deck_is_a_dead_hand(cards):
    """Rule 7: "Eight or less and twelve or more cards is a dead hand. The ante will be returned.\""""
    r = rules.count_ruling(cards, touched_deck=False)
    assert (r.status, r.ante_returned, r.rule, r.out) == ("dead", True, "FOUL HANDS AND CARDS 7", True)
    assert r.reason.startswith(f"{cards} cards before touching the deck") and "return the seat's ante" in r.action


def test_eleven_before_touching_the_deck_is_corrected_by_the_dealer():
    """Rule 7: "Eleven cards will be corrected by the dealer. The hand will be spread face down on
    the table and the dealer will select one card at random." "Should the player discover eleven
    cards before plucking up his second five cards, the dealer may remove one card from them.\""""
    r = rules.count_ruling(11, touched_deck=False)
    assert (r.status, r.ante_returned, r.out) == ("corrected", False, False)
    assert r.action == "spread the hand face down on the table and take one card at random (rule 7)"
    early = rules.count_ruling(11, touched_deck=False, before_second_five=True)
    assert early.action == "remove one card from the second five, before he plucks them up (rule 7)"


def test_ten_is_alive_before_and_after_touching_the_deck():
    assert rules.count_ruling(10, touched_deck=False).status == "alive"
    assert rules.count_ruling(10, touched_deck=True).status == "alive"


def test_nine_before_touching_the_deck_is_the_tables_choice():
    """Choice 1: the sheet names eight or less (dead) and eleven (corrected), not nine."""
    fixed = rules.count_ruling(9, touched_deck=False)
    assert (fixed.status, fixed.ante_returned) == ("corrected", False)
    assert fixed.action == "give the hand one card face down from the top of the deck"
    dead = rules.count_ruling(9, touched_deck=False, nine_cards="dead")
    assert (dead.status, dead.ante_returned) == ("dead", True)


@pytest.mark.parametrize("cards", [9, 11, 8, 12])
def test_more_or_less_than_ten_after_touching_the_deck_is_a_foul_hand(cards):
    """Rule 3: "Player is found to have more or less than ten cards after touching the deck in the
    normal rotation of the draw"; rule 1: the hand goes to the discards, collections repaid. The
    ante is not returned (rule 7 returns it only before the player takes action)."""
    r = rules.count_ruling(cards, touched_deck=True)
    assert (r.status, r.ante_returned, r.rule, r.out) == ("foul", False, "FOUL HANDS AND CARDS 3", True)
    assert "repays the collections" in r.action


@pytest.mark.parametrize("bad", [-1, 100, "10", 10.0, True, None])
def test_a_count_that_is_no_count_is_refused(bad):
    with pytest.raises(rules.EntryError, match="cards is the number of cards the seat holds, a whole number 0 to 99"):
        rules.count_ruling(bad, touched_deck=False)


# --- DECLARING ------------------------------------------------------------------------------

def test_declarations_go_in_turn_skipping_dead_hands():
    """DECLARING: "A knock in turn means you will play"; in dealing order (choice 2); a dead hand
    does not declare."""
    order = [4, 2, 1, 7]
    assert rules.next_declarer(order, {}, set()) == (4, ("play", "throw_in"))
    assert rules.next_declarer(order, {4: "play"}, {2}) == (1, ("play", "throw_in"))
    assert rules.next_declarer(order, {4: "play", 1: "throw_in", 7: "play"}, {2}) is None


def test_the_last_seat_when_every_other_threw_in_may_only_play():
    """Choice 3: nobody is left to play against him: he takes the Tops."""
    assert rules.next_declarer([4, 2, 1], {4: "throw_in", 2: "throw_in"}, set()) == (1, ("play",))
    assert rules.next_declarer([4, 2, 1], {4: "throw_in"}, {2}) == (1, ("play",))
    assert rules.next_declarer([4, 2, 1], {4: "play", 2: "throw_in"}, set()) == (1, ("play", "throw_in"))


def test_a_player_may_change_to_play_until_the_next_player_has_acted():
    """DECLARING: "A player may change his declaration to play until the next player has acted."
    The last declarer's declaration ends the declarations (choice 4)."""
    order = [4, 2, 1]
    assert rules.may_change_to_play(4, order, {4: "throw_in"}, set())
    assert not rules.may_change_to_play(4, order, {4: "throw_in", 2: "play"}, set())
    assert not rules.may_change_to_play(4, order, {4: "play"}, set()), "already playing"
    assert rules.may_change_to_play(4, order, {4: "throw_in", 1: "play"}, {2}) is False, "seat 1 is next: acted"
    assert rules.may_change_to_play(2, order, {4: "play", 2: "throw_in"}, set())
    assert not rules.may_change_to_play(1, order, {4: "play", 2: "play", 1: "throw_in"}, set()), "the last"


# --- the winner and the Tops ----------------------------------------------------------------

def test_only_a_live_player_who_declared_to_play_can_win():
    players, declared = {1, 2, 4, 7}, {4: "play", 2: "throw_in", 1: "play", 7: "play"}
    statuses = {1: "dead", 7: "foul"}
    assert rules.winner_refusal(4, players, declared, statuses) is None
    assert rules.winner_refusal(2, players, declared, statuses) == "seat 2 threw its hand in: it cannot win"
    assert rules.winner_refusal(1, players, declared, statuses) == "seat 1's hand is dead: it cannot win"
    assert rules.winner_refusal(7, players, declared, statuses) == "seat 7's hand is foul: it cannot win"
    assert rules.winner_refusal(3, players, declared, statuses) == "seat 3 is not in this hand: the players are 1, 2, 4, 7"
    assert rules.winner_refusal(4, players, {}, {}) == "seat 4 has not declared to play"
    assert rules.winner_refusal(True, players, declared, statuses) == "seat is the winner's seat number"


def test_the_tops_are_every_ante_but_the_dead_hands_and_go_to_the_winner():
    """Five players at $5.00 (ante $5.00): seat 1's hand dead (12 cards), its ante returned (rule
    7); seat 2 threw in (forfeits his ante: DECLARING); seat 7 fouled (his ante stays). The Tops:
    4 x $5.00 = $20.00, to seat 4; the next deal starts with seat 4 (THE DEAL)."""
    out = rules.settle([4, 2, 1, 7, 6], statuses={1: "dead", 7: "foul"},
                       declared={4: "play", 2: "throw_in", 7: "play", 6: "play"}, counts={1: 12, 7: 9},
                       returned={1}, winner=4, start=4, how="entered", ante_each=500)
    assert (out["winner"], out["tops"], out["antes_returned"], out["next_start"]) == (4, 2000, [1], 4)
    assert out["hands"][2] == {"seat": 1, "status": "dead", "declared": None, "cards": 12}
    assert out["hands"][4] == {"seat": 6, "status": "alive", "declared": "play", "cards": None}


def test_a_hand_without_a_winner_starts_the_next_deal_from_the_same_seat():
    """Choice 7: the controller cannot know a winner it was not told."""
    out = rules.settle([3, 2], statuses={}, declared={3: "play", 2: "play"}, counts={}, returned=set(),
                       winner=None, start=3, how="not_entered", ante_each=200)
    assert (out["winner"], out["next_start"], out["tops"]) == (None, 3, 400)
    assert out["why"] == "no winner was entered; the next deal starts again with seat 3"
