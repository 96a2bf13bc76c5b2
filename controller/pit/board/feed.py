"""Fan-out of the live picture's changes to the browsers that watch it (server-sent events).

The picture changes on the pit service's one thread, which must never wait for a browser, nor do
work for each one: a screen on a bad Wi-Fi link, a laptop whose lid closed, or a floor of many
browsers would otherwise hold up every table's archive. So a change is encoded **once** per
audience, as the bytes of one server-sent event (``id``, ``event: patch``, ``data``), and appended
to that audience's :class:`_Log`: one log for the board (every tile), one per table whose page is
open. :meth:`Feed.publish` does nothing per browser: it appends and wakes the board's loop.

Each browser (:class:`Client`) is only a cursor into its audience's log. Whoever serves it reads
from the cursor on, when it can take more (the board's loop, controller.pit.board.web, when the
browser's socket is writable; :meth:`Client.take` for a reader in this process). Browsers that
keep up share one joined buffer per log. A log keeps the last :data:`QUEUE` patches and at most
:data:`QUEUE_BYTES`: a browser whose cursor falls off the log's start is *dropped* (its stream
ends), never waited for. A slow browser loses its place, never anyone else's events, and costs
nothing while it does not read.

Each patch's id is ``<epoch>-<version>`` (the feed's random epoch, the picture's version). A
browser's EventSource sends the last one it got when it reconnects (``Last-Event-ID``):
:meth:`Feed.resume` lets it go on from there if its log still holds every patch since, and
otherwise says why it cannot (the browser fell behind and was dropped, or the board restarted), so
the browser is given a fresh snapshot and can tell its user why it was redrawn.
"""

from __future__ import annotations

import itertools
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable

QUEUE = 1000
"""Patches a browser may be behind before it is dropped: some seconds of a busy floor."""
QUEUE_BYTES = 4 * 2**20
"""Bytes of patches a log holds at most (a table page's patches carry its alarm log and roads)."""
KEEP = 30.0
"""Seconds a log is kept after its last browser left: a browser back from a short break (a page
reloaded, a Wi-Fi blip) goes on where it was instead of being sent the whole picture again."""


MEMO = 8
"""Reads a log remembers for the browsers that come to the same place after the first."""


class Dropped(Exception):
    """The browser fell too far behind (or the feed closed): end its stream."""


class _Log:
    """One audience's patches, encoded: the board's (``key`` None) or one table's page."""

    __slots__ = ("clients", "first", "frames", "held_from", "idle_since", "key", "mark", "memo", "size",
                 "versions")

    def __init__(self, key: str | None, version: int) -> None:
        self.key = key
        self.frames: deque[bytes] = deque()
        self.versions: deque[int] = deque()
        self.first = 0
        """The index (counted since the log began) of ``frames[0]``."""
        self.size = 0
        self.held_from = version
        """Every patch of this audience after this picture version is in ``frames``."""
        self.clients: set[Client] = set()
        self.memo: dict[int, tuple[int, bytes]] = {}
        """The last bytes read, by the index they start at: (the index after them, the bytes). The
        browsers that keep up are at one index: the first to read joins the patches, the others
        take the same bytes, and so on along the log."""
        self.mark = 0
        """``end`` when the browsers were last written to (:meth:`Feed.mark`)."""
        self.idle_since: float | None = None
        """When its last browser left (None while it has one)."""

    @property
    def end(self) -> int:
        return self.first + len(self.frames)

    def append(self, frame: bytes, version: int, maxsize: int, maxbytes: int) -> None:
        self.frames.append(frame)
        self.versions.append(version)
        self.size += len(frame)
        while len(self.frames) > maxsize or (self.size > maxbytes and len(self.frames) > 1):
            self.size -= len(self.frames.popleft())
            self.held_from = self.versions.popleft()
            self.first += 1


