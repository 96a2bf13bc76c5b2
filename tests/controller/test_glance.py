"""The board at a glance (controller.pit.watch.glance, controller.pit.watch.screen): what one line of a table
says, fed message by message as `tablectl watch` feeds it, and how the frame shows an alarm with
colour and without. A line is the table's pit-board tile (controller.pit.board.picture; its rules are
tests/pit/test_board_picture.py's): here, that the terminal shows what the tile holds.
tests/e2e/test_watch_board.py runs it against real simulated tables."""

from __future__ import annotations

import io

from controller.pit.watch.glance import Glance
from controller.pit.watch.screen import ALARM, CLEAR_LINE, HOME, OFFLINE, RESET, Screen, board_lines, devices
from games.baccarat.rules import outcome
from games.cards import cards

NOW = 1_709_300_000.0


def env(seq: int, kind: str, data: dict, ts: float = NOW, round_: int | None = 1) -> dict:
    return {"seq": seq, "ts": ts, "table": "bac-01", "round": round_, "kind": kind, "data": data}


def result(player: str, banker: str) -> dict:
    return outcome(cards(player), cards(banker)).to_dict() | {"player_dealer": None}


def alarm(code: str, action: str = "call the pit", severity: str = "fault") -> dict:
    return {"code": code, "severity": severity, "message": f"{code} happened", "card": None, "expected": None,
            "missing": [], "extra": [], "action": action}


def fed(*messages: tuple[str, dict]) -> Glance:
    glance = Glance()
    glance.observe("bac-01", "status", {"online": True, "table": "bac-01", "birth": 3, "game": "baccarat",
                                        "devices": {"shoe": "online", "shuffler": "online"}})
    for what, body in messages:
        glance.observe("bac-01", what, body)
    return glance


def line(glance: Glance, table: str = "bac-01", now: float = NOW) -> str:
    """The table's line on the board as drawn (by a frame at ``now``)."""
    lines = board_lines("watching casino/+", glance.tables(), [], now)
    return next(text for text, _ in lines[2:] if table in text.split()[:2])


def words(glance: Glance, table: str = "bac-01", now: float = NOW) -> list[str]:
    """The words of the table's line before its last result: marker, table, game, online, state,
    round, hands/h, alarms, devices (a blank cell has no word)."""
    text = line(glance, table, now)
    results = next(t for t in glance.tables() if t["table"] == table)["results"]
    if results:
        assert text.endswith("  " + results[0]["summary"])
        text = text[: -len(results[0]["summary"])]
    return text.split()


def test_a_tables_line_holds_its_game_state_round_and_last_result() -> None:
    glance = fed(("state", {"table": "bac-01", "seq": 9, "ts": NOW, "state": "dealing", "round": 12}),
                 ("event", env(7, "result", result("2H 5C", "KD 6S"))),
                 ("event", env(3, "result", result("2H 4C", "3D 4S"))))   # replayed: older, not the last
    [t] = glance.tables()
    assert (t["table"], t["game"], t["online"], t["state"], t["round"]) == ("bac-01", "baccarat", True, "dealing", 12)
    assert devices(t) == "ok"
    assert words(glance) == ["bac-01", "baccarat", "online", "dealing", "12", "-", "ok"]
    assert line(glance).endswith(" ok       P 2H 5C = 7  |  B KD 6S = 6  ->  PLAYER")


def test_hands_per_hour_are_the_boards_pace_of_the_last_hour_by_the_tables_clock() -> None:
    """The pace the board's tile shows (docs/pit-board.md): results in the hour up to the last one,
    less one, over the time from the first to the last."""
    glance = fed(("event", env(1, "result", result("2H 5C", "KD 6S"), ts=NOW - 7200)))
    assert words(glance) == ["bac-01", "baccarat", "online", "?", "-", "ok"]   # one result: no pace yet
    for seq, ago in ((2, 1800), (3, 1200), (4, 600), (5, 0)):
        glance.observe("bac-01", "event", env(seq, "result", result("2H 5C", "KD 6S"), ts=NOW - ago))
    assert glance.tables()[0]["hands_per_hour"] == 6.0         # the first is over an hour before the last
    assert words(glance)[4] == "6"                             # 3 hands after the first in 1800 s, as the board
    assert words(glance, now=NOW + 3000)[4] == "6"             # a table that stopped keeps its pace
    glance.observe("bac-01", "event", env(6, "result", result("2H 5C", "KD 6S"), ts=NOW + 700))
    assert words(glance)[4] == "5.8"                           # 4 in 2500 s: 5.76, to one place


