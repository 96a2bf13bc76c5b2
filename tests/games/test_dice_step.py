"""The dice step (games.round.steps.DiceDue) on Dice High (tests/dice_game.py): the prompt, the
checks of every reading, the round waiting for a valid shake, and the cup's faults by role.

Device input goes through ``device_input(role, kind, data)`` exactly as the table hands it over.
"""

from __future__ import annotations

import json

import pytest
from dice_game import SPEC, DiceHigh, Options

from controller.shared.schemas import validate, validate_event


class Run:
    def __init__(self, seats: int = 3) -> None:
        self.events: list[tuple[str, dict]] = []
        self.m = DiceHigh(Options(seats=seats), self.emit)

    def emit(self, kind: str, data: dict) -> None:
        envelope = {"seq": len(self.events) + 1, "ts": 0.0, "table": "dh-1", "round": None, "kind": kind,
                    "data": data}
        validate_event(json.loads(json.dumps(envelope)))  # every event has its (generic) schema
        self.events.append((kind, data))

    def open(self) -> None:
        self.m.open()
        self.m.deck_checked(SPEC.all_cards(), 0)
        self.m.shuffled(SPEC.size)
        assert self.m.state == "betting"
        self.m.press("deal")
        assert self.m.state == "dealing"

    def cup(self, kind: str, **data) -> None:
        self.m.device_input("cup", kind, data)

    def throw(self, *values: int) -> None:
        self.cup("cup_shaken")
        self.cup("dice_read", values=tuple(values))
        self.cup("cup_closed")

    def all(self, kind: str) -> list[dict]:
        return [d for k, d in self.events if k == kind]

    def mark(self) -> int:
        return len(self.events)

    def since(self, mark: int, kind: str | None = None) -> list:
        return [(k, d) for k, d in self.events[mark:] if kind is None or k == kind]


def test_a_valid_throw_emits_dice_then_the_result() -> None:
    r = Run()
    r.open()
    prompt = r.all("prompt")[-1]
    assert prompt == {"expect": "dice", "hand": None, "count": 2, "seat": 1, "buttons": [],
                      "text": "Seat 1 shakes the dice cup: 2 dice (Dice High: one throw of two dice)."}
    assert r.m.lights()["seats"] == {"turn": [1]}
    r.throw(6, 3)
    # 9 counted clockwise from seat 1 of 3: 1, 2, 3, 1, 2, 3, 1, 2, 3 -> seat 3
    assert r.all("dice") == [{"values": [6, 3], "total": 9, "seat": 1, "reaches": 3}]
    assert r.m.state == "result"
    assert r.all("result")[-1] == {"values": [6, 3], "total": 9, "outcome": "high", "shaker": 1}
    assert not r.all("alarm")
    validate("state", {**json.loads(json.dumps(r.m.snapshot())), "table": "dh-1", "seq": 1, "ts": 0.0})


def test_the_shaker_moves_round_by_round() -> None:
    r = Run()
    r.open()
    r.throw(1, 2)
    r.m.press("deal")   # settle: no shuffle every round, straight to the next round's bets
    assert r.m.state == "betting"
    r.m.press("deal")
    assert r.all("prompt")[-1]["seat"] == 2
    r.throw(3, 4)
    assert r.all("result")[-1]["outcome"] == "seven"


def _waits_again(r: Run, mark: int, code: str, message: str) -> None:
    """One warning alarm with its code, nothing else happened to the round, and the same dice
    prompt again with the reason first."""
    alarms = [d for _, d in r.since(mark, "alarm")]
    assert [(a["code"], a["severity"]) for a in alarms] == [(code, "warning")]
    assert alarms[0]["message"] == message
    assert alarms[0]["expected"] == "dice: a shake of 2 dice by seat 1, each 1 to 6 (Dice High: one throw of two dice)"
    assert alarms[0]["action"] == "shake the cup again: the round waits for a valid shake"
    assert r.m.state == "dealing" and not r.since(mark, "dice") and not r.since(mark, "transition")
    prompt = r.since(mark, "prompt")[-1][1]
    assert (prompt["expect"], prompt["count"], prompt["seat"]) == ("dice", 2, 1)
    assert prompt["text"].startswith(f"{message[0].upper()}{message[1:]}: shake again. Seat 1 shakes")


