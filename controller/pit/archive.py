"""The pit archive in PostgreSQL: every event of every table once, keyed by (table, seq), and the
gaps in each table's seq with what became of them (docs/pit.md).

Why the database and not the service's memory decides what is missing: several pit services may
share one site's events (MQTT shared subscriptions), each seeing only some of a table's seqs. A
hole in what one service saw is a hole in the archive only if no one stored those seqs, so the
holes are looked for in ``events``, with the table's ``tables`` row locked while one service
records them (two never record one hole twice), and only below a horizon the caller saw at least
a grace period ago (the other service may be storing the rest this very moment).

Storing is idempotent: ``INSERT ... ON CONFLICT DO NOTHING`` makes a QoS 1 redelivery, a replay
or another service's copy a no-op, and an event whose (table, seq) is archived with *other*
bytes is a reject ("seq backwards"), never an overwrite. A row PostgreSQL refuses (a value it
cannot store) is a reject too, found row by row, so one bad event never holds the others back.

The schema comes from ``migrations/NNNN_name.sql``, applied in order, each in its own
transaction, under an advisory lock so that two services starting together do not race; the
versions applied are in ``schema_version``. A database newer than the code is refused.

A migration is known by its name without the number (``disputes_acks.sql``), not by its number
alone: two lines of development each released a version 3 (the disputes and acknowledgements of
issue 22, the replay claim of issue 19.2), and merged they are 3 and 4. An archive that has a
known migration under another number is renumbered to this code's numbering and given what it
lacks, instead of being taken for one with versions 1 to 3 and re-running the disputes' file
(which fails: its table exists) while the claim's columns never come. This is right only for
migrations that do not depend on each other, as those two do not; a renumbering is a merge's
exception, never a way to reorder dependent files.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict

from controller.pit.acks import Ack
from controller.pit.dburl import scrub

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
"""The numbered schema files, shipped in the wheel (pyproject.toml, package-data)."""

MIGRATION_LOCK = 0x7461626C6563746C
"""The advisory lock held while migrations are looked at and applied ('tablectl' in ASCII)."""

NOTIFY_CHANNEL = "tablectl_pit"
"""NOTIFY'd at each commit that stored events or changed gaps; the payload names the tables."""

REJECT_PAYLOAD_MAX = 4096
"""Bytes of a rejected payload kept (0001_archive.sql, rejects)."""

_MIGRATION_NAME = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")


class ArchiveError(Exception):
    """Something about the archive an operator must act on, in one line."""


class ArchiveDown(ArchiveError):
    """The connection to the database is lost or cannot be made: try again later."""


class ArchiveRefused(ArchiveError):
    """PostgreSQL refused a statement (a value out of its range, a constraint): the connection is
    fine and the archive goes on; what was asked is not done. An ArchiveError like the others, so
    that a caller catching ArchiveError (the service's timers) never meets a bare psycopg error."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str

    @property
    def slug(self) -> str:
        """The file's name without its number: what the migration is, whatever number it has."""
        return _slug(self.name)


def _slug(name: str) -> str:
    return name.partition("_")[2]


def migrations(folder: Path = MIGRATIONS) -> list[Migration]:
    """The schema files in version order. A file not named ``NNNN_name.sql``, or two files of one
    version, is a packaging mistake: refused rather than skipped, so no version is silently lost."""
    found: dict[int, Migration] = {}
    for path in sorted(folder.glob("*.sql")):
        match = _MIGRATION_NAME.fullmatch(path.name)
        if match is None:
            raise ArchiveError(f"{path}: a migration must be named NNNN_name.sql")
        version = int(match.group(1))
        if version in found:
            raise ArchiveError(f"{path}: version {version} is also {found[version].name}")
        found[version] = Migration(version, path.name, path.read_text(encoding="utf-8"))
    versions = sorted(found)
    if versions != list(range(1, len(versions) + 1)):
        raise ArchiveError(f"{folder}: migration versions must run 1, 2, 3 ... without a hole (found {versions})")
    slugs: dict[str, str] = {}
    for migration in found.values():
        if migration.slug in slugs:
            raise ArchiveError(f"{folder}: {migration.name} and {slugs[migration.slug]} have one name: a migration "
                               f"is known by its name without the number")
        slugs[migration.slug] = migration.name
    return [found[v] for v in versions]


