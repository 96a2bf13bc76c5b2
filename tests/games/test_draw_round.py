"""Draw Poker & Low-Ball's round machine (games/draw/machine.py), driven as the controller would:
the shuffler's deck check and counts, the dealer's presses, the seat buttons and the commands
cmd/draw, cmd/irregularity and cmd/showdown. Every event is checked against its schemas (generic
and the game's own), every snapshot against state.json. Sheet: california-card-room-games.txt,
"DRAW POKER & LOW-BALL" and the sections after it."""

from __future__ import annotations

import json
import re

import pytest
from round_run import RoundRun

from controller.table.commands import CommandError, parse
from controller.table.inbox import Command
from games.cards import cards
from games.draw import DrawOptions, DrawRound
from games.registry import get
from games.round import Refused

CODE = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b|\bJK\b")
STEPS = ["collect", "cut", "deal", "bet", "burn", "draw", "bet", "showdown"]


class Run(RoundRun):
    """The machine driven as the controller drives it (tests/round_run.py), on a 6-seat table."""

    m: DrawRound

    def __init__(self, **options) -> None:
        super().__init__("draw", DrawOptions(**{"seats": 6, **options}), "d")

    def open(self) -> Run:
        self.m.open()
        self.m.deck_checked(self.m.spec.all_cards(), 0)
        self.m.shuffled(53)
        assert self.m.state == "betting"
        return self

    def to(self, step: str) -> dict:
        """Press deal until the prompt asks for ``step``; that prompt."""
        if self.m.state == "betting":
            self.m.press("deal")
        while self.m.state != "dealing" or self.prompt().get("step") != step:
            assert self.m.press("deal").accepted, self.prompt()
            assert self.m.state in ("dealing", "result")
        return self.prompt()

    def prompt(self) -> dict:
        return self.m.snapshot()["prompt"]

    def finish(self) -> dict:
        """Press deal to the end of the hand, settle, shuffle: the next hand's betting; the result."""
        while self.m.state == "dealing":
            assert self.m.press("deal").accepted
        result = self.last("result")
        assert self.m.press("deal").accepted and self.m.state == "shuffle"
        self.m.shuffled(53)
        return result

    def hand(self) -> dict:
        self.m.press("deal")
        return self.finish()

    def lights(self) -> dict:
        return self.m.snapshot()["lights"]["seats"]

    def irregularity(self, what: str, **args) -> dict:
        return self.m.command("irregularity", {"what": what, **args})


def steps(r: Run) -> list[str]:
    r.m.press("deal")
    seen = []
    while r.m.state == "dealing":
        p = r.last("prompt")
        assert p["expect"] == "press" and p["buttons"] == ["deal"], p   # hw_sim's dealer presses buttons[0]
        seen.append(p["step"])
        r.m.press("deal")
    return seen


@pytest.mark.parametrize("variant", ["draw", "lowball"])
def test_the_deal_sequence(variant):
    """Rules 1 & 2 and 8: antes and blinds, five cards each, one round of betting, the burn ("Before
    dealing the draw, the top card from the deck must be discarded"), one draw, a last round, the
    showdown."""
    r = Run(variant=variant).open()
    assert steps(r) == STEPS
    assert r.m.state == "result" and r.last("result")["showdown"] is None
    assert r.last("result")["variant"] == variant


def test_the_hand_starts_with_its_blinds_antes_and_collection_and_the_button_moves_each_hand():
    r = Run(first_blind=2).open()
    assert r.lights() == {"dealer_button": [1], "small_blind": [2, 3], "big_blind": [4]}
    r.m.press("deal")
    assert r.last("action_button") == {
        "seat": 1, "dead_button": False, "big_blind": 4, "players": [1, 2, 3, 4, 5, 6], "variant": "draw",
        "stakes": {"ante": 100, "antes": 600, "blinds": [{"amount": 200, "seat": 2}, {"amount": 300, "seat": 3},
                                                         {"amount": 500, "seat": 4}]},
        "collection": {"players": 6, "fee": 3000, "jackpot": 0, "basis": "time", "time_fee_each": 500,
                       "period_minutes": 30, "schedule": "draw_lowball", "time_due": [1, 2, 3, 4, 5, 6],
                       "time_left": {str(s): 30 for s in range(1, 7)}},
        "redeal_of": None, "reante_of": None}
    assert r.prompt()["text"] == ("Hand 1 (Draw Poker): button seat 1; blinds: seat 2 $2.00, seat 3 $3.00, seat 4 "
                                  "$5.00; antes $1.00 from each of the 6 players; collect time ($5.00 per person per "
                                  "30 minutes) from seats 1, 2, 3, 4, 5, 6: $30.00 in all, nothing from this pot; "
                                  "press deal.")
    bet = r.to("bet")
    assert bet["text"].startswith("Betting round (before the draw): seat 5 acts first (left of the $5.00 blind); "
                                  "the blind is live") and "check and raise is permitted" in bet["text"]
    first = r.finish()
    assert first["button"] == 1 and first["stakes"]["blinds"][2] == {"amount": 500, "seat": 4}
    assert r.lights() == {"dealer_button": [2], "small_blind": [3, 4], "big_blind": [5]}
    assert [r.hand()["button"] for _ in range(5)] == [2, 3, 4, 5, 6]
    shuffles = r.all("shuffle")
    assert len(shuffles) == 7 and all(s == {"ok": True, "count": 53, "expected": 53} for s in shuffles)


