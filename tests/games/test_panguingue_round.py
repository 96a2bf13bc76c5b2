"""Panguingue's round machine (games/panguingue/machine.py), driven as the controller would: the
shuffler's deck check and counts, the dealer's presses, the seat buttons (in and out, play and
throw_in) and the pit's cmd/count and cmd/winner. Every event is checked against its schemas
(generic and the game's own), every snapshot against state.json. Sheet:
california-card-room-games.txt, "PANGUINGUE (also called PAN)" and "PAN RULES"."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from round_run import RoundRun

from games.cards import Card
from games.panguingue import PanOptions, PanRound
from games.registry import get
from games.round import Refused

CODE = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b")
ROOT = Path(__file__).resolve().parents[2]


class Run(RoundRun):
    """The machine driven as the controller drives it (tests/round_run.py), on a 6-seat table at
    the $5.00 condition (fee $3.00, ante $5.00)."""

    m: PanRound

    def __init__(self, **options) -> None:
        super().__init__("panguingue", PanOptions(**{"seats": 6, "condition": 500, **options}), "p")

    def open(self) -> Run:
        self.m.open()
        self.m.deck_checked(self.m.spec.all_cards(), 0)
        self.m.shuffled(self.m.spec.size)
        assert self.m.state == "betting"
        return self

    def to_declare(self) -> None:
        """From betting: the fee and antes, the deal; the first declaration is due."""
        assert self.m.press("deal").accepted and self.m.press("deal").accepted and self.m.press("deal").accepted
        assert self.prompt()["expect"] == "decision", self.prompt()

    def prompt(self) -> dict:
        return self.m.snapshot()["prompt"]

    def declare(self, **choices: str) -> None:
        """``declare(s4="play", s3="throw_in")``: each seat presses in the order given."""
        for key, choice in choices.items():
            seat = int(key[1:])
            verdict = self.m.press(choice, seat)
            assert verdict.accepted, verdict.reason

    def end(self) -> dict:
        """Press deal until the hand has its result; settle it and shuffle: the next hand's betting."""
        while self.m.state == "dealing":
            assert self.m.press("deal").accepted, self.prompt()
        result = self.last("result")
        assert self.m.press("deal").accepted and self.m.state == "shuffle"
        self.m.shuffled(self.m.spec.size)
        return result

    def lights(self) -> dict:
        return self.m.snapshot()["lights"]["seats"]


def everyone(r: Run, choice: str = "play") -> None:
    while r.m.state == "dealing" and r.prompt()["expect"] == "decision":
        p = r.prompt()
        assert r.m.press(choice if choice in p["choices"] else p["choices"][0], p["seat"]).accepted


# --- the hand, step by step -----------------------------------------------------------------

def test_the_hand_fee_and_antes_ten_cards_in_two_rounds_of_five_to_the_right_declarations_the_play():
    """Rule 1: "The fee is collected before the hand is dealt"; rule 5 and THE DEAL: ten cards each,
    two rounds of five, to the right (seats descending) from the first seat; DECLARING in turn;
    THE DRAW from the previous winner (the first hand: game.first_seat = 3)."""
    r = Run(first_seat=3).open()
    assert r.lights() == {"dealer_button": [3], "turn": []}
    r.m.press("deal")
    assert r.last("action_button") == {
        "seat": 3, "why": "the first hand: game.first_seat", "order": [3, 2, 1, 6, 5, 4],
        "players": [1, 2, 3, 4, 5, 6], "condition": 500,
        "collection": {"players": 6, "fee": 1800, "jackpot": 0, "basis": "condition", "fee_each": 300,
                       "ante_each": 500, "ante": 3000, "condition": 500, "schedule": "panguingue"}}
    assert r.prompt()["text"] == ("Hand 1 (condition $5.00): collect the fee $3.00 and the ante $5.00 from each of "
                                  "the 6 players (fee $18.00; the antes, $30.00, go on the block: the Tops); "
                                  "press deal.")
    r.m.press("deal")
    assert r.prompt()["step"] == "deal" and r.prompt()["text"] == (
        "Deal ten cards to each player in two rounds of five, to the right, starting with seat 3 (the first hand: "
        "game.first_seat): seats 3, 2, 1, 6, 5, 4; press deal.")
    r.m.press("deal")
    seen = []
    while r.prompt()["expect"] == "decision":
        p = r.prompt()
        assert p["step"] == "declare" and p["buttons"] == [] and r.lights()["turn"] == [p["seat"]]
        seen.append(p["seat"])
        r.m.press("play" if p["seat"] in (3, 6, 4) else "throw_in", p["seat"])
    assert seen == [3, 2, 1, 6, 5, 4]
    play = r.prompt()
    assert (play["expect"], play["step"], play["buttons"]) == ("press", "draw", ["deal"])
    assert play["text"].startswith("The draw begins with seat 3, who draws twice on the first draw, then to the "
                                   "right: seats 3, 6, 4.")
    result = r.end()
    assert result["winner"] is None and result["how"] == "not_entered" and result["tops"] == 3000
    assert [h["declared"] for h in result["hands"]] == ["play", "throw_in", "throw_in", "play", "throw_in", "play"]
    assert r.all("shuffle")[-1] == {"ok": True, "count": 320, "expected": 320}


