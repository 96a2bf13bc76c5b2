"""The pit service end to end: real simulated tables (the controller, its journal, the simulator;
tests/sim_table.py) publishing to a real Mosquitto, archived into a real PostgreSQL. Each test
ends with the table stopped and its journal compared with the archive: every (table, seq) the
table journaled is archived exactly once, with the journal's envelope, and no gap is left open."""

from __future__ import annotations

import json
import queue
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from archive_support import (
    ARCHIVE_WAIT,
    ArchiveView,
    FakeTable,
    assert_archive_is_journal,
    caught_up,
    journal_rows,
)
from mqtt_support import RunningBroker, Subscriber
from sim_table import SimTable

from controller.table.journal import Journal

TABLE = "bac-sim-01"


class Journaled:
    """Counts what a table journals (a listener on its table thread), for waits that need the
    table to have dealt on while the pit could not hear it."""

    def __init__(self, table: SimTable) -> None:
        self.count = 0
        self.cond = threading.Condition()
        table.controller.table.listeners.append(self._on_event)

    def _on_event(self, event) -> None:
        with self.cond:
            self.count += 1
            self.cond.notify_all()

    def wait_more(self, n: int, timeout: float = ARCHIVE_WAIT) -> None:
        with self.cond:
            target = self.count + n
            if not self.cond.wait_for(lambda: self.count >= target, timeout):
                raise AssertionError(f"the table journaled {self.count} events, not {target}, within {timeout} s")


@pytest.fixture
def sim_tables(tmp_path: Path) -> Iterator[Callable[..., SimTable]]:
    """``sim_tables(broker, name, **kw)`` -> a SimTable journaling under ``tmp_path/name``, stopped after the test."""
    made: list[SimTable] = []

    def make(broker: RunningBroker, name: str = "t", *, offline_dealer: bool = False, **kw) -> SimTable:
        table = SimTable(broker, tmp_path / name, **kw)
        if offline_dealer:  # the dealer follows the table's own display too: it deals on while the broker is away
            table.controller.table.listeners.append(lambda event: table.dealer.on_event(event.envelope()))
        made.append(table)
        return table

    yield make
    for table in made:
        _stop(table)


def _stop(table: SimTable, view: ArchiveView | None = None) -> None:
    """The dealer stops dealing, the archive catches up (while the table can still be asked), the table stops."""
    table.dealer.paused.set()
    if view is not None:
        caught_up(view, table.cfg.table.id, table.cfg.journal.path)
    table.stop()


def _results(table: SimTable, n: int) -> None:
    table.wait_for(lambda events: sum(e["kind"] == "result" for e in events) >= n, what=f"{n} results")


def test_a_broker_outage_mid_run_loses_nothing(persistent_broker, pit_factory, sim_tables, archive_view):
    table = sim_tables(persistent_broker, seed=31, offline_dealer=True, pass_probability=0.0, rig={"pace": 0.002})
    journaled = Journaled(table)
    service = pit_factory(persistent_broker)
    table.start()
    _results(table, 2)
    persistent_broker.stop()
    journaled.wait_more(40)  # dealt on, journaled, not published
    persistent_broker.start()
    table.wait_for(lambda events: sum(e["kind"] == "result" for e in events) >= 4 and table.events()[-1]["seq"] >
                   journaled.count - 5, what="dealing on after the outage")
    _stop(table, archive_view)
    top = assert_archive_is_journal(archive_view, TABLE, table.cfg.journal.path)
    counts = service.counters()
    assert counts["mqtt_connects"] >= 2 and counts["rejected"] == 0 and counts["internal_errors"] == 0, counts
    print(f"\ngaps {archive_view.gaps(TABLE)}")
    print(f"\n{top} events archived across a broker outage; {counts['events_duplicate']} duplicates, "
          f"{counts['gaps_opened']} gaps opened, {counts['replay_requests']} replays asked")


def test_a_table_restart_mid_run_loses_nothing(broker, pit_factory, sim_tables, archive_view, tmp_path):
    service = pit_factory(broker)
    first = sim_tables(broker, "t", seed=41).start()
    _results(first, 2)
    _stop(first, archive_view)
    again = sim_tables(broker, "t", seed=42).start()  # the same journal: birth 2, seq goes on
    again.wait_for(lambda events: any(e["kind"] == "result" for e in events), what="a result after the restart")
    _stop(again, archive_view)
    rows = journal_rows(tmp_path / "t" / "journal.db")
    assert any(e["kind"] == "table" for _, e, _ in rows)
    assert_archive_is_journal(archive_view, TABLE, tmp_path / "t" / "journal.db")
    assert archive_view.query("SELECT status ->> 'birth' FROM tables WHERE table_id = %s", TABLE) == [("2",)]
    counts = service.counters()
    assert counts["renumbered"] == 0 and counts["rejected"] == 0, counts


