"""What the table's inbox carries besides device events.

The table thread is the only owner of state (DESIGN.md, "How an event
travels"), so every other thread talks to it by putting one of these on its
``queue.Queue``: the MQTT network thread (commands, acknowledgements,
connection changes) and whoever stops the table. Device events come from
:mod:`drivers.events`.
"""

from __future__ import annotations

from dataclasses import dataclass


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
    controller publishes as this table (controller.table, "Two controllers, one table")."""

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
