"""For tests in which the test thread plays the table thread: a publisher's socket is served
only while somebody waits in its reactor (controller.table.reactor), as the table loop does."""

from __future__ import annotations

import queue
import time

from controller.table.inbox import Inbox
from controller.table.publisher import Publisher
from controller.table.reactor import Reactor


def served(publisher: Publisher, inbox: Inbox) -> Inbox:
    """Give ``inbox`` the reactor that serves ``publisher``'s socket while :func:`take` waits."""
    inbox.reactor = Reactor(inbox, publisher)  # type: ignore[attr-defined]
    return inbox


def take(inbox: Inbox, kind: type | tuple[type, ...], timeout: float, reactor: Reactor | None = None) -> object:
    """The next inbox item of ``kind`` (others are dropped: the test plays the table), serving the
    socket meanwhile (with ``reactor``, else the one :func:`served` gave); ``queue.Empty`` after
    ``timeout``."""
    reactor = reactor or inbox.reactor  # type: ignore[attr-defined]
    end = time.monotonic() + timeout
    while True:
        try:
            item = inbox.get_nowait()
        except queue.Empty:
            if time.monotonic() >= end:
                raise
            reactor.wait(end)
            continue
        if isinstance(item, kind):
            return item


def serve(inbox: Inbox, seconds: float) -> None:
    """Serve the socket for ``seconds`` (what arrives stays in the inbox)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        inbox.reactor.wait(end)  # type: ignore[attr-defined]