def test_the_cards_are_cut_before_each_deal():
    """THE DEAL AND THE DRAW: "Cards must be cut before each deal ... The 'cut' is made with one
    hand, straight out": a step of its own after the antes and blinds, before the five cards, in
    every hand and in a redeal; nothing is dealt yet, so an irregularity is refused."""
    r = Run().open()
    cut = r.to("cut")
    assert cut["text"] == ("Cut the cards before the deal: one hand, straight out (\"Cards must be cut before each "
                           "deal\", THE DEAL AND THE DRAW); press deal.")
    with pytest.raises(Refused, match=r"no card is dealt yet: the cut is due"):
        r.irregularity("first_card_exposed")
    r.to("deal")
    r.irregularity("first_card_exposed")             # a misdeal: the redeal is cut again
    r.m.shuffled(53)
    assert r.to("cut")["step"] == "cut"


def test_nobody_opens_an_ante_only_pot_and_everyone_antes_again():
    """BASICS OF DRAW POKER, OPENERS: "No 'openers' are required in California Draw. You may open on
    anything. If no one opens the pot, everyone 'antes' again and you resume this procedure until
    the pot has been opened". A table without blinds (game.blinds = []), seats 1-4, ante $1.00,
    first_blind 2 (the high card takes the button): hand 1, button 2, seat 3 first to act; nobody
    opens; hand 2 (button 3, choice 12) collects the four antes again for hand 1's pot ($8.00 in the
    middle), is opened and played to a showdown; hand 3 is a new pot."""
    r = Run(blinds=(), seats_in=(1, 2, 3, 4), first_blind=2,
            schedule={"basis": "pot", "bands": [{"low": 2, "fee": 100}], "jackpot": 0})
    r.open()
    assert r.lights() == {"dealer_button": [2], "small_blind": [], "big_blind": []}
    assert r.prompt()["text"] == "Hand 1: button seat 2, antes only, 4 players; press deal to start the hand."
    r.m.press("deal")
    ab = r.last("action_button")
    assert (ab["seat"], ab["big_blind"], ab["reante_of"]) == (2, None, None)
    assert ab["stakes"] == {"ante": 100, "antes": 400, "blinds": []}
    assert "blinds: none (antes only); antes $1.00 from each of the 4 players" in r.prompt()["text"]
    bet = r.to("bet")
    assert bet["text"].startswith("Betting round (before the draw): seat 3 acts first (left of the button); "
                                  "\"No 'openers' are required")
    with pytest.raises(Refused, match="no draw is due"):
        r.m.command("draw", {"draws": {"1": 1, "2": 2}})
    reply = r.m.command("no_open", {})
    assert reply["opened"] is False and r.m.state == "result"
    first = r.last("result")
    assert (first["opened"], first["draws"], first["showdown"], first["button"]) == (False, None, None, 2)
    assert r.m.press("deal").accepted and r.m.state == "shuffle"
    r.m.shuffled(53)
    r.m.press("deal")
    again = r.last("action_button")
    assert (again["seat"], again["reante_of"], again["stakes"]["antes"]) == (3, 1, 400)
    assert r.prompt()["text"].startswith("Hand 2 (Draw Poker): button seat 3; nobody opened hand 1: its pot stays "
                                         "in the middle and everyone antes again (OPENERS); blinds: none")
    r.to("burn")
    r.m.command("draw", {"draws": {"1": 2, "4": 0}})
    second = r.finish()
    assert (second["opened"], second["reante_of"]) == (True, 1)
    r.m.press("deal")
    assert r.last("action_button")["reante_of"] is None and r.last("action_button")["seat"] == 4


def test_a_pot_with_blinds_is_always_opened():
    """BLINDS: a blind is a live bet, so the pot is open: nobody-opened is refused with blinds, and
    outside the betting before the draw."""
    r = Run().open()
    r.to("bet")
    with pytest.raises(Refused, match=r"the blinds open the pot"):
        r.m.command("no_open", {})
    r = Run(blinds=()).open()
    r.to("cut")
    with pytest.raises(Refused, match=r"nobody-opened is reported during the betting before the draw .*cut is due"):
        r.m.command("no_open", {})


def test_the_stakes_and_the_schedule_come_from_the_config():
    r = Run(ante=50, blinds=(100, 200), schedule={"basis": "pot", "bands": [{"low": 2, "high": 4, "fee": 100},
                                                                           {"low": 5, "fee": 300}], "jackpot": 100})
    r.open().m.press("deal")
    ab = r.last("action_button")
    assert ab["stakes"] == {"ante": 50, "antes": 300, "blinds": [{"amount": 100, "seat": 1},
                                                                 {"amount": 200, "seat": 2}]}
    assert ab["collection"] == {"players": 6, "fee": 300, "jackpot": 100, "basis": "pot", "schedule": "table"}
    assert "collect the fee $3.00 and the jackpot $1.00 (6 players)" in r.prompt()["text"]
    assert r.lights() == {"dealer_button": [6], "small_blind": [1], "big_blind": [2]}


