"""MQTT test support: a Mosquitto the test owns, and a subscriber that collects messages.

The fixtures that use these are in conftest.py; tests import the classes
(``from mqtt_support import WAIT, Subscriber``) for their annotations and
constants.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import queue
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from hw_sim.broker import free_port, mosquitto_path

WAIT = 10.0
"""Seconds a test waits for something that should come at once: generous for a loaded CI machine."""


@dataclass
class RunningBroker:
    """A Mosquitto this test owns. ``host, port = broker`` unpacks it."""

    host: str
    port: int
    conf: Path
    proc: subprocess.Popen | None = None

    def __iter__(self) -> Iterator[Any]:
        return iter((self.host, self.port))

    @property
    def log(self) -> Path:
        """What Mosquitto wrote to stderr (its errors, and its log with ``log_dest stderr``)."""
        return self.conf.with_name(self.conf.stem + ".stderr")

    def start(self) -> None:
        exe = mosquitto_path()
        if exe is None:
            pytest.skip("mosquitto is not installed (apt-get install -y mosquitto)")
        with open(self.log, "ab") as err:  # opened here, as this user: whatever user Mosquitto drops to
            self.proc = subprocess.Popen([exe, "-c", str(self.conf)], stdout=subprocess.DEVNULL, stderr=err)
        self._wait_listening()

    def _wait_listening(self) -> None:
        """Until this broker accepts connections. A Mosquitto that exits (a file it cannot
        read, a port another listener took) fails the test at once with its exit status and
        what it said, not after a timeout, and never passes because another process answers."""
        assert self.proc is not None
        end = time.monotonic() + WAIT
        while True:
            status = self.proc.poll()
            if status is not None:
                said = self.log.read_text(errors="replace").strip()[-2000:] if self.log.exists() else ""
                self.proc = None
                raise AssertionError(f"mosquitto -c {self.conf} exited with status {status} before listening "
                                     f"on {self.host}:{self.port}: {said or 'nothing on stderr'}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.5):
                    return
            except OSError:
                if time.monotonic() > end:
                    raise AssertionError(f"mosquitto -c {self.conf} is not listening on {self.host}:{self.port} "
                                         f"after {WAIT} s") from None
                time.sleep(0.05)

    def stop(self) -> None:
        """An outage: the broker process ends (retained messages go with it: persistence is off)."""
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
            self.proc = None

    def kill(self) -> None:
        """A crash (SIGKILL): what it had not saved is gone (with ``persistence true``, its last
        save: at its last clean stop, or its ``autosave_interval``)."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(5)
            self.proc = None

    def pause(self) -> None:
        """Freeze the broker: connections stay open but nothing is acknowledged."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGCONT)


def readable_by_broker(folder: Path, *files: Path) -> list[Path]:
    """Copies of ``files`` in ``folder`` that Mosquitto can read as its own user.

    Started as root without a ``user`` setting (as config/mosquitto.conf runs it), Mosquitto
    drops to the "mosquitto" user and only then reads its password and ACL files; a checkout
    may sit in a directory only root may enter (a clone under ``mktemp -d``), so what it must
    read is copied out, into ``folder`` (made readable by all, as is each copy). Every
    directory above ``folder`` must let others through (/tmp does)."""
    folder.chmod(0o755)
    closed = [str(p) for p in folder.parents if not p.stat().st_mode & 0o001]
    assert not closed, f"{folder}: Mosquitto, as its own user, cannot pass through {closed} (TMPDIR?)"
    copies = []
    for source in files:
        copy = folder / source.name
        shutil.copyfile(source, copy)
        copy.chmod(0o644)
        copies.append(copy)
    return copies


@contextlib.contextmanager
def running_broker(prefix: str, settings: Callable[[int, Path], str], host: str = "127.0.0.1",
                   port: int | None = None) -> Iterator[RunningBroker]:
    """A Mosquitto on a free port with ``settings(port, its temporary directory)`` as its
    config, stopped (and woken, if a test left it paused) at the end.

    The config runs it as this process's user: Mosquitto started as root otherwise drops
    to the "mosquitto" user and cannot write into the root-only temporary directory
    (persistence fails silently) or read files a test made there."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        chosen = port is None
        conf = Path(tmp) / "mosquitto.conf"
        for attempt in range(5):
            port = free_port() if chosen else port
            assert port is not None
            conf.write_text(f"user {pwd.getpwuid(os.getuid()).pw_name}\n" + settings(port, Path(tmp)))
            running = RunningBroker(host, port, conf)
            running.log.unlink(missing_ok=True)  # what this attempt says, not the last one
            try:
                running.start()
                break
            except AssertionError as exc:
                # A free port is free when asked, not when Mosquitto binds it: another test (another
                # xdist worker) or a client's ephemeral port may take it in between. Another one, then.
                if not chosen or "Address already in use" not in str(exc) or attempt == 4:
                    raise
        try:
            yield running
        finally:
            if running.proc is not None and running.proc.poll() is None:
                os.kill(running.proc.pid, signal.SIGCONT)
            running.stop()


