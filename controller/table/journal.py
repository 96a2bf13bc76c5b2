"""The journal: every table event, numbered, on disk before anyone sees it.

SQLite in WAL mode, written by the table thread only. It is also the MQTT
outbox (DESIGN.md, MQTT): paho keeps unacknowledged messages in memory only,
so an event stays ``delivered = 0`` here until the broker's PUBACK for it
has come back through the table's inbox, and a restart or a broker outage
resumes from the first undelivered ``seq``.

``seq`` is table-wide and contiguous. It is the row id of an
``AUTOINCREMENT`` table, so it is never reused even if old rows are pruned,
and it survives a restart. The journal assigns it in memory (the next
number after the largest ever stored) because the envelope that is stored
and published must carry it; the row's primary key then proves it unique.

The journal stores exactly the envelopes that are published, byte for byte:
no face-down card, no order of undealt cards (DESIGN.md, "What must never
leave the controller"). Its ``meta`` table holds the birth number and the
machine's last state, so a restart knows whether a round was cut short.

Durability: ``synchronous = FULL``. In WAL mode NORMAL is safe against a
crash of the process but not of the machine: a power cut can roll back the
last commits. Those events may already have reached the pit (we publish
right after commit), so after the restart their ``seq`` numbers would be
handed out again for different events, and a subscriber that de-duplicates
by ``seq`` would drop the new ones. Power loss is a fault this project
injects on purpose, so each commit waits for its fsync (one per inbox item,
about a millisecond on a Pi's SD card or SSD).

The one exception is :meth:`Journal.mark_delivered`: its commit does not
wait for an fsync of its own (``synchronous = NORMAL`` for that transaction
only). The WAL is written in order and the next event commit's fsync
persists it along with everything before it, so a power cut can lose only
the newest *delivered* marks, never an event; those events then go out
again after the restart: a duplicate by ``seq``, which QoS 1 allows and
subscribers already drop. Nothing is ever marked delivered before its
PUBACK. `tablectl bench` measured the saving: half of the table thread's
time at full speed went to fsyncs of delivered marks (docs/performance.md).

Marks may also wait in memory (:meth:`Journal.mark_delivered_later`) and be
written inside the next event transaction, which costs nothing more: while
a table deals, the PUBACKs of one inbox item's events arrive before the next
item, so their marks ride along with its commit instead of needing one of
their own. The table writes them itself (:meth:`Journal.flush_marks`) when
no event follows soon. A mark still in memory at a crash is a mark lost:
the same duplicate as above, nothing more.

Opening (controller/table/journal_check.py): the file must be a journal of ours (SQLite
``application_id``, our tables and columns), writable, with readable ``birth``, ``state``,
``round`` and ``round_open`` and a ``seq`` far from SQLite's last integer; anything else is
a :class:`~controller.table.journal_check.JournalError` naming the file, the fault and what to do
(`tablectl` exits with status 2, which systemd does not restart). Another ``meta`` value
that is not JSON is ignored and listed in :attr:`Journal.damaged_meta` (the table raises an
alarm for it). A journal is never replaced by itself: `tablectl journal new` does it, on the
operator's command, keeping the old file (controller/table/journal_admin.py).

Damaged rows: an event whose stored envelope cannot be read (not JSON, not an envelope) is
never published, and never stops the table. Found while the outbox drains
(:meth:`Journal.undelivered`) it is *quarantined*: ``delivered = 2``, kept in the file for
the operator, out of the outbox, so the drain goes past it and it is reported once; found
by a replay (:meth:`Journal.events`) it is skipped. Either way it is listed by
:meth:`Journal.take_damaged` and the table raises a ``journal_row_damaged`` alarm naming its
seq.

Pruning (:meth:`Journal.prune`): an event's age is not its ``ts`` alone. Each row also has
``received``, the journal's own time of the write (controller/table/journal_clock.py: it never
goes back, and a wall clock found to have been late within the same boot moves this boot's
rows later). An event is old when both its ``ts`` and its ``received`` are before the cutoff,
and prune deletes only a *prefix* in ``seq`` order: delivered events before the first event
that is not old. An event written after a newer one is never older than it, however its
clock read, so a wall clock that jumps (a Pi that booted with last month's time) cannot make
recent events look old; every error of the clocks errs towards keeping. The cutoff is
counted back from the journal's newest event when that is earlier than the wall clock now
(:meth:`Journal.prune_cutoff`), so a prune run under a clock that is ahead deletes no more.
Rows written before ``received`` existed (``NULL``) are aged by ``ts`` under the same prefix
rule.
"""

