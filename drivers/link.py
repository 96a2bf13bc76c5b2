"""A symmetric reliable link over a pyserial-like port (docs/protocols.md).

The same class runs both ends of a shoe or shuffler line: the controller's
drivers and the simulated devices. It owns two threads:

* the **reader** opens the port (again, with backoff and jitter, when it
  fails), blocks on ``port.read(max(1, port.in_waiting))``, feeds the
  :class:`~drivers.framing.FrameDecoder`, answers data frames with ACK/NAK,
  drops duplicates, NAKs damaged frames, reports dropped bytes and watches
  the peer's heartbeat;
* the **sender** does stop-and-wait: one unacknowledged data frame at a time,
  retransmitted after ``retransmit`` seconds or at once on a NAK, at most
  ``retries`` times, then reported as lost -- or, with ``retries=None`` (a
  device's end: a card it read must never be abandoned), until acknowledged,
  however long the line is down. It also sends heartbeats. It
  waits on a condition variable with the next deadline as its timeout, so it
  sleeps until there is something to do and never polls.

Read timeouts are not a polling interval: a read returns as soon as a byte
arrives. While idle the reader blocks for the heartbeat supervision period
(or forever on a device, which supervises nothing); only while part of a
frame is buffered does it wake every ``frame_gap``, to give that frame up
once it is overdue (its wire time plus ``frame_gap``): a garbage STX must not
hold back the real frames behind it.

Callers never block on the peer: :meth:`Link.send` queues. Callbacks run on
the link's threads and must be quick (put on a queue and return).
"""

from __future__ import annotations

import collections
import contextlib
import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import serial

from drivers import messages
from drivers.framing import MAX_PAYLOAD, OVERHEAD, DropCounts, Frame, FrameDecoder, encode

log = logging.getLogger(__name__)

DEFAULT_BAUDRATE = 115200
"""For frame timing on ports that have no baud rate (a simulator's end)."""

PORT_ERRORS: tuple[type[BaseException], ...] = (serial.SerialException, OSError, ValueError)
"""What a failing port raises (ValueError: pyserial on an unknown URL or a
closed file); the link reopens rather than dies."""


class Port(Protocol):
    """The slice of pyserial's ``Serial`` the link uses."""

    timeout: float | None

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


@dataclass
class _Pending:
    seq: int
    type: str
    data: bytes
    sends: int = 0
    deadline: float = 0.0
    nak: bool = False


