"""The journal: contiguous seqs that survive a restart, and an outbox marked only on PUBACK."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from controller.journal import Journal, Pending
from controller.schemas import validate_event
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
    journal = Journal(path, "t1")
    old = [Pending("table", 1, {"status": "open"}, 1000.0 + i) for i in range(5)]     # ts 1000..1004
    new = [Pending("table", 2, {"status": "open"}, 9000.0 + i) for i in range(3)]     # ts 9000..9002
    journal.append_many(old + new)
    journal.mark_delivered([1, 2, 4, 5, 6])  # 3 was never acknowledged: the outbox, not history
    assert journal.prunable(5000.0) == (4, 1, 5)
    assert journal.prune(5000.0, batch=2) == (4, 1, 5)  # in batches of 2
    assert [e.seq for e in journal.events()] == [3, 6, 7, 8]
    assert journal.first_seq == 3 and [e.seq for e in journal.undelivered()] == [3, 7, 8]
    assert journal.prune(5000.0) == (0, None, None)  # nothing left to prune
    assert journal.append_many(events(1))[0].seq == 9
    journal.close()
    assert Journal(path, "t1").next_seq == 10
