"""Mexican Stud's round machine (games/mexican_stud/machine.py), driven as the controller would: the
shuffler's deck check and counts, the dealer's presses, the seat buttons, and the pit's
cmd/up_cards, cmd/expose and cmd/showdown. Every event is checked against its schemas (generic
and the game's own), every snapshot against state.json. Sheet: california-card-room-games.txt,
"MEXICAN POKER (5-Card Stud--Mexico Style) (41 Card Deck)"."""

from __future__ import annotations

import json
import re

import pytest
from round_run import RoundRun

from games.cards import card, cards
from games.mexican_stud import GAME, MexicanOptions, MexicanStudRound
from games.round import Refused

CODE = re.compile(r"\b(?:JK|(?:10|[2-9AJQK])[CDHS])\b")
PLAYER = {"basis": "player", "fee_each": 100, "jackpot": 100}


class Run(RoundRun):
    """The machine driven as the controller drives it (tests/round_run.py), on a 6-seat table."""

    m: MexicanStudRound

    def __init__(self, **options) -> None:
        super().__init__("mexican_stud", MexicanOptions(**{"seats": 6, "schedule": PLAYER, **options}), "x")

    def open(self) -> Run:
        self.m.open()
        self.m.deck_checked(self.m.spec.all_cards(), 0)
        self.m.shuffled(41)
        assert self.m.state == "betting"
        return self

    def to(self, action: str, street: str | None = None) -> None:
        """Press deal until the prompt asks for ``action`` (on ``street``)."""
        while self.m.state != "dealing" or self.prompt().get("step") != action or \
                (street is not None and self.prompt().get("street") != street):
            assert self.m.press("deal").accepted, self.prompt()
            assert self.m.state in ("dealing", "result")

    def prompt(self) -> dict:
        return self.m.snapshot()["prompt"]

    def hand(self) -> dict:
        """Deal a whole hand from betting; settle it and shuffle: the next hand's betting."""
        self.m.press("deal")
        while self.m.state == "dealing":
            assert self.m.press("deal").accepted
        result = self.last("result")
        assert self.m.press("deal").accepted and self.m.state == "shuffle"
        self.m.shuffled(41)
        return result

    def lights(self) -> dict:
        return self.m.snapshot()["lights"]["seats"]

    def refused(self, command: str, args: dict) -> str:
        """The reason ``command`` is refused; nothing is published."""
        before = len(self.events)
        with pytest.raises(Refused) as caught:
            self.m.command(command, args)
        assert len(self.events) == before
        return caught.value.reason


STREET = ["expose", "burn", "deal:{n} card", "bet:{n} card"]
STEPS = ["collect:collection", "deal:first two cards", "bet:second card",
         *[s.format(n=n) for n in ("third", "fourth", "fifth") for s in STREET], "showdown"]


def test_the_deal_one_down_one_up_the_forced_bet_then_a_burn_before_each_street():
    """"After the first two cards are dealt (1 up and 1 down), a betting round begins"; "the players
    may expose, if they wish, their down card ... prior to the deal of the third card"; "The fourth
    and fifth cards are then dealt and played according to the same format"; "Starting after the
    2nd card, a card will be burned on each round"."""
    r = Run().open()
    r.m.press("deal")
    seen = []
    while r.m.state == "dealing":
        p = r.last("prompt")
        assert p["expect"] == "press" and p["buttons"] == ["deal"], p   # hw_sim's dealer presses buttons[0]
        seen.append(p["step"] + (f":{p['street']}" if p.get("street") else ""))
        r.m.press("deal")
    assert seen == STEPS
    texts = {d["step"] + d.get("street", ""): d["text"] for d in r.all("prompt") if d.get("step")}
    assert texts["dealfirst two cards"] == ("Deal two cards to each of the 6 players, one at a time, clockwise from "
                                            "seat 2 (left of the button): the first face down, the second face up; "
                                            "press deal.")
    assert texts["dealthird card"] == ("Deal the third card, clockwise from seat 2: face up to each player still in "
                                       "(no down card is open); press deal.")
    assert "makes the forced opening bet, the joker highest (not named" in texts["betsecond card"]
    assert texts["expose"].startswith("Before the fifth card: each player may expose his down card")
    assert r.m.state == "result" and r.last("result")["showdown"] is None and r.last("result")["up_cards"] == {}