def test_a_reading_before_the_shake_is_refused_and_the_round_waits() -> None:
    r = Run()
    r.open()
    mark = r.mark()
    r.cup("dice_read", values=(4, 4))
    _waits_again(r, mark, "dice_before_shake", "dice read (4 4) before the cup was shaken for this throw")
    r.throw(4, 4)
    assert r.all("dice")[-1]["total"] == 8 and r.m.state == "result"


def test_a_shake_before_the_dice_were_due_does_not_count() -> None:
    r = Run()
    r.m.open()
    r.m.deck_checked(SPEC.all_cards(), 0)
    r.m.shuffled(SPEC.size)
    r.cup("cup_shaken")          # while bets are open
    r.m.press("deal")
    mark = r.mark()
    r.cup("dice_read", values=(2, 5))
    _waits_again(r, mark, "dice_before_shake", "dice read (2 5) before the cup was shaken for this throw")


def test_the_wrong_number_of_dice_is_refused() -> None:
    r = Run()
    r.open()
    mark = r.mark()
    r.cup("cup_shaken")
    r.cup("dice_read", values=(2, 5, 6))
    _waits_again(r, mark, "dice_count", "3 dice read (2 5 6), but this throw is of 2 dice")
    # the refused reading used the shake: the same dice read again are refused too
    mark = r.mark()
    r.cup("dice_read", values=(2, 5))
    _waits_again(r, mark, "dice_before_shake", "dice read (2 5) before the cup was shaken for this throw")
    r.throw(2, 5)
    assert r.m.state == "result"


def test_a_value_that_is_no_face_is_refused() -> None:
    r = Run()
    r.open()
    for values, message in [((0, 3), "die 1 showed 0: a die shows 1 to 6 (read 0 3)"),
                            ((3, 7), "die 2 showed 7: a die shows 1 to 6 (read 3 7)"),
                            ((255, 9), "die 1 showed 255, die 2 showed 9: a die shows 1 to 6 (read 255 9)")]:
        mark = r.mark()
        r.cup("cup_shaken")
        r.cup("dice_read", values=values)
        _waits_again(r, mark, "dice_value", message)
    r.throw(1, 1)
    assert r.all("result")[-1]["outcome"] == "low"


def test_dice_when_none_are_due_are_a_warning_and_change_nothing() -> None:
    r = Run()
    r.open()
    r.throw(5, 5)
    assert r.m.state == "result"
    mark = r.mark()
    r.throw(2, 2)
    alarms = [d for _, d in r.since(mark, "alarm")]
    assert [(a["code"], a["severity"]) for a in alarms] == [("unexpected_dice", "warning")]
    assert alarms[0]["message"] == "the cup read dice (2 2) but no dice are due (state result): ignored"
    assert r.m.state == "result" and not r.since(mark, "dice") and not r.since(mark, "prompt")
    # closed: nothing at all
    r.m.press("deal")
    r.m.close()
    mark = r.mark()
    r.throw(2, 2)
    assert r.since(mark) == []


def test_a_cup_fault_while_the_shake_is_due_repeats_the_shake() -> None:
    r = Run()
    r.open()
    mark = r.mark()
    r.cup("cup_shaken")
    r.cup("device_fault", code="die_on_edge", detail="die 2 on edge")
    alarms = [d for _, d in r.since(mark, "alarm")]
    assert [(a["code"], a["severity"]) for a in alarms] == [("cup_die_on_edge", "fault")]
    assert alarms[0]["message"] == "the cup reported die_on_edge while a shake was due: the shake does not count"
    assert "die 2" not in json.dumps(alarms), "the driver's detail goes in the device event, not the alarm"
    prompt = r.since(mark, "prompt")[-1][1]
    assert prompt["expect"] == "dice" and prompt["text"].startswith(
        "The cup reported die_on_edge: a die landed on its edge against the cup's wall, then shake again.")
    # the shake before the fault does not count
    mark = r.mark()
    r.cup("dice_read", values=(3, 3))
    assert [d["code"] for _, d in r.since(mark, "alarm")] == ["dice_before_shake"]
    r.throw(3, 3)
    assert r.m.state == "result"
    # the note does not outlive the throw
    r.m.press("deal")
    r.m.press("deal")
    assert r.all("prompt")[-1]["text"].startswith("Seat 2 shakes")


