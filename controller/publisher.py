"""The MQTT side of a table: birth and will, retained state, events, commands.

paho-mqtt 2.x runs its network loop on its own thread (``loop_start``).
Its callbacks never block and never touch SQLite: each one only puts a
small item on the table's inbox (:mod:`controller.inbox`). Everything else
is called from the table thread, which owns the journal:

- on every (re)connect the table thread publishes the retained birth on
  ``<prefix>/<table>/status``, the retained state, and every undelivered
  journal event in ``seq`` order (the journal is the outbox; DESIGN.md, MQTT);
- each event goes out at QoS 1 on ``<prefix>/<table>/event/<kind>``; the
  paho message id is remembered against the event's ``seq`` here, and the
  PUBACK comes back as :class:`~controller.inbox.Acked` so that the table
  thread marks the event delivered. Because the mapping is written and
  read on the table thread only, a PUBACK that overtakes ``publish()``'s
  return cannot be lost and no lock is needed;
- commands arrive on ``<prefix>/<table>/cmd/+`` and are queued as
  :class:`~controller.inbox.Command`; replies go to ``.../cmd/<name>/reply``.

paho resends what it still holds unacknowledged after a reconnect (the DUP
flag; it keeps QoS 1 messages across reconnects whether or not the broker
kept the session, and a broker that forgot the session takes the resend as
a new message), so a reconnect republishes from the journal only the events
paho does not hold: a backlog after an outage or a restart, without
duplicating what is already in flight. paho queues those resends while it
handles the CONNACK, right after ``on_connect``; so that nothing the table
publishes can overtake them (``seq`` order), the table hears of the session
(:class:`~controller.inbox.Connected`) only when the broker acknowledges
the command subscription sent from ``on_connect`` (SUBACK): by then paho's
resends are queued ahead of anything new, and the pit's commands reach us.

The birth number (``birth``) is counted per controller start in the
journal; the will, set before connecting, carries the same number, as
Sparkplug's bdSeq does, so the pit can tell which session went away.
"""

from __future__ import annotations

import json
import logging
import queue
import re
import sys
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from controller.config import MqttSection
from controller.inbox import Acked, Command, Connected, Disconnected, ForeignStatus
from controller.journal import Event
from controller.mqtt_socket import tcp_no_delay
from controller.mqtt_tls import tls_context

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
        """Retained: the dice cups' counts and fairness figures (controller.dice_stats)."""
        return f"{self.base}/dice"

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


class Publisher:
    """One table's MQTT client. Construct, then :meth:`start` with the birth number."""

    def __init__(self, settings: MqttSection, table: str, inbox: queue.Queue, *, game: str,
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
        self._client = mqtt.Client(
            callback_api_version=CallbackAPIVersion.VERSION2,
            client_id=table,
            protocol=mqtt.MQTTv5 if self._v5 else mqtt.MQTTv311,
        )
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_publish = self._on_publish
        self._client.on_message = self._on_message
        self._client.on_subscribe = self._on_subscribe
        self._client.on_socket_open = tcp_no_delay  # no Nagle wait on the event path (controller.mqtt_socket)
        self._client.on_connect_fail = self._on_connect_fail
        self._unreachable: str | None = None  # the last reason the broker could not be reached, logged once
        self._session_up = False  # a CONNACK came since the last disconnect
        if settings.tls:
            self._client.tls_set_context(tls_context(settings.tls_ca_file, settings.tls_cert_file,
                                                     settings.tls_key_file))
        # paho doubles the delay from min to max (it takes floats, though typed int).
        self._client.reconnect_delay_set(min_delay=min(1.0, settings.reconnect_max_delay),
                                         max_delay=settings.reconnect_max_delay)

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
        self._client.loop_start()
        self._started = True

    def stop(self, timeout: float = 5.0, reason: str = "shutdown", say_offline: bool = True) -> None:
        """Clean shutdown: status offline (same birth number), then disconnect.

        A normal DISCONNECT suppresses the will, so the offline status is
        published explicitly and awaited (briefly: this is shutdown, not the
        event path). ``say_offline=False`` leaves the retained status alone (it is
        another controller's)."""
        if not self._started:
            return
        if not say_offline:
            self._client.disconnect()
            self._client.loop_stop()
            self._started = False
            return
        info = self._client.publish(self.topics.status, self._status(online=False, reason=reason),
                                    qos=1, retain=True)
        if self._client.is_connected():
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError) as exc:
                log.warning("MQTT: offline status not confirmed: %s", exc)
        self._client.disconnect()
        self._client.loop_stop()
        self._started = False

    # -- publishing (table thread only) ----------------------------------------

    def publish_birth(self, next_seq: int, devices: Mapping[str, str]) -> None:
        self._send(self.topics.status, self._status(online=True, next_seq=next_seq, devices=devices),
                   retain=True)

    def publish_state(self, state: Mapping[str, Any]) -> None:
        self._send(self.topics.state, _json(state), retain=True)

    def publish_dice(self, dice: Mapping[str, Any]) -> None:
        self._send(self.topics.dice, _json(dice), retain=True)

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
        again and this is its first answer again (controller.answered)."""
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
        """Started and paho's network thread still running: connected, or
        reconnecting on its own. Not whether the broker is reachable: an
        outage is store and forward, not a reason for the watchdog to restart
        the table. (paho has no public accessor; ``_thread`` is None once the
        loop has ended, by ``loop_stop()`` or by an exception.)"""
        thread = getattr(self._client, "_thread", None)
        return self._started and thread is not None and thread.is_alive()

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

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        """paho could not open the connection (refused, unreachable, a TLS
        certificate that does not verify). paho calls this inside its ``except
        OSError`` and passes no exception, so it is read from ``sys.exc_info()``.
        Logged as a warning when the reason changes, so a broker away for an hour
        is one line, not one per retry; the table deals on meanwhile."""
        exc = sys.exc_info()[1]
        self._cannot_connect(f"{type(exc).__name__}: {exc}" if exc is not None else "unknown reason")

    def _cannot_connect(self, reason: str) -> None:
        (log.warning if reason != self._unreachable else log.debug)(
            "MQTT: cannot connect to %s:%d%s: %s; retrying", self.settings.host, self.settings.port,
            " (TLS)" if self.settings.tls else "", reason)
        self._unreachable = reason

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any,
                       properties: Any) -> None:
        if not self._session_up and reason_code.is_failure:
            # Closed before the broker accepted us (no CONNACK): a failed connect, not a lost
            # session; e.g. a TLS broker that requires a client certificate and got none.
            self._cannot_connect(f"the broker closed the connection before accepting it ({reason_code}); "
                                 f"a broker that requires a client certificate does this without one")
        else:  # our own clean disconnect is reason 0; anything else is worth a warning
            (log.warning if reason_code.is_failure else log.info)("MQTT: disconnected: %s", reason_code)
        self._session_up = False
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
            # Never build a topic or an event from an unbounded name (a 65,000-character topic
            # would make a reply paho cannot send): the reply goes to cmd/invalid/reply, and the
            # name is shown cut short.
            shown = name[:32].encode("ascii", "replace").decode() + (f"... ({len(name)} characters)"
                                                                      if len(name) > 32 else "")
            name, reply = shown, self.topics.reply("invalid")
        self._inbox.put(Command(name, message.payload, reply, correlation, bool(message.retain)))
