"""`tablectl report`: what accounting and surveillance read back from the pit archive.

Everything here is read from what the tables published and the pit service stored (the
``events``, ``gaps`` and ``tables`` of controller/pit/migrations/0001_archive.sql): a report
can say nothing a pit subscriber could not have seen. It reads in one read-only snapshot, so the
sections agree with each other while the pit service goes on writing.

- **hands**: per table and clock hour (the site's zone), the ``result`` events (a hand is a
  round that reached its result) and the ``void`` events beside them. A voided round is never
  a hand (no result: nothing was won or lost), and a result is never taken back by a void (a
  table voids only a round before its result).
- **results**: per table and shift, the hands, the voids, and each wager's fate as the result
  events carry it (:func:`wager_outcomes`).
- **alarms**: every ``alarm`` (severity, code, message, the action it asks for) and ``void``
  (reason, who) in order.
- **rotation**: every ``player_dealer`` event (offered, passed, accepted, kept, restored).
- **gaps**: the runs of seqs the archive does not hold (still ``open``, or ``unfillable``: the
  table no longer has them) whose neighbours bracket the period: the counts above are short by
  whatever is in them, and accounting must know.

Times are the tables' own clocks (the envelope's ``ts``), shown in the site's zone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, tzinfo
from typing import Any

from controller.pit.report.shifts import Shift, Shifts

SECTIONS: tuple[str, ...] = ("hands", "results", "alarms", "rotation", "gaps")
"""The report's sections, in the order they are shown."""

ARCHIVE_TABLES = ("events", "gaps", "tables")
"""What the report reads of the archive."""

OUTCOMES = frozenset({"win", "lose", "push"})
"""A wager's fate (games/wagers.py ``Outcome``)."""

FETCH = 5000
"""Rows fetched at a time from the server for the results pass: a month of a site's hands is
millions of rows, read as a stream, never held at once."""


class ArchiveError(Exception):
    """The database is not a pit archive the report can read; the message says why."""


@dataclass(frozen=True)
class Period:
    """``since <= ts < until``; either end may be open."""

    since: datetime | None = None
    until: datetime | None = None


@dataclass
class HourRow:
    table: str
    hour: datetime
    """The clock hour's start, in the site's zone."""
    hands: int = 0
    voids: int = 0


@dataclass
class ShiftBlock:
    table: str
    game: str | None
    day: date
    """The day the shift started (a grave shift's hand at 02:00 is the day before's)."""
    shift: Shift
    hands: int = 0
    voids: int = 0
    outcomes: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    """(wager, outcome, terms) -> how many times."""


@dataclass(frozen=True)
class Incident:
    """An alarm or a void."""

    table: str
    time: datetime
    seq: int
    round: int | None
    event: str
    severity: str
    code: str
    by: str
    reason: str
    """An alarm's message, a void's reason."""
    action: str


@dataclass(frozen=True)
class RotationRow:
    table: str
    time: datetime
    seq: int
    round: int | None
    seat: int | None
    change: str
    consecutive: int


@dataclass(frozen=True)
class GapRow:
    table: str
    first_seq: int
    last_seq: int
    status: str
    reason: str
    asked: int
    opened_at: datetime
    closed_at: datetime | None
    after: datetime | None
    """The time of the last event the archive holds before the gap (None: none before it)."""
    before: datetime | None
    """The time of the first event the archive holds after it."""

    @property
    def missing(self) -> int:
        return self.last_seq - self.first_seq + 1


@dataclass
class Report:
    period: Period
    zone: tzinfo
    zone_name: str
    shifts: Shifts
    hands: list[HourRow] = field(default_factory=list)
    results: list[ShiftBlock] = field(default_factory=list)
    alarms: list[Incident] = field(default_factory=list)
    rotation: list[RotationRow] = field(default_factory=list)
    gaps: list[GapRow] = field(default_factory=list)


