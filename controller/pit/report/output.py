"""The report as people read it (aligned text) and as spreadsheets read it (CSV).

Each section is one table with its own columns, defined once here for both formats. CSV is one
section per file (``hands.csv``, ``results.csv`` ...): sections have different columns, and a
file a spreadsheet opens as it is has one header row. Every CSV row is whole (the table and the
shift on each), where the text leaves a repeated table or shift blank so the eye finds the
blocks.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import IO

from controller.pit.columns import columns
from controller.pit.report.query import Report


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
    rows: Callable[[Report], list[list[object]]]
    empty: str


def _time(moment: datetime | None, spec: str = "seconds") -> str:
    return "" if moment is None else moment.isoformat(sep=" ", timespec=spec)


def _hands(r: Report) -> list[list[object]]:
    return [[h.table, _time(h.hour, "minutes"), h.hands, h.voids] for h in r.hands]


def _results(r: Report) -> list[list[object]]:
    out: list[list[object]] = []
    for b in r.results:
        head = [b.table, b.game or "", b.day.isoformat(), b.shift.name, b.hands, b.voids]
        if not b.outcomes:
            out.append([*head, "", "", "", ""])
        for (wager, outcome, terms), count in sorted(b.outcomes.items()):
            out.append([*head, wager, outcome, terms, count])
    return out


def _alarms(r: Report) -> list[list[object]]:
    return [[a.table, _time(a.time), a.seq, a.round or "", a.event, a.severity, a.code, a.by, a.reason, a.action]
            for a in r.alarms]


def _rotation(r: Report) -> list[list[object]]:
    return [[p.table, _time(p.time), p.seq, p.round or "", p.seat or "", p.change, p.consecutive]
            for p in r.rotation]


def _gaps(r: Report) -> list[list[object]]:
    return [[g.table, g.first_seq, g.last_seq, g.missing, g.status, g.reason, g.asked, _time(g.after),
             _time(g.before), _time(g.opened_at), _time(g.closed_at)] for g in r.gaps]


SECTIONS: dict[str, Section] = {s.name: s for s in (
    Section("hands", "Hands per hour",
            "a hand is a round that reached its result; a voided round is no hand and counts under voids",
            ("table", "hour", "hands", "voids"), frozenset({"hands", "voids"}), 1, _hands,
            "no hand and no void in the period"),
    Section("results", "Results by table and shift",
            "each wager's outcome as the tables' result events carry it; terms: what a win pays, or "
            "the part of the stake an outcome applies to",
            ("table", "game", "shift_date", "shift", "hands", "voids", "wager", "outcome", "terms", "count"),
            frozenset({"hands", "voids", "count"}), 6, _results, "no hand and no void in the period"),
    Section("alarms", "Alarms and voids",
            "every alarm with its severity, code, message and the action it asked for; every voided "
            "round with its reason and who voided it",
            ("table", "time", "seq", "round", "event", "severity", "code", "by", "reason", "action"),
            frozenset({"seq", "round"}), 1, _alarms, "no alarm and no void in the period"),
    Section("rotation", "Player-dealer rotation",
            "who was offered the player-dealer position, who passed, accepted or kept it, and the "
            "consecutive rounds that seat had banked",
            ("table", "time", "seq", "round", "seat", "change", "consecutive"),
            frozenset({"seq", "round", "seat", "consecutive"}), 1, _rotation,
            "no player-dealer event in the period"),
    Section("gaps", "Gaps: events the archive does not hold",
            "seqs the archive lacks: open ones are still asked for, unfillable ones the table could no "
            "longer give; the counts above are short by what they held; after and before: the times of "
            "the events around them",
            ("table", "first_seq", "last_seq", "missing", "status", "reason", "asked", "after", "before",
             "opened_at", "closed_at"),
            frozenset({"first_seq", "last_seq", "missing", "asked"}), 1, _gaps,
            "none: the archive holds every event of the period"),
)}


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
    spreadsheet would read as a formula are written as text (:func:`_cell`)."""
    s = SECTIONS[section]
    writer = csv.writer(out)
    writer.writerow(s.columns)
    rows = s.rows(report)
    writer.writerows([_cell(v) for v in row] for row in rows)
    return len(rows)


def write_text(report: Report, sections: Sequence[str], out: IO[str]) -> None:
    p = report.period
    since = _time(p.since.astimezone(report.zone)) if p.since else "the first event"
    until = _time(p.until.astimezone(report.zone)) if p.until else "the last event"
    out.write(f"Pit report from {since} to {until} (tables' clocks, shown in {report.zone_name})\n")
    out.write(f"Shifts: {report.shifts}\n")
    for name in sections:
        s = SECTIONS[name]
        out.write(f"\n{s.title.upper()}\n({s.note})\n")
        rows = s.rows(report)
        if not rows:
            out.write(f"  {s.empty}\n")
            continue
        for line in columns(s.columns, rows, s.numeric, s.group):
            out.write(line + "\n")
    if "gaps" not in sections and report.gaps:
        out.write("\n" + missing_note(report) + "\n")


def missing_note(report: Report) -> str:
    """One line for a report shown without its gaps section: what the archive is missing."""
    seqs = sum(g.missing for g in report.gaps)
    tables = sorted({g.table for g in report.gaps})
    unfillable = sum(1 for g in report.gaps if g.status == "unfillable")
    gaps = len(report.gaps)
    return (f"MISSING: {seqs} event{'s' if seqs != 1 else ''} of {', '.join(tables)} {'are' if seqs != 1 else 'is'} "
            f"not in the archive ({gaps} gap{'s' if gaps != 1 else ''}, {unfillable} unfillable): the counts are "
            f"short by them; tablectl report --only gaps")