def test_the_deck_is_checked_against_the_41_cards_and_every_shuffle_counted():
    """The shuffler's deck check against the 41-card deck names what is missing and extra; a count
    other than 41 after a hand sends the table to a deck check."""
    r = Run()
    r.m.open()
    full = r.m.spec.all_cards()
    r.m.deck_checked([*[c for c in full if c != card("JK")], card("9H")], 0)
    check = r.last("deck_check")
    assert not check["ok"] and check["missing"] == ["JK"] and check["extra"] == ["9H"]
    assert r.m.state == "deck_check"
    r.m.deck_checked(full, 0)
    r.m.shuffled(41)
    r.hand()
    r.m.press("deal")
    while r.m.state == "dealing":
        r.m.press("deal")
    r.m.press("deal")
    r.m.shuffled(40)
    assert r.m.state == "deck_check" and r.last("alarm")["code"] == "shuffle_count"
    assert [s["count"] for s in r.all("shuffle")] == [41, 41, 40]


def test_the_hand_starts_with_its_button_players_and_collection_and_the_button_moves_each_hand():
    """"The cards are dealt clockwise, beginning to the left of the dealer button. the dealer button
    rotates clockwise after each hand is complete"; "each player places a collection"."""
    r = Run().open()
    assert r.lights() == {"dealer_button": [1], "turn": []}
    first = r.hand()
    assert r.all("action_button")[0] == {"seat": 1, "players": [1, 2, 3, 4, 5, 6], "collection": {
        "players": 6, "fee": 600, "jackpot": 100, "basis": "player", "fee_each": 100, "schedule": "table"}}
    assert first["button"] == 1 and first["collection"]["fee"] == 600
    collect = next(d for d in r.all("prompt") if d.get("step") == "collect")
    assert collect["text"] == ("Hand 1 (Mexican Stud): button seat 1; each of the 6 players places the collection "
                               "$1.00 ($6.00 in all); the jackpot $1.00; press deal.")
    assert r.lights()["dealer_button"] == [2]
    assert [r.hand()["button"] for _ in range(5)] == [2, 3, 4, 5, 6]
    assert r.hand()["button"] == 1


def test_seat_buttons_mark_seats_out_the_button_skips_them_and_no_jackpot_below_five():
    r = Run().open()
    assert r.m.press("sit_out", 2).accepted and r.m.press("sit_out", 3).accepted
    assert not r.m.press("sit_out", 2).accepted and r.last("button")["reason"] == "seat 2 is already out"
    result = r.hand()
    assert result["players"] == [1, 4, 5, 6]
    assert result["collection"] == {"players": 4, "fee": 400, "jackpot": 0, "basis": "player", "fee_each": 100,
                                    "schedule": "table"}
    collect = next(d for d in r.all("prompt") if d.get("step") == "collect")
    assert "no jackpot (fewer than 5 players)" in collect["text"]
    assert r.lights()["dealer_button"] == [4], "seats 2 and 3 are out: the button goes to seat 4"
    r.m.press("deal")
    assert r.m.press("sit_in", 2).accepted
    assert r.m.snapshot()["players"] == [1, 4, 5, 6], "during a hand: from the next hand"
    r.m.void("misdeal", by="pit")
    r.m.shuffled(41)
    assert r.lights()["dealer_button"] == [4], "a voided hand is dealt again with the same button"
    assert r.hand()["players"] == [1, 2, 4, 5, 6]
    for seat in (1, 2, 4, 5):
        r.m.press("sit_out", seat)
    snap = r.m.snapshot()
    assert snap["lights"]["buttons_lit"] == [] and snap["lights"]["seats"]["dealer_button"] == []
    assert snap["prompt"]["text"].startswith("Hand 4 waits for players: two seats at least must be in (seats in: 6")


