"""`tablectl report`: what accounting and surveillance read back from the pit archive.

Everything here is read from what the tables published and the pit service stored (the
``events``, ``gaps`` and ``tables`` of controller/pit/migrations/0001_archive.sql): a report
can say nothing a pit subscriber could not have seen. It reads in one read-only snapshot, so the
sections agree with each other while the pit service goes on writing.

- **hands**: per table and clock hour (the site's zone), the ``result`` events (a hand is a
  round that reached its result) and the ``void`` events beside them. A voided round is never
  a hand (no result: nothing was won or lost), and a result is never taken back by a void (a
  table voids only a round before its result). A count per clock hour, not a rate.
- **pace**: per table and shift, the hands over the hours the table was open and dealing
  (:class:`Dealing`): hands per hour as a rate.
- **results**: per table and shift, the hands, the voids, and each wager's fate as the result
  events carry it (:func:`wager_outcomes`).
- **collections**: per table and shift, the money the poker room's tables say was collected
  (:func:`collection_of`): the house's fees and time collections and the jackpot drops.
- **alarms**: every ``alarm`` (severity, code, message, the action it asks for) and ``void``
  (reason, who) in order.
- **rotation**: every ``player_dealer`` event (offered, passed, accepted, kept, restored).
- **integrity**: per shift, the integrity monitors' warnings (``alarm`` events of
  :data:`INTEGRITY_WARNINGS`: a die, a wager's outcomes, a shuffle tested against the exact odds
  and flagged) and their counts starting afresh: the pit's resets (``command`` events of
  :data:`INTEGRITY_COMMANDS`, done or refused) and the table's own (alarms of
  :data:`INTEGRITY_RESETS`: a new cup, counts its journal could not take up). Surveillance reads
  a warning beside the resets around it: counts reset just before a warning are few; a reset just
  after one may have hidden what it found.
- **gaps**: the runs of seqs the archive does not hold (still ``open``, or ``unfillable``: the
  table no longer has them) whose neighbours bracket the period: the counts above are short by
  whatever is in them, and accounting must know.

A row the report cannot read (a payload the archive holds that is not the shape it reads: a
game this pit does not know, a table on other software) is left out of every count and named
(:class:`UnreadableRow`), and the report goes on: one bad row must not cost a night's report.

Times are the tables' own clocks (the envelope's ``ts``), shown in the site's zone.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, tzinfo
from typing import Any

from controller.pit.report.shifts import Shift, Shifts

SECTIONS: tuple[str, ...] = ("hands", "pace", "results", "collections", "alarms", "rotation", "integrity", "gaps")
"""The report's sections, in the order they are shown."""

INTEGRITY_WARNINGS = ("dice_bias", "outcome_bias", "shuffle_suspect")
"""The alarm codes of the integrity monitors' findings (controller/table/dice_stats.py, issue 25)."""
INTEGRITY_RESETS = ("dice_counts_reset", "outcome_counts_reset", "shuffle_counts_reset")
"""The alarm codes of a table setting its integrity counts aside on its own (another cup's serial,
counts its journal could not take up)."""
INTEGRITY_COMMANDS = ("dice_reset", "integrity_reset")
"""The pit's commands that start integrity counts afresh; a ``command`` event names each, with
whether the table did it (its arguments, the cup or the wager, are not in the event)."""

MARGIN = timedelta(hours=6)
"""How far past either end of the period the report reads a table's deals and hands to measure the
time it dealt: a hand dealt before ``--since`` counts its time from ``--since`` on, so a shift's
hours are the same whether the period starts at the shift or before it. A hand longer than this
is measured from the edge of the margin."""

IDLE = timedelta(minutes=15)
"""The longest wait from one hand's end to the next deal that still counts as dealing (``--idle``):
longer, and the table stood open with nobody playing (waiting for players, a break)."""

BASES = frozenset({"pot", "player", "condition", "time"})
"""The collection bases of games/poker/economics.py: ``time`` is collected per person as a hand
starts, the others per hand."""

ARCHIVE_TABLES = ("events", "gaps", "tables")
"""What the report reads of the archive."""

