"""controller.pit.archive against a real PostgreSQL: versioned migrations, idempotent storing,
and gaps kept in the database (so that two services sharing a site agree on them)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest

from controller.pit.archive import (
    Archive,
    ArchivedEvent,
    ArchiveDown,
    ArchiveError,
    ArchiveRefused,
    Batch,
    Reject,
    migrations,
)


def _event(seq: int, table: str = "bac-01", **data) -> ArchivedEvent:
    env = {"seq": seq, "ts": 1_700_000_000.5 + seq, "table": table, "round": 3, "kind": "table",
           "data": data or {"status": "open"}}
    return ArchivedEvent(table, seq, "table", 3, env["ts"], json.dumps(env))


@pytest.fixture
def archive(pg_url: str):
    made = Archive(pg_url)
    made.open()
    yield made
    made.close()


def _rows(url: str, sql: str) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute(sql).fetchall()


# -- migrations -------------------------------------------------------------------------

def test_migrations_are_applied_once_in_order(pg_url):
    first = Archive(pg_url)
    applied = first.open()
    assert [m.name for m in applied] == [m.name for m in migrations()] and len(applied) >= 2
    assert first.version() == len(applied)
    first.close()
    again = Archive(pg_url)
    assert again.open() == [], "a second start applies nothing"
    again.close()
    assert _rows(pg_url, "SELECT version, name FROM schema_version ORDER BY version") == \
        [(m.version, m.name) for m in migrations()]
    assert _rows(pg_url, "SELECT archived_to FROM tables") == []  # 0002's column is there


def test_two_services_starting_together_migrate_once(pg_url):
    results: list[object] = []

    def start() -> None:
        archive = Archive(pg_url)
        try:
            results.append(len(archive.open()))
        except Exception as exc:  # the test fails on it below, with the exception in view
            results.append(exc)
        finally:
            archive.close()
    threads = [threading.Thread(target=start) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(results) == [0, 0, len(migrations())], results


def test_a_database_newer_than_the_code_is_refused(pg_url):
    Archive(pg_url).open()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_version (version, name) VALUES (99, '0099_future.sql')")
    newer = Archive(pg_url)
    with pytest.raises(ArchiveError, match=r"schema version 99, newer than this tablectl knows .*upgrade tablectl"):
        newer.open()
    newer.close()


def test_a_failed_migration_is_rolled_back_and_named(pg_url, tmp_path: Path):
    (tmp_path / "0001_good.sql").write_text("CREATE TABLE good (x int);")
    (tmp_path / "0002_bad.sql").write_text("CREATE TABLE half (x int); CREATE TABLE oops (;")
    archive = Archive(pg_url, folder=tmp_path)
    with pytest.raises(ArchiveError, match=r"migration 0002_bad.sql failed and was rolled back: syntax error"):
        archive.open()
    archive.close()
    assert _rows(pg_url, "SELECT version FROM schema_version") == [(1,)]
    assert _rows(pg_url, "SELECT to_regclass('half') IS NULL") == [(True,)], "nothing of 0002 stayed"


def test_migration_files_must_be_numbered_without_holes(tmp_path: Path):
    (tmp_path / "0001_a.sql").write_text("")
    (tmp_path / "0003_c.sql").write_text("")
    with pytest.raises(ArchiveError, match=r"without a hole \(found \[1, 3\]\)"):
        migrations(tmp_path)
    (tmp_path / "0003_c.sql").unlink()
    (tmp_path / "notes.sql").write_text("")
    with pytest.raises(ArchiveError, match=r"must be named NNNN_name\.sql"):
        migrations(tmp_path)


def _released(tmp_path: Path, *names: str) -> Path:
    """A folder of migrations as an earlier tablectl shipped them: this code's files under the
    numbers given (``0003_disputes_acks.sql`` is this code's 0004, as main released it)."""
    shipped = {m.slug: m for m in migrations()}
    folder = tmp_path / "released"
    folder.mkdir()
    for name in names:
        (folder / name).write_text(shipped[name.partition("_")[2]].sql, encoding="utf-8")
    return folder


def _columns(url: str, table: str) -> set[str]:
    return {r[0] for r in _rows(url, f"SELECT column_name FROM information_schema.columns WHERE table_name = '{table}'")}


def _is_current(url: str) -> None:
    assert _rows(url, "SELECT version, name FROM schema_version ORDER BY version") == \
        [(m.version, m.name) for m in migrations()]
    assert {"replay_by", "replay_until", "archived_to"} <= _columns(url, "tables")
    assert {"id", "alarm_seq", "by_user"} <= _columns(url, "acknowledgements")


@pytest.mark.parametrize("released", [
    ("0001_archive.sql", "0002_archived_to.sql"),
    ("0001_archive.sql", "0002_archived_to.sql", "0003_replay_claim.sql"),
    ("0001_archive.sql", "0002_archived_to.sql", "0003_disputes_acks.sql"),
], ids=["version 2", "version 3, the claim", "version 3, disputes as main released them"])
def test_an_archive_of_an_earlier_release_reaches_the_newest_version(pg_url, tmp_path: Path, released):
    """Both lines of development released a version 3: either comes to version 4 with the claim and
    the acknowledgements, and the disputes' file is never run twice (it would fail: its table exists)."""
    old = Archive(pg_url, folder=_released(tmp_path, *released))
    assert len(old.open()) == len(released)
    old.close()
    archive = Archive(pg_url)
    applied = archive.open()
    assert archive.version() == len(migrations()) == 4
    archive.close()
    assert {m.slug for m in applied} == {m.slug for m in migrations()} - {n.partition("_")[2] for n in released}
    _is_current(pg_url)
    again = Archive(pg_url)
    assert again.open() == [], "a second start applies nothing, renumbers nothing"
    again.close()
    _is_current(pg_url)


def test_an_archive_with_a_migration_this_code_does_not_know_is_refused(pg_url, tmp_path: Path):
    (tmp_path / "0001_archive.sql").write_text(migrations()[0].sql, encoding="utf-8")
    (tmp_path / "0002_elsewhere.sql").write_text("CREATE TABLE elsewhere (x int);", encoding="utf-8")
    Archive(pg_url, folder=tmp_path).open()
    other = Archive(pg_url)
    with pytest.raises(ArchiveError, match=r"has migrations this tablectl does not know \(0002_elsewhere.sql\)"):
        other.open()
    other.close()
    assert _rows(pg_url, "SELECT version, name FROM schema_version ORDER BY version") == \
        [(1, "0001_archive.sql"), (2, "0002_elsewhere.sql")], "nothing changed"


def test_two_migrations_of_one_name_are_refused(tmp_path: Path):
    (tmp_path / "0001_a.sql").write_text("")
    (tmp_path / "0002_a.sql").write_text("")
    with pytest.raises(ArchiveError, match=r"0002_a.sql and 0001_a.sql have one name"):
        migrations(tmp_path)


def test_a_wrong_url_and_an_unreachable_server_are_one_line_each(postgres):
    with pytest.raises(ArchiveError, match=r"^--db: not a PostgreSQL URL") as bad:
        Archive("nonsense").open()
    assert "\n" not in str(bad.value)
    with pytest.raises(ArchiveDown, match=r"cannot connect to the archive database .*/nodb") as away:
        Archive(postgres.url("nodb")).open()
    assert "\n" not in str(away.value)
    assert "secret" not in Archive("postgresql://pit:secret@db/x").where


# -- storing ----------------------------------------------------------------------------------

def test_storing_is_idempotent_and_never_overwrites(archive, pg_url):
    batch = Batch([_event(1), _event(2), _event(3)])
    first = archive.store(batch)
    assert first.new == [("bac-01", 1), ("bac-01", 2), ("bac-01", 3)] and first.duplicates == 0
    again = archive.store(batch)
    assert again.new == [] and again.duplicates == 3 and not again.conflicts
    other = archive.store(Batch([_event(2, status="closed"), _event(4), _event(4)]))
    assert other.new == [("bac-01", 4)] and other.duplicates == 1
    assert [r.reason.split(":")[0] for r in other.conflicts] == ["seq backwards"]
    assert _rows(pg_url, "SELECT seq, data ->> 'status', ts = to_timestamp(1700000002.5) FROM events WHERE seq = 2") \
        == [(2, "open", True)]
    assert _rows(pg_url, "SELECT count(*) FROM events") == [(4,)]
    (reason, payload), = _rows(pg_url, "SELECT reason, payload FROM rejects")
    assert "seq 2 of table bac-01 is archived already with another payload" in reason
    assert json.loads(bytes(payload))["data"] == {"status": "closed"}


def test_a_row_postgres_refuses_becomes_a_reject_and_the_rest_is_stored(archive, pg_url):
    bad = ArchivedEvent("bac-01", 2, "table", None, 1.0, '{"seq": 2, "data": {"x": "\\u0000"}}')
    stored = archive.store(Batch([_event(1), bad, _event(3)], [Reject("casino/x/event/y", None, "malformed: x", b"\x00")],
                                 {"bac-01": {"online": True, "table": "bac-01", "birth": 1, "game": "baccarat"}}))
    assert stored.new == [("bac-01", 1), ("bac-01", 3)] and stored.refused_keys == {("bac-01", 2)}
    assert _rows(pg_url, "SELECT seq FROM events ORDER BY seq") == [(1,), (3,)]
    reasons = [r for r, in _rows(pg_url, "SELECT reason FROM rejects ORDER BY id")]
    assert reasons[0] == "malformed: x" and "refused event 2 (table): unsupported Unicode escape" in reasons[1]
    assert _rows(pg_url, "SELECT game FROM tables") == [("baccarat",)]


def test_an_offline_status_keeps_the_game(archive, pg_url):
    archive.store(Batch(statuses={"bac-01": {"online": True, "table": "bac-01", "birth": 4, "game": "baccarat"}}))
    archive.store(Batch(statuses={"bac-01": {"online": False, "table": "bac-01", "birth": 4}}))
    assert _rows(pg_url, "SELECT game, status ->> 'online' FROM tables") == [("baccarat", "false")]
    known = archive.known_tables()["bac-01"]
    assert (known.game, known.birth, known.last_seq, known.archived_to) == ("baccarat", 4, 0, 0)


# -- gaps --------------------------------------------------------------------------------------

def test_a_hole_becomes_an_open_gap_and_is_filled_when_the_rows_arrive(archive, pg_url):
    archive.store(Batch([_event(s) for s in (1, 2, 5, 6, 9)]))
    check = archive.check_gaps("bac-01", 10)
    assert check.opened == [(3, 4), (7, 8), (10, 10)] and check.open == [(3, 4), (7, 8), (10, 10)]
    assert check.archived_to == 10
    assert archive.check_gaps("bac-01", 10).opened == [], "a hole is recorded once"
    archive.store(Batch([_event(3), _event(8)]))
    check = archive.check_gaps("bac-01", 10)
    assert check.filled == [(3, 3), (8, 8)] and check.open == [(4, 4), (7, 7), (10, 10)]
    rows = _rows(pg_url, "SELECT first_seq, last_seq, status, closed_at IS NOT NULL FROM gaps ORDER BY first_seq")
    assert rows == [(3, 3, "filled", True), (4, 4, "open", False), (7, 7, "open", False),
                    (8, 8, "filled", True), (10, 10, "open", False)]
    assert archive.missing_in("bac-01", 1, 10) == [(4, 4), (7, 7), (10, 10)]


def test_unfillable_takes_only_what_is_still_missing(archive, pg_url):
    archive.store(Batch([_event(1), _event(10)]))
    archive.check_gaps("bac-01", 10)
    archive.mark_asked("bac-01", 2, 9)
    archive.store(Batch([_event(6)]))
    check = archive.mark_unfillable("bac-01", 2, 7, "table bac-01 refused: pruned")
    assert check.open == [(8, 9)]
    rows = _rows(pg_url, "SELECT first_seq, last_seq, status, reason, asked FROM gaps ORDER BY first_seq")
    assert rows == [(2, 5, "unfillable", "table bac-01 refused: pruned", 1), (6, 6, "filled", None, 1),
                    (7, 7, "unfillable", "table bac-01 refused: pruned", 1), (8, 9, "open", None, 1)]
    assert archive.check_gaps("bac-01", 12).opened == [(11, 12)], "an unfillable run is never reopened"


def test_two_services_checking_one_table_record_each_hole_once(pg_url):
    one, two = Archive(pg_url), Archive(pg_url)
    one.open()
    two.open()
    try:
        one.store(Batch([_event(s) for s in range(1, 2001) if s % 100]))
        found: list[list[tuple[int, int]]] = []
        barrier = threading.Barrier(2)

        def check(archive: Archive) -> None:
            barrier.wait()
            found.append(archive.check_gaps("bac-01", 2000).opened)
        threads = [threading.Thread(target=check, args=(a,)) for a in (one, two)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert sorted(map(len, found)) == [0, 20], "one of them found the 20 holes, the other none"
        assert _rows(pg_url, "SELECT count(*) FROM gaps WHERE status = 'open'") == [(20,)]
    finally:
        one.close()
        two.close()


def test_advance_never_moves_archived_to_back(archive, pg_url):
    archive.store(Batch([_event(1)], statuses={"bac-01": {"online": False, "table": "bac-01", "birth": 1}}))
    archive.advance({"bac-01": 7})
    archive.advance({"bac-01": 3})
    assert _rows(pg_url, "SELECT archived_to FROM tables") == [(7,)]


def test_a_lost_connection_is_archive_down(archive, pg_url, postgres):
    # The test server runs with synchronous_commit and fsync off: a crash forgets its last commits
    # (here, at times, the migrations: the store after the restart found no table "events").
    # What was committed is made to survive the crash, as on a real server.
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CHECKPOINT")
    postgres.stop("immediate")
    try:
        with pytest.raises(ArchiveDown):
            archive.store(Batch([_event(1)]))
        assert not archive.connected
    finally:
        postgres.start()
    archive.connect()
    assert archive.store(Batch([_event(1)])).new == [("bac-01", 1)]


def test_a_commit_whose_acknowledgement_was_lost_counts_once_as_stored(archive, pg_url, monkeypatch):
    """The commit went through but the connection dropped before its answer came: the caller saw
    ArchiveDown and stores the batch again. PostgreSQL is asked what became of that transaction:
    it committed, so its events are new (not duplicates) and its rejects are not stored twice."""
    reject = Reject("casino/bac-01/event/table", "bac-01", "malformed: not JSON", b"{")
    batch = Batch([_event(1), _event(2)], [reject])
    conn = archive._conn
    real = conn.transaction

    @contextmanager
    def answer_lost(*args, **kw) -> Iterator[object]:
        with real(*args, **kw) as tx:
            yield tx
        raise psycopg.OperationalError("server closed the connection unexpectedly")
    monkeypatch.setattr(conn, "transaction", answer_lost)
    with pytest.raises(ArchiveDown):
        archive.store(batch)
    monkeypatch.undo()
    assert _rows(pg_url, "SELECT seq FROM events ORDER BY seq") == [(1,), (2,)], "the commit went through"
    archive.connect()
    again = archive.store(Batch([*batch.events, _event(3)], [reject]))
    assert sorted(again.new) == [("bac-01", 1), ("bac-01", 2), ("bac-01", 3)] and again.duplicates == 0, again
    assert _rows(pg_url, "SELECT count(*) FROM rejects") == [(1,)]
    assert archive.store(Batch([_event(1)])).duplicates == 1, "settled once: a later copy is a duplicate"


def test_seqs_at_the_end_of_bigint_are_checked_and_a_refusal_is_an_archive_error(archive):
    """The end mark of the hole search is upto + 1: at seq 2**63 - 1 it must not overflow. And what
    PostgreSQL refuses is an ArchiveError (the service's timers catch those), never a bare psycopg
    error, with the connection kept."""
    top = 2**63 - 1
    archive.store(Batch([_event(1)], statuses={"bac-01": {"table": "bac-01", "birth": 1}}))
    check = archive.check_gaps("bac-01", top)
    assert check.opened == [(2, top)] and check.archived_to == top
    assert archive.missing_in("bac-01", top, top) == [(top, top)]
    with pytest.raises(ArchiveRefused):
        archive.advance({"bac-01": top + 1})  # a seq beyond bigint
    assert archive.connected
    assert archive.store(Batch([_event(2)])).new == [("bac-01", 2)]


def test_a_batch_refused_for_no_row_of_its_own_is_an_error_not_refused_rows(archive, pg_url):
    """A statement refused for a reason no row is to blame for (here the table is missing) must not
    make every event a refused one, acknowledged and never stored: the store fails, to be tried again."""
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("ALTER TABLE events RENAME TO events_away")
    with pytest.raises(ArchiveRefused):
        archive.store(Batch([_event(1)]))
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("ALTER TABLE events_away RENAME TO events")
    assert archive.store(Batch([_event(1)])).new == [("bac-01", 1)]