def test_seat_buttons_mark_a_seat_out_and_in_and_the_blinds_follow_before_the_deal():
    r = Run().open()
    assert r.m.press("sit_out", 2).accepted
    assert r.lights() == {"dealer_button": [6], "small_blind": [1, 3], "big_blind": [4]}
    assert not r.m.press("sit_out", 2).accepted and r.last("button")["reason"] == "seat 2 is already out"
    assert r.hand()["players"] == [1, 3, 4, 5, 6]


def test_fewer_than_two_players_and_no_deal_is_lit_until_a_second_sits_in():
    r = Run(seats=3, seats_in=(1, 2)).open()
    assert r.m.press("sit_out", 1).accepted
    assert r.last("prompt")["buttons"] == [] and "waits for players" in r.last("prompt")["text"]
    assert not r.m.press("deal").accepted
    assert r.m.press("sit_in", 3).accepted
    assert r.hand()["players"] == [2, 3]


def test_a_saved_button_goes_on_after_a_restart():
    r = Run().open()
    r.hand()
    r.hand()                         # buttons 6 and 1 played
    saved = json.loads(json.dumps(r.m.save()))
    fresh = Run()
    fresh.m.restore(saved, "betting")
    fresh.open()
    assert fresh.lights()["dealer_button"] == [2]
    bad = Run()
    bad.m.restore({"draw": {"seated": [1, 2], "last": {"button": 1, "spots": [2, 3], "blinds": [2, 3],
                                                       "dead_button": False}}}, None)
    assert bad.last("alarm")["code"] == "draw_positions_reset", "two blinds saved, three configured"


# --- cmd/draw: the stub counted ----------------------------------------------------------

def test_the_draws_entered_say_how_to_deal_the_draw_and_when_the_stub_runs_short():
    """Six players each drawing five from a stub of 22 (53 - 30 - the burn): TOO FEW CARDS FOR THE
    DRAW at seat 5's second card (the deal's order: left of the button, seat 6)."""
    r = Run().open()
    r.to("burn")
    reply = r.m.command("draw", {"draws": {str(s): 5 for s in range(1, 7)}})
    assert (reply["stub"], reply["needed"], reply["short"], reply["order"]) == (22, 30, True, [1, 2, 3, 4, 5, 6])
    alarm = r.last("alarm")
    assert (alarm["code"], alarm["severity"]) == ("stub_short", "warning")
    assert alarm["message"] == "TOO FEW CARDS FOR THE DRAW: the stub holds 22 cards for 30 to deal"
    draw = r.to("draw")
    assert draw["text"] == alarm["action"] + " Press deal when the draw is complete."
    assert "Deal seat 1 5, seat 2 5, seat 3 5, seat 4 5 and seat 5 1 of its 5. At the last card, combine it" \
        in draw["text"] and draw["text"].endswith("Deal seat 5 its last 4 and seat 6 5. Press deal when the draw is "
                                                  "complete.")
    result = r.finish()
    assert result["draws"] == {str(s): 5 for s in range(1, 7)}
    assert result["stub"] == {"stub": 22, "needed": 30, "reshuffles": 1, "complete": True}


def test_draws_that_fit_the_stub_raise_no_alarm_and_the_folded_seats_do_not_draw():
    r = Run().open()
    r.to("burn")
    reply = r.m.command("draw", {"draws": {"2": 3, "4": 0, "5": 2}})
    assert (reply["stub"], reply["needed"], reply["short"]) == (22, 5, False)
    assert r.all("alarm") == []
    assert r.to("bet")["text"].startswith("Betting round (after the draw): seat 2 acts first (the first player still "
                                          "in to the left of the button)")


def test_without_draws_the_prompt_says_the_rule_when_the_stub_may_run_short():
    r = Run().open()
    text = r.to("draw")["text"]
    assert text.startswith("Deal the draw: each player still in discards, then receives as many cards as he "
                           "discarded (up to five), from the left of the button. The stub holds 22 cards; if the stub "
                           "runs short, the last card may not be dealt")
    small = Run(seats=4).open()
    assert "; if the stub runs short" not in small.to("draw")["text"], "four players: 32 stub cards for 20 at most"


def test_a_player_may_change_his_draw_until_the_burn_card_is_burned():
    """"The last player may also change his draw unless the dealer has burned the burn card.\""""
    r = Run().open()
    r.to("burn")
    r.m.command("draw", {"draws": {"1": 5, "3": 1}})
    assert r.m.command("draw", {"draws": {"1": 5, "3": 2}})["draws"] == {"1": 5, "3": 2}
    r.m.press("deal")   # the burn
    with pytest.raises(Refused, match="the burn card is burned: the draws stand"):
        r.m.command("draw", {"draws": {"1": 5, "3": 3}})
    late = Run().open()
    late.to("draw")
    assert late.m.command("draw", {"draws": {"1": 2, "2": 2}})["stub"] == 22, "a first entry after the burn counts"


