"""A journal the table cannot use is a JournalError naming the file, the fault and what to do;
a damaged row or meta value that the table can do without is reported, never fatal
(issue 13, "Nothing a client or a damaged disk sends can stop the table", defect 9).

Real files throughout; the read-only file system is a real tmpfs mounted read-only."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.table.journal import Journal, Pending
from controller.table.journal_check import APPLICATION_ID, SEQ_MAX, JournalError


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "var" / "t1.db"


def made(path: Path, n: int = 5, delivered: int = 0) -> Journal:
    """A real journal with ``n`` events, the first ``delivered`` of them acknowledged; closed."""
    journal = Journal(path, "t1")
    journal.append_many([Pending("table", 1, {"status": "open", "n": i}, 1000.0 + i) for i in range(n)])
    journal.mark_delivered(range(1, delivered + 1))
    journal.close()
    return journal


def refused(path: Path) -> JournalError:
    with pytest.raises(JournalError) as caught:
        Journal(path, "t1")
    error = caught.value
    assert str(error).startswith(f"{path}: ") and "\n" not in str(error)  # one line, the file first
    return error


# -- the file's place -------------------------------------------------------------------------

def test_a_parent_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "var").write_text("not a directory")
    error = refused(tmp_path / "var" / "t1.db")
    assert error.fault == f"{tmp_path / 'var'} is a file, not a directory"
    assert "journal.path" in error.todo


def test_a_directory_in_the_journals_place(path: Path) -> None:
    path.mkdir(parents=True)
    error = refused(path)
    assert error.fault == "is a directory, not a journal file" and "move the directory away" in error.todo


@pytest.fixture
def read_only_mount(tmp_path: Path) -> Iterator[Path]:
    """A real tmpfs, remounted read-only once the test has put its files there (we run as root,
    where a chmod 0555 directory does not stop a write: only a read-only mount does)."""
    where = tmp_path / "ro"
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where)], capture_output=True)
    assert mounted.returncode == 0, f"cannot mount a tmpfs (tests run as root here): {mounted.stderr!r}"
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def remount_read_only(where: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True)
    with pytest.raises(OSError):  # it really is read-only, for root too
        (where / "probe").write_text("x")


def test_a_journal_on_a_read_only_file_system(read_only_mount: Path) -> None:
    path = read_only_mount / "t1.db"
    made(path)
    remount_read_only(read_only_mount)
    error = refused(path)
    assert error.fault == f"the file system holding {read_only_mount} is mounted read-only"
    assert "remount it read-write" in error.todo


def test_a_new_journal_on_a_read_only_file_system(read_only_mount: Path) -> None:
    remount_read_only(read_only_mount)
    assert refused(read_only_mount / "t1.db").fault.endswith("is mounted read-only")


@pytest.fixture
def read_only_file(path: Path) -> Iterator[Path]:
    """A journal file bind-mounted read-only over itself: read-only for root too, in a
    directory that is not (as a file of root's is to the tablectl user)."""
    made(path)
    subprocess.run(["mount", "--bind", str(path), str(path)], check=True)
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", str(path)], check=True)
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=True)


def test_a_read_only_journal_file(read_only_file: Path) -> None:
    error = refused(read_only_file)
    assert error.fault == f"{read_only_file} cannot be written by this user (uid 0): Read-only file system"
    assert error.todo == "remount the file system read-write, or set journal.path on a writable disk"


def test_a_read_only_journal_directory(path: Path) -> None:
    made(path)
    subprocess.run(["mount", "--bind", str(path.parent), str(path.parent)], check=True)
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", str(path.parent)], check=True)
        assert refused(path).fault == f"the file system holding {path.parent} is mounted read-only"
    finally:
        subprocess.run(["umount", "-l", str(path.parent)], check=True)


# -- what is in the file ------------------------------------------------------------------------

