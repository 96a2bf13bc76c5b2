"""The table loop with the real baccarat machine, a real broker and a pit subscriber.

Device events are put on the inbox as the drivers would; pit commands go
over MQTT. Every assertion is on what a pit subscriber receives, or on the
journal file as another process would read it.
"""

from __future__ import annotations

import json
import queue
import re
import socket
import sqlite3
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from mqtt_support import WAIT, Message, RunningBroker, Subscriber

from controller.shared.schemas import validate, validate_event
from controller.table.config import Config, ConfigError, parse_config
from controller.table.inbox import Command, Inbox
from controller.table.journal import Journal
from controller.table.loop import Health, Table, build_machine
from controller.table.publisher import Publisher
from drivers.events import (
    ButtonPressed,
    CardDrawn,
    DeckVerified,
    DeviceFault,
    DeviceOffline,
    DeviceOnline,
    FramesDropped,
    ShuffleComplete,
)
from drivers.gpio import TableGpio
from games.cards import card
from games.decks import standard

TABLE = "bac-01"
TOPIC = f"casino/{TABLE}"

CONFIG = """
[table]
id = "bac-01"
game = "baccarat"
seats = 8
autostart = {autostart}

[mqtt]
host = "127.0.0.1"
port = {port}
prefix = "casino"
keepalive = 10

[journal]
path = "{journal}"

[devices.shoe]
kind = "card_shoe"
url = "socket://127.0.0.1:9"

[devices.shuffler]
kind = "shuffler"
url = "socket://127.0.0.1:9"

[dealer]
remote_buttons = {remote}
"""


PINS = {"buttons": {"deal": 5, "void": 6, "shuffle_ack": 13, "pass": 19},
        "button_leds": {"deal": 12, "void": 16, "shuffle_ack": 20, "pass": 21},
        "seat_lights": {
            "action": {seat: pin for seat, pin in zip(range(1, 9), (17, 27, 22, 23, 24, 25, 26, 4), strict=True)},
            "player_dealer": {seat: pin for seat, pin in zip(range(1, 9), (2, 3, 7, 8, 9, 10, 11, 14), strict=True)}}}


class RecordingGpio(TableGpio):
    """The real TableGpio on gpiozero's mock pins, keeping a history of what it
    was told to show so a test can compare it with the published lights events."""

    def __init__(self, inbox: queue.Queue) -> None:
        super().__init__(inbox, **PINS)
        self.shown: list[dict[str, Any]] = []

    def show(self, lights: dict[str, Any]) -> list[str]:
        self.shown.append(lights)
        problems = super().show(lights)
        lit = self.lit()  # what the pins really show now
        for group, seats in lit["seats"].items():
            assert seats == sorted(lights["seats"].get(group, []))
        assert lit["buttons_lit"] == sorted(lights["buttons_lit"])
        return problems


@dataclass
class Harness:
    table: Table
    inbox: queue.Queue
    pit: Subscriber
    journal_path: Path
    lights: Any
    requests: int = 0
    stopped: bool = field(default=False)

    def put(self, *items: object) -> None:
        for item in items:
            self.inbox.put(item)

    def event(self, kind: str, where: Callable[[dict], bool] = lambda data: True) -> dict:
        """The next ``kind`` event whose data matches: its whole envelope."""
        return self.pit.wait_for(lambda m: m.topic == f"{TOPIC}/event/{kind}" and where(m.json()["data"])).json()

    def command(self, name: str, payload: bytes | dict | str = b"", *, retain: bool = False) -> dict:
        """Send a pit command; the reply."""
        self.pit.publish(f"{TOPIC}/cmd/{name}", payload, retain=retain)
        return self.pit.wait_topic(f"/cmd/{name}/reply").json()

    def journaled(self) -> int:
        with sqlite3.connect(self.journal_path) as db:
            return db.execute("SELECT COUNT(*) FROM events").fetchone()[0]

    def undelivered(self) -> int:
        with sqlite3.connect(self.journal_path) as db:
            return db.execute("SELECT COUNT(*) FROM events WHERE delivered = 0").fetchone()[0]

    def stop(self) -> None:
        if not self.stopped:
            self.stopped = True
            self.table.stop()


@pytest.fixture
def make_table(broker: RunningBroker, subscriber: Callable[..., Subscriber],
               tmp_path: Path) -> Iterator[Callable[..., Harness]]:
    made: list[Harness] = []

    def make(*, autostart: bool = False, remote: bool = False, factory: Any = build_machine,
             journal: Path | None = None, wait_birth: bool = True,
             gpio: Callable[[queue.Queue], Any] | None = None, **table_options: Any) -> Harness:
        path = journal or tmp_path / "journal.db"
        config = parse_config(CONFIG.format(autostart=str(autostart).lower(), port=broker.port, journal=path,
                                            remote=str(remote).lower()), "test.toml")
        pit = subscriber(f"{TOPIC}/#")
        inbox = Inbox()
        if not isinstance(Device.pin_factory, MockFactory):
            Device.pin_factory = MockFactory()
        Device.pin_factory.reset()
        lights = RecordingGpio(inbox) if gpio is None else gpio(inbox)
        table = Table(config, inbox=inbox, journal=Journal(config.journal.path, TABLE),
                      publisher=Publisher(config.mqtt, TABLE, inbox, game="baccarat"),
                      gpio=lights, machine_factory=factory, **table_options)
        harness = Harness(table, inbox, pit, path, lights)
        made.append(harness)
        table.start().wait_ready(WAIT)
        if wait_birth:
            pit.wait_for(lambda m: m.topic == f"{TOPIC}/status" and m.json()["online"])
        return harness

    yield make
    for harness in made:
        harness.stop()


