"""config/mosquitto.conf and config/acl, run by a real Mosquitto on loopback.

The example conf is used as written except for what only a production Pi
has (its pit address, /etc and /var paths, syslog). A refused publish is
checked without waiting for a timeout: the same client then publishes an
allowed message, and the broker keeps one client's messages in order, so
when that one arrives the refused one would already have.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from mqtt_support import WAIT, RunningBroker, Subscriber, readable_by_broker
from paho.mqtt.enums import CallbackAPIVersion

from hw_sim.broker import free_port

ROOT = Path(__file__).resolve().parents[2]
USERS = {"bac-01": "pw-table", "bac-02": "pw-other", "pit-view": "pw-view", "pit-view-2": "pw-view-2",
         "pit-supervisor": "pw-super"}


@pytest.fixture
def acl_broker() -> Iterator[RunningBroker]:
    passwd_tool = shutil.which("mosquitto_passwd")
    if passwd_tool is None:
        pytest.skip("mosquitto_passwd is not installed")
    with tempfile.TemporaryDirectory(prefix="tablectl-acl-") as tmp:
        yield from _run_example_broker(passwd_tool, Path(tmp))


def _run_example_broker(passwd_tool: str, tmp_path: Path) -> Iterator[RunningBroker]:
    # Started as root, Mosquitto reads the password file and the ACL as its own user: both in a
    # folder it may read, not in the checkout (which may sit where only root may enter).
    acl, = readable_by_broker(tmp_path, ROOT / "config" / "acl")
    passwd = tmp_path / "passwd"
    for i, (user, password) in enumerate(USERS.items()):
        subprocess.run([passwd_tool, *(["-c"] if i == 0 else []), "-b", str(passwd), user, password], check=True)
    passwd.chmod(0o644)
    port = free_port()
    text = (ROOT / "config" / "mosquitto.conf").read_text()
    text = (text.replace("listener 1883 10.10.0.2", f"listener {port} 127.0.0.1")
                .replace("/etc/mosquitto/tablectl.passwd", str(passwd))
                .replace("/etc/mosquitto/tablectl.acl", str(acl))
                .replace("persistence true", "persistence false")
                .replace("log_dest syslog", "log_dest stderr"))  # kept in RunningBroker.log
    assert f"listener {port} 127.0.0.1" in text and str(passwd) in text and str(acl) in text
    conf = tmp_path / "mosquitto.conf"
    conf.write_text(text)
    conf.chmod(0o644)
    broker = RunningBroker("127.0.0.1", port, conf)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


@dataclass
class Pit:
    """Clients that log in to the example broker; all closed after the test."""

    broker: RunningBroker
    clients: list[mqtt.Client] = field(default_factory=list)
    watchers: list[Subscriber] = field(default_factory=list)

    def connect(self, user: str, client_id: str | None = None) -> mqtt.Client:
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id or user)
        client.username_pw_set(user, USERS[user])
        client.connect(self.broker.host, self.broker.port)
        client.loop_start()
        self.clients.append(client)
        return client

    def watch(self, user: str, topic: str) -> Subscriber:
        sub = Subscriber(self.broker.host, self.broker.port, topic, username=user, password=USERS[user])
        self.watchers.append(sub)
        return sub

    def close(self) -> None:
        for client in self.clients:
            client.disconnect()
            client.loop_stop()
        for sub in self.watchers:
            sub.close()


@pytest.fixture
def pit(acl_broker: RunningBroker) -> Iterator[Pit]:
    made = Pit(acl_broker)
    yield made
    made.close()


def published_topics(sub: Subscriber, publisher: mqtt.Client, attempts: list[str], sentinel: str) -> list[str]:
    """Publish each topic, then the sentinel; the topics the watcher got, sentinel excluded.

    ``wait_for_publish`` returns on the PUBACK, which Mosquitto sends after routing
    (or refusing) the message, so what is refused is known by the sentinel's arrival."""
    for topic in [*attempts, sentinel]:
        publisher.publish(topic, b"{}", qos=1).wait_for_publish(WAIT)
    sub.wait_for(lambda m: m.topic == sentinel)
    return [m.topic for m in sub.seen if m.topic != sentinel]


