"""The outbox: every journaled event the broker has not acknowledged yet, and how it goes out.

The journal is the outbox (DESIGN.md, "MQTT": paho keeps unacknowledged messages only in memory),
so nothing here holds an event the journal does not. What this module owns is the order and the
pace of publishing:

- **Live events** go to the socket as soon as they are journaled (QoS 1), unless a backlog is
  draining (they wait behind it, in ``seq`` order) or the broker has stopped acknowledging: at
  :data:`LIVE_WINDOW` publishes in paho's hands new events wait in the journal like a backlog,
  well before paho's 16-bit message ids run out.
- **The backlog** (store and forward, docs/internals.md): on each (re)connect every undelivered
  event goes out again in ``seq`` order, at most :data:`DRAIN_WINDOW` unacknowledged, topped up
  as PUBACKs return. Events paho still holds are skipped: paho resends those itself.
- **Replays** (``cmd/replay``): a pit that found a gap asks for it again; the events go out
  again, same bytes, behind any backlog, a few at a time (:data:`REPLAY_WINDOW`) so a live card
  never waits behind thousands of old events, within a budget for all requests together.
- **The retained state**: newest only, once paho has room.
- **The cap**: at ``journal.warn_at`` of ``journal.max_undelivered`` an ``outbox_filling`` alarm,
  at the cap an ``outbox_full`` alarm and a hold (no new round is dealt: ``deal`` in ``betting``
  is refused); the hold lifts, and the warning re-arms, once the backlog is down to half the
  warning level. No event is ever dropped.
- **Delivered marks**: a PUBACK's mark waits in memory (:data:`MARK_DELAY`) for the next event
  commit to carry it (controller.table.journal, "Durability"), except while the outbox count
  decides something.

It runs on the table thread only (controller.table.loop), as everything that touches paho does.
"""

from __future__ import annotations

import logging
import queue
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from controller.table.config import JournalSection
from controller.table.inbox import Acked, Disconnected, Inbox
from controller.table.journal import Event, Journal
from controller.table.publisher import Publisher
from controller.table.reactor import Reactor
from games.round import Refused

log = logging.getLogger(__name__)

DRAIN_WINDOW = 1000
"""At most this many publishes in paho's hands (unacknowledged) while a backlog
drains: memory stays bounded and paho's 16-bit message ids never run out."""

DRAIN_BATCH = 500
"""Backlog rows read from the journal at a time."""

REPLAY_LIMIT = 10_000
"""Events one ``cmd/replay`` may ask for: a gap after a broker restart is a few
hundred at most; a pit that needs a whole day reads the journal instead."""

REPLAYS_QUEUED = 8
"""Replay requests waiting at once; more are refused until these have gone out."""

LIVE_WINDOW = 20_000
"""Live events in paho's hands, unacknowledged, at most: beyond it (a broker that stalls) events
wait in the journal and drain in seq order, well before paho's 16-bit message ids run out."""

REPLAY_BUDGET = REPLAY_LIMIT
"""Events one requester's waiting replays may still have to send, together: eight requests of 10,000 each
once made the table republish 80,000 events, and the pit's live latency went from 1.4 ms to
4.5 s. A request past the budget is refused until the others have gone out."""

REPLAY_REQUESTERS = 16
"""Requesters whose replays may be going out at once."""

REPLAY_TURN = 10
"""Replayed events one requester's turn hands over before the next requester's."""

REPLAY_WINDOW = 50
"""Replayed publishes paho may hold unacknowledged at once: replays fill what the live events
leave, a few at a time, so a live card never waits behind thousands of old events."""

HOLD_REASON = ("the outbox is full: the broker has not acknowledged journal.max_undelivered events; "
               "no new round is dealt until the backlog drains")

MARK_DELAY = 0.25
"""Seconds a delivered mark may wait in memory for the next event commit to carry
it (controller.table.journal, "Durability"); then the table writes it on its own."""

ACK_GRACE = 2.0
"""Seconds a clean stop waits for the broker to acknowledge what is in flight."""

Alarm = Callable[[str, str, str, str], None]
"""``(code, severity, message, action)``: the table journals and publishes it as an ``alarm``."""


