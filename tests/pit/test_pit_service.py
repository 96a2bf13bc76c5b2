"""The pit service against a real Mosquitto and a real PostgreSQL, fed by a stand-in table
(tests/pit/archive_support.FakeTable) that publishes exactly what each test needs: redelivered
events, lost ones, refused replays, and bad input of every kind."""

from __future__ import annotations

import json
import logging
import queue
import threading
import time

import paho.mqtt.client as mqtt
import pytest
from archive_support import ARCHIVE_WAIT, FAST, FakeTable
from mqtt_support import WAIT, Subscriber
from paho.mqtt.enums import CallbackAPIVersion

from controller.pit.service import PitService


def _observed(service: PitService) -> tuple[list[tuple[str, str, dict]], threading.Condition]:
    seen: list[tuple[str, str, dict]] = []
    cond = threading.Condition()

    def observer(table: str, kind: str, body: dict) -> None:
        with cond:
            seen.append((table, kind, body))
            cond.notify_all()
    service.add_observer(observer)
    return seen, cond


def _wait_counter(service: PitService, name: str, value: int) -> None:
    assert service.wait(lambda c: c[name] >= value, ARCHIVE_WAIT), \
        f"counter {name} did not reach {value}: {service.counters()}"


def test_events_are_archived_once_and_each_observed_once(broker, pit_factory, fake_table, archive_view):
    fake: FakeTable = fake_table()
    fake.status(next_seq=1)
    service = pit_factory(broker, start=False)
    seen, cond = _observed(service)
    service.start()
    for seq in range(1, 6):
        fake.event(seq)
    # QoS 1 is at least once: the same events again, as a resend after a lost PUBACK would bring them
    for seq in range(1, 6):
        fake.raw(f"{fake.base}/event/table", fake.published[seq])
    fake.state(5)
    archive_view.wait(lambda: archive_view.complete(fake.table, 5), "seqs 1..5 archived")
    _wait_counter(service, "events_duplicate", 5)
    _wait_counter(service, "events_archived", 5)
    counts = service.counters()
    assert counts["events_archived"] == 5 and counts["events_duplicate"] == 5 and counts["rejected"] == 0, counts
    assert archive_view.envelopes(fake.table) == {s: json.loads(fake.published[s]) for s in range(1, 6)}
    with cond:
        events = [b["seq"] for t, k, b in seen if k == "event"]
        statuses = [b for t, k, b in seen if k == "status"]
    assert events == [1, 2, 3, 4, 5], "each event handed to the observers once, in order"
    assert statuses and statuses[0]["table"] == fake.table
    assert archive_view.query("SELECT game, status ->> 'birth' FROM tables WHERE table_id = %s", fake.table) == \
        [("baccarat", "1")]
    assert not archive_view.gaps(fake.table)


# -- gaps ----------------------------------------------------------------------------------

@pytest.mark.parametrize("unanswered", [0, 1])
def test_a_lost_event_is_asked_for_and_its_gap_filled(broker, pit_factory, fake_table, archive_view, unanswered):
    """A request may go unanswered within the reply timeout (a table or a broker slow under load):
    then it is asked again. What is guaranteed is that it is asked, every request counted in the
    gap's ``asked``, and the gap filled; not how many requests that took."""
    fake = fake_table()
    fake.status()
    fake.unanswered = unanswered
    service = pit_factory(broker)
    for seq in range(1, 7):
        fake.event(seq, publish=seq not in (3, 4))  # the broker lost 3 and 4
    archive_view.wait(lambda: archive_view.complete(fake.table, 6), "the gap 3-4 filled by a replay")
    requests = fake.wait_requests(1)
    assert requests[0]["from"] == 3 and requests[0]["to"] == 4
    assert requests[0]["id"].startswith(service.client_id)
    assert all(r["requester"] == "pit-test" for r in requests), "the group's name: the table's share is the group's"
    assert all((r["from"], r["to"]) == (3, 4) for r in requests), requests
    (gap,) = archive_view.gaps(fake.table)
    assert gap[:5] == (fake.table, 3, 4, "filled", None) and gap[5] >= 1 + unanswered, gap
    # counted after the commit that filled it: waited for, not read when the rows show
    assert service.wait(lambda c: c["gaps_filled"] >= 1 and c["gaps_open"] == 0, ARCHIVE_WAIT), service.counters()
    counts = service.counters()
    assert counts["gaps_opened"] == 1 and counts["gaps_filled"] == 1 and counts["gaps_open"] == 0, counts