class Client:
    """One browser's stream: patches for every table (``table`` None, the board) or for one table
    (its page). A cursor into its audience's log, nothing more."""

    def __init__(self, feed: Feed, log: _Log, cursor: int) -> None:
        self.feed = feed
        self.log = log
        self.table = log.key
        self.cursor = cursor
        """The index in the log of the next patch this browser has not been given."""
        self.dropped = False
        """It fell too far behind: its stream ends, and a reconnect is told why."""
        self.closed = False

    @property
    def behind(self) -> int:
        """Patches waiting for it."""
        return max(0, self.log.end - self.cursor)

    def read(self, limit: int = 256 * 1024) -> bytes:
        """The patches waiting, as the bytes of their server-sent events (about ``limit`` at most,
        whole events; b"" when none), the cursor moved past them. Never waits.
        :class:`Dropped` once the client is dropped or closed."""
        return self.feed._read(self, limit)

    def check(self) -> None:
        """:class:`Dropped` if the log no longer holds its place (it is dropped now) or it is closed;
        for a browser that is not being read from now (its socket full)."""
        with self.feed._lock:
            self.feed._check(self)

    def take(self, timeout: float) -> list[str]:
        """Every patch waiting (each its JSON), waiting up to ``timeout`` for one; [] when none came
        (time for a keep-alive). :class:`Dropped` once the client is dropped or closed. For a
        reader in this process; the board's loop uses :meth:`read`."""
        return self.feed._take(self, timeout)