def load_shoe(h: Harness) -> None:
    """Open the table and take it to ``ready`` as the dealer and the shuffler would."""
    assert h.command("open", {"id": "open-1"})["ok"]
    h.put(DeckVerified("shuffler", tuple(standard(8).all_cards()), 0),
          ShuffleComplete("shuffler", standard(8).size),
          ButtonPressed("buttons", "shuffle_ack"))
    h.event("prompt", lambda d: d["expect"] == "bets")


def deal(h: Harness, codes: str) -> None:
    """No more bets (betting opened by itself after the shoe was loaded), then draw these cards."""
    h.put(ButtonPressed("buttons", "deal"),
          *(CardDrawn("shoe", card(c)) for c in codes.split()))


def envelopes(messages: list[Message]) -> list[dict]:
    return [m.json() for m in messages if "/event/" in m.topic]


def test_a_round_as_the_pit_sees_it(make_table) -> None:
    h = make_table()
    load_shoe(h)
    deal(h, "2H 3D 4S 5C")  # player 6 stands; banker 3 + (face down) 5 = natural 8
    result = h.event("result")["data"]
    action = h.event("action_button")["data"]
    h.pit.wait_for(lambda m: m.topic == f"{TOPIC}/state" and m.json()["state"] == "result")
    h.stop()
    seen = h.pit.seen + h.pit.drain()

    assert (result["winner"], result["banker"]["total"], result["player"]["total"]) == ("banker", 8, 6)
    assert action["card"] == "5C" and action["count"] == 5

    events = envelopes(seen)
    for env in events:
        validate_event(env, game="baccarat")
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(1, len(seqs) + 1)), "contiguous, in order, no duplicates"
    assert {e["round"] for e in events if e["kind"] in ("card", "reveal", "result")} == {1}

    # Rule 10: the banker's second card is face down until the reveal, on every topic.
    reveal_at = next(i for i, m in enumerate(seen) if m.topic.endswith("/event/reveal"))
    assert not any(b'"5C"' in m.payload for m in seen[:reveal_at])
    down = next(e for e in events if e["kind"] == "card" and e["data"]["face"] == "down")
    assert down["data"] == {"hand": "banker", "position": 2, "face": "down"}

    states = [m.json() for m in seen if m.topic == f"{TOPIC}/state"]
    for state in states:
        validate("state", state)
    assert states[-1]["state"] == "result" and states[-1]["seq"] == seqs[-1]

    replies = [m.json() for m in seen if m.topic.endswith("/reply")]
    assert replies == [{"id": "open-1", "command": "open", "ok": True,
                        "data": {"state": "deck_check", "round": None}}]
    assert [e["data"] for e in events if e["kind"] == "command"] == [
        {"name": "open", "id": "open-1", "ok": True, "error": None}]
    assert [e["data"]["status"] for e in events if e["kind"] == "table"] == ["open"]

    # Lights: shown after each change, with a lights event; the action button's seat at the end.
    lights_events = [e["data"] for e in events if e["kind"] == "lights"]
    assert lights_events == h.lights.shown[:len(lights_events)]
    assert lights_events[-1]["seats"]["action"] == [action["seat"]]
    assert not any(h.lights.lit()["seats"].values()) and h.lights.shown[-1]["buttons_lit"] == []  # stopped: off

    assert h.undelivered() == 0  # every event was acknowledged by the broker, and marked


@pytest.mark.parametrize("name, payload, expected_id, error", [
    ("open", b"{not json", None, "malformed JSON: Expecting property name enclosed in double quotes: "
                                 "line 1 column 2 (char 1)"),
    ("open", b"[1]", None, "the payload must be a JSON object"),
    ("frobnicate", b'{"id": "x1"}', "x1", "unknown command: the commands are open, close, void, "
                                          "resume, rebirth, replay, button, dice_reset, integrity_reset"),
    ("replay", b'{"id": "r1", "to": 3}', "r1", "bad replay command: from: is required"),
    ("replay", b'{"id": "r2", "from": 0, "to": 3}', "r2", "bad replay command: from: must be at least 1"),
    ("replay", b'{"id": "r3", "from": "1", "to": 3}', "r3", "bad replay command: from: must be an integer"),
    ("replay", b'{"id": "r4", "from": 5, "to": 3}', "r4", "refused: from is after to"),
    ("replay", b'{"id": "r5", "from": 1, "to": 10001}', "r5", "refused: from..to holds more than 10000 events, "
                                                           "the most one replay sends; ask for the range in parts"),
    ("replay", b'{"id": "r6", "from": 1, "to": 500}', "r6", "refused: to is beyond the last event journaled, "
                                                         "seq "),
    ("void", b'{"id": 5}', 5, "bad void command: reason: is required"),
    ("void", b'{"id": "v", "reason": "dealer error"}', "v", "refused: no round in progress to void "
                                                            "(state closed)"),
    ("open", b'{"id": "o", "force": true}', "o", "bad open command: (top level): an unknown key (the keys are id)"),
    ("close", b'{"id": "c"}', "c", "refused: the table is already closed"),
    ("button", b'{"id": "b", "button": "deal"}', "b", "remote buttons are off on this table"),
    ("open", b"\xff\xfe", None, "malformed payload: not UTF-8"),
    ("open", b'{"id": "' + b"x" * 5000 + b'"}', None, "payload too large: 5010 bytes, at most 4096"),
])
def test_bad_commands_get_an_error_reply_and_change_nothing(make_table, name, payload, expected_id, error) -> None:
    h = make_table()
    reply = h.command(name, payload)
    validate("reply", reply)
    assert reply["ok"] is False and reply["id"] == expected_id and reply["command"] == name
    assert reply["error"].startswith(error), reply["error"]
    audit = h.event("command")["data"]
    assert audit == {"name": name, "id": expected_id, "ok": False, "error": reply["error"]}
    assert h.table.machine.state == "closed"
    assert not any(m.topic.endswith("/event/transition") for m in h.pit.seen + h.pit.drain())


