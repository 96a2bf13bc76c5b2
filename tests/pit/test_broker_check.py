"""The broker's settings that make the pit lose events, said at start (issue 21.2;
controller/pit/broker_check.py, docs/pit.md "The broker's settings, checked"); and a broker that
kept no session for an archiving service, said when it reconnects."""

from __future__ import annotations

from pathlib import Path

import pytest
from archive_support import PitProcess
from mqtt_support import WAIT, Subscriber
from test_pit_cli import _one_line, _run

from controller.pit.broker_check import BrokerConfigError, check, read_config, risks

REPO = Path(__file__).resolve().parents[2]


def _settings(tmp_path: Path, text: str) -> dict[str, str]:
    conf = tmp_path / "mosquitto.conf"
    conf.write_text(text)
    return read_config(conf)


def _said(found) -> list[str]:
    return [r.setting for r in found]


def test_the_example_broker_of_config_loses_nothing():
    assert risks(read_config(REPO / "config" / "mosquitto.conf")) == []


def test_an_empty_file_is_mosquittos_defaults_no_persistence_and_a_queue_of_1000(tmp_path):
    found = risks(_settings(tmp_path, "# nothing set\n\nlistener 1883\n"))
    assert _said(found) == ["persistence false (not set)", "max_queued_messages not set (Mosquitto's default 1000)",
                            "max_inflight_messages not set (Mosquitto's default 20)"]
    assert "20 events a commit at most" in found[2].text
    assert "set persistence true" in found[0].text
    assert "at most 1,000 events" in found[1].text and "100000 in config/mosquitto.conf" in found[1].text


@pytest.mark.parametrize(("text", "setting", "words"), [
    ("max_queued_messages 5000", "max_queued_messages 5000", "at most 5,000 events"),
    ("max_inflight_messages 50", "max_inflight_messages 50", "50 events a commit at most"),
    ("max_queued_messages 0", "max_queued_messages 0", "read 0 as no queue"),
    ("max_queued_messages lots", "max_queued_messages lots", "not a whole number"),
    ("max_queued_bytes 65536", "max_queued_bytes 65536", "fewer than one replay's 10,000 events"),
    ("persistent_client_expiration 2h", "persistent_client_expiration 2h", "away longer than that"),
    ("autosave_interval 1800", "autosave_interval 1800", "up to 1800 s"),
    ("autosave_interval 0", "autosave_interval 0", "since the broker started"),
])
def test_each_setting_that_loses_events_is_named_with_what_it_loses(tmp_path, text, setting, words):
    found = risks(_settings(tmp_path, f"persistence true\nmax_queued_messages 100000\nmax_inflight_messages 100\n"
                                      f"{text}\n"))
    assert _said(found) == [setting], found
    assert words in found[0].text


@pytest.mark.parametrize("text", ["max_queued_messages 10000", "max_queued_bytes 0", "max_queued_bytes 20000000",
                                  "max_inflight_messages 0", "max_inflight_messages 200",
                                  "persistent_client_expiration 1d", "persistent_client_expiration 2w",
                                  "autosave_interval 300", "autosave_interval 3600\nautosave_on_changes true"])
def test_settings_at_or_past_the_line_are_not_a_risk(tmp_path, text):
    assert risks(_settings(tmp_path, f"persistence true\nmax_queued_messages 100000\nmax_inflight_messages 100\n"
                                     f"{text}\n")) == []


def test_include_dir_is_read_in_name_order_and_the_last_setting_wins(tmp_path):
    (tmp_path / "conf.d").mkdir()
    (tmp_path / "conf.d" / "10-site.conf").write_text("max_queued_messages 100000\npersistence true\n"
                                                      "max_inflight_messages 100\n")
    (tmp_path / "conf.d" / "20-late.conf").write_text("max_queued_messages 2000\n")
    (tmp_path / "conf.d" / "notes.txt").write_text("persistence false\n")   # not a .conf: not read
    settings = _settings(tmp_path, "persistence false\ninclude_dir conf.d\n")
    assert settings["persistence"] == "true" and settings["max_queued_messages"] == "2000"
    assert _said(risks(settings)) == ["max_queued_messages 2000"]


