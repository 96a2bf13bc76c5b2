"""Fan-out of the live picture's changes to the browsers that watch it (server-sent events).

The picture changes on the pit service's one thread, which must never wait for a browser: a
screen on a bad Wi-Fi link, or a laptop whose lid closed, would otherwise hold up every table's
archive. So each browser has its own bounded queue, :meth:`Feed.publish` only appends (never
blocks), and a browser whose queue is full is *dropped*: its stream ends, and the browser's
EventSource reconnects by itself and starts again from a fresh snapshot. A slow browser loses its
place, never anyone else's events.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

QUEUE = 1000
"""Patches a browser may be behind before it is dropped: some seconds of a busy floor."""


class Dropped(Exception):
    """The browser fell too far behind (or the feed closed): end its stream."""


class Client:
    """One browser's stream: patches for every table (``table`` None, the board) or for one table
    (its page)."""

    def __init__(self, table: str | None, maxsize: int = QUEUE) -> None:
        self.table = table
        self.maxsize = maxsize
        self.dropped = False
        """Its queue overflowed: it is told so and its stream ends."""
        self._items: deque[str] = deque()
        self._cond = threading.Condition()
        self._closed = False

    def offer(self, item: str) -> bool:
        """Queue one patch without waiting; False (and the client dropped) when it is full."""
        with self._cond:
            if self._closed:
                return False
            if len(self._items) >= self.maxsize:
                self.dropped = self._closed = True
                self._items.clear()
                self._cond.notify_all()
                return False
            self._items.append(item)
            self._cond.notify_all()
            return True

    def take(self, timeout: float) -> list[str]:
        """Every patch queued, waiting up to ``timeout`` for one; [] when none came (time for a
        keep-alive). :class:`Dropped` once the client is dropped or closed."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self._items and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    return []
                self._cond.wait(left)
            if self._closed:
                raise Dropped("dropped: too far behind" if self.dropped else "closed")
            items = list(self._items)
            self._items.clear()
            return items

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()


class Feed:
    """Every connected browser's :class:`Client`; :meth:`publish` hands a table's patch to those
    that want it."""

    def __init__(self, maxsize: int = QUEUE) -> None:
        self.maxsize = maxsize
        self.dropped = 0
        """Browsers dropped for falling behind, since the start."""
        self._clients: set[Client] = set()
        self._lock = threading.Lock()
        self._closed = False

    def subscribe(self, table: str | None = None) -> Client:
        client = Client(table, self.maxsize)
        with self._lock:
            if self._closed:
                client.close()
            else:
                self._clients.add(client)
        return client

    def unsubscribe(self, client: Client) -> None:
        with self._lock:
            self._clients.discard(client)
        client.close()

    def publish(self, table: str, board: Callable[[], str], page: Callable[[], str]) -> None:
        """Offer ``table``'s change to each browser: ``board()`` (the tile) to the board's, ``page()``
        (the tile and the table's history) to that table's page. Each is made at most once, and only
        if someone wants it. Never blocks."""
        with self._lock:
            clients = list(self._clients)
        made: dict[str, str] = {}
        for client in clients:
            if client.table is None:
                item = made.get("board") or made.setdefault("board", board())
            elif client.table == table:
                item = made.get("page") or made.setdefault("page", page())
            else:
                continue
            if not client.offer(item) and client.dropped:
                with self._lock:
                    if client in self._clients:
                        self._clients.discard(client)
                        self.dropped += 1

    def clients(self) -> int:
        with self._lock:
            return len(self._clients)

    def close(self) -> None:
        """Every stream ends (the server stops)."""
        with self._lock:
            self._closed = True
            clients, self._clients = list(self._clients), set()
        for client in clients:
            client.close()