def test_the_first_seat_moves_to_the_winner_and_the_seat_lights_show_it():
    """THE DEAL: "Starting with the previous winner"; a hand without a winner entered starts the
    next deal from the same seat (choice 7); a voided hand is dealt again from the same seat."""
    r = Run().open()
    r.to_declare()
    everyone(r)
    assert r.m.command("winner", {"seat": 4}) == {"winner": 4}
    assert r.last("hand_status")["status"] == "winner"
    first = r.end()
    assert (first["winner"], first["how"], first["next_start"]) == (4, "entered", 4)
    assert r.lights()["dealer_button"] == [4] and r.m.order == [4, 3, 2, 1, 6, 5]
    assert "the deal starts with seat 4 (the previous winner)" in r.prompt()["text"]
    r.to_declare()
    r.m.void("misdeal", by="pit")
    r.m.shuffled(320)
    assert r.lights()["dealer_button"] == [4], "nobody won the voided hand"
    r.to_declare()
    everyone(r)
    assert r.end()["next_start"] == 4, "no winner entered"
    assert r.lights()["dealer_button"] == [4] and r.last("action_button")["why"] == "the previous winner"
    r.m.press("deal")
    assert r.last("action_button")["why"] == "no winner of hand 3: the same first seat"


def test_a_previous_winner_who_left_is_replaced_by_the_first_seat_in_to_his_right():
    r = Run(first_seat=4).open()
    assert r.m.press("sit_out", 4).accepted
    assert r.lights()["dealer_button"] == [3] and r.m.order == [3, 2, 1, 6, 5]
    r.m.press("deal")
    assert r.last("action_button")["why"] == ("the first hand: game.first_seat, seat 4, is not in: the first seat "
                                              "in to his right")
    assert r.last("action_button")["collection"]["fee"] == 1500, "five players x $3.00"


def test_the_last_seat_when_every_other_threw_in_takes_the_tops_without_play():
    """Choice 3: seat 1 (the last to declare) is offered only play; the hand is his, no draw."""
    r = Run(seats=3).open()
    r.to_declare()
    r.declare(s1="throw_in", s3="throw_in")
    p = r.prompt()
    assert (p["seat"], p["choices"]) == (2, ["play"])
    lit = r.m.snapshot()["lights"]["seat_buttons_lit"]
    assert lit["play"] == [2, 3] and "throw_in" not in lit, "seat 3 may still change to play: seat 2 has not acted"
    refused = r.m.press("throw_in", 2)
    assert not refused.accepted and refused.reason.startswith("seat 2 may press play now, not throw_in")
    r.declare(s2="play")
    assert r.m.state == "result"
    assert r.last("hand_status")["seat"] == 2 and r.last("hand_status")["status"] == "winner"
    result = r.last("result")
    assert (result["winner"], result["how"], result["tops"]) == (2, "last_seat", 1500)
    assert not any(p.get("step") == "draw" for p in r.all("prompt")), "no play"


