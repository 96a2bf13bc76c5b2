"""The pit board's live picture (controller/pit/board/picture.py) and its change feed (feed.py), fed
envelopes as the pit service hands them over; every expectation worked out from the messages."""

from __future__ import annotations

import dataclasses
import json

import pytest
from pit_support import Table, bac_result

from controller.pit.board import picture as picture_module
from controller.pit.board.feed import Dropped, Feed
from controller.pit.board.picture import Picture
from games import registry
from games.baccarat.roads import Outcome, scoreboard

registry_get = registry.get


def fed(*messages: tuple[str, str, dict], **kw) -> Picture:
    pic = Picture(**kw)
    for table, kind, body in messages:
        pic(table, kind, body)
    return pic


def tile(pic: Picture, table: str = "bac-01") -> dict:
    return next(t for t in pic.tiles()["tables"] if t["table"] == table)


def test_a_tile_shows_game_state_prompt_round_results_and_devices() -> None:
    t = Table()
    pic = fed(("bac-01", "status", t.status()))
    t.round = 4
    pic("bac-01", "event", t.event("round_start", {"round": 4, "player_dealer": 3, "last_of_shoe": False}))
    pic("bac-01", "event", t.event("transition", {"from": "betting", "to": "dealing", "trigger": "deal"}))
    pic("bac-01", "event", t.event("prompt", {"expect": "card", "hand": "player", "buttons": [],
                                              "text": "card -> player"}))
    pic("bac-01", "event", t.event("result", bac_result("player")))
    got = tile(pic)
    assert got["game"] == "baccarat" and got["title"] == "Commission-Free Baccarat"
    assert got["online"] is True and got["birth"] == 1 and got["version"] == "0.1.0"
    assert (got["state"], got["prompt"], got["expect"], got["round"]) == ("dealing", "card -> player", "card", 4)
    assert got["results"] == [{"round": 4, "seq": 4, "ts": t.ts,
                               "summary": "P 2H 5C = 7  |  B KD 6S = 6  ->  PLAYER"}]
    assert got["devices"] == {"shoe": "online", "shuffler": "online"} and got["health"] == "ok"
    assert got["last_seq"] == 4 and got["alarms"] == []


def test_the_retained_state_is_believed_unless_events_already_went_past_it() -> None:
    t = Table()
    pic = fed(("bac-01", "status", t.status()))
    t.round = 2
    pic("bac-01", "event", t.event("prompt", {"expect": "bets", "hand": None, "buttons": [], "text": "bets"}))
    pic("bac-01", "event", t.event("prompt", {"expect": "card", "hand": None, "buttons": [], "text": "deal"}))
    stale = t.state("betting", "bets")
    stale["seq"] = 1
    pic("bac-01", "state", stale)
    assert tile(pic)["prompt"] == "deal"
    pic("bac-01", "state", t.state("dealing", "deal now", player_dealer={"seat": 5, "consecutive": 1}))
    got = tile(pic)
    assert (got["state"], got["prompt"], got["player_dealer"], got["round"]) == ("dealing", "deal now", 5, 2)


def test_a_late_event_fills_history_but_does_not_change_the_present() -> None:
    t = Table()
    pic = fed(("bac-01", "status", t.status()))
    t.round = 1
    e1 = t.event("result", bac_result("banker", banker=("9D", "KS"), btotal=9))
    t.round = 2
    e2 = t.event("prompt", {"expect": "card", "hand": None, "buttons": [], "text": "old prompt"})
    e3 = t.event("prompt", {"expect": "bets", "hand": None, "buttons": [], "text": "place your bets"})
    pic("bac-01", "event", e3)
    pic("bac-01", "event", e1)     # replayed after the gap was seen
    pic("bac-01", "event", e2)
    got = pic.detail("bac-01")["table"]
    assert got["prompt"] == "place your bets" and got["last_seq"] == 3
    assert [r["seq"] for r in got["results"]] == [1] and got["history"][0]["round"] == 1
    assert "BANKER" in got["history"][0]["summary"]


