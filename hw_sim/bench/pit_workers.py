"""The pit part's child processes (hw_sim.bench.pit): simulated tables publishing real table events at
a set rate, and a crowd of pit-board browsers.

``python -m hw_sim.bench worker pit-tables --recording FILE --tables K --rate R --prefix P``:
K tables, each born (a retained status, as a table's birth message) and then publishing the events
a real simulated table journaled (the recording), one after another and round after round, with
the table's own id, contiguous seqs, rounds that go on, and ``ts`` the wall clock of the publish
(the archive's ``received_at`` minus it is the archive's latency). The K tables together publish R
events a second on a fixed schedule, QoS 1, whatever the pit does, table after table in turn (so
table i, from 0, has published ``n // K + (i < n % K)`` of ``n``). Each answers ``cmd/replay`` as a
table does (controller.table.outbox): the reply, then the same bytes again on their usual topics,
from what it published (the last :data:`KEEP` events of the run; older ones are refused as
pruned), so a gap a pit service finds is filled as on a floor. It prints ``ready``, then
``S <monotonic ns> <published>`` every tenth of a second, until SIGTERM, and at the end
``R <requests> <events replayed> <refused>``.

``python -m hw_sim.bench worker board-streams --port PORT --count N --mode read|unread``: N
browsers on the board's event stream (``GET /events``), all in this process on one selector.
``read``: each reads what comes as it comes, and counts the patches. ``unread``: each sends its
request and never reads again (a laptop whose lid closed). It prints ``ready <connected>``
(``read``: once each has its snapshot), and on SIGTERM writes what it saw to ``--out``: the patches
read, and how many streams the board closed (an ``unread`` one is found closed when what it never
read has been read now).
"""

from __future__ import annotations

import argparse
import copy
import errno
import json
import selectors
import socket
import sys
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from drivers.stop_signal import StopSignal
from hw_sim.bench.sim_worker import tcp_no_delay


def _stopped() -> threading.Event:
    """Set at SIGTERM (drivers.stop_signal, waited on by a thread of its own): the workers' loops
    wait on this with timeouts."""
    signal_ = StopSignal()
    done = threading.Event()

    def wait() -> None:
        signal_.wait()
        done.set()
    threading.Thread(target=wait, name="stop", daemon=True).start()
    return done


def _halted(stop: threading.Event) -> threading.Event:
    """Set at SIGTERM, or at a line ``halt`` on stdin: the tables stop publishing (and, halted so,
    go on answering replays until SIGTERM)."""
    halt = threading.Event()

    def read() -> None:
        for line in sys.stdin:
            if line.strip() == "halt":
                break
        halt.set()

    def relay() -> None:
        stop.wait()
        halt.set()
    threading.Thread(target=read, name="halt", daemon=True).start()
    threading.Thread(target=relay, name="halt-stop", daemon=True).start()
    return halt


def add_pit_worker_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--recording")
    p.add_argument("--tables", type=int, default=4)
    p.add_argument("--rate", type=float, default=100.0)
    p.add_argument("--prefix", default="casino")
    p.add_argument("--mode", choices=("read", "unread"), default="read")
    p.add_argument("--path", default="/events")


# -- the tables ------------------------------------------------------------------------

class _Recording:
    """A real table's events, replayed as table ``table``: its seqs from 1, rounds going on."""

    def __init__(self, events: list[dict], table: str) -> None:
        self.events = events
        self.table = table
        rounds = [e["round"] for e in events if isinstance(e.get("round"), int)]
        self.span = (max(rounds) - min(rounds) + 1) if rounds else 0
        self.n = 0

    def next(self) -> tuple[str, bytes]:
        lap, i = divmod(self.n, len(self.events))
        self.n += 1
        env = copy.deepcopy(self.events[i])
        env["seq"], env["ts"], env["table"] = self.n, time.time(), self.table
        if isinstance(env.get("round"), int):
            env["round"] += lap * self.span
        data = env.get("data")
        if isinstance(data, dict) and isinstance(data.get("round"), int):
            data["round"] += lap * self.span
        return env["kind"], json.dumps(env).encode()


KEEP = 400_000
"""Events the tables keep for replays, all together (a few hundred MB at most)."""


class _Replays:
    """The tables' answers to ``cmd/replay``: what each published, by seq, and the requests seen."""

    def __init__(self, client: mqtt.Client, prefix: str, tables: list[_Recording]) -> None:
        self.client = client
        self.prefix = prefix
        self.sent: dict[str, list[tuple[str, bytes] | None]] = {t.table: [] for t in tables}
        self.kept: deque[tuple[str, int]] = deque()
        self.lock = threading.Lock()
        self.requests = self.events = self.refused = 0

    def keep(self, table: str, kind: str, payload: bytes) -> None:
        with self.lock:
            self.sent[table].append((kind, payload))
            self.kept.append((table, len(self.sent[table]) - 1))
            if len(self.kept) > KEEP:
                old, i = self.kept.popleft()
                self.sent[old][i] = None

    def on_message(self, _c: Any, _u: Any, msg: mqtt.MQTTMessage) -> None:
        parts = msg.topic.split("/")
        table = parts[-3] if len(parts) >= 3 else ""
        try:
            body = json.loads(msg.payload)
            first, last, rid = int(body["from"]), int(body["to"]), body.get("id")
        except (ValueError, KeyError, TypeError):
            return
        if table not in self.sent:
            return
        with self.lock:
            self.requests += 1
            events = self.sent[table]
            wanted = events[first - 1:last] if 1 <= first <= last <= len(events) else None
            error = None
            if wanted is None:
                error = f"to is beyond the last event journaled, seq {len(events)}"
            elif any(w is None for w in wanted):
                error = "the journal no longer holds those seqs (pruned)"
            if error is not None:
                self.refused += 1
                reply = {"id": rid, "command": "replay", "ok": False, "error": error}
            else:
                self.events += len(wanted)
                reply = {"id": rid, "command": "replay", "ok": True,
                         "data": {"from": first, "to": last, "count": last - first + 1, "queued_before": 0}}
        self.client.publish(msg.topic + "/reply", json.dumps(reply), qos=1)
        for item in wanted if error is None else ():
            assert item is not None
            self.client.publish(f"{self.prefix}/{table}/event/{item[0]}", item[1], qos=1)