def test_eight_players_the_fifth_card_prompt_names_the_short_stub_rule():
    """8 players who all stay need 16 + 3 x 9 = 43 cards of 41 (games.poker.deal_plan choice 3)."""
    r = Run(seats=8).open()
    r.m.press("deal")
    r.to("deal", "fifth card")
    assert "scramble the last card with the burns" in r.last("prompt")["text"]
    small = Run().open()
    small.m.press("deal")
    small.to("deal", "fifth card")
    assert "scramble" not in small.last("prompt")["text"]


# --- the up cards and the forced bet ----------------------------------------------------------

def test_up_cards_name_the_forced_bet_and_the_first_to_act_and_light_the_seat():
    r = Run(button=3).open()
    r.m.press("deal")
    r.to("bet", "second card")
    reply = r.m.command("up_cards", {"street": 2, "cards": {"1": "KH", "2": "AD", "4": "AC", "5": "2S", "6": "7C"}})
    assert reply["first_to_act"]["seat"] == 4, "two aces: seat 4 is closer clockwise of button 3"
    assert r.all("reveal") == [{"hand": "up", "seat": s, "street": 2, "card": c}
                               for s, c in ((1, "KH"), (2, "AD"), (4, "AC"), (5, "2S"), (6, "7C"))]
    assert r.last("action_button") == {"seat": 4, "street": 2, "by": "high_card", "why": reply["first_to_act"]["why"]}
    assert r.prompt()["text"].startswith("Betting round (second card): seat 4 makes the forced opening bet")
    assert r.lights() == {"dealer_button": [3], "turn": [4]}
    r.to("bet", "third card")
    assert r.lights()["turn"] == []
    r.m.command("up_cards", {"street": 3, "cards": {"1": "KD", "2": "3D", "4": "4C"}})   # 5 and 6 folded
    assert r.last("action_button")["seat"] == 1, "K-K showing"
    assert "seat 1 acts first: the highest hand showing" in r.prompt()["text"]
    r.to("showdown")
    r.m.press("deal")
    assert r.last("result")["up_cards"] == {"2": {"1": "KH", "2": "AD", "4": "AC", "5": "2S", "6": "7C"},
                                           "3": {"1": "KD", "2": "3D", "4": "4C"}}


def test_the_joker_showing_makes_the_forced_bet():
    r = Run().open()
    r.m.press("deal")
    r.to("bet", "second card")
    assert r.m.command("up_cards", {"street": 2, "cards": {"1": "AS", "3": "JK"}})["first_to_act"]["seat"] == 3


@pytest.mark.parametrize("args, message", [
    ({"street": 3, "cards": {"1": "AS"}}, "the up cards of card 3 are not due (state dealing, bet (second card) is due)"),
    ({"street": 2, "cards": {"1": "KH"}}, "the second card's up cards are already entered for this hand"),
    ({"street": "2", "cards": {}}, "street is a number, 2 to 5"),
    ({"street": True, "cards": {}}, "street is a number, 2 to 5"),
    ({"street": 2, "cards": ["AS"]}, "the second card's up cards are already entered"),
])
def test_up_cards_out_of_turn_twice_or_malformed_are_refused(args, message):
    r = Run().open()
    r.m.press("deal")
    r.to("bet", "second card")
    r.m.command("up_cards", {"street": 2, "cards": {"1": "KH"}})
    assert r.refused("up_cards", args).startswith(message)
    assert r.m.press("deal").accepted, "the hand goes on"


