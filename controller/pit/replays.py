"""One table's ``cmd/replay`` requests from a pit service: which range to ask for next, when, and
what a reply means. No I/O and no clock of its own (the service passes ``now``), so the
policy is tested without a broker.

The same rules as ``tablectl watch --replay`` (controller/pit/watch/command.py, docs/internals.md "Replay"):
one request per table at a time, at most the controller's ``REPLAY_LIMIT`` seqs, cut to what is
still missing when it goes; a refusal or a silence is asked again after :data:`RETRY_DELAYS`.
An archive never gives a gap up while the table may still send it: after the last delay it goes
on asking at that pace, and a gap ends only as filled or as *unfillable*, when the table says it
no longer holds those seqs (:func:`read_refusal`) or that they are damaged. Watch, a terminal that
may have nobody reading it, gives a range up after its retries (``give_up_after``); it keeps its
own I/O (timers, printed lines, ``--replay-max``) and takes this policy from here.

The clock of a request's answer. A pit service gets the reply in the same ordered stream as
everything else the broker queued for it; back from an outage, that stream is minutes behind, and
a reply the table sent at once comes late. So a service's request is ``sent`` until the request
itself comes back to it through its own subscription (``heard``): only then is the table's
silence measured. Watch, which does not hear its requests, starts the clock when it asks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from controller.pit.lines import REPLAY_LIMIT

RETRY_DELAYS = (2.0, 5.0, 15.0, 30.0, 60.0)
"""Seconds before asking again after the 1st, 2nd ... refusal or silence; the last repeats."""

REPLY_TIMEOUT = 10.0
"""Seconds for the reply to a request; a table that is up answers at once."""

REPLAY_TIMEOUT = 30.0
"""Seconds, after the reply or the last replayed event, for the rest of a replay to arrive."""

UNHEARD_TIMEOUT = 60.0
"""Seconds a request its sender listens for may take to come back to it before it counts as lost on
the way (a broker that crashed after taking it, or that dropped it for a sender far behind): it is
asked again, which is no failure of the table. A sender that has nothing queued before it (idle
for a grace) knows sooner (PitService)."""

_PRUNED = re.compile(r"no longer holds seqs before (\d+)")
_BEYOND = re.compile(r"beyond the last event journaled, seq (\d+)")


@dataclass(frozen=True)
class Refusal:
    """What a table's refusal of ``cmd/replay`` means: ``pruned`` (it holds nothing before
    ``seq``), ``beyond`` (it has nothing after ``seq``), or ``busy`` (ask again later)."""

    kind: str
    seq: int | None = None

    def unfillable(self, first: int, last: int) -> tuple[int, int] | None:
        """The part of a refused request ``first..last`` that the table can never send: before a
        pruned journal's oldest seq, or after its last one. None when the refusal is one to ask
        again (busy, or a reason that does not bear on the range): asking again for seqs the table
        says it has not got would only be refused again, so the caller gives them up at once."""
        if self.kind == "pruned" and self.seq is not None and self.seq > first:
            return first, min(last, self.seq - 1)
        if self.kind == "beyond" and self.seq is not None and self.seq < last:
            return max(first, self.seq + 1), last
        return None


def read_refusal(error: str) -> Refusal:
    """The table's reason (controller.table.outbox, ``Outbox.queue_replay``) read for what it means."""
    if match := _PRUNED.search(error):
        return Refusal("pruned", int(match.group(1)))
    if match := _BEYOND.search(error):
        return Refusal("beyond", int(match.group(1)))
    return Refusal("busy")


@dataclass
class Request:
    """The one request out: ``sent`` until it comes back to its sender (when the sender listens
    for it), ``asked`` until its reply, ``replaying`` until its seqs are in."""

    id: str
    first: int
    last: int
    phase: str
    deadline: float
    """When the request counts as lost (``sent``), the table as silent, or the replay as stalled."""
    at: float = 0.0
    """When it was sent."""
    missing: int = 0
    """Seqs of first..last that were missing when it was sent."""


