"""Dice integrity in the table loop, as the pit sees it on a real broker: the retained
``<prefix>/<table>/dice`` topic, the counts in the journal across a restart, the dice_bias
alarm, ``cmd/dice_reset``, a new cup serial. Device events go on the inbox as the driver puts
them; the game is Dice High (tests/dice_game.py)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from dice_game import GAME
from dice_table import Harness, config_text
from mqtt_support import Message, RunningBroker, Subscriber

from controller.table.config import parse_config
from controller.table.journal import Journal
from drivers.events import (
    ButtonPressed,
    CupClosed,
    CupShaken,
    DeviceFault,
    DeviceOnline,
    DiceRead,
)
from games import registry

TABLE = "dh-01"
TOPIC = f"casino/{TABLE}"
@pytest.fixture
def dice_high() -> Iterator[None]:
    registry.register(GAME)
    yield
    registry.unregister(GAME.name)


@pytest.fixture
def make(dice_high, broker: RunningBroker, subscriber: Callable[..., Subscriber],
         tmp_path: Path) -> Iterator[Callable[[], Harness]]:
    made: list[Harness] = []

    def build() -> Harness:
        h = Harness(TABLE, broker.port, tmp_path / "journal.db", subscriber(f"{TOPIC}/#"))
        made.append(h)
        return h
    yield build
    for h in made:
        h.stop()


def counts(payload: dict, die: int) -> list[int]:
    return payload["cups"]["cup"]["dice"][die - 1]["counts"]


def test_throws_are_counted_published_retained_and_outlive_a_restart(make, tmp_path: Path) -> None:
    h = make()
    first = h.dice()     # published with the birth: nothing counted yet
    assert first["cups"]["cup"]["shakes"] == 0 and first["min_shakes"] == 600 and first["p_bias"] == 0.001
    h.inbox.put(DeviceOnline("cup", "SIMCUP 1.0", serial="CUP-1"))
    h.inbox.put(CupShaken("cup"))
    h.inbox.put(DiceRead("cup", (5, 5)))     # the table is closed: no round used it
    h.open()
    h.throw(6, 1)
    h.throw(6, 2)
    h.inbox.put(DiceRead("cup", (6, 3)))     # betting: no dice are due
    h.inbox.put(ButtonPressed("buttons", "deal"))
    h.inbox.put(DiceRead("cup", (6, 4)))     # no shake before it: the round does not take it
    h.inbox.put(CupShaken("cup"))
    h.inbox.put(DiceRead("cup", (9, 3)))     # no face: the round does not take it
    h.inbox.put(CupShaken("cup"))
    h.inbox.put(DiceRead("cup", (1, 2)))     # the round's throw
    h.inbox.put(ButtonPressed("buttons", "deal"))
    payload = h.dice(lambda p: p["cups"]["cup"]["shakes"] == 3)
    assert counts(payload, 1) == [1, 0, 0, 0, 0, 2] and counts(payload, 2) == [1, 2, 0, 0, 0, 0]
    assert payload["cups"]["cup"]["serial"] == "CUP-1" and payload["table"] == TABLE
    h.stop()
    with sqlite3.connect(tmp_path / "journal.db") as db:
        saved = json.loads(db.execute("SELECT value FROM meta WHERE key = 'dice'").fetchone()[0])
    assert saved["cup"]["counts"][0] == [1, 0, 0, 0, 0, 2]
    again = make()
    restored = again.dice(lambda p: p["ts"] > payload["ts"])
    assert restored["cups"] == payload["cups"], "the counts came back from the journal"
    # the broker holds it for a pit that subscribes later
    late = Subscriber(again.pit.host, again.pit.port, f"{TOPIC}/dice")
    try:
        message: Message = late.get()
        assert message.retain and message.json()["cups"]["cup"]["shakes"] == 3
    finally:
        late.close()


def test_a_biased_die_raises_dice_bias_once_and_the_pit_resets_the_counts(make) -> None:
    h = make()
    h.dice()
    h.open()
    for n in range(1, 101):     # 600 rounds: die 1 shows 6 half the time, die 2 each face 100 times
        for face, other in zip((6, 6, 6, 1, 2, 3), (1, 2, 3, 4, 5, 6), strict=True):
            h.throw(face, other)
        if n % 5 == 0 and n < 100:   # the pit keeps up (the broker queues 1000 messages for a subscriber)
            h.dice(lambda p, n=n: p["cups"]["cup"]["shakes"] == 6 * n)
    alarm = h.alarm("dice_bias")
    assert alarm["severity"] == "warning"
    assert alarm["message"].startswith("cup die 1 fails the fairness test: face 6 came 300 times in 600 shakes "
                                       "(100 expected); chi-square")
    assert "cmd/dice_reset" in alarm["action"]
    payload = h.dice(lambda p: p["cups"]["cup"]["shakes"] == 600)
    die1, die2 = payload["cups"]["cup"]["dice"]
    assert die1["biased"] and die1["p_value"] < 0.001 and die1["most_off"] == {"face": 6, "count": 300,
                                                                              "expected": 100.0}
    assert not die2["biased"] and die2["p_value"] == 1.0
    h.throw(6, 1)
    h.dice(lambda p: p["cups"]["cup"]["shakes"] == 601)
    h.pit.drain()
    biases = [m for m in h.pit.seen if m.topic.endswith("/event/alarm") and m.json()["data"]["code"] == "dice_bias"]
    assert len(biases) == 1, "once per die until its counts are reset"
    reply = h.command("dice_reset", {"id": "r1", "cup": "cup"})
    assert reply["ok"] and reply["data"]["cup"] == "cup" and reply["data"]["discarded"] == 601
    fresh = h.dice(lambda p: p["cups"]["cup"]["shakes"] == 0)
    assert not fresh["cups"]["cup"]["dice"][0]["biased"]
    refused = h.command("dice_reset", {"id": "r2", "cup": "dice"})
    assert not refused["ok"] and refused["error"] == "refused: cup: no such dice cup; the table's cups are cup"
    bad = h.command("dice_reset", {"id": "r3"})
    assert not bad["ok"] and bad["error"].startswith("bad dice_reset command: cup")


def test_a_reshake_the_round_did_not_use_is_not_counted(make) -> None:
    """Issue 23.3: a bad report just before a shake makes the round ask for the shake again; the
    shake already on its way arrives after it and the round takes it; the re-shake the dealer then
    makes reads as unexpected_dice. Each round counts one throw: the one it used."""
    h = make()
    h.dice()             # the table is up: published with the birth
    h.open()
    for n, (used, again) in enumerate((((3, 4), (6, 6)), ((2, 5), (1, 1))), start=1):
        h.inbox.put(ButtonPressed("buttons", "deal"))
        h.inbox.put(DeviceFault("cup", "bad_report", "bad_crc: the report's CRC does not match"))
        h.inbox.put(CupShaken("cup"))
        h.inbox.put(DiceRead("cup", used))
        h.inbox.put(CupClosed("cup"))
        h.inbox.put(CupShaken("cup"))          # the re-shake the prompt asked for, after the round took its throw
        h.inbox.put(DiceRead("cup", again))
        h.inbox.put(CupClosed("cup"))
        h.inbox.put(ButtonPressed("buttons", "deal"))
        result = h.pit.wait_for(lambda m, n=n: m.topic == f"{TOPIC}/event/result" and m.json()["round"] == n).json()
        assert result["data"]["values"] == list(used)
        h.alarm("unexpected_dice")          # the re-shake: the round had its throw
    payload = h.dice(lambda p: p["cups"]["cup"]["shakes"] >= 2)
    assert payload["cups"]["cup"]["shakes"] == 2
    assert counts(payload, 1) == [0, 1, 1, 0, 0, 0] and counts(payload, 2) == [0, 0, 0, 1, 1, 0]


def test_another_cup_serial_sets_the_counts_aside_with_a_warning(make) -> None:
    h = make()
    h.dice()
    h.inbox.put(DeviceOnline("cup", "SIMCUP 1.0", serial="CUP-1"))
    h.open()
    h.throw(2, 2)
    h.throw(4, 5)
    h.dice(lambda p: p["cups"]["cup"]["shakes"] == 2)
    h.inbox.put(DeviceOnline("cup", "SIMCUP 1.0", serial="CUP-2"))
    alarm = h.alarm("dice_counts_reset")
    assert alarm["severity"] == "warning"
    assert alarm["message"] == ("the cup says serial CUP-2: another cup than the one counted; the 2 throws counted "
                                "are set aside and its counts start afresh")
    payload = h.dice(lambda p: p["cups"]["cup"]["serial"] == "CUP-2")
    assert payload["cups"]["cup"]["shakes"] == 0


def test_damaged_counts_in_the_journal_start_afresh_with_a_warning(make, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.db", TABLE)
    journal.set_meta(dice={"cup": {"dice": 5, "counts": [], "since": 0}})
    journal.close()
    h = make()
    alarm = h.alarm("dice_counts_reset")
    assert alarm["message"] == "cup: the journal's dice counts do not fit a cup of 2 dice: they start afresh"
    assert h.dice()["cups"]["cup"]["shakes"] == 0


def test_tablectl_sim_serves_a_cup_only_on_a_unix_socket(dice_high, tmp_path: Path, capsys) -> None:
    """A cup whose backend is libusb (a real table's config) cannot be served to another process:
    the key is named, with what to write instead."""
    from controller.cli import main

    path = tmp_path / "dh.toml"
    path.write_text(config_text(TABLE, 1883, tmp_path / "j.db"))
    assert main(["sim", "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert ("devices.cup.backend: tablectl sim serves a dice_cup to the controller on a Unix socket: "
            'backend = "unix:/PATH" (e.g. "unix:/tmp/tablectl-sim/dh-01/cup.sock"), not \'libusb1\'') in err


def test_a_bad_cup_config_names_each_key(dice_high, tmp_path: Path) -> None:
    from controller.table.config import ConfigError

    text = (config_text(TABLE, 1883, tmp_path / "j.db")
            .replace("vendor_id = 0x1209", "vendor_id = 0x12090").replace("product_id = 0xd1ce\n", "")
            .replace("dice = 2", 'dice = 9\nbackend = "usb0"\nread_timeout = 0\nbaud = 3'))
    with pytest.raises(ConfigError) as caught:
        parse_config(text, "dh.toml")
    assert str(caught.value).splitlines() == [
        "dh.toml: devices.cup.vendor_id: must be the cup's USB vendor id, 0 to 0xffff (in TOML: 0x1209) (got 73872)",
        "dh.toml: devices.cup.dice: must be the number of dice in the cup, 1 to 8 (a report carries at most 8) (got 9)",
        "dh.toml: devices.cup.backend: must be libusb1 (the default), libusb0, openusb, unix:/PATH (a device served "
        "on a Unix socket, as tablectl sim serves its cup; at most 107 bytes of path), or a simulator's hwsim://NAME "
        '(got "usb0")',
        "dh.toml: devices.cup.read_timeout: must be more than 0 (got 0)",
        "dh.toml: devices.cup.product_id: is required",
        "dh.toml: devices.cup.baud: unknown key (allowed: backend, control_timeout, dice, kind, product_id, "
        "read_timeout, reconnect_max, serial, vendor_id)",
    ]
