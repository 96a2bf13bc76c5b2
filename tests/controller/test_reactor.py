"""controller.table.inbox.Inbox and controller.table.reactor.Reactor: one thread waits on the inbox and the
MQTT socket at once (issue 11), and wakes only when one of them is ready or a deadline is due."""

from __future__ import annotations

import itertools
import select
import threading
import time
from typing import Any

from mqtt_support import WAIT, RunningBroker, Subscriber
from reactor_support import take

from controller.table.config import MqttSection
from controller.table.inbox import Acked, Connected, Inbox
from controller.table.journal import Journal
from controller.table.publisher import Publisher
from controller.table.reactor import Reactor


def readable(inbox: Inbox) -> bool:
    return bool(select.select([inbox], [], [], 0)[0])


def test_the_inbox_is_readable_once_an_item_is_put_and_until_it_is_woken() -> None:
    inbox = Inbox()
    assert not readable(inbox)
    for n in range(100):   # one wake-up however many items: the pipe holds one byte
        inbox.put(n)
    assert readable(inbox)
    inbox.woken()
    assert not readable(inbox)
    assert [inbox.get_nowait() for _ in range(100)] == list(range(100))
    inbox.put("late")   # after woken(): wakes again, never missed
    assert readable(inbox)
    inbox.woken()
    assert inbox.get_nowait() == "late"
    inbox.wake()        # no item: the connector thread's signal
    assert readable(inbox) and inbox.empty()


class Idle:
    """A network client with no socket that is never due: the reactor waits on the inbox alone."""

    tended = 0

    def socket(self) -> None:
        return None

    def want_write(self) -> bool:
        return False

    def readable(self) -> None:
        raise AssertionError("no socket to read")

    def writable(self) -> None:
        raise AssertionError("no socket to write")

    def due(self) -> None:
        return None

    def tend(self) -> None:
        self.tended += 1


def test_the_reactor_wakes_for_an_item_from_another_thread_and_not_before() -> None:
    inbox, client = Inbox(), Idle()
    reactor = Reactor(inbox, client)
    woke = threading.Event()

    def wait() -> None:
        reactor.wait(None)   # no deadline: only an item ends it
        woke.set()

    waiter = threading.Thread(target=wait)
    waiter.start()
    assert not woke.wait(0.3), "it returned with nothing in the inbox"
    inbox.put("card")
    assert woke.wait(WAIT)
    waiter.join()
    assert inbox.get_nowait() == "card"
    # Each pass tends the client twice (before and after the wait): no pass ran while it waited.
    assert client.tended == 2


def test_the_reactor_returns_at_its_deadline() -> None:
    reactor = Reactor(Inbox(), Idle())
    deadline = time.monotonic() + 0.2
    reactor.wait(deadline)
    assert time.monotonic() >= deadline


def test_a_publisher_is_served_while_the_reactor_waits(broker: RunningBroker, tmp_path) -> None:
    """The session comes up, an event is written at publish() on this thread, and its PUBACK is
    read while the reactor waits; no paho network thread runs."""
    inbox = Inbox()
    settings = MqttSection(host=broker.host, port=broker.port, prefix="casino", keepalive=10)
    publisher = Publisher(settings, "re-01", inbox, game="baccarat")
    reactor = Reactor(inbox, publisher)
    pit = Subscriber(broker.host, broker.port, "casino/re-01/event/#")
    try:
        publisher.start(1)

        take(inbox, Connected, WAIT, reactor)
        assert "paho-mqtt-client-re-01" not in [t.name for t in threading.enumerate()]   # paho's own loop
        event = Journal(tmp_path / "j.db", "re-01").append("table", None, {"status": "open"}, 1.0)
        publisher.publish_event(event)
        assert not publisher.want_write(), "written to the socket at publish(), nothing left for later"
        assert pit.get().payload == event.payload   # arrived with nobody serving the socket since
        ack = take(inbox, Acked, WAIT, reactor)
        assert publisher.delivered([ack]) == [event.seq]
    finally:
        publisher.stop(timeout=2)
        pit.close()
        reactor.close()


def test_connecting_never_blocks_the_table_thread_and_failures_back_off() -> None:
    """Opening a connection (DNS, TCP, TLS) runs on a connector thread: while it hangs, an item
    still wakes the reactor. Refused attempts then come further apart (1 s, 2 s ...)."""
    inbox = Inbox()
    settings = MqttSection(host="127.0.0.1", port=1, prefix="casino", reconnect_max_delay=8)  # nobody on port 1
    publisher = Publisher(settings, "re-02", inbox, game="baccarat")
    reactor = Reactor(inbox, publisher)
    attempts: list[float] = []
    hanging = threading.Event()
    opened = publisher._client.open_socket

    def counted() -> Any:
        attempts.append(time.monotonic())
        if len(attempts) == 1:
            hanging.wait(WAIT)   # a broker host that does not answer
        return opened()

    publisher._client.open_socket = counted  # type: ignore[method-assign]
    try:
        publisher.start(1)
        threading.Timer(0.2, inbox.put, ("card",)).start()
        reactor.wait(None)   # no deadline: only the item can end it
        assert not hanging.is_set() and len(attempts) == 1 and inbox.get_nowait() == "card"
        hanging.set()
        end = time.monotonic() + 3 * WAIT
        while len(attempts) < 3 and time.monotonic() < end:
            reactor.wait(min(end, time.monotonic() + 0.1))
        gaps = [b - a for a, b in itertools.pairwise(attempts)]
        assert len(gaps) == 2 and gaps[0] >= 0.9 and gaps[1] >= 1.9, gaps
    finally:
        publisher.stop(timeout=1)
        reactor.close()
