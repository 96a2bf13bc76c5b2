"""``tablectl report --db URL``: the options, and every way they can be wrong said in one line.

A report is run by hand or from cron by someone who is not its author: a wrong URL, a database
that is down or is not the archive, a date mistyped, each ends with one line naming it and exit
2, never a traceback. psycopg is imported only when the command runs (it is the ``pit`` extra,
not installed on a table's Pi, where `tablectl --help` must still work). A row of the archive the
report cannot read is no error: it is named (in the text, or on stderr beside CSV) and the
report exits 0 with the rest, as a night's accounting must not wait for one bad payload.
"""

from __future__ import annotations

import argparse
import math
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from controller.pit.dburl import scrub, shown
from controller.pit.report.output import missing_note, unreadable_lines, write_csv, write_text
from controller.pit.report.query import IDLE, SECTIONS, ArchiveError, Period, build, check_archive
from controller.pit.report.shifts import DEFAULT_SHIFTS, ShiftError, Shifts, parse_moment, site_zone
from controller.shared.schemas import TABLE_ID

CONNECT_TIMEOUT = 10
"""Seconds to reach the database before saying it cannot be reached (a host that drops packets
would otherwise hold the command for minutes)."""


class UsageError(Exception):
    """An option the report cannot use: one line, exit 2."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", required=True, metavar="URL",
                   help="the pit archive, postgresql://USER@HOST[:PORT]/DBNAME (a password from ~/.pgpass "
                        "or PGPASSWORD, not the command line, where ps shows it)")
    p.add_argument("--since", metavar="ISO", help="from this date or time on (default: the first event); "
                   "without an offset, in --tz")
    p.add_argument("--until", metavar="ISO", help="up to, not including, this date or time (default: the last "
                   "event)")
    p.add_argument("--table", nargs="+", action="extend", default=[], metavar="ID",
                   help="only these tables (default: every table)")
    p.add_argument("--tz", metavar="ZONE", help="the site's time zone, for clock hours and shifts (IANA, such as "
                   "Europe/Berlin; default: this machine's)")
    p.add_argument("--shifts", default=DEFAULT_SHIFTS, metavar="SPEC",
                   help=f"NAME=HH[:MM]-HH[:MM],... covering the day once (default {DEFAULT_SHIFTS})")
    p.add_argument("--idle", type=float, default=IDLE.total_seconds() / 60, metavar="MINUTES",
                   help=f"the longest wait between one hand and the next deal that still counts as dealing, for "
                        f"hands per hour (default {IDLE.total_seconds() / 60:g})")
    p.add_argument("--format", choices=("text", "csv"), default="text")
    p.add_argument("--only", action="append", choices=SECTIONS, metavar="SECTION",
                   help=f"only this section (repeatable): {', '.join(SECTIONS)}")
    p.add_argument("--out", type=Path, metavar="DIR",
                   help="with --format csv: write one file per section, DIR/<section>.csv (needed for more "
                        "than one section; one section goes to stdout)")


def cmd_report(args: argparse.Namespace) -> int:
    try:
        return _report(args)
    except (UsageError, ShiftError, ArchiveError) as exc:
        print(f"tablectl report: {exc}", file=sys.stderr)
        return 2


def _report(args: argparse.Namespace) -> int:
    sections = tuple(s for s in SECTIONS if s in args.only) if args.only else SECTIONS
    zone, zone_name = site_zone(args.tz)
    try:
        shifts = Shifts.parse(args.shifts)
    except ShiftError as exc:
        raise UsageError(f"--shifts {args.shifts!r}: {exc}") from None
    if not math.isfinite(args.idle) or not 0 < args.idle <= 24 * 60:
        raise UsageError(f"--idle {args.idle:g}: minutes between 0 and {24 * 60} (a day)")
    since = parse_moment(args.since, zone, "--since") if args.since else None
    until = parse_moment(args.until, zone, "--until") if args.until else None
    if since is not None and until is not None and until <= since:
        raise UsageError(f"--until {args.until} is not after --since {args.since}: the period is empty")
    for table in args.table:
        if not TABLE_ID.fullmatch(table):
            raise UsageError(f"--table {table!r}: not a table id (letters, digits, _ and -, at most 64)")
    if args.format == "csv" and args.out is None and len(sections) > 1:
        raise UsageError("CSV is one section per file: give --out DIR for all of them, or --only SECTION "
                         "for one on stdout")
    if args.out is not None and args.format != "csv":
        raise UsageError("--out is for --format csv (text goes to stdout)")
    url = _check_url(args.db)
    try:
        import psycopg
    except ImportError:
        raise UsageError("the report reads PostgreSQL through psycopg, which is not installed: "
                         "pip install 'tablectl[pit]'") from None
    try:
        conn = psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT)
    except psycopg.Error as exc:
        raise UsageError(f"cannot open the archive at {shown(url)}: {scrub(str(exc), url)}") from None
    try:
        with conn:
            # One read-only snapshot: every section sees the same archive while the pit service writes.
            conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
            conn.read_only = True
            check_archive(conn)
            report = build(conn, Period(since, until), zone, zone_name, shifts, args.table, sections,
                           idle=timedelta(minutes=args.idle))
    except psycopg.Error as exc:
        print(f"tablectl report: reading the archive at {shown(url)} failed: {scrub(str(exc), url)}",
              file=sys.stderr)
        return 1
    finally:
        conn.close()
    return _write(report, sections, args)


def _write(report: Any, sections: tuple[str, ...], args: argparse.Namespace) -> int:
    if args.format == "text":
        write_text(report, sections, sys.stdout)
        return 0
    if args.out is None:
        write_csv(report, sections[0], sys.stdout)
    else:
        try:
            args.out.mkdir(exist_ok=True)
            for name in sections:
                path = args.out / f"{name}.csv"
                with path.open("w", newline="", encoding="utf-8") as f:
                    rows = write_csv(report, name, f)
                print(f"{path}: {rows} rows")
        except OSError as exc:
            raise UsageError(f"--out {args.out}: {exc.strerror}: {exc.filename}") from None
    if "gaps" not in sections and report.gaps:
        print(missing_note(report), file=sys.stderr)
    for line in unreadable_lines(report):
        print(line, file=sys.stderr)
    return 0


def _check_url(url: str) -> str:
    """A PostgreSQL URL, checked before anything is tried (libpq's own error for ``mysql://x`` is
    about a missing ``=``)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (a port that is not a number raises here, before libpq sees it)
    except ValueError as exc:
        raise UsageError(f"--db {shown(url)}: not a PostgreSQL URL ({scrub(str(exc), url)})") from None
    if parts.scheme not in ("postgresql", "postgres") or not parts.path.strip("/"):
        raise UsageError(f"--db {shown(url)}: not a PostgreSQL URL such as postgresql://pit@db.example/pit "
                         f"(scheme postgresql, and the database's name)")
    return url