def test_the_table_publishes_under_its_own_prefix_only(pit: Pit) -> None:
    view = pit.watch("pit-view", "casino/#")
    table = pit.connect("bac-01")
    got = published_topics(view, table, [
        "casino/bac-01/status", "casino/bac-01/state", "casino/bac-01/event/card", "casino/bac-01/cmd/open/reply",
        "casino/bac-01/cmd/open",   # a table may not command itself
        "casino/bac-02/event/card",  # nor speak for another table
        "elsewhere/x",
    ], sentinel="casino/bac-01/event/prompt")
    assert got == ["casino/bac-01/status", "casino/bac-01/state", "casino/bac-01/event/card",
                   "casino/bac-01/cmd/open/reply"]


def test_pit_supervisors_command_and_viewers_only_read(pit: Pit) -> None:
    table_cmds = pit.watch("bac-01", "casino/bac-01/cmd/+")
    supervisor = pit.connect("pit-supervisor")
    got = published_topics(table_cmds, supervisor, ["casino/bac-01/cmd/void"], sentinel="casino/bac-01/cmd/open")
    assert got == ["casino/bac-01/cmd/void"]
    for refused in (pit.connect("pit-view"), pit.connect("bac-02")):
        refused.publish("casino/bac-01/cmd/close", b"{}", qos=1).wait_for_publish(WAIT)
    pit.connect("bac-02").publish("casino/bac-01/cmd/replay", b"{}", qos=1).wait_for_publish(WAIT)
    # a viewer may ask for a gap again (cmd/replay) and nothing else
    pit.connect("pit-view").publish("casino/bac-01/cmd/replay", b'{"v": 1}', qos=1).wait_for_publish(WAIT)
    supervisor.publish("casino/bac-01/cmd/resume", b"{}", qos=1).wait_for_publish(WAIT)
    table_cmds.wait_for(lambda m: m.topic == "casino/bac-01/cmd/resume")
    topics = [(m.topic, m.payload) for m in table_cmds.seen]
    assert "casino/bac-01/cmd/close" not in [t for t, _ in topics]
    assert [p for t, p in topics if t.endswith("/replay")] == [b'{"v": 1}']


def test_watch_logs_in_as_pit_view_and_a_wrong_password_is_named(pit: Pit, tmp_path: Path) -> None:
    """`tablectl watch --user --password-file` against the example broker: the pit's
    view logs in and prints what the table publishes; a wrong password is a clear exit 1."""
    good, bad = tmp_path / "good", tmp_path / "bad"
    good.write_text(USERS["pit-view"] + "\n")
    bad.write_text("not-the-password\n")
    address = f"{pit.broker.host}:{pit.broker.port}"
    watch = subprocess.Popen([sys.executable, "-m", "controller.cli", "watch", "--broker", address,
                              "--user", "pit-view", "--password-file", str(good)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert watch.stdout.readline().startswith("watching casino/+ on ")
        table = pit.connect("bac-01")
        event = {"seq": 7, "ts": 0.0, "table": "bac-01", "round": 2, "kind": "table", "data": {"status": "open"}}
        table.publish("casino/bac-01/event/table", json.dumps(event), qos=1).wait_for_publish(WAIT)
        assert watch.stdout.readline().strip() == "[bac-01 #7] table open"
    finally:
        watch.terminate()
        watch.wait(15)
    refused = subprocess.run([sys.executable, "-m", "controller.cli", "watch", "--broker", address,
                              "--user", "pit-view", "--password-file", str(bad)],
                             capture_output=True, text=True, timeout=30)
    assert refused.returncode == 1
    assert "the broker refused the connection: Not authorized" in refused.stderr, refused.stderr
    assert "not-the-password" not in refused.stderr + refused.stdout  # a secret never printed


def test_a_pit_user_cannot_take_over_a_tables_session(pit: Pit) -> None:
    """A read-only pit user connecting with the table's client id used to knock the table off
    the broker (five takeovers in ten seconds, five retained "offline" statuses). The example
    broker gives every client its user name as its id, so the table's session is untouched."""
    disconnects: list[object] = []
    view = pit.watch("pit-view-2", "casino/bac-01/#")
    table = pit.connect("bac-01")
    table.on_disconnect = lambda *args: disconnects.append(args[3])
    table.publish("casino/bac-01/event/table", b"{}", qos=1).wait_for_publish(WAIT)   # connected
    for _ in range(3):
        pit.connect("pit-view", client_id="bac-01")
    table.publish("casino/bac-01/event/table", b"{}", qos=1).wait_for_publish(WAIT)
    view.wait_for(lambda m: m.topic == "casino/bac-01/event/table")
    assert disconnects == [] and table.is_connected()
