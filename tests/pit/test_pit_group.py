"""What a pit service sees of a table is not the table's whole story: in a group it gets only its
share of the events; back from a SIGKILL it gets what the broker queued for it, behind everything
else; a broker whose queue for it overflowed (``max_queued_messages``) or that lost its session
leaves holes no other message shows. Each test makes one of these happen exactly, with a stand-in
table (archive_support.FakeTable) on a real Mosquitto and a real PostgreSQL, and ends with every
seq the table made in the archive."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace

import pytest
from archive_support import ARCHIVE_WAIT, FAST, ArchiveView, FakeTable
from mqtt_support import RunningBroker, Subscriber, running_broker

from controller.pit.watch.command import MAX_AHEAD

QUEUED = 50
"""The bounded broker's ``max_queued_messages`` (config/mosquitto.conf: 100000, at a site's scale)."""


@pytest.fixture
def bounded_broker() -> Iterator[RunningBroker]:
    """A Mosquitto that queues at most QUEUED messages for a session beyond those in flight, and
    drops the rest, as every broker must bound its queues."""
    with running_broker("tablectl-bounded-broker-", lambda port, _tmp: (
            f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
            f"max_queued_messages {QUEUED}\nlog_dest none\n")) as running:
        yield running


def test_a_table_far_ahead_of_what_a_service_saw_is_believed_on_its_state(broker, pit_factory, fake_table,
                                                                          archive_view: ArchiveView):
    """The broker dropped more than MAX_AHEAD events of the table for this service (its queue
    overflowed, or its session was lost): the next event it gets is far past anything it saw, and
    so is the table's state. The state is the table's own word (as its birth is): believed, whatever
    this service saw itself, and the event that came before it waits for it rather than being
    refused. The hole is asked for; nothing is refused and nothing is missing."""
    fake: FakeTable = fake_table()
    fake.status()
    service = pit_factory(broker)
    fake.event(1)
    archive_view.wait(lambda: archive_view.complete(fake.table, 1), "seq 1")
    top = 1 + MAX_AHEAD + 50
    for seq in range(2, top):
        fake.event(seq, publish=False)  # made and journaled; the broker dropped them for this service
    fake.event(top)  # the first this service gets again, before the state that vouches for it
    fake.state(top)
    archive_view.wait(lambda: archive_view.complete(fake.table, top), f"every seq 1..{top}", 2 * ARCHIVE_WAIT)
    counts = service.counters()
    assert counts["implausible_seq"] == 0 and counts["bad_state"] == 0 and counts["rejected"] == 0, counts
    assert not archive_view.rejects()


def test_the_retained_status_and_state_asked_for_again_are_nothing_new_to_the_observers(
        broker, pit_factory, fake_table, archive_view: ArchiveView):
    """An event past its table's word makes the service ask the broker again for every retained
    status and state; they come again, the same, and the observers (the board, which redraws a
    table's tile for each) are not given them twice."""
    fake: FakeTable = fake_table()
    fake.status()
    fake.state(0)
    told: list[tuple[str, str]] = []
    service = pit_factory(broker, start=False)
    # what the service tells of the table (not of the pit services' own health, kind "pit")
    service.add_observer(lambda table, kind, body: told.append((table, kind)) if kind != "pit" else None)
    service.start()
    fake.event(1)
    archive_view.wait(lambda: archive_view.complete(fake.table, 1), "seq 1")
    received = service.counters()["received"]
    fake.event(2 + MAX_AHEAD)   # past the table's word (its birth, its state): the service asks the broker again
    assert service.wait(lambda c: c["received"] >= received + 3, ARCHIVE_WAIT), service.counters()  # and they came
    fake.event(2)
    archive_view.wait(lambda: archive_view.complete(fake.table, 2), "seq 2")
    assert told == [(fake.table, "status"), (fake.table, "state"), (fake.table, "event"), (fake.table, "event")], told


def test_a_reply_to_an_earlier_start_is_not_taken_for_this_starts_request(broker, pit_factory, fake_table,
                                                                          archive_view: ArchiveView):
    """A service killed while it waited for a reply gets that reply, queued in its session, after it
    starts again and has asked again itself: it must not take the old reply for its new request
    (here an old refusal that would make the seq it now asks for unfillable)."""
    fake: FakeTable = fake_table()
    fake.status()
    fake.unanswered = 1
    first = pit_factory(broker, client_id="pit-again")
    fake.event(1)
    fake.event(2, publish=False)
    fake.event(3)
    (old,) = fake.wait_requests(1)
    first.stop()
    fake.unanswered = 1  # its first request after the start waits too ...
    again = pit_factory(broker, client_id="pit-again")
    fake.wait_requests(2)
    fake.send("cmd/replay/reply", {"id": old["id"], "command": "replay", "ok": False,  # ... for the old answer
                                   "error": "the journal no longer holds seqs before 3 (pruned: tablectl prune); "
                                            "ask from 3"})
    archive_view.wait(lambda: archive_view.complete(fake.table, 3), "seq 2 replayed for the new request")
    assert not archive_view.gaps(fake.table, "unfillable")
    assert again.counters()["gaps_unfillable"] == 0


def test_a_service_behind_its_own_messages_does_not_take_its_lag_for_the_tables_silence(
        broker, pit_factory, fake_table, archive_view: ArchiveView):
    """Back from an outage, a service works through what the broker queued for it; a request it
    sends meanwhile is answered at once, but the answer reaches it only behind that backlog. Its
    wait for the answer starts when its own request comes back to it (the broker keeps one
    session's messages in order): the table, which answered, is not taken for silent and asked
    again (which, at a site, multiplied replays and made the backlog longer still)."""
    tuning = replace(FAST, reply_timeout=1.5, receive_maximum=10)
    fake: FakeTable = fake_table()
    fake.status()
    fake.unanswered = 1
    first = pit_factory(broker, client_id="pit-behind", tuning=tuning)
    fake.event(1)
    fake.event(2, publish=False)  # lost: a gap, asked for and not answered before the service stops
    fake.event(3)
    fake.wait_requests(1)
    first.stop()
    backlog = range(4, 204)
    fake.status(birth=2, next_seq=4)  # the table reconnected meanwhile: its birth is queued first
    for seq in backlog:
        fake.event(seq)  # queued for the service while it is away
    slow = threading.Event()

    def working_through(table: str, kind: str, body: dict) -> None:
        if kind == "event" and body["seq"] in backlog:
            slow.wait(0.03)  # a service slower than its backlog: 200 events take 6 s at least
    again = pit_factory(broker, client_id="pit-behind", tuning=tuning, start=False)
    again.add_observer(working_through)
    again.start()
    archive_view.wait(lambda: archive_view.complete(fake.table, backlog[-1]), "seq 2 and the backlog archived")
    assert again.wait(lambda c: c["gaps_filled"] >= 1, ARCHIVE_WAIT), again.counters()
    counts = again.counters()
    assert counts["replay_failed"] == 0 and counts["replay_requests"] == 1, counts
    assert len(fake.requests) == 2, fake.requests


def test_a_tail_the_broker_dropped_is_found_once_the_service_has_caught_up(bounded_broker, postgres, pit_factory,
                                                                        archive_view: ArchiveView):
    """The database away: the service holds what it received (its Receive Maximum) and the broker
    queues QUEUED more for it, then drops the rest, the table's last events and its last state with
    them; and the table goes quiet, so nothing later says what was missed. Once the service has
    caught up (nothing came for a grace), it asks the broker again for every table's retained state,
    the table's word: the tail is found, asked for and archived."""
    fake = FakeTable(bounded_broker.host, bounded_broker.port)
    try:
        fake.status()
        service = pit_factory(bounded_broker, tuning=replace(FAST, receive_maximum=10))
        fake.event(1)
        archive_view.wait(lambda: archive_view.complete(fake.table, 1), "seq 1")
        archive_view.close()
        top = 1 + 10 + QUEUED + 40  # the service holds 10 and the broker queues QUEUED: about 40 dropped
        postgres.stop()
        try:
            fake.event(2)
            assert service.wait(lambda c: c["db_lost"] == 1, ARCHIVE_WAIT), service.counters()
            for seq in range(3, top + 1):
                fake.event(seq)  # each taken by the broker (its PUBACK) before the next: the drops are done
            fake.state(top)
        finally:
            postgres.start()
        archive_view.wait(lambda: archive_view.complete(fake.table, top), f"every seq 1..{top}, the tail replayed")
        assert service.counters()["gaps_opened"] >= 1, "the tail was a gap, asked for"
    finally:
        fake.close()


def test_one_service_of_a_group_asks_a_table_and_another_takes_over_once_it_is_gone(broker, pit_factory, fake_table,
                                                                                   archive_view: ArchiveView):
    """Both services see the gap (it is the archive's); one asks, under its claim in the archive,
    so the table replays it once, not once per service. That one stops while it waits for the
    answer: its claim lapses (Tuning.claim) and the other asks."""
    fake: FakeTable = fake_table()
    fake.status()
    fake.unanswered = 1
    services = {s.client_id: s for s in (pit_factory(broker, client_id="pit-a", group="share"),
                                         pit_factory(broker, client_id="pit-b", group="share"))}
    for seq in range(1, 7):
        fake.event(seq, publish=seq != 3)
    (first,) = fake.wait_requests(1)
    asker = next(name for name in services if first["id"].startswith(f"{name}-"))
    other = next(name for name in services if name != asker)
    watcher = Subscriber(broker.host, broker.port, f"casino/_pit/{other}/status")
    try:  # the other found the gap open in the archive too, and leaves it to the one asking
        said = watcher.wait_for(lambda m: m.json()["incomplete"].get(fake.table, {}).get("why", "").startswith(
            "being asked for by another service of the group"), ARCHIVE_WAIT)
    finally:
        watcher.close()
    assert said.json()["incomplete"][fake.table]["why"].endswith(asker)
    assert services[other].counters()["replay_requests"] == 0 and len(fake.requests) == 1, fake.requests
    services[asker].stop()
    archive_view.wait(lambda: archive_view.complete(fake.table, 6), "seq 3, asked for by the other service")
    assert all(r["id"].startswith(f"{other}-") for r in fake.requests[1:]), fake.requests
