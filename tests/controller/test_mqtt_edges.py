"""The MQTT session's edges now that the table thread serves the socket (issue 11): found by a review.

Each test here failed on ca34dbb/8468f47. A scriptable fake broker (a plain socket server) plays
the brokers mosquitto cannot be made into: one that refuses MQTT 3.1.1, one that resets the
connection, one that imposes a shorter keepalive (MQTT v5 Server Keep Alive)."""

from __future__ import annotations

import logging
import queue
import socket
import struct
import threading
import time
from collections.abc import Callable
from typing import Any

from mqtt_support import WAIT, RunningBroker
from reactor_support import take

from controller.table.config import MqttSection
from controller.table.inbox import Connected, Disconnected, Inbox
from controller.table.publisher import Publisher
from controller.table.reactor import Reactor


def _read_packet(conn: socket.socket) -> tuple[int | None, bytes]:
    head = conn.recv(1)
    if not head:
        return None, b""
    mult, length = 1, 0
    while True:
        byte = conn.recv(1)
        if not byte:
            return None, b""
        length += (byte[0] & 127) * mult
        mult *= 128
        if not byte[0] & 128:
            break
    body = b""
    while len(body) < length:
        chunk = conn.recv(length - len(body))
        if not chunk:
            return None, b""
        body += chunk
    return head[0], body


class FakeBroker:
    """Accepts connections on 127.0.0.1 and answers each with ``behave(self, conn)`` on a thread."""

    def __init__(self, behave: Callable[[FakeBroker, socket.socket], None]) -> None:
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(8)
        self.port = self.server.getsockname()[1]
        self.behave = behave
        self.seen: list[tuple[float, int]] = []   # (monotonic, packet type byte)
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        try:
            self.behave(self, conn)
        except OSError:
            pass
        finally:
            conn.close()

    def packets(self, conn: socket.socket):
        while True:
            cmd, body = _read_packet(conn)
            if cmd is None:
                return
            self.seen.append((time.monotonic(), cmd))
            yield cmd, body

    def close(self) -> None:
        self.server.close()


def _serve_until(reactor: Reactor, inbox: Inbox, kind: type, timeout: float) -> Any:
    try:
        return take(inbox, kind, timeout, reactor)
    except queue.Empty:
        raise AssertionError(f"no {kind.__name__} within {timeout} s") from None


def test_a_broker_that_refuses_mqtt_3_1_1_is_retried_and_never_breaks_the_table_thread() -> None:
    """CONNACK 'unacceptable protocol version' makes paho 2.2 call reconnect() from inside
    loop_read (its downgrade to 3.1); _Client._create_socket has no socket then and raises
    OSError, out of Reactor.wait: the table loop dies, and the publisher is left with no socket,
    no connector and no retry due, so it would never connect again even if caught."""
    def refuse(fake: FakeBroker, conn: socket.socket) -> None:
        for cmd, _ in fake.packets(conn):
            if cmd == 0x10:
                conn.sendall(bytes([0x20, 2, 0, 1]))   # CONNACK: unacceptable protocol version

    fake = FakeBroker(refuse)
    inbox = Inbox()
    publisher = Publisher(MqttSection(host="127.0.0.1", port=fake.port, prefix="casino", keepalive=10,
                                      reconnect_max_delay=1), "rv-01", inbox, game="baccarat")
    reactor = Reactor(inbox, publisher)
    try:
        publisher.start(1)
        end = time.monotonic() + 3.5
        while time.monotonic() < end:
            reactor.wait(end)   # raised OSError("no socket was opened for this connect")
        connects = [t for t, cmd in fake.seen if cmd == 0x10]
        assert len(connects) >= 2, "refused once, then never tried again"
    finally:
        publisher.stop(timeout=1)
        reactor.close()
        fake.close()


def test_a_listener_that_never_answers_connect_is_said_so_once(caplog) -> None:
    """Something accepts TCP on the broker's port and never sends a CONNACK: after a keepalive
    the connect is given up and retried, and the warning says what happened (it blamed a missing
    client certificate before); said once, not once per retry."""
    def silent(fake: FakeBroker, conn: socket.socket) -> None:
        for _ in fake.packets(conn):
            pass

    fake = FakeBroker(silent)
    inbox = Inbox()
    publisher = Publisher(MqttSection(host="127.0.0.1", port=fake.port, prefix="casino", keepalive=5,
                                      reconnect_max_delay=1), "rv-05", inbox, game="baccarat")
    reactor = Reactor(inbox, publisher)
    caplog.set_level(logging.DEBUG, logger="controller.table.publisher")
    try:
        publisher.start(1)
        end = time.monotonic() + 4 * WAIT
        said = lambda: [r for r in caplog.records if "cannot connect" in r.getMessage()]  # noqa: E731
        while len(said()) < 2 and time.monotonic() < end:   # two attempts given up
            reactor.wait(min(end, time.monotonic() + 0.5))
        warnings = [r.getMessage() for r in said() if r.levelno == logging.WARNING]
        assert len(said()) >= 2 and len(warnings) == 1, [r.getMessage() for r in said()]
        assert "no answer to CONNECT within the keepalive (5 s): is an MQTT broker listening there?" in warnings[0]
        assert "client certificate" not in warnings[0]
    finally:
        publisher.stop(timeout=1)
        reactor.close()
        fake.close()