def test_a_service_without_a_group_names_itself_as_the_requester(broker, pit_factory, fake_table, archive_view):
    """It hears every event itself: its replays serve it alone (PitService.requester)."""
    fake = fake_table()
    fake.status()
    service = pit_factory(broker, group=None)
    for seq in range(1, 4):
        fake.event(seq, publish=seq != 2)
    archive_view.wait(lambda: archive_view.complete(fake.table, 3), "the gap 2-2 filled by a replay")
    assert [r["requester"] for r in fake.wait_requests(1)] == [service.client_id] * len(fake.requests)


def test_a_lost_tail_shows_in_the_state_and_is_asked_for(broker, pit_factory, fake_table, archive_view):
    """No later event reveals the last ones missing: the table's retained state (its last seq) does."""
    fake = fake_table()
    fake.status()
    pit_factory(broker)
    for seq in range(1, 6):
        fake.event(seq, publish=seq <= 3)
    fake.state(5)
    archive_view.wait(lambda: archive_view.complete(fake.table, 5), "the lost tail 4-5 replayed")
    (gap,) = archive_view.gaps(fake.table, "filled")
    assert gap[:5] == (fake.table, 4, 5, "filled", None) and gap[5] >= 1, gap  # asked at least once


def test_a_busy_table_is_asked_again_later(broker, pit_factory, fake_table, archive_view):
    fake = fake_table()
    fake.status()
    fake.refuse = "8 replays are still going out; ask again when they have"
    pit_factory(broker)
    for seq in range(1, 5):
        fake.event(seq, publish=seq != 2)
    fake.wait_requests(2)  # refused, then asked again after the retry delay
    fake.refuse = None
    archive_view.wait(lambda: archive_view.complete(fake.table, 4), "seq 2 replayed once the table had room")
    gap = archive_view.gaps(fake.table)
    assert [g[:4] for g in gap] == [(fake.table, 2, 2, "filled")] and gap[0][5] >= 3


def test_a_pruned_gap_is_recorded_unfillable_with_the_tables_reason(broker, pit_factory, fake_table, archive_view):
    fake = fake_table()
    fake.status(next_seq=1)
    reason = "the journal no longer holds seqs before 4 (pruned: tablectl prune); ask from 4"
    fake.refuse = reason
    service = pit_factory(broker)
    for seq in range(1, 7):
        fake.event(seq, publish=seq >= 4)
    archive_view.wait(lambda: archive_view.gaps(fake.table, "unfillable"), "the gap recorded as unfillable")
    (row,) = archive_view.gaps(fake.table)
    assert row[1:4] == (1, 3, "unfillable") and reason in row[4] and row[5] >= 1
    assert archive_view.seqs(fake.table) == [4, 5, 6]
    assert service.wait(lambda c: c["gaps_unfillable"] == 1 and c["gaps_open"] == 0, WAIT), service.counters()
    assert archive_view.query("SELECT closed_at IS NOT NULL FROM gaps") == [(True,)]
    status = Subscriber(broker.host, broker.port, f"casino/_pit/{service.client_id}/status")
    try:  # the archive lacks them for good, and the service's status says so
        status.wait_for(lambda m: m.json()["incomplete"] == {fake.table: {
            "missing": 0, "first": None, "unfillable": 3, "why": "recorded unfillable: the table cannot send them"}})
    finally:
        status.close()


def test_a_damaged_journal_row_is_unfillable_with_the_tables_alarm(broker, pit_factory, fake_table, archive_view):
    """The table accepts the replay but cannot read seq 3 from its journal: it skips it and says so
    in a journal_row_damaged alarm (controller.table.loop). The gap is unfillable with that message."""
    fake = fake_table()
    fake.status()
    fake.replay_skips = {3}
    pit_factory(broker)
    for seq in range(1, 5):
        fake.event(seq, publish=seq != 3)
    message = "event seq 3 cannot be read from the journal (not JSON): it is not published"
    fake.event(5, "alarm", {"code": "journal_row_damaged", "severity": "critical", "message": message,
                            "card": None, "expected": None, "missing": [], "extra": [],
                            "action": "pit: seq 3 stays a gap"})
    archive_view.wait(lambda: archive_view.gaps(fake.table, "unfillable"), "seq 3 recorded as unfillable")
    (row,) = archive_view.gaps(fake.table)
    assert row[1:4] == (3, 3, "unfillable") and message in row[4]
    assert archive_view.seqs(fake.table) == [1, 2, 4, 5]