def test_a_setting_separated_by_a_tab_is_read(tmp_path):
    settings = _settings(tmp_path, "persistence\ttrue\nmax_queued_messages \t 100000\nmax_inflight_messages\t100\n")
    assert settings == {"persistence": "true", "max_queued_messages": "100000", "max_inflight_messages": "100"}
    assert risks(settings) == []


def test_a_file_including_itself_is_read_once(tmp_path):
    (tmp_path / "loop").mkdir()
    (tmp_path / "loop" / "a.conf").write_text(f"include_dir {tmp_path / 'loop'}\npersistence true\n")
    assert read_config(tmp_path / "loop" / "a.conf")["persistence"] == "true"


def test_a_named_file_that_cannot_be_read_is_an_error_naming_it(tmp_path):
    with pytest.raises(BrokerConfigError, match=r"cannot read .*nowhere.conf: No such file"):
        check(tmp_path / "nowhere.conf", "127.0.0.1", 1883)


def test_the_system_file_is_read_only_for_the_broker_on_this_machines_port_1883(tmp_path):
    system = tmp_path / "mosquitto.conf"
    system.write_text("listener 1883\n")
    where, lines = check(None, "127.0.0.1", 1883, default=system)
    assert where == str(system) and len(lines) == 3
    assert lines[0].startswith(f"broker config {system}: persistence false (not set): ")
    assert check(None, "127.0.0.1", 18830, default=system) == (None, [])   # a broker of its own: not judged by it
    assert check(None, "pit-broker", 1883, default=system) == (None, [])
    assert check(None, "127.0.0.1", 1883, default=tmp_path / "absent.conf") == (None, [])


def test_the_service_says_its_brokers_risks_at_start_and_in_its_status(broker, pg_url, tmp_path):
    """The test's own broker (tests/conftest.py): persistence off and Mosquitto's default queue and
    messages in flight, so three warnings; then a broker restart that forgets the service's session is said, and counted."""
    watcher = Subscriber(broker.host, broker.port, "casino/_pit/+/status")
    log = tmp_path / "pit.log"
    pit = PitProcess(broker, pg_url, log, "--client-id", "pit-risks", "--broker-config", str(broker.conf))
    try:
        assert pit.line().startswith("tablectl pit: casino/+ on ")
        status = watcher.wait_for(lambda m: m.json().get("online") is True).json()
        risky = status["broker_risks"]
        assert len(risky) == 3, risky
        assert risky[0].startswith(f"broker config {broker.conf}: persistence false: a broker restart")
        assert risky[1].startswith(f"broker config {broker.conf}: max_queued_messages not set (Mosquitto's default 1000)")
        assert risky[2].startswith(f"broker config {broker.conf}: max_inflight_messages not set (Mosquitto's default 20)")
        warned = [line for line in log.read_text().splitlines() if line.startswith("tablectl pit: warning: ")]
        assert warned == ["tablectl pit: warning: " + line for line in risky]
        broker.stop()
        broker.start()
        lost = watcher.wait_for(lambda m: m.json().get("online") is True
                                and m.json()["counters"].get("sessions_lost") == 1, timeout=WAIT * 3).json()
        assert lost["counters"]["mqtt_connects"] == 2
        assert "the broker kept no session for this service" in log.read_text()
    finally:
        pit.close()
        watcher.close()


def test_a_broker_config_that_cannot_be_read_stops_the_start_in_one_line(tmp_path):
    _one_line(_run("--db", "postgresql://nobody@127.0.0.1:1/none", "--broker-config", str(tmp_path / "no.conf")),
              2, f"--broker-config: cannot read {tmp_path / 'no.conf'}: No such file or directory")


def test_a_broker_without_risks_is_said_in_one_line(broker, pg_url, tmp_path):
    conf = tmp_path / "good.conf"
    conf.write_text((REPO / "config" / "mosquitto.conf").read_text())
    pit = PitProcess(broker, pg_url, tmp_path / "pit.log", "--client-id", "pit-good", "--broker-config", str(conf))
    try:
        assert pit.line().startswith("tablectl pit: casino/+ on ")
        assert pit.line() == f"tablectl pit: broker config {conf}: nothing in it makes the pit lose events"
    finally:
        pit.close()