OUTCOMES = frozenset({"win", "lose", "push"})
"""A wager's fate (games/wagers.py ``Outcome``)."""

FETCH = 5000
"""Rows fetched at a time from the server for the results pass: a month of a site's hands is
millions of rows, read as a stream, never held at once."""


class ArchiveError(Exception):
    """The database is not a pit archive the report can read; the message says why."""


class Unreadable(ValueError):
    """A row's data is not the shape the report reads; the message says where and why."""


@dataclass(frozen=True)
class Period:
    """``since <= ts < until``; either end may be open."""

    since: datetime | None = None
    until: datetime | None = None

    def __contains__(self, ts: datetime) -> bool:
        return (self.since is None or ts >= self.since) and (self.until is None or ts < self.until)

    def widened(self, by: timedelta) -> Period:
        return Period(None if self.since is None else self.since - by, None if self.until is None else self.until + by)

    def clip(self, start: datetime, end: datetime) -> tuple[datetime, datetime] | None:
        """``[start, end]`` cut to the period, or None if none of it is in it."""
        if self.since is not None:
            start = max(start, self.since)
        if self.until is not None:
            end = min(end, self.until)
        return (start, end) if start <= end and start in self else None


@dataclass
class HourRow:
    table: str
    hour: datetime
    """The clock hour's start, in the site's zone."""
    hands: int = 0
    voids: int = 0


@dataclass
class ShiftBlock:
    """One table's shift: its hands and their results, what it collected, how long it dealt."""

    table: str
    game: str | None
    day: date
    """The day the shift started (a grave shift's hand at 02:00 is the day before's)."""
    shift: Shift
    hands: int = 0
    voids: int = 0
    outcomes: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    """(wager, outcome, terms) -> how many times."""
    collects: bool = False
    """The table published a collection in this shift (a poker-room table): it has a collections row."""
    fees: int = 0
    """Cents: the house's per-hand fees (pot fees, players' collections, Panguingue's fee), from results."""
    fee_hands: int = 0
    time: int = 0
    """Cents: the time collections taken as hands started (voided hands too)."""
    time_hands: int = 0
    periods: int = 0
    """Person-periods of time paid (a seat's half hour is one)."""
    jackpot: int = 0
    """Cents: the jackpot drops, from results."""
    jackpot_hands: int = 0
    dealing: timedelta = timedelta(0)
    """The time the table was open and dealing in this shift (:class:`Dealing`)."""
    dealing_from: datetime | None = None
    dealing_to: datetime | None = None
    gap_runs: frozenset[int] = frozenset()
    """The first seqs of this table's gaps (open or unfillable) whose missing events may fall in
    this shift."""

    @property
    def gaps(self) -> int:
        return len(self.gap_runs)

    @property
    def total(self) -> int:
        """Cents: everything collected at the table (the drop): fees, time and jackpot."""
        return self.fees + self.time + self.jackpot

    @property
    def hours(self) -> float:
        return self.dealing.total_seconds() / 3600

    @property
    def hands_per_hour(self) -> float | None:
        """Hands over the hours dealing; None when no time was measured (a lone hand whose deal is
        not archived)."""
        return self.hands / self.hours if self.dealing > timedelta(0) else None


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
class IntegrityRow:
    """An integrity warning, or integrity counts starting afresh, in the shift it fell in."""

    table: str
    day: date
    shift: Shift
    time: datetime
    seq: int
    round: int | None
    what: str
    """``warning`` (a monitor's finding) or ``reset`` (counts set aside)."""
    code: str
    """The alarm's code, or the command's name."""
    message: str
    """The alarm's message; for a command, ``done`` or ``refused: <the table's error>``."""


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


@dataclass(frozen=True)
class UnreadableRow:
    """An archived event the report could not read, left out of every count."""

    table: str
    seq: int
    kind: str
    time: datetime
    why: str