class Link:
    """One end of a framed, acknowledged serial line.

    ``opener`` returns an open port; it is called again after the port fails.
    ``on_frame(frame)`` receives each new data frame (not ACK/NAK/heartbeat,
    not duplicates) and returns None to acknowledge it or a NAK reason.
    ``on_online(frame_type)`` / ``on_offline(reason)`` report the peer coming
    and going (only with ``heartbeat_timeout`` supervision, or a port error).
    ``on_drops(counts)`` gets the DropCounts delta of each read that dropped
    bytes. ``on_link_lost(type)`` reports a data frame never acknowledged.
    ``on_open()`` runs each time the port (re)opens (a driver sends ``S``).
    """

    def __init__(
        self,
        opener: Callable[[], Port],
        *,
        name: str = "link",
        on_frame: Callable[[Frame], str | None],
        on_online: Callable[[str], None] | None = None,
        on_offline: Callable[[str], None] | None = None,
        on_drops: Callable[[dict[str, int]], None] | None = None,
        on_link_lost: Callable[[str], None] | None = None,
        on_open: Callable[[], None] | None = None,
        retransmit: float = 0.25,
        retries: int | None = 5,
        heartbeat: float | None = None,
        heartbeat_timeout: float | None = None,
        frame_gap: float = 0.05,
        backoff: tuple[float, float] = (0.05, 2.0),
        rng: random.Random | None = None,
    ) -> None:
        self.name = name
        self._opener = opener
        self._on_frame = on_frame
        self._on_online = on_online
        self._on_offline = on_offline
        self._on_drops = on_drops
        self._on_link_lost = on_link_lost
        self._on_open = on_open
        self.retransmit = retransmit
        self.retries = retries
        self.heartbeat = heartbeat
        self.heartbeat_timeout = heartbeat_timeout
        self.frame_gap = frame_gap
        self._backoff = backoff
        self._rng = rng or random.Random()

        self._cond = threading.Condition()      # sender state, port state
        self._write_lock = threading.Lock()
        self._stats_lock = threading.Lock()
        self._stopping = False
        self._held = False                      # disconnect(): stay closed until reconnect()
        self._port: Port | None = None
        self._closed_port: Port | None = None   # the last port the reader closed
        self._queue: collections.deque[tuple[str, bytes]] = collections.deque()
        self._pending: _Pending | None = None
        self._next_seq = 0
        self._blackhole = False
        self._next_heartbeat = 0.0
        self._corrupt_next = False
        self._muted = False

        self._decoder = FrameDecoder()
        self._fed = 0                           # bytes fed to the decoder, ever
        self._head = -1                         # stream offset of a buffered partial frame
        self._head_since = 0.0                  # when it arrived
        self._byte_time = 10.0 / DEFAULT_BAUDRATE
        self._reported = DropCounts()
        self._last_rx_seq: int | None = None
        self._last_rejected: tuple[int, str, bytes, str] | None = None
        self._last_heard = 0.0
        self._online: bool | None = None        # None: not known yet
        self._threads: list[threading.Thread] = []
        self._stats: dict[str, int] = dict.fromkeys(
            ("frames_in", "frames_out", "data_out", "retransmits", "duplicates", "naks_in",
             "naks_out", "rejected", "link_lost", "opens", "open_failures"), 0)

    # --- lifecycle -------------------------------------------------------------
    def start(self) -> None:
        if self._threads:
            raise RuntimeError(f"{self.name}: link already started")
        for target, role in ((self._read_forever, "reader"), (self._send_forever, "sender")):
            t = threading.Thread(target=target, name=f"{self.name}-{role}", daemon=True)
            self._threads.append(t)
            t.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop both threads and close the port. Idempotent."""
        with self._cond:
            self._stopping = True
            port = self._port
            self._cond.notify_all()
        if not self._cancel_read() and port is not None:
            _close_quietly(port)    # no cancel_read (socket://): closing is what wakes the reader
        for t in self._threads:
            if t is not threading.current_thread():
                t.join(timeout)
        with self._cond:
            port, self._port = self._port, None
        if port is not None:
            _close_quietly(port)

    def disconnect(self, timeout: float = 2.0) -> None:
        """Close the port and keep it closed until :meth:`reconnect` (an unplug)."""
        with self._cond:
            self._held = True
            port = self._port
            self._cond.notify_all()
        self._cancel_read()
        with self._cond:
            self._cond.wait_for(lambda: port is None or self._closed_port is port or self._stopping, timeout)

    def reconnect(self, opener: Callable[[], Port] | None = None) -> None:
        """Open the port again (a replug), optionally through a new opener."""
        with self._cond:
            if opener is not None:
                self._opener = opener
            self._held = False
            self._cond.notify_all()

    # --- sending ---------------------------------------------------------------
    def send(self, type_: str, payload: bytes | str = b"") -> None:
        """Queue a data frame; it goes out once every frame before it is
        acknowledged or lost. Raises ValueError at once on a frame no peer
        could receive, so a bad call fails here and not in the sender thread."""
        if isinstance(payload, str):
            payload = payload.encode("ascii")
        if len(type_) != 1 or not type_.isascii() or type_ in messages.CONTROL_TYPES:
            raise ValueError(f"{self.name}: {type_!r} is not a data frame type")
        if len(payload) > MAX_PAYLOAD:
            raise ValueError(f"{self.name}: payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
        with self._cond:
            self._queue.append((type_, payload))
            self._cond.notify_all()

    def send_raw(self, data: bytes) -> None:
        """Write bytes as they are, between frames (fault injection: garbage)."""
        self._write(data)

    def corrupt_next(self) -> None:
        """The next data frame goes out once with a broken CRC (fault injection)."""
        with self._cond:
            self._corrupt_next = True

    def blackhole(self, on: bool = True) -> None:
        """A line that drops every byte both ways while the ports stay open (a flaky cable or
        relay): what this end writes is lost, what it would read is never seen. For fault injection."""
        with self._cond:
            self._blackhole = on
            self._cond.notify_all()

    def mute(self, muted: bool = True) -> None:
        """Write nothing, not even ACKs or heartbeats (a hung device)."""
        with self._cond:
            self._muted = muted
            self._cond.notify_all()

    def idle(self, timeout: float | None = None) -> bool:
        """Wait until every queued frame was acknowledged or lost."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue and self._pending is None, timeout)

    # --- state -------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self._port is not None

    @property
    def alive(self) -> bool:
        """Port open and the peer heard within ``heartbeat_timeout``."""
        if self._port is None:
            return False
        if self.heartbeat_timeout is None:
            return bool(self._online)
        return time.monotonic() - self._last_heard <= self.heartbeat_timeout and bool(self._online)

    @property
    def stats(self) -> dict:
        with self._stats_lock:
            out: dict = dict(self._stats)
        out["drops"] = self._decoder.drops.as_dict()
        return out

    def _count(self, key: str, n: int = 1) -> None:
        with self._stats_lock:
            self._stats[key] += n

    # --- writing -----------------------------------------------------------------
    def _write(self, data: bytes) -> bool:
        port = self._port
        if port is None or self._muted:
            return False
        if self._blackhole:
            return True   # written, as far as this end knows; the line lost it
        try:
            with self._write_lock:
                port.write(data)
        except PORT_ERRORS as exc:
            log.debug("%s: write failed: %s", self.name, exc)
            return False
        return True

    def _write_control(self, message: messages.Message) -> None:
        if self._write(encode(0, message.type, message.payload)):
            self._count("frames_out")

    # --- the sender thread -------------------------------------------------------
    def _send_forever(self) -> None:
        try:
            while True:
                action = self._next_action()
                if action is None:
                    return
                action()
        except Exception:  # a bug here must not silently kill the line
            log.exception("%s: sender thread failed", self.name)

    def _next_action(self) -> Callable[[], None] | None:
        with self._cond:
            while not self._stopping:
                now = time.monotonic()
                ready = self._port is not None and not self._muted
                deadlines: list[float] = []
                if ready and self._pending is None and self._queue:
                    type_, payload = self._queue.popleft()
                    self._pending = _Pending(self._next_seq, type_, encode(self._next_seq, type_, payload))
                    self._next_seq = (self._next_seq + 1) % 256
                pending = self._pending
                if ready and pending is not None:
                    if pending.sends == 0 or pending.nak or now >= pending.deadline:
                        if self.retries is not None and pending.sends > self.retries:
                            self._pending = None
                            self._cond.notify_all()     # idle() waiters
                            return lambda: self._lost(pending)
                        return lambda: self._transmit(pending)
                    deadlines.append(pending.deadline)
                if ready and self.heartbeat is not None:
                    if now >= self._next_heartbeat:
                        self._next_heartbeat = now + self.heartbeat
                        return lambda: self._write_control(messages.heartbeat())
                    deadlines.append(self._next_heartbeat)
                self._cond.wait(max(0.0, min(deadlines) - now) if deadlines else None)
        return None

    def _transmit(self, pending: _Pending) -> None:
        data = pending.data
        with self._cond:
            if self._corrupt_next:
                self._corrupt_next = False
                data = data[:-3] + bytes((data[-3] ^ 0xFF,)) + data[-2:]
            first = pending.sends == 0
            pending.sends += 1
            pending.nak = False
        if self._write(data):
            self._count("frames_out")
            self._count("data_out" if first else "retransmits")
        with self._cond:
            pending.deadline = time.monotonic() + self.retransmit

    def _lost(self, pending: _Pending) -> None:
        self._count("link_lost")
        log.warning("%s: %r frame seq %d not acknowledged after %d sends",
                    self.name, pending.type, pending.seq, pending.sends)
        self._call(self._on_link_lost, pending.type)

    # --- the reader thread -------------------------------------------------------
    def _read_forever(self) -> None:
        delay = self._backoff[0]
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._stopping or not self._held)
                if self._stopping:
                    return
                opener = self._opener
            try:
                port = opener()
            except PORT_ERRORS as exc:
                self._count("open_failures")
                self._went_offline(f"cannot open port: {exc}")
                self._pause(delay)
                delay = min(delay * 2, self._backoff[1])
                continue
            delay = self._backoff[0]
            reason = self._serve(port)
            with self._cond:
                self._port = None           # no more writes to it...
            _close_quietly(port)            # ...then close, and only then tell disconnect()
            with self._cond:
                self._closed_port = port
                self._cond.notify_all()
                if self._stopping:
                    return
                held = self._held
            if not held:
                self._went_offline(reason)
                self._pause(self._backoff[0])

    def _pause(self, delay: float) -> None:
        """Back off before reopening; jitter keeps many tables from retrying in step."""
        with self._cond:
            self._cond.wait_for(lambda: self._stopping, delay * self._rng.uniform(0.75, 1.25))

    def _serve(self, port: Port) -> str:
        """Read until the port fails, the link stops or is disconnected; say why."""
        while self._decoder.buf:          # a partial frame from the last port is history
            self._decoder.expire()
        self._report_drops()
        with self._cond:
            if self._stopping or self._held:
                return "stopped"
            self._port = port
            self._last_heard = time.monotonic()
            self._next_heartbeat = 0.0
            if self._pending is not None:  # a fresh line: a fresh set of tries
                self._pending.sends = 0
            self._cond.notify_all()
        self._count("opens")
        self._call(self._on_open)
        idle = self.heartbeat_timeout / 4 if self.heartbeat_timeout else None
        baudrate = getattr(port, "baudrate", None) or DEFAULT_BAUDRATE
        self._byte_time = 10.0 / baudrate          # 8N1: ten bit times per byte
        current: object = object()
        try:
            while True:
                with self._cond:
                    if self._stopping or self._held:
                        return "stopped"
                want = self.frame_gap if self._decoder.buf else idle
                if want != current:
                    port.timeout = want
                    current = want
                data = port.read(max(1, port.in_waiting))
                if data:
                    # A frame usually arrives whole while the read(1) above wakes: take
                    # the rest now, so the decoder sees it at once and the read timeout
                    # is not switched to frame_gap and back (two tcsetattr calls) per frame.
                    more = port.in_waiting
                    if more:
                        data += port.read(more)
                now = time.monotonic()
                if self._blackhole:
                    data = b""  # lost on the line
                frames = self._decoder.feed(data) if data else []
                self._fed += len(data)
                frames += self._expire_stalled(now)
                self._report_drops()
                for frame in frames:
                    self._handle(frame, now)
                self._supervise(now)
        except PORT_ERRORS as exc:
            return f"port error: {exc}"
        except Exception as exc:      # a port backend's own bug, or closed under it by stop()
            if not self._stopping:
                log.exception("%s: unexpected error from the port", self.name)
            return f"port error: {type(exc).__name__}"

    def _expire_stalled(self, now: float) -> list[Frame]:
        """Give up a partial frame that should have arrived by now.

        The deadline runs from the arrival of the frame's STX: its wire time
        at the line's baud rate plus ``frame_gap``. It is absolute, not an
        inter-byte gap, because a garbage STX announcing a long frame is
        followed by the peer's retransmissions, which keep bytes coming.
        """
        out: list[Frame] = []
        buf = self._decoder.buf
        while buf:
            head = self._fed - len(buf)           # stream offset of the buffered STX
            if head != self._head:
                self._head, self._head_since = head, now
                break
            length = (buf[1] << 8 | buf[2]) if len(buf) >= 3 else 0
            if now < self._head_since + self.frame_gap + (OVERHEAD + length) * self._byte_time:
                break
            out += self._decoder.expire()
        return out

    def _report_drops(self) -> None:
        drops = self._decoder.drops
        delta = drops - self._reported
        if not delta:
            return
        self._reported = DropCounts(**drops.as_dict())
        self._call(self._on_drops, delta.as_dict())
        if delta.bad_crc or delta.bad_etx:
            # A damaged frame: ask for the peer's pending frame again now
            # rather than after its retransmit timer.
            self._count("naks_out")
            self._write_control(messages.nak(None, messages.NAK_CRC))

    def _supervise(self, now: float) -> None:
        if (self.heartbeat_timeout is not None and self._online is not False
                and now - self._last_heard > self.heartbeat_timeout):
            self._went_offline("heartbeat_lost")

    def _went_offline(self, reason: str) -> None:
        if self._online is not False:
            self._online = False
            self._call(self._on_offline, reason)

    def _handle(self, frame: Frame, now: float) -> None:
        self._count("frames_in")
        self._last_heard = now
        if self._online is not True:
            self._online = True
            self._call(self._on_online, frame.type)
        if frame.type == messages.ACK:
            seq = messages.parse_ack(frame)
            with self._cond:
                if seq is not None and self._pending is not None and self._pending.seq == seq \
                        and self._pending.sends:
                    self._pending = None
                    self._cond.notify_all()
        elif frame.type == messages.NAK:
            self._count("naks_in")
            parsed = messages.parse_nak(frame)
            with self._cond:
                pending = self._pending
                if parsed is not None and pending is not None and parsed[0] == pending.seq \
                        and parsed[1] in (messages.NAK_BAD, messages.NAK_UNKNOWN) and pending.sends:
                    # The peer read this frame whole and refused it (and reported why): sending it
                    # again would be refused again and hold up every frame behind it.
                    self._pending = None
                    self._count("rejected")
                    self._cond.notify_all()
                elif parsed is not None and pending is not None and parsed[0] in (None, pending.seq):
                    pending.nak = True
                    self._cond.notify_all()
        elif frame.type != messages.HEARTBEAT:
            self._receive_data(frame)

    def _receive_data(self, frame: Frame) -> None:
        sync = frame.type in messages.SYNC_TYPES
        if not sync and frame.seq == self._last_rx_seq:
            # A retransmission after our ACK was lost: acknowledge, do not deliver.
            self._count("duplicates")
            self._write_control(messages.ack(frame.seq))
            return
        rejected = self._last_rejected
        if rejected is not None and rejected[:3] == (frame.seq, frame.type, frame.payload):
            # The same bad frame again: refuse it again, report it only once.
            self._count("naks_out")
            self._write_control(messages.nak(frame.seq, rejected[3]))
            return
        verdict = self._call(self._on_frame, frame)
        if verdict is None:
            self._last_rx_seq = frame.seq
            self._last_rejected = None
            self._write_control(messages.ack(frame.seq))
        else:
            self._last_rejected = (frame.seq, frame.type, frame.payload, verdict)
            self._count("naks_out")
            self._write_control(messages.nak(frame.seq, verdict))

    # --- helpers -------------------------------------------------------------------
    def _cancel_read(self) -> bool:
        """Wake a blocked read; False if the port cannot be woken that way."""
        port = self._port
        cancel = getattr(port, "cancel_read", None)
        if cancel is None:
            return False
        with contextlib.suppress(PORT_ERRORS):
            cancel()
        return True

    def _call(self, callback: Callable | None, *args: object) -> str | None:
        """Run a user callback; a bug in it is logged, not fatal to the line."""
        if callback is None:
            return None
        try:
            return callback(*args)
        except Exception:
            log.exception("%s: callback %r failed", self.name, callback)
            return None


def _close_quietly(port: Port) -> None:
    with contextlib.suppress(PORT_ERRORS):
        port.close()
