"""Button, blinds, who acts first and Panguingue's deal (games.poker.positions), worked by hand from
california-card-room-games.txt: Draw Poker & Low-Ball rules 1 & 2 and 5, BLINDS, Basics of Lo-Ball;
Mexican Poker ("dealt clockwise, beginning to the left of the dealer button"); Panguingue THE DEAL
and THE DRAW. Seats are numbered clockwise, so "to the left" is the next higher seat number."""

from __future__ import annotations

import pytest

from games.poker.positions import (
    Positions,
    deal_in,
    first_to_act,
    left_of,
    next_positions,
    opening_positions,
    pan_deal_order,
    pan_draw_order,
    right_of,
)

ALL9 = set(range(1, 10))


def test_left_is_clockwise_and_wraps():
    assert left_of(8, {1, 3, 8, 9}, 9) == [9, 1, 3, 8]
    assert right_of(3, {1, 3, 8, 9}, 9) == [1, 9, 8, 3]


def test_full_table_button_moves_one_place_to_the_left():
    # BLINDS: "The dealer button moves one place to the left after each hand is completed"
    p = opening_positions(9, ALL9, button=1)
    assert (p.button, p.blinds, p.dead_button) == (1, (2, 3), False)
    for want in range(2, 12):
        p = next_positions(9, ALL9, p)
        b = (want - 1) % 9 + 1
        assert (p.button, p.small_blind, p.big_blind) == (b, b % 9 + 1, (b + 1) % 9 + 1)


def test_first_to_act_left_of_the_blind_then_left_of_the_dealer():
    # BLINDS: "Before the draw, the first player to act is the player to the left of the blind;
    # after the draw, it is the player to the left of the dealer."
    p = opening_positions(9, ALL9, button=1)
    assert first_to_act(9, p, ALL9, "first") == 4
    assert first_to_act(9, p, ALL9, "later") == 2
    # choice 3: folded seats are skipped
    assert first_to_act(9, p, ALL9 - {4, 5}, "first") == 6
    assert first_to_act(9, p, {3, 7}, "later") == 3


def test_draw_after_the_draw_the_opener_as_an_option():
    # "Basics of Draw Poker": after the draw players act "starting with the 'opener'"
    p = opening_positions(9, ALL9, button=1)
    assert first_to_act(9, p, ALL9, "later", after_draw="opener", opener=6) == 6
    assert first_to_act(9, p, ALL9 - {6}, "later", after_draw="opener", opener=6) == 2
    assert first_to_act(9, p, ALL9, "later", opener=6) == 2   # default: left of the dealer


def test_draw_three_blinds_from_the_high_card():
    # rule 5: the high card "starts with a 2.00 blind and the second player - the 3.00 blind. The
    # third player a 5.00 blind." Seats in 1, 3, 5, 6, 8 of 8; seat 5 shows the high card.
    seats = {1, 3, 5, 6, 8}
    p = opening_positions(8, seats, first_blind=5, blinds=3)
    assert (p.button, p.blinds) == (3, (5, 6, 8))
    assert first_to_act(8, p, seats, "first") == 1   # left of the (big) blind
    assert first_to_act(8, p, seats, "later") == 5   # left of the dealer
    p = next_positions(8, seats, p)
    assert (p.button, p.blinds) == (5, (6, 8, 1))


def test_dead_button_when_the_small_blind_leaves():   # choice 1
    p = opening_positions(9, ALL9, button=1)          # button 1, blinds 2 and 3
    seats = ALL9 - {2}
    q = next_positions(9, seats, p)
    assert (q.button, q.blinds, q.dead_button) == (2, (3, 4), True)
    assert first_to_act(9, q, seats, "later") == 3
    r = next_positions(9, seats, q)
    assert (r.button, r.blinds, r.dead_button) == (3, (4, 5), False)


def test_dead_small_blind_when_the_big_blind_leaves():   # choice 1: the big blind moves on one seat
    p = opening_positions(9, ALL9, button=1)
    seats = ALL9 - {3}
    q = next_positions(9, seats, p)
    assert (q.button, q.spots, q.blinds, q.big_blind) == (2, (3, 4), (None, 4), 4)
    assert q.small_blind is None


def test_moving_button_skips_empty_seats_and_never_goes_dead():   # choice 1, the option
    p = opening_positions(9, ALL9, button=1)
    q = next_positions(9, ALL9 - {2}, p, rule="moving")
    assert (q.button, q.blinds, q.dead_button) == (3, (4, 5), False)
    # seat 3 paid the big blind last hand and now has the button: seat 4 the small blind
    q = next_positions(9, ALL9 - {3}, p, rule="moving")
    assert (q.button, q.blinds) == (2, (4, 5))


def test_heads_up_the_button_is_the_small_blind():   # choice 2
    seats = {2, 5}
    p = opening_positions(6, seats, button=2)
    assert (p.button, p.blinds) == (2, (2, 5))
    assert first_to_act(6, p, seats, "first") == 2    # the button acts first before the flop
    assert first_to_act(6, p, seats, "later") == 5    # and last after it
    q = next_positions(6, seats, p)
    assert (q.button, q.blinds) == (5, (5, 2))
    assert next_positions(6, seats, q, rule="moving").blinds == (2, 5)


def test_down_to_two_the_big_blind_still_moves_on():   # choice 2: nobody pays it twice running
    p = opening_positions(6, {1, 2, 3}, button=1)      # 1 button, 2 small, 3 big
    q = next_positions(6, {2, 3}, p)
    assert (q.button, q.blinds) == (3, (3, 2))


