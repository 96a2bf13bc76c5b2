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
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    ts        REAL    NOT NULL,
    round     INTEGER,
    kind      TEXT    NOT NULL,
    envelope  TEXT    NOT NULL,
    delivered INTEGER NOT NULL DEFAULT 0
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


class Journal:
    """The table's event log and outbox. Not thread-safe by design: one
    owner (the table thread) at a time; it may be created on another thread
    and handed over, hence ``check_same_thread=False``."""

    def __init__(self, path: str | Path, table: str) -> None:
        self.path = Path(path)
        self.table = table
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, one transaction per batch.
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = FULL")
        self._db.executescript(SCHEMA)
        self._next_seq = self._stored_next_seq()
        # Counted once here (the partial index makes it cheap), then kept up to
        # date by append_many and mark_delivered: the table checks the outbox
        # cap after every item without a COUNT(*).
        self._undelivered = self._db.execute("SELECT COUNT(*) FROM events WHERE delivered = 0").fetchone()[0]
        self._marks: list[int] = []  # acknowledged, not yet written (mark_delivered_later)

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
        events = [self._make(first + i, item) for i, item in enumerate(items)]
        marks, self._marks = self._marks, []
        try:
            with self._transaction():
                self._db.executemany(
                    "INSERT INTO events (seq, ts, round, kind, envelope) VALUES (?, ?, ?, ?, ?)",
                    [(e.seq, e.ts, e.round, e.kind, e.payload.decode()) for e in events])
                self._set_meta(meta or {})
                marked = self._update_marks(marks)
        except BaseException:
            self._marks[:0] = marks  # rolled back with the events: still to be written
            raise
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
        """Events not yet acknowledged by the broker, in ``seq`` order."""
        rows = self._db.execute(
            "SELECT seq, envelope FROM events WHERE delivered = 0 AND seq > ? ORDER BY seq LIMIT ?",
            (after_seq or 0, limit)).fetchall()
        return [self._load(seq, text) for seq, text in rows]

    def events(self, after_seq: int = 0, limit: int = 1000) -> list[Event]:
        """Every event after ``after_seq``, delivered or not: for audits and tests."""
        rows = self._db.execute("SELECT seq, envelope FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
                                (after_seq, limit)).fetchall()
        return [self._load(seq, text) for seq, text in rows]

    @property
    def first_seq(self) -> int:
        """The oldest seq still held (1 unless pruned; ``next_seq`` when empty)."""
        low = self._db.execute("SELECT MIN(seq) FROM events").fetchone()[0]
        return self._next_seq if low is None else low

    def prunable(self, before_ts: float) -> tuple[int, int | None, int | None]:
        """What :meth:`prune` would delete: (how many, first seq, last seq)."""
        n, first, last = self._db.execute(
            "SELECT COUNT(*), MIN(seq), MAX(seq) FROM events WHERE delivered = 1 AND ts < ?", (before_ts,)).fetchone()
        return n, first, last

    def prune(self, before_ts: float, batch: int = 1000) -> tuple[int, int | None, int | None]:
        """Delete *delivered* events older than ``before_ts`` (unix time), oldest first,
        ``batch`` rows per transaction so a running table waits at most one batch for the
        lock. Never an undelivered event: the outbox is not history. ``seq`` is never
        handed out again (AUTOINCREMENT). Returns (how many, first seq, last seq) deleted."""
        total, first, last = 0, None, None
        while True:
            with self._transaction(fsync=False):
                rows = self._db.execute("SELECT seq FROM events WHERE delivered = 1 AND ts < ? ORDER BY seq LIMIT ?",
                                        (before_ts, batch)).fetchall()
                self._db.executemany("DELETE FROM events WHERE seq = ?", rows)
            if not rows:
                return total, first, last
            total += len(rows)
            first = rows[0][0] if first is None else first
            last = rows[-1][0]

    def last_round(self) -> int | None:
        """The highest round id ever journaled: a restart numbers rounds on from it."""
        return self._db.execute("SELECT MAX(round) FROM events").fetchone()[0]

    def meta(self, key: str, default: Any = None) -> Any:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

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
        payload = json.dumps(envelope, separators=(",", ":"), ensure_ascii=False, default=_plain).encode()
        return Event(seq, item.ts, self.table, item.round, item.kind, item.data, payload)

    def _load(self, seq: int, text: str) -> Event:
        env = json.loads(text)
        return Event(seq, env["ts"], env["table"], env["round"], env["kind"], env["data"], text.encode())

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