def test_results_keep_the_newest_five_in_seq_order_and_history_is_bounded() -> None:
    t = Table()
    pic = fed(("bac-01", "status", t.status()), history=3)
    events = []
    for r in range(1, 8):
        t.round = r
        events.append(t.event("result", bac_result("banker" if r % 2 else "player")))
    for env in events[:3] + events[4:] + events[3:4]:   # round 4 comes last (a replay)
        pic("bac-01", "event", env)
    got = pic.detail("bac-01")["table"]
    assert [r["round"] for r in got["results"]] == [7, 6, 5, 4, 3]
    assert [h["round"] for h in got["history"]] == [7, 6, 5]


def test_a_void_is_in_the_history_with_its_reason_and_alarm_codes() -> None:
    t = Table()
    pic = fed(("bac-01", "status", t.status()))
    t.round = 9
    pic("bac-01", "event", t.alarm("shoe_misread", message="a card left the shoe unread",
                                   action="void the round (dealer's void button or pit cmd/void)"))
    pic("bac-01", "event", t.event("void", {"round": 9, "reason": "misread card", "by": "pit"}))
    got = pic.detail("bac-01")["table"]
    assert got["history"] == [{"round": 9, "seq": 2, "ts": t.ts, "void": {"reason": "misread card", "by": "pit"},
                               "alarms": ["shoe_misread"]}]
    assert got["alarms"] == []
    assert got["alarm_log"][0]["cleared"] == "the round was voided" and got["alarm_log"][0]["cleared_seq"] == 2


def test_hands_per_hour_is_the_pace_of_the_last_hour_by_the_tables_clock() -> None:
    t = Table()
    pic = fed(("bac-01", "status", t.status()))
    pic("bac-01", "event", t.event("result", bac_result("banker"), dt=0))
    assert tile(pic)["hands_per_hour"] is None                 # one result: no pace yet
    for _ in range(4):
        pic("bac-01", "event", t.event("result", bac_result("banker"), dt=90))
    assert tile(pic)["hands_per_hour"] == 40.0                 # 4 intervals of 90 s
    pic("bac-01", "event", t.event("result", bac_result("banker"), dt=7200))
    assert tile(pic)["hands_per_hour"] is None                 # the others are over an hour old
    for _ in range(3):
        pic("bac-01", "event", t.event("result", bac_result("banker"), dt=60))
    assert tile(pic)["hands_per_hour"] == 60.0


def test_an_alarm_is_open_with_its_severity_message_and_action_until_the_table_goes_on() -> None:
    t = Table()
    pic = fed(("bac-01", "status", t.status()))
    pic("bac-01", "event", t.alarm("foreign_card", "fault", "the shoe read 5X? no: a card not in the deck",
                                   "hold the card for the pit: void the round, or resume to burn it"))
    pic("bac-01", "event", t.alarm("missing_draw", "warning"))
    pic("bac-01", "event", t.alarm("journal_restarted", "critical"))
    got = tile(pic)
    assert [(a["code"], a["severity"]) for a in got["alarms"]] == [
        ("journal_restarted", "critical"), ("missing_draw", "warning"), ("foreign_card", "fault")]
    assert got["alarms"][2]["action"] == "hold the card for the pit: void the round, or resume to burn it"
    pic("bac-01", "event", t.event("transition", {"from": "fault", "to": "dealing", "trigger": "resumed"}))
    assert [a["code"] for a in tile(pic)["alarms"]] == ["journal_restarted", "missing_draw"]
    t.round = 2
    pic("bac-01", "event", t.event("round_start", {"round": 2, "player_dealer": None, "last_of_shoe": False}))
    assert [a["code"] for a in tile(pic)["alarms"]] == ["journal_restarted"]   # a critical one waits for the pit
    pic("bac-01", "event", t.event("table", {"status": "open"}))
    assert tile(pic)["alarms"] == []
    assert [a["code"] for a in tile(pic)["cleared"]] == ["journal_restarted", "missing_draw"]  # the tile's last two
    log = pic.detail("bac-01")["table"]["alarm_log"]
    assert [(a["code"], a["cleared"]) for a in log] == [
        ("journal_restarted", "the table was opened"), ("missing_draw", "a new round started"),
        ("foreign_card", "the round left the fault")]


