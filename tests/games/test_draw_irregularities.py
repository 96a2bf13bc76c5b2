"""Misdeals and the other irregularities of Draw Poker & Low-Ball (games/draw/irregularities.py),
each hand-worked from california-card-room-games.txt: "THE DEAL AND THE DRAW", "BOXED CARDS -
EXPOSED CARDS", "EXPOSED CARDS", "IRREGULARITIES IN A DECK" and the paragraphs after "KILL".
What the machine does with each consequence (the redeal, NO POT, the stub counted) is in
tests/games/test_draw_round.py."""

from __future__ import annotations

from typing import Any

import pytest

from games.cards import cards
from games.draw.irregularities import HandView, IrregularityError, Ruling, rule

PLAYERS = frozenset(range(1, 7))


def view(phase: str = "deal", step: str | None = None, **kw: Any) -> HandView:
    step = step or {"deal": "deal", "draw": "draw", "after": "bet"}[phase]
    return HandView(kw.pop("variant", "draw"), phase, step, kw.pop("players", PLAYERS), button=6, table=6,  # type: ignore[arg-type]
                    **kw)


def ruled(what: str, v: HandView | None = None, **args: Any) -> Ruling:
    return rule({"what": what, **args}, v or view())


# --- misdeals: "In both instances, hands are redealt" ------------------------------------------

@pytest.mark.parametrize("what, args, v, words", [
    ("first_card_exposed", {}, view(), "\"If the first card dealt is turned over, it is deemed a misdeal\""),
    ("extra_cards", {"count": 2}, view(), "\"Two extra cards off the deck on the deal constitutes a misdeal\""),
    ("extra_cards", {"seat": 3}, view(extra_on_deal=1), "2 extra cards came off the deck on the deal"),
    ("boxed", {"count": 2}, view(), "\"If two or more boxed cards are dealt, a misdeal will be declared.\""),
    ("boxed", {}, view(step="bet", boxed_on_deal=1), "2 boxed cards on the deal"),
    ("exposed", {"seat": 2}, view(exposed_on_deal=1), "\"If two or more cards are exposed on the deal, it is a "
                                                       "misdeal.\""),
    ("out_of_rotation", {}, view(), "\"If the dealer deals cards out of rotation on the deal, the cards will be "
                                    "reshuffled and a new hand dealt.\""),
    ("wrong_count", {"seat": 4, "cards": 6, "acted": 1}, view(step="bet"), "found before two players acted"),
    ("wrong_count", {"seat": 4, "cards": 4, "acted": 1}, view(step="bet"), "seat 4 holds 4 cards"),
    ("out_of_position", {"opened": False, "button": 3}, view(step="bet"),
     "\"all hands will be declared dead and the cards redealt from the correct position.\""),
])
def test_each_misdeal_of_the_sheet(what, args, v, words):
    r = rule({"what": what, **args}, v)
    assert r.misdeal and r.consequence == "misdeal"
    assert r.message.startswith("misdeal: ") and words in r.message, r.message
    assert r.action == "all hands are dead: gather every card; the hand is redealt with the same button"


# --- on the deal, play on -------------------------------------------------------------------------

def test_one_sixth_card_is_taken_back_as_the_burn():
    """"If only one player has been dealt a sixth card, the dealer may take the card back and use it
    as the burn card": no other card is burned, the stub is as it would have been."""
    r = ruled("extra_cards", seat=3)
    assert (r.consequence, r.burned, r.extra, r.dead_hand, r.extra_cards) == ("play_on", True, 0, None, 1)
    assert "no other card is burned before the draw" in r.action


def test_a_sixth_card_picked_up_kills_the_hand_and_a_card_is_still_burned():
    """"if the player picks up that sixth card, that hand will be declared dead. In this case, a card
    will still be burned before the draw. Action goes.": one card more off the stub."""
    r = ruled("extra_cards", seat=3, picked_up=True)
    assert (r.consequence, r.burned, r.extra, r.dead_hand) == ("play_on", False, 1, 3)
    assert "a card will still be burned before the draw. Action goes." in r.message


def test_one_boxed_card_on_the_deal_is_replaced_from_the_center():
    r = ruled("boxed", seat=2)
    assert (r.consequence, r.extra, r.boxed, r.seat) == ("play_on", 1, 1, 2)
    assert "replaced from the center of the deck after all players have received their cards" in r.message
    assert ruled("boxed").action.endswith("give the player it fell to a card from the center of the deck")


def test_an_exposed_card_in_high_draw_is_kept():
    """"In 'High Draw Poker' Players must keep all cards exposed on the deal.\""""
    r = ruled("exposed", seat=4, card="KD")
    assert (r.consequence, r.extra, r.card, r.dead_card, r.exposed) == ("play_on", 0, cards("KD")[0], False, 1)
    assert r.action == "seat 4 keeps the exposed card; finish the deal"
    assert ruled("exposed", seat=4).card is None, "the card is not needed to rule in High Draw"