def run_pit_tables(args: argparse.Namespace) -> int:
    stop = _stopped()
    recorded = json.loads(Path(args.recording).read_text())
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-tables-{args.name}")
    client.on_socket_open = tcp_no_delay
    client.max_inflight_messages_set(1000)
    client.max_queued_messages_set(0)
    tables = [_Recording(recorded["events"], f"{args.name}-{i:02d}") for i in range(1, args.tables + 1)]
    replays = _Replays(client, args.prefix, tables)
    connected = threading.Event()

    def on_connect(c: mqtt.Client, *_a: Any) -> None:
        c.subscribe(f"{args.prefix}/+/cmd/replay", qos=1)
        connected.set()
    client.on_connect = on_connect
    client.on_message = replays.on_message
    client.connect(args.host, args.port, keepalive=30)
    client.loop_start()
    if not connected.wait(10):
        raise SystemExit(f"bench tables: no connection to the broker on {args.host}:{args.port}")
    for t in tables:
        status = {**recorded["status"], "table": t.table, "birth": 1, "next_seq": 1, "online": True, "ts": time.time()}
        client.publish(f"{args.prefix}/{t.table}/status", json.dumps(status), qos=1, retain=True).wait_for_publish(10)
    print("ready", flush=True)
    interval = 1.0 / args.rate
    start = time.monotonic()
    sent = 0
    next_report = start
    halt = _halted(stop)
    while not halt.is_set():
        due = start + sent * interval
        now = time.monotonic()
        if now < due:
            halt.wait(due - now)
            continue
        t = tables[sent % len(tables)]
        kind, payload = t.next()
        replays.keep(t.table, kind, payload)
        client.publish(f"{args.prefix}/{t.table}/event/{kind}", payload, qos=1)
        sent += 1
        if now >= next_report:
            print(f"S {time.monotonic_ns()} {sent}", flush=True)
            next_report = now + 0.1
    print(f"S {time.monotonic_ns()} {sent}", flush=True)
    if halt.is_set():   # replays asked for after the last publish are still answered, until SIGTERM
        stop.wait()
    print(f"R {replays.requests} {replays.events} {replays.refused}", flush=True)
    client.loop_stop()
    client.disconnect()
    return 0


# -- the browsers ------------------------------------------------------------------------

class _Stream:
    __slots__ = ("closed", "patches", "refused", "snapshot", "sock", "tail")

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.patches = 0
        self.snapshot = False
        self.closed = False
        self.refused = False
        self.tail = b""

    def took(self, data: bytes) -> None:
        text = self.tail + data
        if not self.snapshot and b"event: snapshot\n" in text:
            self.snapshot = True
        if not self.snapshot and b" 503 " in text[:40]:
            self.refused = True
        self.patches += text.count(b"event: patch\n")
        self.tail = text[-12:]


def run_board_streams(args: argparse.Namespace) -> int:
    stop = _stopped()
    request = f"GET {args.path} HTTP/1.1\r\nHost: 127.0.0.1:{args.port}\r\nAccept: text/event-stream\r\n\r\n".encode()
    streams: list[_Stream] = []
    for _ in range(args.count):
        sock = socket.create_connection((args.host, args.port), timeout=30)
        sock.sendall(request)
        sock.setblocking(False)
        streams.append(_Stream(sock))
    out: dict[str, Any] = {"count": args.count, "mode": args.mode}
    if args.mode == "unread":
        print(f"ready {len(streams)}", flush=True)
        stop.wait()
        closed = sum(_closed_by_server(s.sock) for s in streams)
        out.update(closed_by_server=closed)
    else:
        selector = selectors.DefaultSelector()
        for s in streams:
            selector.register(s.sock, selectors.EVENT_READ, s)
        said_ready = False
        started = time.monotonic()
        while not stop.is_set():
            for key, _ in selector.select(0.2):
                s = key.data
                try:
                    data = s.sock.recv(262144)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    s.closed = True
                    selector.unregister(s.sock)
                    continue
                s.took(data)
            if not said_ready and all(s.snapshot or s.closed or s.refused for s in streams):
                said_ready = True
                started = time.monotonic()
                print(f"ready {sum(s.snapshot for s in streams)}", flush=True)
        patches = [s.patches for s in streams]
        out.update(seconds=time.monotonic() - started, patches=sum(patches), patches_min=min(patches, default=0), patches_max=max(patches, default=0),
                   snapshots=sum(s.snapshot for s in streams), closed_by_server=sum(s.closed for s in streams),
                   refused=sum(s.refused for s in streams))
    for s in streams:
        s.sock.close()
    if args.out:
        Path(args.out).write_text(json.dumps(out))
    return 0


def _closed_by_server(sock: socket.socket) -> bool:
    """Whether the board closed (or reset) this stream: read what it never read, to its end."""
    while True:
        try:
            if not sock.recv(1 << 20):
                return True
        except BlockingIOError:
            return False
        except OSError as exc:
            return exc.errno in (errno.ECONNRESET, errno.EPIPE)


ROLES = {"pit-tables": run_pit_tables, "board-streams": run_board_streams}