def test_an_offline_table_is_asked_when_it_is_back(broker, pit_factory, fake_table, archive_view):
    fake = fake_table()
    fake.status()
    fake.event(1)
    fake.status(online=False)
    service = pit_factory(broker)
    fake.event(2, publish=False)  # lost
    fake.event(3)  # and the table says it is offline: nobody to ask
    assert service.wait(lambda c: c["gaps_opened"] == 1, WAIT)
    assert not fake.requests
    fake.status(birth=2, next_seq=4)
    archive_view.wait(lambda: archive_view.complete(fake.table, 3), "seq 2 asked for once the table was back")


# -- bad input -------------------------------------------------------------------------

def test_bad_input_is_logged_counted_kept_and_the_service_goes_on(broker, pit_factory, fake_table, archive_view,
                                                                 caplog):
    fake = fake_table()
    fake.status()
    service = pit_factory(broker)
    fake.event(1)
    archive_view.wait(lambda: archive_view.seqs(fake.table) == [1], "seq 1 archived")
    caplog.set_level(logging.WARNING, logger="controller.pit.service")
    good = 1
    bad = [
        (f"{fake.base}/event/table", b'{"seq": 2, "ts": 1, "tab', "malformed", "not JSON"),
        (f"{fake.base}/event/table", b'[1, 2]', "malformed", "not a JSON object"),
        (f"{fake.base}/event/table", json.dumps({**fake.envelope(2), "ts": float("nan")}).encode(), "malformed",
         "NaN"),
        (f"{fake.base}/event/table", json.dumps({**fake.envelope(2), "data": {"status": "ajar"}}).encode(),
         "schema", "data.status"),
        (f"{fake.base}/event/card", json.dumps(fake.envelope(2)).encode(), "schema", "kind"),
        (f"{fake.base}/event/alarm", json.dumps(fake.envelope(2, "alarm", {
            "code": "x", "severity": "warning", "message": "a\u0000b", "card": None, "expected": None, "missing": [],
            "extra": [], "action": ""})).encode(), "not_storable", "NUL"),
        ("casino/stranger-9/event/table", json.dumps({**fake.envelope(1), "table": "stranger-9"}).encode(),
         "unknown_table", "no status"),
        (f"{fake.base}/event/table", json.dumps(fake.envelope(10**9)).encode(), "implausible_seq", "not believable"),
        (f"{fake.base}/event/table", json.dumps({**fake.envelope(1), "ts": 1.5}).encode(), "seq_backwards",
         "seq backwards"),
    ]
    for n, (topic, payload, category, words) in enumerate(bad, start=1):
        fake.raw(topic, payload)
        good += 1
        fake.event(good)  # the next valid event gets through
        archive_view.wait(lambda g=good: archive_view.complete(fake.table, g), f"seq {good} after bad input {n}")
        assert service.wait(lambda c, k=category, n=n: c["rejected"] == n and c[k] >= 1, ARCHIVE_WAIT), \
            (category, service.counters())
        rejects = archive_view.wait(lambda n=n: (r := archive_view.rejects()) and len(r) >= n and r,
                                    f"reject {n} stored")
        assert len(rejects) == n, rejects
        topic_kept, table_kept, reason, kept = rejects[-1]
        assert table_kept == ("stranger-9" if category == "unknown_table" else fake.table)
        assert topic_kept.startswith("casino/") or "seq 1" in topic_kept, topic_kept
        assert reason.startswith(category) or category == "seq_backwards", reason
        assert words in reason, (words, reason)
        assert kept == payload[:4096]
        assert any(category in r.getMessage() or words in r.getMessage() for r in caplog.records), (category,
                                                                                                 caplog.text)
    # The rows are committed before the service counts them (it counts only what a commit stored):
    # the counter is read when the service says so, not at the moment the rows show.
    assert service.wait(lambda c: c["events_archived"] >= good, ARCHIVE_WAIT), service.counters()
    counts = service.counters()
    assert counts["events_archived"] == good and counts["internal_errors"] == 0, counts
    assert archive_view.seqs(fake.table) == list(range(1, good + 1)), "nothing valid lost"
    # the archived seq 1 is the first one, not the one that came back with other bytes
    assert archive_view.envelopes(fake.table)[1] == fake.envelope(1)