def test_a_retained_command_is_refused(make_table, subscriber) -> None:
    """A retained command would run again on every reconnect: the broker hands it
    to the table with the retain flag when the table subscribes."""
    sender = subscriber("nothing/#")
    sender.publish(f"{TOPIC}/cmd/open", b'{"id": "r"}', retain=True)
    h = make_table()
    reply = h.pit.wait_topic("/cmd/open/reply").json()
    assert reply["ok"] is False and reply["error"].startswith("retained commands are refused")
    sender.publish(f"{TOPIC}/cmd/open", b"", retain=True)  # clear it from the broker
    assert h.table.machine.state == "closed"


def test_remote_buttons_when_allowed(make_table) -> None:
    h = make_table(remote=True)
    reply = h.command("button", {"id": 1, "button": "deal"})
    assert reply["ok"] and reply["data"]["accepted"] is False
    assert reply["data"]["reason"] == "deal is not lit in state closed"
    load_shoe(h)
    reply = h.command("button", {"id": 2, "button": "deal"})
    assert reply["data"] == {"state": "dealing", "round": 1, "accepted": True, "reason": None}


def test_autostart_opens_the_table(make_table) -> None:
    h = make_table(autostart=True)
    assert h.event("table")["data"] == {"status": "open"}
    assert h.event("prompt", lambda d: d["expect"] == "deck_check")


def test_device_events_and_a_fault_while_dealing(make_table) -> None:
    h = make_table()
    h.put(DeviceOnline("shoe", "TSHOE 1.0"), FramesDropped("shoe", {"noise": 3, "bad_crc": 1}),
          DeviceOffline("shuffler", "heartbeat lost"))
    assert h.event("device", lambda d: d["device"] == "shoe")["data"] == {
        "device": "shoe", "status": "online", "code": None, "detail": "TSHOE 1.0"}
    assert h.event("line_errors")["data"] == {"device": "shoe", "dropped": {"noise": 3, "bad_crc": 1}}
    assert h.event("device", lambda d: d["device"] == "shuffler")["data"]["status"] == "offline"
    load_shoe(h)
    deal(h, "2H")
    h.event("card")
    h.put(DeviceFault("shoe", "misread", "a card passed the reader unread"))
    assert h.event("device", lambda d: d["status"] == "fault")["data"]["code"] == "misread"
    alarm = h.event("alarm")["data"]
    validate_event({"seq": 1, "ts": 0.0, "table": TABLE, "round": 1, "kind": "alarm", "data": alarm}, game="baccarat")
    assert (alarm["code"], alarm["severity"]) == ("shoe_misread", "fault")
    assert "misread" in alarm["message"] and "void the round" in alarm["action"]
    assert "a card passed the reader unread" not in alarm["message"]  # a driver's detail stays in `device`
    assert h.event("transition", lambda d: d["to"] == "fault")
    birth = h.command("rebirth", {"id": "rb"})
    assert birth["ok"] and birth["data"]["birth"] == 1
    status = h.pit.wait_for(lambda m: m.topic == f"{TOPIC}/status").json()
    assert status["devices"] == {"shoe": "fault", "shuffler": "offline"}


def test_a_restart_mid_round_voids_the_round_and_numbers_on(make_table, tmp_path: Path) -> None:
    first = make_table()
    load_shoe(first)
    deal(first, "2H 3D")
    first.event("card", lambda d: d["position"] == 1 and d["hand"] == "banker")
    last_seq = first.pit.wait_for(lambda m: m.topic == f"{TOPIC}/state" and m.json()["state"] == "dealing"
                                  and len(m.json()["hands"]["banker"]) == 1).json()["seq"]
    first.stop()  # as far as the journal knows, the power went off while dealing

    second = make_table()
    retained_then_birth = [m.json() for m in second.pit.seen if m.topic == f"{TOPIC}/status"]
    assert [(s["online"], s["birth"]) for s in retained_then_birth] == [(False, 1), (True, 2)]
    void = second.event("void")
    assert void["seq"] == last_seq + 1
    assert void["round"] == 1 and void["data"] == {
        "round": 1, "reason": "the controller restarted during round 1 (state dealing)", "by": "controller"}
    load_shoe(second)
    deal(second, "")
    assert second.event("round_start")["data"]["round"] == 2


def test_the_player_dealer_count_survives_a_restart(make_table) -> None:
    """Section "Player-dealer and Deal": nobody holds the position more than two
    consecutive rounds. Seat 1 banks round 1; the controller restarts; seat 1 banks
    round 2, and the controller dies after its result, before the dealer settled it.
    Round 2 keeps its result, so it counts: that was seat 1's second round, and the
    deal is offered to seat 2. (Forgetting either would let seat 1 bank a third.)"""
    first = make_table()
    load_shoe(first)
    deal(first, "2H 3D 4S 5C")  # player 6, banker natural 8: complete
    first.event("result")
    first.put(ButtonPressed("buttons", "deal"))  # settled: seat 1 has banked one round
    assert first.event("player_dealer")["data"] == {"seat": 1, "consecutive": 1, "change": "kept"}
    first.stop()

    second = make_table()
    restored = second.event("player_dealer")
    assert restored["data"] == {"seat": 1, "consecutive": 1, "change": "restored"}
    validate_event(restored, game="baccarat")
    load_shoe(second)
    deal(second, "2H 3D 4S 5C")
    second.event("result")
    second.pit.wait_for(lambda m: m.topic == f"{TOPIC}/state" and m.json()["state"] == "result")
    second.stop()  # before the settle

    third = make_table()
    assert third.event("player_dealer")["data"] == {"seat": 1, "consecutive": 1, "change": "restored"}
    assert third.event("player_dealer")["data"] == {"seat": 2, "consecutive": 0, "change": "offered"}
    assert not any(e["kind"] == "void" for e in envelopes(third.pit.seen + third.pit.drain())), \
        "a decided round keeps its result"


