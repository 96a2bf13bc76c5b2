"""The truth on every tile (issue 22): a table's condition comes from what it is now -- its status,
its retained state and device events, its open alarms -- never from a cleared alarm alone; and the
board and `tablectl watch` show one model (controller.pit.board.picture ``condition``), so they
cannot disagree. Each sequence below is one a floor supervisor met on a simulated floor."""

from __future__ import annotations

from pit_support import Table

from controller.pit.board.picture import Picture, floor_order
from controller.pit.watch.glance import Glance
from controller.pit.watch.screen import board_lines


class Both:
    """The board's picture and watch's glance, fed the same messages."""

    def __init__(self) -> None:
        self.board = Picture()
        self.watch = Glance()

    def __call__(self, table: str, kind: str, body: dict) -> None:
        self.board(table, kind, body)
        self.watch.observe(table, kind, body)

    def tile(self, table: str = "bac-01") -> dict:
        return next(t for t in self.board.tiles()["tables"] if t["table"] == table)

    def shown(self, table: str = "bac-01") -> tuple[str, list[str]]:
        """The condition the board's tile holds, and checked equal to what watch draws of it."""
        cond = self.tile(table)["condition"]
        lines = board_lines("w", self.watch.tables(), [], 0.0)
        row = next(i for i, (text, _) in enumerate(lines) if table in text.split()[:2])
        marked = lines[row][0].startswith("!!")
        assert marked == (cond["level"] in ("critical", "fault", "warning")), (lines[row], cond)
        if marked:
            assert lines[row + 1][0].strip() == cond["problems"][0]["what"]
        return cond["level"], [p["what"] for p in cond["problems"]]


def fault_prompt(text: str) -> dict:
    return {"expect": "fault", "hand": None, "buttons": [], "text": f"Fault: {text}. To go on, the pit resumes."}


def test_a_table_waiting_in_fault_shows_so_whatever_its_alarm_did():
    """A table sat in fault for five minutes waiting for the pit, and its tile said "Devices OK"."""
    t, both = Table(), Both()
    both("bac-01", "status", t.status())
    both("bac-01", "event", t.alarm("unexpected_card", "fault", "9H drawn, but no card is due"))
    both("bac-01", "event", t.event("transition", {"from": "result", "to": "fault", "trigger": "fault_raised"}))
    both("bac-01", "event", t.event("prompt", fault_prompt("9H drawn, but no card is due")))
    assert both.shown() == ("fault", ["in fault: 9H drawn, but no card is due"])   # said once, not twice
    assert both.tile()["state_since"] == t.ts - 1
    both("bac-01", "event", t.event("resume", {"round": 1, "by": "pit", "burned": ["9H"]}))
    both("bac-01", "event", t.event("transition", {"from": "fault", "to": "result", "trigger": "resumed"}))
    assert both.shown() == ("ok", [])


def test_a_device_dead_across_rounds_stays_shown_after_its_alarm_cleared():
    """A shoe dead for 15 minutes: the dealer voided, the next round cleared the alarm, and the tile
    showed only a grey border."""
    t, both = Table(), Both()
    both("bac-01", "status", t.status())
    both("bac-01", "event", t.event("device", {"device": "shoe", "status": "offline", "code": None,
                                               "detail": "port closed"}))
    both("bac-01", "event", t.alarm("shoe_offline", "fault", "the shoe went offline during round 1"))
    both("bac-01", "event", t.event("void", {"round": 1, "reason": "dealer pressed void", "by": "dealer"}))
    t.round = 2
    both("bac-01", "event", t.event("round_start", {"round": 2, "player_dealer": None, "last_of_shoe": False}))
    both("bac-01", "event", t.event("prompt", {"expect": "device", "hand": None, "buttons": [], "device": "shoe",
                                               "text": "Waiting for the shoe: it is offline."}))
    assert both.tile()["alarms"] == []                                   # the alarm did clear ...
    assert both.shown() == ("fault", ["shoe offline"])                   # ... the cause did not
    both("bac-01", "event", t.event("device", {"device": "shoe", "status": "online", "code": None,
                                               "detail": "SIMSHOE"}))
    both("bac-01", "event", t.event("prompt", {"expect": "bets", "hand": None, "buttons": ["deal"], "text": "Bets"}))
    assert both.shown() == ("ok", [])


def test_a_device_fault_report_goes_when_dealing_goes_on():
    """Two tiles kept "shoe fault" and "shuffler fault" after dealing resumed: a misread is a
    report, not a state of the device; the next round is past it."""
    t, both = Table(), Both()
    both("bac-01", "status", t.status())
    both("bac-01", "event", t.event("device", {"device": "shoe", "status": "fault", "code": "misread",
                                               "detail": ""}))
    assert both.shown() == ("warning", ["shoe reported misread"])
    assert both.tile()["devices"]["shoe"] == "online"
    t.round = 2
    both("bac-01", "event", t.event("round_start", {"round": 2, "player_dealer": None, "last_of_shoe": False}))
    assert both.shown() == ("ok", [])


