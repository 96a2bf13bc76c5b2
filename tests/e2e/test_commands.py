"""Pit commands end to end: a simulated table (hw_sim on pseudo-terminals),
the controller, a real Mosquitto, and the pit publishing on ``cmd/<name>``
and reading ``cmd/<name>/reply``, the events and the retained state.

tests/controller/test_table.py checks the parsing of payloads against a bare
table (no devices, nothing dealt). Here every command runs against a live
table that the simulated dealer has taken into the state in question; each
valid command shows its reply and its state change, and every malformed or
out-of-place one gets an error naming the problem and changes nothing: the
retained state is the same before and after, and the only event is the
``command`` audit event.
"""

from __future__ import annotations

import json
import time

import pytest
from sim_table import SimTable

from controller.shared.schemas import validate, validate_event


@pytest.fixture
def table(broker, tmp_path):
    t = SimTable(broker, tmp_path, seed=41, start_dealer=False)
    t.start()
    yield t
    t.stop()


def _replies(table: SimTable, name: str) -> list[dict]:
    with table.cond:
        return [m for t, m in table.messages if t.endswith(f"/cmd/{name}/reply")]


def send(table: SimTable, name: str, payload: bytes | dict, timeout: float = 10.0) -> dict:
    """Publish a command as the pit does; its reply (the next one on its reply topic)."""
    before = len(_replies(table, name))
    body = json.dumps(payload).encode() if isinstance(payload, dict) else payload
    table.pit.client.publish(f"{table.base}/cmd/{name}", body, qos=1)
    end = time.monotonic() + timeout
    with table.cond:
        while len(_replies(table, name)) <= before:
            left = end - time.monotonic()
            assert left > 0, f"no reply to cmd/{name} {payload!r}"
            table.cond.wait(left)
    reply = _replies(table, name)[before]
    validate("reply", reply)
    return reply


def quiet(table: SimTable, still: float = 0.3) -> int:
    """Wait until no event has come for ``still`` seconds; the last seq."""
    last = -1
    while True:
        seqs = [e["seq"] for e in table.events()]
        now = max(seqs, default=0)
        if now == last:
            return now
        last = now
        time.sleep(still)


def state_at(table: SimTable, seq: int, timeout: float = 10.0) -> dict:
    """The retained state as of event ``seq``: the newest published with a seq at most ``seq``
    (the table publishes one only when it changed, right after the item's events and before its
    reply: issue 11), without the message's own seq and time and the publisher's outbox count.
    Callers have seen the item's reply, or waited for the table to be quiet."""
    def states() -> list[dict]:
        return [m for t, m in table.messages if t.endswith("/state") and m["seq"] <= seq]
    end = time.monotonic() + timeout
    with table.cond:
        while not states():
            left = end - time.monotonic()
            assert left > 0, f"no state published by seq {seq}"
            table.cond.wait(left)
        found = states()[-1]
    return {k: v for k, v in found.items() if k not in ("seq", "ts", "outbox")}


def refused(table: SimTable, name: str, payload: bytes | dict, rid, error: str) -> None:
    """A command that must fail with ``error`` and change nothing at all."""
    before = quiet(table, 0.1)
    state = state_at(table, before)
    reply = send(table, name, payload)
    assert (reply["ok"], reply["id"], reply["command"]) == (False, rid, name), reply
    assert reply["error"].startswith(error), (reply["error"], error)
    audit = table.wait_event("command", after=before)
    assert audit["data"] == {"name": name, "id": rid, "ok": False, "error": reply["error"]}
    after = quiet(table, 0.2)
    assert [e["kind"] for e in table.events() if e["seq"] > before] == ["command"]
    assert after == audit["seq"]
    assert state_at(table, audit["seq"]) == state
    with table.cond:   # and no state went out for it: nothing changed (issue 11)
        assert not [m for t, m in table.messages if t.endswith("/state") and m["seq"] > before]


def events_after(table: SimTable, seq: int, until: int) -> list[tuple[str, dict]]:
    return [(e["kind"], e["data"]) for e in sorted(table.events(), key=lambda e: e["seq"]) if seq < e["seq"] <= until]