@pytest.mark.parametrize("args, message", [
    ({"draws": {"1": 6, "2": 0}}, "seat 1 draws 0 to 5 cards (\"Players may draw up to five cards\")"),
    ({"draws": {"1": -1, "2": 0}}, "seat 1 draws 0 to 5 cards"),
    ({"draws": {"1": True, "2": 0}}, "seat 1 draws 0 to 5 cards"),
    ({"draws": {"1": 2}}, "a draw is for two players or more"),
    ({"draws": {"one": 2, "2": 0}}, "a key of draws is not a seat number"),
    ({"draws": {"7": 2, "2": 0}}, "seat 7 is not in hand 1: the players are 1, 2, 3, 4, 5, 6"),
    ({"draws": {}}, "draws is {seat: cards drawn}"),
    ({"draws": [1, 2]}, "draws is {seat: cards drawn}"),
])
def test_bad_draws_are_refused_and_the_hand_goes_on(args, message):
    r = Run().open()
    r.to("burn")
    before = len(r.events)
    with pytest.raises(Refused) as caught:
        r.m.command("draw", args)
    assert caught.value.reason.startswith(message)
    assert len(r.events) == before and r.m.draws is None
    assert r.m.press("deal").accepted and r.prompt()["step"] == "draw"


def test_draws_are_refused_before_the_betting_is_over():
    r = Run().open()
    r.to("bet")
    with pytest.raises(Refused, match=r"no draw is due .*bet is due.*while the burn or the draw is due"):
        r.m.command("draw", {"draws": {"1": 1, "2": 2}})


# --- cmd/irregularity: the sheet's consequence, carried out ------------------------------

def test_a_misdeal_is_redealt_with_the_same_button_and_the_blinds_stay_in_the_pot():
    """THE DEAL AND THE DRAW: "If the first card dealt is turned over, it is deemed a misdeal ...
    hands are redealt"; the button moves "after each hand is completed"."""
    r = Run().open()
    r.hand()                                        # button 6 completed
    r.to("deal")
    reply = r.irregularity("first_card_exposed")
    assert reply["consequence"] == "misdeal"
    void = r.last("void")
    assert (void["round"], void["by"]) == (2, "pit") and void["reason"].startswith("misdeal: the first card dealt was "
                                                                                    "turned over")
    assert r.last("alarm")["code"] == "irregularity_first_card_exposed"
    assert r.m.state == "shuffle"
    r.m.shuffled(53)
    assert r.m.state == "betting" and r.m.round == 3 and r.lights()["dealer_button"] == [1]
    r.m.press("deal")
    assert r.last("action_button")["redeal_of"] == 2 and r.last("action_button")["seat"] == 1
    assert r.prompt()["text"].startswith("Hand 3 redeals hand 2 (misdeal): button seat 1; the antes and blinds posted "
                                         "for hand 2 stay in the pot: post nothing again")
    r.to("deal")
    r.irregularity("boxed", count=2)                # the redeal misdealt too: it still redeals hand 2
    r.m.shuffled(53)
    r.m.press("deal")
    assert r.last("action_button")["redeal_of"] == 2
    assert r.finish()["button"] == 1
    r.m.press("deal")
    assert r.last("action_button")["seat"] == 2 and r.last("action_button")["redeal_of"] is None


def _heads_up_to_a_misdealt_third_hand() -> Run:
    """Seats 1 and 2 heads-up, three blinds: hand 3 has button 1, blinds (none, 1, 2), and is
    misdealt (the first card turned over); the table is back in betting for its redeal."""
    r = Run(seats_in=(1, 2)).open()
    r.hand()
    r.hand()
    r.m.press("deal")
    ab = r.last("action_button")
    assert (r.m.round, ab["seat"], [b["seat"] for b in ab["stakes"]["blinds"]]) == (3, 1, [None, 1, 2])
    r.to("deal")
    r.irregularity("first_card_exposed")
    r.m.shuffled(53)
    assert r.m.state == "betting" and r.m.round == 4
    return r


def test_a_seat_sitting_in_during_a_redeal_moves_neither_the_button_nor_the_blinds():
    """Issue 23.2, choice 4: the redeal is the misdealt hand dealt again ("hands are redealt", THE
    DEAL AND THE DRAW), and the button moves only "after each hand is completed" (BLINDS). Seat 5
    sits in while hand 4 (the redeal of hand 3) waits: hand 4 keeps button 1, blinds (none, 1, 2)
    and the two players' antes ($2.00, already in the pot); seat 5 is dealt from hand 5, whose
    button moves on from hand 3's (the $5.00 blind one seat left, from 2 to 5)."""
    r = _heads_up_to_a_misdealt_third_hand()
    assert r.m.press("sit_in", 5).accepted
    assert r.lights() == {"dealer_button": [1], "small_blind": [1], "big_blind": [2]}
    assert r.prompt()["text"] == ("Hand 4 (it redeals hand 3): button seat 1, $5.00 blind seat 2, 2 players; seat 5 sat "
                                  "in since hand 3: dealt in from the next hand; press deal to start the hand.")
    r.m.press("deal")
    ab = r.last("action_button")
    assert (ab["redeal_of"], ab["seat"], ab["players"]) == (3, 1, [1, 2])
    assert ab["stakes"] == {"ante": 100, "antes": 200, "blinds": [{"amount": 200, "seat": None},
                                                                 {"amount": 300, "seat": 1},
                                                                 {"amount": 500, "seat": 2}]}
    assert ab["collection"]["time_due"] == [] and ab["collection"]["fee"] == 0   # their half hour is paid
    assert r.prompt()["text"].startswith("Hand 4 redeals hand 3 (misdeal): button seat 1; the antes and blinds posted "
                                         "for hand 3 stay in the pot: post nothing again;")
    result = r.finish()
    assert (result["button"], result["players"], result["redeal_of"]) == (1, [1, 2], 3)
    r.m.press("deal")
    nxt = r.last("action_button")
    assert nxt["redeal_of"] is None and nxt["players"] == [1, 2, 5]
    assert [b["seat"] for b in nxt["stakes"]["blinds"]][-1] == 5