def test_a_saved_rotation_that_does_not_fit_the_table_is_an_alarm(make_table, tmp_path: Path) -> None:
    first = make_table()
    first.stop()
    with sqlite3.connect(tmp_path / "journal.db") as db:  # as if the table had 9 seats before
        db.execute("INSERT INTO meta (key, value) VALUES ('machine', ?) ON CONFLICT (key) DO UPDATE "
                   "SET value = excluded.value",
                   (json.dumps({"player_dealer": {"seats": 9, "seat": 9, "consecutive": 1, "offered": None,
                                                  "origin": None, "barred": None}}),))
    second = make_table()
    alarm = second.event("alarm", lambda d: d["code"] == "player_dealer_reset")["data"]
    assert alarm["severity"] == "warning"
    assert "(saved for 9 seats, the table now has 8); seat 1 holds the deal" in alarm["message"]


def test_replay_sends_journaled_events_again_with_the_same_bytes(make_table, subscriber) -> None:
    h = make_table()
    load_shoe(h)
    deal(h, "2H 3D 4S 5C")
    h.event("action_button")
    late = subscriber(f"{TOPIC}/event/#")  # a pit screen that came up after the round: it missed all of it
    with sqlite3.connect(h.journal_path) as db:
        journal = dict(db.execute("SELECT seq, envelope FROM events").fetchall())
    down = next(s for s, text in journal.items() if '"kind":"card"' in text and '"face":"down"' in text)
    first, last = down - 3, down + 2  # the face-down card and its reveal among them
    reply = h.command("replay", {"id": "gap-1", "from": first, "to": last})
    assert reply == {"id": "gap-1", "command": "replay", "ok": True,
                     "data": {"state": "result", "round": 1, "from": first, "to": last, "count": 6,
                              "queued_before": 0}}
    got = {}
    while len(got) < 6:
        m = late.get()
        seq = m.json()["seq"]
        if seq <= last:
            assert seq not in got, "each asked-for event once"
            got[seq] = m
    assert sorted(got) == list(range(first, last + 1))
    for seq, m in got.items():  # the same bytes, on the event's own topic
        assert m.payload == journal[seq].encode() and m.topic == f"{TOPIC}/event/{m.json()['kind']}"
    # the face-down card stays face down in the replay: it was journaled as it was published
    assert m.qos == 1 and json.loads(got[down].payload)["data"] == {"hand": "banker", "position": 2, "face": "down"}
    assert h.event("command", lambda d: d["name"] == "replay")["data"] == {
        "name": "replay", "id": "gap-1", "ok": True, "error": None}


def test_a_replay_of_pruned_seqs_is_refused_naming_the_oldest_held(make_table) -> None:
    h = make_table()
    load_shoe(h)
    h.pit.wait_for(lambda m: m.topic == f"{TOPIC}/state" and m.json()["state"] == "betting")
    with sqlite3.connect(h.journal_path) as db:  # as `tablectl prune` would, beside the running table
        db.execute("DELETE FROM events WHERE seq <= 5")
    reply = h.command("replay", {"id": "old", "from": 3, "to": 8})
    assert reply["ok"] is False
    assert reply["error"] == "refused: the journal no longer holds seqs before 6 (pruned: tablectl prune); ask from 6"
    assert h.command("replay", {"id": "held", "from": 6, "to": 8})["ok"] is True


def test_events_made_while_the_line_is_down_arrive_in_order(make_table) -> None:
    h = make_table()
    load_shoe(h)
    h.table.publisher._client.socket().shutdown(socket.SHUT_RDWR)  # the table's line to the broker drops
    deal(h, "2H 3D 4S 5C")
    h.event("action_button")
    # Every event acknowledged while the table runs: paho reconnects and the broker's PUBACKs come
    # back. (Not within the stop's grace: on two busy cores three of them came later than that.)
    deadline = time.monotonic() + WAIT
    while h.undelivered() and time.monotonic() < deadline:
        time.sleep(0.05)  # test only: waiting for the PUBACKs
    assert h.undelivered() == 0
    h.stop()
    events = envelopes(h.pit.seen + h.pit.drain())
    # QoS 1 allows a duplicate (paho resends what was in flight when the line dropped); a pit
    # that drops what it has seen must still get every seq, first time round in order.
    first_seen = list(dict.fromkeys(e["seq"] for e in events))
    assert first_seen == list(range(1, h.journaled() + 1))