def wager_outcomes(data: Any) -> list[tuple[str, str, str]]:
    """Every wager's fate in a ``result`` event's data, as ``(wager, outcome, terms)``.

    Every game settles into the one shape of games/wagers.py (``wager``, ``outcome`` win, lose
    or push, ``pays``), so reading that shape, wherever the game puts it (a list per seat, per
    hand, for the layout), counts any game's results without naming one. A wager named by its
    key rather than a ``wager`` field (baccarat's ``payouts``: ``{"banker": {"outcome", "odds"}}``)
    takes the key. ``terms`` is what a win pays (``1 to 2``), or the part of the stake an outcome
    applies to when not all of it (``stake 1/2``: a surrender); else empty. A game that settles no
    wager (the poker room's Hold'em and Stud: the players play each other, the house takes a fee)
    gives none: its results count as hands only."""
    found: list[tuple[str, str, str]] = []

    def walk(value: Any, key: str | None) -> None:
        if isinstance(value, Mapping):
            outcome = value.get("outcome")
            wager = value.get("wager") if isinstance(value.get("wager"), str) else key
            if outcome in OUTCOMES and wager is not None and not wager.isdigit():
                found.append((wager, outcome, _terms(value, outcome)))
                return
            for k, v in value.items():
                walk(v, str(k))
        elif isinstance(value, list):
            for v in value:
                walk(v, None)

    walk(data, None)
    return found


def _terms(wager: Mapping[str, Any], outcome: str) -> str:
    if outcome == "win":
        pays = wager.get("pays", wager.get("odds"))
        if isinstance(pays, str):
            return pays
        if isinstance(pays, list) and len(pays) == 2:
            return f"{pays[0]} to {pays[1]}"
    stake = wager.get("stake")
    return f"stake {stake}" if isinstance(stake, str) and stake != "1" else ""


# -- reading the archive ----------------------------------------------------------------------

def check_archive(conn: Any) -> None:
    """:class:`ArchiveError` unless the tables the report reads are there."""
    missing = [name for name in ARCHIVE_TABLES
               if conn.execute("SELECT to_regclass(%s)", [name]).fetchone()[0] is None]
    if missing:
        raise ArchiveError(f"this database holds no pit archive (no table {', '.join(missing)}): "
                           f"is it the one tablectl pit writes to?")


def build(conn: Any, period: Period, zone: tzinfo, zone_name: str, shifts: Shifts,
          tables: Sequence[str] = (), sections: Iterable[str] = SECTIONS) -> Report:
    """The report of ``period`` (of ``tables``, or of every table), its ``sections`` filled and
    the gaps always (a report that leaves them out must still be able to say what is missing)."""
    wanted = set(sections)
    report = Report(period, zone, zone_name, shifts)
    if wanted & {"hands", "results"}:
        report.hands, report.results = _hands_and_results(conn, period, zone, shifts, tables)
    if "alarms" in wanted:
        report.alarms = _incidents(conn, period, zone, tables)
    if "rotation" in wanted:
        report.rotation = _rotation(conn, period, zone, tables)
    report.gaps = _gaps(conn, period, zone, tables)
    return report


def _where(period: Period, tables: Sequence[str], kinds: Sequence[str]) -> tuple[str, list[Any]]:
    clauses, params = ["kind = ANY(%s)"], [list(kinds)]
    if period.since is not None:
        clauses.append("ts >= %s")
        params.append(period.since)
    if period.until is not None:
        clauses.append("ts < %s")
        params.append(period.until)
    if tables:
        clauses.append("table_id = ANY(%s)")
        params.append(list(tables))
    return " AND ".join(clauses), params


