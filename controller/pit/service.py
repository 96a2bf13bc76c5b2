"""The pit service's MQTT side: every table under a prefix, checked, handed to the observers
(the board's live picture), archived, and its gaps asked for (docs/pit.md).

Threads. paho's network thread only turns each message into an item on the service's inbox
(never blocking, never raising); one service thread takes the items in arrival order, checks
them, calls the observers, stores them in batches and asks for replays. Its timers (a gap's
grace, a replay's deadline, the database's retry, the service's own status) are deadlines the
inbox wait runs up to, never polls.

Nothing is acknowledged before it is stored. paho's manual acknowledgement (``manual_ack``) lets
the PUBACK of an event wait for the commit of its batch, in arrival order (MQTT wants PUBACKs in
that order); the session is persistent (clean start off, a session expiry), so a service killed
or cut off gets again what it had not acknowledged, and what arrived meanwhile. While the
database is away the events wait in memory, bounded by the MQTT v5 Receive Maximum the service
announces: past it the broker holds the rest.

Several services share one site through a shared subscription (``$share/<group>/...``) on the
events; status, state, the integrity figures (``dice``, ``integrity``) and replay replies go to
every service. The figures are handed to the observers only (the board): nothing of them is
archived, since what they flag is an ``alarm`` event, archived as every event. The archive decides what is
missing (controller.pit.archive), so an event another service stored is no gap.

Bad input (controller.pit.checks) is logged (one warning each, at most a few a second), counted
(:meth:`PitService.counters`, and the retained ``<prefix>/_pit/<client id>/status``) and, for an
event topic, stored in ``rejects``; the service goes on, and so does every valid message.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import queue
import re
import secrets
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.subscribeoptions import SubscribeOptions

from controller.pit import acks
from controller.pit.archive import Archive, ArchivedEvent, ArchiveDown, ArchiveError, Batch, Reject
from controller.pit.checks import (
    CATEGORIES,
    FIGURES,
    IMPLAUSIBLE_SEQ,
    NOT_STORABLE,
    SEQ_BACKWARDS,
    UNKNOWN_TABLE,
    Bad,
    check_event,
    check_reply,
    check_retained,
    parse_object,
    parse_topic,
)
from controller.pit.lines import REPLAY_LIMIT
from controller.pit.replays import (
    REPLAY_TIMEOUT,
    REPLY_TIMEOUT,
    RETRY_DELAYS,
    Request,
    TableReplays,
    missing_in,
    read_refusal,
)
from controller.pit.seqs import SeqRuns
from controller.pit.watch.command import MAX_AHEAD, implausible
from controller.shared.mqtt_socket import tcp_no_delay

log = logging.getLogger(__name__)

Observer = Callable[[str, str, dict], None]
"""``observer(table, kind, body)``: kind ``status``, ``state`` or ``event`` (docs/pit.md, "Observers");
``dice`` or ``integrity``: the table's retained integrity figures, checked against their schemas (``{}``
when cleared);
``pit`` with a pit service's client id for ``table``: that service's status, its health (issue 21.4)."""

PIT = "_pit"
"""The pit services' own level under the prefix: ``<prefix>/_pit/<client id>/status``, ``<prefix>/_pit/ack``."""
BOARD_COMMANDS = ("void", "resume")
"""The commands a pit service sends a table for its board's users (issue 22), besides cmd/replay."""
GAP_TABLES = 200
"""Tables whose gaps a status lists at most (those missing the most seqs first)."""
_CLIENT_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")

_DAMAGED = re.compile(r"event seq (\d+) cannot be read from the journal")


@dataclass(frozen=True)
class Tuning:
    """The service's timings and bounds; the defaults suit a site (the tests shorten some)."""

    grace: float = 3.0
    """Seconds a hole in a table's seqs may stay before it is a gap: another service sharing the
    subscription may be storing those seqs, and a table's events may cross its retained state."""
    receive_maximum: int = 2000
    """Unacknowledged messages the broker may send at once (MQTT v5): the events held in memory
    while the database is away are at most this many."""
    session_expiry: int = 7 * 86400
    """Seconds the broker keeps the session of a service with an archive (and queues its events)
    while it is away; a service without one has no session kept (clean start, no expiry)."""
    batch_max: int = 500
    """Messages taken off the inbox for one transaction at most."""
    status_interval: float = 5.0
    """Seconds between two publications of the service's own status, at most one per interval."""
    reply_timeout: float = REPLY_TIMEOUT
    replay_timeout: float = REPLAY_TIMEOUT
    retry_delays: tuple[float, ...] = RETRY_DELAYS
    replay_limit: int = REPLAY_LIMIT
    db_retry_delays: tuple[float, ...] = (0.5, 1.0, 2.0, 5.0)
    """Seconds before connecting to the database again after it was lost; the last repeats."""
    vouch_wait: float = 5.0
    """Seconds an event waits for its table's word before it is refused: a table with no status
    yet (the retained status can come after a persistent session's queued events), or a seq more
    than MAX_AHEAD past anything the table vouched for (a service the broker dropped messages for,
    or whose session it lost, gets the table's next event before the state that vouches for it)."""
    hold_most: float = 60.0
    """Seconds at most an event waits for its table's word while the re-reads that would bring it do
    not come back (a broker dropping this service's messages drops its re-reads' answers too)."""
    claim: float = 30.0
    """Seconds a service's claim to ask a table for its gaps lasts (controller.pit.archive,
    claim_replays): renewed every third of it while the table's gaps are open, taken over by another
    service of the group once it lapses (the one asking was killed)."""
    keepalive: int = 30


class CommandFailed(Exception):
    """A board's command or acknowledgement could not be sent, or the table did not answer in time:
    one line for the person who asked (nothing is known to have been done)."""


@dataclass
class _Waiter:
    """A board's command waiting for its table's reply."""

    done: threading.Event = field(default_factory=threading.Event)
    reply: dict | None = None


class PitError(Exception):
    """The service cannot start: one line for the operator, and the exit status for it (2: an
    option, a URL or the database's schema must change; 1: the broker or the database may come)."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


@dataclass
class _Ack:
    """A QoS 1 message's PUBACK, owed once its handling is done (``ready``), in arrival order."""

    mid: int
    qos: int
    gen: int
    ready: bool = False


@dataclass
class _Message:
    topic: str
    payload: bytes
    ack: _Ack | None


@dataclass
class _Pending:
    """An event waiting for the archive, with the PUBACKs of every copy that came meanwhile."""

    event: ArchivedEvent
    acks: list[_Ack]
    since: float = field(default_factory=time.time)
    """When it arrived (wall clock): the archive's lag is how long the oldest has waited."""


@dataclass
class _Table:
    name: str
    known: bool = False
    game: str | None = None
    online: bool | None = None
    """What its last status says; None until one came (a table known from the archive at start)."""
    birth: int | None = None
    vouched: int = 0
    """The highest seq the table has vouched for (its status's next_seq - 1, its state's seq)."""
    last_archived: int = 0
    """The highest seq archived, as far as this service knows."""
    high: int = 0
    """The highest seq of an event this process accepted."""
    seen: SeqRuns = field(default_factory=SeqRuns)
    """Seqs handed to the observers (each once per process)."""
    stored: SeqRuns = field(default_factory=SeqRuns)
    """Seqs known to be in the archive; its floor is the table's ``archived_to``."""
    check_at: float | None = None
    horizon: int = 0
    """The highest seq seen when the check was scheduled: holes up to it are looked for."""
    vouch_mark: int = 0
    high_mark: int = 0
    open: list[tuple[int, int]] = field(default_factory=list)
    replays: TableReplays = field(default_factory=TableReplays)
    damaged: dict[int, str] = field(default_factory=dict)
    """Seqs the table said it cannot read from its journal (its journal_row_damaged alarms)."""
    unfillable: int = 0
    """Seqs of it the archive records as unfillable (as of this service's last look)."""
    why: str = ""
    """Why its open gaps are still open, as last learned: the table's refusal, its silence, offline."""
    said: bool = False
    """That its gaps stay open was logged as an error; said again, as mended, once they are filled."""
    claimed_at: float | None = None
    """When this service last claimed (or renewed its claim) to ask the table for its gaps; None
    while it holds no claim."""
    held: list[_Message] = field(default_factory=list)
    held_until: float = 0.0
    held_since: float = 0.0
    """When the oldest held event came: it waits until a re-read of the broker's retained messages
    asked after it has come back (or Tuning.hold_most)."""
    status: dict = field(default_factory=dict)
    """Its last status, checked."""
    told: dict[str, dict] = field(default_factory=dict)
    """The last status and state handed to the observers: the same one again (the service asked the
    broker again for the retained ones, _maybe_reread) is nothing new to them, and is not handed on."""


