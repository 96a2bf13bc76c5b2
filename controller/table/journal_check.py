"""Is this file a journal of ours, and may the table write it? Checked once, when it is opened.

A journal that cannot be used used to stop the table with a traceback and exit status 1,
which systemd retries for ever: a journal path whose parent is a file, a directory in the
journal's place, a read-only file system, a garbage or truncated file, another program's
SQLite file (into which the old code even created its tables), a ``meta`` value that is not
JSON, a ``seq`` at the end of SQLite's integers. Each is a :class:`JournalError` here: one
line naming the file, the fault and what to do; `tablectl` exits with status 2 for it, which
``systemd/tablectl@.service`` does not restart (``RestartPreventExitStatus=2``).

What makes a file ours: the SQLite header's ``application_id`` is :data:`APPLICATION_ID`
(set on every journal this project creates or opens since it was introduced). A journal
made before that has ``application_id`` 0 and exactly our two tables, ``events`` and
``meta``, with our columns; it is taken as ours and stamped. Anything else with
``application_id`` 0 and tables of its own is another program's file and is never touched.

What is not checked at open: every page of the file (``PRAGMA quick_check`` reads all of
it, seconds on a Pi's SD card for a large journal; `tablectl journal check` runs it on
demand). Reading the schema finds a truncated file or one that is not SQLite at once; a
damaged page deep inside shows when it is read, as a damaged row (an alarm, see
controller/table/journal.py) or as SQLite's "database disk image is malformed", which
:func:`fault_of` turns into a :class:`JournalError` too.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

APPLICATION_ID = 0x54424C4A
"""``PRAGMA application_id`` of a tablectl journal ("TBLJ"): how another program's SQLite
file is told apart from ours (https://www.sqlite.org/fileformat.html, offset 68)."""

JOURNAL_VERSION = 1
"""``PRAGMA user_version``: 1 = the ``received`` column (controller/table/journal.py, "Pruning").
Journal changes stay additive (docs/operations.md), so a newer number is accepted too."""

SEQ_MAX = 2**63 - 1
"""SQLite's largest integer: an ``AUTOINCREMENT`` key cannot go past it."""

SEQ_HEADROOM = 10**9
"""A journal whose next seq is within this of :data:`SEQ_MAX` is refused at open. No table
deals its way there (a billion events short of 2**63 is some 290 million years at a thousand
events a second); a seq that high is damage, and the table must not start numbering from it."""

EVENT_COLUMNS = frozenset({"seq", "ts", "round", "kind", "envelope", "delivered"})
META_COLUMNS = frozenset({"key", "value"})
OUR_TABLES = frozenset({"events", "meta"})
SQLITE_TABLES = frozenset({"sqlite_sequence", "sqlite_stat1", "sqlite_stat4"})

FATAL_META: dict[str, tuple[type, ...]] = {
    "birth": (int,),
    "state": (str, type(None)),
    "round": (int, type(None)),
    "round_open": (bool, type(None)),
}
"""Meta values a table cannot start without, and the JSON types they must have. Guessing any
of them could mislead the pit: a birth number that goes back, or a round left open that is
never voided. Every other value (the game's saved rotation, the journal's id ...) is ignored
with an alarm when damaged (controller/table/loop.py, ``journal_meta_damaged``)."""

NEW_JOURNAL = "keep the file and start a new journal: tablectl journal new --config {config}"
"""What to do with a journal that is damaged (docs/operations.md, "A damaged journal")."""


class JournalError(RuntimeError):
    """A journal the table cannot use: the file, the fault and what to do, as one line."""

    def __init__(self, path: Path | str, fault: str, todo: str) -> None:
        self.path = Path(path)
        self.fault = fault
        self.todo = todo
        super().__init__(self.explain())

    def explain(self, config: Path | str | None = None) -> str:
        """The line `tablectl` prints; ``config`` fills in the command a fix names."""
        todo = self.todo.format(config=config if config is not None else "<the table's config>")
        return f"{self.path}: {self.fault}; {todo}"


class DiskFull(JournalError):
    """The journal's disk is full: the table stopped, since nothing may be published that was not
    journaled. Unlike the other journal faults a restart fixes it once space is freed, so
    `tablectl run` exits 1 (systemd restarts it), with this one line."""

    @classmethod
    def at(cls, path: Path) -> DiskFull:
        return cls(path, "the disk is full: the table stopped, since nothing may be published that was not "
                         "journaled", f"free space on the disk holding {path.parent} (tablectl prune); the service "
                                      "starts again by itself")


def disk_full(exc: BaseException) -> bool:
    """An SQLite or OS error that says the disk is full."""
    if isinstance(exc, sqlite3.Error):
        return (getattr(exc, "sqlite_errorname", None) or "").startswith("SQLITE_FULL")
    return isinstance(exc, OSError) and exc.errno == errno.ENOSPC


def damaged(path: Path, fault: str) -> JournalError:
    return JournalError(path, fault, NEW_JOURNAL)


# -- before SQLite opens it ----------------------------------------------------------------

def prepare_directory(path: Path) -> None:
    """The journal's directory exists (made if need be) and the journal can be written there.

    SQLite says only "unable to open database file" for a directory in the journal's place,
    a parent that is a file or a read-only file system; these are told apart here first."""
    parent = path.parent
    for above in (parent, *parent.parents):
        if above.exists() or above.is_symlink():
            if not above.is_dir():
                raise JournalError(path, f"{above} is a file, not a directory",
                                   "move that file away or set journal.path to a directory that can hold the journal")
            break
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise JournalError(path, f"cannot create its directory {parent}: {exc.strerror or exc}",
                           _os_todo(exc)) from None
    if path.is_dir():
        raise JournalError(path, "is a directory, not a journal file",
                           "move the directory away or set journal.path to a file name")
    if _read_only_fs(parent):
        raise JournalError(path, f"the file system holding {parent} is mounted read-only",
                           "remount it read-write (a disk that went read-only after errors needs checking first: "
                           "dmesg), or set journal.path on a writable disk")
    for target in (path, parent) if path.exists() else (parent,):
        if not os.access(target, os.W_OK):
            why = _write_refused(target)
            raise JournalError(path, f"{target} cannot be written by this user (uid {os.getuid()}): "
                                     f"{why.strerror if why else 'permission denied'}",
                               _os_todo(why) if why and why.errno != errno.EACCES else
                               "give the tablectl user write access to the journal and its directory "
                               "(chown tablectl: on both), or run as that user")


def _write_refused(target: Path) -> OSError | None:
    """Why a file cannot be opened for writing (a read-only mount of it, an immutable file,
    its mode); None for a directory or when it can be after all."""
    if target.is_dir():
        return None
    try:
        os.close(os.open(target, os.O_RDWR))
    except OSError as exc:
        return exc
    return None


def _read_only_fs(directory: Path) -> bool:
    try:
        return bool(os.statvfs(directory).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _os_todo(exc: OSError) -> str:
    if exc.errno == errno.EROFS:
        return "remount the file system read-write, or set journal.path on a writable disk"
    if exc.errno == errno.EACCES:
        return "give the tablectl user write access there, or set journal.path elsewhere"
    if exc.errno == errno.EPERM:
        return "the file may be immutable (lsattr; chattr -i), or the directory forbids it: give the tablectl user " \
               "write access, or set journal.path elsewhere"
    if exc.errno == errno.ENOSPC:
        return "free space on that disk"
    return "check journal.path and the disk"


def lock_fault(path: Path, exc: OSError) -> JournalError:
    """The instance lock beside the journal (``<journal>.lock``) could not be made."""
    return JournalError(path, f"cannot create its lock file {path}.lock: {exc.strerror or exc}", _os_todo(exc))


# -- what SQLite said ------------------------------------------------------------------------

_TRANSIENT = ("SQLITE_FULL", "SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_IOERR", "SQLITE_NOMEM", "SQLITE_INTERRUPT")
"""Errors that a restart may get past (space freed, a reader gone, a disk that came back):
left as they are, so the table stops with exit status 1 and systemd tries again."""


def fault_of(exc: BaseException, path: Path) -> JournalError | None:
    """A journal error for an SQLite error that no restart can fix (a damaged file, a
    read-only one, one that cannot be opened); None for anything else, transient
    SQLite errors included (:data:`_TRANSIENT`)."""
    if isinstance(exc, JournalError):
        return exc
    if disk_full(exc):
        return DiskFull.at(path)
    name = getattr(exc, "sqlite_errorname", None) if isinstance(exc, sqlite3.Error) else None
    if not name or name.startswith(_TRANSIENT):
        return None
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return damaged(path, f"is damaged: SQLite says \"{exc}\"")
    if name.startswith("SQLITE_READONLY"):
        return JournalError(path, f"cannot be written: SQLite says \"{exc}\"",
                            "check that the disk is mounted read-write and the file belongs to the tablectl user")
    if name.startswith("SQLITE_CANTOPEN"):
        return JournalError(path, f"cannot be opened: SQLite says \"{exc}\"",
                            "check journal.path, the directory's permissions and the disk")
    return None


def open_fault(exc: sqlite3.Error, path: Path) -> BaseException:
    """What an SQLite error while opening the journal is: a transient one as it is (the
    table stops with exit status 1 and systemd tries again), anything else a
    :class:`JournalError`."""
    found = fault_of(exc, path)
    if found is not None:
        return found
    if (getattr(exc, "sqlite_errorname", None) or "").startswith(_TRANSIENT):
        return exc
    return damaged(path, f"cannot be read as a journal: SQLite says \"{exc}\"")


# -- the file's schema ---------------------------------------------------------------------

def check_schema(db: sqlite3.Connection, path: Path) -> str:
    """``"new"`` (an empty file: make our tables), ``"legacy"`` (ours, from before
    ``application_id``) or ``"ours"``; :class:`JournalError` for anything else."""
    app_id = db.execute("PRAGMA application_id").fetchone()[0]
    tables = {name: sql or "" for name, sql in
              db.execute("SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'view')").fetchall()}
    mine = set(tables) - SQLITE_TABLES
    if app_id not in (0, APPLICATION_ID):
        raise JournalError(path, f"belongs to another program (SQLite application_id {app_id:#010x}, "
                                 f"not tablectl's {APPLICATION_ID:#010x})",
                           "set journal.path to the table's own journal; never point it at another program's file")
    if app_id == 0 and not mine:
        return "new"
    if app_id == 0 and mine != OUR_TABLES:
        listed = ", ".join(sorted(mine))
        raise JournalError(path, f"is not a tablectl journal: an SQLite file with the tables {listed}",
                           "set journal.path to the table's own journal; this file is left as it is")
    for table, wanted in (("events", EVENT_COLUMNS), ("meta", META_COLUMNS)):
        if table not in tables:
            raise damaged(path, f"has lost its {table} table")
        columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if not wanted <= columns:
            what = "is not a tablectl journal" if app_id == 0 else "is damaged"
            raise JournalError(path, f"{what}: its {table} table has the columns {', '.join(sorted(columns))}, "
                                     f"not {', '.join(sorted(wanted))}",
                               NEW_JOURNAL if app_id else "set journal.path to the table's own journal")
    if "AUTOINCREMENT" not in tables["events"].upper():
        raise JournalError(path, "is not a tablectl journal: its events.seq is not AUTOINCREMENT "
                                 "(seqs could be handed out twice)",
                           "set journal.path to the table's own journal")
    return "ours" if app_id == APPLICATION_ID else "legacy"


def check_seq(path: Path, next_seq: int) -> None:
    """The journal can go on numbering events (see :data:`SEQ_HEADROOM`)."""
    if next_seq > SEQ_MAX - SEQ_HEADROOM:
        raise damaged(path, f"its next seq is {next_seq}, within {SEQ_HEADROOM:,} of SQLite's largest integer "
                            f"(2**63 - 1): no table gets there by dealing, and it could not number events for long")


def read_meta(rows: list[tuple[str, str]], path: Path) -> tuple[dict[str, Any], dict[str, str]]:
    """``meta`` as values, and the damaged ones by key with why. A damaged value of
    :data:`FATAL_META`, or one of the wrong type, is a :class:`JournalError`."""
    values: dict[str, Any] = {}
    bad: dict[str, str] = {}
    for key, text in rows:
        try:
            values[key] = json.loads(text)
        except (TypeError, ValueError) as exc:
            bad[key] = f"not JSON ({exc})"
    for key, why in bad.items():
        if key in FATAL_META:
            raise damaged(path, f"its meta value {key!r} is {why}: the table cannot start without it")
    for key, kinds in FATAL_META.items():
        value = values.get(key)
        wrong = isinstance(value, bool) and bool not in kinds  # True is an int to Python, not a number here
        if key in values and (wrong or not isinstance(value, kinds)):
            raise damaged(path, f"its meta value {key!r} is {json.dumps(value)[:40]}, not "
                                f"{' or '.join(_TYPE_NAMES[k] for k in kinds)}: the table cannot start without it")
    if isinstance(values.get("birth"), int) and values["birth"] < 0:
        raise damaged(path, f"its meta value 'birth' is {values['birth']}, below 0")
    if isinstance(values.get("birth"), int) and values["birth"] >= SEQ_MAX:
        # The next birth would be past what the pit takes (a bigint): it would refuse every status.
        raise damaged(path, f"its meta value 'birth' is beyond {SEQ_MAX - 1}, more births than any table has")
    return values, bad


_TYPE_NAMES: Mapping[type, str] = {int: "a whole number", str: "a string", bool: "true or false",
                                   type(None): "null"}
