"""The report as people read it (aligned text) and as spreadsheets read it (CSV).

Each section is one table with its own columns, defined once here for both formats. CSV is one
section per file (``hands.csv``, ``results.csv`` ...): sections have different columns, and a
file a spreadsheet opens as it is has one header row. Every CSV row is whole (the table and the
shift on each), where the text leaves a repeated table or shift blank so the eye finds the
blocks.

The formats differ in their cells only (:class:`CsvCells`, :class:`TextCells`): a time in CSV is
ISO 8601 with its offset, for a program, and the section has a ``zone`` column; in text it is
the wall clock with the zone's abbreviation (``2026-11-01 01:30 PDT``), because an offset alone
(``01:30-07:00``) reads as a range, and the abbreviation is what tells the two 01:30s apart the
night the clocks go back; the report's first line says what each abbreviation stands for. Money
is dollars as the games print it (``$4.00``) in text, a plain number (``4.00``) in CSV.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import IO

from controller.pit.columns import columns
from controller.pit.report.query import Report, ShiftBlock
from controller.pit.report.shifts import utc_offset, zone_label


class CsvCells:
    """Cells for a program: ISO 8601 times with their offset, money as a plain number of dollars."""

    def time(self, moment: datetime | None, spec: str = "seconds") -> str:
        return "" if moment is None else moment.isoformat(sep=" ", timespec=spec)

    def money(self, cents: int) -> str:
        return f"{cents // 100}.{cents % 100:02d}"


class TextCells(CsvCells):
    """Cells for people: the wall clock and the zone's abbreviation, money as the games print it
    (``$4.00``; a shift's total with its thousands marked, ``$6,516.00``).

    ``long`` adds the offset to every time (``01:30 PST (UTC-08:00)``): the report falls back to
    it when one abbreviation stood for two offsets in what it printed (a zone whose rules
    changed), where the abbreviation alone would not tell two times apart."""

    def __init__(self, long: bool = False) -> None:
        self.long = long
        self.seen: dict[str, set[timedelta]] = {}
        """Abbreviation -> the offsets it stood for in what was printed."""

    def time(self, moment: datetime | None, spec: str = "seconds") -> str:
        if moment is None:
            return ""
        label = zone_label(moment)
        wall = moment.strftime("%Y-%m-%d %H:%M" if spec == "minutes" else "%Y-%m-%d %H:%M:%S")
        if label.startswith("UTC"):       # an offset already, or UTC itself: nothing to explain
            return f"{wall} {label}"
        self.seen.setdefault(label, set()).add(moment.utcoffset() or timedelta(0))
        return f"{wall} {label} ({utc_offset(moment)})" if self.long else f"{wall} {label}"

    def money(self, cents: int) -> str:
        return f"${cents // 100:,}.{cents % 100:02d}"

    @property
    def ambiguous(self) -> bool:
        return any(len(offsets) > 1 for offsets in self.seen.values())

    def legend(self) -> str:
        """``PST = UTC-08:00, PDT = UTC-07:00``: what the abbreviations printed stand for, west to east."""
        pairs = sorted((offset, label) for label, offsets in self.seen.items() for offset in offsets)
        return ", ".join(f"{label} = {utc_offset(datetime(2000, 1, 1, tzinfo=timezone(offset)))}"
                         for offset, label in pairs)


Cells = CsvCells


@dataclass(frozen=True)
class Section:
    name: str
    title: str
    note: str
    columns: tuple[str, ...]
    numeric: frozenset[str]
    """Columns right-aligned in text."""
    group: int
    """Leading columns left blank in text when they repeat the row above."""
    rows: Callable[[Report, Cells], list[list[object]]]
    empty: str
    times: bool = False
    """The section shows times: its CSV has a ``zone`` column, the site's zone name."""


def _hours(value: float) -> str:
    return f"{value:.2f}"


def _rate(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def _hands(r: Report, c: Cells) -> list[list[object]]:
    return [[h.table, c.time(h.hour, "minutes"), h.hands, h.voids] for h in r.hands]


def _pace(r: Report, c: Cells) -> list[list[object]]:
    return [[b.table, b.game or "", b.day.isoformat(), b.shift.name, c.time(b.dealing_from, "minutes"),
             c.time(b.dealing_to, "minutes"), _hours(b.hours), b.hands, b.voids, _rate(b.hands_per_hour), b.gaps]
            for b in r.pace]


def _results(r: Report, c: Cells) -> list[list[object]]:
    out: list[list[object]] = []
    for b in r.results:
        head = [b.table, b.game or "", b.day.isoformat(), b.shift.name, b.hands, b.voids]
        if not b.outcomes:
            out.append([*head, "", "", "", ""])
        for (wager, outcome, terms), count in sorted(b.outcomes.items()):
            out.append([*head, wager, outcome, terms, count])
    return out


def _money_cells(b: ShiftBlock, c: Cells) -> list[object]:
    return [b.hands, b.voids, c.money(b.fees), b.fee_hands, c.money(b.time), b.time_hands, b.periods,
            c.money(b.jackpot), b.jackpot_hands, c.money(b.total)]


def _collections(r: Report, c: Cells) -> list[list[object]]:
    if not r.collections:
        return []
    rows: list[list[object]] = [[b.table, b.game or "", b.day.isoformat(), b.shift.name, *_money_cells(b, c),
                                 b.gaps] for b in r.collections]
    total = ShiftBlock("TOTAL", None, r.collections[0].day, r.collections[0].shift)
    for b in r.collections:
        for name in ("hands", "voids", "fees", "fee_hands", "time", "time_hands", "periods", "jackpot",
                     "jackpot_hands"):
            setattr(total, name, getattr(total, name) + getattr(b, name))
    gaps = {(b.table, first) for b in r.collections for first in b.gap_runs}   # a gap across shifts once
    rows.append(["TOTAL", "", "", "", *_money_cells(total, c), len(gaps)])
    return rows


def _alarms(r: Report, c: Cells) -> list[list[object]]:
    return [[a.table, c.time(a.time), a.seq, a.round or "", a.event, a.severity, a.code, a.by, a.reason, a.action]
            for a in r.alarms]


def _rotation(r: Report, c: Cells) -> list[list[object]]:
    return [[p.table, c.time(p.time), p.seq, p.round or "", p.seat or "", p.change, p.consecutive]
            for p in r.rotation]


def _integrity(r: Report, c: Cells) -> list[list[object]]:
    return [[i.day.isoformat(), i.shift.name, i.table, c.time(i.time), i.seq, i.round or "", i.what, i.code,
             i.message] for i in r.integrity]


def _gaps(r: Report, c: Cells) -> list[list[object]]:
    return [[g.table, g.first_seq, g.last_seq, g.missing, g.status, g.reason, g.asked, c.time(g.after),
             c.time(g.before), c.time(g.opened_at), c.time(g.closed_at)] for g in r.gaps]


def _unreadable(r: Report, c: Cells) -> list[list[object]]:
    return [[u.table, u.seq, u.kind, c.time(u.time), u.why] for u in r.unreadable]


SECTIONS: dict[str, Section] = {s.name: s for s in (
    Section("hands", "Hands by clock hour",
            "the hands that ended in each clock hour: a count, not a rate (the rate is under hands per hour); "
            "a hand is a round that reached its result; a voided round is no hand and counts under voids",
            ("table", "hour", "hands", "voids"), frozenset({"hands", "voids"}), 1, _hands,
            "no hand and no void in the period", times=True),
    Section("pace", "Hands per hour by table and shift",
            "hands over the hours the table was open and dealing: each stretch from a deal to the end of the "
            "last hand dealt within {idle} of the end of the hand before, cut where the table closed and where "
            "a shift ends; from and to: the first and the last moment dealing in the shift; gaps: runs of events "
            "the archive lacks there (the counts may be short)",
            ("table", "game", "shift_date", "shift", "dealing_from", "dealing_to", "hours_dealing", "hands",
             "voids", "hands_per_hour", "gaps"),
            frozenset({"hours_dealing", "hands", "voids", "hands_per_hour", "gaps"}), 2, _pace,
            "no hand and no void in the period", times=True),
    Section("results", "Results by table and shift",
            "each wager's outcome as the tables' result events carry it; terms: what a win pays, or "
            "the part of the stake an outcome applies to",
            ("table", "game", "shift_date", "shift", "hands", "voids", "wager", "outcome", "terms", "count"),
            frozenset({"hands", "voids", "count"}), 6, _results, "no hand and no void in the period"),
    Section("collections", "Collections by table and shift",
            "what the poker room's tables published, in dollars: the house's fees (pot fees by the schedule, "
            "the players' collections, Panguingue's fee) and the jackpot drops from each played hand's result "
            "(a voided hand collects none: its redeal does), the time collections as each hand started "
            "(voided ones too); *_hands: the hands each came from; periods: the seats' time periods paid; "
            "total: all three (the jackpot is the players' fund, not the house's)",
            ("table", "game", "shift_date", "shift", "hands", "voids", "fees", "fee_hands", "time", "time_hands",
             "periods", "jackpot", "jackpot_hands", "total", "gaps"),
            frozenset({"hands", "voids", "fees", "fee_hands", "time", "time_hands", "periods", "jackpot",
                       "jackpot_hands", "total", "gaps"}), 2, _collections,
            "no table published a collection in the period"),
    Section("alarms", "Alarms and voids",
            "every alarm with its severity, code, message and the action it asked for; every voided "
            "round with its reason and who voided it",
            ("table", "time", "seq", "round", "event", "severity", "code", "by", "reason", "action"),
            frozenset({"seq", "round"}), 1, _alarms, "no alarm and no void in the period", times=True),
    Section("rotation", "Player-dealer rotation",
            "who was offered the player-dealer position, who passed, accepted or kept it, and the "
            "consecutive rounds that seat had banked",
            ("table", "time", "seq", "round", "seat", "change", "consecutive"),
            frozenset({"seq", "round", "seat", "consecutive"}), 1, _rotation,
            "no player-dealer event in the period", times=True),
    Section("integrity", "Integrity warnings and resets by shift",
            "the integrity monitors' warnings (dice_bias: a die; outcome_bias: a wager's outcomes against the exact "
            "odds; shuffle_suspect: a shuffle that kept the order of the deal before) and their counts starting "
            "afresh: the pit's dice_reset and integrity_reset (done, or refused with the table's reason) and the "
            "table's own *_counts_reset; a reset soon after a warning may have set aside what it found",
            ("shift_date", "shift", "table", "time", "seq", "round", "what", "code", "message"),
            frozenset({"seq", "round"}), 2, _integrity, "no integrity warning in the period", times=True),
    Section("gaps", "Gaps: events the archive does not hold",
            "seqs the archive lacks: open ones are still asked for, unfillable ones the table could no "
            "longer give; the counts above are short by what they held; after and before: the times of "
            "the events around them",
            ("table", "first_seq", "last_seq", "missing", "status", "reason", "asked", "after", "before",
             "opened_at", "closed_at"),
            frozenset({"first_seq", "last_seq", "missing", "asked"}), 1, _gaps,
            "none: the archive holds every event of the period", times=True),
)}

UNREADABLE = Section("unreadable", "Rows the report could not read",
                     "left out of every count above: the archive holds them, the report does not know their shape",
                     ("table", "seq", "kind", "time", "why"), frozenset({"seq"}), 1, _unreadable, "", times=True)


FORMULA = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula (OWASP's CSV injection list)."""


def _cell(value: object) -> object:
    """A text cell a spreadsheet would run as a formula, with a leading ``'`` so it shows as text.

    Alarm messages and void reasons come from the tables (and a dealer's keypad): a reason of
    ``=HYPERLINK(...)`` must not become a live link, or worse, in the pit manager's spreadsheet.
    Numbers (ints) stay numbers: only ``str`` cells are touched."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA) else value


def write_csv(report: Report, section: str, out: IO[str]) -> int:
    """One section as CSV (RFC 4180, a header row); returns the rows written. Text cells that a
    spreadsheet would read as a formula are written as text (:func:`_cell`). A section with times
    ends each row with the site's zone."""
    s = SECTIONS[section]
    writer = csv.writer(out)
    writer.writerow([*s.columns, "zone"] if s.times else s.columns)
    rows = s.rows(report, CsvCells())
    if s.times:
        rows = [[*row, report.zone_name] for row in rows]
    writer.writerows([_cell(v) for v in row] for row in rows)
    return len(rows)


def write_text(report: Report, sections: Sequence[str], out: IO[str]) -> None:
    """Every section asked for, the rows the report could not read if there are any, and what the
    archive is missing when the gaps are not among the sections."""
    cells = TextCells()
    body = _text_body(report, sections, cells)
    if cells.ambiguous:
        cells = TextCells(long=True)
        body = _text_body(report, sections, cells)
    legend = cells.legend()
    out.write(f"{body[0]} (tables' clocks, shown in {report.zone_name}{': ' + legend if legend else ''})\n")
    for line in body[1:]:
        out.write(line + "\n")


def _text_body(report: Report, sections: Sequence[str], cells: TextCells) -> list[str]:
    p = report.period
    since = cells.time(p.since.astimezone(report.zone)) if p.since else "the first event"
    until = cells.time(p.until.astimezone(report.zone)) if p.until else "the last event"
    lines = [f"Pit report from {since} to {until}", f"Shifts: {report.shifts}"]
    shown = [SECTIONS[name] for name in sections] + ([UNREADABLE] if report.unreadable else [])
    for s in shown:
        note = s.note.format(idle=_minutes(report))
        lines += ["", s.title.upper(), f"({note})"]
        rows = s.rows(report, cells)
        if not rows:
            lines.append(f"  {s.empty}")
            continue
        lines += columns(s.columns, rows, s.numeric, s.group)
    if "gaps" not in sections and report.gaps:
        lines += ["", missing_note(report)]
    return lines


def _minutes(report: Report) -> str:
    minutes = round(report.idle.total_seconds() / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def missing_note(report: Report) -> str:
    """One line for a report shown without its gaps section: what the archive is missing."""
    seqs = sum(g.missing for g in report.gaps)
    tables = sorted({g.table for g in report.gaps})
    unfillable = sum(1 for g in report.gaps if g.status == "unfillable")
    gaps = len(report.gaps)
    return (f"MISSING: {seqs} event{'s' if seqs != 1 else ''} of {', '.join(tables)} {'are' if seqs != 1 else 'is'} "
            f"not in the archive ({gaps} gap{'s' if gaps != 1 else ''}, {unfillable} unfillable): the counts are "
            f"short by them; tablectl report --only gaps")


def unreadable_lines(report: Report) -> list[str]:
    """The rows the report could not read, one line each (for stderr, beside CSV)."""
    cells = CsvCells()
    return [f"UNREADABLE: {u.table} seq {u.seq} ({u.kind}, {cells.time(u.time)}): {u.why}; left out of every count"
            for u in report.unreadable]