def test_device_deck_and_shuffle_alarms_clear_when_the_device_or_the_check_says_so() -> None:
    t = Table()
    pic = fed(("bac-01", "status", t.status()))
    pic("bac-01", "event", t.event("device", {"device": "shoe", "status": "offline", "code": "offline",
                                              "detail": "cable"}))
    pic("bac-01", "event", t.alarm("shoe_offline", "warning"))
    pic("bac-01", "event", t.alarm("shuffler_jam", "fault"))
    pic("bac-01", "event", t.alarm("deck_check_failed", "fault"))
    got = tile(pic)
    assert got["health"] == "attention" and got["devices"]["shoe"] == "offline"
    pic("bac-01", "event", t.event("device", {"device": "shoe", "status": "online", "code": None, "detail": ""}))
    assert [a["code"] for a in tile(pic)["alarms"]] == ["deck_check_failed", "shuffler_jam"]
    assert tile(pic)["health"] == "ok"
    pic("bac-01", "event", t.event("deck_check", {"ok": True, "expected": 416, "counted": 416, "missing": [],
                                                  "extra": [], "unreadable": 0}))
    assert tile(pic)["alarms"] == []
    pic("bac-01", "event", t.alarm("shuffle_count", "fault"))
    pic("bac-01", "event", t.event("shuffle", {"ok": False, "count": 415, "expected": 416}))
    assert [a["code"] for a in tile(pic)["alarms"]] == ["shuffle_count"]
    pic("bac-01", "event", t.event("shuffle", {"ok": True, "count": 416, "expected": 416}))
    assert tile(pic)["alarms"] == []


def test_a_new_birth_clears_the_alarms_and_an_offline_status_says_why() -> None:
    t = Table()
    pic = fed(("bac-01", "status", t.status()))
    pic("bac-01", "event", t.alarm("controller_error", "critical"))
    pic("bac-01", "status", t.status(online=False, reason="the table stopped: disk full"))
    got = tile(pic)
    assert got["online"] is False and got["reason"] == "the table stopped: disk full"
    assert [a["code"] for a in got["alarms"]] == ["controller_error"]
    t.birth = 2
    pic("bac-01", "status", t.status())
    got = tile(pic)
    assert got["online"] is True and got["birth"] == 2 and got["reason"] is None and got["alarms"] == []


def test_a_table_whose_retained_status_is_cleared_leaves_the_board_and_its_page_is_told() -> None:
    """An empty retained status: the table was taken off the floor (a table never clears its own;
    stopping, it says offline). `tablectl watch` drops its line the same way (test_glance.py)."""
    t, u = Table(), Table(id="tcp-01", game="three_card_poker")
    pic = fed(("bac-01", "status", t.status()), ("tcp-01", "status", u.status()))
    t.round = 1
    pic("bac-01", "event", t.event("result", bac_result("banker")))
    snapshot, board = pic.subscribe()
    _, page = pic.subscribe("bac-01")
    _, other = pic.subscribe("tcp-01")
    pic("bac-01", "status", {})
    assert [x["table"] for x in pic.tiles()["tables"]] == ["tcp-01"] and pic.detail("bac-01") is None
    (gone,) = [json.loads(p) for p in board.take(1.0)]
    assert gone == {"version": snapshot["version"] + 1, "table": "bac-01", "tile": None}
    assert [json.loads(p) for p in page.take(1.0)] == [gone] and other.take(0.01) == []
    pic("bac-01", "status", {})                  # cleared again, or never seen: nothing to say
    pic("xyz-09", "status", {})
    assert board.take(0.01) == [] and pic.tiles()["version"] == gone["version"]
    t.birth = 2
    pic("bac-01", "status", t.status())          # back on the floor: a picture from its new birth
    assert tile(pic)["results"] == [] and tile(pic)["online"] is True


def test_a_table_whose_seq_started_again_is_followed_from_its_new_seq() -> None:
    t = Table()
    birth = t.status()
    pic = fed(("bac-01", "status", birth))
    for _ in range(5):
        pic("bac-01", "event", t.event("prompt", {"expect": "bets", "hand": None, "buttons": [], "text": "old"}))
    pic("bac-01", "status", birth)   # the same birth again (a reconnect): its next_seq is as of the birth
    pic("bac-01", "event", t.event("prompt", {"expect": "bets", "hand": None, "buttons": [], "text": "x"}, seq=2))
    assert tile(pic)["prompt"] == "old" and tile(pic)["last_seq"] == 5
    t.seq, t.birth = 0, 2           # tablectl journal new: seq starts at 1 again
    pic("bac-01", "status", t.status())
    pic("bac-01", "event", t.event("prompt", {"expect": "bets", "hand": None, "buttons": [], "text": "new"}))
    assert tile(pic)["prompt"] == "new" and tile(pic)["last_seq"] == 1


