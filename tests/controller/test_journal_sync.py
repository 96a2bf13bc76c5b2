"""The journal's fsync policy: every event commit waits for the disk; only a
delivered mark (a PUBACK) does not, and the connection is back at FULL after it.

`tablectl bench` found half of the table thread's time at full speed in fsyncs of
delivered marks; losing the newest marks in a power cut only resends those
events (a duplicate by seq), so their commit does not wait (controller/table/journal.py).
"""

from __future__ import annotations

import sqlite3

import pytest

from controller.table.journal import Journal, Pending


def _statements(journal: Journal) -> list[str]:
    seen: list[str] = []
    journal._db.set_trace_callback(seen.append)
    return seen


def _synchronous(journal: Journal) -> int:
    return journal._db.execute("PRAGMA synchronous").fetchone()[0]


def test_event_commits_are_full_and_marks_do_not_wait(tmp_path) -> None:
    journal = Journal(tmp_path / "j.db", "t1")
    assert _synchronous(journal) == 2  # FULL
    seen = _statements(journal)
    events = journal.append_many([Pending("card", 1, {"n": i}, 0.0) for i in range(3)])
    assert not [s for s in seen if "synchronous" in s], seen
    seen.clear()
    journal.mark_delivered(e.seq for e in events[:2])
    pragmas = [s for s in seen if "synchronous" in s]
    assert pragmas == ["PRAGMA synchronous = NORMAL", "PRAGMA synchronous = FULL"], seen
    assert seen.index("BEGIN IMMEDIATE") > seen.index(pragmas[0])
    assert seen.index("COMMIT") < seen.index(pragmas[1])
    assert _synchronous(journal) == 2
    journal.close()

    again = Journal(tmp_path / "j.db", "t1")
    assert [e.seq for e in again.undelivered()] == [events[2].seq]
    assert _synchronous(again) == 2
    again.close()


def test_a_failed_mark_leaves_full_behind(tmp_path) -> None:
    journal = Journal(tmp_path / "j.db", "t1")
    journal.append_many([Pending("card", 1, {}, 0.0)])
    with pytest.raises(sqlite3.Error):
        journal.mark_delivered([object()])  # sqlite refuses to bind it: the transaction fails
    assert _synchronous(journal) == 2
    assert not journal._db.in_transaction
    journal.close()
