"""`tablectl watch --replay` against a publisher that sends what it likes (issue 13, defect 11):
a real `tablectl watch` process, a real Mosquitto, a test client standing in for a table that
is broken or hostile, and a real subscriber on ``cmd/replay`` counting what watch asks for.

Each bad message must be one ``BAD`` line naming its topic and why; the next good event must
still be printed (a payload once ended watch's network thread: the process stayed up, deaf);
and a seq jump must never turn into a flood of replay requests.
"""

from __future__ import annotations

import json
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable

import pytest
from mqtt_support import WAIT, RunningBroker, Subscriber

TABLECTL = [sys.executable, "-m", "controller.cli"]


class WatchProcess:
    """`tablectl watch` as a subprocess; its stdout lines are read on a thread into a queue."""

    def __init__(self, broker: RunningBroker, *args: str) -> None:
        self.proc = subprocess.Popen([*TABLECTL, "watch", "--broker", f"{broker.host}:{broker.port}", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.expect(r"^watching ")

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)  # end of output

    def expect(self, pattern: str, timeout: float = WAIT) -> list[str]:
        """Lines up to and including the first that matches ``pattern``: fails with what came."""
        got: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"watch printed no line matching {pattern!r} within {timeout} s; "
                                     f"it printed {got[-20:]}") from None
            assert line is not None, f"watch exited before a line matching {pattern!r}; it printed {got[-20:]}"
            got.append(line)
            self.seen.append(line)
            if re.search(pattern, line):
                return got

    def stop(self) -> str:
        """SIGTERM; the summary line it prints as it exits."""
        self.proc.send_signal(signal.SIGTERM)
        assert self.proc.wait(15) == 0
        assert self.proc.stderr is not None
        err = self.proc.stderr.read()
        assert "Traceback" not in err, err
        rest = []
        while (line := self.lines.get(timeout=WAIT)) is not None:
            rest.append(line)
        self.seen += rest
        assert rest and rest[-1].startswith("watch: "), rest[-10:]
        return rest[-1]

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(15)


@pytest.fixture
def watch(broker: RunningBroker):
    """``watch(*args)`` -> a running :class:`WatchProcess`, killed after the test if still up."""
    made: list[WatchProcess] = []

    def start(*args: str) -> WatchProcess:
        w = WatchProcess(broker, *args)
        made.append(w)
        return w
    yield start
    for w in made:
        w.kill()


def env(seq: object, table: str = "t1", kind: str = "table", **extra: object) -> dict:
    """A valid ``table`` event (docs/schemas/events/table.json) unless ``extra`` spoils it."""
    return {"seq": seq, "ts": 1.0, "table": table, "round": None, "kind": kind,
            "data": {"status": "open"}, **extra}


def _requester(w: WatchProcess) -> str:
    """A watch's own requester (its client id, of this process): its replays are a queue of their own
    at the table (issue 27), not one shared by every client that names none."""
    return re.sub(r"[^A-Za-z0-9_.-]", "-", f"tablectl-watch-{socket.gethostname()[:24]}-{w.proc.pid}")[:64]


def replay_requests(requests: Subscriber) -> list[tuple[str, dict]]:
    """Every ``cmd/replay`` that reached the broker before this call: a sentinel published now
    comes after them (watch has exited, its connection is closed)."""
    requests.publish("casino/sentinel/cmd/replay", {"sentinel": True})
    requests.wait_for(lambda m: m.topic == "casino/sentinel/cmd/replay")
    return [(m.topic, m.json()) for m in requests.seen if m.topic != "casino/sentinel/cmd/replay"]