def test_a_bad_up_card_is_refused_by_its_place_never_its_code():
    r = Run(seats_in=(1, 2, 3)).open()
    r.m.press("deal")
    assert r.refused("up_cards", {"street": 2, "cards": {"1": "KH"}}).startswith("the up cards of card 2 are not due")
    r.to("bet", "second card")
    for raw, message in (({"1": "QQ"}, "seat 1's second card is not a card code"),
                         ({"1": "10S"}, "seat 1's second card is not a card of the deck"),
                         ({"6": "QS"}, "seat 6 is not in this hand: the players are 1, 2, 3"),
                         ({"1": "QS", "2": "QS"}, "the second cards of seats 1 and 2 are the same card"),
                         ({"1": "down"}, "seat 1's second card was dealt face up: enter its code"),
                         ([], "no up card entered")):
        reason = r.refused("up_cards", {"street": 2, "cards": raw})
        assert reason.startswith(message)
        assert not CODE.findall(reason) and "QQ" not in reason
    assert r.m.press("deal").accepted


# --- a down card opened: the next card comes down ---------------------------------------------

def test_a_player_opens_his_down_card_and_his_next_card_comes_face_down():
    """"the players may expose, if they wish, their down card. This action must be complete prior to
    the deal of the third card which may be delivered up or down depending on whether or not
    previously dealt down cards have been opened"; "If a player exposes a card ... will be required
    to play it"."""
    r = Run().open()
    r.m.press("deal")
    r.to("bet", "second card")
    r.m.command("up_cards", {"street": 2, "cards": {"1": "7C", "3": "AD", "4": "KS", "5": "2H"}})
    assert r.refused("expose", {"seat": 3, "card": "AH"}).startswith(
        "a player opens his down card after a betting round, before the next card: not now (state dealing, bet "
        "(second card) is due)")
    r.to("expose")
    assert r.m.command("expose", {"seat": 3, "card": "AH"}) == {"seat": 3, "next_card": "down", "all_in": False}
    assert r.last("reveal") == {"hand": "up", "seat": 3, "street": 1, "card": "AH", "exposed": "player"}
    assert r.refused("expose", {"seat": 3, "card": "AS"}) == ("seat 3's down card is already open: its next card "
                                                             "comes face down")
    assert r.refused("expose", {"seat": 2, "card": "QS"}) == ("seat 2 is not among the seats entered for the second "
                                                             "card: it has folded")
    assert r.refused("expose", {"seat": 4, "card": "AD"}) == ("seat 4's opened card is already entered for seat 3's "
                                                             "second card: the deck holds it once")
    assert "Open so far: seat 3, whose next card comes face down." in r.prompt()["text"]
    r.to("deal", "third card")
    deal = r.last("prompt")
    assert deal["down"] == [3]
    assert deal["text"] == ("Deal the third card, clockwise from seat 2: face down to seat 3 (the down card is open), "
                            "face up to every other player still in; press deal.")
    r.to("bet", "third card")
    assert r.refused("up_cards", {"street": 3, "cards": {"1": "5H", "3": "KD"}}).startswith(
        "seat 3's third card was dealt face down (seat 3 had opened its down card): enter \"down\"")
    r.m.command("up_cards", {"street": 3, "cards": {"1": "5H", "3": "down", "4": "KD"}})
    assert r.last("action_button")["seat"] == 3, "A-A showing (the second card and the opened one) above K-K"
    r.to("deal", "fourth card")
    assert r.last("prompt")["down"] == [], "seat 3 holds a down card again: its fourth card comes up"
    r.to("showdown")
    assert r.refused("showdown", {"seat": 3, "cards": ["AD", "2C", "2D", "2S", "JK"]}) == \
        "seat 3's hand does not hold its opened first card as entered"
    reply = r.m.command("showdown", {"seat": 3, "cards": ["AD", "AH", "2D", "2S", "JK"]})
    assert reply["showdown"]["hands"][0]["high"]["name"] == "full house"
    r.m.press("deal")
    assert r.last("result")["exposed"] == {"3": [{"street": 1, "card": "AH", "by": "player"}]}
    assert r.last("result")["up_cards"]["3"] == {"1": "5H", "3": "down", "4": "KD"}