from __future__ import annotations

import json
import logging
import math
import sqlite3
import time
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.table.journal_check import (
    APPLICATION_ID,
    JOURNAL_VERSION,
    SEQ_MAX,
    check_schema,
    check_seq,
    damaged,
    open_fault,
    prepare_directory,
    read_meta,
)
from controller.table.journal_clock import Clock, ReceiptClock, Segment, system_clock

log = logging.getLogger(__name__)

QUARANTINED = 2
"""``delivered`` of a row whose envelope cannot be read: out of the outbox, kept in the file."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    ts        REAL    NOT NULL,
    round     INTEGER,
    kind      TEXT    NOT NULL,
    envelope  TEXT    NOT NULL,
    delivered INTEGER NOT NULL DEFAULT 0,  -- 1: acknowledged by the broker; 2: damaged, quarantined
    received  REAL                         -- the journal's time of the write (controller/table/journal_clock.py)
);
CREATE INDEX IF NOT EXISTS events_undelivered ON events (seq) WHERE delivered = 0;
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class Event:
    """One journaled table event. ``payload`` is the envelope as JSON bytes,
    serialised once: the bytes stored are the bytes published."""

    seq: int
    ts: float
    table: str
    round: int | None
    kind: str
    data: dict[str, Any]
    payload: bytes

    def envelope(self) -> dict[str, Any]:
        return {"seq": self.seq, "ts": self.ts, "table": self.table, "round": self.round,
                "kind": self.kind, "data": self.data}


@dataclass(frozen=True, slots=True)
class Pending:
    """An event to journal: everything but its ``seq``."""

    kind: str
    round: int | None
    data: dict[str, Any]
    ts: float


def _plain(value: Any) -> Any:
    """JSON for what a machine may put in event data by mistake: a card
    becomes its code, any other object its text. Journaling never fails on it."""
    code = getattr(value, "code", None)
    if isinstance(code, str):
        return code
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    return str(value)


def _finite(value: Any) -> Any:
    """``value`` with every NaN and infinity as None, for an envelope JSON could not carry."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