def test_baccarat_roads_are_drawn_from_the_results_since_the_last_shuffle() -> None:
    t = Table()
    pic = fed(("bac-01", "status", t.status()))
    shoe1 = "BPB"
    for c in shoe1:
        pic("bac-01", "event", t.event("result", bac_result({"B": "banker", "P": "player"}[c])))
    pic("bac-01", "event", t.event("shuffle", {"ok": True, "count": 416, "expected": 416}))
    assert pic.detail("bac-01")["table"]["scoreboard"]["counts"] == {"banker": 0, "player": 0, "tie": 0}
    words = {"B": "banker", "P": "player", "T": "tie"}
    shoe2 = "TBBPBBBP"
    envs = [t.event("result", bac_result(words[c])) for c in shoe2]
    for env in envs[:3] + envs[4:] + envs[3:4]:   # the 4th arrives last, replayed: drawn in its place
        pic("bac-01", "event", env)
    assert pic.detail("bac-01")["table"]["scoreboard"] == scoreboard([bac_result(words[c]) for c in shoe2])
    big = next(g for g in pic.detail("bac-01")["table"]["scoreboard"]["grids"] if g["name"] == "big_road")
    assert [(c["col"], c["row"], c["mark"]) for c in big["cells"]][:4] == [(0, 0, "B"), (0, 1, "B"), (1, 0, "P"),
                                                                          (2, 0, "B")]
    assert Outcome.parse(shoe2)[0].winner == "T"


def test_a_shoe_without_a_shuffle_keeps_its_last_results_and_draws_the_latest(monkeypatch) -> None:
    """No shuffle event for 1,000 results (a table that never sends one): the shoe stays bounded,
    so the roads are not recomputed over an ever longer list, and they still end with the latest."""
    drawn: list[int] = []
    real = registry.get("baccarat").scoreboard

    def counting(results):
        drawn.append(len(results))
        return real(results)

    monkeypatch.setattr(picture_module.registry, "get", lambda game: dataclasses.replace(
        registry_get(game), scoreboard=counting) if game == "baccarat" else registry_get(game))
    t = Table()
    pic = fed(("bac-01", "status", t.status()))
    words = ["banker", "player", "banker", "banker", "tie", "player"]
    for i in range(1000):
        pic("bac-01", "event", t.event("result", bac_result(words[i % len(words)])))
    kept = picture_module.SHOE
    assert kept >= 85 * 2 and max(drawn) == kept and len(drawn) == 1000
    board = pic.detail("bac-01")["table"]["scoreboard"]
    assert board == {**scoreboard([bac_result(words[i % len(words)]) for i in range(1000 - kept, 1000)]),
                     "earlier": 1000 - kept}
    assert sum(board["counts"].values()) == kept
    bead = next(g for g in board["grids"] if g["name"] == "bead_plate")
    assert bead["cells"][-1]["mark"] == {"banker": "B", "player": "P", "tie": "T"}[words[999 % len(words)]]
    pic("bac-01", "event", t.event("shuffle", {"ok": True, "count": 416, "expected": 416}))
    assert "earlier" not in pic.detail("bac-01")["table"]["scoreboard"]


def test_a_game_without_a_scoreboard_or_unknown_to_the_pit_still_has_its_tile() -> None:
    t = Table(id="odd-01", game="no_such_game")
    pic = fed(("odd-01", "status", t.status()))
    pic("odd-01", "event", t.event("result", {"winner": "house", "points": 3}))
    got = pic.detail("odd-01")["table"]
    assert got["title"] is None and got["scoreboard"] is None
    assert got["results"][0]["summary"] == 'result: winner="house", points=3'


