"""The publisher against a real Mosquitto: birth, will, retained state, QoS 1 and PUBACK, commands.

Here the test thread plays the table thread: it takes what the publisher's
callbacks put on the inbox and calls the publisher back, as the table loop does.
"""

from __future__ import annotations

import logging
import queue
import socket
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
import reactor_support
from mqtt_support import WAIT, RunningBroker, Subscriber
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from reactor_support import served

from controller.shared.schemas import validate, validate_event
from controller.table.config import MqttSection
from controller.table.inbox import Acked, Command, Connected, Disconnected, Inbox
from controller.table.journal import Journal
from controller.table.publisher import Publisher

TABLE = "pub-01"


def take(inbox: Inbox, kind: type, timeout: float = WAIT) -> object:
    """The next inbox item of ``kind``, the socket served meanwhile (this test plays the table)."""
    return reactor_support.take(inbox, kind, timeout)


def announce(publisher: Publisher, subscriber: Callable[..., Subscriber]) -> None:
    """Publish the birth and wait until the pit sees it. The publisher subscribes to
    its commands before it publishes anything, and the broker keeps one client's
    packets in order, so a pit that has seen the birth can send commands."""
    watcher = subscriber(f"casino/{TABLE}/status")
    publisher.publish_birth(next_seq=1, devices={})
    watcher.wait_for(lambda m: m.json()["online"] and m.json()["birth"] == publisher.birth)


@pytest.fixture
def settings(broker: RunningBroker) -> MqttSection:
    return MqttSection(host=broker.host, port=broker.port, prefix="casino", keepalive=10)


@pytest.fixture
def make_publisher(settings: MqttSection) -> Iterator[Callable[..., tuple[Publisher, Inbox]]]:
    made: list[Publisher] = []

    def make(birth: int = 1, **changes: object) -> tuple[Publisher, Inbox]:
        inbox = Inbox()
        publisher = Publisher(replace(settings, **changes), TABLE, inbox, game="baccarat", software="9.9")
        served(publisher, inbox)
        publisher.start(birth)
        made.append(publisher)
        take(inbox, Connected)
        return publisher, inbox

    yield make
    for publisher in made:
        publisher.stop(timeout=1)


def test_birth_is_retained_and_carries_the_birth_number(make_publisher, subscriber) -> None:
    publisher, inbox = make_publisher(birth=4)
    publisher.publish_birth(next_seq=17, devices={"shoe": "online", "shuffler": "unknown"})
    take(inbox, Acked)  # the broker has it
    late: Subscriber = subscriber(f"casino/{TABLE}/status")  # subscribes after: gets the retained birth
    message = late.get()
    status = message.json()
    assert message.retain and message.topic == f"casino/{TABLE}/status"
    validate("status", status)
    assert (status["online"], status["birth"], status["next_seq"], status["game"], status["version"]) == (
        True, 4, 17, "baccarat", "9.9")
    assert status["devices"] == {"shoe": "online", "shuffler": "unknown"}


def test_the_will_says_offline_with_the_same_birth(make_publisher, subscriber) -> None:
    watcher: Subscriber = subscriber(f"casino/{TABLE}/status")
    publisher, inbox = make_publisher(birth=9)
    publisher.publish_birth(next_seq=1, devices={})
    assert watcher.wait_for(lambda m: m.json()["online"]).json()["birth"] == 9
    publisher._client.socket().shutdown(socket.SHUT_RDWR)  # the line drops: no DISCONNECT reaches the broker
    will = watcher.wait_for(lambda m: not m.json()["online"]).json()
    validate("status", will)
    assert (will["birth"], will["reason"]) == (9, "connection lost")
    take(inbox, Disconnected)
    take(inbox, Connected)  # paho reconnects by itself; the table then republishes the birth


def test_a_clean_stop_publishes_offline_retained(make_publisher, subscriber, settings) -> None:
    publisher, _ = make_publisher(birth=2)
    publisher.publish_birth(next_seq=1, devices={})
    publisher.stop()
    late: Subscriber = subscriber(f"casino/{TABLE}/status")
    status = late.get().json()
    assert (status["online"], status["birth"], status["reason"]) == (False, 2, "shutdown")


