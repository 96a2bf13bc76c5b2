"""Shared fixtures: a real Mosquitto on loopback, and MQTT subscribers that collect messages.

The broker is started per test (a few tens of milliseconds) so that a test
may pause, kill or restart it without disturbing another. It listens on
127.0.0.1 only, on a free port, with persistence off.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import paho.mqtt.client as mqtt
import pytest
from browser_support import browser, browsers  # noqa: F401  (fixtures: headless Chromium for the board)
from mqtt_support import RunningBroker, Subscriber, running_broker
from postgres_support import pg_url, postgres  # noqa: F401  (fixtures: a real PostgreSQL)


@pytest.fixture
def broker() -> Iterator[RunningBroker]:
    """A real Mosquitto on a free 127.0.0.1 port; yields ``(host, port)``."""
    with running_broker("tablectl-test-broker-", lambda port, _tmp: (
            f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest none\n")) as running:
        yield running


@pytest.fixture
def subscriber(broker: RunningBroker) -> Iterator[Callable[..., Subscriber]]:
    """``subscriber("casino/#")`` -> a connected :class:`Subscriber`, closed after the test."""
    made: list[Subscriber] = []

    def make(topic: str, protocol: int = mqtt.MQTTv311) -> Subscriber:
        sub = Subscriber(broker.host, broker.port, topic, protocol)
        made.append(sub)
        return sub

    yield make
    for sub in made:
        sub.close()


@pytest.fixture
def persistent_broker() -> Iterator[RunningBroker]:
    """A Mosquitto that keeps sessions and retained messages across its own restart
    (``persistence true`` in a temporary directory), as a production broker does
    (config/mosquitto.conf): a subscriber with a persistent session (clean session
    off, QoS 1) is sent what was published while it was away, even after ``stop()``
    and ``start()``. A million messages queued per subscriber at most (not 0, which
    some Mosquitto 2.0 releases did not treat as "no limit")."""
    with running_broker("tablectl-test-pbroker-", lambda port, tmp: (
            f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence true\n"
            f"persistence_location {tmp}/\nmax_queued_messages 1000000\nlog_dest none\n")) as running:
        yield running