@dataclass(frozen=True)
class ArchivedEvent:
    """One event as it goes into ``events``: ``envelope`` is the strict JSON text of the envelope
    (controller.pit.checks made sure PostgreSQL can hold it)."""

    table: str
    seq: int
    kind: str
    round: int | None
    ts: float
    envelope: str
    payload: bytes = b""
    """The bytes as published, kept if the event becomes a reject (jsonb keeps the value, not the bytes)."""


@dataclass(frozen=True)
class Reject:
    """A message the service refused, for ``rejects``."""

    topic: str
    table: str | None
    reason: str
    payload: bytes


@dataclass
class Batch:
    """What one transaction stores: events, rejects, the newest status of some tables, and the
    acknowledgements of alarms that came from the boards (controller.pit.acks)."""

    events: list[ArchivedEvent] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)
    statuses: dict[str, dict[str, Any]] = field(default_factory=dict)
    acks: list[Ack] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.events or self.rejects or self.statuses or self.acks)


@dataclass
class Stored:
    """What :meth:`Archive.store` did with a batch."""

    new: list[tuple[str, int]] = field(default_factory=list)
    """(table, seq) of the events archived by this call."""
    duplicates: int = 0
    """Events archived already with the same envelope (a redelivery, a replay, another service)."""
    conflicts: list[Reject] = field(default_factory=list)
    """Events archived already with another envelope: stored as rejects (seq backwards)."""
    refused: list[Reject] = field(default_factory=list)
    """Events PostgreSQL would not take: stored as rejects."""
    refused_keys: set[tuple[str, int]] = field(default_factory=set)
    xid: str | None = None
    """The transaction that stored it (``pg_current_xact_id``): asked about when its commit's
    acknowledgement was lost."""


@dataclass(frozen=True)
class KnownTable:
    """A table the archive has heard of (its ``tables`` row)."""

    table: str
    game: str | None
    birth: int | None
    archived_to: int
    last_seq: int
    """The highest seq archived for it (0: none)."""


@dataclass
class GapCheck:
    """A table's gaps after :meth:`Archive.check_gaps`."""

    opened: list[tuple[int, int]] = field(default_factory=list)
    """Holes recorded as new ``open`` gaps by this check."""
    filled: list[tuple[int, int]] = field(default_factory=list)
    """Runs of seqs of open gaps that have arrived and are now ``filled`` rows."""
    open: list[tuple[int, int]] = field(default_factory=list)
    """Every open gap of the table now, in seq order."""
    archived_to: int = 0
    unfillable: int = 0
    """Seqs of the table recorded unfillable: the archive lacks them for good."""


def describe(url: str) -> str:
    """The database a URL names, without its password, for messages: ``user@host:port/dbname``."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "(an unreadable database URL)"
    host = parts.get("host") or "localhost"
    port = f":{parts['port']}" if parts.get("port") else ""
    user = f"{parts['user']}@" if parts.get("user") else ""
    return f"{user}{host}{port}/{parts.get('dbname') or '(default database)'}"


def _one_line(exc: BaseException) -> str:
    """psycopg's message without libpq's second line ("Is the server running ...") or its hints."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


