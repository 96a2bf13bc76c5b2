"""The MQTT side of a table: birth and will, retained state, events, commands.

The table thread owns the MQTT socket too (issue 11; Klipper's reactor is
the model): paho runs through its external-loop API, driven by
:mod:`controller.table.reactor`, which waits on the socket and the inbox at once.
So ``publish()`` writes the socket at once, on the table thread, instead of
waking a network thread that would wait for the GIL until the table thread
had finished the rest of its item. paho's callbacks run on the table thread
inside ``loop_read``; they never block and only put a small item on the
inbox (:mod:`controller.table.inbox`), handled in order with the rest. Opening a
connection (DNS, TCP, the TLS handshake) can block for seconds when the
broker's host is away, so that alone happens on a short-lived connector
thread, which touches only the new socket; the table thread hands it to
paho (``reconnect()``) and sends CONNECT. Reconnects back off from 1 s to
``mqtt.reconnect_max_delay``, as paho's own loop did. Everything else is
called from the table thread, which owns the journal:

- on every (re)connect the table thread publishes the retained birth on
  ``<prefix>/<table>/status``, the retained state, and every undelivered
  journal event in ``seq`` order (the journal is the outbox; DESIGN.md, MQTT);
- each event goes out at QoS 1 on ``<prefix>/<table>/event/<kind>``; the
  paho message id is remembered against the event's ``seq`` here, and the
  PUBACK comes back as :class:`~controller.table.inbox.Acked` so that the table
  thread marks the event delivered. Because the mapping is written and
  read on the table thread only, a PUBACK that overtakes ``publish()``'s
  return cannot be lost and no lock is needed;
- commands arrive on ``<prefix>/<table>/cmd/+`` and are queued as
  :class:`~controller.table.inbox.Command`; replies go to ``.../cmd/<name>/reply``.

paho resends what it still holds unacknowledged after a reconnect (the DUP
flag; it keeps QoS 1 messages across reconnects whether or not the broker
kept the session, and a broker that forgot the session takes the resend as
a new message), so a reconnect republishes from the journal only the events
paho does not hold: a backlog after an outage or a restart, without
duplicating what is already in flight. paho queues those resends while it
handles the CONNACK, right after ``on_connect``; so that nothing the table
publishes can overtake them (``seq`` order), the table hears of the session
(:class:`~controller.table.inbox.Connected`) only when the broker acknowledges
the command subscription sent from ``on_connect`` (SUBACK): by then paho's
resends are queued ahead of anything new, and the pit's commands reach us.

The birth number (``birth``) is counted per controller start in the
journal; the will, set before connecting, carries the same number, as
Sparkplug's bdSeq does, so the pit can tell which session went away.
"""

from __future__ import annotations

import json
import logging
import re
import selectors
import ssl
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from controller.shared.mqtt_socket import tcp_no_delay
from controller.shared.mqtt_tls import tls_context
from controller.table.config import MqttSection
from controller.table.inbox import Acked, Command, Connected, Disconnected, ForeignStatus, Inbox
from controller.table.journal import Event

log = logging.getLogger(__name__)

def software_version() -> str:
    try:
        return version("tablectl")
    except PackageNotFoundError:  # pragma: no cover - only outside an install
        return "0+unknown"


@dataclass(frozen=True)
class Topics:
    """The topics of one table under a prefix (DESIGN.md, MQTT)."""

    prefix: str
    table: str

    @property
    def base(self) -> str:
        return f"{self.prefix}/{self.table}"

    @property
    def status(self) -> str:
        return f"{self.base}/status"

    @property
    def state(self) -> str:
        return f"{self.base}/state"

    @property
    def dice(self) -> str:
        """Retained: the dice cups' counts and fairness figures (controller.table.dice_stats)."""
        return f"{self.base}/dice"

    @property
    def integrity(self) -> str:
        """Retained: the outcome (and shuffle) counts and tests (controller.table.integrity)."""
        return f"{self.base}/integrity"

    def event(self, kind: str) -> str:
        return f"{self.base}/event/{kind}"

    @property
    def commands(self) -> str:
        """The subscription: one level under ``cmd/``, so replies never echo back."""
        return f"{self.base}/cmd/+"

    def command(self, name: str) -> str:
        return f"{self.base}/cmd/{name}"

    def reply(self, name: str) -> str:
        return f"{self.base}/cmd/{name}/reply"


