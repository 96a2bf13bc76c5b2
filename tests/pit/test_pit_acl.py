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

from controller.pit.service import PitError
from hw_sim.broker import free_port

ROOT = Path(__file__).resolve().parents[2]
USERS = {"fake-01": "pw-table", "pit-archive-1": "pw-archive", "pit-view": "pw-view"}


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