@dataclass
class Report:
    period: Period
    zone: tzinfo
    zone_name: str
    shifts: Shifts
    idle: timedelta = IDLE
    hands: list[HourRow] = field(default_factory=list)
    pace: list[ShiftBlock] = field(default_factory=list)
    results: list[ShiftBlock] = field(default_factory=list)
    collections: list[ShiftBlock] = field(default_factory=list)
    alarms: list[Incident] = field(default_factory=list)
    rotation: list[RotationRow] = field(default_factory=list)
    integrity: list[IntegrityRow] = field(default_factory=list)
    gaps: list[GapRow] = field(default_factory=list)
    unreadable: list[UnreadableRow] = field(default_factory=list)


def wager_outcomes(data: Any) -> list[tuple[str, str, str]]:
    """Every wager's fate in a ``result`` event's data, as ``(wager, outcome, terms)``.

    Every game settles into the one shape of games/wagers.py (``wager``, ``outcome`` win, lose
    or push, ``pays``), so reading that shape, wherever the game puts it (a list per seat, per
    hand, for the layout), counts any game's results without naming one. A wager named by its
    key rather than a ``wager`` field (baccarat's ``payouts``: ``{"banker": {"outcome", "odds"}}``)
    takes the key. ``terms`` is what a win pays (``1 to 2``), or the part of the stake an outcome
    applies to when not all of it (``stake 1/2``: a surrender); else empty. A game that settles no
    wager (the poker room's Hold'em and Stud: the players play each other, the house takes a fee)
    gives none: its results count as hands only.

    :class:`Unreadable` for a wager that names itself (a ``wager`` string) with an outcome other
    than win, lose or push (``{"wager": "main", "outcome": {"win": 1}}``): a fate the report
    cannot count is said, not skipped."""
    found: list[tuple[str, str, str]] = []

    def walk(value: Any, key: str | None) -> None:
        if isinstance(value, dict):    # JSON's objects (not Mapping: an ABC check per node costs a report's time)
            outcome = value.get("outcome")
            named = value.get("wager")
            known = isinstance(outcome, str) and outcome in OUTCOMES
            if isinstance(named, str) and "outcome" in value and not known:
                raise Unreadable(f"wager {show(named)} has outcome {show(outcome)}, not win, lose or push")
            wager = named if isinstance(named, str) else key
            if known and wager is not None and not wager.isdigit():
                found.append((wager, outcome, _terms(value, outcome)))
                return
            for k, v in value.items():
                walk(v, str(k))
        elif isinstance(value, list):
            for v in value:
                walk(v, None)

    walk(data, None)
    return found


@dataclass(frozen=True)
class Collection:
    """What one event says was collected (games/poker/economics.py ``hand_collection``), in cents."""

    basis: str
    fee: int
    """``time``: the time collected as the hand starts; else the house's fee for the hand (a pot
    fee by the schedule, the players' collections, Panguingue's fee by condition)."""
    jackpot: int
    periods: int
    """``time``: the seats whose time was collected (``time_due``), one period each."""


def collection_of(data: Any) -> Collection | None:
    """The ``collection`` of an ``action_button`` or ``result`` event's data, or None when it has
    none (every game outside the poker room). The fields summed: ``fee`` and ``jackpot`` (cents,
    the hand's totals) and, for ``basis: "time"``, the seats in ``time_due``. Panguingue's ``ante``
    is not the house's (the antes are the Tops, the winner's) and is not read.
    :class:`Unreadable` when it is there but not that shape: money is never guessed."""
    if not isinstance(data, Mapping):
        raise Unreadable(f"its data is {_json_type(data)}, not an object")
    if "collection" not in data:
        return None
    c = data["collection"]
    if not isinstance(c, Mapping):
        raise Unreadable(f"collection is {_json_type(c)}, not an object")
    basis = c.get("basis")
    if basis not in BASES:
        raise Unreadable(f"collection.basis is {show(basis)}, not one of {', '.join(sorted(BASES))}")
    fee, jackpot = _cents(c, "fee"), _cents(c, "jackpot", 0)
    due = c.get("time_due", [])
    if not isinstance(due, list):
        raise Unreadable(f"collection.time_due is {_json_type(due)}, not a list of seats")
    return Collection(basis, fee, jackpot, len(due) if basis == "time" else 0)