COMMAND_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")
"""A command name the controller will answer on its own reply topic."""

MAX_EVENT_BYTES = 60_000
"""An event's payload at most: under config/mosquitto.conf's max_packet_size 65536 with the topic
and headers (MQTT has no way to ask a 3.1.1 broker its limit)."""


def _json(obj: Mapping[str, Any]) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


class _Client(mqtt.Client):
    """paho's client, given a socket a connector thread opened (:meth:`open_socket`) instead of
    opening one itself inside ``reconnect()`` on the table thread."""

    opened: Any = None

    def open_socket(self) -> Any:
        """DNS, TCP connect and the TLS handshake, as paho does them: blocking, so any thread but
        the table's. Reads only the client's settings."""
        return mqtt.Client._create_socket(self)

    def _create_socket(self) -> Any:
        sock, self.opened = self.opened, None
        if sock is None:
            raise OSError("no socket was opened for this connect")
        return sock


class Publisher:
    """One table's MQTT client. Construct, then :meth:`start` with the birth number."""

    def __init__(self, settings: MqttSection, table: str, inbox: Inbox, *, game: str,
                 software: str | None = None) -> None:
        self.settings = settings
        self.table = table
        self.game = game
        self.version = software or software_version()
        self.topics = Topics(settings.prefix, table)
        self.birth = 0
        self.max_event_bytes = MAX_EVENT_BYTES
        self.journal_id: str | None = None
        self._prior: dict | None = None
        self._prior_open = False
        self._inbox = inbox
        self._v5 = settings.protocol == "5"
        self._in_flight: dict[int, int | None] = {}  # paho mid -> event seq (None: not an event)
        self._subscribe_mid: int | None = None  # the command subscription of the current session
        self._started = False
        self._client = _Client(
            callback_api_version=CallbackAPIVersion.VERSION2,
            # A broker refusing 3.1.1 is a failed connect with its backoff, not paho's own retry
            # with 3.1 from inside loop_read (which would need a socket nobody opened for it).
            reconnect_on_failure=False,
            client_id=table,
            protocol=mqtt.MQTTv5 if self._v5 else mqtt.MQTTv311,
        )
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_publish = self._on_publish
        self._client.on_message = self._on_message
        self._client.on_subscribe = self._on_subscribe
        self._client.on_socket_open = tcp_no_delay  # no Nagle wait on the event path (controller.shared.mqtt_socket)
        self._unreachable: str | None = None  # the last reason the broker could not be reached, logged once
        self._session_up = False  # a CONNACK came since the last disconnect
        if settings.tls:
            self._client.tls_set_context(tls_context(settings.tls_ca_file, settings.tls_cert_file,
                                                     settings.tls_key_file))
        # Reconnects: the delay doubles from min to max, as paho's own loop does it.
        self._min_delay = min(1.0, settings.reconnect_max_delay)
        self._delay = self._min_delay
        self._retry_at: float | None = None     # when to open a connection next (monotonic), None: not due
        self._connecting = False                 # a connector thread is opening one
        self._opened: tuple[Any, str | None] | None = None   # what the connector thread got: (socket, error)
        self._misc_at = 0.0                      # when paho's keepalive check is next due
        self._misc_every = max(0.5, settings.keepalive / 4)
        self._stopping = False

    # -- lifecycle (any thread, once) ----------------------------------------

    def start(self, birth: int, journal_id: str | None = None) -> None:
        """Set the will (offline, this birth number) and connect in the
        background; paho retries until the broker answers."""
        self.birth = birth
        self.journal_id = journal_id
        self.started = round(time.time(), 3)
        self._client.will_set(self.topics.status, self._status(online=False, reason="connection lost"),
                              qos=1, retain=True)
        if self.settings.username is not None:
            self._client.username_pw_set(self.settings.username, self.settings.password)
        log.info("MQTT: connecting to %s:%d as %s, client id %s, birth %d", self.settings.host,
                 self.settings.port, self.settings.username or "(anonymous)", self.table, birth)
        self._client.connect_async(self.settings.host, self.settings.port, keepalive=self.settings.keepalive)
        self._started = True
        self._retry_at = time.monotonic()   # at once: the table thread's next tend() opens it
        self._inbox.wake()

    def stop(self, timeout: float = 5.0, reason: str = "shutdown", say_offline: bool = True) -> None:
        """Clean shutdown (table thread): status offline (same birth number), then disconnect.

        A normal DISCONNECT suppresses the will, so the offline status is
        published explicitly and awaited (briefly: this is shutdown, not the
        event path), serving the socket here since nobody else will. ``say_offline=False``
        leaves the retained status alone (it is another controller's)."""
        if not self._started:
            return
        self._stopping = True
        if say_offline and self._client.is_connected():
            info = self._client.publish(self.topics.status, self._status(online=False, reason=reason),
                                        qos=1, retain=True)
            # A line reset since the last read fails the publish (rc set, is_published() raises).
            if not self._serve_until(lambda: info.rc == mqtt.MQTT_ERR_SUCCESS and info.is_published(), timeout):
                log.warning("MQTT: offline status not confirmed within %g s", timeout)
        if self._client.socket() is not None:
            self._client.disconnect()   # written at once; paho closes the socket after the DISCONNECT
        opened, self._opened = self._opened, None
        if opened is not None and opened[0] is not None:
            opened[0].close()   # a connect that finished after the table's last turn
        self._started = False

    # -- the socket, served by the table thread (controller.table.reactor) ----------

    def socket(self) -> Any:
        """The connected socket to wait on, or None."""
        return self._client.socket() if self._started else None

    def want_write(self) -> bool:
        """Bytes paho could not write yet (the socket's buffer was full)."""
        return self._client.want_write()

    def readable(self) -> None:
        try:
            self._client.loop_read()
            sock = self._client.socket()
            while isinstance(sock, ssl.SSLSocket) and sock.pending():   # TLS: decrypted bytes select cannot see
                self._client.loop_read()
                sock = self._client.socket()
        except Exception:
            self._drop("reading")

    def writable(self) -> None:
        try:
            self._client.loop_write()
        except Exception:
            self._drop("writing")

    def _drop(self, doing: str) -> None:
        """Whatever paho raised while serving the socket (the broker's bytes are input like any
        other): the connection is dropped and opened again with the backoff; the table deals on."""
        log.exception("MQTT: paho failed while %s; the connection is dropped and opened again", doing)
        self._client._sock_close()   # paho has no public close without a DISCONNECT (which would suppress the will)
        if self._session_up or self._retry_at is None:
            self._session_up = False
            self._retry_later()
            self._inbox.put(Disconnected(f"paho failed while {doing}"))

    def due(self) -> float | None:
        """When :meth:`tend` must run next (monotonic), or None: only when something happens."""
        if not self._started:
            return None
        if self._client.socket() is not None:
            return self._misc_at
        return None if self._connecting else self._retry_at

    def tend(self) -> None:
        """After each wait: hand a newly opened socket to paho, keep the session alive (PINGREQ,
        a dead broker noticed), open a connection when a retry is due, write what is waiting."""
        if not self._started:
            return
        if self._opened is not None:
            opened, self._opened = self._opened, None
            self._adopt(*opened)
        now = time.monotonic()
        if self._client.socket() is not None:
            if now >= self._misc_at:
                self._misc_at = now + self._misc_every
                try:
                    self._client.loop_misc()
                except Exception:
                    self._drop("keeping the session alive")
            if self._client.socket() is not None and self._client.want_write():
                self.writable()
        elif not self._connecting and self._retry_at is not None and now >= self._retry_at:
            self._open()

    def _open(self) -> None:
        self._connecting, self._retry_at = True, None
        threading.Thread(target=self._connector, name=f"mqtt-connect-{self.table}", daemon=True).start()

    def _connector(self) -> None:
        """The connector thread: only the new socket is touched here."""
        try:
            result: tuple[Any, str | None] = (self._client.open_socket(), None)
        except Exception as exc:  # OSError, ssl.SSLError, a certificate that does not verify ...
            result = (None, f"{type(exc).__name__}: {exc}")
        if self._stopping and result[0] is not None:
            result[0].close()   # the table stopped meanwhile: nobody will take it
            return
        self._opened = result
        self._inbox.wake()

    def _adopt(self, sock: Any, error: str | None) -> None:
        self._connecting = False
        if self._stopping:
            if sock is not None:
                sock.close()
            return
        if sock is None:
            self._cannot_connect(error or "unknown reason")
            self._retry_later()
            return
        self._client.opened = sock
        try:
            rc = self._client.reconnect()   # takes the socket, sends CONNECT
        except (OSError, ValueError) as exc:
            self._cannot_connect(f"{type(exc).__name__}: {exc}")
            self._retry_later()
            return
        if rc != mqtt.MQTT_ERR_SUCCESS and self._client.socket() is None:
            if self._retry_at is None:   # else paho's on_disconnect has already said why, and retries
                self._cannot_connect(mqtt.error_string(rc))
                self._retry_later()
            return
        self._misc_at = time.monotonic() + self._misc_every

    def _retry_later(self) -> None:
        if self._stopping:
            return
        self._retry_at = time.monotonic() + self._delay
        self._delay = min(self._delay * 2, float(self.settings.reconnect_max_delay))

    def _serve_until(self, done: Any, timeout: float) -> bool:
        """Read and write the socket until ``done()`` or ``timeout``: for shutdown only."""
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            while not done():
                sock, left = self._client.socket(), deadline - time.monotonic()
                if sock is None or left <= 0:
                    return done()
                events = selectors.EVENT_READ | (selectors.EVENT_WRITE if self._client.want_write() else 0)
                selector.register(sock, events)
                ready = selector.select(left)
                selector.unregister(sock)
                for _, mask in ready:
                    if mask & selectors.EVENT_READ:
                        self.readable()
                    if mask & selectors.EVENT_WRITE and self._client.socket() is not None:
                        self.writable()
        return True

    # -- publishing (table thread only) ----------------------------------------

    def publish_birth(self, next_seq: int, devices: Mapping[str, str]) -> None:
        self._send(self.topics.status, self._status(online=True, next_seq=next_seq, devices=devices),
                   retain=True)

    def publish_state(self, state: bytes | Mapping[str, Any]) -> None:
        """The retained state: its JSON as the table made it, or a mapping to encode."""
        self._send(self.topics.state, state if isinstance(state, bytes) else _json(state), retain=True)

    def publish_dice(self, dice: Mapping[str, Any]) -> None:
        self._send(self.topics.dice, _json(dice), retain=True)

    def publish_integrity(self, integrity: Mapping[str, Any]) -> None:
        self._send(self.topics.integrity, _json(integrity), retain=True)

    def publish_event(self, event: Event) -> None:
        if len(event.payload) > self.max_event_bytes:
            # A broker with max_packet_size drops the connection for it, on every resend: the table
            # would be cut off for good. In its place, with its seq, an alarm that says so; the
            # journal keeps the event as it was.
            log.error("MQTT: event %d (%s) is %d bytes, over %d: an alarm goes in its place",
                      event.seq, event.kind, len(event.payload), self.max_event_bytes)
            stand_in = {"seq": event.seq, "ts": time.time(), "table": self.table, "round": None, "kind": "alarm",
                        "data": {"code": "event_too_large", "severity": "critical",
                                 "message": f"event {event.seq} ({event.kind}) is {len(event.payload)} bytes, "
                                            f"over the {self.max_event_bytes} a message may have: it is kept in "
                                            f"the journal and not published",
                                 "card": None, "expected": None, "missing": [], "extra": [],
                                 "action": "read the event from the journal (docs/operations.md)"}}
            self._send(self.topics.event("alarm"), _json(stand_in), seq=event.seq)
            return
        self._send(self.topics.event(event.kind), event.payload, seq=event.seq)

    def reply(self, command: Command, *, ok: bool, request_id: Any = None,
              data: Mapping[str, Any] | None = None, error: str | None = None, repeated: bool = False) -> None:
        """Answer a command on its reply topic, echoing its ``id`` (and the
        MQTT v5 correlation data when it came with some). ``repeated``: the command came
        again and this is its first answer again (controller.table.answered)."""
        body: dict[str, Any] = {"id": request_id, "command": command.name, "ok": ok}
        if repeated:
            body["repeated"] = True
        if ok:
            body["data"] = dict(data or {})
        else:
            body["error"] = error or "refused"
        properties = None
        if self._v5 and command.correlation is not None:
            properties = Properties(PacketTypes.PUBLISH)
            properties.CorrelationData = command.correlation
        self._send(command.reply_topic, _json(body), properties=properties)

    def delivered(self, acks: Iterable[Acked]) -> list[int]:
        """The seqs of the events these PUBACKs confirm (table thread only)."""
        seqs = []
        for ack in acks:
            seq = self._in_flight.pop(ack.mid, None)
            if seq is None:
                continue
            if ack.ok:
                seqs.append(seq)
            else:  # MQTT v5: the broker refused it; it stays in the outbox for the next connect
                log.error("MQTT: broker refused event %d: %s", seq, ack.reason)
        return seqs

    def in_flight(self) -> set[int]:
        """Seqs handed to paho and not yet acknowledged: paho resends them itself."""
        return {seq for seq in list(self._in_flight.values()) if seq is not None}  # list(): one atomic copy

    def in_flight_count(self) -> int:
        """How many publishes (events or not) paho holds unacknowledged: the table's drain window."""
        return len(self._in_flight)

    @property
    def alive(self) -> bool:
        """Started and not stopped: connected, or reconnecting. Not whether the broker is
        reachable: an outage is store and forward, not a reason for the watchdog to restart the
        table. The socket is served by the table thread, whose own liveness the watchdog sees
        (its pings come from that thread)."""
        return self._started

    # -- internals -------------------------------------------------------------

    def _send(self, topic: str, payload: bytes, *, retain: bool = False, seq: int | None = None,
              properties: Properties | None = None) -> None:
        try:
            info = self._client.publish(topic, payload, qos=1, retain=retain, properties=properties)
        except (ValueError, TypeError) as exc:  # a topic or payload MQTT cannot carry: never stop the table
            log.error("MQTT: cannot publish on %s: %s", topic[:120], exc)
            return
        if info.rc == mqtt.MQTT_ERR_QUEUE_SIZE:  # cannot happen with paho's unlimited queue; never lose it silently
            log.error("MQTT: paho refused to queue %s", topic)
            return
        self._in_flight[info.mid] = seq

    def _status(self, *, online: bool, next_seq: int | None = None,
                devices: Mapping[str, str] | None = None, reason: str | None = None) -> bytes:
        body: dict[str, Any] = {"online": online, "table": self.table, "birth": self.birth,
                                "game": self.game, "version": self.version}
        if self.journal_id is not None:
            body.update(journal=self.journal_id, started=self.started)
        if online:
            body.update(devices=dict(devices or {}), next_seq=next_seq, ts=time.time())
        else:
            body["reason"] = reason or "offline"
        return _json(body)

    # -- paho callbacks (network thread: only hand over, never block) ----------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any,
                    properties: Any) -> None:
        if reason_code.is_failure:
            log.error("MQTT: broker refused the connection: %s", reason_code)
            return
        log.info("MQTT: connected to %s:%d%s", self.settings.host, self.settings.port,
                 " with TLS" if self.settings.tls else "")
        self._unreachable = None
        self._session_up = True
        self._delay = self._min_delay
        self._misc_every = max(0.5, client.keepalive / 4)   # a v5 Server Keep Alive may have shortened it
        self._misc_at = min(self._misc_at, time.monotonic() + self._misc_every)
        # The table's own status first: its retained copy comes right after this SUBACK and before
        # the next one (the broker answers a client's packets in order), so by the commands' SUBACK
        # the status as it was before this session is known (Connected.prior).
        self._prior, self._prior_open = None, True
        client.subscribe(self.topics.status, qos=1)
        _, self._subscribe_mid = client.subscribe(self.topics.commands, qos=1)

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, reason_codes: Any,
                      properties: Any) -> None:
        """The broker acknowledged the command subscription: the session is up
        and paho's resends are queued (see the module docstring)."""
        if mid != self._subscribe_mid:
            return
        refused = [str(rc) for rc in reason_codes if rc.is_failure]
        if refused:  # the ACL: the table still publishes, it just hears no commands
            log.error("MQTT: the broker refused the subscription to %s: %s", self.topics.commands,
                      ", ".join(refused))
        self._prior_open = False
        self._inbox.put(Connected(self._prior))

    def _cannot_connect(self, reason: str) -> None:
        (log.warning if reason != self._unreachable else log.debug)(
            "MQTT: cannot connect to %s:%d%s: %s; retrying", self.settings.host, self.settings.port,
            " (TLS)" if self.settings.tls else "", reason)
        self._unreachable = reason

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any,
                       properties: Any) -> None:
        if self._retry_at is not None:   # already told since the last attempt (paho's keepalive check says it twice)
            return
        if not self._session_up and reason_code.is_failure and "keep alive" in str(reason_code).lower():
            # Connected, and no CONNACK in a whole keepalive: something listens that is no broker.
            self._cannot_connect(f"no answer to CONNECT within the keepalive ({self.settings.keepalive} s): "
                                 f"is an MQTT broker listening there?")
        elif not self._session_up and reason_code.is_failure:
            # Closed before the broker accepted us (no CONNACK): a failed connect, not a lost
            # session; e.g. a TLS broker that requires a client certificate and got none.
            self._cannot_connect(f"the broker closed the connection before accepting it ({reason_code}); "
                                 f"a broker that requires a client certificate does this without one")
        else:  # our own clean disconnect is reason 0; anything else is worth a warning
            (log.warning if reason_code.is_failure else log.info)("MQTT: disconnected: %s", reason_code)
        self._session_up = False
        self._retry_later()
        self._inbox.put(Disconnected(str(reason_code)))

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason_code: Any,
                    properties: Any) -> None:
        self._inbox.put(Acked(mid, ok=not reason_code.is_failure, reason=str(reason_code)))

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic == self.topics.status:
            try:
                parsed = json.loads(message.payload)
            except (ValueError, RecursionError):
                parsed = None
            status = parsed if isinstance(parsed, dict) else None
            if self._prior_open:
                self._prior = self._prior or status  # the retained one, before this session's birth
            elif status is not None and status.get("journal") not in (None, self.journal_id):
                self._inbox.put(ForeignStatus(status))  # not our own birth coming back: another controller
            return
        name = message.topic.rsplit("/", 1)[-1]
        correlation = getattr(message.properties, "CorrelationData", None) if self._v5 else None
        reply = self.topics.reply(name)
        if not COMMAND_NAME.fullmatch(name):
            # Never build a topic or an event from a name no command has (a 65,000-character topic
            # would make a reply paho cannot send): the reply goes to cmd/invalid/reply as command
            # "invalid", and nothing of the name is echoed (a refusal quotes nothing it got:
            # controller.table.commands).
            name, reply = "invalid", self.topics.reply("invalid")
        self._inbox.put(Command(name, message.payload, reply, correlation, bool(message.retain)))