def test_two_services_sharing_the_subscription_store_each_event_once(broker, pit_factory, sim_tables, archive_view):
    """A simulated baccarat table and a stand-in table publishing as fast as it can (one SimTable a
    process: gpiozero's mock pins are the process's), shared by two services of one group."""
    one = pit_factory(broker, client_id="pit-a", group="site-1")
    two = pit_factory(broker, client_id="pit-b", group="site-1")
    table = sim_tables(broker, seed=51).start()
    fake = FakeTable(broker.host, broker.port, "fake-02")
    try:
        fake.status()
        for seq in range(1, 301):
            fake.event(seq)
        fake.state(300)
    finally:
        fake.close()
    _results(table, 3)
    _stop(table, archive_view)
    total = assert_archive_is_journal(archive_view, TABLE, table.cfg.journal.path)
    archive_view.wait(lambda: archive_view.complete("fake-02", 300), "the stand-in table's 300 events")
    assert archive_view.envelopes("fake-02") == {s: json.loads(p) for s, p in fake.published.items()}
    total += 300
    one.stop()  # their counters final (stop() waits for the service thread)
    two.stop()
    a, b = one.counters(), two.counters()
    assert a["events_archived"] > 0 and b["events_archived"] > 0, "each service stored some"
    assert a["events_archived"] + b["events_archived"] == total, "nothing stored twice: each event inserted once"
    assert a["rejected"] == b["rejected"] == 0 and not archive_view.rejects()
    print(f"\n{total} events of 2 tables: {a['events_archived']} archived by one service, {b['events_archived']} by "
          f"the other; {a['events_duplicate'] + b['events_duplicate']} duplicates; gaps opened "
          f"{a['gaps_opened'] + b['gaps_opened']}")


def test_a_pruned_gap_is_recorded_unfillable(broker, pit_factory, sim_tables, archive_view):
    """The table dealt before any pit service listened, and its journal was pruned since: the archive
    asks, the table refuses with the oldest seq it holds, and the gap is recorded unfillable."""
    table = sim_tables(broker, seed=61).start()
    _results(table, 1)
    table.dealer.paused.set()
    journal = Journal(table.cfg.journal.path, TABLE)
    try:
        pruned, first, last = journal.prune(time.time() + 3600)
    finally:
        journal.close()
    assert pruned > 0 and first == 1
    service = pit_factory(broker)
    archive_view.wait(lambda: archive_view.gaps(TABLE, "unfillable"), "the pruned seqs recorded as unfillable")

    def archived_all_still_journaled() -> bool:
        held = [s for s, *_ in journal_rows(table.cfg.journal.path)]
        return archive_view.seqs(TABLE) == held and not archive_view.gaps(TABLE, "open")
    archive_view.wait(archived_all_still_journaled, "every seq still journaled archived, no open gap")
    _stop(table)
    rows = journal_rows(table.cfg.journal.path)
    oldest = rows[0][0]
    assert oldest == last + 1
    gaps = archive_view.gaps(TABLE)
    unfillable = [g for g in gaps if g[3] == "unfillable"]
    # one run or a few (the table's retained state may name an older seq than its last event: a gap
    # found from it first, the rest with the next event), together exactly the seqs pruned
    covered = [s for g in unfillable for s in range(g[1], g[2] + 1)]
    assert covered == list(range(1, oldest)), gaps
    assert all(f"no longer holds seqs before {oldest}" in g[4] for g in unfillable)
    assert archive_view.seqs(TABLE) == [s for s, *_ in rows], "what the table still held, all archived"
    assert service.counters()["gaps_unfillable"] == len(unfillable)


