"""The draw counted and TOO FEW CARDS FOR THE DRAW (games/draw/stub.py), hand-worked from
california-card-room-games.txt, "DRAW POKER & LOW-BALL": "The dealer may not deal the last card
from the stub of the deck. When he reaches the last card, he will combine it with all the discards
except those of the players who have not yet completed their draws. The dealer will shuffle this
new stub. The dealer will cut, and burn one card, and complete the draw."

Every count below is checked against what lies on the table: the 53 cards (rule 3) are the stub,
the hands, and everything out of play (the burn, folded hands, dead cards, discards)."""

from __future__ import annotations

import pytest

from games.draw.stub import DrawError, Give, Reshuffle, describe, draw_order, plan_draw

DECK = 53


def stub_for(players: int) -> int:
    """Five each (rules 1 & 2) and the burn ("the top card from the deck must be discarded")."""
    return DECK - 5 * players - 1


def test_the_draw_starts_left_of_the_button():
    assert draw_order(6, 4, {1, 2, 5, 6}) == [5, 6, 1, 2]
    assert draw_order(6, 6, {2, 4, 6}) == [2, 4, 6], "the button's own seat draws last"


def test_five_players_drawing_three_each_come_from_the_stub():
    plan = plan_draw(DECK, stub_for(5), [(s, 3) for s in range(1, 6)])
    assert (plan.stub, plan.needed, plan.reshuffles, plan.complete) == (27, 15, 0, True)
    assert describe(plan) == ("Deal the draw, from the left of the button: seat 1 draws 3, seat 2 draws 3, seat 3 "
                              "draws 3, seat 4 draws 3, seat 5 draws 3. The stub holds 27 cards: enough for the 15 to "
                              "deal (the last card is never dealt).")


def test_the_last_card_is_never_dealt_but_the_one_before_it_is():
    """Six players: a stub of 22. Draws of 21 leave the last card; 22 reach it."""
    fits = plan_draw(DECK, 22, [(1, 5), (2, 5), (3, 5), (4, 5), (5, 1), (6, 0)])
    assert fits.reshuffles == 0 and fits.needed == 21
    short = plan_draw(DECK, 22, [(1, 5), (2, 5), (3, 5), (4, 5), (5, 2), (6, 0)])
    # Seat 5 gets 1 of its 2; the new stub: the last card, the burn, seats 1-4's twenty discards.
    # Seat 5's two discards stay out (it has not completed its draw); seat 6 stood pat.
    assert short.steps == (Give(1, 5, 5), Give(2, 5, 5), Give(3, 5, 5), Give(4, 5, 5), Give(5, 1, 2),
                           Reshuffle((1, 2, 3, 4), (5, 6), 22), Give(5, 1, 2, rest=True))


def test_six_players_each_drawing_five():
    plan = plan_draw(DECK, stub_for(6), [(s, 5) for s in range(1, 7)])
    assert (plan.stub, plan.needed, plan.reshuffles) == (22, 30, 1)
    assert plan.steps == (Give(1, 5, 5), Give(2, 5, 5), Give(3, 5, 5), Give(4, 5, 5), Give(5, 1, 5),
                          Reshuffle((1, 2, 3, 4), (5, 6), 22), Give(5, 4, 5, rest=True), Give(6, 5, 5))
    assert describe(plan) == (
        "Deal the draw, from the left of the button: seat 1 draws 5, seat 2 draws 5, seat 3 draws 5, seat 4 draws 5, "
        "seat 5 draws 5, seat 6 draws 5. TOO FEW CARDS FOR THE DRAW: the stub holds 22 cards for 30 to deal, and the "
        "dealer may not deal its last card. Deal seat 1 5, seat 2 5, seat 3 5, seat 4 5 and seat 5 1 of its 5. At the "
        "last card, combine it with all the discards (the burn, the folded hands, the dead cards and the discards of "
        "seats 1, 2, 3, 4), but not the discards of seats 5, 6 (not yet completed their draws); shuffle this new stub "
        "(22 cards), cut, burn one card and complete the draw. Deal seat 5 its last 4 and seat 6 5.")