def test_bad_events_are_reported_in_one_line_each_and_the_next_good_one_is_printed(
        broker: RunningBroker, subscriber: Callable[..., Subscriber], watch: Callable[..., WatchProcess]) -> None:
    requests = subscriber("casino/+/cmd/replay")
    w = watch("--replay")
    table = "casino/t1/event/table"
    requests.publish(table, env(1))
    w.expect(r"^\[t1 #1\] table open$")
    deep = b'{"seq": 2, "data": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    bad: list[tuple[str, bytes | dict, str]] = [
        (table, env("abc"), r'^BAD casino/t1/event/table seq "abc": seq: must be an integer \(got "abc"\)'),
        (table, {"seq": 2, "kind": "table"}, r"^BAD casino/t1/event/table seq 2: data: is required; round: is "
                                             r"required; table: is required; ts: is required$"),
        (table, env(2, data={"status": {"a": [[[{"b": None}]]]}}), r"^BAD casino/t1/event/table seq 2: "
                                                                   r"data\.status: must be one of"),
        (table, env(2, extra={"x": 1}), r"^BAD casino/t1/event/table seq 2: extra: unknown key"),
        (table, deep, r"^BAD casino/t1/event/table: not JSON this side can read: nested too deeply$"),
        (table, b"\xc3( not json", r"^BAD casino/t1/event/table: not UTF-8 \(invalid continuation byte at "
                                    r"byte 0\)$"),
        (table, b"{seq: 2", r"^BAD casino/t1/event/table: not JSON: Expecting property name"),
        (table, b"[1, 2]", r"^BAD casino/t1/event/table: not a JSON object but a list$"),
        (table, b"{" + b" " * 300_000 + b"}", r"^BAD casino/t1/event/table: payload too large: 300002 bytes, "
                                                r"at most 262144$"),
        (table, env(1e9), r"^BAD casino/t1/event/table seq 1000000000\.0: seq: must be an integer written "
                          r"without a fraction or exponent"),
        (table, env(-5), r"^BAD casino/t1/event/table seq -5: seq: must be at least 1 \(got -5\)$"),
        ("casino/t1/event/card", env(2), r'^BAD casino/t1/event/card seq 2: kind "table" in the payload, '
                                         r'"card" in the topic$'),
        ("casino/t1/event/table/x", env(2), r"^BAD casino/t1/event/table/x seq 2: not casino/<table>/event/<kind>$"),
        ("casino/t1/event/table", b"{}", r"^BAD casino/t1/event/table: data: is required;"),
    ]
    for topic, payload, _ in bad:
        requests.publish(topic, payload)
    requests.publish(table, env(2))
    lines = w.expect(r"^\[t1 #2\] table open$")
    assert len(lines) == len(bad) + 1, lines
    for (_, _, pattern), line in zip(bad, lines, strict=False):
        assert re.search(pattern, line), (pattern, line)
    summary = w.stop()
    assert f"; {len(bad)} bad messages dropped; 0 replay requests sent" in summary, summary
    assert "0 seqs found missing" in summary, summary  # no bad seq reached the tracker
    assert replay_requests(requests) == []


def test_a_seq_jump_past_what_the_table_vouched_for_is_reported_not_asked_for(
        broker: RunningBroker, subscriber: Callable[..., Subscriber], watch: Callable[..., WatchProcess]) -> None:
    requests = subscriber("casino/+/cmd/replay")
    status = {"online": True, "table": "t1", "birth": 3, "game": "baccarat", "version": "0.1.0",
              "devices": {}, "next_seq": 200, "ts": 1.0}
    requests.publish("casino/t1/status", status, retain=True)
    w = watch("--replay")
    w.expect(r"^\[t1\] ONLINE birth 3: baccarat 0\.1\.0, next seq 200")
    requests.publish("casino/t1/event/table", env(150))
    requests.publish("casino/t1/event/table", env(1_000_000_000))
    requests.publish("casino/t1/event/table", env(151))
    # t2 has no status: its own events are what it has vouched for
    requests.publish("casino/t2/event/table", env(1, table="t2"))
    requests.publish("casino/t2/event/table", env(20_000, table="t2"))
    requests.publish("casino/t2/event/table", env(10**20, table="t2"))
    requests.publish("casino/t2/event/table", env(2, table="t2"))
    lines = w.expect(r"^\[t2 #2\] table open$")
    assert lines == [
        "[t1 #150] table open",
        "BAD casino/t1/event/table seq 1000000000: seq 1000000000 is not believable: table t1 has vouched for "
        "seq 199 at most (its birth 3), and an event is never 10000 past that; not asked for",
        "[t1 #151] table open",
        "[t2 #1] table open",
        "BAD casino/t2/event/table seq 20000: seq 20000 is not believable: table t2 has vouched for "
        "seq 1 at most (its events), and an event is never 10000 past that; not asked for",
        f"BAD casino/t2/event/table seq {10**20}: seq beyond {2**63 - 1}, the largest a controller can give",
        "[t2 #2] table open",
    ], lines
    summary = w.stop()
    assert "0 seqs found missing" in summary and "3 bad messages dropped; 0 replay requests sent" in summary
    assert replay_requests(requests) == []


