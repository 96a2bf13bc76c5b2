"""The Stud family's round machine (games/stud/machine.py), driven as the controller would: the
shuffler's deck check and counts, the dealer's presses, the seat buttons, and the pit's
cmd/up_cards and cmd/showdown. Every event is checked against its schemas (generic and the
game's own), every snapshot against state.json. Sheet: california-card-room-games.txt, "STUD
POKER AND VARIATIONS"."""

from __future__ import annotations

import json
import re

import pytest
from round_run import RoundRun

from games.cards import cards
from games.round import Refused
from games.stud import StudOptions, StudRound

CODE = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b")


class Run(RoundRun):
    """The machine driven as the controller drives it (tests/round_run.py), on a 6-seat table."""

    m: StudRound

    def __init__(self, **options) -> None:
        super().__init__("stud", StudOptions(**{"seats": 6, **options}), "s")

    def open(self) -> Run:
        self.m.open()
        self.m.deck_checked(self.m.spec.all_cards(), 0)
        self.m.shuffled(52)
        assert self.m.state == "betting"
        return self

    def to(self, action: str, street: str | None = None) -> None:
        """Press deal until the prompt asks for ``action`` (on ``street``)."""
        while self.m.state != "dealing" or self.last("prompt").get("step") != action or \
                (street is not None and self.last("prompt").get("street") != street):
            assert self.m.press("deal").accepted, self.last("prompt")
            assert self.m.state in ("dealing", "result")

    def hand(self) -> dict:
        self.m.press("deal")
        while self.m.state == "dealing":
            assert self.m.press("deal").accepted
        result = self.last("result")
        assert self.m.press("deal").accepted and self.m.state == "shuffle"
        self.m.shuffled(52)
        return result


STREETS = ["collect:antes", "deal:3rd street", "bet:3rd street"]
for _n in (4, 5, 6, 7):
    STREETS += ["burn", f"deal:{_n}th street", f"bet:{_n}th street"]
STREETS.append("showdown")


@pytest.mark.parametrize("variant", ["seven_card_stud", "stud_hi_lo", "razz"])
def test_the_deal_sequence_per_variant(variant):
    """"two down cards and one up card, then a betting round, then three more up cards (with
    betting after each) then a final down card and a final round of betting", a burn before each
    card after the first three ("the four burn cards")."""
    r = Run(variant=variant).open()
    r.m.press("deal")
    seen = []
    while r.m.state == "dealing":
        p = r.last("prompt")
        assert p["expect"] == "press" and p["buttons"] == ["deal"], p
        seen.append(p["step"] + (f":{p['street']}" if p.get("street") else ""))
        r.m.press("deal")
    assert seen == STREETS
    texts = {d["step"] + d.get("street", ""): d["text"] for d in r.all("prompt") if d.get("step")}
    assert texts["deal3rd street"].startswith("Deal two cards face down and one face up to each of the 6 players")
    assert texts["deal4th street"].startswith("Deal 4th street: one card face up")
    assert texts["deal7th street"].startswith("Deal 7th street: one card face down")
    assert "first to act is unknown" in texts["bet3rd street"], "nobody entered the up cards: the hand goes on"
    assert r.m.state == "result" and r.last("result")["showdown"] is None and r.last("result")["up_cards"] == {}


def test_the_hand_starts_with_its_players_and_fee_and_every_hand_is_dealt_from_a_counted_deck():
    r = Run(seats=5).open()
    r.hand()
    ab = r.all("action_button")[0]
    assert ab == {"seat": None, "players": [1, 2, 3, 4, 5], "variant": "seven_card_stud",
                  "collection": {"players": 5, "fee": 300, "jackpot": 0, "basis": "pot", "schedule": "stud_4_8"},
                  "redeal_of": None}
    collect = next(d for d in r.all("prompt") if d.get("step") == "collect")
    assert collect["text"] == ("Hand 1 (7 Card Stud): take each player's ante; collect the fee $3.00 (5 players; "
                               "no jackpot in this game); press deal.")
    assert r.m.press("sit_out", 5).accepted
    assert r.hand()["collection"]["fee"] == 200, "4 OR LESS PLAYERS $2.00"
    assert all(s == {"ok": True, "count": 52, "expected": 52} for s in r.all("shuffle")) and len(r.all("shuffle")) == 3