class _SlowLog(logging.Handler):
    """Keeps the warnings, each after a pause: a log line that comes after its counter shows."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        time.sleep(0.5)
        self.lines.append(record.getMessage())


def test_a_reject_is_logged_before_it_is_counted(broker, pit_factory, fake_table, archive_view):
    """Whoever sees a reject counted (service.wait, the status) finds its warning written, both for
    a reject of the checks and for one the archive finds (seq backwards)."""
    fake = fake_table()
    fake.status()
    service = pit_factory(broker)
    fake.event(1)
    archive_view.wait(lambda: archive_view.seqs(fake.table) == [1], "seq 1 archived")
    slow = _SlowLog()
    logger = logging.getLogger("controller.pit.service")
    logger.addHandler(slow)
    try:
        fake.raw(f"{fake.base}/event/table", b"[1, 2]")
        assert service.wait(lambda c: c["rejected"] == 1, ARCHIVE_WAIT), service.counters()
        assert any("rejected (malformed)" in line for line in slow.lines), slow.lines
        fake.raw(f"{fake.base}/event/table", json.dumps({**fake.envelope(1), "ts": 1.5}).encode())
        assert service.wait(lambda c: c["seq_backwards"] == 1, ARCHIVE_WAIT), service.counters()
        assert any("seq backwards" in line for line in slow.lines), slow.lines
    finally:
        logger.removeHandler(slow)


def test_a_forged_huge_first_seq_is_implausible_and_opens_no_gap(broker, pit_factory, fake_table, archive_view):
    """A table new to the archive (next_seq 1 vouches for seq 0) whose first event claims seq 10**15:
    not believed, so no gap 1..10**15-1 and no archived_to far ahead; the real events archive."""
    fake = fake_table()
    fake.status(next_seq=1)
    service = pit_factory(broker)
    fake.raw(f"{fake.base}/event/table", json.dumps({**fake.envelope(10**15), "ts": 1_700_000_000.5}).encode())
    assert service.wait(lambda c: c["implausible_seq"] == 1, ARCHIVE_WAIT), service.counters()
    fake.event(1)
    archive_view.wait(lambda: archive_view.seqs(fake.table) == [1], "the real seq 1 archived")
    assert service.wait(lambda c: c["events_archived"] == 1, ARCHIVE_WAIT), service.counters()
    assert archive_view.gaps(fake.table) == []
    assert archive_view.query("SELECT archived_to <= 1 FROM tables WHERE table_id = %s", fake.table) == [(True,)]
    assert "implausible_seq" in archive_view.rejects()[-1][2]


def _session_kept(broker, client_id: str) -> bool:
    """Whether the broker holds a session for ``client_id``: a probe resuming it is told so (and
    ends it, so it does not linger)."""
    answer: queue.SimpleQueue[bool] = queue.SimpleQueue()
    probe = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    probe.on_connect = lambda c, u, flags, rc, p: answer.put(bool(flags.session_present))
    probe.connect(broker.host, broker.port, clean_start=False)
    probe.loop_start()
    try:
        return answer.get(timeout=WAIT)
    finally:
        probe.disconnect()
        probe.loop_stop()


def test_only_an_archiving_service_keeps_its_session_on_the_broker(broker, pit_factory):
    """The broker queues events for a persistent session while its client is away: right for an
    archive (it stores them when back), a pile of events for nobody for a board without one."""
    board = pit_factory(broker, client_id="pit-board-only", db_url=None, group=None)
    board.stop()
    assert not _session_kept(broker, "pit-board-only"), "a board-only service left a session queueing events"
    archiving = pit_factory(broker, client_id="pit-archiving")
    archiving.stop()
    assert _session_kept(broker, "pit-archiving"), "an archiving service must keep its session"


def test_bad_status_state_and_replies_are_counted_not_believed(broker, pit_factory, fake_table, archive_view):
    fake = fake_table()
    fake.status()
    service = pit_factory(broker)
    fake.raw(f"{fake.base}/status", b"\xff\xfe not utf-8")
    fake.send("state", {"table": fake.table, "seq": 2.5, "ts": 1, "state": "closed", "round": None})
    fake.send("state", {"table": "another", "seq": 1, "ts": 1, "state": "closed", "round": None})
    fake.send("cmd/replay/reply", {"id": "x", "ok": "yes"})
    assert service.wait(lambda c: c["bad_status"] == 1 and c["bad_state"] == 2 and c["bad_reply"] == 1, WAIT), \
        service.counters()
    fake.event(1)
    archive_view.wait(lambda: archive_view.complete(fake.table, 1), "the next event archived")
    assert not archive_view.rejects(), "rejects holds refused events only (every service sees a status)"


def test_others_requests_and_garbage_on_cmd_replay_change_nothing(broker, pit_factory, fake_table, archive_view):
    """A service hears every cmd/replay (its own come back to it, replays.Request): another client's
    request, one without an id, bytes that are not JSON are the table's to answer or refuse. The
    service counts nothing, refuses nothing, asks nothing, and goes on."""
    fake = fake_table()
    fake.status()
    service = pit_factory(broker)
    fake.event(1)
    archive_view.wait(lambda: archive_view.complete(fake.table, 1), "seq 1")
    seen = service.counters()["received"]
    fake.raw(f"{fake.base}/cmd/replay", b"\xff not JSON")
    fake.send("cmd/replay", {"from": 1, "to": 1})
    fake.send("cmd/replay", {"id": f"{service.client_id}-1", "from": 1, "to": 1})  # an id like its own once were
    assert service.wait(lambda c: c["received"] >= seen + 3, WAIT), service.counters()
    fake.event(2)
    archive_view.wait(lambda: archive_view.complete(fake.table, 2), "the next event archived")
    counts = service.counters()
    assert counts["rejected"] == counts["bad_reply"] == counts["internal_errors"] == counts["replay_requests"] == 0, \
        counts
    assert not archive_view.rejects() and not archive_view.gaps(fake.table)


def test_events_before_the_status_wait_for_it(broker, pit_factory, fake_table, archive_view):
    """A persistent session's queued events can come before the retained status: they wait for it
    (Tuning.vouch_wait) rather than being refused."""
    fake = fake_table()
    service = pit_factory(broker)
    fake.event(1)
    fake.event(2)
    assert service.wait(lambda c: c["received"] >= 2, WAIT)
    fake.status(next_seq=3)
    archive_view.wait(lambda: archive_view.complete(fake.table, 2), "the held events archived")
    assert service.counters()["unknown_table"] == 0


def test_a_table_numbering_again_from_1_is_refused_over_its_history(broker, pit_factory, fake_table, archive_view):
    fake = fake_table()
    fake.status(birth=3, next_seq=1)
    service = pit_factory(broker)
    for seq in (1, 2, 3):
        fake.event(seq)
    archive_view.wait(lambda: archive_view.complete(fake.table, 3), "the first history")
    fake.status(birth=4, next_seq=1)  # a new journal that starts again at seq 1
    fake.event(1, "table", {"status": "closed"})
    assert service.wait(lambda c: c["renumbered"] == 1 and c["seq_backwards"] == 1, WAIT), service.counters()
    assert archive_view.envelopes(fake.table)[1] == fake.envelope(1), "history is never overwritten"


# -- the database away -----------------------------------------------------------------

def test_a_database_outage_loses_nothing(broker, postgres, pit_factory, fake_table, archive_view):
    fake = fake_table()
    fake.status()
    service = pit_factory(broker)
    fake.event(1)
    archive_view.wait(lambda: archive_view.complete(fake.table, 1), "seq 1")
    archive_view.close()
    postgres.stop()
    try:
        for seq in range(2, 31):
            fake.event(seq)
        assert service.wait(lambda c: c["db_lost"] == 1 and c["events_held"] >= 1, WAIT), service.counters()
    finally:
        postgres.start()
    archive_view.wait(lambda: archive_view.complete(fake.table, 30), "everything held stored once the database was back")
    assert service.wait(lambda c: c["events_archived"] == 30 and c["events_held"] == 0, WAIT), service.counters()
    assert service.counters()["internal_errors"] == 0


# -- the service's own status ---------------------------------------------------------------

def test_the_service_publishes_its_counters(broker, pit_factory, fake_table):
    fake = fake_table()
    fake.status()
    service = pit_factory(broker, client_id="pit-status")
    watcher = Subscriber(broker.host, broker.port, "casino/_pit/+/status")
    try:
        fake.raw(f"{fake.base}/event/table", b"nonsense")
        found = watcher.wait_for(lambda m: m.json().get("counters", {}).get("malformed") == 1)
        body = found.json()
        assert found.topic == "casino/_pit/pit-status/status"
        assert body["online"] is True and body["group"] == "pit-test" and body["db"] == "up"
        assert body["counters"]["rejected"] == 1 and body["counters"]["events_archived"] == 0
        late = Subscriber(broker.host, broker.port, "casino/_pit/pit-status/status")
        try:
            assert late.get().retain, "a screen that subscribes later gets the last status at once"
        finally:
            late.close()
        service.stop()
        offline = watcher.wait_for(lambda m: m.json().get("online") is False)
        assert offline.json()["counters"]["malformed"] == 1
    finally:
        watcher.close()


def test_what_the_archive_lacks_is_said_in_the_status_and_the_log(broker, pit_factory, fake_table, archive_view,
                                                                  caplog):
    """A gap the table will not send for now: the service's retained status names the table, how
    many seqs and from which, with the table's own words; once the retries are at their slowest an
    error says so in the log; once it is filled, the log says so and the status names it no more."""
    fake = fake_table()
    fake.status()
    busy = "8 replays are still going out; ask again when they have"
    fake.refuse = busy
    watcher = Subscriber(broker.host, broker.port, "casino/_pit/pit-says/status")
    try:
        service = pit_factory(broker, client_id="pit-says")
        for seq in range(1, 6):
            fake.event(seq, publish=seq not in (3, 4))
        said = watcher.wait_for(lambda m: busy in m.json()["incomplete"].get(fake.table, {}).get("why", ""), WAIT)
        assert said.json()["incomplete"] == {fake.table: {
            "missing": 2, "first": 3, "unfillable": 0, "why": f"the table refused the replay of seqs 3-4: {busy}"}}
        retries = len(FAST.retry_delays)
        assert service.wait(lambda c: c["replay_failed"] >= retries, ARCHIVE_WAIT), service.counters()
        errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
        assert errors == [f"pit service: table {fake.table}: the archive lacks 2 of its seqs (3-4) after {retries} "
                          f"requests: the table refused the replay of seqs 3-4: {busy}; asked again every "
                          f"{FAST.retry_delays[-1]:g} s until the table sends them"], errors
        fake.refuse = None
        archive_view.wait(lambda: archive_view.complete(fake.table, 5), "seqs 3-4 once the table sends them")
        # The first status naming no gap came before seqs 3-4 went missing: wait for one after the fill
        # (the service logs the fill before it publishes the status that counts it).
        watcher.wait_for(lambda m: m.json()["incomplete"] == {} and m.json()["counters"]["gaps_filled"] >= 1,
                         ARCHIVE_WAIT)
        assert any(f"table {fake.table}: its open gaps are filled" in r.getMessage() for r in caplog.records)
    finally:
        watcher.close()


def test_a_service_of_the_group_away_holds_nothing_up(broker, pit_factory, fake_table, archive_view):
    """The broker keeps an absent member's share of a shared subscription for it (its session
    lives on): the member still up finds those seqs missing from the archive and has the table
    send them again; when the other is back, what it was kept is a duplicate."""
    fake = fake_table()
    fake.status()
    one = pit_factory(broker, client_id="pit-a", group="share")
    two = pit_factory(broker, client_id="pit-b", group="share")
    for seq in range(1, 11):
        fake.event(seq)
    archive_view.wait(lambda: archive_view.complete(fake.table, 10), "seqs 1..10 with both up")
    two.stop()
    for seq in range(11, 41):
        fake.event(seq)
    fake.state(40)
    archive_view.wait(lambda: archive_view.complete(fake.table, 40), "seqs 11..40 with one of the two away")
    assert one.counters()["replay_requests"] >= 1, "its share was asked of the table"
    back = pit_factory(broker, client_id="pit-b", group="share")
    assert back.wait(lambda c: c["events_duplicate"] >= 1, WAIT), back.counters()
    assert back.counters()["events_archived"] == 0 and archive_view.complete(fake.table, 40)