def test_a_broker_restart_loses_nothing(make_table, broker, subscriber) -> None:
    h = make_table()
    load_shoe(h)
    broker.stop()
    deal(h, "2H 3D 4S 5C")
    # The pit lost its connection too (and its subscription with the broker): the journal is the witness.
    broker.start()
    deadline = time.monotonic() + WAIT
    while h.undelivered() and time.monotonic() < deadline:
        time.sleep(0.05)  # test only: waiting for paho's reconnect
    assert h.undelivered() == 0
    late = subscriber(f"{TOPIC}/#")  # the new broker has the retained birth, state and integrity again
    retained: dict[str, dict] = {}   # (the retained topics come in any order)
    while not {f"{TOPIC}/status", f"{TOPIC}/state", f"{TOPIC}/integrity"} <= retained.keys():
        message = late.get()
        retained[message.topic] = message.json()
    assert retained[f"{TOPIC}/status"]["online"] and retained[f"{TOPIC}/state"]["state"] == "result"
    assert retained[f"{TOPIC}/integrity"]["outcomes"]["winner"]["rounds"] == 1   # baccarat's outcome counts


def test_a_full_disk_stops_the_table_and_nothing_unjournaled_goes_out(make_table) -> None:
    """The journal cannot be written (SQLITE_FULL, as on a full SD card; here by capping the
    file at its current size): the table stops rather than publish an event it could not
    number, says why in the log and on its status, and the journal stays whole."""
    h = make_table()
    load_shoe(h)
    last = h.pit.wait_for(lambda m: m.topic == f"{TOPIC}/state" and m.json()["state"] == "betting").json()["seq"]
    db = h.table.journal._db  # the table thread is idle, waiting for its inbox
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    deal(h, "2H 3D 4S 5C 6H 7D 8S 9C")  # each a few events: the pages run out
    assert h.table.done.wait(WAIT)
    from controller.table.journal_check import DiskFull

    assert isinstance(h.table.error, DiskFull) and "the disk is full" in str(h.table.error)   # one line (issue 27)
    status = h.pit.wait_for(lambda m: m.topic == f"{TOPIC}/status" and not m.json()["online"]).json()
    assert status["reason"].startswith(f"the table stopped: DiskFull: {h.journal_path}: the disk is full")
    validate("status", status)
    with sqlite3.connect(h.journal_path) as check:
        seqs = [s for (s,) in check.execute("SELECT seq FROM events ORDER BY seq")]
    assert seqs == list(range(1, len(seqs) + 1))
    published = [e["seq"] for e in envelopes(h.pit.seen + h.pit.drain())]
    assert published and max(published) <= seqs[-1], "nothing went out that the journal does not hold"
    assert seqs[-1] >= last


def test_a_machine_that_cannot_be_built_fails_start(make_table) -> None:
    def broken(config: Config, emit: Any, first_round: int) -> Any:
        raise ConfigError("test.toml", ["game: seats must be at least 2"])

    with pytest.raises(RuntimeError, match=re.escape("failed to start: test.toml: game: seats must be at least 2")):
        make_table(factory=broken, wait_birth=False)


def test_build_machine_turns_bad_game_options_into_config_errors(tmp_path: Path) -> None:
    """The options are checked at load (parse_config); a config built by hand (the demo's, a test's)
    is checked by build_machine the same way, through the game's registry entry."""
    text = CONFIG.format(autostart="false", port=1883, journal=tmp_path / "j.db", remote="false")
    why = "table.seats: Commission-Free Baccarat has 2 to 8 seated positions (rule 3), not 12"
    with pytest.raises(ConfigError, match=re.escape(f"t.toml: {why}")):
        parse_config(text.replace("seats = 8", "seats = 12"), "t.toml")
    config = parse_config(text, "t.toml")
    by_hand = replace(config, table=replace(config.table, seats=12), options=None)
    with pytest.raises(ConfigError, match=re.escape(f"t.toml: {why}")):
        build_machine(by_hand, lambda kind, data: None)
    assert build_machine(config, lambda kind, data: None).state == "closed"


def test_card_to_pit_latency(make_table) -> None:
    """From a card on the inbox to the pit's subscriber: journal (fsync), lights, publish, broker."""
    h = make_table()
    load_shoe(h)
    h.put(ButtonPressed("buttons", "deal"), ButtonPressed("buttons", "deal"))
    h.event("prompt", lambda d: d["expect"] == "card")
    times: list[float] = []
    for code in ("2H", "3D", "4S", "5C"):
        start = time.perf_counter()
        h.put(CardDrawn("shoe", card(code)))
        h.event("card")
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    print(f"card -> pit latency: median {median * 1000:.1f} ms, max {max(times) * 1000:.1f} ms")
    assert median < 0.25


@pytest.fixture
def mock_pins() -> Iterator[MockFactory]:
    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


def test_each_event_is_on_the_socket_before_the_lights_change(make_table) -> None:
    """Issue 11: the table thread writes the MQTT socket itself, so when it sets the lights every
    event journaled so far has been handed to paho and written (nothing left for a network
    thread); there is no paho network thread."""
    harness: list[Harness] = []
    checked: list[tuple[int, int, bool]] = []

    class Watching(RecordingGpio):
        def show(self, lights: dict[str, Any]) -> list[str]:
            if harness:
                table = harness[0].table
                sent = max(table.publisher.in_flight() | {0})
                checked.append((table.journal.next_seq - 1, sent, table.publisher.want_write()))
            return super().show(lights)

    h = make_table(gpio=Watching)
    harness.append(h)
    assert f"paho-mqtt-client-{TABLE}" not in [t.name for t in threading.enumerate()]
    load_shoe(h)
    deal(h, "2H 3D 4S 5C")
    h.event("result")
    assert len(checked) >= 3
    for journaled, sent, unwritten in checked:
        # The newest journaled event (this item's lights event, journaled with the rest) is in
        # flight: published, its PUBACK not read yet (the same thread reads it, later), and paho
        # holds no byte unwritten.
        assert (sent, unwritten) == (journaled, False), (journaled, sent, unwritten)