class Flooder:
    """A client that asks the table again and again for the same old seqs, naming no requester (an
    old client, a script): it keeps the table's queue of unnamed replays full, each of its requests
    past that refused as busy (issue 27)."""

    def __init__(self, broker: RunningBroker, first: int, last: int) -> None:
        self.first, self.last = first, last
        self.sub = Subscriber(broker.host, broker.port, f"casino/{TABLE}/cmd/replay/reply")
        self.refused: list[float] = []   # when a refusal saying its queue is full came
        self.accepted = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        """A few requests unanswered at a time: as fast as the table answers, never a backlog in its
        inbox (that would hold the pit's request back as well, whatever its requester)."""
        sent = answered = 0
        while not self._stop.is_set():
            while sent - answered < 4:
                sent += 1
                self.sub.client.publish(f"casino/{TABLE}/cmd/replay",
                                        json.dumps({"id": f"flood-{sent}", "from": self.first, "to": self.last}), qos=1)
            try:
                reply = self.sub.get(1.0).json()
            except queue.Empty:
                answered = sent   # not answered within a second: on with the flood all the same
                continue
            if str(reply.get("id")).startswith("flood-"):
                answered += 1
                if reply["ok"]:
                    self.accepted += 1
                elif re.search(r"still (going|to go) out", reply["error"]):
                    self.refused.append(time.monotonic())

    def wait_refused(self, after: float, timeout: float = ARCHIVE_WAIT) -> None:
        """Until a request of the flood made after ``after`` was refused: its queue was full then."""
        end = time.monotonic() + timeout
        while not (self.refused and self.refused[-1] > after):
            assert time.monotonic() < end, f"the flood's queue was not full within {timeout} s ({self.accepted} accepted)"
            time.sleep(0.05)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
        self.sub.drain()   # the replies still queued, into ``sub.seen``
        self.sub.close()


def test_the_table_serves_the_pits_replay_beside_a_flood_of_unnamed_requests(broker, pit_factory, sim_tables,
                                                                             archive_view):
    """Issue 27: a client asking again and again for old seqs kept the table's replay queue full, and
    the pit's request was refused as busy, or waited behind the flood, while the archive stayed
    short. The table keeps a queue per requester and serves them in turns; the pit names its group
    as the requester (PitService.requester), so a service back from a while away is answered at
    once and its gap filled while the flood is still going out, none of its requests refused."""
    table = sim_tables(broker, seed=71, start_dealer=False).start()
    away = pit_factory(broker, client_id="pit-away", group="site-a")
    sender = Subscriber(broker.host, broker.port, f"casino/{TABLE}/cmd/#")
    try:
        for n in range(150):   # events to ask for: each command journals one (a refused close too)
            sender.publish(f"casino/{TABLE}/cmd/close", {"id": f"close-{n}"})
        table.wait_for(lambda events: any(e["kind"] == "command" and e["data"]["id"] == "close-149" for e in events),
                       what="the 150 commands journaled")
        old = max(e["seq"] for e in table.events())
        archive_view.wait(lambda: archive_view.complete(TABLE, old), f"seqs 1-{old} archived")
        away.stop()   # the events from now on are the gap of the group that comes next

        flood = Flooder(broker, 1, old)   # seqs the archive holds: the flood fills nothing of the gap
        try:
            flood.wait_refused(time.monotonic())
            gap_to = max(e["seq"] for e in table.events())   # the flood's own commands, journaled with no service
            started = time.monotonic()
            service = pit_factory(broker, client_id="pit-back", group="site-b")
            # The flood's commands go on being journaled, and on a loaded machine some of their events
            # reach the pit after its grace: gaps past gap_to open and close all along, not this one's.
            archive_view.wait(lambda: archive_view.complete(TABLE, gap_to, later_gaps=True),
                              f"the gap {old + 1}-{gap_to} filled beside the flood")
            filled = time.monotonic()
            flood.wait_refused(filled)   # the flood was still going out when the pit's gap was filled
        finally:
            flood.stop()
        asked = [m.json() for m in sender.drain()
                 if m.topic.endswith("/cmd/replay") and str(m.json().get("id")).startswith("pit-back")]
        replies = [m.json() for m in flood.sub.seen if str(m.json().get("id")).startswith("pit-back")]
    finally:
        sender.close()
    assert asked and all(r["requester"] == "site-b" for r in asked), asked
    assert replies and all(r["ok"] for r in replies), [r for r in replies if not r["ok"]]
    assert service.counters()["gaps_open"] == 0
    _stop(table, archive_view)
    assert_archive_is_journal(archive_view, TABLE, table.cfg.journal.path)
    print(f"\nthe gap {old + 1}-{gap_to} filled {filled - started:.2f} s after the service started, beside a flood "
          f"of {flood.accepted} requests accepted and {len(flood.refused)} refused")