class Journal:
    """The table's event log and outbox. Not thread-safe by design: one
    owner (the table thread) at a time; it may be created on another thread
    and handed over, hence ``check_same_thread=False``."""

    def __init__(self, path: str | Path, table: str, *, clock: Clock = system_clock) -> None:
        """Open (or create) the journal at ``path``; :class:`JournalError` when it cannot be
        used (controller/table/journal_check.py). ``clock`` stamps ``received`` (the system's
        clocks; a test gives a clock that jumps)."""
        self.path = Path(path)
        self.table = table
        if str(path) != ":memory:":
            prepare_directory(self.path)
        try:
            # isolation_level=None: we issue BEGIN/COMMIT ourselves, one transaction per batch.
            self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise open_fault(exc, self.path) from None
        self._marks: list[int] = []  # acknowledged, not yet written (mark_delivered_later)
        self._damaged: list[tuple[int, str]] = []  # rows found unreadable, not yet taken by the table
        try:
            self._open()
        except BaseException as exc:
            self._db.close()
            if isinstance(exc, sqlite3.Error):
                raise open_fault(exc, self.path) from None
            raise
        self._receipts = ReceiptClock(clock, self._last_received(), Segment.from_meta(self.meta("clock")))

    def _open(self) -> None:
        """Check the file before anything is written to it (another program's file is left
        exactly as it was), then make or migrate our tables, in one transaction."""
        kind = check_schema(self._db, self.path)
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = FULL")
        self._db.executescript(SCHEMA)  # a new file's tables; an index a journal lost
        self._migrate(kind)
        self._next_seq = self._stored_next_seq()
        check_seq(self.path, self._next_seq)
        # Meta values that are not JSON, ignored (none the table cannot start without): the table says so.
        _, self.damaged_meta = read_meta(self._db.execute("SELECT key, value FROM meta").fetchall(), self.path)
        # Counted once here (the partial index makes it cheap), then kept up to
        # date by append_many and mark_delivered: the table checks the outbox
        # cap after every item without a COUNT(*).
        self._undelivered = self._db.execute("SELECT COUNT(*) FROM events WHERE delivered = 0").fetchone()[0]

    def _migrate(self, kind: str) -> None:
        """Additive changes only (docs/operations.md, "The journal across versions"): the
        ``received`` column, the application id that marks the file as ours, the version."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(events)")}
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if kind == "ours" and "received" in columns and version >= JOURNAL_VERSION:
            return
        with self._transaction():
            if "received" not in columns:
                self._db.execute("ALTER TABLE events ADD COLUMN received REAL")
            self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            if version < JOURNAL_VERSION:
                self._db.execute(f"PRAGMA user_version = {JOURNAL_VERSION}")

    # -- writing -------------------------------------------------------------

    def append(self, kind: str, round: int | None, data: Mapping[str, Any], ts: float) -> Event:
        """Journal one event in its own transaction."""
        return self.append_many([Pending(kind, round, dict(data), ts)])[0]

    def append_many(self, items: Sequence[Pending], meta: Mapping[str, Any] | None = None) -> list[Event]:
        """Journal events in one transaction, numbering them in order; also
        set ``meta`` keys in the same transaction. Nothing is numbered if
        the commit fails."""
        if not items and not meta:
            return []
        first = self._next_seq
        if first + len(items) - 1 > SEQ_MAX:
            raise damaged(self.path, f"seq {first + len(items) - 1} would be past SQLite's largest integer (2**63 - 1)")
        events = [self._make(first + i, item) for i, item in enumerate(items)]
        stamp = self._receipts.stamp(first) if events else None
        meta = dict(meta or {})
        if stamp is not None and stamp.changed:
            meta["clock"] = stamp.segment.to_meta()
        marks, self._marks = self._marks, []
        try:
            with self._transaction():
                if stamp is not None and stamp.shift:  # the wall clock was late this boot: so were these rows
                    self._db.execute("UPDATE events SET received = MIN(received + ?, ?) "
                                     "WHERE seq >= ? AND received IS NOT NULL",
                                     (stamp.shift, stamp.received, stamp.shift_from))
                received = stamp.received if stamp is not None else None
                self._db.executemany(
                    "INSERT INTO events (seq, ts, round, kind, envelope, received) VALUES (?, ?, ?, ?, ?, ?)",
                    [(e.seq, e.ts, e.round, e.kind, e.payload.decode(), received) for e in events])
                self._set_meta(meta)
                marked = self._update_marks(marks)
        except BaseException:
            self._marks[:0] = marks  # rolled back with the events: still to be written
            raise
        if stamp is not None:
            self._receipts.commit(stamp)
        self._next_seq = first + len(events)
        self._undelivered += len(events) - marked
        return events

    def mark_delivered(self, seqs: Iterable[int]) -> int:
        """The broker acknowledged these events (PUBACK); returns how many were
        undelivered until now (a second PUBACK for a republished event counts once)."""
        marks = [*self._marks, *seqs]
        self._marks = []
        if not marks:
            return 0
        try:
            with self._transaction(fsync=False):  # see "Durability" above: a lost mark is a resend
                changed = self._update_marks(marks)
        except BaseException:
            self._marks[:0] = marks
            raise
        self._undelivered -= changed
        return changed

    def mark_delivered_later(self, seqs: Iterable[int]) -> None:
        """Acknowledged events whose marks may wait for the next write (see
        "Durability" above); :attr:`undelivered_count` counts them once written."""
        self._marks.extend(seqs)

    def flush_marks(self) -> int:
        """Write the marks that are waiting; how many events they took out of the outbox."""
        return self.mark_delivered(())

    @property
    def marks_waiting(self) -> int:
        return len(self._marks)

    def _update_marks(self, seqs: Sequence[int]) -> int:
        if not seqs:
            return 0
        return self._db.executemany("UPDATE events SET delivered = 1 WHERE seq = ? AND delivered = 0",
                                    [(s,) for s in seqs]).rowcount

    def set_meta(self, **values: Any) -> None:
        with self._transaction():
            self._set_meta(values)

    @property
    def journal_id(self) -> str:
        """This journal's own identity, made once: the table's status carries it, so a controller
        can tell its own earlier status from another journal's (two controllers, one table id)."""
        found = self.meta("journal_id")
        if not isinstance(found, str):
            found = uuid.uuid4().hex
            self.set_meta(journal_id=found)
        return found

    def next_birth(self) -> int:
        """Count one more start of the controller: the Sparkplug-style birth
        number of the status topic's birth and will."""
        birth = int(self.meta("birth", 0)) + 1
        self.set_meta(birth=birth)
        return birth

    # -- reading -------------------------------------------------------------

    @property
    def next_seq(self) -> int:
        return self._next_seq

    @property
    def undelivered_count(self) -> int:
        """Events not yet acknowledged by the broker: the outbox's size, from memory."""
        return self._undelivered

    def undelivered(self, after_seq: int | None = None, limit: int = 1000) -> list[Event]:
        """Events not yet acknowledged by the broker, in ``seq`` order. A row that cannot be
        read is quarantined on the way (``delivered = 2``: out of the outbox, kept in the file)
        and listed for :meth:`take_damaged`, so the outbox drains past it."""
        after = after_seq or 0
        while True:
            rows = self._db.execute(
                "SELECT seq, CAST(envelope AS BLOB) FROM events WHERE delivered = 0 AND seq > ? ORDER BY seq LIMIT ?",
                (after, limit)).fetchall()
            events, bad = self._read(rows)
            if bad:
                with self._transaction(fsync=False):  # lost in a power cut: found and reported again
                    self._undelivered -= self._db.executemany(
                        f"UPDATE events SET delivered = {QUARANTINED} WHERE seq = ? AND delivered = 0",
                        [(seq,) for seq in bad]).rowcount
            if events or not rows:
                return events
            after = rows[-1][0]  # a whole batch of damaged rows: read on past it

    def events(self, after_seq: int = 0, limit: int = 1000, until: int | None = None) -> list[Event]:
        """Every event after ``after_seq`` (up to ``until``), delivered or not: for replays,
        audits and tests. A row that cannot be read is skipped and listed for :meth:`take_damaged`."""
        after = after_seq
        top = SEQ_MAX if until is None else until
        while True:
            rows = self._db.execute("SELECT seq, CAST(envelope AS BLOB) FROM events WHERE seq > ? AND seq <= ? "
                                    "ORDER BY seq LIMIT ?", (after, top, limit)).fetchall()
            events, _ = self._read(rows)
            if events or not rows:
                return events
            after = rows[-1][0]

    def take_damaged(self) -> list[tuple[int, str]]:
        """The rows found unreadable since the last call: (seq, what is wrong), in the order found."""
        found, self._damaged = self._damaged, []
        return found

    @property
    def quarantined(self) -> int:
        """Rows taken out of the outbox because they could not be read (kept in the file)."""
        return self._db.execute(f"SELECT COUNT(*) FROM events WHERE delivered = {QUARANTINED}").fetchone()[0]

    @property
    def held(self) -> int:
        """How many events the journal holds (a full count: for `tablectl journal check`, not the event path)."""
        return self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0]

    @property
    def empty(self) -> bool:
        """No event journaled yet (a new journal, or one pruned bare)."""
        return self._db.execute("SELECT 1 FROM events LIMIT 1").fetchone() is None

    @property
    def first_seq(self) -> int:
        """The oldest seq still held (1 unless pruned; ``next_seq`` when empty)."""
        low = self._db.execute("SELECT MIN(seq) FROM events").fetchone()[0]
        return self._next_seq if low is None else low

    def number_from(self, seq: int) -> None:
        """Number the events of this empty journal from ``seq`` (`tablectl journal new` going on
        after the seqs of the journal it replaces, so no seq the pit has seen is handed out again)."""
        if not self.empty:
            raise ValueError(f"{self.path} already holds events: its numbering cannot change")
        check_seq(self.path, seq)
        with self._transaction():
            self._db.execute("DELETE FROM sqlite_sequence WHERE name = 'events'")
            self._db.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('events', ?)", (seq - 1,))
        self._next_seq = seq

    # -- pruning (see "Pruning" above) -------------------------------------------------

    def prune_cutoff(self, keep_seconds: float, now: float | None = None) -> float:
        """The age before which events may go: ``keep_seconds`` before now, or before the
        journal's newest event when that is earlier (a clock that runs ahead deletes no more)."""
        now = time.time() if now is None else now
        newest = self._db.execute("SELECT MAX(MAX(ts, COALESCE(received, ts))) FROM events").fetchone()[0]
        return (now if newest is None else min(now, newest)) - keep_seconds

    def prune_boundary(self, before: float) -> int:
        """The first seq that is not old: the first event whose ``ts`` or ``received`` is at or
        after ``before`` (or one past the last event when all are old). Only events before it
        may be pruned, whatever the ages of later ones."""
        return self._db.execute(
            "SELECT COALESCE((SELECT MIN(seq) FROM events WHERE MAX(ts, COALESCE(received, ts)) >= ?), "
            "(SELECT MAX(seq) FROM events) + 1, 1)", (before,)).fetchone()[0]

    def prunable(self, before: float) -> tuple[int, int | None, int | None]:
        """What :meth:`prune` would delete: (how many, first seq, last seq)."""
        n, first, last = self._db.execute(
            "SELECT COUNT(*), MIN(seq), MAX(seq) FROM events WHERE delivered = 1 AND seq < ?",
            (self.prune_boundary(before),)).fetchone()
        return n, first, last

    def prune(self, before: float, batch: int = 1000) -> tuple[int, int | None, int | None]:
        """Delete *delivered* events older than ``before`` (unix time) by the rule of "Pruning"
        above: the prefix in ``seq`` order before :meth:`prune_boundary`, oldest first, ``batch``
        rows per transaction so a running table waits at most one batch for the lock. Never an
        undelivered event (the outbox is not history) nor a quarantined one (the operator's to
        look at). ``seq`` is never handed out again (AUTOINCREMENT). Returns (how many, first
        seq, last seq) deleted."""
        boundary = self.prune_boundary(before)  # once: events written meanwhile are after it
        total, first, last = 0, None, None
        while True:
            with self._transaction(fsync=False):
                rows = self._db.execute("SELECT seq FROM events WHERE delivered = 1 AND seq < ? ORDER BY seq LIMIT ?",
                                        (boundary, batch)).fetchall()
                self._db.executemany("DELETE FROM events WHERE seq = ?", rows)
            if not rows:
                return total, first, last
            total += len(rows)
            first = rows[0][0] if first is None else first
            last = rows[-1][0]

    def integrity(self) -> list[str]:
        """``PRAGMA quick_check``: every page of the file read (`tablectl journal check`; too slow
        for every start of a large journal on an SD card). Empty when the file is sound."""
        found = [row[0] for row in self._db.execute("PRAGMA quick_check").fetchall()]
        return [] if found == ["ok"] else found

    def unreadable(self, limit: int = 20) -> list[int]:
        """Seqs of rows whose envelope is not even JSON, quarantined or not (the first ``limit``)."""
        return [seq for (seq,) in self._db.execute(
            "SELECT seq FROM events WHERE NOT json_valid(CAST(envelope AS TEXT)) OR delivered = ? ORDER BY seq LIMIT ?",
            (QUARANTINED, limit))]

    def last_round(self) -> int | None:
        """The highest round id ever journaled: a restart numbers rounds on from it."""
        return self._db.execute("SELECT MAX(round) FROM events").fetchone()[0]

    def meta(self, key: str, default: Any = None) -> Any:
        """A ``meta`` value; ``default`` when it is not there or is not JSON (then it is in
        :attr:`damaged_meta`: checked at open, where the values the table needs are refused)."""
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row is None:
            return default
        try:
            return json.loads(row[0])
        except (TypeError, ValueError) as exc:
            self.damaged_meta.setdefault(key, f"not JSON ({exc})")
            return default

    def close(self) -> None:
        """Write the waiting marks, then close (a failure to write them only means resends)."""
        try:
            self.flush_marks()
        except sqlite3.Error as exc:
            log.warning("journal: %d delivered marks not written at close (%s): they go out again", len(self._marks),
                        exc)
        self._db.close()

    # -- internals -------------------------------------------------------------

    def _make(self, seq: int, item: Pending) -> Event:
        envelope = {"seq": seq, "ts": item.ts, "table": self.table, "round": item.round,
                    "kind": item.kind, "data": item.data}
        try:
            payload = json.dumps(envelope, separators=(",", ":"), ensure_ascii=False, allow_nan=False,
                                 default=_plain).encode()
        except ValueError:  # UnicodeEncodeError too
            # A lone surrogate or a NaN that got past every check (commands refuse both): \u escapes
            # are valid JSON and null stands for what JSON cannot carry (RFC 8259), so the event is
            # journaled and published rather than stopping the table.
            payload = json.dumps(_finite(envelope), separators=(",", ":"), ensure_ascii=True, allow_nan=False,
                                 default=_plain).encode()
        return Event(seq, item.ts, self.table, item.round, item.kind, item.data, payload)

    def _read(self, rows: Sequence[tuple[int, bytes]]) -> tuple[list[Event], list[int]]:
        """Rows as events, and the seqs of those that cannot be read (listed for :meth:`take_damaged`)."""
        events, bad = [], []
        for seq, blob in rows:
            try:
                events.append(self._load(seq, blob))
            except (TypeError, ValueError, KeyError, AttributeError) as exc:
                why = f"its stored envelope is not a readable event ({type(exc).__name__}: {str(exc)[:80]})"
                log.error("journal %s: seq %d: %s", self.path, seq, why)
                self._damaged.append((seq, why))
                bad.append(seq)
        return events, bad

    def _load(self, seq: int, blob: bytes) -> Event:
        env = json.loads(blob)
        if not isinstance(env, dict):
            raise TypeError(f"a JSON {type(env).__name__}, not an object")
        if env.get("seq") != seq or not isinstance(env.get("kind"), str) or not isinstance(env.get("data"), dict):
            raise ValueError(f"seq {env.get('seq')!r}, kind {env.get('kind')!r}: not the envelope of this row")
        if env.get("table") != self.table:
            # Another table's event (a journal copied between Pis, or edited): published under this
            # table's topic the pit would refuse it and ask for the seq for ever (issue 27).
            raise ValueError("the envelope names another table than this journal's")
        return Event(seq, env["ts"], env["table"], env["round"], env["kind"], env["data"], bytes(blob))

    def _last_received(self) -> float | None:
        """The newest ``received`` (``ts`` for a row from before it): the high-water mark it never goes under."""
        row = self._db.execute("SELECT received, ts FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        if row is None:
            return None
        return max(v for v in row if isinstance(v, (int, float)))

    def _stored_next_seq(self) -> int:
        # sqlite_sequence remembers the largest seq ever used, even after a prune.
        row = self._db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'events'").fetchone()
        top = self._db.execute("SELECT MAX(seq) FROM events").fetchone()[0]
        return max(row[0] if row else 0, top or 0) + 1

    def _set_meta(self, values: Mapping[str, Any]) -> None:
        self._db.executemany("INSERT INTO meta (key, value) VALUES (?, ?) "
                             "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                             [(k, json.dumps(v)) for k, v in values.items()])

    @contextmanager
    def _transaction(self, fsync: bool = True) -> Iterator[None]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error. ``fsync=False``:
        this one commit does not wait for the disk (``synchronous = NORMAL``);
        the next FULL commit's fsync makes it durable with everything before it."""
        if not fsync:
            self._db.execute("PRAGMA synchronous = NORMAL")
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                # SQLite rolls some errors back by itself (SQLITE_FULL: a full disk); a ROLLBACK
                # then fails with "no transaction is active" and would hide the real error.
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        finally:
            if not fsync:
                self._db.execute("PRAGMA synchronous = FULL")