def test_a_player_of_the_misdealt_hand_who_sits_out_is_not_dealt_and_the_redeal_waits_for_two():
    """Choice 4: a player of the misdealt hand who sits out during the redeal's betting is not dealt
    in (what he posted stays in the pot); with fewer than two of its players in, the redeal waits
    (deal not lit) for them, not for new seats; a player sitting in again is dealt the redeal."""
    r = Run(seats_in=(1, 2, 3), schedule={"basis": "pot", "bands": [{"low": 2, "fee": 100}], "jackpot": 0})
    r.open()
    r.m.press("deal")
    first = r.last("action_button")
    r.to("deal")
    r.irregularity("first_card_exposed")
    r.m.shuffled(53)
    assert r.m.press("sit_out", 3).accepted
    r.m.press("deal")
    ab = r.last("action_button")
    assert (ab["redeal_of"], ab["seat"], ab["players"]) == (1, first["seat"], [1, 2])
    assert ab["stakes"] == first["stakes"] and ab["collection"] == first["collection"]
    assert r.prompt()["text"].endswith("post nothing again; the collection taken for hand 1 stands: collect nothing "
                                       "again; seat 3 sat out: not dealt in, what it posted stays in the pot; press "
                                       "deal.")
    r.to("deal")
    r.irregularity("boxed", count=2)                # misdealt again: hand 1 is redealt once more
    r.m.shuffled(53)
    assert r.m.press("sit_out", 2).accepted and r.m.press("sit_in", 4).accepted
    assert "deal" not in r.m.snapshot()["lights"]["buttons_lit"]
    assert r.prompt()["text"] == ("Hand 3 redeals hand 1 (misdeal) and waits for its players: two of seats 1, 2, 3 "
                                  "must be in (seat button sit_in); a void by the pit gives up the redeal and the next "
                                  "hand is a new one.")
    assert r.m.press("sit_in", 3).accepted
    r.m.press("deal")
    ab = r.last("action_button")
    assert (ab["redeal_of"], ab["seat"], ab["players"]) == (1, first["seat"], [1, 3])


def test_an_irregular_deck_is_no_pot_and_the_deck_is_checked_before_the_next_hand():
    r = Run().open()
    r.to("draw")
    reply = r.irregularity("irregular_deck")
    assert reply["consequence"] == "no_pot" and r.last("void")["reason"].startswith("NO POT: the deck is irregular")
    assert r.last("transition") == {"from": "shuffle", "to": "deck_check", "trigger": "deck_failed"}
    assert r.m.state == "deck_check" and r.last("prompt")["expect"] == "deck_check"
    r.m.deck_checked(r.m.spec.all_cards()[:-1], 0)
    assert r.last("alarm")["missing"] == ["JK"] and r.m.state == "deck_check"
    r.m.deck_checked(r.m.spec.all_cards(), 0)
    r.m.shuffled(53)
    r.m.press("deal")
    assert r.last("action_button")["seat"] == 6 and r.last("action_button")["redeal_of"] is None
    r.to("showdown")
    r.m.press("deal")
    assert r.m.state == "result"
    with pytest.raises(Refused, match=r"no hand is being dealt \(state result\)"):
        r.irregularity("boxed")
    with pytest.raises(Refused, match="Once the pot is out of play, no adjustment can be made"):
        r.irregularity("irregular_deck")


def test_a_sixth_card_taken_back_is_the_burn_and_no_other_card_is_burned():
    r = Run().open()
    r.to("deal")
    r.irregularity("extra_cards", seat=2)
    assert r.to("burn")["text"].endswith("The burn is the sixth card taken back (THE DEAL AND THE DRAW): do not burn "
                                         "another; press deal.")
    assert r.m.command("draw", {"draws": {"1": 1, "2": 1}})["stub"] == 22, "53 - 30 - the sixth card as the burn"