def test_a_garbage_file(path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_bytes(os.urandom(4096))
    error = refused(path)
    assert "file is not a database" in error.fault
    assert "tablectl journal new --config <the table's config>" in str(error)
    assert error.explain("/etc/tablectl/t1.toml").endswith("tablectl journal new --config /etc/tablectl/t1.toml")


def test_a_half_truncated_journal(path: Path) -> None:
    made(path, n=2000)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    assert "database disk image is malformed" in refused(path).fault


def test_an_empty_file_becomes_a_journal(path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")
    journal = Journal(path, "t1")
    assert journal.append("table", None, {"status": "open"}, 1.0).seq == 1
    assert journal._db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def _foreign(path: Path, sql: str, app_id: int = 0) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as db:
        db.executescript(sql)
        if app_id:
            db.execute(f"PRAGMA application_id = {app_id}")
    db.close()
    return path.read_bytes()


def test_another_programs_file_is_refused_and_left_as_it_was(path: Path) -> None:
    before = _foreign(path, "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); "
                            "CREATE TABLE orders (id INTEGER PRIMARY KEY); INSERT INTO users VALUES (1, 'x');")
    error = refused(path)
    assert error.fault == "is not a tablectl journal: an SQLite file with the tables orders, users"
    assert path.read_bytes() == before  # not a table, not a pragma written: not even WAL mode
    with sqlite3.connect(path) as db:
        assert {n for (n,) in db.execute("SELECT name FROM sqlite_master")} == {"users", "orders"}


def test_another_programs_events_table_is_refused(path: Path) -> None:
    before = _foreign(path, "CREATE TABLE events (id INTEGER PRIMARY KEY, what TEXT, at TEXT); "
                            "CREATE TABLE meta (key TEXT, value TEXT);")
    error = refused(path)
    assert error.fault == ("is not a tablectl journal: its events table has the columns at, id, what, not "
                           "delivered, envelope, kind, round, seq, ts")
    assert path.read_bytes() == before


def test_another_programs_application_id_is_refused(path: Path) -> None:
    before = _foreign(path, "CREATE TABLE events (x); CREATE TABLE meta (y);", app_id=0x4D504442)
    error = refused(path)
    assert error.fault == "belongs to another program (SQLite application_id 0x4d504442, not tablectl's 0x54424c4a)"
    assert path.read_bytes() == before


def test_a_birth_that_is_not_json_stops_the_start_naming_it(path: Path) -> None:
    made(path)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO meta VALUES ('birth', '{oops')")
    db.close()
    error = refused(path)
    assert error.fault.startswith("its meta value 'birth' is not JSON (Expecting property name")
    assert error.fault.endswith("the table cannot start without it")


@pytest.mark.parametrize("key, value, what", [
    ("birth", '"3"', "not a whole number"),
    ("birth", "true", "not a whole number"),
    ("state", "7", "not a string or null"),
    ("round_open", '"yes"', "not true or false or null"),
])
def test_a_meta_value_of_the_wrong_kind_stops_the_start(path: Path, key: str, value: str, what: str) -> None:
    made(path)
    with sqlite3.connect(path) as db:
        db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
    db.close()
    assert f"its meta value {key!r} is {value}, {what}" in refused(path).fault


def test_a_damaged_meta_value_the_table_can_do_without_is_ignored_and_listed(path: Path) -> None:
    made(path)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO meta VALUES ('machine', '{\"player_dealer\": ')")
    db.close()
    journal = Journal(path, "t1")
    assert journal.meta("machine", "default") == "default"
    assert list(journal.damaged_meta) == ["machine"] and "not JSON" in journal.damaged_meta["machine"]
    journal.set_meta(machine={"player_dealer": None})  # the table writes a good one in its place
    assert journal.meta("machine") == {"player_dealer": None}


def test_a_seq_near_the_end_of_sqlites_integers(path: Path) -> None:
    made(path, n=1)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = 'events'", (SEQ_MAX - 5,))
    db.close()
    error = refused(path)
    assert error.fault.startswith(f"its next seq is {SEQ_MAX - 4}, within 1,000,000,000 of SQLite's largest integer")
    assert "tablectl journal new" in error.todo


# -- damaged rows: reported, never fatal ----------------------------------------------------------

def _damage(path: Path, *seqs: int, text: str = "{not json") -> None:
    with sqlite3.connect(path) as db:
        db.executemany("UPDATE events SET envelope = ? WHERE seq = ?", [(text, s) for s in seqs])
    db.close()


def test_a_damaged_undelivered_row_is_quarantined_and_the_drain_goes_past_it(path: Path) -> None:
    made(path, n=6, delivered=1)
    _damage(path, 3)
    journal = Journal(path, "t1")
    assert journal.undelivered_count == 5
    assert [e.seq for e in journal.undelivered()] == [2, 4, 5, 6]
    (found,) = journal.take_damaged()
    assert found[0] == 3 and found[1].startswith("its stored envelope is not a readable event (JSONDecodeError")
    assert journal.take_damaged() == []
    assert journal.undelivered_count == 4 and journal.quarantined == 1
    assert [e.seq for e in journal.undelivered()] == [2, 4, 5, 6] and journal.take_damaged() == []  # once
    journal.mark_delivered([3])  # a stray PUBACK cannot turn it into a delivered event
    journal.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT delivered, envelope FROM events WHERE seq = 3").fetchone() == (2, "{not json")
    assert Journal(path, "t1").undelivered_count == 4  # still out of the outbox after a restart


def test_a_batch_of_nothing_but_damaged_rows_is_read_past(path: Path) -> None:
    made(path, n=6)
    _damage(path, 1, 2, 3)
    journal = Journal(path, "t1")
    assert [e.seq for e in journal.undelivered(limit=2)] == [4]  # rows 1, 2 then 3, 4: read on past 1, 2
    assert [e.seq for e in journal.undelivered(after_seq=4, limit=2)] == [5, 6]
    assert [seq for seq, _ in journal.take_damaged()] == [1, 2, 3]


@pytest.mark.parametrize("text", ['[1, 2]', '{"seq": 99, "ts": 1, "table": "t1", "round": null, "kind": "x", "data": {}}',
                                  '{"seq": 2, "kind": "table", "data": {}}'])
def test_json_that_is_not_this_rows_envelope_is_damaged_too(path: Path, text: str) -> None:
    made(path, n=3)
    _damage(path, 2, text=text)
    journal = Journal(path, "t1")
    assert [e.seq for e in journal.undelivered()] == [1, 3]
    assert [seq for seq, _ in journal.take_damaged()] == [2]


def test_a_replay_skips_a_damaged_row_and_names_it(path: Path) -> None:
    made(path, n=6, delivered=6)
    _damage(path, 2, 3)
    journal = Journal(path, "t1")
    assert [e.seq for e in journal.events(after_seq=0, limit=1)] == [1]
    assert [e.seq for e in journal.events(after_seq=1, limit=1)] == [4]  # read past, not an early end
    assert [e.seq for e in journal.events(after_seq=1, limit=5, until=3)] == []
    assert [seq for seq, _ in journal.take_damaged()] == [2, 3, 2, 3]
    assert journal.undelivered_count == 0 and journal.quarantined == 0  # delivered: not the outbox's
    assert journal.unreadable() == [2, 3]


def test_invalid_utf8_in_a_row_is_a_damaged_row_not_a_failed_query(path: Path) -> None:
    made(path, n=3)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE events SET envelope = CAST(X'7B22FF' AS TEXT) WHERE seq = 2")
    db.close()
    journal = Journal(path, "t1")
    assert [e.seq for e in journal.undelivered()] == [1, 3]
    assert [seq for seq, _ in journal.take_damaged()] == [2]
    assert json.loads(journal.events()[0].payload)["seq"] == 1