def lights_set(h: Harness, expect: str) -> None:
    """The lights follow the events onto the socket (issue 11: the pit first); the retained state
    follows the lights, so once the state with this prompt is seen, the pins show it."""
    h.pit.wait_for(lambda m: m.topic == f"{TOPIC}/state" and (m.json().get("prompt") or {}).get("expect") == expect)


def test_real_buttons_and_lights_on_mock_pins(make_table, mock_pins: MockFactory) -> None:
    """drivers.gpio.TableGpio on gpiozero's mock pins: a press reaches the machine; the
    lights follow the prompt; a seat the config has no light for is one warning alarm."""
    buttons = {"deal": 5, "void": 6, "shuffle_ack": 13, "pass": 19}
    leds = {"deal": 12, "void": 16, "shuffle_ack": 20, "pass": 21}
    h = make_table(gpio=lambda inbox: TableGpio(inbox, buttons=buttons, button_leds=leds,
                                                seat_lights={"action": {1: 17}, "player_dealer": {1: 2, 2: 3}}))
    assert h.command("open")["ok"]
    h.put(DeckVerified("shuffler", tuple(standard(8).all_cards()), 0),
          ShuffleComplete("shuffler", standard(8).size))
    h.event("prompt", lambda d: d["expect"] == "load_shoe")
    lights_set(h, "load_shoe")
    assert mock_pins.pin(20).state and not mock_pins.pin(12).state  # shuffle_ack lit, deal dark
    mock_pins.pin(13).drive_low()  # the dealer presses shuffle_ack
    mock_pins.pin(13).drive_high()
    assert h.event("button")["data"] == {"button": "shuffle_ack", "accepted": True, "reason": None}
    h.event("prompt", lambda d: d["expect"] == "bets")
    lights_set(h, "bets")
    assert mock_pins.pin(12).state and mock_pins.pin(21).state and not mock_pins.pin(20).state
    assert mock_pins.pin(2).state and not mock_pins.pin(3).state  # seat 1 holds the player-dealer position
    deal(h, "2H 3D 4S 5C")
    seat = h.event("action_button")["data"]["seat"]
    assert seat != 1
    alarm = h.event("alarm")["data"]
    assert (alarm["code"], alarm["severity"], alarm["message"]) == (
        "light_missing", "warning", f"seat {seat} has no action light")


def test_ready_callback_and_watchdog_ticks(make_table) -> None:
    ready, ticked = threading.Event(), threading.Event()
    health: list[Health] = []

    def tick(h: Health) -> None:
        health.append(h)
        if len(health) >= 3:
            ticked.set()

    h = make_table(on_ready=ready.set, on_tick=tick, tick=0.02)
    assert ready.is_set()
    h.put(*(FramesDropped("shoe", {"noise": 1}) for _ in range(50)))  # a busy inbox does not starve the watchdog
    assert ticked.wait(WAIT)
    assert health[-1].running and health[-1].devices == {"shoe": "unknown", "shuffler": "unknown"}
    assert any(x.mqtt_connected for x in health)


def test_a_table_thread_that_hangs_sends_no_watchdog_tick_and_serves_no_socket(make_table) -> None:
    """Issue 11: one thread runs the table and its MQTT socket, and the watchdog's ticks come from
    that thread. While it hangs (here: in the lights), no tick goes out, so systemd restarts a
    table whose MQTT side is stuck too; and no PUBACK is read meanwhile (nobody else serves it)."""
    armed, hanging, release = threading.Event(), threading.Event(), threading.Event()
    ticks: list[float] = []

    class Hanging(RecordingGpio):
        def show(self, lights: dict[str, Any]) -> list[str]:
            if armed.is_set():
                armed.clear()
                hanging.set()
                release.wait(WAIT)
            return super().show(lights)

    def until(condition: Callable[[], bool]) -> None:
        end = time.monotonic() + WAIT
        while not condition():
            assert time.monotonic() < end
            time.sleep(0.02)

    h = make_table(gpio=Hanging, on_tick=lambda health: ticks.append(time.monotonic()), tick=0.02)
    load_shoe(h)
    until(lambda: len(ticks) >= 3)
    armed.set()
    h.put(ButtonPressed("buttons", "deal"))   # no more bets: its events go out, then the lights hang
    assert hanging.wait(WAIT)
    unacknowledged = h.table.publisher._client._out_messages   # paho's: what awaits its PUBACK
    before, waiting = len(ticks), set(unacknowledged)
    time.sleep(0.3)   # fifteen ticks' worth; the broker's PUBACKs arrive meanwhile
    assert len(ticks) == before, "a tick came from a thread that hangs"
    assert waiting and set(unacknowledged) == waiting, "a PUBACK was read by another thread"
    release.set()   # let go: it ticks, and reads its PUBACKs, again
    until(lambda: len(ticks) > before and not h.table.publisher.in_flight())


# --- hostile clients (issue: nothing a client sends can stop the table or cut it off) ------------

def test_a_command_topic_of_65000_characters_is_answered_and_the_table_deals_on(make_table) -> None:
    """Its reply topic would exceed MQTT's limit: paho raised inside the flush and the table stopped.
    Now the reply goes to cmd/invalid/reply, as command "invalid" (nothing of the name is echoed),
    and the table carries on."""
    h = make_table()
    name = "x" * 65_000
    h.pit.publish(f"{TOPIC}/cmd/{name}", b'{"id": "long"}')
    reply = h.pit.wait_topic("/cmd/invalid/reply").json()
    assert reply["ok"] is False and reply["id"] == "long"
    assert reply["command"] == "invalid"
    assert reply["error"].startswith("unknown command: the commands are open, close, ")
    audit = h.event("command")["data"]
    assert len(json.dumps(audit)) < 600
    assert h.command("open", {"id": "still-here"})["ok"] and h.table.health().running


