"""The Hold'em family's round machine (games/holdem/machine.py), driven as the controller would:
the shuffler's deck check and counts, the dealer's presses, the seat buttons and the pit's
cmd/showdown. Every event is checked against its schemas (generic and the game's own), every
snapshot against state.json. Sheet: california-card-room-games.txt, "THE BASIC PLAY OF THE MOTHER
GAME TEXAS HOLD'EM" and "The Variations"."""

from __future__ import annotations

import json
import re

import pytest
from round_run import RoundRun

from games.cards import cards
from games.holdem import HoldemOptions, HoldemRound
from games.round import Refused

CODE = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b")


class Run(RoundRun):
    """The machine driven as the controller drives it (tests/round_run.py), on a 6-seat table."""

    m: HoldemRound

    def __init__(self, **options) -> None:
        super().__init__("holdem", HoldemOptions(**{"seats": 6, **options}), "h")

    def open(self) -> Run:
        self.m.open()
        self.m.deck_checked(self.m.spec.all_cards(), 0)
        self.m.shuffled(52)
        assert self.m.state == "betting"
        return self

    def to(self, action: str) -> None:
        """Press deal until the prompt asks for ``action``."""
        while self.m.state != "dealing" or self.last("prompt").get("step") != action:
            assert self.m.press("deal").accepted, self.last("prompt")
            assert self.m.state in ("dealing", "result")

    def hand(self) -> dict:
        """Deal a whole hand from betting; settle it and shuffle: the next hand's betting."""
        self.m.press("deal")
        while self.m.state == "dealing":
            assert self.m.press("deal").accepted
        result = self.last("result")
        assert self.m.press("deal").accepted and self.m.state == "shuffle"
        self.m.shuffled(52)
        return result

    def lights(self) -> dict:
        return self.m.snapshot()["lights"]["seats"]


def steps(r: Run) -> list[str]:
    """The deal's steps as the dealer's prompts named them, from the deal to the showdown."""
    r.m.press("deal")
    seen = []
    while r.m.state == "dealing":
        p = r.last("prompt")
        assert p["expect"] == "press" and p["buttons"] == ["deal"], p   # hw_sim's dealer presses buttons[0]
        seen.append(p["step"] + (f":{p['street']}" if p.get("street") and p["step"] != "bet" else ""))
        r.m.press("deal")
    return seen


FLOP_TURN_RIVER = ["burn", "board:flop", "bet", "burn", "board:turn", "bet", "burn", "board:river", "bet", "showdown"]


@pytest.mark.parametrize("variant, hole, discard", [
    ("holdem", 2, False),           # "Each player is dealt two cards face down"
    ("holdem_hi_lo", 2, False),     # "Each player receives two cards face down"
    ("pineapple", 3, True),         # "three cards face down. After the Flop, the player discards one card"
    ("crazy_pineapple", 3, False),  # "After the Flop, the player keeps all three cards"
    ("omaha_hi_lo", 4, False),      # "Each player receives four cards face down"
])
def test_the_deal_sequence_per_variant(variant, hole, discard):
    """The mother game: hole cards, a round of betting; burn and the flop (three up); bet; burn and
    the turn; bet; burn and the river; the final round of betting. Pineapple's discard after the
    flop's betting round (games.poker.deal_plan choice 1)."""
    r = Run(variant=variant).open()
    want = ["collect:blinds", "deal:hole cards", "bet", *FLOP_TURN_RIVER]
    if discard:
        want.insert(want.index("burn", 6), "discard:one card")
    assert steps(r) == want
    deal = next(d for d in r.all("prompt") if d.get("step") == "deal")
    assert deal["text"].startswith(f"Deal {hole} hole cards face down to each of the 6 players")
    assert r.m.state == "result" and r.last("result")["showdown"] is None


def test_the_pineapple_discard_may_come_as_soon_as_the_flop_is_turned():
    r = Run(variant="pineapple", pineapple_discard="after_flop").open()
    assert steps(r)[3:7] == ["burn", "board:flop", "discard:one card", "bet"]


def test_the_hand_starts_with_its_positions_and_collection_and_the_button_moves_each_hand():
    r = Run().open()
    assert r.lights() == {"dealer_button": [1], "small_blind": [2], "big_blind": [3]}
    first = r.hand()
    ab = r.all("action_button")[0]
    assert ab == {"seat": 1, "dead_button": False, "small_blind": 2, "big_blind": 3, "players": [1, 2, 3, 4, 5, 6],
                  "variant": "holdem", "collection": {"players": 6, "fee": 300, "jackpot": 100, "basis": "pot",
                                                     "schedule": "holdem_4_8"}}
    assert first["button"] == 1 and first["collection"]["fee"] == 300
    collect = next(d for d in r.all("prompt") if d.get("step") == "collect")
    assert collect["text"] == ("Hand 1: button seat 1; seat 2 posts the small blind, seat 3 the big blind. Collect "
                               "the fee $3.00 and the jackpot $1.00 (6 players); press deal.")
    bet = next(d for d in r.all("prompt") if d.get("step") == "bet")
    assert "seat 4 acts first (left of the big blind)" in bet["text"]
    assert r.m.state == "betting" and r.lights() == {"dealer_button": [2], "small_blind": [3], "big_blind": [4]}
    assert [r.hand()["button"] for _ in range(5)] == [2, 3, 4, 5, 6]
    assert r.hand()["button"] == 1
    shuffles = r.all("shuffle")
    assert len(shuffles) == 8 and all(s == {"ok": True, "count": 52, "expected": 52} for s in shuffles)