def test_stud_hi_lo_collects_each_players_time_as_the_hand_starts_and_again_when_it_runs_out():
    # "$6.00 PER 1/2 HOUR PER PERSON" (games/poker/time_clock.py): seats 1-6 pay as the first hand
    # starts; 12 minutes later nobody; seat 5 sits out; at 31 minutes the other five pay again.
    r = Run(variant="stud_hi_lo").open()
    now = [100.0]
    r.m.time_clock.clock = lambda: now[0]
    r.m.press("deal")
    take = r.last("action_button")["collection"]
    assert take["time_due"] == [1, 2, 3, 4, 5, 6] and take["fee"] == 3600
    assert take["time_left"] == {str(s): 30 for s in range(1, 7)}
    assert ("collect time ($6.00 per person per 30 minutes) from seats 1, 2, 3, 4, 5, 6: $36.00 in all, "
            "nothing from this pot") in r.last("prompt")["text"]
    while r.m.state == "dealing":
        assert r.m.press("deal").accepted
    assert r.last("result")["collection"]["fee"] == 3600
    assert r.m.press("deal").accepted
    r.m.shuffled(52)
    now[0] += 12 * 60
    first_hand_fee = r.hand()["collection"]
    assert first_hand_fee["time_due"] == [] and first_hand_fee["fee"] == 0
    assert r.m.press("sit_out", 5).accepted
    now[0] += 19 * 60
    r.m.press("deal")
    take = r.last("action_button")["collection"]
    assert take["time_due"] == [1, 2, 3, 4, 6] and take["fee"] == 3000
    assert "5" not in take["time_left"]


def test_a_voided_stud_hi_lo_hand_does_not_collect_time_twice():
    r = Run(variant="stud_hi_lo").open()
    r.m.time_clock.clock = lambda: 50.0
    r.m.press("deal")
    assert r.last("action_button")["collection"]["fee"] == 3600
    r.m.void("misdeal: a down card exposed", by="pit")
    while r.m.state != "betting":
        if r.m.state == "shuffle":
            r.m.shuffled(52)
        else:
            assert r.m.press("deal").accepted, r.m.state
    r.m.press("deal")
    assert r.m.state == "dealing"
    assert r.last("action_button")["collection"]["time_due"] == []


def test_eight_players_the_seventh_street_prompt_names_the_short_stub_rule():
    r = Run(seats=8).open()
    r.m.press("deal")
    r.to("deal", "7th street")
    assert "community card" in r.last("prompt")["text"]


def to_showdown(r: Run) -> None:
    r.m.press("deal")
    while r.last("prompt").get("step") != "showdown":
        assert r.m.press("deal").accepted


def test_eight_players_a_community_card_plays_in_every_hand_shown():
    # 7-CARD STUD, the stub: with 8 players, 3rd to 6th street take 24 + 3 burns + 24 = 51 cards;
    # the last card and the four burns, scrambled, less a burn, leave 4 for 8 down cards: "a
    # community card will be used ... The card plays in everyone's hand." Seat 1 shows six cards
    # making a flush with the community AH; seat 2 a pair of kings with it.
    r = Run(seats=8).open()
    to_showdown(r)
    with pytest.raises(Refused, match="seat 1's hand is 7 cards, not 6"):   # no community card entered yet
        r.m.command("showdown", {"seat": 1, "cards": ["2H", "5H", "9H", "JH", "KS", "3C"]})
    reply = r.m.command("showdown", {"board": ["AH"]})
    assert reply == {"showdown": None, "entered": {"seats": [], "community": "AH"}}
    with pytest.raises(Refused, match="the community card is already entered"):
        r.m.command("showdown", {"board": ["AD"]})
    with pytest.raises(Refused, match="seat 1's hand is 6 cards beside the community card, not 7"):
        r.m.command("showdown", {"seat": 1, "cards": ["2H", "5H", "9H", "JH", "KS", "3C", "4C"]})
    with pytest.raises(Refused, match="card 2 of seat 2's hand is already entered for the community card"):
        r.m.command("showdown", {"seat": 2, "cards": ["KD", "AH", "7C", "8D", "4S", "6S"]})
    r.m.command("showdown", {"seat": 1, "cards": ["2H", "5H", "9H", "JH", "KS", "3C"]})
    reply = r.m.command("showdown", {"seat": 2, "cards": ["KD", "KC", "7C", "8D", "4S", "6S"]})
    hands = {h["seat"]: h for h in reply["showdown"]["hands"]}
    assert reply["showdown"]["high"] == [1]
    assert hands[1]["high"]["name"] == "flush" and hands[1]["cards"][-1] == "AH"   # A-J-9-5-2 of hearts
    assert hands[2]["high"]["name"] == "pair" and hands[2]["high"]["key"][:3] == [1, 13, 14]   # kings, ace kicker
    assert [d["hand"] for d in r.all("reveal")] == ["community", "seat", "seat"]
    assert r.all("reveal")[0] == {"hand": "community", "card": "AH"}
    r.m.press("deal")
    assert r.last("result")["community"] == "AH" and r.last("result")["showdown"] == reply["showdown"]


