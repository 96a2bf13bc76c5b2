"""`tablectl journal check` and `tablectl journal new`: what an operator does about a journal
the table cannot use (docs/operations.md, "A damaged journal").

The table never replaces its journal by itself: the journal is the table's record and its
outbox, and a new one ends the history the pit can replay. `journal new` does it on the
operator's command only, and keeps the old file:

- the damaged journal, with its ``-wal`` and ``-shm`` files, is *renamed* beside itself to
  ``<name>.damaged-<YYYYmmddTHHMMSS>`` (``-wal``/``-shm`` after that name, so SQLite still
  finds them together); nothing is ever deleted;
- what can still be read from it is carried over: ``meta`` values (the birth number, so
  births go on increasing; the last state, so a round left open is voided; the game's saved
  rotation) and its last ``seq`` and round: the new journal numbers its events on after them,
  so no ``seq`` the pit has seen is handed out again. When the last ``seq`` cannot be read
  (a file that is not SQLite any more), ``--first-seq`` takes it from the pit (the table's
  retained status carries ``next_seq``); without it the new journal starts again at 1;
- the new journal's ``meta.restarted`` records when, from which file and where the old
  history ended; the table's first start on it raises a ``journal_restarted`` alarm saying so.

Only a *damaged* journal is replaced without ``--force``: a sound one, or a file that is not
a journal at all (another program's: renaming it would break that program), is refused.
Both commands take the table's instance lock, so they refuse while the table runs.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.table.instance_lock import InstanceLock
from controller.table.journal import Journal
from controller.table.journal_check import (
    FATAL_META,
    NEW_JOURNAL,
    SEQ_HEADROOM,
    SEQ_MAX,
    JournalError,
    lock_fault,
    prepare_directory,
)

NOT_CARRIED = frozenset({"journal_id", "clock", "restarted"})
"""Meta values that belong to one journal file and are never copied into its successor."""


@dataclass(frozen=True)
class Report:
    """What `tablectl journal check` found in a journal the table can open."""

    events: int
    first_seq: int
    next_seq: int
    undelivered: int
    unreadable: list[int]
    damaged_meta: dict[str, str]

    def lines(self) -> list[str]:
        out = [f"{self.events} events held, seq {self.first_seq}..{self.next_seq - 1}; "
               f"{self.undelivered} not yet acknowledged by the broker; the next event is seq {self.next_seq}"]
        if self.unreadable:
            out.append(f"WARNING: rows that cannot be read (not published; alarm journal_row_damaged): seq "
                       f"{', '.join(map(str, self.unreadable))}")
        for key, why in sorted(self.damaged_meta.items()):
            out.append(f"WARNING: meta value {key!r} is {why}: ignored at start (alarm journal_meta_damaged)")
        return out


def check_journal(path: Path, table: str) -> Report:
    """Open the journal as the table would and read every page (``PRAGMA quick_check``);
    :class:`JournalError` when the table could not use it. Not beside a running table."""
    _must_exist(path)
    with _locked(path, table):
        return _check(path, table)


def _check(path: Path, table: str) -> Report:
    journal = Journal(path, table)
    try:
        problems = journal.integrity()
        if problems:
            raise JournalError(path, f"is damaged: PRAGMA quick_check found {len(problems)} problem(s), "
                                     f"the first: {problems[0][:120]}", NEW_JOURNAL)
        return Report(journal.held, journal.first_seq, journal.next_seq, journal.undelivered_count,
                      journal.unreadable(), dict(journal.damaged_meta))
    except sqlite3.Error as exc:
        raise JournalError(path, f"is damaged: SQLite says \"{exc}\"", NEW_JOURNAL) from None
    finally:
        journal.close()


def _must_exist(path: Path) -> None:
    if path.parent.exists() and not path.parent.is_dir():
        prepare_directory(path)  # names the file in the way
    if not path.exists() and not path.is_symlink():
        raise JournalError(path, "there is no journal here", "tablectl run creates one at its first start")


@dataclass(frozen=True)
class Survivors:
    """What could still be read from a journal that is being replaced (None: could not)."""

    last_seq: int | None = None
    last_round: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)


def read_survivors(path: Path) -> Survivors:
    """Best effort, read-only, never raising: each value that SQLite can still read."""
    if not path.is_file():
        return Survivors()
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return Survivors()
    try:
        last_seq = _scalar(db, "SELECT MAX(x) FROM (SELECT seq AS x FROM sqlite_sequence WHERE name = 'events' "
                               "UNION ALL SELECT MAX(seq) FROM events)")
        last_round = _scalar(db, "SELECT MAX(round) FROM events")
        meta: dict[str, Any] = {}
        with contextlib.suppress(sqlite3.Error):
            for key, text in db.execute("SELECT key, value FROM meta").fetchall():
                with contextlib.suppress(TypeError, ValueError):
                    value = json.loads(text)
                    kinds = FATAL_META.get(key)
                    if key in NOT_CARRIED or (kinds is not None and (
                            not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds))):
                        continue
                    meta[key] = value
        return Survivors(last_seq if isinstance(last_seq, int) else None,
                         last_round if isinstance(last_round, int) else None, meta)
    finally:
        db.close()


def _scalar(db: sqlite3.Connection, sql: str) -> Any:
    try:
        return db.execute(sql).fetchone()[0]
    except sqlite3.Error:
        return None


@dataclass(frozen=True)
class Replaced:
    """What `tablectl journal new` did."""

    moved: list[Path]
    kept_at: Path
    first_seq: int
    survivors: Survivors
    why: str


def new_journal(path: Path, table: str, *, first_seq: int | None = None, force: bool = False,
                now: dt.datetime | None = None) -> Replaced:
    """Move the journal at ``path`` aside and start a new one there (see the module's docstring)."""
    now = now or dt.datetime.now().astimezone()
    _must_exist(path)
    with _locked(path, table):
        why = _why_replace(path, table, force)
        survivors = read_survivors(path)
        seq = _first_seq(path, first_seq, survivors)
        kept_at = _aside(path, now)
        moved = _move(path, kept_at)
        journal = Journal(path, table)
        try:
            if seq != 1:
                journal.number_from(seq)
            journal.set_meta(**survivors.meta, restarted={
                "at": now.isoformat(timespec="seconds"), "from": str(kept_at), "why": why,
                "last_seq": survivors.last_seq, "last_round": survivors.last_round})
        finally:
            journal.close()
    return Replaced(moved, kept_at, seq, survivors, why)


def _why_replace(path: Path, table: str, force: bool) -> str:
    """Why the journal may be replaced: it is damaged, or ``--force``; else :class:`JournalError`."""
    try:
        _check(path, table)
    except JournalError as exc:
        if exc.todo == NEW_JOURNAL or force:
            return exc.fault
        raise JournalError(path, exc.fault, f"{exc.todo.rstrip('.')} (journal new replaces only a damaged "
                                            f"journal; --force replaces this all the same)") from None
    if not force:
        raise JournalError(path, "is sound: tablectl journal check finds no fault in it",
                           "a new journal would end its replayable history for nothing; give --force to replace "
                           "it all the same")
    return "replaced on the operator's command (--force); tablectl journal check found no fault"


def _first_seq(path: Path, given: int | None, survivors: Survivors) -> int:
    last = survivors.last_seq
    top = SEQ_MAX - SEQ_HEADROOM
    if given is not None:
        if not 1 <= given <= top:
            raise JournalError(path, f"--first-seq {given} is out of range", f"give a seq from 1 to {top}")
        if last is not None and given <= last:
            raise JournalError(path, f"--first-seq {given} would hand out again seqs the old journal used "
                                     f"(up to {last})", f"give at least {last + 1}, or leave --first-seq out")
        return given
    if last is not None and last + 1 <= top:
        return last + 1
    return 1


def _aside(path: Path, now: dt.datetime) -> Path:
    """``<name>.damaged-<time>``, with ``-2``, ``-3`` ... when that is taken (with its -wal or -shm)."""
    base = f"{path.name}.damaged-{now.strftime('%Y%m%dT%H%M%S')}"
    candidate, n = path.with_name(base), 2
    while any(Path(f"{candidate}{suffix}").exists() for suffix in ("", "-wal", "-shm")):
        candidate, n = path.with_name(f"{base}-{n}"), n + 1
    return candidate


def _move(path: Path, target: Path) -> list[Path]:
    """Rename the journal and its -wal and -shm files to ``target`` (same directory: a rename,
    never a copy and a delete). Returns the new names."""
    moved = []
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{path}{suffix}")
        if source.exists() or source.is_symlink():
            dest = Path(f"{target}{suffix}")
            try:
                os.rename(source, dest)
            except OSError as exc:
                raise JournalError(source, f"cannot be moved aside to {dest}: {exc.strerror or exc}",
                                   "make the directory writable (nothing was deleted; files moved so far: "
                                   f"{', '.join(map(str, moved)) or 'none'})") from None
            moved.append(dest)
    return moved


@contextlib.contextmanager
def _locked(path: Path, table: str) -> Iterator[None]:
    """The table's instance lock (TableLocked while `tablectl run` holds it)."""
    try:
        lock = InstanceLock(path, table).acquire()
    except OSError as exc:
        raise lock_fault(path, exc) from None
    try:
        yield
    finally:
        lock.release()