def test_a_hand_with_nobody_left_in_action_has_no_winner():
    """Choice 3: seats 1 and 3 threw in; seat 2, offered only play, is found with thirteen cards
    (dead, rule 7): nobody is in action, the hand ends without play and without a winner."""
    r = Run(seats=3).open()
    r.to_declare()
    r.declare(s1="throw_in", s3="throw_in")
    r.m.command("count", {"seat": 2, "cards": 13})
    assert r.m.state == "result"
    result = r.last("result")
    assert (result["winner"], result["how"], result["tops"], result["antes_returned"]) == (None, "none_playing",
                                                                                             1000, [2])
    assert r.prompt()["text"] == ("Hand 1 is over: no winner: settle the Tops ($10.00), return the ante of seat 2; "
                                  "gather every card for the shuffler, press deal for the shuffle.")
    assert "no winner (none playing)" in get("panguingue").summary(result)


def test_the_pit_reads_the_hand_in_one_line():
    r = Run().open()
    r.to_declare()
    r.m.command("count", {"seat": 3, "cards": 12})
    everyone(r)
    r.m.command("winner", {"seat": 6})
    assert r.m.press("deal").accepted and r.prompt()["text"].startswith(
        "Hand 1 is over: push the Tops ($25.00) to seat 6, return the ante of seat 3;")
    assert get("panguingue").summary(r.last("result")) == (
        "first seat 1, 6 players, fee $18.00, Tops $25.00, dead or foul: seat 3  |  winner seat 6 (entered)")


def test_a_seat_may_change_to_play_until_the_next_player_has_declared():
    """DECLARING: "A player may change his declaration to play until the next player has acted.\""""
    r = Run(seats=4).open()
    r.to_declare()                                      # order 1, 4, 3, 2
    r.declare(s1="throw_in")
    assert r.m.snapshot()["lights"]["seat_buttons_lit"]["play"] == [1, 4]
    prompts = len(r.all("prompt"))
    r.declare(s1="play")
    assert len(r.all("prompt")) == prompts, "seat 4's request stands: not asked again"
    r.declare(s4="throw_in")
    refused = r.m.press("play", 1)
    assert not refused.accepted and refused.reason == "seat 1 has declared (play); a seat may change to play only " \
                                                      "until the next player has declared (DECLARING)"
    refused = r.m.press("play", 2)
    assert not refused.accepted and refused.reason == "seat 3 declares first"
    r.declare(s3="throw_in", s2="play")
    assert r.prompt()["step"] == "draw" and "seats 1, 2" in r.prompt()["text"]


def test_a_declaration_out_of_place_is_refused_and_the_table_keeps_running():
    r = Run().open()
    refused = r.m.press("play", 1)
    assert not refused.accepted and refused.reason == "no declaration is due (state betting)"
    r.m.press("deal")
    refused = r.m.press("throw_in", 1)
    assert not refused.accepted and refused.reason == "no declaration is due (state dealing, collect is due)"
    assert r.last("button") == {"button": "throw_in", "accepted": False, "reason": refused.reason, "seat": 1}
    refused = r.m.press("knock", 1)
    assert not refused.accepted and refused.reason.startswith("knock is not a seat button of panguingue")
    assert r.m.press("deal").accepted and r.m.state == "dealing"


# --- counts: dead, corrected, alive, foul (FOUL HANDS AND CARDS 7 and 3) --------------------

def test_a_dead_hand_before_touching_the_deck_is_skipped_and_its_ante_returned():
    """Rule 7: "Eight or less and twelve or more cards is a dead hand. The ante will be returned."
    Seat 6 (next to declare after seat 1) found with twelve: the request moves on to seat 5; the
    Tops lose one $5.00 ante."""
    r = Run().open()
    r.to_declare()
    r.declare(s1="play")
    assert r.prompt()["seat"] == 6
    reply = r.m.command("count", {"seat": 6, "cards": 12})
    assert reply["status"] == "dead" and reply["action"] == "the hand goes to the discards; return the seat's ante (rule 7)"
    assert r.last("hand_status") == {
        "seat": 6, "status": "dead", "cards": 12, "touched_deck": False,
        "reason": "12 cards before touching the deck: 'Eight or less and twelve or more cards is a dead hand' (rule 7)",
        "rule": "FOUL HANDS AND CARDS 7", "action": "the hand goes to the discards; return the seat's ante (rule 7)"}
    assert r.last("prompt")["seat"] == 5, "the new request is published"
    refused = r.m.press("play", 6)
    assert not refused.accepted and refused.reason == "seat 6's hand is dead: it does not declare"
    everyone(r)
    result = r.end()
    assert (result["tops"], result["antes_returned"]) == (2500, [6])
    assert result["hands"][1] == {"seat": 6, "status": "dead", "declared": None, "cards": 12}