def test_the_community_card_comes_before_the_hands_shown_and_only_with_eight_players():
    r = Run(seats=8).open()
    to_showdown(r)
    r.m.command("showdown", {"seat": 1, "cards": ["2H", "5H", "9H", "JH", "KS", "3C", "AH"]})
    with pytest.raises(Refused, match=r"hands are already entered with seven cards \(seats 1\)"):
        r.m.command("showdown", {"board": ["AD"]})
    r2 = Run(seats=8).open()
    to_showdown(r2)
    with pytest.raises(Refused, match="the community card is one card code"):
        r2.m.command("showdown", {"board": ["AD", "KD"]})
    r3 = Run(seats=8).open()
    to_showdown(r3)
    with pytest.raises(Refused) as caught:
        r3.m.command("showdown", {"board": ["ZZ"]})
    assert "ZZ" not in caught.value.reason and "the community card is not a card code" in caught.value.reason
    r7 = Run(seats=7).open()
    to_showdown(r7)
    with pytest.raises(Refused, match="no community card in this hand: 7 players"):
        r7.m.command("showdown", {"board": ["AD"]})


# --- the up cards --------------------------------------------------------------------------

def test_up_cards_name_the_bring_in_and_the_first_to_act_and_light_the_seat():
    r = Run().open()
    r.m.press("deal")
    r.to("bet", "3rd street")
    reply = r.m.command("up_cards", {"street": 3, "cards": {"1": "AS", "2": "2D", "3": "2C", "5": "KH"}})
    assert reply["first_to_act"]["seat"] == 3 and reply["first_to_act"]["by"] == "bring_in"
    assert r.all("reveal") == [{"hand": "up", "seat": s, "street": 3, "card": c}
                               for s, c in ((1, "AS"), (2, "2D"), (3, "2C"), (5, "KH"))]
    assert r.last("action_button")["seat"] == 3
    assert r.m.snapshot()["prompt"]["text"].startswith("Betting round (3rd street): seat 3 brings in")
    assert r.last("prompt")["text"].startswith("Betting round (3rd street): first to act is unknown"), \
        "no second prompt event: a prompt is a request, asked once"
    assert r.m.snapshot()["lights"]["seats"]["turn"] == [3]
    r.to("bet", "4th street")
    assert r.m.snapshot()["lights"]["seats"]["turn"] == []
    r.m.command("up_cards", {"street": 4, "cards": {"1": "AD", "2": "9C", "3": "3C"}})  # seat 5 folded
    assert r.last("action_button")["seat"] == 1, "a pair of aces showing"
    assert "seat 1 acts first: the high hand showing" in r.m.snapshot()["prompt"]["text"]
    r.to("showdown")
    r.m.press("deal")
    assert r.last("result")["up_cards"] == {"3": {"1": "AS", "2": "2D", "3": "2C", "5": "KH"},
                                           "4": {"1": "AD", "2": "9C", "3": "3C"}}


def test_razz_up_cards_bring_in_by_the_highest_card():
    r = Run(variant="razz").open()
    r.m.press("deal")
    r.to("bet", "3rd street")
    assert r.m.command("up_cards", {"street": 3, "cards": {"1": "KC", "2": "KS", "4": "AS"}})["first_to_act"]["seat"] == 2


@pytest.mark.parametrize("args, message", [
    ({"street": 4, "cards": {"1": "AS"}}, "4th street's up cards are not due (state dealing, bet (3rd street) is due)"),
    ({"street": 3, "cards": {"1": "KH"}}, "3rd street's up cards are already entered for this hand"),
    ({"street": "3", "cards": {}}, "street is a number"),
    ({"street": 4, "cards": {}}, "4th street's up cards are not due"),
])
def test_up_cards_out_of_turn_or_twice_are_refused(args, message):
    r = Run().open()
    r.m.press("deal")
    r.to("bet", "3rd street")
    r.m.command("up_cards", {"street": 3, "cards": {"1": "KH"}})
    before = len(r.events)
    with pytest.raises(Refused) as caught:
        r.m.command("up_cards", args)
    assert caught.value.reason.startswith(message)
    assert len(r.events) == before


def test_a_bad_up_card_is_refused_by_its_place_and_nothing_is_published():
    r = Run(seats_in=(1, 2, 3)).open()
    r.m.press("deal")
    with pytest.raises(Refused, match="3rd street's up cards are not due"):
        r.m.command("up_cards", {"street": 3, "cards": {"1": "KH"}})
    r.to("bet", "3rd street")
    before = len(r.events)
    for raw, message in (({"1": "QQ"}, "seat 1's up card is not a card code"),
                         ({"6": "QS"}, "seat 6 is not in this hand: the players are 1, 2, 3"),
                         ({"1": "QS", "2": "QS"}, "the up cards of seats 1 and 2 are the same card")):
        with pytest.raises(Refused) as caught:
            r.m.command("up_cards", {"street": 3, "cards": raw})
        assert caught.value.reason.startswith(message)
        assert "QS" not in caught.value.reason and "QQ" not in caught.value.reason
    assert len(r.events) == before and r.m.press("deal").accepted


