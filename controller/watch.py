"""`tablectl watch`: the pit's view of a table in the terminal, and with ``--replay`` the
subscriber that asks the table for the gaps it finds (moved out of controller/cli.py, which
many hands edit, so that watch can grow in a module of its own)."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path

from controller.pit_client import PitClient, parse_address
from controller.pitview import PitView


def add_arguments(w: argparse.ArgumentParser) -> None:
    """The options of ``tablectl watch``."""
    w.add_argument("--broker", default="127.0.0.1:1883", help="HOST:PORT")
    w.add_argument("--prefix", default="casino")
    w.add_argument("--table", default="+", help="table id (default: every table)")
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


def cmd_watch(args: argparse.Namespace) -> int:
    try:
        host, port = parse_address(args.broker)
    except ValueError as exc:
        print(f"tablectl watch: {exc}", file=sys.stderr)
        return 2
    if args.since is not None and args.since < 1:
        print(f"tablectl watch: --since {args.since}: a seq starts at 1", file=sys.stderr)
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
        from controller.mqtt_tls import TlsError, tls_context
        try:
            tls = tls_context(args.tls_ca_file, None, None)
        except TlsError as exc:
            print(f"tablectl watch: --tls-ca-file: {exc.reason}", file=sys.stderr)
            return 2
    view = PitView(verbose=args.verbose)
    view.seqs.since = args.since
    lock = threading.Lock()

    def on_event(topic: str, env: dict) -> None:
        if "/event/" not in topic:
            if topic.endswith("/reply"):
                with lock:
                    print(view.reply_line(topic, env), flush=True)
                return
            with lock:
                print(view.status_line(topic, env), flush=True)
            return
        with lock:
            filled = view.seqs.filled
            for line in view.feed(env):
                print(line, flush=True)
            table = str(env.get("table", "?"))
            if view.seqs.filled > filled and view.seqs.missing(table) == 0:
                print(f"[{table}] no gap left: every seq up to {view.seqs.last[table]} received", flush=True)
            gaps = view.seqs.take_gaps()
            for table, first, last in gaps:
                what = "asking for a replay" if args.replay else "tablectl watch --replay would ask for them"
                print(f"[{table}] GAP: seqs {first}-{last} missing; {what}", flush=True)
        if args.replay:  # outside the lock: paho's publish may wait for its own lock
            for table, first, last in gaps:
                pit.publish(f"{args.prefix}/{table}/cmd/replay",
                            {"id": f"watch-{first}-{last}", "from": first, "to": last})

    def on_bad(topic: str, payload: bytes) -> None:
        print(f"[{topic}] not JSON ({len(payload)} bytes)", flush=True)

    base = f"{args.prefix}/{args.table}"
    topics = [f"{base}/event/#", f"{base}/status"] + ([f"{base}/cmd/replay/reply"] if args.replay else [])
    pit = PitClient(host, port, topics, on_event, on_bad=on_bad, username=args.user, password=password, tls=tls)
    try:
        pit.start()
    except (RuntimeError, OSError) as exc:
        print(f"tablectl watch: {exc}", file=sys.stderr)
        return 1
    print(f"watching {base} on {host}:{port}", flush=True)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait()
    pit.stop()
    seqs = view.seqs
    print(f"watch: {len(seqs.last)} tables; {seqs.gaps} seqs found missing, "
          f"{seqs.filled} of them filled later, {seqs.missing()} still missing; "
          f"{seqs.duplicates} duplicates dropped", flush=True)
    return 0