MALFORMED = [
    ("open", b"{oops", None, "malformed JSON: Expecting property name enclosed in double quotes: line 1 column 2"),
    ("void", b'["reason"]', None, 'the payload must be a JSON object such as {"id": "r1"}, not a list'),
    ("resume", b"42", None, 'the payload must be a JSON object such as {"id": "r1"}, not a number'),
    ("frobnicate", b'{"id": "u1"}', "u1",
     "unknown command: the commands are open, close, void, resume, rebirth, replay, button, "
     "dice_reset, integrity_reset"),
    ("void", b'{"id": "m1"}', "m1", "bad void command: reason: is required"),
    ("open", b'{"id": "e1", "force": true}', "e1", "bad open command: (top level): an unknown key (the keys are id)"),
    ("rebirth", b'{"id": "e2", "full": 1}', "e2", "bad rebirth command: (top level): an unknown key (the keys are id)"),
    ("close", b'{"id": "e3", "now": "yes"}', "e3", "bad close command: (top level): an unknown key (the keys are id)"),
    ("void", b'{"id": "w1", "reason": 5}', "w1", "bad void command: reason: must be a string"),
    ("void", b'{"id": "w2", "reason": ""}', "w2", "bad void command: reason: must not be empty"),
    ("void", b'{"id": "w3", "reason": "x", "user": "Ann Lee"}', "w3",
     "bad void command: user: must be a pit user's name: lower case letters, digits, _ . -, at most 32, starting "
     "with a letter"),
    ("resume", b'{"id": ["r"]}', None, "bad resume command: id: must be a string or an integer or null"),
    ("close", b'{"id": true}', None, "bad close command: id: must be a string or an integer or null"),
    ("button", b'{"id": "b1", "button": "shuffle"}', "b1",
     'bad button command: button: must be one of "deal", "void", "shuffle_ack", "pass"'),
]


def test_malformed_and_out_of_place_commands_change_nothing(table):
    # The table opened itself; the dealer has not loaded the decks: deck_check, no round.
    table.wait_event("prompt", lambda d: d["expect"] == "deck_check")
    refused(table, "open", {"id": "o1"}, "o1", "refused: the table is already open (state deck_check)")
    refused(table, "void", {"id": "v1", "reason": "test"}, "v1",
            "refused: no round in progress to void (state deck_check)")
    refused(table, "resume", {"id": "r1"}, "r1",
            "refused: nothing to resume: the table is not in fault (state deck_check)")
    # Now mid-round: the dealer dealt the first card of round 1 and waits before the second.
    held = table.dealer.hold_at("card", 2)
    table.dealer.release()
    assert held.wait(30)
    table.wait_event("card")
    assert state_at(table, quiet(table))["state"] == "dealing"
    refused(table, "close", {"id": "c1"}, "c1", "refused: round 1 is in progress (state dealing): void it first")
    refused(table, "open", {"id": 7}, 7, "refused: the table is already open (state dealing)")
    refused(table, "resume", {"id": "r2"}, "r2",
            "refused: nothing to resume: the table is not in fault (state dealing)")
    for name, payload, rid, error in MALFORMED:
        refused(table, name, payload, rid, error)
    # and the round goes on as if nothing had been said
    table.dealer.release()
    result = table.wait_event("result")
    assert result["round"] == 1 and len(table.events("card")) >= 4
    for e in table.events():
        validate_event(e, game="baccarat")