_STOP = object()
MOST_HELD = 10_000
"""Events waiting for their table's word (a status, a state), held at once; more are refused at once."""
MOST_DAMAGED = 1000
OFFLINE = "the table is offline: asked again at its next birth"
ASKED_BY = "being asked for by another service of the group,"
MOST_LISTED = 100
"""Tables named in the service's status as lacking seqs, at most."""
WARN_BURST = 50
WARN_RATE = 5.0


class PitService:
    """One pit service: ``start()``, ``add_observer()``, ``counters()``, ``stop()``."""

    def __init__(self, host: str, port: int, prefix: str = "casino", db_url: str | None = None,
                 group: str | None = "tablectl-pit", client_id: str = "tablectl-pit", *,
                 username: str | None = None, password: str | None = None, tls: ssl.SSLContext | None = None,
                 tuning: Tuning = Tuning()) -> None:
        self.host, self.port, self.prefix = host, port, prefix
        self.group = group
        self.broker_risks: list[str] = []
        """What in the broker's settings makes this service lose events (controller.pit.broker_check),
        said at start and in the status."""
        self.client_id = client_id
        self.requester = group or client_id
        """The ``requester`` of this service's ``cmd/replay`` (issue 27): the table keeps one queue
        and one budget of replays per requester and serves them in turns, so that a client flooding
        it with requests cannot keep the archive's gaps open. In a group it is the group's name, the
        same for every service of it: a replay goes out on the table's event topics and the broker
        deals it across the group into the one archive, so the group is what a replay serves, and
        it should weigh as one requester beside a watch or another site's archive, not as one per
        service. The archive's claim has one service of a group ask a table at a time; when the
        claim passes (the one asking was killed), the requests it left at the table are for the same
        gaps and stay ahead of the new asker's in the group's one queue, instead of the group
        holding two queues, two budgets and two turns at that table. A service without a group
        hears every event itself: it is its own requester, by its client id. Both are checked
        (tablectl pit) to be letters, digits, ``.``, ``_`` and ``-``, at most 64, as the command's
        schema wants (controller/shared/data/schemas/command.json, ``replay.requester``)."""
        self.tuning = tuning
        self.archive = Archive(db_url) if db_url else None
        self.status_topic = f"{prefix}/_pit/{client_id}/status"
        self._observers: list[Observer] = []
        self._inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._tables: dict[str, _Table] = {}
        self._acks: deque[_Ack] = deque()
        self._pending: dict[tuple[str, int], _Pending] = {}
        self._rejects: list[tuple[Reject, _Ack | None]] = []
        self._statuses: dict[str, dict] = {}
        self._held = 0
        self._touched: set[str] = set()
        self._db_up = self.archive is not None
        self._db_failures = 0
        self._db_retry_at: float | None = None
        self._status_at = 0.0
        self._status_sent: dict[str, Any] | None = None
        self._reread_at: float | None = None
        self._reread_last = -1e9
        self._reread_idle = False
        self._reread_mark = 0
        """The number of the last re-read, carried by this service's own status published after it
        (``reread``): its coming back means every retained message the re-read asked for is in."""
        self._reread_asked_at: float | None = None
        self._reread_done_at = -1e9
        """When the last re-read whose mark came back was asked (monotonic)."""
        self._last_message_at = 0.0
        self._pit_statuses = f"{self.prefix}/{PIT}/"
        self._health_told: dict[str, Any] | None = None
        self._gaps: dict[str, dict[str, list[int]]] | None = None
        """Each table's gaps not filled, as the archive holds them (every instance's), read at most
        once a status interval; None before the first read, or without an archive."""
        self._gaps_at = 0.0
        self._commit_lag = 0.0
        """The longest an event waited for its commit since the last status (seconds)."""
        self._ids = itertools.count(1)
        self._start_id = secrets.token_hex(4)
        """In every request id: a reply queued in the session for an earlier start of this client
        id is never taken for this start's request of the same number."""
        self._started = time.time()
        self._count_lock = threading.Condition()
        self._counts: dict[str, int] = dict.fromkeys(
            ("received", "events_archived", "events_duplicate", "events_held", "rejected", *CATEGORIES,
             "bad_status", "bad_state", "bad_reply", "bad_dice", "bad_integrity", "renumbered", "birth_backwards", "gaps_opened", "gaps_filled",
             "gaps_unfillable", "gaps_open", "replay_requests", "replay_refused", "replay_failed", "db_lost",
             "observer_errors", "internal_errors", "mqtt_connects", "sessions_lost", "acks", "bad_ack", "board_commands"),
            0)
        self._ack_rows: list[tuple[acks.Ack, _Ack | None]] = []
        """Acknowledgements (from any board, through the broker) waiting for the archive."""
        self._waiters: dict[tuple[str, str, str], _Waiter] = {}
        self._waiters_lock = threading.Lock()
        self._gen_lock = threading.Lock()
        self._gen = 0
        self._connected = False
        self._answered = threading.Event()
        self._refused: str | None = None
        self._thread: threading.Thread | None = None
        self._stopped = False
        self.migrated: list = []
        """The migrations this start applied (controller.pit.archive.Migration)."""
        self.schema_version = 0
        self.client = self._make_client(username, password, tls)
        self._warned_at = time.monotonic()
        self._warned_skipped = 0
        self._warn_tokens = float(WARN_BURST)

    # -- public ----------------------------------------------------------------------

    def add_observer(self, fn: Observer) -> None:
        """``fn(table, kind, body)`` for each accepted status, state, integrity figures (``dice``,
        ``integrity``) and (new to this process) event, on the service thread: it must not block."""
        self._observers.append(fn)

    def start(self, timeout: float = 10.0) -> PitService:
        """Open the archive (migrating it), connect and subscribe; :class:`PitError` if any fails."""
        if self.archive is not None:
            try:
                self.migrated = self.archive.open()
                self.schema_version = self.archive.version()
                known = self.archive.known_tables()
            except ArchiveError as exc:
                self.archive.close()
                raise PitError(str(exc), 1 if isinstance(exc, ArchiveDown) else 2) from None
            now = time.monotonic()
            for info in known.values():
                t = self._table(info.table)
                t.known, t.game, t.birth = True, info.game, info.birth
                t.last_archived = t.vouched = info.last_seq
                t.stored.forget(info.archived_to)
                t.check_at, t.horizon = now + self.tuning.grace, max(info.last_seq, info.archived_to)
        for line in self.broker_risks:
            log.warning("pit service: %s", line)
        self._thread = threading.Thread(target=self._run, name="tablectl-pit", daemon=True)
        self._thread.start()
        # An archiving instance keeps its session (the broker queues its share while it is away:
        # nothing is lost). One without an archive (a board) has nothing to catch up on: a session
        # kept for it would only make the broker queue every event for days for nobody.
        persistent = self.archive is not None
        props = Properties(PacketTypes.CONNECT)
        if persistent:
            props.SessionExpiryInterval = self.tuning.session_expiry
        props.ReceiveMaximum = self.tuning.receive_maximum
        try:
            self.client.connect(self.host, self.port, keepalive=self.tuning.keepalive, clean_start=not persistent,
                                properties=props)
        except (OSError, ValueError) as exc:
            self._halt()
            raise PitError(f"cannot reach the broker at {self.host}:{self.port}: {_why(exc)}") from None
        self.client.loop_start()
        if not self._answered.wait(timeout) or self._refused is not None:
            why = self._refused or f"no answer within {timeout:g} s"
            self.client.loop_stop()
            self._halt()
            raise PitError(f"the broker at {self.host}:{self.port} did not let the pit service subscribe: {why}")
        return self

    def stop(self) -> None:
        """Store what can be stored, say offline, disconnect. Unstored events stay unacknowledged:
        the broker sends them again to the next start. A second call does nothing."""
        if self._stopped:
            return
        self._stopped = True
        self._halt()
        offline = self._own_status(online=False)
        self.client.disable_logger()  # paho's last turn after the disconnect logs "not connected" at ERROR
        with contextlib.suppress(RuntimeError, ValueError):
            self.client.publish(self.status_topic, json.dumps(offline), qos=1, retain=True).wait_for_publish(2.0)
        self.client.disconnect()
        self.client.loop_stop()

    def acknowledge(self, ack: acks.Ack, timeout: float = 5.0) -> None:
        """Publish a board's acknowledgement on ``<prefix>/_pit/ack`` (QoS 1) and wait for the
        broker to take it; every pit service (this one too) then archives it once and hands it to
        its board (observer kind ``ack``). :class:`CommandFailed` when the broker did not take it.
        Any thread (the board's pool)."""
        self._publish(f"{self.prefix}/{acks.TOPIC}", ack.to_json(), timeout, "the acknowledgement")

    def command(self, table: str, name: str, args: dict[str, Any], timeout: float = 8.0) -> dict[str, Any]:
        """Send a board user's ``cmd/<name>`` (void, resume) to ``table`` and wait for its reply
        (the reply's JSON); :class:`CommandFailed` when it could not be sent or no reply came in
        time. ``args`` carries the request's ``id``. Any thread (the board's pool)."""
        if name not in BOARD_COMMANDS:
            raise ValueError(f"a board sends no cmd/{name}")
        key = (table, name, str(args["id"]))
        waiter = _Waiter()
        with self._waiters_lock:
            self._waiters[key] = waiter
        try:
            start = time.monotonic()
            self._publish(f"{self.prefix}/{table}/cmd/{name}", args, timeout, f"cmd/{name}")
            self._count("board_commands")
            if not waiter.done.wait(max(0.0, timeout - (time.monotonic() - start))):
                raise CommandFailed(f"table {table} did not answer cmd/{name} within {timeout:g} s: it may still "
                                    f"carry it out (its round number guards against a second time); look at the "
                                    f"table before sending it again")
            assert waiter.reply is not None
            return waiter.reply
        finally:
            with self._waiters_lock:
                self._waiters.pop(key, None)

    def _publish(self, topic: str, body: dict[str, Any], timeout: float, what: str) -> None:
        if not self._connected:   # paho would keep it and send it whenever the broker is back: not later than asked
            raise CommandFailed(f"{what} was not sent: the pit service is not connected to the broker")
        info = self.client.publish(topic, json.dumps(body), qos=1)
        try:
            info.wait_for_publish(timeout)
        except (RuntimeError, ValueError) as exc:
            raise CommandFailed(f"{what} was not sent: {exc}") from None
        if not info.is_published():
            raise CommandFailed(f"the broker did not take {what} within {timeout:g} s")

    def counters(self) -> dict[str, int]:
        with self._count_lock:
            return dict(self._counts)

    def wait(self, predicate: Callable[[dict[str, int]], bool], timeout: float) -> bool:
        """Block until ``predicate(counters)`` holds (woken at each change), or the timeout."""
        end = time.monotonic() + timeout
        with self._count_lock:
            while not predicate(self._counts):
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._count_lock.wait(left)
            return True

    # -- paho's thread -----------------------------------------------------------------

    def _make_client(self, username: str | None, password: str | None, tls: ssl.SSLContext | None) -> mqtt.Client:
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=self.client_id, protocol=mqtt.MQTTv5,
                             manual_ack=True)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_subscribe = self._on_subscribe
        client.on_message = self._on_message
        client.on_socket_open = tcp_no_delay
        client.suppress_exceptions = True
        client.enable_logger(log)
        client.reconnect_delay_set(1, 10)
        if username is not None:
            client.username_pw_set(username, password)
        if tls is not None:
            client.tls_set_context(tls)
        client.will_set(self.status_topic, json.dumps(self._own_status(online=False)), qos=1, retain=True)
        return client

    def _topics(self) -> list[tuple[str, SubscribeOptions]]:
        events = f"{self.prefix}/+/event/#"
        if self.group:
            events = f"$share/{self.group}/{events}"
        topics = [(f"{self.prefix}/+/status", SubscribeOptions(qos=1)), (f"{self.prefix}/+/state", SubscribeOptions(qos=1)),
                  (events, SubscribeOptions(qos=1)), (f"{self.prefix}/+/cmd/replay/reply", SubscribeOptions(qos=1)),
                  (f"{self.prefix}/{PIT}/+/status", SubscribeOptions(qos=1)),
                  (f"{self.prefix}/{acks.TOPIC}", SubscribeOptions(qos=1)),
                  *((f"{self.prefix}/+/cmd/{name}/reply", SubscribeOptions(qos=1)) for name in BOARD_COMMANDS),
                  *((f"{self.prefix}/+/{what}", SubscribeOptions(qos=1)) for what in FIGURES)]
        if self.archive is not None:  # it asks for replays, and hears its requests come back (replays.Request)
            topics.append((f"{self.prefix}/+/cmd/replay", SubscribeOptions(qos=1)))
        return topics

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:
            self._refused = str(reason_code)
            log.error("pit service: the broker refused the connection: %s", reason_code)
            self._answered.set()
            return
        with self._gen_lock:
            self._gen += 1
            self._connected = True
        client.subscribe(self._topics())
        self._inbox.put(("connected", bool(getattr(flags, "session_present", False))))

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, reason_codes: list, properties: Any) -> None:
        refused = [(t, str(rc)) for (t, _), rc in zip(self._topics(), reason_codes, strict=False) if rc.is_failure]
        if refused:
            self._refused = "; ".join(f"{t}: {rc}" for t, rc in refused)
            log.error("pit service: the broker refused the subscription to %s", self._refused)
        self._answered.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any,
                       properties: Any) -> None:
        with self._gen_lock:
            self._gen += 1  # PUBACKs owed on this connection are never sent on the next
            self._connected = False
        self._inbox.put(("disconnected", str(reason_code)))

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        """Onto the inbox, nothing else: never blocks, never raises (paho's thread would end)."""
        try:
            try:
                topic = message.topic
            except UnicodeDecodeError:
                topic = message._topic.decode("utf-8", "replace")
            ack = _Ack(message.mid, message.qos, self._gen) if message.qos > 0 else None
            self._inbox.put(_Message(topic, bytes(message.payload), ack))
        except Exception:
            log.exception("pit service: a message could not be queued")

    # -- the service thread ------------------------------------------------------------

    def _halt(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            self._inbox.put(_STOP)
            self._thread.join(30)
        if self.archive is not None:
            self.archive.close()

    def _run(self) -> None:
        stopping = False
        while not stopping:
            wake = self._next_wake()
            try:
                items = [self._inbox.get(timeout=None if wake is None else max(0.0, wake - time.monotonic()))]
            except queue.Empty:
                items = []
            while items and len(items) < self.tuning.batch_max:
                try:
                    items.append(self._inbox.get_nowait())
                except queue.Empty:
                    break
            for item in items:
                if item is _STOP:
                    stopping = True
                    continue
                try:
                    self._handle(item)
                except Exception:
                    self._count("internal_errors")
                    log.exception("pit service: handling %r failed; going on", item if not isinstance(item, _Message)
                                  else item.topic[:200])
                    if isinstance(item, _Message) and item.ack is not None and not any(
                            item.ack in p.acks for p in self._pending.values()):
                        item.ack.ready = True  # owed for ever, it would hold every later PUBACK back
            try:
                self._flush()
                self._due(time.monotonic())
                self._maybe_reread(time.monotonic())
                self._send_acks()
                self._maybe_publish_status(time.monotonic(), force=False)
            except Exception:
                self._count("internal_errors")
                log.exception("pit service: a step failed; going on")

    def _handle(self, item: Any) -> None:
        if isinstance(item, _Message):
            if not (item.topic.startswith(self._pit_statuses) and item.topic.endswith("/status")):
                # A pit service's status (this one's own, back from the broker, or another's) is
                # neither counted nor activity: counted, each would change the status it comes back
                # to, a status published again every interval for ever (two services ping-ponging);
                # as activity, the service would never be idle, and never ask the broker again for
                # what it may have dropped (_maybe_reread).
                self._last_message_at = time.monotonic()
                self._count("received")
            if item.ack is not None:
                self._acks.append(item.ack)
            try:
                self._message(item)
            except ArchiveError as exc:
                self._db_lost(exc)
        elif item[0] == "connected":
            self._count("mqtt_connects")
            log.info("pit service: connected to %s:%d (session %s)", self.host, self.port,
                     "resumed" if item[1] else "new")
            if self.archive is not None and not item[1] and self.counters()["mqtt_connects"] > 1:
                # The broker forgot the session it had (restarted without persistence, or past its
                # persistent_client_expiration): whatever it queued for this service is gone (issue 21.2).
                self._count("sessions_lost")
                log.warning("pit service: the broker kept no session for this service (restarted without persistence, "
                            "or the session expired): what it held for the service meanwhile is lost; the gaps are "
                            "asked of the tables' journals (controller.pit.broker_check)")
            self._maybe_publish_status(time.monotonic(), force=True)
            self._reread_soon()  # what the broker queued for it meanwhile may have overflowed
            for t in self._tables.values():
                t.replays.unheard()  # it may have been lost with the old connection
                self._pump(t, time.monotonic())
        elif item[0] == "disconnected":
            log.warning("pit service: disconnected from %s:%d (%s); reconnecting", self.host, self.port, item[1])
            self._maybe_publish_status(time.monotonic(), force=True)   # the board says the broker is away

    def _next_wake(self) -> float | None:
        """The nearest deadline. A table's checks and requests wait while the database is away (its
        retry is the deadline then), so a deadline passed and not acted on never spins the loop."""
        now = time.monotonic()
        unheard = any(t.replays.out is not None and t.replays.out.phase == "sent" for t in self._tables.values())
        times = [self._db_retry_at, self._status_at or None, self._reread_at,
                 self._last_message_at + self.tuning.grace if self._reread_idle or unheard else None]
        for t in self._tables.values():
            times.append(t.held_until if t.held else None)
            if self._db_up:
                times += [t.check_at, t.replays.wake_at(now),
                          t.claimed_at + self.tuning.claim / 3 if t.claimed_at is not None else None]
        found = [w for w in times if w is not None]
        return min(found) if found else None

    # -- messages ------------------------------------------------------------------------

    def _message(self, msg: _Message) -> None:
        if msg.topic.startswith(f"{self.prefix}/{PIT}/"):
            return self._pit_message(msg)
        try:
            topic = parse_topic(self.prefix, msg.topic)
        except Bad as bad:
            if "/event/" in msg.topic:
                return self._reject(msg, None, bad)
            topic = None
            what, why = _what(msg.topic), bad.reason
        if topic is not None and topic.what == "event":
            return self._event(self._table(topic.table), topic.kind or "", msg)
        self._done(msg.ack)
        if topic is not None and topic.what == "request":
            return self._heard(topic.table, msg.payload)
        try:
            if topic is None:
                raise Bad("", why)
            what = topic.what
            payload = parse_object(msg.payload)
            if not payload:
                # An empty retained status: the table was taken off the floor (its status cleared);
                # the observers drop it (the board's tile, watch's line). The archive keeps its rows.
                if what == "status":
                    if (gone := self._tables.get(topic.table)) is not None:
                        gone.told.clear()
                    self._tell(topic.table, "status", {})
                elif what in FIGURES:   # the figures cleared with the table, or by hand: the board drops them
                    self._figures(topic.table, what, {})
                return None
            if what == "status":
                return self._status(self._table(topic.table, create=check_retained("status", topic.table, payload)))
            t = self._tables.get(topic.table)  # a state or a reply of a table never heard of creates nothing
            if what == "state":
                return self._state(t, topic.table, check_retained("state", topic.table, payload))
            if what in FIGURES:
                return self._figures(topic.table, what, check_retained(what, topic.table, payload))
            return self._reply(t, check_reply(payload), topic.kind or "replay") if t is not None else None
        except Bad as bad:
            self._count(f"bad_{what}")
            self._warn("pit service: %s on %s dropped: %s", what, msg.topic[:200], bad.reason)

    def _pit_message(self, msg: _Message) -> None:
        """A pit service's retained status (this one's own too, back from the broker): handed to the
        observers as ``pit``, so that a board shows every instance's health, a board-only one too.
        An acknowledgement: checked, archived once, handed to the observers as ``ack``."""
        if msg.topic == f"{self.prefix}/{acks.TOPIC}":
            return self._ack_message(msg)
        rest = msg.topic[len(self.prefix) + len(PIT) + 2:].split("/")
        self._done(msg.ack)
        try:
            if len(rest) != 2 or rest[1] != "status" or not _CLIENT_ID.fullmatch(rest[0]):
                raise Bad("", "not a pit service's status topic")
            payload = parse_object(msg.payload)
            if payload and payload.get("client_id") != rest[0]:
                raise Bad("", "its client_id is not its topic's")
        except Bad as bad:
            self._count("bad_status")
            return self._warn("pit service: %s dropped: %s", msg.topic[:200], bad.reason)
        if rest[0] == self.client_id and payload:
            if self._reread_asked_at is not None and payload.get("reread") == self._reread_mark:
                self._reread_done_at, self._reread_asked_at = self._reread_asked_at, None   # _due does the rest
            return None   # told first hand, with the broker's state (_maybe_publish_status)
        self._tell(rest[0], "pit", payload)

    def _ack_message(self, msg: _Message) -> None:
        try:
            ack = acks.parse(parse_object(msg.payload))
        except (Bad, acks.AckError) as exc:
            self._done(msg.ack)
            self._count("bad_ack")
            return self._warn("pit service: an acknowledgement on %s dropped: %s", msg.topic[:200],
                              exc.reason if isinstance(exc, Bad) else exc)
        self._count("acks")
        if self.archive is not None:
            self._ack_rows.append((ack, msg.ack))   # acknowledged to the broker once stored
        else:
            self._done(msg.ack)
        self._tell(ack.table, "ack", ack.to_json())

    def _event(self, t: _Table, kind: str, msg: _Message, final: bool = False) -> None:
        """An event checked, handed to the observers, and made to wait for the archive. One whose
        table has not given its word for it yet (no status; a seq past anything it vouched for)
        waits for it (Tuning.vouch_wait); ``final``: it has waited, and is refused if it still has none."""
        now = time.monotonic()
        try:
            env = parse_object(msg.payload)
            if not t.known:
                raise _unknown(t.name)
            event = check_event(t.name, kind, env, t.game, msg.payload)
            # The table's word (its birth's next_seq, its state's seq: every service of a group gets
            # them all), the archive's highest seq when this service started, and the events it took.
            limit = max(t.vouched, t.high, t.last_archived)
            if implausible(event.seq, limit):
                raise Bad(IMPLAUSIBLE_SEQ, f"seq {event.seq} is not believable: table {t.name} has vouched for seq "
                                           f"{limit} at most, and an event is never {MAX_AHEAD} past that")
        except Bad as bad:
            if bad.category in (IMPLAUSIBLE_SEQ, UNKNOWN_TABLE):
                # The table's word may be among what the broker dropped for this service (past its
                # max_queued_messages, a status goes with the events): asked for again.
                self._want_reread(now)
            if not final and bad.category in (UNKNOWN_TABLE, IMPLAUSIBLE_SEQ):
                return self._hold(t, msg, now, bad)
            return self._reject(msg, t.name, bad)
        t.high = max(t.high, event.seq)
        self._touched.add(t.name)
        if t.seen.add(event.seq):
            dropped = t.seen.trim()
            if dropped:
                t.seen.raise_floor(dropped[-1][1])  # the oldest runs count as handed over
            self._tell(t.name, "event", env)
        if kind == "alarm":
            self._note_damaged(t, env)
        if self.archive is None:
            return self._done(msg.ack)
        key = (t.name, event.seq)
        pending = self._pending.get(key)
        if pending is None:
            self._pending[key] = _Pending(event, [msg.ack] if msg.ack else [])
        elif pending.event.envelope != event.envelope and json.loads(pending.event.envelope) != env:
            return self._reject(msg, t.name, Bad(SEQ_BACKWARDS, f"seq {event.seq} of table {t.name} came twice "
                                                                f"with different payloads; the first is kept"))
        else:  # a copy of one still waiting for the archive
            self._count("events_duplicate")
            if msg.ack:
                pending.acks.append(msg.ack)
        if t.replays.progress(event.seq, now):
            self._schedule_check(t, now)

    def _want_reread(self, now: float) -> None:
        """An event past anything its table vouched for: this service missed the table's word (the
        broker dropped messages for it) or the event is not the table's. The table's word is on the
        broker, retained: asked for again now, or at most once a Tuning.vouch_wait."""
        at = max(now, self._reread_last + self.tuning.vouch_wait)
        self._reread_at = at if self._reread_at is None else min(self._reread_at, at)

    def _unheard(self, out: Request, now: float) -> bool:
        """A request not back to this service a grace after it went, with nothing queued before it:
        lost on the way (replays.UNHEARD_TIMEOUT bounds the wait when the service is never idle)."""
        return out.phase == "sent" and now >= out.at + self.tuning.grace and self._idle(now)

    def _idle(self, now: float) -> bool:
        """No message came for a grace: the broker has nothing queued for this service. Nothing is
        waiting in the service's own inbox either: ``_last_message_at`` is when the service thread
        last took a message, and a batch's commit on a loaded database can take longer than a grace
        while messages pile up behind it (the service then took itself for idle, asked the broker
        again for every retained status and state in mid-stream, and took its own request, still in
        the inbox, for one lost on the way)."""
        return now >= self._last_message_at + self.tuning.grace and self._inbox.empty()

    def _reread_soon(self) -> None:
        """Ask again once no message came for a grace (caught up with what the broker had queued)."""
        self._reread_idle, self._last_message_at = True, time.monotonic()

    def _maybe_reread(self, now: float) -> None:
        """Every table's retained status and state asked for again (subscribing again makes the broker
        send them), when wanted: after an event past its table's word, and once the service is idle
        after a time it may have missed messages in (a new connection, the database back): a broker
        drops what it cannot queue for a session (max_queued_messages), the table's last state with
        the rest, and a table that then goes quiet says nothing more until its next birth."""
        idle = self._reread_idle and self._idle(now)
        due = self._reread_at is not None and now >= self._reread_at
        if not (idle or due) or not self._connected or self.archive is None:
            return
        self._reread_at, self._reread_last, self._reread_idle = None, now, False
        self.client.subscribe(self._topics()[:2])
        # Then this service's own status, marked: the broker sends a client's messages in order, so
        # once it is back, so is every retained status and state the subscription asked for.
        self._reread_mark += 1
        self._reread_asked_at = now
        self._maybe_publish_status(now, force=True)
        log.info("pit service: asked the broker again for every table's retained status and state (%s)",
                 "an event past its table's word" if due else "after a time it may have missed messages in")

    def _hold(self, t: _Table, msg: _Message, now: float, bad: Bad) -> None:
        """An event its table has not vouched for yet: it waits for the table's status or state (see
        Tuning.vouch_wait), or is refused for ``bad`` past :data:`MOST_HELD`."""
        if self._held >= MOST_HELD:
            return self._reject(msg, t.name, bad)
        if not t.held:
            t.held_until, t.held_since = now + self.tuning.vouch_wait, now
        # Acknowledged now: PUBACKs go in order, so a held event's would hold back every one behind
        # it, and past the broker's window (Mosquitto's default 20) the broker would send nothing more,
        # the re-read's answer that the event waits for neither (found by review). Should this service
        # die while holding it, the table's journal still has it: a gap, asked for as any other.
        self._done(msg.ack)
        t.held.append(msg)
        self._held += 1

    def _word_may_come(self, t: _Table, now: float) -> bool:
        """Whether a table's held events should wait on: an archiving service that has not yet had
        back a re-read asked after they came may still get the table's word from it. A board (no
        archive) asks no re-read; past Tuning.hold_most, or disconnected, nothing waits on (issue
        21.2: on a broker at its default queue limits, real events were refused as an unknown
        table's after the broker dropped the table's status, and archived only once replayed)."""
        return (self.archive is not None and self._connected and self._reread_done_at < t.held_since
                and now < t.held_since + self.tuning.hold_most)

    def _release(self, t: _Table, final: bool) -> None:
        """The held events again, after the table's word came (a status, a state) or, ``final``,
        once they waited long enough; what still lacks it keeps its deadline."""
        held, t.held, until, since = t.held, [], t.held_until, t.held_since
        self._held -= len(held)
        for msg in held:
            self._event(t, parse_topic(self.prefix, msg.topic).kind or "", msg, final)
        t.held_until, t.held_since = until, since   # held again, they have waited since they first came
        if final and not t.known:  # a name that never became a table keeps no memory
            self._tables.pop(t.name, None)

    def _status(self, t: _Table) -> None:
        status = t.status
        birth = status["birth"]
        if t.birth is not None and birth < t.birth:
            self._count("birth_backwards")
            self._warn("pit service: table %s: birth %d after birth %d (its journal was replaced?)", t.name, birth,
                       t.birth)
        next_seq = status.get("next_seq")
        if (t.birth is not None and birth != t.birth and isinstance(next_seq, int)
                and next_seq - 1 < t.last_archived):
            self._count("renumbered")
            log.error("pit service: table %s numbers its events from seq %d again (birth %d), below seq %d already "
                      "archived: its events at seqs archived already are refused as seq backwards (docs/pit.md)",
                      t.name, next_seq, birth, t.last_archived)
            t.seen.forget()
            t.vouched = t.high = next_seq - 1
        elif isinstance(next_seq, int):
            t.vouched = max(t.vouched, next_seq - 1)
        new_birth = birth != t.birth
        t.known, t.birth, t.online = True, birth, bool(status["online"])
        if isinstance(status.get("game"), str):
            t.game = status["game"]
        if self.archive is not None:
            self._statuses[t.name] = status
        self._tell_new(t, "status", status)
        if t.held:
            self._release(t, final=False)
        if t.online and new_birth:
            t.replays.not_before = 0.0  # a table back: ask it at once
        self._touched.add(t.name)
        self._pump(t, time.monotonic())

    def _state(self, t: _Table | None, table: str, state: dict) -> None:
        """The table's state vouches for its seq, as its birth does for next_seq: whatever this
        service saw of the table (its share of a group's events, or what a broker that dropped
        some left it) says nothing against the table's own word. (A state judged by what one
        service saw was refused for good once the service had missed more than MAX_AHEAD events,
        and every event after it with it, until the table's next birth.)"""
        if t is None or not t.known:  # the board may show it; the archive has nothing to vouch for
            return self._tell(table, "state", state)
        t.vouched = max(t.vouched, state["seq"])
        self._tell_new(t, "state", state)
        self._touched.add(t.name)
        if t.held:
            self._release(t, final=False)

    def _figures(self, table: str, what: str, body: dict) -> None:
        """A table's integrity figures (``dice``, ``integrity``), checked: to the observers only, a
        known table's unless they are what the observers were last given (a reconnect's retained
        copy). Those of a table never heard of are handed on too, as its state is (the board keeps
        them for the table's tile, and makes none of them). Nothing here is archived."""
        t = self._tables.get(table)
        if t is not None and t.known:
            return self._tell_new(t, what, body)
        self._tell(table, what, body)

    def _reply(self, t: _Table, reply: dict, command: str = "replay") -> None:
        if command != "replay":
            with self._waiters_lock:
                waiter = self._waiters.get((t.name, command, str(reply["id"])))
            if waiter is not None and reply.get("command") == command:
                waiter.reply = reply
                waiter.done.set()
            return None
        out = t.replays.out
        if out is None or out.phase not in ("sent", "asked") or reply["id"] != out.id:
            return  # another pit client's, or a late answer to a request given up
        now = time.monotonic()
        if reply["ok"]:
            t.replays.accepted(now)
            log.info("pit service: table %s replays seqs %d-%d", t.name, out.first, out.last)
            return
        self._count("replay_refused")
        error = str(reply.get("error", ""))
        lost = read_refusal(error).unfillable(out.first, out.last)
        if lost is None:
            return self._failed(t, now, f"the table refused the replay of seqs {out.first}-{out.last}: {error[:200]}")
        t.replays.done()
        self._unfillable(t, *lost, f"table {t.name} refused cmd/replay {out.first}-{out.last}: {error}")
        self._pump(t, now)

    def _heard(self, table: str, payload: bytes) -> None:
        """A ``cmd/replay`` request came by: this service's own, back to it, starts the clock of the
        table's answer (replays.Request). Anyone else's (another service's, a watch's) is the table's
        to check and answer; nothing is said of it here."""
        t = self._tables.get(table)
        if t is None or t.replays.out is None:
            return
        try:
            request_id = parse_object(payload).get("id")
        except Bad:
            return
        if isinstance(request_id, str):
            t.replays.heard(request_id, time.monotonic())

    def _reject(self, msg: _Message, table: str | None, bad: Bad) -> None:
        """Logged before it is counted: a counter seen to move means its warning is written."""
        self._warn("pit service: event on %s rejected (%s): %s", msg.topic[:200], bad.category, bad.reason[:300])
        self._count_many({"rejected": 1, bad.category: 1})
        if self.archive is None:
            return self._done(msg.ack)
        self._rejects.append((Reject(msg.topic, table, f"{bad.category}: {bad.reason}", msg.payload), msg.ack))

    def _note_damaged(self, t: _Table, env: dict) -> None:
        data = env.get("data") or {}
        if data.get("code") == "journal_row_damaged" and isinstance(data.get("message"), str):
            match = _DAMAGED.search(data["message"])
            if match and len(t.damaged) < MOST_DAMAGED:
                t.damaged[int(match.group(1))] = data["message"][:500]

    def _tell_new(self, t: _Table, kind: str, body: dict) -> None:
        """A status or a state to the observers unless it is the one they were last given: a
        retained message the service asked the broker for again tells them nothing (the board
        would redraw the table's tile for it)."""
        if t.told.get(kind) == body:
            return
        t.told[kind] = body
        self._tell(t.name, kind, body)

    def _tell(self, table: str, kind: str, body: dict) -> None:
        for fn in self._observers:
            try:
                fn(table, kind, body)
            except Exception:
                self._count("observer_errors")
                log.exception("pit service: an observer failed on a %s of table %s; going on", kind, table)

    # -- the archive ---------------------------------------------------------------------

    def _flush(self) -> None:
        """The waiting events, rejects and statuses in one transaction; then their PUBACKs are owed,
        and the tables they touched are looked at for gaps (after the grace)."""
        if self.archive is None or not self._db_up or not (self._pending or self._rejects or self._statuses
                                                            or self._ack_rows):
            self._set("events_held", len(self._pending))
            self._look_at_touched()
            return
        pending, rejects, statuses, ack_rows = self._pending, self._rejects, self._statuses, self._ack_rows
        batch = Batch([p.event for p in pending.values()], [r for r, _ in rejects], dict(statuses),
                      [a for a, _ in ack_rows])
        try:
            stored = self.archive.store(batch)
        except ArchiveError as exc:
            self._set("events_held", len(pending))
            return self._db_lost(exc)
        self._pending, self._rejects, self._statuses, self._ack_rows = {}, [], {}, []
        for _, ack in ack_rows:
            self._done(ack)
        committed = time.time()
        for p in pending.values():
            self._commit_lag = max(self._commit_lag, committed - p.since)
            for ack in p.acks:
                ack.ready = True
        for _, ack in rejects:
            self._done(ack)
        refused = stored.refused_keys
        for reject in [*stored.conflicts, *stored.refused]:
            self._warn("pit service: %s", reject.reason)
        # The warnings first, then the batch's counters in one step: whoever sees a counter move
        # (service.wait, the status) sees its log line written and the whole batch counted.
        self._count_many({"events_archived": len(stored.new), "events_duplicate": stored.duplicates,
                          "rejected": len(stored.conflicts) + len(stored.refused),
                          SEQ_BACKWARDS: len(stored.conflicts), NOT_STORABLE: len(stored.refused)})
        now = time.monotonic()
        advanced: dict[str, int] = {}
        for p in pending.values():
            if (p.event.table, p.event.seq) in refused:
                continue
            t = self._table(p.event.table)
            t.last_archived = max(t.last_archived, p.event.seq)
            floor = t.stored.floor
            t.stored.add(p.event.seq)
            t.stored.trim()
            if t.stored.floor > floor:
                advanced[t.name] = t.stored.floor
        if advanced:
            try:
                self.archive.advance(advanced)
            except ArchiveError as exc:
                self._db_lost(exc)
        self._set("events_held", 0)
        self._look_at_touched(now)

    def _look_at_touched(self, now: float | None = None) -> None:
        """After a flush (events stored, a state or a status read): a gap check for each table
        touched that may have one."""
        if not self._db_up:
            return
        now = time.monotonic() if now is None else now
        for name in self._touched:
            self._want_check(self._table(name), now)
        self._touched.clear()

    def _db_lost(self, exc: ArchiveError) -> None:
        if self._db_up:
            self._count("db_lost")
            log.error("pit service: %s; events wait in memory (at most %d) and the database is tried again",
                      exc, self.tuning.receive_maximum)
        self._db_up = False
        delays = self.tuning.db_retry_delays
        self._db_retry_at = time.monotonic() + delays[min(self._db_failures, len(delays) - 1)]
        self._db_failures += 1

    def _db_retry(self) -> None:
        assert self.archive is not None
        self._db_retry_at = None
        try:
            self.archive.connect()
            self.archive.migrate()
        except ArchiveError as exc:
            log.debug("pit service: the archive database is still away: %s", exc)
            return self._db_lost(exc)
        log.warning("pit service: the archive database %s is back; storing the %d events held",
                    self.archive.where, len(self._pending))
        self._db_up, self._db_failures = True, 0
        self._reread_soon()  # it stopped acknowledging: the broker may have dropped what it could not queue
        self._flush()

    def _want_check(self, t: _Table, now: float) -> None:
        """A gap check of ``t`` after the grace, if some seq it made is not known to be archived."""
        if self.archive is None or not t.known:
            return
        if max(t.high, t.vouched) > t.stored.floor or t.open:
            self._schedule_check(t, now)

    def _schedule_check(self, t: _Table, now: float) -> None:
        if t.check_at is None:
            t.check_at = now + self.tuning.grace
            t.horizon, t.high_mark, t.vouch_mark = t.high, t.high, t.vouched

    def _check(self, t: _Table, now: float) -> None:
        """Holes up to the highest seq seen a grace ago are gaps. What the table only vouched for
        (its state's seq, its birth's next_seq) counts once no event came for a grace: a table
        back from an outage publishes its birth and state first and its backlog after them, and
        that backlog is on its way, not lost."""
        assert self.archive is not None
        t.check_at = None
        horizon = t.horizon
        if t.vouch_mark > horizon and t.high == t.high_mark:
            horizon = t.vouch_mark
        check = self.archive.check_gaps(t.name, horizon)
        for first, last in check.opened:
            self._count("gaps_opened")
            log.warning("pit service: table %s: seqs %d-%d are not in the archive; asking the table for them",
                        t.name, first, last)
        for first, last in check.filled:
            self._count("gaps_filled")
            log.info("pit service: table %s: seqs %d-%d arrived, the gap is filled", t.name, first, last)
        t.stored.raise_floor(check.archived_to)
        t.replays.arrived(check.filled, now)
        self._set_open(t, check.open, check.unfillable)
        if max(t.high, t.vouched) > check.archived_to:
            self._want_check(t, now)
        out = t.replays.out
        if out is not None and out.phase == "replaying":
            if not _overlaps(t.open, out.first, out.last):
                t.replays.done()
            else:  # its progress is the archive's: in a group, most of it reaches the other services
                self._schedule_check(t, now)
        self._pump(t, now)

    def _unfillable(self, t: _Table, first: int, last: int, reason: str) -> None:
        assert self.archive is not None
        check = self.archive.mark_unfillable(t.name, first, last, reason)
        self._count("gaps_unfillable")
        log.error("pit service: table %s: seqs %d-%d cannot be had any more, recorded as unfillable: %s", t.name,
                  first, last, reason[:300])
        self._set_open(t, check.open, check.unfillable)

    def _set_open(self, t: _Table, open_gaps: list[tuple[int, int]], unfillable: int) -> None:
        t.open, t.unfillable = open_gaps, unfillable
        if not open_gaps:
            if t.said:
                log.warning("pit service: table %s: its open gaps are filled; the archive lacks nothing of it up to "
                            "seq %d%s", t.name, t.stored.floor,
                            f" but the {unfillable} seqs recorded unfillable" if unfillable else "")
            t.why, t.said = "", False
        self._set("gaps_open", sum(len(x.open) for x in self._tables.values()))

    def _pump(self, t: _Table, now: float) -> None:
        """The table's next ``cmd/replay``, if one may go now."""
        if self.archive is None or not self._db_up or not self._connected:
            return
        if not t.online:
            if t.online is False and t.open and t.why != OFFLINE:
                t.why = OFFLINE
                log.warning("pit service: table %s is offline, and the archive lacks %s of its seqs (%s): asked for "
                            "once the table is back", t.name, _count_seqs(t.open), _runs(t.open))
            return
        if t.replays.out is not None or not t.open or now < t.replays.not_before or not self._claim(t, now):
            return
        request = t.replays.next(t.open, now, f"{self.client_id}-{self._start_id}-{next(self._ids)}", heard=False)
        if request is None:
            return
        self.client.publish(f"{self.prefix}/{t.name}/cmd/replay",
                            json.dumps({"id": request.id, "from": request.first, "to": request.last,
                                        "requester": self.requester}), qos=1)
        if t.why == OFFLINE:
            t.why = ""
        self._count("replay_requests")
        log.info("pit service: asked table %s for seqs %d-%d (%s)", t.name, request.first, request.last, request.id)
        self.archive.mark_asked(t.name, request.first, request.last)

    def _due(self, now: float) -> None:
        if self._db_retry_at is not None and now >= self._db_retry_at:
            self._db_retry()
        for t in list(self._tables.values()):
            if t.held and now >= t.held_until:
                if self._word_may_come(t, now):
                    t.held_until = now + self.tuning.vouch_wait
                    self._want_reread(now)
                else:
                    self._release(t, final=True)
            if not self._db_up:
                continue
            try:
                if t.check_at is not None and now >= t.check_at:
                    self._check(t, now)
                if t.claimed_at is not None and now >= t.claimed_at + self.tuning.claim / 3:
                    self._keep_claim(t, now)
                out = t.replays.out
                if out is not None and (now >= out.deadline or self._unheard(out, now)):
                    self._overdue(t, now)
                elif out is None and t.open and t.replays.not_before and now >= t.replays.not_before:
                    self._check(t, now)  # what is still open, read again (another service may have had it), asked
            except ArchiveDown as exc:
                self._db_lost(exc)
            except ArchiveError as exc:
                # PostgreSQL refused this table's step (the connection is fine): the other tables'
                # checks go on, and so does this table's at its next event.
                self._count("internal_errors")
                self._warn("pit service: table %s: %s; its gap check waits for its next event", t.name, exc)
        if self._rejects or self._pending:
            self._flush()

    def _overdue(self, t: _Table, now: float) -> None:
        """A request past its deadline: not back to this service (lost on the way), no reply, or
        replayed events that stopped coming."""
        out = t.replays.out
        assert out is not None and self.archive is not None
        if out.phase == "sent":
            t.replays.unheard()
            log.warning("pit service: table %s: the request for seqs %d-%d (%s) did not come back to this service "
                        "(lost on the way, or dropped by a broker for a service far behind); asking again", t.name,
                        out.first, out.last, out.id)
            return self._check(t, now)
        if out.phase == "asked":
            return self._failed(t, now, f"no answer to the replay of seqs {out.first}-{out.last} within "
                                        f"{t.replays.reply_timeout:g} s")
        t.horizon, t.high_mark, t.vouch_mark = max(t.horizon, t.high), t.high, max(t.vouch_mark, t.vouched)
        self._check(t, now)
        if t.replays.out is not out:
            return  # filled meanwhile
        missing = [(max(a, out.first), min(b, out.last)) for a, b in t.open if a <= out.last and b >= out.first]
        damaged = [s for a, b in missing for s in range(a, min(b, a + 1000) + 1) if s in t.damaged]
        if damaged and sum(b - a + 1 for a, b in missing) == len(damaged):
            t.replays.done()
            for seq in damaged:
                self._unfillable(t, seq, seq, f"table {t.name}: {t.damaged[seq]}")
            return self._pump(t, now)
        still = missing_in(t.open, out.first, out.last)
        if still < out.missing:
            # Some came: the table answers. What did not went to a service of the group that is away
            # (the broker keeps its share for it) or was lost on the way: asked again now.
            t.replays.done()
            log.info("pit service: table %s: %d of the %d seqs missing in %d-%d arrived; asking again for the rest",
                     t.name, out.missing - still, out.missing, out.first, out.last)
            return self._pump(t, now)
        self._failed(t, now, f"nothing of the replay of seqs {out.first}-{out.last} came within "
                             f"{t.replays.replay_timeout:g} s")

    def _claim(self, t: _Table, now: float) -> bool:
        """Whether this service asks the table for its gaps: one service of a group does, so that a
        gap is replayed once, not once per service. It claims that in the archive (or renews its
        claim). While another service holds it, this one reads the table's gaps again every grace
        (a check is cheap): what its status says stays true, and it asks once that claim lapses."""
        assert self.archive is not None
        holder = self.archive.claim_replays(t.name, self.client_id, self.tuning.claim)
        if holder is None:
            t.claimed_at = now
            if t.why.startswith(ASKED_BY):
                t.why = ""
            return True
        t.claimed_at = None
        t.why = f"{ASKED_BY} {holder}"
        t.replays.not_before = now + self.tuning.grace
        return False

    def _keep_claim(self, t: _Table, now: float) -> None:
        """Every third of Tuning.claim: the claim renewed while the table's gaps are open or a
        request is out, given back once they are filled."""
        assert self.archive is not None and t.claimed_at is not None
        if t.open or t.replays.out is not None:
            self._claim(t, now)
        else:
            self.archive.release_replays(t.name, self.client_id)
            t.claimed_at = None

    def _failed(self, t: _Table, now: float, why: str) -> None:
        """The request out was refused for now, not answered, or its replay stalled: its gaps stay
        open, and the table is asked again after the next retry delay. A warning each time (at most
        a few a second); once the retries are at their slowest, one error that says what the
        archive lacks of the table and why, and the service's status says it until it is mended."""
        delay = t.replays.failed(now)
        t.why = why
        self._warn("pit service: table %s: %s; asking again in %g s", t.name, why, delay)
        if not t.said and t.replays.failures >= len(t.replays.retry_delays):
            t.said = True
            log.error("pit service: table %s: the archive lacks %s of its seqs (%s) after %d requests: %s; asked "
                      "again every %g s until the table sends them", t.name, _count_seqs(t.open), _runs(t.open),
                      t.replays.failures, why, delay)
        self._count("replay_failed")  # after the lines: a counter seen to move means they are written

    # -- acknowledgements, counters, the service's own status -----------------------------

    def _done(self, ack: _Ack | None) -> None:
        if ack is not None:
            ack.ready = True

    def _send_acks(self) -> None:
        """PUBACKs in arrival order, each only on the connection its message came on."""
        while self._acks and self._acks[0].ready:
            ack = self._acks.popleft()
            with self._gen_lock:
                if ack.gen == self._gen and self._connected:
                    self.client.ack(ack.mid, ack.qos)

    def _table(self, name: str, create: dict | None = None) -> _Table:
        """The table ``name`` (made on first use); ``create``: its status, just checked."""
        t = self._tables.get(name)
        if t is None:
            t = self._tables[name] = _Table(name, replays=TableReplays(
                limit=self.tuning.replay_limit, retry_delays=self.tuning.retry_delays,
                reply_timeout=self.tuning.reply_timeout, replay_timeout=self.tuning.replay_timeout))
        if create is not None:
            t.status = create
        return t

    def _count(self, name: str, n: int = 1) -> None:
        if n:
            with self._count_lock:
                self._counts[name] = self._counts.get(name, 0) + n
                self._count_lock.notify_all()

    def _count_many(self, counts: dict[str, int]) -> None:
        """Several counters moved at once, so no reader sees one of them moved and not the others."""
        with self._count_lock:
            for name, n in counts.items():
                if n:
                    self._counts[name] = self._counts.get(name, 0) + n
            self._count_lock.notify_all()

    def _set(self, name: str, value: int) -> None:
        with self._count_lock:
            if self._counts.get(name) != value:
                self._counts[name] = value
                self._count_lock.notify_all()

    def _warn(self, fmt: str, *args: Any) -> None:
        """A warning; bad input must not flood the log, so past a burst of :data:`WARN_BURST` only
        :data:`WARN_RATE` a second are written, and the number left out is said (the counters
        count every one)."""
        now = time.monotonic()
        self._warn_tokens = min(WARN_BURST, self._warn_tokens + (now - self._warned_at) * WARN_RATE)
        self._warned_at = now
        if self._warn_tokens < 1:
            self._warned_skipped += 1
            return
        self._warn_tokens -= 1
        if self._warned_skipped:
            log.warning("pit service: %d warnings were not logged (too many at once; the counters have them)",
                        self._warned_skipped)
            self._warned_skipped = 0
        log.warning(fmt, *args)

    def _own_status(self, online: bool) -> dict[str, Any]:
        held = min((p.since for p in self._pending.values()), default=None) if online else None
        return {"online": online, "client_id": self.client_id, "group": self.group,
                "archive": self.archive.where if self.archive is not None else None,
                "db": ("up" if self._db_up else "down") if self.archive is not None else None,
                "started": self._started, "ts": time.time(), "counters": self.counters(),
                "held_since": held, "commit_lag": round(self._commit_lag, 3) if online else None,
                "gaps": self._gaps if online else None,
                "incomplete": self._incomplete(), "broker_risks": self.broker_risks, "reread": self._reread_mark}

    def _incomplete(self) -> dict[str, Any]:
        """What the archive lacks of each table, as far as this service knows (the open and the
        unfillable gaps it last read from the archive): how many seqs, from which, and why they
        are still missing. Only such tables, at most :data:`MOST_LISTED` (and how many more)."""
        lacking = sorted((t for t in self._tables.values() if t.open or t.unfillable), key=lambda t: t.name)
        out: dict[str, Any] = {
            t.name: {"missing": _count_seqs(t.open), "first": t.open[0][0] if t.open else None,
                     "unfillable": t.unfillable,
                     "why": t.why or ("being asked for" if t.open else "recorded unfillable: the table cannot send them")}
            for t in lacking[:MOST_LISTED]}
        if len(lacking) > MOST_LISTED:
            out["more_tables"] = len(lacking) - MOST_LISTED
        return out

    def _read_gaps(self, now: float) -> None:
        """Each table's gaps not filled, from the archive (so every instance's), at most once a
        status interval: the floor's health (issue 21.4)."""
        if self.archive is None or not self._db_up or now < self._gaps_at:
            return
        self._gaps_at = now + self.tuning.status_interval
        try:
            self._gaps = self.archive.gap_summary(GAP_TABLES)
        except ArchiveDown as exc:
            self._db_lost(exc)
        except ArchiveError as exc:
            self._warn("pit service: the gaps could not be read for the status: %s", exc)

    def _maybe_publish_status(self, now: float, force: bool) -> None:
        """The retained ``<prefix>/_pit/<client id>/status``, when it changed, at most once an
        interval; and the same, with whether the broker is there, to this process's observers (the
        board's summary of the pit's health), even while the broker is away."""
        if not force and now < self._status_at:
            return
        self._read_gaps(now)
        status = self._own_status(online=True)
        same_as = {k: v for k, v in status.items() if k != "ts"}
        told = {**same_as, "broker": "connected" if self._connected else "disconnected"}
        if told != self._health_told:
            self._health_told = told
            self._tell(self.client_id, "pit", {**status, "broker": told["broker"]})
        if not self._connected:
            self._status_at = 0.0  # published again on the next connect
            return
        if same_as == self._status_sent and not force:
            self._status_at = 0.0
            return
        self.client.publish(self.status_topic, json.dumps(status), qos=1, retain=True)
        self._status_sent = same_as
        self._commit_lag = 0.0
        self._status_at = now + self.tuning.status_interval


def _unknown(table: str) -> Bad:
    return Bad(UNKNOWN_TABLE, f"table {table} has published no status under this prefix (its birth message "
                              f"names it to the pit): its events are not archived")


def _what(topic: str) -> str:
    """What a topic that did not parse was meant to be, for its counter."""
    for end, what in (("/status", "status"), ("/state", "state"), ("/reply", "reply"), ("/dice", "dice"),
                      ("/integrity", "integrity")):
        if topic.endswith(end):
            return what
    return "status"


def _count_seqs(runs: list[tuple[int, int]]) -> int:
    return sum(b - a + 1 for a, b in runs)


def _runs(runs: list[tuple[int, int]], most: int = 5) -> str:
    """``a-b, c-d ...`` for a log line: the first few runs, and how many more."""
    text = ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in runs[:most])
    return text + (f" and {len(runs) - most} more runs" if len(runs) > most else "")


def _overlaps(ranges: list[tuple[int, int]], first: int, last: int) -> bool:
    return any(a <= last and b >= first for a, b in ranges)


def _why(exc: BaseException) -> str:
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused (is the broker running, and is this its address?)"
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