class Feed:
    """Every connected browser's :class:`Client`, by audience; :meth:`publish` appends a table's
    change to the logs that have a browser."""

    def __init__(self, maxsize: int = QUEUE, maxbytes: int = QUEUE_BYTES) -> None:
        self.maxsize = maxsize
        self.maxbytes = maxbytes
        self.epoch = secrets.token_hex(4)
        """This feed's part of every event id: a browser's id from another process (the board
        restarted) is never taken for one of this feed's."""
        self.dropped = 0
        """Browsers dropped for falling behind, since the start."""
        self.listeners: list[Callable[[bool], None]] = []
        """``listener(pressing)``, called on the publishing thread after a log got a patch: the web
        loop's wake-up. ``pressing``: a log got half of what it holds since :meth:`mark`, so its
        browsers should be written to now, before the keeping-up ones fall off its start. Must not
        block."""
        self._logs: dict[str | None, _Log] = {}
        self._swept = time.monotonic()
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._closed = False

    # -- subscribing ---------------------------------------------------------------

    def subscribe(self, table: str | None = None, version: int = 0) -> Client:
        """A client from now on (its snapshot was taken at ``version``, under the picture's lock)."""
        with self._lock:
            log = self._log(table, version)
            client = Client(self, log, log.end)
            if self._closed:
                client.closed = True
            else:
                log.clients.add(client)
            return client

    def resume(self, table: str | None, last_id: str, version: int) -> tuple[Client | None, str | None]:
        """A client that goes on after the event ``last_id`` (a browser's ``Last-Event-ID``), when
        its log holds every patch since; else (None, why a fresh snapshot: None when the id says
        nothing useful). ``version`` is the picture's now."""
        epoch, _, number = last_id.strip().partition("-")
        if not number.isdigit() or len(number) > 18:
            return None, None
        last = int(number)
        if epoch != self.epoch:
            return None, "the pit board restarted"
        if last > version:
            return None, None
        with self._lock:
            if self._closed:
                return None, None
            created = not self._wanted(table)
            log = self._log(table, version)
            if last < log.held_from:
                if created:
                    del self._logs[table]
                return None, f"this screen was {version - last} changes behind the floor"
            cursor = log.first + sum(1 for v in log.versions if v <= last)
            client = Client(self, log, cursor)
            log.clients.add(client)
            return client, None

    def unsubscribe(self, client: Client) -> None:
        with self._lock:
            self._leave(client)
            client.closed = True
            self._cond.notify_all()

    def clients(self) -> int:
        with self._lock:
            return sum(len(log.clients) for log in self._logs.values())

    def close(self) -> None:
        """Every stream ends (the server stops)."""
        with self._lock:
            self._closed = True
            for log in self._logs.values():
                for client in log.clients:
                    client.closed = True
            self._logs.clear()
            self._cond.notify_all()

    # -- publishing ----------------------------------------------------------------

    def publish(self, table: str, board: Callable[[], str], page: Callable[[], str], version: int = 0) -> None:
        """Append ``table``'s change: ``board()`` (the tile) to the board's log, ``page()`` (the tile
        and the table's history) to that table's page's. Each is made at most once, and only if a
        browser watches it. Never blocks, and does nothing per browser."""
        with self._lock:
            wanted = [(key, make) for key, make in ((None, board), (table, page)) if self._wanted(key)]
        if not wanted:
            return
        frames = [(key, self.frame("patch", version, make())) for key, make in wanted]
        pressing = False
        with self._lock:
            for key, frame in frames:
                log = self._logs.get(key)
                if log is not None:
                    log.append(frame, version, self.maxsize, self.maxbytes)
                    pressing = pressing or log.end - log.mark >= max(1, self.maxsize // 2)
            self._cond.notify_all()
            listeners = list(self.listeners)
        for wake in listeners:
            wake(pressing)

    def mark(self) -> None:
        """The browsers are being written to now (the web loop's pass): what comes after presses."""
        with self._lock:
            for log in self._logs.values():
                log.mark = log.end

    def frame(self, event: str, version: int, data: str) -> bytes:
        """One server-sent event: its id (this feed's epoch and the picture's version), its name and
        its data (JSON: one line)."""
        return f"id: {self.epoch}-{version}\nevent: {event}\ndata: ".encode() + data.encode() + b"\n\n"

    # -- reading -------------------------------------------------------------------

    def _read(self, client: Client, limit: int) -> bytes:
        with self._lock:
            log = self._check(client)
            end = log.end
            if client.cursor >= end:
                return b""
            memo = log.memo.get(client.cursor)
            if memo is not None:
                client.cursor = memo[0]
                return memo[1]
            parts, size = [], 0
            for frame in itertools.islice(log.frames, client.cursor - log.first, None):
                parts.append(frame)
                size += len(frame)
                if size >= limit:
                    break
            data = b"".join(parts)
            log.memo[client.cursor] = (client.cursor + len(parts), data)
            if len(log.memo) > MEMO:
                del log.memo[next(iter(log.memo))]
            client.cursor += len(parts)
            return data

    def _take(self, client: Client, timeout: float) -> list[str]:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                log = self._check(client)
                if client.cursor < log.end:
                    frames = list(itertools.islice(log.frames, client.cursor - log.first, None))
                    client.cursor = log.end
                    return [f[f.index(b"\ndata: ") + 7:-2].decode() for f in frames]
                left = deadline - time.monotonic()
                if left <= 0:
                    return []
                self._cond.wait(left)

    def _check(self, client: Client) -> _Log:
        """The client's log; :class:`Dropped` if it is closed, or behind the log's start (then it is
        dropped now). Under the lock."""
        if not client.closed and client.cursor < client.log.first:
            self._leave(client)
            client.dropped = client.closed = True
            self.dropped += 1
        if client.closed:
            raise Dropped(f"dropped: too far behind (more than {self.maxsize} patches or "
                          f"{self.maxbytes // 2**20} MiB waited for it)" if client.dropped else "closed")
        return client.log

    def _log(self, key: str | None, version: int) -> _Log:
        now = time.monotonic()
        if now - self._swept > KEEP:   # logs nobody came back to, of tables that send nothing more
            self._swept = now
            for old in [k for k, v in self._logs.items() if v.idle_since is not None and now - v.idle_since > KEEP]:
                del self._logs[old]
        log = self._logs.get(key)
        if log is None:
            log = self._logs[key] = _Log(key, version)
        log.idle_since = None
        return log

    def _wanted(self, key: str | None) -> bool:
        """A log to append to: one with a browser, or left by its last one less than :data:`KEEP`
        seconds ago. Past that it goes: nobody watches, its patches are not made any more."""
        log = self._logs.get(key)
        if log is None:
            return False
        if log.idle_since is not None and time.monotonic() - log.idle_since > KEEP:
            del self._logs[key]
            return False
        return True

    def _leave(self, client: Client) -> None:
        log = client.log
        log.clients.discard(client)
        if not log.clients and self._logs.get(log.key) is log:
            log.idle_since = time.monotonic()