def _cents(c: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = c.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Unreadable(f"collection.{key} is {show(value)}, not a whole number of cents")
    return value


def _json_type(value: Any) -> str:
    for kind, name in ((type(None), "null"), (bool, "true or false"), (str, "a string"), (list, "a list"),
                       (Mapping, "an object"), (int, "a number"), (float, "a number")):
        if isinstance(value, kind):
            return name
    return type(value).__name__


def show(value: Any, limit: int = 40) -> str:
    """A value as JSON, cut short: a reason names what it found, never a whole payload."""
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
          tables: Sequence[str] = (), sections: Iterable[str] = SECTIONS, idle: timedelta = IDLE) -> Report:
    """The report of ``period`` (of ``tables``, or of every table), its ``sections`` filled and
    the gaps always (a report that leaves them out must still be able to say what is missing),
    and the rows it could not read always (so are they)."""
    wanted = set(sections)
    report = Report(period, zone, zone_name, shifts, idle)
    report.gaps = _gaps(conn, period, zone, tables)
    if wanted & {"hands", "pace", "results", "collections"}:
        _hands_and_shifts(conn, report, tables, wanted)
    if "alarms" in wanted:
        report.alarms = _incidents(conn, report, tables)
    if "rotation" in wanted:
        report.rotation = _rotation(conn, report, tables)
    if "integrity" in wanted:
        report.integrity = _integrity(conn, report, tables)
    report.unreadable.sort(key=lambda u: (u.table, u.seq))
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


class Dealing:
    """One table's dealing stretches, from its events in seq order: what "open and dealing" is.

    A stretch starts at a deal (the ``transition`` into ``dealing``: no more bets, or the poker
    dealer's ``deal``) and runs to the end of the last hand (its ``result`` or ``void``) dealt
    within the idle limit (:data:`IDLE`) of the one before. So the time between hands (settling,
    the shuffle, the bets) is dealing, and so is a long hand; but the table is not dealing before
    its first deal (the deck check, players sitting down), after its last hand, while it waits
    longer than the idle limit for the next deal (nobody to play, a break), or between its
    ``table`` events ``closed`` and ``open``: each of those ends the stretch. A hand whose deal is
    not archived (in a gap, or before the period) starts at its ``round_start`` (bets open), or
    without one at its own end; a round voided before any deal (a table closed while betting)
    dealt nothing and adds no time."""

    def __init__(self, idle: timedelta) -> None:
        self.idle = idle
        self.start: datetime | None = None
        self.end: datetime | None = None
        self.dealt = False
        self.opened: datetime | None = None
        """The ``round_start`` of the hand not yet dealt: its start if its deal is not archived."""
        self.stretches: list[tuple[datetime, datetime]] = []

    def round_start(self, ts: datetime) -> None:
        self.opened = ts

    def deal(self, ts: datetime) -> None:
        self._begin(ts)
        self.dealt = True

    def hand_end(self, ts: datetime, voided: bool) -> None:
        if not self.dealt:
            if voided:
                self.opened = None
                return
            self._begin(min(self.opened, ts) if self.opened is not None else ts)
        assert self.end is not None
        self.end = max(self.end, ts)
        self.dealt, self.opened = False, None

    def table_event(self) -> None:
        """The table opened or closed: whatever it dealt before is one stretch."""
        self._close()
        self.dealt, self.opened = False, None

    def finish(self) -> list[tuple[datetime, datetime]]:
        self._close()
        return self.stretches

    def _begin(self, ts: datetime) -> None:
        if self.end is not None and ts - self.end > self.idle:
            self._close()
        if self.start is None:
            self.start = self.end = ts

    def _close(self) -> None:
        if self.start is not None and self.end is not None:
            self.stretches.append((self.start, self.end))
        self.start = self.end = None


