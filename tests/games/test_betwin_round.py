"""Bet'Win's round machine (games/betwin/machine.py): the deal, the change phase, the re-bet,
the Adjoining card, and every out-of-rule press or card. Rule numbers: betwin.txt."""

from __future__ import annotations

import json

import pytest

from controller.shared.schemas import validate, validate_event
from games.betwin import BetWinOptions, BetWinRound
from games.cards import card, cards


class Run:
    def __init__(self, seats: int = 3) -> None:
        self.events: list[tuple[str, dict]] = []
        self.m: BetWinRound | None = None
        self.m = BetWinRound(BetWinOptions(seats=seats), self.emit)

    def emit(self, kind: str, data: dict) -> None:
        env = {"seq": len(self.events) + 1, "ts": 0.0, "table": "bw", "round": None, "kind": kind, "data": data}
        validate_event(json.loads(json.dumps(env)), game="betwin")
        self.events.append((kind, data))
        if self.m is not None:
            validate("state", {**json.loads(json.dumps(self.m.snapshot())), "table": "bw", "seq": 1, "ts": 0.0})

    def last(self, kind: str) -> dict:
        return next(d for k, d in reversed(self.events) if k == kind)

    def to_dealing(self) -> None:
        m = self.m
        m.open()
        m.deck_checked(m.spec.all_cards(), 0)
        m.shuffled(m.spec.size)
        m.press("shuffle_ack")
        m.press("deal")
        assert m.state == "dealing"

    def deal(self, codes: str) -> None:
        for c in cards(codes):
            self.m.card(c)


def test_a_round_with_one_change():
    r = Run()
    r.to_dealing()
    r.deal("1S 3H MC")          # 3.1: one card to each seat, from the dealer's left
    r.deal("2D")                # the Waiting card
    prompt = r.last("prompt")
    assert (prompt["expect"], prompt["seat"], prompt["choices"]) == ("decision", 1, ["change", "stand"])
    assert r.m.lights()["seats"]["turn"] == [1]
    assert r.m.press("change", 1).accepted
    assert r.m.press("stand", 2).accepted
    assert r.m.press("stand", 3).accepted
    assert r.last("prompt")["seat"] == 1 and r.last("prompt")["position"] == 2   # seat 1's new card
    r.deal("4S")
    prompt = r.last("prompt")
    assert prompt["expect"] == "press" and prompt["buttons"] == ["deal"]          # 3.3: the re-bet
    assert r.m.press("deal").accepted
    r.deal("RC")                # the Adjoining card
    assert r.m.state == "result"
    result = r.last("result")
    assert result["zone"] == "wins from 2 up to, not including, the King (rule 2)"
    assert result["seats"]["1"]["card"] == "4S" and result["seats"]["1"]["changed"]
    assert [s["wagers"][0]["outcome"] for s in result["seats"].values()] == ["win", "win", "win"]


def _to_change_phase() -> Run:
    r = Run()
    r.to_dealing()
    r.deal("1S 3H MC 2D")
    return r


def test_a_second_change_is_refused():
    r = _to_change_phase()
    r.m.press("change", 1)
    verdict = r.m.press("change", 1)
    assert not verdict.accepted
    assert verdict.reason == "seat 1 has already chosen change this round: a change is allowed once per round (rule 3.2)"


def test_a_change_after_the_change_phase_is_refused():
    r = _to_change_phase()
    for seat in (1, 2, 3):
        r.m.press("stand", seat)
    verdict = r.m.press("change", 2)
    assert verdict.reason == "seat 2 has already chosen stand this round: a change is allowed once per round (rule 3.2)"
    r.m.press("deal")
    r.deal("RC")
    verdict = r.m.press("change", 2)
    assert not verdict.accepted and "no change phase now" in verdict.reason


def test_a_change_before_the_waiting_card_is_refused():
    r = Run()
    r.to_dealing()
    r.deal("1S")
    verdict = r.m.press("change", 1)
    assert verdict.reason == "no change phase now: it follows the dealer's Waiting card (rule 3.2; state dealing)"


def test_a_seat_out_of_turn_is_refused():
    r = _to_change_phase()
    assert r.m.press("stand", 2).reason == "seat 1 decides first"


def test_a_card_during_the_change_phase_is_an_alarm():
    r = _to_change_phase()
    r.deal("5S")
    alarm = r.last("alarm")
    assert alarm["message"] == "5S drawn, but seat 1 has not decided (change or stand)"
    assert r.m.state == "fault"


def test_a_card_during_the_rebet_is_an_alarm():
    r = _to_change_phase()
    for seat in (1, 2, 3):
        r.m.press("stand", seat)
    r.deal("5S")
    assert r.last("alarm")["message"].startswith("5S drawn, but re-bet (rule 3.3)")


@pytest.mark.parametrize("seats", [0, 8])
def test_seats_are_1_to_7(seats):
    with pytest.raises(ValueError, match=r"seats: the Bet'Win layout is for 1 to 7 players \(1.2\)"):
        BetWinOptions(seats=seats)


def test_every_card_is_face_up_with_its_code():
    r = _to_change_phase()
    assert all(d["face"] == "up" and d["card"] for k, d in r.events if k == "card")
    assert card("2D").code in json.dumps(r.m.snapshot())
