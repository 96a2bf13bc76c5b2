"""`tablectl watch`: the pit's view in the terminal -- every table at a glance, one line each
(controller.pit.watch.glance: the pit board's picture, on a terminal when no ``--table`` is given, or
``--view board``), or one line per event (``--view lines``, and whenever the output is not a
terminal) -- and with ``--replay`` the subscriber that asks the table for the gaps in ``seq`` it
finds.

Everything it reads is untrusted: anyone the broker lets publish on a table's topics can
send any bytes, and a buggy or foreign publisher will. So :class:`Watch`

- checks every message against its JSON Schema (controller.shared.schemas; an event against its
  table's game's schemas once the retained status has named the game) before using it;
- takes the table from the topic (``<prefix>/<table>/event/<kind>``), never from the
  payload: an event whose payload names another table, or another kind, is dropped;
- believes a ``seq`` only up to :data:`MAX_AHEAD` past the last seq the table has vouched
  for (its retained status' ``next_seq``, its retained state's ``seq``, its events so far);
- asks for replays one request per table at a time, each at most the controller's
  ``REPLAY_LIMIT``, at most ``--replay-max`` seqs per gap, and after a refusal or a silence
  asks again later (:data:`RETRY_DELAYS`), never in a loop. What to ask next, when, and what a
  refusal means is the pit service's policy (controller.pit.replays), so that the two never
  disagree; watch adds its I/O (a timer per table, its lines, ``--replay-max``) and gives a range
  up after its retries, where an archive never does.

Each message it drops is one ``BAD`` line (topic, seq if any, why) and is counted; nothing it
reads reaches the seq tracker unchecked, and no payload can end paho's network thread
(controller.pit.client guards that too).
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import re
import signal
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.pit.client import PitClient, parse_address
from controller.pit.figures import KINDS, word
from controller.pit.lines import REPLAY_LIMIT, PitView
from controller.pit.replays import REPLAY_TIMEOUT, REPLY_TIMEOUT, TableReplays, read_refusal
from controller.pit.watch.glance import Glance
from controller.pit.watch.screen import Screen
from controller.shared.schemas import TABLE_ID, SchemaError, show, validate, validate_event
from drivers.stop_signal import StopSignal
from games import registry

log = logging.getLogger(__name__)

"""A table id (docs/schemas/defs.json ``table_id``): the table level of a topic must be one."""

MAX_AHEAD = REPLAY_LIMIT
"""How far past the last seq a table has vouched for an event's seq may be and still be believed.
The table publishes its retained state (with its last seq) after every batch of events, so a real
event is a batch ahead of it at most; 10,000 leaves room for a watch that was away a while. An event
beyond it is reported and dropped, never asked about: a seq of 1e9 from a table whose status says
``next_seq`` 200 once made watch send 65,535 replay requests in 8 s."""

SEQ_MAX = 2**63 - 1
"""The largest seq a controller can give (SQLite's largest integer)."""

RETRY_DELAYS = (2.0, 5.0, 15.0, 30.0)
"""Seconds before asking again after the 1st, 2nd ... refusal or silence; after one more the
range is given up (it stays missing, and the summary says so). A table refuses while its other
replays are still going out: asking again at once would only be refused again."""

REPLAY_MAX_CAP = 100 * REPLAY_LIMIT
"""The most ``--replay-max`` may be: a pit that needs more reads the journal."""

MAX_WAITING = 1000
"""Replay requests waiting per table, at most; a gap found past it is reported, not asked for."""


def implausible(seq: int, vouched: int | None) -> bool:
    """Whether ``seq`` is more than :data:`MAX_AHEAD` past the last seq its table has vouched for
    (``None``: nothing yet). Zero is a vouch like any other (a table's first birth says next_seq 1):
    a forged first seq far ahead would otherwise open a gap of everything below it. One rule for
    tablectl watch and the pit service."""
    return vouched is not None and seq > vouched + MAX_AHEAD


@dataclass
class _Asker:
    """One table's replays: the ranges still to ask for (watch's own cut of its gaps:
    ``--replay-max``, ``REPLAY_LIMIT`` each, :data:`MAX_WAITING`), the policy that decides the one
    request out, its deadline and the retries (controller.pit.replays), and the table's timer."""

    replays: TableReplays
    todo: deque[list[int]] = field(default_factory=deque)
    timer: threading.Timer | None = None
    timer_at: float = math.inf


def _print(line: str) -> None:
    print(line, flush=True)


def _clean(text: str, limit: int = 200) -> str:
    """Untrusted text (a topic) fit for one terminal line: control characters escaped, cut short."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Watch:
    """What ``tablectl watch`` does with each message, apart from the network: the checks, the
    pit view, the seq tracker and the replay requests. ``publish`` sends a request; ``out``
    prints a line. Thread-safe: paho's thread and the retry timers call in."""

    def __init__(self, prefix: str, *, verbose: bool = False, since: int | None = None, replay: bool = False,
                 replay_max: int = REPLAY_LIMIT, reply_timeout: float = REPLY_TIMEOUT,
                 replay_timeout: float = REPLAY_TIMEOUT, retry_delays: tuple[float, ...] = RETRY_DELAYS,
                 out: Callable[[str], None] = _print, observer: Callable[[str, str, dict], None] | None = None,
                 event_lines: bool = True) -> None:
        """``observer``: called with ``(table, kind, body)`` for each message that passed every
        check -- ``status``, ``state``, or ``event`` once per seq -- as the pit service calls its
        observers (the board at a glance, controller.pit.watch.glance). ``event_lines``: False when the
        observer shows the events (the board), so that only what else watch says goes to ``out``."""
        self.prefix = prefix
        self.observer = observer
        self.event_lines = event_lines
        self.view = PitView(verbose=verbose)
        self.view.seqs.since = since
        self.replay = replay
        self.requester = ""
        """This watch's MQTT client id, sent with each ``cmd/replay`` as its ``requester``."""
        self.replay_max = replay_max
        self.reply_timeout = reply_timeout
        self.replay_timeout = replay_timeout
        self.retry_delays = retry_delays
        self.out = out
        self.publish: Callable[[str, dict], None] | None = None
        self.bad = 0
        """Messages dropped as bad (each reported in one line)."""
        self._figures_said: dict[tuple[str, str], str] = {}
        """What the line view last said of each table's integrity figures."""
        self.requests = 0
        """``cmd/replay`` requests sent."""
        self.given_up = 0
        """Seqs whose replay was given up: after every retry, or refused as never to be had."""
        self._vouched: dict[str, tuple[int, str]] = {}  # table -> (last seq it vouched for, where it said so)
        self._games = frozenset(registry.names())
        self._askers: dict[str, _Asker] = {}
        self._lock = threading.Lock()
        self._closed = False

    def topics(self, table: str = "+") -> list[str]:
        """What to subscribe to: status and state first, so the retained ones arrive before events."""
        base = f"{self.prefix}/{table}"
        return [f"{base}/status", f"{base}/state", f"{base}/event/#", *(f"{base}/{kind}" for kind in KINDS)] + (
            [f"{base}/cmd/replay/reply"] if self.replay else [])

    # -- paho's thread -----------------------------------------------------------

    def on_message(self, topic: str, payload: dict) -> None:
        """A message that is a JSON object (controller.pit.client): check it, then use it."""
        sends: list[tuple[str, dict]] = []
        with self._lock:
            try:
                self._route(topic, payload, sends)
            except Exception as exc:  # a bug of ours: this message is lost, the next is not
                log.exception("watch: a message on %r could not be handled", topic[:200])
                self._bad(topic, payload, f"could not be handled ({type(exc).__name__})")
        self._send(sends)

    def on_bad(self, topic: str, payload: bytes, why: str) -> None:
        """A message that is not a JSON object at all (controller.pit.client)."""
        with self._lock:
            self._bad(topic, {}, why)

    def close(self) -> None:
        """No more requests; the timers are cancelled."""
        with self._lock:
            self._closed = True
            for asker in self._askers.values():
                if asker.timer is not None:
                    asker.timer.cancel()

    def summary(self) -> str:
        with self._lock:
            seqs = self.view.seqs
            return (f"watch: {len(seqs.last)} tables; {seqs.gaps} seqs found missing, "
                    f"{seqs.filled} of them filled later, {seqs.missing()} still missing; "
                    f"{seqs.duplicates} duplicates dropped; {self.bad} bad messages dropped; "
                    f"{self.requests} replay requests sent")

    # -- checks ------------------------------------------------------------------

    def _route(self, topic: str, payload: dict, sends: list[tuple[str, dict]]) -> None:
        prefix = self.prefix + "/"
        parts = topic[len(prefix):].split("/") if topic.startswith(prefix) else []
        if len(parts) < 2:
            return self._bad(topic, payload, f"not a topic under {prefix}<table>/")
        table, tail = parts[0], parts[1:]
        if not TABLE_ID.fullmatch(table):
            return self._bad(topic, payload, "the topic's table level is not a table id "
                                             "(letters, digits, _ and -, at most 64)")
        if tail[0] == "event":
            if len(tail) != 2:
                return self._bad(topic, payload, f"not {prefix}<table>/event/<kind>")
            return self._event(topic, table, tail[1], payload, sends)
        if tail == ["status"]:
            return self._status(topic, table, payload)
        if tail == ["state"]:
            return self._state(topic, table, payload)
        if len(tail) == 1 and tail[0] in KINDS:
            return self._figures(topic, table, tail[0], payload)
        if tail == ["cmd", "replay", "reply"] and self.replay:
            return self._reply(topic, table, payload, sends)
        return self._bad(topic, payload, "not a topic watch subscribed to")

    def _event(self, topic: str, table: str, kind: str, env: dict, sends: list[tuple[str, dict]]) -> None:
        game = self.view.games.get(table)
        try:
            validate_event(env, game=game if game in self._games else None)
        except SchemaError as exc:
            return self._bad(topic, env, _problems(exc))
        except RecursionError:
            return self._bad(topic, env, "nested too deeply to check")
        seq = env["seq"]
        if type(seq) is not int:  # 1e9 and 5.0 are integers to JSON Schema; no controller sends them
            return self._bad(topic, env, f"seq: must be an integer written without a fraction or exponent "
                                         f"(got {show(seq)})")
        if env["table"] != table:
            return self._bad(topic, env, f"the payload names table {show(env['table'])}; an event on table "
                                         f"{table}'s topic must be {table}'s: dropped, nothing asked of either")
        if env["kind"] != kind:
            return self._bad(topic, env, f"kind {show(env['kind'])} in the payload, {show(kind)} in the topic")
        vouched = self._head(table)
        if seq > SEQ_MAX:
            return self._bad(topic, env, f"seq beyond {SEQ_MAX}, the largest a controller can give")
        if implausible(seq, vouched[0] if vouched is not None else None):
            return self._bad(topic, env, f"seq {seq} is not believable: table {table} has vouched for seq "
                                         f"{vouched[0]} at most ({vouched[1]}), and an event is never "
                                         f"{MAX_AHEAD} past that; not asked for")
        seqs = self.view.seqs
        filled, duplicates = seqs.filled, seqs.duplicates
        lines = self.view.feed(env)
        if self.event_lines:
            for line in lines:
                self.out(line)
        if self.observer is not None and seqs.duplicates == duplicates:
            self.observer(table, "event", env)
        if seqs.filled > filled and seqs.missing(table) == 0:
            self.out(f"[{table}] no gap left: every seq up to {seqs.last[table]} received")
        for gap_table, first, last in seqs.take_gaps():
            self._gap(gap_table, first, last)
        asker = self._askers.get(table)
        if asker is not None and not self._done(table, asker):
            asker.replays.progress(seq, time.monotonic())  # the replay is coming: give the rest time
        self._pump(table, sends)

    def _retained(self, schema: str, topic: str, table: str, payload: dict) -> bool:
        """A retained status or state checked against its schema and the topic's table; False
        (and one BAD line) when it is not to be believed."""
        try:
            validate(schema, payload)
        except SchemaError as exc:
            self._bad(topic, payload, _problems(exc))
            return False
        if payload["table"] != table:
            self._bad(topic, payload, f"the payload names table {show(payload['table'])}, the topic table {table}")
            return False
        return True

    def _status(self, topic: str, table: str, status: dict) -> None:
        if not status:
            self.out(f"[{table}] status cleared")
            if self.observer is not None:
                self.observer(table, "status", {})
            return
        if not self._retained("status", topic, table, status):
            return
        self.out(self.view.status_line(topic, status))
        if self.observer is not None:
            self.observer(table, "status", status)
        if "next_seq" in status:
            self._vouch(table, status["next_seq"] - 1, f"its birth {status['birth']}", current=False)

    def _state(self, topic: str, table: str, state: dict) -> None:
        if not state or not self._retained("state", topic, table, state):
            return
        if type(state["seq"]) is not int or state["seq"] > SEQ_MAX:
            return self._bad(topic, state, f"seq: must be an integer up to {SEQ_MAX} (got {show(state['seq'])})")
        self._vouch(table, state["seq"], "its state", current=True)
        if self.observer is not None:
            self.observer(table, "state", state)

    def _figures(self, topic: str, table: str, kind: str, body: dict) -> None:
        """A table's integrity figures (``dice``, ``integrity``): checked as a retained status is, to
        the observer (the board view's mark), and in the line view one line when what they say
        changes (``[tcp-03] integrity: flagged: outcomes, shuffle``), not at each republish."""
        if body and not self._retained(kind, topic, table, body):
            return
        if self.observer is not None:
            self.observer(table, kind, body)
        if self.event_lines:
            said = word(kind, body)
            if self._figures_said.get((table, kind)) != said:
                self._figures_said[(table, kind)] = said
                self.out(f"[{table}] {kind}: {said}")

    def _reply(self, topic: str, table: str, reply: dict, sends: list[tuple[str, dict]]) -> None:
        try:
            validate("reply", reply)
        except SchemaError as exc:
            return self._bad(topic, reply, _problems(exc))
        self.out(self.view.reply_line(topic, reply))
        asker = self._askers.get(table)
        req = asker.replays.out if asker is not None else None
        if asker is None or req is None or req.phase != "asked" or reply["id"] != req.id:
            return  # another pit client's, or a late answer to a request given up
        if reply["ok"]:
            asker.replays.accepted(time.monotonic())
            if not self._done(table, asker):
                self._arm(table, asker, req.deadline)
        else:
            self._refused(table, asker, reply["error"])
        self._pump(table, sends)

    def _bad(self, topic: str, payload: Mapping[str, Any], why: str) -> None:
        self.bad += 1
        seq = f" seq {show(payload['seq'], 30)}" if isinstance(payload, Mapping) and "seq" in payload else ""
        self.out(f"BAD {_clean(topic)}{seq}: {_clean(why, 400)}")

    def _head(self, table: str) -> tuple[int, str] | None:
        """The last seq ``table`` has vouched for, and where: its status, its state or its events."""
        vouched = self._vouched.get(table)
        last = self.view.seqs.last.get(table)
        if last is not None and (vouched is None or last > vouched[0]):
            return last, "its events"
        return vouched

    def _vouch(self, table: str, head: int, source: str, *, current: bool) -> None:
        """The table says it has reached ``head``. A birth is as of its time (``current`` False: the
        table has gone on since); a state is as of now, so events tracked far past it were not the
        table's (or its journal was replaced): the table's tracking starts afresh."""
        known = self._vouched.get(table)
        if known is None or head >= known[0] or current:
            self._vouched[table] = (head, source)
        last = self.view.seqs.last.get(table)
        if current and last is not None and last > head + MAX_AHEAD:
            self.out(f"[{table}] seq tracking starts afresh: seqs up to {last} were tracked, but the "
                     f"table's state says its last is {head}")
            self.view.seqs.forget(table)
            asker = self._askers.pop(table, None)
            if asker is not None and asker.timer is not None:
                asker.timer.cancel()

    # -- replay requests ----------------------------------------------------------

    def _gap(self, table: str, first: int, last: int) -> None:
        if not self.replay:
            return self.out(f"[{table}] GAP: seqs {first}-{last} missing; tablectl watch --replay would ask for them")
        asked = min(last, first + self.replay_max - 1)
        if asked < last:
            self.out(f"[{table}] GAP: seqs {first}-{last} missing; asking for a replay of {first}-{asked} only "
                     f"(--replay-max {self.replay_max}); the other {last - asked} are not asked for")
        else:
            self.out(f"[{table}] GAP: seqs {first}-{last} missing; asking for a replay")
        asker = self._askers.get(table)
        if asker is None:
            asker = self._askers[table] = _Asker(TableReplays(
                limit=REPLAY_LIMIT, retry_delays=self.retry_delays, reply_timeout=self.reply_timeout,
                replay_timeout=self.replay_timeout, give_up_after=len(self.retry_delays) + 1))
        ranges = [[lo, min(lo + REPLAY_LIMIT - 1, asked)] for lo in range(first, asked + 1, REPLAY_LIMIT)]
        room = max(0, MAX_WAITING - len(asker.todo))
        if len(ranges) > room:
            left = ranges[room:]
            self.out(f"[{table}] GAP: seqs {left[0][0]}-{left[-1][1]} not asked for: {MAX_WAITING} requests "
                     f"are waiting already")
            ranges = ranges[:room]
        asker.todo.extend(ranges)

    def _pump(self, table: str, sends: list[tuple[str, dict]]) -> None:
        """Send the next request of ``table`` if none is out and its retry delay has passed."""
        asker = self._askers.get(table)
        if asker is None or asker.replays.out is not None or self._closed:
            return
        replays, now = asker.replays, time.monotonic()
        while asker.todo:
            if (wake := replays.wake_at(now)) is not None:
                return self._arm(table, asker, wake)
            span = self.view.seqs.missing_in(table, *asker.todo[0])
            if span is None:  # arrived meanwhile (a late copy): nothing to ask
                asker.todo.popleft()
                replays.done()
                continue
            asker.todo[0] = list(span)
            rid = f"watch-{span[0]}-{span[1]}" + (f".{replays.failures + 1}" if replays.failures else "")
            # one gap of at most REPLAY_LIMIT (the cut of _gap): the policy asks for all of it
            req = replays.next([span], now, rid)
            assert req is not None and (req.first, req.last) == span
            self._arm(table, asker, req.deadline)
            self.requests += 1
            ask = {"id": rid, "from": req.first, "to": req.last}
            if self.requester:   # its own queue and budget at the table (issue 27), not every anonymous asker's
                ask["requester"] = self.requester
            sends.append((f"{self.prefix}/{table}/cmd/replay", ask))
            return

    def _done(self, table: str, asker: _Asker) -> bool:
        """True (and the request is over) once nothing of the range of an accepted request is missing."""
        req = asker.replays.out
        if req is None or req.phase != "replaying" \
                or self.view.seqs.missing_in(table, req.first, req.last) is not None:
            return False
        asker.replays.done()
        if asker.todo and asker.todo[0] == [req.first, req.last]:
            asker.todo.popleft()
        return True

    def _refused(self, table: str, asker: _Asker, error: str) -> None:
        """A refusal, read as the pit service reads it: seqs the table can never send (pruned, or
        past its last) are given up at once, and the rest of the range asked for without delay;
        any other refusal is a failure, asked again later."""
        req = asker.replays.out
        assert req is not None
        lost = read_refusal(error).unfillable(req.first, req.last)
        if lost is None:
            return self._failed(table, asker, f"refused: {error}")
        asker.replays.done()
        lo, hi = lost
        self._give_up(table, lo, hi)
        rest = [hi + 1, req.last] if lo == req.first else [req.first, lo - 1]
        if rest[0] <= rest[1]:
            asker.todo[0] = rest
        else:
            asker.todo.popleft()
        self.out(f"[{table}] replay of seqs {req.first}-{req.last}: refused: {error}; seqs {lo}-{hi} cannot "
                 f"be had any more, they stay missing")

    def _failed(self, table: str, asker: _Asker, why: str) -> None:
        """A refusal to ask again, or a silence: the policy's delay, or the range given up."""
        req = asker.replays.out
        assert req is not None
        lo, hi = req.first, req.last
        delay = asker.replays.failed(time.monotonic())
        if delay is None:
            asker.todo.popleft()
            self._give_up(table, lo, hi)
            self.out(f"[{table}] replay of seqs {lo}-{hi}: {why}; given up after {asker.replays.give_up_after} "
                     f"attempts, they stay missing")
            return
        self.out(f"[{table}] replay of seqs {lo}-{hi}: {why}; asking again in {delay:g} s")

    def _give_up(self, table: str, lo: int, hi: int) -> None:
        """Count the seqs of ``lo..hi`` still missing as given up."""
        missing = self.view.seqs.missing_in(table, lo, hi)
        self.given_up += 0 if missing is None else missing[1] - missing[0] + 1

    def _arm(self, table: str, asker: _Asker, when: float) -> None:
        """Wake at ``when`` (or earlier, if a wake is set already: it re-arms). One timer per table."""
        if self._closed or (asker.timer is not None and asker.timer_at <= when):
            return
        if asker.timer is not None:
            asker.timer.cancel()
        timer = threading.Timer(max(0.0, when - time.monotonic()), self._wake, args=(table, asker))
        timer.daemon = True
        asker.timer, asker.timer_at = timer, when
        timer.start()

    def _wake(self, table: str, asker: _Asker) -> None:
        sends: list[tuple[str, dict]] = []
        with self._lock:
            if self._closed or self._askers.get(table) is not asker or asker.timer is not threading.current_thread():
                return  # closed, started afresh, or a timer replaced by an earlier one
            asker.timer, asker.timer_at = None, math.inf
            req, now = asker.replays.out, time.monotonic()
            if req is not None and req.phase == "replaying" and self._done(table, asker):
                pass
            elif req is not None and now >= req.deadline:
                self._failed(table, asker, f"no reply within {self.reply_timeout:g} s" if req.phase == "asked"
                             else f"the replayed events did not all come within {self.replay_timeout:g} s")
            elif req is not None:
                self._arm(table, asker, req.deadline)
            self._pump(table, sends)
        self._send(sends)

    def _send(self, sends: list[tuple[str, dict]]) -> None:
        """Outside the lock: paho's publish takes paho's own locks."""
        for topic, payload in sends:
            if self.publish is not None:
                self.publish(topic, payload)


def _problems(exc: SchemaError, most: int = 4) -> str:
    more = len(exc.problems) - most
    return "; ".join(exc.problems[:most]) + (f"; and {more} more" if more > 0 else "")


def _replay_max(text: str) -> int:
    """argparse type of ``--replay-max``."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seqs: {text!r}") from None
    if not 1 <= value <= REPLAY_MAX_CAP:
        raise argparse.ArgumentTypeError(f"must be 1 to {REPLAY_MAX_CAP}, not {value}")
    return value


def add_arguments(w: argparse.ArgumentParser) -> None:
    """The options of ``tablectl watch``."""
    w.add_argument("--broker", default="127.0.0.1:1883", help="HOST:PORT")
    w.add_argument("--prefix", default="casino")
    w.add_argument("--table", default="+", help="table id (default: every table)")
    w.add_argument("--view", choices=("auto", "board", "lines"), default="auto",
                   help="board: every table at a glance, one line each, redrawn as events come; lines: one "
                        "line per event; auto (default): the board for every table on a terminal, else lines")
    w.add_argument("-v", "--verbose", action="store_true")
    w.add_argument("--replay", action="store_true",
                   help="ask the table (cmd/replay) for every gap in seq it sees; the broker's ACL must "
                        "let this client publish on cmd/replay")
    w.add_argument("--user", help="MQTT user name (a pit broker's pit-view, config/acl)")
    w.add_argument("--password-file", type=Path, metavar="FILE",
                   help="a file holding the MQTT password (never on the command line, where ps shows it)")
    w.add_argument("--tls", action="store_true", help="TLS to the broker, verified against the system's CAs")
    w.add_argument("--tls-ca-file", metavar="FILE", help="TLS, verified against this CA (implies --tls)")
    w.add_argument("--since", type=int, metavar="SEQ",
                   help="every event from this seq on is wanted: with --replay, what came before "
                        "watch started is asked for too (a screen catching up on the shoe)")
    w.add_argument("--replay-max", type=_replay_max, default=REPLAY_LIMIT, metavar="SEQS",
                   help=f"with --replay, ask for at most this many seqs of one gap (default {REPLAY_LIMIT}, "
                        f"one request; at most {REPLAY_MAX_CAP}); the rest are reported, not asked for")


def cmd_watch(args: argparse.Namespace) -> int:
    try:
        host, port = parse_address(args.broker)
    except ValueError as exc:
        print(f"tablectl watch: {exc}", file=sys.stderr)
        return 2
    if args.since is not None and args.since < 1:
        print(f"tablectl watch: --since {args.since}: a seq starts at 1", file=sys.stderr)
        return 2
    if not args.prefix or any(c in args.prefix for c in "+#\0") or args.prefix.startswith("/") \
            or args.prefix.endswith("/"):
        print(f"tablectl watch: --prefix {args.prefix!r}: must be a topic such as casino or site/floor1, "
              f"without + or # and not starting or ending with /", file=sys.stderr)
        return 2
    if args.table != "+" and not TABLE_ID.fullmatch(args.table):
        print(f"tablectl watch: --table {args.table!r}: must be a table id (letters, digits, _ and -, "
              f"at most 64) or + for every table", file=sys.stderr)
        return 2
    password = None
    if args.password_file is not None:
        try:
            password = args.password_file.read_text().strip()
        except OSError as exc:
            print(f"tablectl watch: --password-file: {exc.strerror}: {args.password_file}", file=sys.stderr)
            return 2
    tls = None
    if args.tls or args.tls_ca_file:
        from controller.shared.mqtt_tls import TlsError, tls_context
        try:
            tls = tls_context(args.tls_ca_file, None, None)
        except TlsError as exc:
            print(f"tablectl watch: --tls-ca-file: {exc.reason}", file=sys.stderr)
            return 2
    base = f"{args.prefix}/{args.table}"
    board = args.view == "board" or (args.view == "auto" and args.table == "+" and sys.stdout.isatty())
    screen = None
    if board:
        glance = Glance()
        screen = Screen(glance, sys.stdout, f"watching {base} on {host}:{port}")
        glance.on_change = screen.changed
        watch = Watch(args.prefix, verbose=args.verbose, since=args.since, replay=args.replay,
                      replay_max=args.replay_max, out=glance.note, observer=glance.observe, event_lines=False)
    else:
        watch = Watch(args.prefix, verbose=args.verbose, since=args.since, replay=args.replay,
                      replay_max=args.replay_max)
    say = glance.note if board else (lambda line: print(line, flush=True))

    def link(up: bool) -> None:   # once each way, however long paho retries in between
        say(f"watch: the broker at {host}:{port} is back" if up else
            f"watch: the broker at {host}:{port} went away; retrying until it is back")

    # A client id of its own (paho's random one is not a requester the schema takes): the table
    # keeps each requester's replays apart, so two screens asking never share a queue.
    client_id = re.sub(r"[^A-Za-z0-9_.-]", "-", f"tablectl-watch-{socket.gethostname()[:24]}-{os.getpid()}")[:64]
    watch.requester = client_id
    pit = PitClient(host, port, watch.topics(args.table), watch.on_message, on_bad=watch.on_bad, client_id=client_id,
                    username=args.user, password=password, tls=tls, on_link=link)
    watch.publish = pit.publish
    try:
        pit.start()
    except (RuntimeError, OSError) as exc:
        print(f"tablectl watch: {exc}", file=sys.stderr)
        return 1
    print(f"watching {base} on {host}:{port}", flush=True)
    stop = StopSignal()   # left installed while the watch closes
    if screen is not None:
        screen.start()
        if hasattr(signal, "SIGWINCH"):
            # resized: redraw to the new width (its byte wakes the wait, which goes on)
            signal.signal(signal.SIGWINCH, lambda *_: screen.changed())
    stop.wait()
    watch.close()
    pit.stop()
    if screen is not None:
        screen.close()
    print(watch.summary(), flush=True)
    return 0