def _segments(start: datetime, end: datetime, shifts: Shifts,
              zone: tzinfo) -> Iterator[tuple[date, Shift, datetime, datetime]]:
    """A stretch cut at the shifts' boundaries: each piece with the shift it falls in."""
    t = start
    while True:
        day, shift = shifts.of(t.astimezone(zone))
        _, shift_end = shifts.bounds(day, shift, zone)
        piece_end = end if shift_end <= t else min(end, shift_end)   # (a boundary inside an hour that happens twice)
        yield day, shift, t, piece_end
        if piece_end >= end:
            return
        t = piece_end


def _hands_and_shifts(conn: Any, report: Report, tables: Sequence[str], wanted: set[str]) -> None:
    """One pass over the hands and what surrounds them, in each table's seq order: the clock
    hours, the shift blocks with their results and collections, and the dealing stretches.

    Each event is read once and each collection from one kind of event only (:func:`add_collection`),
    so a hand published twice over (as the deal starts and in its result) is counted once; the
    archive holds each (table, seq) once, so a QoS 1 redelivery or a replay is one row."""
    zone, shifts = report.zone, report.shifts
    games = dict(conn.execute("SELECT table_id, game FROM tables").fetchall())
    hours: dict[tuple[str, float], HourRow] = {}  # by the hour's instant: 01:00 twice when clocks go back
    blocks: dict[tuple[str, date, str], ShiftBlock] = {}

    def block(table: str, day: date, shift: Shift) -> ShiftBlock:
        found = blocks.get((table, day, shift.name))
        if found is None:
            found = blocks[(table, day, shift.name)] = ShiftBlock(table, games.get(table), day, shift)
        return found

    def dealt(table: str, dealing: Dealing) -> None:
        for stretch in dealing.finish():
            clipped = report.period.clip(*stretch)
            if clipped is None:
                continue
            for day, shift, a, b in _segments(*clipped, shifts, zone):
                into = block(table, day, shift)
                into.dealing += b - a
                a, b = a.astimezone(zone), b.astimezone(zone)
                into.dealing_from = a if into.dealing_from is None else min(into.dealing_from, a)
                into.dealing_to = b if into.dealing_to is None else max(into.dealing_to, b)

    # Only what the sections asked for is read: the deals for the pace, and of the action_button
    # events only those that carry a time collection (the rest of those kinds, several events a
    # hand, stay on the server).
    kinds = ["result", "void"]
    if "pace" in wanted:
        kinds += ["transition", "round_start", "table"]
    if "collections" in wanted:
        kinds.append("action_button")
    where, params = _where(report.period.widened(MARGIN) if "pace" in wanted else report.period, tables, kinds)
    where += (" AND (kind <> 'transition' OR data->>'to' = 'dealing')"
              " AND (kind <> 'action_button' OR data->'collection'->>'basis' = 'time')")
    # The pace follows each table in its own order; the counts need no order (a sort the
    # server is spared when the pace is not asked for).
    order = " ORDER BY table_id, seq" if "pace" in wanted else ""
    # The whole result is read: plan for all of it, not for its first rows as a cursor's plan is
    # by default (an ordered walk of the whole archive's key for one day's report).
    conn.execute("SET LOCAL cursor_tuple_fraction = 1.0")
    current: str | None = None
    dealing = Dealing(report.idle)
    with conn.cursor(name="report_hands") as cur:
        cur.itersize = FETCH
        cur.execute(f"SELECT table_id, seq, kind, ts, CASE WHEN kind IN ('result', 'action_button') "
                    f"THEN data END FROM events WHERE {where}{order}", params)
        for table, seq, kind, ts, data in cur:
            if table != current and order:
                if current is not None:
                    dealt(current, dealing)
                current, dealing = table, Dealing(report.idle)
            if kind == "transition":
                dealing.deal(ts)
                continue
            if kind == "round_start":
                dealing.round_start(ts)
                continue
            if kind == "table":
                dealing.table_event()
                continue
            if ts not in report.period:          # the margin: read for how long the table dealt, not counted
                if kind != "action_button":
                    dealing.hand_end(ts, voided=kind == "void")
                continue
            local = ts.astimezone(zone)
            try:
                read = _read(kind, data)
            except Unreadable as exc:
                report.unreadable.append(UnreadableRow(table, seq, kind, local, str(exc)))
                continue
            except (TypeError, ValueError, AttributeError, KeyError, RecursionError) as exc:
                report.unreadable.append(UnreadableRow(table, seq, kind, local,
                                                       f"its data could not be read ({type(exc).__name__})"))
                continue
            into = block(table, *shifts.of(local))
            if kind == "action_button":
                add_collection(into, read, at_start=True)
                continue
            hour = local.replace(minute=0, second=0, microsecond=0)
            row = hours.get((table, hour.timestamp()))
            if row is None:
                row = hours[(table, hour.timestamp())] = HourRow(table, hour)
            dealing.hand_end(ts, voided=kind == "void")
            if kind == "void":
                row.voids += 1
                into.voids += 1
                continue
            outcomes, collection = read
            row.hands += 1
            into.hands += 1
            into.outcomes.update(outcomes)
            add_collection(into, collection, at_start=False)
    if current is not None:
        dealt(current, dealing)
    ordered = sorted(blocks.values(), key=lambda b: (b.table, b.day, _shift_order(shifts, b.shift)))
    for b in ordered:
        b.gap_runs = _gaps_in(report, b)
    report.hands = sorted(hours.values(), key=lambda r: (r.table, r.hour.timestamp()))
    report.results = [b for b in ordered if b.hands or b.voids]
    report.pace = [b for b in ordered if b.hands or b.voids or b.dealing_from is not None]
    report.collections = [b for b in ordered if b.collects]


