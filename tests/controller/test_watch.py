"""`tablectl watch --replay`'s replay requests against a real broker and a stand-in table that
answers (or does not) as the test says: one request per table at a time, a refusal or a silence
asked again later and given up after the last retry, never spun on (issue 13, defect 11).

The watch runs in-process (controller.pit.watch.command.Watch with a real PitClient) so that its retry
delays can be a fraction of a second; tests/e2e/test_watch_untrusted.py runs the real command.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from mqtt_support import WAIT, RunningBroker, Subscriber

from controller.pit.client import PitClient
from controller.pit.watch.command import MAX_AHEAD, Watch


class Lines:
    """Watch's ``out``: the lines it prints, and a way to wait for one (on a condition, no polling)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.cond = threading.Condition()
        self.read = 0

    def __call__(self, line: str) -> None:
        with self.cond:
            self.lines.append(line)
            self.cond.notify_all()

    def wait(self, pattern: str, timeout: float = WAIT) -> str:
        """The first line from the last one waited for on that matches ``pattern``."""
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                for i in range(self.read, len(self.lines)):
                    if re.search(pattern, self.lines[i]):
                        self.read = i + 1
                        return self.lines[i]
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no line matching {pattern!r}; got {self.lines[-10:]}")
                self.cond.wait(left)


@pytest.fixture
def watching(broker: RunningBroker) -> Iterator[Callable[..., tuple[Watch, Lines]]]:
    """``watching(**kw)`` -> a :class:`Watch` (with --replay) subscribed on the test's broker."""
    made: list[tuple[Watch, PitClient]] = []

    def start(**kw: object) -> tuple[Watch, Lines]:
        lines = Lines()
        watch = Watch("casino", replay=True, out=lines, **kw)  # type: ignore[arg-type]
        pit = PitClient(broker.host, broker.port, watch.topics(), watch.on_message, on_bad=watch.on_bad)
        watch.publish = pit.publish
        pit.start()
        made.append((watch, pit))
        return watch, lines
    yield start
    for watch, pit in made:
        watch.close()
        pit.stop()


def event(seq: int) -> dict:
    return {"seq": seq, "ts": 1.0, "table": "t1", "round": None, "kind": "table", "data": {"status": "open"}}


def reply(request_id: str, error: str | None = None, **data: int) -> dict:
    body: dict = {"id": request_id, "command": "replay", "ok": error is None}
    return body | ({"error": error} if error else {"data": data})


def ids(requests: Subscriber) -> list[str]:
    return [m.json()["id"] for m in requests.seen]


def test_a_refused_replay_is_asked_again_later_for_what_is_still_missing(
        watching: Callable[..., tuple[Watch, Lines]], subscriber: Callable[..., Subscriber]) -> None:
    table = subscriber("casino/t1/cmd/replay")
    watch, lines = watching(retry_delays=(0.5,))
    for seq in (1, 5):
        table.publish("casino/t1/event/table", event(seq))
    assert table.wait_for(lambda m: True).json() == {"id": "watch-2-4", "from": 2, "to": 4}
    table.publish("casino/t1/event/table", event(2))   # a late copy arrives meanwhile
    lines.wait(r"^\[t1 #2\]")
    refused_at = time.monotonic()
    table.publish("casino/t1/cmd/replay/reply", reply("watch-2-4", "8 replays are still going out; ask again "
                                                                   "when they have"))
    assert lines.wait(r"asking again") == ("[t1] replay of seqs 2-4: refused: 8 replays are still going out; "
                                           "ask again when they have; asking again in 0.5 s")
    again = table.wait_for(lambda m: True)
    assert time.monotonic() - refused_at >= 0.5          # not spun on: after the delay
    assert again.json() == {"id": "watch-3-4.2", "from": 3, "to": 4}   # only what is still missing
    table.publish("casino/t1/cmd/replay/reply", reply("watch-3-4.2", **{"from": 3, "to": 4, "count": 2}))
    for seq in (3, 4):
        table.publish("casino/t1/event/table", event(seq))
    lines.wait(r"^\[t1\] no gap left: every seq up to 5 received$")
    for seq in (6, 8):                                   # the next gap is asked for as usual
        table.publish("casino/t1/event/table", event(seq))
    assert table.wait_for(lambda m: True).json()["id"] == "watch-7-7"
    assert ids(table) == ["watch-2-4", "watch-3-4.2", "watch-7-7"]
    assert watch.requests == 3