def test_the_dealer_exposing_a_down_card_makes_the_next_card_down_and_permits_all_in():
    """"If any down card is exposed by the house dealer, that player will receive his next card down
    and will be permitted to declare 'all-in'." Choice 4: entered whenever no card is being dealt,
    up to the last exposing step."""
    r = Run().open()
    r.m.press("deal")
    assert r.refused("expose", {"seat": 2, "card": "QS", "by": "dealer"}).startswith(
        "no card is dealt yet (state dealing, collect (collection) is due)")
    r.to("deal", "first two cards")
    assert r.refused("expose", {"seat": 2, "card": "QS", "by": "dealer"}).startswith(
        "the cards are being dealt (state dealing, deal (first two cards) is due): enter the exposure once the deal")
    r.to("bet", "second card")
    assert r.m.command("expose", {"seat": 2, "card": "QS", "by": "dealer"})["all_in"] is True
    assert r.last("reveal")["exposed"] == "dealer"
    assert "seat 2 may declare all-in (the dealer exposed the down card)" in r.prompt()["text"]
    r.to("deal", "third card")
    assert r.last("prompt")["down"] == [2]
    r.to("bet", "fifth card")
    assert r.refused("expose", {"seat": 4, "card": "KD", "by": "dealer"}).startswith(
        "no card is left to deal to this seat (state dealing, bet (fifth card) is due)")
    assert r.refused("expose", {"seat": 4, "card": "KD", "by": "house"}).startswith("by is \"player\" (he opened it) or \"dealer\"")
    assert r.refused("expose", {"seat": "4", "card": "KD"}) == "seat is a seat number"


def test_a_bad_exposure_names_the_place_never_the_code():
    r = Run(seats_in=(1, 2, 3)).open()
    r.m.press("deal")
    r.to("expose")
    for args, message in (({"seat": 1, "card": "8D"}, "seat 1's opened card is not a card of the deck"),
                          ({"seat": 1, "card": "jk"}, "seat 1's opened card is not a card code"),
                          ({"seat": 5, "card": "QS"}, "seat 5 is not in hand 1: the players are 1, 2, 3")):
        reason = r.refused("expose", args)
        assert reason.startswith(message) and not CODE.findall(reason) and "jk" not in reason
    r.m.press("deal")
    assert r.m.state == "dealing"


# --- the showdown ------------------------------------------------------------------------------

def test_showdown_by_card_codes_with_the_mexican_ranking():
    """Five of a kind with the joker beats the royal flush (Hand Ranking 1, 2); only the hands entered
    are ranked; the hand must hold the seat's up cards as entered."""
    r = Run().open()
    r.m.press("deal")
    assert r.refused("showdown", {"seat": 1, "cards": ["AS"] * 5}).startswith("no showdown is due")
    r.to("bet", "second card")
    r.m.command("up_cards", {"street": 2, "cards": {"1": "2S", "4": "7H"}})
    r.to("showdown")
    assert r.refused("showdown", {"seat": 1, "cards": ["7C", "JC", "QC", "KC", "AC"]}) == \
        "seat 1's hand does not hold its second card as entered"
    assert r.refused("showdown", {"seat": 1, "cards": ["2S", "JK", "2D"]}) == \
        "seat 1's hand is 5 cards, not 3 (\"Each Player receives a total of 5 cards\")"
    assert r.refused("showdown", {"board": ["2S"]}).startswith("give seat and cards")
    r.m.command("showdown", {"seat": 4, "cards": ["7H", "JH", "QH", "KH", "AH"]})
    out = r.m.command("showdown", {"seat": 1, "cards": ["2S", "JK", "2D", "2C", "2H"]})["showdown"]
    assert out["high"] == [1] and out["pot"] == "high"
    assert [(h["seat"], h["high"]["name"], h["jackpot_eligible"]) for h in out["hands"]] == [
        (1, "five of a kind", True), (4, "royal flush", True)]
    assert r.refused("showdown", {"seat": 1, "cards": ["2S", "JK", "2D", "2C", "3H"]}).startswith(
        "seat 1's hand is already entered")
    assert r.refused("showdown", {"seat": 2, "cards": ["JK", "2D", "2H", "3C", "3D"]}) == \
        "card 1 of seat 2's hand is already entered for seat 1's hand: the deck holds it once"
    assert [d["hand"] for d in r.all("reveal")] == ["up", "up", "seat", "seat"]
    r.m.press("deal")
    assert r.last("result")["showdown"] == out
    assert GAME.summary(r.last("result")) == ("button 1, 6 players, collection $6.00 jackpot $1.00  |  showdown: "
                                              "seat 1 (five of a kind)")