def _read(kind: str, data: Any) -> Any:
    """What the pass takes from a row's data, read before anything is counted, so that a row
    that cannot be read counts nowhere (:class:`Unreadable`)."""
    if kind == "result":
        return wager_outcomes(data), collection_of(data)
    if kind == "action_button":
        return collection_of(data)
    return None


def add_collection(into: ShiftBlock, c: Collection | None, *, at_start: bool) -> None:
    """Add one event's collection to its shift, each kind of collection from one event only.

    - A **time** collection is taken from the players as the hand starts, apart from the pot, and
      a void gives none of it back (the clock counts the period paid: the redeal's ``time_due``
      is empty): read from the ``action_button`` that starts each hand, voided or not (the only
      ``action_button`` events the pass reads).
    - A **per-hand** collection (a pot fee, the players' collections, Panguingue's fee) and the
      **jackpot** drop go with the hand that is played: read from its ``result``. A voided hand
      collects none: a misdeal is redealt and the redeal's result carries that hand's collection
      (Draw: "post nothing again"; Hold'em, Stud, Mexican Stud and Panguingue ask the redeal's
      collection again, so the voided hand's was not kept besides it), and NO POT refunds the pot.

    Either event marks the shift as one the table collected in."""
    if c is None:
        return
    into.collects = True
    if c.basis == "time":
        if at_start:
            into.time += c.fee
            into.time_hands += 1 if c.periods or c.fee else 0
            into.periods += c.periods
        return
    if not at_start:
        into.fees += c.fee
        into.fee_hands += 1 if c.fee else 0
        into.jackpot += c.jackpot
        into.jackpot_hands += 1 if c.jackpot else 0


def _gaps_in(report: Report, b: ShiftBlock) -> frozenset[int]:
    """The gaps of ``b``'s table whose missing events may fall in its shift (their first seqs):
    the events around the gap bracket the shift's span."""
    start, end = report.shifts.bounds(b.day, b.shift, report.zone)
    return frozenset(g.first_seq for g in report.gaps if g.table == b.table
                     and (g.after is None or g.after < end) and (g.before is None or g.before >= start))


def _shift_order(shifts: Shifts, shift: Shift) -> int:
    """Shifts of a day in the order they run from the day's first (the earliest start)."""
    return sorted(s.start for s in shifts.shifts).index(shift.start)


