"""When a demo is over (controller.demo_end): a table that cannot go on ends the demo at once,
saying why, instead of a wait for the timeout (issue 13: `tablectl demo --rounds 300` once ended
with the game broken, waited 600 s and exited 1 without a word)."""

from __future__ import annotations

from controller.demo_end import DemoEnd


def env(kind: str, data: dict, rnd: int | None = 7) -> dict:
    return {"seq": 1, "ts": 0.0, "table": "t", "round": rnd, "kind": kind, "data": data}


BROKEN = {"code": "game_broken", "severity": "critical", "message": "the deal went round the table back to seat 1",
          "action": "the table closes; the pit decides when to reopen it"}


def test_a_table_that_closes_itself_after_opening_ends_the_demo_with_the_alarm():
    end = DemoEnd()
    assert end.feed(env("transition", {"from": "closed", "to": "deck_check", "trigger": "open_table"})) is None
    assert end.feed(env("alarm", BROKEN)) is None
    why = end.feed(env("transition", {"from": "ready", "to": "closed", "trigger": "game_broken"}))
    assert why == ("the table closed itself in round 7: game_broken: the deal went round the table back to seat 1 "
                   "(the table closes; the pit decides when to reopen it)")


def test_closed_before_it_opened_is_not_an_end():
    end = DemoEnd()
    assert end.feed(env("transition", {"from": "closed", "to": "closed", "trigger": "close_table"})) is None


def test_a_fault_the_dealer_cannot_void_ends_the_demo_but_one_it_can_does_not():
    end = DemoEnd(resolves=("void",))
    assert end.feed(env("prompt", {"expect": "fault", "buttons": ["void"], "hand": None, "text": "..."})) is None
    lost = {"code": "shoe_heartbeat_lost", "severity": "critical", "message": "the shoe fell silent", "action": ""}
    end.feed(env("alarm", lost))
    why = end.feed(env("prompt", {"expect": "fault", "buttons": [], "hand": None, "text": "..."}))
    assert why == "round 7 is in fault and waits for the pit (void or resume): shoe_heartbeat_lost: the shoe fell silent"


def test_an_alarm_of_an_earlier_round_is_not_given_as_the_reason():
    end = DemoEnd()
    end.feed(env("transition", {"from": "closed", "to": "deck_check", "trigger": "open_table"}))
    end.feed(env("alarm", BROKEN, rnd=3))
    end.feed(env("round_start", {"round": 4, "player_dealer": 2, "last_of_shoe": False}, rnd=4))
    assert end.feed(env("transition", {"from": "ready", "to": "closed", "trigger": "close_table"}, rnd=4)) == \
        "the table closed itself in round 4"


def test_a_controller_that_stops_ends_the_demo_naming_its_error():
    end = DemoEnd()
    assert end.stopped(OSError("disk I/O error")) == "the controller stopped: disk I/O error"
    assert end.feed(env("transition", {"from": "ready", "to": "closed", "trigger": "x"})) == \
        "the controller stopped: disk I/O error"