def test_counts_while_the_deal_and_the_declarations_are_due():
    """Eleven found "before plucking up his second five cards": the dealer takes one from them;
    nine: corrected (choice 1); a corrected hand is alive and declares."""
    r = Run().open()
    r.m.press("deal")
    r.m.press("deal")                                   # the deal is due
    out = r.m.command("count", {"seat": 3, "cards": 11, "before_second_five": True})
    assert out["status"] == "corrected" and out["action"].startswith("remove one card from the second five")
    assert r.prompt()["step"] == "deal", "the deal goes on"
    r.m.press("deal")
    assert r.m.command("count", {"seat": 2, "cards": 9})["status"] == "corrected"
    assert r.m.command("count", {"seat": 2, "cards": 10})["status"] == "alive"
    everyone(r)
    assert [h["status"] for h in r.end()["hands"]] == ["alive", "alive", "alive", "alive", "corrected", "alive"]


def test_a_nine_card_hand_is_dead_at_a_table_that_says_so():
    r = Run(nine_cards="dead").open()
    r.to_declare()
    assert r.m.command("count", {"seat": 2, "cards": 9})["status"] == "dead"


def test_after_touching_the_deck_more_or_less_than_ten_is_a_foul_hand():
    """Rule 3 during the play: the hand is foul, it cannot win, its ante stays in the Tops; with one
    player left, rule 5 (settle, or play out face up)."""
    r = Run(seats=2).open()
    r.to_declare()
    r.declare(s1="play", s2="play")
    assert r.m.command("count", {"seat": 2, "cards": 10, "touched_deck": True})["status"] == "alive"
    assert r.m.command("count", {"seat": 2, "cards": 11, "touched_deck": True})["status"] == "foul"
    assert r.prompt()["text"].startswith("Seat 1 is the only player left in action (the other hands are dead or "
                                         "foul): he settles with the fouled players or plays the hand out")
    with pytest.raises(Refused, match=r"^seat 2's hand is foul: it cannot win$"):
        r.m.command("winner", {"seat": 2})
    r.m.command("winner", {"seat": 1})
    result = r.end()
    assert (result["winner"], result["tops"], result["antes_returned"]) == (1, 1000, [])


def test_a_count_during_the_play_changes_the_words_not_the_request():
    """One prompt per step (issue 23): the play's prompt asks the dealer for one press, when the hand
    is over. A count during it (seat 3 holds 11 cards after touching the deck: a foul hand, rule 3)
    changes its words -- seats 1, 2 draw; then seat 1 alone -- but it is the same request: no new
    prompt event (a dealer who follows prompts would press twice, and the second press would end
    the next step), the state topic's prompt carries the words, and one press ends the play."""
    r = Run(seats=3).open()
    r.to_declare()
    everyone(r)
    play = r.last("prompt")
    assert play["step"] == "draw"
    before = len(r.all("prompt"))
    r.m.command("count", {"seat": 3, "cards": 11, "touched_deck": True})
    r.m.command("count", {"seat": 2, "cards": 9, "touched_deck": True})
    assert len(r.all("prompt")) == before, "the same step: not asked again"
    assert r.prompt()["step"] == "draw" and r.prompt()["text"].startswith("Seat 1 is the only player left in action")
    assert json.loads(r.snapshots[-1])["prompt"]["text"] == r.prompt()["text"]
    r.m.command("winner", {"seat": 1})
    assert r.m.press("deal").accepted and r.m.state == "result"


