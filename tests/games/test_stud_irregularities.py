"""The Stud family's irregularities (games/stud/irregularities.py, games/stud/machine.py's
cmd/irregularity), each with the sheet's words: california-card-room-games.txt, "7-CARD STUD" and
"STUD POKER HOUSE RULES". The machine is driven as the controller drives it; every event is checked
against its schemas (tests/round_run.py)."""

from __future__ import annotations

import re

import pytest
from test_stud_round import Run

from games.cards import card
from games.decks import standard
from games.round import Refused
from games.stud import irregularities as irr

SPEC = standard(1)


def view(phase: str = "deal", street: int = 3, dealing: int = 0, out: frozenset[int] = frozenset()) -> irr.HandView:
    return irr.HandView(phase, street, frozenset({1, 2, 3, 4}), out, SPEC, {}, dealing)  # type: ignore[arg-type]


def test_a_wrong_count_on_the_deal_before_any_action_is_a_misdeal():
    """HOUSE RULES: "If a player does not have the correct number of cards on the deal and no action
    has been accepted, the hand is a misdeal." Seat 2 holds 4 cards on 3rd street (3 due)."""
    ruling = irr.rule({"what": "wrong_count", "seat": 2, "cards": 4, "acted": False}, view())
    assert (ruling.consequence, ruling.seat) == ("misdeal", 2)
    assert ruling.message == ("misdeal: seat 2 holds 4 cards, not 3, on the deal, and no action has been accepted "
                              "(STUD POKER HOUSE RULES)")


def test_a_wrong_count_after_action_puts_the_seat_out_with_its_money_back():
    """"If there has been action before the mistake is noticed, players with the incorrect number of
    cards will receive their money back and are out of the hand": on the deal after action, and on
    a later street (5th street: 5 due, seat 3 holds 4)."""
    assert irr.rule({"what": "wrong_count", "seat": 1, "cards": 2, "acted": True}, view()).consequence == "out_refund"
    late = irr.rule({"what": "wrong_count", "seat": 3, "cards": 4}, view("streets", 5))
    assert late.consequence == "out_refund" and late.action == "give seat 3 back what it put in the pot; its hand is out"


def test_not_seven_cards_at_the_showdown_is_a_foul_hand():
    """7-CARD STUD: "A player must have seven cards in order to win. Any other number of cards
    constitutes a foul hand.\""""
    ruling = irr.rule({"what": "wrong_count", "seat": 4, "cards": 6, "acted": True}, view("showdown", 7))
    assert ruling.consequence == "foul" and "A player must have seven cards in order to win" in ruling.message


def test_a_burn_error_is_rectified_or_the_down_card_accepted():
    """7-CARD STUD: "If the dealer burns two cards or fails to burn a card, he should, if possible,
    move the cards to the right position to rectify the error. If it happens on a down card and
    there is no way to tell which card was received, then the player must accept the card.\""""
    moved = irr.rule({"what": "burn_error", "burns": 2}, view("streets", 4))
    assert moved.consequence == "play_on" and moved.action.startswith("move the cards to the right positions")
    kept = irr.rule({"what": "burn_error", "burns": 0, "down": True, "traceable": False}, view("streets", 7))
    assert kept.message.endswith("\"the player must accept the card\" (7-CARD STUD)")
    with pytest.raises(irr.IrregularityError, match="no card is burned before 4th street"):
        irr.rule({"what": "burn_error", "burns": 0}, view())


@pytest.mark.parametrize("args, message", [
    ({"what": "wrong_count", "seat": 2, "cards": 3}, "seat 2 should hold 3 cards now: 3 is the right number"),
    ({"what": "wrong_count", "seat": 9, "cards": 4}, "seat 9 is not in this hand: the players are 1, 2, 3, 4"),
    ({"what": "burn_error", "burns": 1}, "burns is 0 (no card burned) or 2 (two cards burned)"),
    ({"what": "last_card_up", "seat": 1}, "7th street is not dealt yet"),
    ({"what": "misdeal"}, "what is one of wrong_count, burn_error, last_card_up, off_table"),
    ({"what": "burn_error", "burns": 0, "seat": 1}, "burn_error takes burns, down, traceable: 1 key(s) it does not"),
])
def test_a_report_that_does_not_fit_the_hand_is_refused_naming_why(args, message):
    with pytest.raises(irr.IrregularityError, match=re.escape(message)):
        irr.rule(args, view())