def test_a_voided_hand_is_dealt_again_with_the_same_button():
    r = Run().open()
    r.hand()
    r.m.press("deal")
    r.to("burn")
    r.m.void("misdeal: two cards exposed", by="pit")
    r.m.shuffled(52)
    assert r.m.state == "betting" and r.lights()["dealer_button"] == [2]
    assert r.hand()["button"] == 2


def test_heads_up_the_button_has_the_small_blind():
    r = Run(seats=2).open()
    assert r.lights() == {"dealer_button": [1], "small_blind": [1], "big_blind": [2]}
    r.m.press("deal")
    r.to("bet")
    assert "seat 1 acts first (left of the big blind)" in r.last("prompt")["text"]
    r.m.void("test", by="pit")
    r.m.shuffled(52)
    assert r.hand()["collection"] == {"players": 2, "fee": 100, "jackpot": 0, "basis": "pot", "schedule": "holdem_4_8"}
    assert r.lights() == {"dealer_button": [2], "small_blind": [2], "big_blind": [1]}


def test_seat_buttons_mark_a_seat_out_and_in_and_the_blinds_follow_before_the_deal():
    r = Run().open()
    assert r.m.press("sit_out", 2).accepted
    assert r.lights() == {"dealer_button": [1], "small_blind": [3], "big_blind": [4]}
    assert not r.m.press("sit_out", 2).accepted and r.last("button")["reason"] == "seat 2 is already out"
    assert r.m.snapshot()["lights"]["seat_buttons_lit"] == {"sit_in": [2], "sit_out": [1, 3, 4, 5, 6]}
    result = r.hand()
    assert result["players"] == [1, 3, 4, 5, 6] and result["collection"]["fee"] == 300
    # During a hand a seat's press counts from the next hand.
    r.m.press("deal")
    assert r.m.press("sit_out", 5).accepted and r.last("action_button")["players"] == [1, 3, 4, 5, 6]
    while r.m.state == "dealing":
        r.m.press("deal")
    r.m.press("deal")
    r.m.shuffled(52)
    assert 5 not in r.m.players and r.m.snapshot()["seats_in"] == [1, 3, 4, 6]


def test_fewer_than_two_players_and_no_deal_is_lit_until_a_second_sits_in():
    r = Run(seats=3, seats_in=(1, 2)).open()
    assert r.m.press("sit_out", 1).accepted
    prompt = r.last("prompt")
    assert prompt["expect"] == "none" and prompt["buttons"] == []
    assert "waits for players" in prompt["text"]
    assert not r.m.press("deal").accepted and r.m.state == "betting"
    assert r.m.press("sit_in", 3).accepted
    assert r.last("prompt")["expect"] == "bets" and r.lights()["dealer_button"] == [2]
    assert r.hand()["players"] == [2, 3]


def test_a_saved_button_goes_on_after_a_restart():
    r = Run().open()
    r.hand()
    r.hand()                         # buttons 1 and 2 played
    saved = json.loads(json.dumps(r.m.save()))
    fresh = Run()
    fresh.m.restore(saved, "betting")
    fresh.open()
    assert fresh.lights()["dealer_button"] == [3]
    bad = Run()
    bad.m.restore({"holdem": {"seated": [1, 2], "last": {"button": 40}}}, None)
    assert bad.last("alarm")["code"] == "holdem_positions_reset"


# --- the showdown, entered by the pit -----------------------------------------------------

def test_showdown_entered_by_card_codes_is_revealed_and_evaluated():
    r = Run(variant="holdem_hi_lo").open()
    r.m.press("deal")
    with pytest.raises(Refused, match="no showdown is due"):
        r.m.command("showdown", {"board": ["AS", "4D", "7C", "KH", "KD"]})
    r.to("showdown")
    r.m.command("showdown", {"board": ["AS", "4D", "7C", "KH", "KD"]})
    reply = r.m.command("showdown", {"seat": 2, "cards": ["KC", "9S"]})
    assert reply["showdown"]["high"] == [2] and reply["showdown"]["pot"] == "high"
    reply = r.m.command("showdown", {"seat": 5, "cards": ["2C", "3H"]})
    assert (reply["showdown"]["high"], reply["showdown"]["low"], reply["showdown"]["pot"]) == ([2], [5], "split")
    assert r.all("reveal") == [{"hand": "board", "cards": ["AS", "4D", "7C", "KH", "KD"]},
                               {"hand": "seat", "seat": 2, "cards": ["KC", "9S"]},
                               {"hand": "seat", "seat": 5, "cards": ["2C", "3H"]}]
    r.m.press("deal")
    assert r.m.state == "result" and r.last("result")["showdown"] == reply["showdown"]