@dataclass
class Message:
    topic: str
    payload: bytes
    qos: int
    retain: bool
    properties: Any = None

    def json(self) -> Any:
        return json.loads(self.payload)


@dataclass
class Subscriber:
    """An MQTT client that collects every message on ``topic`` into a queue.

    Callbacks run on paho's thread and only put on the queue; the test
    thread blocks on it (with a deadline) to wait for what it expects.
    """

    host: str
    port: int
    topic: str
    protocol: int = mqtt.MQTTv311
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    messages: queue.Queue = field(default_factory=queue.Queue)
    seen: list[Message] = field(default_factory=list)
    _claimed: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        subscribed: queue.Queue = queue.Queue()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=self.protocol)
        if self.username is not None:
            self.client.username_pw_set(self.username, self.password)
        history: list[str] = []   # what the broker said, for the failure message

        def on_connect(c: mqtt.Client, u: object, f: object, rc: object, p: object) -> None:
            history.append(f"CONNACK {rc}")
            c.subscribe(self.topic, qos=1)

        self.client.on_connect = on_connect
        self.client.on_disconnect = lambda c, u, f, rc, p: history.append(f"disconnected: {rc}")
        self.client.on_subscribe = lambda *a: subscribed.put(True)
        self.client.on_message = lambda c, u, m: self.messages.put(
            Message(m.topic, m.payload, m.qos, bool(m.retain), m.properties))
        self.client.connect(self.host, self.port, keepalive=30)
        self.client.loop_start()
        try:
            subscribed.get(timeout=WAIT)
        except queue.Empty:
            self.client.loop_stop()
            raise AssertionError(f"no SUBACK from {self.host}:{self.port} within {WAIT} s for {self.topic!r}; "
                                 f"the broker said: {history or 'nothing'}") from None

    def get(self, timeout: float = WAIT) -> Message:
        message = self.messages.get(timeout=timeout)
        self.seen.append(message)
        return message

    def wait_for(self, predicate: Callable[[Message], bool], timeout: float = WAIT) -> Message:
        """The first matching message that no earlier ``wait_for`` returned.

        Messages that arrived already are looked at first, so a test may
        wait for a reply and then for the events that came before it."""
        for index, message in enumerate(self.seen):
            if index not in self._claimed and predicate(message):
                self._claimed.add(index)
                return message
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no matching message on {self.topic} within {timeout} s; "
                                     f"last seen: {[m.topic for m in self.seen[-10:]]}")
            try:
                message = self.get(remaining)
            except queue.Empty:
                continue
            if predicate(message):
                self._claimed.add(len(self.seen) - 1)
                return message

    def wait_topic(self, suffix: str, timeout: float = WAIT) -> Message:
        return self.wait_for(lambda m: m.topic.endswith(suffix), timeout)

    def drain(self) -> list[Message]:
        """Everything queued now, without waiting."""
        out = []
        while True:
            try:
                out.append(self.get(0))
            except queue.Empty:
                return out

    def publish(self, topic: str, payload: bytes | str | dict, *, qos: int = 1, retain: bool = False,
                properties: Any = None) -> None:
        body = json.dumps(payload) if isinstance(payload, dict) else payload
        self.client.publish(topic, body, qos=qos, retain=retain, properties=properties).wait_for_publish(WAIT)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