def test_eight_players_each_drawing_five_run_the_stub_short_three_times():
    """A stub of 12: seats 1 and 2 get five, seat 3 one; the new stub is the last card, the burn and
    the ten discards (12); its burn leaves 11: seat 3's last four, seat 4's five, seat 5's first;
    the next new stub is the last card, its burn and seats 3 and 4's discards (choice 2), 12 again."""
    plan = plan_draw(DECK, stub_for(8), [(s, 5) for s in range(1, 9)])
    assert [s for s in plan.steps if isinstance(s, Reshuffle)] == [
        Reshuffle((1, 2), (3, 4, 5, 6, 7, 8), 12),
        Reshuffle((3, 4), (5, 6, 7, 8), 12, first=False),
        Reshuffle((5, 6), (7, 8), 12, first=False)]
    assert plan.complete and sum(g.cards for g in plan.steps if isinstance(g, Give)) == 40
    assert "combine it with what was discarded since the last shuffle (its burn and the discards of seats 3, 4)" \
        in describe(plan)


def test_folded_hands_join_the_new_stub():
    """Eight dealt, three draw: the five folded hands are among "all the discards" (choice 1)."""
    plan = plan_draw(DECK, stub_for(8), [(2, 5), (5, 5), (7, 4)])
    # 12 in the stub: seat 2 five, seat 5 five, seat 7 one of four; new stub: the last card, the burn,
    # 25 folded cards, seats 2 and 5's ten discards = 37 (seat 7's four discards stay out).
    assert plan.steps[3:] == (Reshuffle((2, 5), (7,), 37), Give(7, 3, 4, rest=True))
    assert "but not the discards of seat 7 (not yet completed its draw)" in describe(plan)


def test_a_dead_card_in_a_draw_is_replaced_after_everybody_has_drawn():
    """Choice 3: a boxed card in seat 3's draw of two: seat 3 gets one card then, one after seat 4."""
    plan = plan_draw(DECK, 27, [(3, 2), (4, 3)], {3: 1})
    assert plan.needed == 6 and plan.steps == (Give(3, 2, 2), Give(4, 3, 3), Give(3, 1, 1, replacement=True))
    assert describe(plan).endswith("The stub holds 27 cards: enough for the 6 to deal (the last card is never "
                                   "dealt). Replace each dead card from the top of the deck: seat 3 1 more for its "
                                   "dead card (after everybody has drawn).")


def test_a_replacement_that_reaches_the_last_card_takes_every_discard():
    """Eight dealt, three draw 5, 5 and 1 from a stub of 12, one card of seat 1's draw dead: the
    replacement finds only the last card. New stub: the last card, the burn, the 25 folded cards,
    the eleven discards and the dead card, 39; every seat has completed its draw."""
    plan = plan_draw(DECK, 12, [(1, 5), (2, 5), (3, 1)], {1: 1})
    assert plan.steps[3:] == (Reshuffle((1, 2, 3), (), 39), Give(1, 1, 1, rest=True, replacement=True))


def test_ten_players_would_leave_too_few_cards_even_after_the_stub_rule():
    """Choice 4 (a 53-card deck is not dealt to ten: MAX_SEATS is 8): a stub of 2 gives one card;
    the new stub is the last card and the burn, whose own burn leaves one card, the last."""
    plan = plan_draw(DECK, stub_for(10), [(s, 5) for s in range(1, 11)])
    assert not plan.complete and plan.steps == (Give(1, 1, 5), Reshuffle((), tuple(range(1, 11)), 2))
    assert describe(plan).endswith("Even the new stub is too short to complete the draw: call the floorperson.")


@pytest.mark.parametrize("order, dead, stub, message", [
    ([(1, 6)], None, 20, "seat 1 draws 0 to 5 cards, not 6"),
    ([(1, -1)], None, 20, "seat 1 draws 0 to 5 cards, not -1"),
    ([(1, True)], None, 20, "seat 1 draws 0 to 5 cards, not True"),
    ([(1, 1)], {1: 2}, 20, "seat 1 draws 1: it cannot have 2 dead cards in its draw"),
    ([(1, 1)], {4: 1}, 20, "seat 4 does not draw"),
    ([(1, 1)], None, 0, "the stub holds 0 cards"),
])
def test_draws_the_rules_refuse(order, dead, stub, message):
    with pytest.raises(DrawError, match=message):
        plan_draw(DECK, stub, order, dead)