def test_deeply_nested_json_is_a_malformed_command_not_an_internal_error(make_table) -> None:
    h = make_table()
    reply = h.command("replay", b'{"id": "deep", "from": ' + b"[" * 2000 + b"]" * 2000 + b"}")
    assert (reply["ok"], reply["id"]) == (False, None)
    assert reply["error"] == "malformed JSON: nested too deeply"
    assert not any(m.topic.endswith("/event/alarm") for m in h.pit.seen + h.pit.drain())


def test_an_event_over_the_brokers_packet_limit_goes_out_as_an_alarm_in_its_place(make_table) -> None:
    """A broker with max_packet_size drops the connection for an oversized publish, on every
    resend: one such event cut the table off for good. The publisher sends an alarm with the
    same seq instead; the journal keeps the event; the table stays on the broker."""
    h = make_table()
    h.table.publisher.max_event_bytes = 200   # as if the broker's limit were this small
    reply = h.command("open", {"id": "o" * 120})
    assert reply["ok"]
    alarm = h.event("alarm", lambda d: d["code"] == "event_too_large")
    assert alarm["data"]["message"].startswith(f"event {alarm['seq']} (")
    assert h.table.health().mqtt_connected
    h.table.publisher.max_event_bytes = 60_000
    assert h.command("close", {"id": "c"})["ok"]


def test_replays_are_budgeted_so_they_cannot_swamp_the_live_table(make_table, broker, monkeypatch) -> None:
    """Eight requests of 10,000 once made the table republish 80,000 events: all waiting replays
    together may hold at most REPLAY_BUDGET events, and at most REPLAY_WINDOW are in paho's hands.
    The broker is frozen so that the first replay is still going out when the second comes."""
    from controller.table import outbox as table_module
    from controller.table.inbox import Command

    monkeypatch.setattr(table_module, "REPLAY_BUDGET", 20)
    monkeypatch.setattr(table_module, "REPLAY_WINDOW", 3)
    h = make_table()
    load_shoe(h)
    before = h.journaled()
    assert before >= 15
    broker.pause()
    try:
        for rid in ("first", "second"):
            h.put(Command("replay", json.dumps({"id": rid, "from": 1, "to": 15}).encode(),
                          f"{TOPIC}/cmd/replay/reply"))
        deadline = time.monotonic() + WAIT   # both handled (their command events journaled) while frozen
        while h.journaled() < before + 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        broker.resume()
    replies = {}
    while len(replies) < 2:
        reply = h.pit.wait_for(lambda m: m.topic.endswith("/cmd/replay/reply") and m.json()["id"] not in replies).json()
        replies[reply["id"]] = reply
    assert replies["first"]["ok"] is True
    assert replies["second"]["ok"] is False
    waiting = int(replies["second"]["error"].split("refused: ")[1].split(" ")[0])
    # 15 asked; at most 3 of them in paho's hands (fewer when live events hold the window): no PUBACK while frozen
    assert 12 <= waiting <= 15, replies["second"]["error"]
    assert replies["second"]["error"].endswith("and at most 20 may wait at once; ask again when they have gone out")


def test_replay_requesters_take_turns_and_a_reply_goes_before_its_events(make_table, broker, monkeypatch) -> None:
    """Issue 27: a client asking for 10,000 old seqs every 0.2 s kept the pit's gaps open, its
    replies stuck behind the flood. Each requester has its own queue and budget, they take turns,
    and the reply to a request goes out before the events it replays."""
    from controller.table import outbox as table_module
    from controller.table.inbox import Command

    monkeypatch.setattr(table_module, "REPLAY_BUDGET", 20)
    monkeypatch.setattr(table_module, "REPLAY_WINDOW", 3)
    h = make_table()
    load_shoe(h)
    while h.journaled() < 25:   # events of its own to replay: refused commands
        h.command("open", {"id": f"o{h.journaled()}"})
    mark = len(h.pit.seen)
    broker.pause()
    try:
        for rid, requester, span in (("f1", "flood", (1, 15)), ("f2", "flood", (1, 15)), ("p1", "pit-archive-1",
                                                                                        (16, 20))):
            h.put(Command("replay", json.dumps({"id": rid, "from": span[0], "to": span[1],
                                                "requester": requester}).encode(), f"{TOPIC}/cmd/replay/reply"))
        deadline = time.monotonic() + WAIT
        while h.journaled() < 28 and time.monotonic() < deadline:   # the three command events
            time.sleep(0.01)
    finally:
        broker.resume()
    replies = {}
    while len(replies) < 3:
        reply = h.pit.wait_for(lambda m: m.topic.endswith("/cmd/replay/reply") and m.json()["id"] not in replies)
        replies[reply.json()["id"]] = reply
    assert replies["f1"].json()["ok"] and not replies["f2"].json()["ok"]   # the flood's own budget is spent
    assert replies["p1"].json()["ok"] is True                              # the pit's is its own
    def replayed() -> dict[int, int]:   # every seq up to 20 came before the mark: a copy after it is a replay
        return {m.json()["seq"]: i for i, m in enumerate(h.pit.seen[mark:])
                if "/event/" in m.topic and m.json()["seq"] <= 20}
    while len(replayed()) < 20:
        h.pit.get()
    replayed = replayed()
    assert max(replayed[s] for s in range(16, 21)) < replayed[15], "the pit's replay waited for the whole flood"
    p1 = h.pit.seen[mark:].index(replies["p1"])
    assert p1 < min(replayed[s] for s in range(16, 21)), "the reply came after the events it answers"