@pytest.mark.parametrize("when, args, message", [
    ("collect", {"seat": 1, "cards": 10}, "no count is taken now (state dealing, collect is due): a count is taken "
                                          "from the deal to the end of the play"),
    ("declare", {"seat": 1, "cards": 9, "touched_deck": True}, "nobody has touched the deck yet (declare is due): "
                                                               "the draw has not begun"),
    ("declare", {"seat": 9, "cards": 10}, "seat 9 is not in hand 1: the players are 1, 2, 3, 4, 5, 6"),
    ("declare", {"seat": "1", "cards": 10}, "seat is a seat number"),
    ("declare", {"seat": 1, "cards": "ten"}, "cards is the number of cards the seat holds, a whole number 0 to 99"),
    ("declare", {"seat": 1, "cards": 100}, "cards is the number of cards the seat holds, a whole number 0 to 99"),
    ("declare", {"seat": 1}, "cards is the number of cards the seat holds"),
    ("declare", {"seat": 1, "cards": 10, "touched_deck": "yes"}, "touched_deck and before_second_five are true or "
                                                                 "false"),
    ("draw", {"seat": 2, "cards": 11, "touched_deck": True, "before_second_five": True},
     "before_second_five is a count before touching the deck, not after"),
    ("draw", {"seat": 5, "cards": 10}, "seat 5's hand is already dead: it is out of this hand"),
    ("draw", {"seat": 6, "cards": 10}, "seat 6 threw its hand in: it is not counted"),
    ("winner", {"seat": 1, "cards": 12}, "seat 1 is entered as the winner: enter the winner again first"),
])
def test_a_bad_count_is_refused_with_its_reason_and_publishes_nothing(when, args, message):
    r = Run().open()
    r.m.press("deal")
    if when != "collect":
        r.m.press("deal")
        r.m.press("deal")
    if when in ("draw", "winner"):
        r.m.command("count", {"seat": 5, "cards": 8})
        r.declare(s1="play", s6="throw_in")
        everyone(r)
    if when == "winner":
        r.m.command("winner", {"seat": 1})
    before = len(r.events)
    with pytest.raises(Refused) as caught:
        r.m.command("count", args)
    assert caught.value.reason.startswith(message), caught.value.reason
    assert len(r.events) == before, "a refused count publishes nothing"
    assert r.m.state == "dealing"


def test_a_count_that_leaves_no_declarer_ends_the_declarations():
    """Seat 3 is the last to declare; it is found dead: nobody else is to declare, so the play is
    due at once (two players in action)."""
    r = Run(seats=3).open()
    r.to_declare()
    r.declare(s1="play", s3="play")
    r.m.command("count", {"seat": 2, "cards": 13})
    assert r.prompt()["step"] == "draw" and "seats 1, 3" in r.prompt()["text"]


# --- the winner -----------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    ({"seat": 2}, "seat 2 threw its hand in: it cannot win"),
    ({"seat": 3}, "seat 3's hand is dead: it cannot win"),
    ({"seat": 8}, "seat 8 is not in hand 1: the players are 1, 2, 3, 4, 5, 6"),
    ({}, "seat is a seat number"),
    ({"seat": 1}, "seat 1 is already entered as the winner"),
])
def test_a_bad_winner_is_refused_with_its_reason(args, message):
    r = Run().open()
    r.to_declare()
    r.m.command("count", {"seat": 3, "cards": 7})
    r.declare(s1="play", s6="play", s5="play", s4="play", s2="throw_in")
    r.m.command("winner", {"seat": 1})
    before = len(r.events)
    with pytest.raises(Refused) as caught:
        r.m.command("winner", args)
    assert caught.value.reason == message and len(r.events) == before


def test_a_winner_is_entered_only_during_the_play_and_may_be_corrected_there():
    r = Run().open()
    r.to_declare()
    with pytest.raises(Refused, match=r"^no winner is due \(state dealing, declare is due\)"):
        r.m.command("winner", {"seat": 1})
    everyone(r)
    r.m.command("winner", {"seat": 1})
    r.m.command("winner", {"seat": 5})
    old, new = r.all("hand_status")[-2:]
    assert (old["seat"], old["status"], old["reason"]) == (1, "alive", "no longer the winner: seat 5 is entered in "
                                                                       "its place")
    assert (new["seat"], new["status"]) == (5, "winner") and new["reason"].endswith("in place of seat 1")
    assert r.prompt()["text"] == "Seat 5 is entered as the winner; press deal when the hand is over."
    assert r.end()["winner"] == 5
    with pytest.raises(Refused, match=r"^no winner is due \(state betting\)"):
        r.m.command("winner", {"seat": 5})