def test_bad_input_is_counted_and_left_out_and_the_picture_goes_on() -> None:
    t = Table()
    pic = fed(("bac-01", "status", t.status()))
    pic("bac-01", "event", [1, 2])                                   # not an object
    pic("bac-01", "gossip", {"x": 1})                                # not a kind the service hands over
    pic("bac-01", "event", {"seq": "7", "kind": "result", "data": {}})   # seq not a number
    pic("bac-01", "event", {"seq": True, "kind": "result", "data": {}})
    assert pic.ignored == 4
    pic("bac-01", "event", {"seq": 1, "kind": "result", "data": "nope", "ts": "yesterday", "round": "one"})
    pic("bac-01", "event", {"seq": 2, "kind": "alarm", "data": {"code": 7, "severity": "apocalyptic",
                                                                 "message": "x" * 5000, "action": None}})
    pic("bac-01", "event", {"seq": 3, "kind": "device", "data": {"device": ["shoe"], "status": {}}})
    pic("bac-01", "state", {"seq": 3, "state": 5, "prompt": "not an object", "player_dealer": [1]})
    pic(None, "event", {"seq": 1})                                    # type: ignore[arg-type]
    got = tile(pic)
    assert pic.errors == 0 and pic.ignored == 5
    assert got["results"][0]["summary"] == "result (no data)"
    alarm = got["alarms"][0]
    assert alarm["code"] == "alarm" and alarm["severity"] == "warning" and len(alarm["message"]) == 300
    assert alarm["action"] == "" and got["state"] is None
    t.seq = 3
    pic("bac-01", "event", t.event("result", bac_result("tie")))     # and a good one still counts
    assert "TIE" in tile(pic)["results"][0]["summary"]


def test_tables_beyond_the_bound_are_counted_not_kept(monkeypatch) -> None:
    monkeypatch.setattr(picture_module, "MAX_TABLES", 2)
    pic = Picture()
    for n in range(4):
        pic(f"t-{n}", "status", Table(id=f"t-{n}").status())
    assert [t["table"] for t in pic.tiles()["tables"]] == ["t-0", "t-1"] and pic.ignored == 2


def test_only_the_fields_the_board_names_are_passed_on() -> None:
    t = Table()
    status = t.status(journal="0123456789abcdef0123456789abcdef", secret_note="hole card 7H")
    pic = fed(("bac-01", "status", status),
              ("bac-01", "state", t.state("dealing", "deal", hands={"banker": ["AS", None]}, seats={"9": "x"})))
    text = json.dumps(pic.detail("bac-01"))
    for leak in ("0123456789abcdef", "hole card", "AS", "seats"):
        assert leak not in text


def test_the_feed_sends_a_snapshot_then_tile_patches_to_the_board_and_pages_to_their_table() -> None:
    t, u = Table(), Table(id="tcp-01", game="three_card_poker")
    pic = fed(("bac-01", "status", t.status()))
    snapshot, board = pic.subscribe()
    _, page = pic.subscribe("bac-01")
    _, other = pic.subscribe("tcp-01")
    assert [x["table"] for x in snapshot["tables"]] == ["bac-01"]
    t.round = 1
    pic("bac-01", "event", t.event("result", bac_result("banker")))
    pic("tcp-01", "status", u.status())
    patches = [json.loads(p) for p in board.take(1.0)]
    assert [(p["table"], sorted(p)) for p in patches] == [("bac-01", ["table", "tile", "version"]),
                                                          ("tcp-01", ["table", "tile", "version"])]
    assert patches[0]["version"] > snapshot["version"]
    (mine,) = [json.loads(p) for p in page.take(1.0)]
    assert mine["history"][0]["round"] == 1 and mine["scoreboard"]["counts"]["banker"] == 1
    assert [json.loads(p)["table"] for p in other.take(1.0)] == ["tcp-01"]
    assert board.take(0.01) == []


def test_a_slow_browser_is_dropped_not_waited_for_and_the_others_go_on() -> None:
    pic = Picture(feed=Feed(maxsize=3))
    t = Table()
    _, slow = pic.subscribe()
    _, quick = pic.subscribe()
    got: list[str] = []
    for _ in range(10):           # the observer thread: never blocked by the slow browser's full queue
        pic("bac-01", "event", t.event("prompt", {"expect": "bets", "hand": None, "buttons": [], "text": "b"}))
        got.extend(quick.take(1.0))   # a browser that keeps up
    assert [json.loads(p)["tile"]["last_seq"] for p in got] == list(range(1, 11))
    with pytest.raises(Dropped, match="too far behind"):
        slow.take(1.0)
    assert pic.feed.dropped == 1 and pic.feed.clients() == 1
    snapshot, again = pic.subscribe()          # the dropped browser reconnects: a fresh snapshot
    assert snapshot["tables"][0]["last_seq"] == 10 and pic.feed.clients() == 2
    pic.unsubscribe(again)
    with pytest.raises(Dropped, match="closed"):
        again.take(0.01)


