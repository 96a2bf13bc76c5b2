"""A game played without cards on the lifecycle core (games.round.no_deck), proved on a neutral
dice game of a few lines -- Odd or Even, below -- so that no real game is needed to show it:
the table opens, bets, shakes and settles with no deck check, no shuffle and no shuffler; a
card, a deck check or a shuffle count that reaches it anyway is a warning that says why.

The card games are unchanged: Dice High (tests/dice_game.py), which has a deck, still opens
through its deck check (and tests/games/test_neutral_game.py, test_dice_step.py and every game's
round tests still pass). The rotation offered counterclockwise is hand-worked here too.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

import pytest
from dice_game import SPEC, DiceHigh
from dice_game import Options as DiceHighOptions

from controller.shared.schemas import validate, validate_event
from games.cards import card
from games.decks import NO_CARDS
from games.round import DeviceRole, Emit, NoDeck, PlayerDealerRotation, RoundMachine
from games.round.steps import DiceDue, Step, Steps


class OddOrEven(Steps, NoDeck, RoundMachine):
    """The dealer shakes two dice; the round settles on the total's parity. No cards at all."""

    game = "odd_or_even"
    BUTTONS: ClassVar[tuple[str, ...]] = ("deal", "void")
    LIGHT_GROUPS: ClassVar[tuple[str, ...]] = ("turn",)
    ROLES: ClassVar[dict[str, DeviceRole]] = {
        "cup": DeviceRole(("dice_cup",), frozenset({"dealing"}), reads_dice=True)}

    def __init__(self, emit: Emit, seats: int = 3) -> None:
        self.thrown: tuple[int, ...] | None = None
        super().__init__(emit=emit, seats=seats)

    def _clear_layout(self) -> None:
        self.thrown = None

    def _next_step(self) -> Step | None:
        return DiceDue(2, None, "odd or even") if self.thrown is None else None

    def _shaken(self, due: DiceDue, values: tuple[int, ...]) -> None:
        self.thrown = values

    def _entered_result(self) -> None:
        assert self.thrown is not None
        self._emit("result", {"values": list(self.thrown),
                              "outcome": "even" if sum(self.thrown) % 2 == 0 else "odd"})


class Run:
    def __init__(self) -> None:
        self.events: list[tuple[str, dict]] = []
        self.m = OddOrEven(self.emit)

    def emit(self, kind: str, data: dict) -> None:
        envelope = {"seq": len(self.events) + 1, "ts": 0.0, "table": "oe-1", "round": None, "kind": kind,
                    "data": data}
        validate_event(json.loads(json.dumps(envelope)))
        self.events.append((kind, data))

    def throw(self, *values: int) -> None:
        for kind, data in (("cup_shaken", {}), ("dice_read", {"values": values}), ("cup_closed", {})):
            self.m.device_input("cup", kind, data)

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [d for k, d in self.events if k == kind]


def test_the_table_opens_bets_shakes_and_settles_with_no_deck_check_and_no_shuffle() -> None:
    r = Run()
    assert r.m.spec is NO_CARDS and NO_CARDS.size == 0
    r.m.open()
    assert [(t["from"], t["to"]) for t in r.of("transition")] == [("closed", "ready"), ("ready", "betting")]
    assert r.m.state == "betting" and r.of("round_start") == [{"round": 1, "player_dealer": None,
                                                              "last_of_shoe": False}]
    assert r.of("prompt")[-1]["expect"] == "bets"
    r.m.press("deal")
    assert r.of("prompt")[-1]["expect"] == "dice"
    r.throw(2, 5)
    assert r.of("result") == [{"values": [2, 5], "outcome": "odd"}]
    assert "Press deal for the next round" in r.of("prompt")[-1]["text"].replace("press", "Press")
    r.m.press("deal")
    assert r.m.state == "betting" and r.m.round == 2
    states = {t["to"] for t in r.of("transition")}
    assert not states & {"deck_check", "shuffle", "load_shoe"}, "nothing to check or shuffle"
    snap = r.m.snapshot()
    assert snap["shoe"] == {"dealt": 0, "remaining": 0, "last_round": False}
    validate("state", {**json.loads(json.dumps(snap)), "table": "oe-1", "seq": 1, "ts": 0.0})


