"""The journal: contiguous seqs that survive a restart, and an outbox marked only on PUBACK."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from scripted_clock import ScriptedClock

from controller.shared.schemas import validate_event
from controller.table.journal import Journal, Pending
from controller.table.journal_check import APPLICATION_ID
from games.cards import card


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "var" / "t1.db"  # the directory is created on open


def events(n: int, round_: int | None = 1) -> list[Pending]:
    return [Pending("table", round_, {"status": "open"}, 1000.0 + i) for i in range(n)]


def test_seqs_are_contiguous_from_one(path: Path) -> None:
    journal = Journal(path, "t1")
    assert journal.next_seq == 1
    first = journal.append("table", None, {"status": "open"}, 1.5)
    batch = journal.append_many(events(3))
    assert [first.seq] + [e.seq for e in batch] == [1, 2, 3, 4]
    assert journal.next_seq == 5
    assert batch[0].envelope() == {"seq": 2, "ts": 1000.0, "table": "t1", "round": 1, "kind": "table",
                                   "data": {"status": "open"}}
    assert json.loads(batch[0].payload) == batch[0].envelope()
    validate_event(json.loads(batch[0].payload), game="baccarat")


def test_seqs_and_bytes_survive_a_restart(path: Path) -> None:
    journal = Journal(path, "t1")
    written = journal.append_many(events(5))
    journal.close()
    again = Journal(path, "t1")
    assert again.next_seq == 6
    assert [e.payload for e in again.events()] == [e.payload for e in written]
    assert again.append("table", None, {"status": "closed"}, 2.0).seq == 6


def test_a_seq_is_never_reused_even_after_pruning(path: Path) -> None:
    journal = Journal(path, "t1")
    journal.append_many(events(4))
    journal.close()
    with sqlite3.connect(path) as db:  # an operator prunes delivered history
        db.execute("DELETE FROM events")
    assert Journal(path, "t1").next_seq == 5


def test_a_failed_transaction_numbers_nothing(path: Path) -> None:
    journal = Journal(path, "t1")
    journal.append_many(events(2))
    with pytest.raises(sqlite3.IntegrityError):
        journal.append_many([*events(1), Pending(None, 1, {}, 1.0)])  # type: ignore[arg-type]  # kind NOT NULL
    assert journal.next_seq == 3
    assert [e.seq for e in journal.events()] == [1, 2]
    assert journal.append_many(events(1))[0].seq == 3


def test_undelivered_until_marked(path: Path) -> None:
    journal = Journal(path, "t1")
    journal.append_many(events(6))
    assert [e.seq for e in journal.undelivered()] == [1, 2, 3, 4, 5, 6]
    journal.mark_delivered([1, 2, 4])
    assert [e.seq for e in journal.undelivered()] == [3, 5, 6]
    assert [e.seq for e in journal.undelivered(after_seq=3)] == [5, 6]
    assert [e.seq for e in journal.undelivered(limit=2)] == [3, 5]
    journal.mark_delivered([])
    journal.close()
    assert [e.seq for e in Journal(path, "t1").undelivered()] == [3, 5, 6]  # the outbox survives too


def _delivered_on_disk(path: Path) -> list[int]:
    """What another process reads: the marks that were written."""
    with sqlite3.connect(path) as db:
        return [s for (s,) in db.execute("SELECT seq FROM events WHERE delivered = 1 ORDER BY seq")]


def test_waiting_marks_ride_with_the_next_event_commit(path: Path) -> None:
    journal = Journal(path, "t1")
    journal.append_many(events(4))
    journal.mark_delivered_later([1, 2])
    assert journal.marks_waiting == 2
    assert _delivered_on_disk(path) == [] and journal.undelivered_count == 4  # not written yet
    journal.append_many(events(1))  # seq 5: its commit carries the two marks
    assert _delivered_on_disk(path) == [1, 2] and journal.marks_waiting == 0
    assert journal.undelivered_count == 3  # 3, 4, 5
    journal.mark_delivered_later([3, 1])  # 1 again (a replayed event's second PUBACK) counts once
    assert journal.flush_marks() == 1
    assert _delivered_on_disk(path) == [1, 2, 3] and journal.undelivered_count == 2
    journal.mark_delivered_later([4])
    journal.mark_delivered([5])  # an immediate mark writes the waiting ones too
    assert _delivered_on_disk(path) == [1, 2, 3, 4, 5] and journal.undelivered_count == 0
    journal.mark_delivered_later([])
    assert journal.flush_marks() == 0


def test_waiting_marks_survive_a_failed_commit_and_a_close(path: Path) -> None:
    journal = Journal(path, "t1")
    journal.append_many(events(3))
    journal.mark_delivered_later([1])
    with pytest.raises(sqlite3.IntegrityError):
        journal.append_many([Pending(None, 1, {}, 1.0)])  # type: ignore[arg-type]  # rolled back, marks too
    assert _delivered_on_disk(path) == [] and journal.marks_waiting == 1
    journal.mark_delivered_later([2])
    journal.close()  # writes what is waiting
    assert _delivered_on_disk(path) == [1, 2]
    assert [e.seq for e in Journal(path, "t1").undelivered()] == [3]


def test_meta_birth_and_last_round(path: Path) -> None:
    journal = Journal(path, "t1")
    assert journal.last_round() is None
    assert journal.next_birth() == 1
    journal.append_many(events(2, round_=7) + events(1, round_=None), meta={"state": "dealing", "round": 7})
    assert journal.last_round() == 7
    assert (journal.meta("state"), journal.meta("round"), journal.meta("nothing", "x")) == ("dealing", 7, "x")
    journal.close()
    again = Journal(path, "t1")
    assert again.next_birth() == 2
    assert again.meta("state") == "dealing"


def test_wal_and_full_sync(path: Path) -> None:
    journal = Journal(path, "t1")
    assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_card_object_in_event_data_is_stored_as_its_code(path: Path) -> None:
    event = Journal(path, "t1").append("reveal", 1, {"hand": "banker", "position": 2, "card": card("7H"),
                                                     "value": 7}, 1.0)
    assert json.loads(event.payload)["data"]["card"] == "7H"


def test_prune_deletes_only_old_delivered_events_and_numbering_goes_on(path: Path) -> None:
    clock = ScriptedClock(1000.0)
    journal = Journal(path, "t1", clock=clock)
    journal.append_many([Pending("table", 1, {"status": "open"}, 1000.0 + i) for i in range(5)])  # ts 1000..1004
    clock.run(8000)
    journal.append_many([Pending("table", 2, {"status": "open"}, 9000.0 + i) for i in range(3)])  # ts 9000..9002
    journal.mark_delivered([1, 2, 4, 5, 6])  # 3 was never acknowledged: the outbox, not history
    assert journal.prunable(5000.0) == (4, 1, 5)
    assert journal.prune(5000.0, batch=2) == (4, 1, 5)  # in batches of 2
    assert [e.seq for e in journal.events()] == [3, 6, 7, 8]
    assert journal.first_seq == 3 and [e.seq for e in journal.undelivered()] == [3, 7, 8]
    assert journal.prune(5000.0) == (0, None, None)  # nothing left to prune
    assert journal.append_many(events(1))[0].seq == 9
    journal.close()
    assert Journal(path, "t1").next_seq == 10


# -- pruning by the journal's order and receipt times (issue 13, defect 12) -----------------

DAY = 86400.0
NOW = 1_750_000_000.0


def _delivered(journal: Journal, items: list[Pending]) -> list[int]:
    seqs = [e.seq for e in journal.append_many(items)]
    journal.mark_delivered(seqs)
    return seqs


def _at(ts: float, n: int = 3) -> list[Pending]:
    return [Pending("table", None, {"status": "open"}, ts) for _ in range(n)]


def test_a_ts_from_a_clock_that_jumped_back_never_makes_recent_events_old(path: Path) -> None:
    """Events written in the last hour whose ts says three months ago (the wall clock jumped
    back), in seq order after events with a correct ts: prune keeps every one of them."""
    clock = ScriptedClock(NOW - 40 * DAY)
    journal = Journal(path, "t1", clock=clock)
    old = _delivered(journal, _at(NOW - 40 * DAY))  # really written 40 days ago
    clock.run(40 * DAY - 3600)
    recent = _delivered(journal, _at(NOW - 3600))
    clock.step(NOW - 90 * DAY)  # the wall clock jumps back three months
    jumped = _delivered(journal, _at(NOW - 90 * DAY))
    cutoff = journal.prune_cutoff(30 * DAY, NOW)
    assert journal.prunable(cutoff) == (3, old[0], old[-1])
    assert journal.prune(cutoff) == (3, old[0], old[-1])
    assert [e.seq for e in journal.events()] == recent + jumped


def test_a_ts_in_the_past_is_not_old_when_the_journal_received_it_recently(path: Path) -> None:
    """The same ts far in the past, but written now: received says now, and both must be old."""
    journal = Journal(path, "t1", clock=ScriptedClock(NOW))
    _delivered(journal, _at(NOW - 365 * DAY))
    assert journal.prunable(journal.prune_cutoff(30 * DAY, NOW)) == (0, None, None)


def test_a_late_clock_put_right_within_the_boot_makes_its_rows_recent(path: Path) -> None:
    """A Pi off for two months boots with its saved clock, writes events, and NTP then steps the
    wall clock to the real time: those events were written minutes ago, not two months ago."""
    clock = ScriptedClock(NOW - 70 * DAY, boot="boot-a")
    journal = Journal(path, "t1", clock=clock)
    old = _delivered(journal, _at(NOW - 70 * DAY))  # really 70 days ago
    journal.close()
    clock.reboot(NOW - 70 * DAY + 60, boot="boot-b")  # the saved clock: a minute after the last event
    journal = Journal(path, "t1", clock=clock)
    late = _delivered(journal, _at(clock.wall))
    clock.run(600)
    journal.close()  # the controller restarts within the same boot, still before NTP
    journal = Journal(path, "t1", clock=clock)
    later = _delivered(journal, _at(clock.wall))
    clock.run(60)
    clock.step(NOW)  # NTP answers
    fresh = _delivered(journal, _at(NOW))
    assert journal.prune(journal.prune_cutoff(30 * DAY, NOW)) == (3, old[0], old[-1])
    assert [e.seq for e in journal.events()] == late + later + fresh
    with sqlite3.connect(path) as db:  # they were moved later by the step, never past the present
        received = [r for (r,) in db.execute("SELECT received FROM events ORDER BY seq")]
    assert all(NOW - 700 <= r <= NOW for r in received), received


def test_received_never_goes_back(path: Path) -> None:
    clock = ScriptedClock(NOW)
    journal = Journal(path, "t1", clock=clock)
    journal.append_many(events(1))
    clock.step(NOW - 10 * DAY)
    journal.append_many(events(1))
    journal.close()
    clock.reboot(NOW - 20 * DAY, boot="boot-2")
    Journal(path, "t1", clock=clock).append_many(events(1))
    with sqlite3.connect(path) as db:
        assert [r for (r,) in db.execute("SELECT received FROM events ORDER BY seq")] == [NOW, NOW, NOW]


def test_a_prune_under_a_clock_that_runs_ahead_deletes_no_more(path: Path) -> None:
    """The cutoff counts back from the journal's newest event when the clock says later: a
    prune run a year ahead keeps what a prune run now would keep."""
    clock = ScriptedClock(NOW - 45 * DAY)
    journal = Journal(path, "t1", clock=clock)
    old = _delivered(journal, _at(NOW - 45 * DAY))
    clock.run(35 * DAY)
    recent = _delivered(journal, _at(NOW - 10 * DAY))
    assert journal.prune_cutoff(30 * DAY, NOW + 365 * DAY) == NOW - 40 * DAY
    assert journal.prune(journal.prune_cutoff(30 * DAY, NOW + 365 * DAY)) == (3, old[0], old[-1])
    assert [e.seq for e in journal.events()] == recent


def test_a_journal_from_before_received_is_migrated_and_pruned_by_ts_as_a_prefix(path: Path) -> None:
    """The old schema (no received column, no application_id): opened, migrated with ALTER TABLE,
    and its rows aged by ts under the same prefix rule: a row after a newer one is never old."""
    _legacy_journal(path, [(1, NOW - 40 * DAY), (2, NOW - 3600), (3, NOW - 90 * DAY)])
    journal = Journal(path, "t1", clock=ScriptedClock(NOW))
    columns = {row[1] for row in journal._db.execute("PRAGMA table_info(events)")}
    assert "received" in columns
    assert journal._db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert journal.prune(journal.prune_cutoff(30 * DAY, NOW)) == (1, 1, 1)
    assert [e.seq for e in journal.events()] == [2, 3]
    assert journal.append_many(events(1))[0].seq == 4


LEGACY_SCHEMA = """
CREATE TABLE events (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    ts        REAL    NOT NULL,
    round     INTEGER,
    kind      TEXT    NOT NULL,
    envelope  TEXT    NOT NULL,
    delivered INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX events_undelivered ON events (seq) WHERE delivered = 0;
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def _legacy_journal(path: Path, rows: list[tuple[int, float]]) -> None:
    """A journal as the release before application_id and received wrote it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as db:
        db.executescript(LEGACY_SCHEMA)
        for seq, ts in rows:
            env = {"seq": seq, "ts": ts, "table": "t1", "round": None, "kind": "table", "data": {"status": "open"}}
            db.execute("INSERT INTO events (seq, ts, round, kind, envelope, delivered) VALUES (?, ?, NULL, 'table', ?, 1)",
                       (seq, ts, json.dumps(env)))
        db.execute("INSERT INTO meta VALUES ('birth', '3')")
    db.close()


def test_event_data_no_json_encoder_takes_is_journaled_as_valid_json(tmp_path) -> None:
    """Defence in depth behind the command parser: a lone surrogate or a NaN in an event's data
    must not stop the table (a flood of random commands once did, with a \\ud800 escape)."""
    journal = Journal(tmp_path / "j.db", "t")
    event = journal.append("command", None, {"name": "void", "error": "x\ud800y", "ratio": float("nan"),
                                              "more": [float("inf"), 1.5]}, 1.0)
    env = json.loads(event.payload)
    assert env["data"] == {"name": "void", "error": "x\ud800y", "ratio": None, "more": [None, 1.5]}
    assert event.payload.isascii()
    ok = journal.append("command", None, {"name": "open", "error": "caf\u00e9"}, 2.0)
    assert "café".encode() in ok.payload     # the usual path keeps UTF-8 as it is
    journal.close()