class EventLog:
    """A pit subscriber as store and forward expects one: a persistent session
    (clean session off, a fixed client id, QoS 1), so a broker that stays up,
    or keeps its sessions across a restart, sends what was published while the
    subscriber was away. It records every message with its arrival time
    (``time.monotonic()``) and de-duplicates events by ``seq``, as the pit must.
    """

    def __init__(self, host: str, port: int, topic: str, client_id: str) -> None:
        import threading

        self.cond = threading.Condition()
        self.messages: list[tuple[float, str, bytes]] = []
        self.first: dict[int, tuple[float, bytes]] = {}   # seq -> arrival and payload of its first copy
        self.order: list[int] = []                         # seqs in the order first seen
        self.duplicates = 0
        self.mismatches: list[int] = []                    # a seq seen twice with different bytes
        self.upto = 0                                      # every seq 1..upto has arrived
        self.kinds: dict[str, int] = {}                    # events by kind, each seq once
        subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False)
        self.client.reconnect_delay_set(min_delay=0.1, max_delay=0.5)  # type: ignore[arg-type]
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe(topic, qos=1)
        self.client.on_subscribe = lambda *a: subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect(host, port, keepalive=10)
        self.client.loop_start()
        if not subscribed.wait(WAIT):
            raise AssertionError(f"could not subscribe to {topic}")

    def _on_message(self, client: Any, userdata: Any, m: mqtt.MQTTMessage) -> None:
        now = time.monotonic()
        with self.cond:
            self.messages.append((now, m.topic, m.payload))
            if "/event/" in m.topic:
                seq = json.loads(m.payload)["seq"]
                if seq in self.first:
                    self.duplicates += 1
                    if self.first[seq][1] != m.payload:
                        self.mismatches.append(seq)
                else:
                    self.first[seq] = (now, m.payload)
                    self.order.append(seq)
                    kind = m.topic.rsplit("/", 1)[-1]
                    self.kinds[kind] = self.kinds.get(kind, 0) + 1
                    while self.upto + 1 in self.first:
                        self.upto += 1
            self.cond.notify_all()

    def events(self) -> list[dict]:
        """Every event once, in seq order."""
        with self.cond:
            return [json.loads(self.first[s][1]) for s in sorted(self.first)]

    def on(self, suffix: str, since: float = 0.0) -> list[tuple[float, dict]]:
        """Messages on topics ending in ``suffix`` that arrived after ``since``."""
        with self.cond:
            return [(t, json.loads(p)) for t, topic, p in self.messages if topic.endswith(suffix) and t >= since]

    def wait_until(self, predicate: Callable[[], object], timeout: float, what: str) -> None:
        """Wait (on the condition, no polling) until ``predicate()`` holds; called under the lock."""
        end = time.monotonic() + timeout
        with self.cond:
            while not predicate():
                left = end - time.monotonic()
                if left <= 0:
                    top = max(self.first, default=0)
                    missing = [s for s in range(self.upto + 1, top) if s not in self.first][:10]
                    raise AssertionError(f"timed out after {timeout} s waiting for {what}; have {len(self.first)} "
                                         f"seqs, highest {top}, missing {missing}")
                self.cond.wait(left)

    def wait_seqs(self, upto: int, timeout: float = WAIT) -> float:
        """Wait until every seq 1..upto has arrived; the arrival time of the last of them."""
        self.wait_until(lambda: self.upto >= upto, timeout, f"seqs 1..{upto}")
        with self.cond:
            return max((self.first[s][0] for s in range(1, upto + 1)), default=time.monotonic())

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
