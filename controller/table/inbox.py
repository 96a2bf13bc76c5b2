"""The table's inbox, and what it carries besides device events.

The table thread is the only owner of state (DESIGN.md, "How an event
travels"), so every other thread talks to it by putting an item on its
:class:`Inbox`: the device readers, the GPIO callbacks, whoever stops the
table; the MQTT client's callbacks (commands, acknowledgements, connection
changes) run on the table thread itself and queue theirs the same way, so
that they are handled in order with the rest. Device events come from
:mod:`drivers.events`.
"""

from __future__ import annotations

import contextlib
import os
import queue
from dataclasses import dataclass
from typing import Any


class Inbox(queue.Queue):
    """A ``queue.Queue`` whose arrivals can be waited for with ``selectors``, beside sockets.

    The table thread waits on the MQTT socket and on this at once (controller.table.reactor), so an
    item must wake it as a readable descriptor does. A ``put`` writes one byte to a pipe when
    none is waiting to be read (one wake-up however many items arrive before the thread looks);
    :meth:`woken` takes it back before the items are drained, so an item put meanwhile writes
    again and is never missed. ``queue.Queue`` keeps its locking; only ``_put``, which it calls
    under its mutex, is extended."""

    def __init__(self) -> None:
        super().__init__()
        self._read_fd, self._write_fd = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self._signalled = False

    def _put(self, item: Any) -> None:
        self.queue.append(item)
        if not self._signalled:
            self._signalled = True
            os.write(self._write_fd, b"\0")

    def wake(self) -> None:
        """Wake the table thread with no item (the MQTT connector thread has a socket for it)."""
        with self.mutex:
            if not self._signalled:
                self._signalled = True
                os.write(self._write_fd, b"\0")

    def fileno(self) -> int:
        """Readable while an item may be waiting."""
        return self._read_fd

    def woken(self) -> None:
        """The wake-up was seen: take it back (then drain the queue)."""
        with self.mutex:
            self._signalled = False
            with contextlib.suppress(BlockingIOError):
                os.read(self._read_fd, 64)

    def __del__(self) -> None:
        # Only when nobody holds the inbox any more, so no put can write to a number reused since.
        for fd in (self._read_fd, self._write_fd):
            with contextlib.suppress(OSError):
                os.close(fd)


@dataclass(frozen=True, slots=True)
class Command:
    """A pit command as it arrived, parsed only enough to route it: the
    table thread checks the payload and replies (``reply_topic``, with the
    MQTT v5 ``correlation`` data when the request had some)."""

    name: str
    payload: bytes
    reply_topic: str
    correlation: bytes | None = None
    retained: bool = False


@dataclass(frozen=True, slots=True)
class Acked:
    """The broker acknowledged the publish with this paho message id.

    ``ok`` is False when an MQTT v5 broker answered with a failure reason
    (for instance "not authorized"): the event then stays undelivered.
    """

    mid: int
    ok: bool = True
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ForeignStatus:
    """A status of this table from another journal arrived while the session was up: another
    controller publishes as this table (controller.table.loop, "Two controllers, one table")."""

    status: dict


@dataclass(frozen=True, slots=True)
class Connected:
    """The MQTT session is up: publish the birth, the state and the backlog. ``prior`` is the
    table's retained status as the broker held it before this session published anything (None:
    there was none): a status from another journal means another controller publishes as this
    table, and seqs would repeat."""

    prior: dict | None = None


@dataclass(frozen=True, slots=True)
class Disconnected:
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Stop:
    """Finish what is queued before this, then shut down."""