def test_a_sixth_card_picked_up_kills_the_hand():
    r = Run().open()
    r.to("bet")
    r.irregularity("extra_cards", seat=2, picked_up=True)
    r.to("burn")
    with pytest.raises(Refused, match="seat 2's hand is dead: it does not draw"):
        r.m.command("draw", {"draws": {"1": 1, "2": 1}})
    assert r.m.command("draw", {"draws": {"1": 1, "3": 1}})["stub"] == 21, "53 - 30 - the sixth card - the burn"
    r.to("showdown")
    with pytest.raises(Refused, match="seat 2's hand is dead"):
        r.m.command("showdown", {"seat": 2, "cards": ["AS", "KS", "QS", "JS", "10S"]})
    result = r.finish()
    assert result["dead_hands"] == [2] and result["irregularities"][0]["what"] == "extra_cards"
    assert result["irregularities"][0]["consequence"] == "play_on" and result["irregularities"][0]["phase"] == "deal"


def test_replaced_cards_on_the_deal_come_off_the_stub():
    """One boxed card and a card off the table on the deal: each "replaced from the center of the
    deck": the stub is 22 - 2 = 20."""
    r = Run().open()
    r.to("deal")
    r.irregularity("boxed", seat=3)
    r.irregularity("off_table", seat=5)
    r.to("burn")
    assert r.m.command("draw", {"draws": {"1": 1, "2": 1}})["stub"] == 20


def test_lowball_an_exposed_six_or_higher_is_dead_and_public_a_five_or_under_is_taken():
    r = Run(variant="lowball").open()
    r.to("deal")
    reply = r.irregularity("exposed", seat=3, card="9H")
    assert "player will receive another card from the center of the deck" in reply["message"]
    assert r.last("reveal") == {"hand": "exposed", "card": "9H", "seat": 3}
    r.to("burn")
    assert r.m.command("draw", {"draws": {"1": 1, "3": 1}})["stub"] == 21
    r.to("showdown")
    with pytest.raises(Refused, match="card 2 of seat 3's hand is already entered for a dead card"):
        r.m.command("showdown", {"seat": 3, "cards": ["2C", "9H", "3D", "4S", "5S"]})
    kept = Run(variant="lowball").open()
    kept.to("deal")
    kept.irregularity("exposed", seat=3, card="4D")
    kept.to("showdown")
    with pytest.raises(Refused, match="card 1 of seat 1's hand is already entered for seat 3's exposed card"):
        kept.m.command("showdown", {"seat": 1, "cards": ["4D", "2C", "3D", "6S", "7S"]})
    assert kept.m.command("showdown", {"seat": 3, "cards": ["4D", "2C", "3D", "6S", "7S"]})["showdown"]["low"] == [3]


def test_dead_cards_on_the_draw_are_replaced_after_everybody_and_can_run_the_stub_short():
    """Six players, a stub of 22: seats 1-4 draw five, seat 5 one: 21, the last card left. A boxed
    card in seat 1's draw needs one card more: TOO FEW CARDS FOR THE DRAW at the replacement. The new
    stub: the last card, the burn, the 21 discards and the dead card, 24."""
    r = Run().open()
    r.to("burn")
    assert r.m.command("draw", {"draws": {"1": 5, "2": 5, "3": 5, "4": 5, "5": 1, "6": 0}})["short"] is False
    r.to("draw")
    reply = r.irregularity("boxed", seat=1)
    assert reply["draw"]["short"] is True and reply["draw"]["needed"] == 22
    assert r.last("alarm")["code"] == "stub_short"
    text = r.prompt()["text"]
    assert "seat 5 1. At the last card, combine it with all the discards (the burn, the folded hands, the dead cards " \
           "and the discards of seats 1, 2, 3, 4, 5); shuffle this new stub (24 cards)" in text
    assert text.endswith("Deal seat 1 1 more for its dead card (after everybody has drawn). Press deal when the draw is "
                         "complete.")


def test_cards_out_of_rotation_on_the_draw_skip_the_last_betting_round():
    r = Run().open()
    r.to("draw")
    r.irregularity("out_of_rotation")
    r.m.press("deal")
    assert r.prompt()["step"] == "showdown"
    assert r.prompt()["text"].startswith("Immediate showdown (cards dealt out of rotation on the draw: no further "
                                         "action)")
    assert r.finish()["no_further_action"] is True


def test_a_deal_out_of_position_after_the_opening_moves_the_next_button_from_there():
    r = Run().open()                                # button 6
    r.to("bet")
    r.irregularity("out_of_position", opened=True, button=3)
    result = r.finish()
    assert (result["button"], result["moved_button"]) == (6, 3)
    assert r.lights() == {"dealer_button": [4], "small_blind": [5, 6], "big_blind": [1]}


@pytest.mark.parametrize("args, message", [
    ({"what": "boxed", "seat": 9}, "seat 9 is not a player of this hand"),
    ({"what": "exposed", "seat": 2, "card": "QQ"}, "the exposed card is not a card code"),
    ({"what": "shuffle"}, "what is one of"),
    ({"what": "boxed", "acted": 1}, "acted is no part of the boxed report"),
])
def test_a_bad_report_is_refused_and_publishes_nothing(args, message):
    r = Run().open()
    r.to("deal")
    before = len(r.events)
    with pytest.raises(Refused) as caught:
        r.m.command("irregularity", args)
    assert caught.value.reason.startswith(message) and "QQ" not in caught.value.reason
    assert len(r.events) == before and r.m.state == "dealing"