def _hands_and_results(conn: Any, period: Period, zone: tzinfo, shifts: Shifts,
                       tables: Sequence[str]) -> tuple[list[HourRow], list[ShiftBlock]]:
    games = dict(conn.execute("SELECT table_id, game FROM tables").fetchall())
    hours: dict[tuple[str, float], HourRow] = {}  # by the hour's instant: 01:00 twice when clocks go back
    blocks: dict[tuple[str, date, str], ShiftBlock] = {}
    where, params = _where(period, tables, ("result", "void"))
    with conn.cursor(name="report_results") as cur:
        cur.itersize = FETCH
        cur.execute(f"SELECT table_id, kind, ts, CASE WHEN kind = 'result' THEN data END "
                    f"FROM events WHERE {where}", params)
        for table, kind, ts, data in cur:
            local = ts.astimezone(zone)
            hour = local.replace(minute=0, second=0, microsecond=0)
            row = hours.get((table, hour.timestamp()))
            if row is None:
                row = hours[(table, hour.timestamp())] = HourRow(table, hour)
            day, shift = shifts.of(local)
            block = blocks.get((table, day, shift.name))
            if block is None:
                block = blocks[(table, day, shift.name)] = ShiftBlock(table, games.get(table), day, shift)
            if kind == "result":
                row.hands += 1
                block.hands += 1
                block.outcomes.update(wager_outcomes(data))
            else:
                row.voids += 1
                block.voids += 1
    return (sorted(hours.values(), key=lambda r: (r.table, r.hour.timestamp())),
            sorted(blocks.values(), key=lambda b: (b.table, b.day, _shift_order(shifts, b.shift))))


def _shift_order(shifts: Shifts, shift: Shift) -> int:
    """Shifts of a day in the order they run from the day's first (the earliest start)."""
    return sorted(s.start for s in shifts.shifts).index(shift.start)


def _incidents(conn: Any, period: Period, zone: tzinfo, tables: Sequence[str]) -> list[Incident]:
    where, params = _where(period, tables, ("alarm", "void"))
    rows = conn.execute(f"SELECT table_id, ts, seq, round, kind, data FROM events WHERE {where} "
                        f"ORDER BY table_id, seq", params).fetchall()
    out = []
    for table, ts, seq, round_, kind, data in rows:
        if kind == "alarm":
            out.append(Incident(table, ts.astimezone(zone), seq, round_, "alarm", _text(data, "severity"),
                                _text(data, "code"), "", _text(data, "message"), _text(data, "action")))
        else:
            out.append(Incident(table, ts.astimezone(zone), seq, round_, "void", "", "", _text(data, "by"),
                                _text(data, "reason"), ""))
    return out


def _rotation(conn: Any, period: Period, zone: tzinfo, tables: Sequence[str]) -> list[RotationRow]:
    where, params = _where(period, tables, ("player_dealer",))
    rows = conn.execute(f"SELECT table_id, ts, seq, round, data FROM events WHERE {where} "
                        f"ORDER BY table_id, seq", params).fetchall()
    return [RotationRow(table, ts.astimezone(zone), seq, round_, data.get("seat"), _text(data, "change"),
                        data.get("consecutive") if isinstance(data.get("consecutive"), int) else 0)
            for table, ts, seq, round_, data in rows]


def _gaps(conn: Any, period: Period, zone: tzinfo, tables: Sequence[str]) -> list[GapRow]:
    """Open and unfillable gaps whose missing events may fall in the period: the event before the
    gap is before its end and the event after it is after its start (their times are all the
    archive knows of the missing ones)."""
    only = " AND g.table_id = ANY(%s)" if tables else ""
    rows = conn.execute(
        "SELECT g.table_id, g.first_seq, g.last_seq, g.status, g.reason, g.asked, g.opened_at, g.closed_at, "
        "  (SELECT e.ts FROM events e WHERE e.table_id = g.table_id AND e.seq < g.first_seq "
        "   ORDER BY e.seq DESC LIMIT 1), "
        "  (SELECT e.ts FROM events e WHERE e.table_id = g.table_id AND e.seq > g.last_seq "
        "   ORDER BY e.seq LIMIT 1) "
        f"FROM gaps g WHERE g.status IN ('open', 'unfillable'){only} ORDER BY g.table_id, g.first_seq",
        [list(tables)] if tables else []).fetchall()
    out = []
    for table, first, last, status, reason, asked, opened, closed, after, before in rows:
        if period.until is not None and after is not None and after >= period.until:
            continue
        if period.since is not None and before is not None and before < period.since:
            continue
        out.append(GapRow(table, first, last, status, reason or "", asked, opened.astimezone(zone),
                          closed.astimezone(zone) if closed is not None else None,
                          after.astimezone(zone) if after is not None else None,
                          before.astimezone(zone) if before is not None else None))
    return out


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    return value if isinstance(value, str) else "" if value is None else str(value)