# --- the showdown --------------------------------------------------------------------------

def test_stud_hi_lo_showdown_split_and_the_hand_must_hold_its_up_cards():
    r = Run(variant="stud_hi_lo").open()
    r.m.press("deal")
    with pytest.raises(Refused, match="no showdown is due"):
        r.m.command("showdown", {"seat": 1, "cards": ["AS"] * 7})
    r.to("bet", "3rd street")
    r.m.command("up_cards", {"street": 3, "cards": {"1": "AS", "3": "2C"}})
    r.to("showdown")
    with pytest.raises(Refused) as caught:
        r.m.command("showdown", {"seat": 1, "cards": ["KS", "QS", "JS", "10S", "9S", "2H", "3H"]})
    assert caught.value.reason == "seat 1's hand does not hold its up card of 3rd street as entered"
    with pytest.raises(Refused) as caught:
        r.m.command("showdown", {"seat": 1, "cards": ["AS", "KS", "QS", "JS", "2C", "2H", "3H"]})
    assert caught.value.reason.startswith("card 5 of seat 1's hand is already entered for seat 3's up card of 3rd")
    reply = r.m.command("showdown", {"seat": 1, "cards": ["AS", "KS", "QS", "JS", "9S", "2H", "KH"]})
    assert reply["showdown"]["pot"] == "high"
    reply = r.m.command("showdown", {"seat": 3, "cards": ["2C", "4D", "5D", "6H", "7H", "KC", "KD"]})
    assert (reply["showdown"]["high"], reply["showdown"]["low"], reply["showdown"]["pot"]) == ([1], [3], "split")
    with pytest.raises(Refused, match="seat 3's hand is already entered"):
        r.m.command("showdown", {"seat": 3, "cards": ["2C", "4D", "5D", "6H", "7H", "KC", "KS"]})
    with pytest.raises(Refused, match="no community card in this hand: 6 players do not run the stub short"):
        r.m.command("showdown", {"board": ["2C"]})
    assert [d["hand"] for d in r.all("reveal")] == ["up", "up", "seat", "seat"]
    r.m.press("deal")
    assert r.last("result")["showdown"] == reply["showdown"]


def test_razz_showdown_the_best_low_wins():
    r = Run(variant="razz").open()
    r.m.press("deal")
    r.to("showdown")
    r.m.command("showdown", {"seat": 2, "cards": ["AC", "2C", "3D", "4D", "6S", "QH", "QS"]})
    out = r.m.command("showdown", {"seat": 4, "cards": ["AS", "2D", "3C", "4H", "5S", "KD", "KC"]})["showdown"]
    assert (out["low"], out["high"], out["pot"]) == ([4], [], "low")


def test_nothing_but_the_entered_cards_is_ever_named():
    """Down cards, burns and the stub never reach an event, a prompt or the snapshot; up cards and
    hands only once entered."""
    r = Run().open()
    r.hand()
    r.m.press("deal")
    r.to("showdown")
    assert CODE.findall(json.dumps(r.events) + json.dumps(r.m.snapshot())) == []
    r.m.command("showdown", {"seat": 1, "cards": ["AH", "QS", "2C", "3C", "4C", "5C", "7D"]})
    named = json.dumps(r.events) + json.dumps(r.m.snapshot())
    assert set(CODE.findall(named)) == {"AH", "QS", "2C", "3C", "4C", "5C", "7D"}
    r.m.press("deal")
    r.m.press("deal")
    r.m.shuffled(52)
    snap = r.m.snapshot()
    assert r.m.state == "betting" and snap["showdown"] is None and snap["up_cards"] == {}


def test_seats_in_carry_over_a_restart_and_a_wrong_count_goes_to_a_deck_check():
    r = Run().open()
    r.m.press("sit_out", 2)
    saved = json.loads(json.dumps(r.m.save()))
    fresh = Run()
    fresh.m.restore(saved, "betting")
    assert fresh.m.seated == {1, 3, 4, 5, 6}
    bad = Run()
    bad.m.restore({"stud": {"seated": [1, 40]}}, None)
    assert bad.last("alarm")["code"] == "stud_seats_reset"
    r.hand()
    r.m.press("deal")
    while r.m.state == "dealing":
        r.m.press("deal")
    r.m.press("deal")
    r.m.shuffled(51)
    assert r.m.state == "deck_check" and r.last("alarm")["code"] == "shuffle_count"
    r.m.deck_checked([c for c in r.m.spec.all_cards() if c != cards("QD")[0]], 0)
    assert r.last("alarm")["missing"] == ["QD"]