def _to_seventh(r: Run) -> None:
    r.m.press("deal")
    r.to("deal", "7th street")


def test_the_last_card_dealt_face_up_gives_the_seat_its_all_in_option_on_the_table():
    """7-CARD STUD: "If any player receives the last card face up, all other players will receive
    the last card face down. The player(s) whose down card was exposed has two options: (a)
    declaring himself all-in ... or (b) ... continue ... The player who was high on 6th Street will
    initiate the action." Seat 2's last card (the 9 of hearts) comes face up while 7th street is
    dealt: it is revealed, and 7th street's betting names seat 2's option."""
    r = Run(seats_in=(1, 2, 3)).open()
    _to_seventh(r)
    reply = r.m.command("irregularity", {"what": "last_card_up", "seat": 2, "card": "9H"})
    assert reply["consequence"] == "all_in_option"
    assert r.last("reveal") == {"hand": "up", "seat": 2, "street": 7, "card": "9H", "exposed": True}
    assert r.last("alarm")["code"] == "irregularity_last_card_up"
    r.m.press("deal")
    bet = r.last("prompt")
    assert bet["step"] == "bet" and "seat 2 (the last card dealt face up) may declare all-in for the pot" in bet["text"]
    r.to("showdown")
    with pytest.raises(Refused, match="does not hold"):
        r.m.command("showdown", {"seat": 2, "cards": ["2C", "3C", "4C", "5C", "6C", "7C", "8C"]})
    r.m.press("deal")
    result = r.last("result")
    assert result["all_in_option"] == [2] and result["up_cards"]["7"] == {"2": "9H"}
    assert [i["what"] for i in result["irregularities"]] == ["last_card_up"]


def test_a_misdeal_voids_the_hand_and_it_is_redealt_to_the_same_players_with_their_antes():
    """Choice 2: a misdeal (seat 3 dealt 2 cards, no action yet) voids the hand; the redeal goes to
    the same players, takes no ante again, and a seat sitting in meanwhile waits for the next hand."""
    r = Run(seats_in=(1, 2, 3)).open()
    r.m.press("deal")
    first = r.last("action_button")
    r.to("bet", "3rd street")
    r.m.command("irregularity", {"what": "wrong_count", "seat": 3, "cards": 2, "acted": False})
    void = r.last("void")
    assert void["by"] == "pit" and void["reason"].startswith("misdeal: seat 3 holds 2 cards, not 3, on the deal")
    assert r.m.state == "shuffle"
    r.m.shuffled(52)
    assert r.m.press("sit_in", 5).accepted
    r.m.press("deal")
    redeal = r.last("action_button")
    assert (redeal["redeal_of"], redeal["players"], redeal["collection"]) == (1, [1, 2, 3], first["collection"])
    assert r.last("prompt")["text"] == ("Hand 2 redeals hand 1 (misdeal) to the same players: their antes stay in the "
                                        "pot and the collection taken stands: take nothing again; press deal.")
    while r.m.state == "dealing":
        r.m.press("deal")
    r.m.press("deal")
    r.m.shuffled(52)
    r.m.press("deal")
    assert r.last("action_button")["redeal_of"] is None and r.last("action_button")["players"] == [1, 2, 3, 5]


def test_a_seat_out_with_its_money_back_cannot_win_the_pot():
    r = Run(seats_in=(1, 2, 3)).open()
    r.m.press("deal")
    r.to("bet", "4th street")
    r.m.command("irregularity", {"what": "wrong_count", "seat": 1, "cards": 5})
    r.to("showdown")
    with pytest.raises(Refused, match=r"seat 1 is out of the hand \(refunded"):
        r.m.command("showdown", {"seat": 1, "cards": ["2C", "3C", "4C", "5C", "6C", "7C", "8C"]})
    r.m.press("deal")
    assert r.last("result")["out"] == {"1": "refunded"}
    assert card("2C") is not None