def test_nothing_but_the_entered_cards_is_ever_named():
    """Down cards, burns and the stub never reach an event, a prompt or the snapshot; up cards,
    opened cards and hands only once entered."""
    r = Run().open()
    r.hand()
    r.m.press("deal")
    r.to("showdown")
    assert CODE.findall(json.dumps(r.events) + json.dumps(r.m.snapshot())) == []
    r.m.command("showdown", {"seat": 1, "cards": ["AH", "QS", "2C", "3C", "JK"]})
    named = json.dumps(r.events) + json.dumps(r.m.snapshot())
    assert set(CODE.findall(named)) == {"AH", "QS", "2C", "3C", "JK"}
    r.m.press("deal")
    r.m.press("deal")
    r.m.shuffled(41)
    snap = r.m.snapshot()
    assert r.m.state == "betting" and snap["showdown"] is None and snap["up_cards"] == {} and snap["exposed"] == {}


def test_a_card_read_by_a_device_is_an_alarm_and_the_hand_goes_on():
    """No device reads a card at this table: a read is a warning naming why, not a fault."""
    r = Run().open()
    r.m.press("deal")
    r.to("burn")
    r.m.card(cards("KD")[0])
    assert r.last("alarm")["code"] == "unexpected_card" and r.m.state == "dealing"
    assert r.m.press("deal").accepted


def test_the_seats_in_and_the_button_carry_over_a_restart():
    r = Run().open()
    r.m.press("sit_out", 2)
    r.hand()
    saved = json.loads(json.dumps(r.m.save()))
    assert saved["mexican_stud"] == {"seated": [1, 3, 4, 5, 6], "last_button": 1, "again": None, "pool": 100}
    fresh = Run()
    fresh.m.restore(saved, "betting")
    fresh.open()
    assert fresh.m.seated == {1, 3, 4, 5, 6} and fresh.lights()["dealer_button"] == [3]
    assert fresh.m.pool == 100, "the jackpot's drop of the hand before the restart is kept"
    bad = Run()
    bad.m.restore({"mexican_stud": {"seated": [1, 40], "last_button": 1}}, None)
    assert bad.last("alarm")["code"] == "mexican_stud_seats_reset" and bad.m.seated == {1, 2, 3, 4, 5, 6}


# --- the table's posted jackpot and the button's additional shuffle ----------------------------

POSTED = {"five of a kind": {"share": 100}, "royal flush": {"share": 50}, "four of a kind": {"amount": 2500}}


def _showdown(r: Run, hands: dict[int, str]) -> dict:
    r.to("showdown")
    for seat, codes in hands.items():
        r.m.command("showdown", {"seat": seat, "cards": codes.split()})
    r.m.press("deal")
    return r.last("result")