def test_a_table_that_never_answers_is_asked_a_bounded_number_of_times(
        watching: Callable[..., tuple[Watch, Lines]], subscriber: Callable[..., Subscriber]) -> None:
    table = subscriber("casino/t1/cmd/replay")
    watch, lines = watching(reply_timeout=0.2, retry_delays=(0.1, 0.1))
    for seq in (1, 4):
        table.publish("casino/t1/event/table", event(seq))
    assert lines.wait(r"given up") == ("[t1] replay of seqs 2-3: no reply within 0.2 s; given up after 3 attempts, "
                                       "they stay missing")
    table.publish("casino/t1/event/table", event(6))
    assert table.wait_for(lambda m: m.json()["id"] == "watch-5-5")
    assert ids(table) == ["watch-2-3", "watch-2-3.2", "watch-2-3.3", "watch-5-5"]
    assert watch.given_up == 2
    assert "2 still missing" not in watch.summary() and "3 still missing" in watch.summary()


def test_a_refusal_for_pruned_seqs_gives_those_up_at_once_and_asks_for_the_rest(
        watching: Callable[..., tuple[Watch, Lines]], subscriber: Callable[..., Subscriber]) -> None:
    """The table no longer holds seqs before 4 (tablectl prune): asking again would only be refused
    again, so 2-3 are given up now (as the pit service records them unfillable) and 4-5 asked at once."""
    table = subscriber("casino/t1/cmd/replay")
    watch, lines = watching(retry_delays=(30.0,))
    for seq in (1, 6):
        table.publish("casino/t1/event/table", event(seq))
    assert table.wait_for(lambda m: True).json() == {"id": "watch-2-5", "from": 2, "to": 5}
    table.publish("casino/t1/cmd/replay/reply", reply(
        "watch-2-5", "the journal no longer holds seqs before 4 (pruned: tablectl prune); ask from 4"))
    assert lines.wait(r"cannot be had") == (
        "[t1] replay of seqs 2-5: refused: the journal no longer holds seqs before 4 (pruned: tablectl prune); "
        "ask from 4; seqs 2-3 cannot be had any more, they stay missing")
    assert table.wait_for(lambda m: True).json() == {"id": "watch-4-5", "from": 4, "to": 5}   # no 30 s delay
    assert watch.given_up == 2 and watch.requests == 2


def test_one_request_per_table_at_a_time(
        watching: Callable[..., tuple[Watch, Lines]], subscriber: Callable[..., Subscriber]) -> None:
    """A second gap waits until the first request's events have come, so that a table is never
    asked for more than it allows at once (controller.table.loop REPLAY_BUDGET)."""
    table = subscriber("casino/t1/cmd/replay")
    watch, lines = watching()
    for seq in (1, 4, 7):
        table.publish("casino/t1/event/table", event(seq))
    assert table.wait_for(lambda m: True).json()["id"] == "watch-2-3"
    lines.wait(r"GAP: seqs 5-6 missing; asking for a replay")
    table.publish("casino/t1/cmd/replay/reply", reply("watch-2-3", **{"from": 2, "to": 3, "count": 2}))
    lines.wait(r"^\[t1\] replay watch-2-3: from=2, to=3, count=2$")
    assert watch.summary().endswith("; 1 replay requests sent")   # accepted: its events are awaited first
    for seq in (2, 3):
        table.publish("casino/t1/event/table", event(seq))
    assert table.wait_for(lambda m: True).json() == {"id": "watch-5-6", "from": 5, "to": 6}
    assert ids(table) == ["watch-2-3", "watch-5-6"]


def test_a_state_far_behind_what_was_tracked_starts_the_table_afresh(
        watching: Callable[..., tuple[Watch, Lines]], subscriber: Callable[..., Subscriber]) -> None:
    """An event with a seq the table never reached got in before anything vouched for the
    table: its state (its last seq, after every batch) shows it, and the table's own events
    are no longer dropped as duplicates of it."""
    table = subscriber("casino/t1/cmd/replay")
    watch, lines = watching()
    table.publish("casino/t1/event/table", event(MAX_AHEAD + 100))
    lines.wait(rf"^\[t1 #{MAX_AHEAD + 100}\]")
    table.publish("casino/t1/state", {"table": "t1", "seq": 5, "ts": 1.0, "state": "ready", "round": None})
    assert lines.wait(r"afresh") == (f"[t1] seq tracking starts afresh: seqs up to {MAX_AHEAD + 100} were "
                                     f"tracked, but the table's state says its last is 5")
    table.publish("casino/t1/event/table", event(6))
    lines.wait(r"^\[t1 #6\] table open$")
    assert watch.view.seqs.duplicates == 0 and watch.bad == 0