def test_short_handed_draw_posts_the_bigger_blinds():   # choice 2: blinds left over are not posted
    p = opening_positions(8, {2, 4}, first_blind=2, blinds=3)
    assert (p.button, p.spots, p.blinds) == (2, (None, 2, 4), (None, 2, 4))
    assert first_to_act(8, p, {2, 4}, "first") == 2
    assert first_to_act(8, p, {2, 4}, "later") == 4


def test_three_players_three_blinds_from_the_high_card():
    # rule 5 with three players: the high card (seat 4) "starts with a 2.00 blind and the second
    # player - the 3.00 blind. The third player a 5.00 blind"; the 2.00 also has the button (choice 2)
    p = opening_positions(8, {2, 4, 6}, first_blind=4, blinds=3)
    assert (p.button, p.blinds) == (4, (4, 6, 2))
    assert first_to_act(8, p, {2, 4, 6}, "first") == 4


def test_three_players_three_blinds_exactly():
    p = next_positions(8, {2, 4, 6}, Positions(2, (None, 2, 4), (None, 2, 4)))
    # the big blind moves from 4 to 6; back to the right: 4 the 3, 2 the 2, and 2 has the button
    assert (p.button, p.blinds) == (2, (2, 4, 6))
    # a fourth player: the full layout again, by the dead rule from here
    q = next_positions(8, {2, 4, 6, 7}, p)
    assert (q.button, q.blinds) == (2, (4, 6, 7))


def test_two_positions_on_one_seat_fall_back_to_the_layout():   # choice 2
    p = Positions(1, (3, 5), (3, 5))
    q = next_positions(6, {3, 4, 5}, p)
    # the dead rule would give big blind 3, small blind 5 and the button on 3 too
    assert (q.button, q.blinds) == (4, (5, 3))


def test_new_players_wait_outside_the_middle_of_the_blinds():
    # BLINDS: "A new player ... is automatically dealt a hand, if he is not in the middle of the
    # blinds. A new player may not sit down in the middle of the blinds. He must wait until the
    # button passes or kill the pot."
    p = opening_positions(9, ALL9, button=1)   # 1 button, 2 small, 3 big
    dealt, blinds = deal_in(9, ALL9, p, {2: "new"})
    assert 2 not in dealt and blinds == (None, 3)
    dealt, blinds = deal_in(9, ALL9, p, {2: "new"}, posting={2})
    assert 2 in dealt and blinds == (2, 3)
    for seat in (3, 6, 1):
        assert seat in deal_in(9, ALL9, p, {seat: "new"})[0]


def test_a_player_the_blinds_passed_waits_for_the_big_blind():
    # BLINDS: "he may resume his play when the 'big blind' comes up to him again, or he may kill
    # the pot."
    p = opening_positions(9, ALL9, button=1)
    assert 6 not in deal_in(9, ALL9, p, {6: "missed"})[0]
    assert 6 in deal_in(9, ALL9, p, {6: "missed"}, posting={6})[0]
    assert 3 in deal_in(9, ALL9, p, {3: "missed"})[0]
    with pytest.raises(ValueError, match="waiting"):
        deal_in(9, ALL9, p, {6: "late"})


def test_panguingue_deals_to_the_right_from_the_previous_winner():
    # THE DEAL: "Starting with the previous winner, the dealer gives each player a total of ten
    # cards, dealt in two rounds of five at a time"; "The rotation of dealing and playing is to the right"
    order = pan_deal_order(8, {1, 2, 4, 6, 7}, previous_winner=4)
    assert order == [(4, 5), (2, 5), (1, 5), (7, 5), (6, 5)] * 2
    assert sum(n for s, n in order if s == 7) == 10
    # choice 4: the previous winner has left: the first seat in to his right
    assert [s for s, _ in pan_deal_order(8, {1, 2, 4, 6, 7}, previous_winner=3)][:5] == [2, 1, 7, 6, 4]


def test_panguingue_draw_from_the_winner_or_the_first_to_his_right():
    # THE DRAW: "begun by the winner of the previous hand (or if the previous winner has declared
    # not to play the hand, then the first player to his right draws first)"
    assert pan_draw_order(8, {1, 2, 4, 6}, previous_winner=4) == [4, 2, 1, 6]
    assert pan_draw_order(8, {1, 2, 6}, previous_winner=4) == [2, 1, 6]


@pytest.mark.parametrize(("call", "message"), [
    (lambda: opening_positions(9, {1, 10}, button=1), "seats: 10"),
    (lambda: opening_positions(9, {1}, button=1), "two players"),
    (lambda: opening_positions(9, {1, 2}), "button or its first blind"),
    (lambda: opening_positions(9, {1, 2}, button=1, first_blind=2), "button or its first blind"),
    (lambda: opening_positions(9, {1, 2}, button=3), "seat 3 is not in"),
    (lambda: next_positions(9, {1, 2}, Positions(1, (1, 2), (1, 2)), rule="sideways"), "rule"),
    (lambda: first_to_act(9, Positions(1, (2, 3), (2, 3)), set(), "first"), "no live seat"),
    (lambda: first_to_act(9, Positions(1, (2, 3), (2, 3)), {4}, "river"), "round"),
    (lambda: pan_deal_order(8, {1}, 1), "two players"),
    (lambda: pan_deal_order(1, {1}, 1), "table"),
])
def test_bad_input_is_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()