class Outbox:
    """The outbox of one table: see the module's docstring. ``alarm`` raises the table's own alarms
    (the cap, a journal row that cannot be read); ``deal_again`` publishes the prompt once more when
    a hold lifts after it refused a deal."""

    def __init__(self, journal: Journal, publisher: Publisher, limits: JournalSection, *,
                 alarm: Alarm, deal_again: Callable[[], None]) -> None:
        self.journal = journal
        self.publisher = publisher
        self.limits = limits
        self._alarm = alarm
        self._deal_again = deal_again
        self.online = False       # a session with the broker: publishing now, or paho queues it
        self.held = False         # at the cap: no new round until under the warning level
        self._held_deal = False   # a deal was refused during the hold: prompt again when it lifts
        self._filling = False     # outbox_filling raised, not yet back under the warning level
        self._draining = False    # a backlog is going out: new events wait behind it
        self._cursor = 0          # the last seq of the backlog handed to paho this session
        self._drain_started = 0.0
        self._drained = 0
        self._replays: dict[str, deque[list[int]]] = {}
        """Each requester's replays still going out ([next seq, last seq] each), in the order asked;
        the requesters take turns (:meth:`pump`), so one that floods cannot starve another."""
        self._state_owed: bytes | None = None       # the newest retained state not yet handed to paho
        self._state_made: tuple[bytes, bool] | None = None  # the snapshot's JSON and the hold of the last state made
        self._marks_due: float | None = None        # when waiting delivered marks must be written
        self._damaged_told: set[int] = set()        # damaged journal rows already raised as an alarm

    # -- what the loop hands over -----------------------------------------------------

    def send(self, events: list[Event]) -> None:
        """Newly journaled events: to the socket now (paho writes on this thread), or behind a
        backlog in seq order."""
        if not self.online:
            return
        if not self._draining and events and self.publisher.in_flight_count() + len(events) > LIVE_WINDOW:
            # The broker has stopped acknowledging (a stall): paho would run out of its 65,535
            # message ids and lose track of publishes. New events wait in the journal like any
            # backlog and go out in seq order as PUBACKs come back.
            log.warning("MQTT: %d publishes unacknowledged: events wait in the journal",
                        self.publisher.in_flight_count())
            self._start_drain(events[0].seq - 1)
        if self._draining:
            self.pump()  # behind the backlog: seq order
            return
        for event in events:
            self.publisher.publish_event(event)
        # Replays go out after the item's replies (the loop pumps them then): a reply overtakes
        # the replayed events it answers (issue 27).

    def acked(self, acks: list[Acked]) -> None:
        """PUBACKs: marked delivered (at once while the outbox count decides something, else with
        the next event commit), and the freed room filled."""
        seqs = self.publisher.delivered(acks)
        if self._draining or self._filling or self.held:
            self.journal.mark_delivered(seqs)
        else:
            self.journal.mark_delivered_later(seqs)
            if self._marks_due is None:
                self._marks_due = time.monotonic() + MARK_DELAY
        self.pump()
        self.pay_state()

    @property
    def filling(self) -> bool:
        """The warning is raised: a smaller backlog may re-arm it or lift the hold (check again)."""
        return self._filling

    def marks_deadline(self) -> float | None:
        """When the loop must wake to write delivered marks that no event commit carried."""
        return self._marks_due

    def write_marks_if_due(self, now: float) -> None:
        if self._marks_due is not None and now >= self._marks_due:
            self.journal.flush_marks()  # no event came to carry them
            self._marks_due = None

    def marks_carried(self) -> None:
        """After an item: an event commit carried the waiting marks, if any waited."""
        if not self.journal.marks_waiting:
            self._marks_due = None

    # -- the session ------------------------------------------------------------------

    def resend_all(self) -> None:
        """A (re)connect or ``cmd/rebirth``: every undelivered event goes out again, in seq order."""
        self._start_drain(0)
        self.pump()

    def _start_drain(self, cursor: int) -> None:
        self._draining, self._cursor = True, cursor
        self._drain_started, self._drained = time.monotonic(), 0

    def offer_state(self, body: bytes, state: bytes) -> None:
        """The retained state, when the table looks otherwise than the last one made (its snapshot
        ``body``, or the hold): newest only."""
        if (body, self.held) != self._state_made:
            self._state_made = (body, self.held)
            self._state_owed = state
            self.pay_state()

    def publish_state_now(self, body: bytes, state: bytes) -> None:
        """On a (re)connect: the state now is newer than any that waited for room."""
        self._state_owed = None
        self._state_made = (body, self.held)
        self.publisher.publish_state(state)

    def pay_state(self) -> None:
        """The retained state, newest only, once paho has room: during a stall only the last one
        matters, and each held publish would take one of paho's message ids."""
        if self._state_owed is not None and self.online and self.publisher.in_flight_count() < LIVE_WINDOW:
            state, self._state_owed = self._state_owed, None
            self.publisher.publish_state(state)

    # -- replays ------------------------------------------------------------------------

    def queue_replay(self, first: int, last: int, requester: str = "") -> dict[str, Any]:
        """``cmd/replay``: a pit that found a gap in ``seq`` (DESIGN.md, MQTT) asks for it again.
        A broker that acknowledged an event and then lost it (a crash before its persistence was
        written, a restart without persistence while the pit's copy was in flight) leaves a hole
        that only the journal can fill. The journal holds only what was published, so a replay
        reveals nothing that was not already revealed. A refusal names the keys and the table's
        own seqs, never the numbers asked for (controller.table.commands); :class:`Refused` says why.

        The queue and the budget are each requester's (the request's ``requester``, its client id:
        issue 27): a client asking for 10,000 old seqs every 0.2 s kept a pit's own requests waiting
        behind its flood; now the requesters take turns and each has :data:`REPLAYS_QUEUED`
        requests and :data:`REPLAY_BUDGET` events of its own."""
        top = self.journal.next_seq - 1
        if first > last:
            raise Refused("from is after to")
        if last - first + 1 > REPLAY_LIMIT:
            raise Refused(f"from..to holds more than {REPLAY_LIMIT} events, the most one replay sends; "
                          "ask for the range in parts")
        if last > top:
            raise Refused(f"to is beyond the last event journaled, seq {top}")
        oldest = self.journal.first_seq
        if first < oldest:
            raise Refused(f"the journal no longer holds seqs before {oldest} (pruned: tablectl prune); "
                          f"ask from {oldest}")
        mine = self._replays.get(requester, deque())
        if len(mine) >= REPLAYS_QUEUED:
            raise Refused(f"{len(mine)} replays are still going out; ask again when they have")
        waiting = sum(hi - lo + 1 for lo, hi in mine)
        if waiting + (last - first + 1) > REPLAY_BUDGET:
            raise Refused(f"{waiting} replayed events are still to go out and at most {REPLAY_BUDGET} "
                          "may wait at once; ask again when they have gone out")
        if len(self._replays) >= REPLAY_REQUESTERS and requester not in self._replays:
            raise Refused(f"{len(self._replays)} requesters' replays are still going out; ask again when they have")
        mine.append([first, last])
        self._replays[requester] = mine
        return {"from": first, "to": last, "count": last - first + 1, "queued_before": len(mine) - 1}

    def pump(self) -> None:
        """Hand the backlog to paho in ``seq`` order, keeping at most :data:`DRAIN_WINDOW`
        publishes unacknowledged; called again as PUBACKs come back. Events paho still holds are
        skipped: paho resends those itself, before the table hears of the session
        (controller.table.publisher), so they stay ahead of these. Ends when the journal has
        nothing undelivered after the cursor; new events then go out as they come. Replays go out
        after the backlog, in their own smaller window."""
        while self._draining and self.online:
            room = DRAIN_WINDOW - self.publisher.in_flight_count()
            if room <= 0:
                return
            batch = self.journal.undelivered(after_seq=self._cursor, limit=min(room, DRAIN_BATCH))
            self._report_damaged()
            if not batch:
                self._draining = False
                if self._drained:
                    log.info("MQTT: backlog of %d events handed over in %.2f s", self._drained,
                             time.monotonic() - self._drain_started)
                break
            held = self.publisher.in_flight()
            for event in batch:
                if event.seq not in held:
                    self.publisher.publish_event(event)
                    self._drained += 1
            self._cursor = batch[-1].seq
        while self._replays and self.online and not self._draining:
            room = REPLAY_WINDOW - self.publisher.in_flight_count()
            if room <= 0:
                return
            requester = next(iter(self._replays))   # the requesters take turns: one batch each
            spans = self._replays.pop(requester)
            span = spans[0]
            batch = self.journal.events(after_seq=span[0] - 1,
                                        limit=min(room, REPLAY_TURN, DRAIN_BATCH, span[1] - span[0] + 1),
                                        until=span[1])  # rows pruned from the journal leave holes
            self._report_damaged()
            for event in batch:
                self.publisher.publish_event(event)
            span[0] = batch[-1].seq + 1 if batch else span[1] + 1
            if span[0] > span[1]:
                spans.popleft()
                log.info("MQTT: replay up to seq %d handed over", span[1])
            if spans:
                self._replays[requester] = spans   # to the back of the turn

    def _report_damaged(self) -> None:
        """Rows the journal could not read while draining or replaying: one alarm per seq per
        process (a drain quarantines the row, so a restart does not find it again)."""
        for seq, why in self.journal.take_damaged():
            if seq in self._damaged_told:
                continue
            self._damaged_told.add(seq)
            self._alarm("journal_row_damaged", "critical",
                        f"event seq {seq} cannot be read from the journal ({why}): it is not published; "
                        f"the table goes on and the journal keeps the row",
                        f"pit: seq {seq} stays a gap; read the row from the journal "
                        f"(docs/operations.md, 'A damaged journal') and run tablectl journal check")

    # -- the cap ----------------------------------------------------------------------

    def check_cap(self, pending: int) -> None:
        """Alarms and the hold from the journal's undelivered count (kept in memory: no COUNT(*)
        per event) and the ``pending`` events about to be journaled. Before each flush and after
        PUBACKs."""
        cap = self.limits.max_undelivered
        warn = max(1, int(cap * self.limits.warn_at))
        level = self.journal.undelivered_count + pending
        if self._filling and level <= warn // 2:  # re-arm well under the level: no flapping
            if self.held:
                self.held = False
                log.warning("outbox back to %d events (warning level %d): the hold is lifted", level, warn)
                if self._held_deal:
                    self._deal_again()
                self._held_deal = False
            self._filling = False
            return
        if level < warn:
            return
        if not self._filling:
            self._filling = True
            log.warning("outbox: %d events not acknowledged by the broker (warning level %d, cap %d)",
                        level, warn, cap)
            self._alarm("outbox_filling", "warning",
                        f"{level} events are waiting for the broker to acknowledge them (warning at {warn}, cap {cap})",
                        f"check the broker and the pit network; at {cap} the table deals no new round")
        if level >= cap and not self.held:
            self.held = True
            log.critical("outbox full: %d events not acknowledged (cap %d): no new round until it drains",
                         level, cap)
            self._alarm("outbox_full", "critical",
                        f"{level} events are waiting for the broker (cap {cap}): the table deals no new "
                        f"round until they are acknowledged; nothing is dropped",
                        f"finish the round in progress; deal resumes when the backlog is under {warn // 2}")

    def refuses_deal(self) -> bool:
        """At the cap the start of a deal is refused (the round in progress finishes); the prompt
        goes out again when the hold lifts."""
        if self.held:
            self._held_deal = True
        return self.held

    # -- a clean stop -------------------------------------------------------------------

    def drain_acks(self, inbox: Inbox, reactor: Reactor) -> None:
        """At stop: give the broker a moment to acknowledge what is in flight. A timeout here is
        shutdown, not the event path; what is not acknowledged stays undelivered in the journal
        and goes out after the next start."""
        deadline = time.monotonic() + ACK_GRACE
        while self.online and self.publisher.in_flight():
            if deadline - time.monotonic() <= 0:
                break
            try:
                item = inbox.get_nowait()
            except queue.Empty:
                reactor.wait(deadline)   # PUBACKs are read here now
                continue
            if isinstance(item, Acked):
                self.journal.mark_delivered(self.publisher.delivered([item]))
            elif isinstance(item, Disconnected):
                self.online = False
        self.journal.flush_marks()


def acks_of(batch: Iterable[object]) -> list[Acked]:
    return [item for item in batch if isinstance(item, Acked)]