@pytest.mark.parametrize("card, taken", [("5S", True), ("AH", True), ("JK", True), ("6D", False), ("KC", False)])
def test_lowball_takes_an_exposed_card_five_or_under_and_replaces_a_six_or_higher(card, taken):
    """"In 'Lo-Ball' Players must take all exposed cards five or under; players may not take a six or
    higher. If the exposed card is a six or higher, player will receive another card from the center
    of the deck after completion of the deal." The joker plays five or under (choice 2)."""
    r = ruled("exposed", view(variant="lowball"), seat=1, card=card)
    assert r.consequence == "play_on" and r.card == cards(card)[0]
    assert (r.extra, r.dead_card) == ((0, False) if taken else (1, True))
    assert ("takes the exposed card" in r.action) is taken


def test_a_card_off_the_table_on_the_deal_is_replaced_from_the_center():
    r = ruled("off_table", seat=5)
    assert (r.consequence, r.extra, r.seat) == ("play_on", 1, 5)
    assert "On the deal, it will be replaced from the center of the deck after the completion of the deal." in r.message


@pytest.mark.parametrize("cards_held, acted, dead, extra, words", [
    (4, 0, None, 0, "may receive additional cards, providing no action has been taken"),
    (6, 2, 4, 1, "\"all monies, antes and blinds are forfeited by that player.\""),
    (4, 3, 4, -1, "found after two players acted"),
])
def test_a_wrong_number_of_cards_on_the_deal(cards_held, acted, dead, extra, words):
    r = ruled("wrong_count", view(step="bet"), seat=4, cards=cards_held, acted=acted)
    assert (r.consequence, r.dead_hand, r.extra) == ("play_on", dead, extra)
    assert words in r.message


def test_a_deal_out_of_position_after_the_pot_is_opened_plays_on_and_the_rotation_follows():
    r = ruled("out_of_position", view(phase="draw"), opened=True, button=3)
    assert (r.consequence, r.button) == ("play_on", 3)
    assert "\"play continues and the next deal follows rotation from the new position.\"" in r.message


# --- on the draw ----------------------------------------------------------------------------------

DRAWING = {"draws": {1: 3, 2: 0, 4: 2}}


def test_a_boxed_burn_card_is_burned_like_a_normal_card():
    r = ruled("boxed", view(phase="draw", step="burn"))
    assert (r.consequence, r.extra, r.draw_dead) == ("play_on", 0, 0)
    assert "\"If the burn card is a boxed card, it will be burned like a normal card.\"" in r.message


def test_boxed_cards_on_the_draw_even_two_are_replaced_from_the_top():
    r = ruled("boxed", view(phase="draw", **DRAWING), count=2, seat=1)
    assert (r.consequence, r.draw_dead, r.seat) == ("play_on", 2, 1)
    assert "\"On the draw, all boxed cards, even two or more will be replaced from the top" in r.message


def test_an_exposed_card_on_the_draw_is_dead_in_both_games():
    for variant in ("draw", "lowball"):
        r = ruled("exposed", view(phase="draw", variant=variant, **DRAWING), seat=4, card="2C")
        assert (r.consequence, r.draw_dead, r.dead_card, r.seat) == ("play_on", 1, True, 4)
        assert "\"In both Poker and Lo-Ball, a player may not take an exposed card." in r.message


def test_a_card_off_the_table_on_the_draw_is_replaced_from_the_top():
    r = ruled("off_table", view(phase="draw", **DRAWING), seat=4)
    assert (r.consequence, r.draw_dead) == ("play_on", 1)
    assert "\"On the draw, it will be replaced from the top of the deck" in r.message


def test_cards_out_of_rotation_on_the_draw_mean_an_immediate_showdown():
    r = ruled("out_of_rotation", view(phase="draw"))
    assert (r.consequence, r.no_further_action) == ("play_on", True)
    assert "'No further action is permitted on this hand' Immediate showdown." in r.message


@pytest.mark.parametrize("phase, held, acted, dead, words", [
    ("draw", 6, 0, 2, "\"Before the draw, more than five cards is a foul hand.\""),
    ("draw", 4, 0, 2, "no card is added"),
    ("after", 4, 0, None, "\"After the draw, a player having less than five cards"),
    ("after", 4, 1, 2, "\"More or less than five cards after the draw is a foul hand.\""),
    ("after", 6, 0, 2, "\"More or less than five cards after the draw is a foul hand.\""),
])
def test_a_wrong_number_of_cards_at_and_after_the_draw(phase, held, acted, dead, words):
    r = ruled("wrong_count", view(phase=phase), seat=2, cards=held, acted=acted)
    assert (r.consequence, r.dead_hand) == ("play_on", dead) and words in r.message


