"""`tablectl report`'s integrity section (issue 25.3) against a real PostgreSQL: a small site's
archive written by hand, and the section worked out by hand from it (Europe/Berlin, UTC+1 in March
2024; shifts day 06-14, swing 14-22, grave 22-06).

The site (local times):

- tcp-01, Three Card Poker: an ``outcome_bias`` warning at 10:00 on 1 March and the pit's
  ``integrity_reset`` at 10:05 (done), a ``shuffle_suspect`` at 13:59:59 (still the day shift), a
  ``shoe_misread`` fault at 14:00 (no integrity alarm: left out), a ``void`` command at 14:01 (not an
  integrity command: left out), an ``integrity_reset`` refused at 23:30 and an ``outcome_counts_reset``
  the table raised itself at 05:00 on 2 March (both the grave shift of 1 March).
- hot-01, Hot Action (a dice cup): ``dice_bias`` at 14:30, the pit's ``dice_reset`` at 14:45 and the
  table's ``dice_counts_reset`` (another cup's serial) at 14:46, all in the swing shift.
"""

from __future__ import annotations

import csv
import io
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from archive_rows import ArchiveRows

from controller.pit.report.output import write_csv, write_text
from controller.pit.report.query import Period, build
from controller.pit.report.shifts import DEFAULT_SHIFTS, Shifts

BERLIN = ZoneInfo("Europe/Berlin")
SHIFTS = Shifts.parse(DEFAULT_SHIFTS)


def alarm(code: str, message: str, severity: str = "warning") -> dict:
    return {"code": code, "severity": severity, "message": message, "card": None, "expected": None, "missing": [],
            "extra": [], "action": "look at the figures on the table's page"}


def command(name: str, ok: bool, error: str | None = None) -> dict:
    return {"name": name, "id": f"req-{name}", "ok": ok, "error": error}


BIAS = "player_dealer_hand: straight came 31 times in 600 rounds, 19.6 expected (p = 0.0004)"
SUSPECT = "shoe 7: 61 pairs kept within 3 cards against 22.0 expected (p = 2e-09)"
DICE = "dice cup die 2: chi-square 31.2 after 600 throws (p = 8.5e-06); face 6 came 141 times, 100 expected"


def t(when: str) -> str:
    return f"2024-{when}+01:00"


@pytest.fixture
def site(pg_url: str) -> str:
    rows = ArchiveRows(pg_url)
    rows.table("tcp-01", "three_card_poker")
    rows.table("hot-01", "hot_action")
    e = rows.event
    e("tcp-01", t("03-01T10:00"), "alarm", alarm("outcome_bias", BIAS), 40)                        # seq 1
    e("tcp-01", t("03-01T10:05"), "command", command("integrity_reset", True))                     # 2
    e("tcp-01", t("03-01T13:59:59"), "alarm", alarm("shuffle_suspect", SUSPECT), 77)               # 3
    e("tcp-01", t("03-01T14:00"), "alarm", alarm("shoe_misread", "a card left the shoe unread", "fault"), 78)
    e("tcp-01", t("03-01T14:01"), "command", command("void", True))                                # 5
    e("tcp-01", t("03-01T23:30"), "command", command("integrity_reset", False,
                                                     "no counted wager named 'pair_plus' at this table"))  # 6
    e("tcp-01", t("03-02T05:00"), "alarm", alarm("outcome_counts_reset", "the journal's counts were "
                                                 "for other options; counted again from now"))      # 7
    e("hot-01", t("03-01T14:30"), "alarm", alarm("dice_bias", DICE), 12)                           # 1
    e("hot-01", t("03-01T14:45"), "command", {**command("dice_reset", True),                       # 2
                                              "reset": {"cup": "dice_cup", "discarded": 612}})
    e("hot-01", t("03-01T14:46"), "alarm", alarm("dice_counts_reset", "the dice_cup says serial B7: another "
                                                 "cup than the one counted"))                      # 3
    rows.close()
    return pg_url