def test_a_stall_loses_nothing_and_asks_for_no_new_shake() -> None:
    r = Run()
    r.open()
    r.cup("cup_shaken")
    mark = r.mark()
    r.cup("device_fault", code="stall", detail="endpoint 0x81 halted; cleared")
    assert [(d["code"], d["severity"]) for _, d in r.since(mark, "alarm")] == [("cup_stall", "warning")]
    assert not r.since(mark, "prompt")
    r.cup("dice_read", values=(6, 6))     # the reading the cup kept through the stall
    assert r.all("dice")[-1]["values"] == [6, 6]


@pytest.mark.parametrize("code", ["duplicate_report", "stale_report"])
def test_an_old_report_set_aside_loses_nothing_and_asks_for_no_new_shake(code: str) -> None:
    """Issue 23.4: a report sent twice, or an earlier one sent again, is set aside by the driver; the
    cup lost nothing, so the shake on its way is still the throw (before, the driver's "255 reports
    lost" made the round throw that shake away)."""
    r = Run()
    r.open()
    r.cup("cup_shaken")
    mark = r.mark()
    r.cup("device_fault", code=code, detail="report seq 2 came twice: the second is set aside")
    assert [(d["code"], d["severity"]) for _, d in r.since(mark, "alarm")] == [(f"cup_{code}", "warning")]
    assert not r.since(mark, "prompt")
    r.cup("dice_read", values=(3, 5))
    assert r.all("dice")[-1]["values"] == [3, 5]


def test_a_cup_that_restarted_while_due_costs_the_shake() -> None:
    r = Run()
    r.open()
    r.cup("cup_shaken")
    mark = r.mark()
    r.cup("device_fault", code="restarted", detail="report seq 0 after 5: ...")
    assert [(d["code"], d["severity"]) for _, d in r.since(mark, "alarm")] == [("cup_restarted", "fault")]
    assert r.since(mark, "prompt")[-1][1]["text"].startswith("The cup reported restarted: the cup restarted")


def test_the_cup_going_offline_while_due_makes_the_table_wait_then_ask_again() -> None:
    r = Run()
    r.open()
    r.cup("cup_shaken")
    mark = r.mark()
    r.cup("device_offline", reason="unplugged")
    assert [(d["code"], d["severity"]) for _, d in r.since(mark, "alarm")] == [("cup_offline", "fault")]
    prompt = r.since(mark, "prompt")[-1][1]
    assert (prompt["expect"], prompt["device"]) == ("device", "cup")
    assert r.m.state == "dealing"
    mark = r.mark()
    r.cup("device_online", info="SIMCUP 1.0", reads=None, serial="CUP-1")
    prompt = r.since(mark, "prompt")[-1][1]
    assert prompt["expect"] == "dice" and prompt["text"].startswith("The cup went offline: ")
    mark = r.mark()
    r.cup("dice_read", values=(1, 2))    # the shake before the unplug does not count
    assert [d["code"] for _, d in r.since(mark, "alarm")] == ["dice_before_shake"]
    r.throw(1, 2)
    assert r.m.state == "result"


def test_a_cup_fault_outside_a_dice_step_is_a_warning() -> None:
    r = Run()
    r.open()
    r.throw(2, 6)
    mark = r.mark()
    r.cup("device_fault", code="lifted_early", detail="")
    alarms = [d for _, d in r.since(mark, "alarm")]
    assert [(a["code"], a["severity"]) for a in alarms] == [("cup_lifted_early", "warning")]
    assert alarms[0]["action"].startswith("the cup was lifted before the shake ended")
    assert r.m.state == "result" and not r.since(mark, "prompt")


def test_a_card_while_the_dice_are_due_is_unexpected() -> None:
    r = Run()
    r.open()
    r.m.card(SPEC.all_cards()[0])
    alarm = r.all("alarm")[-1]
    assert alarm["code"] == "unexpected_card" and alarm["message"].endswith("the dice are due (shake the cup)")
    assert r.m.state == "fault"