def test_a_board_started_late_takes_the_devices_from_the_retained_state():
    """watch said "shoe offline, shuffler offline" from the table's start-up status while the
    board said OK: a board that starts after the birth reads the devices as they are now."""
    t, both = Table(devices={"shoe": "offline", "shuffler": "offline"}), Both()
    both("bac-01", "status", t.status())                     # retained since the table started
    t.seq = 52_000
    both("bac-01", "state", t.state("betting", "Bets open", devices={"shoe": "online", "shuffler": "online"},
                                    outbox={"undelivered": 0, "max_undelivered": 100000, "held": False}))
    assert both.shown() == ("ok", [])
    both("bac-01", "state", {**t.state("betting", "Bets open", devices={"shoe": "online", "shuffler": "online"}),
                             "seq": 52_001, "outbox": {"undelivered": 100000, "max_undelivered": 100000,
                                                        "held": True}})
    level, problems = both.shown()
    assert level == "critical" and problems[0].startswith("outbox full")


def test_offline_and_alarming_tables_come_first_worst_and_oldest_first():
    both = Both()
    for name, age in (("bac-01", 0), ("bac-02", 0), ("bac-03", 0), ("bac-04", 0)):
        t = Table(id=name, ts=1_700_000_000.0 - age)
        both(name, "status", t.status())
    t2, t3, t4 = Table(id="bac-02"), Table(id="bac-03", ts=1_699_999_000.0), Table(id="bac-04")
    both("bac-02", "event", t2.alarm("shoe_misread", "warning"))
    both("bac-03", "event", t3.alarm("deck_check_failed", "fault"))
    both("bac-04", "status", t4.status(online=False, reason="shutdown"))
    order = [t["table"] for t in floor_order(both.board.tiles()["tables"])]
    assert order == ["bac-03", "bac-04", "bac-02", "bac-01"]
    lines = board_lines("w", both.watch.tables(), [], 0.0)
    assert [text.split()[0] if not text.startswith("!!") else text.split()[1] for text, _ in lines[2:]
            if "bac-" in text] == order


def test_an_acknowledged_alarm_says_who_owns_it_and_stays_open_until_the_table_goes_on():
    """Issue 22: a supervisor acknowledges an alarm with a note and an assignee; every board shows
    who and when; the alarm stays open while its cause is there. An acknowledgement that comes
    before its alarm (a replay) waits for it."""
    from controller.pit.acks import make

    t, both = Table(), Both()
    both("bac-01", "status", t.status())
    alarm = t.alarm("shoe_misread", "fault", "a card left the shoe unread")
    ack = make("bac-01", alarm["seq"], "shoe_misread", "ann", note="calling tech", assignee="bob", now=t.ts + 5)
    both("bac-01", "ack", ack.to_json())                       # before its alarm: kept for it
    both("bac-01", "event", alarm)
    [problem] = both.tile()["condition"]["problems"]
    assert problem["ack"] == {"id": ack.id, "by": "ann", "ts": t.ts + 5, "note": "calling tech", "assignee": "bob",
                              "code": "shoe_misread"}
    assert both.tile()["alarms"][0]["ack"]["by"] == "ann" and both.shown()[0] == "fault"   # still open
    both("bac-01", "event", t.event("void", {"round": 1, "reason": "misread", "by": "pit:ann"}))
    assert both.shown() == ("ok", [])


def test_a_replayed_or_forged_acknowledgement_does_not_take_an_alarm_over():
    """The newest acknowledgement owns the alarm: an older one sent again (a replayed message) does
    not take it back, and one naming another alarm code (a table's seq started again, a forgery)
    is left out."""
    from controller.pit.acks import make

    t, both = Table(), Both()
    both("bac-01", "status", t.status())
    alarm = t.alarm("shoe_misread", "fault", "a card left the shoe unread")
    both("bac-01", "event", alarm)
    first = make("bac-01", alarm["seq"], "shoe_misread", "ann", now=t.ts + 5)
    second = make("bac-01", alarm["seq"], "shoe_misread", "bob", note="on it", now=t.ts + 9)
    both("bac-01", "ack", first.to_json())
    both("bac-01", "ack", second.to_json())
    ignored = both.board.ignored
    both("bac-01", "ack", first.to_json())                                    # replayed
    both("bac-01", "ack", make("bac-01", alarm["seq"], "game_broken", "eve", now=t.ts + 60).to_json())   # forged
    assert both.tile()["alarms"][0]["ack"]["by"] == "bob" and both.board.ignored == ignored + 1
    both("nobody-01", "ack", make("nobody-01", 3, "shoe_misread", "eve").to_json())   # no such table: none made
    assert [x["table"] for x in both.board.tiles()["tables"]] == ["bac-01"]