def test_retained_state(make_publisher, subscriber) -> None:
    publisher, inbox = make_publisher()
    publisher.publish_state({"table": TABLE, "seq": 5, "ts": 1.0, "state": "ready", "round": None})
    take(inbox, Acked)
    message = subscriber(f"casino/{TABLE}/state").get()
    assert message.retain and message.json()["seq"] == 5


def test_events_go_out_at_qos1_and_are_delivered_only_on_puback(make_publisher, subscriber, broker,
                                                                 tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.db", TABLE)
    events: Subscriber = subscriber(f"casino/{TABLE}/event/#")
    publisher, inbox = make_publisher()
    first = journal.append("table", None, {"status": "open"}, 1.0)
    publisher.publish_event(first)
    message = events.get()
    assert (message.topic, message.qos, message.payload) == (f"casino/{TABLE}/event/table", 1, first.payload)
    validate_event(message.json(), game="baccarat")
    journal.mark_delivered(publisher.delivered([take(inbox, Acked)]))
    assert journal.undelivered() == []

    broker.pause()  # the broker holds the PUBLISH and sends no PUBACK
    second = journal.append("table", None, {"status": "closed"}, 2.0)
    publisher.publish_event(second)
    assert publisher.in_flight() == {second.seq}
    with pytest.raises(queue.Empty):
        take(inbox, Acked, timeout=0.5)
    assert [e.seq for e in journal.undelivered()] == [second.seq]
    broker.resume()
    journal.mark_delivered(publisher.delivered([take(inbox, Acked)]))
    assert journal.undelivered() == [] and publisher.in_flight() == set()


def test_commands_reach_the_inbox_and_replies_echo_the_id(make_publisher, subscriber) -> None:
    pit: Subscriber = subscriber(f"casino/{TABLE}/cmd/+/reply")
    publisher, inbox = make_publisher()
    announce(publisher, subscriber)
    pit.publish(f"casino/{TABLE}/cmd/open", b'{"id": "r1"}')
    command = take(inbox, Command)
    assert command == Command("open", b'{"id": "r1"}', f"casino/{TABLE}/cmd/open/reply", None, False)
    publisher.reply(command, ok=True, request_id="r1", data={"state": "deck_check"})
    reply = pit.get()
    assert reply.topic == f"casino/{TABLE}/cmd/open/reply"
    assert reply.json() == {"id": "r1", "command": "open", "ok": True, "data": {"state": "deck_check"}}
    publisher.reply(command, ok=False, request_id=None, error="malformed JSON: x")
    validate("reply", pit.get().json())


def test_a_retained_command_is_flagged(make_publisher, subscriber) -> None:
    pit: Subscriber = subscriber("unused/#")
    pit.publish(f"casino/{TABLE}/cmd/void", b'{"reason": "x"}', retain=True)
    _, inbox = make_publisher()  # connects after: the broker delivers the retained command
    assert take(inbox, Command).retained is True
    pit.publish(f"casino/{TABLE}/cmd/void", b"", retain=True)  # clear it


def test_mqtt5_replies_carry_the_correlation_data(make_publisher, subscriber) -> None:
    pit: Subscriber = subscriber(f"casino/{TABLE}/cmd/+/reply", protocol=mqtt.MQTTv5)
    publisher, inbox = make_publisher(protocol="5")
    announce(publisher, subscriber)
    request = Properties(PacketTypes.PUBLISH)
    request.CorrelationData = b"corr-42"
    pit.publish(f"casino/{TABLE}/cmd/close", b'{"id": 7}', properties=request)
    command = take(inbox, Command)
    assert command.correlation == b"corr-42"
    publisher.reply(command, ok=True, request_id=7)
    reply = pit.get()
    assert reply.json()["id"] == 7
    assert reply.properties.CorrelationData == b"corr-42"


def test_the_password_never_reaches_the_log(make_publisher, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    publisher, _ = make_publisher(username="pub-01", password="hunter2-secret")
    publisher.stop()
    assert "pub-01" in caplog.text and "hunter2-secret" not in caplog.text
