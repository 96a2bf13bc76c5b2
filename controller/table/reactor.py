"""The table thread's one wait: for the inbox and the MQTT socket at once.

Before, the table thread waited on a ``queue.Queue`` and paho ran its own network thread; a
published card then waited for that thread to get the GIL, after the table thread had done the
rest of its item (issue 11). Now one thread owns the state and the descriptors and wakes only
when one of them is ready, as Klipper's reactor (``klippy/reactor.py``) does: the inbox's
wake-up pipe (:class:`controller.table.inbox.Inbox`) and the publisher's socket, readable always and
writable while paho holds bytes the socket would not take. No polling: the wait ends on a
descriptor, or at the one deadline the caller or the publisher gave (a watchdog tick, delivered
marks to write, a keepalive check, a reconnect).
"""

from __future__ import annotations

import contextlib
import selectors
import time
from typing import Any, Protocol

from controller.table.inbox import Inbox


class NetworkClient(Protocol):
    """What the reactor serves (controller.table.publisher.Publisher). All on the table thread."""

    def socket(self) -> Any: ...
    def want_write(self) -> bool: ...
    def readable(self) -> None: ...
    def writable(self) -> None: ...
    def due(self) -> float | None: ...
    def tend(self) -> None: ...


class Reactor:
    """Waits for the inbox or ``deadline`` while serving the client's socket."""

    def __init__(self, inbox: Inbox, client: NetworkClient) -> None:
        self.inbox = inbox
        self.client = client
        self._selector = selectors.DefaultSelector()
        self._selector.register(inbox, selectors.EVENT_READ)
        self._sock: Any = None
        self._events = 0

    def wait(self, deadline: float | None) -> None:
        """Return when the inbox may hold an item, or at ``deadline`` (monotonic; None: none).
        Meanwhile the socket is read and written, and the client's own timers run."""
        client = self.client
        while True:
            client.tend()
            if self.inbox.qsize():
                timeout: float | None = 0.0
            else:
                due = client.due()
                ends = [t for t in (deadline, due) if t is not None]
                timeout = max(0.0, min(ends) - time.monotonic()) if ends else None
            self._watch(client.socket(), client.want_write())
            for key, mask in self._selector.select(timeout):
                if key.fileobj is self.inbox:
                    self.inbox.woken()   # an item, or the connector's signal (handled by tend())
                    continue
                if mask & selectors.EVENT_READ:
                    client.readable()
                if mask & selectors.EVENT_WRITE and client.socket() is not None:
                    client.writable()
            client.tend()
            if self.inbox.qsize() or (deadline is not None and time.monotonic() >= deadline):
                return

    def _watch(self, sock: Any, write: bool) -> None:
        """Keep the socket's registration as the client's socket and its write wish are now."""
        events = (selectors.EVENT_READ | (selectors.EVENT_WRITE if write else 0)) if sock is not None else 0
        if sock is self._sock and events == self._events:
            return
        if self._sock is not None:
            with contextlib.suppress(KeyError, ValueError):
                self._selector.unregister(self._sock)   # found by identity even once closed
        self._sock, self._events = sock, events
        if sock is not None:
            self._selector.register(sock, events)

    def close(self) -> None:
        self._selector.close()