def test_reports_before_the_cards_are_dealt_are_refused():
    r = Run().open()
    with pytest.raises(Refused, match=r"no hand is being dealt \(state betting\)"):
        r.irregularity("first_card_exposed")
    r.m.press("deal")
    with pytest.raises(Refused, match="no card is dealt yet: the antes and blinds are due"):
        r.irregularity("first_card_exposed")
    assert r.irregularity("irregular_deck")["consequence"] == "no_pot", "the pot is in play once the antes are"


# --- the showdown, entered by the pit -----------------------------------------------------

def test_a_high_draw_showdown_entered_by_card_codes():
    r = Run().open()
    r.to("burn")
    r.m.command("draw", {"draws": {"1": 2, "4": 0, "6": 1}})
    r.to("showdown")
    r.m.command("showdown", {"seat": 4, "cards": ["9H", "10H", "JH", "QH", "KH"]})
    reply = r.m.command("showdown", {"seat": 1, "cards": ["AS", "AD", "AH", "AC", "JK"]})
    assert reply["showdown"]["high"] == [1] and reply["showdown"]["hands"][0]["high"]["name"] == "five aces"
    with pytest.raises(Refused, match="seat 3 folded before the draw"):
        r.m.command("showdown", {"seat": 3, "cards": ["2S", "3S", "4S", "5S", "7D"]})
    with pytest.raises(Refused, match="bet_after_draw is Low-Ball's"):
        r.m.command("showdown", {"seat": 6, "cards": ["2S", "3S", "4S", "5S", "7D"], "bet_after_draw": True})
    assert r.all("reveal") == [{"hand": "seat", "seat": 4, "cards": ["9H", "10H", "JH", "QH", "KH"]},
                               {"hand": "seat", "seat": 1, "cards": ["AS", "AD", "AH", "AC", "JK"]}]
    assert r.finish()["showdown"] == reply["showdown"]


def test_a_lowball_showdown_and_the_seven_or_better_rule():
    r = Run(variant="lowball").open()
    r.to("showdown")
    r.m.command("showdown", {"seat": 2, "cards": ["8D", "4H", "3D", "2S", "AC"], "bet_after_draw": True})
    reply = r.m.command("showdown", {"seat": 5, "cards": ["7S", "6D", "5H", "4C", "3S"], "bet_after_draw": False})
    show = reply["showdown"]
    assert (show["low"], show["pot"]) == ([5], "low")
    assert [(s["seat"], s["center_pot_only"]) for s in show["seven_or_better"]] == [(5, True)]
    with pytest.raises(Refused, match="bet_after_draw is true or false"):
        r.m.command("showdown", {"seat": 1, "cards": ["KS", "QS", "JS", "9S", "8S"], "bet_after_draw": "no"})


@pytest.mark.parametrize("args, message", [
    ({"seat": 2, "cards": ["AS", "XX", "2C", "3C", "4C"]}, "card 2 of seat 2's hand is not a card code"),
    ({"seat": 2, "cards": ["QS", "QS", "2C", "3C", "4C"]}, "cards 1 and 2 of seat 2's hand are the same card"),
    ({"seat": 2, "cards": ["KH", "2C", "3C", "4C", "5C"]}, "card 1 of seat 2's hand is already entered for seat 3's"),
    ({"seat": 2, "cards": ["QS", "2C", "3C", "4C"]}, "seat 2's hand is 5 cards, not 4"),
    ({"seat": 7, "cards": ["QS", "2C", "3C", "4C", "5C"]}, "seat 7 is not in hand 1"),
    ({"seat": 3, "cards": ["QS", "2C", "3C", "4C", "5C"]}, "seat 3's hand is already entered for this hand"),
    ({"seat": 2}, "a hand shown needs both seat and cards"),
    ({"seat": 2, "cards": ["QS", "2C", "3C", "4C", "5C"], "board": ["2H"]}, "give seat and cards"),
])
def test_a_bad_showdown_entry_is_refused_with_its_reason_and_the_table_keeps_running(args, message):
    r = Run().open()
    r.to("showdown")
    r.m.command("showdown", {"seat": 3, "cards": ["KH", "KD", "8C", "8D", "2H"]})
    before = len(r.events)
    with pytest.raises(Refused) as caught:
        r.m.command("showdown", args)
    assert caught.value.reason.startswith(message)
    assert len(r.events) == before, "a refused entry publishes nothing"
    for code in ("AS", "XX", "QS", "KH", "2C"):
        assert code not in caught.value.reason, "a refusal never quotes a code entered"
    assert r.m.press("deal").accepted and r.m.state == "result"


def test_no_showdown_before_it_is_due():
    r = Run().open()
    r.to("draw")
    with pytest.raises(Refused, match=r"no showdown is due .*draw is due"):
        r.m.command("showdown", {"seat": 1, "cards": ["AS", "KS", "QS", "JS", "10S"]})


# --- secrecy and the deck ------------------------------------------------------------------