def test_a_change_is_encoded_once_for_a_thousand_browsers_and_they_share_its_bytes() -> None:
    """The pit service's thread does nothing per browser (issue 26): one event's bytes, which every
    browser that keeps up is given, the very same object (made once, joined once)."""
    pic = fed(("bac-01", "status", Table().status()))
    browsers = [pic.subscribe()[1] for _ in range(1000)]
    pic("bac-01", "event", Table().event("prompt", {"expect": "bets", "hand": None, "buttons": [], "text": "x"}))
    sent = [b.read() for b in browsers]
    assert sent[0].startswith(b"id: ") and b"event: patch\ndata: " in sent[0]
    assert all(s is sent[0] for s in sent)
    assert all(b.read() == b"" for b in browsers)


def test_a_poker_tables_collections_this_shift_are_the_reports_totals() -> None:
    """Fees and jackpot drops from each hand's result, time from the action_button that starts a hand
    (controller.pit.report's rules, issue 22.6); a new shift starts a new total; a hand of a shift gone
    by, replayed late, is the report's; a board started mid-shift says its total is partial."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from controller.pit.board.collected import Collected
    from controller.pit.report.shifts import Shifts

    la = ZoneInfo("America/Los_Angeles")
    swing = datetime(2026, 11, 27, 14, 0, tzinfo=la).timestamp()        # the swing shift starts 14:00 there
    shifts = Shifts.parse("day=06-14,swing=14-22,grave=22-06")
    t = Table(id="hol-01", game="holdem", ts=swing + 60)
    pic = fed(("hol-01", "status", t.status()), collected=Collected(shifts, la, started=swing - 3600))
    pot = {"basis": "pot", "fee": 300, "jackpot": 100, "seats": [1, 2, 3]}
    pic("hol-01", "event", t.event("result", {"winners": [1], "collection": pot}))
    pic("hol-01", "event", t.event("result", {"winners": [2], "collection": {**pot, "fee": 250, "jackpot": 0}}))
    pic("hol-01", "event", t.event("action_button", {"seat": 1, "collection": {"basis": "time", "fee": 600,
                                                                               "jackpot": 0, "time_due": [1, 4]}}))
    pic("hol-01", "event", t.event("result", {"winners": [1]}))          # no collection: nothing to add
    got = tile(pic, "hol-01")["collected"]
    assert {k: got[k] for k in ("shift", "day", "fees", "time", "jackpot", "total", "partial_since")} == \
        {"shift": "swing", "day": "2026-11-27", "fees": 550, "time": 600, "jackpot": 100, "total": 1250,
         "partial_since": None}
    assert got["start"] == swing and got["end"] == swing + 8 * 3600
    pic("hol-01", "event", t.event("result", {"collection": pot}, seq=6, dt=8 * 3600))   # 22:00 on: the grave shift
    assert tile(pic, "hol-01")["collected"]["shift"] == "grave" and tile(pic, "hol-01")["collected"]["total"] == 400
    replayed = t.event("result", {"collection": pot}, seq=5, dt=0)                        # a swing hand, late
    replayed["ts"] = swing + 600
    pic("hol-01", "event", replayed)
    assert tile(pic, "hol-01")["collected"]["total"] == 400
    late = fed(("hol-01", "status", t.status()), collected=Collected(shifts, la, started=swing + 3600))
    late("hol-01", "event", t.event("result", {"collection": pot}, dt=-8 * 3600))
    assert tile(late, "hol-01")["collected"]["partial_since"] == t.ts                  # it saw the shift in part
    assert tile(late, "hol-01")["collected"]["shift"] == "swing"
    pic("hol-01", "event", t.event("result", {"collection": {"basis": "pot", "fee": -5}}))   # never guessed
    assert tile(pic, "hol-01")["collected"]["total"] == 400 and pic.collected.unreadable == 1