def test_an_alarm_is_open_by_the_boards_rules_and_every_alarm_is_noted_under_the_board() -> None:
    """A void clears the fault it was for; a critical alarm waits for the pit to open the table;
    an alarm replayed from before the table went on is noted but not open."""
    glance = fed(("event", env(10, "alarm", alarm("shoe_misread", "void the round"))),
                 ("event", env(11, "alarm", alarm("game_broken", "reopen the table", "critical"))))
    assert [a["code"] for a in glance.tables()[0]["alarms"]] == ["game_broken", "shoe_misread"]
    assert words(glance) == ["!!", "bac-01", "baccarat", "online", "?", "-", "2", "ok"]   # no round started yet
    glance.observe("bac-01", "event", env(12, "void", {"round": 1, "reason": "misread", "by": "pit"}))
    assert [a["code"] for a in glance.tables()[0]["alarms"]] == ["game_broken"]
    glance.observe("bac-01", "event", env(13, "round_start", {"round": 2, "player_dealer": None,
                                                               "last_of_shoe": False}, round_=2))
    glance.observe("bac-01", "event", env(9, "alarm", alarm("late_copy")))  # replayed from before: not open
    assert [a["code"] for a in glance.tables()[0]["alarms"]] == ["game_broken"]   # critical: the pit acts
    assert words(glance) == ["!!", "bac-01", "baccarat", "online", "?", "2", "-", "1", "ok"]
    glance.observe("bac-01", "event", env(14, "table", {"status": "open"}, round_=2))
    assert glance.tables()[0]["alarms"] == []
    assert words(glance) == ["bac-01", "baccarat", "online", "?", "2", "-", "ok"]   # no marker, no count
    glance.observe("bac-01", "event", env(15, "alarm", alarm("shoe_double_card")))
    glance.observe("bac-01", "event", env(16, "resume", {"round": 2, "by": "pit", "burned": []}, round_=2))
    assert glance.tables()[0]["alarms"] == []
    notes = glance.notices()
    assert [n.split(" ALARM ")[1].split(" |")[0] for n in notes] == [
        "fault shoe_misread", "critical game_broken", "fault late_copy", "fault shoe_double_card"]
    assert notes[0].endswith("bac-01 ALARM fault shoe_misread | do: void the round | shoe_misread happened")


def test_devices_and_a_table_that_goes_away() -> None:
    glance = fed(("event", env(4, "device", {"device": "shoe", "status": "fault", "code": "jam", "detail": ""})))
    assert line(glance).endswith("shoe jam")          # a fault the device reported: it is there to report it
    assert glance.tables()[0]["devices"] == {"shoe": "online", "shuffler": "online"}
    glance.observe("bac-01", "status", {"online": False, "table": "bac-01", "birth": 3})
    assert glance.tables()[0]["online"] is False and words(glance)[2] == "OFFLINE"
    glance.observe("bac-01", "status", {})   # its retained status cleared
    assert glance.tables() == []


def test_the_frame_marks_an_alarm_in_text_and_colour() -> None:
    glance = fed(("event", env(10, "alarm", alarm("shoe_misread"))))
    glance.observe("bj-02", "status", {"online": False, "table": "bj-02", "birth": 1})
    lines = board_lines("watching casino/+", glance.tables(), glance.notices(), NOW)
    assert lines[0][0].startswith("watching casino/+  |  2 tables, 1 needs attention  |  ")
    assert lines[1][0].split() == ["TABLE", "GAME", "ONLINE", "STATE", "ROUND", "HANDS/H", "ALARMS", "DEVICES",
                                   "LAST", "RESULT"]
    assert lines[2][0].split()[:5] == ["!!", "bac-01", "baccarat", "online", "?"] and lines[2][1] == "alarm"
    assert lines[3] == ("     shoe_misread happened", "alarm")      # what is wrong, under its table's line
    assert lines[4][0].split()[:3] == ["bj-02", "?", "OFFLINE"] and lines[4][1] == "offline"
    assert lines[-2:] == [("recent:", ""), (lines[-1][0], "")] and "ALARM fault shoe_misread" in lines[-1][0]

    out = io.StringIO()
    Screen(glance, out, "watching casino/+", tty=True, colour=True, width=lambda: 60).close()
    frame = out.getvalue()
    alarm_line = next(line for line in frame.split("\n") if "bac-01" in line)
    assert alarm_line.startswith(ALARM + "!!") and alarm_line.endswith(RESET + CLEAR_LINE)
    assert len(alarm_line) - len(ALARM + RESET + CLEAR_LINE) == 59   # cut to the width: no line wraps
    assert next(line for line in frame.split("\n") if "bj-02" in line).startswith(OFFLINE)
    assert HOME in frame

    plain = io.StringIO()
    Screen(glance, plain, "watching casino/+", tty=False, colour=False).close()
    assert "\x1b" not in plain.getvalue() and "!!  bac-01" in plain.getvalue()


def test_what_a_table_published_cannot_drive_the_terminal() -> None:
    """An alarm's message is any string a table sent: an escape sequence in it is shown, not obeyed."""
    glance = fed(("event", env(10, "alarm", {**alarm("shoe_misread"), "message": "\x1b[2Jgone\nnext line"})),
                 ("state", {"table": "bac-01", "seq": 10, "ts": NOW, "state": "fault\x1b[31m", "round": 1}))
    out = io.StringIO()
    Screen(glance, out, "watching casino/+", tty=True, colour=False, width=lambda: 200).close()
    frame = out.getvalue()
    assert "\\x1b[2Jgone\\nnext line" in frame and "fault\\x1b[31m" in frame
    ours = frame.replace("\x1b[2J\x1b[H", "").replace(CLEAR_LINE, "").replace("\x1b[J", "")
    assert "\x1b" not in ours