class Archive:
    """One connection to the archive database, used from one thread (the pit service's)."""

    def __init__(self, url: str, *, connect_timeout: float = 5.0, folder: Path = MIGRATIONS) -> None:
        self.url = url
        self.where = describe(url)
        self.connect_timeout = connect_timeout
        self.folder = folder
        self._conn: psycopg.Connection | None = None
        self._in_doubt: tuple[Batch, Stored] | None = None

    # -- the connection ----------------------------------------------------------------

    def _said(self, exc: BaseException) -> str:
        """psycopg's message on one line, without the URL's password (libpq quotes the URL)."""
        return scrub(_one_line(exc), self.url)

    def open(self) -> list[Migration]:
        """Connect and bring the schema up to date; the migrations applied now (none when the
        database was current). :class:`ArchiveError` (one line) when that cannot be done."""
        self.connect()
        return self.migrate()

    def connect(self) -> None:
        self.close()
        try:
            conninfo_to_dict(self.url)
        except psycopg.ProgrammingError as exc:
            raise ArchiveError(f"--db: not a PostgreSQL URL such as postgresql://pit@db-host/tablectl: "
                               f"{self._said(exc)}") from None
        try:
            self._conn = psycopg.connect(self.url, autocommit=True, connect_timeout=max(1, round(self.connect_timeout)),
                                         application_name="tablectl-pit")
        except psycopg.Error as exc:
            raise ArchiveDown(f"cannot connect to the archive database {self.where}: {self._said(exc)}") from None

    @property
    def connected(self) -> bool:
        return self._conn is not None and not self._conn.closed

    def close(self) -> None:
        if self._conn is not None:
            with suppress(psycopg.Error):
                self._conn.close()
            self._conn = None

    @contextmanager
    def _tx(self) -> Iterator[psycopg.Cursor]:
        """One transaction; a lost connection is :class:`ArchiveDown` (the connection is dropped,
        to be made again), anything else PostgreSQL says is :class:`ArchiveRefused` (rolled back)."""
        if self._conn is None or self._conn.closed:
            raise ArchiveDown(f"not connected to the archive database {self.where}")
        try:
            with self._conn.transaction(), self._conn.cursor() as cur:
                yield cur
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            self.close()
            raise ArchiveDown(f"the archive database {self.where}: {self._said(exc)}") from None
        except psycopg.Error as exc:
            raise ArchiveRefused(f"the archive database {self.where} refused: {self._said(exc)}") from exc

    # -- migrations --------------------------------------------------------------------

    def migrate(self) -> list[Migration]:
        """Apply every migration not yet applied, in order, each in its own transaction, holding
        :data:`MIGRATION_LOCK` throughout: a second service starting at the same moment waits,
        then finds nothing to do."""
        known = migrations(self.folder)
        newest = known[-1].version if known else 0
        assert self._conn is not None
        applied: list[Migration] = []
        try:
            self._conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
            try:
                self._conn.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                                   "version integer PRIMARY KEY, name text NOT NULL, "
                                   "applied_at timestamptz NOT NULL DEFAULT now())")
                rows = self._conn.execute("SELECT version, name FROM schema_version ORDER BY version").fetchall()
                current = rows[-1][0] if rows else 0
                if current > newest:
                    raise ArchiveError(
                        f"the archive database {self.where} is at schema version {current}, newer than this "
                        f"tablectl knows (version {newest}): upgrade tablectl here before running it on this database")
                self._renumber(rows, known)
                done = {_slug(name) for _, name in rows}
                for migration in (m for m in known if m.slug not in done):
                    try:
                        with self._conn.transaction():
                            self._conn.execute(migration.sql)
                            self._conn.execute("INSERT INTO schema_version (version, name) VALUES (%s, %s)",
                                               (migration.version, migration.name))
                    except (psycopg.OperationalError, psycopg.InterfaceError):
                        raise
                    except psycopg.Error as exc:
                        raise ArchiveError(f"the archive database {self.where}: migration {migration.name} failed "
                                           f"and was rolled back: {self._said(exc)}") from None
                    log.info("archive %s: schema migrated to version %d (%s)", self.where, migration.version,
                             migration.name)
                    applied.append(migration)
            finally:
                if not self._conn.closed:
                    self._conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            self.close()
            raise ArchiveDown(f"the archive database {self.where}: {self._said(exc)}") from None
        except psycopg.Error as exc:
            raise ArchiveError(f"the archive database {self.where}: {self._said(exc)}") from None
        return applied

    def _renumber(self, rows: list[tuple[int, str]], known: list[Migration]) -> None:
        """Bring ``schema_version`` to this code's numbering (the module's docstring says why): a
        migration it does not know is refused (another line of development made the database),
        one it knows under another number is given this code's number and name, in one
        transaction; :meth:`migrate` then applies what is missing, by name."""
        assert self._conn is not None
        by_slug = {m.slug: m for m in known}
        strangers = [name for _, name in rows if _slug(name) not in by_slug]
        if strangers:
            raise ArchiveError(
                f"the archive database {self.where} has migrations this tablectl does not know ({', '.join(strangers)}): "
                f"it was made by another tablectl; run that one, or one that knows them, on this database")
        moved = [(version, by_slug[_slug(name)]) for version, name in rows
                 if (version, name) != (by_slug[_slug(name)].version, by_slug[_slug(name)].name)]
        if not moved:
            return
        with self._conn.transaction():
            for version, _ in moved:  # out of the way first: one's new number may be another's old one
                self._conn.execute("UPDATE schema_version SET version = %s WHERE version = %s", (-version, version))
            for version, migration in moved:
                self._conn.execute("UPDATE schema_version SET version = %s, name = %s WHERE version = %s",
                                   (migration.version, migration.name, -version))
        log.warning("archive %s: schema_version renumbered to this tablectl's migrations (%s)", self.where,
                    ", ".join(f"{v} is now {m.name}" for v, m in moved))

    def version(self) -> int:
        with self._tx() as cur:
            return cur.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()[0]

    # -- what the archive holds ----------------------------------------------------------

    def known_tables(self) -> dict[str, KnownTable]:
        """Every table with a ``tables`` row: the service's start (unknown tables, believable seqs)."""
        with self._tx() as cur:
            rows = cur.execute(
                "SELECT t.table_id, t.game, t.status ->> 'birth', t.archived_to, "
                "coalesce((SELECT max(seq) FROM events e WHERE e.table_id = t.table_id), 0) FROM tables t").fetchall()
        return {r[0]: KnownTable(r[0], r[1], int(r[2]) if r[2] is not None and r[2].isdigit() else None, r[3], r[4])
                for r in rows}

    # -- storing -----------------------------------------------------------------------

    def store(self, batch: Batch) -> Stored:
        """Store a batch in one transaction. A row PostgreSQL refuses makes the batch go again row
        by row (each in a savepoint), the refused ones as rejects with PostgreSQL's reason."""
        if not batch:
            return Stored()
        earlier = self._settle_in_doubt()
        if earlier is not None:
            batch = _without(batch, earlier[0])
            if not batch:
                return earlier[1]
        try:
            out = self._store_tx(batch, careful=False)
        except ArchiveRefused as exc:
            if not isinstance(exc.__cause__, (psycopg.DataError, psycopg.IntegrityError)):
                # Not a value of some row (a table missing, a permission): row by row would call
                # every event refused and let it be acknowledged unstored. The caller tries again.
                raise
            log.warning("archive %s: the batch was refused (%s); storing it row by row", self.where, exc)
            out = self._store_tx(batch, careful=True)
        self._in_doubt = None
        return _merged(earlier[1], out) if earlier is not None else out

    def _store_tx(self, batch: Batch, careful: bool) -> Stored:
        """One transaction of :meth:`store`. The connection lost once the rows are written (at the
        commit, or just before it) leaves the outcome unknown: the batch and what it did are kept
        for :meth:`_settle_in_doubt`, so that the caller's retry neither stores nor counts it twice."""
        written: list[Stored] = []
        try:
            with self._tx() as cur:
                out = self._store(cur, batch, careful)
                written.append(out)
        except ArchiveDown:
            if written and written[0].xid is not None:
                self._in_doubt = (batch, written[0])
            raise
        return out

    def _settle_in_doubt(self) -> tuple[Batch, Stored] | None:
        """The batch whose commit's acknowledgement was lost, with what it did, if PostgreSQL says
        that transaction committed (then it is this call's result too, and not stored again);
        ``None`` when there was none or it did not commit (it is stored anew)."""
        if self._in_doubt is None:
            return None
        batch, out = self._in_doubt
        try:
            with self._tx() as cur:
                status = cur.execute("SELECT pg_xact_status(%s::xid8)", (out.xid,)).fetchone()[0]
        except ArchiveRefused:  # an xid past the server's next one: its WAL was lost in a crash, never committed
            status = None
        self._in_doubt = None
        if status != "committed":
            return None
        log.info("archive %s: the batch whose commit was not acknowledged had committed; it is not stored again",
                 self.where)
        return batch, out

    def _store(self, cur: psycopg.Cursor, batch: Batch, careful: bool) -> Stored:
        out = Stored()
        rejects = list(batch.rejects)
        for table, status in batch.statuses.items():
            game = status.get("game") if isinstance(status.get("game"), str) else None
            row = (table, game, json.dumps(status))
            if not self._row(cur, careful, out, None, _UPSERT_STATUS, row):
                log.warning("archive %s: the status of table %s could not be stored", self.where, table)
        events, duplicate_in_batch = _first_of_each(batch.events)
        for env, first in duplicate_in_batch:
            if json.loads(env.envelope) != json.loads(first.envelope):
                out.conflicts.append(_backwards(env))
            else:
                out.duplicates += 1
        if careful:
            for env in events:
                row = (env.table, env.seq, env.kind, env.round, env.ts, env.envelope)
                inserted = self._row(cur, True, out, _refused(env), _INSERT_ONE, row, fetch=True)
                if inserted is None:
                    out.refused_keys.add((env.table, env.seq))
                    continue
                if inserted:
                    out.new.append((env.table, env.seq))
                else:
                    self._compare(cur, [env], out)
        elif events:
            cols = list(zip(*((e.table, e.seq, e.kind, e.round, e.ts, e.envelope) for e in events), strict=True))
            new = {(t, s) for t, s in cur.execute(_INSERT_MANY, [list(c) for c in cols]).fetchall()}
            out.new = [(e.table, e.seq) for e in events if (e.table, e.seq) in new]
            self._compare(cur, [e for e in events if (e.table, e.seq) not in new], out)
        rejects += out.conflicts
        for reject in rejects:
            self._row(cur, careful, out, None, _INSERT_REJECT, _reject_row(reject))
        for reject in out.refused:
            self._row(cur, careful, Stored(), None, _INSERT_REJECT, _reject_row(reject))
        for ack in batch.acks:   # its own id is the key: a redelivery, or another service's copy, is a no-op
            if not self._row(cur, careful, out, None, _INSERT_ACK, (ack.id, ack.table, ack.alarm_seq, ack.code, ack.by,
                                                                     ack.note, ack.assignee, ack.ts)):
                log.warning("archive %s: the acknowledgement %s could not be stored", self.where, ack.id)
        tables = sorted({t for t, _ in out.new} | set(batch.statuses) | {r.table for r in rejects if r.table})
        out.xid = cur.execute("SELECT pg_current_xact_id()::text FROM pg_notify(%s, %s)",
                              (NOTIFY_CHANNEL, _notify_payload(tables))).fetchone()[0]
        return out

    def _row(self, cur: psycopg.Cursor, careful: bool, out: Stored, refused: Reject | None, sql: str,
             row: Sequence[Any], fetch: bool = False) -> Any:
        """One statement; in careful mode in a savepoint, a refusal noted in ``out.refused``
        (``None`` returned). With ``fetch``, whether it returned a row."""
        if not careful:
            cur.execute(sql, row)
            return cur.fetchone() is not None if fetch else True
        assert self._conn is not None
        try:
            with self._conn.transaction():
                cur.execute(sql, row)
                return cur.fetchone() is not None if fetch else True
        except (psycopg.OperationalError, psycopg.InterfaceError):
            raise
        except psycopg.Error as exc:
            if refused is not None:
                out.refused.append(Reject(refused.topic, refused.table,
                                          f"{refused.reason}: {self._said(exc)}"[:500], refused.payload))
            return None

    def _compare(self, cur: psycopg.Cursor, events: list[ArchivedEvent], out: Stored) -> None:
        """Events that were not inserted: the same envelope archived already (a duplicate), or another
        one (seq backwards)."""
        if not events:
            return
        differ = {(t, s) for t, s in cur.execute(
            "SELECT x.t, x.s FROM unnest(%s::text[], %s::bigint[], %s::jsonb[]) AS x(t, s, e) "
            "JOIN events ON events.table_id = x.t AND events.seq = x.s WHERE events.envelope <> x.e",
            ([e.table for e in events], [e.seq for e in events], [e.envelope for e in events])).fetchall()}
        for env in events:
            if (env.table, env.seq) in differ:
                out.conflicts.append(_backwards(env))
            else:
                out.duplicates += 1

    def advance(self, upto: dict[str, int]) -> None:
        """Every seq of each table up to its value is archived (the caller saw them stored, from
        the table's ``archived_to`` on, without a hole): ``archived_to`` moves up, never down."""
        with self._tx() as cur:
            cur.execute("UPDATE tables SET archived_to = greatest(archived_to, x.a) FROM unnest(%s::text[], "
                        "%s::bigint[]) AS x(t, a) WHERE tables.table_id = x.t", (list(upto), list(upto.values())))

    # -- gaps ----------------------------------------------------------------------------

    def gap_summary(self, most: int) -> dict[str, dict[str, list[int]]]:
        """Each table's gaps that are not filled, as ``{table: {"open": [runs, seqs], "unfillable":
        [runs, seqs]}}``, for the ``most`` tables missing the most seqs (the floor's health: the
        board shows them; every instance's, since the gaps are the database's)."""
        with self._tx() as cur:
            rows = cur.execute(
                "WITH g AS (SELECT table_id, status, count(*)::bigint AS runs, "
                "  sum(last_seq - first_seq + 1)::bigint AS seqs FROM gaps "
                "  WHERE status IN ('open', 'unfillable') GROUP BY table_id, status), "
                "t AS (SELECT table_id FROM g GROUP BY table_id ORDER BY sum(seqs) DESC, table_id LIMIT %s) "
                "SELECT g.table_id, g.status, g.runs, g.seqs FROM g JOIN t USING (table_id)", (most,)).fetchall()
        out: dict[str, dict[str, list[int]]] = {}
        for table, status, runs, seqs in rows:
            out.setdefault(table, {})[status] = [int(runs), int(seqs)]
        return out

    def check_gaps(self, table: str, horizon: int) -> GapCheck:
        """Record the holes in ``table``'s seqs from its ``archived_to`` up to ``horizon`` as open
        gaps, and close (as ``filled``) what of its open gaps has arrived since. ``horizon`` is a seq
        the caller knows the table made, seen at least a grace period ago."""
        with self._tx() as cur:
            archived_to = self._lock_table(cur, table)
            check = GapCheck(archived_to=archived_to)
            self._refresh(cur, table, check)
            if horizon > archived_to:
                taken = _ranges(cur.execute(
                    "SELECT first_seq, last_seq FROM gaps WHERE table_id = %s AND status <> 'filled' "
                    "AND last_seq > %s AND first_seq <= %s ORDER BY first_seq", (table, archived_to, horizon)))
                check.opened = _subtract(self._holes(cur, table, archived_to, horizon), taken)
                cur.executemany("INSERT INTO gaps (table_id, first_seq, last_seq, status) VALUES (%s, %s, %s, 'open') "
                                "ON CONFLICT DO NOTHING", [(table, first, last) for first, last in check.opened])
                cur.execute("UPDATE tables SET archived_to = %s WHERE table_id = %s", (horizon, table))
                check.archived_to = horizon
            check.open, check.unfillable = self._open(cur, table), self._unfillable(cur, table)
            if check.opened or check.filled:
                cur.execute("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, _notify_payload([table])))
        return check

    def missing_in(self, table: str, first: int, last: int) -> list[tuple[int, int]]:
        """The runs of seqs of ``first..last`` not archived (whatever the gaps rows say)."""
        with self._tx() as cur:
            return self._holes(cur, table, first - 1, last)

    def claim_replays(self, table: str, by: str, seconds: float) -> str | None:
        """Claim (or renew) for ``seconds`` the asking of ``table`` for its gaps: None when ``by``
        holds it now; else who holds it."""
        with self._tx() as cur:
            if cur.execute("UPDATE tables SET replay_by = %(by)s, replay_until = now() + make_interval(secs => %(s)s) "
                           "WHERE table_id = %(t)s AND (replay_by IS NULL OR replay_by = %(by)s OR replay_until < now()) "
                           "RETURNING 1", {"by": by, "s": seconds, "t": table}).fetchone():
                return None
            row = cur.execute("SELECT replay_by FROM tables WHERE table_id = %s", (table,)).fetchone()
        return row[0] if row is not None else None

    def release_replays(self, table: str, by: str) -> None:
        """``by`` no longer asks ``table`` for anything: another service may, at once."""
        with self._tx() as cur:
            cur.execute("UPDATE tables SET replay_by = NULL, replay_until = NULL WHERE table_id = %s AND replay_by = %s",
                        (table, by))

    def mark_asked(self, table: str, first: int, last: int) -> None:
        """One more ``cmd/replay`` went out for the open gaps in ``first..last``."""
        with self._tx() as cur:
            cur.execute("UPDATE gaps SET asked = asked + 1 WHERE table_id = %s AND status = 'open' "
                        "AND first_seq <= %s AND last_seq >= %s", (table, last, first))

    def mark_unfillable(self, table: str, first: int, last: int, reason: str) -> GapCheck:
        """The table cannot send ``first..last`` (pruned from its journal, or damaged): what of the
        open gaps there is still missing becomes ``unfillable`` with the table's reason."""
        with self._tx() as cur:
            self._lock_table(cur, table)
            check = GapCheck()
            self._refresh(cur, table, check)
            rows = cur.execute("SELECT first_seq, last_seq, opened_at, asked FROM gaps WHERE table_id = %s "
                               "AND status = 'open' AND first_seq <= %s AND last_seq >= %s",
                               (table, last, first)).fetchall()
            for a, b, opened_at, asked in rows:
                cur.execute("DELETE FROM gaps WHERE table_id = %s AND first_seq = %s", (table, a))
                pieces = [(a, first - 1, "open"), (max(a, first), min(b, last), "unfillable"), (last + 1, b, "open")]
                for lo, hi, status in pieces:
                    if lo <= hi:
                        cur.execute(
                            "INSERT INTO gaps (table_id, first_seq, last_seq, status, reason, opened_at, closed_at, "
                            "asked) VALUES (%s, %s, %s, %s, %s, %s, CASE WHEN %s = 'open' THEN NULL ELSE now() END, "
                            "%s)", (table, lo, hi, status, reason[:1000] if status != "open" else None, opened_at,
                                    status, asked))
            check.open, check.unfillable = self._open(cur, table), self._unfillable(cur, table)
            cur.execute("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, _notify_payload([table])))
        return check

    def _lock_table(self, cur: psycopg.Cursor, table: str) -> int:
        """The table's ``archived_to``, its row locked until the transaction ends."""
        cur.execute("INSERT INTO tables (table_id) VALUES (%s) ON CONFLICT DO NOTHING", (table,))
        return cur.execute("SELECT archived_to FROM tables WHERE table_id = %s FOR UPDATE", (table,)).fetchone()[0]

    def _holes(self, cur: psycopg.Cursor, table: str, after: int, upto: int) -> list[tuple[int, int]]:
        """Runs of seqs in ``after+1..upto`` with no row in ``events``."""
        if upto <= after:
            return []
        return _ranges(cur.execute(
            # numeric, not bigint: the end mark upto + 1 must exist for upto = 2**63 - 1 too
            "SELECT prev + 1, seq - 1 FROM (SELECT seq, lag(seq, 1, %(after)s::numeric) OVER (ORDER BY seq) AS prev "
            "FROM (SELECT seq::numeric FROM events WHERE table_id = %(t)s AND seq > %(after)s AND seq <= %(upto)s "
            "UNION ALL SELECT %(upto)s::numeric + 1) AS s) AS x WHERE seq > prev + 1",
            {"t": table, "after": after, "upto": upto}))

    def _refresh(self, cur: psycopg.Cursor, table: str, check: GapCheck) -> None:
        """Each open gap of ``table`` split into what is still missing (open) and what has arrived
        (filled, closed now), keeping when it was opened and how often it was asked for. One query
        finds what arrived in every open gap: a table can have thousands (a service of a group away,
        its share lost with a broker), and a check runs every grace while a replay comes."""
        rows = cur.execute(
            "SELECT g.first_seq, g.last_seq, g.opened_at, g.asked, array_agg(e.seq ORDER BY e.seq) FROM gaps g "
            "JOIN events e ON e.table_id = g.table_id AND e.seq BETWEEN g.first_seq AND g.last_seq "
            "WHERE g.table_id = %s AND g.status = 'open' GROUP BY g.first_seq, g.last_seq, g.opened_at, g.asked "
            "ORDER BY g.first_seq", (table,)).fetchall()
        pieces = []
        for a, b, opened_at, asked, seqs in rows:
            arrived = _runs_of(seqs)
            missing = _subtract([(a, b)], arrived)
            pieces += [(table, lo, hi, status, opened_at, status, asked)
                       for (lo, hi), status in sorted([(r, "open") for r in missing] + [(r, "filled") for r in arrived])]
            check.filled += arrived
        if rows:
            cur.execute("DELETE FROM gaps WHERE table_id = %s AND first_seq = ANY(%s)", (table, [r[0] for r in rows]))
            cur.executemany("INSERT INTO gaps (table_id, first_seq, last_seq, status, opened_at, closed_at, asked) "
                            "VALUES (%s, %s, %s, %s, %s, CASE WHEN %s = 'filled' THEN now() END, %s)", pieces)

    def _open(self, cur: psycopg.Cursor, table: str) -> list[tuple[int, int]]:
        return _ranges(cur.execute("SELECT first_seq, last_seq FROM gaps WHERE table_id = %s AND status = 'open' "
                                   "ORDER BY first_seq", (table,)))

    def _unfillable(self, cur: psycopg.Cursor, table: str) -> int:
        return int(cur.execute("SELECT coalesce(sum(last_seq - first_seq + 1), 0) FROM gaps WHERE table_id = %s "
                               "AND status = 'unfillable'", (table,)).fetchone()[0])


# -- SQL and helpers ---------------------------------------------------------------------

_UPSERT_STATUS = ("INSERT INTO tables (table_id, game, status, updated_at) VALUES (%s, %s, %s::jsonb, now()) "
                  "ON CONFLICT (table_id) DO UPDATE SET game = coalesce(excluded.game, tables.game), "
                  "status = excluded.status, updated_at = now()")
_INSERT_MANY = ("INSERT INTO events (table_id, seq, kind, round, ts, data, envelope) "
                "SELECT t, s, k, r, to_timestamp(ts), e -> 'data', e FROM unnest(%s::text[], %s::bigint[], %s::text[], "
                "%s::int[], %s::float8[], %s::jsonb[]) AS x(t, s, k, r, ts, e) "
                "ON CONFLICT DO NOTHING RETURNING table_id, seq")
_INSERT_ONE = ("INSERT INTO events (table_id, seq, kind, round, ts, data, envelope) "
               "SELECT %s, %s, %s, %s, to_timestamp(%s), e -> 'data', e FROM (SELECT %s::jsonb AS e) AS x "
               "ON CONFLICT DO NOTHING RETURNING seq")
_INSERT_REJECT = "INSERT INTO rejects (topic, table_id, reason, payload) VALUES (%s, %s, %s, %s)"
_INSERT_ACK = ("INSERT INTO acknowledgements (id, table_id, alarm_seq, code, by_user, note, assignee, ts) "
               "VALUES (%s, %s, %s, %s, %s, %s, %s, to_timestamp(%s)) ON CONFLICT (id) DO NOTHING")


def _first_of_each(events: Iterable[ArchivedEvent]) -> tuple[list[ArchivedEvent],
                                                              list[tuple[ArchivedEvent, ArchivedEvent]]]:
    """The first event of each (table, seq) in a batch, and each later one with its first."""
    first: dict[tuple[str, int], ArchivedEvent] = {}
    again = []
    for env in events:
        key = (env.table, env.seq)
        if key in first:
            again.append((env, first[key]))
        else:
            first[key] = env
    return list(first.values()), again


def _without(batch: Batch, stored: Batch) -> Batch:
    """``batch`` less the events and rejects of ``stored`` (each taken away once); statuses stay
    (storing one again changes nothing)."""
    events, rejects = list(stored.events), list(stored.rejects)
    keep_events = []
    for env in batch.events:
        if env in events:
            events.remove(env)
        else:
            keep_events.append(env)
    keep_rejects = []
    for reject in batch.rejects:
        if reject in rejects:
            rejects.remove(reject)
        else:
            keep_rejects.append(reject)
    return Batch(keep_events, keep_rejects, dict(batch.statuses), [a for a in batch.acks if a not in stored.acks])


def _merged(first: Stored, then: Stored) -> Stored:
    """What two transactions did, as one result."""
    return Stored(first.new + then.new, first.duplicates + then.duplicates, first.conflicts + then.conflicts,
                  first.refused + then.refused, first.refused_keys | then.refused_keys, then.xid)


def _backwards(env: ArchivedEvent) -> Reject:
    return Reject(f"(archive) {env.table} seq {env.seq}", env.table,
                  f"seq backwards: seq {env.seq} of table {env.table} is archived already with another payload; "
                  f"the archived one is kept", env.payload or env.envelope.encode())


def _refused(env: ArchivedEvent) -> Reject:
    return Reject(f"(archive) {env.table} seq {env.seq}", env.table,
                  f"the archive database refused event {env.seq} ({env.kind})", env.payload or env.envelope.encode())


def _reject_row(reject: Reject) -> tuple[str, str | None, str, bytes]:
    """Text PostgreSQL can hold: a NUL ends a text value, so it is written out."""
    return (reject.topic.replace("\x00", "\\0")[:1000], reject.table, reject.reason.replace("\x00", "\\0"),
            reject.payload[:REJECT_PAYLOAD_MAX])


def _notify_payload(tables: list[str]) -> str:
    text = ",".join(tables)
    return text if len(text) < 7000 else ""


def _ranges(cur: psycopg.Cursor) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in cur.fetchall()]


def _runs_of(seqs: Iterable[int]) -> list[tuple[int, int]]:
    """Sorted seqs as runs of consecutive ones."""
    runs: list[tuple[int, int]] = []
    for seq in seqs:
        if runs and seq == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], seq)
        else:
            runs.append((seq, seq))
    return runs


def _subtract(ranges: list[tuple[int, int]], taken: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of ``ranges`` not in ``taken`` (both sorted, each without overlaps of its own)."""
    out = []
    for lo, hi in ranges:
        cur = lo
        for a, b in taken:
            if b < cur or a > hi:
                continue
            if a > cur:
                out.append((cur, a - 1))
            cur = max(cur, b + 1)
            if cur > hi:
                break
        if cur <= hi:
            out.append((cur, hi))
    return out