def test_nothing_but_the_cards_face_up_and_entered_is_ever_named():
    """Cards dealt down, burns, discards and the stub never reach an event, a prompt or the snapshot:
    the controller never learns them; it names an exposed card (it lies face up) and the hands the
    pit entered, once entered."""
    r = Run(variant="lowball").open()
    r.hand()
    r.to("deal")
    r.irregularity("boxed")
    r.to("burn")
    r.m.command("draw", {"draws": {str(s): 5 for s in range(1, 7)}})
    r.to("showdown")
    assert CODE.findall(json.dumps(r.events) + json.dumps(r.m.snapshot())) == []
    r.to("showdown")
    r.m.command("showdown", {"seat": 1, "cards": ["AH", "2S", "3D", "4C", "JK"]})
    named = json.dumps(r.events) + json.dumps(r.m.snapshot())
    assert set(CODE.findall(named)) == {"AH", "2S", "3D", "4C", "JK"}
    r.finish()
    assert r.m.snapshot()["showdown"] is None and r.m.snapshot()["draws"] is None, "the next hand starts clean"


def test_a_wrong_shuffle_count_sends_the_table_to_a_deck_check_naming_missing_cards():
    r = Run().open()
    r.m.press("deal")
    while r.m.state == "dealing":
        r.m.press("deal")
    r.m.press("deal")
    r.m.shuffled(52)
    assert r.m.state == "deck_check" and r.last("alarm")["code"] == "shuffle_count"
    r.m.deck_checked([c for c in r.m.spec.all_cards() if c != cards("JK")[0]], 0)
    assert r.last("alarm")["missing"] == ["JK"] and r.m.state == "deck_check"


@pytest.mark.parametrize("name, payload, message", [
    ("showdown", {"seat": 2, "cards": "AS KS QS JS 10S"}, "seat 2's hand is a list of 5 card codes"),
    ("showdown", {"seat": 2, "cards": ["AS", "KS", "QS", "JS", 10]}, "card 5 of seat 2's hand is not a card code"),
    ("irregularity", {"what": "exposed", "seat": 2, "card": ["9H"]}, "the exposed card is not a card code"),
])
def test_a_malformed_entry_passes_the_schema_to_a_refusal_that_quotes_no_code(name, payload, message):
    """The commands' schemas leave the cards' shape to the machine, whose refusal names a place,
    never a code (a schema's refusal quotes nothing it got either: controller.table.commands)."""
    request = parse(Command(name, json.dumps({"id": 1, **payload}).encode(), "r"), remote_buttons=False,
                    game=get("draw").commands)
    r = Run().open()
    r.to("deal" if name == "irregularity" else "showdown")
    with pytest.raises(Refused) as caught:
        r.m.command(request.name, request.args)
    assert caught.value.reason.startswith(message)
    assert CODE.findall(caught.value.reason) == []


@pytest.mark.parametrize("name, payload, message", [
    ("draw", {}, "bad draw command: draws: is required"),
    ("draw", {"draws": {"1": "five"}}, "bad draw command: draws.1: must be an integer"),
    ("irregularity", {"seat": 2}, "bad irregularity command: what: is required"),
    ("irregularity", {"what": "boxed", "seats": [2]}, "bad irregularity command: (top level): an unknown key (the "
                                                       "keys are acted, button, card, cards, count, id, opened, "
                                                       "picked_up, seat, what)"),
    ("showdown", {"seat": 2, "cards": ["AS"] * 9}, "bad showdown command: cards: must have at most 8 items"),
])
def test_a_malformed_command_is_refused_before_the_machine_naming_the_key(name, payload, message):
    with pytest.raises(CommandError) as caught:
        parse(Command(name, json.dumps({"id": 1, **payload}).encode(), "r"), remote_buttons=False,
              game=get("draw").commands)
    assert str(caught.value).startswith(message) and "AS" not in str(caught.value)


def test_a_card_read_by_a_device_is_not_expected_and_the_hand_goes_on():
    """No device reads a card at this table: a card read (a shoe configured by mistake) is a
    warning naming what the table expects, and the hand is unchanged."""
    r = Run().open()
    r.to("deal")
    r.m.card(cards("QS")[0])
    alarm = r.last("alarm")
    assert (alarm["code"], alarm["severity"]) == ("unexpected_card", "warning")
    assert alarm["expected"] == "no card is read: the dealer pitches by hand (deal is due)"
    assert r.m.state == "dealing" and r.prompt()["step"] == "deal"


def test_the_half_hour_fee_is_collected_again_when_a_players_time_runs_out():
    # Draw & Low-Ball: "The fee of 5.00 is collected every 1/2 hr." (games/poker/time_clock.py): all
    # six pay as hand 1 starts; seat 6 sits in late (at 10 minutes) and pays then; at 31 minutes
    # seats 1-5 pay again and seat 6 still has 9 minutes.
    r = Run(seats_in=[1, 2, 3, 4, 5]).open()
    now = [0.0]
    r.m.time_clock.clock = lambda: now[0]
    assert r.hand()["collection"]["time_due"] == [1, 2, 3, 4, 5]
    now[0] = 10 * 60
    assert r.m.press("sit_in", 6).accepted
    take = r.hand()["collection"]
    assert take["time_due"] == [6] and take["fee"] == 500
    now[0] = 31 * 60
    take = r.hand()["collection"]
    assert take["time_due"] == [1, 2, 3, 4, 5] and take["fee"] == 2500 and take["time_left"]["6"] == 9
