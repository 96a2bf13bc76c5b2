"""Every connection of the pit board on one thread: a ``selectors`` loop (epoll on Linux).

The board used to hold a thread per connection (``ThreadingHTTPServer``), most of them waiting on
a stream: 500 browsers were 504 threads, and each patch woke every one of them to fight the pit
service's thread for the GIL, so the archive fell behind because browsers connected (issue 26).
Here one thread owns the listening socket and every connection, and wakes only when a socket is
ready, a deadline is due or the picture changed:

- **A request** is read without blocking until its head (and a form's body) is in, then answered
  by the board's handler (controller.pit.board.web) from those bytes: a page, JSON, a redirect, or
  the start of a stream. A request that waits (``slow``: a form, whose login hashes with scrypt
  for some 50 ms; anything that would ask the database) is answered on a small pool of
  :data:`POOL_THREADS` threads, so it never stalls the streams: nothing answered on the loop's
  thread may block. One request per
  connection (HTTP/1.0, as before); the connection is then closed without losing what the client
  still sends (``shutdown`` and a short drain, not a reset).
- **A stream** is a cursor into the feed (controller.pit.board.feed). Patches are encoded once;
  the loop writes them to every stream in passes (:meth:`HttpLoop._pass_step`) at most every
  :data:`FLUSH_MIN` seconds and never more than :data:`FLUSH_SHARE` of the time, :data:`PASS_SLICE`
  streams at a time with new requests answered in between, so a browser gets
  all that came since its last pass in one write, and a crowd of browsers costs the pit service a
  bounded share of the process. A browser that does not read fills its socket (whose send buffer
  is :data:`SNDBUF`) and is then skipped until it can take more; once it is further behind than the
  feed holds it is dropped (reset: nothing it never read is kept for it), and one that takes nothing
  for :data:`STALL` seconds is closed. A keep-alive comment goes to a stream quiet for ``keepalive``
  seconds.
- **The number of connections** is capped (:data:`MAX_CONNECTIONS`, within the process's limit of
  open files, which is raised to make room): one past the cap is answered ``503`` with
  ``Retry-After`` and closed, never queued.

So the board's threads are this one and the pool's, whatever the number of browsers.
"""

from __future__ import annotations

import collections
import contextlib
import errno
import heapq
import itertools
import logging
import os
import queue
import re
import selectors
import socket
import struct
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from controller.pit.board.feed import Client, Dropped

log = logging.getLogger(__name__)

MAX_CONNECTIONS = 3000
"""Connections open at once (pages, JSON, streams, requests on their way); one more gets a 503."""
REFUSING = 64
"""Connections past the cap being told 503 at once; beyond that they are closed unanswered."""
RETRY_AFTER = 5
"""Seconds a refused browser is asked to wait."""
RESERVED_FILES = 128
"""Open files the rest of the process may need (the database, the broker, logs): the cap leaves
them room within the process's limit."""
REQUEST_TIMEOUT = 20.0
"""Seconds a connection has to send its whole request (a browser sends it at once)."""
MAX_HEAD = 64 * 1024 + 4096
"""Bytes a request's line and headers may take (http.server's own limits are 64 KiB a line)."""
MAX_BODY = 8192
"""Bytes of a form read at most (the handler refuses a longer one unread): an acknowledgement's note
of 500 characters, each written as up to nine bytes of %XX, fits."""
LINGER = 2.0
"""Seconds a connection answered is drained before it is closed (what the client still sends)."""
STALL = 60.0
"""Seconds a stream may take nothing while something waits for it; then it is closed."""
SNDBUF = 64 * 1024
"""A stream socket's send buffer: what the kernel holds for a browser that does not read (Linux
doubles it); the rest waits in the feed, shared."""
FLUSH_MIN = 0.02
"""Seconds between two passes over the streams at least: what came meanwhile goes in one write."""
FLUSH_SHARE = 0.25
"""The share of the time the passes over the streams may take: a pass that took 10 ms is followed
by at least 30 ms without one, so a crowd of browsers leaves the pit service its share."""
PASS_SLICE = 200
"""Streams written to before the loop looks at its other sockets again (a page asked for while a
pass goes round 2,000 streams waits for 200 of them, not all)."""
POOL_THREADS = 4
"""Threads that answer the requests that wait (a login hashes for ~50 ms; at most two hash at once,
auth.HASHING)."""
CHUNK = 256 * 1024
"""Bytes of patches read from the feed for one stream at a time."""
ACCEPT_BURST = 256
"""Connections accepted at most per wake-up (the others wait in the backlog)."""
BACKLOG = 1024
KEEPALIVE_BYTES = b": keep-alive\n\n"