def test_omaha_showdown_takes_two_from_the_hand():
    r = Run(variant="omaha_hi_lo").open()
    r.m.press("deal")
    r.to("showdown")
    r.m.command("showdown", {"board": ["2H", "7H", "9H", "KH", "4C"]})
    out = r.m.command("showdown", {"seat": 1, "cards": ["AH", "QS", "QD", "3C"]})["showdown"]
    assert out["hands"][0]["high"]["name"] == "pair" and out["hands"][0]["low"]["name"] == "7-4-3-2-A"
    out = r.m.command("showdown", {"seat": 3, "cards": ["AS", "8H", "5H", "6D"]})["showdown"]
    assert out["high"] == [3] and out["hands"][1]["high"]["name"] == "flush", "8H 5H with three board hearts"
    assert out["hands"][1]["low"]["name"] == "7-5-4-2-A"
    assert (out["low"], out["pot"]) == ([1], "split"), "7-4-3-2-A is the better low"


@pytest.mark.parametrize("args, message", [
    ({"seat": 2, "cards": ["AS", "XX"]}, "card 2 of seat 2's hand is not a card code"),
    ({"seat": 2, "cards": ["QS", "QS"]}, "cards 1 and 2 of seat 2's hand are the same card: one deck holds it once"),
    ({"seat": 2, "cards": ["KH", "3C"]}, "card 1 of seat 2's hand is already entered for the board"),
    ({"seat": 2, "cards": ["QS"]}, "seat 2's hand is 2 cards, not 1"),
    ({"seat": 2, "cards": ["QS", "QD", "3C"]}, "seat 2's hand is 2 cards, not 3"),
    ({"seat": 4, "cards": ["QS", "QD"]}, "seat 4 is not in hand 1: the players are 1, 2, 3, 5, 6"),
    ({"seat": 3, "cards": ["QS", "QD"]}, "seat 3's hand is already entered for this hand"),
    ({"board": ["2H", "7H", "9H", "KH", "4C"]}, "the board is already entered for this hand"),
    ({"seat": 2}, "a hand shown needs both seat and cards"),
    ({"seat": 2, "cards": ["QS", "QD"], "board": ["2H"]}, "give either seat and cards"),
    ({}, "give either seat and cards"),
])
def test_a_bad_showdown_entry_is_refused_with_its_reason_and_the_table_keeps_running(args, message):
    r = Run(seats_in=(1, 2, 3, 5, 6)).open()
    r.m.press("deal")
    r.to("showdown")
    r.m.command("showdown", {"board": ["2H", "7H", "9H", "KH", "4C"]})
    r.m.command("showdown", {"seat": 3, "cards": ["AH", "8H"]})
    before = len(r.events)
    with pytest.raises(Refused) as caught:
        r.m.command("showdown", args)
    assert caught.value.reason.startswith(message)
    assert len(r.events) == before, "a refused entry publishes nothing"
    for code in ("AS", "XX", "QS", "QD", "3C"):
        assert code not in caught.value.reason, "a refusal never quotes a code entered"
    assert r.m.state == "dealing" and r.m.press("deal").accepted and r.m.state == "result"
    assert [h["seat"] for h in r.last("result")["showdown"]["hands"]] == [3]


def test_nothing_but_the_entered_cards_is_ever_named():
    """Hole cards, burns and the stub never reach an event, a prompt or the snapshot: the
    controller never learns them, and names only what the pit entered, once entered."""
    r = Run(variant="pineapple").open()
    for _ in range(2):
        r.hand()
    r.m.press("deal")
    r.to("showdown")
    named = json.dumps(r.events) + json.dumps(r.m.snapshot())
    assert CODE.findall(named) == []
    r.m.command("showdown", {"board": ["2H", "7H", "9H", "KH", "4C"]})
    r.m.command("showdown", {"seat": 1, "cards": ["AH", "QS"]})
    named = json.dumps(r.events) + json.dumps(r.m.snapshot())
    assert set(CODE.findall(named)) == {"2H", "7H", "9H", "KH", "4C", "AH", "QS"}
    r.m.press("deal")
    r.m.press("deal")
    r.m.shuffled(52)
    assert r.m.state == "betting" and r.m.snapshot()["showdown"] is None, "the next hand starts clean"


def test_a_wrong_shuffle_count_sends_the_table_to_a_deck_check_naming_missing_cards():
    r = Run().open()
    r.hand()
    r.m.press("deal")
    while r.m.state == "dealing":
        r.m.press("deal")
    r.m.press("deal")
    r.m.shuffled(51)
    assert r.m.state == "deck_check" and r.last("alarm")["code"] == "shuffle_count"
    deck = [c for c in r.m.spec.all_cards() if c != cards("QD")[0]]
    r.m.deck_checked(deck, 0)
    assert r.last("alarm")["missing"] == ["QD"] and r.m.state == "deck_check"
