"""The pit service's pure parts: the message checks, the seq runs and the replay policy."""

from __future__ import annotations

import json

import pytest

from controller.pit.checks import (
    IMPLAUSIBLE_SEQ,
    MALFORMED,
    NOT_STORABLE,
    SCHEMA,
    Bad,
    check_event,
    check_retained,
    parse_object,
    parse_topic,
)
from controller.pit.replays import TableReplays, read_refusal
from controller.pit.seqs import SeqRuns


def _env(**over) -> dict:
    return {"seq": 7, "ts": 1_700_000_000.25, "table": "bac-01", "round": 2, "kind": "table",
            "data": {"status": "open"}} | over


def test_topics():
    assert parse_topic("casino", "casino/bac-01/event/card").kind == "card"
    assert parse_topic("site/floor1", "site/floor1/bac-01/status").what == "status"
    assert parse_topic("casino", "casino/bac-01/cmd/replay/reply").what == "reply"
    for bad, words in [("casino/bac 01/event/card", "not a table id"), ("other/bac-01/status", "not a topic under"),
                       ("casino/bac-01/event/card/x", "not a topic the pit"), ("casino/bac-01", "not a topic under")]:
        with pytest.raises(Bad, match=words):
            parse_topic("casino", bad)


def test_an_event_ready_for_the_archive():
    event = check_event("bac-01", "table", _env(), "baccarat", b"raw")
    assert (event.seq, event.round, event.ts, event.payload) == (7, 2, 1_700_000_000.25, b"raw")
    assert json.loads(event.envelope) == _env()
    with pytest.raises(Bad, match='kind "table" in the payload, "shuffle" in the topic'):
        check_event("bac-01", "shuffle", _env(), "baccarat")


@pytest.mark.parametrize(("env", "category", "words"), [
    (_env(seq=7.0), SCHEMA, "seq: must be an integer written without"),
    (_env(table="bac-02"), SCHEMA, "the payload names table"),
    (_env(ts=-5), SCHEMA, "ts: must be a unix time"),
    (_env(ts=1e300), SCHEMA, "ts: must be a unix time"),
    (_env(round=2**31), NOT_STORABLE, "round: must be an integer up to"),
    (_env(seq=2**63), SCHEMA, "seq"),
    (_env(ts=float("inf")), MALFORMED, "NaN or Infinity"),
    (_env(data={"status": "open", "x": "\ud800"}), MALFORMED, "lone surrogate"),
    (_env(data={"status": "o\x00pen"}), NOT_STORABLE, "NUL"),
    (_env(data={"status": "ajar"}), SCHEMA, 'data.status: must be one of "open", "closed"'),
])
def test_bad_events(env, category, words):
    with pytest.raises(Bad, match=words) as bad:
        check_event("bac-01", "table", env, "baccarat")
    assert bad.value.category == category


def test_payloads_that_are_not_objects():
    for payload, words in [(b"\xff", "not UTF-8"), (b"[1]", "not a JSON object"), (b"{", "not JSON"),
                           (b"[" * 100_000, "nested too deeply"), (b" " * 300_000, "too large")]:
        with pytest.raises(Bad, match=words) as bad:
            parse_object(payload)
        assert bad.value.category == MALFORMED
    assert parse_object(b"") == {}


def test_retained_messages():
    status = {"online": False, "table": "bac-01", "birth": 3}
    assert check_retained("status", "bac-01", status) is status
    with pytest.raises(Bad, match="the payload names table"):
        check_retained("status", "bac-02", status)
    with pytest.raises(Bad, match="birth"):
        check_retained("status", "bac-01", status | {"birth": 3.0})
    with pytest.raises(Bad, match="seq: must be an integer"):
        check_retained("state", "bac-01", {"table": "bac-01", "seq": 1e3, "ts": 1, "state": "closed", "round": None})
    assert IMPLAUSIBLE_SEQ == "implausible_seq"


