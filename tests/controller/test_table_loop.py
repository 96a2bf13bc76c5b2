"""The table loop with no broker: a fake publisher, the neutral game, real GPIO on mock pins.

The loop's contract with any game (DESIGN.md, "How an event travels"):
device events go to the machine through ``device_input``, presses come back
as verdicts (``cmd/button`` replies with them), lights follow the game's
declared groups, and what the machine saves outlives a restart. High Card
(tests/neutral_game.py) is registered for these tests only: nothing in the
controller knows it.
"""

from __future__ import annotations

import json
import queue
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from neutral_game import GAME, SPEC

from controller.table.config import parse_raw
from controller.table.inbox import Command, Connected, ForeignStatus, Inbox
from controller.table.instance_lock import AnotherController
from controller.table.journal import Event, Journal
from controller.table.loop import Table
from drivers.events import (
    ButtonPressed,
    CardDrawn,
    DeckVerified,
    DeviceOffline,
    FramesDropped,
    ShuffleComplete,
)
from drivers.gpio import TableGpio
from games import registry
from games.cards import card

WAIT = 10.0


class FakePublisher:
    """Stands in for controller.table.publisher.Publisher: connected at once, every PUBACK immediate
    by omission (nothing is ever in flight), everything it was given kept in order."""

    def __init__(self, inbox: queue.Queue, prior: dict | None = None) -> None:
        self.inbox = inbox
        self.prior = prior  # the table's retained status at the first connect
        self.events: list[dict] = []
        self.states: list[dict] = []
        self.integrity: list[dict] = []
        self.replies: list[dict] = []
        self.birth = 0
        self.alive = True
        self.got = queue.Queue()
        self.journal_id: str | None = None
        self.started = 1000.0
        self.said_offline: bool | None = None
        self.births = 0

    def start(self, birth: int, journal_id: str | None = None) -> None:
        self.birth, self.journal_id = birth, journal_id
        self.inbox.put(Connected(self.prior))

    def stop(self, timeout: float = 5.0, reason: str = "shutdown", say_offline: bool = True) -> None:
        self.alive = False
        self.said_offline = say_offline

    def publish_birth(self, next_seq: int, devices: Any) -> None:
        self.births += 1

    def publish_state(self, state: Any) -> None:
        self.states.append(json.loads(state if isinstance(state, bytes) else json.dumps(state)))
        self.got.put({"kind": "state"})

    def wait_state(self) -> None:
        self.wait("state")

    def publish_integrity(self, integrity: Any) -> None:
        """The retained integrity topic: the neutral game reads its cards, so it has a shuffle monitor."""
        self.integrity.append(json.loads(json.dumps(integrity)))

    def publish_event(self, event: Event) -> None:
        env = json.loads(event.payload)
        self.events.append(env)
        self.got.put(env)

    def reply(self, command: Command, **reply: Any) -> None:
        self.replies.append(reply)
        self.got.put({"kind": "reply", **reply})

    def delivered(self, acks: Any) -> list[int]:
        return []

    # The reactor's side (controller.table.reactor): no socket, nothing ever due.
    def socket(self) -> None:
        return None

    def want_write(self) -> bool:
        return False

    def readable(self) -> None: ...
    def writable(self) -> None: ...

    def due(self) -> None:
        return None

    def tend(self) -> None: ...

    def in_flight(self) -> set[int]:
        return set()

    def in_flight_count(self) -> int:
        return 0

    def wait(self, kind: str, where=lambda d: True) -> dict:
        while True:
            env = self.got.get(timeout=WAIT)
            if env.get("kind") == kind and where(env.get("data", env)):
                return env


@pytest.fixture
def high_card() -> Iterator[None]:
    registry.register(GAME)
    yield
    registry.unregister(GAME.name)


@pytest.fixture
def pins() -> Iterator[MockFactory]:
    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


def config(tmp_path: Path):
    return parse_raw({
        "table": {"id": "hc-1", "game": "high_card", "seats": 2},
        "journal": {"path": str(tmp_path / "j.db")},
        "devices": {"shoe": {"kind": "card_shoe", "url": "socket://127.0.0.1:9"},
                    "shuffler": {"kind": "shuffler", "url": "socket://127.0.0.1:9"}},
        "gpio": {"pin_factory": "mock", "buttons": {"deal": 5}, "seat_lights": {"turn": {"1": 17, "2": 27}},
                 "seat_buttons": {"show": {"1": 2, "2": 3}, "fold": {"1": 4, "2": 7}}},
        "dealer": {"remote_buttons": True}}, "hc.toml")


def start(tmp_path: Path, cfg, prior: dict | None = None) -> tuple[Table, FakePublisher, queue.Queue, TableGpio]:
    inbox = Inbox()
    publisher = FakePublisher(inbox, prior)
    gpio = TableGpio(inbox, buttons=cfg.gpio.buttons, button_leds={}, seat_lights=cfg.gpio.seat_lights,
                     seat_buttons=cfg.gpio.seat_buttons, bounce_time=None)
    table = Table(cfg, inbox=inbox, journal=Journal(cfg.journal.path, "hc-1"), publisher=publisher, gpio=gpio)
    table.start().wait_ready(WAIT)
    return table, publisher, inbox, gpio