# --- the table: seats in, the deck, a card read, a restart, secrecy ------------------------

def test_seat_buttons_mark_a_seat_out_and_in_and_no_deal_without_two():
    r = Run(seats=3, seats_in=(1, 2)).open()
    assert r.m.press("sit_out", 1).accepted
    assert r.prompt()["buttons"] == [] and "waits for players" in r.prompt()["text"]
    assert not r.m.press("deal").accepted
    assert r.m.press("sit_in", 3).accepted and r.lights()["dealer_button"] == [3]
    r.to_declare()
    assert r.m.press("sit_out", 2).accepted, "during a hand: from the next hand"
    everyone(r)
    assert r.end()["players"] == [2, 3]
    assert r.m.players == frozenset() and "waits for players" in r.prompt()["text"], "seat 3 alone"


def test_a_card_read_is_an_alarm_the_dealer_pitches_by_hand():
    r = Run().open()
    r.to_declare()
    r.m.card(Card("7", "H"))
    alarm = r.last("alarm")
    assert alarm["code"] == "unexpected_card" and alarm["severity"] == "warning"
    assert alarm["message"] == "a card read arrived, but panguingue reads no cards: the dealer pitches by hand"
    assert r.m.state == "dealing" and r.prompt()["expect"] == "decision"


def test_a_card_of_no_pan_deck_is_a_foreign_card():
    """An eight is in no deck of 40 (rule 3): read while cards are in play it is a foreign card."""
    r = Run().open()
    r.to_declare()
    r.m.card(Card("8", "S"))
    assert r.last("alarm")["code"] == "foreign_card" and r.m.state == "fault"


def test_the_deck_check_counts_every_deck_and_names_a_missing_card():
    """Every shuffle is counted against 320; a count short sends the table to a deck check, which
    names the missing card (one of the eight queens of hearts)."""
    r = Run().open()
    r.to_declare()
    everyone(r)
    while r.m.state == "dealing":
        r.m.press("deal")
    r.m.press("deal")
    r.m.shuffled(319)
    assert r.m.state == "deck_check" and r.last("alarm")["code"] == "shuffle_count"
    deck = r.m.spec.all_cards()
    deck.remove(Card("Q", "H"))
    r.m.deck_checked(deck, 0)
    assert r.last("alarm")["missing"] == ["QH"] and r.last("deck_check")["expected"] == 320
    r.m.deck_checked(r.m.spec.all_cards(), 0)
    assert r.m.state == "shuffle"


def test_the_seats_in_and_the_first_seat_go_on_after_a_restart():
    r = Run().open()
    assert r.m.press("sit_out", 2).accepted
    r.to_declare()
    everyone(r)
    r.m.command("winner", {"seat": 5})
    r.end()
    saved = json.loads(json.dumps(r.m.save()))
    fresh = Run()
    fresh.m.restore(saved, "betting")
    fresh.open()
    assert fresh.lights()["dealer_button"] == [5] and fresh.m.snapshot()["seats_in"] == [1, 3, 4, 5, 6]
    bad = Run()
    bad.m.restore({"panguingue": {"seated": [1, 2], "start": 40}}, None)
    assert bad.last("alarm")["code"] == "panguingue_seats_reset"


def test_no_card_is_ever_named():
    """The controller never learns a card of this game: nothing it publishes names one."""
    r = Run().open()
    for _ in range(2):
        r.to_declare()
        r.m.command("count", {"seat": r.prompt()["seat"], "cards": 11})
        everyone(r)
        r.end()
    assert CODE.findall(json.dumps(r.events) + json.dumps(r.m.snapshot())) == []


def test_the_example_config_is_a_valid_panguingue_table():
    from controller.table.config import load_config

    cfg = load_config(ROOT / "config" / "panguingue.toml")
    assert cfg.table.game == "panguingue" and cfg.options.condition == 500 and cfg.options.spec.size == 320
