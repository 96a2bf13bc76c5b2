"""The pit service against the example broker (config/mosquitto.conf and config/acl, as
tests/controller/test_broker_acl.py runs them): it logs in as a pit-archive user, reads the
events through its shared subscription, asks a table for a gap and keeps its own status, and
nothing more is allowed to it."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from archive_support import FakeTable
from mqtt_support import RunningBroker, Subscriber, readable_by_broker

from controller.pit import acks
from controller.pit.service import CommandFailed, PitError
from hw_sim.broker import free_port

ROOT = Path(__file__).resolve().parents[2]
USERS = {"fake-01": "pw-table", "pit-archive-1": "pw-archive", "pit-view": "pw-view", "pit-board": "pw-board"}


@pytest.fixture
def example_broker() -> Iterator[RunningBroker]:
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        pytest.skip("mosquitto_passwd is not installed")
    with tempfile.TemporaryDirectory(prefix="tablectl-pit-acl-") as tmp:
        folder = Path(tmp)
        acl, = readable_by_broker(folder, ROOT / "config" / "acl")
        passwd = folder / "passwd"
        for i, (user, password) in enumerate(USERS.items()):
            subprocess.run([tool, *(["-c"] if i == 0 else []), "-b", str(passwd), user, password], check=True)
        passwd.chmod(0o644)
        port = free_port()
        text = ((ROOT / "config" / "mosquitto.conf").read_text()
                .replace("listener 1883 10.10.0.2", f"listener {port} 127.0.0.1")
                .replace("/etc/mosquitto/tablectl.passwd", str(passwd)).replace("/etc/mosquitto/tablectl.acl", str(acl))
                .replace("persistence true", "persistence false").replace("log_dest syslog", "log_dest stderr"))
        conf = folder / "mosquitto.conf"
        conf.write_text(text)
        conf.chmod(0o644)
        broker = RunningBroker("127.0.0.1", port, conf)
        broker.start()
        try:
            yield broker
        finally:
            broker.stop()


def test_the_pit_service_works_within_the_example_acl(example_broker, pit_factory, archive_view):
    fake = FakeTable(example_broker.host, example_broker.port, "fake-01", password=USERS["fake-01"])
    watcher = Subscriber(example_broker.host, example_broker.port, "casino/_pit/#", username="pit-view",
                         password=USERS["pit-view"])
    try:
        fake.status()
        service = pit_factory(example_broker, client_id="pit-archive-1", username="pit-archive-1",
                              password=USERS["pit-archive-1"])
        for seq in range(1, 6):
            fake.event(seq, publish=seq != 3)
        archive_view.wait(lambda: archive_view.complete(fake.table, 5), "seq 3 asked for (cmd/replay allowed)")
        assert watcher.wait_for(lambda m: m.topic == "casino/_pit/pit-archive-1/status").json()["online"]
        assert service.counters()["replay_requests"] >= 1
    finally:
        watcher.close()
        fake.close()


def test_a_wrong_pit_password_is_one_line(example_broker, pit_factory):
    with pytest.raises(PitError, match=r"did not let the pit service subscribe: Not authorized|Bad user name") as bad:
        pit_factory(example_broker, client_id="pit-archive-1", username="pit-archive-1", password="wrong")
    assert "\n" not in str(bad.value)


def test_the_board_user_may_acknowledge_and_void_and_a_screen_may_not_forge_an_acknowledgement(
        example_broker, pit_factory, archive_view):
    """The pit-board user's acknowledgements reach the archiving service; one a screen (pit-view)
    forges on casino/_pit/ack is dropped by the broker; the board user's cmd/void reaches the table."""
    import json

    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    fake = FakeTable(example_broker.host, example_broker.port, "fake-01", password=USERS["fake-01"])
    screen = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="pit-view")
    screen.username_pw_set("pit-view", USERS["pit-view"])
    watcher = None
    try:
        fake.status()
        pit_factory(example_broker, client_id="pit-archive-1", username="pit-archive-1",
                    password=USERS["pit-archive-1"])
        board = pit_factory(example_broker, client_id="pit-board", username="pit-board",
                            password=USERS["pit-board"], db_url=None, group=None)
        screen.connect(example_broker.host, example_broker.port)
        screen.loop_start()
        forged = acks.make("fake-01", 1, "outbox_full", "eve")
        screen.publish("casino/_pit/ack", json.dumps(forged.to_json()), qos=1).wait_for_publish(10)
        screen.disconnect()   # one login per user name (use_username_as_clientid): the watcher below is pit-view too
        screen.loop_stop()
        real = acks.make("fake-01", 1, "outbox_full", "ann", note="tech called")
        board.acknowledge(real)
        rows = archive_view.wait(lambda: archive_view.query("SELECT id, by_user FROM acknowledgements"),
                                 "the board's acknowledgement archived")
        assert rows == [(real.id, "ann")]
        watcher = Subscriber(example_broker.host, example_broker.port, "casino/fake-01/cmd/#", username="pit-view",
                             password=USERS["pit-view"])
        with pytest.raises(CommandFailed, match="did not answer cmd/void"):   # the fake table never answers
            board.command("fake-01", "void", {"id": "board-1", "reason": "misdeal", "user": "ann", "round": 3},
                          timeout=1.0)
        sent = watcher.wait_for(lambda m: m.topic == "casino/fake-01/cmd/void").json()
        assert sent == {"id": "board-1", "reason": "misdeal", "user": "ann", "round": 3}
    finally:
        if watcher is not None:
            watcher.close()
        fake.close()