def press_pin(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def test_a_round_of_a_game_the_controller_does_not_know(high_card, pins, tmp_path) -> None:
    cfg = config(tmp_path)
    table, pub, inbox, gpio = start(tmp_path, cfg)
    try:
        inbox.put(Command("open", b'{"id": "o"}', "r"))
        assert pub.wait("reply")["ok"]
        inbox.put(DeckVerified("shuffler", tuple(SPEC.all_cards()), 0))
        inbox.put(ShuffleComplete("shuffler", SPEC.size))
        pub.wait("round_start")
        press_pin(pins, 5)  # the dealer's deal button: no more bets
        pub.wait("prompt", lambda d: d["expect"] == "card")
        inbox.put(CardDrawn("shoe", card("9S")))
        inbox.put(CardDrawn("shoe", card("3S")))
        decision = pub.wait("prompt", lambda d: d["expect"] == "decision")["data"]
        assert (decision["seat"], decision["choices"]) == (1, ["show", "fold"])
        lights = pub.wait("lights", lambda d: d["seats"]["turn"] == [1])["data"]
        assert lights["seat_buttons_lit"] == {"fold": [1], "show": [1]}
        pub.wait_state()   # the pins are set after the events go out, before the state
        assert pins.pin(17).state and not pins.pin(27).state  # seat 1's turn light
        # A seat button from the wrong seat: refused with its reason, over cmd/button as on the pins.
        inbox.put(Command("button", b'{"id": "b1", "button": "show", "seat": 2}', "r"))
        reply = pub.wait("reply")
        assert reply["ok"] and reply["data"]["accepted"] is False
        assert reply["data"]["reason"] == "seat 1 decides first"
        press_pin(pins, 2)   # seat 1 shows
        pub.wait("lights", lambda d: d["seats"]["turn"] == [2])
        press_pin(pins, 7)   # seat 2 folds
        inbox.put(CardDrawn("shoe", card("5S")))
        result = pub.wait("result")["data"]
        assert result["seats"]["1"]["outcome"] == "win" and result["seats"]["2"]["outcome"] == "lose"
        presses = [e["data"] for e in pub.events if e["kind"] == "button"]
        assert {"button": "show", "accepted": True, "reason": None, "seat": 1} in presses
        assert {"button": "fold", "accepted": True, "reason": None, "seat": 2} in presses
        seqs = [e["seq"] for e in pub.events]
        assert seqs == list(range(1, len(seqs) + 1))
        assert "3S" not in json.dumps(pub.events) + json.dumps(pub.states), "the folded card never leaves"
        inbox.put(DeviceOffline("shoe", "port closed"))
        alarm = pub.wait("alarm")["data"]
        assert alarm["code"] == "shoe_offline" and alarm["severity"] == "warning"
    finally:
        table.stop()
        gpio.close()


def test_an_unknown_button_over_cmd_button_is_a_malformed_command(high_card, pins, tmp_path) -> None:
    table, pub, inbox, gpio = start(tmp_path, config(tmp_path))
    try:
        inbox.put(Command("button", b'{"id": "b", "button": "pass"}', "r"))
        reply = pub.wait("reply")
        assert (reply["ok"], reply["error"]) == (
            False, 'bad button command: button: must be one of "deal", "void", "show", "fold"')
        inbox.put(ButtonPressed("buttons", "fold", 9))  # a pin mapped to a seat the game lacks
        press = pub.wait("button")["data"]
        assert press == {"button": "fold", "accepted": False, "reason": "seat 9 is not one of seats 1..2",
                         "seat": 9}
    finally:
        table.stop()
        gpio.close()


def betting(pub: FakePublisher, inbox: Inbox) -> None:
    """Open the table and take it, as the shuffler would, to round 1's betting."""
    inbox.put(Command("open", b'{"id": "o"}', "r"))
    pub.wait("reply")
    inbox.put(DeckVerified("shuffler", tuple(SPEC.all_cards()), 0))
    inbox.put(ShuffleComplete("shuffler", SPEC.size))
    pub.wait("round_start")


def test_a_command_that_comes_twice_is_answered_twice_and_carried_out_once(high_card, pins, tmp_path) -> None:
    """A QoS 1 redelivery, or a sender that heard nothing and sent again: ``deal`` carried out twice
    would end the betting of the next round too. The same id and arguments get the first answer
    again (``repeated``), and no second ``button`` or ``command`` event; a new id is a new press."""
    table, pub, inbox, gpio = start(tmp_path, config(tmp_path))
    try:
        betting(pub, inbox)
        inbox.put(Command("button", b'{"id": "sim-1", "button": "deal"}', "r"))
        first = pub.wait("reply")
        assert first["ok"] and first["data"]["accepted"] is True and "repeated" not in first
        assert first["data"]["state"] != "bets"
        inbox.put(Command("button", b'{"id": "sim-1", "button": "deal"}', "r"))
        again = pub.wait("reply")
        assert again == first | {"repeated": True}
        inbox.put(Command("button", b'{"id": "sim-2", "button": "deal"}', "r"))   # a new press: carried out
        other = pub.wait("reply")
        assert other["data"]["accepted"] is False and "repeated" not in other
        presses = [e["data"]["accepted"] for e in pub.events if e["kind"] == "button"]
        assert presses == [True, False]
        assert [e["data"]["id"] for e in pub.events if e["kind"] == "command"] == ["o", "sim-1", "sim-2"]
    finally:
        table.stop()
        gpio.close()


def test_the_retained_state_goes_out_only_when_the_table_changed(high_card, pins, tmp_path) -> None:
    """Issue 11: once per item, and only when the snapshot (or the hold) differs from the last
    state made. A line-error count and a refused press are events that change nothing of the
    table's state; a deal does."""
    table, pub, inbox, gpio = start(tmp_path, config(tmp_path))
    try:
        betting(pub, inbox)
        pub.wait("prompt", lambda d: d["expect"] == "bets")
        inbox.put(Command("rebirth", b'{"id": "sync"}', "r"))   # an item of its own: all before it is done
        pub.wait("reply")
        states = len(pub.states)
        inbox.put(FramesDropped("shoe", {"noise": 3}))
        pub.wait("line_errors")
        inbox.put(Command("button", b'{"id": "b", "button": "show", "seat": 1}', "r"))   # refused: nothing moves
        assert pub.wait("reply")["data"]["accepted"] is False
        assert len(pub.states) == states, pub.states[states:]
        press_pin(pins, 5)   # deal: the state changes
        pub.wait("prompt", lambda d: d["expect"] == "card")
        inbox.put(Command("rebirth", b'{"id": "sync-2"}', "r"))
        pub.wait("reply")
        changed = pub.states[states]
        assert changed["state"] != pub.states[states - 1]["state"] and changed["table"] == "hc-1"
        assert changed["seq"] > pub.states[states - 1]["seq"] and set(changed["outbox"]) == {
            "undelivered", "max_undelivered", "held"}
    finally:
        table.stop()
        gpio.close()


# --- two controllers, one table (issue 13, defect 5) ------------------------------------------------------

def _status(journal: str, started: float, *, online: bool = True, birth: int = 7) -> dict:
    return {"online": online, "table": "hc-1", "birth": birth, "game": "high_card", "version": "x",
            "journal": journal, "started": started}


def test_a_status_from_another_journal_at_the_first_connect_is_no_proof(high_card, pins, tmp_path) -> None:
    """A replaced Pi, or a journal started anew, finds the old one's retained status online: not
    another controller by itself, so the table runs on. At a reconnect, though, the same status
    means the other published as this table meanwhile: the younger (this one) stops."""
    older = _status("a" * 32, started=1.0)
    table, pub, inbox, gpio = start(tmp_path, config(tmp_path), prior=older)
    try:
        pub.wait("lights")
        inbox.put(Command("rebirth", b'{"id": "r"}', "r"))
        assert pub.wait("reply")["ok"] and table.error is None
        assert not [e for e in pub.events if e["kind"] == "alarm"]
        inbox.put(Connected(older))                                 # a reconnect
        assert table.done.wait(WAIT) and isinstance(table.error, AnotherController)
    finally:
        table.stop()
        gpio.close()


def test_the_younger_of_two_controllers_stops_and_leaves_the_status_to_the_other(high_card, pins, tmp_path) -> None:
    """While connected, a birth of this table from another journal arrives: the other controller
    started earlier, so this one stops, publishes nothing more and says nothing offline."""
    table, pub, inbox, gpio = start(tmp_path, config(tmp_path))
    try:
        pub.wait("lights")
        inbox.put(ForeignStatus(_status("b" * 32, started=pub.started - 60)))
        assert table.done.wait(WAIT)
        assert isinstance(table.error, AnotherController)
        assert f"journal {'b' * 32}, birth 7" in str(table.error)
        assert pub.said_offline is False
    finally:
        table.stop()
        gpio.close()


def test_the_older_of_two_controllers_raises_one_alarm_republishes_and_deals_on(high_card, pins, tmp_path) -> None:
    """A younger controller's birth (live, or as the retained status at a reconnect): the older
    raises a critical alarm once per other journal, publishes its birth again and stays up."""
    table, pub, inbox, gpio = start(tmp_path, config(tmp_path))
    try:
        pub.wait("lights")
        births = pub.births
        inbox.put(ForeignStatus(_status("c" * 32, started=pub.started + 60)))
        alarm = pub.wait("alarm", lambda d: d["code"] == "another_controller")["data"]
        assert alarm["severity"] == "critical" and "c" * 32 in alarm["message"]
        assert pub.births == births + 1
        inbox.put(Connected(_status("c" * 32, started=pub.started + 60, online=False)))  # a reconnect: its will
        inbox.put(Command("rebirth", b'{"id": "r"}', "r"))
        assert pub.wait("reply")["ok"]
        alarms = {e["seq"] for e in pub.events if e["kind"] == "alarm" and e["data"]["code"] == "another_controller"}
        assert len(alarms) == 1 and table.error is None and table.health().running  # (a rebirth resends the backlog)
    finally:
        table.stop()
        gpio.close()