def test_every_pit_command_with_its_reply_and_state_change(table):
    table.wait_event("prompt", lambda d: d["expect"] == "deck_check")
    start = quiet(table)
    status = [m for t, m in table.messages if t.endswith("/status")][-1]
    assert status["online"] and status["birth"] == 1

    # close: the table shuts (no round was in play)
    reply = send(table, "close", {"id": "c1"})
    assert reply == {"id": "c1", "command": "close", "ok": True, "data": {"state": "closed", "round": None}}
    audit = table.wait_event("command", lambda d: d["id"] == "c1")
    assert events_after(table, start, audit["seq"]) == [
        ("transition", {"from": "deck_check", "to": "closed", "trigger": "close_table"}),
        ("prompt", {"expect": "open", "hand": None, "buttons": [],
                    "text": "The table is closed: waiting for the pit to open it."}),
        ("table", {"status": "closed"}),
        ("command", {"name": "close", "id": "c1", "ok": True, "error": None}),
    ]
    assert state_at(table, audit["seq"])["state"] == "closed"

    # open: a deck check is due before the table deals
    reply = send(table, "open", {"id": 2})
    assert reply == {"id": 2, "command": "open", "ok": True, "data": {"state": "deck_check", "round": None}}
    audit2 = table.wait_event("command", lambda d: d["id"] == 2)
    kinds = events_after(table, audit["seq"], audit2["seq"])
    # The table's opening first: a game without cards opens straight into its first round (issue 24)
    assert kinds[:2] == [("table", {"status": "open"}),
                         ("transition", {"from": "closed", "to": "deck_check", "trigger": "open_table"})]
    assert state_at(table, audit2["seq"])["state"] == "deck_check"

    # rebirth: the birth certificate and the state again, with the next seq
    before = len([m for t, m in table.messages if t.endswith("/status")])
    reply = send(table, "rebirth", {"id": "b1"})
    assert reply["ok"] is True and reply["data"]["birth"] == status["birth"]
    table.wait_for(lambda ev: len([m for t, m in table.messages if t.endswith("/status")]) > before,
                   what="a new birth")
    reborn = [m for t, m in table.messages if t.endswith("/status")][-1]
    assert reborn["online"] and reborn["birth"] == status["birth"]
    assert reborn["ts"] > status["ts"] and reborn["next_seq"] > status["next_seq"]
    assert reborn["devices"] == {"shoe": "online", "shuffler": "online"}

    # replay: the close's events again, as they were; nothing changes
    def copies(seq: int) -> list[dict]:
        with table.cond:
            return [m for t, m in table.messages if "/event/" in t and m["seq"] == seq]
    span = range(start + 1, audit["seq"] + 1)
    assert all(len(copies(s)) == 1 for s in span)
    reply = send(table, "replay", {"id": "p1", "from": span[0], "to": span[-1]})
    assert reply == {"id": "p1", "command": "replay", "ok": True,
                     "data": {"state": "deck_check", "round": None, "from": span[0], "to": span[-1],
                              "count": len(span), "queued_before": 0}}
    table.wait_for(lambda ev: all(len(copies(s)) == 2 for s in span), what="the replayed events")
    assert all(copies(s)[0] == copies(s)[1] for s in span)
    replayed = table.wait_event("command", lambda d: d["id"] == "p1")
    assert state_at(table, replayed["seq"])["state"] == "deck_check"

    # void: the dealer deals round 1's first card; the pit voids the round
    held = table.dealer.hold_at("card", 2)
    table.dealer.release()
    assert held.wait(30)
    table.wait_event("card")
    mark = quiet(table)
    # a void meant for another round (sent late, or again) is refused and changes nothing
    reply = send(table, "void", {"id": "v0", "reason": "dealer error", "user": "ann.lee", "round": 7})
    assert reply["ok"] is False and reply["error"] == ("refused: round: the command is for another round than the "
                                                       "table's (round 1 is the table's now); nothing was done")
    reply = send(table, "void", {"id": "v1", "reason": "dealer error", "user": "ann.lee", "round": 1})
    assert reply["ok"] is True and reply["data"] == {"state": "betting", "round": 2}
    void = table.wait_event("void", after=mark)    # sent from the board by a named supervisor (issue 22)
    assert void["data"] == {"round": 1, "reason": "dealer error", "by": "pit:ann.lee", "cards_burned": 0}
    moves = [(d["from"], d["to"]) for k, d in events_after(table, mark, quiet(table)) if k == "transition"]
    assert moves == [("dealing", "voided"), ("voided", "ready"), ("ready", "betting")]

    # resume: the dealer draws a card when both hands stand; the pit resumes, burning it
    table.dealer.misbehave.extra_card_at_settle = True
    table.dealer.misbehave.skip_void = True
    table.dealer.release()
    alarm = table.wait_event("alarm", lambda d: d["code"] == "unexpected_card")
    fault = table.wait_event("transition", lambda d: d["to"] == "fault")
    assert fault["data"]["from"] == "result"
    reply = send(table, "resume", {"id": "r1"})
    assert reply["ok"] is True and reply["data"] == {"state": "result", "round": alarm["round"]}, reply
    table.dealer.misbehave.skip_void = False
    resume = table.wait_event("resume", after=fault["seq"])
    assert resume["data"] == {"round": alarm["round"], "by": "pit", "burned": [alarm["data"]["card"]]}
    back = table.wait_event("transition", lambda d: d["from"] == "fault", after=fault["seq"])
    assert back["data"] == {"from": "fault", "to": "result", "trigger": "resumed"}
    # the round is settled and the table deals on
    table.wait_event("result", after=back["seq"])
    for e in table.events():
        validate_event(e, game="baccarat")