def test_stop_after_the_broker_reset_the_connection_does_not_raise() -> None:
    """The connection is reset after the table thread last read the socket: stop()'s offline
    status fails at publish() (rc MQTT_ERR_CONN_LOST) and MQTTMessageInfo.is_published() raises
    RuntimeError out of stop(), so Table._shutdown never sets ``done`` (the CLI waits on it when
    the table stops by itself). The code before issue 11 caught it around wait_for_publish."""
    reset = threading.Event()

    def acks_then_resets(fake: FakeBroker, conn: socket.socket) -> None:
        for cmd, body in fake.packets(conn):
            if cmd == 0x10:
                conn.sendall(bytes([0x20, 2, 0, 0]))
            elif cmd & 0xF0 == 0x80:
                conn.sendall(bytes([0x90, 3]) + body[:2] + b"\x01")
                if body[:2] == b"\x00\x02":   # the command subscription: then the reset
                    time.sleep(0.1)
                    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    conn.close()
                    reset.set()
                    return

    fake = FakeBroker(acks_then_resets)
    inbox = Inbox()
    publisher = Publisher(MqttSection(host="127.0.0.1", port=fake.port, prefix="casino", keepalive=30),
                          "rv-02", inbox, game="baccarat")
    reactor = Reactor(inbox, publisher)
    try:
        publisher.start(1)
        _serve_until(reactor, inbox, Connected, WAIT)
        assert reset.wait(WAIT)
        time.sleep(0.2)   # the table thread is elsewhere (the lights, the journal) meanwhile
        publisher.stop(timeout=1)   # RuntimeError: Message publish failed: The connection was lost.
        assert not publisher.alive
    finally:
        reactor.close()
        fake.close()


def test_a_server_keep_alive_shorter_than_ours_is_kept() -> None:
    """MQTT v5: a broker may answer CONNACK with a Server Keep Alive shorter than the client's
    (mosquitto's max_keepalive does). paho then pings by it, but Publisher runs loop_misc every
    settings.keepalive / 4, computed once: with keepalive 60 and a Server Keep Alive of 1 s the
    first PINGREQ comes after 15 s, and mosquitto drops the table every 1.5 x its keepalive (seen
    with max_keepalive 10: 'exceeded timeout, disconnecting' every ~18 s, the will each time)."""
    def short_keepalive(fake: FakeBroker, conn: socket.socket) -> None:
        for cmd, body in fake.packets(conn):
            if cmd == 0x10:   # CONNACK v5: flags 0, reason 0, properties: Server Keep Alive (0x13) = 1
                conn.sendall(bytes([0x20, 6, 0, 0, 3, 0x13, 0, 1]))
            elif cmd & 0xF0 == 0x80:   # SUBACK v5: mid, no properties, granted QoS 1
                conn.sendall(bytes([0x90, 4]) + body[:2] + b"\x00\x01")
            elif cmd == 0xC0:
                conn.sendall(bytes([0xD0, 0]))

    fake = FakeBroker(short_keepalive)
    inbox = Inbox()
    publisher = Publisher(MqttSection(host="127.0.0.1", port=fake.port, prefix="casino", keepalive=60,
                                      protocol="5"), "rv-03", inbox, game="baccarat")
    reactor = Reactor(inbox, publisher)
    try:
        publisher.start(1)
        _serve_until(reactor, inbox, Connected, WAIT)
        connected = time.monotonic()
        end = connected + 3.0
        while time.monotonic() < end:
            reactor.wait(end)
        pings = [t - connected for t, cmd in fake.seen if cmd == 0xC0]
        assert pings and pings[0] < 1.5, f"first PINGREQ {pings[:1]} s after CONNACK; the broker allows 1.5 s"
    finally:
        publisher.stop(timeout=1)
        reactor.close()
        fake.close()


def test_a_keepalive_timeout_is_one_disconnect_and_one_backoff_step(broker: RunningBroker) -> None:
    """paho 2.2's loop_misc calls on_disconnect twice for one keepalive timeout (_check_keepalive
    closes the socket and says so, then loop_misc's own ping check says so again). Publisher
    counts each call as a failed attempt: the delay doubles twice (the first retry after 2 s,
    not 1 s), two Disconnected items are queued, and the second is logged as 'the broker closed
    the connection before accepting it ... client certificate'."""
    inbox = Inbox()
    publisher = Publisher(MqttSection(host=broker.host, port=broker.port, prefix="casino", keepalive=1,
                                      reconnect_max_delay=30), "rv-04", inbox, game="baccarat")
    reactor = Reactor(inbox, publisher)
    try:
        publisher.start(1)
        _serve_until(reactor, inbox, Connected, WAIT)
        broker.pause()
        _serve_until(reactor, inbox, Disconnected, WAIT)
        lost = time.monotonic()
        end = lost + 0.3
        while time.monotonic() < end:
            reactor.wait(end)
        more = []
        while True:
            try:
                more.append(inbox.get_nowait())
            except queue.Empty:
                break
        assert not [m for m in more if isinstance(m, Disconnected)], "one timeout, two Disconnected"
        assert publisher._retry_at is None or publisher._retry_at - lost <= 1.1, \
            f"first retry {publisher._retry_at - lost:.2f} s after the loss; the backoff starts at 1 s"
    finally:
        broker.resume()
        publisher.stop(timeout=1)
        reactor.close()
