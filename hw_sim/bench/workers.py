"""The benchmark's child processes that need no simulated table: the pit
subscriber and the bare pipeline (a writer on a pseudo-terminal, and its
reader: pyserial -> paho-mqtt, nothing else). The simulated table's worker
is hw_sim.bench.sim_worker.

Each runs as ``python -m hw_sim.bench worker <role> ...``, prints
``ready`` when it is set up, and on SIGTERM writes what it measured to its
``--out`` file (JSON) and exits. Timestamps are ``time.monotonic_ns()``,
shared by every process on the machine (hw_sim.bench.proc).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import sys
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from drivers.stop_signal import StopSignal


def _stop_on_sigterm() -> StopSignal:
    """The bench ends a worker with SIGTERM; an Event set by a handler could miss it
    (drivers/stop_signal.py) and hang the bench."""
    return StopSignal()


def _connect(client: mqtt.Client, host: str, port: int, timeout: float = 10.0) -> None:
    connected = threading.Event()
    client.on_connect = lambda *a: connected.set()
    client.connect(host, port, keepalive=30)
    client.loop_start()
    if not connected.wait(timeout):
        raise SystemExit(f"bench worker: no connection to the broker on {host}:{port}")


# -- the pit subscriber ------------------------------------------------------------

def run_subscriber(args: argparse.Namespace) -> int:
    """Receive every message on ``--topic`` (QoS 1) and timestamp it on arrival.

    The paho callback only appends (time, topic, payload): JSON is parsed
    after the run, so the subscriber costs as little as any pit client.
    ``--progress KIND`` prints ``P <kind> <table> <t_ns>`` for each such event
    as it arrives, so the bench can act on milestones (rounds completed).
    """
    stop = _stop_on_sigterm()
    records: list[tuple[int, str, bytes]] = []
    progress = set(args.progress or ())
    subscribed = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-sub-{args.name}")

    def on_message(_client: Any, _userdata: Any, msg: mqtt.MQTTMessage) -> None:
        now = time.monotonic_ns()
        records.append((now, msg.topic, msg.payload))
        if progress:
            parts = msg.topic.split("/")
            if parts[-1] in progress:
                print(f"P {parts[-1]} {parts[-3]} {now}", flush=True)

    client.on_message = on_message
    client.on_subscribe = lambda *a: subscribed.set()
    _connect(client, args.host, args.port)
    client.subscribe([(t, 1) for t in args.topic])
    if not subscribed.wait(10):
        raise SystemExit("bench subscriber: the broker did not confirm the subscription")
    print("ready", flush=True)
    stop.wait()
    client.disconnect()
    client.loop_stop()
    out, bad = [], 0
    for t, topic, payload in records:
        try:
            env = json.loads(payload)
            data = env.get("data") or {}
            parts = topic.split("/")
            out.append([t, env.get("table") or parts[-3], env.get("seq"), env.get("kind") or parts[-1],
                        data.get("card"), data.get("face"), env.get("ts")])
        except (ValueError, AttributeError):
            bad += 1
    # The envelope's ts is wall-clock time (time.time() when the table emitted
    # the event); this offset turns it into monotonic time, for a breakdown.
    offset = time.time() - time.monotonic_ns() / 1e9
    with open(args.out, "w") as f:
        json.dump({"records": out, "not_json": bad, "wall_minus_monotonic_s": offset}, f)
    return 0


# -- the bare pipeline's reader --------------------------------------------------------

def run_bare_reader(args: argparse.Namespace) -> int:
    """The least a reader can do: pyserial reads the pseudo-terminal, each
    complete card frame is published by paho-mqtt at QoS 1 as a JSON event
    of the controller's envelope shape. Framing uses the project's pure
    decoder, because a reader must know where a frame ends; no journal, no
    round machine, no ACKs back to the writer."""
    import serial

    from drivers.framing import FrameDecoder

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-bare-{args.name}")
    _connect(client, args.host, args.port)
    port = serial.serial_for_url(args.device, baudrate=args.baudrate, timeout=None)
    table = args.table or "bare"
    topic, end = f"bench/{table}/event/card", f"bench/{table}/event/end"
    journal = _durable(args.journal) if args.journal else None
    _notify_ready()
    print("ready", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    decoder = FrameDecoder()
    n = 0
    while True:
        data = port.read(max(1, port.in_waiting))
        for frame in decoder.feed(data):
            if frame.type == "E":   # the writer's last frame: everything before it was published
                client.publish(end, json.dumps({"table": table, "kind": "end"}).encode(), qos=1)
            if frame.type != "C":
                continue
            n += 1
            env = {"seq": n, "ts": time.time(), "table": table, "round": None, "kind": "card",
                   "data": {"hand": "player", "position": 1, "face": "up", "card": frame.payload.decode("ascii"),
                            "value": 0}}
            body = json.dumps(env, separators=(",", ":")).encode()
            if journal is not None:   # the durability the controller promises: committed before it goes out
                journal.execute("INSERT INTO events (seq, envelope) VALUES (?, ?)", (n, body))
            client.publish(topic, body, qos=1)


def _durable(path: str) -> Any:
    """The durable baseline's journal: SQLite in WAL mode with ``synchronous = FULL``, a commit per
    frame (autocommit), as the controller's journal commits each item's events before publishing
    (controller/table/journal.py, "Durability") -- the cost of the promise, without the controller."""
    import sqlite3

    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, envelope BLOB NOT NULL)")
    db.execute("DELETE FROM events")
    return db


def _notify_ready() -> None:
    """``READY=1`` to ``$NOTIFY_SOCKET``, as systemd's notify protocol has it (the controller's
    own is controller/table/sdnotify.py; the bench imports nothing of the controller)."""
    path = os.environ.get("NOTIFY_SOCKET")
    if not path:
        return
    if path.startswith("@"):
        path = "\0" + path[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect(path)
        sock.sendall(b"READY=1")


# -- the bare pipeline's writer --------------------------------------------------------

def run_bare_writer(args: argparse.Namespace) -> int:
    """The bare pipeline's shoe: card frames written to a pseudo-terminal (the
    simulator's own PtyPort), each timestamped when its write returns; a shoe
    empty frame (``E``) last, so the bench knows when all arrived."""
    from drivers import messages
    from drivers.framing import encode
    from games.decks import standard
    from hw_sim.transport import open_pty

    port = open_pty(args.device)
    port.write_timeout = 60.0   # at full speed, wait for the reader rather than drop frames
    codes = [c.code for c in standard(8).all_cards()]
    random.Random(args.seed).shuffle(codes)
    stop = StopSignal((signal.SIGTERM,))
    print("ready", flush=True)
    if sys.stdin.readline().strip() != "go":
        return 1
    sent = []
    for i in range(args.count):
        code = codes[i % len(codes)]
        port.write(encode(i % 256, messages.CARD, code))
        sent.append((time.monotonic_ns(), code))
        if args.pace:
            time.sleep(args.pace)
    port.write(encode(args.count % 256, messages.EMPTY))
    print("done", flush=True)
    stop.wait()
    with open(args.out, "w") as f:
        json.dump({"sent": sent}, f)
    port.close()
    return 0


ROLES = {"subscriber": run_subscriber, "bare-reader": run_bare_reader, "bare-writer": run_bare_writer}


def add_worker_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments shared by every worker role (each uses the ones it needs)."""
    p.add_argument("--name", default="0")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=1883)
    p.add_argument("--topic", action="append")
    p.add_argument("--progress", action="append")
    p.add_argument("--out")
    p.add_argument("--device")
    p.add_argument("--table", help="bare-reader: its events' table and topic (bench/<table>/event/...)")
    p.add_argument("--journal", help="bare-reader: commit each event to this SQLite file before publishing")
    p.add_argument("--baudrate", type=int, default=115200)