def test_seq_runs():
    runs = SeqRuns()
    assert [runs.add(s) for s in (1, 2, 5, 4, 2, 9)] == [True, True, True, True, False, True]
    assert runs.floor == 2 and len(runs) == 2 and 4 in runs and 3 not in runs
    runs.add(3)
    assert runs.floor == 5 and len(runs) == 1
    for s in range(20, 40, 2):
        runs.add(s)
    assert runs.trim(most=3) == [(9, 9), (20, 20), (22, 22), (24, 24), (26, 26), (28, 28), (30, 30), (32, 32)]
    runs.raise_floor(33)
    assert runs.floor == 34 and len(runs) == 2 and 36 in runs and 35 not in runs
    runs.forget(100)
    assert 100 in runs and 101 not in runs and len(runs) == 0


def test_refusals_read():
    pruned = read_refusal("the journal no longer holds seqs before 1200 (pruned: tablectl prune); ask from 1200")
    assert (pruned.kind, pruned.seq) == ("pruned", 1200)
    beyond = read_refusal("to is beyond the last event journaled, seq 850")
    assert (beyond.kind, beyond.seq) == ("beyond", 850)
    assert read_refusal("8 replays are still going out; ask again when they have").kind == "busy"


def test_a_refusal_names_what_can_never_be_had():
    assert read_refusal("the journal no longer holds seqs before 1200 (pruned)").unfillable(1000, 1500) == (1000, 1199)
    assert read_refusal("the journal no longer holds seqs before 1200 (pruned)").unfillable(1000, 1100) == (1000, 1100)
    assert read_refusal("to is beyond the last event journaled, seq 850").unfillable(800, 900) == (851, 900)
    assert read_refusal("to is beyond the last event journaled, seq 850").unfillable(860, 900) == (860, 900)
    assert read_refusal("8 replays are still going out").unfillable(1, 5) is None


def test_give_up_after_is_never_unless_asked_for():
    forever = TableReplays(retry_delays=(2.0,))
    assert [forever.failed(now=float(n)) for n in range(10)] == [2.0] * 10
    bounded = TableReplays(retry_delays=(2.0, 5.0), give_up_after=3)
    bounded.next([(5, 9)], now=0.0, request_id="a")
    assert bounded.failed(now=1.0) == 2.0 and bounded.failed(now=3.0) == 5.0
    bounded.next([(5, 9)], now=8.0, request_id="c")
    assert bounded.failed(now=9.0) is None, "the third failure in a row gives the range up"
    assert bounded.out is None and bounded.failures == 0 and bounded.wake_at(9.0) is None, "the next goes at once"


def test_one_request_at_a_time_cut_to_the_limit_and_backed_off():
    replays = TableReplays(limit=100, retry_delays=(2.0, 5.0), reply_timeout=10, replay_timeout=30)
    first = replays.next([(5, 500), (900, 901)], now=0.0, request_id="a")
    assert first is not None and (first.first, first.last, first.deadline) == (5, 104, 10.0)
    assert replays.next([(5, 500)], now=1.0, request_id="b") is None, "one out at a time"
    replays.accepted(now=2.0)
    assert replays.progress(50, now=3.0) and replays.out.deadline == 33.0
    assert not replays.progress(200, now=3.0), "outside the range asked"
    assert replays.failed(now=40.0) == 2.0 and replays.failed(now=42.0) == 5.0 and replays.failed(now=50.0) == 5.0
    assert replays.next([(5, 500)], now=54.0, request_id="c") is None and replays.wake_at(54.0) == 55.0
    assert replays.next([(5, 500)], now=55.0, request_id="d").id == "d"
    replays.done()
    assert replays.failures == 0 and replays.wake_at(60.0) is None
    spanning = replays.next([(5, 10), (20, 30), (60, 200), (300, 301)], now=61.0, request_id="e")
    assert (spanning.first, spanning.last) == (5, 104), "one request for the gaps within the limit"