_HEAD_END = re.compile(rb"\r?\n\r?\n")
_LENGTH = re.compile(rb"(?im)^content-length[ \t]*:[ \t]*(\d{1,9})[ \t]*\r?$")
_LISTEN, _WAKE = object(), object()
_ABORT = struct.pack("ii", 1, 0)

READING, WORKING, ANSWERING, STREAMING, DRAINING, CLOSED = range(6)


@dataclass
class Answer:
    """What the handler made of a request: the response's bytes, and for a stream its client
    (then the connection stays open and the patches follow)."""

    data: bytes
    client: Client | None = None


Handle = Callable[[bytes, tuple], Answer | None]
"""``handle(request bytes, client address)``: the answer, or None to close without one."""


class _Conn:
    __slots__ = ("address", "blocked_since", "client", "counted", "deadline", "inbuf", "mask", "out", "quiet_at",
                 "sock", "state")

    def __init__(self, sock: socket.socket, address: tuple, state: int, counted: bool) -> None:
        self.sock = sock
        self.address = address
        self.state = state
        self.counted = counted
        """It counts against the cap (a refused connection does not)."""
        self.inbuf = bytearray()
        self.out: memoryview | None = None
        """Bytes taken from the feed (or the answer) and not yet written."""
        self.client: Client | None = None
        self.mask = 0
        self.deadline = 0.0
        self.blocked_since: float | None = None
        self.quiet_at = 0.0