def _incidents(conn: Any, report: Report, tables: Sequence[str]) -> list[Incident]:
    zone = report.zone
    where, params = _where(report.period, tables, ("alarm", "void"))
    rows = conn.execute(f"SELECT table_id, ts, seq, round, kind, data FROM events WHERE {where} "
                        f"ORDER BY table_id, seq", params).fetchall()
    out = []
    for table, ts, seq, round_, kind, data in rows:
        if not _object(report, table, seq, kind, ts, data):
            continue
        if kind == "alarm":
            out.append(Incident(table, ts.astimezone(zone), seq, round_, "alarm", _text(data, "severity"),
                                _text(data, "code"), "", _text(data, "message"), _text(data, "action")))
        else:
            out.append(Incident(table, ts.astimezone(zone), seq, round_, "void", "", "", _text(data, "by"),
                                _text(data, "reason"), ""))
    return out


def _rotation(conn: Any, report: Report, tables: Sequence[str]) -> list[RotationRow]:
    where, params = _where(report.period, tables, ("player_dealer",))
    rows = conn.execute(f"SELECT table_id, ts, seq, round, data FROM events WHERE {where} "
                        f"ORDER BY table_id, seq", params).fetchall()
    return [RotationRow(table, ts.astimezone(report.zone), seq, round_,
                        data.get("seat") if isinstance(data.get("seat"), int) else None, _text(data, "change"),
                        data.get("consecutive") if isinstance(data.get("consecutive"), int) else 0)
            for table, ts, seq, round_, data in rows if _object(report, table, seq, "player_dealer", ts, data)]


def _integrity(conn: Any, report: Report, tables: Sequence[str]) -> list[IntegrityRow]:
    """The period's integrity warnings and resets, by shift (in the order shifts run), then time."""
    where, params = _where(report.period, tables, ("alarm", "command"))
    rows = conn.execute(
        f"SELECT table_id, ts, seq, round, kind, data FROM events WHERE {where} AND ("
        f"(kind = 'alarm' AND data->>'code' = ANY(%s)) OR (kind = 'command' AND data->>'name' = ANY(%s))) "
        f"ORDER BY ts, table_id, seq",
        [*params, [*INTEGRITY_WARNINGS, *INTEGRITY_RESETS], list(INTEGRITY_COMMANDS)]).fetchall()
    out = []
    for table, ts, seq, round_, kind, data in rows:
        local = ts.astimezone(report.zone)
        day, shift = report.shifts.of(local)
        if kind == "alarm":
            code = _text(data, "code")
            what = "warning" if code in INTEGRITY_WARNINGS else "reset"
            message = _text(data, "message")
        else:
            code, what = _text(data, "name"), "reset"
            message = "done" if data.get("ok") is True else f"refused: {_text(data, 'error')}"
            reset = data.get("reset")
            if data.get("ok") is True and isinstance(reset, Mapping):   # what it set aside (tables since issue 25)
                message = "done: " + _reset_words(reset)
        out.append(IntegrityRow(table, day, shift, local, seq, round_, what, code, message))
    out.sort(key=lambda r: (r.day, _shift_order(report.shifts, r.shift), r.time, r.table, r.seq))
    return out


def _reset_words(reset: Mapping[str, Any]) -> str:
    """A reset's ``reset`` in words: ``cup dice_cup, 812 throws set aside``, ``every wager, 812 rounds
    and 3 shuffled deals set aside``."""
    if "cup" in reset:
        return f"cup {_text(reset, 'cup')}, {reset.get('discarded')} throws set aside"
    wager = reset.get("wager")
    what = f"wager {_text(reset, 'wager')}" if isinstance(wager, str) else "every wager"
    shuffle = reset.get("shuffle_discarded")
    more = f" and {shuffle} shuffled deals" if isinstance(shuffle, int) else ""
    return f"{what}, {reset.get('discarded')} rounds{more} set aside"


def _object(report: Report, table: str, seq: int, kind: str, ts: datetime, data: Any) -> bool:
    """Whether a row's data is an object (the envelope's schema says it is); if not, it is named
    as a row the report cannot read."""
    if isinstance(data, Mapping):
        return True
    report.unreadable.append(UnreadableRow(table, seq, kind, ts.astimezone(report.zone),
                                           f"its data is {_json_type(data)}, not an object"))
    return False


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