def report(url: str, since: str | None = None, until: str | None = None, tables: tuple[str, ...] = ()):
    import psycopg

    period = Period(datetime.fromisoformat(since) if since else None, datetime.fromisoformat(until) if until else None)
    with psycopg.connect(url) as conn:
        return build(conn, period, BERLIN, "Europe/Berlin", SHIFTS, tables, ("integrity",))


def local(text: str) -> datetime:
    return datetime.fromisoformat(f"2024-{text}").replace(tzinfo=BERLIN)


def test_warnings_and_resets_by_shift_in_the_order_shifts_run(site: str) -> None:
    got = [(r.day, r.shift.name, r.table, r.time, r.seq, r.round, r.what, r.code, r.message)
           for r in report(site).integrity]
    day = date(2024, 3, 1)
    assert got == [
        (day, "day", "tcp-01", local("03-01T10:00"), 1, 40, "warning", "outcome_bias", BIAS),
        (day, "day", "tcp-01", local("03-01T10:05"), 2, None, "reset", "integrity_reset", "done"),
        (day, "day", "tcp-01", local("03-01T13:59:59"), 3, 77, "warning", "shuffle_suspect", SUSPECT),
        (day, "swing", "hot-01", local("03-01T14:30"), 1, 12, "warning", "dice_bias", DICE),
        (day, "swing", "hot-01", local("03-01T14:45"), 2, None, "reset", "dice_reset",
         "done: cup dice_cup, 612 throws set aside"),   # a table that says what it set aside (the other: older)
        (day, "swing", "hot-01", local("03-01T14:46"), 3, None, "reset", "dice_counts_reset",
         "the dice_cup says serial B7: another cup than the one counted"),
        (day, "grave", "tcp-01", local("03-01T23:30"), 6, None, "reset", "integrity_reset",
         "refused: no counted wager named 'pair_plus' at this table"),
        (day, "grave", "tcp-01", local("03-02T05:00"), 7, None, "reset", "outcome_counts_reset",
         "the journal's counts were for other options; counted again from now"),
    ]


def test_a_period_and_a_table_narrow_it(site: str) -> None:
    assert [(r.table, r.seq) for r in report(site, since=t("03-01T14:00"), until=t("03-01T23:00")).integrity] == [
        ("hot-01", 1), ("hot-01", 2), ("hot-01", 3)]
    assert [r.seq for r in report(site, tables=("tcp-01",)).integrity] == [1, 2, 3, 6, 7]


def test_as_text_blocks_by_shift_and_says_when_there_is_none(site: str) -> None:
    out = io.StringIO()
    write_text(report(site), ("integrity",), out)
    lines = out.getvalue().splitlines()
    head = lines.index("INTEGRITY WARNINGS AND RESETS BY SHIFT")
    assert lines[head + 2].split() == ["SHIFT_DATE", "SHIFT", "TABLE", "TIME", "SEQ", "ROUND", "WHAT", "CODE", "MESSAGE"]
    assert lines[head + 3].split()[:9] == ["2024-03-01", "day", "tcp-01", "2024-03-01", "10:00:00", "CET", "1", "40",
                                           "warning"]
    assert lines[head + 4].split()[:7] == ["tcp-01", "2024-03-01", "10:05:00", "CET", "2", "reset", "integrity_reset"]
    assert lines[head + 4].startswith(" ")   # the block's shift left blank
    assert lines[head + 6].split()[:2] == ["2024-03-01", "swing"]
    out = io.StringIO()
    write_text(report(site, since=t("03-02T06:00")), ("integrity",), out)
    assert "  no integrity warning in the period" in out.getvalue().splitlines()


def test_as_csv_every_row_whole_with_its_zone(site: str) -> None:
    out = io.StringIO()
    assert write_csv(report(site, tables=("hot-01",)), "integrity", out) == 3
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[0] == ["shift_date", "shift", "table", "time", "seq", "round", "what", "code", "message", "zone"]
    assert rows[1] == ["2024-03-01", "swing", "hot-01", "2024-03-01 14:30:00+01:00", "1", "12", "warning", "dice_bias",
                       DICE, "Europe/Berlin"]
    assert rows[2][:8] == ["2024-03-01", "swing", "hot-01", "2024-03-01 14:45:00+01:00", "2", "", "reset", "dice_reset"]