def test_a_second_controller_on_the_same_journal_stops_before_touching_it(tmp_path: Path) -> None:
    """Two `tablectl run` with one config voided the live round and one died on a UNIQUE constraint:
    the second now stops at once, naming the process that holds the table."""
    import os

    from controller.table.app import build_controller
    from controller.table.instance_lock import TableLocked

    config = parse_config(CONFIG.format(autostart="false", port=1, journal=tmp_path / "j.db", remote="false"),
                          "t.toml")
    first = build_controller(config)
    try:
        with pytest.raises(TableLocked, match=rf"another tablectl \(pid {os.getpid()}\) is running table bac-01"):
            build_controller(config)
    finally:
        first.lock.release()
    again = build_controller(config)   # released: a restarted controller takes it
    again.lock.release()


def test_a_broker_that_stops_acknowledging_leaves_events_in_the_journal_in_order(make_table, broker,
                                                                                  monkeypatch) -> None:
    """paho numbers publishes with 16-bit ids: a broker that stalls long enough would exhaust them
    and publishes would be lost track of. Past LIVE_WINDOW unacknowledged, new events wait in the
    journal and drain in seq order when PUBACKs return; only the newest state is held."""
    from controller.table import outbox as table_module

    monkeypatch.setattr(table_module, "LIVE_WINDOW", 5)
    monkeypatch.setattr(table_module, "DRAIN_WINDOW", 5)
    h = make_table()
    broker.pause()
    try:
        h.put(Command("open", b'{"id": "o"}', f"{TOPIC}/cmd/open/reply"))
        h.put(DeckVerified("shuffler", tuple(standard(8).all_cards()), 0), ShuffleComplete("shuffler", 416),
              ButtonPressed("buttons", "shuffle_ack"), ButtonPressed("buttons", "deal"))
        deadline = time.monotonic() + WAIT
        while h.journaled() < 20 and time.monotonic() < deadline:
            time.sleep(0.01)
        held = len(h.table.publisher.in_flight())
        assert held <= 5 + 5, f"{held} events in paho's hands: at most the window (and one flush over it)"
    finally:
        broker.resume()
    last = h.journaled()
    h.event("prompt", lambda d: d["expect"] == "card")
    seqs = sorted({m.json()["seq"] for m in h.pit.seen + h.pit.drain() if "/event/" in m.topic})
    deadline = time.monotonic() + WAIT
    while seqs[-1] < last and time.monotonic() < deadline:
        seqs = sorted({*seqs, *(m.json()["seq"] for m in h.pit.drain() if "/event/" in m.topic)})
    assert seqs == list(range(1, last + 1)), "every event, none lost"


@pytest.mark.parametrize("payload, error", [
    (b'{"id": "s", "reason": "\\ud800", "by": "pit"}',
     "malformed JSON: a \\u escape of a lone surrogate (U+D800) is not a character"),
    (b'{"id": "\\udfff"}', "malformed JSON: a \\u escape of a lone surrogate (U+DFFF) is not a character"),
    (b'{"id": "n", "from": NaN, "to": 3}', "malformed JSON: NaN is not a JSON number"),
    (b'{"id": "i", "from": 1, "to": Infinity}', "malformed JSON: Infinity is not a JSON number"),
])
def test_json_that_no_encoder_can_write_back_is_a_malformed_command(make_table, payload, error) -> None:
    """Found by the flood of random commands (tests/e2e/test_command_flood.py): a void whose reason
    was the escape \\ud800 made an event the journal could not encode, and the table stopped."""
    h = make_table()
    reply = h.command("void" if b"reason" in payload else "replay", payload)
    assert reply["ok"] is False and reply["error"] == error
    assert h.command("open", {"id": "still-here"})["ok"] and h.table.health().running


def test_dice_reset_on_a_table_without_a_cup_is_refused(make_table) -> None:
    h = make_table()
    reply = h.command("dice_reset", {"id": "d1", "cup": "cup"})
    assert not reply["ok"] and reply["error"] == "refused: this table has no dice cup"
    h.pit.drain()
    assert not [m for m in h.pit.seen if m.topic == f"{TOPIC}/dice"], "no dice topic without a cup"


def test_the_shuffle_monitors_deal_survives_a_restart(make_table) -> None:
    """Issue 25.2: the cards dealt since the shuffle are journaled (``meta.integrity``) as the next
    round begins, the face-down card once revealed as public, and a restarted table takes them up."""
    first = make_table()
    load_shoe(first)
    deal(first, "2H 3D 4S 5C")   # the banker's 5C face down, revealed with the result
    first.event("result")
    first.put(ButtonPressed("buttons", "deal"), ButtonPressed("buttons", "deal"))
    first.event("round_start", lambda d: d["round"] == 2)
    first.stop()
    with sqlite3.connect(first.journal_path) as db:
        saved = json.loads(db.execute("SELECT value FROM meta WHERE key = 'integrity'").fetchone()[0])["shuffle"]
    assert saved["deal"]["faces"] == ["2H", "3D", "4S", "5C"] and saved["deal"]["public"] == [True] * 4
    second = make_table()
    shuffle = second.table.integrity.shuffle
    assert shuffle is not None and shuffle.deal.order() == ["2H", "3D", "4S", "5C"]
    figures = second.pit.wait_for(lambda m: m.topic == f"{TOPIC}/integrity").json()["shuffle"]
    assert figures["shoes"] == [] and figures["run"]["shoes"] == 0   # nothing compared, nothing published
