"""The base machine without baccarat: High Card (tests/neutral_game.py) on the lifecycle core.

It proves what every later game stands on: seat buttons with their
verdicts, a decision prompt per seat with the ``turn`` light, a face-down
card revealed only when the rules say (never for a fold), a game without
shoe play going back to the shuffler after every round, and the
``unexpected_input`` of an input the game does not use.
"""

from __future__ import annotations

import json

import pytest
from neutral_game import SPEC, HighCard, Options, settle

from controller.shared.schemas import validate, validate_event
from games.cards import card, cards
from games.wagers import Pays, WagerResult


class Run:
    def __init__(self, seats: int = 2) -> None:
        self.events: list[tuple[str, dict]] = []
        self.m = HighCard(Options(seats=seats), self.emit)

    def emit(self, kind: str, data: dict) -> None:
        envelope = {"seq": len(self.events) + 1, "ts": 0.0, "table": "hc-1", "round": None, "kind": kind,
                    "data": data}
        validate_event(json.loads(json.dumps(envelope)))  # every event has its (generic) schema
        self.events.append((kind, data))

    def open(self) -> None:
        self.m.open()
        self.m.deck_checked(SPEC.all_cards(), 0)
        self.m.shuffled(SPEC.size)
        assert self.m.state == "betting"  # no shoe to load, no offer: betting at once
        self.m.press("deal")
        assert self.m.state == "dealing"

    def all(self, kind: str) -> list[dict]:
        return [d for k, d in self.events if k == kind]


def test_a_round_seat_decisions_and_the_result():
    """Seat 1 gets 9S and shows, seat 2 gets 3S and folds; the dealer's 5S: seat 1 wins 1 to 1,
    seat 2 loses; 9S is revealed with the result, 3S never."""
    r = Run()
    r.open()
    for c in cards("9S 3S"):
        r.m.card(c)
    prompt = r.all("prompt")[-1]
    assert (prompt["expect"], prompt["seat"], prompt["choices"]) == ("decision", 1, ["show", "fold"])
    assert r.m.lights()["seats"] == {"turn": [1]} and r.m.lights()["seat_buttons_lit"] == {"fold": [1], "show": [1]}
    assert r.m.press("show", 1).accepted
    assert r.m.lights()["seats"] == {"turn": [2]}
    assert r.m.press("fold", 2).accepted
    r.m.card(card("5S"))
    assert r.m.state == "result"
    assert r.all("reveal") == [{"hand": "seat", "seat": 1, "card": "9S"}]
    assert r.all("result")[-1]["seats"] == {
        "1": {"wager": "ante", "outcome": "win", "pays": "1 to 1", "why": "9S beats 5S"},
        "2": {"wager": "ante", "outcome": "lose", "pays": None, "why": "folded"}}
    text = json.dumps(r.events)
    assert "3S" not in text, "a folded card is never revealed"
    assert '"9S"' not in json.dumps(r.events[: r.events.index(("reveal", r.all("reveal")[0]))])
    validate("state", {**json.loads(json.dumps(r.m.snapshot())), "table": "hc-1", "seq": 1, "ts": 0.0})


def test_without_shoe_play_the_cards_go_back_to_the_shuffler_after_every_round():
    r = Run()
    r.open()
    for c in cards("9S 3S"):
        r.m.card(c)
    r.m.press("show", 1)
    r.m.press("show", 2)
    r.m.card(card("5S"))
    assert r.all("prompt")[-1]["text"] == "Settle round 1, clear the layout, press deal for the shuffle."
    r.m.press("deal")
    assert r.m.state == "shuffle"
    r.m.shuffled(SPEC.size)
    assert r.m.state == "betting" and r.m.round == 2


@pytest.mark.parametrize("press, reason", [
    (("show", 2), "seat 1 decides first"),
    (("show", 5), "seat 5 is not one of seats 1..2"),
    (("hit", 1), "hit is not a seat button of high_card: its seat buttons are show, fold"),
    (("show", None), "show is a seat button: the press must name its seat"),
    (("pass", None), "unknown button: the buttons are deal, void; seat buttons show, fold"),
])
def test_an_out_of_place_press_is_refused_with_its_reason(press, reason):
    r = Run()
    r.open()
    for c in cards("9S 3S"):
        r.m.card(c)
    verdict = r.m.press(*press)
    assert (verdict.accepted, verdict.reason) == (False, reason)
    assert r.all("button")[-1]["reason"] == reason and r.m.state == "dealing"


def test_a_seat_button_before_any_decision_is_due():
    r = Run()
    r.open()
    verdict = r.m.press("fold", 1)
    assert (verdict.accepted, verdict.reason) == (False, "no decision is due (state dealing)")


def test_a_card_while_a_decision_is_due_is_an_alarm_and_a_fault():
    r = Run()
    r.open()
    for c in cards("9S 3S 5S"):
        r.m.card(c)
    alarm = r.all("alarm")[-1]
    assert (alarm["code"], alarm["card"]) == ("unexpected_card", "5S")
    assert alarm["message"] == "5S drawn, but seat 1 has not decided (show or fold)"
    assert alarm["expected"] == "seat 1 to show or fold"
    assert r.m.state == "fault" and r.m.round_open


def test_an_input_the_game_does_not_use_is_a_warning():
    """A cut card means nothing without shoe play: a specific warning, and the round goes on."""
    r = Run()
    r.open()
    r.m.device_input("shoe", "cut_card", {})
    alarm = r.all("alarm")[-1]
    assert (alarm["code"], alarm["severity"]) == ("unexpected_input", "warning")
    assert alarm["message"] == "the shoe sent cut card, which high_card does not use: ignored"
    assert r.m.state == "dealing"


def test_device_faults_follow_the_role_not_the_name():
    """The shoe reads cards: a misread while dealing makes the round void-only."""
    r = Run()
    r.open()
    r.m.device_input("shoe", "device_fault", {"code": "misread", "detail": ""})
    assert r.m.state == "fault" and not r.m.snapshot()["fault"]["resumable"]
    assert r.all("alarm")[-1]["code"] == "shoe_misread"


@pytest.mark.parametrize("hand, choice, dealer, expected", [
    ("KS", "show", "QS", WagerResult("ante", "win", Pays(1), "KS beats QS")),
    ("QS", "show", "QS", WagerResult("ante", "push", None, "equal ranks")),
    ("AS", "show", "2S", WagerResult("ante", "lose", None, "2S beats AS")),
    ("KS", "fold", "AS", WagerResult("ante", "lose", None, "folded")),
])
def test_settlement(hand, choice, dealer, expected):
    assert settle(card(hand), choice, card(dealer)) == expected


def test_options_name_their_field():
    with pytest.raises(ValueError, match="seats: High Card has 2 to 4 seats, not 5"):
        Options(seats=5)