def test_a_huge_gap_is_asked_for_in_one_bounded_request(
        broker: RunningBroker, subscriber: Callable[..., Subscriber], watch: Callable[..., WatchProcess]) -> None:
    """Nothing vouched for yet (no status): the gap is believed, but at most ``--replay-max`` seqs
    of it are asked for, one request at a time; the rest is said, not asked."""
    requests = subscriber("casino/+/cmd/replay")
    w = watch("--replay", "--since", "1")
    requests.publish("casino/t1/event/table", env(1_000_000_000))
    lines = w.expect(r"GAP")
    assert lines[-2:] == [
        "[t1 #1000000000] table open",
        "[t1] GAP: seqs 1-999999999 missing; asking for a replay of 1-10000 only (--replay-max 10000); "
        "the other 999989999 are not asked for"]
    request = requests.wait_for(lambda m: True)
    asked = {"id": "watch-1-10000", "from": 1, "to": 10000, "requester": _requester(w)}
    assert (request.topic, request.json()) == ("casino/t1/cmd/replay", asked)
    requests.publish("casino/t1/event/table", env(5))   # a late event fills its place
    assert w.expect(r"#5\]") == ["[t1 #5] table open"]
    summary = w.stop()
    assert "1 replay requests sent" in summary, summary
    assert replay_requests(requests) == [("casino/t1/cmd/replay", asked)]


def test_the_table_is_the_topics_never_the_payloads(
        broker: RunningBroker, subscriber: Callable[..., Subscriber], watch: Callable[..., WatchProcess]) -> None:
    """On tA's topic, an event whose payload says tB (seq 5, where tB is at 1: a gap in tB, had it
    been believed) is reported and dropped; tA's own gap is asked of tA, and nothing of tB."""
    requests = subscriber("casino/+/cmd/replay")
    w = watch("--replay")
    requests.publish("casino/tB/event/table", env(1, table="tB"))
    requests.publish("casino/tA/event/table", env(1, table="tA"))
    requests.publish("casino/tA/event/table", env(5, table="tB"))
    requests.publish("casino/tA/event/table", env(3, table="tA"))
    lines = w.expect(r"GAP")
    assert lines[-3:] == [
        'BAD casino/tA/event/table seq 5: the payload names table "tB"; an event on table tA\'s topic must be '
        "tA's: dropped, nothing asked of either",
        "[tA #3] table open",
        "[tA] GAP: seqs 2-2 missing; asking for a replay"], lines
    request = requests.wait_for(lambda m: True)
    assert (request.topic, request.json()) == ("casino/tA/cmd/replay", {"id": "watch-2-2", "from": 2, "to": 2,
                                                                        "requester": _requester(w)})
    summary = w.stop()
    assert "1 bad messages dropped; 1 replay requests sent" in summary, summary
    assert [topic for topic, _ in replay_requests(requests)] == ["casino/tA/cmd/replay"]


@pytest.mark.parametrize("args, error", [
    (["--table", "a/b"], "--table 'a/b': must be a table id"),
    (["--table", "#"], "--table '#': must be a table id"),
    (["--prefix", "casino/+"], "--prefix 'casino/+': must be a topic such as casino"),
    (["--prefix", "/casino"], "--prefix '/casino': must be a topic such as casino"),
    (["--replay-max", "0"], "--replay-max: must be 1 to 1000000, not 0"),
    (["--replay-max", "lots"], "--replay-max: not a number of seqs: 'lots'"),
])
def test_watch_rejects_bad_options_naming_them(args: list[str], error: str) -> None:
    proc = subprocess.run([*TABLECTL, "watch", "--broker", "127.0.0.1:1", *args], capture_output=True,
                          text=True, timeout=30)
    assert proc.returncode == 2 and error in proc.stderr, proc.stderr


def test_a_bad_status_and_a_bad_reply_are_reported_too(
        broker: RunningBroker, subscriber: Callable[..., Subscriber], watch: Callable[..., WatchProcess]) -> None:
    """Status and replies are read from the same untrusted broker: checked like events."""
    client = subscriber("casino/none")
    w = watch("--replay")
    client.publish("casino/t1/status", {"online": True, "table": "t1", "birth": "x"})
    client.publish("casino/t1/status", {"online": False, "table": "t9", "birth": 1})
    client.publish("casino/t1/cmd/replay/reply", {"id": "watch-1-2", "ok": "yes"})
    client.publish("casino/t1/state", json.dumps({"table": "t1", "seq": "many", "ts": 1, "state": "x",
                                                  "round": None}))
    client.publish("casino/t1/event/table", env(1))
    lines = w.expect(r"^\[t1 #1\]")
    assert [line.split(":")[0].split(" seq ")[0] for line in lines] == [
        "BAD casino/t1/status", "BAD casino/t1/status", "BAD casino/t1/cmd/replay/reply", "BAD casino/t1/state",
        "[t1 #1] table open"], lines
    assert "birth: must be an integer" in lines[0]
    assert 'the payload names table "t9", the topic table t1' in lines[1]
    assert "command: is required" in lines[2] and "ok: must be true or false" in lines[2]
    assert 'seq: must be an integer (got "many")' in lines[3]
    w.stop()
