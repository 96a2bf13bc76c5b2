"""Joker Seven's round machine (games/joker_seven/machine.py), driven as the controller would.

Rule numbers: joker-seven.txt. Every event is checked against its schemas (generic and the
game's own), every snapshot against state.json.
"""

from __future__ import annotations

import json

import pytest

from controller.shared.schemas import validate, validate_event
from games.cards import cards
from games.joker_seven import JokerSevenOptions, JokerSevenRound

HAND = "AS AC 3S 3C 5H 6D JK"


class Run:
    def __init__(self, **options) -> None:
        self.events: list[tuple[str, dict]] = []
        self.m: JokerSevenRound | None = None
        self.m = JokerSevenRound(JokerSevenOptions(**options), self.emit)

    def emit(self, kind: str, data: dict) -> None:
        env = {"seq": len(self.events) + 1, "ts": 0.0, "table": "j7", "round": None, "kind": kind, "data": data}
        validate_event(json.loads(json.dumps(env)), game="joker_seven")
        self.events.append((kind, data))
        if self.m is not None:
            validate("state", {**json.loads(json.dumps(self.m.snapshot())), "table": "j7", "seq": 1, "ts": 0.0})

    def last(self, kind: str) -> dict:
        return next(d for k, d in reversed(self.events) if k == kind)

    def all(self, kind: str) -> list[dict]:
        return [d for k, d in self.events if k == kind]

    def to_betting(self) -> None:
        m = self.m
        m.open()
        m.deck_checked(m.spec.all_cards(), 0)
        m.shuffled(54)
        assert m.state == "betting", "no shoe to load: a good shuffle opens the round (rule 7)"

    def deal(self, codes: str) -> None:
        self.m.press("deal")
        for c in cards(codes):
            self.m.card(c)


def test_seven_cards_face_up_then_the_result_stands_on_the_count():
    r = Run()
    r.to_betting()
    r.deal(HAND)
    assert r.m.state == "result"
    assert [d["position"] for d in r.all("card")] == [1, 2, 3, 4, 5, 6, 7]
    assert all(d["face"] == "up" and d["hand"] == "layout" for d in r.all("card"))
    assert r.all("result") == [], "rule 12: no result before the count proves the deck"
    prompt = r.last("prompt")
    assert prompt["expect"] == "shuffle" and prompt["buttons"] == []
    assert not r.m.press("deal").accepted
    r.m.shuffled(54)                      # rule 7: shuffled after the round; the count proves the deck
    result = r.last("result")
    assert result["cards"] == HAND.split() and result["paytable"] == "generic"
    wagers = {w["wager"]: w for w in result["wagers"]}
    assert wagers["two_pairs"]["outcome"] == "win" and wagers["one_joker"]["pays"] == "3 to 1"
    assert r.last("prompt")["expect"] == "settle"
    r.m.press("deal")
    assert r.m.state == "betting" and r.m.round == 2, "settled: no second shuffle, the next round opens"


def test_an_eighth_card_is_an_alarm_naming_rule_3():
    r = Run()
    r.to_betting()
    r.deal(HAND)
    r.m.card(cards("9H")[0])
    alarm = r.last("alarm")
    assert (alarm["code"], alarm["card"]) == ("unexpected_card", "9H")
    assert alarm["message"] == "9H drawn, but no card: the 7 cards of the round are dealt (rule 3: no more than seven)"
    assert r.m.state == "fault"
    r.m.resume("pit")                     # the eighth card is burned; the round is as it was
    assert r.m.state == "result" and r.last("resume")["burned"] == ["9H"]


def test_a_wrong_count_after_the_round_invalidates_it():
    """Rule 12: the deck counted 53 after round 1: round 1 is voided and the deck checked."""
    r = Run()
    r.to_betting()
    r.deal(HAND)
    r.m.shuffled(53)
    void = r.last("void")
    assert void["round"] == 1 and void["by"] == "controller"
    assert void["reason"] == ("rule 12: the deck held 53 cards after round 1, not 54: the round's outcome is invalid")
    assert r.last("alarm")["code"] == "shuffle_count" and r.all("result") == []
    assert r.m.state == "deck_check"
    deck = r.m.spec.all_cards()
    deck.remove(cards("7H")[0])
    r.m.deck_checked(deck, 0)
    assert r.last("alarm")["missing"] == ["7H"] and r.m.state == "deck_check"


def test_a_deck_change_proves_both_decks_and_changes_the_back_colour():
    """Rules 9-11: the old deck proved complete, then a new deck of the other colour proved complete."""
    r = Run(backs=("red", "blue"))
    r.to_betting()
    assert "change_deck" in r.last("prompt")["buttons"]
    assert r.m.press("change_deck").accepted
    assert r.last("void")["reason"] == "deck change before the deal (rule 9)"
    assert r.m.state == "deck_check" and "rule 10a" in r.last("prompt")["text"]
    old = r.m.spec.all_cards()
    r.m.deck_checked(old[:-1], 0)                       # the old deck lacks a card: not proved
    assert r.last("alarm")["message"].startswith("rule 10a: the deck being replaced is not complete")
    r.m.deck_checked(old, 0)
    prompt = r.last("prompt")
    assert prompt["expect"] == "new_deck" and "blue backs (rule 11)" in prompt["text"]
    r.m.deck_checked(r.m.spec.all_cards(), 0)           # rule 10b: the new deck is complete
    assert r.m.state == "shuffle" and r.m.snapshot()["backs"] == "blue"
    r.m.shuffled(54)
    assert r.m.state == "betting"


def test_change_deck_is_refused_while_cards_are_out():
    r = Run()
    r.to_betting()
    r.deal("AS AC 3S")
    verdict = r.m.press("change_deck")
    assert not verdict.accepted and r.m.state == "dealing"


def test_the_nj_paytable_prices_the_same_hand_its_own_way():
    r = Run(paytable="nj")
    r.to_betting()
    r.deal("AS 2C 3S 4C 5S 6C 7H")
    r.m.shuffled(54)
    wagers = {w["wager"]: w for w in r.last("result")["wagers"]}
    assert wagers["black_6"] == {"wager": "black_6", "outcome": "win", "pays": "15 to 1", "why": "6 black cards (exactly 6 wins)"}


def test_the_pit_command_change_deck_waits_for_the_round_to_end():
    """The game's own pit command (GameEntry.commands): refused while cards are out, as the button."""
    from games.round import Refused

    r = Run()
    r.to_betting()
    r.deal("AS AC 3S")
    with pytest.raises(Refused, match="a deck change waits for the round to end"):
        r.m.command("change_deck", {})
    with pytest.raises(Refused, match=r"^joker_seven has no such command: its commands are change_deck$"):
        r.m.command("shuffle", {})