def room_for(connections: int) -> int:
    """The connections this process may hold: ``connections``, the soft limit of open files raised
    (up to the hard limit) to make room for them, and less if the hard limit is lower."""
    try:
        import resource
    except ImportError:   # not on Linux: leave the limit alone
        return connections
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = connections + REFUSING + RESERVED_FILES
    if soft != resource.RLIM_INFINITY and soft < want:
        new = want if hard == resource.RLIM_INFINITY else min(want, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft != resource.RLIM_INFINITY and soft < want:
        fewer = max(16, soft - REFUSING - RESERVED_FILES)
        log.warning("pit board: at most %d connections, not %d: the process may open only %d files (raise "
                    "LimitNOFILE in its systemd unit)", fewer, connections, soft)
        return fewer
    return connections


class HttpLoop:
    """The loop: ``start()``, then ``wake()`` from any thread when the feed has patches; ``stop()``."""

    def __init__(self, listener: socket.socket, handle: Handle, unsubscribe: Callable[[Client], None], *,
                 keepalive: float, max_connections: int = MAX_CONNECTIONS, busy: bytes = b"",
                 mark: Callable[[], None] = lambda: None,
                 slow: Callable[[bytes], bool] = lambda raw: raw.startswith(b"POST ")) -> None:
        self.listener = listener
        self.handle = handle
        self.unsubscribe = unsubscribe
        self.keepalive = keepalive
        self.max_connections = max_connections
        self.busy = busy
        self.slow = slow
        """``slow(request bytes)``: answered on the pool, not on the loop's thread."""
        self.mark = mark
        self.connections = 0
        """Connections open now, counted against the cap."""
        self.streams: set[_Conn] = set()
        self.refused = 0
        """Connections answered 503 (the cap), since the start."""
        self.dropped = 0
        """Streams reset for falling too far behind, since the start."""
        self.stalled = 0
        """Streams closed for taking nothing for :data:`STALL` seconds, since the start."""
        self._conns: dict[int, _Conn] = {}
        self._refusing = 0
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self._wake_lock = threading.Lock()
        """Held to write the wake-up pipe and to close it: a publish that raced the stop never writes
        a byte into a descriptor number the process has since given to another file."""
        self._woken = False
        self._pressing = False
        self._dirty = False
        self._flush_at = 0.0
        self._pass: list[_Conn] | None = None
        """The streams of the pass going round, from ``_pass_at`` on."""
        self._pass_at = 0
        self._pass_started = 0.0
        self._pass_busy = 0.0
        self._quiet: collections.OrderedDict[_Conn, None] = collections.OrderedDict()
        """The streams, the longest quiet first: who is due a keep-alive."""
        self._timeouts: list[tuple[float, int, _Conn]] = []
        self._ids = itertools.count()
        self._stall_check = 0.0
        self._dropped_now = 0
        self._accept_paused_until: float | None = None
        self._answers: queue.SimpleQueue[tuple[_Conn, Answer | None]] = queue.SimpleQueue()
        self._pool = ThreadPoolExecutor(max_workers=POOL_THREADS, thread_name_prefix="pit-board-pool")
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="pit-board-http", daemon=True)
        listener.setblocking(False)
        self._selector.register(listener, selectors.EVENT_READ, _LISTEN)
        self._selector.register(self._wake_r, selectors.EVENT_READ, _WAKE)

    def start(self) -> HttpLoop:
        self._thread.start()
        return self

    def wake(self, pressing: bool = False) -> None:
        """The feed has patches (called on the publishing thread: one byte at most, never blocks);
        ``pressing``: write them now, not at the next pass's time."""
        if pressing and not self._pressing:
            self._pressing = True
            self._woken = False
        if not self._woken:
            self._woken = True
            self._poke()

    def stop(self) -> None:
        """Close every connection (their streams end) and the listener; the thread ends. Once."""
        if self._stopping:
            return
        self._stopping = True
        self._poke()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(10)
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _poke(self) -> None:
        with self._wake_lock, contextlib.suppress(BlockingIOError, OSError):
            if self._wake_w >= 0:
                os.write(self._wake_w, b"\0")

    # -- the loop ----------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stopping:
                now = time.monotonic()
                try:
                    events = self._selector.select(self._timeout(now))
                except InterruptedError:
                    continue
                now = time.monotonic()
                for key, mask in events:
                    try:
                        self._event(key.data, mask, now)
                    except Exception:
                        log.exception("pit board: a connection failed; it is closed")
                        if isinstance(key.data, _Conn):
                            self._close(key.data)
                try:
                    self._after(now)
                except Exception:
                    log.exception("pit board: the connection loop failed a step; going on")
        finally:
            self._shut()

    def _event(self, what: object, mask: int, now: float) -> None:
        if what is _LISTEN:
            self._accept(now)
        elif what is _WAKE:
            with contextlib.suppress(BlockingIOError, OSError):
                while os.read(self._wake_r, 4096):
                    pass
            self._woken = False
            self._dirty = True
            if self._pressing:
                self._pressing = False
                self._flush_at = 0.0
        else:
            assert isinstance(what, _Conn)
            if mask & selectors.EVENT_READ:
                self._readable(what, now)
            if mask & selectors.EVENT_WRITE and what.state != CLOSED:
                self._write(what, now)

    def _after(self, now: float) -> None:
        while True:
            try:
                conn, answer = self._answers.get_nowait()
            except queue.Empty:
                break
            if conn.state == WORKING:
                self._answer(conn, answer, now)
        if self._pass is not None or (self._dirty and now >= self._flush_at):
            self._pass_step(now)
        self._due(now)

    def _timeout(self, now: float) -> float | None:
        if self._pass is not None:
            return 0.0   # a pass going round: the sockets ready meanwhile, then its next slice
        times = []
        if self._dirty:
            times.append(self._flush_at)
        if self._quiet:
            times.append(next(iter(self._quiet)).quiet_at + self.keepalive)
        if self._timeouts:
            times.append(self._timeouts[0][0])
        if self.streams:
            times.append(self._stall_check)
        if self._accept_paused_until is not None:
            times.append(self._accept_paused_until)
        return max(0.0, min(times) - now) if times else None

    # -- connections -------------------------------------------------------------------

    def _accept(self, now: float) -> None:
        for _ in range(ACCEPT_BURST):
            try:
                sock, address = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:
                if exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    log.warning("pit board: cannot accept a connection (%s): new ones wait a second",
                                os.strerror(exc.errno))
                    self._selector.unregister(self.listener)
                    self._accept_paused_until = now + 1.0
                    return
                continue   # ECONNABORTED and the like: that one is gone, the next may be there
            sock.setblocking(False)
            if self.connections >= self.max_connections:
                self._refuse(sock, address, now)
                continue
            conn = _Conn(sock, address, READING, counted=True)
            self.connections += 1
            self._conns[sock.fileno()] = conn
            self._mask(conn, selectors.EVENT_READ)
            self._deadline(conn, now + REQUEST_TIMEOUT)

    def _refuse(self, sock: socket.socket, address: tuple, now: float) -> None:
        """Past the cap: 503 with Retry-After, written at once (an empty socket takes it), then closed."""
        self.refused += 1
        if self._refusing >= REFUSING:
            sock.close()
            return
        conn = _Conn(sock, address, ANSWERING, counted=False)
        self._refusing += 1
        self._conns[sock.fileno()] = conn
        conn.out = memoryview(self.busy)
        self._write(conn, now)

    def _readable(self, conn: _Conn, now: float) -> None:
        try:
            data = conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            return self._close(conn)
        if not data:
            return self._close(conn)
        if conn.state != READING:
            return   # a stream's browser or a drained connection says more: not read
        start = max(0, len(conn.inbuf) - 3)
        conn.inbuf += data
        end = _HEAD_END.search(conn.inbuf, start)
        if end is None:
            if len(conn.inbuf) > MAX_HEAD:
                self._dispatch(conn, now, too_long=True)
            return
        if conn.inbuf.startswith(b"POST "):
            length = _LENGTH.search(conn.inbuf, 0, end.start())
            if length is not None and int(length.group(1)) <= MAX_BODY and \
                    len(conn.inbuf) < end.end() + int(length.group(1)):
                return   # the form's body is on its way
        self._dispatch(conn, now)

    def _dispatch(self, conn: _Conn, now: float, too_long: bool = False) -> None:
        raw = b"" if too_long else bytes(conn.inbuf)
        conn.inbuf = bytearray()
        if self.slow(raw):
            conn.state = WORKING
            self._mask(conn, 0)
            self._pool.submit(self._work, conn, raw)
        else:
            self._answer(conn, self._call(raw, conn.address), now)

    def _work(self, conn: _Conn, raw: bytes) -> None:
        """On a pool thread: the answer goes back to the loop."""
        self._answers.put((conn, self._call(raw, conn.address)))
        self._poke()

    def _call(self, raw: bytes, address: tuple) -> Answer | None:
        try:
            return self.handle(raw, address)
        except Exception:
            log.exception("pit board: a request from %s failed", address[0])
            return None

    def _answer(self, conn: _Conn, answer: Answer | None, now: float) -> None:
        if answer is None or (not answer.data and answer.client is None):
            return self._close(conn)
        conn.out = memoryview(answer.data)
        if answer.client is None:
            conn.state = ANSWERING
            return self._write(conn, now)
        conn.state = STREAMING
        conn.client = answer.client
        with contextlib.suppress(OSError):
            conn.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SNDBUF)
            # a browser gone without a word (a cable pulled): written data unacknowledged this long ends it
            conn.sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, "TCP_USER_TIMEOUT", 18), int(STALL * 1000))
        self.streams.add(conn)
        self._quiet[conn] = None
        conn.quiet_at = now
        if not self._stall_check:
            self._stall_check = now + min(STALL, 5.0)
        self._write(conn, now)

    def _write(self, conn: _Conn, now: float, once: bool = False) -> None:
        """Write what the connection has: its answer, then (a stream) the patches from its cursor,
        until the socket takes no more; ``once``: one read of the feed (a pass does not chase the
        patches that came while it went round: the next pass takes them)."""
        reads = 0
        while True:
            if not conn.out:
                if conn.state != STREAMING:
                    return self._answered(conn, now)
                assert conn.client is not None
                if once and reads:
                    break
                reads += 1
                try:
                    data = conn.client.read(CHUNK)
                except Dropped:
                    return self._drop(conn) if conn.client.dropped else self._close(conn)
                if not data:
                    break
                conn.out = memoryview(data)
            try:
                sent = conn.sock.send(conn.out)
            except (BlockingIOError, InterruptedError):
                sent = 0
            except OSError:
                return self._close(conn)
            conn.out = conn.out[sent:] if sent < len(conn.out) else None
            if conn.out is not None:
                if conn.blocked_since is None:
                    conn.blocked_since = now
                return self._mask(conn, selectors.EVENT_READ | selectors.EVENT_WRITE
                                  if conn.state == STREAMING else selectors.EVENT_WRITE)
            conn.blocked_since = None
            if conn.state == STREAMING:
                conn.quiet_at = now
                self._quiet.move_to_end(conn)
        self._mask(conn, selectors.EVENT_READ)

    def _answered(self, conn: _Conn, now: float) -> None:
        """The answer is out: say so (FIN) and drain what the client still sends, then close, so
        that a request body left unread does not reset the answer away."""
        try:
            conn.sock.shutdown(socket.SHUT_WR)
        except OSError:
            return self._close(conn)
        conn.state = DRAINING
        self._mask(conn, selectors.EVENT_READ)
        self._deadline(conn, now + LINGER)

    def _drop(self, conn: _Conn) -> None:
        """The stream fell further behind than the feed holds: reset (nothing it never read is kept
        for it; its browser reconnects and is told why it was redrawn). Logged once a pass."""
        self.dropped += 1
        self._dropped_now += 1
        self._close(conn, abort=True)

    def _close(self, conn: _Conn, abort: bool = False) -> None:
        if conn.state == CLOSED:
            return
        conn.state = CLOSED
        self._mask(conn, 0)
        fd = conn.sock.fileno()
        if self._conns.get(fd) is conn:
            del self._conns[fd]
        if conn.counted:
            self.connections -= 1
        else:
            self._refusing -= 1
        if abort:
            with contextlib.suppress(OSError):
                conn.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _ABORT)
        conn.sock.close()
        conn.out = None
        if conn.client is not None:
            self.streams.discard(conn)
            self._quiet.pop(conn, None)
            self.unsubscribe(conn.client)
            conn.client = None

    def _mask(self, conn: _Conn, mask: int) -> None:
        if mask == conn.mask:
            return
        if conn.mask == 0:
            self._selector.register(conn.sock, mask, conn)
        elif mask == 0:
            self._selector.unregister(conn.sock)
        else:
            self._selector.modify(conn.sock, mask, conn)
        conn.mask = mask

    def _deadline(self, conn: _Conn, at: float) -> None:
        conn.deadline = at
        heapq.heappush(self._timeouts, (at, next(self._ids), conn))

    # -- streams -----------------------------------------------------------------------

    def _pass_step(self, now: float) -> None:
        """A slice of a pass over the streams: each that can take more gets all its new patches in
        one write; one that cannot is skipped (its socket will say when it can), or dropped once
        the feed no longer holds its place. A pass that is done sets when the next may start: its
        busy time is at most :data:`FLUSH_SHARE` of the time from its start to the next's."""
        started = time.monotonic()
        if self._pass is None:
            self._dirty = False
            self.mark()
            self._pass, self._pass_at, self._pass_started, self._pass_busy = list(self.streams), 0, started, 0.0
        end = min(len(self._pass), self._pass_at + PASS_SLICE)
        for conn in self._pass[self._pass_at:end]:
            client = conn.client
            if conn.state != STREAMING or client is None or client.cursor >= client.log.end:
                continue
            if conn.out is not None:   # blocked: it is written when its socket says it can take more
                if client.cursor < client.log.first:
                    with contextlib.suppress(Dropped):
                        client.check()
                    self._drop(conn)
                continue
            self._write(conn, now, once=True)
        self._pass_at = end
        self._pass_busy += time.monotonic() - started
        if end < len(self._pass):
            return
        self._pass = None
        self._flush_at = self._pass_started + max(FLUSH_MIN, self._pass_busy / FLUSH_SHARE)
        if self._dropped_now:
            log.info("pit board: %d stream(s) fell further behind than the board holds and were dropped",
                     self._dropped_now)
            self._dropped_now = 0

    def _due(self, now: float) -> None:
        while self._quiet:
            conn = next(iter(self._quiet))
            if conn.quiet_at + self.keepalive > now:
                break
            conn.quiet_at = now
            self._quiet.move_to_end(conn)
            if conn.out is None:
                conn.out = memoryview(KEEPALIVE_BYTES)
                self._write(conn, now)
        while self._timeouts and self._timeouts[0][0] <= now:
            at, _, conn = heapq.heappop(self._timeouts)
            if conn.deadline == at and conn.state in (READING, DRAINING):
                self._close(conn)
        if self.streams and now >= self._stall_check:
            self._stall_check = now + min(STALL, 5.0)
            stalled = [c for c in self.streams if c.blocked_since is not None and now - c.blocked_since >= STALL]
            for conn in stalled:
                self._close(conn, abort=True)
            if stalled:
                self.stalled += len(stalled)
                log.info("pit board: %d stream(s) took nothing for %g s and were closed", len(stalled), STALL)
        elif not self.streams:
            self._stall_check = 0.0
        if self._accept_paused_until is not None and now >= self._accept_paused_until:
            self._accept_paused_until = None
            self._selector.register(self.listener, selectors.EVENT_READ, _LISTEN)

    def _shut(self) -> None:
        for conn in list(self._conns.values()):
            if conn.state in (STREAMING, ANSWERING):
                with contextlib.suppress(OSError):
                    conn.sock.shutdown(socket.SHUT_RDWR)
            self._close(conn)
        self._selector.close()
        with self._wake_lock:
            for fd in (self._wake_r, self._wake_w):
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._wake_r = self._wake_w = -1
        self.listener.close()