class TableReplays:
    """The requests of one table."""

    def __init__(self, *, limit: int = REPLAY_LIMIT, retry_delays: tuple[float, ...] = RETRY_DELAYS,
                 reply_timeout: float = REPLY_TIMEOUT, replay_timeout: float = REPLAY_TIMEOUT,
                 unheard_timeout: float = UNHEARD_TIMEOUT, give_up_after: int | None = None) -> None:
        """``give_up_after``: failures in a row after which a range is given up (watch's bound on
        what it asks of a table nobody may be watching); None, the default: never, as an archive
        must not give up seqs the table may still send."""
        self.limit = limit
        self.give_up_after = give_up_after
        self.retry_delays = retry_delays
        self.reply_timeout = reply_timeout
        self.replay_timeout = replay_timeout
        self.unheard_timeout = unheard_timeout
        self.out: Request | None = None
        self.failures = 0
        """Refusals and silences in a row."""
        self.not_before = 0.0

    def wake_at(self, now: float) -> float | None:
        """When the service must look at this table again, if it must: a request's deadline, or
        the end of a retry delay still to come."""
        if self.out is not None:
            return self.out.deadline
        return self.not_before if self.not_before > now else None

    def next(self, open_gaps: list[tuple[int, int]], now: float, request_id: str, *,
             heard: bool = True) -> Request | None:
        """The request to send now, if any: none out, the retry delay passed, a gap open. It spans
        every open gap that fits in :attr:`limit` seqs from the first: many small holes (a pit
        service of a group away, whose share of the events the broker keeps for it) are one
        request, the seqs between them coming again as duplicates, not one request each.
        ``heard`` False: the sender hears its own request come back (:meth:`heard`), and the
        reply's clock starts then."""
        if self.out is not None or now < self.not_before or not open_gaps:
            return None
        first = open_gaps[0][0]
        end = first + self.limit - 1
        last = max(min(b, end) for a, b in open_gaps if a <= end)
        self.out = Request(request_id, first, last, "asked" if heard else "sent",
                           now + (self.reply_timeout if heard else self.unheard_timeout), now,
                           missing_in(open_gaps, first, last))
        return self.out

    def heard(self, request_id: str, now: float) -> None:
        """The request ``request_id`` came back to its sender: everything queued for the sender
        before it has been read, and the table's answer, which follows, is now due."""
        out = self.out
        if out is not None and out.id == request_id and out.phase == "sent":
            out.phase, out.deadline = "asked", now + self.reply_timeout

    def unheard(self) -> Request | None:
        """The request out, if it has not come back to its sender, counted lost on the way (a new
        connection, the old one gone with it; or see :data:`UNHEARD_TIMEOUT`): the next may go at
        once, no failure counted. The request given up, if any."""
        out = self.out
        if out is None or out.phase != "sent":
            return None
        self.out = None
        return out

    def accepted(self, now: float) -> None:
        assert self.out is not None
        self.out.phase, self.out.deadline = "replaying", now + self.replay_timeout

    def progress(self, seq: int, now: float) -> bool:
        """A replayed event arrived: the rest is given time. True if it was in the range asked."""
        out = self.out
        if out is None or out.phase != "replaying" or not out.first <= seq <= out.last:
            return False
        out.deadline = now + self.replay_timeout
        return True

    def arrived(self, runs: list[tuple[int, int]], now: float) -> None:
        """Seqs of these runs reached the archive, whoever stored them (in a group, most of a
        replay goes to the other services): a replay still coming is given time."""
        out = self.out
        if out is not None and out.phase == "replaying" and any(a <= out.last and b >= out.first for a, b in runs):
            out.deadline = now + self.replay_timeout

    def done(self) -> None:
        """Nothing of the range is missing any more (or what is, is unfillable)."""
        self.out, self.failures, self.not_before = None, 0, 0.0

    def failed(self, now: float) -> float | None:
        """A refusal to ask again, or a silence: the seconds until the next request; or None when
        that was the ``give_up_after``-th failure in a row: the range is given up, and the next
        may go at once (never without ``give_up_after``)."""
        self.out = None
        if self.give_up_after is not None and self.failures + 1 >= self.give_up_after:
            self.done()
            return None
        delay = self.retry_delays[min(self.failures, len(self.retry_delays) - 1)]
        self.failures += 1
        self.not_before = now + delay
        return delay


def missing_in(open_gaps: list[tuple[int, int]], first: int, last: int) -> int:
    """How many seqs of ``first..last`` the open gaps hold."""
    return sum(min(b, last) - max(a, first) + 1 for a, b in open_gaps if a <= last and b >= first)