def test_a_voided_round_goes_back_to_betting_not_to_a_shuffle() -> None:
    r = Run()
    r.m.open()
    r.m.press("deal")
    r.m.void("the cup was knocked over", "pit")
    assert [t["to"] for t in r.of("transition")][-3:] == ["voided", "ready", "betting"]
    assert r.m.round == 2


def test_a_card_a_deck_check_or_a_shuffle_count_is_a_warning_that_says_the_game_has_no_cards() -> None:
    r = Run()
    r.m.open()
    r.m.press("deal")
    r.m.card(card("AS"))
    alarm = r.of("alarm")[-1]
    assert alarm["code"] == "unexpected_card" and alarm["severity"] == "warning" and alarm["card"] == "AS"
    assert "odd_or_even is played without cards" in alarm["message"]
    r.m.deck_checked([card("AS")], 0)
    assert r.of("alarm")[-1]["code"] == "unexpected_input"
    assert "has no deck to check" in r.of("alarm")[-1]["message"]
    r.m.shuffled(52)
    assert "has no cards to shuffle" in r.of("alarm")[-1]["message"]
    assert r.m.state == "dealing" and r.of("prompt")[-1]["expect"] == "dice", "the round goes on"
    r.throw(3, 3)
    assert r.of("result")[-1]["outcome"] == "even"


def test_close_and_reopen_without_cards() -> None:
    r = Run()
    r.m.open()
    r.m.close()
    assert r.m.state == "closed" and r.of("void")[-1]["reason"] == "the table closed before the deal"
    r.m.card(card("KD"))  # closed: nothing
    assert not r.of("alarm")
    r.m.open()
    assert r.m.state == "betting"


def test_a_card_game_still_opens_through_its_deck_check() -> None:
    """Dice High has a deck: the default lifecycle (``PLAYS_CARDS``) is unchanged for it."""
    events: list[tuple[str, dict]] = []
    m = DiceHigh(DiceHighOptions(seats=3), lambda k, d: events.append((k, d)))
    assert DiceHigh.PLAYS_CARDS and not OddOrEven.PLAYS_CARDS
    m.open()
    assert m.state == "deck_check"
    m.deck_checked(SPEC.all_cards(), 0)
    m.shuffled(SPEC.size)
    assert m.state == "betting"


# --- the rotation, offered counterclockwise ------------------------------------------------------

def test_the_position_offered_counterclockwise_goes_to_the_next_lower_seat_and_round() -> None:
    """Eight seats, seat 1 holds: after two settled rounds the offer goes to seat 8 (counter-
    clockwise of 1), a pass moves it to 7; seat 7 takes it and after its two rounds offers 6."""
    r = PlayerDealerRotation(8, 1, direction="counterclockwise")
    assert r.round_played() == [{"seat": 1, "consecutive": 1, "change": "kept"}]
    assert r.round_played() == [{"seat": 8, "consecutive": 0, "change": "offered"}]
    events, broken = r.pass_()
    assert not broken and events == [{"seat": 8, "consecutive": 0, "change": "passed"},
                                     {"seat": 7, "consecutive": 0, "change": "offered"}]
    assert r.accept() == [{"seat": 7, "consecutive": 0, "change": "accepted"}]
    r.round_played()
    assert r.round_played() == [{"seat": 6, "consecutive": 0, "change": "offered"}]
    assert PlayerDealerRotation(8, 1).next_seat(1) == 2, "clockwise stays the default"
    assert PlayerDealerRotation(8, 1, direction="counterclockwise").next_seat(1) == 8


def test_the_rotation_refuses_an_unknown_direction() -> None:
    with pytest.raises(ValueError, match="clockwise or counterclockwise, not 'left'"):
        PlayerDealerRotation(8, 1, direction="left")  # type: ignore[arg-type]