def test_the_posted_jackpot_pays_the_best_eligible_hand_from_the_pool():
    """Choices 6 and 7 (docs/mexican_stud.md): the jackpot holds $300.00 when the table opens; each
    completed hand's drop ($1.00 from 5 players) goes in. Hand 1: seat 1 four jacks, seat 2 four
    sevens with the joker ("No hand involved in a jackpot may include the Joker"): seat 1 takes
    the posted $25.00 of the $301.00 -> $276.00 left. Hand 2: five aces (A-A-A-A-JK, five of a
    kind, exempt) against a royal flush 7-J-Q-K-A of spades: five of a kind ranks first and takes
    100% of $277.00."""
    r = Run(jackpot_pays=POSTED, jackpot_pool=30000).open()
    r.m.press("deal")
    first = _showdown(r, {1: "JC JD JH JS 2C", 2: "7C 7D 7H JK 3S"})
    paid = first["jackpot_paid"]
    assert (paid["hand"], paid["seats"], paid["posted"], paid["pool"], paid["paid"], paid["left"]) == (
        "four of a kind", [1], {"amount": 2500}, 30100, 2500, 27600)
    assert first["jackpot_pool"] == 27600
    assert first["showdown"]["hands"][1]["jackpot_eligible"] is False
    r.m.press("deal")
    r.m.shuffled(41)
    r.m.press("deal")
    second = _showdown(r, {3: "AS AH AD AC JK", 4: "7S JS QS KS 2D"})
    assert (second["jackpot_paid"]["hand"], second["jackpot_paid"]["seats"]) == ("five of a kind", [3])
    assert (second["jackpot_paid"]["paid"], second["jackpot_pool"]) == (27700, 0)


def test_equal_jackpot_hands_share_and_no_qualifying_hand_pays_nothing():
    """Two royal flushes (50% of $101.00 = $50.50) share it, $25.25 each; a hand with no posted
    hand pays nothing and the pool keeps growing; a table that posts none publishes no payout."""
    r = Run(jackpot_pays=POSTED, jackpot_pool=10000).open()
    r.m.press("deal")
    shared = _showdown(r, {1: "7S JS QS KS AS", 2: "7H JH QH KH AH"})["jackpot_paid"]
    assert (shared["seats"], shared["pool"], shared["each"], shared["paid"], shared["left"]) == (
        [1, 2], 10100, 2525, 5050, 5050)
    r.m.press("deal")
    r.m.shuffled(41)
    r.m.press("deal")
    none = _showdown(r, {1: "2C 2D 5H 6S KD"})
    assert none["jackpot_paid"] is None and none["jackpot_pool"] == 5150
    plain = Run().open()
    plain.m.press("deal")
    assert "jackpot_paid" not in _showdown(plain, {1: "JC JD JH JS 2C"})


def test_only_the_button_may_ask_for_an_additional_shuffle():
    """Stud-Loce Rules: "Only the player with the dealer button may ask for an additional shuffle."
    Seat 1 has the button: seat 3's press is refused; seat 1's makes the hand wait for the shuffle
    (deal not lit, the shuffle prompt), whose count is checked against the 41 cards; then the hand
    starts as before."""
    r = Run().open()
    assert r.m.snapshot()["lights"]["seat_buttons_lit"]["extra_shuffle"] == [1]
    refused = r.m.press("extra_shuffle", 3)
    assert not refused.accepted and refused.reason.startswith("only the player with the dealer button (seat 1)")
    assert r.m.press("extra_shuffle", 1).accepted
    prompt = r.prompt()
    assert prompt["expect"] == "shuffle" and prompt["text"].startswith("Seat 1, the dealer button, asks for an "
                                                                       "additional shuffle")
    assert "deal" not in r.m.snapshot()["lights"]["buttons_lit"] and not r.m.press("deal").accepted
    r.m.shuffled(40)
    assert r.last("shuffle") == {"ok": False, "count": 40, "expected": 41}
    assert r.last("alarm")["code"] == "shuffle_count" and r.prompt()["expect"] == "shuffle"
    r.m.shuffled(41)
    assert r.last("shuffle")["ok"] and r.prompt()["expect"] == "bets" and r.m.round == 1
    assert r.m.press("deal").accepted and r.m.state == "dealing"
    assert not r.m.press("extra_shuffle", 1).accepted, "not once the hand is dealt"