def test_an_irregular_deck_is_no_pot_at_any_time_in_the_hand():
    for phase in ("deal", "draw", "after"):
        r = ruled("irregular_deck", view(phase=phase))
        assert r.consequence == "no_pot" and "'NO POT' and all money in the pot is refunded" in r.message


# --- reports the rules cannot rule on -------------------------------------------------------

@pytest.mark.parametrize("args, v, message", [
    ({"what": "misdeal"}, view(), "what is one of first_card_exposed, extra_cards, boxed"),
    ({}, view(), "what is one of"),
    ({"what": "boxed", "cards": 3}, view(), "cards is no part of the boxed report (it takes count, seat)"),
    ({"what": "out_of_rotation", "seat": 2}, view(), "seat is no part of the out_of_rotation report (it takes nothing"),
    ({"what": "first_card_exposed"}, view(phase="draw"), "first_card_exposed is reported on the deal"),
    ({"what": "boxed"}, view(phase="after"), "boxed is reported on the deal (the deal and the betting before the "
                                             "draw) or on the draw (the burn and the draw); the hand is after the draw"),
    ({"what": "boxed", "count": 0}, view(), "count is a number of cards, 1 to 10"),
    ({"what": "boxed", "count": True}, view(), "count is a number of cards, 1 to 10"),
    ({"what": "boxed", "count": 2}, view(phase="draw", step="burn"), "one burn card"),
    ({"what": "boxed"}, view(phase="draw"), "seat is needed: the seat whose draw it was"),
    ({"what": "boxed", "seat": 2}, view(phase="draw", **DRAWING), "seat 2 draws 0: 1 dead cards cannot be in its draw"),
    ({"what": "boxed", "seat": 3}, view(phase="draw", **DRAWING), "seat 3 does not draw (the draws entered are for "
                                                                  "seats 1, 2, 4)"),
    ({"what": "off_table", "seat": 4}, view(phase="draw", draws={4: 1}, draw_dead={4: 1}),
     "seat 4 draws 1: 2 dead cards cannot be in its draw"),
    ({"what": "extra_cards"}, view(), "seat is needed: the seat dealt a sixth card"),
    ({"what": "extra_cards", "seat": 3, "picked_up": "yes"}, view(), "picked_up is true or false"),
    ({"what": "off_table", "seat": 9}, view(), "seat 9 is not a player of this hand: the players are 1, 2, 3, 4, 5, 6"),
    ({"what": "off_table", "seat": "2"}, view(), "seat is a seat number"),
    ({"what": "off_table", "seat": 2}, view(dead=frozenset({2})), "seat 2's hand is already dead"),
    ({"what": "exposed", "seat": 2}, view(variant="lowball"), "card is needed in Low-Ball"),
    ({"what": "exposed", "seat": 2, "card": "ZZ"}, view(variant="lowball"), "the exposed card is not a card code"),
    ({"what": "exposed", "seat": 2, "card": "1S"}, view(), "the exposed card is not a card of the deck"),
    ({"what": "exposed", "seat": 2, "card": "9H"}, view(taken={cards("9H")[0]: "a dead card"}),
     "the exposed card is already entered for a dead card"),
    ({"what": "exposed", "seat": 2}, view(phase="draw", step="burn"), "no card of the draw is dealt yet"),
    ({"what": "off_table", "seat": 2}, view(phase="draw", step="burn"), "no card of the draw is dealt yet"),
    ({"what": "out_of_rotation"}, view(phase="draw", step="burn"), "no card of the draw is dealt yet"),
    ({"what": "wrong_count", "seat": 2, "cards": 5}, view(), "cards is the number of cards the player holds, 0 to 10 "
                                                             "and not 5"),
    ({"what": "wrong_count", "seat": 2, "cards": 4, "acted": 7}, view(), "acted is how many players have acted on "
                                                                         "their hands, 0 to 6"),
    ({"what": "out_of_position", "button": 3}, view(), "opened is true or false"),
    ({"what": "out_of_position", "opened": True, "button": 6}, view(), "the button of this hand is seat 6: the deal "
                                                                       "is in position"),
    ({"what": "out_of_position", "opened": True, "button": 7}, view(), "button is the seat the deal was made from, 1 "
                                                                       "to 6"),
    ({"what": "out_of_position", "opened": False, "button": 2}, view(phase="after"), "the betting before the draw is over: the pot has been opened"),
])
def test_a_report_the_rules_cannot_rule_on_is_refused_with_its_reason(args, v, message):
    with pytest.raises(IrregularityError) as caught:
        rule(args, v)
    assert str(caught.value).startswith(message), caught.value
    for code in ("ZZ", "1S", "9H"):
        assert code not in str(caught.value), "a refusal never quotes a code entered"
